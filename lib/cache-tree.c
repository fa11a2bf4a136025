/*
 * cache-tree: the TREE extension's in-core form, its encoding, and
 * invalidation.  (Computing trees is in cache-tree-update.c.)
 */
#include "cache-tree.h"

#include "mempool.h"
#include "error.h"
#include "strbuf.h"

#define MAX_DEPTH 4096	/* deeper TREE data is treated as malformed */

static struct cache_tree *
node_new(struct arena *arena)
{
	struct cache_tree *t = arena_alloc(arena, sizeof(*t), 8);

	memset(t, 0, sizeof(*t));
	t->entry_count = -1;
	t->arena = arena;
	return t;
}

struct cache_tree *
cache_tree_new(void)
{
	struct arena *arena = xmalloc(sizeof(*arena));
	struct cache_tree *t;

	arena_init(arena);
	t = node_new(arena);
	t->is_root = 1;
	return t;
}

struct cache_tree *
cache_tree_new_node(struct cache_tree *parent)
{
	return node_new(parent->arena);
}

void
cache_tree_free(struct cache_tree *tree)
{
	struct arena *arena;

	if (!tree || !tree->is_root)
		return;
	arena = tree->arena;
	arena_release(arena);	/* tree included */
	free(arena);
}

/* Children order: shorter names first, then bytes. */
static int
sub_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	if (alen != blen)
		return alen < blen ? -1 : 1;
	return memcmp(a, b, alen);
}

/* Index of name among tree's children, or -(insert position + 1). */
static ssize_t
sub_pos(const struct cache_tree *tree, const char *name, size_t len)
{
	size_t lo = 0, hi = tree->subtree_nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct cache_tree_sub *s = tree->down[mid];
		int cmp = sub_cmp(name, len, s->name, s->namelen);

		if (!cmp)
			return mid;
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -(ssize_t)lo - 1;
}

struct cache_tree_sub *
cache_tree_sub(struct cache_tree *tree, const char *name, size_t len,
	       int create)
{
	struct cache_tree_sub *s;
	ssize_t pos = sub_pos(tree, name, len);

	if (pos >= 0)
		return tree->down[pos];
	if (!create)
		return NULL;
	pos = -pos - 1;
	if (tree->subtree_nr == tree->subtree_alloc) {
		/* the old array stays in the arena */
		size_t alloc = tree->subtree_alloc ? 2 * tree->subtree_alloc : 4;
		struct cache_tree_sub **down =
			arena_alloc(tree->arena, st_mult(alloc, sizeof(*down)), 8);

		if (tree->subtree_nr)
			memcpy(down, tree->down,
			       tree->subtree_nr * sizeof(*down));
		tree->down = down;
		tree->subtree_alloc = alloc;
	}
	memmove(tree->down + pos + 1, tree->down + pos,
		(tree->subtree_nr - pos) * sizeof(*tree->down));
	tree->subtree_nr++;
	s = arena_alloc(tree->arena, st_add(sizeof(*s), len + 1), 8);
	s->tree = NULL;
	s->count = 0;
	s->used = 0;
	s->namelen = len;
	memcpy(s->name, name, len);
	s->name[len] = '\0';
	tree->down[pos] = s;
	return s;
}

struct cursor {
	const unsigned char *p, *end;
};

/*
 * Up to 9 decimal digits at *pp, before end, into *v; 0 if there are none
 * or more (a value that may not fit is left to strtol()).
 */
static int
short_number(const unsigned char **pp, const unsigned char *end, long *v)
{
	const unsigned char *p = *pp, *start = p;

	*v = 0;
	for (; p < end && p - start < 10 && *p >= '0' && *p <= '9'; p++)
		*v = *v * 10 + (*p - '0');
	if (p == start || p - start > 9)
		return 0;
	*pp = p;
	return 1;
}

/*
 * The counts as git writes them ("-1" or up to 9 digits, one space, up
 * to 9 digits), read without strtol(), which per node of a linux-sized
 * tree was a visible part of reading the index.  Anything else takes the
 * strtol() path, so what is accepted does not change.
 */
