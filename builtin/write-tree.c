/*
 * write-tree: the tree objects of the index, via the cache-tree; only
 * invalid nodes are rebuilt, and the refreshed TREE extension is written
 * back under the index lock.
 */
#include "builtin.h"
#include "cache-tree.h"
#include "index.h"
#include "odb.h"
#include "parse-options.h"
#include "repo.h"
#include "sparse-index.h"
#include "workers.h"

const char *const write_tree_usage[] = {
	"dirc write-tree [--missing-ok] [--prefix=<prefix>/]",
	NULL,
};

int
cmd_write_tree(int argc, const char **argv)
{
	struct repo repo;
	struct index idx;
	struct odb *odb;
	struct lockfile lk = LOCKFILE_INIT;
	const char *prefix = NULL;
	struct cache_tree *node;
	int missing_ok = 0, ignore = 0, threads = 0, ret;
	struct option opts[] = {
		OPT_BOOL(0, "missing-ok", &missing_ok, "allow missing objects"),
		OPT_STRING(0, "prefix", &prefix, "<prefix>/",
			   "write tree object for a subdirectory <prefix>"),
		{ OPT_BOOL_, 0, "ignore-cache-tree", &ignore, NULL,
		  "only useful for debugging", OPT_HIDDEN, 0, NULL },
		OPT_INT(0, "threads", &threads, "<n>",
			"threads for computing trees (default: all CPUs)"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, write_tree_usage, 0);
	if (argc)
		usage_with_options(write_tree_usage, opts);
	ret = repo_open(&repo, REPO_NO_CHDIR);
	if (ret < 0)
		die_lib(ret);
	ret = lockfile_hold(&lk, repo.index_path);
	if (ret < 0)
		die_lib(ret);
	/*
	 * A fully valid cache-tree found before the entries (EOIE) is all
	 * the answer needs: the entries are then checked, not kept, and
	 * the tree below its root not built; both are read only if the
	 * tree turns out not to be stored, or for --prefix.  (No sparse
	 * directory then, so nothing for the sparse index to expand.)
	 */
	ret = index_read_in(&idx, repo.index_path, &repo,
			    ignore ? 0 : INDEX_READ_TREE_ONLY, threads);
	if (ret < 0)
		die_lib(ret);	/* git dies reading it, with the reason alone */
	/* kept (no entry changes), on or off as configured; no write for it */
	index_untracked_follow(&idx, &repo);
	ret = sparse_index_after_read(&idx, &repo, SPARSE_INDEX_FULL |
				      SPARSE_INDEX_TREE |
				      SPARSE_INDEX_NO_PRESENT);
	if (ret < 0)
		die_lib(ret);
	ret = repo_odb(&odb, &repo);
	if (ret < 0)
		die_lib(ret);
	if (ignore) {
		cache_tree_free(idx.tree);
		idx.tree = NULL;
	}
	/*
	 * A fully valid cache-tree is taken as it is, but only while its
	 * root tree is stored (git checks the same): an index copied from
	 * elsewhere, or objects pruned, must not make us print an id that
	 * names nothing.
	 */
	if (!idx.tree || !cache_tree_fully_valid(idx.tree) ||
	    !odb_has(odb, &idx.tree->oid)) {
		index_read_rest(&idx);
		/* --threads, DIRC_THREADS, dirc.threads: the common order */
		ret = cache_tree_update(&idx, odb, missing_ok ?
					CACHE_TREE_MISSING_OK : 0,
					workers_count(threads,
						      repo.settings.threads,
						      0, 0));
		if (ret < 0)
			die_lib(ret);
		/* batch fsync: the trees are durable before anything names them */
		ret = odb_flush(odb);
		if (ret < 0)
			die_lib(ret);
		/* writing the refreshed cache-tree back is opportunistic */
		idx.threads = threads;
		/* but a bad index.threads is fatal there, as in git */
		ret = index_threads_check(&repo.settings);
		if (ret < 0) {
			lockfile_rollback(&lk);
			die_lib(ret);
		}
		if (index_write(&idx, &repo, &lk) < 0)
			error_clear();
	} else {
		lockfile_rollback(&lk);
	}
	node = idx.tree;
	if (prefix) {
		size_t len = strlen(prefix);

		index_read_rest(&idx);	/* the tree below its root */
		while (len && prefix[len - 1] == '/')
			len--;
		node = cache_tree_find(idx.tree, prefix, len);
		if (!node || node->entry_count < 0)
			die("git-write-tree: prefix %s not found", prefix);
	}
	printf("%s\n", oid_to_hex(&node->oid));
	index_release(&idx);
	repo_release(&repo);
	return 0;
}
