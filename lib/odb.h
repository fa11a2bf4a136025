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
 * in windows, and an object whose deflated form would not fit one 256 KB
 * buffer is written through it in pieces, so memory stays bounded.
 *
 * Reading: inflate, check the header, the size and the end of the stream;
 * check the id on request.  The empty tree always exists.
 *
 * Thread safety: an odb may be shared by threads for reading and writing
 * (once odb_list_loose() ran in one thread, for bulk writes), as long as
 * each thread writes with its own odb_writer.  The pack lists are under
 * a reader/writer lock, so any thread may rescan them on a miss
 * (odb_reprepare()); a pack that disappears is retired, not closed, until
 * odb_release(), and each pack maps itself under its own lock.
 * odb_has_cached() and odb_release() are single-thread only.
 */
#ifndef DIRC_ODB_H
#define DIRC_ODB_H

#include <pthread.h>
#include <zlib.h>

#include "fileio.h"
#include "hash.h"
#include "object.h"
#include "pack.h"
#include "settings.h"
#include "strbuf.h"

struct replace_map;

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
	unsigned char (*suffix)[HASH_MAX_RAWSZ - 1]; /* owned; sorted */
	size_t nr;
	int loaded;
	unsigned probes;		/* single lookups before listing */
};

/* One object directory: the repository's, or an alternate. */
struct odb_source {
	char *objdir;			/* absolute; owned */
	struct pack **packs;		/* owned; newest first */
	size_t nr_packs, alloc_packs;
	struct pack **retired;		/* owned: packs deleted meanwhile,
					 * kept open until odb_release() so
					 * that no reader loses its pack */
	size_t nr_retired, alloc_retired;
	int packs_loaded;		/* (atomic) */
	size_t hit;			/* (atomic, relaxed) the pack that
					 * had the last object found: tried
					 * first, as objects come in runs */
	struct timespec pack_dir_mtime;	/* when the pack list was read */
	struct odb_fanout_list *lists;	/* owned; 256 entries, or NULL */
	int quiet_bad_packs;		/* no warning for a pack that will
					 * not open: the caller reports it
					 * (count-objects, as git) */
};

/* An object written in batch mode, waiting for odb_flush() to name it. */
struct odb_pending {
	struct object_id oid;
	char *tmp;			/* its temp file; owned */
};

struct odb {
	char *objdir;			/* the repository's; owned */
	struct odb_source *sources;	/* owned; [0] is objdir, then the
					 * alternates */
	size_t nr_sources;
	/*
	 * Guards every source's pack list: readers (any thread) hold it
	 * shared while they search; (re)scanning holds it exclusively.
	 */
	pthread_rwlock_t packs_lock;
	struct pack_env env;		/* for pack reading */
	int level;			/* loose zlib level */
	unsigned fsync;			/* do fsync loose objects */
	enum fsync_method fsync_method;
	pthread_mutex_t pending_lock;	/* guards pending* */
	struct odb_pending *pending;	/* batch mode: written, not yet
					 * named; owned */
	size_t pending_nr, pending_alloc;
	int listed;			/* every fan-out of objdir listed */
	struct odb_writer writer;	/* the main thread's writer */
	struct replace_map *replace;	/* owned; NULL: objects are read
					 * as stored (see odb_replacement) */
};

/* Set up for objdir with the repository's settings.  0 or -E_*. */
int odb_init(struct odb *odb, const char *objdir,
	     const struct repo_settings *settings);
/* Finish a pending batch fsync and free everything. */
void odb_release(struct odb *odb);

/* Path of oid's loose file: "<objdir>/xx/yyyy…", replacing out. */
void odb_loose_path(struct strbuf *out, const struct odb *odb,
		    const struct object_id *oid);


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
 * A change applied to a file's bytes as they stream into an object
 * (odb_write_fd_xform): fn gets the file's windows in order, then len 0
 * for the end, and hands what comes out to emit(ectx, ...).  size is the
 * object's size, what fn emits in all: a file that gives another count
 * changed while it was read (E_CORRUPT).
 */
struct odb_xform {
	int (*fn)(struct odb_xform *x, const void *in, size_t len,
		  fileio_chunk_fn emit, void *ectx);
	uint64_t size;
};

/*
 * odb_hash_fd() and odb_write_fd() of the file's bytes as x changes
 * them (NULL: as they are), streamed in bounded windows whatever the
 * size (file_size: the file's, as lstat gave it).
 */
int odb_hash_fd_xform(struct object_id *out, const char *type, int fd,
		      uint64_t file_size, struct odb_xform *x,
		      const char *path, struct read_buf *rb);
int odb_write_fd_xform(struct odb *odb, struct odb_writer *w,
		       const char *type, int fd, uint64_t file_size,
		       struct odb_xform *x, const char *path, unsigned flags,
		       struct object_id *out);

/*
 * Hash (and with ODB_FD_WRITE store) the work-tree file at path as a
 * blob: a regular file's bytes (size from lstat) or a symlink's target.
 * 0 or a negative E_* ("open(\"<path>\"): <reason>", ...).
 */
int odb_write_path(struct odb *odb, struct odb_writer *w, const char *path,
		   unsigned mode, uint64_t size, unsigned flags,
		   struct object_id *out);

/*
 * Finish a core.fsyncMethod=batch: one fsync that makes every object
 * written so far durable, then each is moved to its name.  Call it
 * before writing anything that refers to them (the index, a ref) and
 * before printing their ids.  0 or a negative E_*.
 */
