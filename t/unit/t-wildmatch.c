/*
 * t-wildmatch: the glob matcher against git 2.39's answers.  Each case
 * is a text, a pattern and four results, in the order of git's
 * "test-tool wildmatch" modes that produced them: wildmatch
 * (WM_PATHNAME), iwildmatch (WM_PATHNAME | WM_CASEFOLD), pathmatch (no
 * flags: how plain pathspecs glob) and ipathmatch (WM_CASEFOLD).  The
 * cases are ours; the results were read off git's test-tool.  A long
 * pattern is also checked, so that the recursion of a long run of
 * stars stays in bounds.
 */
#include "tap.h"

#include <stdlib.h>
#include <string.h>

#include "wildmatch.h"

static const struct {
	const char *text, *pattern;
	const char *want;	/* "1" match / "0" not, per mode */
} cases[] = {
	{ "foo", "foo", "1111" },
	{ "foo", "fo", "0000" },
	{ "foo", "fooo", "0000" },
	{ "foo", "f?o", "1111" },
	{ "foo", "*", "1111" },
	{ "foo", "f*", "1111" },
	{ "foo", "*o", "1111" },
	{ "foo", "f*x", "0000" },
	{ "*", "", "0000" },
	{ "?", "", "0000" },
	{ "a", "", "0000" },
	{ "foo/bar", "foo*", "0011" },
	{ "foo/bar", "foo/*", "1111" },
	{ "foo/bar", "*bar", "0011" },
	{ "foo/bar", "f?o?bar", "0011" },
	{ "foo/bar", "foo?bar", "0011" },
	{ "foo/bar/baz", "foo/*/baz", "1111" },
	{ "foo/bar/baz", "foo/**/baz", "1111" },
	{ "foo/baz", "foo/**/baz", "1100" },
	{ "foo/x/y/baz", "foo/**/baz", "1111" },
	{ "foo/baz", "foo**/baz", "1111" },
	{ "foox/baz", "foo**/baz", "1111" },
	{ "foo/x/baz", "foo**baz", "0011" },
	{ "foo/bar", "**/bar", "1111" },
	{ "bar", "**/bar", "1100" },
	{ "x/y/bar", "**/bar", "1111" },
	{ "foo/bar", "foo/**", "1111" },
	{ "foo/", "foo/**", "1111" },
	{ "foo", "foo/**", "0000" },
	{ "foo/bar/baz", "**", "1111" },
	{ "foo/bar", "*/bar", "1111" },
	{ "foo/x/bar", "*/bar", "0011" },
	{ "a/b", "a/\\**", "0000" },
	{ "a/*", "a/\\*", "1111" },
	{ "a/x", "a/\\*", "0000" },
	{ "a", "[abc]", "1111" },
	{ "d", "[abc]", "0000" },
	{ "a", "[!abc]", "0000" },
	{ "d", "[!abc]", "1111" },
	{ "d", "[^abc]", "1111" },
	{ "]", "[]]", "1111" },
	{ "]", "[!]]", "0000" },
	{ "a", "[!]]", "1111" },
	{ "-", "[a-]", "1111" },
	{ "b", "[a-c]", "1111" },
	{ "B", "[a-c]", "0101" },
	{ "b", "[A-C]", "0101" },
	{ "B", "[A-Z]", "1111" },
	{ "b", "[A-Z]", "0101" },
	{ "a", "[A]", "0000" },
	{ "A", "[A]", "1010" },
	{ "A", "[a]", "0101" },
	{ "a", "\\A", "0000" },
	{ "A", "\\A", "1010" },
	{ "A", "\\a", "0101" },
	{ "*", "\\*", "1111" },
	{ "x", "\\*", "0000" },
	{ "a", "a\\", "0000" },
	{ "a\\", "a\\\\", "1111" },
	{ "a", "[[:alpha:]]", "1111" },
	{ "1", "[[:alpha:]]", "0000" },
	{ "1", "[[:digit:]]", "1111" },
	{ "x", "[[:digit:]]", "0000" },
	{ "A", "[[:upper:]]", "1111" },
	{ "a", "[[:upper:]]", "0101" },
	{ "a", "[[:lower:]]", "1111" },
	{ "A", "[[:lower:]]", "0101" },
	{ " ", "[[:space:]]", "1111" },
	{ "[[:space:]]", "", "0000" },
	{ ".", "[[:punct:]]", "1111" },
	{ "a", "[[:punct:]]", "0000" },
	{ "f", "[[:xdigit:]]", "1111" },
	{ "g", "[[:xdigit:]]", "0000" },
	{ "a", "[[:bogus:]]", "0000" },
	{ "a", "[[:alpha:]", "0000" },
	{ ":", "[[:]", "1111" },
	{ "[", "[[]", "1111" },
	{ "a", "[a", "0000" },
	{ "a", "[", "0000" },
	{ "/", "?", "0011" },
	{ "/", "*", "0011" },
	{ "/", "[/]", "0011" },
	{ "/", "[!a]", "0011" },
	{ "a/b", "a[/]b", "0011" },
	{ "a/b", "a?b", "0011" },
	{ "a/b", "a*b", "0011" },
	{ "ab/c/d", "a*/*/d", "1111" },
	{ "ab/c/d", "a**/d", "0011" },
	{ "abcd", "a*c*d", "1111" },
	{ "abcd", "a*d*d", "0000" },
	{ "aaab", "*a*b", "1111" },
	{ "xyz", "*[y]*", "1111" },
	{ "foo.c", "*.c", "1111" },
	{ "sub/foo.c", "*.c", "0011" },
	{ "sub/foo.C", "*.c", "0001" },
	{ "FOO", "foo", "0101" },
	{ "foo", "FOO", "0101" },
	{ "Foo/Bar", "foo/bar", "0101" },
	{ "Foo/Bar", "F*/*R", "0101" },
	{ "a", "[a-c-e]", "1111" },
	{ "d", "[a-c-e]", "0000" },
	{ "-", "[a-c-e]", "1111" },
	{ "e", "[a-c-e]", "1111" },
	{ "\\", "[\\\\]", "1111" },
	{ "]", "[\\]]", "1111" },
	{ "a", "[\\a]", "1111" },
	{ "a", "[a-\\z]", "1111" },
	{ "z", "[\\a-z]", "1111" },
	{ "a-b", "a[---]b", "1111" },
	{ "a.b", "a[,-.]b", "1111" },
};

