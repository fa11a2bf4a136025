/*
 * refs-txn-reftable: a transaction in a reftable store.  The stack is
 * locked once (tables.list.lock, git's reftable backend has no lock per
 * ref); prepare reads each ref from the locked stack and decides, as
 * git's backend does, which updates go into the new table; commit
 * writes that one table (the reflog of a deleted ref goes with it, a
 * tombstone per entry) and lets the stack compact.  The files store and
 * the transaction itself are in refs-txn.c.
 */
#include "refs.h"

#include <string.h>

#include "error.h"
#include "object.h"
#include "refs-internal.h"
#include "refs-txn-internal.h"
#include "reflog.h"
#include "reftable.h"
#include "trace.h"

/*
 * Begin an addition; a stack that another writer changed since it was
 * read has been reloaded by the failed attempt, so try again (git's
 * additions reload themselves).
 */
static int
rt_begin(struct reftable_addition **add, struct reftable_stack *st,
	 long timeout_ms)
{
	int ret = reftable_addition_begin(add, st, timeout_ms);

	for (int tries = 0; ret == -E_CONFLICT && tries < 3; tries++) {
		error_clear();
		ret = reftable_addition_begin(add, st, timeout_ms);
	}
	return ret;
}

/*
 * Take tables.list.lock of every stack the transaction may write (the
 * worktree's own as well in a linked worktree); the stacks read from
 * here on are the locked ones.
 */
