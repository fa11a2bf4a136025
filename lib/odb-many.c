/*
 * odb-many: a fork-join round per call over the items not read yet.
 * Workers take items in ascending order (workers.h hands them out in
 * small batches), so the items done form a prefix but for the ones in
 * flight when the budget ran out; those stay done for the next call.
 */
#include "odb-many.h"

#include <stdatomic.h>

#include "error.h"
#include "workers.h"

#define ITEMS_PER_THREAD 4	/* below this, fewer threads */

struct round {
	struct odb_many *m;
	struct odb_many_item *items;
	atomic_size_t held;		/* bytes of data read this round */
};

static void
read_one(void *ctx, size_t i, int thread)
{
	struct round *r = ctx;
	struct odb_many_item *it = &r->items[i];
	struct odb *odb = r->m->odb;

	(void)thread;
	if (it->done)
		return;
	/* the first item is always read, so that every round advances */
	if (i && atomic_load_explicit(&r->held, memory_order_relaxed) >=
		 ODB_MANY_BUDGET)
		return;
	it->obj = (struct odb_object)ODB_OBJECT_INIT;
	if (r->m->info_only) {
		it->ret = odb_read_info(&it->obj.type, &it->obj.size,
					it->obj.type_name,
					sizeof(it->obj.type_name), odb,
					&it->oid, ODB_READ_NO_REPLACE);
	} else {
		it->ret = odb_read(&it->obj, odb, &it->oid,
				   ODB_READ_NO_REPLACE);
		if (!it->ret)
			atomic_fetch_add_explicit(&r->held, it->obj.size,
						  memory_order_relaxed);
	}
	if (it->ret == -E_CORRUPT)
		error_save(&it->err);
	if (it->ret < 0)
		error_clear();
	it->done = 1;
}

void
odb_many_init(struct odb_many *m, struct odb *odb, int nthreads,
	      int info_only)
{
	m->odb = odb;
	m->nthreads = nthreads < 1 ? 1 : nthreads;
	m->info_only = info_only;
	m->cache = info_only ? NULL : pack_cache_new_shared();
	odb_prepare_threads(odb);
}

size_t
odb_many_read(struct odb_many *m, struct odb_many_item *items, size_t nr)
{
	struct round r = { .m = m, .items = items };
	size_t todo = 0, done = 0;
	int n;

	for (size_t i = 0; i < nr; i++) {
		if (items[i].skip)
			items[i].done = 1;
		todo += !items[i].done;
	}
	n = todo / ITEMS_PER_THREAD < (size_t)m->nthreads ?
		(int)(todo / ITEMS_PER_THREAD) : m->nthreads;
	atomic_init(&r.held, 0);
	m->odb->env.shared = m->cache;
	workers_run(n < 1 ? 1 : n, nr, read_one, &r);
	m->odb->env.shared = NULL;
	while (done < nr && items[done].done)
		done++;
	return done;
}

void
odb_many_release(struct odb_many *m)
{
	pack_cache_free(m->cache);
	m->cache = NULL;
}
