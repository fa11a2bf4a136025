/*
 * t-ewah: the EWAH bitmaps of the split index (ewah.h): the words built
 * by setting bits in order (git's shape; t2016 compares whole link
 * extensions with git's), the serialised bytes, reading back, walking
 * the bits, and the truncated inputs a reader must refuse.
 */
#include "tap.h"
#include "ewah.h"
#include "util.h"

#include <string.h>

struct walk {
	size_t pos[200];
	size_t nr;
	size_t stop_at;		/* return 1 at this bit (0: never) */
};

static int
collect(size_t pos, void *ctx)
{
	struct walk *w = ctx;

	if (w->nr < ARRAY_SIZE(w->pos))
		w->pos[w->nr] = pos;
	w->nr++;
	return w->stop_at && pos == w->stop_at;
}

static const struct {
	const char *what;
	size_t bits[130];	/* ascending, ended by (size_t)-1 */
	uint64_t words[6];
	size_t nr, marker;
} cases[] = {
	{ "empty", { (size_t)-1 }, { 0 }, 1, 0 },
	{ "bit 0", { 0, (size_t)-1 }, { 1ULL << 33, 1 }, 2, 0 },
	{ "bits 0 and 2: one literal", { 0, 2, (size_t)-1 },
	  { 1ULL << 33, 5 }, 2, 0 },
	{ "bit 130: a run of two zero words, then a literal",
	  { 130, (size_t)-1 }, { 2 << 1 | 1ULL << 33, 4 }, 2, 0 },
	{ "bits 0 and 200: a second marker",
	  { 0, 200, (size_t)-1 },
	  { 1ULL << 33, 1, 2 << 1 | 1ULL << 33, 1 << 8 }, 4, 2 },
	{ "bits 0..63: a word of ones becomes a run", { 0 }, { 3 }, 1, 0 },
	{ "bits 0..64: a run of ones, then a literal", { 0 },
	  { 3 | 1ULL << 33, 1 }, 2, 0 },
};

static void
fill(struct ewah *b, size_t i)
{
	if (i == 5 || i == 6) {
		for (size_t k = 0; k < (i == 5 ? 64u : 65u); k++)
			ewah_set(b, k);
		return;
	}
	for (size_t k = 0; cases[i].bits[k] != (size_t)-1; k++)
		ewah_set(b, cases[i].bits[k]);
}

static void
test_build(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ewah b;
		struct strbuf sb = STRBUF_INIT;
		struct ewah back;
		struct walk w = { .nr = 0 };
		char why[80];
		size_t want_bits = 0, last = 0;
		long used;

		ewah_init(&b);
		fill(&b, i);
		ok(b.nr == cases[i].nr && b.marker == cases[i].marker &&
		   !memcmp(b.words, cases[i].words, b.nr * 8),
		   "build: %s", cases[i].what);
		ewah_encode(&sb, &b);
		is_int((long)sb.len, 12 + 8 * (long)cases[i].nr,
		       "encode: %s: size", cases[i].what);
		used = ewah_decode(&back, (const unsigned char *)sb.buf,
				   sb.len, why, sizeof(why));
		ok(used == (long)sb.len && back.nr == b.nr &&
		   back.bits == b.bits && back.marker == b.marker &&
		   !memcmp(back.words, b.words, b.nr * 8),
		   "decode: %s: the same bitmap", cases[i].what);
		ewah_each_bit(&back, collect, &w);
		if (i == 5 || i == 6) {
			want_bits = i == 5 ? 64 : 65;
			for (size_t k = 0; k < w.nr && k < want_bits; k++)
				if (w.pos[k] != k)
					last = 1;
		} else {
			for (; cases[i].bits[want_bits] != (size_t)-1;
			     want_bits++)
				if (want_bits >= w.nr ||
				    w.pos[want_bits] != cases[i].bits[want_bits])
					last = 1;
		}
		ok(w.nr == want_bits && !last, "walk: %s: %zu bits",
		   cases[i].what, want_bits);
		ewah_release(&back);
		ewah_release(&b);
		strbuf_release(&sb);
	}
}

