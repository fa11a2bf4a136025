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

/* ---- --stdin ---- */

struct stdin_state {
	struct repo *repo;
	struct ref_store *rs;
	struct odb *odb;
	const char *msg;
	struct strbuf committer;
	unsigned flags;
	int nul;
};

/* The next space-separated word of *p (advanced), or NULL. */
static char *
next_word(char **p)
{
	char *start = *p, *end;

	if (!start)
		return NULL;
	end = strchr(start, ' ');
	if (end) {
		*end = '\0';
		*p = end + 1;
	} else {
		*p = NULL;
	}
	return start;
}

static int
do_stdin(struct stdin_state *st)
{
	struct strbuf line = STRBUF_INIT;
	int ret = 0;

	while (strbuf_getdelim(&line, stdin, st->nul ? '\0' : '\n') != EOF) {
		char *p = line.buf, *cmd, *ref, *a, *b;
		struct object_id new_oid, old_oid;
		unsigned flags = st->flags;

		if (!line.len)
			continue;
		cmd = next_word(&p);
		if (!strcmp(cmd, "option")) {
			if (p && !strcmp(p, "no-deref"))
				st->flags |= REF_NO_DEREF;
			else
				die("option unknown: %s", p ? p : "");
			continue;
		}
		if (!strcmp(cmd, "start") || !strcmp(cmd, "prepare") ||
		    !strcmp(cmd, "commit")) {
			printf("%s: ok\n", cmd);
			continue;
		}
		ref = next_word(&p);
		if (!ref)
			die("%s: missing <ref>", cmd);
		a = next_word(&p);
		b = next_word(&p);
		if (!strcmp(cmd, "update") || !strcmp(cmd, "create")) {
			if (!a)
				die("%s %s: missing <newvalue>", cmd, ref);
			if (get_oid(&new_oid, st->repo, a) < 0)
				die("%s %s: invalid <newvalue>: %s", cmd, ref,
				    a);
			if (!strcmp(cmd, "create"))
				old_oid = null_oid;
			else if (b)
				parse_old(&old_oid, st->repo, b);
			ret = refs_update(st->rs, ref, &new_oid,
					  (!strcmp(cmd, "create") || b) ?
					  &old_oid : NULL, st->committer.buf,
					  st->msg, flags, type_of, st->odb);
		} else if (!strcmp(cmd, "delete")) {
			if (a)
				parse_old(&old_oid, st->repo, a);
			ret = refs_delete(st->rs, ref, a ? &old_oid : NULL,
					  flags);
		} else if (!strcmp(cmd, "verify")) {
			struct object_id cur;
			int missing = refs_resolve(st->rs, ref, &cur, NULL);

			error_clear();
			if (a)
				parse_old(&old_oid, st->repo, a);
			else
				old_oid = null_oid;
			if ((missing < 0) != oid_is_null(&old_oid) ||
			    (missing >= 0 && !oideq(&cur, &old_oid)))
				die("cannot lock ref '%s': is at %s but "
				    "expected %s", ref, missing < 0 ?
				    "nothing" : oid_to_hex(&cur), a ? a : "");
		} else {
			die("unknown command: %s", cmd);
		}
		if (ret < 0)
			die_lib(ret);
	}
	strbuf_release(&line);
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
		struct stdin_state st = { &repo, &rs, odb, msg, STRBUF_INIT,
					  flags, nul };

		if (delete || argc)
			usage_with_options(update_ref_usage, opts);
		if (nul)
			die("update-ref --stdin -z is not supported by dirc; "
			    "use LF-terminated commands");
		ret = ident_get(&st.committer, &repo, IDENT_COMMITTER);
		if (ret < 0)
			die_lib(ret);
		ret = do_stdin(&st);
		strbuf_release(&st.committer);
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
	ret = ident_get(&committer, &repo, IDENT_COMMITTER);
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
