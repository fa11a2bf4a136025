/*
 * refs: reference names and the reference store.
 *
 * Name rules: components separated by '/', none empty, none starting
 * with '.', none ending in ".lock"; no "..", no "@{", not "@"; no control
 * bytes, space, '~', '^', ':', '?', '*', '[', '\\'; not ending in '/'
 * or '.'; at least two components unless REFNAME_ALLOW_ONELEVEL.
 */
#include "refs.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "lockfile.h"
#include "perm.h"
#include "repo.h"
#include "strmap.h"
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
		sort_array(rs->packed, rs->packed_nr, sizeof(*rs->packed),
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

/* ---- writing ---- */

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

static enum sync_mode
ref_sync(unsigned flags)
{
	if (!(flags & REF_FSYNC))
		return SYNC_NONE;
	return flags & REF_FSYNC_WRITEOUT ? SYNC_WRITEOUT : SYNC_FULL;
}

void
refs_printable_name(struct strbuf *out, const char *name)
{
	for (const char *p = name; *p; p++)
		strbuf_addch(out, (unsigned char)*p < 0x20 || *p == 0x7f ?
			     '?' : *p);
}

static int
bad_name(const char *name)
{
	struct strbuf pr = STRBUF_INIT;
	int ret;

	refs_printable_name(&pr, name);
	ret = error_set(E_INVALID, "refusing to update ref with bad name "
			"'%s'", pr.buf);
	strbuf_release(&pr);
	return ret;
}

/* mkdir -p of the directories leading to path */
static int
make_leading_dirs(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	for (const char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		struct stat st;

		strbuf_reset(&sb);
		strbuf_add(&sb, path, p - path);
		if (!mkdir(sb.buf, 0777)) {
			/* core.sharedRepository; a failure shows at the lock */
			if (perm_adjust(sb.buf) < 0)
				error_clear();
			continue;
		}
		if (errno == EEXIST) {
			if (!stat(sb.buf, &st) && !S_ISDIR(st.st_mode)) {
				ret = -EEXIST;
				break;
			}
			continue;
		}
		ret = -errno;
		break;
	}
	strbuf_release(&sb);
	return ret;
}

static int
should_log(const struct ref_store *rs, const char *name, unsigned flags)
{
	struct strbuf path = STRBUF_INIT;
	int exists;

	if (flags & (REF_CREATE_REFLOG | REF_LOG_ALWAYS))
		return 1;
	strbuf_addf(&path, "%s/logs/%s", is_per_worktree(name) ? rs->gitdir :
		    rs->commondir, name);
	exists = !access(path.buf, F_OK);
	strbuf_release(&path);
	if (exists)
		return 1;
	return (flags & REF_LOG_ALL) &&
	       (!strcmp(name, "HEAD") || starts_with(name, "refs/heads/") ||
		starts_with(name, "refs/remotes/") ||
		starts_with(name, "refs/notes/"));
}

static void
squash_msg(struct strbuf *out, const char *msg)
{
	size_t start = out->len;
	int space = 0;

	for (const char *p = msg; *p; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
			space = out->len > start;
			continue;
		}
		if (space)
			strbuf_addch(out, ' ');
		space = 0;
		strbuf_addch(out, *p);
	}
}

static int
append_reflog(const struct ref_store *rs, const char *name,
	      const struct object_id *old_oid,
	      const struct object_id *new_oid, const char *committer,
	      const char *msg, unsigned flags)
{
	struct strbuf path = STRBUF_INIT, line = STRBUF_INIT;
	int fd, ret = 0;

	if (!committer || !should_log(rs, name, flags))
		return 0;
	strbuf_addf(&path, "%s/logs/%s", is_per_worktree(name) ? rs->gitdir :
		    rs->commondir, name);
	if (make_leading_dirs(path.buf) < 0) {
		ret = error_set(E_IO, "unable to create directory for '%s'",
				path.buf);
		goto out;
	}
	strbuf_addf(&line, "%s %s %s", oid_to_hex(old_oid),
		    oid_to_hex(new_oid), committer);
	if (msg && *msg) {
		strbuf_addch(&line, '\t');
		squash_msg(&line, msg);
	}
	strbuf_addch(&line, '\n');
	fd = open(path.buf, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		fd = open(path.buf, O_WRONLY | O_APPEND | O_CREAT | O_EXCL |
			  O_CLOEXEC, 0666);
		if (fd >= 0 && (ret = perm_adjust(path.buf)) < 0) {
			close(fd);
			unlink(path.buf);
			goto out;
		}
		if (fd < 0 && errno == EEXIST)	/* someone else made it */
			fd = open(path.buf, O_WRONLY | O_APPEND | O_CLOEXEC);
	}
	if (fd < 0) {
		ret = error_errno(errno, "unable to append to '%s'", path.buf);
		goto out;
	}
	/* git syncs the ref file for core.fsync=reference, not its log */
	if (write_full(fd, line.buf, line.len) < 0)
		ret = error_errno(errno, "unable to append to '%s'", path.buf);
	if (close(fd) < 0 && !ret)
		ret = error_errno(errno, "unable to append to '%s'", path.buf);
out:
	strbuf_release(&path);
	strbuf_release(&line);
	return ret;
}

