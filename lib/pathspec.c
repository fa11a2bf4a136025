/*
 * pathspec: parsing arguments into items, and matching names against
 * them.  Every rule here was checked against git 2.39 (t/t2010-t2012);
 * the code is ours.
 *
 * Parsing an argument, in git's order (which decides which error wins):
 * GIT_LITERAL_PATHSPECS is read first; unless it is set, the magic is
 * parsed (its errors come next); then the other variables, with the
 * "glob and noglob" check before GIT_ICASE_PATHSPECS is read and the
 * "literal and anything" check after it; then the literal+glob check of
 * the argument; then its path is made relative to the top (":(top)" and
 * "prefix:" arguments are taken as written, not normalised).
 *
 * An item's match is compared in two parts: nowildcard_len bytes
 * literally (case-insensitively under icase), then the rest with
 * wildmatch().  The cut matters: ":(glob)d**" + "/f" globs "**" + "/f" as
 * a whole component, as git does.
 */
#include "pathspec.h"

#include <strings.h>

#include "config.h"
#include "error.h"
#include "path.h"
#include "strbuf.h"
#include "wildmatch.h"

/* ---- parsing ---- */

static const struct {
	const char *name;
	unsigned bit;
} magic_words[] = {
	{ "top", PATHSPEC_TOP },
	{ "literal", PATHSPEC_LITERAL },
	{ "glob", PATHSPEC_GLOB },
	{ "icase", PATHSPEC_ICASE },
	{ "exclude", PATHSPEC_EXCLUDE },
};

/* Short magic: the characters git reserves for it (only '/', '!', '^'
 * mean anything yet). */
static int
short_magic_char(char c)
{
	return c && strchr("!\"#%&',-/:;<=>@_`~", c) != NULL;
}

static int
glob_special(char c)
{
	return c == '*' || c == '?' || c == '[' || c == '\\';
}

/* An environment boolean as git reads it: 0, 1, or -E_INVALID. */
static int
env_bool(const char *name)
{
	const char *v = getenv(name);
	int b;

	if (!v)
		return 0;
	b = config_parse_bool(v);
	if (b < 0)
		return error_set(E_INVALID, "bad boolean config value '%s' "
				 "for '%s'", v, name);
	return b;
}

/*
 * Length of the next magic word at p: up to ',' or ')' (or the end),
 * where a backslash keeps the next character in the word.
 */
static size_t
magic_word_len(const char *p)
{
	size_t n = 0;

	while (p[n] && p[n] != ',' && p[n] != ')') {
		if (p[n] == '\\' && p[n + 1])
			n++;
		n++;
	}
	return n;
}

/*
 * Parse ":(...)" of arg into *magic and *prefix_len (-1 if absent); *rest
 * is what follows the ')'.  0 or -E_INVALID / -E_UNSUPPORTED.
 */
static int
parse_long_magic(const char *arg, unsigned *magic, long *prefix_len,
		 int *attr, const char **rest)
{
	const char *p = arg + 2, *next;

	for (; *p && *p != ')'; p = next) {
		size_t len = magic_word_len(p);
		size_t i;

		next = p + len + (p[len] == ',');
		if (!len)
			continue;
		if (!strncmp(p, "prefix:", 7)) {
			char *end;

			errno = 0;
			*prefix_len = strtol(p + 7, &end, 10);
			if ((size_t)(end - p) != len || errno)
				return error_set(E_INVALID, "invalid parameter "
						 "for pathspec magic 'prefix'");
			continue;
		}
		if (!strncmp(p, "attr:", 5) || (len == 4 &&
						 !strncmp(p, "attr", 4))) {
			*attr = 1;
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(magic_words); i++)
			if (strlen(magic_words[i].name) == len &&
			    !strncmp(magic_words[i].name, p, len))
				break;
		if (i == ARRAY_SIZE(magic_words))
			return error_set(E_INVALID, "Invalid pathspec magic "
					 "'%.*s' in '%s'", (int)len, p, arg);
		*magic |= magic_words[i].bit;
	}
	if (*p != ')')
		return error_set(E_INVALID, "Missing ')' at the end of pathspec "
				 "magic in '%s'", arg);
	*rest = p + 1;
	return 0;
}

