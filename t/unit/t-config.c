/*
 * t-config: the config reader against git's own parser (each expectation
 * below is what "git config -f <file> --list" of git 2.39 reports, or
 * the line git names in "bad config line N"), typed values, keys, the
 * environment, and includes.
 */
#include "tap.h"
#include "config.h"
#include "error.h"
#include "strbuf.h"

#include <stdlib.h>
#include <unistd.h>

/*
 * Entries in order, "key=value" (or just "key" for an implicit true),
 * separated by '|'.
 */
static const struct {
	const char *text;
	const char *want;
} parse_cases[] = {
	{ "[core]\n\tbare = true\n", "core.bare=true" },
	{ "[Core]\n\tBare = True\n", "core.bare=True" },
	{ "[CORE]\n\tQUOTEPATH = off\n", "core.quotepath=off" },
	{ "[core]\n\tbare\n", "core.bare" },
	{ "[core]\n\tbare\n\tx = 1\n", "core.bare|core.x=1" },
	{ "[remote \"Origin\"]\n\tURL = x\n", "remote.Origin.url=x" },
	{ "[Remote.Origin]\n\turl = x\n", "remote.origin.url=x" },
	{ "[a.B \"C\"]\nk=v\n", "a.b.C.k=v" },
	{ "[a \"b\\\"c\\\\d\"]\n\tk = v\n", "a.b\"c\\d.k=v" },
	{ "[a \"sub.with.dots\"]\nk=v\n", "a.sub.with.dots.k=v" },
	{ "[a \"\"]\nk=v\n", "a..k=v" },
	{ "[a   \"b\"]\nk=v\n", "a.b.k=v" },
	{ "[s]\n\tk = \"  a  b  \"\n", "s.k=  a  b  " },
	{ "[s]\n\tk = a \"b ; c\" d\n", "s.k=a b ; c d" },
	{ "[s]\n\tk = \"a\"b\" c\"\n", "s.k=ab c" },
	{ "[s]\n\tk = a   b\n", "s.k=a   b" },
	{ "[s]\n\tk = a\t\tb\n", "s.k=a  b" },
	{ "[s]\n\tk =   lead and trail  \t\n", "s.k=lead and trail" },
	{ "[s]\n\tk = a\\tb\\\\c\\\"d\n", "s.k=a\tb\\c\"d" },
	{ "# c\n; c\n[s]\n\tk = v # trailing\n\tl = \"v # kept\" ; gone\n",
	  "s.k=v|s.l=v # kept" },
	{ "[s]\n\tk = a\\\n  b\n", "s.k=a  b" },
	{ "[s]\n\tk = \"a\\\nb\"\n", "s.k=ab" },
	{ "[s] k = v\n", "s.k=v" },
	{ "[s]k=v\n", "s.k=v" },
	{ "[s]\n\tk-1 = v\n\tK2=w\n", "s.k-1=v|s.k2=w" },
	{ "[s]\r\n\tk = v\r\n", "s.k=v" },
	{ "\357\273\277[s]\n\tk = v\n", "s.k=v" },
	{ "[s]\n\tk = v", "s.k=v" },
	{ "[s]\n\tk", "s.k" },
	{ "[s]\n\tx = a\\", "s.x=a" },
	{ "[s]\nk=1\nk=2\n", "s.k=1|s.k=2" },
	{ "[s]\n\tk =\n\tl = \"\"\n", "s.k=|s.l=" },
	{ "[s]\na=1\n[t]\na=2\n[S]\nb=3\n", "s.a=1|t.a=2|s.b=3" },
	{ "[s.]\nk=v\n", "s..k=v" },
	{ "", "" },
	{ "\n\n# only comments\n", "" },
	{ "[s]\n", "" },
};

