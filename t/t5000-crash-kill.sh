#!/bin/sh
test_description='crash safety: SIGKILL at every durable step leaves a repository git accepts

dirc counts its durable steps (a temporary object written, an object
moved into place, a lock taken, the index written, a file checked out,
a ref updated, a rename) and with DIRC_TEST_KILL_AT=N kills itself at the
N-th (each process counts its own).  For each command below the kill is
walked over every step (without LONG, a step repeated file after file at
its first two and last two occurrences only), on a
fresh copy of the same small repository each time, and lib-crash.sh
checks what it left: the index old or new, refs old or new, git fsck
clean, only tmp_obj_* and lock files left over, a leftover lock reported
by the next command, and recovery giving exactly the uninterrupted result.
The copies are made with cp -a, which keeps mtimes but not inodes or
ctimes, so the repositories with history use core.checkStat=minimal.'
. ./test-lib.sh
. "$TEST_DIRECTORY/lib-crash.sh"

# quiet_git_config DIR: settings for a template, none of them about what
# is tested: git fsck would otherwise start "git commit-graph verify" and
# "git multi-pack-index verify" (two processes) at every check, for
# files no repository here has; and the probe of a leftover ref lock
# (dirc update-ref, which fails on it as git does) would wait out git's
# lock timeouts, 100 ms for a ref and 1 s for packed-refs, before
# failing with the same message (about nine seconds of sleep in all)
quiet_git_config () {
	printf "%s\n" "[core]" "	commitGraph = false" \
		"	multiPackIndex = false" "	filesRefLockTimeout = 0" \
		"	packedRefsTimeout = 0" >>"$1/.git/config"
}

# a work tree of 12 files in 4 directories, and a symlink
make_files () {
	for d in a b c/d e
	do
		mkdir -p "$1/$d" &&
		for i in 1 2 3
		do
			echo "$d $i" >"$1/$d/f$i" || return 1
		done || return 1
	done &&
	chmod +x "$1/b/f2" &&
	ln -s ../a/f1 "$1/e/link"
}

test_expect_success 'templates: an empty repository with files, and one with history' '
	git init -q tpl.add &&
	quiet_git_config tpl.add &&
	make_files tpl.add &&

	git init -q hist &&
	quiet_git_config hist &&
	make_files hist &&
	(
		cd hist &&
		git add . &&
		test_tick &&
		git commit -q -m one &&
		git branch old &&
		echo changed >a/f1 &&
		echo new >a/f4 &&
		git rm -q c/d/f2 &&
		mkdir -p x/y &&
		echo deep >x/y/z &&
		git add . &&
		test_tick &&
		git commit -q -m two &&
		git branch next &&
		git reset -q --hard HEAD^ &&
		git branch -f old HEAD &&
		# copies get new inodes and ctimes: compare what cp -a keeps
		git config core.checkStat minimal
	)
'

test_expect_success 'update-cache --add of a new tree' '
	crash_prepare add "printf \"%s\\n\" a/* b/* c/d/* e/* |
		dirc update-cache --add --stdin" &&
	test_grep "object finalised" steps.add &&
	test_grep "temporary object written" steps.add &&
	test_grep "rename into place" steps.add &&
	crash_walk add
'

test_expect_success 'update-cache --add with core.fsyncMethod=batch: names only after the flush' '
	cp -a tpl.add tpl.batch &&
	git -C tpl.batch config core.fsync loose-object,index &&
	git -C tpl.batch config core.fsyncMethod batch &&
	crash_prepare batch "printf \"%s\\n\" a/* b/* c/d/* e/* |
		dirc update-cache --add --stdin" &&
	# every temporary object is written before the first is named
	awk "/temporary object written/ { if (named) bad = 1 }
	     /object finalised/ { named = 1 } END { exit bad }" steps.batch &&
	crash_walk batch
'

