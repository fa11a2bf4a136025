/*
 * util: checked allocation, BUG(), full reads and writes, string prefix
 * helpers.  Nothing here keeps state.
 */
#include "util.h"

#include <unistd.h>

void
bug_fl(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "BUG: %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void
die_oom(size_t size)
{
	fflush(stdout);
	if (size == SIZE_MAX)
		fprintf(stderr, "fatal: size overflow\n");
	else
		fprintf(stderr, "fatal: out of memory, malloc failed "
			"(tried to allocate %zu bytes)\n", size);
	exit(128);
}

void *
xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		die_oom(size);
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p;

	if (!nmemb || !size)
		nmemb = size = 1;
	p = calloc(nmemb, size);
	if (!p)
		die_oom(st_mult(nmemb, size));
	return p;
}

void *
xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		die_oom(size);
	return p;
}

char *
xstrdup(const char *s)
{
	return xmemdupz(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	const char *end = memchr(s, '\0', n);

	return xmemdupz(s, end ? (size_t)(end - s) : n);
}

void *
xmemdupz(const void *data, size_t len)
{
	char *p = xmalloc(st_add(len, 1));

	if (len)
		memcpy(p, data, len);
	p[len] = '\0';
	return p;
}

int
write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -1;
		}
		if (n == 0) {
			errno = ENOSPC;
			return -1;
		}
		p += n;
		len -= n;
	}
	return 0;
}

ssize_t
read_full(int fd, void *buf, size_t len)
{
	return read_at_least(fd, buf, len, len);
}

/*
 * The loop of read_at_least() and pread_full(): off < 0 reads at the
 * file offset, else from off with pread().
 */
static ssize_t
read_loop(int fd, char *p, size_t want, size_t room, int64_t off)
{
	size_t got = 0;

	while (got < want) {
		ssize_t n = off < 0 ? read(fd, p + got, room - got)
				    : pread(fd, p + got, room - got,
					    (off_t)(off + (int64_t)got));

		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -1;
		}
		if (n == 0)
			break;
		got += n;
	}
	return got;
}

ssize_t
read_at_least(int fd, void *buf, size_t want, size_t room)
{
	return read_loop(fd, buf, want, room, -1);
}

ssize_t
pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	if (off > (uint64_t)INT64_MAX - len) {
		errno = EINVAL;
		return -1;
	}
	return read_loop(fd, buf, len, len, (int64_t)off);
}

int
env_number(const char *name, unsigned long long *out)
{
	const char *env = getenv(name);
	char *end;

	if (!env || !*env)
		return 0;
	errno = 0;
	*out = strtoull(env, &end, 10);
	return !errno && !*end;
}

int
skip_prefix(const char *str, const char *prefix, const char **rest)
{
	size_t len = strlen(prefix);

	if (strncmp(str, prefix, len))
		return 0;
	if (rest)
		*rest = str + len;
	return 1;
}

int
starts_with(const char *str, const char *prefix)
{
	return skip_prefix(str, prefix, NULL);
}

int
ends_with(const char *str, const char *suffix)
{
	size_t len = strlen(str), slen = strlen(suffix);

	return len >= slen && !memcmp(str + len - slen, suffix, slen);
}
