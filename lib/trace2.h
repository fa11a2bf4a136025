/*
 * trace2: git's GIT_TRACE2_PERF, for the scripts and tests that read it.
 *
 * GIT_TRACE2_PERF names where the lines go, as git takes it: "1" or
 * "true" standard error, a single digit that descriptor, an absolute
 * path a file appended to (in a directory: a file of this process's
 * own), empty, "0" or "false" nowhere; anything else is warned about
 * and ignored.  The lines are git's "perf" format (time, file:line,
 * depth, thread, event, repository, times, category, message, in
 * git's columns); the events are the process's version, start and
 * exit, and the regions dirc marks where git marks the same work
 * (cache_tree/update around a cache-tree update).
 */
#ifndef DIRC_TRACE2_H
#define DIRC_TRACE2_H

/* From GIT_TRACE2_PERF; writes "version" and "start" (argv). */
void trace2_setup(int argc, const char **argv);
int trace2_enabled(void);

#define trace2_region_enter(category, label) \
	trace2_region_enter_fl(__FILE__, __LINE__, category, label)
#define trace2_region_leave(category, label) \
	trace2_region_leave_fl(__FILE__, __LINE__, category, label)
void trace2_region_enter_fl(const char *file, int line, const char *category,
			    const char *label);
void trace2_region_leave_fl(const char *file, int line, const char *category,
			    const char *label);

/* "exit" with the status the process ends with. */
void trace2_exit(int status);

#endif
