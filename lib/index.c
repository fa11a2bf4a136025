/*
 * index: DIRC read and write, lookup, staged bulk changes, stat matching
 * and the racy-git rules.
 *
 * File layout (all integers big-endian):
 *
 *   offset  size  field
 *   0       4     "DIRC"
 *   4       4     version (2, 3, 4)
 *   8       4     number of entries N
 *   12      ...   N entries, sorted by (name, stage)
 *   ...     ...   extensions: 4-byte signature, 4-byte size, data
 *   end-20  20    SHA-1 of everything before (all zero: not computed)
 *
 * Entry: ctime s/ns, mtime s/ns, dev, ino, mode, uid, gid, size (u32
 * each, 40 bytes), id (20), flags (u16: assume-valid 0x8000, extended
 * 0x4000, stage 0x3000, name length 0x0fff capped), [extended flags u16,
 * v3+: skip-worktree 0x4000, intent-to-add 0x2000], then the name:
 * v2/v3 — name and 1..8 NULs padding the entry to a multiple of 8;
 * v4 — varint N (bytes to drop from the end of the previous name) and
 * a NUL-terminated suffix, no padding.
 */
#include "index.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bufwrite.h"
#include "cache-tree.h"
#include "error.h"
#include "index-ext.h"
#include "index-internal.h"
#include "odb.h"
#include "path.h"
#include "refs.h"
#include "repo.h"
#include "strbuf.h"
#include "trace.h"
#include "tree.h"
#include "untracked-cache.h"
#include "varint.h"
#include "workers.h"

/*
 * An entry on disk: 40 bytes of stat data and mode, the id, 2 bytes of
 * flags (then 2 of extended flags in v3/v4 when set): 62 or 64 bytes
 * with SHA-1, 74 or 76 with SHA-256.
 */
#define ENTRY_FLAGS_AT (40 + (size_t)HASH_RAWSZ)
#define ENTRY_FIXED (ENTRY_FLAGS_AT + 2)	/* up to and including flags */
#define ENTRY_HDR_MAX (40 + HASH_MAX_RAWSZ + 4)	/* room for any fixed part */
#define INDEX_COPY_MIN (2u << 20)	/* read, not mapped, from this size */
#define INDEX_COPY_MAX (64u << 20)	/* ...up to this size: mapped again */

void
index_init(struct index *idx)
{
	memset(idx, 0, sizeof(*idx));
	mempool_init(&idx->pool, sizeof(struct index_entry));
	arena_init(&idx->names);
}

void
index_release(struct index *idx)
{
	free(idx->entries);
	free(idx->staged);
	mempool_release(&idx->pool);
	arena_release(&idx->names);
	if (idx->map)
		munmap(idx->map, idx->map_span);
	cache_tree_free(idx->tree);
	index_clear_resolve_undo(idx);
	free(idx->reuc);
	split_index_free(idx->split);
	if (idx->names_from) {
		index_release(idx->names_from);
		free(idx->names_from);
	}
	sparse_index_free(idx->sparse);
	free(idx->untr_raw);
	untracked_cache_free(idx->untracked);
	index_init(idx);
}

static void
untracked_drop(struct index *idx)
{
	free(idx->untr_raw);
	idx->untr_raw = NULL;
	idx->untr_len = 0;
	untracked_cache_free(idx->untracked);
	idx->untracked = NULL;
	idx->untr_parsed = 0;
}

void
index_keep_untracked(struct index *idx)
{
	idx->keep_untracked = 1;
}

struct untracked_cache *
index_untracked(struct index *idx)
{
	if (!idx->untr_parsed && idx->untr_raw) {
		idx->untracked = untracked_cache_parse(idx->untr_raw,
						       idx->untr_len);
		free(idx->untr_raw);
		idx->untr_raw = NULL;
		idx->untr_len = 0;
	}
	idx->untr_parsed = 1;
	return idx->untracked;
}

int
index_untracked_set(struct index *idx, const struct repo *repo, int on)
{
	struct untracked_cache *uc = index_untracked(idx);
	const char *v;

	if (!on) {
		untracked_drop(idx);
		idx->untr_parsed = 1;
		return uc != NULL;
	}
	/* no work tree (a bare repository): nothing it could be for */
	if (!repo->worktree ||
	    (uc && untracked_cache_ident_matches(uc, repo->worktree)))
		return 0;
	untracked_cache_free(uc);
	idx->untracked = untracked_cache_new(repo->worktree,
		config_get(&repo->config, "status.showuntrackedfiles", &v) &&
		v && !strcmp(v, "all"));
	return 1;
}

int
index_untracked_follow(struct index *idx, const struct repo *repo)
{
	index_keep_untracked(idx);
	if (repo->settings.untracked_cache < 0)
		return 0;
	return index_untracked_set(idx, repo, repo->settings.untracked_cache);
}

/* An entry path added or removed: the untracked cache forgets it. */
static void
untracked_invalidate(struct index *idx, const char *path, size_t len)
{
	struct untracked_cache *uc;

	if (!idx->keep_untracked || !(idx->untr_raw || idx->untracked))
		return;
	uc = index_untracked(idx);
	if (uc)
		untracked_cache_invalidate(uc, path, len);
}

/* The entries of one name from *i on: their end, and whether unmerged. */
static size_t
name_group(struct index_entry *const *e, size_t n, size_t i, int *unmerged)
{
	size_t j = i;

	*unmerged = 0;
	while (j < n && (j == i || !strcmp(e[j]->name, e[i]->name))) {
		*unmerged |= ce_stage(e[j]) != 0;
		j++;
	}
	return j;
}

void
index_untracked_replaced(struct index *idx, struct index_entry *const *old,
			 size_t nold)
{
	struct index_entry *const *cur = idx->entries;
	size_t i = 0, j = 0, n = idx->nr;

	if (!idx->keep_untracked || !(idx->untr_raw || idx->untracked))
		return;
	while (i < nold || j < n) {
		int cmp = i >= nold ? 1 : j >= n ? -1 :
			  strcmp(old[i]->name, cur[j]->name);
		int um_old = 0, um_cur = 0;
		size_t ei = i, ej = j;
		const struct index_entry *e;

		if (cmp <= 0)
			ei = name_group(old, nold, i, &um_old);
		if (cmp >= 0)
			ej = name_group(cur, n, j, &um_cur);
		e = cmp <= 0 ? old[i] : cur[j];
		if (cmp || um_old || um_cur || old[i]->mode != cur[j]->mode ||
		    !oideq(&old[i]->oid, &cur[j]->oid))
			untracked_invalidate(idx, e->name, e->namelen);
		i = ei;
		j = ej;
	}
}

void
index_clear_resolve_undo(struct index *idx)
{
	for (size_t i = 0; i < idx->reuc_nr; i++)
		free(idx->reuc[i].path);
	if (idx->reuc_nr)
		idx->changed = 1;
	idx->reuc_nr = 0;
}

struct resolve_undo *
index_resolve_undo(struct index *idx, const char *path)
{
	for (size_t i = 0; i < idx->reuc_nr; i++)
		if (!strcmp(idx->reuc[i].path, path))
			return &idx->reuc[i];
	return NULL;
}

void
index_drop_resolve_undo(struct index *idx, struct resolve_undo *ru)
{
	size_t i = ru - idx->reuc;

	if (i >= idx->reuc_nr)
		BUG("resolve-undo record not of this index");
	free(ru->path);
	memmove(ru, ru + 1, (idx->reuc_nr - i - 1) * sizeof(*ru));
	idx->reuc_nr--;
	idx->changed = 1;
}

/* ---- comparison and lookup ---- */

static int
entry_cmp(const struct index_entry *a, const struct index_entry *b)
{
	int cmp = index_name_cmp(a->name, a->namelen, b->name, b->namelen);

	return cmp ? cmp : ce_stage(a) - ce_stage(b);
}

ssize_t
index_entries_pos(struct index_entry *const *v, size_t nr, const char *name,
		  size_t len, int stage)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct index_entry *e = v[mid];
		int cmp = index_name_cmp(name, len, e->name, e->namelen);

		if (!cmp)
			cmp = (stage < 0 ? 0 : stage) - ce_stage(e);
		if (!cmp && stage >= 0)
			return mid;
		if (cmp <= 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (stage < 0 && lo < nr &&
	    !index_name_cmp(name, len, v[lo]->name, v[lo]->namelen))
		return lo;
	return -(ssize_t)lo - 1;
}

ssize_t
index_pos(const struct index *idx, const char *name, size_t len, int stage)
{
	if (idx->sparse)
		sparse_index_lookup(idx->sparse, name, len);
	return index_entries_pos(idx->entries, idx->nr, name, len, stage);
}

struct index_entry *
index_entry_new(struct index *idx, const char *name, size_t len)
{
	struct index_entry *e = mempool_calloc(&idx->pool);

	e->name = arena_strndup(&idx->names, name, len);
	e->namelen = len;
	return e;
}

struct index_entry *
index_entry_dup(struct index *idx, const struct index_entry *e)
{
	struct index_entry *c = mempool_alloc(&idx->pool);

	*c = *e;
	return c;
}

/* ---- reading ---- */

struct cursor {
	const unsigned char *p, *end;
};

static int
corrupt(const char *path, const char *what)
{
	return error_set(E_CORRUPT, "index file '%s' is corrupt: %s", path,
			 what);
}

static int
read_reuc(struct index *idx, const unsigned char *p, size_t len,
	  const char *path)
{
	const unsigned char *end = p + len;

	while (p < end) {
		const unsigned char *nul = memchr(p, '\0', end - p);
		struct resolve_undo *ru;

		if (!nul)
			return corrupt(path, "bad REUC extension");
		ALLOC_GROW(idx->reuc, idx->reuc_nr + 1, idx->reuc_alloc);
		ru = &idx->reuc[idx->reuc_nr];
		memset(ru, 0, sizeof(*ru));
		ru->path = xmemdupz(p, nul - p);
		idx->reuc_nr++;
		p = nul + 1;
		for (int i = 0; i < 3; i++) {
			char *endnum;

			nul = memchr(p, '\0', end - p);
			if (!nul)
				return corrupt(path, "bad REUC extension");
			ru->mode[i] = strtoul((const char *)p, &endnum, 8);
			if ((const unsigned char *)endnum != nul || nul == p)
				return corrupt(path, "bad REUC extension");
			p = nul + 1;
		}
		for (int i = 0; i < 3; i++) {
			if (!ru->mode[i])
				continue;
			if ((size_t)(end - p) < (size_t)HASH_RAWSZ)
				return corrupt(path, "bad REUC extension");
			oid_from_raw(&ru->oid[i], p);
			p += HASH_RAWSZ;
		}
	}
	return 0;
}

