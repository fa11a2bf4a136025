/*
 * lockfile: atomic replacement through "<target>.lock".
 *
 * Every held lock is on a process-wide list so that an exit() or a fatal
 * signal removes it; this list is the one piece of global state the lock
 * protocol needs (a signal handler has nothing else to reach it through).
 * The handler only unlink()s, which is async-signal-safe, then re-raises.
 */
#include "lockfile.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "perm.h"
#include "strbuf.h"
#include "trace.h"

static struct lockfile *volatile held[16];
static int cleanup_installed;

static void
remove_held_locks(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(held); i++) {
		struct lockfile *lk = held[i];

		if (lk && lk->active) {
			if (lk->fd >= 0)
				close(lk->fd);
			unlink(lk->lock_path);
			lk->active = 0;
		}
	}
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
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };

	if (cleanup_installed)
		return;
	cleanup_installed = 1;
	atexit(remove_held_locks);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++) {
		struct sigaction sa, old;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		if (!sigaction(sigs[i], NULL, &old) &&
		    old.sa_handler == SIG_IGN)
			continue;	/* keep ignored signals ignored */
		sigaction(sigs[i], &sa, NULL);
	}
}

static void
register_lock(struct lockfile *lk)
{
	for (size_t i = 0; i < ARRAY_SIZE(held); i++) {
		if (!held[i] || held[i] == lk) {
			held[i] = lk;
			lk->active = 1;
			return;
		}
	}
	BUG("more than %zu locks held at once", ARRAY_SIZE(held));
}

static void
unregister_lock(struct lockfile *lk)
{
	lk->active = 0;
	for (size_t i = 0; i < ARRAY_SIZE(held); i++)
		if (held[i] == lk)
			held[i] = NULL;
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
		"e.g.\nan editor opened by 'git commit'. Please make sure all "
		"processes\nare terminated then try again. If it still fails, "
		"a git process\nmay have crashed in this repository earlier:\n"
		"remove the file manually to continue.", lock_path);
}

int
lockfile_hold(struct lockfile *lk, const char *target)
{
	struct strbuf path = STRBUF_INIT;
	int fd;

	if (lk->fd >= 0 || lk->active)
		BUG("lockfile_hold on a held lock '%s'", lk->lock_path);
	install_cleanup();
	if (target[0] != '/') {
		if (strbuf_getcwd(&path) < 0)
			return -error_code();
		strbuf_addch(&path, '/');
	}
	strbuf_addstr(&path, target);
	free(lk->target);
	free(lk->lock_path);
	lk->target = xstrdup(path.buf);
	strbuf_addstr(&path, ".lock");
	lk->lock_path = strbuf_detach(&path, NULL);

	fd = open(lk->lock_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0) {
		int ret = errno == EEXIST ? lockfile_error_held(lk->lock_path) :
			error_errno(errno, "Unable to create '%s'",
				    lk->lock_path);

		free_paths(lk);
		return ret;
	}
	lk->fd = fd;
	register_lock(lk);
	/* a shared repository: the lock becomes the file, with its mode */
	{
		int ret = perm_adjust(lk->lock_path);

		if (ret < 0) {
			lockfile_rollback(lk);
			return ret;
		}
	}
	trace_step("lock taken");
	return 0;
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

	if (!lk->active)
		BUG("lockfile_commit without a held lock");
	ret = lockfile_close(lk, sync);
	if (ret < 0) {
		lockfile_rollback(lk);
		return ret;
	}
	trace_step("rename into place");
	if (rename(lk->lock_path, lk->target) < 0) {
		ret = error_errno(errno, "unable to rename '%s' to '%s'",
				  lk->lock_path, lk->target);
		lockfile_rollback(lk);
		return ret;
	}
	unregister_lock(lk);
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
	if (lk->active) {
		unlink(lk->lock_path);
		unregister_lock(lk);
	}
	free_paths(lk);
}
