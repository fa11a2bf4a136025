/*
 * config: a reader for git's config syntax.
 *
 *   # comment            ; comment
 *   [section]            [section "sub\"sec"]     [section.sub]
 *   name = value         name          (implicit true)
 *   name = "quoted ; kept" trailing   name = a \
 *          continued
 *
 * Section and variable names are case-insensitive (stored lowercased); a
 * quoted subsection is case-sensitive, the old dotted form is lowercased.
 * Values: unquoted whitespace runs collapse as git collapses them (each
 * whitespace character outside quotes becomes one space, leading and
 * trailing ones dropped), escapes \n \t \b \\ \" , backslash-newline
 * continues the line.  include.path is followed (relative to the
 * including file), ten levels deep at most, as it is read; an
 * includeIf.<condition>.path waits, marked, until the caller knows what
 * to test it against (the git directory is found after the user's
 * files are read; a hasconfig: condition needs every file read) and
 * calls config_resolve_includes().
 */
#include "config.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/stat.h>

#include "error.h"
#include "strbuf.h"
#include "wildmatch.h"

void
config_init(struct config *cfg)
{
	*cfg = (struct config)CONFIG_INIT;
}

void
config_release(struct config *cfg)
{
	for (size_t i = 0; i < cfg->nr; i++) {
		free(cfg->entries[i].key);
		free(cfg->entries[i].value);
		free(cfg->entries[i].origin);
	}
	free(cfg->entries);
	config_init(cfg);
}

static void
push(struct config *cfg, char *key, char *value)
{
	ALLOC_GROW(cfg->entries, cfg->nr + 1, cfg->alloc);
	cfg->entries[cfg->nr] = (struct config_entry){ key, value, NULL, 0, 0, 0 };
	cfg->nr++;
}

/* An includeIf.<condition>.path for config_resolve_includes(). */
static void
push_pending(struct config *cfg, char *key, char *value, const char *origin,
	     int depth)
{
	push(cfg, key, value);
	cfg->entries[cfg->nr - 1].origin = origin ? xstrdup(origin) : NULL;
	cfg->entries[cfg->nr - 1].depth = depth;
	cfg->entries[cfg->nr - 1].pending = 1;
	cfg->pending++;
}

static int
is_keychar(int c)
{
	return isalnum(c) || c == '-';
}

int
config_canon_key(char **out, const char *key, size_t len)
{
	const char *first = memchr(key, '.', len), *last = NULL;
	char *res;

	*out = NULL;
	for (size_t i = 0; i < len; i++)
		if (key[i] == '.')
			last = key + i;
	if (!len)
		return error_set(E_INVALID, "empty config key");
	if (!first || first == key)
		return error_set(E_INVALID, "key does not contain a section: "
				 "%.*s", (int)len, key);
	if (last == key + len - 1)
		return error_set(E_INVALID, "key does not contain variable "
				 "name: %.*s", (int)len, key);
	res = xmemdupz(key, len);
	for (size_t i = 0; i < len; i++) {
		const char *p = key + i;
		int c = (unsigned char)*p;

		if (p < first || p > last) {
			/* section or variable name */
			if (!is_keychar(c) ||
			    (p == last + 1 && !isalpha(c))) {
				free(res);
				return error_set(E_INVALID, "invalid key: "
						 "%.*s", (int)len, key);
			}
			res[i] = tolower(c);
		} else if (c == '\n') {
			free(res);
			return error_set(E_INVALID, "invalid key (newline): "
					 "%.*s", (int)len, key);
		}
	}
	*out = res;
	return 0;
}

void
config_append(struct config *dst, struct config *src)
{
	ALLOC_GROW(dst->entries, dst->nr + src->nr, dst->alloc);
	for (size_t i = 0; i < src->nr; i++)
		dst->entries[dst->nr++] = src->entries[i];
	dst->pending += src->pending;
	free(src->entries);
	config_init(src);
}

int
config_add(struct config *cfg, const char *key, const char *value)
{
	char *canon;
	int ret = config_canon_key(&canon, key, strlen(key));

	if (ret < 0)
		return ret;
	push(cfg, canon, value ? xstrdup(value) : NULL);
	return 0;
}

struct parser {
	const char *p, *end;
	const char *start;	/* of the buffer, for event offsets */
	config_event_fn event_fn; /* scanning: report, follow no include */
	void *event_data;
	const char *origin;
	int line;
	int prev;		/* the last character read */
	size_t token;		/* offset of the token being parsed */
	struct strbuf section;	/* "core" or "remote.origin" */
	struct strbuf value;
};

