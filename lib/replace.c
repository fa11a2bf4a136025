/*
 * replace: the refs/replace/ namespace as a sorted array of (original,
 * replacement) pairs, read on the first lookup under a mutex and then
 * only searched.  Most repositories have none: the lookup is then one
 * atomic load and a length test.
 *
 * The refs are read here from the files backend (loose files under the
 * common directory, then packed-refs), not through refs.h: the object
 * store asks this module on every read and repo_odb() attaches it, and
 * refs sit above both (refs.c needs repo.h).
 */
#include "replace.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "dir.h"
#include "error.h"
#include "strbuf.h"

#define REPLACE_DEFAULT_BASE "refs/replace/"
#define REPLACE_MAX_DEPTH 5	/* git's MAXREPLACEDEPTH: 4 steps succeed */
#define SYMREF_MAX_DEPTH 5	/* as refs_resolve() */

struct replace_entry {
	struct object_id from, to;
	char *ref;		/* the ref name after the namespace; owned */
	size_t pos;		/* its place among the refs, by name */
};

struct replace_map {
	char *commondir;		/* owned */
	pthread_mutex_t lock;		/* held while loading */
	int loaded;			/* (atomic) entries are final */
	int load_error;			/* a negative E_*, kept for later
					 * lookups (its message too) */
	struct error_saved err;
	struct replace_entry *entries;	/* owned; sorted by from */
	size_t nr, alloc;
};

int
replace_enabled(const struct config *cfg)
{
	int use = 1, ret;

	if (getenv("GIT_NO_REPLACE_OBJECTS"))
		return 0;
	ret = config_get_bool(cfg, "core.usereplacerefs", &use);
	if (ret < 0)
		return ret;
	return use;
}

struct replace_map *
replace_map_new(const char *commondir)
{
	struct replace_map *map = xcalloc(1, sizeof(*map));

	map->commondir = xstrdup(commondir);
	pthread_mutex_init(&map->lock, NULL);
	return map;
}

void
replace_map_free(struct replace_map *map)
{
	if (!map)
		return;
	for (size_t i = 0; i < map->nr; i++)
		free(map->entries[i].ref);
	free(map->entries);
	free(map->commondir);
	error_saved_release(&map->err);
	pthread_mutex_destroy(&map->lock);
	free(map);
}

/* The namespace: GIT_REPLACE_REF_BASE or refs/replace/, ending in '/'. */
static void
ref_base(struct strbuf *out)
{
	const char *env = getenv("GIT_REPLACE_REF_BASE");

	strbuf_addstr(out, env && *env ? env : REPLACE_DEFAULT_BASE);
	if (out->buf[out->len - 1] != '/')
		strbuf_addch(out, '/');
}

/* A ref found on disk: loose (value read later) or packed. */
struct ref_item {
	char *name;		/* owned */
	int packed;
	struct object_id oid;	/* packed only */
};

struct ref_list {
	struct ref_item *items;	/* owned */
	size_t nr, alloc;
};

static void
add_ref(struct ref_list *l, const char *name, size_t len, int packed,
	const struct object_id *oid)
{
	ALLOC_GROW(l->items, l->nr + 1, l->alloc);
	l->items[l->nr].name = xmemdupz(name, len);
	l->items[l->nr].packed = packed;
	l->items[l->nr].oid = packed ? *oid : null_oid;
	l->nr++;
}

/* What list_loose() carries down the directories. */
struct loose_walk {
	struct ref_list *l;
	struct strbuf *ref;	/* the ref name of the directory, with '/' */
};

/*
 * Every loose ref file under dir (the path of ref name w->ref, which
 * ends in '/'); a directory that is not there holds nothing replaced.
 */
static void list_loose(struct loose_walk *w, struct strbuf *dir);

/* dir_for_each() callback: one entry of list_loose() */
static int
list_loose_entry(struct strbuf *path, const char *name, void *data)
{
	struct loose_walk *w = data;
	size_t rlen = w->ref->len;
	struct stat st;

	if (name[0] == '.' || lstat(path->buf, &st) < 0)
		return 0;
	strbuf_addstr(w->ref, name);
	if (S_ISDIR(st.st_mode)) {
		strbuf_addch(w->ref, '/');
		list_loose(w, path);
	} else if (!ends_with(name, ".lock")) {
		add_ref(w->l, w->ref->buf, w->ref->len, 0, NULL);
	}
	strbuf_setlen(w->ref, rlen);
	return 0;
}

