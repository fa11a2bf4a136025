/*
 * parse-options: the option table walker, and the usage text generated
 * from the same table.
 */
#include "parse-options.h"
#include "hash.h"
#include "strbuf.h"

#include "builtin.h"

/* git's layout: the help starts in column 27 (USAGE_OPTS_WIDTH 24 + 2) */
#define USAGE_OPTS_WIDTH 24
#define USAGE_GAP 2

/* Is argh shown as written ("(+|-)x", "<mode>,<object>,<path>")? */
static int
literal_argh(const struct option *o)
{
	return o->flags & OPT_LITERAL_ARGHELP || strpbrk(o->argh, "()<>[]|");
}

static void
print_option(FILE *fp, const struct option *o)
{
	int pos = fprintf(fp, "    ");

	if (o->short_name)
		pos += fprintf(fp, "-%c", o->short_name);
	if (o->short_name && o->long_name)
		pos += fprintf(fp, ", ");
	if (o->long_name)
		pos += fprintf(fp, "--%s", o->long_name);
	if (o->argh && !(o->flags & OPT_NOARG)) {
		const char *open = literal_argh(o) ? "" : "<";
		const char *close = *open ? ">" : "";

		if (o->flags & OPT_OPTARG)
			pos += fprintf(fp, "[=%s%s%s]", open, o->argh, close);
		else
			pos += fprintf(fp, " %s%s%s", open, o->argh, close);
	}
	if (pos <= USAGE_OPTS_WIDTH) {
		fprintf(fp, "%*s%s\n", USAGE_OPTS_WIDTH - pos + USAGE_GAP, "",
			o->help ? o->help : "");
	} else {
		fprintf(fp, "\n%*s%s\n", USAGE_OPTS_WIDTH + USAGE_GAP, "",
			o->help ? o->help : "");
	}
}

static void
print_usage(FILE *fp, const char *const *usage, const struct option *opts,
	    int all)
{
	const char *const *u = usage;

	fprintf(fp, "usage: %s\n", *u++);
	for (; *u && **u; u++)
		fprintf(fp, "   or: %s\n", *u);
	/* lines after an empty string are notes */
	if (*u)
		for (u++; *u; u++)
			fprintf(fp, "%s%s\n", **u ? "    " : "", *u);
	if (!opts)
		return;
	fputc('\n', fp);
	for (const struct option *o = opts; o->type != OPT_END_; o++) {
		if (o->type == OPT_GROUP_) {
			/* git: an empty group title is just the blank line */
			fprintf(fp, "\n%s%s", o->help, *o->help ? "\n" : "");
			continue;
		}
		if (o->flags & OPT_HIDDEN && !all)
			continue;
		print_option(fp, o);
	}
	fputc('\n', fp);
}

NORETURN static void
usage_exit(const char *const *usage, const struct option *opts, int err,
	   int all)
{
	print_usage(err ? stderr : stdout, usage, opts, all);
	fflush(stdout);
	exit(129);
}

void
usage_with_options_to(const char *const *usage, const struct option *opts,
		      int err, int code)
{
	print_usage(err ? stderr : stdout, usage, opts, 0);
	fflush(stdout);
	exit(code);
}

void
usage_with_options(const char *const *usage, const struct option *opts)
{
	usage_with_options_to(usage, opts, 1, 129);
}

void
usage_msg_opt(const char *msg, const char *const *usage,
	      const struct option *opts)
{
	fprintf(stderr, "error: %s\n", msg);
	usage_with_options(usage, opts);
}

struct ctx {
	const struct option *opts;
	const char *const *usage;
	unsigned flags;		/* enum parse_opt_flags */
	int argc;
	const char **argv;
	int i;			/* argv[i] is being parsed */
};

/* "error: <before><what><after>", the usage, exit 129. */
NORETURN static void
bad(const struct ctx *c, const char *before, const char *what,
    const char *after)
{
	fflush(stdout);
	fprintf(stderr, "error: %s%s%s\n", before, what, after);
	usage_with_options(c->usage, c->opts);
}

