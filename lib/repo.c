/*
 * repo: discovery, layered configuration (the settings parsed from it
 * are in repo-settings.c).
 *
 * Setup, as git's (v2.39) setup_git_directory_gently(), in three cases:
 *
 *   GIT_DIR set ("explicit"): the directory, or the git directory a
 *	gitfile there names.  Work tree: GIT_WORK_TREE; else none if
 *	core.bare; else core.worktree (relative to the git directory);
 *	else none if GIT_IMPLICIT_WORK_TREE is false; else the current
 *	directory.
 *   ".git" found walking up (a directory, or a gitfile): with
 *	GIT_WORK_TREE or core.worktree as the explicit case; else none if
 *	core.bare; else the directory .git was found in.
 *   a bare repository found walking up: with GIT_WORK_TREE or
 *	core.worktree as the explicit case (GIT_IMPLICIT_WORK_TREE is 0);
 *	else none.
 *
 * core.bare and core.worktree come from the repository's own config file
 * only (and config.worktree with extensions.worktreeConfig), and not at
 * all from the common directory's config for a linked worktree, nor when
 * the config has no core.repositoryformatversion; that file is read
 * without includes, as git checks the format.  The work tree is a real
 * path whose last component may be missing: only repo_setup_worktree()
 * then fails.
 *
 * Configuration order (later wins): system file, XDG file, ~/.gitconfig,
 * <commondir>/config, <gitdir>/config.worktree (with
 * extensions.worktreeConfig), then the command line and environment
 * (-c, GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT).
 */
#include "repo.h"

#include <ctype.h>
#include <fcntl.h>
#include <limits.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "odb.h"
#include "path.h"
#include "perm.h"
#include "reftable.h"
#include "replace.h"
#include "repo-internal.h"
#include "strbuf.h"

#define GITFILE_MAX (1 << 20)	/* git's limit on a gitfile's size */

char *
repo_abspath(const char *path, const char *base)
{
	struct strbuf sb = STRBUF_INIT;

	if (path[0] == '/')
		return xstrdup(path);
	if (base)
		strbuf_addstr(&sb, base);
	else if (strbuf_getcwd(&sb) < 0)
		return xstrdup(path);
	if (sb.len && sb.buf[sb.len - 1] != '/')
		strbuf_addch(&sb, '/');
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	if (!strcmp(path, "."))
		path = "";
	strbuf_addstr(&sb, path);
	while (sb.len > 1 && sb.buf[sb.len - 1] == '/')
		strbuf_setlen(&sb, sb.len - 1);
	return strbuf_detach(&sb, NULL);
}

/* git's message for a path that does not resolve: its first bad part */
static int
invalid_path(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = path;
	struct stat st;
	int ret;

	do {
		const char *slash = strchr(p + 1, '/');

		strbuf_reset(&sb);
		strbuf_add(&sb, path, slash ? (size_t)(slash - path) :
			   strlen(path));
		p = slash;
	} while (p && !stat(sb.buf, &st));
	if (!stat(sb.buf, &st))
		errno = ENOTDIR;
	ret = error_errno(errno, "Invalid path '%s'", sb.buf);
	strbuf_release(&sb);
	return ret;
}

int
repo_realpath(struct strbuf *out, const char *path)
{
	struct strbuf parent = STRBUF_INIT;
	char *abs, *real;
	const char *last;
	struct stat st;
	int ret;

	if (!*path)
		return error_set(E_NOTFOUND, "The empty string is not a valid "
				 "path");
	real = realpath(path, NULL);
	if (real) {
		strbuf_reset(out);
		strbuf_addstr(out, real);
		free(real);
		return 0;
	}
	abs = repo_abspath(path, NULL);
	if (errno != ENOENT)
		goto bad;
	/* only the last component may be missing */
	last = strrchr(abs, '/');
	if (!last || !strcmp(last + 1, ".") || !strcmp(last + 1, ".."))
		goto bad;
	strbuf_add(&parent, abs, last == abs ? 1 : (size_t)(last - abs));
	real = realpath(parent.buf, NULL);
	if (!real || !lstat(abs, &st))
		goto bad;
	strbuf_reset(out);
	strbuf_addstr(out, real);
	if (out->len > 1)
		strbuf_addch(out, '/');
	strbuf_addstr(out, last + 1);
	free(real);
	free(abs);
	strbuf_release(&parent);
	return 0;
bad:
	ret = invalid_path(abs);
	free(real);
	free(abs);
	strbuf_release(&parent);
	return ret;
}

