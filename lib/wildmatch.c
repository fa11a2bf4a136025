/*
 * wildmatch: the matcher.  One recursive walk over the pattern: literal
 * characters, '?' and sets consume one character of the text each; a run
 * of stars tries every place the rest of the pattern could start.
 *
 * Two internal results keep that linear in practice (the idea of rsync's
 * and git's matcher, written anew here): when the text runs out under a
 * pattern that still needs characters, no later start can do better
 * (ABORT_ALL), and when a '*' that may not cross '/' meets one, only a
 * "**" further out can still help (ABORT_TO_STARSTAR).
 *
 * NEEDSWORK: like git's, the walk is exponential in the number of
 * "**" + "/" runs when nothing matches ("**" + "/" twenty times against
 * a deep path takes minutes).  Memoizing (pattern, text) positions
 * would bound it without changing any answer.
 *
 * Case folding and the character classes are ASCII only, as git's are;
 * git's isspace() is " \t\n\r" (no '\v' or '\f'), and so is ours.
 */
#include "wildmatch.h"

#include "util.h"

#define WM_ABORT_ALL (-1)
#define WM_ABORT_TO_STARSTAR (-2)

static int
is_upper(unsigned c)
{
	return c >= 'A' && c <= 'Z';
}

static int
is_lower(unsigned c)
{
	return c >= 'a' && c <= 'z';
}

static int
is_digit(unsigned c)
{
	return c >= '0' && c <= '9';
}

static int
is_alpha(unsigned c)
{
	return is_upper(c) || is_lower(c);
}

static int
is_graph(unsigned c)
{
	return c > ' ' && c < 0x7f;
}

static unsigned char
to_lower(unsigned char c)
{
	return is_upper(c) ? (unsigned char)(c + ('a' - 'A')) : c;
}

static unsigned char
to_upper(unsigned char c)
{
	return is_lower(c) ? (unsigned char)(c - ('a' - 'A')) : c;
}

static int
glob_special(unsigned char c)
{
	return c == '*' || c == '?' || c == '[' || c == '\\';
}

