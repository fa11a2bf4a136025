/*
 * split-index: the link extension, merging a split index with its shared
 * index on read, and on write what goes where (index-internal.h has the
 * format).
 *
 * In memory a split index is one ordinary sorted index: every entry
 * that came from the shared index (or replaced the one of its name and
 * stage) carries CE_FROM_BASE, and split->base points at the shared
 * entries as they were, sorted (those the shared index was parsed into;
 * the index itself works on copies), so that a write can tell, entry by entry, what
 * git would have in the split part.  An entry stays shared when it still
 * has its shared content, was not marked CE_UPDATE_IN_BASE (replaced or
 * changed in place; git marks it so even when nothing changed) and is not
 * racily clean (git moves those into the split part, where they can be
 * smudged).  A shared entry no longer in the index is deleted; so is one
 * whose name an entry made afresh took (read-tree's new entries): that
 * one is added, as git does.
 */
#include "index-internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

#include "config.h"
#include "date.h"
#include "error.h"
#include "mempool.h"
#include "repo.h"
#include "tree.h"
#include "util.h"

/* git's default for splitIndex.maxPercentChange */
#define MAX_PERCENT_CHANGE_DEFAULT 20

static void
split_base_release(struct split_index *si)
{
	free(si->base_ptrs);
	free(si->base_copies);
	si->base_ptrs = NULL;
	si->base_copies = NULL;
	si->base = NULL;
	si->base_records = NULL;
	si->base_nr = 0;
}

void
split_index_free(struct split_index *si)
{
	if (!si)
		return;
	if (si->have_bitmaps) {
		ewah_release(&si->del);
		ewah_release(&si->rep);
	}
	split_base_release(si);
	free(si);
}

static struct split_index *
split_of(struct index *idx)
{
	if (!idx->split)
		idx->split = xcalloc(1, sizeof(*idx->split));
	return idx->split;
}

/* ---- reading ---- */

static int
link_corrupt(const char *what)
{
	return error_set_pre(E_CORRUPT, what, "index file corrupt");
}

static int
read_bitmap(struct ewah *out, const unsigned char **p, size_t *len,
	    const char *which)
{
	char why[80], what[80];
	long used = ewah_decode(out, *p, *len, why, sizeof(why));

	if (used < 0) {
		diag_emit(DIAG_ERROR, "corrupt ewah bitmap: %s", why);
		snprintf(what, sizeof(what), "corrupt %s bitmap in link "
			 "extension", which);
		return link_corrupt(what);
	}
	*p += used;
	*len -= used;
	return 0;
}

int
split_index_read_link(struct index *idx, const unsigned char *p, size_t len)
{
	struct split_index *si;
	int ret;

	if (len < (size_t)HASH_RAWSZ)
		return link_corrupt("corrupt link extension (too short)");
	si = split_of(idx);
	if (si->have_bitmaps) {
		ewah_release(&si->del);
		ewah_release(&si->rep);
		si->have_bitmaps = 0;
	}
	oid_from_raw(&si->base_oid, p);
	p += HASH_RAWSZ;
	len -= HASH_RAWSZ;
	if (!len)
		return 0;
	ret = read_bitmap(&si->del, &p, &len, "delete");
	if (ret < 0)
		return ret;
	ret = read_bitmap(&si->rep, &p, &len, "replace");
	if (ret < 0) {
		ewah_release(&si->del);
		return ret;
	}
	si->have_bitmaps = 1;
	if (len)
		return link_corrupt("garbage at the end of link extension");
	return 0;
}

/* The walk of the replace bitmap during a merge. */
struct replace_walk {
	struct index_entry **merged;	/* the shared entries, copied */
	size_t nr;
	struct index_entry *const *split; /* the index file's entries */
	size_t split_nr, done;
};

