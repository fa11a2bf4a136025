/*
 * util: the few things every module needs — checked allocation, overflow
 * checked size arithmetic, big-endian helpers, full reads and writes, and
 * BUG() for broken invariants.  Includes the system headers that declare
 * the functions banned.h forbids, then banned.h itself, so include this
 * (directly or through another dirc header) before any system header that
 * is not already pulled in here.
 */
#ifndef DIRC_UTIL_H
#define DIRC_UTIL_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define NORETURN __attribute__((noreturn))
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#define UNUSED __attribute__((unused))
#define NOINLINE __attribute__((noinline))

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

/* Abort with a message naming the file and line: an invariant is broken. */
NORETURN PRINTF_LIKE(3, 4)
void bug_fl(const char *file, int line, const char *fmt, ...);
#define BUG(...) bug_fl(__FILE__, __LINE__, __VA_ARGS__)

/*
 * Allocation that never returns NULL: on exhaustion these print
 * "fatal: out of memory" and exit 128 (lib's one exception to "never
 * exits": there is nothing sensible a caller could do instead).
 */
void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
void *xmemdupz(const void *data, size_t len);	/* adds a NUL */
NORETURN void die_oom(size_t size);

/* Size arithmetic that dies (like die_oom) instead of wrapping. */
static inline size_t
st_add(size_t a, size_t b)
{
	if (a > SIZE_MAX - b)
		die_oom(SIZE_MAX);
	return a + b;
}

static inline size_t
st_mult(size_t a, size_t b)
{
	if (b && a > SIZE_MAX / b)
		die_oom(SIZE_MAX);
	return a * b;
}

/*
 * Grow array x (with nr used and alloc allocated elements) so that it can
 * hold at least n elements.
 */
#define ALLOC_GROW(x, n, alloc)						\
	do {								\
		if ((size_t)(n) > (alloc)) {				\
			size_t grow_ = ((alloc) + 16) * 3 / 2;		\
			if (grow_ < (size_t)(n))			\
				grow_ = (n);				\
			(x) = xrealloc((x), st_mult(sizeof(*(x)), grow_)); \
			(alloc) = grow_;				\
		}							\
	} while (0)

static inline uint32_t
get_be32(const void *p)
{
	const unsigned char *b = p;

	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	       (uint32_t)b[2] << 8 | (uint32_t)b[3];
}

static inline uint16_t
get_be16(const void *p)
{
	const unsigned char *b = p;

	return (uint16_t)(b[0] << 8 | b[1]);
}

static inline uint64_t
get_be64(const void *p)
{
	const unsigned char *b = p;

	return (uint64_t)get_be32(b) << 32 | get_be32(b + 4);
}

static inline void
put_be32(void *p, uint32_t v)
{
	unsigned char *b = p;

	b[0] = v >> 24;
	b[1] = v >> 16;
	b[2] = v >> 8;
	b[3] = v;
}

static inline void
put_be16(void *p, uint16_t v)
{
	unsigned char *b = p;

	b[0] = v >> 8;
	b[1] = v;
}

/*
 * Read or write exactly len bytes, retrying on EINTR and short counts.
 * write_full: 0, or -1 with errno set.  read_full: bytes read (short
 * only at end of file), or -1 with errno set.
 */
int write_full(int fd, const void *buf, size_t len);
ssize_t read_full(int fd, void *buf, size_t len);

/*
 * read_at_least: read into buf (room bytes) until at least want bytes
 * are in or the file ends, each read() asking for all the room left.
 * Bytes read (up to room; fewer than want only at end of file), or -1
 * with errno set.  With room = want + 1, a file of exactly want bytes
 * takes one read() and one longer is noticed.
 */
ssize_t read_at_least(int fd, void *buf, size_t want, size_t room);

/* read_full() at file offset off, with pread(): the file offset stays. */
ssize_t pread_full(int fd, void *buf, size_t len, uint64_t off);

/*
 * The decimal value of the environment variable name into *out: 1, or 0
 * when it is unset or not a number.
 */
int env_number(const char *name, unsigned long long *out);

/*
 * qsort and bsearch that accept an empty (possibly NULL) array: the C
 * library's may not be given NULL even for zero elements.
 */
static inline void
sort_array(void *base, size_t nmemb, size_t size,
	   int (*cmp)(const void *, const void *))
{
	if (nmemb > 1)
		qsort(base, nmemb, size, cmp);
}

static inline void *
search_array(const void *key, const void *base, size_t nmemb, size_t size,
	     int (*cmp)(const void *, const void *))
{
	return nmemb ? bsearch(key, base, nmemb, size, cmp) : NULL;
}

/* 1 if the string starts with prefix; *rest (if given) points past it. */
int skip_prefix(const char *str, const char *prefix, const char **rest);
int starts_with(const char *str, const char *prefix);
int ends_with(const char *str, const char *suffix);

#include "banned.h"

#endif
