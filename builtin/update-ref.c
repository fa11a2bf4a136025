/*
 * update-ref: set or delete a reference safely — under "<ref>.lock",
 * checking the old value when one is given, following a symbolic HEAD,
 * logging to the reflog as core.logAllRefUpdates says.
 */
#include "builtin.h"
#include "commit.h"
#include "object-name.h"
#include "odb.h"
#include "parse-options.h"
#include "refs.h"
#include "repo.h"
#include "strbuf.h"

const char *const update_ref_usage[] = {
	"dirc update-ref [<options>] -d <refname> [<old-val>]",
	"dirc update-ref [<options>]    <refname> <new-val> [<old-val>]",
	"dirc update-ref [<options>] --stdin [-z]",
	NULL,
};

static int
type_of(void *ctx, const struct object_id *oid)
{
	struct odb *odb = ctx;
	enum object_type type;
	size_t size;

	if (odb_read_info(&type, &size, NULL, 0, odb, oid, 0) < 0) {
		error_clear();
		return -1;
	}
	return type;
}

/* An old value: "" or 40 zeros mean "must not exist". */
static void
parse_old(struct object_id *out, struct repo *repo, const char *arg)
{
	if (!*arg) {
		*out = null_oid;
		return;
	}
	if (get_oid(out, repo, arg) < 0)
		die("%s: not a valid old SHA1", arg);
}

/* ---- --stdin: one transaction ---- */

struct stdin_state {
	struct repo *repo;
	struct ref_txn txn;
	unsigned flags;
	int nul;
	int started;		/* "start" seen: say "ok" to commands */
	unsigned option;	/* "option no-deref": the next ref only */
};

/*
 * The next argument of a command: in -z mode a NUL-terminated record
 * (read here), else the next space-separated word of *p.  NULL if none.
 */
static char *
next_arg(struct stdin_state *st, char **p, struct strbuf *rec)
{
	if (st->nul) {
		if (strbuf_getdelim(rec, stdin, '\0') == EOF)
			return NULL;
		return xstrdup(rec->buf);
	} else {
		char *start = *p, *sp;

		if (!start)
			return NULL;
		sp = strchr(start, ' ');
		if (sp) {
			*p = sp + 1;
			return xmemdupz(start, sp - start);
		}
		*p = NULL;
		return xstrdup(start);
	}
}

/* A value: "" means "no value" in -z mode; 40 zeros "must not exist". */
static int
parse_value(struct object_id *out, struct repo *repo, const char *arg,
	    const char *cmd, const char *ref, const char *what)
{
	if (!arg || !*arg)
		return 0;
	if (get_oid(out, repo, arg) < 0)
		die("%s %s: invalid <%s>: %s", cmd, ref, what, arg);
	return 1;
}

static void
stdin_command(struct stdin_state *st, struct strbuf *line)
{
	struct strbuf rec = STRBUF_INIT;
	char *p = line->buf, *sp = strchr(line->buf, ' ');
	char *cmd, *ref = NULL, *a = NULL, *b = NULL;
	struct object_id new_oid, old_oid;
	unsigned flags;
	int have_old;

	cmd = sp ? xmemdupz(line->buf, sp - line->buf) : xstrdup(line->buf);
	p = sp ? sp + 1 : NULL;
	if (!strcmp(cmd, "start") || !strcmp(cmd, "prepare") ||
	    !strcmp(cmd, "commit") || !strcmp(cmd, "abort")) {
		if (!strcmp(cmd, "start"))
			st->started = 1;
		if (!strcmp(cmd, "abort")) {
			refs_txn_release(&st->txn);
			refs_txn_init(&st->txn, st->txn.rs);
		}
		printf("%s: ok\n", cmd);
		fflush(stdout);
		goto out;
	}
	if (!strcmp(cmd, "option")) {
		if (p && !strcmp(p, "no-deref"))
			st->option |= REF_NO_DEREF;
		else
			die("option unknown: %s", p ? p : "");
		goto out;
	}
	if (strcmp(cmd, "update") && strcmp(cmd, "create") &&
	    strcmp(cmd, "delete") && strcmp(cmd, "verify"))
		die("unknown command: %s\n", line->buf);
	/* in -z mode the ref follows the command on the same record */
	ref = p ? xstrdup(p) : NULL;
	if (!st->nul && p) {
		free(ref);
		ref = next_arg(st, &p, &rec);
	}
	if (!ref || !*ref)
		die("%s: missing <ref>", cmd);
	/* as git: an option applies to the next command naming a ref */
	flags = st->flags | st->option;
	st->option = 0;
	if (!strcmp(cmd, "update") || !strcmp(cmd, "create")) {
		a = next_arg(st, &p, &rec);
		if (!a || !*a)
			die("%s %s: missing <newvalue>", cmd, ref);
		parse_value(&new_oid, st->repo, a, cmd, ref, "newvalue");
		if (!strcmp(cmd, "create")) {
			refs_txn_update(&st->txn, ref, &new_oid, &null_oid,
					flags);
		} else {
			b = next_arg(st, &p, &rec);
			have_old = parse_value(&old_oid, st->repo, b, cmd, ref,
					       "oldvalue");
			refs_txn_update(&st->txn, ref, &new_oid,
					have_old ? &old_oid : NULL, flags);
		}
	} else if (!strcmp(cmd, "delete")) {
		a = next_arg(st, &p, &rec);
		have_old = parse_value(&old_oid, st->repo, a, cmd, ref,
				       "oldvalue");
		refs_txn_delete(&st->txn, ref, have_old ? &old_oid : NULL,
				flags);
	} else {
		a = next_arg(st, &p, &rec);
		have_old = parse_value(&old_oid, st->repo, a, cmd, ref,
				       "oldvalue");
		refs_txn_verify(&st->txn, ref, have_old ? &old_oid : NULL,
				flags);
	}
	if (!st->nul && p)
		die("%s %s: extra input: %s", cmd, ref, p);
out:
	free(cmd);
	free(ref);
	free(a);
	free(b);
	strbuf_release(&rec);
}

