/*
 * strbuf: a growable byte buffer that is always NUL-terminated.
 * buf points to a shared empty string until the first growth, so an
 * initialised strbuf can be read without allocating.
 */
#ifndef DIRC_STRBUF_H
#define DIRC_STRBUF_H

#include "util.h"

struct strbuf {
	size_t alloc;	/* bytes allocated at buf; 0 while buf is shared */
	size_t len;	/* bytes used, not counting the NUL */
	char *buf;	/* owned once alloc > 0 */
};

extern char strbuf_empty[];
#define STRBUF_INIT { 0, 0, strbuf_empty }

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
/* Hand the buffer to the caller (who frees it); sb is reset. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
/* Make room for extra more bytes (plus the NUL). */
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_setlen(struct strbuf *sb, size_t len);
static inline void
strbuf_reset(struct strbuf *sb)
{
	strbuf_setlen(sb, 0);
}
/* Exchange the contents (buffers and all) of a and b. */
static inline void
strbuf_swap(struct strbuf *a, struct strbuf *b)
{
	struct strbuf t = *a;

	*a = *b;
	*b = t;
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other);
PRINTF_LIKE(2, 3) void strbuf_addf(struct strbuf *sb, const char *fmt, ...);
PRINTF_LIKE(2, 0) void strbuf_vaddf(struct strbuf *sb, const char *fmt,
				      va_list ap);
/* Remove trailing whitespace (and trailing slashes, for rtrim_slashes). */
void strbuf_rtrim(struct strbuf *sb);
void strbuf_trim(struct strbuf *sb);

/*
 * Read one record up to term (not included) from fp into sb, replacing
 * its contents.  0 on success, EOF at end of input with nothing read.
 */
int strbuf_getdelim(struct strbuf *sb, FILE *fp, int term);

/*
 * Append everything from fd (up to end of file).  hint: the bytes
 * expected (a file's size), or 0; with the right one the buffer is
 * allocated once.  Returns bytes read, or -1 with errno set.
 */
ssize_t strbuf_read_fd(struct strbuf *sb, int fd, size_t hint);

/*
 * Replace sb with the contents of path.  0, or a negative E_* with the
 * message set (naming path).
 */
int strbuf_read_file(struct strbuf *sb, const char *path);

/* Append the current directory (absolute).  0, or -E_IO. */
int strbuf_getcwd(struct strbuf *sb);

#endif
