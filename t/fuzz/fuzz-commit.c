/*
 * fuzz-commit: a commit (or tag) object's content — the headers dirc
 * reads (commit_parse: tree and parents, as rev-parse and "cat-file
 * <type>" peel), hash-object's format checks (commit_check, tag_check,
 * and git 2.55's fsck checks, which must accept no more than those),
 * the UTF-8 rules applied to messages, and the dates of the author and
 * committer lines (date_parse, which reads GIT_*_DATE in git's formats).
 *
 * Invariants checked:
 *   - a commit that passes commit_check() parses, with one parent per
 *     "parent" line;
 *   - utf8_repair() leaves valid UTF-8 alone and makes anything valid,
 *     and repairing twice changes nothing more;
 *   - a date that parses, written as "@<epoch> <+hhmm>", parses again
 *     to the same time and zone.
 */
#include "fuzz.h"

#include "commit.h"
#include "date.h"
#include "error.h"
#include "fsck.h"
#include "tree.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("TZ", "UTC", 1);	/* date_parse uses the local zone */
	return 0;
}

static size_t
count_parents(const char *p, const char *end)
{
	size_t n = 0;

	/* after "tree <hex>\n", each "parent <hex>\n" line */
	p += 5 + HASH_HEXSZ + 1;
	while (end - p >= 7 + HASH_HEXSZ + 1 && !memcmp(p, "parent ", 7)) {
		n++;
		p += 7 + HASH_HEXSZ + 1;
	}
	return n;
}

static void
check_date(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	long long epoch, epoch2;
	int tz, tz2;

	if (date_parse(s, &epoch, &tz) < 0)
		return;
	strbuf_addch(&sb, '@');	/* a small epoch needs the '@' */
	date_format_internal(&sb, epoch, tz);
	if (date_parse(sb.buf, &epoch2, &tz2) < 0)
		BUG("'%s' (from '%s') does not parse", sb.buf, s);
	if (epoch != epoch2 || tz != tz2)
		BUG("'%s' (from '%s') is another time", sb.buf, s);
	strbuf_release(&sb);
}

/* The date part ("> <date>") of each author and committer line. */
static void
check_idents(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	struct strbuf line = STRBUF_INIT;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p), *gt;
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (!n)
			break;	/* the message starts */
		strbuf_reset(&line);
		strbuf_add(&line, p, n);
		if ((!strncmp(line.buf, "author ", 7) ||
		     !strncmp(line.buf, "committer ", 10) ||
		     !strncmp(line.buf, "tagger ", 7)) &&
		    (gt = strrchr(line.buf, '>')) != NULL) {
			struct strbuf name = STRBUF_INIT;

			check_date(gt + 1);
			ident_sanitize(&name, line.buf);
			strbuf_release(&name);
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	strbuf_release(&line);
}

static int
count_report(const struct fsck_report *r, void *data)
{
	if (!r->text)
		BUG("fsck handed over a report without words");
	(*(int *)data)++;
	return 1;
}

/*
 * git 2.55's fsck checks (fsck.h) of the bytes as a commit and as a tag:
 * what they accept, strictly, the older checks accept too.
 */
static void
fsck_agrees(const uint8_t *data, size_t size)
{
	static const enum object_type types[] = { OBJ_COMMIT, OBJ_TAG };

	for (size_t i = 0; i < 2; i++) {
		struct fsck_options o;
		int n = 0, ret;

		fsck_options_init(&o, count_report, &n);
		o.strict = 1;
		ret = fsck_buffer(&o, &null_oid, types[i], data, size);
		fsck_options_release(&o);
		if ((ret == 0) != (n == 0) && types[i] == OBJ_COMMIT)
			BUG("fsck's result and its reports disagree");
		if (n)
			continue;
		if (types[i] == OBJ_COMMIT ? commit_check(data, size) :
		    tag_check(data, size))
			BUG("fsck accepts what the older checks refuse");
		error_clear();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct commit_info ci;
	struct strbuf sb = STRBUF_INIT, again = STRBUF_INIT;
	int parsed, checked;

	parsed = commit_parse(&ci, data, size, &null_oid);
	checked = commit_check(data, size);
	if (!checked && parsed < 0)
		BUG("commit_check accepts what commit_parse refuses");
	if (!checked && ci.nr_parents !=
	    count_parents((const char *)data, (const char *)data + size))
		BUG("commit_parse found %zu parents", ci.nr_parents);
	if (!parsed)
		commit_info_release(&ci);
	tag_check(data, size);
	error_clear();
	fsck_agrees(data, size);

	check_idents((const char *)data, size);

	strbuf_add(&sb, data, size);
	if (utf8_is_valid(sb.buf, sb.len)) {
		utf8_repair(&sb);
		if (sb.len != size || memcmp(sb.buf, data, size))
			BUG("utf8_repair changed valid UTF-8");
	} else {
		utf8_repair(&sb);
		if (!utf8_is_valid(sb.buf, sb.len))
			BUG("utf8_repair left invalid UTF-8");
		strbuf_addbuf(&again, &sb);
		utf8_repair(&again);
		if (again.len != sb.len || memcmp(again.buf, sb.buf, sb.len))
			BUG("utf8_repair is not idempotent");
	}
	strbuf_release(&sb);
	strbuf_release(&again);
	return 0;
}
