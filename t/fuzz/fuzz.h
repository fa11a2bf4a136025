/*
 * fuzz.h: what the libFuzzer targets share — the entry point's
 * prototype, and a memory file (memfd) that lets a target run dirc's
 * fd-based writers without touching the file system.  Targets are
 * single-threaded; the memfd lives for the whole process.
 */
#ifndef DIRC_FUZZ_H
#define DIRC_FUZZ_H

/* memfd_create(); include this first, before any system header */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <ftw.h>
#include <unistd.h>

#include "strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The process's memfd, emptied and rewound. */
static inline int
fuzz_memfd(void)
{
	static int fd = -1;

	if (fd < 0) {
		fd = memfd_create("dirc-fuzz", MFD_CLOEXEC);
		if (fd < 0)
			BUG("memfd_create: %s", strerror(errno));
	}
	if (ftruncate(fd, 0) < 0 || lseek(fd, 0, SEEK_SET) < 0)
		BUG("cannot reset the memfd: %s", strerror(errno));
	return fd;
}

/* Everything written to fd since fuzz_memfd(), replacing out. */
static inline void
fuzz_memfd_read(struct strbuf *out, int fd)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		BUG("fstat of the memfd: %s", strerror(errno));
	strbuf_reset(out);
	strbuf_grow(out, st.st_size);
	if (pread(fd, out->buf, st.st_size, 0) != st.st_size)
		BUG("short read of the memfd");
	strbuf_setlen(out, st.st_size);
}

/* A new directory $TMPDIR/dirc-fuzz-<name>.XXXXXX into top (n bytes). */
static inline void
fuzz_tmpdir(char *top, size_t n, const char *name)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(top, n, "%s/dirc-fuzz-%s.XXXXXX", tmp && *tmp ? tmp : "/tmp",
		 name);
	if (!mkdtemp(top))
		BUG("mkdtemp: %s", strerror(errno));
}

static inline int
fuzz_remove_one(const char *path, const struct stat *st, int type,
		struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	if (remove(path) < 0)
		fprintf(stderr, "fuzz: cannot remove %s: %s\n", path,
			strerror(errno));
	return 0;
}

/* Remove the directory top and everything in it (at exit). */
static inline void
fuzz_remove_tree(const char *top)
{
	if (nftw(top, fuzz_remove_one, 16, FTW_DEPTH | FTW_PHYS))
		fprintf(stderr, "fuzz: could not remove %s\n", top);
}

#endif
