/*
 * object-name: turn what a script passes to git's plumbing into an
 * object id: full or abbreviated hex (at least 4 digits), HEAD and "@",
 * ref names as git expands them (name, refs/name, refs/tags/name,
 * refs/heads/name, refs/remotes/name, refs/remotes/name/HEAD), the
 * suffixes ^{type}, ^{}, ^N and ~N, "<rev>:<path>", and ":[N:]<path>"
 * (an index entry).
 */
#ifndef DIRC_OBJECT_NAME_H
#define DIRC_OBJECT_NAME_H

#include "hash.h"
#include "odb.h"

struct repo;

/*
 * Resolve name.  0, -E_NOTFOUND ("Not a valid object name <name>"),
 * -E_AMBIGUOUS ("short object ID <x> is ambiguous"), or -E_INVALID for a
 * path that does not resolve ("path 'x' does not exist in 'HEAD'", with
 * git's hints), which git treats as fatal.  Paths starting with ./ or
 * ../ are relative to the repository's prefix.
 */
int get_oid(struct object_id *out, struct repo *repo, const char *name);

/*
 * Resolve a hex prefix of len digits (4..40) against the object store.
 * 0, -E_NOTFOUND or -E_AMBIGUOUS.
 */
int get_oid_prefix(struct object_id *out, struct repo *repo,
		   const char *hex, size_t len);

/*
 * Peel oid to an object of type want: tags to what they point at,
 * commits to their trees (for OBJ_TREE).  OBJ_NONE peels tags only.
 * 0, or -E_INVALID ("<id> is not a valid '<type>' object").
 */
int peel_to_type(struct object_id *out, struct repo *repo,
		 const struct object_id *oid, enum object_type want);

/*
 * The ref name resolves to under git's rules (full name of the first
 * match into out, its value into oid): how many rules matched (0: none;
 * more than 1: ambiguous).
 */
int dwim_ref(struct strbuf *out, struct object_id *oid, struct repo *repo,
	     const char *name, size_t len);

#endif
