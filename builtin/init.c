/*
 * init: create an empty repository git accepts as is, or re-initialise an
 * existing one, with git's rules for where the repository goes:
 *
 *   <directory>	made (with its parents) and entered first; it beats
 *			GIT_DIR when --bare is given;
 *   GIT_DIR		the git directory (bare unless it is ".git" or ends
 *			in "/.git", or GIT_WORK_TREE is set); else ".git";
 *   GIT_WORK_TREE	only with GIT_DIR and without --bare; written as
 *			core.worktree when the git directory is not
 *			<work tree>/.git;
 *   --separate-git-dir	the git directory goes there and ".git" becomes a
 *			gitfile naming it (an existing one is moved, and
 *			its linked worktrees repointed; from a linked
 *			worktree, the main one's is moved).
 *
 * Re-initialising rewrites the core settings (as git does) and adds only
 * what is missing.  Everything that can be refused is checked before the
 * first write; what this command created is removed again if it fails.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "color.h"
#include "config-write.h"
#include "config.h"
#include "hash.h"
#include "parse-options.h"
#include "perm.h"
#include "refs.h"
#include "reftable.h"
#include "repo.h"
#include "strbuf.h"
#include "worktree.h"

const char *const init_usage[] = {
	"dirc init [-q | --quiet] [--bare] [--template=<template-directory>]\n"
	"                [--separate-git-dir <git-dir>] "
	"[--object-format=<format>]\n"
	"                [--ref-format=<format>]\n"
	"                [-b <branch-name> | --initial-branch=<branch-name>]\n"
	"                [--shared[=<permissions>]] [<directory>]",
	NULL,
};

/* What this process created, removed again by an exit before success. */
static struct {
	char *paths[2];		/* the directory argument's first new part,
				 * a new git directory; owned */
	int done;
} created;

