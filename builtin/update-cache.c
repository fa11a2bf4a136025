/*
 * update-cache (also "update-index"): register work-tree files in the
 * index, one path at a time in argument order, options applying to the
 * paths after them — git's update-index semantics and messages.
 *
 * Paths are handled in two passes so the expensive part can be batched:
 * the cheap decisions (normalise, lstat, look up, validate) are made in
 * argument order and queue a job per path; jobs that need an object
 * (read, hash, deflate, write) are run in a batch, then checked and
 * reported in order, so messages and the first failure come exactly as
 * git gives them.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "cache-tree.h"
#include "index.h"
#include "odb.h"
#include "parse-options.h"
#include "progress.h"
#include "path.h"
#include "quote.h"
#include "refs.h"
#include "repo.h"
#include "strbuf.h"
#include "strmap.h"
#include "trace.h"
#include "tree.h"
#include "workers.h"

const char *const update_cache_usage[] = {
	"dirc update-cache [<options>] [--] [<file>...]",
	"",
	"(also available as \"dirc update-index\")",
	NULL,
};

enum mark { MARK_NONE, MARK_SET, MARK_CLEAR };

enum job_kind {
	JOB_NONE,	/* nothing to compute; just report */
	JOB_FILE,	/* hash (and store) a regular file */
	JOB_LINK,	/* hash (and store) a symlink's target */
};

/* One per path: 32 bytes, as a whole tree's worth are queued at once. */
struct job {
	struct index_entry *entry;	/* from the index pool */
	uint64_t size;			/* from lstat */
	struct error_saved *err;	/* owned; the failure, if any */
	int ret;			/* result of the work */
	unsigned char kind;		/* enum job_kind */
	unsigned char remove;		/* report "remove", not "add" */
};

struct uc {
	struct repo *repo;
	struct index idx;
	struct odb *odb;
	struct lockfile lk;
	int lock_ret;			/* 0 or the failure to lock */
	struct error_saved lock_err;
	struct strmap staged;		/* name -> latest staged entry */
	struct strmap staged_dirs;	/* directories of staged entries */

	int allow_add, allow_remove, allow_replace, force_remove;
	int info_only, verbose, quiet, ignore_missing, allow_unmerged;
	int ignore_submodules, nul_term, force_write, ignore_skip_worktree;
	enum mark mark_valid, mark_skip;
	int threads;			/* --threads; 0 = automatic */
	int chmod_flip;			/* '+', '-' or 0 */
	int has_errors;

	struct job *jobs;
	size_t jobs_nr, jobs_alloc;
	struct strbuf scratch;
	struct dir_cache dirs;		/* leading-path checks in order */
};

/* ---- lookups that see what this run staged ---- */

/* The current entry for name at stage 0: staged, else in the index. */
static struct index_entry *
current_entry(struct uc *uc, const char *name, size_t len)
{
	struct index_entry *e = strmap_get(&uc->staged, name, len);
	ssize_t pos;

	if (e)
		return e->state & CE_STAGED_DELETE ? NULL : e;
	pos = index_pos(&uc->idx, name, len, 0);
	return pos >= 0 ? uc->idx.entries[pos] : NULL;
}

/* Any stage of name present (staged removals hide the index's)? */
static int
path_present(struct uc *uc, const char *name, size_t len)
{
	struct index_entry *e = strmap_get(&uc->staged, name, len);

	if (e)
		return !(e->state & CE_STAGED_DELETE);
	return index_pos(&uc->idx, name, len, -1) >= 0;
}

static void
stage_add(struct uc *uc, struct index_entry *e)
{
	index_stage_add(&uc->idx, e, uc->allow_replace ? INDEX_ADD_REPLACE : 0);
	if (ce_stage(e))
		return;
	strmap_put(&uc->staged, e->name, e->namelen, e);
	for (size_t i = 0; i < e->namelen; i++)
		if (e->name[i] == '/')
			strmap_put(&uc->staged_dirs, e->name, i, e);
}

/*
 * Would adding path (stage 0) put a file where a directory is, or the
 * other way round?  (index_apply checks again; this answers early, in
 * argument order, for git's messages.)
 */
static int
df_conflict(struct uc *uc, const char *path, size_t len)
{
	ssize_t pos;

	for (size_t i = 0; i < len; i++)
		if (path[i] == '/' && current_entry(uc, path, i))
			return 1;
	if (strmap_get(&uc->staged_dirs, path, len))
		return 1;
	pos = index_pos(&uc->idx, path, len, 0);
	for (pos = pos < 0 ? -pos - 1 : pos + 1; (size_t)pos < uc->idx.nr;
	     pos++) {
		const struct index_entry *e = uc->idx.entries[pos];

		if (e->namelen <= len || memcmp(e->name, path, len))
			break;
		if (e->name[len] > '/')
			break;
		if (e->name[len] == '/' && !ce_stage(e) &&
		    current_entry(uc, e->name, e->namelen))
			return 1;
	}
	return 0;
}

static void
df_errors(const char *path)
{
	fflush(stdout);
	fprintf(stderr, "error: '%s' appears as both a file and as a "
		"directory\nerror: %s: cannot add to the index - missing "
		"--add option?\n", path, path);
}

