/*
 * t-path: path_verify (git's verify_path, checked case by case against
 * "git update-index --cacheinfo" of git 2.39) and path_normalize (git's
 * prefix_path for command-line paths), and the dot-file spellings git's
 * fsck refuses (path_is_hfs_dot, path_is_ntfs_dot, path_is_ntfs_dotgit).
 */
#include "tap.h"
#include "error.h"
#include "path.h"

#define F 0100644	/* a regular file */
#define L 0120000	/* a symlink */
#define NTFS PATH_PROTECT_NTFS
#define HFS PATH_PROTECT_HFS

static const struct {
	const char *path;
	unsigned mode;
	unsigned flags;
	int valid;
} verify_cases[] = {
	/* ordinary paths */
	{ "a", F, NTFS, 1 },
	{ "a/b", F, NTFS, 1 },
	{ "a/b/c/d/e", F, NTFS, 1 },
	{ ".a", F, NTFS, 1 },
	{ "...", F, NTFS, 1 },
	{ "a\\b", F, NTFS, 1 },
	{ "a\tb", F, NTFS, 1 },
	{ "a\nb", F, NTFS, 1 },
	{ "\377x", F, NTFS, 1 },
	{ "\303\251", F, NTFS, 1 },
	{ " .git", F, NTFS, 1 },
	{ "a/ .git", F, NTFS, 1 },
	/* almost .git */
	{ ".gitx", F, NTFS, 1 },
	{ "...git", F, NTFS, 1 },
	{ ".git~1", F, NTFS, 1 },
	{ ".git~", F, NTFS, 1 },
	{ "git~2", F, NTFS, 1 },
	{ "git~10", F, NTFS, 1 },
	{ "x/.gitignore", F, NTFS, 1 },
	/* empty, ".", "..", slashes */
	{ "", F, NTFS, 0 },
	{ "/a", F, NTFS, 0 },
	{ "/", F, NTFS, 0 },
	{ "a/", F, NTFS, 0 },
	{ "a//b", F, NTFS, 0 },
	{ ".", F, NTFS, 0 },
	{ "..", F, NTFS, 0 },
	{ "a/.", F, NTFS, 0 },
	{ "a/..", F, NTFS, 0 },
	{ "a/../b", F, NTFS, 0 },
	{ "a/./b", F, NTFS, 0 },
	{ "./a", F, NTFS, 0 },
	{ "../a", F, NTFS, 0 },
	/* .git in any case, anywhere */
	{ ".git", F, NTFS, 0 },
	{ ".git", F, 0, 0 },
	{ ".GIT", F, NTFS, 0 },
	{ ".Git/x", F, NTFS, 0 },
	{ ".git/config", F, NTFS, 0 },
	{ "a/.git", F, NTFS, 0 },
	{ "a/.GIT/b", F, NTFS, 0 },
	{ "a/.GIT/b", F, 0, 0 },
	/* NTFS aliases of .git */
	{ "git~1/x", F, NTFS, 0 },
	{ "GIT~1", F, NTFS, 0 },
	{ "x/git~1", F, NTFS, 0 },
	{ ".git.", F, NTFS, 0 },
	{ ".git..", F, NTFS, 0 },
	{ ".git ", F, NTFS, 0 },
	{ ".git. .", F, NTFS, 0 },
	{ "a/.git.", F, NTFS, 0 },
	{ ".git:x", F, NTFS, 0 },
	{ "a\\.git", F, NTFS, 0 },
	{ ".git\\foo", F, NTFS, 0 },
	{ "a\\.git\\b", F, NTFS, 0 },
	{ "a\\b\\git~1", F, NTFS, 0 },
	/* ... which are fine without NTFS protection */
	{ "git~1/x", F, 0, 1 },
	{ "GIT~1", F, 0, 1 },
	{ ".git.", F, 0, 1 },
	{ ".git ", F, 0, 1 },
	{ ".git:x", F, 0, 1 },
	{ "a\\.git", F, 0, 1 },
	{ ".git\\foo", F, 0, 1 },
	/* .gitmodules: only for symlinks */
	{ ".gitmodules", F, NTFS, 1 },
	{ "a/.gitmodules", F, NTFS, 1 },
	{ ".GITMODULES", F, NTFS, 1 },
	{ "gitmod~1", F, NTFS, 1 },
	{ ".gitmodules", L, NTFS, 0 },
	{ ".gitmodules", L, 0, 0 },
	{ "a/.gitmodules", L, NTFS, 0 },
	{ ".GITMODULES", L, NTFS, 0 },
	{ ".gitmodules.", L, NTFS, 0 },
	{ "a/.gitmodules ", L, NTFS, 0 },
	{ ".gitmodules:x", L, NTFS, 0 },
	{ "gitmod~1", L, NTFS, 0 },
	{ "gi7eba~1", L, NTFS, 0 },
	{ "gitmod~1", L, 0, 1 },
	{ ".gitmodules.", L, 0, 1 },
	{ ".gitmodulesx", L, NTFS, 1 },
	{ "a", L, NTFS, 1 },
	{ ".gitx", L, NTFS, 1 },
	/* HFS+ ignorable code points */
	{ ".g\342\200\214it", F, NTFS, 1 },
	{ ".g\342\200\214it", F, HFS, 0 },
	{ ".GIT\342\200\214", F, HFS, 0 },
	{ "a/\357\273\277.git/b", F, HFS, 0 },
	{ ".gitmodules\357\273\277", F, HFS, 1 },
	{ ".gitmodules\357\273\277", L, HFS, 0 },
	{ ".g\342\200\214itx", F, HFS, 1 },
};

