/*
 * fuzz-inflate: inflate_exact() against zlib on any bytes taken as a
 * zlib stream (packed objects are decoded by inflate_exact()).
 *
 * zlib decodes the input first, into up to 1 MB.  Invariants checked:
 *   - where zlib decodes a whole stream of n bytes, inflate_exact() with
 *     size n gives INFLATE_OK and the same bytes, with n + 1 gives
 *     INFLATE_SHORT and with n - 1 INFLATE_LONG;
 *   - where zlib refuses the stream, inflate_exact() refuses it too, for
 *     the size zlib got to and for one more;
 *   - inflate_prefix() for up to 64 of the bytes zlib decoded gives no
 *     more than asked, and only bytes zlib gave.
 */
#include "fuzz.h"

#include <zlib.h>

#include "inflate.h"

#define MAX_OUT (1u << 20)

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char want[MAX_OUT + 1], got[MAX_OUT + 2];
	z_stream zs;
	size_t n;
	int zret;

	memset(&zs, 0, sizeof(zs));
	if (inflateInit(&zs) != Z_OK)
		return 0;
	zs.next_in = (unsigned char *)data;
	zs.avail_in = (uInt)size;
	zs.next_out = want;
	zs.avail_out = MAX_OUT + 1;
	zret = inflate(&zs, Z_FINISH);
	n = zs.total_out;
	inflateEnd(&zs);
	if (n > MAX_OUT)
		return 0;	/* too big to compare: not a verdict */
	{
		size_t k = n < 64 ? n : 64;
		size_t g = inflate_prefix(got, k, data, size);

		if (g > k || memcmp(got, want, g))
			BUG("inflate_prefix gave %zu of %zu bytes unlike zlib",
			    g, k);
	}
	if (zret == Z_STREAM_END) {
		if (inflate_exact(got, n, data, size) != INFLATE_OK ||
		    memcmp(got, want, n))
			BUG("zlib's stream of %zu bytes not decoded alike", n);
		if (inflate_exact(got, n + 1, data, size) != INFLATE_SHORT)
			BUG("a stream of %zu bytes decoded into %zu", n, n + 1);
		if (n && inflate_exact(got, n - 1, data, size) != INFLATE_LONG)
			BUG("a stream of %zu bytes decoded into %zu", n, n - 1);
		return 0;
	}
	if (inflate_exact(got, n, data, size) == INFLATE_OK ||
	    inflate_exact(got, n + 1, data, size) == INFLATE_OK)
		BUG("a stream zlib refuses (%d after %zu bytes) accepted",
		    zret, n);
	return 0;
}
