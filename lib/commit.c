/*
 * commit: headers, identities, UTF-8 checks.
 *
 * Commit layout:  "tree <hex>\n" ("parent <hex>\n")* "author <ident>\n"
 * "committer <ident>\n" ["encoding <name>\n"] "\n" <message>
 */
#include "commit.h"

#include <limits.h>
#include <pwd.h>
#include <unistd.h>

#include "config.h"
#include "date.h"
#include "error.h"
#include "odb.h"
#include "repo.h"

int
commit_parse(struct commit_info *out, const void *buf, size_t len,
	     const struct object_id *id)
{
	const char *p = buf, *end = p + len;
	size_t alloc = 0;

	memset(out, 0, sizeof(*out));
	if (len < 5 + (size_t)HASH_HEXSZ + 1 || memcmp(p, "tree ", 5) ||
	    hex_to_oid(&out->tree, p + 5) || p[5 + HASH_HEXSZ] != '\n')
		goto bogus;
	p += 5 + HASH_HEXSZ + 1;
	while (end - p >= 7 + HASH_HEXSZ + 1 && !memcmp(p, "parent ", 7)) {
		ALLOC_GROW(out->parents, out->nr_parents + 1, alloc);
		if (hex_to_oid(&out->parents[out->nr_parents], p + 7) ||
		    p[7 + HASH_HEXSZ] != '\n')
			goto bogus;
		out->nr_parents++;
		p += 7 + HASH_HEXSZ + 1;
	}
	return 0;
bogus:
	commit_info_release(out);
	return error_set(E_CORRUPT, "bogus commit object %s", oid_to_hex(id));
}

void
commit_info_release(struct commit_info *info)
{
	free(info->parents);
	memset(info, 0, sizeof(*info));
}

long long
commit_date(const void *buf, size_t len)
{
	const char *p = buf, *end = p + len, *nl;
	long long t = 0;

	/* past "tree" and the "parent" lines */
	while (p < end && (starts_with(p, "tree ") ||
			   starts_with(p, "parent "))) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			return 0;
		p = nl + 1;
	}
	if (end - p < 7 || memcmp(p, "author", 6))
		return 0;
	nl = memchr(p, '\n', end - p);
	if (!nl)
		return 0;
	p = nl + 1;
	if (end - p < 10 || memcmp(p, "committer", 9))
		return 0;
	p = memchr(p, '>', end - p);
	if (!p || !(nl = memchr(p, '\n', end - p)))
		return 0;
	for (p++; p < nl && (*p == ' ' || *p == '\t'); p++)
		;
	for (; p < nl && *p >= '0' && *p <= '9'; p++) {
		if (t > (LLONG_MAX - 9) / 10)
			return LLONG_MAX;
		t = t * 10 + (*p - '0');
	}
	return t;
}

/* ---- walking ---- */

void
commit_walk_init(struct commit_walk *w, struct repo *repo)
{
	memset(w, 0, sizeof(*w));
	w->repo = repo;
}

void
commit_walk_release(struct commit_walk *w)
{
	for (size_t i = 0; i < w->alloc; i++)
		if (w->slots[i]) {
			free(w->slots[i]->parents);
			free(w->slots[i]);
		}
	free(w->slots);
	memset(w, 0, sizeof(*w));
}

static size_t
slot_of(const struct object_id *oid, size_t alloc)
{
	uint64_t h;

	memcpy(&h, oid->hash, sizeof(h));
	return (size_t)(h % alloc);
}

static void
walk_grow(struct commit_walk *w)
{
	size_t old = w->alloc;
	struct commit_node **slots = w->slots;

	w->alloc = old ? old * 2 : 64;
	w->slots = xcalloc(w->alloc, sizeof(*w->slots));
	for (size_t i = 0; i < old; i++) {
		size_t k;

		if (!slots[i])
			continue;
		for (k = slot_of(&slots[i]->oid, w->alloc); w->slots[k];
		     k = (k + 1) % w->alloc)
			;
		w->slots[k] = slots[i];
	}
	free(slots);
}

