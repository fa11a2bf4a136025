/*
 * object-name: name resolution.  A name is parsed from its end: the last
 * suffix applies last, so "v1~2^{tree}" is the tree of v1's grandparent.
 * Abbreviations are looked up by reading the fan-out directory their
 * first two digits name.
 */
#include "object-name.h"

#include <sys/stat.h>

#include "commit.h"
#include "error.h"
#include "index.h"
#include "refs.h"
#include "repo.h"
#include "strbuf.h"
#include "tree.h"

#define MAX_NAME_DEPTH 64

static int
is_hex_prefix(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (hexval((unsigned char)s[i]) < 0)
			return 0;
	return 1;
}

int
get_oid_prefix(struct object_id *out, struct repo *repo, const char *hex,
	       size_t len)
{
	char lower[HASH_HEXSZ + 1];
	struct odb *odb;
	int count, ret;

	if (len < 4 || len > HASH_HEXSZ || !is_hex_prefix(hex, len))
		return error_set(E_NOTFOUND, "Not a valid object name %.*s",
				 (int)len, hex);
	for (size_t i = 0; i < len; i++)
		lower[i] = (hex[i] >= 'A' && hex[i] <= 'F') ? hex[i] + 32 :
			   hex[i];
	lower[len] = '\0';
	if (len == HASH_HEXSZ) {
		hex_to_oid(out, lower);
		return 0;
	}
	ret = repo_odb(&odb, repo);
	if (ret < 0)
		return ret;
	odb_find_prefix(odb, lower, len, out, &count);
	if (!count && odb_reprepare(odb))
		odb_find_prefix(odb, lower, len, out, &count);
	/* the virtual empty tree */
	if (!count && !strncmp("4b825dc642cb6eb9a060e54bf8d69288fbee4904",
			       lower, len)) {
		*out = empty_tree_oid;
		count = 1;
	}
	if (count == 2) {
		char pre[96];

		snprintf(pre, sizeof(pre), "short object ID %s is ambiguous",
			 lower);
		return error_set_pre(E_AMBIGUOUS, pre, "Not a valid object "
				     "name %.*s", (int)len, hex);
	}
	if (!count)
		return error_set(E_NOTFOUND, "Not a valid object name %.*s",
				 (int)len, hex);
	return 0;
}

static struct ref_store *
refs_of(struct repo *repo, struct ref_store *rs)
{
	ref_store_init(rs, repo->gitdir, repo->commondir);
	return rs;
}

int
dwim_ref(struct strbuf *out, struct object_id *oid, struct repo *repo,
	 const char *name, size_t len)
{
	static const char *const rules[][2] = {
		{ "", "" }, { "refs/", "" }, { "refs/tags/", "" },
		{ "refs/heads/", "" }, { "refs/remotes/", "" },
		{ "refs/remotes/", "/HEAD" },
	};
	struct ref_store rs;
	struct strbuf full = STRBUF_INIT;
	int found = 0;

	if (!repo->gitdir || !len)
		return 0;
	refs_of(repo, &rs);
	for (size_t i = 0; i < ARRAY_SIZE(rules) && !found; i++) {
		strbuf_reset(&full);
		strbuf_addstr(&full, rules[i][0]);
		strbuf_add(&full, name, len);
		strbuf_addstr(&full, rules[i][1]);
		if (!refname_is_valid(full.buf, REFNAME_ALLOW_ONELEVEL))
			continue;
		/* one-level names other than HEAD and pseudorefs: no */
		if (i == 0 && !strchr(full.buf, '/')) {
			const char *p;

			for (p = full.buf; *p; p++)
				if (!((*p >= 'A' && *p <= 'Z') || *p == '_'))
					break;
			if (*p)
				continue;
		}
		if (!refs_resolve(&rs, full.buf, oid, NULL)) {
			found = 1;
			if (out) {
				strbuf_reset(out);
				strbuf_addbuf(out, &full);
			}
		} else {
			error_clear();
		}
	}
	ref_store_release(&rs);
	strbuf_release(&full);
	return found;
}

