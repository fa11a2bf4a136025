/*
 * untracked-cache: git's UNTR extension, read, invalidated and written
 * back (see untracked-cache.h).
 */
#include "untracked-cache.h"

#include <string.h>
#include <sys/utsname.h>

#include "ewah.h"
#include "util.h"
#include "varint.h"

/* ---- reading ---- */

struct reader {
	const unsigned char *p, *end;	/* end: before the closing NUL */
	struct uc_dir **blocks;		/* in file order */
	size_t nr, want;
};

/* A NUL-terminated string before end, or NULL. */
static const char *
take_string(struct reader *r)
{
	const unsigned char *nul = memchr(r->p, '\0', r->end - r->p);
	const char *s = (const char *)r->p;

	if (!nul)
		return NULL;
	r->p = nul + 1;
	return s;
}

static void
dir_free(struct uc_dir *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->dirs_nr; i++)
		dir_free(d->dirs[i]);
	for (size_t i = 0; i < d->untracked_nr; i++)
		free(d->untracked[i]);
	free(d->untracked);
	free(d->dirs);
	free(d->name);
	free(d);
}

/* One directory block and, depth first, those below it. */
static int
read_dir(struct reader *r, struct uc_dir **out, unsigned depth)
{
	uint64_t untracked, dirs;
	const char *name;
	struct uc_dir *d;

	if (depth > 4096 || r->nr >= r->want ||
	    varint_decode(&r->p, r->end, &untracked) ||
	    varint_decode(&r->p, r->end, &dirs) ||
	    untracked > (uint64_t)(r->end - r->p) ||
	    dirs > r->want - r->nr - 1 || !(name = take_string(r)))
		return -1;
	*out = d = xcalloc(1, sizeof(*d));
	d->name = xstrdup(name);
	r->blocks[r->nr++] = d;
	if (untracked)
		d->untracked = xcalloc(untracked, sizeof(*d->untracked));
	for (; d->untracked_nr < untracked; d->untracked_nr++) {
		const char *s = take_string(r);

		if (!s)
			return -1;
		d->untracked[d->untracked_nr] = xstrdup(s);
	}
	if (dirs)
		d->dirs = xcalloc(dirs, sizeof(*d->dirs));
	for (; d->dirs_nr < dirs; d->dirs_nr++)
		if (read_dir(r, &d->dirs[d->dirs_nr], depth + 1)) {
			d->dirs_nr++;	/* what it made is freed with d */
			return -1;
		}
	return 0;
}

static int
set_check_only(size_t pos, void *ctx)
{
	struct reader *r = ctx;

	if (pos >= r->nr)
		return -1;
	r->blocks[pos]->check_only = 1;
	return 0;
}

static int
read_stat(size_t pos, void *ctx)
{
	struct reader *r = ctx;

	if (pos >= r->nr || r->end - r->p < UC_STAT_SIZE)
		return -1;
	memcpy(r->blocks[pos]->stat, r->p, UC_STAT_SIZE);
	r->blocks[pos]->valid = 1;
	r->p += UC_STAT_SIZE;
	return 0;
}

static int
read_oid(size_t pos, void *ctx)
{
	struct reader *r = ctx;

	if (pos >= r->nr || r->end - r->p < HASH_RAWSZ)
		return -1;
	memcpy(r->blocks[pos]->exclude_oid, r->p, HASH_RAWSZ);
	r->p += HASH_RAWSZ;
	return 0;
}

/* The directory blocks and what follows them; 0 or -1. */
static int
read_blocks(struct untracked_cache *uc, struct reader *r)
{
	struct ewah valid = { 0 }, check_only = { 0 }, hash_valid = { 0 };
	long n;
	int ret = -1;

	r->blocks = xcalloc(r->want, sizeof(*r->blocks));
	if (read_dir(r, &uc->root, 0) || r->nr != r->want)
		goto out;
	if ((n = ewah_decode(&valid, r->p, r->end - r->p, NULL, 0)) < 0)
		goto out;
	r->p += n;
	if ((n = ewah_decode(&check_only, r->p, r->end - r->p, NULL, 0)) < 0)
		goto out;
	r->p += n;
	if ((n = ewah_decode(&hash_valid, r->p, r->end - r->p, NULL, 0)) < 0)
		goto out;
	r->p += n;
	if (ewah_each_bit(&check_only, set_check_only, r) ||
	    ewah_each_bit(&valid, read_stat, r) ||
	    ewah_each_bit(&hash_valid, read_oid, r))
		goto out;
	ret = 0;
out:
	free(r->blocks);
	ewah_release(&valid);
	ewah_release(&check_only);
	ewah_release(&hash_valid);
	return ret;
}

