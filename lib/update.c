/*
 * update: paths into the index in update-index's order and with its
 * checks (see update.h).  Invariants:
 *
 *   - u->staged holds, for each path staged in this run (since the last
 *     update_apply), its latest stage-0 entry or removal, so that a later
 *     path sees what an earlier one did before anything is merged;
 *   - a queued job's entry is already staged; only its id is missing
 *     until update_flush() runs the job;
 *   - a failure is recorded once, by fail(), after the jobs queued before
 *     the failing path were flushed (their failure comes first).
 */
#include "update.h"

#include <fcntl.h>
#include <ctype.h>
#include <strings.h>
#include <unistd.h>

#include "cache-tree.h"
#include "config.h"
#include "convert.h"
#include "error.h"
#include "modified.h"
#include "object.h"
#include "odb.h"
#include "path.h"
#include "pathspec.h"
#include "refs.h"
#include "repo.h"
#include "trace.h"
#include "tree.h"
#include "workers.h"

enum job_kind {
	JOB_NONE,	/* nothing to compute; just report */
	JOB_FILE,	/* hash (and store) a regular file */
	JOB_LINK,	/* hash (and store) a symlink's target */
};

/* One per path: 32 bytes, as a whole tree's worth are queued at once. */
struct update_job {
	struct index_entry *entry;	/* from the index pool */
	uint64_t size;			/* from lstat */
	struct error_saved *err;	/* owned; the failure, if any */
	int ret;			/* result of the work */
	unsigned char kind;		/* enum job_kind */
	unsigned char action;		/* enum update_action to report */
	unsigned char store_failed;	/* the file was read, not stored */
	unsigned char conv_failed;	/* its conversion failed: fatal */
	struct strbuf *warn;		/* owned: conversion warnings
					 * (convert_to_git), or NULL */
};

void
update_init(struct update *u, struct repo *repo, struct index *idx,
	    struct odb *odb)
{
	memset(u, 0, sizeof(*u));
	u->repo = repo;
	u->idx = idx;
	u->odb = odb;
	strbuf_init(&u->failed_path, 0);
	strbuf_init(&u->dirs.dir, 0);
	u->convert = convert_new(repo, idx, odb, 0);
}

static void
release_jobs(struct update *u)
{
	for (size_t i = 0; i < u->jobs_nr; i++) {
		if (u->jobs[i].err)
			error_saved_release(u->jobs[i].err);
		free(u->jobs[i].err);
		if (u->jobs[i].warn)
			strbuf_release(u->jobs[i].warn);
		free(u->jobs[i].warn);
	}
	u->jobs_nr = 0;
}

void
update_release(struct update *u)
{
	release_jobs(u);
	free(u->jobs);
	/* a filter process dying at its end is reported there, as in git */
	if (convert_free(u->convert) < 0)
		error_clear();
	u->convert = NULL;
	strmap_release(&u->staged);
	strmap_release(&u->staged_dirs);
	strbuf_release(&u->failed_path);
	dir_cache_release(&u->dirs);
	u->jobs = NULL;
	u->jobs_alloc = 0;
}

/* Record the failure (the message is already set); returns ret. */
static int
fail(struct update *u, int ret, enum update_failure kind, const char *path)
{
	u->failure = kind;
	strbuf_reset(&u->failed_path);
	strbuf_addstr(&u->failed_path, path);
	return ret;
}

/* ---- lookups that see what this run staged ---- */

/* The current entry for name at stage 0: staged, else in the index. */
static struct index_entry *
current_entry(struct update *u, const char *name, size_t len)
{
	struct index_entry *e = strmap_get(&u->staged, name, len);
	ssize_t pos;

	if (e)
		return e->state & CE_STAGED_DELETE ? NULL : e;
	pos = index_pos(u->idx, name, len, 0);
	return pos >= 0 ? u->idx->entries[pos] : NULL;
}

/* Any stage of name present (staged removals hide the index's)? */
static int
path_present(struct update *u, const char *name, size_t len)
{
	struct index_entry *e = strmap_get(&u->staged, name, len);

	if (e)
		return !(e->state & CE_STAGED_DELETE);
	return index_pos(u->idx, name, len, -1) >= 0;
}

