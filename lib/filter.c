/*
 * filter: runs filter drivers for lib/convert.
 *
 * A one-shot command (filter.<d>.clean/smudge) is a shell command per
 * file: its input is written and its output read at the same time
 * (poll), so neither side waits on a full pipe.  A process driver
 * (filter.<d>.process) is started once per command string for the
 * session, handshaken (git-filter-client, version=2, capabilities), and
 * sent one request per file:
 *
 *   git> command=<clean|smudge>  pathname=<path>  [blob=<hex>]
 *        [can-delay=1]  0000  <content packets>  0000
 *   git< status=<s> ... 0000  [<content packets> 0000  <status list> 0000]
 *
 * status "success" is followed by the content and a second status list
 * (which may change the status), "delayed" (only when can-delay was
 * sent) by nothing, "error" means this file failed, "abort" that the
 * capability is not to be used again in this session.  Anything else,
 * or an end of file, is a broken process: it is stopped (SIGTERM) and
 * started again for the next file.  A packet that is not a packet, an
 * unknown capability, or an end of file in the handshake ends the
 * command (git dies there): -E_CORRUPT/-E_IO whether or not the
 * driver is required.
 *
 * Delayed paths are kept per process; filter_delayed_next() asks each
 * process with delayed paths "command=list_available_blobs" and hands
 * the ready ones out one at a time, in sorted order per answer (as git
 * checks them out).
 *
 * SIGPIPE is ignored around our writes to a filter (a filter may exit
 * without reading its input: git goes on then), and restored before
 * anything is started, so filters run with the disposition we had.
 */
#include "filter.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "error.h"
#include "quote.h"
#include "hash.h"
#include "pkt-line.h"
#include "repo.h"
#include "run-command.h"
#include "strmap.h"

enum filter_cap {
	CAP_CLEAN = 1 << 0,
	CAP_SMUDGE = 1 << 1,
	CAP_DELAY = 1 << 2,
};

enum delayed_state {
	DELAYED_WAITING,	/* the process said "delayed" */
	DELAYED_READY,		/* listed as available, not fetched yet */
	DELAYED_DONE,		/* fetched (or failed) */
};

struct delayed_path {
	char *path;		/* owned; the key in proc->delayed_map */
	enum delayed_state state;
};

/* One long-running process, for one command string. */
struct filter_proc {
	char *cmd;		/* owned; filter.<d>.process */
	struct run_process rp;	/* rp.pid < 0: not running */
	unsigned caps;		/* agreed, less the aborted ones */
	struct delayed_path **delayed;	/* owned, in delay order */
	size_t delayed_nr, delayed_alloc;
	struct strmap delayed_map;	/* path -> delayed_path */
	size_t waiting;		/* entries in DELAYED_WAITING */
	int listing_done;	/* answered an empty list (or failed) */
};

struct filter_session {
	struct repo *repo;	/* borrowed */
	unsigned flags;
	struct filter_proc **procs;	/* owned */
	size_t procs_nr, procs_alloc;
	struct strbuf pkt;		/* scratch for one packet */
	struct strbuf ready;	/* NUL-separated paths handed out next */
	size_t ready_pos;
	struct sigaction old_pipe;
	int pipe_ignored;
	int delay_errors;	/* messages given in delayed retrieval */
	int live;		/* on live_sessions */
	struct filter_session *live_next;
};

/*
 * The sessions with a process started and not yet ended.  A command
 * that exits before it ends its session (a fatal error) has their
 * processes stopped by stop_live_sessions() as it exits, as git's exit
 * waits for its filter processes.
 */
static struct filter_session *live_sessions;
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;

struct filter_session *
filter_session_new(struct repo *repo, unsigned flags)
{
	struct filter_session *fs = xcalloc(1, sizeof(*fs));

	fs->repo = repo;
	fs->flags = flags;
	strbuf_init(&fs->pkt, 0);
	strbuf_init(&fs->ready, 0);
	return fs;
}

static void
ignore_sigpipe(struct filter_session *fs)
{
	struct sigaction sa;

	if (fs->pipe_ignored)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	if (!sigaction(SIGPIPE, &sa, &fs->old_pipe))
		fs->pipe_ignored = 1;
}

