/*
 * attr: attribute files parsed once into rules, and the question "what
 * are path's attributes?" answered from them.
 *
 * A parsed file is a list of rules; a rule is a pattern (or a macro's
 * name) and its states { attribute number, value }.  A directory's
 * record (struct attr_dir) holds its file and points at its parent's, so
 * a lookup walks at most depth+4 files.  Records, files and interned
 * names are made under the set's lock and never change after, so
 * evaluation runs unlocked.
 *
 * Evaluation is git's: from the highest precedence down ($GIT_DIR/info/
 * attributes, the deepest directory's file up to the top one, the
 * global file, the system file, the built-in macro), each file's rules
 * last to first; a matching rule fills, last state first, every
 * attribute not filled yet; an attribute filled with "set" that names a
 * macro fills the macro's states the same way.  Of several definitions
 * of a macro the one of highest precedence counts.
 *
 * Limits, git's: a line of 2048 bytes or more is ignored ("ignoring
 * overly long attributes line <n>"), a file or blob of 100 MiB or more
 * too.
 */
#include "attr.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "error.h"
#include "index.h"
#include "odb.h"
#include "quote.h"
#include "repo.h"
#include "strbuf.h"
#include "strmap.h"
#include "wildmatch.h"

const char attr_value_true[] = "(set)", attr_value_false[] = "(unset)";
/* "!a": decided, and unspecified */
static const char attr_unset[] = "(unspecified)";

#define ATTR_MAX_LINE 2048
#define ATTR_MAX_FILE (100 * 1024 * 1024)
static const char blank[] = " \t\r\n";

enum rule_flags {
	RULE_NODIR = 1 << 0,	/* no '/': matches the base name */
	RULE_MUSTBEDIR = 1 << 1,	/* "dir/": directories only */
	RULE_ENDSWITH = 1 << 2,	/* "*literal" */
};

struct attr_state {
	int id;
	const char *value;	/* ATTR_TRUE, ATTR_FALSE, attr_unset, or
				 * owned */
};

struct attr_rule {
	char *pattern;		/* owned; NULL for a macro */
	size_t patlen, nowild;	/* length, and of its literal start */
	unsigned flags;		/* enum rule_flags */
	int macro;		/* the macro's number, or -1 */
	struct attr_state *states;	/* owned */
	size_t nr;
};

struct attr_file {
	struct attr_rule *rules;	/* owned */
	size_t nr, alloc;
	struct strbuf msgs;	/* its messages, "<level><text>\0" each */
};

struct attr_dir {
	const struct attr_dir *parent;	/* NULL for the top */
	struct attr_file *file;		/* owned; NULL: none */
	char *name;			/* owned: "" or "a/b/" */
	size_t len;
	int any;			/* a rule here or above */
};

struct attr_set {
	struct repo *repo;		/* borrowed */
	struct index *idx;		/* borrowed; may be NULL */
	struct odb *odb;		/* borrowed; may be NULL */
	enum attr_source src;
	pthread_mutex_t lock;		/* guards everything below */
	int booted;
	struct attr_file *outside[4];	/* built-in, system, global, info */
	int outside_any;
	struct strmap dirs;		/* name -> owned attr_dir */
	char **names;			/* owned: interned names */
	size_t names_nr, names_alloc;
	struct strmap ids;		/* name -> number + 1 */
	const struct attr_rule **macros;	/* number -> definition */
	size_t macros_nr;
	const struct attr_dir *cur;	/* git's current stack (messages) */
	const struct attr_dir *top;	/* the top of the work tree's */
	int quiet;			/* see attr_set_quiet() */
};

static int
name_valid(const char *name, size_t len)
{
	if (!len || *name == '-')
		return 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = name[i];

		if (c != '-' && c != '.' && c != '_' && !isalnum(c))
			return 0;
	}
	return 1;
}

static int
intern_locked(struct attr_set *as, const char *name, size_t len)
{
	void *v = strmap_get(&as->ids, name, len);
	char *copy;

	if (v)
		return (int)((uintptr_t)v - 1);
	copy = xmemdupz(name, len);
	ALLOC_GROW(as->names, as->names_nr + 1, as->names_alloc);
	as->names[as->names_nr] = copy;
	strmap_put(&as->ids, copy, len, (void *)(uintptr_t)(as->names_nr + 1));
	return (int)as->names_nr++;
}

