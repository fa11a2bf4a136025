/*
 * diff-tree: how two trees differ, or a commit from its parents, as
 * git's raw diff records (lib/diff.h does the work; the command line is
 * diff-common's).
 *
 *   diff-tree A B          the trees of A and B ("A..B" too)
 *   diff-tree C            commit C against its parent, after a line
 *                          with C's id; a root commit only with --root,
 *                          a merge only with -m (against each parent)
 *   diff-tree --stdin      the same for each line read: "<commit>
 *                          [<parent>...]" (the parents given replace
 *                          the commit's) or "<tree> <tree>" (echoed
 *                          first); any line not starting with an id is
 *                          copied to the output.  Lines are read in
 *                          pieces of 999 bytes, as git's fgets() does.
 *
 * The exit code with --exit-code is that of the last diff computed, as
 * git's.  -c shows a merge as combined records (lib/diff.h); -v and
 * --pretty (commit messages) are refused.
 */
#include <ctype.h>

#include "builtin.h"
#include "commit.h"
#include "diff-common.h"
#include "object-name.h"
#include "odb.h"
#include "strmap.h"

const char *const diff_tree_usage[] = {
	"dirc diff-tree [--stdin] [-m] [-s] [--no-commit-id] [-t] [-r] [--root] "
	"[--always] [<common-diff-options>] <tree-ish> [<tree-ish>] "
	"[<path>...]",
	NULL,
};

/* git's fgets() into a 1000-byte buffer */
#define LINE_MAX_BYTES 1000

/*
 * git's in-memory objects, as far as --stdin's answers depend on them:
 * an id met as one type (named on a line, a parent given on a line, the
 * tree and parents of a commit read) keeps that type for the rest of the
 * run, and a later use of it as another type is git's "object <id> is a
 * <type>, not a <type>" error rather than a read.  NULL outside --stdin.
 */
struct known_obj {
	struct object_id oid;
	enum object_type type;
	int parsed;
	/*
	 * A commit's parents as git holds them once it is parsed: its own
	 * (minus those known as something else), or those a line gave it,
	 * which replace them for the rest of the run.
	 */
	int has_parents;
	struct object_id *parents;	/* owned */
	size_t nr_parents;
};

struct known {
	struct strmap map;		/* raw id -> struct known_obj */
};

static struct known_obj *
known_get(struct known *kn, const struct object_id *oid)
{
	return kn ? strmap_get(&kn->map, (const char *)oid->hash,
			       HASH_RAWSZ) : NULL;
}

/* The entry for oid, added with type if new. */
static struct known_obj *
known_add(struct known *kn, const struct object_id *oid,
	  enum object_type type)
{
	struct known_obj *k = known_get(kn, oid);

	if (k || !kn)
		return k;
	k = xcalloc(1, sizeof(*k));
	oidcpy(&k->oid, oid);
	k->type = type;
	strmap_put(&kn->map, (const char *)k->oid.hash, HASH_RAWSZ, k);
	return k;
}

static void
known_release(struct known *kn)
{
	for (size_t i = 0; i < kn->map.cap; i++) {
		struct known_obj *k = kn->map.slots[i].value;

		if (k)
			free(k->parents);
		free(k);
	}
	strmap_release(&kn->map);
}

/*
 * A commit was read: git now knows its tree and parents by type.  A
 * parent known as something else is dropped (with git's error); a tree
 * known as something else fails the commit: -1.
 */
static int
known_commit(struct known *kn, struct commit_info *info,
	     const struct object_id *oid)
{
	struct known_obj *k = known_get(kn, &info->tree);
	size_t n = 0;

	if (k && k->type != OBJ_TREE) {
		error("object %s is a %s, not a tree", oid_to_hex(&info->tree),
		      type_name(k->type));
		return error("bad tree pointer %s in commit %s",
			     oid_to_hex(&info->tree), oid_to_hex(oid));
	}
	known_add(kn, &info->tree, OBJ_TREE);
	for (size_t i = 0; i < info->nr_parents; i++) {
		k = known_get(kn, &info->parents[i]);
		if (k && k->type != OBJ_COMMIT) {
			error("object %s is a %s, not a commit",
			      oid_to_hex(&info->parents[i]), type_name(k->type));
			continue;
		}
		known_add(kn, &info->parents[i], OBJ_COMMIT);
		info->parents[n++] = info->parents[i];
	}
	info->nr_parents = n;
	k = known_add(kn, oid, OBJ_COMMIT);
	if (k && !k->has_parents) {
		k->has_parents = 1;
		k->nr_parents = n;
		k->parents = n ? xmemdupz(info->parents,
					  n * sizeof(*info->parents)) : NULL;
	}
	return 0;
}