/* git's validate_headref(): a HEAD that makes dir a repository */
static int
head_is_valid(const char *gitdir)
{
	struct strbuf path = STRBUF_INIT;
	char buf[256];
	struct stat st;
	const char *p;
	ssize_t len;
	int ok = 0, fd;

	strbuf_addf(&path, "%s/HEAD", gitdir);
	if (lstat(path.buf, &st) < 0)
		goto out;
	if (S_ISLNK(st.st_mode)) {
		len = readlink(path.buf, buf, sizeof(buf) - 1);
		ok = len >= 5 && !memcmp(buf, "refs/", 5);
		goto out;
	}
	fd = open(path.buf, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto out;
	len = read_full(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len < 0)
		goto out;
	buf[len] = '\0';
	if (skip_prefix(buf, "ref:", &p)) {
		while (isspace((unsigned char)*p))
			p++;
		if (starts_with(p, "refs/")) {
			ok = 1;
			goto out;
		}
	}
	if (len >= HASH_HEXSZ) {
		struct object_id oid;

		ok = !hex_to_oid(&oid, buf);
	}
out:
	strbuf_release(&path);
	return ok;
}

int
repo_commondir_of(struct strbuf *out, const char *gitdir)
{
	struct strbuf path = STRBUF_INIT, data = STRBUF_INIT;
	const char *env = getenv("GIT_COMMON_DIR");
	struct stat st;
	int ret = 0;

	if (env) {
		char *abs = repo_abspath(env, NULL);

		strbuf_reset(out);
		strbuf_addstr(out, abs);
		free(abs);
		return 1;
	}
	strbuf_addf(&path, "%s/commondir", gitdir);
	if (stat(path.buf, &st) < 0) {
		strbuf_reset(out);
		strbuf_addstr(out, gitdir);
		goto out;
	}
	if (strbuf_read_file(&data, path.buf) < 0 || !data.len) {
		ret = error_set(E_IO, "failed to read %s", path.buf);
		goto out;
	}
	while (data.len && (data.buf[data.len - 1] == '\n' ||
			    data.buf[data.len - 1] == '\r'))
		strbuf_setlen(&data, data.len - 1);
	strbuf_reset(&path);
	if (data.buf[0] != '/')
		strbuf_addf(&path, "%s/", gitdir);
	strbuf_addbuf(&path, &data);
	ret = repo_realpath(out, path.buf);
	if (!ret)
		ret = 1;
out:
	strbuf_release(&path);
	strbuf_release(&data);
	return ret;
}

int
repo_is_gitdir(const char *dir, const char *objdir_env)
{
	struct strbuf path = STRBUF_INIT, common = STRBUF_INIT;
	int ok = 0;

	if (!head_is_valid(dir))
		goto out;
	if (repo_commondir_of(&common, dir) < 0) {
		error_clear();
		goto out;
	}
	if (objdir_env) {
		if (access(objdir_env, X_OK))
			goto out;
	} else {
		strbuf_addf(&path, "%s/objects", common.buf);
		if (access(path.buf, X_OK))
			goto out;
	}
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/refs", common.buf);
	ok = !access(path.buf, X_OK);
out:
	strbuf_release(&common);
	strbuf_release(&path);
	return ok;
}

int
repo_read_gitfile(struct strbuf *out, const char *path)
{
	struct strbuf buf = STRBUF_INIT, dir = STRBUF_INIT;
	const char *slash;
	struct stat st;
	size_t len;
	int fd, ret = 1;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	if (st.st_size > GITFILE_MAX)
		return error_set(E_CORRUPT, "too large to be a .git file: "
				 "'%s'", path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_errno(errno, "error opening '%s'", path);
	len = (size_t)st.st_size;
	strbuf_grow(&buf, len);
	if (read_full(fd, buf.buf, len) != (ssize_t)len) {
		close(fd);
		ret = error_set(E_IO, "error reading %s", path);
		goto out;
	}
	close(fd);
	strbuf_setlen(&buf, len);
	if (!starts_with(buf.buf, "gitdir: ")) {
		ret = error_set(E_CORRUPT, "invalid gitfile format: %s", path);
		goto out;
	}
	while (buf.len && (buf.buf[buf.len - 1] == '\n' ||
			   buf.buf[buf.len - 1] == '\r'))
		strbuf_setlen(&buf, buf.len - 1);
	if (buf.len < 9) {
		ret = error_set(E_CORRUPT, "no path in gitfile: %s", path);
		goto out;
	}
	slash = strrchr(path, '/');
	if (buf.buf[8] != '/' && slash)
		strbuf_add(&dir, path, slash - path + 1);
	strbuf_addstr(&dir, buf.buf + 8);
	if (!repo_is_gitdir(dir.buf, getenv("GIT_OBJECT_DIRECTORY"))) {
		ret = error_set(E_NOREPO, "not a git repository: %s", dir.buf);
		goto out;
	}
	if (repo_realpath(out, dir.buf) < 0)
		ret = -error_code();
out:
	strbuf_release(&buf);
	strbuf_release(&dir);
	return ret;
}

/*
 * The repository format, from the config file of the common directory
 * (and config.worktree with extensions.worktreeConfig), read as git's
 * check_repo_format() reads it.
 */
struct format {
	long version;		/* -1: no core.repositoryformatversion */
	int bare;		/* core.bare, -1 unset */
	char *worktree;		/* core.worktree; owned */
	int worktree_config;	/* extensions.worktreeConfig */
	const struct hash_algo *algo;	/* extensions.objectFormat; NULL: SHA-1 */
	struct strbuf unknown;	/* "\n\t<name>" for each unknown one */
	struct strbuf v1_only;	/* ... each extension only v1 allows */
	int nr_unknown, nr_v1_only;
	int reftable;		/* extensions.refStorage=reftable */
	const struct hash_algo *compat;	/* extensions.compatObjectFormat */
	char *ref_payload;	/* "<format>://<payload>": the payload */
	const char *file;	/* being read, for messages */
	int only_worktree_keys;	/* reading config.worktree */
	/*
	 * The common directory's config as read for the format, kept for
	 * load_repo_config(): one read of the file, not two.
	 */
	struct strbuf text;
	char *text_path;	/* its path; NULL if not read; owned */
};

static void
format_release(struct format *fmt)
{
	free(fmt->worktree);
	free(fmt->ref_payload);
	strbuf_release(&fmt->unknown);
	strbuf_release(&fmt->v1_only);
	strbuf_release(&fmt->text);
	free(fmt->text_path);
}

static int
bad_format_line(const struct format *fmt, const struct config_event *ev,
		const char *why)
{
	return error_set_pre(E_INVALID, why, "bad config line %d in file %s",
			     ev->line, fmt->file);
}

static int
format_event(const struct config_event *ev, void *data)
{
	struct format *fmt = data;
	const char *key = ev->key, *v = ev->value, *ext;
	int b;

	if (ev->type != CONFIG_EVENT_ENTRY)
		return 0;
	if (!strcmp(key, "core.bare")) {
		b = config_parse_bool(v);
		if (b < 0)
			return error_set(E_INVALID, "bad boolean config value "
					 "'%s' for '%s'", v, key);
		fmt->bare = b;
	} else if (!strcmp(key, "core.worktree")) {
		if (!v)
			return bad_format_line(fmt, ev, "missing value for "
					       "'core.worktree'");
		free(fmt->worktree);
		fmt->worktree = xstrdup(v);
	} else if (fmt->only_worktree_keys) {
		return 0;
	} else if (!strcmp(key, "core.repositoryformatversion")) {
		if (!v || config_parse_long(v, &fmt->version) < 0)
			return error_set(E_INVALID, "bad numeric config value "
					 "'%s' for '%s' in file %s: invalid "
					 "unit", v ? v : "", key, fmt->file);
	} else if (skip_prefix(key, "extensions.", &ext)) {
		if (!strcmp(ext, "noop") || !strcmp(ext, "preciousobjects") ||
		    !strcmp(ext, "partialclone")) {
			/* allowed in version 0 too */
		} else if (!strcmp(ext, "worktreeconfig")) {
			b = config_parse_bool(v);
			if (b < 0)
				return error_set(E_INVALID, "bad boolean "
						 "config value '%s' for '%s'",
						 v, key);
			fmt->worktree_config = b;
		} else if (!strcmp(ext, "refstorage")) {
			/* git 2.45: "<format>[://<payload>]" */
			size_t n;

			if (!v)
				return bad_format_line(fmt, ev,
					"missing value for "
					"'extensions.refstorage'");
			n = strstr(v, "://") ? (size_t)(strstr(v, "://") - v) :
					       strlen(v);
			if (n == 8 && !strncmp(v, "reftable", n)) {
				fmt->reftable = 1;
			} else if (n == 5 && !strncmp(v, "files", n)) {
				fmt->reftable = 0;
			} else {
				struct strbuf why = STRBUF_INIT;
				int ret;

				strbuf_addf(&why, "invalid value for "
					    "'extensions.refstorage': '%s'", v);
				ret = bad_format_line(fmt, ev, why.buf);
				strbuf_release(&why);
				return ret;
			}
			free(fmt->ref_payload);
			fmt->ref_payload = v[n] ? xstrdup(v + n + 3) : NULL;
			strbuf_addf(&fmt->v1_only, "\n\t%s", ext);
			fmt->nr_v1_only++;
		} else if (!strcmp(ext, "relativeworktrees") ||
			   !strcmp(ext, "submodulepathconfig")) {
			/*
			 * git 2.48 / 2.54: how worktree links and submodule
			 * git directories are named; dirc makes neither and
			 * reads both kinds of link
			 */
			if (config_parse_bool(v) < 0)
				return error_set(E_INVALID, "bad boolean "
						 "config value '%s' for '%s'",
						 v ? v : "", key);
			strbuf_addf(&fmt->v1_only, "\n\t%s", ext);
			fmt->nr_v1_only++;
		} else if (!strcmp(ext, "compatobjectformat")) {
			/* git 2.45: objects named in a second hash too */
			const struct hash_algo *compat;
			struct strbuf why = STRBUF_INIT;
			int ret = 0;

			if (!v)
				return bad_format_line(fmt, ev,
					"missing value for "
					"'extensions.compatobjectformat'");
			compat = hash_algo_by_name(v);
			if (!compat)
				strbuf_addf(&why, "invalid value for "
					    "'extensions.compatobjectformat': "
					    "'%s'", v);
			else if (fmt->compat)
				strbuf_addf(&why, "'extensions.compatobjectformat'"
					    " already specified as '%s'",
					    fmt->compat->name);
			if (why.len)
				ret = bad_format_line(fmt, ev, why.buf);
			strbuf_release(&why);
			if (ret < 0)
				return ret;
			fmt->compat = compat;
			strbuf_addf(&fmt->v1_only, "\n\t%s", ext);
			fmt->nr_v1_only++;
		} else if (!strcmp(ext, "noop-v1") ||
			   !strcmp(ext, "objectformat")) {
			if (!strcmp(ext, "objectformat")) {
				struct strbuf why = STRBUF_INIT;
				int ret = 0;

				if (!v)
					return bad_format_line(fmt, ev,
						"missing value for "
						"'extensions.objectformat'");
				fmt->algo = hash_algo_by_name(v);
				if (!fmt->algo) {
					strbuf_addf(&why, "invalid value for "
						    "'extensions.objectformat'"
						    ": '%s'", v);
					ret = bad_format_line(fmt, ev,
							      why.buf);
				}
				strbuf_release(&why);
				if (ret < 0)
					return ret;
			}
			strbuf_addf(&fmt->v1_only, "\n\t%s", ext);
			fmt->nr_v1_only++;
		} else {
			strbuf_addf(&fmt->unknown, "\n\t%s", ext);
			fmt->nr_unknown++;
		}
	}
	return 0;
}

/*
 * GIT_REFERENCE_BACKEND (git 2.55) overrides extensions.refStorage.  A
 * payload (refs kept at another path) is refused: dirc would read and
 * write the refs in the git directory instead.  An empty payload is the
 * git directory itself.
 */
static int
check_ref_backend(struct format *fmt)
{
	const char *env = getenv("GIT_REFERENCE_BACKEND"), *sep;
	const char *payload = fmt->ref_payload;

	if (env) {
		size_t n;

		sep = strstr(env, "://");
		n = sep ? (size_t)(sep - env) : strlen(env);
		if (n == 5 && !strncmp(env, "files", 5))
			fmt->reftable = 0;
		else if (n == 8 && !strncmp(env, "reftable", 8))
			fmt->reftable = 1;
		else
			return error_set(E_INVALID, "unknown ref storage "
					 "format: '%.*s'", (int)n, env);
		payload = sep ? sep + 3 : NULL;
	}
	if (payload && *payload)
		return error_set(E_UNSUPPORTED, "this repository keeps its "
				 "references at '%s' (extensions.refStorage "
				 "with a path), which dirc does not support",
				 payload);
	return 0;
}

/*
 * path: to read; shown: its name in messages (git's, maybe relative);
 * keep: keep the text read in fmt->text.
 */
static int
scan_format_file(struct format *fmt, const char *path, const char *shown,
		 int keep)
{
	struct strbuf text = STRBUF_INIT;
	int ret = strbuf_read_file(&text, path);

	if (ret == -E_NOTFOUND) {
		error_clear();
		ret = 0;
	} else if (ret >= 0) {
		fmt->file = shown;
		ret = config_scan_buffer(text.buf, text.len, shown,
					 format_event, fmt);
		if (ret >= 0 && keep) {
			strbuf_release(&fmt->text);
			fmt->text = text;
			strbuf_init(&text, 0);
			fmt->text_path = xstrdup(path);
		}
	}
	strbuf_release(&text);
	return ret;
}

/*
 * Read and check the format of the repository at gitdir (common
 * directory commondir; linked: it is a linked worktree's).  name: the
 * git directory as git names it then, for messages.  0, or a negative
 * E_*: a config that does not parse, or a format dirc cannot use.
 */
static int
read_format(struct format *fmt, const char *gitdir, const char *commondir,
	    int linked, const char *name)
{
	struct strbuf path = STRBUF_INIT, shown = STRBUF_INIT;
	int ret;

	memset(fmt, 0, sizeof(*fmt));
	fmt->version = -1;
	fmt->bare = -1;
	strbuf_init(&fmt->unknown, 0);
	strbuf_init(&fmt->v1_only, 0);
	strbuf_init(&fmt->text, 0);
	strbuf_addf(&path, "%s/config", commondir);
	strbuf_addf(&shown, "%s/config", linked ? commondir : name);
	ret = scan_format_file(fmt, path.buf, shown.buf, 1);
	if (ret < 0)
		goto out;
	if (fmt->version < 0) {
		/* no version: git takes nothing from this config */
		fmt->bare = -1;
		free(fmt->worktree);
		fmt->worktree = NULL;
		goto out;
	}
	if (fmt->version > 1) {
		ret = error_set(E_UNSUPPORTED, "Expected git repo version "
				"<= 1, found %ld", fmt->version);
		goto out;
	}
	if (fmt->version >= 1 && fmt->nr_unknown) {
		ret = error_set(E_UNSUPPORTED, "unknown repository "
				"extension%s found:%s",
				fmt->nr_unknown > 1 ? "s" : "",
				fmt->unknown.buf);
		goto out;
	}
	if (fmt->version == 0 && fmt->nr_v1_only) {
		ret = error_set(E_UNSUPPORTED, "repo version is 0, but v1-only "
				"extension%s found:%s",
				fmt->nr_v1_only > 1 ? "s" : "",
				fmt->v1_only.buf);
		goto out;
	}
	if (fmt->compat) {
		ret = error_set(E_UNSUPPORTED, "this repository names its "
				"objects in a second hash as well "
				"(extensions.compatObjectFormat=%s), which dirc "
				"does not support", fmt->compat->name);
		goto out;
	}
	ret = check_ref_backend(fmt);
	if (ret < 0)
		goto out;
	if (fmt->worktree_config) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/config.worktree", gitdir);
		strbuf_reset(&shown);
		strbuf_addf(&shown, "%s/config.worktree", name);
		fmt->only_worktree_keys = 1;
		ret = scan_format_file(fmt, path.buf, shown.buf, 0);
		linked = 0;
	}
	if (linked) {
		/* a linked worktree ignores the common config's */
		fmt->bare = -1;
		free(fmt->worktree);
		fmt->worktree = NULL;
	}
out:
	fmt->file = NULL;
	strbuf_release(&path);
	strbuf_release(&shown);
	return ret;
}

/* dir + "/" + name, for a dir that may be "/" */
static char *
join_path(const char *dir, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "", name);
	return strbuf_detach(&sb, NULL);
}