int
attr_intern(struct attr_set *as, const char *name, size_t len)
{
	int id;

	if (!name_valid(name, len))
		return -1;
	pthread_mutex_lock(&as->lock);
	id = intern_locked(as, name, len);
	pthread_mutex_unlock(&as->lock);
	return id;
}

const char *
attr_name(struct attr_set *as, int id)
{
	const char *name;

	pthread_mutex_lock(&as->lock);
	name = as->names[id];
	pthread_mutex_unlock(&as->lock);
	return name;
}

size_t
attr_count(struct attr_set *as)
{
	size_t nr;

	pthread_mutex_lock(&as->lock);
	nr = as->names_nr;
	pthread_mutex_unlock(&as->lock);
	return nr;
}

/* A message of a file, kept to be given each time git would read it. */
PRINTF_LIKE(3, 4) static void
file_msg(struct attr_file *f, enum diag_level level, const char *fmt, ...)
{
	va_list ap;

	strbuf_addch(&f->msgs, (char)('0' + level));
	va_start(ap, fmt);
	strbuf_vaddf(&f->msgs, fmt, ap);
	va_end(ap);
	strbuf_addch(&f->msgs, '\0');
}

static void
file_replay(const struct attr_file *f)
{
	const char *p, *end;

	if (!f)
		return;
	for (p = f->msgs.buf, end = p + f->msgs.len; p < end;
	     p += strlen(p) + 1)
		diag_emit((enum diag_level)(p[0] - '0'), "%s", p + 1);
}

static void
file_free(struct attr_file *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nr; i++) {
		struct attr_rule *r = &f->rules[i];

		for (size_t j = 0; j < r->nr; j++)
			if (ATTR_HAS_VALUE(r->states[j].value) &&
			    r->states[j].value != attr_unset)
				free((char *)r->states[j].value);
		free(r->states);
		free(r->pattern);
	}
	free(f->rules);
	strbuf_release(&f->msgs);
	free(f);
}

/* The length of pattern's start without glob characters. */
static size_t
literal_len(const char *p, size_t len)
{
	size_t i = 0;

	while (i < len && !strchr("*?[\\", p[i]))
		i++;
	return i;
}

/*
 * The states of a line from s: 0 with *nr and (when out is not NULL)
 * out[] filled, or -1 after the message for a bad name.
 */
static int
parse_states(struct attr_set *as, struct attr_file *f, const char *s,
	     struct attr_state *out, size_t *nr, const char *src, int lineno)
{
	*nr = 0;
	s += strspn(s, blank);
	while (*s) {
		size_t toklen = strcspn(s, blank), len;
		const char *eq = memchr(s, '=', toklen), *name = s;
		const char *value = ATTR_TRUE;

		len = eq ? (size_t)(eq - s) : toklen;
		if (*name == '-' || *name == '!') {
			value = *name == '-' ? ATTR_FALSE : attr_unset;
			name++;
			len--;
		} else if (eq) {
			value = NULL;	/* the value, made below */
		}
		if (!name_valid(name, len)) {
			file_msg(f, DIAG_PLAIN, "%.*s is not a valid attribute "
				 "name: %s:%d", (int)len, name, src, lineno);
			return -1;
		}
		if (out) {
			out[*nr].id = intern_locked(as, name, len);
			out[*nr].value = value ? value :
				xmemdupz(eq + 1, s + toklen - eq - 1);
		}
		(*nr)++;
		s += toklen;
		s += strspn(s, blank);
	}
	return 0;
}