/* Is c in the class called name (len bytes)?  1, 0, or -1 if unknown. */
static int
in_class(const unsigned char *name, size_t len, unsigned char c,
	 unsigned flags)
{
	static const char *const names[] = {
		"alnum", "alpha", "blank", "cntrl", "digit", "graph",
		"lower", "print", "punct", "space", "upper", "xdigit",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (strlen(names[i]) == len && !memcmp(names[i], name, len))
			break;
	switch (i) {
	case 0:
		return is_alpha(c) || is_digit(c);
	case 1:
		return is_alpha(c);
	case 2:
		return c == ' ' || c == '\t';
	case 3:
		return c < ' ' || c == 0x7f;
	case 4:
		return is_digit(c);
	case 5:
		return is_graph(c);
	case 6:
		return is_lower(c);
	case 7:
		return c == ' ' || is_graph(c);
	case 8:
		return is_graph(c) && !is_alpha(c) && !is_digit(c);
	case 9:
		return c == ' ' || c == '\t' || c == '\n' || c == '\r';
	case 10:
		/* the text is already folded: lower case counts too */
		return is_upper(c) || ((flags & WM_CASEFOLD) && is_lower(c));
	case 11:
		return is_digit(c) || (c >= 'a' && c <= 'f') ||
		       (c >= 'A' && c <= 'F');
	default:
		return -1;
	}
}

/*
 * The set whose first character (after '[') is at *pp, against the text
 * character c (already folded).  Leaves *pp on the closing ']'.  1 if
 * the set accepts c (negation applied), 0 if not, WM_ABORT_ALL if the
 * set is malformed.
 */
static int
match_set(const unsigned char **pp, unsigned char c, unsigned flags)
{
	const unsigned char *p = *pp;
	unsigned char pc, prev = 0;
	int negated = 0, found = 0;

	if (*p == '!' || *p == '^') {
		negated = 1;
		p++;
	}
	pc = *p;
	do {
		if (!pc)
			return WM_ABORT_ALL;
		if (pc == '\\') {
			pc = *++p;
			if (!pc)
				return WM_ABORT_ALL;
			if (c == pc)
				found = 1;
		} else if (pc == '-' && prev && p[1] && p[1] != ']') {
			unsigned char hi = *++p;

			if (hi == '\\') {
				hi = *++p;
				if (!hi)
					return WM_ABORT_ALL;
			}
			if (c >= prev && c <= hi)
				found = 1;
			else if ((flags & WM_CASEFOLD) && is_lower(c) &&
				 to_upper(c) >= prev && to_upper(c) <= hi)
				found = 1;
			pc = 0;		/* a range does not start another */
		} else if (pc == '[' && p[1] == ':') {
			const unsigned char *name = p + 2, *end = name;
			int r;

			while (*end && *end != ']')
				end++;
			if (!*end)
				return WM_ABORT_ALL;
			if (end == name || end[-1] != ':') {
				/* no ":]": the '[' is an ordinary member */
				if (c == '[')
					found = 1;
			} else {
				r = in_class(name, end - name - 1, c, flags);
				if (r < 0)
					return WM_ABORT_ALL;
				if (r)
					found = 1;
				p = end;
				pc = 0;
			}
		} else if (c == pc) {
			found = 1;
		}
		prev = pc;
		pc = *++p;
	} while (pc != ']');
	*pp = p;
	return found != negated;
}

/* A run of stars being tried at successive places of the text. */
struct star {
	const unsigned char *rest;	/* the pattern after the run */
	const unsigned char *text;	/* where the rest is being tried */
	unsigned char tc;		/* *text then (folded if advanced) */
	unsigned char match_slash;	/* the run may cross '/' */
	unsigned char trying_none;	/* "**" + "/" tried as no components */
};

#define STAR_SEGMENT 2	/* match_segment() stopped at a star */

/*
 * Match the pattern from *pp against the text from *tp up to the end or
 * to the first star, which is left at *pp (with *tp where it stands).
 * Returns WM_MATCH, WM_NOMATCH, WM_ABORT_ALL or STAR_SEGMENT.
 */
static int
match_segment(const unsigned char **pp, const unsigned char **tp,
	      unsigned flags)
{
	const int fold = flags & WM_CASEFOLD;
	const unsigned char *p = *pp, *text = *tp;
	int r;

	for (; *p; p++, text++) {
		unsigned char pc = *p, tc = *text;

		if (!tc && pc != '*')
			return WM_ABORT_ALL;
		if (fold) {
			tc = to_lower(tc);
			pc = to_lower(pc);
		}
		switch (pc) {
		case '\\':
			/* the next character, as written (not folded) */
			if (tc != *++p)
				return WM_NOMATCH;
			break;
		case '?':
			if ((flags & WM_PATHNAME) && tc == '/')
				return WM_NOMATCH;
			break;
		case '[':
			p++;
			r = match_set(&p, tc, flags);
			if (r < 0)
				return r;
			if (!r || ((flags & WM_PATHNAME) && tc == '/'))
				return WM_NOMATCH;
			break;
		case '*':
			*pp = p;
			*tp = text;
			return STAR_SEGMENT;
		default:
			if (tc != pc)
				return WM_NOMATCH;
			break;
		}
	}
	return *text ? WM_NOMATCH : WM_MATCH;
}

/*
 * The matcher proper.  It is the recursive algorithm (each run of stars
 * tries the rest of the pattern at each place of the text), with the
 * runs being tried kept in an array instead of on the C stack, so that a
 * pattern of a hundred thousand stars cannot overflow it.
 */
static int
do_match(const unsigned char *pattern, const unsigned char *text,
	 unsigned flags)
{
	struct star local[32], *stack = local;
	size_t nr = 0, alloc = ARRAY_SIZE(local);
	const unsigned char *pat = pattern, *p = pattern;
	struct star *s;
	int r;

call:
	/* match the pattern from p (a sub-pattern starting at pat) */
	r = match_segment(&p, &text, flags);
	if (r == STAR_SEGMENT) {
		int whole = p == pat || p[-1] == '/', none = 0, match_slash;

		if (p[1] == '*') {
			p++;
			while (p[1] == '*')
				p++;
			p++;	/* past the run */
			if (!(flags & WM_PATHNAME)) {
				match_slash = 1;
			} else if (whole && (!*p || *p == '/' ||
					     (p[0] == '\\' && p[1] == '/'))) {
				match_slash = 1;
				none = *p == '/';
			} else {
				match_slash = 0;
			}
		} else {
			p++;
			match_slash = !(flags & WM_PATHNAME);
		}
		if (!*p) {
			/* a trailing star takes the rest, if it may */
			r = !match_slash && strchr((const char *)text, '/') ?
			    WM_NOMATCH : WM_MATCH;
			goto done;
		}
		if (!match_slash && *p == '/') {
			/* "*" + "/": exactly the rest of this component */
			const char *slash = strchr((const char *)text, '/');

			if (!slash) {
				r = WM_NOMATCH;
				goto done;
			}
			pat = p = p + 1;
			text = (const unsigned char *)slash + 1;
			goto call;
		}
		if (nr == alloc) {
			size_t n = alloc * 2;

			if (stack == local) {
				stack = xmalloc(st_mult(n, sizeof(*stack)));
				memcpy(stack, local, sizeof(local));
			} else {
				stack = xrealloc(stack,
						 st_mult(n, sizeof(*stack)));
			}
			alloc = n;
		}
		s = &stack[nr++];
		s->rest = p;
		s->text = text;
		s->match_slash = (unsigned char)match_slash;
		s->trying_none = (unsigned char)none;
		if (none) {
			/* first try "**" + "/" as no components at all */
			pat = p = p + 1;
			goto call;
		}
		goto next_place;
	}

done:
	/* r is the result of the innermost call: give it to its run */
	while (nr) {
		s = &stack[nr - 1];
		if (s->trying_none) {
			s->trying_none = 0;
			if (r == WM_MATCH) {
				nr--;
				continue;
			}
			goto next_place;
		}
		if (r != WM_NOMATCH) {
			if (!s->match_slash || r != WM_ABORT_TO_STARSTAR) {
				nr--;
				continue;
			}
		} else if (!s->match_slash && s->tc == '/') {
			nr--;
			r = WM_ABORT_TO_STARSTAR;
			continue;
		}
		s->text++;
		goto next_place;
	}
	if (stack != local)
		free(stack);
	return r;

next_place:
	/* try the rest of the pattern where the top run now ends */
	s = &stack[nr - 1];
	s->tc = *s->text;
	if (!s->tc) {
		nr--;
		r = WM_ABORT_ALL;
		goto done;
	}
	if (!glob_special(*s->rest)) {
		/* skip to where the literal after the run can match */
		unsigned char want = *s->rest, tc;

		if (flags & WM_CASEFOLD)
			want = to_lower(want);
		while ((tc = *s->text) && (s->match_slash || tc != '/')) {
			if (flags & WM_CASEFOLD)
				tc = to_lower(tc);
			if (tc == want)
				break;
			s->text++;
		}
		s->tc = tc;
		if (tc != want) {
			nr--;
			r = WM_NOMATCH;
			goto done;
		}
	}
	pat = p = s->rest;
	text = s->text;
	goto call;
}

int
wildmatch(const char *pattern, const char *text, unsigned flags)
{
	int r = do_match((const unsigned char *)pattern,
			 (const unsigned char *)text, flags);

	return r == WM_MATCH ? WM_MATCH : WM_NOMATCH;
}
