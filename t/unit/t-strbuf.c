/*
 * t-strbuf: the growable buffer every module uses — always NUL-terminated,
 * readable before the first allocation, and the file helpers.
 */
#include "tap.h"
#include "error.h"
#include "strbuf.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void
test_init(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct strbuf sb2;

	is_int(sb.len, 0, "STRBUF_INIT: empty");
	is_int(sb.alloc, 0, "STRBUF_INIT: nothing allocated");
	is_str(sb.buf, "", "STRBUF_INIT: buf reads as \"\"");
	strbuf_rtrim(&sb);
	strbuf_trim(&sb);
	strbuf_reset(&sb);
	is_str(sb.buf, "", "trim and reset of an unallocated strbuf");
	strbuf_release(&sb);
	is_str(sb.buf, "", "release of an unallocated strbuf leaves it usable");

	strbuf_init(&sb2, 100);
	ok(sb2.alloc >= 101, "strbuf_init with a hint allocates (alloc %zu)",
	   sb2.alloc);
	is_str(sb2.buf, "", "... and is empty");
	strbuf_release(&sb2);
	is_int(sb2.alloc, 0, "release: nothing allocated any more");
	is_str(sb2.buf, "", "release: reads as \"\"");
}

static void
test_add(void)
{
	struct strbuf sb = STRBUF_INIT, other = STRBUF_INIT;
	char big[10000];

	strbuf_addstr(&sb, "hello");
	strbuf_addch(&sb, ' ');
	strbuf_add(&sb, "world!!", 5);
	is_str(sb.buf, "hello world", "add, addstr, addch");
	is_int(sb.len, 11, "len counts the bytes");
	strbuf_add(&sb, "", 0);
	is_int(sb.len, 11, "adding nothing changes nothing");

	strbuf_addstr(&other, " and more");
	strbuf_addbuf(&sb, &other);
	is_str(sb.buf, "hello world and more", "addbuf");

	strbuf_setlen(&sb, 5);
	is_str(sb.buf, "hello", "setlen truncates and terminates");
	strbuf_reset(&sb);
	is_str(sb.buf, "", "reset");
	is_int(sb.len, 0, "reset: len 0");

	strbuf_add(&sb, "a\0b", 3);
	is_mem(sb.buf, sb.len, "a\0b", 3, "embedded NUL bytes are kept");
	ok(sb.buf[3] == '\0', "and the buffer is still terminated");

	memset(big, 'x', sizeof(big));
	strbuf_reset(&sb);
	for (int i = 0; i < 100; i++)
		strbuf_add(&sb, big, sizeof(big));
	is_int(sb.len, 100 * sizeof(big), "a million bytes, in 100 adds");
	ok(sb.alloc > sb.len && sb.buf[sb.len] == '\0',
	   "alloc > len, terminated");

	strbuf_reset(&sb);
	for (int i = 0; i < 100000; i++)
		strbuf_addch(&sb, 'a' + i % 26);
	ok(sb.len == 100000 && sb.buf[25] == 'z' && sb.buf[26] == 'a' &&
	   sb.buf[99999] == 'a' + 99999 % 26 && sb.buf[100000] == '\0',
	   "100000 addch");

	strbuf_grow(&sb, 1 << 20);
	ok(sb.alloc >= sb.len + (1 << 20) + 1, "grow makes room for more");
	is_int(sb.len, 100000, "grow keeps the contents");

	strbuf_release(&sb);
	strbuf_release(&other);
}

static void
test_addf(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *big = malloc(5001);

	strbuf_addf(&sb, "%d-%s-%c", 42, "x", 'y');
	is_str(sb.buf, "42-x-y", "addf");
	strbuf_addf(&sb, "%s", "");
	is_str(sb.buf, "42-x-y", "addf of an empty result");
	memset(big, 'q', 5000);
	big[5000] = '\0';
	strbuf_addf(&sb, "<%s>", big);
	is_int(sb.len, 6 + 5002, "addf of a result longer than the buffer");
	ok(sb.buf[6] == '<' && sb.buf[7] == 'q' && sb.buf[5007] == '>' &&
	   sb.buf[5008] == '\0', "... with the right bytes");
	strbuf_reset(&sb);
	for (int i = 0; i < 1000; i++)
		strbuf_addf(&sb, "%04d", i);
	ok(sb.len == 4000 && !memcmp(sb.buf + 3996, "0999", 4),
	   "1000 addf appends");
	free(big);
	strbuf_release(&sb);
}