/* The line git names in "bad config line N". */
static const struct {
	const char *text;
	int line;
} bad_cases[] = {
	{ "[s]\n\tfoo bar\n", 2 },
	{ "[s]\n\tk = a\\q\n", 2 },
	{ "[s]\n\n\n\t1k = 2\n", 4 },
	{ "[s s]\n", 1 },
	{ "[]\n", 1 },
	{ "[s \"sub\" ]\n", 1 },
	{ "[s]\n\tk-1 = 1\n\tk.z = 1\n", 3 },
	{ "[s]\n\tk = 1\n\t_z = 3\n", 3 },
	{ "[s \"sub\"\n", 2 },
	{ "[s]\n\tk ; c\n", 2 },
	{ "[s]\n\tk # c\n", 2 },
	{ "[s\n", 1 },
	{ "[s]\n\tk = v\n[bad\n", 3 },
	{ "[s]\n\tk = \"abc\n", 2 },
	{ "[s \"sub\n", 1 },
	{ "[s]\n\tb\n\tk = \"unterminated\\\"\n", 3 },
};

static void
format_entries(struct strbuf *out, const struct config *cfg)
{
	strbuf_reset(out);
	for (size_t i = 0; i < cfg->nr; i++) {
		if (i)
			strbuf_addch(out, '|');
		strbuf_addstr(out, cfg->entries[i].key);
		if (cfg->entries[i].value) {
			strbuf_addch(out, '=');
			strbuf_addstr(out, cfg->entries[i].value);
		}
	}
}

static void
test_parse(void)
{
	struct strbuf got = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(parse_cases); i++) {
		struct config cfg = CONFIG_INIT;
		int ret = config_parse_buffer(&cfg, parse_cases[i].text,
					      strlen(parse_cases[i].text),
					      "test.cfg", 0);

		if (!is_int(ret, 0, "parse case %zu succeeds", i))
			diag("error: %s", error_msg());
		format_entries(&got, &cfg);
		is_str(got.buf, parse_cases[i].want, "parse case %zu: entries", i);
		config_release(&cfg);
	}
	strbuf_release(&got);
}

static void
test_escapes(void)
{
	static const char text[] = "[s]\n\tk = a\\nb\\tc\\bd\n";
	struct config cfg = CONFIG_INIT;
	const char *v = NULL;

	ok(config_parse_buffer(&cfg, text, strlen(text), "x", 0) == 0 &&
	   config_get(&cfg, "s.k", &v) == 1, "escapes \\n \\t \\b");
	is_str(v, "a\nb\tc\bd", "... decode to newline, tab, backspace");
	config_release(&cfg);
}

static void
test_bad_lines(void)
{
	char want[128];

	for (size_t i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		struct config cfg = CONFIG_INIT;
		int ret = config_parse_buffer(&cfg, bad_cases[i].text,
					      strlen(bad_cases[i].text),
					      "/some/dir/config", 0);

		is_int(ret, -E_CORRUPT, "bad case %zu is an error", i);
		snprintf(want, sizeof(want), "bad config line %d in file "
			 "/some/dir/config", bad_cases[i].line);
		is_str(error_msg(), want, "bad case %zu names line %d", i,
		       bad_cases[i].line);
		config_release(&cfg);
		error_clear();
	}
}

