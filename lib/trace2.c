/*
 * trace2: GIT_TRACE2_PERF lines in git's perf format (see trace2.h).
 */
#include "trace2.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "strbuf.h"
#include "util.h"

#define FL_WIDTH 28
#define THREAD_WIDTH 24
#define EVENT_WIDTH 12
#define CATEGORY_WIDTH 12

static int t2_fd = -1;
static int t2_close;		/* t2_fd is a file we opened */
static struct timespec t2_start;
static int t2_nesting;		/* open regions */
static struct timespec t2_region_start[64];

static double
seconds_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) +
	       (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

static int
open_target(const char *v)
{
	struct stat st;

	if (!v || !*v || !strcmp(v, "0") || !strcasecmp(v, "false"))
		return -1;
	if (!strcmp(v, "1") || !strcasecmp(v, "true"))
		return 2;
	if (!v[1] && isdigit((unsigned char)*v))
		return *v - '0';
	if (*v == '/') {
		struct strbuf path = STRBUF_INIT;
		int fd;

		strbuf_addstr(&path, v);
		if (!stat(v, &st) && S_ISDIR(st.st_mode)) {
			struct timespec now;

			clock_gettime(CLOCK_REALTIME, &now);
			strbuf_addf(&path, "/dirc-%lld-%09ld-%d",
				    (long long)now.tv_sec, now.tv_nsec,
				    (int)getpid());
		}
		fd = open(path.buf, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
			  0666);
		strbuf_release(&path);
		if (fd >= 0)
			t2_close = 1;
		return fd < 0 ? -1 : fd;
	}
	diag_emit(DIAG_WARNING, "trace2: unknown value for "
		  "'GIT_TRACE2_PERF': '%s'", v);
	return -1;
}

/* One line: git's columns, then the message. */
static void
emit(const char *file, int line, const char *event, double t_abs,
     const double *t_rel, const char *category, const char *msg)
{
	struct strbuf sb = STRBUF_INIT, fl = STRBUF_INIT;
	struct timespec now;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &now);
	localtime_r(&now.tv_sec, &tm);
	strbuf_addf(&sb, "%02d:%02d:%02d.%06ld ", tm.tm_hour, tm.tm_min,
		    tm.tm_sec, now.tv_nsec / 1000);
	if (file) {
		const char *base = strrchr(file, '/');

		strbuf_addf(&fl, "%s:%d", base ? base + 1 : file, line);
	}
	if (fl.len > FL_WIDTH)
		strbuf_addf(&sb, "...%s", fl.buf + fl.len - (FL_WIDTH - 3));
	else
		strbuf_addf(&sb, "%-*s", FL_WIDTH, fl.buf);
	strbuf_addf(&sb, " | d0 | %-*s | %-*s | %-3s | %9.6f | ",
		    THREAD_WIDTH, "main", EVENT_WIDTH, event,
		    category ? "r1" : "", t_abs);
	if (t_rel)
		strbuf_addf(&sb, "%9.6f | ", *t_rel);
	else
		strbuf_addf(&sb, "%9s | ", "");
	strbuf_addf(&sb, "%-*.*s | ", CATEGORY_WIDTH, CATEGORY_WIDTH,
		    category ? category : "");
	for (int i = 0; i < t2_nesting; i++)
		strbuf_addstr(&sb, "..");
	strbuf_addstr(&sb, msg);
	strbuf_addch(&sb, '\n');
	/* one write a line, as git: lines of processes sharing it stay whole */
	if (write_full(t2_fd, sb.buf, sb.len) < 0) {
		if (t2_close)
			close(t2_fd);
		t2_fd = -1;
	}
	strbuf_release(&fl);
	strbuf_release(&sb);
}

void
trace2_setup(int argc, const char **argv)
{
	const char *target = getenv("GIT_TRACE2_PERF");
	struct strbuf msg = STRBUF_INIT;

	if (!target)
		return;	/* not even the clock: its first read faults */
	clock_gettime(CLOCK_MONOTONIC, &t2_start);
	t2_fd = open_target(target);
	if (t2_fd < 0)
		return;
	emit(__FILE__, __LINE__, "version", 0, NULL, NULL, "dirc");
	for (int i = 0; i < argc; i++) {
		if (i)
			strbuf_addch(&msg, ' ');
		strbuf_addstr(&msg, argv[i]);
	}
	emit(__FILE__, __LINE__, "start", seconds_since(&t2_start), NULL,
	     NULL, msg.buf);
	strbuf_release(&msg);
}

int
trace2_enabled(void)
{
	return t2_fd >= 0;
}

void
trace2_region_enter_fl(const char *file, int line, const char *category,
		       const char *label)
{
	struct strbuf msg = STRBUF_INIT;

	if (t2_fd < 0)
		return;
	strbuf_addf(&msg, "label:%s", label);
	emit(file, line, "region_enter", seconds_since(&t2_start), NULL,
	     category, msg.buf);
	if (t2_nesting < (int)ARRAY_SIZE(t2_region_start))
		clock_gettime(CLOCK_MONOTONIC, &t2_region_start[t2_nesting]);
	t2_nesting++;
	strbuf_release(&msg);
}

void
trace2_region_leave_fl(const char *file, int line, const char *category,
		       const char *label)
{
	struct strbuf msg = STRBUF_INIT;
	double rel = 0;

	if (t2_fd < 0 || !t2_nesting)
		return;
	t2_nesting--;
	if (t2_nesting < (int)ARRAY_SIZE(t2_region_start))
		rel = seconds_since(&t2_region_start[t2_nesting]);
	strbuf_addf(&msg, "label:%s", label);
	emit(file, line, "region_leave", seconds_since(&t2_start), &rel,
	     category, msg.buf);
	strbuf_release(&msg);
}

void
trace2_exit(int status)
{
	struct strbuf msg = STRBUF_INIT;
	double rel;

	if (t2_fd < 0)
		return;
	rel = seconds_since(&t2_start);
	strbuf_addf(&msg, "code:%d", status);
	t2_nesting = 0;
	emit(__FILE__, __LINE__, "exit", rel, &rel, NULL, msg.buf);
	if (t2_close)
		close(t2_fd);
	t2_fd = -1;
	strbuf_release(&msg);
}
