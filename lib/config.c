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
 * including file), ten levels deep at most, and so is
 * includeIf.onbranch:<pattern>.path when the caller's branch matches.
 */
#include "config.h"

#include <ctype.h>
#include <limits.h>
#include <strings.h>

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
	}
	free(cfg->entries);
	config_init(cfg);
}

static void
push(struct config *cfg, char *key, char *value)
{
	ALLOC_GROW(cfg->entries, cfg->nr + 1, cfg->alloc);
	cfg->entries[cfg->nr].key = key;
	cfg->entries[cfg->nr].value = value;
	cfg->nr++;
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
	for (size_t i = 0; i < src->nr; i++)
		push(dst, src->entries[i].key, src->entries[i].value);
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

static int include_path(struct config *cfg, struct parser *ps,
			const char *path, int depth);

/*
 * Is key (canonical) an include to follow: include.path, or
 * includeIf.onbranch:<pattern>.path with a pattern cfg->onbranch
 * matches (a pattern ending in '/' as if "**" followed, git's rule)?
 * Other includeIf conditions are not evaluated: never followed.
 */
static int
is_include(const struct config *cfg, const char *key)
{
	struct strbuf pattern = STRBUF_INIT;
	const char *cond;
	int match;

	if (!strcmp(key, "include.path"))
		return 1;
	if (!cfg || !cfg->onbranch ||
	    !skip_prefix(key, "includeif.onbranch:", &cond) ||
	    !ends_with(cond, ".path"))
		return 0;
	strbuf_add(&pattern, cond, strlen(cond) - 5);
	if (pattern.len && pattern.buf[pattern.len - 1] == '/')
		strbuf_addstr(&pattern, "**");
	match = wildmatch(pattern.buf, cfg->onbranch, WM_PATHNAME) ==
		WM_MATCH;
	strbuf_release(&pattern);
	return match;
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
	if (value && depth >= 0 && is_include(cfg, key.buf)) {
		ret = include_path(cfg, ps, value, depth);
		free(value);
		goto out;
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
include_path(struct config *cfg, struct parser *ps, const char *path,
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
		const char *slash = ps->origin ? strrchr(ps->origin, '/') : NULL;

		if (!ps->origin)
			return error_set(E_INVALID, "relative config includes "
					 "must come from files");
		if (slash)
			strbuf_add(&full, ps->origin, slash - ps->origin + 1);
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
	int ret = config_canon_key(&canon, key, keylen);

	if (ret < 0)
		return ret;
	if (value && is_include(cfg, canon)) {
		struct parser ps = { .origin = NULL };

		free(canon);
		/* no file anchors a relative one: include_path() refuses */
		return include_path(cfg, &ps, value, 0);
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
