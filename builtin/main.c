/*
 * main: the dirc binary.  Global options as git takes them, then the
 * command from the table; at the end, stdout is checked for write errors
 * and the trace (DIRC_TRACE_PERF) is reported.
 */
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtin.h"
#include "config.h"
#include "help.h"
#include "repo.h"
#include "run-command.h"
#include "strbuf.h"
#include "trace.h"
#include "trace2.h"

static int cmd_help(int argc, const char **argv);

#define TABLE_ENTRY(fn, name) { name, cmd_##fn, fn##_usage, 0 },
static const struct command commands[] = {
	COMMANDS(TABLE_ENTRY)
	{ "help", cmd_help, help_usage, 0 },
	{ "version", cmd_version, version_usage, 0 },
	/* other names git and history gave these commands */
	{ "init-db", cmd_init, init_usage, 1 },
	{ "checkout-cache", cmd_checkout_index, checkout_index_usage, 1 },
	{ "update-index", cmd_update_cache, update_cache_usage, 1 },
	{ "test-tool", cmd_test_tool, test_tool_usage, 1 },
};
#undef TABLE_ENTRY

static const struct command_table table = { commands, ARRAY_SIZE(commands) };

static int
cmd_help(int argc, const char **argv)
{
	return help_main(&table, argc, argv);
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

/* "<what>" missing after a global option: git's message, the usage, 129. */
static void NORETURN
missing(const char *what)
{
	fprintf(stderr, "%s\n%s", what, dirc_usage_string);
	exit(129);
}

/*
 * --config-env=<name>=<envvar>: -c <name>=<the variable's value>.  The
 * variable's name is what follows the last '=' (it may not hold one).
 */
static void
push_config_env(const char *spec)
{
	const char *eq = strrchr(spec, '='), *value;
	struct strbuf sb = STRBUF_INIT;

	if (!eq)
		die("invalid config format: %s", spec);
	if (!eq[1])
		die("missing environment variable name for configuration "
		    "'%.*s'", (int)(eq - spec), spec);
	value = getenv(eq + 1);
	if (!value)
		die("missing environment variable '%s' for configuration "
		    "'%.*s'", eq + 1, (int)(eq - spec), spec);
	strbuf_add(&sb, spec, eq - spec);
	strbuf_addch(&sb, '=');
	strbuf_addstr(&sb, value);
	push_config_parameter(sb.buf);
	strbuf_release(&sb);
}

/* --exec-path: where programs dirc runs are looked for */
static void
print_exec_path(void)
{
	struct strbuf path = STRBUF_INIT;
	int ret = run_exec_path(&path);

	if (ret < 0)
		die_lib(ret);
	printf("%s\n", path.buf);
	strbuf_release(&path);
}

struct globals {
	int paginate;		/* -p: 1, -P: -1, else 0 */
	const char *super_prefix;
	int bare;		/* --bare: for init, "init --bare" */
};

static int
handle_global_options(int *argc, const char ***argv, struct globals *g)
{
	while (*argc > 0 && (*argv)[0][0] == '-') {
		const char *arg = (*argv)[0], *v;

		if (!strcmp(arg, "-C") || !strcmp(arg, "-c") ||
		    !strcmp(arg, "--git-dir") || !strcmp(arg, "--work-tree") ||
		    !strcmp(arg, "--namespace") ||
		    !strcmp(arg, "--config-env")) {
			if (*argc < 2) {
				if (!strcmp(arg, "-c"))
					missing("-c expects a configuration "
						"string");
				if (!strcmp(arg, "--namespace"))
					missing("no namespace given for "
						"--namespace");
				if (!strcmp(arg, "--config-env"))
					missing("no config key given for "
						"--config-env");
				{
					struct strbuf sb = STRBUF_INIT;

					strbuf_addf(&sb, "no directory given "
						    "for '%s' option", arg);
					missing(sb.buf);
				}
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
			} else if (!strcmp(arg, "--work-tree")) {
				setenv("GIT_WORK_TREE", v, 1);
			} else if (!strcmp(arg, "--namespace")) {
				setenv("GIT_NAMESPACE", v, 1);
			} else {
				push_config_env(v);
			}
		} else if (skip_prefix(arg, "--git-dir=", &v)) {
			setenv("GIT_DIR", v, 1);
		} else if (skip_prefix(arg, "--work-tree=", &v)) {
			setenv("GIT_WORK_TREE", v, 1);
		} else if (skip_prefix(arg, "--namespace=", &v)) {
			setenv("GIT_NAMESPACE", v, 1);
		} else if (skip_prefix(arg, "--config-env=", &v)) {
			push_config_env(v);
		} else if (skip_prefix(arg, "--exec-path", &v) &&
			   (!*v || *v == '=')) {
			if (!*v) {
				print_exec_path();
				exit(finish_stdout(0));
			}
			if (v[1])
				setenv("GIT_EXEC_PATH", v + 1, 1);
		} else if (!strcmp(arg, "--bare")) {
			char cwd[4096];

			/* as git: GIT_DIR, if not set, and no work tree */
			if (!getcwd(cwd, sizeof(cwd)))
				die("unable to get current working directory: "
				    "%s", strerror(errno));
			setenv("GIT_DIR", cwd, 0);
			setenv("GIT_IMPLICIT_WORK_TREE", "0", 1);
			g->bare = 1;
		} else if (!strcmp(arg, "--version") || !strcmp(arg, "-v")) {
			/* as git: "dirc --version <args>" is "dirc version" */
			(*argv)[0] = "version";
			exit(finish_stdout(cmd_version(*argc, *argv)));
		} else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			const char *help_argv[] = { "help", NULL, NULL };

			help_argv[1] = *argc > 1 ? (*argv)[1] : NULL;
			exit(finish_stdout(cmd_help(help_argv[1] ? 2 : 1,
						    help_argv)));
		} else if (!strcmp(arg, "-p") || !strcmp(arg, "--paginate")) {
			g->paginate = 1;
		} else if (!strcmp(arg, "-P") || !strcmp(arg, "--no-pager")) {
			g->paginate = -1;
		} else if (!strcmp(arg, "--no-replace-objects")) {
			setenv("GIT_NO_REPLACE_OBJECTS", "1", 1);
		} else if (!strcmp(arg, "--literal-pathspecs")) {
			setenv("GIT_LITERAL_PATHSPECS", "1", 1);
		} else if (!strcmp(arg, "--glob-pathspecs")) {
			setenv("GIT_GLOB_PATHSPECS", "1", 1);
		} else if (!strcmp(arg, "--noglob-pathspecs")) {
			setenv("GIT_NOGLOB_PATHSPECS", "1", 1);
		} else if (!strcmp(arg, "--icase-pathspecs")) {
			setenv("GIT_ICASE_PATHSPECS", "1", 1);
		} else if (!strcmp(arg, "--no-optional-locks")) {
			setenv("GIT_OPTIONAL_LOCKS", "0", 1);
		} else if (skip_prefix(arg, "--super-prefix=", &v) ||
			   !strcmp(arg, "--super-prefix")) {
			if (!strcmp(arg, "--super-prefix")) {
				if (*argc < 2)
					missing("no prefix given for "
						"--super-prefix");
				(*argv)++;
				(*argc)--;
			}
			g->super_prefix = arg;
		} else if (!strcmp(arg, "--html-path") ||
			   !strcmp(arg, "--man-path") ||
			   !strcmp(arg, "--info-path") ||
			   starts_with(arg, "--list-cmds=")) {
			/* git's; dirc installs man pages only, lists via help */
			fprintf(stderr, "%.*s is not supported by dirc (see "
				"'dirc help' and 'man dirc')\n%s",
				(int)strcspn(arg, "="), arg, dirc_usage_string);
			exit(129);
		} else {
			fprintf(stderr, "unknown option: %s\n%s", arg,
				dirc_usage_string);
			exit(129);
		}
		(*argv)++;
		(*argc)--;
	}
	return 0;
}