int
peel_to_type(struct object_id *out, struct repo *repo,
	     const struct object_id *oid, enum object_type want)
{
	struct object_id cur = *oid;
	struct odb *odb;
	int ret = repo_odb(&odb, repo);

	if (ret < 0)
		return ret;
	for (int depth = 0; depth < MAX_NAME_DEPTH; depth++) {
		struct odb_object obj;
		const char *p;

		ret = odb_read(&obj, odb, &cur, 0);
		if (ret < 0)
			return ret;
		if (obj.type == want || (want == OBJ_NONE &&
					 obj.type != OBJ_TAG)) {
			odb_object_release(&obj);
			*out = cur;
			return 0;
		}
		p = (const char *)obj.data;
		if (obj.type == OBJ_TAG && obj.size >= 7 + HASH_HEXSZ &&
		    skip_prefix(p, "object ", &p) && !hex_to_oid(&cur, p)) {
			odb_object_release(&obj);
			continue;
		}
		if (obj.type == OBJ_COMMIT && want == OBJ_TREE &&
		    obj.size >= 5 + HASH_HEXSZ &&
		    skip_prefix(p, "tree ", &p) && !hex_to_oid(&cur, p)) {
			odb_object_release(&obj);
			continue;
		}
		odb_object_release(&obj);
		break;
	}
	return error_set(E_INVALID, "%s is not a valid '%s' object",
			 oid_to_hex(oid), type_name(want) ? type_name(want) :
			 "object");
}

static int get_oid_1(struct object_id *out, struct repo *repo,
		     const char *name, size_t len, int depth);

static int
not_valid(const char *name, size_t len)
{
	return error_set(E_NOTFOUND, "Not a valid object name %.*s", (int)len,
			 name);
}

static int
get_basic(struct object_id *out, struct repo *repo, const char *name,
	  size_t len)
{
	int ret;

	if (len == 1 && name[0] == '@') {
		name = "HEAD";
		len = 4;
	}
	if (len == HASH_HEXSZ && is_hex_prefix(name, len))
		return get_oid_prefix(out, repo, name, len);
	if (dwim_ref(NULL, out, repo, name, len))
		return 0;
	if (len >= 4 && len < HASH_HEXSZ && is_hex_prefix(name, len)) {
		ret = get_oid_prefix(out, repo, name, len);
		if (ret != -E_NOTFOUND)
			return ret;
	}
	return not_valid(name, len);
}

/* The n-th parent (n >= 1), or the commit itself for n == 0. */
static int
nth_parent(struct object_id *out, struct repo *repo,
	   const struct object_id *oid, unsigned long n)
{
	struct commit_info ci;
	struct odb_object obj;
	struct object_id c;
	struct odb *odb;
	int ret;

	ret = peel_to_type(&c, repo, oid, OBJ_COMMIT);
	if (ret < 0)
		return ret;
	if (!n) {
		*out = c;
		return 0;
	}
	ret = repo_odb(&odb, repo);
	if (!ret)
		ret = odb_read(&obj, odb, &c, 0);
	if (ret < 0)
		return ret;
	ret = commit_parse(&ci, obj.data, obj.size, &c);
	odb_object_release(&obj);
	if (ret < 0)
		return ret;
	if (n > ci.nr_parents)
		ret = error_set(E_NOTFOUND, "commit %s has no parent %lu",
				oid_to_hex(&c), n);
	else
		*out = ci.parents[n - 1];
	commit_info_release(&ci);
	return ret;
}

static int
peel_suffix(struct object_id *out, struct repo *repo, const char *name,
	    size_t len, int depth)
{
	const char *brace = NULL;
	enum object_type want;
	struct object_id base;
	size_t tlen;
	int ret;

	/* name^{type} */
	for (size_t i = len - 1; i > 0; i--)
		if (name[i] == '{' && name[i - 1] == '^') {
			brace = name + i;
			break;
		}
	if (!brace)
		return not_valid(name, len);
	tlen = name + len - 1 - (brace + 1);
	ret = get_oid_1(&base, repo, name, brace - 1 - name, depth + 1);
	if (ret < 0)
		return ret;
	if (!tlen) {
		want = OBJ_NONE;
	} else if (tlen == 6 && !memcmp(brace + 1, "object", 6)) {
		*out = base;
		return 0;
	} else {
		want = type_from_name(brace + 1, tlen);
		if (want == OBJ_BAD)
			return not_valid(name, len);
	}
	ret = peel_to_type(out, repo, &base, want);
	if (ret < 0)
		return error_set(E_NOTFOUND, "%.*s: expected %s type, but the "
				 "object dereferences to another type",
				 (int)len, name, type_name(want) ?
				 type_name(want) : "a non-tag");
	return 0;
}

