/*
 * read-tree: read trees into the index — replacing it with one tree or
 * an overlay of several, binding one under a prefix, or merging them
 * with the index (-m / --reset): one tree keeping the stat data of
 * unchanged entries, two as git's "Two Tree Merge" (H to M, local
 * changes carried), three or more as git's three-way merge (bases,
 * head, remote; --trivial, --aggressive) — with -u updating the work
 * tree.
 *
 * The checks come in git's order, so that where git has several
 * complaints about one command line dirc makes the same one: the
 * option conflicts, the lock, the old index (which a plain read and
 * --empty do not read at all), the trees, then what the trees and the
 * options say together.  What dirc refuses comes last, where git would
 * start the work.
 */
#include "builtin.h"
#include "convert.h"
#include "cache-tree.h"
#include "exclude.h"
#include "index.h"
#include "object-name.h"
#include "odb.h"
#include "parse-options.h"
#include "progress.h"
#include "repo.h"
#include "sparse-index.h"
#include "sparse.h"
#include "strbuf.h"
#include "unpack.h"

const char *const read_tree_usage[] = {
	"dirc read-tree [(-m [--trivial] [--aggressive] | --reset | "
	"--prefix=<prefix>)\n"
	"                      [-u | -i]] [--index-output=<file>] "
	"[--no-sparse-checkout]\n"
	"                      (--empty | <tree-ish1> [<tree-ish2> "
	"[<tree-ish3>]])",
	NULL,
};

struct rt_opts {
	struct unpack_opts uo;
	int exclude_per_dir;	/* --exclude-per-directory=.gitignore */
	int recurse;		/* --recurse-submodules (on) */
};

/* git checks this one while parsing: -u must come first. */
static int
opt_exclude(const struct option *opt, const char *arg, int unset)
{
	struct rt_opts *r = opt->value;

	(void)unset;
	if (!r->uo.update)
		die("--exclude-per-directory is meaningless unless -u");
	if (strcmp(arg, ".gitignore"))
		die("--exclude-per-directory argument must be .gitignore");
	r->exclude_per_dir = 1;
	return 0;
}

static int
opt_recurse(const struct option *opt, const char *arg, int unset)
{
	struct rt_opts *r = opt->value;
	int v = 1;

	if (unset)
		v = 0;
	else if (arg && (v = config_parse_bool(arg)) < 0)
		die("bad recurse-submodules argument: %s", arg);
	r->recurse = v;
	return 0;
}

static struct progress *update_progress;

static void
progress_total(void *ctx, uint64_t total)
{
	(void)ctx;
	update_progress = progress_start("Updating files", total, 0);
}

static void
progress_step(void *ctx, uint64_t n)
{
	(void)ctx;
	progress_add(update_progress, n, 0);
}

static void
progress_redraw(void *ctx)
{
	(void)ctx;
	progress_tick(update_progress);
}

/* dirc's refusals: what it does not have. */
static void
refuse(const struct rt_opts *r, int debug, int no_sparse, size_t nr,
       int sparse)
{
	if (r->uo.prefix && nr > 1)
		die("read-tree: a --prefix read of %zu trees is a merge, which "
		    "dirc does not support", nr);
	if (debug)
		die("--debug-unpack is not supported by dirc");
	if (r->recurse)
		die("--recurse-submodules is not supported by dirc");
	if (r->uo.prefix && r->uo.update && !no_sparse && sparse)
		die("read-tree --prefix -u in a sparse checkout "
		    "(core.sparseCheckout) is not supported by dirc; use "
		    "--no-sparse-checkout");
}

/*
 * Copies of idx's skip-worktree .gitignore entries as they are before
 * the merge, for the ignore rules to read (git reads them from the
 * index it started from): the merge changes the bits of idx's entries
 * as it goes.
 */
static void
skipped_ignores(struct index *snap, const struct index *idx)
{
	static const char name[] = ".gitignore";
	size_t n = sizeof(name) - 1;

	index_init(snap);
	for (size_t i = 0; i < idx->nr; i++) {
		const struct index_entry *e = idx->entries[i];

		if (!(e->ext_flags & CE_SKIP_WORKTREE) || e->namelen < n ||
		    strcmp(e->name + e->namelen - n, name) ||
		    (e->namelen > n && e->name[e->namelen - n - 1] != '/'))
			continue;
		ALLOC_GROW(snap->entries, snap->nr + 1, snap->alloc);
		snap->entries[snap->nr++] = index_entry_dup(snap, e);
	}
}

