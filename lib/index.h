/*
 * index: the in-memory index and git's DIRC file (versions 2, 3, 4).
 *
 * Reading maps the file and parses it through a bounds-checked cursor;
 * entries come from a mempool (blocks of 1024), and their names point
 * into the mapping (v2/v3, where padding NUL-terminates every name) or
 * into an arena (v4, whose names are prefix-compressed).  No malloc per
 * entry.  The mapping lives as long as the index.
 *
 * Entries are kept sorted by (name, stage).  Bulk changes go through
 * index_stage_add() / index_stage_remove() and index_apply(), which sorts
 * the staged changes and merges them in one pass — O(n log n) for any
 * number of paths — checking file/directory conflicts as git does.
 *
 * Writing goes through bufwrite's 16 KB coalescing buffer into
 * "<index>.lock", smudging racily clean entries as git does, then renames.
 * Entries whose bytes in the mapping are exactly what would be written
 * (checked field by field at write time) go out from the mapping without
 * being formatted or copied: after a small change, nearly all of them.
 */
#ifndef DIRC_INDEX_H
#define DIRC_INDEX_H

#include <string.h>
#include <sys/stat.h>

#include "hash.h"
#include "lockfile.h"
#include "fileio.h"
#include "mempool.h"
#include "strbuf.h"

struct repo;
struct cache_tree;
struct split_index;
struct sparse_index;

/* On-disk flags (16 bits) */
#define CE_VALID	0x8000	/* assume-unchanged */
#define CE_EXTENDED	0x4000	/* a second flags word follows */
#define CE_STAGEMASK	0x3000
#define CE_STAGESHIFT	12
#define CE_NAMEMASK	0x0fff
/* On-disk extended flags (16 bits, v3+) */
#define CE_SKIP_WORKTREE	0x4000
#define CE_INTENT_TO_ADD	0x2000
#define CE_EXT_KNOWN (CE_SKIP_WORKTREE | CE_INTENT_TO_ADD)

/* In-core only */
enum ce_state {
	CE_UPTODATE = 1 << 0,	/* matched the work tree in this process */
	CE_REMOVE = 1 << 1,	/* to be dropped at the next compaction */
	CE_NEW = 1 << 2,	/* added or changed in this process */
	CE_STAGED_REPLACE = 1 << 3, /* staged with INDEX_ADD_REPLACE */
	CE_STAGED_DELETE = 1 << 4,  /* a staged removal of all stages */
	CE_NEW_SKIP_WORKTREE = 1 << 5, /* unpack, sparse checkout: out of
					* the work tree after this read */
	CE_ADDED = 1 << 6,	/* unpack, sparse checkout: new in this read */
	CE_WT_UPDATE = 1 << 7,	/* unpack, sparse checkout: to be written */
	CE_SPARSE_FILE = 1 << 8, /* expanded from a sparse-directory entry
				  * (lib/sparse-index.h), unchanged since */
	CE_FROM_BASE = 1 << 14,	/* split index: the shared index's entry
				 * of its name and stage (or its
				 * replacement) */
	CE_UPDATE_IN_BASE = 1 << 15, /* split index: changed in place or
				      * replaced; goes into the split part */
};

struct stat_data {
	uint32_t ctime_sec, ctime_nsec;
	uint32_t mtime_sec, mtime_nsec;
	uint32_t dev, ino, uid, gid, size;
};

struct index_entry {
	struct stat_data sd;
	uint32_t mode;		/* 0100644, 0100755, 0120000, 0160000;
				 * 040000: a sparse directory (name ends
				 * in '/'), see lib/sparse-index.h */
	struct object_id oid;
	uint16_t flags;		/* CE_VALID | stage; namelen recomputed */
	uint16_t ext_flags;	/* CE_SKIP_WORKTREE | CE_INTENT_TO_ADD */
	uint32_t state;		/* enum ce_state */
	uint32_t namelen;
	uint32_t order;		/* staging order, for index_apply */
	const char *name;	/* NUL-terminated; borrowed from the index
				 * map or its arena */
};

