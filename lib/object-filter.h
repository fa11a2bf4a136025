/*
 * object-filter: git's object filter specs (--filter=<spec>, as
 * rev-list, pack-objects and cat-file take them), parsed with git's
 * rules and messages:
 *
 *   blob:none                  no blobs
 *   blob:limit=<n>[kmg]        no blobs of n bytes or more
 *   tree:<depth>               no trees or blobs that deep
 *   sparse:oid=<blob-ish>      only what the sparse patterns in the blob
 *                              select
 *   object:type=<type>         only objects of that type
 *   combine:<spec>+<spec>...   all of them (each %-encoded)
 *
 * Several --filter options combine too; --no-filter clears.  Only the
 * kind and the values cat-file applies are kept; the other kinds are
 * checked and named, for the command to refuse.
 */
#ifndef DIRC_OBJECT_FILTER_H
#define DIRC_OBJECT_FILTER_H

#include <stdint.h>

#include "object.h"

enum object_filter_choice {
	OBJECT_FILTER_NONE,
	OBJECT_FILTER_BLOB_NONE,
	OBJECT_FILTER_BLOB_LIMIT,
	OBJECT_FILTER_TREE_DEPTH,
	OBJECT_FILTER_SPARSE_OID,
	OBJECT_FILTER_OBJECT_TYPE,
	OBJECT_FILTER_COMBINE,
};

struct object_filter {
	enum object_filter_choice choice;
	uintmax_t blob_limit;		/* OBJECT_FILTER_BLOB_LIMIT */
	enum object_type type;		/* OBJECT_FILTER_OBJECT_TYPE */
};
#define OBJECT_FILTER_INIT { OBJECT_FILTER_NONE, 0, OBJ_NONE }

/*
 * Add spec (one --filter=<spec>) to f: the first sets it, a later one
 * makes it a combination.  0, or -E_INVALID with git's message ("invalid
 * filter-spec '<spec>'", "expected 'tree:<depth>'", ...); f is then
 * unchanged.  spec may be of any bytes.
 */
int object_filter_add(struct object_filter *f, const char *spec);

/* The name git gives a kind in messages: "blob:none", "tree", ... */
const char *object_filter_name(enum object_filter_choice choice);

#endif