static int
parse_short_magic(const char *arg, unsigned *magic, const char **rest)
{
	const char *p;

	for (p = arg + 1; *p && *p != ':'; p++) {
		if (*p == '^' || *p == '!')
			*magic |= PATHSPEC_EXCLUDE;
		else if (*p == '/')
			*magic |= PATHSPEC_TOP;
		else if (short_magic_char(*p))
			return error_set(E_INVALID, "Unimplemented pathspec "
					 "magic '%c' in '%s'", *p, arg);
		else
			break;
	}
	if (*p == ':')
		p++;
	*rest = p;
	return 0;
}

/*
 * The magic the environment adds to an argument whose own magic is
 * element (git's order of reading and checking; see the top).
 */
static int
global_magic(unsigned *out, unsigned element, int literal)
{
	unsigned magic = literal ? PATHSPEC_LITERAL : 0;
	int glob, noglob = 0, icase;

	glob = env_bool("GIT_GLOB_PATHSPECS");
	if (glob < 0)
		return glob;
	if (glob && !(element & PATHSPEC_LITERAL))
		magic |= PATHSPEC_GLOB;
	if (glob) {
		noglob = env_bool("GIT_NOGLOB_PATHSPECS");
		if (noglob < 0)
			return noglob;
		if (noglob)
			return error_set(E_INVALID, "global 'glob' and 'noglob' "
					 "pathspec settings are incompatible");
	}
	icase = env_bool("GIT_ICASE_PATHSPECS");
	if (icase < 0)
		return icase;
	if (icase)
		magic |= PATHSPEC_ICASE;
	if ((magic & PATHSPEC_LITERAL) && (magic & ~PATHSPEC_LITERAL))
		return error_set(E_INVALID, "global 'literal' pathspec setting "
				 "is incompatible with all other global "
				 "pathspec settings");
	if (!glob) {
		noglob = env_bool("GIT_NOGLOB_PATHSPECS");
		if (noglob < 0)
			return noglob;
	}
	if (noglob && !(element & PATHSPEC_GLOB))
		magic |= PATHSPEC_LITERAL;
	*out = magic;
	return 0;
}

/*
 * PATHSPEC_ONLY_TOP_LITERAL: the magic of arg the command does not
 * know, named in git's order.
 */
static int
unsupported_magic(const char *arg, unsigned magic, int attr)
{
	static const struct {
		unsigned bit;
		const char *name;
	} order[] = {
		{ PATHSPEC_GLOB, "'glob'" },
		{ PATHSPEC_ICASE, "'icase'" },
		{ PATHSPEC_EXCLUDE, "'exclude' (mnemonic: '!')" },
	};
	struct strbuf names = STRBUF_INIT;
	int ret;

	for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
		if (!(magic & order[i].bit))
			continue;
		if (names.len)
			strbuf_addstr(&names, ", ");
		strbuf_addstr(&names, order[i].name);
	}
	if (attr)
		strbuf_addstr(&names, names.len ? ", 'attr'" : "'attr'");
	ret = error_set(E_INVALID, "%s: pathspec magic not supported by this "
			"command: %s", arg, names.buf);
	strbuf_release(&names);
	return ret;
}