static void
remove_tree(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct dirent *de;
	struct stat st;
	DIR *dir;

	if (lstat(path, &st) < 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	dir = opendir(path);
	while (dir && (de = readdir(dir))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/%s", path, de->d_name);
		remove_tree(sb.buf);
	}
	if (dir)
		closedir(dir);
	rmdir(path);
	strbuf_release(&sb);
}

static void
remove_created(void)
{
	if (created.done)
		return;
	for (size_t i = ARRAY_SIZE(created.paths); i-- > 0;)
		if (created.paths[i])
			remove_tree(created.paths[i]);
}

static void
note_created(int slot, const char *path)
{
	static int registered;

	if (!registered) {
		atexit(remove_created);
		registered = 1;
	}
	free(created.paths[slot]);
	created.paths[slot] = repo_abspath(path, NULL);
}

/*
 * mkdir -p of the directory argument (umask modes, as git: the shared
 * setting is for the repository only), remembering the first directory
 * made.
 */
static void
make_directory(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int first = 1;

	for (const char *p = path; p; ) {
		struct stat st;
		const char *slash = strchr(p + (*p == '/'), '/');

		strbuf_reset(&sb);
		strbuf_add(&sb, path, slash ? (size_t)(slash - path) :
			   strlen(path));
		p = slash ? slash + 1 : NULL;
		while (p && *p == '/')
			p++;
		if (p && !*p)
			p = NULL;
		if (!mkdir(sb.buf, 0777)) {
			if (first)
				note_created(0, sb.buf);
			first = 0;
			continue;
		}
		if (errno == EEXIST && !stat(sb.buf, &st) &&
		    S_ISDIR(st.st_mode))
			continue;
		if (errno == EEXIST || !stat(sb.buf, &st))
			errno = EEXIST;
		die("cannot mkdir %s: %s", path, strerror(errno));
	}
	strbuf_release(&sb);
}

/* git's usage() for a second directory: the lines alone, on stderr */
NORETURN static void
usage_lines(void)
{
	const char *p = init_usage[0];

	fputs("usage: ", stderr);
	for (; *p; p++) {
		fputc(*p, stderr);
		/* the help indents continuation lines by "usage: " */
		if (*p == '\n' && !strncmp(p + 1, "       ", 7))
			p += 7;
	}
	fputc('\n', stderr);
	exit(129);
}

static int
shared_option(const struct option *opt, const char *arg, int unset)
{
	int *shared = opt->value;

	(void)unset;
	if (perm_parse_shared(shared, "arg", arg) < 0)
		die_lib(-1);
	return 0;
}

/* git's guess: GIT_DIR names a bare repository unless it is ".git"-ish */
static int
guess_bare(const char *git_dir)
{
	struct strbuf cwd = STRBUF_INIT;
	const char *slash;
	int same;

	if (!strcmp(git_dir, "."))
		return 1;
	if (strbuf_getcwd(&cwd) < 0)
		die_lib(-1);
	same = !strcmp(git_dir, cwd.buf);
	strbuf_release(&cwd);
	if (same)
		return 1;
	if (!strcmp(git_dir, ".git"))
		return 0;
	slash = strrchr(git_dir, '/');
	return !(slash && !strcmp(slash, "/.git"));
}

static char *
real_or_die(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (repo_realpath(&sb, path) < 0)
		die_lib(-1);
	return strbuf_detach(&sb, NULL);
}

/* "files" 0, "reftable" 1, else -1. */
static int
ref_format_by_name(const char *name)
{
	if (!strcmp(name, "files"))
		return 0;
	if (!strcmp(name, "reftable"))
		return 1;
	return -1;
}

/* What the user's configuration asks of a new repository. */
struct format_defaults {
	const struct hash_algo *algo;	/* init.defaultObjectFormat; NULL */
	int ref_format;			/* init.defaultRefFormat or
					 * feature.experimental; -1 none */
};

/*
 * Read init.defaultObjectFormat, init.defaultRefFormat and
 * feature.experimental from cfg (the user's configuration and -c, never
 * the repository's) in order, as git 2.55 does on every run, new
 * repository or not: each unknown name warns and drops what came before
 * it; feature.experimental turns reftable on only while no ref format
 * is known yet.
 */
static void
read_format_defaults(struct format_defaults *out, const struct config *cfg)
{
	out->algo = NULL;
	out->ref_format = -1;
	for (size_t i = 0; i < cfg->nr; i++) {
		const char *key = cfg->entries[i].key;
		const char *v = cfg->entries[i].value;
		int b;

		if (strcmp(key, "init.defaultobjectformat") &&
		    strcmp(key, "init.defaultrefformat") &&
		    strcmp(key, "feature.experimental"))
			continue;
		if (!strcmp(key, "feature.experimental")) {
			if (out->ref_format >= 0)
				continue;
			b = config_parse_bool(v);
			if (b < 0)
				die("bad boolean config value '%s' for '%s'",
				    v ? v : "", key);
			if (b)
				out->ref_format = 1;
			continue;
		}
		if (!v)
			continue;	/* format_check() refused it */
		if (!strcmp(key, "init.defaultobjectformat")) {
			out->algo = hash_algo_by_name(v);
			if (!out->algo)
				warning("unknown hash algorithm '%s'", v);
		} else {
			out->ref_format = ref_format_by_name(v);
			if (out->ref_format < 0)
				warning("unknown ref storage format '%s'", v);
		}
	}
}

/*
 * The hash a new repository gets: --object-format, else GIT_DEFAULT_HASH,
 * else init.defaultObjectFormat (git 2.49; NULL defaults: not looked at).
 * NULL where none is given.  Unknown names die, as git.
 */
static const struct hash_algo *
requested_object_format(const char *format,
			const struct format_defaults *defaults)
{
	const char *name = format ? format : getenv("GIT_DEFAULT_HASH");
	const struct hash_algo *algo;

	if (!name)
		return defaults ? defaults->algo : NULL;
	algo = hash_algo_by_name(name);
	if (!algo)
		die("unknown hash algorithm '%s'", name);
	return algo;
}

/*
 * The ref storage a new repository gets, as git 2.55 chooses it:
 * --ref-format, else GIT_DEFAULT_REF_FORMAT, else init.defaultRefFormat,
 * else reftable under feature.experimental, else files.  -1 where none
 * is given (defaults NULL: the configuration is not looked at).  An
 * unknown name dies.
 */
static int
requested_ref_format(const char *format,
		     const struct format_defaults *defaults)
{
	const char *name = format ? format : getenv("GIT_DEFAULT_REF_FORMAT");
	int f;

	if (name) {
		f = ref_format_by_name(name);
		if (f < 0)
			die("unknown ref storage format '%s'", name);
		return f;
	}
	return defaults ? defaults->ref_format : -1;
}

/*
 * init.defaultObjectFormat and init.defaultRefFormat need a value: git
 * 2.55 refuses the whole configuration while it reads them, "bad config
 * line N in file F" or "unable to parse command-line config".
 */
static int
format_check(const char *key, const char *value)
{
	if (!value && (!strcmp(key, "init.defaultobjectformat") ||
		       !strcmp(key, "init.defaultrefformat")))
		return error_set(E_INVALID, "missing value for '%s'", key);
	return 0;
}

/*
 * The configuration init sees: the user's, the repository's, -c; with
 * includeIf conditions tested against gitdir (absolute; NULL: no
 * gitdir: condition holds) and branch (NULL: no onbranch: one does);
 * check (or NULL) as struct config has it.
 */
static void
load_config(struct config *cfg, const char *commondir, const char *gitdir,
	    const char *branch, int (*check)(const char *key, const char *value))
{
	struct config cmdline = CONFIG_INIT;
	struct config_cond cond = CONFIG_COND_INIT;
	struct strbuf path = STRBUF_INIT;
	int ret;

	config_release(cfg);
	cfg->check = cmdline.check = check;
	ret = config_load_user(cfg);
	if (!ret && commondir) {
		strbuf_addf(&path, "%s/config", commondir);
		ret = config_load_file(cfg, path.buf, 0);
	}
	if (!ret) {
		ret = config_load_env(&cmdline);
		config_append(cfg, &cmdline);
		/* a file an include names that does not parse: that alone */
		if (ret < 0 && ret != -E_CORRUPT) {
			char *why = xstrdup(error_msg());

			ret = error_set_pre(E_INVALID, why, "unable to parse "
					    "command-line config");
			free(why);
		}
	}
	if (!ret) {
		cond.gitdir = gitdir;
		cond.onbranch = branch;
		ret = config_resolve_includes(cfg, &cond);
		config_cond_release(&cond);
	}
	if (ret < 0)
		die_lib(ret);
	config_release(&cmdline);
	strbuf_release(&path);
}

/*
 * The branch HEAD of the repository at gitdir is on, into out: NULL
 * where HEAD is not a symbolic ref to a branch (or cannot be read).
 */
static const char *
current_branch(struct strbuf *out, const char *gitdir, const char *commondir,
	       int reftable)
{
	struct ref_store rs;
	struct object_id oid;
	unsigned type = 0;
	const char *name = NULL;

	ref_store_init(&rs, gitdir, commondir);
	rs.reftable = reftable;
	strbuf_reset(out);
	if (refs_resolve_ref(&rs, "HEAD", 0, &oid, out, &type) < 0)
		error_clear();
	else if (type & REF_ISSYMREF)
		skip_prefix(out->buf, "refs/heads/", &name);
	ref_store_release(&rs);
	return name;
}

/* git 2.55's hint, line for line: the peer tests compare it */
#define DEFAULT_BRANCH_ADVICE \
	"Using '%s' as the name for the initial branch. This default " \
	"branch name\n" \
	"will change to \"main\" in Git 3.0. To configure the initial " \
	"branch name\n" \
	"to use in all of your new repositories, which will suppress this " \
	"warning,\n" \
	"call:\n" \
	"\n" \
	"\tgit config --global init.defaultBranch <name>\n" \
	"\n" \
	"Names commonly chosen instead of 'master' are 'main', 'trunk' and\n" \
	"'development'. The just-created branch can be renamed via this " \
	"command:\n" \
	"\n" \
	"\tgit branch -m <name>"
#define DEFAULT_BRANCH_ADVICE_OFF \
	"\n\nDisable this message with \"git config set " \
	"advice.defaultBranchName false\""

/*
 * The initial branch when none is given: GIT_TEST_DEFAULT_INITIAL_
 * BRANCH_NAME, init.defaultBranch, else "master" (*defaulted set).
 */
static const char *
default_branch(const struct config *cfg, int *defaulted)
{
	const char *env = getenv("GIT_TEST_DEFAULT_INITIAL_BRANCH_NAME");
	const char *name = NULL;
	struct strbuf ref = STRBUF_INIT;

	*defaulted = 0;
	if (env && *env)
		name = env;
	else if (config_get_string(cfg, "init.defaultbranch", &name) < 0)
		die("could not retrieve `init.defaultBranch`");
	if (!name) {
		name = "master";
		*defaulted = 1;
	}
	strbuf_addf(&ref, "refs/heads/%s", name);
	if (!refname_is_valid(ref.buf, 0))
		die("invalid branch name: init.defaultBranch = %s", name);
	strbuf_release(&ref);
	return name;
}

/*
 * git's hint: each line "hint: <line>", coloured by color.advice and
 * color.advice.hint (color.ui does not reach init's advice in git).
 */
PRINTF_LIKE(2, 3) static void
advise(const struct config *cfg, const char *fmt, ...)
{
	struct strbuf text = STRBUF_INIT;
	enum color_switch sw = COLOR_AUTO;
	char color[COLOR_MAXLEN] = "", reset[COLOR_MAXLEN] = "";
	const char *v, *p;
	va_list ap;

	if (config_get(cfg, "color.advice", &v) &&
	    color_parse_switch(&sw, "color.advice", v) < 0)
		die_lib(-1);
	if (color_wanted(2, sw)) {
		memcpy(color, COLOR_YELLOW, sizeof(COLOR_YELLOW));
		memcpy(reset, COLOR_RESET, sizeof(COLOR_RESET));
		if (config_get(cfg, "color.advice.hint", &v) &&
		    (!v || color_parse(color, v) < 0))
			die("bad config variable 'color.advice.hint'");
		if (config_get(cfg, "color.advice.reset", &v) &&
		    (!v || color_parse(reset, v) < 0))
			die("bad config variable 'color.advice.reset'");
	}
	va_start(ap, fmt);
	strbuf_vaddf(&text, fmt, ap);
	va_end(ap);
	for (p = text.buf; *p; ) {
		const char *nl = strchr(p, '\n');

		if (!nl)
			nl = p + strlen(p);
		/* an empty line is "hint:", no blank after it */
		fprintf(stderr, "%shint:%s%.*s%s\n", color,
			nl == p ? "" : " ", (int)(nl - p), p, reset);
		p = *nl ? nl + 1 : nl;
	}
	strbuf_release(&text);
}

static void
copy_file(const char *dst, const char *src, mode_t mode)
{
	struct strbuf data = STRBUF_INIT;
	int fd;

	if (strbuf_read_file(&data, src) < 0)
		die("cannot copy '%s' to '%s': %s", src, dst, error_msg());
	fd = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		  mode & 0111 ? 0777 : 0666);
	if (fd < 0 || write_full(fd, data.buf, data.len) < 0 || close(fd) < 0)
		die("cannot copy '%s' to '%s': %s", src, dst, strerror(errno));
	if (perm_adjust(dst) < 0)
		die_lib(-1);
	strbuf_release(&data);
}

