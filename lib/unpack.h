/*
 * unpack: reading a tree into the index — the forms of read-tree dirc
 * supports: replace the index with one tree, bind a tree under a prefix,
 * and the one-way merge (-m, --reset) that keeps the stat data of
 * unchanged entries and, with -u, brings the work tree along.
 */
#ifndef DIRC_UNPACK_H
#define DIRC_UNPACK_H

#include "hash.h"

struct index;
struct odb;
struct repo;

struct unpack_opts {
	int merge;		/* -m: one-way merge against the index */
	int reset;		/* --reset: like -m, discarding local changes */
	int update;		/* -u: update the work tree */
	int index_only;		/* -i: do not look at the work tree */
	const char *prefix;	/* --prefix: "dir/" to bind under, or NULL */
};

/*
 * Replace (or, with a prefix, extend) idx with the contents of tree.
 * Errors that git reports per path ("Entry '<p>' not uptodate. Cannot
 * merge.", "Untracked working tree file '<p>' would be overwritten by
 * merge.", "Entry '<p>' overlaps with '<p>'.  Cannot bind.") are printed
 * through diag_emit; then -E_CONFLICT and idx is unchanged.  On success
 * the work tree is updated (with update), and the cache-tree is primed
 * (a single tree) or repaired (a prefix).
 */
int unpack_tree(struct index *idx, struct repo *repo, struct odb *odb,
		const struct object_id *tree, const struct unpack_opts *opts);

#endif