static int
peekc(struct parser *ps)
{
	return ps->p < ps->end ? (unsigned char)*ps->p : EOF;
}

static int
nextc(struct parser *ps)
{
	int c;

	if (ps->p >= ps->end) {
		if (ps->prev == '\n')
			ps->line++;
		ps->prev = EOF;
		return EOF;
	}
	c = (unsigned char)*ps->p++;
	if (c == '\r' && peekc(ps) == '\n')
		c = (unsigned char)*ps->p++;
	if (ps->prev == '\n')
		ps->line++;
	ps->prev = c;
	return c;
}

static void
skip_line(struct parser *ps)
{
	int c;

	while ((c = nextc(ps)) != EOF && c != '\n')
		;
}

static int
bad_line(struct parser *ps)
{
	if (ps->origin)
		return error_set(E_CORRUPT, "bad config line %d in file %s",
				 ps->line, ps->origin);
	return error_set(E_CORRUPT, "bad config line %d in blob", ps->line);
}

/* Parse after '[' up to and including ']'. */
static int
parse_section(struct parser *ps)
{
	int c;

	strbuf_reset(&ps->section);
	for (;;) {
		c = nextc(ps);
		if (c == EOF || c == '\n')
			return bad_line(ps);
		if (c == ']')
			return ps->section.len ? 0 : bad_line(ps);
		if (isspace(c))
			break;
		if (!is_keychar(c) && c != '.')
			return bad_line(ps);
		strbuf_addch(&ps->section, tolower(c));
	}
	/* [section "subsection"] */
	while ((c = nextc(ps)) == ' ' || c == '\t')
		;
	if (c != '"' || !ps->section.len)
		return bad_line(ps);
	strbuf_addch(&ps->section, '.');
	for (;;) {
		c = nextc(ps);
		if (c == EOF || c == '\n')
			return bad_line(ps);
		if (c == '"')
			break;
		if (c == '\\') {
			c = nextc(ps);
			if (c == EOF || c == '\n')
				return bad_line(ps);
		}
		strbuf_addch(&ps->section, c);
	}
	if (nextc(ps) == ']')
		return 0;
	/* git counts a newline read here: it names the next line */
	if (ps->prev == '\n')
		ps->line++, ps->prev = 0;
	return bad_line(ps);
}

/* Parse a value after '=' up to the end of the line. */
static int
parse_value(struct parser *ps)
{
	int quoted = 0, comment = 0;
	size_t spaces = 0;

	strbuf_reset(&ps->value);
	for (;;) {
		int c = nextc(ps);

		if (c == EOF || c == '\n') {
			if (quoted)
				return bad_line(ps);
			return 0;
		}
		if (comment)
			continue;
		if (isspace(c) && !quoted) {
			if (ps->value.len)
				spaces++;
			continue;
		}
		if (!quoted && (c == ';' || c == '#')) {
			comment = 1;
			continue;
		}
		for (; spaces; spaces--)
			strbuf_addch(&ps->value, ' ');
		if (c == '\\') {
			c = nextc(ps);
			switch (c) {
			case EOF:
				return quoted ? bad_line(ps) : 0;
			case '\n':
				continue;
			case 't':
				c = '\t';
				break;
			case 'b':
				c = '\b';
				break;
			case 'n':
				c = '\n';
				break;
			case '\\':
			case '"':
				break;
			default:
				return bad_line(ps);
			}
			strbuf_addch(&ps->value, c);
			continue;
		}
		if (c == '"') {
			quoted = !quoted;
			continue;
		}
		strbuf_addch(&ps->value, c);
	}
}

static int include_path(struct config *cfg, const char *origin,
			const char *path, int depth);

enum cond_kind {
	COND_NONE, COND_GITDIR, COND_GITDIR_ICASE, COND_ONBRANCH,
	COND_HASCONFIG,
};

/*
 * The kind of includeIf.<condition>.path key (canonical) is, and its
 * pattern (*pat, *len: not NUL-terminated).  COND_NONE for any other
 * key, and for conditions git does not know (they never hold).
 */
static enum cond_kind
cond_kind(const char *key, const char **pat, size_t *len)
{
	static const struct {
		const char *prefix;
		enum cond_kind kind;
	} kinds[] = {
		{ "gitdir:", COND_GITDIR },
		{ "gitdir/i:", COND_GITDIR_ICASE },
		{ "onbranch:", COND_ONBRANCH },
		{ "hasconfig:remote.*.url:", COND_HASCONFIG },
	};
	const char *cond;
	size_t n;

	if (!skip_prefix(key, "includeif.", &cond) || !ends_with(cond, ".path"))
		return COND_NONE;
	n = strlen(cond);
	if (n < 5)
		return COND_NONE;
	n -= 5;
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		size_t plen = strlen(kinds[i].prefix);

		if (n >= plen && !memcmp(cond, kinds[i].prefix, plen)) {
			*pat = cond + plen;
			*len = n - plen;
			return kinds[i].kind;
		}
	}
	return COND_NONE;
}