/* ---- the pager (-p, pager.<command>) ---- */

static pid_t pager_pid = -1;

static void
wait_for_pager(void)
{
	if (pager_pid < 0)
		return;
	fflush(stdout);
	fflush(stderr);
	/* the pager reads until every writer is gone */
	close(1);
	close(2);
	while (waitpid(pager_pid, NULL, 0) < 0 && errno == EINTR)
		;
	pager_pid = -1;
}

/*
 * Page stdout as git does when it is a terminal: with -p, or when
 * pager.<command> asks (a boolean, or the pager to use), unless -P.  The
 * pager is $GIT_PAGER, core.pager, $PAGER or "less" (LESS=FRX and LV=-c
 * unless set); "" or "cat" means none.
 */
static void
setup_pager(const struct globals *g, const char *cmd)
{
	struct repo repo;
	struct strbuf key = STRBUF_INIT;
	const char *pager = NULL, *v;
	int fds[2], want = g->paginate > 0;

	if (g->paginate < 0 || !isatty(1))
		return;
	if (repo_open(&repo, REPO_GENTLY | REPO_NO_CHDIR) < 0) {
		error_clear();
		return;	/* the command reports the repository's problem */
	}
	strbuf_addf(&key, "pager.%s", cmd);
	if (!want && config_get(&repo.config, key.buf, &v)) {
		int b = v ? config_parse_bool(v) : 1;

		if (b > 0)
			want = 1;
		else if (b < 0 && v && *v) {
			want = 1;
			pager = v;
		}
	}
	if (want && !pager) {
		pager = getenv("GIT_PAGER");
		if (!pager && config_get(&repo.config, "core.pager", &v) && v)
			pager = v;
		if (!pager)
			pager = getenv("PAGER");
		if (!pager)
			pager = "less";
	}
	if (!want || !*pager || !strcmp(pager, "cat"))
		goto out;
	fflush(stdout);
	if (pipe(fds) < 0)
		goto out;
	pager_pid = fork();
	if (pager_pid < 0) {
		close(fds[0]);
		close(fds[1]);
		goto out;
	}
	if (!pager_pid) {
		dup2(fds[0], 0);
		close(fds[0]);
		close(fds[1]);
		setenv("LESS", "FRX", 0);
		setenv("LV", "-c", 0);
		execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
		fprintf(stderr, "fatal: unable to execute pager '%s'\n", pager);
		_exit(127);
	}
	dup2(fds[1], 1);
	if (isatty(2))
		dup2(fds[1], 2);
	close(fds[0]);
	close(fds[1]);
	atexit(wait_for_pager);
out:
	strbuf_release(&key);
	repo_release(&repo);
}