/* mkdir that dies as git's safe_create_dir() (perror, exit 1) */
static int
safe_mkdir(const char *path, int share)
{
	if (mkdir(path, 0777) < 0) {
		if (errno != EEXIST) {
			fprintf(stderr, "%s: %s\n", path, strerror(errno));
			exit(1);
		}
		return 0;
	}
	if (share && perm_adjust(path) < 0)
		die("Could not make %s writable by group", path);
	return 1;
}

/* Copy the template tree from into to, keeping whatever exists. */
static void
copy_template_dir(struct strbuf *to, struct strbuf *from, DIR *dir)
{
	size_t tolen = to->len, fromlen = from->len;
	struct dirent *de;

	safe_mkdir(to->buf, 1);
	while ((de = readdir(dir))) {
		struct stat st_to, st_from;
		int exists;

		if (de->d_name[0] == '.')
			continue;
		strbuf_setlen(to, tolen);
		strbuf_setlen(from, fromlen);
		strbuf_addstr(to, de->d_name);
		strbuf_addstr(from, de->d_name);
		exists = !lstat(to->buf, &st_to);
		if (lstat(from->buf, &st_from) < 0)
			continue;
		if (S_ISDIR(st_from.st_mode)) {
			DIR *sub = opendir(from->buf);

			if (!sub)
				die("cannot opendir '%s': %s", from->buf,
				    strerror(errno));
			strbuf_addch(to, '/');
			strbuf_addch(from, '/');
			copy_template_dir(to, from, sub);
			closedir(sub);
		} else if (exists) {
			continue;
		} else if (S_ISLNK(st_from.st_mode)) {
			struct strbuf target = STRBUF_INIT;
			ssize_t n;

			strbuf_grow(&target, st_from.st_size + 1);
			n = readlink(from->buf, target.buf, target.alloc - 1);
			if (n < 0)
				die("cannot readlink '%s': %s", from->buf,
				    strerror(errno));
			strbuf_setlen(&target, n);
			if (symlink(target.buf, to->buf) < 0)
				die("cannot symlink '%s' '%s': %s", target.buf,
				    to->buf, strerror(errno));
			strbuf_release(&target);
		} else if (S_ISREG(st_from.st_mode)) {
			copy_file(to->buf, from->buf, st_from.st_mode);
		} else {
			error("ignoring template %s", from->buf);
		}
	}
	strbuf_setlen(to, tolen);
	strbuf_setlen(from, fromlen);
}

