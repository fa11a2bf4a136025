/*
 * t-mempool: fixed-size objects in blocks and the byte arena — alignment,
 * millions of distinct writable objects, release and reuse, merging, and
 * the bookkeeping overhead the design promises (tens of kilobytes for
 * two million objects).
 *
 * Under DIRC_SANITIZE every object is its own malloc, so the counts are
 * smaller there and the block-level checks are skipped.
 */
#include "tap.h"
#include "mempool.h"

#include <errno.h>
#include <sys/mman.h>

#ifdef DIRC_SANITIZE
#define MANY 200000
#else
#define MANY 3000000
#endif

/* An object of 24 bytes (rounded up to 32): a tag and its complement. */
struct obj {
	size_t tag;
	size_t not_tag;
	unsigned char pad[8];
};

static int
aligned(const void *p, size_t align)
{
	return ((uintptr_t)p & (align - 1)) == 0;
}

static void
test_init_sizes(void)
{
	static const size_t sizes[] = { 0, 1, 8, 15, 16, 17, 24, 32, 33, 100,
					 1000 };

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		struct mempool pool;
		int misaligned = 0, overlap = 0;
		unsigned char *prev = NULL;

		mempool_init(&pool, sizes[i]);
		ok(pool.objsize >= sizes[i] && pool.objsize % MEMPOOL_ALIGN == 0 &&
		   pool.objsize > 0 &&
		   pool.objsize < (sizes[i] ? sizes[i] : 1) + MEMPOOL_ALIGN,
		   "objsize %zu rounds up to %zu", sizes[i], pool.objsize);
		is_int(pool.nr_objs, 0, "an initialised pool has no objects "
		       "(objsize %zu)", sizes[i]);
		ok(pool.blocks == NULL, "... and allocates nothing");
		for (int k = 0; k < 3000; k++) {
			unsigned char *p = mempool_alloc(&pool);

			if (!aligned(p, MEMPOOL_ALIGN))
				misaligned++;
			memset(p, 0xa5, pool.objsize);
			if (prev && p < prev + pool.objsize && p + pool.objsize > prev)
				overlap++;
			prev = p;
		}
		is_int(misaligned, 0, "3000 objects of %zu bytes: all aligned "
		       "to %d", sizes[i], MEMPOOL_ALIGN);
		is_int(overlap, 0, "... consecutive objects do not overlap");
		mempool_release(&pool);
	}
}

static void
test_many(void)
{
	struct mempool pool;
	struct obj **objs = malloc(MANY * sizeof(*objs));
	size_t misaligned = 0, bad = 0;

	mempool_init(&pool, sizeof(struct obj));
	for (size_t i = 0; i < MANY; i++) {
		objs[i] = mempool_alloc(&pool);
		if (!aligned(objs[i], MEMPOOL_ALIGN))
			misaligned++;
		objs[i]->tag = i;
		objs[i]->not_tag = ~i;
		memset(objs[i]->pad, (int)(i & 0xff), sizeof(objs[i]->pad));
	}
	for (size_t i = 0; i < MANY; i++)
		if (objs[i]->tag != i || objs[i]->not_tag != ~i ||
		    objs[i]->pad[7] != (unsigned char)(i & 0xff))
			bad++;
	is_int(misaligned, 0, "%d objects: every one aligned", MANY);
	is_int(bad, 0, "%d objects: distinct, writable memory (each keeps "
	       "what was written)", MANY);
	is_int(pool.nr_objs, MANY, "nr_objs counts them");
#ifndef DIRC_SANITIZE
	is_int(pool.nr_blocks, (MANY + MEMPOOL_BLOCK_OBJS - 1) / MEMPOOL_BLOCK_OBJS,
	       "objects come in blocks of %d", MEMPOOL_BLOCK_OBJS);
#else
	ok(1, "# skip block count under DIRC_SANITIZE");
#endif

	mempool_release(&pool);
	is_int(pool.nr_objs, 0, "release: no objects");
	is_int(pool.nr_blocks, 0, "release: no blocks");
	ok(pool.blocks == NULL, "release: nothing owned");
	is_int(pool.objsize, (sizeof(struct obj) + MEMPOOL_ALIGN - 1) / MEMPOOL_ALIGN * MEMPOOL_ALIGN, "release: objsize kept");

	/* reuse after release */
	for (size_t i = 0; i < 100000; i++) {
		objs[i] = mempool_calloc(&pool);
		if (objs[i]->tag || objs[i]->not_tag || objs[i]->pad[3])
			bad++;
		objs[i]->tag = i;
	}
	for (size_t i = 0; i < 100000; i++)
		if (objs[i]->tag != i)
			bad++;
	is_int(bad, 0, "the pool is reusable after release; calloc zeroes");
	mempool_release(&pool);
	free(objs);
}

