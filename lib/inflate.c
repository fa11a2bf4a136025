/*
 * inflate: a bit reader over a 64-bit buffer (filled eight bytes at a
 * time while eight remain), and table-driven Huffman decoding: the next
 * ROOT bits of the stream index a table whose entry gives the symbol and
 * its code's length, or points to a second-level table for the codes
 * longer than ROOT bits.  One fill serves a whole length/distance pair
 * (at most 15 + 5 + 15 + 13 bits).  Formats from RFC 1950 and 1951.
 */
#include "inflate.h"

#include <pthread.h>
#include <zlib.h>

#define LITLEN_ROOT 9
#define DIST_ROOT 6
#define CODES_ROOT 7
#define MAX_CODE_BITS 15
/* a root table, and room for a second-level table per symbol */
#define LITLEN_CAP ((1u << LITLEN_ROOT) + 288 * (1u << (15 - LITLEN_ROOT)))
#define DIST_CAP ((1u << DIST_ROOT) + 32 * (1u << (15 - DIST_ROOT)))
#define CODES_CAP (1u << CODES_ROOT)

/*
 * A table entry: bits 0-4 the bits to consume, 5-7 the kind, 8-11 the
 * extra bits that follow (for a SUB entry: the second-level table's
 * index bits), 16-31 the value (a literal, a base length or distance,
 * a code-length symbol, or a SUB entry's table offset).
 */
enum kind { K_LIT, K_LEN, K_EOB, K_SUB, K_BAD, K_DIST };

#define ENTRY(kind, extra, value) \
	((uint32_t)(kind) << 5 | (uint32_t)(extra) << 8 | \
	 (uint32_t)(value) << 16)
#define E_BITS(e) ((e) & 31)
#define E_KIND(e) (((e) >> 5) & 7)
#define E_EXTRA(e) (((e) >> 8) & 15)
#define E_VALUE(e) ((e) >> 16)

static const uint16_t len_base[29] = {
	3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
	35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
};
static const uint8_t len_extra[29] = {
	0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
	3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
};
static const uint16_t dist_base[30] = {
	1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
	257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193,
	12289, 16385, 24577,
};
static const uint8_t dist_extra[30] = {
	0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
	7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
};
/* the order code-length code lengths are stored in */
static const uint8_t cl_order[19] = {
	16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
};

enum table_type { T_CODES, T_LITLEN, T_DIST };

static uint32_t
symbol_entry(enum table_type type, unsigned sym)
{
	switch (type) {
	case T_CODES:
		return ENTRY(K_LIT, 0, sym);
	case T_LITLEN:
		if (sym < 256)
			return ENTRY(K_LIT, 0, sym);
		if (sym == 256)
			return ENTRY(K_EOB, 0, 0);
		if (sym < 286)
			return ENTRY(K_LEN, len_extra[sym - 257],
				     len_base[sym - 257]);
		return ENTRY(K_BAD, 0, 0);
	case T_DIST:
		if (sym < 30)
			return ENTRY(K_DIST, dist_extra[sym], dist_base[sym]);
		return ENTRY(K_BAD, 0, 0);
	}
	return ENTRY(K_BAD, 0, 0);
}

/*
 * The next code of len bits after rev, both bit-reversed (the stream
 * sends a code's first bit first): add one at bit len - 1, carrying
 * down.  A longer code next appends zeros at the reversed top: no change.
 */
static unsigned
next_reversed(unsigned rev, unsigned len)
{
	unsigned bit = 1u << (len - 1);

	while (rev & bit) {
		rev ^= bit;
		bit >>= 1;
	}
	return rev | bit;
}

/*
 * Fill table (cap entries, a root of root bits) for the canonical code
 * with the n code lengths lens.  0, or -1 for a set zlib refuses:
 * over-subscribed, or incomplete but for a single one-bit code of
 * lengths or distances (no code at all is a table of K_BAD entries).
 */
