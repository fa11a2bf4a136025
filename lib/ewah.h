/*
 * ewah: the compressed bitmaps git stores in the index's "link"
 * extension (split index), in git's serialisation, bit for bit.
 *
 * A bitmap is a sequence of 64-bit words.  Each "marker" word says how
 * many clean words (all zeros or all ones, bit 0 says which; bits 1..32)
 * come next, then how many literal words follow it (bits 33..63); the
 * literal words are stored after the marker as they are.  The serialised
 * form (big-endian):
 *
 *   offset  size     field
 *   0       4        number of bits (one past the highest set bit)
 *   4       4        number of 64-bit words W
 *   8       8 * W    the words
 *   8+8W    4        index of the last marker word
 *
 * Only what the split index needs: building a bitmap by setting bits in
 * increasing order (as git's writer does, so that the words come out as
 * git's do), serialising it, reading one back with every field bounds-
 * checked, and walking its set bits.
 */
#ifndef DIRC_EWAH_H
#define DIRC_EWAH_H

#include <stddef.h>
#include <stdint.h>

#include "strbuf.h"

struct ewah {
	uint64_t *words;	/* owned */
	size_t nr, alloc;
	size_t marker;		/* index of the last marker word */
	size_t bits;		/* one past the highest bit set */
};

/* An empty bitmap: one marker word, no bits.  Allocates. */
void ewah_init(struct ewah *b);
void ewah_release(struct ewah *b);

/* Set bit pos, which must be >= b->bits (BUG otherwise). */
void ewah_set(struct ewah *b, size_t pos);

/* Append b's serialised form to out. */
void ewah_encode(struct strbuf *out, const struct ewah *b);

/*
 * Read a serialised bitmap from the len bytes at p into out (which
 * needs no init; released by ewah_release()).  Returns the number of
 * bytes it took, or -1 when they run out first (out is then empty);
 * why (of whylen bytes) says where, in git's words: "eof before bit
 * size", "eof before length", "eof in data (N bytes short)", "eof
 * before rlw".
 */
long ewah_decode(struct ewah *out, const unsigned char *p, size_t len,
		 char *why, size_t whylen);

/*
 * Call fn for every set bit in increasing order; stop at the first
 * non-zero return and return it.  A marker that announces more literal
 * words than are left is -1 without a call for it (the bits before it
 * were reported).
 */
int ewah_each_bit(const struct ewah *b, int (*fn)(size_t pos, void *ctx),
		  void *ctx);

#endif