static void
restore_sigpipe(struct filter_session *fs)
{
	if (!fs->pipe_ignored)
		return;
	sigaction(SIGPIPE, &fs->old_pipe, NULL);
	fs->pipe_ignored = 0;
}

/* git's words for a child that did not end well (its wait_or_whine) */
static void
whine(const char *name, const struct run_status *st)
{
	if (st->signal && st->signal != SIGINT && st->signal != SIGQUIT &&
	    st->signal != SIGPIPE)
		diag_emit(DIAG_ERROR, "%s died of signal %d", name, st->signal);
}

/*
 * Stop p: close its input; with kill, SIGTERM it first (git's stop).
 * A process that then dies of a signal is reported as git's wait does,
 * also at the session's end (git waits for its filter processes when it
 * exits); a non-zero exit status is not, and neither changes the
 * command's outcome.
 */
static void
proc_stop(struct filter_proc *p, int kill_it)
{
	struct run_status st;

	if (p->rp.pid < 0)
		return;
	if (kill_it)
		kill(p->rp.pid, SIGTERM);
	if (run_finish(&p->rp, &st) == 0)
		whine(p->cmd, &st);
}

static void
proc_free(struct filter_proc *p)
{
	proc_stop(p, 0);
	for (size_t i = 0; i < p->delayed_nr; i++) {
		free(p->delayed[i]->path);
		free(p->delayed[i]);
	}
	free(p->delayed);
	strmap_release(&p->delayed_map);
	free(p->cmd);
	free(p);
}

/* atexit: stop the processes of the sessions not ended, the last first */
static void
stop_live_sessions(void)
{
	pthread_mutex_lock(&live_lock);
	for (struct filter_session *fs = live_sessions; fs; fs = fs->live_next)
		for (size_t i = fs->procs_nr; i-- > 0;)
			proc_stop(fs->procs[i], 0);
	pthread_mutex_unlock(&live_lock);
}

/* fs has a process running: stopped at exit unless ended before */
static void
session_live(struct filter_session *fs)
{
	static int hooked;

	pthread_mutex_lock(&live_lock);
	if (!hooked) {
		atexit(stop_live_sessions);
		hooked = 1;
	}
	if (!fs->live) {
		fs->live_next = live_sessions;
		live_sessions = fs;
		fs->live = 1;
	}
	pthread_mutex_unlock(&live_lock);
}

static void
session_unlive(struct filter_session *fs)
{
	pthread_mutex_lock(&live_lock);
	for (struct filter_session **pp = &live_sessions; *pp;
	     pp = &(*pp)->live_next) {
		if (*pp == fs) {
			*pp = fs->live_next;
			break;
		}
	}
	fs->live = 0;
	pthread_mutex_unlock(&live_lock);
}

int
filter_session_end(struct filter_session *fs)
{
	if (!fs)
		return 0;
	if (fs->live)
		session_unlive(fs);
	/* the last started first, as git's exit cleans up its children */
	for (size_t i = fs->procs_nr; i-- > 0;)
		proc_free(fs->procs[i]);
	free(fs->procs);
	restore_sigpipe(fs);
	strbuf_release(&fs->pkt);
	strbuf_release(&fs->ready);
	free(fs);
	return 0;
}

/* filter.<driver>.<what> if set and not empty, else NULL */
static const char *
driver_value(struct filter_session *fs, const char *driver, const char *what)
{
	struct strbuf key = STRBUF_INIT;
	const char *v = NULL;

	strbuf_addf(&key, "filter.%s.%s", driver, what);
	if (config_get(&fs->repo->config, key.buf, &v) != 1 || !v || !*v)
		v = NULL;
	strbuf_release(&key);
	return v;
}

static int
driver_required(struct filter_session *fs, const char *driver, int *out)
{
	struct strbuf key = STRBUF_INIT;
	int ret;

	*out = 0;
	strbuf_addf(&key, "filter.%s.required", driver);
	ret = config_get_bool(&fs->repo->config, key.buf, out);
	strbuf_release(&key);
	return ret < 0 ? ret : 0;
}