/* One line (NUL-terminated, no newline) of file src into f. */
static void
parse_line(struct attr_set *as, struct attr_file *f, const char *line,
	   const char *src, int lineno, int macros_ok)
{
	struct strbuf pat = STRBUF_INIT;
	const char *p = line + strspn(line, blank), *name, *states;
	size_t namelen, nr;
	struct attr_rule r = { .macro = -1 };

	if (!*p || *p == '#')
		return;
	if (strlen(line) >= ATTR_MAX_LINE) {
		file_msg(f, DIAG_WARNING, "ignoring overly long attributes "
			 "line %d", lineno);
		return;
	}
	name = p;
	namelen = strcspn(name, blank);
	if (namelen > 6 && !strncmp(name, "[attr]", 6)) {
		if (!macros_ok) {
			file_msg(f, DIAG_PLAIN, "%s not allowed: %s:%d", name,
				 src, lineno);
			return;
		}
		name += 6;
		name += strspn(name, blank);
		namelen = strcspn(name, blank);
		if (!name_valid(name, namelen)) {
			file_msg(f, DIAG_PLAIN, "%.*s is not a valid attribute "
				 "name: %s:%d", (int)namelen, name, src,
				 lineno);
			return;
		}
		states = name + namelen;
		strbuf_add(&pat, name, namelen);
		r.macro = 0;
	} else if (*name == '"' && !unquote_c_style(&pat, name, &states)) {
		/* the quoted pattern, decoded */
	} else {
		error_clear();
		strbuf_reset(&pat);
		strbuf_add(&pat, name, namelen);
		states = name + namelen;
	}
	if (parse_states(as, f, states, NULL, &nr, src, lineno) < 0)
		goto out;
	if (r.macro >= 0) {
		r.macro = intern_locked(as, pat.buf, pat.len);
	} else {
		size_t len = pat.len;
		const char *s = pat.buf;

		if (*s == '!') {
			file_msg(f, DIAG_WARNING, "Negative patterns are "
				 "ignored in git attributes\nUse '\\!' for "
				 "literal leading exclamation.");
			goto out;
		}
		if (len && s[len - 1] == '/') {
			r.flags |= RULE_MUSTBEDIR;
			len--;
		}
		if (!memchr(s, '/', len))
			r.flags |= RULE_NODIR;
		r.nowild = literal_len(s, len);
		if (len && *s == '*' && literal_len(s + 1, len - 1) == len - 1)
			r.flags |= RULE_ENDSWITH;
		if (!(r.flags & RULE_NODIR) && *s == '/') {
			/* anchored: the path from the file's directory */
			s++;
			len--;
			if (r.nowild)
				r.nowild--;
		}
		r.pattern = xmemdupz(s, len);
		r.patlen = len;
	}
	r.states = xcalloc(nr ? nr : 1, sizeof(*r.states));
	parse_states(as, f, states, r.states, &r.nr, src, lineno);
	ALLOC_GROW(f->rules, f->nr + 1, f->alloc);
	f->rules[f->nr++] = r;
out:
	strbuf_release(&pat);
}

/*
 * Parse len bytes of src.  A file's lines end at a NUL; a blob ends
 * there (blob).
 */
static struct attr_file *
parse_buf(struct attr_set *as, const char *buf, size_t len, const char *src,
	  int macros_ok, int blob)
{
	struct attr_file *f = xcalloc(1, sizeof(*f));
	struct strbuf line = STRBUF_INIT;
	const char *p = buf, *end = buf + len;
	int lineno = 0;

	strbuf_init(&f->msgs, 0);
	if (blob) {
		const char *nul = memchr(buf, '\0', len);

		if (nul)
			end = nul;
	}
	if (end - p >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *next = nl ? nl + 1 : end;

		strbuf_reset(&line);
		strbuf_add(&line, p, (nl ? nl : end) - p);
		if (line.len && line.buf[line.len - 1] == '\r')
			strbuf_setlen(&line, line.len - 1);
		parse_line(as, f, line.buf, src, ++lineno, macros_ok);
		p = next;
	}
	strbuf_release(&line);
	return f;
}

/*
 * The file at path (name: how messages call it).  NULL if there is none
 * (or it is a symlink and nofollow, or cannot be opened: warned).
 */