/* Parse "name [= value]" whose first character c was already read. */
static int
parse_variable(struct config *cfg, struct parser *ps, int c, int depth)
{
	struct strbuf key = STRBUF_INIT;
	char *value = NULL;
	int has_value = 0, ret = 0;

	if (!isalpha(c)) {
		ret = bad_line(ps);
		goto out;
	}
	if (!ps->section.len) {
		/* git reports it and goes on */
		strbuf_addch(&key, c);
		while (is_keychar(peekc(ps)))
			strbuf_addch(&key, nextc(ps));
		while ((c = peekc(ps)) == ' ' || c == '\t')
			nextc(ps);
		if (c == '=') {
			nextc(ps);
			ret = parse_value(ps);
		} else if (c != '\n' && c != EOF && c != '\r') {
			ret = bad_line(ps);
		} else if (c != EOF) {
			skip_line(ps);
		}
		if (!ret && !ps->event_fn)
			diag_emit(DIAG_ERROR, "key does not contain a section: "
				  "%s", key.buf);
		goto out;
	}
	strbuf_addbuf(&key, &ps->section);
	strbuf_addch(&key, '.');
	strbuf_addch(&key, tolower(c));
	while (is_keychar(peekc(ps)))
		strbuf_addch(&key, tolower(nextc(ps)));
	while ((c = peekc(ps)) == ' ' || c == '\t')
		nextc(ps);
	if (c == '=') {
		nextc(ps);
		ret = parse_value(ps);
		if (ret < 0)
			goto out;
		has_value = 1;
	} else if (c == '\n' || c == EOF || c == '\r') {
		if (c != EOF)
			skip_line(ps);
	} else {
		ret = bad_line(ps);
		goto out;
	}
	if (ps->event_fn) {
		struct config_event ev = {
			CONFIG_EVENT_ENTRY, 0, (size_t)(ps->p - ps->start),
			key.buf, has_value ? ps->value.buf : NULL, ps->line,
		};

		ev.begin = ps->token;
		ret = ps->event_fn(&ev, ps->event_data);
		goto out;
	}
	if (has_value)
		value = xstrdup(ps->value.buf);
	if (depth >= 0) {
		const char *pat;
		size_t len;

		if (!strcmp(key.buf, "include.path")) {
			if (!value) {
				/* git's error, then the line is bad */
				diag_emit(DIAG_ERROR, "missing value for "
					  "'include.path'");
				ret = bad_line(ps);
				goto out;
			}
			ret = include_path(cfg, ps->origin, value, depth);
			free(value);
			goto out;
		}
		if (cond_kind(key.buf, &pat, &len) != COND_NONE) {
			push_pending(cfg, strbuf_detach(&key, NULL), value,
				     ps->origin, depth);
			cfg->entries[cfg->nr - 1].line = ps->line;
			goto out;
		}
	}
	if (cfg->check && cfg->check(key.buf, value) < 0) {
		char *why = xstrdup(error_msg());

		free(value);
		ret = ps->origin ?
			error_set_pre(E_CORRUPT, why, "bad config line %d in "
				      "file %s", ps->line, ps->origin) :
			error_set_pre(E_CORRUPT, why, "bad config line %d in "
				      "blob", ps->line);
		free(why);
		goto out;
	}
	push(cfg, strbuf_detach(&key, NULL), value);
out:
	strbuf_release(&key);
	return ret;
}

static int
include_path(struct config *cfg, const char *origin, const char *path,
	     int depth)
{
	struct strbuf full = STRBUF_INIT;
	const char *home = getenv("HOME");
	int ret;

	if (depth >= CONFIG_MAX_INCLUDE_DEPTH)
		return error_set(E_INVALID, "exceeded maximum include depth "
				 "(%d) while including %s",
				 CONFIG_MAX_INCLUDE_DEPTH, path);
	if (path[0] == '~' && path[1] == '/' && home) {
		strbuf_addstr(&full, home);
		strbuf_addstr(&full, path + 1);
	} else if (path[0] != '/') {
		const char *slash = origin ? strrchr(origin, '/') : NULL;

		if (!origin)
			return error_set(E_INVALID, "relative config includes "
					 "must come from files");
		if (slash)
			strbuf_add(&full, origin, slash - origin + 1);
		strbuf_addstr(&full, path);
	} else {
		strbuf_addstr(&full, path);
	}
	ret = config_load_file(cfg, full.buf, depth + 1);
	strbuf_release(&full);
	return ret;
}

