/*
 * test-tool: hidden helpers for tests and perf, not for users.
 *
 *   dirc test-tool read-index <n>    read the index n times (no output)
 *   dirc test-tool write-index <n>   read once, write it back n times
 *   dirc test-tool verify-index      read with the checksum verified
 *   dirc test-tool mempool <n>       allocate and fill n index entries
 *                                    from the mempool and with malloc
 *                                    (each paying for its own pages):
 *                                    time, bytes
 *   dirc test-tool repo-setup <question>...
 *                                    what repo_open() found, answered
 *                                    as git's rev-parse answers
 *                                    --git-dir, --absolute-git-dir,
 *                                    --git-common-dir (absolute),
 *                                    --show-toplevel, --show-prefix,
 *                                    --show-cdup, --is-bare-repository,
 *                                    --is-inside-work-tree and
 *                                    --is-inside-git-dir
 *   dirc test-tool filter [--delay] [--blob] (clean|smudge) <driver>
 *                         <path>...
 *                                    send each file (from the top of
 *                                    the work tree) through driver in
 *                                    one session (--delay: one that
 *                                    can take delayed answers; --blob:
 *                                    name the file's blob id, as a
 *                                    smudge of an index entry does) and
 *                                    write the result to <path>.out;
 *                                    exit 1 when a delayed path failed
 *   dirc test-tool filter-fuzz <seed>
 *                                    a filter process (filter.<d>.process)
 *                                    that handshakes, then answers its
 *                                    first request with packets made
 *                                    from seed (flushes, status lines,
 *                                    content, bad lengths, junk), closes
 *                                    its output and reads its input to
 *                                    the end
 *   dirc test-tool sparse-match      the repository's sparse-checkout
 *                                    patterns (as read-tree -u reads
 *                                    them) on the paths of stdin, one a
 *                                    line ("160000 " before a gitlink's):
 *                                    "H <path>" in, "S <path>" out, as
 *                                    git ls-files -t marks them
 *   dirc test-tool clean-twice <path> <other>
 *                                    clean the big file path as
 *                                    update-cache does (convert.h's
 *                                    streamed clean) but copy the bytes
 *                                    of other over it, in place, between
 *                                    the two reads; print the blob id
 *                                    or die as the command would
 *   dirc test-tool read-objects [--info] [--all]
 *                                    perf's floor for cat-file --batch
 *                                    (P7): read every object named on
 *                                    stdin (full ids, one a line), or
 *                                    every stored one in id order
 *                                    (--all), as cat-file's batches
 *                                    read them (odb-many.h: the same
 *                                    threads, shared delta base cache
 *                                    and rounds), whole or (--info) its
 *                                    type and size, and drop them: no
 *                                    names, no output; then print
 *                                    "<n> objects <seconds> s"
 *   dirc test-tool hash-literally [-w] -t <type> [--stdin | --stdin-paths |
 *                                 <file>...]
 *                                    hash (and store) the bytes as they
 *                                    are, as an object of any type
 *                                    string, unchecked and unconverted:
 *                                    what hash-object --literally did
 *                                    before git 2.50 (git's tests moved
 *                                    to a helper too), for tests that
 *                                    need broken or unknown-type objects
 *   dirc test-tool reftable [--sha256] <subcommand> <path>...
 *                                    the reftable library: see
 *                                    builtin/test-reftable.c
 */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "convert.h"
#include "fileio.h"
#include "filter.h"
#include "hash.h"
#include "index.h"
#include "mempool.h"
#include "odb-many.h"
#include "odb.h"
#include "object.h"
#include "parse-options.h"
#include "pkt-line.h"
#include "repo.h"
#include "sparse-index.h"
#include "sparse.h"
#include "strbuf.h"
#include "trace.h"
#include "workers.h"

const char *const test_tool_usage[] = {
	"dirc test-tool (read-index | write-index) <n>",
	"dirc test-tool verify-index",
	"dirc test-tool mempool <n>",
	"dirc test-tool repo-setup <question>...",
	"dirc test-tool hash-literally [-w] -t <type> "
		"[--stdin | --stdin-paths | <file>...]",
	"dirc test-tool filter [--delay] [--blob] (clean|smudge) <driver> "
	"<path>...",
	"dirc test-tool filter-fuzz <seed>",
	"dirc test-tool sparse-match <paths",
	"dirc test-tool clean-twice <path> <other>",
	"dirc test-tool read-objects [--info] [--all]",
	"dirc test-tool reftable [--sha256] <subcommand> <path>...",
	NULL,
};

