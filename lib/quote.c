/*
 * quote: C-style quoting as git prints and reads path names.
 * Escapes: \a \b \t \n \v \f \r \" \\, other bytes as three octal digits.
 */
#include "quote.h"

/* Per byte: 0 plain, 1 always quoted, 2 quoted when quote_high. */
static const unsigned char quote_class[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x00 */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x10 */
	0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x20 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x30 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x40 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,	/* 0x50 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x60 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,	/* 0x70 */
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,	/* 0x80 */
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,	/* 0x90 */
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,	/* 0xa0 */
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,	/* 0xb0 */
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,	/* 0xc0 */
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,	/* 0xd0 */
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,	/* 0xe0 */
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,	/* 0xf0 */
};

static int
needs(unsigned char c, int quote_high)
{
	return quote_class[c] == 1 || (quote_class[c] == 2 && quote_high);
}

int
quote_needed(const char *name, size_t len, int quote_high)
{
	const unsigned char *p = (const unsigned char *)name;
	unsigned char mask = quote_high ? 3 : 1;

	/* one table look-up per byte: ls-files prints every path */
	for (size_t i = 0; i < len; i++)
		if (quote_class[p[i]] & mask)
			return 1;
	return 0;
}

void
quote_c_style(struct strbuf *out, const char *name, size_t len,
	      int quote_high)
{

	if (!quote_needed(name, len, quote_high)) {
		strbuf_add(out, name, len);
		return;
	}
	strbuf_addch(out, '"');
	for (size_t i = 0; i < len; i++) {
		unsigned char c = name[i];

		if (!needs(c, quote_high)) {
			strbuf_addch(out, c);
			continue;
		}
		strbuf_addch(out, '\\');
		switch (c) {
		case '\a': strbuf_addch(out, 'a'); break;
		case '\b': strbuf_addch(out, 'b'); break;
		case '\t': strbuf_addch(out, 't'); break;
		case '\n': strbuf_addch(out, 'n'); break;
		case '\v': strbuf_addch(out, 'v'); break;
		case '\f': strbuf_addch(out, 'f'); break;
		case '\r': strbuf_addch(out, 'r'); break;
		case '"': strbuf_addch(out, '"'); break;
		case '\\': strbuf_addch(out, '\\'); break;
		default:
			strbuf_addch(out, '0' + ((c >> 6) & 3));
			strbuf_addch(out, '0' + ((c >> 3) & 7));
			strbuf_addch(out, '0' + (c & 7));
		}
	}
	strbuf_addch(out, '"');
}

int
unquote_c_style(struct strbuf *out, const char *in, const char **end)
{
	const char *p = in;

	if (*p != '"')
		return 1;
	strbuf_reset(out);
	for (p++;;) {
		int c = (unsigned char)*p++;

		if (!c)
			return -1;
		if (c == '"')
			break;
		if (c != '\\') {
			strbuf_addch(out, c);
			continue;
		}
		c = (unsigned char)*p++;
		switch (c) {
		case 'a': c = '\a'; break;
		case 'b': c = '\b'; break;
		case 't': c = '\t'; break;
		case 'n': c = '\n'; break;
		case 'v': c = '\v'; break;
		case 'f': c = '\f'; break;
		case 'r': c = '\r'; break;
		case '"':
		case '\\':
			break;
		case '0': case '1': case '2': case '3': {
			int v = c - '0';

			for (int i = 0; i < 2; i++) {
				c = (unsigned char)*p++;
				if (c < '0' || c > '7')
					return -1;
				v = v << 3 | (c - '0');
			}
			c = v;
			break;
		}
		default:
			return -1;
		}
		strbuf_addch(out, c);
	}
	if (end)
		*end = p;
	return 0;
}

void
quote_sq(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '\'');
	for (; *s; s++) {
		if (*s == '\'' || *s == '!') {
			strbuf_addstr(out, "'\\");
			strbuf_addch(out, *s);
			strbuf_addch(out, '\'');
		} else {
			strbuf_addch(out, *s);
		}
	}
	strbuf_addch(out, '\'');
}
