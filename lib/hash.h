/*
 * hash: object ids and SHA-1.  SHA-1 comes from libcrypto's SHA1_*
 * functions (hardware SHA extensions where the CPU has them).  Each
 * thread reuses one digest context (hasher_thread()); nothing allocates a
 * context per object.
 */
#ifndef DIRC_HASH_H
#define DIRC_HASH_H

#include "util.h"

#define HASH_RAWSZ 20
#define HASH_HEXSZ 40

struct object_id {
	unsigned char hash[HASH_RAWSZ];
};

extern const struct object_id null_oid;
extern const struct object_id empty_tree_oid;	/* 4b825dc6… */
extern const struct object_id empty_blob_oid;	/* e69de29b… */

static inline int
oidcmp(const struct object_id *a, const struct object_id *b)
{
	return memcmp(a->hash, b->hash, HASH_RAWSZ);
}

static inline int
oideq(const struct object_id *a, const struct object_id *b)
{
	return !memcmp(a->hash, b->hash, HASH_RAWSZ);
}

static inline int
oid_is_null(const struct object_id *oid)
{
	return oideq(oid, &null_oid);
}

static inline void
oidcpy(struct object_id *dst, const struct object_id *src)
{
	memcpy(dst->hash, src->hash, HASH_RAWSZ);
}

/* Write 40 lowercase hex digits and a NUL into out; returns out. */
char *oid_to_hex_r(char *out, const struct object_id *oid);
/* The same into one of a few rotating thread-local buffers, for messages. */
const char *oid_to_hex(const struct object_id *oid);

/* Parse exactly 40 hex digits (either case).  0, or -1 if not hex. */
int hex_to_oid(struct object_id *out, const char *hex);
/*
 * The id of a loose object file: fan-out directory number (0..255) and
 * the 38 hex digits of its file name.  0, or -1 if name is not that.
 */
int loose_name_to_oid(struct object_id *out, int fanout, const char *name);

/* Value of a hex digit, or -1. */
int hexval(int c);

/*
 * A SHA-1 digest context.  Not thread-safe: one per thread.
 */
struct hasher {
	void *ctx;	/* SHA_CTX; owned */
};

/* Allocate the context (once).  Dies on allocation failure. */
void hasher_init(struct hasher *h);
void hasher_release(struct hasher *h);
void hasher_begin(struct hasher *h);
void hasher_update(struct hasher *h, const void *data, size_t len);
void hasher_final(struct hasher *h, unsigned char out[HASH_RAWSZ]);

/*
 * This thread's context, created on first use and released when the
 * thread exits (for the main thread: at exit).
 */
struct hasher *hasher_thread(void);

/* SHA-1 of one buffer with this thread's context. */
void hash_buffer(unsigned char out[HASH_RAWSZ], const void *data, size_t len);

#endif
