/*
 * repo: find the repository, read its configuration as git layers it, and
 * hold the settings every other module asks about.
 *
 * Discovery follows git: GIT_DIR (then the current directory is the top of
 * the work tree unless GIT_WORK_TREE, core.worktree or core.bare says
 * otherwise), or a walk up from the current directory looking for ".git"
 * (a directory, or a file "gitdir: <path>") or a bare repository, stopping
 * at GIT_CEILING_DIRECTORIES and at file-system boundaries.  Opening a
 * repository with a work tree chdir()s to its top, as git does; prefix
 * says where the caller was, for paths given on the command line.
 */
#ifndef DIRC_REPO_H
#define DIRC_REPO_H

#include "config.h"
#include "fileio.h"
#include "settings.h"

struct odb;

struct repo {
	char *gitdir;		/* absolute; owned; NULL without a repo */
	char *commondir;	/* absolute; owned (== gitdir's copy unless
				 * a linked worktree) */
	char *worktree;		/* absolute top of the work tree; owned;
				 * NULL when bare */
	char *prefix;		/* where the command started, relative to
				 * worktree: "" or "sub/dir/"; owned */
	char *objdir;		/* absolute; owned */
	char *index_path;	/* absolute; owned */
	int bare;
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

/* Free everything, closing the object store. */
void repo_release(struct repo *repo);

/* The object store, opened on first use.  0 or a negative E_*. */
int repo_odb(struct odb **out, struct repo *repo);

/*
 * Is dir a git directory (HEAD, objects/, refs/ as git requires)?
 * objdir_env: the GIT_OBJECT_DIRECTORY override, or NULL.
 */
int repo_is_gitdir(const char *dir, const char *objdir_env);

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

/* Make path absolute against base (or the cwd if base is NULL). */
char *repo_abspath(const char *path, const char *base);

#endif
