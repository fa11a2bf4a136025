/*
 * exclude: pattern lists and the rule set.
 *
 * A pattern is kept as git classifies it when parsed: NODIR patterns
 * (no '/' but maybe a trailing one) are compared with the basename,
 * the others with the path below the list's base, the leading
 * wildcard-free part compared directly before wildmatch sees the rest.
 * A pattern without wildcards is a plain compare, "*literal" a suffix
 * compare.
 *
 * The rule set keeps a stack of per-directory lists, one per directory
 * from the top down to the directory of the last path asked about
 * (git's exclude stack): asking about a path in another directory pops
 * the lists that do not lead to it and reads the files on the way down.
 * Before a directory's own file is read, the directory itself is matched
 * against what is loaded; if it is excluded, the walk down stops there
 * and that pattern decides every path below it.
 */
#include "exclude.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "error.h"
#include "index.h"
#include "odb.h"
#include "repo.h"
#include "wildmatch.h"

struct exclude_dir {
	size_t baselen;		/* of ex->base: "" or "a/b/" */
	struct exclude_list list;
};

/* ---- parsing ---- */

static int
glob_special(char c)
{
	return c == '*' || c == '?' || c == '[' || c == '\\';
}

static size_t
simple_length(const char *s)
{
	size_t n = 0;

	while (s[n] && !glob_special(s[n]))
		n++;
	return n;
}

void
exclude_list_init(struct exclude_list *pl, const char *base, const char *src)
{
	memset(pl, 0, sizeof(*pl));
	pl->base = xstrdup(base ? base : "");
	pl->baselen = strlen(pl->base);
	pl->src = src ? xstrdup(src) : NULL;
}

void
exclude_list_release(struct exclude_list *pl)
{
	for (size_t i = 0; i < pl->nr; i++) {
		free(pl->patterns[i]->pattern);
		free(pl->patterns[i]);
	}
	free(pl->patterns);
	free(pl->base);
	free(pl->src);
	memset(pl, 0, sizeof(*pl));
}

void
exclude_list_add(struct exclude_list *pl, const char *s, int lineno)
{
	struct exclude_pattern *p = xcalloc(1, sizeof(*p));
	size_t len;

	if (*s == '!') {
		p->flags |= EXCLUDE_NEGATIVE;
		s++;
	}
	len = strlen(s);
	if (len && s[len - 1] == '/') {
		p->flags |= EXCLUDE_MUSTBEDIR;
		len--;
	}
	if (!memchr(s, '/', len))
		p->flags |= EXCLUDE_NODIR;
	p->nowildcard = simple_length(s);
	if (p->nowildcard > len)
		p->nowildcard = len;
	if (*s == '*' && !s[1 + simple_length(s + 1)])
		p->flags |= EXCLUDE_ENDSWITH;
	p->pattern = xmemdupz(s, len);
	p->len = len;
	p->lineno = lineno;
	p->list = pl;
	ALLOC_GROW(pl->patterns, pl->nr + 1, pl->alloc);
	pl->patterns[pl->nr++] = p;
}

/*
 * Drop trailing spaces, unless escaped: "a\ " keeps its escaped space
 * (and the backslash), a lone trailing '\' stops the trimming.
 */
static void
trim_trailing_spaces(char *s)
{
	char *space = NULL;

	for (char *p = s; *p; p++) {
		if (*p == ' ') {
			if (!space)
				space = p;
			continue;
		}
		if (*p == '\\') {
			if (!p[1])
				return;
			p++;
		}
		space = NULL;
	}
	if (space)
		*space = '\0';
}

void
exclude_list_parse(struct exclude_list *pl, const char *buf, size_t len)
{
	struct strbuf line = STRBUF_INIT;
	size_t pos = 0;
	int lineno = 1;

	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		pos = 3;
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;
		size_t n = end - pos;

		if (n && buf[pos] != '#') {
			if (nl && buf[end - 1] == '\r')
				n--;	/* a CR before the LF */
			strbuf_reset(&line);
			strbuf_add(&line, buf + pos, n);
			/* a NUL ends the pattern, as in git's C strings */
			trim_trailing_spaces(line.buf);
			exclude_list_add(pl, line.buf, lineno);
		}
		lineno++;
		pos = end + 1;
	}
	strbuf_release(&line);
}

