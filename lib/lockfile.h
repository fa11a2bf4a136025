/*
 * lockfile: replace one file atomically.  Hold "<target>.lock" (created
 * with O_CREAT|O_EXCL, so holding it is the lock), write the new contents
 * to lk->fd, then commit (fsync if asked, rename over the target) or roll
 * back.  Locks still held are removed at exit and on fatal signals, so a
 * failed command leaves no lock behind (a SIGKILL does; the next command
 * names the file and says how to remove it).
 */
#ifndef DIRC_LOCKFILE_H
#define DIRC_LOCKFILE_H

#include "fileio.h"
#include "util.h"

struct lockfile {
	char *target;		/* absolute path of the file replaced; owned */
	char *lock_path;	/* "<target>.lock"; owned */
	int fd;			/* -1 when not held */
	int active;		/* registered for cleanup */
};
#define LOCKFILE_INIT { NULL, NULL, -1, 0 }

/*
 * Create "<target>.lock" (mode 0666 & ~umask).  0, or -E_LOCKED with git's
 * message (naming the lock file and what to do) if it exists, or another
 * negative E_* for other failures ("Unable to create '<path>': <reason>").
 */
int lockfile_hold(struct lockfile *lk, const char *target);

/*
 * Close, syncing first as sync asks, and rename into place.  0, or a
 * negative E_* (the lock is rolled back then).  lk is reusable after.
 */
int lockfile_commit(struct lockfile *lk, enum sync_mode sync);

/*
 * Close the lock's fd (keeping the lock) so that its stat data can be
 * read; lockfile_commit() then only renames.  0 or a negative E_*.
 */
int lockfile_close(struct lockfile *lk, enum sync_mode sync);

/* Remove the lock if held (a no-op otherwise) and free its paths. */
void lockfile_rollback(struct lockfile *lk);

/* The message git prints when a lock is held, for a lock file path. */
int lockfile_error_held(const char *lock_path);

#endif
