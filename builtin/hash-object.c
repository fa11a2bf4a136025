/*
 * hash-object: compute object ids of files (or stdin), optionally storing
 * them.  --stdin-paths is the bulk path: one file per input line.
 * A blob is cleaned as git cleans it (convert.h) under the attributes of
 * its path — the file's, --path's — unless --no-filters; core.safecrlf
 * applies with -w only, and no index is consulted, as in git.
 */
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "convert.h"
#include "fileio.h"
#include "fsck.h"
#include "odb.h"
#include "parse-options.h"
#include "quote.h"
#include "repo.h"
#include "strbuf.h"
#include "workers.h"

const char *const hash_object_usage[] = {
	"dirc hash-object [-t <type>] [-w] [--path=<file> | --no-filters]\n"
	"                        [--stdin [--literally]] [--] <file>...",
	"dirc hash-object [-t <type>] [-w] --stdin-paths [--no-filters]",
	NULL,
};

struct hash_opts {
	const char *type;
	int write;
	int literally;
	int bad_type;		/* not one of the four: dies on first input */
	struct repo *repo;
	struct odb *odb;
	int flush_each;		/* flush stdout per id (pipes) */
	int threads;		/* --threads; 0 = automatic */
	struct convert *convert;	/* owned; NULL: no filters */
	const char *prefix;	/* of paths for their attributes */
};

/*
 * Clean buf for path (from the top of the work tree, or NULL: no
 * conversion) into out.  0: out holds the bytes to hash; 1: buf as it
 * is.  Dies as git does when a conversion fails.
 */
static int
clean_or_die(struct hash_opts *o, const char *path, const void *buf,
	     size_t len, struct strbuf *out)
{
	struct convert_plan p;
	int ret;

	if (!o->convert || !path || strcmp(o->type, "blob"))
		return 1;
	convert_plan_for(&p, o->convert, path);
	if (!convert_plan_cleans(o->convert, &p))
		return 1;
	ret = convert_to_git(out, o->convert, &p, path, buf, len, NULL,
			     o->write ? CONVERT_SAFECRLF : 0, NULL);
	if (ret < 0) {
		fflush(stdout);
		die_lib(ret);
	}
	return ret;
}

/* Could path need cleaning (then it is read whole)? */
static int
may_clean(struct hash_opts *o, const char *path)
{
	struct convert_plan p;

	if (!o->convert || !path || strcmp(o->type, "blob"))
		return 0;
	convert_plan_for(&p, o->convert, path);
	return convert_plan_cleans(o->convert, &p);
}

/* The path whose attributes apply to name, given relative to the start. */
static char *
attr_path(struct hash_opts *o, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	if (!o->convert)
		return NULL;
	if (*name != '/')
		strbuf_addstr(&sb, o->prefix);
	strbuf_addstr(&sb, name);
	return strbuf_detach(&sb, NULL);
}

/* git's hash-object words for each fsck problem: all of them count */
static int
fsck_report_error(const struct fsck_report *r, void *data)
{
	const char *id = fsck_msg_id_name(r->id);

	(void)data;
	if (id)
		error("object fails fsck: %s: %s", id, r->text);
	else
		error("%s", r->text);
	return 1;
}

/*
 * Check a tree, commit or tag as git's fsck does, strictly, counting
 * even its warnings and infos (git 2.40 and later); dies as git does.
 * The ".gitmodules" and ".gitattributes" blobs a tree names are looked
 * up after: a problem with them is an error message only.
 */
static void
fsck_or_die(struct hash_opts *o, const void *buf, size_t len)
{
	struct fsck_options fo;
	enum object_type type;
	struct odb *odb = NULL;

	if (o->literally)
		return;
	type = type_from_name(o->type, strlen(o->type));
	if (type == OBJ_BLOB)
		return;		/* blobs are only checked from a tree */
	fsck_options_init(&fo, fsck_report_error, NULL);
	fo.strict = 1;
	if (fsck_buffer(&fo, &null_oid, type, buf, len)) {
		fflush(stdout);
		die("refusing to create malformed object");
	}
	if ((fo.gitmodules_nr || fo.gitattributes_nr) && o->repo->gitdir &&
	    repo_odb(&odb, o->repo) < 0) {
		error_clear();
		odb = NULL;
	}
	(void)fsck_finish(&fo, odb);
	fsck_options_release(&fo);
}

/* git names the type when it first hashes something, not before */
static void
check_type_or_die(const struct hash_opts *o)
{
	if (o->bad_type) {
		fflush(stdout);
		die("invalid object type \"%s\"", o->type);
	}
}

static void
print_id(const struct object_id *oid)
{
	char hex[HASH_MAX_HEXSZ + 1];

	oid_to_hex_r(hex, oid);
	hex[HASH_HEXSZ] = '\n';
	fwrite(hex, 1, HASH_HEXSZ + 1, stdout);
}

