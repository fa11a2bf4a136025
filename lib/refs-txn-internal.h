/*
 * refs-txn-internal: what the transaction code of the two ref stores
 * shares (refs-txn.c, the files store and the transaction itself;
 * refs-txn-reftable.c, the reftable store's prepare and commit).  Not
 * for other callers: they use refs.h.
 */
#ifndef DIRC_REFS_TXN_INTERNAL_H
#define DIRC_REFS_TXN_INTERNAL_H

#include "lockfile.h"
#include "mempool.h"
#include "refs-internal.h"
#include "refs.h"
#include "strbuf.h"

struct reftable_addition;

/* Flags refs_txn_update() takes from its caller. */
#define REF_CALLER_FLAGS (REF_NO_DEREF | REF_CREATE_REFLOG | \
			  REF_SKIP_OBJECT_CHECK)

/* Flags of an update that only this file sets. */
enum ref_update_state {
	REF_HAVE_NEW = 1 << 16,		/* new_oid is set (else: verify) */
	REF_HAVE_OLD = 1 << 17,		/* old_oid is to be checked */
	REF_DELETING = 1 << 18,		/* new_oid is null */
	REF_LOG_ONLY = 1 << 19,		/* lock and log, do not write */
	REF_VIA_HEAD = 1 << 20,		/* reached through HEAD */
	REF_NEEDS_COMMIT = 1 << 21,	/* the lock holds the new value */
	REF_WRITES_LOG = 1 << 22,	/* a reflog line will be written */
	REF_LOG_CREATE = 1 << 23,	/* ... creating the log if needed */
	REF_RT_WRITE = 1 << 24,		/* reftable: goes into the new table */
	REF_DROPPED = 1 << 25,		/* rejected, or brought in by one */
	REF_CHECK_NAME = 1 << 26,	/* new: its name is checked after the
					 * others were locked (git 2.55) */
};

/* Its strings (but reject_msg) live in the transaction's arena. */
struct ref_update {
	char *name;		/* the ref locked and written */
	struct object_id new_oid, old_oid;
	unsigned flags;		/* REF_CALLER_FLAGS and ref_update_state */
	char *msg;		/* reflog message; NULL for none */
	char *new_target;	/* make it a symbolic ref to this */
	char *old_target;	/* it must be a symbolic ref to this */
	struct ref_update *parent;	/* the symbolic ref this update was
					 * reached through; NULL if named */
	struct lockfile lk;	/* "<ref>.lock" while prepared */
	struct object_id cur;	/* the value under the lock (null: none) */
	unsigned type;		/* REF_IS* of what was read under the lock */
	size_t group;		/* index of the update queued by the caller
				 * that this one was split off */
	enum ref_reject why;	/* set where a failure of its own is found */
	char *reject_msg;	/* rejected: the message; owned */
	unsigned reject_flags;	/* rejected: flags as they were */
};

enum txn_state { TXN_OPEN, TXN_PREPARED, TXN_CLOSED };

/* A reflog appended to by commit, to undo it if a later one fails. */
struct log_undo {
	char *path;		/* owned */
	off_t size;		/* its size before */
	int existed;
};

struct ref_txn {
	struct ref_store *rs;		/* borrowed */
	struct ref_txn_env env;
	struct ref_update **u;		/* owned, in order of processing */
	size_t nr, alloc;
	enum txn_state state;
	struct ref_names names;		/* every name of u[], sorted */
	struct lockfile packed_lock;	/* packed-refs.lock */
	struct lockfile packed_new;	/* packed-refs.new */
	char **dirs;			/* directories made; owned */
	size_t dirs_nr, dirs_alloc;
	/* reftable: the additions holding tables.list.lock (common, own) */
	struct reftable_addition *rt_add[2];
	int allow_reject;		/* refs_txn_allow_rejections() */
	size_t *rejected;		/* indexes into u[], in order */
	size_t rejected_nr, rejected_alloc;
	/*
	 * Where the updates and their strings (name, msg, targets) live:
	 * a --stdin of many refs costs no malloc per update, and one
	 * message given to all of them is stored once.
	 */
	struct mempool updates;
	struct arena strings;
	const char *last_msg;		/* the message last stored ... */
	char *last_msg_copy;		/* ... and its copy in strings */
};