/*
 * A directory where a ref file should go: remove it if only empty
 * directories are in it.  0 when it is gone; 1 when something remains,
 * with the first file found below it in *found (path relative to base).
 */
static int
clear_empty_dirs(struct strbuf *path, size_t baselen, struct strbuf *found)
{
	size_t len = path->len;
	DIR *dir = opendir(path->buf);
	struct dirent *de;
	int ret = 0;

	if (!dir)
		return 1;
	while (!ret && (de = readdir(dir))) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		strbuf_addch(path, '/');
		strbuf_addstr(path, de->d_name);
		if (!lstat(path->buf, &st) && S_ISDIR(st.st_mode)) {
			ret = clear_empty_dirs(path, baselen, found);
		} else {
			strbuf_addstr(found, path->buf + baselen);
			ret = 1;
		}
		strbuf_setlen(path, len);
	}
	closedir(dir);
	if (!ret && rmdir(path->buf) < 0)
		ret = 1;
	return ret;
}

/* Take "<ref file>.lock"; git's message wraps the lock error. */
static int
lock_ref(struct lockfile *lk, const struct ref_store *rs, const char *name)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	refs_loose_path(&path, rs, name);
	ret = make_leading_dirs(path.buf);
	if (ret == -EEXIST) {
		/* a prefix of the name is a ref (a file) already */
		ret = error_set(E_CONFLICT, "cannot lock ref '%s': a ref "
				"named by a prefix of it exists", name);
		goto out;
	}
	{
		struct stat st;
		struct strbuf below = STRBUF_INIT;
		size_t baselen = path.len - strlen(name);

		if (!lstat(path.buf, &st) && S_ISDIR(st.st_mode) &&
		    clear_empty_dirs(&path, baselen, &below)) {
			if (below.len)
				ret = error_set(E_CONFLICT, "cannot lock ref "
						"'%s': '%s' exists; cannot "
						"create '%s'", name, below.buf,
						name);
			else
				ret = error_set(E_CONFLICT, "cannot lock ref "
						"'%s': there is a non-empty "
						"directory '%s' blocking "
						"reference '%s'", name,
						path.buf, name);
			strbuf_release(&below);
			goto out;
		}
		strbuf_release(&below);
	}
	ret = lockfile_hold(lk, path.buf);
	if (ret < 0) {
		char *inner = xstrdup(error_msg());

		ret = error_set(-ret, "cannot lock ref '%s': %s", name, inner);
		free(inner);
	}
out:
	strbuf_release(&path);
	return ret;
}

static int
write_ref_file(struct lockfile *lk, const char *content, unsigned flags)
{
	int ret;

	if (write_full(lk->fd, content, strlen(content)) < 0) {
		ret = error_errno(errno, "unable to write '%s'", lk->lock_path);
		lockfile_rollback(lk);
		return ret;
	}
	return lockfile_commit(lk, ref_sync(flags));
}

/*
 * The current value of name (loose or packed): 0 found, 1 missing.  A
 * symbolic ref answers with the value it resolves to (or missing).
 */
static int
current_value(struct ref_store *rs, const char *name, struct object_id *oid)
{
	struct strbuf sym = STRBUF_INIT;
	int ret = refs_read_raw(rs, name, oid, &sym);

	if (ret == 1)
		ret = refs_resolve(rs, sym.buf, oid, NULL);
	strbuf_release(&sym);
	if (ret == -E_NOTFOUND) {
		error_clear();
		*oid = null_oid;
		return 1;
	}
	return ret;
}

