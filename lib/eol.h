/*
 * eol: what git's text detection sees in some bytes — the <eolinfo> of
 * "ls-files --eol": "lf", "crlf", "mixed" (both), "none" (no line end,
 * or no bytes), or "-text" (binary: a NUL, a lone CR, or more than one
 * control character per 128 printable ones, a final ^Z not counted).
 * The bytes may come in pieces (a file streamed in windows): the state
 * carries a CR across the cut.
 */
#ifndef DIRC_EOL_H
#define DIRC_EOL_H

#include "util.h"

struct eol_stats {
	size_t nul, lone_cr, lone_lf, crlf;
	size_t printable, nonprintable;
	uint64_t total;
	int pending_cr;		/* the last piece ended in CR */
	unsigned char last;	/* the last byte seen */
};
#define EOL_STATS_INIT { 0, 0, 0, 0, 0, 0, 0, 0, 0 }

/* Count len more bytes. */
void eol_stats_add(struct eol_stats *st, const void *buf, size_t len);

/* The <eolinfo> word for everything counted (a static string). */
const char *eol_stats_name(const struct eol_stats *st);

#endif