static const struct {
	const char *prefix;
	const char *arg;
	const char *worktree;
	const char *want;	/* NULL: an error */
} normalize_cases[] = {
	{ "", "a", "/w", "a" },
	{ "", "./a", "/w", "a" },
	{ "", "a//b", "/w", "a/b" },
	{ "", "a/./b", "/w", "a/b" },
	{ "", "d/../n", "/w", "n" },
	{ "", "a/b/../../c", "/w", "c" },
	{ "", "a/b/..", "/w", "a/" },
	{ "", "a/.", "/w", "a/" },
	{ "", "a/./", "/w", "a/" },
	{ "", "a/", "/w", "a/" },
	{ "", ".", "/w", "" },
	{ "", "../x", "/w", NULL },
	{ "", "..", "/w", NULL },
	{ "", "a/../../x", "/w", NULL },
	{ "sub/", "a", "/w", "sub/a" },
	{ "sub/", "../a", "/w", "a" },
	{ "sub/", "..", "/w", "" },
	{ "sub/", ".", "/w", "sub/" },
	{ "sub/", "./a/./b", "/w", "sub/a/b" },
	{ "sub/", "../..", "/w", NULL },
	{ "sub/dir/", "../../a", "/w", "a" },
	{ "sub/dir/", "../../../a", "/w", NULL },
	{ "", "/w/a/b", "/w", "a/b" },
	{ "", "/w/./a", "/w", "a" },
	{ "", "/w", "/w", "" },
	{ "", "/w/", "/w", "" },
	{ "sub/", "/w/a", "/w", "a" },
	{ "", "//w//a/../b/", "/w", "b/" },
	{ "", "/w/..", "/w", NULL },
	{ "", "/..", "/w", NULL },
	/* outside: these leading directories exist and are not the work tree */
	{ "", "/usr/a", "/us", NULL },
	{ "", "/dev/nonexistent-dirc", "/w", NULL },
	{ "", "/a/b", "/", "a/b" },
	{ "", "/w/a", "/w/", "a" },
};

