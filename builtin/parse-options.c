/*
 * parse-options: the option table walker.
 */
#include "parse-options.h"

#include "builtin.h"

static void
print_usage(FILE *fp, const char *const *usage, const struct option *opts)
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
		char left[128];
		int n = 0;

		if (o->type == OPT_GROUP_) {
			fprintf(fp, "\n%s\n", o->help);
			continue;
		}
		if (o->flags & OPT_HIDDEN)
			continue;
		n += snprintf(left + n, sizeof(left) - n, "    ");
		if (o->short_name)
			n += snprintf(left + n, sizeof(left) - n, "-%c",
				      o->short_name);
		if (o->short_name && o->long_name)
			n += snprintf(left + n, sizeof(left) - n, ", ");
		if (o->long_name)
			n += snprintf(left + n, sizeof(left) - n, "--%s",
				      o->long_name);
		if (o->argh && !(o->flags & OPT_NOARG)) {
			int br = o->argh[0] != '<';

			if (o->flags & OPT_OPTARG)
				n += snprintf(left + n, sizeof(left) - n,
					      "[=%s%s%s]", br ? "<" : "",
					      o->argh, br ? ">" : "");
			else
				n += snprintf(left + n, sizeof(left) - n,
					      " %s%s%s", br ? "<" : "",
					      o->argh, br ? ">" : "");
		}
		if (n >= 26)
			fprintf(fp, "%s\n%26s%s\n", left, "", o->help ? o->help : "");
		else
			fprintf(fp, "%-26s%s\n", left, o->help ? o->help : "");
	}
	fputc('\n', fp);
}

void
usage_with_options_to(const char *const *usage, const struct option *opts,
		      int err, int code)
{
	print_usage(err ? stderr : stdout, usage, opts);
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
};

/* "error: <before><what><after>", the usage, exit 129. */
static void
bad(const struct ctx *c, const char *before, const char *what,
    const char *after)
{
	fprintf(stderr, "error: %s%s%s\n", before, what, after);
	usage_with_options(c->usage, c->opts);
}

/*
 * A known option with a bad value: "error: <what><after>" and exit 129,
 * without the usage (git's parse-options shows it only for options it
 * does not know).
 */
static void
bad_value(const char *what, const char *after)
{
	fflush(stdout);
	fprintf(stderr, "error: %s%s\n", what, after);
	exit(129);
}

