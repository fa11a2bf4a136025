/*
 * symbolic-ref: read, set or delete a symbolic ref such as HEAD.
 *
 * Reading follows a chain of symbolic refs to its end (or one step with
 * --no-recurse) and prints the name reached, --short as git shortens it
 * (the shortest form no other rule would take for another ref).  Setting
 * writes "ref: <target>" under the name's lock, after checking the name
 * and that nothing is in its way, and logs the move when the target has
 * a value.  Deleting removes a symbolic ref itself, never what it points
 * to, and never HEAD.
 */
#include "builtin.h"
#include "commit.h"
#include "parse-options.h"
#include "refs.h"
#include "repo.h"
#include "strbuf.h"

const char *const symbolic_ref_usage[] = {
	"dirc symbolic-ref [-m <reason>] <name> <ref>",
	"dirc symbolic-ref [-q] [--short] [--no-recurse] <name>",
	"dirc symbolic-ref --delete [-q] <name>",
	NULL,
};

/*
 * git prints every message through one buffer of 4096 bytes, control
 * characters (but tab and newline) shown as '?'.
 */
PRINTF_LIKE(2, 3) static void
report(const char *prefix, const char *fmt, ...)
{
	char buf[4096];
	size_t off = strlen(prefix);
	va_list ap;

	memcpy(buf, prefix, off);
	va_start(ap, fmt);
	vsnprintf(buf + off, sizeof(buf) - off, fmt, ap);
	va_end(ap);
	for (char *p = buf + off; *p; p++)
		if (((unsigned char)*p < 0x20 && *p != '\t' && *p != '\n') ||
		    *p == 0x7f)
			*p = '?';
	fflush(stdout);
	fprintf(stderr, "%s\n", buf);
}

#define fatal(...) (report("fatal: ", __VA_ARGS__), exit(128))

/*
 * Is name a symbolic ref?  0 yes (target, the end of the chain or one
 * step with !recurse, in target), 1 no; dies if name cannot be read.
 */
static int
check_symref(struct ref_store *rs, const char *name, int recurse,
	     struct strbuf *target)
{
	struct object_id oid;
	unsigned type;

	if (refs_resolve_ref(rs, name, recurse ? 0 : REFS_RESOLVE_NO_RECURSE,
			     &oid, target, &type) < 0)
		fatal("No such ref: %s", name);
	return type & REF_ISSYMREF ? 0 : 1;
}

int
cmd_symbolic_ref(int argc, const char **argv)
{
	struct repo repo;
	struct ref_store rs;
	struct ref_txn_env env = { NULL, NULL, NULL, NULL };
	struct strbuf target = STRBUF_INIT, committer = STRBUF_INIT;
	const char *msg = NULL;
	int quiet = 0, delete = 0, short_name = 0, recurse = 1, ret = 0;
	struct option opts[] = {
		OPT_BOOL('q', "quiet", &quiet,
			 "suppress error message for non-symbolic (detached) "
			 "refs"),
		OPT_BOOL('d', "delete", &delete, "delete symbolic ref"),
		OPT_BOOL(0, "short", &short_name, "shorten ref output"),
		OPT_BOOL(0, "recurse", &recurse,
			 "recursively dereference (default)"),
		OPT_STRING('m', NULL, &msg, "reason", "reason of the update"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, symbolic_ref_usage, 0);
	ret = repo_open(&repo, REPO_NO_CHDIR);
	if (ret < 0)
		die_lib(ret);
	if (msg && !*msg)
		fatal("Refusing to perform update with empty message");
	ref_store_init_repo(&rs, &repo);
	if (ident_get(&committer, &repo, IDENT_COMMITTER, 0) < 0)
		die_lib(-1);
	env.committer = committer.buf;

	if (delete) {
		if (argc != 1)
			usage_with_options(symbolic_ref_usage, opts);
		if (check_symref(&rs, argv[0], 0, &target))
			fatal("Cannot delete %s, not a symbolic ref", argv[0]);
		if (!strcmp(argv[0], "HEAD"))
			fatal("deleting '%s' is not allowed", argv[0]);
		if (refs_update(&rs, argv[0], &null_oid, NULL, REF_NO_DEREF,
				NULL, &env) < 0) {
			report("error: ", "%s", error_msg());
			ret = 1;
		}
	} else if (argc == 1) {
		ret = check_symref(&rs, argv[0], recurse, &target);
		if (ret && !quiet)
			fatal("ref %s is not a symbolic ref", argv[0]);
		if (!ret) {
			struct strbuf shown = STRBUF_INIT;

			if (short_name)
				refs_shorten_unambiguous(&shown, &rs,
							 target.buf, 0);
			else
				strbuf_addbuf(&shown, &target);
			printf("%s\n", shown.buf);
			strbuf_release(&shown);
		}
	} else if (argc == 2) {
		if (!strcmp(argv[0], "HEAD") && !starts_with(argv[1], "refs/"))
			fatal("Refusing to point HEAD outside of refs/");
		if (!refname_is_valid(argv[1], REFNAME_ALLOW_ONELEVEL))
			fatal("Refusing to set '%s' to invalid ref '%s'",
			      argv[0], argv[1]);
		ret = refs_set_symref(&rs, argv[0], argv[1], msg, &env);
		if (ret) {
			/* 1: written, but its reflog was not (git: exit 0) */
			if (error_pre())
				report("error: ", "%s", error_pre());
			report("error: ", "%s", error_msg());
			ret = ret < 0;
		}
	} else {
		usage_with_options(symbolic_ref_usage, opts);
	}
	strbuf_release(&target);
	strbuf_release(&committer);
	ref_store_release(&rs);
	repo_release(&repo);
	return ret;
}
