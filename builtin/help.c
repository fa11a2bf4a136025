/*
 * help: the command list, the manuals, "did you mean" and the version
 * (see help.h).
 *
 * The one-line descriptions below are the NAME lines of the manual pages
 * (Documentation/dirc-<cmd>.1, roff escapes removed); t0012 checks that
 * they agree.  Where the manual is: doc-paths.h (the man directory
 * "make install" fills, found from the binary's own place, and the source
 * tree's Documentation/); an installed page is always preferred to the
 * source tree's.
 */
#include "help.h"

#include <fcntl.h>
#include <openssl/opensslv.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "builtin.h"
#include "config.h"
#include "doc-paths.h"
#include "levenshtein.h"
#include "parse-options.h"
#include "repo.h"
#include "strbuf.h"
#include "workers.h"

#define DIRC_VERSION "0.1"

#ifndef DIRC_LINK
#define DIRC_LINK "unknown"
#endif
#ifndef DIRC_CRYPTO_LINK
#define DIRC_CRYPTO_LINK "unknown"
#endif
#ifndef DIRC_SANITIZERS
#define DIRC_SANITIZERS ""
#endif
#ifndef DIRC_HOST_CPU
#define DIRC_HOST_CPU "unknown"
#endif

const char dirc_usage_string[] =
	"usage: dirc [-v | --version] [-h | --help] [-C <path>] [-c <name>=<value>]\n"
	"            [--exec-path[=<path>]] [-p | --paginate | -P | --no-pager]\n"
	"            [--no-replace-objects] [--bare] [--git-dir=<path>]\n"
	"            [--work-tree=<path>] [--namespace=<name>]\n"
	"            [--config-env=<name>=<envvar>] [--literal-pathspecs]\n"
	"            [--glob-pathspecs] [--noglob-pathspecs] [--icase-pathspecs]\n"
	"            [--no-optional-locks] <command> [<args>]\n";

const char *const help_usage[] = {
	"dirc help [-a | --all] [-m | --man] [<command>]",
	NULL,
};

const char *const version_usage[] = {
	"dirc version [--build-options]",
	NULL,
};

/* What each command does: its manual's NAME line. */
static const struct {
	const char *name;
	const char *desc;
} descriptions[] = {
	{ "cat-file", "show the type, size or contents of objects" },
	{ "check-attr", "show the gitattributes of paths" },
	{ "check-ignore", "say which paths the ignore rules exclude, and why" },
	{ "checkout-index", "copy files from the index into the work tree" },
	{ "commit-tree", "create a commit object" },
	{ "count-objects",
	  "count stored objects and the disk space they use" },
	{ "diff-files", "compare the work tree with the index" },
	{ "diff-index", "compare a tree with the index or the work tree" },
	{ "diff-tree", "compare two trees, or a commit with its parents" },
	{ "hash-object",
	  "compute object ids, and optionally store the objects" },
	{ "help", "list the commands, and open their manuals" },
	{ "init",
	  "create an empty repository, or re-initialise an existing one" },
	{ "ls-files", "list the index and how the work tree differs from it" },
	{ "ls-tree", "list the contents of a tree object" },
	{ "merge-index",
	  "run a merge program for the unmerged paths of the index" },
	{ "mktree", "build a tree object from ls-tree output" },
	{ "read-tree", "read a tree into the index" },
	{ "rev-parse", "resolve names to object ids, pass revision arguments "
	  "on, and locate the repository" },
	{ "symbolic-ref", "read, set or delete a symbolic reference" },
	{ "update-cache", "register files in the index" },
	{ "update-ref", "set or delete a reference safely" },
	{ "verify-pack", "check packfiles completely" },
	{ "version", "show dirc's version and how it was built" },
	{ "write-tree", "write the index as tree objects" },
};

const struct command *
help_find_command(const struct command_table *t, const char *name)
{
	for (size_t i = 0; i < t->nr; i++)
		if (!strcmp(t->cmds[i].name, name))
			return &t->cmds[i];
	return NULL;
}

