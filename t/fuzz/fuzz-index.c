/*
 * fuzz-index: the DIRC parser — versions 2, 3 and 4, the TREE, REUC and
 * link extensions (a link naming a shared index is refused here:
 * fuzz-split-index has the merge), sparse-directory entries (mode
 * 040000) and sdir, the ones dirc skips (UNTR, FSMN, EOIE, IEOT, any
 * other optional one) and the unknown required ones it refuses —
 * through index_parse().
 *
 * Every image is parsed twice, serially and with an IEOT read on three
 * threads (found through EOIE), and both must agree: fail alike, or
 * give the same entries and extensions (a table that does not describe
 * the entries exactly falls back to the serial parse).  A third parse
 * with INDEX_READ_TREE_ONLY (write-tree's: the entries only checked
 * when a valid EOIE leads to a fully valid TREE) must fail with the
 * serial parse's very message, or give its TREE, and its entries once
 * index_read_rest() parsed the ones it skipped.
 *
 * Invariants checked on an image that parses:
 *   - every entry is found again by index_pos();
 *   - written back (index_write_fd, into a memfd) the image parses again,
 *     with its checksum verified, into the same entries;
 *   - and writing that second index gives the same bytes as the first
 *     write (parse then write is a fixed point after one round).
 */
#include "fuzz.h"

#include "cache-tree.h"
#include "error.h"
#include "index.h"
#include "fuzz-index-check.h"

/* Write idx into the memfd and read the bytes back into out. */
static void
write_back(struct strbuf *out, struct index *idx)
{
	int fd = fuzz_memfd();

	if (index_write_fd(idx, fd, "memfd") < 0)
		BUG("index_write_fd: %s", error_msg());
	fuzz_memfd_read(out, fd);
}

/*
 * b has a's entries and extensions: b read from a's bytes as written
 * (written), or from the same bytes as a another way.
 */
static void
same_entries(const struct index *a, const struct index *b, int written)
{
	if (a->nr != b->nr)
		BUG("%zu entries became %zu", a->nr, b->nr);
	for (size_t i = 0; i < a->nr; i++) {
		const struct index_entry *x = a->entries[i], *y = b->entries[i];

		if (x->namelen != y->namelen ||
		    memcmp(x->name, y->name, x->namelen))
			BUG("entry %zu: name changed", i);
		if (memcmp(&x->sd, &y->sd, sizeof(x->sd)) ||
		    x->mode != y->mode || !oideq(&x->oid, &y->oid) ||
		    x->flags != y->flags || x->ext_flags != y->ext_flags)
			BUG("entry %zu ('%s'): fields changed", i, x->name);
	}
	if (a->reuc_nr != b->reuc_nr)
		BUG("%zu resolve-undo records became %zu", a->reuc_nr,
		    b->reuc_nr);
	if (!a->tree != !b->tree)
		BUG("the TREE extension came or went");
	if (!written && a->read_sdir != b->read_sdir)
		BUG("sdir read by one parse only");
	if (written && !b->read_sdir)
		for (size_t i = 0; i < a->nr; i++)
			if (a->read_sdir || S_ISDIR(a->entries[i]->mode))
				BUG("a sparse index written without sdir");
}

/* The error's first line (if any) and message into out. */
static void
error_text(struct strbuf *out)
{
	if (error_pre())
		strbuf_addstr(out, error_pre());
	strbuf_addstr(out, "\n");
	strbuf_addstr(out, error_msg());
}

/*
 * The read that may skip the entries against the serial one (whose
 * result is serial_ret, its message msg): the same verdict and message,
 * the same TREE, and the same entries once the skipped ones are parsed.
 */
static void
check_tree_only(const struct index *idx, int serial_ret, const char *msg,
		const uint8_t *data, size_t size)
{
	struct index light;
	struct strbuf got = STRBUF_INIT, want = STRBUF_INIT;
	int ret = index_parse(&light, data, size, "fuzz",
			      INDEX_READ_QUIET | INDEX_READ_TREE_ONLY);

	error_text(&got);
	error_clear();
	if ((ret < 0) != (serial_ret < 0) ||
	    (ret < 0 && (ret != serial_ret || strcmp(got.buf, msg))))
		BUG("the serial parse gives %d (%s), the one for a valid TREE "
		    "%d (%s)", serial_ret, msg, ret, got.buf);
	strbuf_reset(&got);
	if (ret < 0) {
		strbuf_release(&got);
		return;
	}
	if (light.entries_skipped &&
	    (light.nr || light.entries_skipped != idx->nr ||
	     !cache_tree_fully_valid(light.tree) || light.split))
		BUG("%u entries skipped, %zu kept, of %zu", light.entries_skipped,
		    light.nr, idx->nr);
	if (light.tree_rest && (!light.entries_skipped || light.tree->subtree_nr))
		BUG("a TREE left at its root, %u entries skipped",
		    light.entries_skipped);
	if (!light.tree != !idx->tree ||
	    (idx->tree && (!oideq(&light.tree->oid, &idx->tree->oid) ||
			   light.tree->entry_count != idx->tree->entry_count)))
		BUG("the TREE differs when the entries are skipped");
	if (light.read_extended != idx->read_extended)
		BUG("extended flags seen by one parse only");
	index_read_rest(&light);
	if (light.entries_skipped || light.tree_rest)
		BUG("index_read_rest() left something out");
	same_entries(idx, &light, 0);
	if (idx->tree) {
		cache_tree_encode(&got, idx->tree);
		cache_tree_encode(&want, light.tree);
		if (got.len != want.len || memcmp(got.buf, want.buf, got.len))
			BUG("the TREE read in two steps differs");
	}
	strbuf_release(&got);
	strbuf_release(&want);
	index_release(&light);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct index idx, again, threaded;
	struct strbuf one = STRBUF_INIT, two = STRBUF_INIT, msg = STRBUF_INIT;
	int serial_ret, threaded_ret;

	serial_ret = index_parse(&idx, data, size, "fuzz", INDEX_READ_QUIET);
	error_text(&msg);
	error_clear();
	check_tree_only(&idx, serial_ret, msg.buf, data, size);
	strbuf_release(&msg);
	threaded_ret = index_parse_threads(&threaded, data, size, "fuzz",
					   INDEX_READ_QUIET, 3);
	error_clear();
	if ((serial_ret < 0) != (threaded_ret < 0))
		BUG("the serial parse %s, the threaded one %s",
		    serial_ret < 0 ? "failed" : "passed",
		    threaded_ret < 0 ? "failed" : "passed");
	if (serial_ret < 0)
		return 0;
	same_entries(&idx, &threaded, 0);
	if (idx.read_extended != threaded.read_extended)
		BUG("extended flags seen by one parse only");
	index_release(&threaded);
	fuzz_check_index_pos(&idx);
	if (idx.tree)
		cache_tree_fully_valid(idx.tree);

	write_back(&one, &idx);
	if (index_parse(&again, one.buf, one.len, "rewritten",
			INDEX_READ_QUIET | INDEX_READ_VERIFY) < 0)
		BUG("the rewritten index does not parse: %s", error_msg());
	same_entries(&idx, &again, 1);
	write_back(&two, &again);
	if (one.len != two.len || memcmp(one.buf, two.buf, one.len))
		BUG("writing the index twice gives different bytes");

	index_release(&again);
	index_release(&idx);
	strbuf_release(&one);
	strbuf_release(&two);
	return 0;
}
