/*
 * cache-tree-update: computing tree objects from the index (write-tree)
 * and priming a valid cache-tree from a tree (read-tree).
 *
 * A node whose count is valid and whose tree object exists is taken as
 * it is: only invalid nodes are rebuilt, so after a one-file change only
 * the directories on that path are hashed again.  Blob existence is
 * checked through odb_has_cached (one listing per fan-out directory
 * instead of one probe per blob).
 */
#include "cache-tree.h"

#include <sys/stat.h>

#include "error.h"
#include "index.h"
#include "odb.h"
#include "path.h"
#include "strbuf.h"
#include "trace.h"
#include "trace2.h"
#include "tree.h"
#include "workers.h"

/* One directory whose tree must be computed. */
struct task {
	struct cache_tree *t;
	struct index_entry **entries;	/* the directory's entries */
	size_t n;
	size_t baselen;			/* its path with the slash */
	int depth;
	int failed;			/* -1 after an error */
	struct error_saved err;
	char *msg;			/* git's error line, or NULL */
};

struct updater {
	struct index *idx;
	struct odb *odb;
	unsigned flags;
	int parallel;		/* existence checks must be thread-safe */
	struct task *tasks;	/* post-order: children before parents */
	size_t nr, alloc;
	int max_depth;
	struct strbuf *bufs;	/* one per thread */
	struct odb_writer *writers;	/* one per thread ([0] unused) */
	size_t *order;		/* task indexes of the current level */
	unsigned bad_paths;	/* entries refused by plan() */
};

/*
 * Only a damaged or hostile index holds a name like "", "/x", "a//b",
 * "." or ".git/x": refuse it rather than build a tree of it (git writes
 * one, or dies of an empty sub-tree).  plan() checks every entry that
 * lies directly in a directory it will rebuild, and the first entry of
 * each of their sub-directories (which carries the sub-directory's
 * name), so every name that goes into a new tree is checked; a valid
 * node's entries build nothing and are not walked.
 */
static int
path_ok(struct updater *u, const struct index_entry *e)
{
	if (path_verify(e->name, e->mode, 0))
		return 1;
	if (++u->bad_paths <= 10)
		diag_emit(DIAG_ERROR, "invalid path '%s'", e->name);
	else if (u->bad_paths == 11)
		diag_emit(DIAG_PLAIN, "...");
	return 0;
}

/* "a" and "a/..." side by side: a file that is also a directory. */
static int
file_and_dir(const struct index_entry *a, const struct index_entry *b)
{
	return a->namelen < b->namelen && b->name[a->namelen] == '/' &&
	       !memcmp(a->name, b->name, a->namelen);
}

static int
verify_index(const struct index *idx)
{
	unsigned funny = 0;
	size_t k;

	/* one pass for the common case, a clean index */
	for (k = 0; k < idx->nr; k++)
		if (ce_stage(idx->entries[k]) ||
		    (k + 1 < idx->nr &&
		     file_and_dir(idx->entries[k], idx->entries[k + 1])))
			break;
	if (k == idx->nr)
		return 0;

	for (size_t i = 0; i < idx->nr; i++) {
		const struct index_entry *e = idx->entries[i];

		if (!ce_stage(e))
			continue;
		if (++funny > 10) {
			diag_emit(DIAG_PLAIN, "...");
			break;
		}
		diag_emit(DIAG_PLAIN, "%s: unmerged (%s)", e->name,
			  oid_to_hex(&e->oid));
	}
	if (funny)
		return -1;
	for (size_t i = 0; i + 1 < idx->nr; i++) {
		const struct index_entry *a = idx->entries[i];
		const struct index_entry *b = idx->entries[i + 1];

		if (file_and_dir(a, b)) {
			if (++funny > 10) {
				diag_emit(DIAG_PLAIN, "...");
				break;
			}
			diag_emit(DIAG_PLAIN, "You have both %s and %s", a->name,
				  b->name);
		}
	}
	return funny ? -1 : 0;
}

static int
exists(struct updater *u, const struct object_id *oid)
{
	/* odb_has_cached lists directories lazily: one thread only */
	return u->parallel ? odb_has(u->odb, oid) : odb_has_cached(u->odb, oid);
}

/*
 * Phase one, in one thread: find the directories whose trees must be
 * computed (invalid nodes, or valid ones whose tree is not stored),
 * create and drop child nodes to match the index, and list them
 * children first.  Returns the number of index entries under base.
 */
