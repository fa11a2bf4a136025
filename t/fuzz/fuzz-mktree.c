/*
 * fuzz-mktree: lines of ls-tree output as "mktree" reads them
 * (mktree_add_line, mktree_write), against a small object store built
 * once, when the first input arrives, in a fresh directory under $TMPDIR
 * (removed at exit): a blob, a tree and a commit, so that lines can name
 * objects that exist, of each type, and objects that do not.
 *
 * Input: one byte of flags (bit 0: -z, bit 1: --missing), then the lines,
 * separated by '\n' (NUL with -z); mktree_add_line() reads each up to
 * its first NUL, as the command does.  The first refused line ends the
 * input, as the command dies there.
 *
 * Invariants checked:
 *   - a refused line is -E_INVALID with a message;
 *   - the tree written holds the entries accepted, in tree order
 *     (tree_name_cmp() never decreasing), none with a '/' in its name;
 *   - the same lines give the same tree id twice.
 */
#include "fuzz.h"

#include <sys/stat.h>

#include "error.h"
#include "hash.h"
#include "mktree.h"
#include "odb.h"
#include "tree.h"

/* the fixture's ids, which the seed corpus uses */
#define FIXTURE_BLOB "5626abf0f72e58d7a153368ba57db4c673c0e171"
#define FIXTURE_TREE "32b97a7332f485ca3b3fd33067b39c1ccd422ae2"
#define FIXTURE_COMMIT "4dcf6b4428497ab7a957e083a6d5497916444747"

static struct odb odb;
static char top[256];
static int ready;

static void
remove_fixture(void)
{
	odb_release(&odb);
	fuzz_remove_tree(top);
}

static void
put(const char *type, const char *data, size_t len, struct object_id *out)
{
	if (odb_write(&odb, &odb.writer, type, data, len, out) < 0)
		BUG("cannot write fixture object: %s", error_msg());
}

static void
build_fixture(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct object_id blob, tree, commit;

	fuzz_tmpdir(top, sizeof(top), "mktree");
	if (odb_init(&odb, top, NULL) < 0)
		BUG("odb_init: %s", error_msg());
	atexit(remove_fixture);
	put("blob", "one\n", 4, &blob);
	strbuf_addstr(&sb, "100644 one");
	strbuf_addch(&sb, '\0');
	strbuf_add(&sb, blob.hash, HASH_RAWSZ);
	put("tree", sb.buf, sb.len, &tree);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "tree %s\nauthor A <a@b> 1 +0000\n"
		    "committer C <c@d> 1 +0000\n\nm\n", oid_to_hex(&tree));
	put("commit", sb.buf, sb.len, &commit);
	if (strcmp(oid_to_hex(&commit), FIXTURE_COMMIT))
		BUG("the fixture is not the one the corpus names");
	strbuf_release(&sb);
	ready = 1;
}

/* Feed the lines; the id of the tree written, 0, or -1 if one was refused */
static int
run(struct object_id *out, struct mktree *mt, const uint8_t *data,
    size_t size, unsigned flags)
{
	struct strbuf line = STRBUF_INIT;
	char term = flags & MKTREE_NUL ? '\0' : '\n';
	size_t pos = 0;
	int ret = 0;

	while (pos < size) {
		const uint8_t *end = memchr(data + pos, term, size - pos);
		size_t len = end ? (size_t)(end - (data + pos)) : size - pos;

		strbuf_reset(&line);
		strbuf_add(&line, data + pos, len);
		pos += len + 1;
		if (!line.buf[0])
			continue;	/* a blank line: the command's business */
		ret = mktree_add_line(mt, &odb, line.buf, flags);
		if (ret < 0) {
			if (ret != -E_INVALID || !*error_msg())
				BUG("refused without -E_INVALID and a message");
			error_clear();
			strbuf_release(&line);
			return -1;
		}
	}
	strbuf_release(&line);
	/* check the order before writing empties the entries */
	for (size_t i = 0; i < mt->nr; i++)
		if (memchr(mt->names.buf + mt->entries[i].name, '/',
			   mt->entries[i].len))
			BUG("a name with a slash was accepted");
	if (mktree_write(out, mt, &odb) < 0)
		BUG("cannot write the tree: %s", error_msg());
	return 0;
}

/* The written tree's names are in tree order (modes as stored). */
static void
check_order(const struct object_id *oid)
{
	struct odb_object obj = ODB_OBJECT_INIT;
	const unsigned char *p, *end;
	const char *prev = NULL;
	size_t prevlen = 0;
	unsigned prevmode = 0;

	if (odb_read(&obj, &odb, oid, 0) < 0 || obj.type != OBJ_TREE)
		BUG("the tree written cannot be read back");
	p = obj.data;
	end = p + obj.size;
	while (p < end) {
		const char *sp = memchr(p, ' ', end - p), *name;
		unsigned mode = 0;
		size_t len;

		if (!sp)
			BUG("no space after a mode");
		for (const unsigned char *m = p; m < (const unsigned char *)sp;
		     m++)
			mode = mode << 3 | (*m - '0');
		name = sp + 1;
		len = strnlen(name, end - (const unsigned char *)name);
		if ((const unsigned char *)name + len + 1 + HASH_RAWSZ > end)
			BUG("an entry runs past the end");
		if (prev && tree_name_cmp(prev, prevlen, prevmode, name, len,
					  mode) > 0)
			BUG("entries out of order");
		prev = name;
		prevlen = len;
		prevmode = mode;
		p = (const unsigned char *)name + len + 1 + HASH_RAWSZ;
	}
	odb_object_release(&obj);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mktree mt;
	struct object_id a, b;
	unsigned flags;
	int ra, rb;

	if (!ready)
		build_fixture();
	if (!size)
		return 0;
	flags = (data[0] & 1 ? MKTREE_NUL : 0) |
		(data[0] & 2 ? MKTREE_MISSING : 0);
	mktree_init(&mt);
	ra = run(&a, &mt, data + 1, size - 1, flags);
	mktree_release(&mt);
	rb = run(&b, &mt, data + 1, size - 1, flags);
	mktree_release(&mt);
	if (ra != rb || (!ra && !oideq(&a, &b)))
		BUG("the same lines gave another result");
	if (!ra)
		check_order(&a);
	return 0;
}