static void
put_real(const char *path)
{
	char *real = realpath(path, NULL);

	puts(real ? real : path);
	free(real);
}

/* repo_open()'s view, in the words of git's rev-parse */
static int
repo_setup(int argc, const char **argv)
{
	struct repo repo;
	int ret = repo_open(&repo, REPO_NO_CHDIR);

	if (ret < 0)
		die_lib(ret);
	for (int i = 2; i < argc; i++) {
		const char *q = argv[i];

		if (!strcmp(q, "--git-dir")) {
			if (repo.gitdir_env)
				puts(repo.gitdir_env);
			else if (!*repo.prefix)
				puts(".git");
			else
				printf("%s/.git\n", repo.worktree);
		} else if (!strcmp(q, "--absolute-git-dir")) {
			put_real(repo.gitdir);
		} else if (!strcmp(q, "--git-common-dir")) {
			put_real(repo.commondir);
		} else if (!strcmp(q, "--show-toplevel")) {
			if (!repo.worktree)
				die("this operation must be run in a work "
				    "tree");
			puts(repo.worktree);
		} else if (!strcmp(q, "--show-prefix")) {
			puts(repo.prefix);
		} else if (!strcmp(q, "--show-cdup")) {
			if (!repo.inside_worktree) {
				if (repo.worktree)
					puts(repo.worktree);
				continue;
			}
			for (const char *p = repo.prefix; *p; p++)
				if (*p == '/')
					fputs("../", stdout);
			putchar('\n');
		} else if (!strcmp(q, "--is-bare-repository")) {
			puts(repo.bare ? "true" : "false");
		} else if (!strcmp(q, "--is-inside-work-tree")) {
			puts(repo.inside_worktree ? "true" : "false");
		} else if (!strcmp(q, "--is-inside-git-dir")) {
			puts(repo.inside_gitdir ? "true" : "false");
		} else {
			die("unknown question '%s'", q);
		}
	}
	repo_release(&repo);
	return 0;
}

static long
count_arg(int argc, const char **argv)
{
	long n = argc > 2 ? strtol(argv[2], NULL, 10) : 1;

	return n > 0 ? n : 1;
}

static int
read_index_n(struct repo *repo, long n)
{
	uint64_t start = trace_now();

	for (long i = 0; i < n; i++) {
		struct index idx;
		int ret = index_read_in(&idx, repo->index_path, repo, 0, 0);

		if (ret < 0)
			die_lib(ret);
		index_release(&idx);
	}
	printf("read-index: %ld reads, %.6f s each\n", n,
	       (trace_now() - start) / 1e9 / n);
	return 0;
}

static int
write_index_n(struct repo *repo, long n)
{
	struct index idx;
	uint64_t start;
	int ret = index_read_in(&idx, repo->index_path, repo, 0, 0);

	if (ret < 0)
		die_lib(ret);
	ret = sparse_index_after_read(&idx, repo, SPARSE_INDEX_FULL |
				      SPARSE_INDEX_TREE |
				      SPARSE_INDEX_NO_PRESENT);
	if (ret < 0)
		die_lib(ret);
	start = trace_now();
	for (long i = 0; i < n; i++) {
		struct lockfile lk = LOCKFILE_INIT;

		ret = lockfile_hold(&lk, repo->index_path);
		if (!ret)
			ret = index_write(&idx, repo, &lk);
		if (ret < 0)
			die_lib(ret);
	}
	printf("write-index: %ld writes, %.6f s each\n", n,
	       (trace_now() - start) / 1e9 / n);
	index_release(&idx);
	return 0;
}

static size_t
heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

