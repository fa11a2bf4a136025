/*
 * fsck: the object checks of git 2.55's fsck, over a buffer.  Every read
 * is bounded by the buffer's end; a commit's or tag's headers are first
 * checked to end (a blank line, or a final newline) and contain no NUL,
 * and the rest is read line by line inside them.
 *
 * Tree entry (git's encoding; the checks decode it as git's fsck does):
 *
 *   <octal mode> SP <name> NUL <HASH_RAWSZ-byte id>
 *
 * An entry decodes when at least HASH_RAWSZ + 3 bytes are left and the
 * byte HASH_RAWSZ + 1 before the buffer's end is a NUL (so every name
 * ends inside the buffer); the mode is octal digits up to a space, kept
 * to 16 bits as git keeps it, and the name is not empty.
 */
#include "fsck.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "error.h"
#include "odb.h"
#include "path.h"
#include "refs.h"
#include "strbuf.h"
#include "tree.h"
#include "util.h"

#define FSCK_MAX_ENTRY_NAME 4096	/* git's max_tree_entry_len */
#define ATTR_FILE_MAX (100 * 1024 * 1024)	/* git's ATTR_MAX_FILE_SIZE */
#define ATTR_LINE_MAX 2048		/* git's ATTR_MAX_LINE_LENGTH */

static const struct {
	const char *name;
	enum fsck_severity severity;
} msg_ids[FSCK_MSG_MAX] = {
	[FSCK_MSG_NUL_IN_HEADER] = { "nulInHeader", FSCK_FATAL },
	[FSCK_MSG_UNTERMINATED_HEADER] = { "unterminatedHeader", FSCK_FATAL },
	[FSCK_MSG_BAD_DATE] = { "badDate", FSCK_ERROR },
	[FSCK_MSG_BAD_DATE_OVERFLOW] = { "badDateOverflow", FSCK_ERROR },
	[FSCK_MSG_BAD_EMAIL] = { "badEmail", FSCK_ERROR },
	[FSCK_MSG_BAD_GPGSIG] = { "badGpgsig", FSCK_ERROR },
	[FSCK_MSG_BAD_HEADER_CONTINUATION] = { "badHeaderContinuation",
					       FSCK_ERROR },
	[FSCK_MSG_BAD_NAME] = { "badName", FSCK_ERROR },
	[FSCK_MSG_BAD_OBJECT_SHA1] = { "badObjectSha1", FSCK_ERROR },
	[FSCK_MSG_BAD_PARENT_SHA1] = { "badParentSha1", FSCK_ERROR },
	[FSCK_MSG_BAD_TIMEZONE] = { "badTimezone", FSCK_ERROR },
	[FSCK_MSG_BAD_TREE] = { "badTree", FSCK_ERROR },
	[FSCK_MSG_BAD_TREE_SHA1] = { "badTreeSha1", FSCK_ERROR },
	[FSCK_MSG_BAD_TYPE] = { "badType", FSCK_ERROR },
	[FSCK_MSG_DUPLICATE_ENTRIES] = { "duplicateEntries", FSCK_ERROR },
	[FSCK_MSG_GITATTRIBUTES_BLOB] = { "gitattributesBlob", FSCK_ERROR },
	[FSCK_MSG_GITATTRIBUTES_LARGE] = { "gitattributesLarge", FSCK_ERROR },
	[FSCK_MSG_GITATTRIBUTES_LINE_LENGTH] = { "gitattributesLineLength",
						 FSCK_ERROR },
	[FSCK_MSG_GITATTRIBUTES_MISSING] = { "gitattributesMissing",
					     FSCK_ERROR },
	[FSCK_MSG_GITMODULES_BLOB] = { "gitmodulesBlob", FSCK_ERROR },
	[FSCK_MSG_GITMODULES_MISSING] = { "gitmodulesMissing", FSCK_ERROR },
	[FSCK_MSG_GITMODULES_NAME] = { "gitmodulesName", FSCK_ERROR },
	[FSCK_MSG_GITMODULES_PATH] = { "gitmodulesPath", FSCK_ERROR },
	[FSCK_MSG_GITMODULES_SYMLINK] = { "gitmodulesSymlink", FSCK_ERROR },
	[FSCK_MSG_GITMODULES_UPDATE] = { "gitmodulesUpdate", FSCK_ERROR },
	[FSCK_MSG_GITMODULES_URL] = { "gitmodulesUrl", FSCK_ERROR },
	[FSCK_MSG_MISSING_AUTHOR] = { "missingAuthor", FSCK_ERROR },
	[FSCK_MSG_MISSING_COMMITTER] = { "missingCommitter", FSCK_ERROR },
	[FSCK_MSG_MISSING_EMAIL] = { "missingEmail", FSCK_ERROR },
	[FSCK_MSG_MISSING_NAME_BEFORE_EMAIL] = { "missingNameBeforeEmail",
						 FSCK_ERROR },
	[FSCK_MSG_MISSING_OBJECT] = { "missingObject", FSCK_ERROR },
	[FSCK_MSG_MISSING_SPACE_BEFORE_DATE] = { "missingSpaceBeforeDate",
						 FSCK_ERROR },
	[FSCK_MSG_MISSING_SPACE_BEFORE_EMAIL] = { "missingSpaceBeforeEmail",
						  FSCK_ERROR },
	[FSCK_MSG_MISSING_TAG] = { "missingTag", FSCK_ERROR },
	[FSCK_MSG_MISSING_TAG_ENTRY] = { "missingTagEntry", FSCK_ERROR },
	[FSCK_MSG_MISSING_TREE] = { "missingTree", FSCK_ERROR },
	[FSCK_MSG_MISSING_TYPE] = { "missingType", FSCK_ERROR },
	[FSCK_MSG_MISSING_TYPE_ENTRY] = { "missingTypeEntry", FSCK_ERROR },
	[FSCK_MSG_MULTIPLE_AUTHORS] = { "multipleAuthors", FSCK_ERROR },
	[FSCK_MSG_TREE_NOT_SORTED] = { "treeNotSorted", FSCK_ERROR },
	[FSCK_MSG_ZERO_PADDED_DATE] = { "zeroPaddedDate", FSCK_ERROR },
	[FSCK_MSG_EMPTY_NAME] = { "emptyName", FSCK_WARN },
	[FSCK_MSG_FULL_PATHNAME] = { "fullPathname", FSCK_WARN },
	[FSCK_MSG_HAS_DOT] = { "hasDot", FSCK_WARN },
	[FSCK_MSG_HAS_DOTDOT] = { "hasDotdot", FSCK_WARN },
	[FSCK_MSG_HAS_DOTGIT] = { "hasDotgit", FSCK_WARN },
	[FSCK_MSG_LARGE_PATHNAME] = { "largePathname", FSCK_WARN },
	[FSCK_MSG_NULL_SHA1] = { "nullSha1", FSCK_WARN },
	[FSCK_MSG_NUL_IN_COMMIT] = { "nulInCommit", FSCK_WARN },
	[FSCK_MSG_ZERO_PADDED_FILEMODE] = { "zeroPaddedFilemode", FSCK_WARN },
	[FSCK_MSG_BAD_FILEMODE] = { "badFilemode", FSCK_INFO },
	[FSCK_MSG_BAD_TAG_NAME] = { "badTagName", FSCK_INFO },
	[FSCK_MSG_GITATTRIBUTES_SYMLINK] = { "gitattributesSymlink",
					     FSCK_INFO },
	[FSCK_MSG_GITIGNORE_SYMLINK] = { "gitignoreSymlink", FSCK_INFO },
	[FSCK_MSG_GITMODULES_PARSE] = { "gitmodulesParse", FSCK_INFO },
	[FSCK_MSG_MAILMAP_SYMLINK] = { "mailmapSymlink", FSCK_INFO },
	[FSCK_MSG_MISSING_TAGGER_ENTRY] = { "missingTaggerEntry", FSCK_INFO },
	[FSCK_MSG_EXTRA_HEADER_ENTRY] = { "extraHeaderEntry", FSCK_IGNORE },
};

