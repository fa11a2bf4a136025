/*
 * update-cache (also "update-index"): register work-tree files in the
 * index — git's update-index, its options and messages.
 *
 * Options and paths act in the order given ("--add a --remove b"), so the
 * command line is walked in order (parse_options_in_order): each option's
 * callback sets what applies to the paths after it or does its work at
 * once (--refresh, --cacheinfo, --index-info, --again, --unresolve), each
 * path goes to lib/update.  What lib reports comes back here to be
 * printed: --verbose lines, refresh problems, failures by their kind.
 */
#include "builtin.h"
#include "convert.h"
#include "index.h"
#include "odb.h"
#include "parse-options.h"
#include "pathspec.h"
#include "progress.h"
#include "path.h"
#include "quote.h"
#include "refresh.h"
#include "repo.h"
#include "sparse-index.h"
#include "sparse.h"
#include "strbuf.h"
#include "trace.h"
#include "update.h"
#include "workers.h"

/*
 * git's usage line first, as git prints it: scripts written for git grep
 * it (git's own tests do), and dirc runs them as update-index.
 */
const char *const update_cache_usage[] = {
	"git update-index [<options>] [--] [<file>...]",
	"dirc update-cache [<options>] [--] [<file>...]",
	NULL,
};

enum uc_cache_opt {
	UC_UNSPECIFIED = -1,
	UC_DISABLE = 0,
	UC_ENABLE,
	UC_TEST,
	UC_FORCE,
};

struct uc {
	struct repo repo;
	struct index idx;
	struct odb *odb;
	struct lockfile lk;
	int lock_ret;			/* 0 or the failure to lock */
	struct error_saved lock_err;
	struct update up;
	struct strbuf path;		/* the argument, normalised */
	const struct option *opts;	/* the table, for the usage */
	const char *const *usage;

	/* options that are set and read later */
	int allow_add, allow_remove, allow_replace, force_remove, info_only;
	int ignore_skip_worktree, verbose, nul_term, force_write;
	int refresh_quiet, ignore_missing, allow_unmerged, ignore_submodules;
	int mark_valid, unmark_valid, mark_skip, unmark_skip;
	int index_version;		/* 0: keep; negative: show it */
	int split_index;		/* -1 unset, 0 --no-split-index */
	int untracked_cache;		/* enum uc_cache_opt */
	int fsmonitor;			/* -1 unset, 0 --no-fsmonitor */
	int fsmonitor_valid;		/* set when either mark is given */
	int threads;
	int read_stdin;
	int has_errors;
	struct progress *progress;
};

/* ---- failures, as git prints them ---- */

NORETURN static void
die_update(struct uc *uc)
{
	const char *path = uc->up.failed_path.buf;

	if (uc->up.failure == UPDATE_FAILED_ENTRY)
		die_lib(-1);
	error_lib(-1);
	if (uc->up.failure == UPDATE_FAILED_STORE)
		error("%s: failed to insert into database", path);
	else if (uc->up.failure == UPDATE_FAILED_ADD)
		error("%s: cannot add to the index - missing --add option?",
		      path);
	die("Unable to process path %s", path);
}

static void
report_action(void *ctx, enum update_action what, int chmod,
	      const char *path)
{
	(void)ctx;
	switch (what) {
	case UPDATE_ACT_ADD:
		printf("add '%s'\n", path);
		break;
	case UPDATE_ACT_REMOVE:
		printf("remove '%s'\n", path);
		break;
	case UPDATE_ACT_CHMOD:
		printf("chmod %cx '%s'\n", chmod, path);
		break;
	}
}

static void
report_progress(void *ctx, int event, uint64_t n, int thread)
{
	struct uc *uc = ctx;

	switch (event) {
	case UPDATE_PROGRESS_BEGIN:
		uc->progress = progress_start("Hashing objects", n, 1);
		break;
	case UPDATE_PROGRESS_STEP:
		progress_add(uc->progress, 1, n);
		if (!thread)
			progress_tick(uc->progress);
		break;
	case UPDATE_PROGRESS_END:
		progress_stop(&uc->progress);
		break;
	}
}

