/*
 * sparse-index: expanding sparse-directory entries after a read, and
 * collapsing directories into them before a write, as git 2.39 does.
 *
 * A sparse-directory entry on disk (git-formats.md 4.11):
 *
 *   field        value
 *   stat data    all zero (40 bytes, mode 040000 among them)
 *   id           the directory's tree
 *   flags        stage 0, extended; extended flags: skip-worktree
 *   name         the directory's path and a trailing '/' ("c/d/")
 *
 * and the index holds an "sdir" extension of length 0 (git reads any
 * length and ignores the bytes; a directory entry alone, without sdir,
 * is enough for git to take the index as sparse).
 *
 * Invariants: after sparse_index_after_read() (but in KEEP mode) the
 * entries hold no directory; the files of an expanded directory carry
 * CE_SPARSE_FILE until something replaces them.  si->dirs, when
 * si->collapsed, lists the directories git would still hold collapsed,
 * sorted, with how many files each stands for.
 */
#include "sparse-index.h"

#include <sys/stat.h>

#include "cache-tree.h"
#include "config.h"
#include "error.h"
#include "index-internal.h"
#include "index.h"
#include "odb.h"
#include "repo.h"
#include "sparse.h"
#include "strbuf.h"
#include "strmap.h"
#include "tree-walk.h"
#include "tree.h"

/* One directory collapsed in git's view. */
struct sparse_dir_rec {
	struct index_entry *dir;	/* the 040000 entry; from idx->pool */
	size_t files;			/* the entries it stands for */
};

struct sparse_index {
	int allowed;		/* index.sparse and cone patterns: write
				 * collapsed */
	int collapsed;		/* git holds dirs[] collapsed */
	int tree_stale;		/* git expanded since: the cache-tree's
				 * leaves for dirs[] are no longer right */
	struct sparse_dir_rec *dirs;	/* owned array, sorted by name */
	size_t nr, alloc;
	struct sparse sp;	/* the patterns, when allowed */
	/* SPARSE_INDEX_MERGE: the outermost directories outside the cone
	 * the index read held ("c/"), and whether git held each collapsed */
	struct strmap outer;	/* name -> (void *)1 collapsible, 2 not */
	int merge;
};

int
sparse_index_is_dir(const struct index_entry *e)
{
	return S_ISDIR(e->mode);
}

int
sparse_index_is_collapsed(const struct index *idx)
{
	return idx->sparse && idx->sparse->collapsed;
}

void
sparse_index_free(struct sparse_index *si)
{
	if (!si)
		return;
	free(si->dirs);
	sparse_release(&si->sp);
	strmap_release(&si->outer);
	free(si);
}

/* ---- expanding ---- */

struct expand_ctx {
	struct index *idx;
	struct index_entry ***out;	/* the new array */
	size_t *nr, *alloc;
	struct strbuf path;		/* "<dir>/" then the file's path */
	size_t dirlen;
};

static int
add_file(const struct tree_walk_entry *te, void *ctx_)
{
	struct expand_ctx *ctx = ctx_;
	struct index_entry *e;

	if (S_ISDIR(te->mode))
		return TREE_WALK_RECURSE;
	strbuf_setlen(&ctx->path, ctx->dirlen);
	strbuf_add(&ctx->path, te->path, te->len);
	e = index_entry_new(ctx->idx, ctx->path.buf, ctx->path.len);
	e->mode = te->mode;
	oidcpy(&e->oid, te->oid);	/* only the id's bytes are there */
	e->ext_flags = CE_SKIP_WORKTREE;
	e->state = CE_SPARSE_FILE;
	ALLOC_GROW(*ctx->out, *ctx->nr + 1, *ctx->alloc);
	(*ctx->out)[(*ctx->nr)++] = e;
	return 0;
}

/*
 * Replace every directory entry of idx by the files of its tree; with
 * remember, record them in si->dirs (git still holds them collapsed).
 */
