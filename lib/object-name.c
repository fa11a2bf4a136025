/*
 * object-name: the resolver.  A name is read from its end: trailing
 * "^<n>", "~<n>" and "^{...}" operators are taken off one by one (a loop,
 * not recursion, so no name is too long), the base that remains is
 * resolved as a ref, a reflog entry, a describe name or an abbreviation,
 * and the operators are then applied innermost first.  "<rev>:<path>" and
 * ":<path>" are split off before that, as git splits them: the first ':'
 * outside braces.
 *
 * Abbreviations are looked up in every object directory and pack.  When
 * several objects share one, the type hint (ONAME_COMMIT ... ONAME_BLOB,
 * or core.disambiguate) keeps the ones of the wanted kind; exactly one
 * must remain.
 *
 * Internally a lookup returns 0, -E_NOTFOUND or -E_AMBIGUOUS (the name
 * does not resolve; no message needed), or another negative E_* whose
 * message is what git dies with.  The public entry points set the final
 * message.
 */
#include "object-name.h"

#include <ctype.h>
#include <fcntl.h>
#include <limits.h>
#include <regex.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commit.h"
#include "config.h"
#include "date.h"
#include "error.h"
#include "index.h"
#include "path.h"
#include "ref-list.h"
#include "reflog.h"
#include "refs.h"
#include "repo.h"
#include "sparse-index.h"
#include "strbuf.h"
#include "tree.h"

#define MIN_ABBREV 4
#define FALLBACK_ABBREV 7	/* git's default for small stores */
#define MAX_PEEL 1000		/* tags of tags: far more than any real */

/* One resolution: the repository, the caller's context, caches. */
struct res {
	struct repo *repo;
	struct oname_ctx *ctx;
	const char *prefix;		/* for ./ and ../ paths */
	struct odb *odb;		/* borrowed from repo; NULL until used */
	struct ref_store rs;
	int have_rs;
	struct commit_walk walk;
	int have_walk;
	struct strbuf report;		/* ambiguity reports so far */
	int warn_ambiguous;		/* core.warnAmbiguousRefs */
	unsigned default_hint;		/* from core.disambiguate */
};

static int get_oid_1(struct res *r, const char *name, size_t len,
		     struct object_id *out, unsigned flags);

/* ---- the object store ---- */

static int
res_odb(struct res *r, struct odb **out)
{
	int ret;

	if (!r->odb) {
		ret = repo_odb(&r->odb, r->repo);
		if (ret < 0)
			return ret;
	}
	*out = r->odb;
	return 0;
}

static struct ref_store *
res_refs(struct res *r)
{
	if (!r->have_rs) {
		ref_store_init(&r->rs, r->repo->gitdir, r->repo->commondir);
		r->rs.reftable = r->repo->reftable;
		r->have_rs = 1;
	}
	return &r->rs;
}

static struct commit_walk *
res_walk(struct res *r)
{
	if (!r->have_walk) {
		commit_walk_init(&r->walk, r->repo);
		r->have_walk = 1;
	}
	return &r->walk;
}

/* The type of oid, or OBJ_BAD when it is missing or unreadable. */
static enum object_type
type_of(struct res *r, const struct object_id *oid)
{
	enum object_type type;
	struct odb *odb;
	size_t size;

	if (res_odb(r, &odb) < 0 ||
	    odb_read_info(&type, &size, NULL, 0, odb, oid, 0) < 0) {
		error_clear();
		return OBJ_BAD;
	}
	return type;
}

/*
 * After reading oid failed: -E_CORRUPT with its message when the object
 * is there but cannot be read (git dies: "loose object <id> ... is
 * corrupt"), else the error of its replace refs ("replace depth too high
 * for object <id>"), which git dies with wherever it reads the object,
 * else -E_NOTFOUND (missing, message cleared).
 */
static int
read_failed(struct res *r, const struct object_id *oid)
{
	struct object_id repl;
	struct odb *odb;

	if (error_code() == E_CORRUPT)
		return -E_CORRUPT;
	error_clear();
	if (res_odb(r, &odb) < 0) {
		error_clear();
		return -E_NOTFOUND;
	}
	if (odb_replacement(&repl, odb, oid, 0) < 0)
		return -error_code();
	return -E_NOTFOUND;
}

/*
 * Read oid checking it against its id, as git parses an object before
 * using it.  0, or read_failed()'s error.
 */
static int
read_object(struct res *r, const struct object_id *oid,
	    struct odb_object *out)
{
	struct odb *odb;

	if (res_odb(r, &odb) < 0 || odb_read(out, odb, oid, ODB_READ_VERIFY))
		return read_failed(r, oid);
	return 0;
}

/* commit_walk_parse(), with read_failed()'s errors. */
static int
parse_commit(struct res *r, struct commit_node *c)
{
	if (commit_walk_parse(res_walk(r), c) < 0)
		return read_failed(r, &c->oid);
	return 0;
}

/* The id after "<field> " on the first lines of an object, if any. */
static int
header_oid(const struct odb_object *obj, const char *field,
	   struct object_id *out)
{
	const char *p = (const char *)obj->data, *end = p + obj->size;
	size_t flen = strlen(field);

	while (p < end && *p != '\n') {
		const char *nl = memchr(p, '\n', end - p);

		if (!nl)
			break;
		if ((size_t)(nl - p) == flen + 1 + HASH_HEXSZ &&
		    !memcmp(p, field, flen) && p[flen] == ' ')
			return hex_to_oid(out, p + flen + 1) ? -1 : 0;
		p = nl + 1;
	}
	return -1;
}

/*
 * Follow tags from oid to the first object that is not one; 0 with its
 * id and type, or -E_NOTFOUND.
 */
static int
deref_tags(struct res *r, const struct object_id *oid, struct object_id *out,
	   enum object_type *type)
{
	struct object_id cur;

	oidcpy(&cur, oid);
	for (int i = 0; i < MAX_PEEL; i++) {
		struct odb_object obj = ODB_OBJECT_INIT;
		int ret = read_object(r, &cur, &obj);

		if (ret < 0)
			return ret;
		if (obj.type != OBJ_TAG) {
			*out = cur;
			*type = obj.type;
			odb_object_release(&obj);
			return 0;
		}
		ret = header_oid(&obj, "object", &cur);
		odb_object_release(&obj);
		if (ret < 0)
			return -E_NOTFOUND;
	}
	return -E_NOTFOUND;
}

/*
 * git's peeling for "<name>^{<type>}": tags to their targets, commits to
 * their trees, until want is reached (OBJ_BAD: any type); anything else
 * is an error naming the expression (name, len).
 */
static int
peel_named(struct res *r, const struct object_id *oid, enum object_type want,
	   const char *name, size_t len, struct object_id *out)
{
	struct object_id cur;

	oidcpy(&cur, oid);
	for (int i = 0; i < MAX_PEEL; i++) {
		struct odb_object obj = ODB_OBJECT_INIT;
		int ret = read_object(r, &cur, &obj);

		if (ret < 0)
			return ret;
		if (want == OBJ_BAD || obj.type == want) {
			odb_object_release(&obj);
			*out = cur;
			return 0;
		}
		if (obj.type == OBJ_TAG)
			ret = header_oid(&obj, "object", &cur);
		else if (obj.type == OBJ_COMMIT)
			ret = header_oid(&obj, "tree", &cur);
		else
			diag_emit(DIAG_ERROR, "%.*s: expected %s type, but the "
				  "object dereferences to %s type", (int)len,
				  name, type_name(want), obj.type_name);
		if (obj.type != OBJ_TAG && obj.type != OBJ_COMMIT)
			ret = -1;
		odb_object_release(&obj);
		if (ret < 0)
			return -E_NOTFOUND;
	}
	return -E_NOTFOUND;
}

/* A commit that oid is or whose tags point to; git's message if not. */
static int
commit_of(struct res *r, const struct object_id *oid, struct object_id *out)
{
	enum object_type type;
	int ret = deref_tags(r, oid, out, &type);

	if (ret < 0)
		return ret;
	if (type != OBJ_COMMIT) {
		diag_emit(DIAG_ERROR, "object %s is a %s, not a commit",
			  oid_to_hex(out), type_name(type) ? type_name(type) :
			  "unknown type");
		return -E_NOTFOUND;
	}
	return 0;
}

/* ---- abbreviations ---- */

struct oid_set {
	struct object_id *oids;	/* owned */
	size_t nr;
};

static int
oid_cmp(const void *a, const void *b)
{
	return oidcmp(a, b);
}

/* Every stored id starting with the lowercase hex prefix, once, sorted. */
static int
find_prefix(struct res *r, const char *hex, size_t len, struct oid_set *out)
{
	size_t max = 64, n;
	struct odb *odb;
	int ret;

	out->oids = NULL;
	out->nr = 0;
	ret = res_odb(r, &odb);
	if (ret < 0)
		return ret;
	for (int pass = 0; pass < 2; pass++) {
		for (;;) {
			out->oids = xrealloc(out->oids, st_mult(max,
						sizeof(*out->oids)));
			n = odb_find_prefix(odb, hex, len, out->oids, max);
			if (n < max)
				break;
			max *= 2;	/* it may have stopped early */
		}
		/* a miss: the packs may have changed under us */
		if (n || !odb_reprepare(odb))
			break;
	}
	out->nr = n;
	sort_array(out->oids, out->nr, sizeof(*out->oids), oid_cmp);
	return 0;
}

/* Does oid suit the hint (one ONAME_* disambiguator)? */
static int
hint_ok(struct res *r, const struct object_id *oid, unsigned hint)
{
	enum object_type type = type_of(r, oid);
	struct object_id peeled;

	if (hint & ONAME_COMMIT)
		return type == OBJ_COMMIT;
	if (hint & ONAME_TREE)
		return type == OBJ_TREE;
	if (hint & ONAME_BLOB)
		return type == OBJ_BLOB;
	if (type == OBJ_TAG && deref_tags(r, oid, &peeled, &type) < 0)
		return 0;
	if (hint & ONAME_COMMITTISH)
		return type == OBJ_COMMIT;
	if (hint & ONAME_TREEISH)
		return type == OBJ_COMMIT || type == OBJ_TREE;
	return 1;
}

