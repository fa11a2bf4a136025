/*
 * wildmatch: git's glob language, matching one pattern against one path.
 * It is the one matcher behind pathspecs (and is meant to serve ignore
 * rules, attributes and sparse patterns the same way).
 *
 *   ?       one character
 *   *       any run of characters, possibly empty
 *   **      with WM_PATHNAME and standing as a whole component ("**",
 *           "**" + "/x", "x/" + "**", "x/" + "**" + "/y"): any run of
 *           whole components, possibly none; elsewhere the same as '*'
 *   [set]   one character of the set: single characters, ranges "a-z",
 *           classes "[:alpha:]" (alnum alpha blank cntrl digit graph
 *           lower print punct space upper xdigit, ASCII only); a leading
 *           '!' or '^' negates; a ']' right after the opening (or the
 *           negation) is literal; '\' quotes the next character
 *   \c      the character c itself
 *
 * With WM_PATHNAME, '?', '*' and a set never match '/'; without it they
 * do, and "**" is just '*'.  WM_CASEFOLD makes ASCII letters of the path
 * match either case.  The folding is git's, quirks included: the path is
 * folded to lower case and so are literal pattern characters, but the
 * character after a '\' and the single characters of a set are taken as
 * written, so "\A" and "[A]" match no letter at all under WM_CASEFOLD
 * while "[A-Z]" and "[[:upper:]]" match both cases.
 *
 * A malformed pattern (a trailing '\', an unclosed set, an unknown class
 * name) matches nothing.  Matching is linear in practice: a failed '*'
 * tells the '*' before it that trying further is useless, as in git.
 * Thread-safe; allocates only for patterns of more than 32 runs of
 * stars, and never recurses.
 */
#ifndef DIRC_WILDMATCH_H
#define DIRC_WILDMATCH_H

enum wildmatch_flags {
	WM_CASEFOLD = 1 << 0,	/* ASCII letters match either case */
	WM_PATHNAME = 1 << 1,	/* wildcards do not match '/' */
};

#define WM_MATCH 0
#define WM_NOMATCH 1

/*
 * Does text match pattern (both NUL-terminated)?  WM_MATCH (0) or
 * WM_NOMATCH, like git's wildmatch().
 */
int wildmatch(const char *pattern, const char *text, unsigned flags);

#endif
