/*
 * unpack: trees into the index.
 *
 * Each tree is read depth-first into a list of new entries (stage 0, zero
 * stat data, canonical modes), sorted as the index sorts; then, by the
 * form asked for, the lists become the index (a plain read), are merged
 * with the old index in one pass (the one-way merge), or are added to it
 * (a bind under a prefix).  Every check — of the index and of the work
 * tree — runs before anything is changed, so a refused read leaves index
 * and work tree as they were.
 *
 * The one question asked of the work tree, "does this file still hold
 * what the entry records?", is answered in one place, entry_modified().
 */
#include "unpack.h"

#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>

#include "cache-tree.h"
#include "checkout.h"
#include "convert.h"
#include "dir.h"
#include "error.h"
#include "exclude.h"
#include "index.h"
#include "modified.h"
#include "odb.h"
#include "path.h"
#include "repo.h"
#include "sparse.h"
#include "strbuf.h"
#include "tree.h"
#include "unpack-internal.h"
#include "workers.h"

#define MAX_TREE_DEPTH 4096

/* the short name, in this file (unpack-internal.h has the long one) */
#define report unpack_report

struct list {
	struct index_entry **e;
	size_t nr, alloc;
};

void
unpack_report(const struct unpack_opts *o, const char *fmt, ...)
{
	char msg[ERROR_MSG_MAX];
	struct strbuf with_prefix = STRBUF_INIT;
	va_list ap;

	if (o->quiet)
		return;
	if (o->super_prefix) {
		/* after each opening quote; the user's '%' doubled */
		int quoted = 0;

		for (const char *p = fmt; *p; p++) {
			strbuf_addch(&with_prefix, *p);
			if (*p != '\'' || !(quoted = !quoted))
				continue;
			for (const char *q = o->super_prefix; *q; q++) {
				if (*q == '%')
					strbuf_addch(&with_prefix, '%');
				strbuf_addch(&with_prefix, *q);
			}
		}
		fmt = with_prefix.buf;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	strbuf_release(&with_prefix);
	diag_emit(DIAG_ERROR, "%s", msg);
}

/* Modes git writes (and 100664, which old git wrote and fsck tolerates). */
static int
mode_ok(const struct tree_entry *te)
{
	switch (te->raw_mode) {
	case 0100644:
	case 0100755:
	case 0100664:
	case 0120000:
	case 040000:
	case 0160000:
		return !te->zero_padded;
	default:
		return 0;
	}
}

static int
tree_corrupt(const struct object_id *oid, const char *why,
	     const struct tree_entry *te)
{
	return error_set(E_CORRUPT, "tree %s is corrupt: %s ('%.*s')",
			 oid_to_hex(oid), why, (int)te->namelen, te->name);
}

int
unpack_check_entry(const struct object_id *oid, const struct tree_entry *te,
		   const struct tree_entry *prev, const char *path,
		   unsigned protect)
{
	if (!mode_ok(te))
		return tree_corrupt(oid, te->zero_padded ?
				    "zero-padded file mode" : "bad file mode",
				    te);
	if (prev) {
		int cmp = tree_name_cmp(prev->name, prev->namelen, prev->mode,
					te->name, te->namelen, te->mode);
		int same_name = prev->namelen == te->namelen &&
				!memcmp(prev->name, te->name, te->namelen);

		if (same_name || !cmp)
			return tree_corrupt(oid, "duplicate entries", te);
		if (cmp > 0)
			return tree_corrupt(oid, "entries are not sorted", te);
	}
	if (memchr(te->name, '/', te->namelen) ||
	    !path_verify(path, te->mode, protect)) {
		diag_emit(DIAG_ERROR, "invalid path '%s'", path);
		return error_set(E_CONFLICT, "read-tree failed");
	}
	return 0;
}

static int
read_tree_into(struct list *out, struct index *idx, struct odb *odb,
	       const struct object_id *oid, struct strbuf *base, int depth,
	       unsigned protect)
{
	struct odb_object obj;
	struct tree_iter it;
	struct tree_entry te, prev = { 0 };
	size_t baselen = base->len;
	int ret, have_prev = 0;

	if (depth > MAX_TREE_DEPTH)
		return error_set(E_CORRUPT, "tree %s nests too deeply",
				 oid_to_hex(oid));
	/* as git's parse_object(): a tree must hash to its name */
	ret = odb_read(&obj, odb, oid, ODB_READ_VERIFY);
	if (ret < 0) {
		if (ret == -E_NOTFOUND)
			ret = error_set(E_NOTFOUND, "failed to unpack tree "
					"object %s", oid_to_hex(oid));
		return ret;
	}
	if (obj.type != OBJ_TREE) {
		odb_object_release(&obj);
		return error_set(E_CORRUPT, "object %s is a %s, not a tree",
				 oid_to_hex(oid), type_name(obj.type) ?
				 type_name(obj.type) : obj.type_name);
	}
	/*
	 * Stricter than git's read-tree, as fsck is: an unsorted tree, a
	 * name twice (a file and a directory included), a mode git never
	 * writes, a path that may not enter the index — all refused.
	 */
	tree_iter_init(&it, obj.data, obj.size);
	while ((ret = tree_iter_next(&it, &te)) > 0) {
		strbuf_setlen(base, baselen);
		strbuf_add(base, te.name, te.namelen);
		ret = unpack_check_entry(oid, &te, have_prev ? &prev : NULL,
					 base->buf, protect);
		if (ret < 0)
			break;
		prev = te;
		have_prev = 1;
		if (S_ISDIR(te.mode)) {
			strbuf_addch(base, '/');
			ret = read_tree_into(out, idx, odb, te.oid, base,
					     depth + 1, protect);
			if (ret < 0)
				break;
		} else {
			struct index_entry *e =
				index_entry_new(idx, base->buf, base->len);

			e->mode = te.mode;
			oidcpy(&e->oid, te.oid);
			ALLOC_GROW(out->e, out->nr + 1, out->alloc);
			out->e[out->nr++] = e;
		}
	}
	strbuf_setlen(base, baselen);
	odb_object_release(&obj);
	return ret < 0 ? ret : 0;
}

static int
cmp_entry(const void *a, const void *b)
{
	const struct index_entry *x = *(const struct index_entry *const *)a;
	const struct index_entry *y = *(const struct index_entry *const *)b;

	return index_name_cmp(x->name, x->namelen, y->name, y->namelen);
}

/* One tree's entries under prefix (or ""), in index order. */
static int
load_tree(struct list *out, struct index *idx, struct repo *repo,
	  struct odb *odb, const struct object_id *tree, const char *prefix)
{
	struct strbuf base = STRBUF_INIT;
	int ret;

	strbuf_addstr(&base, prefix ? prefix : "");
	ret = read_tree_into(out, idx, odb, tree, &base, 0,
			     repo->settings.protect);
	strbuf_release(&base);
	if (ret < 0)
		return ret;
	sort_array(out->e, out->nr, sizeof(*out->e), cmp_entry);
	for (size_t k = 1; k < out->nr; k++)
		if (!cmp_entry(&out->e[k - 1], &out->e[k]))
			return error_set(E_CORRUPT, "tree %s has duplicate "
					 "entries for '%s'", oid_to_hex(tree),
					 out->e[k]->name);
	return 0;
}

/*
 * Are index entry a and tree entry b the same content?  Both exist: the
 * merge calls it only where the two sides hold the same path (cppcheck
 * cannot follow that from the comparison that decides it).
 */
static int
same(const struct index_entry *a, const struct index_entry *b)
{
	/* cppcheck-suppress [nullPointerRedundantCheck,ctunullpointer] */
	return a->mode == b->mode && oideq(&a->oid, &b->oid) &&
	       !(a->ext_flags & CE_INTENT_TO_ADD);
}

/*
 * Does the file st describes still hold what e records (git's
 * ie_match_stat: stat data, and the content of a racily clean entry)?
 * The one "modified" question read-tree asks of the work tree.
 */
static int
entry_modified(struct repo *repo, struct index *idx, struct index_entry *e,
	       const struct stat *st)
{
	return modified_check(NULL, repo, idx, e, st, MODIFIED_IGNORE_VALID |
			      MODIFIED_IGNORE_SKIP_WORKTREE |
			      MODIFIED_STAT_ONLY, NULL) != ENTRY_CLEAN;
}

int
unpack_uptodate(struct repo *repo, struct index *idx, struct index_entry *old,
	 const struct unpack_opts *o)
{
	struct stat st;

	if (o->index_only)
		return 1;
	if (!(old->flags & CE_VALID) && !(old->ext_flags & CE_SKIP_WORKTREE) &&
	    (o->reset || old->state & CE_UPTODATE))
		return 1;
	if (lstat(old->name, &st) < 0)
		return errno == ENOENT || errno == ENOTDIR;
	if (!entry_modified(repo, idx, old, &st))
		return 1;
	return S_ISGITLINK(old->mode);
}

struct tracked_walk {
	const struct index *idx;
	const struct unpack_opts *o;
};

/*
 * dir_for_each() callback: 1 when path is, or holds, an untracked file
 * not excluded
 */
static int
untracked_entry(struct strbuf *path, const char *name UNUSED, void *data)
{
	const struct tracked_walk *tw = data;
	struct excludes *ex = tw->o->ignored_in_dir;
	struct stat st;
	int is_dir;

	if (lstat(path->buf, &st) < 0)
		return 0;
	is_dir = S_ISDIR(st.st_mode);
	if (!is_dir && index_pos(tw->idx, path->buf, path->len, -1) >= 0)
		return 0;
	if (ex && excludes_path(ex, path->buf, path->len, is_dir ?
				EXCLUDE_DTYPE_DIR : EXCLUDE_DTYPE_FILE))
		return 0;
	return is_dir ? !unpack_all_tracked(tw->idx, path, tw->o) : 1;
}

int
unpack_all_tracked(const struct index *idx, struct strbuf *dir,
		   const struct unpack_opts *o)
{
	struct tracked_walk tw = { idx, o };
	int ret = dir_for_each(dir, untracked_entry, &tw);

	if (ret < 0)
		error_clear();
	return !ret;
}

int
unpack_ignored(const struct unpack_opts *o, const char *name, size_t len,
	       int is_dir)
{
	char *path;
	int ret;

	if (!o->ignored)
		return 0;
	path = xmemdupz(name, len);
	ret = excludes_path(o->ignored, path, len, is_dir ?
			    EXCLUDE_DTYPE_DIR : EXCLUDE_DTYPE_FILE);
	free(path);
	return ret;
}

/*
 * No untracked file in the way of a new entry?  1 if none; 0 after
 * saying, as git does, what is in the way: an untracked file at the
 * entry's path or at one of its leading directories, or a directory
 * with untracked files in it.  In a merge a tracked file where a
 * directory must go leaves the index, so it may go; a bind never lets
 * one go (git calls it untracked, though the index may hold it).
 */
static int
absent(const struct index *idx, const struct index_entry *e,
       const struct unpack_opts *o)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	int ok = 1;

	if (o->index_only || o->reset || !o->update)
		return 1;
	for (const char *p = strchr(e->name, '/'); p; p = strchr(p + 1, '/')) {
		strbuf_reset(&path);
		strbuf_add(&path, e->name, p - e->name);
		if (lstat(path.buf, &st) < 0)
			goto out;	/* nothing there, nor below */
		if (S_ISDIR(st.st_mode))
			continue;
		if ((o->prefix || index_pos(idx, path.buf, path.len, 0) < 0) &&
		    !unpack_ignored(o, path.buf, path.len, 0)) {
			report(o, "Untracked working tree file '%s' would be "
			       "overwritten by merge.", path.buf);
			ok = 0;
		}
		goto out;
	}
	if (lstat(e->name, &st) < 0)
		goto out;
	if (unpack_ignored(o, e->name, e->namelen, S_ISGITLINK(e->mode)))
		goto out;
	if (!S_ISDIR(st.st_mode)) {
		report(o, "Untracked working tree file '%s' would be "
		       "overwritten by merge.", e->name);
		ok = 0;
		goto out;
	}
	if (S_ISGITLINK(e->mode))
		goto out;
	/* a tracked directory turning into a file: fine if nothing in it
	 * is untracked (its files leave the index and are removed) */
	strbuf_reset(&path);
	strbuf_addstr(&path, e->name);
	if (!unpack_all_tracked(idx, &path, o)) {
		report(o, "Updating '%s' would lose untracked files in it",
		       e->name);
		ok = 0;
	}
out:
	strbuf_release(&path);
	return ok;
}

