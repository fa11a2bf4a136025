/*
 * index-internal: what the index module shares with its two parts, and
 * no command sees (index.h has what commands use).  index.c reads and
 * writes through these; lib/split-index.c and lib/sparse-index.c
 * implement them.  The split index (core.splitIndex) first.  The index file
 * holds only what changed since a shared index, "$GIT_DIR/sharedindex.
 * <id>" (id: the shared file's own trailing hash), named in the index's
 * "link" extension:
 *
 *   offset    size   field
 *   0         H      id of the shared index (H: 20 or 32 bytes)
 *   H         ...    EWAH bitmap: shared entries deleted      } both absent,
 *   ...       ...    EWAH bitmap: shared entries replaced     } or both there
 *
 * The index's entries are first the replacements, one per bit of the
 * replace bitmap in order, with empty names (the shared entry's name is
 * kept), then the additions, with names.  Reading merges the two into
 * one sorted index whose entries remember they are the shared index's
 * (CE_FROM_BASE); writing finds what changed since, or writes a new
 * shared index when git would.
 */
#ifndef DIRC_INDEX_INTERNAL_H
#define DIRC_INDEX_INTERNAL_H

#include "ewah.h"
#include "hash.h"
#include "index.h"

#define INDEX_HEADER_SIZE 12	/* "DIRC", version, entry count */

struct config;
struct repo;

struct split_index {
	struct object_id base_oid;	/* the shared index's id; null: none
					 * yet (then no link is written) */
	/*
	 * The shared index's entries as read or last written, in its
	 * order, never changed in place, in one of two forms.  After a
	 * read of a v2 or v3 shared index, base_records: its records in
	 * its file's bytes (idx->names_from holds them), decoded one by
	 * one when a write compares; the index works on the entries
	 * parsed from them.  Otherwise base: after a read of v4 the
	 * shared index's own entries (the index works on copies), after
	 * a write of a new shared index copies in base_copies.  Names
	 * borrowed from the index or its names_from.
	 */
	const unsigned char *base_records;
	struct index_entry *const *base;
	struct index_entry **base_ptrs;	/* owned; base after a write */
	struct index_entry *base_copies; /* owned; what base_ptrs point to */
	size_t base_nr;
	struct ewah del, rep;		/* the link's bitmaps, from the read
					 * until the merge */
	int have_bitmaps;
	int new_shared;			/* the next write writes a new shared
					 * index (git's SPLIT_INDEX_ORDERED) */
};

void split_index_free(struct split_index *si);

/*
 * Parse the link extension's len bytes at p into idx->split.  0, or
 * -E_CORRUPT with git's messages ("corrupt link extension (too short)",
 * "corrupt delete bitmap in link extension", "garbage at the end of link
 * extension", then "index file corrupt").
 */
int split_index_read_link(struct index *idx, const unsigned char *p,
			  size_t len);

/*
 * After the index file at path is parsed with a link naming a shared
 * index: read that (from repo's git directory, else next to path; as
 * index_read_in() reads, with repo's settings and threads), check its
 * id, freshen its mtime and merge: idx's entries become the whole index.
 * 0, or a negative E_* with git's message.
 */
int split_index_merge(struct index *idx, const char *path,
		      const struct repo *repo, unsigned flags, int threads);
/*
 * The merge itself, with the shared index parsed already (allocated;
 * idx takes it over, and its names): for the fuzzer.  idx->split must
 * hold the link (index_parse() with INDEX_READ_SHARED leaves it so).
 */
int split_index_merge_parsed(struct index *idx, struct index *shared);

/*
 * The entry whose record in a v2 or v3 index file starts at p, which
 * parse() has checked, into e as parse() made it, its name where it
 * lies in the file: returns where the next record starts.
 */
const unsigned char *index_record_decode(const unsigned char *p,
					 struct index_entry *e);

/* What index_write() does with a split index: see split_index_plan(). */
struct split_write {
	struct index_entry **entries;	/* what the index file holds: the
					 * replacements, then additions */
	size_t nr, replaced;		/* all, and the replacements first */
	struct strbuf link;		/* the link extension's bytes */
};
void split_write_release(struct split_write *sw);

/*
 * Decide for index_write(): 0 write the index whole, 1 split with the
 * current shared index, 2 split after writing a new shared index (as
 * git: --split-index or core.splitIndex just turned on,
 * GIT_TEST_SPLIT_INDEX, or more additions than
 * splitIndex.maxPercentChange).  Or a negative E_* (a bad setting).
 */
int split_index_plan(struct index *idx, const struct config *cfg);

/*
 * A new shared index with id oid holds idx's entries as they are now:
 * each is marked as its entry.  Old "sharedindex.*" files in gitdir
 * past splitIndex.sharedIndexExpire (default 2.weeks.ago) are removed.
 * 0, or a negative E_* for a bad setting.
 */
int split_index_new_base(struct index *idx, const struct object_id *oid,
			 const char *gitdir, const struct config *cfg);

/* The entries and link extension of the split index file to write. */
void split_index_prepare(struct split_write *out, struct index *idx);

/* Set a file's mtime to now, as git freshens a shared index it uses. */
int split_index_freshen(const char *path);

/*
 * The sparse index (lib/sparse-index.c; what commands call is in
 * sparse-index.h): the hooks of the index module.
 */
struct repo;
struct sparse_index;

/*
 * index_pos() looked up name (len bytes): a path strictly inside a
 * directory still collapsed in git's view makes git expand the index.
 */
void sparse_index_lookup(struct sparse_index *si, const char *name,
			 size_t len);

/* The entries to write, as git would write them (index_write()). */
struct sparse_index_view {
	struct index_entry **saved;	/* the index's own array, put back
					 * by sparse_index_view_end() */
	size_t saved_nr, saved_alloc;
	int active;
};

/*
 * Before writing idx: collapse it as git would (or not), swapping the
 * collapsed entries into idx and setting idx->write_sdir.  0 or a
 * negative E_* (a cache-tree that could not be stored).
 */
int sparse_index_view_begin(struct index *idx, struct repo *repo,
			    struct sparse_index_view *v);
/* Put idx's full entries back. */
void sparse_index_view_end(struct index *idx, struct sparse_index_view *v);

void sparse_index_free(struct sparse_index *si);

/* Does git hold idx collapsed in memory (sparse-directory entries)? */
int sparse_index_is_collapsed(const struct index *idx);

#endif