int
filter_any_configured(const struct repo *repo, enum filter_direction dir)
{
	const char *what = dir == FILTER_CLEAN ? ".clean" : ".smudge";

	for (size_t i = 0; i < repo->config.nr; i++) {
		const struct config_entry *ce = &repo->config.entries[i];

		if (starts_with(ce->key, "filter.") && ce->value &&
		    *ce->value && (ends_with(ce->key, ".process") ||
				   ends_with(ce->key, what)))
			return 1;
	}
	return 0;
}

int
filter_required(struct filter_session *fs, const char *driver)
{
	int required, ret = driver_required(fs, driver, &required);

	return ret < 0 ? ret : required;
}

int
filter_configured(struct filter_session *fs, const char *driver,
		  enum filter_direction dir)
{
	return driver_value(fs, driver, "process") ||
	       driver_value(fs, driver, dir == FILTER_CLEAN ? "clean" :
			    "smudge");
}

/* cmd with "%f" the quoted path and "%%" a '%' */
static void
expand_command(struct strbuf *out, const char *cmd, const char *path)
{
	for (const char *p = cmd; *p; p++) {
		if (p[0] == '%' && p[1] == '%') {
			strbuf_addch(out, '%');
			p++;
		} else if (p[0] == '%' && p[1] == 'f') {
			quote_sq(out, path);
			p++;
		} else {
			strbuf_addch(out, *p);
		}
	}
}

/* Where filters run: the top of the work tree (NULL: where we are). */
static const char *
filter_dir(struct filter_session *fs)
{
	if (fs->repo->in_worktree_dir || !fs->repo->worktree)
		return NULL;
	return fs->repo->worktree;
}

/*
 * Feed len bytes at in to rp's stdin while reading its stdout into out.
 * 0, or -1 when feeding failed (not EPIPE: a filter may stop reading)
 * or reading did (the reason in *what).
 */
static int
pump(struct run_process *rp, const unsigned char *in, size_t len,
     struct strbuf *out, const char **what)
{
	size_t done = 0;
	char buf[65536];