/*
 * A template directory's config, if it has a format, must be one git
 * could use: else nothing is copied (git's warning).
 */
static int
template_format_ok(const char *template_dir, const char *path)
{
	struct config cfg = CONFIG_INIT;
	long version;
	int ok = 1;

	if (config_load_file(&cfg, path, CONFIG_NO_INCLUDES) < 0) {
		error_clear();
	} else if (config_get_long(&cfg, "core.repositoryformatversion",
				   &version) > 0 && version > 1) {
		warning("not copying templates from '%s': Expected git repo "
			"version <= 1, found %ld", template_dir, version);
		ok = 0;
	}
	error_clear();
	config_release(&cfg);
	return ok;
}

static void
write_new_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);

	if (fd < 0) {
		if (errno != EEXIST)
			die("cannot create %s: %s", path, strerror(errno));
		return;
	}
	if (write_full(fd, text, strlen(text)) < 0 || close(fd) < 0)
		die("cannot write %s: %s", path, strerror(errno));
	if (perm_adjust(path) < 0)
		die_lib(-1);
}

static const char exclude_text[] =
	"# Patterns of untracked files for git status to leave out, for this\n"
	"# repository only (see gitignore(5)).  Lines starting with '#' are\n"
	"# comments.\n";

/* dirc's own template: what git's default one gives, in our words */
static void
builtin_template(const char *commondir)
{
	struct strbuf path = STRBUF_INIT;

	safe_mkdir(commondir, 1);
	strbuf_addf(&path, "%s/description", commondir);
	write_new_file(path.buf, "Unnamed repository; edit this file "
		       "'description' to name the repository.\n");
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/info", commondir);
	safe_mkdir(path.buf, 1);
	strbuf_addstr(&path, "/exclude");
	write_new_file(path.buf, exclude_text);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/hooks", commondir);
	safe_mkdir(path.buf, 1);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/branches", commondir);
	safe_mkdir(path.buf, 1);
	strbuf_release(&path);
}

/*
 * The template directory: --template, GIT_TEMPLATE_DIR, init.templateDir
 * (with ~ expanded), else dirc's own.  NULL for dirc's own.
 */
static char *
template_source(const char *option, const struct config *cfg)
{
	const char *v = option;

	if (!v)
		v = getenv("GIT_TEMPLATE_DIR");
	if (!v && config_get(cfg, "init.templatedir", &v)) {
		const char *home = getenv("HOME");

		if (!v)
			die("missing value for 'init.templatedir'");
		if (v[0] == '~' && (v[1] == '/' || !v[1])) {
			struct strbuf sb = STRBUF_INIT;

			if (!home)
				die("failed to expand user dir in: '%s'", v);
			strbuf_addf(&sb, "%s%s", home, v + 1);
			return strbuf_detach(&sb, NULL);
		}
		if (v[0] == '~')
			die("failed to expand user dir in: '%s'", v);
	}
	return v ? xstrdup(v) : NULL;
}

static void
copy_templates(const char *template_dir, const char *commondir)
{
	struct strbuf from = STRBUF_INIT, to = STRBUF_INIT;
	DIR *dir;

	if (!template_dir) {
		builtin_template(commondir);
		return;
	}
	if (!*template_dir)
		return;
	strbuf_addstr(&from, template_dir);
	if (from.buf[from.len - 1] != '/')
		strbuf_addch(&from, '/');
	dir = opendir(from.buf);
	if (!dir) {
		warning("templates not found in %s", template_dir);
		goto out;
	}
	strbuf_addstr(&from, "config");
	if (template_format_ok(template_dir, from.buf)) {
		strbuf_setlen(&from, from.len - 6);
		strbuf_addf(&to, "%s/", commondir);
		copy_template_dir(&to, &from, dir);
	}
	closedir(dir);
out:
	strbuf_release(&from);
	strbuf_release(&to);
}

