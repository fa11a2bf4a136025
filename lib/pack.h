/*
 * pack: git's packfiles — the .idx (versions 1 and 2, 32- and 64-bit
 * offsets) to find an object, the .pack (versions 2 and 3) to read it,
 * whole or as a chain of offset/reference deltas resolved without
 * recursion, with a small cache of recently inflated delta bases.
 *
 * dirc never writes packs; it reads everything git may have packed.
 */
#ifndef DIRC_PACK_H
#define DIRC_PACK_H

#include <pthread.h>

#include "error.h"
#include "hash.h"
#include "strbuf.h"

/* A .idx v1 record: the u32 offset, then the id (git: 4 + hashsz). */
#define PACK_V1_ENTRY (4 + (size_t)HASH_RAWSZ)

struct pack;
struct pack_cache;

/*
 * What pack reading needs from the object store around it: where a
 * reference delta's base lives when it is not in the same pack, and the
 * cache of delta bases.
 */
struct pack_env {
	void *ctx;
	/*
	 * Find oid elsewhere: 1 with *p and *off set (packed), 0 with *type,
	 * *data (owned) and *size set (loose), or a negative E_*.  With data
	 * NULL only the type is wanted.
	 */
	int (*find)(void *ctx, const struct object_id *oid, struct pack **p,
		    uint64_t *off, int *type, unsigned char **data,
		    size_t *size);
	/*
	 * The delta base cache every thread shares while it is set (see
	 * pack_cache_new_shared); NULL: each thread has its own.
	 */
	struct pack_cache *shared;
};

struct pack {
	char *idx_path;			/* owned */
	char *pack_path;		/* owned */
	const unsigned char *idx;	/* mapped .idx */
	size_t idx_len;
	int idx_version;		/* 1 or 2 */
	uint32_t nr;			/* objects */
	const unsigned char *fanout;	/* 256 big-endian counts */
	const unsigned char *ids;	/* v2: nr ids; v1: PACK_V1_ENTRY-byte records */
	const unsigned char *crcs;	/* v2 only */
	const unsigned char *off32;	/* v2 only */
	const unsigned char *off64;	/* v2 only */
	uint32_t nr_large;		/* 64-bit offsets available */
	/*
	 * The mapped .pack, or NULL until used.  Published once, checked,
	 * with a release store: a reader that sees it non-NULL (acquire)
	 * sees data_len and the rest.  lock guards mapping and the lazy
	 * reverse index, so any thread may call pack_map().
	 */
	const unsigned char *data;
	pthread_mutex_t lock;
	size_t data_len;
	int data_is_file;		/* data maps the .pack file itself */
	int open_failed;		/* mapping or checking the .pack failed
					 * once: the pack is not used */
	struct error_saved open_err;	/* why, repeated to every reader */
	uint64_t pack_size;		/* from stat */
	struct timespec mtime;		/* of the .pack */
	uint64_t *rev;			/* owned: offsets sorted, then the
					 * end of data; NULL until needed */
	uint32_t *rev_pos;		/* owned: index position of rev[i] */
	/*
	 * The types found at the end of delta chains, by offset: an open
	 * hash of (offset << 3 | type), 0 for empty, filled by any thread
	 * (compare-and-swap), so that pack_object_info() walks each chain
	 * once.  Owned; NULL until a chain is walked.
	 */
	uint64_t *types;
	size_t types_cap;		/* a power of two */
	int freshened;			/* mtime already updated once
					 * (atomic: threads may race) */
	uint64_t serial;		/* unique per pack_open in this
					 * process: keys the delta base cache,
					 * as a closed pack's address is
					 * reused */
	/*
	 * Offsets of the objects found corrupt here, so that lookups go on
	 * to another copy (another pack, a loose object) as git's do.
	 * Appended under lock; nr_bad is read atomically, so a sound pack
	 * costs one load per lookup.
	 */
	uint64_t *bad;
	uint32_t nr_bad, alloc_bad;
};

/*
 * Map and check an .idx file: its size, header, fan-out table and the
 * bounds of every table.  The .pack is mapped on first use.  0, or
 * -E_CORRUPT naming the file.
 */
int pack_open(struct pack **out, const char *idx_path);
void pack_close(struct pack *p);

/*
 * pack_open() for an .idx image in memory (for the fuzzer and tests):
 * buf is copied; name stands for the .idx path in messages.
 */
int pack_open_buffer(struct pack **out, const void *buf, size_t len,
		     const char *name);

