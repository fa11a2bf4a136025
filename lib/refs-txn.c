/*
 * refs-txn: writing refs — transactions, symbolic refs, reflogs and
 * packed-refs rewrites.
 *
 * A transaction queues updates; prepare then walks them in order (the
 * list grows as it goes) and for each:
 *
 *   - when it names the branch HEAD points to, queues a log-only update
 *     of HEAD, so that HEAD's reflog records the move too;
 *   - checks that the name may exist (no ref above or below it, loose or
 *     packed or in this transaction) and takes "<ref>.lock", making the
 *     directories it needs (and remembering them, to remove them again);
 *   - reads the value under the lock; a symbolic ref (unless the update
 *     says REF_NO_DEREF) becomes a log-only update and queues the real
 *     update of its target;
 *   - checks the old value (an object id, or the target of a symbolic
 *     ref) and writes the new value ("<hex>" or "ref: <target>") into
 *     the lock file, which it closes: a transaction of any size holds no
 *     file descriptor per ref.  New objects were checked as the updates
 *     were queued, as git 2.55 does.
 *
 * Then, when something is deleted, packed-refs.lock is taken (git waits
 * core.packedRefsTimeout for it) and, if a deleted ref is packed, the
 * new packed-refs is written to packed-refs.new; and every reflog that
 * will be written is checked (nothing in the way of its path).  Only
 * after all of that does commit write: reflog lines first (undone if one
 * fails), then the renames of the lock files, then the deletions (the
 * reflogs of deleted refs, packed-refs, the loose files, the directories
 * they leave empty).  Any failure before commit releases everything and
 * removes the directories made, so refs, packed-refs and reflogs are
 * byte for byte as they were.
 *
 * Where git 2.39 does something unsafe this code does not follow it:
 * it does not follow a symbolic ref to a bad name (git writes outside
 * the repository for "ref: ../../x"), does not write a reflog line for a
 * "verify" through a symbolic ref or of the checked-out branch (git
 * appends a bogus "<old> 0000..." line to HEAD's log), and checks names
 * and reflog paths before writing anything (git can leave some refs of
 * a failed transaction written).
 *
 * The reftable store's prepare and commit are in refs-txn-reftable.c;
 * what both share is declared in refs-txn-internal.h.
 */
#include "refs.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "object.h"
#include "perm.h"
#include "refs-internal.h"
#include "refs-txn-internal.h"
#include "reflog.h"
#include "reftable.h"
#include "trace.h"

struct ref_txn *
refs_txn_begin(struct ref_store *rs, const struct ref_txn_env *env)
{
	struct ref_txn *txn = xcalloc(1, sizeof(*txn));

	txn->rs = rs;
	if (env)
		txn->env = *env;
	txn->packed_lock = (struct lockfile)LOCKFILE_INIT;
	txn->packed_new = (struct lockfile)LOCKFILE_INIT;
	mempool_init(&txn->updates, sizeof(struct ref_update));
	arena_init(&txn->strings);
	return txn;
}

static char *
txn_strdup(struct ref_txn *txn, const char *s)
{
	return s ? arena_strndup(&txn->strings, s, strlen(s)) : NULL;
}

/* The copy of a reflog message: one for a run of updates with it. */
static char *
txn_msgdup(struct ref_txn *txn, const char *msg)
{
	if (!msg)
		return NULL;
	if (!txn->last_msg || strcmp(txn->last_msg, msg)) {
		txn->last_msg_copy = txn_strdup(txn, msg);
		txn->last_msg = txn->last_msg_copy;
	}
	return txn->last_msg_copy;
}

static struct ref_update *
add_update(struct ref_txn *txn, const char *name, unsigned flags,
	   const struct object_id *new_oid, const struct object_id *old_oid,
	   const char *msg)
{
	struct ref_update *u = mempool_calloc(&txn->updates);

	u->name = txn_strdup(txn, name);
	u->flags = flags;
	if (new_oid)
		oidcpy(&u->new_oid, new_oid);
	if (old_oid)
		oidcpy(&u->old_oid, old_oid);
	u->msg = txn_msgdup(txn, msg);
	u->new_target = u->old_target = NULL;
	u->lk = (struct lockfile)LOCKFILE_INIT;
	u->group = txn->nr;
	ALLOC_GROW(txn->u, txn->nr + 1, txn->alloc);
	txn->u[txn->nr++] = u;
	return u;
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

/* Copy the targets of one update to another (a split-off one). */
static void
copy_targets(struct ref_update *to, const struct ref_update *from)
{
	to->new_target = from->new_target;
	to->old_target = from->old_target;
}

/*
 * git 2.55 checks the new object when the update is queued, under the
 * name it was queued for (a branch reached through HEAD is not checked
 * again): it must exist, and a branch (HEAD too) must point to a commit.
 */
static int
check_object(struct ref_txn *txn, const char *name,
	     const struct object_id *new_oid, unsigned flags)
{
	int type;

	if (!txn->env.type_of || (flags & REF_SKIP_OBJECT_CHECK))
		return 0;
	type = txn->env.type_of(txn->env.ctx, new_oid);
	if (type < 0)
		return error_set(E_NOTFOUND, "trying to write ref '%s' with "
				 "nonexistent object %s", name,
				 oid_to_hex(new_oid));
	/* git's is_branch(): HEAD counts as one */
	if (type != OBJ_COMMIT &&
	    (!strcmp(name, "HEAD") || starts_with(name, "refs/heads/")))
		return error_set(E_INVALID, "trying to write non-commit "
				 "object %s to branch '%s'",
				 oid_to_hex(new_oid), name);
	return 0;
}

int
refs_txn_update_target(struct ref_txn *txn, const char *name,
		       const struct object_id *new_oid,
		       const char *new_target,
		       const struct object_id *old_oid,
		       const char *old_target, unsigned flags,
		       const char *msg)
{
	struct ref_update *u;
	int ret;

	if (txn->state != TXN_OPEN)
		BUG("update queued on a transaction that is not open");
	if ((new_oid && new_target) || (old_oid && old_target))
		BUG("an update with both a value and a target");
	/* a deletion or a check may name a ref git could not create */
	if (new_oid && !oid_is_null(new_oid) ?
	    !refname_is_valid(name, REFNAME_ALLOW_ONELEVEL) :
	    !refname_is_safe(name))
		return bad_name(name);
	flags &= REF_CALLER_FLAGS;
	if (new_oid || new_target)
		flags |= REF_HAVE_NEW;
	if (old_oid || old_target)
		flags |= REF_HAVE_OLD;
	if (new_oid && !oid_is_null(new_oid)) {
		ret = check_object(txn, name, new_oid, flags);
		if (ret < 0)
			return txn->allow_reject ? 1 : ret;
	}
	u = add_update(txn, name, flags, new_oid, old_oid, msg);
	u->new_target = txn_strdup(txn, new_target);
	u->old_target = txn_strdup(txn, old_target);
	return 0;
}

int
refs_txn_update(struct ref_txn *txn, const char *name,
		const struct object_id *new_oid,
		const struct object_id *old_oid, unsigned flags,
		const char *msg)
{
	return refs_txn_update_target(txn, name, new_oid, NULL, old_oid, NULL,
				      flags, msg);
}

/* ---- directories ---- */

/*
 * mkdir -p of the directories leading to path below its first base
 * bytes, remembering those made.  0; 1 when something that is not a
 * directory is in the way; -1 on another failure (errno set).
 */
static int
make_dirs(struct ref_txn *txn, const char *path, size_t base)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	for (const char *p = strchr(path + base + 1, '/'); p;
	     p = strchr(p + 1, '/')) {
		struct stat st;

		strbuf_reset(&sb);
		strbuf_add(&sb, path, p - path);
		if (!lstat(sb.buf, &st)) {
			if (S_ISDIR(st.st_mode))
				continue;
			ret = 1;
			break;
		}
		if (errno == ENOTDIR) {
			ret = 1;
			break;
		}
		if (errno != ENOENT) {
			ret = -1;
			break;
		}
		if (mkdir(sb.buf, 0777) < 0) {
			if (errno == EEXIST && !stat(sb.buf, &st) &&
			    S_ISDIR(st.st_mode))
				continue;	/* someone else made it */
			ret = errno == EEXIST || errno == ENOTDIR ? 1 : -1;
			break;
		}
		/* core.sharedRepository; a failure shows at the lock */
		if (perm_adjust(sb.buf) < 0)
			error_clear();
		if (txn) {
			ALLOC_GROW(txn->dirs, txn->dirs_nr + 1,
				   txn->dirs_alloc);
			txn->dirs[txn->dirs_nr++] = xstrdup(sb.buf);
		}
	}
	strbuf_release(&sb);
	return ret;
}

