/*
 * bufwrite: one buffer, one write() per BUFWRITE_SIZE bytes, checksum fed
 * per chunk.  With a zero-sized buffer every record is written (and
 * hashed) as it comes, for comparison only.
 */
#include "bufwrite.h"

#include <pthread.h>
#include <unistd.h>

#include "error.h"

static size_t buf_size;
static pthread_once_t size_once = PTHREAD_ONCE_INIT;

static void
size_setup(void)
{
	const char *env = getenv("DIRC_BUFWRITE_SIZE");

	buf_size = BUFWRITE_SIZE;
	if (env && *env)
		buf_size = strtoul(env, NULL, 10);
}

void
bufwrite_init(struct bufwrite *bw, int fd, const char *path, int checksum)
{
	pthread_once(&size_once, size_setup);
	memset(bw, 0, sizeof(*bw));
	bw->fd = fd;
	bw->path = path;
	bw->cap = buf_size;
	bw->buf = bw->cap ? xmalloc(bw->cap) : NULL;
	if (checksum) {
		bw->hash = hasher_thread();
		hasher_begin(bw->hash);
	}
}

/*
 * Hash and write.  A long span (the unchanged entries of an index, passed
 * straight from its mapping) goes in pieces, each written while the
 * hashing has it in cache.
 */
#define EMIT_PIECE (256 * 1024)

static int
emit(struct bufwrite *bw, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len) {
		size_t n = MIN(len, EMIT_PIECE);

		if (bw->hash)
			hasher_update(bw->hash, p, n);
		if (write_full(bw->fd, p, n) < 0)
			return bw->err = error_errno(errno, "unable to write "
						     "'%s'", bw->path);
		p += n;
		len -= n;
	}
	return 0;
}

int
bufwrite_flush(struct bufwrite *bw)
{
	if (bw->err)
		return bw->err;
	if (bw->len) {
		emit(bw, bw->buf, bw->len);
		bw->len = 0;
	}
	return bw->err;
}

int
bufwrite_add(struct bufwrite *bw, const void *data, size_t len)
{
	const unsigned char *p = data;

	if (bw->err)
		return bw->err;
	bw->total += len;
	if (!bw->cap)
		return emit(bw, data, len);
	while (len) {
		size_t room = bw->cap - bw->len, n = MIN(room, len);

		if (!bw->len && len >= bw->cap) {
			/* a whole buffer's worth: no point copying it */
			n = len - len % bw->cap;
			if (emit(bw, p, n) < 0)
				return bw->err;
		} else {
			memcpy(bw->buf + bw->len, p, n);
			bw->len += n;
			if (bw->len == bw->cap && bufwrite_flush(bw) < 0)
				return bw->err;
		}
		p += n;
		len -= n;
	}
	return 0;
}

int
bufwrite_finish(struct bufwrite *bw, unsigned char *out)
{
	unsigned char sum[HASH_RAWSZ];
	int ret = bufwrite_flush(bw);

	if (!ret && bw->hash) {
		hasher_final(bw->hash, sum);
		bw->hash = NULL;
		if (write_full(bw->fd, sum, sizeof(sum)) < 0)
			ret = bw->err = error_errno(errno, "unable to write "
						    "'%s'", bw->path);
		else if (out)
			memcpy(out, sum, sizeof(sum));
	}
	bufwrite_release(bw);
	return ret;
}

void
bufwrite_release(struct bufwrite *bw)
{
	free(bw->buf);
	bw->buf = NULL;
	bw->cap = bw->len = 0;
}