static inline int
ce_stage(const struct index_entry *e)
{
	return (e->flags & CE_STAGEMASK) >> CE_STAGESHIFT;
}

struct resolve_undo {
	char *path;			/* owned */
	unsigned mode[3];		/* 0: stage absent */
	struct object_id oid[3];
};

struct index {
	struct index_entry **entries;	/* owned array; entries from pool */
	size_t nr, alloc;
	struct mempool pool;		/* of struct index_entry */
	struct arena names;		/* names that are not in the map */
	void *map;			/* the file as read; owned */
	size_t map_len;
	size_t map_span;		/* what munmap() frees: map_len or
					 * more (huge_map()) */
	int read_threads;		/* the read's thread count, for what
					 * is parsed later */
	unsigned version;		/* as read; 0 for a new index */
	unsigned want_version;		/* set by --index-version; 0 = keep */
	int exists;			/* the file existed when read */
	struct timespec timestamp;	/* its mtime then (racy rule) */
	struct cache_tree *tree;	/* the TREE extension; owned; NULL
					 * when absent */
	struct resolve_undo *reuc;	/* the REUC extension; owned */
	size_t reuc_nr, reuc_alloc;
	int threads;			/* --threads of the command (0:
					 * automatic): more than one lets a
					 * large write hash on a second
					 * thread */
	int changed;			/* something needs writing */
	const char *df_conflict;	/* after index_apply() failed with
					 * -E_CONFLICT: the path added; from
					 * the index's names */
	int has_removed;		/* some entries carry CE_REMOVE */
	int read_untr, read_fsmn;	/* an UNTR (untracked cache) or FSMN
					 * (fsmonitor) extension was read
					 * (a write drops FSMN) */
	/*
	 * The untracked cache: UNTR's bytes as read (owned), parsed on
	 * first need (index_untracked()).  A write keeps it only when
	 * keep_untracked: set by a command that invalidates it as git
	 * does (index_keep_untracked()); the others drop it.
	 */
	unsigned char *untr_raw;
	size_t untr_len;
	struct untracked_cache *untracked;	/* owned; NULL: none */
	int untr_parsed, keep_untracked;
	int read_extended;		/* an entry had extended flags when
					 * read: the version a write guesses */
	uint32_t entries_skipped;	/* INDEX_READ_TREE_ONLY: this many
					 * entries checked, not kept (nr is
					 * 0) until index_read_rest() */
	const void *tree_rest;		/* INDEX_READ_TREE_ONLY: tree is the
					 * root alone, its nodes these bytes
					 * of the map until index_read_rest() */
	size_t tree_rest_len;
	struct split_index *split;	/* the link extension and the shared
					 * index (index-internal.h); owned; NULL:
					 * not split */
	int write_whole;		/* write unsplit this time (git's
					 * "something changed") */
	int split_tweaked;		/* core.splitIndex applied already */
	struct index *names_from;	/* the shared index read with a split
					 * one: names point into its map;
					 * owned */
	int read_sdir;			/* an sdir extension was read */
	int write_sdir;			/* write one (set by
					 * sparse_index_view_begin()) */
	struct sparse_index *sparse;	/* what git holds collapsed; owned;
					 * NULL until sparse_index_after_read()
					 * (lib/sparse-index.h) */
	unsigned char checksum[HASH_MAX_RAWSZ]; /* trailer as read */
	/*
	 * How the content checks hash a regular file (git cleans it first:
	 * convert.h's convert_hash_fd, set by convert_attach_index); NULL:
	 * its bytes as they are.  index_blob is the entry's id.
	 */
	int (*hash_file)(void *ctx, struct object_id *out, const char *path,
			 int fd, uint64_t size,
			 const struct object_id *index_blob,
			 struct read_buf *rb);
	void *hash_ctx;			/* borrowed */

	/* staged changes, merged by index_apply() */
	struct index_entry **staged;
	size_t staged_nr, staged_alloc;
	uint32_t next_order;
};

