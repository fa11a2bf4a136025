/*
 * update-ref: set, delete or check refs safely — one on the command line,
 * or a transaction read from stdin — under "<ref>.lock", checking old
 * values when given, following symbolic refs, logging to the reflogs as
 * core.logAllRefUpdates says.
 *
 * The --stdin language (git's, newline or -z form):
 *
 *	update SP <ref> SP <new> [SP <old>] LF	-z: update SP <ref> NUL <new> NUL <old> NUL
 *	create SP <ref> SP <new> LF		-z: create SP <ref> NUL <new> NUL
 *	delete SP <ref> [SP <old>] LF		-z: delete SP <ref> NUL <old> NUL
 *	verify SP <ref> [SP <old>] LF		-z: verify SP <ref> NUL <old> NUL
 *	symref-update SP <ref> SP <new-target> [SP (ref SP <old-target> |
 *		oid SP <old-oid>)] LF		-z: NUL between the fields
 *	symref-create SP <ref> SP <new-target> LF
 *	symref-delete SP <ref> [SP <old-target>] LF	(no-deref only)
 *	symref-verify SP <ref> [SP <old-target>] LF	(no-deref only)
 *	option SP no-deref LF			(for the next command only)
 *	start LF / prepare LF / commit LF / abort LF
 *
 * Without -z an argument may be C-quoted ("a b"), and an empty value is
 * the null id; with -z an empty <new> is the null id (with a warning) and
 * an empty <old> is "no check".  Without start, everything read is one
 * transaction committed at the end of input; start opens one that
 * prepare locks, commit writes and abort drops, answering "<cmd>: ok" on
 * stdout, flushed, as each completes; a transaction still open at the end
 * of input is aborted.  Every error is fatal, with git's message.
 *
 * As in git 2.55, the new object of "update" and "create" is checked
 * (it exists; a branch gets a commit) when the command is read, so a
 * bad one stops the input there (under --batch-updates: it is rejected).
 * --batch-updates (git 2.51) lets the transaction reject an update that
 * fails for a reason of its own, reported at commit as
 * "rejected <ref> <new> <old> <reason>" on stdout; the rest commit.
 */
#include "builtin.h"
#include "commit.h"
#include "object-name.h"
#include "odb.h"
#include "parse-options.h"
#include "quote.h"
#include "refs.h"
#include "repo.h"
#include "strbuf.h"

const char *const update_ref_usage[] = {
	"dirc update-ref [<options>] -d <refname> [<old-oid>]",
	"dirc update-ref [<options>]    <refname> <new-oid> [<old-oid>]",
	"dirc update-ref [<options>] --stdin [-z] [--batch-updates]",
	NULL,
};

/*
 * git prints every message through one buffer of 4096 bytes, control
 * characters (but tab and newline) shown as '?': names read from the
 * input can hold anything.
 */
#define REPORT_MAX 4096

PRINTF_LIKE(2, 0) static void
vreport(const char *prefix, const char *fmt, va_list ap)
{
	char buf[REPORT_MAX];
	size_t off = strlen(prefix);

	memcpy(buf, prefix, off);
	vsnprintf(buf + off, sizeof(buf) - off, fmt, ap);
	for (char *p = buf + off; *p; p++)
		if (((unsigned char)*p < 0x20 && *p != '\t' && *p != '\n') ||
		    *p == 0x7f)
			*p = '?';
	fflush(stdout);
	fprintf(stderr, "%s\n", buf);
}

NORETURN PRINTF_LIKE(1, 2) static void
fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("fatal: ", fmt, ap);
	va_end(ap);
	exit(128);
}

PRINTF_LIKE(1, 2) static void
warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

/* lib's error as "fatal: <msg>" (exit 128) or "error: <msg>". */
NORETURN static void
fatal_lib(void)
{
	fatal("%s", error_msg());
}