static void
stage_add(struct update *u, struct index_entry *e)
{
	index_stage_add(u->idx, e, u->flags & UPDATE_REPLACE ?
			INDEX_ADD_REPLACE : 0);
	if (ce_stage(e))
		return;
	strmap_put(&u->staged, e->name, e->namelen, e);
	for (size_t i = 0; i < e->namelen; i++)
		if (e->name[i] == '/')
			strmap_put(&u->staged_dirs, e->name, i, e);
}

static void
stage_remove(struct update *u, const char *name, size_t len)
{
	struct index_entry *tomb;

	index_stage_remove(u->idx, name, len);
	u->staged_removal = 1;
	tomb = u->idx->staged[u->idx->staged_nr - 1];
	strmap_put(&u->staged, tomb->name, tomb->namelen, tomb);
	index_mark_changed(u->idx);
}

/*
 * Remove path from the index; when it is not there, git still invalidates
 * the cache-tree along it (and so writes the index, if it has one).
 */
static void
remove_path(struct update *u, const char *name, size_t len)
{
	if (path_present(u, name, len)) {
		stage_remove(u, name, len);
	} else if (u->idx->tree) {
		cache_tree_invalidate_path(u->idx->tree, name, len);
		index_mark_changed(u->idx);
	}
}

/*
 * Would adding path (stage 0) put a file where a directory is, or the
 * other way round?  (index_apply checks again; this answers early, in
 * argument order, for git's messages.)
 */
static int
df_conflict(struct update *u, const char *path, size_t len)
{
	ssize_t pos;

	for (size_t i = 0; i < len; i++)
		if (path[i] == '/' && current_entry(u, path, i))
			return 1;
	if (strmap_get(&u->staged_dirs, path, len))
		return 1;
	pos = index_pos(u->idx, path, len, 0);
	for (pos = pos < 0 ? -pos - 1 : pos + 1; (size_t)pos < u->idx->nr;
	     pos++) {
		const struct index_entry *e = u->idx->entries[pos];

		if (e->namelen <= len || memcmp(e->name, path, len))
			break;
		if (e->name[len] > '/')
			break;
		if (e->name[len] == '/' && !ce_stage(e) &&
		    current_entry(u, e->name, e->namelen))
			return 1;
	}
	return 0;
}

static int
df_fail(struct update *u, const char *path)
{
	return fail(u, error_set(E_CONFLICT, "'%s' appears as both a file "
				 "and as a directory", path),
		    UPDATE_FAILED_ADD, path);
}

/* ---- the job queue ---- */

static struct update_job *
queue(struct update *u, enum job_kind kind, struct index_entry *e,
      enum update_action action)
{
	struct update_job *j;

	ALLOC_GROW(u->jobs, u->jobs_nr + 1, u->jobs_alloc);
	j = &u->jobs[u->jobs_nr++];
	memset(j, 0, sizeof(*j));
	j->kind = kind;
	j->entry = e;
	j->action = action;
	return j;
}

struct job_run {
	struct update *u;
	struct odb_writer *writers;	/* one per thread */
};

/*
 * The id of path's blob in the index, whose CRLFs keep text=auto from
 * normalising (git: stage 0, else stage 2), or NULL.
 */
static const struct object_id *
index_blob(struct update *u, const char *path)
{
	size_t len = strlen(path);
	ssize_t pos = index_pos(u->idx, path, len, 0);

	if (pos >= 0)
		return &u->idx->entries[pos]->oid;
	for (size_t i = -pos - 1; i < u->idx->nr; i++) {
		const struct index_entry *e = u->idx->entries[i];

		if (e->namelen != len || memcmp(e->name, path, len))
			break;
		if (ce_stage(e) == 2)
			return &e->oid;
	}
	return NULL;
}

/*
 * After a conversion that returned ret: keep warn's messages for
 * update_flush to give in order, and mark a failed conversion (fatal).
 * Returns ret.
 */
static int
converted(struct update_job *j, struct strbuf *warn, int ret)
{
	if (warn->len) {
		j->warn = xmalloc(sizeof(*j->warn));
		*j->warn = *warn;
		strbuf_init(warn, 0);
	}
	if (ret < 0)
		j->conv_failed = 1;
	return ret;
}

