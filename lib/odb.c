/*
 * odb: loose objects.
 *
 * On disk:  objects/<2 hex>/<38 hex>, a zlib stream (RFC 1950) of
 *           "<type> SP <decimal size> NUL <payload>"; the id is the SHA-1
 *           of the uncompressed bytes.
 *
 * Invariants: nothing is ever written under a final object name except by
 * an atomic no-replace rename or link of a complete, closed temp file; a
 * failed write removes its temp file.  An existing object is never
 * rewritten.
 */
#include "odb.h"

#include <dirent.h>
#include <fcntl.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "error.h"
#include "perm.h"
#include "quote.h"
#include "replace.h"
#include "trace.h"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif
#define STREAM_OUT_CHUNK (256 * 1024)
/* zlib cannot expand data by more than about 1032:1 */
#define MAX_INFLATE_RATIO 1032

/* ---- sources: the repository's object directory and alternates ---- */

#define MAX_ALTERNATE_DEPTH 5

static struct odb_source *
add_source(struct odb *odb, const char *objdir)
{
	struct odb_source *src;

	odb->sources = xrealloc(odb->sources, (odb->nr_sources + 1) *
				sizeof(*odb->sources));
	src = &odb->sources[odb->nr_sources++];
	memset(src, 0, sizeof(*src));
	src->objdir = xstrdup(objdir);
	return src;
}

static void load_alternates(struct odb *odb, const char *objdir, int depth);

static void
add_alternate(struct odb *odb, const char *dir, const char *relative_to,
	      int depth)
{
	struct strbuf path = STRBUF_INIT;
	char *real;

	if (dir[0] != '/' && relative_to)
		strbuf_addf(&path, "%s/", relative_to);
	strbuf_addstr(&path, dir);
	real = realpath(path.buf, NULL);
	if (!real) {
		diag_emit(DIAG_ERROR, "object directory %s does not exist; "
			  "check .git/objects/info/alternates", path.buf);
		strbuf_release(&path);
		return;
	}
	for (size_t i = 0; i < odb->nr_sources; i++) {
		char *known = realpath(odb->sources[i].objdir, NULL);
		int same = known && !strcmp(known, real);

		free(known);
		if (same)
			goto out;	/* already there (or a loop) */
	}
	add_source(odb, real);
	load_alternates(odb, real, depth + 1);
out:
	free(real);
	strbuf_release(&path);
}

static void
load_alternates(struct odb *odb, const char *objdir, int depth)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT, uq = STRBUF_INIT;
	const char *p;

	if (depth > MAX_ALTERNATE_DEPTH) {
		diag_emit(DIAG_ERROR, "%s: ignoring alternate object stores, "
			  "nesting too deep", objdir);
		return;
	}
	strbuf_addf(&path, "%s/info/alternates", objdir);
	if (strbuf_read_file(&buf, path.buf) < 0) {
		error_clear();
		goto out;
	}
	for (p = buf.buf; *p;) {
		const char *nl = strchr(p, '\n');
		char *line = xmemdupz(p, nl ? (size_t)(nl - p) : strlen(p));
		const char *dir = line;

		if (line[0] == '"' && !unquote_c_style(&uq, line, NULL))
			dir = uq.buf;
		if (*dir && *dir != '#')
			add_alternate(odb, dir, objdir, depth);
		free(line);
		p = nl ? nl + 1 : p + strlen(p);
	}
out:
	strbuf_release(&path);
	strbuf_release(&buf);
	strbuf_release(&uq);
}

static int
cmp_pack_mtime(const void *a, const void *b)
{
	const struct pack *x = *(struct pack *const *)a;
	const struct pack *y = *(struct pack *const *)b;

	/* newest first, as git searches */
	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec > y->mtime.tv_sec ? -1 : 1;
	return strcmp(x->idx_path, y->idx_path);
}

/* (Re)read one source's pack directory, keeping packs already open. */
static int
scan_packs(struct odb_source *src)
{
	struct strbuf dirpath = STRBUF_INIT, path = STRBUF_INIT;
	struct stat st;
	struct dirent *de;
	DIR *dir;
	int changed = 0;

	strbuf_addf(&dirpath, "%s/pack", src->objdir);
	if (stat(dirpath.buf, &st) < 0) {
		__atomic_store_n(&src->packs_loaded, 1, __ATOMIC_RELEASE);
		goto out;
	}
	if (src->packs_loaded &&
	    st.st_mtim.tv_sec == src->pack_dir_mtime.tv_sec &&
	    st.st_mtim.tv_nsec == src->pack_dir_mtime.tv_nsec)
		goto out;
	src->pack_dir_mtime = st.st_mtim;
	/*
	 * Packs deleted meanwhile (a repack) leave the list; another thread
	 * may still be reading one, so it stays open (and mapped) aside.
	 */
	for (size_t k = 0; k < src->nr_packs;) {
		if (access(src->packs[k]->idx_path, F_OK) ||
		    access(src->packs[k]->pack_path, F_OK)) {
			ALLOC_GROW(src->retired, src->nr_retired + 1,
				   src->alloc_retired);
			src->retired[src->nr_retired++] = src->packs[k];
			memmove(src->packs + k, src->packs + k + 1,
				(src->nr_packs - k - 1) * sizeof(*src->packs));
			src->nr_packs--;
			changed = 1;
			continue;
		}
		k++;
	}
	dir = opendir(dirpath.buf);
	while (dir && (de = readdir(dir))) {
		size_t len = strlen(de->d_name), k;
		struct pack *p;

		if (len < 5 || strcmp(de->d_name + len - 4, ".idx"))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dirpath.buf, de->d_name);
		for (k = 0; k < src->nr_packs; k++)
			if (!strcmp(src->packs[k]->idx_path, path.buf))
				break;
		if (k < src->nr_packs)
			continue;
		/* an .idx without its .pack is garbage, not a pack */
		strbuf_setlen(&path, path.len - 4);
		strbuf_addstr(&path, ".pack");
		if (stat(path.buf, &st) < 0)
			continue;
		strbuf_setlen(&path, path.len - 5);
		strbuf_addstr(&path, ".idx");
		if (pack_open(&p, path.buf) < 0) {
			if (!src->quiet_bad_packs)
				diag_emit(DIAG_WARNING, "%s", error_msg());
			error_clear();
			continue;
		}
		p->mtime = st.st_mtim;
		ALLOC_GROW(src->packs, src->nr_packs + 1, src->alloc_packs);
		src->packs[src->nr_packs++] = p;
		changed = 1;
	}
	if (dir)
		closedir(dir);
	if (changed)
		sort_array(src->packs, src->nr_packs, sizeof(*src->packs),
		      cmp_pack_mtime);
	__atomic_store_n(&src->packs_loaded, 1, __ATOMIC_RELEASE);
out:
	strbuf_release(&dirpath);
	strbuf_release(&path);
	return changed;
}

void
odb_prepare_packs(struct odb *odb)
{
	int todo = 0;

	for (size_t i = 0; i < odb->nr_sources; i++)
		if (!__atomic_load_n(&odb->sources[i].packs_loaded,
				     __ATOMIC_ACQUIRE))
			todo = 1;
	if (!todo)
		return;
	pthread_rwlock_wrlock(&odb->packs_lock);
	for (size_t i = 0; i < odb->nr_sources; i++)
		if (!odb->sources[i].packs_loaded)
			scan_packs(&odb->sources[i]);
	pthread_rwlock_unlock(&odb->packs_lock);
}

void
odb_prepare_threads(struct odb *odb)
{
	odb_prepare_packs(odb);
	pthread_rwlock_rdlock(&odb->packs_lock);
	for (size_t i = 0; i < odb->nr_sources; i++)
		for (size_t k = 0; k < odb->sources[i].nr_packs; k++)
			if (pack_map(odb->sources[i].packs[k]) < 0)
				error_clear();	/* reported when read */
	pthread_rwlock_unlock(&odb->packs_lock);
}

void
odb_trim_packs(struct odb *odb)
{
	pthread_rwlock_rdlock(&odb->packs_lock);
	for (size_t i = 0; i < odb->nr_sources; i++)
		for (size_t k = 0; k < odb->sources[i].nr_packs; k++)
			pack_trim(odb->sources[i].packs[k]);
	pthread_rwlock_unlock(&odb->packs_lock);
}

