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
