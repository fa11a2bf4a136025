/*
 * t-config-write: "set key = value" in a config file, against git.  Each
 * expectation is the file "git config -f <file> <key> <value>" of git
 * 2.39 leaves behind for the text before it (a NULL result: git refuses).
 * Also: the file's mode is kept, a held lock is refused, and several
 * values are refused with the file untouched.
 */
#include "tap.h"
#include "config-write.h"
#include "error.h"
#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct {
	const char *text, *key, *value;
	int git_code;
	const char *want;
} cases[] = {
	{ "",
	  "core.filemode", "false", 0,
	  "[core]\n\tfilemode = false\n" },
	{ "[core]",
	  "core.filemode", "false", 0,
	  "[core]\n\tfilemode = false\n" },
	{ "[core]\n",
	  "core.filemode", "false", 0,
	  "[core]\n\tfilemode = false\n" },
	{ "[Core]\n",
	  "core.filemode", "false", 0,
	  "[Core]\n\tfilemode = false\n" },
	{ "[core]\n\tbare = x\n[user]\n\tname = y\n",
	  "core.filemode", "true", 0,
	  "[core]\n\tbare = x\n\tfilemode = true\n[user]\n\tname = y\n" },
	{ "[core]\n\tbare = x\n# comment\n\n[user]\n\tname = y\n",
	  "core.filemode", "true", 0,
	  "[core]\n\tbare = x\n\tfilemode = true\n# comment\n\n[user]\n\tname = y\n" },
	{ "[core]\n  Bare=true ; comment\n\tfoo = 1\n",
	  "core.bare", "false", 0,
	  "[core]\n\tbare = false\n\tfoo = 1\n" },
	{ "[core]\nbare",
	  "core.bare", "false", 0,
	  "[core]\n\tbare = false\n" },
	{ "[core] bare = 1\n",
	  "core.bare", "false", 0,
	  "[core]\n\tbare = false\n" },
	{ "[core] bare = 1",
	  "core.filemode", "false", 0,
	  "[core] bare = 1\n\tfilemode = false\n" },
	{ "[core \"x\"]\n",
	  "core.filemode", "false", 0,
	  "[core \"x\"]\n[core]\n\tfilemode = false\n" },
	{ "[core]\n\tbare = 1 \\\n  continued\n\tx = 2\n",
	  "core.bare", "0", 0,
	  "[core]\n\tbare = 0\n\tx = 2\n" },
	{ "[core]\n\tbare = 1\n[core]\n",
	  "core.bare", "0", 0,
	  "[core]\n\tbare = 0\n[core]\n" },
	{ "[core]\n\ta=1\n[user]\n\tn=y\n[core]\n\tb=2\n[x]\n",
	  "core.c", "3", 0,
	  "[core]\n\ta=1\n[user]\n\tn=y\n[core]\n\tb=2\n\tc = 3\n[x]\n" },
	{ "[core]\n# c\n\tbare = 1\n",
	  "core.bare", "2", 0,
	  "[core]\n# c\n\tbare = 2\n" },
	{ "[core]\n\tbare = 1 # x\n  # y\n",
	  "core.bare", "2", 0,
	  "[core]\n\tbare = 2\n  # y\n" },
	{ "[core]\n\tbare\n",
	  "core.bare", "2", 0,
	  "[core]\n\tbare = 2\n" },
	{ "[core]\n\tbare = \"a;b\"\n",
	  "core.bare", "x;y", 0,
	  "[core]\n\tbare = \"x;y\"\n" },
	{ "",
	  "core.x", " a", 0,
	  "[core]\n\tx = \" a\"\n" },
	{ "",
	  "core.x", "a ", 0,
	  "[core]\n\tx = \"a \"\n" },
	{ "",
	  "core.x", "a#b", 0,
	  "[core]\n\tx = \"a#b\"\n" },
	{ "",
	  "core.x", "tab\there \"q\" back\\slash\nnl", 0,
	  "[core]\n\tx = tab\\there \\\"q\\\" back\\\\slash\\nnl\n" },
	{ "[user]\n\tname = x\n",
	  "receive.denyNonFastforwards", "true", 0,
	  "[user]\n\tname = x\n[receive]\n\tdenyNonFastforwards = true\n" },
	{ "[core]\r\n\tbare = 1\r\n[user]\r\n",
	  "core.bare", "0", 0,
	  "[core]\r\n\tbare = 0\n[user]\r\n" },
	{ "[core]\r\n\tbare = 1\r\n[user]\r\n",
	  "core.x", "0", 0,
	  "[core]\r\n\tbare = 1\r\n\tx = 0\n[user]\r\n" },
	{ "\357\273\277[core]\n\tbare = 1\n",
	  "core.bare", "0", 0,
	  "\357\273\277[core]\n\tbare = 0\n" },
	{ "[remote \"Origin\"]\n\turl = a\n",
	  "remote.Origin.url", "b", 0,
	  "[remote \"Origin\"]\n\turl = b\n" },
	{ "[remote \"origin\"]\n\turl = a\n",
	  "remote.Origin.url", "b", 0,
	  "[remote \"origin\"]\n\turl = a\n[remote \"Origin\"]\n\turl = b\n" },
	{ "[Remote.Origin]\n\turl = a\n",
	  "remote.origin.pushurl", "b", 0,
	  "[Remote.Origin]\n\turl = a\n\tpushurl = b\n" },
	{ "[a \"b\\\"c\"]\n",
	  "a.b\"c.k", "v", 0,
	  "[a \"b\\\"c\"]\n\tk = v\n" },
	{ "; only a comment",
	  "core.bare", "true", 0,
	  "; only a comment\n[core]\n\tbare = true\n" },
	{ "[core]\n\tbare = 1\n\n\n# trailing\n",
	  "core.filemode", "true", 0,
	  "[core]\n\tbare = 1\n\tfilemode = true\n\n\n# trailing\n" },
	{ "[core]\n\tbare = 1\n[other]\n\tx = 1\n[core]\n\tbare\n",
	  "core.x", "1", 0,
	  "[core]\n\tbare = 1\n[other]\n\tx = 1\n[core]\n\tbare\n\tx = 1\n" },
	{ "[include]\n\tpath = nowhere\n",
	  "include.path", "x", 0,
	  "[include]\n\tpath = x\n" },
	{ "[core]\n\tBARE = 1\n",
	  "core.bare", "true", 0,
	  "[core]\n\tbare = true\n" },
	{ "[core]\n\tbare = x\n[core]\n\tbare = y\n",
	  "core.bare", "true", 5,
	  NULL },
	{ "[core]\n\tbare = 1\n\tbare = 2\n",
	  "core.bare", "0", 5,
	  NULL },
	{ "[core]\n\tfilemode = true\n\tbare = false\n",
	  "core.repositoryformatversion", "0", 0,
	  "[core]\n\tfilemode = true\n\tbare = false\n\trepositoryformatversion = 0\n" },
};

