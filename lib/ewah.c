/*
 * ewah: build, serialise, read and walk EWAH bitmaps (see ewah.h for the
 * format).
 *
 * A marker word, bit by bit:
 *
 *   bit 0       the value of its clean words (0 or 1)
 *   bits 1-32   how many clean words it stands for
 *   bits 33-63  how many literal words follow it
 *
 * The builder keeps git's shape exactly, since the split index's file
 * name is the hash of its bytes: the first word is always a marker; a
 * run of clean words extends the last marker when that marker has no
 * literals yet (and holds the same value, or nothing), else a new marker
 * starts; a literal is counted by the last marker unless its count is
 * full; a literal word that fills up with ones becomes a clean word of
 * ones.
 */
#include "ewah.h"

#include <stdio.h>

#include "util.h"

#define WORD_BITS 64
#define RUN_MAX 0xffffffffULL		/* 32 bits of run length */
#define LIT_MAX 0x7fffffffULL		/* 31 bits of literal count */
#define LIT_SHIFT 33

static inline int
run_bit(uint64_t w)
{
	return (int)(w & 1);
}

static inline uint64_t
run_len(uint64_t w)
{
	return (w >> 1) & RUN_MAX;
}

static inline uint64_t
lit_count(uint64_t w)
{
	return w >> LIT_SHIFT;
}

static inline void
set_run_bit(uint64_t *w, int v)
{
	*w = (*w & ~(uint64_t)1) | (uint64_t)(v & 1);
}

static inline void
set_run_len(uint64_t *w, uint64_t n)
{
	*w = (*w & ~(RUN_MAX << 1)) | (n << 1);
}

static inline void
set_lit_count(uint64_t *w, uint64_t n)
{
	*w = (*w & ((1ULL << LIT_SHIFT) - 1)) | (n << LIT_SHIFT);
}

void
ewah_init(struct ewah *b)
{
	b->alloc = 4;
	b->words = xcalloc(b->alloc, sizeof(*b->words));
	b->nr = 1;
	b->marker = 0;
	b->bits = 0;
}

void
ewah_release(struct ewah *b)
{
	free(b->words);
	b->words = NULL;
	b->nr = b->alloc = b->marker = b->bits = 0;
}

static void
push(struct ewah *b, uint64_t w)
{
	ALLOC_GROW(b->words, b->nr + 1, b->alloc);
	b->words[b->nr++] = w;
}

static void
push_marker(struct ewah *b)
{
	push(b, 0);
	b->marker = b->nr - 1;
}

static void
add_literal(struct ewah *b, uint64_t w)
{
	uint64_t n = lit_count(b->words[b->marker]);

	if (n >= LIT_MAX) {
		push_marker(b);
		n = 0;
	}
	set_lit_count(&b->words[b->marker], n + 1);
	push(b, w);
}

/* n clean words of value v after what is there */
static void
add_clean_words(struct ewah *b, int v, uint64_t n)
{
	uint64_t *m = &b->words[b->marker];
	uint64_t have, take;

	if (run_bit(*m) != v && !run_len(*m) && !lit_count(*m)) {
		set_run_bit(m, v);
	} else if (lit_count(*m) || run_bit(*m) != v) {
		push_marker(b);
		set_run_bit(&b->words[b->marker], v);
	}
	m = &b->words[b->marker];
	have = run_len(*m);
	take = n < RUN_MAX - have ? n : RUN_MAX - have;
	set_run_len(m, have + take);
	n -= take;
	while (n) {
		take = n < RUN_MAX ? n : RUN_MAX;
		push_marker(b);
		set_run_bit(&b->words[b->marker], v);
		set_run_len(&b->words[b->marker], take);
		n -= take;
	}
}

/* one clean word of value v */
static void
add_clean_word(struct ewah *b, int v)
{
	uint64_t *m = &b->words[b->marker];
	uint64_t have = run_len(*m);

	if (!lit_count(*m) && !have)
		set_run_bit(m, v);
	if (!lit_count(*m) && run_bit(*m) == v && have < RUN_MAX) {
		set_run_len(m, have + 1);
		return;
	}
	push_marker(b);
	set_run_bit(&b->words[b->marker], v);
	set_run_len(&b->words[b->marker], 1);
}