static int
build(uint32_t *table, size_t cap, unsigned root, const uint8_t *lens,
      unsigned n, enum table_type type)
{
	unsigned count[MAX_CODE_BITS + 1] = { 0 }, rem[MAX_CODE_BITS + 1];
	unsigned start[MAX_CODE_BITS + 2], max = 0;
	uint16_t sorted[288];
	size_t rootsize = (size_t)1 << root, next = rootsize, sub = 0;
	unsigned sub_low = ~0u, sub_bits = 0, rev = 0, k = 0;
	int left = 1;

	for (unsigned s = 0; s < n; s++)
		count[lens[s]]++;
	for (unsigned len = 1; len <= MAX_CODE_BITS; len++) {
		if (count[len])
			max = len;
		left = (left << 1) - (int)count[len];
		if (left < 0)
			return -1;
	}
	if (max && left > 0 && (type == T_CODES || max != 1))
		return -1;
	if (!max || left > 0)
		for (size_t i = 0; i < rootsize; i++)
			table[i] = ENTRY(K_BAD, 0, 0) | 1;
	start[1] = 0;
	for (unsigned len = 1; len <= MAX_CODE_BITS; len++)
		start[len + 1] = start[len] + count[len];
	for (unsigned s = 0; s < n; s++)
		if (lens[s])
			sorted[start[lens[s]]++] = (uint16_t)s;
	memcpy(rem, count, sizeof(rem));

	for (unsigned len = 1; len <= max; len++) {
		for (unsigned c = 0; c < count[len];
		     c++, rev = next_reversed(rev, len)) {
			uint32_t e = symbol_entry(type, sorted[k++]);

			if (len <= root) {
				for (size_t i = rev; i < rootsize;
				     i += (size_t)1 << len)
					table[i] = e | len;
				rem[len]--;
				continue;
			}
			if ((rev & (rootsize - 1)) != sub_low) {
				/* a new second-level table: as many index
				 * bits as the codes under this root need */
				unsigned bits = len - root;
				int room = 1 << bits;

				while (bits + root < max) {
					room -= (int)rem[bits + root];
					if (room <= 0)
						break;
					bits++;
					room <<= 1;
				}
				if (next + ((size_t)1 << bits) > cap)
					return -1;	/* cannot happen */
				sub_low = rev & (rootsize - 1);
				sub_bits = bits;
				sub = next;
				next += (size_t)1 << bits;
				table[sub_low] = ENTRY(K_SUB, bits, sub) | root;
			}
			for (size_t i = rev >> root; i < ((size_t)1 << sub_bits);
			     i += (size_t)1 << (len - root))
				table[sub + i] = e | (len - root);
			rem[len]--;
		}
	}
	return 0;
}

/* ---- the bit reader ---- */

struct bits {
	const unsigned char *p, *end;
	uint64_t buf;		/* bits [0, n) are the stream's next */
	unsigned n;
	size_t pad;		/* zero bytes fed past the end */
};

static uint64_t
load_le64(const unsigned char *p)
{
	uint64_t v = 0;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(&v, p, 8);
#else
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
#endif
	return v;
}

/*
 * 56 to 63 bits in the buffer, eight bytes at p (the bytes of the word
 * past those it takes are ORed in again by the next fill, to the same
 * places: no harm).
 */
static inline void
fill_fast(struct bits *b)
{
	b->buf |= load_le64(b->p) << b->n;
	b->p += (63 - b->n) >> 3;
	b->n |= 56;
}

/* 56 to 63 bits in the buffer (zeros past the end, counted). */
static inline void
fill(struct bits *b)
{
	if (b->end - b->p >= 8) {
		fill_fast(b);
		return;
	}
	while (b->n < 56) {	/* up to 63: a fast fill never follows */
		if (b->p < b->end)
			b->buf |= (uint64_t)*b->p++ << b->n;
		else
			b->pad++;
		b->n += 8;
	}
}

static inline unsigned
peek(const struct bits *b, unsigned k)
{
	return (unsigned)(b->buf & (((uint64_t)1 << k) - 1));
}

