/*
 * refresh: the index's stat data brought up to date, in two passes.  The
 * first (parallel) decides a verdict per entry and keeps the new stat
 * data where that is all that changed; the second (in index order)
 * applies the verdicts and reports the problems.  The decisions are
 * git's refresh_cache_ent(), on top of modified_check().
 */
#include "refresh.h"

#include <errno.h>

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
	V_UPTODATE,	/* matches (or is trusted to): mark it */
	V_CLEAN,	/* matches, but is not marked (a gitlink) */
	V_RESTAT,	/* same content, new stat data */
	V_MODIFIED,	/* content, type or mode differs */
	V_MISSING,	/* gone (or beyond a symlink), or lstat failed */
};

struct result {
	unsigned char verdict;	/* enum verdict */
	unsigned char deleted;	/* V_MISSING: ENOENT, not another error */
	unsigned char typechange; /* V_MODIFIED: the type changed */
	struct stat_data sd;	/* V_RESTAT: the new stat data */
};

struct run {
	struct index *idx;
	const struct repo *repo;
	const struct refresh_opts *opts;
	struct result *res;		/* one per entry; owned */
	struct read_buf *rbs;		/* one per thread; owned */
	struct dir_cache *dirs;		/* one per thread; owned */
};

static void
check_one(void *ctx, size_t i, int thread)
{
	struct run *r = ctx;
	unsigned flags = r->opts->flags, changed;
	const struct index_entry *e = r->idx->entries[i];
	struct result *res = &r->res[i];
	enum entry_state state;
	struct stat st;

	res->verdict = V_SKIP;
	if (ce_stage(e) ||
	    (flags & REFRESH_IGNORE_SUBMODULES && S_ISGITLINK(e->mode)) ||
	    (flags & REFRESH_IGNORE_SKIP_WORKTREE &&
	     e->ext_flags & CE_SKIP_WORKTREE))
		return;
	/* the user promised these do not matter */
	if (e->state & CE_UPTODATE || e->ext_flags & CE_SKIP_WORKTREE ||
	    (!(flags & REFRESH_REALLY) && e->flags & CE_VALID)) {
		res->verdict = V_UPTODATE;
		return;
	}
	if (r->opts->progress)
		r->opts->progress(r->opts->progress_ctx, thread);
	if (index_check_leading_path(e->name, e->namelen,
				     &r->dirs[thread]) < 0) {
		error_clear();
		res->verdict = flags & REFRESH_IGNORE_MISSING ? V_SKIP :
			V_MISSING;
		res->deleted = 1;
		return;
	}
	if (lstat(e->name, &st) < 0) {
		int err = errno;

		res->verdict = flags & REFRESH_IGNORE_MISSING &&
			err == ENOENT ? V_SKIP : V_MISSING;
		res->deleted = err == ENOENT;
		return;
	}
	trace_count(TC_FILES_STATED, 1);
	state = modified_check(&changed, r->repo, r->idx, e, &st,
			       flags & REFRESH_REALLY ?
			       MODIFIED_IGNORE_VALID : 0, &r->rbs[thread]);
	switch (state) {
	case ENTRY_CLEAN:
		res->verdict = S_ISGITLINK(e->mode) ? V_CLEAN : V_UPTODATE;
		break;
	case ENTRY_RESTAT: {
		struct index_entry tmp;

		index_entry_fill_stat(&tmp, &st);
		res->sd = tmp.sd;
		res->verdict = V_RESTAT;
		break;
	}
	case ENTRY_MODIFIED:
		res->verdict = V_MODIFIED;
		res->typechange = !!(changed & TYPE_CHANGED);
		break;
	}
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
		struct index_entry *e = idx->entries[i], *copy;
		struct result *res = &r->res[i];
		enum refresh_problem what;

		if (ce_stage(e)) {
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
		switch (res->verdict) {
		case V_SKIP:
		case V_CLEAN:
			continue;
		case V_UPTODATE:
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
			break;
		case V_MODIFIED:
			/* --really-refresh: the promise was broken */
			if (o->flags & REFRESH_REALLY && e->flags & CE_VALID) {
				e->flags &= ~CE_VALID;
				index_mark_changed(idx);
			}
			break;
		default:
			BUG("refresh verdict %d", res->verdict);
		}
		if (o->flags & REFRESH_QUIET)
			continue;
		/* in the order git tells them apart */
		if (res->verdict == V_MISSING && res->deleted)
			what = REFRESH_DELETED;
		else if (e->ext_flags & CE_INTENT_TO_ADD)
			what = REFRESH_ADDED;
		else if (res->typechange)
			what = REFRESH_TYPECHANGE;
		else
			what = REFRESH_MODIFIED;
		problems |= report(o, what, e->name);
	}
	return problems;
}

int
refresh_index(struct index *idx, const struct repo *repo,
	      const struct refresh_opts *opts)
{
	struct run r = { idx, repo, opts, NULL, NULL, NULL };
	uint64_t start = trace_now();
	int n, problems;

	if (idx->staged_nr)
		BUG("refresh_index with %zu staged changes", idx->staged_nr);
	n = workers_count(opts->threads, repo->settings.threads, idx->nr,
			  REFRESH_MIN_PER_THREAD);
	r.res = xcalloc(idx->nr ? idx->nr : 1, sizeof(*r.res));
	r.rbs = xcalloc(n, sizeof(*r.rbs));
	r.dirs = xcalloc(n, sizeof(*r.dirs));
	for (int t = 0; t < n; t++)
		strbuf_init(&r.dirs[t].dir, 0);
	workers_run(n, idx->nr, check_one, &r);
	problems = apply(&r);
	for (int t = 0; t < n; t++) {
		read_buf_release(&r.rbs[t]);
		dir_cache_release(&r.dirs[t]);
	}
	free(r.rbs);
	free(r.dirs);
	free(r.res);
	trace_phase("refresh", start);
	return problems;
}