static struct attr_file *
read_file(struct attr_set *as, const char *path, const char *name,
	  int nofollow, int macros_ok, struct attr_file **warned)
{
	struct strbuf sb = STRBUF_INIT;
	struct attr_file *f = NULL;
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0));

	*warned = NULL;
	if (fd < 0) {
		if (errno != ENOENT && errno != ENOTDIR) {
			f = xcalloc(1, sizeof(*f));
			strbuf_init(&f->msgs, 0);
			file_msg(f, DIAG_WARNING, "unable to access '%s': %s",
				 name, strerror(errno));
			*warned = f;
		}
		return NULL;
	}
	if (fstat(fd, &st) < 0) {
		f = xcalloc(1, sizeof(*f));
		strbuf_init(&f->msgs, 0);
		file_msg(f, DIAG_WARNING, "cannot fstat gitattributes file "
			 "'%s'", name);
		close(fd);
		return f;
	}
	if (st.st_size >= ATTR_MAX_FILE) {
		f = xcalloc(1, sizeof(*f));
		strbuf_init(&f->msgs, 0);
		file_msg(f, DIAG_WARNING, "ignoring overly large gitattributes "
			 "file '%s'", name);
		close(fd);
		return f;
	}
	if (!S_ISDIR(st.st_mode)) {
		char buf[8192];
		ssize_t n;

		while ((n = read(fd, buf, sizeof(buf))) > 0)
			strbuf_add(&sb, buf, n);
	}
	close(fd);
	f = parse_buf(as, sb.buf, sb.len, name, macros_ok, 0);
	strbuf_release(&sb);
	return f;
}

/* The .gitattributes blob name in the index (stage 0, else 2), or NULL. */
static struct attr_file *
read_index(struct attr_set *as, const char *name, size_t len, int macros_ok)
{
	struct odb_object obj = ODB_OBJECT_INIT;
	struct attr_file *f;
	ssize_t pos;

	if (!as->idx || !as->odb)
		return NULL;
	pos = index_pos(as->idx, name, len, 0);
	if (pos < 0) {
		ssize_t i = -pos - 1;

		pos = -1;
		for (; (size_t)i < as->idx->nr; i++) {
			const struct index_entry *e = as->idx->entries[i];

			if (e->namelen != len || memcmp(e->name, name, len))
				break;
			if (ce_stage(e) == 2)
				pos = i;
		}
		if (pos < 0)
			return NULL;
	}
	if (odb_read(&obj, as->odb, &as->idx->entries[pos]->oid, 0) < 0) {
		error_clear();
		return NULL;
	}
	if (obj.type != OBJ_BLOB) {
		odb_object_release(&obj);
		return NULL;
	}
	if (obj.size >= ATTR_MAX_FILE) {
		f = xcalloc(1, sizeof(*f));
		strbuf_init(&f->msgs, 0);
		file_msg(f, DIAG_WARNING, "ignoring overly large gitattributes "
			 "blob '%s'", name);
	} else {
		f = parse_buf(as, (const char *)obj.data, obj.size, name,
			      macros_ok, 1);
	}
	odb_object_release(&obj);
	return f;
}

/* The .gitattributes of directory dir ("" or "a/b/") as git reads it. */
static struct attr_file *
read_dir_file(struct attr_set *as, const char *dir, size_t len)
{
	struct strbuf name = STRBUF_INIT, full = STRBUF_INIT;
	struct attr_file *f = NULL, *warned = NULL;
	int macros_ok = !len, wt = as->repo->worktree && !as->repo->bare;

	strbuf_add(&name, dir, len);
	strbuf_addstr(&name, ".gitattributes");
	if (wt)
		repo_worktree_path(&full, as->repo, name.buf);
	switch (as->src) {
	case ATTR_INDEX:
		f = read_index(as, name.buf, name.len, macros_ok);
		break;
	case ATTR_CHECKOUT:
		if (!wt)
			break;
		f = read_index(as, name.buf, name.len, macros_ok);
		if (!f)
			f = read_file(as, full.buf, name.buf, 1, macros_ok,
				      &warned);
		break;
	case ATTR_CHECKIN:
		if (!wt)
			break;
		f = read_file(as, full.buf, name.buf, 1, macros_ok, &warned);
		if (!f)
			f = read_index(as, name.buf, name.len, macros_ok);
		break;
	}
	if (warned) {
		/* the open's warning comes first, whatever was read next */
		if (f) {
			struct strbuf t;

			strbuf_add(&warned->msgs, f->msgs.buf, f->msgs.len);
			t = warned->msgs;
			warned->msgs = f->msgs;
			f->msgs = t;
			file_free(warned);
		} else {
			f = warned;
		}
	}
	strbuf_release(&name);
	strbuf_release(&full);
	return f;
}