int
repo_check_format(const char *gitdir, const char *commondir, int linked,
		  const struct hash_algo **algo, int *reftable)
{
	struct format fmt;
	int ret = read_format(&fmt, gitdir, commondir, linked, gitdir);

	if (fmt.version < 0)
		*algo = NULL;
	else
		*algo = fmt.algo ? fmt.algo : &hash_algos[HASH_ALGO_SHA1];
	*reftable = fmt.reftable;
	format_release(&fmt);
	return ret;
}

/* An absolute GIT_CEILING_DIRECTORIES list, as git canonicalises it. */
static void
load_ceilings(char ***out, size_t *nr)
{
	const char *env = getenv("GIT_CEILING_DIRECTORIES");
	struct strbuf real = STRBUF_INIT;
	size_t alloc = 0;
	int empty_seen = 0;

	*out = NULL;
	*nr = 0;
	while (env) {
		const char *colon = strchr(env, ':');
		size_t len = colon ? (size_t)(colon - env) : strlen(env);
		char *dir = xmemdupz(env, len);

		env = colon ? colon + 1 : NULL;
		if (!*dir) {
			/* entries after an empty one are taken as they are */
			empty_seen = 1;
		} else if (dir[0] == '/') {
			if (!empty_seen) {
				if (repo_realpath(&real, dir) < 0) {
					error_clear();
					free(dir);
					continue;
				}
				free(dir);
				dir = xstrdup(real.buf);
			}
			ALLOC_GROW(*out, *nr + 1, alloc);
			(*out)[(*nr)++] = dir;
			continue;
		}
		free(dir);
	}
	strbuf_release(&real);
}

