/*
 * tree: git's tree objects — decoding entries, checking a buffer is a
 * well-formed tree, the order entries must be in, and checks of commit
 * and tag buffers as hash-object does them.
 *
 * Entry encoding: "<octal mode> SP <name> NUL <20-byte id>", no
 * separators; a directory sorts as if its name ended in '/'.
 */
#ifndef DIRC_TREE_H
#define DIRC_TREE_H

#include "hash.h"

#define S_IFGITLINK 0160000
#define S_ISGITLINK(m) (((m) & 0170000) == S_IFGITLINK)

struct tree_entry {
	const char *name;		/* borrowed from the buffer; not
					 * NUL-terminated in general */
	size_t namelen;
	unsigned mode;			/* canonical (see tree_canon_mode) */
	unsigned raw_mode;		/* as stored */
	int zero_padded;		/* the stored mode began with '0' */
	const struct object_id *oid;	/* borrowed from the buffer */
};

struct tree_iter {
	const unsigned char *p, *end;
};

void tree_iter_init(struct tree_iter *it, const void *buf, size_t len);

/*
 * The next entry into out: 1, 0 at the end, or -E_CORRUPT with git's
 * messages ("too-short tree object", "malformed mode in tree entry",
 * "empty filename in tree entry").
 */
int tree_iter_next(struct tree_iter *it, struct tree_entry *out);

/* Decode every entry; 0 or the first -E_CORRUPT. */
int tree_check(const void *buf, size_t len);

/* Mode as git reads it: 100644/100755, 120000, 040000, else 160000. */
unsigned tree_canon_mode(unsigned mode);

/*
 * Compare two names as tree entries sort: bytes, with a directory's name
 * followed by '/'.
 */
int tree_name_cmp(const char *a, size_t alen, unsigned amode,
		  const char *b, size_t blen, unsigned bmode);

/*
 * hash-object's format checks.  0, or -E_CORRUPT with git's messages
 * ("bogus commit object <id>" then "corrupt commit"; "corrupt tag").
 */
int commit_check(const void *buf, size_t len);
int tag_check(const void *buf, size_t len);

#endif