/* Remove the directories made that are empty again, deepest first. */
static void
remove_made_dirs(struct ref_txn *txn)
{
	while (txn->dirs_nr) {
		char *dir = txn->dirs[--txn->dirs_nr];

		rmdir(dir);
		free(dir);
	}
}

/* The directory a ref's file lives below (its base for make_dirs). */
static size_t
store_base_len(const struct ref_store *rs, const char *name)
{
	return strlen(refs_is_per_worktree(name) ? rs->gitdir :
		      rs->commondir);
}

/*
 * git's try_remove_empty_parents(): after name was deleted, remove the
 * directories of its loose file (logs: of its reflog) that are now
 * empty, deepest first, never the first two levels ("refs/heads").
 */
static void
remove_empty_parents(const struct ref_store *rs, const char *name, int logs)
{
	struct strbuf path = STRBUF_INIT;
	const char *start = name;
	size_t end = strlen(name), base;

	for (int i = 0; i < 2 && *start; i++) {
		while (*start && *start != '/')
			start++;
		while (*start == '/')
			start++;
	}
	if (logs)
		refs_log_path(&path, rs, name, 0);
	else
		refs_loose_path(&path, rs, name);
	base = path.len - end;
	while (end > (size_t)(start - name)) {
		while (end > (size_t)(start - name) && name[end - 1] != '/')
			end--;
		while (end > (size_t)(start - name) && name[end - 1] == '/')
			end--;
		if (end <= (size_t)(start - name))
			break;
		strbuf_setlen(&path, base + end);
		if (rmdir(path.buf) < 0)
			break;
	}
	strbuf_release(&path);
}

/* ---- prepare ---- */

/* The name an update was asked for: the symbolic ref it came through. */
const char *
txn_asked_name(const struct ref_update *u)
{
	while (u->parent)
		u = u->parent;
	return u->name;
}

/* Wrap this thread's error as "<fmt...>: <error>". */
PRINTF_LIKE(1, 2) int
txn_wrap_error(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[ERROR_MSG_MAX];
	int code = error_code() ? error_code() : E_IO, ret;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	strbuf_addf(&sb, "%s: %s", buf, error_msg());
	ret = error_set(code, "%s", sb.buf);
	strbuf_release(&sb);
	return ret;
}

/*
 * git's lock_raw_ref(): take u's lock and read its value under it.
 * referent receives a symbolic ref's target.  0 or a negative E_* with
 * the reason (not yet prefixed by "cannot lock ref").
 */
static int
lock_and_read(struct ref_txn *txn, struct ref_update *u, int mustexist,
	      struct strbuf *referent)
{
	struct ref_store *rs = txn->rs;
	struct strbuf path = STRBUF_INIT, shown = STRBUF_INIT;
	size_t base = store_base_len(rs, u->name);
	int ret, err;

	refs_loose_path(&path, rs, u->name);
	refs_loose_path_shown(&shown, rs, u->name);
	for (int attempt = 0;; attempt++) {
		int r = make_dirs(txn, path.buf, base);

		if (r == 1) {
			/* a ref (or other file) where a directory goes */
			ret = refs_check_available(rs, u->name, &txn->names,
						   1);
			if (ret == -E_CONFLICT)
				u->why = mustexist ? REF_REJECT_MISSING :
					 REF_REJECT_NAME_CONFLICT;
			if (ret == -E_CONFLICT && mustexist)
				ret = error_set(E_NOTFOUND, "unable to resolve "
						"reference '%s'", u->name);
			else if (!ret)
				ret = error_set(E_EXISTS, "unable to create "
						"lock file %s.lock; "
						"non-directory in the way",
						shown.buf);
			goto out;
		}
		if (r < 0) {
			ret = error_set(E_IO, "unable to create directory for "
					"%s", shown.buf);
			goto out;
		}
		ret = lockfile_hold_timeout(&u->lk, path.buf,
					    rs->lock_timeout_ms);
		/* a directory vanished meanwhile: make it again */
		if (ret == -E_NOTFOUND && attempt < 2) {
			error_clear();
			continue;
		}
		/* git: someone's lock is a ref being created */
		if (ret == -E_LOCKED)
			u->why = REF_REJECT_EXISTS;
		if (ret < 0)
			goto out;
		break;
	}

