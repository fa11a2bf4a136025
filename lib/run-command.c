/*
 * run-command: fork, exec, wait.  The child reports a failed exec to the
 * parent through a close-on-exec pipe (the errno, 4 bytes), so that the
 * parent, not the child, sets the message: lib/ never prints.
 */
#include "run-command.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "error.h"

/* Is path a regular file its owner may execute (git's test)? */
static int
is_executable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) &&
	       (st.st_mode & S_IXUSR);
}

/*
 * The first executable "<dir>/<name>" for the directories of PATH, into
 * out; 1 if found.  An empty directory in PATH is the current one.
 */
static int
locate_in_path(struct strbuf *out, const char *name)
{
	const char *dirs = getenv("PATH");
	size_t pos = 0, len;

	if (!dirs)
		return 0;
	do {
		len = strcspn(dirs + pos, ":");
		strbuf_reset(out);
		strbuf_add(out, dirs + pos, len);
		if (len)
			strbuf_addch(out, '/');
		strbuf_addstr(out, name);
		if (is_executable(out->buf))
			return 1;
		pos += len + 1;
	} while (dirs[pos - 1]);
	return 0;
}

/*
 * In the child: exec path with argv, or the shell with sh_argv for a
 * file without "#!"; else send errno to the parent and leave.
 */
static void NORETURN
child(int report, const char *path, const char *const *argv,
      const char *const *sh_argv)
{
	int err;

	execv(path, (char *const *)argv);
	if (errno == ENOEXEC)
		execv("/bin/sh", (char *const *)sh_argv);
	err = errno;
	if (write(report, &err, sizeof(err)) < 0) {
		/* the parent then sees only the exit code */
	}
	_exit(127);
}

int
run_command(struct run_status *st, const char *const *argv)
{
	struct strbuf path = STRBUF_INIT;
	const char **sh_argv = NULL;
	int fds[2], err = 0, status, ret = 0;
	size_t nr = 0;
	ssize_t n;
	pid_t pid;

	memset(st, 0, sizeof(*st));
	if (strchr(argv[0], '/')) {
		strbuf_addstr(&path, argv[0]);
	} else if (!locate_in_path(&path, argv[0])) {
		ret = error_set(E_NOTFOUND, "cannot run %s: %s", argv[0],
				strerror(ENOENT));
		goto out;
	}
	/* made here: the child allocates nothing */
	while (argv[nr])
		nr++;
	sh_argv = xcalloc(nr + 2, sizeof(*sh_argv));
	sh_argv[0] = "sh";
	sh_argv[1] = path.buf;
	for (size_t i = 1; i < nr; i++)
		sh_argv[i + 1] = argv[i];
	if (pipe(fds) < 0) {
		ret = error_errno(errno, "cannot create pipe for %s", argv[0]);
		goto out;
	}
	if (fcntl(fds[1], F_SETFD, FD_CLOEXEC) < 0) {
		ret = error_errno(errno, "cannot create pipe for %s", argv[0]);
		close(fds[0]);
		close(fds[1]);
		goto out;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ret = error_set(E_IO, "cannot fork() for %s: %s", argv[0],
				strerror(errno));
		close(fds[0]);
		close(fds[1]);
		goto out;
	}
	if (!pid) {
		close(fds[0]);
		child(fds[1], path.buf, argv, sh_argv);
	}
	close(fds[1]);
	do {
		n = read(fds[0], &err, sizeof(err));
	} while (n < 0 && errno == EINTR);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			ret = error_errno(errno, "waitpid for %s failed",
					  argv[0]);
			goto out;
		}
	}
	if (n == (ssize_t)sizeof(err)) {
		st->exec_failed = 1;
		st->code = 127;
		if (err == ENOENT)
			error_set(E_IO, "cannot run %s: %s", argv[0],
				  strerror(err));
		else
			error_set(E_IO, "cannot exec '%s': %s", argv[0],
				  strerror(err));
	} else if (WIFSIGNALED(status)) {
		st->signal = WTERMSIG(status);
		st->code = 128 + st->signal;
	} else {
		st->code = WEXITSTATUS(status);
	}
out:
	free(sh_argv);
	strbuf_release(&path);
	return ret;
}

int
run_exec_path(struct strbuf *out)
{
	const char *env = getenv("GIT_EXEC_PATH");
	char self[4096];
	ssize_t n;
	char *slash;

	strbuf_reset(out);
	if (env && *env) {
		strbuf_addstr(out, env);
		return 0;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return error_errno(n < 0 ? errno : ENOENT, "cannot tell where "
				   "dirc is installed");
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (slash && slash != self)
		*slash = '\0';
	strbuf_addstr(out, self);
	return 0;
}

int
run_setup_path(void)
{
	struct strbuf path = STRBUF_INIT;
	const char *old = getenv("PATH");
	int ret;

	ret = run_exec_path(&path);
	if (ret < 0)
		goto out;
	strbuf_addch(&path, ':');
	/* without PATH, the system's default search path (as git) */
	strbuf_addstr(&path, old ? old : "/usr/local/bin:/usr/bin:/bin");
	if (setenv("PATH", path.buf, 1) < 0)
		ret = error_errno(errno, "cannot set PATH");
out:
	strbuf_release(&path);
	return ret;
}