/* A bad value for a known option: "error: <what><after>", exit 129. */
NORETURN static void
bad_value(const char *what, const char *after)
{
	fflush(stdout);
	fprintf(stderr, "error: %s%s\n", what, after);
	exit(129);
}

/* How git names an option in messages. */
static void
name_option(char *buf, size_t size, const struct option *o, int is_short,
	    int unset)
{
	if (is_short)
		snprintf(buf, size, "switch `%c'", o->short_name);
	else
		snprintf(buf, size, "option `%s%s'", unset ? "no-" : "",
			 o->long_name);
}

static void
get_value(struct ctx *c, const struct option *o, const char *arg,
	  int unset, const char *shown)
{
	char *end;
	long v;
	int ret;

	switch (o->type) {
	case OPT_BOOL_:
		*(int *)o->value = !unset;
		return;
	case OPT_COUNTUP_:
		if (unset)
			*(int *)o->value = 0;
		else
			(*(int *)o->value)++;
		return;
	case OPT_SET_INT_:
		*(int *)o->value = unset ? 0 : (int)o->defval;
		return;
	case OPT_STRING_:
		*(const char **)o->value = unset ? NULL : arg;
		return;
	case OPT_INT_:
		if (unset) {
			*(int *)o->value = 0;
			return;
		}
		v = strtol(arg, &end, 10);
		if (!*arg || *end)
			bad_value(shown, " expects a numerical value");
		*(int *)o->value = (int)v;
		return;
	case OPT_CALLBACK_:
		if (o->cb(o, arg, unset) < 0)
			usage_with_options(c->usage, c->opts);
		return;
	case OPT_LOWLEVEL_:
		ret = ((opt_ll_cb)(void (*)(void))o->cb)(o, c->argc - c->i,
							 c->argv + c->i);
		if (ret < 0)
			exit(129);	/* the callback said why */
		c->i += ret;
		return;
	default:
		BUG("bad option type %d", o->type);
	}
}

static int
needs_arg(const struct option *o)
{
	return (o->type == OPT_STRING_ || o->type == OPT_INT_ ||
		(o->type == OPT_CALLBACK_ && !(o->flags & OPT_NOARG))) &&
	       !(o->flags & OPT_OPTARG);
}

static int
takes_arg(const struct option *o)
{
	return needs_arg(o) || o->flags & OPT_OPTARG;
}

/* "unknown option `x'" (or 'x' for update-index), the usage, 129. */
NORETURN static void
unknown(const struct ctx *c, const char *quoted, int is_short)
{
	bad(c, is_short ? "unknown switch " : "unknown option ", quoted, "");
}

/*
 * The value of an option that takes one: the one attached to it ("--o=v"
 * or "-ov"; NULL if none), else none for an optional value, else the
 * next argument, which must be there.
 */
static void
take_value(struct ctx *c, const struct option *match, const char *attached,
	   const char *shown)
{
	if (attached)
		get_value(c, match, attached, 0, shown);
	else if (match->flags & OPT_OPTARG)
		get_value(c, match, NULL, 0, shown);
	else if (c->i + 1 >= c->argc)
		bad_value(shown, " requires a value");
	else
		get_value(c, match, c->argv[++c->i], 0, shown);
}