/*
 * The cache-tree git leaves after unpacking (a bind, an overlay of
 * trees).  git builds it again from the index alone — nothing of the
 * old one survives, not even a valid node — directory by directory in
 * index order, in two passes each: the first walks the sub-directories,
 * building them; the second checks that every blob and every
 * sub-directory's tree the directory names is stored, and fails if one
 * is not.  A directory whose sub-directory failed stops its walk there
 * and fails too, so the sub-directories after it are never built and
 * are missing from the cache-tree.  A node is valid if its tree is
 * stored.  cache_tree_update(REPAIR) on a new tree gives the ids and
 * the validity; repair_node() then drops and invalidates what git never
 * reaches.
 */

/* Entries of entries[0..n) under dir (name[0..len), with the slash). */
static size_t
count_under(struct index_entry **entries, size_t n, const char *dir,
	    size_t len)
{
	size_t i = 0;

	while (i < n && entries[i]->namelen > len &&
	       !memcmp(entries[i]->name, dir, len))
		i++;
	return i;
}

/* 0, or -1 where git's build of t fails. */
static int
repair_node(struct odb *odb, struct cache_tree *t,
	    struct index_entry **entries, size_t n, size_t baselen)
{
	size_t i, keep;
	int ret = 0;

	for (size_t k = 0; k < t->subtree_nr; k++)
		t->down[k]->used = 0;
	/* pass one: the sub-directories, in index order */
	for (i = 0; i < n;) {
		const struct index_entry *e = entries[i];
		const char *slash = memchr(e->name + baselen, '/',
					   e->namelen - baselen);
		struct cache_tree_sub *sub;
		size_t len, cnt;

		if (!slash) {
			i++;
			continue;
		}
		len = slash - e->name + 1;
		sub = cache_tree_sub(t, e->name + baselen, len - baselen - 1,
				     0);
		if (sub && sub->tree && sub->tree->entry_count >= 0) {
			/*
			 * valid: its tree and everything in it is stored,
			 * so git's build of it succeeds as well
			 */
			sub->used = 1;
			i += sub->tree->entry_count;
			continue;
		}
		cnt = count_under(entries + i, n - i, e->name, len);
		if (sub && sub->tree) {
			sub->used = 1;
			if (repair_node(odb, sub->tree, entries + i, cnt,
					len) < 0) {
				ret = -1;
				break;
			}
		}
		i += cnt;
	}
	if (ret < 0) {
		keep = 0;
		for (size_t k = 0; k < t->subtree_nr; k++)
			if (t->down[k]->used)
				t->down[keep++] = t->down[k];
		t->subtree_nr = keep;	/* dropped: memory stays in arena */
		t->entry_count = -1;
		return -1;
	}
	/*
	 * pass two: everything it names is stored, in index order; git
	 * names a missing blob (a sub-directory's tree it expects to miss)
	 */
	for (i = 0; i < n && !ret;) {
		const struct index_entry *e = entries[i];
		const char *slash = memchr(e->name + baselen, '/',
					   e->namelen - baselen);

		if (slash) {
			size_t len = slash - e->name + 1;
			struct cache_tree_sub *sub =
				cache_tree_sub(t, e->name + baselen,
					       len - baselen - 1, 0);

			if (!sub || !sub->tree || oid_is_null(&sub->tree->oid) ||
			    !odb_has_cached(odb, &sub->tree->oid))
				ret = -1;
			if (sub && sub->tree && sub->tree->entry_count >= 0)
				i += sub->tree->entry_count;
			else
				i += count_under(entries + i, n - i, e->name,
						 len);
			continue;
		}
		if (!S_ISGITLINK(e->mode) &&
		    (oid_is_null(&e->oid) || !odb_has_cached(odb, &e->oid))) {
			diag_emit(DIAG_ERROR, "invalid object %06o %s for '%s'",
				  e->mode, oid_to_hex(&e->oid), e->name);
			ret = -1;
		}
		i++;
	}
	if (ret < 0)
		t->entry_count = -1;
	return ret;
}

