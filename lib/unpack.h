/*
 * unpack: reading trees into the index — the forms of read-tree: replace
 * the index with one tree or an overlay of several, bind a tree under a
 * prefix, the one-way merge (-m, --reset) that keeps the stat data of
 * unchanged entries, the two-way merge (fast-forward from H to M,
 * carrying local changes) and the three-way merge (stages 1-3, trivial
 * cases collapsed to stage 0) — each with -u bringing the work tree
 * along.
 */
#ifndef DIRC_UNPACK_H
#define DIRC_UNPACK_H

#include <stddef.h>
#include <stdint.h>

#include "checkout.h"
#include "hash.h"

struct excludes;
struct index;
struct odb;
struct repo;
struct sparse;

/* git's limit on the trees one read-tree reads (MAX_UNPACK_TREES). */
#define UNPACK_MAX_TREES 8

struct unpack_opts {
	int merge;		/* -m: one-way merge against the index */
	int reset;		/* --reset: like -m, discarding local changes
				 * and unmerged entries (sets merge too) */
	int update;		/* -u: update the work tree */
	int index_only;		/* -i: do not look at the work tree */
	int dry_run;		/* -n: check as -u would, change no file */
	int quiet;		/* -q: no per-path error messages */
	/*
	 * --super-prefix: put before every path in the error messages
	 * (the path of this repository in its superproject), or NULL
	 */
	const char *super_prefix;
	const char *prefix;	/* --prefix: "dir/" or "" to bind under, or
				 * NULL */
	int aggressive;		/* --aggressive: a three-way merge also
				 * resolves removals and identical adds */
	int trivial;		/* --trivial: a three-way merge that needs
				 * file-level merging fails */
	struct sparse *sparse;	/* a merge with -u in a sparse checkout:
				 * the patterns (sparse_load()); NULL:
				 * skip-worktree bits are carried as they
				 * are (git without core.sparseCheckout) */
	/*
	 * With -u (not --reset): untracked paths these rules exclude may
	 * be overwritten or removed, as git 2.39's read-tree allows; NULL:
	 * none may.  Borrowed.
	 */
	struct excludes *ignored;
	/*
	 * With -u (not --reset): the untracked files these rules exclude
	 * do not keep a directory from turning into a file (they go with
	 * it).  git 2.39 reads such a directory with the per-directory
	 * .gitignore files only, neither info/exclude nor
	 * core.excludesFile; NULL: every untracked file keeps it.
	 * Borrowed.
	 */
	struct excludes *ignored_in_dir;
	/*
	 * Optional, for a progress meter over the work-tree changes (-u):
	 * total is called once with their number before the first, then
	 * progress.add per change (from one thread).
	 */
	void (*progress_total)(void *ctx, uint64_t total);
	struct checkout_progress progress;
};

/*
 * Read trees[0..nr) into idx.
 *
 * Plain (no merge, reset or prefix): idx becomes the trees' entries at
 * stage 0, without stat data; where several trees hold a path the last
 * one's entry wins, and a directory in one tree wins over a file of the
 * same name in another (git's overlay).  idx should be a new index (git
 * does not read the old one here); what it held is dropped.  One tree
 * primes a fully valid cache-tree; several get the cache-tree git's
 * repair leaves.
 *
 * Merge or reset (one tree): the one-way merge.  Prefix (one tree): the
 * tree's entries are added under the prefix; the cache-tree is repaired
 * as git repairs it.  Callers refuse more trees for a bind.  A merge
 * without reset and a bind refuse an index with unmerged entries
 * (-E_CONFLICT, "You need to resolve your current index first").
 *
 * Merge or reset with two trees (H, M): git's "Two Tree Merge" table;
 * with three or more (bases..., head, remote): git's three-way merge
 * (trivial-merge rules), the bases in stage 1, head in 2, remote in 3
 * where the path does not collapse to stage 0.  --reset turns each
 * unmerged path of the index into one conflicted entry first, as git
 * does.  Trees are walked together with the index in one pass; a
 * directory that every tree has with the same id, and that the index's
 * cache-tree holds valid with that id, is taken from the index whole
 * (its trees are not read).  The cache-tree afterwards is git's: none
 * when entries are left unmerged, else rebuilt from what is stored.
 * "Entry '<p>' would be overwritten by merge. Cannot merge." joins the
 * per-path errors below; --trivial's "Merge requires file-level
 * merging" ends the same way.  A tree missing below the top is
 * -E_NOTFOUND ("unable to read tree <id>").
 *
 * Errors that git reports per path ("Entry '<p>' not uptodate. Cannot
 * merge.", "Untracked working tree file '<p>' would be overwritten by
 * merge.", "Entry '<p>' overlaps with '<p>'.  Cannot bind.") are printed
 * through diag_emit unless quiet; then -E_CONFLICT ("read-tree failed")
 * and neither idx nor the work tree has changed: every check runs
 * before the first change.  On success the work tree is updated (with
 * update and not dry_run); an I/O error there returns its E_* with idx
 * already changed (not to be written).  A corrupt tree is -E_CORRUPT, a
 * missing one -E_NOTFOUND.
 *
 * Sparse checkout (opts->sparse, merges only): every entry of the new
 * index gets the skip-worktree bit the patterns give it (an unmerged
 * entry never has it), as git's read-tree -m -u does.  An entry that
 * leaves the checkout has its file removed, one that enters it is
 * written; a new entry outside it is not written and no untracked file
 * in its way is a conflict.  What git only warns about — an entry that
 * would leave the checkout while its file has local changes (it stays
 * in), an entry entering it where a file is already in the way (that
 * file is kept) — is reported through diag_emit ("Path '<p>' not
 * uptodate; will not remove from working tree.", "Path '<p>' already
 * present; will not overwrite with sparse update.") and is not an error.
 */
int unpack_trees(struct index *idx, struct repo *repo, struct odb *odb,
		 const struct object_id *trees, size_t nr,
		 const struct unpack_opts *opts);

#endif
