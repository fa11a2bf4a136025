/*
 * convert: the clean and smudge pipelines (see convert.h).
 *
 * The end-of-line rules, git 2.39's, in the order they decide:
 *
 *   action   text (set: "text", unset: "binary", "input", "auto"), else
 *            the crlf attribute read the same way
 *   eol      unless binary: eol=lf makes auto "auto-input" and anything
 *            else "text-input"; eol=crlf "auto-crlf" / "text-crlf"
 *   text     becomes text-crlf when core.autocrlf=true or (autocrlf
 *            not "input" and core.eol=crlf), else text-input
 *   nothing  core.autocrlf=true: auto-crlf; =input: auto-input; else
 *            binary
 *
 * In (clean): every action but binary turns CRLF into LF; the auto ones
 * leave alone a file that looks binary and one whose index blob holds
 * a CRLF.  Out (smudge): the actions whose output is CRLF (text-crlf,
 * auto-crlf, auto when the text default is CRLF) turn each LF not after
 * a CR into CRLF; the auto ones only in a file without CR that does not
 * look binary.  safecrlf compares the line endings of the file with
 * those a clean then smudge would give it.
 */
#include "convert.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "attr.h"
#include "config.h"
#include "eol.h"
#include "error.h"
#include "fileio.h"
#include "filter.h"
#include "index.h"
#include "odb.h"
#include "repo.h"

enum { A_TEXT, A_CRLF, A_EOL, A_IDENT, A_FILTER, A_WTE, A_NR };
static const char *const attr_names[A_NR] = {
	"text", "crlf", "eol", "ident", "filter", "working-tree-encoding",
};

enum safecrlf { SAFE_NONE, SAFE_WARN, SAFE_DIE };

struct convert {
	struct repo *repo;		/* borrowed */
	struct odb *odb;		/* borrowed; may be NULL */
	struct attr_set *attrs;		/* owned */
	int ids[A_NR];
	int autocrlf;			/* 0 false, 1 true, 2 input */
	int eol_crlf;			/* core.eol=crlf */
	enum safecrlf safecrlf;
	unsigned flags;
	pthread_mutex_t filter_lock;	/* one filter call at a time */
	struct filter_session *filters;	/* owned; made on first need */
};

struct convert *
convert_new(struct repo *repo, struct index *idx, struct odb *odb,
	    unsigned flags)
{
	struct convert *cv = xcalloc(1, sizeof(*cv));
	const char *v;

	cv->repo = repo;
	cv->odb = odb;
	cv->flags = flags;
	cv->attrs = attr_set_new(repo, idx, odb, flags & CONVERT_INDEX_FIRST ?
				 ATTR_CHECKOUT : ATTR_CHECKIN);
	for (int i = 0; i < A_NR; i++)
		cv->ids[i] = attr_intern(cv->attrs, attr_names[i],
					 strlen(attr_names[i]));
	if (config_get(&repo->config, "core.autocrlf", &v)) {
		if (v && !strcasecmp(v, "input"))
			cv->autocrlf = 2;
		else
			cv->autocrlf = config_parse_bool(v) == 1;
	}
	if (config_get(&repo->config, "core.eol", &v) && v)
		cv->eol_crlf = !strcasecmp(v, "crlf");
	cv->safecrlf = SAFE_WARN;
	if (config_get(&repo->config, "core.safecrlf", &v)) {
		if (v && !strcasecmp(v, "warn"))
			cv->safecrlf = SAFE_WARN;
		else
			cv->safecrlf = config_parse_bool(v) == 1 ? SAFE_DIE :
				       SAFE_NONE;
	}
	pthread_mutex_init(&cv->filter_lock, NULL);
	return cv;
}

int
convert_free(struct convert *cv)
{
	int ret;

	if (!cv)
		return 0;
	ret = filter_session_end(cv->filters);
	attr_set_free(cv->attrs);
	pthread_mutex_destroy(&cv->filter_lock);
	free(cv);
	return ret;
}

/* Does the configuration define driver (any of its four keys)? */
static int
driver_defined(struct convert *cv, const char *driver, int *required)
{
	static const char *const keys[] = {
		"clean", "smudge", "process", "required",
	};
	struct strbuf key = STRBUF_INIT;
	int found = 0;

	*required = 0;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *v;

		strbuf_reset(&key);
		strbuf_addf(&key, "filter.%s.%s", driver, keys[i]);
		if (!config_get(&cv->repo->config, key.buf, &v))
			continue;
		found = 1;
		if (i == 3)
			*required = config_parse_bool(v) == 1;
	}
	strbuf_release(&key);
	return found;
}

