/*
 * lockfile: atomic replacement through "<target>.lock".
 *
 * Every held lock has a node on one process-wide doubly linked list, so
 * that exit() or a fatal signal removes it; this list is the one piece of
 * global state the lock protocol needs (a signal handler has nothing else
 * to reach it through).  There is no limit on its length.  The list is
 * changed only with the cleanup signals blocked, so the handler always
 * finds it whole; it only unlink()s, which is async-signal-safe, then
 * re-raises.  A node belongs to the process that took the lock: a forked
 * child that exits does not remove its parent's locks.
 */
#include "lockfile.h"

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "perm.h"
#include "strbuf.h"
#include "trace.h"

struct lock_node {
	struct lock_node *prev, *next;
	char *path;		/* copy of the lock file's path; owned */
	pid_t owner;
};

static struct lock_node *volatile held;	/* newest first */
static int cleanup_installed;

static const int cleanup_sigs[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE
};

static void
remove_held_locks(void)
{
	pid_t me = getpid();

	for (struct lock_node *n = held; n; n = n->next)
		if (n->owner == me)
			unlink(n->path);
}

static void
on_signal(int sig)
{
	remove_held_locks();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
install_cleanup(void)
{
	if (cleanup_installed)
		return;
	cleanup_installed = 1;
	atexit(remove_held_locks);
	for (size_t i = 0; i < ARRAY_SIZE(cleanup_sigs); i++) {
		struct sigaction sa, old;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		if (!sigaction(cleanup_sigs[i], NULL, &old) &&
		    old.sa_handler == SIG_IGN)
			continue;	/* keep ignored signals ignored */
		sigaction(cleanup_sigs[i], &sa, NULL);
	}
}

/* Block the cleanup signals around a change of the list. */
static void
block_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < ARRAY_SIZE(cleanup_sigs); i++)
		sigaddset(&set, cleanup_sigs[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

static void
restore_signals(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

static void
register_lock(struct lockfile *lk)
{
	struct lock_node *n = xcalloc(1, sizeof(*n));
	sigset_t old;

	n->path = xstrdup(lk->lock_path);
	n->owner = getpid();
	block_signals(&old);
	n->next = held;
	if (held)
		held->prev = n;
	held = n;
	lk->node = n;
	restore_signals(&old);
}

enum release_how { RELEASE_REMOVE, RELEASE_RENAME };

/*
 * Take lk off the list, first removing its file or renaming it over the
 * target, with the signals blocked so that the handler can neither miss
 * the file nor remove one that is no longer ours.  With RELEASE_RENAME,
 * the lock stays held if rename() fails: -1 with errno set.
 */
static int
release_lock(struct lockfile *lk, enum release_how how)
{
	struct lock_node *n = lk->node;
	sigset_t old;

	if (!n)
		return 0;
	block_signals(&old);
	if (how == RELEASE_REMOVE) {
		unlink(n->path);
	} else if (rename(n->path, lk->target) < 0) {
		int e = errno;

		restore_signals(&old);
		errno = e;
		return -1;
	}
	if (n->prev)
		n->prev->next = n->next;
	else
		held = n->next;
	if (n->next)
		n->next->prev = n->prev;
	lk->node = NULL;
	restore_signals(&old);
	free(n->path);
	free(n);
	return 0;
}

static void
free_paths(struct lockfile *lk)
{
	free(lk->target);
	free(lk->lock_path);
	lk->target = lk->lock_path = NULL;
}

int
lockfile_error_held(const char *lock_path)
{
	return error_set(E_LOCKED,
		"Unable to create '%s': File exists.\n\n"
		"Another git process seems to be running in this repository, "
		"or the lock file may be stale", lock_path);
}

/* Absolute form of path into out. */
static int
absolute(struct strbuf *out, const char *path)
{
	strbuf_reset(out);
	if (path[0] != '/') {
		if (strbuf_getcwd(out) < 0)
			return -error_code();
		strbuf_addch(out, '/');
	}
	strbuf_addstr(out, path);
	return 0;
}

/*
 * Create lock_path exclusively for target; errors as git words them for
 * a lock ("<target>.lock") or for another temporary file.
 */
static int
create_locked(struct lockfile *lk, const char *target, const char *lock_path,
	      int is_lock)
{
	struct strbuf path = STRBUF_INIT;
	int fd, ret;

	if (lk->fd >= 0 || lk->node)
		BUG("taking a lock that is held already ('%s')",
		    lk->lock_path);
	install_cleanup();
	ret = absolute(&path, target);
	if (ret < 0)
		goto out;
	free(lk->target);
	lk->target = xstrdup(path.buf);
	if (lock_path) {
		ret = absolute(&path, lock_path);
		if (ret < 0)
			goto out;
	} else {
		strbuf_addstr(&path, ".lock");
	}
	free(lk->lock_path);
	lk->lock_path = strbuf_detach(&path, NULL);

	fd = open(lk->lock_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0) {
		int e = errno;

		if (!is_lock)
			ret = error_errno(e, "unable to create file %s",
					  lk->lock_path);
		else if (e == EEXIST)
			ret = lockfile_error_held(lk->lock_path);
		else
			ret = error_errno(e, "Unable to create '%s'",
					  lk->lock_path);
		goto out;
	}
	lk->fd = fd;
	register_lock(lk);
	/* a shared repository: the lock becomes the file, with its mode */
	ret = perm_adjust(lk->lock_path);
	if (ret < 0) {
		lockfile_rollback(lk);
		strbuf_release(&path);
		return ret;
	}
	trace_step("lock taken");
	ret = 0;
out:
	if (ret < 0)
		free_paths(lk);
	strbuf_release(&path);
	return ret;
}

int
lockfile_hold(struct lockfile *lk, const char *target)
{
	return create_locked(lk, target, NULL, 1);
}

int
lockfile_hold_temp(struct lockfile *lk, const char *tmp_path,
		   const char *target)
{
	return create_locked(lk, target, tmp_path, 0);
}

static long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Retry delays: 1 ms doubling up to 1 s, each scaled by a random factor
 * in [0.75, 1.25) so that waiting processes do not retry in step.
 */
#define LOCK_BACKOFF_MAX_MS 1000

int
lockfile_hold_timeout(struct lockfile *lk, const char *target,
		      long timeout_ms)
{
	long deadline = timeout_ms > 0 ? now_ms() + timeout_ms : 0;
	long backoff = 1;
	unsigned rnd = (unsigned)getpid() * 2654435761u;

	for (;;) {
		struct timespec ts;
		long wait, left;
		int ret = lockfile_hold(lk, target);

		if (ret != -E_LOCKED || !timeout_ms)
			return ret;
		left = timeout_ms > 0 ? deadline - now_ms() : LONG_MAX;
		if (left <= 0)
			return ret;
		error_clear();
		if (backoff == 1)
			trace_step("waiting for a lock");
		rnd ^= rnd << 13;
		rnd ^= rnd >> 17;
		rnd ^= rnd << 5;
		wait = backoff * (750 + (long)(rnd % 500)) / 1000;
		if (wait < 1)
			wait = 1;
		if (wait > left)
			wait = left;
		ts.tv_sec = wait / 1000;
		ts.tv_nsec = (wait % 1000) * 1000000;
		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
		backoff = MIN(backoff * 2, LOCK_BACKOFF_MAX_MS);
	}
}

int
lockfile_close(struct lockfile *lk, enum sync_mode sync)
{
	int fd = lk->fd;

	if (fd < 0)
		return 0;
	lk->fd = -1;
	if (fileio_sync(fd, sync) < 0) {
		int e = errno;

		close(fd);
		return error_errno(e, "unable to fsync '%s'", lk->lock_path);
	}
	if (close(fd) < 0)
		return error_errno(errno, "unable to write '%s'",
				   lk->lock_path);
	return 0;
}

int
lockfile_commit(struct lockfile *lk, enum sync_mode sync)
{
	int ret;

	if (!lk->node)
		BUG("lockfile_commit without a held lock");
	ret = lockfile_close(lk, sync);
	if (ret < 0) {
		int e = errno;

		lockfile_rollback(lk);
		errno = e;
		return ret;
	}
	trace_step("rename into place");
	if (release_lock(lk, RELEASE_RENAME) < 0) {
		int e = errno;

		ret = error_errno(e, "unable to rename '%s' to '%s'",
				  lk->lock_path, lk->target);
		lockfile_rollback(lk);
		errno = e;	/* for a caller's own message */
		return ret;
	}
	free_paths(lk);
	return 0;
}

void
lockfile_rollback(struct lockfile *lk)
{
	if (lk->fd >= 0) {
		close(lk->fd);
		lk->fd = -1;
	}
	release_lock(lk, RELEASE_REMOVE);
	free_paths(lk);
}