static void
error_print(const char *msg)
{
	char buf[REPORT_MAX];

	fflush(stdout);
	snprintf(buf, sizeof(buf), "%s", msg);
	for (char *p = buf; *p; p++)
		if (((unsigned char)*p < 0x20 && *p != '\t' && *p != '\n') ||
		    *p == 0x7f)
			*p = '?';
	fprintf(stderr, "error: %s\n", buf);
}

static void
error_from_lib(void)
{
	error_print(error_msg());
}

/* ---- what refs need from the object store ---- */

struct objects {
	struct repo *repo;
	struct odb *odb;
	/* the last answer: --stdin batches name the same ids again */
	struct object_id last;
	int last_type;			/* 0: none yet */
};

/*
 * A value given to update-ref: a full hex id is that object without a
 * look for a ref of the same name (git 2.55's SKIP_AMBIGUITY_CHECK).
 */
static int
get_value_oid(struct object_id *out, struct repo *repo, const char *name)
{
	struct oname_ctx ctx = ONAME_CTX_INIT;

	ctx.flags = ONAME_DIAGNOSE | ONAME_HEX_NO_REFS;
	return oname_get(out, repo, name, &ctx);
}

static int
type_of(void *ctx, const struct object_id *oid)
{
	struct objects *o = ctx;
	enum object_type type;
	size_t size;

	if (o->last_type && oideq(&o->last, oid))
		return o->last_type;
	if (odb_read_info(&type, &size, NULL, 0, o->odb, oid, 0) < 0) {
		error_clear();
		return -1;
	}
	o->last = *oid;
	o->last_type = type;
	return type;
}

static int
peel(void *ctx, const struct object_id *oid, struct object_id *peeled)
{
	struct objects *o = ctx;

	if (type_of(ctx, oid) != OBJ_TAG)
		return -1;
	if (peel_to_type(peeled, o->repo, oid, OBJ_NONE) < 0) {
		error_clear();
		return -1;
	}
	return 0;
}

/* ---- --stdin ---- */

/* Transaction states, in the order a transaction goes through them. */
enum stdin_state { ST_OPEN, ST_STARTED, ST_PREPARED, ST_CLOSED };

struct stdin_ctx {
	struct repo *repo;
	struct ref_store *rs;
	const struct ref_txn_env *env;
	struct ref_txn *txn;
	enum stdin_state state;
	int term;		/* '\n', or '\0' with -z */
	unsigned default_flags;	/* --no-deref */
	unsigned update_flags;	/* for the next command ("option") */
	unsigned create_reflog;	/* --create-reflog: update and create */
	const char *msg;	/* -m */
	int batch;		/* --batch-updates */
	int hex_ok;		/* a full hex id resolved: take the next
				 * ones as they are */
	struct strbuf arg;	/* parse_value()'s, kept for the next */
};

/* git's isspace(): space, \t, \n, \r */
static int
is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * One argument without -z: C-quoted, or up to the next space.  Returns
 * where it ends.
 */
static const char *
parse_arg(const char *p, struct strbuf *arg)
{
	if (*p == '"') {
		const char *orig = p;

		if (unquote_c_style(arg, p, &p))
			fatal("badly quoted argument: %s", orig);
		if (*p && !is_space((unsigned char)*p))
			fatal("unexpected character after quoted argument: "
			      "%s", orig);
		return p;
	}
	{
		const char *start = p;

		while (*p && !is_space((unsigned char)*p))
			p++;
		strbuf_add(arg, start, p - start);
	}
	return p;
}

/* The <ref> of a command, checked; NULL if there is none. */
static char *
parse_refname(struct stdin_ctx *st, const char **next)
{
	struct strbuf ref = STRBUF_INIT;

	if (st->term) {
		*next = parse_arg(*next, &ref);
	} else {
		strbuf_addstr(&ref, *next);
		*next += ref.len;
	}
	if (!ref.len) {
		strbuf_release(&ref);
		return NULL;
	}
	if (!refname_is_valid(ref.buf, REFNAME_ALLOW_ONELEVEL))
		fatal("invalid ref format: %s", ref.buf);
	return strbuf_detach(&ref, NULL);
}

