/*
 * refs: reference names and the files reference store — loose refs
 * (one file per ref holding 40 hex digits, or "ref: <target>" for a
 * symbolic ref) and packed-refs (one "<hex> <name>" line per ref, each
 * annotated tag followed by a "^<peeled hex>" line).  Loose refs win over
 * packed ones.  HEAD and other per-worktree refs live in the git
 * directory, the rest in the common directory.
 *
 * Reading is refs.c; writing (transactions, symbolic refs, reflogs,
 * rewriting packed-refs) is refs-txn.c.  Every write goes through a
 * transaction that checks everything (names, conflicts between names,
 * old values, objects, reflog paths) and takes every lock before it
 * writes anything, so a write that fails leaves refs, packed-refs and
 * reflogs as they were.
 */
#ifndef DIRC_REFS_H
#define DIRC_REFS_H

#include "hash.h"
#include "lockfile.h"
#include "strbuf.h"

enum refname_flags {
	REFNAME_ALLOW_ONELEVEL = 1 << 0,	/* "HEAD", "master" */
};

/*
 * Is name a well-formed reference name (git check-ref-format's rules)?
 * 1 or 0.
 */
int refname_is_valid(const char *name, unsigned flags);

/*
 * May name be used as a path below the git directory, even if it is not
 * well-formed (git's rule for what may be deleted): "refs/" then
 * components that are not empty, "." or "..", or a one-level name of
 * capitals and '_'.  1 or 0.
 */
int refname_is_safe(const char *name);

struct reftable_stack;

struct packed_ref {
	char *name;			/* owned */
	struct object_id oid;
	struct object_id peeled;	/* valid if has_peeled */
	int has_peeled;
	int knows_peeled;		/* has_peeled says all: the file's
					 * traits or a "^" line say so */
};

struct ref_store {
	char *gitdir;		/* absolute; owned */
	char *commondir;	/* absolute; owned */
	char *gitdir_shown;	/* as git names it in messages (".git"); owned */
	char *commondir_shown;	/* the same for the common directory; owned */
	struct packed_ref *packed;	/* owned; sorted by name */
	size_t packed_nr, packed_alloc;
	int packed_loaded;
	unsigned flags;		/* REF_LOG_*, REF_FSYNC* for every write */
	long lock_timeout_ms;	/* core.filesRefLockTimeout (100) */
	long packed_timeout_ms;	/* core.packedRefsTimeout (1000) */
	/*
	 * extensions.refStorage=reftable: refs live in reftable stacks,
	 * "<commondir>/reftable" (and, in a linked worktree, its own
	 * per-worktree refs in "<gitdir>/reftable"), opened on first use
	 * and shared by every store of the process; loose files and
	 * packed-refs are not looked at.
	 */
	int reftable;
	struct reftable_stack *rt_common, *rt_own;	/* shared, process-wide */
	unsigned rt_fresh;	/* 1, 2: rt_common, rt_own reloaded since the
				 * store was made or packed refs forgotten */
};

/* A store for gitdir; messages name the directories as given. */
void ref_store_init(struct ref_store *rs, const char *gitdir,
		    const char *commondir);

struct repo;
/*
 * The store of repo, with its settings (reflogs, fsync, lock timeouts)
 * and the directory names git would print (".git" in a work tree, the
 * value of GIT_DIR when that is set).
 */
void ref_store_init_repo(struct ref_store *rs, const struct repo *repo);
void ref_store_release(struct ref_store *rs);

/* The file a loose ref lives in, replacing out. */
void refs_loose_path(struct strbuf *out, const struct ref_store *rs,
		     const char *name);

/*
 * Read ref name without following symbolic refs.  0 with *oid set, 1
 * with symref set to the target (for "ref: <target>"), -E_NOTFOUND, or
 * -E_CORRUPT for a loose file that is neither.
 */
int refs_read_raw(struct ref_store *rs, const char *name,
		  struct object_id *oid, struct strbuf *symref);

/*
 * Resolve name, following symbolic refs (at most 5 reads, as git).  0
 * with *oid set and (if resolved is not NULL) the final ref name in
 * resolved; -E_NOTFOUND if a ref in the chain does not exist (resolved
 * then names the missing one: an unborn branch), or another negative E_*.
 */
int refs_resolve(struct ref_store *rs, const char *name,
		 struct object_id *oid, struct strbuf *resolved);

enum ref_type {
	REF_ISSYMREF = 1 << 0,	/* a symbolic ref was read */
	REF_ISPACKED = 1 << 1,	/* the value came from packed-refs */
	REF_ISBROKEN = 1 << 2,	/* a loose file that is not a ref */
};

enum refs_resolve_flags {
	REFS_RESOLVE_READING = 1 << 0,	/* the ref must exist */
	REFS_RESOLVE_NO_RECURSE = 1 << 1,	/* stop after one symbolic ref */
};

