/*
 * fileio: get a file's bytes the cheap way for its size.
 *
 * Below the cut-off a file is read() into a reusable per-thread buffer;
 * from the cut-off up it is mmap()ed; from fileio_stream_min() up callers
 * stream it in bounded windows instead (fileio_stream_fd), so memory never
 * grows with the file.  The cut-off defaults to the streaming size (a
 * file below it is read(), a caller that reads a bigger one whole maps
 * it), and can be forced with the
 * environment variable DIRC_MMAP_CUTOFF=<bytes> (0: always mmap).  The
 * figure is perf's read()/mmap() sweep on the 2-core VM dirc is measured
 * on (December 2026, a quiet full run at scale 1 and a quick one):
 * read() won at every size, 1 KiB to 1 MiB; by 10x at 1 KiB, 1.8x and
 * 1.0x at 256 KiB, 1.55x and 1.6x at 1 MiB.  (An earlier sweep had
 * mmap() ahead from 256 KiB by 5-7%, and the cut-off was 128 KiB.)
 *
 * Test knob: DIRC_TEST_SIZE_DRIFT=<n> (a signed byte count) makes
 * fileio_view_fd() and fileio_stream_fd() take the size they are given as
 * off by n, as if the caller's lstat() had raced with a writer that grew
 * (n < 0) or shrank (n > 0) the file.  It exists so that the tests can
 * show, deterministically, that such a file is refused with "changed while
 * it was being read" and never stored short or long.  Read once per
 * process; inert unless set.
 *
 * Test knob: DIRC_TEST_WINDOW=<n> (bytes, 1 or more) streams in windows of
 * n bytes from 2n up (fileio_window(), fileio_stream_min()), so that
 * the tests can put small generated files through every window
 * boundary of the streamed paths.  Read once per process.
 */
#ifndef DIRC_FILEIO_H
#define DIRC_FILEIO_H

#include "util.h"

/* How hard to push a file's data towards the disk (core.fsyncMethod). */
enum sync_mode {
	SYNC_NONE,		/* leave it to the kernel */
	SYNC_WRITEOUT,		/* start the write-out, do not wait for it */
	SYNC_FULL,		/* fsync(): data, metadata, the disk's cache */
};

/*
 * Sync fd as mode asks; a write-out the kernel cannot start becomes a
 * full fsync, as in git.  0, or -1 with errno set.
 */
int fileio_sync(int fd, enum sync_mode mode);

#define FILEIO_STREAM_MIN ((uint64_t)2 << 20)	/* stream from 2 MiB */
#define FILEIO_DEFAULT_CUTOFF ((size_t)FILEIO_STREAM_MIN)
#define FILEIO_WINDOW (1024 * 1024)		/* bytes per streamed read */

/* The two above, or DIRC_TEST_WINDOW's. */
uint64_t fileio_stream_min(void);
size_t fileio_window(void);

/* A reusable read() buffer; one per thread. */
struct read_buf {
	unsigned char *buf;	/* owned */
	size_t alloc;
};
#define READ_BUF_INIT { NULL, 0 }
void read_buf_release(struct read_buf *rb);

/* The bytes of one file, read or mapped. */
struct file_view {
	const unsigned char *data;	/* borrowed from the read_buf, or
					 * the mapping */
	size_t len;
	void *map;			/* mmap base, or NULL */
	size_t map_len;
};
#define FILE_VIEW_INIT { NULL, 0, NULL, 0 }

/* The cut-off in bytes: DIRC_MMAP_CUTOFF, or FILEIO_DEFAULT_CUTOFF. */
size_t fileio_cutoff(void);

/*
 * View size bytes of the open file fd (whose lstat said size).  path names
 * it in messages.  Fails with E_CORRUPT ("... changed while reading") when
 * the file holds fewer bytes than size, or more (for a mapping: when
 * fstat() of fd disagrees with size), and with E_IO etc. on system errors.  The view borrows rb's buffer: it is
 * valid until the next use of rb or file_view_release().
 */
int fileio_view_fd(struct file_view *out, struct read_buf *rb, int fd,
		   size_t size, const char *path);
void file_view_release(struct file_view *view);

/*
 * Feed exactly size bytes of fd to fn in windows of fileio_window() bytes
 * (using rb as the buffer).  fn returns 0 or a negative E_* (which stops
 * the stream and is returned).  A file that ends early or runs past size
 * is an E_CORRUPT error naming path.
 */
typedef int (*fileio_chunk_fn)(void *ctx, const void *data, size_t len);
int fileio_stream_fd(int fd, uint64_t size, struct read_buf *rb,
		     fileio_chunk_fn fn, void *ctx, const char *path);

/*
 * Read all of fd (until end of file) into rb.  Returns bytes read or a
 * negative E_* naming path.  For pipes and stdin.
 */
ssize_t fileio_slurp_fd(struct read_buf *rb, int fd, const char *path);

#endif