void
unpack_repair_cache_tree(struct index *idx, struct odb *odb, int threads,
			 int keep_valid)
{
	if (!keep_valid) {
		cache_tree_free(idx->tree);
		idx->tree = NULL;
	}
	/*
	 * Its result says whether every tree was found, which does not
	 * matter here; it returns before making the tree only for
	 * unmerged entries and bad names, and neither reaches here.
	 */
	cache_tree_update(idx, odb, CACHE_TREE_REPAIR | CACHE_TREE_SILENT,
			  threads);
	error_clear();
	if (idx->tree)
		repair_node(odb, idx->tree, idx->entries, idx->nr, 0);
}

/*
 * The overlay of a plain read of several trees, into t[0]: a later
 * tree's entry replaces an earlier one's at the same path; then a file
 * that is also a directory of another entry goes (the directory wins,
 * whatever the order of the trees).
 */
static void
overlay(struct list *t, size_t nr)
{
	struct list *out = &t[0];
	size_t keep;

	for (size_t k = 1; k < nr; k++) {
		struct index_entry **merged =
			xmalloc(st_mult(st_add(out->nr, t[k].nr) + 1,
					sizeof(*merged)));
		size_t i = 0, j = 0, m = 0;

		while (i < out->nr || j < t[k].nr) {
			int cmp = i == out->nr ? 1 : j == t[k].nr ? -1 :
				  cmp_entry(&out->e[i], &t[k].e[j]);

			if (cmp < 0) {
				merged[m++] = out->e[i++];
			} else {
				merged[m++] = t[k].e[j++];
				i += !cmp;
			}
		}
		free(out->e);
		out->e = merged;
		out->nr = m;
		out->alloc = st_add(out->nr, t[k].nr) + 1;
	}
	/*
	 * "a" is a directory of another entry if some "a/..." follows it;
	 * those sort after "a" but possibly after other names ("a-b",
	 * "a.c") too, so look ahead past them.
	 */
	keep = 0;
	for (size_t i = 0; i < out->nr; i++) {
		const struct index_entry *e = out->e[i];
		int is_dir = 0;

		for (size_t j = i + 1; j < out->nr; j++) {
			const struct index_entry *f = out->e[j];

			if (f->namelen <= e->namelen ||
			    memcmp(f->name, e->name, e->namelen))
				break;
			if (f->name[e->namelen] == '/') {
				is_dir = 1;
				break;
			}
			if ((unsigned char)f->name[e->namelen] > '/')
				break;
		}
		if (!is_dir)
			out->e[keep++] = out->e[i];
	}
	out->nr = keep;
}

