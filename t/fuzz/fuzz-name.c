/*
 * fuzz-name: revision names, through oname_get() (what rev-parse,
 * cat-file, update-ref, commit-tree and read-tree resolve names with),
 * oname_dwim_ref() and oname_abbrev(), against a small fixed repository.
 *
 * Unlike the other targets this one reads files: a name means nothing
 * without refs, reflogs, objects and an index.  The repository is built
 * once, when the first input arrives, in a fresh directory under $TMPDIR
 * (removed at exit), and each name is resolved from there (the process
 * goes back to where it was after each input): commits with a merge and messages for ^{/regex},
 * an annotated tag and a tag of it, a lightweight tag, loose and packed
 * branches, a remote-tracking branch with upstream settings, reflogs
 * with branch switches (for @{n}, @{date}, @{-n}), an index, and blobs
 * that share abbreviations (for the ambiguity report).  Its ids do not
 * depend on the run: dates and contents are fixed.
 *
 * Input: one byte of flags, then the name (up to the first NUL).
 *   bits 0-4: the type hint (ONAME_COMMIT ... ONAME_BLOB)
 *   bit 5:    ONAME_QUIET
 *   bit 6:    ONAME_DIAGNOSE
 *   bit 7:    resolve from the prefix "d/" instead of the top
 *
 * Invariants checked:
 *   - the same name resolves the same way twice (code, id, report);
 *   - a failure has a message, and is one of the kinds oname_get()
 *     documents; "not found" and "ambiguous" carry no fatal message;
 *   - a name that resolves to id X: X's full hex resolves to X, and
 *     X's shortest abbreviation (at least 4 digits) is a prefix of X
 *     that resolves to X or is ambiguous only with a type hint;
 *   - oname_dwim_ref() agrees with itself and names a valid ref.
 */
#include "fuzz.h"

#include <fcntl.h>

#include "error.h"
#include "hash.h"
#include "object-name.h"
#include "odb.h"
#include "refs.h"
#include "repo.h"

static struct repo repo;
static char top[256];
static int home_fd = -1;	/* where libFuzzer runs: its inputs are there */

static void
write_file(const char *path, const char *content)
{
	struct strbuf full = STRBUF_INIT;
	int fd;

	strbuf_addf(&full, "%s/%s", top, path);
	for (char *s = full.buf + strlen(top) + 1; (s = strchr(s, '/'));
	     s++) {
		*s = '\0';
		if (mkdir(full.buf, 0777) < 0 && errno != EEXIST)
			BUG("mkdir %s: %s", full.buf, strerror(errno));
		*s = '/';
	}
	fd = open(full.buf, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0 || write_full(fd, content, strlen(content)) < 0 ||
	    close(fd) < 0)
		BUG("write %s: %s", full.buf, strerror(errno));
	strbuf_release(&full);
}

static void
put(struct odb *odb, const char *type, const char *data,
    struct object_id *out)
{
	if (odb_write(odb, &odb->writer, type, data, strlen(data), out) < 0)
		BUG("cannot write fixture object: %s", error_msg());
}

static void
remove_fixture(void)
{
	if (!*top)
		return;
	repo_release(&repo);
	if (chdir("/") < 0)
		fprintf(stderr, "fuzz-name: chdir /: %s\n", strerror(errno));
	fuzz_remove_tree(top);
}

/* A commit of tree with parents (NULL-ended) at time t, message msg. */
static void
commit(struct odb *odb, const struct object_id *tree,
       const struct object_id **parents, long t, const char *msg,
       struct object_id *out)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "tree %s\n", oid_to_hex(tree));
	for (; parents && *parents; parents++)
		strbuf_addf(&sb, "parent %s\n", oid_to_hex(*parents));
	strbuf_addf(&sb, "author A U Thor <a@example.com> %ld +0200\n"
		    "committer C O Mitter <c@example.com> %ld +0200\n\n%s\n",
		    t, t, msg);
	put(odb, "commit", sb.buf, out);
	strbuf_release(&sb);
}

