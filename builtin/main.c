/*
 * main: the dirc binary.  Global options as git takes them, then the
 * command from the table; at the end, stdout is checked for write errors
 * and the trace (DIRC_TRACE_PERF) is reported.
 */
#include <signal.h>
#include <unistd.h>

#include "builtin.h"
#include "strbuf.h"
#include "trace.h"

#define DIRC_VERSION "0.1"

struct command {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *const *usage;
	int hidden;
};

#define TABLE_ENTRY(fn, name) { name, cmd_##fn, fn##_usage, 0 },
static const struct command commands[] = {
	COMMANDS(TABLE_ENTRY)
	/* other names git and history gave these commands */
	{ "init-db", cmd_init, init_usage, 1 },
	{ "checkout-cache", cmd_checkout_index, checkout_index_usage, 1 },
	{ "update-index", cmd_update_cache, update_cache_usage, 1 },
	{ "test-tool", cmd_test_tool, test_tool_usage, 1 },
};
#undef TABLE_ENTRY

static const char main_usage[] =
	"usage: dirc [--version] [-h | --help] [-C <path>] [-c <name>=<value>]\n"
	"            [--git-dir=<path>] [--work-tree=<path>]\n"
	"            <command> [<args>]\n";

static const struct command *
find_command(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void
list_commands(FILE *fp)
{
	fprintf(fp, "%s\nCommands:\n", main_usage);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!commands[i].hidden)
			fprintf(fp, "   %s\n", commands[i].name);
	fprintf(fp, "\n'dirc help <command>' shows a command's usage; "
		"'man dirc-<command>' its manual.\n");
}

static int
cmd_help(int argc, const char **argv)
{
	const struct command *cmd;

	if (argc < 2) {
		list_commands(stdout);
		return 0;
	}
	cmd = find_command(argv[1]);
	if (!cmd) {
		fprintf(stderr, "dirc: '%s' is not a dirc command. See "
			"'dirc help'.\n", argv[1]);
		return 1;
	}
	print_usage_lines(cmd->usage);
	printf("\nSee 'man dirc-%s' (Documentation/dirc-%s.1) for "
	       "details.\n", cmd->name, cmd->name);
	return 0;
}

/* Append a -c pair to GIT_CONFIG_PARAMETERS, single-quoted as git does. */
static void
push_config_parameter(const char *pair)
{
	const char *old = getenv("GIT_CONFIG_PARAMETERS");
	struct strbuf sb = STRBUF_INIT;

	if (old && *old) {
		strbuf_addstr(&sb, old);
		strbuf_addch(&sb, ' ');
	}
	strbuf_addch(&sb, '\'');
	for (const char *p = pair; *p; p++) {
		if (*p == '\'')
			strbuf_addstr(&sb, "'\\''");
		else
			strbuf_addch(&sb, *p);
	}
	strbuf_addch(&sb, '\'');
	setenv("GIT_CONFIG_PARAMETERS", sb.buf, 1);
	strbuf_release(&sb);
}

static int
handle_global_options(int *argc, const char ***argv)
{
	while (*argc > 0 && (*argv)[0][0] == '-') {
		const char *arg = (*argv)[0], *v;

		if (!strcmp(arg, "-C") || !strcmp(arg, "-c") ||
		    !strcmp(arg, "--git-dir") || !strcmp(arg, "--work-tree")) {
			if (*argc < 2) {
				if (!strcmp(arg, "-c"))
					fprintf(stderr, "-c expects a "
						"configuration string\n%s",
						main_usage);
				else
					fprintf(stderr, "no directory given for "
						"%s option\n\n%s", arg,
						main_usage);
				exit(129);
			}
			v = (*argv)[1];
			(*argv)++;
			(*argc)--;
			if (!strcmp(arg, "-C")) {
				if (*v && chdir(v) < 0)
					die("cannot change to '%s': %s", v,
					    strerror(errno));
			} else if (!strcmp(arg, "-c")) {
				push_config_parameter(v);
			} else if (!strcmp(arg, "--git-dir")) {
				setenv("GIT_DIR", v, 1);
			} else {
				setenv("GIT_WORK_TREE", v, 1);
			}
		} else if (skip_prefix(arg, "--git-dir=", &v)) {
			setenv("GIT_DIR", v, 1);
		} else if (skip_prefix(arg, "--work-tree=", &v)) {
			setenv("GIT_WORK_TREE", v, 1);
		} else if (!strcmp(arg, "--bare")) {
			char cwd[4096];

			if (getcwd(cwd, sizeof(cwd)))
				setenv("GIT_DIR", cwd, 1);
		} else if (!strcmp(arg, "--version") || !strcmp(arg, "-v")) {
			printf("dirc version %s\n", DIRC_VERSION);
			exit(0);
		} else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			list_commands(stdout);
			exit(0);
		} else if (!strcmp(arg, "-p") || !strcmp(arg, "--paginate") ||
			   !strcmp(arg, "-P") || !strcmp(arg, "--no-pager") ||
			   !strcmp(arg, "--no-replace-objects") ||
			   !strcmp(arg, "--literal-pathspecs")) {
			/* accepted for compatibility; nothing to do */
		} else {
			fprintf(stderr, "unknown option: %s\n%s", arg,
				main_usage);
			exit(129);
		}
		(*argv)++;
		(*argc)--;
	}
	return 0;
}

static int
finish_stdout(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		if (errno == EPIPE)
			return status;
		fprintf(stderr, "fatal: write failure on standard output: "
			"%s\n", strerror(errno));
		return 128;
	}
	return status;
}

int
main(int argc, const char **argv)
{
	const struct command *cmd;
	const char *name;
	int status;

	setup_diagnostics();
	trace_setup();
	/* an over-limit write must fail with EFBIG, not kill us */
	signal(SIGXFSZ, SIG_IGN);

	argv++;
	argc--;
	handle_global_options(&argc, &argv);
	if (!argc) {
		list_commands(stderr);
		return 1;
	}
	name = argv[0];
	if (!strcmp(name, "help"))
		return finish_stdout(cmd_help(argc, argv));
	cmd = find_command(name);
	if (!cmd) {
		fprintf(stderr, "dirc: '%s' is not a dirc command. See "
			"'dirc help'.\n", name);
		return 1;
	}
	if (argc == 2 && !strcmp(argv[1], "--help")) {
		const char *help_argv[] = { "help", cmd->name, NULL };

		return finish_stdout(cmd_help(2, help_argv));
	}
	status = cmd->fn(argc, argv);
	status = finish_stdout(status);
	trace_report();
	return status;
}