static int
mempool_bench(long n)
{
	struct mempool pool;
	struct index_entry **ptrs = xmalloc(st_mult(n, sizeof(*ptrs)));
	size_t before, after;
	uint64_t start, t_pool, t_malloc, t_free;

	mempool_init(&pool, sizeof(struct index_entry));
	before = heap_in_use();
	start = trace_now();
	/* filled, as every use fills them: both pay for their pages */
	for (long i = 0; i < n; i++)
		memset(ptrs[i] = mempool_alloc(&pool), 0,
		       sizeof(struct index_entry));
	t_pool = trace_now() - start;
	after = heap_in_use();
	printf("mempool: %ld objects of %zu bytes: %.6f s, %zu bytes, "
	       "overhead %zu bytes\n", n, sizeof(struct index_entry),
	       t_pool / 1e9, after - before,
	       after - before - n * sizeof(struct index_entry));
	start = trace_now();
	mempool_release(&pool);
	printf("mempool: release %.6f s\n", (trace_now() - start) / 1e9);
	/* give the pages back, so that malloc pays for its own */
	malloc_trim(0);

	before = heap_in_use();
	start = trace_now();
	for (long i = 0; i < n; i++)
		memset(ptrs[i] = xmalloc(sizeof(struct index_entry)), 0,
		       sizeof(struct index_entry));
	t_malloc = trace_now() - start;
	after = heap_in_use();
	printf("malloc: %ld objects of %zu bytes: %.6f s, %zu bytes, "
	       "overhead %zu bytes\n", n, sizeof(struct index_entry),
	       t_malloc / 1e9, after - before,
	       after - before - n * sizeof(struct index_entry));
	start = trace_now();
	for (long i = 0; i < n; i++)
		free(ptrs[i]);
	t_free = trace_now() - start;
	printf("malloc: free %.6f s\n", t_free / 1e9);
	free(ptrs);
	return 0;
}

/* one file through the session: its result into <path>.out */
static int
filter_one(struct filter_session *fs, const char *driver, const char *path,
	   enum filter_direction dir, int blob, int *delayed)
{
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT, name = STRBUF_INIT;
	struct object_id oid;
	int ret;

	if (strbuf_read_file(&in, path) < 0)
		die("cannot read '%s'", path);
	if (blob)
		odb_hash(&oid, "blob", in.buf, in.len);
	ret = filter_apply_blob(fs, driver, path, dir, blob ? &oid : NULL,
				in.buf, in.len, &out);
	if (ret < 0)
		die_lib(ret);
	if (ret == FILTER_DELAYED) {
		(*delayed)++;
	} else {
		FILE *fp;

		strbuf_addf(&name, "%s.out", path);
		fp = fopen(name.buf, "wb");
		if (!fp || fwrite(out.buf, 1, out.len, fp) != out.len ||
		    fclose(fp))
			die("cannot write '%s'", name.buf);
	}
	strbuf_release(&name);
	strbuf_release(&out);
	strbuf_release(&in);
	return ret;
}

static int
filter_files(struct repo *repo, int argc, const char **argv)
{
	struct filter_session *fs;
	struct strbuf path = STRBUF_INIT;
	enum filter_direction dir;
	unsigned flags = 0;
	size_t errors = 0;
	int i = 2, blob = 0, delayed = 0, ret;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--delay"))
			flags |= FILTER_CAN_DELAY;
		else if (!strcmp(argv[i], "--blob"))
			blob = 1;
		else
			usage_with_options(test_tool_usage, NULL);
	}
	if (argc - i < 2)
		usage_with_options(test_tool_usage, NULL);
	if (!strcmp(argv[i], "clean"))
		dir = FILTER_CLEAN;
	else if (!strcmp(argv[i], "smudge"))
		dir = FILTER_SMUDGE;
	else
		usage_with_options(test_tool_usage, NULL);
	fs = filter_session_new(repo, flags);
	for (int j = i + 2; j < argc; j++)
		filter_one(fs, argv[i + 1], argv[j], dir, blob, &delayed);
	while (delayed && (ret = filter_delayed_next(fs, &path, &errors)))
		if (ret < 0)
			die_lib(ret);
		else
			filter_one(fs, argv[i + 1], path.buf, dir, blob,
				   &delayed);
	strbuf_release(&path);
	filter_session_end(fs);
	return errors ? 1 : 0;
}

static unsigned long fuzz_seed;

static unsigned
fuzz_rnd(unsigned n)
{
	fuzz_seed = (fuzz_seed * 1103515245 + 12345) % 2147483648UL;
	return (unsigned)((double)fuzz_seed / 2147483648.0 * n);
}

static void
fuzz_pkt(struct strbuf *out, const char *data, size_t len)
{
	strbuf_addf(out, "%04x", (unsigned)(len + 4));
	strbuf_add(out, data, len);
}

