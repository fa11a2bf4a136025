/*
 * diff-index: how a tree differs from the index (--cached) or, through
 * the index, from the work tree, as git's raw diff records (lib/diff.h
 * does the work; the command line is diff-common's).  With --cached, a
 * directory whose cache-tree node is valid and names the tree's own
 * subtree is skipped without looking at its entries.
 */
#include "builtin.h"
#include "convert.h"
#include "diff-common.h"
#include "index.h"
#include "object-name.h"
#include "sparse-index.h"
#include "sparse.h"

const char *const diff_index_usage[] = {
	"dirc diff-index [-m] [--cached] [<common-diff-options>] <tree-ish> "
	"[<path>...]",
	NULL,
};

int
cmd_diff_index(int argc, const char **argv)
{
	struct diff_cmd c;
	struct index idx;
	struct object_id tree;
	struct convert *cv;
	struct odb *cv_odb;
	int ret;

	diff_cmd_setup(&c, DIFF_CMD_INDEX, argc, argv, diff_index_usage);
	if (c.nr_revs != 1)
		diff_usage(diff_index_usage);
	if (!c.d.cached) {
		ret = repo_setup_worktree(&c.repo);
		if (ret < 0)
			die_lib(ret);
	}
	ret = index_read_in(&idx, c.repo.index_path, &c.repo, 0, 0);
	if (ret < 0)
		die_lib(ret);
	/* racy entries are compared with their files cleaned as git does */
	cv = convert_new(&c.repo, &idx, repo_odb(&cv_odb, &c.repo) < 0 ? NULL : cv_odb,
			 0);
	error_clear();
	convert_attach_index(cv, &idx);
	ret = sparse_index_after_read(&idx, &c.repo, SPARSE_INDEX_FULL);
	if (ret < 0)
		die_lib(ret);
	if (peel_to_type(&tree, &c.repo, &c.revs[0], OBJ_TREE) < 0) {
		error_clear();
		error("bad tree object %s", c.rev_names[0]);
		exit(128);
	}
	ret = diff_index(&c.d, &idx, &tree);
	if (ret < 0)
		die_lib(ret);
	if (convert_free(cv) < 0)
		die_lib(-1);
	index_release(&idx);
	return diff_cmd_finish(&c);
}
