/*
 * ls-tree: list a tree object — its entries, or with -r everything below
 * it — limited to paths (lib/tree-walk.h has ls-tree's own literal
 * pathspec rules), named relative to the current directory unless
 * --full-name or --full-tree, in git's default, --long, --name-only,
 * --object-only or --format layouts.
 *
 * The checks come in git's order: the options (with their
 * incompatibilities), the tree-ish, the pathspecs, then what the
 * tree-ish names.  A tree that cannot be read on the way is an error
 * after what was listed before it (exit 1); a malformed one is fatal.
 *
 * Output goes through the coalescing writer (lib/bufwrite.h) on
 * standard output, one line built per entry in a reused buffer: no
 * allocation per entry.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "bufwrite.h"
#include "builtin.h"
#include "object-name.h"
#include "odb.h"
#include "parse-options.h"
#include "path.h"
#include "pathspec.h"
#include "quote.h"
#include "repo.h"
#include "strbuf.h"
#include "tree-walk.h"
#include "tree.h"

const char *const ls_tree_usage[] = {
	"dirc ls-tree [<options>] <tree-ish> [<path>...]",
	NULL,
};

enum lt_mode {
	MODE_DEFAULT,
	MODE_LONG,
	MODE_NAME_ONLY,
	MODE_NAME_STATUS,
	MODE_OBJECT_ONLY,
	MODE_FORMAT,
};

/* an option's defval: the mode, and whether it was given as "-l" */
#define MODE_SHORT 0x100

/* the formats git prints without its formatting machinery */
static const struct {
	const char *format;
	enum lt_mode mode;
} fast_formats[] = {
	{ "%(objectmode) %(objecttype) %(objectname)%x09%(path)",
	  MODE_DEFAULT },
	{ "%(objectmode) %(objecttype) %(objectname) %(objectsize:padded)"
	  "%x09%(path)", MODE_LONG },
	{ "%(path)", MODE_NAME_ONLY },
	{ "%(objectname)", MODE_OBJECT_ONLY },
};

struct lt {
	struct repo *repo;
	struct odb *odb;
	struct pathspec ps;
	struct bufwrite out;
	struct strbuf line;		/* the entry being printed */
	struct strbuf rel;		/* a climbing relative name */
	const char *prefix;		/* names are relative to it; owned by
					 * repo */
	size_t plen;			/* 0: full names */
	enum lt_mode mode;
	const struct option *mode_opt;	/* the option that set it */
	const char *format;
	int recursive, show_trees, tree_only, nul, full_name, full_tree;
	int abbrev;			/* 0: full ids; -1: git's default */
	int quote_high;			/* core.quotePath */
};

/* ---- options ---- */

/* git's cmdmode: the second of two layouts is refused, naming both. */
/* An option of opt_mode's as it was given: "-l" or "--long" */
static void
opt_as_given(const struct option *o)
{
	if (o->defval & MODE_SHORT)
		fprintf(stderr, "-%c", o->short_name);
	else
		fprintf(stderr, "--%s", o->long_name);
}

static int
opt_mode(const struct option *opt, const char *arg, int unset)
{
	struct lt *lt = opt->value;
	enum lt_mode mode = (enum lt_mode)(opt->defval & ~MODE_SHORT);

	(void)arg;
	(void)unset;
	if (lt->mode != MODE_DEFAULT && lt->mode != mode) {
		const struct option *first = lt->mode_opt;

		/* git 2.55's words, each option as it was given (2.39:
		 * "switch `l' is incompatible with --name-only") */
		fflush(stdout);
		fputs("error: options '", stderr);
		opt_as_given(opt);
		fputs("' and '", stderr);
		opt_as_given(first);
		fputs("' cannot be used together\n", stderr);
		exit(129);
	}
	lt->mode = mode;
	lt->mode_opt = opt;
	return 0;
}

/* git's usage_msg_opt(): "fatal: <msg>", a blank line, the usage; 129 */
static void NORETURN
usage_fatal(const char *msg, const struct option *opts)
{
	fflush(stdout);
	fprintf(stderr, "fatal: %s\n\n", msg);
	usage_with_options(ls_tree_usage, opts);
}

/* ---- output ---- */

static void
flush_line(struct lt *lt)
{
	bufwrite_add(&lt->out, lt->line.buf, lt->line.len);
	strbuf_reset(&lt->line);
}