/* run_converted for a big file: counted, then converted as it streams */
static int
run_streamed(struct update *u, struct odb_writer *w, struct update_job *j,
	     int fd, const struct convert_plan *p, unsigned flags)
{
	struct convert_stream *cs = xmalloc(sizeof(*cs));
	struct strbuf warn = STRBUF_INIT;
	const char *path = j->entry->name;
	struct odb_xform *x;
	int ret;

	/* any failure but the conversion's is the object's, as in git */
	j->store_failed = 1;
	ret = convert_stream_count(cs, fd, j->size, &w->rb, path);
	if (ret < 0)
		goto out;
	ret = converted(j, &warn, convert_stream_decide(&x, cs, u->convert,
				p, path, index_blob(u, path),
				flags ? CONVERT_SAFECRLF : 0, &warn));
	if (ret < 0)
		goto out;
	ret = odb_write_fd_xform(u->odb, w, "blob", fd, j->size, x, path,
				 flags, &j->entry->oid);
out:
	free(cs);
	strbuf_release(&warn);
	return ret < 0 ? ret : 0;
}

/*
 * A file git cleans (convert.h): read whole, converted, then hashed
 * (and stored); a big one whose line endings only change, streamed.
 * A failed conversion is fatal (git dies).
 */
static int
run_converted(struct update *u, struct odb_writer *w, struct update_job *j,
	      int fd, const struct convert_plan *p, unsigned flags)
{
	struct file_view view = FILE_VIEW_INIT;
	struct strbuf conv = STRBUF_INIT, warn = STRBUF_INIT;
	const char *path = j->entry->name;
	const void *data;
	size_t len;
	int ret;

	if (convert_can_stream(p, j->size))
		return run_streamed(u, w, j, fd, p, flags);
	j->store_failed = 1;	/* as in run_streamed */
	ret = fileio_view_fd(&view, &w->rb, fd, j->size, path);
	if (ret < 0)
		return ret;
	ret = converted(j, &warn, convert_to_git(&conv, u->convert, p, path,
				view.data, view.len, index_blob(u, path),
				flags ? CONVERT_SAFECRLF : 0, &warn));
	if (ret < 0)
		goto out;
	data = ret ? (const void *)view.data : conv.buf;
	len = ret ? view.len : conv.len;
	if (!flags) {
		odb_hash(&j->entry->oid, "blob", data, len);
		ret = 0;
	} else {
		ret = odb_write(u->odb, w, "blob", data, len, &j->entry->oid);
	}
out:
	file_view_release(&view);
	strbuf_release(&conv);
	strbuf_release(&warn);
	return ret < 0 ? ret : 0;
}

/*
 * Hash (and store) the file or link of j.  Opening the file or reading
 * the link is the path's own failure; anything after that is the
 * object's (git adds "failed to insert into database" for those).
 */
