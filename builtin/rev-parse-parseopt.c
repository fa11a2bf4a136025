/*
 * rev-parse --parseopt: the option parser git gives shell scripts.
 *
 * The spec on stdin: usage lines, a line "--", then one line per
 * option, "<names><flags><arg hint> <help>":
 *   names      "s" (a switch), "long" (an option), or "s,long";
 *   flags      any of '=' (takes a value), '?' (an optional value),
 *              '!' (no --no- form), '*' (hidden from -h);
 *   arg hint   the rest of the word, shown in the help (<hint>);
 * a line that starts with a space or has none is a group heading.
 *
 * The arguments are parsed as git's own commands parse theirs (short
 * switches bundled, long options abbreviated when unambiguous, --no-
 * forms, "--" and --end-of-options, -h, --help, --help-all), and every
 * option is printed back in a canonical form: "set -- <options> --
 * <arguments>", each value and argument single-quoted for eval.  Help
 * goes to stdout wrapped in "cat <<\EOF" ... "EOF" so that the script's
 * eval prints it; errors go to stderr with the usage, exit 129.
 */
#include "rev-parse-parseopt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "strbuf.h"
#include "quote.h"
#include "util.h"

/* Column of the help text in -h, and the gap before it. */
#define USAGE_OPTS_WIDTH 24
#define USAGE_GAP 2

enum po_opt_flags {
	PO_NOARG = 1 << 0,	/* no value (no '=' or '?') */
	PO_OPTARG = 1 << 1,	/* '?': a value only when stuck to it */
	PO_NONEG = 1 << 2,	/* '!': no --no-<name> */
	PO_HIDDEN = 1 << 3,	/* '*': not in -h (in --help-all) */
};

struct po_option {
	int is_group;		/* a heading: only help is set */
	unsigned char short_name;	/* 0: none */
	const char *long_name;	/* NULL: none; may be "" (spec "x,") */
	const char *argh;	/* the arg hint; NULL: none */
	const char *help;	/* owned, with the names, for the spec's */
	unsigned flags;		/* enum po_opt_flags */
	int *value;		/* a boolean of --parseopt itself; NULL for
				 * the spec's options, which are printed */
};

struct po_list {
	struct po_option *v;
	size_t nr, alloc;
};

enum po_ctx_flags {
	PO_KEEP_DASHDASH = 1 << 0,
	PO_STOP_AT_NON_OPTION = 1 << 1,
	PO_SHELL_EVAL = 1 << 2,	/* help wrapped in cat <<\EOF for eval */
};

enum po_result {
	PO_DONE,
	PO_NON_OPTION,
	PO_ERROR,
	PO_HELP,
	PO_UNKNOWN,
	PO_COMPLETE,
};

/* How an option was named on the command line. */
enum {
	PO_LONG = 0,
	PO_SHORT = 1 << 0,
	PO_UNSET = 1 << 1,
};

struct po_ctx {
	const char **argv;	/* the arguments not yet looked at */
	int argc;
	int total;		/* how many arguments there were */
	const char **out;	/* the non-options kept, in order */
	int nr_out;
	const char *opt;	/* the rest of "-abc", or the value of
				 * "--name=value"; NULL: none */
	const char *unknown;	/* the argument an unknown option is in */
	struct strbuf rest;	/* "-<rest of a bundle>" from the unknown
				 * switch on, as git names it */
	unsigned flags;		/* enum po_ctx_flags */
	const struct po_option *opts;
	size_t nr_opts;
	const char *const *usage;
	struct strbuf *parsed;	/* "set -- ..." so far */
	int stuck_long;
};

static void
po_ctx_init(struct po_ctx *c)
{
	static const struct strbuf empty = STRBUF_INIT;

	memset(c, 0, sizeof(*c));
	c->rest = empty;
}

static int
is_git_space(int c)
{
	/* git's isspace(): not \v or \f */
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static const char *
optname(const struct po_option *o, unsigned how)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_reset(&sb);
	if (how & PO_SHORT)
		strbuf_addf(&sb, "switch `%c'", o->short_name);
	else if (how & PO_UNSET)
		strbuf_addf(&sb, "option `no-%s'", o->long_name);
	else
		strbuf_addf(&sb, "option `%s'", o->long_name);
	return sb.buf;
}