	if (!refs_read_raw_errno(rs, u->name, &u->cur, referent, &u->type,
				 &err)) {
		ret = 0;
		goto out;
	}
	u->cur = null_oid;
	switch (err) {
	case REFS_ERR_SET:
		ret = -error_code();
		break;
	case EISDIR:
		if (!mustexist && !refs_dir_holds_no_file(path.buf)) {
			ret = refs_check_available(rs, u->name, &txn->names,
						   1);
			if (!ret)
				ret = error_set(E_EXISTS, "there is a "
						"non-empty directory '%s' "
						"blocking reference '%s'",
						shown.buf, u->name);
			u->why = REF_REJECT_NAME_CONFLICT;
			break;
		}
		/* empty directories: commit removes them */
		/* fall through */
	case ENOENT:
		if (mustexist) {
			u->why = REF_REJECT_MISSING;
			ret = error_set(E_NOTFOUND, "unable to resolve "
					"reference '%s'", u->name);
		} else {
			/* git 2.55 checks it when all are locked, and says
			 * a conflict then without "cannot lock ref" */
			u->flags |= REF_CHECK_NAME;
			ret = 0;
		}
		break;
	case EINVAL:
		ret = error_set(E_CORRUPT, "unable to resolve reference '%s': "
				"reference broken", u->name);
		break;
	default:
		ret = error_set(error_code_of_errno(err), "unable to resolve "
				"reference '%s': %s", u->name, strerror(err));
		break;
	}
out:
	strbuf_release(&path);
	strbuf_release(&shown);
	return ret;
}

/*
 * The symbolic ref u must point to u->old_target; it points to referent
 * ("" for none).
 */
int
txn_check_old_target(struct ref_update *u, const char *referent)
{
	if (!strcmp(referent, u->old_target))
		return 0;
	u->why = *referent ? REF_REJECT_OLD_VALUE : REF_REJECT_MISSING;
	if (!*referent)
		return error_set(E_NOTFOUND, "verifying symref target: '%s': "
				 "reference is missing but expected %s",
				 txn_asked_name(u), u->old_target);
	return error_set(E_CONFLICT, "verifying symref target: '%s': is at "
			 "%s but expected %s", txn_asked_name(u), referent,
			 u->old_target);
}

/* u must be a symbolic ref (it has an old target) but is a plain one. */
int
txn_not_a_symref(struct ref_update *u)
{
	u->why = REF_REJECT_NOT_SYMREF;
	return error_set(E_CONFLICT, "cannot lock ref '%s': expected symref "
			 "with target '%s': but is a regular ref",
			 txn_asked_name(u), u->old_target);
}

/*
 * git's check_old_oid(), with git's three messages.  An update that only
 * logs (HEAD's line for the branch it points to) checks nothing: its
 * branch is checked, and HEAD may point to one not yet born.
 */
int
txn_check_old(struct ref_update *u)
{
	char want[HASH_MAX_HEXSZ + 1];

	if (!(u->flags & REF_HAVE_OLD) || (u->flags & REF_LOG_ONLY) ||
	    oideq(&u->cur, &u->old_oid))
		return 0;
	oid_to_hex_r(want, &u->old_oid);
	u->why = oid_is_null(&u->old_oid) ? REF_REJECT_EXISTS :
		 oid_is_null(&u->cur) ? REF_REJECT_MISSING :
		 REF_REJECT_OLD_VALUE;
	if (oid_is_null(&u->old_oid))
		return error_set(E_CONFLICT, "cannot lock ref '%s': reference "
				 "already exists", txn_asked_name(u));
	if (oid_is_null(&u->cur))
		return error_set(E_CONFLICT, "cannot lock ref '%s': reference "
				 "is missing but expected %s",
				 txn_asked_name(u), want);
	return error_set(E_CONFLICT, "cannot lock ref '%s': is at %s but "
			 "expected %s", txn_asked_name(u), oid_to_hex(&u->cur),
			 want);
}

/*
 * u names a symbolic ref itself (REF_NO_DEREF) pointing at target: set
 * u->cur to the value it points at.  1, or 0 if the target has none
 * (u->cur null), or a negative E_* when an old value was to be checked.
 */
int
txn_symref_value(struct ref_txn *txn, struct ref_update *u,
		 const char *target)
{
	if (!refs_resolve_ref(txn->rs, target, 0, &u->cur, NULL, NULL))
		return 1;
	u->cur = null_oid;
	if (u->flags & REF_HAVE_OLD)
		return error_set(E_CORRUPT, "cannot lock ref '%s': error "
				 "reading reference", txn_asked_name(u));
	error_clear();
	return 0;
}

/* The branch HEAD points to changes: log it in HEAD's reflog too. */
static int
split_head(struct ref_txn *txn, struct ref_update *u)
{
	struct ref_update *h;

	if (ref_names_has(&txn->names, "HEAD")) {
		u->why = REF_REJECT_NAME_CONFLICT;
		return error_set(E_CONFLICT, "multiple updates for 'HEAD' "
				 "(including one via its referent '%s') are "
				 "not allowed", u->name);
	}
	h = add_update(txn, "HEAD", (u->flags & ~(REF_NEEDS_COMMIT |
						   REF_WRITES_LOG |
						   REF_LOG_CREATE)) |
		       REF_LOG_ONLY | REF_NO_DEREF, &u->new_oid, &u->old_oid,
		       u->msg);
	h->group = u->group;
	/*
	 * Not the targets, as git: when the branch becomes a symbolic
	 * ref, HEAD's line has the null id as the new value.
	 */
	ref_names_insert(&txn->names, h->name);
	return 0;
}

/*
 * What both stores do first for each update: mark a deletion, and split
 * off HEAD's log line when u moves the branch HEAD (head_ref) points to.
 */
int
txn_prepare_start(struct ref_txn *txn, struct ref_update *u,
		  const char *head_ref)
{
	if (txn_is_null_new(u))
		u->flags |= REF_DELETING;
	if (head_ref && !(u->flags & (REF_LOG_ONLY | REF_VIA_HEAD)) &&
	    !strcmp(u->name, head_ref))
		return split_head(txn, u);
	return 0;
}