/* text or crlf as an action; -1 unspecified. */
static int
action_of(const char *v)
{
	if (v == ATTR_TRUE)
		return CONVERT_CRLF_TEXT_INPUT + 100;	/* "text", decided below */
	if (v == ATTR_FALSE)
		return CONVERT_CRLF_BINARY;
	if (!v)
		return -1;
	if (!strcmp(v, "input"))
		return CONVERT_CRLF_TEXT_INPUT;
	if (!strcmp(v, "auto"))
		return CONVERT_CRLF_AUTO;
	return -1;
}

#define ACTION_TEXT (CONVERT_CRLF_TEXT_INPUT + 100)

/* git's default for "text": CRLF out? */
static int
text_eol_is_crlf(const struct convert *cv)
{
	if (cv->autocrlf == 1)
		return 1;
	if (cv->autocrlf == 2)
		return 0;
	return cv->eol_crlf;
}

/* The action the attributes alone give (-1: none, or ACTION_TEXT). */
static int
attr_action(struct convert *cv, const struct attr_values *av)
{
	const char *eol;
	int act;

	act = action_of(attr_value(av, cv->ids[A_TEXT]));
	if (act < 0)
		act = action_of(attr_value(av, cv->ids[A_CRLF]));
	eol = attr_value(av, cv->ids[A_EOL]);
	if (act != CONVERT_CRLF_BINARY && ATTR_HAS_VALUE(eol)) {
		if (!strcmp(eol, "lf"))
			act = act == (int)CONVERT_CRLF_AUTO ?
			      CONVERT_CRLF_AUTO_INPUT : CONVERT_CRLF_TEXT_INPUT;
		else if (!strcmp(eol, "crlf"))
			act = act == (int)CONVERT_CRLF_AUTO ?
			      CONVERT_CRLF_AUTO_CRLF : CONVERT_CRLF_TEXT_CRLF;
	}
	return act;
}

const char *
convert_attr_ascii(struct convert *cv, const char *path)
{
	struct attr_values av = ATTR_VALUES_INIT;
	int act;

	attr_get(&av, cv->attrs, path);
	act = attr_action(cv, &av);
	attr_values_release(&av);
	switch (act) {
	case CONVERT_CRLF_BINARY:
		return "-text";
	case ACTION_TEXT:
		return "text";
	case CONVERT_CRLF_TEXT_INPUT:
		return "text eol=lf";
	case CONVERT_CRLF_TEXT_CRLF:
		return "text eol=crlf";
	case CONVERT_CRLF_AUTO:
		return "text=auto";
	case CONVERT_CRLF_AUTO_CRLF:
		return "text=auto eol=crlf";
	case CONVERT_CRLF_AUTO_INPUT:
		return "text=auto eol=lf";
	default:
		return "";
	}
}

void
convert_plan_for(struct convert_plan *out, struct convert *cv,
		 const char *path)
{
	struct attr_values av = ATTR_VALUES_INIT;
	const char *v;
	int act;

	memset(out, 0, sizeof(*out));
	attr_get(&av, cv->attrs, path);
	act = attr_action(cv, &av);
	if (act == ACTION_TEXT)
		act = text_eol_is_crlf(cv) ? CONVERT_CRLF_TEXT_CRLF :
		      CONVERT_CRLF_TEXT_INPUT;
	if (act < 0)
		act = cv->autocrlf == 1 ? CONVERT_CRLF_AUTO_CRLF :
		      cv->autocrlf == 2 ? CONVERT_CRLF_AUTO_INPUT :
		      CONVERT_CRLF_BINARY;
	out->crlf = act;
	out->ident = attr_value(&av, cv->ids[A_IDENT]) == ATTR_TRUE;
	v = attr_value(&av, cv->ids[A_FILTER]);
	if (ATTR_HAS_VALUE(v) && driver_defined(cv, v, &out->required))
		out->driver = v;
	v = attr_value(&av, cv->ids[A_WTE]);
	if (v && (!ATTR_HAS_VALUE(v) ||
		  (*v && strcasecmp(v, "UTF-8") && strcasecmp(v, "UTF8"))))
		out->encoding = v;
	attr_values_release(&av);
}

