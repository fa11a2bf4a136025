/*
 * diff: the raw diff family's walks (tree/tree, tree/index, index/work
 * tree) and the one place their records are filtered and printed.  The
 * contract, the record and the orders are in diff.h.
 *
 * Pathspecs: diff-index and diff-files match each leaf path with
 * pathspec_match() (a gitlink as a directory, so "sub/" names it), as
 * git's ce_path_match().  diff-tree asks at every tree entry, as git's
 * tree_entry_interesting(): a path is interesting when an item names it
 * or a directory above it, when a glob matches it, when (a directory) an
 * item's text continues below it ("d/f*" for "d"), or — recursing — when
 * it is a directory and some item has a glob; an exclusion drops a file
 * it matches and a directory strictly below it.
 */
#include "diff.h"

#include <ctype.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache-tree.h"
#include "error.h"
#include "index.h"
#include "modified.h"
#include "object-name.h"
#include "odb.h"
#include "pathspec.h"
#include "quote.h"
#include "refs.h"
#include "repo.h"
#include "tree.h"
#include "workers.h"

/* Deeper trees are refused rather than risking the stack. */
#define DIFF_MAX_DEPTH 4096
#define OUT_FLUSH_AT 65536

void
diff_opts_init(struct diff_opts *o, struct repo *repo, struct odb *odb)
{
	memset(o, 0, sizeof(*o));
	o->stage = 2;
	o->output = DIFF_OUT_RAW;
	o->abbrev = DIFF_ABBREV_FULL;
	o->quote_high = repo ? repo->settings.quotepath : 1;
	strbuf_init(&o->header, 0);
	strbuf_init(&o->out, 0);
	o->repo = repo;
	o->odb = odb;
}

void
diff_opts_release(struct diff_opts *o)
{
	strbuf_release(&o->header);
	strbuf_release(&o->out);
	read_buf_release(&o->rb);
}

void
diff_set_header(struct diff_opts *o, const char *line, size_t len)
{
	strbuf_reset(&o->header);
	strbuf_add(&o->header, line, len);
	o->header_pending = 1;
}

int
diff_flush(struct diff_opts *o)
{
	if (!o->write_out || !o->out.len)
		return 0;
	return o->write_out(o->write_ctx, &o->out);
}

/* ---- printing ---- */

static void
add_oid(struct diff_opts *o, const struct object_id *oid)
{
	char hex[HASH_MAX_HEXSZ + 1];

	if (o->abbrev == DIFF_ABBREV_FULL || o->abbrev >= HASH_HEXSZ) {
		strbuf_add(&o->out, oid_to_hex_r(hex, oid), HASH_HEXSZ);
		return;
	}
	oname_abbrev(hex, o->repo, oid, o->abbrev);
	strbuf_addstr(&o->out, hex);
}

static void
add_path(struct diff_opts *o, const char *path, size_t len)
{
	if (o->nul)
		strbuf_add(&o->out, path, len);
	else
		quote_c_style(&o->out, path, len, o->quote_high);
	strbuf_addch(&o->out, o->nul ? '\0' : '\n');
}

static void
print_header(struct diff_opts *o)
{
	if (!o->header_pending)
		return;
	strbuf_addbuf(&o->out, &o->header);
	o->header_pending = 0;
}

static void
print_record(struct diff_opts *o, const struct diff_record *r)
{
	char buf[32];

	print_header(o);
	switch (o->output) {
	case DIFF_OUT_NONE:
		return;
	case DIFF_OUT_NAME_ONLY:
		break;
	case DIFF_OUT_RAW:
		snprintf(buf, sizeof(buf), ":%06o %06o ", r->old_mode,
			 r->new_mode);
		strbuf_addstr(&o->out, buf);
		add_oid(o, &r->old_oid);
		strbuf_addch(&o->out, ' ');
		add_oid(o, &r->new_oid);
		strbuf_addch(&o->out, ' ');
		/* fall through */
	case DIFF_OUT_NAME_STATUS:
		strbuf_addch(&o->out, r->status);
		strbuf_addch(&o->out, o->nul ? '\0' : '\t');
		break;
	}
	add_path(o, r->path, r->len);
}

/* ---- pickaxe (-S) ---- */

/* Non-overlapping occurrences of needle, left to right, as git counts. */
static size_t
count_in(const char *hay, size_t len, const char *needle, size_t nlen)
{
	size_t n = 0;

	if (!nlen)
		return 0;
	while (len >= nlen) {
		const char *p = memchr(hay, needle[0], len - nlen + 1);

		if (!p)
			break;
		if (!memcmp(p, needle, nlen)) {
			n++;
			len -= (size_t)(p - hay) + nlen;
			hay = p + nlen;
		} else {
			len -= (size_t)(p - hay) + 1;
			hay = p + 1;
		}
	}
	return n;
}

/*
 * The content of one side of r as git's pickaxe sees it: nothing for an
 * absent side, "Subproject commit <id>\n" for a gitlink, the work-tree
 * file (or link target) for a side read from the work tree, else the
 * blob.  Counts into *count.  0 or a negative E_*.
 */
