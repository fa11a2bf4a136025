/*
 * refs: reference names and reading the files reference store.
 *
 * Name rules: components separated by '/', none empty, none starting
 * with '.', none ending in ".lock"; no "..", no "@{", not "@"; no control
 * bytes, space, '~', '^', ':', '?', '*', '[', '\\'; not ending in '/'
 * or '.'; at least two components unless REFNAME_ALLOW_ONELEVEL.
 *
 * A loose ref is read as git reads it: trailing whitespace dropped, then
 * "ref:" and optional whitespace before a symbolic ref's target, or 40
 * hex digits followed by nothing or whitespace; anything else is broken.
 * A directory where the file would be, or no file, sends the read to
 * packed-refs.  packed-refs:
 *
 *	# pack-refs with: peeled fully-peeled sorted	(optional header)
 *	<40 hex> SP <refname> LF			(one per ref)
 *	^<40 hex> LF					(after an annotated
 *							 tag: what it peels to)
 *
 * "fully-peeled" says every ref without a "^" line peels to nothing;
 * "peeled" says so for refs/tags/ only; without "sorted" the lines are
 * sorted on load.
 */
#include "refs.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "dir.h"
#include "error.h"
#include "refs-internal.h"
#include "repo.h"
#include "trace.h"

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

int
refname_is_safe(const char *name)
{
	const char *rest, *p;

	if (skip_prefix(name, "refs/", &rest)) {
		/* components that are not empty, "." or ".." */
		if (!*rest)
			return 0;
		for (p = rest;;) {
			const char *slash = strchr(p, '/');
			size_t len = slash ? (size_t)(slash - p) : strlen(p);

			if (!len || (len == 1 && p[0] == '.') ||
			    (len == 2 && p[0] == '.' && p[1] == '.'))
				return 0;
			if (!slash)
				return 1;
			p = slash + 1;
		}
	}
	if (!*name)
		return 0;
	for (p = name; *p; p++)
		if (!(*p >= 'A' && *p <= 'Z') && *p != '_')
			return 0;
	return 1;
}

/* ---- the set of names a transaction touches ---- */

