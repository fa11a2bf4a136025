/*
 * unpack: one tree into the index.
 *
 * The tree is read depth-first into a list of new entries (stage 0, zero
 * stat data, canonical modes), sorted as the index sorts; then merged
 * with the old index in one pass.  Work-tree checks run before anything
 * is changed, so a refused merge leaves index and work tree as they were.
 */
#include "unpack.h"

#include <dirent.h>
#include <sys/stat.h>

#include "cache-tree.h"
#include "checkout.h"
#include "error.h"
#include "index.h"
#include "odb.h"
#include "path.h"
#include "repo.h"
#include "strbuf.h"
#include "tree.h"
#include "workers.h"

#define MAX_TREE_DEPTH 4096

struct list {
	struct index_entry **e;
	size_t nr, alloc;
};

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
		if (!mode_ok(&te)) {
			ret = tree_corrupt(oid, te.zero_padded ?
					   "zero-padded file mode" :
					   "bad file mode", &te);
			break;
		}
		if (have_prev) {
			int cmp = tree_name_cmp(prev.name, prev.namelen,
						prev.mode, te.name, te.namelen,
						te.mode);
			int same = prev.namelen == te.namelen &&
				   !memcmp(prev.name, te.name, te.namelen);

			if (same || !cmp) {
				ret = tree_corrupt(oid, "duplicate entries",
						   &te);
				break;
			}
			if (cmp > 0) {
				ret = tree_corrupt(oid, "entries are not "
						   "sorted", &te);
				break;
			}
		}
		prev = te;
		have_prev = 1;
		strbuf_setlen(base, baselen);
		strbuf_add(base, te.name, te.namelen);
		if (memchr(te.name, '/', te.namelen) ||
		    !path_verify(base->buf, te.mode, protect)) {
			diag_emit(DIAG_ERROR, "invalid path '%s'", base->buf);
			ret = error_set(E_CONFLICT, "read-tree failed");
			break;
		}
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
			e->oid = *te.oid;
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
	int cmp = memcmp(x->name, y->name, MIN(x->namelen, y->namelen));

	if (cmp)
		return cmp;
	return x->namelen < y->namelen ? -1 : x->namelen > y->namelen;
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

/* Does the work tree still match old (so overwriting it loses nothing)? */
static int
uptodate(struct repo *repo, struct index *idx, struct index_entry *old,
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
	if (!index_entry_changed(repo, idx, old, &st, MODIFIED_IGNORE_VALID))
		return 1;
	return S_ISGITLINK(old->mode);
}

/* Does every file under dir belong to the index (nothing untracked)? */
static int
all_tracked(const struct index *idx, struct strbuf *dir)
{
	struct dirent *de;
	size_t len = dir->len;
	DIR *d = opendir(dir->buf);
	int ok = 1;

	if (!d)
		return 0;
	while (ok && (de = readdir(d))) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		strbuf_setlen(dir, len);
		strbuf_addch(dir, '/');
		strbuf_addstr(dir, de->d_name);
		if (lstat(dir->buf, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode))
			ok = all_tracked(idx, dir);
		else
			ok = index_pos(idx, dir->buf, dir->len, -1) >= 0;
	}
	closedir(d);
	strbuf_setlen(dir, len);
	return ok;
}

/*
 * No untracked file in the way of a new entry?  1 if none; 0 after
 * saying, as git does, what is in the way: an untracked file at the
 * entry's path or at one of its leading directories, or a directory
 * with untracked files in it.
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
		/* a file where a directory must go: tracked, it leaves */
		if (index_pos(idx, path.buf, path.len, 0) < 0) {
			diag_emit(DIAG_ERROR, "Untracked working tree file "
				  "'%s' would be overwritten by merge.",
				  path.buf);
			ok = 0;
		}
		goto out;
	}
	if (lstat(e->name, &st) < 0)
		goto out;
	if (!S_ISDIR(st.st_mode)) {
		diag_emit(DIAG_ERROR, "Untracked working tree file '%s' would "
			  "be overwritten by merge.", e->name);
		ok = 0;
		goto out;
	}
	if (S_ISGITLINK(e->mode))
		goto out;
	/* a tracked directory turning into a file: fine if nothing in it
	 * is untracked (its files leave the index and are removed) */
	strbuf_reset(&path);
	strbuf_addstr(&path, e->name);
	if (!all_tracked(idx, &path)) {
		diag_emit(DIAG_ERROR, "Updating '%s' would lose untracked "
			  "files in it", e->name);
		ok = 0;
	}
