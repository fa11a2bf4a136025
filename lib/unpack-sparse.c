/*
 * unpack-sparse: read-tree -m -u in a sparse checkout — which entries
 * of the new index keep out of the work tree, and what that does to the
 * work-tree changes a merge planned.
 *
 * Two passes, as git has.  Before the merge every entry of the old index
 * is marked from the patterns (CE_NEW_SKIP_WORKTREE); the merges carry
 * the mark to an entry that replaces one, and mark entries new to the
 * index CE_ADDED.  After the merge the new entries are marked, and each
 * entry's skip-worktree bit goes from what it was ("was") to its mark
 * ("now"):
 *
 *   was  now   work tree
 *   out  out   nothing: not written, its file (if any) not removed
 *   in   out   its file removed — unless the merge does not write it
 *              and the file has local changes: then a warning, and it
 *              stays in
 *   out  in    written — unless a file is in the way: then a warning,
 *              the file stays, the entry is in
 *   in   in    as the merge planned
 *
 * A new entry is "out" before and after if it is out; one that is in is
 * checked for an untracked file in its way here, not during the merge.
 * Every check runs before the work tree changes.
 */
#include "unpack-internal.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "error.h"
#include "index.h"
#include "sparse.h"
#include "strbuf.h"
#include "tree.h"
#include "unpack.h"

#define SPARSE_STATE (CE_NEW_SKIP_WORKTREE | CE_ADDED | CE_WT_UPDATE)

void
unpack_sparse_mark(struct sparse *sp, struct index_entry **entries,
		   size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		struct index_entry *e = entries[i];

		e->state &= ~SPARSE_STATE;
		if (!ce_stage(e) && !sparse_path_in(sp, e->name, e->namelen,
						    e->mode))
			e->state |= CE_NEW_SKIP_WORKTREE;
	}
}

static int
cmp_name(const void *a, const void *b)
{
	const struct index_entry *x = *(const struct index_entry *const *)a;
	const struct index_entry *y = *(const struct index_entry *const *)b;

	return index_name_cmp(x->name, x->namelen, y->name, y->namelen);
}

/*
 * Nothing in the way of writing e (git's verify_absent): no file at a
 * leading directory or at its path, but one the merge removes or one
 * the ignore rules let go (o->ignored).
 */
static int
nothing_in_the_way(const struct index *idx, const struct index_entry *e,
		   struct index_entry **gone, size_t ngone,
		   const struct unpack_opts *o)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	int ok = 1;

	if (o->index_only || !o->update || o->reset)
		return 1;
	for (const char *p = strchr(e->name, '/'); p; p = strchr(p + 1, '/')) {
		size_t len = p - e->name;

		strbuf_reset(&path);
		strbuf_add(&path, e->name, len);
		if (lstat(path.buf, &st) < 0)
			goto out;
		if (S_ISDIR(st.st_mode))
			continue;
		ok = index_entries_pos(gone, ngone, path.buf, len, -1) >= 0 ||
		     unpack_ignored(o, path.buf, len, 0);
		goto out;
	}
	if (lstat(e->name, &st) < 0 ||
	    unpack_ignored(o, e->name, e->namelen, S_ISGITLINK(e->mode)))
		goto out;
	if (S_ISDIR(st.st_mode)) {
		strbuf_reset(&path);
		strbuf_addstr(&path, e->name);
		ok = S_ISGITLINK(e->mode) || unpack_all_tracked(idx, &path, o);
		goto out;
	}
	ok = index_entries_pos(gone, ngone, e->name, e->namelen, -1) >= 0;
out:
	strbuf_release(&path);
	return ok;
}

static void
push(struct change **ch, size_t *nch, size_t *alloc, struct index_entry *e,
     int update, int remove)
{
	ALLOC_GROW(*ch, *nch + 1, *alloc);
	(*ch)[*nch].e = e;
	(*ch)[*nch].update = update;
	(*ch)[*nch].remove = remove;
	(*nch)++;
}

/* The skip-worktree bit of e goes from was to its mark; see the top. */
static void
apply_one(struct index *idx, struct repo *repo, const struct unpack_opts *o,
	  struct index_entry *e, struct index_entry **gone, size_t ngone,
	  struct change **out, size_t *nout, size_t *alloc)
{
	int was, now, upd = !!(e->state & CE_WT_UPDATE);

