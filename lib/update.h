/*
 * update: register work-tree paths in the index the way git's
 * update-index does, one path at a time in the order given, the options
 * in force when a path comes applying to it (--add, --remove, --replace,
 * --force-remove, --info-only, --chmod, the assume-unchanged and
 * skip-worktree marks), and the entries of --cacheinfo/--index-info;
 * also --again (re-register what differs from HEAD) and --unresolve
 * (bring back the stages of a resolved conflict).
 *
 * The expensive part is batched: paths are decided in order (normalised
 * by the caller, lstat, lookup, checks) and those needing an object
 * queue a job; update_flush() hashes (and stores) the queued files on
 * several threads, then reports them in order, so the messages and the
 * first failure are the ones git gives in the same order.  Changes are
 * staged on the index (index_stage_add/remove) and merged by
 * update_apply().
 *
 * Failures.  A function that fails returns a negative E_* with this
 * thread's error message set, and records in the update what failed and
 * for which path (u->failure, u->failed_path); the caller prints them as
 * git does.  Work queued before the failing path is flushed first: if
 * one of those jobs failed, that is the failure reported.  After a
 * failure the update is only good for update_release(); the index has
 * staged changes that must not be written.
 *
 * Notices git prints and carries on after ("Ignoring path <p>", the
 * --unresolve notes) go through diag_emit().
 */
#ifndef DIRC_UPDATE_H
#define DIRC_UPDATE_H

#include "hash.h"
#include "index.h"
#include "strbuf.h"
#include "strmap.h"

struct convert;
struct odb;
struct repo;

enum update_flags {
	UPDATE_ADD = 1 << 0,		/* a path not in the index is added */
	UPDATE_REMOVE = 1 << 1,		/* a path gone from disk is removed */
	UPDATE_REPLACE = 1 << 2,	/* a file may replace a directory of
					 * entries, and the other way round */
	UPDATE_FORCE_REMOVE = 1 << 3,	/* paths are removed, on disk or not */
	UPDATE_INFO_ONLY = 1 << 4,	/* hash, do not store objects */
	UPDATE_IGNORE_SKIP_WORKTREE = 1 << 5,	/* --remove leaves
						 * skip-worktree entries */
};

/* What a path's mark option does to its entry's bit. */
enum update_mark {
	UPDATE_MARK_NONE,
	UPDATE_MARK_SET,
	UPDATE_MARK_CLEAR,
};

/* What --verbose reports, in order. */
enum update_action {
	UPDATE_ACT_ADD,		/* "add '<p>'" (git says it of removals
				 * by --remove too) */
	UPDATE_ACT_REMOVE,	/* "remove '<p>'" (--force-remove) */
	UPDATE_ACT_CHMOD,	/* "chmod (+|-)x '<p>'" */
};

/* How git reports a failure (the message is this thread's error). */
enum update_failure {
	UPDATE_FAILED_PATH,	/* "error: <msg>", "fatal: Unable to process
				 * path <p>" */
	UPDATE_FAILED_STORE,	/* the object could not be stored: "error:
				 * <msg>", "error: <p>: failed to insert into
				 * database", then as UPDATE_FAILED_PATH */
	UPDATE_FAILED_ADD,	/* the entry could not go in (a file/directory
				 * conflict): "error: <msg>", "error: <p>:
				 * cannot add to the index - missing --add
				 * option?", then as UPDATE_FAILED_PATH */
	UPDATE_FAILED_ENTRY,	/* the message is the whole (fatal) story:
				 * no such entry to mark or chmod */
};

struct update_job;

struct update {
	/* set by update_init(); borrowed */
	struct repo *repo;
	struct index *idx;
	struct odb *odb;

	/* the options in force; the caller changes them between paths */
	unsigned flags;			/* enum update_flags */
	enum update_mark mark_valid;	/* assume-unchanged */
	enum update_mark mark_skip;	/* skip-worktree */
	int chmod;			/* '+', '-' or 0 */
	int threads;			/* 0: automatic */

	/* --verbose: called in order; may be NULL */
	void (*report)(void *ctx, enum update_action what, int chmod,
		       const char *path);
	void *report_ctx;
	/* progress over the hashing: begin (total jobs), step (one done,
	 * from any thread; thread 0 is the caller's), end; may be NULL */
	void (*progress)(void *ctx, int event, uint64_t n, int thread);
	void *progress_ctx;

	/* after a failure */
	enum update_failure failure;
	struct strbuf failed_path;

	/* private */
	struct strmap staged;		/* name -> latest staged stage-0
					 * entry (or removal) */
	struct strmap staged_dirs;	/* leading directories of those */
	struct update_job *jobs;	/* owned */
	size_t jobs_nr, jobs_alloc;
	struct dir_cache dirs;		/* leading-path checks, in order */
	int staged_removal;		/* a removal is staged: entries may
					 * go at the next apply */
	struct convert *convert;	/* owned: files are cleaned as git
					 * cleans them (convert.h) */
	struct object_id head, merge_head;	/* for --unresolve */
	int has_head;
};

enum update_progress_event {
	UPDATE_PROGRESS_BEGIN,
	UPDATE_PROGRESS_STEP,		/* n: the bytes of the file */
	UPDATE_PROGRESS_END,
};

void update_init(struct update *u, struct repo *repo, struct index *idx,
		 struct odb *odb);
void update_release(struct update *u);

/*
 * Register the work-tree path (relative to the top of the work tree,
 * normalised) under the options in force.  0 or a negative E_*; an
 * invalid path is not a failure ("Ignoring path <p>").
 */
int update_path(struct update *u, const char *path);

/*
 * An entry given by mode, id and stage (--cacheinfo, --index-info): no
 * look at the work tree.  Mode 0 removes every stage of path (the
 * --index-info way).  0 or a negative E_* (u->failure is
 * UPDATE_FAILED_PATH or UPDATE_FAILED_ADD).  With report set, "add" is
 * reported at once.
 */
int update_cacheinfo(struct update *u, unsigned mode,
		     const struct object_id *oid, const char *path,
		     int stage);

/* Run and report every queued job.  0 or the first failure. */
int update_flush(struct update *u);

/*
 * Flush, then merge the staged changes into the index.  0 or a negative
 * E_*: a failed job, or a file/directory conflict (UPDATE_FAILED_ADD).
 */
int update_apply(struct update *u);

struct pathspec;

/*
 * --again: update_path() for every stage-0 entry matched by ps (see
 * pathspec.h; an empty one matches every entry) whose mode or id differs
 * from HEAD's (all of them without a HEAD).  0 or the first failure.
 */
int update_again(struct update *u, const struct pathspec *ps);

/*
 * --unresolve: read HEAD and MERGE_HEAD.  0 when both are there; 1 when
 * there is no MERGE_HEAD (not in a merge: nothing to do); -E_NOTFOUND
 * without a HEAD ("No HEAD -- no initial commit yet?").
 */
int update_unresolve_begin(struct update *u);
/*
 * Bring back the conflict stages of path from the resolve-undo records,
 * else stage 2 from HEAD and stage 3 from MERGE_HEAD.  0, or -1 after
 * saying why through diag_emit (not in one of the branches, not a blob
 * there); a path still unmerged, or the same in both, is skipped with a
 * note and is no failure.  Applies what was staged first.
 */
int update_unresolve(struct update *u, const char *path);

#endif
