/*
 * pack: reading git's packfiles.
 *
 * .idx v2:  "\377tOc" | version 2 | fan-out[256] (u32, cumulative) |
 *           ids[N] (HASH_RAWSZ bytes, sorted) | crc32[N] | offsets[N] (u32; MSB
 *           set: index into the 64-bit table) | offsets64[M] (u64) |
 *           pack checksum | idx checksum
 * .idx v1:  fan-out[256] | N × (u32 offset, id) | pack checksum |
 *           idx checksum
 * .pack:    "PACK" | version (2, 3) | N | objects | SHA-1 trailer
 * object:   header byte: MSB more | type (3 bits) | size bits 0-3, then
 *           7 bits per byte; OFS_DELTA: a negative offset (big-endian
 *           base-128, +1 per continuation); REF_DELTA: the base id; then
 *           a zlib stream (the object, or the delta)
 * delta:    source size, result size (little-endian base-128), then
 *           instructions: 1xxxxxxx copy (offset bytes per bits 0-3, size
 *           bytes per bits 4-6, size 0 meaning 0x10000) or 0nnnnnnn insert
 *           n literal bytes (0 is reserved).
 *
 * Chains are resolved with an explicit list, never recursion; bases are
 * cached (by pack and offset) up to DELTA_CACHE_BYTES, least recently
 * used first out; a delta is applied to a cached base in place.
 */
#include "pack.h"

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "error.h"
#include "inflate.h"
#include "object.h"

#define MAX_CHAIN 100000	/* deeper chains are treated as corrupt */
#define DELTA_CACHE_BUCKETS 16384
#define DELTA_CACHE_ENTRIES 65536	/* and no more bases than this */
#define DELTA_CACHE_BYTES (96u << 20)	/* git's core.deltaBaseCacheLimit */

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* ---- the index ---- */

static int
idx_corrupt(const char *path, const char *why)
{
	return error_set(E_CORRUPT, "index file %s is corrupt: %s", path, why);
}

/* Check the mapped .idx at p->idx: header, fan-out, size, tables. */
static int
check_idx(struct pack *p)
{
	const unsigned char *m = p->idx;
	size_t len = p->idx_len, need;
	uint32_t prev = 0;

	if (len < 256 * 4 + 2 * (size_t)HASH_RAWSZ)
		return idx_corrupt(p->idx_path, "too small");
	if (!memcmp(m, "\377tOc", 4)) {
		p->idx_version = get_be32(m + 4);
		if (p->idx_version != 2)
			return error_set(E_UNSUPPORTED, "index file %s is "
					 "version %d; dirc reads versions 1 "
					 "and 2", p->idx_path, p->idx_version);
		p->fanout = m + 8;
	} else {
		p->idx_version = 1;
		p->fanout = m;
	}
	for (int i = 0; i < 256; i++) {
		uint32_t n = get_be32(p->fanout + 4 * i);

		if (n < prev)
			return idx_corrupt(p->idx_path, "fan-out table is not "
					   "monotonic");
		prev = n;
	}
	p->nr = prev;
	if (p->idx_version == 1) {
		need = 256 * 4 + (size_t)p->nr * PACK_V1_ENTRY +
		       2 * HASH_RAWSZ;
		if (len != need)
			return idx_corrupt(p->idx_path, "wrong size for its "
					   "object count");
		p->ids = m + 256 * 4;
	} else {
		size_t base = 8 + 256 * 4;

		need = base + (size_t)p->nr * (HASH_RAWSZ + 4 + 4) +
		       2 * HASH_RAWSZ;
		if (len < need || (len - need) % 8)
			return idx_corrupt(p->idx_path, "wrong size for its "
					   "object count");
		p->ids = m + base;
		p->crcs = p->ids + (size_t)p->nr * HASH_RAWSZ;
		p->off32 = p->crcs + (size_t)p->nr * 4;
		p->off64 = p->off32 + (size_t)p->nr * 4;
		p->nr_large = (len - need) / 8;
	}
	return 0;
}

static struct pack *
pack_new(const char *idx_path)
{
	static uint64_t serial;
	struct pack *p = xcalloc(1, sizeof(*p));
	size_t plen = strlen(idx_path);
	size_t base = plen >= 4 && !strcmp(idx_path + plen - 4, ".idx") ?
		      plen - 4 : plen;	/* "<base>.idx" -> "<base>.pack" */

	p->serial = __atomic_add_fetch(&serial, 1, __ATOMIC_RELAXED);
	pthread_mutex_init(&p->lock, NULL);
	p->idx_path = xstrdup(idx_path);
	p->pack_path = xmalloc(base + 6);
	memcpy(p->pack_path, idx_path, base);
	memcpy(p->pack_path + base, ".pack", 6);
	return p;
}

/* An anonymous private mapping holding a copy of buf (munmap frees it). */
static const unsigned char *
map_copy(const void *buf, size_t len)
{
	void *m = mmap(NULL, len ? len : 1, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return NULL;
	memcpy(m, buf, len);
	return m;
}

int
pack_open(struct pack **out, const char *idx_path)
{
	struct pack *p = pack_new(idx_path);
	const unsigned char *m;
	struct stat st;
	int fd, ret = 0;

	*out = NULL;
	fd = open(idx_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = error_errno(errno, "unable to open %s", idx_path);
		goto fail;
	}
	if (fstat(fd, &st) < 0) {
		ret = error_errno(errno, "unable to stat %s", idx_path);
		close(fd);
		goto fail;
	}
	if ((size_t)st.st_size < 256 * 4 + 2 * (size_t)HASH_RAWSZ) {
		close(fd);
		ret = idx_corrupt(idx_path, "too small");
		goto fail;
	}
	m = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED) {
		ret = error_errno(errno, "unable to mmap %s", idx_path);
		goto fail;
	}
	p->idx = m;
	p->idx_len = st.st_size;
	ret = check_idx(p);
	if (ret < 0)
		goto fail;
	*out = p;
	return 0;
fail:
	pack_close(p);
	return ret;
}

int
pack_open_buffer(struct pack **out, const void *buf, size_t len,
		 const char *name)
{
	struct pack *p = pack_new(name);
	int ret;

	*out = NULL;
	p->idx = map_copy(buf, len);
	if (!p->idx) {
		ret = error_errno(errno, "cannot map %zu bytes", len);
		goto fail;
	}
	p->idx_len = len ? len : 1;
	ret = len ? check_idx(p) : idx_corrupt(name, "too small");
	if (ret < 0)
		goto fail;
	*out = p;
	return 0;
fail:
	pack_close(p);
	return ret;
}