static int
check_old(const char *name, int missing, const struct object_id *cur,
	  const struct object_id *old_oid)
{
	if (!old_oid)
		return 0;
	if (oid_is_null(old_oid)) {
		if (!missing)
			return error_set(E_CONFLICT, "cannot lock ref '%s': "
					 "reference already exists", name);
		return 0;
	}
	if (missing)
		return error_set(E_CONFLICT, "cannot lock ref '%s': unable to "
				 "resolve reference '%s'", name, name);
	if (!oideq(cur, old_oid)) {
		char want[HASH_HEXSZ + 1];

		oid_to_hex_r(want, old_oid);
		return error_set(E_CONFLICT, "cannot lock ref '%s': is at %s "
				 "but expected %s", name, oid_to_hex(cur),
				 want);
	}
	return 0;
}

/* Rewrite packed-refs without name, under packed-refs.lock. */
static int
remove_packed(struct ref_store *rs, const char *name, unsigned flags)
{
	struct lockfile lk = LOCKFILE_INIT;
	struct strbuf path = STRBUF_INIT, out = STRBUF_INIT;
	int ret;

	if (!refs_find_packed(rs, name))
		return 0;
	strbuf_addf(&path, "%s/packed-refs", rs->commondir);
	ret = lockfile_hold(&lk, path.buf);
	if (ret < 0)
		goto out;
	strbuf_addstr(&out, "# pack-refs with: peeled fully-peeled sorted \n");
	for (size_t i = 0; i < rs->packed_nr; i++) {
		const struct packed_ref *r = &rs->packed[i];

		if (!strcmp(r->name, name))
			continue;
		strbuf_addf(&out, "%s %s\n", oid_to_hex(&r->oid), r->name);
		if (r->has_peeled)
			strbuf_addf(&out, "^%s\n", oid_to_hex(&r->peeled));
	}
	ret = write_ref_file(&lk, out.buf, flags);
	packed_clear(rs);
out:
	strbuf_release(&path);
	strbuf_release(&out);
	return ret;
}

void
refs_txn_init(struct ref_txn *txn, struct ref_store *rs)
{
	memset(txn, 0, sizeof(*txn));
	txn->rs = rs;
}

void
refs_txn_release(struct ref_txn *txn)
{
	for (size_t i = 0; i < txn->nr; i++) {
		lockfile_rollback(&txn->u[i].lk);
		lockfile_rollback(&txn->u[i].sym_lk);
		free(txn->u[i].name);
		free(txn->u[i].ref);
	}
	free(txn->u);
	memset(txn, 0, sizeof(*txn));
}

static struct ref_update *
txn_add(struct ref_txn *txn, enum ref_op op, const char *name,
	const struct object_id *new_oid, const struct object_id *old_oid,
	unsigned flags)
{
	struct ref_update *u;

	ALLOC_GROW(txn->u, txn->nr + 1, txn->alloc);
	u = &txn->u[txn->nr++];
	memset(u, 0, sizeof(*u));
	u->op = op;
	u->name = xstrdup(name);
	u->flags = flags;
	u->lk = (struct lockfile)LOCKFILE_INIT;
	u->sym_lk = (struct lockfile)LOCKFILE_INIT;
	if (new_oid)
		u->new_oid = *new_oid;
	if (old_oid) {
		u->have_old = 1;
		u->old_oid = *old_oid;
	}
	return u;
}

void
refs_txn_update(struct ref_txn *txn, const char *name,
		const struct object_id *new_oid,
		const struct object_id *old_oid, unsigned flags)
{
	txn_add(txn, REF_OP_UPDATE, name, new_oid, old_oid, flags);
}

void
refs_txn_delete(struct ref_txn *txn, const char *name,
		const struct object_id *old_oid, unsigned flags)
{
	txn_add(txn, REF_OP_DELETE, name, NULL, old_oid, flags);
}

void
refs_txn_verify(struct ref_txn *txn, const char *name,
		const struct object_id *old_oid, unsigned flags)
{
	txn_add(txn, REF_OP_VERIFY, name, NULL, old_oid ? old_oid : &null_oid,
		flags);
}