/* The options in force, handed to lib/update before each use. */
static void
sync_options(struct uc *uc)
{
	struct update *u = &uc->up;

	u->flags = (uc->allow_add ? UPDATE_ADD : 0) |
		   (uc->allow_remove ? UPDATE_REMOVE : 0) |
		   (uc->allow_replace ? UPDATE_REPLACE : 0) |
		   (uc->force_remove ? UPDATE_FORCE_REMOVE : 0) |
		   (uc->info_only ? UPDATE_INFO_ONLY : 0) |
		   (uc->ignore_skip_worktree ? UPDATE_IGNORE_SKIP_WORKTREE : 0);
	u->mark_valid = uc->mark_valid ? UPDATE_MARK_SET :
		uc->unmark_valid ? UPDATE_MARK_CLEAR : UPDATE_MARK_NONE;
	u->mark_skip = uc->mark_skip ? UPDATE_MARK_SET :
		uc->unmark_skip ? UPDATE_MARK_CLEAR : UPDATE_MARK_NONE;
	u->report = uc->verbose ? report_action : NULL;
	u->threads = uc->threads;
}

/* Paths and refreshing need a work tree; --cacheinfo etc. do not. */
static void
need_worktree(struct uc *uc)
{
	int ret = repo_setup_worktree(&uc->repo);

	if (ret < 0)
		die_lib(ret);
}

/* A command-line or --stdin path, relative to where we started. */
static void
update_arg(struct uc *uc, const char *arg)
{
	int ret;

	need_worktree(uc);
	ret = path_normalize(&uc->path, uc->repo.prefix, arg,
			     uc->repo.worktree);
	if (ret < 0)
		die_lib(ret);
	sync_options(uc);
	if (update_path(&uc->up, uc->path.buf) < 0)
		die_update(uc);
	/*
	 * --verbose reports each path before the next argument is looked
	 * at, as git does (a bad option after it still finds it reported);
	 * otherwise the work is batched until something needs it done.
	 */
	if (uc->verbose && update_flush(&uc->up) < 0)
		die_update(uc);
}

static void
nonopt(void *ctx, const char *arg)
{
	update_arg(ctx, arg);
}

static void
apply_or_die(struct uc *uc)
{
	sync_options(uc);
	if (update_apply(&uc->up) < 0)
		die_update(uc);
}

/* ---- --refresh ---- */

static void
report_refresh(void *ctx, enum refresh_problem what, const char *path)
{
	(void)ctx;
	/* update-index words every problem but a conflict the same */
	printf("%s: %s\n", path, what == REFRESH_NEEDS_MERGE ? "needs merge" :
	       "needs update");
}

static void
refresh_progress(void *ctx, int thread)
{
	struct uc *uc = ctx;

	progress_add(uc->progress, 1, 0);
	if (!thread)
		progress_tick(uc->progress);
}

static void
do_refresh(struct uc *uc, int really)
{
	struct refresh_opts o = REFRESH_OPTS_INIT;
	int racy;

	need_worktree(uc);
	apply_or_die(uc);
	o.flags = (really ? REFRESH_REALLY : 0) |
		  (uc->refresh_quiet ? REFRESH_QUIET : 0) |
		  (uc->ignore_missing ? REFRESH_IGNORE_MISSING : 0) |
		  (uc->allow_unmerged ? REFRESH_UNMERGED : 0) |
		  (uc->ignore_submodules ? REFRESH_IGNORE_SUBMODULES : 0);
	o.threads = uc->threads;
	o.report = report_refresh;
	o.progress = refresh_progress;
	o.progress_ctx = uc;
	o.racy = &racy;
	uc->progress = progress_start("Refreshing index", uc->idx.nr, 0);
	uc->has_errors |= refresh_index(&uc->idx, &uc->repo, &o);
	progress_stop(&uc->progress);
	/* racily clean entries stop being racy once the index is rewritten */
	if (racy) {
		index_mark_changed(&uc->idx);
		uc->idx.write_whole = 1;	/* git's "something changed" */
	}
}

