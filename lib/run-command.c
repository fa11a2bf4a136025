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

int
run_command(struct run_status *st, const char *const *argv)
{
	struct run_process p = RUN_PROCESS_INIT;
	int ret;

	memset(st, 0, sizeof(*st));
	ret = run_start(&p, argv, 0, NULL, NULL);
	if (ret < 0 && p.exec_failed) {
		st->exec_failed = 1;
		st->code = 127;
		return 0;
	}
	if (ret < 0)
		return ret;
	return run_finish(&p, st);
}

/* git's test for a command that needs the shell */
static int
needs_shell(const char *cmd)
{
	return cmd[strcspn(cmd, "|&;<>()$`\\\"' \t\n*?[#~=%")] != '\0';
}

/* environ, less the names env sets or unsets, plus env's settings */
static char **
make_env(const char *const *env)
{
	extern char **environ;
	size_t nr = 0, extra = 0, n = 0;
	char **out;

	while (environ[nr])
		nr++;
	while (env && env[extra])
		extra++;
	out = xcalloc(nr + extra + 1, sizeof(*out));
	for (size_t i = 0; i < nr; i++) {
		size_t len = strcspn(environ[i], "=");
		int drop = 0;

		for (size_t j = 0; j < extra && !drop; j++)
			drop = strcspn(env[j], "=") == len &&
			       !strncmp(env[j], environ[i], len);
		if (!drop)
			out[n++] = environ[i];
	}
	for (size_t j = 0; j < extra; j++)
		if (strchr(env[j], '='))
			out[n++] = (char *)env[j];
	return out;
}

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* a pipe whose end ours (0: read, 1: write) is close-on-exec */
static int
cloexec_pipe(int fds[2], int ours, const char *name)
{
	if (pipe(fds) < 0)
		return error_errno(errno, "cannot create pipe for %s", name);
	if (fcntl(fds[ours], F_SETFD, FD_CLOEXEC) < 0) {
		int err = errno;

		close(fds[0]);
		close(fds[1]);
		return error_errno(err, "cannot create pipe for %s", name);
	}
	return 0;
}

int
run_start(struct run_process *p, const char *const *argv, unsigned flags,
	  const char *dir, const char *const *env)
{
	struct strbuf path = STRBUF_INIT;
	const char **args = NULL, **sh_argv = NULL;
	char **envp = NULL;
	int report[2] = { -1, -1 }, in[2] = { -1, -1 }, out[2] = { -1, -1 };
	int err = 0, ret = 0, status;
	size_t nr = 0, at = 0;
	ssize_t n;
	pid_t pid;

	p->pid = -1;
	p->in = p->out = -1;
	p->exec_failed = 0;
	if (!argv[0])
		BUG("run_start: no command");
	p->name = xstrdup(argv[0]);
	while (argv[nr])
		nr++;
	args = xcalloc(nr + 4, sizeof(*args));
	if ((flags & RUN_USE_SHELL) && needs_shell(argv[0])) {
		args[at++] = "sh";
		args[at++] = "-c";
		args[at++] = argv[0];
		strbuf_addstr(&path, "/bin/sh");
		if (nr > 1)
			BUG("run_start: shell commands take no arguments");
	} else if (strchr(argv[0], '/')) {
		strbuf_addstr(&path, argv[0]);
	} else if (!locate_in_path(&path, argv[0])) {
		ret = error_set(E_NOTFOUND, "cannot run %s: %s", argv[0],
				strerror(ENOENT));
		goto out;
	}
	for (size_t i = 0; i < nr; i++)
		args[at++] = argv[i];
	sh_argv = xcalloc(at + 2, sizeof(*sh_argv));
	sh_argv[0] = "sh";
	sh_argv[1] = path.buf;
	for (size_t i = 1; i < at; i++)
		sh_argv[i + 1] = args[i];
	envp = make_env(env);
	if ((ret = cloexec_pipe(report, 0, argv[0])) < 0 ||
	    ((flags & RUN_PIPE_IN) &&
	     (ret = cloexec_pipe(in, 1, argv[0])) < 0) ||
	    ((flags & RUN_PIPE_OUT) &&
	     (ret = cloexec_pipe(out, 0, argv[0])) < 0))
		goto out;
	if (fcntl(report[1], F_SETFD, FD_CLOEXEC) < 0) {
		ret = error_errno(errno, "cannot create pipe for %s", argv[0]);
		goto out;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ret = error_set(E_IO, "cannot fork() for %s: %s", argv[0],
				strerror(errno));
		goto out;
	}
	if (!pid) {
		/* nothing allocated here: all was made before the fork */
		if ((in[0] >= 0 && dup2(in[0], 0) < 0) ||
		    (out[1] >= 0 && dup2(out[1], 1) < 0) ||
		    (dir && chdir(dir) < 0)) {
			err = errno;
			if (write(report[1], &err, sizeof(err)) < 0) {
				/* only the exit code tells */
			}
			_exit(127);
		}
		if (in[0] > 0)
			close(in[0]);
		if (out[1] > 1)
			close(out[1]);
		execve(path.buf, (char *const *)args, envp);
		if (errno == ENOEXEC)
			execve("/bin/sh", (char *const *)sh_argv, envp);
		err = errno;
		if (write(report[1], &err, sizeof(err)) < 0) {
			/* only the exit code tells */
		}
		_exit(127);
	}
	close_fd(&report[1]);
	close_fd(&in[0]);
	close_fd(&out[1]);
	do {
		n = read(report[0], &err, sizeof(err));
	} while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(err)) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		p->exec_failed = 1;
		if (err == ENOENT)
			ret = error_set(E_IO, "cannot run %s: %s", argv[0],
					strerror(err));
		else
			ret = error_set(E_IO, "cannot exec '%s': %s", argv[0],
					strerror(err));
		goto out;
	}
	p->pid = pid;
	p->in = in[1];
	p->out = out[0];
	in[1] = out[0] = -1;
out:
	close_fd(&report[0]);
	close_fd(&report[1]);
	close_fd(&in[0]);
	close_fd(&in[1]);
	close_fd(&out[0]);
	close_fd(&out[1]);
	if (ret < 0) {
		free(p->name);
		p->name = NULL;
	}
	free(envp);
	free(sh_argv);
	free(args);
	strbuf_release(&path);
	return ret;
}

int
run_finish(struct run_process *p, struct run_status *st)
{
	int status, ret = 0;

	memset(st, 0, sizeof(*st));
	close_fd(&p->in);
	close_fd(&p->out);
	if (p->pid < 0)
		goto out;
	while (waitpid(p->pid, &status, 0) < 0) {
		if (errno != EINTR) {
			ret = error_errno(errno, "waitpid for %s failed",
					  p->name);
			goto out;
		}
	}
	if (WIFSIGNALED(status)) {
		st->signal = WTERMSIG(status);
		st->code = 128 + st->signal;
	} else {
		st->code = WEXITSTATUS(status);
	}
out:
	p->pid = -1;
	free(p->name);
	p->name = NULL;
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