/*
 * The next argument, its separator (SP; NUL with -z) skipped: git's
 * parse_next_arg().  NULL when there is none (an empty one with -z, or
 * the input ended: git would read past it when the last record has no
 * NUL).
 */
static char *
parse_next_arg(struct stdin_ctx *st, const char **next, const char *end)
{
	struct strbuf arg = STRBUF_INIT;

	if (*next >= end)
		return NULL;
	if (st->term) {
		if (!**next || **next == st->term)
			return NULL;
		if (**next != ' ')
			fatal("expected SP but got: %s", *next);
		(*next)++;
		*next = parse_arg(*next, &arg);
	} else {
		if (**next)
			return NULL;
		(*next)++;
		strbuf_addstr(&arg, *next);
		*next += arg.len;
	}
	if (!arg.len) {
		strbuf_release(&arg);
		return NULL;
	}
	return strbuf_detach(&arg, NULL);
}

/* The same for a ref name, checked: git's parse_next_refname(). */
static char *
parse_next_refname(struct stdin_ctx *st, const char **next, const char *end)
{
	if (*next >= end)
		return NULL;
	if (st->term) {
		if (!**next || **next == st->term)
			return NULL;
		if (**next != ' ')
			fatal("expected SP but got: %s", *next);
	} else if (**next) {
		return NULL;
	}
	(*next)++;
	return parse_refname(st, next);
}

enum value_flags {
	VALUE_OLD = 1 << 0,		/* an <old-oid> (for messages) */
	VALUE_ALLOW_EMPTY = 1 << 1,	/* -z: empty means zero, warn */
};

/*
 * The next value of a command into *oid.  0 when one was given (an
 * empty one is the null id), 1 when there is none.
 */
static int
parse_value(struct stdin_ctx *st, const char **next, const char *end,
	    struct object_id *oid, const char *cmd, const char *ref,
	    unsigned flags)
{
	const char *what = flags & VALUE_OLD ? "old-oid" : "new-oid";
	struct strbuf *arg = &st->arg;
	int ret = 0;

	if (*next == end)
		fatal("%s %s: unexpected end of input when reading <%s>", cmd,
		      ref, what);
	if (st->term) {
		if (!**next || **next == st->term)
			return 1;
		if (**next != ' ')
			fatal("%s %s: expected SP but got: %s", cmd, ref,
			      *next);
		(*next)++;
		strbuf_reset(arg);
		*next = parse_arg(*next, arg);
		if (!arg->len)
			*oid = null_oid;
	} else {
		if (**next)
			fatal("%s %s: expected NUL but got: %s", cmd, ref,
			      *next);
		(*next)++;
		if (*next == end)
			fatal("%s %s: unexpected end of input when reading "
			      "<%s>", cmd, ref, what);
		strbuf_reset(arg);
		strbuf_addstr(arg, *next);
		*next += arg->len;
		if (arg->len) {
			;
		} else if (flags & VALUE_ALLOW_EMPTY) {
			warn("%s %s: missing <new-oid>, treating as zero",
			     cmd, ref);
			*oid = null_oid;
		} else {
			ret = 1;
		}
	}
	if (!arg->len) {
		;
	} else if (st->hex_ok && arg->len == (size_t)HASH_HEXSZ &&
		   !hex_to_oid(oid, arg->buf)) {
		return ret;	/* get_value_oid()'s, without its set-up */
	} else if (get_value_oid(oid, st->repo, arg->buf) < 0) {
		fatal("%s %s: invalid <%s>: %s", cmd, ref, what, arg->buf);
	} else if (arg->len == (size_t)HASH_HEXSZ) {
		/* its configuration read and good: full ids need no more */
		st->hex_ok = 1;
	}
	error_clear();
	return ret;
}