static int
expand(struct index *idx, struct repo *repo, struct sparse_index *si,
       int remember)
{
	struct expand_ctx ctx = { .idx = idx, .path = STRBUF_INIT };
	struct index_entry **out = NULL;
	size_t nr = 0, alloc = 0;
	struct odb *odb = NULL;
	int ret = 0;

	ctx.out = &out;
	ctx.nr = &nr;
	ctx.alloc = &alloc;
	si->nr = 0;
	for (size_t i = 0; i < idx->nr; i++) {
		struct index_entry *e = idx->entries[i];
		size_t before = nr;

		if (!S_ISDIR(e->mode)) {
			ALLOC_GROW(out, nr + 1, alloc);
			out[nr++] = e;
			continue;
		}
		/* git says so where it expands (not to look inside) */
		if (!remember && !(e->ext_flags & CE_SKIP_WORKTREE))
			diag_emit(DIAG_WARNING, "index entry is a directory, "
				  "but not sparse (%08x)",
				  (unsigned)((e->flags & (CE_VALID |
							  CE_STAGEMASK)) |
					     (e->ext_flags ? CE_EXTENDED : 0) |
					     (uint32_t)e->ext_flags << 16));
		if (!odb && (ret = repo_odb(&odb, repo)) < 0)
			goto out;
		strbuf_reset(&ctx.path);
		strbuf_add(&ctx.path, e->name, e->namelen);
		ctx.dirlen = e->namelen;
		ret = tree_walk(odb, &e->oid, NULL, add_file, &ctx);
		if (ret < 0) {
			struct strbuf pre = STRBUF_INIT;

			strbuf_addstr(&pre, error_msg());
			ret = error_set_pre(-ret, pre.buf, "unable to expand "
					    "sparse directory '%s' of the "
					    "index: its tree %s cannot be "
					    "read", e->name,
					    oid_to_hex(&e->oid));
			strbuf_release(&pre);
			goto out;
		}
		if (remember) {
			ALLOC_GROW(si->dirs, si->nr + 1, si->alloc);
			si->dirs[si->nr].dir = e;
			si->dirs[si->nr].files = nr - before;
			si->nr++;
		}
	}
	/* a damaged index may hold a directory and files inside it */
	for (size_t i = 1; i < nr; i++) {
		const struct index_entry *a = out[i - 1], *b = out[i];
		int cmp = index_name_cmp(a->name, a->namelen, b->name,
					 b->namelen);

		if (cmp > 0 || (!cmp && ce_stage(a) >= ce_stage(b))) {
			ret = error_set(E_CORRUPT, "index file corrupt: sparse "
					"directory entries overlap other "
					"entries near '%s'", b->name);
			goto out;
		}
	}
	free(idx->entries);
	idx->entries = out;
	idx->nr = nr;
	idx->alloc = alloc;
	out = NULL;
out:
	free(out);
	strbuf_release(&ctx.path);
	return ret;
}

/* git's ensure_full_index(): everything expanded, the cache-tree rebuilt. */
static int
expand_full(struct index *idx, struct repo *repo, struct sparse_index *si,
	    int rebuild_tree)
{
	struct odb *odb;
	int ret = expand(idx, repo, si, 0);

	si->nr = 0;
	si->collapsed = 0;
	si->tree_stale = 0;
	if (ret < 0 || !rebuild_tree)
		return ret;
	cache_tree_free(idx->tree);
	idx->tree = NULL;
	if (idx->nr && repo_odb(&odb, repo) == 0) {
		if (cache_tree_update(idx, odb, CACHE_TREE_SILENT,
				      idx->threads) < 0) {
			/* git goes on without a valid cache-tree */
			cache_tree_free(idx->tree);
			idx->tree = NULL;
		} else {
			/* git: a cache-tree built is a change to write */
			index_mark_changed(idx);
		}
	}
	error_clear();
	return 0;
}

/* ---- collapsing ---- */

/* Is directory path[0..len) ("c/d/") inside the cone?  git asks "c/d/-". */
static int
dir_in_cone(struct sparse_index *si, struct strbuf *tmp, const char *path,
	    size_t len)
{
	strbuf_reset(tmp);
	strbuf_add(tmp, path, len);
	strbuf_addch(tmp, '-');
	return sparse_path_in(&si->sp, tmp->buf, tmp->len, 0100644);
}

