/*
 * hash: object ids and the hash algorithm of the repository, SHA-1 or
 * SHA-256.  A process works in one repository and so with one algorithm,
 * chosen once before anything is hashed (hash_algo_set(), which
 * repo_open() calls): SHA-1 unless the repository says otherwise.  Both
 * come from libcrypto's low-level functions (hardware SHA extensions
 * where the CPU has them).  Each thread reuses one digest context
 * (hasher_thread()); nothing allocates a context per object.
 *
 * HASH_RAWSZ and HASH_HEXSZ are the current algorithm's lengths (not
 * constants: arrays are sized with HASH_MAX_RAWSZ and HASH_MAX_HEXSZ).
 * An object_id holds HASH_MAX_RAWSZ bytes, of which the first HASH_RAWSZ
 * are the id; the rest is never compared.
 */
#ifndef DIRC_HASH_H
#define DIRC_HASH_H

#include "util.h"

#define HASH_MAX_RAWSZ 32
#define HASH_MAX_HEXSZ 64

struct object_id {
	unsigned char hash[HASH_MAX_RAWSZ];
};

enum hash_algo_id {
	HASH_ALGO_SHA1,
	HASH_ALGO_SHA256,
	HASH_ALGO_NR,
};

struct hash_algo {
	const char *name;		/* "sha1", "sha256" */
	enum hash_algo_id id;
	uint32_t format_id;		/* 'sha1' or 's256', big-endian */
	size_t rawsz, hexsz;
	struct object_id empty_tree;	/* the id of the empty tree */
	struct object_id empty_blob;	/* and of the empty blob */
};

extern const struct hash_algo hash_algos[HASH_ALGO_NR];
/* The algorithm of this process's repository; SHA-1 until set. */
extern const struct hash_algo *hash_algo;

/*
 * Use algorithm a from now on.  Before any id is made or read, from one
 * thread (repo_open() does it).
 */
void hash_algo_set(const struct hash_algo *a);
/* The algorithm named name ("sha1", "sha256"), or NULL. */
const struct hash_algo *hash_algo_by_name(const char *name);

#define HASH_RAWSZ ((int)hash_algo->rawsz)
#define HASH_HEXSZ ((int)hash_algo->hexsz)

extern const struct object_id null_oid;
#define empty_tree_oid (hash_algo->empty_tree)	/* 4b825dc6… in SHA-1 */
#define empty_blob_oid (hash_algo->empty_blob)	/* e69de29b… in SHA-1 */

/*
 * The helpers below test for SHA-1 and then use constant lengths: the
 * compiler inlines a constant-length memcmp()/memcpy(), where a
 * variable length is a call (a few percent of a SHA-1 index read).
 */
static inline int
oidcmp(const struct object_id *a, const struct object_id *b)
{
	if (HASH_RAWSZ == 20)
		return memcmp(a->hash, b->hash, 20);
	return memcmp(a->hash, b->hash, 32);
}

static inline int
oideq(const struct object_id *a, const struct object_id *b)
{
	if (HASH_RAWSZ == 20)
		return !memcmp(a->hash, b->hash, 20);
	return !memcmp(a->hash, b->hash, 32);
}

static inline int
oid_is_null(const struct object_id *oid)
{
	return oideq(oid, &null_oid);
}

/* An id from HASH_RAWSZ raw bytes (the rest of dst left as it was). */
static inline void
oid_from_raw(struct object_id *dst, const unsigned char *raw)
{
	if (HASH_RAWSZ == 20)
		memcpy(dst->hash, raw, 20);
	else
		memcpy(dst->hash, raw, 32);
}

/*
 * Copy an id.  Only HASH_RAWSZ bytes: src may point into raw data (a
 * tree entry's id is its bytes in the tree), where a copy of the whole
 * struct would read past the end; never assign *src.
 */
static inline void
oidcpy(struct object_id *dst, const struct object_id *src)
{
	oid_from_raw(dst, src->hash);
}

/* Write HASH_HEXSZ lowercase hex digits and a NUL into out; returns out. */
char *oid_to_hex_r(char *out, const struct object_id *oid);
/* The same into one of a few rotating thread-local buffers, for messages. */
const char *oid_to_hex(const struct object_id *oid);

/* Parse exactly HASH_HEXSZ hex digits (either case).  0, or -1 if not. */
int hex_to_oid(struct object_id *out, const char *hex);
/*
 * The id of a loose object file: fan-out directory number (0..255) and
 * the HASH_HEXSZ - 2 hex digits of its file name.  0, or -1 if name is
 * not that.
 */
int loose_name_to_oid(struct object_id *out, int fanout, const char *name);

/* Value of a hex digit, or -1. */
int hexval(int c);

/*
 * A digest context of the current algorithm (the one set when
 * hasher_begin() ran).  Not thread-safe: one per thread.
 */
struct hasher {
	void *ctx;	/* SHA_CTX or SHA256_CTX; owned */
	const struct hash_algo *algo;
};

/* Allocate the context (once).  Dies on allocation failure. */
void hasher_init(struct hasher *h);
void hasher_release(struct hasher *h);
void hasher_begin(struct hasher *h);
void hasher_update(struct hasher *h, const void *data, size_t len);
/* Write the HASH_RAWSZ bytes of the digest to out. */
void hasher_final(struct hasher *h, unsigned char *out);

/*
 * This thread's context, created on first use and released when the
 * thread exits (for the main thread: at exit).
 */
struct hasher *hasher_thread(void);

/* The digest of one buffer (HASH_RAWSZ bytes) with this thread's context. */
void hash_buffer(unsigned char *out, const void *data, size_t len);

#endif
