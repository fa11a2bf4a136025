/*
 * convert: would git convert a blob's content on its way into the work
 * tree?  dirc applies no content conversion yet (issue 14); the commands
 * that write blobs out (checkout-index, read-tree -u, cat-file --filters)
 * ask this first and refuse rather than write bytes git would not.
 */
#ifndef DIRC_CONVERT_H
#define DIRC_CONVERT_H

#include "strbuf.h"

struct index;
struct object_id;
struct odb;
struct repo;

enum convert_flags {
	/*
	 * Read each directory's .gitattributes from the index before the
	 * work tree (git's order when it checks files out of a new index:
	 * read-tree -u); by default the work tree's comes first.
	 */
	CONVERT_INDEX_FIRST = 1 << 0,
};

/*
 * What the checks of one command share (attributes files read once,
 * the configuration): for repo, reading .gitattributes from idx (may be
 * NULL) and odb.  0, or -E_* if a file outside the tree cannot be read.
 * Not thread-safe: one thread asks.
 */
struct convert_cache;
int convert_cache_new(struct convert_cache **out, struct repo *repo,
		      struct index *idx, struct odb *odb, unsigned flags);
void convert_cache_free(struct convert_cache *cc);

/*
 * Would git change the content of the blob oid at path (from the top of
 * the work tree) when writing it out — a smudge or process command
 * configured for its filter=<driver> (filter.<d>.required alone changes
 * nothing on the way out), ident, working-tree-encoding other than
 * UTF-8, or end-of-line conversion to CRLF (eol=crlf, text or text=auto
 * with core.eol=crlf or core.autocrlf=true, and core.autocrlf=true
 * alone)?  The attributes are git's: /etc/gitattributes (unless
 * GIT_ATTR_NOSYSTEM), core.attributesFile (or the XDG file),
 * .gitattributes from the top down to path's directory (work tree or
 * index, see flags), then $GIT_DIR/info/attributes; later lines win;
 * "binary" and [attr] macros expanded.  When oid (may be NULL) can be
 * read, its bytes are looked at as git does: ident changes only a
 * "$Id$"/"$Id:", CRLF only a lone LF (under text=auto, only in a file
 * without CR that is not binary).  0 if no conversion; 1 if there is
 * one, with *why naming it ("filter=lfs", "ident", "end-of-line
 * conversion to CRLF", ...); -E_* if a .gitattributes cannot be read.
 */
int convert_to_worktree_check(struct strbuf *why, struct convert_cache *cc,
			      const char *path, const struct object_id *oid);

#endif