/*
 * The conflicts of a bind, the first in tree order, as git reports it:
 * an entry the index already holds ("Entry '<p>' overlaps with '<p>'"),
 * or an index file where the tree has a directory ("Entry '' overlaps
 * with '<file>'").  An index file at the prefix or above it is replaced
 * without a word; an index directory where the tree has a file is the
 * business of bind_file_over_dir().
 */
static int
bind_conflict(const struct index *idx, const struct list *t,
	      const struct unpack_opts *o)
{
	size_t plen = strlen(o->prefix);

	for (size_t i = 0; i < t->nr; i++) {
		const struct index_entry *e = t->e[i];
		ssize_t pos;

		for (const char *p = memchr(e->name + plen, '/',
					    e->namelen - plen);
		     p; p = memchr(p + 1, '/', e->namelen - (p + 1 - e->name))) {
			if (index_pos(idx, e->name, p - e->name, -1) >= 0) {
				report(o, "Entry '' overlaps with '%.*s'.  "
				       "Cannot bind.", (int)(p - e->name),
				       e->name);
				return 1;
			}
		}
		pos = index_pos(idx, e->name, e->namelen, -1);
		if (pos >= 0) {
			report(o, "Entry '%s' overlaps with '%s'.  Cannot "
			       "bind.", idx->entries[pos]->name, e->name);
			return 1;
		}
	}
	return 0;
}