static int
hex_prefix(char *lower, const char *s, size_t len)
{
	if (len < MIN_ABBREV || len > (size_t)HASH_HEXSZ)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (hexval((unsigned char)s[i]) < 0)
			return -1;
		lower[i] = (char)tolower((unsigned char)s[i]);
	}
	lower[len] = '\0';
	return 0;
}

/* git lists tags first, then commits, trees, blobs; unreadable ones first */
static int
type_rank(enum object_type t)
{
	switch (t) {
	case OBJ_TAG:
		return 0;
	case OBJ_COMMIT:
		return 1;
	case OBJ_TREE:
		return 2;
	case OBJ_BLOB:
		return 3;
	default:
		return -1;
	}
}

struct candidate {
	struct object_id oid;
	enum object_type type;
};

static int
cand_cmp(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;

	if (x->type != y->type)
		return type_rank(x->type) - type_rank(y->type);
	return oidcmp(&x->oid, &y->oid);
}

/* The shortest prefix of oid (at least len digits) that others lack. */
static int
unique_len(struct res *r, const struct object_id *oid, int len)
{
	char hex[HASH_MAX_HEXSZ + 1];
	struct oid_set set;
	int best = len;

	oid_to_hex_r(hex, oid);
	if (len >= HASH_HEXSZ || find_prefix(r, hex, len, &set) < 0) {
		error_clear();
		return len < HASH_HEXSZ ? len : HASH_HEXSZ;
	}
	for (size_t i = 0; i < set.nr; i++) {
		char other[HASH_MAX_HEXSZ + 1];
		int common = 0;

		if (oideq(&set.oids[i], oid))
			continue;
		oid_to_hex_r(other, &set.oids[i]);
		while (common < HASH_HEXSZ && other[common] == hex[common])
			common++;
		if (common + 1 > best)
			best = common + 1;
	}
	free(set.oids);
	return best < HASH_HEXSZ ? best : HASH_HEXSZ;
}

/* " YYYY-MM-DD - <subject>" of a commit, as git's hint shows it. */
static void
describe_commit(struct strbuf *out, const struct odb_object *obj)
{
	const char *p = (const char *)obj->data, *end = p + obj->size;
	const char *subject = NULL;
	long long when = 0;
	int tz = 0;

	while (p < end && *p != '\n') {
		const char *nl = memchr(p, '\n', end - p);

		if (!nl)
			break;
		if (!strncmp(p, "author ", 7)) {
			const char *gt = memchr(p, '>', nl - p);
			char *e;

			if (gt) {
				when = strtoll(gt + 1, &e, 10);
				tz = (int)strtol(e, NULL, 10);
			}
		}
		p = nl + 1;
	}
	if (p < end && *p == '\n')
		subject = p + 1;
	strbuf_addch(out, ' ');
	date_format_short(out, when, tz);
	strbuf_addstr(out, " - ");
	if (subject) {
		/* the first paragraph, lines joined by spaces */
		const char *s = subject;

		while (s < end) {
			const char *nl = memchr(s, '\n', end - s);
			size_t l = nl ? (size_t)(nl - s) : (size_t)(end - s);

			if (!l)
				break;
			if (s != subject)
				strbuf_addch(out, ' ');
			strbuf_add(out, s, l);
			s += l + (nl ? 1 : 0);
		}
	}
}

/* " YYYY-MM-DD - <name>" of a tag (date of its tagger, else 1970). */
static int
describe_tag(struct strbuf *out, const struct odb_object *obj)
{
	const char *p = (const char *)obj->data, *end = p + obj->size;
	const char *name = NULL;
	size_t name_len = 0;
	long long when = 0;

	while (p < end && *p != '\n') {
		const char *nl = memchr(p, '\n', end - p);

		if (!nl)
			break;
		if (!strncmp(p, "tag ", 4)) {
			name = p + 4;
			name_len = nl - name;
		} else if (!strncmp(p, "tagger ", 7)) {
			const char *gt = memchr(p, '>', nl - p);

			if (gt)
				when = strtoll(gt + 1, NULL, 10);
		}
		p = nl + 1;
	}
	if (!name)
		return -1;
	strbuf_addch(out, ' ');
	date_format_short(out, when, 0);
	strbuf_addstr(out, " - ");
	strbuf_add(out, name, name_len);
	return 0;
}

/*
 * Why the loose object oid cannot be read, in the error lines git prints
 * when it tries (each line preceded by "\nerror: "); nothing for an
 * object that is not loose or whose header reads fine.
 */
static void
explain_unreadable(struct strbuf *out, struct res *r,
		   const struct object_id *oid)
{
	unsigned char in[512], hdr[ODB_HEADER_MAX + 32];
	struct strbuf path = STRBUF_INIT;
	struct odb *odb;
	z_stream zs;
	ssize_t n = -1;
	int fd = -1, status;

	if (res_odb(r, &odb) < 0) {
		error_clear();
		return;
	}
	for (size_t s = 0; fd < 0 && s < odb->nr_sources; s++) {
		odb_loose_path_in(&path, odb->sources[s].objdir, oid);
		fd = open(path.buf, O_RDONLY | O_CLOEXEC);
	}
	strbuf_release(&path);
	if (fd < 0)
		return;
	n = read_full(fd, in, sizeof(in));
	close(fd);
	if (n < 0)
		return;
	memset(&zs, 0, sizeof(zs));
	zs.next_in = in;
	zs.avail_in = (uInt)n;
	zs.next_out = hdr;
	zs.avail_out = sizeof(hdr);
	if (inflateInit(&zs) != Z_OK)
		return;
	do {
		status = inflate(&zs, Z_SYNC_FLUSH);
	} while (status == Z_OK && zs.avail_out && zs.avail_in &&
		 !memchr(hdr, '\0', sizeof(hdr) - zs.avail_out));
	if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR)
		strbuf_addf(out, "\nerror: inflate: %s (%s)",
			    odb_zlib_status_name(status), zs.msg ? zs.msg :
			    "no message");
	if (status < Z_OK && status != Z_BUF_ERROR)
		strbuf_addf(out, "\nerror: unable to unpack %s header",
			    oid_to_hex(oid));
	else if (!memchr(hdr, '\0', sizeof(hdr) - zs.avail_out))
		strbuf_addf(out, "\nerror: unable to unpack %s header",
			    oid_to_hex(oid));
	else
		strbuf_addf(out, "\nerror: unable to parse %s header",
			    oid_to_hex(oid));
	inflateEnd(&zs);
}

/*
 * git's report for an ambiguous abbreviation into r->report: the error
 * line and the candidates (those that suit the hint, if several did; all
 * otherwise).  A candidate of a type git cannot name is fatal, as in git.
 */
static int
report_ambiguity(struct res *r, const char *hex, size_t len,
		 const struct oid_set *set, unsigned hint, int several_fit)
{
	struct candidate *c = xcalloc(set->nr ? set->nr : 1, sizeof(*c));
	struct strbuf lines = STRBUF_INIT, why = STRBUF_INIT;
	size_t nr = 0;
	struct odb *odb;
	int ret = 0, abbrev;

	if (r->report.len)
		strbuf_addstr(&r->report, "\nerror: ");
	strbuf_addf(&r->report, "short object ID %.*s is ambiguous", (int)len,
		    hex);
	ret = res_odb(r, &odb);
	if (ret < 0)
		goto out;
	if (oname_default_abbrev(r->repo, &abbrev) < 0)
		error_clear();
	for (size_t i = 0; i < set->nr; i++) {
		enum object_type type;
		char tbuf[64];
		size_t size;

		if (several_fit && !hint_ok(r, &set->oids[i], hint))
			continue;
		c[nr].oid = set->oids[i];
		if (odb_read_info(&type, &size, tbuf, sizeof(tbuf), odb,
				  &set->oids[i], ODB_READ_ANY_TYPE) < 0) {
			error_clear();
			type = OBJ_BAD;
			/* git says why while sorting, and again when listing */
			explain_unreadable(&why, r, &set->oids[i]);
		} else if (type == OBJ_BAD) {
			ret = error_set(E_CORRUPT, "invalid object type");
			goto out;
		}
		c[nr++].type = type;
	}
	sort_array(c, nr, sizeof(*c), cand_cmp);
	strbuf_addbuf(&r->report, &why);
	for (size_t i = 0; i < nr; i++) {
		char h[HASH_MAX_HEXSZ + 1];
		struct odb_object obj = ODB_OBJECT_INIT;

		oid_to_hex_r(h, &c[i].oid);
		strbuf_addf(&lines, "\nhint:   %.*s",
			    unique_len(r, &c[i].oid, abbrev), h);
		if (type_rank(c[i].type) < 0) {
			strbuf_addstr(&lines, " [bad object]");
			explain_unreadable(&r->report, r, &c[i].oid);
			continue;
		}
		strbuf_addf(&lines, " %s", type_name(c[i].type));
		if (c[i].type != OBJ_COMMIT && c[i].type != OBJ_TAG)
			continue;
		if (odb_read(&obj, odb, &c[i].oid, 0) < 0) {
			error_clear();
			continue;
		}
		if (c[i].type == OBJ_COMMIT) {
			describe_commit(&lines, &obj);
		} else if (describe_tag(&lines, &obj) < 0) {
			strbuf_setlen(&lines, lines.len - 4);
			strbuf_addstr(&lines, "[bad tag, could not parse it]");
		}
		odb_object_release(&obj);
	}
	strbuf_addstr(&r->report, "\nhint: The candidates are:");
	strbuf_addbuf(&r->report, &lines);
out:
	free(c);
	strbuf_release(&lines);
	strbuf_release(&why);
	return ret;
}