static void
stage_remove(struct uc *uc, const char *name, size_t len)
{
	struct index_entry *tomb;

	index_stage_remove(&uc->idx, name, len);
	tomb = uc->idx.staged[uc->idx.staged_nr - 1];
	strmap_put(&uc->staged, tomb->name, tomb->namelen, tomb);
	index_mark_changed(&uc->idx);
}

/* ---- the job queue ---- */

static struct job *
queue(struct uc *uc, enum job_kind kind, struct index_entry *e,
      int remove)
{
	struct job *j;

	ALLOC_GROW(uc->jobs, uc->jobs_nr + 1, uc->jobs_alloc);
	j = &uc->jobs[uc->jobs_nr++];
	memset(j, 0, sizeof(*j));
	j->kind = kind;
	j->entry = e;
	j->remove = remove;
	return j;
}

struct job_run {
	struct uc *uc;
	struct odb_writer *writers;	/* one per thread */
	struct progress *progress;
};

static void
run_job(void *ctx, size_t i, int thread)
{
	struct job_run *r = ctx;
	struct job *j = &r->uc->jobs[i];
	struct odb_writer *w = thread ? &r->writers[thread] :
		&r->uc->odb->writer;

	if (j->kind == JOB_NONE)
		return;
	j->ret = odb_write_path(r->uc->odb, w, j->entry->name,
				j->kind == JOB_LINK ? S_IFLNK : S_IFREG,
				j->size, r->uc->info_only ? 0 : ODB_FD_WRITE,
				&j->entry->oid);
	if (j->ret < 0) {
		j->err = xcalloc(1, sizeof(*j->err));
		error_save(j->err);
	}
	progress_add(r->progress, 1, j->size);
	if (!thread)
		progress_tick(r->progress);
}

/* Many objects to write: list the store once instead of probing each. */
#define LIST_LOOSE_MIN 1024

static void
run_jobs(struct uc *uc)
{
	struct job_run r = { uc, NULL, NULL };
	size_t work = 0;
	int n;

	for (size_t i = 0; i < uc->jobs_nr; i++)
		work += uc->jobs[i].kind != JOB_NONE;
	if (!work)
		return;
	n = workers_count(uc->threads, uc->repo->settings.threads, work, 16);
	odb_prepare_packs(uc->odb);
	if (work >= LIST_LOOSE_MIN && !uc->info_only)
		odb_list_loose(uc->odb);
	r.writers = xcalloc(n, sizeof(*r.writers));
	for (int t = 1; t < n; t++)
		odb_writer_init(&r.writers[t], uc->odb->level);
	r.progress = progress_start("Hashing objects", work, 1);
	workers_run(n, uc->jobs_nr, run_job, &r);
	progress_stop(&r.progress);
	for (int t = 1; t < n; t++)
		odb_writer_release(&r.writers[t]);
	free(r.writers);
}

/*
 * Run every queued job, then report them in order: "add '<p>'" with
 * --verbose, or die at the first failure as git would have.
 */
static void
flush_jobs(struct uc *uc)
{
	uint64_t start = trace_now();

	run_jobs(uc);
	trace_phase("hash objects", start);
	for (size_t i = 0; i < uc->jobs_nr; i++) {
		struct job *j = &uc->jobs[i];

		if (j->ret < 0) {
			int opened = j->err->code != E_NOTFOUND &&
				     j->err->msg && !starts_with(j->err->msg,
								 "open(") &&
				     !starts_with(j->err->msg, "readlink(");

			error_restore(j->err);
			fflush(stdout);
			fprintf(stderr, "error: %s\n", error_msg());
			/* git adds this for objects it could not store */
			if (opened)
				fprintf(stderr, "error: %s: failed to insert "
					"into database\n", j->entry->name);
			die("Unable to process path %s", j->entry->name);
		}
		if (uc->verbose)
			printf("%s '%s'\n", j->remove ? "remove" : "add",
			       j->entry->name);
	}
	uc->jobs_nr = 0;
}

/* Report an error for path after the jobs before it, and die. */
NORETURN static void
fail_path(struct uc *uc, const char *path, const char *fmt, ...)
	PRINTF_LIKE(3, 4);

