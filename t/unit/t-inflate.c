/*
 * t-inflate: inflate_exact() against zlib.  Data of many shapes (random
 * bytes, text, long runs, tree-like records, empty) compressed by zlib
 * at every level and strategy, with and without its fixed code, must
 * come back byte for byte; one byte less or more room is SHORT or LONG.
 * Every truncation of some streams, and random corruptions of all of
 * them, must be refused exactly when zlib refuses them.
 */
#include "tap.h"
#include "inflate.h"

#include <zlib.h>

static uint64_t seed = 0x9e3779b97f4a7c15ull;

static unsigned
rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (unsigned)(seed >> 32);
}

/* Data of a shape: 0 random, 1 text, 2 runs, 3 tree records, 4 mixed. */
static void
make_data(unsigned char *buf, size_t len, int shape)
{
	static const char *words[] = {
		"the ", "tree ", "index ", "blob ", "commit ", "\n",
		"100644 ", "Makefile", "drivers/", "net/",
	};

	for (size_t i = 0; i < len;) {
		switch (shape) {
		case 0:
			buf[i++] = (unsigned char)rnd();
			break;
		case 1: {
			const char *w = words[rnd() % 10];

			for (; *w && i < len; w++)
				buf[i++] = (unsigned char)*w;
			break;
		}
		case 2: {
			size_t run = 1 + rnd() % 300;
			unsigned char c = (unsigned char)(rnd() % 4);

			for (; run && i < len; run--)
				buf[i++] = c;
			break;
		}
		case 3: {
			char rec[64];
			int n = snprintf(rec, sizeof(rec), "100644 file%u.c",
					 rnd() % 1000);

			for (int k = 0; k <= n && i < len; k++)
				buf[i++] = (unsigned char)rec[k];
			for (int k = 0; k < 20 && i < len; k++)
				buf[i++] = (unsigned char)rnd();
			break;
		}
		default:
			make_data(buf + i, MIN(len - i, 1 + rnd() % 700),
				  (int)(rnd() % 4));
			i += MIN(len - i, 1 + rnd() % 700);
			break;
		}
	}
}

/* zlib's deflate of data at level and strategy into out; its length. */
static size_t
compress_with(unsigned char *out, size_t cap, const unsigned char *data,
	      size_t len, int level, int strategy)
{
	z_stream zs;

	memset(&zs, 0, sizeof(zs));
	if (deflateInit2(&zs, level, Z_DEFLATED, 15, 8, strategy) != Z_OK)
		return 0;
	zs.next_in = (unsigned char *)data;
	zs.avail_in = (uInt)len;
	zs.next_out = out;
	zs.avail_out = (uInt)cap;
	if (deflate(&zs, Z_FINISH) != Z_STREAM_END) {
		deflateEnd(&zs);
		return 0;
	}
	deflateEnd(&zs);
	return zs.total_out;
}

/* Does zlib decode in (len bytes) to a stream of exactly size bytes? */
static int
zlib_accepts(const unsigned char *in, size_t len, size_t size)
{
	unsigned char *buf = malloc(size + 1);
	z_stream zs;
	int ret, ok;

	memset(&zs, 0, sizeof(zs));
	inflateInit(&zs);
	zs.next_in = (unsigned char *)in;
	zs.avail_in = (uInt)len;
	zs.next_out = buf;
	zs.avail_out = (uInt)size + 1;
	ret = inflate(&zs, Z_FINISH);
	ok = ret == Z_STREAM_END && zs.total_out == size;
	inflateEnd(&zs);
	free(buf);
	return ok;
}

/* Does inflate_exact() decode it into exactly size bytes? */
static int
ours_accepts(const unsigned char *in, size_t len, size_t size)
{
	unsigned char *buf = malloc(size + 1);
	int ok = inflate_exact(buf, size, in, len) == INFLATE_OK;

	free(buf);
	return ok;
}

static void
test_round_trips(void)
{
	static const size_t sizes[] = { 0, 1, 2, 7, 100, 258, 700, 4096,
					33000, 70000, 300000 };
	static const int strategies[] = { Z_DEFAULT_STRATEGY, Z_FILTERED,
					  Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED };
	size_t cap = 400000, streams = 0;
	unsigned char *data = malloc(cap), *z = malloc(cap + 1000);
	unsigned char *out = malloc(cap + 8);
	int bad = 0, size_bad = 0, prefix_bad = 0, prefix_full = 0;

	for (size_t si = 0; si < ARRAY_SIZE(sizes); si++)
		for (int shape = 0; shape < 5; shape++)
			for (int level = 0; level <= 9; level++)
				for (size_t st = 0; st < ARRAY_SIZE(strategies);
				     st++) {
					size_t len = sizes[si], zlen;

					if (len > 33000 && (level % 3 || st))
						continue;	/* keep it quick */
					make_data(data, len, shape);
					zlen = compress_with(z, cap + 1000, data,
							     len, level,
							     strategies[st]);
					if (!zlen) {
						bad++;
						continue;
					}
					streams++;
					/* a pack has the next object after it */
					z[zlen] = (unsigned char)rnd();
					if (inflate_exact(out, len, z,
							  zlen + 1) != INFLATE_OK ||
					    memcmp(out, data, len)) {
						if (bad++ < 3)
							diag("size %zu shape %d "
							     "level %d strategy "
							     "%d: %d", len, shape,
							     level,
							     strategies[st],
							     inflate_exact(out,
							     len, z, zlen + 1));
					}
					if (len && inflate_exact(out, len - 1, z,
								 zlen) !=
					    INFLATE_LONG)
						size_bad++;
					if (inflate_exact(out, len + 1, z, zlen) !=
					    INFLATE_SHORT)
						size_bad++;
					/*
					 * a prefix: never more than asked or
					 * than the data, never a wrong byte
					 */
					for (size_t k = 0; k <= 40; k += 8) {
						size_t got = inflate_prefix(out,
							k, z, zlen + 1);

						if (got > k || got > len ||
						    memcmp(out, data, got))
							prefix_bad++;
						prefix_full += k == 40 &&
							       got == k;
					}
				}
	is_int(bad, 0, "zlib's streams (every level, strategy, shape) "
	       "decode to their data");
	is_int(size_bad, 0, "one byte less room is LONG, one more SHORT");
	is_int(prefix_bad, 0, "inflate_prefix gives the data's first bytes");
	ok(prefix_full > 200, "... all 40 asked for in %d streams",
	   prefix_full);
	ok(streams > 1000, "... over %zu streams", streams);
	free(data);
	free(z);
	free(out);
}