/* The hint core.disambiguate gives (0: none), or -E_INVALID. */
static int
read_default_hint(struct repo *repo, unsigned *out)
{
	static const struct { const char *name; unsigned hint; } kinds[] = {
		{ "none", 0 }, { "commit", ONAME_COMMIT },
		{ "committish", ONAME_COMMITTISH }, { "tree", ONAME_TREE },
		{ "treeish", ONAME_TREEISH }, { "blob", ONAME_BLOB },
	};
	const char *v;

	*out = 0;
	if (!config_get(&repo->config, "core.disambiguate", &v))
		return 0;
	for (size_t i = 0; v && i < ARRAY_SIZE(kinds); i++)
		if (!strcasecmp(v, kinds[i].name)) {
			*out = kinds[i].hint;
			return 0;
		}
	return error_set(E_INVALID, "unknown hint type for "
			 "'core.disambiguate': %s", v ? v : "");
}

#define HINTS (ONAME_COMMIT | ONAME_COMMITTISH | ONAME_TREE | \
	       ONAME_TREEISH | ONAME_BLOB)

/*
 * An abbreviated id.  Exactly one candidate, or exactly one that suits
 * the hint, is the answer; several (or several unsuitable ones) are
 * ambiguous.
 */
static int
get_short(struct res *r, const char *name, size_t len,
	  struct object_id *out, unsigned flags)
{
	char hex[HASH_MAX_HEXSZ + 1];
	unsigned hint = flags & HINTS;
	struct oid_set set;
	size_t fit = 0, fit_at = 0;
	int ret;

	if (hex_prefix(hex, name, len) < 0)
		return -E_NOTFOUND;
	ret = find_prefix(r, hex, len, &set);
	if (ret < 0)
		return ret;
	if (!hint)
		hint = r->default_hint;
	if (set.nr == 1) {
		*out = set.oids[0];
		ret = 0;
		goto out;
	}
	if (!set.nr) {
		ret = -E_NOTFOUND;
		goto out;
	}
	if (hint)
		for (size_t i = 0; i < set.nr; i++)
			if (hint_ok(r, &set.oids[i], hint)) {
				fit++;
				fit_at = i;
			}
	if (fit == 1) {
		*out = set.oids[fit_at];
		ret = 0;
		goto out;
	}
	ret = -E_AMBIGUOUS;
	if (!(flags & ONAME_QUIET)) {
		int fatal = report_ambiguity(r, hex, len, &set, hint, fit > 1);

		if (fatal < 0)
			ret = fatal;
	}
out:
	free(set.oids);
	return ret;
}

/* "<anything>-g<hex>": the commit the hex abbreviates, quietly. */
static int
get_describe(struct res *r, const char *name, size_t len,
	     struct object_id *out)
{
	for (size_t i = len; i-- > 2;) {
		if (isxdigit((unsigned char)name[i]))
			continue;
		if (name[i] == 'g' && name[i - 1] == '-')
			return get_short(r, name + i + 1, len - i - 1, out,
					 ONAME_QUIET | ONAME_COMMIT);
	}
	return -E_NOTFOUND;
}

/* ---- refs, reflogs, branch names ---- */

static size_t
mark_len(const char *s, size_t len, const char *const *marks, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t ml = strlen(marks[i]);

		if (len >= ml && !strncasecmp(s, marks[i], ml))
			return ml;
	}
	return 0;
}

size_t
oname_upstream_mark(const char *s, size_t len)
{
	static const char *const marks[] = { "@{upstream}", "@{u}" };

	return mark_len(s, len, marks, ARRAY_SIZE(marks));
}

size_t
oname_push_mark(const char *s, size_t len)
{
	static const char *const marks[] = { "@{push}" };

	return mark_len(s, len, marks, ARRAY_SIZE(marks));
}

/*
 * The branch HEAD is on (short name), or 0 when HEAD is detached or
 * unreadable.
 */
static int
current_branch(struct res *r, struct strbuf *out)
{
	struct object_id oid;
	struct strbuf target = STRBUF_INIT;
	const char *b;
	int ret = refs_read_raw(res_refs(r), "HEAD", &oid, &target);

	if (ret < 0)
		error_clear();
	if (ret == 1 && skip_prefix(target.buf, "refs/heads/", &b)) {
		strbuf_reset(out);
		strbuf_addstr(out, b);
		ret = 1;
	} else {
		ret = 0;
	}
	strbuf_release(&target);
	return ret;
}

/* The value of a per-branch or per-remote setting, or NULL. */
static const char *
config_for(struct res *r, const char *section, const char *sub,
	   const char *key)
{
	struct strbuf k = STRBUF_INIT;
	const char *v = NULL;

	strbuf_addf(&k, "%s.%s.%s", section, sub, key);
	if (!config_get(&r->repo->config, k.buf, &v))
		v = NULL;
	strbuf_release(&k);
	return v;
}

/* Does src match a refspec side (at most one '*', any text)? */
static int
pattern_matches(const char *pat, size_t plen, const char *src)
{
	const char *star = memchr(pat, '*', plen);
	size_t slen = strlen(src), pre, post;

	if (!star)
		return slen == plen && !strncmp(src, pat, plen);
	pre = star - pat;
	post = plen - pre - 1;
	return slen >= pre + post && !strncmp(src, pat, pre) &&
	       !strncmp(src + slen - post, star + 1, post);
}

/*
 * Where the first refspec of kind ("fetch" or "push") of remote that
 * matches puts the ref src: 1 with the name in out, or 0.
 */
static int
map_refspecs(struct res *r, const char *remote, const char *kind,
	     const char *src, struct strbuf *out)
{
	struct strbuf key = STRBUF_INIT;
	const struct config *cfg = &r->repo->config;
	int found = 0;

	strbuf_addf(&key, "remote.%s.%s", remote, kind);
	/* a negative refspec ("^refs/...") excludes, whatever its place */
	for (size_t i = 0; i < cfg->nr; i++) {
		const char *v = cfg->entries[i].value;

		if (!strcmp(cfg->entries[i].key, key.buf) && v && *v == '^' &&
		    pattern_matches(v + 1, strlen(v + 1), src))
			goto out;
	}
	for (size_t i = 0; i < cfg->nr && !found; i++) {
		const char *v = cfg->entries[i].value, *colon, *star;
		size_t llen;

		if (strcmp(cfg->entries[i].key, key.buf) || !v || *v == '^')
			continue;
		if (*v == '+')
			v++;
		colon = strchr(v, ':');
		if (!colon || !colon[1])
			continue;
		llen = colon - v;
		if (!pattern_matches(v, llen, src))
			continue;
		star = memchr(v, '*', llen);
		if (star) {
			size_t pre = star - v, post = llen - pre - 1;
			size_t slen = strlen(src);
			const char *rstar = strchr(colon + 1, '*');

			if (!rstar)
				continue;
			strbuf_reset(out);
			strbuf_add(out, colon + 1, rstar - colon - 1);
			strbuf_add(out, src + pre, slen - pre - post);
			strbuf_addstr(out, rstar + 1);
			found = 1;
		} else {
			strbuf_reset(out);
			strbuf_addstr(out, colon + 1);
			found = 1;
		}
	}
out:
	strbuf_release(&key);
	return found;
}

static int dwim_ref(struct res *r, const char *str, size_t len,
		    struct object_id *oid, struct strbuf *refname);

/*
 * "<branch>@{upstream}": the full name of the remote-tracking ref the
 * branch merges from, or git's fatal message.  branch (blen bytes) empty
 * or "HEAD" means the current branch.
 */
static int
upstream_of(struct res *r, const char *branch, size_t blen,
	    struct strbuf *out)
{
	struct strbuf name = STRBUF_INIT, full = STRBUF_INIT;
	const char *remote, *merge;
	struct object_id oid;
	int ret = 0;

	if (!blen || (blen == 4 && !memcmp(branch, "HEAD", 4))) {
		if (!current_branch(r, &name)) {
			ret = error_set(E_INVALID, "HEAD does not point to a "
					"branch");
			goto out;
		}
	} else {
		strbuf_add(&name, branch, blen);
	}
	remote = config_for(r, "branch", name.buf, "remote");
	merge = config_for(r, "branch", name.buf, "merge");
	if (!remote || !merge) {
		strbuf_addf(&full, "refs/heads/%s", name.buf);
		if (refs_resolve(res_refs(r), full.buf, &oid, NULL) < 0) {
			error_clear();
			ret = error_set(E_INVALID, "no such branch: '%s'",
					name.buf);
		} else {
			ret = error_set(E_INVALID, "no upstream configured for "
					"branch '%s'", name.buf);
		}
		goto out;
	}
	if (!strcmp(remote, ".")) {
		struct strbuf found = STRBUF_INIT;

		if (dwim_ref(r, merge, strlen(merge), &oid, &found) == 1)
			strbuf_addbuf(out, &found);
		else
			strbuf_addstr(out, merge);
		error_clear();
		strbuf_release(&found);
	} else if (!map_refspecs(r, remote, "fetch", merge, out)) {
		ret = error_set(E_INVALID, "upstream branch '%s' not stored as "
				"a remote-tracking branch", merge);
	}
out:
	strbuf_release(&name);
	strbuf_release(&full);
	return ret;
}

/* The remote-tracking ref of remote's dst, or git's fatal message. */
static int
tracking_for_push(struct res *r, const char *remote, const char *dst,
		  struct strbuf *out)
{
	if (map_refspecs(r, remote, "fetch", dst, out))
		return 0;
	return error_set(E_INVALID, "push destination '%s' on remote '%s' has "
			 "no local tracking branch", dst, remote);
}

/*
 * "<branch>@{push}": the remote-tracking ref of where "git push" would
 * send the branch, by push.default; or git's fatal message.
 */