struct untracked_cache *
untracked_cache_parse(const unsigned char *data, size_t len)
{
	struct untracked_cache *uc;
	struct reader r = { data, data + len, NULL, 0, 0 };
	const size_t fixed = 2 * UC_STAT_SIZE + 4 + 2 * HASH_RAWSZ;
	uint64_t ident_len, blocks;
	const char *per_dir;

	/* git: the last byte must be a NUL, and is no part of the rest */
	if (len <= 1 || data[len - 1])
		return NULL;
	r.end--;
	if (varint_decode(&r.p, r.end, &ident_len) ||
	    ident_len > (uint64_t)(r.end - r.p) ||
	    (size_t)(r.end - r.p) - ident_len < fixed + 1)
		return NULL;
	uc = xcalloc(1, sizeof(*uc));
	strbuf_add(&uc->ident, r.p, ident_len);
	r.p += ident_len;
	memcpy(uc->info_exclude_stat, r.p, UC_STAT_SIZE);
	memcpy(uc->excludes_file_stat, r.p + UC_STAT_SIZE, UC_STAT_SIZE);
	uc->dir_flags = get_be32(r.p + 2 * UC_STAT_SIZE);
	r.p += 2 * UC_STAT_SIZE + 4;
	memcpy(uc->info_exclude_oid, r.p, HASH_RAWSZ);
	memcpy(uc->excludes_file_oid, r.p + HASH_RAWSZ, HASH_RAWSZ);
	r.p += 2 * HASH_RAWSZ;
	/* the closing NUL ends the name if nothing before it does */
	per_dir = (const char *)r.p;
	uc->exclude_per_dir = xstrdup(per_dir);
	r.p += strlen(per_dir) + 1;
	if (r.p >= r.end)
		return r.p == r.end ? uc : (untracked_cache_free(uc), NULL);
	if (varint_decode(&r.p, r.end + 1, &blocks))
		goto bad;
	if (r.p > r.end || !blocks)
		return r.p == r.end ? uc : (untracked_cache_free(uc), NULL);
	/* each block takes at least three bytes */
	if (blocks > (uint64_t)(r.end - r.p) / 3 + 1)
		goto bad;
	r.want = blocks;
	if (read_blocks(uc, &r) || r.p != r.end)
		goto bad;
	return uc;
bad:
	untracked_cache_free(uc);
	return NULL;
}

/* ---- writing ---- */

struct writer {
	struct strbuf blocks, stats, oids;
	struct ewah valid, check_only, hash_valid;
	size_t nr;
};

static int
oid_is_zero(const unsigned char *oid)
{
	static const unsigned char zero[HASH_MAX_RAWSZ];

	return !memcmp(oid, zero, HASH_RAWSZ);
}

static void
write_dir(struct writer *w, const struct uc_dir *d)
{
	size_t k = w->nr++;
	/* git keeps neither untracked names nor check_only when invalid */
	size_t untracked = d->valid ? d->untracked_nr : 0;

	if (d->valid && d->check_only)
		ewah_set(&w->check_only, k);
	if (d->valid) {
		ewah_set(&w->valid, k);
		strbuf_add(&w->stats, d->stat, UC_STAT_SIZE);
	}
	if (!oid_is_zero(d->exclude_oid)) {
		ewah_set(&w->hash_valid, k);
		strbuf_add(&w->oids, d->exclude_oid, HASH_RAWSZ);
	}
	varint_encode(&w->blocks, untracked);
	varint_encode(&w->blocks, d->dirs_nr);
	strbuf_add(&w->blocks, d->name, strlen(d->name) + 1);
	for (size_t i = 0; i < untracked; i++)
		strbuf_add(&w->blocks, d->untracked[i],
			   strlen(d->untracked[i]) + 1);
	for (size_t i = 0; i < d->dirs_nr; i++)
		write_dir(w, d->dirs[i]);
}

