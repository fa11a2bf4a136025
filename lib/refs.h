/*
 * refs: reference names and the files reference store — loose refs
 * (one file per ref holding 40 hex digits, or "ref: <target>" for a
 * symbolic ref) and packed-refs (one "<hex> <name>" line per ref, each
 * annotated tag followed by a "^<peeled hex>" line).  Loose refs win over
 * packed ones.  HEAD and other per-worktree refs live in the git
 * directory, the rest in the common directory.
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

struct packed_ref {
	char *name;			/* owned */
	struct object_id oid;
	struct object_id peeled;	/* valid if has_peeled */
	int has_peeled;
};

struct ref_store {
	char *gitdir;		/* owned */
	char *commondir;	/* owned */
	struct packed_ref *packed;	/* owned; sorted by name */
	size_t packed_nr, packed_alloc;
	int packed_loaded;
};

void ref_store_init(struct ref_store *rs, const char *gitdir,
		    const char *commondir);
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
 * Resolve name, following symbolic refs (at most 5 levels).  0 with *oid
 * set and (if resolved is not NULL) the final ref name in resolved;
 * -E_NOTFOUND if a ref in the chain does not exist (resolved then names
 * the missing one: an unborn branch), or another negative E_*.
 */
int refs_resolve(struct ref_store *rs, const char *name,
		 struct object_id *oid, struct strbuf *resolved);

/* Load packed-refs (once).  0 or -E_CORRUPT. */
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

/*
 * Set ref name (following a symbolic ref unless REF_NO_DEREF) to
 * new_oid, under "<ref>.lock".  old_oid: NULL for no check, the null id
 * for "must not exist yet", else the value it must have.  committer is
 * the identity line for the reflog ("Name <email> <epoch> <tz>"); msg is
 * the reflog message.  The object must exist, and a branch
 * (refs/heads/) must point to a commit.  0, or a negative E_* with
 * git's message ("cannot lock ref '<ref>': is at <x> but expected
 * <y>", ...).  objects_check(oid, ctx) answers the type of an object
 * (OBJ_BAD if missing) so refs need not know the object store.
 */
typedef int (*ref_type_fn)(void *ctx, const struct object_id *oid);
int refs_update(struct ref_store *rs, const char *name,
		const struct object_id *new_oid,
		const struct object_id *old_oid, const char *committer,
		const char *msg, unsigned flags, ref_type_fn type_of,
		void *ctx);

/*
 * A transaction: several updates, deletions and checks that all happen
 * or none.  Every ref is locked and its old value checked before the
 * first is written.
 */
enum ref_op { REF_OP_UPDATE, REF_OP_DELETE, REF_OP_VERIFY };

struct ref_update {
	enum ref_op op;
	char *name;		/* as given; owned */
	char *ref;		/* after following symbolic refs; owned */
	struct object_id new_oid, old_oid;
	int have_old;
	int via_head;		/* named through HEAD: log HEAD too */
	unsigned flags;
	struct lockfile lk;
	struct lockfile sym_lk;	/* name itself, held when it is symbolic */
	struct object_id cur;	/* value when locked */
	int missing;		/* it had no value */
};

struct ref_txn {
	struct ref_store *rs;	/* borrowed */
	struct ref_update *u;	/* owned */
	size_t nr, alloc;
	const char *committer;	/* identity for reflogs; borrowed */
	const char *msg;	/* reflog message; borrowed */
	size_t failed_at;
};

void refs_txn_init(struct ref_txn *txn, struct ref_store *rs);
void refs_txn_release(struct ref_txn *txn);
/* old_oid: NULL (no check), the null id (must not exist), or a value. */
void refs_txn_update(struct ref_txn *txn, const char *name,
		     const struct object_id *new_oid,
		     const struct object_id *old_oid, unsigned flags);
void refs_txn_delete(struct ref_txn *txn, const char *name,
		     const struct object_id *old_oid, unsigned flags);
/* old_oid NULL or null: must not exist. */
void refs_txn_verify(struct ref_txn *txn, const char *name,
		     const struct object_id *old_oid, unsigned flags);
/* Lock and check all, then write all.  0 or the first negative E_*. */
int refs_txn_commit(struct ref_txn *txn, ref_type_fn type_of, void *ctx);

/*
 * Delete ref name (loose and packed, and its reflog), checking old_oid
 * as refs_update does.  Deleting a ref that does not exist succeeds.
 */
int refs_delete(struct ref_store *rs, const char *name,
		const struct object_id *old_oid, unsigned flags);

/*
 * Make name a symbolic ref to target ("ref: <target>").  With msg and
 * committer, log the change to name's reflog.
 */
int refs_set_symref(struct ref_store *rs, const char *name,
		    const char *target, const char *committer,
		    const char *msg, unsigned flags);

struct repo;
/* The REF_LOG_* and REF_FSYNC flags the repository's settings ask for. */
unsigned refs_flags_for(const struct repo *repo);

/* Replace control bytes with '?' for messages, as git prints names. */
void refs_printable_name(struct strbuf *out, const char *name);

/*
 * The HEAD of the repository whose work tree is at path (a submodule):
 * 0 with *oid set, or a negative E_* if it has none.
 */
int refs_resolve_gitlink(struct object_id *out, const char *path);

#endif