void index_init(struct index *idx);
void index_release(struct index *idx);

struct untracked_cache;
struct repo;

/*
 * Keep the untracked cache across this process's writes, invalidated
 * by every index change as git invalidates it.
 */
void index_keep_untracked(struct index *idx);
/* The untracked cache, parsed; NULL when there is none (or git would
 * drop it as damaged). */
struct untracked_cache *index_untracked(struct index *idx);
/*
 * Turn the untracked cache on (1) or off (0), as "update-index
 * --[no-]untracked-cache" do: on makes an empty one for this work tree
 * when there is none or it was made for another.  1 when that changed
 * the cache (the caller decides whether that is worth a write), else 0.
 */
int index_untracked_set(struct index *idx, const struct repo *repo, int on);
/*
 * What every git command does after reading the index: keep the cache
 * (index_keep_untracked()) and turn it on or off as core.untrackedCache
 * (feature.manyFiles) says.  index_untracked_set()'s result.
 */
int index_untracked_follow(struct index *idx, const struct repo *repo);
/*
 * The entries were replaced wholesale (read-tree -m, --reset, --prefix:
 * git's unpack_trees()): old[] is the sorted list they replaced.  The
 * untracked cache forgets every path whose entry came, went, changed
 * mode or id, or is unmerged on either side, as git's invalidate_ce_path()
 * does; kept entries keep it.  Nothing without index_keep_untracked().
 */
void index_untracked_replaced(struct index *idx,
			      struct index_entry *const *old, size_t nold);

enum index_read_flags {
	INDEX_READ_VERIFY = 1 << 0,	/* check the trailing checksum */
	INDEX_READ_QUIET = 1 << 1,	/* no "ignoring XXXX extension" */
	INDEX_READ_SHARED = 1 << 2,	/* no link followed (a shared index;
					 * index_parse(): split unmerged) */
	/*
	 * The caller needs only the TREE's root when the TREE is fully
	 * valid (write-tree): then, where the file has a valid EOIE (so
	 * TREE is read before the entries), no link extension and no
	 * sparse directory, the entries are checked as always, with the
	 * same errors, but not kept: nr is 0 and entries_skipped says how
	 * many index_read_rest() would parse; and the tree may be its root
	 * alone (tree_rest set).  Such an index is not to be written.
	 */
	INDEX_READ_TREE_ONLY = 1 << 3,
};

/*
 * Read the index at path (a missing file is an empty index).  0, or a
 * negative E_* naming path: -E_CORRUPT (truncated, bad signature, bad
 * entry, bad checksum with INDEX_READ_VERIFY, a damaged link extension
 * or shared index, ...), -E_NOTFOUND (the shared index of a split index
 * is missing), -E_UNSUPPORTED (the version).
 *
 * repo (NULL for none) is the repository the index belongs to (path is
 * usually its index_path): a split index's shared index is looked for
 * in its git directory, then next to path, as git does; and its
 * settings (index.threads, dirc.threads) say how the entries are read.
 * Where the file (or the shared index) has a valid EOIE and IEOT the
 * entries are parsed by blocks on up to threads threads (a --threads
 * value) if positive, else DIRC_THREADS, else index.threads or
 * dirc.threads if positive, else the CPUs for a large index; the result
 * is the serial parse's.  As git's index.threads does, the settings also
 * decide whether a bad IEOT is reported ("invalid IEOT version %d").
 *
 * Sparse-directory entries (mode 040000) are read as they are: a
 * command calls sparse_index_after_read() (lib/sparse-index.h) next.
 */
int index_read_in(struct index *idx, const char *path,
		  const struct repo *repo, unsigned flags, int threads);
/*
 * A bad index.threads in s (NULL: none) refused with git's message
 * (-E_INVALID), as git refuses it when it reads an existing index (once
 * its header is checked: index_read_in() does that) or writes one
 * (index_write() does); else 0.  A command that will write calls it
 * first to fail before it changes anything.
 */