/* The first index entry under directory name (len bytes), or idx->nr. */
static size_t
first_under(const struct index *idx, const char *name, size_t len)
{
	ssize_t pos = index_pos(idx, name, len, -1);
	size_t i = pos < 0 ? (size_t)(-pos - 1) : (size_t)pos;

	/* past "name" itself and names like "name-x", "name.c" */
	while (i < idx->nr) {
		const struct index_entry *c = idx->entries[i];

		if (c->namelen <= len || memcmp(c->name, name, len) ||
		    (unsigned char)c->name[len] > '/')
			return idx->nr;
		if (c->name[len] == '/')
			return i;
		i++;
	}
	return idx->nr;
}

/*
 * A tree file e where the index has a directory: git adds the tree's
 * entries and the index's in path order, each replacing what it is in
 * the way of, so the directory's files (which sort after e) win and e
 * is dropped without a word — unless -u finds that directory in the
 * work tree holding nothing but its tracked, unchanged files: then
 * they go and e takes their place.  1: e is dropped; 0: e replaces the
 * directory; -1 after git's message (a changed or untracked file in
 * the directory).
 */
static int
bind_file_over_dir(struct index *idx, struct repo *repo,
		   const struct index_entry *e, const struct unpack_opts *o)
{
	size_t i = first_under(idx, e->name, e->namelen);
	struct strbuf dir = STRBUF_INIT;
	struct stat st;
	int ret = 0;

	if (i == idx->nr)
		return 0;	/* no directory: nothing special */
	if (!o->update || o->index_only || lstat(e->name, &st) < 0 ||
	    !S_ISDIR(st.st_mode))
		return 1;
	for (; i < idx->nr; i++) {
		struct index_entry *c = idx->entries[i];

		if (c->namelen <= e->namelen ||
		    memcmp(c->name, e->name, e->namelen) ||
		    c->name[e->namelen] != '/')
			break;
		if (!unpack_uptodate(repo, idx, c, o)) {
			report(o, "Entry '%s' not uptodate. Cannot merge.",
			       c->name);
			return -1;
		}
	}
	strbuf_addstr(&dir, e->name);
	if (!unpack_all_tracked(idx, &dir, o)) {
		report(o, "Updating '%s' would lose untracked files in it",
		       e->name);
		ret = -1;
	}
	strbuf_release(&dir);
	return ret;
}