static int
push_of(struct res *r, const char *branch, size_t blen, struct strbuf *out)
{
	struct strbuf name = STRBUF_INIT, full = STRBUF_INIT;
	struct strbuf dst = STRBUF_INIT, up = STRBUF_INIT;
	const char *remote, *mode = "simple", *v;
	int ret = 0;

	if (!blen || (blen == 4 && !memcmp(branch, "HEAD", 4))) {
		if (!current_branch(r, &name))
			return error_set(E_INVALID, "HEAD does not point to a "
					 "branch");
	} else {
		strbuf_add(&name, branch, blen);
	}
	strbuf_addf(&full, "refs/heads/%s", name.buf);
	remote = config_for(r, "branch", name.buf, "pushremote");
	if (!remote && !config_get(&r->repo->config, "remote.pushdefault",
				   &remote))
		remote = NULL;
	if (!remote)
		remote = config_for(r, "branch", name.buf, "remote");
	/* git takes any name it is given for a remote (as its URL) */
	if (!remote)
		remote = "origin";
	if (config_for(r, "remote", remote, "push")) {
		if (!map_refspecs(r, remote, "push", full.buf, &dst))
			ret = error_set(E_INVALID, "push refspecs for '%s' do "
					"not include '%s'", remote, name.buf);
		else
			ret = tracking_for_push(r, remote, dst.buf, out);
		goto out;
	}
	if ((v = config_for(r, "remote", remote, "mirror")) &&
	    config_parse_bool(v) > 0) {
		ret = tracking_for_push(r, remote, full.buf, out);
		goto out;
	}
	if (config_get(&r->repo->config, "push.default", &v) && v)
		mode = v;
	if (!strcmp(mode, "nothing")) {
		ret = error_set(E_INVALID, "push has no destination "
				"(push.default is 'nothing')");
	} else if (!strcmp(mode, "matching") || !strcmp(mode, "current")) {
		ret = tracking_for_push(r, remote, full.buf, out);
	} else if (!strcmp(mode, "upstream") || !strcmp(mode, "tracking")) {
		ret = upstream_of(r, name.buf, name.len, out);
	} else {
		ret = upstream_of(r, name.buf, name.len, &up);
		if (!ret)
			ret = tracking_for_push(r, remote, full.buf, out);
		if (!ret && strcmp(out->buf, up.buf))
			ret = error_set(E_INVALID, "cannot resolve 'simple' "
					"push to a single destination");
	}
out:
	strbuf_release(&name);
	strbuf_release(&full);
	strbuf_release(&dst);
	strbuf_release(&up);
	return ret;
}

/*
 * "@{-<n>}" at the start of str: how many bytes it takes, with the n-th
 * branch checked out before (a name or an id) in out; 0 if there were
 * not that many switches (*syntax set), or if str does not start with
 * one (*syntax clear); or a negative E_*.
 */
static int
nth_prior(struct res *r, const char *str, size_t len, struct strbuf *out,
	  int *syntax)
{
	const char *brace;
	char *num, *end;
	long n;
	int ret;

	*syntax = 0;
	if (len < 4 || memcmp(str, "@{-", 3))
		return 0;
	brace = memchr(str, '}', len);
	if (!brace)
		return 0;
	/* strtol, as git reads the number: blanks and a sign may lead */
	num = xmemdupz(str + 3, brace - (str + 3));
	errno = 0;
	n = strtol(num, &end, 10);
	ret = *end || end == num || n <= 0 || n > INT_MAX;
	free(num);
	if (ret)
		return 0;
	*syntax = 1;
	ret = reflog_nth_checkout(out, res_refs(r), (int)n);
	if (ret <= 0)
		return ret;
	return (int)(brace + 1 - str);
}

#define MAX_REINTERPRET 4	/* "@{-1}@{u}", "@@{u}": one level is enough */

/*
 * git's branch-name shorthands at the start of str: "@{-<n>}", "@" (HEAD)
 * and "[<branch>]@{upstream}" / "@{push}" (the first '@' that starts a
 * mark decides: its branch is looked up, and may fail, whatever follows).
 * What a shorthand leaves over is read again after the replacement.
 * Returns how many bytes of str were replaced (the replacement in out),
 * 0 for none, or a negative E_*.
 */
static int
interpret_branch_1(struct res *r, const char *str, size_t len,
		   struct strbuf *out, int depth)
{
	struct strbuf head = STRBUF_INIT, again = STRBUF_INIT;
	struct strbuf sub = STRBUF_INIT;
	int syntax, used = 0, ret;
	size_t at;

	ret = nth_prior(r, str, len, &head, &syntax);
	if (ret < 0 || (!ret && syntax))
		goto out;
	if (ret > 0) {
		used = ret;
	} else if (len && str[0] == '@' && (len == 1 || (len > 2 &&
			str[1] == '@' && str[2] == '{'))) {
		strbuf_addstr(&head, "HEAD");
		used = 1;
	}
	if (used) {
		ret = used;
		strbuf_reset(out);
		strbuf_addbuf(out, &head);
		if ((size_t)used == len || depth >= MAX_REINTERPRET)
			goto out;
		/* read the replacement and the rest as one name */
		strbuf_addbuf(&again, &head);
		strbuf_add(&again, str + used, len - used);
		ret = interpret_branch_1(r, again.buf, again.len, &sub,
					 depth + 1);
		if (ret < 0)
			goto out;
		if (ret > 0) {
			strbuf_reset(out);
			strbuf_addbuf(out, &sub);
			ret = ret - (int)head.len + used;
		} else {
			ret = used;
		}
		goto out;
	}
	ret = 0;
	for (at = 0; at < len; at++) {
		size_t ml;

		if (str[at] != '@')
			continue;
		if ((ml = oname_upstream_mark(str + at, len - at))) {
			if (memchr(str, ':', at))
				continue;
			strbuf_reset(out);
			ret = upstream_of(r, str, at, out);
		} else if ((ml = oname_push_mark(str + at, len - at))) {
			if (memchr(str, ':', at))
				continue;
			strbuf_reset(out);
			ret = push_of(r, str, at, out);
		} else {
			continue;
		}
		if (!ret)
			ret = (int)(at + ml);
		break;
	}
out:
	strbuf_release(&head);
	strbuf_release(&again);
	strbuf_release(&sub);
	return ret;
}

/*
 * The name str stands for when a shorthand makes up all of it: 1 with
 * the name in out, 0 if not, or a negative E_*.
 */
static int
interpret_branch(struct res *r, const char *str, size_t len,
		 struct strbuf *out)
{
	int ret;

	if (len > INT_MAX)
		return 0;
	ret = interpret_branch_1(r, str, len, out, 0);
	if (ret < 0)
		return ret;
	return (size_t)ret == len;
}

/* git's "unambiguous path" test for a ref name: no "//", no trailing
 * "/", no leading "/", no component made only of dots at the end */
static int
ambiguous_path(const char *s, size_t len)
{
	int slash = 1;

	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\0')
			break;
		if (s[i] == '/') {
			if (slash)
				return 1;
			slash = 1;
		} else if (s[i] != '.') {
			slash = 0;
		}
	}
	return slash;
}

static const char *const rules[][2] = {
	{ "", "" }, { "refs/", "" }, { "refs/tags/", "" },
	{ "refs/heads/", "" }, { "refs/remotes/", "" },
	{ "refs/remotes/", "/HEAD" },
};

static void
rule_name(struct strbuf *out, size_t rule, const char *str, size_t len)
{
	strbuf_reset(out);
	strbuf_addstr(out, rules[rule][0]);
	strbuf_add(out, str, len);
	strbuf_addstr(out, rules[rule][1]);
}

/*
 * Expand str by the ref rules.  Returns how many matched (stopping at the
 * first unless core.warnAmbiguousRefs), with the first one's value and
 * resolved name; or a negative E_* when a shorthand cannot be
 * interpreted.
 */
static int
dwim_ref(struct res *r, const char *str, size_t len, struct object_id *oid,
	 struct strbuf *refname)
{
	struct strbuf sub = STRBUF_INIT, full = STRBUF_INIT;
	struct strbuf resolved = STRBUF_INIT;
	struct object_id tmp;
	int found = 0, ret;

	ret = interpret_branch(r, str, len, &sub);
	if (ret < 0)
		goto out;
	if (ret) {
		str = sub.buf;
		len = sub.len;
	}
	for (size_t i = 0; i < ARRAY_SIZE(rules); i++) {
		rule_name(&full, i, str, len);
		if (memchr(full.buf, '\0', full.len) ||
		    !refname_is_valid(full.buf, REFNAME_ALLOW_ONELEVEL))
			continue;
		ret = refs_resolve(res_refs(r), full.buf, found ? &tmp : oid,
				   &resolved);
		if (!ret) {
			if (!found++ && refname) {
				strbuf_reset(refname);
				strbuf_addbuf(refname, &resolved);
			}
			if (!r->warn_ambiguous)
				break;
			continue;
		}
		error_clear();
		if (ret == -E_NOTFOUND && strcmp(resolved.buf, full.buf) &&
		    strcmp(full.buf, "HEAD"))
			diag_emit(DIAG_WARNING, "ignoring dangling symref %s",
				  full.buf);
		else if (ret != -E_NOTFOUND && strchr(full.buf, '/'))
			diag_emit(DIAG_WARNING, "ignoring broken ref %s",
				  full.buf);
	}
	ret = found;
out:
	strbuf_release(&sub);
	strbuf_release(&full);
	strbuf_release(&resolved);
	return ret;
}

/*
 * The reflog str names: how many rules gave a ref with a log (as
 * dwim_ref counts), the first one's log name and the ref's value.
 */
static int
dwim_log(struct res *r, const char *str, size_t len, struct object_id *oid,
	 struct strbuf *logname)
{
	struct strbuf sub = STRBUF_INIT, full = STRBUF_INIT;
	struct strbuf resolved = STRBUF_INIT;
	int found = 0, ret;