void
fsck_options_init(struct fsck_options *o, fsck_report_fn fn, void *data)
{
	memset(o, 0, sizeof(*o));
	o->report = fn;
	o->report_data = data;
}

void
fsck_options_release(struct fsck_options *o)
{
	free(o->gitmodules);
	free(o->gitattributes);
	o->gitmodules = o->gitattributes = NULL;
	o->gitmodules_nr = o->gitmodules_alloc = 0;
	o->gitattributes_nr = o->gitattributes_alloc = 0;
}

const char *
fsck_msg_id_name(enum fsck_msg_id id)
{
	if ((unsigned)id >= FSCK_MSG_MAX)
		return NULL;
	return msg_ids[id].name;
}

/* Hand one problem to the caller; what it returns counts. */
PRINTF_LIKE(5, 6) static int
report(struct fsck_options *o, const struct object_id *oid,
       enum object_type type, enum fsck_msg_id id, const char *fmt, ...)
{
	struct fsck_report r = { id, FSCK_ERROR, oid, type, NULL };
	enum fsck_severity sev = msg_ids[id].severity;
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	int ret;

	if (sev == FSCK_IGNORE)
		return 0;
	if (sev == FSCK_INFO)
		r.severity = FSCK_WARN;
	else if (sev == FSCK_WARN && !o->strict)
		r.severity = FSCK_WARN;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	r.text = sb.buf;
	ret = o->report(&r, o->report_data);
	strbuf_release(&sb);
	return ret;
}

/* A decoder's message, as git prints it before its "badTree". */
static void
report_plain(struct fsck_options *o, const struct object_id *oid,
	     const char *text)
{
	struct fsck_report r = { FSCK_MSG_NONE, FSCK_ERROR, oid, OBJ_TREE,
				 text };

	(void)o->report(&r, o->report_data);
}

static void
oid_list_add(struct object_id **list, size_t *nr, size_t *alloc,
	     const unsigned char *raw)
{
	struct object_id oid;

	memset(&oid, 0, sizeof(oid));
	oid_from_raw(&oid, raw);
	for (size_t i = 0; i < *nr; i++)
		if (oideq(&(*list)[i], &oid))
			return;
	ALLOC_GROW(*list, *nr + 1, *alloc);
	(*list)[(*nr)++] = oid;
}

/* ---- trees ---- */

struct tree_cursor {
	const unsigned char *p, *end;	/* the entry to decode, the end */
	const char *name;		/* the decoded entry's; NUL-ended */
	size_t namelen;
	uint16_t mode;			/* as stored, kept to 16 bits */
	const unsigned char *id;	/* HASH_RAWSZ bytes */
};

