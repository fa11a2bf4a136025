/*
 * fileio: read()-or-mmap() by size, and bounded streaming.
 * The cut-off and the test-only size drift are read from the environment
 * once per process.
 */
#include "fileio.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "error.h"

static size_t cutoff;
static pthread_once_t cutoff_once = PTHREAD_ONCE_INIT;

static void
cutoff_setup(void)
{
	unsigned long long v;

	cutoff = FILEIO_DEFAULT_CUTOFF;
	if (env_number("DIRC_MMAP_CUTOFF", &v))
		cutoff = v > SIZE_MAX ? SIZE_MAX : (size_t)v;
}

size_t
fileio_cutoff(void)
{
	pthread_once(&cutoff_once, cutoff_setup);
	return cutoff;
}

/* DIRC_TEST_WINDOW: see fileio.h. */
static size_t window = FILEIO_WINDOW;
static pthread_once_t window_once = PTHREAD_ONCE_INIT;

static void
window_setup(void)
{
	unsigned long long v;

	if (env_number("DIRC_TEST_WINDOW", &v) && v && v <= FILEIO_WINDOW)
		window = v;
}

size_t
fileio_window(void)
{
	pthread_once(&window_once, window_setup);
	return window;
}

uint64_t
fileio_stream_min(void)
{
	size_t w = fileio_window();

	return w == FILEIO_WINDOW ? FILEIO_STREAM_MIN : 2 * (uint64_t)w;
}

/* DIRC_TEST_SIZE_DRIFT: see fileio.h.  0 unless set. */
static long long drift;
static pthread_once_t drift_once = PTHREAD_ONCE_INIT;

static void
drift_setup(void)
{
	const char *env = getenv("DIRC_TEST_SIZE_DRIFT");
	char *end;
	long long v;

	if (!env || !*env)
		return;
	errno = 0;
	v = strtoll(env, &end, 10);
	if (!errno && !*end)
		drift = v;
}

/* size as the test knob wants it seen; size itself when it is unset */
static uint64_t
drifted(uint64_t size)
{
	pthread_once(&drift_once, drift_setup);
	if (drift < 0 && (uint64_t)-drift > size)
		return 0;
	return size + (uint64_t)drift;
}

void
read_buf_release(struct read_buf *rb)
{
	free(rb->buf);
	rb->buf = NULL;
	rb->alloc = 0;
}

static void
read_buf_grow(struct read_buf *rb, size_t want)
{
	if (want <= rb->alloc)
		return;
	if (want < rb->alloc * 2)
		want = rb->alloc * 2;
	free(rb->buf);
	rb->buf = xmalloc(want);
	rb->alloc = want;
}

int
fileio_view_fd(struct file_view *out, struct read_buf *rb, int fd,
	       size_t size, const char *path)
{
	ssize_t n;

	*out = (struct file_view)FILE_VIEW_INIT;
	size = drifted(size);
	if (!size) {
		out->data = (const unsigned char *)"";
		return 0;
	}
	if (size >= fileio_cutoff()) {
		struct stat st;
		void *map;

		/*
		 * Touching a mapping past the end of the file is SIGBUS, and
		 * a file that grew would be stored cut short: check first.
		 */
		if (fstat(fd, &st) < 0)
			return error_errno(errno, "unable to stat '%s'", path);
		if (S_ISREG(st.st_mode) && (uint64_t)st.st_size != size)
			return error_set(E_CORRUPT, "file '%s' changed while "
					 "it was being read (%jd bytes, "
					 "expected %zu)", path,
					 (intmax_t)st.st_size, size);
		map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map == MAP_FAILED)
			return error_errno(errno, "unable to mmap '%s'", path);
		out->map = map;
		out->map_len = size;
		out->data = map;
		out->len = size;
		return 0;
	}
	/*
	 * Room for one byte more than expected, to notice a file that
	 * grew; once size bytes are in, no read() for the end of the file
	 * (a regular file gives fewer bytes than asked only at its end):
	 * half the reads of many small files.
	 */
	read_buf_grow(rb, size + 1);
	n = read_at_least(fd, rb->buf, size, size + 1);
	if (n < 0)
		return error_errno(errno, "unable to read '%s'", path);
	if ((size_t)n != size)
		return error_set(E_CORRUPT, "file '%s' changed while it was "
				 "being read (%zd bytes, expected %zu)",
				 path, n, size);
	out->data = rb->buf;
	out->len = size;
	return 0;
}

void
file_view_release(struct file_view *view)
{
	if (view->map)
		munmap(view->map, view->map_len);
	*view = (struct file_view)FILE_VIEW_INIT;
}

int
fileio_stream_fd(int fd, uint64_t size, struct read_buf *rb,
		 fileio_chunk_fn fn, void *ctx, const char *path)
{
	uint64_t left;
	unsigned char extra;
	ssize_t n;

	size = drifted(size);
	left = size;
	read_buf_grow(rb, fileio_window());
	while (left) {
		size_t want = left < fileio_window() ? (size_t)left :
			      fileio_window();
		int ret;

		n = read_full(fd, rb->buf, want);
		if (n < 0)
			return error_errno(errno, "unable to read '%s'", path);
		if ((size_t)n != want)
			return error_set(E_CORRUPT, "file '%s' changed while "
					 "it was being read (shorter than %llu "
					 "bytes)", path,
					 (unsigned long long)size);
		ret = fn(ctx, rb->buf, want);
		if (ret < 0)
			return ret;
		left -= want;
	}
	n = read(fd, &extra, 1);
	if (n > 0)
		return error_set(E_CORRUPT, "file '%s' changed while it was "
				 "being read (longer than %llu bytes)", path,
				 (unsigned long long)size);
	return 0;
}

ssize_t
fileio_slurp_fd(struct read_buf *rb, int fd, const char *path)
{
	size_t len = 0;

	read_buf_grow(rb, 8192);
	for (;;) {
		ssize_t n;

		if (rb->alloc - len < 4096) {
			unsigned char *nb = xmalloc(st_mult(rb->alloc, 2));

			memcpy(nb, rb->buf, len);
			free(rb->buf);
			rb->buf = nb;
			rb->alloc *= 2;
		}
		n = read(fd, rb->buf + len, rb->alloc - len);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return error_errno(errno, "unable to read %s", path);
		}
		if (!n)
			return len;
		len += n;
	}
}

int
fileio_sync(int fd, enum sync_mode mode)
{
	switch (mode) {
	case SYNC_NONE:
		return 0;
	case SYNC_WRITEOUT:
		/* sync_file_range(SYNC_FILE_RANGE_WRITE), without _GNU_SOURCE */
		if (!syscall(SYS_sync_file_range, fd, (off_t)0, (off_t)0, 2u))
			return 0;
		if (errno != ENOSYS && errno != EINVAL && errno != ESPIPE)
			return -1;
		/* fall through */
	case SYNC_FULL:
		break;
	}
	return fsync(fd);
}