int
convert_plan_cleans(const struct convert *cv, const struct convert_plan *p)
{
	(void)cv;
	return p->crlf != CONVERT_CRLF_BINARY || p->ident || p->driver ||
	       p->encoding;
}

/* Is the output of crlf CRLF line endings? */
static int
output_crlf(const struct convert *cv, enum convert_crlf crlf)
{
	switch (crlf) {
	case CONVERT_CRLF_TEXT_CRLF:
	case CONVERT_CRLF_AUTO_CRLF:
		return 1;
	case CONVERT_CRLF_AUTO:
		return text_eol_is_crlf(cv);
	default:
		return 0;
	}
}

int
convert_plan_smudges(const struct convert *cv, const struct convert_plan *p)
{
	return output_crlf(cv, p->crlf) || p->ident || p->driver ||
	       p->encoding;
}

static int
is_auto(enum convert_crlf crlf)
{
	return crlf == CONVERT_CRLF_AUTO || crlf == CONVERT_CRLF_AUTO_INPUT ||
	       crlf == CONVERT_CRLF_AUTO_CRLF;
}

/* git's binary guess (eol.h's "-text"). */
static int
looks_binary(const struct eol_stats *st)
{
	size_t nonprintable = st->nonprintable;

	if (st->total && st->last == 032)
		nonprintable--;
	return st->lone_cr || st->pending_cr || st->nul ||
	       (st->printable >> 7) < nonprintable;
}

/* Would a smudge under crlf add CRs to content with these counts? */
static int
adds_cr(const struct convert *cv, enum convert_crlf crlf,
	const struct eol_stats *st)
{
	if (!output_crlf(cv, crlf) || !st->lone_lf)
		return 0;
	if (is_auto(crlf) && (st->lone_cr || st->pending_cr || st->crlf ||
			      looks_binary(st)))
		return 0;
	return 1;
}

static int
blob_has_crlf(struct convert *cv, const struct object_id *oid)
{
	struct odb_object obj = ODB_OBJECT_INIT;
	int has = 0;

	if (!oid || !cv->odb)
		return 0;
	if (odb_read(&obj, cv->odb, oid, 0) < 0) {
		error_clear();
		return 0;
	}
	if (obj.type == OBJ_BLOB && memchr(obj.data, '\r', obj.size)) {
		struct eol_stats st = EOL_STATS_INIT;

		/* git's rule: a CRLF in a blob that does not look binary */
		eol_stats_add(&st, obj.data, obj.size);
		has = st.crlf && !looks_binary(&st);
	}
	odb_object_release(&obj);
	return has;
}

/* git's safecrlf warning for path: "CRLF ... LF" (crlf) or the reverse */
static void
warn_msg(struct strbuf *warn, int crlf, const char *path)
{
	const char *from = crlf ? "CRLF" : "LF", *to = crlf ? "LF" : "CRLF";

	if (!warn) {
		diag_emit(DIAG_WARNING, "in the working copy of '%s', %s will "
			  "be replaced by %s the next time Git touches it",
			  path, from, to);
		return;
	}
	strbuf_addf(warn, "in the working copy of '%s', %s will be replaced "
		    "by %s the next time Git touches it", path, from, to);
	strbuf_addch(warn, '\0');
}

/*
 * The clean decision for content whose line endings were counted in st
 * (all of it): 1 nothing changes; 0 each CR before LF goes (under auto,
 * which refused lone CRs, every CR); -E_* safecrlf refused.  With
 * git's safecrlf warnings.
 */
static int
crlf_decide(struct convert *cv, const struct convert_plan *p,
	    const char *path, struct eol_stats *st,
	    const struct object_id *index_blob, unsigned flags,
	    struct strbuf *warn)
{
	int strip = 1;
	enum safecrlf safe = flags & CONVERT_SAFECRLF ? cv->safecrlf :
			     SAFE_NONE;

	if (st->pending_cr) {
		st->pending_cr = 0;
		st->lone_cr++;
	}
	if (is_auto(p->crlf)) {
		if (looks_binary(st))
			return 1;
		if (blob_has_crlf(cv, index_blob))
			strip = 0;
	}
	if (safe != SAFE_NONE) {
		struct eol_stats rt = *st;

		if (strip) {
			rt.lone_lf += rt.crlf;
			rt.crlf = 0;
		}
		if (adds_cr(cv, p->crlf, &rt)) {
			rt.crlf += rt.lone_lf;
			rt.lone_lf = 0;
		}
		if (st->crlf && !rt.crlf) {
			if (safe == SAFE_DIE)
				return error_set(E_INVALID, "CRLF would be "
						 "replaced by LF in %s", path);
			warn_msg(warn, 1, path);
		} else if (st->lone_lf && !rt.lone_lf) {
			if (safe == SAFE_DIE)
				return error_set(E_INVALID, "LF would be "
						 "replaced by CRLF in %s", path);
			warn_msg(warn, 0, path);
		}
	}
	return !strip || !st->crlf;
}

