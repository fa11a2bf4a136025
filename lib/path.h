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
 * Make arg, given relative to the directory prefix ("" or "sub/dir/") of
 * the work tree at worktree (absolute, real), a path relative to the work
 * tree top in out, as git does for every path a command takes: "./" and
 * empty components are dropped and ".." resolved; a trailing slash is
 * kept, and so is the one a last "." or ".." leaves ("d/." is "d/").  An
 * absolute arg is normalised, then inside when it starts with worktree or
 * when one of its leading directories, or the whole of it (its last
 * component may be missing), resolves through symlinks to worktree; a
 * leading directory that does not resolve is an error.  *kept (when kept
 * is not NULL): how much of prefix is still at the front of out (0 for an
 * absolute arg).  0; 1 if arg is outside the work tree (out empty, no
 * error set); or -E_* ("Invalid path '<dir>': <strerror>").
 */
int path_resolve(struct strbuf *out, size_t *kept, const char *prefix,
		 const char *arg, const char *worktree);

/*
 * path_resolve() with git's message for a path outside:
 * 0, or -E_INVALID ("'<arg>' is outside repository at '<worktree>'"),
 * or path_resolve()'s error.
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
 * Is the tree entry name (NUL-terminated; git fsck asks this of every
 * entry, on every platform) a dot-file under another spelling?  1 or 0.
 *
 * path_is_hfs_dot(): ".<word>" as HFS+ compares it: ASCII case folded,
 * the code points HFS+ ignores (U+200C..200F, U+202A..202E,
 * U+206A..206F, U+FEFF) dropped, ending at the end or a '/'.
 * path_is_ntfs_dotgit(): ".git" or "git~1" in any case, then only dots
 * and spaces up to the end, a '/', a '\\' or a ':'.
 * path_is_ntfs_dot(): ".<word>", its 8.3 short names (both forms) as
 * NTFS makes them, then only dots and spaces up to the end or a ':'.
 * word is one of "gitmodules", "gitignore", "gitattributes", "mailmap";
 * another is a BUG().
 */
int path_is_hfs_dot(const char *name, const char *word);
int path_is_ntfs_dotgit(const char *name);
int path_is_ntfs_dot(const char *name, const char *word);

/*
 * Does path "p" (length plen) lie under directory "dir" (length dlen,
 * without trailing slash)?  "" is the top directory and contains
 * everything.
 */
int path_in_dir(const char *p, size_t plen, const char *dir, size_t dlen);

/*
 * name (len bytes, from the top of the work tree) as seen from the
 * directory prefix ("" or "sub/dir/", plen bytes), as git's
 * relative_path() names it: the part below prefix when name lies under
 * it, "./" for prefix itself (or a file of its name), else climbing
 * with "../" from the directories they share.  Nothing is copied in the
 * common case: returns 0 with *skip set when the answer is name + *skip
 * (*skip is len + 1 for "./"), or 1 when it is built in rel (replaced).
 */
int path_relative(struct strbuf *rel, size_t *skip, const char *name,
		  size_t len, const char *prefix, size_t plen);

/*
 * Does the command-line argument arg name an existing path, as git asks
 * of a name that is not a revision?  arg is taken from top (an absolute
 * directory: the work tree) and prefix (the command's directory below
 * it, "dir/"; "" or NULL for the top); ":/<p>" is <p> from the top,
 * ":!<p>" and ":^<p>" are <p>; ":/", ":!", ":^" alone always exist, ""
 * never.  1, 0, or -E_IO ("failed to stat '<arg>': <why>") when lstat
 * fails other than with ENOENT or ENOTDIR.
 */
int path_arg_exists(const char *top, const char *prefix, const char *arg);

/*
 * Would git take arg as a pathspec even where no such path exists: a
 * wildcard ('*', '?', '[' not escaped by '\\') or ":(" magic?
 */
int path_arg_is_pattern(const char *arg);

#endif