/*
 * Map all of the code in at once.  Left to page faults it comes in 64 KB
 * at a time, in the order it runs: a dozen faults in the C library's
 * start-up alone (a static build relocates itself and picks its string
 * functions, which touches code all over), each a trap that is dear in
 * a virtual machine, where the one madvise() costs less than they did
 * (perf/README.md, "Start-up").  A kernel before 5.14 refuses the
 * advice, and nothing changes.
 *
 * On x86-64 Linux the Makefile makes dirc_start the entry point
 * (DIRC_ENTRY_STUB): it makes the call before anything else runs and
 * jumps to the C library's _start with the registers as the kernel
 * left them (%rsp, and %rdx, which _start takes as a function to
 * register with atexit(); only %rcx, %r11 and %rax, which the system
 * call clobbers, and %rdi, %rsi and %r9 are used).  Elsewhere main()
 * makes it first.
 *
 * Linked with perf/hot-functions' order (DIRC_HOT_ORDER), the code the
 * small commands run lies from dirc_start, the list's first entry, to
 * dirc_hot_end, its last: only that is mapped in, a sixth of the text,
 * and it is all one run of pages where the C library's and dirc's
 * functions were spread over all of them (perf/README.md, "The code a
 * small command runs").  Should the order be lost, the whole text is.
 */
