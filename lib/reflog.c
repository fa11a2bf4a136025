/*
 * reflog: the reader.  A log is read whole and split into entries once;
 * the questions are then answered by walking the array, newest first.
 *
 * Line layout (see reflog.h): the two ids at fixed offsets 0 and 41, a
 * space after each; the identity runs to the first '>', followed by
 * " <epoch> <sign><4 digits>", then an optional TAB and the message.
 */
#include "reflog.h"

#include <limits.h>
#include <sys/stat.h>

#include "date.h"
#include "error.h"
#include "refs-internal.h"

void
reflog_path(struct strbuf *out, const struct ref_store *rs,
	    const char *refname)
{
	struct strbuf loose = STRBUF_INIT;
	size_t dirlen;

	/*
	 * The log lives beside the loose ref, under logs/: take the ref's
	 * own directory from refs.c, so the two never disagree about
	 * which refs are per worktree.
	 */
	refs_loose_path(&loose, rs, refname);
	dirlen = loose.len - strlen(refname);
	strbuf_reset(out);
	strbuf_add(out, loose.buf, dirlen);
	strbuf_addstr(out, "logs/");
	strbuf_addstr(out, refname);
	strbuf_release(&loose);
}

int
reflog_exists(const struct ref_store *rs, const char *refname)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	int ret;

	if (rs->reftable) {
		/* the stacks are opened on first use: a cache, not state */
		ret = !refs_rt_log_text((struct ref_store *)rs, refname,
					&path);
		error_clear();
		strbuf_release(&path);
		return ret;
	}
	reflog_path(&path, rs, refname);
	ret = !stat(path.buf, &st) && S_ISREG(st.st_mode);
	strbuf_release(&path);
	return ret;
}

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* One line (without its LF) into e; 0, or -1 if it is malformed. */
static int
parse_line(struct reflog_entry *e, const char *p, const char *end)
{
	const char *gt, *q;
	long long ts = 0;

	if (end - p < 2 * (HASH_HEXSZ + 1) || hex_to_oid(&e->old_oid, p) ||
	    p[HASH_HEXSZ] != ' ' || hex_to_oid(&e->new_oid, p + HASH_HEXSZ + 1)
	    || p[2 * HASH_HEXSZ + 1] != ' ')
		return -1;
	p += 2 * (HASH_HEXSZ + 1);
	gt = memchr(p, '>', end - p);
	if (!gt || end - gt < 2 || gt[1] != ' ')
		return -1;
	q = gt + 2;
	if (q >= end || !is_digit(*q))
		return -1;
	for (; q < end && is_digit(*q); q++) {
		if (ts > (LLONG_MAX - 9) / 10)
			return -1;
		ts = ts * 10 + (*q - '0');
	}
	if (!ts || end - q < 6 || q[0] != ' ' || (q[1] != '+' && q[1] != '-')
	    || !is_digit(q[2]) || !is_digit(q[3]) || !is_digit(q[4]) ||
	    !is_digit(q[5]))
		return -1;
	e->timestamp = ts;
	e->tz = (q[2] - '0') * 1000 + (q[3] - '0') * 100 +
		(q[4] - '0') * 10 + (q[5] - '0');
	if (q[1] == '-')
		e->tz = -e->tz;
	q += 6;
	if (q < end && *q == '\t')
		q++;
	e->msg = q;
	e->msg_len = end - q;
	return 0;
}

void
reflog_parse(struct reflog *out, const char *buf, size_t len)
{
	const char *p, *end;

	memset(out, 0, sizeof(*out));
	out->buf = xmemdupz(buf, len);
	p = out->buf;
	end = p + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		struct reflog_entry e;

		if (!nl)
			break;	/* no final LF: git skips the line */
		if (!parse_line(&e, p, nl)) {
			ALLOC_GROW(out->entries, out->nr + 1, out->alloc);
			out->entries[out->nr++] = e;
		}
		p = nl + 1;
	}
}