static void
tree_diff(struct diff_cmd *c, const struct object_id *a,
	  const struct object_id *b)
{
	size_t mark = c->d.out.len;
	int ret;

	/*
	 * git's --quiet carries "found a change" into the next diff, which
	 * then stops before it starts and finds nothing: so it goes, one
	 * diff in two, and the last decides the exit code.
	 */
	if (c->d.quick && c->d.has_changes) {
		c->d.has_changes = 0;
		return;
	}
	c->d.has_changes = 0;
	ret = diff_tree(&c->d, a, b, "");
	if (ret < 0) {
		/* as git, nothing of a diff that failed is printed */
		strbuf_setlen(&c->d.out, mark);
		diff_flush(&c->d);
		die_lib(ret);
	}
}

static void
set_header(struct diff_cmd *c, const struct object_id *commit)
{
	char line[HASH_MAX_HEXSZ + 1];

	c->d.header_pending = 0;
	if (c->no_commit_id)
		return;
	oid_to_hex_r(line, commit);
	line[HASH_HEXSZ] = c->d.nul ? '\0' : '\n';
	diff_set_header(&c->d, line, HASH_HEXSZ + 1);
}

/* The tree of parent commit oid, or git's death (parse_commit_or_die). */
static void
parent_tree(struct diff_cmd *c, struct known *kn, struct object_id *tree,
	    const struct object_id *oid)
{
	struct odb_object obj = ODB_OBJECT_INIT;
	struct commit_info info = { 0 };

	if (odb_read(&obj, c->odb, oid, 0) < 0) {
		error_clear();
		error("Could not read %s", oid_to_hex(oid));
		die("unable to parse commit %s", oid_to_hex(oid));
	}
	if (obj.type != OBJ_COMMIT) {
		error("Object %s not a commit", oid_to_hex(oid));
		die("unable to parse commit %s", oid_to_hex(oid));
	}
	if (commit_parse(&info, obj.data, obj.size, oid) < 0) {
		error_lib(-1);
		die("unable to parse commit %s", oid_to_hex(oid));
	}
	if (known_commit(kn, &info, oid) < 0)
		die("unable to parse commit %s", oid_to_hex(oid));
	*tree = info.tree;
	if (known_add(kn, oid, OBJ_COMMIT))
		known_get(kn, oid)->parsed = 1;
	commit_info_release(&info);
	odb_object_release(&obj);
}

/*
 * Commit oid against its parents (or the nr given ones when given is
 * set), as git's log_tree_commit() without a message.
 */
static void
commit_diff(struct diff_cmd *c, struct known *kn, const struct object_id *oid,
	    const struct commit_info *info, const struct object_id *parents,
	    size_t nr)
{
	struct object_id ptree;
	int shown = 0;

	if (!nr) {
		if (c->root) {
			set_header(c, oid);
			tree_diff(c, NULL, &info->tree);
			shown = !c->d.header_pending && !c->no_commit_id;
		}
	} else if (nr > 1 && c->combined) {
		/* git prints the commit line first, whatever follows */
		struct object_id *ptrees = xcalloc(nr, sizeof(*ptrees));
		int ret;

		for (size_t i = 0; i < nr; i++)
			parent_tree(c, kn, &ptrees[i], &parents[i]);
		if (!c->no_commit_id) {
			set_header(c, oid);
			strbuf_addbuf(&c->d.out, &c->d.header);
			shown = 1;
		}
		ret = diff_tree_combined(&c->d, ptrees, nr, &info->tree);
		free(ptrees);
		if (ret < 0) {
			diff_flush(&c->d);
			die_lib(ret);
		}
	} else if (nr == 1 || c->merges) {
		for (size_t i = 0; i < nr; i++) {
			parent_tree(c, kn, &ptree, &parents[i]);
			set_header(c, oid);
			tree_diff(c, &ptree, &info->tree);
			if (!c->d.header_pending && !c->no_commit_id)
				shown = 1;
		}
	}
	if (!shown && c->always && !c->no_commit_id) {
		set_header(c, oid);
		strbuf_addbuf(&c->d.out, &c->d.header);
	}
	c->d.header_pending = 0;
}