/* Decode the entry at c->p: NULL, or the decoder's words. */
static const char *
tree_decode(struct tree_cursor *c)
{
	const unsigned char *p = c->p;
	size_t left = c->end - p;
	unsigned mode = 0;

	if (left < (size_t)HASH_RAWSZ + 3 || c->end[-(HASH_RAWSZ + 1)])
		return "too-short tree object";
	if (*p == ' ')
		return "malformed mode in tree entry";
	/* the NUL above stops this loop inside the buffer */
	for (; *p != ' '; p++) {
		if (*p < '0' || *p > '7')
			return "malformed mode in tree entry";
		mode = (mode << 3) + (*p - '0');
	}
	p++;
	if (!*p)
		return "empty filename in tree entry";
	c->name = (const char *)p;
	c->namelen = strlen(c->name);
	c->mode = (uint16_t)mode;
	c->id = p + c->namelen + 1;
	return NULL;
}

/* A stack of names that a later directory of the same name would dup. */
struct name_stack {
	const char **names;
	size_t nr, alloc;
};

static int
below_slash(unsigned char c)
{
	return c && c < '/';
}

enum { ORDER_OK, ORDER_UNSORTED, ORDER_DUP };

/*
 * Are entries a then b in tree order, and not the same name?  A file
 * "x" and a directory "x" may be apart ("x", "x.y", "x/"): files that a
 * later directory could duplicate wait on the stack.
 */
static int
entries_ordered(unsigned amode, const char *a, unsigned bmode,
		const char *b, struct name_stack *st)
{
	size_t alen = strlen(a), blen = strlen(b);
	size_t len = MIN(alen, blen);
	int cmp = memcmp(a, b, len);
	unsigned char ca, cb;

	if (cmp)
		return cmp < 0 ? ORDER_OK : ORDER_UNSORTED;
	ca = a[len];
	cb = b[len];
	if (!ca && !cb)
		return ORDER_DUP;
	if (!ca && S_ISDIR(amode))
		ca = '/';
	if (!cb && S_ISDIR(bmode))
		cb = '/';
	if (!ca && below_slash(cb)) {
		ALLOC_GROW(st->names, st->nr + 1, st->alloc);
		st->names[st->nr++] = a;
	} else if (cb == '/' && below_slash(ca)) {
		while (st->nr) {
			const char *f = st->names[--st->nr];
			size_t flen = strlen(f);

			if (strncmp(b, f, flen))
				continue;
			if (!b[flen])
				return ORDER_DUP;
			if (below_slash(b[flen])) {
				st->nr++;	/* keep it for the next */
				break;
			}
		}
	}
	return ca < cb ? ORDER_OK : ORDER_UNSORTED;
}

static int
is_dotfile(const char *name, const char *word)
{
	return path_is_hfs_dot(name, word) || path_is_ntfs_dot(name, word);
}

/* A ".gitmodules" entry: a blob to check later, or a symlink refused. */
static int
saw_gitmodules(struct fsck_options *o, const struct object_id *oid,
	       const struct tree_cursor *c)
{
	if (!S_ISLNK(c->mode)) {
		oid_list_add(&o->gitmodules, &o->gitmodules_nr,
			     &o->gitmodules_alloc, c->id);
		return 0;
	}
	return report(o, oid, OBJ_TREE, FSCK_MSG_GITMODULES_SYMLINK,
		      ".gitmodules is a symbolic link");
}

