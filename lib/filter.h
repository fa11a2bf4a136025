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

struct object_id;
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
 * Stop every process the session started (close its input, wait; the
 * last started first).  One that dies of a signal then is reported
 * ("error: <cmd> died of signal <n>", as git's exit does); a non-zero
 * exit status is not.  Neither is a failure: returns 0.  Frees fs; NULL
 * is allowed.
 */
int filter_session_end(struct filter_session *fs);

/*
 * Has the configuration of repo a command or process for some driver in
 * direction dir?  (Then a checkout runs in index order on one thread,
 * as git's: a filter sees the files in git's order.)
 */
int filter_any_configured(const struct repo *repo, enum filter_direction dir);

/* Does driver have something to run in direction dir (a command or process)? */
int filter_configured(struct filter_session *fs, const char *driver,
		      enum filter_direction dir);

/*
 * Is filter.<driver>.required true?  1 or 0, or -E_INVALID (git's "bad
 * boolean config value" message).  A required driver with no command
 * for a direction fails filter_apply() in that direction (git's clean
 * and cat-file --filters die there; its checkout streams the blob
 * unchanged instead, not asking).
 */
int filter_required(struct filter_session *fs, const char *driver);

#define FILTER_DELAYED 2

/*
 * Send len bytes at in through driver for path (from the top of the
 * work tree), in direction dir.  0: out holds the result.  1: nothing
 * was done (no command for dir and not required, or an optional driver
 * failed, or its process does not take dir or aborted it: reported
 * through diag_emit with git's words, out holds a copy of in).
 * FILTER_DELAYED: the process will answer later (FILTER_CAN_DELAY
 * sessions only; see filter_delayed_*).  -E_FILTER (fatal wherever it
 * happens, as git dies there), or -E_INVALID for a bad
 * filter.<d>.required: a required driver failed
 * (git's message, e.g. "<path>: clean filter '<d>' failed"), or a
 * process broke the protocol where git dies whether or not the driver
 * is required: a packet that is not one ("protocol error: bad line
 * length character: <4 bytes>", "protocol error: bad line length <n>"),
 * an unknown capability ("subprocess '<cmd>' requested unsupported
 * capability '<cap>'"), an end of file in the handshake ("the remote
 * end hung up unexpectedly"); out undefined.  The messages git prints
 * before carrying on ("external filter '<cmd>' failed", "<cmd> died of
 * signal <n>", ...) go through diag_emit as DIAG_ERROR.
 */
int filter_apply(struct filter_session *fs, const char *driver,
		 const char *path, enum filter_direction dir,
		 const void *in, size_t len, struct strbuf *out);

/*
 * filter_apply() for the blob blob (NULL: not known), which a process
 * driver is told ("blob=<hex>", as git tells it when it smudges a blob
 * of the index or cat-file --filters).
 */
int filter_apply_blob(struct filter_session *fs, const char *driver,
		      const char *path, enum filter_direction dir,
		      const struct object_id *blob, const void *in, size_t len,
		      struct strbuf *out);

/*
 * Delayed answers.  When filter_apply() returned FILTER_DELAYED for some
 * paths, the caller finishes its other work, then calls
 * filter_delayed_next() until it returns 0.  1: path holds a delayed
 * path that is now available; the caller calls filter_apply() for it
 * again (same driver and direction; the input is not sent: the process
 * has it) and writes the result.  0: nothing more will come; *errors
 * counts what went wrong (each reported through diag_emit in git's
 * words: "'<path>' was not filtered properly" for a path never
 * delivered, "external filter '<cmd>' signaled that '<path>' is now
 * available although it has not been delayed earlier"), and git then
 * fails the command.  -E_*: as filter_apply().
 */
int filter_delayed_next(struct filter_session *fs, struct strbuf *path,
			size_t *errors);

/* Is any delayed path still to be handed out by filter_delayed_next()? */
int filter_delayed_pending(struct filter_session *fs);

#endif