/*
 * Bind t under the prefix: after the checks, the entries added (t
 * without the ones dropped) are left in t for the work-tree update.
 */
static int
bind_prefix(struct index *idx, struct repo *repo, struct list *t,
	    const struct unpack_opts *o)
{
	size_t keep = 0;

	if (bind_conflict(idx, t, o))
		return error_set(E_CONFLICT, "read-tree failed");
	/* with -u: nothing untracked may be overwritten (git: the first) */
	for (size_t i = 0; i < t->nr; i++) {
		int drop = bind_file_over_dir(idx, repo, t->e[i], o);

		if (drop < 0 || (!drop && !absent(idx, t->e[i], o)))
			return error_set(E_CONFLICT, "read-tree failed");
		if (!drop)
			t->e[keep++] = t->e[i];
	}
	t->nr = keep;
	for (size_t i = 0; i < t->nr; i++)
		index_stage_add(idx, t->e[i], INDEX_ADD_REPLACE);
	return index_apply(idx);
}

/*
 * The work tree to the new index: removals first (a directory may
 * become a file), then the writes; 0 or the first failure in order.
 */
int
unpack_update_worktree(struct index *idx, struct repo *repo, struct odb *odb,
		const struct change *ch, size_t nch,
		const struct unpack_opts *o)
{
	struct index_entry **todo = xmalloc(st_mult(nch + 1, sizeof(*todo)));
	struct checkout_report *rep;
	struct checkout co;
	size_t n = 0, nrm = 0;
	int ret = 0;

	for (size_t k = 0; k < nch; k++) {
		nrm += ch[k].remove;
		if (ch[k].update)
			todo[n++] = ch[k].e;
	}
	if (o->progress_total)
		o->progress_total(o->progress.ctx, nrm + n);
	checkout_init(&co, repo, idx, odb);
	/*
	 * git reads the attributes of the new index first, and lets a
	 * filter process delay its answers here (not in checkout-index)
	 */
	co.convert_flags = CONVERT_INDEX_FIRST | CONVERT_CAN_DELAY;
	/* content dirc cannot convert: refused before anything is touched */
	for (size_t k = 0; k < n && !ret; k++)
		ret = checkout_check_conversion(&co, todo[k]);
	for (size_t k = 0; k < nch && !ret; k++) {
		if (!ch[k].remove)
			continue;
		ret = checkout_remove(&co, ch[k].e);
		if (o->progress.add)
			o->progress.add(o->progress.ctx, 1);
	}
	/* git reads the patterns again for the first file's attributes */
	for (size_t k = 0; k < n && o->sparse; k++)
		if (S_ISREG(todo[k]->mode)) {
			sparse_warn_again(o->sparse);
			break;
		}
	co.force = 1;
	co.refresh = 1;
	co.progress = o->progress;
	rep = xcalloc(n + 1, sizeof(*rep));
	if (!ret && checkout_many(&co, todo, n, 0, rep, NULL))
		for (size_t k = 0; k < n && !ret; k++)
			if (rep[k].ret < 0)
				ret = error_restore(&rep[k].err);
	for (size_t k = 0; k < n; k++)
		error_saved_release(&rep[k].err);
	free(rep);
	free(todo);
	checkout_release(&co);
	return ret;
}