/*
 * git's longest_ancestor_length(): the length of the longest ceiling
 * that is a proper ancestor of path, or -1.
 */
static long
ceiling_offset(const char *path, char **ceilings, size_t nr)
{
	long max = -1;

	if (!strcmp(path, "/"))
		return -1;
	for (size_t i = 0; i < nr; i++) {
		const char *ceil = ceilings[i];
		size_t len = strlen(ceil);

		if (len && ceil[len - 1] == '/')
			len--;
		if (strncmp(path, ceil, len) || path[len] != '/' ||
		    !path[len + 1])
			continue;
		if ((long)len > max)
			max = len;
	}
	return max;
}

enum found {
	FOUND_DOTGIT,		/* dir/.git is the git directory */
	FOUND_GITFILE,		/* dir/.git names it (gitdir) */
	FOUND_BARE,		/* dir is a bare repository */
	FOUND_NOTHING,		/* up to a ceiling or the root */
	FOUND_MOUNT_POINT,	/* up to another file system */
};

/*
 * safe.bareRepository from the protected configuration (the user's files
 * and the command line): 1 for "explicit", 0 for "all".
 */
static int
bare_explicit_only(int *out, const struct config *user,
		   const struct config *cmdline)
{
	const char *v = NULL;
	int from_cmdline = config_get(cmdline, "safe.barerepository", &v);

	*out = 0;
	if (!from_cmdline && !config_get(user, "safe.barerepository", &v))
		return 0;
	if (v && !strcasecmp(v, "all"))
		return 0;
	if (v && !strcasecmp(v, "explicit")) {
		*out = 1;
		return 0;
	}
	if (from_cmdline)
		return error_set(E_INVALID, "unable to parse "
				 "'safe.barerepository' from command-line "
				 "config");
	return error_set(E_INVALID, "bad config variable "
			 "'safe.barerepository': '%s'", v ? v : "");
}