/* Mutations of zlib's streams: we accept exactly what zlib accepts. */
static void
test_corruptions(void)
{
	size_t cap = 20000, tried = 0, accepted = 0;
	unsigned char *data = malloc(cap), *z = malloc(cap + 1000);
	unsigned char *m = malloc(cap + 1000);
	int differ = 0, truncated_ok = 0;

	for (int round = 0; round < 3000; round++) {
		size_t len = rnd() % 3000, zlen;
		int shape = (int)(rnd() % 5), level = (int)(rnd() % 10);

		make_data(data, len, shape);
		zlen = compress_with(z, cap + 1000, data, len, level,
				     rnd() % 4 ? Z_DEFAULT_STRATEGY : Z_FIXED);
		if (!zlen)
			continue;
		/* every cut of the first streams, then a few */
		for (size_t cut = 0; cut < zlen;
		     cut += round < 20 ? 1 : 1 + rnd() % 64)
			if (ours_accepts(z, cut, len))
				truncated_ok++;
		for (int k = 0; k < 8; k++) {
			int zok, ours;

			memcpy(m, z, zlen);
			for (int flips = 1 + (int)(rnd() % 3); flips; flips--)
				m[rnd() % zlen] ^= (unsigned char)(1 << (rnd() % 8));
			zok = zlib_accepts(m, zlen, len);
			ours = ours_accepts(m, zlen, len);
			tried++;
			accepted += ours;
			if (zok != ours) {
				differ++;
				if (differ < 4)
					diag("round %d: zlib %d, ours %d",
					     round, zok, ours);
			}
		}
	}
	is_int(truncated_ok, 0, "no stream cut short is accepted");
	is_int(differ, 0, "corrupted streams: refused exactly when zlib "
	       "refuses them");
	ok(tried > 10000, "... %zu streams tried, %zu still valid", tried,
	   accepted);
	free(data);
	free(z);
	free(m);
}

static void
test_headers(void)
{
	/* "x\x9c" + an empty final fixed block + adler32 of nothing */
	static const unsigned char empty[] = { 0x78, 0x9c, 0x03, 0x00, 0x00,
					       0x00, 0x00, 0x01 };
	unsigned char buf[8], bad[sizeof(empty)];

	is_int(inflate_exact(buf, 0, empty, sizeof(empty)), INFLATE_OK,
	       "the empty stream");
	memcpy(bad, empty, sizeof(bad));
	bad[0] = 0x79;	/* compression method 9 */
	is_int(inflate_exact(buf, 0, bad, sizeof(bad)), INFLATE_BAD,
	       "a method other than deflate");
	memcpy(bad, empty, sizeof(bad));
	bad[1] = 0x9d;	/* check bits wrong */
	is_int(inflate_exact(buf, 0, bad, sizeof(bad)), INFLATE_BAD,
	       "header check bits");
	memcpy(bad, empty, sizeof(bad));
	bad[1] = 0xbb;	/* 0x78bb: a preset dictionary, check bits right */
	is_int(inflate_exact(buf, 0, bad, sizeof(bad)), INFLATE_BAD,
	       "a preset dictionary");
	memcpy(bad, empty, sizeof(bad));
	bad[0] = 0x88;	/* a 64 KB window: 0x8801 passes the check */
	bad[1] = 0x01;
	is_int(inflate_exact(buf, 0, bad, sizeof(bad)), INFLATE_BAD,
	       "a window over 32 KB");
	memcpy(bad, empty, sizeof(bad));
	bad[7] = 0x02;	/* adler32 wrong */
	is_int(inflate_exact(buf, 0, bad, sizeof(bad)), INFLATE_BAD,
	       "a wrong Adler-32");
	is_int(inflate_exact(buf, 0, empty, 1), INFLATE_BAD, "one byte");
}

int
main(void)
{
	test_headers();
	test_round_trips();
	test_corruptions();
	return done_testing();
}