/* Parse one long option "name[=value]"; may consume the next argv. */
static void
parse_long(struct ctx *c, const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct option *match = NULL, *prev = NULL;
	int unset = 0, prev_unset = 0, exact = 0;
	char shown[256];

	for (const struct option *o = c->opts; o->type != OPT_END_; o++) {
		const char *name = o->long_name;
		size_t nlen;
		int neg;

		if (!name)
			continue;
		nlen = strlen(name);
		if (nlen == len && !strncmp(name, arg, len)) {
			match = o;
			unset = 0;
			exact = 1;
			break;
		}
		if (!(o->flags & OPT_NONEG) && !strncmp(arg, "no-", 3) &&
		    nlen == len - 3 && !strncmp(name, arg + 3, len - 3)) {
			match = o;
			unset = 1;
			exact = 1;
			break;
		}
		/* as git: "--x" is the unset form of an option "no-x" */
		if (!(o->flags & OPT_NONEG) && starts_with(name, "no-") &&
		    strncmp(arg, "no-", 3) && nlen - 3 == len &&
		    !strncmp(name + 3, arg, len)) {
			match = o;
			unset = 1;
			exact = 1;
			break;
		}
		/* unique prefixes, of the name or of its --no- form */
		if (o->flags & OPT_NOABBREV)
			continue;
		if (len < nlen && !strncmp(name, arg, len))
			neg = 0;
		else if (!(o->flags & OPT_NONEG) && len > 3 &&
			 !strncmp(arg, "no-", 3) && len - 3 < nlen &&
			 !strncmp(name, arg + 3, len - 3))
			neg = 1;
		else if (!(o->flags & OPT_NONEG) && starts_with(name, "no-") &&
			 strncmp(arg, "no-", 3) && len < nlen - 3 &&
			 !strncmp(name + 3, arg, len))
			neg = 1;
		else
			continue;
		prev = match;
		prev_unset = unset;
		match = o;
		unset = neg;
	}
	if (!exact && prev) {
		char msg[512];

		snprintf(msg, sizeof(msg), "%.*s (could be --%s%s or --%s%s)",
			 (int)len, arg, prev_unset ? "no-" : "",
			 prev->long_name, unset ? "no-" : "", match->long_name);
		/* git shows the usage on stdout here, as if asked for it */
		fflush(stdout);
		fprintf(stderr, "error: ambiguous option: %s\n", msg);
		usage_exit(c->usage, c->opts, 0, 0);
	}
	if (!match) {
		/* git names all of it, "=value" too, however long */
		struct strbuf all = STRBUF_INIT;

		strbuf_addf(&all, c->flags & PARSE_OPT_PLAIN_QUOTES ?
			    "'%s'" : "`%s'", arg);
		unknown(c, all.buf, 0);
	}
	name_option(shown, sizeof(shown), match, 0, unset);
	if (eq && (unset || !takes_arg(match)))
		bad_value(shown, " takes no value");
	if (unset) {
		get_value(c, match, NULL, 1, shown);
		return;
	}
	if (!takes_arg(match)) {
		get_value(c, match, NULL, 0, shown);
		return;
	}
	take_value(c, match, eq ? eq + 1 : NULL, shown);
}

/* Parse a bundle of short options "-abc"; may consume the next argv. */
static void
parse_short(struct ctx *c, const char *arg)
{
	for (; *arg; arg++) {
		const struct option *match = NULL;
		char shown[32];

		for (const struct option *o = c->opts; o->type != OPT_END_; o++)
			if (o->short_name == *arg)
				match = o;
		if (!match) {
			if (*arg == 'h')
				usage_exit(c->usage, c->opts, 0, 0);
			snprintf(shown, sizeof(shown),
				 c->flags & PARSE_OPT_PLAIN_QUOTES ? "'%c'" :
				 "`%c'", *arg);
			unknown(c, shown, 1);
		}
		name_option(shown, sizeof(shown), match, 1, 0);
		if (!takes_arg(match)) {
			get_value(c, match, NULL, 0, shown);
			continue;
		}
		take_value(c, match, arg[1] ? arg + 1 : NULL, shown);
		return;
	}
}

/* Has the option a --no- form?  (not groups, not low-level callbacks) */
static int
has_unset_form(const struct option *o)
{
	return o->type != OPT_GROUP_ && o->type != OPT_LOWLEVEL_ &&
	       !(o->flags & OPT_NONEG);
}

/*
 * git's --git-completion-helper: the long options on one line, each
 * after a space (none before the table's first entry): every shown
 * option, with "=" when it needs a value; the positive forms of those
 * named "no-<x>"; then the "--no-<x>" forms, with "--" before them once
 * one has been shown (or before all of them when the table has options
 * named "no-<x>"), so that completion can offer them only on "--no".
 */
