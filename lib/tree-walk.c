/*
 * tree-walk: the walk, ls-tree's literal pathspec rules, and reading
 * ahead.
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
 * Reading ahead (TREE_WALK_EVERY_DIR): a reader thread walks the same
 * trees depth first with the same rules, and hands each tree object it
 * read (or the error reading it gave) to the walk through a ring of
 * READ_AHEAD slots, in the order the walk asks for them; it stops going
 * down a tree where the walk would stop (an error, a malformed entry).
 * The walk checks that each tree it takes is the one it wants; if not
 * (a callback that did not go down after all), it stops the reader and
 * reads for itself from there.
 */
#include "tree-walk.h"

#include <pthread.h>
#include <sys/stat.h>

#include "error.h"
#include "odb.h"
#include "pathspec.h"
#include "strbuf.h"
#include "tree.h"

/*
 * Trees read ahead at most.  A few are enough to keep the reader busy
 * while the walk prints; more only hold memory.
 */
#define READ_AHEAD 64

struct slot {
	struct object_id oid;
	struct odb_object obj;		/* owned until taken */
	int ret;			/* odb_read()'s */
	struct error_saved err;		/* its message, when ret < 0 */
};

struct reader {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t more, room;
	struct slot ring[READ_AHEAD];
	uint64_t head, tail;		/* taken, put (under lock) */
	int done, stop;			/* (under lock) */
	/* the reader thread's own */
	struct odb *odb;
	const struct pathspec *ps;
	struct object_id root;
	struct strbuf path;
};