int
exclude_list_read_file(struct exclude_list *pl, const char *path,
		       unsigned flags)
{
	struct strbuf buf = STRBUF_INIT;
	struct stat st;
	int fd, ret = 0;

	fd = open(path, O_RDONLY |
		  (flags & EXCLUDE_READ_NOFOLLOW ? O_NOFOLLOW : 0));
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return error_set(E_NOTFOUND, "cannot use %s as an "
					 "exclude file", path);
		return error_errno(errno, "unable to access '%s'", path);
	}
	if (fstat(fd, &st) < 0) {
		ret = error_errno(errno, "unable to access '%s'", path);
		goto out;
	}
	if (st.st_size > 0) {
		ssize_t n = strbuf_read_fd(&buf, fd, (size_t)st.st_size);

		/* git reads exactly the size fstat() gave */
		if (n < 0 || (size_t)buf.len < (size_t)st.st_size) {
			error_clear();
			ret = error_set(E_CORRUPT, "cannot use %s as an "
					"exclude file", path);
			goto out;
		}
		exclude_list_parse(pl, buf.buf, (size_t)st.st_size);
	}
out:
	close(fd);
	strbuf_release(&buf);
	return ret;
}

/* ---- matching ---- */

static int
name_ncmp(const char *a, const char *b, size_t n, unsigned flags)
{
	if (flags & EXCLUDE_ICASE)
		return strncasecmp(a, b, n);
	return memcmp(a, b, n);
}

static int
match_basename(const struct exclude_pattern *p, const char *base,
	       size_t len, unsigned flags)
{
	if (p->nowildcard == p->len)
		return p->len == len && !name_ncmp(p->pattern, base, len, flags);
	if (p->flags & EXCLUDE_ENDSWITH)
		return p->len - 1 <= len &&
		       !name_ncmp(p->pattern + 1, base + len - (p->len - 1),
				  p->len - 1, flags);
	return wildmatch(p->pattern, base,
			 flags & EXCLUDE_ICASE ? WM_CASEFOLD : 0) == WM_MATCH;
}

/* base: baselen bytes, no trailing '/' ("" for the top) */
static int
match_pathname(const struct exclude_pattern *p, const char *path, size_t len,
	       const char *base, size_t baselen, unsigned flags)
{
	const char *pat = p->pattern, *name;
	size_t prefix = p->nowildcard, namelen;

	if (*pat == '/') {
		pat++;
		prefix--;
	}
	if (len < baselen + 1 || (baselen && path[baselen] != '/') ||
	    name_ncmp(path, base, baselen, flags))
		return 0;
	namelen = baselen ? len - baselen - 1 : len;
	name = path + len - namelen;
	if (prefix) {
		if (prefix > namelen || name_ncmp(pat, name, prefix, flags))
			return 0;
		pat += prefix;
		name += prefix;
		namelen -= prefix;
		if (!*pat && !namelen)
			return 1;
	}
	return wildmatch(pat, name, WM_PATHNAME |
			 (flags & EXCLUDE_ICASE ? WM_CASEFOLD : 0)) == WM_MATCH;
}

/* The type, looked up on the disk if unknown. */
static int
resolve_dtype(int dtype, const char *path)
{
	struct stat st;

	if (dtype != EXCLUDE_DTYPE_UNKNOWN)
		return dtype;
	if (lstat(path, &st) < 0)
		return EXCLUDE_DTYPE_UNKNOWN;
	return S_ISDIR(st.st_mode) ? EXCLUDE_DTYPE_DIR : EXCLUDE_DTYPE_FILE;
}