#ifdef DIRC_ENTRY_STUB
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22	/* Linux's number; older headers lack it */
#endif
#define STR_(x) #x
#define STR(x) STR_(x)
__asm__(".pushsection .text\n"
	".globl dirc_start\n"
	".type dirc_start, @function\n"
	"dirc_start:\n"
	"	mov %rdx, %r9\n"
#ifdef DIRC_HOT_ORDER
	"	lea dirc_start(%rip), %rdi\n"
	"	lea dirc_hot_end(%rip), %rsi\n"
	"	cmp %rdi, %rsi\n"
	"	jbe 2f\n"
	"	and $-4096, %rdi\n"
	"	jmp 1f\n"
	"2:\n"
#endif
	"	lea __executable_start(%rip), %rdi\n"
	"	lea etext(%rip), %rsi\n"
	"1:	sub %rdi, %rsi\n"
	"	mov $" STR(MADV_POPULATE_READ) ", %edx\n"
	"	mov $" STR(SYS_madvise) ", %eax\n"
	"	syscall\n"
	"	mov %r9, %rdx\n"
	"	jmp _start\n"
	".size dirc_start, . - dirc_start\n"
	".popsection\n");
#define map_code() ((void)0)	/* done at the entry */
#ifdef DIRC_HOT_ORDER
/* the end of the code mapped in: perf/hot-functions' last entry */
void dirc_hot_end(void);
__attribute__((used)) void
dirc_hot_end(void)
{
}
#endif
#else
static void
map_code(void)
{
#ifdef MADV_POPULATE_READ
	extern char __executable_start[], etext[];
	uintptr_t start = (uintptr_t)__executable_start & ~(uintptr_t)4095;

	madvise((void *)start, (uintptr_t)etext - start, MADV_POPULATE_READ);
#endif
}
#endif

int
main(int argc, const char **argv)
{
	const struct command *cmd;
	struct globals g = { 0, NULL, 0 };
	const char *name;
	int status;

	map_code();
	setup_diagnostics();
	trace_setup();
	trace2_setup(argc, argv);
	/* an over-limit write must fail with EFBIG, not kill us */
	signal(SIGXFSZ, SIG_IGN);

	argv++;
	argc--;
	handle_global_options(&argc, &argv, &g);
	if (!argc) {
		/* as git: the usage and the commands on stdout, status 1 */
		help_list_commands(&table, stdout);
		return finish_stdout(1);
	}
	name = argv[0];
	cmd = help_find_command(&table, name);
	if (!cmd) {
		/* exits unless help.autoCorrect runs the most similar one */
		cmd = help_unknown_command(&table, name);
		argv[0] = cmd->name;
	}
	if (g.super_prefix)
		die("%s doesn't support --super-prefix", cmd->name);
	setup_pager(&g, cmd->name);
	/* as git: "--help" first after the command opens its manual */
	if (argc > 1 && !strcmp(argv[1], "--help")) {
		const char *help_argv[] = { "help", cmd->name, NULL };

		return finish_stdout(cmd_help(2, help_argv));
	}
	if (g.bare && cmd->fn == cmd_init) {
		const char **nargv = xcalloc(argc + 2, sizeof(*nargv));

		nargv[0] = argv[0];
		nargv[1] = "--bare";
		memcpy(nargv + 2, argv + 1, (argc - 1) * sizeof(*nargv));
		status = cmd->fn(argc + 1, nargv);
		free(nargv);
	} else {
		status = cmd->fn(argc, argv);
	}
	status = finish_stdout(status);
	trace_report();
	trace2_exit(status);
	return status;
}
