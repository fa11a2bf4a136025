#!/bin/sh
test_description='update-ref --stdin: the command language as git parses and runs it

Every case feeds one stream to "git update-ref [opts] --stdin" and to
"dirc update-ref [opts] --stdin" from the same ref store (lib-interop.sh
with lib-refs.sh): exit code, stdout ("<verb>: ok" lines), stderr (git
2.39 wording, control bytes shown as "?") and every file of the ref
store must be equal, and a run that failed before committing anything
must leave the store exactly as it was.  The cases cover both forms
(newline and -z): C quoting, empty and missing arguments, extra input,
bad names and values, every parse error, and the transaction verbs in
every order git accepts or refuses.  Then, dirc alone: prepare really
locks and checks (another update of the ref fails until commit or abort),
each status line is flushed as its command completes, and usage errors.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh
. "$TEST_DIRECTORY"/lib-refs.sh

# run_cases FILE: each line "<code>|<options>|<printf format>"; the
# format (C1 C2 C3 Z stand for commit ids and the null id) is the stream.
# A "\0" before an id is made "\000" first: printf would otherwise read
# the id's leading octal digits as part of the NUL's escape.
run_cases () {
	rc_file=$1 &&
	sed -e "s/\\\\0\\(C[123]\\|Z\\)/\\\\000\\1/g" \
		-e "s/C1/$c1/g" -e "s/C2/$c2/g" -e "s/C3/$c3/g" \
		-e "s/Z/$Z/g" "$rc_file" >cases.run &&
	: >cases.done &&
	while IFS="|" read -r code opts fmt
	do
		printf "$fmt" >input &&
		eval "set -- $opts" &&
		interop_run -i input update-ref "$@" --stdin &&
		if ! same_result ||
		   ! { echo "$code" >expect.code &&
		       test_cmp_codes expect.code dirc.code; } ||
		   { test "$code" != 0 && ! grep -q "^commit: ok" dirc.out &&
		     ! state_unchanged; }
		then
			echo "case: $code|$opts|$fmt" &&
			cat dirc.err &&
			return 1
		fi &&
		echo done >>cases.done || return 1
	done <cases.run &&
	test_line_count = $(wc -l <"$rc_file") cases.done
}

Z=$ZERO_OID
INTEROP_GIT_ERR_FILTER=update_ref_msgs_now

test_expect_success GIT 'setup: commits (one with "path with space"), loose, packed and symbolic refs' '
	echo a >a &&
	echo b >"path with space" &&
	git update-index --add a "path with space" &&
	tree=$(git write-tree) &&
	c1=$(git commit-tree -m one "$tree") &&
	test_tick &&
	c2=$(git commit-tree -p "$c1" -m two "$tree") &&
	test_tick &&
	c3=$(git commit-tree -p "$c2" -m three "$tree") &&
	git update-ref refs/heads/master "$c3" &&
	git update-ref refs/heads/q1 "$c1" &&
	git update-ref refs/heads/packed "$c1" &&
	git pack-refs --all &&
	git update-ref refs/heads/packed "$c2" &&
	git symbolic-ref refs/heads/sym refs/heads/q1
'

test_expect_success GIT 'newline form: every parse error in git'"'"'s words, nothing changed' '
	cat >cases <<-\EOF &&
	128||\n
	128|| \n
	128|| create refs/heads/a C1\n
	128||\r\n
	128||unknown refs/heads/a\n
	128||create refs/heads/a "master\n
	128||create refs/heads/a "ma\\zn"\n
	128||create "refs/heads/a"master\n
	128||create \n
	128||create  refs/heads/a C1\n
	128||create refs/heads/a\n
	128||create refs/heads/a C1 C1\n
	128||update \n
	128||update refs/heads/a\n
	128||update refs/heads/a C1 C1 C1\n
	128||delete \n
	128||delete refs/heads/a C1 C1\n
	128||verify refs/heads/a C1 C1\n
	128||option unknown\n
	128||option no-deref \n
	128||option  no-deref\n
	128||option\n
	128||update\n
	128||updatex refs/heads/a C1\n
	128||start \n
	128||update refs/heads/a\tC1\n
	128||update refs/heads/a C1\tC1\n
	128||create refs/heads/c \n
	128||delete refs/heads/master \n
	128||create refs/heads/c does-not-exist\n
	128||update refs/heads/c C1 does-not-exist\n
	128||update refs/heads/c C1 HEAD:nope\n
	128||create refs/heads/a..b C1\n
	128||create refs/heads/x.lock C1\n
	128||create "refs/heads/a\\001b" C1\n
	128||create refs/heads/a\001b C1\n
	128||update refs/heads/x
	128||update refs/heads/x C1
	128||update refs/heads/x C1 C1
	128||delete refs/heads/x
	128||start
	128||create refs/heads/x C1\nbogus\n
	128||create refs/heads/x C1\n\n
	128||create lower C1\ndelete lower\n
	128||verify lower\n
	128||create refs/heads/dup C1\ncreate refs/heads/x C1\ncreate refs/heads/dup C2\n
	EOF
	run_cases cases
