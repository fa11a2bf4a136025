/*
 * progress: git-style progress meters on stderr for long work, e.g.
 *   Hashing objects:  45% (36000/80000), 512.00 MiB | 180.00 MiB/s
 * shown only when stderr is a terminal (or forced with --progress),
 * after a short delay, redrawn at most ten times a second, finished with
 * ", done.".  Updates are cheap and may come from any thread; only the
 * thread that calls progress_tick (thread 0) draws.
 */
#ifndef DIRC_PROGRESS_H
#define DIRC_PROGRESS_H

#include <stdatomic.h>
#include <stdint.h>

struct progress {
	const char *title;
	uint64_t total;
	atomic_uint_fast64_t done;
	atomic_uint_fast64_t bytes;
	uint64_t start_ns, last_ns;
	int shown;
	int throughput;		/* show bytes and rate */
};

/* -1: decide by isatty(2); 0: never; 1: always. */
void progress_setup(int force);

/* The --[no-]progress option's callback (parse-options): always, never. */
struct option;
int progress_option(const struct option *opt, const char *arg, int unset);

/* NULL when progress is off (every call below accepts NULL). */
struct progress *progress_start(const char *title, uint64_t total,
				int throughput);
static inline void
progress_add(struct progress *p, uint64_t n, uint64_t bytes)
{
	if (p) {
		atomic_fetch_add_explicit(&p->done, n, memory_order_relaxed);
		atomic_fetch_add_explicit(&p->bytes, bytes,
					  memory_order_relaxed);
	}
}
/* Redraw if due (call from one thread only). */
void progress_tick(struct progress *p);
/* Final line and free. */
void progress_stop(struct progress **p);

#endif