static void
test_get(void)
{
	struct config cfg = CONFIG_INIT;
	const char *v = "untouched";
	long n = 7;
	int b = 7;

	ok(config_get(&cfg, "core.bare", &v) == 0 && !strcmp(v, "untouched"),
	   "config_get of a missing key: 0, value untouched");
	config_add(&cfg, "Core.Bare", "false");
	config_add(&cfg, "core.bare", "true");
	config_add(&cfg, "core.compression", "9");
	config_add(&cfg, "core.flag", NULL);
	config_add(&cfg, "Remote.Origin.URL", "u");
	ok(config_get(&cfg, "core.bare", &v) == 1 && !strcmp(v, "true"),
	   "config_get: the last value wins");
	ok(config_get(&cfg, "remote.Origin.url", &v) == 1 && !strcmp(v, "u"),
	   "config_add canonicalises the key, subsection kept");
	ok(config_get(&cfg, "remote.origin.url", &v) == 0,
	   "... so the subsection is case-sensitive");
	ok(config_get(&cfg, "core.flag", &v) == 1 && v == NULL,
	   "an implicit true has a NULL value");
	ok(config_get_bool(&cfg, "core.flag", &b) == 1 && b == 1,
	   "... which is true as a boolean");
	ok(config_get_bool(&cfg, "core.bare", &b) == 1 && b == 1,
	   "config_get_bool");
	ok(config_get_long(&cfg, "core.compression", &n) == 1 && n == 9,
	   "config_get_long");
	b = 7;
	n = 7;
	ok(config_get_bool(&cfg, "core.missing", &b) == 0 && b == 7,
	   "config_get_bool of a missing key: 0, untouched");
	ok(config_get_long(&cfg, "core.missing", &n) == 0 && n == 7,
	   "config_get_long of a missing key: 0, untouched");
	ok(config_get_string(&cfg, "core.flag", &v) < 0,
	   "config_get_string of an implicit true is an error");

	config_add(&cfg, "core.compression", "abc");
	is_int(config_get_long(&cfg, "core.compression", &n), -E_INVALID,
	       "a bad number");
	is_str(error_msg(), "bad numeric config value 'abc' for "
	       "'core.compression': invalid unit", "... git's message");
	config_add(&cfg, "core.compression", "99999999999999999999");
	config_get_long(&cfg, "core.compression", &n);
	is_str(error_msg(), "bad numeric config value '99999999999999999999' "
	       "for 'core.compression': out of range", "out of range");
	config_add(&cfg, "core.bare", "maybe");
	is_int(config_get_bool(&cfg, "core.bare", &b), -E_INVALID,
	       "a bad boolean");
	is_str(error_msg(), "bad boolean config value 'maybe' for 'core.bare'",
	       "... git's message");
	config_release(&cfg);
	is_int(cfg.nr, 0, "config_release empties the list");
}

static const struct {
	const char *v;
	int want;
} bools[] = {
	{ "true", 1 }, { "TRUE", 1 }, { "yes", 1 }, { "On", 1 }, { "1", 1 },
	{ "2", 1 }, { "-1", 1 }, { "1k", 1 }, { "0x10", 1 },
	{ "false", 0 }, { "False", 0 }, { "no", 0 }, { "OFF", 0 }, { "0", 0 },
	{ "", 0 }, { "0k", 0 }, { "00", 0 },
	{ "maybe", -1 }, { "truex", -1 }, { " true", -1 }, { "true ", -1 },
	{ "1x", -1 }, { "y", -1 }, { "t", -1 },
};

static const struct {
	const char *v;
	int ok;
	long want;
} longs[] = {
	{ "0", 1, 0 }, { "10", 1, 10 }, { "-5", 1, -5 }, { "+5", 1, 5 },
	{ "1k", 1, 1024 }, { "1K", 1, 1024 }, { "2m", 1, 2097152 },
	{ "2M", 1, 2097152 }, { "1g", 1, 1073741824 }, { "-1k", 1, -1024 },
	{ "0x10", 1, 16 }, { "010", 1, 8 },
	{ "9223372036854775807", 1, 9223372036854775807L },
	{ "", 0, 0 }, { "abc", 0, 0 }, { "1x", 0, 0 }, { "1kb", 0, 0 },
	{ "k", 0, 0 }, { " 1", 1, 1 }, { "1 ", 0, 0 },
	{ "99999999999999999999", 0, 0 }, { "8589934592g", 0, 0 },
	{ "9223372036854775807k", 0, 0 },
};