/* Write what is buffered; a failed write is git's fatal error. */
static void
finish_output(struct lt *lt)
{
	if (bufwrite_flush(&lt->out) < 0) {
		if (lt->out.errnum)
			die("write failure on standard output: %s",
			    strerror(lt->out.errnum));
		die_lib(lt->out.err);
	}
}

static const char *
type_of(unsigned mode)
{
	if (S_ISDIR(mode))
		return "tree";
	if (S_ISGITLINK(mode))
		return "commit";
	return "blob";
}

static void
add_oid(struct lt *lt, const struct object_id *oid)
{
	char hex[HASH_MAX_HEXSZ + 1];

	if (!lt->abbrev) {
		oid_to_hex_r(hex, oid);
		strbuf_add(&lt->line, hex, HASH_HEXSZ);
		return;
	}
	oname_abbrev(hex, lt->repo, oid, lt->abbrev);
	strbuf_addstr(&lt->line, hex);
}

static void
add_mode(struct lt *lt, unsigned mode)
{
	char buf[12];
	int n = 6;

	/* "%06o", by hand: it runs per entry */
	while (n < 11 && mode >> (3 * n))
		n++;
	for (int i = 0; i < n; i++)
		buf[i] = '0' + ((mode >> (3 * (n - 1 - i))) & 7);
	strbuf_add(&lt->line, buf, n);
}

/*
 * The entry's name, relative to the current directory unless full
 * names are asked for; quoted when quote is set.
 */
static void
add_name(struct lt *lt, const struct tree_walk_entry *e, int quote)
{
	const char *name = e->path;
	size_t len = e->len, skip;

	if (path_relative(&lt->rel, &skip, e->path, e->len, lt->prefix,
			  lt->plen)) {
		name = lt->rel.buf;
		len = lt->rel.len;
	} else if (skip > len) {
		name = "./";
		len = 2;
	} else {
		name += skip;
		len -= skip;
	}
	if (quote)
		quote_c_style(&lt->line, name, len, lt->quote_high);
	else
		strbuf_add(&lt->line, name, len);
}

/*
 * The size of a blob; with padded, right-aligned in 7 columns.  bad:
 * what to print for a blob whose size cannot be read, or NULL to die.
 */
static void
add_size(struct lt *lt, const struct tree_walk_entry *e, int padded,
	 const char *bad)
{
	char buf[32];
	size_t size;
	enum object_type type;
	int ret;

	if (S_ISDIR(e->mode) || S_ISGITLINK(e->mode)) {
		strbuf_addstr(&lt->line, padded ? "      -" : "-");
		return;
	}
	ret = odb_read_info(&type, &size, NULL, 0, lt->odb, e->oid, 0);
	if (ret < 0) {
		error_clear();
		if (!bad) {
			finish_output(lt);
			die("could not get object info about '%s'",
			    oid_to_hex(e->oid));
		}
		if (padded)
			snprintf(buf, sizeof(buf), "%7s", bad);
		else
			snprintf(buf, sizeof(buf), "%s", bad);
	} else if (padded) {
		snprintf(buf, sizeof(buf), "%7zu", size);
	} else {
		snprintf(buf, sizeof(buf), "%zu", size);
	}
	strbuf_addstr(&lt->line, buf);
}