	ret = interpret_branch(r, str, len, &sub);
	if (ret < 0)
		goto out;
	if (ret) {
		str = sub.buf;
		len = sub.len;
	}
	for (size_t i = 0; i < ARRAY_SIZE(rules); i++) {
		struct object_id value;
		const char *it;

		rule_name(&full, i, str, len);
		if (memchr(full.buf, '\0', full.len) ||
		    !refname_is_valid(full.buf, REFNAME_ALLOW_ONELEVEL))
			continue;
		if (refs_resolve(res_refs(r), full.buf, &value, &resolved)) {
			error_clear();
			continue;
		}
		if (reflog_exists(res_refs(r), full.buf))
			it = full.buf;
		else if (strcmp(resolved.buf, full.buf) &&
			 reflog_exists(res_refs(r), resolved.buf))
			it = resolved.buf;
		else
			continue;
		if (!found++) {
			strbuf_reset(logname);
			strbuf_addstr(logname, it);
			*oid = value;
		}
		if (!r->warn_ambiguous)
			break;
	}
	ret = found;
out:
	strbuf_release(&sub);
	strbuf_release(&full);
	strbuf_release(&resolved);
	return ret;
}

static const char object_name_advice[] =
	"Git normally never creates a ref that ends with 40 hex characters\n"
	"because it will be ignored when you just specify 40-hex. These refs\n"
	"may be created by mistake. For example,\n"
	"\n"
	"  git switch -c $br $(git rev-parse ...)\n"
	"\n"
	"where \"$br\" is somehow empty and a 40-hex ref is created. Please\n"
	"examine these refs and maybe delete them. Turn this message off by\n"
	"running \"git config advice.objectNameWarning false\"";

/* "<ref>@{<n>}" and "<ref>@{<date>}" once the log is known. */
static int
reflog_value(struct res *r, const char *str, size_t len, const char *spec,
	     size_t spec_len, const char *logname, unsigned flags,
	     struct object_id *out)
{
	struct reflog_cutoff cut;
	struct reflog log;
	long long at_time = 0;
	long nth = 0;
	int all_digits = 1;
	const char *shown = str;
	size_t shown_len = len;
	enum reflog_at_result res;
	int ret;

	/*
	 * A count, or a time if it has 9 digits or more; anything that is
	 * not all digits is a date.  git reads the number into an int,
	 * wrapping as 32 bits do, and a count that wrapped below zero stays
	 * a count (one that no log has).
	 */
	for (size_t i = 0; i < spec_len; i++) {
		uint32_t w = (uint32_t)nth * 10u + (uint32_t)(spec[i] - '0');

		if (!isdigit((unsigned char)spec[i])) {
			all_digits = 0;
			break;
		}
		nth = w > INT32_MAX ? -(long)(~w) - 1 : (long)w;
	}
	if (!all_digits)
		nth = -1;
	if (nth >= 100000000) {
		at_time = nth;
		nth = -1;
	} else if (!all_digits) {
		char *tmp = xmemdupz(spec, spec_len);
		int errors;

		at_time = approxidate(tmp, &errors);
		free(tmp);
		if (errors)
			return -E_NOTFOUND;
	}
	ret = reflog_read(&log, res_refs(r), logname);
	if (ret == -E_NOTFOUND) {
		error_clear();
		reflog_parse(&log, "", 0);
	} else if (ret < 0) {
		return ret;
	}
	res = reflog_at(out, &cut, &log, logname, at_time, (int)nth);
	reflog_release(&log);
	if (!len) {
		if (!skip_prefix(logname, "refs/heads/", &shown))
			shown = "HEAD";
		shown_len = strlen(shown);
	}
	switch (res) {
	case REFLOG_AT_FOUND:
		return 0;
	case REFLOG_AT_EMPTY:
		r->ctx->silent = !!(flags & ONAME_QUIET);
		return error_set(E_INVALID, "log for %s is empty", logname);
	case REFLOG_AT_TOO_OLD:
		if (!(flags & ONAME_QUIET)) {
			struct strbuf date = STRBUF_INIT;

			date_format_rfc2822(&date, cut.time, cut.tz);
			diag_emit(DIAG_WARNING, "log for '%.*s' only goes back "
				  "to %s", (int)shown_len, shown, date.buf);
			strbuf_release(&date);
		}
		return 0;
	case REFLOG_AT_TOO_FEW:
	default:
		r->ctx->silent = !!(flags & ONAME_QUIET);
		return error_set(E_INVALID, "log for '%.*s' only has %d "
				 "entries", (int)shown_len, shown, cut.count);
	}
}

/* A ref, HEAD or @, a reflog entry, a full hex id. */
static int
get_basic(struct res *r, const char *str, size_t len, struct object_id *out,
	  unsigned flags)
{
	struct strbuf refname = STRBUF_INIT;
	const char *spec = NULL;
	size_t spec_len = 0;
	int prior_at_start = 0, found, ret = 0;

	if (len == (size_t)HASH_HEXSZ && !memchr(str, '\0', len)) {
		char hex[HASH_MAX_HEXSZ + 1];

		memcpy(hex, str, len);
		hex[len] = '\0';
		if (!hex_to_oid(out, hex)) {
			struct object_id tmp;

			if (r->warn_ambiguous &&
			    !(flags & ONAME_HEX_NO_REFS) &&
			    dwim_ref(r, str, len, &tmp, NULL) > 0) {
				int advice = 1;

				diag_emit(DIAG_WARNING, "refname '%.*s' is "
					  "ambiguous.", (int)len, str);
				if (config_get_bool(&r->repo->config,
					"advice.objectnamewarning",
					&advice) < 0)
					error_clear();
				if (advice)
					diag_emit(DIAG_PLAIN, "%s",
						  object_name_advice);
			}
			error_clear();
			return 0;
		}
	}
	/* "<ref>@{<spec>}": a reflog entry (not @{-n}, @{u}, @{push}) */
	if (len && str[len - 1] == '}') {
		for (size_t at = len >= 4 ? len - 3 : 0; at-- > 0;) {
			if (str[at] != '@' || str[at + 1] != '{')
				continue;
			if (str[at + 2] == '-') {
				if (at)
					return -E_NOTFOUND;
				prior_at_start = 1;
				continue;
			}
			if (!oname_upstream_mark(str + at, len - at) &&
			    !oname_push_mark(str + at, len - at)) {
				spec = str + at + 2;
				spec_len = len - 1 - (at + 2);
				len = at;
			}
			break;
		}
	}
	if (len && ambiguous_path(str, len))
		return -E_NOTFOUND;
	if (prior_at_start) {
		struct strbuf prior = STRBUF_INIT;
		int syntax;

		/*
		 * As git: a detached HEAD the "@{-<n>}" at the start names
		 * is the answer, whatever follows it.
		 */
		ret = nth_prior(r, str, len, &prior, &syntax);
		if (ret > 0 && prior.len == (size_t)HASH_HEXSZ &&
		    !hex_to_oid(out, prior.buf)) {
			strbuf_release(&prior);
			return 0;
		}
		strbuf_release(&prior);
		if (ret < 0)
			return ret;
	}
	if (!len && spec)
		found = dwim_ref(r, "HEAD", 4, out, &refname);
	else if (spec)
		found = dwim_log(r, str, len, out, &refname);
	else
		found = dwim_ref(r, str, len, out, &refname);
	if (found <= 0) {
		ret = found < 0 ? found : -E_NOTFOUND;
		goto out;
	}
	if (r->warn_ambiguous && !(flags & ONAME_QUIET)) {
		struct object_id tmp;
		int as_hex = found == 1 &&
			!get_short(r, str, len, &tmp, ONAME_QUIET);

		error_clear();
		if (found > 1 || as_hex)
			diag_emit(DIAG_WARNING, "refname '%.*s' is ambiguous.",
				  (int)len, str);
	}
	ret = 0;
	if (spec)
		ret = reflog_value(r, str, len, spec, spec_len, refname.buf,
				   flags, out);
out:
	strbuf_release(&refname);
	return ret;
}

/* ---- "^{/<regex>}" and ":/<regex>" ---- */

enum { ONELINE_SEEN = 1 << 0 };

/*
 * The newest commit, walking from the commits in start (newest first,
 * each already marked), whose message matches pattern ("!-" negates,
 * "!!" stands for a leading "!", any other "!" is reserved).
 */
static int
oneline(struct res *r, const char *pattern, struct commit_node ***list,
	size_t *nr, size_t *alloc, struct object_id *out)
{
	struct commit_walk *w = res_walk(r);
	int negative = 0, ret = -E_NOTFOUND;
	regex_t re;

	if (pattern[0] == '!') {
		pattern++;
		if (pattern[0] == '-') {
			pattern++;
			negative = 1;
		} else if (pattern[0] != '!') {
			return -E_NOTFOUND;
		}
	}
	if (regcomp(&re, pattern, REG_EXTENDED))
		return -E_NOTFOUND;
	for (;;) {
		struct commit_node *c = commit_walk_pop_newest(w, list, nr,
							       alloc,
							       ONELINE_SEEN);
		struct odb_object obj = ODB_OBJECT_INIT;
		const char *msg;
		int match;

		if (!c)
			break;
		/* a parent pop could not read: git dies on a replace loop */
		for (size_t i = 0; i < c->nr_parents && ret == -E_NOTFOUND; i++)
			if (c->parents[i]->parsed < 0)
				ret = read_failed(r, &c->parents[i]->oid);
		if (ret != -E_NOTFOUND)
			break;
		ret = read_object(r, &c->oid, &obj);
		if (ret == -E_NOTFOUND)
			continue;
		if (ret < 0)
			break;
		ret = -E_NOTFOUND;
		msg = obj.data ? strstr((const char *)obj.data, "\n\n") : NULL;
		match = negative ^ (msg && !regexec(&re, msg + 2, 0, NULL, 0));
		odb_object_release(&obj);
		if (match) {
			*out = c->oid;
			ret = 0;
			break;
		}
	}
	regfree(&re);
	commit_walk_clear_flags(w);
	return ret;
}