int
odb_reprepare(struct odb *odb)
{
	int changed = 0;

	pthread_rwlock_wrlock(&odb->packs_lock);
	for (size_t i = 0; i < odb->nr_sources; i++)
		changed |= scan_packs(&odb->sources[i]);
	pthread_rwlock_unlock(&odb->packs_lock);
	return changed;
}

/*
 * Search src's packs for oid, the one that had the last hit first: a
 * walk reads trees from one pack and blobs from another, and a miss in a
 * big pack's index costs a dozen cache misses.
 */
static int
source_find(struct odb_source *src, const struct object_id *oid,
	    struct pack **p, uint64_t *offset)
{
	size_t first = __atomic_load_n(&src->hit, __ATOMIC_RELAXED);

	if (first >= src->nr_packs)
		first = 0;
	for (size_t i = 0; i < src->nr_packs; i++) {
		size_t k = !i ? first : i <= first ? i - 1 : i;
		uint32_t n;
		uint64_t off;

		if (!pack_find(src->packs[k], oid, &n))
			continue;
		off = pack_nth_offset(src->packs[k], n);
		if (!off || pack_is_bad(src->packs[k], off))
			continue;
		if (k != first)
			__atomic_store_n(&src->hit, k, __ATOMIC_RELAXED);
		*p = src->packs[k];
		*offset = off;
		return 1;
	}
	return 0;
}

int
odb_find_packed(struct odb *odb, const struct object_id *oid,
		struct pack **p, uint64_t *offset)
{
	int found = 0;

	odb_prepare_packs(odb);
	pthread_rwlock_rdlock(&odb->packs_lock);
	for (size_t i = 0; i < odb->nr_sources && !found; i++)
		found = source_find(&odb->sources[i], oid, p, offset);
	pthread_rwlock_unlock(&odb->packs_lock);
	return found;
}

/* pack_env's find: a reference delta's base, anywhere */
static int
env_find(void *ctx, const struct object_id *oid, struct pack **p,
	 uint64_t *off, int *type, unsigned char **data, size_t *size)
{
	struct odb *odb = ctx;
	struct odb_object obj;
	enum object_type t;
	size_t sz;
	int ret;

	if (odb_find_packed(odb, oid, p, off))
		return 1;
	if (!data) {
		ret = odb_read_info(&t, &sz, NULL, 0, odb, oid, 0);
		if (ret < 0)
			return ret;
		*type = t;
		return 0;
	}
	ret = odb_read_loose(&obj, odb, oid, 0);
	if (ret < 0)
		return ret;
	*type = obj.type;
	*data = obj.data;
	*size = obj.size;
	return 0;
}

static int
cmp_suffix(const void *a, const void *b);

static int
has_loose(struct odb *odb, const struct object_id *oid)
{
	struct strbuf path = STRBUF_INIT;
	int found = 0;

	/* a listing, when there is one, answers "yes" without a probe */
	if (odb->listed) {
		const struct odb_fanout_list *l =
			&odb->sources[0].lists[oid->hash[0]];

		if (search_array(oid->hash + 1, l->suffix, l->nr,
			    sizeof(*l->suffix), cmp_suffix))
			return 1;
	}

	for (size_t i = 0; i < odb->nr_sources && !found; i++) {
		odb_loose_path_in(&path, odb->sources[i].objdir, oid);
		found = !access(path.buf, F_OK);
	}
	strbuf_release(&path);
	return found;
}

/*
 * A copy of src's pack list, taken under the lock: the packs themselves
 * stay valid until odb_release() (deleted ones are retired, not closed),
 * so callers may then walk it while others rescan.  Free the array.
 */
static struct pack **
packs_snapshot(struct odb *odb, const struct odb_source *src, size_t *nr)
{
	struct pack **copy;

	pthread_rwlock_rdlock(&odb->packs_lock);
	*nr = src->nr_packs;
	copy = xmalloc(st_mult(*nr + 1, sizeof(*copy)));
	if (*nr)
		memcpy(copy, src->packs, *nr * sizeof(*copy));
	pthread_rwlock_unlock(&odb->packs_lock);
	return copy;
}

int
odb_for_each_object(struct odb *odb, int local_only, odb_oid_fn fn,
		    void *ctx)
{
	size_t nsrc = local_only ? 1 : odb->nr_sources;
	struct strbuf path = STRBUF_INIT;
	int ret = 0;

	odb_prepare_packs(odb);
	for (size_t s = 0; s < nsrc && !ret; s++) {
		struct odb_source *src = &odb->sources[s];

		for (int i = 0; i < 256 && !ret; i++) {
			struct dirent *de;
			DIR *dir;

			strbuf_reset(&path);
			strbuf_addf(&path, "%s/%02x", src->objdir, i);
			dir = opendir(path.buf);
			while (dir && !ret && (de = readdir(dir))) {
				struct object_id oid;

				if (!loose_name_to_oid(&oid, i, de->d_name))
					ret = fn(&oid, ctx);
			}
			if (dir)
				closedir(dir);
		}
		{
			size_t nr;
			struct pack **packs = packs_snapshot(odb, src, &nr);

			for (size_t k = 0; k < nr && !ret; k++) {
				struct pack *p = packs[k];

				for (uint32_t n = 0; n < p->nr && !ret; n++) {
					struct object_id oid;

					memcpy(oid.hash, pack_nth_id(p, n),
					       HASH_RAWSZ);
					ret = fn(&oid, ctx);
				}
			}
			free(packs);
		}
	}
	strbuf_release(&path);
	return ret;
}

static void
note_match(const struct object_id *oid, struct object_id *out, size_t max,
	   size_t *count)
{
	for (size_t i = 0; i < *count; i++)
		if (oideq(&out[i], oid))
			return;
	if (*count < max)
		oidcpy(&out[(*count)++], oid);
}

static void list_fanout(struct odb_source *src, int idx);
static int cmp_suffix(const void *a, const void *b);

/* Does suffix (an id without its first byte) start with the prefix? */
static int
suffix_matches(const unsigned char *suffix, const unsigned char *bytes,
	       size_t len)
{
	size_t full = (len - 2) / 2;

	if (memcmp(suffix, bytes + 1, full))
		return 0;
	return !((len - 2) & 1) || (suffix[full] >> 4) == (bytes[1 + full] >> 4);
}

size_t
odb_find_prefix(struct odb *odb, const char *hex, size_t len,
		struct object_id *out, size_t max)
{
	unsigned char bytes[HASH_MAX_RAWSZ] = { 0 };
	size_t count = 0;

	for (size_t i = 0; i < len; i++)
		bytes[i / 2] |= hexval((unsigned char)hex[i]) << (i & 1 ? 0 : 4);
	odb_prepare_packs(odb);
	for (size_t s = 0; s < odb->nr_sources && count < max; s++) {
		struct odb_source *src = &odb->sources[s];
		const struct odb_fanout_list *l;
		struct pack **packs;
		size_t nr, lo, hi;

		/* the fan-out directory, listed once for every lookup */
		if (!src->lists)
			src->lists = xcalloc(256, sizeof(*src->lists));
		if (!src->lists[bytes[0]].loaded)
			list_fanout(src, bytes[0]);
		l = &src->lists[bytes[0]];
		/* the first suffix at or after the prefix (zero-filled) */
		lo = 0;
		hi = l->nr;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (cmp_suffix(l->suffix[mid], bytes + 1) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < l->nr && count < max &&
		       suffix_matches(l->suffix[lo], bytes, len); lo++) {
			struct object_id oid;

			oid.hash[0] = bytes[0];
			memcpy(oid.hash + 1, l->suffix[lo], HASH_RAWSZ - 1);
			note_match(&oid, out, max, &count);
		}
		packs = packs_snapshot(odb, src, &nr);
		for (size_t k = 0; k < nr && count < max; k++) {
			uint32_t first, last;

			pack_find_prefix(packs[k], bytes, len, &first, &last);
			for (uint32_t n = first; n < last && count < max; n++) {
				struct object_id oid;

				memcpy(oid.hash, pack_nth_id(packs[k], n),
				       HASH_RAWSZ);
				note_match(&oid, out, max, &count);
			}
		}
		free(packs);
	}
	return count;
}

void
odb_writer_init(struct odb_writer *w, int level)
{
	memset(w, 0, sizeof(*w));
	w->level = level;
	strbuf_init(&w->tmp, 0);
	w->rnd = (uint64_t)getpid() << 32 ^ (uint64_t)trace_now() ^
		 (uintptr_t)w;
}

