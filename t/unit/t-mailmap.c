/*
 * t-mailmap: git's mailmap lines (all four forms, comments, the lines
 * git ignores, case, later lines winning) and how a header's idents
 * are rewritten; and the object filter specs cat-file takes.  The
 * expectations are what git 2.55 prints for the same mailmap and ident
 * (t1010 compares the two directly, with random mailmaps).
 */
#include "tap.h"
#include "error.h"
#include "mailmap.h"
#include "object-filter.h"

#include <string.h>

static const struct {
	const char *map;	/* the mailmap */
	const char *ident;	/* "name <email>" as in a commit */
	const char *want;	/* what it becomes */
} idents[] = {
	{ "Proper <a@x>\n", "Old <a@x>", "Proper <a@x>" },
	{ "Proper <a@x>\n", "Old <A@X>", "Proper <A@X>" },
	{ "<new@x> <a@x>\n", "Old <a@x>", "Old <new@x>" },
	{ "New <new@x> <a@x>\n", "Old <a@x>", "New <new@x>" },
	{ "New <new@x> Old <a@x>\n", "Old <a@x>", "New <new@x>" },
	{ "New <new@x> Old <a@x>\n", "OLD <A@x>", "New <new@x>" },
	{ "New <new@x> Old <a@x>\n", "Other <a@x>", "Other <a@x>" },
	/* a name entry and a name-less one: the name wins, else the other */
	{ "Any <a@x>\nNew <new@x> Old <a@x>\n", "Old <a@x>", "New <new@x>" },
	{ "Any <a@x>\nNew <new@x> Old <a@x>\n", "Else <a@x>", "Any <a@x>" },
	/* comments, and lines git ignores */
	{ "# Proper <a@x>\n", "Old <a@x>", "Old <a@x>" },
	{ " # Proper <a@x>\n", "Old <a@x>", "# Proper <a@x>" },
	{ "Proper <>\n", "Old <>", "Old <>" },
	{ "Proper <a@x\n", "Old <a@x>", "Old <a@x>" },
	{ "Proper\n", "Old <a@x>", "Old <a@x>" },
	{ "Empty <e@x> <>\n", "Old <>", "Empty <e@x>" },
	/* blanks around names go; inside they stay */
	{ " \tTwo  Words \t<a@x>  trailing\r\n", "Old <a@x>",
	  "Two  Words <a@x>" },
	{ "<a@x>\n", "Old <a@x>", "Old <a@x>" },
	/* later lines win */
	{ "First <a@x>\nSecond <a@x>\n", "Old <a@x>", "Second <a@x>" },
	{ "<b@x> <a@x>\nName <a@x>\n", "Old <a@x>", "Name <b@x>" },
	{ "A <b@x> Old <a@x>\nB <c@x> old <A@X>\n", "Old <a@x>", "B <c@x>" },
	/* the ident: blanks before '<' collapse to one when mapped */
	{ "Proper <a@x>\n", "Old   <a@x>", "Proper <a@x>" },
	{ "<b@x> <a@x>\n", "<a@x>", " <b@x>" },
	{ "<b@x> <a@x>\n", "Old<a@x>", "Old <b@x>" },
	{ "Proper <a@x>\n", "Old <a@y>", "Old <a@y>" },
};

static void
test_idents(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(idents); i++) {
		struct mailmap mm = MAILMAP_INIT;
		struct strbuf buf = STRBUF_INIT, want = STRBUF_INIT;

		mailmap_add_buffer(&mm, idents[i].map, strlen(idents[i].map),
				   1024);
		strbuf_addf(&buf, "tree x\nauthor %s 1 +0000\n\nauthor %s\n",
			    idents[i].ident, idents[i].ident);
		strbuf_addf(&want, "tree x\nauthor %s 1 +0000\n\nauthor %s\n",
			    idents[i].want, idents[i].ident);
		mailmap_apply_headers(&buf, &mm);
		is_str(buf.buf, want.buf, "%s: \"%s\"", idents[i].map,
		       idents[i].ident);
		strbuf_release(&buf);
		strbuf_release(&want);
		mailmap_release(&mm);
	}
}