static int
fsck_tree(struct fsck_options *o, const struct object_id *oid,
	  const unsigned char *buf, size_t len)
{
	struct tree_cursor c = { buf, buf + len, NULL, 0, 0, NULL };
	struct name_stack st = { NULL, 0, 0 };
	int null_id = 0, full_path = 0, empty_name = 0, dot = 0, dotdot = 0;
	int dotgit = 0, zero_pad = 0, bad_mode = 0, dup = 0, unsorted = 0;
	int large = 0, ret = 0;
	const char *prev = NULL, *err;
	unsigned prev_mode = 0;

	if (len && (err = tree_decode(&c))) {
		report_plain(o, oid, err);
		return report(o, oid, OBJ_TREE, FSCK_MSG_BAD_TREE,
			      "cannot be parsed as a tree");
	}
	/* an empty tree has no entry decoded (and no name) */
	while (c.name && c.p < c.end) {
		struct object_id id;
		const char *name = c.name, *bs;
		unsigned mode = c.mode;

		memset(&id, 0, sizeof(id));
		oid_from_raw(&id, c.id);
		null_id |= oid_is_null(&id);
		full_path |= !!strchr(name, '/');
		empty_name |= !*name;
		dot |= !strcmp(name, ".");
		dotdot |= !strcmp(name, "..");
		dotgit |= path_is_hfs_dot(name, "git") ||
			path_is_ntfs_dotgit(name);
		zero_pad |= *c.p == '0';
		large |= c.namelen > FSCK_MAX_ENTRY_NAME;

		if (is_dotfile(name, "gitmodules"))
			ret += saw_gitmodules(o, oid, &c);
		if (is_dotfile(name, "gitattributes")) {
			if (!S_ISLNK(mode))
				oid_list_add(&o->gitattributes,
					     &o->gitattributes_nr,
					     &o->gitattributes_alloc, c.id);
			else
				ret += report(o, oid, OBJ_TREE,
					      FSCK_MSG_GITATTRIBUTES_SYMLINK,
					      ".gitattributes is a symlink");
		}
		if (S_ISLNK(mode)) {
			if (is_dotfile(name, "gitignore"))
				ret += report(o, oid, OBJ_TREE,
					      FSCK_MSG_GITIGNORE_SYMLINK,
					      ".gitignore is a symlink");
			if (is_dotfile(name, "mailmap"))
				ret += report(o, oid, OBJ_TREE,
					      FSCK_MSG_MAILMAP_SYMLINK,
					      ".mailmap is a symlink");
		}
		/* git's fsck reads a backslash as NTFS does, everywhere */
		for (bs = strchr(name, '\\'); bs; bs = strchr(bs, '\\')) {
			bs++;
			dotgit |= path_is_ntfs_dotgit(bs);
			if (path_is_ntfs_dot(bs, "gitmodules"))
				ret += saw_gitmodules(o, oid, &c);
		}

		/* the next entry is decoded before this one's mode and order */
		c.p = c.id + HASH_RAWSZ;
		if (c.p < c.end && (err = tree_decode(&c))) {
			report_plain(o, oid, err);
			ret += report(o, oid, OBJ_TREE, FSCK_MSG_BAD_TREE,
				      "cannot be parsed as a tree");
			break;
		}

		switch (mode) {
		case S_IFREG | 0755:
		case S_IFREG | 0644:
		case S_IFLNK:
		case S_IFDIR:
		case S_IFGITLINK:
			break;
		case S_IFREG | 0664:	/* early git wrote these */
			if (!o->strict)
				break;
			/* fallthrough */
		default:
			bad_mode = 1;
		}
		if (prev) {
			switch (entries_ordered(prev_mode, prev, mode, name,
						&st)) {
			case ORDER_UNSORTED:
				unsorted = 1;
				break;
			case ORDER_DUP:
				dup = 1;
				break;
			}
		}
		prev = name;
		prev_mode = mode;
	}
	free(st.names);

	if (null_id)
		ret += report(o, oid, OBJ_TREE, FSCK_MSG_NULL_SHA1,
			      "contains entries pointing to null sha1");
	if (full_path)
		ret += report(o, oid, OBJ_TREE, FSCK_MSG_FULL_PATHNAME,
			      "contains full pathnames");
	if (empty_name)
		ret += report(o, oid, OBJ_TREE, FSCK_MSG_EMPTY_NAME,
			      "contains empty pathname");
	if (dot)
		ret += report(o, oid, OBJ_TREE, FSCK_MSG_HAS_DOT,
			      "contains '.'");
	if (dotdot)
		ret += report(o, oid, OBJ_TREE, FSCK_MSG_HAS_DOTDOT,
			      "contains '..'");
	if (dotgit)
		ret += report(o, oid, OBJ_TREE, FSCK_MSG_HAS_DOTGIT,
			      "contains '.git'");
	if (zero_pad)
		ret += report(o, oid, OBJ_TREE, FSCK_MSG_ZERO_PADDED_FILEMODE,
			      "contains zero-padded file modes");
	if (bad_mode)
		ret += report(o, oid, OBJ_TREE, FSCK_MSG_BAD_FILEMODE,
			      "contains bad file modes");
	if (dup)
		ret += report(o, oid, OBJ_TREE, FSCK_MSG_DUPLICATE_ENTRIES,
			      "contains duplicate file entries");
	if (unsorted)
		ret += report(o, oid, OBJ_TREE, FSCK_MSG_TREE_NOT_SORTED,
			      "not properly sorted");
	if (large)
		ret += report(o, oid, OBJ_TREE, FSCK_MSG_LARGE_PATHNAME,
			      "contains excessively large pathname");
	return ret;
}

/* ---- commits and tags ---- */

/*
 * The headers end at a blank line, or the buffer ends with a newline,
 * and no NUL comes first.  0, or what report returned.
 */
static int
verify_headers(struct fsck_options *o, const struct object_id *oid,
	       enum object_type type, const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (!buf[i])
			return report(o, oid, type, FSCK_MSG_NUL_IN_HEADER,
				      "unterminated header: NUL at offset %ld",
				      (long)i);
		if (buf[i] == '\n' && i + 1 < len && buf[i + 1] == '\n')
			return 0;
	}
	if (len && buf[len - 1] == '\n')
		return 0;
	return report(o, oid, type, FSCK_MSG_UNTERMINATED_HEADER,
		      "unterminated header");
}

/* Does the line at *p start with key?  Then skip it. */
static int
skip_key(const char **p, const char *end, const char *key)
{
	size_t klen = strlen(key);

	if ((size_t)(end - *p) < klen || memcmp(*p, key, klen))
		return 0;
	*p += klen;
	return 1;
}

/* An id then a newline at *p: 1 and *p past it, else 0. */
static int
id_line(const char **p, const char *end)
{
	struct object_id oid;

	if ((size_t)(end - *p) < (size_t)HASH_HEXSZ + 1 ||
	    hex_to_oid(&oid, *p) || (*p)[HASH_HEXSZ] != '\n')
		return 0;
	*p += HASH_HEXSZ + 1;
	return 1;
}

/* Past the end of the line at *p (or to end). */
static const char *
next_line(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', end - p);

	return nl ? nl + 1 : end;
}

/* Seconds that git's dates (and the system's time_t) cannot hold? */
static int
date_too_big(const char *digits, size_t n)
{
	uintmax_t t = 0;

	if (n > 23)
		return 1;	/* git reads at most 23 digits */
	for (size_t i = 0; i < n; i++) {
		unsigned d = digits[i] - '0';

		if (t > (UINTMAX_MAX - d) / 10)
			return 1;
		t = t * 10 + d;
	}
	return t > (uintmax_t)INT64_MAX;
}

/*
 * "<name> <<email>> <seconds> <+-hhmm>" ending the line at *p, which is
 * inside the headers (so it has a newline); *p moves past the line.
 */
static int
fsck_ident(struct fsck_options *o, const struct object_id *oid,
	   enum object_type type, const char **line, const char *end)
{
	const char *p = *line, *nl = memchr(p, '\n', end - p), *d;