static int
parse(struct parser *ps, struct config *cfg, int depth)
{
	int ret = 0;

	/* a UTF-8 byte order mark is allowed */
	if (ps->end - ps->p >= 3 && !memcmp(ps->p, "\xef\xbb\xbf", 3))
		ps->p += 3;
	for (;;) {
		int c;

		ps->token = ps->p - ps->start;
		c = nextc(ps);
		if (c == EOF)
			break;
		if (c == '\n' || isspace(c))
			continue;
		if (c == '#' || c == ';') {
			skip_line(ps);
			continue;
		}
		if (c == '[') {
			ret = parse_section(ps);
			if (!ret && ps->event_fn) {
				struct config_event ev = {
					CONFIG_EVENT_SECTION, ps->token,
					(size_t)(ps->p - ps->start),
					ps->section.buf, NULL, ps->line,
				};

				ret = ps->event_fn(&ev, ps->event_data);
			}
		} else {
			ret = parse_variable(cfg, ps, c, depth);
		}
		if (ret < 0)
			break;
	}
	strbuf_release(&ps->section);
	strbuf_release(&ps->value);
	return ret;
}

int
config_scan_buffer(const char *buf, size_t len, const char *origin,
		   config_event_fn fn, void *data)
{
	struct parser ps = {
		.p = buf, .end = buf + len, .start = buf, .event_fn = fn,
		.event_data = data, .origin = origin, .line = 1, .prev = 0,
		.section = STRBUF_INIT, .value = STRBUF_INIT,
	};

	return parse(&ps, NULL, 0);
}

int
config_parse_buffer(struct config *cfg, const char *buf, size_t len,
		    const char *origin, int depth)
{
	struct parser ps = {
		.p = buf, .end = buf + len, .start = buf, .origin = origin,
		.line = 1, .prev = 0,
		.section = STRBUF_INIT, .value = STRBUF_INIT,
	};

	return parse(&ps, cfg, depth);
}

int
config_load_file(struct config *cfg, const char *path, int depth)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = strbuf_read_file(&sb, path);

	if (ret == -E_NOTFOUND) {
		ret = 0;
	} else if (ret < 0) {
		diag_emit(DIAG_WARNING, "%s", error_msg());
		ret = 0;
	} else {
		ret = config_parse_buffer(cfg, sb.buf, sb.len, path, depth);
	}
	strbuf_release(&sb);
	return ret;
}

/*
 * GIT_CONFIG_PARAMETERS: single-quoted words separated by spaces; 'k=v'
 * (old style) or 'k'='v' (new style) or a bare 'k'.
 */
static int
parse_sq(const char **pp, struct strbuf *out)
{
	const char *p = *pp;

	strbuf_reset(out);
	if (*p != '\'')
		return -1;
	p++;
	for (;;) {
		if (!*p)
			return -1;
		if (*p == '\'') {
			/*
			 * '\'' and '\!' continue the word with a quote
			 * or a '!' (git quotes both: a value with a '!'
			 * reaches "git dirc" from "git -c x='!y'")
			 */
			if (p[1] == '\\' && (p[2] == '\'' || p[2] == '!') &&
			    p[3] == '\'') {
				strbuf_addch(out, p[2]);
				p += 4;
				continue;
			}
			p++;
			break;
		}
		strbuf_addch(out, *p++);
	}
	*pp = p;
	return 0;
}

static int
add_pair(struct config *cfg, const char *key, size_t keylen,
	 const char *value)
{
	char *canon;
	const char *pat;
	size_t len;
	int ret = config_canon_key(&canon, key, keylen);

	if (ret < 0)
		return ret;
	if (!strcmp(canon, "include.path")) {
		free(canon);
		if (!value)
			return error_set(E_INVALID, "missing value for "
					 "'include.path'");
		/* no file anchors a relative one: include_path() refuses */
		return include_path(cfg, NULL, value, 0);
	}
	if (cond_kind(canon, &pat, &len) != COND_NONE) {
		push_pending(cfg, canon, value ? xstrdup(value) : NULL, NULL,
			     0);
		return 0;
	}
	ret = cfg->check ? cfg->check(canon, value) : 0;
	if (ret < 0) {
		free(canon);
		return ret;
	}
	push(cfg, canon, value ? xstrdup(value) : NULL);
	return 0;
}

