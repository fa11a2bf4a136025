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
			/*
			 * The local zone at that time, as mktime() reads the
			 * wall-clock time (a time skipped or repeated by a
			 * daylight-saving change is taken as git takes it).
			 */
			struct tm tm;
			time_t t;

			memset(&tm, 0, sizeof(tm));
			tm.tm_year = d.year - 1900;
			tm.tm_mon = d.mon - 1;
			tm.tm_mday = d.mday;
			tm.tm_hour = d.hour;
			tm.tm_min = d.min;
			tm.tm_sec = d.sec;
			tm.tm_isdst = -1;
			t = mktime(&tm);
			d.tz = t == (time_t)-1 ? local_tz(local) :
				(int)((local - (long long)t) / 60);
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

/* ---- approxidate ---- */

/*
 * The approximate reader works on a broken-down local time.  Fields it
 * has not seen are -1 until the end, when they are taken from "now";
 * relative words ("3 days ago") first complete the date from now, then
 * step back by their length in seconds.
 */
struct approx {
	struct tm tm;		/* what has been read so far */
	struct tm now;		/* "now", local */
	long long now_sec;
	long number;		/* a number waiting for a meaning */
	int touched;		/* something was understood */
};

static long long
approx_now(void)
{
	const char *t = getenv("GIT_TEST_DATE_NOW");

	if (t)
		return strtoll(t, NULL, 10);
	return (long long)time(NULL);
}

static void
local_tm(struct tm *out, long long sec)
{
	time_t t = (time_t)sec;

	if (!localtime_r(&t, out))
		memset(out, 0, sizeof(*out));
}

/*
 * Fill what is missing from now, step back by back seconds, and normalise
 * the result into a->tm.  A month after the current one means last year.
 */
static long long
approx_settle(struct approx *a, long long back)
{
	long long t;

	if (a->tm.tm_mday < 0)
		a->tm.tm_mday = a->now.tm_mday;
	if (a->tm.tm_mon < 0)
		a->tm.tm_mon = a->now.tm_mon;
	if (a->tm.tm_year < 0) {
		a->tm.tm_year = a->now.tm_year;
		if (a->tm.tm_mon > a->now.tm_mon)
			a->tm.tm_year--;
	}
	/* the zone flag of "now" stays, as git keeps it */
	t = (long long)mktime(&a->tm) - back;
	local_tm(&a->tm, t);
	return t;
}

/*
 * How many characters of s match word, case-insensitively, where the
 * characters of s up to the first that is not a letter or digit must all
 * match (else 0): "jan" and "Jan." match "january" (3), "janx" does not.
 */
static size_t
word_match(const char *s, const char *word)
{
	size_t i;

	for (i = 0; s[i]; i++) {
		if (tolower((unsigned char)s[i]) ==
		    tolower((unsigned char)word[i]))
			continue;
		if (!isalnum((unsigned char)s[i]))
			break;
		return 0;
	}
	return i;
}

static void
approx_number(struct approx *a)
{
	long n = a->number;

	if (!n)
		return;
	a->number = 0;
	if (a->tm.tm_mday < 0 && n < 32) {
		a->tm.tm_mday = n;
	} else if (a->tm.tm_mon < 0 && n < 13) {
		a->tm.tm_mon = n - 1;
	} else if (a->tm.tm_year < 0) {
		if (n > 1969 && n < 2100)
			a->tm.tm_year = n - 1900;
		else if (n > 69 && n < 100)
			a->tm.tm_year = n;
		else if (n < 38)
			a->tm.tm_year = 100 + n;
	}
}

/* Set the clock to hour:00:00, the day before if that is still to come. */
static void
approx_clock(struct approx *a, int hour)
{
	if (a->tm.tm_hour < hour)
		approx_settle(a, 24 * 3600);
	a->tm.tm_hour = hour;
	a->tm.tm_min = 0;
	a->tm.tm_sec = 0;
}

static void
approx_half_day(struct approx *a, int pm)
{
	int hour = a->tm.tm_hour;

	if (a->number) {
		hour = (int)a->number;
		a->tm.tm_min = 0;
		a->tm.tm_sec = 0;
	}
	a->number = 0;
	a->tm.tm_hour = hour % 12 + (pm ? 12 : 0);
}