static int
run_file(struct update *u, struct odb_writer *w, struct update_job *j)
{
	unsigned flags = u->flags & UPDATE_INFO_ONLY ? 0 : ODB_FD_WRITE;
	const char *path = j->entry->name;
	struct convert_plan p;
	int fd, ret;

	if (j->kind == JOB_LINK) {
		struct strbuf target = STRBUF_INIT;
		ssize_t n;

		strbuf_grow(&target, j->size + 1);
		n = readlink(path, target.buf, target.alloc);
		if (n < 0) {
			ret = error_errno(errno, "readlink(\"%s\")", path);
		} else if ((size_t)n >= target.alloc) {
			ret = error_set(E_CORRUPT, "symlink %s changed while "
					"it was being read", path);
		} else if (!flags) {
			odb_hash(&j->entry->oid, "blob", target.buf, n);
			ret = 0;
		} else {
			j->store_failed = 1;
			ret = odb_write(u->odb, w, "blob", target.buf, n,
					&j->entry->oid);
		}
		strbuf_release(&target);
		return ret < 0 ? ret : 0;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_errno(errno, "open(\"%s\")", path);
	convert_plan_for(&p, u->convert, path);
	if (convert_plan_cleans(u->convert, &p)) {
		ret = run_converted(u, w, j, fd, &p, flags);
		close(fd);
		return ret < 0 ? ret : 0;
	}
	j->store_failed = 1;
	ret = odb_write_fd(u->odb, w, "blob", fd, j->size, path, flags,
			   &j->entry->oid);
	close(fd);
	return ret < 0 ? ret : 0;
}

static void
run_job(void *ctx, size_t i, int thread)
{
	struct job_run *r = ctx;
	struct update *u = r->u;
	struct update_job *j = &u->jobs[i];
	struct odb_writer *w = thread ? &r->writers[thread] :
		&u->odb->writer;

	if (j->kind == JOB_NONE)
		return;
	j->ret = run_file(u, w, j);
	if (j->ret < 0) {
		j->err = xcalloc(1, sizeof(*j->err));
		error_save(j->err);
		error_clear();
	} else {
		j->store_failed = 0;
	}
	if (u->progress)
		u->progress(u->progress_ctx, UPDATE_PROGRESS_STEP, j->size,
			    thread);
}

/* Many objects to write: list the store once instead of probing each. */
#define LIST_LOOSE_MIN 1024

static void
run_jobs(struct update *u)
{
	struct job_run r = { u, NULL };
	size_t work = 0;
	int n;

	for (size_t i = 0; i < u->jobs_nr; i++)
		work += u->jobs[i].kind != JOB_NONE;
	if (!work)
		return;
	n = workers_count(u->threads, u->repo->settings.threads, work, 16);
	odb_prepare_packs(u->odb);
	if (work >= LIST_LOOSE_MIN && !(u->flags & UPDATE_INFO_ONLY))
		odb_list_loose(u->odb);
	r.writers = xcalloc(n, sizeof(*r.writers));
	for (int t = 1; t < n; t++)
		odb_writer_init(&r.writers[t], u->odb->level);
	if (u->progress)
		u->progress(u->progress_ctx, UPDATE_PROGRESS_BEGIN, work, 0);
	workers_run(n, u->jobs_nr, run_job, &r);
	if (u->progress)
		u->progress(u->progress_ctx, UPDATE_PROGRESS_END, 0, 0);
	for (int t = 1; t < n; t++)
		odb_writer_release(&r.writers[t]);
	free(r.writers);
}

int
update_flush(struct update *u)
{
	uint64_t start = trace_now();
	int ret = 0;

	run_jobs(u);
	trace_phase("hash objects", start);
	for (size_t i = 0; i < u->jobs_nr; i++) {
		struct update_job *j = &u->jobs[i];

		if (j->warn)
			for (size_t k = 0; k < j->warn->len;
			     k += strlen(j->warn->buf + k) + 1)
				diag_emit(DIAG_WARNING, "%s", j->warn->buf + k);
		if (j->ret < 0) {
			ret = fail(u, error_restore(j->err), j->conv_failed ?
				   UPDATE_FAILED_ENTRY : j->store_failed ?
				   UPDATE_FAILED_STORE : UPDATE_FAILED_PATH,
				   j->entry->name);
			break;
		}
		if (u->report)
			u->report(u->report_ctx, j->action, 0,
				  j->entry->name);
	}
	release_jobs(u);
	return ret;
}

/* Fail for path, after the jobs queued before it. */
static int
fail_after_jobs(struct update *u, int ret, enum update_failure kind,
		const char *path)
{
	struct error_saved saved = ERROR_SAVED_INIT;
	int flushed;

	error_save(&saved);
	flushed = update_flush(u);
	if (flushed < 0) {
		error_saved_release(&saved);
		return flushed;
	}
	ret = error_restore(&saved);
	error_saved_release(&saved);
	return fail(u, ret, kind, path);
}

/* ---- one path ---- */

static unsigned
mode_for(struct update *u, const struct index_entry *old,
	 const struct stat *st)
{
	const struct repo_settings *s = &u->repo->settings;

	if (S_ISREG(st->st_mode) && !s->filemode) {
		if (old && S_ISREG(old->mode))
			return old->mode;
		return S_IFREG | 0644;
	}
	if (S_ISREG(st->st_mode) && !s->symlinks && old && S_ISLNK(old->mode))
		return old->mode;
	return index_mode_from_stat(st);
}

static int
add_one_path(struct update *u, struct index_entry *old, const char *path,
	     size_t len, const struct stat *st)
{
	struct index_entry *e;
	enum job_kind kind;

	/* already up to date? (stat data, and content when racy) */
	if (old && !ce_stage(old) &&
	    modified_check(NULL, u->repo, u->idx, old, st, MODIFIED_STAT_ONLY,
			   NULL) == ENTRY_CLEAN) {
		if (!S_ISGITLINK(old->mode))
			old->state |= CE_UPTODATE;
		queue(u, JOB_NONE, old, UPDATE_ACT_ADD);
		return 0;
	}
	if (!(u->flags & UPDATE_ADD) && !path_present(u, path, len))
		return fail_after_jobs(u, error_set(E_NOTFOUND, "%s: cannot "
					"add to the index - missing --add "
					"option?", path),
				       UPDATE_FAILED_PATH, path);
	if (!(u->flags & UPDATE_REPLACE) && df_conflict(u, path, len))
		return fail_after_jobs(u, df_fail(u, path), UPDATE_FAILED_ADD,
				       path);
	e = index_entry_new(u->idx, path, len);
	index_entry_fill_stat(e, st);
	e->mode = mode_for(u, old, st);
	e->state |= CE_UPTODATE;
	trace_count(TC_FILES_STATED, 1);
	if (S_ISLNK(st->st_mode)) {
		kind = JOB_LINK;
	} else if (S_ISDIR(st->st_mode)) {
		if (refs_resolve_gitlink(&e->oid, path) < 0) {
			error_clear();
			return fail_after_jobs(u, error_set(E_INVALID, "%s: is "
						"a directory - add files "
						"inside instead", path),
					       UPDATE_FAILED_PATH, path);
		}
		kind = JOB_NONE;
		e->mode = S_IFGITLINK;
	} else {
		kind = JOB_FILE;
	}
	queue(u, kind, e, UPDATE_ACT_ADD)->size = st->st_size;
	stage_add(u, e);
	return 0;
}

static int
remove_one_path(struct update *u, const char *path, size_t len)
{
	if (!(u->flags & UPDATE_REMOVE))
		return fail_after_jobs(u, error_set(E_NOTFOUND, "%s: does not "
					"exist and --remove not passed", path),
				       UPDATE_FAILED_PATH, path);
	remove_path(u, path, len);
	/* git reports even this as "add" */
	queue(u, JOB_NONE, index_entry_new(u->idx, path, len), UPDATE_ACT_ADD);
	return 0;
}

static int
process_directory(struct update *u, const char *path, size_t len,
		  const struct stat *st)
{
	struct index_entry *old = current_entry(u, path, len);
	struct object_id oid;
	ssize_t pos;

	if (old) {
		if (S_ISGITLINK(old->mode)) {
			if (refs_resolve_gitlink(&oid, path) < 0) {
				error_clear();
				queue(u, JOB_NONE, old, UPDATE_ACT_ADD);
				return 0;
			}
			return add_one_path(u, old, path, len, st);
		}
		return remove_one_path(u, path, len);
	}
	/* files under it in the index (or staged by this run)? */
	if (strmap_get(&u->staged_dirs, path, len))
		return fail_after_jobs(u, error_set(E_INVALID, "%s: is a "
					"directory - add individual files "
					"instead", path),
				       UPDATE_FAILED_PATH, path);
	pos = index_pos(u->idx, path, len, 0);
	for (pos = -pos - 1; pos >= 0 && (size_t)pos < u->idx->nr; pos++) {
		const struct index_entry *e = u->idx->entries[pos];

		if (e->namelen <= len || memcmp(e->name, path, len))
			break;
		if (e->name[len] > '/')
			break;
		if (e->name[len] == '/')
			return fail_after_jobs(u, error_set(E_INVALID, "%s: is "
						"a directory - add individual "
						"files instead", path),
					       UPDATE_FAILED_PATH, path);
	}
	if (!refs_resolve_gitlink(&oid, path))
		return add_one_path(u, NULL, path, len, st);
	error_clear();
	return fail_after_jobs(u, error_set(E_INVALID, "%s: is a directory - "
				"add files inside instead", path),
			       UPDATE_FAILED_PATH, path);
}

static int
mark_flags(struct update *u, const char *path, size_t len, int valid_bit)
{
	struct index_entry *e = current_entry(u, path, len);
	enum update_mark how = valid_bit ? u->mark_valid : u->mark_skip;

	if (!e)
		return fail_after_jobs(u, error_set(E_NOTFOUND, "Unable to "
					"mark file %s", path),
				       UPDATE_FAILED_ENTRY, path);
	if (valid_bit) {
		if (how == UPDATE_MARK_SET)
			e->flags |= CE_VALID;
		else
			e->flags &= ~CE_VALID;
	} else {
		if (how == UPDATE_MARK_SET)
			e->ext_flags |= CE_SKIP_WORKTREE;
		else
			e->ext_flags &= ~CE_SKIP_WORKTREE;
	}
	e->state |= CE_UPDATE_IN_BASE;	/* as git, even when unchanged */
	if (u->idx->tree)
		cache_tree_invalidate_path(u->idx->tree, path, len);
	index_mark_changed(u->idx);
	return 0;
}

/* The work of one path, without --chmod (which --again leaves out). */
static int
update_one(struct update *u, const char *path)
{
	size_t len = strlen(path);
	struct index_entry *old;
	struct stat st;
	int stat_errno = 0;

	memset(&st, 0, sizeof(st));
	if (u->mark_valid || u->mark_skip || u->flags & UPDATE_FORCE_REMOVE) {
		st.st_mode = 0;
	} else if (lstat(path, &st) < 0) {
		st.st_mode = 0;
		stat_errno = errno;
	}
	if (!path_verify(path, st.st_mode, u->repo->settings.protect)) {
		diag_emit(DIAG_PLAIN, "Ignoring path %s", path);
		return 0;
	}
	if (u->mark_valid)
		return mark_flags(u, path, len, 1);
	if (u->mark_skip)
		return mark_flags(u, path, len, 0);
	if (u->flags & UPDATE_FORCE_REMOVE) {
		remove_path(u, path, len);
		queue(u, JOB_NONE, index_entry_new(u->idx, path, len),
		      UPDATE_ACT_REMOVE);
		return 0;
	}

	old = current_entry(u, path, len);
	if (old && old->ext_flags & CE_SKIP_WORKTREE) {
		/* the work tree is assumed good: only removal makes sense */
		if (u->flags & UPDATE_REMOVE &&
		    !(u->flags & UPDATE_IGNORE_SKIP_WORKTREE))
			stage_remove(u, path, len);
		queue(u, JOB_NONE, old, UPDATE_ACT_ADD);
		return 0;
	}
	if (index_check_leading_path(path, len, &u->dirs) < 0)
		return fail_after_jobs(u, -error_code(), UPDATE_FAILED_PATH,
				       path);
	if (stat_errno) {
		if (stat_errno == ENOENT || stat_errno == ENOTDIR)
			return remove_one_path(u, path, len);
		return fail_after_jobs(u, error_set(error_code_of_errno(
						stat_errno), "lstat(\"%s\"): "
						"%s", path,
						strerror(stat_errno)),
				       UPDATE_FAILED_PATH, path);
	}
	if (S_ISDIR(st.st_mode))
		return process_directory(u, path, len, &st);
	if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
		return fail_after_jobs(u, error_set(E_INVALID, "%s: cannot add "
					"a special file", path),
				       UPDATE_FAILED_PATH, path);
	return add_one_path(u, old, path, len, &st);
}

static int
chmod_path(struct update *u, const char *path)
{
	size_t len = strlen(path);
	struct index_entry *e = current_entry(u, path, len);
	int ret;

	if (!e || !S_ISREG(e->mode))
		return fail_after_jobs(u, error_set(E_INVALID, "git "
					"update-index: cannot chmod %cx '%s'",
					u->chmod, path),
				       UPDATE_FAILED_ENTRY, path);
	e->mode = S_IFREG | (u->chmod == '+' ? 0755 : 0644);
	e->state |= CE_UPDATE_IN_BASE;	/* as git, even when unchanged */
	if (u->idx->tree)
		cache_tree_invalidate_path(u->idx->tree, path, len);
	index_mark_changed(u->idx);
	if (!u->report)
		return 0;
	ret = update_flush(u);
	if (ret < 0)
		return ret;
	u->report(u->report_ctx, UPDATE_ACT_CHMOD, u->chmod, path);
	return 0;
}

int
update_path(struct update *u, const char *path)
{
	int ret = update_one(u, path);

	if (ret < 0 || !u->chmod)
		return ret;
	return chmod_path(u, path);
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

int
update_cacheinfo(struct update *u, unsigned mode, const struct object_id *oid,
		 const char *path, int stage)
{
	size_t len = strlen(path);
	struct index_entry *e;
	int ret = update_flush(u);

	if (ret < 0)
		return ret;
	if (!mode) {
		if (path_present(u, path, len))
			stage_remove(u, path, len);
		return 0;
	}
	if ((mode & S_IFMT) == S_IFDIR)
		return fail(u, error_set(E_INVALID, "%s: mode %06o is a tree, "
					 "which cannot be an index entry",
					 path, mode),
			    UPDATE_FAILED_PATH, path);
	if (!path_verify(path, mode, u->repo->settings.protect))
		return fail(u, error_set(E_INVALID, "Invalid path '%s'", path),
			    UPDATE_FAILED_PATH, path);
	if (!(u->flags & UPDATE_ADD) && !path_present(u, path, len))
		return fail(u, error_set(E_NOTFOUND, "%s: cannot add to the "
					 "index - missing --add option?",
					 path),
			    UPDATE_FAILED_PATH, path);
	if (!stage && !(u->flags & UPDATE_REPLACE) && df_conflict(u, path, len))
		return df_fail(u, path);
	e = index_entry_new(u->idx, path, len);
	oidcpy(&e->oid, oid);
	e->mode = create_mode(mode);
	e->flags = (stage << CE_STAGESHIFT) & CE_STAGEMASK;
	stage_add(u, e);
	if (u->report)
		u->report(u->report_ctx, UPDATE_ACT_ADD, 0, path);
	return 0;
}

int
update_apply(struct update *u)
{
	int ret = update_flush(u);

	if (ret < 0)
		return ret;
	ret = index_apply(u->idx);
	u->staged_removal = 0;
	strmap_release(&u->staged);
	strmap_release(&u->staged_dirs);
	if (ret < 0)
		return fail(u, ret, UPDATE_FAILED_ADD, u->idx->df_conflict);
	return 0;
}

/* ---- trees: the entries of HEAD and MERGE_HEAD ---- */

/* The commit ref name points at: 0, or a negative E_* (none). */
static int
resolve_ref(struct update *u, const char *name, struct object_id *oid)
{
	struct ref_store rs;
	int ret;

	ref_store_init(&rs, u->repo->gitdir, u->repo->commondir);
	rs.reftable = u->repo->reftable;
	ret = refs_resolve(&rs, name, oid, NULL);
	ref_store_release(&rs);
	return ret;
}

/*
 * The entry at path in the tree of commit: 1 and its mode and id, 0 if
 * there is none, or a negative E_* (a missing or corrupt object).
 */
static int
tree_lookup(unsigned *mode, struct object_id *oid, struct update *u,
	    const struct object_id *commit, const char *path)
{
	struct odb_object obj = ODB_OBJECT_INIT;
	struct object_id cur;
	const char *p = path;
	int ret;

	ret = odb_read(&obj, u->odb, commit, 0);
	if (ret < 0)
		return ret;
	if (obj.type != OBJ_COMMIT ||
	    obj.size < 5 + (size_t)HASH_HEXSZ || memcmp(obj.data, "tree ", 5) ||
	    hex_to_oid(&cur, (const char *)obj.data + 5)) {
		odb_object_release(&obj);
		return error_set(E_CORRUPT, "%s is not a valid commit",
				 oid_to_hex(commit));
	}
	odb_object_release(&obj);
	for (;;) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);
		struct tree_iter it;
		struct tree_entry te;
		int found = 0;

		ret = odb_read(&obj, u->odb, &cur, 0);
		if (ret < 0)
			return ret;
		if (obj.type != OBJ_TREE) {
			odb_object_release(&obj);
			return 0;
		}
		tree_iter_init(&it, obj.data, obj.size);
		while ((ret = tree_iter_next(&it, &te)) > 0)
			if (te.namelen == len && !memcmp(te.name, p, len)) {
				found = 1;
				break;
			}
		if (found) {
			*mode = te.mode;
			oidcpy(&cur, te.oid);
		}
		odb_object_release(&obj);
		if (ret < 0)
			return ret;
		if (!found)
			return 0;
		if (!slash) {
			*oid = cur;
			return 1;
		}
		if (!S_ISDIR(*mode))
			return 0;
		p = slash + 1;
	}
}

