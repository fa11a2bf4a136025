/*
 * settings: what the repository's configuration decides for the modules
 * below repo (odb, index, refs, checkout), as plain values.  repo_open()
 * fills them; the lower modules read them without knowing the repository,
 * so they never include repo.h.
 */
#ifndef DIRC_SETTINGS_H
#define DIRC_SETTINGS_H

enum fsync_component {
	FSYNC_LOOSE_OBJECT = 1 << 0,
	FSYNC_PACK = 1 << 1,
	FSYNC_PACK_METADATA = 1 << 2,
	FSYNC_COMMIT_GRAPH = 1 << 3,
	FSYNC_INDEX = 1 << 4,
	FSYNC_REFERENCE = 1 << 5,
};

enum fsync_method {
	FSYNC_METHOD_FSYNC,		/* fsync() each file */
	FSYNC_METHOD_WRITEOUT_ONLY,	/* start write-out, do not wait */
	FSYNC_METHOD_BATCH,		/* write-out per object, one flush */
};

struct repo_settings {
	int filemode;		/* core.filemode: trust the exec bit */
	int trustctime;		/* core.trustctime */
	int checkstat_minimal;	/* core.checkStat=minimal */
	int symlinks;		/* core.symlinks */
	int ignorecase;		/* core.ignorecase */
	int sparse_checkout;	/* core.sparseCheckout */
	int sparse_checkout_cone; /* core.sparseCheckoutCone */
	int sparse_expect_outside; /* sparse.expectFilesOutsideOfPatterns */
	unsigned protect;	/* PATH_PROTECT_* from core.protectNTFS/HFS */
	int quotepath;		/* core.quotePath */
	int loose_level;	/* zlib level for loose objects, -1..9 */
	unsigned fsync;		/* FSYNC_* components that must be synced */
	enum fsync_method fsync_method;
	int log_all_ref_updates; /* 0 no, 1 yes (branches etc.), 2 always */
	int index_version;	/* for new indexes: 2, 3, 4, or 0 = default */
	/*
	 * index.skipHash (git 2.40; feature.manyFiles implies it): a
	 * zero trailer instead of the index's hash.
	 */
	int index_skip_hash;
	/*
	 * core.untrackedCache as git takes it (feature.manyFiles: 1 by
	 * default): 1 keep one, 0 drop it, -1 leave the index as it is.
	 */
	int untracked_cache;
	int threads;		/* dirc.threads, 0 = automatic */
	/*
	 * index.threads as git 2.39 reads it (GIT_TEST_INDEX_THREADS
	 * first): 0 automatic (true), 1 off (false), n; any value when
	 * index_threads_set.  It decides when git writes EOIE and IEOT.
	 */
	int index_threads_set;
	int index_threads;
	/*
	 * A bad index.threads: git refuses it only when it reads an index
	 * (one that exists) or writes one.  The value (borrowed from the
	 * configuration) and why: "invalid unit" or "out of range"; NULL
	 * when good.  index_threads_check() refuses it.
	 */
	const char *index_threads_bad, *index_threads_why;
	/*
	 * index.recordEndOfIndexEntries, index.recordOffsetTable: 0, 1,
	 * -1 unset, -2 not a boolean: git refuses that only when it asks
	 * (the value then in *_bad, borrowed from the configuration).
	 */
	int record_eoie, record_ieot;
	const char *record_eoie_bad, *record_ieot_bad;
};

#endif
