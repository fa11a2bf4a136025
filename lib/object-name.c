/*
 * object-name: name resolution.  A name is parsed from its end: the last
 * suffix applies last, so "v1~2^{tree}" is the tree of v1's grandparent.
 * Abbreviations are looked up by reading the fan-out directory their
 * first two digits name.
 */
#include "object-name.h"

#include <sys/stat.h>

#include "commit.h"
#include "config.h"
#include "error.h"
#include "index.h"
#include "path.h"
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

#define MAX_CANDIDATES 64

struct candidate {
	struct object_id oid;
	enum object_type type;
};

static int
cand_cmp(const void *a, const void *b)
{
	/* as git lists them: tags, commits, trees, blobs; then by id */
	static const int rank[] = {
		[OBJ_TAG] = 0, [OBJ_COMMIT] = 1, [OBJ_TREE] = 2, [OBJ_BLOB] = 3,
	};
	const struct candidate *x = a, *y = b;
	int rx = x->type > 0 && x->type <= OBJ_TAG ? rank[x->type] : 4;
	int ry = y->type > 0 && y->type <= OBJ_TAG ? rank[y->type] : 4;

	if (rx != ry)
		return rx - ry;
	return oidcmp(&x->oid, &y->oid);
}

/* "YYYY-MM-DD - subject" of a commit, as git's hint shows it */
static void
describe_commit(struct strbuf *out, const struct odb_object *obj)
{
	const char *p = (const char *)obj->data, *end = p + obj->size;
	const char *author = NULL, *subject = NULL;

	while (p < end && *p != '\n') {
		const char *nl = memchr(p, '\n', end - p);

		if (!nl)
			break;
		if (!strncmp(p, "author ", 7))
			author = p;
		p = nl + 1;
	}
	if (p < end && *p == '\n')
		subject = p + 1;
	if (author) {
		const char *gt = memchr(author, '>', end - author);
		long long epoch;
		int tz;

		if (gt && sscanf(gt + 1, "%lld %d", &epoch, &tz) == 2) {
			int sign = tz < 0 ? -1 : 1, mins = tz * sign;
			long long local = epoch + sign * ((mins / 100) * 3600 +
							  (mins % 100) * 60);
			time_t t = (time_t)local;
			struct tm tm;

			if (gmtime_r(&t, &tm))
				strbuf_addf(out, " %04d-%02d-%02d",
					    tm.tm_year + 1900, tm.tm_mon + 1,
					    tm.tm_mday);
		}
	}
	if (subject) {
		const char *nl = memchr(subject, '\n', end - subject);

		strbuf_addstr(out, " - ");
		strbuf_add(out, subject, nl ? (size_t)(nl - subject) :
			   (size_t)(end - subject));
	}
}

static void
describe_candidates(struct strbuf *out, struct repo *repo, struct odb *odb,
		    const struct object_id *oids, size_t nr)
{
	struct candidate c[MAX_CANDIDATES];

	for (size_t i = 0; i < nr; i++) {
		size_t size;

		c[i].oid = oids[i];
		if (odb_read_info(&c[i].type, &size, NULL, 0, odb, &oids[i],
				  0) < 0) {
			error_clear();
			c[i].type = OBJ_BAD;
		}
	}
	sort_array(c, nr, sizeof(*c), cand_cmp);
	for (size_t i = 0; i < nr; i++) {
		char hex[HASH_HEXSZ + 1];
		struct object_id tmp;
		int abbrev;

		oid_to_hex_r(hex, &c[i].oid);
		/* the shortest unique abbreviation, at least 7 digits */
		for (abbrev = 7; abbrev < HASH_HEXSZ; abbrev++)
			if (odb_find_prefix(odb, hex, abbrev, &tmp, 2) < 2)
				break;
		strbuf_addf(out, "\nhint:   %.*s %s", abbrev, hex,
			    type_name(c[i].type) ? type_name(c[i].type) :
			    "unknown type");
		if (c[i].type == OBJ_COMMIT || c[i].type == OBJ_TAG) {
			struct odb_object obj;

			if (odb_read(&obj, odb, &c[i].oid, 0) < 0) {
				error_clear();
				continue;
			}
			if (c[i].type == OBJ_COMMIT) {
				describe_commit(out, &obj);
			} else {
				const char *t = strstr((const char *)obj.data,
						       "\ntag ");

				if (t) {
					const char *nl = strchr(t + 5, '\n');

					strbuf_addch(out, ' ');
					strbuf_add(out, t + 5, nl ? (size_t)
						   (nl - t - 5) : strlen(t + 5));
				}
			}
			odb_object_release(&obj);
		}
	}
	(void)repo;
}