static int
replace_one(size_t pos, void *ctx)
{
	struct replace_walk *w = ctx;
	struct index_entry *dst, *src;

	if (pos >= w->nr)
		return error_set(E_CORRUPT, "position for replacement %d "
				 "exceeds base index size %d", (int)pos,
				 (int)w->nr);
	if (w->done >= w->split_nr)
		return error_set(E_CORRUPT, "too many replacements (%d vs %d)",
				 (int)w->done, (int)w->split_nr);
	src = w->split[w->done];
	if (src->namelen)
		return error_set(E_CORRUPT, "corrupt link extension, entry %d "
				 "should have zero length name", (int)pos);
	dst = w->merged[pos];
	/* what parse() checks of a named entry (a sparse directory) */
	if (S_ISDIR(src->mode) &&
	    (!dst->namelen || dst->name[dst->namelen - 1] != '/'))
		return error_set(E_CORRUPT, "corrupt link extension: "
				 "directory entry '%.*s' (mode 040000) does "
				 "not end in '/'", (int)MIN(dst->namelen, 200),
				 dst->name);
	dst->sd = src->sd;
	dst->mode = src->mode;
	dst->oid = src->oid;
	dst->flags = src->flags;
	dst->ext_flags = src->ext_flags;
	dst->state |= CE_UPDATE_IN_BASE;
	w->done++;
	return 0;
}

static int
delete_one(size_t pos, void *ctx)
{
	struct replace_walk *w = ctx;

	if (pos >= w->nr)
		return error_set(E_CORRUPT, "position for delete %d exceeds "
				 "base index size %d", (int)pos, (int)w->nr);
	w->merged[pos]->state |= CE_REMOVE;
	return 0;
}

static int
entry_order(const struct index_entry *a, const struct index_entry *b)
{
	int cmp = index_name_cmp(a->name, a->namelen, b->name, b->namelen);

	return cmp ? cmp : ce_stage(a) - ce_stage(b);
}