/*
 * Walk up from cwd.  Returns a FOUND_*, with dir (where the walk
 * stopped) and, for FOUND_GITFILE, gitdir set; or a negative E_*.
 */
static int
discover(struct strbuf *dir, struct strbuf *gitdir, const char *cwd,
	 const struct config *user, const struct config *cmdline)
{
	struct strbuf probe = STRBUF_INIT;
	const char *objenv = getenv("GIT_OBJECT_DIRECTORY");
	const char *across_env = getenv("GIT_DISCOVERY_ACROSS_FILESYSTEM");
	int across = across_env ? config_parse_bool(across_env) : 0;
	char **ceilings = NULL;
	size_t nr_ceilings = 0;
	struct stat st;
	long ceil;
	dev_t dev = 0;
	int ret;

	/* a boolean, as git reads it: "0", "false" and "" do not cross */
	if (across < 0)
		return error_set(E_INVALID, "bad boolean config value '%s' "
				 "for 'GIT_DISCOVERY_ACROSS_FILESYSTEM'",
				 across_env);
	load_ceilings(&ceilings, &nr_ceilings);
	strbuf_reset(dir);
	strbuf_addstr(dir, cwd);
	ceil = ceiling_offset(dir->buf, ceilings, nr_ceilings);
	if (!across) {
		if (stat(cwd, &st) < 0) {
			ret = error_errno(errno, "failed to stat '%s'", cwd);
			goto out;
		}
		dev = st.st_dev;
	}
	for (;;) {
		long offset = (long)dir->len;

		strbuf_reset(&probe);
		strbuf_addf(&probe, "%s%s.git", dir->buf,
			    dir->len > 1 ? "/" : "");
		ret = repo_read_gitfile(gitdir, probe.buf);
		if (ret < 0)
			goto out;
		if (ret) {
			ret = FOUND_GITFILE;
			goto out;
		}
		if (repo_is_gitdir(probe.buf, objenv)) {
			ret = FOUND_DOTGIT;
			goto out;
		}
		if (repo_is_gitdir(dir->buf, objenv)) {
			int explicit_only;

			ret = bare_explicit_only(&explicit_only, user, cmdline);
			if (ret < 0)
				goto out;
			if (explicit_only) {
				ret = error_set(E_NOREPO, "cannot use bare "
						"repository '%s' "
						"(safe.bareRepository is "
						"'explicit')", dir->buf);
				goto out;
			}
			ret = FOUND_BARE;
			goto out;
		}
		if (offset <= 1) {
			ret = FOUND_NOTHING;
			goto out;
		}
		while (--offset > ceil && dir->buf[offset] != '/')
			;
		if (offset <= ceil) {
			ret = FOUND_NOTHING;
			goto out;
		}
		strbuf_setlen(dir, offset > 1 ? (size_t)offset : 1);
		if (!across) {
			if (stat(dir->buf, &st) < 0) {
				ret = error_errno(errno, "failed to stat '%s'",
						  dir->buf);
				goto out;
			}
			if (st.st_dev != dev) {
				ret = FOUND_MOUNT_POINT;
				goto out;
			}
		}
	}
out:
	for (size_t i = 0; i < nr_ceilings; i++)
		free(ceilings[i]);
	free(ceilings);
	strbuf_release(&probe);
	return ret;
}

/* Is path (absolute, real) dir or below it?  *rest: what is below. */
static int
path_is_inside(const char *path, const char *dir, const char **rest)
{
	size_t len = strlen(dir);

	if (!strcmp(dir, "/")) {
		*rest = path + 1;
		return 1;
	}
	if (strncmp(path, dir, len) || (path[len] && path[len] != '/'))
		return 0;
	*rest = path[len] ? path + len + 1 : path + len;
	return 1;
}

static void
set_prefix(struct repo *r, const char *rest)
{
	free(r->prefix);
	if (*rest) {
		r->prefix = xmalloc(strlen(rest) + 2);
		snprintf(r->prefix, strlen(rest) + 2, "%s/", rest);
	} else {
		r->prefix = xstrdup("");
	}
}

/*
 * The work tree of a repository given explicitly, or found together with
 * GIT_WORK_TREE or core.worktree.  name: the git directory as git's setup
 * names it at this point (as given, relative to cwd, or absolute).
 */
static int
setup_explicit(struct repo *r, const char *name, const char *cwd,
	       const struct format *fmt)
{
	const char *wt_env = getenv("GIT_WORK_TREE"), *rest;
	struct strbuf wt = STRBUF_INIT;
	int ret = 0;

	if (wt_env) {
		ret = repo_realpath(&wt, wt_env);
	} else if (fmt->bare > 0) {
		if (fmt->worktree) {
			diag_emit(DIAG_WARNING, "core.bare and core.worktree "
				  "do not make sense");
			r->worktree_bogus = 1;
		}
		r->gitdir_env = xstrdup(name);
		goto out;
	} else if (fmt->worktree) {
		if (fmt->worktree[0] == '/') {
			ret = repo_realpath(&wt, fmt->worktree);
		} else {
			/* relative to the git directory: both must exist */
			struct strbuf path = STRBUF_INIT;
			char *real;

			strbuf_addf(&path, "%s/%s", r->gitdir, fmt->worktree);
			real = realpath(path.buf, NULL);
			strbuf_release(&path);
			if (!real) {
				ret = error_errno(errno, "cannot chdir to '%s'",
						  fmt->worktree);
				goto out;
			}
			strbuf_addstr(&wt, real);
			free(real);
		}
	} else {
		const char *env = getenv("GIT_IMPLICIT_WORK_TREE");
		int implicit = env ? config_parse_bool(env) : 1;

		if (implicit < 0) {
			ret = error_set(E_INVALID, "bad boolean config value "
					"'%s' for 'GIT_IMPLICIT_WORK_TREE'",
					env);
			goto out;
		}
		if (!implicit) {
			r->gitdir_env = xstrdup(name);
			goto out;
		}
		strbuf_addstr(&wt, cwd);
	}
	if (ret < 0)
		goto out;
	r->worktree = strbuf_detach(&wt, NULL);
	if (path_is_inside(cwd, r->worktree, &rest)) {
		r->inside_worktree = 1;
		set_prefix(r, rest);
		if (*rest) {
			/* git works from the top: the name becomes real */
			ret = repo_realpath(&wt, name);
			if (ret < 0)
				goto out;
			r->gitdir_env = strbuf_detach(&wt, NULL);
			goto out;
		}
	}
	r->gitdir_env = xstrdup(name);
out:
	strbuf_release(&wt);
	return ret;
}