void
ewah_set(struct ewah *b, size_t pos)
{
	uint64_t bit = 1ULL << (pos % WORD_BITS);
	size_t words_now = (b->bits + WORD_BITS - 1) / WORD_BITS;
	size_t words_then = pos / WORD_BITS + 1;

	if (pos < b->bits)
		BUG("ewah_set(%zu) after bit %zu", pos, b->bits - 1);
	b->bits = pos + 1;
	if (words_then > words_now) {
		if (words_then - words_now > 1)
			add_clean_words(b, 0, words_then - words_now - 1);
		add_literal(b, bit);
		return;
	}
	if (!lit_count(b->words[b->marker])) {
		/* the word is the last of a run: take it out as a literal */
		set_run_len(&b->words[b->marker],
			    run_len(b->words[b->marker]) - 1);
		add_literal(b, bit);
		return;
	}
	b->words[b->nr - 1] |= bit;
	if (b->words[b->nr - 1] == ~0ULL) {
		b->nr--;
		set_lit_count(&b->words[b->marker],
			      lit_count(b->words[b->marker]) - 1);
		add_clean_word(b, 1);
	}
}

void
ewah_encode(struct strbuf *out, const struct ewah *b)
{
	unsigned char buf[8];

	put_be32(buf, (uint32_t)b->bits);
	strbuf_add(out, buf, 4);
	put_be32(buf, (uint32_t)b->nr);
	strbuf_add(out, buf, 4);
	for (size_t i = 0; i < b->nr; i++) {
		put_be32(buf, (uint32_t)(b->words[i] >> 32));
		put_be32(buf + 4, (uint32_t)b->words[i]);
		strbuf_add(out, buf, 8);
	}
	put_be32(buf, (uint32_t)b->marker);
	strbuf_add(out, buf, 4);
}

long
ewah_decode(struct ewah *out, const unsigned char *p, size_t len,
	    char *why, size_t whylen)
{
	size_t nr;

	memset(out, 0, sizeof(*out));
	if (len < 4) {
		snprintf(why, whylen, "eof before bit size");
		return -1;
	}
	out->bits = get_be32(p);
	if (len < 8) {
		snprintf(why, whylen, "eof before length");
		return -1;
	}
	nr = get_be32(p + 4);
	if ((len - 8) / 8 < nr) {
		snprintf(why, whylen, "eof in data (%llu bytes short)",
			 (unsigned long long)nr * 8 - (len - 8));
		return -1;
	}
	if (len - 8 - nr * 8 < 4) {
		snprintf(why, whylen, "eof before rlw");
		return -1;
	}
	out->words = xmalloc(st_mult(nr ? nr : 1, sizeof(*out->words)));
	out->nr = out->alloc = nr;
	for (size_t i = 0; i < nr; i++)
		out->words[i] = get_be64(p + 8 + i * 8);
	out->marker = get_be32(p + 8 + nr * 8);
	return (long)(8 + nr * 8 + 4);
}

int
ewah_each_bit(const struct ewah *b, int (*fn)(size_t pos, void *ctx),
	      void *ctx)
{
	uint64_t pos = 0;
	size_t i = 0;
	int ret;

	while (i < b->nr) {
		uint64_t m = b->words[i++];
		uint64_t run = run_len(m) * WORD_BITS, lits = lit_count(m);

		if (run_bit(m)) {
			for (uint64_t k = 0; k < run; k++)
				if ((ret = fn((size_t)pos++, ctx)))
					return ret;
		} else {
			pos += run;
		}
		if (lits > b->nr - i)
			return -1;
		for (; lits; lits--, i++, pos += WORD_BITS) {
			uint64_t w = b->words[i];

			while (w) {
				int c = __builtin_ctzll(w);

				if ((ret = fn((size_t)(pos + c), ctx)))
					return ret;
				w &= w - 1;
			}
		}
	}
	return 0;
}
