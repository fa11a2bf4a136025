/*
 * date: the date formats git's plumbing accepts in GIT_AUTHOR_DATE and
 * GIT_COMMITTER_DATE, turned into git's internal "<epoch> <+hhmm>".
 */
#ifndef DIRC_DATE_H
#define DIRC_DATE_H

#include "strbuf.h"

/*
 * Parse s: "<epoch> <+hhmm>", "@<epoch> [<+hhmm>]", RFC 2822 ("Thu, 07
 * Apr 2005 22:13:13 +0200"), ISO 8601 ("2005-04-07T22:13:13[.frac]
 * [Z|+hh:mm|+hhmm]", a space allowed for the T, and the compact
 * "20050407T221313" or "20050407 221313"), and the date parts
 * YYYY.MM.DD, MM/DD/YYYY, DD.MM.YYYY, YYYYMMDD with a time (hh:mm[:ss]
 * or hhmmss).  Without a zone the local one (TZ) applies.  0 with
 * *epoch and *tz (e.g. +200 for +0200) set, or -1 if s is not a date.
 */
int date_parse(const char *s, long long *epoch, int *tz);

/* Append "<epoch> <+hhmm>" ("-0000" written as "+0000"). */
void date_format_internal(struct strbuf *out, long long epoch, int tz);

/* The current time with the local zone. */
void date_now(long long *epoch, int *tz);

/*
 * git's "approxidate", for --since, --until and "<ref>@{<date>}": an
 * exact date as date_parse() reads it, else a forgiving reading of
 * words and numbers relative to now in the local zone ("yesterday",
 * "3.weeks.ago", "1 year 2 months ago", "noon", "last friday", "10:30",
 * "2005-04-07", "Dec 02", "never", "now", ...).  Returns the time;
 * *errors (if not NULL) is set to 1 when nothing in s was understood.
 * "Now" is GIT_TEST_DATE_NOW when set, as in git's own tests.
 */
long long approxidate(const char *s, int *errors);

/* "Thu, 7 Apr 2005 22:13:13 +0200": epoch shown in the zone tz (+hhmm). */
void date_format_rfc2822(struct strbuf *out, long long epoch, int tz);

/* "2005-04-07": the day of epoch in the zone tz (+hhmm). */
void date_format_short(struct strbuf *out, long long epoch, int tz);

#endif