static void
expand_home(struct strbuf *out, const char *v)
{
	const char *home = getenv("HOME");

	if (v[0] == '~' && v[1] == '/' && home)
		strbuf_addf(out, "%s%s", home, v + 1);
	else
		strbuf_addstr(out, v);
}

/* git's lookup of macros: the last definition of highest precedence. */
static void
note_macros(struct attr_set *as, const struct attr_file *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nr; i++) {
		const struct attr_rule *r = &f->rules[i];

		if (r->macro < 0)
			continue;
		if ((size_t)r->macro >= as->macros_nr) {
			size_t n = r->macro + 1;

			as->macros = xrealloc(as->macros,
					      n * sizeof(*as->macros));
			for (size_t j = as->macros_nr; j < n; j++)
				as->macros[j] = NULL;
			as->macros_nr = n;
		}
		as->macros[r->macro] = r;	/* later files and lines win */
	}
}

static int
file_any(const struct attr_file *f)
{
	return f && f->nr;
}

static void
boot_locked(struct attr_set *as)
{
	struct strbuf path = STRBUF_INIT, name = STRBUF_INIT;
	struct attr_file *warned;
	struct attr_dir *top;
	const char *v, *xdg = getenv("XDG_CONFIG_HOME");
	static const char builtin[] = "[attr]binary -diff -merge -text";

	as->booted = 1;
	as->outside[0] = parse_buf(as, builtin, strlen(builtin), "[builtin]",
				   1, 0);
	v = getenv("GIT_ATTR_NOSYSTEM");
	if (!v || config_parse_bool(v) != 1) {
		as->outside[1] = read_file(as, "/etc/gitattributes",
					   "/etc/gitattributes", 0, 1, &warned);
		if (!as->outside[1])
			as->outside[1] = warned;
	}
	if (config_get(&as->repo->config, "core.attributesfile", &v) && v)
		expand_home(&path, v);
	else if (xdg && *xdg)
		strbuf_addf(&path, "%s/git/attributes", xdg);
	else if (getenv("HOME"))
		strbuf_addf(&path, "%s/.config/git/attributes",
			    getenv("HOME"));
	if (path.len) {
		as->outside[2] = read_file(as, path.buf, path.buf, 0, 1,
					   &warned);
		if (!as->outside[2])
			as->outside[2] = warned;
	}
	top = xcalloc(1, sizeof(*top));
	top->name = xstrdup("");
	top->file = read_dir_file(as, "", 0);
	strmap_put(&as->dirs, top->name, 0, top);
	if (as->repo->commondir) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/info/attributes", as->repo->commondir);
		if (as->repo->gitdir_env &&
		    !strcmp(as->repo->gitdir, as->repo->commondir))
			strbuf_addf(&name, "%s/info/attributes",
				    as->repo->gitdir_env);
		else if (!strcmp(as->repo->gitdir, as->repo->commondir))
			strbuf_addstr(&name, ".git/info/attributes");
		else
			strbuf_addstr(&name, path.buf);
		as->outside[3] = read_file(as, path.buf, name.buf, 0, 1,
					   &warned);
		if (!as->outside[3])
			as->outside[3] = warned;
	}
	for (int i = 0; i < 3; i++)
		note_macros(as, as->outside[i]);
	note_macros(as, top->file);
	note_macros(as, as->outside[3]);
	for (int i = 0; i < 4; i++)
		as->outside_any |= file_any(as->outside[i]);
	top->any = file_any(top->file);
	for (int i = 0; i < 3; i++)
		file_replay(as->outside[i]);
	file_replay(top->file);
	file_replay(as->outside[3]);
	as->cur = as->top = top;
	strbuf_release(&path);
	strbuf_release(&name);
}

