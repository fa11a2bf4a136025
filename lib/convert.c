/*
 * convert: the attributes that decide git's content conversions on the
 * way out to the work tree, read as git reads them, and the one question
 * dirc asks of them until it converts content itself (issue 14): would
 * git write other bytes than the blob's?
 *
 * The files, lowest precedence first: /etc/gitattributes (unless
 * GIT_ATTR_NOSYSTEM), core.attributesFile or $XDG_CONFIG_HOME/git/
 * attributes or ~/.config/git/attributes, each directory's .gitattributes
 * from the top down to the path's (work tree or index, as the caller
 * asks), $GIT_DIR/info/attributes.  A later line wins over an earlier
 * one.  A line is a pattern and states ("a" set, "-a" unset, "!a"
 * unspecified, "a=v"); "[attr]name states" defines a macro (in the
 * files outside the tree and the top .gitattributes only), "binary" is
 * "-diff -merge -text".  A pattern without '/' matches the base name; one
 * with '/' the path from the file's directory (WM_PATHNAME); one ending
 * in '/' only directories, so never a blob; a "!" pattern is ignored.
 */
#include "convert.h"

#include <stdlib.h>
#include <strings.h>
#include <sys/stat.h>

#include "config.h"
#include "error.h"
#include "index.h"
#include "odb.h"
#include "quote.h"
#include "repo.h"
#include "strmap.h"
#include "wildmatch.h"

static const char attr_true[] = "(set)", attr_false[] = "(unset)";

/* The attributes that matter here, and their states (NULL: unspecified). */
enum { A_TEXT, A_CRLF, A_EOL, A_IDENT, A_FILTER, A_WTE, A_NR };
static const char *const attr_names[A_NR] = {
	"text", "crlf", "eol", "ident", "filter", "working-tree-encoding",
};

/* One attributes file (perhaps none: an empty one). */
struct attr_file {
	struct strbuf buf;	/* the contents */
	char *base;		/* owned: its directory from the top, "" or "d/" */
	int macros_ok;		/* may define [attr] macros */
};

/*
 * What one checkout reads once: the files outside the tree, each
 * directory's .gitattributes as first asked for, the configuration.
 */
struct convert_cache {
	struct repo *repo;		/* borrowed */
	struct index *idx;		/* borrowed; may be NULL */
	struct odb *odb;		/* borrowed; may be NULL */
	unsigned flags;
	struct attr_file *low[2];	/* system, global; owned */
	struct attr_file *info;		/* owned */
	struct strmap dirs;		/* dir -> owned attr_file (key: base) */
	int autocrlf;			/* 0 false, 1 true, 2 input */
	int core_eol_crlf;		/* core.eol=crlf */
};

/* The states of one path, and the files that decide them. */
struct attr_check {
	const struct attr_file **files;	/* borrowed, lowest first */
	size_t nr, alloc;
	const char *state[A_NR];	/* values point into kept */
	char **kept;			/* owned: the lines states came from */
	size_t kept_nr, kept_alloc;
};

static struct attr_file *
file_new(struct strbuf *contents, const char *base, int macros_ok)
{
	struct attr_file *f = xcalloc(1, sizeof(*f));

	f->buf = *contents;	/* taken over */
	strbuf_init(contents, 0);
	f->base = xstrdup(base);
	f->macros_ok = macros_ok;
	return f;
}

static void
file_free(struct attr_file *f)
{
	if (!f)
		return;
	strbuf_release(&f->buf);
	free(f->base);
	free(f);
}

/* A file outside the tree (NULL if there is none). */
static int
read_outside(struct attr_file **out, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	int ret = 0;

	*out = NULL;
	if (stat(path, &st) < 0 || S_ISDIR(st.st_mode))
		return 0;
	ret = strbuf_read_file(&sb, path);
	if (!ret)
		*out = file_new(&sb, "", 1);
	strbuf_release(&sb);
	return ret;
}

/* name (a .gitattributes) from the work tree into sb; 1 if there. */
static int
read_worktree(struct strbuf *sb, struct repo *repo, const char *name)
{
	struct strbuf full = STRBUF_INIT;
	struct stat st;
	int ret = 0;

	if (!repo->worktree)
		return 0;
	strbuf_addf(&full, "%s/%s", repo->worktree, name);
	/* git does not follow a symlink there */
	if (!lstat(full.buf, &st) && S_ISREG(st.st_mode)) {
		ret = strbuf_read_file(sb, full.buf);
		if (!ret)
			ret = 1;
	}
	strbuf_release(&full);
	return ret;
}