static void
test_values(void)
{
	config_parse_bool(NULL);
	is_int(config_parse_bool(NULL), 1, "config_parse_bool(NULL): true");
	for (size_t i = 0; i < ARRAY_SIZE(bools); i++)
		is_int(config_parse_bool(bools[i].v), bools[i].want,
		       "config_parse_bool(\"%s\")", bools[i].v);
	for (size_t i = 0; i < ARRAY_SIZE(longs); i++) {
		long n = -12345;
		int ret = config_parse_long(longs[i].v, &n);

		if (longs[i].ok) {
			is_int(ret, 0, "config_parse_long(\"%s\") succeeds",
			       longs[i].v);
			is_int(n, longs[i].want, "config_parse_long(\"%s\")",
			       longs[i].v);
		} else {
			is_int(ret, -1, "config_parse_long(\"%s\") fails",
			       longs[i].v);
		}
	}
}

static const struct {
	const char *key;
	const char *want;	/* NULL: invalid */
} keys[] = {
	{ "core.bare", "core.bare" },
	{ "Core.Bare", "core.bare" },
	{ "Remote.Origin.URL", "remote.Origin.url" },
	{ "a.Sub.With.Dots.K", "a.Sub.With.Dots.k" },
	{ "s.k-1", "s.k-1" },
	{ "s-1.k", "s-1.k" },
	{ "foo", NULL },
	{ "", NULL },
	{ ".foo", NULL },
	{ "foo.", NULL },
	{ "a.1b", NULL },
	{ "a.b_c", NULL },
	{ "a_b.c", NULL },
	{ "a.s\nb.c", NULL },
};

static void
test_keys(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		char *out = NULL;
		int ret = config_canon_key(&out, keys[i].key, strlen(keys[i].key));

		if (keys[i].want) {
			is_int(ret, 0, "config_canon_key(\"%s\") is valid",
			       keys[i].key);
			is_str(out, keys[i].want, "config_canon_key(\"%s\")",
			       keys[i].key);
		} else {
			ok(ret < 0 && out == NULL, "config_canon_key(\"%s\") "
			   "is invalid", keys[i].key);
		}
		free(out);
	}
	{
		char *out = NULL;

		config_canon_key(&out, "foo", 3);
		is_str(error_msg(), "key does not contain a section: foo",
		       "git's message for a key without a section");
	}
}

static void
test_env(void)
{
	struct config cfg = CONFIG_INIT;
	struct strbuf got = STRBUF_INIT;

	setenv("GIT_CONFIG_PARAMETERS",
	       "'core.a'='1' 'Core.B=2' 'core.c' 'core.d'='it'\\''s'", 1);
	unsetenv("GIT_CONFIG_COUNT");
	is_int(config_load_env(&cfg), 0, "GIT_CONFIG_PARAMETERS");
	format_entries(&got, &cfg);
	is_str(got.buf, "core.a=1|core.b=2|core.c|core.d=it's",
	       "... both quoting styles, an implicit true, a quote");
	config_release(&cfg);

	unsetenv("GIT_CONFIG_PARAMETERS");
	setenv("GIT_CONFIG_COUNT", "2", 1);
	setenv("GIT_CONFIG_KEY_0", "Core.X", 1);
	setenv("GIT_CONFIG_VALUE_0", "a b", 1);
	setenv("GIT_CONFIG_KEY_1", "s.Sub.k", 1);
	setenv("GIT_CONFIG_VALUE_1", "", 1);
	is_int(config_load_env(&cfg), 0, "GIT_CONFIG_COUNT");
	format_entries(&got, &cfg);
	is_str(got.buf, "core.x=a b|s.Sub.k=", "... its pairs, in order");
	config_release(&cfg);

	setenv("GIT_CONFIG_COUNT", "3", 1);
	ok(config_load_env(&cfg) < 0, "GIT_CONFIG_COUNT with a key missing");
	is_str(error_msg(), "missing config key GIT_CONFIG_KEY_2",
	       "... git's message");
	config_release(&cfg);
	setenv("GIT_CONFIG_COUNT", "x", 1);
	ok(config_load_env(&cfg) < 0, "a bogus GIT_CONFIG_COUNT");
	is_str(error_msg(), "bogus count in GIT_CONFIG_COUNT", "... git's message");
	config_release(&cfg);
	unsetenv("GIT_CONFIG_COUNT");
	setenv("GIT_CONFIG_PARAMETERS", "bogus", 1);
	ok(config_load_env(&cfg) < 0, "a bogus GIT_CONFIG_PARAMETERS");
	is_str(error_msg(), "bogus format in GIT_CONFIG_PARAMETERS",
	       "... git's message");
	config_release(&cfg);
	unsetenv("GIT_CONFIG_PARAMETERS");
	strbuf_release(&got);
}