static const struct exclude_pattern *
list_match(const struct exclude_list *pl, const char *path, size_t len,
	   const char *basename, int *dtype, unsigned flags)
{
	size_t blen = len - (size_t)(basename - path);

	for (size_t i = pl->nr; i-- > 0;) {
		const struct exclude_pattern *p = pl->patterns[i];

		if (p->flags & EXCLUDE_MUSTBEDIR) {
			*dtype = resolve_dtype(*dtype, path);
			if (*dtype != EXCLUDE_DTYPE_DIR)
				continue;
		}
		if (p->flags & EXCLUDE_NODIR) {
			if (match_basename(p, basename, blen, flags))
				return p;
			continue;
		}
		if (match_pathname(p, path, len, pl->base,
				   pl->baselen ? pl->baselen - 1 : 0, flags))
			return p;
	}
	return NULL;
}

static const char *
basename_of(const char *path, size_t len)
{
	const char *slash = NULL;

	for (size_t i = len; i > 0; i--) {
		if (path[i - 1] == '/') {
			slash = path + i - 1;
			break;
		}
	}
	return slash ? slash + 1 : path;
}

enum exclude_result
exclude_list_match(const struct exclude_list *pl, const char *path,
		   size_t len, int is_dir, unsigned flags,
		   const struct exclude_pattern **which)
{
	int dtype = is_dir ? EXCLUDE_DTYPE_DIR : EXCLUDE_DTYPE_FILE;
	const struct exclude_pattern *p;

	p = list_match(pl, path, len, basename_of(path, len), &dtype, flags);
	if (which)
		*which = p;
	if (!p)
		return EXCLUDE_UNDECIDED;
	return p->flags & EXCLUDE_NEGATIVE ? EXCLUDE_NEGATED : EXCLUDE_MATCHED;
}

/* ---- the rule set ---- */

void
excludes_init(struct excludes *ex, unsigned flags)
{
	memset(ex, 0, sizeof(*ex));
	exclude_list_init(&ex->cmdline, "", "--exclude option");
	strbuf_init(&ex->base, 0);
	strbuf_init(&ex->absent, 0);
	ex->flags = flags;
}

static void
pop_dir(struct excludes *ex)
{
	--ex->stack_nr;
	if (!ex->borrowed || ex->stack_nr)
		exclude_list_release(&ex->stack[ex->stack_nr].list);
	ex->dir_pattern = NULL;
}

void
excludes_clone(struct excludes *dst, const struct excludes *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->cmdline = src->cmdline;
	dst->files = src->files;
	dst->files_nr = src->files_nr;
	dst->per_dir = src->per_dir;
	dst->flags = src->flags;
	dst->idx = src->idx;
	dst->odb = src->odb;
	dst->cmdline_nr = src->cmdline_nr;
	dst->borrowed = 1;
	strbuf_init(&dst->base, 0);
	strbuf_init(&dst->absent, 0);
	if (src->stack_nr && !src->stack[0].baselen) {
		ALLOC_GROW(dst->stack, 1, dst->stack_alloc);
		dst->stack[0] = src->stack[0];
		dst->stack_nr = 1;
	}
}

void
excludes_release(struct excludes *ex)
{
	while (ex->stack_nr)
		pop_dir(ex);
	free(ex->stack);
	if (ex->borrowed) {
		strbuf_release(&ex->base);
		strbuf_release(&ex->absent);
		memset(ex, 0, sizeof(*ex));
		return;
	}
	for (size_t i = 0; i < ex->files_nr; i++) {
		exclude_list_release(ex->files[i]);
		free(ex->files[i]);
	}
	free(ex->files);
	free(ex->per_dir);
	exclude_list_release(&ex->cmdline);
	strbuf_release(&ex->base);
	strbuf_release(&ex->absent);
	memset(ex, 0, sizeof(*ex));
}

void
excludes_add_pattern(struct excludes *ex, const char *pattern)
{
	exclude_list_add(&ex->cmdline, pattern, -++ex->cmdline_nr);
}

int
excludes_add_file(struct excludes *ex, const char *path, const char *src)
{
	struct exclude_list *pl = xmalloc(sizeof(*pl));
	int ret;

	exclude_list_init(pl, "", src ? src : path);
	ret = exclude_list_read_file(pl, path, 0);
	if (ret < 0) {
		exclude_list_release(pl);
		free(pl);
		return ret;
	}
	ALLOC_GROW(ex->files, ex->files_nr + 1, ex->files_alloc);
	ex->files[ex->files_nr++] = pl;
	return 0;
}