int
get_oid_prefix(struct object_id *out, struct repo *repo, const char *hex,
	       size_t len)
{
	char lower[HASH_HEXSZ + 1];
	struct object_id cands[MAX_CANDIDATES];
	struct odb *odb;
	size_t count;
	int ret;

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
	count = odb_find_prefix(odb, lower, len, cands, MAX_CANDIDATES);
	if (!count && odb_reprepare(odb))
		count = odb_find_prefix(odb, lower, len, cands,
					MAX_CANDIDATES);
	if (count)
		*out = cands[0];
	/* the virtual empty tree */
	if (!count && !strncmp("4b825dc642cb6eb9a060e54bf8d69288fbee4904",
			       lower, len)) {
		*out = empty_tree_oid;
		count = 1;
	}
	if (count > 1) {
		struct strbuf pre = STRBUF_INIT;

		strbuf_addf(&pre, "short object ID %s is ambiguous\n"
			    "hint: The candidates are:", lower);
		describe_candidates(&pre, repo, odb, cands, count);
		ret = error_set_pre(E_AMBIGUOUS, pre.buf, "Not a valid object "
				    "name %.*s", (int)len, hex);
		strbuf_release(&pre);
		return ret;
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
	struct object_id other;
	int found = 0;

	if (!repo->gitdir || !len)
		return 0;
	refs_of(repo, &rs);
	for (size_t i = 0; i < ARRAY_SIZE(rules); i++) {
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
		if (!refs_resolve(&rs, full.buf, found ? &other : oid, NULL)) {
			/* the first rule that matches wins; count the rest */
			if (!found++ && out) {
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

		/* checked against its id, as git's parse_object() does */
		ret = odb_read(&obj, odb, &cur, ODB_READ_VERIFY);
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
	{
		int found = dwim_ref(NULL, out, repo, name, len), warn = 1;

		if (found > 1 &&
		    config_get_bool(&repo->config, "core.warnambiguousrefs",
				    &warn) >= 0 && warn)
			diag_emit(DIAG_WARNING, "refname '%.*s' is ambiguous.",
				  (int)len, name);
		if (found)
			return 0;
	}
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
	if (ret < 0)
		return ret;
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
	if (ret < 0) {
		enum object_type reached = OBJ_BAD;
		struct object_id last;

		/* the type the peeling ended at, for git's message */
		if (!peel_to_type(&last, repo, &base, OBJ_TREE))
			reached = OBJ_TREE;
		else if (!peel_to_type(&last, repo, &base, OBJ_NONE)) {
			struct odb *odb;
			size_t size;

			if (!repo_odb(&odb, repo))
				odb_read_info(&reached, &size, NULL, 0, odb,
					      &last, 0);
		}
		error_clear();
		diag_emit(DIAG_ERROR, "%.*s: expected %s type, but the object "
			  "dereferences to %s type", (int)len, name,
			  type_name(want) ? type_name(want) : "non-tag",
			  type_name(reached) ? type_name(reached) : "unknown");
		return not_valid(name, len);
	}
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

/* The entry path names inside tree, following subtrees; 1 if found. */
static int
tree_find(struct object_id *out, struct repo *repo,
	  const struct object_id *tree, const char *path)
{
	struct object_id cur = *tree;
	const char *p = path;
	struct odb *odb;

	if (repo_odb(&odb, repo) < 0)
		return -1;
	while (*p) {
		const char *slash = strchr(p, '/');
		size_t clen = slash ? (size_t)(slash - p) : strlen(p);
		struct odb_object obj;
		struct tree_iter it;
		struct tree_entry e;
		int found = 0;

		if (odb_read(&obj, odb, &cur, 0) < 0)
			return -1;
		if (obj.type != OBJ_TREE) {
			odb_object_release(&obj);
			return 0;
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
			return 0;
		if (!slash)
			break;
		p = slash + 1;
	}
	*out = cur;
	return 1;
}

/* "./x" and "../x" are relative to where the command started. */
static int
relative_spec(struct strbuf *out, struct repo *repo, const char *path)
{
	strbuf_reset(out);
	if (!starts_with(path, "./") && !starts_with(path, "../") &&
	    strcmp(path, ".") && strcmp(path, ".."))
		return 0;
	if (path_normalize(out, repo->prefix ? repo->prefix : "", path,
			   repo->worktree ? repo->worktree : "/") < 0)
		error_clear();
	return 1;
}

static int
tree_lookup(struct object_id *out, struct repo *repo,
	    const struct object_id *tree, const char *path, const char *rev)
{
	struct strbuf full = STRBUF_INIT;
	const char *p = path;
	int ret;

	if (relative_spec(&full, repo, path))
		p = full.buf;
	ret = tree_find(out, repo, tree, p);
	if (ret > 0) {
		strbuf_release(&full);
		return 0;
	}
	error_clear();
	/* from a subdirectory: did they mean the path below it? */
	if (repo->prefix && *repo->prefix && p == path) {
		struct object_id tmp;

		strbuf_addf(&full, "%s%s", repo->prefix, path);
		if (tree_find(&tmp, repo, tree, full.buf) > 0) {
			ret = error_set(E_INVALID, "path '%s' exists, but not "
					"'%s'\nhint: Did you mean '%s:%s' aka "
					"'%s:./%s'?", full.buf, path, rev,
					full.buf, rev, path);
			strbuf_release(&full);
			return ret;
		}
		error_clear();
	}
	ret = error_set(E_INVALID, "path '%s' does not exist in '%s'", p, rev);
	strbuf_release(&full);
	return ret;
}

static const char *
mkpath_in(struct strbuf *sb, const char *dir, const char *path)
{
	char *copy = xstrdup(path);

	strbuf_reset(sb);
	strbuf_addf(sb, "%s/%s", dir, copy);
	free(copy);
	return sb->buf;
}

static int
index_lookup(struct object_id *out, struct repo *repo, const char *spec)
{
	struct strbuf full = STRBUF_INIT;
	struct index idx;
	int stage = 0, ret, any_stage;
	const char *path;
	struct stat st;
	ssize_t pos;

	if (spec[0] >= '0' && spec[0] <= '3' && spec[1] == ':') {
		stage = spec[0] - '0';
		spec += 2;
	}
	path = spec;
	if (relative_spec(&full, repo, spec))
		path = full.buf;
	ret = index_read(&idx, repo->index_path, INDEX_READ_QUIET);
	if (ret < 0) {
		strbuf_release(&full);
		return ret;
	}
	pos = index_pos(&idx, path, strlen(path), stage);
	if (pos >= 0) {
		*out = idx.entries[pos]->oid;
		ret = 0;
		goto out;
	}
	any_stage = index_pos(&idx, path, strlen(path), -1) >= 0;
	if (path == spec && repo->prefix && *repo->prefix) {
		strbuf_addf(&full, "%s%s", repo->prefix, spec);
		if (index_pos(&idx, full.buf, full.len, stage) >= 0) {
			ret = error_set(E_INVALID, "path '%s' is in the index, "
					"but not '%s'\nhint: Did you mean "
					"':%d:%s' aka ':%d:./%s'?", full.buf,
					spec, stage, full.buf, stage, spec);
			goto out;
		}
	}
	if (any_stage)
		ret = error_set(E_INVALID, "path '%s' is in the index, but not "
				"at stage %d", path, stage);
	else if (repo->worktree && !lstat(mkpath_in(&full, repo->worktree,
						      path), &st))
		ret = error_set(E_INVALID, "path '%s' exists on disk, but not "
				"in the index", path);
	else
		ret = error_set(E_INVALID, "path '%s' does not exist (neither "
				"on disk nor in the index)", path);
out:
	index_release(&idx);
	strbuf_release(&full);
	return ret;
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
