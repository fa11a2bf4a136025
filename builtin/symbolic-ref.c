/*
 * symbolic-ref: read, set or delete a symbolic ref such as HEAD.
 */
#include "builtin.h"
#include "commit.h"
#include "parse-options.h"
#include "refs.h"
#include "repo.h"
#include "strbuf.h"

const char *const symbolic_ref_usage[] = {
	"dirc symbolic-ref [-m <reason>] <name> <ref>",
	"dirc symbolic-ref [-q] [--short] <name>",
	"dirc symbolic-ref --delete [-q] <name>",
	NULL,
};

static const char *
shorten(const char *ref)
{
	const char *p;

	if (skip_prefix(ref, "refs/heads/", &p) ||
	    skip_prefix(ref, "refs/tags/", &p) ||
	    skip_prefix(ref, "refs/remotes/", &p))
		return p;
	return ref;
}

int
cmd_symbolic_ref(int argc, const char **argv)
{
	struct repo repo;
	struct ref_store rs;
	struct strbuf target = STRBUF_INIT;
	struct object_id oid;
	const char *msg = NULL;
	int quiet = 0, delete = 0, short_name = 0, ret;
	struct option opts[] = {
		OPT_BOOL('q', "quiet", &quiet,
			 "suppress error message for non-symbolic (detached) "
			 "refs"),
		OPT_BOOL('d', "delete", &delete, "delete symbolic ref"),
		OPT_BOOL(0, "short", &short_name, "shorten ref output"),
		OPT_STRING('m', NULL, &msg, "reason", "reason of the update"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, symbolic_ref_usage, 0);
	ret = repo_open(&repo, REPO_NO_CHDIR);
	if (ret < 0)
		die_lib(ret);
	ref_store_init(&rs, repo.gitdir, repo.commondir);
	if (delete) {
		if (argc != 1)
			usage_with_options(symbolic_ref_usage, opts);
		ret = refs_read_raw(&rs, argv[0], &oid, &target);
		if (ret != 1) {
			if (quiet) {
				ret = 1;
				goto out;
			}
			die("Cannot delete %s, not a symbolic ref", argv[0]);
		}
		if (!strcmp(argv[0], "HEAD"))
			die("deleting '%s' is not allowed", argv[0]);
		ret = refs_delete(&rs, argv[0], NULL, REF_NO_DEREF);
		if (ret < 0)
			die_lib(ret);
	} else if (argc == 1) {
		ret = refs_read_raw(&rs, argv[0], &oid, &target);
		if (ret != 1) {
			if (quiet) {
				ret = 1;
				goto out;
			}
			die("ref %s is not a symbolic ref", argv[0]);
		}
		printf("%s\n", short_name ? shorten(target.buf) : target.buf);
		ret = 0;
	} else if (argc == 2) {
		struct strbuf committer = STRBUF_INIT;

		if (!strcmp(argv[0], "HEAD") && !starts_with(argv[1], "refs/"))
			die("Refusing to point HEAD outside of refs/");
		if (!refname_is_valid(argv[1], 0))
			die("Refusing to set '%s' to invalid ref '%s'", argv[0],
			    argv[1]);
		if (ident_get(&committer, &repo, IDENT_COMMITTER, 0) < 0)
			die_lib(-1);
		ret = refs_set_symref(&rs, argv[0], argv[1], committer.buf,
				      msg, refs_flags_for(&repo));
		strbuf_release(&committer);
		if (ret < 0) {
			/* git: an error, exit 1 */
			error_lib(ret);
			ret = 1;
			goto out;
		}
	} else {
		usage_with_options(symbolic_ref_usage, opts);
	}
	ret = 0;
out:
	strbuf_release(&target);
	ref_store_release(&rs);
	repo_release(&repo);
	return ret;
}
