/*
 * path: normalisation of command-line paths and the rules for index
 * paths.  The rules are git's (see git-formats.md §7); the code is ours:
 * each component is checked once, left to right.
 */
#include "path.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "error.h"

/*
 * prefix + path made relative to the top, as git's normalisation does:
 * empty and "." components dropped, ".." resolved; a trailing slash is
 * kept, and so is the one a last "." or ".." component leaves ("d/." is
 * "d/").  *kept: how much of prefix is still at the front of the result.
 * 0, or 1 if a ".." climbs out of the top.
 */
static int
normalize_relative(struct strbuf *out, size_t *kept, const char *prefix,
		   const char *path)
{
	const char *p;

	strbuf_reset(out);
	strbuf_addstr(out, prefix);
	*kept = out->len;
	for (p = path; *p;) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);

		if (!len || (len == 1 && p[0] == '.')) {
			/* nothing */
		} else if (len == 2 && p[0] == '.' && p[1] == '.') {
			if (!out->len)
				return 1;
			strbuf_setlen(out, out->len - 1);
			while (out->len && out->buf[out->len - 1] != '/')
				strbuf_setlen(out, out->len - 1);
			if (out->len < *kept)
				*kept = out->len;
		} else {
			strbuf_add(out, p, len);
			if (slash)
				strbuf_addch(out, '/');
		}
		p += len;
		if (*p == '/')
			p++;
	}
	return 0;
}

/*
 * Resolve one path as realpath(3) would, but let its last component be
 * missing (git's strbuf_realpath).  0, or -1 with errno set.
 */
static int
real_path_lenient(struct strbuf *out, const char *path)
{
	char *real = realpath(path, NULL), *dir;
	const char *slash;
	int err;

	strbuf_reset(out);
	if (real) {
		strbuf_addstr(out, real);
		free(real);
		return 0;
	}
	err = errno;
	slash = strrchr(path, '/');
	if (err != ENOENT || !slash || !slash[1]) {
		errno = err;
		return -1;
	}
	if (slash == path) {
		strbuf_addstr(out, path);	/* "/missing" */
		return 0;
	}
	dir = xstrndup(path, slash - path);
	real = realpath(dir, NULL);
	free(dir);
	if (!real) {
		errno = err;
		return -1;
	}
	strbuf_addstr(out, real);
	if (out->len > 1)
		strbuf_addch(out, '/');
	strbuf_addstr(out, slash + 1);
	free(real);
	return 0;
}

/*
 * An absolute path made relative to the work tree, as git does:
 * normalised first ("/a/../b", "//b"), then taken as inside when it
 * starts with the work tree, else when one of its leading directories
 * (which must resolve) or the whole of it (whose last component may be
 * missing) resolves through symlinks to the work tree.  0, 1 if it is
 * outside, or -E_* with git's "Invalid path '<p>': <why>".
 */
static int
normalize_absolute(struct strbuf *out, const char *path, const char *worktree)
{
	struct strbuf norm = STRBUF_INIT, real = STRBUF_INIT;
	size_t wlen = strlen(worktree), kept, off = 0;
	int ret = 1;

	while (wlen > 1 && worktree[wlen - 1] == '/')
		wlen--;
	strbuf_reset(out);
	strbuf_addch(&norm, '/');
	if (normalize_relative(&real, &kept, "", path + 1))
		goto out;
	strbuf_addbuf(&norm, &real);
	if (wlen <= norm.len && !strncmp(norm.buf, worktree, wlen)) {
		if (wlen == 1 || norm.buf[wlen] == '/') {
			strbuf_addstr(out, norm.buf + wlen +
				      (norm.buf[wlen] == '/'));
			ret = 0;
			goto out;
		}
		if (!norm.buf[wlen]) {
			ret = 0;
			goto out;
		}
		off = wlen;	/* maybe a symlink to the work tree */
	}
	for (size_t i = off + 1; i < norm.len; i++) {
		char *r;

		if (norm.buf[i] != '/')
			continue;
		norm.buf[i] = '\0';
		r = realpath(norm.buf, NULL);
		if (!r) {
			ret = error_errno(errno, "Invalid path '%s'", norm.buf);
			goto out;
		}
		norm.buf[i] = '/';
		if (!strcmp(r, worktree)) {
			free(r);
			strbuf_addstr(out, norm.buf + i + 1);
			ret = 0;
			goto out;
		}
		free(r);
	}
	if (real_path_lenient(&real, norm.buf) < 0) {
		ret = error_errno(errno, "Invalid path '%s'", norm.buf);
		goto out;
	}
	if (!strcmp(real.buf, worktree))
		ret = 0;
out:
	strbuf_release(&norm);
	strbuf_release(&real);
	return ret;
}