int odb_flush(struct odb *odb);

/* Is oid stored (or the virtual empty tree)?  1 or 0. */
int odb_has(struct odb *odb, const struct object_id *oid);

/* Is oid in a pack?  1 with *p and *offset set, or 0. */
int odb_find_packed(struct odb *odb, const struct object_id *oid,
		    struct pack **p, uint64_t *offset);

/*
 * List every fan-out directory of the repository's store once, so that
 * writing many objects needs no existence probe per new object (a race
 * with another writer is still safe: moving into place never replaces).
 */
void odb_list_loose(struct odb *odb);

/* Read the pack directories again if they changed.  1 if they did. */
int odb_reprepare(struct odb *odb);

/* Load the packs of every source (once). */
void odb_prepare_packs(struct odb *odb);

/* Load and map every pack, so that threads can read objects at once. */
void odb_prepare_threads(struct odb *odb);

/*
 * pack_trim() every mapped pack, so that the resident set does not grow
 * to the size of the packs.  odb_read() calls it itself each time a
 * thread has read 32 MB of packed objects.  Any thread.
 */
void odb_trim_packs(struct odb *odb);

/*
 * Call fn for every object id stored (loose and packed, every source
 * unless local_only), in no particular order, duplicates possible.
 * Stops at the first non-zero return, which is returned.
 */
typedef int (*odb_oid_fn)(const struct object_id *oid, void *ctx);
int odb_for_each_object(struct odb *odb, int local_only, odb_oid_fn fn,
			void *ctx);

/*
 * Ids starting with the len-digit hex prefix (len >= 2): up to max
 * distinct ones into out[]; returns how many were found.  Each fan-out
 * directory is listed once per odb and kept (odb_has_cached's lists), so
 * many lookups cost one readdir per directory, as git's loose object
 * cache; a loose object stored after its directory was listed is not
 * found by prefix (by its full id it is).  One thread at a time.
 */
size_t odb_find_prefix(struct odb *odb, const char *hex, size_t len,
		       struct object_id *out, size_t max);

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
	ODB_READ_NO_REPLACE = 1 << 2,	/* the object as stored, even if
					 * refs/replace/ names another */
};

/*
 * The object read in oid's place: what refs/replace/ names for it when
 * odb->replace is set (repo_odb() sets it unless replacement is turned
 * off, see replace.h), else oid itself; always oid itself with
 * ODB_READ_NO_REPLACE.  odb_read(), odb_read_info() and odb_read_type()
 * call it first: it is the one place replacement happens.  As in git's
 * parse_object(), ODB_READ_VERIFY then checks the replacement against
 * its own id.  0, or -E_INVALID ("replace depth too high for object
 * <id>").
 */
int odb_replacement(struct object_id *out, struct odb *odb,
		    const struct object_id *oid, unsigned flags);

/*
 * Read oid whole.  0, -E_NOTFOUND ("object <id> not found" — quietly
 * checkable with odb_has first), or -E_CORRUPT naming the object and its
 * file (bad zlib stream, bad header, wrong size, trailing garbage, id
 * mismatch when verifying, unknown type without ODB_READ_ANY_TYPE).
 */
int odb_read(struct odb_object *out, struct odb *odb,
	     const struct object_id *oid, unsigned flags);

/* The loose copy of oid (in any source). */
int odb_read_loose(struct odb_object *out, struct odb *odb,
		   const struct object_id *oid, unsigned flags);

/* zlib's status (Z_NEED_DICT, ...) as git names it: "needs dictionary" */
const char *odb_zlib_status_name(int status);

/*
 * Inflate and check the bytes of a loose object file (buf, len bytes) as
 * odb_read_loose() does; oid and path name it in messages (and oid is
 * what ODB_READ_VERIFY checks against).  For the fuzzer and tests; the
 * readers above map the file and call these.  Returns as odb_read_loose().
 */
int odb_loose_parse(struct odb_object *out, const void *buf, size_t len,
		    const struct object_id *oid, const char *path,
		    unsigned flags);
/*
 * A loose object whose zlib stream fails before the end of its header
 * is -E_CORRUPT "loose object <id> (stored in <path>) is corrupt", with
 * git's lines before it in error_pre(): "inflate: <status> (<zlib's
 * message>)" and "unable to unpack <id> header".
 */
/* Only the type and size, as odb_read_info() reads a loose file. */
int odb_loose_parse_info(enum object_type *type, size_t *size,
			 char *type_buf, size_t type_bufsize, const void *buf,
			 size_t len, const struct object_id *oid,
			 const char *path, unsigned flags);

/* The loose file of oid in objdir, replacing out. */
void odb_loose_path_in(struct strbuf *out, const char *objdir,
		       const struct object_id *oid);

/*
 * Read only the type and size (inflating just the header).  type_buf
 * (may be NULL) receives the type string for --literally types.
 */
int odb_read_info(enum object_type *type, size_t *size, char *type_buf,
		  size_t type_bufsize, struct odb *odb,
		  const struct object_id *oid, unsigned flags);

/*
 * The type as stored, whatever its length (hash-object --literally
 * writes types of any length), into type (replaced), and the size.
 * Unknown types are always accepted.  0, -E_NOTFOUND, or -E_CORRUPT as
 * odb_read_info().
 */
int odb_read_type(struct strbuf *type, size_t *size, struct odb *odb,
		  const struct object_id *oid, unsigned flags);

#endif