'

test_expect_success GIT '-z form: every parse error in git'"'"'s words, nothing changed' '
	cat >cases <<-\EOF &&
	128|-z|\n
	128|-z|\0
	128|-z| \0
	128|-z| create refs/heads/a\0C1\0
	128|-z|unknown refs/heads/a\0
	128|-z|create \0
	128|-z|create refs/heads/a\0
	128|-z|create refs/heads/a\0C1\0C1\0
	128|-z|create refs/heads/c\0\0
	128|-z|create refs/heads/c\0Z\0
	128|-z|update \0
	128|-z|update\0
	128|-z|update refs/heads/a\0
	128|-z|update refs/heads/a\0C1
	128|-z|update refs/heads/a\0C1\0
	128|-z|update refs/heads/a\0C1\0C1\0C1\0
	128|-z|delete refs/heads/a\0
	128|-z|delete refs/heads/q1\0Z\0
	128|-z|delete refs/heads/a\0C1\0C1\0
	128|-z|verify refs/heads/a\0
	128|-z|verify refs/heads/a\0C1\0C1\0
	128|-z|option unknown\0
	128|-z|option no-deref \0
	0|-z|create "refs/heads/q3"\0C1\0
	128|-z|create refs/heads/q3\0"master"\0
	128|-z|create refs/heads/a b\0C1\0
	128|-z|create  refs/heads/a\0C1\0
	128|-z|update refs/heads/c\0C1\0does-not-exist\0
	128|-z|update refs/heads/q1\0C2\0Z\0
	EOF
	run_cases cases
'

test_expect_success GIT 'quoting, empty and missing values: accepted as git accepts them' '
	cat >cases <<-\EOF &&
	0||create refs/heads/n1 "master"\ncreate refs/heads/n2 "ma\\163ter"\n
	0||create "refs/heads/n3" C1\n
	0||create refs/blobs/pws "master:path with space"\n
	0||create refs/blobs/pws2 "master:path\\040with space"\n
	0||update refs/heads/gone \n
	0||update refs/heads/n4 C1 ""\n
	128||update refs/heads/n1 C2 ""\n
	128||update refs/heads/n1 C2 Z\n
	128||update refs/heads/gone  C1\n
	0||update refs/heads/n1 C2 C3\n
	0||update refs/heads/n2 C1 C3\nupdate refs/heads/n3 C1 C1\nupdate refs/heads/none Z ""\n
	0||verify refs/heads/n1 C2\nverify refs/heads/missing Z\nverify refs/heads/missing2\nverify refs/heads/missing3 ""\n
	128||verify refs/heads/n1 Z\n
	128||verify refs/heads/n1\n
	128||verify refs/heads/n1 C3\n
	128||verify refs/heads/n1 ""\n
	0||delete refs/heads/n4 C1\ndelete refs/heads/never\n
	128||delete refs/heads/n3 C2\n
	0|-z|update refs/heads/z1\0C1\0\0create refs/heads/z2\0C2\0delete refs/heads/n3\0\0verify refs/heads/z3\0\0
	0|-z|update refs/heads/z2\0\0\0
	0|-z|update refs/heads/z1\0C2\0C1\0verify refs/heads/n1\0C2\0
	0|-z|create refs/blobs/z4\0master:path with space\0
	0|-z|start
	0|-z|start\0
	0|-m "a  message "|update refs/heads/m1 C1\ncreate refs/heads/m2 C2\ndelete refs/heads/z4\nverify refs/heads/m3\n
	0|--create-reflog|create refs/tags/logged C1\nupdate refs/tags/logged2 C2\ndelete refs/heads/z1\n
	0||create refs/tags/unlogged C1\n
	128||update refs/heads/packed C3 C2\ndelete refs/heads/q1 C1\nupdate refs/heads/sym C2 C1\n
	0||update refs/heads/packed C3 C2\ndelete refs/heads/q1 C1\n
	EOF
	run_cases cases &&
	# q1 is gone: its symbolic ref would dangle (git fsck: a bad pointer)
	git symbolic-ref -d refs/heads/sym
