/*
 * diff-files: how the work tree differs from the index, as git's raw
 * diff records (lib/diff.h does the work; the command line is
 * diff-common's).  An unmerged path gets its "U" record, then the
 * comparison with the stage -1/-2/-3 (default -2) chooses; -c shows an
 * unmerged path with both sides as one combined record (with --raw,
 * --name-only or --name-status: without them git prints a combined
 * patch, which dirc refuses).
 */
#include "builtin.h"
#include "convert.h"
#include "diff-common.h"
#include "index.h"
#include "sparse-index.h"
#include "sparse.h"

const char *const diff_files_usage[] = {
	"dirc diff-files [-q] [-0 | -1 | -2 | -3 | -c] [<common-diff-options>] "
	"[<path>...]",
	NULL,
};

int
cmd_diff_files(int argc, const char **argv)
{
	struct diff_cmd c;
	struct index idx;
	struct convert *cv;
	struct odb *cv_odb;
	int ret;

	diff_cmd_setup(&c, DIFF_CMD_FILES, argc, argv, diff_files_usage);
	if (c.nr_revs)
		diff_usage(diff_files_usage);
	ret = repo_setup_worktree(&c.repo);
	if (ret < 0)
		die_lib(ret);
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
	ret = diff_files(&c.d, &idx);
	if (ret < 0)
		die_lib(ret);
	if (convert_free(cv) < 0)
		die_lib(-1);
	index_release(&idx);
	return diff_cmd_finish(&c);
}
