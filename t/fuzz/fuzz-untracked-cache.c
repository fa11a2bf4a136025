/*
 * fuzz-untracked-cache: the UNTR extension's data (what follows "UNTR"
 * and its size in an index) through untracked_cache_parse().
 *
 * Invariants checked on data that parses:
 *   - its encoding parses again and encodes to the same bytes (git's
 *     normal form: what dirc writes is a fixed point);
 *   - invalidating paths built from the directory names it holds, one
 *     through a missing directory and one at the top keeps the encoding
 *     parseable, leaves the root without untracked names, and never
 *     lengthens the encoding.
 */
#include "fuzz.h"

#include "untracked-cache.h"

static void
encode_twice(const struct untracked_cache *uc, struct strbuf *out)
{
	struct strbuf again = STRBUF_INIT;
	struct untracked_cache *back;

	strbuf_reset(out);
	untracked_cache_encode(out, uc);
	back = untracked_cache_parse((const unsigned char *)out->buf,
				     out->len);
	if (!back)
		BUG("the encoding of a parsed UNTR does not parse");
	untracked_cache_encode(&again, back);
	if (again.len != out->len || memcmp(again.buf, out->buf, out->len))
		BUG("encoding a parsed UNTR twice gives different bytes");
	untracked_cache_free(back);
	strbuf_release(&again);
}

/* Invalidate "<dir>/f": exercised (the search may miss an unsorted d). */
static void
invalidate_under(struct untracked_cache *uc, const char *dir)
{
	struct strbuf file = STRBUF_INIT;

	strbuf_addf(&file, "%s/f", dir);
	untracked_cache_invalidate(uc, file.buf, file.len);
	strbuf_release(&file);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct untracked_cache *uc = untracked_cache_parse(data, size);
	struct strbuf one = STRBUF_INIT, two = STRBUF_INIT;

	if (!uc)
		return 0;
	encode_twice(uc, &one);
	if (uc->root) {
		const struct uc_dir *root = uc->root;

		for (size_t i = 0; i < root->dirs_nr && i < 4; i++)
			if (*root->dirs[i]->name)
				invalidate_under(uc, root->dirs[i]->name);
		untracked_cache_invalidate(uc, "no/such/dir/f", 13);
		/* a file at the top: the root itself, always */
		untracked_cache_invalidate(uc, "f", 1);
		if (root->valid || root->untracked_nr)
			BUG("invalidating a top-level path kept the root valid");
	}
	encode_twice(uc, &two);
	if (two.len > one.len)
		BUG("invalidating made the cache longer");
	untracked_cache_free(uc);
	strbuf_release(&one);
	strbuf_release(&two);
	return 0;
}