/* u is a symbolic ref: lock and log it, and update what it points to. */
int
txn_split_symref(struct ref_txn *txn, struct ref_update *u,
		 const char *target)
{
	struct ref_update *t;
	unsigned flags;

	if (!refname_is_valid(target, REFNAME_ALLOW_ONELEVEL)) {
		struct strbuf pr = STRBUF_INIT;
		int ret;

		refs_printable_name(&pr, target);
		ret = error_set(E_CORRUPT, "cannot lock ref '%s': symbolic "
				"ref points to a bad name '%s'",
				txn_asked_name(u), pr.buf);
		strbuf_release(&pr);
		return ret;
	}
	if (ref_names_has(&txn->names, target)) {
		u->why = REF_REJECT_NAME_CONFLICT;
		return error_set(E_CONFLICT, "multiple updates for '%s' "
				 "(including one via symref '%s') are not "
				 "allowed", target, u->name);
	}
	flags = u->flags & (REF_CALLER_FLAGS | REF_HAVE_NEW | REF_HAVE_OLD |
			    REF_VIA_HEAD);
	if (!strcmp(u->name, "HEAD"))
		flags |= REF_VIA_HEAD;
	t = add_update(txn, target, flags, &u->new_oid, &u->old_oid, u->msg);
	copy_targets(t, u);
	t->parent = u;
	t->group = u->group;
	u->flags |= REF_LOG_ONLY | REF_NO_DEREF;
	u->flags &= ~REF_HAVE_OLD;
	ref_names_insert(&txn->names, t->name);
	return 0;
}

/*
 * u names a symbolic ref itself (REF_NO_DEREF) whose target does not
 * exist: a creation would replace the symbolic ref, which git 2.45
 * refuses ("dangling symref already exists"; git 2.39 replaced it).
 */
int
txn_dangling_symref(struct ref_update *u)
{
	if (u->flags & REF_LOG_ONLY)
		return 0;	/* HEAD's line for its branch: replaces nothing */
	if ((u->flags & REF_HAVE_OLD) && oid_is_null(&u->old_oid) &&
	    oid_is_null(&u->cur)) {
		u->why = REF_REJECT_EXISTS;
		return error_set(E_EXISTS, "cannot lock ref '%s': dangling "
				 "symref already exists", txn_asked_name(u));
	}
	return 0;
}

static enum sync_mode
ref_sync(const struct ref_store *rs)
{
	if (!(rs->flags & REF_FSYNC))
		return SYNC_NONE;
	return rs->flags & REF_FSYNC_WRITEOUT ? SYNC_WRITEOUT : SYNC_FULL;
}

/*
 * Write u's new value into its lock file and close it.  git's message
 * names the lock file and not the reason (a full disk, say).
 */
static int
write_lock(struct ref_txn *txn, struct ref_update *u)
{
	struct strbuf content = STRBUF_INIT;
	int code = 0;

	if (u->new_target)
		strbuf_addf(&content, "ref: %s\n", u->new_target);
	else
		strbuf_addf(&content, "%s\n", oid_to_hex(&u->new_oid));
	if (write_full(u->lk.fd, content.buf, content.len) < 0)
		code = error_code_of_errno(errno);
	else if (lockfile_close(&u->lk, ref_sync(txn->rs)) < 0)
		code = error_code();
	strbuf_release(&content);
	if (code && u->new_target)
		return error_set(code, "unable to write symref for %s: %s",
				 u->name, strerror(errno));
	if (code)
		return error_set(code, "cannot update ref '%s': couldn't "
				 "write '%s'", u->name, u->lk.lock_path);
	u->flags |= REF_NEEDS_COMMIT;
	return 0;
}

/* Does u need the ref to exist (an old value that is not "none")? */
int
txn_expects_existing(const struct ref_update *u)
{
	return (u->flags & REF_HAVE_OLD) &&
	       (u->old_target || !oid_is_null(&u->old_oid));
}

/* Does u delete its ref? */
int
txn_is_null_new(const struct ref_update *u)
{
	return (u->flags & REF_HAVE_NEW) && !u->new_target &&
	       oid_is_null(&u->new_oid);
}

/* git's lock_ref_for_update(): everything prepare does for one update. */
static int
prepare_one(struct ref_txn *txn, struct ref_update *u, const char *head_ref)
{
	struct strbuf referent = STRBUF_INIT;
	int mustexist = txn_expects_existing(u);
	int ret;

	ret = txn_prepare_start(txn, u, head_ref);
	if (ret < 0)
		goto out;
	ret = lock_and_read(txn, u, mustexist, &referent);
	if (ret < 0) {
		ret = txn_wrap_error("cannot lock ref '%s'", txn_asked_name(u));
		goto out;
	}
	if (u->type & REF_ISSYMREF) {
		if (u->flags & REF_NO_DEREF) {
			/* the value it points at, for the check and log */
			ret = txn_symref_value(txn, u, referent.buf);
			if (ret < 0)
				goto out;
			if (u->old_target)
				ret = txn_check_old_target(u, referent.buf);
			else if (!(ret = txn_dangling_symref(u)))
				ret = txn_check_old(u);
		} else {
			ret = txn_split_symref(txn, u, referent.buf);
		}
	} else if (u->old_target) {
		ret = txn_not_a_symref(u);
	} else {
		ret = txn_check_old(u);
		for (struct ref_update *p = u->parent; !ret && p;
		     p = p->parent)
			p->cur = u->cur;
	}
	if (ret < 0)
		goto out;
	if ((u->flags & REF_HAVE_NEW) &&
	    !(u->flags & (REF_DELETING | REF_LOG_ONLY)) &&
	    (u->new_target || (u->type & REF_ISSYMREF) ||
	     !oideq(&u->cur, &u->new_oid)))
		ret = write_lock(txn, u);
	if (!ret)
		ret = lockfile_close(&u->lk, SYNC_NONE);
out:
	strbuf_release(&referent);
	return ret;
}

/* Is name one whose reflog git creates by itself? */
int
txn_autocreates_log(const struct ref_store *rs, const char *name)
{
	if (rs->flags & REF_LOG_ALWAYS)
		return 1;
	return (rs->flags & REF_LOG_ALL) &&
	       (!strcmp(name, "HEAD") || starts_with(name, "refs/heads/") ||
		starts_with(name, "refs/remotes/") ||
		starts_with(name, "refs/notes/"));
}

/*
 * A symbolic ref written by u is logged with the value of its target
 * (as it is before the transaction): sets u->new_oid.  0 if the target
 * has no value (git then writes no reflog line), else 1.
 */
int
txn_target_value(struct ref_txn *txn, struct ref_update *u)
{
	if (!u->new_target)
		return 1;
	/*
	 * The files store: git writes each ref right after its reflog
	 * line, so a target set earlier in the transaction has its new
	 * value (this code writes every line first; one level is
	 * followed).  The reftable store reads the stack as it was.
	 */
	for (size_t i = 0; !txn->rs->reftable && i < txn->nr &&
	     txn->u[i] != u; i++) {
		const struct ref_update *t = txn->u[i];

		if ((t->flags & REF_NEEDS_COMMIT) && !t->new_target &&
		    !strcmp(t->name, u->new_target)) {
			u->new_oid = t->new_oid;
			return 1;
		}
	}
	if (refs_resolve_ref(txn->rs, u->new_target, REFS_RESOLVE_READING,
			     &u->new_oid, NULL, NULL) < 0) {
		error_clear();
		return 0;
	}
	return 1;
}