out:
	strbuf_release(&path);
	return ok;
}

struct change {
	struct index_entry *e;
	int update;	/* write it to the work tree */
	int remove;	/* remove its file */
};

static int
bind_prefix(struct index *idx, struct list *t, const struct unpack_opts *o)
{
	for (size_t i = 0; i < t->nr; i++) {
		ssize_t pos = index_pos(idx, t->e[i]->name, t->e[i]->namelen,
					0);

		if (pos >= 0) {
			/* git stops at the first */
			diag_emit(DIAG_ERROR, "Entry '%s' overlaps with '%s'.  "
				  "Cannot bind.", idx->entries[pos]->name,
				  t->e[i]->name);
			return error_set(E_CONFLICT, "read-tree failed");
		}
	}
	/* with -u: nothing untracked may be overwritten (git: the first) */
	for (size_t i = 0; i < t->nr; i++)
		if (!absent(idx, t->e[i], o))
			return error_set(E_CONFLICT, "read-tree failed");
	for (size_t i = 0; i < t->nr; i++)
		index_stage_add(idx, t->e[i], INDEX_ADD_REPLACE);
	return index_apply(idx);
}

/* Write entries into the work tree; 0 or the first failure in order. */
static int
update_worktree(struct index *idx, struct repo *repo, struct odb *odb,
		struct index_entry **todo, size_t n)
{
	struct checkout_report *rep = xcalloc(n + 1, sizeof(*rep));
	struct checkout co;
	int ret = 0;

	checkout_init(&co, repo, idx, odb);
	co.force = 1;
	co.refresh = 1;
	if (checkout_many(&co, todo, n, 0, rep, NULL))
		for (size_t k = 0; k < n && !ret; k++)
			if (rep[k].ret < 0)
				ret = error_restore(&rep[k].err);
	for (size_t k = 0; k < n; k++)
		error_saved_release(&rep[k].err);
	free(rep);
	checkout_release(&co);
	return ret;
}

