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
#include "strbuf.h"
#include "trace.h"
#include "tree.h"

struct updater {
	struct index *idx;
	struct odb *odb;
	unsigned flags;
	struct strbuf buf;	/* tree payload scratch */
};

static int
verify_index(const struct index *idx)
{
	unsigned funny = 0;

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

		if (a->namelen < b->namelen && b->name[a->namelen] == '/' &&
		    !memcmp(a->name, b->name, a->namelen)) {
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
	return odb_has_cached(u->odb, oid);
}

/*
 * Bring node t for directory base (baselen bytes, with its trailing
 * slash) up to date over entries [0, n).  Returns the number of index
 * entries the directory covers, or -1 after an error message.
 */
static ssize_t
update_one(struct updater *u, struct cache_tree *t,
	   struct index_entry **entries, size_t n, const char *base,
	   size_t baselen, size_t *skip_count)
{
	int missing_ok = u->flags & CACHE_TREE_MISSING_OK;
	int to_invalidate = 0;
	size_t i, keep;

	*skip_count = 0;
	if (t->entry_count >= 0 && !(u->flags & CACHE_TREE_IGNORE_VALID) &&
	    exists(u, &t->oid))
		return t->entry_count;

	/* update the subtrees, marking those still used */
	for (size_t k = 0; k < t->subtree_nr; k++)
		t->down[k]->used = 0;
	for (i = 0; i < n;) {
		const struct index_entry *e = entries[i];
		const char *slash;
		struct cache_tree_sub *sub;
		size_t subskip, sublen;
		ssize_t subcnt;

		if (e->namelen <= baselen || memcmp(e->name, base, baselen))
			break;
		slash = memchr(e->name + baselen, '/', e->namelen - baselen);
		if (!slash) {
			i++;
			continue;
		}
		sublen = slash - (e->name + baselen);
		sub = cache_tree_sub(t, e->name + baselen, sublen, 1);
		if (!sub->tree)
			sub->tree = cache_tree_new();
		subcnt = update_one(u, sub->tree, entries + i, n - i, e->name,
				    baselen + sublen + 1, &subskip);
		if (subcnt < 0)
			return subcnt;
		if (!subcnt)
			BUG("index cache-tree records empty sub-tree");
		sub->count = subcnt;
		sub->used = 1;
		i += subcnt;
		*skip_count += subskip;
	}
	/* drop children no entry lives in any more */
	keep = 0;
	for (size_t k = 0; k < t->subtree_nr; k++) {
		if (t->down[k]->used) {
			t->down[keep++] = t->down[k];
		} else {
			cache_tree_free(t->down[k]->tree);
			free(t->down[k]);
		}
	}
	t->subtree_nr = keep;

	/* this level's tree */
	strbuf_reset(&u->buf);
	for (i = 0; i < n;) {
		const struct index_entry *e = entries[i];
		const struct object_id *oid;
		const char *slash;
		struct cache_tree_sub *sub = NULL;
		size_t entlen;
		unsigned mode;
		int contains_ita = 0, ok_missing;

		if (e->namelen <= baselen || memcmp(e->name, base, baselen))
			break;
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
			if (contains_ita || u->flags & CACHE_TREE_SILENT)
				return -1;
			diag_emit(DIAG_ERROR, "invalid object %06o %s for "
				  "'%.*s'", mode, oid_to_hex(oid),
				  (int)(baselen + entlen), e->name);
			return -1;
		}
		if (e->state & CE_REMOVE) {
			(*skip_count)++;
			continue;
		}
		if (!sub && e->ext_flags & CE_INTENT_TO_ADD) {
			to_invalidate = 1;
			continue;
		}
		if (contains_ita && oideq(oid, &empty_tree_oid))
			continue;
		strbuf_addf(&u->buf, "%o ", mode);
		strbuf_add(&u->buf, e->name + baselen, entlen);
		strbuf_addch(&u->buf, '\0');
		strbuf_add(&u->buf, oid->hash, HASH_RAWSZ);
	}
	trace_count(TC_TREES_WRITTEN, 1);
	if (u->flags & CACHE_TREE_REPAIR) {
		odb_hash(&t->oid, "tree", u->buf.buf, u->buf.len);
		if (!exists(u, &t->oid))
			to_invalidate = 1;
	} else if (u->flags & CACHE_TREE_DRY_RUN) {
		odb_hash(&t->oid, "tree", u->buf.buf, u->buf.len);
	} else {
		int w = odb_write(u->odb, &u->odb->writer, "tree", u->buf.buf,
				  u->buf.len, &t->oid);

		if (w < 0) {
			diag_emit(DIAG_ERROR, "%s", error_msg());
			return -1;
		}
	}
	t->entry_count = to_invalidate ? -1 : (int)(i - *skip_count);
	return i;
}

int
cache_tree_update(struct index *idx, struct odb *odb, unsigned flags)
{
	struct updater u = { idx, odb, flags, STRBUF_INIT };
	uint64_t start = trace_now();
	size_t skip;
	ssize_t ret;

	if (flags & CACHE_TREE_SILENT) {
		for (size_t i = 0; i < idx->nr; i++)
			if (ce_stage(idx->entries[i]))
				return -E_CONFLICT;
	} else if (verify_index(idx) < 0) {
		return error_set(E_CONFLICT, "git-write-tree: error building "
				 "trees");
	}
	if (!idx->tree)
		idx->tree = cache_tree_new();
	ret = update_one(&u, idx->tree, idx->entries, idx->nr, "", 0, &skip);
	strbuf_release(&u.buf);
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
	t->oid = *oid;
	tree_iter_init(&it, obj.data, obj.size);
	while ((ret = tree_iter_next(&it, &e)) > 0) {
		if (S_ISDIR(e.mode)) {
			struct cache_tree_sub *sub =
				cache_tree_sub(t, e.name, e.namelen, 1);

			if (!sub->tree)
				sub->tree = cache_tree_new();
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