int
path_resolve(struct strbuf *out, size_t *kept, const char *prefix,
	     const char *arg, const char *worktree)
{
	size_t dummy;
	int ret;

	if (!kept)
		kept = &dummy;
	if (arg[0] == '/') {
		*kept = 0;
		ret = normalize_absolute(out, arg, worktree);
	} else {
		ret = normalize_relative(out, kept, prefix, arg);
	}
	if (ret)
		strbuf_reset(out);
	return ret;
}

int
path_normalize(struct strbuf *out, const char *prefix, const char *arg,
	       const char *worktree)
{
	int ret = path_resolve(out, NULL, prefix, arg, worktree);

	if (ret > 0)
		ret = error_set(E_INVALID, "'%s' is outside repository at "
				"'%s'", arg, worktree);
	return ret;
}

static int
is_sep(int c)
{
	return c == '/' || c == '\0';
}

/* Case-insensitive match of an ASCII needle at p. */
static int
imatch(const char *p, const char *needle)
{
	return !strncasecmp(p, needle, strlen(needle));
}

/*
 * After an NTFS name, only dots and spaces may follow before the
 * component ends (or an alternate data stream ':' starts).
 */
static int
ntfs_tail_is_empty(const char *p, int stop_at_sep)
{
	for (;; p++) {
		if (!*p || *p == ':')
			return 1;
		if (stop_at_sep && (*p == '/' || *p == '\\'))
			return 1;
		if (*p != '.' && *p != ' ')
			return 0;
	}
}

/* ".git" or "git~1" as NTFS sees them, at the start of a component. */
static int
ntfs_is_dotgit(const char *c)
{
	if (c[0] == '.' && imatch(c + 1, "git"))
		return ntfs_tail_is_empty(c + 4, 1);
	if (imatch(c, "git~1"))
		return ntfs_tail_is_empty(c + 5, 1);
	return 0;
}

/*
 * ".<word>" as NTFS sees it: the long name, its 8.3 short form (the
 * first six letters of word, '~', a digit 1..4), or the hashed fall-back
 * form (up to six letters of hashed, '~', a digit 1..9, more digits, eight
 * characters in all).  Trailing dots and spaces, or a ":stream", are
 * ignored after any of them.
 */
static int
ntfs_is_dot(const char *c, const char *word, const char *hashed)
{
	size_t wlen = strlen(word);
	int i;

	if (c[0] == '.' && !strncasecmp(c + 1, word, wlen))
		return ntfs_tail_is_empty(c + 1 + wlen, 0);
	if (!strncasecmp(c, word, 6) && c[6] == '~' && c[7] >= '1' &&
	    c[7] <= '4')
		return ntfs_tail_is_empty(c + 8, 0);
	/* up to six prefix characters, '~', a digit 1-9, more digits */
	for (i = 0; i < 6 && c[i] && c[i] != '~'; i++)
		if ((unsigned char)c[i] >= 0x80 ||
		    tolower((unsigned char)c[i]) != hashed[i])
			return 0;
	if (c[i] != '~' || c[i + 1] < '1' || c[i + 1] > '9')
		return 0;
	for (i += 2; i < 8; i++) {
		if (!c[i])
			return 0;
		if (c[i] < '0' || c[i] > '9')
			return 0;
	}
	return ntfs_tail_is_empty(c + 8, 0);
}

/* ".gitmodules" as NTFS sees it; see ntfs_is_dot() */
static int
ntfs_is_dotgitmodules(const char *c)
{
	return ntfs_is_dot(c, "gitmodules", "gi7eba");
}

/*
 * Skip one code point HFS+ ignores (U+200C..200F, U+202A..202E,
 * U+206A..206F, U+FEFF) at *p; 1 if one was skipped.
 */
static int
hfs_skip_ignorable(const char **p)
{
	const unsigned char *s = (const unsigned char *)*p;
	unsigned cp;

	if (s[0] != 0xe2 && s[0] != 0xef)
		return 0;
	if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
		return 0;
	cp = (s[0] & 0x0f) << 12 | (s[1] & 0x3f) << 6 | (s[2] & 0x3f);
	if ((cp >= 0x200c && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x206a && cp <= 0x206f) || cp == 0xfeff) {
		*p += 3;
		return 1;
	}
	return 0;
}

/* Does the component at c spell needle when HFS+ ignorables are dropped? */
static int
hfs_matches(const char *c, const char *needle)
{
	for (; *needle; needle++) {
		while (hfs_skip_ignorable(&c))
			;
		if (tolower((unsigned char)*c) != *needle)
			return 0;
		c++;
	}
	while (hfs_skip_ignorable(&c))
		;
	return is_sep(*c);
}