/*
 * A calendar date y-m-d into tm if it is one.  With refuse_future, a
 * date more than ten days ahead of now is refused (and tm untouched);
 * y == -1 then means this year.  0, or -1 if not a date.
 */
static int
approx_set_date(struct approx *a, long y, long m, long d, int refuse_future)
{
	struct tm check;
	struct tm *r;

	if (m < 1 || m > 12 || d < 1 || d > 31)
		return -1;
	check = a->tm;
	r = refuse_future ? &check : &a->tm;
	r->tm_mon = m - 1;
	r->tm_mday = d;
	if (y == -1) {
		if (!refuse_future)
			return 1;
		r->tm_year = a->now.tm_year;
	} else if (y >= 1970 && y < 2100) {
		r->tm_year = y - 1900;
	} else if (y > 70 && y < 100) {
		r->tm_year = y;
	} else if (y < 38) {
		r->tm_year = y + 100;
	} else {
		return -1;
	}
	if (!refuse_future)
		return 0;
	{
		/* as UTC, as git compares it */
		long long t = days_from_civil(r->tm_year + 1900LL,
					      r->tm_mon + 1, r->tm_mday) * 86400;

		if (a->now_sec + 10 * 24 * 3600 < t)
			return -1;
	}
	a->tm.tm_mon = r->tm_mon;
	a->tm.tm_mday = r->tm_mday;
	if (y != -1)
		a->tm.tm_year = r->tm_year;
	return 0;
}

/*
 * "a<sep>b[<sep>c]": a time (hh:mm[:ss]) or a date.  Returns how many
 * bytes of s it used, or 0 if it is neither.
 */
static size_t
approx_multi(struct approx *a, const char *s, long n1, const char *sep)
{
	char c = *sep, *end;
	long n2, n3 = -1;

	n2 = strtol(sep + 1, &end, 10);
	if (*end == c && isdigit((unsigned char)end[1]))
		n3 = strtol(end + 1, &end, 10);
	if (c == ':') {
		if (n3 < 0)
			n3 = 0;
		if (n1 < 25 && n2 >= 0 && n2 < 60 && n3 >= 0 && n3 <= 60) {
			a->tm.tm_hour = n1;
			a->tm.tm_min = n2;
			a->tm.tm_sec = n3;
			return end - s;
		}
		return 0;
	}
	if (n1 > 70 && (!approx_set_date(a, n1, n2, n3, 0) ||
			!approx_set_date(a, n1, n3, n2, 0)))
		return end - s;
	if (c != '.' && !approx_set_date(a, n3, n1, n2, 1))
		return end - s;
	if (!approx_set_date(a, n3, n2, n1, 1))
		return end - s;
	if (c == '.' && !approx_set_date(a, n3, n1, n2, 1))
		return end - s;
	return 0;
}

static const char *
approx_digits(struct approx *a, const char *s)
{
	char *end;
	long n = strtol(s, &end, 10);

	if ((*end == ':' || *end == '.' || *end == '/' || *end == '-') &&
	    isdigit((unsigned char)end[1])) {
		size_t used = approx_multi(a, s, n, end);

		if (used)
			return s + used;
	}
	/* zero padding only for small numbers: "Dec 02", not "Dec 0002" */
	if (s[0] != '0' || end - s <= 2)
		a->number = n;
	return end;
}

static const char *const month_names[] = {
	"january", "february", "march", "april", "may", "june", "july",
	"august", "september", "october", "november", "december",
};
static const char *const weekday_names[] = {
	"sundays", "mondays", "tuesdays", "wednesdays", "thursdays",
	"fridays", "saturdays",
};

