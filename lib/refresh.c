/*
 * refresh: the index's stat data brought up to date, in two passes.  The
 * first (parallel) decides a verdict per entry and keeps the new stat
 * data where that is all that changed; the second (in index order)
 * applies the verdicts and reports the problems.  The decisions are
 * git's refresh_cache_ent(), on top of modified_check().
 */
#include "refresh.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/mman.h>
#include <unistd.h>

#include "error.h"
#include "modified.h"
#include "repo.h"
#include "trace.h"
#include "tree.h"
#include "workers.h"

/* Below this many entries per thread, starting threads costs more. */
#define REFRESH_MIN_PER_THREAD 2048

enum verdict {
	V_SKIP,		/* left alone: not looked at, not marked */
	V_UNMERGED,	/* a stage above 0: left to the second pass */
	V_UPTODATE,	/* matches (or is trusted to): marked already */
	V_CLEAN,	/* matches, but is not marked (a gitlink) */
	V_RESTAT,	/* same content, new stat data */
	V_MODIFIED,	/* content, type or mode differs */
	V_MISSING,	/* gone (or beyond a symlink), or lstat failed */
};

/* An entry's result: its verdict, and these bits. */
#define R_VERDICT	0x0f
#define R_DELETED	0x10	/* V_MISSING: ENOENT, not another error */
#define R_TYPECHANGE	0x20	/* V_MODIFIED: the type changed */
#define R_RACY		0x40	/* racily clean, as it will be left */

/*
 * A thread's open leading directories, for lstat() relative to the last:
 * the kernel then looks up one name, not every component of the path
 * (for the 4.7 components of a linux-sized tree's paths, 7% less time in
 * all, with the opens and closes).  fd[k] is the directory of the first
 * end[k] bytes of the path ("a/b/"), opened from fd[k - 1] without
 * following a symbolic link: a real directory, as the leading-directory
 * check of index_check_leading_path() wants.
 */
#define DIR_FDS_MAX 32

struct dir_fds {
	int fd[DIR_FDS_MAX];
	size_t end[DIR_FDS_MAX];
	int depth;
	char prefix[PATH_MAX];		/* its first end[depth - 1] bytes */
};

struct run {
	struct index *idx;
	const struct repo *repo;
	const struct refresh_opts *opts;
	unsigned char *res;		/* one per entry; owned */
	/*
	 * V_RESTAT's new stat data, at the entry's position; owned.  Its
	 * pages are only touched for those entries (an unchanged tree has
	 * none), where 44 bytes of result per entry, all written, were 850
	 * page faults for a linux-sized index.
	 */
	struct stat_data *sd;
	size_t sd_len;			/* bytes mapped; 0: sd is malloc()ed */
	struct read_buf *rbs;		/* one per thread; owned */
	struct dir_cache *dirs;		/* one per thread; owned */
	struct dir_fds *fds;		/* one per thread; owned */
};

static void
dir_fds_pop(struct dir_fds *d)
{
	close(d->fd[--d->depth]);
}

/*
 * lstat() path (len bytes) the short way: 0 or -1 (errno set), as
 * lstat().  1 when the short way does not apply: a leading directory
 * cannot be opened as a real one (missing, a symbolic link, not a
 * directory, unreadable), or the path is too long or too deep.  The
 * caller then checks it the long way, which tells those apart.
 */
static int
dir_fds_lstat(struct dir_fds *d, const char *path, size_t len,
	      struct stat *st)
{
	size_t dirlen = len, at;