static void
test_reading(void)
{
	struct mailmap mm = MAILMAP_INIT;
	struct strbuf line = STRBUF_INIT, buf = STRBUF_INIT;
	static const char blob[] = "A <a@x>\n\0B <b@x>\n";

	/* a blob is read up to its first NUL */
	mailmap_add_buffer(&mm, blob, sizeof(blob) - 1, 0);
	strbuf_addstr(&buf, "author x <b@x> 1 +0000\n");
	ok(!mailmap_apply_headers(&buf, &mm), "blob: nothing after a NUL");
	mailmap_release(&mm);

	/*
	 * a file line past 1,023 bytes is read as two: here the first
	 * holds no whole ident, the second maps b@x to "a@x> B" (git 2.55
	 * prints the same)
	 */
	for (int i = 0; i < 1020; i++)
		strbuf_addch(&line, ' ');
	strbuf_addstr(&line, "A <a@x> B <b@x>\n");
	mailmap_add_buffer(&mm, line.buf, line.len, 1024);
	strbuf_reset(&buf);
	strbuf_addstr(&buf, "author x <b@x> 1 +0000\n");
	ok(mailmap_apply_headers(&buf, &mm) &&
	   !strcmp(buf.buf, "author a@x> B <b@x> 1 +0000\n"),
	   "a long line is cut at 1,023 bytes");
	strbuf_reset(&buf);
	strbuf_addstr(&buf, "author x <a@x> 1 +0000\n");
	ok(!mailmap_apply_headers(&buf, &mm),
	   "... and its first piece holds no whole ident");
	mailmap_release(&mm);

	/* the header ends at the first empty line, and at a NUL */
	mailmap_add_buffer(&mm, "P <a@x>\n", 8, 1024);
	strbuf_reset(&buf);
	strbuf_add(&buf, "tree x\0author x <a@x> 1 +0000\n", 30);
	ok(!mailmap_apply_headers(&buf, &mm), "a NUL ends the header");
	strbuf_reset(&buf);
	strbuf_addstr(&buf, "tagger x <a@x> 1 +0000\ncommitter y <a@x>\n");
	ok(mailmap_apply_headers(&buf, &mm) &&
	   !strcmp(buf.buf, "tagger P <a@x> 1 +0000\ncommitter P <a@x>\n"),
	   "tagger and committer lines too");
	mailmap_release(&mm);
	strbuf_release(&line);
	strbuf_release(&buf);
}

static const struct {
	const char *spec;
	int ok;
	enum object_filter_choice choice;
} specs[] = {
	{ "blob:none", 1, OBJECT_FILTER_BLOB_NONE },
	{ "blob:limit=1k", 1, OBJECT_FILTER_BLOB_LIMIT },
	{ "blob:limit=0x10", 1, OBJECT_FILTER_BLOB_LIMIT },
	{ "blob:limit=1kb", 0, OBJECT_FILTER_NONE },
	{ "blob:limit=-1", 0, OBJECT_FILTER_NONE },
	{ "object:type=tag", 1, OBJECT_FILTER_OBJECT_TYPE },
	{ "object:type=Tag", 0, OBJECT_FILTER_NONE },
	{ "tree:3", 1, OBJECT_FILTER_TREE_DEPTH },
	{ "tree:", 0, OBJECT_FILTER_NONE },
	{ "sparse:oid=x", 1, OBJECT_FILTER_SPARSE_OID },
	{ "sparse:path=x", 0, OBJECT_FILTER_NONE },
	{ "combine:blob:none+tree:0", 1, OBJECT_FILTER_COMBINE },
	{ "combine:a%2Bb", 0, OBJECT_FILTER_NONE },
	{ "combine:x y", 0, OBJECT_FILTER_NONE },
	{ "combine:", 0, OBJECT_FILTER_NONE },
	{ "auto", 0, OBJECT_FILTER_NONE },
	{ "", 0, OBJECT_FILTER_NONE },
};

static void
test_filters(void)
{
	struct object_filter f = OBJECT_FILTER_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(specs); i++) {
		struct object_filter one = OBJECT_FILTER_INIT;
		int ret = object_filter_add(&one, specs[i].spec);

		ok((ret == 0) == specs[i].ok && one.choice == specs[i].choice,
		   "filter '%s': %s", specs[i].spec,
		   ret ? error_msg() : object_filter_name(one.choice));
		error_clear();
	}
	ok(!object_filter_add(&f, "blob:limit=2m") &&
	   f.blob_limit == 2 * 1024 * 1024, "blob:limit=2m is 2 MiB");
	ok(!object_filter_add(&f, "blob:none") &&
	   f.choice == OBJECT_FILTER_COMBINE, "a second filter combines");
}

int
main(void)
{
	plan(ARRAY_SIZE(idents) + 5 + ARRAY_SIZE(specs) + 2);
	test_idents();
	test_reading();
	test_filters();
	return done_testing();
}
