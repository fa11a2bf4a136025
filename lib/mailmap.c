/*
 * mailmap: parse git's mailmap lines into a map keyed by the commit
 * email, and rewrite idents through it.
 *
 * The map: lower-cased commit email -> entry { the replacement for any
 * name at that email, and a map lower-cased commit name -> replacement
 * for that name alone }.  A replacement holds a name, an email, or
 * both; NULL keeps what the ident had.  Lookups fold ASCII case only,
 * as git's strcasecmp in the C locale does.
 *
 * One line, as git splits it: the first "<...>" (non-empty) gives the
 * first email, the text before it (trimmed of spaces, tabs, CR and LF)
 * the first name; if anything follows, the same again (an empty email
 * allowed) gives the second name and email.  With one email it is the
 * commit email; with two, the second is.
 */
#include "mailmap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "error.h"
#include "object-name.h"
#include "odb.h"
#include "repo.h"

struct mailmap_repl {
	char *key;		/* owned: the lower-cased commit name, or
				 * NULL for an entry's own replacement */
	char *name;		/* owned; NULL: keep the ident's */
	char *email;		/* owned; NULL: keep the ident's */
};

struct mailmap_entry {
	char *key;		/* owned: the lower-cased commit email */
	struct mailmap_repl any;	/* for any name at this email */
	struct strmap names;	/* lower-cased commit name ->
				 * struct mailmap_repl * (owned) */
};

/* git's isspace(): space, tab, LF, CR */
static int
mm_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static char *
fold(const char *s, size_t len)
{
	char *out = xmalloc(len + 1);

	for (size_t i = 0; i < len; i++)
		out[i] = (s[i] >= 'A' && s[i] <= 'Z') ? s[i] + 32 : s[i];
	out[len] = '\0';
	return out;
}

static void
repl_release(struct mailmap_repl *r)
{
	free(r->key);
	free(r->name);
	free(r->email);
}

static void
set_str(char **slot, const char *s)
{
	free(*slot);
	*slot = s ? xstrdup(s) : NULL;
}

void
mailmap_release(struct mailmap *mm)
{
	for (size_t i = 0; i < mm->emails.cap; i++) {
		struct mailmap_entry *e = mm->emails.slots[i].value;

		if (!mm->emails.slots[i].key)
			continue;
		for (size_t j = 0; j < e->names.cap; j++) {
			struct mailmap_repl *r = e->names.slots[j].value;

			if (!e->names.slots[j].key)
				continue;
			repl_release(r);
			free(r);
		}
		strmap_release(&e->names);
		repl_release(&e->any);
		free(e->key);
		free(e);
	}
	strmap_release(&mm->emails);
}

static void
add_mapping(struct mailmap *mm, const char *new_name, const char *new_email,
	    const char *old_name, const char *old_email)
{
	struct mailmap_entry *e;
	char *key;

	if (!old_email) {
		old_email = new_email;
		new_email = NULL;
	}
	key = fold(old_email, strlen(old_email));
	e = strmap_get(&mm->emails, key, strlen(key));
	if (!e) {
		e = xcalloc(1, sizeof(*e));
		e->key = key;
		strmap_put(&mm->emails, e->key, strlen(e->key), e);
	} else {
		free(key);
	}
	if (!old_name) {
		/* the name and email for any name, each only if given */
		if (new_name)
			set_str(&e->any.name, new_name);
		if (new_email)
			set_str(&e->any.email, new_email);
	} else {
		struct mailmap_repl *r;

		key = fold(old_name, strlen(old_name));
		r = strmap_get(&e->names, key, strlen(key));
		if (!r) {
			r = xcalloc(1, sizeof(*r));
			r->key = key;
			strmap_put(&e->names, r->key, strlen(r->key), r);
		} else {
			free(key);
		}
		/* a later line for the same name replaces both */
		set_str(&r->name, new_name);
		set_str(&r->email, new_email);
	}
}

/*
 * Split "<name> <email>..." at the start of s (modified in place): the
 * name (NULL if none) and email, or both NULL when s has no "<...>" (or
 * an empty one, unless allow_empty).  Returns what follows the '>', or
 * NULL at the end of the string.
 */
