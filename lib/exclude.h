/*
 * exclude: git's ignore rules (gitignore(5)).
 *
 * A pattern list is what one source gives: a .gitignore file (its
 * patterns relative to the directory it sits in, its "base"), the
 * repository's info/exclude, core.excludesFile, an --exclude-from file,
 * or the --exclude options of a command line.  Lines of a file are read
 * as git reads them: a UTF-8 byte order mark at the start is skipped,
 * a CR before the LF is dropped, empty lines and lines starting with '#'
 * are skipped, trailing spaces go unless the last is escaped ("\ "); a
 * leading '!' negates ("\!" and "\#" start a pattern with those
 * characters); a trailing '/' matches directories only; a '/' at the
 * start or in the middle anchors the pattern to the base, otherwise it
 * is matched against the last component of the path.  Matching is
 * lib/wildmatch's (WM_PATHNAME for anchored patterns; WM_CASEFOLD under
 * EXCLUDE_ICASE).  In a list, the last pattern that matches decides.
 *
 * A rule set (struct excludes) orders the lists as git does: command-line
 * patterns first, then the per-directory files from the deepest
 * directory up to the top, then the files added with excludes_add_file()
 * (info/exclude, core.excludesFile, --exclude-from), the last added
 * first.  The first list with a matching pattern decides.  A directory
 * that is excluded is not entered: everything under it is excluded by
 * the same pattern, and its own per-directory file is not read.
 *
 * Not thread-safe: a struct excludes keeps the per-directory lists of
 * the last path asked about; pattern lists are read-only once built and
 * may be matched from several threads.
 */
#ifndef DIRC_EXCLUDE_H
#define DIRC_EXCLUDE_H

#include <stddef.h>

#include "strbuf.h"

enum exclude_pattern_flags {
	EXCLUDE_NEGATIVE = 1 << 0,	/* "!pattern": re-includes */
	EXCLUDE_MUSTBEDIR = 1 << 1,	/* "pattern/": directories only */
	EXCLUDE_NODIR = 1 << 2,		/* no '/' in it: the basename */
	EXCLUDE_ENDSWITH = 1 << 3,	/* "*literal": a suffix compare */
};

struct exclude_list;
struct index;
struct odb;

struct exclude_pattern {
	char *pattern;		/* without the '!' and the trailing '/';
				 * owned */
	size_t len;
	size_t nowildcard;	/* leading bytes free of wildcards */
	unsigned flags;		/* EXCLUDE_NEGATIVE etc. */
	int lineno;		/* 1-based line in the source; the n-th
				 * command-line pattern has -n */
	const struct exclude_list *list;	/* the list it is in */
};

struct exclude_list {
	struct exclude_pattern **patterns;	/* in source order; owned */
	size_t nr, alloc;
	char *base;		/* "" or "dir/sub/": what the patterns are
				 * relative to; owned */
	size_t baselen;
	char *src;		/* the source as git names it (".gitignore",
				 * "a/.gitignore", ".git/info/exclude",
				 * "--exclude option"); owned; may be NULL */
};

/* An empty list for patterns relative to base ("" or "d/"), from src. */
void exclude_list_init(struct exclude_list *pl, const char *base,
		       const char *src);
void exclude_list_release(struct exclude_list *pl);

/*
 * Add one pattern as it stands (no comment or trailing-space rules: how
 * git takes an --exclude argument).  lineno as in struct exclude_pattern.
 */
void exclude_list_add(struct exclude_list *pl, const char *pattern,
		      int lineno);

/*
 * Add the pattern lines of buf (len bytes, need not end in '\n' nor be
 * NUL-terminated), numbering them from 1.  Never fails: any byte string
 * is a valid pattern file.
 */
void exclude_list_parse(struct exclude_list *pl, const char *buf,
			size_t len);

enum exclude_read_flags {
	EXCLUDE_READ_NOFOLLOW = 1 << 0,	/* a symlink is not read (git's
					 * rule for in-tree .gitignore) */
};

/*
 * Read the file path into pl with exclude_list_parse().  0, or:
 *   -E_NOTFOUND  it does not exist (ENOENT/ENOTDIR); message "cannot
 *                use <path> as an exclude file"
 *   -E_CORRUPT   it opened but could not be read whole (a directory);
 *                the same message.  git warns about neither.
 *   another -E_* it could not be opened (no permission; a symlink under
 *                EXCLUDE_READ_NOFOLLOW): "unable to access '<path>':
 *                <why>", which git prints as a warning.
 */
int exclude_list_read_file(struct exclude_list *pl, const char *path,
			   unsigned flags);

enum exclude_match_flags {
	EXCLUDE_ICASE = 1 << 0,		/* core.ignoreCase */
};

enum exclude_result {
	EXCLUDE_UNDECIDED = 0,	/* no pattern of the list matches */
	EXCLUDE_MATCHED,	/* the last matching pattern excludes */
	EXCLUDE_NEGATED,	/* the last matching pattern is "!..." */
};

