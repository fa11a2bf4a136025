/*
 * fuzz-pack-idx: a pack index (.idx, versions 1 and 2, 32- and 64-bit
 * offsets) through pack_open_buffer(), then every lookup dirc makes in
 * one: each id and offset by position, pack_find() and
 * pack_find_prefix().
 *
 * Invariants checked on an index that opens:
 *   - every table lies inside the buffer (ASan checks each read);
 *   - when the ids are sorted and the fan-out agrees with them (as in
 *     every index git writes), pack_find() finds each id at its own
 *     position and pack_find_prefix() brackets it, for the full id and
 *     for a 7-digit prefix.
 */
#include "fuzz.h"

#include "error.h"
#include "pack.h"

/* Are the ids strictly sorted, and each under its fan-out bucket? */
static int
well_ordered(const struct pack *p)
{
	for (uint32_t n = 0; n < p->nr; n++) {
		const unsigned char *id = pack_nth_id(p, n);
		uint32_t lo = id[0] ? get_be32(p->fanout + 4 * (id[0] - 1)) : 0;
		uint32_t hi = get_be32(p->fanout + 4 * id[0]);

		if (n < lo || n >= hi)
			return 0;
		if (n && memcmp(pack_nth_id(p, n - 1), id, HASH_RAWSZ) >= 0)
			return 0;
	}
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pack *p;
	int sorted;

	if (pack_open_buffer(&p, data, size, "fuzz.idx") < 0) {
		error_clear();
		return 0;
	}
	if ((uint64_t)p->nr * HASH_RAWSZ > size)
		BUG("%u objects cannot fit in %zu bytes", p->nr, size);
	sorted = well_ordered(p);
	for (uint32_t n = 0; n < p->nr; n++) {
		struct object_id oid;
		uint32_t found, first, last;

		memcpy(oid.hash, pack_nth_id(p, n), HASH_RAWSZ);
		pack_nth_offset(p, n);
		if (!pack_find(p, &oid, &found)) {
			if (sorted)
				BUG("object %u not found", n);
			continue;
		}
		if (found >= p->nr || memcmp(pack_nth_id(p, found), oid.hash,
					     HASH_RAWSZ))
			BUG("pack_find returned a wrong position");
		if (sorted && found != n)
			BUG("object %u found at %u", n, found);
		pack_find_prefix(p, oid.hash, HASH_HEXSZ, &first, &last);
		if (sorted && (first > n || last <= n))
			BUG("prefix search missed object %u", n);
		pack_find_prefix(p, oid.hash, 7, &first, &last);
		if (sorted && (first > n || last <= n))
			BUG("7-digit prefix search missed object %u", n);
		if (last > p->nr || first > last)
			BUG("prefix range out of bounds");
	}
	pack_close(p);
	return 0;
}
