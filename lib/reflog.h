/*
 * reflog: reading a ref's log, logs/<refname> in the directory that holds
 * the ref (HEAD's in the git directory, shared refs' in the common one).
 * Writing is refs.c's business; this module only reads, and answers the
 * questions revision names ask: "<ref>@{<n>}", "<ref>@{<date>}" and
 * "@{-<n>}" (the n-th branch checked out before the current one).
 *
 * One line per update, oldest first:
 *
 *   <old hex> SP <new hex> SP <name> SP <email> SP <epoch> SP <+hhmm>
 *   [TAB <message>] LF
 *
 * A line that does not have this shape (or has no final LF, or a zero
 * epoch) is skipped, as git skips it.
 */
#ifndef DIRC_REFLOG_H
#define DIRC_REFLOG_H

#include "hash.h"
#include "refs.h"
#include "strbuf.h"

struct reflog_entry {
	struct object_id old_oid, new_oid;
	long long timestamp;	/* seconds since the epoch, > 0 */
	int tz;			/* e.g. -700 for -0700 */
	const char *msg;	/* borrowed from the reflog's buffer */
	size_t msg_len;		/* without the final LF */
};

struct reflog {
	char *buf;			/* the file's bytes; owned */
	struct reflog_entry *entries;	/* owned; oldest first */
	size_t nr, alloc;
};
#define REFLOG_INIT { NULL, NULL, 0, 0 }

/* The file holding refname's log, replacing out. */
void reflog_path(struct strbuf *out, const struct ref_store *rs,
		 const char *refname);

/* Does refname have a log (a file, possibly empty)?  1 or 0. */
int reflog_exists(const struct ref_store *rs, const char *refname);

/*
 * Read refname's log.  0 (an empty log has nr == 0), -E_NOTFOUND if
 * there is none, or another negative E_* if it cannot be read.
 */
int reflog_read(struct reflog *out, const struct ref_store *rs,
		const char *refname);
void reflog_release(struct reflog *log);

/* Parse a log held in memory (buf is copied).  Never fails. */
void reflog_parse(struct reflog *out, const char *buf, size_t len);

/* What reflog_at() found, for git's messages about the log. */
struct reflog_cutoff {
	long long time;	/* the entry the answer came from */
	int tz;
	int count;	/* how many entries were looked at */
};

enum reflog_at_result {
	REFLOG_AT_FOUND = 0,
	REFLOG_AT_EMPTY = 1,		/* the log has no entry */
	REFLOG_AT_TOO_FEW = 2,		/* "@{n}" past the oldest entry */
	REFLOG_AT_TOO_OLD = 3,		/* "@{date}" older than the log:
					 * *out is its oldest value */
};

/*
 * The value refname had n updates ago (at_time == 0) or at at_time (n
 * < 0), from log, as git answers "<ref>@{n}" and "<ref>@{date}".  *out
 * holds the ref's current value on entry and is replaced by the answer.
 * Notes git prints on the way ("log for ref <x> has gap after <date>",
 * "... unexpectedly ended on <date>") go through diag_emit.  Returns a
 * REFLOG_AT_* and fills *cut.  "@{0}" of an empty log is the ref itself.
 */
enum reflog_at_result reflog_at(struct object_id *out,
				struct reflog_cutoff *cut,
				const struct reflog *log, const char *refname,
				long long at_time, int n);

/*
 * The n-th (n >= 1) branch checked out before the current one, from
 * HEAD's log ("checkout: moving from <a> to <b>" lines, newest first):
 * 1 with its name (a branch name or an id) in out, 0 if there are not
 * that many, or a negative E_* if HEAD's log cannot be read.
 */
int reflog_nth_checkout(struct strbuf *out, const struct ref_store *rs,
			int n);

#endif
