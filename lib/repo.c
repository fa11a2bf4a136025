/*
 * repo: discovery, layered configuration, settings.
 *
 * Configuration order (later wins): system file, XDG file, ~/.gitconfig,
 * <commondir>/config, <gitdir>/config.worktree (with
 * extensions.worktreeConfig), then the command line and environment
 * (-c, GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT).
 */
#include "repo.h"

#include <fcntl.h>
#include <limits.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "error.h"
#include "odb.h"
#include "path.h"
#include "replace.h"
#include "strbuf.h"

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

/* git's message for a work tree that does not exist: its first
 * missing component */
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

/* Real path of an existing directory, or NULL. */
static char *
real_dir(const char *path)
{
	char *res = realpath(path, NULL);

	return res;
}

static int
head_is_valid(const char *gitdir)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	struct stat st;
	const char *p;
	int ok = 0;

	strbuf_addf(&path, "%s/HEAD", gitdir);
	if (lstat(path.buf, &st) < 0)
		goto out;
	if (S_ISLNK(st.st_mode)) {
		char target[PATH_MAX];
		ssize_t n = readlink(path.buf, target, sizeof(target) - 1);

		if (n > 0) {
			target[n] = '\0';
			ok = starts_with(target, "refs/");
		}
		goto out;
	}
	if (!S_ISREG(st.st_mode) || strbuf_read_file(&buf, path.buf) < 0)
		goto out;
	p = buf.buf;
	if (skip_prefix(p, "ref:", &p)) {
		while (*p == ' ' || *p == '\t')
			p++;
		ok = starts_with(p, "refs/");
	} else {
		struct object_id oid;

		ok = buf.len >= HASH_HEXSZ && !hex_to_oid(&oid, buf.buf);
	}
out:
	strbuf_release(&path);
	strbuf_release(&buf);
	return ok;
}

/* The commondir of gitdir: gitdir itself, or what "commondir" says. */
static char *
find_commondir(const char *gitdir)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	char *res;

	strbuf_addf(&path, "%s/commondir", gitdir);
	if (strbuf_read_file(&buf, path.buf) < 0) {
		error_clear();
		res = xstrdup(gitdir);
	} else {
		strbuf_rtrim(&buf);
		res = repo_abspath(buf.buf, gitdir);
	}
	strbuf_release(&path);
	strbuf_release(&buf);
	return res;
}

int
repo_is_gitdir(const char *dir, const char *objdir_env)
{
	struct strbuf path = STRBUF_INIT;
	char *common = find_commondir(dir);
	int ok = 0;

	if (!head_is_valid(dir))
		goto out;
	if (objdir_env) {
		if (access(objdir_env, X_OK))
			goto out;
	} else {
		strbuf_addf(&path, "%s/objects", common);
		if (access(path.buf, X_OK))
			goto out;
	}
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/refs", common);
	ok = !access(path.buf, X_OK);
out:
	free(common);
	strbuf_release(&path);
	return ok;
}

/*
 * If dir/.git is a file "gitdir: <path>", return the path it names
 * (absolute), else NULL.  A malformed file is an error.
 */
static int
read_gitfile(char **out, const char *file, const char *dir)
{
	struct strbuf buf = STRBUF_INIT;
	const char *p;
	int ret = 0;

	*out = NULL;
	if (strbuf_read_file(&buf, file) < 0) {
		ret = error_set(E_NOREPO, "error reading %s", file);
		goto out;
	}
	strbuf_rtrim(&buf);
	if (!skip_prefix(buf.buf, "gitdir: ", &p)) {
		ret = error_set(E_NOREPO, "invalid gitfile format: %s", file);
		goto out;
	}
	*out = repo_abspath(p, dir);
	if (!repo_is_gitdir(*out, getenv("GIT_OBJECT_DIRECTORY"))) {
		ret = error_set(E_NOREPO, "not a git repository: %s", *out);
		free(*out);
		*out = NULL;
	}
out:
	strbuf_release(&buf);
	return ret;
}

static int
is_ceiling(const char *dir, char **ceilings, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(dir, ceilings[i]))
			return 1;
	return 0;
}

static void
load_ceilings(char ***out, size_t *nr)
{
	const char *env = getenv("GIT_CEILING_DIRECTORIES");
	size_t alloc = 0;

	*out = NULL;
	*nr = 0;
	while (env && *env) {
		const char *colon = strchr(env, ':');
		size_t len = colon ? (size_t)(colon - env) : strlen(env);
		char *dir = xmemdupz(env, len);

		if (dir[0] == '/') {
			char *real = real_dir(dir);

			ALLOC_GROW(*out, *nr + 1, alloc);
			(*out)[(*nr)++] = real ? real : xstrdup(dir);
		}
		free(dir);
		env = colon ? colon + 1 : NULL;
	}
}

