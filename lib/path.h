/*
 * path: turning command-line paths into index paths, and deciding which
 * paths may enter the index at all (git's verify_path rules).
 */
#ifndef DIRC_PATH_H
#define DIRC_PATH_H

#include "strbuf.h"

enum path_protect {
	PATH_PROTECT_NTFS = 1 << 0,	/* core.protectNTFS (default on) */
	PATH_PROTECT_HFS = 1 << 1,	/* core.protectHFS (default off) */
};

/*
 * Normalise arg, given relative to the directory prefix ("" or "sub/dir/")
 * of the work tree at worktree (absolute), into a path relative to the
 * work tree top, replacing out: "./" and empty components are dropped,
 * ".." resolved; an absolute arg must lie inside worktree.  A trailing
 * slash is kept.  0, or -E_INVALID ("'<arg>' is outside repository at
 * '<worktree>'").
 */
int path_normalize(struct strbuf *out, const char *prefix, const char *arg,
		   const char *worktree);

/*
 * May path enter the index as an entry of this st_mode-style mode?  No
 * empty, "." or ".." component, no leading or trailing slash, no ".git"
 * component in any case, and (per flags) no NTFS or HFS alias of ".git";
 * for symlinks no ".gitmodules" either.  1 if valid, 0 if not.
 */
int path_verify(const char *path, unsigned mode, unsigned flags);

/*
 * Does path "p" (length plen) lie under directory "dir" (length dlen,
 * without trailing slash)?  "" is the top directory and contains
 * everything.
 */
int path_in_dir(const char *p, size_t plen, const char *dir, size_t dlen);

#endif