static inline void
drop(struct bits *b, unsigned k)
{
	b->buf >>= k;
	b->n -= k;
}

static inline unsigned
take(struct bits *b, unsigned k)
{
	unsigned v = peek(b, k);

	drop(b, k);
	return v;
}

/* A symbol's entry (through a second-level table if need be), taken. */
static inline uint32_t
decode(struct bits *b, const uint32_t *table, unsigned root)
{
	uint32_t e = table[peek(b, root)];

	if (E_KIND(e) == K_SUB) {
		drop(b, root);
		e = table[E_VALUE(e) + peek(b, E_EXTRA(e))];
	}
	drop(b, E_BITS(e));
	return e;
}

/* Fed more than the stream had: it was cut short. */
static int
overrun(const struct bits *b)
{
	return b->pad * 8 > b->n;
}

/* ---- blocks ---- */

struct tables {
	uint32_t litlen[LITLEN_CAP];
	uint32_t dist[DIST_CAP];
	uint32_t codes[CODES_CAP];
};

static enum inflate_result
stored(struct bits *b, unsigned char **outp, unsigned char *end)
{
	unsigned len, nlen;
	unsigned char *out = *outp;

	drop(b, b->n & 7);
	fill(b);
	len = take(b, 16);
	nlen = take(b, 16);
	if (overrun(b) || len != (~nlen & 0xffff))
		return INFLATE_BAD;
	for (; len && b->n; len--) {
		if (out == end)
			return INFLATE_LONG;
		*out++ = (unsigned char)take(b, 8);
	}
	if (len) {
		b->buf = 0;	/* empty, but for copies of the bytes at p */
		if ((size_t)(b->end - b->p) < len)
			return INFLATE_BAD;
		if ((size_t)(end - out) < len)
			return INFLATE_LONG;
		memcpy(out, b->p, len);
		out += len;
		b->p += len;
	}
	*outp = out;
	return INFLATE_OK;
}

/* The fixed code of RFC 1951 3.2.6, built once for every thread. */
static struct tables fixed;
static pthread_once_t fixed_once = PTHREAD_ONCE_INIT;

static void
build_fixed(void)
{
	uint8_t lens[288 + 32];

	memset(lens, 8, 144);
	memset(lens + 144, 9, 112);
	memset(lens + 256, 7, 24);
	memset(lens + 280, 8, 8);
	memset(lens + 288, 5, 32);
	/* both complete codes: cannot fail */
	(void)build(fixed.litlen, LITLEN_CAP, LITLEN_ROOT, lens, 288,
		    T_LITLEN);
	(void)build(fixed.dist, DIST_CAP, DIST_ROOT, lens + 288, 32, T_DIST);
}

/* A dynamic block's code lengths: its tables in t. */
static enum inflate_result
dynamic_tables(struct bits *b, struct tables *t)
{
	uint8_t cl[19] = { 0 }, lens[288 + 32];
	unsigned nlit, ndist, ncl, i = 0;

	fill(b);
	nlit = take(b, 5) + 257;
	ndist = take(b, 5) + 1;
	ncl = take(b, 4) + 4;
	if (nlit > 286 || ndist > 30)
		return INFLATE_BAD;
	for (unsigned k = 0; k < ncl; k++) {
		if (b->n < 3)
			fill(b);
		cl[cl_order[k]] = (uint8_t)take(b, 3);
	}
	if (build(t->codes, CODES_CAP, CODES_ROOT, cl, 19, T_CODES) < 0)
		return INFLATE_BAD;
	while (i < nlit + ndist) {
		uint32_t e;
		unsigned sym, rep, val;

		fill(b);
		if (overrun(b))
			return INFLATE_BAD;
		e = decode(b, t->codes, CODES_ROOT);
		if (E_KIND(e) == K_BAD)
			return INFLATE_BAD;
		sym = E_VALUE(e);
		if (sym < 16) {
			lens[i++] = (uint8_t)sym;
			continue;
		}
		if (sym == 16) {
			if (!i)
				return INFLATE_BAD;
			val = lens[i - 1];
			rep = 3 + take(b, 2);
		} else if (sym == 17) {
			val = 0;
			rep = 3 + take(b, 3);
		} else {
			val = 0;
			rep = 11 + take(b, 7);
		}
		if (rep > nlit + ndist - i)
			return INFLATE_BAD;
		memset(lens + i, (int)val, rep);
		i += rep;
	}
	if (!lens[256])
		return INFLATE_BAD;	/* no end-of-block code */
	if (build(t->litlen, LITLEN_CAP, LITLEN_ROOT, lens, nlit,
		  T_LITLEN) < 0 ||
	    build(t->dist, DIST_CAP, DIST_ROOT, lens + nlit, ndist,
		  T_DIST) < 0)
		return INFLATE_BAD;
	return INFLATE_OK;
}