static int
opt_refresh(const struct option *opt, const char *arg, int unset)
{
	(void)arg;
	(void)unset;
	do_refresh(opt->value, !strcmp(opt->long_name, "really-refresh"));
	return 0;
}

/* ---- --cacheinfo and --index-info ---- */

static int
parse_octal(const char *s, const char *end, unsigned *out)
{
	unsigned long v = 0;

	if (s == end)
		return -1;
	for (; s < end; s++) {
		if (*s < '0' || *s > '7' || v > 07777777)
			return -1;
		v = v * 8 + (*s - '0');
	}
	*out = v;
	return 0;
}

/*
 * An entry from --cacheinfo or --index-info (the jobs before it already
 * flushed); dies as git does: "git update-index: <what> <path>".
 */
static void
cacheinfo_or_die(struct uc *uc, unsigned mode, const struct object_id *oid,
		 const char *path, int stage, const char *what)
{
	sync_options(uc);
	if (update_cacheinfo(&uc->up, mode, oid, path, stage) == 0)
		return;
	error_lib(-1);
	if (uc->up.failure == UPDATE_FAILED_ADD)
		error("%s: cannot add to the index - missing --add option?",
		      path);
	die("git update-index: %s %s", what, path);
}

/* "--cacheinfo <mode>,<id>,<path>" or three arguments; returns args used */
static int
opt_cacheinfo(const struct option *opt, int argc, const char **argv)
{
	struct uc *uc = opt->value;
	const char *arg = argc > 1 ? argv[1] : NULL, *c1, *c2;
	struct object_id oid;
	unsigned mode;

	if (update_flush(&uc->up) < 0)
		die_update(uc);
	if (arg && (c1 = strchr(arg, ',')) && (c2 = strchr(c1 + 1, ',')) &&
	    !parse_octal(arg, c1, &mode) && c2 - c1 - 1 == HASH_HEXSZ &&
	    !hex_to_oid(&oid, c1 + 1)) {
		cacheinfo_or_die(uc, mode, &oid, c2 + 1, 0,
				 "--cacheinfo cannot add");
		return 1;
	}
	if (argc <= 3) {
		fflush(stdout);
		fprintf(stderr, "error: option 'cacheinfo' expects "
			"<mode>,<sha1>,<path>\n");
		return -1;
	}
	/* git names the argument that failed */
	if (parse_octal(argv[1], argv[1] + strlen(argv[1]), &mode))
		die("git update-index: --cacheinfo cannot add %s", argv[1]);
	if (strlen(argv[2]) != (size_t)HASH_HEXSZ || hex_to_oid(&oid, argv[2]))
		die("git update-index: --cacheinfo cannot add %s", argv[2]);
	cacheinfo_or_die(uc, mode, &oid, argv[3], 0, "--cacheinfo cannot add");
	return 3;
}

/*
 * One --index-info line: "<mode> SP <id> TAB <path>",
 * "<mode> SP <type> SP <id> TAB <path>" (ls-tree) or
 * "<mode> SP <id> SP <stage> TAB <path>" (ls-files -s).
 */