static const unsigned modes[] = {
	WM_PATHNAME,
	WM_PATHNAME | WM_CASEFOLD,
	0,
	WM_CASEFOLD,
};

static const char *const mode_names[] = {
	"wildmatch", "iwildmatch", "pathmatch", "ipathmatch",
};

int
main(void)
{
	size_t long_len = 100000;
	char *pat = malloc(2 * long_len + 2), *text = malloc(long_len + 2);

	plan((int)(ARRAY_SIZE(cases) * ARRAY_SIZE(modes)) + 2);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		for (size_t m = 0; m < ARRAY_SIZE(modes); m++) {
			int want = cases[i].want[m] == '1';
			int got = wildmatch(cases[i].pattern, cases[i].text,
					    modes[m]) == WM_MATCH;

			ok(got == want, "%s '%s' '%s' is %d", mode_names[m],
			   cases[i].text, cases[i].pattern, want);
		}

	/* "*a*a*a...*b" against "aaa...a": no match, and no stack blow-up */
	for (size_t i = 0; i < long_len; i++) {
		pat[2 * i] = '*';
		pat[2 * i + 1] = 'a';
		text[i] = 'a';
	}
	pat[2 * long_len] = 'b';
	pat[2 * long_len + 1] = '\0';
	text[long_len] = '\0';
	ok(wildmatch(pat, text, 0) == WM_NOMATCH,
	   "a run of %zu stars fails cleanly", long_len);
	pat[2 * long_len] = '\0';
	ok(wildmatch(pat, text, WM_PATHNAME) == WM_MATCH,
	   "a run of %zu stars matches", long_len);
	free(pat);
	free(text);
	return done_testing();
}