static int
read_extension(struct index *idx, const unsigned char *sig,
	       const unsigned char *data, size_t len, const char *path,
	       unsigned flags, struct strbuf *ignored)
{
	char name[5];

	memcpy(name, sig, 4);
	name[4] = '\0';
	if (!memcmp(sig, "TREE", 4)) {
		cache_tree_free(idx->tree);
		idx->tree_rest = NULL;
		/* INDEX_READ_TREE_ONLY: a valid root is all it may need */
		if ((flags & INDEX_READ_TREE_ONLY) &&
		    (idx->tree = cache_tree_read_root(data, len))) {
			idx->tree_rest = data;
			idx->tree_rest_len = len;
		} else {
			idx->tree = cache_tree_read(data, len);
		}
		return 0;
	}
	if (!memcmp(sig, "REUC", 4))
		return read_reuc(idx, data, len, path);
	if (!memcmp(sig, "UNTR", 4)) {
		idx->read_untr = 1;
		untracked_drop(idx);
		idx->untr_raw = xmalloc(len ? len : 1);
		memcpy(idx->untr_raw, data, len);
		idx->untr_len = len;
	}
	/* git knows this one; dirc drops it on rewrite, quietly */
	if (!memcmp(sig, "FSMN", 4))
		idx->read_fsmn = 1;
	if (!memcmp(sig, "UNTR", 4) || !memcmp(sig, "FSMN", 4) ||
	    !memcmp(sig, "EOIE", 4) || !memcmp(sig, "IEOT", 4))
		return 0;
	if (!memcmp(sig, "link", 4))
		return split_index_read_link(idx, data, len);
	if (!memcmp(sig, "sdir", 4)) {
		/* no content, only a mark (git ignores any bytes) */
		idx->read_sdir = 1;
		return 0;
	}
	if (sig[0] >= 'A' && sig[0] <= 'Z') {
		if (ignored)
			strbuf_add(ignored, sig, 4);	/* told later */
		else if (!(flags & INDEX_READ_QUIET))
			diag_emit(DIAG_PLAIN, "ignoring %.4s extension",
				  (const char *)sig);
		return 0;
	}
	for (int i = 0; i < 4; i++)
		if (name[i] < 0x20 || name[i] > 0x7e)
			name[i] = '?';
	{
		char pre[96];

		snprintf(pre, sizeof(pre), "index uses %s extension, which "
			 "we do not understand", name);
		return error_set_pre(E_UNSUPPORTED, pre, "index file corrupt");
	}
}

static uint64_t
decode_varint(struct cursor *c, int *ok)
{
	uint64_t v;

	*ok = !varint_decode(&c->p, c->end, &v);
	return *ok ? v : 0;
}

/*
 * One run of entries to parse: all of them, or one IEOT block on a
 * thread of its own (then its entries, names and cursor are its own).
 */
struct entry_run {
	struct cursor c;	/* from the run's first entry to where it
				 * must end (a block) or the checksum */
	uint32_t first, nr;	/* into idx->entries[first .. first + nr) */
	struct mempool *pool;	/* entries from here */
	struct arena *names;	/* v4 names from here */
	int block;		/* an IEOT block after the first: v4's first
				 * entry stands alone (git strips the whole
				 * previous name there) */
	uint64_t first_strip;	/* out, v4 block: its first strip count */
	int extended;		/* out: an entry had extended flags */
	int failed;		/* out, block: anything but a clean parse */
	const struct index_entry *bad;	/* out: the first entry unnamed or
					 * out of order (after prev in the
					 * run), which only a split index
					 * may have */
	int check_only;		/* every entry checked, none kept (no
				 * pool, names or entries[] touched) */
	int unusual;		/* out, check_only: stopped at an entry
				 * unnamed, out of order or a directory
				 * (040000), which the caller must parse
				 * whole to judge */
	struct mempool own_pool;	/* a block's */
	struct arena own_names;
};

/* e's fields from the fixed part of its record at p (flags fl, ext) */
static void
decode_fixed(struct index_entry *e, const unsigned char *p, uint16_t fl,
	     uint16_t ext)
{
	e->sd.ctime_sec = get_be32(p);
	e->sd.ctime_nsec = get_be32(p + 4);
	e->sd.mtime_sec = get_be32(p + 8);
	e->sd.mtime_nsec = get_be32(p + 12);
	e->sd.dev = get_be32(p + 16);
	e->sd.ino = get_be32(p + 20);
	e->mode = get_be32(p + 24);
	e->sd.uid = get_be32(p + 28);
	e->sd.gid = get_be32(p + 32);
	e->sd.size = get_be32(p + 36);
	oid_from_raw(&e->oid, p + 40);
	e->flags = fl & ~(CE_EXTENDED | CE_NAMEMASK);
	e->ext_flags = ext;
	e->state = 0;
	e->order = 0;
}

const unsigned char *
index_record_decode(const unsigned char *p, struct index_entry *e)
{
	uint16_t fl = get_be16(p + ENTRY_FLAGS_AT), ext = 0;
	size_t fixed = ENTRY_FIXED;

	if (fl & CE_EXTENDED) {
		ext = get_be16(p + ENTRY_FIXED);
		fixed += 2;
	}
	decode_fixed(e, p, fl, ext);
	e->name = (const char *)p + fixed;
	e->namelen = fl & CE_NAMEMASK;
	if (e->namelen == CE_NAMEMASK)
		e->namelen = strlen(e->name);
	return p + ((fixed + e->namelen + 8) & ~(size_t)7);
}

static int
parse_entries(struct index *idx, struct entry_run *r, unsigned version,
	      const char *path)
{
	struct cursor c = r->c;
	const struct index_entry *prev = NULL;
	struct strbuf v4name = STRBUF_INIT;
	/* check_only: each entry in turn, and in v4 its name, beside prev */
	struct index_entry scratch[2];
	struct strbuf v4keep[2] = { STRBUF_INIT, STRBUF_INIT };
	char why[256];
	int ret = 0;

	for (uint32_t i = 0; i < r->nr; i++) {
		struct index_entry *e;
		const unsigned char *p = c.p;
		uint16_t fl, ext = 0;
		size_t fixed = ENTRY_FIXED, namelen;

		if ((size_t)(c.end - p) < ENTRY_FIXED) {
			ret = corrupt(path, "entry runs past the end of the "
				      "file");
			goto out;
		}
		fl = get_be16(p + ENTRY_FLAGS_AT);
		if (fl & CE_EXTENDED) {
			if (version < 3) {
				ret = corrupt(path, "extended flags in a "
					      "version 2 index");
				goto out;
			}
			if ((size_t)(c.end - p) < ENTRY_FIXED + 2) {
				ret = corrupt(path, "entry runs past the end "
					      "of the file");
				goto out;
			}
			ext = get_be16(p + ENTRY_FIXED);
			r->extended = 1;
			if (ext & ~CE_EXT_KNOWN) {
				snprintf(why, sizeof(why), "unknown index "
					 "entry format 0x%08x",
					 (unsigned)ext << 16);
				ret = error_set(E_CORRUPT, "%s", why);
				goto out;
			}
			fixed += 2;
		}
		e = r->check_only ? &scratch[i & 1] : mempool_alloc(r->pool);
		decode_fixed(e, p, fl, ext);
		namelen = fl & CE_NAMEMASK;
		c.p = p + fixed;

		if (version == 4) {
			int ok;
			uint64_t strip = decode_varint(&c, &ok);
			const unsigned char *nul;

			if (ok && r->block && !i) {
				r->first_strip = strip;	/* checked after */
				strip = 0;
			}
			if (!ok || strip > v4name.len) {
				snprintf(why, sizeof(why), "malformed name "
					 "field in the index, near path '%.*s'",
					 (int)MIN(v4name.len, 200),
					 v4name.buf);
				ret = error_set(E_CORRUPT, "%s", why);
				goto out;
			}
			nul = memchr(c.p, '\0', c.end - c.p);
			if (!nul) {
				ret = corrupt(path, "entry name runs past the "
					      "end of the file");
				goto out;
			}
			strbuf_setlen(&v4name, v4name.len - strip);
			strbuf_add(&v4name, c.p, nul - c.p);
			c.p = nul + 1;
			if ((namelen != CE_NAMEMASK && namelen != v4name.len) ||
			    (namelen == CE_NAMEMASK && v4name.len < CE_NAMEMASK)) {
				ret = corrupt(path, "entry name length does "
					      "not match its flags");
				goto out;
			}
			if (r->check_only) {
				struct strbuf *keep = &v4keep[i & 1];

				strbuf_reset(keep);
				strbuf_add(keep, v4name.buf, v4name.len);
				e->name = keep->buf;
			} else {
				e->name = arena_strndup(r->names, v4name.buf,
							v4name.len);
			}
			e->namelen = v4name.len;
		} else {
			const unsigned char *name = c.p;
			size_t entlen;

			if (namelen == CE_NAMEMASK) {
				const unsigned char *nul =
					memchr(name, '\0', c.end - name);

				if (!nul) {
					ret = corrupt(path, "entry name runs "
						      "past the end of the "
						      "file");
					goto out;
				}
				namelen = nul - name;
				if (namelen < CE_NAMEMASK) {
					ret = corrupt(path, "entry name "
						      "length does not match "
						      "its flags");
					goto out;
				}
			}
			entlen = (fixed + namelen + 8) & ~(size_t)7;
			if ((size_t)(c.end - p) < entlen) {
				ret = corrupt(path, "entry runs past the end "
					      "of the file");
				goto out;
			}
			if (memchr(name, '\0', namelen) || name[namelen]) {
				ret = corrupt(path, "entry name length does "
					      "not match its flags");
				goto out;
			}
			e->name = (const char *)name;
			e->namelen = namelen;
			c.p = p + entlen;
		}
		/* a split index's replacements have no names: see parse() */
		if (!r->bad && (!e->namelen ||
				(prev && entry_cmp(prev, e) >= 0)))
			r->bad = e;
		if (r->check_only && (r->bad || S_ISDIR(e->mode))) {
			r->bad = NULL;	/* a scratch entry */
			r->unusual = 1;
			goto out;
		}
		if (e->namelen && S_ISDIR(e->mode) &&
		    e->name[e->namelen - 1] != '/') {
			snprintf(why, sizeof(why), "directory entry '%.*s' "
				 "(mode 040000) does not end in '/'",
				 (int)MIN(e->namelen, 200), e->name);
			ret = corrupt(path, why);
			goto out;
		}
		if (!r->check_only)
			idx->entries[r->first + i] = e;
		prev = e;
	}
out:
	r->c.p = c.p;
	strbuf_release(&v4name);
	strbuf_release(&v4keep[0]);
	strbuf_release(&v4keep[1]);
	return ret;
}

