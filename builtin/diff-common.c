/*
 * diff-common: the shared command line of diff-files, diff-index and
 * diff-tree (see diff-common.h).  Options are matched here by name, in
 * git's spelling; what dirc lacks is refused by kind, before any work.
 */
#include "diff-common.h"

#include <ctype.h>

#include "builtin.h"
#include "path.h"
#include "object-name.h"
#include "odb.h"
#include "parse-options.h"
#include "strbuf.h"

enum fmt_bits {
	FMT_RAW = 1 << 0,
	FMT_NAME = 1 << 1,
	FMT_STATUS = 1 << 2,
	FMT_NONE = 1 << 3,
};

/* Options that need a text diff: refused as patch output. */
static const char *const patch_opts[] = {
	"-p", "-u", "--patch", "--patch-with-raw", "--patch-with-stat",
	"--stat", "--numstat", "--shortstat", "--summary", "--check",
	"--compact-summary", "--binary", "-W", "--function-context",
	"--cc", "--color", "--word-diff", "--minimal", "--histogram",
	"--patience", "-a", "--text", "--ext-diff", "--textconv",
	"--no-prefix", "--default-prefix", "--color-words", "--color-moved",
	"--anchored", NULL,
};

/* Prefixes of those that take a value. */
static const char *const patch_prefixes[] = {
	"--stat=", "--stat-width=", "--stat-name-width=",
	"--stat-graph-width=", "--stat-count=", "--dirstat", "-X",
	"--unified=", "-U", "--color=", "--word-diff=", "--word-diff-regex=",
	"--color-words=", "--diff-algorithm=", "--src-prefix=",
	"--dst-prefix=", "--output=", "--inter-hunk-context=",
	"--color-moved=", "--color-moved-ws=", "--anchored=", "--ws-error-highlight=",
	NULL,
};

static const char *const rename_prefixes[] = {
	"-M", "-C", "-B", "--find-renames", "--find-copies",
	"--find-copies-harder", "--break-rewrites", "-l", "--rename-empty",
	"--no-rename-empty", "--follow", NULL,
};

/* git's options dirc does not have (beyond patch output and renames). */
static const char *const unsupported_prefixes[] = {
	"--pickaxe-all", "--pickaxe-regex", "-G", "--find-object=", "-O",
	"--relative", "--no-relative", "-v", "--pretty",
	"--format=", "--abbrev-commit", "--no-abbrev-commit", "--ita-",
	"--skip-to=", "--rotate-to=", "--line-prefix=", "-I",
	"--ignore-", "-w", "-b", "--combined-all-paths", "--merge-base",
	"--submodule", "--output-indicator-", "--irreversible-delete", "-D",
	"--encoding=", "--notes", "--show-", "--parents", "--children",
	"--graph", "--decorate", "--oneline", "--first-parent",
	"--diff-merges", "--remerge-diff", "--dd", "--max-count",
	"--no-renames", "--textconv", "--no-textconv", "--no-ext-diff",
	"--dirstat-by-file", "--cumulative", "--name-hash", NULL,
};

static int
in_list(const char *arg, const char *const *list, int prefix)
{
	for (size_t i = 0; list[i]; i++)
		if (prefix ? starts_with(arg, list[i]) : !strcmp(arg, list[i]))
			return 1;
	return 0;
}

void
diff_usage(const char *const *usage)
{
	fflush(stdout);
	fprintf(stderr, "usage: %s\n", usage[0]);
	for (size_t i = 1; usage[i]; i++)
		fprintf(stderr, "   or: %s\n", usage[i]);
	fputs("\ncommon diff options: -z, --name-only, --name-status, --raw, "
	      "-s, --abbrev[=<n>],\n  --full-index, --exit-code, --quiet, -R, "
	      "-S<string>, --diff-filter=<letters>,\n  -r, -t (see the man "
	      "page)\n", stderr);
	exit(129);
}

/* "--abbrev=<n>" as git's diff options read it. */
static int
parse_abbrev(const char *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (end == v || *end || errno)
		die("--abbrev expects a numerical value");
	if (n <= 0)
		return DIFF_ABBREV_FULL;
	if (n < 4)
		return 4;
	if (n >= HASH_HEXSZ)
		return DIFF_ABBREV_FULL;
	return (int)n;
}