/* The record of directory dir ("" or "a/b/"), read now if need be. */
static const struct attr_dir *
dir_locked(struct attr_set *as, const char *dir, size_t len)
{
	struct attr_dir *d = strmap_get(&as->dirs, dir, len), *nd;
	const struct attr_dir *parent;
	size_t plen;

	if (d)
		return d;
	/* the parent: up to the '/' before the last one */
	plen = len - 1;
	while (plen && dir[plen - 1] != '/')
		plen--;
	parent = dir_locked(as, dir, plen);
	nd = xcalloc(1, sizeof(*nd));
	nd->parent = parent;
	nd->name = xmemdupz(dir, len);
	nd->len = len;
	nd->file = read_dir_file(as, dir, len);
	nd->any = parent->any || file_any(nd->file);
	strmap_put(&as->dirs, nd->name, len, nd);
	return nd;
}

static int
is_ancestor(const struct attr_dir *a, const struct attr_dir *d)
{
	for (; d; d = d->parent)
		if (d == a)
			return 1;
	return 0;
}

/*
 * git keeps the files of the last path's directories and reads again
 * those of the new path it does not hold: their messages come again.
 */
static void
replay_push(const struct attr_dir *keep, const struct attr_dir *d)
{
	if (!d || d == keep)
		return;
	replay_push(keep, d->parent);
	file_replay(d->file);
}

void
attr_set_quiet(struct attr_set *as, int quiet)
{
	pthread_mutex_lock(&as->lock);
	as->quiet = quiet;
	if (!quiet && as->booted)
		as->cur = as->top;
	pthread_mutex_unlock(&as->lock);
}

struct attr_set *
attr_set_new(struct repo *repo, struct index *idx, struct odb *odb,
	     enum attr_source src)
{
	struct attr_set *as = xcalloc(1, sizeof(*as));

	as->repo = repo;
	as->idx = idx;
	as->odb = odb;
	as->src = src;
	pthread_mutex_init(&as->lock, NULL);
	return as;
}

void
attr_set_free(struct attr_set *as)
{
	if (!as)
		return;
	for (int i = 0; i < 4; i++)
		file_free(as->outside[i]);
	for (size_t i = 0; i < as->dirs.cap; i++) {
		struct attr_dir *d = as->dirs.slots[i].value;

		if (!as->dirs.slots[i].key)
			continue;
		file_free(d->file);
		free(d->name);
		free(d);
	}
	strmap_release(&as->dirs);
	strmap_release(&as->ids);
	for (size_t i = 0; i < as->names_nr; i++)
		free(as->names[i]);
	free(as->names);
	free(as->macros);
	pthread_mutex_destroy(&as->lock);
	free(as);
}

void
attr_values_release(struct attr_values *v)
{
	free(v->values);
	v->values = NULL;
	v->nr = v->alloc = 0;
}

const char *
attr_value(const struct attr_values *v, int id)
{
	if (id < 0 || (size_t)id >= v->nr)
		return NULL;
	return v->values[id];
}

/* What one lookup needs to match a pattern. */
struct target {
	const char *path;	/* without a trailing '/' */
	size_t len;
	const char *base;	/* its base name */
	size_t baselen;
	int isdir;
	int icase;
};

static int
ncmp(const char *a, const char *b, size_t n, int icase)
{
	return icase ? strncasecmp(a, b, n) : memcmp(a, b, n);
}

static int
rule_matches(const struct attr_rule *r, const struct target *t,
	     const char *dir, size_t dirlen)
{
	const char *name;
	size_t namelen;

	if (r->flags & RULE_MUSTBEDIR && !t->isdir)
		return 0;
	if (r->flags & RULE_NODIR) {
		if (r->nowild == r->patlen)
			return r->patlen == t->baselen &&
			       !ncmp(r->pattern, t->base, t->baselen, t->icase);
		if (r->flags & RULE_ENDSWITH)
			return r->patlen - 1 <= t->baselen &&
			       !ncmp(r->pattern + 1,
				     t->base + t->baselen - (r->patlen - 1),
				     r->patlen - 1, t->icase);
		return wildmatch(r->pattern, t->base,
				 t->icase ? WM_CASEFOLD : 0) == WM_MATCH;
	}
	if (t->len < dirlen || ncmp(t->path, dir, dirlen, t->icase))
		return 0;
	name = t->path + dirlen;
	namelen = t->len - dirlen;
	if (r->nowild) {
		if (r->nowild > namelen ||
		    ncmp(r->pattern, name, r->nowild, t->icase))
			return 0;
		if (r->nowild == r->patlen)
			return namelen == r->nowild;
	}
	return wildmatch(r->pattern + r->nowild, name + r->nowild,
			 WM_PATHNAME | (t->icase ? WM_CASEFOLD : 0)) == WM_MATCH;
}