static const char *
approx_word(struct approx *a, const char *s)
{
	static const char *const numbers[] = {
		"zero", "one", "two", "three", "four", "five", "six",
		"seven", "eight", "nine", "ten",
	};
	static const struct { const char *name; long secs; } units[] = {
		{ "seconds", 1 }, { "minutes", 60 }, { "hours", 3600 },
		{ "days", 86400 }, { "weeks", 7 * 86400 },
	};
	const char *end = s;

	while (isalpha((unsigned char)*end))
		end++;
	for (int i = 0; i < 12; i++)
		if (word_match(s, month_names[i]) >= 3) {
			a->tm.tm_mon = i;
			a->touched = 1;
			return end;
		}
	if (word_match(s, "yesterday") == 9) {
		a->number = 0;
		approx_settle(a, 24 * 3600);
	} else if (word_match(s, "noon") == 4) {
		approx_clock(a, 12);
	} else if (word_match(s, "midnight") == 8) {
		approx_clock(a, 0);
	} else if (word_match(s, "tea") == 3) {
		approx_clock(a, 17);
	} else if (word_match(s, "pm") == 2) {
		approx_half_day(a, 1);
	} else if (word_match(s, "am") == 2) {
		approx_half_day(a, 0);
	} else if (word_match(s, "never") == 5) {
		local_tm(&a->tm, 0);
		a->number = 0;
	} else if (word_match(s, "now") == 3) {
		a->number = 0;
		approx_settle(a, 0);
	} else {
		goto other;
	}
	a->touched = 1;
	return end;
other:
	if (!a->number) {
		for (size_t i = 1; i < ARRAY_SIZE(numbers); i++)
			if (word_match(s, numbers[i]) == strlen(numbers[i])) {
				a->number = i;
				a->touched = 1;
				return end;
			}
		if (word_match(s, "last") == 4) {
			a->number = 1;
			a->touched = 1;
		}
		return end;
	}
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		size_t len = strlen(units[i].name);

		/* "day" and "days" alike */
		if (word_match(s, units[i].name) >= len - 1) {
			approx_settle(a, units[i].secs * a->number);
			a->number = 0;
			a->touched = 1;
			return end;
		}
	}
	for (int i = 0; i < 7; i++)
		if (word_match(s, weekday_names[i]) >= 3) {
			long n = a->number - 1, diff = a->tm.tm_wday - i;

			a->number = 0;
			if (diff <= 0)
				n++;
			diff += 7 * n;
			approx_settle(a, diff * 24 * 3600);
			a->touched = 1;
			return end;
		}
	if (word_match(s, "months") >= 5) {
		long n;

		approx_settle(a, 0);
		n = a->tm.tm_mon - a->number;
		a->number = 0;
		while (n < 0) {
			n += 12;
			a->tm.tm_year--;
		}
		a->tm.tm_mon = n;
		a->touched = 1;
		return end;
	}
	if (word_match(s, "years") >= 4) {
		approx_settle(a, 0);
		a->tm.tm_year -= a->number;
		a->number = 0;
		a->touched = 1;
	}
	return end;
}

long long
approxidate(const char *s, int *errors)
{
	struct approx a;
	long long epoch;
	int tz;

	if (errors)
		*errors = 0;
	if (!date_parse(s, &epoch, &tz))
		return epoch;
	memset(&a, 0, sizeof(a));
	a.now_sec = approx_now();
	local_tm(&a.now, a.now_sec);
	a.tm = a.now;
	a.tm.tm_year = a.tm.tm_mon = a.tm.tm_mday = -1;
	while (*s) {
		if (isdigit((unsigned char)*s)) {
			approx_number(&a);
			s = approx_digits(&a, s);
			a.touched = 1;
		} else if (isalpha((unsigned char)*s)) {
			s = approx_word(&a, s);
		} else {
			s++;
		}
	}
	approx_number(&a);
	if (!a.touched && errors)
		*errors = 1;
	return approx_settle(&a, 0);
}

static void
shown_tm(struct tm *out, long long epoch, int tz)
{
	int sign = tz < 0 ? -1 : 1, hhmm = tz * sign;
	long long t = epoch + sign * ((hhmm / 100) * 3600LL +
				      (hhmm % 100) * 60LL);
	time_t tt = (time_t)t;

	if (!gmtime_r(&tt, out))
		memset(out, 0, sizeof(*out));
}

void
date_format_rfc2822(struct strbuf *out, long long epoch, int tz)
{
	static const char *const wd[] = {
		"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat",
	};
	static const char *const mo[] = {
		"Jan", "Feb", "Mar", "Apr", "May", "Jun",
		"Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
	};
	struct tm tm;

	shown_tm(&tm, epoch, tz);
	strbuf_addf(out, "%s, %d %s %d %02d:%02d:%02d %+05d",
		    wd[tm.tm_wday % 7], tm.tm_mday, mo[tm.tm_mon % 12],
		    tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec, tz);
}

void
date_format_short(struct strbuf *out, long long epoch, int tz)
{
	struct tm tm;

	shown_tm(&tm, epoch, tz);
	strbuf_addf(out, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1,
		    tm.tm_mday);
}