	if (ce_stage(e))
		now = 0;
	else if (e->state & CE_ADDED)
		now = !sparse_path_in(o->sparse, e->name, e->namelen, e->mode);
	else
		now = !!(e->state & CE_NEW_SKIP_WORKTREE);
	if (e->state & CE_ADDED && now)
		e->ext_flags |= CE_SKIP_WORKTREE;
	if (e->state & CE_ADDED && !now &&
	    !nothing_in_the_way(idx, e, gone, ngone, o))
		unpack_report(o, "Path '%s' already present; will not "
			      "overwrite with sparse update.", e->name);
	was = !!(e->ext_flags & CE_SKIP_WORKTREE);
	if (now)
		e->ext_flags |= CE_SKIP_WORKTREE;
	else
		e->ext_flags &= ~CE_SKIP_WORKTREE;
	if (was && now) {
		upd = 0;
	} else if (!was && now) {
		if (!upd && !unpack_uptodate(repo, idx, e, o)) {
			unpack_report(o, "Path '%s' not uptodate; will not "
				      "remove from working tree.", e->name);
			e->ext_flags &= ~CE_SKIP_WORKTREE;
		} else {
			push(out, nout, alloc, e, 0, 1);
			upd = 0;
		}
	} else if (was && !now) {
		if (!nothing_in_the_way(idx, e, gone, ngone, o))
			unpack_report(o, "Path '%s' already present; will not "
				      "overwrite with sparse update.",
				      e->name);
		else
			upd = 1;
	}
	if (upd)
		push(out, nout, alloc, e, 1, 0);
	e->state &= ~SPARSE_STATE;
}

/*
 * git's marking of the new entries walks the index directory by
 * directory, looking at new entries only; but a directory the cone takes
 * whole, reached through its first new entry, has the skip-worktree
 * marks cleared from that entry to its end, new or not.  An old entry
 * there that was out of the work tree is then taken as in already, and
 * is not written (git 2.39 does so).
 */
static void
cone_quirk(struct sparse *sp, struct index_entry **res, size_t nres)
{
	const char *dir = NULL;	/* the current directory taken whole */
	size_t dirlen = 0;
	int seen_new = 0;

	for (size_t i = 0; i < nres; i++) {
		struct index_entry *e = res[i];
		size_t d = sparse_recursive_dir(sp, e->name, e->namelen);

		if (!d) {
			dir = NULL;
			continue;
		}
		if (!dir || d != dirlen || memcmp(dir, e->name, d)) {
			dir = e->name;
			dirlen = d;
			seen_new = 0;
		}
		seen_new |= !!(e->state & CE_ADDED);
		if (seen_new) {
			e->ext_flags &= ~CE_SKIP_WORKTREE;
			e->state &= ~CE_NEW_SKIP_WORKTREE;
		}
	}
}

void
unpack_sparse_apply(struct index *idx, struct repo *repo,
		    const struct unpack_opts *o, struct index_entry **res,
		    size_t nres, struct change **ch, size_t *nch,
		    size_t *ch_alloc)
{
	struct index_entry **gone = xmalloc(st_mult(*nch + 1, sizeof(*gone)));
	struct change *out = NULL;
	struct stat st;
	size_t ngone = 0, nout = 0, alloc = 0, i = 0, j = 0;

	for (size_t k = 0; k < *nch; k++) {
		if ((*ch)[k].remove)
			gone[ngone++] = (*ch)[k].e;
		if ((*ch)[k].update)
			(*ch)[k].e->state |= CE_WT_UPDATE;
	}
	sort_array(gone, ngone, sizeof(*gone), cmp_name);
	cone_quirk(o->sparse, res, nres);
	/* in name order, as git warns in index order */
	while (i < ngone || j < nres) {
		int cmp = i == ngone ? 1 : j == nres ? -1 :
			  cmp_name(&gone[i], &res[j]);

		if (cmp <= 0) {
			struct index_entry *e = gone[i++];
			int was = !!(e->ext_flags & CE_SKIP_WORKTREE);
			int now = !!(e->state & CE_NEW_SKIP_WORKTREE);

			/* a file that was out of the work tree stays */
			if (!(was && now))
				push(&out, &nout, &alloc, e, 0, 1);
			/*
			 * git asks whether a removed entry leaving the
			 * checkout is up to date, and a removed entry never
			 * is: anything at its path gets the warning (and
			 * goes, as the merge said)
			 */
			if (!was && now && !S_ISGITLINK(e->mode) &&
			    !lstat(e->name, &st))
				unpack_report(o, "Path '%s' not uptodate; will "
					      "not remove from working tree.",
					      e->name);
			e->state &= ~SPARSE_STATE;
			continue;
		}
		apply_one(idx, repo, o, res[j++], gone, ngone, &out, &nout,
			  &alloc);
	}
	free(gone);
	free(*ch);
	*ch = out;
	*nch = nout;
	*ch_alloc = alloc;
}
