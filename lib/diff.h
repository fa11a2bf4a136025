/*
 * diff: what changed — between two trees (diff-tree), a tree and the
 * index or the work tree through the index (diff-index), the index and
 * the work tree (diff-files) — as git 2.39's raw diff records, and the
 * output formats of those records in one place.
 *
 * A record is one changed path:
 *
 *   old mode, new mode   0 for a side without the path
 *   old id, new id       the null id for a side without the path, and
 *                        for a work-tree file whose stat data differs
 *                        from its index entry (its content is not read:
 *                        git's rule, so a touched file shows up too)
 *   status               A added, D deleted, M modified (content or
 *                        mode), T type changed (file, symlink, gitlink),
 *                        U unmerged
 *   path                 from the top of the work tree
 *
 * Records come out in git's order: tree order for diff-tree (a file
 * before a directory of the same name, a directory's own record before
 * what is inside it), full-path order for diff-index, index order for
 * diff-files.  They are filtered (-S), reversed (-R) and printed as they
 * are found; nothing is queued, so memory does not grow with the number
 * of changes.
 *
 * Printing: git's raw format ":<old mode> <new mode> <old id> <new id>
 * <status>\t<path>\n", the combined form "::<m1> <m2> <m> <id1> <id2>
 * <id> <s1><s2>\t<path>", --name-only, --name-status, -z (NUL after the
 * status and after the path), paths quoted as core.quotePath says unless
 * -z, ids full or abbreviated (--abbrev[=<n>]).
 *
 * Speed: identical subtrees are skipped by id without being read.
 * diff_index() with cached set skips every index directory whose
 * cache-tree node is valid and names the tree's subtree, without
 * looking at its entries.  diff_files() checks the work tree on
 * threads and prints in index order.
 *
 * lib/ does not print: the records go into an output buffer that the
 * caller's write_out empties (see diff_flush()).
 */
#ifndef DIRC_DIFF_H
#define DIRC_DIFF_H

#include "fileio.h"
#include "hash.h"
#include "strbuf.h"

struct index;
struct odb;
struct pathspec;
struct repo;

enum diff_output {
	DIFF_OUT_RAW,		/* the default */
	DIFF_OUT_NAME_ONLY,	/* --name-only */
	DIFF_OUT_NAME_STATUS,	/* --name-status */
	DIFF_OUT_NONE,		/* -s, --no-patch, --quiet */
};

#define DIFF_ABBREV_FULL 0	/* 40 digits (git's plumbing default) */
#define DIFF_ABBREV_AUTO (-1)	/* --abbrev: core.abbrev or git's auto */

/* One changed path (see the top of this file). */
struct diff_record {
	unsigned old_mode, new_mode;
	struct object_id old_oid, new_oid;
	char status;			/* 'A' 'D' 'M' 'T' 'U' */
	const char *path;		/* NUL-terminated; borrowed for the
					 * duration of the callback */
	size_t len;
};

struct diff_opts {
	/* what to compare */
	const struct pathspec *ps;	/* NULL or empty: every path */
	int recursive;			/* -r (diff-index and diff-files
					 * always recurse) */
	int show_trees;			/* -t: a directory's own record
					 * before its contents (implies
					 * recursive) */
	int reverse;			/* -R */
	const char *pickaxe;		/* -S<string>: only records whose
					 * sides hold the string a different
					 * number of times; NULL: off */
	size_t pickaxe_len;
	int quick;			/* --quiet: stop at the first change */
	/*
	 * --diff-filter: the statuses shown, bit i for letter i of
	 * DIFF_STATUS_LETTERS; 0: every one.  From the letters of every
	 * --diff-filter given (see diff_parse_filter()).
	 */
	unsigned filter;
	unsigned filter_upper, filter_lower;	/* the letters given so far */

	/* diff-index */
	int cached;			/* --cached: the index, not the work
					 * tree */
	int match_missing;		/* -m: a missing file matches its
					 * entry */

	/* diff-files */
	int stage;			/* -0..-3: which stage of an unmerged
					 * path is compared (default 2); 0
					 * shows only the U record */
	int silent_on_removed;		/* no record for a missing file (git's
					 * documented -q, which git 2.39's
					 * diff-files does not apply) */
	int combined;			/* -c: an unmerged path with stages
					 * 2 and 3 as one combined record;
					 * these come before all other
					 * records, as git prints them */
	int threads;			/* 0: automatic */

