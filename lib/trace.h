/*
 * trace: what a run did and how long each phase took, and the test-only
 * knob that kills the process at a chosen durable step.
 *
 * DIRC_TRACE_PERF=1 (or a command's --stats) turns on per-phase timers and
 * counters, printed at the end through diag_emit(DIAG_PLAIN) as
 * "trace: <phase> <seconds> s" and "trace: <counter> <n>" lines.
 *
 * Durable steps are the moments a crash could leave different states on
 * disk: an object finalised, a lock taken, a file renamed into place.
 * trace_step() marks each; with DIRC_TEST_KILL_AT=<n> the process sends
 * itself SIGKILL at the n-th step (counted from 1) — for crash-safety
 * tests only; with DIRC_TEST_STEPS=<file> every step is appended to file.
 * Counters and steps are safe to use from worker threads.
 */
#ifndef DIRC_TRACE_H
#define DIRC_TRACE_H

#include "util.h"

enum trace_counter {
	TC_ENTRIES_READ,	/* index entries parsed */
	TC_FILES_STATED,	/* lstat() calls on work-tree files */
	TC_OBJECTS_HASHED,	/* objects whose id was computed */
	TC_BYTES_HASHED,
	TC_BYTES_DEFLATED,	/* payload bytes compressed */
	TC_OBJECTS_WRITTEN,	/* loose objects created */
	TC_OBJECTS_PRESENT,	/* objects found already stored */
	TC_RACY,		/* racy entries checked by content */
	TC_TREES_WRITTEN,	/* tree objects computed */
	TC_FILES_CHECKED_OUT,
	TC_IEOT_BLOCKS,		/* index entry blocks parsed on threads */
	TC_ENTRIES_CHECKED,	/* index entries checked, not kept */
	TC_NR
};

/* Enable from DIRC_TRACE_PERF (called once by main) or explicitly. */
void trace_setup(void);
void trace_enable(void);
int trace_enabled(void);

void trace_count(enum trace_counter c, uint64_t n);

/* Monotonic nanoseconds. */
uint64_t trace_now(void);
/* Record that phase name took the time since start (trace_now()). */
void trace_phase(const char *name, uint64_t start);

/* Emit the phases and non-zero counters (if enabled). */
void trace_report(void);

/* A durable step just happened (see above). */
void trace_step(const char *what);

#endif