static size_t
plan(struct updater *u, struct cache_tree *t, struct index_entry **entries,
     size_t n, const char *base, size_t baselen, int depth)
{
	size_t i, keep;

	if (t->entry_count >= 0 && !(u->flags & CACHE_TREE_IGNORE_VALID) &&
	    odb_has_cached(u->odb, &t->oid))
		return t->entry_count;
	for (size_t k = 0; k < t->subtree_nr; k++)
		t->down[k]->used = 0;
	for (i = 0; i < n;) {
		const struct index_entry *e = entries[i];
		const char *slash;
		struct cache_tree_sub *sub;
		size_t sublen, subcnt;

		if (e->namelen <= baselen || memcmp(e->name, base, baselen))
			break;
		if (!(u->flags & CACHE_TREE_SILENT) && !path_ok(u, e)) {
			i++;
			continue;
		}
		slash = memchr(e->name + baselen, '/', e->namelen - baselen);
		if (!slash) {
			i++;
			continue;
		}
		sublen = slash - (e->name + baselen);
		sub = cache_tree_sub(t, e->name + baselen, sublen, 1);
		if (!sub->tree)
			sub->tree = cache_tree_new_node(t);
		subcnt = plan(u, sub->tree, entries + i, n - i, e->name,
			      baselen + sublen + 1, depth + 1);
		if (!subcnt)
			BUG("index cache-tree records empty sub-tree");
		sub->count = subcnt;
		sub->used = 1;
		i += subcnt;
	}
	/* drop children no entry lives in any more */
	keep = 0;
	for (size_t k = 0; k < t->subtree_nr; k++) {
		if (t->down[k]->used)
			t->down[keep++] = t->down[k];
		/* else: dropped; its memory stays in the tree's arena */
	}
	t->subtree_nr = keep;
	t->entry_count = -1;	/* computed in phase two */
	ALLOC_GROW(u->tasks, u->nr + 1, u->alloc);
	memset(&u->tasks[u->nr], 0, sizeof(u->tasks[u->nr]));
	u->tasks[u->nr].t = t;
	u->tasks[u->nr].entries = entries;
	u->tasks[u->nr].n = i;
	u->tasks[u->nr].baselen = baselen;
	u->tasks[u->nr].depth = depth;
	u->nr++;
	if (depth > u->max_depth)
		u->max_depth = depth;
	return i;
}

static void
task_fail(struct task *task, char *msg)
{
	task->failed = -1;
	task->msg = msg;
}

/* Phase two: one directory's tree, its children done already. */
static void
compute(struct updater *u, struct task *task, int thread)
{
	struct cache_tree *t = task->t;
	struct strbuf *buf = &u->bufs[thread];
	struct odb_writer *w = thread ? &u->writers[thread] :
		&u->odb->writer;
	int missing_ok = u->flags & CACHE_TREE_MISSING_OK;
	int to_invalidate = 0;
	size_t i, baselen = task->baselen;

	strbuf_reset(buf);
	for (i = 0; i < task->n;) {
		const struct index_entry *e = task->entries[i];
		const struct object_id *oid;
		const char *slash;
		struct cache_tree_sub *sub = NULL;
		size_t entlen;
		unsigned mode;
		int contains_ita = 0, ok_missing;

		slash = memchr(e->name + baselen, '/', e->namelen - baselen);
		if (slash) {
			entlen = slash - (e->name + baselen);
			sub = cache_tree_sub(t, e->name + baselen, entlen, 0);
			if (!sub)
				BUG("cache-tree: '%.*s' in '%s' not found",
				    (int)entlen, e->name + baselen, e->name);
			i += sub->count;
			oid = &sub->tree->oid;
			mode = S_IFDIR;
			contains_ita = sub->tree->entry_count < 0;
			if (contains_ita)
				to_invalidate = 1;
		} else {
			oid = &e->oid;
			mode = e->mode;
			entlen = e->namelen - baselen;
			i++;
		}
		ok_missing = S_ISGITLINK(mode) || missing_ok ||
			     (sub && !(u->flags & CACHE_TREE_REPAIR));
		if (oid_is_null(oid) || (!ok_missing && !exists(u, oid))) {
			struct strbuf m = STRBUF_INIT;

			if (!contains_ita && !(u->flags & CACHE_TREE_SILENT))
				strbuf_addf(&m, "invalid object %06o %s for "
					    "'%.*s'", mode, oid_to_hex(oid),
					    (int)(baselen + entlen), e->name);
			task_fail(task, m.len ? strbuf_detach(&m, NULL) : NULL);
			strbuf_release(&m);
			return;
		}
		if (!sub && e->ext_flags & CE_INTENT_TO_ADD) {
			to_invalidate = 1;
			continue;
		}
		if (contains_ita && oideq(oid, &empty_tree_oid))
			continue;
		strbuf_addf(buf, "%o ", mode);
		strbuf_add(buf, e->name + baselen, entlen);
		strbuf_addch(buf, '\0');
		strbuf_add(buf, oid->hash, HASH_RAWSZ);
	}
	trace_count(TC_TREES_WRITTEN, 1);
	if (u->flags & CACHE_TREE_REPAIR) {
		odb_hash(&t->oid, "tree", buf->buf, buf->len);
		if (!exists(u, &t->oid))
			to_invalidate = 1;
	} else if (u->flags & CACHE_TREE_DRY_RUN) {
		odb_hash(&t->oid, "tree", buf->buf, buf->len);
	} else if (odb_write(u->odb, w, "tree", buf->buf, buf->len,
			     &t->oid) < 0) {
		task_fail(task, xstrdup(error_msg()));
		return;
	}
	t->entry_count = to_invalidate ? -1 : (int)i;
}

static void
compute_one(void *ctx, size_t k, int thread)
{
	struct updater *u = ctx;

	compute(u, &u->tasks[u->order[k]], thread);
}

