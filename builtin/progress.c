/*
 * progress: the meter.  Drawn with a carriage return and cleared to the
 * end of the line; nothing is drawn before PROGRESS_DELAY_NS has passed,
 * so short commands stay silent.
 */
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define PROGRESS_DELAY_NS 1000000000ull	/* quiet for the first second */
#define PROGRESS_EVERY_NS 100000000ull	/* at most ten redraws a second */

static int mode = -1;

void
progress_setup(int force)
{
	mode = force;
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

struct progress *
progress_start(const char *title, uint64_t total, int throughput)
{
	struct progress *p;

	if (mode == 0 || (mode < 0 && !isatty(2)))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->title = title;
	p->total = total;
	p->throughput = throughput;
	p->start_ns = p->last_ns = now_ns();
	if (mode > 0)
		p->start_ns -= PROGRESS_DELAY_NS;	/* forced: draw now */
	return p;
}

static void
draw(struct progress *p, uint64_t t, const char *end)
{
	uint64_t done = atomic_load(&p->done);
	uint64_t bytes = atomic_load(&p->bytes);
	double secs = (t - p->start_ns) / 1e9;

	if (p->total)
		fprintf(stderr, "\r%s: %3u%% (%llu/%llu)", p->title,
			(unsigned)(done * 100 / p->total),
			(unsigned long long)done,
			(unsigned long long)p->total);
	else
		fprintf(stderr, "\r%s: %llu", p->title,
			(unsigned long long)done);
	if (p->throughput && secs > 0)
		fprintf(stderr, ", %.2f MiB | %.2f MiB/s", bytes / 1048576.0,
			bytes / 1048576.0 / secs);
	fprintf(stderr, "%s", end);
	p->shown = 1;
}

void
progress_tick(struct progress *p)
{
	uint64_t t;

	if (!p)
		return;
	t = now_ns();
	if (t - p->start_ns < PROGRESS_DELAY_NS ||
	    t - p->last_ns < PROGRESS_EVERY_NS)
		return;
	p->last_ns = t;
	draw(p, t, "\033[K");
}

void
progress_stop(struct progress **pp)
{
	struct progress *p = *pp;

	if (!p)
		return;
	if (p->shown)
		draw(p, now_ns(), ", done.\033[K\n");
	free(p);
	*pp = NULL;
}

int
progress_option(const struct option *opt, const char *arg, int unset)
{
	(void)opt;
	(void)arg;
	progress_setup(!unset);
	return 0;
}