void
pack_close(struct pack *p)
{
	if (!p)
		return;
	if (p->idx)
		munmap((void *)p->idx, p->idx_len);
	if (p->data)
		munmap((void *)p->data, p->data_len);
	free(p->rev);
	free(p->rev_pos);
	free(p->types);
	free(p->bad);
	error_saved_release(&p->open_err);
	pthread_mutex_destroy(&p->lock);
	free(p->idx_path);
	free(p->pack_path);
	free(p);
}

static int
pack_corrupt(const struct pack *p, const char *why)
{
	return error_set(E_CORRUPT, "packfile %s is corrupt: %s", p->pack_path,
			 why);
}

/* Check the .pack image m (len bytes) against p's index. */
static int
check_pack(const struct pack *p, const unsigned char *m, size_t len)
{
	if (len < 12 + (size_t)HASH_RAWSZ)
		return pack_corrupt(p, "too small (truncated?)");
	if (memcmp(m, "PACK", 4))
		return pack_corrupt(p, "bad signature");
	if (get_be32(m + 4) != 2 && get_be32(m + 4) != 3)
		return pack_corrupt(p, "unsupported version");
	if (get_be32(m + 8) != p->nr)
		return error_set(E_CORRUPT, "packfile %s claims to have %u "
				 "objects while index indicates %u objects",
				 p->pack_path, get_be32(m + 8), p->nr);
	/* the pack's trailer must be the checksum the index recorded */
	if (memcmp(m + len - HASH_RAWSZ,
		   p->idx + p->idx_len - 2 * HASH_RAWSZ, HASH_RAWSZ))
		return error_set(E_CORRUPT, "packfile %s does not match index",
				 p->pack_path);
	return 0;
}

/*
 * Under p->lock: check the image m and publish it, or remember why p
 * cannot be used (every later pack_map() repeats it) and drop m.
 */
static int
publish(struct pack *p, const unsigned char *m, size_t len, int ret)
{
	if (!ret && m)
		ret = check_pack(p, m, len);
	if (ret < 0) {
		error_save(&p->open_err);
		if (m)
			munmap((void *)m, len ? len : 1);
		return ret;
	}
	p->data_len = len;
	p->open_failed = 0;
	__atomic_store_n(&p->data, m, __ATOMIC_RELEASE);
	return 0;
}

