/*
 * sparse: which index entries a sparse checkout keeps in the work tree.
 *
 * The pattern file is parsed once by lib/exclude (gitignore syntax).  In
 * cone mode the parsed patterns are then read as git reads the ones it
 * writes and turned into two sets of directory names (without the
 * leading '/', unescaped, folded under core.ignoreCase) — a pattern as
 * the parser leaves it (no '!', no trailing '/'; STAR stands for '*'):
 *
 *   pattern	flags		meaning
 *   /STAR	-		full cone: every path is in
 *   /STAR	! and dir	not the full cone (git's second line)
 *   /d/e	dir		recursive: everything under d/e
 *   /d/STAR	! and dir	d moves from recursive to parent: the
 *				files directly in d (and its
 *				sub-directories are looked at)
 *
 * Anything else disables cone matching with git's warnings, and the
 * patterns are matched as gitignore patterns.
 *
 * A path is decided top down, each leading directory first, as git's
 * walk of the index decides it; the answers for the directories of the
 * last path asked about are cached (sp->dirs over sp->last), so a walk
 * in index order matches each directory once.
 */
#include "sparse.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include "error.h"
#include "exclude.h"
#include "index.h"
#include "repo.h"

/* What the cone matcher says of one path (a file or a directory). */
enum cone_result {
	CONE_OUT,		/* not in the cone */
	CONE_IN,		/* in; a directory: look at what it holds */
	CONE_RECURSIVE,		/* a directory and everything below it */
};

/* A directory's answer for what lies below it (struct sparse_dir). */
enum dir_answer {
	DIR_OUT,	/* cone: all out; non-cone: out unless decided */
	DIR_IN,		/* cone: all in; non-cone: in unless decided */
	DIR_LOOK,	/* cone: decide each path below */
};

void
sparse_init(struct sparse *sp)
{
	memset(sp, 0, sizeof(*sp));
	strbuf_init(&sp->last, 0);
	strbuf_init(&sp->warnings, 0);
}

static void
cone_clear(struct sparse *sp)
{
	strmap_release(&sp->recursive);
	strmap_release(&sp->parent);
	for (size_t i = 0; i < sp->keys_nr; i++)
		free(sp->keys[i]);
	free(sp->keys);
	sp->keys = NULL;
	sp->keys_nr = sp->keys_alloc = 0;
}

void
sparse_release(struct sparse *sp)
{
	cone_clear(sp);
	if (sp->pl) {
		exclude_list_release(sp->pl);
		free(sp->pl);
	}
	strbuf_release(&sp->last);
	strbuf_release(&sp->warnings);
	free(sp->dirs);
	sparse_init(sp);
}

/* One of git's warnings about the patterns: said, and kept. */
PRINTF_LIKE(2, 3) static void
warn(struct sparse *sp, const char *fmt, ...)
{
	size_t start = sp->warnings.len;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sp->warnings, fmt, ap);
	va_end(ap);
	diag_emit(DIAG_WARNING, "%s", sp->warnings.buf + start);
	strbuf_addch(&sp->warnings, '\n');
}

void
sparse_warn_again(struct sparse *sp)
{
	const char *p = sp->warnings.buf;

	if (sp->warned_again)
		return;
	sp->warned_again = 1;
	while (*p) {
		const char *nl = strchr(p, '\n');

		diag_emit(DIAG_WARNING, "%.*s", (int)(nl - p), p);
		p = nl + 1;
	}
}

static int
fold(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/*
 * The key of a cone pattern: its backslashes dropped (each escapes the
 * byte after it), folded under icase.  Owned by sp.
 */
static const char *
cone_key(struct sparse *sp, const char *pat, size_t len, size_t *keylen)
{
	char *key = xmalloc(len + 1);
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		if (pat[i] == '\\' && i + 1 < len)
			i++;
		key[n++] = sp->icase ? (char)fold((unsigned char)pat[i]) :
			   pat[i];
	}
	key[n] = '\0';
	ALLOC_GROW(sp->keys, sp->keys_nr + 1, sp->keys_alloc);
	sp->keys[sp->keys_nr++] = key;
	*keylen = n;
	return key;
}