/* CRLF to LF (clean), with git's safecrlf check.  0 changed, 1 not. */
static int
crlf_to_git(struct strbuf *out, struct convert *cv,
	    const struct convert_plan *p, const char *path,
	    const unsigned char *in, size_t len,
	    const struct object_id *index_blob, unsigned flags,
	    struct strbuf *warn)
{
	struct eol_stats st = EOL_STATS_INIT;
	int ret;

	if (p->crlf == CONVERT_CRLF_BINARY || !len)
		return 1;
	eol_stats_add(&st, in, len);
	ret = crlf_decide(cv, p, path, &st, index_blob, flags, warn);
	if (ret)
		return ret;
	strbuf_reset(out);
	strbuf_grow(out, len);
	for (size_t i = 0; i < len; i++) {
		/* auto rejected lone CRs already: every CR goes */
		if (in[i] == '\r' &&
		    (is_auto(p->crlf) || (i + 1 < len && in[i + 1] == '\n')))
			continue;
		out->buf[out->len++] = in[i];
	}
	out->buf[out->len] = '\0';
	return 0;
}

/* LF to CRLF (smudge).  0 changed, 1 not. */
static int
crlf_to_worktree(struct strbuf *out, struct convert *cv,
		 const struct convert_plan *p, const unsigned char *in,
		 size_t len)
{
	struct eol_stats st = EOL_STATS_INIT;

	if (!len || !output_crlf(cv, p->crlf))
		return 1;
	eol_stats_add(&st, in, len);
	if (st.pending_cr) {
		st.pending_cr = 0;
		st.lone_cr++;
	}
	if (!adds_cr(cv, p->crlf, &st))
		return 1;
	strbuf_reset(out);
	strbuf_grow(out, len + st.lone_lf);
	for (size_t i = 0; i < len; i++) {
		if (in[i] == '\n' && (!i || in[i - 1] != '\r'))
			out->buf[out->len++] = '\r';
		out->buf[out->len++] = in[i];
	}
	out->buf[out->len] = '\0';
	return 0;
}

/*
 * The keywords ident touches: "$Id$", and "$Id:" up to the next '$' on
 * the same line.
 */
static size_t
count_ident(const unsigned char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		if (s[i] != '$' || len - i - 1 < 3 || memcmp(s + i + 1, "Id", 2))
			continue;
		i += 3;
		if (s[i] == '$') {
			n++;
			continue;
		}
		if (s[i] != ':')
			continue;
		for (i++; i < len; i++) {
			if (s[i] == '$') {
				n++;
				break;
			}
			if (s[i] == '\n')
				break;
		}
	}
	return n;
}

/* "$Id: ...$" back to "$Id$".  0 changed, 1 not. */
static int
ident_to_git(struct strbuf *out, const unsigned char *in, size_t len)
{
	size_t i = 0;

	if (!count_ident(in, len))
		return 1;
	strbuf_reset(out);
	while (i < len) {
		const unsigned char *dollar = memchr(in + i, '$', len - i);
		const unsigned char *close;
		size_t at;

		if (!dollar)
			break;
		at = dollar - in + 1;
		strbuf_add(out, in + i, at - i);
		i = at;
		if (len - i <= 3 || memcmp(in + i, "Id:", 3))
			continue;
		close = memchr(in + i + 3, '$', len - i - 3);
		if (!close)
			break;
		if (memchr(in + i + 3, '\n', close - (in + i + 3)))
			continue;
		strbuf_add(out, "Id$", 3);
		i = close - in + 1;
	}
	strbuf_add(out, in + i, len - i);
	return 0;
}