/*
 * Read commit oid (through tags) for a one-argument diff-tree.  0, or
 * -1 after git's error for an object that is not a commit.
 */
static int
read_commit(struct diff_cmd *c, struct object_id *oid,
	    struct commit_info *info)
{
	struct odb_object obj = ODB_OBJECT_INIT;
	struct object_id peeled;
	int ret;

	ret = peel_to_type(&peeled, &c->repo, oid, OBJ_NONE);
	if (ret < 0) {
		error_clear();
		return -1;
	}
	if (odb_read(&obj, c->odb, &peeled, 0) < 0) {
		error_clear();
		return -1;
	}
	if (obj.type != OBJ_COMMIT) {
		error("object %s is a %s, not a commit", oid_to_hex(&peeled),
		      type_name(obj.type) ? type_name(obj.type) : obj.type_name);
		odb_object_release(&obj);
		return -1;
	}
	ret = commit_parse(info, obj.data, obj.size, &peeled);
	odb_object_release(&obj);
	if (ret < 0) {
		error_lib(ret);
		return -1;
	}
	*oid = peeled;
	return 0;
}

/* One piece of input as git's fgets() gives it: up to 999 bytes. */
static size_t
read_piece(char *buf, FILE *fp)
{
	size_t n = 0;
	int ch;

	while (n < LINE_MAX_BYTES - 1 && (ch = getc(fp)) != EOF) {
		buf[n++] = (char)ch;
		if (ch == '\n')
			break;
	}
	buf[n] = '\0';
	return n;
}

static int
parse_hex(struct object_id *oid, const char *p, const char **end)
{
	for (int i = 0; i < HASH_HEXSZ; i++)
		if (hexval((unsigned char)p[i]) < 0)
			return -1;
	if (hex_to_oid(oid, p) < 0)
		return -1;
	*end = p + HASH_HEXSZ;
	return 0;
}

/*
 * git's parse_object() of a line's first id: 0 with obj read, or -1
 * (missing: silently; known as another type: git's error).
 */
static int
stdin_object(struct diff_cmd *c, struct known *kn,
	     const struct object_id *oid, struct odb_object *obj)
{
	struct known_obj *k = known_get(kn, oid);

	if (odb_read(obj, c->odb, oid, 0) < 0) {
		error_clear();
		return -1;
	}
	if (k && !k->parsed && k->type != obj->type &&
	    type_name(k->type) && type_name(obj->type)) {
		error("object %s is a %s, not a %s", oid_to_hex(oid),
		      type_name(k->type), type_name(obj->type));
		odb_object_release(obj);
		return -1;
	}
	k = known_add(kn, oid, obj->type);
	k->parsed = 1;
	return 0;
}

/* git's lookup_tree() and parse_tree() of the second tree of a line. */
static int
stdin_tree2(struct diff_cmd *c, struct known *kn, const struct object_id *oid)
{
	struct known_obj *k = known_get(kn, oid);
	enum object_type type;
	size_t size;

	if (k && k->type != OBJ_TREE) {
		error("object %s is a %s, not a tree", oid_to_hex(oid),
		      type_name(k->type));
		return -1;
	}
	k = known_add(kn, oid, OBJ_TREE);
	if (k->parsed)
		return 0;
	if (odb_read_info(&type, &size, NULL, 0, c->odb, oid, 0) < 0) {
		error_clear();
		return error("Could not read %s", oid_to_hex(oid));
	}
	if (type != OBJ_TREE)
		return error("Object %s not a tree", oid_to_hex(oid));
	k->parsed = 1;
	return 0;
}

