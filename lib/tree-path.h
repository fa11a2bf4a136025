/*
 * tree-path: find a path in a tree the way "cat-file --follow-symlinks"
 * does.  Symbolic links met on the way, and at the end, are followed
 * inside the tree (relative to the directory holding them); ".." climbs
 * back up the directories walked through; a link that leaves the tree is
 * answered with the part of its target that lies outside.
 */
#ifndef DIRC_TREE_PATH_H
#define DIRC_TREE_PATH_H

#include "hash.h"
#include "strbuf.h"

struct odb;

#define TREE_PATH_MAX_LINKS 40	/* git's limit: the 41st link is a loop */

enum tree_path_result {
	TREE_PATH_FOUND,	/* *oid and *mode name what was reached */
	TREE_PATH_MISSING,	/* no such path, and no link was followed */
	TREE_PATH_DANGLING,	/* a followed link leads nowhere */
	TREE_PATH_NOTDIR,	/* a file (or a link to one) used as a dir */
	TREE_PATH_LOOP,		/* more than TREE_PATH_MAX_LINKS links */
	TREE_PATH_OUTSIDE,	/* a link leaves the tree: outside holds the
				 * absolute target, or the rest of the path
				 * from the first ".." above the top */
};

/*
 * Walk path from the tree (a tree object's id), following links.
 * Empty components are skipped; "." is an ordinary name (trees have
 * none); a trailing '/' after a file makes it TREE_PATH_NOTDIR; a
 * submodule entry is not entered (missing or dangling).  Returns a
 * tree_path_result (outside is replaced for TREE_PATH_OUTSIDE), or a
 * negative E_* if a tree or link on the way cannot be read (replaced
 * objects are read as their replacements).
 */
int tree_path_follow(struct object_id *oid, unsigned *mode,
		     struct strbuf *outside, struct odb *odb,
		     const struct object_id *tree, const char *path);

#endif