/*
 * Will a reflog line for name be written, and can it be?  Sets
 * REF_WRITES_LOG (and REF_LOG_CREATE) in *flags.  0, or a negative E_*
 * with git's reason ("unable to append to '<log>': Not a directory",
 * "there are still logs under '<log>'").
 */
static int
check_log(const struct ref_store *rs, const char *name, unsigned *flags)
{
	struct strbuf path = STRBUF_INIT, shown = STRBUF_INIT;
	int create = (*flags & REF_CREATE_REFLOG) ||
		     txn_autocreates_log(rs, name);
	struct stat st;
	int ret = 0, fd;

	refs_log_path(&path, rs, name, 0);
	refs_log_path(&shown, rs, name, 1);
	if (stat(path.buf, &st) < 0) {
		if (errno == ENOENT) {
			if (create)
				*flags |= REF_WRITES_LOG | REF_LOG_CREATE;
		} else {
			ret = error_errno(errno, "unable to append to '%s'",
					  shown.buf);
		}
	} else if (S_ISDIR(st.st_mode)) {
		if (!create)
			;	/* no log, as git: not an error */
		else if (refs_dir_holds_no_file(path.buf))
			*flags |= REF_WRITES_LOG | REF_LOG_CREATE;
		else
			ret = error_set(E_EXISTS, "there are still logs under "
					"'%s'", shown.buf);
	} else {
		fd = open(path.buf, O_WRONLY | O_APPEND | O_CLOEXEC);
		if (fd < 0) {
			ret = error_errno(errno, "unable to append to '%s'",
					  shown.buf);
		} else {
			close(fd);
			*flags |= REF_WRITES_LOG;
		}
	}
	strbuf_release(&path);
	strbuf_release(&shown);
	return ret;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* packed-refs: the header git writes, with every trait */
#define PACKED_HEADER "# pack-refs with: peeled fully-peeled sorted \n"

/*
 * git writes packed-refs through stdio: a write that fails while the
 * lines are printed says "error writing to", one that fails when the
 * last buffer is flushed at close says "error closing file".  Which one
 * is known from how far the write got (a failed write leaves the offset
 * after the bytes that went); the buffer is STDIO_BUFSIZ bytes.
 */
#define STDIO_BUFSIZ 4096	/* glibc: st_blksize, 4096 on ext4/tmpfs */

static int
packed_write_error(const struct lockfile *lk, size_t len, int errnum)
{
	off_t done = lseek(lk->fd, 0, SEEK_CUR);
	size_t last = len ? (len - 1) / STDIO_BUFSIZ * STDIO_BUFSIZ : 0;

	if (done >= 0 && (size_t)done >= last)
		return error_set(error_code_of_errno(errnum), "error closing "
				 "file %s: %s", lk->lock_path,
				 strerror(errnum));
	return error_set(error_code_of_errno(errnum), "error writing to "
			 "%s: %s", lk->lock_path, strerror(errnum));
}

/*
 * Something is deleted: hold packed-refs.lock until the end (so that
 * nobody packs what is being deleted) and, if a deleted ref is packed,
 * write the new packed-refs to packed-refs.new.
 */
static int
prepare_packed(struct ref_txn *txn)
{
	struct ref_store *rs = txn->rs;
	struct strbuf path = STRBUF_INIT, tmp = STRBUF_INIT,
		      out = STRBUF_INIT;
	struct ref_names deleted = REF_NAMES_INIT;
	int ret, needed = 0;

	strbuf_addf(&path, "%s/packed-refs", rs->commondir);
	ret = lockfile_hold_timeout(&txn->packed_lock, path.buf,
				    rs->packed_timeout_ms);
	if (ret < 0)
		goto out;
	ret = lockfile_close(&txn->packed_lock, SYNC_NONE);
	if (ret < 0)
		goto out;
	/* what the file holds now that it is locked */
	refs_packed_forget(rs);
	ret = refs_load_packed(rs);
	if (ret < 0)
		goto out;
	for (size_t i = 0; i < txn->nr; i++) {
		const struct ref_update *u = txn->u[i];

		if ((u->flags & REF_DELETING) && !(u->flags & REF_LOG_ONLY) &&
		    refs_find_packed(rs, u->name)) {
			ALLOC_GROW(deleted.name, deleted.nr + 1,
				   deleted.alloc);
			deleted.name[deleted.nr++] = u->name;
			needed = 1;
		}
	}
	if (!needed)
		goto out;
	sort_array(deleted.name, deleted.nr, sizeof(*deleted.name), cmp_str);

	strbuf_addstr(&out, PACKED_HEADER);
	for (size_t i = 0; i < rs->packed_nr; i++) {
		const struct packed_ref *r = &rs->packed[i];
		struct object_id peeled;

		if (ref_names_has(&deleted, r->name))
			continue;
		strbuf_addf(&out, "%s %s\n", oid_to_hex(&r->oid), r->name);
		if (r->has_peeled)
			strbuf_addf(&out, "^%s\n", oid_to_hex(&r->peeled));
		else if (!r->knows_peeled && txn->env.peel &&
			 !txn->env.peel(txn->env.ctx, &r->oid, &peeled))
			strbuf_addf(&out, "^%s\n", oid_to_hex(&peeled));
	}
	strbuf_addf(&tmp, "%s.new", path.buf);
	ret = lockfile_hold_temp(&txn->packed_new, tmp.buf, path.buf);
	if (ret < 0)
		goto out;
	if (write_full(txn->packed_new.fd, out.buf, out.len) < 0) {
		ret = packed_write_error(&txn->packed_new, out.len, errno);
		goto out;
	}
	ret = lockfile_close(&txn->packed_new, ref_sync(rs));
out:
	ref_names_release(&deleted);
	strbuf_release(&path);
	strbuf_release(&tmp);
	strbuf_release(&out);
	return ret;
}

/* Release every lock and temporary file; nothing is written. */
static void
release_all(struct ref_txn *txn)
{
	for (size_t i = 0; i < txn->nr; i++)
		lockfile_rollback(&txn->u[i]->lk);
	lockfile_rollback(&txn->packed_new);
	lockfile_rollback(&txn->packed_lock);
	remove_made_dirs(txn);
	for (size_t i = 0; i < ARRAY_SIZE(txn->rt_add); i++) {
		reftable_addition_free(txn->rt_add[i]);
		txn->rt_add[i] = NULL;
	}
}

/* The names, sorted; git's message for the first one named twice. */
static int
collect_names(struct ref_txn *txn)
{
	struct ref_names *set = &txn->names;

	ref_names_release(set);
	ALLOC_GROW(set->name, txn->nr, set->alloc);
	for (size_t i = 0; i < txn->nr; i++)
		set->name[i] = txn->u[i]->name;
	set->nr = txn->nr;
	sort_array(set->name, set->nr, sizeof(*set->name), cmp_str);
	for (size_t i = 1; i < set->nr; i++)
		if (!strcmp(set->name[i - 1], set->name[i]))
			return error_set(E_CONFLICT, "multiple updates for ref "
					 "'%s' not allowed", set->name[i]);
	return 0;
}

void
refs_txn_allow_rejections(struct ref_txn *txn)
{
	txn->allow_reject = 1;
}

const char *
refs_reject_reason(enum ref_reject why)
{
	switch (why) {
	case REF_REJECT_NAME_CONFLICT:
		return "refname conflict";
	case REF_REJECT_EXISTS:
		return "reference already exists";
	case REF_REJECT_MISSING:
		return "reference does not exist";
	case REF_REJECT_OLD_VALUE:
		return "incorrect old value provided";
	case REF_REJECT_NEW_VALUE:
		return "invalid new value provided";
	case REF_REJECT_NOT_SYMREF:
		return "expected symref but found regular ref";
	case REF_REJECT_NONE:
		break;
	}
	return "unknown failure";
}

/*
 * txn->u[i] failed for a reason of its own: record it with the error
 * message, and drop it with every update of its group (the symbolic
 * refs it went through, HEAD's log line; git 2.55 still writes HEAD's,
 * for a branch that did not move), releasing their locks.  Its name no
 * longer counts in the checks of the others' names.
 */
static void
reject_update(struct ref_txn *txn, size_t i)
{
	struct ref_update *u = txn->u[i];
	struct ref_names *set = &txn->names;

	u->reject_msg = xstrdup(error_msg());
	u->reject_flags = u->flags;
	error_clear();
	for (size_t j = 0; j < txn->nr; j++) {
		struct ref_update *o = txn->u[j];

		if (o->group != u->group)
			continue;
		lockfile_rollback(&o->lk);
		o->flags &= ~(REF_HAVE_NEW | REF_DELETING | REF_NEEDS_COMMIT |
			      REF_WRITES_LOG | REF_LOG_CREATE | REF_RT_WRITE);
		o->flags |= REF_DROPPED;
	}
	ALLOC_GROW(txn->rejected, txn->rejected_nr + 1, txn->rejected_alloc);
	txn->rejected[txn->rejected_nr++] = i;

	ALLOC_GROW(set->name, txn->nr, set->alloc);
	set->nr = 0;
	for (size_t j = 0; j < txn->nr; j++)
		if (!(txn->u[j]->flags & REF_DROPPED))
			set->name[set->nr++] = txn->u[j]->name;
	sort_array(set->name, set->nr, sizeof(*set->name), cmp_str);
}

void
refs_txn_for_each_rejected(struct ref_txn *txn, ref_reject_fn fn, void *ctx)
{
	for (size_t k = 0; k < txn->rejected_nr; k++) {
		const struct ref_update *u = txn->u[txn->rejected[k]];
		unsigned flags = u->reject_flags;

		fn(ctx, u->name, flags & REF_HAVE_NEW ? &u->new_oid : NULL,
		   u->new_target, flags & REF_HAVE_OLD ? &u->old_oid : NULL,
		   u->old_target, u->why, u->reject_msg);
	}
}

int
refs_txn_prepare(struct ref_txn *txn)
{
	struct strbuf head = STRBUF_INIT;
	struct object_id oid;
	int ret = 0, deletes = 0;
	unsigned type;
	int err;

	if (txn->state != TXN_OPEN)
		BUG("prepare of a transaction that is not open");
	if (!txn->nr)
		goto done;
	refs_packed_forget(txn->rs);	/* read it as it is now */
	ret = collect_names(txn);
	if (ret < 0)
		goto fail;
	if (txn->rs->reftable) {
		ret = txn_rt_lock(txn);
		if (ret < 0)
			goto fail;
	}

	/* HEAD's referent, to log HEAD when it moves */
	if (refs_read_raw_errno(txn->rs, "HEAD", &oid, &head, &type, &err) ||
	    !(type & REF_ISSYMREF))
		strbuf_reset(&head);
	error_clear();

	/* the list grows while walked: symbolic refs, HEAD */
	for (size_t i = 0; i < txn->nr; i++) {
		struct ref_update *u = txn->u[i];

		if (u->flags & REF_DROPPED)
			continue;
		u->why = REF_REJECT_NONE;
		ret = txn->rs->reftable ?
			txn_rt_prepare_one(txn, u, head.len ? head.buf : NULL) :
			prepare_one(txn, u, head.len ? head.buf : NULL);
		if (ret < 0 && txn->allow_reject && u->why) {
			reject_update(txn, i);
			continue;
		}
		if (ret < 0)
			goto fail;
	}
	/*
	 * The names of new refs are checked now that all are locked, in
	 * the order of the updates, against the refs and the names not
	 * rejected (git 2.55's order: the first of two in conflict may go).
	 */
	for (size_t i = 0; i < txn->nr; i++) {
		struct ref_update *u = txn->u[i];

		if (!(u->flags & REF_CHECK_NAME) || (u->flags & REF_DROPPED))
			continue;
		ret = refs_check_available(txn->rs, u->name, &txn->names,
					   txn->rs->reftable);
		if (ret == -E_CONFLICT && txn->allow_reject) {
			u->why = REF_REJECT_NAME_CONFLICT;
			reject_update(txn, i);
			ret = 0;
		}
		if (ret < 0)
			goto fail;
	}
	for (size_t i = 0; i < txn->nr; i++)
		if (txn_is_deletion(txn->u[i]))
			deletes = 1;
	if (deletes && !txn->rs->reftable) {
		ret = prepare_packed(txn);
		if (ret < 0)
			goto fail;
	}
	/* reflogs: check every path that will be written to */
	for (size_t i = 0; i < txn->nr; i++) {
		struct ref_update *u = txn->u[i];

		if (txn->rs->reftable && txn->env.committer) {
			txn_rt_check_log(txn->rs, u);
			continue;
		}
		if (!txn->env.committer ||
		    !((u->flags & REF_NEEDS_COMMIT) ||
		      ((u->flags & REF_LOG_ONLY) &&
		       (u->flags & REF_HAVE_NEW))))
			continue;
		ret = check_log(txn->rs, u->name, &u->flags);
		if (ret < 0) {
			ret = txn_wrap_error("cannot update the ref '%s'",
					 u->name);
			goto fail;
		}
	}
done:
	txn->state = TXN_PREPARED;
	strbuf_release(&head);
	return 0;
fail:
	release_all(txn);
	txn->state = TXN_CLOSED;
	strbuf_release(&head);
	return ret;
}

/* ---- commit ---- */

/* git's copy_reflog_msg(): whitespace runs squashed, ends trimmed. */
void
txn_add_log_msg(struct strbuf *line, const char *msg)
{
	size_t start = line->len;
	int space = 1;

	strbuf_addch(line, '\t');
	for (const char *p = msg; *p; p++) {
		int c = (unsigned char)*p;

		if (space && refs_isspace(c))
			continue;
		space = refs_isspace(c);
		strbuf_addch(line, space ? ' ' : c);
	}
	while (line->len > start && refs_isspace(line->buf[line->len - 1]))
		strbuf_setlen(line, line->len - 1);
}

/*
 * Append one reflog line for name (old -> new) as prepare checked it
 * can be; record it in undo.  0 or a negative E_*.
 */
static int
append_log(struct ref_txn *txn, const char *name, unsigned flags,
	   const struct object_id *old_oid, const struct object_id *new_oid,
	   const char *msg, struct log_undo *undo)
{
	struct ref_store *rs = txn->rs;
	struct strbuf path = STRBUF_INIT, shown = STRBUF_INIT,
		      line = STRBUF_INIT;
	struct stat st;
	int fd = -1, ret = 0;

	refs_log_path(&path, rs, name, 0);
	refs_log_path(&shown, rs, name, 1);
	if (flags & REF_LOG_CREATE) {
		if (!stat(path.buf, &st) && S_ISDIR(st.st_mode))
			refs_remove_empty_dirs(path.buf);
		if (make_dirs(txn, path.buf, store_base_len(rs, name))) {
			ret = error_set(E_IO, "unable to create directory for "
					"'%s'", shown.buf);
			goto out;
		}
	}
	undo->existed = !stat(path.buf, &st);
	undo->size = undo->existed ? st.st_size : 0;
	fd = open(path.buf, O_WRONLY | O_APPEND | O_CLOEXEC |
		  (flags & REF_LOG_CREATE ? O_CREAT : 0), 0666);
	if (fd < 0) {
		ret = error_errno(errno, "unable to append to '%s'",
				  shown.buf);
		goto out;
	}
	/* core.sharedRepository: a new log gets the shared mode */
	if (!undo->existed && (ret = perm_adjust(path.buf)) < 0) {
		close(fd);
		unlink(path.buf);
		goto out;
	}
	undo->path = strbuf_detach(&path, NULL);
	strbuf_addf(&line, "%s ", oid_to_hex(old_oid));
	strbuf_addf(&line, "%s %s", oid_to_hex(new_oid), txn->env.committer);
	if (msg && *msg)
		txn_add_log_msg(&line, msg);
	strbuf_addch(&line, '\n');
	if (write_full(fd, line.buf, line.len) < 0)
		ret = error_errno(errno, "unable to append to '%s'",
				  shown.buf);
	if (close(fd) < 0 && !ret)
		ret = error_errno(errno, "unable to append to '%s'",
				  shown.buf);
out:
	strbuf_release(&path);
	strbuf_release(&shown);
	strbuf_release(&line);
	return ret;
}

/* Take back what append_log() recorded in undo, and forget it. */
static void
undo_log(struct log_undo *undo)
{
	if (!undo->path)
		return;
	if (undo->existed)
		(void)!truncate(undo->path, undo->size);
	else
		unlink(undo->path);
	free(undo->path);
	undo->path = NULL;
}

/* Every reflog line, or none: a failure truncates what was appended. */
static int
write_logs(struct ref_txn *txn)
{
	struct log_undo *undo = xcalloc(txn->nr ? txn->nr : 1,
					sizeof(*undo));
	size_t n = 0;
	int ret = 0;

	for (size_t i = 0; i < txn->nr && !ret; i++) {
		struct ref_update *u = txn->u[i];

		if (!(u->flags & REF_WRITES_LOG) || !txn_target_value(txn, u))
			continue;
		ret = append_log(txn, u->name, u->flags, &u->cur, &u->new_oid,
				 u->msg, &undo[n]);
		if (ret < 0)
			ret = txn_wrap_error("cannot update the ref '%s'",
					 u->name);
		if (undo[n].path)
			n++;
	}
	for (size_t i = 0; i < n; i++) {
		if (ret < 0)
			undo_log(&undo[i]);
		free(undo[i].path);
	}
	free(undo);
	return ret;
}

/* Rename u's lock over its ref, removing empty directories in the way. */
static int
commit_ref(struct ref_update *u)
{
	struct stat st;
	int ret;

	if (!lstat(u->lk.target, &st) && S_ISDIR(st.st_mode))
		refs_remove_empty_dirs(u->lk.target);
	ret = lockfile_commit(&u->lk, SYNC_NONE);
	if (ret < 0)
		return txn_wrap_error("couldn't set '%s'", u->name);
	trace_step("ref updated");
	return 0;
}

int
txn_is_deletion(const struct ref_update *u)
{
	return (u->flags & REF_DELETING) && !(u->flags & REF_LOG_ONLY);
}

int
refs_txn_commit(struct ref_txn *txn)
{
	struct ref_store *rs = txn->rs;
	struct strbuf path = STRBUF_INIT;
	int ret = 0;

	if (txn->state == TXN_OPEN) {
		ret = refs_txn_prepare(txn);
		if (ret < 0)
			return ret;
	}
	if (txn->state != TXN_PREPARED)
		BUG("commit of a transaction that is not prepared");
	if (rs->reftable) {
		ret = txn_rt_commit(txn);
		release_all(txn);
		txn->state = TXN_CLOSED;
		return ret;
	}

	/* new values (and their reflogs) first */
	ret = write_logs(txn);
	for (size_t i = 0; i < txn->nr && !ret; i++)
		if (txn->u[i]->flags & REF_NEEDS_COMMIT)
			ret = commit_ref(txn->u[i]);
	if (ret < 0)
		goto out;

	/* then the deletions: reflogs, packed copies, loose files */
	for (size_t i = 0; i < txn->nr; i++) {
		struct ref_update *u = txn->u[i];

		if (!txn_is_deletion(u))
			continue;
		refs_log_path(&path, rs, u->name, 0);
		if (unlink(path.buf) < 0 && errno != ENOENT) {
			struct strbuf shown = STRBUF_INIT;

			refs_log_path(&shown, rs, u->name, 1);
			diag_emit(DIAG_WARNING, "unable to unlink '%s': %s",
				  shown.buf, strerror(errno));
			strbuf_release(&shown);
		}
		remove_empty_parents(rs, u->name, 1);
	}
	if (lockfile_is_held(&txn->packed_new)) {
		ret = lockfile_commit(&txn->packed_new, SYNC_NONE);
		refs_packed_forget(rs);
		if (ret < 0) {
			ret = txn_wrap_error("error replacing %s/packed-refs",
					 rs->commondir_shown);
			goto out;
		}
		trace_step("ref deleted");
	}
	for (size_t i = 0; i < txn->nr; i++) {
		struct ref_update *u = txn->u[i];

		if (!txn_is_deletion(u) || ((u->type & REF_ISPACKED) &&
					!(u->type & REF_ISSYMREF)))
			continue;
		refs_loose_path(&path, rs, u->name);
		if (unlink(path.buf) < 0 && errno != ENOENT) {
			ret = error_errno(errno, "unable to unlink '%s'",
					  path.buf);
			goto out;
		}
		trace_step("ref deleted");
	}
out:
	release_all(txn);
	if (!ret)
		for (size_t i = 0; i < txn->nr; i++)
			if (txn_is_deletion(txn->u[i]))
				remove_empty_parents(rs, txn->u[i]->name, 0);
	txn->state = TXN_CLOSED;
	strbuf_release(&path);
	return ret;
}

void
refs_txn_abort(struct ref_txn *txn)
{
	if (!txn || txn->state == TXN_CLOSED)
		return;
	release_all(txn);
	txn->state = TXN_CLOSED;
}

void
refs_txn_free(struct ref_txn *txn)
{
	if (!txn)
		return;
	refs_txn_abort(txn);
	for (size_t i = 0; i < txn->nr; i++) {
		lockfile_rollback(&txn->u[i]->lk);
		free(txn->u[i]->reject_msg);
	}
	mempool_release(&txn->updates);
	arena_release(&txn->strings);
	free(txn->u);
	free(txn->rejected);
	ref_names_release(&txn->names);
	for (size_t i = 0; i < txn->dirs_nr; i++)
		free(txn->dirs[i]);
	free(txn->dirs);
	free(txn);
}

int
refs_update(struct ref_store *rs, const char *name,
	    const struct object_id *new_oid, const struct object_id *old_oid,
	    unsigned flags, const char *msg, const struct ref_txn_env *env)
{
	struct ref_txn *txn = refs_txn_begin(rs, env);
	int ret = refs_txn_update(txn, name, new_oid, old_oid, flags, msg);

	if (!ret)
		ret = refs_txn_commit(txn);
	refs_txn_free(txn);
	return ret;
}

/* ---- symbolic refs ---- */

int
refs_set_symref(struct ref_store *rs, const char *name, const char *target,
		const char *msg, const struct ref_txn_env *env)
{
	struct ref_txn *txn = refs_txn_begin(rs, env);
	struct lockfile lk = LOCKFILE_INIT;
	struct strbuf path = STRBUF_INIT, content = STRBUF_INIT;
	char *log_error = NULL;
	struct object_id old_oid, new_oid;
	struct log_undo undo = { NULL, 0, 0 };
	unsigned flags = 0;
	struct stat st;
	int ret, has_new;

	if (!refname_is_valid(name, REFNAME_ALLOW_ONELEVEL)) {
		ret = bad_name(name);
		goto out;
	}
	if (rs->reftable) {
		ret = txn_rt_set_symref(rs, name, target, msg, env);
		goto out;
	}
	refs_packed_forget(rs);
	/* git checks packed refs here; a loose one stops the lock below */
	ret = refs_check_available(rs, name, NULL, 0);
	if (ret < 0)
		goto out;
	refs_loose_path(&path, rs, name);
	for (int attempt = 0;; attempt++) {
		ret = lockfile_hold_timeout(&lk, path.buf,
					    rs->lock_timeout_ms);
		if (ret != -E_NOTFOUND || attempt == 2 ||
		    make_dirs(txn, path.buf, store_base_len(rs, name)))
			break;	/* the lock's own error says why */
		error_clear();
	}
	if (ret < 0)
		goto out;

	if (refs_resolve_ref(rs, name, 0, &old_oid, NULL, NULL) < 0)
		old_oid = null_oid;
	has_new = !refs_resolve_ref(rs, target, REFS_RESOLVE_READING,
				    &new_oid, NULL, NULL);
	error_clear();
	/* git writes the reflog first, reporting (only) what fails there */
	if (has_new && env && env->committer &&
	    check_log(rs, name, &flags) < 0)
		log_error = xstrdup(error_msg());
	if (!lstat(path.buf, &st) && S_ISDIR(st.st_mode) &&
	    !refs_dir_holds_no_file(path.buf)) {
		/* git fails on the rename; fail before writing anything */
		ret = error_set_pre(E_EXISTS, log_error, "unable to write "
				    "symref for %s: %s", name,
				    strerror(EISDIR));
		goto out;
	}
	/*
	 * As git, the reflog line before the symref, so that a full disk
	 * reports both; unlike git, the line is taken back when the
	 * symref then cannot be written.
	 */
	if (!log_error && (flags & REF_WRITES_LOG)) {
		txn->env = *env;
		if (append_log(txn, name, flags, &old_oid, &new_oid, msg,
			       &undo) < 0) {
			log_error = xstrdup(error_msg());
			undo_log(&undo);	/* a line half written */
		}
	}
	strbuf_addf(&content, "ref: %s\n", target);
	if (write_full(lk.fd, content.buf, content.len) < 0) {
		ret = error_set_pre(error_code_of_errno(errno), log_error,
				    "unable to write symref for %s: %s", name,
				    strerror(errno));
		goto out;
	}
	if (!lstat(path.buf, &st) && S_ISDIR(st.st_mode))
		refs_remove_empty_dirs(path.buf);
	ret = lockfile_commit(&lk, ref_sync(rs));
	if (ret < 0) {
		ret = error_set_pre(-ret, log_error, "unable to write symref "
				    "for %s: %s", name, strerror(errno));
		goto out;
	}
	trace_step("symbolic ref updated");
	free(undo.path);	/* the line stays */
	undo.path = NULL;
	if (log_error) {
		ret = 1;	/* written, but not logged */
		error_set(E_IO, "%s", log_error);
	}
out:
	undo_log(&undo);	/* the symref was not written */
	lockfile_rollback(&lk);
	refs_txn_free(txn);	/* and the directories made, if empty */
	free(log_error);
	strbuf_release(&path);
	strbuf_release(&content);
	return ret;
}
