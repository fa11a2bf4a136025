/*
 * object-name: turn what a script passes to git's plumbing into an
 * object id — full or abbreviated hex (at least 4 digits), and (with the
 * refs module) HEAD, ref names and peel suffixes.
 */
#ifndef DIRC_OBJECT_NAME_H
#define DIRC_OBJECT_NAME_H

#include "hash.h"

struct repo;

/*
 * Resolve name.  0, -E_NOTFOUND ("Not a valid object name <name>"),
 * -E_AMBIGUOUS ("short object ID <x> is ambiguous").
 */
int get_oid(struct object_id *out, struct repo *repo, const char *name);

/*
 * Resolve a hex prefix of len digits (4..40) against the object store.
 * 0, -E_NOTFOUND or -E_AMBIGUOUS.
 */
int get_oid_prefix(struct object_id *out, struct repo *repo,
		   const char *hex, size_t len);

#endif
