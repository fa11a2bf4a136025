/*
 * diff-common: the command line the raw diff family shares (diff-files,
 * diff-index, diff-tree), read as git's setup_revisions() and diff
 * options read it: options anywhere before "--"; then object names;
 * without "--", the first argument that names no object starts the
 * paths, which must exist ("ambiguous argument"), and an object name
 * that is also a file is ambiguous; after "--", paths only.
 *
 * Refused, exit 128: patch and stat output (-p, -u, --stat, ...), rename
 * and copy detection (-M, -C, -B, ...), and the other options of git's
 * diff machinery dirc does not have.  An option git does not know at all
 * is a usage error (129).
 */
#ifndef DIRC_DIFF_COMMON_H
#define DIRC_DIFF_COMMON_H

#include "diff.h"
#include "hash.h"
#include "pathspec.h"
#include "repo.h"

enum diff_cmd_kind {
	DIFF_CMD_FILES,
	DIFF_CMD_INDEX,
	DIFF_CMD_TREE,
};

#define DIFF_CMD_MAX_REVS 16

struct diff_cmd {
	enum diff_cmd_kind kind;
	struct diff_opts d;
	struct repo repo;
	struct odb *odb;
	struct pathspec ps;
	int exit_code;			/* --exit-code, --quiet */

	/* diff-tree */
	int read_stdin, root, merges, combined, no_commit_id, always;
	/* object names given, in order; rev_neg: "^x" or the left of "a..b" */
	struct object_id revs[DIFF_CMD_MAX_REVS];
	int rev_neg[DIFF_CMD_MAX_REVS];
	const char *rev_names[DIFF_CMD_MAX_REVS];
	size_t nr_revs;
};

/* The usage and the common diff options on stderr, exit 129 (git's). */
NORETURN void diff_usage(const char *const *usage);

/*
 * Open the repository and read the command line into c; prints usage
 * (exit 129) or dies (128) as git does on a bad one.  usage: the
 * command's usage lines.
 */
void diff_cmd_setup(struct diff_cmd *c, enum diff_cmd_kind kind, int argc,
		    const char **argv, const char *const *usage);

/* Write what the output buffer holds; dies if writing fails. */
void diff_cmd_flush(struct diff_cmd *c);

/* Flush the output and return the exit code git gives. */
int diff_cmd_finish(struct diff_cmd *c);

#endif
