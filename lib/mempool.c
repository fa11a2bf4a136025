/*
 * mempool: block allocators.
 *
 * A pool_block is a header followed by its payload.  For a mempool the
 * payload holds MEMPOOL_BLOCK_OBJS objects of objsize bytes; for an arena it
 * holds ARENA_BLOCK_SIZE bytes, or one larger allocation that would not fit
 * (placed in its own block behind the newest, so the newest block's free
 * tail is kept).  Under DIRC_SANITIZE each allocation is its own block of
 * exactly the requested size.
 */
#include "mempool.h"

#include <sys/mman.h>

#include "workers.h"

struct pool_block {
	struct pool_block *next;
	size_t size;		/* payload bytes */
	_Alignas(16) unsigned char data[];	/* arenas may ask for 16 */
};

struct pool_region {
	struct pool_region *next;
	void *map;
	size_t len;
};

#define HUGE_PAGE (2u << 20)

/*
 * A block is filled from its start, object after object: fault its pages
 * in with one call rather than one fault per page (for the 78,635 entries
 * of a linux-sized index, 1,700 faults).  Only for big blocks; a kernel
 * without MADV_POPULATE_WRITE (before 5.14) faults them in as it goes.
 */
void
mem_populate(void *p, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t page = 4096, lo, hi;

	if (len < 64 * 1024)
		return;
	lo = ((uintptr_t)p + page - 1) & ~(page - 1);
	hi = ((uintptr_t)p + len) & ~(page - 1);
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)len;
#endif
}

static struct pool_block *
block_new(size_t size, struct pool_block *next)
{
	struct pool_block *b = xmalloc(st_add(sizeof(*b), size));

	mem_populate(b, sizeof(*b) + size);

	b->next = next;
	b->size = size;
	return b;
}

/* Is b cut from one of the regions (and so not free()d on its own)? */
static int
in_region(const struct pool_block *b, const struct pool_region *r)
{
	for (; r; r = r->next)
		if ((const unsigned char *)b >= (const unsigned char *)r->map &&
		    (const unsigned char *)b < (const unsigned char *)r->map +
		    r->len)
			return 1;
	return 0;
}

static void
blocks_free(struct pool_block *b, const struct pool_region *regions)
{
	while (b) {
		struct pool_block *next = b->next;

		if (!regions || !in_region(b, regions))
			free(b);
		b = next;
	}
}

static void
regions_free(struct pool_region *r)
{
	while (r) {
		struct pool_region *next = r->next;

		munmap(r->map, r->len);
		free(r);
		r = next;
	}
}

#ifndef DIRC_SANITIZE
/* Bytes one block of the pool takes in a region. */
static size_t
block_span(const struct mempool *pool)
{
	size_t n = sizeof(struct pool_block) + pool->objsize * MEMPOOL_BLOCK_OBJS;

	return (n + 15) & ~(size_t)15;
}
#endif

/* huge_map()'s populate, a huge page per item */
static void
populate_huge_page(void *ctx, size_t item, int thread)
{
	unsigned char *start = ((void **)ctx)[0];
	size_t len = *(const size_t *)((void **)ctx)[1];
	size_t at = item * HUGE_PAGE;

	(void)thread;
	mem_populate(start + at, MIN(len - at, HUGE_PAGE));
}