int
reflog_read(struct reflog *out, const struct ref_store *rs,
	    const char *refname)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	int ret;

	memset(out, 0, sizeof(*out));
	if (rs->reftable) {
		ret = refs_rt_log_text((struct ref_store *)rs, refname, &buf);
		if (!ret)
			reflog_parse(out, buf.buf, buf.len);
		strbuf_release(&buf);
		return ret;
	}
	reflog_path(&path, rs, refname);
	ret = strbuf_read_file(&buf, path.buf);
	if (ret < 0 && errno == EISDIR)
		ret = error_set(E_NOTFOUND, "no reflog for '%s'", refname);
	if (!ret)
		reflog_parse(out, buf.buf, buf.len);
	strbuf_release(&path);
	strbuf_release(&buf);
	return ret;
}

void
reflog_release(struct reflog *log)
{
	free(log->buf);
	free(log->entries);
	memset(log, 0, sizeof(*log));
}

static void
note_date(const char *what, const char *refname, long long t, int tz)
{
	struct strbuf date = STRBUF_INIT;

	date_format_rfc2822(&date, t, tz);
	diag_emit(DIAG_WARNING, "log for ref %s %s %s", refname, what,
		  date.buf);
	strbuf_release(&date);
}

enum reflog_at_result
reflog_at(struct object_id *out, struct reflog_cutoff *cut,
	  const struct reflog *log, const char *refname, long long at_time,
	  int n)
{
	struct object_id prev_old = null_oid;
	int count = 0;

	memset(cut, 0, sizeof(*cut));
	if (!n && !at_time) {
		/* "@{0}": what the newest entry set (the ref, if none) */
		const struct reflog_entry *e;

		if (!log->nr)
			return REFLOG_AT_FOUND;
		e = &log->entries[log->nr - 1];
		*out = e->new_oid;
		cut->time = e->timestamp;
		cut->tz = e->tz;
		return REFLOG_AT_FOUND;
	}
	if (!log->nr)
		return REFLOG_AT_EMPTY;
	for (size_t i = log->nr; i-- > 0;) {
		const struct reflog_entry *e = &log->entries[i];
		int reached;

		if (n > 0)
			n--;
		reached = n == 0 && !oid_is_null(&e->old_oid);
		count++;
		if (e->timestamp <= at_time || reached) {
			cut->time = e->timestamp;
			cut->tz = e->tz;
			cut->count = count - 1;
			/* the newer entry should have started where this ended */
			if (!oid_is_null(&prev_old) &&
			    !oideq(&prev_old, &e->new_oid))
				note_date("has gap after", refname,
					  e->timestamp, e->tz);
			if (reached)
				*out = e->old_oid;
			else if (!oid_is_null(&prev_old) ||
				 e->timestamp == at_time)
				*out = e->new_oid;
			else if (!oideq(&e->new_oid, out))
				note_date("unexpectedly ended on", refname,
					  e->timestamp, e->tz);
			return REFLOG_AT_FOUND;
		}
		prev_old = e->old_oid;
	}
	/* older than the log: its oldest value */
	cut->time = log->entries[0].timestamp;
	cut->tz = log->entries[0].tz;
	cut->count = count;
	*out = log->entries[0].old_oid;
	if (oid_is_null(out))
		*out = log->entries[0].new_oid;
	return at_time ? REFLOG_AT_TOO_OLD : REFLOG_AT_TOO_FEW;
}

int
reflog_nth_checkout(struct strbuf *out, const struct ref_store *rs, int n)
{
	static const char moving[] = "checkout: moving from ";
	struct reflog log;
	int ret;

	ret = reflog_read(&log, rs, "HEAD");
	if (ret == -E_NOTFOUND) {
		error_clear();
		return 0;
	}
	if (ret < 0)
		return ret;
	ret = 0;
	for (size_t i = log.nr; i-- > 0 && n > 0;) {
		const struct reflog_entry *e = &log.entries[i];
		const char *from, *to, *end = e->msg + e->msg_len;

		if (e->msg_len < sizeof(moving) - 1 ||
		    memcmp(e->msg, moving, sizeof(moving) - 1))
			continue;
		from = e->msg + sizeof(moving) - 1;
		/* the first " to " ends the name, as git reads it */
		for (to = from; end - to >= 4 && memcmp(to, " to ", 4); to++)
			;
		if (end - to < 4)
			continue;
		if (--n == 0) {
			strbuf_reset(out);
			strbuf_add(out, from, to - from);
			ret = 1;
		}
	}
	reflog_release(&log);
	return ret;
}