static size_t
names_lower_bound(const struct ref_names *set, const char *name)
{
	size_t lo = 0, hi = set->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(set->name[mid], name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void
ref_names_release(struct ref_names *set)
{
	free(set->name);
	set->name = NULL;
	set->nr = set->alloc = 0;
}

int
ref_names_has(const struct ref_names *set, const char *name)
{
	size_t i = names_lower_bound(set, name);

	return i < set->nr && !strcmp(set->name[i], name);
}

void
ref_names_insert(struct ref_names *set, const char *name)
{
	size_t i = names_lower_bound(set, name);

	if (i < set->nr && !strcmp(set->name[i], name))
		return;
	ALLOC_GROW(set->name, set->nr + 1, set->alloc);
	memmove(set->name + i + 1, set->name + i,
		(set->nr - i) * sizeof(*set->name));
	set->name[i] = name;
	set->nr++;
}

const char *
ref_names_first_with_prefix(const struct ref_names *set, const char *prefix)
{
	size_t i;

	if (!set)
		return NULL;
	i = names_lower_bound(set, prefix);
	if (i < set->nr && starts_with(set->name[i], prefix))
		return set->name[i];
	return NULL;
}

/* ---- the files store ---- */

void
ref_store_init(struct ref_store *rs, const char *gitdir, const char *commondir)
{
	memset(rs, 0, sizeof(*rs));
	rs->gitdir = xstrdup(gitdir);
	rs->commondir = xstrdup(commondir ? commondir : gitdir);
	rs->gitdir_shown = xstrdup(rs->gitdir);
	rs->commondir_shown = xstrdup(rs->commondir);
	rs->lock_timeout_ms = 100;
	rs->packed_timeout_ms = 1000;
}

/*
 * How git names the git directory in messages: as GIT_DIR says when it
 * is set (git does not move then), ".git" when it sits at the top of
 * the work tree (git moves there), "." when the command runs in it.
 */
static char *
shown_gitdir(const struct repo *repo)
{
	const char *env = getenv("GIT_DIR");
	struct strbuf cwd = STRBUF_INIT;
	char *ret = NULL;

	if (env && *env) {
		if (!getenv("GIT_WORK_TREE"))
			ret = xstrdup(env);
	} else if (repo->worktree) {
		size_t len = strlen(repo->worktree);

		if (!strncmp(repo->gitdir, repo->worktree, len) &&
		    !strcmp(repo->gitdir + len, "/.git"))
			ret = xstrdup(".git");
	} else if (!strbuf_getcwd(&cwd) && !strcmp(cwd.buf, repo->gitdir)) {
		ret = xstrdup(".");
	}
	error_clear();
	strbuf_release(&cwd);
	return ret ? ret : xstrdup(repo->gitdir);
}

static long
config_timeout(const struct repo *repo, const char *key, long def)
{
	long v = def;

	if (config_get_long(&repo->config, key, &v) < 0) {
		error_clear();
		v = def;
	}
	return v;
}

void
ref_store_init_repo(struct ref_store *rs, const struct repo *repo)
{
	ref_store_init(rs, repo->gitdir, repo->commondir);
	free(rs->gitdir_shown);
	rs->gitdir_shown = shown_gitdir(repo);
	if (!strcmp(rs->gitdir, rs->commondir)) {
		free(rs->commondir_shown);
		rs->commondir_shown = xstrdup(rs->gitdir_shown);
	}
	rs->reftable = repo->reftable;
	rs->flags = refs_flags_for(repo);
	rs->lock_timeout_ms = config_timeout(repo, "core.filesreflocktimeout",
					     100);
	rs->packed_timeout_ms = config_timeout(repo, "core.packedrefstimeout",
					       1000);
}

void
refs_packed_forget(struct ref_store *rs)
{
	for (size_t i = 0; i < rs->packed_nr; i++)
		free(rs->packed[i].name);
	free(rs->packed);
	rs->packed = NULL;
	rs->packed_nr = rs->packed_alloc = 0;
	rs->packed_loaded = 0;
	rs->rt_fresh = 0;	/* read the stacks as they are now, too */
}

void
ref_store_release(struct ref_store *rs)
{
	refs_packed_forget(rs);
	refs_rt_close(rs);
	free(rs->gitdir);
	free(rs->commondir);
	free(rs->gitdir_shown);
	free(rs->commondir_shown);
	memset(rs, 0, sizeof(*rs));
}

int
refs_is_per_worktree(const char *name)
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
	strbuf_addstr(out, refs_is_per_worktree(name) ? rs->gitdir :
		      rs->commondir);
	strbuf_addch(out, '/');
	strbuf_addstr(out, name);
}

void
refs_loose_path_shown(struct strbuf *out, const struct ref_store *rs,
		      const char *name)
{
	strbuf_reset(out);
	strbuf_addstr(out, refs_is_per_worktree(name) ? rs->gitdir_shown :
		      rs->commondir_shown);
	strbuf_addch(out, '/');
	strbuf_addstr(out, name);
}

void
refs_log_path(struct strbuf *out, const struct ref_store *rs,
	      const char *name, int shown)
{
	int wt = refs_is_per_worktree(name);

	strbuf_reset(out);
	if (shown)
		strbuf_addstr(out, wt ? rs->gitdir_shown :
			      rs->commondir_shown);
	else
		strbuf_addstr(out, wt ? rs->gitdir : rs->commondir);
	strbuf_addstr(out, "/logs/");
	strbuf_addstr(out, name);
}

/* ---- packed-refs ---- */

static int
packed_cmp(const void *a, const void *b)
{
	return strcmp(((const struct packed_ref *)a)->name,
		      ((const struct packed_ref *)b)->name);
}

/* git's message for a line it cannot parse (the first 75 bytes of it) */
static int
packed_bad_line(const struct ref_store *rs, const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', end - p);
	const char *what = nl ? "unexpected" : "unterminated";
	size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

	if (len < 80)
		return error_set(E_CORRUPT, "%s line in %s/packed-refs: %.*s",
				 what, rs->commondir_shown, (int)len, p);
	return error_set(E_CORRUPT, "%s line in %s/packed-refs: %.75s...",
			 what, rs->commondir_shown, p);
}

/*
 * One "<hex> <name>" record at p; sets *next past its LF.  0 or the
 * error of packed_bad_line().
 */
static int
packed_parse_ref(struct ref_store *rs, const char *p, const char *end,
		 const char **next, unsigned traits)
{
	const char *nl = memchr(p, '\n', end - p);
	struct packed_ref *r;
	struct object_id oid;

	if (!nl || nl - p < HASH_HEXSZ + 1 || hex_to_oid(&oid, p) ||
	    !refs_isspace((unsigned char)p[HASH_HEXSZ]))
		return packed_bad_line(rs, p, end);
	ALLOC_GROW(rs->packed, rs->packed_nr + 1, rs->packed_alloc);
	r = &rs->packed[rs->packed_nr++];
	memset(r, 0, sizeof(*r));
	r->oid = oid;
	r->name = xmemdupz(p + HASH_HEXSZ + 1, nl - p - HASH_HEXSZ - 1);
	if ((traits & 2) || ((traits & 1) && starts_with(r->name,
							  "refs/tags/")))
		r->knows_peeled = 1;
	*next = nl + 1;
	return 0;
}

int
refs_load_packed(struct ref_store *rs)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	const char *p, *end;
	unsigned traits = 0;	/* 1 peeled, 2 fully-peeled, 4 sorted */
	int ret = 0, sorted = 1;

	if (rs->packed_loaded)
		return 0;
	if (rs->reftable) {
		/* a reftable store has no packed-refs to look at */
		rs->packed_loaded = 1;
		return 0;
	}
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
	if (p < end && *p == '#') {
		const char *nl = memchr(p, '\n', end - p);
		const char *t;

		if (!nl || !skip_prefix(p, "# pack-refs with:", &t) ||
		    t > nl) {
			ret = packed_bad_line(rs, p, end);
			goto out;
		}
		for (; t < nl; t++) {
			size_t n = strcspn(t, " \n");

			if (n == 6 && !memcmp(t, "peeled", 6))
				traits |= 1;
			else if (n == 12 && !memcmp(t, "fully-peeled", 12))
				traits |= 2;
			else if (n == 6 && !memcmp(t, "sorted", 6))
				traits |= 4;
			t += n ? n - 1 : 0;
		}
		p = nl + 1;
	}
	while (p < end) {
		struct packed_ref *r;

		ret = packed_parse_ref(rs, p, end, &p, traits);
		if (ret < 0)
			goto out;
		r = &rs->packed[rs->packed_nr - 1];
		if (rs->packed_nr > 1 &&
		    strcmp(rs->packed[rs->packed_nr - 2].name, r->name) >= 0)
			sorted = 0;
		if (p < end && *p == '^') {
			const char *nl = memchr(p, '\n', end - p);

			if (!nl || nl - p != 1 + HASH_HEXSZ ||
			    hex_to_oid(&r->peeled, p + 1)) {
				ret = packed_bad_line(rs, p, end);
				goto out;
			}
			r->has_peeled = r->knows_peeled = 1;
			p = nl + 1;
		}
	}
	if (!sorted)
		sort_array(rs->packed, rs->packed_nr, sizeof(*rs->packed),
			   packed_cmp);
done:
	rs->packed_loaded = 1;
out:
	if (ret < 0)
		refs_packed_forget(rs);
	strbuf_release(&path);
	strbuf_release(&buf);
	return ret;
}