	if (len >= PATH_MAX)
		return 1;
	while (dirlen && path[dirlen - 1] != '/')
		dirlen--;
	/* keep the directories that lead to this path's */
	while (d->depth && (d->end[d->depth - 1] > dirlen ||
			    memcmp(d->prefix, path, d->end[d->depth - 1])))
		dir_fds_pop(d);
	at = d->depth ? d->end[d->depth - 1] : 0;
	while (at < dirlen) {
		const char *slash = memchr(path + at, '/', dirlen - at);
		size_t end = slash - path + 1;
		int fd;

		if (d->depth == DIR_FDS_MAX)
			return 1;
		/* the component, NUL-terminated in prefix */
		memcpy(d->prefix + at, path + at, end - 1 - at);
		d->prefix[end - 1] = '\0';
		fd = openat(d->depth ? d->fd[d->depth - 1] : AT_FDCWD,
			    d->prefix + at,
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		d->prefix[end - 1] = '/';
		if (fd < 0)
			return 1;
		d->fd[d->depth] = fd;
		d->end[d->depth++] = end;
		at = end;
	}
	return fstatat(d->depth ? d->fd[d->depth - 1] : AT_FDCWD,
		       path + dirlen, st, AT_SYMLINK_NOFOLLOW);
}

/* The verdict on entry i, with its R_DELETED or R_TYPECHANGE. */
static unsigned
verdict(struct run *r, const struct index_entry *e, size_t i, int thread)
{
	unsigned flags = r->opts->flags, changed;
	enum entry_state state;
	struct stat st;
	int ret;

	if (ce_stage(e))
		return V_UNMERGED;
	if ((flags & REFRESH_IGNORE_SUBMODULES && S_ISGITLINK(e->mode)) ||
	    (flags & REFRESH_IGNORE_SKIP_WORKTREE &&
	     e->ext_flags & CE_SKIP_WORKTREE))
		return V_SKIP;
	/* the user promised these do not matter */
	if (e->state & CE_UPTODATE || e->ext_flags & CE_SKIP_WORKTREE ||
	    (!(flags & REFRESH_REALLY) && e->flags & CE_VALID))
		return V_UPTODATE;
	if (r->opts->progress)
		r->opts->progress(r->opts->progress_ctx, thread);
	ret = dir_fds_lstat(&r->fds[thread], e->name, e->namelen, &st);
	if (ret > 0) {
		if (index_check_leading_path(e->name, e->namelen,
					     &r->dirs[thread]) < 0) {
			error_clear();
			return flags & REFRESH_IGNORE_MISSING ? V_SKIP :
				V_MISSING | R_DELETED;
		}
		ret = lstat(e->name, &st);
	}
	if (ret < 0) {
		int err = errno;

		if (flags & REFRESH_IGNORE_MISSING && err == ENOENT)
			return V_SKIP;
		return V_MISSING | (err == ENOENT ? R_DELETED : 0);
	}
	trace_count(TC_FILES_STATED, 1);
	state = modified_check(&changed, r->repo, r->idx, e, &st,
			       flags & REFRESH_REALLY ?
			       MODIFIED_IGNORE_VALID : 0, &r->rbs[thread]);
	switch (state) {
	case ENTRY_CLEAN:
		return S_ISGITLINK(e->mode) ? V_CLEAN : V_UPTODATE;
	case ENTRY_RESTAT: {
		struct index_entry tmp;

		index_entry_fill_stat(&tmp, &st);
		r->sd[i] = tmp.sd;
		return V_RESTAT;
	}
	case ENTRY_MODIFIED:
		break;
	}
	return V_MODIFIED | (changed & TYPE_CHANGED ? R_TYPECHANGE : 0);
}

/*
 * The first pass, on any thread.  What can be done here is, while the
 * entry is at hand: the mark of an entry up to date (no other thread
 * looks at it), and whether it will be racily clean.  The second pass
 * then reads the entries only where there is something to do (a serial
 * walk over 78,635 entries, cold after the lstat()s, took milliseconds).
 */
static void
check_one(void *ctx, size_t i, int thread)
{
	struct run *r = ctx;
	struct index_entry *e = r->idx->entries[i];
	unsigned res = verdict(r, e, i, thread);
	int racy;

	if ((res & R_VERDICT) == V_RESTAT) {
		struct index_entry tmp = *e;

		tmp.sd = r->sd[i];
		racy = index_entry_is_racy(r->idx, &tmp);
	} else {
		racy = index_entry_is_racy(r->idx, e);
	}
	if ((res & R_VERDICT) == V_UPTODATE)
		e->state |= CE_UPTODATE;
	r->res[i] = res | (racy ? R_RACY : 0);
}

static int
report(const struct refresh_opts *o, enum refresh_problem what,
       const char *path)
{
	if (o->report)
		o->report(o->report_ctx, what, path);
	return 1;
}

/* Apply the verdicts in index order; returns 1 if a problem counts. */
static int
apply(struct run *r)
{
	struct index *idx = r->idx;
	const struct refresh_opts *o = r->opts;
	int problems = 0;

	for (size_t i = 0; i < idx->nr; i++) {
		unsigned res = r->res[i];
		struct index_entry *e, *copy;
		enum refresh_problem what;

		switch (res & R_VERDICT) {
		case V_SKIP:
		case V_CLEAN:
		case V_UPTODATE:
			continue;
		}
		e = idx->entries[i];
		if ((res & R_VERDICT) == V_UNMERGED) {
			while (i + 1 < idx->nr &&
			       !strcmp(idx->entries[i + 1]->name, e->name))
				i++;
			if (o->flags & REFRESH_IGNORE_SUBMODULES &&
			    S_ISGITLINK(e->mode))
				continue;
			if (o->flags & REFRESH_UNMERGED)
				continue;
			problems |= report(o, REFRESH_NEEDS_MERGE, e->name);
			continue;
		}
		switch (res & R_VERDICT) {
		case V_RESTAT:
			copy = index_entry_dup(idx, e);
			copy->sd = r->sd[i];
			copy->state |= CE_UPTODATE;
			idx->entries[i] = copy;
			index_mark_changed(idx);
			continue;
		case V_MISSING:
			break;
		case V_MODIFIED:
			/* --really-refresh: the promise was broken */
			if (o->flags & REFRESH_REALLY && e->flags & CE_VALID) {
				e->flags &= ~CE_VALID;
				index_mark_changed(idx);
			}
			break;
		default:
			BUG("refresh verdict %u", res & R_VERDICT);
		}
		if (o->flags & REFRESH_QUIET)
			continue;
		/* in the order git tells them apart */
		if (res & R_DELETED)
			what = REFRESH_DELETED;
		else if (e->ext_flags & CE_INTENT_TO_ADD)
			what = REFRESH_ADDED;
		else if (res & R_TYPECHANGE)
			what = REFRESH_TYPECHANGE;
		else
			what = REFRESH_MODIFIED;
		problems |= report(o, what, e->name);
	}
	return problems;
}

/*
 * Zeroed room for n stat data whose pages cost nothing until written:
 * mapped directly, as malloc() may hand out (and clear) used memory.
 */
static void
sd_alloc(struct run *r, size_t n)
{
	size_t len = st_mult(n ? n : 1, sizeof(*r->sd));
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		r->sd = xcalloc(n ? n : 1, sizeof(*r->sd));
		r->sd_len = 0;
	} else {
		r->sd = p;
		r->sd_len = len;
	}
}