/* No repository, and that is fine (REPO_GENTLY). */
static void
no_repo(struct repo *r)
{
	free(r->gitdir);
	free(r->commondir);
	free(r->worktree);
	free(r->gitdir_env);
	r->gitdir = r->commondir = r->worktree = r->gitdir_env = NULL;
	r->bare = r->inside_worktree = r->worktree_bogus = 0;
	r->inside_gitdir = 0;
}

/*
 * Read the format; a bad one is an error, or with REPO_GENTLY a warning
 * and no repository (*nongit set), as git's setup_git_directory_gently().
 */
static int
check_format(struct repo *r, struct format *fmt, int linked,
	     const char *name, unsigned flags, int *nongit)
{
	int ret = read_format(fmt, r->gitdir, r->commondir, linked, name);

	if (ret == -E_UNSUPPORTED && (flags & REPO_GENTLY)) {
		diag_emit(DIAG_WARNING, "%s", error_msg());
		error_clear();
		*nongit = 1;
		return 0;
	}
	if (!ret)
		hash_algo_set(fmt->algo ? fmt->algo
					: &hash_algos[HASH_ALGO_SHA1]);
	return ret;
}

static int
open_explicit(struct repo *r, const char *env_dir, const char *cwd,
	      struct format *fmt, unsigned flags, int *nongit)
{
	struct strbuf target = STRBUF_INIT, common = STRBUF_INIT;
	const char *name = env_dir;
	int ret, linked;

	if (strlen(env_dir) > PATH_MAX - 40)
		return error_set(E_INVALID, "'$GIT_DIR' too big");
	ret = repo_read_gitfile(&target, env_dir);
	if (ret < 0)
		goto out;
	if (ret)
		name = target.buf;
	if (!repo_is_gitdir(name, getenv("GIT_OBJECT_DIRECTORY"))) {
		if (flags & REPO_GENTLY) {
			*nongit = 1;
			ret = 0;
			goto out;
		}
		ret = error_set(E_NOREPO, "not a git repository: '%s'", name);
		goto out;
	}
	r->gitdir = repo_abspath(name, cwd);
	ret = linked = repo_commondir_of(&common, r->gitdir);
	if (ret < 0)
		goto out;
	r->commondir = strbuf_detach(&common, NULL);
	ret = check_format(r, fmt, linked, name, flags, nongit);
	if (ret < 0 || *nongit)
		goto out;
	ret = setup_explicit(r, name, cwd, fmt);
out:
	strbuf_release(&target);
	strbuf_release(&common);
	return ret;
}

static int
open_discovered(struct repo *r, const char *cwd, const struct config *user,
		const struct config *cmdline, struct format *fmt,
		unsigned flags, int *nongit)
{
	struct strbuf dir = STRBUF_INIT, gitdir = STRBUF_INIT;
	struct strbuf common = STRBUF_INIT, real = STRBUF_INIT;
	const char *name, *rest;
	int found, ret, linked, at_cwd;

	found = discover(&dir, &gitdir, cwd, user, cmdline);
	if (found < 0) {
		ret = found;
		goto out;
	}
	if (found == FOUND_NOTHING || found == FOUND_MOUNT_POINT) {
		if (flags & REPO_GENTLY) {
			*nongit = 1;
			ret = 0;
		} else if (found == FOUND_NOTHING) {
			ret = error_set(E_NOREPO, "not a git repository (or "
					"any of the parent directories): .git");
		} else {
			ret = error_set(E_NOREPO, "not a git repository (or "
					"any parent up to mount point %s)\n"
					"Stopping at filesystem boundary "
					"(GIT_DISCOVERY_ACROSS_FILESYSTEM not "
					"set).", dir.buf);
		}
		goto out;
	}
	at_cwd = !strcmp(dir.buf, cwd);
	if (found == FOUND_GITFILE)
		r->gitdir = xstrdup(gitdir.buf);
	else if (found == FOUND_DOTGIT)
		r->gitdir = join_path(dir.buf, ".git");
	else
		r->gitdir = xstrdup(dir.buf);
	ret = linked = repo_commondir_of(&common, r->gitdir);
	if (ret < 0)
		goto out;
	r->commondir = strbuf_detach(&common, NULL);
	/* git checks the format from the directory it found (chdir) */
	ret = check_format(r, fmt, linked, found == FOUND_GITFILE ?
			   gitdir.buf : found == FOUND_DOTGIT ? ".git" : ".",
			   flags, nongit);
	if (ret < 0 || *nongit)
		goto out;

	if (found == FOUND_BARE) {
		/* git tells its subprocesses: no implicit work tree here */
		setenv("GIT_IMPLICIT_WORK_TREE", "0", 1);
		name = at_cwd ? "." : dir.buf;
		if (getenv("GIT_WORK_TREE") || fmt->worktree) {
			ret = setup_explicit(r, name, cwd, fmt);
			goto out;
		}
		r->gitdir_env = xstrdup(name);
		r->inside_gitdir = 1;
		goto out;
	}

	/* the name git gives the git directory it found */
	if (found == FOUND_GITFILE) {
		name = gitdir.buf;
	} else if (at_cwd) {
		name = ".git";
	} else {
		ret = repo_realpath(&real, r->gitdir);
		if (ret < 0)
			goto out;
		name = real.buf;
	}
	if (getenv("GIT_WORK_TREE") || fmt->worktree) {
		ret = setup_explicit(r, name, cwd, fmt);
		goto out;
	}
	if (fmt->bare > 0) {
		r->gitdir_env = xstrdup(name);
		goto out;
	}
	r->worktree = xstrdup(dir.buf);
	r->inside_worktree = 1;
	r->inside_gitdir = 0;
	if (path_is_inside(cwd, dir.buf, &rest))
		set_prefix(r, rest);
	if (found == FOUND_GITFILE)
		r->gitdir_env = xstrdup(gitdir.buf);
out:
	strbuf_release(&dir);
	strbuf_release(&gitdir);
	strbuf_release(&common);
	strbuf_release(&real);
	return ret;
}

