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

enum run_flags {
	/*
	 * argv[0] is a shell command: run through "sh -c" when it holds any
	 * of the shell's special characters (or a space), else as a
	 * program, as git runs configured commands.
	 */
	RUN_USE_SHELL = 1 << 0,
	RUN_PIPE_IN = 1 << 1,	/* the child's stdin is a pipe from us */
	RUN_PIPE_OUT = 1 << 2,	/* its stdout is a pipe to us */
};

/* A started child.  Our ends of its pipes are close-on-exec. */
struct run_process {
	int pid;		/* -1 when none */
	int in;			/* write end of its stdin, or -1 */
	int out;		/* read end of its stdout, or -1 */
	char *name;		/* argv[0] as given, for messages; owned */
	int exec_failed;	/* run_start() failed at the exec (or at the
				 * chdir or dup2 before it) */
};
#define RUN_PROCESS_INIT { .pid = -1, .in = -1, .out = -1, .name = NULL }

/*
 * Start argv (flags: enum run_flags) in directory dir (NULL: ours), with
 * the "NAME=value" strings of env (NULL-terminated, may be NULL) added
 * to its environment (value NULL-free; "NAME" alone unsets it).  0 with
 * p filled in, or -E_* with the messages of run_command() (an exec that
 * failed is an error here, with run_command()'s exec messages);
 * nothing is left running then.
 */
int run_start(struct run_process *p, const char *const *argv, unsigned flags,
	      const char *dir, const char *const *env);

/*
 * Close our ends of p's pipes (if still open) and wait for it; st says
 * how it ended.  0, or -E_IO if waiting failed.  p is released either
 * way (pid -1).
 */
int run_finish(struct run_process *p, struct run_status *st);

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