static void
index_info_line(struct uc *uc, struct strbuf *line, struct strbuf *uq)
{
	char *buf = line->buf, *sp, *tab, *idhex, *path;
	struct object_id oid;
	unsigned mode;
	int stage = 0;

	sp = strchr(buf, ' ');
	tab = strchr(buf, '\t');
	if (!sp || !tab || tab < sp || parse_octal(buf, sp, &mode))
		die("malformed index info %s", buf);
	if (tab - sp < HASH_HEXSZ + 1)
		die("malformed index info %s", buf);
	idhex = tab - HASH_HEXSZ;
	if (tab[-2] == ' ' && tab[-1] >= '0' && tab[-1] <= '3' &&
	    tab - sp >= HASH_HEXSZ + 3) {
		stage = tab[-1] - '0';
		idhex = tab - 2 - HASH_HEXSZ;
	}
	if (idhex[-1] != ' ' || hex_to_oid(&oid, idhex))
		die("malformed index info %s", buf);
	path = tab + 1;
	if (!uc->nul_term && path[0] == '"') {
		if (unquote_c_style(uq, path, NULL))
			die("git update-index: bad quoting of path name");
		path = uq->buf;
	}
	if (!path_verify(path, mode, uc->repo.settings.protect)) {
		fflush(stdout);
		fprintf(stderr, "Ignoring path %s\n", path);
		return;
	}
	cacheinfo_or_die(uc, mode, &oid, path, stage, mode ?
			 "unable to update" : "unable to remove");
}

static int
opt_index_info(const struct option *opt, int argc, const char **argv)
{
	struct uc *uc = opt->value;
	struct strbuf line = STRBUF_INIT, uq = STRBUF_INIT;

	(void)argv;
	if (argc != 1) {
		fflush(stdout);
		fprintf(stderr, "error: option 'index-info' must be the last "
			"argument\n");
		return -1;
	}
	/* --index-info implies them, as in git */
	uc->allow_add = uc->allow_replace = uc->allow_remove = 1;
	if (update_flush(&uc->up) < 0)
		die_update(uc);
	while (strbuf_getdelim(&line, stdin, uc->nul_term ? '\0' : '\n') != EOF)
		index_info_line(uc, &line, &uq);
	strbuf_release(&line);
	strbuf_release(&uq);
	return 0;
}

static int
opt_stdin(const struct option *opt, int argc, const char **argv)
{
	struct uc *uc = opt->value;

	(void)argv;
	if (argc != 1) {
		fflush(stdout);
		fprintf(stderr, "error: option 'stdin' must be the last "
			"argument\n");
		return -1;
	}
	uc->read_stdin = 1;
	return 0;
}

static void
read_stdin_paths(struct uc *uc)
{
	struct strbuf line = STRBUF_INIT, uq = STRBUF_INIT;

	need_worktree(uc);
	while (strbuf_getdelim(&line, stdin, uc->nul_term ? '\0' : '\n') != EOF) {
		const char *p = line.buf;

		if (!uc->nul_term && line.buf[0] == '"') {
			if (unquote_c_style(&uq, line.buf, NULL))
				die("line is badly quoted");
			p = uq.buf;
		}
		update_arg(uc, p);
	}
	strbuf_release(&line);
	strbuf_release(&uq);
}

/* ---- --again and --unresolve: the rest of the line is theirs ---- */

static int
opt_again(const struct option *opt, int argc, const char **argv)
{
	struct uc *uc = opt->value;
	struct pathspec ps = PATHSPEC_INIT;
	int ret;

	need_worktree(uc);
	/* as git: no pathspec is the directory the command started in */
	ret = pathspec_parse(&ps, argv + 1, argc - 1, uc->repo.prefix,
			     uc->repo.worktree, PATHSPEC_PREFER_CWD);
	if (ret < 0)
		die_lib(ret);
	sync_options(uc);
	if (update_again(&uc->up, &ps) < 0)
		die_update(uc);
	pathspec_release(&ps);
	/* as git, the outcome of --again is the command's */
	uc->has_errors = 0;
	return argc - 1;
}

static int
opt_unresolve(const struct option *opt, int argc, const char **argv)
{
	struct uc *uc = opt->value;
	int ret, err = 0;

	apply_or_die(uc);
	ret = update_unresolve_begin(&uc->up);
	if (ret < 0)
		die_lib(ret);
	if (ret > 0) {
		fflush(stdout);
		fprintf(stderr, "Not in the middle of a merge.\n");
		exit(0);
	}
	for (int i = 1; i < argc; i++) {
		ret = path_normalize(&uc->path, uc->repo.prefix, argv[i],
				     uc->repo.worktree);
		if (ret < 0)
			die_lib(ret);
		if (update_unresolve(&uc->up, uc->path.buf) < 0) {
			if (uc->up.failed_path.len)
				die_update(uc);
			err = 1;
		}
	}
	/* as git: an error throws away every change of this run */
	uc->has_errors = err;
	if (err)
		uc->idx.changed = 0;
	return argc - 1;
}