static void
test_overhead(void)
{
	struct mempool pool;
	size_t overhead;

	mempool_init(&pool, sizeof(struct obj));
	is_int(mempool_overhead(&pool), 0, "an empty pool has no overhead");
	for (size_t i = 0; i < 2000000; i++)
		mempool_alloc(&pool);
	overhead = mempool_overhead(&pool);
#ifndef DIRC_SANITIZE
	ok(overhead < 64 * 1024, "2 million objects: overhead %zu bytes, "
	   "under 64 KiB", overhead);
	ok(overhead >= pool.nr_blocks * sizeof(void *),
	   "the overhead counts the block headers");
#else
	ok(1, "# skip overhead under DIRC_SANITIZE (%zu)", overhead);
	ok(1, "# skip");
#endif
	mempool_release(&pool);

	mempool_init(&pool, 16);
	mempool_alloc(&pool);
#ifndef DIRC_SANITIZE
	is_int(mempool_overhead(&pool) >= (MEMPOOL_BLOCK_OBJS - 1) * 16, 1,
	       "the unused tail of the newest block counts as overhead");
#else
	ok(1, "# skip");
#endif
	mempool_release(&pool);
}

static void
fill(struct mempool *pool, struct obj **objs, size_t n, size_t base)
{
	for (size_t i = 0; i < n; i++) {
		objs[i] = mempool_alloc(pool);
		objs[i]->tag = base + i;
		objs[i]->not_tag = ~(base + i);
	}
}

static size_t
check(struct obj **objs, size_t n, size_t base)
{
	size_t bad = 0;

	for (size_t i = 0; i < n; i++)
		if (objs[i]->tag != base + i || objs[i]->not_tag != ~(base + i))
			bad++;
	return bad;
}

static void
test_merge(void)
{
	struct mempool a, b, empty;
	struct obj **oa = malloc(1500 * sizeof(*oa));
	struct obj **ob = malloc(2500 * sizeof(*ob));
	struct obj **oc = malloc(5000 * sizeof(*oc));

	mempool_init(&a, sizeof(struct obj));
	mempool_init(&b, sizeof(struct obj));
	fill(&a, oa, 1500, 0);
	fill(&b, ob, 2500, 100000);
	mempool_merge(&a, &b);
	is_int(a.nr_objs, 4000, "merge: dst counts both pools' objects");
	ok(b.blocks == NULL && b.nr_objs == 0 && b.nr_blocks == 0,
	   "merge: src is left empty");
	is_int(check(oa, 1500, 0) + check(ob, 2500, 100000), 0,
	   "merge: every object keeps its contents");

	/* dst goes on allocating; nothing it hands out overlaps */
	fill(&a, oc, 5000, 200000);
	is_int(check(oa, 1500, 0) + check(ob, 2500, 100000) +
	       check(oc, 5000, 200000), 0,
	       "after a merge, new objects do not overlap old ones");
	is_int(a.nr_objs, 9000, "nr_objs after more allocations");

	/* src is reusable */
	fill(&b, ob, 2500, 300000);
	is_int(check(ob, 2500, 300000) + check(oc, 5000, 200000), 0,
	       "the emptied src pool is reusable");

	/* merge into an empty pool */
	mempool_init(&empty, sizeof(struct obj));
	mempool_merge(&empty, &b);
	is_int(empty.nr_objs, 2500, "merge into an empty pool");
	fill(&empty, oa, 1500, 400000);
	is_int(check(ob, 2500, 300000) + check(oa, 1500, 400000), 0,
	       "... which then allocates without overlap");
	/* merging an empty pool changes nothing */
	mempool_merge(&empty, &b);
	is_int(empty.nr_objs, 4000, "merging an empty pool changes nothing");

	mempool_release(&a);
	mempool_release(&b);
	mempool_release(&empty);
	free(oa);
	free(ob);
	free(oc);
}