struct collapse_ctx {
	struct index *idx;
	struct sparse_index *si;
	struct strbuf tmp;
};

/*
 * The directory prefix (len bytes with its slash; 0 for the top) holds
 * entries [lo, hi); node is its cache-tree node (NULL: none).  Record in
 * si->dirs each directory git would collapse.
 */
static void
collapse_rec(struct collapse_ctx *c, size_t lo, size_t hi, const char *prefix,
	     size_t len, struct cache_tree *node)
{
	struct index_entry **v = c->idx->entries;
	size_t i;

	if (len && node && node->entry_count >= 0 &&
	    !dir_in_cone(c->si, &c->tmp, prefix, len)) {
		for (i = lo; i < hi; i++)
			if (ce_stage(v[i]) || S_ISGITLINK(v[i]->mode) ||
			    !(v[i]->ext_flags & CE_SKIP_WORKTREE))
				break;
		if (i == hi) {
			struct index_entry *d =
				index_entry_new(c->idx, prefix, len);

			for (i = lo; i < hi; i++)
				v[i]->state |= CE_SPARSE_FILE;

			d->mode = S_IFDIR;
			d->oid = node->oid;
			d->ext_flags = CE_SKIP_WORKTREE;
			ALLOC_GROW(c->si->dirs, c->si->nr + 1, c->si->alloc);
			c->si->dirs[c->si->nr].dir = d;
			c->si->dirs[c->si->nr].files = hi - lo;
			c->si->nr++;
			return;
		}
	}
	for (i = lo; i < hi;) {
		const char *name = v[i]->name + len;
		const char *slash = strchr(name, '/');
		size_t clen, end;
		struct cache_tree_sub *sub;

		if (!slash) {
			i++;
			continue;
		}
		clen = slash - name;
		for (end = i + 1; end < hi; end++)
			if (v[end]->namelen <= len + clen ||
			    memcmp(v[end]->name + len, name, clen + 1))
				break;
		sub = node ? cache_tree_sub(node, name, clen, 0) : NULL;
		collapse_rec(c, i, end, v[i]->name, len + clen + 1,
			     sub ? sub->tree : NULL);
		i = end;
	}
}

/*
 * The cache-tree of the collapsed index: a collapsed directory's node
 * covers one entry and has no children; the valid nodes above it cover
 * that many fewer.
 */
static void
collapse_tree(struct cache_tree *root, const struct sparse_dir_rec *d)
{
	const char *p = d->dir->name;
	size_t len = d->dir->namelen - 1;	/* without the slash */
	struct cache_tree *t = root;

	while (t) {
		const char *slash = memchr(p, '/', len);
		size_t clen = slash ? (size_t)(slash - p) : len;
		struct cache_tree_sub *s;

		if (t->entry_count >= 0)
			t->entry_count -= (int)d->files - 1;
		s = cache_tree_sub(t, p, clen, 0);
		if (!s)
			return;
		t = s->tree;
		if (!slash) {
			t->entry_count = 1;
			t->subtree_nr = 0;
			return;
		}
		p = slash + 1;
		len -= clen + 1;
	}
}

/*
 * git's convert_to_sparse() on the full index in memory: 1 if it is now
 * collapsed in git's view (si->dirs may be empty), 0 if git leaves it
 * full (an empty index, an unmerged entry, a cache-tree that cannot be
 * built).
 */
