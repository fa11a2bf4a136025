/*
 * fuzz-pathspec: pathspec parsing and matching (pathspec_parse with the
 * global settings, pathspec_match, pathspec_common_prefix,
 * pathspec_may_match_below) and the glob matcher (wildmatch in its four
 * modes).
 *
 * Input: a flags byte, then NUL-separated strings: the pathspec
 * arguments up to the first empty string, then names to match.  Flags:
 * bit 0 prefix "sub/" (else ""), bits 1-4 GIT_LITERAL_, GLOB_, NOGLOB_
 * and ICASE_PATHSPECS, bit 5 PATHSPEC_PREFER_CWD, bits 6-7 the match
 * flags (directory, leading).
 *
 * Invariants checked:
 *   - parsing succeeds, or fails with a message;
 *   - every item's nowildcard_len is at most its length, at least its
 *     prefix; the common prefix ends with '/' and is shared by every
 *     positive item's literal part (unless the first item is an
 *     exclusion);
 *   - a match is a level from 1 to 4; matching with a fresh "seen"
 *     gives the same level as without one, and records only levels
 *     from 1 to 4 (exclusions at least FNMATCH once looked at);
 *   - a name that matches positively could be found below each of its
 *     leading directories (pathspec_may_match_below);
 *   - wildmatch answers WM_MATCH or WM_NOMATCH; a pattern without glob
 *     characters matches exactly the text equal to it (all four modes,
 *     but case-folded only under WM_CASEFOLD).
 */
#include "fuzz.h"

#include "error.h"
#include "pathspec.h"
#include "wildmatch.h"

#define MAX_ARGS 16
#define MAX_NAMES 16

static const char *const envs[] = {
	"GIT_LITERAL_PATHSPECS", "GIT_GLOB_PATHSPECS",
	"GIT_NOGLOB_PATHSPECS", "GIT_ICASE_PATHSPECS",
};

static int
has_glob(const char *s)
{
	return strpbrk(s, "*?[\\") != NULL;
}

static void
check_wildmatch(const char *pattern, const char *text)
{
	static const unsigned modes[] = {
		0, WM_CASEFOLD, WM_PATHNAME, WM_PATHNAME | WM_CASEFOLD,
	};

	for (size_t m = 0; m < ARRAY_SIZE(modes); m++) {
		int r = wildmatch(pattern, text, modes[m]);

		if (r != WM_MATCH && r != WM_NOMATCH)
			BUG("wildmatch returned %d", r);
		if (!has_glob(pattern) && !(modes[m] & WM_CASEFOLD) &&
		    (r == WM_MATCH) != !strcmp(pattern, text))
			BUG("literal '%s' against '%s': %d", pattern, text, r);
	}
	if (!has_glob(pattern) && wildmatch(pattern, pattern, 0) != WM_MATCH)
		BUG("literal '%s' does not match itself", pattern);
}

static void
check_items(const struct pathspec *ps)
{
	size_t common = pathspec_common_prefix(ps);

	for (size_t i = 0; i < ps->nr; i++) {
		const struct pathspec_item *it = &ps->items[i];

		if (it->nowildcard_len > it->len)
			BUG("item '%s': nowildcard_len past its end", it->match);
		if (it->nowildcard_len < it->prefix && it->prefix <= it->len)
			BUG("item '%s': nowildcard_len inside its prefix",
			    it->match);
		if (strlen(it->match) != it->len)
			BUG("item '%s': length %zu", it->match, it->len);
	}
	if (!common)
		return;
	if (ps->items[0].match[common - 1] != '/')
		BUG("common prefix %zu does not end in a slash", common);
	for (size_t i = 0; i < ps->nr; i++) {
		const struct pathspec_item *it = &ps->items[i];

		if (it->magic & PATHSPEC_EXCLUDE)
			continue;
		if (it->len < common ||
		    memcmp(it->match, ps->items[0].match, common))
			BUG("item '%s' does not share the common prefix",
			    it->match);
	}
}

static void
check_match(const struct pathspec *ps, const char *name, unsigned flags)
{
	size_t len = strlen(name);
	unsigned char seen[MAX_ARGS + 1];
	int plain, with_seen;

	memset(seen, 0, sizeof(seen));
	plain = pathspec_match(ps, name, len, 0, NULL, flags);
	with_seen = pathspec_match(ps, name, len, 0, seen, flags);
	if (plain < 0 || plain > PATHSPEC_MATCHED_EXACTLY)
		BUG("match level %d", plain);
	if (plain != with_seen)
		BUG("'%s': %d without seen, %d with", name, plain, with_seen);
	for (size_t i = 0; i < ps->nr; i++)
		if (seen[i] > PATHSPEC_MATCHED_EXACTLY)
			BUG("seen[%zu] = %d", i, seen[i]);
	if (pathspec_match_positive(ps, name, len, 0, NULL, flags) &&
	    !pathspec_may_match_below(ps, name, len))
		BUG("'%s' matches but could not be found below itself", name);
	/* a match implies each leading directory may lead to it */
	if (plain) {
		for (size_t d = 1; d < len; d++)
			if (name[d] == '/' &&
			    !pathspec_may_match_below(ps, name, d))
				BUG("'%s' matches but '%.*s' is pruned", name,
				    (int)d, name);
	}
	/* and with the length of its common prefix taken as matched */
	{
		size_t common = pathspec_common_prefix(ps);

		if (common && common <= len)
			(void)pathspec_match(ps, name, len, common - 1, NULL,
					     flags);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf in = STRBUF_INIT;
	struct pathspec ps;
	const char *args[MAX_ARGS], *names[MAX_NAMES];
	size_t nargs = 0, nnames = 0;
	const char *p, *end;
	unsigned flags, mflags = 0;
	int ret;

	if (!size)
		return 0;
	flags = data[0];
	strbuf_add(&in, data + 1, size - 1);
	end = in.buf + in.len;
	for (p = in.buf; p < end && nargs < MAX_ARGS && *p; p += strlen(p) + 1)
		args[nargs++] = p;
	if (p < end && !*p)
		p++;
	for (; p < end && nnames < MAX_NAMES; p += strlen(p) + 1)
		names[nnames++] = p;

	for (size_t i = 0; i < ARRAY_SIZE(envs); i++) {
		if (flags & (2u << i))
			setenv(envs[i], "1", 1);
		else
			unsetenv(envs[i]);
	}
	if (flags & 0x40)
		mflags |= PATHSPEC_MATCH_DIRECTORY;
	if (flags & 0x80)
		mflags |= PATHSPEC_MATCH_LEADING;

	ret = pathspec_parse(&ps, args, nargs, flags & 1 ? "sub/" : "", "/wt",
			     flags & 0x20 ? PATHSPEC_PREFER_CWD : 0);
	if (ret < 0) {
		if (!*error_msg())
			BUG("pathspec_parse failed without a message");
		if (ps.nr || ps.items)
			BUG("a failed parse left items");
		error_clear();
	} else {
		check_items(&ps);
		for (size_t i = 0; i < nnames; i++)
			check_match(&ps, names[i], mflags);
		pathspec_release(&ps);
	}
	for (size_t i = 0; i < nargs && i < 4; i++)
		for (size_t j = 0; j < nnames && j < 4; j++)
			check_wildmatch(args[i], names[j]);
	for (size_t i = 0; i < ARRAY_SIZE(envs); i++)
		unsetenv(envs[i]);
	strbuf_release(&in);
	return 0;
}
