/*
 * index-ext: writing the index's extensions through one place, and the
 * two that only serve a faster read, EOIE and IEOT (git 2.39's rules).
 *
 * Every extension is written with ext_writer_add(), which records its
 * signature and size for EOIE; ext_writer_finish() appends EOIE last.
 * git's order: IEOT, link, TREE, REUC, UNTR, FSMN, sdir, EOIE.
 *
 * Used by index.c only; the format tables are in index-ext.c.
 */
#ifndef DIRC_INDEX_EXT_H
#define DIRC_INDEX_EXT_H

#include "bufwrite.h"
#include "hash.h"
#include "settings.h"
#include "strbuf.h"

struct ext_writer {
	struct bufwrite *bw;	/* borrowed */
	struct hasher eoie;	/* over each header, when want_eoie */
	int want_eoie;
	uint32_t entries_end;	/* EOIE's offset: the first extension */
};

/*
 * Start writing extensions to bw, whose bytes so far end at
 * entries_end (the end of the entries); eoie: finish with an EOIE.
 */
void ext_writer_init(struct ext_writer *w, struct bufwrite *bw, int eoie,
		     uint64_t entries_end);
/* One extension: its header (sig, len) and data.  0 or a negative E_*. */
int ext_writer_add(struct ext_writer *w, const char *sig, const void *data,
		   size_t len);
/* Append EOIE if asked for, and release w.  0 or a negative E_*. */
int ext_writer_finish(struct ext_writer *w);
/* Release w without writing (after a failure). */
void ext_writer_release(struct ext_writer *w);

/*
 * Does git 2.39 write EOIE with these settings?  1, 0, or -E_INVALID
 * for a record key that is not a boolean (git's message).
 */
int index_eoie_wanted(const struct repo_settings *s);
/*
 * How many IEOT blocks git 2.39 asks for when writing nr entries with
 * these settings; fewer than 2 means no IEOT (-E_INVALID as above).
 */
int index_ieot_blocks(const struct repo_settings *s, size_t nr);
/*
 * The threads git 2.39 reads an index of nr entries with: more than 2
 * (one goes to the extensions) and it reads the IEOT, and reports a bad
 * one.
 */
int index_git_read_threads(const struct repo_settings *s, size_t nr);

struct ieot_block {
	uint32_t offset;	/* of the block's first entry in the file */
	uint32_t nr;		/* its entries */
};

/* IEOT's data for n blocks. */
void ieot_encode(struct strbuf *out, const struct ieot_block *b, size_t n);

/*
 * The offset of the first extension if the file of len bytes ends with
 * a valid EOIE (size 4 + the hash length; offset after the header and
 * before EOIE; extension headers chained from there to EOIE; their
 * hash); else 0, silently, as git ignores a bad one.
 */
size_t eoie_find(const unsigned char *map, size_t len);

enum ieot_result {
	IEOT_NONE = 0,		/* no IEOT among the extensions */
	IEOT_OK = 1,
	IEOT_BAD_VERSION = -1,	/* "invalid IEOT version %d" */
	IEOT_BAD_COUNT = -2,	/* "invalid number of IEOT entries %d" */
	IEOT_BAD = -3,		/* sizes or offsets do not fit */
};

/*
 * Find and decode the IEOT among the extensions from ext_offset (EOIE's)
 * to ext_end (EOIE itself) of map, for nr entries: *out (owned by the
 * caller) and *n blocks when IEOT_OK: at least one block, the first at
 * offset 12, offsets increasing and before ext_offset, counts at least
 * 1 adding up to nr.  *value: the version or count git names in its
 * message.
 */
enum ieot_result ieot_find(struct ieot_block **out, size_t *n,
			   const unsigned char *map, size_t ext_offset,
			   size_t ext_end, uint32_t nr, int *value);

#endif