static int
count_side(struct diff_opts *o, size_t *count, unsigned mode,
	   const struct object_id *oid, int worktree, const char *path)
{
	struct odb_object obj = ODB_OBJECT_INIT;
	int ret;

	*count = 0;
	if (!mode)
		return 0;
	if (S_ISGITLINK(mode)) {
		char line[32 + HASH_MAX_HEXSZ];
		int n = snprintf(line, sizeof(line), "Subproject commit %s\n",
				 oid_to_hex(oid));

		*count = count_in(line, (size_t)n, o->pickaxe, o->pickaxe_len);
		return 0;
	}
	if (worktree) {
		struct strbuf sb = STRBUF_INIT;

		if (S_ISLNK(mode)) {
			char target[4096];
			ssize_t n = readlink(path, target, sizeof(target));

			if (n < 0)
				return error_errno(errno, "readlink(\"%s\")",
						   path);
			strbuf_add(&sb, target, (size_t)n);
		} else {
			ret = strbuf_read_file(&sb, path);
			if (ret < 0) {
				strbuf_release(&sb);
				return ret;
			}
		}
		*count = count_in(sb.buf, sb.len, o->pickaxe, o->pickaxe_len);
		strbuf_release(&sb);
		return 0;
	}
	ret = odb_read(&obj, o->odb, oid, 0);
	if (ret < 0)
		return error_set(-ret, "unable to read %s", oid_to_hex(oid));
	*count = count_in((const char *)obj.data, obj.size, o->pickaxe,
			  o->pickaxe_len);
	odb_object_release(&obj);
	return 0;
}

/* 1 if -S keeps r, 0 if it drops it, or a negative E_*. */
static int
pickaxe_keeps(struct diff_opts *o, const struct diff_record *r,
	      int old_wt, int new_wt)
{
	size_t c1, c2;
	int ret;

	if (!r->old_mode && !r->new_mode)
		return 0;
	if (r->old_mode == r->new_mode && !old_wt && !new_wt &&
	    oideq(&r->old_oid, &r->new_oid))
		return 0;
	ret = count_side(o, &c1, r->old_mode, &r->old_oid, old_wt, r->path);
	if (ret < 0)
		return ret;
	ret = count_side(o, &c2, r->new_mode, &r->new_oid, new_wt, r->path);
	if (ret < 0)
		return ret;
	return c1 != c2;
}

/* ---- emitting ---- */

static char
status_of(const struct diff_record *r)
{
	if (!r->old_mode)
		return 'A';
	if (!r->new_mode)
		return 'D';
	if ((r->old_mode & S_IFMT) != (r->new_mode & S_IFMT))
		return 'T';
	return 'M';
}

/*
 * The common tail of every walk: r has old and new filled in (status
 * 'U' for an unmerged record, else 0 to be computed); new_wt says the new
 * side is the work tree's (its id null, its content on disk).
 */
static int
emit(struct diff_opts *o, struct diff_record *r, int new_wt)
{
	int old_wt = 0;

	if (o->reverse && r->status != 'U') {
		unsigned m = r->old_mode;
		struct object_id t = r->old_oid;

		r->old_mode = r->new_mode;
		r->new_mode = m;
		r->old_oid = r->new_oid;
		r->new_oid = t;
		old_wt = new_wt;
		new_wt = 0;
	}
	if (!r->status)
		r->status = status_of(r);
	if (o->filter) {
		const char *at = strchr(DIFF_STATUS_LETTERS, r->status);

		if (!at || !(o->filter >> (at - DIFF_STATUS_LETTERS) & 1))
			return 0;
	}
	if (o->pickaxe) {
		int keep = pickaxe_keeps(o, r, old_wt, new_wt);

		if (keep <= 0)
			return keep;
	}
	o->has_changes = 1;
	if (o->collect)
		return o->collect(o->collect_ctx, r);
	if (o->quick) {
		/* git still prints the commit line of a commit that changed */
		print_header(o);
		return 0;
	}
	print_record(o, r);
	if (o->out.len >= OUT_FLUSH_AT)
		return diff_flush(o);
	return 0;
}

int
diff_parse_filter(struct diff_opts *o, const char *spec)
{
	const unsigned all = (1u << (sizeof(DIFF_STATUS_LETTERS) - 1)) - 1;
	unsigned shown;

	for (const char *p = spec; *p; p++) {
		int c = (unsigned char)*p;
		const char *at = strchr(DIFF_STATUS_LETTERS, toupper(c));

		if (!at)
			return c;
		if (isupper(c))
			o->filter_upper |= 1u << (at - DIFF_STATUS_LETTERS);
		else
			o->filter_lower |= 1u << (at - DIFF_STATUS_LETTERS);
	}
	shown = o->filter_upper;
	if (o->filter_lower) {
		/*
		 * Exclusions alone start from every status and one more
		 * that git has and dirc never shows: all excluded leaves it,
		 * and the filter on, showing nothing.
		 */
		if (!shown)
			shown = all | (all + 1);
		shown &= ~o->filter_lower;
	}
	o->filter = shown;
	return 0;
}

