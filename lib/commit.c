/*
 * commit: headers, identities, UTF-8 checks.
 *
 * Commit layout:  "tree <hex>\n" ("parent <hex>\n")* "author <ident>\n"
 * "committer <ident>\n" ["encoding <name>\n"] "\n" <message>
 */
#include "commit.h"

#include <pwd.h>
#include <unistd.h>

#include "config.h"
#include "date.h"
#include "error.h"
#include "repo.h"

int
commit_parse(struct commit_info *out, const void *buf, size_t len,
	     const struct object_id *id)
{
	const char *p = buf, *end = p + len;
	size_t alloc = 0;

	memset(out, 0, sizeof(*out));
	if (len < 5 + HASH_HEXSZ + 1 || memcmp(p, "tree ", 5) ||
	    hex_to_oid(&out->tree, p + 5) || p[5 + HASH_HEXSZ] != '\n')
		goto bogus;
	p += 5 + HASH_HEXSZ + 1;
	while (end - p >= 7 + HASH_HEXSZ + 1 && !memcmp(p, "parent ", 7)) {
		ALLOC_GROW(out->parents, out->nr_parents + 1, alloc);
		if (hex_to_oid(&out->parents[out->nr_parents], p + 7) ||
		    p[7 + HASH_HEXSZ] != '\n')
			goto bogus;
		out->nr_parents++;
		p += 7 + HASH_HEXSZ + 1;
	}
	return 0;
bogus:
	commit_info_release(out);
	return error_set(E_CORRUPT, "bogus commit object %s", oid_to_hex(id));
}

void
commit_info_release(struct commit_info *info)
{
	free(info->parents);
	memset(info, 0, sizeof(*info));
}

static int
is_crud(unsigned char c)
{
	return c <= 32 || c == '.' || c == ',' || c == ':' || c == ';' ||
	       c == '<' || c == '>' || c == '"' || c == '\\' || c == '\'';
}

void
ident_sanitize(struct strbuf *out, const char *in)
{
	const char *end = in + strlen(in);

	while (in < end && is_crud(*in))
		in++;
	while (end > in && is_crud(end[-1]))
		end--;
	for (; in < end; in++)
		if (*in != '<' && *in != '>' && *in != '\n')
			strbuf_addch(out, *in);
}

static const char *
first_of(struct repo *repo, const char *env, const char *k1,
	 const char *k2)
{
	const char *v = getenv(env);

	if (v)
		return v;
	if (k1 && config_get(&repo->config, k1, &v) && v)
		return v;
	if (k2 && config_get(&repo->config, k2, &v) && v)
		return v;
	return NULL;
}

static void
system_name(struct strbuf *out)
{
	struct passwd *pw = getpwuid(getuid());

	if (pw && pw->pw_gecos && *pw->pw_gecos) {
		const char *comma = strchr(pw->pw_gecos, ',');

		strbuf_add(out, pw->pw_gecos, comma ? (size_t)(comma -
			   pw->pw_gecos) : strlen(pw->pw_gecos));
	} else if (pw) {
		strbuf_addstr(out, pw->pw_name);
	}
}

/*
 * A reflog's name: the one given, else the system's; an empty one is
 * the login name.  Never fails, as git's non-strict identity.
 */
static void
lax_name(struct strbuf *out, const char *name)
{
	struct strbuf sys = STRBUF_INIT;
	struct passwd *pw;

	if (!name) {
		system_name(&sys);
		strbuf_trim(&sys);
		name = sys.buf;
	}
	if (!*name && (pw = getpwuid(getuid())))
		name = pw->pw_name;
	ident_sanitize(out, name);
	strbuf_release(&sys);
}

/* "user@host" the way git guesses it; *bogus if the domain is unknown */
static void
system_email(struct strbuf *out, int *bogus)
{
	struct passwd *pw = getpwuid(getuid());
	char host[256];

	strbuf_addstr(out, pw ? pw->pw_name : "unknown");
	strbuf_addch(out, '@');
	if (gethostname(host, sizeof(host)) < 0) {
		strbuf_addstr(out, "(none)");
		*bogus = 1;
		return;
	}
	host[sizeof(host) - 1] = '\0';
	strbuf_addstr(out, host);
	if (!strchr(host, '.')) {
		strbuf_addstr(out, ".(none)");
		*bogus = 1;
	}
}

static const char identity_hint[] =
	"Author identity unknown\n\n"
	"*** Tell git (and dirc) who you are: set user.name and "
	"user.email,\n"
	"*** for example with\n\n"
	"  git config --global user.email \"you@example.com\"\n"
	"  git config --global user.name \"Your Name\"\n\n"
	"*** (drop --global to set them for this repository only).\n";

