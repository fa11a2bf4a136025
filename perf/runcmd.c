/*
 * runcmd: run one command and measure it, for the perf suite.
 *
 *   runcmd [-o outfile] [-i infile] [-C dir] [-e VAR=VAL]... -- cmd args...
 *
 * The command's stdin comes from infile (default /dev/null), its stdout
 * goes to outfile (default /dev/null), its stderr is ours.  When it ends,
 * one line goes to our stdout:
 *
 *   wall=<s> user=<s> sys=<s> maxrss_kib=<n> status=<code | sigN>
 *
 * wall is CLOCK_MONOTONIC from just before posix_spawn() to just after the
 * wait, with microsecond resolution; user, sys and maxrss come from
 * getrusage(RUSAGE_CHILDREN) after waitpid().  runcmd starts exactly one
 * child, so that is the child's own usage (including any children it
 * waited for) — what wait4() would report — and it needs nothing beyond
 * POSIX and glibc's posix_spawn_file_actions_addfchdir_np().  The exit
 * status is 0 when the command exited 0, else 1 (also when it could not
 * be started: status=127, or was killed: status=sigN).  A directory or
 * file that cannot be opened (relative names are taken from -C's
 * directory, as the command sees them) stops runcmd before anything runs:
 * a message, no line, exit 1.
 */
/* posix_spawn_file_actions_addfchdir_np() (glibc 2.29) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ENV 64

static const char usage_text[] =
"usage: runcmd [-o outfile] [-i infile] [-C dir] [-e VAR=VAL]...\n"
"              -- cmd args...\n"
"\n"
"Run cmd (stdin from infile or /dev/null, stdout to outfile or /dev/null,\n"
"stderr passed through) and print one line:\n"
"  wall=<s> user=<s> sys=<s> maxrss_kib=<n> status=<exit code | sigN>\n"
"Exits 1 if cmd did not exit with status 0.\n";

static void
usage(const char *why)
{
	if (why)
		fprintf(stderr, "runcmd: %s\n", why);
	fputs(usage_text, stderr);
	exit(2);
}

static int
open_or_die(int at, const char *path, int flags, const char *what)
{
	int fd = openat(at, path, flags | O_CLOEXEC, 0666);

	if (fd < 0) {
		fprintf(stderr, "runcmd: %s '%s': %s\n", what, path,
			strerror(errno));
		exit(1);
	}
	return fd;
}

/* environ with each VAR=VAL of env[] set, replacing an old VAR= */
static char **
child_environ(char **env, int nenv)
{
	size_t n = 0, k = 0;
	char **out;

	while (environ[n])
		n++;
	out = calloc(n + nenv + 1, sizeof(*out));
	if (!out) {
		fprintf(stderr, "runcmd: out of memory\n");
		exit(1);
	}
	for (size_t i = 0; i < n; i++) {
		int j;

		for (j = 0; j < nenv; j++) {
			size_t len = strcspn(env[j], "=") + 1;

			if (!strncmp(environ[i], env[j], len))
				break;
		}
		if (j == nenv)
			out[k++] = environ[i];
	}
	for (int j = 0; j < nenv; j++)
		out[k++] = env[j];
	return out;
}

static double
tv_seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

int
main(int argc, char **argv)
{
	const char *outfile = "/dev/null", *infile = "/dev/null", *dir = NULL;
	char *env[MAX_ENV];
	int nenv = 0, i, status, dir_fd = AT_FDCWD, in_fd, out_fd, err;
	posix_spawn_file_actions_t fa;
	struct timespec t0, t1;
	struct rusage ru;
	char **envp;
	pid_t pid;
	double wall;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage_text, stdout);
			return 0;
		}
		if (a[0] != '-')
			break;
		if (strlen(a) != 2 || !strchr("oiCe", a[1]))
			usage("unknown option");
		if (i + 1 >= argc)
			usage("option needs a value");
		switch (a[1]) {
		case 'o':
			outfile = argv[++i];
			break;
		case 'i':
			infile = argv[++i];
			break;
		case 'C':
			dir = argv[++i];
			break;
		default:
			if (nenv == MAX_ENV)
				usage("too many -e options");
			if (!strchr(argv[i + 1], '=') || argv[i + 1][0] == '=')
				usage("-e needs VAR=VAL");
			env[nenv++] = argv[++i];
			break;
		}
	}
	if (i >= argc)
		usage("no command given");

	/*
	 * Everything the child needs is made here, before the clock starts;
	 * posix_spawn() then starts it without copying our address space
	 * (a fork() here cost ~1.6 ms of its own on a VM, counted in every
	 * measurement).
	 */
	if (dir)
		dir_fd = open_or_die(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY,
				     "cannot change to");
	/* as the child sees them: relative to the directory it runs in */
	in_fd = open_or_die(dir_fd, infile, O_RDONLY, "cannot open");
	out_fd = open_or_die(dir_fd, outfile, O_WRONLY | O_CREAT | O_TRUNC,
			     "cannot open");
	envp = nenv ? child_environ(env, nenv) : environ;
	if (posix_spawn_file_actions_init(&fa) ||
	    posix_spawn_file_actions_adddup2(&fa, in_fd, 0) ||
	    posix_spawn_file_actions_adddup2(&fa, out_fd, 1) ||
	    (dir && posix_spawn_file_actions_addfchdir_np(&fa, dir_fd))) {
		fprintf(stderr, "runcmd: cannot prepare the child\n");
		return 1;
	}
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = posix_spawnp(&pid, argv[i], &fa, NULL, argv + i, envp);
	if (err) {
		posix_spawn_file_actions_destroy(&fa);
		if (envp != environ)
			free(envp);
		fprintf(stderr, "runcmd: cannot run '%s': %s\n", argv[i],
			strerror(err));
		printf("wall=0 user=0 sys=0 maxrss_kib=0 status=127\n");
		return 1;
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "runcmd: waitpid: %s\n",
				strerror(errno));
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	posix_spawn_file_actions_destroy(&fa);
	if (envp != environ)
		free(envp);
	if (getrusage(RUSAGE_CHILDREN, &ru) < 0) {
		fprintf(stderr, "runcmd: getrusage: %s\n", strerror(errno));
		return 1;
	}

	wall = (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("wall=%.6f user=%.6f sys=%.6f maxrss_kib=%ld ", wall,
	       tv_seconds(&ru.ru_utime), tv_seconds(&ru.ru_stime),
	       (long)ru.ru_maxrss);
	if (WIFSIGNALED(status))
		printf("status=sig%d\n", WTERMSIG(status));
	else
		printf("status=%d\n", WEXITSTATUS(status));
	if (fflush(stdout) || ferror(stdout))
		return 1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
