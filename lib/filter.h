/*
 * filter: git's filter drivers, the programs a "filter=<driver>"
 * attribute sends content through (git-lfs is one).  Configured as
 *
 *   filter.<d>.clean, filter.<d>.smudge  a shell command run once per
 *       file, content on its stdin, result from its stdout; "%f" in the
 *       command becomes the path, shell-quoted;
 *   filter.<d>.process  one long-running process for the whole command,
 *       spoken to in git's pkt-line protocol (version 2: welcome,
 *       capabilities clean/smudge/delay, then one request per file); it
 *       wins over clean/smudge when both are set;
 *   filter.<d>.required  a failure is an error; otherwise a failing
 *       filter is reported (diag_emit) and the content kept unchanged.
 *
 * A session is one command's use of filters: process drivers start on
 * first need, once, and filter_session_end() stops them.  lib/convert
 * calls this; commands reach it through convert only.  One thread at a
 * time per session.
 */
#ifndef DIRC_FILTER_H
#define DIRC_FILTER_H

#include "strbuf.h"

struct repo;

enum filter_direction {
	FILTER_CLEAN,		/* work tree -> object */
	FILTER_SMUDGE,		/* object -> work tree */
};

enum filter_session_flags {
	/*
	 * The caller can take "delayed" answers (read-tree -u, as git's
	 * checkout; checkout-index never offers delay).
	 */
	FILTER_CAN_DELAY = 1 << 0,
};

struct filter_session;

/* A session for repo's configuration; never fails (processes start later). */
struct filter_session *filter_session_new(struct repo *repo, unsigned flags);

/*
 * Stop every process the session started (close its input, wait).  0,
 * or -E_* when a required driver's process failed at the end.  Frees fs;
 * NULL is allowed.
 */
int filter_session_end(struct filter_session *fs);

/* Does driver have something to run in direction dir (a command or process)? */
int filter_configured(struct filter_session *fs, const char *driver,
		      enum filter_direction dir);

#define FILTER_DELAYED 2

/*
 * Send len bytes at in through driver for path (from the top of the
 * work tree), in direction dir.  0: out holds the result.  1: nothing
 * was done (no command for dir, or an optional driver failed: reported
 * through diag_emit with git's words, out holds a copy of in).
 * FILTER_DELAYED: the process will answer later (FILTER_CAN_DELAY
 * sessions only; see filter_delayed_*).  -E_*: a required driver failed
 * (git's message, e.g. "<path>: clean filter '<d>' failed"), out
 * undefined.
 */
int filter_apply(struct filter_session *fs, const char *driver,
		 const char *path, enum filter_direction dir,
		 const void *in, size_t len, struct strbuf *out);

#endif