/* "$Id$" (and a git-style "$Id: x $") to "$Id: <blob id> $".  0 or 1. */
static int
ident_to_worktree(struct strbuf *out, const unsigned char *in, size_t len)
{
	struct object_id oid;
	char hex[HASH_MAX_HEXSZ + 1];
	size_t i = 0;

	if (!count_ident(in, len))
		return 1;
	odb_hash(&oid, "blob", in, len);
	oid_to_hex_r(hex, &oid);
	hex[HASH_HEXSZ] = '\0';
	strbuf_reset(out);
	while (i < len) {
		const unsigned char *dollar = memchr(in + i, '$', len - i);
		size_t at;

		if (!dollar)
			break;
		at = dollar - in + 1;
		strbuf_add(out, in + i, at - i);
		i = at;
		if (len - i < 3 || memcmp(in + i, "Id", 2))
			continue;
		if (in[i + 2] == '$') {
			i += 3;
		} else if (in[i + 2] == ':') {
			const unsigned char *close, *spc;

			close = memchr(in + i + 3, '$', len - i - 3);
			if (!close)
				break;
			if (memchr(in + i + 3, '\n', close - (in + i + 3)))
				continue;
			/* another system's keyword, with spaces: kept */
			spc = close - (in + i) > 4 ?
			      memchr(in + i + 4, ' ', close - (in + i + 4)) :
			      NULL;
			if (spc && spc < close - 1)
				continue;
			i = close - in + 1;
		} else {
			continue;
		}
		strbuf_addf(out, "Id: %s $", hex);
	}
	strbuf_add(out, in + i, len - i);
	return 0;
}

static int
refuse_encoding(const struct convert_plan *p, const char *path)
{
	if (!ATTR_HAS_VALUE(p->encoding))
		return error_set(E_INVALID, "true/false are no valid "
				 "working-tree-encodings");
	return error_set(E_UNSUPPORTED, "%s: working-tree-encoding=%s: dirc "
			 "does not re-encode content (see dirc-update-cache(1))",
			 path, p->encoding);
}

/* The driver, in direction dir.  0 changed (out), 1 not, FILTER_DELAYED, -E_*. */
static int
run_filter(struct strbuf *out, struct convert *cv,
	   const struct convert_plan *p, const char *path,
	   enum filter_direction dir, const void *in, size_t len)
{
	int ret = 1;

	if (!p->driver)
		return 1;
	pthread_mutex_lock(&cv->filter_lock);
	if (!cv->filters)
		cv->filters = filter_session_new(cv->repo,
						 cv->flags & CONVERT_CAN_DELAY ?
						 FILTER_CAN_DELAY : 0);
	if (filter_configured(cv->filters, p->driver, dir))
		ret = filter_apply_blob(cv->filters, p->driver, path, dir,
					dir == FILTER_SMUDGE ? p->blob : NULL,
					in, len, out);
	pthread_mutex_unlock(&cv->filter_lock);
	/*
	 * git: a required driver with nothing to run fails on the way in;
	 * on the way out the blob goes as it is
	 */
	if (ret == 1 && p->required && dir == FILTER_CLEAN)
		return error_set(E_INVALID, "%s: clean filter '%s' failed",
				 path, p->driver);
	return ret;
}

int
convert_delayed_next(struct convert *cv, struct strbuf *path, size_t *errors)
{
	int ret = 0;

	*errors = 0;
	pthread_mutex_lock(&cv->filter_lock);
	if (cv->filters)
		ret = filter_delayed_next(cv->filters, path, errors);
	pthread_mutex_unlock(&cv->filter_lock);
	return ret;
}

/*
 * One step of a pipeline: ret from a step that wrote to *tmp; on a
 * change the result becomes the next step's input.
 */
static void
step_done(struct strbuf *cur, struct strbuf *tmp, const void **in,
	  size_t *len)
{
	struct strbuf t = *cur;

	*cur = *tmp;
	*tmp = t;
	*in = cur->buf;
	*len = cur->len;
}

/*
 * After the last step: the result into out if a step changed it.  0 if
 * one did, 1 if not (the convert_to_* return).
 */
static int
steps_end(struct strbuf *out, struct strbuf *cur, int changed)
{
	if (changed) {
		struct strbuf t = *out;

		*out = *cur;
		*cur = t;
	}
	return !changed;
}

