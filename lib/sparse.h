/*
 * sparse: sparse checkout — which index entries belong in the work tree.
 *
 * core.sparseCheckout turns it on; $GIT_DIR/info/sparse-checkout holds
 * the patterns, read as a gitignore file (lib/exclude's parser: comments,
 * '!', a trailing '/', trailing spaces).  An entry whose path the
 * patterns select is "in": it belongs in the work tree; any other entry
 * is "out" and gets the skip-worktree bit when read-tree -m -u applies
 * the patterns.
 *
 * Two ways of reading the patterns, as git has:
 *
 *   cone (core.sparseCheckoutCone): the patterns git sparse-checkout
 *     writes — "/" "*" and "!/" "*" "/" (the files at the top only),
 *     "/d/" (all of d, recursively) and "!/d/" "*" "/" after "/d/" (the
 *     files directly in d only; each pattern is written here in pieces
 *     that a C comment can hold) — become two sets of directories,
 *     matched by prefix: no
 *     pattern is run.  Top-level files are always in.  A file that is
 *     not a cone pattern (git says "unrecognized pattern: '<p>'", and
 *     "disabling cone pattern matching") is read the other way.
 *   non-cone: gitignore matching where the last matching pattern
 *     decides, "!" excluding again.
 *
 * Either way, directories are decided before what they hold, top down,
 * as git walks the index: in cone mode a directory outside the cone
 * leaves everything below it out, one in the recursive set takes
 * everything below it in; in non-cone mode a directory a pattern
 * decides passes its answer to whatever below it no pattern decides.
 *
 * Not thread-safe: a struct sparse caches the answers for the
 * directories of the last path asked about (ask in index order and each
 * directory is matched once).
 */
#ifndef DIRC_SPARSE_H
#define DIRC_SPARSE_H

#include <stddef.h>

#include "strbuf.h"
#include "strmap.h"

struct exclude_list;
struct index;
struct repo;

/* One directory of the last path asked about, and its answer. */
struct sparse_dir {
	size_t len;		/* the directory is path[0..len) */
	int result;		/* internal: the answer below it */
};

struct sparse {
	int cone;		/* cone matching (after any fall-back) */
	int full;		/* cone: the full cone: all in */
	int icase;		/* core.ignoreCase: names compare folded */
	struct strmap recursive; /* cone: "d/e" taken whole (folded under
				  * icase): how many lines say so, as a
				  * pointer-sized count; NULL (0) is none */
	struct strmap parent;	/* cone: "d" whose files are in */
	char **keys;		/* the maps' keys; owned */
	size_t keys_nr, keys_alloc;
	struct exclude_list *pl;	/* non-cone: the patterns; owned */
	/* the cache of sparse_path_in() */
	struct strbuf last;		/* the last path's directories */
	struct sparse_dir *dirs;	/* their answers; owned */
	size_t dirs_nr, dirs_alloc;
	struct strbuf warnings;		/* what loading warned, a line each */
	int warned_again;		/* sparse_warn_again() has run */
};

void sparse_init(struct sparse *sp);
void sparse_release(struct sparse *sp);

/*
 * Does sparse checkout apply to read-tree -u in repo?  1 with sp loaded
 * when core.sparseCheckout is true and $GIT_DIR/info/sparse-checkout
 * exists (an empty file: every entry is out; cone mode is
 * core.sparseCheckoutCone); 0 with sp empty otherwise (git then leaves
 * skip-worktree bits as they are).  Cone patterns git does not
 * recognise are reported through diag_emit as git's warnings, and the
 * file is read as non-cone patterns.  A file that cannot be read is as
 * none, with git's warning ("unable to access '<p>': <why>") where it
 * cannot be opened.  Never fails (returns int for the 0/1 answer).
 */
int sparse_load(struct sparse *sp, struct repo *repo);

/*
 * Set up sp from the pattern file's bytes (buf, len) as sparse_load()
 * does (for tests and the fuzzer).  cone: core.sparseCheckoutCone.
 */
void sparse_parse(struct sparse *sp, const char *buf, size_t len, int cone,
		  int icase);

/*
 * Is the index entry at path (len bytes, NUL-terminated, no trailing
 * '/'; mode: its mode — every entry, a gitlink too, is matched as a
 * file) in the sparse checkout?  1 in, 0 out.
 */
int sparse_path_in(struct sparse *sp, const char *path, size_t len,
		   unsigned mode);

/*
 * Cone mode: the length of the directory of path that the cone takes
 * whole (the first one, walking down, in the recursive set, every
 * directory above it having its files in), or 0 if none (non-cone mode,
 * the full cone, a path outside the cone or decided by its own
 * directory).  Uses the cache as sparse_path_in() does.
 */
size_t sparse_recursive_dir(struct sparse *sp, const char *path, size_t len);

/*
 * git reads the patterns a second time in read-tree -u, the first time
 * it looks for attributes in the index (to write a regular file): the
 * warnings loading gave go out again, once.
 */
void sparse_warn_again(struct sparse *sp);

/*
 * What git does to every index it reads for a command in a sparse
 * checkout (core.sparseCheckout true, sparse.expectFilesOutsideOfPatterns
 * false): an entry marked skip-worktree whose path exists in the work
 * tree (anything lstat() finds: a file, a directory) loses the mark.  In
 * memory only: idx is not marked changed, but a write of it keeps the
 * change.  Nothing is looked at when the repository has no work tree or
 * no entry is marked.
 */
void sparse_clear_present(struct index *idx, const struct repo *repo);

#endif
