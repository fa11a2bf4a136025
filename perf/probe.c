/*
 * probe: the floors of the perf suite, measured on this machine in the
 * run that reports against them: the least a tool must spend on the work
 * of a workload, done the plainest way, on N threads.
 *
 *   probe lstat [-j N] <tree> <list>          lstat() every listed path
 *   probe sha1  [-j N] <tree> <list>          read each file, SHA-1 it as
 *                                             a blob ("blob <size>\0")
 *   probe loose [-j N] <tree> <list> <dir>    read, SHA-1, deflate at
 *                                             level 1 and write each as a
 *                                             loose object under <dir>
 *   probe write [-j N] <tree> <list> <dir>    read every entry into memory
 *                                             first (untimed), then write
 *                                             them all under <dir>:
 *                                             directories, files (their
 *                                             modes), symbolic links
 *
 * <list> holds one path per line, relative to <tree> (perf/gen-tree
 * --list).  <dir> must not exist yet (write) or be empty (loose).  The
 * listed entries are handed out to the threads in batches of 64, in list
 * order.  Only the work is timed: the list and (write) the contents are
 * loaded before the clock starts.  Prints
 *   seconds=<s> entries=<n> bytes=<n>
 * and exits 1 on any error (a floor from half the work is no floor).
 */
/* SHA1_*: what dirc itself calls (lib/hash.c), deprecated in OpenSSL 3 */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <openssl/sha.h>
#include <zlib.h>

#define BATCH 64

enum mode { M_LSTAT, M_SHA1, M_LOOSE, M_WRITE };

struct entry {
	char *path;		/* relative to the tree */
	mode_t mode;		/* write: S_IFREG | perm, or S_IFLNK */
	char *data;		/* write: contents or link target */
	size_t size;
};

static enum mode mode;
static int tree_fd = -1;
static const char *out_dir;
static struct entry *entries;
static size_t nr;
static atomic_size_t next_entry;
static atomic_uint_fast64_t total_bytes;
static atomic_int failed;

static void die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

static void
die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "probe: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(1);
}

static void
fail(const char *what, const char *path)
{
	fprintf(stderr, "probe: %s '%s': %s\n", what, path, strerror(errno));
	atomic_store(&failed, 1);
}

static void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

static void
load_list(const char *list)
{
	FILE *f = fopen(list, "r");
	char *line = NULL;
	size_t cap = 0, alloc = 0;
	ssize_t len;

	if (!f)
		die("cannot open %s", list);
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (!len)
			continue;
		if (nr == alloc) {
			alloc = alloc ? 2 * alloc : 4096;
			entries = realloc(entries, alloc * sizeof(*entries));
			if (!entries)
				die("out of memory");
		}
		memset(&entries[nr], 0, sizeof(entries[nr]));
		entries[nr].path = strdup(line);
		if (!entries[nr].path)
			die("out of memory");
		nr++;
	}
	free(line);
	fclose(f);
}

/* Read the whole of an open file of size bytes into a new buffer. */
static char *
read_whole(int fd, size_t size, const char *path)
{
	char *buf = xmalloc(size);
	size_t got = 0;

	while (got < size) {
		ssize_t n = read(fd, buf + got, size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!n)
				errno = EIO;
			fail("cannot read", path);
			free(buf);
			return NULL;
		}
		got += (size_t)n;
	}
	return buf;
}

/* write: every entry's type, mode and contents, before the clock. */
static void
load_contents(void)
{
	for (size_t i = 0; i < nr; i++) {
		struct entry *e = &entries[i];
		struct stat st;

		if (fstatat(tree_fd, e->path, &st, AT_SYMLINK_NOFOLLOW) < 0)
			die("cannot lstat %s", e->path);
		e->mode = st.st_mode;
		e->size = (size_t)st.st_size;
		if (S_ISLNK(st.st_mode)) {
			e->data = xmalloc(e->size + 1);
			if (readlinkat(tree_fd, e->path, e->data, e->size + 1) !=
			    (ssize_t)e->size)
				die("cannot read the link %s", e->path);
			e->data[e->size] = '\0';
		} else if (S_ISREG(st.st_mode)) {
			int fd = openat(tree_fd, e->path, O_RDONLY);

			if (fd < 0)
				die("cannot open %s", e->path);
			e->data = read_whole(fd, e->size, e->path);
			close(fd);
			if (!e->data)
				exit(1);
		} else {
			die("not a file or a link: %s", e->path);
		}
	}
}