/*
 * Start a oneline search at the commit a ref (peeled) points to; 0 (also
 * when it is no commit), or a replace error.
 */
static int
oneline_add(struct res *r, const struct object_id *oid,
	    struct commit_node ***list, size_t *nr, size_t *alloc)
{
	struct commit_walk *w = res_walk(r);
	struct commit_node *c;
	struct object_id peeled;
	enum object_type type;
	int ret = deref_tags(r, oid, &peeled, &type);

	if (ret < 0 || type != OBJ_COMMIT)
		return ret == -E_NOTFOUND ? 0 : ret;
	c = commit_walk_node(w, &peeled);
	ret = parse_commit(r, c);
	if (ret < 0)
		return ret == -E_NOTFOUND ? 0 : ret;
	c->flags |= ONELINE_SEEN;
	commit_walk_insert_by_date(list, nr, alloc, c);
	return 0;
}

/* ":/<regex>": from every ref and HEAD. */
static int
oneline_all(struct res *r, const char *pattern, struct object_id *out)
{
	struct commit_node **list = NULL;
	size_t nr = 0, alloc = 0;
	struct ref_list refs;
	struct object_id head;
	int have_head, ret;

	ret = ref_list_collect(&refs, res_refs(r), "refs/");
	if (ret < 0) {
		error_clear();
		return -E_NOTFOUND;
	}
	/*
	 * git's list: HEAD first, then the refs in reverse order, stably
	 * sorted newest first.
	 */
	have_head = !refs_resolve(res_refs(r), "HEAD", &head, NULL);
	error_clear();
	ret = 0;
	/*
	 * git reads the refs in order, then HEAD, and dies at the first
	 * that loops through refs/replace/: look for that first.
	 */
	for (size_t i = 0; !ret && i <= refs.nr; i++) {
		const struct object_id *oid = i < refs.nr ?
			&refs.items[i].oid : &head;
		struct object_id peeled;
		enum object_type type;

		if (i == refs.nr && !have_head)
			break;
		ret = deref_tags(r, oid, &peeled, &type);
		if (!ret && type == OBJ_COMMIT)
			ret = parse_commit(r, commit_walk_node(res_walk(r),
							       &peeled));
		if (ret == -E_NOTFOUND)
			ret = 0;
	}
	if (!ret && have_head)
		ret = oneline_add(r, &head, &list, &nr, &alloc);
	for (size_t i = refs.nr; !ret && i-- > 0;)
		ret = oneline_add(r, &refs.items[i].oid, &list, &nr, &alloc);
	ref_list_release(&refs);
	if (!ret)
		ret = oneline(r, pattern, &list, &nr, &alloc, out);
	free(list);
	return ret;
}

/* ---- operators after a name ---- */

enum op_kind { OP_PARENT, OP_ANCESTOR, OP_PEEL };

struct name_op {
	enum op_kind kind;
	unsigned long n;		/* ^<n>, ~<n> */
	enum object_type want;		/* peel: OBJ_NONE for ^{}, OBJ_BAD
					 * for ^{object} */
	const char *regex;		/* ^{/<regex>}: borrowed */
	size_t regex_len;
	size_t len;			/* the name up to this operator's end */
	size_t base_len;		/* ... and before it */
};

/*
 * Take one "^<n>" / "~<n>" off the end of name[0..len): 1 with op set,
 * 0 if there is none, -E_NOTFOUND if its number is out of range.
 */
static int
parse_parent_op(const char *name, size_t len, struct name_op *op)
{
	size_t i = len;
	unsigned long n = 0;

	while (i > 0 && isdigit((unsigned char)name[i - 1]))
		i--;
	if (!i || (name[i - 1] != '^' && name[i - 1] != '~'))
		return 0;
	for (size_t k = i; k < len; k++) {
		if (n > (UINT_MAX - 9) / 10 &&
		    (n > UINT_MAX / 10 ||
		     n * 10 > UINT_MAX - (unsigned)(name[k] - '0')))
			return -E_NOTFOUND;
		n = n * 10 + (name[k] - '0');
	}
	if (!n && i == len)
		n = 1;
	else if (n > INT_MAX)
		return -E_NOTFOUND;
	op->kind = name[i - 1] == '^' ? OP_PARENT : OP_ANCESTOR;
	op->n = n;
	op->len = len;
	op->base_len = i - 1;
	return 1;
}

/* Take one "^{...}" off the end: 1 with op set, or 0. */
static int
parse_peel_op(const char *name, size_t len, struct name_op *op)
{
	static const struct { const char *word; enum object_type t; } types[]
		= {
		{ "commit}", OBJ_COMMIT }, { "tag}", OBJ_TAG },
		{ "tree}", OBJ_TREE }, { "blob}", OBJ_BLOB },
		{ "object}", OBJ_BAD },
	};
	const char *sp = NULL, *end = name + len;

	if (len < 4 || name[len - 1] != '}')
		return 0;
	for (size_t i = len - 1; i > 0; i--)
		if (name[i] == '{' && name[i - 1] == '^') {
			sp = name + i + 1;
			break;
		}
	if (!sp || sp - 2 == name)
		return 0;
	memset(op, 0, sizeof(*op));
	op->kind = OP_PEEL;
	op->len = len;
	op->base_len = sp - 2 - name;
	if (*sp == '}') {
		op->want = OBJ_NONE;
		return 1;
	}
	if (*sp == '/') {
		op->want = OBJ_COMMIT;
		op->regex = sp + 1;
		op->regex_len = end - 1 - (sp + 1);
		return 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
		size_t wl = strlen(types[i].word);

		if ((size_t)(end - sp) >= wl && !memcmp(sp, types[i].word, wl)) {
			op->want = types[i].t;
			return 1;
		}
	}
	return 0;
}

static int
apply_op(struct res *r, const char *name, const struct name_op *op,
	 struct object_id *oid)
{
	struct commit_walk *w;
	struct commit_node *c;
	struct object_id cur;
	int ret;

	if (op->kind == OP_PEEL) {
		if (op->want == OBJ_NONE) {
			enum object_type type;

			ret = deref_tags(r, oid, &cur, &type);
			if (ret < 0) {
				if (ret == -E_NOTFOUND)
					diag_emit(DIAG_ERROR, "missing object "
						  "referenced by '%.*s'",
						  (int)op->base_len, name);
				return ret;
			}
			*oid = cur;
			return 0;
		}
		ret = peel_named(r, oid, op->want, name, op->len, &cur);
		if (ret < 0)
			return ret;
		*oid = cur;
		if (op->regex && op->regex_len) {
			struct commit_node **list = NULL;
			size_t nr = 0, alloc = 0;
			char *re = xmemdupz(op->regex, op->regex_len);

			ret = oneline_add(r, oid, &list, &nr, &alloc);
			if (!ret)
				ret = oneline(r, re, &list, &nr, &alloc, oid);
			free(list);
			free(re);
		}
		return ret;
	}
	ret = commit_of(r, oid, &cur);
	if (ret < 0)
		return ret;
	w = res_walk(r);
	c = commit_walk_node(w, &cur);
	if (op->kind == OP_PARENT) {
		if (!op->n) {
			*oid = cur;
			return 0;
		}
		ret = parse_commit(r, c);
		if (ret < 0)
			return ret;
		if (op->n > c->nr_parents)
			return -E_NOTFOUND;
		*oid = c->parents[op->n - 1]->oid;
		return 0;
	}
	for (unsigned long k = 0; k < op->n; k++) {
		ret = parse_commit(r, c);
		if (ret < 0)
			return ret;
		if (!c->nr_parents)
			return -E_NOTFOUND;
		c = c->parents[0];
	}
	*oid = c->oid;
	return 0;
}

/* A name without operators: ref or id, describe name, abbreviation. */
static int
get_base(struct res *r, const char *name, size_t len, struct object_id *out,
	 unsigned flags)
{
	int ret = get_basic(r, name, len, out, flags);

	if (ret == -E_NOTFOUND)
		ret = get_describe(r, name, len, out);
	if (ret == -E_NOTFOUND)
		ret = get_short(r, name, len, out, flags);
	return ret;
}

static int
not_found(int ret)
{
	return ret == -E_NOTFOUND || ret == -E_AMBIGUOUS;
}

/*
 * name[0..len) without a path: operators off the end, the base, then the
 * operators.  Like git, "^<n>" and "~<n>" look their base up as a
 * commit-ish with no other flags, and when a "^{...}" cannot be applied
 * the name up to it is tried as a base (a reflog date may contain
 * anything).
 */
static int
get_oid_1(struct res *r, const char *name, size_t len,
	  struct object_id *out, unsigned flags)
{
	struct name_op *ops = NULL;
	unsigned *level_flags = NULL;
	size_t nr = 0, alloc = 0, falloc = 0;
	int ret;

	for (;;) {
		struct name_op op;
		unsigned next = flags;

		ret = parse_parent_op(name, len, &op);
		if (ret < 0)
			goto out;
		if (ret) {
			next = ONAME_COMMITTISH | (flags & ONAME_HEX_NO_REFS);
		} else if (parse_peel_op(name, len, &op)) {
			next &= ~HINTS;
			if (op.want == OBJ_COMMIT)
				next |= ONAME_COMMITTISH;
			else if (op.want == OBJ_TREE)
				next |= ONAME_TREEISH;
		} else {
			break;
		}
		ALLOC_GROW(ops, nr + 1, alloc);
		ALLOC_GROW(level_flags, nr + 1, falloc);
		ops[nr] = op;
		level_flags[nr++] = flags;
		len = op.base_len;
		flags = next;
	}
	ret = get_base(r, name, len, out, flags);
	while (nr--) {
		if (!ret)
			ret = apply_op(r, name, &ops[nr], out);
		if (not_found(ret) && ops[nr].kind == OP_PEEL)
			ret = get_base(r, name, ops[nr].len, out,
				       level_flags[nr]);
		if (ret < 0 && !not_found(ret))
			break;
	}
out:
	free(ops);
	free(level_flags);
	return ret;
}

