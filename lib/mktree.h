/*
 * mktree: build a tree object from lines of (non-recursive) ls-tree
 * output, "<mode> SP <type> SP <id> TAB <name>", as git 2.39's mktree
 * reads them:
 *
 *   - the mode is octal as strtoul() reads it (leading blanks and a sign
 *     allowed) and is stored as given ("100664" stays), the type is
 *     what lies up to the next space, the id exactly 40 hex digits;
 *   - the name is C-unquoted when it starts with '"' (not in -z input);
 *     a line is read up to its first NUL, and so is an unquoted name;
 *   - the type must be the one the mode implies (040000 a tree, 160000
 *     a commit, anything else a blob), and so must the stored object's,
 *     which must exist unless missing ones are allowed (a gitlink's may
 *     always be missing);
 *   - entries are sorted in tree order (a directory as if its name
 *     ended in '/'), equal names kept in the order given: git keeps
 *     duplicates, and so does this.
 */
#ifndef DIRC_MKTREE_H
#define DIRC_MKTREE_H

#include "hash.h"
#include "strbuf.h"

struct odb;

struct mktree_entry {
	unsigned mode;		/* as given */
	struct object_id oid;
	size_t name;		/* offset of the name in mktree.names */
	size_t len;
	size_t order;		/* position in the input, for equal names */
	const char *str;	/* the name, set while sorting (names does
				 * not move then) */
};

struct mktree {
	struct mktree_entry *entries;	/* owned */
	size_t nr, alloc;
	struct strbuf names;		/* the names, each NUL-terminated */
	struct strbuf scratch;		/* unquoting, encoding */
};

void mktree_init(struct mktree *mt);
void mktree_release(struct mktree *mt);

enum mktree_flags {
	MKTREE_NUL = 1 << 0,		/* -z input: names are never quoted */
	MKTREE_MISSING = 1 << 1,	/* --missing: objects may be absent */
};

/*
 * Read one line (up to its first NUL) and add its entry; objects are
 * looked up in odb.  0, or -E_INVALID with git's message:
 * "input format error: <line>", "invalid quoting", "invalid object type
 * \"<type>\"", "entry '<name>' object type (<type>) doesn't match mode
 * type (<type>)", "entry '<name>' object <id> is unavailable", "entry
 * '<name>' object <id> is a <type> but specified type was (<type>)",
 * "path <name> contains slash".
 */
int mktree_add_line(struct mktree *mt, struct odb *odb, const char *line,
		    unsigned flags);

/*
 * Sort the entries, write the tree into odb and set out to its id; the
 * entries are emptied for the next tree.  0 or the odb's negative E_*.
 */
int mktree_write(struct object_id *out, struct mktree *mt, struct odb *odb);

#endif