/* ---- options with a value or an effect of their own ---- */

static int
opt_chmod(const struct option *opt, const char *arg, int unset)
{
	struct uc *uc = opt->value;

	(void)unset;
	if ((arg[0] != '+' && arg[0] != '-') || arg[1] != 'x' || arg[2]) {
		fflush(stdout);
		fprintf(stderr, "error: option 'chmod' expects \"+x\" or "
			"\"-x\"\n");
		exit(129);
	}
	uc->up.chmod = arg[0];
	return 0;
}

static int
opt_clear_resolve_undo(const struct option *opt, const char *arg, int unset)
{
	struct uc *uc = opt->value;

	(void)arg;
	(void)unset;
	apply_or_die(uc);
	index_clear_resolve_undo(&uc->idx);
	return 0;
}

static int
opt_threads(const struct option *opt, const char *arg, int unset)
{
	struct uc *uc = opt->value;

	uc->threads = unset ? 0 : workers_parse(arg);
	if (uc->threads < 0) {
		fflush(stdout);
		fprintf(stderr, "error: option `threads' expects a "
			"non-negative number\n");
		exit(129);
	}
	return 0;
}

static int
opt_stats(const struct option *opt, const char *arg, int unset)
{
	(void)opt;
	(void)arg;
	(void)unset;
	trace_enable();
	return 0;
}

/* An option of git's that dirc refuses (the features are issue 16's). */
NORETURN static void
refuse(const struct option *opt, int unset, const char *why)
{
	die("--%s%s is not supported by dirc: %s", unset ? "no-" : "",
	    opt->long_name, why);
}

static int
opt_split_index(const struct option *opt, const char *arg, int unset)
{
	(void)arg;
	((struct uc *)opt->value)->split_index = !unset;
	return 0;
}

/*
 * --[no-]untracked-cache and --[no-]force-untracked-cache: on or off;
 * --test-untracked-cache (a probe of the file system) is refused.
 */
static int
opt_untracked_cache(const struct option *opt, const char *arg, int unset)
{
	(void)arg;
	if (!unset && !strcmp(opt->long_name, "test-untracked-cache"))
		refuse(opt, 0, "it does not test file systems for the "
		       "untracked cache");
	((struct uc *)opt->value)->untracked_cache = unset ? UC_DISABLE :
						      UC_ENABLE;
	return 0;
}

static int
opt_fsmonitor(const struct option *opt, const char *arg, int unset)
{
	(void)arg;
	if (!unset || strcmp(opt->long_name, "fsmonitor"))
		refuse(opt, 0, "it does not use a file system monitor");
	((struct uc *)opt->value)->fsmonitor = 0;
	return 0;
}

/* Does the configuration turn fsmonitor on (a hook, or true)? */
static int
fsmonitor_configured(struct uc *uc)
{
	const char *v;

	return config_get(&uc->repo.config, "core.fsmonitor", &v) > 0 &&
	       (!v || config_parse_bool(v) != 0);
}

/* core.splitIndex: 1, 0, or -1 when unset or not a boolean (as git) */
static int
split_config(struct uc *uc)
{
	const char *v;

	if (config_get(&uc->repo.config, "core.splitindex", &v) <= 0)
		return -1;
	return v ? config_parse_bool(v) : 1;
}

/*
 * --[no-]split-index, --no-[test-|force-]untracked-cache, --no-fsmonitor,
 * after the paths as in git: warn when the configuration would turn the
 * feature on again, drop what the index carries, say so with --verbose.
 */
