/*
 * fuzz-cache-tree: the TREE extension's data (what follows "TREE" and
 * its size in an index) through cache_tree_read().
 *
 * cache_tree_read_root() gives a root only where cache_tree_read() gives
 * a fully valid tree with that root, and always for the encoding of one.
 *
 * Invariants checked on data that parses:
 *   - its encoding (cache_tree_encode) reads back into the same tree,
 *     and encodes again to the same bytes;
 *   - every node is found by cache_tree_find() under its path, and
 *     invalidating that path leaves its parents invalid and the node
 *     gone.
 */
#include "fuzz.h"

#include "cache-tree.h"
#include "error.h"

static void
same_tree(const struct cache_tree *a, const struct cache_tree *b)
{
	if (a->entry_count != b->entry_count ||
	    a->subtree_nr != b->subtree_nr)
		BUG("a node changed its counts");
	if (a->entry_count >= 0 && !oideq(&a->oid, &b->oid))
		BUG("a node changed its id");
	for (size_t i = 0; i < a->subtree_nr; i++) {
		const struct cache_tree_sub *x = a->down[i], *y = b->down[i];

		if (x->namelen != y->namelen ||
		    memcmp(x->name, y->name, x->namelen))
			BUG("a subtree changed its name");
		same_tree(x->tree, y->tree);
	}
}

/*
 * Find every node below t (whose path is path) from the root; count
 * the paths that contain no '/' (only those can be addressed).
 */
static void
find_all(struct cache_tree *root, const struct cache_tree *t,
	 struct strbuf *path, size_t *paths, size_t depth)
{
	size_t len = path->len;

	for (size_t i = 0; i < t->subtree_nr; i++) {
		const struct cache_tree_sub *s = t->down[i];

		if (memchr(s->name, '/', s->namelen) || !s->namelen)
			continue;
		if (len)
			strbuf_addch(path, '/');
		strbuf_add(path, s->name, s->namelen);
		if (cache_tree_find(root, path->buf, path->len) != s->tree)
			BUG("cache_tree_find('%s') missed", path->buf);
		(*paths)++;
		if (depth < 64)
			find_all(root, s->tree, path, paths, depth + 1);
		strbuf_setlen(path, len);
	}
}

/* Invalidate the first addressable leaf path; check what changed. */
static void
invalidate_one(struct cache_tree *root)
{
	struct strbuf path = STRBUF_INIT;
	struct cache_tree *t = root;

	while (t->subtree_nr) {
		const struct cache_tree_sub *s = t->down[0];

		if (memchr(s->name, '/', s->namelen) || !s->namelen)
			break;
		if (path.len)
			strbuf_addch(&path, '/');
		strbuf_add(&path, s->name, s->namelen);
		t = s->tree;
	}
	if (path.len) {
		cache_tree_invalidate_path(root, path.buf, path.len);
		if (root->entry_count != -1)
			BUG("invalidating '%s' left the root valid", path.buf);
		if (cache_tree_find(root, path.buf, path.len))
			BUG("invalidating '%s' kept its node", path.buf);
	}
	strbuf_release(&path);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf one = STRBUF_INIT, two = STRBUF_INIT, path = STRBUF_INIT;
	struct cache_tree *t = cache_tree_read(data, size), *again, *root;
	size_t paths = 0;

	/* the root alone: only where the whole reads, valid, same root */
	root = cache_tree_read_root(data, size);
	if (root && (!t || !cache_tree_fully_valid(t) ||
		     root->entry_count != t->entry_count ||
		     !oideq(&root->oid, &t->oid) || root->subtree_nr))
		BUG("cache_tree_read_root() and cache_tree_read() disagree");
	cache_tree_free(root);
	if (!t)
		return 0;
	cache_tree_encode(&one, t);
	again = cache_tree_read(one.buf, one.len);
	if (!again)
		BUG("the encoding of a parsed TREE does not parse");
	/* and wherever the bytes are git's own encoding of a valid tree */
	root = cache_tree_read_root(one.buf, one.len);
	if (!root != !cache_tree_fully_valid(t))
		BUG("cache_tree_read_root() misses a valid tree as git writes it");
	cache_tree_free(root);
	same_tree(t, again);
	cache_tree_encode(&two, again);
	if (one.len != two.len || memcmp(one.buf, two.buf, one.len))
		BUG("encoding the TREE twice gives different bytes");
	find_all(t, t, &path, &paths, 0);
	cache_tree_fully_valid(t);
	invalidate_one(t);

	cache_tree_free(again);
	cache_tree_free(t);
	strbuf_release(&one);
	strbuf_release(&two);
	strbuf_release(&path);
	return 0;
}