/*
 * One option; 1 if taken (*used more arguments consumed), 0 if it is
 * not an option of this command.
 */
static int
take_option(struct diff_cmd *c, unsigned *fmt, const char *arg,
	    const char *next, int *used)
{
	struct diff_opts *d = &c->d;
	enum diff_cmd_kind k = c->kind;
	const char *v;

	*used = 0;
	if (!strcmp(arg, "-z"))
		d->nul = 1;
	else if (!strcmp(arg, "--name-only"))
		*fmt |= FMT_NAME;
	else if (!strcmp(arg, "--name-status"))
		*fmt |= FMT_STATUS;
	else if (!strcmp(arg, "--raw"))
		*fmt |= FMT_RAW;
	else if (!strcmp(arg, "-s") || !strcmp(arg, "--no-patch"))
		*fmt = FMT_NONE;
	else if (!strcmp(arg, "--abbrev"))
		d->abbrev = DIFF_ABBREV_AUTO;
	else if (skip_prefix(arg, "--abbrev=", &v))
		d->abbrev = parse_abbrev(v);
	else if (!strcmp(arg, "--no-abbrev") || !strcmp(arg, "--full-index"))
		;	/* full ids are the default; --full-index: patch only */
	else if (!strcmp(arg, "--exit-code"))
		c->exit_code = 1;
	else if (!strcmp(arg, "--diff-filter") ||
		 skip_prefix(arg, "--diff-filter=", &v)) {
		int bad;

		if (!strcmp(arg, "--diff-filter")) {
			if (!next) {
				error("option `diff-filter' requires a value");
				exit(129);
			}
			v = next;
			*used = 1;
		}
		bad = diff_parse_filter(d, v);
		if (bad == '*')
			die("--diff-filter=%s: the all-or-none '*' is not "
			    "supported by dirc", v);
		if (bad) {
			error("unknown change class '%c' in --diff-filter=%s",
			      bad, v);
			exit(129);
		}
	} else if (!strcmp(arg, "--no-exit-code"))
		c->exit_code = 0;
	else if (!strcmp(arg, "--quiet")) {
		c->exit_code = 1;
		d->quick = 1;
	} else if (!strcmp(arg, "-R"))
		d->reverse = 1;
	else if (!strcmp(arg, "-r"))
		d->recursive = 1;
	else if (!strcmp(arg, "-t"))
		d->show_trees = d->recursive = 1;
	else if (skip_prefix(arg, "-S", &v)) {
		if (!*v) {
			if (!next)
				die("option 'S' requires a value");
			v = next;
			*used = 1;
		}
		/* git aborts on an empty one (a BUG in its pickaxe) */
		if (!*v)
			die("-S needs a non-empty string");
		d->pickaxe = v;
		d->pickaxe_len = strlen(v);
	} else if (!strcmp(arg, "--root") && k == DIFF_CMD_TREE)
		c->root = 1;
	else if (!strcmp(arg, "--stdin") && k == DIFF_CMD_TREE)
		c->read_stdin = 1;
	else if (!strcmp(arg, "--no-commit-id") && k == DIFF_CMD_TREE)
		c->no_commit_id = 1;
	else if (!strcmp(arg, "--always") && k == DIFF_CMD_TREE)
		c->always = 1;
	else if (!strcmp(arg, "-m") && k == DIFF_CMD_TREE)
		c->merges = 1, c->combined = 0;	/* the last one wins */
	else if (!strcmp(arg, "-m") && k == DIFF_CMD_INDEX)
		d->match_missing = 1;
	else if (!strcmp(arg, "-c") && k != DIFF_CMD_INDEX)
		c->combined = d->combined = 1, c->merges = 0;
	else if (!strcmp(arg, "--cached") && k == DIFF_CMD_INDEX)
		d->cached = 1;
	else if (k == DIFF_CMD_FILES && arg[0] == '-' && arg[1] >= '0' &&
		 arg[1] <= '3' && !arg[2])
		d->stage = arg[1] - '0';
	else if (k == DIFF_CMD_TREE && arg[0] == '-' &&
		 strspn(arg + 1, "0123456789") == strlen(arg + 1))
		;	/* git's -<n> (a count of commits), which diff-tree
			 * has no use for either */
	else if (k == DIFF_CMD_FILES && !strcmp(arg, "--base"))
		d->stage = 1;
	else if (k == DIFF_CMD_FILES && !strcmp(arg, "--ours"))
		d->stage = 2;
	else if (k == DIFF_CMD_FILES && !strcmp(arg, "--theirs"))
		d->stage = 3;
	else if (k == DIFF_CMD_FILES && !strcmp(arg, "-q"))
		;	/* git 2.39 takes it and still shows missing files */
	else
		return 0;
	return 1;
}