/* Fill item from arg; the magic and path rules are described at the top. */
static int
parse_item(struct pathspec_item *item, const char *arg, const char *prefix,
	   const char *worktree, unsigned flags)
{
	struct strbuf match = STRBUF_INIT;
	const char *path = arg;
	unsigned element = 0, global = 0;
	long prefix_len = -1;
	int literal, attr = 0, ret;
	size_t kept;

	item->original = xstrdup(arg);
	literal = env_bool("GIT_LITERAL_PATHSPECS");
	if (literal < 0)
		return literal;
	if (!literal && arg[0] == ':') {
		if (arg[1] == '(')
			ret = parse_long_magic(arg, &element, &prefix_len,
					       &attr, &path);
		else
			ret = parse_short_magic(arg, &element, &path);
		if (ret < 0)
			return ret;
	}
	ret = global_magic(&global, element, literal);
	if (ret < 0)
		return ret;
	element |= global;
	if (attr && !(flags & PATHSPEC_ONLY_TOP_LITERAL))
		return error_set(E_UNSUPPORTED, "%s: pathspec magic not "
				 "supported by dirc: 'attr' (attributes are "
				 "not implemented)", arg);
	if ((element & PATHSPEC_LITERAL) && (element & PATHSPEC_GLOB))
		return error_set(E_INVALID, "%s: 'literal' and 'glob' are "
				 "incompatible", arg);

	if (prefix_len >= 0) {
		/*
		 * git's internal form; git itself aborts unless it is at the
		 * top and within the path: refuse that cleanly instead.
		 */
		if (*prefix || (size_t)prefix_len > strlen(path))
			return error_set(E_INVALID, "%s: pathspec magic "
					 "'prefix' must name a part of the "
					 "path, at the top of the work tree",
					 arg);
		strbuf_addstr(&match, path);
		kept = (size_t)prefix_len;
	} else if (element & PATHSPEC_TOP) {
		strbuf_addstr(&match, path);
		kept = 0;
	} else {
		ret = path_resolve(&match, &kept, prefix, path, worktree);
		if (ret < 0) {
			strbuf_release(&match);
			return ret;
		}
		if (ret)
			goto outside;
	}
	if ((flags & PATHSPEC_ONLY_TOP_LITERAL) &&
	    ((element & ~(PATHSPEC_TOP | PATHSPEC_LITERAL)) || attr)) {
		strbuf_release(&match);
		return unsupported_magic(arg, element, attr);
	}
	item->magic = element;
	item->prefix = kept;
	item->len = match.len;
	item->match = strbuf_detach(&match, NULL);
	if (element & PATHSPEC_LITERAL) {
		item->nowildcard_len = item->len;
	} else {
		size_t n = 0;

		while (n < item->len && !glob_special(item->match[n]))
			n++;
		item->nowildcard_len = n < kept ? kept : n;
	}
	return 0;
outside:
	strbuf_release(&match);
	return error_set(E_INVALID, "%s: '%s' is outside repository at '%s'",
			 arg, path, worktree);
}

int
pathspec_parse(struct pathspec *out, const char *const *args, size_t nr,
	       const char *prefix, const char *worktree, unsigned flags)
{
	size_t i, excluded = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < nr; i++)
		if (!*args[i])
			return error_set(E_INVALID, "empty string is not a valid "
					 "pathspec. please use . instead if you "
					 "meant to match all paths");
	if (!nr) {
		if (!(flags & PATHSPEC_PREFER_CWD) || !*prefix)
			return 0;
		/* the current directory, literally, with no global magic */
		out->items = xcalloc(1, sizeof(*out->items));
		out->items[0].match = xstrdup(prefix);
		out->items[0].original = xstrdup(prefix);
		out->items[0].len = strlen(prefix);
		out->items[0].nowildcard_len = out->items[0].len;
		out->items[0].prefix = out->items[0].len;
		out->nr = 1;
		return 0;
	}
	out->items = xcalloc(st_add(nr, 1), sizeof(*out->items));
	for (i = 0; i < nr; i++) {
		ret = parse_item(&out->items[out->nr++], args[i], prefix,
				 worktree, flags);
		if (ret < 0)
			goto out;
		out->magic |= out->items[i].magic;
		if (out->items[i].magic & PATHSPEC_EXCLUDE)
			excluded++;
	}
	if (excluded == nr) {
		/* only exclusions: they exclude from "." (or the top) */
		const char *here = flags & PATHSPEC_PREFER_CWD ? prefix : "";

		ret = parse_item(&out->items[out->nr++], ".", here, worktree,
				 flags);
		if (ret < 0)
			goto out;
		out->magic |= out->items[nr].magic;
	}