/*
 * git's resolve_ref_unsafe(): follow name through symbolic refs.  0 with
 * resolved set to the last name reached, *oid to its value (the null id
 * if it does not exist, or after one level with NO_RECURSE), and *type
 * (REF_ISSYMREF if a symbolic ref was followed); -E_NOTFOUND for a
 * missing ref with READING; -E_CORRUPT for a broken ref, a bad name or
 * too many levels.  resolved and type may be NULL.
 */
int refs_resolve_ref(struct ref_store *rs, const char *name, unsigned flags,
		     struct object_id *oid, struct strbuf *resolved,
		     unsigned *type);

/*
 * Load packed-refs (once).  0 or -E_CORRUPT with git's message
 * ("unexpected line in <file>: <line>").
 */
int refs_load_packed(struct ref_store *rs);
/* The packed entry for name, or NULL. */
const struct packed_ref *refs_find_packed(struct ref_store *rs,
					  const char *name);

enum ref_update_flags {
	REF_NO_DEREF = 1 << 0,		/* update a symbolic ref itself */
	REF_CREATE_REFLOG = 1 << 1,	/* log even where git would not */
	REF_FSYNC = 1 << 2,		/* core.fsync includes "reference" */
	REF_LOG_ALL = 1 << 3,		/* core.logAllRefUpdates=true */
	REF_LOG_ALWAYS = 1 << 4,	/* core.logAllRefUpdates=always */
	REF_SKIP_OBJECT_CHECK = 1 << 5,
	REF_FSYNC_WRITEOUT = 1 << 6,	/* with REF_FSYNC: write-out only */
};

/* The REF_LOG_* and REF_FSYNC flags the repository's settings ask for. */
unsigned refs_flags_for(const struct repo *repo);

/* The type of an object (OBJ_*), or negative if it is missing. */
typedef int (*ref_type_fn)(void *ctx, const struct object_id *oid);
/*
 * What an annotated tag peels to: 0 with *peeled set, or -1 if oid is
 * not a tag (or cannot be read).
 */
typedef int (*ref_peel_fn)(void *ctx, const struct object_id *oid,
			   struct object_id *peeled);

/* What writing refs needs from outside the ref store. */
struct ref_txn_env {
	const char *committer;	/* "Name <email> <epoch> <tz>" for reflog
				 * lines; borrowed; NULL: write no reflog */
	ref_type_fn type_of;	/* checks new values; NULL: no check */
	ref_peel_fn peel;	/* for packed-refs rewritten without peeled
				 * lines; NULL: leave them out */
	void *ctx;		/* passed to type_of and peel */
};

/*
 * A transaction: updates, deletions and checks that all happen or none.
 *
 *	txn = refs_txn_begin(rs, &env);
 *	refs_txn_update(txn, ...)...	queue (names are checked here)
 *	refs_txn_prepare(txn)		lock and check everything
 *	refs_txn_commit(txn)		write (prepares first if needed)
 *	refs_txn_free(txn)		releases whatever is still held
 *
 * Prepare follows symbolic refs (a symbolic ref updated through is locked
 * and logged too), adds HEAD's reflog when the branch HEAD points to
 * changes, refuses a ref named twice and every name conflict (a ref and
 * a ref below it: loose, packed or in the same transaction), checks old
 * values (new objects are checked as they are queued), and takes every
 * lock, packed-refs.lock included when something is deleted.  Nothing
 * is written before all of it passed.  Errors carry git's messages
 * ("cannot lock ref '<ref>': ...").
 */
struct ref_txn;

struct ref_txn *refs_txn_begin(struct ref_store *rs,
			       const struct ref_txn_env *env);

/*
 * Queue a change of ref name (REF_NO_DEREF, REF_CREATE_REFLOG and
 * REF_SKIP_OBJECT_CHECK in flags).  new_oid: the value to set, the null
 * id to delete, NULL to only verify.  old_oid: NULL for no check, the
 * null id for "must not exist", else the value it must have.  msg: the
 * reflog message (copied; NULL for none).  0, or -E_INVALID ("refusing
 * to update ref with bad name '<name>'") and nothing queued.  Only
 * before prepare.
 */
int refs_txn_update(struct ref_txn *txn, const char *name,
		    const struct object_id *new_oid,
		    const struct object_id *old_oid, unsigned flags,
		    const char *msg);

/*
 * refs_txn_update() for symbolic refs as well: at most one of new_oid
 * and new_target (make name a symbolic ref to it, "ref: <target>"), at
 * most one of old_oid and old_target (name must be a symbolic ref to
 * it: "verifying symref target: ..." or "expected symref with target
 * ..." at prepare).  Neither new value: only verify.  A target is used
 * as given (the caller checks its name); a symbolic ref is logged with
 * the value its target has, and not at all when that has none, as git
 * does.  Through a symbolic ref (no REF_NO_DEREF) the targets go to the
 * ref it points to, as git's do.  Like git 2.55, a new object is
 * checked here, under name: -E_NOTFOUND ("trying to write ref '<name>'
 * with nonexistent object <oid>") or -E_INVALID ("trying to write
 * non-commit object <oid> to branch '<name>'"), nothing queued.
 * Strings are copied.
 */