static int
map_locked(struct pack *p)
{
	const unsigned char *m;
	struct stat st;
	int fd;

	if (p->data)
		return 0;
	if (p->open_failed)
		return error_restore(&p->open_err);
	p->open_failed = 1;
	fd = open(p->pack_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return publish(p, NULL, 0, error_errno(errno, "unable to open "
						       "packfile %s",
						       p->pack_path));
	if (fstat(fd, &st) < 0) {
		int ret = error_errno(errno, "unable to stat %s", p->pack_path);

		close(fd);
		return publish(p, NULL, 0, ret);
	}
	if ((size_t)st.st_size < 12 + (size_t)HASH_RAWSZ) {
		close(fd);
		return publish(p, NULL, 0, pack_corrupt(p, "too small "
							"(truncated?)"));
	}
	m = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return publish(p, NULL, 0, error_errno(errno, "unable to mmap "
						       "%s", p->pack_path));
	p->pack_size = st.st_size;
	p->mtime = st.st_mtim;
	p->data_is_file = 1;
	return publish(p, m, st.st_size, 0);
}

void
pack_trim(struct pack *p)
{
	const unsigned char *m = __atomic_load_n(&p->data, __ATOMIC_ACQUIRE);

	/* an anonymous copy would be zeroed, not refaulted */
	if (m && p->data_is_file)
		madvise((void *)m, p->data_len, MADV_DONTNEED);
}

int
pack_map(struct pack *p)
{
	int ret;

	if (__atomic_load_n(&p->data, __ATOMIC_ACQUIRE))
		return 0;
	pthread_mutex_lock(&p->lock);
	ret = map_locked(p);
	pthread_mutex_unlock(&p->lock);
	return ret;
}

int
pack_map_buffer(struct pack *p, const void *buf, size_t len)
{
	const unsigned char *m;
	int ret;

	if (p->data || p->open_failed)
		BUG("pack_map_buffer: %s is already mapped", p->pack_path);
	p->open_failed = 1;
	m = map_copy(buf, len);
	if (!m)
		return publish(p, NULL, 0, error_errno(errno, "cannot map %zu "
						       "bytes", len));
	p->pack_size = len;
	if (!len) {
		munmap((void *)m, 1);
		return publish(p, NULL, 0, pack_corrupt(p, "too small "
							"(truncated?)"));
	}
	pthread_mutex_lock(&p->lock);
	ret = publish(p, m, len, 0);
	pthread_mutex_unlock(&p->lock);
	return ret;
}

uint64_t
pack_nth_offset(const struct pack *p, uint32_t n)
{
	uint32_t off;

	if (p->idx_version == 1)
		return get_be32(p->ids + PACK_V1_ENTRY * (size_t)n);
	off = get_be32(p->off32 + 4 * (size_t)n);
	if (!(off & 0x80000000u))
		return off;
	off &= 0x7fffffffu;
	if (off >= p->nr_large)
		return 0;
	return get_be64(p->off64 + 8 * (size_t)off);
}

int
pack_find(const struct pack *p, const struct object_id *oid, uint32_t *n)
{
	int b = oid->hash[0];
	uint32_t lo = b ? get_be32(p->fanout + 4 * (b - 1)) : 0;
	uint32_t hi = get_be32(p->fanout + 4 * b);

	uint64_t key = get_be64(oid->hash);

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const unsigned char *id = pack_nth_id(p, mid);
		uint64_t first = get_be64(id);
		/* the first 8 bytes decide all but the last step or two */
		int cmp = key != first ? (key < first ? -1 : 1) :
			memcmp(oid->hash, id, HASH_RAWSZ);

		if (!cmp) {
			*n = mid;
			return 1;
		}
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return 0;
}

/* Compare the first len hex digits of id with prefix bytes. */
void
pack_mark_bad(struct pack *p, uint64_t offset)
{
	if (pack_is_bad(p, offset))
		return;
	pthread_mutex_lock(&p->lock);
	ALLOC_GROW(p->bad, p->nr_bad + 1, p->alloc_bad);
	p->bad[p->nr_bad] = offset;
	__atomic_store_n(&p->nr_bad, p->nr_bad + 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&p->lock);
}

int
pack_is_bad(struct pack *p, uint64_t offset)
{
	int found = 0;

	if (!__atomic_load_n(&p->nr_bad, __ATOMIC_ACQUIRE))
		return 0;
	pthread_mutex_lock(&p->lock);
	for (uint32_t i = 0; i < p->nr_bad && !found; i++)
		found = p->bad[i] == offset;
	pthread_mutex_unlock(&p->lock);
	return found;
}

static int
prefix_cmp(const unsigned char *id, const unsigned char *prefix, size_t len)
{
	size_t bytes = len / 2;
	int cmp = memcmp(id, prefix, bytes);

	if (cmp || !(len & 1))
		return cmp;
	return (int)(id[bytes] & 0xf0) - (int)(prefix[bytes] & 0xf0);
}

void
pack_find_prefix(const struct pack *p, const unsigned char *prefix,
		 size_t len, uint32_t *first, uint32_t *last)
{
	int b = prefix[0];
	uint32_t lo = b ? get_be32(p->fanout + 4 * (b - 1)) : 0;
	uint32_t hi = get_be32(p->fanout + 4 * b), end;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (prefix_cmp(pack_nth_id(p, mid), prefix, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	end = lo;
	while (end < p->nr && !prefix_cmp(pack_nth_id(p, end), prefix, len))
		end++;
	*first = lo;
	*last = end;
}

/* ---- object headers ---- */

struct obj_header {
	int type;		/* 1..4, 6, 7 */
	size_t size;		/* inflated size (of the delta for deltas) */
	uint64_t data_off;	/* where the zlib stream starts */
	uint64_t base_off;	/* OFS_DELTA: the base's offset */
	struct object_id base_id; /* REF_DELTA: the base's id */
};

static int
at_offset(const struct pack *p, uint64_t off, const char *why)
{
	return error_set(E_CORRUPT, "packfile %s: object at offset %llu: %s",
			 p->pack_path, (unsigned long long)off, why);
}

static int
read_header(struct pack *p, uint64_t off, struct obj_header *h)
{
	const unsigned char *d = p->data, *end;
	uint64_t size;
	unsigned shift;
	unsigned char c;

	if (off < 12 || off >= p->data_len - HASH_RAWSZ)
		return at_offset(p, off, "offset out of range");
	d += off;
	end = p->data + p->data_len - HASH_RAWSZ;
	c = *d++;
	h->type = (c >> 4) & 7;
	size = c & 15;
	shift = 4;
	while (c & 0x80) {
		if (d >= end || shift > 60)
			return at_offset(p, off, "bad object header");
		c = *d++;
		size |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	}
	if (size > SIZE_MAX / 2)
		return at_offset(p, off, "object too large");
	h->size = size;
	switch (h->type) {
	case OBJ_COMMIT:
	case OBJ_TREE:
	case OBJ_BLOB:
	case OBJ_TAG:
		break;
	case OBJ_OFS_DELTA: {
		uint64_t rel;

		if (d >= end)
			return at_offset(p, off, "bad delta base offset");
		c = *d++;
		rel = c & 0x7f;
		while (c & 0x80) {
			if (d >= end || rel > (UINT64_MAX >> 8))
				return at_offset(p, off, "bad delta base "
						 "offset");
			c = *d++;
			rel = ((rel + 1) << 7) | (c & 0x7f);
		}
		if (!rel || rel > off)
			return at_offset(p, off, "delta base offset out of "
					 "range");
		h->base_off = off - rel;
		break;
	}
	case OBJ_REF_DELTA:
		if (end - d < HASH_RAWSZ)
			return at_offset(p, off, "truncated delta base id");
		oid_from_raw(&h->base_id, d);
		d += HASH_RAWSZ;
		break;
	default:
		return at_offset(p, off, "unknown object type");
	}
	h->data_off = d - p->data;
	return 0;
}

/*
 * Inflate size bytes of the stream at h->data_off (exactly: the stream
 * must end there).  *out owned (NUL-terminated).
 */
static int
inflate_at(struct pack *p, uint64_t off, const struct obj_header *h,
	   unsigned char **out)
{
	size_t avail = p->data_len - HASH_RAWSZ - h->data_off;
	unsigned char *buf;
	enum inflate_result r;

	*out = NULL;
	/* zlib cannot expand more than about 1032:1 */
	if (h->size / 1032 > avail + 1)
		return at_offset(p, off, "size larger than the data could "
				 "hold");
	buf = xmalloc(st_add(h->size, 1));
	r = inflate_exact(buf, h->size, p->data + h->data_off, avail);
	if (r != INFLATE_OK) {
		free(buf);
		return at_offset(p, off, r == INFLATE_SHORT ?
				 "inflated size differs from the header" :
				 "corrupt zlib data");
	}
	buf[h->size] = '\0';
	*out = buf;
	return 0;
}

/* ---- deltas ---- */

static int
delta_varint(const unsigned char **p, const unsigned char *end, size_t *out)
{
	size_t v = 0;
	unsigned shift = 0;
	unsigned char c;

	do {
		if (*p >= end || shift > 56)
			return -1;
		c = *(*p)++;
		v |= (size_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	*out = v;
	return 0;
}

/*
 * Walk the instructions: with out NULL only check them and count the
 * result's bytes.
 */
static int
walk_delta(const unsigned char *base, size_t base_len,
	   const unsigned char *d, const unsigned char *end,
	   unsigned char *out, size_t *produced)
{
	size_t n = 0;

	while (d < end) {
		unsigned char op = *d++;

		if (op & 0x80) {
			size_t coff = 0, csize = 0;

			for (int i = 0; i < 4; i++)
				if (op & (1 << i)) {
					if (d >= end)
						return -1;
					coff |= (size_t)*d++ << (8 * i);
				}
			for (int i = 0; i < 3; i++)
				if (op & (0x10 << i)) {
					if (d >= end)
						return -1;
					csize |= (size_t)*d++ << (8 * i);
				}
			if (!csize)
				csize = 0x10000;
			if (coff > base_len || csize > base_len - coff)
				return -2;
			if (out)
				memcpy(out + n, base + coff, csize);
			n += csize;
		} else if (op) {
			if ((size_t)(end - d) < op)
				return -1;
			if (out)
				memcpy(out + n, d, op);
			d += op;
			n += op;
		} else {
			return -3;
		}
	}
	*produced = n;
	return 0;
}

int
pack_apply_delta(const unsigned char *base, size_t base_len,
		 const unsigned char *delta, size_t delta_len,
		 unsigned char **out, size_t *out_len)
{
	const unsigned char *d = delta, *end = delta + delta_len;
	size_t src, dst, produced;
	unsigned char *buf;
	int ret;

	*out = NULL;
	if (delta_varint(&d, end, &src) || delta_varint(&d, end, &dst))
		return error_set(E_CORRUPT, "delta header is truncated");
	if (src != base_len)
		return error_set(E_CORRUPT, "delta expects a base of %zu bytes, "
				 "the base has %zu", src, base_len);
	/* check every instruction and the result size before allocating */
	ret = walk_delta(base, base_len, d, end, NULL, &produced);
	if (ret == -2)
		return error_set(E_CORRUPT, "delta copies past the end of its "
				 "base");
	if (ret == -3)
		return error_set(E_CORRUPT, "delta uses the reserved "
				 "instruction 0");
	if (ret < 0)
		return error_set(E_CORRUPT, "delta instruction is truncated");
	if (produced != dst)
		return error_set(E_CORRUPT, "delta result size lies: header "
				 "says %zu, instructions give %zu", dst,
				 produced);
	buf = xmalloc(st_add(dst, 1));
	walk_delta(base, base_len, d, end, buf, &produced);
	buf[dst] = '\0';
	*out = buf;
	*out_len = dst;
	return 0;
}

/* ---- the delta base cache ---- */

/*
 * A cached base, counted: a reader holds a reference while it applies
 * a delta to it, so another thread may evict the entry meanwhile.
 */
struct cache_buf {
	atomic_int refs;
	int type;
	size_t size;
	unsigned char *data;	/* owned */
};

struct cache_ent {
	uint64_t serial;	/* of the pack (addresses are reused) */
	uint64_t off;
	struct cache_buf *buf;	/* one reference */
	struct cache_ent *hnext;	/* in its bucket */
	struct cache_ent *prev, *next;	/* in use order, newest first */
};

struct pack_cache {
	struct cache_ent *bucket[DELTA_CACHE_BUCKETS];
	struct cache_ent lru;	/* the list's head: lru.next is the newest */
	size_t bytes, nr;
	int shared;		/* lock around every use */
	pthread_mutex_t lock;
};

static size_t
cache_hash(uint64_t serial, uint64_t off)
{
	uint64_t h = (serial * 0xff51afd7ed558ccdull) ^
		     (off * 0x9e3779b97f4a7c15ull);

	return (h >> 32) % DELTA_CACHE_BUCKETS;
}

static size_t
cache_index(const struct pack *p, uint64_t off)
{
	return cache_hash(p->serial, off);
}

static pthread_key_t cache_key;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;

static void cache_free(void *cache);

static void
cache_free_main(void)
{
	void *c = pthread_getspecific(cache_key);

	pthread_setspecific(cache_key, NULL);
	cache_free(c);
}

static void
cache_setup(void)
{
	if (pthread_key_create(&cache_key, cache_free))
		die_oom(sizeof(cache_key));
	atexit(cache_free_main);
}

static struct pack_cache *
cache_of(const struct pack_env *env)
{
	struct pack_cache *c;

	if (env->shared)
		return env->shared;
	pthread_once(&cache_once, cache_setup);
	c = pthread_getspecific(cache_key);
	if (!c) {
		c = xcalloc(1, sizeof(*c));
		if (pthread_setspecific(cache_key, c))
			die_oom(sizeof(*c));
	}
	return c;
}

static void
cache_lock(struct pack_cache *c)
{
	if (c->shared)
		pthread_mutex_lock(&c->lock);
}

static void
cache_unlock(struct pack_cache *c)
{
	if (c->shared)
		pthread_mutex_unlock(&c->lock);
}

static void
cache_unref(struct cache_buf *b)
{
	if (b && atomic_fetch_sub_explicit(&b->refs, 1,
					   memory_order_acq_rel) == 1) {
		free(b->data);
		free(b);
	}
}

static void
lru_unlink(struct cache_ent *e)
{
	e->prev->next = e->next;
	e->next->prev = e->prev;
}

static void
lru_push(struct pack_cache *c, struct cache_ent *e)
{
	if (!c->lru.next) {
		c->lru.next = &c->lru;
		c->lru.prev = &c->lru;
	}
	e->prev = &c->lru;
	e->next = c->lru.next;
	c->lru.next->prev = e;
	c->lru.next = e;
}

/* Locked.  Unlink e from its bucket and the list, and free it. */
static void
cache_drop(struct pack_cache *c, struct cache_ent *e)
{
	struct cache_ent **pp = &c->bucket[cache_hash(e->serial, e->off)];

	while (*pp != e)
		pp = &(*pp)->hnext;
	*pp = e->hnext;
	lru_unlink(e);
	c->bytes -= e->buf->size;
	c->nr--;
	cache_unref(e->buf);
	free(e);
}

/* Locked. */
static struct cache_ent *
cache_find(struct pack_cache *c, const struct pack *p, uint64_t off)
{
	struct cache_ent *e = c->bucket[cache_index(p, off)];

	while (e && (e->serial != p->serial || e->off != off))
		e = e->hnext;
	return e;
}

/* The base at (p, off) with a reference taken, or NULL. */
static struct cache_buf *
cache_get(struct pack_cache *c, const struct pack *p, uint64_t off)
{
	struct cache_ent *e;
	struct cache_buf *b = NULL;

	cache_lock(c);
	e = cache_find(c, p, off);
	if (e) {
		lru_unlink(e);
		lru_push(c, e);
		b = e->buf;
		atomic_fetch_add_explicit(&b->refs, 1, memory_order_relaxed);
	}
	cache_unlock(c);
	return b;
}

/*
 * Keep data (size bytes, malloc'd) as the object at (p, off): the cache
 * takes it over.  Returns 1 if it did, 0 if the caller still owns it.
 */
static int
cache_put(struct pack_cache *c, const struct pack *p, uint64_t off,
	  int type, unsigned char *data, size_t size)
{
	struct cache_ent *e;
	struct cache_buf *b;
	size_t i = cache_index(p, off);

	if (size > DELTA_CACHE_BYTES / 4)
		return 0;
	b = xmalloc(sizeof(*b));
	atomic_init(&b->refs, 1);
	b->type = type;
	b->size = size;
	b->data = data;
	e = xmalloc(sizeof(*e));
	e->serial = p->serial;
	e->off = off;
	e->buf = b;
	cache_lock(c);
	{
		/* another thread may have put it meanwhile */
		struct cache_ent *old = cache_find(c, p, off);

		if (old)
			cache_drop(c, old);
	}
	/* make room by dropping the least recently used */
	while (c->nr && (c->bytes + size > DELTA_CACHE_BYTES ||
			 c->nr >= DELTA_CACHE_ENTRIES))
		cache_drop(c, c->lru.prev);
	e->hnext = c->bucket[i];
	c->bucket[i] = e;
	lru_push(c, e);
	c->bytes += size;
	c->nr++;
	cache_unlock(c);
	return 1;
}

static void
cache_empty(struct pack_cache *c)
{
	cache_lock(c);
	while (c->nr)
		cache_drop(c, c->lru.prev);
	cache_unlock(c);
}

static void
cache_free(void *cache)
{
	struct pack_cache *c = cache;

	if (!c)
		return;
	cache_empty(c);
	if (c->shared)
		pthread_mutex_destroy(&c->lock);
	free(c);
}

void
pack_cache_clear(void)
{
	struct pack_cache *c;

	pthread_once(&cache_once, cache_setup);
	c = pthread_getspecific(cache_key);
	if (c)
		cache_empty(c);
}

struct pack_cache *
pack_cache_new_shared(void)
{
	struct pack_cache *c = xcalloc(1, sizeof(*c));

	c->shared = 1;
	if (pthread_mutex_init(&c->lock, NULL))
		die_oom(sizeof(c->lock));
	return c;
}

void
pack_cache_free(struct pack_cache *c)
{
	cache_free(c);
}

/* ---- reading objects ---- */

struct link {
	struct pack *p;
	uint64_t off;
};

static ssize_t rev_find(struct pack *p, uint64_t offset);

int
pack_id_at(struct pack *p, uint64_t offset, struct object_id *oid)
{
	ssize_t r = rev_find(p, offset);

	if (r < 0 || p->rev[r] != offset)
		return -1;
	oid_from_raw(oid, pack_nth_id(p, p->rev_pos[r]));
	return 0;
}

/*
 * Reading the object at (p, off), the base of a delta, failed (the
 * error is set): as git, say so, mark this copy bad and look for
 * another.  1 with *bp and *boff set (another pack), 0 with *type and,
 * unless data is NULL, *data and *size set (loose), or the first error
 * again when there is no other copy.
 */
static int
base_elsewhere(const struct pack_env *env, struct pack *p, uint64_t off,
	       struct pack **bp, uint64_t *boff, int *type,
	       unsigned char **data, size_t *size)
{
	struct error_saved err = ERROR_SAVED_INIT;
	struct object_id oid;
	int ret;

	if (error_code() != E_CORRUPT || pack_id_at(p, off, &oid) < 0)
		return -error_code();
	error_save(&err);
	if (!pack_is_bad(p, off)) {	/* said once */
		diag_emit(DIAG_ERROR, "%s", err.msg);
		diag_emit(DIAG_ERROR, "failed to read delta base object %s "
			  "at offset %llu from %s", oid_to_hex(&oid),
			  (unsigned long long)off, p->pack_path);
		pack_mark_bad(p, off);
	}
	ret = env->find(env->ctx, &oid, bp, boff, type, data, size);
	if (ret < 0)
		ret = error_restore(&err);
	else
		error_clear();
	error_saved_release(&err);
	return ret;
}

/*
 * The whole object at (p, off), a delta's base, from another copy when
 * this one is corrupt.
 */
static int
read_base_elsewhere(const struct pack_env *env, struct pack *p,
		    uint64_t off, int *type, unsigned char **data,
		    size_t *size)
{
	struct pack *bp;
	uint64_t boff;
	int ret = base_elsewhere(env, p, off, &bp, &boff, type, data, size);

	if (ret == 1)
		ret = pack_read_object(env, bp, boff, type, data, size);
	return ret;
}

/*
 * Where is the base of the delta at (p, off)?  Another packed object
 * (*bp, *boff), or a loose one (*loose set, read into base/base_len).
 */
static int
find_base(const struct pack_env *env, struct pack *p, uint64_t off,
	  const struct obj_header *h, struct pack **bp, uint64_t *boff,
	  int *loose, int *type, unsigned char **base, size_t *base_len)
{
	int ret;

	*loose = 0;
	if (h->type == OBJ_OFS_DELTA) {
		*bp = p;
		*boff = h->base_off;
		return 0;
	}
	{
		/* the base is usually in the same pack */
		uint32_t n;

		if (pack_find(p, &h->base_id, &n) &&
		    (*boff = pack_nth_offset(p, n))) {
			*bp = p;
			return 0;
		}
	}
	ret = env->find(env->ctx, &h->base_id, bp, boff, type, base,
			base_len);
	if (ret == 1)
		return 0;
	if (ret < 0)
		return at_offset(p, off, ret == -E_NOTFOUND ? "delta base "
				 "object is missing" : error_msg());
	*loose = 1;
	return 0;
}

int
pack_read_object(const struct pack_env *env, struct pack *p,
		 uint64_t offset, int *type, unsigned char **data,
		 size_t *size)
{
	struct pack_cache *cache = cache_of(env);
	struct link *chain = NULL;
	size_t nr = 0, alloc = 0;
	struct pack *cp = p;
	uint64_t coff = offset;
	unsigned char *cur = NULL;
	struct cache_buf *borrowed = NULL;	/* cur is its data */
	size_t cur_len = 0;
	int cur_type = 0, ret, cur_packed = 1;
	struct obj_header h;

	*data = NULL;
	/* walk down to something we can start from */
	for (;;) {
		int loose;

		ret = pack_map(cp);
		if (ret < 0)
			goto out;
		borrowed = cache_get(cache, cp, coff);
		if (borrowed) {
			/* read in place: the reference keeps it alive */
			cur = borrowed->data;
			cur_len = borrowed->size;
			cur_type = borrowed->type;
			break;
		}
		ret = read_header(cp, coff, &h);
		if (ret >= 0 &&
		    h.type != OBJ_OFS_DELTA && h.type != OBJ_REF_DELTA) {
			ret = inflate_at(cp, coff, &h, &cur);
			cur_len = h.size;
			cur_type = h.type;
			if (ret >= 0)
				break;
		}
		if (ret >= 0 && nr >= MAX_CHAIN)
			ret = at_offset(p, offset, "delta chain too long (a "
					"cycle?)");
		if (ret >= 0) {
			struct pack *bp;
			uint64_t boff;

			ret = find_base(env, cp, coff, &h, &bp, &boff, &loose,
					&cur_type, &cur, &cur_len);
			/* reference deltas could loop: look for a repeat */
			for (size_t i = 0; ret >= 0 && !loose &&
			     h.type == OBJ_REF_DELTA && i < nr; i++)
				if ((chain[i].p == bp && chain[i].off == boff) ||
				    (bp == cp && boff == coff))
					ret = at_offset(cp, coff, "delta chain "
							"loops back on "
							"itself");
			if (ret >= 0) {
				ALLOC_GROW(chain, nr + 1, alloc);
				chain[nr].p = cp;
				chain[nr].off = coff;
				nr++;
				if (loose) {
					cur_packed = 0;	/* not at (cp, coff) */
					break;
				}
				cp = bp;
				coff = boff;
				continue;
			}
		}
		if (nr) {
			/* a corrupt base: another copy of it may serve */
			struct pack *bp;
			uint64_t boff;

			ret = base_elsewhere(env, cp, coff, &bp, &boff,
					     &cur_type, &cur, &cur_len);
			if (ret == 1) {
				cp = bp;
				coff = boff;
				continue;
			}
			/* none: the deltas above may have copies (below) */
			cur_packed = 0;	/* not at (cp, coff) */
			if (ret < 0)
				cur = NULL;
			break;
		}
		goto out;
	}
	/* apply the deltas from the bottom up */
	while (nr--) {
		unsigned char *delta, *next = NULL;
		size_t next_len = 0;
		int next_type = cur_type, next_packed = 1;

		/* no base (its error set): this delta cannot be made here */
		ret = cur ? read_header(chain[nr].p, chain[nr].off, &h) :
		      error_code() ? -error_code() : -E_CORRUPT;
		if (ret >= 0)
			ret = inflate_at(chain[nr].p, chain[nr].off, &h,
					 &delta);
		if (ret >= 0) {
			ret = pack_apply_delta(cur, cur_len, delta, h.size,
					       &next, &next_len);
			free(delta);
			if (ret < 0)
				ret = at_offset(chain[nr].p, chain[nr].off,
						error_msg());
		}
		if (ret < 0 && nr) {
			/* this delta is the next one's base: read it from
			 * another copy if there is one; if not, go on up
			 * without a base, as git, in case one above has */
			ret = read_base_elsewhere(env, chain[nr].p,
						  chain[nr].off, &next_type,
						  &next, &next_len);
			next_packed = 0;
			if (ret < 0) {
				next = NULL;
				ret = 0;
			}
		}
		if (ret < 0)
			goto out;
		/* every base on the way up may serve another delta: the
		 * cache takes it over rather than a copy (a borrowed one
		 * is in it already) */
		if (borrowed) {
			cache_unref(borrowed);
			borrowed = NULL;
		} else if (!cur_packed || !cache_put(cache, cp, coff, cur_type,
						     cur, cur_len)) {
			free(cur);
		}
		cur_packed = next_packed;
		cur = next;
		cur_len = next_len;
		cur_type = next_type;
		cp = chain[nr].p;
		coff = chain[nr].off;
	}
	*type = cur_type;
	*data = borrowed ? xmemdupz(cur, cur_len) : cur;
	*size = cur_len;
	cur = NULL;
	ret = 0;
out:
	if (borrowed)
		cache_unref(borrowed);
	else
		free(cur);
	free(chain);
	return ret;
}

/*
 * Build the reverse index: offsets in pack order, with positions.  Any
 * thread may ask; the first builds it under p->lock and publishes it.
 */
static void
build_rev(struct pack *p)
{
	struct { uint64_t off; uint32_t pos; } *tmp;
	uint64_t *rev;

	if (__atomic_load_n(&p->rev, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&p->lock);
	if (p->rev) {
		pthread_mutex_unlock(&p->lock);
		return;
	}
	tmp = xmalloc(st_mult(p->nr + 1, sizeof(*tmp)));
	for (uint32_t i = 0; i < p->nr; i++) {
		tmp[i].off = pack_nth_offset(p, i);
		tmp[i].pos = i;
	}
	sort_array(tmp, p->nr, sizeof(*tmp), cmp_u64);
	rev = xmalloc(st_mult(p->nr + 1, sizeof(*rev)));
	p->rev_pos = xmalloc(st_mult(p->nr + 1, sizeof(*p->rev_pos)));
	for (uint32_t i = 0; i < p->nr; i++) {
		rev[i] = tmp[i].off;
		p->rev_pos[i] = tmp[i].pos;
	}
	rev[p->nr] = p->data_len - HASH_RAWSZ;
	p->rev_pos[p->nr] = UINT32_MAX;
	free(tmp);
	__atomic_store_n(&p->rev, rev, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&p->lock);
}

/* Index (in p->rev) of offset, or -1. */
static ssize_t
rev_find(struct pack *p, uint64_t offset)
{
	size_t lo = 0, hi = p->nr;

	build_rev(p);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->rev[mid] == offset)
			return mid;
		if (p->rev[mid] < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

uint64_t
pack_object_disk_size(struct pack *p, uint64_t offset)
{
	ssize_t r;

	if (pack_map(p) < 0)
		return 0;
	r = rev_find(p, offset);
	return r < 0 ? 0 : p->rev[r + 1] - offset;
}

/* The result size a delta's header announces. */
static int
delta_result_size(struct pack *p, uint64_t off, const struct obj_header *h,
		  size_t *size)
{
	unsigned char buf[32];
	const unsigned char *d = buf, *end;
	size_t src;
	z_stream zs;

	/* the header's two sizes, usually without setting zlib up */
	end = buf + inflate_prefix(buf, sizeof(buf), p->data + h->data_off,
				   p->data_len - HASH_RAWSZ - h->data_off);
	if (!delta_varint(&d, end, &src) && !delta_varint(&d, end, size))
		return 0;
	d = buf;
	memset(&zs, 0, sizeof(zs));
	if (inflateInit(&zs) != Z_OK)
		die_oom(sizeof(zs));
	zs.next_in = (unsigned char *)p->data + h->data_off;
	zs.avail_in = MIN((uint64_t)1024, p->data_len - HASH_RAWSZ -
			  h->data_off);
	zs.next_out = buf;
	zs.avail_out = sizeof(buf);
	inflate(&zs, Z_SYNC_FLUSH);
	end = buf + (sizeof(buf) - zs.avail_out);
	inflateEnd(&zs);
	if (delta_varint(&d, end, &src) || delta_varint(&d, end, size))
		return at_offset(p, off, "corrupt delta header");
	return 0;
}

/* ---- the types at the end of delta chains ---- */

#define TYPES_MIN 1024

static size_t
types_slot(uint64_t off, size_t cap)
{
	return (size_t)((off * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
}

/* The type remembered for the object at off, or 0. */
static int
types_get(struct pack *p, uint64_t off)
{
	uint64_t *t = __atomic_load_n(&p->types, __ATOMIC_ACQUIRE);
	size_t cap, i;

	if (!t)
		return 0;
	cap = p->types_cap;
	for (i = types_slot(off, cap);; i = (i + 1) & (cap - 1)) {
		uint64_t v = __atomic_load_n(&t[i], __ATOMIC_RELAXED);

		if (!v)
			return 0;
		if (v >> 3 == off)
			return v & 7;
	}
}

/*
 * Remember type for off.  The table has room for twice the pack's
 * objects, so it never fills; made on first use, under p->lock.
 */
static void
types_put(struct pack *p, uint64_t off, int type)
{
	uint64_t *t = __atomic_load_n(&p->types, __ATOMIC_ACQUIRE);
	uint64_t v = off << 3 | (uint64_t)type;
	size_t cap;

	if (!t) {
		pthread_mutex_lock(&p->lock);
		if (!p->types) {
			cap = TYPES_MIN;
			while (cap < (size_t)p->nr * 2)
				cap *= 2;
			p->types_cap = cap;
			__atomic_store_n(&p->types, xcalloc(cap, sizeof(*t)),
					 __ATOMIC_RELEASE);
		}
		pthread_mutex_unlock(&p->lock);
		t = p->types;
	}
	cap = p->types_cap;
	for (size_t i = types_slot(off, cap);; i = (i + 1) & (cap - 1)) {
		uint64_t old = 0;

		if (__atomic_compare_exchange_n(&t[i], &old, v, 0,
						__ATOMIC_RELAXED,
						__ATOMIC_RELAXED) ||
		    old >> 3 == off)
			return;
	}
}

#define TYPES_CHAIN 64		/* offsets of a chain remembered at most */

/*
 * pack_object_info() found no copy of the base at depth of the chain
 * from (p, offset) (the error is set).  As git, try the deltas above it,
 * nearest first: another copy of one gives the type.  0 with *type set,
 * or the error again.
 */
static int
info_unwind(const struct pack_env *env, struct pack *p, uint64_t offset,
	    size_t depth, int *type)
{
	struct link *chain;
	struct pack *cp = p;
	uint64_t coff = offset;
	struct error_saved err = ERROR_SAVED_INIT;
	size_t nr = 0;
	int ret;

	error_save(&err);
	chain = xmalloc(st_mult(depth, sizeof(*chain)));
	/* the same walk again, to where it failed */
	while (nr < depth) {
		struct obj_header h;
		int bt;

		chain[nr].p = cp;
		chain[nr].off = coff;
		nr++;
		if (read_header(cp, coff, &h) < 0)
			break;
		if (h.type == OBJ_OFS_DELTA)
			coff = h.base_off;
		else if (h.type != OBJ_REF_DELTA ||
			 env->find(env->ctx, &h.base_id, &cp, &coff, &bt,
				   NULL, NULL) != 1)
			break;
	}
	ret = error_restore(&err);
	while (nr-- > 1) {
		struct pack *bp;
		uint64_t boff;
		size_t size;
		int bt, r;

		r = base_elsewhere(env, chain[nr].p, chain[nr].off, &bp, &boff,
				   &bt, NULL, NULL);
		if (r == 1)
			r = pack_object_info(env, bp, boff, &bt, &size, NULL);
		if (r >= 0) {
			*type = bt;
			ret = 0;
			break;
		}
		error_restore(&err);
	}
	if (!ret)
		error_clear();
	error_saved_release(&err);
	free(chain);
	return ret;
}

int
pack_object_info(const struct pack_env *env, struct pack *p,
		 uint64_t offset, int *type, size_t *size,
		 struct object_id *delta_base)
{
	struct obj_header h;
	struct pack *cp = p;
	uint64_t coff = offset;
	uint64_t seen[TYPES_CHAIN];	/* deltas of p walked through */
	size_t nseen = 0;
	int ret, t = 0, found = 0;
	struct pack *rbp = NULL;	/* where a reference delta's base is */
	uint64_t rboff = 0;
	int rbt = 0, where = 0;

	if (delta_base)
		*delta_base = null_oid;
	for (size_t depth = 0; depth < MAX_CHAIN; depth++) {
		ret = pack_map(cp);
		if (ret < 0)
			return ret;
		if (depth && cp == p && (t = types_get(p, coff))) {
			found = 1;
			break;
		}
		ret = read_header(cp, coff, &h);
		if (ret >= 0 && h.type == OBJ_REF_DELTA) {
			where = env->find(env->ctx, &h.base_id, &rbp, &rboff,
					  &rbt, NULL, NULL);
			if (where < 0)
				ret = at_offset(cp, coff, "delta base object "
						"is missing");
		}
		if (ret < 0 && depth) {
			/* a corrupt base: another copy of it may serve */
			struct pack *bp;
			uint64_t boff;
			int bt;

			ret = base_elsewhere(env, cp, coff, &bp, &boff, &bt,
					     NULL, NULL);
			if (ret == 1) {
				cp = bp;
				coff = boff;
				continue;
			}
			if (!ret) {
				t = bt;
				found = 1;
				break;
			}
			ret = info_unwind(env, p, offset, depth, &t);
			if (!ret) {
				found = 1;
				break;
			}
		}
		if (ret < 0)
			return ret;
		if (!depth) {
			int delta = h.type == OBJ_OFS_DELTA ||
				    h.type == OBJ_REF_DELTA;

			*size = h.size;
			if (delta) {
				ret = delta_result_size(cp, coff, &h, size);
				if (ret < 0)
					return ret;
			}
			if (delta_base && h.type == OBJ_REF_DELTA) {
				*delta_base = h.base_id;
			} else if (delta_base && h.type == OBJ_OFS_DELTA) {
				ssize_t r = rev_find(cp, h.base_off);

				if (r >= 0)
					memcpy(delta_base->hash, pack_nth_id(cp,
					       cp->rev_pos[r]), HASH_RAWSZ);
			}
		}
		if (h.type == OBJ_OFS_DELTA) {
			if (cp == p && nseen < TYPES_CHAIN)
				seen[nseen++] = coff;
			coff = h.base_off;
		} else if (h.type == OBJ_REF_DELTA) {
			if (cp == p && nseen < TYPES_CHAIN)
				seen[nseen++] = coff;
			if (!where) {
				t = rbt;
				found = 1;
				break;
			}
			cp = rbp;
			coff = rboff;
		} else {
			t = h.type;
			found = 1;
			break;
		}
	}
	if (!found)
		return at_offset(p, offset, "delta chain too long (a cycle?)");
	/* every delta of p on the way ends at that type: remember it */
	if (t >= OBJ_COMMIT && t <= OBJ_TAG)
		for (size_t i = 0; i < nseen; i++)
			types_put(p, seen[i], t);
	*type = t;
	return 0;
}

/* ---- verification ---- */

static int
check_trailer(const char *path, const unsigned char *data, size_t len)
{
	unsigned char sum[HASH_MAX_RAWSZ];

	hash_buffer(sum, data, len - HASH_RAWSZ);
	if (memcmp(sum, data + len - HASH_RAWSZ, HASH_RAWSZ))
		return error_set(E_CORRUPT, "%s: checksum mismatch (trailer "
				 "does not match contents)", path);
	return 0;
}

/* Delta depth of the object at rev position r (memoised in depth[]). */
static unsigned
chain_depth(struct pack *p, size_t r, unsigned *depth, struct object_id *base)
{
	size_t cur = r;
	unsigned d = 0;

	*base = null_oid;
	for (size_t guard = 0; guard < MAX_CHAIN; guard++) {
		struct obj_header h;
		ssize_t next;
		uint32_t n;

		if (depth[cur] != UINT_MAX) {
			d += depth[cur];
			break;
		}
		if (read_header(p, p->rev[cur], &h) < 0) {
			error_clear();
			break;
		}
		if (h.type == OBJ_OFS_DELTA) {
			next = rev_find(p, h.base_off);
		} else if (h.type == OBJ_REF_DELTA && pack_find(p, &h.base_id,
								 &n)) {
			next = rev_find(p, pack_nth_offset(p, n));
		} else {
			break;	/* whole object (or a base elsewhere) */
		}
		/* an offset delta's base may lie outside the index */
		if (cur == r && h.type == OBJ_REF_DELTA)
			*base = h.base_id;
		else if (cur == r && next >= 0)
			memcpy(base->hash, pack_nth_id(p, p->rev_pos[next]),
			       HASH_RAWSZ);
		d++;
		if (next < 0)
			break;
		cur = next;
	}
	depth[r] = d;
	return d;
}

int
pack_verify(const struct pack_env *env, struct pack *p, struct strbuf *out,
	    int verbose)
{
	unsigned *depth, max_depth = 0;
	size_t *hist;
	int ret = pack_map(p);

	if (ret < 0)
		return ret;
	ret = check_trailer(p->pack_path, p->data, p->data_len);
	if (!ret)
		ret = check_trailer(p->idx_path, p->idx, p->idx_len);
	if (ret < 0)
		return ret;
	build_rev(p);
	/* objects start right after the header: nothing unlisted before */
	if (p->nr && p->rev[0] != 12)
		return error_set(E_CORRUPT, "packfile %s is corrupt: its first "
				 "indexed object is at offset %llu, not 12",
				 p->pack_path, (unsigned long long)p->rev[0]);
	/* and nothing past the end: each object's bytes end at the next */
	if (p->nr && p->rev[p->nr - 1] >= p->rev[p->nr])
		return error_set(E_CORRUPT, "packfile %s is corrupt: its index "
				 "lists an object at offset %llu, past the end "
				 "of its objects (%llu)", p->pack_path,
				 (unsigned long long)p->rev[p->nr - 1],
				 (unsigned long long)p->rev[p->nr]);
	depth = xmalloc(st_mult(p->nr + 1, sizeof(*depth)));
	for (uint32_t r = 0; r <= p->nr; r++)
		depth[r] = UINT_MAX;
	/* in pack order, so that delta bases are usually cached */
	for (uint32_t r = 0; r < p->nr && !ret; r++) {
		uint32_t i = p->rev_pos[r];
		uint64_t off = p->rev[r], in_pack = p->rev[r + 1] - off;
		struct object_id id, check, base;
		struct obj_header h;
		unsigned char *data;
		size_t size;
		unsigned d;
		int type;

		oid_from_raw(&id, pack_nth_id(p, i));
		if (r && off == p->rev[r - 1]) {
			ret = error_set(E_CORRUPT, "index file %s lists two "
					"objects at offset %llu", p->idx_path,
					(unsigned long long)off);
			break;
		}
		ret = pack_read_object(env, p, off, &type, &data, &size);
		if (ret < 0) {
			ret = error_set(E_CORRUPT, "packed object %s (stored "
					"in %s) is corrupt: %s", oid_to_hex(&id),
					p->pack_path, error_msg());
			break;
		}
		odb_hash(&check, type_name(type), data, size);
		free(data);
		if (!oideq(&id, &check)) {
			ret = error_set(E_CORRUPT, "packed object %s (stored "
					"in %s) does not hash to its name",
					oid_to_hex(&id), p->pack_path);
			break;
		}
		if (p->crcs && crc32(crc32(0, NULL, 0), p->data + off,
				     in_pack) != get_be32(p->crcs + 4 * (size_t)i)) {
			ret = error_set(E_CORRUPT, "packed object %s (stored in "
					"%s) has a bad CRC", oid_to_hex(&id),
					p->pack_path);
			break;
		}
		d = chain_depth(p, r, depth, &base);
		if (d > max_depth)
			max_depth = d;
		if (verbose != 1)
			continue;
		/* git verify-pack -v: a delta's size is the delta's */
		read_header(p, off, &h);
		strbuf_addf(out, "%s %-6s %zu %llu %llu", oid_to_hex(&id),
			    type_name(type), h.size,
			    (unsigned long long)in_pack,
			    (unsigned long long)off);
		if (d)
			strbuf_addf(out, " %u %s", d, oid_to_hex(&base));
		strbuf_addch(out, '\n');
	}
	if (!ret && verbose) {
		hist = xcalloc(max_depth + 1, sizeof(*hist));
		for (uint32_t r = 0; r < p->nr; r++)
			hist[depth[r]]++;
		if (hist[0])
			strbuf_addf(out, "non delta: %zu object%s\n", hist[0],
				    hist[0] == 1 ? "" : "s");
		for (unsigned k = 1; k <= max_depth; k++)
			if (hist[k])
				strbuf_addf(out, "chain length = %u: %zu "
					    "object%s\n", k, hist[k],
					    hist[k] == 1 ? "" : "s");
		free(hist);
	}
	free(depth);
	return ret;
}
