/*
 * color: colour values and switches, read as git reads them.
 *
 * A value is words separated by spaces: up to two colours (foreground,
 * then background) and any number of attributes.  A colour is a name
 * ("red", "brightred", "default", "normal"), a number (-1 normal, 0-7,
 * 8-15 bright, 16-255), or "#rrggbb".  The sequence is ESC '[', the
 * attribute codes in increasing order, then the colours, joined by ';',
 * and 'm'; "reset" starts it without a code of its own.
 */
#include "color.h"

#include <ctype.h>
#include <strings.h>
#include <unistd.h>

#include "config.h"
#include "error.h"
#include "strbuf.h"

enum color_kind { COLOR_NONE, COLOR_ANSI, COLOR_256, COLOR_RGB };

struct color {
	enum color_kind kind;
	int value;		/* ANSI: 0-7, 60-67 bright, 9 default */
	unsigned char r, g, b;
};

static int
hexpair(const char *p)
{
	int hi = isxdigit((unsigned char)p[0]) ? p[0] : -1;
	int lo = isxdigit((unsigned char)p[1]) ? p[1] : -1;

	if (hi < 0 || lo < 0)
		return -1;
	hi = isdigit(hi) ? hi - '0' : tolower(hi) - 'a' + 10;
	lo = isdigit(lo) ? lo - '0' : tolower(lo) - 'a' + 10;
	return hi << 4 | lo;
}

/* 0 and *out set, or -1 if word is not a colour */
static int
parse_color(struct color *out, const char *word, size_t len)
{
	static const char *const names[] = {
		"black", "red", "green", "yellow", "blue", "magenta", "cyan",
		"white",
	};
	char *end;
	long n;

	if (len == 6 && !strncasecmp(word, "normal", 6)) {
		out->kind = COLOR_NONE;
		return 0;
	}
	if (len == 7 && !strncasecmp(word, "default", 7)) {
		out->kind = COLOR_ANSI;
		out->value = 9;
		return 0;
	}
	if (len == 7 && word[0] == '#') {
		int r = hexpair(word + 1), g = hexpair(word + 3);
		int b = hexpair(word + 5);

		if (r < 0 || g < 0 || b < 0)
			return -1;
		out->kind = COLOR_RGB;
		out->r = r;
		out->g = g;
		out->b = b;
		return 0;
	}
	for (int bright = 0; bright < 2; bright++) {
		const char *w = word;
		size_t l = len;

		if (bright) {
			if (l < 6 || strncasecmp(w, "bright", 6))
				break;
			w += 6;
			l -= 6;
		}
		for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
			if (strlen(names[i]) == l && !strncasecmp(w, names[i], l)) {
				out->kind = COLOR_ANSI;
				out->value = (int)i + (bright ? 60 : 0);
				return 0;
			}
		}
	}
	n = strtol(word, &end, 10);
	if (end == word || (size_t)(end - word) != len || n < -1 || n > 255)
		return -1;
	if (n < 0) {
		out->kind = COLOR_NONE;
	} else if (n < 8) {
		out->kind = COLOR_ANSI;
		out->value = (int)n;
	} else if (n < 16) {
		out->kind = COLOR_ANSI;
		out->value = (int)n - 8 + 60;
	} else {
		out->kind = COLOR_256;
		out->value = (int)n;
	}
	return 0;
}

/* the code of an attribute word (negated with "no"/"no-"), or -1 */
static int
parse_attr(const char *word, size_t len)
{
	static const struct {
		const char *name;
		int val, neg;
	} attrs[] = {
		{ "bold", 1, 22 }, { "dim", 2, 22 }, { "italic", 3, 23 },
		{ "ul", 4, 24 }, { "blink", 5, 25 }, { "reverse", 7, 27 },
		{ "strike", 9, 29 },
	};
	int negate = 0;

	if (len >= 2 && !strncmp(word, "no", 2)) {
		word += 2;
		len -= 2;
		if (len && *word == '-') {
			word++;
			len--;
		}
		negate = 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(attrs); i++)
		if (strlen(attrs[i].name) == len &&
		    !strncmp(word, attrs[i].name, len))
			return negate ? attrs[i].neg : attrs[i].val;
	return -1;
}