static void
turn_off_features(struct uc *uc)
{
	if (uc->split_index == 0 && split_config(uc) == 1)
		warning("core.splitIndex is set to true; remove or change it, "
			"if you really want to disable split index");
	if (uc->split_index == 0)
		index_split_disable(&uc->idx);
	if (uc->split_index == 1 && split_config(uc) == 0)
		warning("core.splitIndex is set to false; remove or change "
			"it, if you really want to enable split index");
	if (uc->split_index == 1)
		index_split_enable(&uc->idx);
	if (uc->untracked_cache == UC_DISABLE) {
		if (uc->repo.settings.untracked_cache == 1)
			warning("core.untrackedCache is set to true; remove or "
				"change it, if you really want to disable the "
				"untracked cache");
		if (index_untracked_set(&uc->idx, &uc->repo, 0))
			index_mark_changed(&uc->idx);
		if (uc->verbose)
			printf("Untracked cache disabled\n");
	}
	if (uc->untracked_cache == UC_ENABLE) {
		if (uc->repo.settings.untracked_cache == 0)
			warning("core.untrackedCache is set to false; remove "
				"or change it, if you really want to enable "
				"the untracked cache");
		if (index_untracked_set(&uc->idx, &uc->repo, 1))
			index_mark_changed(&uc->idx);
		if (uc->verbose)
			printf("Untracked cache enabled for '%s'\n",
			       uc->repo.worktree);
	}
	if (uc->fsmonitor == 0) {
		if (fsmonitor_configured(uc))
			warning("core.fsmonitor is set; remove it if you "
				"really want to disable fsmonitor");
		if (uc->verbose)
			printf("fsmonitor disabled\n");
	}
	/* git drops an FSMN extension whenever fsmonitor is off */
	if (uc->idx.read_fsmn &&
	    (uc->fsmonitor == 0 || !fsmonitor_configured(uc)))
		index_mark_changed(&uc->idx);
}

