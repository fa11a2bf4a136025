/*
 * object: what every part of the object store shares — the object
 * types, the "<type> <size>\0" header, and how an id is computed.
 */
#ifndef DIRC_OBJECT_H
#define DIRC_OBJECT_H

#include "hash.h"

enum object_type {
	OBJ_BAD = -1,
	OBJ_NONE = 0,
	OBJ_COMMIT = 1,
	OBJ_TREE = 2,
	OBJ_BLOB = 3,
	OBJ_TAG = 4,
	OBJ_OFS_DELTA = 6,	/* pack-only types */
	OBJ_REF_DELTA = 7,
};

/* "commit", "tree", "blob", "tag", or NULL for others. */
const char *type_name(enum object_type type);
/* The type named by len bytes of s, or OBJ_BAD. */
enum object_type type_from_name(const char *s, size_t len);

#define ODB_HEADER_MAX 64	/* "<type> <size>\0" fits (git uses 32) */

/*
 * Format "<type> <size>\0" into buf, which must hold it (ODB_HEADER_MAX
 * bytes do for the four real types; a --literally type can be of any
 * length: use struct odb_hdr then).  Returns its length including the NUL.
 */
size_t odb_header(char *buf, size_t bufsize, const char *type, uint64_t size);

/*
 * A header for a type of any length: in the inline buffer when it fits,
 * else on the heap (hash-object --literally accepts a type of thousands
 * of bytes, as git does).
 */
struct odb_hdr {
	char *buf;			/* inline or owned */
	size_t len;			/* including the NUL */
	char inline_buf[ODB_HEADER_MAX];
};

/* Format "<type> <size>\0" into h. */
void odb_hdr_init(struct odb_hdr *h, const char *type, uint64_t size);
/* Free a heap header; h may be initialised again after. */
void odb_hdr_release(struct odb_hdr *h);

/* Id of len bytes of data as an object of the given type (no writing). */
void odb_hash(struct object_id *out, const char *type, const void *data,
	      size_t len);

/*
 * Parse "<type> <size>\0" at the start of hdr (len bytes).  Returns the
 * header length including the NUL, or -1 if malformed.  type_out gets
 * the type string (truncated to type_size).
 */
ssize_t odb_parse_header(const unsigned char *hdr, size_t len,
			 char *type_out, size_t type_size, uint64_t *size);

#endif