static void
fail_path(struct uc *uc, const char *path, const char *fmt, ...)
{
	va_list ap;

	flush_jobs(uc);
	fflush(stdout);
	fputs("error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	die("Unable to process path %s", path);
}

/* ---- one path ---- */

static unsigned
mode_for(struct uc *uc, const struct index_entry *old, const struct stat *st)
{
	const struct repo_settings *s = &uc->repo->settings;

	if (S_ISREG(st->st_mode) && !s->filemode) {
		if (old && S_ISREG(old->mode))
			return old->mode;
		return S_IFREG | 0644;
	}
	if (S_ISREG(st->st_mode) && !s->symlinks && old && S_ISLNK(old->mode))
		return old->mode;
	return index_mode_from_stat(st);
}

static void
add_one_path(struct uc *uc, struct index_entry *old, const char *path,
	     size_t len, const struct stat *st)
{
	struct index_entry *e;
	enum job_kind kind;

	/* already up to date? (stat data, and content when racy) */
	if (old && !ce_stage(old) &&
	    !index_entry_changed(uc->repo, &uc->idx, old, st, 0)) {
		queue(uc, JOB_NONE, old, 0);
		return;
	}
	if (!uc->allow_add && !path_present(uc, path, len))
		fail_path(uc, path, "%s: cannot add to the index - missing "
			  "--add option?", path);
	if (!uc->allow_replace && df_conflict(uc, path, len)) {
		flush_jobs(uc);
		df_errors(path);
		die("Unable to process path %s", path);
	}
	e = index_entry_new(&uc->idx, path, len);
	index_entry_fill_stat(e, st);
	e->mode = mode_for(uc, old, st);
	e->state |= CE_UPTODATE;
	trace_count(TC_FILES_STATED, 1);
	if (S_ISLNK(st->st_mode)) {
		kind = JOB_LINK;
	} else if (S_ISDIR(st->st_mode)) {
		if (refs_resolve_gitlink(&e->oid, path) < 0)
			fail_path(uc, path, "%s: is a directory - add files "
				  "inside instead", path);
		kind = JOB_NONE;
		e->mode = S_IFGITLINK;
	} else {
		kind = JOB_FILE;
	}
	queue(uc, kind, e, 0)->size = st->st_size;
	stage_add(uc, e);
}

static void
remove_one_path(struct uc *uc, const char *path, size_t len)
{
	if (!uc->allow_remove)
		fail_path(uc, path, "%s: does not exist and --remove not "
			  "passed", path);
	if (path_present(uc, path, len))
		stage_remove(uc, path, len);
	/* git reports even this as "add" */
	queue(uc, JOB_NONE, index_entry_new(&uc->idx, path, len), 0);
}

static void
process_directory(struct uc *uc, const char *path, size_t len,
		  const struct stat *st)
{
	struct index_entry *old = current_entry(uc, path, len);
	struct object_id oid;
	ssize_t pos;

	if (old) {
		if (S_ISGITLINK(old->mode)) {
			if (refs_resolve_gitlink(&oid, path) < 0) {
				error_clear();
				queue(uc, JOB_NONE, old, 0);
				return;
			}
			add_one_path(uc, old, path, len, st);
			return;
		}
		remove_one_path(uc, path, len);
		return;
	}
	/* files under it in the index? */
	pos = index_pos(&uc->idx, path, len, 0);
	for (pos = -pos - 1; pos >= 0 && (size_t)pos < uc->idx.nr; pos++) {
		const struct index_entry *e = uc->idx.entries[pos];

		if (e->namelen <= len || memcmp(e->name, path, len))
			break;
		if (e->name[len] > '/')
			break;
		if (e->name[len] == '/')
			fail_path(uc, path, "%s: is a directory - add "
				  "individual files instead", path);
	}
	if (!refs_resolve_gitlink(&oid, path)) {
		add_one_path(uc, NULL, path, len, st);
		return;
	}
	error_clear();
	fail_path(uc, path, "%s: is a directory - add files inside instead",
		  path);
}

static void
mark_flags(struct uc *uc, const char *path, size_t len, int valid_bit)
{
	struct index_entry *e = current_entry(uc, path, len);
	enum mark how = valid_bit ? uc->mark_valid : uc->mark_skip;

	if (!e)
		die("Unable to mark file %s", path);
	if (valid_bit) {
		if (how == MARK_SET)
			e->flags |= CE_VALID;
		else
			e->flags &= ~CE_VALID;
	} else {
		if (how == MARK_SET)
			e->ext_flags |= CE_SKIP_WORKTREE;
		else
			e->ext_flags &= ~CE_SKIP_WORKTREE;
	}
	if (uc->idx.tree)
		cache_tree_invalidate_path(uc->idx.tree, path, len);
	index_mark_changed(&uc->idx);
}

static void
update_one(struct uc *uc, const char *path)
{
	size_t len = strlen(path);
	struct index_entry *old;
	struct stat st;
	int stat_errno = 0;

	memset(&st, 0, sizeof(st));
	if (uc->mark_valid || uc->mark_skip || uc->force_remove) {
		st.st_mode = 0;
	} else if (lstat(path, &st) < 0) {
		st.st_mode = 0;
		stat_errno = errno;
	}
	if (!path_verify(path, st.st_mode, uc->repo->settings.protect)) {
		fflush(stdout);
		fprintf(stderr, "Ignoring path %s\n", path);
		return;
	}
	if (uc->mark_valid) {
		mark_flags(uc, path, len, 1);
		return;
	}
	if (uc->mark_skip) {
		mark_flags(uc, path, len, 0);
		return;
	}
	if (uc->force_remove) {
		if (path_present(uc, path, len))
			stage_remove(uc, path, len);
		queue(uc, JOB_NONE, index_entry_new(&uc->idx, path, len), 1);
		return;
	}

	old = current_entry(uc, path, len);
	if (old && old->ext_flags & CE_SKIP_WORKTREE) {
		/* the work tree is assumed good: only removal makes sense */
		if (uc->allow_remove && !uc->ignore_skip_worktree)
			stage_remove(uc, path, len);
		queue(uc, JOB_NONE, old, 0);
		return;
	}
	if (index_check_leading_path(path, len, &uc->dirs) < 0)
		fail_path(uc, path, "%s", error_msg());
	if (stat_errno) {
		if (stat_errno == ENOENT || stat_errno == ENOTDIR) {
			remove_one_path(uc, path, len);
			return;
		}
		fail_path(uc, path, "lstat(\"%s\"): %s", path,
			  strerror(stat_errno));
	}
	if (S_ISDIR(st.st_mode)) {
		process_directory(uc, path, len, &st);
		return;
	}
	if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
		fail_path(uc, path, "%s: cannot add a special file", path);
	add_one_path(uc, old, path, len, &st);
}

static void
chmod_path(struct uc *uc, const char *path)
{
	size_t len = strlen(path);
	struct index_entry *e = current_entry(uc, path, len);

	if (!e || !S_ISREG(e->mode))
		die("git update-index: cannot chmod %cx '%s'", uc->chmod_flip,
		    path);
	e->mode = S_IFREG | (uc->chmod_flip == '+' ? 0755 : 0644);
	if (uc->idx.tree)
		cache_tree_invalidate_path(uc->idx.tree, path, len);
	index_mark_changed(&uc->idx);
	if (uc->verbose) {
		flush_jobs(uc);
		printf("chmod %cx '%s'\n", uc->chmod_flip, path);
	}
}

/* Paths and refreshing need a work tree; --cacheinfo etc. do not. */
static void
need_worktree(struct uc *uc)
{
	int ret = repo_setup_worktree(uc->repo);

	if (ret < 0)
		die_lib(ret);
}

/* A command-line or --stdin path, relative to where we started. */
static void
update_arg(struct uc *uc, const char *arg)
{
	int ret;
	char *path;

	need_worktree(uc);
	ret = path_normalize(&uc->scratch, uc->repo->prefix, arg,
			     uc->repo->worktree);
	if (ret < 0)
		die_lib(ret);
	path = xstrdup(uc->scratch.buf);
	update_one(uc, path);
	if (uc->chmod_flip)
		chmod_path(uc, path);
	free(path);
}

/* ---- --cacheinfo and --index-info ---- */

static unsigned
create_mode(unsigned mode)
{
	if (S_ISLNK(mode))
		return S_IFLNK;
	if (S_ISDIR(mode) || S_ISGITLINK(mode))
		return S_IFGITLINK;
	return S_IFREG | ((mode & 0100) ? 0755 : 0644);
}

static int
add_cacheinfo(struct uc *uc, unsigned mode, const struct object_id *oid,
	      const char *path, int stage)
{
	size_t len = strlen(path);
	struct index_entry *e;

	if ((mode & S_IFMT) == S_IFDIR)
		return error("%s: mode %06o is a tree, which cannot be an "
			     "index entry", path, mode);
	if (!path_verify(path, mode, uc->repo->settings.protect))
		return error("Invalid path '%s'", path);
	if (!uc->allow_add && !path_present(uc, path, len))
		return error("%s: cannot add to the index - missing --add "
			     "option?", path);
	if (!stage && !uc->allow_replace && df_conflict(uc, path, len)) {
		df_errors(path);
		return -1;
	}
	e = index_entry_new(&uc->idx, path, len);
	e->oid = *oid;
	e->mode = create_mode(mode);
	e->flags = (stage << CE_STAGESHIFT) & CE_STAGEMASK;
	stage_add(uc, e);
	if (uc->verbose)
		printf("add '%s'\n", path);
	return 0;
}

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

/* "--cacheinfo <mode>,<id>,<path>" or three arguments; returns args used */
static int
do_cacheinfo(struct uc *uc, int argc, const char **argv)
{
	const char *arg = argc > 1 ? argv[1] : NULL, *c1, *c2;
	struct object_id oid;
	unsigned mode;

	flush_jobs(uc);
	if (arg && (c1 = strchr(arg, ',')) && (c2 = strchr(c1 + 1, ',')) &&
	    !parse_octal(arg, c1, &mode) && c2 - c1 - 1 == HASH_HEXSZ &&
	    !hex_to_oid(&oid, c1 + 1)) {
		if (add_cacheinfo(uc, mode, &oid, c2 + 1, 0))
			die("git update-index: --cacheinfo cannot add %s",
			    c2 + 1);
		return 1;
	}
	if (argc <= 3) {
		fprintf(stderr, "error: option 'cacheinfo' expects "
			"<mode>,<sha1>,<path>\n");
		exit(129);
	}
	/* git names the argument that failed */
	if (parse_octal(argv[1], argv[1] + strlen(argv[1]), &mode))
		die("git update-index: --cacheinfo cannot add %s", argv[1]);
	if (strlen(argv[2]) != HASH_HEXSZ || hex_to_oid(&oid, argv[2]))
		die("git update-index: --cacheinfo cannot add %s", argv[2]);
	if (add_cacheinfo(uc, mode, &oid, argv[3], 0))
		die("git update-index: --cacheinfo cannot add %s", argv[3]);
	return 3;
}

static void
do_index_info(struct uc *uc)
{
	struct strbuf line = STRBUF_INIT, uq = STRBUF_INIT;

	flush_jobs(uc);
	uc->allow_add = uc->allow_replace = uc->allow_remove = 1;
	while (strbuf_getdelim(&line, stdin, uc->nul_term ? '\0' : '\n') != EOF) {
		char *buf = line.buf, *sp, *tab, *idhex, *path;
		struct object_id oid;
		unsigned mode;
		int stage = 0;

		sp = strchr(buf, ' ');
		tab = strchr(buf, '\t');
		if (!sp || !tab || tab < sp || parse_octal(buf, sp, &mode))
			die("malformed index info %s", line.buf);
		if (tab - sp < HASH_HEXSZ + 1)
			die("malformed index info %s", line.buf);
		idhex = tab - HASH_HEXSZ;
		if (tab[-2] == ' ' && tab[-1] >= '0' && tab[-1] <= '3' &&
		    tab - sp >= HASH_HEXSZ + 3) {
			stage = tab[-1] - '0';
			idhex = tab - 2 - HASH_HEXSZ;
		}
		if (idhex[-1] != ' ' || hex_to_oid(&oid, idhex))
			die("malformed index info %s", line.buf);
		path = tab + 1;
		if (!uc->nul_term && path[0] == '"') {
			if (unquote_c_style(&uq, path, NULL))
				die("git update-index: bad quoting of path "
				    "name");
			path = uq.buf;
		}
		if (!path_verify(path, mode, uc->repo->settings.protect)) {
			fflush(stdout);
			fprintf(stderr, "Ignoring path %s\n", path);
			continue;
		}
		if (!mode) {
			if (path_present(uc, path, strlen(path)))
				stage_remove(uc, path, strlen(path));
			continue;
		}
		if (add_cacheinfo(uc, mode, &oid, path, stage))
			die("git update-index: unable to update %s", path);
	}
	strbuf_release(&line);
	strbuf_release(&uq);
}

/* ---- --refresh ---- */

static void
apply_staged(struct uc *uc)
{
	int ret;

	flush_jobs(uc);
	ret = index_apply(&uc->idx);
	strmap_release(&uc->staged);
	strmap_release(&uc->staged_dirs);
	if (ret < 0) {
		/* git names the path twice: the conflict and the add */
		const char *msg = error_msg(), *p = strchr(msg, '\'');
		const char *q = p ? strchr(p + 1, '\'') : NULL;

		fprintf(stderr, "error: %s\n", msg);
		if (p && q) {
			fprintf(stderr, "error: %.*s: cannot add to the index "
				"- missing --add option?\n",
				(int)(q - p - 1), p + 1);
			die("Unable to process path %.*s", (int)(q - p - 1),
			    p + 1);
		}
		die("Unable to process paths");
	}
}

/*
 * Refresh runs in two passes: every entry is examined in parallel (lstat,
 * stat comparison, and a content check where the stat data cannot be
 * trusted), then the verdicts are applied and reported in index order.
 */
enum verdict {
	V_SKIP,		/* not looked at (flags, stage, up to date) */
	V_CLEAN,	/* unchanged */
	V_RESTAT,	/* same content, new stat data */
	V_CHANGED,	/* content, type or mode differs */
	V_MISSING,	/* not in the work tree */
};

struct refresh_res {
	unsigned char verdict;
	struct stat_data sd;	/* for V_RESTAT */
};

struct refresh_run {
	struct uc *uc;
	int really;
	struct refresh_res *res;
	struct read_buf *rbs;	/* one per thread */
	struct dir_cache *dirs;	/* one per thread */
	struct progress *progress;
};

static void
refresh_one(void *ctx, size_t i, int thread)
{
	struct refresh_run *r = ctx;
	struct uc *uc = r->uc;
	struct index_entry *e = uc->idx.entries[i];
	struct refresh_res *res = &r->res[i];
	unsigned changed;
	struct stat st;

	res->verdict = V_SKIP;
	if ((uc->ignore_submodules && S_ISGITLINK(e->mode)) || ce_stage(e) ||
	    e->state & CE_UPTODATE || e->ext_flags & CE_SKIP_WORKTREE ||
	    (!r->really && e->flags & CE_VALID))
		return;
	if (index_check_leading_path(e->name, e->namelen,
				     &r->dirs[thread]) < 0 ||
	    lstat(e->name, &st) < 0) {
		res->verdict = V_MISSING;
		return;
	}
	trace_count(TC_FILES_STATED, 1);
	if (e->ext_flags & CE_INTENT_TO_ADD) {
		res->verdict = V_CHANGED;
		return;
	}
	changed = index_match_stat(uc->repo, e, &st);
	if (S_ISGITLINK(e->mode)) {
		struct object_id oid;

		if (refs_resolve_gitlink(&oid, e->name) < 0)
			res->verdict = V_CHANGED;
		else
			res->verdict = oideq(&oid, &e->oid) ?
				(changed ? V_RESTAT : V_CLEAN) : V_CHANGED;
	} else if (!changed && !index_entry_is_racy(&uc->idx, e)) {
		res->verdict = V_CLEAN;
	} else if (changed & (TYPE_CHANGED | MODE_CHANGED)) {
		res->verdict = V_CHANGED;
	} else {
		/* racy, or the stat data changed: look at the content */
		int same = index_content_matches(uc->repo, e, &st,
						 &r->rbs[thread]);

		if (same < 0) {
			/* unreadable: as git, count it as modified */
			error_clear();
			res->verdict = V_CHANGED;
		} else if (!same)
			res->verdict = V_CHANGED;
		else
			res->verdict = changed ? V_RESTAT : V_CLEAN;
	}
	if (res->verdict == V_RESTAT) {
		struct index_entry tmp;

		index_entry_fill_stat(&tmp, &st);
		res->sd = tmp.sd;
	}
	progress_add(r->progress, 1, 0);
	if (!thread)
		progress_tick(r->progress);
}

static void
do_refresh(struct uc *uc, int really)
{
	struct index *idx = &uc->idx;
	uint64_t start = trace_now();

	need_worktree(uc);	struct refresh_run r = { uc, really, NULL, NULL, NULL, NULL };
	int n;

	apply_staged(uc);
	n = workers_count(uc->threads, uc->repo->settings.threads,
			  idx->nr, 2048);
	r.res = xcalloc(idx->nr ? idx->nr : 1, sizeof(*r.res));
	r.rbs = xcalloc(n, sizeof(*r.rbs));
	r.dirs = xcalloc(n, sizeof(*r.dirs));
	for (int t = 0; t < n; t++)
		strbuf_init(&r.dirs[t].dir, 0);
	r.progress = progress_start("Refreshing index", idx->nr, 0);
	workers_run(n, idx->nr, refresh_one, &r);
	progress_stop(&r.progress);

	for (size_t i = 0; i < idx->nr; i++) {
		struct index_entry *e = idx->entries[i], *copy;
		struct refresh_res *res = &r.res[i];

		if (ce_stage(e)) {
			while (i + 1 < idx->nr &&
			       !strcmp(idx->entries[i + 1]->name, e->name))
				i++;
			if (uc->ignore_submodules && S_ISGITLINK(e->mode))
				continue;
			if (uc->allow_unmerged)
				continue;
			printf("%s: needs merge\n", e->name);
			uc->has_errors = 1;
			continue;
		}
		switch (res->verdict) {
		case V_SKIP:
			continue;
		case V_CLEAN:
			if (!S_ISGITLINK(e->mode))
				e->state |= CE_UPTODATE;
			continue;
		case V_RESTAT:
			copy = index_entry_dup(idx, e);
			copy->sd = res->sd;
			copy->state |= CE_UPTODATE;
			idx->entries[i] = copy;
			index_mark_changed(idx);
			continue;
		case V_MISSING:
			if (uc->ignore_missing)
				continue;
			break;
		case V_CHANGED:
			if (really && e->flags & CE_VALID) {
				e->flags &= ~CE_VALID;
				index_mark_changed(idx);
			}
			break;
		}
		if (uc->quiet)
			continue;
		printf("%s: needs update\n", e->name);
		uc->has_errors = 1;
	}
	/* racy entries: rewrite so that they stop being racy */
	for (size_t i = 0; i < idx->nr; i++)
		if (index_entry_is_racy(idx, idx->entries[i])) {
			index_mark_changed(idx);
			break;
		}
	for (int t = 0; t < n; t++) {
		read_buf_release(&r.rbs[t]);
		dir_cache_release(&r.dirs[t]);
	}
	free(r.rbs);
	free(r.dirs);
	free(r.res);
	trace_phase("refresh", start);
}

/* ---- options ---- */

static int
opt_is(const char *arg, const char *name)
{
	return !strcmp(arg, name);
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

static void print_help_to(FILE *fp);

/* "error: <msg>", optionally the usage, exit 129 — as git's parser. */
NORETURN static void
bad_usage(const char *msg, int with_usage)
{
	fprintf(stderr, "error: %s\n", msg);
	if (with_usage)
		print_help_to(stderr);
	exit(129);
}

NORETURN static void
print_help(void)
{
	print_help_to(stdout);
	exit(129);
}

static void
print_help_to(FILE *fp)
{
	fprintf(fp, "usage: %s\n\n", update_cache_usage[0]);
	fprintf(fp, "    -q                    continue refresh even when index "
	       "needs update\n"
	       "    --add                 let files not in the index be "
	       "added\n"
	       "    --remove              let files missing from the work "
	       "tree be removed\n"
	       "    --force-remove        remove named paths even if present "
	       "in worktree\n"
	       "    --replace             let files replace directories and "
	       "vice-versa\n"
	       "    --refresh             refresh stat information\n"
	       "    --really-refresh      like --refresh, but ignore "
	       "assume-unchanged setting\n"
	       "    --ignore-missing      ignore files missing from worktree\n"
	       "    --unmerged            refresh even if index contains "
	       "unmerged entries\n"
	       "    --ignore-submodules   refresh: ignore submodules\n"
	       "    --cacheinfo <mode>,<object>,<path>\n"
	       "                          add the specified entry to the "
	       "index\n"
	       "    --index-info          add entries from standard input to "
	       "the index\n"
	       "    --stdin               read list of paths to be updated "
	       "from standard input\n"
	       "    -z                    with --stdin and --index-info: "
	       "NUL-terminated lines\n"
	       "    --chmod (+|-)x        override the executable bit of the "
	       "listed files\n"
	       "    --info-only           add to index only; do not add "
	       "content to object database\n"
	       "    --[no-]assume-unchanged\n"
	       "                          mark files as \"not changing\"\n"
	       "    --[no-]skip-worktree  mark files as \"index-only\"\n"
	       "    --index-version <n>   write index in this format\n"
	       "    --clear-resolve-undo  (for porcelains) forget saved "
	       "unresolved conflicts\n"
	       "    --force-write-index   write out the index even if is not "
	       "flagged as changed\n"
	       "    --verbose             report actions to standard output\n"
	       "    --[no-]ignore-skip-worktree-entries\n"
	       "                          do not touch index-only entries\n"
	       "    --threads <n>         use this many threads for hashing "
	       "(default: automatic)\n"
	       "    --[no-]progress       show progress on stderr (default: "
	       "when a terminal)\n"
	       "    --stats               print per-phase times and counts\n\n");
}

int
cmd_update_cache(int argc, const char **argv)
{
	struct repo repo;
	struct uc uc;
	int ret, read_stdin = 0, dashdash = 0, index_version = 0;

	memset(&uc, 0, sizeof(uc));
	if (argc == 2 && !strcmp(argv[1], "-h"))
		print_help();
	ret = repo_open(&repo, 0);
	if (ret < 0)
		die_lib(ret);
	uc.repo = &repo;
	uc.lk = (struct lockfile)LOCKFILE_INIT;
	strbuf_init(&uc.scratch, 0);
	strbuf_init(&uc.dirs.dir, 0);
	/* git takes the lock first, but only fails if it has to write */
	uc.lock_ret = lockfile_hold(&uc.lk, repo.index_path);
	if (uc.lock_ret < 0)
		error_save(&uc.lock_err);
	ret = index_read(&uc.idx, repo.index_path, 0);
	if (ret < 0)
		die_lib(ret);
	ret = repo_odb(&uc.odb, &repo);
	if (ret < 0)
		die_lib(ret);
	ret = 0;

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *v;

		if (dashdash || arg[0] != '-' || !arg[1]) {
			update_arg(&uc, arg);
			continue;
		}
		if (opt_is(arg, "--")) {
			dashdash = 1;
		} else if (opt_is(arg, "--add")) {
			uc.allow_add = 1;
		} else if (opt_is(arg, "--no-add")) {
			uc.allow_add = 0;
		} else if (opt_is(arg, "--remove")) {
			uc.allow_remove = 1;
		} else if (opt_is(arg, "--no-remove")) {
			uc.allow_remove = 0;
		} else if (opt_is(arg, "--replace")) {
			uc.allow_replace = 1;
		} else if (opt_is(arg, "--no-replace")) {
			uc.allow_replace = 0;
		} else if (opt_is(arg, "--force-remove")) {
			uc.force_remove = 1;
		} else if (opt_is(arg, "--no-force-remove")) {
			uc.force_remove = 0;
		} else if (opt_is(arg, "--info-only")) {
			uc.info_only = 1;
		} else if (opt_is(arg, "--no-info-only")) {
			uc.info_only = 0;
		} else if (opt_is(arg, "-q")) {
			uc.quiet = 1;
		} else if (opt_is(arg, "--verbose")) {
			uc.verbose = 1;
		} else if (opt_is(arg, "--ignore-missing")) {
			uc.ignore_missing = 1;
		} else if (opt_is(arg, "--unmerged")) {
			uc.allow_unmerged = 1;
		} else if (opt_is(arg, "--ignore-submodules")) {
			uc.ignore_submodules = 1;
		} else if (opt_is(arg, "-z")) {
			uc.nul_term = 1;
		} else if (opt_is(arg, "--refresh")) {
			do_refresh(&uc, 0);
		} else if (opt_is(arg, "--really-refresh")) {
			do_refresh(&uc, 1);
		} else if (opt_is(arg, "--cacheinfo")) {
			i += do_cacheinfo(&uc, argc - i, argv + i);
		} else if (opt_is(arg, "--index-info")) {
			if (i != argc - 1)
				bad_usage("option 'index-info' must be the last "
					  "argument", 0);
			do_index_info(&uc);
		} else if (opt_is(arg, "--stdin")) {
			if (i != argc - 1)
				bad_usage("option 'stdin' must be the last "
					  "argument", 0);
			read_stdin = 1;
		} else if (skip_prefix(arg, "--chmod=", &v) ||
			   opt_is(arg, "--chmod")) {
			if (opt_is(arg, "--chmod")) {
				if (i + 1 >= argc)
					bad_usage("option `chmod' requires a "
						  "value", 0);
				v = argv[++i];
			}
			if ((v[0] != '+' && v[0] != '-') || v[1] != 'x' || v[2])
				bad_usage("option 'chmod' expects \"+x\" or "
					  "\"-x\"", 0);
			uc.chmod_flip = v[0];
		} else if (opt_is(arg, "--assume-unchanged")) {
			uc.mark_valid = MARK_SET;
		} else if (opt_is(arg, "--no-assume-unchanged")) {
			uc.mark_valid = MARK_CLEAR;
		} else if (opt_is(arg, "--skip-worktree")) {
			uc.mark_skip = MARK_SET;
		} else if (opt_is(arg, "--no-skip-worktree")) {
			uc.mark_skip = MARK_CLEAR;
		} else if (skip_prefix(arg, "--index-version=", &v) ||
			   opt_is(arg, "--index-version")) {
			char *end;

			if (opt_is(arg, "--index-version")) {
				if (i + 1 >= argc)
					bad_usage("option `index-version' "
						  "requires a value", 0);
				v = argv[++i];
			}
			index_version = strtol(v, &end, 10);
			if (!*v || *end)
				bad_usage("option `index-version' expects a "
					  "numerical value", 0);
			if (index_version < 2 || index_version > 4)
				die("index-version %d not in range: 2..4",
				    index_version);
			if ((unsigned)index_version != uc.idx.version) {
				uc.idx.want_version = index_version;
				index_mark_changed(&uc.idx);
			}
		} else if (opt_is(arg, "--clear-resolve-undo")) {
			index_clear_resolve_undo(&uc.idx);
		} else if (skip_prefix(arg, "--threads=", &v) ||
			   opt_is(arg, "--threads")) {
			if (opt_is(arg, "--threads")) {
				if (i + 1 >= argc)
					bad_usage("option `threads' requires a "
						  "value", 0);
				v = argv[++i];
			}
			uc.threads = workers_parse(v);
			if (uc.threads < 0)
				bad_usage("option `threads' expects a "
					  "non-negative number", 0);
		} else if (opt_is(arg, "--stats")) {
			trace_enable();
		} else if (opt_is(arg, "--progress")) {
			progress_setup(1);
		} else if (opt_is(arg, "--no-progress")) {
			progress_setup(0);
		} else if (opt_is(arg, "--force-write-index")) {
			uc.force_write = 1;
		} else if (opt_is(arg, "--ignore-skip-worktree-entries")) {
			uc.ignore_skip_worktree = 1;
		} else if (opt_is(arg, "--no-ignore-skip-worktree-entries")) {
			uc.ignore_skip_worktree = 0;
		} else if (opt_is(arg, "--no-split-index") ||
			   opt_is(arg, "--no-untracked-cache") ||
			   opt_is(arg, "--no-fsmonitor")) {
			/* dirc writes neither: nothing to turn off */
		} else if (opt_is(arg, "--split-index") ||
			   opt_is(arg, "--untracked-cache") ||
			   opt_is(arg, "--test-untracked-cache") ||
			   opt_is(arg, "--force-untracked-cache") ||
			   opt_is(arg, "--fsmonitor") ||
			   opt_is(arg, "--fsmonitor-valid") ||
			   opt_is(arg, "--no-fsmonitor-valid") ||
			   opt_is(arg, "--again") || opt_is(arg, "-g") ||
			   opt_is(arg, "--unresolve")) {
			die("%s is not supported by dirc", arg);
		} else if (opt_is(arg, "-h")) {
			print_help();
		} else {
			char msg[256];

			if (arg[1] == '-')
				snprintf(msg, sizeof(msg), "unknown option '%s'",
					 arg + 2);
			else
				snprintf(msg, sizeof(msg), "unknown switch "
					 "'%c'", arg[1]);
			bad_usage(msg, 1);
		}
	}
	if (read_stdin)
		read_stdin_paths(&uc);
	apply_staged(&uc);

	/* batch fsync: the objects are durable before the index names them */
	ret = odb_flush(uc.odb);
	if (ret < 0)
		die_lib(ret);
	if (uc.idx.changed || uc.force_write) {
		if (uc.lock_ret < 0) {
			if (uc.quiet)
				exit(128);
			die_lib(error_restore(&uc.lock_err));
		}
		uc.idx.threads = uc.threads;
		ret = index_write(&uc.idx, &repo, &uc.lk);
		if (ret < 0)
			die_lib(ret);
	} else {
		lockfile_rollback(&uc.lk);
	}
	for (size_t i = 0; i < uc.jobs_nr; i++) {
		if (uc.jobs[i].err)
			error_saved_release(uc.jobs[i].err);
		free(uc.jobs[i].err);
	}
	free(uc.jobs);
	strmap_release(&uc.staged);
	error_saved_release(&uc.lock_err);
	strbuf_release(&uc.scratch);
	dir_cache_release(&uc.dirs);
	index_release(&uc.idx);
	repo_release(&repo);
	return uc.has_errors ? 1 : 0;
}