static int
in_set(const struct sparse *sp, const struct strmap *set, const char *name,
       size_t len)
{
	char buf[256];
	char *tmp;
	int ret;

	if (!sp->icase)
		return strmap_get(set, name, len) != NULL;
	tmp = len < sizeof(buf) ? buf : xmalloc(len + 1);
	for (size_t i = 0; i < len; i++)
		tmp[i] = (char)fold((unsigned char)name[i]);
	tmp[len] = '\0';
	ret = strmap_get(set, tmp, len) != NULL;
	if (tmp != buf)
		free(tmp);
	return ret;
}

/* The last '/' in s[0..len), or NULL. */
static const char *
last_slash(const char *s, size_t len)
{
	while (len--)
		if (s[len] == '/')
			return s + len;
	return NULL;
}

static int
has_double_star(const char *p, size_t len)
{
	for (size_t i = 1; i < len; i++)
		if (p[i - 1] == '*' && p[i] == '*')
			return 1;
	return 0;
}

/* The pattern characters git's cone mode refuses unescaped. */
static int
glob_special(int c)
{
	return c == '*' || c == '?' || c == '[' || c == '\\';
}

/*
 * Is pattern p (len bytes, with its leading '/') free of wildcards, but
 * for escaped ones and a final slash and star?
 */
static int
cone_literal(const char *p, size_t len)
{
	for (size_t i = 1; i < len; i++) {
		if (!glob_special((unsigned char)p[i]))
			continue;
		if (p[i] == '\\' && i + 1 < len &&
		    glob_special((unsigned char)p[i + 1])) {
			i++;	/* an escaped special: literal */
			continue;
		}
		if (p[i] == '*' && i + 1 == len && p[i - 1] == '/')
			continue;	/* the negated "d/STAR" */
		return 0;
	}
	return 1;
}

/*
 * Add one parsed pattern to the cone sets.  0, or -1 after git's
 * warning about it (the caller falls back to non-cone matching).
 */
static int
cone_add(struct sparse *sp, const struct exclude_pattern *x)
{
	const char *p = x->pattern;
	size_t len = x->len, klen;
	int neg = !!(x->flags & EXCLUDE_NEGATIVE);
	int dir = !!(x->flags & EXCLUDE_MUSTBEDIR);
	const char *key;
	uintptr_t count;

	if (len == 2 && !memcmp(p, "/*", 2)) {
		if (!neg && !dir) {
			sp->full = 1;
			return 0;
		}
		if (neg && dir) {
			sp->full = 0;
			return 0;
		}
	}
	if (len < 2 || p[0] != '/' || has_double_star(p, len) || !dir ||
	    !cone_literal(p, len)) {
		warn(sp, "unrecognized pattern: '%.*s'",
			  (int)len, p);
		return -1;
	}
	if (len > 2 && p[len - 2] == '/' && p[len - 1] == '*') {
		if (!neg) {
			warn(sp, "unrecognized pattern: '%.*s'",
				  (int)len, p);
			return -1;
		}
		key = cone_key(sp, p + 1, len - 3, &klen);
		count = (uintptr_t)strmap_get(&sp->recursive, key, klen);
		if (!count) {
			warn(sp, "unrecognized negative "
				  "pattern: '%.*s'", (int)len, p);
			return -1;
		}
		/* one of its "/d/" lines goes (git keeps a line twice) */
		strmap_put(&sp->recursive, key, klen, (void *)(count - 1));
		strmap_put(&sp->parent, key, klen, (void *)key);
		return 0;
	}
	if (neg) {
		warn(sp, "unrecognized negative pattern: '%.*s'",
			  (int)len, p);
		return -1;
	}
	key = cone_key(sp, p + 1, len - 1, &klen);
	count = (uintptr_t)strmap_get(&sp->recursive, key, klen);
	strmap_put(&sp->recursive, key, klen, (void *)(count + 1));
	if (strmap_get(&sp->parent, key, klen)) {
		warn(sp, "your sparse-checkout file may have "
			  "issues: pattern '%.*s' is repeated", (int)len, p);
		return -1;
	}
	return 0;
}