static void
test_bytes(void)
{
	static const unsigned char empty[] = {
		0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	static const unsigned char bit3[] = {
		0, 0, 0, 4, 0, 0, 0, 2,
		0, 0, 0, 2, 0, 0, 0, 0,	/* marker: one literal */
		0, 0, 0, 0, 0, 0, 0, 8,
		0, 0, 0, 0,
	};
	struct ewah b;
	struct strbuf sb = STRBUF_INIT;

	ewah_init(&b);
	ewah_encode(&sb, &b);
	is_mem(sb.buf, sb.len, empty, sizeof(empty),
	       "encode: the empty bitmap git writes (20 bytes)");
	ewah_set(&b, 3);
	strbuf_reset(&sb);
	ewah_encode(&sb, &b);
	is_mem(sb.buf, sb.len, bit3, sizeof(bit3), "encode: bit 3");
	ewah_release(&b);
	strbuf_release(&sb);
}

static void
test_bad(void)
{
	static const unsigned char bit3[] = {
		0, 0, 0, 4, 0, 0, 0, 2,
		0, 0, 0, 2, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 8,
		0, 0, 0, 0, 0xff,
	};
	static const struct { size_t len; const char *why; } cut[] = {
		{ 0, "eof before bit size" }, { 3, "eof before bit size" },
		{ 4, "eof before length" }, { 7, "eof before length" },
		{ 8, "eof in data (16 bytes short)" },
		{ 23, "eof in data (1 bytes short)" },
		{ 24, "eof before rlw" }, { 27, "eof before rlw" },
	};
	/* a marker announcing two literals with one word after it */
	static const unsigned char overlong[] = {
		0, 0, 0, 4, 0, 0, 0, 2,
		0, 0, 0, 4, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 8,
		0, 0, 0, 0,
	};
	/* a word count that overflows a 32-bit multiplication by 8 */
	static const unsigned char huge[] = {
		0, 0, 0, 0, 0x20, 0, 0, 1, 0, 0, 0, 0,
	};
	struct ewah b;
	struct walk w = { .nr = 0 };
	char why[80];

	for (size_t i = 0; i < ARRAY_SIZE(cut); i++) {
		why[0] = '\0';
		ok(ewah_decode(&b, bit3, cut[i].len, why, sizeof(why)) == -1 &&
		   !strcmp(why, cut[i].why), "decode: %zu bytes: %s",
		   cut[i].len, cut[i].why);
		ewah_release(&b);
	}
	is_int(ewah_decode(&b, bit3, sizeof(bit3), why, sizeof(why)), 28,
	       "decode: a byte after the bitmap is not taken");
	ewah_release(&b);
	ok(ewah_decode(&b, huge, sizeof(huge), why, sizeof(why)) == -1,
	   "decode: a huge word count is eof in data");
	ewah_release(&b);
	ok(ewah_decode(&b, overlong, sizeof(overlong), why, sizeof(why)) == 28,
	   "decode: a literal count past the words reads");
	is_int(ewah_each_bit(&b, collect, &w), -1,
	       "walk: a literal count past the words is -1");
	ewah_release(&b);

	ewah_init(&b);
	for (size_t k = 0; k < 100; k += 7)
		ewah_set(&b, k);
	w.nr = 0;
	w.stop_at = 21;
	is_int(ewah_each_bit(&b, collect, &w), 1,
	       "walk: stops at the callback's non-zero answer");
	is_int((long)w.nr, 4, "walk: after 0, 7, 14, 21");
	ewah_release(&b);
}

int
main(void)
{
	plan(7 * 4 + 2 + 8 + 6);
	test_build();
	test_bytes();
	test_bad();
	return done_testing();
}
