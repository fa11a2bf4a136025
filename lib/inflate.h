/*
 * inflate: a whole zlib stream (RFC 1950 around RFC 1951's DEFLATE)
 * decoded in one call into a buffer of the size the caller expects.
 *
 * A packed object's header gives its size, so its stream can be decoded
 * straight into a buffer of that size with no window, no state to set up
 * and no way to stop halfway: what zlib's streaming inflate() does for a
 * packed tree took half of ls-tree -r (perf P11), most of it in per-call
 * set-up, table building and one-literal-at-a-time decoding.
 *
 * The stream is checked as zlib checks it: the header (deflate, a window
 * of at most 32 KB, no preset dictionary, the check bits), each block's
 * type and, for a stored block, its length's complement; Huffman codes
 * neither over-subscribed nor incomplete (except a single one-bit code
 * for lengths or distances, as zlib allows); no reserved symbol; no
 * distance back past the start; the code-length repeat rules; and the
 * Adler-32 of the output at the end.  The input may go on past the
 * stream (a pack holds the next object there).
 */
#ifndef DIRC_INFLATE_H
#define DIRC_INFLATE_H

#include "util.h"

enum inflate_result {
	INFLATE_OK = 0,
	INFLATE_SHORT,		/* the stream ended before size bytes */
	INFLATE_LONG,		/* it holds more than size bytes */
	INFLATE_BAD,		/* not a valid stream, cut short, or a wrong
				 * checksum */
};

/*
 * Decode the zlib stream at the start of in (len bytes) into exactly
 * size bytes at out.  What out holds after a failure is unspecified.
 * Thread-safe.
 */
enum inflate_result inflate_exact(void *out, size_t size, const void *in,
				  size_t len);

/*
 * The first bytes of the zlib stream at the start of in (len bytes): up
 * to size of them into out, decoding no further (nothing after them is
 * checked, nor the Adler-32).  Returns how many bytes are in out: fewer
 * than size if the stream is shorter, damaged before then, or its
 * next piece would not fit whole (a caller that needs more falls back
 * to zlib).  For a delta's header, the sizes it starts with.
 * Thread-safe.
 */
size_t inflate_prefix(void *out, size_t size, const void *in, size_t len);

#endif
