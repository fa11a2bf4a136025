/*
 * help: what dirc says about itself — the command list ("dirc", "dirc
 * help", "dirc help -a"), the manual of a command ("dirc help <cmd>",
 * "dirc <cmd> --help"), "did you mean" for a mistyped command (with
 * help.autoCorrect), and "dirc version [--build-options]".
 */
#ifndef DIRC_HELP_H
#define DIRC_HELP_H

#include <stddef.h>
#include <stdio.h>

/* One entry of main's command table. */
struct command {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *const *usage;
	/*
	 * 1: another name of the command before it with the same fn
	 * (init-db, update-index, ...), or an internal one (test-tool):
	 * not in "dirc help"'s list.
	 */
	int hidden;
};

/* main's table, as help sees it */
struct command_table {
	const struct command *cmds;
	size_t nr;
};

/* "usage: dirc [-v | --version] ... <command> [<args>]\n" */
extern const char dirc_usage_string[];
extern const char *const help_usage[];
extern const char *const version_usage[];

/* The table entry named name (any of its names), or NULL. */
const struct command *help_find_command(const struct command_table *t,
					const char *name);

/*
 * The usage, then the commands with a line on what each does, then
 * where to read more: "dirc" alone, "dirc help", "dirc --help".
 */
void help_list_commands(const struct command_table *t, FILE *fp);

/*
 * "dirc help [-a | --all] [-m | --man] [<command>]": the list, the
 * list with every name, or the command's manual: "man dirc-<cmd>" (the
 * man program is $DIRC_MAN, else "man" in PATH, with dirc's installed
 * manual directory first in MANPATH as git does), else "man -l" on the
 * page in the source tree dirc was built from, else the command's -h.
 * Returns the exit status (the manual replaces the process).
 */
int help_main(const struct command_table *t, int argc, const char **argv);

/*
 * name is no command: git's "dirc: '<name>' is not a dirc command. See
 * 'dirc --help'." and the most similar names on stderr, exit 1; or,
 * with help.autoCorrect asking for it and one command close enough, the
 * warning and that command, which the caller runs.
 */
const struct command *help_unknown_command(const struct command_table *t,
					   const char *name);

/* "dirc version [--build-options]" */
int cmd_version(int argc, const char **argv);

#endif
