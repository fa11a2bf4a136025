/*
 * t-quote: git's C-style quoting of path names (quote.c's quote_c_style
 * with core.quotePath on and off) and unquoting of such names.
 */
#include "tap.h"
#include "quote.h"

static const struct {
	const char *name;
	size_t len;		/* 0: strlen(name) */
	int quote_high;
	const char *want;
} quote_cases[] = {
	{ "abc", 0, 1, "abc" },
	{ "a b", 0, 1, "a b" },
	{ "a/b.c-d_e~f", 0, 1, "a/b.c-d_e~f" },
	{ "'single'", 0, 1, "'single'" },
	{ "a\tb", 0, 1, "\"a\\tb\"" },
	{ "a\nb", 0, 1, "\"a\\nb\"" },
	{ "a\"b", 0, 1, "\"a\\\"b\"" },
	{ "a\\b", 0, 1, "\"a\\\\b\"" },
	{ "\a\b\t\n\v\f\r", 0, 1, "\"\\a\\b\\t\\n\\v\\f\\r\"" },
	{ "\001", 0, 1, "\"\\001\"" },
	{ "\033[m", 0, 1, "\"\\033[m\"" },
	{ "\177", 0, 1, "\"\\177\"" },
	{ "\303\251", 0, 1, "\"\\303\\251\"" },
	{ "\303\251", 0, 0, "\303\251" },
	{ "caf\303\251\tx", 0, 0, "\"caf\303\251\\tx\"" },
	{ "\377", 0, 1, "\"\\377\"" },
	{ "\377", 0, 0, "\377" },
	{ "a\0b", 3, 1, "\"a\\000b\"" },
	{ "", 0, 1, "" },
};

static const struct {
	const char *in;
	int ret;		/* 0 decoded, 1 not quoted, -1 malformed */
	const char *want;	/* the decoded name */
	size_t want_len;	/* 0: strlen(want) */
	size_t consumed;	/* bytes up to and including the closing quote */
} unquote_cases[] = {
	{ "\"abc\"", 0, "abc", 0, 5 },
	{ "\"a\\tb\"", 0, "a\tb", 0, 6 },
	{ "\"a\\tb\" rest", 0, "a\tb", 0, 6 },
	{ "\"\\a\\b\\t\\n\\v\\f\\r\\\"\\\\\"", 0, "\a\b\t\n\v\f\r\"\\", 0, 20 },
	{ "\"\\303\\251\"", 0, "\303\251", 0, 10 },
	{ "\"\\000x\"", 0, "\0x", 2, 7 },
	{ "\"\\377\"", 0, "\377", 0, 6 },
	{ "\"\"", 0, "", 0, 2 },
	{ "abc", 1, NULL, 0, 0 },
	{ "", 1, NULL, 0, 0 },
	{ " \"abc\"", 1, NULL, 0, 0 },
	{ "\"abc", -1, NULL, 0, 0 },
	{ "\"abc\\", -1, NULL, 0, 0 },
	{ "\"a\\qb\"", -1, NULL, 0, 0 },
	{ "\"\\4\"", -1, NULL, 0, 0 },
	{ "\"\\400\"", -1, NULL, 0, 0 },
	{ "\"\\12\"", -1, NULL, 0, 0 },
	{ "\"\\1", -1, NULL, 0, 0 },
	{ "\"\\x41\"", -1, NULL, 0, 0 },
};

static void
test_quote(void)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(quote_cases); i++) {
		size_t len = quote_cases[i].len ? quote_cases[i].len :
			strlen(quote_cases[i].name);

		strbuf_reset(&sb);
		strbuf_addstr(&sb, "<");
		quote_c_style(&sb, quote_cases[i].name, len,
			      quote_cases[i].quote_high);
		is_str(sb.buf + 1, quote_cases[i].want,
		       "quote_c_style(case %zu, quote_high=%d)", i,
		       quote_cases[i].quote_high);
		ok(sb.buf[0] == '<', "quote_c_style appends (case %zu)", i);
		is_int(quote_needed(quote_cases[i].name, len,
				    quote_cases[i].quote_high),
		       quote_cases[i].want[0] == '"',
		       "quote_needed agrees (case %zu)", i);
	}
	strbuf_release(&sb);
}

