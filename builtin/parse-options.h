/*
 * parse-options: table-driven command-line parsing with git's behaviour:
 * bundled short options (-qz), "-m msg" and "-mmsg", "--long=value" and
 * "--long value", "--no-long", unique prefixes of long options, "--" to
 * end options, and non-options collected in order (options may follow
 * them unless PARSE_OPT_STOP_AT_NON_OPTION).  "-h" prints the usage on
 * stdout and exits 129; a bad option prints "error: ..." and the usage on
 * stderr and exits 129.
 *
 * A command whose options and arguments act in the order given (update-
 * cache: "--add a --remove b") uses parse_options_in_order(): each option
 * takes effect as it is met, each non-option goes to a callback there and
 * then, and a low-level option may take the rest of the command line.
 *
 * The usage text is generated from the table in git's layout: "usage:
 * <line>", then one line per option, its help from column 27 (or on the
 * next line when the option is wider), groups as headings.
 */
#ifndef DIRC_PARSE_OPTIONS_H
#define DIRC_PARSE_OPTIONS_H

#include <stdint.h>

enum opt_type {
	OPT_END_,
	OPT_GROUP_,	/* a heading in the help text */
	OPT_BOOL_,	/* int: 1, or 0 with --no- */
	OPT_COUNTUP_,	/* int: +1 each time, 0 with --no- */
	OPT_SET_INT_,	/* int: defval */
	OPT_STRING_,	/* const char *: the argument */
	OPT_INT_,	/* int: the argument as a number */
	OPT_CALLBACK_,	/* cb(opt, arg, unset) */
	OPT_LOWLEVEL_,	/* llcb(opt, argc, argv): sees the rest */
};

enum opt_flags {
	OPT_NONEG = 1 << 0,	/* no --no-<name> form */
	OPT_OPTARG = 1 << 1,	/* the argument is optional (=value only) */
	OPT_HIDDEN = 1 << 2,	/* not shown in the help */
	OPT_NOARG = 1 << 3,	/* a callback taking no argument */
	OPT_LITERAL_ARGHELP = 1 << 4,	/* argh shown as is, not as <argh> */
	/*
	 * Only the full name: an abbreviation never means this option (an
	 * option of dirc's own beside git's, which must not make git's
	 * abbreviations ambiguous).
	 */
	OPT_NOABBREV = 1 << 5,
};

struct option;
/* A callback: 0, or negative for a usage error (the usage, exit 129). */
typedef int (*opt_cb)(const struct option *opt, const char *arg, int unset);
/*
 * A low-level callback: argv[0] is the option as given, argv[1..argc-1]
 * the arguments after it.  Returns how many of those it used (they are
 * skipped), or a negative number after printing its "error: ..." line
 * (exit 129, without the usage, as git).
 */
typedef int (*opt_ll_cb)(const struct option *opt, int argc,
			 const char **argv);

struct option {
	enum opt_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;	/* "<type>" in the help */
	const char *help;
	unsigned flags;
	intptr_t defval;
	/*
	 * OPT_CALLBACK_'s callback; for OPT_LOWLEVEL_ an opt_ll_cb stored
	 * through void (*)(void) (see OPT_LOWLEVEL_CALLBACK), so that every
	 * table keeps the same nine fields.
	 */
	opt_cb cb;
};

#define OPT_END() { OPT_END_, 0, NULL, NULL, NULL, NULL, 0, 0, NULL }
#define OPT_GROUP(h) \
	{ OPT_GROUP_, 0, NULL, NULL, NULL, (h), 0, 0, NULL }
#define OPT_BOOL(s, l, v, h) \
	{ OPT_BOOL_, (s), (l), (v), NULL, (h), 0, 0, NULL }
#define OPT_BOOL_F(s, l, v, h, fl) \
	{ OPT_BOOL_, (s), (l), (v), NULL, (h), (fl), 0, NULL }
#define OPT_COUNTUP(s, l, v, h) \
	{ OPT_COUNTUP_, (s), (l), (v), NULL, (h), 0, 0, NULL }
#define OPT_SET_INT(s, l, v, h, i) \
	{ OPT_SET_INT_, (s), (l), (v), NULL, (h), OPT_NONEG, (i), NULL }
/* An int set to i, or to 0 by --no-<l> (unless fl has OPT_NONEG). */
#define OPT_SET_INT_F(s, l, v, h, i, fl) \
	{ OPT_SET_INT_, (s), (l), (v), NULL, (h), (fl), (i), NULL }
#define OPT_STRING(s, l, v, a, h) \
	{ OPT_STRING_, (s), (l), (v), (a), (h), 0, 0, NULL }
#define OPT_INT(s, l, v, a, h) \
	{ OPT_INT_, (s), (l), (v), (a), (h), 0, 0, NULL }
#define OPT_CALLBACK(s, l, v, a, h, f) \
	{ OPT_CALLBACK_, (s), (l), (v), (a), (h), 0, 0, (f) }
#define OPT_CALLBACK_F(s, l, v, a, h, fl, f) \
	{ OPT_CALLBACK_, (s), (l), (v), (a), (h), (fl), 0, (f) }
/* Takes no value of its own, and has no --no- form. */
#define OPT_LOWLEVEL_CALLBACK(s, l, v, a, h, fl, f) \
	{ OPT_LOWLEVEL_, (s), (l), (v), (a), (h), (fl) | OPT_NONEG, 0, \
	  (opt_cb)(void (*)(void))(1 ? (f) : (opt_ll_cb)NULL) }

enum parse_opt_flags {
	PARSE_OPT_STOP_AT_NON_OPTION = 1 << 0,
	PARSE_OPT_KEEP_DASHDASH = 1 << 1,
	/*
	 * update-index's own wording of an unknown option: "unknown
	 * option 'x'", "unknown switch 'x'" (git's generic parser quotes
	 * them `x').
	 */
	PARSE_OPT_PLAIN_QUOTES = 1 << 2,
};

/*
 * Parse argv[1..argc-1] (argv[0] is the command name).  Returns the
 * number of arguments left, moved to argv[0..n-1].
 */
int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const *usage, unsigned flags);

/*
 * The options and arguments in order: each option acts as it is met, each
 * non-option (and everything after "--") is passed to
 * nonopt(ctx, arg) there and then.  "-h" and errors as parse_options().
 */
void parse_options_in_order(int argc, const char **argv,
			    const struct option *opts,
			    const char *const *usage, unsigned flags,
			    void (*nonopt)(void *ctx, const char *arg),
			    void *ctx);

/*
 * --abbrev[=<n>] for an int: --no-abbrev 0 (full ids), bare --abbrev
 * OPT_ABBREV_AUTO (the caller's default length), n clamped to 4..40 (0
 * stays 0); not a number: git's "error: option `abbrev' expects a
 * numerical value", exit 129.
 */
#define OPT_ABBREV_AUTO (-1)
int parse_opt_abbrev(const struct option *opt, const char *arg, int unset);

/* Print the usage and options to stderr (err) or stdout and exit 129. */
void usage_with_options(const char *const *usage, const struct option *opts)
	__attribute__((noreturn));
void usage_with_options_to(const char *const *usage,
			   const struct option *opts, int err, int code)
	__attribute__((noreturn));
/* "error: <msg>" then the usage, exit 129. */
void usage_msg_opt(const char *msg, const char *const *usage,
		   const struct option *opts) __attribute__((noreturn));

#endif