/* the id, flushed at once where a reader may wait for it (GIT_FLUSH) */
static void
print_oid(const struct hash_opts *o, const struct object_id *oid)
{
	print_id(oid);
	if (o->flush_each)
		fflush(stdout);
}

/* Could the file name (relative to the start) need cleaning? */
static int
path_may_clean(struct hash_opts *o, const char *name)
{
	char *ap = attr_path(o, name);
	int ret = may_clean(o, ap);

	free(ap);
	return ret;
}

/* Hash (and store) one buffer, cleaned for path; dies on failure. */
static void
hash_buffer_or_die(struct hash_opts *o, const void *buf, size_t len,
		   const char *path)
{
	struct strbuf conv = STRBUF_INIT;
	struct object_id oid;
	int ret = 0;

	if (!clean_or_die(o, path, buf, len, &conv)) {
		buf = conv.buf;
		len = conv.len;
	}
	fsck_or_die(o, buf, len);
	if (o->write)
		ret = odb_write(o->odb, &o->odb->writer, o->type, buf, len, &oid);
	else
		odb_hash(&oid, o->type, buf, len);
	if (ret < 0)
		die_lib(ret);
	print_oid(o, &oid);
	strbuf_release(&conv);
}

static void
hash_stdin(struct hash_opts *o, const char *path)
{
	struct read_buf rb = READ_BUF_INIT;
	ssize_t n;

	check_type_or_die(o);
	n = fileio_slurp_fd(&rb, 0, "standard input");
	if (n < 0)
		die_lib(n);
	hash_buffer_or_die(o, rb.buf, n, path);
	read_buf_release(&rb);
}

/*
 * A big file whose cleaning only changes line endings, streamed
 * (convert.h) into *oid.  1 done; 0 not such a file.  Dies on failure.
 */
static int
hash_streamed(struct hash_opts *o, struct odb_writer *w, int fd,
	      uint64_t size, const char *path, const char *conv_path,
	      struct object_id *oid)
{
	struct convert_stream *cs;
	struct convert_plan p;
	struct odb_xform *x;
	int ret;

	if (!may_clean(o, conv_path))
		return 0;
	convert_plan_for(&p, o->convert, conv_path);
	if (!convert_can_stream(&p, size))
		return 0;
	cs = xmalloc(sizeof(*cs));
	ret = convert_stream_count(cs, fd, size, &w->rb, path);
	if (!ret)
		ret = convert_stream_decide(&x, cs, o->convert, &p, conv_path,
					    NULL, o->write ? CONVERT_SAFECRLF :
					    0, NULL);
	if (!ret)
		ret = odb_write_fd_xform(o->odb, w, "blob", fd, size, x, path,
					 o->write ? ODB_FD_WRITE : 0, oid);
	free(cs);
	if (ret < 0) {
		fflush(stdout);
		die_lib(ret);
	}
	return 1;
}

/* Hash (and store) the file path, cleaned for conv_path (may be NULL). */
static void
hash_file(struct hash_opts *o, struct odb_writer *w, const char *path,
	  const char *conv_path)
{
	struct object_id oid;
	struct stat st;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("could not open '%s' for reading: %s", path,
		    strerror(errno));
	check_type_or_die(o);
	if (fstat(fd, &st) < 0)
		die("could not stat '%s': %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode)) {
		/* a pipe or device: its bytes as they come */
		struct read_buf rb = READ_BUF_INIT;
		ssize_t n;

		if (S_ISDIR(st.st_mode))
			die("Unable to hash %s", path);
		n = fileio_slurp_fd(&rb, fd, path);
		if (n < 0)
			die_lib(n);
		close(fd);
		hash_buffer_or_die(o, rb.buf, n, conv_path);
		read_buf_release(&rb);
		return;
	}
	if (hash_streamed(o, w, fd, st.st_size, path, conv_path, &oid)) {
		close(fd);
		print_oid(o, &oid);
		return;
	}
	if ((!o->literally && strcmp(o->type, "blob")) ||
	    may_clean(o, conv_path)) {
		/* format checks need the whole buffer */
		struct file_view view = FILE_VIEW_INIT;

		ret = fileio_view_fd(&view, &w->rb, fd, st.st_size, path);
		if (ret < 0)
			die_lib(ret);
		close(fd);
		hash_buffer_or_die(o, view.data, view.len, conv_path);
		file_view_release(&view);
		return;
	}
	ret = odb_write_fd(o->odb, w, o->type, fd, st.st_size, path,
			   o->write ? ODB_FD_WRITE : 0, &oid);
	if (ret < 0)
		die_lib(ret);
	close(fd);
	print_oid(o, &oid);
}

