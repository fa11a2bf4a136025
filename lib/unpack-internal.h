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

/* A per-path error as git prints it ("error: ..."), unless -q. */
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

/* Does every file under dir (a path, no slash) belong to idx? */
int unpack_all_tracked(const struct index *idx, struct strbuf *dir);

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
 * The two- and three-way merges (unpack-merge.c): trees[0..nr), nr >= 2,
 * into idx, as unpack_trees() describes.
 */
int unpack_merge(struct index *idx, struct repo *repo, struct odb *odb,
		 const struct object_id *trees, size_t nr,
		 const struct unpack_opts *o);

#endif