static void
test_detach(void)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len = 99;
	char *s;

	s = strbuf_detach(&sb, &len);
	ok(s != NULL && s != strbuf_empty && !*s,
	   "detach of an empty strbuf gives an allocated \"\"");
	is_int(len, 0, "... of length 0");
	free(s);

	strbuf_addstr(&sb, "owned");
	s = strbuf_detach(&sb, &len);
	is_str(s, "owned", "detach hands over the buffer");
	is_int(len, 5, "... and its length");
	is_int(sb.len, 0, "the strbuf is empty after detach");
	is_int(sb.alloc, 0, "... and owns nothing");
	is_str(sb.buf, "", "... and reads as \"\"");
	strbuf_addstr(&sb, "again");
	ok(strcmp(s, "owned") == 0, "using the strbuf again does not touch "
	   "the detached buffer");
	free(s);
	strbuf_release(&sb);
}

static void
test_trim(void)
{
	static const struct {
		const char *in, *rtrim, *trim;
	} cases[] = {
		{ "abc", "abc", "abc" },
		{ "  abc  ", "  abc", "abc" },
		{ "\t\n abc\r\n", "\t\n abc", "abc" },
		{ "a b", "a b", "a b" },
		{ "   ", "", "" },
		{ "", "", "" },
		{ "x\v\f", "x", "x" },
	};
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		strbuf_reset(&sb);
		strbuf_addstr(&sb, cases[i].in);
		strbuf_rtrim(&sb);
		is_str(sb.buf, cases[i].rtrim, "rtrim(case %zu)", i);
		is_int(sb.len, strlen(cases[i].rtrim), "rtrim len (case %zu)",
		       i);
		strbuf_reset(&sb);
		strbuf_addstr(&sb, cases[i].in);
		strbuf_trim(&sb);
		is_str(sb.buf, cases[i].trim, "trim(case %zu)", i);
		is_int(sb.len, strlen(cases[i].trim), "trim len (case %zu)",
		       i);
	}
	strbuf_release(&sb);
}

static void
test_getdelim(void)
{
	struct strbuf sb = STRBUF_INIT;
	FILE *fp = tmpfile();
	static const char data[] = "one\ntwo\n\nlast";

	if (!fp) {
		ok(0, "tmpfile");
		return;
	}
	fwrite(data, 1, sizeof(data) - 1, fp);
	fwrite("\0nul\0", 1, 5, fp);
	rewind(fp);
	ok(strbuf_getdelim(&sb, fp, '\n') == 0 && !strcmp(sb.buf, "one"),
	   "getdelim: first line, without the terminator");
	ok(strbuf_getdelim(&sb, fp, '\n') == 0 && !strcmp(sb.buf, "two"),
	   "getdelim: second line replaces the first");
	ok(strbuf_getdelim(&sb, fp, '\n') == 0 && sb.len == 0,
	   "getdelim: an empty line");
	ok(strbuf_getdelim(&sb, fp, '\n') == 0 && sb.len == 9 &&
	   !memcmp(sb.buf, "last\0nul\0", 9),
	   "getdelim: the last record without a terminator, NULs kept");
	is_int(strbuf_getdelim(&sb, fp, '\n'), EOF, "getdelim: EOF at the end");
	is_int(sb.len, 0, "... with an empty buffer");

	rewind(fp);
	ok(strbuf_getdelim(&sb, fp, '\0') == 0 && sb.len == 13 &&
	   !memcmp(sb.buf, data, 13), "getdelim with NUL as terminator");
	ok(strbuf_getdelim(&sb, fp, '\0') == 0 && !strcmp(sb.buf, "nul"),
	   "getdelim with NUL: the next record");
	is_int(strbuf_getdelim(&sb, fp, '\0'), EOF, "getdelim with NUL: EOF");
	fclose(fp);
	strbuf_release(&sb);
}