'

test_expect_success GIT 'symbolic refs: followed, or with option no-deref / --no-deref updated themselves' '
	git symbolic-ref refs/heads/s1 refs/heads/n1 &&
	git symbolic-ref refs/heads/s2 refs/heads/n2 &&
	git symbolic-ref refs/heads/s3 refs/heads/n2 &&
	git symbolic-ref refs/heads/s4 refs/heads/n1 &&
	cat >cases <<-\EOF &&
	0||update refs/heads/s1 C3 C2\n
	0||option no-deref\nupdate refs/heads/s1 C1 C3\nupdate refs/heads/n1 C2\n
	128|--no-deref|update refs/heads/s2 C1 C3\n
	0|--no-deref|update refs/heads/s2 C2 C1\ndelete refs/heads/s3 C1\n
	0||option no-deref\ndelete refs/heads/s2 C2\n
	128||update refs/heads/s4 C3\nupdate refs/heads/n1 C3\n
	EOF
	run_cases cases
'

test_expect_success GIT 'transaction verbs in every order: git'"'"'s answers, states and errors' '
	cat >cases <<-\EOF &&
	0||start\nprepare\ncommit\n
	0||start\ncommit\n
	0||commit\n
	0||start\nprepare\nabort\n
	0||start\nabort\n
	0||abort\n
	128||abort\nabort\n
	128||prepare\nstart\n
	128||prepare\nprepare\n
	128||start\nprepare\nstart\n
	128||start\nprepare\ncreate refs/heads/t0 C1\n
	128||commit\ncreate refs/heads/t0 C1\n
	128||commit\ncommit\n
	0||start\ncreate refs/heads/t1 C1\ncommit\n
	0||start\ncreate refs/heads/t2 C1\nabort\n
	0||start\ncreate refs/heads/t2 C1\n
	0||start\ncreate refs/heads/t2 C1\nprepare\n
	0||create refs/heads/t2 C1\nstart\n
	0||create refs/heads/t2 C1\nstart\nprepare\n
	0||create refs/heads/t3 C1\nstart\ncommit\n
	0||start\ncreate refs/heads/t4 C1\ncommit\nstart\ncreate refs/heads/t5 C2\ncommit\n
	0||start\ncreate refs/heads/t6 C1\ncommit\nstart\ndelete refs/heads/t6 C1\ncommit\n
	0||start\ncreate refs/heads/t7 C1\nabort\nstart\ncreate refs/heads/t7 C1\ncommit\n
	0||start\nabort\nstart\ncreate refs/heads/t8 HEAD\ncommit\n
	0||start\nabort\nstart\ncreate refs/heads/t9 HEAD\n
	128||start\ncreate refs/heads/t10 C1\nstart\ncommit\n
	128||start\nupdate refs/heads/t1 C2 C3\nprepare\n
	128||start\nupdate refs/heads/t1 C2 C3\ncommit\n
	128||update refs/heads/t1 C2 C3\ncommit\n
	128||update refs/heads/t1 C2 C3\n
	128||start\ncreate refs/heads/t11 C1\ncommit\nstart\ncreate refs/heads/t11 C1\ncommit\n
	128||start\ncreate refs/heads/t12 C1\ncommit\ncreate refs/heads/t13 C1\n
	128|-z|abort\0abort\0
	0|-z|start\0create refs/heads/t14\0C1\0prepare\0commit\0
	EOF
	run_cases cases
'

test_expect_success GIT 'usage: -z without --stdin, --stdin with -d or arguments (exit 129 like git)' '
	for args in "-z refs/heads/x HEAD" "--stdin -d" "--stdin refs/heads/x" \
		"-z -d refs/heads/x"
	do
		interop_run update-ref $args &&
		test_cmp_codes git.code dirc.code &&
		echo 129 >expect &&
		test_cmp expect dirc.code &&
		test_grep "^usage: dirc update-ref" dirc.err &&
		state_unchanged || return 1
	done