/* the answer to one request with content in, from the seed */
static void
fuzz_answer(struct strbuf *out, const struct strbuf *in)
{
	static const char *const lines[] = {
		"status=success\n", "status=error\n", "status=abort\n",
		"status=delayed\n", "pathname=x\n", "status=\n",
	};
	unsigned n = 1 + fuzz_rnd(6);

	if (!fuzz_rnd(3)) {
		size_t len = in->len < 1000 ? in->len : 1000;

		fuzz_pkt(out, "status=success\n", 15);
		strbuf_addstr(out, "0000");
		if (len)
			fuzz_pkt(out, in->buf, len);
	}
	for (unsigned i = 0; i < n; i++) {
		unsigned r = fuzz_rnd(10);

		if (r < 4) {
			strbuf_addstr(out, "0000");
		} else if (r < 7) {
			unsigned k = fuzz_rnd(ARRAY_SIZE(lines) + 1);

			if (k < ARRAY_SIZE(lines))
				fuzz_pkt(out, lines[k], strlen(lines[k]));
			else if (in->len)
				fuzz_pkt(out, in->buf, in->len < 60000 ?
					 in->len : 60000);
		} else if (r < 8) {
			strbuf_addf(out, "%04x", fuzz_rnd(65536));
		} else if (r < 9) {
			unsigned m = fuzz_rnd(50);

			strbuf_addf(out, "%04x", fuzz_rnd(40));
			for (unsigned j = 0; j < m; j++)
				strbuf_addch(out, (char)fuzz_rnd(256));
		} else {
			unsigned m = fuzz_rnd(8);

			for (unsigned j = 0; j < m; j++)
				strbuf_addch(out, (char)fuzz_rnd(256));
		}
	}
}

static int
filter_fuzz(int argc, const char **argv)
{
	struct strbuf pkt = STRBUF_INIT, in = STRBUF_INIT, out = STRBUF_INIT;
	char junk[65536];
	int flushes = 0, ret;

	if (argc != 3)
		usage_with_options(test_tool_usage, NULL);
	fuzz_seed = strtoul(argv[2], NULL, 10);
	/* the handshake, done right */
	while ((ret = pkt_read(0, &pkt, 1)) == PKT_READ_DATA)
		;
	if (ret < 0 || pkt_write_line(1, "git-filter-server") < 0 ||
	    pkt_write_line(1, "version=2") < 0 || pkt_flush(1) < 0)
		return 1;
	while ((ret = pkt_read(0, &pkt, 1)) == PKT_READ_DATA)
		;
	if (ret < 0 || pkt_write_line(1, "capability=clean") < 0 ||
	    pkt_write_line(1, "capability=smudge") < 0 || pkt_flush(1) < 0)
		return 1;
	/* one request: its list, its content */
	while (flushes < 2 && (ret = pkt_read(0, &pkt, 0)) >= 0) {
		if (ret == PKT_READ_FLUSH)
			flushes++;
		else if (flushes == 1)
			strbuf_addbuf(&in, &pkt);
	}
	if (flushes < 2)
		return 0;
	fuzz_answer(&out, &in);
	if (write_full(1, out.buf, out.len) < 0)
		return 1;
	close(1);
	while (read(0, junk, sizeof(junk)) > 0)
		;
	strbuf_release(&pkt);
	strbuf_release(&in);
	strbuf_release(&out);
	return 0;
}

static int
sparse_match(struct repo *repo)
{
	struct sparse sp;
	struct strbuf line = STRBUF_INIT;
	int ret;

	sparse_init(&sp);
	ret = sparse_load(&sp, repo);
	if (ret < 0)
		die_lib(ret);
	if (!ret)
		die("sparse checkout is off (core.sparseCheckout, "
		    "info/sparse-checkout)");
	while (strbuf_getdelim(&line, stdin, '\n') != EOF) {
		const char *path = line.buf;
		unsigned mode = 0100644;

		if (!strncmp(path, "160000 ", 7)) {
			mode = 0160000;
			path += 7;
		}
		printf("%c %s\n", sparse_path_in(&sp, path, strlen(path),
						  mode) ? 'H' : 'S', path);
	}
	strbuf_release(&line);
	sparse_release(&sp);
	return 0;
}

/* overwrite the file fd in place with the bytes of the file other */
static void
overwrite(int fd, const char *other)
{
	struct read_buf rb = READ_BUF_INIT;
	int ofd = open(other, O_RDONLY);
	ssize_t n;

	if (ofd < 0)
		die("open(\"%s\"): %s", other, strerror(errno));
	n = fileio_slurp_fd(&rb, ofd, other);
	if (n < 0)
		die_lib(n);
	close(ofd);
	if (pwrite(fd, rb.buf, n, 0) != n)
		die("unable to write: %s", strerror(errno));
	read_buf_release(&rb);
}

