/*
 * bufwrite: the coalescing writer.  Many small records (index entries,
 * extension bytes) collect in one buffer of BUFWRITE_SIZE bytes that is
 * written with a single write() when full; each chunk is fed to the
 * running SHA-1 just before it is written, while it is hot in cache, so
 * the bytes are hashed once.  bufwrite_finish() appends that checksum.
 *
 * For big files (the index of a large tree) the hashing can run on a
 * second thread, bufwrite_hash_async(), overlapping the formatting and
 * the write() calls; each buffer then goes to that thread once written
 * and a fresh one (from a small ring) takes its place.
 *
 * DIRC_BUFWRITE_SIZE=<bytes> overrides the size for perf's sweep
 * (0: one write() per record, which is what this module exists to avoid).
 */
#ifndef DIRC_BUFWRITE_H
#define DIRC_BUFWRITE_H

#include "hash.h"

#define BUFWRITE_SIZE (16 * 1024)	/* DESIGN §2.2: 16 KB */

struct bufwrite_async;

struct bufwrite {
	int fd;
	const char *path;	/* for messages; borrowed */
	unsigned char *buf;	/* owned; NULL when the size is 0 */
	size_t len, cap;
	struct hasher *hash;	/* NULL: no checksum; else &own */
	int zero_trailer;	/* BUFWRITE_ZERO_TRAILER */
	struct hasher own;	/* a context of its own: what the writer
				 * hashes meanwhile (the content of racy
				 * entries) must not disturb it */
	struct bufwrite_async *async;	/* the hashing thread, or NULL */
	uint64_t total;		/* bytes accepted so far */
	int err;		/* first failure (negative E_*), sticky */
	int errnum;		/* the errno of a failed write(), or 0 */
};

/* What bufwrite_finish() appends after the bytes. */
enum bufwrite_trailer {
	BUFWRITE_NO_TRAILER,
	/* the hash of everything (a context of the bufwrite's own) */
	BUFWRITE_HASH_TRAILER,
	/* HASH_RAWSZ zero bytes, nothing hashed (git's index.skipHash) */
	BUFWRITE_ZERO_TRAILER,
};

/* Start writing to fd, to end with the given trailer. */
void bufwrite_init(struct bufwrite *bw, int fd, const char *path,
		   enum bufwrite_trailer trailer);

/*
 * Hash on a second thread from here on (after bufwrite_init with a
 * checksum, before anything is added): this thread formats and writes
 * while the other hashes what was written, so a long write costs the
 * larger of the two rather than their sum.  The bytes and the checksum
 * are the same.  A no-op without a checksum or a buffer.
 */
void bufwrite_hash_async(struct bufwrite *bw);

/* Buffer len bytes.  0, or the sticky negative E_* of a failed write. */
int bufwrite_add(struct bufwrite *bw, const void *data, size_t len);
/*
 * The same for bytes that stay valid and unchanged until
 * bufwrite_finish() or bufwrite_release() (a mapped file): a long span
 * is written from where it is, and the hashing thread reads it there
 * without this one waiting for it.  The bytes are read twice, by write()
 * and by the hash, so a mapped file must not change in place meanwhile
 * (git and dirc replace the index by rename, never in place).
 */
int bufwrite_add_stable(struct bufwrite *bw, const void *data, size_t len);
int bufwrite_flush(struct bufwrite *bw);

/*
 * Flush; write the trailer and return it in out (if not NULL and there
 * is one).  Frees the buffer.  0 or a negative E_*.
 */
int bufwrite_finish(struct bufwrite *bw, unsigned char *out);

/* Free the buffer without flushing (after a failure). */
void bufwrite_release(struct bufwrite *bw);

#endif
