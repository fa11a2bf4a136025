/*
 * fuzz-exclude: ignore-rule files (exclude_list_parse) and matching
 * (exclude_list_match, both case modes, files and directories).
 *
 * Input: a pattern file, then a NUL, then NUL-separated paths (at most
 * 16) to match; the first byte of the file part, if it is one of "abc",
 * picks the list's base ("", "a/", "a/b/") and is not part of the file.
 *
 * Invariants checked:
 *   - every pattern is a NUL-free string of its recorded length, its
 *     wildcard-free prefix no longer than it; the line numbers rise;
 *   - a pattern's flags agree with its text: NODIR iff no '/' in it,
 *     ENDSWITH only for a '*' followed by no wildcard;
 *   - the deciding pattern, if any, belongs to the list, and the answer
 *     (matched / negated) is its NEGATIVE flag; a directory-only pattern
 *     never decides for a file;
 *   - matching is the same twice (no state), and case-folded matching
 *     finds a pattern whenever exact matching does, for patterns and
 *     paths free of escapes and sets.
 */
#include "fuzz.h"

#include "error.h"
#include "exclude.h"

#define MAX_NAMES 16

static int
plain(const char *s)
{
	return !strpbrk(s, "\\[");
}

static void
check_list(const struct exclude_list *pl)
{
	int last = 0;

	for (size_t i = 0; i < pl->nr; i++) {
		const struct exclude_pattern *p = pl->patterns[i];

		if (strlen(p->pattern) != p->len)
			BUG("pattern %zu: length %zu, recorded %zu", i,
			    strlen(p->pattern), p->len);
		if (p->nowildcard > p->len)
			BUG("pattern '%s': nowildcard past its end", p->pattern);
		if (p->lineno <= last)
			BUG("pattern '%s': line %d after %d", p->pattern,
			    p->lineno, last);
		last = p->lineno;
		if (!(p->flags & EXCLUDE_NODIR) != !!strchr(p->pattern, '/'))
			BUG("pattern '%s': NODIR wrong", p->pattern);
		if ((p->flags & EXCLUDE_ENDSWITH) &&
		    (p->pattern[0] != '*' || strpbrk(p->pattern + 1, "*?[\\")))
			BUG("pattern '%s': ENDSWITH wrong", p->pattern);
		if (p->list != pl)
			BUG("pattern '%s': not of its list", p->pattern);
	}
}

static void
check_match(const struct exclude_list *pl, const char *path)
{
	size_t len = strlen(path);

	for (int is_dir = 0; is_dir < 2; is_dir++) {
		const struct exclude_pattern *p, *again, *folded;
		enum exclude_result r, r2, rf;

		r = exclude_list_match(pl, path, len, is_dir, 0, &p);
		r2 = exclude_list_match(pl, path, len, is_dir, 0, &again);
		rf = exclude_list_match(pl, path, len, is_dir, EXCLUDE_ICASE,
					&folded);
		if (r != r2 || p != again)
			BUG("'%s': two answers", path);
		if (!p != (r == EXCLUDE_UNDECIDED))
			BUG("'%s': answer %d without a pattern", path, r);
		if (p && ((p->flags & EXCLUDE_NEGATIVE) ?
			  r != EXCLUDE_NEGATED : r != EXCLUDE_MATCHED))
			BUG("'%s': answer %d against its pattern", path, r);
		if (p && p->list != pl)
			BUG("'%s': a pattern of another list", path);
		if (p && !is_dir && (p->flags & EXCLUDE_MUSTBEDIR))
			BUG("'%s': a directory pattern for a file", path);
		if (p && plain(p->pattern) && plain(path) &&
		    rf == EXCLUDE_UNDECIDED)
			BUG("'%s': matched '%s', but not under icase", path,
			    p->pattern);
		(void)folded;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf in = STRBUF_INIT;
	struct exclude_list pl;
	const char *names[MAX_NAMES], *p, *end, *file, *base = "";
	size_t nnames = 0, flen;

	strbuf_add(&in, data, size);
	end = in.buf + in.len;
	file = in.buf;
	if (in.len && (*file == 'a' || *file == 'b' || *file == 'c')) {
		base = *file == 'a' ? "" : *file == 'b' ? "a/" : "a/b/";
		file++;
	}
	p = memchr(file, '\0', (size_t)(end - file));
	flen = p ? (size_t)(p - file) : (size_t)(end - file);
	for (p = p ? p + 1 : end; p < end && nnames < MAX_NAMES;
	     p += strlen(p) + 1)
		names[nnames++] = p;

	exclude_list_init(&pl, base, "fuzz");
	exclude_list_parse(&pl, file, flen);
	check_list(&pl);
	for (size_t i = 0; i < nnames; i++)
		check_match(&pl, names[i]);
	exclude_list_release(&pl);
	strbuf_release(&in);
	return 0;
}