void
excludes_set_per_dir(struct excludes *ex, const char *name)
{
	/* the loaded lists were read under the old name */
	while (ex->stack_nr)
		pop_dir(ex);
	strbuf_reset(&ex->base);
	free(ex->per_dir);
	ex->per_dir = name ? xstrdup(name) : NULL;
}

void
excludes_hint_absent(struct excludes *ex, const char *dir, size_t len)
{
	strbuf_reset(&ex->absent);
	strbuf_add(&ex->absent, dir, len);
	ex->has_absent = 1;
}

void
excludes_set_index(struct excludes *ex, const struct index *idx,
		   struct odb *odb)
{
	ex->idx = idx;
	ex->odb = odb;
}

/*
 * The per-directory file path, missing from the work tree: read it from
 * the index if it is skip-worktree there.  0 if read; -1 if not.
 */
static int
read_from_index(struct excludes *ex, struct exclude_list *pl,
		const char *path)
{
	struct odb_object obj = ODB_OBJECT_INIT;
	const struct index_entry *e;
	ssize_t pos;

	if (!ex->idx || !ex->odb)
		return -1;
	pos = index_pos(ex->idx, path, strlen(path), 0);
	if (pos < 0)
		return -1;
	e = ex->idx->entries[pos];
	if (!(e->ext_flags & CE_SKIP_WORKTREE))
		return -1;
	if (odb_read(&obj, ex->odb, &e->oid, 0) < 0) {
		error_clear();
		return -1;
	}
	exclude_list_parse(pl, (const char *)obj.data, obj.size);
	odb_object_release(&obj);
	return 0;
}

/* Is path readable?  If it exists but is not, say so (git's access_or_warn). */
static int
readable(const char *path)
{
	if (!access(path, R_OK))
		return 1;
	if (errno != ENOENT && errno != ENOTDIR)
		diag_emit(DIAG_WARNING, "unable to access '%s': %s", path,
			  strerror(errno));
	return 0;
}

static int
add_standard_file(struct excludes *ex, const char *path)
{
	int ret;

	if (!readable(path))
		return 0;
	ret = excludes_add_file(ex, path, NULL);
	if (ret < 0 && error_code() != E_NOTFOUND && error_code() != E_CORRUPT)
		diag_emit(DIAG_WARNING, "%s", error_msg());
	if (ret < 0)
		ret = error_set(error_code(), "cannot use %s as an exclude "
				"file", path);
	return ret;
}

int
excludes_add_standard(struct excludes *ex, struct repo *repo)
{
	struct strbuf path = STRBUF_INIT;
	const char *v = NULL, *home = getenv("HOME");
	const char *xdg = getenv("XDG_CONFIG_HOME");
	int ret;

	excludes_set_per_dir(ex, ".gitignore");
	if (config_get(&repo->config, "core.excludesfile", &v) && v) {
		if (v[0] == '~' && v[1] == '/' && home)
			strbuf_addf(&path, "%s/%s", home, v + 2);
		else
			strbuf_addstr(&path, v);
	} else if (xdg && *xdg) {
		strbuf_addf(&path, "%s/git/ignore", xdg);
	} else if (home) {
		strbuf_addf(&path, "%s/.config/git/ignore", home);
	}
	ret = path.len ? add_standard_file(ex, path.buf) : 0;
	if (ret < 0 || !repo->gitdir)
		goto out;
	strbuf_reset(&path);
	if (strcmp(repo->commondir, repo->gitdir))
		strbuf_addstr(&path, repo->commondir);
	else
		strbuf_addstr(&path, repo->gitdir_env ? repo->gitdir_env :
			      ".git");
	strbuf_addstr(&path, "/info/exclude");
	ret = add_standard_file(ex, path.buf);
out:
	strbuf_release(&path);
	return ret;
}

