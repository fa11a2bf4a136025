/*
 * fuzz-delta: git's delta format through pack_apply_delta(), which
 * resolves every delta read from a pack.
 *
 * Input: a 2-byte little-endian base length n, then n bytes of base
 * (fewer if the input is shorter), then the delta.
 *
 * Invariants checked:
 *   - a delta that applies gives exactly the size its header announces,
 *     NUL-terminated;
 *   - the result, inserted whole by a delta we build (insert-only
 *     instructions of up to 127 bytes), is reproduced from the same
 *     base.
 */
#include "fuzz.h"

#include "error.h"
#include "pack.h"

static void
put_varint(struct strbuf *sb, size_t v)
{
	while (v >= 0x80) {
		strbuf_addch(sb, (v & 0x7f) | 0x80);
		v >>= 7;
	}
	strbuf_addch(sb, v);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const unsigned char *base, *delta;
	size_t base_len, delta_len, out_len, again_len, dst, shift = 0;
	unsigned char *out, *again;
	struct strbuf sb = STRBUF_INIT;

	if (size < 2)
		return 0;
	base_len = data[0] | (size_t)data[1] << 8;
	base = data + 2;
	if (base_len > size - 2)
		base_len = size - 2;
	delta = base + base_len;
	delta_len = size - 2 - base_len;

	if (pack_apply_delta(base, base_len, delta, delta_len, &out,
			     &out_len) < 0) {
		error_clear();
		return 0;
	}
	/* the second varint of the header is the result size */
	dst = 0;
	{
		const unsigned char *d = delta;

		while (*d++ & 0x80)
			;
		do {
			dst |= (size_t)(*d & 0x7f) << shift;
			shift += 7;
		} while (*d++ & 0x80);
	}
	if (out_len != dst || out[out_len] != '\0')
		BUG("delta gave %zu bytes, its header says %zu", out_len, dst);

	put_varint(&sb, base_len);
	put_varint(&sb, out_len);
	for (size_t off = 0; off < out_len; off += 127) {
		size_t n = MIN(out_len - off, (size_t)127);

		strbuf_addch(&sb, n);
		strbuf_add(&sb, out + off, n);
	}
	if (pack_apply_delta(base, base_len, (unsigned char *)sb.buf, sb.len,
			     &again, &again_len) < 0)
		BUG("an insert-only delta does not apply: %s", error_msg());
	if (again_len != out_len || memcmp(again, out, out_len))
		BUG("an insert-only delta gives other bytes");
	free(again);
	free(out);
	strbuf_release(&sb);
	return 0;
}