/* ---- shared by both stores (refs-txn.c) ---- */

/* The name an update was asked for: the symbolic ref it came through. */
const char *txn_asked_name(const struct ref_update *u);

/* Wrap this thread's error as "<fmt...>: <error>". */
PRINTF_LIKE(1, 2) int txn_wrap_error(const char *fmt, ...);

/* Does u need the ref to exist (an old value that is not "none")? */
int txn_expects_existing(const struct ref_update *u);

/* Does u delete its ref? */
int txn_is_null_new(const struct ref_update *u);

/* Is this update a deletion of its ref? */
int txn_is_deletion(const struct ref_update *u);

/*
 * The start of both stores' prepare of u: a deletion marked, and HEAD's
 * log line split off when u moves the branch HEAD (head_ref, or NULL)
 * points to.  0 or a negative E_* (two updates of HEAD).
 */
int txn_prepare_start(struct ref_txn *txn, struct ref_update *u,
		      const char *head_ref);

/*
 * u names a symbolic ref itself (REF_NO_DEREF) pointing at target: set
 * u->cur to the value it points at.  1, or 0 if the target has none,
 * or a negative E_* when an old value was to be checked.
 */
int txn_symref_value(struct ref_txn *txn, struct ref_update *u,
		     const char *target);

/* u is a symbolic ref: lock and log it, and update what it points to. */
int txn_split_symref(struct ref_txn *txn, struct ref_update *u,
		     const char *target);

/*
 * u names a symbolic ref itself (REF_NO_DEREF) whose target does not
 * exist: a creation would replace it, which git 2.45 refuses.
 */
int txn_dangling_symref(struct ref_update *u);

/*
 * The symbolic ref u must point to u->old_target; it points to referent
 * ("" for none).
 */
int txn_check_old_target(struct ref_update *u, const char *referent);

/* u must be a symbolic ref (it has an old target) but is a plain one. */
int txn_not_a_symref(struct ref_update *u);

/* git's check_old_oid(), with git's three messages. */
int txn_check_old(struct ref_update *u);

/* Is name one whose reflog git creates by itself? */
int txn_autocreates_log(const struct ref_store *rs, const char *name);

/* git's copy_reflog_msg(): whitespace runs squashed, ends trimmed. */
void txn_add_log_msg(struct strbuf *line, const char *msg);

/*
 * A symbolic ref written by u is logged with the value of its target
 * (as it is before the transaction): sets u->new_oid.  0 if the target
 * has no value (git then writes no reflog line), else 1.
 */
int txn_target_value(struct ref_txn *txn, struct ref_update *u);

/* ---- the reftable store (refs-txn-reftable.c) ---- */

/*
 * Take tables.list.lock of every stack the transaction may write (the
 * worktree's own as well in a linked worktree).
 */
int txn_rt_lock(struct ref_txn *txn);

/* Prepare one update in a reftable store (the stack is locked). */
int txn_rt_prepare_one(struct ref_txn *txn, struct ref_update *u,
		       const char *head_ref);

/* Will u write a reflog entry?  Sets REF_WRITES_LOG. */
void txn_rt_check_log(struct ref_store *rs, struct ref_update *u);

/* Write the transaction's table into each stack it touches. */
int txn_rt_commit(struct ref_txn *txn);

/* refs_set_symref() of a reftable store: one table, under its lock. */
int txn_rt_set_symref(struct ref_store *rs, const char *name,
		      const char *target, const char *msg,
		      const struct ref_txn_env *env);

#endif