/*
 * Walk up from cwd.  Sets gitdir and (for a non-bare find) worktree.
 */
static int
discover(struct repo *repo, const char *cwd)
{
	struct strbuf dir = STRBUF_INIT, probe = STRBUF_INIT;
	const char *objenv = getenv("GIT_OBJECT_DIRECTORY");
	const char *across_env = getenv("GIT_DISCOVERY_ACROSS_FILESYSTEM");
	int across = across_env ? config_parse_bool(across_env) : 0;
	char **ceilings;
	size_t nr_ceilings;
	struct stat st;
	dev_t dev = 0;
	int ret = 0;

	/* a boolean, as git reads it: "0", "false" and "" do not cross */
	if (across < 0)
		return error_set(E_INVALID, "bad boolean config value '%s' "
				 "for 'GIT_DISCOVERY_ACROSS_FILESYSTEM'",
				 across_env);
	load_ceilings(&ceilings, &nr_ceilings);
	strbuf_addstr(&dir, cwd);
	if (!stat(cwd, &st))
		dev = st.st_dev;
	for (;;) {
		char *slash;

		strbuf_reset(&probe);
		strbuf_addf(&probe, "%s%s.git", dir.buf,
			    dir.len > 1 ? "/" : "");
		if (!stat(probe.buf, &st)) {
			if (S_ISDIR(st.st_mode) &&
			    repo_is_gitdir(probe.buf, objenv)) {
				repo->gitdir = xstrdup(probe.buf);
				repo->worktree = xstrdup(dir.buf);
				goto out;
			}
			if (S_ISREG(st.st_mode)) {
				ret = read_gitfile(&repo->gitdir, probe.buf,
						   dir.buf);
				if (!ret)
					repo->worktree = xstrdup(dir.buf);
				goto out;
			}
		}
		if (repo_is_gitdir(dir.buf, objenv)) {
			repo->gitdir = xstrdup(dir.buf);
			repo->bare = 1;
			goto out;
		}
		slash = strrchr(dir.buf, '/');
		if (!slash || dir.len == 1)
			break;
		strbuf_setlen(&dir, slash == dir.buf ? 1 : (size_t)(slash - dir.buf));
		if (is_ceiling(dir.buf, ceilings, nr_ceilings))
			break;
		if (!across && !stat(dir.buf, &st) && st.st_dev != dev) {
			ret = error_set(E_NOREPO, "not a git repository (or "
					"any parent up to mount point %s)\n"
					"Stopping at filesystem boundary "
					"(GIT_DISCOVERY_ACROSS_FILESYSTEM not "
					"set).", dir.buf);
			goto out;
		}
	}
	ret = error_set(E_NOREPO, "not a git repository (or any of the "
			"parent directories): .git");
out:
	for (size_t i = 0; i < nr_ceilings; i++)
		free(ceilings[i]);
	free(ceilings);
	strbuf_release(&dir);
	strbuf_release(&probe);
	return ret;
}

static const char *const known_extensions[] = {
	"noop", "preciousobjects", "partialclone", "worktreeconfig",
	"objectformat",
};

static int
check_format(struct repo *repo, const struct config *local)
{
	struct strbuf unknown = STRBUF_INIT;
	long version = 0;
	int nr_unknown = 0, ret;

	ret = config_get_long(local, "core.repositoryformatversion", &version);
	if (ret < 0)
		return ret;
	if (version < 0 || version > 1)
		return error_set(E_UNSUPPORTED, "Expected git repo version "
				 "<= 1, found %ld", version);
	if (version == 0)
		return 0;
	for (size_t i = 0; i < local->nr; i++) {
		const char *name;
		int known = 0;

		if (!skip_prefix(local->entries[i].key, "extensions.", &name))
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(known_extensions); k++)
			if (!strcmp(name, known_extensions[k]))
				known = 1;
		if (known && !strcmp(name, "objectformat")) {
			const char *v = local->entries[i].value;

			if (!v || strcasecmp(v, "sha1")) {
				ret = error_set(E_UNSUPPORTED, "repository "
						"'%s' uses extensions."
						"objectFormat=%s; dirc "
						"supports only sha1",
						repo->gitdir, v ? v : "");
				goto out;
			}
		}
		if (!known) {
			strbuf_addf(&unknown, "\n\t%s", name);
			nr_unknown++;
		}
	}
	if (nr_unknown)
		ret = error_set(E_UNSUPPORTED, "unknown repository extension%s "
				"found:%s", nr_unknown > 1 ? "s" : "",
				unknown.buf);