/*
 * An entry leaving the index where the work tree has a directory: 0
 * after git's message if untracked files in it would be lost (git checks
 * this before the entry itself; not for an entry sparse checkout leaves
 * out), else 1.
 */
static int
lost_in_dir(const struct index *idx, const struct index_entry *old,
	    const struct unpack_opts *o)
{
	struct strbuf dir = STRBUF_INIT;
	struct stat st;
	int ok = 1;

	if (!o->update || o->index_only || S_ISGITLINK(old->mode) ||
	    (o->sparse && old->state & CE_NEW_SKIP_WORKTREE) ||
	    lstat(old->name, &st) < 0 || !S_ISDIR(st.st_mode))
		return 1;
	strbuf_addstr(&dir, old->name);
	if (!unpack_all_tracked(idx, &dir, o)) {
		report(o, "Updating '%s' would lose untracked files in it",
		       old->name);
		ok = 0;
	}
	strbuf_release(&dir);
	return ok;
}

/*
 * The one-way merge of the index with tree list t: into result[] and
 * the work-tree changes ch[].  0, or -E_CONFLICT after the messages.
 */
static int
oneway(struct index *idx, struct repo *repo, const struct list *t,
       struct index_entry **result, size_t *nres, struct change *ch,
       size_t *nch, const struct unpack_opts *o)
{
	const char *unmerged = NULL;	/* the last unmerged path dropped */
	size_t i = 0, j = 0;
	int bad = 0;

	while ((i < idx->nr || j < t->nr) && !bad) {
		struct index_entry *old = i < idx->nr ? idx->entries[i] : NULL;
		struct index_entry *a = j < t->nr ? t->e[j] : NULL;
		int cmp;

		if (old && (ce_stage(old) ||
			    (i + 1 < idx->nr && ce_stage(idx->entries[i + 1]) &&
			     !strcmp(idx->entries[i + 1]->name, old->name)))) {
			/*
			 * --reset: an unmerged path is dropped whole (a
			 * stage 0 beside its stages too); its file goes
			 * with it unless the tree brings the path back.
			 */
			size_t first = i;

			unmerged = old->name;
			while (i < idx->nr &&
			       !strcmp(idx->entries[i]->name, old->name))
				i++;
			if (o->update &&
			    index_entries_pos(t->e, t->nr, old->name,
					      old->namelen, -1) < 0) {
				ch[*nch].e = idx->entries[first];
				ch[(*nch)++].remove = 1;
			}
			continue;
		}
		if (!old && !a)
			break;	/* the loop's condition says never */
		cmp = !old ? 1 : !a ? -1 : cmp_entry(&old, &a);
		if (cmp < 0) {
			/* left the index */
			if (!o->reset && !lost_in_dir(idx, old, o))
				bad = 1;
			else if (!o->reset &&
				 !unpack_uptodate(repo, idx, old, o)) {
				report(o, "Entry '%s' not uptodate. Cannot "
				       "merge.", old->name);
				bad = 1;
			}
			ch[*nch].e = old;
			ch[(*nch)++].remove = o->update;
			i++;
		} else if (cmp > 0) {
			/* new (sparse: its check waits for its mark) */
			if (o->sparse && !(unmerged && !strcmp(unmerged,
							       a->name)))
				a->state |= CE_ADDED;
			else if (!absent(idx, a, o))
				bad = 1;
			result[(*nres)++] = a;
			ch[*nch].e = a;
			ch[(*nch)++].update = o->update;
			j++;
		} else {
			if (same(old, a)) {
				int upd = 0;

				if (o->reset && o->update &&
				    !(old->state & CE_UPTODATE) &&
				    !(old->ext_flags & CE_SKIP_WORKTREE)) {
					struct stat st;

					upd = lstat(old->name, &st) < 0 ||
					      entry_modified(repo, idx, old,
							     &st);
				}
				result[(*nres)++] = old;
				if (upd) {
					ch[*nch].e = old;
					ch[(*nch)++].update = 1;
				}
			} else {
				if (!unpack_uptodate(repo, idx, old, o)) {
					report(o, "Entry '%s' not uptodate. "
					       "Cannot merge.", old->name);
					bad = 1;
				}
				a->ext_flags |= old->ext_flags &
						CE_SKIP_WORKTREE;
				a->state |= old->state & CE_NEW_SKIP_WORKTREE;
				result[(*nres)++] = a;
				ch[*nch].e = a;
				ch[(*nch)++].update = o->update;
			}
			i++;
			j++;
		}
	}
	return bad ? error_set(E_CONFLICT, "read-tree failed") : 0;
}