int
diff_emit(struct diff_opts *o, struct diff_record *r)
{
	return emit(o, r, 0);
}

/* ---- pathspecs ---- */

static int
leaf_matches(const struct diff_opts *o, const char *path, size_t len,
	     unsigned mode)
{
	if (!o->ps || !o->ps->nr)
		return 1;
	return pathspec_match(o->ps, path, len, 0, NULL,
			      S_ISGITLINK(mode) ? PATHSPEC_MATCH_DIRECTORY :
			      0) != 0;
}

/* Is one item's text "path/..." (or "path/" for a gitlink)? */
static int
item_below(const struct pathspec_item *it, const char *path, size_t len,
	   unsigned mode)
{
	if (it->len <= len || it->match[len] != '/' ||
	    memcmp(it->match, path, len))
		return 0;
	return S_ISDIR(mode) || (S_ISGITLINK(mode) && it->len == len + 1);
}

/* git's tree_entry_interesting(), for the whole path of one entry. */
static int
tree_interesting(const struct diff_opts *o, const char *path, size_t len,
		 unsigned mode, int recursing)
{
	const struct pathspec *ps = o->ps;
	unsigned flags = S_ISGITLINK(mode) ? PATHSPEC_MATCH_DIRECTORY : 0;
	int positive = 0;

	if (!ps || !ps->nr)
		return 1;
	for (size_t i = 0; i < ps->nr && !positive; i++) {
		struct pathspec one = { &ps->items[i], 1, ps->items[i].magic };
		const struct pathspec_item *it = &ps->items[i];

		if (it->magic & PATHSPEC_EXCLUDE)
			continue;
		if (pathspec_match_positive(&one, path, len, 0, NULL, flags) ||
		    item_below(it, path, len, mode) ||
		    (recursing && S_ISDIR(mode) &&
		     it->nowildcard_len < it->len))
			positive = 1;
	}
	if (!positive || !(ps->magic & PATHSPEC_EXCLUDE))
		return positive;
	for (size_t i = 0; i < ps->nr; i++) {
		struct pathspec_item copy = ps->items[i];
		struct pathspec one = { &copy, 1, 0 };
		int how;

		if (!(copy.magic & PATHSPEC_EXCLUDE))
			continue;
		copy.magic &= ~PATHSPEC_EXCLUDE;
		one.magic = copy.magic;
		how = pathspec_match_positive(&one, path, len, 0, NULL, flags);
		if (S_ISDIR(mode) ? how == PATHSPEC_MATCHED_RECURSIVELY : how)
			return 0;
	}
	return 1;
}

/* ---- reading trees ---- */

struct tree_cursor {
	struct odb_object obj;
	struct tree_iter it;
	struct tree_entry e;
	int has;			/* e holds an entry */
	const struct object_id *oid;	/* for messages */
};

static int
cursor_next(struct tree_cursor *t)
{
	int ret;

	if (!t->obj.data) {
		t->has = 0;
		return 0;
	}
	ret = tree_iter_next(&t->it, &t->e);
	t->has = ret > 0;
	if (ret < 0)
		return error_set(E_CORRUPT, "unable to read tree %s",
				 oid_to_hex(t->oid));
	return 0;
}

static int
cursor_open(struct diff_opts *o, struct tree_cursor *t,
	    const struct object_id *oid)
{
	int ret;

	memset(t, 0, sizeof(*t));
	t->obj.type = OBJ_NONE;
	t->oid = oid;
	if (!oid)
		return 0;
	ret = odb_read(&t->obj, o->odb, oid, 0);
	if (ret < 0 || t->obj.type != OBJ_TREE) {
		odb_object_release(&t->obj);
		t->obj.data = NULL;
		return error_set(ret == -E_NOTFOUND ? E_NOTFOUND : E_CORRUPT,
				 "unable to read tree %s", oid_to_hex(oid));
	}
	tree_iter_init(&t->it, t->obj.data, t->obj.size);
	return cursor_next(t);
}

static void
cursor_close(struct tree_cursor *t)
{
	odb_object_release(&t->obj);
}

/* ---- tree against tree ---- */

static int
record_tree(struct diff_opts *o, struct strbuf *path,
	    const struct tree_entry *a, const struct tree_entry *b)
{
	struct diff_record r;

	memset(&r, 0, sizeof(r));
	if (a) {
		r.old_mode = a->mode;
		oidcpy(&r.old_oid, a->oid);
	}
	if (b) {
		r.new_mode = b->mode;
		oidcpy(&r.new_oid, b->oid);
	}
	r.path = path->buf;
	r.len = path->len;
	return emit(o, &r, 0);
}

static int walk_trees(struct diff_opts *o, struct strbuf *base,
		      const struct object_id *a, const struct object_id *b,
		      int depth);