int
convert_to_git(struct strbuf *out, struct convert *cv,
	       const struct convert_plan *p, const char *path,
	       const void *in, size_t len, const struct object_id *index_blob,
	       unsigned flags, struct strbuf *warn)
{
	struct strbuf cur = STRBUF_INIT, tmp = STRBUF_INIT;
	int ret, changed = 0;

	strbuf_reset(out);
	ret = run_filter(&tmp, cv, p, path, FILTER_CLEAN, in, len);
	if (ret < 0)
		goto out;
	if (!ret) {
		step_done(&cur, &tmp, &in, &len);
		changed = 1;
	}
	if (p->encoding) {
		ret = refuse_encoding(p, path);
		goto out;
	}
	ret = crlf_to_git(&tmp, cv, p, path, in, len, index_blob, flags, warn);
	if (ret < 0)
		goto out;
	if (!ret) {
		step_done(&cur, &tmp, &in, &len);
		changed = 1;
	}
	if (p->ident && !ident_to_git(&tmp, in, len)) {
		step_done(&cur, &tmp, &in, &len);
		changed = 1;
	}
	ret = steps_end(out, &cur, changed);
out:
	strbuf_release(&cur);
	strbuf_release(&tmp);
	return ret;
}

int
convert_to_worktree(struct strbuf *out, struct convert *cv,
		    const struct convert_plan *p, const char *path,
		    const void *in, size_t len)
{
	struct strbuf cur = STRBUF_INIT, tmp = STRBUF_INIT;
	int ret = 0, changed = 0;

	strbuf_reset(out);
	if (p->ident && !ident_to_worktree(&tmp, in, len)) {
		step_done(&cur, &tmp, &in, &len);
		changed = 1;
	}
	if (!crlf_to_worktree(&tmp, cv, p, in, len)) {
		step_done(&cur, &tmp, &in, &len);
		changed = 1;
	}
	if (p->encoding) {
		ret = refuse_encoding(p, path);
		goto out;
	}
	ret = run_filter(&tmp, cv, p, path, FILTER_SMUDGE, in, len);
	if (ret < 0 || ret == FILTER_DELAYED)
		goto out;
	if (!ret) {
		step_done(&cur, &tmp, &in, &len);
		changed = 1;
	}
	ret = steps_end(out, &cur, changed);
out:
	strbuf_release(&cur);
	strbuf_release(&tmp);
	return ret;
}

int
convert_can_stream(const struct convert_plan *p, uint64_t size)
{
	return size >= fileio_stream_min() && !p->driver && !p->ident &&
	       !p->encoding;
}

static int
count_chunk(void *ctx, const void *data, size_t len)
{
	eol_stats_add(ctx, data, len);
	return 0;
}

int
convert_stream_count(struct convert_stream *cs, int fd, uint64_t size,
		     struct read_buf *rb, const char *path)
{
	int ret;

	cs->st = (struct eol_stats)EOL_STATS_INIT;
	cs->file_size = size;
	ret = fileio_stream_fd(fd, size, rb, count_chunk, &cs->st, path);
	if (ret < 0)
		return ret;
	if (lseek(fd, 0, SEEK_SET) < 0)
		return error_errno(errno, "unable to read '%s'", path);
	return 0;
}

/* Emit what is gathered in cs->buf. */
static int
strip_flush(struct convert_stream *cs, fileio_chunk_fn emit, void *ectx)
{
	size_t n = cs->buf_len;

	cs->buf_len = 0;
	return n ? emit(ectx, cs->buf, n) : 0;
}