struct commit_node *
commit_walk_node(struct commit_walk *w, const struct object_id *oid)
{
	size_t k;

	if (2 * (w->nr + 1) > w->alloc)
		walk_grow(w);
	for (k = slot_of(oid, w->alloc); w->slots[k]; k = (k + 1) % w->alloc)
		if (oideq(&w->slots[k]->oid, oid))
			return w->slots[k];
	w->slots[k] = xcalloc(1, sizeof(**w->slots));
	oidcpy(&w->slots[k]->oid, oid);
	w->nr++;
	return w->slots[k];
}

int
commit_walk_parse(struct commit_walk *w, struct commit_node *c)
{
	struct odb_object obj = ODB_OBJECT_INIT;
	struct commit_info ci;
	struct odb *odb;
	int ret;

	if (c->parsed > 0)
		return 0;
	ret = repo_odb(&odb, w->repo);
	if (!ret)
		ret = odb_read(&obj, odb, &c->oid, 0);
	if (!ret && obj.type != OBJ_COMMIT)
		ret = error_set(E_INVALID, "object %s is a %s, not a commit",
				oid_to_hex(&c->oid), obj.type_name);
	if (!ret)
		ret = commit_parse(&ci, obj.data, obj.size, &c->oid);
	if (ret) {
		odb_object_release(&obj);
		c->parsed = -1;
		return ret;
	}
	c->date = commit_date(obj.data, obj.size);
	odb_object_release(&obj);
	c->parents = xcalloc(ci.nr_parents ? ci.nr_parents : 1,
			     sizeof(*c->parents));
	c->nr_parents = ci.nr_parents;
	c->parsed = 1;
	/* the nodes may move the table, never themselves */
	for (size_t i = 0; i < ci.nr_parents; i++)
		c->parents[i] = commit_walk_node(w, &ci.parents[i]);
	commit_info_release(&ci);
	return 0;
}

void
commit_walk_clear_flags(struct commit_walk *w)
{
	for (size_t i = 0; i < w->alloc; i++)
		if (w->slots[i])
			w->slots[i]->flags = 0;
}

void
commit_walk_insert_by_date(struct commit_node ***list, size_t *nr,
			   size_t *alloc, struct commit_node *c)
{
	size_t pos = 0;

	while (pos < *nr && (*list)[pos]->date >= c->date)
		pos++;
	ALLOC_GROW(*list, *nr + 1, *alloc);
	memmove(*list + pos + 1, *list + pos, (*nr - pos) * sizeof(**list));
	(*list)[pos] = c;
	(*nr)++;
}

struct commit_node *
commit_walk_pop_newest(struct commit_walk *w, struct commit_node ***list,
		       size_t *nr, size_t *alloc, unsigned mark)
{
	struct commit_node *c;

	if (!*nr)
		return NULL;
	c = (*list)[0];
	memmove(*list, *list + 1, (*nr - 1) * sizeof(**list));
	(*nr)--;
	for (size_t i = 0; c->parsed > 0 && i < c->nr_parents; i++) {
		struct commit_node *p = c->parents[i];

		if (commit_walk_parse(w, p) < 0) {
			error_clear();
			continue;
		}
		if (p->flags & mark)
			continue;
		p->flags |= mark;
		commit_walk_insert_by_date(list, nr, alloc, p);
	}
	return c;
}

/*
 * A priority queue of commits, newest first, ties first in first out:
 * the order in which git's merge-base walk visits them.
 */
struct date_queue_item {
	struct commit_node *c;
	size_t seq;		/* order of arrival, for ties */
};

struct date_queue {
	struct date_queue_item *heap;	/* owned */
	size_t nr, alloc, seq;
};

static int
dq_before(const struct date_queue *q, size_t a, size_t b)
{
	if (q->heap[a].c->date != q->heap[b].c->date)
		return q->heap[a].c->date > q->heap[b].c->date;
	return q->heap[a].seq < q->heap[b].seq;
}

static void
dq_swap(struct date_queue *q, size_t a, size_t b)
{
	struct date_queue_item t = q->heap[a];

	q->heap[a] = q->heap[b];
	q->heap[b] = t;
}

