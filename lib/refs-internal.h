/*
 * refs-internal: what the reading half (refs.c) and the writing half
 * (refs-txn.c) of the ref store share.  Not for other modules.
 */
#ifndef DIRC_REFS_INTERNAL_H
#define DIRC_REFS_INTERNAL_H

#include "refs.h"

/*
 * A sorted set of ref names (borrowed strings): the names a transaction
 * touches, for git's "cannot process 'a' and 'a/b' at the same time".
 */
struct ref_names {
	const char **name;	/* sorted by strcmp; owned array */
	size_t nr, alloc;
};
#define REF_NAMES_INIT { NULL, 0, 0 }

void ref_names_release(struct ref_names *set);
int ref_names_has(const struct ref_names *set, const char *name);
/* Insert name (a no-op if present). */
void ref_names_insert(struct ref_names *set, const char *name);
/* The first name (in sorted order) that starts with prefix, or NULL. */
const char *ref_names_first_with_prefix(const struct ref_names *set,
					const char *prefix);

/* HEAD, pseudorefs (ALL_CAPS) and refs/{bisect,worktree,rewritten}/. */
int refs_is_per_worktree(const char *name);

/*
 * The loose file (or, with logs, the reflog) of name, as git prints it
 * in messages (".git/refs/heads/x").
 */
void refs_loose_path_shown(struct strbuf *out, const struct ref_store *rs,
			   const char *name);
void refs_log_path(struct strbuf *out, const struct ref_store *rs,
		   const char *name, int shown);

/*
 * Read one ref as git's files backend does.  0 found: *oid, or with
 * REF_ISSYMREF in *type the target in referent; REF_ISPACKED when the
 * value came from packed-refs.  -1 not found, with *err an errno value:
 * ENOENT (no such ref), EISDIR (a directory where the file would be, and
 * nothing packed), ENOTDIR (a file where a directory would be), EINVAL
 * (a broken loose ref: REF_ISBROKEN set) or another; or *err ==
 * REFS_ERR_SET when a hard error (a corrupt packed-refs) has its message
 * set already.
 */
#define REFS_ERR_SET (-1)
int refs_read_raw_errno(struct ref_store *rs, const char *name,
			struct object_id *oid, struct strbuf *referent,
			unsigned *type, int *err);

/*
 * May name be created?  No existing ref may be a leading part of it
 * ("'refs/a' exists; cannot create 'refs/a/b'") or live below it, and
 * the same for the names in extras ("cannot process ..."), as git checks
 * them: prefixes first (shortest first), then the first ref below it in
 * sorted order.  with_loose: look at loose refs too, not only packed
 * ones.  0, or -E_CONFLICT with git's message (or another negative E_*
 * if packed-refs is corrupt).
 */
int refs_check_available(struct ref_store *rs, const char *name,
			 const struct ref_names *extras, int with_loose);

/*
 * Is the directory at path made only of directories (none holding a
 * file)?  1 yes, 0 no.
 */
int refs_dir_holds_no_file(const char *path);

/* Remove such a directory tree.  0 or -1 (errno set). */
int refs_remove_empty_dirs(const char *path);

/* Forget the loaded packed-refs, to read the file again. */
void refs_packed_forget(struct ref_store *rs);

/* ---- the reftable store (refs-reftable.c) ---- */

/*
 * The stack that holds name (the worktree's own one for per-worktree
 * names in a linked worktree), opened on first use and brought up to
 * date.  NULL with the error set.
 */
struct reftable_stack *refs_rt_stack(struct ref_store *rs, const char *name);

/* refs_read_raw_errno() of a reftable store. */
int refs_rt_read(struct ref_store *rs, const char *name,
		 struct object_id *oid, struct strbuf *referent,
		 unsigned *type, int *err);

/* The first ref whose name starts with prefix, into out: 1, 0 if none. */
int refs_rt_first_with_prefix(struct ref_store *rs, const char *prefix,
			      struct strbuf *out);

/* Every ref name starting with prefix, appended to *names (owned). */
int refs_rt_names(struct ref_store *rs, const char *prefix, char ***names,
		  size_t *nr, size_t *alloc);

/*
 * name's reflog as the text of a files-store log (oldest first, one
 * line per entry), for the reflog reader: 0, or -E_NOTFOUND if it has
 * none.
 */
int refs_rt_log_text(struct ref_store *rs, const char *name,
		     struct strbuf *out);

/* Close the stacks (ref_store_release). */
void refs_rt_close(struct ref_store *rs);

/* The characters git's isspace() accepts: space, \t, \n, \r. */
static inline int
refs_isspace(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

#endif