/* name from the index into sb; 1 if there. */
static int
read_index(struct strbuf *sb, struct convert_cache *cc, const char *name)
{
	struct odb_object obj = ODB_OBJECT_INIT;
	ssize_t pos;
	int ret;

	if (!cc->idx || !cc->odb)
		return 0;
	pos = index_pos(cc->idx, name, strlen(name), 0);
	if (pos < 0 || !S_ISREG(cc->idx->entries[pos]->mode))
		return 0;
	ret = odb_read(&obj, cc->odb, &cc->idx->entries[pos]->oid, 0);
	if (ret < 0)
		return ret;
	strbuf_reset(sb);
	strbuf_add(sb, obj.data, obj.size);
	odb_object_release(&obj);
	return 1;
}

/* dir's .gitattributes (dir "" or "d/"), read once. */
static int
dir_file(const struct attr_file **out, struct convert_cache *cc,
	 const char *dir, size_t len)
{
	struct strbuf name = STRBUF_INIT, sb = STRBUF_INIT;
	struct attr_file *f = strmap_get(&cc->dirs, dir, len);
	int ret;

	if (f) {
		*out = f;
		return 0;
	}
	strbuf_addf(&name, "%.*s.gitattributes", (int)len, dir);
	if (cc->flags & CONVERT_INDEX_FIRST) {
		ret = read_index(&sb, cc, name.buf);
		if (!ret)
			ret = read_worktree(&sb, cc->repo, name.buf);
	} else {
		ret = read_worktree(&sb, cc->repo, name.buf);
		if (!ret)
			ret = read_index(&sb, cc, name.buf);
	}
	if (ret >= 0) {
		strbuf_setlen(&name, len);
		f = file_new(&sb, name.buf, !len);
		strmap_put(&cc->dirs, f->base, len, f);
		*out = f;
		ret = 0;
	}
	strbuf_release(&name);
	strbuf_release(&sb);
	return ret;
}

int
convert_cache_new(struct convert_cache **out, struct repo *repo,
		  struct index *idx, struct odb *odb, unsigned flags)
{
	const char *v, *home = getenv("HOME"), *xdg = getenv("XDG_CONFIG_HOME");
	struct convert_cache *cc = xcalloc(1, sizeof(*cc));
	struct strbuf name = STRBUF_INIT;
	int ret = 0;

	cc->repo = repo;
	cc->idx = idx;
	cc->odb = odb;
	cc->flags = flags;
	if (!getenv("GIT_ATTR_NOSYSTEM"))
		ret = read_outside(&cc->low[0], "/etc/gitattributes");
	if (config_get(&repo->config, "core.attributesfile", &v) && v) {
		if (v[0] == '~' && v[1] == '/' && home)
			strbuf_addf(&name, "%s%s", home, v + 1);
		else
			strbuf_addstr(&name, v);
	} else if (xdg && *xdg) {
		strbuf_addf(&name, "%s/git/attributes", xdg);
	} else if (home) {
		strbuf_addf(&name, "%s/.config/git/attributes", home);
	}
	if (!ret && name.len)
		ret = read_outside(&cc->low[1], name.buf);
	if (!ret && repo->commondir) {
		strbuf_reset(&name);
		strbuf_addf(&name, "%s/info/attributes", repo->commondir);
		ret = read_outside(&cc->info, name.buf);
	}
	if (config_get(&repo->config, "core.autocrlf", &v)) {
		if (v && !strcasecmp(v, "input"))
			cc->autocrlf = 2;
		else
			cc->autocrlf = config_parse_bool(v) == 1;
	}
	if (config_get(&repo->config, "core.eol", &v) && v)
		cc->core_eol_crlf = !strcasecmp(v, "crlf");
	strbuf_release(&name);
	if (ret < 0) {
		convert_cache_free(cc);
		cc = NULL;
	}
	*out = cc;
	return ret;
}

void
convert_cache_free(struct convert_cache *cc)
{
	if (!cc)
		return;
	file_free(cc->low[0]);
	file_free(cc->low[1]);
	file_free(cc->info);
	for (size_t i = 0; i < cc->dirs.cap; i++)
		if (cc->dirs.slots[i].key)
			file_free(cc->dirs.slots[i].value);
	strmap_release(&cc->dirs);
	free(cc);
}