static int
strip_add(struct convert_stream *cs, const unsigned char *p, size_t n,
	  fileio_chunk_fn emit, void *ectx)
{
	while (n) {
		size_t room = sizeof(cs->buf) - cs->buf_len;
		size_t k = n < room ? n : room;
		int ret;

		memcpy(cs->buf + cs->buf_len, p, k);
		cs->buf_len += k;
		p += k;
		n -= k;
		if (cs->buf_len == sizeof(cs->buf)) {
			ret = strip_flush(cs, emit, ectx);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

/* the counts of two reads of the same file: equal? */
static int
same_stats(const struct eol_stats *a, const struct eol_stats *b)
{
	return a->nul == b->nul && a->lone_cr == b->lone_cr &&
	       a->lone_lf == b->lone_lf && a->crlf == b->crlf &&
	       a->printable == b->printable &&
	       a->nonprintable == b->nonprintable && a->total == b->total &&
	       a->pending_cr == b->pending_cr && a->last == b->last;
}

/*
 * odb_xform: the second read.  Its bytes are counted again: a file
 * whose counts differ from the first read's changed in between, and
 * the decision taken on them would not be git's for what is stored.
 * With cs->strip, crlf_to_git's stripping, a window at a time (each CR
 * before LF goes: under auto there is no other CR); a CR that ends a
 * window waits for the next one's first byte.  What is kept goes out
 * when the buffer is full and at the end.
 */
static int
strip_cr(struct odb_xform *x, const void *in, size_t len,
	 fileio_chunk_fn emit, void *ectx)
{
	struct convert_stream *cs = (struct convert_stream *)x;
	const unsigned char *p = in, *end = p + len;
	int ret;

	if (!len) {
		if (!same_stats(&cs->st, &cs->again))
			return error_set(E_CORRUPT, "file '%s' changed while "
					 "it was being read", cs->path);
		if (cs->held_cr) {
			cs->held_cr = 0;
			ret = strip_add(cs, (const unsigned char *)"\r", 1,
					emit, ectx);
			if (ret < 0)
				return ret;
		}
		return strip_flush(cs, emit, ectx);
	}
	eol_stats_add(&cs->again, in, len);
	if (!cs->strip)
		return emit(ectx, in, len);
	if (cs->held_cr) {
		cs->held_cr = 0;
		if (*p != '\n') {
			ret = strip_add(cs, (const unsigned char *)"\r", 1,
					emit, ectx);
			if (ret < 0)
				return ret;
		}
	}
	while (p < end) {
		const unsigned char *cr = memchr(p, '\r', end - p);

		if (!cr)
			cr = end;
		ret = strip_add(cs, p, cr - p, emit, ectx);
		if (ret < 0)
			return ret;
		if (cr == end)
			break;
		p = cr + 1;
		if (p < end && *p == '\n')
			continue;
		if (p == end) {
			cs->held_cr = 1;
			break;
		}
		ret = strip_add(cs, cr, 1, emit, ectx);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int
convert_stream_decide(struct odb_xform **x, struct convert_stream *cs,
		      struct convert *cv, const struct convert_plan *p,
		      const char *path, const struct object_id *index_blob,
		      unsigned flags, struct strbuf *warn)
{
	struct eol_stats st = cs->st;
	int ret = 1;

	*x = &cs->x;
	cs->x.fn = strip_cr;
	cs->x.size = cs->file_size;
	cs->again = (struct eol_stats)EOL_STATS_INIT;
	cs->path = path;
	cs->strip = 0;
	cs->held_cr = 0;
	cs->buf_len = 0;
	if (p->crlf != CONVERT_CRLF_BINARY && cs->file_size)
		ret = crlf_decide(cv, p, path, &st, index_blob, flags, warn);
	if (ret < 0)
		return ret;
	if (!ret) {
		cs->strip = 1;
		cs->x.size -= st.crlf;
	}
	return 0;
}

int
convert_hash_fd(void *ctx, struct object_id *out, const char *path, int fd,
		uint64_t size, const struct object_id *index_blob,
		struct read_buf *rb)
{
	struct convert *cv = ctx;
	struct convert_plan p;
	struct file_view view = FILE_VIEW_INIT;
	struct strbuf conv = STRBUF_INIT;
	int ret;

	convert_plan_for(&p, cv, path);
	if (!convert_plan_cleans(cv, &p))
		return odb_hash_fd(out, "blob", fd, size, path, rb);
	if (convert_can_stream(&p, size)) {
		struct convert_stream *cs = xmalloc(sizeof(*cs));
		struct odb_xform *x;

		ret = convert_stream_count(cs, fd, size, rb, path);
		if (!ret)
			ret = convert_stream_decide(&x, cs, cv, &p, path,
						    index_blob, 0, NULL);
		if (!ret)
			ret = odb_hash_fd_xform(out, "blob", fd, size, x, path,
						rb);
		free(cs);
		return ret;
	}
	ret = fileio_view_fd(&view, rb, fd, size, path);
	if (ret < 0)
		return ret;
	ret = convert_to_git(&conv, cv, &p, path, view.data, view.len,
			     index_blob, 0, NULL);
	if (ret == 1)
		odb_hash(out, "blob", view.data, view.len);
	else if (!ret)
		odb_hash(out, "blob", conv.buf, conv.len);
	file_view_release(&view);
	strbuf_release(&conv);
	return ret < 0 ? ret : 0;
}

void
convert_quiet(struct convert *cv, int quiet)
{
	attr_set_quiet(cv->attrs, quiet);
}

void
convert_attach_index(struct convert *cv, struct index *idx)
{
	idx->hash_file = convert_hash_fd;
	idx->hash_ctx = cv;
}
