/*
 * checkout: write index entries into the work tree — regular files with
 * their mode (umask applied), executables, symlinks (or a file holding
 * the target when core.symlinks=false), gitlinks as empty directories —
 * creating leading directories; and remove files that left the index.
 */
#ifndef DIRC_CHECKOUT_H
#define DIRC_CHECKOUT_H

#include <sys/stat.h>

#include "strbuf.h"

struct index;
struct index_entry;
struct odb;
struct repo;

struct checkout {
	struct repo *repo;
	struct index *idx;	/* for stat comparison (racy rules) */
	struct odb *odb;
	const char *base;	/* prepended to every path ("" or a prefix) */
	int force;		/* replace what is in the way */
	int not_new;		/* only refresh files that already exist */
	int quiet;		/* no "already exists" messages */
	int refresh;		/* record the new file's stat data in the entry */
	struct strbuf path;	/* scratch */
};

void checkout_init(struct checkout *co, struct repo *repo, struct index *idx,
		   struct odb *odb);
void checkout_release(struct checkout *co);

/*
 * Write e to base + e->name.  A file already there whose stat data
 * matches e is left alone (0).  One that differs is refused unless
 * force ("<path> already exists, no checkout": -E_EXISTS, printed
 * through diag_emit unless quiet), else removed (a directory
 * recursively) and replaced.  With refresh, e gets the new stat data.
 * 0, or a negative E_* (the message set).
 */
int checkout_entry(struct checkout *co, struct index_entry *e);

/*
 * Remove the work-tree file of e (and directories left empty).  0 or a
 * negative E_*.
 */
int checkout_remove(struct checkout *co, const struct index_entry *e);

#endif