static void
test_arena(void)
{
	struct arena a, b;
	char **strs = malloc(100000 * sizeof(*strs));
	size_t bad = 0, misaligned = 0, used = 0;
	char buf[300];

	arena_init(&a);
	is_int(a.used, 0, "an initialised arena is empty");
	for (size_t align = 1; align <= 16; align *= 2) {
		for (int k = 0; k < 1000; k++) {
			void *p = arena_alloc(&a, (size_t)(k % 37) + 1, align);

			if (!aligned(p, align))
				misaligned++;
			memset(p, 0x5a, (size_t)(k % 37) + 1);
		}
	}
	is_int(misaligned, 0, "arena_alloc honours alignments 1..16");
	arena_release(&a);

	for (size_t i = 0; i < 100000; i++) {
		size_t len = i % 200;

		memset(buf, 'a' + (int)(i % 26), len);
		strs[i] = arena_strndup(&a, buf, len);
		used += len + 1;
	}
	for (size_t i = 0; i < 100000; i++) {
		size_t len = i % 200;

		if (strlen(strs[i]) != len ||
		    (len && strs[i][len - 1] != 'a' + (int)(i % 26)))
			bad++;
	}
	is_int(bad, 0, "100000 strings: distinct, NUL-terminated copies");
	is_int(a.used, used, "used counts the bytes handed out");

	{
		char *big = arena_alloc(&a, 1 << 20, 16);
		char *after;

		memset(big, 'B', 1 << 20);
		after = arena_strndup(&a, "after", 5);
		ok(aligned(big, 16) && big[0] == 'B' && big[(1 << 20) - 1] == 'B',
		   "a 1 MiB allocation");
		is_str(after, "after", "a small one after it");
		bad = 0;
		for (size_t i = 0; i < 100000; i++)
			if (strlen(strs[i]) != i % 200)
				bad++;
		is_int(bad, 0, "... all 100000 of them");
	}

	arena_init(&b);
	{
		char *x = arena_strndup(&b, "from b", 6);
		size_t ua = a.used, ub = b.used;

		arena_merge(&a, &b);
		is_int(a.used, ua + ub, "arena_merge adds the counts");
		ok(b.blocks == NULL && b.used == 0, "arena_merge empties src");
		is_str(x, "from b", "merged bytes are intact");
		is_str(arena_strndup(&a, "more", 4), "more", "dst allocates after "
		       "a merge");
		is_str(x, "from b", "... without touching merged bytes");
		is_str(arena_strndup(&b, "b again", 7), "b again",
		       "the emptied src is reusable");
	}
	arena_release(&a);
	is_int(a.used, 0, "arena_release empties the arena");
	ok(a.blocks == NULL, "... and frees everything");
	is_str(arena_strndup(&a, "reuse", 5), "reuse", "the arena is reusable");
	arena_release(&a);
	arena_release(&b);
	free(strs);
}

