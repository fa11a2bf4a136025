/*
 * eol: the counts behind git's text detection.  Bytes: CR LF is one
 * CRLF; a CR before anything else is a lone CR, an LF after anything
 * else a lone LF; DEL and control characters other than BS, TAB, ESC
 * and FF are non-printable (NUL is also counted as NUL); the rest is
 * printable.
 */
#include "eol.h"

static void
count_cr(struct eol_stats *st, int before_lf)
{
	if (before_lf)
		st->crlf++;
	else
		st->lone_cr++;
}

void
eol_stats_add(struct eol_stats *st, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t i = 0;

	if (!len)
		return;
	if (st->pending_cr) {
		st->pending_cr = 0;
		count_cr(st, p[0] == '\n');
		if (p[0] == '\n')
			i = 1;
	}
	for (; i < len; i++) {
		unsigned char c = p[i];

		if (c == '\r') {
			if (i + 1 == len) {
				st->pending_cr = 1;
			} else if (p[i + 1] == '\n') {
				count_cr(st, 1);
				i++;
			} else {
				count_cr(st, 0);
			}
		} else if (c == '\n') {
			st->lone_lf++;
		} else if (c == 0x7f) {
			st->nonprintable++;
		} else if (c < 0x20) {
			if (c == '\b' || c == '\t' || c == 033 || c == 014) {
				st->printable++;
			} else {
				if (!c)
					st->nul++;
				st->nonprintable++;
			}
		} else {
			st->printable++;
		}
	}
	st->total += len;
	st->last = p[len - 1];
}

const char *
eol_stats_name(const struct eol_stats *st)
{
	size_t lone_cr = st->lone_cr + (st->pending_cr ? 1 : 0);
	size_t nonprintable = st->nonprintable;

	if (!st->total)
		return "none";
	/* a final ^Z (DOS end of file) is not held against the text */
	if (st->last == 032)
		nonprintable--;
	if (lone_cr || st->nul || (st->printable >> 7) < nonprintable)
		return "-text";
	if (st->crlf && st->lone_lf)
		return "mixed";
	if (st->crlf)
		return "crlf";
	if (st->lone_lf)
		return "lf";
	return "none";
}
