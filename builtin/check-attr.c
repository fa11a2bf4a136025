/*
 * check-attr: the attributes of paths, as git check-attr prints them.
 *
 *   <path>: <attr>: <info>     info "set", "unset", "unspecified" or the
 *                              value; the path as given, C-quoted
 *   -z: <path>NUL<attr>NUL<info>NUL
 *
 * Arguments, as git splits them: with -a every argument (after "--",
 * if any) is a path; otherwise the ones before "--" are attributes, and
 * without "--" the first is (all of them with --stdin).  Paths are
 * relative to the current directory; --stdin reads one per line
 * (C-quoted lines unquoted) or per NUL with -z.  --cached reads
 * .gitattributes from the index only.
 */
#include <stdio.h>
#include <string.h>

#include "attr.h"
#include "builtin.h"
#include "index.h"
#include "odb.h"
#include "parse-options.h"
#include "path.h"
#include "quote.h"
#include "repo.h"
#include "sparse-index.h"
#include "strbuf.h"

const char *const check_attr_usage[] = {
	"dirc check-attr [-a | --all | <attr>...] [--] <pathname>...",
	"dirc check-attr --stdin [-z] [-a | --all | <attr>...]",
	NULL,
};

struct ca {
	struct repo *repo;
	struct attr_set *attrs;
	int all, nul;
	int *ids;		/* the attributes asked for */
	size_t nr;
	struct attr_values vals;
	struct strbuf line, full;
};

static const char *
info_of(const char *v)
{
	if (v == ATTR_TRUE)
		return "set";
	if (v == ATTR_FALSE)
		return "unset";
	if (!v)
		return "unspecified";
	return v;
}

static void
print_one(struct ca *ca, const char *file, int id)
{
	const char *name = attr_name(ca->attrs, id);
	const char *info = info_of(attr_value(&ca->vals, id));

	if (ca->nul) {
		fputs(file, stdout);
		putchar('\0');
		fputs(name, stdout);
		putchar('\0');
		fputs(info, stdout);
		putchar('\0');
		return;
	}
	strbuf_reset(&ca->line);
	quote_c_style(&ca->line, file, strlen(file),
		      ca->repo->settings.quotepath);
	strbuf_addf(&ca->line, ": %s: %s\n", name, info);
	fwrite(ca->line.buf, 1, ca->line.len, stdout);
}

static void
check_file(struct ca *ca, const char *file)
{
	int ret = path_normalize(&ca->full, ca->repo->prefix, file,
				 ca->repo->worktree);

	if (ret < 0) {
		fflush(stdout);
		die_lib(ret);
	}
	attr_get(&ca->vals, ca->attrs, ca->full.buf);
	if (ca->all) {
		for (size_t id = 0; id < ca->vals.nr; id++)
			if (ca->vals.values[id])
				print_one(ca, file, (int)id);
		return;
	}
	for (size_t i = 0; i < ca->nr; i++)
		print_one(ca, file, ca->ids[i]);
}

static void
check_stdin(struct ca *ca)
{
	struct strbuf in = STRBUF_INIT, name = STRBUF_INIT;
	int term = ca->nul ? '\0' : '\n';

	while (strbuf_getdelim(&in, stdin, term) != EOF) {
		const char *file = in.buf;

		if (!ca->nul && in.buf[0] == '"') {
			const char *end;

			if (unquote_c_style(&name, in.buf, &end) || *end) {
				fflush(stdout);
				die("line is badly quoted");
			}
			file = name.buf;
		}
		check_file(ca, file);
		fflush(stdout);
	}
	strbuf_release(&in);
	strbuf_release(&name);
}

int
cmd_check_attr(int argc, const char **argv)
{
	struct ca ca = { .line = STRBUF_INIT, .full = STRBUF_INIT,
			 .vals = ATTR_VALUES_INIT };
	struct repo repo;
	struct index idx;
	struct odb *odb = NULL;
	int cached = 0, stdin_paths = 0, dashdash = -1, cnt, filei, ret;
	struct option opts[] = {
		OPT_BOOL('a', "all", &ca.all, "report all attributes set on "
			 "file"),
		OPT_BOOL(0, "cached", &cached, "use .gitattributes only from "
			 "the index"),
		OPT_BOOL(0, "stdin", &stdin_paths, "read file names from "
			 "stdin"),
		OPT_BOOL('z', NULL, &ca.nul, "terminate input and output "
			 "records by a NUL character"),
		OPT_END(),
	};

	/* a lone -h is answered outside a repository too, as git does */
	if (argc == 2 && !strcmp(argv[1], "-h"))
		usage_with_options_to(check_attr_usage, opts, 0, 129);
	ret = repo_open(&repo, 0);
	if (ret < 0)
		die_lib(ret);
	ca.repo = &repo;
	argc = parse_options(argc, argv, opts, check_attr_usage,
			     PARSE_OPT_KEEP_DASHDASH);
	index_init(&idx);
	if (repo.index_path) {
		ret = index_read_in(&idx, repo.index_path, &repo, 0, 0);
		if (ret < 0)
			die_lib(ret);	/* git dies reading it, with the reason */
		ret = sparse_index_after_read(&idx, &repo, SPARSE_INDEX_FULL |
					      SPARSE_INDEX_NO_PRESENT);
		if (ret < 0)
			die_lib(ret);
	}
	ret = repo_odb(&odb, &repo);
	if (ret < 0)
		die_lib(ret);
	ca.attrs = attr_set_new(&repo, &idx, odb,
				cached ? ATTR_INDEX : ATTR_CHECKIN);
	for (int i = 0; dashdash < 0 && i < argc; i++)
		if (!strcmp(argv[i], "--"))
			dashdash = i;
	if (ca.all) {
		if (dashdash >= 1)
			usage_msg_opt("Attributes and --all both specified",
				      check_attr_usage, opts);
		cnt = 0;
		filei = dashdash + 1;
	} else if (dashdash == 0) {
		usage_msg_opt("No attribute specified", check_attr_usage,
			      opts);
	} else if (dashdash < 0) {
		if (!argc)
			usage_msg_opt("No attribute specified",
				      check_attr_usage, opts);
		cnt = stdin_paths ? argc : 1;
		filei = cnt;
	} else {
		cnt = dashdash;
		filei = dashdash + 1;
	}
	if (stdin_paths) {
		if (filei < argc)
			usage_msg_opt("Can't specify files with --stdin",
				      check_attr_usage, opts);
	} else if (filei >= argc) {
		usage_msg_opt("No file specified", check_attr_usage, opts);
	}
	ca.ids = xcalloc(cnt + 1, sizeof(*ca.ids));
	for (int i = 0; i < cnt; i++) {
		int id = attr_intern(ca.attrs, argv[i], strlen(argv[i]));

		if (id < 0) {
			error("%s: not a valid attribute name", argv[i]);
			exit(255);
		}
		ca.ids[ca.nr++] = id;
	}
	if (stdin_paths)
		check_stdin(&ca);
	else
		for (int i = filei; i < argc; i++)
			check_file(&ca, argv[i]);
	attr_values_release(&ca.vals);
	attr_set_free(ca.attrs);
	free(ca.ids);
	strbuf_release(&ca.line);
	strbuf_release(&ca.full);
	index_release(&idx);
	repo_release(&repo);
	return 0;
}