/* An option of the spec, seen: its canonical form onto "set --". */
static void
dump_option(struct po_ctx *c, const struct po_option *o, const char *arg,
	    int unset)
{
	struct strbuf *out = c->parsed;

	if (unset)
		strbuf_addf(out, " --no-%s", o->long_name);
	else if (o->short_name && (!o->long_name || !c->stuck_long))
		strbuf_addf(out, " -%c", o->short_name);
	else
		strbuf_addf(out, " --%s", o->long_name);
	if (!arg)
		return;
	if (!c->stuck_long)
		strbuf_addch(out, ' ');
	else if (o->long_name)
		strbuf_addch(out, '=');
	quote_sq(out, arg);
}

static enum po_result
get_value(struct po_ctx *c, const struct po_option *o, unsigned how)
{
	int unset = how & PO_UNSET;
	const char *arg = NULL;

	if (unset && c->opt) {
		error("%s takes no value", optname(o, how));
		return PO_ERROR;
	}
	if (unset && (o->flags & PO_NONEG)) {
		error("%s isn't available", optname(o, how));
		return PO_ERROR;
	}
	if (!(how & PO_SHORT) && c->opt && (o->flags & PO_NOARG)) {
		error("%s takes no value", optname(o, how));
		return PO_ERROR;
	}
	if (o->value) {
		*o->value = !unset;
		return PO_DONE;
	}
	if (unset || (o->flags & PO_NOARG) ||
	    ((o->flags & PO_OPTARG) && !c->opt)) {
		/* no value */
	} else if (c->opt) {
		arg = c->opt;
		c->opt = NULL;
	} else if (c->argc > 1) {
		c->argc--;
		arg = *++c->argv;
	} else {
		error("%s requires a value", optname(o, how));
		return PO_ERROR;
	}
	dump_option(c, o, arg, unset);
	return PO_DONE;
}

static enum po_result
parse_short(struct po_ctx *c)
{
	for (size_t i = 0; i < c->nr_opts; i++) {
		const struct po_option *o = &c->opts[i];

		if (o->is_group || !o->short_name ||
		    o->short_name != (unsigned char)*c->opt)
			continue;
		c->opt = c->opt[1] ? c->opt + 1 : NULL;
		return get_value(c, o, PO_SHORT);
	}
	return PO_UNKNOWN;
}

/*
 * The long option "arg" (after "--", with any "=value"): an exact name
 * wins; otherwise a unique abbreviation, of the name or of its --no-
 * form.  A name that itself starts with "no-" is also matched without
 * it, as the negation of the option.
 */
static enum po_result
parse_long(struct po_ctx *c, const char *arg)
{
	const char *arg_end = strchr(arg, '=');
	const struct po_option *abbrev = NULL, *ambiguous = NULL;
	unsigned abbrev_how = 0, ambiguous_how = 0;

	if (!arg_end)
		arg_end = arg + strlen(arg);
	for (size_t i = 0; i < c->nr_opts; i++) {
		const struct po_option *o = &c->opts[i];
		const char *name = o->long_name, *rest = NULL;
		unsigned how = PO_LONG, base = PO_LONG;
		int is_abbrev = 0;

		if (o->is_group || !name)
			continue;
		for (;;) {
			if (skip_prefix(arg, name, &rest))
				break;
			rest = NULL;
			if (!strncmp(name, arg, arg_end - arg)) {
				is_abbrev = 1;
				break;
			}
			if (o->flags & PO_NONEG)
				break;
			if (starts_with("no-", arg)) {
				how |= PO_UNSET;
				is_abbrev = 1;
				break;
			}
			if (!starts_with(arg, "no-")) {
				if (skip_prefix(name, "no-", &name)) {
					base = PO_UNSET;
					continue;
				}
				break;
			}
			how |= PO_UNSET;
			if (!skip_prefix(arg + 3, name, &rest)) {
				rest = NULL;
				if (starts_with(name, arg + 3))
					is_abbrev = 1;
			}
			break;
		}
		if (is_abbrev) {
			if (abbrev) {
				ambiguous = abbrev;
				ambiguous_how = abbrev_how;
			}
			if (!(how & PO_UNSET) && *arg_end)
				c->opt = arg_end + 1;
			abbrev = o;
			abbrev_how = how ^ base;
			continue;
		}
		if (!rest)
			continue;
		if (*rest) {
			if (*rest != '=')
				continue;
			c->opt = rest + 1;
		}
		return get_value(c, o, how ^ base);
	}
	if (ambiguous) {
		error("ambiguous option: %s (could be --%s%s or --%s%s)", arg,
		      (ambiguous_how & PO_UNSET) ? "no-" : "",
		      ambiguous->long_name,
		      (abbrev_how & PO_UNSET) ? "no-" : "",
		      abbrev->long_name);
		return PO_HELP;
	}
	if (abbrev)
		return get_value(c, abbrev, abbrev_how);
	return PO_UNKNOWN;
}

