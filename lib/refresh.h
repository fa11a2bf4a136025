/*
 * refresh: bring the index's stat data up to date with the work tree
 * (git's refresh_index, behind update-cache --refresh and
 * --really-refresh).  Every stage-0 entry is checked with modified_check()
 * (lib/modified.h): one whose file only has new stat data gets it; one
 * that is modified, gone or unmerged is reported through a callback, in
 * index order, and left alone.  Nothing is printed here.
 *
 * The checks (lstat, and a content check where the stat data cannot be
 * trusted) run in parallel; the verdicts are applied and reported in
 * index order afterwards, so the output is the same for every thread
 * count.
 */
#ifndef DIRC_REFRESH_H
#define DIRC_REFRESH_H

#include "index.h"

struct repo;

enum refresh_flags {
	/* look at assume-unchanged entries too; clear the bit of those
	 * found modified */
	REFRESH_REALLY = 1 << 0,
	REFRESH_IGNORE_MISSING = 1 << 1,	/* a deleted file is no problem */
	REFRESH_UNMERGED = 1 << 2,	/* an unmerged path is no problem */
	REFRESH_IGNORE_SUBMODULES = 1 << 3,	/* leave gitlinks alone */
	REFRESH_QUIET = 1 << 4,		/* modified entries are no problem */
	/* leave skip-worktree entries alone (not even marked up to date) */
	REFRESH_IGNORE_SKIP_WORKTREE = 1 << 5,
};

/* What a reported path needs; git's porcelain tells them apart. */
enum refresh_problem {
	REFRESH_NEEDS_MERGE,	/* unmerged (reported once per path) */
	REFRESH_MODIFIED,
	REFRESH_DELETED,	/* gone, or beyond a symbolic link */
	REFRESH_TYPECHANGE,
	REFRESH_ADDED,		/* an intent-to-add entry */
};

struct refresh_opts {
	unsigned flags;		/* enum refresh_flags */
	int threads;		/* 0: automatic (workers_count) */
	/* called in index order for each problem (not under REFRESH_QUIET
	 * for the modified ones); may be NULL */
	void (*report)(void *ctx, enum refresh_problem what,
		       const char *path);
	void *report_ctx;
	/* called once per entry examined, from any thread (thread 0 is the
	 * caller's); may be NULL */
	void (*progress)(void *ctx, int thread);
	void *progress_ctx;
	/* if not NULL, set to whether any entry of the index refreshed is
	 * racily clean (index_entry_is_racy(); rewriting the index makes
	 * them stop), which is found on the way */
	int *racy;
};
#define REFRESH_OPTS_INIT { 0, 0, NULL, NULL, NULL, NULL, NULL }

/*
 * Refresh idx (which has no staged changes) against the work tree, the
 * current directory being its top.  Entries with new stat data are
 * replaced by copies from the pool and the index is marked changed;
 * entries found up to date get CE_UPTODATE (so that index_write() does
 * not check them again).  Returns 1 if a problem was reported that the
 * flags do not excuse, else 0; it cannot fail.
 */
int refresh_index(struct index *idx, const struct repo *repo,
		  const struct refresh_opts *opts);

#endif
