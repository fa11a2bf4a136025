/*
 * merge-index: run a merge program for each unmerged path of the index,
 * as git does: "<program> <id1> <id2> <id3> <path> <mode1> <mode2>
 * <mode3>", the ids and modes of stages 1-3 (empty strings for a stage
 * that is absent), the path as the index has it.  The program is found
 * as git finds it (lib/run-command.h: the exec path, GIT_EXEC_PATH when
 * set, goes first in PATH), so git's git-merge-one-file runs over dirc's
 * index; it runs at the top of the work tree with GIT_PREFIX saying
 * where the command was started, and GIT_DIR when git would set it.
 *
 * The index is read once, before any program runs (programs change it
 * as they go).  Arguments are taken in order, as git takes them: -o and
 * -q only in that order and first, then the program, then paths, "-a"
 * (every unmerged path) and "--" (what follows are paths); a path that
 * is merged (stage 0) is skipped, one the index does not have is fatal.
 * Without -o the first failing program ends it ("fatal: merge program
 * failed", or with -q exit 1 and no message); with -o every path is
 * tried and the exit code is the number of failures.
 */
#include <signal.h>
#include <unistd.h>

#include "builtin.h"
#include "index.h"
#include "repo.h"
#include "run-command.h"
#include "sparse-index.h"
#include "sparse.h"
#include "strbuf.h"

const char *const merge_index_usage[] = {
	"dirc merge-index [-o] [-q] <merge-program> (-a | [--] "
	"[<filename>...])",
	NULL,
};

struct mi {
	struct index idx;
	const char *program;
	int one_shot, quiet;
	int failed;		/* programs that failed, with -o */
};

static void NORETURN
usage_merge_index(void)
{
	fflush(stdout);
	fprintf(stderr, "usage: %s\n", merge_index_usage[0]);
	exit(129);
}

/* Run the program; 0 if it succeeded, -1 (said why, as git) if not. */
static int
run_program(struct mi *mi, const char *const *argv)
{
	struct run_status st;
	int ret = run_command(&st, argv);

	if (ret < 0)
		return error_lib(ret);
	if (st.exec_failed) {
		/* git's child dies with this message */
		fflush(stdout);
		fprintf(stderr, "fatal: %s\n", error_msg());
		error_clear();
		return -1;
	}
	if (st.signal && st.signal != SIGINT && st.signal != SIGQUIT &&
	    st.signal != SIGPIPE)
		error("%s died of signal %d", mi->program, st.signal);
	return st.code ? -1 : 0;
}

/*
 * Merge the stages of path starting at entries[pos]: run the program
 * once.  Returns how many entries the path has there (at least 1).
 */
static size_t
merge_entry(struct mi *mi, size_t pos, const char *path)
{
	char ids[4][HASH_MAX_HEXSZ + 1], modes[4][16];
	const char *argv[] = { mi->program, "", "", "", path, "", "", "",
			       NULL };
	size_t found = 0;

	for (; pos < mi->idx.nr; pos++, found++) {
		const struct index_entry *e = mi->idx.entries[pos];
		int stage = ce_stage(e);

		if (strcmp(e->name, path))
			break;
		oid_to_hex_r(ids[stage], &e->oid);
		snprintf(modes[stage], sizeof(modes[stage]), "%o", e->mode);
		argv[stage] = ids[stage];
		argv[stage + 4] = modes[stage];
	}
	if (!found)
		die("git merge-index: %s not in the cache", path);
	if (run_program(mi, argv) < 0) {
		if (!mi->one_shot) {
			if (!mi->quiet)
				die("merge program failed");
			exit(1);
		}
		mi->failed++;
	}
	return found;
}

static void
merge_one_path(struct mi *mi, const char *path)
{
	ssize_t pos = index_pos(&mi->idx, path, strlen(path), 0);

	/* a stage-0 entry is merged already */
	if (pos < 0)
		merge_entry(mi, (size_t)(-pos - 1), path);
}

static void
merge_all(struct mi *mi)
{
	for (size_t i = 0; i < mi->idx.nr;) {
		const struct index_entry *e = mi->idx.entries[i];

		if (!ce_stage(e))
			i++;
		else
			i += merge_entry(mi, i, e->name);
	}
}

int
cmd_merge_index(int argc, const char **argv)
{
	struct repo repo;
	struct mi mi;
	int i = 1, force_file = 0, ret;

	memset(&mi, 0, sizeof(mi));
	if (argc == 2 && !strcmp(argv[1], "-h"))
		usage_merge_index();
	/*
	 * The programs run where git runs them: at the top of the work
	 * tree when the command starts inside it, else where it starts.
	 */
	ret = repo_open(&repo, REPO_NO_CHDIR);
	if (ret < 0)
		die_lib(ret);
	if (repo.worktree && repo.inside_worktree && chdir(repo.worktree) < 0)
		die("cannot chdir to '%s': %s", repo.worktree, strerror(errno));
	if (argc < 3)
		usage_merge_index();
	ret = index_read_in(&mi.idx, repo.index_path, &repo, 0, 0);
	if (ret < 0)
		die_lib(ret);
	ret = sparse_index_after_read(&mi.idx, &repo, SPARSE_INDEX_FULL);
	if (ret < 0)
		die_lib(ret);

	/* what the programs see: git's PATH, GIT_PREFIX and GIT_DIR */
	ret = run_setup_path();
	if (ret < 0)
		die_lib(ret);
	setenv("GIT_PREFIX", repo.prefix, 1);
	if (repo.gitdir_env)
		setenv("GIT_DIR", repo.gitdir_env, 1);

	if (!strcmp(argv[i], "-o")) {
		mi.one_shot = 1;
		i++;
	}
	if (i < argc && !strcmp(argv[i], "-q")) {
		mi.quiet = 1;
		i++;
	}
	/* "-o -q" alone: no program, nothing to do (as git) */
	mi.program = i < argc ? argv[i++] : NULL;
	for (; mi.program && i < argc; i++) {
		const char *arg = argv[i];

		if (!force_file && *arg == '-') {
			if (!strcmp(arg, "--")) {
				force_file = 1;
				continue;
			}
			if (!strcmp(arg, "-a")) {
				merge_all(&mi);
				continue;
			}
			die("git merge-index: unknown option %s", arg);
		}
		merge_one_path(&mi, arg);
	}
	if (mi.failed && !mi.quiet)
		die("merge program failed");
	index_release(&mi.idx);
	repo_release(&repo);
	return mi.failed & 0xff;
}
