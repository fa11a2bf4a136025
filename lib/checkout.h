/*
 * checkout: write index entries into the work tree — regular files with
 * their mode (umask applied), executables, symlinks (or a file holding
 * the target when core.symlinks=false), gitlinks as empty directories —
 * creating leading directories; write entries to temporary files
 * (checkout-index --temp); and remove files that left the index.
 *
 * Paths are base + entry name.  The directories the caller named in
 * base (up to its last '/') are the caller's: symlinks among them are
 * followed, as git follows them.  Past that point every leading
 * directory must be a real one: a symlink or a file there is in the way
 * (replaced with force), never written through.
 */
#ifndef DIRC_CHECKOUT_H
#define DIRC_CHECKOUT_H

#include <stdint.h>
#include <sys/stat.h>

#include "error.h"
#include "strbuf.h"

struct convert;
struct index;
struct index_entry;
struct odb;
struct repo;

/* Hooks for a progress meter: add from any thread, tick from thread 0. */
struct checkout_progress {
	void (*add)(void *ctx, uint64_t n);	/* thread-safe */
	void (*tick)(void *ctx);		/* optional */
	void *ctx;
};

struct checkout {
	struct repo *repo;
	struct index *idx;	/* for stat comparison (racy rules) */
	struct odb *odb;
	const char *base;	/* prepended to every path ("" or a prefix) */
	int force;		/* replace what is in the way */
	int not_new;		/* only refresh files that already exist */
	int quiet;		/* no "already exists" messages */
	int refresh;		/* record the new file's stat data in the entry */
	unsigned convert_flags;	/* CONVERT_* (convert.h) */
	struct convert *convert;	/* owned; made on first need: files
					 * are smudged as git smudges them */
	struct checkout_progress progress;	/* optional */
	int refreshed;		/* some entry got new stat data */
	struct strbuf path;	/* scratch */
};

void checkout_init(struct checkout *co, struct repo *repo, struct index *idx,
		   struct odb *odb);
void checkout_release(struct checkout *co);

/*
 * Write e to base + e->name.  A file already there whose stat data
 * matches e is left alone (0).  One that differs is refused unless
 * force (-E_EXISTS, message "<path> already exists, no checkout"),
 * else removed (a directory recursively) and replaced.  With refresh, e
 * gets the new stat data.  0, or a negative E_* (the message set);
 * -E_CONFLICT when a file is in the way of a directory (fatal for git).
 * Prints nothing.
 */
int checkout_entry(struct checkout *co, struct index_entry *e);

/*
 * A pass that only looks (checkout_precheck() over every entry, before
 * the pass that writes): while quiet is set, attribute files already
 * read show no message again (see attr_set_quiet()).
 */
void checkout_quiet(struct checkout *co, int quiet);

/*
 * Would checkout_entry(co, e) fail with -E_CONFLICT because a file,
 * symlink or other non-directory is in the way of a directory it must
 * make (without force)?  Then -E_CONFLICT with the message it would
 * set.  Would it write e with content dirc cannot convert
 * (checkout_check_conversion)?  Then -E_UNSUPPORTED.  Else 0.  Changes
 * nothing: for callers that check every entry before writing the first.
 */
int checkout_precheck(struct checkout *co, const struct index_entry *e);

/*
 * Can dirc write e's content as git would?  Not with a
 * working-tree-encoding other than UTF-8 (-E_UNSUPPORTED, "cannot check
 * out '<name>': working-tree-encoding=<v>: dirc does not re-encode
 * content; nothing was written"; git's -E_INVALID for a set/unset one).
 * Else 0.  For callers that refuse before writing the first file.
 */
int checkout_check_conversion(struct checkout *co,
			      const struct index_entry *e);

/*
 * Write e's content to a new temporary file in the current directory
 * (the top of the work tree), named ".merge_file_XXXXXX" — or
 * ".merge_link_XXXXXX" holding the target, for a symlink — with mode
 * 0600; its name is appended to name.  base is not used.  0, or a
 * negative E_*: a gitlink ("cannot create temporary submodule <path>"),
 * a blob that cannot be read ("unable to read sha1 file of <path>
 * (<id>)"), or a failed write (no file is left then).
 */
int checkout_entry_temp(struct checkout *co, const struct index_entry *e,
			struct strbuf *name);

/* The outcome of one entry of checkout_many(). */
struct checkout_report {
	int ret;			/* 0 or a negative E_* */
	struct error_saved err;		/* its message */
};

/*
 * Check out entries[0..nr) on up to threads threads (0: automatic), the
 * objects read and files written in parallel; rep[i] says how entry i
 * went, for the caller to report in order.  Returns the number of
 * failures.  co->idx is marked changed if refresh updated anything.
 */
size_t checkout_many(struct checkout *co, struct index_entry **entries,
		     size_t nr, int threads, struct checkout_report *rep,
		     const char *progress_title);


/*
 * Remove the work-tree file of e (and directories left empty).  0 or a
 * negative E_*.
 */
int checkout_remove(struct checkout *co, const struct index_entry *e);

#endif