static void
add_color(struct strbuf *sb, const struct color *c, int background)
{
	switch (c->kind) {
	case COLOR_NONE:
		break;
	case COLOR_ANSI:
		strbuf_addf(sb, "%d", c->value + (background ? 40 : 30));
		break;
	case COLOR_256:
		strbuf_addf(sb, "%d;5;%d", background ? 48 : 38, c->value);
		break;
	case COLOR_RGB:
		strbuf_addf(sb, "%d;2;%d;%d;%d", background ? 48 : 38, c->r,
			    c->g, c->b);
		break;
	}
}

int
color_parse(char out[COLOR_MAXLEN], const char *value)
{
	struct color fg = { COLOR_NONE, 0, 0, 0, 0 }, bg = fg;
	struct strbuf sb = STRBUF_INIT;
	unsigned long attr = 0;
	int nr_colors = 0, reset = 0, sep = 0;
	const char *p = value;

	while (*p) {
		size_t len;
		int a;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		len = 0;
		while (p[len] && !isspace((unsigned char)p[len]))
			len++;
		if (len == 5 && !strncasecmp(p, "reset", 5)) {
			reset = 1;
		} else if (nr_colors < 2 &&
			   !parse_color(nr_colors ? &bg : &fg, p, len)) {
			nr_colors++;
		} else if ((a = parse_attr(p, len)) >= 0) {
			attr |= 1UL << a;
		} else {
			strbuf_release(&sb);
			return error_set(E_INVALID, "invalid color value: %s",
					 value);
		}
		p += len;
	}
	if (reset || attr || fg.kind != COLOR_NONE || bg.kind != COLOR_NONE) {
		strbuf_addstr(&sb, "\033[");
		sep = reset;
		for (int i = 0; attr; i++) {
			if (!(attr & (1UL << i)))
				continue;
			attr &= ~(1UL << i);
			if (sep++)
				strbuf_addch(&sb, ';');
			strbuf_addf(&sb, "%d", i);
		}
		if (fg.kind != COLOR_NONE) {
			if (sep++)
				strbuf_addch(&sb, ';');
			add_color(&sb, &fg, 0);
		}
		if (bg.kind != COLOR_NONE) {
			if (sep++)
				strbuf_addch(&sb, ';');
			add_color(&sb, &bg, 1);
		}
		strbuf_addch(&sb, 'm');
	}
	if (sb.len >= COLOR_MAXLEN) {
		strbuf_release(&sb);
		return error_set(E_INVALID, "invalid color value: %s", value);
	}
	memcpy(out, sb.buf, sb.len + 1);
	strbuf_release(&sb);
	return 0;
}

int
color_parse_switch(enum color_switch *out, const char *var,
		   const char *value)
{
	int b;

	if (value && !strcasecmp(value, "never")) {
		*out = COLOR_NEVER;
		return 0;
	}
	if (value && !strcasecmp(value, "always")) {
		*out = COLOR_ALWAYS;
		return 0;
	}
	if (value && !strcasecmp(value, "auto")) {
		*out = COLOR_AUTO;
		return 0;
	}
	b = config_parse_bool(value);
	if (b < 0)
		return error_set(E_INVALID, "bad boolean config value '%s' for "
				 "'%s'", value, var);
	*out = b ? COLOR_AUTO : COLOR_NEVER;
	return 0;
}

int
color_wanted(int fd, enum color_switch sw)
{
	const char *term;

	if (sw != COLOR_AUTO)
		return sw == COLOR_ALWAYS;
	term = getenv("TERM");
	return isatty(fd) && term && strcmp(term, "dumb");
}