/* "-foo" where "--foo" was meant: git's hint, and exit 129. */
static void
check_typos(const struct po_ctx *c, const char *arg)
{
	if (strlen(arg) < 3)
		return;
	if (starts_with(arg, "no-")) {
		error("did you mean `--%s` (with two dashes)?", arg);
		exit(129);
	}
	for (size_t i = 0; i < c->nr_opts; i++) {
		const char *name = c->opts[i].long_name;

		if (!c->opts[i].is_group && name && starts_with(name, arg)) {
			error("did you mean `--%s` (with two dashes)?", arg);
			exit(129);
		}
	}
}

/* Display width of s: its UTF-8 characters (no wide ones counted twice). */
static size_t
text_width(const char *s)
{
	size_t n = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if ((*p & 0xc0) != 0x80)
			n++;
	return n;
}

static size_t
print_argh(const struct po_option *o, FILE *f)
{
	const char *h = o->argh ? o->argh : "...";
	int literal = !o->argh || strpbrk(o->argh, "()<>[]|");
	const char *open, *close;

	if (o->flags & PO_OPTARG) {
		if (o->long_name) {
			open = literal ? "[=" : "[=<";
			close = literal ? "]" : ">]";
		} else {
			open = literal ? "[" : "[<";
			close = literal ? "]" : ">]";
		}
	} else {
		open = literal ? " " : " <";
		close = literal ? "" : ">";
	}
	fprintf(f, "%s%s%s", open, h, close);
	return strlen(open) + text_width(h) + strlen(close);
}

/*
 * The usage lines and the option list, on stdout (a request: wrapped
 * for eval when c says so) or on stderr (an error).  full: the hidden
 * options too.
 */
static void
print_usage(const struct po_ctx *c, int full, int err)
{
	FILE *f = err ? stderr : stdout;
	int eval = !err && (c->flags & PO_SHELL_EVAL);
	const char *prefix = "usage: ";
	int saw_empty = 0, need_newline = 1;

	fflush(stdout);
	if (eval)
		fputs("cat <<\\EOF\n", f);
	for (const char *const *u = c->usage; *u; u++) {
		const char *line = *u;

		if (!*line)
			saw_empty = 1;
		if (saw_empty && *line)
			fprintf(f, "    %s\n", line);
		else if (saw_empty)
			fputc('\n', f);
		else
			fprintf(f, "%s%s\n", prefix, line);
		prefix = "   or: ";
	}
	for (size_t i = 0; i < c->nr_opts; i++) {
		const struct po_option *o = &c->opts[i];
		size_t pos;
		int pad;

		if (o->is_group) {
			fputc('\n', f);
			need_newline = 0;
			if (*o->help)
				fprintf(f, "%s\n", o->help);
			continue;
		}
		if (!full && (o->flags & PO_HIDDEN))
			continue;
		if (need_newline) {
			fputc('\n', f);
			need_newline = 0;
		}
		fputs("    ", f);
		pos = 4;
		if (o->short_name) {
			fprintf(f, "-%c", o->short_name);
			pos += 2;
		}
		if (o->short_name && o->long_name) {
			fputs(", ", f);
			pos += 2;
		}
		if (o->long_name) {
			fprintf(f, "--%s", o->long_name);
			pos += 2 + strlen(o->long_name);
		}
		if (!(o->flags & PO_NOARG))
			pos += print_argh(o, f);
		if (pos <= USAGE_OPTS_WIDTH) {
			pad = USAGE_OPTS_WIDTH - (int)pos;
		} else {
			fputc('\n', f);
			pad = USAGE_OPTS_WIDTH;
		}
		fprintf(f, "%*s%s\n", pad + USAGE_GAP, "", o->help);
	}
	fputc('\n', f);
	if (eval)
		fputs("EOF\n", f);
}