static int
addition_cmp(const void *a, const void *b)
{
	const struct index_entry *x = *(const struct index_entry *const *)a;
	const struct index_entry *y = *(const struct index_entry *const *)b;
	int cmp = entry_order(x, y);

	/* the same entry twice: the later one wins, as git adds them */
	if (cmp)
		return cmp;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * The shared entries that are left (sorted), with the additions merged
 * in as git adds them: one of the same name and stage takes its place
 * (and is the shared index's then); a stage-0 one drops stages 1-3
 * of its name.
 */
static struct index_entry **
merge_additions(struct index_entry **kept, size_t kept_nr,
		struct index_entry **add, size_t add_nr, size_t *out_nr)
{
	size_t size = st_mult(st_add(kept_nr, add_nr) + 1, sizeof(struct
								index_entry *));
	struct index_entry **out = xmalloc(size);
	size_t i = 0, j = 0, n = 0;

	mem_populate(out, size);

	for (size_t k = 0; k < add_nr; k++)
		add[k]->order = (uint32_t)k + 1;
	sort_array(add, add_nr, sizeof(*add), addition_cmp);
	while (i < kept_nr || j < add_nr) {
		struct index_entry *a, *k;
		int cmp;

		if (j + 1 < add_nr && !entry_order(add[j], add[j + 1])) {
			j++;	/* a later one of the same name and stage */
			continue;
		}
		if (j == add_nr || i == kept_nr) {
			out[n++] = j == add_nr ? kept[i++] : add[j++];
			continue;
		}
		a = add[j];
		k = kept[i];
		cmp = index_name_cmp(k->name, k->namelen, a->name, a->namelen);
		if (!cmp && ce_stage(k) == ce_stage(a)) {
			a->state |= CE_FROM_BASE | CE_UPDATE_IN_BASE;
			i++;
		} else if (!cmp && !ce_stage(a)) {
			i++;	/* a merged entry replaces stages 1-3 */
		} else if (cmp < 0 || (!cmp && ce_stage(k) < ce_stage(a))) {
			out[n++] = kept[i++];
		} else {
			out[n++] = add[j++];
		}
	}
	for (size_t k = 0; k < add_nr; k++)
		add[k]->order = 0;
	*out_nr = n;
	return out;
}

static int
read_shared(struct index *shared, const char *path, const struct repo *repo,
	    const char *hex, struct strbuf *named, unsigned flags, int threads)
{
	struct strbuf beside = STRBUF_INIT;
	const char *gitdir = repo ? repo->gitdir : NULL;
	const char *slash = strrchr(path, '/');
	struct stat st;
	int ret;

	strbuf_addf(named, "%s/sharedindex.%s", gitdir ? gitdir : "", hex);
	if (gitdir && !stat(named->buf, &st))
		return index_read_in(shared, named->buf, repo,
				     flags | INDEX_READ_SHARED, threads);
	if (slash)
		strbuf_add(&beside, path, slash - path);
	else
		strbuf_addch(&beside, '.');
	strbuf_addf(&beside, "/sharedindex.%s", hex);
	if (!gitdir) {
		strbuf_reset(named);
		strbuf_addbuf(named, &beside);
	}
	if (stat(beside.buf, &st) < 0)
		ret = error_errno(errno, "%s: index file open failed",
				  beside.buf);
	else
		ret = index_read_in(shared, beside.buf, repo,
				    flags | INDEX_READ_SHARED, threads);
	strbuf_release(&beside);
	return ret;
}

int
split_index_merge(struct index *idx, const char *path,
		  const struct repo *repo, unsigned flags, int threads)
{
	struct split_index *si = idx->split;
	struct strbuf named = STRBUF_INIT;
	struct index *shared = xcalloc(1, sizeof(*shared));
	char hex[HASH_MAX_HEXSZ + 1], got[HASH_MAX_HEXSZ + 1];
	struct object_id sum;
	int ret;

	oid_to_hex_r(hex, &si->base_oid);
	/* the entries' names stay in its map: it lives as long as idx */
	idx->names_from = shared;
	ret = read_shared(shared, path, repo, hex, &named, flags, threads);
	if (ret < 0)
		goto out;
	oid_from_raw(&sum, shared->checksum);
	if (!oideq(&sum, &si->base_oid)) {
		oid_to_hex_r(got, &sum);
		ret = error_set(E_CORRUPT, "broken index, expect %s in %s, "
				"got %s", hex, named.buf, got);
		goto out;
	}
	(void)split_index_freshen(named.buf);
	ret = split_index_merge_parsed(idx, shared);
out:
	strbuf_release(&named);
	return ret;
}

int
split_index_merge_parsed(struct index *idx, struct index *shared)
{
	struct split_index *si = idx->split;
	struct index_entry **merged = NULL, **add = NULL, **all;
	struct replace_walk w = { 0 };
	size_t kept = 0, add_nr = 0, all_nr;
	int copies, ret = 0;

	if (idx->names_from != shared) {
		if (idx->names_from) {
			index_release(idx->names_from);
			free(idx->names_from);
		}
		idx->names_from = shared;
	}
	split_base_release(si);
	si->base_nr = shared->nr;
	/*
	 * v2 and v3 keep what was read in shared's bytes: the index takes
	 * shared's entries themselves.  v4's names are not in its bytes:
	 * shared's entries stay as they are and the index gets copies.
	 */
	copies = shared->version != 2 && shared->version != 3;
	if (!copies)
		si->base_records = (const unsigned char *)shared->map +
				   INDEX_HEADER_SIZE;
	else
		si->base = shared->entries;
	/*
	 * parse() refused unnamed and unordered entries in shared, unless
	 * shared has a link of its own (which it should not): only then
	 * are they checked here.
	 */
	if (shared->split && !oid_is_null(&shared->split->base_oid)) {
		for (size_t i = 0; i < si->base_nr; i++) {
			const struct index_entry *e = shared->entries[i];

			if (!e->namelen ||
			    (i && entry_order(shared->entries[i - 1], e) >= 0)) {
				ret = error_set(E_CORRUPT, "shared index is "
						"corrupt: an entry out of order "
						"or unnamed");
				goto out;
			}
		}
	}
	merged = xmalloc(st_mult(si->base_nr + 1, sizeof(*merged)));
	mem_populate(merged, (si->base_nr + 1) * sizeof(*merged));
	if (copies)
		mempool_reserve(&idx->pool, si->base_nr, idx->read_threads);
	for (size_t i = 0; i < si->base_nr; i++) {
		struct index_entry *e = shared->entries[i];

		e->state = CE_FROM_BASE;
		merged[i] = copies ? index_entry_dup(idx, e) : e;
	}
	w.merged = merged;
	w.nr = si->base_nr;
	w.split = idx->entries;
	w.split_nr = idx->nr;
	if (si->have_bitmaps) {
		ret = ewah_each_bit(&si->rep, replace_one, &w);
		if (!ret)
			ret = ewah_each_bit(&si->del, delete_one, &w);
		if (ret == -1)
			ret = error_set(E_CORRUPT, "corrupt link extension: a "
					"bitmap runs past its words");
		if (ret < 0)
			goto out;
	}
	for (size_t i = 0; i < si->base_nr; i++)
		if (!(merged[i]->state & CE_REMOVE))
			merged[kept++] = merged[i];
	add = xmalloc(st_mult(idx->nr + 1, sizeof(*add)));
	for (size_t i = w.done; i < idx->nr; i++) {
		if (!idx->entries[i]->namelen) {
			ret = error_set(E_CORRUPT, "corrupt link extension, "
					"entry %d should have non-zero length "
					"name", (int)i);
			goto out;
		}
		add[add_nr++] = idx->entries[i];
	}
	all = merge_additions(merged, kept, add, add_nr, &all_nr);
	free(idx->entries);
	idx->entries = all;
	idx->nr = all_nr;
	idx->alloc = all_nr + 1;
out:
	if (si->have_bitmaps) {
		ewah_release(&si->del);
		ewah_release(&si->rep);
		si->have_bitmaps = 0;
	}
	free(merged);
	free(add);
	return ret;
}

/* ---- turning it on and off ---- */

void
index_split_enable(struct index *idx)
{
	split_of(idx)->new_shared = 1;
	idx->changed = 1;
}

void
index_split_disable(struct index *idx)
{
	if (!idx->split)
		return;
	idx->write_whole = 1;
	idx->changed = 1;
}

void
split_index_tweak(struct index *idx, const struct config *cfg)
{
	const char *v;
	int on;

	if (idx->split_tweaked)
		return;
	idx->split_tweaked = 1;
	if (config_get(cfg, "core.splitindex", &v) <= 0)
		return;
	on = v ? config_parse_bool(v) : 1;
	if (on == 1 && !idx->split)
		index_split_enable(idx);
	else if (on == 0)
		index_split_disable(idx);
}

const struct object_id *
index_shared_id(const struct index *idx)
{
	return idx->split ? &idx->split->base_oid : NULL;
}

/* ---- writing ---- */

static int
env_bool(const char *name)
{
	const char *v = getenv(name);

	return v && config_parse_bool(v) == 1;
}

/* git's too_many_not_shared_entries(): 1 for a new shared index */
static int
too_many_additions(const struct index *idx, const struct config *cfg)
{
	long max = MAX_PERCENT_CHANGE_DEFAULT;
	uint64_t additions = 0;
	int ret = config_get_long(cfg, "splitindex.maxpercentchange", &max);

	if (ret < 0)
		return ret;
	if (ret > 0 && (max < 0 || max > 100)) {
		diag_emit(DIAG_ERROR, "splitIndex.maxPercentChange value "
			  "'%ld' should be between 0 and 100", max);
		max = MAX_PERCENT_CHANGE_DEFAULT;
	}
	if (max == 0)
		return 1;
	if (max == 100)
		return 0;
	for (size_t i = 0; i < idx->nr; i++)
		if (!(idx->entries[i]->state & CE_FROM_BASE))
			additions++;
	return (uint64_t)idx->nr * (uint64_t)max < additions * 100;
}

int
split_index_plan(struct index *idx, const struct config *cfg)
{
	int test = env_bool("GIT_TEST_SPLIT_INDEX");
	int ret;

	split_index_tweak(idx, cfg);
	if ((!idx->split && !test) || idx->write_whole) {
		split_index_free(idx->split);
		idx->split = NULL;
		return 0;
	}
	if (test) {
		if (!idx->split)
			split_of(idx)->new_shared = 1;
		else if ((idx->split->base_oid.hash[0] & 15) < 6)
			idx->split->new_shared = 1;
	}
	ret = too_many_additions(idx, cfg);
	if (ret < 0)
		return ret;
	if (ret)
		idx->split->new_shared = 1;
	return idx->split->new_shared ? 2 : 1;
}

/* The expiry date of old shared indexes: 0 never, else a time. */
static int
expiry(long long *out, const struct config *cfg)
{
	const char *v = "2.weeks.ago";
	int errors = 0;
	long long now;

	if (config_get(cfg, "splitindex.sharedindexexpire", &v) > 0 && !v)
		return error_set(E_INVALID, "missing value for "
				 "'splitindex.sharedindexexpire'");
	now = approxidate("now", NULL);
	*out = approxidate(v, &errors);
	if (strcmp(v, "now") && *out >= now) {
		struct strbuf pre = STRBUF_INIT;
		int ret;

		strbuf_addf(&pre, "Invalid splitindex.sharedindexexpire: "
			    "'%s'", v);
		ret = error_set_pre(E_INVALID, pre.buf, "bad config variable "
				    "'splitindex.sharedindexexpire'");
		strbuf_release(&pre);
		return ret;
	}
	return 0;
}

/* git's clean_shared_index_files(): old shared indexes go */
static int
clean_shared(const char *gitdir, const char *current,
	     const struct config *cfg)
{
	struct strbuf path = STRBUF_INIT;
	struct dirent *de;
	long long expire = 0;
	int have_expire = 0, ret = 0;
	DIR *dir;

	dir = opendir(gitdir);
	if (!dir) {
		diag_emit(DIAG_ERROR, "unable to open git dir: %s: %s", gitdir,
			  strerror(errno));
		return 0;
	}
	while ((de = readdir(dir))) {
		const char *hex;
		struct stat st;

		if (!skip_prefix(de->d_name, "sharedindex.", &hex) ||
		    !strcmp(hex, current))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", gitdir, de->d_name);
		/* read only when there is an old one, as git */
		if (!have_expire) {
			ret = expiry(&expire, cfg);
			if (ret < 0)
				break;
			have_expire = 1;
		}
		if (!expire)
			continue;
		if (stat(path.buf, &st) < 0) {
			diag_emit(DIAG_ERROR, "could not stat '%s': %s",
				  path.buf, strerror(errno));
			continue;
		}
		if ((long long)st.st_mtime > expire)
			continue;
		if (unlink(path.buf) < 0)
			diag_emit(DIAG_WARNING, "unable to unlink: %s: %s",
				  path.buf, strerror(errno));
	}
	closedir(dir);
	strbuf_release(&path);
	return ret;
}

int
split_index_new_base(struct index *idx, const struct object_id *oid,
		     const char *gitdir, const struct config *cfg)
{
	struct split_index *si = split_of(idx);
	char hex[HASH_MAX_HEXSZ + 1];

	split_base_release(si);
	si->base_nr = idx->nr;
	si->base_copies = xmalloc(st_mult(idx->nr + 1,
					  sizeof(*si->base_copies)));
	si->base_ptrs = xmalloc(st_mult(idx->nr + 1, sizeof(*si->base_ptrs)));
	for (size_t i = 0; i < idx->nr; i++) {
		struct index_entry *e = idx->entries[i];

		e->state |= CE_FROM_BASE;
		e->state &= ~CE_UPDATE_IN_BASE;
		si->base_copies[i] = *e;
		si->base_ptrs[i] = &si->base_copies[i];
	}
	si->base = si->base_ptrs;
	si->base_oid = *oid;
	si->new_shared = 0;
	oid_to_hex_r(hex, oid);
	return clean_shared(gitdir, hex, cfg);
}

/* Does e differ from the shared entry b in anything written? */
static int
differs(const struct index_entry *e, const struct index_entry *b)
{
	return memcmp(&e->sd, &b->sd, sizeof(e->sd)) || e->mode != b->mode ||
	       !oideq(&e->oid, &b->oid) ||
	       (e->flags & (CE_VALID | CE_STAGEMASK)) !=
	       (b->flags & (CE_VALID | CE_STAGEMASK)) ||
	       e->ext_flags != b->ext_flags;
}

/* The shared entries in order, however split_index keeps them. */
struct base_walk {
	const struct split_index *si;
	size_t k;			/* the current one */
	const unsigned char *next;	/* base_records: the record after it */
	struct index_entry cur;		/* base_records: it, decoded */
};

static void
base_walk_init(struct base_walk *w, const struct split_index *si)
{
	w->si = si;
	w->k = 0;
	w->next = si->base_records;
	if (w->next && si->base_nr)
		w->next = index_record_decode(w->next, &w->cur);
}

/* the current entry (k < base_nr) */
static const struct index_entry *
base_walk_entry(const struct base_walk *w)
{
	return w->si->base_records ? &w->cur : w->si->base[w->k];
}

static void
base_walk_advance(struct base_walk *w)
{
	if (++w->k < w->si->base_nr && w->si->base_records)
		w->next = index_record_decode(w->next, &w->cur);
}

void
split_index_prepare(struct split_write *out, struct index *idx)
{
	struct split_index *si = split_of(idx);
	struct index_entry **at = xcalloc(si->base_nr + 1, sizeof(*at));
	unsigned char *replaced = xcalloc(si->base_nr + 1, 1);
	struct base_walk bw;
	struct ewah del, rep;

	out->entries = xmalloc(st_mult(idx->nr + 1, sizeof(*out->entries)));
	out->nr = 0;
	strbuf_init(&out->link, 0);
	base_walk_init(&bw, si);
	/* both sorted: each entry from the shared index finds its place */
	for (size_t i = 0; i < idx->nr; i++) {
		struct index_entry *e = idx->entries[i];
		const struct index_entry *b = NULL;
		size_t k;

		if (!(e->state & CE_FROM_BASE))
			continue;
		while (bw.k < si->base_nr &&
		       entry_order(b = base_walk_entry(&bw), e) < 0)
			base_walk_advance(&bw);
		k = bw.k;
		if (k == si->base_nr || entry_order(b, e)) {
			e->state &= ~CE_FROM_BASE;	/* an addition after all */
			continue;
		}
		at[k] = e;
		replaced[k] = (e->state & CE_UPDATE_IN_BASE) || differs(e, b) ||
			(!(e->state & CE_UPTODATE) && !S_ISGITLINK(e->mode) &&
			 index_entry_is_racy(idx, e));
	}
	ewah_init(&del);
	ewah_init(&rep);
	for (size_t k = 0; k < si->base_nr; k++) {
		if (!at[k]) {
			ewah_set(&del, k);
		} else if (replaced[k]) {
			ewah_set(&rep, k);
			out->entries[out->nr++] = at[k];
		}
	}
	out->replaced = out->nr;
	for (size_t i = 0; i < idx->nr; i++)
		if (!(idx->entries[i]->state & CE_FROM_BASE))
			out->entries[out->nr++] = idx->entries[i];
	strbuf_add(&out->link, si->base_oid.hash, HASH_RAWSZ);
	ewah_encode(&out->link, &del);
	ewah_encode(&out->link, &rep);
	ewah_release(&del);
	ewah_release(&rep);
	free(at);
	free(replaced);
}

void
split_write_release(struct split_write *sw)
{
	free(sw->entries);
	sw->entries = NULL;
	strbuf_release(&sw->link);
}

int
split_index_freshen(const char *path)
{
	if (access(path, F_OK))
		return -1;
	return utime(path, NULL);
}
