/*
 * lockfile: replace one file atomically.  Hold "<target>.lock" (created
 * with O_CREAT|O_EXCL, so holding it is the lock), write the new contents
 * to lk->fd, then commit (fsync if asked, rename over the target) or roll
 * back.  Locks still held are removed at exit and on fatal signals, so a
 * failed command leaves no lock behind (a SIGKILL does; the next command
 * names the file and says how to remove it).
 *
 * Any number of locks may be held at once (a transaction of 10,000 refs
 * holds 10,000), and a held lock need not keep its file descriptor open:
 * lockfile_close() gives the descriptor back and keeps the lock.  Locks
 * are taken and released by one thread at a time.
 */
#ifndef DIRC_LOCKFILE_H
#define DIRC_LOCKFILE_H

#include "fileio.h"
#include "util.h"

struct lock_node;

struct lockfile {
	char *target;		/* absolute path of the file replaced; owned */
	char *lock_path;	/* the temporary file, absolute; owned */
	int fd;			/* -1 when closed or not held */
	struct lock_node *node;	/* its entry on the cleanup list; NULL when
				 * not held; owned */
};
#define LOCKFILE_INIT { NULL, NULL, -1, NULL }

/*
 * Create "<target>.lock" (mode 0666 & ~umask).  0, or -E_LOCKED with git's
 * message (naming the lock file and what to do) if it exists, or another
 * negative E_* for other failures ("Unable to create '<path>': <reason>";
 * -E_NOTFOUND when a directory leading to it is missing).
 */
int lockfile_hold(struct lockfile *lk, const char *target);

/*
 * lockfile_hold(), but while someone else holds the lock keep trying for
 * timeout_ms milliseconds (0: try once; negative: forever), backing off
 * between attempts as git does (core.filesRefLockTimeout,
 * core.packedRefsTimeout).  Returns as lockfile_hold().
 */
int lockfile_hold_timeout(struct lockfile *lk, const char *target,
			  long timeout_ms);

/*
 * Create tmp_path itself (O_CREAT|O_EXCL) as the file that will replace
 * target on commit: for a temporary file whose name is not "<target>.lock"
 * (packed-refs.new).  0, or a negative E_* with "unable to create file
 * <tmp_path>: <reason>".
 */
int lockfile_hold_temp(struct lockfile *lk, const char *tmp_path,
		       const char *target);

/* Is lk held (taken and not yet committed or rolled back)? */
static inline int
lockfile_is_held(const struct lockfile *lk)
{
	return lk->node != NULL;
}

/*
 * Close, syncing first as sync asks, and rename into place.  0, or a
 * negative E_* (the lock is rolled back then).  lk is reusable after.
 */
int lockfile_commit(struct lockfile *lk, enum sync_mode sync);

/*
 * Close the lock's fd (keeping the lock) so that its stat data can be
 * read or its descriptor given back; lockfile_commit() then only renames.
 * 0 or a negative E_*.
 */
int lockfile_close(struct lockfile *lk, enum sync_mode sync);

/* Remove the lock if held (a no-op otherwise) and free its paths. */
void lockfile_rollback(struct lockfile *lk);

/* The message git prints when a lock is held, for a lock file path. */
int lockfile_error_held(const char *lock_path);

#endif