static void
build_fixture(void)
{
	struct odb *odb;
	struct object_id blob1, blob2, tree1, tree2, sub, c1, c2, c3, m, tag,
			 tagtag, b;
	const struct object_id *p1[] = { &c1, NULL };
	const struct object_id *pm[] = { &c2, &c3, NULL };
	struct strbuf sb = STRBUF_INIT;
	char hex[4][HASH_MAX_HEXSZ + 1];
	unsigned seen[65536 / 32] = { 0 };
	int shared = 0;

	fuzz_tmpdir(top, sizeof(top), "name");
	atexit(remove_fixture);
	write_file(".git/HEAD", "ref: refs/heads/main\n");
	write_file(".git/config", "[core]\n\trepositoryformatversion = 0\n"
		   "\tbare = false\n[branch \"main\"]\n\tremote = origin\n"
		   "\tmerge = refs/heads/main\n[remote \"origin\"]\n"
		   "\turl = /nowhere\n\tfetch = +refs/heads/*:"
		   "refs/remotes/origin/*\n");
	write_file(".git/objects/info/keep", "");
	write_file(".git/refs/tags/keep", "");
	write_file("d/e/f", "f\n");
	write_file("a", "a\n");
	home_fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (home_fd < 0 || chdir(top) < 0)
		BUG("chdir %s: %s", top, strerror(errno));
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("HOME", top, 1);
	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	unsetenv("GIT_INDEX_FILE");
	unsetenv("GIT_OBJECT_DIRECTORY");
	setenv("GIT_TEST_DATE_NOW", "1112500000", 1);
	if (repo_open(&repo, REPO_NO_CHDIR) < 0 || repo_odb(&odb, &repo) < 0)
		BUG("cannot open the fixture: %s", error_msg());

	put(odb, "blob", "a\n", &blob1);
	put(odb, "blob", "f\n", &blob2);
	strbuf_addf(&sb, "100644 f%c", 0);
	strbuf_add(&sb, blob2.hash, HASH_RAWSZ);
	if (odb_write(odb, &odb->writer, "tree", sb.buf, sb.len, &sub) < 0)
		BUG("tree: %s", error_msg());
	strbuf_reset(&sb);
	strbuf_addf(&sb, "100644 a%c", 0);
	strbuf_add(&sb, blob1.hash, HASH_RAWSZ);
	strbuf_addf(&sb, "40000 d%c", 0);
	strbuf_add(&sb, sub.hash, HASH_RAWSZ);
	if (odb_write(odb, &odb->writer, "tree", sb.buf, sb.len, &tree1) < 0)
		BUG("tree: %s", error_msg());
	strbuf_reset(&sb);
	strbuf_addf(&sb, "100644 a%c", 0);
	strbuf_add(&sb, blob2.hash, HASH_RAWSZ);
	if (odb_write(odb, &odb->writer, "tree", sb.buf, sb.len, &tree2) < 0)
		BUG("tree: %s", error_msg());
	commit(odb, &tree1, NULL, 1112354055, "Initial", &c1);
	commit(odb, &tree2, p1, 1112354115, "!Exp", &c2);
	commit(odb, &tree1, p1, 1112354175, "side", &c3);
	commit(odb, &tree2, pm, 1112354235, "Merge side\n\nbody", &m);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "object %s\ntype commit\ntag v1\ntagger C O Mitter "
		    "<c@example.com> 1112354300 +0200\n\nv1\n", oid_to_hex(&c2));
	put(odb, "tag", sb.buf, &tag);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "object %s\ntype tag\ntag v1.1\n\nno tagger\n",
		    oid_to_hex(&tag));
	put(odb, "tag", sb.buf, &tagtag);
	/* blobs until two pairs share four digits */
	for (int i = 0; shared < 2 && i < 100000; i++) {
		unsigned pre;

		strbuf_reset(&sb);
		strbuf_addf(&sb, "blob %d\n", i);
		odb_hash(&b, "blob", sb.buf, sb.len);
		pre = (unsigned)b.hash[0] << 8 | b.hash[1];
		if (seen[pre / 32] & (1u << (pre % 32))) {
			put(odb, "blob", sb.buf, &b);
			oid_to_hex_r(hex[shared++], &b);
			/* and its partner */
			for (int k = 0; k < i; k++) {
				struct object_id o;

				strbuf_reset(&sb);
				strbuf_addf(&sb, "blob %d\n", k);
				odb_hash(&o, "blob", sb.buf, sb.len);
				if (((unsigned)o.hash[0] << 8 | o.hash[1]) ==
				    pre) {
					put(odb, "blob", sb.buf, &o);
					break;
				}
			}
		}
		seen[pre / 32] |= 1u << (pre % 32);
	}
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s\n", oid_to_hex(&m));
	write_file(".git/refs/heads/main", sb.buf);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s\n", oid_to_hex(&c3));
	write_file(".git/refs/heads/side", sb.buf);
	write_file(".git/refs/remotes/origin/main", sb.buf);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s\n", oid_to_hex(&tagtag));
	write_file(".git/refs/tags/v1.1", sb.buf);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "# pack-refs with: peeled fully-peeled sorted \n"
		    "%s refs/heads/packed\n%s refs/tags/v1\n^%s\n",
		    oid_to_hex(&c1), oid_to_hex(&tag), oid_to_hex(&c2));
	write_file(".git/packed-refs", sb.buf);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s\n", hex[0]);
	write_file(".git/refs/heads/dead", sb.buf);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "ref: refs/heads/nowhere\n");
	write_file(".git/refs/heads/dangling", sb.buf);
	strbuf_reset(&sb);
	strbuf_addf(&sb,
		    "%s %s C <c@example.com> 1112354055 +0200\tcommit "
		    "(initial): Initial\n"
		    "%s %s C <c@example.com> 1112354115 +0200\tcommit: Exp\n"
		    "%s %s C <c@example.com> 1112354200 +0200\tcheckout: "
		    "moving from main to side\n"
		    "%s %s C <c@example.com> 1112354210 +0200\tcheckout: "
		    "moving from side to %s\n"
		    "%s %s C <c@example.com> 1112354220 +0200\tcheckout: "
		    "moving from %s to main\n"
		    "%s %s C <c@example.com> 1112354235 +0200\tmerge\n"
		    "garbage line\n",
		    oid_to_hex(&null_oid), oid_to_hex(&c1),
		    oid_to_hex(&c1), oid_to_hex(&c2),
		    oid_to_hex(&c2), oid_to_hex(&c3),
		    oid_to_hex(&c3), oid_to_hex(&c1), oid_to_hex(&c1),
		    oid_to_hex(&c1), oid_to_hex(&c2), oid_to_hex(&c1),
		    oid_to_hex(&c2), oid_to_hex(&m));
	write_file(".git/logs/HEAD", sb.buf);
	strbuf_reset(&sb);
	strbuf_addf(&sb,
		    "%s %s C <c@example.com> 1112354055 +0200\tcommit\n"
		    "%s %s C <c@example.com> 1112354115 +0200\tcommit\n"
		    "%s %s C <c@example.com> 1112354235 +0200\tmerge\n",
		    oid_to_hex(&null_oid), oid_to_hex(&c1),
		    oid_to_hex(&c1), oid_to_hex(&c2),
		    oid_to_hex(&c2), oid_to_hex(&m));
	write_file(".git/logs/refs/heads/main", sb.buf);
	write_file(".git/logs/refs/heads/side", "");
	strbuf_release(&sb);
	error_clear();
	if (fchdir(home_fd) < 0)
		BUG("cannot come back: %s", strerror(errno));
}