struct repo_settings;
int index_threads_check(const struct repo_settings *s);
/*
 * What an INDEX_READ_TREE_ONLY read left out: the entries it checked
 * and skipped, and the TREE's nodes below its root, parsed now from the
 * index's mapping (they parse: they were checked), as a read without
 * the flag would have them.  Nothing if nothing was left out.
 */
void index_read_rest(struct index *idx);
/* index_read_in() with no repository: the shared index next to path. */
int index_read(struct index *idx, const char *path, unsigned flags);

/* Parse an index image (for the fuzzer and tests); the buffer is copied. */
int index_parse(struct index *idx, const void *buf, size_t len,
		const char *name, unsigned flags);
/* The same, with an IEOT read on up to threads threads (fuzzer, tests). */
int index_parse_threads(struct index *idx, const void *buf, size_t len,
			const char *name, unsigned flags, int threads);

/*
 * Write the index into the held lock lk (whose target is the index
 * file), smudging racily clean entries as git does; then commit the lock.
 * The index's timestamp becomes the new file's.  0 or a negative E_*
 * (the lock is rolled back).  Also refuses an entry with a null id
 * ("cache entry has null sha1: <path>") unless GIT_ALLOW_NULL_SHA1.
 * Synced as core.fsync's "index" and core.fsyncMethod ask.
 */
int index_write(struct index *idx, struct repo *repo, struct lockfile *lk);

/*
 * Encode idx into the open file fd as index_write() would (version,
 * entries, TREE, REUC, trailing checksum into idx->checksum), without its
 * null-id check, racy smudging or lock: for the fuzzer and tests.  name
 * names fd in messages.  0 or a negative E_*.
 */
int index_write_fd(struct index *idx, int fd, const char *name);

/* Index order of two names: bytes, a name before its longer extensions. */
static inline int
index_name_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen;
	int cmp = n ? memcmp(a, b, n) : 0;

	if (cmp)
		return cmp;
	return alen < blen ? -1 : alen > blen;
}

/*
 * Position of (name, stage) in the sorted entries, or -(insert pos + 1)
 * if absent.  stage -1 finds the first entry of any stage.  A name
 * inside a directory git still holds collapsed is noted (git expands
 * its sparse index then; lib/sparse-index.h).
 */
ssize_t index_pos(const struct index *idx, const char *name, size_t len,
		  int stage);

/* index_pos over any sorted array of nr entries (a merge's lists). */
ssize_t index_entries_pos(struct index_entry *const *v, size_t nr,
			  const char *name, size_t len, int stage);

/* A fresh zeroed entry from the pool, its name copied into the arena. */
struct index_entry *index_entry_new(struct index *idx, const char *name,
				    size_t len);

/* A copy of e (name shared) from the pool. */
struct index_entry *index_entry_dup(struct index *idx,
				    const struct index_entry *e);

/* Set the stat fields of e from st (truncated to 32 bits as git does). */
void index_entry_fill_stat(struct index_entry *e, const struct stat *st);

/* Mode an index entry gets for st: 100644/100755/120000/160000. */
unsigned index_mode_from_stat(const struct stat *st);

enum index_add_flags {
	INDEX_ADD_REPLACE = 1 << 0,	/* evict file/directory conflicts */
	INDEX_ADD_OK_TO_ADD = 1 << 1,	/* (informational) */
};

/*
 * Stage e for addition (replacing an entry with the same name and stage;
 * a stage-0 entry also replaces stages 1-3 of its path, recording them
 * in resolve-undo).  The cache-tree is invalidated along its path.
 */
void index_stage_add(struct index *idx, struct index_entry *e,
		     unsigned add_flags);
/*
 * Stage the removal of every stage of path (after earlier staged adds,
 * before later ones).  The cache-tree is invalidated along the path.
 */
void index_stage_remove(struct index *idx, const char *path, size_t len);
/* Remove the entry at pos now (recording resolve-undo for stages 1-3). */
void index_remove_at(struct index *idx, size_t pos);