static void
parse_block(void *ctx, size_t item, int thread)
{
	struct index *idx = ((void **)ctx)[0];
	struct entry_run *shared = (struct entry_run *)((void **)ctx)[1] + item;
	/*
	 * Parsed from a copy on this thread's stack: the runs sit side by
	 * side, and a pool written for every entry next to the fields
	 * another thread reads for every entry cost several times the
	 * serial parse of 2 million entries.
	 */
	struct entry_run r = *shared;

	(void)thread;
	r.pool = &r.own_pool;
	r.names = &r.own_names;
	mempool_reserve(r.pool, r.nr, 1);	/* faulted in on this thread */
	r.failed = parse_entries(idx, &r, idx->version, "") < 0 ||
		r.c.p != r.c.end;
	if (r.failed)
		error_clear();
	r.pool = &shared->own_pool;
	r.names = &shared->own_names;
	*shared = r;
}

/*
 * Minimum entries for an automatic thread count to read IEOT blocks in
 * parallel (an explicit one always does): starting a thread costs tens
 * of microseconds, parsing 10,000 entries (git's figure) about a
 * millisecond.
 */
#define IEOT_PARALLEL_MIN 10000

/*
 * The entries of idx, by IEOT blocks on up to threads threads: 1 if that
 * gave exactly what the serial parse gives (each block ends where the
 * next starts, the last at the extensions, names in order across the
 * block boundaries, and in v4 each block's first entry stripping the
 * whole previous name), else 0 and nothing is kept, for the serial parse
 * to do it (and name any error).  *bad: as entry_run's, for all of them.
 */
static int
parse_blocks(struct index *idx, const struct ieot_block *b, size_t n,
	     size_t ext_offset, int threads, const struct index_entry **bad)
{
	const unsigned char *base = idx->map;
	struct entry_run *runs = xcalloc(n, sizeof(*runs));
	void *ctx[2] = { idx, runs };
	int ok = 1;

	for (size_t i = 0; i < n; i++) {
		struct entry_run *r = &runs[i];

		r->c.p = base + b[i].offset;
		r->c.end = base + (i + 1 < n ? b[i + 1].offset : ext_offset);
		r->first = i ? runs[i - 1].first + b[i - 1].nr : 0;
		r->nr = b[i].nr;
		r->block = i > 0;	/* the first starts as the serial parse */
		mempool_init(&r->own_pool, sizeof(struct index_entry));
		arena_init(&r->own_names);
		r->pool = &r->own_pool;
		r->names = &r->own_names;
	}
	workers_run_batch(MIN(threads, (int)MIN(n, WORKERS_MAX)), n, 1,
			  parse_block, ctx);
	for (size_t i = 0; i < n; i++)
		if (runs[i].failed)
			ok = 0;
	/*
	 * Every block parsed: their entries are all set.  The first entry
	 * unnamed or out of order is the serial parse's: a block's own, or
	 * its first entry against the previous block's last.
	 */
	*bad = NULL;
	for (size_t i = 0; ok && i < n; i++) {
		const struct index_entry *last, *next;

		next = idx->entries[runs[i].first];
		if (i) {
			last = idx->entries[runs[i].first - 1];
			if (idx->version == 4 &&
			    runs[i].first_strip != last->namelen)
				ok = 0;
			else if (!*bad && next->namelen &&
				 entry_cmp(last, next) >= 0)
				*bad = next;
		}
		if (!*bad)
			*bad = runs[i].bad;
	}
	for (size_t i = 0; i < n; i++) {
		if (ok) {
			mempool_merge(&idx->pool, &runs[i].own_pool);
			arena_merge(&idx->names, &runs[i].own_names);
			idx->read_extended |= runs[i].extended;
		} else {
			mempool_release(&runs[i].own_pool);
			arena_release(&runs[i].own_names);
		}
	}
	free(runs);
	return ok;
}

/* The extensions in [c->p, c->end); ignored: see read_extension(). */
static int
parse_extensions(struct index *idx, struct cursor *c, const char *path,
		 unsigned flags, struct strbuf *ignored)
{
	int ret;

	while (c->end - c->p >= 8) {
		const unsigned char *sig = c->p;
		uint32_t len = get_be32(c->p + 4);

		c->p += 8;
		if (len > (size_t)(c->end - c->p))
			return corrupt(path, "extension runs past the end of "
				       "the file");
		ret = read_extension(idx, sig, c->p, len, path, flags,
				     ignored);
		if (ret < 0)
			return ret;
		c->p += len;
	}
	if (c->p != c->end)
		return corrupt(path, "garbage after the last extension");
	return 0;
}

/* Forget what parse_extensions() read. */
static void
drop_extensions(struct index *idx)
{
	cache_tree_free(idx->tree);
	idx->tree = NULL;
	idx->tree_rest = NULL;
	for (size_t i = 0; i < idx->reuc_nr; i++)
		free(idx->reuc[i].path);
	idx->reuc_nr = 0;
	idx->read_untr = idx->read_fsmn = 0;
	untracked_drop(idx);
	split_index_free(idx->split);
	idx->split = NULL;
	idx->read_sdir = 0;
}

/* The whole TREE in place of its root alone (INDEX_READ_TREE_ONLY). */
static void
read_tree_rest(struct index *idx)
{
	if (!idx->tree_rest)
		return;
	cache_tree_free(idx->tree);
	idx->tree = cache_tree_read(idx->tree_rest, idx->tree_rest_len);
	idx->tree_rest = NULL;
	if (!idx->tree)
		BUG("a TREE extension read for its root does not parse");
}

/* Room for nr entries in idx->entries. */
static void
alloc_entries(struct index *idx, uint32_t nr)
{
	idx->entries = xmalloc(st_mult(nr ? nr : 1, sizeof(*idx->entries)));
	idx->alloc = nr ? nr : 1;
	mem_populate(idx->entries, idx->alloc * sizeof(*idx->entries));
}

/* How a read may use an IEOT. */
struct read_opts {
	int threads;		/* at most this many; 1: serial */
	int explicit_threads;	/* asked for (option, environment, config),
				 * not the CPU count: used whatever the
				 * number of entries */
	const struct repo_settings *s;	/* for git's index.threads; NULL */
};

int
index_threads_check(const struct repo_settings *s)
{
	if (!s || !s->index_threads_bad)
		return 0;
	return error_set(E_INVALID, "bad numeric config value '%s' for "
			 "'index.threads': %s", s->index_threads_bad,
			 s->index_threads_why);
}

/*
 * With a valid EOIE the extensions are read first (TREE is found without
 * walking the entries) and an IEOT lets the entries be parsed on several
 * threads.  Either is only a shortcut: the result, and any error, is the
 * serial parse's.  A bad IEOT is reported as git reports it when git
 * would read it (o->git_threads > 2), and the entries parsed serially.
 * With INDEX_READ_TREE_ONLY and a fully valid TREE read that way (and no
 * link), the entries are only checked, by the same code, and not kept;
 * one that only the whole parse can judge (unnamed, out of order, a
 * sparse directory) makes it parse them whole after all.
 */