	if (!len) {
		close(rp->in);
		rp->in = -1;
	} else if (fcntl(rp->in, F_SETFL, O_NONBLOCK) < 0) {
		*what = "feed";
		return -1;
	}
	for (;;) {
		struct pollfd pfd[2];
		int n = 0;

		pfd[n].fd = rp->out;
		pfd[n++].events = POLLIN;
		if (rp->in >= 0) {
			pfd[n].fd = rp->in;
			pfd[n++].events = POLLOUT;
		}
		if (poll(pfd, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			*what = "read";
			return -1;
		}
		if (rp->in >= 0 && (pfd[1].revents & (POLLOUT | POLLERR |
						      POLLHUP))) {
			ssize_t w = write(rp->in, in + done, len - done);

			if (w < 0 && errno != EAGAIN && errno != EINTR) {
				if (errno != EPIPE) {
					*what = "feed";
					return -1;
				}
				done = len;
			} else if (w > 0) {
				done += w;
			}
			if (done == len) {
				close(rp->in);
				rp->in = -1;
			}
		}
		if (pfd[0].revents & (POLLIN | POLLERR | POLLHUP)) {
			ssize_t r = read(rp->out, buf, sizeof(buf));

			if (r < 0 && errno != EAGAIN && errno != EINTR) {
				*what = "read";
				return -1;
			}
			if (r == 0) {
				if (rp->in >= 0) {
					close(rp->in);
					rp->in = -1;
				}
				return 0;
			}
			if (r > 0)
				strbuf_add(out, buf, r);
		}
	}
}

/*
 * One-shot filter: 0 with out set, or 1 after git's messages (the
 * filter failed).
 */
static int
apply_command(struct filter_session *fs, const char *cmd, const char *path,
	      const void *in, size_t len, struct strbuf *out)
{
	struct run_process rp = RUN_PROCESS_INIT;
	struct strbuf expanded = STRBUF_INIT, result = STRBUF_INIT;
	struct run_status st;
	const char *argv[2] = { NULL, NULL };
	const char *what = NULL;
	int failed = 0;

	expand_command(&expanded, cmd, path ? path : "");
	argv[0] = expanded.buf;
	if (run_start(&rp, argv, RUN_USE_SHELL | RUN_PIPE_IN | RUN_PIPE_OUT,
		      filter_dir(fs), NULL) < 0) {
		diag_emit(DIAG_ERROR, "%s", error_msg());
		diag_emit(DIAG_ERROR, "cannot fork to run external filter "
			  "'%s'", cmd);
		failed = 1;
		goto out;
	}
	ignore_sigpipe(fs);
	if (pump(&rp, in, len, &result, &what) < 0) {
		if (!strcmp(what, "feed"))
			diag_emit(DIAG_ERROR, "cannot feed the input to "
				  "external filter '%s'", cmd);
		else
			diag_emit(DIAG_ERROR, "read from external filter '%s' "
				  "failed", cmd);
		failed = 1;
	}
	restore_sigpipe(fs);
	if (run_finish(&rp, &st) < 0) {
		diag_emit(DIAG_ERROR, "%s", error_msg());
		failed = 1;
	} else if (st.code) {
		whine(expanded.buf, &st);
		diag_emit(DIAG_ERROR, "external filter '%s' failed %d", cmd,
			  st.code);
		failed = 1;
	}
out:
	if (failed)
		diag_emit(DIAG_ERROR, "external filter '%s' failed", cmd);
	else
		strbuf_swap(out, &result);
	strbuf_release(&result);
	strbuf_release(&expanded);
	return failed;
}

/* -------- the long-running process protocol -------- */

/* Read one text packet; as pkt_read() */
static int
read_text(struct filter_session *fs, struct filter_proc *p)
{
	return pkt_read(p->rp.out, &fs->pkt, 1);
}

/* Writes to a process, with git's messages when they fail. */
static int
write_line(int fd, const char *s)
{
	if (pkt_write_line(fd, s) < 0) {
		diag_emit(DIAG_ERROR, "packet write with format failed");
		return -1;
	}
	return 0;
}

static int
write_flush(int fd)
{
	if (pkt_flush(fd) < 0) {
		diag_emit(DIAG_ERROR, "flush packet write failed");
		return -1;
	}
	return 0;
}

/* len bytes as data packets, no flush */
static int
write_data(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		size_t n = len < PKT_MAX_PAYLOAD ? len : PKT_MAX_PAYLOAD;

		if (pkt_write(fd, p, n) < 0) {
			diag_emit(DIAG_ERROR, "packet write failed");
			return -1;
		}
		p += n;
		len -= n;
	}
	return 0;
}

/* an int in decimal, all of v (git's strtol_i) */
static int
parse_version(const char *v, int *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || end == v || *end || n < INT_MIN || n > INT_MAX)
		return -1;
	*out = (int)n;
	return 0;
}

static int
hs_error(const char *msg)
{
	diag_emit(DIAG_ERROR, "%s", msg);
	return 1;
}

/*
 * The handshake.  0; 1 when the process broke it in a way git carries
 * on from (messages given, the caller stops it); -E_* when git dies.
 */