static int
load_parameters(struct config *cfg, const char *env)
{
	struct strbuf word = STRBUF_INIT, value = STRBUF_INIT;
	const char *p = env;
	int ret = 0;

	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		if (parse_sq(&p, &word) < 0) {
			ret = error_set(E_INVALID, "bogus format in "
					"GIT_CONFIG_PARAMETERS");
			break;
		}
		if (*p == '=') {
			p++;
			if (parse_sq(&p, &value) < 0) {
				ret = error_set(E_INVALID, "bogus format in "
						"GIT_CONFIG_PARAMETERS");
				break;
			}
			ret = add_pair(cfg, word.buf, word.len, value.buf);
		} else {
			const char *eq = strchr(word.buf, '=');

			ret = add_pair(cfg, word.buf,
				       eq ? (size_t)(eq - word.buf) : word.len,
				       eq ? eq + 1 : NULL);
		}
		if (ret < 0)
			break;
	}
	strbuf_release(&word);
	strbuf_release(&value);
	return ret;
}

int
config_cmdline_error(int ret)
{
	if (ret >= 0 || ret == -E_CORRUPT)
		return ret;
	/* the message may be the slot's own: error_set_pre copes */
	return error_set_pre(E_INVALID, error_msg(),
			     "unable to parse command-line config");
}

int
config_load_env(struct config *cfg)
{
	const char *env = getenv("GIT_CONFIG_COUNT");
	unsigned long count;
	char *end;
	int ret;

	/* as git: GIT_CONFIG_COUNT first, so that -c (below) wins */
	if (env && *env) {
		errno = 0;
		count = strtoul(env, &end, 10);
		if (errno || *end || count > INT_MAX)
			return error_set(E_INVALID, "bogus count in "
					 "GIT_CONFIG_COUNT");
		for (unsigned long i = 0; i < count; i++) {
			char name[64];
			const char *key, *value;

			snprintf(name, sizeof(name), "GIT_CONFIG_KEY_%lu", i);
			key = getenv(name);
			if (!key)
				return error_set(E_INVALID, "missing config key "
						 "%s", name);
			snprintf(name, sizeof(name), "GIT_CONFIG_VALUE_%lu", i);
			value = getenv(name);
			if (!value)
				return error_set(E_INVALID, "missing config "
						 "value %s", name);
			ret = add_pair(cfg, key, strlen(key), value);
			if (ret < 0)
				return ret;
		}
	}
	env = getenv("GIT_CONFIG_PARAMETERS");
	if (env && *env)
		return load_parameters(cfg, env);
	return 0;
}

int
config_load_user(struct config *cfg)
{
	struct strbuf path = STRBUF_INIT;
	const char *env, *home = getenv("HOME");
	int ret = 0;

	if (!getenv("GIT_CONFIG_NOSYSTEM") ||
	    config_parse_bool(getenv("GIT_CONFIG_NOSYSTEM")) == 0) {
		env = getenv("GIT_CONFIG_SYSTEM");
		ret = config_load_file(cfg, env ? env : "/etc/gitconfig", 0);
		if (ret < 0)
			goto out;
	}
	env = getenv("GIT_CONFIG_GLOBAL");
	if (env) {
		ret = config_load_file(cfg, env, 0);
		goto out;
	}
	env = getenv("XDG_CONFIG_HOME");
	if (env && *env) {
		strbuf_addf(&path, "%s/git/config", env);
	} else if (home) {
		strbuf_addf(&path, "%s/.config/git/config", home);
	}
	if (path.len) {
		ret = config_load_file(cfg, path.buf, 0);
		if (ret < 0)
			goto out;
	}
	if (home) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/.gitconfig", home);
		ret = config_load_file(cfg, path.buf, 0);
	}
out:
	strbuf_release(&path);
	return ret;
}

void
config_cond_release(struct config_cond *cond)
{
	for (size_t i = 0; i < cond->urls_nr; i++)
		free(cond->urls[i]);
	free(cond->urls);
	free(cond->gitdir_real);
	free(cond->gitdir_logical);
	free(cond->branch);
	*cond = (struct config_cond)CONFIG_COND_INIT;
}

/* Insert src's entries into cfg at pos; src is left empty. */
static void
splice(struct config *cfg, size_t pos, struct config *src)
{
	ALLOC_GROW(cfg->entries, cfg->nr + src->nr, cfg->alloc);
	memmove(cfg->entries + pos + src->nr, cfg->entries + pos,
		(cfg->nr - pos) * sizeof(*cfg->entries));
	memcpy(cfg->entries + pos, src->entries,
	       src->nr * sizeof(*src->entries));
	cfg->nr += src->nr;
	cfg->pending += src->pending;
	free(src->entries);
	config_init(src);
}