/* One --stdin-paths batch: files hashed on every thread, ids in order. */
struct path_job {
	char *path;			/* owned; NULL if bad_quote */
	int bad_quote;			/* the line was badly C-quoted */
	struct object_id oid;
	int ret;
	struct error_saved err;
};

struct path_run {
	struct hash_opts *o;
	struct path_job *jobs;
	struct odb_writer *writers;	/* [0] unused: thread 0 uses o->odb's */
};

static void
path_one(void *ctx, size_t i, int thread)
{
	struct path_run *r = ctx;
	struct path_job *j = &r->jobs[i];
	struct odb_writer *w = thread ? &r->writers[thread] :
		&r->o->odb->writer;
	struct stat st;
	int fd;

	if (j->bad_quote)
		return;		/* the caller dies when it gets there */
	fd = open(j->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		j->ret = error_errno(errno, "could not open '%s' for reading",
				     j->path);
	} else if (fstat(fd, &st) < 0) {
		j->ret = error_errno(errno, "could not stat '%s'", j->path);
	} else if (!S_ISREG(st.st_mode) ||
		   r->o->bad_type ||
		   (!r->o->literally && strcmp(r->o->type, "blob")) ||
		   path_may_clean(r->o, j->path)) {
		/*
		 * special files, format checks and conversions (their
		 * messages in order): the caller
		 */
		j->ret = 1;
	} else {
		j->ret = odb_write_fd(r->o->odb, w, r->o->type, fd,
				      st.st_size, j->path,
				      r->o->write ? ODB_FD_WRITE : 0,
				      &j->oid);
		if (j->ret > 0)
			j->ret = 0;
	}
	if (fd >= 0)
		close(fd);
	if (j->ret < 0)
		error_save(&j->err);
}

/*
 * Read the lines that are there now (at least one, at most max): a
 * caller feeding us one path at a time and waiting for its id is served
 * line by line, a file or a fast pipe in big batches.
 */