/* One name present in a, b or both (the others NULL). */
static int
tree_pair(struct diff_opts *o, struct strbuf *base, const struct tree_entry *a,
	  const struct tree_entry *b, int depth)
{
	const struct tree_entry *e = a ? a : b;
	size_t baselen = base->len;
	int recurse = o->recursive && S_ISDIR(e->mode);
	int ret = 0;

	strbuf_add(base, e->name, e->namelen);
	if (!tree_interesting(o, base->buf, base->len, e->mode, o->recursive))
		goto out;
	if (recurse) {
		if (o->show_trees) {
			ret = record_tree(o, base, a, b);
			if (ret < 0 || diff_can_stop(o))
				goto out;
		}
		strbuf_addch(base, '/');
		ret = walk_trees(o, base, a ? a->oid : NULL, b ? b->oid : NULL,
				 depth + 1);
	} else {
		ret = record_tree(o, base, a, b);
	}
out:
	strbuf_setlen(base, baselen);
	return ret;
}

static int
walk_trees(struct diff_opts *o, struct strbuf *base,
	   const struct object_id *a, const struct object_id *b, int depth)
{
	struct tree_cursor ta, tb;
	int ret;

	if (depth > DIFF_MAX_DEPTH)
		return error_set(E_CORRUPT, "tree %s nests too deeply",
				 oid_to_hex(a ? a : b));
	ret = cursor_open(o, &ta, a);
	if (ret < 0)
		return ret;
	ret = cursor_open(o, &tb, b);
	if (ret < 0) {
		cursor_close(&ta);
		return ret;
	}
	while ((ta.has || tb.has) && !diff_can_stop(o)) {
		int cmp;

		if (!ta.has)
			cmp = 1;
		else if (!tb.has)
			cmp = -1;
		else
			cmp = tree_name_cmp(ta.e.name, ta.e.namelen, ta.e.mode,
					    tb.e.name, tb.e.namelen, tb.e.mode);
		if (cmp < 0) {
			ret = tree_pair(o, base, &ta.e, NULL, depth);
			if (ret >= 0)
				ret = cursor_next(&ta);
		} else if (cmp > 0) {
			ret = tree_pair(o, base, NULL, &tb.e, depth);
			if (ret >= 0)
				ret = cursor_next(&tb);
		} else {
			if (ta.e.mode != tb.e.mode ||
			    !oideq(ta.e.oid, tb.e.oid))
				ret = tree_pair(o, base, &ta.e, &tb.e, depth);
			if (ret >= 0)
				ret = cursor_next(&ta);
			if (ret >= 0)
				ret = cursor_next(&tb);
		}
		if (ret < 0)
			break;
	}
	cursor_close(&ta);
	cursor_close(&tb);
	return ret;
}

int
diff_tree(struct diff_opts *o, const struct object_id *a,
	  const struct object_id *b, const char *base)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	strbuf_addstr(&sb, base);
	if (o->show_trees || o->pickaxe)
		o->recursive = 1;
	ret = walk_trees(o, &sb, a, b, 0);
	strbuf_release(&sb);
	return ret;
}

/* ---- the work tree ---- */

/* git's ce_mode_from_stat(): the mode an index entry would get. */
static unsigned
mode_from_stat(const struct repo *repo, const struct index_entry *e,
	       const struct stat *st)
{
	if (!repo->settings.symlinks && S_ISREG(st->st_mode) &&
	    S_ISLNK(e->mode))
		return e->mode;
	if (!repo->settings.filemode && S_ISREG(st->st_mode))
		return S_ISREG(e->mode) ? e->mode : (S_IFREG | 0644);
	return index_mode_from_stat(st);
}

enum wt_state {
	WT_SAME,	/* stat data matches (or need not be looked at) */
	WT_CHANGED,	/* stat data differs: *mode from the file */
	WT_REMOVED,	/* gone, beyond a symlink, or a plain directory */
	WT_ERROR,	/* lstat failed otherwise: errno in *err */
};

/*
 * git's check_removed(): is e's file gone from the work tree (missing,
 * beyond a symbolic link, or a directory that is not a repository where
 * e is not a gitlink)?  WT_SAME (present, st filled), WT_REMOVED or
 * WT_ERROR (*err set).  dc: this thread's leading-directory cache.
 */
static enum wt_state
check_removed(const struct index_entry *e, struct stat *st, int *err,
	      struct dir_cache *dc)
{
	if (lstat(e->name, st) < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return WT_REMOVED;
		*err = errno;
		return WT_ERROR;
	}
	if (memchr(e->name, '/', e->namelen) &&
	    index_check_leading_path(e->name, e->namelen, dc) < 0) {
		error_clear();
		return WT_REMOVED;
	}
	if (S_ISDIR(st->st_mode) && !S_ISGITLINK(e->mode)) {
		struct object_id head;

		if (refs_resolve_gitlink(&head, e->name) < 0) {
			error_clear();
			return WT_REMOVED;
		}
	}
	return WT_SAME;
}

/*
 * check_removed(), then git's ie_match_stat() (racy entries checked by
 * content): what the work tree says about e.
 */
static enum wt_state
check_worktree(const struct diff_opts *o, const struct index *idx,
	       const struct index_entry *e, unsigned *mode, int *err,
	       struct dir_cache *dc, struct read_buf *rb)
{
	struct stat st;
	enum wt_state s = check_removed(e, &st, err, dc);

