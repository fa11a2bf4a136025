/*
 * tree-walk: the walk, and ls-tree's literal pathspec rules.
 *
 * One level holds its tree object (the entries' names and ids point
 * into it) while the callback runs and while the trees below are
 * walked; the path grows in one buffer shared by every level, so a walk
 * allocates per tree, never per entry.
 *
 * Matching an entry "<base><name>" (base "" or "a/b/") against an item
 * M, literally:
 *   |M| <= |base|: M covers the whole directory when base starts with M
 *                  and M ends there at a '/' (or is empty): every entry
 *                  below is visited, and nothing more is checked;
 *   |M| >  |base|: M must start with base; the rest R of M then names
 *                  the entry (R = name), or a directory on the way
 *                  (R = name "/" ...; a gitlink only for R = name "/").
 *
 * Reading the trees ahead on a second thread (in walk order, handed
 * over through a ring) was tried for ls-tree -r: on a linux-sized tree
 * the walk waits for every tree, and the hand-over (two futex calls a
 * tree) cost as much CPU as the inflating it moved, for no gain in
 * wall time on a loaded two-core machine.  One thread reads and walks.
 */
#include "tree-walk.h"

#include <sys/stat.h>

#include "error.h"
#include "odb.h"
#include "pathspec.h"
#include "strbuf.h"
#include "tree.h"

struct walk {
	struct odb *odb;
	const struct pathspec *ps;	/* NULL or no items: everything */
	tree_walk_fn fn;
	void *ctx;
	struct strbuf path;		/* "<base><name>" of the entry */
};

/* Does item m cover the directory base (with its slash) as a whole? */
static int
covers(const char *m, size_t mlen, const char *base, size_t baselen)
{
	if (mlen > baselen || memcmp(m, base, mlen))
		return 0;
	return !mlen || m[mlen - 1] == '/' || base[mlen] == '/';
}

/* Is base + name, of this mode, an item or on the way to one? */
static int
names_entry(const char *m, size_t mlen, const char *base, size_t baselen,
	    const char *name, size_t n, unsigned mode)
{
	const char *r = m + baselen;
	size_t rlen = mlen - baselen;

	if (mlen <= baselen || memcmp(m, base, baselen) || n > rlen)
		return 0;
	if (rlen > n) {
		if (r[n] != '/')
			return 0;
		if (!S_ISDIR(mode) && (!S_ISGITLINK(mode) || rlen > n + 1))
			return 0;
	}
	return !memcmp(r, name, n);
}

/*
 * The pathspec at the directory base: 1 if it covers the directory as a
 * whole, else 0 (entries are matched one by one).
 */
static int
all_below(const struct pathspec *ps, const char *base, size_t baselen)
{
	if (!ps || !ps->nr)
		return 1;
	for (size_t i = 0; i < ps->nr; i++)
		if (covers(ps->items[i].match, ps->items[i].len, base,
			   baselen))
			return 1;
	return 0;
}

static int
wanted(const struct pathspec *ps, const char *base, size_t baselen,
       const struct tree_entry *e)
{
	for (size_t i = 0; i < ps->nr; i++)
		if (names_entry(ps->items[i].match, ps->items[i].len, base,
				baselen, e->name, e->namelen, e->mode))
			return 1;
	return 0;
}

/*
 * A tree object as the walk reads it: the object store's errors, "Could
 * not read <id>" for one that is not stored, "Object <id> not a tree",
 * and git's first check of a tree (its last entry must end in
 * "\0<id>").  0 or a negative E_*; obj is released on failure.
 */
static int
read_tree(struct odb_object *obj, struct odb *odb,
	  const struct object_id *oid)
{
	int ret = odb_read(obj, odb, oid, 0);

	if (ret == -E_NOTFOUND)
		return error_set(E_NOTFOUND, "Could not read %s",
				 oid_to_hex(oid));
	if (ret < 0)
		return ret;
	if (obj->type != OBJ_TREE)
		ret = error_set(E_INVALID, "Object %s not a tree",
				oid_to_hex(oid));
	else if (obj->size && (obj->size < 3 + (size_t)HASH_RAWSZ ||
			       obj->data[obj->size - (HASH_RAWSZ + 1)]))
		ret = error_set(E_CORRUPT, "too-short tree object");
	if (ret < 0)
		odb_object_release(obj);
	return ret;
}

/*
 * The entries of one tree the walk visits, in order, as git decodes
 * them: the entry after the current one is decoded first.
 */
struct scan {
	struct tree_iter it;
	struct tree_entry next;
	int more;		/* tree_iter_next()'s last answer */
	int all;		/* the pathspec covers the whole tree */
	const struct pathspec *ps;
	const struct strbuf *path;	/* starts with the base (it may move
					 * and grow: only its first baselen
					 * bytes are read) */
	size_t baselen;
};

static void
scan_init(struct scan *s, const struct odb_object *obj,
	  const struct pathspec *ps, const struct strbuf *path)
{
	memset(s, 0, sizeof(*s));
	tree_iter_init(&s->it, obj->data, obj->size);
	s->more = tree_iter_next(&s->it, &s->next);
	s->all = all_below(ps, path->buf, path->len);
	s->ps = ps;
	s->path = path;
	s->baselen = path->len;
}

/* The next entry to visit into cur: 1, 0 at the end, or a negative E_*. */
static int
scan_next(struct scan *s, struct tree_entry *cur)
{
	while (s->more > 0) {
		*cur = s->next;
		s->more = tree_iter_next(&s->it, &s->next);
		if (s->more < 0)
			return s->more;
		if (s->all || wanted(s->ps, s->path->buf, s->baselen, cur))
			return 1;
	}
	return s->more;
}

/* ---- the walk ---- */

static int
walk_tree(struct walk *w, const struct object_id *oid)
{
	struct odb_object obj = ODB_OBJECT_INIT;
	struct tree_entry cur;
	struct scan s;
	size_t base = w->path.len;
	int ret;

	ret = read_tree(&obj, w->odb, oid);
	if (ret < 0)
		return ret;
	scan_init(&s, &obj, w->ps, &w->path);
	while ((ret = scan_next(&s, &cur)) > 0) {
		struct tree_walk_entry we;

		strbuf_setlen(&w->path, base);
		strbuf_add(&w->path, cur.name, cur.namelen);
		we.path = w->path.buf;
		we.len = w->path.len;
		we.base = base;
		we.mode = cur.mode;
		we.oid = cur.oid;
		ret = w->fn(&we, w->ctx);
		if (ret < 0)
			break;
		if (ret == TREE_WALK_RECURSE && S_ISDIR(cur.mode)) {
			strbuf_addch(&w->path, '/');
			ret = walk_tree(w, cur.oid);
			if (ret < 0)
				break;
		}
	}
	strbuf_setlen(&w->path, base);
	odb_object_release(&obj);
	return ret < 0 ? ret : 0;
}

int
tree_walk(struct odb *odb, const struct object_id *oid,
	  const struct pathspec *ps, tree_walk_fn fn, void *ctx)
{
	struct walk w = { odb, ps, fn, ctx, STRBUF_INIT };
	int ret;

	strbuf_grow(&w.path, 256);
	ret = walk_tree(&w, oid);
	strbuf_release(&w.path);
	return ret;
}

int
tree_walk_item_below(const struct pathspec *ps, const char *path,
		     size_t len)
{
	if (!ps)
		return 0;
	for (size_t i = 0; i < ps->nr; i++) {
		const struct pathspec_item *it = &ps->items[i];

		if (it->len > len && it->match[len] == '/' &&
		    !memcmp(it->match, path, len))
			return 1;
	}
	return 0;
}
