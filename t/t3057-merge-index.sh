#!/bin/sh
test_description='merge-index: the merge program run as git runs it

An unmerged index made by git read-tree -m O A B; git merge-index and
dirc merge-index run a test program that prints its arguments, where it
runs and GIT_PREFIX/GIT_DIR: the same lines, messages and exit codes,
for -a, paths, "--", merged and unknown paths, -o, -q, failing programs,
programs that cannot be run or die by a signal.  Then git'"'"'s own
git-merge-one-file (found through GIT_EXEC_PATH) over dirc: the index
and the work tree it leaves must be the ones it leaves over git.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh
. "$TEST_DIRECTORY"/lib-trees.sh

test_expect_success GIT 'setup: three trees and an unmerged index' '
	mkdir -p d/e &&
	echo base >f &&
	echo g >g &&
	echo same >same &&
	echo x >d/e/x &&
	echo del >gone &&
	git add . &&
	git commit -q -m O &&
	git tag O &&
	echo A >f &&
	echo a >added &&
	git rm -q g &&
	echo ax >d/e/x &&
	chmod +x gone &&
	git add . &&
	git commit -q -m A &&
	git tag A &&
	git checkout -q O &&
	echo B >f &&
	echo b >added &&
	echo bg >g &&
	echo bx >d/e/x &&
	git rm -q gone &&
	git add . &&
	git commit -q -m B &&
	git tag B &&
	git checkout -q A &&
	git read-tree -i -m O A B &&
	git ls-files -u >unmerged &&
	test_line_count = 12 unmerged &&
	write_script prog <<-\EOF &&
	echo "[$1] [$2] [$3] [$4] [$5] [$6] [$7] #$# in ${PWD##*/} prefix=${GIT_PREFIX-unset} dir=${GIT_DIR-unset}"
	case "$4" in
	${FAIL_ON-none}) exit 3 ;;
	esac
	exit 0
	EOF
	cp prog d/prog &&
	mkdir bin &&
	cp prog bin/merge-prog &&
	printf "echo no-shebang \$4\n" >bin/no-shebang &&
	chmod +x bin/no-shebang &&
	printf "#!/bin/sh\nkill -TERM \$\$\n" >bin/sig &&
	printf "#!/bin/sh\nkill -PIPE \$\$\n" >bin/sigpipe &&
	printf "#!/nonexistent/sh\n" >bin/bad-interp &&
	chmod +x bin/sig bin/sigpipe bin/bad-interp &&
	printf "echo hi\n" >bin/not-exec
'

test_expect_success GIT 'every unmerged path, or the ones named' '
	P=$(pwd)/prog &&
	for args in "-a" "f" "g f" "added" "d/e/x" "gone" "-- f" "f -- g" \
		"same" "f same g" "-a -a" "f -a" "-- -a" "nosuch" "f nosuch g" \
		"d" "d/e" "f -b" "-b f" "-o -a" "-q -a" "-o -q -a" "-q -o -a"
	do
		trees_like_git merge-index "$P" $args &&
		trees_like_git merge-index -o "$P" $args &&
		trees_like_git merge-index -q "$P" $args &&
		trees_like_git merge-index -o -q "$P" $args || return 1
	done
'

test_expect_success GIT 'failing programs: -o goes on, -q says nothing, the count as exit code' '
	P=$(pwd)/prog &&
	for fail in f "f|g" "*" added "d/e/x|gone"
	do
		FAIL_ON=$fail &&
		export FAIL_ON &&
		for o in "" -o -q "-o -q" "-q -o"
		do
			trees_like_git merge-index $o "$P" -a &&
			trees_like_git merge-index $o "$P" gone f added || return 1
		done || return 1
	done &&
	FAIL_ON="*" &&
	trees_like_git merge-index -o -q "$P" -a &&
	trees_code 5 &&
	unset FAIL_ON
'

test_expect_success GIT 'programs found as git finds them, or not' '
	old_path=$PATH &&
	test_when_finished "PATH=\$old_path" &&
	PATH=$(pwd)/bin:$PATH &&
	for p in merge-prog no-shebang sig sigpipe bad-interp not-exec \
		nosuch ./prog ./nosuch "$(pwd)/bin/not-exec" "$(pwd)/bin" \
		"echo \$1" "" bin/merge-prog
	do
		trees_like_git merge-index "$p" f g &&
		trees_like_git merge-index -o "$p" f g &&
		trees_like_git merge-index -o -q "$p" f g || return 1
	done
'

test_expect_success GIT 'usage: too few arguments, -h' '
	for args in "" "-o" "-q" "-h" "prog" "-o -q"
	do
		trees_like_git merge-index $args || return 1
	done &&
	trees_like_git merge-index -o -q &&
	trees_code 0 &&
	trees_like_git merge-index &&
	trees_code 129
'

test_expect_success GIT 'from a subdirectory: the program runs at the top' '
	trees_like_git -C d merge-index ./prog -a &&
	trees_like_git -C d merge-index ../prog d/e/x e/x &&
	trees_like_git -C d/e merge-index ../prog x
'

