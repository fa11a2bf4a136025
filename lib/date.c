/*
 * date: a small tokenising parser for the date formats listed in date.h.
 * Tokens are runs of digits, runs of letters, and single punctuation; a
 * number's meaning comes from what surrounds it (":" makes a time, a
 * leading sign a zone, "-" "/" "." a calendar date).
 */
#include "date.h"

#include <ctype.h>
#include <strings.h>

struct dt {
	int year, mon, mday, hour, min, sec;	/* -1: not seen */
	int tz;					/* minutes east; or NO_TZ */
	long long epoch;
	int have_epoch;
};

#define NO_TZ (-100000)

static const char *const months[] = {
	"jan", "feb", "mar", "apr", "may", "jun",
	"jul", "aug", "sep", "oct", "nov", "dec",
};
static const char *const weekdays[] = {
	"sun", "mon", "tue", "wed", "thu", "fri", "sat",
};

static int
match_word(struct dt *d, const char *w, size_t len)
{
	if (len >= 3) {
		for (int i = 0; i < 12; i++)
			if (!strncasecmp(w, months[i], 3)) {
				d->mon = i + 1;
				return 0;
			}
		for (int i = 0; i < 7; i++)
			if (!strncasecmp(w, weekdays[i], 3))
				return 0;
	}
	if ((len == 3 && (!strncasecmp(w, "UTC", 3) ||
			  !strncasecmp(w, "GMT", 3))) ||
	    (len == 1 && (*w == 'Z' || *w == 'z'))) {
		d->tz = 0;
		return 0;
	}
	if (len == 1 && (*w == 'T' || *w == 't'))
		return 0;	/* ISO 8601 date/time separator */
	return -1;
}

/* A year git reads: 1970 to 2099 (earlier ones it cannot represent). */
static int
valid_year(long y)
{
	return y >= 1970 && y < 2100;
}

static int
valid_date(int y, int m, int dd)
{
	return valid_year(y) && m >= 1 && m <= 12 && dd >= 1 && dd <= 31;
}

/* "a<sep>b<sep>c" calendar dates */
static int
match_calendar(struct dt *d, long a, long b, long c, int alen, char sep)
{
	if (alen == 4 && valid_date(a, b, c)) {		/* YYYY-MM-DD */
		d->year = a, d->mon = b, d->mday = c;
		return 0;
	}
	if (sep == '/' && valid_date(c, a, b)) {	/* MM/DD/YYYY */
		d->year = c, d->mon = a, d->mday = b;
		return 0;
	}
	if (valid_date(c, b, a)) {			/* DD.MM.YYYY */
		d->year = c, d->mon = b, d->mday = a;
		return 0;
	}
	return -1;
}

