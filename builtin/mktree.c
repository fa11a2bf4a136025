/*
 * mktree: read ls-tree output (one directory level) on standard input
 * and write the tree object it describes (lib/mktree.h), printing its
 * id; with --batch, one tree per group of lines, groups separated by a
 * blank line, each id printed (and flushed) as its tree is written.
 *
 * Bad input is fatal at the first bad line, as in git: nothing is
 * written for the tree being read (with --batch, the trees before it
 * are written and printed).  Arguments that are not options are
 * ignored, as git ignores them.
 */
#include "builtin.h"
#include "mktree.h"
#include "odb.h"
#include "parse-options.h"
#include "repo.h"
#include "strbuf.h"

const char *const mktree_usage[] = {
	"dirc mktree [-z] [--missing] [--batch]",
	NULL,
};

int
cmd_mktree(int argc, const char **argv)
{
	struct repo repo;
	struct odb *odb;
	struct mktree mt;
	struct strbuf line = STRBUF_INIT;
	struct object_id oid;
	int nul = 0, missing = 0, batch = 0, eof = 0, ret;
	unsigned flags = 0;
	struct option opts[] = {
		OPT_BOOL('z', NULL, &nul, "input is NUL terminated"),
		OPT_BOOL(0, "missing", &missing, "allow missing objects"),
		OPT_BOOL(0, "batch", &batch, "allow creation of more than one "
			 "tree"),
		OPT_END(),
	};

	if (argc == 2 && !strcmp(argv[1], "-h"))
		usage_with_options_to(mktree_usage, opts, 0, 129);
	ret = repo_open(&repo, 0);
	if (ret < 0)
		die_lib(ret);
	parse_options(argc, argv, opts, mktree_usage, 0);
	ret = repo_odb(&odb, &repo);
	if (ret < 0)
		die_lib(ret);
	if (nul)
		flags |= MKTREE_NUL;
	if (missing)
		flags |= MKTREE_MISSING;

	mktree_init(&mt);
	while (!eof) {
		size_t lines = 0;

		for (;;) {
			if (strbuf_getdelim(&line, stdin, nul ? '\0' : '\n')) {
				eof = 1;
				break;
			}
			/* a line is read up to its first NUL, as git reads it */
			if (!line.buf[0]) {
				if (batch)
					break;
				die("input format error: (blank line only "
				    "valid in batch mode)");
			}
			ret = mktree_add_line(&mt, odb, line.buf, flags);
			if (ret < 0)
				die_lib(ret);
			lines++;
		}
		/* a last blank line (or none) ends the input, not a tree */
		if (batch && eof && !lines)
			break;
		ret = mktree_write(&oid, &mt, odb);
		if (ret < 0)
			die_lib(ret);
		printf("%s\n", oid_to_hex(&oid));
		fflush(stdout);
	}
	mktree_release(&mt);
	strbuf_release(&line);
	repo_release(&repo);
	return 0;
}