test_expect_success GIT 'GIT_DIR and GIT_WORK_TREE as git passes them on' '
	P=$(pwd)/prog &&
	(
		GIT_DIR=.git &&
		export GIT_DIR &&
		trees_like_git merge-index "$P" f
	) &&
	(
		GIT_DIR=../.git &&
		export GIT_DIR &&
		trees_like_git -C d merge-index "$P" f
	) &&
	(
		GIT_DIR=$(pwd)/.git GIT_WORK_TREE=.. &&
		export GIT_DIR GIT_WORK_TREE &&
		trees_like_git -C d merge-index "$P" f
	)
'

# one_file_merge NAME [-o]: merge every path with git-merge-one-file
# in NAME.git and NAME.dirc (clones of this repository with O A B
# read), compare what the merges print and leave.
one_file_merge () {
	ofm_name=$1 &&
	shift &&
	(
		cd $ofm_name.git &&
		git merge-index "$@" git-merge-one-file -a >../git.out 2>../git.err
		echo $? >../git.code
	) &&
	(
		cd $ofm_name.dirc &&
		GIT_EXEC_PATH=$(git --exec-path) &&
		export GIT_EXEC_PATH &&
		dirc merge-index "$@" git-merge-one-file -a >../dirc.out 2>../dirc.err
		echo $? >../dirc.code
	) &&
	test_cmp_codes git.code dirc.code &&
	test_cmp git.out dirc.out &&
	test_cmp git.err dirc.err &&
	git -C $ofm_name.git ls-files -s >git.index &&
	git -C $ofm_name.dirc ls-files -s >dirc.index &&
	test_cmp git.index dirc.index &&
	# conflict markers name random temporary files
	(cd $ofm_name.git && find . -path ./.git -prune -o -type f -print |
		sort | xargs cat) |
		sed "s/merge_file_[A-Za-z0-9]*/merge_file_X/" >git.files &&
	(cd $ofm_name.dirc && find . -path ./.git -prune -o -type f -print |
		sort | xargs cat) |
		sed "s/merge_file_[A-Za-z0-9]*/merge_file_X/" >dirc.files &&
	test_cmp git.files dirc.files
}

test_expect_success GIT 'git-merge-one-file over dirc: conflicts, adds, deletes' '
	for side in git dirc
	do
		git clone -q . conflict.$side &&
		(
			cd conflict.$side &&
			git checkout -q A &&
			git read-tree -m O A B
		) &&
		test_fsck_also conflict.$side || return 1
	done &&
	one_file_merge conflict -o &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	test_grep "^ERROR: content conflict in added" dirc.err &&
	test_grep "^fatal: merge program failed" dirc.err &&
	git -C conflict.dirc ls-files -u >unmerged &&
	test_file_not_empty unmerged
'

test_expect_success GIT 'git-merge-one-file over dirc: a clean content merge (git'"'"'s t6060)' '
	git reset -q --hard A &&
	test_write_lines 1 2 3 4 5 6 7 8 9 10 >file &&
	git add file &&
	git commit -q -m base &&
	git tag base &&
	sed s/2/two/ <file >tmp &&
	mv tmp file &&
	git commit -q -a -m two &&
	git tag two &&
	git checkout -q -b other HEAD^ &&
	sed s/10/ten/ <file >tmp &&
	mv tmp file &&
	git commit -q -a -m ten &&
	git tag ten &&
	for side in git dirc
	do
		git clone -q . clean.$side &&
		(
			cd clean.$side &&
			git checkout -q ten &&
			git read-tree -i -m base ten two
		) &&
		test_fsck_also clean.$side || return 1
	done &&
	one_file_merge clean &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	test_write_lines 1 two 3 4 5 6 7 8 9 ten >expect &&
	test_cmp expect clean.dirc/file &&
	git -C clean.dirc cat-file blob :file >actual &&
	test_cmp expect actual
'

test_expect_success GIT 'git-merge-one-file: a bare repository, with and without GIT_WORK_TREE' '
	git clone -q --bare . bare.git &&
	test_fsck_also bare.git &&
	(
		cd bare.git &&
		GIT_INDEX_FILE=$(pwd)/merge.index &&
		export GIT_INDEX_FILE &&
		git read-tree -i -m base ten two &&
		GIT_EXEC_PATH=$(git --exec-path) &&
		export GIT_EXEC_PATH &&
		test_must_fail dirc merge-index git-merge-one-file -a &&
		mkdir work &&
		GIT_WORK_TREE=$(pwd)/work &&
		export GIT_WORK_TREE &&
		dirc merge-index git-merge-one-file -a &&
		git cat-file blob :file >work/file-index
	) &&
	test_write_lines 1 two 3 4 5 6 7 8 9 ten >expect &&
	test_cmp expect bare.git/work/file &&
	test_cmp expect bare.git/work/file-index
'

test_expect_success GIT 'git-merge-one-file: core.worktree, run from outside the work tree' '
	mkdir subdir &&
	git clone -q . subdir/child &&
	test_fsck_also subdir/child &&
	(
		cd subdir &&
		GIT_DIR=$(pwd)/child/.git &&
		export GIT_DIR &&
		git config core.worktree "$(pwd)/child" &&
		git read-tree -i -m base ten two &&
		GIT_EXEC_PATH=$(git --exec-path) &&
		export GIT_EXEC_PATH &&
		dirc merge-index git-merge-one-file -a &&
		git cat-file blob :file >file-index
	) &&
	test_cmp expect subdir/child/file &&
	test_cmp expect subdir/file-index
'

test_done
