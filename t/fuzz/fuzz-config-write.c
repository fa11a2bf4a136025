/*
 * fuzz-config-write: "set key = value" in config text through
 * config_write_text() (what init does to .git/config), and colour values
 * through color_parse().  Input: key, NUL, value, NUL, the config text;
 * the value is also parsed as a colour.
 *
 * Invariants checked when the text has no NUL byte and the set succeeds:
 *   - the result parses (includes not followed, as git reads it);
 *   - it holds key exactly once, with the value (when the value is one
 *     git's writer keeps: no \r, \v, \f or \b, which git, like dirc,
 *     writes unquoted and reads back as spaces);
 *   - every other variable is still there, in the same order, with the
 *     same value;
 *   - setting the same value again leaves the text byte for byte.
 * When the text ends inside a value (a backslash continuing its last
 * line), git joins what is appended to it as well; only "no crash" is
 * checked then.
 * A colour value parses to "" or to ESC '[' ... 'm' shorter than
 * COLOR_MAXLEN.
 */
#include "fuzz.h"

#include "color.h"
#include "config-write.h"
#include "config.h"
#include "error.h"

static int
parse(struct config *cfg, const char *text, size_t len)
{
	config_init(cfg);
	return config_parse_buffer(cfg, text, len, NULL, CONFIG_NO_INCLUDES);
}

/* The entries of cfg that are not key, as "k=v" lines. */
static void
others(struct strbuf *out, const struct config *cfg, const char *key)
{
	for (size_t i = 0; i < cfg->nr; i++) {
		const struct config_entry *e = &cfg->entries[i];

		if (!strcmp(e->key, key))
			continue;
		strbuf_addf(out, "%s%s%s\n", e->key, e->value ? "=" : "",
			    e->value ? e->value : "");
	}
}

/*
 * Does a line added after text stand on its own?  Not after a backslash
 * continuing the last line, or inside an open quote: git, like dirc,
 * appends there anyway and the line joins the value before it.
 */
static int
ends_closed(const char *text, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	struct config cfg;
	const char *v;
	int ok;

	/* as the writer appends: a newline only where the text lacks one */
	strbuf_add(&sb, text, len);
	if (len && text[len - 1] != '\n')
		strbuf_addch(&sb, '\n');
	strbuf_addstr(&sb, "[zz]\n\tzz = 1\n");
	ok = !parse(&cfg, sb.buf, sb.len) &&
	     config_get(&cfg, "zz.zz", &v) && v && !strcmp(v, "1");
	error_clear();
	config_release(&cfg);
	strbuf_release(&sb);
	return ok;
}

static void
check_color(const char *value)
{
	char out[COLOR_MAXLEN];
	size_t len;

	if (color_parse(out, value) < 0) {
		error_clear();
		return;
	}
	len = strlen(out);
	if (len >= COLOR_MAXLEN ||
	    (len && (len < 3 || memcmp(out, "\033[", 2) || out[len - 1] != 'm')))
		BUG("colour '%s' gave a bad sequence", value);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *key = (const char *)data, *value, *text;
	const char *nul1 = memchr(data, '\0', size), *nul2;
	struct strbuf out = STRBUF_INIT, again = STRBUF_INIT;
	struct strbuf before = STRBUF_INIT, after = STRBUF_INIT;
	struct config in, res;
	char *canon = NULL;
	size_t len;
	const char *v;
	int count = 0;

	if (!nul1)
		return 0;
	value = nul1 + 1;
	nul2 = memchr(value, '\0', size - (value - key));
	if (!nul2)
		return 0;
	text = nul2 + 1;
	len = size - (text - key);
	check_color(value);

	if (config_write_text(&out, text, len, NULL, key, value) < 0) {
		error_clear();
		goto out;
	}
	if (memchr(text, '\0', len) || !ends_closed(text, len))
		goto out;
	if (config_canon_key(&canon, key, strlen(key)) < 0)
		BUG("key '%s' was set but is not a key", key);
	if (parse(&in, text, len) < 0) {
		/* scanned fine but does not parse: cannot happen */
		BUG("text scanned but does not parse: %s", error_msg());
	}
	if (parse(&res, out.buf, out.len) < 0)
		BUG("the result does not parse: %s\n%s", error_msg(), out.buf);
	for (size_t i = 0; i < res.nr; i++)
		if (!strcmp(res.entries[i].key, canon))
			count++;
	if (count != 1)
		BUG("key '%s' %d times in the result", canon, count);
	if (!strpbrk(value, "\r\v\f\b") &&
	    (!config_get(&res, canon, &v) || !v || strcmp(v, value)))
		BUG("key '%s' does not read back as '%s'", canon, value);
	others(&before, &in, canon);
	others(&after, &res, canon);
	if (strcmp(before.buf, after.buf))
		BUG("other variables changed:\n%s---\n%s", before.buf,
		    after.buf);
	if (config_write_text(&again, out.buf, out.len, NULL, key, value) < 0)
		BUG("setting again failed: %s", error_msg());
	if (strcmp(again.buf, out.buf) && !strpbrk(value, "\r\v\f\b"))
		BUG("setting again changed the text");
	config_release(&in);
	config_release(&res);
out:
	free(canon);
	strbuf_release(&out);
	strbuf_release(&again);
	strbuf_release(&before);
	strbuf_release(&after);
	return 0;
}