/* Map the .pack and check it against the index.  0 or -E_CORRUPT. */
int pack_map(struct pack *p);

/*
 * pack_map() for a .pack image in memory (for the fuzzer and tests): buf
 * is copied and checked against the index as pack_map() checks the file.
 * p must not be mapped yet.  0 or -E_CORRUPT (p stays unusable then).
 */
int pack_map_buffer(struct pack *p, const void *buf, size_t len);

/* The id of the n-th object in index order. */
static inline const unsigned char *
pack_nth_id(const struct pack *p, uint32_t n)
{
	return p->idx_version == 1 ? p->ids + PACK_V1_ENTRY * (size_t)n + 4 :
		p->ids + HASH_RAWSZ * (size_t)n;
}

/* Offset of the n-th object; 0 if the index entry is out of range. */
uint64_t pack_nth_offset(const struct pack *p, uint32_t n);

/* The id of the object at offset: 0, or -1 if none starts there. */
int pack_id_at(struct pack *p, uint64_t offset, struct object_id *oid);

/*
 * The object at offset is corrupt: odb lookups skip this copy from now
 * on (pack_is_bad), and a delta whose base it is reads the base from
 * wherever else it is stored.
 */
void pack_mark_bad(struct pack *p, uint64_t offset);
int pack_is_bad(struct pack *p, uint64_t offset);

/* Look oid up: 1 with *n set (index position), or 0. */
int pack_find(const struct pack *p, const struct object_id *oid, uint32_t *n);

/*
 * Positions [*first, *last) of ids starting with the len-digit hex
 * prefix (already converted to bytes in prefix, len digits).
 */
void pack_find_prefix(const struct pack *p, const unsigned char *prefix,
		      size_t len, uint32_t *first, uint32_t *last);

/*
 * Type and size of the object at offset (following delta chains to the
 * base type; the size is the delta's result size).  0 or a negative E_*.
 */
int pack_object_info(const struct pack_env *env, struct pack *p,
		     uint64_t offset, int *type, size_t *size,
		     struct object_id *delta_base);

/* Bytes the object at offset takes in the pack (up to the next one). */
uint64_t pack_object_disk_size(struct pack *p, uint64_t offset);

/*
 * The object at offset, inflated and with every delta applied.  *data
 * is owned by the caller (size bytes plus a NUL).  0 or a negative E_*
 * naming the pack and offset.
 */
int pack_read_object(const struct pack_env *env, struct pack *p,
		     uint64_t offset, int *type, unsigned char **data,
		     size_t *size);

/*
 * Check the whole pack: trailer checksums of .pack and .idx, and that
 * every object inflates and hashes to its id and matches its CRC.
 * verbose 1: append "<id> <type> <size> <size-in-pack> <offset>
 * [<depth> <base>]" per object and the delta-chain histogram to out (git
 * verify-pack -v); 2: the histogram only (-s).  0 or the first
 * negative E_*.
 */
int pack_verify(const struct pack_env *env, struct pack *p,
		struct strbuf *out, int verbose);

/*
 * The delta base cache is per thread (created on first use, freed when
 * the thread exits, and for the main thread at exit), so packs can be
 * read from several threads at once.  Mapping a pack (pack_map) is not
 * thread-safe: map the packs before sharing them.
 */

/*
 * Drop the pages of p's mapped .pack from the process's resident set
 * (madvise MADV_DONTNEED).  The mapping is a read-only view of the
 * file: the next read faults the same bytes back in from the page
 * cache, so this is safe while other threads read the pack.  A pack
 * not mapped yet, or mapped from a buffer, is left alone.
 */
void pack_trim(struct pack *p);

/*
 * Empty the calling thread's delta base cache now, e.g. after closing
 * the packs whose objects it holds.
 */
void pack_cache_clear(void);

/*
 * A delta base cache for several threads at once (a lock around each
 * lookup; a base in use stays alive while another thread evicts it),
 * for pack_env's shared: threads reading the same objects in no
 * particular order then inflate each base once, not once per thread.
 * Set it before the threads start and clear it after they are joined.
 */
struct pack_cache *pack_cache_new_shared(void);
void pack_cache_free(struct pack_cache *c);

/*
 * Apply a git delta to base.  0 with *out (owned, NUL-terminated) and
 * *out_len, or -E_CORRUPT if the delta is malformed or does not fit
 * base.  Exposed for the fuzzer.
 */
int pack_apply_delta(const unsigned char *base, size_t base_len,
		     const unsigned char *delta, size_t delta_len,
		     unsigned char **out, size_t *out_len);

#endif
