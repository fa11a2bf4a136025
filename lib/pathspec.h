/*
 * pathspec: the paths a command is asked about, read and matched as git
 * 2.39 reads and matches them.
 *
 * An argument is a path relative to the current directory ("sub/x",
 * "../y", "." or an absolute path inside the work tree), a glob ("*.c":
 * wildmatch() without WM_PATHNAME, so '*' also matches '/'), or either of
 * those after magic: ":(top,icase,...)rest", or the short forms ":/rest"
 * (top), ":!rest" and ":^rest" (exclude).  Magic words: top, literal
 * (no globbing), glob (wildmatch with WM_PATHNAME: '*' stays inside a
 * component, "**" crosses them), icase, exclude, and prefix:<n> (the
 * first n bytes are the current directory; git's internal form, only at
 * the top).  attr:<spec> needs attributes, which dirc does not have yet:
 * it is refused.  The environment adds magic to every argument:
 * GIT_LITERAL_PATHSPECS (literal, and no magic is parsed at all),
 * GIT_GLOB_PATHSPECS, GIT_NOGLOB_PATHSPECS (literal unless the argument
 * says glob), GIT_ICASE_PATHSPECS, with git's "incompatible" errors.
 *
 * A match says how a name matched (the PATHSPEC_MATCHED_* levels), and
 * records per item the best level seen, for --error-unmatch.  Items are
 * tried from the last to the first, an exactly matched item is not tried
 * again once "seen" records it, and exclusions are only looked at when a
 * positive item matched: git's rules, whose oddities commands show (with
 * --error-unmatch, "ls-files c" lists only the first stage of an
 * unmerged "c").
 */
#ifndef DIRC_PATHSPEC_H
#define DIRC_PATHSPEC_H

#include "util.h"

enum pathspec_magic {
	PATHSPEC_TOP = 1 << 0,
	PATHSPEC_LITERAL = 1 << 1,
	PATHSPEC_GLOB = 1 << 2,
	PATHSPEC_ICASE = 1 << 3,
	PATHSPEC_EXCLUDE = 1 << 4,
};

struct pathspec_item {
	char *match;		/* from the top of the work tree; owned */
	size_t len;
	size_t nowildcard_len;	/* the leading part matched literally */
	size_t prefix;		/* leading bytes of match that are the
				 * current directory (compared exactly even
				 * under icase) */
	unsigned magic;		/* PATHSPEC_* */
	char *original;		/* the argument as given; owned */
};

struct pathspec {
	struct pathspec_item *items;	/* owned */
	size_t nr;
	unsigned magic;			/* the items' magic, or-ed */
};
#define PATHSPEC_INIT { NULL, 0, 0 }

enum pathspec_parse_flags {
	/*
	 * Without arguments, match the current directory (git's
	 * PATHSPEC_PREFER_CWD); else nothing is parsed and everything
	 * matches.  An argument list of exclusions only gets the current
	 * directory (or the top) as its positive item, originally ".".
	 */
	PATHSPEC_PREFER_CWD = 1 << 0,
	/*
	 * The command matches literally and knows no magic but top and
	 * literal (ls-tree): an item with any other magic, attr included,
	 * is -E_INVALID "<arg>: pathspec magic not supported by this
	 * command: 'glob', 'icase', 'exclude' (mnemonic: '!'), 'attr'"
	 * (those it has, in that order), checked once the item is
	 * otherwise parsed, as git does.
	 */
	PATHSPEC_ONLY_TOP_LITERAL = 1 << 1,
};

/*
 * Parse nr arguments given in the directory prefix ("" or "sub/") of the
 * work tree at worktree (absolute).  0, or -E_INVALID with git's message
 * ("Invalid pathspec magic 'x' in ':(x)y'", "Unimplemented pathspec magic
 * '#' in ':#x'", "Missing ')' at the end of pathspec magic in '...'",
 * "<arg>: 'literal' and 'glob' are incompatible", "<arg>: '<path>' is
 * outside repository at '<worktree>'", "empty string is not a valid
 * pathspec. ...", "global 'literal' pathspec setting is incompatible with
 * all other global pathspec settings", "global 'glob' and 'noglob'
 * pathspec settings are incompatible", "bad boolean config value 'x' for
 * 'GIT_..._PATHSPECS'"), or -E_UNSUPPORTED for attr magic (but see
 * PATHSPEC_ONLY_TOP_LITERAL).  On failure
 * out is empty.
 */
int pathspec_parse(struct pathspec *out, const char *const *args, size_t nr,
		   const char *prefix, const char *worktree, unsigned flags);

void pathspec_release(struct pathspec *ps);

/* How a name matched: 0 for not at all, else one of these (ordered). */
enum pathspec_matched {
	PATHSPEC_MATCHED_RECURSIVELY = 1,	/* it lies under an item */
	PATHSPEC_MATCHED_LEADING = 2,		/* an item lies under it */
	PATHSPEC_MATCHED_FNMATCH = 3,		/* a glob matched it */
	PATHSPEC_MATCHED_EXACTLY = 4,
};

enum pathspec_match_flags {
	/* name is a directory: item "d/" matches it exactly as "d" */
	PATHSPEC_MATCH_DIRECTORY = 1 << 0,
	/* report names on the way to an item (PATHSPEC_MATCHED_LEADING) */
	PATHSPEC_MATCH_LEADING = 1 << 1,
};

/*
 * Does name (len bytes, NUL-terminated somewhere at or after len) match?
 * Globs see the whole NUL-terminated string, as in git: a directory
 * passed as "d/" with len 1 is globbed with its slash.  The first prefix
 * bytes are taken as matching every item (the caller restricted names to
 * the common prefix; see pathspec_common_prefix()); items shorter than
 * prefix do not match.  seen (one byte per item, or NULL) records the
 * best level each item reached.  Returns a PATHSPEC_MATCHED_* level or 0;
 * everything matches (RECURSIVELY) an empty pathspec.
 */
int pathspec_match(const struct pathspec *ps, const char *name, size_t len,
		   size_t prefix, unsigned char *seen, unsigned flags);

/* The same, but positive items only: exclusions are not looked at. */
int pathspec_match_positive(const struct pathspec *ps, const char *name,
			    size_t len, size_t prefix, unsigned char *seen,
			    unsigned flags);

/*
 * Length of the leading directories every positive item shares ("a/b/"
 * for "a/b/c" and "a/b/d*"; under icase only the current directory
 * counts); 0 if an item's text differs at the first byte, or if the
 * first item is an exclusion.
 */
size_t pathspec_common_prefix(const struct pathspec *ps);

/*
 * Could anything at or below path (len bytes) match?  False when no
 * item's literal leading part agrees with path: a walk may skip it.
 */
int pathspec_may_match_below(const struct pathspec *ps, const char *path,
			     size_t len);

/*
 * Should item i be reported by --error-unmatch, given seen?  Yes if it
 * matched nothing and no other item spelt the same way did.
 */
int pathspec_item_unmatched(const struct pathspec *ps,
			    const unsigned char *seen, size_t i);

#endif
