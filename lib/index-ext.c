/*
 * index-ext: the extension writer and EOIE/IEOT.
 *
 * EOIE ("end of index entries"), always the last extension:
 *
 *   offset  size     field
 *   0       4        offset of the first extension (= end of entries)
 *   4       hashsz   hash (the repository's algorithm) over, for each
 *                    extension before EOIE in file order, its 4-byte
 *                    signature and 4-byte big-endian size
 *
 * git 2.39 writes the full hash of the repository's algorithm (36 bytes
 * of data in a SHA-256 repository) but its reader only accepts 24, so
 * it never uses a SHA-256 EOIE; dirc accepts 4 + the hash length.
 *
 * IEOT ("index entry offset table"):
 *
 *   0       4        version, 1
 *   4 + 8k  4        offset of block k's first entry in the file
 *   8 + 8k  4        number of entries in block k
 *
 * git writes blocks of ceil(entries / blocks) entries (so maybe fewer
 * blocks than asked for).  In a version 4 index each block's first entry
 * shares no prefix with the one before it: its strip count is the whole
 * previous name and its suffix its whole name, so a block can be read
 * on its own.
 *
 * When git writes them (write side of read-cache.c, 2.39):
 *   - index.threads (bool or int; true = 0 = automatic, false = 1) is
 *     "set" when configured at all; GIT_TEST_INDEX_THREADS overrides;
 *   - EOIE: index.recordEndOfIndexEntries if set, else index.threads
 *     set and not 1;
 *   - IEOT: index.threads set and not 1, and index.recordOffsetTable if
 *     set (else yes); blocks: automatic -> entries / 10000 capped at
 *     CPUs - 1, N -> N capped at the entries (a negative N, compared
 *     as unsigned, too: the entries); written with 2 or more.
 */
#include "index-ext.h"

#include <limits.h>

#include "error.h"
#include "util.h"
#include "workers.h"

#define EOIE_HDR 8
#define THREAD_COST 10000	/* git: entries per reading thread */
#define IEOT_VERSION 1

void
ext_writer_init(struct ext_writer *w, struct bufwrite *bw, int eoie,
		uint64_t entries_end)
{
	w->bw = bw;
	w->want_eoie = eoie;
	w->entries_end = (uint32_t)entries_end;
	if (eoie) {
		hasher_init(&w->eoie);
		hasher_begin(&w->eoie);
	}
}

int
ext_writer_add(struct ext_writer *w, const char *sig, const void *data,
	       size_t len)
{
	unsigned char hdr[EOIE_HDR];
	int ret;

	memcpy(hdr, sig, 4);
	put_be32(hdr + 4, (uint32_t)len);
	if (w->want_eoie)
		hasher_update(&w->eoie, hdr, sizeof(hdr));
	ret = bufwrite_add(w->bw, hdr, sizeof(hdr));
	if (!ret && len)
		ret = bufwrite_add(w->bw, data, len);
	return ret;
}

void
ext_writer_release(struct ext_writer *w)
{
	if (w->want_eoie)
		hasher_release(&w->eoie);
	w->want_eoie = 0;
}

int
ext_writer_finish(struct ext_writer *w)
{
	unsigned char data[4 + HASH_MAX_RAWSZ], hdr[EOIE_HDR];
	int ret;

	if (!w->want_eoie)
		return 0;
	put_be32(data, w->entries_end);
	hasher_final(&w->eoie, data + 4);
	ext_writer_release(w);
	memcpy(hdr, "EOIE", 4);
	put_be32(hdr + 4, 4 + HASH_RAWSZ);
	ret = bufwrite_add(w->bw, hdr, sizeof(hdr));
	if (!ret)
		ret = bufwrite_add(w->bw, data, 4 + HASH_RAWSZ);
	return ret;
}

static int
bad_bool(const char *value, const char *key)
{
	return error_set(E_INVALID, "bad boolean config value '%s' for '%s'",
			 value ? value : "", key);
}

int
index_eoie_wanted(const struct repo_settings *s)
{
	if (s->record_eoie == -2)
		return bad_bool(s->record_eoie_bad,
				"index.recordendofindexentries");
	if (s->record_eoie >= 0)
		return s->record_eoie;
	return s->index_threads_set && s->index_threads != 1;
}

