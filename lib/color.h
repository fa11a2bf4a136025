/*
 * color: git's colour settings.  A colour value ("bold red", "#ff0000
 * ul", "reset", "yellow blue") becomes the ANSI escape sequence git
 * prints for it; a colour switch ("always", "auto", a boolean) decides
 * whether to colour a file descriptor at all.
 */
#ifndef DIRC_COLOR_H
#define DIRC_COLOR_H

#include "util.h"

#define COLOR_MAXLEN 75		/* git's limit on one escape sequence */
#define COLOR_YELLOW "\033[33m"
#define COLOR_RESET "\033[m"

/*
 * Parse value as git does ([fg [bg]] [attribute]...) into out, the
 * escape sequence ("" for "normal").  0, or -E_INVALID ("invalid color
 * value: <value>").
 */
int color_parse(char out[COLOR_MAXLEN], const char *value);

enum color_switch {
	COLOR_NEVER = 0,
	COLOR_ALWAYS = 1,
	COLOR_AUTO = 2,		/* when fd is a terminal that is not dumb */
};

/*
 * Parse a colour switch (color.ui, color.advice...): "never", "always",
 * "auto", or a boolean (true means auto; NULL is true).  var names it in
 * the error.  0, or -E_INVALID ("bad boolean config value ...").
 */
int color_parse_switch(enum color_switch *out, const char *var,
		       const char *value);

/* Should output to fd be coloured under sw? */
int color_wanted(int fd, enum color_switch sw);

#endif