	/* how to print */
	enum diff_output output;
	int nul;			/* -z */
	int abbrev;			/* DIFF_ABBREV_FULL, _AUTO or digits
					 * (4..40) */
	int quote_high;			/* core.quotePath */

	/*
	 * A header printed before the first record that is printed (the
	 * commit line of diff-tree <commit>); cleared once printed.  Set
	 * with diff_set_header().
	 */
	struct strbuf header;
	int header_pending;

	/*
	 * When set, the records that pass -R and -S go to collect instead of
	 * being printed (a non-zero return stops the walk and is returned).
	 */
	int (*collect)(void *ctx, const struct diff_record *r);
	void *collect_ctx;

	/*
	 * Where the output goes: called with out once it holds 64 KB, and
	 * by diff_flush(); writes and empties it.  0, or a negative E_*
	 * (which stops the walk).  NULL: out only grows.
	 */
	int (*write_out)(void *ctx, struct strbuf *out);
	void *write_ctx;

	/* results */
	int has_changes;		/* a record passed the filters */
	struct strbuf out;		/* what to print; see diff_flush() */

	/* where from */
	struct repo *repo;		/* borrowed */
	struct odb *odb;		/* borrowed */
	struct read_buf rb;		/* owned */
	int abbrev_len;			/* resolved DIFF_ABBREV_AUTO, or 0 */
};

/* Defaults: raw, full ids, stage 2, quoting from repo's core.quotePath. */
void diff_opts_init(struct diff_opts *o, struct repo *repo, struct odb *odb);
void diff_opts_release(struct diff_opts *o);

/* The header to print before the next printed record (replacing one). */
void diff_set_header(struct diff_opts *o, const char *line, size_t len);

/* Is there nothing more to learn (quick and a change was seen)? */
static inline int
diff_can_stop(const struct diff_opts *o)
{
	return o->quick && o->has_changes;
}

/*
 * Compare the trees a and b (either NULL: the empty tree), recording
 * what changed under the directory base ("" for the top, else "dir/").
 * 0, or a negative E_* (a tree that cannot be read: "unable to read
 * tree <id>"; an id that is not a tree: the same).
 */
int diff_tree(struct diff_opts *o, const struct object_id *a,
	      const struct object_id *b, const char *base);

/*
 * Compare the tree with the index (cached) or, through the index, with
 * the work tree (the current directory is its top), as diff-index.  A
 * path unmerged in the index gets a U record (cached), or is compared
 * through its first stage (not cached), as git.  0, or a negative E_*
 * (a tree that cannot be read).
 */
int diff_index(struct diff_opts *o, struct index *idx,
	       const struct object_id *tree);

/*
 * Compare the index with the work tree (the current directory is its
 * top), as diff-files.  0; a file that cannot be examined is reported
 * through diag_emit ("<path>: <reason>") and skipped, as git.
 */
int diff_files(struct diff_opts *o, struct index *idx);

/*
 * Print (into o->out) the combined records of a merge, as git's -c: for
 * each file that differs from every one of the nr parents (each parent
 * compared recursively, -S applied to each comparison, -R ignored), in
 * tree order, "::<mode>... <result mode> <id>... <result id>
 * <status>...\t<path>" with each parent's mode, id and status (A when
 * the parent lacks the path).  parents[i] and result are tree ids.
 * 0 or a negative E_*.
 */
int diff_tree_combined(struct diff_opts *o, const struct object_id *parents,
		       size_t nr, const struct object_id *result);

/* Hand o->out to o->write_out.  0, or its negative E_*. */
int diff_flush(struct diff_opts *o);

/* The statuses --diff-filter names, in git's order. */
#define DIFF_STATUS_LETTERS "ACDMRTUXB"

/*
 * One --diff-filter=<spec>, added to those before it, as git reads
 * them: the upper-case letters of all select (none: every status), then
 * the lower-case ones exclude; if that leaves nothing selected, the
 * filter is off, unless only lower-case letters were given.  0, or the
 * first character that is not a letter of DIFF_STATUS_LETTERS in either
 * case (git's all-or-none '*' among them: dirc does not have it).
 */
int diff_parse_filter(struct diff_opts *o, const char *spec);

/*
 * Append one record as the options print it (after -R, --diff-filter
 * and -S).
 */
int diff_emit(struct diff_opts *o, struct diff_record *r);

#endif