static void
test_unquote(void)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(unquote_cases); i++) {
		const char *end = NULL;
		int ret;

		strbuf_reset(&sb);
		strbuf_addstr(&sb, "old");
		ret = unquote_c_style(&sb, unquote_cases[i].in, &end);
		is_int(ret, unquote_cases[i].ret, "unquote_c_style(case %zu) "
		       "returns %d", i, unquote_cases[i].ret);
		if (unquote_cases[i].ret == 1)
			is_str(sb.buf, "old", "not quoted: out is left alone "
			       "(case %zu)", i);
		if (unquote_cases[i].ret != 0)
			continue;
		size_t wlen = unquote_cases[i].want_len ?
			unquote_cases[i].want_len :
			strlen(unquote_cases[i].want);
		is_mem(sb.buf, sb.len, unquote_cases[i].want, wlen,
		       "unquote_c_style(case %zu) decodes, replacing out", i);
		ok(end == unquote_cases[i].in + unquote_cases[i].consumed,
		   "end points past the closing quote (case %zu)", i);
		ok(sb.buf[sb.len] == '\0', "the result is NUL-terminated "
		   "(case %zu)", i);
	}
	strbuf_release(&sb);
}

/* Every byte value alone, and all of them in one name, round trip. */
static void
test_round_trip(void)
{
	struct strbuf q = STRBUF_INIT, u = STRBUF_INIT;
	char all[256];
	int bad = 0;

	for (int hi = 0; hi <= 1; hi++) {
		for (int c = 0; c < 256; c++) {
			char name[3] = { 'x', (char)c, 'y' };
			const char *end;

			strbuf_reset(&q);
			quote_c_style(&q, name, 3, hi);
			if (q.buf[0] != '"') {
				if (q.len != 3 || memcmp(q.buf, name, 3))
					bad++;
				continue;
			}
			if (unquote_c_style(&u, q.buf, &end) != 0 ||
			    u.len != 3 || memcmp(u.buf, name, 3) ||
			    *end != '\0') {
				diag("byte %d (quote_high=%d) does not "
				     "round trip: %s", c, hi, q.buf);
				bad++;
			}
		}
	}
	is_int(bad, 0, "every byte round trips through quote/unquote");

	for (int c = 0; c < 256; c++)
		all[c] = (char)c;
	strbuf_reset(&q);
	quote_c_style(&q, all, sizeof(all), 1);
	ok(unquote_c_style(&u, q.buf, NULL) == 0 &&
	   u.len == sizeof(all) && !memcmp(u.buf, all, sizeof(all)),
	   "all 256 bytes in one name round trip");
	for (size_t i = 0; i < q.len; i++)
		if ((unsigned char)q.buf[i] < 0x20 ||
		    (unsigned char)q.buf[i] >= 0x7f) {
			bad++;
			break;
		}
	is_int(bad, 0, "quoted with quote_high, the name is printable "
	       "ASCII");
	strbuf_release(&q);
	strbuf_release(&u);
}

/*
 * quote_needed() against the rule itself: every byte value, at every
 * position of names of 1 to 24 bytes, with and without quote_high.
 */
static void
test_needed_every_byte(void)
{
	int bad = 0;

	for (int high = 0; high < 2; high++)
		for (int c = 0; c < 256; c++)
			for (size_t len = 1; len <= 24; len++)
				for (size_t at = 0; at < len; at++) {
					char name[24];
					int want = c < 0x20 || c == '"' ||
						   c == '\\' || c == 0x7f ||
						   (high && c >= 0x80);

					memset(name, 'a', sizeof(name));
					name[at] = (char)c;
					if (quote_needed(name, len, high) != want)
						bad++;
				}
	is_int(bad, 0, "quote_needed: every byte at every position");
}

static void
test_sq(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "", "''" },
		{ "a b", "'a b'" },
		{ "it's", "'it'\\''s'" },
		{ "hi!", "'hi'\\!''" },
		{ "'!'", "''\\'''\\!''\\'''" },
		{ "$x `y` \"z\"", "'$x `y` \"z\"'" },
	};
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strbuf_reset(&sb);
		quote_sq(&sb, cases[i].in);
		is_str(sb.buf, cases[i].out, "quote_sq: %s", cases[i].in);
	}
	strbuf_release(&sb);
}

int
main(void)
{
	test_quote();
	test_unquote();
	test_round_trip();
	test_needed_every_byte();
	test_sq();
	return done_testing();
}