static int
get_oid_1(struct object_id *out, struct repo *repo, const char *name,
	  size_t len, int depth)
{
	size_t i;
	unsigned long n;
	int ret;

	if (depth > MAX_NAME_DEPTH || !len)
		return not_valid(name, len);
	if (name[len - 1] == '}')
		return peel_suffix(out, repo, name, len, depth);
	/* trailing digits after ^ or ~ */
	for (i = len; i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9'; i--)
		;
	if (i > 0 && (name[i - 1] == '^' || name[i - 1] == '~') && i > 1) {
		char op = name[i - 1];
		struct object_id base;

		n = i == len ? 1 : strtoul(name + i, NULL, 10);
		ret = get_oid_1(&base, repo, name, i - 1, depth + 1);
		if (ret < 0)
			return ret;
		if (op == '^')
			return nth_parent(out, repo, &base, n);
		ret = nth_parent(out, repo, &base, 0);
		while (!ret && n--)
			ret = nth_parent(out, repo, out, 1);
		return ret;
	}
	return get_basic(out, repo, name, len);
}

/* The entry path names inside tree, following subtrees. */
static int
tree_lookup(struct object_id *out, struct repo *repo,
	    const struct object_id *tree, const char *path, const char *rev)
{
	struct object_id cur = *tree;
	const char *p = path;
	struct odb *odb;
	int ret = repo_odb(&odb, repo);

	if (ret < 0)
		return ret;
	if (!*p) {
		*out = cur;
		return 0;
	}
	while (*p) {
		const char *slash = strchr(p, '/');
		size_t clen = slash ? (size_t)(slash - p) : strlen(p);
		struct odb_object obj;
		struct tree_iter it;
		struct tree_entry e;
		int found = 0;

		ret = odb_read(&obj, odb, &cur, 0);
		if (ret < 0)
			return ret;
		if (obj.type != OBJ_TREE) {
			odb_object_release(&obj);
			break;
		}
		tree_iter_init(&it, obj.data, obj.size);
		while (tree_iter_next(&it, &e) > 0)
			if (e.namelen == clen && !memcmp(e.name, p, clen)) {
				cur = *e.oid;
				found = 1;
				break;
			}
		odb_object_release(&obj);
		if (!found)
			break;
		if (!slash) {
			*out = cur;
			return 0;
		}
		p = slash + 1;
		if (!*p) {
			*out = cur;
			return 0;
		}
	}
	return error_set(E_NOTFOUND, "path '%s' does not exist in '%s'", path,
			 rev);
}

static int
index_lookup(struct object_id *out, struct repo *repo, const char *spec)
{
	struct index idx;
	int stage = 0, ret;
	ssize_t pos;

	if (spec[0] >= '0' && spec[0] <= '3' && spec[1] == ':') {
		stage = spec[0] - '0';
		spec += 2;
	}
	ret = index_read(&idx, repo->index_path, INDEX_READ_QUIET);
	if (ret < 0)
		return ret;
	pos = index_pos(&idx, spec, strlen(spec), stage);
	if (pos >= 0)
		*out = idx.entries[pos]->oid;
	index_release(&idx);
	if (pos < 0)
		return error_set(E_NOTFOUND, "path '%s' does not exist (neither "
				 "on disk nor in the index) at stage %d", spec,
				 stage);
	return 0;
}

int
get_oid(struct object_id *out, struct repo *repo, const char *name)
{
	const char *colon = NULL;
	int depth = 0;

	if (name[0] == ':' && name[1] && name[1] != '/')
		return index_lookup(out, repo, name + 1);
	for (const char *p = name; *p; p++) {
		if (*p == '{')
			depth++;
		else if (*p == '}' && depth)
			depth--;
		else if (*p == ':' && !depth) {
			colon = p;
			break;
		}
	}
	if (colon) {
		struct object_id rev, tree;
		char *revname = xmemdupz(name, colon - name);
		int ret = get_oid_1(&rev, repo, name, colon - name, 0);

		if (!ret)
			ret = peel_to_type(&tree, repo, &rev, OBJ_TREE);
		if (!ret)
			ret = tree_lookup(out, repo, &tree, colon + 1, revname);
		free(revname);
		return ret;
	}
	return get_oid_1(out, repo, name, strlen(name), 0);
}
