/*
 * t-read: read_full and read_at_least (util.h) over pipes, where reads
 * come back short: how much each returns, where it stops, and what it
 * leaves unread; pread_full at offsets of a file, its end and past it,
 * an offset too large for off_t, and the file offset left alone.
 */
#include "tap.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* a pipe holding the pieces given (each one write), closed if eof */
static int
pipe_with(const char *const *pieces, int eof)
{
	int fds[2];

	if (pipe(fds))
		return -1;
	for (; *pieces; pieces++)
		if (write_full(fds[1], *pieces, strlen(*pieces)))
			return -1;
	if (eof)
		close(fds[1]);
	return fds[0];
}

static void
test_read_at_least(void)
{
	const char *two[] = { "abc", "de", NULL };
	const char *six[] = { "abcdef", NULL };
	const char *seven[] = { "abcdefg", NULL };
	char buf[16];
	int fd;

	/* short reads: goes on until want is in; the file's end unread */
	fd = pipe_with(two, 0);
	is_int(read_at_least(fd, buf, 5, 6), 5,
	       "read_at_least: pieces of 3 and 2, want 5: 5, no wait for more");
	is_mem(buf, 5, "abcde", 5, "read_at_least: the bytes in order");
	close(fd);

	/* one byte more than want is taken when it is there */
	fd = pipe_with(six, 1);
	is_int(read_at_least(fd, buf, 5, 6), 6,
	       "read_at_least: 6 bytes, want 5, room 6: 6");
	close(fd);

	/* never past room */
	fd = pipe_with(seven, 1);
	is_int(read_at_least(fd, buf, 5, 6), 6,
	       "read_at_least: 7 bytes, room 6: 6");
	is_int(read(fd, buf, sizeof(buf)), 1, "read_at_least: the 7th left");
	close(fd);

	/* the end of the file before want */
	fd = pipe_with(two, 1);
	is_int(read_at_least(fd, buf, 10, 11), 5,
	       "read_at_least: 5 bytes then the end, want 10: 5");
	close(fd);

	/* an error is -1 */
	is_int(read_at_least(-1, buf, 1, 2), -1, "read_at_least: bad fd: -1");
}

static void
test_read_full(void)
{
	const char *two[] = { "abc", "de", NULL };
	char buf[16];
	int fd;

	fd = pipe_with(two, 1);
	is_int(read_full(fd, buf, 4), 4, "read_full: 4 of 5, over two pieces");
	is_int(read_full(fd, buf, 4), 1, "read_full: then the 1 left");
	is_int(read_full(fd, buf, 4), 0, "read_full: then 0 at the end");
	close(fd);
}

static void
test_pread_full(void)
{
	char path[] = "/tmp/t-read-XXXXXX", buf[16];
	int fd = mkstemp(path);

	if (fd < 0 || write_full(fd, "0123456789", 10)) {
		ok(0, "pread_full: a scratch file");
		return;
	}
	unlink(path);
	is_int(pread_full(fd, buf, 4, 3), 4, "pread_full: 4 bytes at 3");
	is_mem(buf, 4, "3456", 4, "pread_full: the bytes at the offset");
	is_int(pread_full(fd, buf, 8, 6), 4, "pread_full: short at the end");
	is_int(pread_full(fd, buf, 4, 10), 0, "pread_full: 0 at the end");
	is_int(pread_full(fd, buf, 4, 100), 0, "pread_full: 0 past it");
	errno = 0;
	is_int(pread_full(fd, buf, 4, UINT64_MAX - 1), -1,
	       "pread_full: an offset off_t cannot hold: -1");
	is_int(errno, EINVAL, "pread_full: with EINVAL");
	is_int(lseek(fd, 0, SEEK_CUR), 10, "pread_full: the file offset stays");
	is_int(pread_full(-1, buf, 1, 0), -1, "pread_full: bad fd: -1");
	close(fd);
}

int
main(void)
{
	test_read_at_least();
	test_read_full();
	test_pread_full();
	return done_testing();
}