/* Lock, read and check one update; nothing is written yet. */
static int
prepare_one(struct ref_txn *txn, struct ref_update *u, ref_type_fn type_of,
	    void *ctx)
{
	struct ref_store *rs = txn->rs;
	struct strbuf target = STRBUF_INIT;
	struct object_id tmp;
	int ret = 0;

	if (!refname_is_valid(u->name, REFNAME_ALLOW_ONELEVEL))
		return bad_name(u->name);
	u->ref = xstrdup(u->name);
	if (!(u->flags & REF_NO_DEREF)) {
		/* what a symbolic ref points to, even an unborn branch */
		ret = refs_resolve(rs, u->name, &tmp, &target);
		if (ret < 0 && ret != -E_NOTFOUND)
			goto out;
		error_clear();
		if (target.len && strcmp(target.buf, u->name)) {
			free(u->ref);
			u->ref = strbuf_detach(&target, NULL);
			u->via_head = !strcmp(u->name, "HEAD");
		}
	}
	if (u->op == REF_OP_UPDATE && type_of &&
	    !(u->flags & REF_SKIP_OBJECT_CHECK)) {
		int type = type_of(ctx, &u->new_oid);

		if (type < 0) {
			ret = error_set(E_NOTFOUND, "cannot update ref '%s': "
					"trying to write ref '%s' with "
					"nonexistent object %s", u->ref,
					u->ref, oid_to_hex(&u->new_oid));
			goto out;
		}
		if (type != 1 && starts_with(u->ref, "refs/heads/")) {
			ret = error_set(E_INVALID, "cannot update ref '%s': "
					"trying to write non-commit object %s "
					"to branch '%s'", u->ref,
					oid_to_hex(&u->new_oid), u->ref);
			goto out;
		}
	}
	if (u->op != REF_OP_VERIFY) {
		/*
		 * Updating through a symbolic ref holds it too, as git
		 * does, so that it cannot be repointed meanwhile.
		 */
		if (strcmp(u->ref, u->name)) {
			ret = lock_ref(&u->sym_lk, rs, u->name);
			if (ret < 0)
				goto out;
		}
		ret = lock_ref(&u->lk, rs, u->ref);
		if (ret < 0)
			goto out;
	}
	u->missing = current_value(rs, u->ref, &u->cur);
	if (u->missing < 0) {
		ret = u->missing;
		goto out;
	}
	if (u->op == REF_OP_VERIFY) {
		/* verify: the null id means "must not exist" */
		ret = check_old(u->ref, u->missing, &u->cur, &u->old_oid);
		goto out;
	}
	ret = check_old(u->ref, u->missing, &u->cur,
			u->have_old ? &u->old_oid : NULL);
out:
	strbuf_release(&target);
	return ret;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* One ref the transaction writes: named, or reached through a symref. */
struct txn_target {
	char *name;		/* owned */
	int deref;		/* follow it if it is a symbolic ref */
	int via_head;		/* reached through HEAD */
};

/*
 * git's rules, checked before anything is locked: a ref is named once
 * ("multiple updates for ref"), is not also reached through a symbolic
 * ref another update follows, and is not the branch HEAD points to when
 * HEAD is updated too.  git follows one symbolic ref at a time, those
 * reached only after all the named refs, and so does this walk, so that
 * the message names the same pair.  0 or -E_INVALID, -E_CONFLICT.
 */
static int
check_duplicates(struct ref_txn *txn)
{
	struct strmap seen = STRMAP_INIT;	/* keys: names, targets[] */
	struct strbuf head = STRBUF_INIT, sym = STRBUF_INIT;
	struct txn_target *targets = NULL;
	size_t nr = 0, alloc = 0;
	const char **names;
	struct object_id oid;
	int ret = 0;

	for (size_t i = 0; i < txn->nr; i++)
		if (!refname_is_valid(txn->u[i].name, REFNAME_ALLOW_ONELEVEL))
			return bad_name(txn->u[i].name);
	names = xcalloc(txn->nr, sizeof(*names));
	for (size_t i = 0; i < txn->nr; i++)
		names[i] = txn->u[i].name;
	qsort(names, txn->nr, sizeof(*names), cmp_names);
	for (size_t i = 1; i < txn->nr; i++)
		if (!strcmp(names[i - 1], names[i])) {
			ret = error_set(E_CONFLICT, "multiple updates for ref "
					"'%s' not allowed", names[i]);
			goto out;
		}

	if (refs_read_raw(txn->rs, "HEAD", &oid, &head) != 1)
		strbuf_reset(&head);
	error_clear();
	ALLOC_GROW(targets, txn->nr, alloc);
	for (size_t i = 0; i < txn->nr; i++) {
		targets[nr].name = xstrdup(txn->u[i].name);
		targets[nr].deref = !(txn->u[i].flags & REF_NO_DEREF);
		targets[nr].via_head = 0;
		strmap_put(&seen, targets[nr].name, strlen(targets[nr].name),
			   txn);
		nr++;
	}
	for (size_t i = 0; i < nr; i++) {
		const char *name = targets[i].name;
		size_t n;

		if (head.len && !targets[i].via_head &&
		    !strcmp(name, head.buf)) {
			if (strmap_get(&seen, "HEAD", 4)) {
				ret = error_set(E_CONFLICT, "multiple updates "
						"for 'HEAD' (including one via "
						"its referent '%s') are not "
						"allowed", name);
				goto out;
			}
			strmap_put(&seen, "HEAD", 4, txn);
		}
		strbuf_reset(&sym);
		if (!targets[i].deref ||
		    refs_read_raw(txn->rs, name, &oid, &sym) != 1) {
			error_clear();
			continue;
		}
		if (strmap_get(&seen, sym.buf, sym.len)) {
			ret = error_set(E_CONFLICT, "multiple updates for '%s' "
					"(including one via symref '%s') are "
					"not allowed", sym.buf, name);
			goto out;
		}
		ALLOC_GROW(targets, nr + 1, alloc);
		n = sym.len;
		targets[nr].name = strbuf_detach(&sym, NULL);
		targets[nr].deref = 1;
		targets[nr].via_head = targets[i].via_head ||
				       !strcmp(targets[i].name, "HEAD");
		strmap_put(&seen, targets[nr].name, n, txn);
		nr++;
	}
out:
	for (size_t i = 0; i < nr; i++)
		free(targets[i].name);
	free(targets);
	free(names);
	strmap_release(&seen);
	strbuf_release(&head);
	strbuf_release(&sym);
	return ret;
}

/* Does HEAD point at ref (so that updating ref moves HEAD too)? */
static int
head_points_at(struct ref_store *rs, const char *ref)
{
	struct strbuf sym = STRBUF_INIT;
	struct object_id oid;
	int ret = refs_read_raw(rs, "HEAD", &oid, &sym) == 1 &&
		  !strcmp(sym.buf, ref);

	error_clear();
	strbuf_release(&sym);
	return ret;
}

/* Is name a symbolic ref (which --no-deref would turn into a value)? */
static int
is_symbolic(struct ref_store *rs, const char *name)
{
	struct strbuf sym = STRBUF_INIT;
	struct object_id oid;
	int ret = refs_read_raw(rs, name, &oid, &sym) == 1;

	error_clear();
	strbuf_release(&sym);
	return ret;
}

static int
commit_one(struct ref_txn *txn, struct ref_update *u)
{
	struct ref_store *rs = txn->rs;
	struct strbuf path = STRBUF_INIT;
	int ret = 0, log_head;

	if (u->op == REF_OP_VERIFY)
		return 0;
	log_head = u->via_head || (strcmp(u->ref, "HEAD") &&
				   head_points_at(rs, u->ref));
	if (u->op == REF_OP_UPDATE && !u->missing &&
	    oideq(&u->cur, &u->new_oid) && !is_symbolic(rs, u->ref)) {
		/*
		 * Already there: git leaves the ref and its log alone, but
		 * HEAD's log still records the update made through it.
		 */
		lockfile_rollback(&u->lk);
		if (log_head)
			ret = append_reflog(rs, "HEAD", &u->cur, &u->new_oid,
					    txn->committer, txn->msg,
					    u->flags);
		return ret;
	}
	if (u->op == REF_OP_UPDATE) {
		char content[HASH_HEXSZ + 2];

		oid_to_hex_r(content, &u->new_oid);
		content[HASH_HEXSZ] = '\n';
		content[HASH_HEXSZ + 1] = '\0';
		ret = write_ref_file(&u->lk, content, u->flags);
		if (ret < 0)
			return ret;
		trace_step("ref updated");
		ret = append_reflog(rs, u->ref, &u->cur, &u->new_oid,
				    txn->committer, txn->msg, u->flags);
		if (!ret && log_head)
			ret = append_reflog(rs, "HEAD", &u->cur, &u->new_oid,
					    txn->committer, txn->msg,
					    u->flags);
		return ret;
	}
	/* delete: from packed-refs, then the loose file, then its log */
	if (u->missing) {
		lockfile_rollback(&u->lk);
		return 0;
	}
	ret = remove_packed(rs, u->ref, u->flags);
	if (ret < 0)
		return ret;
	refs_loose_path(&path, rs, u->ref);
	if (unlink(path.buf) < 0 && errno != ENOENT)
		ret = error_errno(errno, "unable to remove '%s'", path.buf);
	lockfile_rollback(&u->lk);
	if (!ret) {
		trace_step("ref deleted");
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/logs/%s", is_per_worktree(u->ref) ?
			    rs->gitdir : rs->commondir, u->ref);
		unlink(path.buf);
	}
	strbuf_release(&path);
	return ret;
}

