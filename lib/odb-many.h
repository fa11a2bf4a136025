/*
 * odb-many: read many objects at once on the worker pool (workers.h),
 * for a caller that answers them in its own order afterwards (cat-file's
 * batches).  Every thread reads through one shared delta base cache
 * (pack.h), so a base that several objects need is inflated once, not
 * once per thread.
 *
 * A call reads a prefix of the items it is given: the objects' data a
 * call holds is bounded (ODB_MANY_BUDGET), so the caller answers what
 * was read, frees it, and calls again for the rest; items already read
 * are not read twice.
 */
#ifndef DIRC_ODB_MANY_H
#define DIRC_ODB_MANY_H

#include "odb.h"

#define ODB_MANY_BUDGET (1u << 20)	/* bytes of data one call holds */

struct odb_many_item {
	struct object_id oid;	/* in: read as stored (no replacement) */
	int skip;		/* in: not to be read (the caller answers it
				 * another way) */
	int done;		/* out: read (or skipped) */
	int ret;		/* out: 0 or a negative E_*; the error itself
				 * is not kept (read the object again to
				 * report it) except for -E_CORRUPT: a
				 * corrupt copy is skipped from then on */
	struct error_saved err;	/* out: why, with -E_CORRUPT (the caller
				 * releases it) */
	struct odb_object obj;	/* out: the object; with info only, its
				 * type, type_name and size (data NULL) */
};

struct odb_many {
	struct odb *odb;
	int nthreads;
	int info_only;		/* type and size only, no data */
	struct pack_cache *cache;	/* owned; shared by the threads */
};

/*
 * Set up for reading from odb on nthreads threads (see workers_count),
 * whole objects or (info_only) their type and size.  Maps the packs.
 */
void odb_many_init(struct odb_many *m, struct odb *odb, int nthreads,
		   int info_only);

/*
 * Read items[0..nr) that are not done yet, until the budget is held;
 * returns how many items from the start are done (at least one if nr
 * is not 0).  Uses fewer threads for few items (one for a handful, so
 * that a reader asking for one object at a time starts no thread).
 */
size_t odb_many_read(struct odb_many *m, struct odb_many_item *items,
		     size_t nr);

/* Free the shared cache. */
void odb_many_release(struct odb_many *m);

#endif
