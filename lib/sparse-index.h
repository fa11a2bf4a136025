/*
 * sparse-index: git's sparse index (index.sparse with a cone-mode sparse
 * checkout).  A directory that lies entirely outside the cone and whose
 * entries are all clean (skip-worktree, stage 0, no gitlink) is stored
 * as one "sparse-directory entry": mode 040000, its path with a trailing
 * '/', skip-worktree set, the id of its tree, zero stat data; the index
 * then carries the empty "sdir" extension.
 *
 * dirc's commands never see such entries (but ls-files --sparse, which
 * prints them): after reading, sparse_index_after_read() replaces each
 * by the files of its tree.  What git would have done with the index in
 * memory is remembered, so that the next write gives git's bytes:
 *
 *   - a command git runs on the sparse index itself (update-index,
 *     checkout-index) keeps it collapsed until a path inside a sparse
 *     directory is looked up (index_pos() reports it here), when git
 *     expands the whole index.  Still collapsed at the write, the same
 *     directories go out again, with the cache-tree (TREE) as read, less
 *     what the command invalidated;
 *   - otherwise the index was expanded, its cache-tree rebuilt, and a
 *     write in a sparse-index repository collapses it again from scratch
 *     (the cache-tree is computed, storing the trees not yet stored, and
 *     every directory outside the cone that can be collapsed is), or
 *     writes it full where index.sparse is off.
 */
#ifndef DIRC_SPARSE_INDEX_H
#define DIRC_SPARSE_INDEX_H

#include <stddef.h>

struct index;
struct index_entry;
struct repo;
struct sparse_index;

enum sparse_index_mode {
	/* every entry is needed (git's ensure_full_index()) */
	SPARSE_INDEX_FULL = 1 << 0,
	/* with FULL: the command writes the index; rebuild the cache-tree */
	SPARSE_INDEX_TREE = 1 << 1,
	/* git runs this command on the sparse index (update-index ...) */
	SPARSE_INDEX_AWARE = 1 << 2,
	/* keep sparse-directory entries as they are (ls-files --sparse) */
	SPARSE_INDEX_KEEP = 1 << 3,
	/* leave skip-worktree bits alone (no sparse_clear_present()) */
	SPARSE_INDEX_NO_PRESENT = 1 << 4,
	/* with FULL: read-tree -m; remember what sparse_index_after_merge
	 * needs */
	SPARSE_INDEX_MERGE = 1 << 5,
};

/*
 * After index_read() of idx in repo: expand sparse-directory entries as
 * mode asks, remember what git would hold in memory, then clear the
 * skip-worktree bits of entries present in the work tree as
 * sparse_clear_present() does (a sparse directory present there expands
 * the index first, as in git).  0, or a negative E_* with its message:
 * -E_NOTFOUND/-E_INVALID/-E_CORRUPT for a directory's tree that cannot be
 * read ("unable to expand sparse directory '<d>'").
 */
int sparse_index_after_read(struct index *idx, struct repo *repo,
			    unsigned mode);

/*
 * After read-tree -m without -u (idx read with SPARSE_INDEX_MERGE): git
 * merges a directory outside the cone as one entry when the index held
 * it collapsed (or did not hold it), so what the merge put there stays
 * collapsed: the entries of each such directory, when all merged, get
 * the skip-worktree bit (dirc merged them file by file).
 */
void sparse_index_after_merge(struct index *idx);

/*
 * dst replaces src (read-tree without -m, --empty): git keeps the
 * sparse-index state of the index it read, so dst is written with an
 * sdir extension where src was sparse, its entries as they are.
 */
void sparse_index_keep_state(struct index *dst, struct index *src);

/*
 * Is name (len bytes, "c/") a sparse directory git still holds collapsed
 * in idx (so an entry of that name exists in git's view)?
 */
int sparse_index_names_dir(const struct index *idx, const char *name,
			   size_t len);


/*
 * Is e a sparse-directory entry (mode 040000)?  Only an index kept
 * collapsed (SPARSE_INDEX_KEEP) or not yet prepared holds any.
 */
int sparse_index_is_dir(const struct index_entry *e);

/*
 * What the index module itself calls (index_pos(), index_write(),
 * index_release()) is declared in index-internal.h.
 */

#endif