static int
handshake(struct filter_session *fs, struct filter_proc *p)
{
	static const struct { const char *name; unsigned cap; } caps[] = {
		{ "clean", CAP_CLEAN },
		{ "smudge", CAP_SMUDGE },
		{ "delay", CAP_DELAY },
	};
	const char *v;
	int fd = p->rp.in, ret, version;

	if (write_line(fd, "git-filter-client") < 0)
		return hs_error("Could not write client identification");
	if (write_line(fd, "version=2") < 0)
		return hs_error("Could not write requested version");
	if (write_flush(fd) < 0)
		return hs_error("Could not write flush packet");
	ret = read_text(fs, p);
	if (ret < 0)
		return ret;
	if (ret != PKT_READ_DATA || strcmp(fs->pkt.buf, "git-filter-server")) {
		diag_emit(DIAG_ERROR, "Unexpected line '%s', expected "
			  "git-filter-server", ret == PKT_READ_DATA ?
			  fs->pkt.buf : "<flush packet>");
		return 1;
	}
	ret = read_text(fs, p);
	if (ret < 0)
		return ret;
	if (ret != PKT_READ_DATA || !skip_prefix(fs->pkt.buf, "version=", &v) ||
	    parse_version(v, &version) < 0) {
		diag_emit(DIAG_ERROR, "Unexpected line '%s', expected version",
			  ret == PKT_READ_DATA ? fs->pkt.buf :
			  "<flush packet>");
		return 1;
	}
	ret = read_text(fs, p);
	if (ret < 0)
		return ret;
	if (ret == PKT_READ_DATA) {
		diag_emit(DIAG_ERROR, "Unexpected line '%s', expected flush",
			  fs->pkt.buf);
		return 1;
	}
	if (version != 2) {
		diag_emit(DIAG_ERROR, "Version %d not supported", version);
		return 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(caps); i++) {
		char line[32];

		snprintf(line, sizeof(line), "capability=%s", caps[i].name);
		if (write_line(fd, line) < 0)
			return hs_error("Could not write requested "
					"capability");
	}
	if (write_flush(fd) < 0)
		return hs_error("Could not write flush packet");
	p->caps = 0;
	while ((ret = read_text(fs, p)) == PKT_READ_DATA) {
		size_t i;

		if (!skip_prefix(fs->pkt.buf, "capability=", &v))
			continue;
		for (i = 0; i < ARRAY_SIZE(caps); i++)
			if (!strcmp(v, caps[i].name))
				break;
		if (i == ARRAY_SIZE(caps))
			return error_set(E_CORRUPT, "subprocess '%s' requested "
					 "unsupported capability '%s'", p->cmd,
					 v);
		p->caps |= caps[i].cap;
	}
	return ret < 0 ? ret : 0;
}

static struct filter_proc *
find_proc(struct filter_session *fs, const char *cmd)
{
	for (size_t i = 0; i < fs->procs_nr; i++)
		if (!strcmp(fs->procs[i]->cmd, cmd))
			return fs->procs[i];
	return NULL;
}

/*
 * The process for cmd, running: started (and handshaken) if it is not.
 * 0 with *out set; 1 when it could not be started (messages given);
 * -E_* when git would die.
 */
static int
get_proc(struct filter_session *fs, const char *cmd, struct filter_proc **out)
{
	struct filter_proc *p = find_proc(fs, cmd);
	const char *argv[2] = { cmd, NULL };
	int ret;

	*out = NULL;
	if (!p) {
		p = xcalloc(1, sizeof(*p));
		p->cmd = xstrdup(cmd);
		p->rp = (struct run_process)RUN_PROCESS_INIT;
		if (fs->procs_nr == fs->procs_alloc) {
			fs->procs_alloc = fs->procs_alloc ? 2 * fs->procs_alloc
							  : 4;
			fs->procs = xrealloc(fs->procs, fs->procs_alloc *
					     sizeof(*fs->procs));
		}
		fs->procs[fs->procs_nr++] = p;
	}
	if (p->rp.pid >= 0) {
		*out = p;
		return 0;
	}
	if (run_start(&p->rp, argv, RUN_USE_SHELL | RUN_PIPE_IN |
		      RUN_PIPE_OUT, filter_dir(fs), NULL) < 0) {
		diag_emit(DIAG_ERROR, "%s", error_msg());
		diag_emit(DIAG_ERROR, "cannot fork to run subprocess '%s'", cmd);
		return 1;
	}
	session_live(fs);
	ignore_sigpipe(fs);
	ret = handshake(fs, p);
	restore_sigpipe(fs);
	if (ret > 0) {
		diag_emit(DIAG_ERROR, "initialization for subprocess '%s' "
			  "failed", cmd);
		proc_stop(p, 1);
	}
	if (ret)
		return ret;	/* fatal: left to filter_session_end() */
	p->listing_done = 0;
	*out = p;
	return 0;
}

/*
 * Read a status list (up to a flush) into status (kept when the list
 * names none).  0, 1 at end of file, -E_CORRUPT for a bad packet.
 */