static int
parse_tokens(struct dt *d, const char *s)
{
	const char *p = s;

	while (*p) {
		if (isspace((unsigned char)*p) || *p == ',') {
			p++;
			continue;
		}
		if (isalpha((unsigned char)*p)) {
			const char *w = p;

			while (isalpha((unsigned char)*p))
				p++;
			if (match_word(d, w, p - w) < 0)
				return -1;
			continue;
		}
		if ((*p == '+' || *p == '-') && isdigit((unsigned char)p[1]) &&
		    (d->hour >= 0 || d->have_epoch)) {
			/* a zone: +hhmm, +hh:mm, +hh */
			int sign = *p == '-' ? -1 : 1, hh, mm = 0, n = 0;
			const char *q = ++p;

			while (isdigit((unsigned char)*q))
				q++, n++;
			if (n == 4) {
				hh = (p[0] - '0') * 10 + (p[1] - '0');
				mm = (p[2] - '0') * 10 + (p[3] - '0');
			} else if (n == 2 || n == 1) {
				hh = atoi(p);
				if (*q == ':' && isdigit((unsigned char)q[1]) &&
				    isdigit((unsigned char)q[2])) {
					mm = atoi(q + 1);
					q += 3;
				}
			} else {
				return -1;
			}
			p = q;
			/* git ignores a zone it cannot read (e.g. +2500) */
			if (hh < 24 && mm < 60)
				d->tz = sign * (hh * 60 + mm);
			continue;
		}
		if (isdigit((unsigned char)*p)) {
			const char *n0 = p;
			long a;
			char *end;

			a = strtol(p, &end, 10);
			p = end;
			if (*p == ':') {
				/* hh:mm[:ss[.frac]] */
				long m, sec = 0;

				m = strtol(p + 1, &end, 10);
				if (end == p + 1 || a > 24 || m > 59)
					return -1;
				p = end;
				if (*p == ':' && isdigit((unsigned char)p[1])) {
					sec = strtol(p + 1, &end, 10);
					if (sec > 60)
						return -1;
					p = end;
					if (*p == '.' || *p == ',')
						for (p++; isdigit((unsigned char)*p);)
							p++;
				}
				d->hour = a, d->min = m, d->sec = sec;
				continue;
			}
			/*
			 * ISO 8601's compact forms, as git reads eight and
			 * six digits: YYYYMMDD and HHMMSS[.frac].  Neither
			 * can start a calendar date below.
			 */
			if (p - n0 == 8) {
				if (!valid_date(a / 10000, a / 100 % 100, a % 100))
					return -1;
				d->year = a / 10000;
				d->mon = a / 100 % 100;
				d->mday = a % 100;
				continue;
			}
			if (p - n0 == 6) {
				if (a / 10000 > 24 || a / 100 % 100 > 59 ||
				    a % 100 > 60)
					return -1;
				d->hour = a / 10000;
				d->min = a / 100 % 100;
				d->sec = a % 100;
				if (*p == '.' && isdigit((unsigned char)p[1]))
					for (p++; isdigit((unsigned char)*p);)
						p++;
				continue;
			}
			if ((*p == '-' || *p == '/' || *p == '.') &&
			    isdigit((unsigned char)p[1])) {
				char sep = *p;
				long b = strtol(p + 1, &end, 10), c;

				if (*end != sep || !isdigit((unsigned char)end[1]))
					return -1;
				c = strtol(end + 1, &end, 10);
				if (match_calendar(d, a, b, c, p - n0, sep) < 0)
					return -1;
				p = end;
				continue;
			}
			/*
			 * Seconds since the epoch: as git, by value, not by
			 * digits ("0012345678" is no timestamp).
			 */
			if (a >= 100000000 && d->year < 0 && !d->have_epoch) {
				d->epoch = a;
				d->have_epoch = 1;
				continue;
			}
			if (p - n0 == 4 && d->year < 0 && valid_year(a)) {
				d->year = a;
				continue;
			}
			if (p - n0 <= 2 && d->mday < 0 && a >= 1 && a <= 31) {
				d->mday = a;
				continue;
			}
			return -1;
		}
		return -1;
	}
	return 0;
}

static long long
days_from_civil(long long y, unsigned m, unsigned dd)
{
	/* days since 1970-01-01 of the proleptic Gregorian date */
	long long era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + dd - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (long long)doe - 719468;
}

/* Offset of the local zone at epoch, in minutes east. */
static int
local_tz(long long epoch)
{
	time_t t = (time_t)epoch;
	struct tm tm;

	if (!localtime_r(&t, &tm))
		return 0;
	return (int)(tm.tm_gmtoff / 60);
}

static int
tz_to_hhmm(int minutes)
{
	int sign = minutes < 0 ? -1 : 1;

	minutes *= sign;
	return sign * ((minutes / 60) * 100 + minutes % 60);
}

int
date_parse(const char *s, long long *epoch, int *tz)
{
	struct dt d = { -1, -1, -1, -1, -1, -1, NO_TZ, 0, 0 };

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '@' && isdigit((unsigned char)s[1])) {
		char *end;

		d.epoch = strtoll(s + 1, &end, 10);
		d.have_epoch = 1;
		s = end;
		if (parse_tokens(&d, s) < 0 || d.year >= 0 || d.hour >= 0)
			return -1;
	} else if (parse_tokens(&d, s) < 0) {
		return -1;
	}
	if (d.have_epoch) {
		if (d.year >= 0 || d.mon >= 0 || d.hour >= 0)
			return -1;
		*epoch = d.epoch;
	} else {
		long long local;

		if (d.year < 0 || d.mon < 0 || d.mday < 0 || d.hour < 0)
			return -1;
		local = days_from_civil(d.year, d.mon, d.mday) * 86400 +
			d.hour * 3600 + d.min * 60 + d.sec;
		if (d.tz == NO_TZ) {
			/* the local zone at (about) that time */
			int off = local_tz(local);

			off = local_tz(local - off * 60);
			d.tz = off;
		}
		*epoch = local - (long long)d.tz * 60;
	}
	if (d.tz == NO_TZ)
		d.tz = local_tz(*epoch);
	*tz = tz_to_hhmm(d.tz);
	return 0;
}

void
date_format_internal(struct strbuf *out, long long epoch, int tz)
{
	strbuf_addf(out, "%lld %c%04d", epoch, tz < 0 ? '-' : '+',
		    tz < 0 ? -tz : tz);
}

void
date_now(long long *epoch, int *tz)
{
	*epoch = (long long)time(NULL);
	*tz = tz_to_hhmm(local_tz(*epoch));
}
