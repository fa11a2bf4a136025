/*
 * error: how lib/ reports failure.  A function that fails sets one message
 * where the failure is found (quoting its subject) and returns a negative
 * E_* code; callers pass the code up and add nothing.  The message slot is
 * thread-local: a worker thread saves its error into its job record with
 * error_save() and the joining thread restores the first one.
 *
 * lib/ never prints.  Warnings and notes that git prints while carrying on
 * (e.g. "ignoring ZZZZ extension") go through diag_emit(), which calls the
 * printer the program installed (none by default: silent in unit tests and
 * fuzzers).
 */
#ifndef DIRC_ERROR_H
#define DIRC_ERROR_H

#include "util.h"

enum dirc_error {
	E_OK = 0,
	E_IO,		/* a system call failed */
	E_CORRUPT,	/* a file or object is malformed */
	E_NOTFOUND,	/* no such object, file, ref or path */
	E_LOCKED,	/* a lock file is held by someone else */
	E_INVALID,	/* a bad argument: path, id, mode, name, value */
	E_AMBIGUOUS,	/* an abbreviation names several objects */
	E_UNSUPPORTED,	/* a format, version or extension dirc lacks */
	E_EXISTS,	/* something is in the way */
	E_CONFLICT,	/* old value mismatch, file/directory conflict */
	E_NOREPO,	/* not inside a repository */
	E_TOOBIG,	/* EFBIG: a write passed the file-size limit */
	E_NOSPACE,	/* ENOSPC / EDQUOT */
	E_PERM,		/* EACCES / EPERM */
	E_FILTER,	/* a filter driver failed where git dies (a
			 * required one, or a process that broke the
			 * protocol): fatal for every command */
};

#define ERROR_MSG_MAX 8192

/*
 * Set this thread's error: code and printf-style message.  Returns -code,
 * so "return error_set(E_CORRUPT, ...);" reads naturally.
 */
PRINTF_LIKE(2, 3) int error_set(int code, const char *fmt, ...);

/*
 * Like error_set(), but with a first line that git prints as "error: <pre>"
 * before the final "fatal: <msg>" (e.g. "bad signature 0x..." then "index
 * file corrupt").
 */
PRINTF_LIKE(3, 4)
int error_set_pre(int code, const char *pre, const char *fmt, ...);

/*
 * error_set() with ": <strerror(errnum)>" appended, and the code chosen
 * from errnum: EFBIG → E_TOOBIG, ENOSPC/EDQUOT → E_NOSPACE, EACCES/EPERM
 * → E_PERM, ENOENT → E_NOTFOUND, anything else → E_IO.
 */
PRINTF_LIKE(2, 3) int error_errno(int errnum, const char *fmt, ...);

#if defined(__clang_analyzer__) && !defined(DIRC_ERROR_IMPL)
/*
 * The static analyzer cannot see from another file that these return
 * -code, which is always negative (every E_* is positive), and so walks
 * impossible paths where an error return looks like success.  Tell it,
 * for it alone; real builds call the functions as declared.
 */
#define ERROR_NEGATIVE(x) __extension__({ int e_ = (x); e_ < 0 ? e_ : -1; })
#define error_set(...) ERROR_NEGATIVE(error_set(__VA_ARGS__))
#define error_set_pre(...) ERROR_NEGATIVE(error_set_pre(__VA_ARGS__))
#define error_errno(...) ERROR_NEGATIVE(error_errno(__VA_ARGS__))
#endif

/* The code of an errno value as error_errno() maps it. */
int error_code_of_errno(int errnum);

/* This thread's last message ("" if none), and its optional first line. */
const char *error_msg(void);
const char *error_pre(void);	/* NULL if none */
int error_code(void);
void error_clear(void);

/* A copy of an error, to carry it from a worker to the joining thread. */
struct error_saved {
	int code;
	char *msg;	/* owned */
	char *pre;	/* owned; may be NULL */
};
#define ERROR_SAVED_INIT { 0, NULL, NULL }
void error_save(struct error_saved *out);
int error_restore(const struct error_saved *saved);	/* returns -code */
void error_saved_release(struct error_saved *saved);

enum diag_level {
	DIAG_WARNING,	/* printed as "warning: <msg>" */
	DIAG_ERROR,	/* printed as "error: <msg>", the operation goes on */
	DIAG_PLAIN,	/* printed as is */
};
typedef void (*diag_printer_fn)(enum diag_level level, const char *msg);

/* Install the printer; set once at program start, before any thread. */
void diag_set_printer(diag_printer_fn fn);
PRINTF_LIKE(2, 3) void diag_emit(enum diag_level level, const char *fmt, ...);

#endif
