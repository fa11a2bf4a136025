/*
 * bufwrite: one buffer, one write() per BUFWRITE_SIZE bytes, checksum fed
 * per chunk.  With a zero-sized buffer every record is written (and
 * hashed) as it comes, for comparison only.
 *
 * The hashing thread: chunks (a written buffer, or a piece of a stable
 * span) go through a ring of ASYNC_SLOTS; the thread hashes them in order
 * and hands buffers back for reuse.  The writer waits only when the ring
 * is full or no buffer is free, so memory stays bounded (ASYNC_SLOTS
 * buffers) whatever the speeds.
 */
#include "bufwrite.h"

#include <pthread.h>
#include <unistd.h>

#include "error.h"

/* A long span is written (and hashed) in pieces of this size. */
#define EMIT_PIECE (256 * 1024)
#define ASYNC_SLOTS 32

struct hash_chunk {
	const unsigned char *p;
	size_t len;
	unsigned char *buf;	/* a buffer to hand back, or NULL */
};

struct bufwrite_async {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t more;	/* a chunk was queued, or closing */
	pthread_cond_t room;	/* a chunk was hashed */
	struct hash_chunk ring[ASYNC_SLOTS];
	size_t head, tail;	/* chunks queued, chunks hashed */
	int closing;
	unsigned char *spare[ASYNC_SLOTS];	/* hashed buffers */
	size_t spare_nr, buffers;	/* free; allocated in all */
	unsigned char sum[HASH_MAX_RAWSZ];
};

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
bufwrite_init(struct bufwrite *bw, int fd, const char *path,
	      enum bufwrite_trailer trailer)
{
	pthread_once(&size_once, size_setup);
	memset(bw, 0, sizeof(*bw));
	bw->fd = fd;
	bw->path = path;
	bw->cap = buf_size;
	bw->buf = bw->cap ? xmalloc(bw->cap) : NULL;
	bw->zero_trailer = trailer == BUFWRITE_ZERO_TRAILER;
	if (trailer == BUFWRITE_HASH_TRAILER) {
		hasher_init(&bw->own);
		bw->hash = &bw->own;
		hasher_begin(bw->hash);
	}
}

/* ---- the hashing thread ---- */

static void *
async_main(void *arg)
{
	struct bufwrite_async *a = arg;
	struct hasher *h = hasher_thread();

	hasher_begin(h);
	pthread_mutex_lock(&a->lock);
	for (;;) {
		struct hash_chunk c;

		while (a->tail == a->head && !a->closing)
			pthread_cond_wait(&a->more, &a->lock);
		if (a->tail == a->head)
			break;
		c = a->ring[a->tail % ASYNC_SLOTS];
		pthread_mutex_unlock(&a->lock);
		hasher_update(h, c.p, c.len);
		pthread_mutex_lock(&a->lock);
		if (c.buf)
			a->spare[a->spare_nr++] = c.buf;
		a->tail++;
		pthread_cond_signal(&a->room);
	}
	pthread_mutex_unlock(&a->lock);
	hasher_final(h, a->sum);
	return NULL;
}

void
bufwrite_hash_async(struct bufwrite *bw)
{
	struct bufwrite_async *a;

	if (!bw->hash || !bw->buf || bw->async || bw->total)
		return;
	a = xcalloc(1, sizeof(*a));
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->more, NULL);
	pthread_cond_init(&a->room, NULL);
	a->buffers = 1;		/* bw->buf */
	if (pthread_create(&a->thread, NULL, async_main, a)) {
		/* no thread: hash here, as without */
		pthread_cond_destroy(&a->room);
		pthread_cond_destroy(&a->more);
		pthread_mutex_destroy(&a->lock);
		free(a);
		return;
	}
	bw->async = a;
}

/* Queue a chunk for hashing (waiting while the ring is full). */
static void
async_push(struct bufwrite_async *a, const void *p, size_t len,
	   unsigned char *buf)
{
	pthread_mutex_lock(&a->lock);
	while (a->head - a->tail == ASYNC_SLOTS)
		pthread_cond_wait(&a->room, &a->lock);
	a->ring[a->head % ASYNC_SLOTS] =
		(struct hash_chunk){ .p = p, .len = len, .buf = buf };
	a->head++;
	pthread_cond_signal(&a->more);
	pthread_mutex_unlock(&a->lock);
}

/* A free buffer: a hashed one, a new one, or wait for one. */
static unsigned char *
async_buffer(struct bufwrite_async *a, size_t cap)
{
	unsigned char *buf = NULL;

	pthread_mutex_lock(&a->lock);
	while (!a->spare_nr && a->buffers >= ASYNC_SLOTS)
		pthread_cond_wait(&a->room, &a->lock);
	if (a->spare_nr)
		buf = a->spare[--a->spare_nr];
	else
		a->buffers++;
	pthread_mutex_unlock(&a->lock);
	return buf ? buf : xmalloc(cap);
}