static int
get_value(const struct ctx *c, const struct option *o, const char *arg,
	  int unset, const char *shown)
{
	char *end;
	long v;

	(void)c;
	switch (o->type) {
	case OPT_BOOL_:
		*(int *)o->value = !unset;
		return 0;
	case OPT_COUNTUP_:
		if (unset)
			*(int *)o->value = 0;
		else
			(*(int *)o->value)++;
		return 0;
	case OPT_SET_INT_:
		*(int *)o->value = unset ? 0 : (int)o->defval;
		return 0;
	case OPT_STRING_:
		*(const char **)o->value = unset ? NULL : arg;
		return 0;
	case OPT_INT_:
		if (unset) {
			*(int *)o->value = 0;
			return 0;
		}
		v = strtol(arg, &end, 10);
		if (!*arg || *end)
			bad_value(shown, " expects a numerical value");
		*(int *)o->value = (int)v;
		return 0;
	case OPT_CALLBACK_:
		return o->cb(o, arg, unset);
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

/* Parse one long option "name[=value]"; may consume the next argv. */
static int
parse_long(const struct ctx *c, const char *arg, int *i, int argc,
	   const char **argv)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct option *match = NULL, *other = NULL;
	int unset = 0, ambiguous = 0, other_unset = 0;
	char shown[256];

	for (const struct option *o = c->opts; o->type != OPT_END_; o++) {
		const char *name = o->long_name;
		int neg = 0;

		if (!name)
			continue;
		if (strlen(name) == len && !strncmp(name, arg, len)) {
			match = o;
			unset = 0;
			ambiguous = 0;
			break;
		}
		if (!strncmp(arg, "no-", 3) && !(o->flags & OPT_NONEG) &&
		    strlen(name) == len - 3 && !strncmp(name, arg + 3, len - 3)) {
			match = o;
			unset = 1;
			ambiguous = 0;
			break;
		}
		/* unique prefixes */
		if (len < strlen(name) && !strncmp(name, arg, len)) {
			neg = 0;
		} else if (!strncmp(arg, "no-", 3) && len > 3 &&
			   !(o->flags & OPT_NONEG) &&
			   len - 3 < strlen(name) &&
			   !strncmp(name, arg + 3, len - 3)) {
			neg = 1;
		} else {
			continue;
		}
		if (match) {
			ambiguous = 1;
			other = match;
			other_unset = unset;
		}
		match = o;
		unset = neg;
	}
	if (ambiguous) {
		/* git names the last two candidates */
		snprintf(shown, sizeof(shown), "%.*s (could be --%s%s or --%s%s)",
			 (int)len, arg, other_unset ? "no-" : "",
			 other->long_name, unset ? "no-" : "",
			 match->long_name);
		/* git shows the usage on stdout here, as for -h */
		fprintf(stderr, "error: ambiguous option: %s\n", shown);
		usage_with_options_to(c->usage, c->opts, 0, 129);
	}
	if (!match) {
		snprintf(shown, sizeof(shown), "%.*s", (int)len, arg);
		bad(c, "unknown option `", shown, "'");
	}
	snprintf(shown, sizeof(shown), "option `%s%s'", unset ? "no-" : "",
		 match->long_name);
	if (unset && eq)
		bad_value(shown, " takes no value");
	if (unset)
		return get_value(c, match, NULL, 1, shown);
	if (!needs_arg(match) && !(match->flags & OPT_OPTARG)) {
		if (eq)
			bad_value(shown, " takes no value");
		return get_value(c, match, NULL, 0, shown);
	}
	if (eq)
		return get_value(c, match, eq + 1, 0, shown);
	if (match->flags & OPT_OPTARG)
		return get_value(c, match, NULL, 0, shown);
	if (*i + 1 >= argc)
		bad_value(shown, " requires a value");
	return get_value(c, match, argv[++*i], 0, shown);
}

/* Parse a bundle of short options "-abc"; may consume the next argv. */
static int
parse_short(const struct ctx *c, const char *arg, int *i, int argc,
	    const char **argv)
{
	for (; *arg; arg++) {
		const struct option *match = NULL;
		char shown[32];
		int ret;

		for (const struct option *o = c->opts; o->type != OPT_END_; o++)
			if (o->short_name == *arg)
				match = o;
		if (!match) {
			if (*arg == 'h')
				usage_with_options_to(c->usage, c->opts, 0, 129);
			snprintf(shown, sizeof(shown), "%c", *arg);
			bad(c, "unknown switch `", shown, "'");
		}
		snprintf(shown, sizeof(shown), "switch `%c'", *arg);
		if (!needs_arg(match) && !(match->flags & OPT_OPTARG)) {
			ret = get_value(c, match, NULL, 0, shown);
			if (ret < 0)
				return ret;
			continue;
		}
		if (arg[1])
			return get_value(c, match, arg + 1, 0, shown);
		if (match->flags & OPT_OPTARG)
			return get_value(c, match, NULL, 0, shown);
		if (*i + 1 >= argc)
			bad_value(shown, " requires a value");
		return get_value(c, match, argv[++*i], 0, shown);
	}
	return 0;
}

int
parse_options(int argc, const char **argv, const struct option *opts,
	      const char *const *usage, unsigned flags)
{
	struct ctx c = { opts, usage };
	int out = 0, i;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];
		int ret;

		if (arg[0] != '-' || !arg[1]) {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			argv[out++] = arg;
			continue;
		}
		if (!strcmp(arg, "--")) {
			if (flags & PARSE_OPT_KEEP_DASHDASH)
				argv[out++] = arg;
			i++;
			break;
		}
		if (!strcmp(arg, "-h") || !strcmp(arg, "--help-all"))
			usage_with_options_to(usage, opts, 0, 129);
		if (arg[1] == '-')
			ret = parse_long(&c, arg + 2, &i, argc, argv);
		else
			ret = parse_short(&c, arg + 1, &i, argc, argv);
		if (ret < 0)
			usage_with_options(usage, opts);
	}
	for (; i < argc; i++)
		argv[out++] = argv[i];
	argv[out] = NULL;
	return out;
}