#define UNKNOWN ((const char *)attr_value_true + 1)

static void
fill(const struct attr_set *as, const char **vals, size_t nr,
     const struct attr_rule *r, int depth)
{
	for (size_t i = r->nr; i-- > 0;) {
		const struct attr_state *s = &r->states[i];

		if ((size_t)s->id >= nr || vals[s->id] != UNKNOWN)
			continue;
		vals[s->id] = s->value;
		if (s->value == ATTR_TRUE && (size_t)s->id < as->macros_nr &&
		    as->macros[s->id] && depth < 64)
			fill(as, vals, nr, as->macros[s->id], depth + 1);
	}
}

static void
fill_file(const struct attr_set *as, const char **vals, size_t nr,
	  const struct attr_file *f, const struct target *t,
	  const char *dir, size_t dirlen)
{
	if (!f)
		return;
	for (size_t i = f->nr; i-- > 0;) {
		const struct attr_rule *r = &f->rules[i];

		if (r->macro < 0 && rule_matches(r, t, dir, dirlen))
			fill(as, vals, nr, r, 0);
	}
}

void
attr_get(struct attr_values *out, struct attr_set *as, const char *path)
{
	size_t len = strlen(path), dirlen, nr;
	const struct attr_dir *d;
	struct target t;
	char *copy = NULL;
	int any;

	t.isdir = len && path[len - 1] == '/';
	if (t.isdir)
		path = copy = xstrndup(path, --len);
	dirlen = len;
	while (dirlen && path[dirlen - 1] != '/')
		dirlen--;
	pthread_mutex_lock(&as->lock);
	if (!as->booted)
		boot_locked(as);
	/* an absolute path (hash-object /x/y): the top's files only */
	d = dir_locked(as, path, *path == '/' ? 0 : dirlen);
	if (d != as->cur) {
		const struct attr_dir *keep = as->cur;

		while (!is_ancestor(keep, d))
			keep = keep->parent;
		if (!as->quiet)
			replay_push(keep, d);
		as->cur = d;
	}
	nr = as->names_nr;
	any = as->outside_any || d->any;
	pthread_mutex_unlock(&as->lock);

	ALLOC_GROW(out->values, nr + 1, out->alloc);
	out->nr = nr;
	if (!any) {
		for (size_t i = 0; i < nr; i++)
			out->values[i] = NULL;
		free(copy);
		return;
	}
	for (size_t i = 0; i < nr; i++)
		out->values[i] = UNKNOWN;
	t.path = path;
	t.len = len;
	t.base = path + dirlen;
	t.baselen = len - dirlen;
	t.icase = as->repo->settings.ignorecase;
	fill_file(as, out->values, nr, as->outside[3], &t, "", 0);
	for (const struct attr_dir *p = d; p; p = p->parent)
		fill_file(as, out->values, nr, p->file, &t, p->name, p->len);
	for (int i = 2; i >= 0; i--)
		fill_file(as, out->values, nr, as->outside[i], &t, "", 0);
	for (size_t i = 0; i < nr; i++)
		if (out->values[i] == UNKNOWN || out->values[i] == attr_unset)
			out->values[i] = NULL;
	free(copy);
}

int
attr_any_outside(struct attr_set *as)
{
	int any;

	pthread_mutex_lock(&as->lock);
	if (!as->booted)
		boot_locked(as);
	any = as->outside_any;
	pthread_mutex_unlock(&as->lock);
	return any;
}