static char *
split_person(char *s, char **name, char **email, int allow_empty)
{
	char *lt, *gt, *start, *end;

	*name = *email = NULL;
	lt = strchr(s, '<');
	if (!lt)
		return NULL;
	gt = strchr(lt + 1, '>');
	if (!gt || (gt == lt + 1 && !allow_empty))
		return NULL;
	start = s;
	while (start < lt && mm_space(*start))
		start++;
	end = lt;
	while (end > start && mm_space(end[-1]))
		end--;
	*name = end > start ? start : NULL;
	*end = '\0';
	*email = lt + 1;
	*gt = '\0';
	return gt[1] ? gt + 1 : NULL;
}

/* One line, a NUL-terminated copy the parse may cut. */
static void
add_line(struct mailmap *mm, char *line)
{
	char *name1, *email1, *name2 = NULL, *email2 = NULL, *rest;

	if (line[0] == '#')
		return;
	rest = split_person(line, &name1, &email1, 0);
	if (rest)
		split_person(rest, &name2, &email2, 1);
	if (email1)
		add_mapping(mm, name1, email1, name2, email2);
}

void
mailmap_add_buffer(struct mailmap *mm, const char *buf, size_t len,
		   size_t max_line)
{
	struct strbuf line = STRBUF_INIT;
	const char *end = buf + len, *nul = memchr(buf, '\0', len);

	if (nul && !max_line)
		end = nul;	/* git reads a blob as one C string */
	while (buf < end) {
		const char *nl = memchr(buf, '\n', end - buf);
		size_t n = nl ? (size_t)(nl - buf) + 1 : (size_t)(end - buf);

		if (max_line && n > max_line - 1)
			n = max_line - 1;
		strbuf_reset(&line);
		strbuf_add(&line, buf, n);
		/* a NUL inside a line ends it, as the C string it is */
		add_line(mm, line.buf);
		buf += n;
	}
	strbuf_release(&line);
}

/*
 * A mailmap file: path as opened, shown as git names it.  Missing is
 * nothing; unopenable is reported; a read error ends it, silently.
 */
static void
read_file(struct mailmap *mm, const char *path, const char *shown,
	  int nofollow)
{
	struct strbuf buf = STRBUF_INIT;
	int fd = open(path, O_RDONLY | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0));

	if (fd < 0) {
		if (errno != ENOENT)
			diag_emit(DIAG_ERROR, "unable to open mailmap at %s: %s",
				  shown, strerror(errno));
		return;
	}
	/* what was read before an error (e.g. a directory: none) counts */
	(void)strbuf_read_fd(&buf, fd, 0);
	close(fd);
	mailmap_add_buffer(mm, buf.buf, buf.len, 1024);
	strbuf_release(&buf);
}

static void
read_blob(struct mailmap *mm, struct repo *repo, const char *name)
{
	struct odb_object obj = ODB_OBJECT_INIT;
	struct object_id oid;
	struct odb *odb;

	if (get_oid(&oid, repo, name) < 0 || repo_odb(&odb, repo) < 0) {
		error_clear();	/* git skips a name that does not resolve */
		return;
	}
	if (odb_read(&obj, odb, &oid, 0) < 0) {
		error_clear();
		diag_emit(DIAG_ERROR, "unable to read mailmap object at %s",
			  name);
		return;
	}
	if (obj.type != OBJ_BLOB)
		diag_emit(DIAG_ERROR, "mailmap is not a blob: %s", name);
	else
		mailmap_add_buffer(mm, (const char *)obj.data, obj.size, 0);
	odb_object_release(&obj);
}