/* The command's first name in the table (update-cache for update-index). */
static const struct command *
canonical(const struct command_table *t, const struct command *cmd)
{
	for (size_t i = 0; i < t->nr; i++)
		if (t->cmds[i].fn == cmd->fn && !t->cmds[i].hidden)
			return &t->cmds[i];
	return cmd;
}

/* The description of cmd (of its first name), or NULL (test-tool). */
static const char *
describe(const struct command_table *t, const struct command *cmd)
{
	const char *name = canonical(t, cmd)->name;

	for (size_t i = 0; i < ARRAY_SIZE(descriptions); i++)
		if (!strcmp(descriptions[i].name, name))
			return descriptions[i].desc;
	return NULL;
}

static int
cmp_command_name(const void *a, const void *b)
{
	const struct command *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

/* One line per command (every name with all), sorted by name. */
static void
print_command_lines(const struct command_table *t, FILE *fp, int all)
{
	const struct command **list = xcalloc(t->nr, sizeof(*list));
	size_t nr = 0;
	int width = 0;

	for (size_t i = 0; i < t->nr; i++) {
		const struct command *c = &t->cmds[i];

		if (!describe(t, c) || (c->hidden && !all))
			continue;
		list[nr++] = c;
		if ((int)strlen(c->name) > width)
			width = (int)strlen(c->name);
	}
	sort_array(list, nr, sizeof(*list), cmp_command_name);
	for (size_t i = 0; i < nr; i++)
		fprintf(fp, "   %-*s  %s\n", width, list[i]->name,
			describe(t, list[i]));
	free(list);
}

void
help_list_commands(const struct command_table *t, FILE *fp)
{
	fprintf(fp, "%s\nThe dirc commands:\n", dirc_usage_string);
	print_command_lines(t, fp, 0);
	fprintf(fp, "\n'dirc help -a' lists every command name.  'dirc help "
		"<command>' or 'dirc <command> --help'\nopens a command's "
		"manual; 'man dirc' describes dirc itself.\n");
}

/* ---- the manual ---- */

static const char *
man_program(void)
{
	const char *man = getenv("DIRC_MAN");

	return man && *man ? man : "man";
}

/*
 * Run "<man> -w <page>" with its output thrown away: 1 if the page is
 * installed, 0 if not, -1 if no man program could be run.
 */
static int
man_has_page(const char *page)
{
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		int fd = open("/dev/null", O_RDWR);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execlp(man_program(), man_program(), "-w", page, (char *)NULL);
		_exit(errno == ENOENT ? 127 : 126);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) >= 126)
		return -1;
	return !WEXITSTATUS(status);
}

/*
 * As git: dirc's own manual directory first in MANPATH, the trailing
 * colon keeping man's defaults after it.
 */
static void
setup_man_path(void)
{
	const char *old = getenv("MANPATH");
	const char *mandir = doc_installed_mandir();
	struct strbuf sb = STRBUF_INIT;

	if (!mandir)
		return;
	strbuf_addf(&sb, "%s:%s", mandir, old ? old : "");
	setenv("MANPATH", sb.buf, 1);
	strbuf_release(&sb);
}

/* Open cmd's manual; returns only when there is none to show. */
static void
exec_manual(const struct command *cmd)
{
	struct strbuf page = STRBUF_INIT, src = STRBUF_INIT;
	struct stat st;
	int have;

	strbuf_addf(&page, "dirc-%s", cmd->name);
	setup_man_path();
	have = man_has_page(page.buf);
	if (have > 0) {
		fflush(stdout);
		execlp(man_program(), man_program(), page.buf, (char *)NULL);
		warning("failed to exec '%s': %s", man_program(),
			strerror(errno));
	}
	if (*doc_source_dir()) {
		strbuf_addf(&src, "%s/%s.1", doc_source_dir(), page.buf);
		if (have == 0 && !stat(src.buf, &st)) {
			fflush(stdout);
			execlp(man_program(), man_program(), "-l", src.buf,
			       (char *)NULL);
			warning("failed to exec '%s': %s", man_program(),
				strerror(errno));
		}
	}
	fprintf(stderr, "dirc: no manual page '%s' (%s); the options of "
		"'dirc %s':\n", page.buf, have < 0 ?
		"no man program could be run" : "not installed",
		cmd->name);
	strbuf_release(&page);
	strbuf_release(&src);
}