/* The --no- forms for completion (git's order and its "--" marker). */
static void
print_negated(const struct po_ctx *c, int all, int nr_noopts)
{
	int printed_dashdash = 0;

	for (size_t i = 0; i < c->nr_opts; i++) {
		const struct po_option *o = &c->opts[i];
		const char *name;

		if (o->is_group || !o->long_name || (o->flags & PO_NONEG) ||
		    (!all && (o->flags & PO_HIDDEN)))
			continue;
		if (skip_prefix(o->long_name, "no-", &name)) {
			if (nr_noopts < 0)
				printf(" --%s", name);
		} else if (nr_noopts >= 0) {
			if (nr_noopts && !printed_dashdash) {
				fputs(" --", stdout);
				printed_dashdash = 1;
			}
			printf(" --no-%s", o->long_name);
			nr_noopts++;
		}
	}
}

/*
 * --git-completion-helper: the long options, for git's completion; all:
 * the hidden ones too (--git-completion-helper-all).
 */
static enum po_result
print_completion(const struct po_ctx *c, int all)
{
	int nr_noopts = 0;

	for (size_t i = 0; i < c->nr_opts; i++) {
		const struct po_option *o = &c->opts[i];
		int takes_value = !o->value &&
			!(o->flags & (PO_NOARG | PO_OPTARG));

		if (o->is_group || !o->long_name ||
		    (!all && (o->flags & PO_HIDDEN)))
			continue;
		if (starts_with(o->long_name, "no-"))
			nr_noopts++;
		printf("%s--%s%s", i ? " " : "", o->long_name,
		       takes_value ? "=" : "");
	}
	print_negated(c, all, -1);
	print_negated(c, all, nr_noopts);
	putchar('\n');
	return PO_COMPLETE;
}

static enum po_result
parse_step(struct po_ctx *c)
{
	enum po_result r;

	for (; c->argc; c->argc--, c->argv++) {
		const char *arg = c->argv[0];

		if (*arg != '-' || !arg[1]) {
			if (c->flags & PO_STOP_AT_NON_OPTION)
				return PO_NON_OPTION;
			c->out[c->nr_out++] = arg;
			continue;
		}
		/* a lone -h asks for help, even where the spec has -h */
		if (c->total == 1 && !strcmp(arg, "-h"))
			goto show_usage;
		if (c->total == 1 && !strcmp(arg, "--git-completion-helper"))
			return print_completion(c, 0);
		if (c->total == 1 &&
		    !strcmp(arg, "--git-completion-helper-all"))
			return print_completion(c, 1);
		if (arg[1] != '-') {
			c->opt = arg + 1;
			c->unknown = arg;
			r = parse_short(c);
			if (r == PO_ERROR)
				return r;
			if (r == PO_UNKNOWN) {
				check_typos(c, arg + 1);
				if (*c->opt == 'h')
					goto show_usage;
				return PO_UNKNOWN;
			}
			if (c->opt)
				check_typos(c, arg + 1);
			while (c->opt) {
				r = parse_short(c);
				if (r == PO_ERROR)
					return r;
				if (r == PO_UNKNOWN) {
					if (*c->opt == 'h')
						goto show_usage;
					/* named from the switch on */
					strbuf_reset(&c->rest);
					strbuf_addch(&c->rest, '-');
					strbuf_addstr(&c->rest, c->opt);
					c->unknown = c->rest.buf;
					return PO_UNKNOWN;
				}
			}
			continue;
		}
		if (!arg[2] || !strcmp(arg + 2, "end-of-options")) {
			if (!(c->flags & PO_KEEP_DASHDASH)) {
				c->argc--;
				c->argv++;
			}
			break;
		}
		if (!strcmp(arg + 2, "help-all")) {
			print_usage(c, 1, 0);
			return PO_HELP;
		}
		if (!strcmp(arg + 2, "help"))
			goto show_usage;
		c->unknown = arg;
		r = parse_long(c, arg + 2);
		if (r == PO_HELP)
			goto show_usage;
		if (r != PO_DONE)
			return r;
	}
	return PO_DONE;

show_usage:
	print_usage(c, 0, 0);
	return PO_HELP;
}