void
odb_writer_release(struct odb_writer *w)
{
	if (w->zs_ready)
		deflateEnd(&w->zs);
	free(w->out);
	read_buf_release(&w->rb);
	strbuf_release(&w->tmp);
	memset(w, 0, sizeof(*w));
}

static void
deflate_begin(struct odb_writer *w)
{
	if (!w->zs_ready) {
		memset(&w->zs, 0, sizeof(w->zs));
		if (deflateInit(&w->zs, w->level) != Z_OK)
			die_oom(sizeof(w->zs));
		w->zs_ready = 1;
	} else {
		deflateReset(&w->zs);
	}
}

int
odb_init(struct odb *odb, const char *objdir,
	 const struct repo_settings *settings)
{
	memset(odb, 0, sizeof(*odb));
	pthread_mutex_init(&odb->pending_lock, NULL);
	pthread_rwlock_init(&odb->packs_lock, NULL);
	odb->objdir = xstrdup(objdir);
	add_source(odb, objdir);
	load_alternates(odb, objdir, 0);
	{
		/* GIT_ALTERNATE_OBJECT_DIRECTORIES: colon-separated */
		const char *env = getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES");

		while (env && *env) {
			const char *colon = strchr(env, ':');
			char *dir = xmemdupz(env, colon ? (size_t)(colon - env) :
					     strlen(env));

			if (*dir)
				add_alternate(odb, dir, NULL, 0);
			free(dir);
			env = colon ? colon + 1 : NULL;
		}
	}
	odb->env.ctx = odb;
	odb->env.find = env_find;
	odb->level = settings ? settings->loose_level : Z_BEST_SPEED;
	odb->fsync = settings && (settings->fsync & FSYNC_LOOSE_OBJECT);
	odb->fsync_method = settings ? settings->fsync_method :
		FSYNC_METHOD_FSYNC;
	odb_writer_init(&odb->writer, odb->level);
	return 0;
}

void
odb_release(struct odb *odb)
{
	if (odb->pending_nr)
		odb_flush(odb);
	free(odb->pending);
	pthread_mutex_destroy(&odb->pending_lock);
	pthread_rwlock_destroy(&odb->packs_lock);
	odb_writer_release(&odb->writer);
	for (size_t k = 0; k < odb->nr_sources; k++) {
		struct odb_source *src = &odb->sources[k];

		if (src->lists) {
			for (int i = 0; i < 256; i++)
				free(src->lists[i].suffix);
			free(src->lists);
		}
		for (size_t i = 0; i < src->nr_packs; i++)
			pack_close(src->packs[i]);
		for (size_t i = 0; i < src->nr_retired; i++)
			pack_close(src->retired[i]);
		free(src->packs);
		free(src->retired);
		free(src->objdir);
	}
	free(odb->sources);
	free(odb->objdir);
	replace_map_free(odb->replace);
	memset(odb, 0, sizeof(*odb));
}

void
odb_loose_path(struct strbuf *out, const struct odb *odb,
	       const struct object_id *oid)
{
	odb_loose_path_in(out, odb->objdir, oid);
}

void
odb_loose_path_in(struct strbuf *out, const char *objdir,
		  const struct object_id *oid)
{
	char hex[HASH_MAX_HEXSZ + 1];

	oid_to_hex_r(hex, oid);
	strbuf_reset(out);
	strbuf_addstr(out, objdir);
	strbuf_addch(out, '/');
	strbuf_add(out, hex, 2);
	strbuf_addch(out, '/');
	strbuf_add(out, hex + 2, HASH_HEXSZ - 2);
}

/*
 * Is the object there?  Freshens it if so.  1 present, 0 absent.
 */
static int
freshen(struct strbuf *path)
{
	if (!utimensat(AT_FDCWD, path->buf, NULL, 0))
		return 1;
	if (errno == ENOENT || errno == ENOTDIR)
		return 0;
	/* cannot touch it (read-only store): still, is it there? */
	return !access(path->buf, F_OK);
}

int
odb_has(struct odb *odb, const struct object_id *oid)
{
	struct pack *p;
	uint64_t off;

	if (oideq(oid, &empty_tree_oid))
		return 1;
	if (odb_find_packed(odb, oid, &p, &off) || has_loose(odb, oid))
		return 1;
	/* packed by another process meanwhile? */
	return odb_reprepare(odb) && odb_find_packed(odb, oid, &p, &off);
}

#define FANOUT_LIST_AFTER 4	/* probes of one directory before listing it */

static int
cmp_suffix(const void *a, const void *b)
{
	return memcmp(a, b, HASH_RAWSZ - 1);
}

static void
list_fanout(struct odb_source *src, int idx)
{
	struct odb_fanout_list *l = &src->lists[idx];
	struct strbuf path = STRBUF_INIT;
	size_t alloc = 0;
	struct dirent *de;
	DIR *dir;

	l->loaded = 1;
	strbuf_addf(&path, "%s/%02x", src->objdir, idx);
	dir = opendir(path.buf);
	while (dir && (de = readdir(dir))) {
		struct object_id oid;

		if (loose_name_to_oid(&oid, idx, de->d_name))
			continue;
		ALLOC_GROW(l->suffix, l->nr + 1, alloc);
		memcpy(l->suffix[l->nr++], oid.hash + 1, HASH_RAWSZ - 1);
	}
	if (dir)
		closedir(dir);
	sort_array(l->suffix, l->nr, sizeof(*l->suffix), cmp_suffix);
	strbuf_release(&path);
}

void
odb_list_loose(struct odb *odb)
{
	struct odb_source *src = &odb->sources[0];

	if (odb->listed)
		return;
	if (!src->lists)
		src->lists = xcalloc(256, sizeof(*src->lists));
	for (int i = 0; i < 256; i++)
		if (!src->lists[i].loaded)
			list_fanout(src, i);
	odb->listed = 1;
}

int
odb_has_cached(struct odb *odb, const struct object_id *oid)
{
	struct strbuf path = STRBUF_INIT;
	int idx = oid->hash[0], found = 0;
	struct pack *p;
	uint64_t off;

	if (oideq(oid, &empty_tree_oid) || odb_find_packed(odb, oid, &p, &off))
		return 1;
	for (size_t i = 0; i < odb->nr_sources && !found; i++) {
		struct odb_source *src = &odb->sources[i];
		struct odb_fanout_list *l;

		if (!src->lists)
			src->lists = xcalloc(256, sizeof(*src->lists));
		l = &src->lists[idx];
		if (!l->loaded && ++l->probes > FANOUT_LIST_AFTER)
			list_fanout(src, idx);
		if (l->loaded && search_array(oid->hash + 1, l->suffix, l->nr,
					 sizeof(*l->suffix), cmp_suffix)) {
			found = 1;
			break;
		}
		/* not listed (yet, or stored since): ask the file system */
		odb_loose_path_in(&path, src->objdir, oid);
		found = !access(path.buf, F_OK);
	}
	strbuf_release(&path);
	return found;
}

/*
 * Is oid stored already?  A packed copy freshens its pack (once), a loose
 * one in our directory its file, as git does so that a prune keeps what
 * was just written.  path is scratch.
 */
static int
stored(struct odb *odb, const struct object_id *oid, struct strbuf *path)
{
	struct pack *p;
	uint64_t off;

	if (odb_find_packed(odb, oid, &p, &off)) {
		if (!__atomic_exchange_n(&p->freshened, 1, __ATOMIC_RELAXED))
			utimensat(AT_FDCWD, p->pack_path, NULL, 0);
		return 1;
	}
	odb_loose_path(path, odb, oid);
	if (odb->listed) {
		/* listed: no probe for what the listing did not have */
		const struct odb_fanout_list *l =
			&odb->sources[0].lists[oid->hash[0]];

		if (search_array(oid->hash + 1, l->suffix, l->nr,
			    sizeof(*l->suffix), cmp_suffix) && freshen(path))
			return 1;
	} else if (freshen(path)) {
		return 1;
	}
	for (size_t i = 1; i < odb->nr_sources; i++) {
		odb_loose_path_in(path, odb->sources[i].objdir, oid);
		if (!access(path->buf, F_OK))
			return 1;
	}
	return 0;
}