/* ---- paths ---- */

/* Is the current directory inside the work tree? */
static int
inside_worktree(struct repo *repo)
{
	struct strbuf cwd = STRBUF_INIT;
	char *real;
	size_t wlen;
	int in = 0;

	if (!repo->worktree || strbuf_getcwd(&cwd) < 0) {
		error_clear();
		strbuf_release(&cwd);
		return 0;
	}
	real = realpath(cwd.buf, NULL);
	wlen = strlen(repo->worktree);
	if (real)
		in = !strcmp(repo->worktree, "/") ||
		     (!strncmp(real, repo->worktree, wlen) &&
		      (real[wlen] == '/' || !real[wlen]));
	free(real);
	strbuf_release(&cwd);
	return in;
}

/*
 * "./<p>" and "../<p>" relative to the prefix: 1 with the path from the
 * top in out, 0 if path is not relative, or git's fatal error.
 */
static int
relative_path(struct res *r, const char *path, struct strbuf *out)
{
	if (!starts_with(path, "./") && !starts_with(path, "../"))
		return 0;
	if (!inside_worktree(r->repo))
		return error_set(E_INVALID, "relative path syntax can't be "
				 "used outside working tree");
	if (path_normalize(out, r->prefix, path, r->repo->worktree) < 0)
		return -E_INVALID;
	return 1;
}

/* Does path (from the top of the work tree, or absolute) exist on disk? */
static int
on_disk(struct res *r, const char *path)
{
	struct strbuf full = STRBUF_INIT;
	struct stat st;
	int ret;

	if (*path != '/')
		repo_worktree_path(&full, r->repo, path);
	else
		strbuf_addstr(&full, path);
	ret = *path && !lstat(full.buf, &st);
	strbuf_release(&full);
	return ret;
}

/*
 * The entry path names below the tree treeish peels to, as git walks a
 * tree: 0 with its id and mode, -E_NOTFOUND, or -E_CORRUPT for a tree
 * that cannot be read.
 */
static int
tree_entry(struct res *r, const struct object_id *treeish, const char *path,
	   struct object_id *out, unsigned *mode)
{
	struct object_id cur;
	int ret = peel_named(r, treeish, OBJ_TREE, NULL, 0, &cur);
	size_t len = strlen(path);

	if (ret < 0)
		return ret;
	if (!len) {
		*out = cur;
		*mode = 040000;
		return 0;
	}
	for (;;) {
		struct odb_object obj = ODB_OBJECT_INIT;
		struct tree_iter it;
		struct tree_entry e;
		int step = 0;

		ret = read_object(r, &cur, &obj);
		if (ret < 0)
			return ret;
		if (obj.type != OBJ_TREE) {
			odb_object_release(&obj);
			return -E_NOTFOUND;
		}
		tree_iter_init(&it, obj.data, obj.size);
		ret = -E_NOTFOUND;
		while ((step = tree_iter_next(&it, &e)) > 0) {
			int cmp;

			if (e.namelen > len)
				continue;
			cmp = memcmp(path, e.name, e.namelen);
			if (cmp > 0)
				continue;
			if (cmp < 0)
				break;
			if (e.namelen == len) {
				oidcpy(out, e.oid);
				*mode = e.mode;
				ret = 0;
				break;
			}
			if (path[e.namelen] != '/')
				continue;
			if (!S_ISDIR(e.mode))
				break;
			if (e.namelen + 1 == len) {
				oidcpy(out, e.oid);
				*mode = e.mode;
				ret = 0;
				break;
			}
			oidcpy(&cur, e.oid);
			path += e.namelen + 1;
			len -= e.namelen + 1;
			ret = 1;	/* go down */
			break;
		}
		odb_object_release(&obj);
		if (step < 0)
			return step;
		if (ret != 1)
			return ret;
	}
}

/* git's explanation of a <rev>:<path> that is not there (fatal). */
static int
diagnose_tree_path(struct res *r, const char *path,
		   const struct object_id *tree, const char *rev, size_t rlen)
{
	struct strbuf full = STRBUF_INIT;
	struct object_id oid;
	unsigned mode;
	int ret;

	if (on_disk(r, path))
		return error_set(E_INVALID, "path '%s' exists on disk, but not "
				 "in '%.*s'", path, (int)rlen, rev);
	strbuf_addf(&full, "%s%s", r->prefix, path);
	if (!tree_entry(r, tree, full.buf, &oid, &mode))
		ret = error_set(E_INVALID, "path '%s' exists, but not '%s'\n"
				"hint: Did you mean '%.*s:%s' aka "
				"'%.*s:./%s'?", full.buf, path, (int)rlen, rev,
				full.buf, (int)rlen, rev, path);
	else
		ret = error_set(E_INVALID, "path '%s' does not exist in "
				"'%.*s'", path, (int)rlen, rev);
	strbuf_release(&full);
	return ret;
}

/* git's explanation of a :[<n>:]<path> that is not there (fatal). */
static int
diagnose_index_path(struct res *r, const struct index *idx, int stage,
		    const char *path)
{
	struct strbuf full = STRBUF_INIT;
	ssize_t pos = index_pos(idx, path, strlen(path), -1);
	int ret;

	if (pos >= 0)
		return error_set(E_INVALID, "path '%s' is in the index, but "
				 "not at stage %d\nhint: Did you mean "
				 "':%d:%s'?", path, stage,
				 ce_stage(idx->entries[pos]), path);
	strbuf_addf(&full, "%s%s", r->prefix, path);
	pos = index_pos(idx, full.buf, full.len, -1);
	if (pos >= 0) {
		int s = ce_stage(idx->entries[pos]);

		ret = error_set(E_INVALID, "path '%s' is in the index, but not "
				"'%s'\nhint: Did you mean ':%d:%s' aka "
				"':%d:./%s'?", full.buf, path, s, full.buf, s,
				path);
	} else if (on_disk(r, path)) {
		ret = error_set(E_INVALID, "path '%s' exists on disk, but not "
				"in the index", path);
	} else {
		ret = error_set(E_INVALID, "path '%s' does not exist (neither "
				"on disk nor in the index)", path);
	}
	strbuf_release(&full);
	return ret;
}

/* ":[<n>:]<path>" */
static int
index_entry_of(struct res *r, const char *name, struct object_id *out)
{
	unsigned flags = r->ctx->flags;
	struct strbuf rel = STRBUF_INIT;
	const char *path = name + 1;
	struct index idx;
	int stage = 0, ret;
	ssize_t pos;

	if (strlen(name) >= 3 && name[2] == ':' && name[1] >= '0' &&
	    name[1] <= '3') {
		stage = name[1] - '0';
		path = name + 3;
	}
	ret = relative_path(r, path, &rel);
	if (ret < 0)
		return ret;
	if (ret)
		path = rel.buf;
	ret = index_read_in(&idx, r->repo->index_path, r->repo,
			    INDEX_READ_QUIET, 0);
	if (ret >= 0)
		ret = sparse_index_after_read(&idx, r->repo, SPARSE_INDEX_FULL |
					      SPARSE_INDEX_NO_PRESENT);
	if (ret < 0) {
		index_release(&idx);
		strbuf_release(&rel);
		return ret;
	}
	pos = index_pos(&idx, path, strlen(path), stage);
	if (pos >= 0) {
		*out = idx.entries[pos]->oid;
		r->ctx->mode = idx.entries[pos]->mode;
		ret = 0;
	} else if ((flags & ONAME_DIAGNOSE) && name[1] && name[1] != '/') {
		ret = diagnose_index_path(r, &idx, stage, path);
	} else {
		ret = -E_NOTFOUND;
	}
	index_release(&idx);
	strbuf_release(&rel);
	return ret;
}

/* The whole name: as a revision, else <rev>:<path>, :<path>, :/<re>. */
static int
resolve(struct res *r, const char *name, struct object_id *out)
{
	unsigned flags = r->ctx->flags;
	size_t len = strlen(name), colon;
	const char *p;
	int ret;

	ret = get_oid_1(r, name, len, out, flags);
	if (ret != -E_NOTFOUND && ret != -E_AMBIGUOUS)
		return ret;
	if (name[0] == ':') {
		if (len > 2 && name[1] == '/')
			return oneline_all(r, name + 2, out);
		return index_entry_of(r, name, out);
	}
	p = oname_path_colon(name);
	colon = p ? (size_t)(p - name) : len;
	if (p) {
		struct strbuf rel = STRBUF_INIT;
		const char *path = name + colon + 1;
		struct object_id tree;
		unsigned mode = 0, sub = (flags & ~HINTS) | ONAME_TREEISH;
		int r2 = get_oid_1(r, name, colon, &tree, sub);

		if (r2 == -E_NOTFOUND || r2 == -E_AMBIGUOUS) {
			if (flags & ONAME_DIAGNOSE)
				return error_set(E_INVALID, "invalid object "
						 "name '%.*s'.", (int)colon,
						 name);
			return r2;
		}
		if (r2 < 0)
			return r2;
		r2 = relative_path(r, path, &rel);
		if (r2 < 0)
			return r2;
		if (r2)
			path = rel.buf;
		ret = tree_entry(r, &tree, path, out, &mode);
		/* "<rev>:" names the tree itself: no entry, no mode (git) */
		if (!ret && *path)
			r->ctx->mode = mode;
		else if (ret == -E_NOTFOUND && (flags & ONAME_DIAGNOSE))
			ret = diagnose_tree_path(r, path, &tree, name, colon);
		strbuf_release(&rel);
	}
	return ret;
}

/* ---- the entry points ---- */

