/*
 * unpack-merge: read-tree's two- and three-way merges.
 *
 * One recursive walk over the trees and the old index together.  At each
 * directory every tree's entries are read (a tree object per tree that
 * has the directory), the index's entries below it are grouped by their
 * first name component, and the names are visited in git's order: a
 * name some tree holds as a file sorts as itself, one only directories
 * hold as "name/".  Per name, the file-level merge sees one slot per
 * tree — the tree's file, nothing, or a directory/file conflict marker
 * (the tree has a directory there, or a file at a leading directory) —
 * and the index's file; then the directory is entered.  A directory all
 * trees hold with one id, which the index's cache-tree holds valid with
 * that id, is the index's already (each path merges to the index entry):
 * its entries are taken whole, its trees never read.  Index entries no
 * tree names are merged last, in index order, with every slot empty, as
 * git leaves them to the end.
 *
 * The per-path rules are git's (Documentation/git-read-tree.txt, "Two
 * Tree Merge"; technical/trivial-merge.txt), expressed through the same
 * four outcomes git has: keep the index entry, take a tree's entry
 * (merged), delete the path, or leave stages.  Every check of the work
 * tree — is an entry still what the index records, is an untracked file
 * in the way — runs during the walk, before anything is changed; the
 * first failure stops the walk, as git stops at its first error.
 *
 * Invariants: m->old is sorted by name with one entry per name (--reset
 * turned each unmerged path into one conflicted entry); m->mark[i] says
 * what became of old[i]; the result array collects entries in walk
 * order, sorted at the end if a directory/file pair made it leave index
 * order.
 */
#include "unpack-internal.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "cache-tree.h"
#include "error.h"
#include "index.h"
#include "odb.h"
#include "repo.h"
#include "strbuf.h"
#include "trace.h"
#include "tree.h"
#include "unpack.h"
#include "workers.h"

#define MAX_DEPTH 4096
#define NONE ((size_t)-1)

/* What one tree holds at the path being merged. */
enum slot_kind {
	SLOT_NONE,	/* nothing */
	SLOT_FILE,	/* a file (blob, symlink or gitlink) */
	SLOT_DF,	/* a directory here, or a file at a leading directory */
};

struct slot {
	enum slot_kind kind;
	unsigned mode;
	const struct object_id *oid;	/* borrowed from the tree */
};

/* A tree entry at one level; borrowed from the tree object. */
struct tent {
	const char *name;
	size_t namelen;
	unsigned mode;
	const struct object_id *oid;
};

struct tlist {
	struct tent *e;
	size_t nr, alloc;
	struct odb_object obj;	/* the tree the entries point into */
};

/* The index entries below a directory, by first name component. */
struct iitem {
	const char *name;	/* borrowed from the index entry */
	size_t namelen;
	size_t file;		/* old[] position of the file, or NONE */
	size_t dlo, dhi;	/* old[] range under "name/" */
};

struct group {
	const char *name;	/* borrowed */
	size_t namelen;
	int dir_key;		/* sorts as "name/" */
	const struct tent *t[UNPACK_MAX_TREES];
	size_t file;		/* index file, or NONE */
	size_t dlo, dhi;	/* index entries under it */
};

/* Scratch for one depth of the walk, reused. */
struct level {
	struct tlist t[UNPACK_MAX_TREES];
	struct iitem *items;
	size_t items_nr, items_alloc;
	struct group *g;
	size_t g_nr, g_alloc;
};

enum mark {
	MARK_USED = 1 << 0,	/* merged already */
	MARK_GONE = 1 << 1,	/* deleted from the index by the merge */
	MARK_CONFLICTED = 1 << 2, /* stands for an unmerged path (--reset) */
	MARK_EXTRA = 1 << 3,	/* a stage beside a stage 0 (--reset) */
};

struct merge {
	struct index *idx;
	struct repo *repo;
	struct odb *odb;
	const struct unpack_opts *o;
	size_t n;			/* trees */
	struct index_entry **old;	/* the index, one entry per name;
					 * idx->entries or owned */
	size_t old_nr;
	int old_owned;
	unsigned char *mark;		/* enum mark per old entry; owned */
	struct index_entry **res;	/* the new index; owned array */
	size_t res_nr, res_alloc;
	int res_unsorted;
	struct change *ch;		/* owned */
	size_t ch_nr, ch_alloc;
	int unmerged;			/* res has stages 1-3 */
	int nontrivial;			/* file-level merging needed */
	int initial;			/* two-way: the index is unborn */
	unsigned protect;
	struct strbuf path;		/* the path being merged */
	struct level **lv;		/* per depth; owned */
	size_t lv_nr;
};