static int
clean_twice(struct repo *repo, int argc, const char **argv)
{
	struct convert_stream *cs = xmalloc(sizeof(*cs));
	struct read_buf rb = READ_BUF_INIT;
	struct convert_plan p;
	struct object_id oid;
	struct odb_xform *x;
	struct convert *cv;
	struct odb *odb;
	struct stat st;
	int fd, ret;

	if (argc != 4)
		usage_with_options(test_tool_usage, NULL);
	ret = repo_odb(&odb, repo);
	if (ret < 0)
		die_lib(ret);
	cv = convert_new(repo, NULL, odb, 0);
	fd = open(argv[2], O_RDWR);
	if (fd < 0 || fstat(fd, &st) < 0)
		die("open(\"%s\"): %s", argv[2], strerror(errno));
	convert_plan_for(&p, cv, argv[2]);
	if (!convert_can_stream(&p, st.st_size))
		die("%s: not a file that streams", argv[2]);
	ret = convert_stream_count(cs, fd, st.st_size, &rb, argv[2]);
	if (!ret)
		ret = convert_stream_decide(&x, cs, cv, &p, argv[2], NULL, 0,
					    NULL);
	if (!ret) {
		overwrite(fd, argv[3]);
		ret = odb_hash_fd_xform(&oid, "blob", fd, st.st_size, x,
					argv[2], &rb);
	}
	if (ret < 0)
		die_lib(ret);
	puts(oid_to_hex(&oid));
	close(fd);
	free(cs);
	read_buf_release(&rb);
	convert_free(cv);
	return 0;
}

struct item_list {
	struct odb_many_item *items;	/* owned */
	size_t nr, alloc;
};

static int
collect_oid(const struct object_id *oid, void *ctx)
{
	struct item_list *l = ctx;

	ALLOC_GROW(l->items, l->nr + 1, l->alloc);
	l->items[l->nr++] = (struct odb_many_item){ .oid = *oid };
	return 0;
}

static int
cmp_item(const void *a, const void *b)
{
	const struct odb_many_item *x = a, *y = b;

	return oidcmp(&x->oid, &y->oid);
}

static double
seconds_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) + (t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* read-objects: see the top of the file */
static int
read_objects(struct repo *repo, int argc, const char **argv)
{
	struct item_list l = { NULL, 0, 0 };
	struct strbuf line = STRBUF_INIT;
	struct odb_many m;
	struct timespec t0;
	struct odb *odb;
	int info = 0, all = 0, ret;
	size_t pos = 0;

	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--info"))
			info = 1;
		else if (!strcmp(argv[i], "--all"))
			all = 1;
		else
			usage_with_options(test_tool_usage, NULL);
	}
	ret = repo_odb(&odb, repo);
	if (ret < 0)
		die_lib(ret);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (all) {
		size_t k = 0;

		ret = odb_for_each_object(odb, 0, collect_oid, &l);
		if (ret < 0)
			die_lib(ret);
		sort_array(l.items, l.nr, sizeof(*l.items), cmp_item);
		for (size_t i = 0; i < l.nr; i++)
			if (!i || !oideq(&l.items[i].oid, &l.items[i - 1].oid))
				l.items[k++] = l.items[i];
		l.nr = k;
	} else {
		while (strbuf_getdelim(&line, stdin, '\n') != EOF) {
			struct object_id oid;

			if (hex_to_oid(&oid, line.buf) ||
			    line.buf[HASH_HEXSZ])
				die("not an object id: '%s'", line.buf);
			collect_oid(&oid, &l);
		}
	}
	odb_many_init(&m, odb, workers_count(0, repo->settings.threads,
					     SIZE_MAX, 0), info);
	while (pos < l.nr) {
		size_t k = odb_many_read(&m, l.items + pos, l.nr - pos);

		for (size_t i = pos; i < pos + k; i++) {
			if (l.items[i].ret < 0)
				die("cannot read %s",
				    oid_to_hex(&l.items[i].oid));
			odb_object_release(&l.items[i].obj);
		}
		pos += k;
	}
	odb_many_release(&m);
	printf("%zu objects %.6f s\n", l.nr, seconds_since(&t0));
	free(l.items);
	strbuf_release(&line);
	return 0;
}