/* Make the leading directories of path under dir_fd ("a/b/" of "a/b/c"). */
static int
make_leading(int dir_fd, const char *path)
{
	char buf[4096];
	size_t len = strlen(path);

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, path, len + 1);
	for (char *p = buf; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdirat(dir_fd, buf, 0777) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return 0;
}

static int
write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* write: create entry e under the output directory. */
static void
write_entry(int out_fd, const struct entry *e, const char **last_dir,
	    size_t *last_len)
{
	const char *slash = strrchr(e->path, '/');
	size_t dlen = slash ? (size_t)(slash - e->path) + 1 : 0;
	int fd;

	/* entries come in list order: one directory's files together */
	if (dlen && (dlen != *last_len || memcmp(e->path, *last_dir, dlen))) {
		if (make_leading(out_fd, e->path) < 0) {
			fail("cannot make the directories of", e->path);
			return;
		}
		*last_dir = e->path;
		*last_len = dlen;
	}
	if (S_ISLNK(e->mode)) {
		if (symlinkat(e->data, out_fd, e->path) < 0)
			fail("cannot make the link", e->path);
		return;
	}
	fd = openat(out_fd, e->path, O_WRONLY | O_CREAT | O_EXCL,
		    (e->mode & 0100) ? 0777 : 0666);
	if (fd < 0) {
		fail("cannot create", e->path);
		return;
	}
	if (write_all(fd, e->data, e->size) < 0)
		fail("cannot write", e->path);
	if (close(fd) < 0)
		fail("cannot close", e->path);
	atomic_fetch_add(&total_bytes, e->size);
}

static void
hex(char *out, const unsigned char *raw, size_t n)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[raw[i] >> 4];
		out[2 * i + 1] = digits[raw[i] & 15];
	}
	out[2 * n] = '\0';
}

struct worker {
	SHA_CTX md;
	char *buf;		/* file contents */
	size_t buf_alloc;
	unsigned char *zbuf;	/* deflated object */
	size_t zbuf_alloc;
	z_stream z;
};

/* sha1 and loose: hash (and store) one file. */
static void
hash_entry(struct worker *w, int out_fd, const struct entry *e)
{
	char hdr[32], name[2 * SHA_DIGEST_LENGTH + 2];
	unsigned char raw[SHA_DIGEST_LENGTH];
	struct stat st;
	int hdr_len, fd = openat(tree_fd, e->path, O_RDONLY | O_NOFOLLOW);
	size_t size;

	if (fd < 0) {
		if (errno == ELOOP)	/* a symbolic link: not a read */
			return;
		fail("cannot open", e->path);
		return;
	}
	if (fstat(fd, &st) < 0) {
		fail("cannot stat", e->path);
		close(fd);
		return;
	}
	size = (size_t)st.st_size;
	if (size > w->buf_alloc) {
		free(w->buf);
		w->buf_alloc = size;
		w->buf = xmalloc(size);
	}
	for (size_t got = 0; got < size;) {
		ssize_t n = read(fd, w->buf + got, size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			errno = n ? errno : EIO;
			fail("cannot read", e->path);
			close(fd);
			return;
		}
		got += (size_t)n;
	}
	close(fd);
	hdr_len = snprintf(hdr, sizeof(hdr), "blob %zu", size) + 1;
	if (!SHA1_Init(&w->md) ||
	    !SHA1_Update(&w->md, hdr, (size_t)hdr_len) ||
	    !SHA1_Update(&w->md, w->buf, size) ||
	    !SHA1_Final(raw, &w->md)) {
		errno = EINVAL;
		fail("cannot hash", e->path);
		return;
	}
	atomic_fetch_add(&total_bytes, size);
	if (mode != M_LOOSE)
		return;

	/* "xx/yyyy...": the fan-out directory, then the object */
	hex(name + 1, raw, sizeof(raw));
	name[0] = name[1];
	name[1] = name[2];
	name[2] = '/';
	{
		size_t bound = deflateBound(&w->z, (uLong)(size + (size_t)hdr_len));
		int zfd, ret;

		if (bound > w->zbuf_alloc) {
			free(w->zbuf);
			w->zbuf_alloc = bound;
			w->zbuf = xmalloc(bound);
		}
		deflateReset(&w->z);
		w->z.next_out = w->zbuf;
		w->z.avail_out = (uInt)bound;
		w->z.next_in = (unsigned char *)hdr;
		w->z.avail_in = (uInt)hdr_len;
		ret = deflate(&w->z, Z_NO_FLUSH);
		w->z.next_in = (unsigned char *)w->buf;
		w->z.avail_in = (uInt)size;
		if (ret == Z_OK)
			ret = deflate(&w->z, Z_FINISH);
		if (ret != Z_STREAM_END) {
			errno = EINVAL;
			fail("cannot deflate", e->path);
			return;
		}
		name[2] = '\0';
		if (mkdirat(out_fd, name, 0777) < 0 && errno != EEXIST) {
			fail("cannot make", name);
			return;
		}
		name[2] = '/';
		zfd = openat(out_fd, name, O_WRONLY | O_CREAT | O_EXCL, 0444);
		if (zfd < 0) {
			if (errno != EEXIST)	/* the same content twice */
				fail("cannot create", name);
			return;
		}
		if (write_all(zfd, w->zbuf, bound - w->z.avail_out) < 0)
			fail("cannot write", name);
		if (close(zfd) < 0)
			fail("cannot close", name);
	}
}

