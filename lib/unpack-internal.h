/*
 * unpack-internal: what unpack.c (plain reads, binds, the one-way
 * merge) shares with unpack-merge.c (the two- and three-way merges).
 * Not for other modules: they call unpack_trees().
 */
#ifndef DIRC_UNPACK_INTERNAL_H
#define DIRC_UNPACK_INTERNAL_H

#include <stddef.h>

#include "hash.h"
#include "util.h"

struct index;
struct index_entry;
struct odb;
struct repo;
struct sparse;
struct strbuf;
struct tree_entry;
struct unpack_opts;

/* A work-tree change of the update phase. */
struct change {
	struct index_entry *e;
	int update;	/* write it to the work tree */
	int remove;	/* remove its file */
};

/*
 * Is the untracked name[0..len) one that o->ignored lets -u overwrite?
 * is_dir: the type git gives it (the new entry's, or what is on disk
 * for a leading directory).
 */
int unpack_ignored(const struct unpack_opts *o, const char *name,
		   size_t len, int is_dir);

/*
 * A per-path error as git prints it ("error: ..."), unless -q.  Every
 * quoted item ('...') of fmt is a path: o->super_prefix goes in front
 * of each.
 */
PRINTF_LIKE(2, 3) void unpack_report(const struct unpack_opts *o,
				     const char *fmt, ...);

/*
 * Check tree entry te of tree oid (prev: the entry before it, or NULL)
 * as read-tree checks every entry: a mode git writes, sorted, no name
 * twice, a path (path: its full name) that may enter the index.  0, or
 * -E_CORRUPT naming the tree, or -E_CONFLICT "read-tree failed" after
 * "invalid path '<p>'" went out.
 */
int unpack_check_entry(const struct object_id *oid,
		       const struct tree_entry *te,
		       const struct tree_entry *prev, const char *path,
		       unsigned protect);

/*
 * Does the work tree still match old, so that replacing or removing it
 * loses nothing (git's verify_uptodate; -i and --reset say yes)?
 */
int unpack_uptodate(struct repo *repo, struct index *idx,
		    struct index_entry *old, const struct unpack_opts *o);

/*
 * Does every file under dir (a path, no slash) belong to idx, but those
 * o->ignored_in_dir excludes (an excluded directory is not entered)?
 */
int unpack_all_tracked(const struct index *idx, struct strbuf *dir,
		       const struct unpack_opts *o);

/*
 * Apply ch[0..nch) to the work tree: removals, then the writes (on the
 * worker pool), refreshing the written entries' stat data.  0 or the
 * first failure's E_*.
 */
int unpack_update_worktree(struct index *idx, struct repo *repo,
			   struct odb *odb, const struct change *ch,
			   size_t nch, const struct unpack_opts *o);

/*
 * The cache-tree git builds for idx from scratch (SILENT | REPAIR): a
 * node is valid where its tree object is stored.  keep_valid: idx's
 * cache-tree is kept and its valid nodes taken as they are (the caller
 * invalidated every node whose directory changed, so git's build would
 * find the same, stored trees there); else it is built anew.
 */
void unpack_repair_cache_tree(struct index *idx, struct odb *odb,
			      int threads, int keep_valid);

/*
 * Sparse checkout, before a merge (git's first marking pass): each
 * entry of entries[0..nr) at stage 0 that the patterns leave out gets
 * CE_NEW_SKIP_WORKTREE, every other loses it; CE_ADDED is cleared.
 * Merges carry the mark to an entry that replaces one (with its
 * skip-worktree bit) and set CE_ADDED on an entry new to the index, whose
 * check for untracked files in its way they leave to
 * unpack_sparse_apply().
 */
void unpack_sparse_mark(struct sparse *sp, struct index_entry **entries,
			size_t nr);

/*
 * Sparse checkout, after a merge of idx (still the old index) into
 * res[0..nres) with the work-tree changes (*ch)[0..*nch) (*ch_alloc
 * allocated): each new entry is marked from the patterns, each entry's
 * skip-worktree bit becomes its mark, and the changes follow: no write
 * for an entry out of the checkout, no removal of a file that was out
 * already, a removal for an entry leaving the checkout, a write for one
 * entering it.  git's warnings (not errors) go out unless o->quiet:
 * local changes keep an entry in the checkout, a file in the way keeps
 * an entry from being written.  *ch may move.
 */
void unpack_sparse_apply(struct index *idx, struct repo *repo,
			 const struct unpack_opts *o, struct index_entry **res,
			 size_t nres, struct change **ch, size_t *nch,
			 size_t *ch_alloc);

/*
 * The two- and three-way merges (unpack-merge.c): trees[0..nr), nr >= 2,
 * into idx, as unpack_trees() describes.
 */
int unpack_merge(struct index *idx, struct repo *repo, struct odb *odb,
		 const struct object_id *trees, size_t nr,
		 const struct unpack_opts *o);

#endif