struct head_data {
	const struct repo *repo;
	const struct format *fmt;
};

/*
 * The branch HEAD is on, for includeIf.onbranch: (git resolves HEAD, a
 * symbolic ref to refs/heads/<branch>, born or not).  1 with the name in
 * out, or 0.
 */
static int
head_branch(struct strbuf *out, void *data)
{
	const struct head_data *hd = data;
	struct strbuf sb = STRBUF_INIT;
	const char *name = NULL;
	int ret = 0;

	if (hd->fmt->reftable) {
		struct reftable_stack *st = NULL;
		struct reftable_ref ref = { 0 };

		strbuf_addf(&sb, "%s/reftable", hd->repo->gitdir);
		if (reftable_stack_open(&st, sb.buf, hd->fmt->algo ?
					hd->fmt->algo :
					&hash_algos[HASH_ALGO_SHA1]) < 0) {
			error_clear();
		} else if (!reftable_stack_read_ref(st, "HEAD", &ref) &&
			   ref.type == REFTABLE_REF_SYMREF && ref.target &&
			   skip_prefix(ref.target, "refs/heads/", &name)) {
			strbuf_addstr(out, name);
			ret = 1;
		}
		reftable_ref_release(&ref);
		reftable_stack_close(st);
	} else {
		strbuf_addf(&sb, "%s/HEAD", hd->repo->gitdir);
		if (strbuf_read_file(out, sb.buf) < 0) {
			error_clear();
		} else {
			strbuf_rtrim(out);
			if (skip_prefix(out->buf, "ref: refs/heads/", &name) &&
			    *name) {
				strbuf_reset(&sb);
				strbuf_addstr(&sb, name);
				strbuf_reset(out);
				strbuf_addbuf(out, &sb);
				ret = 1;
			}
		}
		if (!ret)
			strbuf_reset(out);
	}
	strbuf_release(&sb);
	return ret;
}

/*
 * Follow the includeIf entries of repo->config (all of it read) for the
 * repository found, or none (repo->gitdir NULL); cwd: where the command
 * started.  git names the git directory ".git" at the top of the work
 * tree, or as GIT_DIR says (relative to where it works), else absolute.
 * fmt: the repository's format, for reading HEAD (NULL: none).
 */
static int
resolve_includes(struct repo *repo, const char *cwd,
		 const struct format *fmt)
{
	struct config_cond cond = CONFIG_COND_INIT;
	struct head_data hd = { repo, fmt };
	int ret;

	if (!repo->config.pending)
		return 0;
	if (repo->gitdir) {
		const char *rest;

		if (repo->gitdir_env && repo->gitdir_env[0] != '/') {
			cond.gitdir = repo->gitdir_env;
			cond.base = repo->worktree && repo->inside_worktree ?
				repo->worktree : cwd;
		} else if (!repo->gitdir_env && repo->worktree &&
			   path_is_inside(repo->gitdir, repo->worktree,
					  &rest) &&
			   !strcmp(rest, ".git")) {
			cond.gitdir = ".git";
			cond.base = repo->worktree;
		} else {
			cond.gitdir = repo->gitdir;
		}
		if (fmt) {
			cond.head_branch = head_branch;
			cond.head_data = &hd;
		}
	}
	ret = config_resolve_includes(&repo->config, &cond);
	config_cond_release(&cond);
	return ret;
}

/*
 * The repository's configuration after the user's (in *cfg already):
 * the common config, config.worktree, then the command line; then the
 * includeIf entries of them all followed.
 */
static int
load_repo_config(struct repo *repo, struct config *cmdline,
		 const struct format *fmt, const char *cwd)
{
	struct strbuf path = STRBUF_INIT;
	int ret = 0, b;

	if (repo->gitdir) {
		strbuf_addf(&path, "%s/config", repo->commondir);
		if (fmt->text_path && !strcmp(fmt->text_path, path.buf))
			ret = config_parse_buffer(&repo->config, fmt->text.buf,
						  fmt->text.len, path.buf, 0);
		else
			ret = config_load_file(&repo->config, path.buf, 0);
		if (ret < 0)
			goto out;
		if (config_get_bool(&repo->config, "extensions.worktreeconfig",
				    &b) > 0 && b) {
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/config.worktree", repo->gitdir);
			ret = config_load_file(&repo->config, path.buf, 0);
			if (ret < 0)
				goto out;
		}
	}
	config_append(&repo->config, cmdline);
	ret = resolve_includes(repo, cwd, fmt);
out:
	strbuf_release(&path);
	return ret;
}

static int
load_cmdline(struct config *cmdline)
{
	return config_cmdline_error(config_load_env(cmdline));
}

/* core.sharedRepository for what this process creates (lib/perm) */
static void
set_shared(const struct repo *repo)
{
	const char *v = NULL;
	int present = config_get(&repo->config, "core.sharedrepository", &v);

	perm_shared_from_config(present, v);
}