/* The cone sets from the parsed patterns, or non-cone after a warning. */
static void
cone_build(struct sparse *sp)
{
	for (size_t i = 0; i < sp->pl->nr; i++) {
		if (cone_add(sp, sp->pl->patterns[i]) < 0) {
			warn(sp, "disabling cone pattern "
				  "matching");
			cone_clear(sp);
			sp->cone = 0;
			sp->full = 0;
			return;
		}
	}
}

void
sparse_parse(struct sparse *sp, const char *buf, size_t len, int cone,
	     int icase)
{
	sparse_release(sp);
	sp->icase = icase;
	sp->cone = cone;
	sp->pl = xmalloc(sizeof(*sp->pl));
	exclude_list_init(sp->pl, "", NULL);
	exclude_list_parse(sp->pl, buf, len);
	if (sp->cone)
		cone_build(sp);
}

int
sparse_load(struct sparse *sp, struct repo *repo)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	sparse_release(sp);
	if (!repo->settings.sparse_checkout)
		return 0;
	sp->icase = repo->settings.ignorecase;
	sp->cone = repo->settings.sparse_checkout_cone;
	sp->pl = xmalloc(sizeof(*sp->pl));
	exclude_list_init(sp->pl, "", NULL);
	/* named as git names it, from the top of the work tree */
	if (repo->in_worktree_dir && !strcmp(repo->gitdir, repo->commondir))
		strbuf_addstr(&path, repo->gitdir_env ? repo->gitdir_env :
			      ".git");
	else
		strbuf_addstr(&path, repo->gitdir);
	strbuf_addstr(&path, "/info/sparse-checkout");
	ret = exclude_list_read_file(sp->pl, path.buf, 0);
	if (ret < 0) {
		/*
		 * Missing, or a directory: no sparse checkout.  Unreadable:
		 * git's warning, and no sparse checkout either.
		 */
		if (ret != -E_NOTFOUND && ret != -E_CORRUPT)
			diag_emit(DIAG_WARNING, "%s", error_msg());
		error_clear();
		ret = 0;
		sparse_release(sp);
		goto out;
	}
	if (sp->cone)
		cone_build(sp);
	ret = 1;
out:
	if (ret < 0)
		sparse_release(sp);
	strbuf_release(&path);
	return ret;
}

/* git's cone answer for path[0..len), a file or a directory. */
static enum cone_result
cone_match(const struct sparse *sp, const char *path, size_t len)
{
	const char *slash;

	if (sp->full)
		return CONE_IN;
	if (in_set(sp, &sp->recursive, path, len))
		return CONE_RECURSIVE;
	slash = last_slash(path, len);
	if (!slash)
		return CONE_IN;		/* at the top: always in */
	if (in_set(sp, &sp->parent, path, slash - path))
		return CONE_IN;
	for (; slash; slash = last_slash(path, slash - path))
		if (in_set(sp, &sp->recursive, path, slash - path))
			return CONE_RECURSIVE;
	return CONE_OUT;
}

/* The non-cone answer for path[0..len) (NUL-terminated in sp->last). */
static enum exclude_result
nocone_match(const struct sparse *sp, const char *path, size_t len,
	     int is_dir)
{
	return exclude_list_match(sp->pl, path, len, is_dir,
				  sp->icase ? EXCLUDE_ICASE : 0, NULL);
}

/* The answer below directory path[0..len), given its parent's. */
static enum dir_answer
dir_answer(struct sparse *sp, const char *path, size_t len,
	   enum dir_answer up)
{
	enum dir_answer ret = up;
	char save;

	if (sp->cone) {
		if (up != DIR_LOOK)
			return up;
		switch (cone_match(sp, path, len)) {
		case CONE_OUT:
			return DIR_OUT;
		case CONE_RECURSIVE:
			return DIR_IN;
		default:
			return DIR_LOOK;
		}
	}
	/* the matcher wants the directory NUL-terminated */
	save = sp->last.buf[len];
	sp->last.buf[len] = '\0';
	switch (nocone_match(sp, sp->last.buf, len, 1)) {
	case EXCLUDE_MATCHED:
		ret = DIR_IN;
		break;
	case EXCLUDE_NEGATED:
		ret = DIR_OUT;
		break;
	default:
		break;
	}
	sp->last.buf[len] = save;
	(void)path;
	return ret;
}