static int
convert(struct index *idx, struct repo *repo, struct sparse_index *si)
{
	struct collapse_ctx c = { .idx = idx, .si = si, .tmp = STRBUF_INIT };
	struct odb *odb;

	if (!idx->nr)
		return 0;
	for (size_t i = 0; i < idx->nr; i++)
		if (ce_stage(idx->entries[i]))
			return 0;
	if (si->tree_stale || !cache_tree_fully_valid(idx->tree)) {
		cache_tree_free(idx->tree);
		idx->tree = NULL;
		if (repo_odb(&odb, repo) < 0 ||
		    cache_tree_update(idx, odb, CACHE_TREE_MISSING_OK |
				      CACHE_TREE_SILENT, idx->threads) < 0) {
			error_clear();
			cache_tree_free(idx->tree);
			idx->tree = NULL;
			si->tree_stale = 0;
			return 0;
		}
	}
	si->tree_stale = 0;
	si->nr = 0;
	collapse_rec(&c, 0, idx->nr, "", 0, idx->tree);
	strbuf_release(&c.tmp);
	for (size_t k = 0; k < si->nr; k++)
		collapse_tree(idx->tree, &si->dirs[k]);
	si->collapsed = 1;
	/* git builds the cache-tree of the result: a change to write */
	index_mark_changed(idx);
	return 1;
}

/*
 * The collapsed entries of idx (si->dirs in place of their files) into
 * *out; 0, or -1 if a directory's files are no longer as expanded.
 */
static int
build_view(struct index *idx, struct sparse_index *si,
	   struct index_entry ***out, size_t *out_nr)
{
	struct index_entry **v = xmalloc(st_mult(idx->nr + 1, sizeof(*v)));
	size_t n = 0, k = 0;

	for (size_t i = 0; i < idx->nr;) {
		struct index_entry *e = idx->entries[i];
		const struct index_entry *d =
			k < si->nr ? si->dirs[k].dir : NULL;
		size_t files;

		if (!d || e->namelen <= d->namelen ||
		    memcmp(e->name, d->name, d->namelen)) {
			v[n++] = e;
			i++;
			continue;
		}
		files = si->dirs[k].files;
		if (i + files > idx->nr)
			goto changed;
		for (size_t j = i; j < i + files; j++) {
			const struct index_entry *f = idx->entries[j];

			if (!(f->state & CE_SPARSE_FILE) || ce_stage(f) ||
			    !(f->ext_flags & CE_SKIP_WORKTREE) ||
			    f->namelen <= d->namelen ||
			    memcmp(f->name, d->name, d->namelen))
				goto changed;
		}
		if (i + files < idx->nr &&
		    idx->entries[i + files]->namelen > d->namelen &&
		    !memcmp(idx->entries[i + files]->name, d->name,
			    d->namelen))
			goto changed;
		v[n++] = si->dirs[k++].dir;
		i += files;
	}
	if (k != si->nr)
		goto changed;
	*out = v;
	*out_nr = n;
	return 0;
changed:
	free(v);
	return -1;
}

int
sparse_index_view_begin(struct index *idx, struct repo *repo,
			struct sparse_index_view *v)
{
	struct sparse_index *si = idx->sparse;
	struct index_entry **coll;
	size_t coll_nr;

	memset(v, 0, sizeof(*v));
	idx->write_sdir = 0;
	if (!si) {
		/* not prepared: written as it is */
		idx->write_sdir = idx->read_sdir;
		for (size_t i = 0; !idx->write_sdir && i < idx->nr; i++)
			if (S_ISDIR(idx->entries[i]->mode))
				idx->write_sdir = 1;
		return 0;
	}
	if (!si->allowed)
		return 0;
	if (!si->collapsed || si->tree_stale ||
	    build_view(idx, si, &coll, &coll_nr) < 0) {
		/* git expanded the index: convert_to_sparse() at the write */
		if (!convert(idx, repo, si))
			return 0;
		if (build_view(idx, si, &coll, &coll_nr) < 0)
			BUG("sparse index: a fresh collapse does not apply");
	}
	v->saved = idx->entries;
	v->saved_nr = idx->nr;
	v->saved_alloc = idx->alloc;
	v->active = 1;
	idx->entries = coll;
	idx->nr = coll_nr;
	idx->alloc = coll_nr + 1;
	idx->write_sdir = 1;
	return 0;
}

void
sparse_index_view_end(struct index *idx, struct sparse_index_view *v)
{
	if (!v->active)
		return;
	free(idx->entries);
	idx->entries = v->saved;
	idx->nr = v->saved_nr;
	idx->alloc = v->saved_alloc;
	v->active = 0;
}

