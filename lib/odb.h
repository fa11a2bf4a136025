/*
 * odb: the object database — SHA-1-named, zlib-compressed loose objects
 * under objects/xx/yyyy… exactly as git stores them.
 *
 * Writing: the id is computed first; an object already stored is not
 * rewritten but freshened (its mtime updated, so a prune keeps it).  A new
 * object is deflated (one z_stream and one buffer per writer, reset per
 * object) into "tmp_obj_XXXXXX" in its fan-out directory, written in one
 * call, and moved into place with renameat2(RENAME_NOREPLACE) — or
 * link()+unlink() where the file system lacks it — never overwriting;
 * mode 0444.  Files at or past FILEIO_STREAM_MIN are hashed and deflated
 * in windows, so memory stays bounded.
 *
 * Reading: inflate, check the header, the size and the end of the stream;
 * check the id on request.  The empty tree always exists.
 *
 * Thread safety: an odb may be shared by threads as long as each uses its
 * own odb_writer and nothing calls odb_release concurrently.
 */
#ifndef DIRC_ODB_H
#define DIRC_ODB_H

#include <zlib.h>

#include "fileio.h"
#include "hash.h"
#include "repo.h"
#include "strbuf.h"

enum object_type {
	OBJ_BAD = -1,
	OBJ_NONE = 0,
	OBJ_COMMIT = 1,
	OBJ_TREE = 2,
	OBJ_BLOB = 3,
	OBJ_TAG = 4,
	OBJ_OFS_DELTA = 6,	/* pack-only types */
	OBJ_REF_DELTA = 7,
};

/* "commit", "tree", "blob", "tag", or NULL for others. */
const char *type_name(enum object_type type);
/* The type named by len bytes of s, or OBJ_BAD. */
enum object_type type_from_name(const char *s, size_t len);

#define ODB_HEADER_MAX 64	/* "<type> <size>\0" fits (git uses 32) */

/*
 * Format "<type> <size>\0" into buf (at least ODB_HEADER_MAX bytes, or
 * longer for a long --literally type).  Returns its length including the
 * NUL.
 */
size_t odb_header(char *buf, size_t bufsize, const char *type, uint64_t size);

/* One thread's deflate state and buffers. */
struct odb_writer {
	z_stream zs;
	int zs_ready;		/* deflateInit done */
	int level;
	unsigned char *out;	/* owned; deflated bytes of one object */
	size_t out_alloc;
	struct read_buf rb;	/* owned; file input */
	struct strbuf tmp;	/* temp file path scratch */
	uint64_t rnd;		/* temp name generator state */
};

void odb_writer_init(struct odb_writer *w, int level);
void odb_writer_release(struct odb_writer *w);

/* What one fan-out directory held when it was listed. */
struct odb_fanout_list {
	unsigned char (*suffix)[HASH_RAWSZ - 1]; /* owned; sorted */
	size_t nr;
	int loaded;
	unsigned probes;		/* single lookups before listing */
};

struct odb {
	char *objdir;			/* absolute; owned */
	struct odb_fanout_list *lists;	/* owned; 256 entries, or NULL */
	int level;			/* loose zlib level */
	unsigned fsync;			/* do fsync loose objects */
	enum fsync_method fsync_method;
	int batch_dirty;		/* batch mode: objects await a flush */
	unsigned char fanout_known[256]; /* fan-out directory exists */
	struct odb_writer writer;	/* the main thread's writer */
};

/* Set up for objdir with the repository's settings.  0 or -E_*. */
int odb_init(struct odb *odb, const char *objdir,
	     const struct repo_settings *settings);
/* Finish a pending batch fsync and free everything. */
void odb_release(struct odb *odb);

/* Path of oid's loose file: "<objdir>/xx/yyyy…", replacing out. */
void odb_loose_path(struct strbuf *out, const struct odb *odb,
		    const struct object_id *oid);

/* Id of len bytes of data as an object of the given type (no writing). */
void odb_hash(struct object_id *out, const char *type, const void *data,
	      size_t len);

/*
 * Store data as an object of type (any string with --literally; the
 * caller checks).  Sets *out to its id.  Returns 1 if written, 0 if it
 * was already stored (freshened), or a negative E_* (no file is left
 * under the final name; a temp file is removed).
 */
int odb_write(struct odb *odb, struct odb_writer *w, const char *type,
	      const void *data, size_t len, struct object_id *out);

enum odb_fd_flags {
	ODB_FD_WRITE = 1 << 0,	/* store the object, not just hash it */
};

/*
 * Id of the size bytes of the open file fd as an object of type, reading
 * through rb (a caller's reusable buffer).  0 or a negative E_*.
 */
int odb_hash_fd(struct object_id *out, const char *type, int fd,
		uint64_t size, const char *path, struct read_buf *rb);

/*
 * Hash (and with ODB_FD_WRITE store) the size bytes of the open file fd
 * as an object of type, reading or mapping or streaming by size (see
 * fileio.h).  path names the file in messages.  Returns as odb_write()
 * (0 when only hashing).
 */
int odb_write_fd(struct odb *odb, struct odb_writer *w, const char *type,
		 int fd, uint64_t size, const char *path, unsigned flags,
		 struct object_id *out);

/*
 * Flush a pending core.fsyncMethod=batch: one fsync that makes every
 * object written so far durable.  0 or a negative E_*.
 */
int odb_flush(struct odb *odb);

/* Is oid stored (or the virtual empty tree)?  1 or 0. */
int odb_has(struct odb *odb, const struct object_id *oid);

/*
 * odb_has() for many lookups: after a few probes of one fan-out
 * directory, it is listed once and later lookups are a binary search.
 * Objects stored after the listing are still found (by a probe).
 * Not thread-safe.
 */
int odb_has_cached(struct odb *odb, const struct object_id *oid);

/* An object read back. */
struct odb_object {
	enum object_type type;	/* OBJ_BAD for a --literally type */
	char type_name[32];	/* the type as stored (truncated) */
	size_t size;
	unsigned char *data;	/* owned; size bytes plus a NUL */
};
#define ODB_OBJECT_INIT { OBJ_NONE, "", 0, NULL }
void odb_object_release(struct odb_object *obj);

enum odb_read_flags {
	ODB_READ_VERIFY = 1 << 0,	/* check that the bytes hash to oid */
	ODB_READ_ANY_TYPE = 1 << 1,	/* accept --literally types */
};

/*
 * Read oid whole.  0, -E_NOTFOUND ("object <id> not found" — quietly
 * checkable with odb_has first), or -E_CORRUPT naming the object and its
 * file (bad zlib stream, bad header, wrong size, trailing garbage, id
 * mismatch when verifying, unknown type without ODB_READ_ANY_TYPE).
 */
int odb_read(struct odb_object *out, struct odb *odb,
	     const struct object_id *oid, unsigned flags);

/*
 * Read only the type and size (inflating just the header).  type_buf
 * (may be NULL) receives the type string for --literally types.
 */
int odb_read_info(enum object_type *type, size_t *size, char *type_buf,
		  size_t type_bufsize, struct odb *odb,
		  const struct object_id *oid, unsigned flags);

/*
 * Parse "<type> <size>\0" at the start of hdr (len bytes).  Returns the
 * header length including the NUL, or -1 if malformed.  type_out gets
 * the type string (truncated to type_size).
 */
ssize_t odb_parse_header(const unsigned char *hdr, size_t len,
			 char *type_out, size_t type_size, uint64_t *size);

#endif