static void
check_add(struct attr_check *c, const struct attr_file *f)
{
	if (!f || !f->buf.len)
		return;
	ALLOC_GROW(c->files, c->nr + 1, c->alloc);
	c->files[c->nr++] = f;
}

/* The files that decide path's attributes, lowest precedence first. */
static int
collect(struct attr_check *c, struct convert_cache *cc, const char *path)
{
	check_add(c, cc->low[0]);
	check_add(c, cc->low[1]);
	for (const char *p = path;;) {
		const char *slash = strchr(p, '/');
		const struct attr_file *f;
		int ret = dir_file(&f, cc, path, p - path);

		if (ret < 0)
			return ret;
		check_add(c, f);
		if (!slash)
			break;
		p = slash + 1;
	}
	check_add(c, cc->info);
	return 0;
}

/* The next whitespace-separated token of *p (NUL-terminated in place). */
static char *
token(char **p)
{
	char *s = *p, *t;

	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	if (!*s)
		return NULL;
	t = s;
	while (*t && *t != ' ' && *t != '\t' && *t != '\r')
		t++;
	if (*t)
		*t++ = '\0';
	*p = t;
	return s;
}

/* One "[attr]name states" definition, or NULL. */
struct macro {
	const char *name;
	char *states;	/* owned copy, tokens not yet split */
};

struct macros {
	struct macro *m;
	size_t nr, alloc;
};

static const char *
macro_find(const struct macros *ms, const char *name)
{
	/* the last definition read is the one of highest precedence */
	for (size_t i = ms->nr; i-- > 0;)
		if (!strcmp(ms->m[i].name, name))
			return ms->m[i].states;
	if (!strcmp(name, "binary"))
		return "-diff -merge -text";
	return NULL;
}

static void apply_states(struct attr_check *c, const struct macros *ms,
			 const char *states, int depth);

/* Apply one state token ("a", "-a", "!a", "a=v"). */
static void
apply_one(struct attr_check *c, const struct macros *ms, const char *tok,
	  int depth)
{
	const char *value = attr_true, *eq;
	size_t len;

	if (*tok == '-' || *tok == '!') {
		value = *tok == '-' ? attr_false : NULL;
		tok++;
	}
	eq = strchr(tok, '=');
	len = eq ? (size_t)(eq - tok) : strlen(tok);
	if (eq && value == attr_true)
		value = eq + 1;
	for (int a = 0; a < A_NR; a++)
		if (strlen(attr_names[a]) == len &&
		    !strncmp(attr_names[a], tok, len))
			c->state[a] = value;
	if (!eq && value == attr_true && depth < 32) {
		char *name = xstrndup(tok, len);
		const char *body = macro_find(ms, name);

		free(name);
		if (body)
			apply_states(c, ms, body, depth + 1);
	}
}

static void
apply_states(struct attr_check *c, const struct macros *ms,
	     const char *states, int depth)
{
	char *copy = xstrdup(states), *p = copy, *tok;

	while ((tok = token(&p)))
		apply_one(c, ms, tok, depth);
	ALLOC_GROW(c->kept, c->kept_nr + 1, c->kept_alloc);
	c->kept[c->kept_nr++] = copy;
}

/* Does the pattern (of a file in base) match path? */
static int
pattern_matches(const char *pat, const char *base, const char *path)
{
	size_t plen = strlen(pat), blen = strlen(base);
	const char *slash;

	if (!plen || pat[plen - 1] == '/')
		return 0;	/* directories only */
	slash = strchr(pat, '/');
	if (!slash) {
		const char *bn = strrchr(path, '/');

		return wildmatch(pat, bn ? bn + 1 : path, 0) == WM_MATCH;
	}
	if (*pat == '/')
		pat++;
	if (strncmp(path, base, blen))
		return 0;
	return wildmatch(pat, path + blen, WM_PATHNAME) == WM_MATCH;
}

/*
 * Split every line: macros first (all files), then the states of the
 * lines whose pattern matches path, in precedence order.
 */