	if (s != WT_SAME)
		return s;
	if (modified_check(NULL, o->repo, idx, e, &st, MODIFIED_STAT_ONLY,
			   rb) == ENTRY_CLEAN)
		return WT_SAME;
	*mode = mode_from_stat(o->repo, e, &st);
	return WT_CHANGED;
}

static void
report_errno(const char *path, int err)
{
	diag_emit(DIAG_PLAIN, "%s: %s", path, strerror(err));
}

/* ---- index against tree ---- */

struct index_walk {
	struct diff_opts *o;
	struct index *idx;
	struct dir_cache dc;
	struct strbuf path;	/* scratch for tree-only leaves */
};

/* The end of the entries from pos on that are all one path's stages. */
static size_t
same_name_end(const struct index *idx, size_t pos, size_t end)
{
	const struct index_entry *e = idx->entries[pos];
	size_t i = pos + 1;

	while (i < end && idx->entries[i]->namelen == e->namelen &&
	       !memcmp(idx->entries[i]->name, e->name, e->namelen))
		i++;
	return i;
}

/* The end of the entries in [pos, end) starting with prefix (len bytes). */
static size_t
prefix_end(const struct index *idx, size_t pos, size_t end,
	   const char *prefix, size_t len)
{
	size_t lo = pos, hi = end;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct index_entry *e = idx->entries[mid];

		if (e->namelen >= len && !memcmp(e->name, prefix, len))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * git's get_stat_data(): the mode and id the new side of e has.  -1 if
 * it has none (the file is gone and -m was not given, or unreadable).
 */
static int
new_side(struct index_walk *w, const struct index_entry *e, unsigned *mode,
	 struct object_id *oid, int *wt)
{
	struct diff_opts *o = w->o;
	unsigned m = e->mode;
	int err = 0;

	*mode = e->mode;
	*oid = e->oid;
	*wt = 0;
	if (o->cached || e->flags & CE_VALID ||
	    e->ext_flags & CE_SKIP_WORKTREE)
		return 0;
	switch (check_worktree(o, w->idx, e, &m, &err, &w->dc, &o->rb)) {
	case WT_SAME:
		return 0;
	case WT_CHANGED:
		*mode = m;
		*oid = null_oid;
		*wt = 1;
		return 0;
	case WT_REMOVED:
		return o->match_missing ? 0 : -1;
	case WT_ERROR:
		break;
	}
	return -1;
}

/* A path of the tree (te under base, NULL if none) and of the index. */
static int
index_pair(struct index_walk *w, const struct strbuf *base,
	   const struct tree_entry *te, size_t pos, size_t group_end)
{
	struct diff_opts *o = w->o;
	const struct index_entry *e = pos < group_end ?
				      w->idx->entries[pos] : NULL;
	struct diff_record r;
	unsigned mode;
	int wt = 0;

	if (!e && !te)
		return 0;	/* one side always has the path */
	memset(&r, 0, sizeof(r));
	if (e) {
		r.path = e->name;
		r.len = e->namelen;
	} else {
		strbuf_reset(&w->path);
		strbuf_addbuf(&w->path, base);
		strbuf_add(&w->path, te->name, te->namelen);
		r.path = w->path.buf;
		r.len = w->path.len;
	}
	mode = e ? e->mode : te ? te->mode : 0;
	if (!leaf_matches(o, r.path, r.len, mode))
		return 0;
	if (te) {
		r.old_mode = te->mode;
		oidcpy(&r.old_oid, te->oid);
	}
	if (!e)
		return emit(o, &r, 0);
	if (ce_stage(e) &&
	    (o->cached || e->flags & CE_VALID ||
	     e->ext_flags & CE_SKIP_WORKTREE)) {
		r.status = 'U';
		if (!te)
			r.old_mode = 0;
		return emit(o, &r, 0);
	}
	if (new_side(w, e, &r.new_mode, &r.new_oid, &wt) < 0) {
		if (!te)
			return 0;
		r.new_mode = 0;
		r.new_oid = null_oid;
		return emit(o, &r, 0);
	}
	if (te && r.new_mode == r.old_mode && oideq(&r.new_oid, &r.old_oid))
		return 0;
	return emit(o, &r, wt);
}

/*
 * Order a tree entry against the rest of an index entry's path (rel,
 * rlen bytes) as full paths sort: a file by its name, a directory as
 * "name/"; 0 for a file of the same name, or an index path inside the
 * directory.
 */
static int
entry_vs_index(const struct tree_entry *te, const char *rel, size_t rlen)
{
	size_t n = te->namelen < rlen ? te->namelen : rlen;
	int c = memcmp(te->name, rel, n);

	if (c)
		return c;
	if (!S_ISDIR(te->mode)) {
		if (te->namelen == rlen)
			return 0;
		return te->namelen < rlen ? -1 : 1;
	}
	if (rlen <= te->namelen)
		return 1;
	if (rel[n] == '/')
		return 0;
	return (unsigned char)rel[n] > '/' ? -1 : 1;
}

static int
walk_index(struct index_walk *w, struct strbuf *base,
	   const struct object_id *tree, struct cache_tree *ct, size_t *pos,
	   size_t end, int depth)
{
	struct diff_opts *o = w->o;
	struct index *idx = w->idx;
	struct tree_cursor t;
	size_t baselen = base->len;
	int ret;

	if (depth > DIFF_MAX_DEPTH)
		return error_set(E_CORRUPT, "tree %s nests too deeply",
				 oid_to_hex(tree));
	ret = cursor_open(o, &t, tree);
	if (ret < 0)
		return ret;
	while ((t.has || *pos < end) && !diff_can_stop(o)) {
		const int in_idx = *pos < end;
		const struct index_entry *e = in_idx ?
					      idx->entries[*pos] : NULL;
		const char *rel = in_idx ? e->name + baselen : NULL;
		size_t rlen = in_idx ? e->namelen - baselen : 0;
		int cmp, isdir = t.has && S_ISDIR(t.e.mode);

		if (!t.has)
			cmp = 1;
		else if (!in_idx)
			cmp = -1;
		else
			cmp = entry_vs_index(&t.e, rel, rlen);
		if (cmp > 0) {
			/* only in the index */
			size_t g = same_name_end(idx, *pos, end);

			ret = index_pair(w, base, NULL, *pos, g);
			*pos = g;
		} else if (isdir) {
			/* a directory of the tree, and what the index has in it */
			size_t sub_end = *pos;
			struct cache_tree *sub = NULL;

			strbuf_add(base, t.e.name, t.e.namelen);
			strbuf_addch(base, '/');
			if (!cmp)
				sub_end = prefix_end(idx, *pos, end, base->buf,
						     base->len);
			if (ct) {
				struct cache_tree_sub *s =
					cache_tree_sub(ct, t.e.name,
						       t.e.namelen, 0);
				sub = s ? s->tree : NULL;
			}
			if (o->cached && sub && sub->entry_count >= 0 &&
			    (size_t)sub->entry_count == sub_end - *pos &&
			    oideq(&sub->oid, t.e.oid)) {
				/* the same tree: nothing below can differ */
				*pos = sub_end;
			} else if (o->ps && o->ps->nr &&
				   !pathspec_may_match_below(o->ps, base->buf,
							     base->len)) {
				*pos = sub_end;
			} else {
				ret = walk_index(w, base, t.e.oid, sub, pos,
						 sub_end, depth + 1);
			}
			strbuf_setlen(base, baselen);
			if (ret >= 0)
				ret = cursor_next(&t);
		} else if (cmp < 0) {
			/* only in the tree */
			ret = index_pair(w, base, &t.e, 0, 0);
			if (ret >= 0)
				ret = cursor_next(&t);
		} else {
			size_t g = same_name_end(idx, *pos, end);

			ret = index_pair(w, base, &t.e, *pos, g);
			*pos = g;
			if (ret >= 0)
				ret = cursor_next(&t);
		}
		if (ret < 0)
			break;
	}
	cursor_close(&t);
	return ret;
}

int
diff_index(struct diff_opts *o, struct index *idx,
	   const struct object_id *tree)
{
	struct index_walk w = { .o = o, .idx = idx, .dc = DIR_CACHE_INIT,
				.path = STRBUF_INIT };
	struct strbuf base = STRBUF_INIT;
	size_t pos = 0;
	int ret;

	/* a valid cache-tree naming the tree itself: nothing differs */
	if (o->cached && idx->tree && idx->tree->entry_count >= 0 &&
	    (size_t)idx->tree->entry_count == idx->nr &&
	    oideq(&idx->tree->oid, tree))
		return 0;
	ret = walk_index(&w, &base, tree, idx->tree, &pos, idx->nr, 0);
	strbuf_release(&base);
	strbuf_release(&w.path);
	dir_cache_release(&w.dc);
	return ret;
}

/* ---- index against work tree ---- */

struct files_job {
	struct diff_opts *o;
	struct strbuf combined;		/* -c records, printed first */
	struct index *idx;
	unsigned char *state;		/* enum wt_state + 1; 0 unchecked */
	unsigned *mode;			/* WT_CHANGED: the new mode;
					 * WT_ERROR: errno */
	struct dir_cache dc[WORKERS_MAX];
	struct read_buf rb[WORKERS_MAX];
};

/* Does diff-files look at e's work-tree file at all? */
static int
files_wants(const struct diff_opts *o, const struct index_entry *e)
{
	if (ce_stage(e) || e->ext_flags & CE_SKIP_WORKTREE ||
	    e->flags & CE_VALID)
		return 0;
	return leaf_matches(o, e->name, e->namelen, e->mode);
}

static void
files_check_one(void *ctx, size_t i, int thread)
{
	struct files_job *j = ctx;
	const struct index_entry *e = j->idx->entries[i];
	unsigned mode = 0;
	int err = 0;
	enum wt_state s;

	if (!files_wants(j->o, e))
		return;
	s = check_worktree(j->o, j->idx, e, &mode, &err, &j->dc[thread],
			   &j->rb[thread]);
	j->state[i] = (unsigned char)(s + 1);
	j->mode[i] = s == WT_ERROR ? (unsigned)err : mode;
}

/* The unmerged path at [i, g): its U record, combined or staged diff. */
static int
files_unmerged(struct files_job *j, size_t i, size_t g, size_t *staged)
{
	struct diff_opts *o = j->o;
	struct index *idx = j->idx;
	const struct index_entry *e = idx->entries[i], *s2 = NULL, *s3 = NULL;
	struct diff_record r;
	struct stat st;
	unsigned wt_mode = 0;
	int err = 0;

	*staged = SIZE_MAX;
	if (!leaf_matches(o, e->name, e->namelen, e->mode))
		return 0;
	switch (check_removed(e, &st, &err, &j->dc[0])) {
	case WT_ERROR:
		report_errno(e->name, err);
		return 0;
	case WT_SAME:
		wt_mode = mode_from_stat(o->repo, e, &st);
		break;
	default:
		break;
	}
	for (size_t k = i; k < g; k++) {
		int stage = ce_stage(idx->entries[k]);

		if (stage == 2)
			s2 = idx->entries[k];
		if (stage == 3)
			s3 = idx->entries[k];
		if (stage == o->stage)
			*staged = k;
	}
	if (o->combined && s2 && s3) {
		char buf[64];

		*staged = SIZE_MAX;
		struct strbuf keep = o->out;

		if (o->quick || o->output == DIFF_OUT_NONE)
			return 0;
		/* format into the -c buffer with the usual helpers */
		o->out = j->combined;
		if (o->output == DIFF_OUT_RAW) {
			snprintf(buf, sizeof(buf), "::%06o %06o %06o ",
				 s2->mode, s3->mode, wt_mode);
			strbuf_addstr(&o->out, buf);
			add_oid(o, &s2->oid);
			strbuf_addch(&o->out, ' ');
			add_oid(o, &s3->oid);
			strbuf_addch(&o->out, ' ');
			add_oid(o, &null_oid);
			strbuf_addch(&o->out, ' ');
		}
		if (o->output != DIFF_OUT_NAME_ONLY) {
			strbuf_addstr(&o->out, "MM");
			strbuf_addch(&o->out, o->nul ? '\0' : '\t');
		}
		add_path(o, e->name, e->namelen);
		j->combined = o->out;
		o->out = keep;
		return 0;
	}
	memset(&r, 0, sizeof(r));
	r.status = 'U';
	r.new_mode = wt_mode;
	r.path = e->name;
	r.len = e->namelen;
	return emit(o, &r, 1);
}

/* The regular comparison of entry i, its state known. */
static int
files_entry(struct files_job *j, size_t i)
{
	struct diff_opts *o = j->o;
	const struct index_entry *e = j->idx->entries[i];
	struct diff_record r;
	unsigned mode = 0;
	int err = 0;
	enum wt_state s;

	if (e->ext_flags & CE_SKIP_WORKTREE || e->flags & CE_VALID)
		return 0;
	if (j->state && j->state[i]) {
		s = (enum wt_state)(j->state[i] - 1);
		mode = j->mode[i];
		err = (int)mode;
	} else {
		s = check_worktree(o, j->idx, e, &mode, &err, &j->dc[0],
				   &j->rb[0]);
	}
	memset(&r, 0, sizeof(r));
	r.path = e->name;
	r.len = e->namelen;
	r.old_mode = e->mode;
	r.old_oid = e->oid;
	switch (s) {
	case WT_SAME:
		return 0;
	case WT_ERROR:
		report_errno(e->name, err);
		return 0;
	case WT_REMOVED:
		if (o->silent_on_removed)
			return 0;
		return emit(o, &r, 0);
	case WT_CHANGED:
		break;
	}
	r.new_mode = mode;
	return emit(o, &r, 1);
}

int
diff_files(struct diff_opts *o, struct index *idx)
{
	struct files_job *j = xcalloc(1, sizeof(*j));
	int (*write_out)(void *, struct strbuf *) = o->write_out;
	int nthreads = 1, ret = 0;

	j->o = o;
	j->idx = idx;
	strbuf_init(&j->combined, 0);
	/* with -c, everything waits for the combined records to go first */
	if (o->combined)
		o->write_out = NULL;
	for (int t = 0; t < WORKERS_MAX; t++)
		j->dc[t] = (struct dir_cache)DIR_CACHE_INIT;
	/* --quiet stops at the first change: look at the files in order */
	if (!o->quick && idx->nr)
		nthreads = workers_count(o->threads, o->repo->settings.threads,
					 idx->nr, 2048);
	if (nthreads > 1) {
		j->state = xcalloc(idx->nr, 1);
		j->mode = xcalloc(idx->nr, sizeof(*j->mode));
		workers_run_batch(nthreads, idx->nr, WORKERS_RUN_NEIGHBOURS,
				  files_check_one, j);
	}
	for (size_t i = 0; i < idx->nr && !diff_can_stop(o) && ret >= 0;) {
		const struct index_entry *e = idx->entries[i];

		if (ce_stage(e)) {
			size_t g = same_name_end(idx, i, idx->nr), staged;

			ret = files_unmerged(j, i, g, &staged);
			if (ret >= 0 && staged != SIZE_MAX)
				ret = files_entry(j, staged);
			i = g;
			continue;
		}
		if (leaf_matches(o, e->name, e->namelen, e->mode))
			ret = files_entry(j, i);
		i++;
	}
	if (o->combined) {
		o->write_out = write_out;
		if (j->combined.len) {
			strbuf_addbuf(&j->combined, &o->out);
			strbuf_reset(&o->out);
			strbuf_addbuf(&o->out, &j->combined);
		}
	}
	strbuf_release(&j->combined);
	for (int t = 0; t < WORKERS_MAX; t++) {
		dir_cache_release(&j->dc[t]);
		read_buf_release(&j->rb[t]);
	}
	free(j->state);
	free(j->mode);
	free(j);
	return ret;
}

/* ---- combined (-c) records of a merge ---- */

struct combined_rec {
	char *path;			/* owned */
	size_t len;
	unsigned mode, rmode;		/* the parent's, the result's */
	struct object_id oid, roid;
	char status;
};

struct combined_list {
	struct combined_rec *recs;	/* owned; in tree order */
	size_t nr, alloc;
};

static int
combined_collect(void *ctx, const struct diff_record *r)
{
	struct combined_list *l = ctx;
	struct combined_rec *c;

	ALLOC_GROW(l->recs, l->nr + 1, l->alloc);
	c = &l->recs[l->nr++];
	c->path = xmemdupz(r->path, r->len);
	c->len = r->len;
	c->mode = r->old_mode;
	c->oid = r->old_oid;
	c->rmode = r->new_mode;
	c->roid = r->new_oid;
	c->status = r->status;
	return 0;
}

static const struct combined_rec *
combined_find(const struct combined_list *l, const char *path)
{
	size_t lo = 0, hi = l->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(l->recs[mid].path, path);

		if (!cmp)
			return &l->recs[mid];
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void
print_combined(struct diff_opts *o, const struct combined_rec *const *recs,
	       size_t nr)
{
	char buf[32];

	if (o->output == DIFF_OUT_RAW) {
		for (size_t i = 0; i < nr; i++)
			strbuf_addch(&o->out, ':');
		for (size_t i = 0; i < nr; i++) {
			snprintf(buf, sizeof(buf), "%06o ", recs[i]->mode);
			strbuf_addstr(&o->out, buf);
		}
		snprintf(buf, sizeof(buf), "%06o", recs[0]->rmode);
		strbuf_addstr(&o->out, buf);
		for (size_t i = 0; i < nr; i++) {
			strbuf_addch(&o->out, ' ');
			add_oid(o, &recs[i]->oid);
		}
		strbuf_addch(&o->out, ' ');
		add_oid(o, &recs[0]->roid);
		strbuf_addch(&o->out, ' ');
	}
	if (o->output != DIFF_OUT_NAME_ONLY) {
		for (size_t i = 0; i < nr; i++)
			strbuf_addch(&o->out, recs[i]->status);
		strbuf_addch(&o->out, o->nul ? '\0' : '\t');
	}
	add_path(o, recs[0]->path, recs[0]->len);
}

int
diff_tree_combined(struct diff_opts *o, const struct object_id *parents,
		   size_t nr, const struct object_id *result)
{
	struct combined_list *lists = xcalloc(nr, sizeof(*lists));
	const struct combined_rec **row = xcalloc(nr, sizeof(*row));
	int saved_reverse = o->reverse, saved_quick = o->quick;
	int saved_trees = o->show_trees, ret = 0;
	struct strbuf base = STRBUF_INIT;

	o->reverse = o->quick = o->show_trees = 0;
	o->recursive = 1;
	o->collect = combined_collect;
	for (size_t i = 0; i < nr && ret >= 0; i++) {
		o->collect_ctx = &lists[i];
		strbuf_reset(&base);
		ret = walk_trees(o, &base, &parents[i], result, 0);
	}
	o->collect = NULL;
	o->collect_ctx = NULL;
	o->reverse = saved_reverse;
	o->quick = saved_quick;
	o->show_trees = saved_trees;
	o->has_changes = 0;
	for (size_t k = 0; ret >= 0 && nr && k < lists[0].nr; k++) {
		size_t i;

		row[0] = &lists[0].recs[k];
		for (i = 1; i < nr; i++) {
			row[i] = combined_find(&lists[i], row[0]->path);
			if (!row[i])
				break;
		}
		/* git's exit code does not count these */
		if (i < nr || o->quick || o->output == DIFF_OUT_NONE)
			continue;
		print_combined(o, row, nr);
	}
	for (size_t i = 0; i < nr; i++) {
		for (size_t k = 0; k < lists[i].nr; k++)
			free(lists[i].recs[k].path);
		free(lists[i].recs);
	}
	free(lists);
	free(row);
	strbuf_release(&base);
	return ret;
}
