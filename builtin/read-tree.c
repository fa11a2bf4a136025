/*
 * read-tree: read a tree into the index — replacing it, binding under a
 * prefix, or as a one-way merge (-m / --reset) that keeps the stat data
 * of unchanged entries and with -u updates the work tree.
 */
#include "builtin.h"
#include "cache-tree.h"
#include "index.h"
#include "object-name.h"
#include "odb.h"
#include "parse-options.h"
#include "repo.h"
#include "unpack.h"

const char *const read_tree_usage[] = {
	"dirc read-tree [(-m | --reset | --prefix=<prefix>) [-u | -i]]\n"
	"               [--index-output=<file>] (--empty | <tree-ish>)",
	NULL,
};

int
cmd_read_tree(int argc, const char **argv)
{
	struct repo repo;
	struct index idx;
	struct odb *odb;
	struct lockfile lk = LOCKFILE_INIT;
	struct unpack_opts uo = { 0 };
	struct object_id tree;
	const char *index_output = NULL, *target;
	int empty = 0, quiet = 0, dry_run = 0, ret;
	struct option opts[] = {
		OPT_STRING(0, "index-output", &index_output, "file",
			   "write resulting index to <file>"),
		OPT_BOOL(0, "empty", &empty, "only empty the index"),
		OPT_STRING(0, "prefix", &uo.prefix, "<subdirectory>/",
			   "read the tree into the index under "
			   "<subdirectory>/"),
		OPT_BOOL('m', NULL, &uo.merge, "perform a merge in addition "
			 "to a read"),
		OPT_BOOL(0, "reset", &uo.reset, "same as -m, but discard "
			 "unmerged entries"),
		OPT_BOOL('u', NULL, &uo.update, "update working tree with "
			 "merge result"),
		OPT_BOOL('i', NULL, &uo.index_only, "don't check the working "
			 "tree after merging"),
		OPT_BOOL('n', "dry-run", &dry_run, "don't update the index or "
			 "the work tree"),
		OPT_BOOL('q', "quiet", &quiet, "suppress feedback messages"),
		OPT_END(),
	};
	char *prefix_buf = NULL;

	argc = parse_options(argc, argv, opts, read_tree_usage, 0);
	if (empty && argc)
		die("passing trees as arguments contradicts --empty");
	if (uo.update && !uo.merge && !uo.reset && !uo.prefix)
		die("-u is meaningless without -m, --reset, or --prefix");
	if (uo.index_only && uo.update)
		die("-u and -i at the same time makes no sense");
	if (uo.index_only && !uo.merge && !uo.reset && !uo.prefix)
		die("-i is meaningless without -m, --reset, or --prefix");
	if (!!uo.merge + !!uo.reset + !!uo.prefix > 1)
		die("Which one? -m, --reset, or --prefix?");
	if (uo.prefix) {
		size_t len = strlen(uo.prefix);

		if (uo.prefix[0] == '/')
			die("Invalid prefix, prefix cannot start with '/'");
		if (len && uo.prefix[len - 1] != '/') {
			prefix_buf = xmalloc(len + 2);
			memcpy(prefix_buf, uo.prefix, len);
			prefix_buf[len] = '/';
			prefix_buf[len + 1] = '\0';
			uo.prefix = prefix_buf;
		}
	}
	if (uo.reset)
		uo.merge = 1;
	if (dry_run)
		uo.update = 0;	/* -n: neither the index nor the work tree */
	if ((uo.merge || uo.prefix) && !argc)
		die("you must specify at least one tree to merge");
	if (argc > 1)
		die("dirc read-tree reads a single tree; %d given", argc);
	if (!argc && !empty)
		warning("read-tree: emptying the index with no arguments is "
			"deprecated; use --empty");

	ret = repo_open(&repo, uo.update || (uo.merge && !uo.index_only) ?
			REPO_NEED_WORKTREE : 0);
	if (ret < 0)
		die_lib(ret);
	ret = repo_odb(&odb, &repo);
	if (ret < 0)
		die_lib(ret);
	target = index_output ? index_output : repo.index_path;
	ret = lockfile_hold(&lk, target);
	if (ret < 0)
		die_lib(ret);
	ret = index_read(&idx, repo.index_path, 0);
	if (ret < 0)
		die_lib(ret);

	if (argc) {
		ret = get_oid(&tree, &repo, argv[0]);
		if (ret < 0)
			die("Not a valid object name %s", argv[0]);
		ret = peel_to_type(&tree, &repo, &tree, OBJ_TREE);
		if (ret < 0) {
			if (ret == -E_CORRUPT)
				error_lib(ret);	/* say how */
			die("failed to unpack tree object %s", argv[0]);
		}
		ret = unpack_tree(&idx, &repo, odb, &tree, &uo);
		if (ret < 0) {
			if (ret == -E_CONFLICT && !strcmp(error_msg(),
							  "read-tree failed"))
				exit(128);
			die_lib(ret);
		}
	} else {
		/* empty the index: git writes a TREE for the empty tree */
		idx.nr = 0;
		index_clear_resolve_undo(&idx);
		cache_tree_free(idx.tree);
		idx.tree = cache_tree_new();
		idx.tree->entry_count = 0;
		idx.tree->oid = empty_tree_oid;
		index_mark_changed(&idx);
	}
	if (dry_run) {
		lockfile_rollback(&lk);
	} else {
		ret = index_write(&idx, &repo, &lk);
		if (ret < 0)
			die("unable to write new index file: %s", error_msg());
	}
	free(prefix_buf);
	index_release(&idx);
	repo_release(&repo);
	return 0;
}