/* The command's -h: its usage and options, exit 129. */
static int
show_short_help(const struct command *cmd)
{
	const char *argv[] = { cmd->name, "-h", NULL };

	return cmd->fn(2, argv);
}

int
help_main(const struct command_table *t, int argc, const char **argv)
{
	const struct command *cmd;
	int all = 0, man = 0;
	struct option opts[] = {
		OPT_BOOL('a', "all", &all, "print all available commands"),
		OPT_BOOL('m', "man", &man, "show man page"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, help_usage, 0);
	if (all) {
		printf("See 'dirc help <command>' to read about a specific "
		       "command.\n\nThe dirc commands, and their other "
		       "names:\n");
		print_command_lines(t, stdout, 1);
		return 0;
	}
	if (!argc) {
		help_list_commands(t, stdout);
		return 0;
	}
	cmd = help_find_command(t, argv[0]);
	if (!cmd || !describe(t, cmd)) {
		fprintf(stderr, "dirc: '%s' is not a dirc command. See "
			"'dirc --help'.\n", argv[0]);
		return 1;
	}
	cmd = canonical(t, cmd);
	exec_manual(cmd);
	return show_short_help(cmd);
}

/* ---- "did you mean" ---- */

/* git's: a weighted distance below this (+1) is worth suggesting */
#define SIMILARITY_FLOOR 7

/*
 * help.autoCorrect as git 2.39 reads it: "never", "immediate", "prompt",
 * or tenths of a second to wait (negative: immediate; 0: only suggest).
 */
#define AUTOCORRECT_PROMPT (-3)
#define AUTOCORRECT_NEVER (-2)
#define AUTOCORRECT_IMMEDIATE (-1)

static int
read_autocorrect(void)
{
	struct repo repo;
	const char *v;
	long n = 0;
	int ret;

	if (repo_open(&repo, REPO_GENTLY | REPO_NO_CHDIR) < 0) {
		error_clear();
		return 0;
	}
	if (!config_get(&repo.config, "help.autocorrect", &v)) {
		repo_release(&repo);
		return 0;
	}
	if (!v) {
		repo_release(&repo);
		error("missing value for 'help.autocorrect'");
		die("bad config variable 'help.autocorrect'");
	}
	if (!strcmp(v, "never")) {
		n = AUTOCORRECT_NEVER;
	} else if (!strcmp(v, "immediate")) {
		n = AUTOCORRECT_IMMEDIATE;
	} else if (!strcmp(v, "prompt")) {
		n = AUTOCORRECT_PROMPT;
	} else {
		ret = config_get_long(&repo.config, "help.autocorrect", &n);
		if (ret < 0)
			die_lib(ret);
		if (n > INT32_MAX || n < INT32_MIN)
			die("bad numeric config value '%s' for "
			    "'help.autocorrect': out of range", v);
		if (n < 0)
			n = AUTOCORRECT_IMMEDIATE;
	}
	repo_release(&repo);
	return (int)n;
}

struct candidate {
	const struct command *cmd;
	int score;	/* 0: a prefix match; else the distance + 1 */
};

static int
cmp_candidate(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;

	if (x->score != y->score)
		return x->score < y->score ? -1 : 1;
	return strcmp(x->cmd->name, y->cmd->name);
}

static void
sleep_tenths(int n)
{
	struct timespec ts = { n / 10, (long)(n % 10) * 100000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* "Run '<name>' instead [y/N]? " on the terminal: 1 for yes. */
static int
ask(const char *name)
{
	struct strbuf answer = STRBUF_INIT;
	int yes;

	fprintf(stderr, "Run '%s' instead [y/N]? ", name);
	fflush(stderr);
	if (strbuf_getdelim(&answer, stdin, '\n') < 0)
		strbuf_reset(&answer);
	yes = answer.len && (answer.buf[0] == 'y' || answer.buf[0] == 'Y');
	strbuf_release(&answer);
	return yes;
}

const struct command *
help_unknown_command(const struct command_table *t, const char *name)
{
	struct candidate *c = xcalloc(t->nr, sizeof(*c));
	int autocorrect = read_autocorrect(), best;
	size_t nr = 0, n;

	if (autocorrect == AUTOCORRECT_PROMPT && (!isatty(0) || !isatty(2)))
		autocorrect = AUTOCORRECT_NEVER;
	if (autocorrect == AUTOCORRECT_NEVER) {
		fprintf(stderr, "dirc: '%s' is not a dirc command. See "
			"'dirc --help'.\n", name);
		exit(1);
	}
	for (size_t i = 0; i < t->nr; i++) {
		if (!describe(t, &t->cmds[i]))
			continue;
		c[nr].cmd = &t->cmds[i];
		/*
		 * git scores a prefix of one of its common commands as a
		 * perfect match; init is the one dirc has.
		 */
		if (!strcmp(t->cmds[i].name, "init") &&
		    starts_with(t->cmds[i].name, name))
			c[nr].score = 0;
		else
			c[nr].score = levenshtein(name, t->cmds[i].name,
						  0, 2, 1, 3) + 1;
		nr++;
	}
	sort_array(c, nr, sizeof(*c), cmp_candidate);
	for (n = 0; n < nr && !c[n].score; n++)
		;	/* the prefix matches */
	if (n == nr) {
		best = SIMILARITY_FLOOR + 1;	/* all of them: too vague */
	} else {
		best = c[n++].score;
		while (n < nr && c[n].score == best)
			n++;
	}
	if (autocorrect && n == 1 && best < SIMILARITY_FLOOR) {
		const struct command *cmd = c[0].cmd;

		free(c);
		fprintf(stderr, "WARNING: You called a dirc command named "
			"'%s', which does not exist.\n", name);
		if (autocorrect == AUTOCORRECT_IMMEDIATE) {
			fprintf(stderr, "Continuing under the assumption "
				"that you meant '%s'.\n", cmd->name);
		} else if (autocorrect == AUTOCORRECT_PROMPT) {
			if (!ask(cmd->name))
				exit(1);
		} else {
			fprintf(stderr, "Continuing in %0.1f seconds, "
				"assuming that you meant '%s'.\n",
				autocorrect / 10.0, cmd->name);
			sleep_tenths(autocorrect);
		}
		return cmd;
	}
	fprintf(stderr, "dirc: '%s' is not a dirc command. See "
		"'dirc --help'.\n", name);
	if (best < SIMILARITY_FLOOR) {
		fprintf(stderr, "\nThe most similar %s\n", n == 1 ?
			"command is" : "commands are");
		for (size_t i = 0; i < n; i++)
			fprintf(stderr, "\t%s\n", c[i].cmd->name);
	}
	free(c);
	exit(1);
}

/* ---- the version ---- */

static void
print_build_options(void)
{
	const char *san = DIRC_SANITIZERS;

	printf("cpu: %s\n", DIRC_HOST_CPU);
	printf("sizeof-long: %zu\n", sizeof(long));
	printf("sizeof-size_t: %zu\n", sizeof(size_t));
	printf("shell-path: /bin/sh\n");
	printf("threads: pthreads (%d online CPUs)\n", workers_online_cpus());
	printf("hash-algorithms: sha1 sha256 (libcrypto)\n");
	printf("zlib: %s (run time %s)\n", ZLIB_VERSION, zlibVersion());
	/*
	 * compiled against only: OpenSSL_version() would link in much of
	 * libcrypto (and its static-link warnings) for one line
	 */
	printf("libcrypto: %s (compiled against)\n", OPENSSL_VERSION_TEXT);
	printf("link: dirc %s, libcrypto %s\n", DIRC_LINK, DIRC_CRYPTO_LINK);
	printf("sanitizers: %s\n", *san ? san : "none");
}

int
cmd_version(int argc, const char **argv)
{
	int build = 0;
	struct option opts[] = {
		OPT_BOOL(0, "build-options", &build, "also print build options"),
		OPT_END(),
	};

	/* as git: arguments that are not options are ignored */
	parse_options(argc, argv, opts, version_usage, 0);
	printf("dirc version %s\n", DIRC_VERSION);
	if (build)
		print_build_options();
	return 0;
}