static int
parse(struct index *idx, const char *path, unsigned flags,
      const struct read_opts *o)
{
	const unsigned char *base = idx->map;
	struct cursor c = { base, base + idx->map_len };
	struct entry_run all = { .c = { NULL, NULL } };
	const struct index_entry *bad = NULL;
	struct strbuf ignored = STRBUF_INIT;
	uint32_t version, nr;
	size_t ext_offset;
	char why[256];
	int ret = 0, early = 0, parallel = 0, skip, threads, git_threads;

	if (idx->map_len < INDEX_HEADER_SIZE + (size_t)HASH_RAWSZ)
		return error_set(E_CORRUPT, "%s: index file smaller than "
				 "expected", path);
	if (memcmp(base, "DIRC", 4)) {
		char pre[64];

		snprintf(pre, sizeof(pre), "bad signature 0x%08x",
			 (unsigned)(base[0] | base[1] << 8 | base[2] << 16 |
				    (uint32_t)base[3] << 24));
		return error_set_pre(E_CORRUPT, pre, "index file corrupt");
	}
	version = get_be32(base + 4);
	if (version < 2 || version > 4) {
		char pre[64];

		snprintf(pre, sizeof(pre), "bad index version %u", version);
		return error_set_pre(E_CORRUPT, pre, "index file corrupt");
	}
	nr = get_be32(base + 8);
	c.p += INDEX_HEADER_SIZE;
	c.end -= HASH_RAWSZ;
	memcpy(idx->checksum, c.end, HASH_RAWSZ);
	if (flags & INDEX_READ_VERIFY) {
		static const unsigned char zero[HASH_MAX_RAWSZ];
		unsigned char sum[HASH_MAX_RAWSZ];

		if (memcmp(idx->checksum, zero, HASH_RAWSZ)) {
			hash_buffer(sum, base, idx->map_len - HASH_RAWSZ);
			if (memcmp(sum, idx->checksum, HASH_RAWSZ))
				return error_set(E_CORRUPT, "index file '%s' "
						 "has a bad checksum (bad "
						 "index file sha1 signature)",
						 path);
		}
	}
	/* git reads index.threads once it has checked the header */
	ret = index_threads_check(o->s);
	if (ret < 0)
		return ret;
	/* every entry takes at least ENTRY_FIXED bytes */
	if (nr > (size_t)(c.end - c.p) / ENTRY_FIXED)
		return corrupt(path, "more entries than the file can hold");
	idx->version = version;

	ext_offset = eoie_find(base, idx->map_len);
	if (ext_offset) {
		struct cursor ext = { base + ext_offset, c.end };

		early = parse_extensions(idx, &ext, path,
					 flags | INDEX_READ_QUIET,
					 &ignored) == 0;
		if (!early) {
			error_clear();
			drop_extensions(idx);
			strbuf_reset(&ignored);
		}
	}
	/*
	 * INDEX_READ_TREE_ONLY, and the caller has its answer: the
	 * entries are checked below as they are parsed, and not kept.
	 */
	skip = (flags & INDEX_READ_TREE_ONLY) && early && nr && !idx->split &&
		cache_tree_fully_valid(idx->tree);
	if (!skip)
		alloc_entries(idx, nr);
	threads = o->explicit_threads || nr >= IEOT_PARALLEL_MIN ?
		o->threads : 1;
	git_threads = index_git_read_threads(o->s, nr);
	if (ext_offset && (threads > 1 || git_threads > 2)) {
		struct ieot_block *b;
		size_t n;
		int value = 0;
		enum ieot_result res = ieot_find(&b, &n, base, ext_offset,
						 idx->map_len - HASH_RAWSZ -
						 (12 + HASH_RAWSZ), nr,
						 &value);

		if (res == IEOT_OK && n > 1 && threads > 1 && !skip)
			parallel = parse_blocks(idx, b, n, ext_offset,
						threads, &bad);
		else if (git_threads > 2 && HASH_RAWSZ == 20 &&
			 res == IEOT_BAD_VERSION)
			diag_emit(DIAG_ERROR, "invalid IEOT version %d", value);
		else if (git_threads > 2 && HASH_RAWSZ == 20 &&
			 res == IEOT_BAD_COUNT)
			diag_emit(DIAG_ERROR, "invalid number of IEOT entries "
				  "%d", value);
		free(b);
		if (parallel) {
			c.p = base + ext_offset;
			trace_count(TC_IEOT_BLOCKS, n);
		}
	}
	if (skip) {
		struct entry_run check = { .c = c, .nr = nr, .check_only = 1 };

		ret = parse_entries(idx, &check, version, path);
		if (ret < 0)
			goto out;
		if (check.unusual || check.c.p != base + ext_offset) {
			/* for the whole parse to judge, as without the flag */
			skip = 0;
			alloc_entries(idx, nr);
		} else {
			c.p = check.c.p;
			idx->read_extended = check.extended;
			idx->entries_skipped = nr;
			trace_count(TC_ENTRIES_CHECKED, nr);
		}
	}
	if (!skip)
		read_tree_rest(idx);
	if (!parallel && !skip) {
		mempool_reserve(&idx->pool, nr, o->threads);
		all.c = c;
		all.nr = nr;
		all.pool = &idx->pool;
		all.names = &idx->names;
		ret = parse_entries(idx, &all, version, path);
		if (ret < 0)
			goto out;
		c.p = all.c.p;
		idx->read_extended = all.extended;
		bad = all.bad;
	}
	if (!skip) {
		idx->nr = nr;
		trace_count(TC_ENTRIES_READ, nr);
	}

	if (early && c.p == base + ext_offset) {
		for (size_t i = 0; !(flags & INDEX_READ_QUIET) &&
			     i < ignored.len; i += 4)
			diag_emit(DIAG_PLAIN, "ignoring %.4s extension",
				  ignored.buf + i);
	} else {
		/* extensions, up to the checksum */
		if (early)
			drop_extensions(idx);
		ret = parse_extensions(idx, &c, path,
				       flags & ~INDEX_READ_TREE_ONLY, NULL);
	}
	if (ret < 0)
		goto out;
	/* only a split index may hold unnamed or unordered entries */
	if (bad && !(idx->split && !oid_is_null(&idx->split->base_oid))) {
		if (!bad->namelen) {
			ret = corrupt(path, "entry with an empty name");
		} else {
			snprintf(why, sizeof(why), "entries out of order near "
				 "'%.*s'", (int)MIN(bad->namelen, 200),
				 bad->name);
			ret = corrupt(path, why);
		}
	}
out:
	strbuf_release(&ignored);
	return ret;
}

/*
 * Every byte of the file is parsed.  A small one is mapped with all its
 * pages at once; a big one (a linux-sized index is 8 MB) is read into
 * huge pages: touching the 2,000 4 KB pages of a file mapping costs a
 * TLB miss each, 4 ms in this virtual machine for what read() copies
 * into huge pages in 2.5 (perf P11).  The copy is read-only after, as
 * the mapping is.  A very big one (an index of 2 million entries is
 * 176 MB) is mapped again: its copy would be as much fresh anonymous
 * memory on top of the entries' pools, and in this virtual machine
 * memory the host has taken back costs 0.3-0.6 s more per 200 MB the
 * first time it is touched (perf scale, P6t: 0.80-0.87 s copied against
 * 0.33-0.51 s mapped right after the index was written; 0.13-0.16
 * against 0.16-0.23 s when warm).
 */
static int
map_index(struct index *idx, int fd, const char *path, size_t size,
	  int threads)
{
	size_t len = size;
	void *map;

	if (size >= INDEX_COPY_MIN && size < INDEX_COPY_MAX &&
	    (map = huge_map(size, &len, threads))) {
		ssize_t n = read_full(fd, map, size);

		if (n < 0 || (size_t)n != size) {
			int err = n < 0 ? errno : EIO;

			munmap(map, len);
			return error_errno(err, "%s: unable to read index "
					   "file", path);
		}
		(void)mprotect(map, len, PROT_READ);
	} else {
		map = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE,
			   fd, 0);
		if (map == MAP_FAILED)
			return error_errno(errno, "%s: unable to map index "
					   "file", path);
	}
	idx->map = map;
	idx->map_len = size;
	idx->map_span = len;
	return 0;
}

/* The read options for a --threads value and the settings (or NULL). */
static void
read_opts_init(struct read_opts *o, int requested,
	       const struct repo_settings *s)
{
	int configured = s ? (s->index_threads_set && s->index_threads > 0 ?
			      s->index_threads : s->threads) : 0;

	o->s = s;
	o->threads = workers_count(requested, configured, 0, 0);
	o->explicit_threads = requested > 0 || configured > 0 ||
		workers_parse(getenv("DIRC_THREADS")) > 0;
}

int
index_read(struct index *idx, const char *path, unsigned flags)
{
	return index_read_in(idx, path, NULL, flags, 0);
}

int
index_read_in(struct index *idx, const char *path, const struct repo *repo,
	      unsigned flags, int threads)
{
	struct read_opts o;
	struct stat st;
	uint64_t start = trace_now();
	int fd, ret;

	index_init(idx);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		return error_errno(errno, "%s: index file open failed", path);
	}
	if (fstat(fd, &st) < 0) {
		ret = error_errno(errno, "%s: cannot stat the open index",
				  path);
		close(fd);
		return ret;
	}
	idx->exists = 1;
	idx->timestamp = st.st_mtim;
	if ((size_t)st.st_size < INDEX_HEADER_SIZE + (size_t)HASH_RAWSZ) {
		close(fd);
		return error_set(E_CORRUPT, "%s: index file smaller than "
				 "expected", path);
	}
	read_opts_init(&o, threads, repo ? &repo->settings : NULL);
	idx->read_threads = o.threads;
	ret = map_index(idx, fd, path, st.st_size, o.threads);
	close(fd);
	if (ret < 0)
		return ret;
	ret = parse(idx, path, flags, &o);
	if (!ret && idx->split && !oid_is_null(&idx->split->base_oid) &&
	    !(flags & INDEX_READ_SHARED))
		ret = split_index_merge(idx, path, repo,
					flags & ~INDEX_READ_TREE_ONLY,
					threads);
	if (ret < 0)
		index_release(idx);
	trace_phase("read index", start);
	return ret;
}

void
index_read_rest(struct index *idx)
{
	const unsigned char *base = idx->map;
	struct entry_run all = { .c = { NULL, NULL } };
	uint32_t nr = idx->entries_skipped;

	read_tree_rest(idx);
	if (!nr)
		return;
	alloc_entries(idx, nr);
	mempool_reserve(&idx->pool, nr, idx->read_threads);
	/* as parse() parsed them serially */
	all.c.p = base + INDEX_HEADER_SIZE;
	all.c.end = base + idx->map_len - HASH_RAWSZ;
	all.nr = nr;
	all.pool = &idx->pool;
	all.names = &idx->names;
	if (parse_entries(idx, &all, idx->version, "index") < 0 || all.bad)
		BUG("index entries checked clean do not parse: %s",
		    error_msg());
	idx->nr = nr;
	idx->entries_skipped = 0;
	trace_count(TC_ENTRIES_READ, nr);
}

int
index_parse(struct index *idx, const void *buf, size_t len,
	    const char *name, unsigned flags)
{
	return index_parse_threads(idx, buf, len, name, flags, 1);
}