static int
res_init(struct res *r, struct repo *repo, struct oname_ctx *ctx)
{
	int warn = 1, ret;

	memset(r, 0, sizeof(*r));
	r->repo = repo;
	r->ctx = ctx;
	r->prefix = ctx->prefix ? ctx->prefix : repo->prefix ? repo->prefix :
		"";
	strbuf_init(&r->report, 0);
	ret = config_get_bool(&repo->config, "core.warnambiguousrefs", &warn);
	if (ret < 0)
		return ret;
	r->warn_ambiguous = warn;
	return read_default_hint(repo, &r->default_hint);
}

static void
res_release(struct res *r)
{
	if (r->have_rs)
		ref_store_release(&r->rs);
	if (r->have_walk)
		commit_walk_release(&r->walk);
	strbuf_release(&r->report);
}

int
oname_get(struct object_id *out, struct repo *repo, const char *name,
	  struct oname_ctx *ctx)
{
	struct res r;
	int ret;

	ctx->silent = 0;
	ctx->mode = 0;
	if (!repo->gitdir)
		return error_set(E_NOREPO, "not a git repository (or any of "
				 "the parent directories): .git");
	ret = res_init(&r, repo, ctx);
	if (!ret)
		ret = resolve(&r, name, out);
	if (ret == -E_NOTFOUND || ret == -E_AMBIGUOUS)
		error_set(-ret, "Not a valid object name %s", name);
	if (ret < 0 && r.report.len) {
		char *msg = xstrdup(error_msg());

		ret = error_set_pre(error_code(), r.report.buf, "%s", msg);
		free(msg);
	}
	res_release(&r);
	return ret;
}

int
get_oid(struct object_id *out, struct repo *repo, const char *name)
{
	struct oname_ctx ctx = ONAME_CTX_INIT;

	ctx.flags = ONAME_DIAGNOSE;
	return oname_get(out, repo, name, &ctx);
}

int
peel_to_type(struct object_id *out, struct repo *repo,
	     const struct object_id *oid, enum object_type want)
{
	struct oname_ctx ctx = ONAME_CTX_INIT;
	struct res r;
	int ret = res_init(&r, repo, &ctx);

	if (ret < 0) {
		res_release(&r);
		return ret;
	}
	error_clear();
	if (want == OBJ_NONE) {
		enum object_type type;

		ret = deref_tags(&r, oid, out, &type);
	} else if (want == OBJ_TREE || want == OBJ_COMMIT ||
		   want == OBJ_TAG || want == OBJ_BLOB) {
		struct object_id cur;

		oidcpy(&cur, oid);
		ret = -E_NOTFOUND;
		for (int i = 0; i < MAX_PEEL; i++) {
			struct odb_object obj = ODB_OBJECT_INIT;
			struct odb *odb;
			int rr = res_odb(&r, &odb);

			if (!rr)
				rr = odb_read(&obj, odb, &cur,
					      ODB_READ_VERIFY);
			if (rr == -E_NOTFOUND) {
				error_clear();
				break;
			}
			if (rr < 0) {
				/* corrupt, a replace loop: say so, as git */
				res_release(&r);
				return rr;
			}
			if (obj.type == want) {
				*out = cur;
				ret = 0;
			} else if (!(obj.type == OBJ_TAG &&
				     !header_oid(&obj, "object", &cur)) &&
				   !(obj.type == OBJ_COMMIT && want == OBJ_TREE
				     && !header_oid(&obj, "tree", &cur))) {
				i = MAX_PEEL;
			}
			odb_object_release(&obj);
			if (!ret)
				break;
		}
	} else {
		ret = -E_NOTFOUND;
	}
	res_release(&r);
	if (ret < 0 && ret != -E_NOTFOUND)
		return ret;	/* a replace loop */
	if (ret < 0)
		return error_set(E_INVALID, "%s is not a valid '%s' object",
				 oid_to_hex(oid), type_name(want) ?
				 type_name(want) : "object");
	return 0;
}

int
oname_dwim_ref(struct strbuf *out, struct object_id *oid, struct repo *repo,
	       const char *name, size_t len)
{
	struct oname_ctx ctx = ONAME_CTX_INIT;
	struct res r;
	int ret = res_init(&r, repo, &ctx);

	if (!ret)
		ret = dwim_ref(&r, name, len, oid, out);
	res_release(&r);
	return ret;
}

/*
 * git's fatal message for a bad value of key: from the command line
 * (-c, GIT_CONFIG_*) it says so; a file's line is not known here.
 */
static int
bad_config(struct repo *repo, const char *key, const char *why)
{
	struct config env = CONFIG_INIT;
	const char *v, *mine;
	int from_env;

	config_init(&env);
	from_env = !config_load_env(&env) && config_get(&env, key, &v) &&
		   config_get(&repo->config, key, &mine) && v && mine &&
		   !strcmp(v, mine);
	error_clear();
	config_release(&env);
	if (from_env)
		return error_set_pre(E_INVALID, why, "unable to parse '%s' "
				     "from command-line config", key);
	return error_set_pre(E_INVALID, why, "bad config variable '%s'", key);
}

/*
 * core.abbrev as git reads it: "auto" (-1), a false boolean (40), or a
 * number 4..40.  0 (nothing set: -1), 1 with *out, or -E_INVALID: a
 * number git cannot read is its fatal message as it is; one out of range
 * is "abbrev length out of range: <n>" with *range set.
 */
static int
abbrev_setting(struct repo *repo, int *out, int *range)
{
	const char *v;
	long n;
	int ret;

	*out = -1;
	*range = 0;
	if (!config_get(&repo->config, "core.abbrev", &v))
		return 0;
	if (v && !strcasecmp(v, "auto"))
		return 1;
	if (v && config_parse_bool(v) == 0) {
		*out = HASH_HEXSZ;
		return 1;
	}
	ret = config_get_long(&repo->config, "core.abbrev", &n);
	if (ret < 0)
		return ret;
	if (n > INT_MAX || n < INT_MIN)
		return error_set(E_INVALID, "bad numeric config value '%s' for "
				 "'core.abbrev': out of range", v);
	if (n < MIN_ABBREV || n > HASH_HEXSZ) {
		*range = 1;
		return error_set(E_INVALID, "abbrev length out of range: %ld",
				 n);
	}
	*out = (int)n;
	return 1;
}

int
oname_check_config(struct repo *repo)
{
	unsigned hint;
	int warn, abbrev, range, ret;

	ret = config_get_bool(&repo->config, "core.warnambiguousrefs", &warn);
	if (ret < 0)
		return ret;
	if (read_default_hint(repo, &hint) < 0) {
		char *why = xstrdup(error_msg());

		ret = bad_config(repo, "core.disambiguate", why);
		free(why);
		return ret;
	}
	ret = abbrev_setting(repo, &abbrev, &range);
	if (ret < 0 && range) {
		char *why = xstrdup(error_msg());

		ret = bad_config(repo, "core.abbrev", why);
		free(why);
	}
	return ret < 0 ? ret : 0;
}

int
oname_default_abbrev(struct repo *repo, int *out)
{
	struct odb *odb;
	unsigned long count = 0;
	int bits = 0, len, range, ret;

	*out = FALLBACK_ABBREV;
	ret = abbrev_setting(repo, &len, &range);
	if (ret < 0)
		return ret;
	if (len > 0) {
		*out = len;
		return 0;
	}
	/*
	 * git's estimate: with about 2^b packed objects a collision is
	 * expected around 2^(b/2), and each digit is 4 bits.
	 */
	if (repo_odb(&odb, repo) < 0) {
		error_clear();
		return 0;
	}
	odb_prepare_packs(odb);
	for (size_t s = 0; s < odb->nr_sources; s++)
		for (size_t k = 0; k < odb->sources[s].nr_packs; k++)
			count += odb->sources[s].packs[k]->nr;
	while (count >> bits)
		bits++;
	len = (bits + 1) / 2;
	if (len > *out)
		*out = len;
	return 0;
}

void
oname_abbrev(char *out, struct repo *repo, const struct object_id *oid,
	     int len)
{
	struct oname_ctx ctx = ONAME_CTX_INIT;
	char hex[HASH_MAX_HEXSZ + 1];
	struct res r;

	if (len < 0 && oname_default_abbrev(repo, &len) < 0) {
		error_clear();
		len = FALLBACK_ABBREV;
	}
	if (len < MIN_ABBREV)
		len = MIN_ABBREV;
	if (len > HASH_HEXSZ)
		len = HASH_HEXSZ;
	if (res_init(&r, repo, &ctx) < 0)
		error_clear();
	else
		len = unique_len(&r, oid, len);
	res_release(&r);
	oid_to_hex_r(hex, oid);
	memcpy(out, hex, len);
	out[len] = '\0';
}

int
oname_for_each_abbrev(struct repo *repo, const char *hex, oname_each_fn fn,
		      void *data)
{
	struct oname_ctx ctx = ONAME_CTX_INIT;
	char lower[HASH_MAX_HEXSZ + 1];
	struct oid_set set = { NULL, 0 };
	struct res r;
	int ret;

	if (hex_prefix(lower, hex, strlen(hex)) < 0)
		return 0;
	memset(&r, 0, sizeof(r));
	r.repo = repo;
	r.ctx = &ctx;
	strbuf_init(&r.report, 0);
	ret = find_prefix(&r, lower, strlen(lower), &set);
	for (size_t i = 0; !ret && i < set.nr; i++)
		fn(&set.oids[i], data);
	free(set.oids);
	res_release(&r);
	return ret;
}

const char *
oname_path_colon(const char *name)
{
	size_t depth = 0;

	/* git 2.55: only "@{" and "^{" open a brace ("foo{bar:path") */
	for (const char *p = name; *p; p++) {
		if ((*p == '@' || *p == '^') && p[1] == '{') {
			p++;
			depth++;
		} else if (*p == '}' && depth)
			depth--;
		else if (*p == ':' && !depth)
			return p;
	}
	return NULL;
}