static void
dq_push(struct date_queue *q, struct commit_node *c)
{
	size_t i;

	ALLOC_GROW(q->heap, q->nr + 1, q->alloc);
	i = q->nr++;
	q->heap[i].c = c;
	q->heap[i].seq = q->seq++;
	while (i && dq_before(q, i, (i - 1) / 2)) {
		dq_swap(q, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static struct commit_node *
dq_pop(struct date_queue *q)
{
	struct commit_node *top = q->heap[0].c;
	size_t i = 0;

	q->heap[0] = q->heap[--q->nr];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < q->nr && dq_before(q, l, m))
			m = l;
		if (r < q->nr && dq_before(q, r, m))
			m = r;
		if (m == i)
			break;
		dq_swap(q, i, m);
		i = m;
	}
	return top;
}

enum {
	MB_ONE = 1 << 0,	/* reachable from a */
	MB_TWO = 1 << 1,	/* reachable from b */
	MB_STALE = 1 << 2,	/* below a common ancestor already found */
	MB_RESULT = 1 << 3,
	MB_SEEN = 1 << 4,	/* is_ancestor's walk */
};

static int
has_nonstale(const struct date_queue *q)
{
	for (size_t i = 0; i < q->nr; i++)
		if (!(q->heap[i].c->flags & MB_STALE))
			return 1;
	return 0;
}

/* Is anc reachable from desc (desc itself excluded)? */
static int
is_ancestor(struct commit_walk *w, struct commit_node *anc,
	    struct commit_node *desc)
{
	struct commit_node **stack = NULL;
	size_t nr = 0, alloc = 0;
	int found = 0;

	ALLOC_GROW(stack, nr + 1, alloc);
	stack[nr++] = desc;
	while (nr && !found) {
		struct commit_node *c = stack[--nr];

		if (commit_walk_parse(w, c) < 0) {
			error_clear();
			continue;
		}
		for (size_t i = 0; i < c->nr_parents; i++) {
			struct commit_node *p = c->parents[i];

			if (p == anc) {
				found = 1;
				break;
			}
			if (p->flags & MB_SEEN)
				continue;
			p->flags |= MB_SEEN;
			ALLOC_GROW(stack, nr + 1, alloc);
			stack[nr++] = p;
		}
	}
	free(stack);
	for (size_t i = 0; i < w->alloc; i++)
		if (w->slots[i])
			w->slots[i]->flags &= ~MB_SEEN;
	return found;
}

int
commit_merge_bases(struct object_id **out, size_t *nr,
		   struct commit_walk *w, const struct object_id *a,
		   const struct object_id *b)
{
	struct commit_node *one = commit_walk_node(w, a);
	struct commit_node *two = commit_walk_node(w, b);
	struct commit_node **res = NULL, **keep = NULL;
	size_t res_nr = 0, res_alloc = 0, keep_nr = 0, keep_alloc = 0;
	struct date_queue q = { NULL, 0, 0, 0 };
	int ret;

	*out = NULL;
	*nr = 0;
	ret = commit_walk_parse(w, one);
	if (!ret)
		ret = commit_walk_parse(w, two);
	if (ret < 0)
		return ret;
	if (one == two) {
		*out = xmalloc(sizeof(**out));
		**out = one->oid;
		*nr = 1;
		return 0;
	}
	commit_walk_clear_flags(w);
	one->flags |= MB_ONE;
	two->flags |= MB_TWO;
	dq_push(&q, one);
	dq_push(&q, two);
	while (has_nonstale(&q)) {
		struct commit_node *c = dq_pop(&q);
		unsigned f = c->flags & (MB_ONE | MB_TWO | MB_STALE);

		if (f == (MB_ONE | MB_TWO)) {
			if (!(c->flags & MB_RESULT)) {
				c->flags |= MB_RESULT;
				commit_walk_insert_by_date(&res, &res_nr,
							   &res_alloc, c);
			}
			f |= MB_STALE;
		}
		for (size_t i = 0; i < c->nr_parents; i++) {
			struct commit_node *p = c->parents[i];

			if ((p->flags & f) == f)
				continue;
			if (commit_walk_parse(w, p) < 0) {
				error_clear();
				continue;
			}
			p->flags |= f;
			dq_push(&q, p);
		}
	}
	free(q.heap);
	for (size_t i = 0; i < res_nr; i++)
		if (!(res[i]->flags & MB_STALE))
			commit_walk_insert_by_date(&keep, &keep_nr, &keep_alloc,
						   res[i]);
	free(res);
	commit_walk_clear_flags(w);
	/* none of the answers may be an ancestor of another */
	if (keep_nr > 1) {
		char *redundant = xcalloc(keep_nr, 1);

		for (size_t i = 0; i < keep_nr; i++)
			for (size_t j = 0; j < keep_nr && !redundant[i]; j++)
				if (i != j && !redundant[j] &&
				    is_ancestor(w, keep[i], keep[j]))
					redundant[i] = 1;
		*out = xmalloc(keep_nr * sizeof(**out));
		for (size_t i = 0; i < keep_nr; i++)
			if (!redundant[i])
				(*out)[(*nr)++] = keep[i]->oid;
		free(redundant);
	} else if (keep_nr) {
		*out = xmalloc(sizeof(**out));
		(*out)[(*nr)++] = keep[0]->oid;
	}
	free(keep);
	return 0;
}

static int
is_crud(unsigned char c)
{
	return c <= 32 || c == '.' || c == ',' || c == ':' || c == ';' ||
	       c == '<' || c == '>' || c == '"' || c == '\\' || c == '\'';
}

void
ident_sanitize(struct strbuf *out, const char *in)
{
	const char *end = in + strlen(in);

	while (in < end && is_crud(*in))
		in++;
	while (end > in && is_crud(end[-1]))
		end--;
	for (; in < end; in++)
		if (*in != '<' && *in != '>' && *in != '\n')
			strbuf_addch(out, *in);
}

static const char *
first_of(struct repo *repo, const char *env, const char *k1,
	 const char *k2)
{
	const char *v = getenv(env);

	if (v)
		return v;
	if (k1 && config_get(&repo->config, k1, &v) && v)
		return v;
	if (k2 && config_get(&repo->config, k2, &v) && v)
		return v;
	return NULL;
}

static void
system_name(struct strbuf *out)
{
	struct passwd *pw = getpwuid(getuid());

	if (pw && pw->pw_gecos && *pw->pw_gecos) {
		const char *comma = strchr(pw->pw_gecos, ',');

		strbuf_add(out, pw->pw_gecos, comma ? (size_t)(comma -
			   pw->pw_gecos) : strlen(pw->pw_gecos));
	} else if (pw) {
		strbuf_addstr(out, pw->pw_name);
	}
}

/*
 * A reflog's name: the one given, else the system's; an empty one is
 * the login name.  Never fails, as git's non-strict identity.
 */
static void
lax_name(struct strbuf *out, const char *name)
{
	struct strbuf sys = STRBUF_INIT;
	struct passwd *pw;

	if (!name) {
		system_name(&sys);
		strbuf_trim(&sys);
		name = sys.buf;
	}
	if (!*name && (pw = getpwuid(getuid())))
		name = pw->pw_name;
	ident_sanitize(out, name);
	strbuf_release(&sys);
}

/* "user@host" the way git guesses it; *bogus if the domain is unknown */
static void
system_email(struct strbuf *out, int *bogus)
{
	struct passwd *pw = getpwuid(getuid());
	char host[256];

	strbuf_addstr(out, pw ? pw->pw_name : "unknown");
	strbuf_addch(out, '@');
	if (gethostname(host, sizeof(host)) < 0) {
		strbuf_addstr(out, "(none)");
		*bogus = 1;
		return;
	}
	host[sizeof(host) - 1] = '\0';
	strbuf_addstr(out, host);
	if (!strchr(host, '.')) {
		strbuf_addstr(out, ".(none)");
		*bogus = 1;
	}
}

static const char identity_hint[] =
	"Author identity unknown\n\n"
	"*** Tell git (and dirc) who you are: set user.name and "
	"user.email,\n"
	"*** for example with\n\n"
	"  git config --global user.email \"you@example.com\"\n"
	"  git config --global user.name \"Your Name\"\n\n"
	"*** (drop --global to set them for this repository only).\n";

int
ident_get(struct strbuf *out, struct repo *repo, enum ident_who who,
	  unsigned flags)
{
	int author = who == IDENT_AUTHOR, strict = flags & IDENT_STRICT;
	const char *name = first_of(repo, author ? "GIT_AUTHOR_NAME" :
				    "GIT_COMMITTER_NAME", author ?
				    "author.name" : "committer.name",
				    "user.name");
	const char *email = first_of(repo, author ? "GIT_AUTHOR_EMAIL" :
				     "GIT_COMMITTER_EMAIL", author ?
				     "author.email" : "committer.email",
				     "user.email");
	const char *date = getenv(author ? "GIT_AUTHOR_DATE" :
				  "GIT_COMMITTER_DATE");
	struct strbuf n = STRBUF_INIT, e = STRBUF_INIT, guess = STRBUF_INIT;
	int config_only = 0, bogus = 0, ret = 0;
	long long epoch;
	int tz;

	if (strict)
		config_get_bool(&repo->config, "user.useconfigonly",
				&config_only);
	if (!email)
		email = getenv("EMAIL");
	if (!email) {
		if (config_only) {
			diag_emit(DIAG_PLAIN, "%s", identity_hint);
			ret = error_set(E_INVALID, "no email was given and "
					"auto-detection is disabled");
			goto out;
		}
		system_email(&guess, &bogus);
		if (bogus && strict) {
			diag_emit(DIAG_PLAIN, "%s", identity_hint);
			ret = error_set(E_INVALID, "unable to auto-detect email "
					"address (got '%s')", guess.buf);
			goto out;
		}
		email = guess.buf;
	}
	if (!strict) {
		lax_name(&n, name);
	} else if (!name) {
		struct strbuf sys = STRBUF_INIT;

		if (config_only) {
			diag_emit(DIAG_PLAIN, "%s", identity_hint);
			ret = error_set(E_INVALID, "no name was given and "
					"auto-detection is disabled");
			goto out;
		}
		system_name(&sys);
		ident_sanitize(&n, sys.buf);
		strbuf_release(&sys);
		if (!n.len) {
			diag_emit(DIAG_PLAIN, "%s", identity_hint);
			ret = error_set(E_INVALID, "empty ident name (for <%s>) "
					"not allowed", email);
			goto out;
		}
	} else {
		ident_sanitize(&n, name);
		if (!*name) {
			ret = error_set(E_INVALID, "empty ident name (for <%s>) "
					"not allowed", email);
			goto out;
		}
		if (!n.len) {
			ret = error_set(E_INVALID, "name consists only of "
					"disallowed characters: %s", name);
			goto out;
		}
	}
	ident_sanitize(&e, email);
	if (date && *date) {
		if (date_parse(date, &epoch, &tz) < 0) {
			ret = error_set(E_INVALID, "invalid date format: %s",
					date);
			goto out;
		}
	} else {
		date_now(&epoch, &tz);
	}
	strbuf_addf(out, "%s <%s> ", n.buf, e.buf);
	date_format_internal(out, epoch, tz);
out:
	strbuf_release(&n);
	strbuf_release(&e);
	strbuf_release(&guess);
	return ret;
}

/* Length of the valid UTF-8 sequence at s (0 if invalid). */
static size_t
utf8_seq(const unsigned char *s, size_t left)
{
	unsigned cp, need;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		need = 1;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		need = 2;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		need = 3;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (left < need + 1)
		return 0;
	for (unsigned i = 1; i <= need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong, out of range, surrogates, non-characters */
	if ((need == 1 && cp < 0x80) || (need == 2 && cp < 0x800) ||
	    (need == 3 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff) || (cp & 0xfffe) == 0xfffe ||
	    (cp >= 0xfdd0 && cp <= 0xfdef))
		return 0;
	return need + 1;
}

int
utf8_is_valid(const char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)buf;

	while (len) {
		size_t n = utf8_seq(p, len);

		if (!n)
			return 0;
		p += n;
		len -= n;
	}
	return 1;
}

void
utf8_repair(struct strbuf *sb)
{
	struct strbuf out = STRBUF_INIT;
	const unsigned char *p = (const unsigned char *)sb->buf;
	size_t left = sb->len;

	while (left) {
		size_t n = utf8_seq(p, left);

		if (n) {
			strbuf_add(&out, p, n);
		} else {
			/* the byte as a Latin-1 character */
			strbuf_addch(&out, 0xc0 | (p[0] >> 6));
			strbuf_addch(&out, 0x80 | (p[0] & 0x3f));
			n = 1;
		}
		p += n;
		left -= n;
	}
	strbuf_release(sb);
	*sb = out;
}
