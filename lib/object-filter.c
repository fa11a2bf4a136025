/*
 * object-filter: parse filter specs as git's list-objects-filter-options
 * does.  The order of the checks is git's, for its messages:
 *
 *   "auto"                 refused: no command of dirc's takes it
 *   "blob:none"            exactly
 *   "blob:limit=<n>"       n as git_parse_ulong(): strtoumax base 0
 *                          (leading blanks, "0x", "0" octal), no '-',
 *                          an optional k, m or g (any case), no overflow;
 *                          else "invalid filter-spec"
 *   "tree:<n>"             n as above, else "expected 'tree:<depth>'"
 *   "sparse:oid=<any>"     kept by kind only
 *   "sparse:path=<any>"    refused: git dropped it
 *   "object:type=<t>"      one of the four types, exactly
 *   "combine:<subs>"       '+'-separated, empty ones skipped, each
 *                          checked for unescaped reserved bytes, then
 *                          %-decoded and parsed ("auto" refused)
 */
#include "object-filter.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "strbuf.h"

#define AUTO_REFUSED "'auto' filter not supported by this command"

/* git_parse_ulong(): 1 and *out, or 0. */
static int
parse_ulong(const char *v, uintmax_t *out)
{
	uintmax_t n, factor = 1;
	char *end;

	if (!*v || strchr(v, '-'))
		return 0;
	errno = 0;
	n = strtoumax(v, &end, 0);
	if (errno == ERANGE || end == v)
		return 0;
	if (*end) {
		if (end[1])
			return 0;
		switch (*end) {
		case 'k': case 'K': factor = 1024; break;
		case 'm': case 'M': factor = 1024 * 1024; break;
		case 'g': case 'G': factor = 1024 * 1024 * 1024; break;
		default: return 0;
		}
	}
	/* git_parse_ulong's limit is ULONG_MAX */
	if (n > (uintmax_t)ULONG_MAX / factor)
		return 0;
	*out = n * factor;
	return 1;
}

static int
hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* git's url_percent_decode(): "%XX" (not "%00") decoded, the rest kept */
static void
percent_decode(struct strbuf *out, const char *s)
{
	while (*s) {
		int hi = s[0] == '%' ? hex_digit(s[1]) : -1;
		int lo = hi >= 0 ? hex_digit(s[2]) : -1;

		if (lo >= 0 && (hi << 4 | lo) > 0) {
			strbuf_addch(out, hi << 4 | lo);
			s += 3;
		} else {
			strbuf_addch(out, *s++);
		}
	}
}

static int parse_one(struct object_filter *f, const char *spec);

static int
parse_combine(const char *subs)
{
	static const char reserved[] = "~`!@#$^&*()[]{}\\;'\",<>?";
	struct strbuf sub = STRBUF_INIT, decoded = STRBUF_INIT;
	const char *p = subs;
	int ret = 0;

	if (!*p)
		return error_set(E_INVALID,
				 "expected something after combine:");
	while (!ret) {
		size_t n = strcspn(p, "+");

		strbuf_reset(&sub);
		strbuf_add(&sub, p, n);
		if (sub.len) {
			struct object_filter one = OBJECT_FILTER_INIT;

			for (const char *c = sub.buf; *c && !ret; c++)
				/* git's char is signed: bytes past 0x7f too */
				if ((signed char)*c <= ' ' ||
				    strchr(reserved, *c))
					ret = error_set(E_INVALID,
							"must escape char in "
							"sub-filter-spec: '%c'",
							*c);
			if (!ret) {
				strbuf_reset(&decoded);
				percent_decode(&decoded, sub.buf);
				ret = parse_one(&one, decoded.buf);
			}
		}
		if (!p[n])
			break;
		p += n + 1;
	}
	strbuf_release(&sub);
	strbuf_release(&decoded);
	return ret;
}

static int
parse_one(struct object_filter *f, const char *spec)
{
	const char *v;

	if (!strcmp(spec, "auto"))
		return error_set(E_INVALID, AUTO_REFUSED);
	if (!strcmp(spec, "blob:none")) {
		f->choice = OBJECT_FILTER_BLOB_NONE;
		return 0;
	}
	if (!strncmp(spec, "blob:limit=", 11)) {
		if (parse_ulong(spec + 11, &f->blob_limit)) {
			f->choice = OBJECT_FILTER_BLOB_LIMIT;
			return 0;
		}
	} else if (!strncmp(spec, "tree:", 5)) {
		uintmax_t depth;

		if (!parse_ulong(spec + 5, &depth))
			return error_set(E_INVALID, "expected 'tree:<depth>'");
		f->choice = OBJECT_FILTER_TREE_DEPTH;
		return 0;
	} else if (!strncmp(spec, "sparse:oid=", 11)) {
		f->choice = OBJECT_FILTER_SPARSE_OID;
		return 0;
	} else if (!strncmp(spec, "sparse:path=", 12)) {
		return error_set(E_INVALID, "sparse:path filters support has "
				 "been dropped");
	} else if (!strncmp(spec, "object:type=", 12)) {
		v = spec + 12;
		f->type = type_from_name(v, strlen(v));
		if (f->type == OBJ_BAD)
			return error_set(E_INVALID, "'%s' for "
					 "'object:type=<type>' is not a valid "
					 "object type", v);
		f->choice = OBJECT_FILTER_OBJECT_TYPE;
		return 0;
	} else if (!strncmp(spec, "combine:", 8)) {
		int ret = parse_combine(spec + 8);

		if (!ret)
			f->choice = OBJECT_FILTER_COMBINE;
		return ret;
	}
	return error_set(E_INVALID, "invalid filter-spec '%s'", spec);
}

int
object_filter_add(struct object_filter *f, const char *spec)
{
	struct object_filter one = OBJECT_FILTER_INIT;
	int ret = parse_one(&one, spec);

	if (ret < 0)
		return ret;
	/* a second --filter: git makes the two a combine: filter */
	if (f->choice != OBJECT_FILTER_NONE)
		one.choice = OBJECT_FILTER_COMBINE;
	*f = one;
	return 0;
}

const char *
object_filter_name(enum object_filter_choice choice)
{
	switch (choice) {
	case OBJECT_FILTER_BLOB_NONE:
		return "blob:none";
	case OBJECT_FILTER_BLOB_LIMIT:
		return "blob:limit";
	case OBJECT_FILTER_TREE_DEPTH:
		return "tree";
	case OBJECT_FILTER_SPARSE_OID:
		return "sparse:oid";
	case OBJECT_FILTER_OBJECT_TYPE:
		return "object:type";
	case OBJECT_FILTER_COMBINE:
		return "combine";
	case OBJECT_FILTER_NONE:
		break;
	}
	return "";
}
