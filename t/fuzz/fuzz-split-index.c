/*
 * fuzz-split-index: a split index and its shared index — the link
 * extension, its EWAH bitmaps, and the merge of replacements, deletions
 * and additions — through index_parse() and split_index_merge_parsed().
 *
 * Input: be32 n, n bytes of the shared index, then the index with the
 * link (whose id need not match: the id check is not fuzzed).
 *
 * Invariants checked on a pair that merges:
 *   - the merged entries are in order: each is found again by
 *     index_pos();
 *   - what a split write would hold (split_index_prepare) names only
 *     entries of the index, replacements first;
 *   - written back whole (index_write_fd) the index parses again into
 *     the same number of entries.
 * And on every input: the index's entries parsed by IEOT blocks on
 * threads (a replacement's empty name, order checked across blocks)
 * are the serial parse's, which fails exactly when it fails.
 */
#include "fuzz.h"

#include "error.h"
#include "index.h"
#include "index-internal.h"
#include "fuzz-index-check.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct index idx, again, threaded, *shared;
	struct split_write sw;
	int split_ret;
	struct strbuf out = STRBUF_INIT;
	size_t n;
	int fd;

	if (size < 4)
		return 0;
	n = (size_t)data[0] << 24 | (size_t)data[1] << 16 |
	    (size_t)data[2] << 8 | data[3];
	if (n > size - 4)
		return 0;
	shared = xcalloc(1, sizeof(*shared));
	if (index_parse(shared, data + 4, n, "shared", INDEX_READ_QUIET) < 0) {
		error_clear();
		free(shared);
		return 0;
	}
	split_ret = index_parse(&idx, data + 4 + n, size - 4 - n, "fuzz",
				INDEX_READ_QUIET | INDEX_READ_SHARED);
	error_clear();
	/* IEOT blocks with unnamed replacements: the serial parse's */
	if (index_parse_threads(&threaded, data + 4 + n, size - 4 - n,
				"fuzz", INDEX_READ_QUIET | INDEX_READ_SHARED,
				3) < 0) {
		if (split_ret >= 0)
			BUG("the threaded parse failed, the serial one not");
		error_clear();
	} else {
		if (split_ret < 0)
			BUG("the serial parse failed, the threaded one not");
		if (threaded.nr != idx.nr)
			BUG("%zu entries parsed, %zu on threads", idx.nr,
			    threaded.nr);
		for (size_t i = 0; i < idx.nr; i++) {
			const struct index_entry *a = idx.entries[i];
			const struct index_entry *b = threaded.entries[i];

			if (a->namelen != b->namelen ||
			    memcmp(a->name, b->name, a->namelen) ||
			    !oideq(&a->oid, &b->oid) || a->mode != b->mode ||
			    a->flags != b->flags)
				BUG("entry %zu differs on threads", i);
		}
		index_release(&threaded);
	}
	if (split_ret < 0 || !idx.split || oid_is_null(&idx.split->base_oid)) {
		error_clear();
		index_release(shared);
		free(shared);
		index_release(&idx);
		return 0;
	}
	if (split_index_merge_parsed(&idx, shared) < 0) {
		error_clear();
		index_release(&idx);
		return 0;
	}
	fuzz_check_index_pos(&idx);
	split_index_prepare(&sw, &idx);
	if (sw.replaced > sw.nr || sw.nr > idx.nr)
		BUG("a split write of %zu entries: %zu, %zu replaced", idx.nr,
		    sw.nr, sw.replaced);
	for (size_t i = 0; i < sw.nr; i++)
		if ((i < sw.replaced) !=
		    !!(sw.entries[i]->state & CE_FROM_BASE))
			BUG("split entry %zu in the wrong part", i);
	split_write_release(&sw);

	fd = fuzz_memfd();
	if (index_write_fd(&idx, fd, "memfd") < 0)
		BUG("index_write_fd: %s", error_msg());
	fuzz_memfd_read(&out, fd);
	if (index_parse(&again, out.buf, out.len, "rewritten",
			INDEX_READ_QUIET | INDEX_READ_VERIFY) < 0)
		BUG("the rewritten index does not parse: %s", error_msg());
	if (again.nr != idx.nr)
		BUG("%zu entries became %zu", idx.nr, again.nr);
	index_release(&again);
	index_release(&idx);
	strbuf_release(&out);
	return 0;
}