static void
print_completion(const struct option *opts)
{
	int nr_no = 0, shown_dashdash = 0;
	const char *rest;

	for (const struct option *o = opts; o->type != OPT_END_; o++) {
		if (!o->long_name || o->flags & OPT_HIDDEN ||
		    o->type == OPT_GROUP_)
			continue;
		printf("%s--%s%s", o == opts ? "" : " ", o->long_name,
		       needs_arg(o) ? "=" : "");
		if (starts_with(o->long_name, "no-"))
			nr_no++;
	}
	for (const struct option *o = opts; o->type != OPT_END_; o++)
		if (o->long_name && !(o->flags & OPT_HIDDEN) &&
		    has_unset_form(o) &&
		    skip_prefix(o->long_name, "no-", &rest))
			printf(" --%s", rest);
	for (const struct option *o = opts; o->type != OPT_END_; o++) {
		if (!o->long_name || o->flags & OPT_HIDDEN ||
		    !has_unset_form(o) || starts_with(o->long_name, "no-"))
			continue;
		if (nr_no && !shown_dashdash) {
			printf(" --");
			shown_dashdash = 1;
		}
		printf(" --no-%s", o->long_name);
		nr_no++;
	}
	putchar('\n');
	fflush(stdout);
	exit(ferror(stdout) ? 128 : 0);
}

/* "--git-completion-helper" as the only argument, as git takes it */
static void
check_completion(int argc, const char **argv, const struct option *opts)
{
	if (argc == 2 && !strcmp(argv[1], "--git-completion-helper"))
		print_completion(opts);
}

/* The option at argv[c->i] (not "--", not a non-option). */
static void
parse_one(struct ctx *c)
{
	const char *arg = c->argv[c->i];

	/* as git: "--help" after other arguments is "-h" */
	if (!strcmp(arg, "-h") || !strcmp(arg, "--help"))
		usage_exit(c->usage, c->opts, 0, 0);
	if (!strcmp(arg, "--help-all"))
		usage_exit(c->usage, c->opts, 0, 1);
	if (arg[1] == '-')
		parse_long(c, arg + 2);
	else
		parse_short(c, arg + 1);
}

int
parse_options(int argc, const char **argv, const struct option *opts,
	      const char *const *usage, unsigned flags)
{
	struct ctx c = { opts, usage, flags, argc, argv, 1 };
	int out = 0;

	check_completion(argc, argv, opts);
	for (; c.i < argc; c.i++) {
		const char *arg = argv[c.i];

		if (arg[0] != '-' || !arg[1]) {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			argv[out++] = arg;
			continue;
		}
		if (!strcmp(arg, "--")) {
			if (flags & PARSE_OPT_KEEP_DASHDASH)
				argv[out++] = arg;
			c.i++;
			break;
		}
		parse_one(&c);
	}
	for (; c.i < argc; c.i++)
		argv[out++] = argv[c.i];
	argv[out] = NULL;
	return out;
}

void
parse_options_in_order(int argc, const char **argv,
		       const struct option *opts, const char *const *usage,
		       unsigned flags,
		       void (*nonopt)(void *ctx, const char *arg), void *ctx)
{
	struct ctx c = { opts, usage, flags, argc, argv, 1 };
	int dashdash = 0;

	check_completion(argc, argv, opts);
	for (; c.i < argc; c.i++) {
		const char *arg = argv[c.i];

		if (dashdash || arg[0] != '-' || !arg[1]) {
			nonopt(ctx, arg);
			continue;
		}
		if (!strcmp(arg, "--")) {
			dashdash = 1;
			continue;
		}
		parse_one(&c);
	}
}

int
parse_opt_abbrev(const struct option *opt, const char *arg, int unset)
{
	int *v = opt->value;
	char *end;
	long n;

	if (unset) {
		*v = 0;
		return 0;
	}
	if (!arg) {
		*v = OPT_ABBREV_AUTO;
		return 0;
	}
	errno = 0;
	n = strtol(arg, &end, 10);
	if (!*arg || *end || errno || n > INT32_MAX || n < INT32_MIN) {
		fflush(stdout);
		fprintf(stderr, "error: option `abbrev' expects a numerical "
			"value\n");
		exit(129);
	}
	if (n && n < 4)
		n = 4;
	*v = n > HASH_HEXSZ ? HASH_HEXSZ : (int)n;
	return 0;
}