static void
test_files(void)
{
	struct strbuf sb = STRBUF_INIT;
	char dir[] = "/tmp/t-strbuf.XXXXXX";
	char path[256], missing[256], small[256];
	int fd, fds[2];
	ssize_t n;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/file", dir);
	snprintf(missing, sizeof(missing), "%s/missing", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	for (int i = 0; i < 3000; i++)
		dprintf(fd, "line %d\n", i);
	close(fd);

	strbuf_addstr(&sb, "replaced");
	ok(strbuf_read_file(&sb, path) == 0, "read_file");
	ok(sb.len > 20000 && !memcmp(sb.buf, "line 0\nline 1\n", 14) &&
	   !memcmp(sb.buf + sb.len - 10, "line 2999\n", 10),
	   "read_file replaces the contents with the whole file");
	ok(sb.buf[sb.len] == '\0', "... terminated");

	snprintf(small, sizeof(small), "%s/small", dir);
	fd = open(small, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dprintf(fd, "[core]\n\tbare = false\n");
	close(fd);
	strbuf_release(&sb);
	ok(strbuf_read_file(&sb, small) == 0 &&
	   !strcmp(sb.buf, "[core]\n\tbare = false\n"), "read_file of a "
	   "small file");
	ok(sb.alloc < 256, "... sized by the file, not 8 KB: %zu", sb.alloc);
	fd = open(small, O_WRONLY | O_TRUNC);
	close(fd);
	ok(strbuf_read_file(&sb, small) == 0 && sb.len == 0 && !sb.buf[0],
	   "read_file of an empty file");
	ok(strbuf_read_file(&sb, "/proc/self/status") == 0 &&
	   !strncmp(sb.buf, "Name:", 5) && strstr(sb.buf, "\nPid:"),
	   "read_file of a /proc file (size 0) reads it to its end");

	ok(strbuf_read_file(&sb, missing) < 0, "read_file of a missing file "
	   "fails");
	is_int(error_code(), E_NOTFOUND, "... with E_NOTFOUND");
	ok(strstr(error_msg(), missing) != NULL, "... naming the file: %s",
	   error_msg());

	strbuf_reset(&sb);
	strbuf_addstr(&sb, "kept:");
	fd = open(path, O_RDONLY);
	n = strbuf_read_fd(&sb, fd, 10);
	close(fd);
	ok(n > 20000 && (size_t)n == sb.len - 5 &&
	   !memcmp(sb.buf, "kept:line 0\n", 12),
	   "read_fd appends everything, whatever the hint");

	if (pipe(fds) == 0) {
		if (write(fds[1], "through a pipe", 14) != 14)
			diag("short write to the pipe");
		close(fds[1]);
		strbuf_reset(&sb);
		n = strbuf_read_fd(&sb, fds[0], 0);
		close(fds[0]);
		ok(n == 14 && !strcmp(sb.buf, "through a pipe"),
		   "read_fd from a pipe");
	} else {
		ok(0, "pipe");
	}

	strbuf_reset(&sb);
	strbuf_addstr(&sb, "cwd=");
	if (chdir(dir) == 0) {
		char *real = realpath(dir, NULL);

		ok(strbuf_getcwd(&sb) == 0 && real &&
		   !strcmp(sb.buf + 4, real), "getcwd appends the current "
		   "directory");
		free(real);
	} else {
		ok(0, "chdir");
	}
	if (chdir("/") < 0)
		diag("chdir / failed");
	unlink(path);
	unlink(small);
	rmdir(dir);
	strbuf_release(&sb);
}

int
main(void)
{
	test_init();
	test_add();
	test_addf();
	test_detach();
	test_trim();
	test_getdelim();
	test_files();
	return done_testing();
}
