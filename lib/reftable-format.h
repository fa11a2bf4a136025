/*
 * reftable-format: one reftable file, in memory — parse and walk its
 * ref and log sections, and build a table from sorted records exactly
 * as git 2.55's writer lays it out.  The stack (reftable.c) is the only
 * user besides the tests and the fuzzer; nothing here touches the file
 * system: a table's bytes are in memory or come from a source the caller
 * gives (struct rt_source).
 */
#ifndef DIRC_REFTABLE_FORMAT_H
#define DIRC_REFTABLE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "hash.h"
#include "strbuf.h"

/* ---- the records and write settings, as reftable.h gives them ---- */

enum reftable_ref_type {
	REFTABLE_REF_DELETION = 0,	/* a tombstone: the name is gone */
	REFTABLE_REF_VAL1 = 1,		/* value */
	REFTABLE_REF_VAL2 = 2,		/* value and the object it peels to */
	REFTABLE_REF_SYMREF = 3,	/* target */
};

struct reftable_ref {
	char *name;			/* owned */
	uint64_t update_index;
	enum reftable_ref_type type;
	struct object_id value;		/* VAL1, VAL2 */
	struct object_id peeled;	/* VAL2 */
	char *target;			/* SYMREF; owned */
};

struct reftable_log {
	char *name;			/* the ref; owned */
	uint64_t update_index;
	int deletion;			/* a log tombstone: no fields below */
	struct object_id old_oid, new_oid;
	char *who;			/* committer name; owned */
	char *email;			/* without <>; owned */
	uint64_t time;			/* seconds since the epoch */
	int tz;				/* as written in idents: -700, 130 */
	char *message;			/* owned; as stored (git's writer
					 * ends every message with "\n") */
};

void reftable_ref_release(struct reftable_ref *ref);
void reftable_log_release(struct reftable_log *log);

/* Write settings (see reftable_stack_set_options()). */
struct reftable_write_options {
	uint32_t block_size;
	uint16_t restart_interval;
	int skip_index_objects;
	unsigned geometric_factor;
	unsigned file_mode;		/* 0: 0666 & ~umask */
	int fsync;
};

#define RT_BLOCK_REF 'r'
#define RT_BLOCK_LOG 'g'
#define RT_BLOCK_OBJ 'o'
#define RT_BLOCK_INDEX 'i'

/*
 * Decode one of git's offset varints (7 bits a byte, most significant
 * first, each continuation adding one) from [*p, end): 0 with *p moved
 * past it, or -1 (truncated, or more than 64 bits).  The same numbers
 * as varint.h's, up to git's reftable bound.
 */
int rt_varint_decode(const unsigned char **p, const unsigned char *end,
		     uint64_t *out);

/*
 * Where the bytes of a table not held in memory come from.  read() gives
 * the n bytes at file offset off (the reader keeps off + n within the
 * file): *out points either into memory that lives as long as the
 * source, or into buf, which read() fills (reset first).  0, or a
 * negative E_* with the error set.  release() frees the source.
 */
struct rt_source {
	int (*read)(struct rt_source *src, uint64_t off, size_t n,
		    struct strbuf *buf, const unsigned char **out);
	void (*release)(struct rt_source *src);
};

/*
 * A source over len bytes in memory (data, taken over), for the tests
 * and the fuzzer to read a table the way reftable.c reads a file: the
 * first copies reads are copied into the reader's buffer, later ones
 * point into data (as after the switch to a mapping); read number
 * fail_at (from 1; 0: none) fails with E_IO; a read past the end is
 * refused with E_INVALID.  reads counts the reads made.
 */
struct rt_mem_source {
	struct rt_source src;
	unsigned char *data;
	size_t len;
	unsigned reads, copies, fail_at;
};
struct rt_mem_source *rt_mem_source_new(unsigned char *data, size_t len,
					unsigned copies, unsigned fail_at);

/* A parsed table: the whole file in data, or read through src. */
struct rt_table {
	char *path;			/* for messages; owned */
	const char *name;		/* path after its last '/' (the name
					 * tables.list gives); points into
					 * path */
	unsigned char *data;		/* owned, malloc()ed; or NULL */
	struct rt_source *src;		/* owned, when data is NULL */
	size_t len;			/* file size */
	size_t end;			/* where the footer starts */
	const struct hash_algo *algo;
	int version;			/* 1 or 2 */
	size_t hdr_len;			/* 24 or 28 */
	uint32_t block_size;
	uint64_t min_index, max_index;
	uint64_t log_off;		/* of the first log block */
	uint64_t ref_index_off;		/* top level of the ref index, or 0 */
	uint64_t log_index_off;		/* top level of the log index, or 0 */
	int has_refs, has_logs;
	/*
	 * A cache of seeks through the ref index: the ref block the last
	 * one found (at hint_off), and its last key (hint_len bytes, 0 for
	 * none).  A seek for a key from that block's first key to its last
	 * goes straight to it: a sorted batch of lookups mostly does.
	 */
	uint64_t hint_off;
	size_t hint_len;
	unsigned char hint_key[256];
};