int refs_txn_update_target(struct ref_txn *txn, const char *name,
			   const struct object_id *new_oid,
			   const char *new_target,
			   const struct object_id *old_oid,
			   const char *old_target, unsigned flags,
			   const char *msg);

/*
 * Why an update of a transaction that allows rejections was rejected
 * (git 2.51's "--batch-updates"): failures that are the ref's own, as
 * opposed to failures of the store.
 */
enum ref_reject {
	REF_REJECT_NONE = 0,
	REF_REJECT_NAME_CONFLICT,	/* a ref above or below it */
	REF_REJECT_EXISTS,		/* it was to be created */
	REF_REJECT_MISSING,		/* it was expected to exist */
	REF_REJECT_OLD_VALUE,		/* it has another value */
	REF_REJECT_NEW_VALUE,		/* a missing object, a non-commit
					 * for a branch */
	REF_REJECT_NOT_SYMREF,		/* an old target, a regular ref */
};

/* git's words for why ("incorrect old value provided"). */
const char *refs_reject_reason(enum ref_reject why);

/*
 * From now on, an update that fails for a reason of its own is rejected
 * rather than failing the transaction: refs_txn_update*() return 1 for
 * a new object they refuse (the message in the error slot, nothing
 * queued, the reason REF_REJECT_NEW_VALUE); prepare drops an update that
 * fails for a ref_reject reason (with whatever it brought in: the
 * updates of the symbolic refs it went through, HEAD's log line) and
 * goes on with the others.  Other failures still fail it all.
 */
void refs_txn_allow_rejections(struct ref_txn *txn);

/*
 * One rejected update, as queued (or split off a symbolic ref): a value
 * or target that was not given is NULL.  msg is git's message for it.
 */
typedef void (*ref_reject_fn)(void *ctx, const char *name,
			      const struct object_id *new_oid,
			      const char *new_target,
			      const struct object_id *old_oid,
			      const char *old_target, enum ref_reject why,
			      const char *msg);

/* Call fn for every update prepare rejected, in the order it did. */
void refs_txn_for_each_rejected(struct ref_txn *txn, ref_reject_fn fn,
				void *ctx);

/* Lock and check everything.  0, or a negative E_* with all released. */
int refs_txn_prepare(struct ref_txn *txn);

/*
 * Prepare if not done yet, then write: new values and reflogs first,
 * then deletions (packed-refs through packed-refs.new, loose files,
 * their reflogs, directories they leave empty).  0 or a negative E_*.
 */
int refs_txn_commit(struct ref_txn *txn);

/* Release every lock; nothing is written.  The transaction is closed. */
void refs_txn_abort(struct ref_txn *txn);

/* Abort if still open or prepared, and free; NULL is fine. */
void refs_txn_free(struct ref_txn *txn);

/*
 * One update in a transaction of its own (refs_txn_update() and
 * refs_txn_commit()): set (or, with the null id, delete) name.
 */
int refs_update(struct ref_store *rs, const char *name,
		const struct object_id *new_oid,
		const struct object_id *old_oid, unsigned flags,
		const char *msg, const struct ref_txn_env *env);

/*
 * Make name a symbolic ref to target ("ref: <target>") under its lock,
 * checking name (well-formed, no ref above or below it, no directory in
 * the way) first.  msg and the environment's committer: the line for
 * name's reflog, written when target has a value.  0; 1 when the
 * symbolic ref was written but its reflog was not (the message says
 * why); or a negative E_* with nothing written.
 */
int refs_set_symref(struct ref_store *rs, const char *name,
		    const char *target, const char *msg,
		    const struct ref_txn_env *env);

/*
 * The shortest name full can be written as (git 2.40's rules, what
 * "rev-parse --abbrev-ref" and "symbolic-ref --short" print): by the
 * rules "<x>", "refs/<x>", "refs/tags/<x>", "refs/heads/<x>",
 * "refs/remotes/<x>", "refs/remotes/<x>/HEAD", tried from the most
 * specific, the first that matches full (its prefix, then anything, then
 * its suffix) and whose <x> no earlier rule (with strict: no other rule)
 * turns into an existing ref.  Else full itself.  Appended to out.
 */
void refs_shorten_unambiguous(struct strbuf *out, struct ref_store *rs,
			      const char *full, int strict);

/* Replace control bytes with '?' for messages, as git prints names. */
void refs_printable_name(struct strbuf *out, const char *name);

/*
 * The HEAD of the repository whose work tree is at path (a submodule):
 * 0 with *oid set, or a negative E_* if it has none.
 */
int refs_resolve_gitlink(struct object_id *out, const char *path);

#endif
