/*
 * checkout: write index entries into the work tree — regular files with
 * their mode (umask applied), executables, symlinks (or a file holding
 * the target when core.symlinks=false), gitlinks as empty directories —
 * creating leading directories; and remove files that left the index.
 */
#ifndef DIRC_CHECKOUT_H
#define DIRC_CHECKOUT_H

#include <sys/stat.h>

#include "error.h"
#include "strbuf.h"

struct index;
struct index_entry;
struct odb;
struct repo;

/* Hooks for a progress meter: set by the caller, called from thread 0. */
struct checkout_progress {
	void (*add)(void *ctx, uint64_t n);
	void *ctx;
};

struct checkout {
	struct repo *repo;
	struct index *idx;	/* for stat comparison (racy rules) */
	struct odb *odb;
	const char *base;	/* prepended to every path ("" or a prefix) */
	int force;		/* replace what is in the way */
	int not_new;		/* only refresh files that already exist */
	int quiet;		/* no "already exists" messages */
	int refresh;		/* record the new file's stat data in the entry */
	struct checkout_progress progress;	/* optional */
	int refreshed;		/* some entry got new stat data */
	struct strbuf path;	/* scratch */
};

void checkout_init(struct checkout *co, struct repo *repo, struct index *idx,
		   struct odb *odb);
void checkout_release(struct checkout *co);

/*
 * Write e to base + e->name.  A file already there whose stat data
 * matches e is left alone (0).  One that differs is refused unless
 * force (-E_EXISTS, message "<path> already exists, no checkout"),
 * else removed (a directory recursively) and replaced.  With refresh, e
 * gets the new stat data.  0, or a negative E_* (the message set);
 * -E_CONFLICT when a file is in the way of a directory (fatal for git).
 * Prints nothing.
 */
int checkout_entry(struct checkout *co, struct index_entry *e);

/* The outcome of one entry of checkout_many(). */
struct checkout_report {
	int ret;			/* 0 or a negative E_* */
	struct error_saved err;		/* its message */
};

/*
 * Check out entries[0..nr) on up to threads threads (0: automatic), the
 * objects read and files written in parallel; rep[i] says how entry i
 * went, for the caller to report in order.  Returns the number of
 * failures.  co->idx is marked changed if refresh updated anything.
 */
size_t checkout_many(struct checkout *co, struct index_entry **entries,
		     size_t nr, int threads, struct checkout_report *rep,
		     const char *progress_title);


/*
 * Remove the work-tree file of e (and directories left empty).  0 or a
 * negative E_*.
 */
int checkout_remove(struct checkout *co, const struct index_entry *e);

#endif