/* A line read with --stdin (NUL-terminated, with its newline). */
static void
stdin_line(struct diff_cmd *c, struct known *kn, char *line)
{
	size_t len = strlen(line);
	struct object_id oid, oid2;
	struct odb_object obj = ODB_OBJECT_INIT;
	const char *p;

	if (!len || line[len - 1] != '\n')
		return;
	line[len - 1] = '\0';
	if (parse_hex(&oid, line, &p) < 0)
		return;
	if (stdin_object(c, kn, &oid, &obj) < 0)
		return;
	if (obj.type == OBJ_COMMIT) {
		struct commit_info info = { 0 };
		struct object_id *parents = NULL;
		size_t nr = 0, alloc = 0;
		int given = 0;

		if (commit_parse(&info, obj.data, obj.size, &oid) < 0) {
			error_lib(-1);
			odb_object_release(&obj);
			return;
		}
		if (known_commit(kn, &info, &oid) < 0) {
			commit_info_release(&info);
			odb_object_release(&obj);
			return;
		}
		while (isspace((unsigned char)*p++) &&
		       !parse_hex(&oid2, p, &p)) {
			struct known_obj *k = known_get(kn, &oid2);

			given = 1;
			if (k && k->type != OBJ_COMMIT) {
				error("object %s is a %s, not a commit",
				      oid_to_hex(&oid2), type_name(k->type));
				continue;
			}
			known_add(kn, &oid2, OBJ_COMMIT);
			ALLOC_GROW(parents, nr + 1, alloc);
			parents[nr++] = oid2;
		}
		if (given) {
			/* git grafts them onto the commit for good */
			struct known_obj *k = known_get(kn, &oid);

			free(k->parents);
			k->parents = parents;
			k->nr_parents = nr;
			parents = NULL;
		}
		{
			struct known_obj *k = known_get(kn, &oid);

			commit_diff(c, kn, &oid, &info, k->parents,
				    k->nr_parents);
		}
		free(parents);
		commit_info_release(&info);
	} else if (obj.type == OBJ_TREE) {
		if (!isspace((unsigned char)*p++) || parse_hex(&oid2, p, &p) ||
		    *p) {
			error("Need exactly two trees, separated by a space");
		} else if (!stdin_tree2(c, kn, &oid2)) {
			strbuf_addf(&c->d.out, "%s ", oid_to_hex(&oid));
			strbuf_addf(&c->d.out, "%s\n", oid_to_hex(&oid2));
			c->d.header_pending = 0;
			tree_diff(c, &oid, &oid2);
		}
	} else {
		error("Object %s is a %s, not a commit or tree",
		      oid_to_hex(&oid), type_name(obj.type) ?
		      type_name(obj.type) : obj.type_name);
	}
	odb_object_release(&obj);
}

static void
read_stdin(struct diff_cmd *c)
{
	char line[LINE_MAX_BYTES];
	struct known kn = { STRMAP_INIT };
	struct object_id oid;
	const char *p;

	while (read_piece(line, stdin)) {
		if (parse_hex(&oid, line, &p) < 0) {
			strbuf_addstr(&c->d.out, line);
			diff_cmd_flush(c);
			if (fflush(stdout))
				die("write failure on standard output");
			continue;
		}
		stdin_line(c, &kn, line);
		if (c->d.out.len >= 65536)
			diff_cmd_flush(c);
	}
	known_release(&kn);
}

int
cmd_diff_tree(int argc, const char **argv)
{
	struct diff_cmd c;

	diff_cmd_setup(&c, DIFF_CMD_TREE, argc, argv, diff_tree_usage);
	if (!c.nr_revs && !c.read_stdin)
		diff_usage(diff_tree_usage);
	if (c.nr_revs == 1) {
		struct object_id oid = c.revs[0];
		struct commit_info info = { 0 };

		if (!read_commit(&c, &oid, &info)) {
			commit_diff(&c, NULL, &oid, &info, info.parents,
				    info.nr_parents);
			commit_info_release(&info);
		}
	} else if (c.nr_revs == 2) {
		int swap = c.rev_neg[1] && !c.rev_neg[0];
		struct object_id t[2];

		for (int i = 0; i < 2; i++)
			if (peel_to_type(&t[i], &c.repo, &c.revs[i],
					 OBJ_TREE) < 0)
				die("unable to read tree %s",
				    oid_to_hex(&c.revs[i]));
		tree_diff(&c, &t[swap ? 1 : 0], &t[swap ? 0 : 1]);
	}
	if (c.read_stdin) {
		diff_cmd_flush(&c);
		read_stdin(&c);
	}
	return diff_cmd_finish(&c);
}