/*
 * --git-completion-helper: the long options take_option() accepts for
 * this kind, in git's format (--abbrev's value is optional: no "=").
 */
NORETURN static void
print_completion(enum diff_cmd_kind k)
{
	printf(" --name-only --name-status --raw --no-patch --abbrev "
	       "--full-index --exit-code --quiet --diff-filter=");
	if (k == DIFF_CMD_TREE)
		printf(" --root --stdin --no-commit-id --always");
	if (k == DIFF_CMD_INDEX)
		printf(" --cached");
	if (k == DIFF_CMD_FILES)
		printf(" --base --ours --theirs");
	printf(" -- --no-abbrev --no-exit-code\n");
	fflush(stdout);
	exit(ferror(stdout) ? 128 : 0);
}

static void
refuse(const char *arg)
{
	if (in_list(arg, patch_opts, 0) || in_list(arg, patch_prefixes, 1))
		die("%s: patch and stat output are not supported by dirc "
		    "(raw output only)", arg);
	if (in_list(arg, rename_prefixes, 1))
		die("%s: rename and copy detection are not supported by dirc",
		    arg);
	if (in_list(arg, unsupported_prefixes, 1))
		die("%s: not supported by dirc", arg);
}

/* Resolve one object name; 0, or -1 if it names nothing. */
static int
resolve(struct diff_cmd *c, struct object_id *oid, const char *name)
{
	struct oname_ctx ctx = ONAME_CTX_INIT;

	ctx.flags = ONAME_QUIET | (c->kind == DIFF_CMD_TREE ?
				   ONAME_TREEISH : ONAME_TREEISH);
	if (!*name || oname_get(oid, &c->repo, name, &ctx) < 0) {
		error_clear();
		return -1;
	}
	return 0;
}

static void
add_rev(struct diff_cmd *c, const struct object_id *oid, const char *name,
	int neg)
{
	/* git's setup_revisions() parses every object it is given */
	if (!odb_has(c->odb, oid))
		die("bad object %s", name);
	if (c->nr_revs >= DIFF_CMD_MAX_REVS) {
		c->nr_revs++;	/* counted: no command uses so many */
		return;
	}
	oidcpy(&c->revs[c->nr_revs], oid);
	c->rev_names[c->nr_revs] = name;
	c->rev_neg[c->nr_revs] = neg;
	c->nr_revs++;
}

/* An object name, "^<name>" or "<a>..<b>": 0 if taken, -1 if not one. */
static int
take_rev(struct diff_cmd *c, const char *arg)
{
	struct object_id a, b;
	const char *dots = strstr(arg, "..");

	if (dots && dots[2] != '.') {
		char *left = xstrndup(arg, (size_t)(dots - arg));
		const char *right = dots + 2;
		int ok = !resolve(c, &a, *left ? left : "HEAD") &&
			 !resolve(c, &b, *right ? right : "HEAD");

		free(left);
		if (ok) {
			add_rev(c, &a, arg, 1);
			add_rev(c, &b, arg, 0);
			return 0;
		}
	}
	if (arg[0] == '^' && arg[1]) {
		if (resolve(c, &a, arg + 1) < 0)
			return -1;
		add_rev(c, &a, arg, 1);
		return 0;
	}
	if (resolve(c, &a, arg) < 0)
		return -1;
	add_rev(c, &a, arg, 0);
	return 0;
}

static int
write_stdout(void *ctx, struct strbuf *out)
{
	(void)ctx;
	if (fwrite(out->buf, 1, out->len, stdout) != out->len)
		return error_errno(errno, "write failure on standard output");
	strbuf_reset(out);
	return 0;
}

void
diff_cmd_flush(struct diff_cmd *c)
{
	int ret = diff_flush(&c->d);

	if (ret < 0)
		die_lib(ret);
}