static const struct exclude_pattern *
match_lists(struct excludes *ex, const char *path, size_t len,
	    const char *basename, int *dtype)
{
	const struct exclude_pattern *p;

	p = list_match(&ex->cmdline, path, len, basename, dtype, ex->flags);
	if (p)
		return p;
	for (size_t i = ex->stack_nr; i-- > 0;) {
		p = list_match(&ex->stack[i].list, path, len, basename, dtype,
			       ex->flags);
		if (p)
			return p;
	}
	for (size_t i = ex->files_nr; i-- > 0;) {
		p = list_match(ex->files[i], path, len, basename, dtype,
			       ex->flags);
		if (p)
			return p;
	}
	return NULL;
}

/* Make the stack hold the lists for the directory dir ("" or "a/b/"). */
static void
prepare(struct excludes *ex, const char *dir, size_t dirlen)
{
	size_t cur;

	while (ex->stack_nr) {
		size_t n = ex->stack[ex->stack_nr - 1].baselen;

		if (n <= dirlen && !memcmp(ex->base.buf, dir, n))
			break;
		pop_dir(ex);
	}
	if (ex->dir_pattern)
		return;
	cur = ex->stack_nr ? ex->stack[ex->stack_nr - 1].baselen : 0;
	strbuf_setlen(&ex->base, cur);
	if (ex->stack_nr && cur == dirlen)
		return;
	while (!ex->stack_nr || cur < dirlen) {
		struct exclude_dir *d;
		size_t next = cur;
		int ret;

		if (ex->stack_nr) {
			const char *slash = memchr(dir + cur, '/', dirlen - cur);

			next = (size_t)(slash - dir) + 1;
		}
		strbuf_add(&ex->base, dir + cur, next - cur);
		ALLOC_GROW(ex->stack, ex->stack_nr + 1, ex->stack_alloc);
		d = &ex->stack[ex->stack_nr++];
		d->baselen = next;
		exclude_list_init(&d->list, ex->base.buf, NULL);
		if (next) {
			int dtype = EXCLUDE_DTYPE_DIR;
			const struct exclude_pattern *p;

			ex->base.buf[next - 1] = '\0';
			p = match_lists(ex, ex->base.buf, next - 1,
					ex->base.buf + cur, &dtype);
			ex->base.buf[next - 1] = '/';
			if (p && !(p->flags & EXCLUDE_NEGATIVE)) {
				ex->dir_pattern = p;
				return;
			}
		}
		if (ex->per_dir) {
			struct strbuf file = STRBUF_INIT;

			strbuf_addbuf(&file, &ex->base);
			strbuf_addstr(&file, ex->per_dir);
			free(d->list.src);
			d->list.src = xstrdup(file.buf);
			if (ex->has_absent && ex->absent.len == next &&
			    !memcmp(ex->absent.buf, ex->base.buf, next))
				ret = -E_NOTFOUND;	/* the walk saw none */
			else
				ret = exclude_list_read_file(&d->list, file.buf,
							     EXCLUDE_READ_NOFOLLOW);
			if (ret < 0 && ret != -E_NOTFOUND && ret != -E_CORRUPT)
				diag_emit(DIAG_WARNING, "%s", error_msg());
			if (ret < 0)
				error_clear();
			if (ret < 0 && ret != -E_CORRUPT)
				read_from_index(ex, &d->list, file.buf);
			strbuf_release(&file);
		}
		cur = next;
	}
}

const struct exclude_pattern *
excludes_pattern(struct excludes *ex, const char *path, size_t len,
		 int dtype)
{
	const char *basename = basename_of(path, len);

	prepare(ex, path, (size_t)(basename - path));
	if (ex->dir_pattern)
		return ex->dir_pattern;
	return match_lists(ex, path, len, basename, &dtype);
}

int
excludes_path(struct excludes *ex, const char *path, size_t len, int dtype)
{
	const struct exclude_pattern *p = excludes_pattern(ex, path, len,
							   dtype);

	return p && !(p->flags & EXCLUDE_NEGATIVE);
}