static void
check_end(struct stdin_ctx *st, const char *next, const char *cmd,
	  const char *ref)
{
	if (*next != st->term)
		fatal("%s %s: extra input: %s", cmd, ref, next);
}

/*
 * --batch-updates: an update rejected, as git 2.55 reports it: its
 * message as an error, then "rejected <ref> <new> <old> <reason>" on
 * stdout, a value not given printed as a target, else as glibc prints a
 * null string.
 */
static void
print_rejected(void *ctx, const char *name, const struct object_id *new_oid,
	       const char *new_target, const struct object_id *old_oid,
	       const char *old_target, enum ref_reject why, const char *msg)
{
	(void)ctx;
	if (msg && *msg)
		error_print(msg);
	printf("rejected %s %s %s %s\n", name,
	       new_oid ? oid_to_hex(new_oid) :
	       new_target ? new_target : "(null)",
	       old_oid ? oid_to_hex(old_oid) :
	       old_target ? old_target : "(null)",
	       refs_reject_reason(why));
}

/*
 * The result of queueing one update: 1 is a new object refused under
 * --batch-updates, reported at once; the update is not queued.
 */
static void
queued(struct stdin_ctx *st, int ret, const char *ref,
       const struct object_id *new_oid, const char *new_target,
       const struct object_id *old_oid, const char *old_target)
{
	if (ret < 0)
		fatal_lib();
	if (ret > 0)
		print_rejected(NULL, ref, new_oid, new_target, old_oid,
			       old_target, REF_REJECT_NEW_VALUE, error_msg());
	error_clear();
	st->update_flags = st->default_flags;
}

/* Queue one update; the option applies to this command only. */
static void
queue(struct stdin_ctx *st, const char *ref, const struct object_id *new_oid,
      const struct object_id *old_oid, unsigned flags, const char *msg)
{
	queued(st, refs_txn_update(st->txn, ref, new_oid, old_oid, flags, msg),
	       ref, new_oid, NULL, old_oid, NULL);
}

static void
cmd_update(struct stdin_ctx *st, const char *next, const char *end)
{
	struct object_id new_oid, old_oid;
	char *ref = parse_refname(st, &next);
	int have_old;

	if (!ref)
		fatal("update: missing <ref>");
	if (parse_value(st, &next, end, &new_oid, "update", ref,
			VALUE_ALLOW_EMPTY))
		fatal("update %s: missing <new-oid>", ref);
	have_old = !parse_value(st, &next, end, &old_oid, "update", ref,
				VALUE_OLD);
	check_end(st, next, "update", ref);
	queue(st, ref, &new_oid, have_old ? &old_oid : NULL,
	      st->update_flags | st->create_reflog, st->msg);
	free(ref);
}

static void
cmd_create(struct stdin_ctx *st, const char *next, const char *end)
{
	struct object_id new_oid;
	char *ref = parse_refname(st, &next);

	if (!ref)
		fatal("create: missing <ref>");
	if (parse_value(st, &next, end, &new_oid, "create", ref, 0))
		fatal("create %s: missing <new-oid>", ref);
	if (oid_is_null(&new_oid))
		fatal("create %s: zero <new-oid>", ref);
	check_end(st, next, "create", ref);
	/* a refused object is reported without the old value, as git */
	queued(st, refs_txn_update(st->txn, ref, &new_oid, &null_oid,
				   st->update_flags | st->create_reflog,
				   st->msg),
	       ref, &new_oid, NULL, NULL, NULL);
	free(ref);
}

static void
cmd_delete(struct stdin_ctx *st, const char *next, const char *end)
{
	struct object_id old_oid;
	char *ref = parse_refname(st, &next);
	int have_old;

	if (!ref)
		fatal("delete: missing <ref>");
	have_old = !parse_value(st, &next, end, &old_oid, "delete", ref,
				VALUE_OLD);
	if (have_old && oid_is_null(&old_oid))
		fatal("delete %s: zero <old-oid>", ref);
	check_end(st, next, "delete", ref);
	queue(st, ref, &null_oid, have_old ? &old_oid : NULL,
	      st->update_flags, st->msg);
	free(ref);
}