/* ---- --again ---- */

int
update_again(struct update *u, const struct pathspec *ps)
{
	struct object_id head;
	int has_head = resolve_ref(u, "HEAD", &head) == 0;
	size_t pos = 0;
	int ret;

	/* no HEAD (an initial commit): every entry differs from it */
	error_clear();
	ret = update_apply(u);
	if (ret < 0)
		return ret;
	while (pos < u->idx->nr) {
		const struct index_entry *e = u->idx->entries[pos++];
		unsigned mode = 0;
		struct object_id oid;
		size_t nr_before;
		char *path;

		if (ce_stage(e) ||
		    !pathspec_match(ps, e->name, e->namelen, 0, NULL, 0))
			continue;
		if (has_head) {
			ret = tree_lookup(&mode, &oid, u, &head, e->name);
			if (ret < 0)
				return fail(u, ret, UPDATE_FAILED_PATH,
					    e->name);
			if (ret > 0 && !S_ISDIR(mode) &&
			    tree_canon_mode(mode) == e->mode &&
			    oideq(&oid, &e->oid))
				continue;	/* unchanged since HEAD */
		}
		/*
		 * The path can go, or evict others: then, as git, start
		 * again from the first entry (and report those again).
		 */
		nr_before = u->idx->nr;
		path = xstrdup(e->name);
		ret = update_one(u, path);
		if (!ret && (u->staged_removal || u->flags & UPDATE_REPLACE))
			ret = update_apply(u);
		free(path);
		if (ret < 0)
			return ret;
		if (u->idx->nr != nr_before)
			pos = 0;
	}
	return update_apply(u);
}

