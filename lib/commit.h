/*
 * commit: commit objects — reading the headers dirc needs (tree,
 * parents), building a commit exactly as git commit-tree does, and the
 * author/committer identities git derives from the environment and
 * configuration.
 */
#ifndef DIRC_COMMIT_H
#define DIRC_COMMIT_H

#include "hash.h"
#include "strbuf.h"

struct repo;

struct commit_info {
	struct object_id tree;
	struct object_id *parents;	/* owned */
	size_t nr_parents;
};

/*
 * Parse the tree and parent headers of a commit buffer.  0, or
 * -E_CORRUPT naming id ("bogus commit object <id>").
 */
int commit_parse(struct commit_info *out, const void *buf, size_t len,
		 const struct object_id *id);
void commit_info_release(struct commit_info *info);

/*
 * The committer time of a commit buffer, read as git reads it for
 * ordering: the "author" line must follow the parents and "committer"
 * the author; 0 when the buffer does not have that shape.
 */
long long commit_date(const void *buf, size_t len);

/*
 * Walking history.  A commit_walk holds one node per commit met, each
 * parsed on demand (parents and date), with flag bits for the walker.
 * Nodes live until commit_walk_release().  Not thread-safe.
 */
struct commit_node {
	struct object_id oid;
	long long date;			/* committer time, 0 if unknown */
	struct commit_node **parents;	/* owned by the walk */
	size_t nr_parents;
	unsigned flags;			/* the current walker's marks */
	int parsed;			/* 0 not yet, 1 done, -1 unreadable */
};

struct commit_walk {
	struct repo *repo;		/* borrowed */
	struct commit_node **slots;	/* owned; open addressing by id */
	size_t nr, alloc;
};

void commit_walk_init(struct commit_walk *w, struct repo *repo);
void commit_walk_release(struct commit_walk *w);

/* The node for oid (created, not parsed, if new). */
struct commit_node *commit_walk_node(struct commit_walk *w,
				     const struct object_id *oid);

/*
 * Read c's parents and date (once).  0, or a negative E_* when it is not
 * a readable commit ("object <id> is a <type>, not a commit", ...).
 */
int commit_walk_parse(struct commit_walk *w, struct commit_node *c);

/* Clear every node's flags. */
void commit_walk_clear_flags(struct commit_walk *w);

/*
 * Pop the newest commit of a list kept newest first (ties in the order
 * they were added), adding its parents not yet marked with mark (and
 * marking them).  *nr is the list length; NULL when it is empty.
 */
struct commit_node *commit_walk_pop_newest(struct commit_walk *w,
					   struct commit_node ***list,
					   size_t *nr, size_t *alloc,
					   unsigned mark);

/* Insert c into a newest-first list, after the commits as new as it. */
void commit_walk_insert_by_date(struct commit_node ***list, size_t *nr,
				size_t *alloc, struct commit_node *c);

/*
 * The merge bases of commits a and b as git computes them for "a...b"
 * (best common ancestors, none of them an ancestor of another), newest
 * first, into *out (owned by the caller) and *nr.  0 or a negative E_*.
 */
int commit_merge_bases(struct object_id **out, size_t *nr,
		       struct commit_walk *w, const struct object_id *a,
		       const struct object_id *b);

enum ident_who { IDENT_AUTHOR, IDENT_COMMITTER };

enum ident_flags {
	IDENT_STRICT = 1 << 0,	/* commit-tree's rules, not a reflog's */
};

/*
 * "Name <email> <epoch> <+hhmm>" for the author or committer, from
 * GIT_{AUTHOR,COMMITTER}_{NAME,EMAIL,DATE}, author.* / committer.* /
 * user.* configuration, EMAIL, and the system (passwd, host name) as git
 * does, sanitised as git does.  With IDENT_STRICT, as commit-tree is: 0,
 * or a negative E_* with git's message (empty name, only disallowed
 * characters, no usable email, user.useConfigOnly, invalid date).
 * Without it, as git writes a reflog line: whatever can be guessed is
 * used (an empty name becomes the login name, a host without a domain
 * gives "user@host.(none)"), and only an invalid date fails.
 */
int ident_get(struct strbuf *out, struct repo *repo, enum ident_who who,
	      unsigned flags);

/* Remove the "crud" git strips around names and emails, and <, >, \n. */
void ident_sanitize(struct strbuf *out, const char *in);

/*
 * Is buf valid UTF-8 by git's rules (no overlongs, surrogates, or
 * U+xxFFFE/FFFF, U+FDD0..FDEF)?
 */
int utf8_is_valid(const char *buf, size_t len);

/*
 * Re-encode every byte that is not part of valid UTF-8 as if Latin-1,
 * as git does before storing a message that claims no encoding.
 */
void utf8_repair(struct strbuf *sb);

#endif