int
index_parse_threads(struct index *idx, const void *buf, size_t len,
		    const char *name, unsigned flags, int threads)
{
	struct read_opts o = { .threads = threads, .explicit_threads = 1 };
	int ret;

	index_init(idx);
	if (len < INDEX_HEADER_SIZE + (size_t)HASH_RAWSZ)
		return error_set(E_CORRUPT, "%s: index file smaller than "
				 "expected", name);
	idx->map = mmap(NULL, len, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (idx->map == MAP_FAILED) {
		idx->map = NULL;
		return error_errno(errno, "cannot map %zu bytes", len);
	}
	memcpy(idx->map, buf, len);
	idx->map_len = idx->map_span = len;
	idx->read_threads = threads;
	idx->exists = 1;
	ret = parse(idx, name, flags, &o);
	if (!ret && idx->split && !oid_is_null(&idx->split->base_oid) &&
	    !(flags & INDEX_READ_SHARED))
		ret = error_set(E_UNSUPPORTED, "%s: a split index, with no "
				"shared index to read", name);
	if (ret < 0)
		index_release(idx);
	return ret;
}

/* ---- resolve-undo ---- */

static int
reuc_cmp(const void *a, const void *b)
{
	const struct resolve_undo *x = a, *y = b;

	return strcmp(x->path, y->path);
}

static void
record_resolve_undo(struct index *idx, const struct index_entry *e)
{
	int stage = ce_stage(e);
	struct resolve_undo *ru = NULL;

	if (!stage)
		return;
	for (size_t i = 0; i < idx->reuc_nr; i++)
		if (!strcmp(idx->reuc[i].path, e->name))
			ru = &idx->reuc[i];
	if (!ru) {
		ALLOC_GROW(idx->reuc, idx->reuc_nr + 1, idx->reuc_alloc);
		ru = &idx->reuc[idx->reuc_nr++];
		memset(ru, 0, sizeof(*ru));
		ru->path = xstrdup(e->name);
	}
	ru->mode[stage - 1] = e->mode;
	ru->oid[stage - 1] = e->oid;
}

/* ---- changes ---- */

void
index_remove_at(struct index *idx, size_t pos)
{
	struct index_entry *e = idx->entries[pos];

	record_resolve_undo(idx, e);
	if (idx->tree)
		cache_tree_invalidate_path(idx->tree, e->name, e->namelen);
	memmove(idx->entries + pos, idx->entries + pos + 1,
		(idx->nr - pos - 1) * sizeof(*idx->entries));
	idx->nr--;
	idx->changed = 1;
}

void
index_stage_add(struct index *idx, struct index_entry *e, unsigned flags)
{
	e->order = ++idx->next_order;
	e->state |= CE_NEW;
	e->state &= ~(CE_REMOVE | CE_STAGED_DELETE | CE_STAGED_REPLACE);
	if (flags & INDEX_ADD_REPLACE)
		e->state |= CE_STAGED_REPLACE;
	if (idx->tree)
		cache_tree_invalidate_path(idx->tree, e->name, e->namelen);
	ALLOC_GROW(idx->staged, idx->staged_nr + 1, idx->staged_alloc);
	idx->staged[idx->staged_nr++] = e;
	idx->changed = 1;
}

void
index_stage_remove(struct index *idx, const char *path, size_t len)
{
	struct index_entry *e = index_entry_new(idx, path, len);

	e->order = ++idx->next_order;
	e->state = CE_STAGED_DELETE;
	if (idx->tree)
		cache_tree_invalidate_path(idx->tree, path, len);
	ALLOC_GROW(idx->staged, idx->staged_nr + 1, idx->staged_alloc);
	idx->staged[idx->staged_nr++] = e;
}

static int
staged_cmp(const void *a, const void *b)
{
	const struct index_entry *x = *(const struct index_entry *const *)a;
	const struct index_entry *y = *(const struct index_entry *const *)b;
	int cmp = index_name_cmp(x->name, x->namelen, y->name, y->namelen);

	if (cmp)
		return cmp;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The live entries of one name while a group of changes is applied. */
struct group {
	struct index_entry *stage[4];
};

static void
group_remove(struct index *idx, struct group *g, int stage)
{
	if (!g->stage[stage])
		return;
	record_resolve_undo(idx, g->stage[stage]);
	g->stage[stage] = NULL;
	idx->changed = 1;
}

/* Apply one staged change to the live entries of its name. */
static void
group_apply(struct index *idx, struct group *g, struct index_entry *op)
{
	int stage = ce_stage(op);

	if (op->state & CE_STAGED_DELETE) {
		/* git's remove_file_from_index(), present or not */
		untracked_invalidate(idx, op->name, op->namelen);
		for (int s = 0; s < 4; s++)
			group_remove(idx, g, s);
		return;
	}
	/* git's add_index_entry(): a replacement keeps the cache */
	if (!g->stage[stage])
		untracked_invalidate(idx, op->name, op->namelen);
	if (!g->stage[stage] && !stage)
		for (int s = 1; s < 4; s++)
			group_remove(idx, g, s);
	/* a split index: a replacement takes the shared entry's place */
	if (g->stage[stage] && g->stage[stage]->state & CE_FROM_BASE)
		op->state |= CE_FROM_BASE | CE_UPDATE_IN_BASE;
	g->stage[stage] = op;
}

/*
 * Is there a live entry (stage stage) named exactly name, or any under
 * name + '/'?  Search the sorted array a[0..n).
 */
static ssize_t
find_exact(struct index_entry **a, size_t n, const char *name, size_t len,
	   int stage)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = index_name_cmp(name, len, a[mid]->name, a[mid]->namelen);

		if (!cmp)
			cmp = stage - ce_stage(a[mid]);
		if (!cmp)
			return mid;
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -(ssize_t)lo - 1;
}

/* What checking the file/directory conflicts of one index_apply() found. */
struct df_check {
	uint32_t err_order;
	const struct index_entry *err_entry;	/* the first conflict */
	struct index_entry **evicted;	/* losers marked CE_REMOVE */
	size_t evicted_nr, evicted_alloc;
};

/* The adder of two conflicting entries is the one staged later. */
static int
resolve_conflict(struct index *idx, struct index_entry *a,
		 struct index_entry *b, struct df_check *dc)
{
	struct index_entry *adder = a->order >= b->order ? a : b;
	struct index_entry *loser = adder == a ? b : a;

	if (loser->state & CE_REMOVE || adder->state & CE_REMOVE)
		return 0;
	if (adder->state & CE_STAGED_REPLACE) {
		loser->state |= CE_REMOVE;
		ALLOC_GROW(dc->evicted, dc->evicted_nr + 1, dc->evicted_alloc);
		dc->evicted[dc->evicted_nr++] = loser;
		record_resolve_undo(idx, loser);
		if (idx->tree)
			cache_tree_invalidate_path(idx->tree, loser->name,
						   loser->namelen);
		return 0;
	}
	if (!dc->err_entry || adder->order < dc->err_order) {
		dc->err_order = adder->order;
		dc->err_entry = adder;
	}
	return -1;
}

/* File/directory conflicts of new entry e within the merged array. */
static void
check_df(struct index *idx, struct index_entry **a, size_t n,
	 struct index_entry *e, struct df_check *dc)
{
	int stage = ce_stage(e);
	ssize_t pos;

	/* a leading directory of e that is a file */
	for (size_t i = 0; i < e->namelen; i++) {
		if (e->name[i] != '/')
			continue;
		pos = find_exact(a, n, e->name, i, stage);
		if (pos >= 0)
			resolve_conflict(idx, a[pos], e, dc);
	}
	/* entries under e/ */
	pos = find_exact(a, n, e->name, e->namelen, stage);
	if (pos < 0)
		return;
	for (size_t i = pos + 1; i < n; i++) {
		struct index_entry *x = a[i];

		if (x->namelen <= e->namelen ||
		    memcmp(x->name, e->name, e->namelen))
			break;
		if (x->name[e->namelen] < '/')
			continue;	/* "a-b", "a.c" sort before "a/" */
		if (x->name[e->namelen] > '/')
			break;
		if (ce_stage(x) == stage)
			resolve_conflict(idx, x, e, dc);
	}
}

/* At most this many changes are tried in place (replace_in_place()). */
#define IN_PLACE_MAX 16

/*
 * Whether every staged change (sorted) replaces the one live entry of its
 * name, at its stage, no two of them naming the same path: update-cache
 * of a few touched files.  Then the merged array is the live one with
 * those pointers swapped, and index_apply() swaps them in place rather
 * than copying the array (at 79,000 entries, 600 KB of fresh memory
 * faulted in and filled: a tenth of the round trip, perf P6k).  pos[k]
 * the live position of staged change k.  The look-ups are index_pos()'s,
 * as the loop's (a sparse index notes a path under a collapsed
 * directory: idempotent).
 */
static int
replace_in_place(const struct index *idx, size_t pos[IN_PLACE_MAX])
{
	if (idx->staged_nr > IN_PLACE_MAX)
		return 0;
	for (size_t j = 0; j < idx->staged_nr; j++) {
		const struct index_entry *op = idx->staged[j], *next;
		ssize_t at;

		if (op->state & CE_STAGED_DELETE)
			return 0;
		next = j + 1 < idx->staged_nr ? idx->staged[j + 1] : NULL;
		if (next && !index_name_cmp(op->name, op->namelen, next->name,
					    next->namelen))
			return 0;
		at = index_pos(idx, op->name, op->namelen, -1);
		if (at < 0 || ce_stage(idx->entries[at]) != ce_stage(op))
			return 0;
		next = (size_t)at + 1 < idx->nr ? idx->entries[at + 1] : NULL;
		if (next && !index_name_cmp(op->name, op->namelen, next->name,
					    next->namelen))
			return 0;
		pos[j] = at;
	}
	return 1;
}

int
index_apply(struct index *idx)
{
	struct index_entry **merged, **added;
	struct index_entry *old[IN_PLACE_MAX] = { NULL };
	size_t i = 0, j = 0, n = 0, cap, added_nr = 0;
	size_t slot[IN_PLACE_MAX] = { 0 };
	struct df_check dc = { 0 };
	int in_place;

	if (!idx->staged_nr)
		return 0;
	sort_array(idx->staged, idx->staged_nr, sizeof(*idx->staged), staged_cmp);
	in_place = replace_in_place(idx, slot);
	cap = st_add(idx->nr, idx->staged_nr);
	merged = in_place ? idx->entries :
		xmalloc(st_mult(cap ? cap : 1, sizeof(*merged)));
	added = xmalloc(st_mult(idx->staged_nr, sizeof(*added)));
	for (j = 0; in_place && j < idx->staged_nr; j++) {
		/* as the loop below would do it, for a group of one */
		struct index_entry *op = idx->staged[j];
		struct group g = { { NULL } };
		int stage = ce_stage(op);

		old[j] = g.stage[stage] = merged[slot[j]];
		group_apply(idx, &g, op);
		merged[slot[j]] = g.stage[stage];
		if (g.stage[stage]->order)
			added[added_nr++] = g.stage[stage];
	}
	if (in_place)
		i = n = idx->nr;
	while (!in_place && j < idx->staged_nr) {
		struct index_entry *next = idx->staged[j];
		struct group g = { { NULL } };
		const char *name = next->name;
		size_t len = next->namelen;
		/*
		 * The live entries before it are copied in one piece: a few
		 * changes to a large index compare O(log n) names each.
		 */
		ssize_t at = index_pos(idx, name, len, -1);
		size_t pos = at < 0 ? (size_t)(-at - 1) : (size_t)at;

		if (pos > i)
			memcpy(merged + n, idx->entries + i,
			       (pos - i) * sizeof(*merged));
		n += pos - i;
		i = pos;
		while (i < idx->nr && !index_name_cmp(idx->entries[i]->name,
						idx->entries[i]->namelen,
						name, len)) {
			g.stage[ce_stage(idx->entries[i])] = idx->entries[i];
			i++;
		}
		while (j < idx->staged_nr &&
		       !index_name_cmp(idx->staged[j]->name, idx->staged[j]->namelen,
				 name, len))
			group_apply(idx, &g, idx->staged[j++]);
		for (int s = 0; s < 4; s++) {
			struct index_entry *e = g.stage[s];

			if (!e)
				continue;
			merged[n++] = e;
			/* only staged entries carry an order */
			if (e->order)
				added[added_nr++] = e;
		}
	}
	if (!in_place && idx->nr > i)
		memcpy(merged + n, idx->entries + i,
		       (idx->nr - i) * sizeof(*merged));
	n += idx->nr - i;
	/* file/directory conflicts of what was added, in name order */
	for (size_t k = 0; k < added_nr; k++)
		if (added[k]->state & CE_NEW)
			check_df(idx, merged, n, added[k], &dc);
	if (dc.err_entry) {
		int ret = error_set(E_CONFLICT, "'%s' appears as both a file "
				    "and as a directory", dc.err_entry->name);

		idx->df_conflict = dc.err_entry->name;

		/*
		 * The entries stay as they were: none evicted, none still
		 * carrying a staging order a later apply would take for
		 * its own (resolve-undo records and cache-tree
		 * invalidations made on the way are kept, as before).
		 */
		for (size_t k = 0; k < dc.evicted_nr; k++)
			dc.evicted[k]->state &= ~CE_REMOVE;
		for (size_t k = 0; k < idx->staged_nr; k++)
			idx->staged[k]->order = 0;
		free(dc.evicted);
		free(added);
		if (in_place)
			for (size_t k = 0; k < idx->staged_nr; k++)
				merged[slot[k]] = old[k];
		else
			free(merged);
		idx->staged_nr = 0;
		return ret;
	}
	if (!in_place) {
		free(idx->entries);
		idx->entries = merged;
		idx->nr = n;
		idx->alloc = cap;
	}
	idx->staged_nr = 0;
	for (size_t k = 0; k < added_nr; k++)
		added[k]->order = 0;
	if (dc.evicted_nr)
		idx->has_removed = 1;
	free(dc.evicted);
	free(added);
	index_compact(idx);
	return 0;
}

void
index_compact(struct index *idx)
{
	size_t n = 0;

	if (!idx->has_removed)
		return;
	for (size_t i = 0; i < idx->nr; i++)
		if (!(idx->entries[i]->state & CE_REMOVE))
			idx->entries[n++] = idx->entries[i];
	if (n != idx->nr)
		idx->changed = 1;
	idx->nr = n;
	idx->has_removed = 0;
}

/* ---- stat data ---- */

unsigned
index_mode_from_stat(const struct stat *st)
{
	if (S_ISLNK(st->st_mode))
		return S_IFLNK;
	if (S_ISDIR(st->st_mode))
		return S_IFGITLINK;
	return S_IFREG | ((st->st_mode & S_IXUSR) ? 0755 : 0644);
}

void
index_entry_fill_stat(struct index_entry *e, const struct stat *st)
{
	e->sd.ctime_sec = (uint32_t)st->st_ctim.tv_sec;
	e->sd.ctime_nsec = (uint32_t)st->st_ctim.tv_nsec;
	e->sd.mtime_sec = (uint32_t)st->st_mtim.tv_sec;
	e->sd.mtime_nsec = (uint32_t)st->st_mtim.tv_nsec;
	e->sd.dev = (uint32_t)st->st_dev;
	e->sd.ino = (uint32_t)st->st_ino;
	e->sd.uid = (uint32_t)st->st_uid;
	e->sd.gid = (uint32_t)st->st_gid;
	e->sd.size = (uint32_t)st->st_size;
}

int
index_entry_is_racy(const struct index *idx, const struct index_entry *e)
{
	/* git 2.39 without USE_NSEC compares whole seconds */
	if (!idx->timestamp.tv_sec || S_ISGITLINK(e->mode))
		return 0;
	return (uint32_t)idx->timestamp.tv_sec <= e->sd.mtime_sec;
}

unsigned
index_match_stat(const struct repo *repo, const struct index_entry *e,
		 const struct stat *st)
{
	const struct repo_settings *s = &repo->settings;
	unsigned changed = 0;

	switch (e->mode & S_IFMT) {
	case S_IFREG:
		if (!S_ISREG(st->st_mode))
			changed |= TYPE_CHANGED;
		/* only the owner's x bit is a mode change */
		if (s->filemode && (e->mode ^ st->st_mode) & S_IXUSR)
			changed |= MODE_CHANGED;
		break;
	case S_IFLNK:
		if (!S_ISLNK(st->st_mode) &&
		    (s->symlinks || !S_ISREG(st->st_mode)))
			changed |= TYPE_CHANGED;
		break;
	case S_IFGITLINK:
		/* compared by its HEAD (modified_check), not its stat data */
		if (!S_ISDIR(st->st_mode))
			changed |= TYPE_CHANGED;
		return changed;
	default:
		return TYPE_CHANGED;
	}
	if (e->sd.mtime_sec != (uint32_t)st->st_mtim.tv_sec)
		changed |= MTIME_CHANGED;
	if (s->trustctime && !s->checkstat_minimal &&
	    e->sd.ctime_sec != (uint32_t)st->st_ctim.tv_sec)
		changed |= CTIME_CHANGED;
	if (!s->checkstat_minimal) {
		if (e->sd.uid != (uint32_t)st->st_uid ||
		    e->sd.gid != (uint32_t)st->st_gid)
			changed |= OWNER_CHANGED;
		if (e->sd.ino != (uint32_t)st->st_ino)
			changed |= INODE_CHANGED;
	}
	if (e->sd.size != (uint32_t)st->st_size)
		changed |= DATA_CHANGED;
	/* a smudged entry (size 0 for non-empty content) must be checked */
	if (!e->sd.size && !oideq(&e->oid, &empty_blob_oid))
		changed |= DATA_CHANGED;
	return changed;
}

int
index_content_matches(const struct repo *repo, const struct index *idx,
		      const struct index_entry *e, const struct stat *st,
		      struct read_buf *rb)
{
	struct object_id oid;
	int ret = 0;

	(void)repo;
	if (S_ISLNK(st->st_mode)) {
		struct strbuf target = STRBUF_INIT;
		ssize_t n;

		strbuf_grow(&target, st->st_size + 1);
		n = readlink(e->name, target.buf, target.alloc - 1);
		if (n < 0)
			return error_errno(errno, "unable to read symlink %s",
					   e->name);
		strbuf_setlen(&target, n);
		odb_hash(&oid, "blob", target.buf, target.len);
		strbuf_release(&target);
	} else if (S_ISREG(st->st_mode)) {
		struct read_buf local = READ_BUF_INIT;
		int fd = open(e->name, O_RDONLY | O_CLOEXEC);

		if (fd < 0)
			return error_errno(errno, "unable to open %s", e->name);
		if (idx && idx->hash_file)
			ret = idx->hash_file(idx->hash_ctx, &oid, e->name, fd,
					     st->st_size, &e->oid,
					     rb ? rb : &local);
		else
			ret = odb_hash_fd(&oid, "blob", fd, st->st_size,
					  e->name, rb ? rb : &local);
		read_buf_release(&local);
		close(fd);
		if (ret < 0)
			return ret;
	} else {
		return 0;
	}
	trace_count(TC_RACY, 1);
	return oideq(&oid, &e->oid);
}

void
dir_cache_release(struct dir_cache *dc)
{
	strbuf_release(&dc->dir);
}

int
index_check_leading_path(const char *path, size_t len, struct dir_cache *dc)
{
	struct strbuf sb = STRBUF_INIT;
	size_t from = 0, dirlen = len;
	int ret = 0;

	/* most often, the directory of the path checked before */
	if (dc && dc->dir.len && dc->dir.len < len &&
	    !memcmp(dc->dir.buf, path, dc->dir.len) &&
	    !memchr(path + dc->dir.len, '/', len - dc->dir.len))
		return 0;
	/* "a/b/": from the end, as the base name is the short part */
	while (dirlen && path[dirlen - 1] != '/')
		dirlen--;
	if (!dirlen)
		return 0;
	if (dc) {
		/* components already known to be real directories */
		size_t k, max = MIN(dc->dir.len, dirlen);

		/* or one above it */
		if (dirlen <= dc->dir.len && !memcmp(dc->dir.buf, path, dirlen))
			return 0;
		for (k = 0; k < max && dc->dir.buf[k] == path[k]; k++)
			if (path[k] == '/')
				from = k + 1;
		if (from == dirlen)
			return 0;
	}
	for (size_t i = from; i < dirlen; i++) {
		struct stat st;

		if (path[i] != '/')
			continue;
		strbuf_reset(&sb);
		strbuf_add(&sb, path, i);
		if (lstat(sb.buf, &st) < 0) {
			dirlen = 0;	/* missing: nothing to remember */
			break;
		}
		if (S_ISLNK(st.st_mode)) {
			ret = error_set(E_INVALID, "'%.*s' is beyond a "
					"symbolic link", (int)len, path);
			dirlen = 0;
			break;
		}
		if (!S_ISDIR(st.st_mode)) {
			dirlen = 0;
			break;
		}
	}
	if (dc && dirlen) {
		strbuf_reset(&dc->dir);
		strbuf_add(&dc->dir, path, dirlen);
	}
	strbuf_release(&sb);
	return ret;
}

/* ---- writing ---- */

static unsigned
pick_version(const struct index *idx, const struct repo *repo, int extended)
{
	unsigned v = idx->want_version ? idx->want_version :
		idx->version ? idx->version :
		repo && repo->settings.index_version ?
		(unsigned)repo->settings.index_version : 3;

	if (v == 4)
		return 4;
	return extended ? 3 : 2;
}

/*
 * git's racy-git smudging: an entry that was racily clean when the old
 * index was read, and not verified in this process, is checked against
 * the work tree now; if its stat data still matches but its content does
 * not, its size is stored as 0 so that every reader looks at the content.
 */
static void
smudge_racy(const struct repo *repo, const struct index *idx,
	    struct index_entry *e)
{
	struct stat st;

	if (e->state & (CE_UPTODATE | CE_REMOVE) || !repo || !repo->worktree)
		return;
	if (!index_entry_is_racy(idx, e) || S_ISGITLINK(e->mode))
		return;
	/* assume-unchanged and skip-worktree entries too, as git does */
	if (lstat(e->name, &st) < 0)
		return;
	if (index_match_stat(repo, e, &st))
		return;	/* the stat data shows the change already */
	/* what cannot be read cannot be trusted either */
	if (index_content_matches(repo, idx, e, &st, NULL) != 1) {
		error_clear();
		e->sd.size = 0;
	}
}

/*
 * The fixed part of e's on-disk entry into hdr; returns its size
 * (ENTRY_FIXED, 2 more with extended flags).
 */
static size_t
entry_header(unsigned char hdr[ENTRY_HDR_MAX], const struct index_entry *e)
{
	uint16_t fl = e->flags & (CE_VALID | CE_STAGEMASK);
	size_t fixed = ENTRY_FIXED;

	put_be32(hdr, e->sd.ctime_sec);
	put_be32(hdr + 4, e->sd.ctime_nsec);
	put_be32(hdr + 8, e->sd.mtime_sec);
	put_be32(hdr + 12, e->sd.mtime_nsec);
	put_be32(hdr + 16, e->sd.dev);
	put_be32(hdr + 20, e->sd.ino);
	put_be32(hdr + 24, e->mode);
	put_be32(hdr + 28, e->sd.uid);
	put_be32(hdr + 32, e->sd.gid);
	put_be32(hdr + 36, e->sd.size);
	memcpy(hdr + 40, e->oid.hash, HASH_RAWSZ);
	fl |= e->namelen < CE_NAMEMASK ? e->namelen : CE_NAMEMASK;
	if (e->ext_flags) {
		fl |= CE_EXTENDED;
		put_be16(hdr + ENTRY_FIXED, e->ext_flags);
		fixed += 2;
	}
	put_be16(hdr + ENTRY_FLAGS_AT, fl);
	return fixed;
}

/*
 * e's bytes.  v4: its name after prev's; alone (stripping all of prev,
 * as git starts each IEOT block) when max_common is 0.
 */
static void
put_entry(struct strbuf *out, const struct index_entry *e, unsigned version,
	  const char *prev, size_t prevlen, size_t max_common)
{
	unsigned char hdr[ENTRY_HDR_MAX];
	size_t fixed = entry_header(hdr, e);

	strbuf_add(out, hdr, fixed);
	if (version == 4) {
		size_t common = 0;
		size_t max = MIN(MIN(prevlen, e->namelen), max_common);

		while (common < max && prev[common] == e->name[common])
			common++;
		varint_encode(out, prevlen - common);
		strbuf_add(out, e->name + common, e->namelen - common);
		strbuf_addch(out, '\0');
	} else {
		size_t entlen = (fixed + e->namelen + 8) & ~(size_t)7;

		strbuf_add(out, e->name, e->namelen);
		strbuf_add(out, "\0\0\0\0\0\0\0\0", entlen - fixed - e->namelen);
	}
}

/*
 * memcmp(a, b, fixed) == 0 for the SHA-1 sizes, in words: no call (the
 * index write compares every entry); a plain memcmp() for SHA-256.
 */
static inline int
same_header(const unsigned char *a, const unsigned char *b, size_t fixed)
{
	uint64_t x, y, diff = 0;
	uint32_t u, v;
	uint16_t s, t;

	if (HASH_RAWSZ != 20)
		return !memcmp(a, b, fixed);
	for (size_t i = 0; i < 56; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		diff |= x ^ y;
	}
	memcpy(&u, a + 56, 4);
	memcpy(&v, b + 56, 4);
	memcpy(&s, a + 60, 2);
	memcpy(&t, b + 60, 2);
	diff |= (u ^ v) | (uint16_t)(s ^ t);
	if (fixed > ENTRY_FIXED) {
		memcpy(&s, a + 62, 2);
		memcpy(&t, b + 62, 2);
		diff |= (uint16_t)(s ^ t);
	}
	return !diff;
}

/*
 * The bytes the file that was read holds for e, when they are exactly
 * the bytes put_entry() would write (v2/v3): e's name still points into
 * the mapping, the fixed part there equals e's as encoded now, and the
 * padding is NULs.  Such entries go out from the mapping as they are,
 * unformatted and uncopied: after a small change that is nearly all of
 * them.  The check compares what would be written, so an entry changed
 * in memory in any way is formatted again.  NULL if not; *len its size.
 */
static const unsigned char *
raw_entry(const struct index *idx, const struct index_entry *e, size_t *len)
{
	const unsigned char *map = idx->map, *name = (const void *)e->name;
	const unsigned char *raw;
	unsigned char hdr[ENTRY_HDR_MAX];
	size_t fixed, entlen;

	if (name < map + INDEX_HEADER_SIZE + ENTRY_FIXED ||
	    name >= map + idx->map_len)
		return NULL;
	fixed = entry_header(hdr, e);
	raw = name - fixed;
	entlen = (fixed + e->namelen + 8) & ~(size_t)7;
	if ((size_t)(map + idx->map_len - raw) < entlen + HASH_RAWSZ ||
	    !same_header(hdr, raw, fixed))
		return NULL;
	for (size_t i = fixed + e->namelen; i < entlen; i++)
		if (raw[i])
			return NULL;
	*len = entlen;
	return raw;
}

static int
write_reuc(struct ext_writer *w, struct index *idx)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	sort_array(idx->reuc, idx->reuc_nr, sizeof(*idx->reuc), reuc_cmp);
	for (size_t i = 0; i < idx->reuc_nr; i++) {
		const struct resolve_undo *ru = &idx->reuc[i];

		strbuf_addstr(&sb, ru->path);
		strbuf_addch(&sb, '\0');
		for (int s = 0; s < 3; s++) {
			strbuf_addf(&sb, "%o", ru->mode[s]);
			strbuf_addch(&sb, '\0');
		}
		for (int s = 0; s < 3; s++)
			if (ru->mode[s])
				strbuf_add(&sb, ru->oid[s].hash, HASH_RAWSZ);
	}
	ret = ext_writer_add(w, "REUC", sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

static int
null_id(const struct index_entry *e)
{
	struct strbuf pre = STRBUF_INIT;
	int ret;

	strbuf_addf(&pre, "cache entry has null sha1: %s", e->name);
	ret = error_set_pre(E_INVALID, pre.buf, "Unable to write new index "
			    "file");
	strbuf_release(&pre);
	return ret;
}

/*
 * From this many entries (about a megabyte) a write with more than one
 * thread allowed hashes on a second thread: starting it costs tens of
 * microseconds, hashing a megabyte most of a millisecond.
 */
#define ASYNC_HASH_MIN_ENTRIES 16384

/* What index_write() asks of write_image() beyond the bytes. */
struct write_opts {
	struct repo *repo;	/* smudge racily clean entries; NULL: not */
	int check_null;		/* refuse an entry with a null id */
	int allow_null;		/* GIT_ALLOW_NULL_SHA1: warn instead */
	int quiet;		/* no warnings (the same entries again) */
	int threads;		/* more than 1: hash on a second thread */
	int eoie;		/* write EOIE */
	/* IEOT blocks as git asks for them with these settings, for the
	 * entries written (the split part, the shared index, a sparse
	 * index collapsed); NULL: no IEOT */
	const struct repo_settings *ieot;
	int extended;		/* out: an entry has extended flags */
	/* a split index (index-internal.h): its part, or its shared index */
	struct index_entry **entries;	/* NULL: idx's */
	size_t nr, stripped;	/* how many; the first stripped unnamed */
	const struct strbuf *link;	/* the link extension, or NULL */
	int no_ext;		/* a shared index: no TREE, REUC (git's
				 * IEOT, sdir and EOIE stay) */
	int skip_hash;		/* index.skipHash: a zero trailer */
};

/*
 * The file's bytes: header, entries, IEOT, link, TREE, REUC, sdir, EOIE,
 * trailing checksum (the extensions in git's order, through one
 * ext_writer, so that EOIE's hash covers every header before it).  The
 * checks and the racy smudging index_write() needs are made entry by
 * entry as they are written, in one pass over the entries: a separate
 * pass cost as much as the write of the unchanged ones.
 */
static int
write_image(struct index *idx, unsigned version, int fd, const char *path,
	    struct write_opts *o)
{
	struct strbuf ent = STRBUF_INIT;
	struct bufwrite bw;
	unsigned char hdr[INDEX_HEADER_SIZE];
	const char *prev = "";
	size_t prevlen = 0, runlen = 0;
	const unsigned char *run = NULL;	/* unchanged entries, mapped */
	struct index_entry **entries = o->entries ? o->entries : idx->entries;
	size_t nr = o->entries ? o->nr : idx->nr;
	struct ieot_block *blocks = NULL;
	size_t nblocks = 0, per_block = 0, block_first = 0;
	size_t pos = INDEX_HEADER_SIZE;	/* where the next entry goes */
	struct ext_writer ew;
	int asked = o->ieot ? index_ieot_blocks(o->ieot, nr) : 0;
	int ret;

	if (asked > 1 && nr) {
		/* git's blocks: ceil(entries / asked) each, maybe fewer */
		per_block = (nr + asked - 1) / asked;
		blocks = xcalloc(asked, sizeof(*blocks));
		blocks[0].offset = INDEX_HEADER_SIZE;
	}
	bufwrite_init(&bw, fd, path, o->skip_hash ? BUFWRITE_ZERO_TRAILER :
		      BUFWRITE_HASH_TRAILER);
	if (o->threads > 1 && nr >= ASYNC_HASH_MIN_ENTRIES)
		bufwrite_hash_async(&bw);
	o->extended = 0;
	memcpy(hdr, "DIRC", 4);
	put_be32(hdr + 4, version);
	put_be32(hdr + 8, nr);
	ret = bufwrite_add(&bw, hdr, sizeof(hdr));
	for (size_t i = 0; !ret && i < nr; i++) {
		struct index_entry *e = entries[i], unnamed;
		const unsigned char *raw = NULL;
		size_t rawlen, max_common = SIZE_MAX;

		/* entries and their bytes in the map are walked in step */
		if (i + 8 < nr) {
			__builtin_prefetch(entries[i + 8]);
			__builtin_prefetch((const void *)
				((uintptr_t)entries[i + 4]->name -
				 ENTRY_FIXED));
		}
		if (per_block && i && !(i % per_block)) {
			blocks[nblocks].nr = i - block_first;
			blocks[++nblocks].offset = (uint32_t)pos;
			block_first = i;
			max_common = 0;	/* a v4 block's first name alone */
		}
		if (e->ext_flags)
			o->extended = 1;
		if (o->check_null && oid_is_null(&e->oid)) {
			if (!o->allow_null) {
				ret = null_id(e);
				break;
			}
			if (!o->quiet)
				diag_emit(DIAG_WARNING, "cache entry has null "
					  "sha1: %s", e->name);
		}
		if (o->repo)
			smudge_racy(o->repo, idx, e);
		if (i < o->stripped) {
			/* a split index's replacement: the name is shared */
			unnamed = *e;
			unnamed.name = "";
			unnamed.namelen = 0;
			e = &unnamed;
		} else if (version != 4 && idx->map) {
			raw = raw_entry(idx, e, &rawlen);
		}
		if (raw)
			pos += rawlen;
		if (raw && run && run + runlen == raw) {
			runlen += rawlen;	/* the next entry of a run */
			continue;
		}
		if (runlen)
			ret = bufwrite_add_stable(&bw, run, runlen);
		run = raw;
		runlen = raw ? rawlen : 0;
		if (raw || ret)
			continue;
		strbuf_reset(&ent);
		put_entry(&ent, e, version, prev, prevlen, max_common);
		prev = e->name;
		prevlen = e->namelen;
		pos += ent.len;
		ret = bufwrite_add(&bw, ent.buf, ent.len);
	}
	if (!ret && runlen)
		ret = bufwrite_add_stable(&bw, run, runlen);
	ext_writer_init(&ew, &bw, o->eoie, pos);
	if (!ret && blocks) {
		blocks[nblocks++].nr = nr - block_first;
		strbuf_reset(&ent);
		ieot_encode(&ent, blocks, nblocks);
		ret = ext_writer_add(&ew, "IEOT", ent.buf, ent.len);
	}
	if (!ret && o->link)
		ret = ext_writer_add(&ew, "link", o->link->buf, o->link->len);
	if (!ret && idx->tree && !o->no_ext) {
		strbuf_reset(&ent);
		cache_tree_encode(&ent, idx->tree);
		ret = ext_writer_add(&ew, "TREE", ent.buf, ent.len);
	}
	if (!ret && idx->reuc_nr && !o->no_ext)
		ret = write_reuc(&ew, idx);
	if (!ret && idx->keep_untracked && !o->no_ext && index_untracked(idx)) {
		strbuf_reset(&ent);
		untracked_cache_encode(&ent, idx->untracked);
		ret = ext_writer_add(&ew, "UNTR", ent.buf, ent.len);
	}
	if (!ret && idx->write_sdir)
		ret = ext_writer_add(&ew, "sdir", NULL, 0);
	if (!ret)
		ret = ext_writer_finish(&ew);
	ext_writer_release(&ew);
	if (!ret)
		ret = bufwrite_finish(&bw, idx->checksum);
	else
		bufwrite_release(&bw);
	strbuf_release(&ent);
	free(blocks);
	return ret;
}

/*
 * write_image() with the right version.  It depends on whether an entry
 * has extended flags, known only once they are written: guess as the
 * index was read, and in the rare case that changed, write again.
 */
static int
write_versioned(struct index *idx, const struct repo *repo, int fd,
		const char *path, struct write_opts *o, unsigned *version)
{
	int ret;

	*version = pick_version(idx, repo, idx->read_extended);
	ret = write_image(idx, *version, fd, path, o);
	if (ret || pick_version(idx, repo, o->extended) == *version)
		return ret;
	*version = pick_version(idx, repo, o->extended);
	o->quiet = 1;
	if (lseek(fd, 0, SEEK_SET) < 0 || ftruncate(fd, 0) < 0)
		return error_errno(errno, "unable to rewrite '%s'", path);
	return write_image(idx, *version, fd, path, o);
}

int
index_write_fd(struct index *idx, int fd, const char *name)
{
	struct write_opts o = { 0 };
	unsigned version;

	if (idx->staged_nr)
		BUG("index_write_fd with %zu staged changes", idx->staged_nr);
	if (idx->entries_skipped)
		BUG("index_write_fd of an index read without its entries");
	index_compact(idx);
	o.threads = workers_count(idx->threads, 0, 0, 0);
	idx->write_sdir = idx->read_sdir;
	for (size_t i = 0; !idx->write_sdir && i < idx->nr; i++)
		if (S_ISDIR(idx->entries[i]->mode))
			idx->write_sdir = 1;
	return write_versioned(idx, NULL, fd, name, &o, &version);
}

/*
 * A split index's new shared index, "sharedindex.<id>" in the git
 * directory: all the entries, no TREE or REUC (IEOT and EOIE as git
 * writes them), written to a temporary
 * "sharedindex_XXXXXX" there and renamed.  0 and *out its id; 1 if the
 * temporary file cannot be made (git then writes the index whole); or a
 * negative E_*.
 */
static int
write_shared(struct index *idx, struct repo *repo,
	     const struct write_opts *opts, struct object_id *out)
{
	static const char digits[] = "abcdefghijklmnopqrstuvwxyz"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	struct lockfile tmp = LOCKFILE_INIT;
	struct strbuf path = STRBUF_INIT;
	struct write_opts o = *opts;
	char hex[HASH_MAX_HEXSZ + 1];
	struct timespec now;
	uint64_t r;
	unsigned version;
	int ret;

	clock_gettime(CLOCK_REALTIME, &now);
	r = (uint64_t)now.tv_nsec * 2654435761u ^ (uint64_t)getpid() << 20;
	strbuf_addf(&path, "%s/sharedindex_", repo->gitdir);
	for (int i = 0; i < 6; i++, r /= 62)
		strbuf_addch(&path, digits[r % 62]);
	ret = lockfile_hold_temp(&tmp, path.buf, path.buf);
	strbuf_release(&path);
	if (ret < 0) {
		error_clear();
		return 1;
	}
	o.no_ext = 1;
	o.entries = NULL;
	o.link = NULL;
	o.stripped = 0;
	/*
	 * Its name is its hash, and the link names it by that: hashed
	 * whatever index.skipHash says.  (git 2.55 zeroes this one too,
	 * names it "sharedindex.000...", and its link then names no
	 * shared index at all.)
	 */
	o.skip_hash = 0;
	ret = write_versioned(idx, repo, tmp.fd, tmp.lock_path, &o, &version);
	if (!ret)
		ret = lockfile_close(&tmp, repo_sync_mode(&repo->settings,
							  FSYNC_INDEX));
	if (ret < 0) {
		lockfile_rollback(&tmp);
		return ret;
	}
	oid_from_raw(out, idx->checksum);
	strbuf_addf(&path, "%s/sharedindex.%s", repo->gitdir,
		    oid_to_hex_r(hex, out));
	free(tmp.target);
	tmp.target = strbuf_detach(&path, NULL);
	return lockfile_commit(&tmp, SYNC_NONE);
}

/*
 * The split index's own file, after a new shared index if the plan says
 * so (split_index_plan()): its replacements and additions and the link.
 */
static int
write_split(struct index *idx, struct repo *repo, int fd, const char *path,
	    struct write_opts *o, unsigned *version, int plan, int *whole)
{
	struct split_write sw;
	struct object_id oid;
	int ret;

	*whole = 0;
	if (plan == 1 && oid_is_null(&idx->split->base_oid)) {
		/* no shared index yet: git writes no link, so whole */
		*whole = 1;
		return write_versioned(idx, repo, fd, path, o, version);
	}
	if (plan == 2) {
		ret = write_shared(idx, repo, o, &oid);
		if (ret == 1) {
			split_index_free(idx->split);
			idx->split = NULL;
			*whole = 1;
			return write_versioned(idx, repo, fd, path, o, version);
		}
		if (!ret)
			ret = split_index_new_base(idx, &oid, repo->gitdir,
						   &repo->config);
		if (ret < 0)
			return ret;
	}
	split_index_prepare(&sw, idx);
	o->entries = sw.entries;
	o->nr = sw.nr;
	o->stripped = sw.replaced;
	o->link = &sw.link;
	ret = write_versioned(idx, repo, fd, path, o, version);
	o->entries = NULL;
	o->link = NULL;
	split_write_release(&sw);
	return ret;
}

int
index_write(struct index *idx, struct repo *repo, struct lockfile *lk)
{
	struct write_opts o = { 0 };
	struct sparse_index_view view;
	int ret = 0, plan, whole = 1;
	unsigned version = 0;	/* set by the write; the analyzer cannot tell */
	uint64_t start = trace_now();
	struct stat st;

	if (idx->staged_nr)
		BUG("index_write with %zu staged changes", idx->staged_nr);
	if (idx->entries_skipped)
		BUG("index_write of an index read without its entries");
	index_compact(idx);
	o.repo = repo;
	/* git asks in this order; the blocks again for what is written */
	ret = index_threads_check(&repo->settings);
	if (ret >= 0)
		ret = index_ieot_blocks(&repo->settings, idx->nr);
	if (ret >= 0)
		o.eoie = index_eoie_wanted(&repo->settings);
	if (ret < 0 || o.eoie < 0) {
		lockfile_rollback(lk);
		return -E_INVALID;
	}
	o.ieot = &repo->settings;
	o.check_null = 1;
	o.allow_null = getenv("GIT_ALLOW_NULL_SHA1") != NULL;
	o.threads = workers_count(idx->threads, repo->settings.threads, 0, 0);
	o.skip_hash = repo->settings.index_skip_hash;
	plan = split_index_plan(idx, &repo->config);
	if (plan > 0 && sparse_index_is_collapsed(idx))
		/* git's words; it writes nothing either */
		plan = error_set(E_UNSUPPORTED, "cannot use split index with "
				 "a sparse index");
	if (plan < 0) {
		ret = plan;
	} else if (plan) {
		/* never collapsed: git's sparse index is not split */
		ret = write_split(idx, repo, lk->fd, lk->lock_path, &o,
				  &version, plan, &whole);
	} else {
		/* in a sparse index, directories outside the cone collapsed */
		ret = sparse_index_view_begin(idx, repo, &view);
		if (!ret)
			ret = write_versioned(idx, repo, lk->fd, lk->lock_path,
					      &o, &version);
		sparse_index_view_end(idx, &view);
	}
	if (!ret)
		ret = lockfile_close(lk, repo_sync_mode(&repo->settings,
							FSYNC_INDEX));
	if (!ret && stat(lk->lock_path, &st) < 0)
		ret = error_errno(errno, "unable to stat '%s'", lk->lock_path);
	if (ret < 0) {
		lockfile_rollback(lk);
		return ret;
	}
	trace_step("index written");
	ret = lockfile_commit(lk, SYNC_NONE);
	if (ret < 0)
		return ret;
	/* a shared index used again is freshened, as git does */
	if (plan == 1 && !whole && !oid_is_null(&idx->split->base_oid)) {
		char hex[HASH_MAX_HEXSZ + 1];
		struct strbuf shared = STRBUF_INIT;

		strbuf_addf(&shared, "%s/sharedindex.%s", repo->gitdir,
			    oid_to_hex_r(hex, &idx->split->base_oid));
		if (split_index_freshen(shared.buf) < 0)
			diag_emit(DIAG_WARNING, "could not freshen shared "
				  "index '%s'", shared.buf);
		strbuf_release(&shared);
	}
	idx->write_whole = 0;
	idx->timestamp = st.st_mtim;
	idx->version = version;
	idx->read_extended = o.extended;
	if (!idx->keep_untracked)
		untracked_drop(idx);
	idx->read_untr = idx->untracked != NULL;
	idx->read_fsmn = 0;
	idx->exists = 1;
	idx->changed = 0;
	trace_phase("write index", start);
	return 0;
}
