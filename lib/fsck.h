/*
 * fsck: check an object's bytes as git 2.55's fsck does, and say what is
 * wrong in git's words.  hash-object refuses what fails (git 2.40 and
 * later); a fsck command or an object receiver would use the same checks.
 *
 * Each problem has a message id (git's, e.g. "duplicateEntries", the
 * names fsck.<id> configuration uses) with a default severity:
 *
 *   FATAL	the object cannot be read further (headers without an end)
 *   ERROR	malformed
 *   WARN	suspicious; an ERROR when the options are strict
 *   INFO	reported as a WARN, yet still a problem to a caller that
 *		counts every report (hash-object does)
 *   IGNORE	not reported
 *
 * Problems are handed to the caller's report function as they are found,
 * in git's order; the checks never print and never stop on the first
 * problem unless the object cannot be read further.  A tree entry that
 * cannot be decoded is first reported with id FSCK_MSG_NONE and the
 * decoder's words ("too-short tree object", ...), as git prints them
 * before its "badTree" message.
 *
 * Some tree checks are deferred: a tree names its ".gitmodules" and
 * ".gitattributes" blobs, which are checked when fsck_finish() reads them
 * from the object store.
 *
 * Not thread-safe per options; separate options may be used on separate
 * threads.
 */
#ifndef DIRC_FSCK_H
#define DIRC_FSCK_H

#include "hash.h"
#include "object.h"

struct odb;

enum fsck_severity {
	FSCK_IGNORE,
	FSCK_INFO,
	FSCK_FATAL,
	FSCK_ERROR,	/* what a report function is given: ERROR ... */
	FSCK_WARN,	/* ... or WARN */
};

/* git's message ids for objects, in git's order within each severity. */
enum fsck_msg_id {
	/* fatal */
	FSCK_MSG_NUL_IN_HEADER,
	FSCK_MSG_UNTERMINATED_HEADER,
	/* errors */
	FSCK_MSG_BAD_DATE,
	FSCK_MSG_BAD_DATE_OVERFLOW,
	FSCK_MSG_BAD_EMAIL,
	FSCK_MSG_BAD_GPGSIG,
	FSCK_MSG_BAD_HEADER_CONTINUATION,
	FSCK_MSG_BAD_NAME,
	FSCK_MSG_BAD_OBJECT_SHA1,
	FSCK_MSG_BAD_PARENT_SHA1,
	FSCK_MSG_BAD_TIMEZONE,
	FSCK_MSG_BAD_TREE,
	FSCK_MSG_BAD_TREE_SHA1,
	FSCK_MSG_BAD_TYPE,
	FSCK_MSG_DUPLICATE_ENTRIES,
	FSCK_MSG_GITATTRIBUTES_BLOB,
	FSCK_MSG_GITATTRIBUTES_LARGE,
	FSCK_MSG_GITATTRIBUTES_LINE_LENGTH,
	FSCK_MSG_GITATTRIBUTES_MISSING,
	FSCK_MSG_GITMODULES_BLOB,
	FSCK_MSG_GITMODULES_MISSING,
	FSCK_MSG_GITMODULES_NAME,
	FSCK_MSG_GITMODULES_PATH,
	FSCK_MSG_GITMODULES_SYMLINK,
	FSCK_MSG_GITMODULES_UPDATE,
	FSCK_MSG_GITMODULES_URL,
	FSCK_MSG_MISSING_AUTHOR,
	FSCK_MSG_MISSING_COMMITTER,
	FSCK_MSG_MISSING_EMAIL,
	FSCK_MSG_MISSING_NAME_BEFORE_EMAIL,
	FSCK_MSG_MISSING_OBJECT,
	FSCK_MSG_MISSING_SPACE_BEFORE_DATE,
	FSCK_MSG_MISSING_SPACE_BEFORE_EMAIL,
	FSCK_MSG_MISSING_TAG,
	FSCK_MSG_MISSING_TAG_ENTRY,
	FSCK_MSG_MISSING_TREE,
	FSCK_MSG_MISSING_TYPE,
	FSCK_MSG_MISSING_TYPE_ENTRY,
	FSCK_MSG_MULTIPLE_AUTHORS,
	FSCK_MSG_TREE_NOT_SORTED,
	FSCK_MSG_ZERO_PADDED_DATE,
	/* warnings */
	FSCK_MSG_EMPTY_NAME,
	FSCK_MSG_FULL_PATHNAME,
	FSCK_MSG_HAS_DOT,
	FSCK_MSG_HAS_DOTDOT,
	FSCK_MSG_HAS_DOTGIT,
	FSCK_MSG_LARGE_PATHNAME,
	FSCK_MSG_NULL_SHA1,
	FSCK_MSG_NUL_IN_COMMIT,
	FSCK_MSG_ZERO_PADDED_FILEMODE,
	/* infos */
	FSCK_MSG_BAD_FILEMODE,
	FSCK_MSG_BAD_TAG_NAME,
	FSCK_MSG_GITATTRIBUTES_SYMLINK,
	FSCK_MSG_GITIGNORE_SYMLINK,
	FSCK_MSG_GITMODULES_PARSE,
	FSCK_MSG_MAILMAP_SYMLINK,
	FSCK_MSG_MISSING_TAGGER_ENTRY,
	/* ignored */
	FSCK_MSG_EXTRA_HEADER_ENTRY,
	FSCK_MSG_MAX,
	/* not an id: a tree decoder's message, printed as it is */
	FSCK_MSG_NONE = FSCK_MSG_MAX,
};