	if (!nl)
		nl = end;	/* cannot happen after verify_headers() */
	*line = nl < end ? nl + 1 : end;
	if (p < nl && *p == '<')
		return report(o, oid, type, FSCK_MSG_MISSING_NAME_BEFORE_EMAIL,
			      "invalid author/committer line - missing space "
			      "before email");
	for (;; p++) {
		if (p >= nl)
			return report(o, oid, type, FSCK_MSG_MISSING_EMAIL,
				      "invalid author/committer line - missing "
				      "email");
		if (*p == '>')
			return report(o, oid, type, FSCK_MSG_BAD_NAME,
				      "invalid author/committer line - bad "
				      "name");
		if (*p == '<')
			break;
	}
	if (p[-1] != ' ')	/* p is past the line's first byte */
		return report(o, oid, type, FSCK_MSG_MISSING_SPACE_BEFORE_EMAIL,
			      "invalid author/committer line - missing space "
			      "before email");
	for (p++;; p++) {
		if (p >= nl || *p == '<')
			return report(o, oid, type, FSCK_MSG_BAD_EMAIL,
				      "invalid author/committer line - bad "
				      "email");
		if (*p == '>')
			break;
	}
	p++;
	if (p >= nl || *p != ' ')
		return report(o, oid, type, FSCK_MSG_MISSING_SPACE_BEFORE_DATE,
			      "invalid author/committer line - missing space "
			      "before date");
	p++;
	while (p < nl && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= nl || !isdigit((unsigned char)*p))
		return report(o, oid, type, FSCK_MSG_BAD_DATE,
			      "invalid author/committer line - bad date");
	if (*p == '0' && (p + 1 >= nl || p[1] != ' '))
		return report(o, oid, type, FSCK_MSG_ZERO_PADDED_DATE,
			      "invalid author/committer line - zero-padded "
			      "date");
	for (d = p; p < nl && isdigit((unsigned char)*p); p++)
		;
	if (date_too_big(d, p - d))
		return report(o, oid, type, FSCK_MSG_BAD_DATE_OVERFLOW,
			      "invalid author/committer line - date causes "
			      "integer overflow");
	if (p >= nl || *p != ' ')
		return report(o, oid, type, FSCK_MSG_BAD_DATE,
			      "invalid author/committer line - bad date");
	p++;
	if (nl - p != 5 || (*p != '+' && *p != '-') ||
	    !isdigit((unsigned char)p[1]) || !isdigit((unsigned char)p[2]) ||
	    !isdigit((unsigned char)p[3]) || !isdigit((unsigned char)p[4]) ||
	    nl == end)
		return report(o, oid, type, FSCK_MSG_BAD_TIMEZONE,
			      "invalid author/committer line - bad time zone");
	return 0;
}

static int
fsck_commit(struct fsck_options *o, const struct object_id *oid,
	    const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	unsigned authors = 0;
	int err = 0;

	/* nothing past unterminated headers can be read safely */
	if (verify_headers(o, oid, OBJ_COMMIT, buf, len))
		return -1;
	if (!skip_key(&p, end, "tree "))
		return report(o, oid, OBJ_COMMIT, FSCK_MSG_MISSING_TREE,
			      "invalid format - expected 'tree' line");
	if (!id_line(&p, end)) {
		err = report(o, oid, OBJ_COMMIT, FSCK_MSG_BAD_TREE_SHA1,
			     "invalid 'tree' line format - bad sha1");
		if (err)
			return err;
		p = next_line(p, end);
	}
	while (skip_key(&p, end, "parent ")) {
		if (id_line(&p, end))
			continue;
		err = report(o, oid, OBJ_COMMIT, FSCK_MSG_BAD_PARENT_SHA1,
			     "invalid 'parent' line format - bad sha1");
		if (err)
			return err;
		p = next_line(p, end);
	}
	while (skip_key(&p, end, "author ")) {
		authors++;
		err = fsck_ident(o, oid, OBJ_COMMIT, &p, end);
		if (err)
			return err;
	}
	if (authors < 1)
		err = report(o, oid, OBJ_COMMIT, FSCK_MSG_MISSING_AUTHOR,
			     "invalid format - expected 'author' line");
	else if (authors > 1)
		err = report(o, oid, OBJ_COMMIT, FSCK_MSG_MULTIPLE_AUTHORS,
			     "invalid format - multiple 'author' lines");
	if (err)
		return err;
	if (!skip_key(&p, end, "committer "))
		return report(o, oid, OBJ_COMMIT, FSCK_MSG_MISSING_COMMITTER,
			      "invalid format - expected 'committer' line");
	err = fsck_ident(o, oid, OBJ_COMMIT, &p, end);
	if (err)
		return err;
	if (memchr(buf, '\0', len))
		return report(o, oid, OBJ_COMMIT, FSCK_MSG_NUL_IN_COMMIT,
			      "NUL byte in the commit object body");
	return 0;
}

