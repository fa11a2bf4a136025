/*
 * refs: reference names and the files reference store — loose refs
 * (one file per ref holding 40 hex digits, or "ref: <target>" for a
 * symbolic ref) and packed-refs (one "<hex> <name>" line per ref, each
 * annotated tag followed by a "^<peeled hex>" line).  Loose refs win over
 * packed ones.  HEAD and other per-worktree refs live in the git
 * directory, the rest in the common directory.
 */
#ifndef DIRC_REFS_H
#define DIRC_REFS_H

#include "hash.h"
#include "strbuf.h"

enum refname_flags {
	REFNAME_ALLOW_ONELEVEL = 1 << 0,	/* "HEAD", "master" */
};

/*
 * Is name a well-formed reference name (git check-ref-format's rules)?
 * 1 or 0.
 */
int refname_is_valid(const char *name, unsigned flags);

struct packed_ref {
	char *name;			/* owned */
	struct object_id oid;
	struct object_id peeled;	/* valid if has_peeled */
	int has_peeled;
};

struct ref_store {
	char *gitdir;		/* owned */
	char *commondir;	/* owned */
	struct packed_ref *packed;	/* owned; sorted by name */
	size_t packed_nr, packed_alloc;
	int packed_loaded;
};

void ref_store_init(struct ref_store *rs, const char *gitdir,
		    const char *commondir);
void ref_store_release(struct ref_store *rs);

/* The file a loose ref lives in, replacing out. */
void refs_loose_path(struct strbuf *out, const struct ref_store *rs,
		     const char *name);

/*
 * Read ref name without following symbolic refs.  0 with *oid set, 1
 * with symref set to the target (for "ref: <target>"), -E_NOTFOUND, or
 * -E_CORRUPT for a loose file that is neither.
 */
int refs_read_raw(struct ref_store *rs, const char *name,
		  struct object_id *oid, struct strbuf *symref);

/*
 * Resolve name, following symbolic refs (at most 5 levels).  0 with *oid
 * set and (if resolved is not NULL) the final ref name in resolved;
 * -E_NOTFOUND if a ref in the chain does not exist (resolved then names
 * the missing one: an unborn branch), or another negative E_*.
 */
int refs_resolve(struct ref_store *rs, const char *name,
		 struct object_id *oid, struct strbuf *resolved);

/* Load packed-refs (once).  0 or -E_CORRUPT. */
int refs_load_packed(struct ref_store *rs);
/* The packed entry for name, or NULL. */
const struct packed_ref *refs_find_packed(struct ref_store *rs,
					  const char *name);

/*
 * The HEAD of the repository whose work tree is at path (a submodule):
 * 0 with *oid set, or a negative E_* if it has none.
 */
int refs_resolve_gitlink(struct object_id *out, const char *path);

#endif