int
unpack_trees(struct index *idx, struct repo *repo, struct odb *odb,
	     const struct object_id *trees, size_t nr,
	     const struct unpack_opts *o)
{
	struct list *t = xcalloc(nr + 1, sizeof(*t));
	struct change *ch = NULL;
	struct index_entry **result = NULL, **before = NULL;
	size_t nch = 0, nres = 0, ch_alloc = 0, nbefore = 0;
	int threads = workers_count(0, repo->settings.threads, 0, 0);
	int ret = 0;

	if (!nr || (o->prefix && nr > 1))
		BUG("unpack_trees: %zu trees for this form", nr);
	if ((o->merge && !o->reset) || o->prefix) {
		for (size_t k = 0; k < idx->nr; k++)
			if (ce_stage(idx->entries[k])) {
				ret = error_set(E_CONFLICT, "You need to "
						"resolve your current index "
						"first");
				goto out;
			}
	}
	/* git moves the untracked cache into the result, invalidated */
	if ((o->merge || o->reset || o->prefix) && idx->keep_untracked) {
		nbefore = idx->nr;
		before = xmalloc(st_mult(nbefore + 1, sizeof(*before)));
		if (nbefore)	/* an empty index may have no array */
			memcpy(before, idx->entries,
			       nbefore * sizeof(*before));
	}
	if ((o->merge || o->reset) && nr > 1) {
		ret = unpack_merge(idx, repo, odb, trees, nr, o);
		goto out;
	}
	for (size_t k = 0; k < nr && !ret; k++)
		ret = load_tree(&t[k], idx, repo, odb, &trees[k], o->prefix);
	if (ret < 0)
		goto out;

	if (o->prefix) {
		ret = bind_prefix(idx, repo, &t[0], o);
		if (!ret && o->update && !o->dry_run) {
			ch = xcalloc(t[0].nr + 1, sizeof(*ch));
			for (size_t k = 0; k < t[0].nr; k++) {
				ch[k].e = t[0].e[k];
				ch[k].update = 1;
			}
			ret = unpack_update_worktree(idx, repo, odb, ch,
						     t[0].nr, o);
		}
		if (!ret)
			unpack_repair_cache_tree(idx, odb, threads, 0);
		goto out;
	}

	if (!o->merge && !o->reset) {
		/* a plain read: the trees, nothing of the index kept */
		overlay(t, nr);
		free(idx->entries);
		idx->entries = t[0].e;
		idx->nr = t[0].nr;
		idx->alloc = t[0].alloc;
		t[0].e = NULL;
		index_clear_resolve_undo(idx);
		index_mark_changed(idx);
		cache_tree_free(idx->tree);
		idx->tree = NULL;
		if (nr == 1)
			ret = cache_tree_prime(idx, odb, &trees[0]);
		else
			unpack_repair_cache_tree(idx, odb, threads, 0);
		goto out;
	}

	result = xmalloc(st_mult(t[0].nr + 1, sizeof(*result)));
	ch_alloc = st_add(t[0].nr, idx->nr) + 1;
	ch = xcalloc(ch_alloc, sizeof(*ch));
	if (o->sparse)
		unpack_sparse_mark(o->sparse, idx->entries, idx->nr);
	ret = oneway(idx, repo, &t[0], result, &nres, ch, &nch, o);
	if (ret < 0)
		goto out;
	if (o->sparse)
		unpack_sparse_apply(idx, repo, o, result, nres, &ch, &nch,
				    &ch_alloc);
	/* the new index */
	free(idx->entries);
	idx->entries = result;
	idx->nr = nres;
	idx->alloc = t[0].nr + 1;
	result = NULL;
	index_clear_resolve_undo(idx);
	index_mark_changed(idx);
	if (o->update && !o->dry_run) {
		ret = unpack_update_worktree(idx, repo, odb, ch, nch, o);
		if (ret < 0)
			goto out;
	}
	ret = cache_tree_prime(idx, odb, &trees[0]);
out:
	if (before && ret >= 0)
		index_untracked_replaced(idx, before, nbefore);
	free(before);
	for (size_t k = 0; k < nr; k++)
		free(t[k].e);
	free(t);
	free(ch);
	free(result);
	return ret;
}