int
refs_txn_commit(struct ref_txn *txn, ref_type_fn type_of, void *ctx)
{
	int ret = 0;

	/* a single update cannot collide with itself */
	if (txn->nr > 1)
		ret = check_duplicates(txn);
	/* every ref locked and checked before anything is written */
	for (size_t i = 0; i < txn->nr && !ret; i++)
		ret = prepare_one(txn, &txn->u[i], type_of, ctx);
	if (ret < 0) {
		txn->failed_at = txn->nr;
		for (size_t i = 0; i < txn->nr; i++) {
			lockfile_rollback(&txn->u[i].lk);
			lockfile_rollback(&txn->u[i].sym_lk);
		}
		return ret;
	}
	for (size_t i = 0; i < txn->nr && !ret; i++)
		ret = commit_one(txn, &txn->u[i]);
	for (size_t i = 0; i < txn->nr; i++) {
		lockfile_rollback(&txn->u[i].lk);
		lockfile_rollback(&txn->u[i].sym_lk);
	}
	return ret;
}

int
refs_update(struct ref_store *rs, const char *name,
	    const struct object_id *new_oid, const struct object_id *old_oid,
	    const char *committer, const char *msg, unsigned flags,
	    ref_type_fn type_of, void *ctx)
{
	struct ref_txn txn;
	int ret;

	refs_txn_init(&txn, rs);
	txn.committer = committer;
	txn.msg = msg;
	refs_txn_update(&txn, name, new_oid, old_oid, flags);
	ret = refs_txn_commit(&txn, type_of, ctx);
	refs_txn_release(&txn);
	return ret;
}