/* --format: %(field), %%, %n, %xNN; anything else is git's error */
static void
add_format(struct lt *lt, const struct tree_walk_entry *e)
{
	const char *p = lt->format;

	for (;;) {
		const char *pct = strchr(p, '%'), *end;
		size_t len;

		if (!pct) {
			strbuf_addstr(&lt->line, p);
			break;
		}
		strbuf_add(&lt->line, p, pct - p);
		p = pct + 1;
		if (*p == '%' || *p == 'n') {
			strbuf_addch(&lt->line, *p == 'n' ? '\n' : '%');
			p++;
			continue;
		}
		if (*p == 'x' && hexval((unsigned char)p[1]) >= 0 &&
		    hexval((unsigned char)p[2]) >= 0) {
			strbuf_addch(&lt->line,
				     hexval((unsigned char)p[1]) << 4 |
				     hexval((unsigned char)p[2]));
			p += 3;
			continue;
		}
		if (*p != '(') {
			finish_output(lt);
			die("bad ls-tree format: element '%s' does not start "
			    "with '('", p);
		}
		end = strchr(p + 1, ')');
		if (!end) {
			finish_output(lt);
			die("bad ls-tree format: element '%s' does not end in "
			    "')'", p);
		}
		len = end - p + 1;
		if (len == 12 && !memcmp(p, "(objectmode)", len)) {
			add_mode(lt, e->mode);
		} else if (len == 12 && !memcmp(p, "(objecttype)", len)) {
			strbuf_addstr(&lt->line, type_of(e->mode));
		} else if (len == 19 && !memcmp(p, "(objectsize:padded)",
						  len)) {
			add_size(lt, e, 1, NULL);
		} else if (len == 12 && !memcmp(p, "(objectsize)", len)) {
			add_size(lt, e, 0, NULL);
		} else if (len == 12 && !memcmp(p, "(objectname)", len)) {
			add_oid(lt, e->oid);
		} else if (len == 6 && !memcmp(p, "(path)", len)) {
			add_name(lt, e, 1);	/* quoted even with -z */
		} else {
			finish_output(lt);
			die("bad ls-tree format: %%%.*s", (int)len, p);
		}
		p = end + 1;
	}
}

static int
show_entry(const struct tree_walk_entry *e, void *ctx)
{
	struct lt *lt = ctx;
	int recurse = 0;

	if (!S_ISDIR(e->mode) && !S_ISGITLINK(e->mode)) {
		if (lt->tree_only)
			return 0;
	} else if (S_ISDIR(e->mode) &&
		   (lt->recursive ||
		    tree_walk_item_below(&lt->ps, e->path, e->len))) {
		recurse = TREE_WALK_RECURSE;
		if (!lt->show_trees)
			return recurse;
	}
	switch (lt->mode) {
	case MODE_DEFAULT:
	case MODE_LONG:
		add_mode(lt, e->mode);
		strbuf_addch(&lt->line, ' ');
		strbuf_addstr(&lt->line, type_of(e->mode));
		strbuf_addch(&lt->line, ' ');
		add_oid(lt, e->oid);
		if (lt->mode == MODE_LONG) {
			strbuf_addch(&lt->line, ' ');
			add_size(lt, e, 1, "BAD");
		}
		strbuf_addch(&lt->line, '\t');
		add_name(lt, e, !lt->nul);
		break;
	case MODE_NAME_ONLY:
	case MODE_NAME_STATUS:
		add_name(lt, e, !lt->nul);
		break;
	case MODE_OBJECT_ONLY:
		add_oid(lt, e->oid);
		break;
	case MODE_FORMAT:
		add_format(lt, e);
		break;
	}
	strbuf_addch(&lt->line, lt->nul ? '\0' : '\n');
	flush_line(lt);
	return recurse;
}