static void
cmd_verify(struct stdin_ctx *st, const char *next, const char *end)
{
	struct object_id old_oid;
	char *ref = parse_refname(st, &next);

	if (!ref)
		fatal("verify: missing <ref>");
	if (parse_value(st, &next, end, &old_oid, "verify", ref, VALUE_OLD))
		old_oid = null_oid;
	check_end(st, next, "verify", ref);
	queue(st, ref, NULL, &old_oid, st->update_flags, NULL);
	free(ref);
}

static void
queue_target(struct stdin_ctx *st, const char *ref,
	     const struct object_id *new_oid, const char *new_target,
	     const struct object_id *old_oid, const char *old_target,
	     unsigned flags, const char *msg)
{
	queued(st, refs_txn_update_target(st->txn, ref, new_oid, new_target,
					  old_oid, old_target, flags, msg),
	       ref, new_oid, new_target, old_oid, old_target);
}

static void
cmd_symref_update(struct stdin_ctx *st, const char *next, const char *end)
{
	struct object_id old_oid;
	char *ref, *new_target, *old_arg, *old_target = NULL;
	int have_old_oid = 0;

	ref = parse_refname(st, &next);
	if (!ref)
		fatal("symref-update: missing <ref>");
	new_target = parse_next_refname(st, &next, end);
	if (!new_target)
		fatal("symref-update %s: missing <new-target>", ref);
	old_arg = parse_next_arg(st, &next, end);
	if (old_arg) {
		old_target = parse_next_arg(st, &next, end);
		if (!old_target)
			fatal("symref-update %s: expected old value", ref);
		if (!strcmp(old_arg, "oid")) {
			if (get_value_oid(&old_oid, st->repo, old_target) < 0)
				fatal("symref-update %s: invalid oid: %s", ref,
				      old_target);
			error_clear();
			have_old_oid = 1;
		} else if (!strcmp(old_arg, "ref")) {
			if (!refname_is_valid(old_target,
					      REFNAME_ALLOW_ONELEVEL))
				fatal("symref-update %s: invalid ref: %s", ref,
				      old_target);
		} else {
			fatal("symref-update %s: invalid arg '%s' for old "
			      "value", ref, old_arg);
		}
	}
	check_end(st, next, "symref-update", ref);
	queue_target(st, ref, NULL, new_target,
		     have_old_oid ? &old_oid : NULL,
		     have_old_oid ? NULL : old_target,
		     st->update_flags | st->create_reflog, st->msg);
	free(ref);
	free(new_target);
	free(old_arg);
	free(old_target);
}

static void
cmd_symref_create(struct stdin_ctx *st, const char *next, const char *end)
{
	char *ref, *new_target;

	ref = parse_refname(st, &next);
	if (!ref)
		fatal("symref-create: missing <ref>");
	new_target = parse_next_refname(st, &next, end);
	if (!new_target)
		fatal("symref-create %s: missing <new-target>", ref);
	check_end(st, next, "symref-create", ref);
	queue_target(st, ref, NULL, new_target, &null_oid, NULL,
		     st->update_flags | st->create_reflog, st->msg);
	free(ref);
	free(new_target);
}

/*
 * "symref-delete" and "symref-verify": <ref> [SP <old-target>], no-deref
 * mode only.  *old_target NULL when none was given.
 */
static char *
parse_symref_old(struct stdin_ctx *st, const char *next, const char *end,
		 const char *cmd, char **old_target)
{
	char *ref;

	if (!(st->update_flags & REF_NO_DEREF))
		fatal("%s: cannot operate with deref mode", cmd);
	ref = parse_refname(st, &next);
	if (!ref)
		fatal("%s: missing <ref>", cmd);
	*old_target = parse_next_refname(st, &next, end);
	check_end(st, next, cmd, ref);
	return ref;
}