out:
	strbuf_release(&unknown);
	return ret;
}

unsigned
repo_parse_fsync(const char *value)
{
	static const struct {
		const char *name;
		unsigned bits;
	} names[] = {
		{ "loose-object", FSYNC_LOOSE_OBJECT },
		{ "pack", FSYNC_PACK },
		{ "pack-metadata", FSYNC_PACK_METADATA },
		{ "commit-graph", FSYNC_COMMIT_GRAPH },
		{ "index", FSYNC_INDEX },
		{ "reference", FSYNC_REFERENCE },
		{ "objects", FSYNC_LOOSE_OBJECT | FSYNC_PACK },
		{ "derived-metadata", FSYNC_PACK_METADATA | FSYNC_COMMIT_GRAPH },
		{ "committed", FSYNC_LOOSE_OBJECT | FSYNC_PACK },
		{ "added", FSYNC_LOOSE_OBJECT | FSYNC_PACK | FSYNC_INDEX },
		{ "all", FSYNC_LOOSE_OBJECT | FSYNC_PACK | FSYNC_PACK_METADATA |
			 FSYNC_COMMIT_GRAPH | FSYNC_INDEX | FSYNC_REFERENCE },
	};
	unsigned start = FSYNC_PACK | FSYNC_PACK_METADATA | FSYNC_COMMIT_GRAPH;
	unsigned add = 0, remove = 0;
	const char *p = value ? value : "";

	while (*p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		int neg = 0, found = 0;

		while (len && (*p == ' ' || *p == '\t'))
			p++, len--;
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (len && *p == '-') {
			neg = 1;
			p++;
			len--;
		}
		if (len == 4 && !strncmp(p, "none", 4) && !neg) {
			start = 0;
			found = 1;
		}
		for (size_t i = 0; !found && i < ARRAY_SIZE(names); i++) {
			if (strlen(names[i].name) == len &&
			    !strncmp(p, names[i].name, len)) {
				if (neg)
					remove |= names[i].bits;
				else
					add |= names[i].bits;
				found = 1;
			}
		}
		if (!found && len)
			diag_emit(DIAG_WARNING, "ignoring unknown core.fsync "
				  "component '%.*s'", (int)len, p);
		if (!comma)
			break;
		p = comma + 1;
	}
	return (start & ~remove) | add;
}

enum sync_mode
repo_sync_mode(const struct repo_settings *s, unsigned component)
{
	if (!(s->fsync & component))
		return SYNC_NONE;
	if (s->fsync_method == FSYNC_METHOD_WRITEOUT_ONLY)
		return SYNC_WRITEOUT;
	return SYNC_FULL;
}

static int
get_bool(const struct config *cfg, const char *key, int *out, int def)
{
	int ret = config_get_bool(cfg, key, out);

	if (ret == 0)
		*out = def;
	return ret < 0 ? ret : 0;
}

