/*
 * refs: reference names and the reference store.
 *
 * Name rules: components separated by '/', none empty, none starting
 * with '.', none ending in ".lock"; no "..", no "@{", not "@"; no control
 * bytes, space, '~', '^', ':', '?', '*', '[', '\\'; not ending in '/'
 * or '.'; at least two components unless REFNAME_ALLOW_ONELEVEL.
 */
#include "refs.h"

#include <sys/stat.h>

#include "error.h"

static int
bad_char(unsigned char c)
{
	return c < 0x20 || c == 0x7f || c == ' ' || c == '~' || c == '^' ||
	       c == ':' || c == '?' || c == '*' || c == '[' || c == '\\';
}

int
refname_is_valid(const char *name, unsigned flags)
{
	const char *comp = name, *p;
	int components = 0;

	if (!*name || !strcmp(name, "@"))
		return 0;
	for (;;) {
		const char *slash = strchr(comp, '/');
		size_t len = slash ? (size_t)(slash - comp) : strlen(comp);

		if (!len || comp[0] == '.')
			return 0;
		if (len >= 5 && !memcmp(comp + len - 5, ".lock", 5))
			return 0;
		components++;
		if (!slash)
			break;
		comp = slash + 1;
	}
	for (p = name; *p; p++) {
		if (bad_char(*p))
			return 0;
		if (p[0] == '.' && p[1] == '.')
			return 0;
		if (p[0] == '@' && p[1] == '{')
			return 0;
	}
	if (p[-1] == '.')
		return 0;
	if (components < 2 && !(flags & REFNAME_ALLOW_ONELEVEL))
		return 0;
	return 1;
}

/* ---- the files store ---- */

void
ref_store_init(struct ref_store *rs, const char *gitdir, const char *commondir)
{
	memset(rs, 0, sizeof(*rs));
	rs->gitdir = xstrdup(gitdir);
	rs->commondir = xstrdup(commondir ? commondir : gitdir);
}

static void
packed_clear(struct ref_store *rs)
{
	for (size_t i = 0; i < rs->packed_nr; i++)
		free(rs->packed[i].name);
	free(rs->packed);
	rs->packed = NULL;
	rs->packed_nr = rs->packed_alloc = 0;
	rs->packed_loaded = 0;
}

void
ref_store_release(struct ref_store *rs)
{
	packed_clear(rs);
	free(rs->gitdir);
	free(rs->commondir);
	memset(rs, 0, sizeof(*rs));
}

/* HEAD, pseudorefs (ALL_CAPS) and refs/{bisect,worktree,rewritten}/ */
static int
is_per_worktree(const char *name)
{
	const char *p;

	if (starts_with(name, "refs/bisect/") ||
	    starts_with(name, "refs/worktree/") ||
	    starts_with(name, "refs/rewritten/"))
		return 1;
	if (starts_with(name, "refs/"))
		return 0;
	for (p = name; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || *p == '_'))
			return 0;
	return 1;
}

void
refs_loose_path(struct strbuf *out, const struct ref_store *rs,
		const char *name)
{
	strbuf_reset(out);
	strbuf_addstr(out, is_per_worktree(name) ? rs->gitdir : rs->commondir);
	strbuf_addch(out, '/');
	strbuf_addstr(out, name);
}

static int
packed_cmp(const void *a, const void *b)
{
	return strcmp(((const struct packed_ref *)a)->name,
		      ((const struct packed_ref *)b)->name);
}

int
refs_load_packed(struct ref_store *rs)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	const char *p, *end;
	int ret = 0, sorted = 1;

	if (rs->packed_loaded)
		return 0;
	strbuf_addf(&path, "%s/packed-refs", rs->commondir);
	ret = strbuf_read_file(&buf, path.buf);
	if (ret == -E_NOTFOUND) {
		error_clear();
		ret = 0;
		goto done;
	}
	if (ret < 0)
		goto out;
	p = buf.buf;
	end = buf.buf + buf.len;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct packed_ref *r;

		if (*p == '#') {
			/* header: "# pack-refs with: <traits>" */
		} else if (*p == '^') {
			if (!rs->packed_nr || len != 1 + HASH_HEXSZ ||
			    hex_to_oid(&rs->packed[rs->packed_nr - 1].peeled,
				       p + 1)) {
				ret = error_set(E_CORRUPT, "unexpected line in "
						"%s: %.*s", path.buf, (int)len,
						p);
				goto out;
			}
			rs->packed[rs->packed_nr - 1].has_peeled = 1;
		} else if (len) {
			if (len < HASH_HEXSZ + 2 || p[HASH_HEXSZ] != ' ') {
				ret = error_set(E_CORRUPT, "unexpected line in "
						"%s: %.*s", path.buf, (int)len,
						p);
				goto out;
			}
			ALLOC_GROW(rs->packed, rs->packed_nr + 1,
				   rs->packed_alloc);
			r = &rs->packed[rs->packed_nr];
			memset(r, 0, sizeof(*r));
			if (hex_to_oid(&r->oid, p)) {
				ret = error_set(E_CORRUPT, "unexpected line in "
						"%s: %.*s", path.buf, (int)len,
						p);
				goto out;
			}
			r->name = xmemdupz(p + HASH_HEXSZ + 1,
					   len - HASH_HEXSZ - 1);
			if (rs->packed_nr &&
			    strcmp(rs->packed[rs->packed_nr - 1].name,
				   r->name) >= 0)
				sorted = 0;
			rs->packed_nr++;
		}
		p += len + 1;
	}
	if (!sorted)
		qsort(rs->packed, rs->packed_nr, sizeof(*rs->packed),
		      packed_cmp);