/*
 * Parse argv (argv[0] is the program's name, skipped) against opts;
 * on success, the arguments left (non-options, then everything after
 * the options stopped) in argv, their count returned.  Help and errors
 * exit 129 (after the "did you mean", the unknown option's name and the
 * usage, as git); a completion request exits 0.
 */
static int
parse_args(struct po_ctx *c, int argc, const char **argv)
{
	enum po_result r;

	c->argc = argc - 1;
	c->argv = argv + 1;
	c->total = c->argc;
	c->out = argv;
	c->nr_out = 0;
	r = parse_step(c);
	switch (r) {
	case PO_DONE:
	case PO_NON_OPTION:
		break;
	case PO_COMPLETE:
		exit(0);
	case PO_HELP:
	case PO_ERROR:
		exit(129);
	case PO_UNKNOWN:
		if (c->unknown[1] == '-')
			error("unknown option `%s'", c->unknown + 2);
		else if (!((unsigned char)*c->opt & 0x80))
			error("unknown switch `%c'", *c->opt);
		else
			error("unknown non-ascii option in string: `%s'",
			      c->unknown);
		print_usage(c, 0, 1);
		exit(129);
	}
	memmove(argv + c->nr_out, c->argv, c->argc * sizeof(*argv));
	argv[c->nr_out + c->argc] = NULL;
	return c->nr_out + c->argc;
}

/*
 * The next line of stdin without its LF (and a CR before it); -1 at
 * the end.  The line may hold NULs: len counts them, the C string
 * stops at the first, as git reads the spec.
 */
static int
read_line(struct strbuf *sb, FILE *in)
{
	int ch;

	strbuf_reset(sb);
	while ((ch = getc(in)) != EOF) {
		if (ch == '\n') {
			if (sb->len && sb->buf[sb->len - 1] == '\r')
				strbuf_setlen(sb, sb->len - 1);
			return 0;
		}
		strbuf_addch(sb, ch);
	}
	return sb->len ? 0 : -1;
}

static void
add_option(struct po_list *l, const struct po_option *o)
{
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	l->v[l->nr++] = *o;
}

/* One line of the spec after the "--" (not empty). */
static void
parse_spec_line(struct po_list *l, char *line)
{
	struct po_option o;
	char *help = NULL, *s;

	memset(&o, 0, sizeof(o));
	for (s = line; *s; s++)
		if (is_git_space((unsigned char)*s)) {
			help = s;
			break;
		}
	if (!help || help == line) {
		s = line;
		while (is_git_space((unsigned char)*s))
			s++;
		o.is_group = 1;
		o.help = xstrdup(s);
		add_option(l, &o);
		return;
	}
	*help = '\0';
	s = help + 1;
	while (is_git_space((unsigned char)*s))
		s++;
	o.help = xstrdup(s);
	o.flags = PO_NOARG;

	s = strpbrk(line, "*=?!");
	if (!s)
		s = help;
	if (s == line)
		die("missing opt-spec before option flags");
	if (s - line == 1)
		o.short_name = (unsigned char)line[0];
	else if (line[1] != ',')
		o.long_name = xmemdupz(line, s - line);
	else {
		o.short_name = (unsigned char)line[0];
		o.long_name = xmemdupz(line + 2, s - line - 2);
	}
	for (; s < help; s++) {
		if (*s == '=')
			o.flags &= ~PO_NOARG;
		else if (*s == '?')
			o.flags = (o.flags & ~PO_NOARG) | PO_OPTARG;
		else if (*s == '!')
			o.flags |= PO_NONEG;
		else if (*s == '*')
			o.flags |= PO_HIDDEN;
		else
			break;
	}
	if (s < help)
		o.argh = xmemdupz(s, help - s);
	add_option(l, &o);
}

/*
 * What git's option parser rejects in a table as a programming error
 * (it aborts): a short name used twice or not below DEL, an arg hint
 * of several words.  Refused here with the same words and exit 128.
 */