int
txn_rt_lock(struct ref_txn *txn)
{
	struct ref_store *rs = txn->rs;
	int linked = strcmp(rs->gitdir, rs->commondir) != 0;

	for (int i = 0; i <= linked; i++) {
		struct reftable_stack *st = refs_rt_stack(rs, i ? "HEAD" :
							  NULL);
		int ret;

		if (!st)
			return -error_code();
		ret = rt_begin(&txn->rt_add[i], st, rs->lock_timeout_ms);
		if (ret == -E_LOCKED)	/* git's reftable backend says only */
			return error_set(E_LOCKED, "cannot lock references");
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* A deletion of a ref (not a symbolic one) deletes its reflog. */
static int
rt_drops_log(const struct ref_update *u)
{
	return (u->flags & REF_DELETING) && !(u->type & REF_ISSYMREF);
}

/*
 * prepare_one() of a reftable store: no lock per ref (the stack is
 * locked), and an update goes into the new table only where git's
 * reftable backend writes it: a ref created, changed or deleted, a
 * symbolic ref, or a log-only update; a deletion of a ref that does not
 * exist, and an update to the value the ref has, write nothing.
 */
int
txn_rt_prepare_one(struct ref_txn *txn, struct ref_update *u,
	       const char *head_ref)
{
	struct strbuf referent = STRBUF_INIT;
	int mustexist = txn_expects_existing(u);
	int ret, err;

	ret = txn_prepare_start(txn, u, head_ref);
	if (ret < 0)
		goto out;
	if (refs_read_raw_errno(txn->rs, u->name, &u->cur, &referent,
				&u->type, &err)) {
		u->cur = null_oid;
		if (err == REFS_ERR_SET) {
			ret = txn_wrap_error("cannot lock ref '%s'",
					 txn_asked_name(u));
		} else if (mustexist) {
			u->why = REF_REJECT_MISSING;
			ret = error_set(E_NOTFOUND, "cannot lock ref '%s': "
					"unable to resolve reference '%s'",
					txn_asked_name(u), u->name);
		} else {
			ret = 0;
			if (txn->allow_reject)
				u->flags |= REF_CHECK_NAME;
			else
				ret = refs_check_available(txn->rs, u->name,
							   &txn->names, 1);
			if (ret == -E_CONFLICT)
				u->why = REF_REJECT_NAME_CONFLICT;
			if (!ret && (u->flags & REF_HAVE_NEW) &&
			    !(u->flags & REF_DELETING))
				u->flags |= REF_RT_WRITE;
		}
		goto out;
	}
	if (u->type & REF_ISSYMREF) {
		if (u->flags & REF_NO_DEREF) {
			ret = txn_symref_value(txn, u, referent.buf);
			if (ret < 0)
				goto out;
			if (ret && !u->old_target) {
				ret = txn_dangling_symref(u);
				if (ret < 0)
					goto out;
			}
		} else {
			ret = txn_split_symref(txn, u, referent.buf);
			if (ret < 0)
				goto out;
		}
	}
	/*
	 * git's reftable backend checks an old target even on the
	 * symbolic ref an update went through (the files backend checks
	 * it on the ref reached).
	 */
	if (u->old_target)
		ret = (u->type & REF_ISSYMREF) ?
			txn_check_old_target(u, referent.buf) :
			txn_not_a_symref(u);
	else
		ret = (u->flags & REF_LOG_ONLY) ? 0 : txn_check_old(u);
	for (struct ref_update *p = u->parent; !ret && p; p = p->parent)
		p->cur = u->cur;
	if (ret < 0)
		goto out;
	if ((u->type & REF_ISSYMREF) || (u->flags & REF_LOG_ONLY) ||
	    ((u->flags & REF_HAVE_NEW) &&
	     (u->new_target || !oideq(&u->cur, &u->new_oid))))
		u->flags |= REF_RT_WRITE;
out:
	strbuf_release(&referent);
	return ret;
}

/* check_log() of a reftable store: a log exists if it has an entry. */
void
txn_rt_check_log(struct ref_store *rs, struct ref_update *u)
{
	if (!(u->flags & REF_RT_WRITE) || !(u->flags & REF_HAVE_NEW) ||
	    rt_drops_log(u))
		return;
	if ((u->flags & REF_CREATE_REFLOG) ||
	    txn_autocreates_log(rs, u->name) || reflog_exists(rs, u->name))
		u->flags |= REF_WRITES_LOG;
}

/*
 * The records of one table.  Their strings are borrowed (from the
 * updates, or the committer split once) except the messages, which
 * msgs owns.
 */
/* What one stack's new table is made from, a record at a time. */
struct rt_fill {
	struct ref_txn *txn;
	struct ref_update **u;		/* the updates it writes, by name */
	size_t nr;
	const struct reftable_log *ident;	/* who, email, time, tz */
	uint64_t update_index;
	struct rt_writer *w;		/* while a reflog is tombstoned */
	const char *name;		/* its ref */
	const char *last_msg;		/* the message of ... */
	struct strbuf stored;		/* ... what it is stored as */
	size_t records;			/* added to the table */
};

static int
add_tombstone(const struct reftable_log *log, void *data)
{
	struct rt_fill *f = data;
	struct reftable_log t;

	memset(&t, 0, sizeof(t));
	t.name = (char *)f->name;
	t.update_index = log->update_index;
	t.deletion = 1;
	f->records++;
	return rt_writer_add_log(f->w, &t);
}

/*
 * The committer line "Name <email> <epoch> <+hhmm>" split into a log
 * record's fields.  0, or -1 if it does not have that shape.
 */
static int
rt_split_ident(struct reftable_log *log, const char *ident)
{
	const char *lt = strchr(ident, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	const char *name_end = lt;
	char *end;
	long tz;

	if (!gt || gt[1] != ' ')
		return -1;
	while (name_end > ident && name_end[-1] == ' ')
		name_end--;
	log->who = xstrndup(ident, name_end - ident);
	log->email = xstrndup(lt + 1, gt - lt - 1);
	log->time = strtoull(gt + 2, &end, 10);
	if (*end != ' ')
		return -1;
	tz = strtol(end + 1, NULL, 10);
	log->tz = (int)tz;
	return 0;
}

static int
fill_ref(struct rt_fill *f, struct ref_update *u)
{
	struct ref_txn *txn = f->txn;
	struct reftable_ref ref;

	memset(&ref, 0, sizeof(ref));
	ref.name = u->name;
	ref.update_index = f->update_index;
	if (u->new_target) {
		ref.type = REFTABLE_REF_SYMREF;
		ref.target = u->new_target;
	} else if (u->flags & REF_DELETING) {
		ref.type = REFTABLE_REF_DELETION;
	} else {
		ref.type = REFTABLE_REF_VAL1;
		ref.value = u->new_oid;
		/* git 2.55 peels a tag as it queues */
		if (!(u->flags & REF_SKIP_OBJECT_CHECK) && txn->env.peel &&
		    !txn->env.peel(txn->env.ctx, &u->new_oid, &ref.peeled))
			ref.type = REFTABLE_REF_VAL2;
	}
	f->records++;
	return rt_writer_add_ref(f->w, &ref);
}

static int
fill_log(struct rt_fill *f, struct ref_update *u)
{
	struct ref_txn *txn = f->txn;
	struct reftable_log log;
	const char *m = u->msg ? u->msg : "";

	if (!((u->flags & REF_HAVE_NEW) && rt_drops_log(u))) {
		if (!(u->flags & REF_WRITES_LOG) || !txn->env.committer ||
		    !txn_target_value(txn, u))
			return 0;
		log = *f->ident;
		log.name = u->name;
		log.update_index = f->update_index;
		log.old_oid = u->cur;
		log.new_oid = u->new_oid;
		/* a batch has one message: made once */
		if (!f->last_msg || strcmp(f->last_msg, m)) {
			strbuf_reset(&f->stored);
			if (*m) {
				txn_add_log_msg(&f->stored, m);
				/* git keeps half a block of it */
				if (f->stored.len > 1 + 2048)
					strbuf_setlen(&f->stored, 1 + 2048);
			}
			f->last_msg = m;
		}
		log.message = f->stored.len ? f->stored.buf + 1 : (char *)"";
		f->records++;
		return rt_writer_add_log(f->w, &log);
	}
	f->name = u->name;
	return reftable_stack_for_each_log(refs_rt_stack(txn->rs, u->name),
					   u->name, add_tombstone, f);
}

static int
fill_table(struct rt_writer *w, uint64_t update_index, void *ctx)
{
	struct rt_fill *f = ctx;
	int ret = 0;

	f->w = w;
	f->update_index = update_index;
	for (size_t i = 0; i < f->nr && !ret; i++)
		if (!(f->u[i]->flags & REF_LOG_ONLY) &&
		    (f->u[i]->flags & REF_HAVE_NEW))
			ret = fill_ref(f, f->u[i]);
	for (size_t i = 0; i < f->nr && !ret; i++)
		ret = fill_log(f, f->u[i]);
	return ret;
}

static int
update_name_cmp(const void *va, const void *vb)
{
	const struct ref_update *a = *(const struct ref_update *const *)va;
	const struct ref_update *b = *(const struct ref_update *const *)vb;

	return strcmp(a->name, b->name);
}

/*
 * Write the transaction's table into each stack it touches, then let
 * the stack compact.  The reflog of a deleted ref goes with it (a
 * tombstone for each entry, as git's reftable backend deletes it).
 * The records are made as the table is written, in name order: an
 * update-ref --stdin of many refs holds no second copy of them.
 */
int
txn_rt_commit(struct ref_txn *txn)
{
	struct ref_store *rs = txn->rs;
	int linked = strcmp(rs->gitdir, rs->commondir) != 0;
	struct reftable_log ident;
	struct rt_fill f;
	int ret = 0;

	memset(&ident, 0, sizeof(ident));
	if (txn->env.committer &&
	    rt_split_ident(&ident, txn->env.committer))
		BUG("a committer that does not parse");
	memset(&f, 0, sizeof(f));
	f.txn = txn;
	f.ident = &ident;
	strbuf_init(&f.stored, 0);
	f.u = xmalloc(st_mult(txn->nr ? txn->nr : 1, sizeof(*f.u)));
	for (int k = 0; k <= linked && !ret; k++) {
		int sorted = 1;

		f.nr = 0;
		f.last_msg = NULL;
		f.records = 0;
		for (size_t i = 0; i < txn->nr; i++) {
			struct ref_update *u = txn->u[i];
			int own = linked && refs_is_per_worktree(u->name);

			if (!(u->flags & REF_RT_WRITE) || own != k)
				continue;
			if (f.nr && strcmp(f.u[f.nr - 1]->name, u->name) > 0)
				sorted = 0;
			f.u[f.nr++] = u;
		}
		if (!f.nr)
			continue;
		if (!sorted)
			qsort(f.u, f.nr, sizeof(*f.u), update_name_cmp);
		ret = reftable_addition_write(txn->rt_add[k], fill_table, &f);
		if (!ret)
			ret = reftable_addition_commit(txn->rt_add[k]);
		if (!ret && f.records)
			trace_step("ref updated");
	}
	free(f.u);
	strbuf_release(&f.stored);
	free(ident.who);
	free(ident.email);
	return ret;
}

/* refs_set_symref() of a reftable store: one table, under its lock. */
int
txn_rt_set_symref(struct ref_store *rs, const char *name, const char *target,
	      const char *msg, const struct ref_txn_env *env)
{
	struct reftable_stack *st = refs_rt_stack(rs, name);
	struct reftable_addition *add = NULL;
	struct reftable_ref ref;
	struct reftable_log log;
	struct object_id old_oid, new_oid;
	struct strbuf line = STRBUF_INIT;
	int ret, logs = 0;

	memset(&ref, 0, sizeof(ref));
	memset(&log, 0, sizeof(log));
	if (!st)
		return -error_code();
	ret = rt_begin(&add, st, rs->lock_timeout_ms);
	if (ret == -E_LOCKED)
		ret = error_set(E_LOCKED, "cannot lock references");
	if (ret < 0)
		goto out;
	ret = refs_check_available(rs, name, NULL, 1);
	if (ret < 0)
		goto out;
	if (refs_resolve_ref(rs, name, 0, &old_oid, NULL, NULL) < 0)
		old_oid = null_oid;
	if (env && env->committer &&
	    !refs_resolve_ref(rs, target, REFS_RESOLVE_READING, &new_oid,
			      NULL, NULL) &&
	    (txn_autocreates_log(rs, name) || reflog_exists(rs, name))) {
		logs = 1;
		log.name = xstrdup(name);
		log.old_oid = old_oid;
		log.new_oid = new_oid;
		if (rt_split_ident(&log, env->committer))
			BUG("a committer that does not parse");
		if (msg && *msg)
			txn_add_log_msg(&line, msg);
		log.message = xstrdup(line.len ? line.buf + 1 : "");
	}
	error_clear();
	ref.name = xstrdup(name);
	ref.type = REFTABLE_REF_SYMREF;
	ref.target = xstrdup(target);
	ret = reftable_addition_add(add, &ref, 1, &log, logs);
	if (!ret)
		ret = reftable_addition_commit(add);
	if (!ret)
		trace_step("symbolic ref updated");
out:
	reftable_addition_free(add);
	reftable_ref_release(&ref);
	reftable_log_release(&log);
	strbuf_release(&line);
	return ret;
}