/* ---- --unresolve ---- */

int
update_unresolve_begin(struct update *u)
{
	if (resolve_ref(u, "HEAD", &u->head) < 0) {
		error_clear();
		return error_set(E_NOTFOUND, "No HEAD -- no initial commit "
				 "yet?");
	}
	if (resolve_ref(u, "MERGE_HEAD", &u->merge_head) < 0) {
		error_clear();
		return 1;
	}
	u->has_head = 1;
	return 0;
}

/* One stage of path from a branch's tree, or NULL after saying why. */
static struct index_entry *
branch_entry(struct update *u, const struct object_id *commit,
	     const char *which, const char *path, int stage)
{
	struct index_entry *e;
	struct object_id oid;
	unsigned mode;
	int ret = tree_lookup(&mode, &oid, u, commit, path);

	if (ret < 0) {
		diag_emit(DIAG_ERROR, "%s", error_msg());
		error_clear();
	}
	if (ret <= 0) {
		diag_emit(DIAG_ERROR, "%s: not in %s branch.", path, which);
		return NULL;
	}
	if (S_ISDIR(mode)) {
		diag_emit(DIAG_ERROR, "%s: not a blob in %s branch.", path,
			  which);
		return NULL;
	}
	e = index_entry_new(u->idx, path, strlen(path));
	e->oid = oid;
	e->mode = create_mode(tree_canon_mode(mode));
	e->flags = (stage << CE_STAGESHIFT) & CE_STAGEMASK;
	return e;
}

