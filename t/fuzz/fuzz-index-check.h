/*
 * fuzz-index-check: the invariant the index fuzz targets check on every
 * index that parses: each entry is found again, at its own place, by
 * index_pos().  Include after index.h.
 */
#ifndef DIRC_FUZZ_INDEX_CHECK_H
#define DIRC_FUZZ_INDEX_CHECK_H

static inline void
fuzz_check_index_pos(const struct index *idx)
{
	for (size_t i = 0; i < idx->nr; i++) {
		const struct index_entry *e = idx->entries[i];

		if (index_pos(idx, e->name, e->namelen, ce_stage(e)) !=
		    (ssize_t)i)
			BUG("entry %zu ('%s') not found", i, e->name);
	}
}

#endif