static void
test_normalize(void)
{
	struct strbuf out = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(normalize_cases); i++) {
		int ret;

		strbuf_addstr(&out, "junk");
		ret = path_normalize(&out, normalize_cases[i].prefix,
				     normalize_cases[i].arg,
				     normalize_cases[i].worktree);
		if (normalize_cases[i].want) {
			if (!is_int(ret, 0, "path_normalize(\"%s\", \"%s\") "
				    "succeeds", normalize_cases[i].prefix,
				    normalize_cases[i].arg))
				diag("error: %s", error_msg());
			is_str(out.buf, normalize_cases[i].want,
			       "path_normalize(\"%s\", \"%s\", \"%s\")",
			       normalize_cases[i].prefix,
			       normalize_cases[i].arg,
			       normalize_cases[i].worktree);
		} else {
			ok(ret < 0, "path_normalize(\"%s\", \"%s\", \"%s\") "
			   "fails", normalize_cases[i].prefix,
			   normalize_cases[i].arg,
			   normalize_cases[i].worktree);
			ok(ret == -E_INVALID && strstr(error_msg(),
				"is outside repository at"),
			   "... with \"'%s' is outside repository at '%s'\" "
			   "(got: %s)", normalize_cases[i].arg,
			   normalize_cases[i].worktree, error_msg());
		}
	}
	strbuf_release(&out);
}

static void
test_outside_message(void)
{
	struct strbuf out = STRBUF_INIT;

	path_normalize(&out, "", "../outside", "/path/to/repo");
	is_str(error_msg(), "'../outside' is outside repository at "
	       "'/path/to/repo'", "the message names the argument and the "
	       "work tree");
	is_int(out.len, 0, "out is empty after an error");
	strbuf_release(&out);
}

static void
test_invalid_path(void)
{
	struct strbuf out = STRBUF_INIT;
	size_t kept = 7;
	int ret;

	ret = path_normalize(&out, "", "/nonexistent-dirc-dir/a/b", "/w");
	is_int(ret, -E_NOTFOUND, "a missing leading directory is an error");
	is_str(error_msg(), "Invalid path '/nonexistent-dirc-dir': No such "
	       "file or directory", "... with git's message");
	is_int(out.len, 0, "out is empty after an error");
	ret = path_resolve(&out, &kept, "", "/usr/nonexistent-dirc-x", "/w");
	is_int(ret, 1, "path_resolve: outside is 1, not an error");
	ret = path_resolve(&out, &kept, "sub/dir/", "../a", "/w");
	is_int(ret, 0, "path_resolve of ../a in sub/dir/");
	is_str(out.buf, "sub/a", "... is sub/a");
	is_int(kept, 4, "... which keeps 4 bytes of the prefix");
	ret = path_resolve(&out, &kept, "sub/", "/w/sub/a", "/w");
	is_int(kept, 0, "an absolute path keeps nothing of the prefix");
	strbuf_release(&out);
}

static void
test_in_dir(void)
{
	ok(path_in_dir("a/b", 3, "a", 1), "a/b is in a");
	ok(!path_in_dir("ab", 2, "a", 1), "ab is not in a");
	ok(!path_in_dir("a", 1, "a", 1), "a is not in a");
	ok(path_in_dir("a", 1, "", 0), "everything is in the top");
	ok(path_in_dir("a/b/c", 5, "a/b", 3), "a/b/c is in a/b");
	ok(!path_in_dir("a/bc", 4, "a/b", 3), "a/bc is not in a/b");
}

/*
 * The dot-file spellings git's fsck refuses in tree entry names (its
 * is_hfs_dot*() and is_ntfs_dot*()).  For each name, "either of the two"
 * is what git 2.55's "hash-object -t tree" says of it as a symlink entry
 * (a directory entry for ".git").
 */
