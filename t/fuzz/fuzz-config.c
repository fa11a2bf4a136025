/*
 * fuzz-config: git's config syntax through config_parse_buffer(), and
 * the typed lookups (bool, integer with unit, core.fsync lists) on
 * every value read.  The text is parsed as if included
 * CONFIG_MAX_INCLUDE_DEPTH deep, so that an include.path is refused
 * without reading any file.
 *
 * Invariants checked on text that parses (and has no NUL byte):
 *   - every key is canonical (config_canon_key leaves it alone, when
 *     it takes it at all: "[.core] bare" gives ".core.bare", as in
 *     git, which config_canon_key refuses as git does);
 *   - the entries, written back as "[section "sub"]" / "[section.sub]"
 *     blocks with quoted and escaped values, parse to the same keys and
 *     values in the same order.
 */
#include "fuzz.h"

#include "config.h"
#include "error.h"
#include "repo.h"

static void
add_quoted(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		switch (*s) {
		case '\\':
		case '"':
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, *s);
			break;
		case '\n':
			strbuf_addstr(sb, "\\n");
			break;
		case '\t':
			strbuf_addstr(sb, "\\t");
			break;
		case '\b':
			strbuf_addstr(sb, "\\b");
			break;
		default:
			strbuf_addch(sb, *s);
		}
	}
	strbuf_addch(sb, '"');
}

static int
plain_char(int c)
{
	return c == '.' || c == '-' || (c >= '0' && c <= '9') ||
	       (c >= 'a' && c <= 'z');
}

/*
 * Append a section header for key (up to its last dot): "[a.b]" if that
 * part is all lowercase key characters and dots, else "[a "sub"]" with
 * the shortest non-empty plain section ("[.a "sub"]" is valid too).
 */
static void
add_section(struct strbuf *sb, const char *key, const char *last)
{
	const char *p, *dot = NULL;

	for (p = key; p < last && plain_char(*p); p++)
		;
	if (p == last) {
		strbuf_addch(sb, '[');
		strbuf_add(sb, key, last - key);
		strbuf_addstr(sb, "]\n");
		return;
	}
	for (p = key; p < last && plain_char(*p); p++)
		if (*p == '.' && p > key)
			dot = p;	/* the section may end here */
	if (!dot)
		BUG("key '%s' cannot be written back", key);
	for (p = key; *p != '.' || p == key; p++)
		;
	dot = p;	/* the first dot that leaves a non-empty section */
	strbuf_addch(sb, '[');
	strbuf_add(sb, key, dot - key);
	strbuf_addstr(sb, " \"");
	for (p = dot + 1; p < last; p++) {
		if (*p == '\\' || *p == '"')
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *p);
	}
	strbuf_addstr(sb, "\"]\n");
}

static void
write_back(struct strbuf *sb, const struct config *cfg)
{
	for (size_t i = 0; i < cfg->nr; i++) {
		const struct config_entry *e = &cfg->entries[i];
		const char *last = strrchr(e->key, '.');

		if (!last)
			BUG("key '%s' has no section", e->key);
		add_section(sb, e->key, last);
		strbuf_addch(sb, '\t');
		strbuf_addstr(sb, last + 1);
		if (e->value) {
			strbuf_addstr(sb, " = ");
			add_quoted(sb, e->value);
		}
		strbuf_addch(sb, '\n');
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config cfg = CONFIG_INIT, again = CONFIG_INIT;
	struct strbuf text = STRBUF_INIT;

	if (config_parse_buffer(&cfg, (const char *)data, size, NULL,
				CONFIG_MAX_INCLUDE_DEPTH) < 0) {
		error_clear();
		config_release(&cfg);
		return 0;
	}
	/*
	 * A NUL byte cuts a key or value short, in git as here (git
	 * config -l shows "branch.ab" for [branch "ab\0cd"] merge): no
	 * invariant holds for such text, beyond not crashing.
	 */
	if (memchr(data, '\0', size)) {
		config_release(&cfg);
		return 0;
	}
	for (size_t i = 0; i < cfg.nr; i++) {
		const struct config_entry *e = &cfg.entries[i];
		const char *v;
		char *canon;
		long n;
		int b;

		/* "[.core] bare" is key ".core.bare", in git too */
		if (!config_canon_key(&canon, e->key, strlen(e->key)) &&
		    strcmp(canon, e->key))
			BUG("key '%s' is not canonical ('%s')", e->key, canon);
		free(canon);
		error_clear();
		if (!config_get(&cfg, e->key, &v))
			BUG("key '%s' not found", e->key);
		config_get_bool(&cfg, e->key, &b);
		config_get_long(&cfg, e->key, &n);
		config_get_string(&cfg, e->key, &v);
		error_clear();
		if (e->value)
			repo_parse_fsync(e->value);
	}

	write_back(&text, &cfg);
	if (config_parse_buffer(&again, text.buf, text.len, NULL, 0) < 0)
		BUG("written back, the config does not parse: %s\n%s",
		    error_msg(), text.buf);
	if (again.nr != cfg.nr)
		BUG("%zu entries became %zu", cfg.nr, again.nr);
	for (size_t i = 0; i < cfg.nr; i++) {
		const struct config_entry *x = &cfg.entries[i];
		const struct config_entry *y = &again.entries[i];

		if (strcmp(x->key, y->key) || !x->value != !y->value ||
		    (x->value && strcmp(x->value, y->value)))
			BUG("entry %zu ('%s') changed", i, x->key);
	}
	config_release(&cfg);
	config_release(&again);
	strbuf_release(&text);
	return 0;
}
