/*
 * refs-reftable: the ref store's reading half over reftable stacks
 * (reftable.h).  The writing half is in refs-txn-reftable.c, which
 * shares the transaction's checks with the files store's (refs-txn.c).
 *
 * Where refs live: HEAD and the other per-worktree refs of the main
 * worktree are in the common stack with every shared ref, as git keeps
 * them; a linked worktree's own refs are in "<gitdir>/reftable".
 */
#include "refs.h"

#include "error.h"
#include "refs-internal.h"
#include "reftable.h"

/*
 * Stacks this process opened, shared by every ref store: name resolution
 * makes a store for each lookup, and a table is read once, not once per
 * lookup.  They stay open until the process ends.
 */
static struct opened_stack {
	char *dir;
	struct reftable_stack *st;
} *opened;
static size_t opened_nr, opened_alloc;

static struct reftable_stack *
open_shared(const char *dir, int *fresh)
{
	struct reftable_stack *st;

	for (size_t i = 0; i < opened_nr; i++)
		if (!strcmp(opened[i].dir, dir))
			return opened[i].st;
	if (reftable_stack_open(&st, dir, hash_algo) < 0)
		return NULL;
	ALLOC_GROW(opened, opened_nr + 1, opened_alloc);
	opened[opened_nr].dir = xstrdup(dir);
	opened[opened_nr++].st = st;
	*fresh = 1;
	return st;
}

struct reftable_stack *
refs_rt_stack(struct ref_store *rs, const char *name)
{
	int own = name && strcmp(rs->gitdir, rs->commondir) &&
		  refs_is_per_worktree(name);
	struct reftable_stack **st = own ? &rs->rt_own : &rs->rt_common;
	unsigned bit = own ? 2 : 1;
	struct strbuf dir = STRBUF_INIT;
	int fresh = 0;

	if (!*st) {
		strbuf_addf(&dir, "%s/reftable", own ? rs->gitdir :
			    rs->commondir);
		*st = open_shared(dir.buf, &fresh);
		strbuf_release(&dir);
		if (!*st)
			return NULL;
	}
	/* brought up to date once per store, and after refs_packed_forget */
	if (!fresh && !(rs->rt_fresh & bit) && reftable_stack_reload(*st) < 0)
		return NULL;
	rs->rt_fresh |= bit;
	return *st;
}

int
refs_rt_read(struct ref_store *rs, const char *name, struct object_id *oid,
	     struct strbuf *referent, unsigned *type, int *err)
{
	struct reftable_stack *st = refs_rt_stack(rs, name);
	struct reftable_ref ref;
	int ret;

	*type = 0;
	*err = 0;
	if (!st) {
		*err = REFS_ERR_SET;
		return -1;
	}
	memset(&ref, 0, sizeof(ref));
	ret = reftable_stack_read_ref(st, name, &ref);
	if (ret < 0) {
		*err = REFS_ERR_SET;
		return -1;
	}
	if (ret > 0) {
		*err = ENOENT;
		return -1;
	}
	if (ref.type == REFTABLE_REF_SYMREF) {
		strbuf_reset(referent);
		strbuf_addstr(referent, ref.target);
		*type |= REF_ISSYMREF;
	} else {
		*oid = ref.value;
	}
	reftable_ref_release(&ref);
	return 0;
}

struct first_ctx {
	struct strbuf *out;
};

static int
take_first(const struct reftable_ref *ref, void *data)
{
	struct first_ctx *c = data;

	strbuf_reset(c->out);
	strbuf_addstr(c->out, ref->name);
	return 1;
}

int
refs_rt_first_with_prefix(struct ref_store *rs, const char *prefix,
			  struct strbuf *out)
{
	struct reftable_stack *st = refs_rt_stack(rs, prefix);
	struct first_ctx c = { out };

	if (!st)
		return -error_code();
	return reftable_stack_for_each_ref(st, prefix, take_first, &c);
}

struct names_ctx {
	char ***names;
	size_t *nr, *alloc;
	int own_only;		/* only per-worktree names */
};

static int
add_name(const struct reftable_ref *ref, void *data)
{
	struct names_ctx *c = data;

	if (c->own_only && !refs_is_per_worktree(ref->name))
		return 0;
	ALLOC_GROW(*c->names, *c->nr + 1, *c->alloc);
	(*c->names)[(*c->nr)++] = xstrdup(ref->name);
	return 0;
}

int
refs_rt_names(struct ref_store *rs, const char *prefix, char ***names,
	      size_t *nr, size_t *alloc)
{
	struct names_ctx c = { names, nr, alloc, 0 };
	struct reftable_stack *st = refs_rt_stack(rs, NULL);
	int ret;

	if (!st)
		return -error_code();
	ret = reftable_stack_for_each_ref(st, prefix, add_name, &c);
	if (ret < 0 || !strcmp(rs->gitdir, rs->commondir))
		return ret;
	/* a linked worktree: its own refs come from its own stack */
	st = refs_rt_stack(rs, "HEAD");
	if (!st)
		return -error_code();
	c.own_only = 1;
	return reftable_stack_for_each_ref(st, prefix, add_name, &c);
}

struct log_ctx {
	struct strbuf *text;
	char **lines;		/* newest first, as the stack gives them */
	size_t nr, alloc;
};

static int
add_log(const struct reftable_log *log, void *data)
{
	struct log_ctx *c = data;
	struct strbuf line = STRBUF_INIT;
	size_t mlen = log->message ? strlen(log->message) : 0;
	int tz = log->tz < 0 ? -log->tz : log->tz;

	strbuf_addf(&line, "%s ", oid_to_hex(&log->old_oid));
	strbuf_addf(&line, "%s %s <%s> %llu %c%04d",
		    oid_to_hex(&log->new_oid), log->who ? log->who : "",
		    log->email ? log->email : "",
		    (unsigned long long)log->time, log->tz < 0 ? '-' : '+',
		    tz);
	while (mlen && log->message[mlen - 1] == '\n')
		mlen--;
	if (mlen) {
		strbuf_addch(&line, '\t');
		strbuf_add(&line, log->message, mlen);
	}
	strbuf_addch(&line, '\n');
	ALLOC_GROW(c->lines, c->nr + 1, c->alloc);
	c->lines[c->nr++] = strbuf_detach(&line, NULL);
	return 0;
}

int
refs_rt_log_text(struct ref_store *rs, const char *name, struct strbuf *out)
{
	struct reftable_stack *st = refs_rt_stack(rs, name);
	struct log_ctx c = { out, NULL, 0, 0 };
	int ret;

	if (!st)
		return -error_code();
	ret = reftable_stack_for_each_log(st, name, add_log, &c);
	if (!ret && !c.nr)
		ret = error_set(E_NOTFOUND, "no reflog for '%s'", name);
	strbuf_reset(out);
	for (size_t i = c.nr; i-- > 0;) {
		if (!ret)
			strbuf_addstr(out, c.lines[i]);
		free(c.lines[i]);
	}
	free(c.lines);
	return ret;
}

void
refs_rt_close(struct ref_store *rs)
{
	/* the stacks stay open for the next store (open_shared) */
	rs->rt_common = rs->rt_own = NULL;
	rs->rt_fresh = 0;
}
