#!/bin/sh
test_description='update-ref: any number of locks, none left behind, git'"'"'s waits

A transaction holds one lock per ref it touches.  dirc used to keep them
in a table of 16 and abort ("BUG: more than 16 locks held at once",
exit 134) with every lock left behind.  Now: a transaction of 2,000
refs (10,000 with LONG) creates and deletes them (loose and packed); a
transaction never
keeps a file descriptor per ref, so a low "ulimit -n" does not bound
it; and no failure of any kind (a wrong old value, a lock someone else
holds, a signal while prepared) leaves a lock, a ref, a reflog or a
directory behind.  packed-refs.lock and ref locks held by someone else
are waited for as git waits (core.packedRefsTimeout,
core.filesRefLockTimeout), and a deletion waiting for packed-refs.lock
shows no value in between.  The waits are observed through the
"waiting for a lock" step dirc records (DIRC_TEST_STEPS), not timed.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh
. "$TEST_DIRECTORY"/lib-refs.sh

# refs in the big transactions: far over the old 16 either way
if test_have_prereq LONG
then
	N=10000
else
	N=2000
fi
SQ="'"

test_expect_success 'setup: a commit' '
	echo a >a &&
	dirc update-cache --add a &&
	tree=$(dirc write-tree) &&
	c1=$(echo one | dirc commit-tree "$tree") &&
	c2=$(echo two | dirc commit-tree -p "$c1" "$tree") &&
	dirc update-ref refs/heads/master "$c1"
'

# lines CMD FIRST LAST: "CMD refs/heads/big/<i> ..." for i in FIRST..LAST
lines () {
	awk -v cmd="$1" -v c="$c1" -v a="$2" -v b="$3" "BEGIN {
		for (i = a; i <= b; i++)
			if (cmd == \"create\")
				printf \"create refs/heads/big/%d %s\\n\", i, c
			else
				printf \"%s refs/heads/big/%d\\n\", cmd, i
	}"
}

test_expect_success "17 updates, once a BUG() with every lock left behind" '
	lines create 1 17 >input &&
	dirc update-ref --stdin <input &&
	git for-each-ref refs/heads/big >refs &&
	test_line_count = 17 refs &&
	no_lock_left &&
	lines delete 1 17 >input &&
	dirc update-ref --stdin <input &&
	git for-each-ref refs/heads/big >refs &&
	test_must_be_empty refs &&
	no_lock_left
'

test_expect_success "$N refs created in one transaction, then deleted in one" '
	refs_snapshot before &&
	lines create 1 $N >input &&
	dirc update-ref --stdin <input &&
	git for-each-ref refs/heads/big >refs &&
	test_line_count = $N refs &&
	ls .git/logs/refs/heads/big >logs &&
	test_line_count = $N logs &&
	no_lock_left &&
	lines delete 1 $N >input &&
	dirc update-ref --stdin <input &&
	git for-each-ref refs/heads/big >refs &&
	test_must_be_empty refs &&
	no_lock_left &&
	refs_unchanged before
'

test_expect_success "$N packed refs deleted in one transaction: packed-refs rewritten once" '
	refs_snapshot before &&
	lines create 1 $N >input &&
	dirc update-ref --stdin <input &&
	git pack-refs --all &&
	test_line_count -gt $N .git/packed-refs &&
	lines delete 1 $N >input &&
	DIRC_TEST_STEPS=$TRASH_DIRECTORY/steps dirc update-ref --stdin <input &&
	git for-each-ref refs/heads/big >refs &&
	test_must_be_empty refs &&
	grep -c "rename into place" steps >renames &&
	echo 1 >expect &&
	test_cmp expect renames &&
	no_lock_left &&
	git pack-refs --all &&
	test_path_is_missing .git/refs/heads/big &&
	test_path_is_missing .git/logs/refs/heads/big
'

test_expect_success 'a low limit on open files does not bound a transaction' '
	lines create 1 300 >input &&
	(ulimit -n 32 && dirc update-ref --stdin <input) &&
	git for-each-ref refs/heads/big >refs &&
	test_line_count = 300 refs &&
	lines delete 1 300 >input &&
	(ulimit -n 32 && dirc update-ref --stdin <input) &&
	git for-each-ref refs/heads/big >refs &&
	test_must_be_empty refs &&
	no_lock_left
'

test_expect_success "a wrong old value at update $((N / 2)) of $N: nothing written, nothing left" '
	refs_snapshot before &&
	{
		lines create 1 $((N / 2 - 1)) &&
		echo "update refs/heads/master $c2 $c2" &&
		lines create $((N / 2 + 1)) $N
	} >input &&
	test_expect_code 128 dirc update-ref --stdin <input 2>err &&
	test_grep "cannot lock ref .refs/heads/master.: is at $c1 but expected $c2" err &&
	no_lock_left &&
	refs_unchanged before
'

test_expect_success 'a lock someone else holds: it stays, all of ours go' '
	refs_snapshot before &&
	mkdir -p .git/refs/heads/big &&
	: >.git/refs/heads/big/150.lock &&
	lines create 1 300 >input &&
	test_expect_code 128 dirc -c core.filesRefLockTimeout=0 \
		update-ref --stdin <input 2>err &&
	test_grep "cannot lock ref .refs/heads/big/150.: Unable to create" err &&
	find .git -name "*.lock" >locks &&
	echo .git/refs/heads/big/150.lock >expect &&
	test_cmp expect locks &&
	rm .git/refs/heads/big/150.lock &&
	rmdir .git/refs/heads/big &&
	refs_unchanged before
'