int
ident_get(struct strbuf *out, struct repo *repo, enum ident_who who,
	  unsigned flags)
{
	int author = who == IDENT_AUTHOR, strict = flags & IDENT_STRICT;
	const char *name = first_of(repo, author ? "GIT_AUTHOR_NAME" :
				    "GIT_COMMITTER_NAME", author ?
				    "author.name" : "committer.name",
				    "user.name");
	const char *email = first_of(repo, author ? "GIT_AUTHOR_EMAIL" :
				     "GIT_COMMITTER_EMAIL", author ?
				     "author.email" : "committer.email",
				     "user.email");
	const char *date = getenv(author ? "GIT_AUTHOR_DATE" :
				  "GIT_COMMITTER_DATE");
	struct strbuf n = STRBUF_INIT, e = STRBUF_INIT, guess = STRBUF_INIT;
	int config_only = 0, bogus = 0, ret = 0;
	long long epoch;
	int tz;

	if (strict)
		config_get_bool(&repo->config, "user.useconfigonly",
				&config_only);
	if (!email)
		email = getenv("EMAIL");
	if (!email) {
		if (config_only) {
			diag_emit(DIAG_PLAIN, "%s", identity_hint);
			ret = error_set(E_INVALID, "no email was given and "
					"auto-detection is disabled");
			goto out;
		}
		system_email(&guess, &bogus);
		if (bogus && strict) {
			diag_emit(DIAG_PLAIN, "%s", identity_hint);
			ret = error_set(E_INVALID, "unable to auto-detect email "
					"address (got '%s')", guess.buf);
			goto out;
		}
		email = guess.buf;
	}
	if (!strict) {
		lax_name(&n, name);
	} else if (!name) {
		struct strbuf sys = STRBUF_INIT;

		if (config_only) {
			diag_emit(DIAG_PLAIN, "%s", identity_hint);
			ret = error_set(E_INVALID, "no name was given and "
					"auto-detection is disabled");
			goto out;
		}
		system_name(&sys);
		ident_sanitize(&n, sys.buf);
		strbuf_release(&sys);
		if (!n.len) {
			diag_emit(DIAG_PLAIN, "%s", identity_hint);
			ret = error_set(E_INVALID, "empty ident name (for <%s>) "
					"not allowed", email);
			goto out;
		}
	} else {
		ident_sanitize(&n, name);
		if (!*name) {
			ret = error_set(E_INVALID, "empty ident name (for <%s>) "
					"not allowed", email);
			goto out;
		}
		if (!n.len) {
			ret = error_set(E_INVALID, "name consists only of "
					"disallowed characters: %s", name);
			goto out;
		}
	}
	ident_sanitize(&e, email);
	if (date && *date) {
		if (date_parse(date, &epoch, &tz) < 0) {
			ret = error_set(E_INVALID, "invalid date format: %s",
					date);
			goto out;
		}
	} else {
		date_now(&epoch, &tz);
	}
	strbuf_addf(out, "%s <%s> ", n.buf, e.buf);
	date_format_internal(out, epoch, tz);
out:
	strbuf_release(&n);
	strbuf_release(&e);
	strbuf_release(&guess);
	return ret;
}

/* Length of the valid UTF-8 sequence at s (0 if invalid). */
static size_t
utf8_seq(const unsigned char *s, size_t left)
{
	unsigned cp, need;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		need = 1;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		need = 2;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		need = 3;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (left < need + 1)
		return 0;
	for (unsigned i = 1; i <= need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong, out of range, surrogates, non-characters */
	if ((need == 1 && cp < 0x80) || (need == 2 && cp < 0x800) ||
	    (need == 3 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff) || (cp & 0xfffe) == 0xfffe ||
	    (cp >= 0xfdd0 && cp <= 0xfdef))
		return 0;
	return need + 1;
}

int
utf8_is_valid(const char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)buf;

	while (len) {
		size_t n = utf8_seq(p, len);

		if (!n)
			return 0;
		p += n;
		len -= n;
	}
	return 1;
}

void
utf8_repair(struct strbuf *sb)
{
	struct strbuf out = STRBUF_INIT;
	const unsigned char *p = (const unsigned char *)sb->buf;
	size_t left = sb->len;

	while (left) {
		size_t n = utf8_seq(p, left);

		if (n) {
			strbuf_add(&out, p, n);
		} else {
			/* the byte as a Latin-1 character */
			strbuf_addch(&out, 0xc0 | (p[0] >> 6));
			strbuf_addch(&out, 0x80 | (p[0] & 0x3f));
			n = 1;
		}
		p += n;
		left -= n;
	}
	strbuf_release(sb);
	*sb = out;
}