static void
cmd_symref_delete(struct stdin_ctx *st, const char *next, const char *end)
{
	char *old_target;
	char *ref = parse_symref_old(st, next, end, "symref-delete",
				     &old_target);

	queue_target(st, ref, &null_oid, NULL, NULL, old_target,
		     st->update_flags, st->msg);
	free(ref);
	free(old_target);
}

static void
cmd_symref_verify(struct stdin_ctx *st, const char *next, const char *end)
{
	char *old_target;
	char *ref = parse_symref_old(st, next, end, "symref-verify",
				     &old_target);

	/* no old target: the ref must not exist */
	queue_target(st, ref, NULL, NULL, old_target ? NULL : &null_oid,
		     old_target, st->update_flags, NULL);
	free(ref);
	free(old_target);
}

static void
cmd_option(struct stdin_ctx *st, const char *next, const char *end)
{
	const char *rest;

	(void)end;
	if (!skip_prefix(next, "no-deref", &rest) || *rest != st->term)
		fatal("option unknown: %s", next);
	st->update_flags |= REF_NO_DEREF;
}

static void
report_ok(const char *cmd)
{
	printf("%s: ok\n", cmd);
	fflush(stdout);
}

/* A transaction, allowing rejections under --batch-updates. */
static struct ref_txn *
txn_begin(struct stdin_ctx *st)
{
	struct ref_txn *txn = refs_txn_begin(st->rs, st->env);

	if (st->batch)
		refs_txn_allow_rejections(txn);
	return txn;
}

static void
cmd_start(struct stdin_ctx *st, const char *next, const char *end)
{
	(void)end;
	if (*next != st->term)
		fatal("start: extra input: %s", next);
	report_ok("start");
}

static void
cmd_prepare(struct stdin_ctx *st, const char *next, const char *end)
{
	(void)end;
	if (*next != st->term)
		fatal("prepare: extra input: %s", next);
	if (refs_txn_prepare(st->txn) < 0)
		fatal("prepare: %s", error_msg());
	report_ok("prepare");
}

static void
cmd_abort(struct stdin_ctx *st, const char *next, const char *end)
{
	(void)end;
	if (*next != st->term)
		fatal("abort: extra input: %s", next);
	refs_txn_free(st->txn);
	st->txn = NULL;
	report_ok("abort");
}

static void
cmd_commit(struct stdin_ctx *st, const char *next, const char *end)
{
	(void)end;
	if (*next != st->term)
		fatal("commit: extra input: %s", next);
	if (refs_txn_commit(st->txn) < 0)
		fatal("commit: %s", error_msg());
	refs_txn_for_each_rejected(st->txn, print_rejected, NULL);
	report_ok("commit");
	refs_txn_free(st->txn);
	st->txn = NULL;
}

static const struct stdin_cmd {
	const char *name;
	void (*fn)(struct stdin_ctx *st, const char *next, const char *end);
	unsigned args;		/* arguments, the ref included */
	enum stdin_state state;	/* where the transaction goes */
} stdin_cmds[] = {
	{ "update", cmd_update, 3, ST_OPEN },
	{ "create", cmd_create, 2, ST_OPEN },
	{ "delete", cmd_delete, 2, ST_OPEN },
	{ "verify", cmd_verify, 2, ST_OPEN },
	{ "symref-update", cmd_symref_update, 4, ST_OPEN },
	{ "symref-create", cmd_symref_create, 2, ST_OPEN },
	{ "symref-delete", cmd_symref_delete, 2, ST_OPEN },
	{ "symref-verify", cmd_symref_verify, 2, ST_OPEN },
	{ "option", cmd_option, 1, ST_OPEN },
	{ "start", cmd_start, 0, ST_STARTED },
	{ "prepare", cmd_prepare, 0, ST_PREPARED },
	{ "abort", cmd_abort, 0, ST_CLOSED },
	{ "commit", cmd_commit, 0, ST_CLOSED },
};

