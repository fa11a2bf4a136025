/*
 * workers: run independent per-item work on several threads.
 *
 * workers_run() calls fn(ctx, item, thread) for every item in [0, nr),
 * spread over nthreads threads (the caller's thread is thread 0), and
 * returns when all are done.  Items are handed out in small batches from
 * an atomic counter, so uneven items balance out.  fn must only touch
 * per-item results and per-thread state (arrays indexed by thread);
 * merging happens after the join, in item order, so the output is the
 * same for every thread count.
 */
#ifndef DIRC_WORKERS_H
#define DIRC_WORKERS_H

#include "util.h"

#define WORKERS_MAX 256

typedef void (*workers_fn)(void *ctx, size_t item, int thread);

/* Run fn over nr items on nthreads threads (1: no thread is started). */
void workers_run(int nthreads, size_t nr, workers_fn fn, void *ctx);
/*
 * Index entries a thread takes at a time when it lstat()s them (refresh,
 * diff-files): runs of neighbours, so that its leading-directory cache
 * sees each directory once (with 8, both threads walked into most
 * directories: 7,950 directory lstat()s for the 5,100 directories of a
 * linux-sized tree, 3,000 more than one thread's).
 */
#define WORKERS_RUN_NEIGHBOURS 256

/* The same, handing out batch items per grab (few, large items: 1). */
void workers_run_batch(int nthreads, size_t nr, size_t batch, workers_fn fn,
		       void *ctx);

/*
 * The thread count to use for nr items: requested (a --threads value) if
 * positive, else DIRC_THREADS, else configured (the repository's
 * dirc.threads, 0 if none) if positive, else the number of online CPUs;
 * never more than useful for nr items (min_per_thread each).
 */
int workers_count(int requested, int configured, size_t nr,
		  size_t min_per_thread);

/*
 * The online CPUs (1 if unknown), asked once: glibc reads /sys for each
 * sysconf() call, and a linux-sized index's round trip asked five times
 * (0.3 ms).
 */
int workers_online_cpus(void);

/* Parse "--threads=<n>" / "--threads <n>" style values: n >= 0 or -1. */
int workers_parse(const char *value);

#endif