int
cmd_read_tree(int argc, const char **argv)
{
	struct rt_opts r = { .uo = { 0 } };
	struct unpack_opts *uo = &r.uo;
	struct repo repo;
	struct index idx, skipped;
	struct excludes ignored, ignored_in_dir;
	struct sparse sparse;
	struct odb *odb;
	struct convert *cv;
	struct lockfile lk = LOCKFILE_INIT;
	struct object_id trees[UNPACK_MAX_TREES];
	const char *index_output = NULL;
	char *prefix_buf = NULL;
	int empty = 0, verbose = 0, debug = 0;
	int no_sparse = 0, merge, ret;
	size_t nr = 0;
	struct option opts[] = {
		{ OPT_STRING_, 0, "index-output", &index_output, "file",
		  "write resulting index to <file>", OPT_NONEG, 0, NULL },
		OPT_BOOL(0, "empty", &empty, "only empty the index"),
		OPT_BOOL('v', "verbose", &verbose, "be verbose"),
		OPT_GROUP("Merging"),
		OPT_BOOL('m', NULL, &uo->merge, "perform a merge in addition "
			 "to a read"),
		OPT_BOOL(0, "trivial", &uo->trivial, "3-way merge if no file "
			 "level merging required"),
		OPT_BOOL(0, "aggressive", &uo->aggressive, "3-way merge in "
			 "presence of adds and removes"),
		OPT_BOOL(0, "reset", &uo->reset, "same as -m, but discard "
			 "unmerged entries"),
		{ OPT_STRING_, 0, "prefix", &uo->prefix, "<subdirectory>/",
		  "read the tree into the index under <subdirectory>/",
		  OPT_NONEG, 0, NULL },
		OPT_BOOL('u', NULL, &uo->update, "update working tree with "
			 "merge result"),
		OPT_CALLBACK_F(0, "exclude-per-directory", &r, "gitignore",
			       "allow explicitly ignored files to be "
			       "overwritten (not supported)", OPT_NONEG,
			       opt_exclude),
		OPT_BOOL('i', NULL, &uo->index_only, "don't check the working "
			 "tree after merging"),
		OPT_BOOL('n', "dry-run", &uo->dry_run, "don't update the index "
			 "or the work tree"),
		OPT_BOOL(0, "no-sparse-checkout", &no_sparse, "skip applying "
			 "sparse checkout filter"),
		OPT_BOOL(0, "debug-unpack", &debug, "debug unpack-trees (not "
			 "supported)"),
		OPT_CALLBACK_F(0, "recurse-submodules", &r, "checkout",
			       "control recursive updating of submodules "
			       "(not supported)", OPT_OPTARG, opt_recurse),
		OPT_BOOL('q', "quiet", &uo->quiet, "suppress feedback messages"),
		{ OPT_STRING_, 0, "super-prefix", &uo->super_prefix,
		  "superprefix", "prefixed path to initial superproject",
		  OPT_HIDDEN, 0, NULL },
		OPT_END(),
	};

	sparse_init(&sparse);
	argc = parse_options(argc, argv, opts, read_tree_usage, 0);
	if (!!uo->merge + !!uo->reset + !!uo->prefix > 1)
		die("Which one? -m, --reset, or --prefix?");
	if (uo->reset)
		uo->merge = 1;
	merge = uo->merge || uo->prefix;
	if (uo->prefix) {
		size_t len = strlen(uo->prefix);

		if (uo->prefix[0] == '/')
			die("Invalid prefix, prefix cannot start with '/'");
		if (len && uo->prefix[len - 1] != '/') {
			prefix_buf = xmalloc(len + 2);
			memcpy(prefix_buf, uo->prefix, len);
			memcpy(prefix_buf + len, "/", 2);
			uo->prefix = prefix_buf;
		}
	}

	ret = repo_open(&repo, uo->update || (uo->merge && !uo->index_only) ?
			REPO_NEED_WORKTREE : 0);
	if (ret < 0)
		die_lib(ret);
	ret = repo_odb(&odb, &repo);
	if (ret < 0)
		die_lib(ret);
	/* the index is locked even when the result goes elsewhere */
	ret = lockfile_hold(&lk, repo.index_path);
	if (ret < 0)
		die_lib(ret);
	/*
	 * git dies on a bad index.threads as it writes the index (after
	 * -u has changed files): here, before anything changes
	 */
	if (!uo->dry_run && (ret = index_threads_check(&repo.settings)) < 0) {
		lockfile_rollback(&lk);
		die_lib(ret);
	}
	if (merge) {
		ret = index_read_in(&idx, repo.index_path, &repo, 0, 0);
		if (ret < 0)
			die_lib(ret);
		ret = sparse_index_after_read(&idx, &repo, SPARSE_INDEX_FULL |
					      SPARSE_INDEX_TREE |
					      SPARSE_INDEX_MERGE);
		if (ret < 0)
			die_lib(ret);
		/* kept, invalidated where the merge changes the index */
		index_untracked_follow(&idx, &repo);
		if (!uo->reset)
			for (size_t k = 0; k < idx.nr; k++)
				if (ce_stage(idx.entries[k]))
					die("You need to resolve your current "
					    "index first");
	} else {
		struct index old;

		/*
		 * a plain read and --empty start a new index, as git, which
		 * keeps the sparse-index state of the one it read
		 */
		index_init(&idx);
		/* unread, it is not split by core.splitIndex either */
		idx.split_tweaked = 1;
		if (index_read_in(&old, repo.index_path, &repo, 0, 0) < 0 ||
		    sparse_index_after_read(&old, &repo, SPARSE_INDEX_AWARE |
					    SPARSE_INDEX_NO_PRESENT) < 0)
			error_clear();
		else
			sparse_index_keep_state(&idx, &old);
		index_release(&old);
	}

	for (int i = 0; i < argc; i++) {
		if (nr == UNPACK_MAX_TREES)
			die("I cannot read more than %d trees",
			    UNPACK_MAX_TREES);
		if (get_oid(&trees[nr], &repo, argv[i]) < 0)
			die("Not a valid object name %s", argv[i]);
		ret = peel_to_type(&trees[nr], &repo, &trees[nr], OBJ_TREE);
		if (ret < 0) {
			if (ret == -E_CORRUPT)
				error_lib(ret);	/* say how */
			die("failed to unpack tree object %s", argv[i]);
		}
		nr++;
	}
	if (empty && nr)
		die("passing trees as arguments contradicts --empty");
	if (!nr && !empty && !merge)
		warning("read-tree: emptying the index with no arguments is "
			"deprecated; use --empty");
	if (uo->update && uo->index_only)
		die("-u and -i at the same time makes no sense");
	if ((uo->update || uo->index_only) && !merge)
		die("%s is meaningless without -m, --reset, or --prefix",
		    uo->update ? "-u" : "-i");
	if (merge && !nr)
		die("you must specify at least one tree to merge");
	/* git reads the patterns for -u only, and not with --no-sparse-... */
	if (uo->update && !no_sparse) {
		ret = sparse_load(&sparse, &repo);
		if (ret < 0)
			die_lib(ret);
		if (ret > 0)
			uo->sparse = &sparse;
	}
	refuse(&r, debug, no_sparse, nr, uo->sparse != NULL);

	if (verbose && uo->update && !uo->dry_run) {
		/* on a terminal, after a second: quick runs print nothing */
		progress_setup(-1);
		uo->progress_total = progress_total;
		uo->progress.add = progress_step;
		uo->progress.tick = progress_redraw;
	}
	if (uo->update && !uo->reset) {
		/*
		 * git 2.39 lets -u overwrite ignored files whether or not
		 * --exclude-per-directory=.gitignore is given
		 */
		excludes_init(&ignored, repo.settings.ignorecase ?
			      EXCLUDE_ICASE : 0);
		ret = excludes_add_standard(&ignored, &repo);
		if (ret < 0)
			die_lib(ret);
		uo->ignored = &ignored;
		excludes_init(&ignored_in_dir, repo.settings.ignorecase ?
			      EXCLUDE_ICASE : 0);
		excludes_set_per_dir(&ignored_in_dir, ".gitignore");
		uo->ignored_in_dir = &ignored_in_dir;
		/* a skip-worktree .gitignore is read from the index */
		skipped_ignores(&skipped, &idx);
		excludes_set_index(&ignored, &skipped, odb);
		excludes_set_index(&ignored_in_dir, &skipped, odb);
	}
	if (nr) {
		ret = unpack_trees(&idx, &repo, odb, trees, nr, uo);
		progress_stop(&update_progress);
		if (ret < 0) {
			if (ret == -E_CONFLICT && !strcmp(error_msg(),
							  "read-tree failed"))
				exit(128);
			die_lib(ret);
		}
		/*
		 * git merges a sparse directory as one entry (but with -u,
		 * which marks it all the same, and --prefix, which expands)
		 */
		if (!uo->update && !uo->prefix)
			sparse_index_after_merge(&idx);
	} else {
		/* empty the index: git writes a TREE for the empty tree */
		idx.tree = cache_tree_new();
		idx.tree->entry_count = 0;
		idx.tree->oid = empty_tree_oid;
		index_mark_changed(&idx);
	}
	if (uo->dry_run) {
		lockfile_rollback(&lk);
	} else {
		if (index_output) {
			/* written into index.lock, renamed to the output */
			free(lk.target);
			lk.target = repo_abspath(index_output, NULL);
		}
		/* racy entries are checked with their files cleaned */
		cv = convert_new(&repo, &idx, odb, 0);
		convert_attach_index(cv, &idx);
		ret = index_write(&idx, &repo, &lk);
		if (ret < 0)
			die("unable to write new index file");
		if (convert_free(cv) < 0)
			die_lib(-1);
	}
	free(prefix_buf);
	if (uo->ignored) {
		excludes_release(&ignored);
		excludes_release(&ignored_in_dir);
		index_release(&skipped);
	}
	sparse_release(&sparse);
	index_release(&idx);
	repo_release(&repo);
	return 0;
}
