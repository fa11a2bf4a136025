/*
 * untracked-cache: git's untracked cache, the index's UNTR extension,
 * kept across dirc's writes as git keeps it.
 *
 * dirc never fills the cache (only git status does); it reads the
 * extension, invalidates the directories its index changes touch, and
 * writes it back in git's serialisation, so that the user's next
 * "git status" reuses what is still valid instead of walking the whole
 * work tree again.  The format (git's gitformat-index, "Untracked
 * cache"):
 *
 *   varint n, n bytes   ident: "Location <work tree>, system <uname>\0"
 *   36 bytes            stat data of info/exclude (ctime..size)
 *   36 bytes            stat data of core.excludesFile
 *   4 bytes             dir_flags (git's DIR_* of the status walk)
 *   rawsz bytes         id of info/exclude (null: none)
 *   rawsz bytes         id of core.excludesFile
 *   name\0              the per-directory exclude file, ".gitignore"
 *   varint d            directory blocks; 0 ends the extension (that
 *                       0 byte is then its closing NUL)
 *   d blocks, depth first: varint untracked, varint subdirectories,
 *                       name\0, untracked names\0...
 *   ewah valid, ewah check_only, ewah hash_valid (bit k: block k)
 *   36 bytes per valid block, rawsz bytes per hash_valid block
 *   \0
 *
 * Reading is as strict as git's: whatever git would not take (it then
 * drops the cache silently) is dropped here too.  Writing normalises
 * as git does: an invalid directory keeps neither untracked names nor
 * its check_only bit.
 */
#ifndef DIRC_UNTRACKED_CACHE_H
#define DIRC_UNTRACKED_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include "hash.h"
#include "strbuf.h"

#define UC_STAT_SIZE 36		/* ctime, mtime, dev, ino, uid, gid, size */

/* git's DIR_* flags the cache records */
#define UC_DIR_SHOW_OTHER_DIRECTORIES (1u << 1)
#define UC_DIR_HIDE_EMPTY_DIRECTORIES (1u << 2)

struct uc_dir {
	char *name;			/* owned; "" for the root */
	char **untracked;		/* owned names */
	size_t untracked_nr;
	struct uc_dir **dirs;		/* sorted by name, as read */
	size_t dirs_nr;
	unsigned valid : 1, check_only : 1;
	unsigned char stat[UC_STAT_SIZE];	/* as on disk; when valid */
	unsigned char exclude_oid[HASH_MAX_RAWSZ];	/* zero: none */
};

struct untracked_cache {
	struct strbuf ident;		/* with its NUL(s), as on disk */
	unsigned char info_exclude_stat[UC_STAT_SIZE];
	unsigned char excludes_file_stat[UC_STAT_SIZE];
	uint32_t dir_flags;
	unsigned char info_exclude_oid[HASH_MAX_RAWSZ];
	unsigned char excludes_file_oid[HASH_MAX_RAWSZ];
	char *exclude_per_dir;		/* owned */
	struct uc_dir *root;		/* NULL: no directory blocks */
};

/*
 * Parse an UNTR extension's len bytes.  NULL when git would not take
 * them (git then drops the cache without a word; so does the caller).
 */
struct untracked_cache *untracked_cache_parse(const unsigned char *data,
					      size_t len);

/* Append the extension's bytes (without its header) to out. */
void untracked_cache_encode(struct strbuf *out,
			    const struct untracked_cache *uc);

/*
 * A new, empty cache, as "git update-index --untracked-cache" or
 * core.untrackedCache=true make it: ident for this work tree and
 * system, dir_flags from status.showUntrackedFiles (all: none).
 */
struct untracked_cache *untracked_cache_new(const char *worktree,
					    int show_all);

/* Was uc made for this work tree on this system?  (git's first ident) */
int untracked_cache_ident_matches(const struct untracked_cache *uc,
				  const char *worktree);

/*
 * An index entry path was added or removed: the directory holding it
 * is no longer known, nor, when the cache shows untracked directories
 * whole, any directory above it (git's untracked_cache_invalidate_path).
 */
void untracked_cache_invalidate(struct untracked_cache *uc, const char *path,
				size_t len);

void untracked_cache_free(struct untracked_cache *uc);

#endif