test_expect_success 'update-cache --add, --remove over an existing index' '
	cp -a hist tpl.change &&
	(
		cd tpl.change &&
		echo again >a/f2 &&
		echo more >b/f4 &&
		rm c/d/f1
	) &&
	crash_prepare change "dirc update-cache --add --remove a/f2 b/f4 c/d/f1" &&
	crash_walk change
'

test_expect_success 'update-cache --refresh after every file was touched' '
	cp -a hist tpl.refresh &&
	(
		cd tpl.refresh &&
		git ls-files | xargs touch -h -d "2020-01-01 00:00:00"
	) &&
	crash_prepare refresh "dirc update-cache --refresh" &&
	crash_walk refresh
'

test_expect_success 'write-tree with no trees stored yet' '
	git init -q tpl.wtree &&
	quiet_git_config tpl.wtree &&
	make_files tpl.wtree &&
	git -C tpl.wtree add . &&
	crash_prepare wtree "dirc write-tree" &&
	test_grep "object finalised" steps.wtree &&
	crash_walk wtree &&
	git -C full.wtree write-tree >expect &&
	test_cmp expect out.wtree
'

test_expect_success 'read-tree -m -u to another commit; recovery by --reset -u' '
	cp -a hist tpl.rtree &&
	crash_prepare rtree "dirc read-tree -m -u next" \
		"dirc read-tree --reset -u next" &&
	test_grep "file checked out" steps.rtree &&
	crash_walk rtree
'

test_expect_success 'checkout-index -a -u -f over removed and changed files' '
	cp -a hist tpl.co &&
	(
		cd tpl.co &&
		rm -r a c &&
		echo scribble >b/f1 &&
		chmod -x b/f2
	) &&
	crash_prepare co "dirc checkout-index -a -u -f" &&
	test_grep "file checked out" steps.co &&
	crash_walk co
'

test_expect_success 'update-ref of the checked-out branch, with reflogs' '
	cp -a hist tpl.ref &&
	crash_prepare ref "dirc update-ref -m move refs/heads/master next" &&
	crash_walk ref
'

test_expect_success 'update-ref --stdin: update, create and delete in one transaction' '
	cp -a hist tpl.txn &&
	next=$(git -C hist rev-parse next) &&
	old=$(git -C hist rev-parse old) &&
	crash_prepare txn "printf \"%s\\n\" \"update refs/heads/master $next\" \
			\"update refs/heads/new $old\" \"delete refs/heads/old\" |
		dirc update-ref -m txn --stdin" &&
	test "$(grep -c "rename into place" steps.txn)" -ge 2 &&
	crash_walk txn
'

test_expect_success 'symbolic-ref HEAD to another branch' '
	cp -a hist tpl.sym &&
	crash_prepare sym "dirc symbolic-ref HEAD refs/heads/next" &&
	crash_walk sym
'

test_expect_success 'hash-object -w --stdin-paths' '
	cp -a hist tpl.obj &&
	(
		cd tpl.obj &&
		for i in 1 2 3 4 5
		do
			echo "fresh $i" >"new$i" || return 1
		done &&
		echo "new*" >>.git/info/exclude
	) &&
	crash_prepare obj "printf \"%s\\n\" new* | dirc hash-object -w --stdin-paths" &&
	crash_walk obj
'

test_expect_success 'commit-tree' '
	cp -a hist tpl.commit &&
	crash_prepare commit "echo msg | dirc commit-tree next^{tree} -p next" &&
	crash_walk commit
'

test_expect_success 'the walk killed dirc at every step' '
	echo "# $crash_kills kills survived over $crash_total steps" \
		"(and $crash_skipped repetitions of a step left to LONG)" &&
	test "$crash_kills" = "$crash_total" &&
	if test_have_prereq LONG
	then
		test "$crash_skipped" = 0 &&
		test "$crash_kills" -ge 100
	else
		test "$crash_skipped" -gt 0 &&
		test "$crash_kills" -ge 60
	fi
'

test_done
