/*
 * modified: the one answer to "does this index entry still describe the
 * work tree?", as git 2.39 gives it, for every command that asks:
 * update-cache (its refresh and the paths it is given), the racy-git
 * smudging of index_write(), ls-files -m, read-tree -u and
 * checkout-index.  Callers differ only in the flags they pass and in what
 * they do with the answer.
 *
 * The rules, in the order they apply:
 *
 *   skip-worktree, assume-unchanged  the entry matches, whatever the file
 *                                    says (unless the flag to look anyway)
 *   intent-to-add                    never matches: it was never added
 *   type                             a regular entry must be a regular
 *                                    file, a symlink a symlink (or, with
 *                                    core.symlinks=false, a regular file
 *                                    holding the target), a gitlink a
 *                                    directory
 *   gitlink                          compared by the HEAD of the
 *                                    repository inside; a directory with
 *                                    no repository in it (an empty one, a
 *                                    clone without its submodules)
 *                                    matches
 *   executable bit                   per core.filemode
 *   stat data                        mtime and size; ctime per
 *                                    core.trustctime; owner and inode
 *                                    unless core.checkStat=minimal; whole
 *                                    seconds (git built without USE_NSEC)
 *   smudged                          size 0 for a non-empty blob never
 *                                    matches on stat data alone
 *   racy                             matching stat data of an entry not
 *                                    older than the index file is checked
 *                                    against the content
 *
 * When the stat data differs, the content decides whether the entry is
 * really modified or only needs new stat data (git's ie_modified): a type
 * or mode change, or a size change of an entry whose size is known, is
 * believed without reading the file.  A file that cannot be read counts
 * as modified.
 */
#ifndef DIRC_MODIFIED_H
#define DIRC_MODIFIED_H

#include <sys/stat.h>

#include "fileio.h"
#include "index.h"

struct repo;

enum modified_flags {
	MODIFIED_IGNORE_VALID = 1 << 0,	/* look even at assume-unchanged */
	MODIFIED_IGNORE_SKIP_WORKTREE = 1 << 1,	/* and at skip-worktree */
	MODIFIED_RACY_IS_DIRTY = 1 << 2,	/* racy: modified, unread */
	/*
	 * Stop at the stat data: an entry whose stat data differs is
	 * ENTRY_MODIFIED without its content being read (for callers that
	 * rehash such a file anyway).
	 */
	MODIFIED_STAT_ONLY = 1 << 3,
};

enum entry_state {
	ENTRY_CLEAN,		/* the stat data matches (and the content,
				 * where the entry is racy) */
	ENTRY_RESTAT,		/* the stat data differs, the content is
				 * the same: new stat data would do */
	ENTRY_MODIFIED,		/* content, type or mode differs */
};

/*
 * Compare e with the file st describes (from lstat() of e->name, relative
 * to the current directory, which must be the top of the work tree).  idx
 * gives the racy rule its timestamp.  rb: a reusable read buffer, or
 * NULL.  Sets *changed (if not NULL) to the match_result mask of what
 * differs, 0 when ENTRY_CLEAN.  Never fails: an unreadable file is
 * ENTRY_MODIFIED, and this thread's error slot is left clear.
 * Thread-safe for distinct entries; e is not changed.
 */
enum entry_state modified_check(unsigned *changed, const struct repo *repo,
				const struct index *idx,
				const struct index_entry *e,
				const struct stat *st, unsigned flags,
				struct read_buf *rb);

#endif