static void
write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	if (!fp)
		return;
	fputs(text, fp);
	fclose(fp);
}

/* remove the files names[] (NULL-terminated) in dir, then dir */
static void
remove_dir(const char *dir, const char **names)
{
	char path[256];

	for (; *names; names++) {
		snprintf(path, sizeof(path), "%s/%s", dir, *names);
		unlink(path);
	}
	rmdir(dir);
}

static void
test_files(void)
{
	char dir[] = "/tmp/t-config.XXXXXX";
	char path[512], text[1024];
	struct config cfg = CONFIG_INIT;
	struct strbuf got = STRBUF_INIT;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	write_file(dir, "inc", "[core]\n\tfrom = inc\n");
	write_file(dir, "inc2", "[include]\n\tpath = inc\n[core]\n\tfrom = inc2\n");
	snprintf(text, sizeof(text), "[core]\n\tfirst = 1\n[include]\n"
		 "\tpath = inc\n\tpath = missing\n\tpath = %s/inc2\n"
		 "[core]\n\tlast = 1\n", dir);
	write_file(dir, "main", text);
	write_file(dir, "loop", "[include]\n\tpath = loop\n");
	write_file(dir, "bad", "[core]\n\tok = 1\n\tnot ok\n");

	snprintf(path, sizeof(path), "%s/main", dir);
	is_int(config_load_file(&cfg, path, 0), 0, "a file with includes");
	format_entries(&got, &cfg);
	is_str(got.buf, "core.first=1|core.from=inc|core.from=inc|"
	       "core.from=inc2|core.last=1",
	       "includes are read in place, relative ones next to the file, "
	       "missing ones skipped");
	config_release(&cfg);

	snprintf(path, sizeof(path), "%s/nonexistent", dir);
	is_int(config_load_file(&cfg, path, 0), 0, "a missing file is no error");
	is_int(cfg.nr, 0, "... and adds nothing");

	snprintf(path, sizeof(path), "%s/loop", dir);
	ok(config_load_file(&cfg, path, 0) < 0, "an include loop is an error");
	ok(strstr(error_msg(), "exceeded maximum include depth") != NULL,
	   "... git's message: %s", error_msg());
	config_release(&cfg);

	snprintf(path, sizeof(path), "%s/bad", dir);
	is_int(config_load_file(&cfg, path, 0), -E_CORRUPT, "a bad file");
	snprintf(text, sizeof(text), "bad config line 3 in file %s", path);
	is_str(error_msg(), text, "... names the line and the file");
	config_release(&cfg);

	{
		static const char rel[] = "[include]\n\tpath = inc\n";

		ok(config_parse_buffer(&cfg, rel, strlen(rel), NULL, 0) < 0,
		   "a relative include from text with no file is an error");
		config_release(&cfg);
	}

	remove_dir(dir, (const char *[]){ "inc", "inc2", "main", "loop", "bad",
					  NULL });
	strbuf_release(&got);
}

static int
fake_head(struct strbuf *out, void *data)
{
	int *calls = data;

	(*calls)++;
	strbuf_addstr(out, "topic/one");
	return 1;
}

