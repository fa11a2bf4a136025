/*
 * tap: the state of one unit-test program (how many tests ran, failed,
 * and were planned) and the TAP lines it prints.  Descriptions are made
 * safe for TAP: '#' is escaped (it would start a directive) and newlines
 * become spaces (they would end the line).  stdout is flushed after every
 * line so that it interleaves sensibly with diagnostics on stderr.
 */
#include "tap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int planned = -1;	/* -1 until plan() */
static int run;			/* tests recorded so far */
static int failed;		/* of which failed */

static void print_description(const char *fmt, va_list ap) TAP_PRINTF(1, 0);
static int record(int cond, const char *fmt, va_list ap) TAP_PRINTF(2, 0);

void
plan(int n)
{
	if (planned >= 0) {
		diag("plan() called twice (%d, then %d)", planned, n);
		failed++;
		return;
	}
	if (n < 0)
		n = 0;
	planned = n;
	printf("1..%d\n", n);
	fflush(stdout);
}

/* Print a formatted description, escaped for TAP. */
static void
print_description(const char *fmt, va_list ap)
{
	char small[256];
	char *buf = small;
	va_list copy;
	int len;

	va_copy(copy, ap);
	len = vsnprintf(small, sizeof(small), fmt, copy);
	va_end(copy);
	if (len < 0)
		return;
	if ((size_t)len >= sizeof(small)) {
		buf = malloc((size_t)len + 1);
		if (!buf) {
			fputs("(description too long)", stdout);
			return;
		}
		vsnprintf(buf, (size_t)len + 1, fmt, ap);
	}
	for (const char *p = buf; *p; p++) {
		if (*p == '#')
			fputs("\\#", stdout);
		else if (*p == '\n' || *p == '\r')
			putchar(' ');
		else
			putchar(*p);
	}
	if (buf != small)
		free(buf);
}

/* The common part of ok() and the is_*() checks. */
static int
record(int cond, const char *fmt, va_list ap)
{
	cond = !!cond;
	run++;
	if (!cond)
		failed++;
	printf("%s %d", cond ? "ok" : "not ok", run);
	if (fmt && *fmt) {
		fputs(" - ", stdout);
		print_description(fmt, ap);
	}
	putchar('\n');
	fflush(stdout);
	return cond;
}

int
ok(int cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cond = record(cond, fmt, ap);
	va_end(ap);
	return cond;
}

int
is_int(long got, long want, const char *fmt, ...)
{
	va_list ap;
	int cond;

	va_start(ap, fmt);
	cond = record(got == want, fmt, ap);
	va_end(ap);
	if (!cond) {
		diag("  got: %ld", got);
		diag(" want: %ld", want);
	}
	return cond;
}

int
is_str(const char *got, const char *want, const char *fmt, ...)
{
	va_list ap;
	int cond;

	if (!got || !want)
		cond = got == want;
	else
		cond = !strcmp(got, want);
	va_start(ap, fmt);
	cond = record(cond, fmt, ap);
	va_end(ap);
	if (!cond) {
		if (got)
			diag("  got: \"%s\"", got);
		else
			diag("  got: NULL");
		if (want)
			diag(" want: \"%s\"", want);
		else
			diag(" want: NULL");
	}
	return cond;
}

/* Hex of buf[from..to) into a diagnostic line headed by label. */
static void
diag_hex(const char *label, const unsigned char *buf, size_t len,
	 size_t from, size_t to)
{
	char line[3 * 16 + 1];
	size_t n = 0;

	if (to > len)
		to = len;
	for (size_t i = from; i < to && n + 4 <= sizeof(line); i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %02x",
				      buf[i]);
	line[n] = '\0';
	diag("%s [%zu..%zu):%s", label, from, to > from ? to : from, line);
}

int
is_mem(const void *got, size_t got_len, const void *want, size_t want_len,
       const char *fmt, ...)
{
	const unsigned char *g = got, *w = want;
	size_t min = got_len < want_len ? got_len : want_len;
	size_t at = 0;
	va_list ap;
	int cond;

	if ((!g && got_len) || (!w && want_len)) {
		cond = 0;
	} else {
		while (at < min && g[at] == w[at])
			at++;
		cond = got_len == want_len && at == min;
	}
	va_start(ap, fmt);
	cond = record(cond, fmt, ap);
	va_end(ap);
	if (!cond) {
		size_t from = at >= 4 ? at - 4 : 0;

		diag(" length got %zu, want %zu; first difference at offset %zu",
		     got_len, want_len, at);
		if (g)
			diag_hex("  got", g, got_len, from, from + 12);
		if (w)
			diag_hex(" want", w, want_len, from, from + 12);
	}
	return cond;
}

void
diag(const char *fmt, ...)
{
	char small[512];
	char *buf = small;
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	if ((size_t)len >= sizeof(small)) {
		buf = malloc((size_t)len + 1);
		if (!buf)
			buf = small;	/* truncated, but still said */
		else {
			va_start(ap, fmt);
			vsnprintf(buf, (size_t)len + 1, fmt, ap);
			va_end(ap);
		}
	}
	fflush(stdout);
	fputs("# ", stderr);
	for (const char *p = buf; *p; p++) {
		fputc(*p, stderr);
		if (*p == '\n' && p[1])
			fputs("# ", stderr);
	}
	if (!*buf || buf[strlen(buf) - 1] != '\n')
		fputc('\n', stderr);
	fflush(stderr);
	if (buf != small)
		free(buf);
}

_Noreturn void
skip_all(const char *reason)
{
	if (run || planned >= 0)
		diag("skip_all() after tests started; the plan will be wrong");
	printf("1..0 # SKIP %s\n", reason ? reason : "");
	fflush(stdout);
	exit(0);
}

int
done_testing(void)
{
	if (planned < 0) {
		printf("1..%d\n", run);
		planned = run;
	}
	if (fflush(stdout) || ferror(stdout)) {
		fputs("# error writing the TAP output\n", stderr);
		return 1;
	}
	if (run != planned) {
		diag("planned %d test%s but ran %d", planned,
		     planned == 1 ? "" : "s", run);
		return 1;
	}
	if (failed) {
		diag("failed %d of %d test%s", failed, run,
		     run == 1 ? "" : "s");
		return 1;
	}
	return 0;
}
