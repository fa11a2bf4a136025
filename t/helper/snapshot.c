/*
 * snapshot: a work tree as one text, for comparing two work trees in the
 * tests (t/lib-worktree.sh's snapshot).  One process where find, cksum,
 * sort and awk took six: the twin-repository scripts take thousands.
 *
 *   snapshot <dir>
 *
 * Every path under dir but dir/.git (dir itself is "."), one line each,
 * in byte order of the path ("./a" < "./a-b" < "./a/b"):
 *
 *   file <mode> ./<path> <crc> <size>   a regular file; crc as cksum(1)
 *   dir <mode> ./<path>
 *   link ./<path> -> <target>
 *   other <type> <mode> ./<path>       type as find's %y (p, s, b, c)
 *
 * mode: the permission bits in octal, no leading zeros.  Names are
 * printed raw (a newline in a name is not told apart).  Exit 2 when a
 * path cannot be read (the message on stderr), the output then partial.
 * libc only.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static uint32_t crc_table[256];
static int failed;

/* The lines, each with its path, printed in the paths' order at the end. */
struct line {
	char *path;
	char *text;
};
static struct line *lines;
static size_t nr_lines, alloc_lines;

static char *
xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		abort();
	return d;
}

__attribute__((format(printf, 2, 3))) static void
emit(const char *path, const char *fmt, ...)
{
	va_list ap;
	char *text;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !(text = malloc((size_t)n + 1)))
		abort();
	va_start(ap, fmt);
	vsnprintf(text, (size_t)n + 1, fmt, ap);
	va_end(ap);
	if (nr_lines == alloc_lines) {
		alloc_lines = alloc_lines ? 2 * alloc_lines : 256;
		lines = realloc(lines, alloc_lines * sizeof(*lines));
		if (!lines)
			abort();
	}
	lines[nr_lines].path = xstrdup(path);
	lines[nr_lines++].text = text;
}

static int
by_path(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->path,
		      ((const struct line *)b)->path);
}

static void
crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i << 24;

		for (int k = 0; k < 8; k++)
			c = c & 0x80000000u ? (c << 1) ^ 0x04c11db7u : c << 1;
		crc_table[i] = c;
	}
}

static uint32_t
crc_add(uint32_t crc, const unsigned char *p, size_t n)
{
	while (n--)
		crc = (crc << 8) ^ crc_table[(crc >> 24) ^ *p++];
	return crc;
}

/* POSIX cksum of the file at path: 0 and *crc, *size; -1 on error. */
static int
cksum(const char *path, uint32_t *crc, uintmax_t *size)
{
	unsigned char buf[65536], len[sizeof(uintmax_t)];
	int fd = open(path, O_RDONLY | O_NOFOLLOW);
	uintmax_t total = 0, n;
	uint32_t c = 0;
	size_t nlen = 0;
	ssize_t got;

	if (fd < 0)
		return -1;
	while ((got = read(fd, buf, sizeof(buf))) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			return -1;
		}
		c = crc_add(c, buf, (size_t)got);
		total += (uintmax_t)got;
	}
	close(fd);
	for (n = total; n; n >>= 8)
		len[nlen++] = (unsigned char)(n & 0xff);
	c = crc_add(c, len, nlen);
	*crc = ~c;
	*size = total;
	return 0;
}

static void
fail(const char *what, const char *path)
{
	fprintf(stderr, "snapshot: %s '%s': %s\n", what, path, strerror(errno));
	failed = 1;
}

/* Print path (already lstat()ed into st), then what is below it. */
static void
walk(char *path, size_t len, size_t cap, const struct stat *st)
{
	unsigned mode = (unsigned)(st->st_mode & 07777);

	if (S_ISREG(st->st_mode)) {
		uint32_t crc;
		uintmax_t size;

		if (cksum(path, &crc, &size) < 0)
			return fail("cannot read", path);
		emit(path, "file %o %s %lu %ju\n", mode, path,
		     (unsigned long)crc, size);
		return;
	}
	if (S_ISLNK(st->st_mode)) {
		char target[4097];
		ssize_t n = readlink(path, target, sizeof(target) - 1);

		if (n < 0)
			return fail("cannot read link", path);
		target[n] = '\0';
		emit(path, "link %s -> %s\n", path, target);
		return;
	}
	if (!S_ISDIR(st->st_mode)) {
		char type = S_ISFIFO(st->st_mode) ? 'p' :
			    S_ISSOCK(st->st_mode) ? 's' :
			    S_ISBLK(st->st_mode) ? 'b' : 'c';

		emit(path, "other %c %o %s\n", type, mode, path);
		return;
	}
	emit(path, "dir %o %s\n", mode, path);

	DIR *d = opendir(path);
	struct dirent *de;
	char **names = NULL;
	size_t nr = 0, alloc = 0;

	if (!d)
		return fail("cannot open directory", path);
	while ((de = readdir(d))) {
		const char *n = de->d_name;

		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		if (len == 1 && !strcmp(n, ".git"))
			continue;	/* only the top's .git */
		if (nr == alloc) {
			alloc = alloc ? 2 * alloc : 16;
			names = realloc(names, alloc * sizeof(*names));
			if (!names)
				abort();
		}
		names[nr++] = xstrdup(n);
	}
	closedir(d);
	for (size_t i = 0; i < nr; i++) {
		size_t nl = strlen(names[i]);
		struct stat sub;

		if (len + 1 + nl + 1 > cap) {
			errno = ENAMETOOLONG;
			fail("cannot walk", names[i]);
		} else {
			path[len] = '/';
			memcpy(path + len + 1, names[i], nl + 1);
			if (lstat(path, &sub) < 0)
				fail("cannot lstat", path);
			else
				walk(path, len + 1 + nl, cap, &sub);
			path[len] = '\0';
		}
		free(names[i]);
	}
	free(names);
}

int
main(int argc, char **argv)
{
	static char path[65536] = ".";
	struct stat st;

	if (argc != 2) {
		fprintf(stderr, "usage: snapshot <dir>\n");
		return 2;
	}
	if (chdir(argv[1]) < 0) {
		fail("cannot change to", argv[1]);
		return 2;
	}
	crc_init();
	if (lstat(".", &st) < 0)
		fail("cannot lstat", argv[1]);
	else
		walk(path, 1, sizeof(path), &st);
	qsort(lines, nr_lines, sizeof(*lines), by_path);
	for (size_t i = 0; i < nr_lines; i++)
		fputs(lines[i].text, stdout);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "snapshot: write error\n");
		return 2;
	}
	return failed ? 2 : 0;
}