void
sparse_index_keep_state(struct index *dst, struct index *src)
{
	struct sparse_index *si = src->sparse;

	sparse_index_free(dst->sparse);
	dst->sparse = si;
	src->sparse = NULL;
	if (si) {
		si->nr = 0;
		si->tree_stale = 0;
	}
}

int
sparse_index_names_dir(const struct index *idx, const char *name, size_t len)
{
	const struct sparse_index *si = idx->sparse;

	if (!si || !si->collapsed || si->tree_stale)
		return 0;
	for (size_t k = 0; k < si->nr; k++)
		if (si->dirs[k].dir->namelen == len &&
		    !memcmp(si->dirs[k].dir->name, name, len))
			return 1;
	return 0;
}

/* ---- reading ---- */

void
sparse_index_lookup(struct sparse_index *si, const char *name, size_t len)
{
	size_t lo = 0, hi;

	if (!si->collapsed || si->tree_stale || !si->nr)
		return;
	/* the last directory not after name */
	hi = si->nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct index_entry *d = si->dirs[mid].dir;

		if (index_name_cmp(d->name, d->namelen, name, len) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo) {
		const struct index_entry *d = si->dirs[lo - 1].dir;

		if (d->namelen < len && !memcmp(d->name, name, d->namelen))
			si->tree_stale = 1;	/* git: ensure_full_index */
	}
}

/*
 * The outermost directory of path outside the cone: its length with the
 * slash ("c/" of "c/d/i"), or 0 when path lies inside the cone.
 */
static size_t
outer_dir(struct sparse_index *si, struct strbuf *tmp, const char *path,
	  size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (path[i] == '/' && !dir_in_cone(si, tmp, path, i + 1))
			return i + 1;
	return 0;
}

/* Record the outermost directories outside the cone of the index read. */
static void
record_outer(struct index *idx, struct sparse_index *si)
{
	struct strbuf tmp = STRBUF_INIT;

	si->merge = 1;
	for (size_t i = 0; i < idx->nr; i++) {
		const struct index_entry *e = idx->entries[i];
		size_t d = outer_dir(si, &tmp, e->name, e->namelen);
		uintptr_t was, now;

		if (!d)
			continue;
		was = (uintptr_t)strmap_get(&si->outer, e->name, d);
		now = ce_stage(e) || S_ISGITLINK(e->mode) ||
			!(e->ext_flags & CE_SKIP_WORKTREE) ? 2 : 1;
		if (!was)
			strmap_put(&si->outer,
				   arena_strndup(&idx->names, e->name, d), d,
				   (void *)now);
		else if (was == 1 && now == 2)
			strmap_put(&si->outer, e->name, d, (void *)now);
	}
	strbuf_release(&tmp);
}

void
sparse_index_after_merge(struct index *idx)
{
	struct sparse_index *si = idx->sparse;
	struct strbuf tmp = STRBUF_INIT;

	if (!si || !si->merge || !si->allowed)
		return;
	for (size_t i = 0; i < idx->nr;) {
		const struct index_entry *e = idx->entries[i];
		size_t d = outer_dir(si, &tmp, e->name, e->namelen), end;
		int all_merged = 1;

		if (!d) {
			i++;
			continue;
		}
		for (end = i; end < idx->nr; end++) {
			const struct index_entry *f = idx->entries[end];

			if (f->namelen <= d || memcmp(f->name, e->name, d))
				break;
			if (ce_stage(f))
				all_merged = 0;
		}
		/* git merged it as one entry: held collapsed, or new */
		if (all_merged &&
		    (uintptr_t)strmap_get(&si->outer, e->name, d) != 2)
			for (size_t k = i; k < end; k++)
				if (!(idx->entries[k]->ext_flags &
				      CE_SKIP_WORKTREE)) {
					idx->entries[k]->ext_flags |=
						CE_SKIP_WORKTREE;
					index_mark_changed(idx);
				}
		i = end;
	}
	strbuf_release(&tmp);
}

