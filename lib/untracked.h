/*
 * untracked: the work-tree paths the index does not track, found the way
 * git 2.39's directory walk finds them (dir.c's fill_directory), for
 * "ls-files -o" and "-k".
 *
 * The walk starts at the pathspec's common leading directory, skips
 * ".git" at every level, paths the index holds (at any stage), paths no
 * pathspec item could match, and anything that is neither a file, a
 * symlink nor a directory.  A directory the index holds files under is
 * walked; a gitlink is skipped; another repository (a ".git" directory
 * or gitfile naming a repository, other than our own) is reported as
 * "dir/" and not walked into.  A wholly untracked directory is walked,
 * or with UNTRACKED_DIRECTORIES reported as "dir/" (unless a pathspec
 * item lies further down it, or UNTRACKED_HIDE_EMPTY finds nothing in
 * it).  Files must match the pathspec; directories are reported as they
 * match it, with git's oddities (see pathspec.h).
 *
 * With ignore rules (lib/exclude.h), an excluded path is not reported
 * and an excluded directory not entered; with UNTRACKED_SHOW_IGNORED
 * it is the other way round: only the excluded paths are reported (all
 * the files under an excluded directory, or with UNTRACKED_DIRECTORIES
 * the directory itself), as git's "ls-files -o -i" does.
 */
#ifndef DIRC_UNTRACKED_H
#define DIRC_UNTRACKED_H

#include "strbuf.h"

struct excludes;
struct index;
struct pathspec;

enum untracked_flags {
	UNTRACKED_DIRECTORIES = 1 << 0,	/* --directory */
	UNTRACKED_HIDE_EMPTY = 1 << 1,	/* --no-empty-directory */
	/*
	 * Only what may stand in the way of the index: untracked
	 * directories the index has no file or directory at are skipped
	 * (ls-files -k without -o).
	 */
	UNTRACKED_KILLED_ONLY = 1 << 2,
	UNTRACKED_IGNORECASE = 1 << 3,	/* core.ignorecase lookups */
	UNTRACKED_SHOW_IGNORED = 1 << 4, /* report the excluded paths only */
};

struct untracked {
	const char **names;	/* sorted by bytes; directories end in
				 * '/'; point into arena */
	size_t nr;
	struct strbuf arena;	/* the names, NUL-separated; owned */
	size_t *offsets;	/* into arena while walking; owned */
	size_t offsets_nr, offsets_alloc;
	/*
	 * Index lookups made.  git builds its name hash on the first one
	 * and marks every entry CE_HASHED, which "ls-files --debug" shows.
	 */
	size_t lookups;
};
#define UNTRACKED_INIT { NULL, 0, STRBUF_INIT, NULL, 0, 0, 0 }

/*
 * Walk the work tree (the current directory is its top) for paths idx
 * does not track and ps could match, into out (sorted).  gitdir: the
 * repository's own git directory, which is never taken for a nested
 * repository.  ex: the ignore rules, or NULL for none (it is asked
 * about paths in walk order, so its per-directory files are read once
 * per directory).  Directories that cannot be read are reported through
 * diag_emit ("could not open directory '<d>': <why>") and skipped, as
 * git does.  Always succeeds.
 */
void untracked_collect(struct untracked *out, const struct index *idx,
		       const struct pathspec *ps, const char *gitdir,
		       struct excludes *ex, unsigned flags);

void untracked_release(struct untracked *u);

#endif