static int
load_settings(struct repo *repo)
{
	struct repo_settings *s = &repo->settings;
	const struct config *cfg = &repo->config;
	const char *v;
	long level;
	int b, ret;

	if ((ret = get_bool(cfg, "core.filemode", &s->filemode, 1)) < 0 ||
	    (ret = get_bool(cfg, "core.trustctime", &s->trustctime, 1)) < 0 ||
	    (ret = get_bool(cfg, "core.symlinks", &s->symlinks, 1)) < 0 ||
	    (ret = get_bool(cfg, "core.ignorecase", &s->ignorecase, 0)) < 0 ||
	    (ret = get_bool(cfg, "core.quotepath", &s->quotepath, 1)) < 0)
		return ret;
	if ((ret = get_bool(cfg, "core.protectntfs", &b, 1)) < 0)
		return ret;
	s->protect = b ? PATH_PROTECT_NTFS : 0;
	if ((ret = get_bool(cfg, "core.protecthfs", &b, 0)) < 0)
		return ret;
	if (b)
		s->protect |= PATH_PROTECT_HFS;
	if (config_get(cfg, "core.checkstat", &v) && v)
		s->checkstat_minimal = !strcmp(v, "minimal");

	s->loose_level = Z_BEST_SPEED;
	ret = config_get_long(cfg, "core.compression", &level);
	if (ret < 0)
		return ret;
	if (ret) {
		if (level < -1 || level > 9)
			return error_set(E_INVALID, "bad zlib compression "
					 "level %ld", level);
		s->loose_level = level;
	}
	ret = config_get_long(cfg, "core.loosecompression", &level);
	if (ret < 0)
		return ret;
	if (ret) {
		if (level < -1 || level > 9)
			return error_set(E_INVALID, "bad zlib compression "
					 "level %ld", level);
		s->loose_level = level;
	}

	s->fsync = repo_parse_fsync(NULL);
	if (config_get(cfg, "core.fsync", &v))
		s->fsync = repo_parse_fsync(v);
	ret = config_get_bool(cfg, "core.fsyncobjectfiles", &b);
	if (ret < 0)
		return ret;
	if (ret) {
		diag_emit(DIAG_WARNING, "core.fsyncObjectFiles is deprecated; "
			  "use core.fsync instead");
		if (b)
			s->fsync |= FSYNC_LOOSE_OBJECT;
	}
	v = getenv("GIT_TEST_FSYNC");
	if (v && config_parse_bool(v) == 0)
		s->fsync = 0;
	s->fsync_method = FSYNC_METHOD_FSYNC;
	if (config_get(cfg, "core.fsyncmethod", &v) && v) {
		if (!strcmp(v, "fsync"))
			s->fsync_method = FSYNC_METHOD_FSYNC;
		else if (!strcmp(v, "writeout-only"))
			s->fsync_method = FSYNC_METHOD_WRITEOUT_ONLY;
		else if (!strcmp(v, "batch"))
			s->fsync_method = FSYNC_METHOD_BATCH;
		else
			diag_emit(DIAG_WARNING, "ignoring unknown "
				  "core.fsyncMethod value '%s'", v);
	}

	s->log_all_ref_updates = !repo->bare;
	if (config_get(cfg, "core.logallrefupdates", &v)) {
		if (v && !strcasecmp(v, "always")) {
			s->log_all_ref_updates = 2;
		} else {
			b = config_parse_bool(v);
			if (b < 0)
				return error_set(E_INVALID, "bad boolean "
						 "config value '%s' for '%s'",
						 v, "core.logallrefupdates");
			s->log_all_ref_updates = b;
		}
	}

	v = getenv("GIT_INDEX_VERSION");
	if (v && *v) {
		long ver;

		if (config_parse_long(v, &ver) < 0 || ver < 2 || ver > 4) {
			diag_emit(DIAG_WARNING, "GIT_INDEX_VERSION set, but "
				  "the value is invalid.\nUsing version 3");
			ver = 3;
		}
		s->index_version = ver;
	} else {
		long ver;

		ret = config_get_long(cfg, "index.version", &ver);
		if (ret > 0 && (ver < 2 || ver > 4)) {
			diag_emit(DIAG_WARNING, "index.version set, but the "
				  "value is invalid.\nUsing version 3");
			ver = 3;
		}
		if (ret > 0)
			s->index_version = ver;
		else if (get_bool(cfg, "feature.manyfiles", &b, 0) == 0 && b)
			s->index_version = 4;
	}

	{
		long threads;

		ret = config_get_long(cfg, "dirc.threads", &threads);
		if (ret < 0)
			return ret;
		s->threads = ret && threads > 0 ? (int)MIN(threads, 1024) : 0;
	}

	if (config_get(cfg, "core.autocrlf", &v) && v &&
	    (!strcasecmp(v, "input") || config_parse_bool(v) == 1))
		s->conversions = 1;
	for (size_t i = 0; i < cfg->nr; i++) {
		const char *key = cfg->entries[i].key;

		if (starts_with(key, "filter.") &&
		    (ends_with(key, ".clean") || ends_with(key, ".process")))
			s->conversions = 1;
	}
	return 0;
}