int
index_ieot_blocks(const struct repo_settings *s, size_t nr)
{
	int blocks;

	if (!s->index_threads_set || s->index_threads == 1)
		return 0;
	if (s->record_ieot == -2)
		return bad_bool(s->record_ieot_bad, "index.recordoffsettable");
	if (!s->record_ieot)
		return 0;
	if (!s->index_threads) {
		size_t b = nr / THREAD_COST;
		int cap = workers_online_cpus() - 1;

		blocks = b > (size_t)cap ? cap : (int)b;
	} else {
		/* a negative count, compared unsigned, caps to nr too */
		blocks = s->index_threads;
		if (blocks < 0 || (size_t)blocks > nr)
			blocks = nr > INT_MAX ? INT_MAX : (int)nr;
	}
	return blocks;
}

int
index_git_read_threads(const struct repo_settings *s, size_t nr)
{
	int n;

	if (!s || !s->index_threads_set)
		return 1;
	n = s->index_threads;
	if (!n) {
		size_t t = nr / THREAD_COST;
		int cpus = workers_online_cpus();

		n = t > (size_t)cpus ? cpus : (int)t;
	}
	return n;
}

void
ieot_encode(struct strbuf *out, const struct ieot_block *b, size_t n)
{
	unsigned char buf[8];

	put_be32(buf, IEOT_VERSION);
	strbuf_add(out, buf, 4);
	for (size_t i = 0; i < n; i++) {
		put_be32(buf, b[i].offset);
		put_be32(buf + 4, b[i].nr);
		strbuf_add(out, buf, 8);
	}
}

size_t
eoie_find(const unsigned char *map, size_t len)
{
	size_t rawsz = HASH_RAWSZ, eoie_len = EOIE_HDR + 4 + rawsz;
	size_t at, offset, src;
	unsigned char sum[HASH_MAX_RAWSZ];
	struct hasher *h;

	if (len < 12 + eoie_len + rawsz)
		return 0;
	at = len - rawsz - eoie_len;
	if (memcmp(map + at, "EOIE", 4) || get_be32(map + at + 4) != 4 + rawsz)
		return 0;
	offset = get_be32(map + at + 8);
	if (offset < 12 || offset >= at)
		return 0;
	h = hasher_thread();
	hasher_begin(h);
	for (src = offset; src < at; ) {
		if (at - src < EOIE_HDR)
			return 0;
		hasher_update(h, map + src, EOIE_HDR);
		if (get_be32(map + src + 4) > at - src - EOIE_HDR)
			return 0;
		src += EOIE_HDR + get_be32(map + src + 4);
	}
	hasher_final(h, sum);
	if (memcmp(sum, map + at + 12, rawsz))
		return 0;
	return offset;
}

enum ieot_result
ieot_find(struct ieot_block **out, size_t *n, const unsigned char *map,
	  size_t ext_offset, size_t ext_end, uint32_t nr, int *value)
{
	const unsigned char *p = NULL;
	size_t src = ext_offset, len = 0, blocks;
	struct ieot_block *b;
	uint64_t sum = 0;

	*out = NULL;
	*n = 0;
	/* eoie_find() checked that the headers chain up to ext_end */
	while (src + EOIE_HDR <= ext_end) {
		len = get_be32(map + src + 4);
		if (!memcmp(map + src, "IEOT", 4)) {
			p = map + src + EOIE_HDR;
			break;
		}
		src += EOIE_HDR + len;
	}
	if (!p)
		return IEOT_NONE;
	if (len < 4)
		return IEOT_BAD;
	if (get_be32(p) != IEOT_VERSION) {
		*value = (int)get_be32(p);
		return IEOT_BAD_VERSION;
	}
	blocks = (len - 4) / 8;
	if (!blocks) {
		*value = 0;
		return IEOT_BAD_COUNT;
	}
	if ((len - 4) % 8 || blocks > nr)
		return IEOT_BAD;
	b = xmalloc(st_mult(blocks, sizeof(*b)));
	for (size_t i = 0; i < blocks; i++) {
		b[i].offset = get_be32(p + 4 + 8 * i);
		b[i].nr = get_be32(p + 8 + 8 * i);
		sum += b[i].nr;
		if (!b[i].nr || b[i].offset >= ext_offset ||
		    (i ? b[i].offset <= b[i - 1].offset : b[i].offset != 12)) {
			free(b);
			return IEOT_BAD;
		}
	}
	if (sum != nr) {
		free(b);
		return IEOT_BAD;
	}
	*out = b;
	*n = blocks;
	return IEOT_OK;
}