'

# reply VERB: the next line on fd 8 is "VERB: ok".  A reply that never
# comes (not flushed) fails after a minute instead of hanging the test.
reply () {
	rp_line=$(timeout 60 head -n 1 <&8) &&
	test "$rp_line" = "$1: ok" || {
		echo "expected \"$1: ok\", read \"$rp_line\"" >&2
		return 1
	}
}

# session_start: "dirc update-ref --stdin" in the background, its input
# written to fd 9 and its output read from fd 8 (two fifos), its stderr
# in bg.err; the fifos and descriptors go when the test ends.
session_start () {
	rm -f fifo.in fifo.out &&
	mkfifo fifo.in fifo.out &&
	test_when_finished "rm -f fifo.in fifo.out" &&
	{ dirc update-ref --stdin <fifo.in >fifo.out 2>bg.err & } &&
	exec 9>fifo.in 8<fifo.out &&
	test_when_finished "exec 9>&- 8<&-"
}

# ask VERB: send VERB (start, prepare, commit, abort), read its reply.
ask () {
	echo "$1" >&9 &&
	reply "$1"
}

# session_end: end dirc's input; it exits 0, having said nothing on stderr.
session_end () {
	exec 9>&- &&
	wait &&
	test_must_be_empty bg.err
}

test_expect_success 'prepare locks and checks every ref; commit writes; abort releases' '
	c=$(git rev-parse refs/heads/master) &&
	session_start &&
	ask start &&
	echo "create refs/heads/locked $c" >&9 &&
	echo "update refs/heads/n1 $c" >&9 &&
	ask prepare &&
	# locked, and written into the lock, but not yet in place
	test_path_is_file .git/refs/heads/locked.lock &&
	test_path_is_file .git/refs/heads/n1.lock &&
	test_path_is_missing .git/refs/heads/locked &&
	test_must_fail dirc update-ref refs/heads/locked "$c" 2>err &&
	test_grep "cannot lock ref .refs/heads/locked.: Unable to create" err &&
	test_must_fail dirc update-ref refs/heads/n1 "$c" 2>err &&
	test_grep "cannot lock ref .refs/heads/n1." err &&
	ask commit &&
	echo "$c" >expect &&
	test_cmp expect .git/refs/heads/locked &&
	test_cmp expect .git/refs/heads/n1 &&
	no_lock_left &&
	ask start &&
	echo "delete refs/heads/locked $c" >&9 &&
	ask prepare &&
	test_path_is_file .git/refs/heads/locked.lock &&
	test_path_is_file .git/packed-refs.lock &&
	ask abort &&
	test_cmp expect .git/refs/heads/locked &&
	no_lock_left &&
	session_end
'

test_expect_success 'a failing prepare fails then, with nothing locked or written' '
	c=$(git rev-parse refs/heads/master) &&
	printf "start\ncreate refs/heads/p1 %s\nupdate refs/heads/n1 %s %s\nprepare\ncommit\n" \
		"$c" "$c" "$Z" >input &&
	refs_snapshot before &&
	test_expect_code 128 dirc update-ref --stdin <input >out 2>err &&
	echo "start: ok" >expect &&
	test_cmp expect out &&
	echo "fatal: prepare: cannot lock ref '\''refs/heads/n1'\'': reference already exists" >expect &&
	test_cmp expect err &&
	refs_unchanged before
'

test_expect_success 'a transaction left open at the end of input is aborted' '
	c=$(git rev-parse refs/heads/master) &&
	refs_snapshot before &&
	printf "start\ncreate refs/heads/open1 %s\nprepare\n" "$c" >input &&
	dirc update-ref --stdin <input >out &&
	printf "start: ok\nprepare: ok\n" >expect &&
	test_cmp expect out &&
	refs_unchanged before
'

test_expect_success 'status lines are flushed as each command completes' '
	rm -f in out &&
	c=$(git rev-parse refs/heads/master) &&
	session_start &&
	ask start &&
	echo "create refs/heads/flush-commit $c" >&9 &&
	ask prepare &&
	ask commit &&
	ask start &&
	echo "create refs/heads/flush-abort $c" >&9 &&
	ask abort &&
	session_end &&
	test_path_is_file .git/refs/heads/flush-commit &&
	test_path_is_missing .git/refs/heads/flush-abort
'

test_done