out:
	if (ret < 0)
		pathspec_release(out);
	return ret;
}

void
pathspec_release(struct pathspec *ps)
{
	for (size_t i = 0; i < ps->nr; i++) {
		free(ps->items[i].match);
		free(ps->items[i].original);
	}
	free(ps->items);
	memset(ps, 0, sizeof(*ps));
}

/* ---- matching ---- */

/* strncmp, or strncasecmp under icase (ASCII: we run in the C locale). */
static int
item_ncmp(const struct pathspec_item *it, const char *a, const char *b,
	  size_t n)
{
	if (it->magic & PATHSPEC_ICASE) {
		for (size_t i = 0; i < n; i++) {
			unsigned char x = a[i], y = b[i];

			if (x >= 'A' && x <= 'Z')
				x += 'a' - 'A';
			if (y >= 'A' && y <= 'Z')
				y += 'a' - 'A';
			if (x != y)
				return x < y ? -1 : 1;
			if (!x)
				return 0;
		}
		return 0;
	}
	return strncmp(a, b, n);
}

/*
 * Glob pattern against string, the first lit bytes literally (lit < 0:
 * no literal part).  0 on a match.
 */
static int
glob_match(const struct pathspec_item *it, const char *pattern,
	   const char *string, ptrdiff_t lit)
{
	unsigned wm = 0;

	if (lit > 0) {
		if (item_ncmp(it, pattern, string, (size_t)lit))
			return WM_NOMATCH;
		pattern += lit;
		string += lit;
	}
	if (it->magic & PATHSPEC_GLOB)
		wm |= WM_PATHNAME;
	if (it->magic & PATHSPEC_ICASE)
		wm |= WM_CASEFOLD;
	return wildmatch(pattern, string, wm);
}

/* One item against name; exclude_pass: exclusions are being tried. */
static int
match_item(const struct pathspec_item *it, const char *name, size_t namelen,
	   size_t prefix, unsigned flags, int exclude_pass)
{
	const char *match, *rest;
	size_t matchlen, restlen;
	ptrdiff_t lit = (ptrdiff_t)it->nowildcard_len - (ptrdiff_t)prefix;

	if (it->len < prefix)
		return 0;
	if (it->prefix && (it->magic & PATHSPEC_ICASE) &&
	    strncmp(it->match, name, it->prefix))
		return 0;
	match = it->match + prefix;
	matchlen = it->len - prefix;
	if (!matchlen)
		return PATHSPEC_MATCHED_RECURSIVELY;
	if (namelen < prefix) {
		/*
		 * A directory "d/" passed as "d" under the prefix "d/": git
		 * goes on with a negative length, where only a glob can
		 * still match (the string runs on to its NUL).
		 */
		if (prefix <= strlen(name) && it->nowildcard_len < it->len &&
		    glob_match(it, match, name + prefix, lit) == WM_MATCH)
			return PATHSPEC_MATCHED_FNMATCH;
		return 0;
	}
	rest = name + prefix;
	restlen = namelen - prefix;

	if (matchlen <= restlen && !item_ncmp(it, match, rest, matchlen)) {
		if (matchlen == restlen)
			return PATHSPEC_MATCHED_EXACTLY;
		if (match[matchlen - 1] == '/' || rest[matchlen] == '/')
			return PATHSPEC_MATCHED_RECURSIVELY;
	} else if ((flags & PATHSPEC_MATCH_DIRECTORY) &&
		   match[matchlen - 1] == '/' && restlen == matchlen - 1 &&
		   !item_ncmp(it, match, rest, restlen)) {
		return PATHSPEC_MATCHED_EXACTLY;
	}

	if (it->nowildcard_len < it->len &&
	    glob_match(it, match, rest, lit) == WM_MATCH)
		return PATHSPEC_MATCHED_FNMATCH;

	if ((flags & PATHSPEC_MATCH_LEADING) && !exclude_pass && restlen) {
		size_t slash = rest[restlen - 1] == '/';

		/* rest is a leading directory of the item */
		if (restlen < matchlen && match[restlen - slash] == '/' &&
		    !item_ncmp(it, match, rest, restlen))
			return PATHSPEC_MATCHED_LEADING;
		if (it->nowildcard_len == it->len)
			return 0;
		/* a glob: leading if the literal part agrees (git punts) */
		if (lit < 0 ? item_ncmp(it, match, rest, SIZE_MAX) :
		    item_ncmp(it, match, rest, (size_t)lit))
			return 0;
		return PATHSPEC_MATCHED_LEADING;
	}
	return 0;
}