static size_t
read_batch(struct strbuf *in, struct path_job *jobs, size_t max, int *eof)
{
	struct strbuf uq = STRBUF_INIT;
	size_t nr = 0, pos = 0;		/* in->buf up to pos is consumed */

	while (nr < max) {
		char *line_start = in->buf + pos;
		char *nl = memchr(line_start, '\n', in->len - pos);

		if (nl) {
			char *line = xmemdupz(line_start, nl - line_start);

			pos += nl - line_start + 1;
			memset(&jobs[nr], 0, sizeof(jobs[nr]));
			if (line[0] == '"' &&
			    unquote_c_style(&uq, line, NULL)) {
				/* git hashes the lines before it, then dies */
				free(line);
				jobs[nr++].bad_quote = 1;
				break;
			}
			if (line[0] == '"') {
				free(line);
				line = strbuf_detach(&uq, NULL);
			}
			jobs[nr++].path = line;
			continue;
		}
		if (*eof) {
			if (in->len > pos) {
				/* a last line without its newline */
				memset(&jobs[nr], 0, sizeof(jobs[nr]));
				jobs[nr++].path = xmemdupz(line_start,
							   in->len - pos);
				pos = in->len;
			}
			break;
		}
		if (nr) {
			struct pollfd pfd = { .fd = 0, .events = POLLIN };

			if (poll(&pfd, 1, 0) <= 0)
				break;	/* nothing more right now */
		}
		/* keep the unfinished line only, then read more */
		memmove(in->buf, in->buf + pos, in->len - pos);
		strbuf_setlen(in, in->len - pos);
		pos = 0;
		strbuf_grow(in, 65536);
		{
			ssize_t n = read(0, in->buf + in->len, 65536);

			if (n < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (n < 0)
				die("could not read standard input: %s",
				    strerror(errno));
			if (!n)
				*eof = 1;
			else
				strbuf_setlen(in, in->len + n);
		}
	}
	/* what is left for the next batch; moved once, not once per line */
	memmove(in->buf, in->buf + pos, in->len - pos);
	strbuf_setlen(in, in->len - pos);
	strbuf_release(&uq);
	return nr;
}

#define PATH_BATCH 4096

static void
hash_stdin_paths(struct hash_opts *o, struct odb_writer *w)
{
	struct path_run r = { o, NULL, NULL };
	struct strbuf in = STRBUF_INIT;
	int configured = o->repo ? o->repo->settings.threads : 0;
	int eof = 0, nthreads = workers_count(o->threads, configured,
					      PATH_BATCH, 64);
	size_t nr;

	(void)w;
	r.jobs = xcalloc(PATH_BATCH, sizeof(*r.jobs));
	r.writers = xcalloc(nthreads, sizeof(*r.writers));
	for (int t = 1; t < nthreads; t++)
		odb_writer_init(&r.writers[t], o->odb->level);
	odb_prepare_packs(o->odb);
	if (o->write && !o->flush_each)
		odb_list_loose(o->odb);
	while ((nr = read_batch(&in, r.jobs, PATH_BATCH, &eof))) {
		int n = nr < 64 ? 1 : nthreads;

		workers_run(n, nr, path_one, &r);
		for (size_t i = 0; i < nr; i++) {
			struct path_job *j = &r.jobs[i];

			if (j->bad_quote) {
				fflush(stdout);
				die("line is badly quoted");
			}
			if (j->ret < 0) {
				fflush(stdout);
				die_lib(error_restore(&j->err));
			}
			if (j->ret > 0) {	/* the caller's, see path_one */
				char *ap = attr_path(o, j->path);

				hash_file(o, &o->odb->writer, j->path, ap);
				free(ap);
			} else
				print_id(&j->oid);
			free(j->path);
		}
		/* the batch's ids are all here: one flush, not one a line */
		fflush(stdout);
	}
	for (int t = 1; t < nthreads; t++)
		odb_writer_release(&r.writers[t]);
	free(r.writers);
	free(r.jobs);
	strbuf_release(&in);
}

static int
want_flush_each(void)
{
	const char *env = getenv("GIT_FLUSH");
	struct stat st;

	if (env && *env)
		return strcmp(env, "0") != 0;
	return fstat(1, &st) || !S_ISREG(st.st_mode);
}

int
cmd_hash_object(int argc, const char **argv)
{
	struct hash_opts o = { .type = "blob" };
	struct repo repo;
	struct odb odb_local;
	struct odb_writer *w;
	const char *vpath = NULL, *errstr = NULL;
	int stdin_paths = 0, hashstdin = 0, no_filters = 0, ret;
	struct option opts[] = {
		OPT_STRING('t', NULL, &o.type, "<type>", "object type"),
		OPT_BOOL('w', NULL, &o.write,
			 "write the object into the object database"),
		OPT_COUNTUP(0, "stdin", &hashstdin,
			    "read the object from stdin"),
		OPT_BOOL(0, "stdin-paths", &stdin_paths,
			 "read file names from stdin"),
		OPT_BOOL(0, "no-filters", &no_filters,
			 "store file as is without filters"),
		OPT_BOOL(0, "literally", &o.literally,
			 "just hash any random garbage to create corrupt "
			 "objects for debugging"),
		OPT_STRING(0, "path", &vpath, "<file>",
			   "process file as it were from this path"),
		OPT_INT(0, "threads", &o.threads, "<n>",
			"threads for --stdin-paths (default: all CPUs)"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, hash_object_usage, 0);
	if (stdin_paths) {
		if (hashstdin)
			errstr = "Can't use --stdin-paths with --stdin";
		else if (argc)
			errstr = "Can't specify files with --stdin-paths";
		else if (vpath)
			errstr = "Can't use --stdin-paths with --path";
	} else {
		if (hashstdin > 1)
			errstr = "Multiple --stdin arguments are not supported";
		if (vpath && no_filters)
			errstr = "Can't use --path with --no-filters";
	}
	if (errstr)
		usage_msg_opt(errstr, hash_object_usage, opts);
	/* --literally no longer allows other types (git 2.50) */
	o.bad_type = type_from_name(o.type, strlen(o.type)) == OBJ_BAD;

	ret = repo_open(&repo, (o.write ? 0 : REPO_GENTLY) | REPO_NO_CHDIR);
	if (ret < 0)
		die_lib(ret);
	o.repo = &repo;
	if (o.write) {
		ret = repo_odb(&o.odb, &repo);
		if (ret < 0)
			die_lib(ret);
	} else {
		/* hashing only: a writer for buffers, no store needed */
		odb_init(&odb_local, repo.objdir ? repo.objdir : ".", NULL);
		o.odb = &odb_local;
	}
	w = &o.odb->writer;
	if (repo.gitdir && !no_filters) {
		o.convert = convert_new(&repo, NULL, NULL, 0);
		o.prefix = repo.prefix ? repo.prefix : "";
	}
	o.flush_each = stdin_paths && want_flush_each();

	if (hashstdin) {
		char *ap = vpath ? attr_path(&o, vpath) : NULL;

		hash_stdin(&o, ap);
		free(ap);
	}
	for (int i = 0; i < argc; i++) {
		char *ap = attr_path(&o, vpath ? vpath : argv[i]);

		hash_file(&o, w, argv[i], ap);
		free(ap);
	}
	if (stdin_paths)
		hash_stdin_paths(&o, w);
	ret = convert_free(o.convert);
	if (ret < 0)
		die_lib(ret);

	if (o.write) {
		ret = odb_flush(o.odb);
		if (ret < 0)
			die_lib(ret);
	} else {
		odb_release(&odb_local);
	}
	repo_release(&repo);
	return 0;
}
