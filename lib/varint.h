/*
 * varint: git's "offset" variable-length integers (index v4 name
 * prefixes, the untracked cache): 7 bits a byte, most significant
 * first, the high bit on every byte but the last, and each
 * continuation adding one so that every number has one encoding.
 */
#ifndef DIRC_VARINT_H
#define DIRC_VARINT_H

#include <stdint.h>
#include "strbuf.h"

static inline void
varint_encode(struct strbuf *sb, uint64_t v)
{
	unsigned char buf[16];
	int pos = sizeof(buf) - 1;

	buf[pos] = v & 127;
	while (v >>= 7)
		buf[--pos] = 128 | (--v & 127);
	strbuf_add(sb, buf + pos, sizeof(buf) - pos);
}

/*
 * Decode from *p, not reading at or past end: 0 and *p moved past it,
 * or -1 (truncated, or more than 64 bits) with *p where it was.
 */
static inline int
varint_decode(const unsigned char **p, const unsigned char *end,
	      uint64_t *out)
{
	const unsigned char *q = *p;
	uint64_t v;
	unsigned char b;

	if (q >= end)
		return -1;
	b = *q++;
	v = b & 127;
	while (b & 128) {
		if (q >= end || v > (UINT64_MAX >> 8))
			return -1;
		b = *q++;
		v = ((v + 1) << 7) | (b & 127);
	}
	*p = q;
	*out = v;
	return 0;
}

#endif