int
update_unresolve(struct update *u, const char *path)
{
	size_t len = strlen(path);
	struct index_entry *ours, *theirs;
	struct resolve_undo *ru;
	ssize_t pos;
	int ret;

	if (!u->has_head)
		BUG("update_unresolve without update_unresolve_begin");
	ret = update_apply(u);
	if (ret < 0)
		return ret;
	pos = index_pos(u->idx, path, len, 0);
	ru = pos >= 0 ? index_resolve_undo(u->idx, path) : NULL;
	if (ru) {
		/* resolved: back to the stages it was resolved from */
		stage_remove(u, path, len);
		for (int s = 0; s < 3; s++) {
			struct index_entry *e;

			if (!ru->mode[s])
				continue;
			e = index_entry_new(u->idx, path, len);
			e->oid = ru->oid[s];
			e->mode = create_mode(ru->mode[s]);
			e->flags = ((s + 1) << CE_STAGESHIFT) & CE_STAGEMASK;
			index_stage_add(u->idx, e, 0);
		}
		index_drop_resolve_undo(u->idx, ru);
		return update_apply(u);
	}
	if (pos < 0 && index_pos(u->idx, path, len, -1) >= 0) {
		diag_emit(DIAG_PLAIN, "%s: skipping still unmerged path.",
			  path);
		return 0;
	}
	/* no record: what HEAD and MERGE_HEAD have */
	ours = branch_entry(u, &u->head, "our", path, 2);
	theirs = branch_entry(u, &u->merge_head, "their", path, 3);
	if (!ours || !theirs)
		return -1;
	if (ours->mode == theirs->mode && oideq(&ours->oid, &theirs->oid)) {
		diag_emit(DIAG_PLAIN, "%s: identical in both, skipping.", path);
		return 0;
	}
	stage_remove(u, path, len);
	index_stage_add(u->idx, ours, 0);
	index_stage_add(u->idx, theirs, 0);
	return update_apply(u);
}