static int
read_status(struct filter_session *fs, struct filter_proc *p,
	    struct strbuf *status)
{
	const char *v;
	int ret;

	while ((ret = read_text(fs, p)) == PKT_READ_DATA) {
		/* "status=" alone changes nothing, as in git */
		if (skip_prefix(fs->pkt.buf, "status=", &v) && *v) {
			strbuf_reset(status);
			strbuf_addstr(status, v);
		}
	}
	if (ret == -E_CORRUPT)
		return ret;
	return ret == PKT_READ_FLUSH ? 0 : 1;	/* "0001" too, as git */
}

/* Read content packets up to a flush into out; as read_status(). */
static int
read_content(struct filter_proc *p, struct strbuf *out)
{
	struct strbuf pkt = STRBUF_INIT;
	int ret;

	while ((ret = pkt_read(p->rp.out, &pkt, 0)) == PKT_READ_DATA)
		strbuf_addbuf(out, &pkt);
	strbuf_release(&pkt);
	if (ret == -E_CORRUPT)
		return ret;
	return ret == PKT_READ_FLUSH ? 0 : 1;	/* "0001" too, as git */
}

/*
 * After a failed exchange with status (may be empty): "error" is this
 * file's failure, "abort" drops the capability cap, anything else is a
 * broken process (git's message, stopped, restarted on next use).
 */
static void
exchange_failed(struct filter_proc *p, const char *status, unsigned cap)
{
	if (!strcmp(status, "error"))
		return;
	if (!strcmp(status, "abort")) {
		p->caps &= ~cap;
		return;
	}
	diag_emit(DIAG_ERROR, "external filter '%s' failed", p->cmd);
	proc_stop(p, 1);
}

static struct delayed_path *
find_delayed(struct filter_proc *p, const char *path)
{
	return strmap_get(&p->delayed_map, path, strlen(path));
}

static void
add_delayed(struct filter_proc *p, const char *path)
{
	struct delayed_path *d = find_delayed(p, path);

	if (!d) {
		d = xcalloc(1, sizeof(*d));
		d->path = xstrdup(path);
		if (p->delayed_nr == p->delayed_alloc) {
			p->delayed_alloc = p->delayed_alloc ?
					   2 * p->delayed_alloc : 16;
			p->delayed = xrealloc(p->delayed, p->delayed_alloc *
					      sizeof(*p->delayed));
		}
		p->delayed[p->delayed_nr++] = d;
		strmap_put(&p->delayed_map, d->path, strlen(d->path), d);
	} else if (d->state == DELAYED_WAITING) {
		return;
	}
	d->state = DELAYED_WAITING;
	p->waiting++;
}

/*
 * A request to the process: 0 with out set, FILTER_DELAYED, 1 when the
 * file failed (messages given as git gives them), -E_* when git dies.
 */