static int
fsck_tag(struct fsck_options *o, const struct object_id *oid,
	 const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *eol;
	struct strbuf ref = STRBUF_INIT;
	int ret;

	ret = verify_headers(o, oid, OBJ_TAG, buf, len);
	if (ret)
		goto out;
	if (!skip_key(&p, end, "object ")) {
		ret = report(o, oid, OBJ_TAG, FSCK_MSG_MISSING_OBJECT,
			     "invalid format - expected 'object' line");
		goto out;
	}
	if (!id_line(&p, end)) {
		ret = report(o, oid, OBJ_TAG, FSCK_MSG_BAD_OBJECT_SHA1,
			     "invalid 'object' line format - bad sha1");
		if (ret)
			goto out;
		p = next_line(p, end);
	}
	if (!skip_key(&p, end, "type ")) {
		ret = report(o, oid, OBJ_TAG, FSCK_MSG_MISSING_TYPE_ENTRY,
			     "invalid format - expected 'type' line");
		goto out;
	}
	eol = memchr(p, '\n', end - p);
	if (!eol) {
		ret = report(o, oid, OBJ_TAG, FSCK_MSG_MISSING_TYPE,
			     "invalid format - unexpected end after 'type' "
			     "line");
		goto out;
	}
	if (type_from_name(p, eol - p) <= OBJ_NONE)
		ret = report(o, oid, OBJ_TAG, FSCK_MSG_BAD_TYPE,
			     "invalid 'type' value");
	if (ret)
		goto out;
	p = eol + 1;
	if (!skip_key(&p, end, "tag ")) {
		ret = report(o, oid, OBJ_TAG, FSCK_MSG_MISSING_TAG_ENTRY,
			     "invalid format - expected 'tag' line");
		goto out;
	}
	eol = memchr(p, '\n', end - p);
	if (!eol) {
		/* git's words: it says 'type' here too */
		ret = report(o, oid, OBJ_TAG, FSCK_MSG_MISSING_TAG,
			     "invalid format - unexpected end after 'type' "
			     "line");
		goto out;
	}
	strbuf_addstr(&ref, "refs/tags/");
	strbuf_add(&ref, p, eol - p);
	if (memchr(p, '\0', eol - p) || !refname_is_valid(ref.buf, 0)) {
		ret = report(o, oid, OBJ_TAG, FSCK_MSG_BAD_TAG_NAME,
			     "invalid 'tag' name: %.*s", (int)(eol - p), p);
		if (ret)
			goto out;
	}
	p = eol + 1;
	if (!skip_key(&p, end, "tagger ")) {
		/* early tags have no tagger */
		ret = report(o, oid, OBJ_TAG, FSCK_MSG_MISSING_TAGGER_ENTRY,
			     "invalid format - expected 'tagger' line");
		if (ret)
			goto out;
	} else {
		ret = fsck_ident(o, oid, OBJ_TAG, &p, end);
	}
	if (skip_key(&p, end, "gpgsig ") || skip_key(&p, end, "gpgsig-sha256 ")) {
		eol = memchr(p, '\n', end - p);
		if (!eol) {
			ret = report(o, oid, OBJ_TAG, FSCK_MSG_BAD_GPGSIG,
				     "invalid format - unexpected end after "
				     "'gpgsig' or 'gpgsig-sha256' line");
			goto out;
		}
		p = eol + 1;
		while (p < end && *p == ' ') {
			eol = memchr(p, '\n', end - p);
			if (!eol) {
				ret = report(o, oid, OBJ_TAG,
					     FSCK_MSG_BAD_HEADER_CONTINUATION,
					     "invalid format - unexpected end "
					     "in 'gpgsig' or 'gpgsig-sha256' "
					     "continuation line");
				goto out;
			}
			p = eol + 1;
		}
	}
	/*
	 * As in git, this result replaces a tagger's: an ignored extra
	 * header lets a bad tagger line pass (after it was reported).
	 */
	if (p < end && *p != '\n')
		ret = report(o, oid, OBJ_TAG, FSCK_MSG_EXTRA_HEADER_ENTRY,
			     "invalid format - extra header(s) after "
			     "'tagger'");
out:
	strbuf_release(&ref);
	return ret;
}

int
fsck_buffer(struct fsck_options *o, const struct object_id *oid,
	    enum object_type type, const void *buf, size_t len)
{
	switch (type) {
	case OBJ_BLOB:
		return 0;
	case OBJ_TREE:
		return fsck_tree(o, oid, buf, len);
	case OBJ_COMMIT:
		return fsck_commit(o, oid, buf, len);
	case OBJ_TAG:
		return fsck_tag(o, oid, buf, len);
	default:
		BUG("fsck_buffer: not an object type: %d", (int)type);
	}
}

/* ---- deferred blob checks ---- */

static int
attributes_ok(struct fsck_options *o, const struct object_id *oid,
	      const struct odb_object *obj)
{
	const char *p = (const char *)obj->data, *end;

	if (obj->size > ATTR_FILE_MAX)
		return report(o, oid, OBJ_BLOB, FSCK_MSG_GITATTRIBUTES_LARGE,
			      ".gitattributes too large to parse");
	/* git reads up to the first NUL */
	end = p + strnlen(p, obj->size);
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *eol = nl ? nl : end;

		if (eol - p >= ATTR_LINE_MAX)
			return report(o, oid, OBJ_BLOB,
				      FSCK_MSG_GITATTRIBUTES_LINE_LENGTH,
				      ".gitattributes has too long lines to "
				      "parse");
		p = nl ? nl + 1 : end;
	}
	return 0;
}

/* A submodule name git refuses: empty, or a ".." component. */
static int
submodule_name_bad(const char *name)
{
	const char *p = name;

	if (!*name)
		return 1;
	for (;;) {
		/* p starts a component ('/' and '\\' both separate) */
		if (p[0] == '.' && p[1] == '.' &&
		    (!p[2] || p[2] == '/' || p[2] == '\\'))
			return 1;
		p += strcspn(p, "/\\");
		if (!*p)
			return 0;
		p++;
	}
}

/* "./", "../", with either slash, as git's relative submodule urls */
static int
dot_slash(const char *u, size_t dots)
{
	for (size_t i = 0; i < dots; i++)
		if (u[i] != '.')
			return 0;
	return u[dots] == '/' || u[dots] == '\\';
}