/* Does this file system keep the executable bit of path? */
static int
probe_filemode(const char *path, int reinit)
{
	struct stat st1, st2;
	int ok;

	if (lstat(path, &st1) < 0)
		return 1;
	ok = !chmod(path, st1.st_mode ^ S_IXUSR) && !lstat(path, &st2) &&
	     st1.st_mode != st2.st_mode && !chmod(path, st1.st_mode);
	if (ok && !reinit && (st1.st_mode & S_IXUSR))
		ok = 0;
	return ok;
}

/* Can this file system hold symbolic links (probed in gitdir)? */
static int
probe_symlinks(const char *gitdir)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	int fd, ok = 0;

	strbuf_addf(&path, "%s/tXXXXXX", gitdir);
	fd = mkstemp(path.buf);
	if (fd < 0)
		die("unable to create temporary file '%s': %s", path.buf,
		    strerror(errno));
	if (!close(fd) && !unlink(path.buf) && !symlink("testing", path.buf) &&
	    !lstat(path.buf, &st) && S_ISLNK(st.st_mode)) {
		unlink(path.buf);
		ok = 1;
	}
	strbuf_release(&path);
	return ok;
}

static void
set_config(const char *config_path, const char *key, const char *value)
{
	if (config_write_set(config_path, key, value) < 0)
		die_lib(-1);
}

/*
 * git stops at the first of its settings that has several values; check
 * them all before anything is written.
 */
static void
check_config_keys(const char *config_path, int shared)
{
	static const char *const keys[] = {
		"core.repositoryformatversion", "core.filemode", "core.bare",
		"core.worktree", "core.sharedrepository",
		"receive.denyNonFastforwards",
	};
	static const char *const values[] = {
		"0", "true", "false", "", "", "true",
	};

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		int n;

		if (i == 4 && !shared)
			break;
		n = config_write_count(config_path, keys[i]);
		if (n < 0)
			die_lib(n);
		if (n > 1) {
			warning("%s has multiple values", keys[i]);
			die("could not set '%s' to '%s'", keys[i], values[i]);
		}
	}
}

/*
 * The version to write: 1 for SHA-256 (with extensions.objectformat),
 * and on re-init 1 where the config has an extension git knows only in
 * version 1 (git 2.55; git 2.39 writes 0 there, which leaves a
 * repository it cannot open).
 */
static const char *
format_version(const char *config_path, const struct hash_algo *algo)
{
	/* the extensions git knows as version 1 only (git 2.55) */
	static const char *const v1_only[] = {
		"extensions.noop-v1", "extensions.objectformat",
		"extensions.compatobjectformat", "extensions.refstorage",
		"extensions.relativeworktrees",
		"extensions.submodulepathconfig",
	};

	if (algo->id != HASH_ALGO_SHA1)
		return "1";
	for (size_t i = 0; i < ARRAY_SIZE(v1_only); i++)
		if (config_write_count(config_path, v1_only[i]) > 0)
			return "1";
	error_clear();
	return "0";
}

/*
 * init.defaultSubmodulePathConfig (git 2.55): whether the repository
 * gets extensions.submodulePathConfig.  A value that is not a boolean
 * dies, in git's words.
 */
static int
submodule_path_config(const struct config *cfg)
{
	const char *v;
	int b;

	if (!config_get(cfg, "init.defaultsubmodulepathconfig", &v))
		return 0;
	b = config_parse_bool(v);
	if (b < 0)
		die("bad boolean config value '%s' for "
		    "'init.defaultSubmodulePathConfig'", v);
	return b;
}

struct init_opts {
	const char *template_dir;	/* NULL: not given */
	const char *branch;		/* -b; NULL: not given */
	int bare;			/* 1: --bare, -1: guess */
	int shared;			/* PERM_*, -mode; -1 not given */
	int quiet;
	const char *real_git_dir;	/* --separate-git-dir, absolute */
	const char *object_format;	/* --object-format; NULL: not given */
	const char *ref_format;		/* --ref-format; NULL: not given */
};

/*
 * Move an existing git directory (or the one a gitfile names) at
 * git_link to git_dir, repoint its worktrees, and make git_link a gitfile.
 */
static void
separate_git_dir(const char *git_dir, const char *git_link)
{
	struct strbuf src = STRBUF_INIT;
	struct stat st;
	FILE *fp;

	if (!stat(git_link, &st)) {
		if (S_ISREG(st.st_mode)) {
			if (repo_read_gitfile(&src, git_link) <= 0)
				die_lib(-1);
		} else if (S_ISDIR(st.st_mode)) {
			strbuf_addstr(&src, git_link);
		} else {
			die("unable to handle file type %d", (int)st.st_mode);
		}
		if (rename(src.buf, git_dir) < 0)
			die("unable to move %s to %s: %s", src.buf, git_dir,
			    strerror(errno));
		if (worktree_repair(git_dir, src.buf) < 0)
			die_lib(-1);
	}
	fp = fopen(git_link, "w");
	if (!fp || fprintf(fp, "gitdir: %s\n", git_dir) < 0 || fclose(fp))
		die("could not write to '%s': %s", git_link, strerror(errno));
	strbuf_release(&src);
}