/* The git directory resolved, and as git names it made absolute. */
static void
gitdir_texts(struct config_cond *cond)
{
	struct strbuf sb = STRBUF_INIT;
	const char *pwd = getenv("PWD");
	struct stat st_base, st_pwd;

	if (cond->gitdir_done)
		return;
	cond->gitdir_done = 1;
	if (cond->gitdir[0] == '/' || !cond->base) {
		strbuf_addstr(&sb, cond->gitdir);
	} else {
		/* a logical $PWD naming the same directory, as git */
		if (pwd && pwd[0] == '/' && strcmp(pwd, cond->base) &&
		    !stat(cond->base, &st_base) && !stat(pwd, &st_pwd) &&
		    st_base.st_dev == st_pwd.st_dev &&
		    st_base.st_ino == st_pwd.st_ino)
			strbuf_addstr(&sb, pwd);
		else
			strbuf_addstr(&sb, cond->base);
		if (sb.len && sb.buf[sb.len - 1] != '/')
			strbuf_addch(&sb, '/');
		strbuf_addstr(&sb, cond->gitdir);
	}
	cond->gitdir_real = realpath(sb.buf, NULL);
	if (!cond->gitdir_real)
		cond->gitdir_real = xstrdup(sb.buf);
	cond->gitdir_logical = strbuf_detach(&sb, NULL);
}

/*
 * A leading "~/" (or a whole "~") of pat expanded into out, $HOME
 * resolved (git's rule for conditions): 1, or 0 when pat has none or
 * HOME is unset (then git keeps the pattern as it is).  "~user/" is
 * not expanded: dirc is linked statically, without getpwnam().
 */
static int
expand_home(struct strbuf *out, const char *pat)
{
	const char *home = getenv("HOME");
	char *real;

	if (pat[0] != '~' || (pat[1] && pat[1] != '/') || !home)
		return 0;
	real = realpath(home, NULL);
	strbuf_addstr(out, real ? real : home);
	strbuf_addstr(out, pat + 1);
	free(real);
	return 1;
}

/*
 * Does the gitdir: pattern pat (len bytes; from the file origin) match
 * the git directory?  1 or 0; -E_INVALID for a "./" pattern with no
 * file to anchor it.
 */
static int
match_gitdir(struct config_cond *cond, const char *origin, const char *pat,
	     size_t len, int icase)
{
	struct strbuf pattern = STRBUF_INIT, exp = STRBUF_INIT;
	const char *texts[2];
	char *raw;
	size_t prefix = 0;
	int match = 0;

	if (!cond->gitdir)
		return 0;
	raw = xmemdupz(pat, len);
	if (!expand_home(&exp, raw))
		strbuf_addstr(&exp, raw);
	free(raw);
	if (exp.buf[0] == '.' && exp.buf[1] == '/') {
		char *real, *slash;

		if (!origin) {
			strbuf_release(&exp);
			return error_set(E_INVALID, "relative config include "
					 "conditionals must come from files");
		}
		real = realpath(origin, NULL);
		if (!real)
			real = xstrdup(origin);
		slash = strrchr(real, '/');
		/* the file's directory, then the rest from the '/' on */
		strbuf_add(&pattern, real, slash ? (size_t)(slash - real) : 0);
		prefix = pattern.len + 1;
		strbuf_addstr(&pattern, exp.buf + 1);
		free(real);
	} else {
		if (exp.buf[0] != '/')
			strbuf_addstr(&pattern, "**/");
		strbuf_addbuf(&pattern, &exp);
	}
	strbuf_release(&exp);
	if (pattern.len && pattern.buf[pattern.len - 1] == '/')
		strbuf_addstr(&pattern, "**");

	gitdir_texts(cond);
	texts[0] = cond->gitdir_real;
	texts[1] = cond->gitdir_logical;
	for (int i = 0; i < 2 && !match; i++) {
		const char *text = texts[i];

		/* the file's directory is matched literally: no wildcards */
		if (prefix && (strlen(text) < prefix ||
			       (icase ? strncasecmp(pattern.buf, text, prefix) :
				strncmp(pattern.buf, text, prefix))))
			continue;
		match = wildmatch(pattern.buf + prefix, text + prefix,
				  WM_PATHNAME | (icase ? WM_CASEFOLD : 0)) ==
			WM_MATCH;
	}
	strbuf_release(&pattern);
	return match;
}