/*
 * Does url, percent-decoded as git decodes it, hold a newline?  A raw
 * one anywhere; an escaped one only after the first ':' (not at the
 * very start), since git leaves what precedes it, taken for a scheme,
 * undecoded.  A '%' never sits inside a valid escape, so looking for
 * "%0a" a byte at a time finds what decoding left to right would.
 */
static int
decodes_to_newline(const char *url)
{
	const char *p = strchr(url, ':');

	if (strchr(url, '\n'))
		return 1;
	if (!p || p == url)
		p = url;
	for (; *p; p++)
		if (p[0] == '%' && p[1] == '0' && (p[2] == 'a' || p[2] == 'A'))
			return 1;
	return 0;
}

#define URL_ALNUM "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" \
	"0123456789"

/*
 * Append s[0..len) to sb with its percent escapes in git's normal form:
 * a byte that needs escaping (control, non-ASCII, space and
 * <>"%{}|\^`) is written "%XX", an escaped delimiter stays escaped, any
 * other escape is decoded.  -1 for a '%' without two hex digits.
 */
static int
url_escapes_normal(struct strbuf *sb, const char *s, size_t len)
{
	while (len) {
		unsigned char c = (unsigned char)*s;
		int escaped = 0;

		if (c == '%') {
			int hi, lo;

			if (len < 3 || (hi = hexval((unsigned char)s[1])) < 0 ||
			    (lo = hexval((unsigned char)s[2])) < 0)
				return -1;
			c = (unsigned char)(hi << 4 | lo);
			s += 3;
			len -= 3;
			escaped = 1;
		} else {
			s++;
			len--;
		}
		if (c < 0x20 || c >= 0x7f || strchr(" <>\"%{}|\\^`", c) ||
		    (escaped && strchr(":/?#[]@!$&'()*+,;=", c)))
			strbuf_addf(sb, "%%%02X", c);
		else
			strbuf_addch(sb, (char)c);
	}
	return 0;
}

/*
 * A port as git's url normalization takes it (the text between the
 * host's ':' and end): empty, or digits naming 1..65535 (leading zeros
 * aside; "0" itself is no port).
 */
static int
url_port_ok(const char *p, const char *end)
{
	unsigned long n = 0;

	while (p < end && *p == '0')
		p++;
	if (p == end)
		return end[-1] != '0';	/* ":" alone is fine, ":0" not */
	if (end - p > 5)
		return 0;
	for (; p < end; p++) {
		if (!isdigit((unsigned char)*p))
			return 0;
		n = n * 10 + (unsigned long)(*p - '0');
	}
	return n <= 65535;
}

/*
 * The path of a url (from p: "/..." or "?..." or "#..." or nothing)
 * with its "." and ".." segments resolved onto sb, which ends with
 * the path's leading '/' at path_off, as git's url normalization
 * resolves them; then its query and fragment.  -1 when a ".." climbs
 * above the root or an escape is bad.
 */
static int
url_path_normal(struct strbuf *sb, size_t path_off, const char *p)
{
	if (*p == '/')
		p++;
	for (;;) {
		size_t seg = sb->len, cut;
		const char *end = p + strcspn(p, "/?#");
		int no_slash = 0;

		if (url_escapes_normal(sb, p, (size_t)(end - p)))
			return -1;
		if (!strcmp(sb->buf + seg, ".")) {
			/* drop it with its slash, bar the path's first */
			no_slash = seg == path_off + 1;
			strbuf_setlen(sb, no_slash ? seg : seg - 1);
		} else if (!strcmp(sb->buf + seg, "..")) {
			/* drop it and the segment before it */
			cut = seg - 1;
			if (cut == path_off)
				return -1;
			while (sb->buf[--cut] != '/')
				;
			no_slash = cut == path_off;
			strbuf_setlen(sb, no_slash ? cut + 1 : cut);
		}
		p = end;
		if (*p != '/')
			break;
		p++;
		if (!no_slash)
			strbuf_addch(sb, '/');
	}
	return url_escapes_normal(sb, p, strlen(p));
}

/*
 * An http(s):// or ftp(s):// url (or "<transport>::<url>") that git
 * refuses: one its url normalization rejects (scheme, host characters,
 * port, a bad escape, ".." above the root), or whose normal form
 * decodes to a newline.  Host and port never hold a '%', so only the
 * user part and the path onwards are kept to look for "%0A" in.
 */
static int
submodule_curl_url_bad(const char *url)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p, *end, *at, *colon;
	size_t n = strspn(url, URL_ALNUM "+.-");
	int bad = 1;

	if (!n || !isalpha((unsigned char)url[0]) ||
	    strncmp(url + n, "://", 3))
		return 1;
	p = url + n + 3;
	end = p + strcspn(p, "/?#");
	at = strchr(p, '@');
	if (at && at < end) {
		if (url_escapes_normal(&sb, p, (size_t)(at - p)))
			goto out;
		p = at + 1;
	}
	if (!*p || strchr(":/?#", *p))
		goto out;	/* no host */
	/* a port follows the last ':' not inside an IPv6 "[...]" */
	colon = end - 1;
	while (colon > p && *colon != ':' && *colon != ']')
		colon--;
	if (*colon != ':')
		colon = end;
	if (strspn(p, URL_ALNUM ".-_[:]") < (size_t)(colon - p))
		goto out;
	if (colon < end && !url_port_ok(colon + 1, end))
		goto out;
	n = sb.len;
	strbuf_addch(&sb, '/');
	if (url_path_normal(&sb, n, end))
		goto out;
	bad = strstr(sb.buf, "%0A") != NULL;