static char dir[] = "/tmp/t-config-write.XXXXXX";

static int
put(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	if (!fp)
		return -1;
	fputs(text, fp);
	return fclose(fp);
}

static void
test_cases(void)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/config", dir);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct strbuf got = STRBUF_INIT;
		int ret;

		if (put(path, cases[i].text) < 0) {
			ok(0, "write %s", path);
			continue;
		}
		ret = config_write_set(path, cases[i].key, cases[i].value);
		if (strbuf_read_file(&got, path) < 0)
			error_clear();
		if (!cases[i].git_code) {
			if (!is_int(ret, 0, "case %zu: set %s", i, cases[i].key))
				diag("%s", error_msg());
			is_str(got.buf, cases[i].want, "case %zu: as git", i);
		} else {
			ok(ret == -E_CONFLICT, "case %zu: refused as git", i);
			is_str(got.buf, cases[i].text, "case %zu: untouched", i);
		}
		strbuf_release(&got);
	}
	unlink(path);
}

static void
test_files(void)
{
	char path[512], lock[600];
	struct strbuf got = STRBUF_INIT;
	struct stat st;

	snprintf(path, sizeof(path), "%s/new", dir);
	is_int(config_write_set(path, "core.bare", "true"), 0,
	       "a missing file is created");
	if (strbuf_read_file(&got, path) < 0)
		error_clear();
	is_str(got.buf, "[core]\n\tbare = true\n", "... with the section");
	is_int(config_write_count(path, "core.bare"), 1, "... one value");
	is_int(config_write_count(path, "Core.Other"), 0, "... none other");

	chmod(path, 0600);
	is_int(config_write_set(path, "core.bare", "false"), 0, "rewrite");
	ok(!stat(path, &st) && (st.st_mode & 07777) == 0600,
	   "... the mode is kept");

	snprintf(lock, sizeof(lock), "%s.lock", path);
	put(lock, "");
	ok(config_write_set(path, "core.bare", "true") == -E_LOCKED,
	   "a held lock is refused");
	snprintf(lock, sizeof(lock), "could not lock config file %s: File "
		 "exists", path);
	is_str(error_msg(), lock, "... with git's message");
	snprintf(lock, sizeof(lock), "%s.lock", path);
	unlink(lock);
	strbuf_release(&got);
	unlink(path);
}

int
main(void)
{
	if (!mkdtemp(dir))
		skip_all("mkdtemp failed");
	test_cases();
	test_files();
	rmdir(dir);
	return done_testing();
}
