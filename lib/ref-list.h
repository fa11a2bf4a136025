/*
 * ref-list: the refs of a repository, listed — what "rev-parse --all",
 * "--branches", "--tags", "--glob" and ":/<regex>" walk.  Read only: loose
 * refs (refs/... files under the common directory; refs/bisect/,
 * refs/worktree/ and refs/rewritten/ under the worktree's git directory)
 * merged with packed-refs, a loose ref winning over a packed one of the
 * same name, sorted by name as git lists them.  Symbolic refs are listed
 * with the value they resolve to; refs that do not resolve, and files
 * whose names are not valid ref names, are left out as git leaves them.
 */
#ifndef DIRC_REF_LIST_H
#define DIRC_REF_LIST_H

#include "hash.h"
#include "refs.h"

struct ref_list_item {
	char *name;		/* full name, "refs/heads/main"; owned */
	struct object_id oid;	/* what it resolves to */
};

struct ref_list {
	struct ref_list_item *items;	/* owned; sorted by name */
	size_t nr, alloc;
};
#define REF_LIST_INIT { NULL, 0, 0 }

/*
 * Every ref whose name starts with prefix ("refs/" for all of them).
 * 0, or a negative E_* (an unreadable packed-refs file or directory).
 */
int ref_list_collect(struct ref_list *out, struct ref_store *rs,
		     const char *prefix);
void ref_list_release(struct ref_list *list);

#endif