/* Below this many trees to compute, threads are not worth starting. */
#define PARALLEL_MIN_TREES 64

int
cache_tree_update(struct index *idx, struct odb *odb, unsigned flags,
		  int threads)
{
	struct updater u = { .idx = idx, .odb = odb, .flags = flags };
	uint64_t start = trace_now();
	int n, ret = 0;

	if (flags & CACHE_TREE_SILENT) {
		for (size_t i = 0; i < idx->nr; i++) {
			if (ce_stage(idx->entries[i]))
				return -E_CONFLICT;
			if (!path_verify(idx->entries[i]->name,
					 idx->entries[i]->mode, 0))
				return -E_CORRUPT;
		}
	}
	if (!idx->tree)
		idx->tree = cache_tree_new();
	plan(&u, idx->tree, idx->entries, idx->nr, "", 0, 0);
	if (u.bad_paths || (!(flags & CACHE_TREE_SILENT) &&
			    verify_index(idx) < 0)) {
		free(u.tasks);
		return error_set(E_CONFLICT, "git-write-tree: error building "
				 "trees");
	}

	/* git's region, where git has it: after the checks */
	trace2_region_enter("cache_tree", "update");
	n = u.nr < PARALLEL_MIN_TREES ? 1 :
		workers_count(threads, 0, u.nr, PARALLEL_MIN_TREES / 2);
	u.parallel = n > 1;
	if (u.parallel) {
		/* read-only from here on: packs and the loose listing */
		odb_prepare_packs(odb);
		odb_list_loose(odb);
	}
	u.bufs = xcalloc(n, sizeof(*u.bufs));
	u.writers = xcalloc(n, sizeof(*u.writers));
	for (int k = 0; k < n; k++) {
		strbuf_init(&u.bufs[k], 0);
		if (k)
			odb_writer_init(&u.writers[k], odb->level);
	}
	u.order = xmalloc(st_mult(u.nr + 1, sizeof(*u.order)));
	/* deepest directories first: each level only needs the one below */
	for (int depth = u.max_depth; depth >= 0; depth--) {
		size_t cnt = 0;

		for (size_t k = 0; k < u.nr; k++)
			if (u.tasks[k].depth == depth)
				u.order[cnt++] = k;
		workers_run(cnt < PARALLEL_MIN_TREES ? 1 : n, cnt, compute_one,
			    &u);
	}
	/* the first failure as git meets them: children before parents */
	for (size_t k = 0; k < u.nr; k++) {
		if (!u.tasks[k].failed)
			continue;
		if (u.tasks[k].msg)
			diag_emit(DIAG_ERROR, "%s", u.tasks[k].msg);
		ret = -1;
		break;
	}
	for (size_t k = 0; k < u.nr; k++)
		free(u.tasks[k].msg);
	for (int k = 0; k < n; k++) {
		strbuf_release(&u.bufs[k]);
		if (k)
			odb_writer_release(&u.writers[k]);
	}
	free(u.bufs);
	free(u.writers);
	free(u.order);
	free(u.tasks);
	trace2_region_leave("cache_tree", "update");
	trace_phase("update cache-tree", start);
	if (ret < 0)
		return error_set(E_CONFLICT, "git-write-tree: error building "
				 "trees");
	return 0;
}

/* ---- priming from a tree (read-tree) ---- */

static int
prime(struct odb *odb, struct cache_tree *t, const struct object_id *oid,
      int depth)
{
	struct odb_object obj;
	struct tree_iter it;
	struct tree_entry e;
	int ret, count = 0;

	if (depth > 4096)
		return error_set(E_CORRUPT, "tree %s nests too deeply",
				 oid_to_hex(oid));
	ret = odb_read(&obj, odb, oid, 0);
	if (ret < 0)
		return ret;
	if (obj.type != OBJ_TREE) {
		odb_object_release(&obj);
		return error_set(E_CORRUPT, "object %s is a %s, not a tree",
				 oid_to_hex(oid), type_name(obj.type));
	}
	oidcpy(&t->oid, oid);
	tree_iter_init(&it, obj.data, obj.size);
	while ((ret = tree_iter_next(&it, &e)) > 0) {
		if (S_ISDIR(e.mode)) {
			struct cache_tree_sub *sub =
				cache_tree_sub(t, e.name, e.namelen, 1);

			if (!sub->tree)
				sub->tree = cache_tree_new_node(t);
			ret = prime(odb, sub->tree, e.oid, depth + 1);
			if (ret < 0)
				break;
			count += sub->tree->entry_count;
		} else {
			count++;
		}
	}
	odb_object_release(&obj);
	if (ret < 0)
		return ret;
	t->entry_count = count;
	return 0;
}

int
cache_tree_prime(struct index *idx, struct odb *odb,
		 const struct object_id *root)
{
	int ret;

	cache_tree_free(idx->tree);
	idx->tree = cache_tree_new();
	ret = prime(odb, idx->tree, root, 0);
	if (ret < 0) {
		cache_tree_free(idx->tree);
		idx->tree = NULL;
	}
	return ret;
}