static int
load_config(struct repo *repo)
{
	struct strbuf path = STRBUF_INIT;
	int ret, b;

	ret = config_load_user(&repo->config);
	if (ret < 0)
		goto out;
	if (repo->gitdir) {
		struct config local = CONFIG_INIT;

		strbuf_addf(&path, "%s/config", repo->commondir);
		ret = config_load_file(&local, path.buf, 0);
		if (!ret)
			ret = check_format(repo, &local);
		if (!ret)
			config_append(&repo->config, &local);
		config_release(&local);
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
	ret = config_load_env(&repo->config);
	if (ret < 0) {
		char *why = xstrdup(error_msg());

		ret = error_set_pre(E_INVALID, why, "unable to parse "
				    "command-line config");
		free(why);
	}
out:
	strbuf_release(&path);
	return ret;
}

int
repo_open(struct repo *out, unsigned flags)
{
	struct strbuf cwd = STRBUF_INIT;
	const char *env_dir = getenv("GIT_DIR");
	const char *env_wt = getenv("GIT_WORK_TREE");
	const char *env_obj = getenv("GIT_OBJECT_DIRECTORY");
	const char *env_index = getenv("GIT_INDEX_FILE");
	const char *v;
	int ret, b;

	memset(out, 0, sizeof(*out));
	config_init(&out->config);
	ret = strbuf_getcwd(&cwd);
	if (ret < 0)
		goto out;

	if (env_dir && *env_dir) {
		out->gitdir = repo_abspath(env_dir, cwd.buf);
		if (!repo_is_gitdir(out->gitdir, env_obj)) {
			ret = error_set(E_NOREPO, "not a git repository: '%s'",
					env_dir);
			goto out;
		}
	} else {
		ret = discover(out, cwd.buf);
		if (ret == -E_NOREPO && (flags & REPO_GENTLY)) {
			error_clear();
			free(out->gitdir);
			out->gitdir = NULL;
			free(out->worktree);
			out->worktree = NULL;
			out->bare = 0;
			ret = load_config(out);
			if (!ret)
				ret = load_settings(out);
			out->prefix = xstrdup("");
			goto out;
		}
		if (ret < 0)
			goto out;
	}
	out->commondir = find_commondir(out->gitdir);
	ret = load_config(out);
	if (ret < 0)
		goto out;

	/* work tree: the environment, then core.worktree / core.bare */
	if (env_wt && *env_wt) {
		free(out->worktree);
		out->worktree = repo_abspath(env_wt, cwd.buf);
		out->bare = 0;
	} else if (env_dir && *env_dir) {
		if (config_get(&out->config, "core.worktree", &v) && v) {
			out->worktree = repo_abspath(v, out->gitdir);
		} else if (config_get_bool(&out->config, "core.bare", &b) > 0
			   && b) {
			out->bare = 1;
		} else if ((v = getenv("GIT_IMPLICIT_WORK_TREE")) &&
			   config_parse_bool(v) == 0) {
			/* "git --bare": no work tree unless one is named */
			out->bare = 1;
		} else {
			out->worktree = xstrdup(cwd.buf);
		}
	} else if (out->bare) {
		if (config_get(&out->config, "core.worktree", &v) && v) {
			out->worktree = repo_abspath(v, out->gitdir);
			out->bare = 0;
		}
	} else if (config_get_bool(&out->config, "core.bare", &b) > 0 && b) {
		free(out->worktree);
		out->worktree = NULL;
		out->bare = 1;
	}
	if (out->worktree) {
		char *real = real_dir(out->worktree);

		if (!real) {
			ret = invalid_path(out->worktree);
			goto out;
		}
		free(out->worktree);
		out->worktree = real;
	}
	if ((flags & REPO_NEED_WORKTREE) && !out->worktree) {
		ret = error_set(E_NOREPO, "this operation must be run in a "
				"work tree");
		goto out;
	}

	/* where we are relative to the top */
	out->prefix = xstrdup("");
	if (out->worktree) {
		char *realcwd = real_dir(cwd.buf);
		const char *c = realcwd ? realcwd : cwd.buf, *rel = NULL;
		size_t wlen = strlen(out->worktree);

		if (!strcmp(out->worktree, "/"))
			rel = c + 1;
		else if (!strncmp(c, out->worktree, wlen) && c[wlen] == '/')
			rel = c + wlen + 1;
		if (rel && *rel) {
			free(out->prefix);
			out->prefix = xmalloc(strlen(rel) + 2);
			snprintf(out->prefix, strlen(rel) + 2, "%s/", rel);
		}
		free(realcwd);
	}

	out->objdir = env_obj && *env_obj ? repo_abspath(env_obj, cwd.buf) :
		repo_abspath("objects", out->commondir);
	if (env_index && *env_index)
		out->index_path = repo_abspath(env_index, out->worktree ?
					       out->worktree : cwd.buf);
	else
		out->index_path = repo_abspath("index", out->gitdir);

	if (out->worktree && !(flags & REPO_NO_CHDIR) &&
	    chdir(out->worktree) < 0) {
		ret = error_errno(errno, "cannot chdir to '%s'", out->worktree);
		goto out;
	}
	ret = load_settings(out);
out:
	strbuf_release(&cwd);
	if (ret < 0)
		repo_release(out);
	return ret;
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
