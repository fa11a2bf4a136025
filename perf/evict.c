/*
 * evict: drop files' data from the page cache without root, for "cold
 * cache" measurements in the perf suite.
 *
 *   evict [-s] <path>...
 *
 * Walks each path (a symlink given on the command line is followed; links
 * inside are not), opens every regular file read-only and asks the kernel
 * to drop its cached pages with posix_fadvise(POSIX_FADV_DONTNEED).  Clean
 * pages go at once.  Dirty pages (a tree written moments ago) are not
 * dropped until written back, so -s first fdatasync()s each file; without
 * -s, run `sync` first.
 *
 * What stays warm: the kernel still caches inodes and directory entries
 * (only root can drop those, via /proc/sys/vm/drop_caches), so "cold" here
 * means cold file data with warm metadata.
 *
 * Prints "files=<n> bytes=<n> errors=<n>" and exits 1 if any file or path
 * could not be handled.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

struct counts {
	uintmax_t files;
	uintmax_t bytes;
	uintmax_t errors;
};

static int sync_first;

static void
warn_errno(struct counts *c, const char *what, const char *path)
{
	fprintf(stderr, "evict: %s '%s': %s\n", what, path, strerror(errno));
	c->errors++;
}

/* Evict one open regular file; fd is closed. */
static void
evict_fd(struct counts *c, int fd, const char *path, const struct stat *st)
{
	int ret;

	if (sync_first && fdatasync(fd) < 0 && errno != EINVAL)
		warn_errno(c, "cannot sync", path);
	ret = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (ret) {
		errno = ret;
		warn_errno(c, "cannot drop cache of", path);
	} else {
		c->files++;
		c->bytes += (uintmax_t)st->st_size;
	}
	close(fd);
}

static void
walk(struct counts *c, int dirfd, const char *path)
{
	DIR *dp = fdopendir(dirfd);
	struct dirent *de;

	if (!dp) {
		warn_errno(c, "cannot read directory", path);
		close(dirfd);
		return;
	}
	while ((errno = 0, de = readdir(dp))) {
		size_t pl = strlen(path), nl = strlen(de->d_name);
		struct stat st;
		char *sub;
		int fd;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		sub = malloc(pl + nl + 2);
		if (!sub) {
			fprintf(stderr, "evict: out of memory\n");
			exit(1);
		}
		memcpy(sub, path, pl);
		sub[pl] = '/';
		memcpy(sub + pl + 1, de->d_name, nl + 1);
		if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			warn_errno(c, "cannot stat", sub);
		} else if (S_ISDIR(st.st_mode)) {
			fd = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY |
				    O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0)
				warn_errno(c, "cannot open", sub);
			else
				walk(c, fd, sub);
		} else if (S_ISREG(st.st_mode)) {
			fd = openat(dirfd, de->d_name, O_RDONLY | O_NOFOLLOW |
				    O_NONBLOCK | O_CLOEXEC);
			if (fd < 0)
				warn_errno(c, "cannot open", sub);
			else
				evict_fd(c, fd, sub, &st);
		}
		free(sub);
	}
	if (errno)
		warn_errno(c, "cannot read directory", path);
	closedir(dp);
}

static void
evict_path(struct counts *c, const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	if (fd < 0) {
		warn_errno(c, "cannot open", path);
		return;
	}
	if (fstat(fd, &st) < 0) {
		warn_errno(c, "cannot stat", path);
		close(fd);
	} else if (S_ISDIR(st.st_mode)) {
		walk(c, fd, path);
	} else if (S_ISREG(st.st_mode)) {
		evict_fd(c, fd, path, &st);
	} else {
		close(fd);
	}
}

int
main(int argc, char **argv)
{
	struct counts c = { 0, 0, 0 };
	int i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "-s") || !strcmp(argv[i], "--sync")) {
			sync_first = 1;
		} else if (!strcmp(argv[i], "-h") ||
			   !strcmp(argv[i], "--help")) {
			puts("usage: evict [-s] <path>...\n"
			     "Drop the page-cache data of every regular file "
			     "under each path (no root needed).\n"
			     "  -s, --sync  fdatasync each file first, so "
			     "dirty pages can go too");
			return 0;
		} else {
			fprintf(stderr, "evict: unknown option '%s'\n"
				"usage: evict [-s] <path>...\n", argv[i]);
			return 2;
		}
	}
	if (i >= argc) {
		fputs("usage: evict [-s] <path>...\n", stderr);
		return 2;
	}
	for (; i < argc; i++)
		evict_path(&c, argv[i]);
	printf("files=%ju bytes=%ju errors=%ju\n", c.files, c.bytes, c.errors);
	return c.errors || fflush(stdout) ? 1 : 0;
}