void
mailmap_read(struct mailmap *mm, struct repo *repo)
{
	struct strbuf path = STRBUF_INIT;
	const char *file = NULL, *blob = NULL, *home = getenv("HOME");

	if (!config_get(&repo->config, "mailmap.file", &file))
		file = NULL;
	if (!config_get(&repo->config, "mailmap.blob", &blob))
		blob = NULL;
	if (!blob && repo->bare)
		blob = "HEAD:.mailmap";
	if (!repo->bare) {
		/* git reads ".mailmap" at the top of the work tree */
		if (repo->worktree)
			strbuf_addf(&path, "%s/.mailmap", repo->worktree);
		else
			strbuf_addstr(&path, ".mailmap");
		read_file(mm, path.buf, ".mailmap", 1);
	}
	if (blob)
		read_blob(mm, repo, blob);
	if (file) {
		strbuf_reset(&path);
		if (file[0] == '~' && file[1] == '/' && home)
			strbuf_addf(&path, "%s%s", home, file + 1);
		else if (file[0] != '/' && repo->worktree)
			/* relative to where git works: the work tree's top */
			strbuf_addf(&path, "%s/%s", repo->worktree, file);
		else
			strbuf_addstr(&path, file);
		read_file(mm, path.buf, path.buf, 0);
	}
	strbuf_release(&path);
}

int
mailmap_map(const struct mailmap *mm, const char **email, size_t *emaillen,
	    const char **name, size_t *namelen)
{
	const struct mailmap_repl *r;
	struct mailmap_entry *e;
	char *key;

	if (!mm->emails.nr)
		return 0;
	key = fold(*email, *emaillen);
	e = strmap_get(&mm->emails, key, *emaillen);
	free(key);
	if (!e)
		return 0;
	r = &e->any;
	if (e->names.nr) {
		const struct mailmap_repl *n;

		key = fold(*name, *namelen);
		n = strmap_get(&e->names, key, *namelen);
		free(key);
		if (n)
			r = n;
	}
	if (!r->name && !r->email)
		return 0;
	if (r->email) {
		*email = r->email;
		*emaillen = strlen(r->email);
	}
	if (r->name) {
		*name = r->name;
		*namelen = strlen(r->name);
	}
	return 1;
}

/*
 * One ident, person[0..len) (no LF or NUL in it), onto out: mapped if
 * the map knows it, as it is otherwise.
 */
static int
map_ident(struct strbuf *out, const struct mailmap *mm, const char *person,
	  size_t len)
{
	const char *lt = memchr(person, '<', len), *gt, *name, *email;
	const char *name_end;
	size_t namelen, emaillen;

	if (!lt)
		goto as_is;
	gt = memchr(lt + 1, '>', len - (lt + 1 - person));
	if (!gt)
		goto as_is;
	name_end = lt;
	while (name_end > person && mm_space(name_end[-1]))
		name_end--;
	name = person;
	namelen = name_end - person;
	email = lt + 1;
	emaillen = gt - email;
	if (!mailmap_map(mm, &email, &emaillen, &name, &namelen))
		goto as_is;
	strbuf_add(out, name, namelen);
	strbuf_addstr(out, " <");
	strbuf_add(out, email, emaillen);
	strbuf_addch(out, '>');
	strbuf_add(out, gt + 1, len - (gt + 1 - person));
	return 1;
as_is:
	strbuf_add(out, person, len);
	return 0;
}

int
mailmap_apply_headers(struct strbuf *buf, const struct mailmap *mm)
{
	static const char *const heads[] = {
		"author ", "committer ", "tagger ",
	};
	struct strbuf out = STRBUF_INIT;
	const char *p = buf->buf;
	int changed = 0;

	if (!mm->emails.nr)
		return 0;
	/* the header ends at an empty line, or at a NUL byte, as in git */
	while (*p && *p != '\n') {
		const char *eol = p + strcspn(p, "\n");
		const char *person = NULL;

		for (size_t i = 0; i < ARRAY_SIZE(heads) && !person; i++)
			if (!strncmp(p, heads[i], strlen(heads[i])))
				person = p + strlen(heads[i]);
		if (person) {
			strbuf_add(&out, p, person - p);
			changed |= map_ident(&out, mm, person, eol - person);
		} else {
			strbuf_add(&out, p, eol - p);
		}
		p = *eol ? eol + 1 : eol;
		if (*eol)
			strbuf_addch(&out, '\n');
	}
	if (changed) {
		strbuf_add(&out, p, buf->buf + buf->len - p);
		strbuf_release(buf);
		*buf = out;
	} else {
		strbuf_release(&out);
	}
	return changed;
}