static const struct {
	const char *name, *word;
	int hfs, ntfs;
} dot_cases[] = {
	{ ".gitmodules", "gitmodules", 1, 1 },
	{ ".GITMODULES", "gitmodules", 1, 1 },
	{ ".gitmodules ", "gitmodules", 0, 1 },
	{ ".gitmodules...", "gitmodules", 0, 1 },
	{ ".gitmodules::$DATA", "gitmodules", 0, 1 },
	{ ".gitmodulesx", "gitmodules", 0, 0 },
	{ "gitmod~1", "gitmodules", 0, 1 },
	{ "GITMOD~4", "gitmodules", 0, 1 },
	{ "gitmod~5", "gitmodules", 0, 0 },
	{ "gi7eba~1", "gitmodules", 0, 1 },
	{ "gi7eba~9", "gitmodules", 0, 1 },
	{ "gi7eb~12", "gitmodules", 0, 1 },
	{ "gi7eba~0", "gitmodules", 0, 0 },
	{ ".git\342\200\214modules", "gitmodules", 1, 0 },
	{ "\357\273\277.gitmodules", "gitmodules", 1, 0 },
	{ ".gitignore", "gitignore", 1, 1 },
	{ "gi250a~1", "gitignore", 0, 1 },
	{ "gitign~1", "gitignore", 0, 1 },
	{ ".gitattributes", "gitattributes", 1, 1 },
	{ "gi7d29~1", "gitattributes", 0, 1 },
	{ ".mailmap", "mailmap", 1, 1 },
	{ "maba30~2", "mailmap", 0, 1 },
	{ "mailma~1", "mailmap", 0, 1 },
	{ "mailmap", "mailmap", 0, 0 },
	{ ".git", "git", 1, -1 },
	{ ".Git", "git", 1, -1 },
	{ ".g\342\200\215it", "git", 1, -1 },
	{ ".git/", "git", 1, -1 },
	{ ".gitx", "git", 0, -1 },
};

static const struct {
	const char *name;
	int dotgit;
} ntfs_dotgit_cases[] = {
	{ ".git", 1 }, { ".GIT", 1 }, { "git~1", 1 }, { "GIT~1", 1 },
	{ ".git.", 1 }, { ".git ", 1 }, { ".git. .", 1 }, { ".git:x", 1 },
	{ ".git\\x", 1 }, { ".git/x", 1 }, { "git~1 ", 1 },
	{ ".gitx", 0 }, { "git~2", 0 }, { "git~10", 0 }, { "x.git", 0 },
	{ ".git x", 0 },
};

static void
test_dot_names(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(dot_cases); i++) {
		is_int(path_is_hfs_dot(dot_cases[i].name, dot_cases[i].word),
		       dot_cases[i].hfs, "path_is_hfs_dot(\"%s\", %s)",
		       dot_cases[i].name, dot_cases[i].word);
		if (dot_cases[i].ntfs >= 0)
			is_int(path_is_ntfs_dot(dot_cases[i].name,
						dot_cases[i].word),
			       dot_cases[i].ntfs,
			       "path_is_ntfs_dot(\"%s\", %s)",
			       dot_cases[i].name, dot_cases[i].word);
	}
	for (size_t i = 0; i < ARRAY_SIZE(ntfs_dotgit_cases); i++)
		is_int(path_is_ntfs_dotgit(ntfs_dotgit_cases[i].name),
		       ntfs_dotgit_cases[i].dotgit, "path_is_ntfs_dotgit(\"%s\")",
		       ntfs_dotgit_cases[i].name);
}

int
main(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(verify_cases); i++)
		is_int(path_verify(verify_cases[i].path, verify_cases[i].mode,
				   verify_cases[i].flags),
		       verify_cases[i].valid,
		       "path_verify(\"%s\", %s, %s%s)", verify_cases[i].path,
		       verify_cases[i].mode == L ? "symlink" : "file",
		       verify_cases[i].flags & NTFS ? "NTFS" : "",
		       verify_cases[i].flags & HFS ? "HFS" : "");
	test_normalize();
	test_outside_message();
	test_invalid_path();
	test_in_dir();
	test_dot_names();
	return done_testing();
}
