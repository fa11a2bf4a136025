/*
 * tap: a minimal Test Anything Protocol producer for dirc's C unit tests.
 * Each t/unit/t-<module>.c is one program: plan(), a table of cases
 * checked with ok()/is_*(), then "return done_testing();".  prove runs
 * the binaries next to the shell tests.
 *
 * Output goes to stdout ("ok N - description", "1..N"); diagnostics
 * about failures go to stderr, "#"-prefixed, so prove shows them.
 * Not thread-safe: call everything from the main thread.
 */
#ifndef DIRC_TAP_H
#define DIRC_TAP_H

#include <stddef.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#if defined(__GNUC__) || defined(__clang__)
#define TAP_PRINTF(fmt_index, first_arg) \
	__attribute__((format(printf, fmt_index, first_arg)))
#else
#define TAP_PRINTF(fmt_index, first_arg)
#endif

/* Announce that n tests will run; prints "1..n".  Call at most once. */
void plan(int n);

/*
 * Record one test: passes when cond is non-zero.  The description is
 * printf-formatted.  Returns cond normalised to 1 or 0, so a caller can
 * add diagnostics on failure: if (!ok(...)) diag(...);
 */
int ok(int cond, const char *fmt, ...) TAP_PRINTF(2, 3);

/* ok(got == want), showing both values on failure. */
int is_int(long got, long want, const char *fmt, ...) TAP_PRINTF(3, 4);

/*
 * ok() when both strings are equal; NULL equals only NULL.  Shows both
 * strings on failure.
 */
int is_str(const char *got, const char *want, const char *fmt, ...)
	TAP_PRINTF(3, 4);

/*
 * ok() when got[0..got_len) equals want[0..want_len) byte for byte.
 * Shows the lengths and the first differing offset, with hex around it.
 */
int is_mem(const void *got, size_t got_len, const void *want,
	   size_t want_len, const char *fmt, ...) TAP_PRINTF(5, 6);

/* Print a "#"-prefixed diagnostic line (or lines) to stderr. */
void diag(const char *fmt, ...) TAP_PRINTF(1, 2);

/*
 * Skip the whole program: prints "1..0 # SKIP reason" and exits 0.
 * Must come before any test.
 */
_Noreturn void skip_all(const char *reason);

/*
 * Finish: prints the plan if plan() was not called, and reports a plan
 * mismatch.  Returns the exit code for main(): 0 when every test passed
 * and the count matched the plan, 1 otherwise.
 */
int done_testing(void);

#endif
