/*
 * usage: how builtins report errors — git's prefixes and exit codes.
 */
#include "builtin.h"
#include "path.h"

#include <ctype.h>

/*
 * prefix and msg on stderr as git's vreportf() writes them: a control
 * character other than tab and newline (a CR from a file's content, an
 * escape sequence) becomes '?', so a message cannot move the cursor.
 */
static void
report(const char *prefix, const char *msg)
{
	fflush(stdout);
	fputs(prefix, stderr);
	for (const char *p = msg; *p; p++)
		fputc(iscntrl((unsigned char)*p) && *p != '\t' && *p != '\n' ?
		      '?' : *p, stderr);
	fputc('\n', stderr);
}

PRINTF_LIKE(2, 0) static void
vreport(const char *prefix, const char *fmt, va_list ap)
{
	char buf[ERROR_MSG_MAX];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	report(prefix, buf);
}

void
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("fatal: ", fmt, ap);
	va_end(ap);
	exit(128);
}

static void
report_lib(const char *prefix)
{
	const char *pre = error_pre();

	if (pre)
		report("error: ", pre);
	report(prefix, error_msg());
}

void
die_lib(int ret)
{
	(void)ret;
	report_lib("fatal: ");
	exit(128);
}

int
error_lib(int ret)
{
	(void)ret;
	report_lib("error: ");
	return -1;
}

int
error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

void
warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

static void
print_diag(enum diag_level level, const char *msg)
{
	static const char *const prefix[] = {
		[DIAG_WARNING] = "warning: ",
		[DIAG_ERROR] = "error: ",
		[DIAG_PLAIN] = "",
	};

	if (level == DIAG_PLAIN) {
		fflush(stdout);
		fprintf(stderr, "%s\n", msg);
		return;
	}
	report(prefix[level], msg);
}

void
setup_diagnostics(void)
{
	diag_set_printer(print_diag);
}

void
print_usage_lines(const char *const *usage)
{
	const char *const *u = usage;

	printf("usage: %s\n", *u++);
	for (; *u && **u; u++)
		printf("   or: %s\n", *u);
}

void
die_ambiguous_arg(const char *arg)
{
	die("ambiguous argument '%s': unknown revision or path not in the "
	    "working tree.\nUse '--' to separate paths from revisions, like "
	    "this:\n'git <command> [<revision>...] -- [<file>...]'", arg);
}

int
arg_is_existing_path(const char *top, const char *prefix, const char *arg)
{
	int ret = path_arg_exists(top, prefix, arg);

	if (ret < 0)
		die_lib(ret);
	return ret;
}
