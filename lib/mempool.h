/*
 * mempool: fixed-size objects handed out from blocks of 1024, and an arena
 * for variable-length bytes (names).  Nothing is freed singly: the owner's
 * release discards everything at once.  With no per-object malloc header
 * and no free() walk, 2 million objects cost a few kilobytes of
 * bookkeeping.
 *
 * Under DIRC_SANITIZE (the Makefile defines it for SANITIZE builds) every
 * object and every arena allocation is a separate malloc, so AddressSanitizer
 * sees an overrun of any single one.
 *
 * Neither is thread-safe: give each thread its own pool and merge after the
 * join (mempool_merge / arena_merge move blocks without copying).
 */
#ifndef DIRC_MEMPOOL_H
#define DIRC_MEMPOOL_H

#include "util.h"

#define MEMPOOL_BLOCK_OBJS 1024
#define MEMPOOL_ALIGN 8	/* pointers and 64-bit integers; see mempool_init */
#define ARENA_BLOCK_SIZE (64 * 1024)

struct pool_block;	/* a chunk of memory, private to mempool.c */
struct pool_region;	/* a reserved mapping, private to mempool.c */

struct mempool {
	size_t objsize;			/* rounded up to MEMPOOL_ALIGN */
	size_t left;			/* objects left in the newest block */
	unsigned char *next;		/* next free object in that block */
	struct pool_block *blocks;	/* owned; newest first */
	size_t nr_blocks;
	size_t nr_objs;			/* objects handed out */
	struct pool_region *regions;	/* owned; see mempool_reserve */
	unsigned char *rnext;		/* where the next block is cut */
	size_t rleft;			/* bytes left there */
};

/*
 * Set up for objects of objsize bytes, each aligned to MEMPOOL_ALIGN
 * (enough for pointers and 64-bit integers; types that need more must
 * not come from a mempool).  Allocates nothing yet.
 */
void mempool_init(struct mempool *pool, size_t objsize);
/*
 * Room for n more objects: their blocks are cut from one anonymous
 * mapping, faulted in at once and, where the system has transparent huge
 * pages for the asking (madvise mode), backed by 2 MB pages instead of
 * 4 KB ones, so a fresh process filling 78,635 index entries takes a
 * handful of page faults instead of 1,700.  Only worth it for at least a
 * couple of megabytes; smaller requests (and sanitizer builds) do nothing.
 * The blocks are still MEMPOOL_BLOCK_OBJS objects each.  threads: as
 * huge_map()'s.
 */
void mempool_reserve(struct mempool *pool, size_t n, int threads);
/*
 * Fault in the whole pages of [p, p + len) for writing in one system
 * call (64 KB and more; less is left to faults): memory that is about to
 * be filled anyway, without a fault per page.
 */
void mem_populate(void *p, size_t len);
/*
 * An anonymous mapping of bytes (rounded up to whole pages, or to whole
 * huge pages where that adds at most a quarter: *len), read and write,
 * on a huge page boundary, with huge pages asked for (as
 * mempool_reserve() does) and faulted in at once: filling memory that a
 * fresh process touches for the first time costs a fault per 4 KB page,
 * and each is dear in a virtual machine.  From two huge pages it is
 * faulted in on two threads if threads (the caller's thread count: 1 on
 * a worker thread) is more than 1.  NULL if it cannot be mapped;
 * munmap(p, *len) frees it.
 */
void *huge_map(size_t bytes, size_t *len, int threads);
/* An uninitialised object, aligned to MEMPOOL_ALIGN.  Never NULL. */
void *mempool_alloc(struct mempool *pool);
/* The same, zero-filled. */
void *mempool_calloc(struct mempool *pool);
/* Free every object and block; pool is empty and reusable after. */
void mempool_release(struct mempool *pool);
/* Move every block of src into dst (same objsize); src is left empty. */
void mempool_merge(struct mempool *dst, struct mempool *src);
/* Bytes spent beyond the objects themselves (headers, unused tails). */
size_t mempool_overhead(const struct mempool *pool);

struct arena {
	unsigned char *next;		/* free space in the newest block */
	size_t left;			/* bytes left there */
	struct pool_block *blocks;	/* owned; newest first */
	size_t used;			/* bytes handed out */
};

void arena_init(struct arena *a);
/* len bytes aligned to align (a power of two ≤ 16). */
void *arena_alloc(struct arena *a, size_t len, size_t align);
/* A NUL-terminated copy of len bytes of s. */
char *arena_strndup(struct arena *a, const char *s, size_t len);
void arena_release(struct arena *a);
void arena_merge(struct arena *dst, struct arena *src);

#endif