static void
list_loose(struct loose_walk *w, struct strbuf *dir)
{
	if (dir_for_each(dir, list_loose_entry, w) < 0)
		error_clear();
}

/*
 * Every "<hex> <name>" line of packed-refs into l (names under prefix
 * only, when prefix is not NULL).  Lines that are not refs are skipped:
 * the refs module reports a damaged file.
 */
static void
list_packed(struct ref_list *l, const char *commondir, const char *prefix)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	const char *p, *end;

	strbuf_addf(&path, "%s/packed-refs", commondir);
	if (strbuf_read_file(&buf, path.buf) < 0) {
		error_clear();
		goto out;
	}
	for (p = buf.buf, end = buf.buf + buf.len; p < end; ) {
		const char *nl = memchr(p, '\n', end - p);
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct object_id oid;
		char hex[HASH_MAX_HEXSZ + 1];

		if (len > (size_t)HASH_HEXSZ + 1 && p[HASH_HEXSZ] == ' ') {
			const char *name = p + HASH_HEXSZ + 1;
			size_t nlen = len - HASH_HEXSZ - 1;

			memcpy(hex, p, HASH_HEXSZ);
			hex[HASH_HEXSZ] = '\0';
			if (!hex_to_oid(&oid, hex) &&
			    (!prefix || (nlen >= strlen(prefix) &&
					 !memcmp(name, prefix, strlen(prefix)))))
				add_ref(l, name, nlen, 1, &oid);
		}
		p += len + 1;
	}
out:
	strbuf_release(&path);
	strbuf_release(&buf);
}

/*
 * The value of the loose ref at name, following symbolic refs ("ref:
 * <target>", loose or packed).  0, or -1 when it cannot be read (git
 * then replaces with the null id).
 */
static int
read_ref(struct object_id *out, const char *commondir, const char *name,
	 const struct ref_list *packed, int depth)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	const char *target;
	int ret = -1;

	strbuf_addf(&path, "%s/%s", commondir, name);
	if (strbuf_read_file(&buf, path.buf) < 0) {
		error_clear();
		for (size_t i = 0; i < packed->nr; i++)
			if (!strcmp(packed->items[i].name, name)) {
				*out = packed->items[i].oid;
				ret = 0;
			}
		goto out;
	}
	strbuf_rtrim(&buf);
	if (skip_prefix(buf.buf, "ref:", &target)) {
		while (*target == ' ' || *target == '\t')
			target++;
		if (depth < SYMREF_MAX_DEPTH && *target &&
		    !strstr(target, ".."))
			ret = read_ref(out, commondir, target, packed,
				       depth + 1);
	} else if (buf.len >= (size_t)HASH_HEXSZ &&
		   (buf.len == (size_t)HASH_HEXSZ ||
		    buf.buf[HASH_HEXSZ] == ' ' ||
		    buf.buf[HASH_HEXSZ] == '\t')) {
		buf.buf[HASH_HEXSZ] = '\0';
		ret = hex_to_oid(out, buf.buf) ? -1 : 0;
	}
out:
	strbuf_release(&path);
	strbuf_release(&buf);
	return ret;
}

static void
ref_list_release(struct ref_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->items[i].name);
	free(l->items);
}

/* By name; for one name, the loose ref first. */
static int
cmp_item(const void *a, const void *b)
{
	const struct ref_item *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->packed - y->packed;
}