/* Copy len bytes from dist back (dist <= out - start, len <= end - out). */
static inline unsigned char *
copy_back(unsigned char *out, unsigned char *end, size_t dist, size_t len)
{
	const unsigned char *from = out - dist;

	if (dist >= 8 && (size_t)(end - out) >= len + 8) {
		/* whole words, up to 7 bytes past: rewritten next */
		unsigned char *stop = out + len;

		while (out < stop) {
			uint64_t w;

			memcpy(&w, from, 8);
			memcpy(out, &w, 8);
			out += 8;
			from += 8;
		}
		return stop;
	}
	if (dist == 1) {
		memset(out, *from, len);
		return out + len;
	}
	while (len--)
		*out++ = *from++;
	return out;
}

/* Output room for the fast loop: its three literals a fill. */
#define FAST_ROOM 3

/*
 * The symbols of a Huffman block, up to its end-of-block code.  While
 * eight bytes of input and FAST_ROOM bytes of output room remain, a fill
 * needs no check and a literal no bound check, and literals come up to
 * three a fill (root codes: at most 3 * 9 bits of the 56 a fill leaves);
 * a match is checked against the room either way.
 */
static enum inflate_result
huffman(struct bits *bits, const struct tables *t, unsigned char *start,
	unsigned char **outp, unsigned char *end)
{
	/*
	 * The reader in a local: stores through out (bytes) could alias
	 * *bits, and the compiler would reload it after every byte.
	 */
	struct bits local = *bits, *b = &local;
	const uint32_t *lit = t->litlen;
	unsigned char *out = *outp;
	enum inflate_result r = INFLATE_OK;

	for (;;) {
		uint32_t e;
		size_t len, dist;

		if (b->end - b->p >= 8 && end - out >= FAST_ROOM) {
			fill_fast(b);
			e = lit[peek(b, LITLEN_ROOT)];
			if (E_KIND(e) == K_LIT) {
				drop(b, E_BITS(e));
				*out++ = (unsigned char)E_VALUE(e);
				e = lit[peek(b, LITLEN_ROOT)];
				if (E_KIND(e) != K_LIT)
					continue;
				drop(b, E_BITS(e));
				*out++ = (unsigned char)E_VALUE(e);
				e = lit[peek(b, LITLEN_ROOT)];
				if (E_KIND(e) != K_LIT)
					continue;
				drop(b, E_BITS(e));
				*out++ = (unsigned char)E_VALUE(e);
				continue;
			}
			if (E_KIND(e) == K_SUB) {
				drop(b, LITLEN_ROOT);
				e = lit[E_VALUE(e) + peek(b, E_EXTRA(e))];
			}
			drop(b, E_BITS(e));
			if (E_KIND(e) == K_LIT) {
				*out++ = (unsigned char)E_VALUE(e);
				continue;
			}
		} else {
			fill(b);
			if (overrun(b)) {
				r = INFLATE_BAD;
				break;
			}
			e = decode(b, lit, LITLEN_ROOT);
			if (E_KIND(e) == K_LIT) {
				if (out == end) {
					r = INFLATE_LONG;
					break;
				}
				*out++ = (unsigned char)E_VALUE(e);
				continue;
			}
		}
		if (E_KIND(e) == K_EOB) {
			if (overrun(b))
				r = INFLATE_BAD;
			break;
		}
		if (E_KIND(e) != K_LEN) {
			r = INFLATE_BAD;
			break;
		}
		len = E_VALUE(e) + take(b, E_EXTRA(e));
		e = decode(b, t->dist, DIST_ROOT);
		if (E_KIND(e) != K_DIST) {
			r = INFLATE_BAD;
			break;
		}
		dist = E_VALUE(e) + take(b, E_EXTRA(e));
		if (dist > (size_t)(out - start)) {
			r = INFLATE_BAD;	/* too far back */
			break;
		}
		if (len > (size_t)(end - out)) {
			r = INFLATE_LONG;
			break;
		}
		out = copy_back(out, end, dist, len);
	}
	*bits = local;
	*outp = out;
	return r;
}