static int
cmp_res(const void *a, const void *b)
{
	const struct index_entry *x = *(const struct index_entry *const *)a;
	const struct index_entry *y = *(const struct index_entry *const *)b;
	int cmp = index_name_cmp(x->name, x->namelen, y->name, y->namelen);

	return cmp ? cmp : ce_stage(x) - ce_stage(y);
}

static struct level *
level_at(struct merge *m, size_t depth)
{
	if (depth >= m->lv_nr) {
		size_t nr = depth + 1;

		m->lv = xrealloc(m->lv, st_mult(nr, sizeof(*m->lv)));
		while (m->lv_nr < nr)
			m->lv[m->lv_nr++] = xcalloc(1, sizeof(struct level));
	}
	return m->lv[depth];
}

static void
level_free(struct level *lv)
{
	for (size_t k = 0; k < UNPACK_MAX_TREES; k++) {
		free(lv->t[k].e);
		odb_object_release(&lv->t[k].obj);
	}
	free(lv->items);
	free(lv->g);
	free(lv);
}

/* Position of name in old[], or NONE. */
static size_t
old_find(const struct merge *m, const char *name, size_t len)
{
	size_t lo = 0, hi = m->old_nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = index_name_cmp(name, len, m->old[mid]->name,
				   m->old[mid]->namelen);

		if (!cmp) {
			while (mid && (m->mark[mid] & MARK_EXTRA))
				mid--;
			return mid;
		}
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NONE;
}

/* Does e lie under directory dir (len bytes, no slash)? */
static int
under(const struct index_entry *e, const char *dir, size_t len)
{
	return e->namelen > len && e->name[len] == '/' &&
	       !memcmp(e->name, dir, len);
}