static int
match_onbranch(struct config_cond *cond, const char *pat, size_t len)
{
	struct strbuf pattern = STRBUF_INIT;
	const char *branch = cond->onbranch;
	int match;

	if (!branch && cond->head_branch) {
		if (!cond->branch_done) {
			cond->branch_done = 1;
			if (cond->head_branch(&pattern, cond->head_data) > 0)
				cond->branch = strbuf_detach(&pattern, NULL);
			strbuf_release(&pattern);
		}
		branch = cond->branch;
	}
	if (!branch)
		return 0;
	strbuf_add(&pattern, pat, len);
	if (pattern.len && pattern.buf[pattern.len - 1] == '/')
		strbuf_addstr(&pattern, "**");
	match = wildmatch(pattern.buf, branch, WM_PATHNAME) == WM_MATCH;
	strbuf_release(&pattern);
	return match;
}

/* remote.<name>.url (a name, even an empty one, is needed) */
static int
is_remote_url(const char *key)
{
	const char *rest;

	return skip_prefix(key, "remote.", &rest) && strlen(rest) > 4 &&
	       ends_with(rest, ".url");
}

static int
match_hasconfig(const struct config_cond *cond, const char *pat, size_t len)
{
	char *pattern = xmemdupz(pat, len);
	int match = 0;

	for (size_t i = 0; i < cond->urls_nr && !match; i++)
		match = wildmatch(pattern, cond->urls[i], WM_PATHNAME) ==
			WM_MATCH;
	free(pattern);
	return match;
}

/*
 * Read the file the pending entry e names into out.  From the command
 * line, a failure (but for a file that does not parse) is git's
 * "unable to parse command-line config".
 */
static int
include_pending(struct config *out, const struct config_entry *e)
{
	int ret;

	if (!e->value) {
		/* as git: an error, then the line is bad */
		if (!e->origin)
			return error_set_pre(E_INVALID, "missing value for "
					     "'include.path'", "unable to "
					     "parse command-line config");
		diag_emit(DIAG_ERROR, "missing value for 'include.path'");
		return error_set(E_CORRUPT, "bad config line %d in file %s",
				 e->line, e->origin);
	}
	ret = include_path(out, e->origin, e->value, e->depth);
	return e->origin ? ret : config_cmdline_error(ret);
}

/*
 * Follow every pending entry of cfg but the hasconfig: ones (which
 * stay pending), in order, with what those included make pending.
 */
static int
resolve_plain(struct config *cfg, struct config_cond *cond)
{
	for (size_t i = 0; i < cfg->nr && cfg->pending; i++) {
		struct config_entry *e = &cfg->entries[i];
		struct config tmp = CONFIG_INIT;
		enum cond_kind kind;
		const char *pat;
		size_t len;
		int ret;

		if (!e->pending)
			continue;
		kind = cond_kind(e->key, &pat, &len);
		if (kind == COND_HASCONFIG)
			continue;
		e->pending = 0;
		cfg->pending--;
		if (kind == COND_ONBRANCH)
			ret = match_onbranch(cond, pat, len);
		else
			ret = match_gitdir(cond, e->origin, pat, len,
					   kind == COND_GITDIR_ICASE);
		/* git's error does not stop the include: -1 is "true" */
		if (ret < 0) {
			diag_emit(DIAG_ERROR, "%s", error_msg());
			error_clear();
			ret = 1;
		}
		if (!ret)
			continue;
		ret = include_pending(&tmp, e);
		if (ret < 0) {
			config_release(&tmp);
			return ret;
		}
		for (size_t j = 0; j < tmp.nr; j++)
			if (is_remote_url(tmp.entries[j].key))
				cond->url_included = 1;
		splice(cfg, i + 1, &tmp);
	}
	return 0;
}

static int
url_included(void)
{
	return error_set(E_INVALID, "remote URLs cannot be configured in "
			 "file directly or indirectly included by "
			 "includeIf.hasconfig:remote.*.url");
}

/*
 * Follow the hasconfig: entries pending in cfg (all that is left):
 * every file they name is read and may set no remote URL (git reads
 * them all when one such condition is tested, holding or not; a file
 * another includeIf brings in may not either); those whose condition
 * holds go in.
 */