static void
tmp_name(struct odb_writer *w, const struct odb *odb,
	 const struct object_id *oid)
{
	static const char chars[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	char hex[HASH_MAX_HEXSZ + 1];

	strbuf_reset(&w->tmp);
	if (oid) {
		oid_to_hex_r(hex, oid);
		strbuf_addf(&w->tmp, "%s/%.2s/tmp_obj_", odb->objdir, hex);
	} else {
		/* the id is not known yet: the top of the store */
		strbuf_addf(&w->tmp, "%s/tmp_obj_", odb->objdir);
	}
	for (int i = 0; i < 6; i++) {
		/* splitmix64 step */
		uint64_t z = (w->rnd += 0x9e3779b97f4a7c15ull);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		strbuf_addch(&w->tmp, chars[z % (sizeof(chars) - 1)]);
	}
}

/* The store's path as git names it in messages: relative to the cwd. */
static const char *
display_objdir(const struct odb *odb, struct strbuf *cwd)
{
	size_t len;

	if (strbuf_getcwd(cwd) < 0) {
		error_clear();
		return odb->objdir;
	}
	len = cwd->len;
	if (!strncmp(odb->objdir, cwd->buf, len) && odb->objdir[len] == '/')
		return odb->objdir + len + 1;
	return odb->objdir;
}

static int
no_permission(const struct odb *odb)
{
	struct strbuf cwd = STRBUF_INIT;
	int ret = error_set(E_PERM, "insufficient permission for adding an "
			    "object to repository database %s",
			    display_objdir(odb, &cwd));

	strbuf_release(&cwd);
	return ret;
}

/* Create the temp file for oid; returns the fd or a negative E_*. */
static int
create_tmp(struct odb *odb, struct odb_writer *w,
	   const struct object_id *oid)
{
	int made_dir = 0;

	for (int tries = 0; tries < 100; tries++) {
		int fd;

		tmp_name(w, odb, oid);
		fd = open(w->tmp.buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			  0444);
		if (fd >= 0) {
			/* core.sharedRepository: the object keeps this mode */
			int ret = perm_adjust(w->tmp.buf);

			if (ret < 0) {
				close(fd);
				unlink(w->tmp.buf);
				return ret;
			}
			return fd;
		}
		if (errno == EEXIST)
			continue;
		/*
		 * No fan-out directory yet: make it (another thread or
		 * process may be making it too; EEXIST is fine) and retry,
		 * once — it costs nothing where the directory exists.
		 */
		if (errno == ENOENT && oid && !made_dir) {
			char *slash = strrchr(w->tmp.buf, '/');

			*slash = '\0';
			if (!mkdir(w->tmp.buf, 0777)) {
				int ret = perm_adjust(w->tmp.buf);

				if (ret < 0) {
					*slash = '/';
					return ret;
				}
			} else if (errno != EEXIST) {
				int e = errno;

				*slash = '/';
				if (e == EACCES || e == EPERM || e == EROFS)
					return no_permission(odb);
				return error_errno(e, "unable to create "
						   "directory for %s",
						   oid_to_hex(oid));
			}
			*slash = '/';
			made_dir = 1;
			continue;
		}
		if (errno == EACCES || errno == EPERM || errno == EROFS)
			return no_permission(odb);
		return error_errno(errno, "unable to create temporary file");
	}
	return error_set(E_IO, "unable to create temporary file: too many "
			 "collisions");
}

static int
sync_object(struct odb *odb, int fd, const char *path)
{
	enum sync_mode mode = SYNC_FULL;

	if (!odb->fsync)
		return 0;
	/* batch: start each write-out here, odb_flush() waits for all */
	if (odb->fsync_method != FSYNC_METHOD_FSYNC)
		mode = SYNC_WRITEOUT;
	if (fileio_sync(fd, mode) < 0)
		return error_errno(errno, "unable to fsync '%s'", path);
	return 0;
}

/*
 * Move the temp file tmp to oid's name, never over an existing file.
 * 1 moved, 0 someone else stored it first, or a negative E_*.  The temp
 * file is gone afterwards in every case.
 */
static int
move_into_place(struct odb *odb, const char *tmp, const struct object_id *oid)
{
	struct strbuf final = STRBUF_INIT;
	int ret;

	odb_loose_path(&final, odb, oid);
	if (!syscall(SYS_renameat2, AT_FDCWD, tmp, AT_FDCWD, final.buf,
		     RENAME_NOREPLACE)) {
		ret = 1;
	} else if (errno == EEXIST) {
		ret = 0;
	} else if (errno == EINVAL || errno == ENOSYS) {
		if (!link(tmp, final.buf))
			ret = 1;
		else if (errno == EEXIST)
			ret = 0;
		else if (!rename(tmp, final.buf))
			ret = 1;
		else
			ret = error_errno(errno, "unable to write file %s",
					  final.buf);
	} else {
		ret = error_errno(errno, "unable to write file %s", final.buf);
	}
	if (ret != 1)
		unlink(tmp);
	else if (!access(tmp, F_OK))
		unlink(tmp);	/* the link() path */
	strbuf_release(&final);
	if (ret == 1) {
		trace_count(TC_OBJECTS_WRITTEN, 1);
		trace_step("object finalised");
	}
	return ret;
}

/*
 * Close fd and move the temp file into place — or, with
 * core.fsyncMethod=batch, queue it for odb_flush(), which makes all the
 * data durable with one flush before any name appears.  1 written (or
 * queued), 0 someone else wrote it first, or a negative E_*.  Removes
 * the temp file on failure.
 */
static int
finalize(struct odb *odb, struct odb_writer *w, int fd,
	 const struct object_id *oid)
{
	int ret = sync_object(odb, fd, w->tmp.buf);

	if (close(fd) < 0 && !ret)
		ret = error_errno(errno, "unable to write file %s", w->tmp.buf);
	if (ret < 0) {
		unlink(w->tmp.buf);
		return ret;
	}
	trace_step("temporary object written");
	if (odb->fsync && odb->fsync_method == FSYNC_METHOD_BATCH) {
		struct odb_pending *p;

		pthread_mutex_lock(&odb->pending_lock);
		ALLOC_GROW(odb->pending, odb->pending_nr + 1,
			   odb->pending_alloc);
		p = &odb->pending[odb->pending_nr++];
		oidcpy(&p->oid, oid);
		p->tmp = xstrdup(w->tmp.buf);
		pthread_mutex_unlock(&odb->pending_lock);
		return 1;
	}
	return move_into_place(odb, w->tmp.buf, oid);
}

int
odb_flush(struct odb *odb)
{
	struct strbuf path = STRBUF_INIT;
	int fd, ret = 0;

	if (!odb->pending_nr)
		return 0;
	/*
	 * Every object's write-out was started as it was written; fsync of
	 * any one file makes the file system commit its journal and flush
	 * the disk's cache, after which the names can appear.  The probe
	 * is named tmp_obj_ so a kill leaves only what git ignores.
	 */
	strbuf_addf(&path, "%s/tmp_obj_sync_XXXXXX", odb->objdir);
	fd = mkstemp(path.buf);
	if (fd < 0) {
		ret = error_errno(errno, "unable to create '%s'", path.buf);
	} else {
		if (fsync(fd) < 0)
			ret = error_errno(errno, "unable to fsync '%s'",
					  path.buf);
		close(fd);
		unlink(path.buf);
	}
	strbuf_release(&path);
	for (size_t i = 0; i < odb->pending_nr; i++) {
		struct odb_pending *p = &odb->pending[i];

		if (!ret) {
			int r = move_into_place(odb, p->tmp, &p->oid);

			if (r < 0)
				ret = r;
		} else {
			unlink(p->tmp);
		}
		free(p->tmp);
	}
	odb->pending_nr = 0;
	return ret;
}

static int
write_error(int e, const char *path)
{
	return error_errno(e, "unable to write loose object file %s", path);
}

static int write_buffer_stream(struct odb *odb, struct odb_writer *w,
			       const char *hdr, size_t hlen, const void *data,
			       size_t len, const struct object_id *oid);

int
odb_write(struct odb *odb, struct odb_writer *w, const char *type,
	  const void *data, size_t len, struct object_id *out)
{
	struct odb_hdr hdr;
	struct strbuf path = STRBUF_INIT;
	size_t bound;
	int fd, present, ret;

	odb_hash(out, type, data, len);
	present = stored(odb, out, &path);
	strbuf_release(&path);
	if (present) {
		trace_count(TC_OBJECTS_PRESENT, 1);
		return 0;
	}

	odb_hdr_init(&hdr, type, len);
	deflate_begin(w);
	bound = deflateBound(&w->zs, st_add(hdr.len, len)) + 64;
	if (bound > STREAM_OUT_CHUNK) {
		ret = write_buffer_stream(odb, w, hdr.buf, hdr.len, data, len,
					  out);
		goto out;
	}
	if (bound > w->out_alloc) {
		free(w->out);
		w->out = xmalloc(bound);
		w->out_alloc = bound;
	}
	w->zs.next_out = w->out;
	w->zs.avail_out = bound;
	w->zs.next_in = (unsigned char *)hdr.buf;
	w->zs.avail_in = hdr.len;
	if (deflate(&w->zs, Z_NO_FLUSH) != Z_OK)
		BUG("deflate of an object header failed");
	w->zs.next_in = (unsigned char *)data;
	w->zs.avail_in = len;
	if (deflate(&w->zs, Z_FINISH) != Z_STREAM_END)
		BUG("deflate did not finish within deflateBound");
	trace_count(TC_BYTES_DEFLATED, len);

	fd = create_tmp(odb, w, out);
	if (fd < 0) {
		ret = fd;
		goto out;
	}
	if (write_full(fd, w->out, w->zs.total_out) < 0) {
		int e = errno;

		close(fd);
		unlink(w->tmp.buf);
		ret = write_error(e, w->tmp.buf);
		goto out;
	}
	ret = finalize(odb, w, fd, out);
out:
	odb_hdr_release(&hdr);
	return ret;
}

/* Streaming a big file: hash everything, deflate into the temp file. */
struct stream_state {
	struct odb_writer *w;
	struct hasher *h;
	int fd;			/* temp file, or -1 when only hashing */
	unsigned char *out;	/* STREAM_OUT_CHUNK bytes */
};

static int
stream_deflate(struct stream_state *st, const void *data, size_t len,
	       int flush)
{
	z_stream *zs = &st->w->zs;

	zs->next_in = (unsigned char *)data;
	zs->avail_in = len;
	for (;;) {
		int zret;

		zs->next_out = st->out;
		zs->avail_out = STREAM_OUT_CHUNK;
		zret = deflate(zs, flush);
		if (zret != Z_OK && zret != Z_STREAM_END && zret != Z_BUF_ERROR)
			BUG("deflate failed: %d", zret);
		if (zs->avail_out < STREAM_OUT_CHUNK &&
		    write_full(st->fd, st->out,
			       STREAM_OUT_CHUNK - zs->avail_out) < 0)
			return write_error(errno, st->w->tmp.buf);
		if (flush == Z_FINISH ? zret == Z_STREAM_END :
		    !zs->avail_in && zs->avail_out)
			return 0;
	}
}

/*
 * odb_write() of an object too big for one output buffer: deflate it
 * through STREAM_OUT_CHUNK bytes straight into the temp file, so memory
 * does not grow with the object (the id is known, stored() said no).
 */
static int
write_buffer_stream(struct odb *odb, struct odb_writer *w, const char *hdr,
		    size_t hlen, const void *data, size_t len,
		    const struct object_id *oid)
{
	struct stream_state st = { .w = w, .fd = -1 };
	size_t total = len;
	int ret;

	st.fd = create_tmp(odb, w, oid);
	if (st.fd < 0)
		return st.fd;
	st.out = xmalloc(STREAM_OUT_CHUNK);
	ret = stream_deflate(&st, hdr, hlen, Z_NO_FLUSH);
	while (!ret) {
		/* zlib counts input in unsigned int */
		size_t n = len < (1u << 30) ? len : (1u << 30);

		ret = stream_deflate(&st, data, n,
				     n == len ? Z_FINISH : Z_NO_FLUSH);
		if (n == len)
			break;
		data = (const unsigned char *)data + n;
		len -= n;
	}
	free(st.out);
	if (ret < 0) {
		close(st.fd);
		unlink(w->tmp.buf);
		return ret;
	}
	trace_count(TC_BYTES_DEFLATED, total);
	return finalize(odb, w, st.fd, oid);
}

static int
stream_chunk(void *ctx, const void *data, size_t len)
{
	struct stream_state *st = ctx;

	hasher_update(st->h, data, len);
	trace_count(TC_BYTES_HASHED, len);
	if (st->fd < 0)
		return 0;
	trace_count(TC_BYTES_DEFLATED, len);
	return stream_deflate(st, data, len, Z_NO_FLUSH);
}

/* fileio_stream_fd()'s windows through x (odb_xform) on their way to fn */
struct xform_run {
	struct odb_xform *x;
	fileio_chunk_fn fn;
	void *ctx;
	uint64_t emitted;
};

static int
xform_emit(void *ctx, const void *data, size_t len)
{
	struct xform_run *r = ctx;

	r->emitted += len;
	if (r->emitted > r->x->size)
		return 0;	/* counted; refused at the end */
	return r->fn(r->ctx, data, len);
}

static int
xform_chunk(void *ctx, const void *data, size_t len)
{
	struct xform_run *r = ctx;

	return r->x->fn(r->x, data, len, xform_emit, r);
}

/* Stream size bytes of fd to fn, changed by x when not NULL. */
static int
stream_fd(int fd, uint64_t size, struct read_buf *rb, struct odb_xform *x,
	  fileio_chunk_fn fn, void *ctx, const char *path)
{
	struct xform_run r = { x, fn, ctx, 0 };
	int ret;

	if (!x)
		return fileio_stream_fd(fd, size, rb, fn, ctx, path);
	ret = fileio_stream_fd(fd, size, rb, xform_chunk, &r, path);
	if (ret >= 0)
		ret = x->fn(x, NULL, 0, xform_emit, &r);
	if (ret >= 0 && r.emitted != x->size)
		ret = error_set(E_CORRUPT, "file '%s' changed while it was "
				"being read", path);
	return ret;
}

static int
write_stream(struct odb *odb, struct odb_writer *w, const char *type,
	     int fd, uint64_t size, struct odb_xform *x, const char *path,
	     unsigned flags, struct object_id *out)
{
	struct odb_hdr hdr;
	struct stream_state st = { .w = w, .h = hasher_thread(), .fd = -1 };
	struct strbuf final = STRBUF_INIT;
	int ret;

	odb_hdr_init(&hdr, type, x ? x->size : size);
	hasher_begin(st.h);
	hasher_update(st.h, hdr.buf, hdr.len);
	if (flags & ODB_FD_WRITE) {
		st.out = xmalloc(STREAM_OUT_CHUNK);
		ret = create_tmp(odb, w, NULL);
		if (ret < 0)
			goto out;
		st.fd = ret;
		deflate_begin(w);
		ret = stream_deflate(&st, hdr.buf, hdr.len, Z_NO_FLUSH);
		if (ret < 0)
			goto out;
	}
	ret = stream_fd(fd, size, &w->rb, x, stream_chunk, &st, path);
	if (ret < 0)
		goto out;
	hasher_final(st.h, out->hash);
	trace_count(TC_OBJECTS_HASHED, 1);
	if (st.fd < 0)
		goto out;
	ret = stream_deflate(&st, NULL, 0, Z_FINISH);
	if (ret < 0)
		goto out;

	/* stored already?  Otherwise move the temp file into place */
	if (stored(odb, out, &final)) {
		trace_count(TC_OBJECTS_PRESENT, 1);
		close(st.fd);
		st.fd = -1;
		unlink(w->tmp.buf);
		ret = 0;
		goto out;
	}
	odb_loose_path(&final, odb, out);
	strbuf_setlen(&final, final.len - (HASH_HEXSZ - 2) - 1);
	if (!mkdir(final.buf, 0777)) {
		ret = perm_adjust(final.buf);
		if (ret < 0)
			goto out;
	} else if (errno != EEXIST) {
		ret = error_errno(errno, "unable to create directory %s",
				  final.buf);
		goto out;
	}
	{
		int dfd = st.fd;

		st.fd = -1;
		ret = finalize(odb, w, dfd, out);
	}
out:
	if (st.fd >= 0) {
		close(st.fd);
		unlink(w->tmp.buf);
	}
	free(st.out);
	strbuf_release(&final);
	odb_hdr_release(&hdr);
	return ret;
}

static int
hash_chunk(void *ctx, const void *data, size_t len)
{
	hasher_update(ctx, data, len);
	trace_count(TC_BYTES_HASHED, len);
	return 0;
}

int
odb_hash_fd_xform(struct object_id *out, const char *type, int fd,
		  uint64_t size, struct odb_xform *x, const char *path,
		  struct read_buf *rb)
{
	struct file_view view = FILE_VIEW_INIT;
	struct hasher *h;
	struct odb_hdr hdr;
	int ret;

	if (!x && size < fileio_stream_min()) {
		ret = fileio_view_fd(&view, rb, fd, size, path);
		if (ret < 0)
			return ret;
		odb_hash(out, type, view.data, view.len);
		file_view_release(&view);
		return 0;
	}
	h = hasher_thread();
	hasher_begin(h);
	odb_hdr_init(&hdr, type, x ? x->size : size);
	hasher_update(h, hdr.buf, hdr.len);
	odb_hdr_release(&hdr);
	ret = stream_fd(fd, size, rb, x, hash_chunk, h, path);
	if (ret < 0)
		return ret;
	hasher_final(h, out->hash);
	trace_count(TC_OBJECTS_HASHED, 1);
	return 0;
}

int
odb_hash_fd(struct object_id *out, const char *type, int fd, uint64_t size,
	    const char *path, struct read_buf *rb)
{
	return odb_hash_fd_xform(out, type, fd, size, NULL, path, rb);
}

int
odb_write_fd_xform(struct odb *odb, struct odb_writer *w, const char *type,
		   int fd, uint64_t file_size, struct odb_xform *x,
		   const char *path, unsigned flags, struct object_id *out)
{
	if (!(flags & ODB_FD_WRITE))
		return odb_hash_fd_xform(out, type, fd, file_size, x, path,
					 &w->rb);
	return write_stream(odb, w, type, fd, file_size, x, path, flags, out);
}

int
odb_write_fd(struct odb *odb, struct odb_writer *w, const char *type,
	     int fd, uint64_t size, const char *path, unsigned flags,
	     struct object_id *out)
{
	struct file_view view = FILE_VIEW_INIT;
	int ret;

	if (!(flags & ODB_FD_WRITE))
		return odb_hash_fd(out, type, fd, size, path, &w->rb);
	if (size >= fileio_stream_min())
		return write_stream(odb, w, type, fd, size, NULL, path, flags,
				    out);
	ret = fileio_view_fd(&view, &w->rb, fd, size, path);
	if (ret < 0)
		return ret;
	ret = odb_write(odb, w, type, view.data, view.len, out);
	file_view_release(&view);
	return ret;
}

int
odb_write_path(struct odb *odb, struct odb_writer *w, const char *path,
	       unsigned mode, uint64_t size, unsigned flags,
	       struct object_id *out)
{
	int fd, ret;

	if (S_ISLNK(mode)) {
		struct strbuf *t = &w->tmp;	/* free between writes */
		ssize_t n;

		strbuf_reset(t);
		strbuf_grow(t, size + 1);
		n = readlink(path, t->buf, t->alloc);
		if (n < 0)
			return error_errno(errno, "readlink(\"%s\")", path);
		if ((size_t)n >= t->alloc)
			return error_set(E_CORRUPT, "symlink %s changed while "
					 "it was being read", path);
		strbuf_setlen(t, n);
		if (!(flags & ODB_FD_WRITE)) {
			odb_hash(out, "blob", t->buf, t->len);
			return 0;
		}
		/* odb_write needs w->tmp for its temp file name */
		{
			char *target = strbuf_detach(t, NULL);

			ret = odb_write(odb, w, "blob", target, n, out);
			free(target);
		}
		return ret < 0 ? ret : 0;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_errno(errno, "open(\"%s\")", path);
	ret = odb_write_fd(odb, w, "blob", fd, size, path, flags, out);
	close(fd);
	return ret < 0 ? ret : 0;
}

void
odb_object_release(struct odb_object *obj)
{
	free(obj->data);
	*obj = (struct odb_object)ODB_OBJECT_INIT;
}

/* The compressed bytes of a loose object file. */
struct loose_file {
	struct strbuf path;
	struct file_view view;
	struct read_buf rb;
};

static int
loose_open(struct loose_file *lf, const char *objdir,
	   const struct object_id *oid)
{
	struct stat st;
	int fd, ret;

	strbuf_init(&lf->path, 0);
	lf->view = (struct file_view)FILE_VIEW_INIT;
	lf->rb = (struct read_buf)READ_BUF_INIT;
	odb_loose_path_in(&lf->path, objdir, oid);
	fd = open(lf->path.buf, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return error_set(E_NOTFOUND, "object %s not found",
					 oid_to_hex(oid));
		return error_errno(errno, "unable to open loose object %s",
				   lf->path.buf);
	}
	if (fstat(fd, &st) < 0) {
		ret = error_errno(errno, "unable to stat %s", lf->path.buf);
	} else {
		ret = fileio_view_fd(&lf->view, &lf->rb, fd, st.st_size,
				     lf->path.buf);
	}
	close(fd);
	return ret;
}

static void
loose_close(struct loose_file *lf)
{
	file_view_release(&lf->view);
	read_buf_release(&lf->rb);
	strbuf_release(&lf->path);
}

static int
corrupt(const struct object_id *oid, const char *path, const char *why)
{
	return error_set(E_CORRUPT, "loose object %s (stored in %s) is "
			 "corrupt: %s", oid_to_hex(oid), path, why);
}

static int
zerror(const struct object_id *oid, const char *path, z_stream *zs,
       int zret)
{
	char why[256];

	snprintf(why, sizeof(why), "inflate: %s", zs->msg ? zs->msg :
		 zret == Z_BUF_ERROR ? "truncated zlib stream" :
		 "zlib error");
	return corrupt(oid, path, why);
}

const char *
odb_zlib_status_name(int status)
{
	switch (status) {
	case Z_MEM_ERROR:
		return "out of memory";
	case Z_VERSION_ERROR:
		return "wrong version";
	case Z_NEED_DICT:
		return "needs dictionary";
	case Z_DATA_ERROR:
		return "data stream error";
	case Z_STREAM_ERROR:
		return "stream consistency error";
	default:
		return "unknown error";
	}
}

/*
 * zlib failed (zret) before the header's end: git's two error lines
 * ("inflate: needs dictionary (no message)", "unable to unpack <id>
 * header") before its fatal "loose object <id> (stored in <path>) is
 * corrupt".  A stream cut short is zerror()'s.
 */
static int
header_zerror(const struct object_id *oid, const char *path, z_stream *zs,
	      int zret)
{
	char pre[256];

	if (zret == Z_BUF_ERROR)
		return zerror(oid, path, zs, zret);
	snprintf(pre, sizeof(pre), "inflate: %s (%s)\nerror: unable to "
		 "unpack %s header", odb_zlib_status_name(zret),
		 zs->msg ? zs->msg : "no message", oid_to_hex(oid));
	return error_set_pre(E_CORRUPT, pre, "loose object %s (stored in %s) "
			     "is corrupt", oid_to_hex(oid), path);
}

/*
 * Inflate the header of the loose object in buf into hdrbuf; on success
 * leave zs positioned after it.  Returns the header length, or a
 * negative E_*.
 */
static ssize_t
inflate_header(z_stream *zs, unsigned char *hdrbuf, size_t hdrsize,
	       const void *buf, size_t len, const struct object_id *oid,
	       const char *path, char *type_buf, size_t type_size,
	       uint64_t *size)
{
	ssize_t hlen;
	int zret;

	zs->next_in = (unsigned char *)buf;
	zs->avail_in = len;
	zs->next_out = hdrbuf;
	zs->avail_out = hdrsize;
	if (inflateInit(zs) != Z_OK)
		die_oom(sizeof(*zs));
	do {
		zret = inflate(zs, Z_SYNC_FLUSH);
	} while (zret == Z_OK && zs->avail_out &&
		 !memchr(hdrbuf, '\0', hdrsize - zs->avail_out));
	if (zret != Z_OK && zret != Z_STREAM_END)
		return header_zerror(oid, path, zs, zret);
	hlen = odb_parse_header(hdrbuf, hdrsize - zs->avail_out, type_buf,
				type_size, size);
	if (hlen < 0)
		return corrupt(oid, path, "bad object header");
	return hlen;
}

int
odb_loose_parse_info(enum object_type *type, size_t *size, char *type_buf,
		     size_t type_bufsize, const void *buf, size_t len,
		     const struct object_id *oid, const char *path,
		     unsigned flags)
{
	unsigned char hdr[ODB_HEADER_MAX + 192];
	char tbuf[64];
	z_stream zs;
	uint64_t sz = 0;
	ssize_t hlen;

	memset(&zs, 0, sizeof(zs));
	hlen = inflate_header(&zs, hdr, sizeof(hdr), buf, len, oid, path,
			      tbuf, sizeof(tbuf), &sz);
	inflateEnd(&zs);
	if (hlen < 0)
		return hlen;
	*type = type_from_name(tbuf, strlen(tbuf));
	if (*type == OBJ_BAD && !(flags & ODB_READ_ANY_TYPE))
		return corrupt(oid, path, "invalid object type");
	if (sz > SIZE_MAX)
		return corrupt(oid, path, "object too large");
	*size = sz;
	if (type_buf)
		snprintf(type_buf, type_bufsize, "%s", tbuf);
	return 0;
}

/*
 * The header of a loose file, whatever its length (a --literally type
 * may be thousands of bytes), into hdr: inflate until its NUL.  0 or a
 * negative E_*.
 */
static int
inflate_long_header(struct strbuf *hdr, const void *buf, size_t len,
		    const struct object_id *oid, const char *path)
{
	size_t cap = st_add(st_mult(len, MAX_INFLATE_RATIO), 64);
	size_t chunk = 64;	/* a real header fits: inflate no more */
	z_stream zs;
	int zret = Z_OK, ret = 0;

	memset(&zs, 0, sizeof(zs));
	zs.next_in = (unsigned char *)buf;
	zs.avail_in = len;
	if (inflateInit(&zs) != Z_OK)
		die_oom(sizeof(zs));
	strbuf_reset(hdr);
	for (;;) {
		size_t had = hdr->len;

		if (zret == Z_STREAM_END || hdr->len >= cap) {
			ret = corrupt(oid, path, "bad object header");
			goto out;
		}
		strbuf_grow(hdr, chunk);
		zs.next_out = (unsigned char *)hdr->buf + hdr->len;
		zs.avail_out = chunk;
		zret = inflate(&zs, Z_SYNC_FLUSH);
		if (zret != Z_OK && zret != Z_STREAM_END) {
			ret = header_zerror(oid, path, &zs, zret);
			goto out;
		}
		strbuf_setlen(hdr, hdr->len + (chunk - zs.avail_out));
		if (memchr(hdr->buf + had, '\0', hdr->len - had))
			break;
		if (chunk < 65536)
			chunk *= 2;
	}
out:
	inflateEnd(&zs);
	return ret;
}

static int
loose_read_type(struct strbuf *type, size_t *size, const char *objdir,
		const struct object_id *oid)
{
	struct loose_file lf;
	struct strbuf hdr = STRBUF_INIT;
	int ret = loose_open(&lf, objdir, oid);
	uint64_t sz;

	if (ret >= 0)
		ret = inflate_long_header(&hdr, lf.view.data, lf.view.len,
					  oid, lf.path.buf);
	if (ret >= 0 && odb_parse_header((unsigned char *)hdr.buf, hdr.len,
					 NULL, 0, &sz) < 0)
		ret = corrupt(oid, lf.path.buf, "bad object header");
	if (ret >= 0 && sz > SIZE_MAX)
		ret = corrupt(oid, lf.path.buf, "object too large");
	if (ret >= 0) {
		strbuf_reset(type);
		strbuf_add(type, hdr.buf, strchr(hdr.buf, ' ') - hdr.buf);
		*size = sz;
	}
	strbuf_release(&hdr);
	loose_close(&lf);
	return ret;
}

static int
loose_read_info(enum object_type *type, size_t *size, char *type_buf,
		size_t type_bufsize, const char *objdir,
		const struct object_id *oid, unsigned flags)
{
	struct loose_file lf;
	int ret = loose_open(&lf, objdir, oid);

	if (ret >= 0)
		ret = odb_loose_parse_info(type, size, type_buf, type_bufsize,
					   lf.view.data, lf.view.len, oid,
					   lf.path.buf, flags);
	loose_close(&lf);
	return ret;
}

int
odb_loose_parse(struct odb_object *out, const void *buf, size_t len,
		const struct object_id *oid, const char *path, unsigned flags)
{
	unsigned char hdr[ODB_HEADER_MAX + 8192];
	z_stream zs;
	uint64_t sz = 0;	/* set by inflate_header() when it succeeds */
	ssize_t hlen;
	size_t have;
	int ret = 0, zret;

	*out = (struct odb_object)ODB_OBJECT_INIT;
	memset(&zs, 0, sizeof(zs));
	hlen = inflate_header(&zs, hdr, sizeof(hdr), buf, len, oid, path,
			      out->type_name, sizeof(out->type_name), &sz);
	if (hlen < 0) {
		ret = hlen;
		goto out;
	}
	out->type = type_from_name(out->type_name, strlen(out->type_name));
	if (out->type == OBJ_BAD && !(flags & ODB_READ_ANY_TYPE)) {
		ret = corrupt(oid, path, "invalid object type");
		goto out;
	}
	if (sz / MAX_INFLATE_RATIO > len || sz >= SIZE_MAX) {
		ret = corrupt(oid, path, "header claims an impossible size");
		goto out;
	}
	out->size = sz;
	out->data = xmalloc(st_add(sz, 1));
	have = sizeof(hdr) - zs.avail_out - hlen;
	if (have > sz) {
		ret = corrupt(oid, path, "object is longer than its header "
			      "says");
		goto out;
	}
	memcpy(out->data, hdr + hlen, have);
	zs.next_out = out->data + have;
	zs.avail_out = sz - have;
	do {
		zret = inflate(&zs, Z_NO_FLUSH);
	} while (zret == Z_OK);
	if (zret == Z_BUF_ERROR && !zs.avail_out && zs.avail_in) {
		/* output is full but input is left: more than the header? */
		unsigned char spare;

		zs.next_out = &spare;
		zs.avail_out = 1;
		zret = inflate(&zs, Z_NO_FLUSH);
		if (!zs.avail_out) {
			ret = corrupt(oid, path, "object is longer than its "
				      "header says");
			goto out;
		}
	}
	if (zret != Z_STREAM_END) {
		if (zret == Z_BUF_ERROR)
			ret = corrupt(oid, path, "truncated zlib stream");
		else
			ret = zerror(oid, path, &zs, zret);
		goto out;
	}
	if (zs.total_out != hlen + sz) {
		ret = corrupt(oid, path, "object is shorter than its header "
			      "says");
		goto out;
	}
	if (zs.avail_in) {
		ret = corrupt(oid, path, "garbage at end of loose object");
		goto out;
	}
	out->data[sz] = '\0';
	if (flags & ODB_READ_VERIFY) {
		struct object_id check;

		odb_hash(&check, out->type_name, out->data, out->size);
		if (!oideq(&check, oid)) {
			ret = corrupt(oid, path, "hash mismatch");
			goto out;
		}
	}
out:
	inflateEnd(&zs);
	if (ret < 0)
		odb_object_release(out);
	return ret;
}

static int
loose_read(struct odb_object *out, const char *objdir,
	   const struct object_id *oid, unsigned flags)
{
	struct loose_file lf;
	int ret;

	*out = (struct odb_object)ODB_OBJECT_INIT;
	ret = loose_open(&lf, objdir, oid);
	if (!ret)
		ret = odb_loose_parse(out, lf.view.data, lf.view.len, oid,
				      lf.path.buf, flags);
	loose_close(&lf);
	return ret;
}

/* ---- reading, wherever the object is ---- */

int
odb_read_loose(struct odb_object *out, struct odb *odb,
	       const struct object_id *oid, unsigned flags)
{
	int ret = -E_NOTFOUND;

	for (size_t i = 0; i < odb->nr_sources; i++) {
		ret = loose_read(out, odb->sources[i].objdir, oid, flags);
		if (ret != -E_NOTFOUND)
			return ret;
	}
	return error_set(E_NOTFOUND, "object %s not found", oid_to_hex(oid));
}

/*
 * A thread drops the packs' pages from memory after reading this many
 * bytes of packed objects: a checkout or a cat-file --batch reads most
 * of a pack once, and without this the whole pack would stay resident
 * (252 MB for the linux-shaped tree's), bigger than everything else.
 */
#define TRIM_AFTER_BYTES (32u << 20)

static void
trim_after_read(struct odb *odb, size_t size)
{
	static _Thread_local uint64_t read_since_trim;

	read_since_trim += size;
	if (read_since_trim >= TRIM_AFTER_BYTES) {
		read_since_trim = 0;
		odb_trim_packs(odb);
	}
}

static int
read_packed(struct odb_object *out, struct odb *odb, struct pack *p,
	    uint64_t off, const struct object_id *oid, unsigned flags)
{
	int type, ret;

	*out = (struct odb_object)ODB_OBJECT_INIT;
	ret = pack_read_object(&odb->env, p, off, &type, &out->data,
			       &out->size);
	if (ret < 0)
		return error_set(E_CORRUPT, "packed object %s (stored in %s) "
				 "is corrupt: %s", oid_to_hex(oid),
				 p->pack_path, error_msg());
	out->type = type;
	snprintf(out->type_name, sizeof(out->type_name), "%s",
		 type_name(out->type));
	trim_after_read(odb, out->size);
	if (flags & ODB_READ_VERIFY) {
		struct object_id check;

		odb_hash(&check, out->type_name, out->data, out->size);
		if (!oideq(&check, oid)) {
			odb_object_release(out);
			return error_set(E_CORRUPT, "packed object %s (stored "
					 "in %s) does not hash to its name",
					 oid_to_hex(oid), p->pack_path);
		}
	}
	return 0;
}

/*
 * The copy of oid at (p, off) is corrupt (the error is set).  As git,
 * mark it bad and read another: from another pack, else loose.  0 with
 * it read (the first error printed, as git does), else the first error
 * again.
 */
static int
read_elsewhere(struct odb_object *out, struct odb *odb, struct pack *p,
	       uint64_t off, const struct object_id *oid, unsigned flags)
{
	struct error_saved err = ERROR_SAVED_INIT;
	int ret;

	error_save(&err);
	do {
		pack_mark_bad(p, off);
		if (!odb_find_packed(odb, oid, &p, &off)) {
			ret = odb_read_loose(out, odb, oid, flags);
			break;
		}
		ret = read_packed(out, odb, p, off, oid, flags);
	} while (ret == -E_CORRUPT);
	if (ret < 0) {
		ret = error_restore(&err);
	} else {
		diag_emit(DIAG_ERROR, "%s", err.msg);
		error_clear();
	}
	error_saved_release(&err);
	return ret;
}

/* read_elsewhere() for odb_read_info() */
static int
info_elsewhere(enum object_type *type, size_t *size, char *type_buf,
	       size_t type_bufsize, struct odb *odb, struct pack *p,
	       uint64_t off, const struct object_id *oid, unsigned flags)
{
	struct error_saved err = ERROR_SAVED_INIT;
	int ret, t;

	error_save(&err);
	for (;;) {
		pack_mark_bad(p, off);
		if (!odb_find_packed(odb, oid, &p, &off)) {
			ret = -E_NOTFOUND;
			for (size_t i = 0; ret == -E_NOTFOUND &&
			     i < odb->nr_sources; i++)
				ret = loose_read_info(type, size, type_buf,
						      type_bufsize,
						      odb->sources[i].objdir,
						      oid, flags);
			break;
		}
		ret = pack_object_info(&odb->env, p, off, &t, size, NULL);
		if (ret >= 0) {
			*type = t;
			if (type_buf)
				snprintf(type_buf, type_bufsize, "%s",
					 type_name(t));
			break;
		}
	}
	if (ret < 0) {
		ret = error_restore(&err);
	} else {
		diag_emit(DIAG_ERROR, "%s", err.msg);
		error_clear();
	}
	error_saved_release(&err);
	return ret;
}

int
odb_read(struct odb_object *out, struct odb *odb,
	 const struct object_id *oid, unsigned flags)
{
	struct object_id repl;
	struct pack *p;
	uint64_t off;
	int ret;

	ret = odb_replacement(&repl, odb, oid, flags);
	if (ret < 0)
		return ret;
	oid = &repl;

	for (int attempt = 0; attempt < 2; attempt++) {
		if (odb_find_packed(odb, oid, &p, &off)) {
			ret = read_packed(out, odb, p, off, oid, flags);
			/* its pack may have been replaced by a repack */
			if (ret < 0 && !attempt && access(p->pack_path, F_OK) &&
			    odb_reprepare(odb))
				continue;
			if (ret == -E_CORRUPT)
				ret = read_elsewhere(out, odb, p, off, oid,
						     flags);
			return ret;
		}
		if (!attempt) {
			ret = odb_read_loose(out, odb, oid, flags);
			if (ret != -E_NOTFOUND)
				return ret;
		}
		/* another process may have packed it meanwhile */
		if (attempt || !odb_reprepare(odb))
			break;
	}
	if (oideq(oid, &empty_tree_oid)) {
		error_clear();
		*out = (struct odb_object)ODB_OBJECT_INIT;
		out->type = OBJ_TREE;
		snprintf(out->type_name, sizeof(out->type_name), "tree");
		out->data = xcalloc(1, 1);
		return 0;
	}
	return error_set(E_NOTFOUND, "object %s not found", oid_to_hex(oid));
}

int
odb_read_info(enum object_type *type, size_t *size, char *type_buf,
	      size_t type_bufsize, struct odb *odb,
	      const struct object_id *oid, unsigned flags)
{
	struct object_id repl;
	struct pack *p;
	uint64_t off;
	int ret;

	ret = odb_replacement(&repl, odb, oid, flags);
	if (ret < 0)
		return ret;
	oid = &repl;

	for (int attempt = 0; attempt < 2; attempt++) {
		if (odb_find_packed(odb, oid, &p, &off)) {
			int t;

			ret = pack_object_info(&odb->env, p, off, &t, size,
					       NULL);
			if (ret < 0 && !attempt && access(p->pack_path, F_OK) &&
			    odb_reprepare(odb))
				continue;
			if (ret < 0) {
				error_set(E_CORRUPT, "packed object %s (stored "
					  "in %s) is corrupt: %s",
					  oid_to_hex(oid), p->pack_path,
					  error_msg());
				return info_elsewhere(type, size, type_buf,
						      type_bufsize, odb, p,
						      off, oid, flags);
			}
			*type = t;
			if (type_buf)
				snprintf(type_buf, type_bufsize, "%s",
					 type_name(t));
			return 0;
		}
		for (size_t i = 0; !attempt && i < odb->nr_sources; i++) {
			ret = loose_read_info(type, size, type_buf,
					      type_bufsize,
					      odb->sources[i].objdir, oid,
					      flags);
			if (ret != -E_NOTFOUND)
				return ret;
		}
		if (attempt || !odb_reprepare(odb))
			break;
	}
	if (oideq(oid, &empty_tree_oid)) {
		error_clear();
		*type = OBJ_TREE;
		*size = 0;
		if (type_buf)
			snprintf(type_buf, type_bufsize, "tree");
		return 0;
	}
	return error_set(E_NOTFOUND, "object %s not found", oid_to_hex(oid));
}

int
odb_read_type(struct strbuf *type, size_t *size, struct odb *odb,
	      const struct object_id *oid, unsigned flags)
{
	struct object_id repl;
	enum object_type t;
	struct pack *p;
	uint64_t off;
	int ret, packed;

	ret = odb_replacement(&repl, odb, oid, flags);
	if (ret < 0)
		return ret;
	oid = &repl;
	packed = odb_find_packed(odb, oid, &p, &off);
	for (size_t i = 0; !packed && i < odb->nr_sources; i++) {
		ret = loose_read_type(type, size, odb->sources[i].objdir, oid);
		if (ret != -E_NOTFOUND)
			return ret;
	}
	/* packed (only the four real types), the empty tree, or missing */
	ret = odb_read_info(&t, size, NULL, 0, odb, oid,
			    flags | ODB_READ_NO_REPLACE);
	if (ret < 0)
		return ret;
	strbuf_reset(type);
	strbuf_addstr(type, type_name(t));
	return 0;
}

int
odb_replacement(struct object_id *out, struct odb *odb,
		const struct object_id *oid, unsigned flags)
{
	if (!odb->replace || (flags & ODB_READ_NO_REPLACE)) {
		oidcpy(out, oid);
		return 0;
	}
	return replace_map_lookup(out, odb->replace, oid);
}