static void
evaluate(struct attr_check *c, const char *path)
{
	struct macros ms = { NULL, 0, 0 };
	struct strbuf pat = STRBUF_INIT;

	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < c->nr; i++) {
			const struct attr_file *f = c->files[i];
			char *line = f->buf.buf, *end = line + f->buf.len;

			while (line < end) {
				char *nl = memchr(line, '\n', end - line);
				char *next = nl ? nl + 1 : end, *p, *tok;
				char *copy = xstrndup(line, next - line);

				if (nl)
					copy[nl - line] = '\0';
				line = next;
				p = copy;
				while (*p == ' ' || *p == '\t' || *p == '\r')
					p++;
				if (!*p || *p == '#') {
					free(copy);
					continue;
				}
				if (!strncmp(p, "[attr]", 6)) {
					p += 6;
					tok = token(&p);
					if (pass == 0 && tok && f->macros_ok) {
						ALLOC_GROW(ms.m, ms.nr + 1,
							   ms.alloc);
						ms.m[ms.nr].name = xstrdup(tok);
						ms.m[ms.nr++].states =
							xstrdup(p);
					}
					free(copy);
					continue;
				}
				if (pass == 0) {
					free(copy);
					continue;
				}
				strbuf_reset(&pat);
				if (*p == '"') {
					const char *qend;

					if (unquote_c_style(&pat, p, &qend)) {
						error_clear();
						free(copy);
						continue;
					}
					p = (char *)qend;
				} else {
					tok = token(&p);
					strbuf_addstr(&pat, tok);
				}
				if (pat.buf[0] != '!' &&
				    pattern_matches(pat.buf, f->base, path))
					apply_states(c, &ms, p, 0);
				free(copy);
			}
		}
	}
	for (size_t i = 0; i < ms.nr; i++) {
		free((char *)ms.m[i].name);
		free(ms.m[i].states);
	}
	free(ms.m);
	strbuf_release(&pat);
}

enum crlf_action {
	CRLF_UNDEFINED, CRLF_BINARY, CRLF_TEXT, CRLF_TEXT_INPUT,
	CRLF_TEXT_CRLF, CRLF_AUTO, CRLF_AUTO_INPUT, CRLF_AUTO_CRLF,
};

static enum crlf_action
crlf_of(const char *v)
{
	if (v == attr_true)
		return CRLF_TEXT;
	if (v == attr_false)
		return CRLF_BINARY;
	if (!v)
		return CRLF_UNDEFINED;
	if (!strcmp(v, "input"))
		return CRLF_TEXT_INPUT;
	if (!strcmp(v, "auto"))
		return CRLF_AUTO;
	return CRLF_UNDEFINED;
}

/*
 * git's end-of-line decision: does the blob go out with CRLF?  0 no, 1
 * yes, 2 yes if it is text (text=auto).
 */
static int
eol_is_crlf(const struct attr_check *c, const struct convert_cache *cc)
{
	enum crlf_action act = crlf_of(c->state[A_TEXT]);
	const char *eol = c->state[A_EOL];
	int autocrlf = cc->autocrlf, core_eol_crlf = cc->core_eol_crlf;

	if (act == CRLF_UNDEFINED)
		act = crlf_of(c->state[A_CRLF]);
	if (act != CRLF_BINARY) {
		int lf = eol && eol != attr_true && eol != attr_false &&
			 !strcmp(eol, "lf");
		int crlf = eol && eol != attr_true && eol != attr_false &&
			   !strcmp(eol, "crlf");

		if (act == CRLF_AUTO && lf)
			act = CRLF_AUTO_INPUT;
		else if (act == CRLF_AUTO && crlf)
			act = CRLF_AUTO_CRLF;
		else if (lf)
			act = CRLF_TEXT_INPUT;
		else if (crlf)
			act = CRLF_TEXT_CRLF;
	}
	if (act == CRLF_UNDEFINED)
		act = autocrlf == 1 ? CRLF_AUTO_CRLF :
		      autocrlf == 2 ? CRLF_AUTO_INPUT : CRLF_BINARY;
	switch (act) {
	case CRLF_TEXT_CRLF:
		return 1;
	case CRLF_AUTO_CRLF:
		return 2;
	case CRLF_TEXT:
	case CRLF_AUTO:
		if (autocrlf == 1 || (autocrlf != 2 && core_eol_crlf))
			return act == CRLF_AUTO ? 2 : 1;
		return 0;
	default:
		return 0;
	}
}

/*
 * git writes a blob bound for CRLF unchanged when it has no lone LF, and
 * under text=auto also when it has a CR already or looks binary (a lone
 * CR, a NUL, or more than one in 128 bytes not printable).  1 if git
 * changes these bytes.
 */