/* Check one component starting at c (ending at '/' or NUL). */
static int
component_ok(const char *c, unsigned mode, unsigned flags)
{
	int is_link = S_ISLNK(mode);

	if (is_sep(c[0]))
		return 0;	/* empty */
	if (c[0] == '.') {
		if (is_sep(c[1]))
			return 0;	/* "." */
		if (c[1] == '.' && is_sep(c[2]))
			return 0;	/* ".." */
		if (imatch(c + 1, "git") && is_sep(c[4]))
			return 0;	/* ".git" in any case */
		if (is_link && imatch(c + 1, "gitmodules") && is_sep(c[11]))
			return 0;
	}
	if (flags & PATH_PROTECT_HFS) {
		if (hfs_matches(c, ".git"))
			return 0;
		if (is_link && hfs_matches(c, ".gitmodules"))
			return 0;
	}
	if (flags & PATH_PROTECT_NTFS) {
		/* a backslash starts a component for NTFS */
		for (const char *s = c; !is_sep(*s); s++) {
			if (s != c && s[-1] != '\\')
				continue;
			if (ntfs_is_dotgit(s))
				return 0;
			if (is_link && ntfs_is_dotgitmodules(s))
				return 0;
		}
	}
	return 1;
}

int
path_verify(const char *path, unsigned mode, unsigned flags)
{
	const char *c = path;

	for (;;) {
		const char *slash;

		if (!component_ok(c, mode, flags))
			return 0;
		slash = strchr(c, '/');
		if (!slash)
			return 1;
		c = slash + 1;
	}
}

int
path_in_dir(const char *p, size_t plen, const char *dir, size_t dlen)
{
	if (!dlen)
		return 1;
	return plen > dlen && p[dlen] == '/' && !memcmp(p, dir, dlen);
}

int
path_relative(struct strbuf *rel, size_t *skip, const char *name,
	      size_t len, const char *prefix, size_t plen)
{
	size_t common = 0, i;

	*skip = 0;
	if (!plen)
		return 0;
	for (i = 0; i < plen && i < len && prefix[i] == name[i]; i++)
		if (prefix[i] == '/')
			common = i + 1;
	if (i == len && (i == plen || prefix[i] == '/'))
		common = i + (i < plen);	/* name leads to the prefix */
	if (common == plen) {
		*skip = common < len ? common : len + 1;
		return 0;
	}
	strbuf_reset(rel);
	for (i = common; i < plen; i++)
		if (prefix[i] == '/')
			strbuf_addstr(rel, "../");
	if (common < len)
		strbuf_add(rel, name + common, len - common);
	return 1;
}

int
path_arg_exists(const char *top, const char *prefix, const char *arg)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	int ret;

	if (skip_prefix(arg, ":/", &arg)) {
		if (!*arg)
			return 1;
		prefix = NULL;
	} else if (skip_prefix(arg, ":!", &arg) ||
		   skip_prefix(arg, ":^", &arg)) {
		if (!*arg)
			return 1;
	}
	if (!*arg && (!prefix || !*prefix))
		return 0;	/* lstat("") fails */
	if (*arg == '/')
		strbuf_addstr(&sb, arg);
	else
		strbuf_addf(&sb, "%s/%s%s", top, prefix ? prefix : "", arg);
	ret = !lstat(sb.buf, &st);
	strbuf_release(&sb);
	if (!ret && errno != ENOENT && errno != ENOTDIR)
		return error_set(E_IO, "failed to stat '%s': %s", arg,
				 strerror(errno));
	return ret;
}

int
path_arg_is_pattern(const char *arg)
{
	int escaped = 0;

	for (const char *p = arg; *p; p++) {
		if (escaped)
			escaped = 0;
		else if (*p == '\\')
			escaped = 1;
		else if (*p == '*' || *p == '?' || *p == '[')
			return 1;
	}
	return starts_with(arg, ":(");
}

int
path_is_hfs_dot(const char *name, const char *word)
{
	char needle[32];
	size_t len = strlen(word);

	if (len + 2 > sizeof(needle))
		BUG("path_is_hfs_dot: '%s' is too long", word);
	needle[0] = '.';
	memcpy(needle + 1, word, len + 1);
	return hfs_matches(name, needle);
}

int
path_is_ntfs_dotgit(const char *name)
{
	return ntfs_is_dotgit(name);
}

int
path_is_ntfs_dot(const char *name, const char *word)
{
	static const struct {
		const char *word, *hashed;
	} hashes[] = {
		/* the hashed 8.3 prefixes NTFS gives these names */
		{ "gitmodules", "gi7eba" },
		{ "gitignore", "gi250a" },
		{ "gitattributes", "gi7d29" },
		{ "mailmap", "maba30" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(hashes); i++)
		if (!strcmp(word, hashes[i].word))
			return ntfs_is_dot(name, word, hashes[i].hashed);
	BUG("path_is_ntfs_dot: no NTFS short name known for '%s'", word);
}