static int
apply_process(struct filter_session *fs, const char *cmd, const char *path,
	      enum filter_direction dir, const struct object_id *blob,
	      const void *in, size_t len, struct strbuf *out)
{
	unsigned cap = dir == FILTER_CLEAN ? CAP_CLEAN : CAP_SMUDGE;
	struct strbuf line = STRBUF_INIT, status = STRBUF_INIT;
	struct strbuf result = STRBUF_INIT;
	struct filter_proc *p;
	struct delayed_path *d = NULL;
	int ret, fd, can_delay = 0;

	ret = get_proc(fs, cmd, &p);
	if (ret)
		return ret;
	if (!(p->caps & cap))
		return 1;
	if (dir == FILTER_SMUDGE) {
		d = find_delayed(p, path);
		if (d && d->state == DELAYED_READY) {
			/* the retrieval of a delayed path: no content */
			in = NULL;
			len = 0;
		} else {
			d = NULL;
			can_delay = (fs->flags & FILTER_CAN_DELAY) &&
				    (p->caps & CAP_DELAY);
		}
	}
	fd = p->rp.in;
	ignore_sigpipe(fs);
	ret = 1;
	strbuf_addf(&line, "command=%s", dir == FILTER_CLEAN ? "clean" :
		    "smudge");
	if (write_line(fd, line.buf) < 0)
		goto failed;
	if (strlen(path) + strlen("pathname=\n") > PKT_MAX_PAYLOAD) {
		diag_emit(DIAG_ERROR, "path name too long for external filter");
		goto failed;
	}
	strbuf_reset(&line);
	strbuf_addf(&line, "pathname=%s", path);
	if (write_line(fd, line.buf) < 0)
		goto failed;
	if (blob) {
		strbuf_reset(&line);
		strbuf_addf(&line, "blob=%s", oid_to_hex(blob));
		if (write_line(fd, line.buf) < 0)
			goto failed;
	}
	if (can_delay && write_line(fd, "can-delay=1") < 0)
		goto failed;
	if (write_flush(fd) < 0 || write_data(fd, in, len) < 0 ||
	    write_flush(fd) < 0)
		goto failed;
	ret = read_status(fs, p, &status);
	if (ret)
		goto failed;
	if (can_delay && !strcmp(status.buf, "delayed")) {
		add_delayed(p, path);
		ret = FILTER_DELAYED;
		goto out;
	}
	if (strcmp(status.buf, "success")) {
		ret = 1;
		goto failed;
	}
	ret = read_content(p, &result);
	if (!ret)
		ret = read_status(fs, p, &status);
	if (!ret && strcmp(status.buf, "success"))
		ret = 1;
	if (ret)
		goto failed;
	strbuf_swap(out, &result);
	goto out;
failed:
	if (ret > 0)
		exchange_failed(p, status.buf, cap);
out:
	if (d && ret != FILTER_DELAYED)
		d->state = DELAYED_DONE;
	restore_sigpipe(fs);
	strbuf_release(&result);
	strbuf_release(&status);
	strbuf_release(&line);
	return ret;
}

int
filter_apply_blob(struct filter_session *fs, const char *driver,
		  const char *path, enum filter_direction dir,
		  const struct object_id *blob, const void *in, size_t len,
		  struct strbuf *out)
{
	const char *process = driver_value(fs, driver, "process");
	const char *cmd = driver_value(fs, driver, dir == FILTER_CLEAN ?
				       "clean" : "smudge");
	int required, ret;

	ret = driver_required(fs, driver, &required);
	if (ret < 0)
		return ret;
	if (process)
		ret = apply_process(fs, process, path, dir, blob, in, len, out);
	else if (cmd)
		ret = apply_command(fs, cmd, path, in, len, out);
	else
		ret = 1;
	if (ret < 0) {
		/* git dies of it: say so to callers that carry on */
		char *msg = xstrdup(error_msg());

		ret = error_set(E_FILTER, "%s", msg);
		free(msg);
		return ret;
	}
	if (ret == 0 || ret == FILTER_DELAYED)
		return ret;
	if (required) {
		if (dir == FILTER_CLEAN)
			return error_set(E_FILTER, "%s: clean filter '%s' "
					 "failed", path, driver);
		return error_set(E_FILTER, "%s: smudge filter %s failed", path,
				 driver);
	}
	strbuf_reset(out);
	strbuf_add(out, in, len);
	return 1;
}

int
filter_apply(struct filter_session *fs, const char *driver,
	     const char *path, enum filter_direction dir,
	     const void *in, size_t len, struct strbuf *out)
{
	return filter_apply_blob(fs, driver, path, dir, NULL, in, len, out);
}

/* -------- delayed answers -------- */

