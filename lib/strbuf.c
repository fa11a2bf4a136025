/*
 * strbuf: growable NUL-terminated buffers.
 * Invariant: buf[len] == '\0' at all times; alloc == 0 means buf is the
 * shared strbuf_empty and must not be written.
 */
#include "strbuf.h"

#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"

char strbuf_empty[1];

void
strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = sb->len = 0;
	sb->buf = strbuf_empty;
	if (hint)
		strbuf_grow(sb, hint);
}

void
strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *
strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *res;

	strbuf_grow(sb, 0);
	res = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return res;
}

void
strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want = st_add(st_add(sb->len, extra), 1);
	int fresh = !sb->alloc;

	if (want <= sb->alloc)
		return;
	if (fresh)
		sb->buf = NULL;
	if (want < 64)
		want = 64;
	if (want < sb->alloc * 3 / 2)
		want = sb->alloc * 3 / 2;
	sb->buf = xrealloc(sb->buf, want);
	sb->alloc = want;
	if (fresh)
		sb->buf[0] = '\0';
}

void
strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (len > (sb->alloc ? sb->alloc - 1 : 0))
		BUG("strbuf_setlen(%zu) beyond allocation %zu", len, sb->alloc);
	sb->len = len;
	if (sb->alloc)
		sb->buf[len] = '\0';
}

void
strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (!len)
		return;
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	strbuf_setlen(sb, sb->len + len);
}

void
strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void
strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}

void
strbuf_addbuf(struct strbuf *sb, const struct strbuf *other)
{
	strbuf_add(sb, other->buf, other->len);
}

void
strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		BUG("vsnprintf failed for '%s'", fmt);
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, n);
		n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	strbuf_setlen(sb, sb->len + n);
}

void
strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

static int
is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	       c == '\v' || c == '\f';
}

void
strbuf_rtrim(struct strbuf *sb)
{
	size_t len = sb->len;

	while (len && is_space((unsigned char)sb->buf[len - 1]))
		len--;
	if (sb->alloc)
		strbuf_setlen(sb, len);
}

void
strbuf_trim(struct strbuf *sb)
{
	size_t skip = 0;

	strbuf_rtrim(sb);
	while (skip < sb->len && is_space((unsigned char)sb->buf[skip]))
		skip++;
	if (skip) {
		memmove(sb->buf, sb->buf + skip, sb->len - skip);
		strbuf_setlen(sb, sb->len - skip);
	}
}

int
strbuf_getdelim(struct strbuf *sb, FILE *fp, int term)
{
	char *buf = sb->alloc ? sb->buf : NULL;
	size_t alloc = sb->alloc;
	ssize_t n;

	errno = 0;
	n = getdelim(&buf, &alloc, term, fp);
	if (buf) {
		sb->buf = buf;
		sb->alloc = alloc;
	}
	if (n < 0) {
		if (errno == ENOMEM)
			die_oom(alloc);
		strbuf_reset(sb);
		return EOF;
	}
	if (n && sb->buf[n - 1] == term)
		n--;
	strbuf_setlen(sb, n);
	return 0;
}

ssize_t
strbuf_read_fd(struct strbuf *sb, int fd, size_t hint)
{
	size_t start = sb->len;

	/*
	 * A hint (a file's size) is trusted until it proves short: one
	 * read fills it and one more, into the byte kept spare, finds the
	 * end.  Without one, reads stay at least 4 KB long.
	 */
	strbuf_grow(sb, hint ? st_add(hint, 1) : 8192);
	for (;;) {
		size_t room = sb->alloc - sb->len - 1;
		ssize_t n;

		if (!room || (!hint && room < 4096))
			strbuf_grow(sb, sb->alloc);
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			strbuf_setlen(sb, start);
			return -1;
		}
		if (!n)
			break;
		strbuf_setlen(sb, sb->len + n);
	}
	return sb->len - start;
}

int
strbuf_read_file(struct strbuf *sb, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	size_t hint = 0;

	strbuf_reset(sb);
	if (fd < 0)
		return error_errno(errno, "could not open '%s' for reading",
				   path);
	/* a regular file's size (not /proc's 0) */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uintmax_t)st.st_size < SIZE_MAX / 2)
		hint = (size_t)st.st_size;
	if (strbuf_read_fd(sb, fd, hint) < 0) {
		int e = errno;

		close(fd);
		return error_errno(e, "could not read '%s'", path);
	}
	close(fd);
	return 0;
}

int
strbuf_getcwd(struct strbuf *sb)
{
	size_t size = 256;

	for (;;) {
		strbuf_grow(sb, size);
		if (getcwd(sb->buf + sb->len, sb->alloc - sb->len)) {
			strbuf_setlen(sb, sb->len + strlen(sb->buf + sb->len));
			return 0;
		}
		if (errno != ERANGE)
			return error_errno(errno, "unable to get current "
					   "working directory");
		size = sb->alloc * 2;
	}
}