/* One block of the stream: its header, then its data into *outp. */
static enum inflate_result
inflate_block(struct bits *b, struct tables *t, unsigned char *start,
	      unsigned char **outp, unsigned char *end, unsigned *last)
{
	enum inflate_result r;
	unsigned type;

	fill(b);
	*last = take(b, 1);
	type = take(b, 2);
	if (overrun(b))
		return INFLATE_BAD;
	if (type == 0) {
		r = stored(b, outp, end);
	} else if (type == 1) {
		pthread_once(&fixed_once, build_fixed);
		r = huffman(b, &fixed, start, outp, end);
	} else if (type == 2) {
		r = dynamic_tables(b, t);
		if (r == INFLATE_OK)
			r = huffman(b, t, start, outp, end);
	} else {
		r = INFLATE_BAD;
	}
	return r;
}

enum inflate_result
inflate_exact(void *out_, size_t size, const void *in_, size_t len)
{
	struct tables t;	/* 58 KB of stack, touched only as needed */
	const unsigned char *in = in_;
	unsigned char *start = out_, *out = start, *end = start + size;
	struct bits b;
	unsigned last = 0, cmf, flg;
	uint32_t sum;

	if (len < 2)
		return INFLATE_BAD;
	cmf = in[0];
	flg = in[1];
	if ((cmf & 15) != 8 || (cmf >> 4) > 7 || (cmf << 8 | flg) % 31 ||
	    (flg & 0x20))
		return INFLATE_BAD;
	memset(&b, 0, sizeof(b));
	b.p = in + 2;
	b.end = in + len;

	while (!last) {
		enum inflate_result r = inflate_block(&b, &t, start, &out, end,
						      &last);

		if (r != INFLATE_OK)
			return r;
	}
	/* the Adler-32, big-endian, from the next byte boundary */
	drop(&b, b.n & 7);
	fill(&b);
	sum = (uint32_t)take(&b, 8) << 24;
	sum |= (uint32_t)take(&b, 8) << 16;
	sum |= (uint32_t)take(&b, 8) << 8;
	sum |= (uint32_t)take(&b, 8);
	if (overrun(&b))
		return INFLATE_BAD;
	if (out != end)
		return INFLATE_SHORT;
	if (adler32_z(1, start, size) != sum)
		return INFLATE_BAD;
	return INFLATE_OK;
}

size_t
inflate_prefix(void *out_, size_t size, const void *in_, size_t len)
{
	struct tables t;
	const unsigned char *in = in_;
	unsigned char *start = out_, *out = start, *end = start + size;
	struct bits b;
	unsigned last = 0, cmf, flg;

	if (len < 2)
		return 0;
	cmf = in[0];
	flg = in[1];
	if ((cmf & 15) != 8 || (cmf >> 4) > 7 || (cmf << 8 | flg) % 31 ||
	    (flg & 0x20))
		return 0;
	memset(&b, 0, sizeof(b));
	b.p = in + 2;
	b.end = in + len;
	while (!last && out < end)
		if (inflate_block(&b, &t, start, &out, end, &last) !=
		    INFLATE_OK)
			break;	/* out has what was decoded before */
	return out - start;
}
