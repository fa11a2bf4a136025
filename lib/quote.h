/*
 * quote: git's C-style quoting of path names in output ("a\tb",
 * "utf\303\251"), and unquoting of such names read from input.
 */
#ifndef DIRC_QUOTE_H
#define DIRC_QUOTE_H

#include "strbuf.h"

/*
 * Does name (len bytes) need quoting?  Control bytes, '"', '\\', DEL do;
 * bytes >= 0x80 do when quote_high (core.quotePath, default true).
 */
int quote_needed(const char *name, size_t len, int quote_high);

/*
 * Append name to out, in double quotes with C escapes if it needs them,
 * as is otherwise.
 */
void quote_c_style(struct strbuf *out, const char *name, size_t len,
		   int quote_high);

/*
 * If in starts with '"', decode the quoted name into out (replacing it)
 * and set *end past the closing quote; 0 on success, -1 if malformed.
 * Returns 1 (and leaves out alone) if in is not quoted.
 */
int unquote_c_style(struct strbuf *out, const char *in, const char **end);

/*
 * Append s to out as one shell word, git's way: in single quotes, a
 * quote or '!' closed out and escaped ('a'\''b', 'x'\!'y').
 */
void quote_sq(struct strbuf *out, const char *s);

#endif
