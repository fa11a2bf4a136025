/*
 * run-command: run another program and wait for it, finding it as git
 * finds the programs it runs: a name without '/' is looked up in PATH
 * (the first regular file there with its owner's execute bit), and git
 * puts its exec path first in PATH (run_exec_path(), run_setup_path());
 * a file the kernel will not execute as it is (no "#!" line) is run by
 * /bin/sh.  The program inherits the environment, the current
 * directory and the three standard streams.
 */
#ifndef DIRC_RUN_COMMAND_H
#define DIRC_RUN_COMMAND_H

#include "strbuf.h"

struct run_status {
	int code;		/* the exit code; 128 + n if killed by signal n */
	int signal;		/* that signal, or 0 */
	int exec_failed;	/* the program was found but could not be run
				 * (code 127; the reason is the error message,
				 * which git's child prints as fatal) */
};

/*
 * Run argv[0] with argv (NULL-terminated) and wait for it.  0 when a
 * process was started (st says how it ended; with st->exec_failed the
 * message is set: "cannot run <argv0>: <reason>" for ENOENT, else
 * "cannot exec '<argv0>': <reason>"), or a negative E_* when none was:
 * -E_NOTFOUND "cannot run <argv0>: No such file or directory" (no such
 * program in PATH), -E_IO ("cannot fork() for <argv0>: <reason>").
 */
int run_command(struct run_status *st, const char *const *argv);

/*
 * Where git's helper programs are: GIT_EXEC_PATH when set, else the
 * directory of the running program (dirc has no helpers of its own).
 * Into out (replaced); 0 or -E_IO.
 */
int run_exec_path(struct strbuf *out);

/*
 * Put the exec path first in PATH for this process and the programs it
 * runs, as git does when it starts.  0 or -E_IO.
 */
int run_setup_path(void);

#endif
