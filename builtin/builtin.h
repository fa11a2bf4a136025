/*
 * builtin: the commands of the dirc binary, and the helpers they share
 * to report failure the way git does.
 *
 * How to add a command: write builtin/<name>.c with
 * "int cmd_<name>(int argc, const char **argv)" and its usage lines
 * "const char *const <name>_usage[]", declare both here, add the pair to
 * the table in builtin/main.c, add builtin/<name>.o to BUILTIN_OBJS in the
 * Makefile, and write Documentation/dirc-<name>.1 and a t/ test.
 */
#ifndef DIRC_BUILTIN_H
#define DIRC_BUILTIN_H

#include "error.h"
#include "util.h"

/* "fatal: <msg>" on stderr, exit 128. */
NORETURN PRINTF_LIKE(1, 2) void die(const char *fmt, ...);
/*
 * Die with lib's error: its first line as "error: <pre>" if any, then
 * "fatal: <message>"; exit 128.  ret is the negative E_* lib returned.
 */
NORETURN void die_lib(int ret);
/* "error: <msg>"; returns -1. */
PRINTF_LIKE(1, 2) int error(const char *fmt, ...);
/* Print lib's error as "error: ..." (and its first line); returns -1. */
int error_lib(int ret);
/* "warning: <msg>". */
PRINTF_LIKE(1, 2) void warning(const char *fmt, ...);

/*
 * git's verdict on a name that is neither a revision nor a path:
 * "fatal: ambiguous argument '<arg>': unknown revision or path not in
 * the working tree." and the "Use '--'" hint; exit 128.
 */
NORETURN void die_ambiguous_arg(const char *arg);
/*
 * path_arg_exists() (lib/path.h) for a command, dying on an lstat
 * error as git does ("failed to stat '<arg>': <why>").
 */
int arg_is_existing_path(const char *top, const char *prefix,
			 const char *arg);

/* Install the printer for lib's diagnostics (stderr, git's prefixes). */
void setup_diagnostics(void);

/* Print the usage lines (no options) to stdout; used by "dirc help". */
void print_usage_lines(const char *const *usage);

#define COMMANDS(X)							\
	X(cat_file, "cat-file")						\
	X(check_attr, "check-attr")					\
	X(check_ignore, "check-ignore")					\
	X(checkout_index, "checkout-index")				\
	X(commit_tree, "commit-tree")					\
	X(count_objects, "count-objects")				\
	X(diff_files, "diff-files")					\
	X(diff_index, "diff-index")					\
	X(diff_tree, "diff-tree")					\
	X(hash_object, "hash-object")					\
	X(init, "init")							\
	X(ls_files, "ls-files")						\
	X(ls_tree, "ls-tree")						\
	X(merge_index, "merge-index")					\
	X(mktree, "mktree")						\
	X(read_tree, "read-tree")					\
	X(rev_parse, "rev-parse")					\
	X(symbolic_ref, "symbolic-ref")					\
	X(update_cache, "update-cache")					\
	X(update_ref, "update-ref")					\
	X(verify_pack, "verify-pack")					\
	X(write_tree, "write-tree")

/* Hidden from "dirc help": helpers for tests and perf. */
int cmd_test_tool(int argc, const char **argv);
extern const char *const test_tool_usage[];
/* "test-tool reftable ..." (builtin/test-reftable.c) */
int test_tool_reftable(int argc, const char **argv);

#define DECLARE_CMD(fn, name)						\
	int cmd_##fn(int argc, const char **argv);			\
	extern const char *const fn##_usage[];
COMMANDS(DECLARE_CMD)
#undef DECLARE_CMD

#endif