static void
check_spec(const struct po_list *l)
{
	unsigned char used[256];
	int bad = 0;

	memset(used, 0, sizeof(used));
	for (size_t i = 0; i < l->nr; i++) {
		const struct po_option *o = &l->v[i];
		struct strbuf who = STRBUF_INIT;
		const char *why[2];
		int n = 0;

		if (o->is_group)
			continue;
		if (o->short_name == 0x7f)
			why[n++] = "invalid short name";
		else if (o->short_name && used[o->short_name]++)
			why[n++] = "short name already used";
		if (o->argh && strcspn(o->argh, " _") != strlen(o->argh))
			why[n++] = "multi-word argh should use dash to "
				"separate words";
		if (o->long_name && o->short_name)
			strbuf_addf(&who, "switch '%c' (--%s)", o->short_name,
				    o->long_name);
		else if (o->long_name)
			strbuf_addf(&who, "option '%s'", o->long_name);
		else
			strbuf_addf(&who, "switch '%c'", o->short_name);
		for (int k = 0; k < n; k++)
			error("%s %s", who.buf, why[k]);
		bad += n;
		strbuf_release(&who);
	}
	if (bad)
		die("invalid option spec for rev-parse --parseopt");
}

static const char *const parseopt_usage[] = {
	"dirc rev-parse --parseopt [<options>] -- [<args>...]",
	NULL,
};

int
rev_parse_parseopt(int argc, const char **argv)
{
	int keep_dashdash = 0, stop_at_non_option = 0, stuck_long = 0;
	struct po_option own[] = {
		{ 0, 0, "keep-dashdash", NULL,
		  "keep the `--` passed as an arg", PO_NOARG, &keep_dashdash },
		{ 0, 0, "stop-at-non-option", NULL,
		  "stop parsing after the first non-option argument",
		  PO_NOARG, &stop_at_non_option },
		{ 0, 0, "stuck-long", NULL, "output in stuck long form",
		  PO_NOARG, &stuck_long },
	};
	struct strbuf sb = STRBUF_INIT, parsed = STRBUF_INIT;
	struct po_list spec = { NULL, 0, 0 };
	const char **usage = NULL;
	size_t nr_usage = 0, alloc_usage = 0;
	struct po_ctx c;

	po_ctx_init(&c);
	c.opts = own;
	c.nr_opts = ARRAY_SIZE(own);
	c.usage = parseopt_usage;
	c.flags = PO_KEEP_DASHDASH;
	argc = parse_args(&c, argc, argv);
	if (argc < 1 || strcmp(argv[0], "--")) {
		print_usage(&c, 0, 1);
		exit(129);
	}

	/* the usage lines, up to the first "--" */
	for (;;) {
		if (read_line(&sb, stdin) < 0)
			die("premature end of input");
		ALLOC_GROW(usage, nr_usage + 1, alloc_usage);
		if (!strcmp(sb.buf, "--")) {
			if (!nr_usage)
				die("no usage string given before the `--' "
				    "separator");
			usage[nr_usage] = NULL;
			break;
		}
		usage[nr_usage++] = xstrdup(sb.buf);
	}
	while (!read_line(&sb, stdin))
		if (sb.len)
			parse_spec_line(&spec, sb.buf);
	strbuf_release(&sb);
	check_spec(&spec);

	strbuf_addstr(&parsed, "set --");
	po_ctx_init(&c);
	c.opts = spec.v;
	c.nr_opts = spec.nr;
	c.usage = usage;
	c.parsed = &parsed;
	c.stuck_long = stuck_long;
	c.flags = PO_SHELL_EVAL |
		(keep_dashdash ? PO_KEEP_DASHDASH : 0) |
		(stop_at_non_option ? PO_STOP_AT_NON_OPTION : 0);
	argc = parse_args(&c, argc, argv);

	strbuf_addstr(&parsed, " --");
	for (int i = 0; i < argc; i++) {
		strbuf_addch(&parsed, ' ');
		quote_sq(&parsed, argv[i]);
	}
	puts(parsed.buf);
	strbuf_release(&parsed);
	for (size_t i = 0; i < spec.nr; i++) {
		free((char *)spec.v[i].long_name);
		free((char *)spec.v[i].argh);
		free((char *)spec.v[i].help);
	}
	free(spec.v);
	for (size_t i = 0; i < nr_usage; i++)
		free((char *)usage[i]);
	free(usage);
	return 0;
}
