/*
 * cache-tree: the TREE extension — for each directory of the index, the
 * id of the tree object it makes and how many entries it covers, or -1
 * when a change since made it invalid.  write-tree rebuilds only invalid
 * nodes; every change of an entry's path, mode or id invalidates the
 * nodes along that path (and only those), so a valid node's id is always
 * the tree git would write.
 *
 * Encoding, one record per node, depth-first (root first, name ""):
 *   <name> NUL <entry_count> SP <subtree_count> LF [<20-byte id>]
 * the id present only when entry_count >= 0; children ordered by name
 * length, then bytes.
 */
#ifndef DIRC_CACHE_TREE_H
#define DIRC_CACHE_TREE_H

#include "hash.h"

struct arena;
struct index;
struct strbuf;
struct odb;

struct cache_tree;

struct cache_tree_sub {
	struct cache_tree *tree;	/* owned */
	size_t count;			/* scratch for cache_tree_update */
	int used;			/* scratch for cache_tree_update */
	size_t namelen;
	char name[];			/* NUL-terminated */
};

/*
 * A tree's nodes, their children's records and arrays all come from one
 * arena owned by the root (a linux-sized tree has about 5,000 nodes:
 * no malloc and no free() walk for each).  Dropping a subtree leaves its
 * memory to the arena until the root is freed.
 */
struct cache_tree {
	int entry_count;		/* -1: invalid */
	int is_root;			/* owns arena */
	size_t subtree_nr, subtree_alloc;
	struct object_id oid;		/* valid when entry_count >= 0 */
	struct cache_tree_sub **down;	/* (length, bytes) order */
	struct arena *arena;		/* the root's */
};

/* A new, empty, invalid root. */
struct cache_tree *cache_tree_new(void);
/* A new, empty, invalid node of the same tree as parent. */
struct cache_tree *cache_tree_new_node(struct cache_tree *parent);
/* Free a root and all its nodes; a node that is not a root: nothing. */
void cache_tree_free(struct cache_tree *tree);

/*
 * Parse a TREE extension.  Returns the tree, or NULL if the data is
 * malformed (git then drops the extension silently, and so do we).
 */
struct cache_tree *cache_tree_read(const void *buf, size_t len);

/*
 * The root of a TREE extension, alone (no children), when all of it is
 * well formed and valid, and each node's children come in their order
 * (as git writes them): cache_tree_read() would then give a fully valid
 * tree with this root.  NULL otherwise (then cache_tree_read() says).
 * For a reader that needs only the root's id: no node is built.
 */
struct cache_tree *cache_tree_read_root(const void *buf, size_t len);

/* Append the encoding of tree to out; its length is the extension's size. */
void cache_tree_encode(struct strbuf *out, const struct cache_tree *tree);

/*
 * Invalidate root and every node along path; if path names a subtree
 * itself, drop that subtree.
 */
void cache_tree_invalidate_path(struct cache_tree *tree, const char *path,
				size_t len);

/* Is every node valid? */
int cache_tree_fully_valid(const struct cache_tree *tree);

/* The child named name (len bytes), or NULL; create it if asked. */
struct cache_tree_sub *cache_tree_sub(struct cache_tree *tree,
				      const char *name, size_t len,
				      int create);

enum cache_tree_flags {
	CACHE_TREE_MISSING_OK = 1 << 0,	/* referenced objects may be absent */
	CACHE_TREE_DRY_RUN = 1 << 1,	/* compute ids, store nothing */
	CACHE_TREE_IGNORE_VALID = 1 << 2, /* rebuild every node */
	CACHE_TREE_REPAIR = 1 << 3,	/* store nothing; a node is valid only
					 * if its tree object is stored */
	CACHE_TREE_SILENT = 1 << 4,	/* no messages */
};

/*
 * Bring the index's cache-tree up to date: compute every invalid node
 * (storing the tree objects that are not already stored), leaving valid
 * ones alone.  0, or a negative E_* with git's messages printed through
 * diag_emit ("<path>: unmerged (<id>)", "invalid object <mode> <id> for
 * '<path>'", "You have both <a> and <a/b>") and the final error
 * "git-write-tree: error building trees".  Independent directories are
 * computed on threads (threads: 0 = automatic), deepest first.
 */
int cache_tree_update(struct index *idx, struct odb *odb, unsigned flags,
		      int threads);

/*
 * Prime a fully valid cache-tree for an index that holds exactly the
 * contents of tree root (read-tree): reads each tree object once.
 */
int cache_tree_prime(struct index *idx, struct odb *odb,
		     const struct object_id *root);

/* The node for directory prefix ("" for the root, "a/b" without slash). */
struct cache_tree *cache_tree_find(struct cache_tree *tree,
				   const char *prefix, size_t len);

#endif