int
cmd_update_cache(int argc, const char **argv)
{
	struct uc uc;
	int ret;
	const char *const *usage = update_cache_usage;
	struct option opts[] = {
		OPT_SET_INT_F('q', NULL, &uc.refresh_quiet,
			      "continue refresh even when index needs update",
			      1, 0),
		OPT_BOOL(0, "ignore-submodules", &uc.ignore_submodules,
			 "refresh: ignore submodules"),
		OPT_BOOL(0, "add", &uc.allow_add, "do not ignore new files"),
		OPT_BOOL(0, "replace", &uc.allow_replace,
			 "let files replace directories and vice-versa"),
		OPT_BOOL(0, "remove", &uc.allow_remove,
			 "notice files missing from worktree"),
		OPT_BOOL(0, "unmerged", &uc.allow_unmerged,
			 "refresh even if index contains unmerged entries"),
		OPT_CALLBACK_F(0, "refresh", &uc, NULL,
			       "refresh stat information",
			       OPT_NOARG | OPT_NONEG, opt_refresh),
		OPT_CALLBACK_F(0, "really-refresh", &uc, NULL,
			       "like --refresh, but ignore assume-unchanged "
			       "setting", OPT_NOARG | OPT_NONEG, opt_refresh),
		OPT_LOWLEVEL_CALLBACK(0, "cacheinfo", &uc,
				      "<mode>,<object>,<path>",
				      "add the specified entry to the index",
				      OPT_LITERAL_ARGHELP, opt_cacheinfo),
		OPT_CALLBACK_F(0, "chmod", &uc, "(+|-)x",
			       "override the executable bit of the listed "
			       "files", OPT_NONEG | OPT_LITERAL_ARGHELP,
			       opt_chmod),
		OPT_SET_INT_F(0, "assume-unchanged", &uc.mark_valid,
			      "mark files as \"not changing\"", 1, OPT_NONEG),
		OPT_SET_INT_F(0, "no-assume-unchanged", &uc.unmark_valid,
			      "clear assumed-unchanged bit", 1, OPT_NONEG),
		OPT_SET_INT_F(0, "skip-worktree", &uc.mark_skip,
			      "mark files as \"index-only\"", 1, OPT_NONEG),
		OPT_SET_INT_F(0, "no-skip-worktree", &uc.unmark_skip,
			      "clear skip-worktree bit", 1, OPT_NONEG),
		OPT_BOOL(0, "ignore-skip-worktree-entries",
			 &uc.ignore_skip_worktree,
			 "do not touch index-only entries"),
		OPT_BOOL(0, "info-only", &uc.info_only,
			 "add to index only; do not add content to object "
			 "database"),
		OPT_BOOL(0, "force-remove", &uc.force_remove,
			 "remove named paths even if present in worktree"),
		OPT_SET_INT_F('z', NULL, &uc.nul_term,
			      "with --stdin: input lines are terminated by "
			      "null bytes", 1, 0),
		OPT_LOWLEVEL_CALLBACK(0, "stdin", &uc, NULL,
				      "read list of paths to be updated from "
				      "standard input", 0, opt_stdin),
		OPT_LOWLEVEL_CALLBACK(0, "index-info", &uc, NULL,
				      "add entries from standard input to the "
				      "index", 0, opt_index_info),
		OPT_LOWLEVEL_CALLBACK(0, "unresolve", &uc, NULL,
				      "repopulate stages #2 and #3 for the "
				      "listed paths", 0, opt_unresolve),
		OPT_LOWLEVEL_CALLBACK('g', "again", &uc, NULL,
				      "only update entries that differ from "
				      "HEAD", 0, opt_again),
		OPT_BOOL(0, "ignore-missing", &uc.ignore_missing,
			 "ignore files missing from worktree"),
		OPT_BOOL(0, "verbose", &uc.verbose,
			 "report actions to standard output"),
		OPT_CALLBACK_F(0, "clear-resolve-undo", &uc, NULL,
			       "(for porcelains) forget saved unresolved "
			       "conflicts", OPT_NOARG | OPT_NONEG,
			       opt_clear_resolve_undo),
		OPT_INT(0, "index-version", &uc.index_version, "n",
			"write index in this format"),
		OPT_SET_INT(0, "show-index-version", &uc.index_version,
			    "report on-disk index format version", -1),
		OPT_CALLBACK_F(0, "split-index", &uc, NULL,
			       "enable or disable split index", OPT_NOARG,
			       opt_split_index),
		OPT_CALLBACK_F(0, "untracked-cache", &uc, NULL,
			       "enable/disable untracked cache", OPT_NOARG,
			       opt_untracked_cache),
		OPT_CALLBACK_F(0, "test-untracked-cache", &uc, NULL,
			       "test if the filesystem supports untracked "
			       "cache", OPT_NOARG, opt_untracked_cache),
		OPT_CALLBACK_F(0, "force-untracked-cache", &uc, NULL,
			       "enable untracked cache without testing the "
			       "filesystem", OPT_NOARG, opt_untracked_cache),
		OPT_BOOL(0, "force-write-index", &uc.force_write,
			 "write out the index even if is not flagged as "
			 "changed"),
		OPT_CALLBACK_F(0, "fsmonitor", &uc, NULL,
			       "enable or disable file system monitor",
			       OPT_NOARG, opt_fsmonitor),
		OPT_CALLBACK_F(0, "fsmonitor-valid", &uc, NULL,
			       "mark files as fsmonitor valid",
			       OPT_NOARG | OPT_NONEG, opt_fsmonitor),
		OPT_CALLBACK_F(0, "no-fsmonitor-valid", &uc, NULL,
			       "clear fsmonitor valid bit",
			       OPT_NOARG | OPT_NONEG, opt_fsmonitor),
		/* dirc's own: spelt out, so git's abbreviations stay git's */
		OPT_CALLBACK_F(0, "threads", &uc, "n",
			       "use this many threads for hashing (default: "
			       "automatic)", OPT_NOABBREV, opt_threads),
		OPT_CALLBACK_F(0, "progress", NULL, NULL,
			       "show progress on stderr (default: when a "
			       "terminal)", OPT_NOARG | OPT_NOABBREV,
			       progress_option),
		OPT_CALLBACK_F(0, "stats", NULL, NULL,
			       "print per-phase times and counts",
			       OPT_NOARG | OPT_NONEG | OPT_NOABBREV, opt_stats),
		OPT_END(),
	};

	memset(&uc, 0, sizeof(uc));
	uc.split_index = -1;
	uc.untracked_cache = UC_UNSPECIFIED;
	uc.fsmonitor = -1;
	uc.opts = opts;
	uc.usage = usage;
	/* before the repository is looked at: a broken one still has help */
	if (argc == 2 && !strcmp(argv[1], "-h"))
		usage_with_options(usage, opts);
	ret = repo_open(&uc.repo, 0);
	if (ret < 0)
		die_lib(ret);
	uc.lk = (struct lockfile)LOCKFILE_INIT;
	strbuf_init(&uc.path, 0);
	/* git takes the lock first, but only fails if it has to write */
	uc.lock_ret = lockfile_hold(&uc.lk, uc.repo.index_path);
	if (uc.lock_ret < 0)
		error_save(&uc.lock_err);
	ret = index_read_in(&uc.idx, uc.repo.index_path, &uc.repo, 0,
			    uc.threads);
	if (ret < 0)
		die_lib(ret);
	/* core.splitIndex turns splitting on or off, as git reads it */
	split_index_tweak(&uc.idx, &uc.repo.config);
	/* the untracked cache: kept up to date, core.untrackedCache obeyed */
	if (index_untracked_follow(&uc.idx, &uc.repo))
		index_mark_changed(&uc.idx);
	ret = sparse_index_after_read(&uc.idx, &uc.repo, SPARSE_INDEX_AWARE);
	if (ret < 0)
		die_lib(ret);
	ret = repo_odb(&uc.odb, &uc.repo);
	if (ret < 0)
		die_lib(ret);
	update_init(&uc.up, &uc.repo, &uc.idx, uc.odb);
	/* the content checks of --refresh clean files as git does */
	convert_attach_index(uc.up.convert, &uc.idx);
	uc.up.report_ctx = &uc;
	uc.up.progress = report_progress;
	uc.up.progress_ctx = &uc;

	parse_options_in_order(argc, argv, opts, usage, PARSE_OPT_PLAIN_QUOTES,
			       nonopt, &uc);

	if (uc.index_version < 0) {	/* git 2.55: any negative shows */
		printf("%u\n", uc.idx.version);
	} else if (uc.index_version) {
		if (uc.index_version < 2 || uc.index_version > 4)
			die("index-version %d not in range: 2..4",
			    uc.index_version);
		if (uc.verbose)
			printf("index-version: was %u, set to %d\n",
			       uc.idx.version, uc.index_version);
		if ((unsigned)uc.index_version != uc.idx.version) {
			uc.idx.want_version = uc.index_version;
			index_mark_changed(&uc.idx);
			uc.idx.write_whole = 1;	/* as git: unsplit */
		}
	}
	if (uc.read_stdin)
		read_stdin_paths(&uc);
	apply_or_die(&uc);
	turn_off_features(&uc);

	/* batch fsync: the objects are durable before the index names them */
	ret = odb_flush(uc.odb);
	if (ret < 0)
		die_lib(ret);
	if (uc.idx.changed || uc.force_write) {
		if (uc.lock_ret < 0) {
			if (uc.refresh_quiet)
				exit(128);
			die_lib(error_restore(&uc.lock_err));
		}
		uc.idx.threads = uc.threads;
		ret = index_write(&uc.idx, &uc.repo, &uc.lk);
		if (ret < 0)
			die_lib(ret);
	} else {
		lockfile_rollback(&uc.lk);
	}
	update_release(&uc.up);
	error_saved_release(&uc.lock_err);
	strbuf_release(&uc.path);
	index_release(&uc.idx);
	repo_release(&uc.repo);
	return uc.has_errors ? 1 : 0;
}
