/*
 * mailmap: git's map from the names and emails recorded in commits and
 * tags to canonical ones (gitmailmap(5)).  A line of a mailmap is one of
 *
 *   Proper Name <commit@email>
 *   <proper@email> <commit@email>
 *   Proper Name <proper@email> <commit@email>
 *   Proper Name <proper@email> Commit Name <commit@email>
 *
 * ("#" in the first column starts a comment; a line that is none of
 * these is ignored, as git ignores it).  Emails and names match without
 * regard to ASCII case.  A line naming a commit name applies only to
 * that name at that email; the others to every name at that email; a
 * later line replaces what an earlier one said.
 */
#ifndef DIRC_MAILMAP_H
#define DIRC_MAILMAP_H

#include "strbuf.h"
#include "strmap.h"

struct repo;

struct mailmap {
	struct strmap emails;	/* lower-cased commit email -> struct
				 * mailmap_entry * (owned; it owns its key) */
};
#define MAILMAP_INIT { STRMAP_INIT }

void mailmap_release(struct mailmap *mm);

/*
 * Add the lines of buf[0..len) (up to a NUL byte, as git reads a blob).
 * With max_line, a line longer than max_line - 1 bytes is read as
 * several, as git reads a file (fgets into 1,024 bytes).
 */
void mailmap_add_buffer(struct mailmap *mm, const char *buf, size_t len,
			size_t max_line);

/*
 * Read the mailmaps git reads for repo, in its order: the work tree's
 * .mailmap (not followed if a symlink; none in a bare repository), the
 * blob mailmap.blob names (HEAD:.mailmap by default in a bare
 * repository), then the file mailmap.file names.  What is missing is
 * skipped; what cannot be read is reported through diag_emit(), as git
 * reports it, and skipped.
 */
void mailmap_read(struct mailmap *mm, struct repo *repo);

/*
 * Map one ident: the email and name (each a pointer and a length) are
 * replaced by what the map says (pointing into mm) for the parts it
 * changes.  1 if anything was mapped, 0 if not.
 */
int mailmap_map(const struct mailmap *mm, const char **email,
		size_t *emaillen, const char **name, size_t *namelen);

/*
 * Rewrite the "author", "committer" and "tagger" lines of an object's
 * header (up to the first empty line) as git's --use-mailmap does: a
 * mapped ident becomes "<name> <<email>>" followed by what came after
 * its '>'.  Returns 1 if buf changed.
 */
int mailmap_apply_headers(struct strbuf *buf, const struct mailmap *mm);

#endif