static int
cmp_entry(const void *a, const void *b)
{
	const struct replace_entry *x = a, *y = b;
	int c = oidcmp(&x->from, &y->from);

	return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

/* Is s at least 40 hex digits (what git's get_oid_hex() accepts)? */
static int
parse_name(struct object_id *out, const char *s)
{
	char hex[HASH_MAX_HEXSZ + 1];

	if (strlen(s) < (size_t)HASH_HEXSZ)
		return -1;
	memcpy(hex, s, HASH_HEXSZ);
	hex[HASH_HEXSZ] = '\0';
	for (int i = 0; i < HASH_HEXSZ; i++)
		if (hex[i] >= 'A' && hex[i] <= 'F')
			hex[i] += 'a' - 'A';
	return hex_to_oid(out, hex);
}

static int
load(struct replace_map *map)
{
	struct strbuf base = STRBUF_INIT, dir = STRBUF_INIT,
		      ref = STRBUF_INIT;
	struct ref_list refs = { NULL, 0, 0 }, all_packed = { NULL, 0, 0 };
	struct ref_list bad = { NULL, 0, 0 };	/* names not ids */
	size_t *bad_pos = NULL;			/* their places */
	const struct replace_entry *dup = NULL;
	struct loose_walk walk = { &refs, &ref };
	int ret = 0, packed_listed = 0;

	ref_base(&base);
	strbuf_addf(&dir, "%s/%.*s", map->commondir, (int)base.len - 1,
		    base.buf);
	strbuf_addbuf(&ref, &base);
	list_loose(&walk, &dir);
	list_packed(&refs, map->commondir, base.buf);
	sort_array(refs.items, refs.nr, sizeof(*refs.items), cmp_item);

	for (size_t i = 0; i < refs.nr; i++) {
		const struct ref_item *r = &refs.items[i];
		struct replace_entry e;

		if (i && !strcmp(r->name, refs.items[i - 1].name))
			continue;	/* loose and packed: the loose one */
		if (parse_name(&e.from, r->name + base.len) < 0) {
			add_ref(&bad, r->name + base.len,
				strlen(r->name + base.len), 0, NULL);
			bad_pos = xrealloc(bad_pos, bad.nr * sizeof(*bad_pos));
			bad_pos[bad.nr - 1] = i;
			continue;
		}
		e.to = r->oid;
		if (!r->packed) {
			/* a symbolic ref may point anywhere: all packed refs */
			if (!packed_listed++)
				list_packed(&all_packed, map->commondir, NULL);
			if (read_ref(&e.to, map->commondir, r->name,
				     &all_packed, 0) < 0)
				e.to = null_oid;
		}
		e.ref = xstrdup(r->name + base.len);
		e.pos = i;
		ALLOC_GROW(map->entries, map->nr + 1, map->alloc);
		map->entries[map->nr++] = e;
	}
	sort_array(map->entries, map->nr, sizeof(*map->entries), cmp_entry);
	/* git stops at the first duplicate in name order */
	for (size_t i = 1; i < map->nr; i++)
		if (oideq(&map->entries[i].from, &map->entries[i - 1].from) &&
		    (!dup || map->entries[i].pos < dup->pos))
			dup = &map->entries[i];
	for (size_t i = 0; i < bad.nr; i++)
		if (!dup || bad_pos[i] < dup->pos)
			diag_emit(DIAG_WARNING, "bad replace ref name: %s",
				  bad.items[i].name);
	if (dup)
		ret = error_set(E_INVALID, "duplicate replace ref: %s",
				dup->ref);

	free(bad_pos);
	ref_list_release(&bad);
	ref_list_release(&refs);
	ref_list_release(&all_packed);
	strbuf_release(&base);
	strbuf_release(&dir);
	strbuf_release(&ref);
	return ret;
}

static int
cmp_from(const void *key, const void *elem)
{
	return oidcmp(key, &((const struct replace_entry *)elem)->from);
}

int
replace_map_lookup(struct object_id *out, struct replace_map *map,
		   const struct object_id *oid)
{
	struct object_id cur;

	oidcpy(&cur, oid);
	if (!__atomic_load_n(&map->loaded, __ATOMIC_ACQUIRE)) {
		pthread_mutex_lock(&map->lock);
		if (!map->loaded) {
			map->load_error = load(map);
			if (map->load_error < 0)
				error_save(&map->err);
			__atomic_store_n(&map->loaded, 1, __ATOMIC_RELEASE);
		}
		pthread_mutex_unlock(&map->lock);
	}
	if (map->load_error < 0)
		return error_restore(&map->err);
	for (int depth = 0; depth < REPLACE_MAX_DEPTH; depth++) {
		const struct replace_entry *e;

		e = search_array(&cur, map->entries, map->nr,
				 sizeof(*map->entries), cmp_from);
		if (!e) {
			*out = cur;
			return 0;
		}
		cur = e->to;
	}
	return error_set(E_INVALID, "replace depth too high for object %s",
			 oid_to_hex(oid));
}
