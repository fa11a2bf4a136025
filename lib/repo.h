/*
 * repo: find the repository, read its configuration as git layers it, and
 * hold the settings every other module asks about.
 *
 * Discovery follows git's setup: GIT_DIR (a directory, or a file
 * "gitdir: <path>"), or a walk up from the current directory looking for
 * ".git" (a directory or such a file) or a bare repository, stopping at
 * GIT_CEILING_DIRECTORIES and at file-system boundaries.  The work tree
 * then comes from GIT_WORK_TREE, core.worktree or core.bare (read from
 * the repository's own config, as git does; not for a linked worktree),
 * else the directory .git was found in, else (GIT_DIR) the current one.
 * A linked worktree's git directory holds HEAD and the index; refs,
 * objects and config come from its common directory.
 *
 * Opening a repository with a work tree the current directory is in
 * chdir()s to its top, as git does; prefix says where the caller was,
 * for paths given on the command line.  Whether a command needs a work
 * tree is decided in one place, repo_setup_worktree(), which a command
 * calls when (and only when) an operation needs one, as git's
 * setup_work_tree().
 */
#ifndef DIRC_REPO_H
#define DIRC_REPO_H

#include "config.h"
#include "fileio.h"
#include "settings.h"
#include "strbuf.h"

struct odb;

struct repo {
	char *gitdir;		/* absolute; owned; NULL without a repo */
	char *commondir;	/* absolute; owned (== gitdir's copy unless
				 * a linked worktree) */
	char *worktree;		/* absolute real path of the top of the
				 * work tree (it may not exist); owned;
				 * NULL when there is none */
	char *prefix;		/* where the command started, relative to
				 * worktree: "" or "sub/dir/"; owned ("" when
				 * not inside the work tree) */
	char *objdir;		/* absolute; owned */
	char *index_path;	/* absolute; owned */
	char *gitdir_env;	/* GIT_DIR as git's setup leaves it for
				 * its subprocesses (relative to the
				 * directory git works in, or absolute), or
				 * NULL when git leaves it unset (".git" at
				 * the top of the work tree); owned */
	int bare;		/* git's is_bare_repository(): no work tree
				 * and core.bare not false */
	int inside_worktree;	/* the start directory is in the work tree */
	int inside_gitdir;	/* ... in the git directory */
	int worktree_bogus;	/* core.bare and core.worktree both set */
	int in_worktree_dir;	/* chdir()ed to the top of the work tree */
	int reftable;		/* refs in reftable stacks (extensions.
				 * refStorage, or GIT_REFERENCE_BACKEND) */
	struct config config;
	struct repo_settings settings;
	struct odb *odb;	/* opened on first repo_odb(); owned */
};

enum repo_open_flags {
	REPO_GENTLY = 1 << 0,		/* no repository is not an error */
	REPO_NEED_WORKTREE = 1 << 1,	/* a bare repository is an error */
	REPO_NO_CHDIR = 1 << 2,		/* stay in the current directory */
};

/*
 * Find and open the repository for the current directory and
 * environment.  0, or a negative E_*: -E_NOREPO ("not a git repository
 * (or any of the parent directories): .git"), -E_UNSUPPORTED (format
 * version or extensions dirc does not understand), -E_INVALID (bad
 * configuration).  With REPO_GENTLY and no repository, returns 0 with
 * gitdir NULL and only user and environment configuration loaded.
 */
int repo_open(struct repo *out, unsigned flags);

/*
 * Make sure there is a work tree and work at its top (chdir there, once):
 * what a command calls before an operation that needs one.  0, or
 * -E_NOREPO ("this operation must be run in a work tree", or "unable to
 * set up work tree using invalid config").
 */
int repo_setup_worktree(struct repo *repo);

/* Free everything, closing the object store. */
void repo_release(struct repo *repo);

/* The object store, opened on first use.  0 or a negative E_*. */
int repo_odb(struct odb **out, struct repo *repo);

/*
 * Is dir a git directory (HEAD, objects/, refs/ as git requires)?
 * objdir_env: the GIT_OBJECT_DIRECTORY override, or NULL.  The common
 * directory (GIT_COMMON_DIR, or what dir/commondir says) holds objects/
 * and refs/.
 */
int repo_is_gitdir(const char *dir, const char *objdir_env);

/*
 * The common directory of the git directory gitdir, into out (replacing
 * it): GIT_COMMON_DIR, else the real path of what gitdir/commondir names,
 * else gitdir itself.  1 if gitdir is a linked worktree's (it has a
 * commondir, or GIT_COMMON_DIR is set), 0 if not, or a negative E_*.
 */
int repo_commondir_of(struct strbuf *out, const char *gitdir);

/*
 * Check the format of the repository at gitdir (its common directory
 * commondir; linked: it is a linked worktree's) as opening it would: 0,
 * or a negative E_* with git's message (a config that does not parse, a
 * version or extensions dirc cannot use).  *algo: the repository's hash
 * algorithm, or NULL where the config says no format version (a new or
 * unformatted repository).  *reftable: its refs are in reftable stacks.
 * Opening a repository sets hash_algo from it.
 */
struct hash_algo;
int repo_check_format(const char *gitdir, const char *commondir, int linked,
		      const struct hash_algo **algo, int *reftable);

/*
 * Read path as a gitfile ("gitdir: <dir>", relative to path's directory)
 * and set out to the real path of the git directory it names.  1 if it
 * did; 0 if path is missing or not a regular file (out untouched); or a
 * negative E_* with git's message ("invalid gitfile format: <path>", "no
 * path in gitfile: <path>", "not a git repository: <dir>", ...).
 */
int repo_read_gitfile(struct strbuf *out, const char *path);

/*
 * git's real path: symbolic links resolved, and a last component that
 * does not exist allowed (kept as given).  0, or -E_NOTFOUND/-E_IO
 * ("Invalid path '<first missing part>': <reason>", "The empty string is
 * not a valid path").
 */
int repo_realpath(struct strbuf *out, const char *path);

/*
 * Parse a core.fsync value into FSYNC_* bits (starting from git's
 * default); unknown components are reported through diag_emit.
 */
unsigned repo_parse_fsync(const char *value);

/*
 * How to sync a file of component (one FSYNC_*) under these settings:
 * none unless core.fsync names it; a write-out only with
 * core.fsyncMethod=writeout-only; else a full fsync (batch mode only
 * changes loose objects, which the odb batches itself).
 */
enum sync_mode repo_sync_mode(const struct repo_settings *s,
			      unsigned component);

/*
 * Where paths given on the command line are taken from, as git names it
 * in "'<path>' is outside repository at '<top>'", into out (replaced):
 * the work tree, or for a bare repository its git directory as git holds
 * it, made absolute without being cleaned ("<cwd>/." when it is the
 * current directory).
 */
void repo_paths_top(struct strbuf *out, const struct repo *repo);

/*
 * How to open path (relative to the top of the work tree) from here, into
 * out (replaced): path itself once the process is at the top (so a path
 * near PATH_MAX still opens, as it does for git), else <worktree>/path.
 */
void repo_worktree_path(struct strbuf *out, const struct repo *repo,
			const char *path);

/* Make path absolute against base (or the cwd if base is NULL). */
char *repo_abspath(const char *path, const char *base);

#endif