/*
 * Append the next record of stdin to sb, its terminator included when
 * it has one.  0, or EOF with nothing read.
 */
static int
read_record(struct strbuf *sb, int term)
{
	static char *buf;
	static size_t alloc;
	ssize_t n;

	errno = 0;
	n = getdelim(&buf, &alloc, term, stdin);
	if (n < 0) {
		if (errno == ENOMEM)
			die_oom(alloc);
		if (ferror(stdin))
			fatal("error reading standard input: %s",
			      strerror(errno));
		free(buf);
		buf = NULL;
		alloc = 0;
		return EOF;
	}
	strbuf_add(sb, buf, n);
	return 0;
}

/* Move the transaction to the state cmd leads to, as git allows it. */
static void
advance_state(struct stdin_ctx *st, const struct stdin_cmd *cmd)
{
	switch (st->state) {
	case ST_OPEN:
	case ST_STARTED:
		if (st->state == ST_STARTED && cmd->state == ST_STARTED)
			fatal("cannot restart ongoing transaction");
		/* never back from a transaction to none */
		if (cmd->state >= st->state)
			st->state = cmd->state;
		break;
	case ST_PREPARED:
		if (cmd->state != ST_CLOSED)
			fatal("prepared transactions can only be closed");
		st->state = cmd->state;
		break;
	case ST_CLOSED:
		if (cmd->state != ST_STARTED)
			fatal("transaction is closed");
		st->state = cmd->state;
		st->txn = txn_begin(st);
		break;
	}
}

static void
update_refs_stdin(struct stdin_ctx *st)
{
	struct strbuf input = STRBUF_INIT;

	st->txn = txn_begin(st);
	for (;;) {
		const struct stdin_cmd *cmd = NULL;

		strbuf_reset(&input);
		if (read_record(&input, st->term) == EOF)
			break;
		if (input.buf[0] == st->term)
			fatal("empty command in input");
		if (is_space((unsigned char)input.buf[0]))
			fatal("whitespace before command: %s", input.buf);
		for (size_t i = 0; i < ARRAY_SIZE(stdin_cmds); i++) {
			size_t len = strlen(stdin_cmds[i].name);
			int after = stdin_cmds[i].args ? ' ' : st->term;

			if (!strncmp(input.buf, stdin_cmds[i].name, len) &&
			    input.len >= len && input.buf[len] == after) {
				cmd = &stdin_cmds[i];
				break;
			}
		}
		if (!cmd)
			fatal("unknown command: %s", input.buf);
		/*
		 * -z: the other arguments are records of their own; at an
		 * early end of input the command says what is missing.
		 */
		for (unsigned j = 1; !st->term && j < cmd->args; j++)
			if (read_record(&input, st->term) == EOF)
				break;
		advance_state(st, cmd);
		cmd->fn(st, input.buf + strlen(cmd->name) + !!cmd->args,
			input.buf + input.len);
	}
	switch (st->state) {
	case ST_OPEN:
		/* no transaction asked for: commit what was read */
		if (refs_txn_commit(st->txn) < 0)
			fatal_lib();
		refs_txn_for_each_rejected(st->txn, print_rejected, NULL);
		break;
	case ST_STARTED:
	case ST_PREPARED:
		/* a transaction left open is dropped */
		refs_txn_abort(st->txn);
		break;
	case ST_CLOSED:
		break;
	}
	refs_txn_free(st->txn);
	st->txn = NULL;
	strbuf_release(&input);
}

/* An old value on the command line: "" means "must not exist". */
static void
parse_old(struct object_id *out, struct repo *repo, const char *arg)
{
	if (!*arg) {
		*out = null_oid;
		return;
	}
	if (get_value_oid(out, repo, arg) < 0)
		fatal("%s: not a valid old SHA1", arg);
	error_clear();
}