/* Does arg name a path of the work tree (none in a bare repository)? */
static int
diff_path_exists(struct diff_cmd *c, const char *arg)
{
	return c->repo.worktree &&
	       arg_is_existing_path(c->repo.worktree, c->repo.prefix, arg);
}

void
diff_cmd_setup(struct diff_cmd *c, enum diff_cmd_kind kind, int argc,
	       const char **argv, const char *const *usage)
{
	const char **paths = xcalloc((size_t)argc + 1, sizeof(*paths));
	size_t nr_paths = 0;
	unsigned fmt = 0;
	int dashdash = argc, i, ret;

	memset(c, 0, sizeof(*c));
	c->kind = kind;
	/* git prints these usages on standard error, even for -h */
	if (argc == 2 && !strcmp(argv[1], "-h"))
		diff_usage(usage);
	if (argc == 2 && !strcmp(argv[1], "--git-completion-helper"))
		print_completion(kind);
	ret = repo_open(&c->repo, 0);
	if (ret < 0)
		die_lib(ret);
	ret = repo_odb(&c->odb, &c->repo);
	if (ret < 0)
		die_lib(ret);
	diff_opts_init(&c->d, &c->repo, c->odb);
	c->d.write_out = write_stdout;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			dashdash = i;
			break;
		}
	for (i = 1; i < dashdash; i++) {
		const char *arg = argv[i];
		int used;

		if (arg[0] == '-' && arg[1]) {
			if (take_option(c, &fmt, arg, i + 1 < dashdash ?
					argv[i + 1] : NULL, &used)) {
				i += used;
				continue;
			}
			refuse(arg);
			diff_usage(usage);
		}
		if (!take_rev(c, arg)) {
			if (dashdash == argc && diff_path_exists(c, arg))
				die("ambiguous argument '%s': both revision "
				    "and filename\nUse '--' to separate paths "
				    "from revisions, like this:\n'git <command> "
				    "[<revision>...] -- [<file>...]'", arg);
			continue;
		}
		if (dashdash < argc || arg[0] == '^')
			die("bad revision '%s'", arg);
		/* the paths start here; each must exist */
		for (int j = i; j < argc; j++) {
			if (argv[j][0] == '-')
				die("option '%s' must come before non-option "
				    "arguments", argv[j]);
			if (!path_arg_is_pattern(argv[j]) &&
			    !diff_path_exists(c, argv[j])) {
				if (j == i)
					die_ambiguous_arg(argv[j]);
				die("%s: no such path in the working tree.\n"
				    "Use 'git <command> -- <path>...' to "
				    "specify paths that do not exist locally.",
				    argv[j]);
			}
			paths[nr_paths++] = argv[j];
		}
		break;
	}
	for (i = dashdash + 1; i < argc; i++)
		paths[nr_paths++] = argv[i];

	if ((!!(fmt & FMT_NAME) + !!(fmt & FMT_STATUS) + !!(fmt & FMT_NONE)) > 1)
		die("options '--name-only', '--name-status', '--check', and "
		    "'-s' cannot be used together");
	if (fmt & FMT_NONE)
		c->d.output = DIFF_OUT_NONE;
	else if (fmt & FMT_STATUS)
		c->d.output = DIFF_OUT_NAME_STATUS;
	else if (fmt & FMT_NAME)
		c->d.output = DIFF_OUT_NAME_ONLY;	/* wins over --raw */
	else if (!fmt && c->combined && kind == DIFF_CMD_FILES)
		die("-c: patch and stat output are not supported by dirc "
		    "(raw output only); add --raw");
	if (c->d.quick)
		c->d.output = DIFF_OUT_NONE;
	/* a combined record is made of the records the filter would see */
	if (c->combined && c->d.filter)
		die("--diff-filter with -c: not supported by dirc");

	ret = pathspec_parse(&c->ps, paths, nr_paths, c->repo.prefix,
			     c->repo.worktree ? c->repo.worktree : "", 0);
	if (ret < 0)
		die_lib(ret);
	c->d.ps = &c->ps;
	free(paths);
}

int
diff_cmd_finish(struct diff_cmd *c)
{
	int code = c->exit_code && c->d.has_changes ? 1 : 0;

	diff_cmd_flush(c);
	diff_opts_release(&c->d);
	pathspec_release(&c->ps);
	repo_release(&c->repo);
	return code;
}