static int
match_pass(const struct pathspec *ps, const char *name, size_t len,
	   size_t prefix, unsigned char *seen, unsigned flags, int exclude)
{
	int best = 0;

	if (!ps->nr)
		return PATHSPEC_MATCHED_RECURSIVELY;
	for (size_t i = ps->nr; i-- > 0;) {
		const struct pathspec_item *it = &ps->items[i];
		int how;

		if (!exclude != !(it->magic & PATHSPEC_EXCLUDE))
			continue;
		if (seen && seen[i] == PATHSPEC_MATCHED_EXACTLY)
			continue;
		/* an exclusion is never reported as unmatched */
		if (seen && exclude)
			seen[i] = PATHSPEC_MATCHED_FNMATCH;
		how = match_item(it, name, len, prefix, flags, exclude);
		if (how) {
			if (best < how)
				best = how;
			if (seen && seen[i] < how)
				seen[i] = (unsigned char)how;
		}
	}
	return best;
}

int
pathspec_match_positive(const struct pathspec *ps, const char *name,
			size_t len, size_t prefix, unsigned char *seen,
			unsigned flags)
{
	return match_pass(ps, name, len, prefix, seen, flags, 0);
}

int
pathspec_match(const struct pathspec *ps, const char *name, size_t len,
	       size_t prefix, unsigned char *seen, unsigned flags)
{
	int positive = match_pass(ps, name, len, prefix, seen, flags, 0);

	if (!positive || !(ps->magic & PATHSPEC_EXCLUDE))
		return positive;
	return match_pass(ps, name, len, prefix, seen, flags, 1) ? 0 :
	       positive;
}

size_t
pathspec_common_prefix(const struct pathspec *ps)
{
	size_t max = 0;

	for (size_t n = 0; n < ps->nr; n++) {
		const struct pathspec_item *it = &ps->items[n];
		size_t i = 0, len = 0, item_len;

		if (it->magic & PATHSPEC_EXCLUDE)
			continue;
		item_len = it->magic & PATHSPEC_ICASE ? it->prefix :
			   it->nowildcard_len;
		while (i < item_len && (n == 0 || i < max)) {
			char c = it->match[i];

			if (c != ps->items[0].match[i])
				break;
			if (c == '/')
				len = i + 1;
			i++;
		}
		if (n == 0 || len < max) {
			max = len;
			if (!max)
				break;
		}
	}
	return max;
}

int
pathspec_may_match_below(const struct pathspec *ps, const char *path,
			 size_t len)
{
	if (!ps->nr)
		return 1;
	for (size_t i = 0; i < ps->nr; i++) {
		const struct pathspec_item *it = &ps->items[i];
		size_t n = it->nowildcard_len < len ? it->nowildcard_len : len;

		if (!item_ncmp(it, it->match, path, n))
			return 1;
	}
	return 0;
}

int
pathspec_item_unmatched(const struct pathspec *ps, const unsigned char *seen,
			size_t i)
{
	if (seen[i])
		return 0;
	for (size_t j = 0; j < ps->nr; j++)
		if (j != i && seen[j] &&
		    !strcmp(ps->items[j].original, ps->items[i].original))
			return 0;
	return 1;
}