static int
init_repository(const char *git_dir_arg, const char *work_tree,
		const struct init_opts *o)
{
	struct strbuf cur = STRBUF_INIT, cur_common = STRBUF_INIT;
	struct strbuf gitdir = STRBUF_INIT, common = STRBUF_INIT;
	struct strbuf path = STRBUF_INIT, config_path = STRBUF_INIT;
	/* in memory, not a register: what a die() leaves is still reachable */
	struct strbuf original = STRBUF_INIT;
	struct config cfg = CONFIG_INIT;
	struct ref_store rs;
	const char *original_git_dir;
	/* volatile: in memory, so still reachable after a die() */
	char *volatile template_dir;
	char *volatile branch_copy = NULL;
	const char *branch = o->branch, *v;
	int reinit, exists, linked, bare, shared, defaulted = 0;
	int reftable = 0, requested_refs, formatted, advice, b;
	const struct hash_algo *algo = NULL, *requested;
	struct format_defaults defaults;
	struct strbuf head_ref = STRBUF_INIT;
	const char *head_branch = NULL;

	if (repo_realpath(&original, git_dir_arg) < 0)
		die_lib(-1);
	original_git_dir = original.buf;
	bare = o->bare == 1 && !work_tree;

	/*
	 * cur: the git directory as it is now (a gitfile followed), and
	 * gitdir where it will be: the same, or --separate-git-dir.
	 */
	{
		int r = repo_read_gitfile(&cur, original_git_dir);

		if (r < 0)
			die_lib(r);
		if (!r)
			strbuf_addstr(&cur, original_git_dir);
	}
	strbuf_addstr(&gitdir, o->real_git_dir ? o->real_git_dir : cur.buf);
	linked = repo_commondir_of(&cur_common, cur.buf);
	if (linked < 0)
		die_lib(linked);
	if (o->real_git_dir)
		strbuf_addbuf(&common, &gitdir);
	else
		strbuf_addbuf(&common, &cur_common);
	{
		struct strbuf head = STRBUF_INIT;
		char junk[2];

		strbuf_addf(&head, "%s/HEAD", cur.buf);
		reinit = !access(head.buf, R_OK) ||
			 readlink(head.buf, junk, sizeof(junk) - 1) != -1;
		strbuf_release(&head);
	}
	strbuf_addf(&config_path, "%s/config", cur_common.buf);
	exists = !access(config_path.buf, F_OK);
	if (exists && repo_check_format(cur.buf, cur_common.buf, linked,
					&algo, &reftable) < 0)
		die_lib(-1);
	formatted = algo != NULL;
	/*
	 * An existing repository keeps its hash: --object-format may only
	 * name it, and GIT_DEFAULT_HASH is for new ones (git 2.39 would
	 * rewrite the format of a repository full of the other hash's ids).
	 */
	/* the defaults: not the repository's */
	load_config(&cfg, NULL, NULL, NULL, format_check);
	read_format_defaults(&defaults, &cfg);	/* warns, reinit or not */
	requested = requested_object_format(o->object_format,
					    algo ? NULL : &defaults);
	if (algo && o->object_format && requested != algo)
		die("attempt to reinitialize repository with different hash");
	if (!algo)
		algo = requested ? requested : &hash_algos[HASH_ALGO_SHA1];
	hash_algo_set(algo);
	requested_refs = requested_ref_format(o->ref_format,
					      formatted ? NULL : &defaults);
	if (formatted && o->ref_format && requested_refs != reftable)
		die("attempt to reinitialize repository with different "
		    "reference storage format");
	if (!formatted && requested_refs > 0)
		reftable = 1;
	/* an existing repository's branch, for includeIf.onbranch: */
	if (reinit)
		head_branch = current_branch(&head_ref, cur.buf, cur_common.buf,
					     reftable);
	load_config(&cfg, exists ? cur_common.buf : NULL, gitdir.buf,
		    head_branch, NULL);

	/* what git would refuse on the way: before anything is written */
	if (!reinit) {
		if (branch) {
			struct strbuf ref = STRBUF_INIT;

			strbuf_addf(&ref, "refs/heads/%s", branch);
			if (!refname_is_valid(ref.buf, 0))
				die("invalid initial branch name: '%s'",
				    branch);
			strbuf_release(&ref);
		} else {
			/* a copy: cfg is read again below */
			branch = branch_copy = xstrdup(default_branch(&cfg,
								&defaulted));
		}
	}
	if (o->shared != -1) {
		shared = o->shared;
	} else if (config_get(&cfg, "core.sharedrepository", &v)) {
		if (perm_parse_shared(&shared, "core.sharedrepository", v) < 0)
			die_lib(-1);
	} else {
		shared = 0;
	}
	perm_set_shared(shared);
	/*
	 * advice.defaultBranchName: false silences the hint, unset adds
	 * how to; a value that is not a boolean is fatal even where no
	 * hint is due (git 2.55, which dies later, half done)
	 */
	advice = config_get_bool(&cfg, "advice.defaultbranchname", &b);
	if (advice < 0)
		die_lib(advice);
	advice = advice ? b : -1;
	(void)submodule_path_config(&cfg);	/* a bad one: nothing written */
	template_dir = template_source(o->template_dir, &cfg);
	if (exists)
		check_config_keys(config_path.buf, shared);

	/* from here on, writes */
	if (o->real_git_dir)
		separate_git_dir(gitdir.buf, original_git_dir);
	if (safe_mkdir(gitdir.buf, 0))
		note_created(1, gitdir.buf);
	copy_templates(template_dir, common.buf);
	/* a template may have brought a config */
	strbuf_reset(&config_path);
	strbuf_addf(&config_path, "%s/config", common.buf);
	load_config(&cfg, common.buf, gitdir.buf, head_branch, NULL);
	if (shared && perm_adjust(gitdir.buf) < 0)
		die_lib(-1);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/refs", common.buf);
	safe_mkdir(path.buf, 1);
	if (perm_adjust(path.buf) < 0)
		die_lib(-1);
	if (reftable) {
		/*
		 * git's stubs, so that older gits take the directory for a
		 * repository they cannot read: refs/heads a file, HEAD a
		 * symref to an invalid name; the refs are in reftable/
		 */
		if (!reinit) {
			strbuf_addstr(&path, "/heads");
			write_new_file(path.buf, "this repository uses the "
				       "reftable format\n");
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/reftable", common.buf);
			if (reftable_stack_create(path.buf, 0666) < 0)
				die_lib(-1);
			if (perm_adjust(path.buf) < 0)
				die_lib(-1);
		}
	} else {
		strbuf_addstr(&path, "/heads");
		safe_mkdir(path.buf, 1);
		strbuf_setlen(&path, path.len - 6);
		strbuf_addstr(&path, "/tags");
		safe_mkdir(path.buf, 1);
	}

	if (!reinit) {
		if (defaulted && !o->quiet && advice != 0)
			advise(&cfg, advice < 0 ? DEFAULT_BRANCH_ADVICE
				     DEFAULT_BRANCH_ADVICE_OFF :
				     DEFAULT_BRANCH_ADVICE, branch);
		ref_store_init(&rs, gitdir.buf, common.buf);
		if (reftable) {
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/HEAD", gitdir.buf);
			write_new_file(path.buf, "ref: refs/heads/.invalid\n");
			rs.reftable = 1;
		}
		strbuf_reset(&path);
		strbuf_addf(&path, "refs/heads/%s", branch);
		if (refs_set_symref(&rs, "HEAD", path.buf, NULL, NULL) < 0)
			die_lib(-1);
		ref_store_release(&rs);
	}

	/*
	 * git 2.55's order: the extensions first, then the version, so a
	 * new SHA-256 or reftable repository's config opens with
	 * [extensions]; on re-init each is set where it is.
	 */
	if (algo->id != HASH_ALGO_SHA1)
		set_config(config_path.buf, "extensions.objectformat",
			   algo->name);
	if (reftable && !reinit)
		set_config(config_path.buf, "extensions.refstorage",
			   "reftable");
	if (submodule_path_config(&cfg))	/* version 1 then */
		set_config(config_path.buf, "extensions.submodulepathconfig",
			   "true");
	set_config(config_path.buf, "core.repositoryformatversion",
		   format_version(config_path.buf, algo));
	set_config(config_path.buf, "core.filemode",
		   probe_filemode(config_path.buf, reinit) ? "true" : "false");
	if (bare) {
		set_config(config_path.buf, "core.bare", "true");
	} else {
		set_config(config_path.buf, "core.bare", "false");
		/* the template's config may say otherwise */
		if (!config_get(&cfg, "core.logallrefupdates", &v))
			set_config(config_path.buf, "core.logallrefupdates",
				   "true");
		if (work_tree) {
			struct strbuf dotgit = STRBUF_INIT;

			strbuf_addf(&dotgit, "%s/.git", work_tree);
			if (strcmp(original_git_dir, dotgit.buf))
				set_config(config_path.buf, "core.worktree",
					   work_tree);
			strbuf_release(&dotgit);
		}
	}
	if (!reinit) {
		if (!probe_symlinks(gitdir.buf))
			set_config(config_path.buf, "core.symlinks", "false");
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/CoNfIg", gitdir.buf);
		if (!access(path.buf, F_OK))
			set_config(config_path.buf, "core.ignorecase", "true");
	}

	/* the object store: GIT_OBJECT_DIRECTORY, else objects/ */
	strbuf_reset(&path);
	v = getenv("GIT_OBJECT_DIRECTORY");
	if (v && *v)
		strbuf_addstr(&path, v);
	else
		strbuf_addf(&path, "%s/objects", common.buf);
	safe_mkdir(path.buf, 1);
	strbuf_addstr(&path, "/pack");
	safe_mkdir(path.buf, 1);
	strbuf_setlen(&path, path.len - 5);
	strbuf_addstr(&path, "/info");
	safe_mkdir(path.buf, 1);

	if (shared) {
		char buf[16];

		if (shared < 0)
			snprintf(buf, sizeof(buf), "0%o", -shared);
		else
			snprintf(buf, sizeof(buf), "%d",
				 shared == PERM_GROUP ? 1 : 2);
		set_config(config_path.buf, "core.sharedrepository", buf);
		set_config(config_path.buf, "receive.denyNonFastforwards",
			   "true");
	}
	if (reinit && o->branch)
		warning("re-init: ignored --initial-branch=%s", o->branch);
	if (!o->quiet)
		printf("%s%s Git repository in %s/\n",
		       reinit ? "Reinitialized existing" : "Initialized empty",
		       shared ? " shared" : "", gitdir.buf);
	strbuf_release(&original);
	strbuf_release(&head_ref);
	free(template_dir);
	free(branch_copy);
	config_release(&cfg);
	strbuf_release(&cur);
	strbuf_release(&cur_common);
	strbuf_release(&gitdir);
	strbuf_release(&common);
	strbuf_release(&path);
	strbuf_release(&config_path);
	return 0;
}