/*
 * Parse the header and footer of data (len bytes, taken over: freed by
 * rt_table_release() even on failure) for a repository hashing with
 * algo.  path names the file in messages.  0 or -E_CORRUPT.
 */
int rt_table_parse(struct rt_table *out, const char *path,
		   unsigned char *data, size_t len,
		   const struct hash_algo *algo);
/*
 * The same for a file of len bytes read through src (taken over in the
 * same way): only the header and the footer are read here, and each
 * block later when a walk or a seek comes to it.
 */
int rt_table_parse_source(struct rt_table *out, const char *path,
			  struct rt_source *src, size_t len,
			  const struct hash_algo *algo);
void rt_table_release(struct rt_table *t);

/* The size auto-compaction weighs a table by (git's "size - overhead"). */
uint64_t rt_table_weight(const struct rt_table *t);

/*
 * Auto-compaction's choice (git's), in reftable.c: the tables
 * [*start, *end) to merge so that sizes (oldest first, as
 * rt_table_weight() counts them) become a geometric sequence with
 * factor (0: 2) again; *start == *end when they are one.
 */
void rt_compaction_segment(size_t *start, size_t *end, const uint64_t *sizes,
			   size_t n, unsigned factor);

/* One block, decoded (a log block inflated). */
struct rt_block {
	const unsigned char *data;	/* from its file offset; borrowed from
					 * the table or its source, or in
					 * buf */
	size_t len;			/* the header's block length */
	size_t rec_start, rec_end;	/* the records */
	unsigned char type;
	uint64_t off;			/* its file offset */
	uint64_t next;			/* file offset of the next block */
	struct strbuf buf;		/* owned: a log block inflated, or
					 * the bytes the source read */
};

/*
 * A cursor over one section (refs or logs) of one table, in key order.
 * The current record is in ref or log, valid until the next call.
 */
struct rt_iter {
	const struct rt_table *t;	/* borrowed */
	unsigned char type;		/* RT_BLOCK_REF, _LOG or _INDEX */
	struct rt_block blk;
	size_t pos;			/* next record within blk */
	size_t val;			/* the current record's value */
	unsigned vtype;			/* and its value type */
	int in_block, done;
	struct strbuf key;		/* the current record's key */
	struct reftable_ref ref;	/* owned strings */
	struct reftable_log log;	/* owned strings */
	uint64_t index_off;		/* an index record's block offset */
};

void rt_iter_init(struct rt_iter *it, const struct rt_table *t,
		  unsigned char type);
/* Advance: 0 with a record, 1 at the end, or -E_CORRUPT. */
int rt_iter_next(struct rt_iter *it);
/*
 * Position a fresh iterator (before its first rt_iter_next()) on the
 * first record whose key is >= key (len bytes): through the section's
 * index if it has one (else by the first key of each block), then by
 * the restart points of the block.  0, 1 at the end, or -E_CORRUPT.
 */
int rt_iter_seek(struct rt_iter *it, const void *key, size_t len);
void rt_iter_release(struct rt_iter *it);

/* The key a log record sorts by: name, NUL, ~update_index big-endian. */
void rt_log_key(struct strbuf *out, const char *name, uint64_t update_index);

/*
 * Build a table: refs sorted by name (each update_index within
 * [min, max]), logs sorted by key; the bytes go to out (reset first).
 * Log messages are stored as git's writer stores them (trailing
 * newlines dropped and one "\n" added; NULL stays empty) unless flags
 * has RT_WRITE_EXACT_MESSAGES.  Returns 0, 1 if there was nothing to
 * write (git writes no table then), or -E_INVALID (records out of
 * order, a record larger than a block, a multi-line log message).
 */
enum rt_write_flags {
	RT_WRITE_EXACT_MESSAGES = 1 << 0,
};
int rt_write_table(struct strbuf *out, const struct hash_algo *algo,
		   const struct reftable_write_options *opts, unsigned flags,
		   uint64_t min, uint64_t max,
		   const struct reftable_ref *refs, size_t nref,
		   const struct reftable_log *logs, size_t nlog);

/*
 * The same, a record at a time, for callers that make records as they
 * go instead of holding them all: rt_writer_new() (-E_INVALID for a
 * bad block size, *w NULL then), every ref in order, then every log in
 * order (each call 0 or -E_INVALID as above; a record's strings are
 * copied before the call returns), rt_writer_finish() (0, 1 if nothing
 * was added, or a negative E_*), and rt_writer_free() in every case.
 */
struct rt_writer;
int rt_writer_new(struct rt_writer **w, struct strbuf *out,
		  const struct hash_algo *algo,
		  const struct reftable_write_options *opts, unsigned flags,
		  uint64_t min, uint64_t max);
int rt_writer_add_ref(struct rt_writer *w, const struct reftable_ref *ref);
int rt_writer_add_log(struct rt_writer *w, const struct reftable_log *log);
int rt_writer_finish(struct rt_writer *w);
void rt_writer_free(struct rt_writer *w);

#endif
