/*
 * fuzz-tree: a tree object's content, walked as "cat-file -p" prints it
 * (tree_iter_next, the "%06o <type> <id>\t<quoted name>" line) and as
 * read-tree checks it (order by tree_name_cmp, duplicates, path_verify
 * of each name), and as hash-object checks it (tree_check, and git
 * 2.55's fsck checks in fsck.h, strict and not).
 *
 * Invariants checked:
 *   - tree_check() agrees with walking the entries one by one;
 *   - a tree fsck finds nothing wrong with (strictly) passes tree_check(),
 *     unless a mode is wider than git's 16 bits;
 *   - every entry lies inside the buffer, its name non-empty and free
 *     of NUL;
 *   - the quoted name unquotes back to the name;
 *   - tree_name_cmp() is antisymmetric on neighbours;
 *   - a tree that parses re-encodes to the same bytes (modes written
 *     back as stored, unless zero-padded).
 */
#include "fuzz.h"

#include <sys/stat.h>

#include "error.h"
#include "fsck.h"
#include "path.h"
#include "quote.h"
#include "tree.h"

/* Count the problems, check the report is well-formed, print nothing. */
static int
count_report(const struct fsck_report *r, void *data)
{
	if (!r->text || (r->severity != FSCK_ERROR &&
			 r->severity != FSCK_WARN))
		BUG("fsck handed over a malformed report");
	(*(int *)data)++;
	return 1;
}

/* fsck_buffer() strict and not; 0 if strictly nothing is wrong. */
static int
fsck_problems(const uint8_t *data, size_t size)
{
	struct fsck_options o;
	int n = 0, strict = 0;

	fsck_options_init(&o, count_report, &n);
	(void)fsck_buffer(&o, &null_oid, OBJ_TREE, data, size);
	fsck_options_release(&o);
	fsck_options_init(&o, count_report, &strict);
	o.strict = 1;
	(void)fsck_buffer(&o, &null_oid, OBJ_TREE, data, size);
	(void)fsck_finish(&o, NULL);
	fsck_options_release(&o);
	if (n > strict)
		BUG("strict fsck found fewer problems than lax");
	return strict;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf line = STRBUF_INIT, name = STRBUF_INIT;
	struct strbuf encoded = STRBUF_INIT;
	struct tree_iter it;
	struct tree_entry e, prev;
	int ret, have_prev = 0, padded = 0, check;

	check = tree_check(data, size);
	/*
	 * git's fsck keeps 16 bits of a mode, so "1100644" passes it as
	 * 100644; tree_check refuses modes that wide as malformed
	 */
	if (!fsck_problems(data, size) && check < 0 &&
	    strcmp(error_msg(), "malformed mode in tree entry"))
		BUG("fsck accepts a tree tree_check refuses");
	error_clear();
	tree_iter_init(&it, data, size);
	while ((ret = tree_iter_next(&it, &e)) > 0) {
		const char *type = S_ISDIR(e.mode) ? "tree" :
			S_ISGITLINK(e.mode) ? "commit" : "blob";
		const char *end;

		if (e.name < (const char *)data ||
		    (const unsigned char *)e.oid + HASH_RAWSZ > data + size)
			BUG("entry outside the buffer");
		if (!e.namelen || memchr(e.name, '\0', e.namelen))
			BUG("empty name or NUL in a name");
		if (e.mode != tree_canon_mode(e.raw_mode))
			BUG("mode not canonical");

		/* cat-file -p */
		strbuf_reset(&line);
		strbuf_addf(&line, "%06o %s %s\t", e.mode, type,
			    oid_to_hex(e.oid));
		quote_c_style(&line, e.name, e.namelen, 1);
		if (line.buf[line.len - 1] == '"') {
			const char *q = strchr(line.buf, '\t') + 1;

			if (unquote_c_style(&name, q, &end) != 0 || *end)
				BUG("quoted name does not unquote");
			if (name.len != e.namelen ||
			    memcmp(name.buf, e.name, e.namelen))
				BUG("quoted name unquotes to another name");
		}

		/* read-tree */
		if (have_prev) {
			int a = tree_name_cmp(prev.name, prev.namelen,
					      prev.mode, e.name, e.namelen,
					      e.mode);
			int b = tree_name_cmp(e.name, e.namelen, e.mode,
					      prev.name, prev.namelen,
					      prev.mode);

			if ((a < 0 && b <= 0) || (a > 0 && b >= 0) ||
			    (!a && b))
				BUG("tree_name_cmp is not antisymmetric");
		}
		strbuf_reset(&name);
		strbuf_add(&name, e.name, e.namelen);
		path_verify(name.buf, e.mode, PATH_PROTECT_NTFS);
		path_verify(name.buf, e.mode, PATH_PROTECT_HFS);
		prev = e;
		have_prev = 1;

		/* re-encoding */
		if (e.zero_padded)
			padded = 1;
		strbuf_addf(&encoded, "%o ", e.raw_mode);
		strbuf_add(&encoded, e.name, e.namelen);
		strbuf_addch(&encoded, '\0');
		strbuf_add(&encoded, e.oid->hash, HASH_RAWSZ);
	}
	if ((ret < 0) != (check < 0))
		BUG("tree_check and the walk disagree");
	if (!ret && !padded &&
	    (encoded.len != size || memcmp(encoded.buf, data, size)))
		BUG("a parsed tree does not re-encode to its bytes");
	error_clear();
	strbuf_release(&line);
	strbuf_release(&name);
	strbuf_release(&encoded);
	return 0;
}