/* The end of the run of old[lo..hi) under dir (old[lo] is under it). */
static size_t
under_end(const struct merge *m, size_t lo, size_t hi, const char *dir,
	  size_t len)
{
	lo++;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (under(m->old[mid], dir, len))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The first old[] entry at or after "dir/", for a directory's run. */
static size_t
under_start(const struct merge *m, const char *dir, size_t len)
{
	size_t lo = 0, hi = m->old_nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct index_entry *e = m->old[mid];
		int cmp = memcmp(e->name, dir, MIN(len, e->namelen));

		if (!cmp)
			cmp = e->namelen <= len ? -1 :
			      (unsigned char)e->name[len] < '/' ? -1 : 1;
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void
add_result(struct merge *m, struct index_entry *e)
{
	ALLOC_GROW(m->res, m->res_nr + 1, m->res_alloc);
	if (m->res_nr && !m->res_unsorted &&
	    cmp_res(&m->res[m->res_nr - 1], &e) >= 0)
		m->res_unsorted = 1;
	m->res[m->res_nr++] = e;
	if (ce_stage(e))
		m->unmerged = 1;
}

static void
add_change(struct merge *m, struct index_entry *e, int update, int remove)
{
	if (!m->o->update || (m->o->dry_run && !m->o->sparse))
		return;
	ALLOC_GROW(m->ch, m->ch_nr + 1, m->ch_alloc);
	m->ch[m->ch_nr].e = e;
	m->ch[m->ch_nr].update = update;
	m->ch[m->ch_nr].remove = remove;
	m->ch_nr++;
}

/* A tree's entry at m->path, in stage, from the index's pool. */
static struct index_entry *
new_entry(struct merge *m, const struct slot *s, int stage)
{
	struct index_entry *e = index_entry_new(m->idx, m->path.buf,
						m->path.len);

	e->mode = s->mode;
	oidcpy(&e->oid, s->oid);
	e->flags = (uint16_t)(stage << CE_STAGESHIFT);
	return e;
}

static int
conflicted(const struct merge *m, size_t cur)
{
	return cur != NONE && (m->mark[cur] & MARK_CONFLICTED);
}

/* git's same(): both absent, or the same mode and id (never conflicted) */
static int
same_slots(const struct slot *a, const struct slot *b)
{
	if (!a || !b)
		return !a && !b;
	return a->mode == b->mode && oideq(a->oid, b->oid);
}

static int
same_cur(const struct merge *m, size_t cur, const struct slot *s)
{
	const struct index_entry *e;

	if (cur == NONE || !s)
		return cur == NONE && !s;
	if (conflicted(m, cur))
		return 0;
	e = m->old[cur];
	return e->mode == s->mode && oideq(&e->oid, s->oid);
}

/* A file slot, or NULL for nothing and for a conflict marker. */
static const struct slot *
file_of(const struct slot *s)
{
	return s->kind == SLOT_FILE ? s : NULL;
}

/* After a per-path message: the merge stops, nothing is written. */
static int
failed(void)
{
	return error_set(E_CONFLICT, "read-tree failed");
}

static int
fail_uptodate(struct merge *m, const char *name)
{
	unpack_report(m->o, "Entry '%s' not uptodate. Cannot merge.", name);
	return failed();
}

static int
reject(struct merge *m)
{
	unpack_report(m->o, "Entry '%s' would be overwritten by merge. "
		      "Cannot merge.", m->path.buf);
	return failed();
}

static int
verify_uptodate(struct merge *m, size_t pos)
{
	struct index_entry *e = m->old[pos];

	if (!unpack_uptodate(m->repo, m->idx, e, m->o))
		return fail_uptodate(m, e->name);
	return 0;
}

static void
remove_old(struct merge *m, size_t pos)
{
	m->mark[pos] |= MARK_GONE | MARK_USED;
	add_change(m, m->old[pos], 0, 1);
}

enum absent_err {
	WOULD_OVERWRITE,	/* a new entry's file */
	WOULD_REMOVE,		/* a deleted entry's file */
};

/*
 * A directory where a file must go (or go away): nothing in it may be
 * lost.  Its tracked files must be unchanged — they leave the index —
 * and nothing untracked may be in it.
 */
static int
verify_clean_dir(struct merge *m, const char *dir, size_t len, unsigned mode)
{
	struct strbuf path = STRBUF_INIT;
	int ret = 0;

	if (S_ISGITLINK(mode))
		return 0;
	for (size_t i = under_start(m, dir, len);
	     i < m->old_nr && under(m->old[i], dir, len); i++) {
		if (ce_stage(m->old[i]))
			continue;
		if ((ret = verify_uptodate(m, i)) < 0)
			return ret;
		remove_old(m, i);
	}
	strbuf_add(&path, dir, len);
	if (!unpack_all_tracked(m->idx, &path, m->o)) {
		unpack_report(m->o, "Updating '%s' would lose untracked files "
			      "in it", path.buf);
		ret = failed();
	}
	strbuf_release(&path);
	return ret;
}

/* Something (st) is at name[0..len) where the merge puts or removes one. */
static int
ok_to_remove(struct merge *m, const char *name, size_t len,
	     const struct stat *st, unsigned mode, enum absent_err err,
	     int dirs_only)
{
	size_t pos;

	/* an ignored path may go (git checks this first) */
	if (unpack_ignored(m->o, name, len, len < m->path.len ?
			   S_ISDIR(st->st_mode) : S_ISGITLINK(mode)))
		return 0;
	if (S_ISDIR(st->st_mode))
		return verify_clean_dir(m, name, len, mode);
	if (dirs_only)
		return 0;
	/* a file this merge deletes from the index anyway */
	pos = old_find(m, name, len);
	if (pos != NONE && (m->mark[pos] & MARK_GONE))
		return 0;
	unpack_report(m->o, err == WOULD_OVERWRITE ?
		      "Untracked working tree file '%.*s' would be "
		      "overwritten by merge." :
		      "Untracked working tree file '%.*s' would be removed "
		      "by merge.", (int)len, name);
	return failed();
}

/*
 * git's verify_absent(): with -u, nothing untracked may be lost at
 * m->path — neither at a leading directory that is a file, nor at the
 * path.  dirs_only: only a directory there matters.
 */
static int
verify_absent(struct merge *m, unsigned mode, enum absent_err err,
	      int dirs_only)
{
	const char *path = m->path.buf;
	struct stat st;

	if (m->o->index_only || !m->o->update || m->o->reset)
		return 0;
	for (const char *p = strchr(path, '/'); p; p = strchr(p + 1, '/')) {
		int ret;

		m->path.buf[p - path] = '\0';
		ret = lstat(path, &st);
		m->path.buf[p - path] = '/';
		if (ret < 0)
			return 0;	/* nothing there, nor below */
		if (!S_ISDIR(st.st_mode))
			return ok_to_remove(m, path, p - path, &st, mode, err,
					    dirs_only);
	}
	if (lstat(path, &st) < 0)
		return 0;
	return ok_to_remove(m, path, m->path.len, &st, mode, err, dirs_only);
}

/* git's merged_entry(): the path becomes s, stat data kept if cur is s */
static int
merged(struct merge *m, const struct slot *s, size_t cur)
{
	struct index_entry *e;
	int ret;

	if (cur == NONE) {
		/* sparse: checked once the patterns have marked it */
		if (!m->o->sparse &&
		    (ret = verify_absent(m, s->mode, WOULD_OVERWRITE, 0)) < 0)
			return ret;
		e = new_entry(m, s, 0);
		if (m->o->sparse)
			e->state |= CE_ADDED;
	} else if (!conflicted(m, cur)) {
		struct index_entry *old = m->old[cur];

		m->mark[cur] |= MARK_USED;
		if (same_cur(m, cur, s)) {
			add_result(m, old);
			return 0;
		}
		if ((ret = verify_uptodate(m, cur)) < 0)
			return ret;
		e = new_entry(m, s, 0);
		e->ext_flags |= old->ext_flags & CE_SKIP_WORKTREE;
		e->state |= old->state & CE_NEW_SKIP_WORKTREE;
	} else {
		m->mark[cur] |= MARK_USED;
		if ((ret = verify_absent(m, s->mode, WOULD_OVERWRITE, 1)) < 0)
			return ret;
		e = new_entry(m, s, 0);
	}
	add_result(m, e);
	add_change(m, e, 1, 0);
	return 0;
}

/* git's deleted_entry(): the path leaves the index (and the work tree) */
static int
deleted(struct merge *m, unsigned mode, size_t cur)
{
	int ret, twoway_entry;

	if (cur == NONE)
		return verify_absent(m, mode, WOULD_REMOVE, 0);
	/*
	 * Sparse checkout: git removes the index entry itself in a
	 * three-way merge (no directory check for one out of the checkout)
	 * but H's entry in a two-way merge, which has no sparse marks.
	 */
	twoway_entry = m->o->sparse && m->n == 2 && !conflicted(m, cur);
	if (!(m->o->sparse && !twoway_entry &&
	      m->old[cur]->state & CE_NEW_SKIP_WORKTREE) &&
	    (ret = verify_absent(m, mode, WOULD_REMOVE, 1)) < 0)
		return ret;
	if (!conflicted(m, cur) && (ret = verify_uptodate(m, cur)) < 0)
		return ret;
	if (twoway_entry) {
		/* it leaves the index: its marks no longer matter */
		m->old[cur]->ext_flags &= ~CE_SKIP_WORKTREE;
		m->old[cur]->state &= ~CE_NEW_SKIP_WORKTREE;
	}
	remove_old(m, cur);
	return 0;
}

static void
keep_index(struct merge *m, size_t cur)
{
	m->mark[cur] |= MARK_USED;
	add_result(m, m->old[cur]);
}

static void
keep_stage(struct merge *m, const struct slot *s, int stage)
{
	add_result(m, new_entry(m, s, stage));
}

/* The two-way merge of index entry cur with H (s[0]) and M (s[1]). */
static int
twoway(struct merge *m, const struct slot *s, size_t cur)
{
	const struct slot *h = file_of(&s[0]), *mm = file_of(&s[1]);

	if (cur != NONE) {
		struct index_entry *old = m->old[cur];

		if (conflicted(m, cur)) {
			if (same_slots(h, mm) || m->o->reset) {
				if (!mm)
					return deleted(m, old->mode, cur);
				return merged(m, mm, cur);
			}
			return reject(m);
		}
		if ((!h && !mm) ||				/* 4, 5 */
		    (!h && mm && same_cur(m, cur, mm)) ||	/* 6, 7 */
		    (h && mm && same_slots(h, mm)) ||	/* 14, 15 */
		    (h && mm && same_cur(m, cur, mm))) {	/* 18, 19 */
			keep_index(m, cur);
			return 0;
		}
		if (h && !mm && same_cur(m, cur, h))		/* 10, 11 */
			return deleted(m, h->mode, cur);
		if (h && mm && same_cur(m, cur, h))		/* 20, 21 */
			return merged(m, mm, cur);
		return reject(m);				/* 8, 9, 12,
								 * 13, 16, 17 */
	}
	if (mm) {
		if (h && !m->initial)		/* 3: removal staged */
			return same_slots(h, mm) ? 0 : reject(m);
		return merged(m, mm, NONE);		/* 1 */
	}
	if (h)
		return deleted(m, h->mode, NONE);	/* 2 */
	return 0;
}

/*
 * The three-way merge of index entry cur with bases s[0..n-2), head
 * s[n-2] and remote s[n-1] (technical/trivial-merge.txt).
 */
static int
threeway(struct merge *m, const struct slot *s, size_t cur)
{
	size_t nb = m->n - 2, head_match = 0, remote_match = 0;
	const struct slot *h = file_of(&s[nb]), *r = file_of(&s[nb + 1]);
	int head_df = s[nb].kind == SLOT_DF, remote_df = s[nb + 1].kind ==
							  SLOT_DF;
	int any_base_missing = 0, no_base = 1;
	const struct slot *base = NULL;

	for (size_t b = 0; b < nb; b++) {
		if (s[b].kind == SLOT_FILE) {
			no_base = 0;
			if (!base)
				base = &s[b];
		} else {
			any_base_missing = 1;
		}
	}
	/* which base head and remote match (a conflict marker: none) */
	if (!same_slots(h, r)) {
		for (size_t b = 0; b < nb; b++) {
			const struct slot *x = file_of(&s[b]);

			if (s[b].kind == SLOT_DF)
				continue;
			if (same_slots(x, h))
				head_match = b + 1;
			if (same_slots(x, r))
				remote_match = b + 1;
		}
	}
	/* #2ALT, #14: only remote changed; the index may be the result */
	if (r && !head_df && head_match && !remote_match) {
		if (cur != NONE && !same_cur(m, cur, r) &&
		    !same_cur(m, cur, h))
			return reject(m);
		return merged(m, r, cur);
	}
	if (cur != NONE && !same_cur(m, cur, h))
		return reject(m);
	if (h) {
		if (same_slots(h, r))				/* #5ALT */
			return merged(m, h, cur);
		/* #13, #3ALT */
		if (!remote_df && remote_match && !head_match)
			return merged(m, h, cur);
	}
	if (!h && !r && any_base_missing)			/* #1 */
		return 0;
	if (m->o->aggressive) {
		if ((!h && !r) || (!h && r && remote_match) ||
		    (!r && h && head_match)) {
			if (cur != NONE)
				return deleted(m, m->old[cur]->mode, cur);
			if (h)
				return verify_absent(m, h->mode, WOULD_REMOVE,
						     0);
			return 0;
		}
		if (no_base && h && r && same_slots(h, r))
			return merged(m, h, cur);
	}
	/* no merge: stages, and the index must be up to date */
	if (cur != NONE) {
		int ret = verify_uptodate(m, cur);

		if (ret < 0)
			return ret;
	}
	m->nontrivial = 1;
	if ((!head_match || !remote_match) && base)
		keep_stage(m, base, 1);
	if (h)
		keep_stage(m, h, 2);
	if (r)
		keep_stage(m, r, 3);
	return 0;
}

static int
merge_path(struct merge *m, const struct slot *s, size_t cur)
{
	if (cur != NONE)
		m->mark[cur] |= MARK_USED;
	return m->n == 2 ? twoway(m, s, cur) : threeway(m, s, cur);
}

/* Read tree oid's entries (checked as every read-tree checks them). */
static int
read_level(struct merge *m, struct tlist *t, const struct object_id *oid)
{
	struct tree_iter it;
	struct tree_entry te, prev;
	size_t baselen = m->path.len;
	int ret;

	t->nr = 0;
	ret = odb_read(&t->obj, m->odb, oid, 0);
	if (ret < 0) {
		if (ret == -E_NOTFOUND)
			ret = error_set(E_NOTFOUND, "unable to read tree %s",
					oid_to_hex(oid));
		return ret;
	}
	if (t->obj.type != OBJ_TREE)
		return error_set(E_CORRUPT, "object %s is a %s, not a tree",
				 oid_to_hex(oid), type_name(t->obj.type) ?
				 type_name(t->obj.type) : t->obj.type_name);
	tree_iter_init(&it, t->obj.data, t->obj.size);
	while ((ret = tree_iter_next(&it, &te)) > 0) {
		struct tent *e;

		strbuf_add(&m->path, te.name, te.namelen);
		ret = unpack_check_entry(oid, &te, t->nr ? &prev : NULL,
					 m->path.buf, m->protect);
		strbuf_setlen(&m->path, baselen);
		if (ret < 0)
			return ret;
		prev = te;
		ALLOC_GROW(t->e, t->nr + 1, t->alloc);
		e = &t->e[t->nr++];
		e->name = te.name;
		e->namelen = te.namelen;
		e->mode = te.mode;
		e->oid = te.oid;
	}
	if (ret < 0)
		return ret;
	/* tree order to name order: a directory "a" before "a-b" */
	for (size_t i = 1; i < t->nr; i++) {
		struct tent x = t->e[i];
		size_t j = i;

		while (j && index_name_cmp(t->e[j - 1].name, t->e[j - 1].namelen,
				     x.name, x.namelen) > 0) {
			t->e[j] = t->e[j - 1];
			j--;
		}
		t->e[j] = x;
	}
	return 0;
}

/* The index entries old[lo..hi) under m->path, by first component. */
static void
index_items(struct merge *m, struct level *lv, size_t lo, size_t hi)
{
	size_t bl = m->path.len, keep;

	lv->items_nr = 0;
	for (size_t i = lo; i < hi;) {
		const struct index_entry *e = m->old[i];
		const char *c = e->name + bl;
		const char *slash = memchr(c, '/', e->namelen - bl);
		struct iitem *it;

		if (m->mark[i] & MARK_EXTRA) {
			i++;	/* merged last */
			continue;
		}
		ALLOC_GROW(lv->items, lv->items_nr + 1, lv->items_alloc);
		it = &lv->items[lv->items_nr++];
		it->name = c;
		it->file = NONE;
		it->dlo = it->dhi = 0;
		if (!slash) {
			it->namelen = e->namelen - bl;
			it->file = i++;
		} else {
			it->namelen = slash - c;
			it->dlo = i;
			it->dhi = under_end(m, i, hi, e->name, slash - e->name);
			i = it->dhi;
		}
	}
	/* index order to name order; a file and its directory as one */
	for (size_t i = 1; i < lv->items_nr; i++) {
		struct iitem x = lv->items[i];
		size_t j = i;

		while (j && index_name_cmp(lv->items[j - 1].name,
				     lv->items[j - 1].namelen, x.name,
				     x.namelen) > 0) {
			lv->items[j] = lv->items[j - 1];
			j--;
		}
		lv->items[j] = x;
	}
	keep = 0;
	for (size_t i = 0; i < lv->items_nr; i++) {
		struct iitem *p = keep ? &lv->items[keep - 1] : NULL;
		struct iitem *it = &lv->items[i];

		if (p && !index_name_cmp(p->name, p->namelen, it->name,
				   it->namelen)) {
			if (it->file != NONE)
				p->file = it->file;
			else {
				p->dlo = it->dlo;
				p->dhi = it->dhi;
			}
			continue;
		}
		lv->items[keep++] = *it;
	}
	lv->items_nr = keep;
}

static int
cmp_group(const struct group *a, const struct group *b)
{
	return tree_name_cmp(a->name, a->namelen, a->dir_key > 0 ? 040000 : 0,
			     b->name, b->namelen, b->dir_key > 0 ? 040000 : 0);
}

/* The names of this level: trees' and index's, merged, in git's order. */
static void
build_groups(struct merge *m, struct level *lv)
{
	size_t pos[UNPACK_MAX_TREES] = { 0 }, ipos = 0;

	lv->g_nr = 0;
	for (;;) {
		const char *name = NULL;
		size_t len = 0;
		struct group *g;

		for (size_t k = 0; k < m->n; k++) {
			const struct tent *e;

			if (pos[k] == lv->t[k].nr)
				continue;
			e = &lv->t[k].e[pos[k]];
			if (!name || index_name_cmp(e->name, e->namelen, name,
					      len) < 0) {
				name = e->name;
				len = e->namelen;
			}
		}
		if (ipos < lv->items_nr) {
			const struct iitem *it = &lv->items[ipos];

			if (!name || index_name_cmp(it->name, it->namelen, name,
					      len) < 0) {
				name = it->name;
				len = it->namelen;
			}
		}
		if (!name)
			break;
		ALLOC_GROW(lv->g, lv->g_nr + 1, lv->g_alloc);
		g = &lv->g[lv->g_nr++];
		memset(g, 0, sizeof(*g));
		g->name = name;
		g->namelen = len;
		g->file = NONE;
		g->dir_key = -1;	/* index only */
		for (size_t k = 0; k < m->n; k++) {
			const struct tent *e;

			if (pos[k] == lv->t[k].nr)
				continue;
			e = &lv->t[k].e[pos[k]];
			if (index_name_cmp(e->name, e->namelen, name, len))
				continue;
			g->t[k] = e;
			pos[k]++;
			if (!S_ISDIR(e->mode))
				g->dir_key = 0;
			else if (g->dir_key < 0)
				g->dir_key = 1;
		}
		if (ipos < lv->items_nr &&
		    !index_name_cmp(lv->items[ipos].name, lv->items[ipos].namelen,
			      name, len)) {
			g->file = lv->items[ipos].file;
			g->dlo = lv->items[ipos].dlo;
			g->dhi = lv->items[ipos].dhi;
			ipos++;
		}
	}
	/* name order to git's: a name only directories hold is "name/" */
	for (size_t i = 1; i < lv->g_nr; i++) {
		struct group x = lv->g[i];
		size_t j = i;

		while (j && cmp_group(&lv->g[j - 1], &x) > 0) {
			lv->g[j] = lv->g[j - 1];
			j--;
		}
		lv->g[j] = x;
	}
}

/*
 * May directory g be taken from the index whole?  Every tree holds it
 * with one id, and the index's cache-tree holds it valid with that id
 * over exactly its entries.
 */
static int
same_everywhere(struct merge *m, const struct group *g, unsigned df,
		struct cache_tree *ct)
{
	struct cache_tree_sub *sub;

	if (df || !ct || g->dhi == g->dlo || g->file != NONE)
		return 0;
	for (size_t k = 0; k < m->n; k++)
		if (!g->t[k] || !S_ISDIR(g->t[k]->mode) ||
		    !oideq(g->t[k]->oid, g->t[0]->oid))
			return 0;
	sub = cache_tree_sub(ct, g->name, g->namelen, 0);
	if (!sub || !sub->tree || sub->tree->entry_count < 0 ||
	    (size_t)sub->tree->entry_count != g->dhi - g->dlo ||
	    !oideq(&sub->tree->oid, g->t[0]->oid))
		return 0;
	for (size_t i = g->dlo; i < g->dhi; i++)
		if (m->mark[i])
			return 0;	/* taken, or conflicted */
	return 1;
}

static int
merge_dir(struct merge *m, size_t depth, const struct object_id **dir,
	  unsigned df, size_t lo, size_t hi, struct cache_tree *ct)
{
	struct level *lv = level_at(m, depth);
	size_t bl = m->path.len;
	int ret = 0;

	if (depth > MAX_DEPTH)
		return error_set(E_CORRUPT, "tree %s nests too deeply",
				 oid_to_hex(dir[0] ? dir[0] : dir[m->n - 1]));
	/* entered: its entries may change, its cache-tree node with them */
	if (ct)
		ct->entry_count = -1;
	for (size_t k = 0; k < m->n; k++) {
		lv->t[k].nr = 0;
		if (dir[k] && (ret = read_level(m, &lv->t[k], dir[k])) < 0)
			goto out;
	}
	index_items(m, lv, lo, hi);
	build_groups(m, lv);

	for (size_t i = 0; i < lv->g_nr && !ret; i++) {
		const struct group *g = &lv->g[i];
		const struct object_id *sub[UNPACK_MAX_TREES];
		struct slot s[UNPACK_MAX_TREES];
		unsigned files = 0, dirs = 0;
		size_t cur = g->file;
		size_t dlo, dhi;

		if (g->dir_key < 0)
			continue;	/* the index's alone: merged last */
		strbuf_setlen(&m->path, bl);
		strbuf_add(&m->path, g->name, g->namelen);
		for (size_t k = 0; k < m->n; k++) {
			const struct tent *e = g->t[k];

			s[k].kind = SLOT_NONE;
			s[k].mode = 0;
			s[k].oid = NULL;
			sub[k] = NULL;
			if (e && S_ISDIR(e->mode)) {
				dirs |= 1u << k;
				sub[k] = e->oid;
			} else if (e) {
				files |= 1u << k;
			}
			if ((df | dirs) & (1u << k)) {
				s[k].kind = SLOT_DF;
			} else if (e) {
				s[k].kind = SLOT_FILE;
				s[k].mode = e->mode;
				s[k].oid = e->oid;
			}
		}
		if (cur != NONE && (m->mark[cur] & MARK_USED))
			cur = NONE;
		if (files || cur != NONE) {
			ret = merge_path(m, s, cur);
			if (ret < 0)
				break;
		}
		if (!dirs)
			continue;
		/* what a -u check took from under it is not merged again */
		dlo = g->dlo;
		dhi = g->dhi;
		while (dlo < dhi && (m->mark[dlo] & MARK_USED))
			dlo++;
		if (!files && same_everywhere(m, g, df, ct)) {
			for (size_t j = g->dlo; j < g->dhi; j++) {
				m->mark[j] |= MARK_USED;
				add_result(m, m->old[j]);
			}
			continue;
		}
		strbuf_addch(&m->path, '/');
		{
			struct cache_tree_sub *cs = ct ?
				cache_tree_sub(ct, g->name, g->namelen, 0) :
				NULL;

			ret = merge_dir(m, depth + 1, sub, df | files,
					dlo < dhi ? dlo : 0,
					dlo < dhi ? dhi : 0,
					cs ? cs->tree : NULL);
		}
	}
out:
	strbuf_setlen(&m->path, bl);
	for (size_t k = 0; k < m->n; k++)
		odb_object_release(&lv->t[k].obj);
	return ret;
}

/*
 * Every blob -u will write is stored?  git finds out while writing, with
 * part of the work tree changed; dirc says so before the first change,
 * in git's words, one line per blob.
 */
static int
blobs_present(struct merge *m)
{
	int ret = 0;

	for (size_t k = 0; k < m->ch_nr; k++) {
		const struct index_entry *e = m->ch[k].e;

		if (!m->ch[k].update || S_ISGITLINK(e->mode) ||
		    odb_has(m->odb, &e->oid))
			continue;
		diag_emit(DIAG_ERROR, "unable to read sha1 file of %s (%s)",
			  e->name, oid_to_hex(&e->oid));
		ret = failed();
	}
	return ret;
}

/*
 * The old index as the merge sees it: with --reset, each unmerged path
 * becomes one conflicted stage-0 entry (no id, the mode of its first
 * stage).  Where a stage 0 stood beside the stages (an index only
 * update-index --index-info makes), git's conversion replaces the stage
 * 0 and leaves the stages: the first of them is then merged last, as an
 * entry no tree names, for the whole path.
 */
static void
collapse_unmerged(struct merge *m)
{
	struct index *idx = m->idx;
	size_t i = 0, nr = 0;
	int any = 0;

	m->old = idx->entries;
	m->old_nr = idx->nr;
	for (size_t k = 0; k < idx->nr && !any; k++)
		any = ce_stage(idx->entries[k]) != 0;
	m->mark = xcalloc(idx->nr + 1, 1);
	if (!any)
		return;
	m->old = xmalloc(st_mult(idx->nr + 1, sizeof(*m->old)));
	m->old_owned = 1;
	while (i < idx->nr) {
		struct index_entry *e = idx->entries[i];
		size_t j = i + 1, first = NONE;

		while (j < idx->nr && !strcmp(idx->entries[j]->name, e->name))
			j++;
		for (size_t k = i; k < j; k++)
			if (ce_stage(idx->entries[k])) {
				first = k;
				break;
			}
		if (first == NONE) {
			m->old[nr++] = e;
		} else {
			struct index_entry *c =
				index_entry_new(idx, e->name, e->namelen);

			/* git converts each stage in turn: the last wins */
			c->mode = idx->entries[first == i ? first :
					       j - 1]->mode;
			m->mark[nr] = MARK_CONFLICTED;
			m->old[nr++] = c;
			if (first != i) {
				m->mark[nr] = MARK_EXTRA;
				m->old[nr++] = idx->entries[first];
			}
		}
		i = j;
	}
	m->old_nr = nr;
}

int
unpack_merge(struct index *idx, struct repo *repo, struct odb *odb,
	     const struct object_id *trees, size_t nr,
	     const struct unpack_opts *o)
{
	struct merge m = {
		.idx = idx, .repo = repo, .odb = odb, .o = o, .n = nr,
		.protect = repo->settings.protect,
		.path = STRBUF_INIT,
	};
	const struct object_id *top[UNPACK_MAX_TREES] = { NULL };
	uint64_t start = trace_now();
	int ret;

	if (nr < 2 || nr > UNPACK_MAX_TREES)
		BUG("unpack_merge: %zu trees", nr);
	m.initial = !idx->exists && !idx->nr;
	if (o->sparse)
		unpack_sparse_mark(o->sparse, idx->entries, idx->nr);
	collapse_unmerged(&m);
	for (size_t k = 0; k < nr; k++)
		top[k] = &trees[k];
	ret = merge_dir(&m, 0, top, 0, 0, m.old_nr, idx->tree);
	/* what no tree names, last, in index order */
	for (size_t i = 0; i < m.old_nr && !ret; i++) {
		struct slot s[UNPACK_MAX_TREES] = { { 0 } };

		if (m.mark[i] & MARK_USED)
			continue;
		strbuf_reset(&m.path);
		strbuf_add(&m.path, m.old[i]->name, m.old[i]->namelen);
		ret = merge_path(&m, s, i);
	}
	trace_phase("merge trees", start);
	if (ret < 0)
		goto out;
	if (o->trivial && m.nontrivial) {
		if (!o->quiet)
			diag_emit(DIAG_ERROR, "Merge requires file-level "
				  "merging");
		ret = failed();
		goto out;
	}

	if (m.res_unsorted)
		sort_array(m.res, m.res_nr, sizeof(*m.res), cmp_res);
	if (o->sparse)
		unpack_sparse_apply(idx, repo, o, m.res, m.res_nr, &m.ch,
				    &m.ch_nr, &m.ch_alloc);
	if (o->dry_run)
		m.ch_nr = 0;
	if ((ret = blobs_present(&m)) < 0)
		goto out;
	/* the new index */
	free(idx->entries);
	idx->entries = m.res;
	idx->nr = m.res_nr;
	idx->alloc = m.res_alloc;
	m.res = NULL;
	index_clear_resolve_undo(idx);
	index_mark_changed(idx);
	if (m.ch_nr) {
		start = trace_now();
		ret = unpack_update_worktree(idx, repo, odb, m.ch, m.ch_nr, o);
		trace_phase("update work tree", start);
		if (ret < 0)
			goto out;
	}
	start = trace_now();
	if (m.unmerged) {
		/* git's update stops at the first unmerged entry: no TREE */
		cache_tree_free(idx->tree);
		idx->tree = NULL;
	} else {
		int threads = workers_count(0, repo->settings.threads, 0, 0);

		unpack_repair_cache_tree(idx, odb, threads, 1);
	}
	trace_phase("cache-tree", start);
out:
	for (size_t d = 0; d < m.lv_nr; d++)
		level_free(m.lv[d]);
	free(m.lv);
	if (m.old_owned)
		free(m.old);
	free(m.mark);
	free(m.res);
	free(m.ch);
	strbuf_release(&m.path);
	return ret;
}