static void *
work(void *arg)
{
	struct worker w = { 0 };
	int out_fd = -1;
	const char *last_dir = "";
	size_t last_len = 0;

	(void)arg;
	if (out_dir) {
		out_fd = open(out_dir, O_RDONLY | O_DIRECTORY);
		if (out_fd < 0) {
			fail("cannot open", out_dir);
			return NULL;
		}
	}
	if (mode == M_LOOSE) {
		if (deflateInit(&w.z, 1) != Z_OK) {
			errno = ENOMEM;
			fail("cannot set up", "zlib");
			return NULL;
		}
	}
	for (;;) {
		size_t i = atomic_fetch_add(&next_entry, BATCH), end;

		if (i >= nr || atomic_load(&failed))
			break;
		end = i + BATCH < nr ? i + BATCH : nr;
		for (; i < end; i++) {
			struct stat st;

			switch (mode) {
			case M_LSTAT:
				if (fstatat(tree_fd, entries[i].path, &st,
					    AT_SYMLINK_NOFOLLOW) < 0)
					fail("cannot lstat", entries[i].path);
				break;
			case M_SHA1:
			case M_LOOSE:
				hash_entry(&w, out_fd, &entries[i]);
				break;
			case M_WRITE:
				write_entry(out_fd, &entries[i], &last_dir,
					    &last_len);
				break;
			}
		}
	}
	if (mode == M_LOOSE)
		deflateEnd(&w.z);
	free(w.buf);
	free(w.zbuf);
	if (out_fd >= 0)
		close(out_fd);
	return NULL;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
usage(void)
{
	fputs("usage: probe lstat|sha1 [-j N] <tree> <list>\n"
	      "   or: probe loose|write [-j N] <tree> <list> <dir>\n", stderr);
	exit(2);
}

int
main(int argc, char **argv)
{
	pthread_t *tids;
	long threads = 2;
	int argi = 2, want;
	double t0, t1;

	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "lstat"))
		mode = M_LSTAT;
	else if (!strcmp(argv[1], "sha1"))
		mode = M_SHA1;
	else if (!strcmp(argv[1], "loose"))
		mode = M_LOOSE;
	else if (!strcmp(argv[1], "write"))
		mode = M_WRITE;
	else
		usage();
	if (argi < argc && !strcmp(argv[argi], "-j")) {
		char *end;

		if (argi + 1 >= argc)
			usage();
		threads = strtol(argv[argi + 1], &end, 10);
		if (*end || threads < 1 || threads > 1024)
			die("-j wants a thread count, 1 to 1024, not '%s'",
			    argv[argi + 1]);
		argi += 2;
	}
	want = mode == M_LOOSE || mode == M_WRITE ? 3 : 2;
	if (argc - argi != want)
		usage();
	tree_fd = open(argv[argi], O_RDONLY | O_DIRECTORY);
	if (tree_fd < 0)
		die("cannot open the tree %s", argv[argi]);
	load_list(argv[argi + 1]);
	if (want == 3) {
		out_dir = argv[argi + 2];
		if (mode == M_WRITE && mkdir(out_dir, 0777) < 0)
			die("cannot make %s (it must not exist)", out_dir);
	}
	if (mode == M_WRITE)
		load_contents();

	tids = xmalloc((size_t)threads * sizeof(*tids));
	t0 = now();
	for (long i = 0; i < threads; i++)
		if (pthread_create(&tids[i], NULL, work, NULL))
			die("cannot start a thread");
	for (long i = 0; i < threads; i++)
		pthread_join(tids[i], NULL);
	t1 = now();
	free(tids);
	if (atomic_load(&failed))
		return 1;
	printf("seconds=%.6f entries=%zu bytes=%" PRIuFAST64 "\n", t1 - t0, nr,
	       (uint_fast64_t)atomic_load(&total_bytes));
	return 0;
}