int
cmd_ls_tree(int argc, const char **argv)
{
	struct repo repo;
	struct lt lt;
	struct object_id oid, tree;
	struct oname_ctx octx = ONAME_CTX_INIT;
	int ret;
	struct option opts[] = {
		OPT_BOOL('d', NULL, &lt.tree_only, "only show trees"),
		OPT_BOOL('r', NULL, &lt.recursive, "recurse into subtrees"),
		OPT_BOOL('t', NULL, &lt.show_trees, "show trees when "
			 "recursing"),
		OPT_BOOL('z', NULL, &lt.nul, "terminate entries with NUL "
			 "byte"),
		{ OPT_CALLBACK_, 'l', "long", &lt, NULL, "include object size",
		  OPT_NOARG | OPT_NONEG, MODE_LONG, opt_mode },
		{ OPT_CALLBACK_, 0, "name-only", &lt, NULL, "list only "
		  "filenames", OPT_NOARG | OPT_NONEG, MODE_NAME_ONLY,
		  opt_mode },
		{ OPT_CALLBACK_, 0, "name-status", &lt, NULL, "list only "
		  "filenames", OPT_NOARG | OPT_NONEG, MODE_NAME_STATUS,
		  opt_mode },
		{ OPT_CALLBACK_, 0, "object-only", &lt, NULL, "list only "
		  "objects", OPT_NOARG | OPT_NONEG, MODE_OBJECT_ONLY,
		  opt_mode },
		/* --no-full-name: names relative again (git 2.55) */
		OPT_BOOL(0, "full-name", &lt.full_name, "use full path names"),
		OPT_BOOL(0, "full-tree", &lt.full_tree, "list entire tree; not "
			 "just current directory (implies --full-name)"),
		{ OPT_STRING_, 0, "format", &lt.format, "format", "format to "
		  "use for the output", OPT_NONEG, 0, NULL },
		OPT_CALLBACK_F(0, "abbrev", &lt.abbrev, "n", "use <n> digits to "
			       "display object names", OPT_OPTARG,
			       parse_opt_abbrev),
		/*
		 * "-l" again, hidden: a bundle of short options takes the
		 * last entry of a letter, so that a conflict names it
		 * "switch `l'" as git does, and "--long" "option `long'".
		 */
		{ OPT_CALLBACK_, 'l', NULL, &lt, NULL, NULL,
		  OPT_NOARG | OPT_NONEG | OPT_HIDDEN, MODE_LONG | MODE_SHORT,
		  opt_mode },
		OPT_END(),
	};

	memset(&lt, 0, sizeof(lt));
	if (argc == 2 && !strcmp(argv[1], "-h"))
		usage_with_options_to(ls_tree_usage, opts, 0, 129);
	ret = repo_open(&repo, 0);
	if (ret < 0)
		die_lib(ret);
	/* git reads its core settings first (core.abbrev may be bad) */
	ret = oname_check_config(&repo);
	if (ret < 0)
		die_lib(ret);
	lt.repo = &repo;
	lt.quote_high = repo.settings.quotepath;
	argc = parse_options(argc, argv, opts, ls_tree_usage, 0);

	/* -d -r implies -t; -d alone does not */
	if (lt.tree_only && lt.recursive)
		lt.show_trees = 1;
	lt.prefix = lt.full_tree ? "" : repo.prefix;
	lt.plen = lt.full_name || lt.full_tree ? 0 : strlen(repo.prefix);
	if (lt.format && lt.mode != MODE_DEFAULT)
		usage_fatal("--format can't be combined with other "
			    "format-altering options", opts);
	if (lt.format) {
		lt.mode = MODE_FORMAT;
		for (size_t i = 0; i < ARRAY_SIZE(fast_formats); i++)
			if (!strcmp(lt.format, fast_formats[i].format))
				lt.mode = fast_formats[i].mode;
	}
	if (argc < 1)
		usage_with_options(ls_tree_usage, opts);
	if (lt.abbrev < 0) {
		ret = oname_default_abbrev(&repo, &lt.abbrev);
		if (ret < 0)
			die_lib(ret);
	}

	ret = oname_get(&oid, &repo, argv[0], &octx);
	if (ret < 0 && ret != -E_NOTFOUND && ret != -E_AMBIGUOUS)
		die_lib(ret);	/* where git stops ("outside repository") */
	if (ret < 0) {
		if (error_pre())
			fprintf(stderr, "error: %s\n", error_pre());
		die("Not a valid object name %s", argv[0]);
	}
	repo_paths_top(&lt.rel, &repo);
	ret = pathspec_parse(&lt.ps, argv + 1, argc - 1, lt.prefix, lt.rel.buf,
			     PATHSPEC_PREFER_CWD | PATHSPEC_ONLY_TOP_LITERAL);
	if (ret < 0)
		die_lib(ret);
	ret = peel_to_type(&tree, &repo, &oid, OBJ_TREE);
	if (ret < 0) {
		if (ret == -E_CORRUPT)
			die_lib(ret);
		error_clear();
		die("not a tree object");
	}
	ret = repo_odb(&lt.odb, &repo);
	if (ret < 0)
		die_lib(ret);

	bufwrite_init(&lt.out, STDOUT_FILENO, "stdout",
		      BUFWRITE_NO_TRAILER);
	ret = tree_walk(lt.odb, &tree, &lt.ps, show_entry, &lt);
	finish_output(&lt);
	if (ret == -E_CORRUPT)
		die_lib(ret);
	if (ret < 0)
		error_lib(ret);
	bufwrite_release(&lt.out);
	strbuf_release(&lt.line);
	strbuf_release(&lt.rel);
	pathspec_release(&lt.ps);
	repo_release(&repo);
	return ret < 0 ? 1 : 0;
}