static void
test_conditional(void)
{
	char dir[] = "/tmp/t-config.XXXXXX";
	char path[512], text[2048], gitdir[600];
	struct config cfg = CONFIG_INIT;
	struct config_cond cond = CONFIG_COND_INIT;
	struct strbuf got = STRBUF_INIT;
	int calls = 0;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(gitdir, sizeof(gitdir), "%s/repo/.git", dir);
	write_file(dir, "a", "[x]\n\tv = a\n");
	write_file(dir, "b", "[x]\n\tv = b\n");
	write_file(dir, "url", "[remote \"o\"]\n\turl = https://h/r\n");
	snprintf(text, sizeof(text),
		 "[x]\n\tv = 0\n"
		 "[includeIf \"gitdir:repo/\"]\n\tpath = a\n"
		 "[includeIf \"gitdir:other/\"]\n\tpath = b\n"
		 "[includeIf \"onbranch:topic/\"]\n\tpath = b\n"
		 "[includeIf \"onbranch:main\"]\n\tpath = a\n"
		 "[includeIf \"hasconfig:remote.*.url:https://h/**\"]\n"
		 "\tpath = a\n"
		 "[includeIf \"unknown:x\"]\n\tpath = b\n"
		 "[remote \"up\"]\n\turl = https://h/x\n");
	write_file(dir, "main", text);
	snprintf(path, sizeof(path), "%s/main", dir);
	is_int(config_load_file(&cfg, path, 0), 0, "conditional includes");
	is_int((int)cfg.pending, 5, "... five kept pending, unread");
	ok(!cfg.entries[6].pending, "... an unknown condition is not");
	cond.gitdir = gitdir;
	cond.head_branch = fake_head;
	cond.head_data = &calls;
	is_int(config_resolve_includes(&cfg, &cond), 0, "resolved");
	is_int((int)cfg.pending, 0, "... nothing pending");
	is_int(calls, 1, "... HEAD read once for two onbranch: conditions");
	format_entries(&got, &cfg);
	is_str(got.buf, "x.v=0|includeif.gitdir:repo/.path=a|x.v=a|"
	       "includeif.gitdir:other/.path=b|"
	       "includeif.onbranch:topic/.path=b|x.v=b|"
	       "includeif.onbranch:main.path=a|"
	       "includeif.hasconfig:remote.*.url:https://h/**.path=a|x.v=a|"
	       "includeif.unknown:x.path=b|remote.up.url=https://h/x",
	       "each included file in place, after its includeIf");
	config_release(&cfg);
	config_cond_release(&cond);

	/* a URL in a file an includeIf brings in, a hasconfig: tested */
	snprintf(text, sizeof(text),
		 "[includeIf \"gitdir:repo/\"]\n\tpath = url\n"
		 "[includeIf \"hasconfig:remote.*.url:nothing\"]\n"
		 "\tpath = a\n");
	write_file(dir, "main", text);
	cond.gitdir = gitdir;
	is_int(config_load_file(&cfg, path, 0), 0, "a URL in an includeIf");
	ok(config_resolve_includes(&cfg, &cond) < 0, "... is fatal");
	ok(strstr(error_msg(), "remote URLs cannot be configured") != NULL,
	   "... git's message: %s", error_msg());
	config_release(&cfg);
	config_cond_release(&cond);

	/* no repository: no gitdir: condition holds */
	write_file(dir, "main", "[includeIf \"gitdir:**\"]\n\tpath = a\n");
	is_int(config_load_file(&cfg, path, 0), 0, "no repository");
	is_int(config_resolve_includes(&cfg, &cond), 0, "... resolved");
	is_int((int)cfg.nr, 1, "... and nothing included");
	config_release(&cfg);
	config_cond_release(&cond);

	remove_dir(dir, (const char *[]){ "a", "b", "url", "main", NULL });
	strbuf_release(&got);
}

int
main(void)
{
	test_parse();
	test_escapes();
	test_bad_lines();
	test_get();
	test_values();
	test_keys();
	test_env();
	test_files();
	test_conditional();
	return done_testing();
}