struct outcome {
	int ret;
	struct object_id oid;
	char msg[512];
	char pre[2048];
	int silent;
};

static void
resolve(struct outcome *o, const char *name, unsigned flags,
	const char *prefix)
{
	struct oname_ctx ctx = ONAME_CTX_INIT;

	memset(o, 0, sizeof(*o));
	ctx.flags = flags;
	ctx.prefix = prefix;
	error_clear();
	o->ret = oname_get(&o->oid, &repo, name, &ctx);
	o->silent = ctx.silent;
	if (o->ret < 0) {
		snprintf(o->msg, sizeof(o->msg), "%s", error_msg());
		snprintf(o->pre, sizeof(o->pre), "%s",
			 error_pre() ? error_pre() : "");
		if (!*o->msg)
			BUG("'%s' failed (%d) without a message", name, o->ret);
	} else if (error_pre()) {
		BUG("'%s' resolved with an error report left", name);
	}
	error_clear();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned hints[] = {
		0, ONAME_COMMIT, ONAME_COMMITTISH, ONAME_TREE, ONAME_TREEISH,
		ONAME_BLOB,
	};
	struct outcome a, b;
	struct strbuf full = STRBUF_INIT, ref = STRBUF_INIT;
	struct object_id oid;
	char *name;
	unsigned flags;
	const char *prefix;
	int n;

	if (!*top)
		build_fixture();
	if (!size)
		return 0;
	flags = hints[(data[0] & 0x1f) % ARRAY_SIZE(hints)];
	if (data[0] & 0x20)
		flags |= ONAME_QUIET;
	if (data[0] & 0x40)
		flags |= ONAME_DIAGNOSE;
	prefix = data[0] & 0x80 ? "d/" : "";
	name = xmemdupz(data + 1, size - 1);
	/* names are resolved from the top of the work tree */
	if (chdir(top) < 0)
		BUG("chdir %s: %s", top, strerror(errno));

	resolve(&a, name, flags, prefix);
	resolve(&b, name, flags, prefix);
	if (a.ret != b.ret || (!a.ret && !oideq(&a.oid, &b.oid)) ||
	    strcmp(a.msg, b.msg) || strcmp(a.pre, b.pre) ||
	    a.silent != b.silent)
		BUG("'%s' resolved two ways", name);
	switch (a.ret) {
	case 0:
	case -E_NOTFOUND:
	case -E_AMBIGUOUS:
	case -E_INVALID:
	case -E_CORRUPT:
	case -E_UNSUPPORTED:
		break;
	default:
		BUG("'%s': unexpected error kind %d: %s", name, a.ret, a.msg);
	}
	if (!a.ret) {
		char abbrev[HASH_MAX_HEXSZ + 1];

		strbuf_addstr(&full, oid_to_hex(&a.oid));
		resolve(&b, full.buf, 0, "");
		if (b.ret || !oideq(&a.oid, &b.oid))
			BUG("'%s' gave %s, which does not resolve to itself",
			    name, full.buf);
		oname_abbrev(abbrev, &repo, &a.oid, -1);
		if (strlen(abbrev) < 4 || strncmp(abbrev, full.buf,
						  strlen(abbrev)))
			BUG("abbreviation %s of %s", abbrev, full.buf);
		resolve(&b, abbrev, ONAME_QUIET, "");
		/* a ref of that name may win; else it is the object */
		if (b.ret == -E_AMBIGUOUS)
			BUG("abbreviation %s of %s is ambiguous", abbrev,
			    full.buf);
	}
	n = oname_dwim_ref(&ref, &oid, &repo, name, strlen(name));
	if (n > 0 && !refname_is_valid(ref.buf, REFNAME_ALLOW_ONELEVEL))
		BUG("'%s' expanded to the bad ref name '%s'", name, ref.buf);
	error_clear();
	free(name);
	strbuf_release(&full);
	strbuf_release(&ref);
	if (fchdir(home_fd) < 0)
		BUG("cannot come back: %s", strerror(errno));
	return 0;
}