void *
huge_map(size_t bytes, size_t *len, int threads)
{
	size_t huge, whole;
	unsigned char *map, *start;

	if (bytes > SIZE_MAX - 2 * HUGE_PAGE)
		return NULL;
	*len = (bytes + 4095) & ~(size_t)4095;
	/*
	 * Whole huge pages where that wastes at most a quarter: a small
	 * page costs about 5 us to fault in on this virtual machine, a huge
	 * one about 150 us when the host has it, so the 1.6 MB tail of a
	 * linux-sized index's entries (384 small pages) costs more than
	 * the huge page that holds it (P6k's round trip, warm: 20-22 ms
	 * against 17.4-17.7).
	 */
	whole = (*len + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
	if (*len > HUGE_PAGE && whole - *len <= *len / 4)
		*len = whole;
	/* a huge page more, to start on a huge page boundary */
	map = mmap(NULL, *len + HUGE_PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return NULL;
	start = (unsigned char *)(((uintptr_t)map + HUGE_PAGE - 1) &
				  ~(uintptr_t)(HUGE_PAGE - 1));
	if (start > map)
		munmap(map, start - map);
	if (start + *len < map + *len + HUGE_PAGE)
		munmap(start + *len,
		       map + *len + HUGE_PAGE - (start + *len));
	/*
	 * Huge pages for the whole 2 MB stretches only: a tail that was
	 * not rounded up keeps small pages, so memory use is what is asked
	 * for, or at most a quarter more.
	 */
	huge = *len & ~(size_t)(HUGE_PAGE - 1);
#ifdef MADV_HUGEPAGE
	(void)madvise(start, huge, MADV_HUGEPAGE);
#else
	(void)huge;
#endif
	/*
	 * Faulted in on two threads from two huge pages, if threads allows:
	 * a huge page the host has taken back costs about 3 ms the first
	 * time it is touched (P6k's round trip with the host that cold: 53
	 * ms one thread, 30 ms two); a thread costs 0.1 ms.
	 */
	if (threads > 1 && *len >= 2 * (size_t)HUGE_PAGE) {
		size_t n = (*len + HUGE_PAGE - 1) / HUGE_PAGE;
		void *ctx[2] = { start, len };

		workers_run_batch(2, n, 1, populate_huge_page, ctx);
	} else {
		mem_populate(start, *len);
	}
	return start;
}

void
mempool_reserve(struct mempool *pool, size_t n, int threads)
{
#ifdef DIRC_SANITIZE
	(void)pool;
	(void)n;
	(void)threads;
#else
	size_t blocks = n / MEMPOOL_BLOCK_OBJS + 1, bytes, len;
	struct pool_region *r;
	unsigned char *start;

	if (blocks > SIZE_MAX / block_span(pool))
		return;
	bytes = blocks * block_span(pool);
	if (bytes < HUGE_PAGE)
		return;
	start = huge_map(bytes, &len, threads);
	if (!start)
		return;		/* blocks come from malloc, as without */
	r = xmalloc(sizeof(*r));
	r->map = start;
	r->len = len;
	r->next = pool->regions;
	pool->regions = r;
	pool->rnext = start;
	pool->rleft = len;
#endif
}

static struct pool_block *
blocks_append(struct pool_block *dst, struct pool_block *src)
{
	struct pool_block *tail;

	if (!src)
		return dst;
	for (tail = src; tail->next; tail = tail->next)
		;
	tail->next = dst;
	return src;
}

void
mempool_init(struct mempool *pool, size_t objsize)
{
	memset(pool, 0, sizeof(*pool));
	pool->objsize = (objsize + MEMPOOL_ALIGN - 1) & ~(size_t)(MEMPOOL_ALIGN - 1);
	if (!pool->objsize)
		pool->objsize = MEMPOOL_ALIGN;
}

void *
mempool_alloc(struct mempool *pool)
{
	void *obj;

#ifdef DIRC_SANITIZE
	pool->blocks = block_new(pool->objsize, pool->blocks);
	pool->nr_blocks++;
	obj = pool->blocks->data;
#else
	if (!pool->left) {
		size_t size = st_mult(pool->objsize, MEMPOOL_BLOCK_OBJS);

		if (pool->rleft >= block_span(pool)) {
			/* cut from the reservation */
			struct pool_block *b = (struct pool_block *)pool->rnext;

			pool->rnext += block_span(pool);
			pool->rleft -= block_span(pool);
			b->next = pool->blocks;
			b->size = size;
			pool->blocks = b;
		} else {
			pool->blocks = block_new(size, pool->blocks);
		}
		pool->nr_blocks++;
		pool->next = pool->blocks->data;
		pool->left = MEMPOOL_BLOCK_OBJS;
	}
	obj = pool->next;
	pool->next += pool->objsize;
	pool->left--;
#endif
	pool->nr_objs++;
	return obj;
}

void *
mempool_calloc(struct mempool *pool)
{
	void *obj = mempool_alloc(pool);

	memset(obj, 0, pool->objsize);
	return obj;
}

void
mempool_release(struct mempool *pool)
{
	blocks_free(pool->blocks, pool->regions);
	regions_free(pool->regions);
	mempool_init(pool, pool->objsize);
}

void
mempool_merge(struct mempool *dst, struct mempool *src)
{
	if (dst->objsize != src->objsize)
		BUG("mempool_merge of pools of %zu and %zu byte objects",
		    dst->objsize, src->objsize);
	if (!src->blocks)
		return;
	/*
	 * Put src's blocks behind dst's newest block, so dst keeps
	 * allocating from the free tail it already has.
	 */
	if (dst->blocks) {
		struct pool_block *rest = dst->blocks->next;

		dst->blocks->next = blocks_append(rest, src->blocks);
	} else {
		dst->blocks = src->blocks;
		dst->next = src->next;
		dst->left = src->left;
	}
	dst->nr_blocks += src->nr_blocks;
	dst->nr_objs += src->nr_objs;
	if (src->regions) {
		/* src's mappings now hold dst's blocks; its free tail is lost */
		struct pool_region *tail = src->regions;

		while (tail->next)
			tail = tail->next;
		tail->next = dst->regions;
		dst->regions = src->regions;
	}
	src->blocks = NULL;
	src->regions = NULL;
	mempool_init(src, src->objsize);
}

size_t
mempool_overhead(const struct mempool *pool)
{
	return pool->nr_blocks * sizeof(struct pool_block) +
	       pool->left * pool->objsize + pool->rleft;
}

void
arena_init(struct arena *a)
{
	memset(a, 0, sizeof(*a));
}

void *
arena_alloc(struct arena *a, size_t len, size_t align)
{
	size_t pad;
	void *p;

	if (align < 1 || align > 16 || (align & (align - 1)))
		BUG("arena_alloc: bad alignment %zu", align);
#ifdef DIRC_SANITIZE
	(void)pad;
	(void)p;
	a->blocks = block_new(len, a->blocks);
	a->used += len;
	return a->blocks->data;
#else
	pad = (align - ((uintptr_t)a->next & (align - 1))) & (align - 1);
	if (!a->blocks || pad + len > a->left) {
		if (len > ARENA_BLOCK_SIZE / 4) {
			/* a big one gets a block of its own, kept behind */
			struct pool_block *b = block_new(len, NULL);

			if (a->blocks) {
				b->next = a->blocks->next;
				a->blocks->next = b;
			} else {
				a->blocks = b;
				a->left = 0;
				a->next = b->data + len;
			}
			a->used += len;
			return b->data;
		}
		a->blocks = block_new(ARENA_BLOCK_SIZE, a->blocks);
		a->next = a->blocks->data;
		a->left = ARENA_BLOCK_SIZE;
		pad = 0;
	}
	p = a->next + pad;
	a->next += pad + len;
	a->left -= pad + len;
	a->used += len;
	return p;
#endif
}

char *
arena_strndup(struct arena *a, const char *s, size_t len)
{
	char *p = arena_alloc(a, st_add(len, 1), 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void
arena_release(struct arena *a)
{
	blocks_free(a->blocks, NULL);
	arena_init(a);
}

void
arena_merge(struct arena *dst, struct arena *src)
{
	if (!src->blocks)
		return;
	if (dst->blocks) {
		struct pool_block *rest = dst->blocks->next;

		dst->blocks->next = blocks_append(rest, src->blocks);
	} else {
		dst->blocks = src->blocks;
		dst->next = src->next;
		dst->left = src->left;
	}
	dst->used += src->used;
	src->blocks = NULL;
	arena_init(src);
}