out:
	strbuf_release(&sb);
	return bad;
}

/* The url curl would be given for url, or NULL when git gives it none */
static const char *
submodule_curl_url(const char *url)
{
	static const char *const schemes[] = { "http", "https", "ftp", "ftps" };

	for (size_t i = 0; i < ARRAY_SIZE(schemes); i++) {
		size_t n = strlen(schemes[i]);

		if (strncmp(url, schemes[i], n))
			continue;
		if (!strncmp(url + n, "::", 2))
			return url + n + 2;
		if (!strncmp(url + n, "://", 3))
			return url;
	}
	return NULL;
}

/*
 * A submodule url git refuses: an option ("-..."); a relative or
 * git:// url that decodes to a newline or climbs out to ":" or "/";
 * an http(s)/ftp(s) one (or its "<scheme>::" form) as above.
 */
static int
submodule_url_bad(const char *url)
{
	const char *p = url;
	int ups = 0;

	if (url[0] == '-')
		return 1;
	if (!dot_slash(url, 1) && !dot_slash(url, 2) &&
	    strncmp(url, "git://", 6)) {
		p = submodule_curl_url(url);
		return p && submodule_curl_url_bad(p);
	}
	if (decodes_to_newline(url))
		return 1;
	for (;;) {
		if (dot_slash(p, 2)) {
			ups++;
			p += 3;
		} else if (dot_slash(p, 1)) {
			p += 2;
		} else {
			break;
		}
	}
	return ups > 0 && (*p == ':' || *p == '/');
}

struct gitmodules_scan {
	struct fsck_options *o;
	const struct object_id *oid;
	int ret;
};

/* Each "submodule.<name>.<key>" variable, as git's fsck checks it. */
static int
gitmodules_var(const struct config_event *ev, void *data)
{
	struct gitmodules_scan *gs = data;
	const char *sub, *dot;
	char *name;

	if (ev->type != CONFIG_EVENT_ENTRY ||
	    strncmp(ev->key, "submodule.", 10))
		return 0;
	sub = ev->key + 10;
	dot = strrchr(sub, '.');
	if (!dot)
		return 0;	/* no subsection */
	name = xmemdupz(sub, dot - sub);
	if (submodule_name_bad(name))
		gs->ret |= report(gs->o, gs->oid, OBJ_BLOB,
				  FSCK_MSG_GITMODULES_NAME,
				  "disallowed submodule name: %s", name);
	free(name);
	if (!ev->value)
		return 0;
	if (!strcmp(dot + 1, "url") && submodule_url_bad(ev->value))
		gs->ret |= report(gs->o, gs->oid, OBJ_BLOB,
				  FSCK_MSG_GITMODULES_URL,
				  "disallowed submodule url: %s", ev->value);
	if (!strcmp(dot + 1, "path") && ev->value[0] == '-')
		gs->ret |= report(gs->o, gs->oid, OBJ_BLOB,
				  FSCK_MSG_GITMODULES_PATH,
				  "disallowed submodule path: %s", ev->value);
	if (!strcmp(dot + 1, "update") && ev->value[0] == '!')
		gs->ret |= report(gs->o, gs->oid, OBJ_BLOB,
				  FSCK_MSG_GITMODULES_UPDATE,
				  "disallowed submodule update setting: %s",
				  ev->value);
	return 0;
}

static int
gitmodules_ok(struct fsck_options *o, const struct object_id *oid,
	      const struct odb_object *obj)
{
	struct gitmodules_scan gs = { o, oid, 0 };

	if (config_scan_buffer((const char *)obj->data, obj->size,
			       ".gitmodules", gitmodules_var, &gs) < 0) {
		error_clear();
		gs.ret |= report(o, oid, OBJ_BLOB, FSCK_MSG_GITMODULES_PARSE,
				 "could not parse gitmodules blob");
	}
	return gs.ret;
}

static int
check_blobs(struct fsck_options *o, struct odb *odb, struct object_id *list,
	    size_t nr, int attributes)
{
	enum fsck_msg_id missing = attributes ? FSCK_MSG_GITATTRIBUTES_MISSING :
		FSCK_MSG_GITMODULES_MISSING;
	enum fsck_msg_id not_blob = attributes ? FSCK_MSG_GITATTRIBUTES_BLOB :
		FSCK_MSG_GITMODULES_BLOB;
	const char *what = attributes ? ".gitattributes" : ".gitmodules";
	int ret = 0;

	for (size_t i = 0; i < nr; i++) {
		struct odb_object obj = ODB_OBJECT_INIT;
		const struct object_id *oid = &list[i];

		if (!odb || odb_read(&obj, odb, oid, 0) < 0) {
			error_clear();
			ret |= report(o, oid, OBJ_BLOB, missing,
				      "unable to read %s blob", what);
			continue;
		}
		if (obj.type != OBJ_BLOB)
			ret |= report(o, oid, obj.type, not_blob,
				      "non-blob found at %s", what);
		else if (attributes)
			ret |= attributes_ok(o, oid, &obj);
		else
			ret |= gitmodules_ok(o, oid, &obj);
		odb_object_release(&obj);
	}
	return ret;
}

int
fsck_finish(struct fsck_options *o, struct odb *odb)
{
	int ret = 0;

	ret |= check_blobs(o, odb, o->gitmodules, o->gitmodules_nr, 0);
	ret |= check_blobs(o, odb, o->gitattributes, o->gitattributes_nr, 1);
	o->gitmodules_nr = o->gitattributes_nr = 0;
	return ret;
}