# prepared SIG: a prepared transaction of 200 refs killed by SIG.  A
# command sh starts with & has SIGINT and SIGQUIT ignored, and under
# nohup SIGHUP is ignored too (dirc, as git, leaves an ignored signal
# ignored), so perl puts them back to the default before it becomes dirc
# (exec: the same pid).
killed_prepared () {
	mkfifo fifo.in fifo.out &&
	{ lines create 1 200 && echo prepare; } >input &&
	{
		perl -e '$SIG{INT} = $SIG{QUIT} = $SIG{HUP} = "DEFAULT";
			exec @ARGV or die' \
			dirc update-ref --stdin <fifo.in >fifo.out 2>bg.err &
	} &&
	pid=$! &&
	exec 9>fifo.in 8<fifo.out &&
	echo start >&9 &&
	cat input >&9 &&
	reply=$(timeout 60 head -n 2 <&8) &&
	printf "start: ok\nprepare: ok\n" >expect &&
	echo "$reply" >actual &&
	test_cmp expect actual &&
	find .git -name "*.lock" >locks &&
	test_line_count = 200 locks &&
	kill -$1 $pid &&
	{ wait $pid; echo $? >code; } &&
	exec 9>&- 8<&- &&
	rm fifo.in fifo.out &&
	test "$(cat code)" -gt 128 &&
	no_lock_left
}

test_expect_success 'killed by SIGTERM, SIGINT, SIGHUP or SIGQUIT while prepared: every lock removed' '
	refs_snapshot before &&
	killed_prepared TERM &&
	killed_prepared INT &&
	killed_prepared HUP &&
	killed_prepared QUIT &&
	# the directory made for the locks stays, empty, as git leaves it
	rmdir .git/refs/heads/big &&
	refs_unchanged before
'

# wait_for_step FILE: until dirc has recorded that it waits for a lock
# (bounded: a dirc that never waits fails the test, it does not hang it).
wait_for_step () {
	ws_n=0 &&
	until grep -q "waiting for a lock" "$1" 2>/dev/null
	do
		ws_n=$((ws_n + 1)) &&
		test $ws_n -lt 600 &&
		sleep 0.1 || return 1
	done
}

test_expect_success GIT 'packed-refs.lock held, no wait allowed: git'"'"'s message, nothing changed' '
	git update-ref refs/lp/foo "$c1" &&
	git pack-refs --all &&
	git update-ref refs/lp/foo "$c2" &&
	: >.git/packed-refs.lock &&
	test_when_finished "rm -f .git/packed-refs.lock" &&
	fails_like_git 1 "error: Unable to create $SQ$TRASH_DIRECTORY/.git/packed-refs.lock$SQ: File exists." \
		-c core.packedRefsTimeout=0 update-ref -d refs/lp/foo &&
	fails_like_git 1 "error: Unable to create $SQ$TRASH_DIRECTORY/.git/packed-refs.lock$SQ: File exists." \
		-c core.packedRefsTimeout=0 update-ref -d refs/lp/never &&
	succeeds_like_git -c core.packedRefsTimeout=0 update-ref refs/lp/new "$c1"
'

test_expect_success 'a deletion waits for packed-refs.lock, showing no value in between' '
	: >.git/packed-refs.lock &&
	test_when_finished "rm -f .git/packed-refs.lock" &&
	rm -f steps &&
	{
		DIRC_TEST_STEPS=$TRASH_DIRECTORY/steps \
		dirc -c core.packedRefsTimeout=-1 update-ref -d refs/lp/foo 2>bg.err &
	} &&
	pid=$! &&
	wait_for_step steps &&
	git rev-parse refs/lp/foo >actual &&
	echo "$c2" >expect &&
	test_cmp expect actual &&
	kill -0 $pid &&
	rm .git/packed-refs.lock &&
	wait $pid &&
	test_must_be_empty bg.err &&
	! git rev-parse -q --verify refs/lp/foo &&
	test_grep -v refs/lp/foo .git/packed-refs &&
	no_lock_left
'

test_expect_success 'a held ref lock is waited for (core.filesRefLockTimeout)' '
	: >.git/refs/heads/master.lock &&
	test_when_finished "rm -f .git/refs/heads/master.lock" &&
	test_expect_code 128 dirc -c core.filesRefLockTimeout=0 \
		update-ref refs/heads/master "$c2" 2>err &&
	test_grep "Unable to create .*master.lock.: File exists" err &&
	rm -f steps &&
	{
		DIRC_TEST_STEPS=$TRASH_DIRECTORY/steps \
		dirc -c core.filesRefLockTimeout=-1 update-ref refs/heads/master "$c2" 2>bg.err &
	} &&
	pid=$! &&
	wait_for_step steps &&
	kill -0 $pid &&
	echo "$c1" >expect &&
	git rev-parse refs/heads/master >actual &&
	test_cmp expect actual &&
	rm .git/refs/heads/master.lock &&
	wait $pid &&
	test_must_be_empty bg.err &&
	echo "$c2" >expect &&
	git rev-parse refs/heads/master >actual &&
	test_cmp expect actual &&
	no_lock_left
'

test_expect_success GIT 'packed-refs.new in the way: the deletion fails cleanly, as in git' '
	git update-ref refs/lp/bar "$c1" &&
	git pack-refs --all &&
	git update-ref refs/lp/bar "$c2" &&
	: >.git/packed-refs.new &&
	test_when_finished "rm -f .git/packed-refs.new" &&
	fails_like_git 1 "error: unable to create file $TRASH_DIRECTORY/.git/packed-refs.new: File exists" \
		update-ref -d refs/lp/bar &&
	test_path_is_missing .git/packed-refs.lock
'

test_done