/*
 * Merge the staged entries.  0, or -E_CONFLICT for the first (in staging
 * order) file/directory conflict without INDEX_ADD_REPLACE ("'<p>'
 * appears as both a file and as a directory"; idx->df_conflict names
 * the path).  On failure the index is unchanged except that the staged
 * entries are dropped.
 */
int index_apply(struct index *idx);

/* Drop entries marked CE_REMOVE. */
void index_compact(struct index *idx);

/* Mark the index changed (so it is written). */
static inline void
index_mark_changed(struct index *idx)
{
	idx->changed = 1;
}

/* Is e racily clean: its mtime not older than the index file's? */
int index_entry_is_racy(const struct index *idx, const struct index_entry *e);

enum match_result {
	MATCH_OK = 0,
	MTIME_CHANGED = 1 << 0,
	CTIME_CHANGED = 1 << 1,
	OWNER_CHANGED = 1 << 2,
	MODE_CHANGED = 1 << 3,
	INODE_CHANGED = 1 << 4,
	DATA_CHANGED = 1 << 5,
	TYPE_CHANGED = 1 << 6,
};

/*
 * The two building blocks of modified_check() (lib/modified.h), which is
 * what a caller asking "is this entry modified?" wants.
 *
 * Compare e's stat data with st as git 2.39 does (whole seconds; ctime
 * per core.trustctime; ino/uid/gid unless core.checkStat=minimal; the
 * exec bit per core.filemode; a smudged size forces DATA_CHANGED).
 * A gitlink only by type.  Returns MATCH_OK or a mask of what differs.
 * Does not look at content.
 */
unsigned index_match_stat(const struct repo *repo,
			  const struct index_entry *e, const struct stat *st);

/*
 * Does the file at e->name still hold e's content?  (Hash the file, as
 * idx->hash_file cleans it when idx is not NULL, or the link target and
 * compare ids.)  rb: a reusable buffer, or NULL.  1 yes, 0 no, negative
 * E_* on a read error.
 */
int index_content_matches(const struct repo *repo, const struct index *idx,
			  const struct index_entry *e, const struct stat *st,
			  struct read_buf *rb);

/*
 * Remembers the last directory found to be made of real directories
 * only, so that checking the leading path of many entries in index
 * order costs one lstat per new directory, not one per component.  One
 * per thread.
 */
struct dir_cache {
	struct strbuf dir;	/* "a/b/" known good, or "" */
};
#define DIR_CACHE_INIT { STRBUF_INIT }
void dir_cache_release(struct dir_cache *dc);

/*
 * Ensure a path may be added: no leading directory of it is a symlink in
 * the work tree ("'<p>' is beyond a symbolic link").  0 or -E_INVALID.
 * dc may be NULL.
 */
int index_check_leading_path(const char *path, size_t len,
			     struct dir_cache *dc);

/*
 * The split index (git's core.splitIndex; lib/split-index.c).  A split
 * index is read whole by index_read_in(); index_write() keeps it split,
 * or writes a new shared index, as git decides.
 */
/* update-cache --split-index: split, with a new shared index now. */
void index_split_enable(struct index *idx);
/* update-cache --no-split-index: write the index whole. */
void index_split_disable(struct index *idx);
/*
 * core.splitIndex, applied as git applies it to every index it reads:
 * true splits an unsplit index, false unsplits a split one (each marks
 * the index changed).  Unset or not a boolean: nothing.  Once per
 * index: index_write() applies it unless the command did after reading.
 */
struct config;
void split_index_tweak(struct index *idx, const struct config *cfg);
/* The id of the shared index of a split index, or NULL if not split. */
const struct object_id *index_shared_id(const struct index *idx);

/* Drop all resolve-undo records. */
void index_clear_resolve_undo(struct index *idx);
/* The resolve-undo record of path, or NULL; valid until the next change. */
struct resolve_undo *index_resolve_undo(struct index *idx, const char *path);
/* Drop one record (from index_resolve_undo()); the index is changed. */
void index_drop_resolve_undo(struct index *idx, struct resolve_undo *ru);

#endif