static int
resolve_hasconfig(struct config *cfg, struct config_cond *cond)
{
	for (size_t i = 0; i < cfg->nr && cfg->pending; i++) {
		struct config_entry *e = &cfg->entries[i];
		struct config tmp = CONFIG_INIT;
		const char *pat;
		size_t len;
		int ret, match;

		if (!e->pending)
			continue;
		e->pending = 0;
		cfg->pending--;
		if (cond_kind(e->key, &pat, &len) != COND_HASCONFIG)
			continue;	/* not reached: resolve_plain() did */
		match = match_hasconfig(cond, pat, len);
		ret = include_pending(&tmp, e);
		if (ret >= 0)
			ret = resolve_plain(&tmp, cond);
		for (size_t j = 0; ret >= 0 && j < tmp.nr; j++)
			if (is_remote_url(tmp.entries[j].key))
				ret = url_included();
		if (ret >= 0)
			ret = resolve_hasconfig(&tmp, cond);
		if (ret < 0) {
			config_release(&tmp);
			return ret;
		}
		if (match)
			splice(cfg, i + 1, &tmp);
		config_release(&tmp);
	}
	return 0;
}

int
config_resolve_includes(struct config *cfg, struct config_cond *cond)
{
	int ret;

	if (!cfg->pending)
		return 0;
	cond->url_included = 0;
	ret = resolve_plain(cfg, cond);
	if (ret < 0 || !cfg->pending)
		return ret;
	/*
	 * git collects the URLs reading everything again, every file an
	 * includeIf brings (the hasconfig: ones whether they hold or not)
	 * forbidden to set one
	 */
	if (cond->url_included)
		return url_included();
	/* the remote URLs of all that is read, but hasconfig: includes */
	for (size_t i = 0; i < cond->urls_nr; i++)
		free(cond->urls[i]);
	cond->urls_nr = 0;
	for (size_t i = 0; i < cfg->nr; i++) {
		if (!cfg->entries[i].value ||
		    !is_remote_url(cfg->entries[i].key))
			continue;
		ALLOC_GROW(cond->urls, cond->urls_nr + 1, cond->urls_alloc);
		cond->urls[cond->urls_nr++] = xstrdup(cfg->entries[i].value);
	}
	return resolve_hasconfig(cfg, cond);
}

int
config_get(const struct config *cfg, const char *key, const char **value)
{
	for (size_t i = cfg->nr; i-- > 0;) {
		if (!strcmp(cfg->entries[i].key, key)) {
			*value = cfg->entries[i].value;
			return 1;
		}
	}
	return 0;
}

int
config_parse_bool(const char *v)
{
	if (!v)
		return 1;
	if (!strcasecmp(v, "true") || !strcasecmp(v, "yes") ||
	    !strcasecmp(v, "on"))
		return 1;
	if (!*v || !strcasecmp(v, "false") || !strcasecmp(v, "no") ||
	    !strcasecmp(v, "off"))
		return 0;
	{
		long n;

		if (!config_parse_long(v, &n))
			return n != 0;
	}
	return -1;
}

/* 0 ok, -1 bad unit, -2 out of range */
static int
parse_long_detail(const char *v, long *out)
{
	long long n, factor = 1;
	char *end;

	if (!v || !*v)
		return -1;
	errno = 0;
	n = strtoll(v, &end, 0);
	if (errno == ERANGE)
		return -2;
	if (end == v)
		return -1;
	if (*end) {
		switch (tolower((unsigned char)*end)) {
		case 'k':
			factor = 1024;
			break;
		case 'm':
			factor = 1024 * 1024;
			break;
		case 'g':
			factor = 1024 * 1024 * 1024;
			break;
		default:
			return -1;
		}
		if (end[1])
			return -1;
	}
	if (n > LONG_MAX / factor || n < LONG_MIN / factor)
		return -2;
	*out = (long)(n * factor);
	return 0;
}

int
config_parse_long(const char *value, long *out)
{
	return parse_long_detail(value, out) ? -1 : 0;
}

int
config_get_bool(const struct config *cfg, const char *key, int *out)
{
	const char *v;
	int b;

	if (!config_get(cfg, key, &v))
		return 0;
	b = config_parse_bool(v);
	if (b < 0)
		return error_set(E_INVALID, "bad boolean config value '%s' "
				 "for '%s'", v, key);
	*out = b;
	return 1;
}

int
config_get_long(const struct config *cfg, const char *key, long *out)
{
	const char *v;
	int r;

	if (!config_get(cfg, key, &v))
		return 0;
	if (!v)
		return error_set(E_INVALID, "bad numeric config value '' for "
				 "'%s': invalid unit", key);
	r = parse_long_detail(v, out);
	if (r)
		return error_set(E_INVALID, "bad numeric config value '%s' for "
				 "'%s': %s", v, key,
				 r == -2 ? "out of range" : "invalid unit");
	return 1;
}

int
config_get_string(const struct config *cfg, const char *key,
		  const char **out)
{
	const char *v;

	if (!config_get(cfg, key, &v))
		return 0;
	if (!v)
		return error_set(E_INVALID, "missing value for '%s'", key);
	*out = v;
	return 1;
}