int
repo_open(struct repo *out, unsigned flags)
{
	struct strbuf cwd = STRBUF_INIT;
	struct config cmdline = CONFIG_INIT;
	struct format fmt;
	const char *env_dir = getenv("GIT_DIR");
	const char *env_obj = getenv("GIT_OBJECT_DIRECTORY");
	const char *env_index = getenv("GIT_INDEX_FILE");
	int ret, cmdline_ret, nongit = 0, b;

	memset(out, 0, sizeof(*out));
	memset(&fmt, 0, sizeof(fmt));
	config_init(&out->config);
	out->prefix = xstrdup("");
	out->inside_gitdir = -1;	/* unless setup knows */
	ret = strbuf_getcwd(&cwd);
	if (ret < 0)
		goto out;
	ret = config_load_user(&out->config);
	if (ret < 0)
		goto out;
	/* a bad command line shows once discovery went well */
	cmdline_ret = load_cmdline(&cmdline);
	if (cmdline_ret < 0)
		error_clear();

	if (env_dir)
		ret = open_explicit(out, env_dir, cwd.buf, &fmt, flags,
				    &nongit);
	else
		ret = open_discovered(out, cwd.buf, &out->config, &cmdline,
				      &fmt, flags, &nongit);
	if (ret < 0)
		goto out;
	if (cmdline_ret < 0) {
		config_release(&cmdline);
		ret = load_cmdline(&cmdline);
		goto out;
	}
	if (nongit) {
		no_repo(out);
		config_append(&out->config, &cmdline);
		ret = resolve_includes(out, cwd.buf, NULL);
		if (ret < 0)
			goto out;
		set_shared(out);
		ret = repo_load_settings(out);
		goto out;
	}
	ret = load_repo_config(out, &cmdline, &fmt, cwd.buf);
	if (ret < 0)
		goto out;
	out->reftable = fmt.reftable;

	/* git's is_bare_repository(), with every level of config */
	if (!out->worktree) {
		ret = config_get_bool(&out->config, "core.bare", &b);
		if (ret < 0)
			goto out;
		out->bare = !ret || b;
	}
	if (out->inside_gitdir < 0) {
		/*
		 * git's is_inside_git_dir(): the git directory as git names
		 * it, compared as it is with where git works (a relative
		 * name is never "inside")
		 */
		const char *name = out->gitdir_env, *rest;
		const char *c = out->inside_worktree ? out->worktree : cwd.buf;

		out->inside_gitdir = name && name[0] == '/' && c &&
				     path_is_inside(c, name, &rest);
	}

	out->objdir = env_obj && *env_obj ? repo_abspath(env_obj, cwd.buf) :
		repo_abspath("objects", out->commondir);
	if (env_index && *env_index)
		out->index_path = repo_abspath(env_index, out->worktree ?
					       out->worktree : cwd.buf);
	else
		out->index_path = repo_abspath("index", out->gitdir);

	if (flags & REPO_NEED_WORKTREE) {
		if (flags & REPO_NO_CHDIR) {
			if (!out->worktree || out->worktree_bogus)
				ret = repo_setup_worktree(out);
		} else {
			ret = repo_setup_worktree(out);
		}
		if (ret < 0)
			goto out;
	} else if (out->worktree && !(flags & REPO_NO_CHDIR) &&
		   !chdir(out->worktree)) {
		/* a work tree that is not there fails only where needed */
		out->in_worktree_dir = 1;
	}
	set_shared(out);
	ret = repo_load_settings(out);
out:
	format_release(&fmt);
	config_release(&cmdline);
	strbuf_release(&cwd);
	if (ret < 0)
		repo_release(out);
	return ret;
}

int
repo_setup_worktree(struct repo *repo)
{
	if (repo->in_worktree_dir)
		return 0;
	if (repo->worktree_bogus)
		return error_set(E_NOREPO, "unable to set up work tree using "
				 "invalid config");
	if (!repo->worktree || chdir(repo->worktree) < 0)
		return error_set(E_NOREPO, "this operation must be run in a "
				 "work tree");
	repo->in_worktree_dir = 1;
	return 0;
}

void
repo_release(struct repo *repo)
{
	if (repo->odb) {
		odb_release(repo->odb);
		free(repo->odb);
	}
	free(repo->gitdir);
	free(repo->commondir);
	free(repo->worktree);
	free(repo->prefix);
	free(repo->objdir);
	free(repo->index_path);
	free(repo->gitdir_env);
	config_release(&repo->config);
	memset(repo, 0, sizeof(*repo));
}

int
repo_odb(struct odb **out, struct repo *repo)
{
	int ret, replace;

	if (!repo->odb) {
		if (!repo->objdir)
			return error_set(E_NOREPO, "not a git repository (or "
					 "any of the parent directories): "
					 ".git");
		replace = replace_enabled(&repo->config);
		if (replace < 0)
			return replace;
		repo->odb = xcalloc(1, sizeof(*repo->odb));
		ret = odb_init(repo->odb, repo->objdir, &repo->settings);
		if (ret < 0) {
			free(repo->odb);
			repo->odb = NULL;
			return ret;
		}
		if (replace)
			repo->odb->replace = replace_map_new(repo->commondir);
	}
	*out = repo->odb;
	return 0;
}

void
repo_worktree_path(struct strbuf *out, const struct repo *repo,
		   const char *path)
{
	strbuf_reset(out);
	if (!repo->in_worktree_dir && repo->worktree)
		strbuf_addf(out, "%s/", repo->worktree);
	strbuf_addstr(out, path);
}

void
repo_paths_top(struct strbuf *out, const struct repo *repo)
{
	const char *env = getenv("GIT_DIR");
	struct strbuf cwd = STRBUF_INIT;

	strbuf_reset(out);
	if (repo->worktree) {
		strbuf_addstr(out, repo->worktree);
		return;
	}
	if (strbuf_getcwd(&cwd) < 0) {
		error_clear();
		strbuf_addstr(out, repo->gitdir);
	} else if (env && *env) {
		if (*env != '/')
			strbuf_addf(out, "%s/", cwd.buf);
		strbuf_addstr(out, env);
	} else if (!strcmp(cwd.buf, repo->gitdir)) {
		strbuf_addf(out, "%s/.", repo->gitdir);
	} else {
		strbuf_addstr(out, repo->gitdir);
	}
	strbuf_release(&cwd);
}