static int
canonical_counts(const unsigned char *p, const unsigned char *nl,
		 long *count, long *subs)
{
	if (nl - p >= 3 && p[0] == '-' && p[1] == '1' && p[2] == ' ') {
		*count = -1;
		p += 2;
	} else if (!short_number(&p, nl, count)) {
		return 0;
	}
	if (p == nl || *p++ != ' ')
		return 0;
	return short_number(&p, nl, subs) && p == nl;
}

/* A node's counts line at c->p, which is left after it; 0 if malformed. */
static int
read_counts(struct cursor *c, long *count, long *subs)
{
	const unsigned char *nl;
	char *end;
	char num[64];

	nl = memchr(c->p, '\n', c->end - c->p);
	if (!nl || (size_t)(nl - c->p) >= sizeof(num))
		return 0;
	if (canonical_counts(c->p, nl, count, subs))
		goto counted;
	memcpy(num, c->p, nl - c->p);
	num[nl - c->p] = '\0';
	errno = 0;
	*count = strtol(num, &end, 10);
	if (errno || end == num || *end != ' ' || *count < -1 ||
	    *count > INT32_MAX)
		return 0;
	*subs = strtol(end + 1, &end, 10);
	if (errno || *end || *subs < 0 || *subs > INT32_MAX)
		return 0;
counted:
	c->p = nl + 1;
	return 1;
}

static struct cache_tree *
read_one(struct cursor *c, struct cache_tree *parent, int depth)
{
	struct cache_tree *t;
	long count, subs;

	if (depth > MAX_DEPTH || !read_counts(c, &count, &subs))
		return NULL;
	t = parent ? cache_tree_new_node(parent) : cache_tree_new();
	t->entry_count = count;
	if (count >= 0) {
		if (c->end - c->p < HASH_RAWSZ)
			goto bad;
		oid_from_raw(&t->oid, c->p);
		c->p += HASH_RAWSZ;
	}
	for (long i = 0; i < subs; i++) {
		const unsigned char *nul = memchr(c->p, '\0', c->end - c->p);
		struct cache_tree_sub *s;

		if (!nul)
			goto bad;
		s = cache_tree_sub(t, (const char *)c->p, nul - c->p, 1);
		if (s->tree)
			goto bad;	/* the same name twice */
		c->p = nul + 1;
		s->tree = read_one(c, t, depth + 1);
		if (!s->tree)
			goto bad;
	}
	return t;
bad:
	if (!parent)
		cache_tree_free(t);	/* the whole tree; a node is the root's */
	return NULL;
}

/*
 * Walk a node as read_one() would read it, building nothing: 1 if it and
 * everything below it are well formed, valid, and each node's children
 * named in their order without repeats (as git writes them); else 0.
 */
static int
peek_one(struct cursor *c, int depth)
{
	const unsigned char *prev = NULL;
	size_t prevlen = 0;
	long count, subs;

	if (depth > MAX_DEPTH || !read_counts(c, &count, &subs) || count < 0 ||
	    c->end - c->p < HASH_RAWSZ)
		return 0;
	c->p += HASH_RAWSZ;
	for (long i = 0; i < subs; i++) {
		const unsigned char *name = c->p;
		const unsigned char *nul = memchr(name, '\0', c->end - name);

		if (!nul || (prev && sub_cmp((const char *)prev, prevlen,
					     (const char *)name,
					     nul - name) >= 0))
			return 0;
		prev = name;
		prevlen = nul - name;
		c->p = nul + 1;
		if (!peek_one(c, depth + 1))
			return 0;
	}
	return 1;
}

struct cache_tree *
cache_tree_read_root(const void *buf, size_t len)
{
	struct cursor c = { buf, (const unsigned char *)buf + len };
	struct cursor root;
	struct cache_tree *t;
	long count, subs;

	if (!len || c.p[0] != '\0')
		return NULL;
	c.p++;
	root = c;
	if (!peek_one(&c, 0) || c.p != c.end || !read_counts(&root, &count,
							   &subs))
		return NULL;
	t = cache_tree_new();
	t->entry_count = count;
	oid_from_raw(&t->oid, root.p);
	return t;
}