/* Does the work tree hold something at d's path (git then expands)? */
static int
dir_present(const struct repo *repo, struct strbuf *path,
	    const struct index_entry *d)
{
	struct stat st;

	strbuf_reset(path);
	repo_worktree_path(path, repo, "");
	strbuf_add(path, d->name, d->namelen);
	return !lstat(path->buf, &st);
}

static int
sparse_allowed(struct sparse_index *si, struct repo *repo)
{
	int b = 0;

	if (!repo->settings.sparse_checkout ||
	    !repo->settings.sparse_checkout_cone)
		return 0;
	if (config_get_bool(&repo->config, "index.sparse", &b) < 0) {
		error_clear();
		return 0;
	}
	if (!b)
		return 0;
	return sparse_load(&si->sp, repo) == 1 && si->sp.cone;
}

int
sparse_index_after_read(struct index *idx, struct repo *repo, unsigned mode)
{
	struct sparse_index *si = xcalloc(1, sizeof(*si));
	struct strbuf path = STRBUF_INIT;
	int dirs = 0, check = repo->settings.sparse_checkout &&
		!repo->settings.sparse_expect_outside && repo->worktree;
	int ret = 0;

	sparse_init(&si->sp);
	sparse_index_free(idx->sparse);
	idx->sparse = si;
	si->allowed = sparse_allowed(si, repo);
	for (size_t i = 0; i < idx->nr; i++)
		if (S_ISDIR(idx->entries[i]->mode))
			dirs++;

	if (mode & SPARSE_INDEX_KEEP) {
		struct index_entry **coll;
		size_t coll_nr;

		/*
		 * git's ensure_correct_sparsity(): expanded where the index
		 * may not be sparse, collapsed where it may (and is not yet)
		 */
		if (dirs && !si->allowed) {
			ret = expand_full(idx, repo, si, 0);
			goto out;
		}
		if (!dirs && !idx->read_sdir && si->allowed &&
		    convert(idx, repo, si) &&
		    !build_view(idx, si, &coll, &coll_nr)) {
			free(idx->entries);
			idx->entries = coll;
			idx->nr = coll_nr;
			idx->alloc = coll_nr + 1;
			si->nr = 0;
			si->collapsed = 0;
		}
		/* a sparse directory present in the work tree: expand */
		for (size_t i = 0; check && i < idx->nr; i++)
			if (S_ISDIR(idx->entries[i]->mode) &&
			    dir_present(repo, &path, idx->entries[i])) {
				ret = expand_full(idx, repo, si, 0);
				break;
			}
		goto out;
	}
	if (dirs && (mode & SPARSE_INDEX_AWARE) && si->allowed) {
		ret = expand(idx, repo, si, 1);
		if (ret < 0)
			goto out;
		si->collapsed = 1;
	} else if (dirs) {
		ret = expand_full(idx, repo, si, mode & (SPARSE_INDEX_TREE |
							 SPARSE_INDEX_AWARE));
		if (ret < 0)
			goto out;
		if ((mode & SPARSE_INDEX_MERGE) && si->allowed)
			record_outer(idx, si);
	} else if ((mode & SPARSE_INDEX_MERGE) && si->allowed) {
		record_outer(idx, si);
	} else if ((mode & SPARSE_INDEX_AWARE) && si->allowed) {
		/* git's ensure_correct_sparsity(): collapsed at the read */
		if (idx->read_sdir)
			si->collapsed = 1;
		else
			convert(idx, repo, si);
	}
	/* git: a sparse directory found in the work tree expands the index */
	for (size_t k = 0; check && si->collapsed && k < si->nr; k++)
		if (dir_present(repo, &path, si->dirs[k].dir)) {
			si->tree_stale = 1;
			break;
		}
	if (si->collapsed && si->tree_stale) {
		ret = expand_full(idx, repo, si, 1);
		if (ret < 0)
			goto out;
	}
out:
	strbuf_release(&path);
	if (!ret && !(mode & SPARSE_INDEX_NO_PRESENT))
		sparse_clear_present(idx, repo);
	return ret;
}