int
refs_delete(struct ref_store *rs, const char *name,
	    const struct object_id *old_oid, unsigned flags)
{
	struct ref_txn txn;
	int ret;

	refs_txn_init(&txn, rs);
	refs_txn_delete(&txn, name, old_oid, flags);
	ret = refs_txn_commit(&txn, NULL, NULL);
	refs_txn_release(&txn);
	return ret;
}

int
refs_set_symref(struct ref_store *rs, const char *name, const char *target,
		const char *committer, const char *msg, unsigned flags)
{
	struct lockfile lk = LOCKFILE_INIT;
	struct strbuf content = STRBUF_INIT;
	struct object_id old_oid, new_oid;
	int ret, had_old, has_new;

	if (!refname_is_valid(name, REFNAME_ALLOW_ONELEVEL))
		return bad_name(name);
	had_old = !refs_resolve(rs, name, &old_oid, NULL);
	has_new = !refs_resolve(rs, target, &new_oid, NULL);
	error_clear();
	/* git reports the lock file's own error here, nothing around it */
	refs_loose_path(&content, rs, name);
	(void)make_leading_dirs(content.buf);	/* else the lock says why */
	{
		struct stat st;
		struct strbuf below = STRBUF_INIT;

		if (!lstat(content.buf, &st) && S_ISDIR(st.st_mode) &&
		    clear_empty_dirs(&content, content.len, &below)) {
			strbuf_release(&below);
			strbuf_release(&content);
			return error_set(E_CONFLICT, "unable to write symref "
					 "for %s: %s", name, strerror(EISDIR));
		}
		strbuf_release(&below);
	}
	ret = lockfile_hold(&lk, content.buf);
	strbuf_reset(&content);
	if (ret < 0) {
		strbuf_release(&content);
		return ret;
	}
	strbuf_addf(&content, "ref: %s\n", target);
	ret = write_ref_file(&lk, content.buf, flags);
	strbuf_release(&content);
	if (ret < 0)
		return ret;
	trace_step("symbolic ref updated");
	/* git logs the move when the new target has a value */
	if (has_new && committer)
		ret = append_reflog(rs, name, had_old ? &old_oid : &null_oid,
				    &new_oid, committer, msg, flags);
	return ret;
}