static int
do_stdin(struct stdin_state *st, struct odb *odb)
{
	struct strbuf line = STRBUF_INIT;
	int ret;

	while (strbuf_getdelim(&line, stdin, st->nul ? '\0' : '\n') != EOF) {
		if (!line.len)
			continue;
		stdin_command(st, &line);
	}
	strbuf_release(&line);
	/* all or nothing */
	ret = refs_txn_commit(&st->txn, type_of, odb);
	if (ret < 0)
		die_lib(ret);
	return 0;
}

int
cmd_update_ref(int argc, const char **argv)
{
	struct repo repo;
	struct ref_store rs;
	struct odb *odb;
	struct strbuf committer = STRBUF_INIT;
	struct object_id new_oid, old_oid;
	const char *msg = NULL;
	int delete = 0, no_deref = 0, create_reflog = 0, read_stdin = 0;
	int nul = 0, ret;
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
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, update_ref_usage, 0);
	if (msg && !*msg)
		die("Refusing to perform update with empty message.");
	ret = repo_open(&repo, REPO_NO_CHDIR);
	if (ret < 0)
		die_lib(ret);
	ret = repo_odb(&odb, &repo);
	if (ret < 0)
		die_lib(ret);
	ref_store_init(&rs, repo.gitdir, repo.commondir);
	flags = refs_flags_for(&repo);
	if (no_deref)
		flags |= REF_NO_DEREF;
	if (create_reflog)
		flags |= REF_CREATE_REFLOG;

	if (read_stdin) {
		struct stdin_state st = { .repo = &repo, .flags = flags,
					  .nul = nul };

		if (delete || argc)
			usage_with_options(update_ref_usage, opts);
		ret = ident_get(&committer, &repo, IDENT_COMMITTER, 0);
		if (ret < 0)
			die_lib(ret);
		refs_txn_init(&st.txn, &rs);
		st.txn.committer = committer.buf;
		st.txn.msg = msg;
		ret = do_stdin(&st, odb);
		refs_txn_release(&st.txn);
		goto out;
	}
	if (nul)
		usage_with_options(update_ref_usage, opts);

	if (delete) {
		if (argc < 1 || argc > 2)
			usage_with_options(update_ref_usage, opts);
		if (argc == 2)
			parse_old(&old_oid, &repo, argv[1]);
		ret = refs_delete(&rs, argv[0], argc == 2 ? &old_oid : NULL,
				  flags);
		if (ret < 0) {
			error_lib(ret);
			ret = 1;
		}
		goto out;
	}
	if (argc < 2 || argc > 3)
		usage_with_options(update_ref_usage, opts);
	if (get_oid(&new_oid, &repo, argv[1]) < 0)
		die("%s: not a valid SHA1", argv[1]);
	if (argc == 3)
		parse_old(&old_oid, &repo, argv[2]);
	ret = ident_get(&committer, &repo, IDENT_COMMITTER, 0);
	if (ret < 0)
		die_lib(ret);
	ret = refs_update(&rs, argv[0], &new_oid, argc == 3 ? &old_oid : NULL,
			  committer.buf, msg, flags, type_of, odb);
	if (ret < 0) {
		struct strbuf pr = STRBUF_INIT;

		refs_printable_name(&pr, argv[0]);
		die("update_ref failed for ref '%s': %s", pr.buf, error_msg());
	}
out:
	strbuf_release(&committer);
	ref_store_release(&rs);
	repo_release(&repo);
	return ret < 0 ? 1 : ret;
}
