/*
 * config-write: git's placement rules for "set key = value".
 *
 * The file is scanned (config_scan_buffer) for the section headers and
 * variables of key's section.  Then, as git does:
 *   - key has one value: the text from the start of that variable's line
 *     (whitespace before it on the line included) to the end of its line
 *     (a trailing comment and continuation lines included) is replaced by
 *     "\t<name> = <value>\n";
 *   - key is not set, its section is: the pair goes right after the last
 *     variable (or the header) of the last such section, on a line of its
 *     own;
 *   - neither: "[section]\n" and the pair are appended.
 * A newline is added before the pair when the text before it does not
 * end with one.  Values that would lose spaces or start a comment are
 * quoted; newline, tab, '"' and '\' are escaped.
 */
#include "config-write.h"

#include <ctype.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "error.h"
#include "lockfile.h"
#include "strbuf.h"

struct placement {
	const char *ckey;	/* canonical key */
	size_t baselen;		/* length of its "section[.sub]" part */
	int in_section;		/* the last header scanned is key's */
	int section_seen;
	size_t nr_values;	/* variables named key */
	size_t begin, end;	/* the one value's text */
	size_t after;		/* the end of key's section's last line */
};

static int
place(const struct config_event *ev, void *data)
{
	struct placement *pl = data;

	if (ev->type == CONFIG_EVENT_SECTION) {
		pl->in_section = strlen(ev->key) == pl->baselen &&
				 !memcmp(ev->key, pl->ckey, pl->baselen);
		if (pl->in_section) {
			pl->section_seen = 1;
			if (!pl->nr_values)
				pl->after = ev->end;
		}
		return 0;
	}
	if (!strcmp(ev->key, pl->ckey)) {
		if (!pl->nr_values++) {
			pl->begin = ev->begin;
			pl->end = ev->end;
		}
	} else if (pl->in_section && !pl->nr_values) {
		pl->after = ev->end;
	}
	return 0;
}

/* Find key's place in text. */
static int
scan_text(struct placement *pl, const char *text, size_t len,
	  const char *origin, const char *key)
{
	char *ckey;
	int ret;

	memset(pl, 0, sizeof(*pl));
	ret = config_canon_key(&ckey, key, strlen(key));
	if (ret < 0)
		return ret;
	pl->ckey = ckey;
	pl->baselen = strrchr(ckey, '.') - ckey;
	return config_scan_buffer(text, len, origin, place, pl);
}

/* The file's text (empty if missing); *exists and *st describe it. */
static int
read_file(struct strbuf *text, int *exists, struct stat *st,
	  const char *path)
{
	*exists = !stat(path, st);
	if (!*exists) {
		if (errno != ENOENT)
			return error_errno(errno, "unable to stat '%s'", path);
		return 0;
	}
	return strbuf_read_file(text, path);
}

static void
add_section(struct strbuf *out, const char *key, size_t baselen)
{
	const char *dot = memchr(key, '.', baselen);

	if (!dot) {
		strbuf_addf(out, "[%.*s]\n", (int)baselen, key);
		return;
	}
	strbuf_addf(out, "[%.*s \"", (int)(dot - key), key);
	for (const char *p = dot + 1; p < key + baselen; p++) {
		if (*p == '"' || *p == '\\')
			strbuf_addch(out, '\\');
		strbuf_addch(out, *p);
	}
	strbuf_addstr(out, "\"]\n");
}

static void
add_pair(struct strbuf *out, const char *name, const char *value)
{
	size_t len = strlen(value);
	const char *quote = "";

	if (value[0] == ' ' || (len && value[len - 1] == ' ') ||
	    strpbrk(value, ";#"))
		quote = "\"";
	strbuf_addf(out, "\t%s = %s", name, quote);
	for (const char *p = value; *p; p++) {
		if (*p == '\n') {
			strbuf_addstr(out, "\\n");
		} else if (*p == '\t') {
			strbuf_addstr(out, "\\t");
		} else {
			if (*p == '"' || *p == '\\')
				strbuf_addch(out, '\\');
			strbuf_addch(out, *p);
		}
	}
	strbuf_addf(out, "%s\n", quote);
}

/* text[0..upto), with a newline if it does not end in one */
static void
add_head(struct strbuf *out, const char *text, size_t upto)
{
	strbuf_add(out, text, upto);
	if (upto && text[upto - 1] != '\n')
		strbuf_addch(out, '\n');
}

int
config_write_count(const char *path, const char *key)
{
	struct strbuf text = STRBUF_INIT;
	struct placement pl = { 0 };
	struct stat st;
	int exists, ret;

	ret = read_file(&text, &exists, &st, path);
	if (!ret)
		ret = scan_text(&pl, text.buf, text.len, path, key);
	free((char *)pl.ckey);
	strbuf_release(&text);
	return ret < 0 ? ret : (int)pl.nr_values;
}

int
config_write_text(struct strbuf *out, const char *text, size_t len,
		  const char *origin, const char *key, const char *value)
{
	struct placement pl;
	size_t rest;
	int ret;

	strbuf_reset(out);
	ret = scan_text(&pl, text, len, origin, key);
	if (ret < 0)
		goto out;
	if (pl.nr_values > 1) {
		diag_emit(DIAG_WARNING, "%s has multiple values", pl.ckey);
		ret = error_set(E_CONFLICT, "could not set '%s' to '%s'", key,
				value);
		goto out;
	}
	if (pl.nr_values) {
		size_t begin = pl.begin;

		/* the whitespace before it on its line goes too */
		while (begin && text[begin - 1] != '\n' &&
		       isspace((unsigned char)text[begin - 1]))
			begin--;
		add_head(out, text, begin);
		rest = pl.end;
	} else if (pl.section_seen) {
		size_t after = pl.after;

		/* a header's line ends with its newline */
		if (after < len && text[after - 1] != '\n' &&
		    text[after] == '\n')
			after++;
		add_head(out, text, after);
		rest = after;
	} else {
		add_head(out, text, len);
		add_section(out, key, pl.baselen);
		rest = len;
	}
	add_pair(out, key + pl.baselen + 1, value);
	strbuf_add(out, text + rest, len - rest);
out:
	free((char *)pl.ckey);
	return ret;
}

int
config_write_set(const char *path, const char *key, const char *value)
{
	struct strbuf text = STRBUF_INIT, out = STRBUF_INIT;
	struct lockfile lk = LOCKFILE_INIT;
	struct stat st;
	int exists, ret;

	ret = read_file(&text, &exists, &st, path);
	if (!ret)
		ret = config_write_text(&out, text.buf, text.len, path, key,
					value);
	if (ret < 0)
		goto out;
	ret = lockfile_hold(&lk, path);
	if (ret == -E_LOCKED) {
		ret = error_set(E_LOCKED, "could not lock config file %s: "
				"File exists", path);
		goto out;
	}
	if (ret < 0)
		goto out;
	if ((exists && fchmod(lk.fd, st.st_mode & 07777) < 0) ||
	    write_full(lk.fd, out.buf, out.len) < 0) {
		ret = error_errno(errno, "could not write config file %s",
				  path);
		lockfile_rollback(&lk);
		goto out;
	}
	ret = lockfile_commit(&lk, SYNC_NONE);
out:
	strbuf_release(&text);
	strbuf_release(&out);
	return ret;
}
