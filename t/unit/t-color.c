/*
 * t-color: colour values against git.  Each expectation is what
 * "git config --get-color '' <value>" of git 2.39 prints (NULL: git
 * says "invalid color value").
 */
#include "tap.h"
#include "color.h"
#include "error.h"

#include <string.h>

static const struct {
	const char *value, *want;
} cases[] = {
	{ "normal", "" },
	{ "red", "\033[31m" },
	{ "bold red", "\033[1;31m" },
	{ "reset", "\033[m" },
	{ "reset bold", "\033[;1m" },
	{ "yellow blue", "\033[33;44m" },
	{ "brightred", "\033[91m" },
	{ "#ff0000 ul", "\033[4;38;2;255;0;0m" },
	{ "1 2", "\033[31;42m" },
	{ "9", "\033[91m" },
	{ "200", "\033[38;5;200m" },
	{ "-1", "" },
	{ "default", "\033[39m" },
	{ "nobold", "\033[22m" },
	{ "no-ul dim italic blink reverse strike", "\033[2;3;5;7;9;24m" },
	{ "bold bold", "\033[1m" },
	{ "Red", "\033[31m" },
	{ "BOLD", NULL },
	{ "red green blue", NULL },
	{ "#ff00", NULL },
	{ "", "" },
	{ "  red  ", "\033[31m" },
	{ "brightwhite #0a0B0c", "\033[97;48;2;10;11;12m" },
	{ "bright", NULL },
	{ "16", "\033[38;5;16m" },
	{ "255", "\033[38;5;255m" },
	{ "256", NULL },
	{ "#gg0000", NULL },
	{ "reset red blue", "\033[;31;44m" },
	{ "blue normal", "\033[34m" },
	{ "normal red", "\033[41m" },
	{ "-2", NULL },
	{ "no-", NULL },
	{ "8", "\033[90m" },
	{ "15", "\033[97m" },
	{ "brightdefault", NULL },
	{ "ul ul nobold bold", "\033[1;4;22m" },
};

int
main(void)
{
	enum color_switch sw;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char out[COLOR_MAXLEN];
		int ret = color_parse(out, cases[i].value);

		if (cases[i].want) {
			ok(!ret, "'%s' parses", cases[i].value);
			is_str(ret ? NULL : out, cases[i].want, "'%s' as git",
			       cases[i].value);
		} else {
			ok(ret == -E_INVALID, "'%s' is refused",
			   cases[i].value);
			ok(!strncmp(error_msg(), "invalid color value: ", 21),
			   "... with git's message");
		}
	}
	ok(!color_parse_switch(&sw, "color.x", "always") && sw == COLOR_ALWAYS,
	   "always");
	ok(!color_parse_switch(&sw, "color.x", "NEVER") && sw == COLOR_NEVER,
	   "never");
	ok(!color_parse_switch(&sw, "color.x", "true") && sw == COLOR_AUTO,
	   "true means auto");
	ok(!color_parse_switch(&sw, "color.x", NULL) && sw == COLOR_AUTO,
	   "no value means auto");
	ok(!color_parse_switch(&sw, "color.x", "0") && sw == COLOR_NEVER,
	   "0 means never");
	ok(color_parse_switch(&sw, "color.x", "maybe") == -E_INVALID,
	   "not a boolean");
	is_str(error_msg(), "bad boolean config value 'maybe' for 'color.x'",
	       "... git's message");
	ok(color_wanted(1, COLOR_ALWAYS) && !color_wanted(1, COLOR_NEVER),
	   "always and never ignore the terminal");
	return done_testing();
}
