/*
 * trace: phase timers, counters and the durable-step kill knob.
 * Phases are kept in a small table in the order first seen; a phase
 * recorded twice accumulates.  Counters are atomics.
 */
#include "trace.h"

#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <strings.h>
#include <unistd.h>

#include "error.h"

#define MAX_PHASES 32

static int enabled;
static atomic_uint_fast64_t counters[TC_NR];
static struct {
	const char *name;
	uint64_t ns;
	unsigned calls;
} phases[MAX_PHASES];
static int nr_phases;

static atomic_ulong steps;
static unsigned long kill_at;
static int steps_fd = -1;

static const char *const counter_names[TC_NR] = {
	[TC_ENTRIES_READ] = "entries read",
	[TC_FILES_STATED] = "files stat'ed",
	[TC_OBJECTS_HASHED] = "objects hashed",
	[TC_BYTES_HASHED] = "bytes hashed",
	[TC_BYTES_DEFLATED] = "bytes deflated",
	[TC_OBJECTS_WRITTEN] = "objects written",
	[TC_OBJECTS_PRESENT] = "objects already present",
	[TC_RACY] = "racy entries checked",
	[TC_TREES_WRITTEN] = "trees computed",
	[TC_FILES_CHECKED_OUT] = "files checked out",
	[TC_IEOT_BLOCKS] = "IEOT blocks read",
	[TC_ENTRIES_CHECKED] = "entries checked, not kept",
};

void
trace_setup(void)
{
	const char *v = getenv("DIRC_TRACE_PERF");

	if (v && *v && strcmp(v, "0") && strcasecmp(v, "false"))
		enabled = 1;
	v = getenv("DIRC_TEST_KILL_AT");
	if (v && *v)
		kill_at = strtoul(v, NULL, 10);
	v = getenv("DIRC_TEST_STEPS");
	if (v && *v)
		steps_fd = open(v, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
				0666);
}

void
trace_enable(void)
{
	enabled = 1;
}

int
trace_enabled(void)
{
	return enabled;
}

void
trace_count(enum trace_counter c, uint64_t n)
{
	if (enabled)
		atomic_fetch_add_explicit(&counters[c], n,
					  memory_order_relaxed);
}

uint64_t
trace_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

void
trace_phase(const char *name, uint64_t start)
{
	uint64_t ns;
	int i;

	if (!enabled)
		return;
	ns = trace_now() - start;
	for (i = 0; i < nr_phases; i++)
		if (!strcmp(phases[i].name, name))
			break;
	if (i == nr_phases) {
		if (nr_phases == MAX_PHASES)
			return;
		phases[nr_phases++].name = name;
	}
	phases[i].ns += ns;
	phases[i].calls++;
}

void
trace_report(void)
{
	if (!enabled)
		return;
	for (int i = 0; i < nr_phases; i++)
		diag_emit(DIAG_PLAIN, "trace: %-24s %10.6f s", phases[i].name,
			  phases[i].ns / 1e9);
	for (int c = 0; c < TC_NR; c++) {
		uint64_t n = atomic_load(&counters[c]);

		if (n)
			diag_emit(DIAG_PLAIN, "trace: %-24s %10llu",
				  counter_names[c], (unsigned long long)n);
	}
}

void
trace_step(const char *what)
{
	unsigned long n;

	if (!kill_at && steps_fd < 0)
		return;
	n = atomic_fetch_add(&steps, 1) + 1;
	if (steps_fd >= 0) {
		char line[256];
		int len = snprintf(line, sizeof(line), "%lu %s\n", n, what);

		if (len > 0)
			(void)!write(steps_fd, line, MIN((size_t)len,
							 sizeof(line) - 1));
	}
	if (kill_at && n == kill_at)
		kill(getpid(), SIGKILL);
}