struct cache_tree *
cache_tree_read(const void *buf, size_t len)
{
	struct cursor c = { buf, (const unsigned char *)buf + len };
	struct cache_tree *t;

	if (!len || c.p[0] != '\0')
		return NULL;	/* the root's name must be empty */
	c.p++;
	t = read_one(&c, NULL, 0);
	if (t && c.p != c.end) {
		cache_tree_free(t);
		t = NULL;
	}
	return t;
}

/*
 * "<entry_count> <subtree_nr>\n" as the extension spells a node's counts
 * (entry_count -1 when invalid) into buf; its length.  By hand: a
 * linux-sized tree has thousands of nodes and every write spells each
 * twice (size, then bytes), which snprintf made a visible cost.
 */
static size_t
put_counts(char buf[48], int entry_count, size_t subtree_nr)
{
	char tmp[24];
	size_t n = 0, k;
	unsigned long long v;

	if (entry_count < 0) {
		buf[n++] = '-';
		v = -(long long)entry_count;
	} else {
		v = entry_count;
	}
	for (int pass = 0; pass < 2; pass++) {
		k = 0;
		do {
			tmp[k++] = '0' + v % 10;
			v /= 10;
		} while (v);
		while (k)
			buf[n++] = tmp[--k];
		buf[n++] = pass ? '\n' : ' ';
		v = subtree_nr;
	}
	return n;
}

static void
encode_node(struct strbuf *out, const struct cache_tree *t)
{
	char num[48];

	strbuf_add(out, num, put_counts(num, t->entry_count, t->subtree_nr));
	if (t->entry_count >= 0)
		strbuf_add(out, t->oid.hash, HASH_RAWSZ);
	for (size_t i = 0; i < t->subtree_nr; i++) {
		const struct cache_tree_sub *s = t->down[i];

		strbuf_add(out, s->name, s->namelen + 1);
		encode_node(out, s->tree);
	}
}

void
cache_tree_encode(struct strbuf *out, const struct cache_tree *tree)
{
	strbuf_addch(out, '\0');
	encode_node(out, tree);
}

void
cache_tree_invalidate_path(struct cache_tree *tree, const char *path,
			   size_t len)
{
	while (tree) {
		const char *slash = memchr(path, '/', len);
		size_t clen = slash ? (size_t)(slash - path) : len;
		struct cache_tree_sub *s;

		tree->entry_count = -1;
		if (!slash) {
			ssize_t pos = sub_pos(tree, path, clen);

			if (pos >= 0) {
				/* its memory stays in the arena */
				memmove(tree->down + pos, tree->down + pos + 1,
					(tree->subtree_nr - pos - 1) *
					sizeof(*tree->down));
				tree->subtree_nr--;
			}
			return;
		}
		s = cache_tree_sub(tree, path, clen, 0);
		if (!s)
			return;
		tree = s->tree;
		path = slash + 1;
		len -= clen + 1;
	}
}

int
cache_tree_fully_valid(const struct cache_tree *tree)
{
	if (!tree || tree->entry_count < 0)
		return 0;
	for (size_t i = 0; i < tree->subtree_nr; i++)
		if (!cache_tree_fully_valid(tree->down[i]->tree))
			return 0;
	return 1;
}

struct cache_tree *
cache_tree_find(struct cache_tree *tree, const char *prefix, size_t len)
{
	while (tree && len) {
		const char *slash = memchr(prefix, '/', len);
		size_t clen = slash ? (size_t)(slash - prefix) : len;
		struct cache_tree_sub *s = cache_tree_sub(tree, prefix, clen, 0);

		if (!s)
			return NULL;
		tree = s->tree;
		if (!slash)
			break;
		prefix = slash + 1;
		len -= clen + 1;
	}
	return tree;
}
