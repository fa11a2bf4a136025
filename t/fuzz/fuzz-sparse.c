/*
 * fuzz-sparse: sparse-checkout pattern files (sparse_parse, cone and
 * non-cone, both case modes) and the question asked of each index entry
 * (sparse_path_in).
 *
 * Input: a flags byte (bit 0 cone mode, bit 1 core.ignoreCase, bit 2 the
 * paths are gitlinks), a pattern file, a NUL, then NUL-separated paths
 * (at most 32) to ask about, in the order given.
 *
 * Invariants checked:
 *   - every answer is 0 or 1;
 *   - the answer does not depend on what was asked before: asking in the
 *     given order (through the directory cache) and asking a fresh
 *     struct sparse one path at a time agree, and so does asking the
 *     paths again in reverse order;
 *   - cone mode that survived parsing: a path at the top (no '/') is in;
 *     the full cone has every path in;
 *   - a cone file git would warn about falls back to non-cone matching.
 */
#include "fuzz.h"

#include "error.h"
#include "sparse.h"

#define MAX_NAMES 32

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf in = STRBUF_INIT;
	struct sparse sp, one;
	const char *names[MAX_NAMES], *p, *end, *file;
	int answer[MAX_NAMES];
	size_t nnames = 0, flen;
	unsigned flags, mode;

	if (!size)
		return 0;
	flags = data[0];
	mode = flags & 4 ? 0160000 : 0100644;
	strbuf_add(&in, data + 1, size - 1);
	end = in.buf + in.len;
	file = in.buf;
	p = memchr(file, '\0', (size_t)(end - file));
	flen = p ? (size_t)(p - file) : (size_t)(end - file);
	for (p = p ? p + 1 : end; p < end && nnames < MAX_NAMES;
	     p += strlen(p) + 1)
		if (*p)
			names[nnames++] = p;

	sparse_init(&sp);
	sparse_init(&one);
	sparse_parse(&sp, file, flen, flags & 1, !!(flags & 2));
	if ((flags & 1) && sp.warnings.len && sp.cone)
		BUG("cone mode kept after a warning");
	for (size_t i = 0; i < nnames; i++) {
		answer[i] = sparse_path_in(&sp, names[i], strlen(names[i]),
					   mode);
		if (answer[i] != 0 && answer[i] != 1)
			BUG("'%s': answer %d", names[i], answer[i]);
		if (sp.cone && (sp.full || !strchr(names[i], '/')) &&
		    !answer[i])
			BUG("'%s': out of the cone", names[i]);
	}
	for (size_t i = nnames; i-- > 0;)
		if (sparse_path_in(&sp, names[i], strlen(names[i]), mode) !=
		    answer[i])
			BUG("'%s': another answer in reverse order", names[i]);
	for (size_t i = 0; i < nnames; i++) {
		sparse_parse(&one, file, flen, flags & 1, !!(flags & 2));
		if (sparse_path_in(&one, names[i], strlen(names[i]), mode) !=
		    answer[i])
			BUG("'%s': another answer asked alone", names[i]);
	}
	sparse_release(&sp);
	sparse_release(&one);
	error_clear();
	strbuf_release(&in);
	return 0;
}