struct fsck_report {
	enum fsck_msg_id id;
	enum fsck_severity severity;	/* FSCK_ERROR or FSCK_WARN */
	const struct object_id *oid;	/* the object it is about; borrowed */
	enum object_type type;
	const char *text;		/* git's words, without the id;
					 * borrowed for the call */
};

/*
 * Called for each problem.  Its result is added up into what the check
 * returns (return 1 to count the problem, 0 to let it pass); after a
 * FSCK_MSG_NONE report the result is not used.
 */
typedef int (*fsck_report_fn)(const struct fsck_report *r, void *data);

struct fsck_options {
	unsigned strict;		/* WARN counts as ERROR, and a
					 * 100664 mode is a bad one */
	fsck_report_fn report;
	void *report_data;		/* for report; borrowed */
	/* blobs named ".gitmodules" / ".gitattributes" in checked trees */
	struct object_id *gitmodules;	/* owned */
	size_t gitmodules_nr, gitmodules_alloc;
	struct object_id *gitattributes;	/* owned */
	size_t gitattributes_nr, gitattributes_alloc;
};

/* Set up, not strict, reporting to fn(r, data). */
void fsck_options_init(struct fsck_options *o, fsck_report_fn fn,
		       void *data);
/* Free the pending blob lists. */
void fsck_options_release(struct fsck_options *o);

/* git's camel-case name of id ("duplicateEntries"); NULL for NONE. */
const char *fsck_msg_id_name(enum fsck_msg_id id);

/*
 * Check buf (len bytes) as an object of type with id oid (the null id
 * when it has none yet; it is only passed to report).  Blobs pass (their
 * checks happen in fsck_finish()).  0 if nothing counted, else the sum of
 * what report returned (a negative value when a commit's or tag's
 * headers are unterminated and the rest could not be read).
 */
int fsck_buffer(struct fsck_options *o, const struct object_id *oid,
		enum object_type type, const void *buf, size_t len);

/*
 * The deferred checks: each ".gitmodules" or ".gitattributes" blob a
 * checked tree named is read from odb (NULL: no object store, so each
 * is missing) and checked: "gitmodulesMissing", "gitmodulesBlob" (not a
 * blob); for ".gitattributes" its size and line lengths; for
 * ".gitmodules" each submodule's name, url, path and update setting, and
 * that it parses as config.  Empties the lists.  0 or the sum of what
 * report returned; a blob that cannot be read counts as missing.
 *
 * NEEDSWORK: git also refuses http(s):// and ftp(s):// submodule urls
 * its url normalizer cannot make sense of; those are not checked yet.
 */
int fsck_finish(struct fsck_options *o, struct odb *odb);

#endif