/* Index of the first packed ref not below name, after loading. */
static size_t
packed_lower_bound(const struct ref_store *rs, const char *name)
{
	size_t lo = 0, hi = rs->packed_nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(rs->packed[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct packed_ref *
refs_find_packed(struct ref_store *rs, const char *name)
{
	size_t i;

	if (refs_load_packed(rs) < 0)
		return NULL;
	i = packed_lower_bound(rs, name);
	if (i < rs->packed_nr && !strcmp(rs->packed[i].name, name))
		return &rs->packed[i];
	return NULL;
}

/* ---- reading one ref ---- */

/* The packed value of name: 0 found, -1 with *err ENOENT or ERR_SET. */
static int
read_packed(struct ref_store *rs, const char *name, struct object_id *oid,
	    unsigned *type, int *err)
{
	const struct packed_ref *r;

	if (refs_is_per_worktree(name)) {
		*err = ENOENT;
		return -1;
	}
	if (refs_load_packed(rs) < 0) {
		*err = REFS_ERR_SET;
		return -1;
	}
	r = refs_find_packed(rs, name);
	if (!r) {
		*err = ENOENT;
		return -1;
	}
	*oid = r->oid;
	*type |= REF_ISPACKED;
	return 0;
}

/* Parse a loose ref's bytes (already read into buf). */
static int
parse_loose(struct strbuf *buf, struct object_id *oid,
	    struct strbuf *referent, unsigned *type, int *err)
{
	const char *p;

	strbuf_rtrim(buf);
	if (skip_prefix(buf->buf, "ref:", &p)) {
		while (refs_isspace((unsigned char)*p))
			p++;
		strbuf_reset(referent);
		strbuf_addstr(referent, p);
		*type |= REF_ISSYMREF;
		return 0;
	}
	if (buf->len >= (size_t)HASH_HEXSZ && !hex_to_oid(oid, buf->buf) &&
	    (buf->len == (size_t)HASH_HEXSZ ||
	     refs_isspace((unsigned char)buf->buf[HASH_HEXSZ])))
		return 0;
	*type |= REF_ISBROKEN;
	*err = EINVAL;
	return -1;
}

/*
 * An old-style symbolic ref: a link to "refs/...".  0 with its target in
 * referent, or -1 if the link says anything else.  Its own function: the
 * 4 KiB buffer stays off the stack of every other ref read.
 */
static NOINLINE int
read_symlink_ref(const char *path, struct strbuf *referent)
{
	char target[4096];
	ssize_t n = readlink(path, target, sizeof(target) - 1);

	if (n <= 0)
		return -1;
	target[n] = '\0';
	if (!starts_with(target, "refs/") || !refname_is_valid(target, 0))
		return -1;
	strbuf_reset(referent);
	strbuf_addstr(referent, target);
	return 0;
}

int
refs_read_raw_errno(struct ref_store *rs, const char *name,
		    struct object_id *oid, struct strbuf *referent,
		    unsigned *type, int *err)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	struct stat st;
	int ret = -1, fd;

	if (rs->reftable)
		return refs_rt_read(rs, name, oid, referent, type, err);
	*type = 0;
	*err = 0;
	refs_loose_path(&path, rs, name);
	if (lstat(path.buf, &st) < 0) {
		if (errno != ENOENT)
			*err = errno;
		else
			ret = read_packed(rs, name, oid, type, err);
		goto out;
	}
	if (S_ISLNK(st.st_mode)) {
		if (!read_symlink_ref(path.buf, referent)) {
			*type |= REF_ISSYMREF;
			ret = 0;
			goto out;
		}
		if (stat(path.buf, &st) < 0) {
			*err = errno;
			goto out;
		}
	}
	if (S_ISDIR(st.st_mode)) {
		ret = read_packed(rs, name, oid, type, err);
		if (ret < 0 && *err == ENOENT)
			*err = EISDIR;
		goto out;
	}
	fd = open(path.buf, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = errno;
		goto out;
	}
	if (strbuf_read_fd(&buf, fd, 64) < 0) {
		*err = errno;
		close(fd);
		goto out;
	}
	close(fd);
	ret = parse_loose(&buf, oid, referent, type, err);
out:
	strbuf_release(&path);
	strbuf_release(&buf);
	return ret;
}

int
refs_read_raw(struct ref_store *rs, const char *name, struct object_id *oid,
	      struct strbuf *symref)
{
	unsigned type;
	int err;

	if (!refs_read_raw_errno(rs, name, oid, symref, &type, &err))
		return type & REF_ISSYMREF ? 1 : 0;
	switch (err) {
	case REFS_ERR_SET:
		return -error_code();
	case ENOENT:
	case EISDIR:
	case ENOTDIR:
		return error_set(E_NOTFOUND, "ref %s not found", name);
	case EINVAL:
		return error_set(E_CORRUPT, "reference '%s' is broken", name);
	default:
		return error_errno(err, "unable to read ref '%s'", name);
	}
}

/* git follows at most this many refs in a chain of symbolic refs */
#define SYMREF_MAXDEPTH 5

/*
 * The walk behind refs_resolve_ref() and refs_resolve(): *missing is set
 * when the last name has no value (not with READING, which fails).
 */
static int
resolve_walk(struct ref_store *rs, const char *name, unsigned flags,
	     struct object_id *oid, struct strbuf *resolved, unsigned *type,
	     int *missing)
{
	struct strbuf cur = STRBUF_INIT, next = STRBUF_INIT;
	int ret;

	*type = 0;
	*missing = 0;
	if (!refname_is_valid(name, REFNAME_ALLOW_ONELEVEL))
		return error_set(E_CORRUPT, "bad ref name '%s'", name);
	strbuf_addstr(&cur, name);
	for (int depth = 0; depth < SYMREF_MAXDEPTH; depth++) {
		unsigned t;
		int err;

		if (resolved) {
			strbuf_reset(resolved);
			strbuf_addbuf(resolved, &cur);
		}
		if (refs_read_raw_errno(rs, cur.buf, oid, &next, &t, &err)) {
			*type |= t;
			if (err == REFS_ERR_SET) {
				ret = -error_code();
			} else if (err == ENOENT || err == EISDIR ||
				   err == ENOTDIR) {
				*missing = 1;
				*oid = null_oid;
				ret = (flags & REFS_RESOLVE_READING) ?
					error_set(E_NOTFOUND, "ref %s not "
						  "found", cur.buf) : 0;
			} else if (err == EINVAL) {
				ret = error_set(E_CORRUPT, "reference '%s' is "
						"broken", cur.buf);
			} else {
				ret = error_errno(err, "unable to read ref "
						  "'%s'", cur.buf);
			}
			goto out;
		}
		*type |= t;
		if (!(t & REF_ISSYMREF)) {
			ret = 0;
			goto out;
		}
		strbuf_reset(&cur);
		strbuf_addbuf(&cur, &next);
		if (flags & REFS_RESOLVE_NO_RECURSE) {
			if (resolved) {
				strbuf_reset(resolved);
				strbuf_addbuf(resolved, &cur);
			}
			*oid = null_oid;
			ret = 0;
			goto out;
		}
		if (!refname_is_valid(cur.buf, REFNAME_ALLOW_ONELEVEL)) {
			ret = error_set(E_CORRUPT, "symbolic ref %s points to "
					"a bad name '%s'", name, cur.buf);
			goto out;
		}
	}
	ret = error_set(E_CORRUPT, "symbolic ref %s: too many levels", name);
out:
	strbuf_release(&cur);
	strbuf_release(&next);
	return ret;
}

int
refs_resolve_ref(struct ref_store *rs, const char *name, unsigned flags,
		 struct object_id *oid, struct strbuf *resolved,
		 unsigned *type)
{
	unsigned t;
	int missing;

	return resolve_walk(rs, name, flags, oid, resolved, type ? type : &t,
			    &missing);
}

int
refs_resolve(struct ref_store *rs, const char *name, struct object_id *oid,
	     struct strbuf *resolved)
{
	unsigned type;
	int missing, ret;

	ret = resolve_walk(rs, name, 0, oid, resolved, &type, &missing);
	if (!ret && missing)
		ret = error_set(E_NOTFOUND, "ref %s not found",
				resolved ? resolved->buf : name);
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

/* ---- name conflicts ---- */

/* dir_for_each() callback: 1 when path is, or holds, a file */
static int
holds_file(struct strbuf *path, const char *name UNUSED, void *data UNUSED)
{
	struct stat st;

	return lstat(path->buf, &st) || !S_ISDIR(st.st_mode) ||
	       !refs_dir_holds_no_file(path->buf);
}

/* dir_for_each() over path, without a message if it cannot be opened */
static int
walk_quietly(const char *path, dir_entry_fn fn)
{
	struct strbuf buf = STRBUF_INIT;
	int ret;

	strbuf_addstr(&buf, path);
	ret = dir_for_each(&buf, fn, NULL);
	if (ret < 0)
		error_clear();
	strbuf_release(&buf);
	return ret;
}

int
refs_dir_holds_no_file(const char *path)
{
	return !walk_quietly(path, holds_file);
}

/* dir_for_each() callback: remove what is below path, then path */
static int
remove_empty(struct strbuf *path, const char *name UNUSED, void *data UNUSED)
{
	return refs_remove_empty_dirs(path->buf);
}

int
refs_remove_empty_dirs(const char *path)
{
	return walk_quietly(path, remove_empty) ? -1 : rmdir(path);
}

/* What first_loose_below() carries down the walk. */
struct first_loose {
	struct strbuf *name;	/* the ref name of the directory walked */
	struct strbuf *best;	/* the first name found so far, or "" */
};

static void first_loose_below(struct strbuf *dir, struct first_loose *fl);

/* dir_for_each() callback: one entry of first_loose_below()'s walk */
static int
first_loose_entry(struct strbuf *path, const char *entry, void *data)
{
	struct first_loose *fl = data;
	struct strbuf *name = fl->name, *best = fl->best;
	size_t len = name->len;
	struct stat st;

	if (entry[0] == '.' || ends_with(entry, ".lock"))
		return 0;
	strbuf_addch(name, '/');
	strbuf_addstr(name, entry);
	if (stat(path->buf, &st) < 0)
		goto out;
	if (best->len && strcmp(name->buf, best->buf) >= 0 &&
	    !starts_with(best->buf, name->buf))
		goto out;	/* nothing in it can come first */
	if (S_ISDIR(st.st_mode)) {
		first_loose_below(path, fl);
	} else if (!best->len || strcmp(name->buf, best->buf) < 0) {
		strbuf_reset(best);
		strbuf_addbuf(best, name);
	}
out:
	strbuf_setlen(name, len);
	return 0;
}

/*
 * The first loose ref (in sorted order) below the directory dir, whose
 * ref name is fl->name (dir = the loose path of that name): into
 * fl->best when it sorts before what fl->best holds.  git counts every
 * file that does not start with '.' or end in ".lock", broken or not.
 */
static void
first_loose_below(struct strbuf *dir, struct first_loose *fl)
{
	if (dir_for_each(dir, first_loose_entry, fl) < 0)
		error_clear();
}

int
refs_check_available(struct ref_store *rs, const char *name,
		     const struct ref_names *extras, int with_loose)
{
	struct strbuf prefix = STRBUF_INIT, sym = STRBUF_INIT,
		      best = STRBUF_INIT, path = STRBUF_INIT;
	struct object_id oid;
	const char *slash, *extra;
	size_t i;
	int ret = 0;

	ret = refs_load_packed(rs);
	if (ret < 0)
		return ret;
	if (rs->reftable)
		with_loose = 1;	/* every ref is read the one way */
	for (slash = strchr(name, '/'); slash; slash = strchr(slash + 1, '/')) {
		unsigned type;
		int err, exists;

		strbuf_reset(&prefix);
		strbuf_add(&prefix, name, slash - name);
		if (with_loose) {
			exists = !refs_read_raw_errno(rs, prefix.buf, &oid,
						      &sym, &type, &err);
			if (!exists && err == REFS_ERR_SET) {
				ret = -error_code();
				goto out;
			}
		} else {
			exists = !!refs_find_packed(rs, prefix.buf);
		}
		if (exists) {
			ret = error_set(E_CONFLICT, "'%s' exists; cannot "
					"create '%s'", prefix.buf, name);
			goto out;
		}
		if (extras && ref_names_has(extras, prefix.buf)) {
			ret = error_set(E_CONFLICT, "cannot process '%s' and "
					"'%s' at the same time", name,
					prefix.buf);
			goto out;
		}
	}

	strbuf_reset(&prefix);
	strbuf_addf(&prefix, "%s/", name);
	if (rs->reftable) {
		ret = refs_rt_first_with_prefix(rs, prefix.buf, &best);
		if (ret < 0)
			goto out;
		ret = 0;
	} else if (with_loose && starts_with(name, "refs/")) {
		struct first_loose fl = { &sym, &best };

		strbuf_reset(&sym);
		strbuf_addstr(&sym, name);
		refs_loose_path(&path, rs, name);
		first_loose_below(&path, &fl);
	}
	i = packed_lower_bound(rs, prefix.buf);
	if (i < rs->packed_nr && starts_with(rs->packed[i].name, prefix.buf) &&
	    (!best.len || strcmp(rs->packed[i].name, best.buf) < 0)) {
		strbuf_reset(&best);
		strbuf_addstr(&best, rs->packed[i].name);
	}
	if (best.len) {
		ret = error_set(E_CONFLICT, "'%s' exists; cannot create '%s'",
				best.buf, name);
		goto out;
	}
	extra = ref_names_first_with_prefix(extras, prefix.buf);
	if (extra)
		ret = error_set(E_CONFLICT, "cannot process '%s' and '%s' at "
				"the same time", name, extra);
out:
	strbuf_release(&prefix);
	strbuf_release(&sym);
	strbuf_release(&best);
	strbuf_release(&path);
	return ret;
}

/* ---- settings and messages ---- */

unsigned
refs_flags_for(const struct repo *repo)
{
	unsigned flags = 0;

	if (repo->settings.log_all_ref_updates == 1)
		flags |= REF_LOG_ALL;
	else if (repo->settings.log_all_ref_updates == 2)
		flags |= REF_LOG_ALWAYS;
	switch (repo_sync_mode(&repo->settings, FSYNC_REFERENCE)) {
	case SYNC_NONE:
		break;
	case SYNC_WRITEOUT:
		flags |= REF_FSYNC | REF_FSYNC_WRITEOUT;
		break;
	case SYNC_FULL:
		flags |= REF_FSYNC;
		break;
	}
	return flags;
}

void
refs_shorten_unambiguous(struct strbuf *out, struct ref_store *rs,
			 const char *full, int strict)
{
	static const char *const rules[][2] = {
		{ "", "" }, { "refs/", "" }, { "refs/tags/", "" },
		{ "refs/heads/", "" }, { "refs/remotes/", "" },
		{ "refs/remotes/", "/HEAD" },
	};
	const size_t nr = ARRAY_SIZE(rules);
	struct strbuf probe = STRBUF_INIT;
	size_t full_len = strlen(full);

	for (size_t i = nr - 1; i > 0; i--) {
		size_t pre = strlen(rules[i][0]), suf = strlen(rules[i][1]);
		size_t short_len, upto, j;
		const char *s = full + pre;

		if (strncmp(full, rules[i][0], pre) || full_len < pre + suf ||
		    strcmp(full + full_len - suf, rules[i][1]))
			continue;
		short_len = full_len - pre - suf;
		upto = strict ? nr : i;
		for (j = 0; j < upto; j++) {
			struct object_id oid;
			int found;

			if (j == i)
				continue;
			strbuf_reset(&probe);
			strbuf_addstr(&probe, rules[j][0]);
			strbuf_add(&probe, s, short_len);
			strbuf_addstr(&probe, rules[j][1]);
			found = !refs_resolve_ref(rs, probe.buf,
						  REFS_RESOLVE_READING, &oid,
						  NULL, NULL);
			error_clear();
			if (found)
				break;
		}
		if (j == upto) {
			strbuf_add(out, s, short_len);
			strbuf_release(&probe);
			return;
		}
	}
	strbuf_addstr(out, full);
	strbuf_release(&probe);
}

void
refs_printable_name(struct strbuf *out, const char *name)
{
	for (const char *p = name; *p; p++)
		strbuf_addch(out, (unsigned char)*p < 0x20 || *p == 0x7f ?
			     '?' : *p);
}
