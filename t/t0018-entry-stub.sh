#!/bin/sh
test_description='the entry stub: the code mapped in before the C library starts

On x86-64 Linux the Makefile makes dirc_start the entry point
(builtin/main.c): one madvise(MADV_POPULATE_READ) before anything else,
of the functions laid out from perf/hot-functions (dirc_start to
dirc_hot_end) when lld linked them, else of the whole text.  The range
is checked against the binary'"'"'s own symbols, and every command still
starts with it.'
. ./test-lib.sh

BIN=$DIRC_BUILD_DIR/dirc
sym () {
	nm "$BIN" | awk -v s="$1" '$3 == s { print $1; exit }'
}

test_lazy_prereq STRACE 'strace -o /dev/null true'
test_lazy_prereq STUB 'test -n "$(sym dirc_start)"'
test_lazy_prereq STATIC '! readelf -lW "$BIN" | grep -q INTERP'

test_expect_success STUB 'the entry point is dirc_start' '
	entry=$(readelf -hW "$BIN" | sed -n "s/^ *Entry point address: *0x//p") &&
	test $((0x$entry)) = $((0x$(sym dirc_start)))
'

test_expect_success STUB,STATIC,STRACE 'the first system call maps the code in, and only that' '
	# LeakSanitizer cannot run under strace
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
	strace -o trace "$BIN" version >out &&
	grep "^dirc version" out &&
	sed -n 2p trace >first &&
	test_grep "^madvise(0x[0-9a-f]*, [0-9]*, MADV_POPULATE_READ) = " first &&
	len=$(sed "s/^madvise(0x[0-9a-f]*, \([0-9]*\),.*/\1/" first) &&
	start=$((0x$(sym dirc_start))) &&
	if test -n "$(sym dirc_hot_end)"
	then
		want=$((0x$(sym dirc_hot_end) - start / 4096 * 4096)) &&
		test $want -gt 65536
	else
		want=$((0x$(sym etext) - 0x$(sym __executable_start)))
	fi &&
	test "$len" = "$want"
'

test_expect_success STUB,STRACE 'a dynamically linked or sanitized dirc makes the call too' '
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
	strace -o trace -e trace=madvise "$BIN" version >out &&
	grep "^dirc version" out &&
	test_grep "MADV_POPULATE_READ) = " trace
'

test_expect_success 'commands run as before (exit codes, output)' '
	test_expect_code 129 dirc rev-parse -h >/dev/null 2>&1 &&
	dirc init -q r &&
	echo a >r/a &&
	(cd r && dirc update-index --add a && dirc write-tree) >tree &&
	test_line_count = 1 tree
'

test_done
