/*
 * tree-walk: visit the entries of a tree object, and of the trees below
 * it that the caller asks for, in stored order, depth first, limited by
 * a pathspec read as ls-tree reads one (git 2.39's read_tree() with
 * every item matched literally, no wildcards):
 *
 *   - an entry is visited when it is an item ("a/b"), lies under one
 *     (an item "a" or "a/" covers "a/b"; the empty item covers
 *     everything), or is a directory on the way to one ("a" for the
 *     item "a/b/c");
 *   - an item with a trailing slash ("d/") names only a directory d, or
 *     a gitlink d when nothing follows the slash;
 *   - without items everything is visited.
 *
 * Trees are decoded as git decodes them: a tree whose last entry is cut
 * short is refused before any of its entries is visited, and an entry
 * is visited only once the one after it has been decoded (so the entry
 * before a malformed one is not visited either).
 */
#ifndef DIRC_TREE_WALK_H
#define DIRC_TREE_WALK_H

#include "hash.h"

struct odb;
struct pathspec;

struct tree_walk_entry {
	const char *path;	/* from the top of the walk, NUL-terminated;
				 * valid during the callback only */
	size_t len;
	size_t base;		/* leading bytes of path naming the
				 * directory it is in ("a/b/"), 0 at the top */
	unsigned mode;		/* canonical, see tree_canon_mode() */
	const struct object_id *oid;	/* valid during the callback only */
};

/* A callback's answer to go down into the directory it was shown. */
#define TREE_WALK_RECURSE 1

/*
 * Called for each entry visited: 0 to go on, TREE_WALK_RECURSE (for a
 * directory) to walk its tree next, before the entries after it, or a
 * negative E_* to stop the walk, which then returns it.
 */
typedef int (*tree_walk_fn)(const struct tree_walk_entry *e, void *ctx);

/*
 * Walk the tree oid.  ps may be NULL (everything); its items' match
 * strings are taken literally, from the top of the walk.  Returns 0, a
 * callback's negative return, or the first failure to read a tree:
 *   -E_NOTFOUND  "Could not read <id>" (a tree that is not stored)
 *   -E_INVALID   "Object <id> not a tree" (a directory entry naming
 *                another kind of object)
 *   -E_CORRUPT   "too-short tree object", "malformed mode in tree
 *                entry", "empty filename in tree entry", or the object
 *                store's message for an object that does not inflate
 * git reports the first two as errors (exit 1) and dies on the third.
 */
int tree_walk(struct odb *odb, const struct object_id *oid,
	      const struct pathspec *ps, tree_walk_fn fn, void *ctx);

/*
 * Does an item of ps name something below the directory path (len
 * bytes, no trailing slash): does it start with "<path>/"?  ls-tree
 * walks into such a directory even without -r.
 */
int tree_walk_item_below(const struct pathspec *ps, const char *path,
			 size_t len);

#endif