/*
 * Match path (len bytes, NUL-terminated, from the top of the work tree,
 * no trailing '/') against pl.  is_dir: whether path is a directory
 * (patterns ending in '/' match only then).  If which is not NULL, it is
 * set to the deciding pattern (NULL if undecided).  The path need not
 * lie under pl->base: then only basename patterns can match, as in git
 * (callers keep lists to paths under their base).  Thread-safe.
 */
enum exclude_result exclude_list_match(const struct exclude_list *pl,
				       const char *path, size_t len,
				       int is_dir, unsigned flags,
				       const struct exclude_pattern **which);

/* ---- a rule set: all the sources of a command ---- */

enum exclude_dtype {
	EXCLUDE_DTYPE_UNKNOWN = -1,	/* look: the index, then lstat() */
	EXCLUDE_DTYPE_FILE = 0,		/* not a directory */
	EXCLUDE_DTYPE_DIR = 1,
};

struct exclude_dir;

struct excludes {
	struct exclude_list cmdline;	/* --exclude patterns */
	struct exclude_list **files;	/* excludes_add_file(); owned */
	size_t files_nr, files_alloc;
	char *per_dir;			/* ".gitignore" etc., or NULL; owned */
	unsigned flags;			/* EXCLUDE_ICASE */
	const struct index *idx;	/* borrowed; may be NULL (see */
	struct odb *odb;		/* excludes_set_index()) */
	/* the per-directory lists of the last directory asked about */
	struct exclude_dir *stack;	/* top directory first; owned */
	size_t stack_nr, stack_alloc;
	struct strbuf base;		/* that directory, "" or "a/b/" */
	const struct exclude_pattern *dir_pattern;
					/* excludes a leading directory of
					 * base (everything below is
					 * excluded by it), or NULL */
	int cmdline_nr;			/* patterns given so far */
	struct strbuf absent;		/* excludes_hint_absent()'s dir */
	int has_absent;
	int borrowed;			/* excludes_clone(): cmdline, files,
					 * per_dir and stack[0] are src's */
};

/* Set up an empty rule set.  flags: EXCLUDE_ICASE. */
void excludes_init(struct excludes *ex, unsigned flags);
void excludes_release(struct excludes *ex);

/*
 * A rule set for another thread: src's sources and its top-level
 * per-directory list if it has one (all borrowed: src must outlive dst
 * and stay unchanged meanwhile), with a stack of its own.  Release with
 * excludes_release().  Nothing may be added to dst.
 */
void excludes_clone(struct excludes *dst, const struct excludes *src);

/* An --exclude pattern (ls-files -x). */
void excludes_add_pattern(struct excludes *ex, const char *pattern);

/*
 * Read the file path as a source of the lowest group; src names it in
 * check-ignore -v (NULL: path).  Errors as exclude_list_read_file(); on
 * error nothing is added.
 */
int excludes_add_file(struct excludes *ex, const char *path,
		      const char *src);

/* Read per-directory files named name (".gitignore"); NULL: none. */
void excludes_set_per_dir(struct excludes *ex, const char *name);

/*
 * A per-directory file absent from the work tree whose index entry (in
 * idx, read through odb) is marked skip-worktree is read from there, as
 * git does.  Both borrowed, and must outlive ex's use; NULL: never.
 */
void excludes_set_index(struct excludes *ex, const struct index *idx,
			struct odb *odb);

struct repo;

/*
 * git's --exclude-standard: per-directory ".gitignore", then
 * core.excludesFile (default $XDG_CONFIG_HOME/git/ignore, else
 * $HOME/.config/git/ignore) and $GIT_DIR/info/exclude when readable.
 * A file that exists but cannot be accessed is reported with diag_emit
 * ("unable to access '<path>': <why>") and skipped; a file that passes
 * the access check but cannot be read is an error: -E_* with "cannot
 * use <path> as an exclude file".
 */
int excludes_add_standard(struct excludes *ex, struct repo *repo);

/*
 * The pattern deciding path (len bytes, NUL-terminated, from the top, no
 * trailing '/'), or NULL: a negative pattern ("!...") means not
 * excluded, as does NULL.  dtype: enum exclude_dtype.  Per-directory
 * files on the way are read (once per directory while the walk stays
 * in it; unreadable ones are reported with diag_emit and skipped).
 */
const struct exclude_pattern *excludes_pattern(struct excludes *ex,
					       const char *path, size_t len,
					       int dtype);

/*
 * The caller listed the directory dir ("" or "a/b/", len bytes) and saw
 * no per-directory file in it: when its list is next made, do not try
 * to open one (a skip-worktree one in the index is still read).
 */
void excludes_hint_absent(struct excludes *ex, const char *dir, size_t len);

/* Is path excluded (a positive pattern decides it)? */
int excludes_path(struct excludes *ex, const char *path, size_t len,
		  int dtype);

#endif