/*
 * Bring the directory cache to path's directories; the answer below the
 * last of them.
 */
static enum dir_answer
walk_dirs(struct sparse *sp, const char *path, size_t len)
{
	enum dir_answer up = sp->cone ? DIR_LOOK : DIR_OUT;
	size_t keep = 0, from = 0;
	const char *slash;

	/* the directories shared with the last path keep their answers */
	while (keep < sp->dirs_nr) {
		size_t dl = sp->dirs[keep].len;

		if (dl >= len || path[dl] != '/' || memcmp(path, sp->last.buf,
							   dl))
			break;
		keep++;
	}
	sp->dirs_nr = keep;
	if (keep) {
		up = (enum dir_answer)sp->dirs[keep - 1].result;
		from = sp->dirs[keep - 1].len + 1;
	}
	strbuf_setlen(&sp->last, 0);
	strbuf_add(&sp->last, path, len);
	for (slash = memchr(path + from, '/', len - from); slash;
	     slash = memchr(slash + 1, '/', len - (slash + 1 - path))) {
		size_t dl = slash - path;

		up = dir_answer(sp, path, dl, up);
		ALLOC_GROW(sp->dirs, sp->dirs_nr + 1, sp->dirs_alloc);
		sp->dirs[sp->dirs_nr].len = dl;
		sp->dirs[sp->dirs_nr++].result = up;
	}
	return up;
}

size_t
sparse_recursive_dir(struct sparse *sp, const char *path, size_t len)
{
	if (!sp->cone || sp->full || walk_dirs(sp, path, len) != DIR_IN)
		return 0;
	/* the first directory whose answer is "all in" */
	for (size_t k = 0; k < sp->dirs_nr; k++)
		if (sp->dirs[k].result == DIR_IN)
			return sp->dirs[k].len;
	return 0;
}

int
sparse_path_in(struct sparse *sp, const char *path, size_t len,
	       unsigned mode)
{
	enum dir_answer up = walk_dirs(sp, path, len);

	if (sp->cone) {
		if (up != DIR_LOOK)
			return up == DIR_IN;
		return cone_match(sp, path, len) != CONE_OUT;
	}
	/*
	 * A gitlink is matched as a file (a pattern "d/" does not take
	 * it), as git 2.39 matches one whose directory is not there.
	 * NEEDSWORK: git's answer changes when the directory exists.
	 */
	(void)mode;
	switch (nocone_match(sp, sp->last.buf, len, 0)) {
	case EXCLUDE_MATCHED:
		return 1;
	case EXCLUDE_NEGATED:
		return 0;
	default:
		return up == DIR_IN;
	}
}

void
sparse_clear_present(struct index *idx, const struct repo *repo)
{
	struct strbuf path = STRBUF_INIT;
	size_t top, gone_len = 0;
	const char *gone = NULL;	/* a directory found missing */
	struct stat st;

	if (!repo->settings.sparse_checkout ||
	    repo->settings.sparse_expect_outside || !repo->worktree)
		return;
	repo_worktree_path(&path, repo, "");	/* "" at the top: "<wt>/" */
	top = path.len;
	for (size_t i = 0; i < idx->nr; i++) {
		struct index_entry *e = idx->entries[i];
		const char *slash;

		if (!(e->ext_flags & CE_SKIP_WORKTREE))
			continue;
		/* under a directory already found missing: missing too */
		if (gone && e->namelen > gone_len &&
		    !memcmp(e->name, gone, gone_len))
			continue;
		strbuf_setlen(&path, top);
		strbuf_add(&path, e->name, e->namelen);
		if (!lstat(path.buf, &st)) {
			e->ext_flags &= ~CE_SKIP_WORKTREE;
			continue;
		}
		slash = last_slash(e->name, e->namelen);
		gone = NULL;
		if (!slash)
			continue;
		strbuf_setlen(&path, top + (slash - e->name));
		if (lstat(path.buf, &st) < 0) {
			gone = e->name;
			gone_len = slash - e->name + 1;
		}
	}
	strbuf_release(&path);
}