int
cmd_init(int argc, const char **argv)
{
	struct init_opts o = { .bare = -1, .shared = -1 };
	const char *format = NULL, *git_dir, *work_tree;
	char *real_git_dir = NULL, *template_abs = NULL, *wt_real = NULL;
	char *git_dir_copy = NULL;
	int bare_opt = 0, ret;
	struct option opts[] = {
		OPT_STRING(0, "template", &o.template_dir,
			   "template-directory",
			   "directory from which templates will be used"),
		OPT_BOOL(0, "bare", &bare_opt, "create a bare repository"),
		OPT_CALLBACK_F(0, "shared", &o.shared, "permissions",
			       "specify that the git repository is to be "
			       "shared amongst several users",
			       OPT_OPTARG | OPT_NONEG, shared_option),
		OPT_BOOL('q', "quiet", &o.quiet, "be quiet"),
		OPT_STRING(0, "separate-git-dir", &o.real_git_dir, "gitdir",
			   "separate git dir from working tree"),
		OPT_STRING('b', "initial-branch", &o.branch, "name",
			   "override the name of the initial branch"),
		OPT_STRING(0, "object-format", &format, "hash",
			   "specify the hash algorithm to use"),
		OPT_STRING(0, "ref-format", &o.ref_format, "format",
			   "specify the reference format to use"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, init_usage, 0);
	if (bare_opt)
		o.bare = 1;
	if (o.real_git_dir && o.bare == 1)
		die("options '--separate-git-dir' and '--bare' cannot be used "
		    "together");
	requested_object_format(format, NULL);	/* dies on a bad name */
	requested_ref_format(o.ref_format, NULL);
	o.object_format = format;
	if (argc > 1)
		usage_lines();
	/* relative to where we started, not the new directory */
	if (o.real_git_dir && o.real_git_dir[0] != '/')
		o.real_git_dir = real_git_dir = real_or_die(o.real_git_dir);
	if (o.template_dir && *o.template_dir && o.template_dir[0] != '/')
		o.template_dir = template_abs = repo_abspath(o.template_dir,
							     NULL);
	/* what git refuses once it is in the new directory: refused here */
	if (getenv("GIT_WORK_TREE") && (!getenv("GIT_DIR") || o.bare == 1))
		die("GIT_WORK_TREE (or --work-tree=<directory>) not allowed "
		    "without specifying GIT_DIR (or --git-dir=<directory>)");

	if (argc == 1) {
		if (chdir(argv[0]) < 0) {
			make_directory(argv[0]);
			if (chdir(argv[0]) < 0)
				die("cannot chdir to %s: %s", argv[0],
				    strerror(errno));
		}
	}
	if (o.bare == 1) {
		struct strbuf cwd = STRBUF_INIT;

		if (strbuf_getcwd(&cwd) < 0)
			die_lib(-1);
		setenv("GIT_DIR", cwd.buf, argc > 0);
		strbuf_release(&cwd);
	}
	git_dir = getenv("GIT_DIR");
	work_tree = getenv("GIT_WORK_TREE");
	if (!git_dir)
		git_dir = ".git";

	/* from a linked worktree, the main one's git dir is the one moved */
	if (o.real_git_dir) {
		struct strbuf target = STRBUF_INIT, common = STRBUF_INIT;

		if (repo_read_gitfile(&target, git_dir) > 0 &&
		    repo_commondir_of(&common, target.buf) > 0) {
			struct strbuf main_wt = STRBUF_INIT;

			strbuf_addbuf(&main_wt, &common);
			if (ends_with(main_wt.buf, "/.git"))
				strbuf_setlen(&main_wt, main_wt.len - 5);
			if (chdir(main_wt.buf) < 0)
				die("cannot chdir to %s: %s", main_wt.buf,
				    strerror(errno));
			git_dir = git_dir_copy = xstrdup(common.buf);
			strbuf_release(&main_wt);
		}
		error_clear();
		strbuf_release(&target);
		strbuf_release(&common);
	}
	if (o.bare < 0)
		o.bare = guess_bare(git_dir);
	if (!o.bare) {
		const char *slash = strrchr(git_dir, '/');

		if (slash) {
			char *parent = xstrndup(git_dir, slash - git_dir);

			wt_real = real_or_die(parent);
			free(parent);
		} else {
			wt_real = real_or_die(".");
		}
		if (work_tree) {
			free(wt_real);
			wt_real = real_or_die(work_tree);
		}
		if (access(wt_real, X_OK))
			die("Cannot access work tree '%s': %s", wt_real,
			    strerror(errno));
	} else {
		if (o.real_git_dir)
			die("--separate-git-dir incompatible with bare "
			    "repository");
		if (work_tree)
			wt_real = real_or_die(work_tree);
	}
	ret = init_repository(git_dir, wt_real, &o);
	created.done = 1;
	free(real_git_dir);
	free(template_abs);
	free(wt_real);
	free(git_dir_copy);
	return ret;
}