/* One input, whole, hashed (and stored) as type; prints its id. */
static void
hash_literally_one(struct odb *odb, const char *type, int write, int fd,
		   const char *name)
{
	struct read_buf rb = READ_BUF_INIT;
	struct object_id oid;
	ssize_t n = fileio_slurp_fd(&rb, fd, name);
	int ret = 0;

	if (n < 0)
		die_lib(n);
	if (write)
		ret = odb_write(odb, &odb->writer, type, rb.buf, n, &oid);
	else
		odb_hash(&oid, type, rb.buf, n);
	if (ret < 0)
		die_lib(ret);
	puts(oid_to_hex(&oid));
	read_buf_release(&rb);
}

static void
hash_literally_file(struct odb *odb, const char *type, int write,
		    const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die("could not open '%s' for reading: %s", path,
		    strerror(errno));
	hash_literally_one(odb, type, write, fd, path);
	close(fd);
}

static int
hash_literally(int argc, const char **argv)
{
	const char *type = NULL;
	int write = 0, from_stdin = 0, stdin_paths = 0, ret;
	struct repo repo;
	struct odb local, *odb = &local;
	struct option opts[] = {
		OPT_STRING('t', NULL, &type, "<type>", "any type string"),
		OPT_BOOL('w', NULL, &write, "store the object"),
		OPT_BOOL(0, "stdin", &from_stdin, "hash standard input"),
		OPT_BOOL(0, "stdin-paths", &stdin_paths,
			 "hash the files named on standard input"),
		OPT_END(),
	};

	argv++;		/* from "hash-literally": the options, then files */
	argc = parse_options(argc - 1, argv, opts, test_tool_usage, 0);
	if (!type)
		die("hash-literally needs -t <type>");
	ret = repo_open(&repo, (write ? 0 : REPO_GENTLY) | REPO_NO_CHDIR);
	if (ret < 0)
		die_lib(ret);
	if (write) {
		ret = repo_odb(&odb, &repo);
		if (ret < 0)
			die_lib(ret);
	} else {
		odb_init(&local, repo.objdir ? repo.objdir : ".", NULL);
	}
	if (from_stdin)
		hash_literally_one(odb, type, write, 0, "standard input");
	for (int i = 0; i < argc; i++)
		hash_literally_file(odb, type, write, argv[i]);
	if (stdin_paths) {
		struct strbuf line = STRBUF_INIT;

		while (strbuf_getdelim(&line, stdin, '\n') != EOF)
			hash_literally_file(odb, type, write, line.buf);
		strbuf_release(&line);
	}
	if (write) {
		ret = odb_flush(odb);
		if (ret < 0)
			die_lib(ret);
	} else {
		odb_release(&local);
	}
	repo_release(&repo);
	return 0;
}

int
cmd_test_tool(int argc, const char **argv)
{
	struct repo repo;
	int ret;

	if (argc < 2)
		usage_with_options(test_tool_usage, NULL);
	if (!strcmp(argv[1], "mempool"))
		return mempool_bench(count_arg(argc, argv));
	if (!strcmp(argv[1], "repo-setup"))
		return repo_setup(argc, argv);
	if (!strcmp(argv[1], "filter-fuzz"))
		return filter_fuzz(argc, argv);
	if (!strcmp(argv[1], "reftable"))
		return test_tool_reftable(argc, argv);
	if (!strcmp(argv[1], "hash-literally"))
		return hash_literally(argc, argv);
	ret = repo_open(&repo, 0);
	if (ret < 0)
		die_lib(ret);
	if (!strcmp(argv[1], "read-index"))
		ret = read_index_n(&repo, count_arg(argc, argv));
	else if (!strcmp(argv[1], "write-index"))
		ret = write_index_n(&repo, count_arg(argc, argv));
	else if (!strcmp(argv[1], "sparse-match"))
		ret = sparse_match(&repo);
	else if (!strcmp(argv[1], "verify-index")) {
		struct index idx;

		ret = index_read_in(&idx, repo.index_path, &repo,
				    INDEX_READ_VERIFY, 0);
		if (ret < 0)
			die_lib(ret);
		index_release(&idx);
	} else if (!strcmp(argv[1], "filter"))
		ret = filter_files(&repo, argc, argv);
	else if (!strcmp(argv[1], "clean-twice"))
		ret = clean_twice(&repo, argc, argv);
	else if (!strcmp(argv[1], "read-objects"))
		ret = read_objects(&repo, argc, argv);
	else
		usage_with_options(test_tool_usage, NULL);
	repo_release(&repo);
	return ret;
}
