/*
 * refs: reference names and the reference store.
 *
 * Name rules: components separated by '/', none empty, none starting
 * with '.', none ending in ".lock"; no "..", no "@{", not "@"; no control
 * bytes, space, '~', '^', ':', '?', '*', '[', '\\'; not ending in '/'
 * or '.'; at least two components unless REFNAME_ALLOW_ONELEVEL.
 */
#include "refs.h"

static int
bad_char(unsigned char c)
{
	return c < 0x20 || c == 0x7f || c == ' ' || c == '~' || c == '^' ||
	       c == ':' || c == '?' || c == '*' || c == '[' || c == '\\';
}

int
refname_is_valid(const char *name, unsigned flags)
{
	const char *comp = name, *p;
	int components = 0;

	if (!*name || !strcmp(name, "@"))
		return 0;
	for (;;) {
		const char *slash = strchr(comp, '/');
		size_t len = slash ? (size_t)(slash - comp) : strlen(comp);

		if (!len || comp[0] == '.')
			return 0;
		if (len >= 5 && !memcmp(comp + len - 5, ".lock", 5))
			return 0;
		components++;
		if (!slash)
			break;
		comp = slash + 1;
	}
	for (p = name; *p; p++) {
		if (bad_char(*p))
			return 0;
		if (p[0] == '.' && p[1] == '.')
			return 0;
		if (p[0] == '@' && p[1] == '{')
			return 0;
	}
	if (p[-1] == '.')
		return 0;
	if (components < 2 && !(flags & REFNAME_ALLOW_ONELEVEL))
		return 0;
	return 1;
}