static void
sd_free(struct run *r)
{
	if (r->sd_len)
		munmap(r->sd, r->sd_len);
	else
		free(r->sd);
}

int
refresh_index(struct index *idx, const struct repo *repo,
	      const struct refresh_opts *opts)
{
	struct run r = { .idx = idx, .repo = repo, .opts = opts };
	uint64_t start = trace_now();
	int n, problems;

	if (idx->staged_nr)
		BUG("refresh_index with %zu staged changes", idx->staged_nr);
	n = workers_count(opts->threads, repo->settings.threads, idx->nr,
			  REFRESH_MIN_PER_THREAD);
	r.res = xcalloc(idx->nr ? idx->nr : 1, sizeof(*r.res));
	sd_alloc(&r, idx->nr);
	r.rbs = xcalloc(n, sizeof(*r.rbs));
	r.dirs = xcalloc(n, sizeof(*r.dirs));
	r.fds = xcalloc(n, sizeof(*r.fds));
	for (int t = 0; t < n; t++)
		strbuf_init(&r.dirs[t].dir, 0);
	workers_run_batch(n, idx->nr, WORKERS_RUN_NEIGHBOURS, check_one, &r);
	problems = apply(&r);
	if (opts->racy) {
		unsigned any = 0;

		for (size_t i = 0; i < idx->nr; i++)
			any |= r.res[i];
		*opts->racy = !!(any & R_RACY);
	}
	for (int t = 0; t < n; t++) {
		read_buf_release(&r.rbs[t]);
		dir_cache_release(&r.dirs[t]);
		while (r.fds[t].depth)
			dir_fds_pop(&r.fds[t]);
	}
	free(r.fds);
	free(r.rbs);
	free(r.dirs);
	sd_free(&r);
	free(r.res);
	trace_phase("refresh", start);
	return problems;
}