done:
	rs->packed_loaded = 1;
out:
	if (ret < 0)
		packed_clear(rs);
	strbuf_release(&path);
	strbuf_release(&buf);
	return ret;
}

const struct packed_ref *
refs_find_packed(struct ref_store *rs, const char *name)
{
	size_t lo = 0, hi;

	if (refs_load_packed(rs) < 0)
		return NULL;
	hi = rs->packed_nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(name, rs->packed[mid].name);

		if (!cmp)
			return &rs->packed[mid];
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

int
refs_read_raw(struct ref_store *rs, const char *name, struct object_id *oid,
	      struct strbuf *symref)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	const struct packed_ref *packed;
	const char *p;
	int ret;

	refs_loose_path(&path, rs, name);
	ret = strbuf_read_file(&buf, path.buf);
	if (ret == -E_NOTFOUND || (ret < 0 && errno == EISDIR)) {
		error_clear();
		packed = is_per_worktree(name) ? NULL :
			refs_find_packed(rs, name);
		if (packed) {
			*oid = packed->oid;
			ret = 0;
		} else {
			ret = error_set(E_NOTFOUND, "ref %s not found", name);
		}
		goto out;
	}
	if (ret < 0)
		goto out;
	strbuf_rtrim(&buf);
	if (skip_prefix(buf.buf, "ref:", &p)) {
		while (*p == ' ' || *p == '\t')
			p++;
		strbuf_reset(symref);
		strbuf_addstr(symref, p);
		ret = 1;
	} else if (buf.len >= HASH_HEXSZ && !hex_to_oid(oid, buf.buf) &&
		   (buf.len == HASH_HEXSZ || buf.buf[HASH_HEXSZ] == ' ' ||
		    buf.buf[HASH_HEXSZ] == '\t')) {
		ret = 0;
	} else {
		ret = error_set(E_CORRUPT, "reference '%s' is broken (%s)",
				name, path.buf);
	}
out:
	strbuf_release(&path);
	strbuf_release(&buf);
	return ret;
}

int
refs_resolve(struct ref_store *rs, const char *name, struct object_id *oid,
	     struct strbuf *resolved)
{
	struct strbuf cur = STRBUF_INIT, target = STRBUF_INIT;
	int ret = -E_NOTFOUND;

	strbuf_addstr(&cur, name);
	for (int depth = 0; depth < 6; depth++) {
		if (resolved) {
			strbuf_reset(resolved);
			strbuf_addbuf(resolved, &cur);
		}
		ret = refs_read_raw(rs, cur.buf, oid, &target);
		if (ret != 1)
			goto out;
		if (!refname_is_valid(target.buf, REFNAME_ALLOW_ONELEVEL)) {
			ret = error_set(E_CORRUPT, "symbolic ref %s points to "
					"a bad name '%s'", cur.buf, target.buf);
			goto out;
		}
		strbuf_reset(&cur);
		strbuf_addbuf(&cur, &target);
	}
	ret = error_set(E_CORRUPT, "symbolic ref %s: too many levels", name);
out:
	strbuf_release(&cur);
	strbuf_release(&target);
	return ret;
}

int
refs_resolve_gitlink(struct object_id *out, const char *path)
{
	struct strbuf gitdir = STRBUF_INIT, buf = STRBUF_INIT,
		      common = STRBUF_INIT;
	struct ref_store rs;
	struct stat st;
	const char *p;
	int ret;

	strbuf_addf(&gitdir, "%s/.git", path);
	if (stat(gitdir.buf, &st) < 0) {
		ret = error_set(E_NOTFOUND, "%s is not a repository", path);
		goto out;
	}
	if (S_ISREG(st.st_mode)) {
		ret = strbuf_read_file(&buf, gitdir.buf);
		if (ret < 0)
			goto out;
		strbuf_rtrim(&buf);
		if (!skip_prefix(buf.buf, "gitdir: ", &p)) {
			ret = error_set(E_NOTFOUND, "%s is not a repository",
					path);
			goto out;
		}
		strbuf_reset(&gitdir);
		if (*p != '/')
			strbuf_addf(&gitdir, "%s/", path);
		strbuf_addstr(&gitdir, p);
	}
	strbuf_reset(&buf);
	strbuf_addf(&common, "%s/commondir", gitdir.buf);
	if (!strbuf_read_file(&buf, common.buf)) {
		strbuf_rtrim(&buf);
		strbuf_reset(&common);
		if (buf.buf[0] != '/')
			strbuf_addf(&common, "%s/", gitdir.buf);
		strbuf_addbuf(&common, &buf);
	} else {
		error_clear();
		strbuf_reset(&common);
		strbuf_addbuf(&common, &gitdir);
	}
	ref_store_init(&rs, gitdir.buf, common.buf);
	ret = refs_resolve(&rs, "HEAD", out, NULL);
	ref_store_release(&rs);
out:
	strbuf_release(&gitdir);
	strbuf_release(&buf);
	strbuf_release(&common);
	return ret;
}