static void
test_reserve(void)
{
	size_t n = 200000;
	struct mempool a, b;
	struct obj **oa = malloc(n * sizeof(*oa));
	struct obj **ob = malloc(n * sizeof(*ob));
	struct obj **oc = malloc(n * sizeof(*oc));

	mempool_init(&a, sizeof(struct obj));
	mempool_init(&b, sizeof(struct obj));
	/* too small to reserve: nothing mapped */
	mempool_reserve(&a, 10, 2);
	ok(a.regions == NULL && a.rleft == 0, "reserve of 10 objects maps nothing");
	mempool_reserve(&a, n, 2);
#ifdef DIRC_SANITIZE
	ok(a.regions == NULL, "reserve does nothing under DIRC_SANITIZE");
#else
	ok(a.regions != NULL && a.rleft >= n * a.objsize,
	   "reserve of %zu objects maps room for them (%zu bytes)", n, a.rleft);
	ok(aligned(a.rnext, 2 << 20), "... starting on a 2 MB boundary");
#endif
	fill(&a, oa, n, 0);
	is_int(check(oa, n, 0), 0, "reserved objects are distinct and writable");
	ok(aligned(oa[0], MEMPOOL_ALIGN) && aligned(oa[n - 1], MEMPOOL_ALIGN),
	   "... and aligned");
#ifndef DIRC_SANITIZE
	is_int(a.nr_blocks, (n + MEMPOOL_BLOCK_OBJS - 1) / MEMPOOL_BLOCK_OBJS,
	       "still blocks of %d objects", MEMPOOL_BLOCK_OBJS);
#else
	ok(1, "# skip block count under DIRC_SANITIZE");
#endif
	/* past the reservation: malloc'd blocks again */
	fill(&a, ob, n, n);
	is_int(check(oa, n, 0) + check(ob, n, n), 0,
	       "allocating past the reservation does not overlap it");
	/* a reserved pool merged into another keeps its objects alive */
	mempool_reserve(&b, n, 1);
	fill(&b, oc, n, 2 * n);
	mempool_merge(&a, &b);
	ok(b.regions == NULL && b.rleft == 0 && b.blocks == NULL,
	   "merge moves the reserved mapping to dst");
	is_int(check(oa, n, 0) + check(ob, n, n) + check(oc, n, 2 * n), 0,
	       "merged reserved objects keep their contents");
	mempool_release(&a);
	ok(a.regions == NULL && a.blocks == NULL && a.rleft == 0,
	   "release unmaps the reservation");
	/* and the pool is reusable, reserve included */
	mempool_reserve(&a, n, 2);
	fill(&a, oa, n, 5 * n);
	is_int(check(oa, n, 5 * n), 0, "a released pool reserves again");
	mempool_release(&a);
	mempool_release(&b);
	free(oa);
	free(ob);
	free(oc);
}

/* Is every page of [p, p + len) unmapped? */
static int
all_unmapped(unsigned char *p, size_t len)
{
	for (size_t at = 0; at < len; at += 4096)
		if (msync(p + at, 4096, MS_ASYNC) == 0 || errno != ENOMEM)
			return 0;
	return 1;
}

static void
test_huge_map(void)
{
	static const struct {
		size_t bytes, len;
	} cases[] = {
		{ 1, 4096 },
		{ (2u << 20) + 4096, (2u << 20) + 4096 },	/* +100%: no */
		{ 7600000, 8u << 20 },				/* +10%: yes */
		{ 8683394, 10u << 20 },		/* a linux-sized index: +21% */
		{ 6u << 20, 6u << 20 },
		{ (6u << 20) + 1, (6u << 20) + 4096 },		/* +33%: no */
		{ (6u << 20) - 4096 + 1, 6u << 20 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		for (int threads = 1; threads <= 2; threads++) {
			size_t len = 0, zero = 0;
			unsigned char *p = huge_map(cases[i].bytes, &len,
						    threads);

			if (!ok(p != NULL, "huge_map(%zu) on %d thread(s)",
				cases[i].bytes, threads))
				continue;
			is_int(len, cases[i].len, "... spans %zu bytes",
			       cases[i].len);
			ok(aligned(p, 2u << 20), "... from a 2 MB boundary");
			for (size_t at = 0; at < len; at += 4096)
				zero += p[at] == 0 && p[len - 1] == 0;
			p[0] = p[len - 1] = 1;
			is_int(zero, len / 4096, "... zeroed and writable "
			       "to its end");
			ok(munmap(p, len) == 0 && all_unmapped(p, len),
			   "... and munmap(p, len) frees all of it");
		}
	}
}

int
main(void)
{
	test_init_sizes();
	test_many();
	test_overhead();
	test_merge();
	test_reserve();
	test_huge_map();
	test_arena();
	return done_testing();
}