/* Wait until everything queued is hashed. */
static void
async_drain(struct bufwrite_async *a)
{
	pthread_mutex_lock(&a->lock);
	while (a->tail != a->head)
		pthread_cond_wait(&a->room, &a->lock);
	pthread_mutex_unlock(&a->lock);
}

/* Hash what is queued, stop the thread, free it; its checksum in sum. */
static void
async_end(struct bufwrite *bw, unsigned char *sum)
{
	struct bufwrite_async *a = bw->async;

	pthread_mutex_lock(&a->lock);
	a->closing = 1;
	pthread_cond_signal(&a->more);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->thread, NULL);
	if (sum)
		memcpy(sum, a->sum, HASH_RAWSZ);
	while (a->spare_nr)
		free(a->spare[--a->spare_nr]);
	pthread_cond_destroy(&a->room);
	pthread_cond_destroy(&a->more);
	pthread_mutex_destroy(&a->lock);
	free(a);
	bw->async = NULL;
}

/* ---- writing ---- */

/* A write failed with errnum: git's message for a hashed file. */
static int
write_failed(struct bufwrite *bw, int errnum)
{
	bw->errnum = errnum;
	if (errnum == ENOSPC)
		bw->err = error_set(E_NOSPACE, "sha1 file '%s' write error. "
				    "Out of diskspace", bw->path);
	else
		bw->err = error_errno(errnum, "sha1 file '%s' write error",
				      bw->path);
	return bw->err;
}

static int
write_piece(struct bufwrite *bw, const void *p, size_t n)
{
	if (write_full(bw->fd, p, n) < 0)
		return write_failed(bw, errno);
	return 0;
}

/*
 * Hash and write.  A long span (the unchanged entries of an index, passed
 * straight from its mapping) goes in pieces, each written while the
 * hashing has it in cache.  With the hashing thread, stable bytes are
 * queued for it as they are; others are waited for before returning.
 */
static int
emit(struct bufwrite *bw, const void *data, size_t len, int stable)
{
	const unsigned char *p = data;

	while (len) {
		size_t n = MIN(len, EMIT_PIECE);

		if (bw->async)
			async_push(bw->async, p, n, NULL);
		else if (bw->hash)
			hasher_update(bw->hash, p, n);
		if (write_piece(bw, p, n) < 0)
			break;
		p += n;
		len -= n;
	}
	if (bw->async && !stable)
		async_drain(bw->async);
	return bw->err;
}

int
bufwrite_flush(struct bufwrite *bw)
{
	if (bw->err)
		return bw->err;
	if (!bw->len)
		return 0;
	if (bw->async) {
		/* the written buffer goes to the hashing thread */
		if (write_piece(bw, bw->buf, bw->len) < 0)
			return bw->err;
		async_push(bw->async, bw->buf, bw->len, bw->buf);
		bw->buf = async_buffer(bw->async, bw->cap);
	} else {
		emit(bw, bw->buf, bw->len, 0);
	}
	bw->len = 0;
	return bw->err;
}

static int
add(struct bufwrite *bw, const void *data, size_t len, int stable)
{
	const unsigned char *p = data;
	const size_t cap = bw->cap;	/* fixed while writing */

	if (bw->err)
		return bw->err;
	bw->total += len;
	if (!cap)
		return emit(bw, data, len, stable);
	while (len) {
		size_t room = cap - bw->len, n = MIN(room, len);

		if (!bw->len && len >= cap) {
			/* a whole buffer's worth: no point copying it */
			n = len - len % cap;
			if (emit(bw, p, n, stable) < 0)
				return bw->err;
		} else {
			memcpy(bw->buf + bw->len, p, n);
			bw->len += n;
			if (bw->len == cap && bufwrite_flush(bw) < 0)
				return bw->err;
		}
		p += n;
		len -= n;
	}
	return 0;
}

int
bufwrite_add(struct bufwrite *bw, const void *data, size_t len)
{
	return add(bw, data, len, 0);
}

int
bufwrite_add_stable(struct bufwrite *bw, const void *data, size_t len)
{
	return add(bw, data, len, 1);
}

int
bufwrite_finish(struct bufwrite *bw, unsigned char *out)
{
	unsigned char sum[HASH_MAX_RAWSZ] = { 0 };
	int ret = bufwrite_flush(bw);
	int trailer = bw->hash != NULL || bw->zero_trailer;

	if (bw->async)
		async_end(bw, sum);
	else if (bw->hash)
		hasher_final(bw->hash, sum);
	bw->hash = NULL;
	if (!ret && trailer) {
		if (write_full(bw->fd, sum, HASH_RAWSZ) < 0)
			ret = write_failed(bw, errno);
		else if (out)
			memcpy(out, sum, HASH_RAWSZ);
	}
	bufwrite_release(bw);
	return ret;
}

void
bufwrite_release(struct bufwrite *bw)
{
	if (bw->async)
		async_end(bw, NULL);
	if (bw->own.ctx)
		hasher_release(&bw->own);
	bw->hash = NULL;
	free(bw->buf);
	bw->buf = NULL;
	bw->cap = bw->len = 0;
}