int
cmd_update_ref(int argc, const char **argv)
{
	struct repo repo;
	struct ref_store rs;
	struct objects objs = { .repo = NULL };
	struct ref_txn_env env;
	struct strbuf committer = STRBUF_INIT;
	struct object_id new_oid, old_oid;
	const char *msg = NULL;
	int delete = 0, no_deref = 0, create_reflog = 0, read_stdin = 0;
	int nul = 0, batch = 0, ret = 0;
	unsigned flags;
	struct option opts[] = {
		OPT_STRING('m', NULL, &msg, "reason", "reason of the update"),
		OPT_BOOL('d', NULL, &delete, "delete the reference"),
		OPT_BOOL(0, "no-deref", &no_deref,
			 "update <refname> not the one it points to"),
		OPT_BOOL('z', NULL, &nul, "stdin has NUL-terminated arguments"),
		OPT_BOOL(0, "stdin", &read_stdin, "read updates from stdin"),
		OPT_BOOL(0, "create-reflog", &create_reflog,
			 "create a reflog"),
		OPT_BOOL('0', "batch-updates", &batch,
			 "batch reference updates"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, update_ref_usage, 0);
	if (msg && !*msg)
		fatal("Refusing to perform update with empty message.");
	ret = repo_open(&repo, REPO_NO_CHDIR);
	if (ret < 0)
		die_lib(ret);
	objs.repo = &repo;
	ret = repo_odb(&objs.odb, &repo);
	if (ret < 0)
		die_lib(ret);
	ref_store_init_repo(&rs, &repo);
	ret = ident_get(&committer, &repo, IDENT_COMMITTER, 0);
	if (ret < 0)
		die_lib(ret);
	env.committer = committer.buf;
	env.type_of = type_of;
	env.peel = peel;
	env.ctx = &objs;
	flags = no_deref ? REF_NO_DEREF : 0;

	if (read_stdin) {
		struct stdin_ctx st;

		if (delete || argc)
			usage_with_options(update_ref_usage, opts);
		memset(&st, 0, sizeof(st));
		st.repo = &repo;
		st.rs = &rs;
		st.env = &env;
		st.term = nul ? '\0' : '\n';
		st.default_flags = st.update_flags = flags;
		st.create_reflog = create_reflog ? REF_CREATE_REFLOG : 0;
		st.msg = msg;
		st.batch = batch;
		strbuf_init(&st.arg, 0);
		update_refs_stdin(&st);
		strbuf_release(&st.arg);
		ret = 0;
		goto out;
	}
	if (batch)
		fatal("--batch-updates can only be used with --stdin");
	if (nul)
		usage_with_options(update_ref_usage, opts);

	if (delete) {
		if (argc < 1 || argc > 2)
			usage_with_options(update_ref_usage, opts);
		if (argc == 2)
			parse_old(&old_oid, &repo, argv[1]);
		/* for old scripts, a null old value means "any" here */
		if (refs_update(&rs, argv[0], &null_oid,
				argc == 2 && !oid_is_null(&old_oid) ?
				&old_oid : NULL, flags, msg, &env) < 0) {
			error_from_lib();
			ret = 1;
		}
		goto out;
	}
	if (argc < 2 || argc > 3)
		usage_with_options(update_ref_usage, opts);
	if (get_value_oid(&new_oid, &repo, argv[1]) < 0)
		fatal("%s: not a valid SHA1", argv[1]);
	error_clear();
	if (argc == 3)
		parse_old(&old_oid, &repo, argv[2]);
	if (create_reflog)
		flags |= REF_CREATE_REFLOG;
	if (refs_update(&rs, argv[0], &new_oid, argc == 3 ? &old_oid : NULL,
			flags, msg, &env) < 0)
		fatal("update_ref failed for ref '%s': %s", argv[0],
		      error_msg());
	ret = 0;
out:
	strbuf_release(&committer);
	ref_store_release(&rs);
	repo_release(&repo);
	return ret;
}
