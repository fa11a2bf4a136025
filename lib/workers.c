/*
 * workers: a fork-join loop over items.  Threads are created per call:
 * a command runs a handful of parallel phases at most, and starting two
 * threads costs microseconds against phases of milliseconds or more.
 */
#include "workers.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "error.h"

#define BATCH 8		/* items taken per grab */

struct run {
	workers_fn fn;
	void *ctx;
	size_t nr;
	size_t batch;		/* items per grab */
	atomic_size_t next;
};

struct thread_arg {
	struct run *run;
	int thread;
};

static void
work(struct run *r, int thread)
{
	for (;;) {
		size_t start = atomic_fetch_add_explicit(&r->next, r->batch,
							 memory_order_relaxed);

		if (start >= r->nr)
			return;
		for (size_t i = start; i < start + r->batch && i < r->nr; i++)
			r->fn(r->ctx, i, thread);
	}
}

static void *
thread_main(void *p)
{
	struct thread_arg *a = p;

	work(a->run, a->thread);
	return NULL;
}

void
workers_run(int nthreads, size_t nr, workers_fn fn, void *ctx)
{
	workers_run_batch(nthreads, nr, BATCH, fn, ctx);
}

void
workers_run_batch(int nthreads, size_t nr, size_t batch, workers_fn fn,
		  void *ctx)
{
	struct run r = { .fn = fn, .ctx = ctx, .nr = nr,
			 .batch = batch ? batch : 1 };
	pthread_t tid[WORKERS_MAX];
	struct thread_arg args[WORKERS_MAX];
	int started = 0;

	atomic_init(&r.next, 0);
	if (nthreads > WORKERS_MAX)
		nthreads = WORKERS_MAX;
	for (int t = 1; t < nthreads; t++) {
		args[t].run = &r;
		args[t].thread = t;
		if (pthread_create(&tid[t], NULL, thread_main, &args[t]))
			break;	/* fewer threads: the work still gets done */
		started = t;
	}
	work(&r, 0);
	for (int t = 1; t <= started; t++)
		pthread_join(tid[t], NULL);
}

int
workers_parse(const char *value)
{
	char *end;
	long n;

	if (!value || !*value)
		return -1;
	n = strtol(value, &end, 10);
	if (*end || n < 0)
		return -1;
	return n > WORKERS_MAX ? WORKERS_MAX : (int)n;
}

int
workers_online_cpus(void)
{
	static atomic_int cached;
	int n = atomic_load_explicit(&cached, memory_order_relaxed);

	if (!n) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		n = cpus > 0 ? (int)MIN(cpus, INT_MAX) : 1;
		atomic_store_explicit(&cached, n, memory_order_relaxed);
	}
	return n;
}

int
workers_count(int requested, int configured, size_t nr,
	      size_t min_per_thread)
{
	int n = requested;

	if (n <= 0) {
		int env = workers_parse(getenv("DIRC_THREADS"));

		n = env > 0 ? env : 0;
	}
	if (n <= 0)
		n = configured;
	if (n <= 0)
		n = workers_online_cpus();
	if (min_per_thread && (size_t)n > nr / min_per_thread)
		n = nr / min_per_thread ? (int)(nr / min_per_thread) : 1;
	return n < 1 ? 1 : n > WORKERS_MAX ? WORKERS_MAX : n;
}