void
untracked_cache_encode(struct strbuf *out, const struct untracked_cache *uc)
{
	struct writer w = { 0 };
	unsigned char flags[4];

	varint_encode(out, uc->ident.len);
	strbuf_add(out, uc->ident.buf, uc->ident.len);
	strbuf_add(out, uc->info_exclude_stat, UC_STAT_SIZE);
	strbuf_add(out, uc->excludes_file_stat, UC_STAT_SIZE);
	put_be32(flags, uc->dir_flags);
	strbuf_add(out, flags, 4);
	strbuf_add(out, uc->info_exclude_oid, HASH_RAWSZ);
	strbuf_add(out, uc->excludes_file_oid, HASH_RAWSZ);
	strbuf_add(out, uc->exclude_per_dir, strlen(uc->exclude_per_dir) + 1);
	if (!uc->root) {
		varint_encode(out, 0);	/* also the closing NUL */
		return;
	}
	strbuf_init(&w.blocks, 0);
	strbuf_init(&w.stats, 0);
	strbuf_init(&w.oids, 0);
	ewah_init(&w.valid);
	ewah_init(&w.check_only);
	ewah_init(&w.hash_valid);
	write_dir(&w, uc->root);
	varint_encode(out, w.nr);
	strbuf_add(out, w.blocks.buf, w.blocks.len);
	ewah_encode(out, &w.valid);
	ewah_encode(out, &w.check_only);
	ewah_encode(out, &w.hash_valid);
	strbuf_add(out, w.stats.buf, w.stats.len);
	strbuf_add(out, w.oids.buf, w.oids.len);
	strbuf_addch(out, '\0');
	ewah_release(&w.valid);
	ewah_release(&w.check_only);
	ewah_release(&w.hash_valid);
	strbuf_release(&w.blocks);
	strbuf_release(&w.stats);
	strbuf_release(&w.oids);
}

/* ---- making, matching, invalidating ---- */

static void
ident_for(struct strbuf *out, const char *worktree)
{
	struct utsname uts;

	strbuf_addf(out, "Location %s, system %s", worktree,
		    uname(&uts) < 0 ? "unknown" : uts.sysname);
}

struct untracked_cache *
untracked_cache_new(const char *worktree, int show_all)
{
	struct untracked_cache *uc = xcalloc(1, sizeof(*uc));

	ident_for(&uc->ident, worktree);
	strbuf_addch(&uc->ident, '\0');
	uc->exclude_per_dir = xstrdup(".gitignore");
	uc->dir_flags = show_all ? 0 : UC_DIR_SHOW_OTHER_DIRECTORIES |
				       UC_DIR_HIDE_EMPTY_DIRECTORIES;
	return uc;
}

int
untracked_cache_ident_matches(const struct untracked_cache *uc,
			      const char *worktree)
{
	struct strbuf want = STRBUF_INIT;
	/* git compares its first string, up to the first NUL */
	size_t first = strnlen(uc->ident.buf, uc->ident.len);
	int ret;

	ident_for(&want, worktree);
	ret = first == want.len && !memcmp(uc->ident.buf, want.buf, first);
	strbuf_release(&want);
	return ret;
}

/* The subdirectory of d named name[0..len), or NULL (git's search). */
static struct uc_dir *
lookup(const struct uc_dir *d, const char *name, size_t len)
{
	size_t lo = 0, hi = d->dirs_nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *n = d->dirs[mid]->name;
		int cmp = strncmp(name, n, len);

		if (!cmp && strlen(n) > len)
			cmp = -1;
		if (!cmp)
			return d->dirs[mid];
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static void
invalidate_dir(struct uc_dir *d)
{
	d->valid = 0;
	for (size_t i = 0; i < d->untracked_nr; i++)
		free(d->untracked[i]);
	d->untracked_nr = 0;
}

/*
 * git walks from the root to the directory holding path, making the
 * directories it lacks (which it never writes: they are not marked for
 * its walk), invalidates that directory and, when untracked
 * directories are shown whole, every one above it too.
 */
void
untracked_cache_invalidate(struct untracked_cache *uc, const char *path,
			   size_t len)
{
	int all = !!(uc->dir_flags & UC_DIR_SHOW_OTHER_DIRECTORIES);
	struct uc_dir *d = uc->root;
	const char *end = path + len, *slash;

	while (d) {
		slash = memchr(path, '/', end - path);
		if (!slash) {
			invalidate_dir(d);
			return;
		}
		if (all)
			invalidate_dir(d);
		d = lookup(d, path, slash - path);
		path = slash + 1;
	}
}

void
untracked_cache_free(struct untracked_cache *uc)
{
	if (!uc)
		return;
	strbuf_release(&uc->ident);
	free(uc->exclude_per_dir);
	dir_free(uc->root);
	free(uc);
}