struct walk {
	struct odb *odb;
	const struct pathspec *ps;	/* NULL or no items: everything */
	tree_walk_fn fn;
	void *ctx;
	struct strbuf path;		/* "<base><name>" of the entry */
	struct reader *reader;		/* NULL: read the trees here */
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
	else if (obj->size && (obj->size < 3 + HASH_RAWSZ ||
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

/* ---- the reader thread ---- */

/* Put a tree (or its error) in the ring; -1 if the walk wants no more. */
static int
put(struct reader *rd, const struct object_id *oid, struct odb_object *obj,
    int ret)
{
	struct slot *slot;

	pthread_mutex_lock(&rd->lock);
	while (rd->tail - rd->head == READ_AHEAD && !rd->stop)
		pthread_cond_wait(&rd->room, &rd->lock);
	if (rd->stop) {
		pthread_mutex_unlock(&rd->lock);
		odb_object_release(obj);
		return -1;
	}
	slot = &rd->ring[rd->tail % READ_AHEAD];
	slot->oid = *oid;
	slot->obj = *obj;
	slot->ret = ret;
	if (ret < 0)
		error_save(&slot->err);
	rd->tail++;
	pthread_cond_signal(&rd->more);
	pthread_mutex_unlock(&rd->lock);
	return 0;
}

/*
 * Read the tree oid and, after it, the trees below it the walk will go
 * into.  -1 once the walk wants no more.
 */
static int
read_ahead(struct reader *rd, const struct object_id *oid)
{
	struct odb_object obj = ODB_OBJECT_INIT;
	struct object_id *subs = NULL;
	size_t *ends = NULL, nr = 0, alloc = 0, alloc_ends = 0;
	size_t base = rd->path.len;
	struct strbuf names = STRBUF_INIT;
	struct tree_entry cur;
	struct scan s;
	int ret;

	ret = read_tree(&obj, rd->odb, oid);
	if (ret >= 0) {
		/* the trees below, found before the object is handed over */
		scan_init(&s, &obj, rd->ps, &rd->path);
		while (scan_next(&s, &cur) > 0) {
			if (!S_ISDIR(cur.mode))
				continue;
			ALLOC_GROW(subs, nr + 1, alloc);
			ALLOC_GROW(ends, nr + 1, alloc_ends);
			subs[nr] = *cur.oid;
			strbuf_add(&names, cur.name, cur.namelen);
			ends[nr++] = names.len;
		}
		error_clear();	/* the walk meets the error itself */
	}
	if (put(rd, oid, &obj, ret) < 0) {
		ret = -1;
		goto out;
	}
	ret = 0;
	for (size_t i = 0; i < nr; i++) {
		size_t start = i ? ends[i - 1] : 0;

		strbuf_setlen(&rd->path, base);
		strbuf_add(&rd->path, names.buf + start, ends[i] - start);
		strbuf_addch(&rd->path, '/');
		ret = read_ahead(rd, &subs[i]);
		if (ret < 0)
			break;
	}
out:
	strbuf_setlen(&rd->path, base);
	strbuf_release(&names);
	free(subs);
	free(ends);
	return ret;
}

static void *
reader_main(void *arg)
{
	struct reader *rd = arg;

	read_ahead(rd, &rd->root);
	error_clear();
	pthread_mutex_lock(&rd->lock);
	rd->done = 1;
	pthread_cond_signal(&rd->more);
	pthread_mutex_unlock(&rd->lock);
	return NULL;
}

static struct reader *
reader_start(struct odb *odb, const struct pathspec *ps,
	     const struct object_id *root)
{
	struct reader *rd = xcalloc(1, sizeof(*rd));

	rd->odb = odb;
	rd->ps = ps;
	rd->root = *root;
	strbuf_init(&rd->path, 256);
	pthread_mutex_init(&rd->lock, NULL);
	pthread_cond_init(&rd->more, NULL);
	pthread_cond_init(&rd->room, NULL);
	odb_prepare_threads(odb);
	if (pthread_create(&rd->thread, NULL, reader_main, rd)) {
		pthread_cond_destroy(&rd->room);
		pthread_cond_destroy(&rd->more);
		pthread_mutex_destroy(&rd->lock);
		strbuf_release(&rd->path);
		free(rd);
		return NULL;	/* the walk reads for itself */
	}
	return rd;
}

/* Stop the reader, wait for it, free what it read and the walk did not. */
static void
reader_finish(struct reader *rd)
{
	pthread_mutex_lock(&rd->lock);
	rd->stop = 1;
	pthread_cond_signal(&rd->room);
	pthread_mutex_unlock(&rd->lock);
	pthread_join(rd->thread, NULL);
	for (; rd->head < rd->tail; rd->head++) {
		struct slot *slot = &rd->ring[rd->head % READ_AHEAD];

		odb_object_release(&slot->obj);
		error_saved_release(&slot->err);
	}
	pthread_cond_destroy(&rd->room);
	pthread_cond_destroy(&rd->more);
	pthread_mutex_destroy(&rd->lock);
	strbuf_release(&rd->path);
	free(rd);
}

/*
 * The walk's tree oid from the reader: 1 with *ret as read_tree() would
 * have returned it, or 0 if the reader does not have it (then it is
 * stopped, and the walk reads for itself).
 */
static int
take(struct walk *w, struct odb_object *obj, const struct object_id *oid,
     int *ret)
{
	struct reader *rd = w->reader;
	struct slot *slot;

	pthread_mutex_lock(&rd->lock);
	while (rd->head == rd->tail && !rd->done)
		pthread_cond_wait(&rd->more, &rd->lock);
	slot = rd->head < rd->tail ? &rd->ring[rd->head % READ_AHEAD] : NULL;
	if (!slot || !oideq(&slot->oid, oid)) {
		pthread_mutex_unlock(&rd->lock);
		reader_finish(rd);
		w->reader = NULL;
		return 0;
	}
	*obj = slot->obj;
	*ret = slot->ret;
	if (*ret < 0)
		error_restore(&slot->err);
	error_saved_release(&slot->err);
	memset(slot, 0, sizeof(*slot));
	rd->head++;
	pthread_cond_signal(&rd->room);
	pthread_mutex_unlock(&rd->lock);
	return 1;
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

	if (!w->reader || !take(w, &obj, oid, &ret))
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
	  const struct pathspec *ps, unsigned flags, tree_walk_fn fn,
	  void *ctx)
{
	struct walk w = { odb, ps, fn, ctx, STRBUF_INIT, NULL };
	int ret;

	strbuf_grow(&w.path, 256);
	if (flags & TREE_WALK_EVERY_DIR)
		w.reader = reader_start(odb, ps, oid);
	ret = walk_tree(&w, oid);
	if (w.reader)
		reader_finish(w.reader);
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
