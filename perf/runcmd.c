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
 * wall is CLOCK_MONOTONIC from just before fork() to just after the wait,
 * with microsecond resolution; user, sys and maxrss come from
 * getrusage(RUSAGE_CHILDREN) after waitpid().  runcmd starts exactly one
 * child, so that is the child's own usage (including any children it
 * waited for) — what wait4() would report — and it needs nothing beyond
 * POSIX.  The exit status is 0 when the command exited 0, else 1 (also
 * when it could not be started: status=127, or was killed: status=sigN).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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

/*
 * In the child: report why we could not get to exec() through the
 * close-on-exec pipe (as an errno value), then exit 127.
 */
static void
child_fail(int report_fd, const char *what, const char *arg)
{
	int err = errno;
	ssize_t n;

	fprintf(stderr, "runcmd: %s '%s': %s\n", what, arg, strerror(err));
	n = write(report_fd, &err, sizeof(err));
	(void)n;
	_exit(127);
}

static void
redirect(int report_fd, const char *path, int flags, int target)
{
	int fd = open(path, flags, 0666);

	if (fd < 0)
		child_fail(report_fd, "cannot open", path);
	if (fd != target) {
		if (dup2(fd, target) < 0)
			child_fail(report_fd, "cannot redirect to", path);
		close(fd);
	}
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
	int nenv = 0, i, status, report[2], err = 0;
	struct timespec t0, t1;
	struct rusage ru;
	pid_t pid;
	ssize_t n;
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

	if (pipe(report) < 0 || fcntl(report[1], F_SETFD, FD_CLOEXEC) < 0) {
		fprintf(stderr, "runcmd: pipe: %s\n", strerror(errno));
		return 1;
	}
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "runcmd: fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		close(report[0]);
		for (int k = 0; k < nenv; k++) {
			char *eq = strchr(env[k], '=');

			*eq = '\0';
			if (setenv(env[k], eq + 1, 1) < 0)
				child_fail(report[1], "cannot set", env[k]);
		}
		if (dir && chdir(dir) < 0)
			child_fail(report[1], "cannot change to", dir);
		redirect(report[1], infile, O_RDONLY, 0);
		redirect(report[1], outfile, O_WRONLY | O_CREAT | O_TRUNC, 1);
		execvp(argv[i], argv + i);
		child_fail(report[1], "cannot run", argv[i]);
	}
	close(report[1]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "runcmd: waitpid: %s\n",
				strerror(errno));
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	do {
		n = read(report[0], &err, sizeof(err));
	} while (n < 0 && errno == EINTR);
	close(report[0]);
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