static int
crlf_changes(const unsigned char *buf, size_t size, int is_auto)
{
	size_t lonelf = 0, crlf = 0, lonecr = 0, nul = 0, printable = 0;
	size_t nonprintable = 0;

	for (size_t i = 0; i < size; i++) {
		unsigned char ch = buf[i];

		if (ch == '\r') {
			if (i + 1 < size && buf[i + 1] == '\n') {
				crlf++;
				i++;
			} else {
				lonecr++;
			}
		} else if (ch == '\n') {
			lonelf++;
		} else if (ch == 127) {
			nonprintable++;
		} else if (ch >= 32 || ch == '\b' || ch == '\t' ||
			   ch == 033 || ch == '\f') {
			printable++;
		} else {
			nul += !ch;
			nonprintable++;
		}
	}
	if (size && buf[size - 1] == 032)
		nonprintable--;	/* a DOS end-of-file mark */
	if (!lonelf)
		return 0;
	if (is_auto && (lonecr || crlf || nul ||
			(printable >> 7) < nonprintable))
		return 0;
	return 1;
}

/* "$Id$" or "$Id:", which the ident attribute expands. */
static int
has_ident(const unsigned char *buf, size_t size)
{
	for (size_t i = 0; i + 3 < size; i++)
		if (!memcmp(buf + i, "$Id", 3) &&
		    (buf[i + 3] == '$' || buf[i + 3] == ':'))
			return 1;
	return 0;
}

/*
 * Does git run the filter driver on the way out?  Only when it has a
 * smudge or process command (filter.<d>.required alone changes nothing
 * there: git checks the blob out as it is).
 */
static int
filter_applies(struct repo *repo, const char *driver)
{
	static const char *const keys[] = { "smudge", "process" };
	struct strbuf key = STRBUF_INIT;
	int found = 0;

	for (size_t i = 0; i < ARRAY_SIZE(keys) && !found; i++) {
		const char *v;

		strbuf_reset(&key);
		strbuf_addf(&key, "filter.%s.%s", driver, keys[i]);
		found = config_get(&repo->config, key.buf, &v) && v && *v;
	}
	strbuf_release(&key);
	return found;
}

/* The blob, to see whether git would change it; NULL data if unknown. */
static void
read_blob(struct odb_object *obj, struct odb *odb, const struct object_id *oid)
{
	if (obj->data || !oid || !odb)
		return;
	if (odb_read(obj, odb, oid, 0) < 0) {
		error_clear();	/* unreadable: the checkout says so itself */
		obj->data = NULL;
	}
}

int
convert_to_worktree_check(struct strbuf *why, struct convert_cache *cc,
			  const char *path, const struct object_id *oid)
{
	struct attr_check c = { .files = NULL };
	struct odb_object blob = ODB_OBJECT_INIT;
	const char *v;
	int ret, eol;

	strbuf_reset(why);
	ret = collect(&c, cc, path);
	if (ret < 0)
		goto out;
	if (!c.nr && cc->autocrlf != 1)
		goto out;	/* no attributes: only core.autocrlf=true converts */
	evaluate(&c, path);
	ret = 1;
	v = c.state[A_FILTER];
	if (v && v != attr_true && v != attr_false &&
	    filter_applies(cc->repo, v)) {
		strbuf_addf(why, "filter=%s", v);
		goto out;
	}
	if (c.state[A_IDENT] == attr_true) {
		read_blob(&blob, cc->odb, oid);
		if (!blob.data || has_ident(blob.data, blob.size)) {
			strbuf_addstr(why, "ident");
			goto out;
		}
	}
	v = c.state[A_WTE];
	if (v && (v == attr_true || v == attr_false || strcasecmp(v, "UTF-8"))) {
		strbuf_addf(why, "working-tree-encoding%s%s",
			    v == attr_true || v == attr_false ? "" : "=",
			    v == attr_true || v == attr_false ? "" : v);
		goto out;
	}
	eol = eol_is_crlf(&c, cc);
	if (eol) {
		read_blob(&blob, cc->odb, oid);
		if (!blob.data || crlf_changes(blob.data, blob.size, eol == 2)) {
			strbuf_addstr(why, "end-of-line conversion to CRLF");
			goto out;
		}
	}
	ret = 0;
out:
	odb_object_release(&blob);
	free(c.files);
	for (size_t i = 0; i < c.kept_nr; i++)
		free(c.kept[i]);
	free(c.kept);
	return ret;
}