int
unpack_tree(struct index *idx, struct repo *repo, struct odb *odb,
	    const struct object_id *tree, const struct unpack_opts *o)
{
	struct list t = { NULL, 0, 0 };
	struct strbuf base = STRBUF_INIT;
	struct change *ch = NULL;
	size_t nch = 0, i = 0, j = 0;
	struct index_entry **result = NULL;
	size_t nres = 0;
	int ret, bad = 0;

	if (o->prefix)
		strbuf_addstr(&base, o->prefix);
	ret = read_tree_into(&t, idx, odb, tree, &base, 0,
			     repo->settings.protect);
	strbuf_release(&base);
	if (ret < 0)
		goto out;
	sort_array(t.e, t.nr, sizeof(*t.e), cmp_entry);
	for (size_t k = 1; k < t.nr; k++)
		if (!cmp_entry(&t.e[k - 1], &t.e[k])) {
			ret = error_set(E_CORRUPT, "tree %s has duplicate "
					"entries for '%s'", oid_to_hex(tree),
					t.e[k]->name);
			goto out;
		}

	if (o->prefix) {
		ret = bind_prefix(idx, &t, o);
		if (!ret && o->update)
			ret = update_worktree(idx, repo, odb, t.e, t.nr);
		if (!ret) {
			cache_tree_update(idx, odb, CACHE_TREE_REPAIR |
					  CACHE_TREE_SILENT,
					  workers_count(0, repo->settings.threads, 0, 0));
			error_clear();
		}
		goto out;
	}
	if (o->merge && !o->reset) {
		for (size_t k = 0; k < idx->nr; k++)
			if (ce_stage(idx->entries[k])) {
				ret = error_set(E_CONFLICT, "You need to resolve "
						"your current index first");
				goto out;
			}
	}

	result = xmalloc(st_mult(t.nr + 1, sizeof(*result)));
	ch = xcalloc(st_add(t.nr, idx->nr) + 1, sizeof(*ch));
	if (!o->merge) {
		/* a plain read: the tree, nothing kept */
		for (size_t k = 0; k < t.nr; k++)
			result[nres++] = t.e[k];
		goto apply;
	}
	while ((i < idx->nr || j < t.nr) && !bad) {
		struct index_entry *old = i < idx->nr ? idx->entries[i] : NULL;
		struct index_entry *a = j < t.nr ? t.e[j] : NULL;
		int cmp;

		if (old && (ce_stage(old) ||
			    (i + 1 < idx->nr && ce_stage(idx->entries[i + 1]) &&
			     !strcmp(idx->entries[i + 1]->name, old->name)))) {
			/* --reset: an unmerged path is dropped whole (a
			 * stage 0 beside its stages too) */
			i++;
			continue;
		}
		cmp = !old ? 1 : !a ? -1 :
			cmp_entry(&old, &a);
		if (cmp < 0) {
			/* left the index */
			if (!o->reset && !uptodate(repo, idx, old, o)) {
				diag_emit(DIAG_ERROR, "Entry '%s' not "
					  "uptodate. Cannot merge.", old->name);
				bad = 1;
			}
			ch[nch].e = old;
			ch[nch++].remove = o->update;
			i++;
		} else if (cmp > 0) {
			/* new */
			if (!absent(idx, a, o))
				bad = 1;
			result[nres++] = a;
			ch[nch].e = a;
			ch[nch++].update = o->update;
			j++;
		} else {
			if (same(old, a)) {
				int upd = 0;

				if (o->reset && o->update &&
				    !(old->state & CE_UPTODATE) &&
				    !(old->ext_flags & CE_SKIP_WORKTREE)) {
					struct stat st;

					upd = lstat(old->name, &st) < 0 ||
					      index_match_stat(repo, old, &st);
				}
				result[nres++] = old;
				if (upd) {
					ch[nch].e = old;
					ch[nch++].update = 1;
				}
			} else {
				if (!uptodate(repo, idx, old, o)) {
					diag_emit(DIAG_ERROR, "Entry '%s' not "
						  "uptodate. Cannot merge.",
						  old->name);
					bad = 1;
				}
				a->ext_flags |= old->ext_flags &
						CE_SKIP_WORKTREE;
				result[nres++] = a;
				ch[nch].e = a;
				ch[nch++].update = o->update;
			}
			i++;
			j++;
		}
	}
	if (bad) {
		ret = error_set(E_CONFLICT, "read-tree failed");
		goto out;
	}
apply:
	/* the new index */
	free(idx->entries);
	idx->entries = result;
	idx->nr = nres;
	idx->alloc = t.nr + 1;
	result = NULL;
	index_clear_resolve_undo(idx);
	index_mark_changed(idx);
	if (o->update) {
		struct index_entry **todo = xmalloc(st_mult(nch + 1,
							    sizeof(*todo)));
		struct checkout co;
		size_t n = 0;

		/* removals first: a directory may become a file */
		checkout_init(&co, repo, idx, odb);
		for (size_t k = 0; k < nch && !ret; k++)
			if (ch[k].remove)
				ret = checkout_remove(&co, ch[k].e);
		checkout_release(&co);
		for (size_t k = 0; k < nch; k++)
			if (ch[k].update)
				todo[n++] = ch[k].e;
		if (!ret)
			ret = update_worktree(idx, repo, odb, todo, n);
		free(todo);
		if (ret < 0)
			goto out;
	}
	ret = cache_tree_prime(idx, odb, tree);
out:
	free(t.e);
	free(ch);
	free(result);
	return ret;
}