int
filter_delayed_pending(struct filter_session *fs)
{
	if (fs->ready_pos < fs->ready.len)
		return 1;
	for (size_t i = 0; i < fs->procs_nr; i++)
		if (fs->procs[i]->delayed_nr && !fs->procs[i]->listing_done)
			return 1;
	return 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * Ask p which delayed paths are ready; append them to fs->ready.
 * 0 (p->listing_done set when it has nothing more or failed), -E_* when
 * git dies.
 */
static int
list_available(struct filter_session *fs, struct filter_proc *p)
{
	struct strbuf status = STRBUF_INIT;
	char **paths = NULL;
	size_t nr = 0, alloc = 0;
	const char *v;
	int ret, fd = p->rp.in;

	if (p->rp.pid < 0) {
		p->listing_done = 1;
		return 0;
	}
	ignore_sigpipe(fs);
	if (write_line(fd, "command=list_available_blobs") < 0 ||
	    write_flush(fd) < 0) {
		ret = 1;
		goto out;
	}
	while ((ret = read_text(fs, p)) == PKT_READ_DATA) {
		if (!skip_prefix(fs->pkt.buf, "pathname=", &v))
			continue;
		if (nr == alloc) {
			alloc = alloc ? 2 * alloc : 16;
			paths = xrealloc(paths, alloc * sizeof(*paths));
		}
		paths[nr++] = xstrdup(v);
	}
	if (ret < 0)
		goto out;	/* git dies here, at end of file too */
	ret = read_status(fs, p, &status);
	if (!ret && strcmp(status.buf, "success"))
		ret = 1;
	if (ret)
		goto out;
	if (!nr) {
		p->listing_done = 1;
		goto out;
	}
	sort_array(paths, nr, sizeof(*paths), cmp_str);
	for (size_t i = 0; i < nr; i++) {
		struct delayed_path *d = find_delayed(p, paths[i]);

		if (i && !strcmp(paths[i], paths[i - 1]))
			continue;
		if (!d || d->state != DELAYED_WAITING) {
			diag_emit(DIAG_ERROR, "external filter '%s' signaled "
				  "that '%s' is now available although it has "
				  "not been delayed earlier", p->cmd, paths[i]);
			fs->delay_errors++;
			p->listing_done = 1;
			continue;
		}
		d->state = DELAYED_READY;
		p->waiting--;
		strbuf_add(&fs->ready, paths[i], strlen(paths[i]) + 1);
	}
out:
	if (ret > 0) {
		fs->delay_errors++;
		p->listing_done = 1;
		exchange_failed(p, status.buf, 0);
		ret = 0;
	}
	restore_sigpipe(fs);
	for (size_t i = 0; i < nr; i++)
		free(paths[i]);
	free(paths);
	strbuf_release(&status);
	return ret;
}

int
filter_delayed_next(struct filter_session *fs, struct strbuf *path,
		    size_t *errors)
{
	const char **lost = NULL;
	size_t nr = 0, alloc = 0;
	int ret;

	for (;;) {
		int asked = 0;

		if (fs->ready_pos < fs->ready.len) {
			const char *next = fs->ready.buf + fs->ready_pos;

			strbuf_reset(path);
			strbuf_addstr(path, next);
			fs->ready_pos += strlen(next) + 1;
			return 1;
		}
		strbuf_reset(&fs->ready);
		fs->ready_pos = 0;
		for (size_t i = 0; i < fs->procs_nr; i++) {
			struct filter_proc *p = fs->procs[i];

			/* asked until it says "nothing more", as git asks */
			if (!p->delayed_nr || p->listing_done)
				continue;
			asked = 1;
			ret = list_available(fs, p);
			if (ret < 0)
				return ret;
		}
		if (!asked)
			break;
	}
	/* nothing more will come: what is still waiting failed (sorted) */
	for (size_t i = 0; i < fs->procs_nr; i++) {
		struct filter_proc *p = fs->procs[i];

		for (size_t j = 0; j < p->delayed_nr; j++) {
			struct delayed_path *d = p->delayed[j];

			if (d->state != DELAYED_WAITING)
				continue;
			if (nr == alloc) {
				alloc = alloc ? 2 * alloc : 16;
				lost = xrealloc(lost, alloc * sizeof(*lost));
			}
			lost[nr++] = d->path;
			d->state = DELAYED_DONE;
		}
		p->waiting = 0;
	}
	sort_array(lost, nr, sizeof(*lost), cmp_str);
	for (size_t i = 0; i < nr; i++) {
		if (i && !strcmp(lost[i], lost[i - 1]))
			continue;
		diag_emit(DIAG_ERROR, "'%s' was not filtered properly",
			  lost[i]);
		fs->delay_errors++;
	}
	free(lost);
	*errors = fs->delay_errors;
	fs->delay_errors = 0;
	return 0;
}
