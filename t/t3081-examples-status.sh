#!/bin/sh
test_description='Documentation/examples/dirc-status.sh: "what changed" with dirc as with git

A repository with every kind of change: staged, modified, deleted, type
and mode changes, added then changed, untracked files, names that need
quoting, and conflicts in every combination of stages.  dirc-status.sh
(diff-index --cached, diff-files, ls-files -u and -o) runs with DIRC=git
in one copy and DIRC=dirc in another: exit code, output, messages and
the index it refreshed (byte for byte, stat data apart) must be equal.
With git on both sides (the sanity check, which runs while dirc still
lacks diff-index or diff-files) its output must also be what git status
--porcelain --untracked-files=all prints.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-examples.sh

STATUS_SH=$EXAMPLES/dirc-status.sh

ex_say_missing DIRC_DIFF_INDEX "diff-index"
ex_say_missing DIRC_DIFF_FILES "diff-files"

# like_porcelain DIR [--no-refresh]: dirc-status.sh with git in a copy
# of DIR prints what git status --porcelain prints in another copy
like_porcelain () {
	rm -rf porcelain mine &&
	cp -R "$1" porcelain &&
	cp -R "$1" mine &&
	git -C porcelain -c status.renames=false status --porcelain \
		--untracked-files=all >expect.status &&
	(cd mine && DIRC=git "$STATUS_SH") >actual.status &&
	test_cmp expect.status actual.status
}

# check_status CMD TEMPLATE ARGS...: ex_both CMD TEMPLATE ARGS, ex_same,
# and the status script succeeded quietly
check_status () {
	ex_both "$@" &&
	ex_same &&
	echo 0 >expect.code &&
	test_cmp_codes expect.code dirc.code &&
	test_must_be_empty dirc.err
}

test_expect_success GIT 'setup: a commit, then every kind of change' '
	git init -q st &&
	(
		cd st &&
		for f in keep mod-wt mod-staged mod-both del-wt del-staged \
			type with-space chmod uu ud du dd
		do
			echo "$f" >"$f.txt" || return 1
		done &&
		mkdir -p dir/sub &&
		echo deep >dir/sub/file.txt &&
		echo tab >"$(printf "tab\\there.txt")" &&
		echo quote >"quote\"d.txt" &&
		git add . &&
		test_tick &&
		git commit -q -m one &&

		echo changed >>mod-wt.txt &&
		echo changed >>mod-staged.txt &&
		git add mod-staged.txt &&
		echo staged >>mod-both.txt &&
		git add mod-both.txt &&
		echo "and again" >>mod-both.txt &&
		rm del-wt.txt &&
		git rm -q del-staged.txt &&
		echo new >new-staged.txt &&
		echo new >new-mod.txt &&
		echo new >new-del.txt &&
		git add new-staged.txt new-mod.txt new-del.txt &&
		echo changed >>new-mod.txt &&
		rm new-del.txt &&
		chmod +x chmod.txt &&
		echo changed >>"$(printf "tab\\there.txt")" &&
		git add "$(printf "tab\\there.txt")" &&
		echo changed >>with-space.txt &&
		mv with-space.txt "with space.txt" &&
		git add "with space.txt" &&
		echo u >u1.txt &&
		echo u >dir/u2.txt &&
		mkdir newdir &&
		echo u >newdir/u3.txt &&
		echo u >"$(printf "\\303\\251t\\303\\251.txt")" &&
		echo u >"quote\"d-untracked.txt" &&

		o=$(git rev-parse HEAD:uu.txt) &&
		a=$(echo ours | git hash-object -w --stdin) &&
		b=$(echo theirs | git hash-object -w --stdin) &&
		{
			printf "0 %s\tuu.txt\n" $o &&
			printf "100644 %s 1\tuu.txt\n100644 %s 2\tuu.txt\n100644 %s 3\tuu.txt\n" $o $a $b &&
			printf "100644 %s 2\taa.txt\n100644 %s 3\taa.txt\n" $a $b &&
			printf "0 %s\tdd.txt\n100644 %s 1\tdd.txt\n" $o $o &&
			printf "100644 %s 2\tau.txt\n" $a &&
			printf "100644 %s 3\tua.txt\n" $b &&
			printf "0 %s\tud.txt\n100644 %s 1\tud.txt\n100644 %s 2\tud.txt\n" $o $o $a &&
			printf "0 %s\tdu.txt\n100644 %s 1\tdu.txt\n100644 %s 3\tdu.txt\n" $o $o $b
		} >index-info &&
		git update-index --index-info <index-info &&
		rm index-info &&
		echo ours >aa.txt &&
		echo ours >au.txt &&
		rm dd.txt du.txt
	) &&
	if test_have_prereq SYMLINKS
	then
		rm st/type.txt &&
		ln -s keep.txt st/type.txt
	fi &&
	git -C st ls-files -u >unmerged &&
	test_line_count = 12 unmerged
'

test_expect_success GIT 'sanity: with git, the output is git status --porcelain'"'"'s' '
	like_porcelain st &&
	test_grep "^UU uu.txt$" actual.status &&
	test_grep "^MM mod-both.txt$" actual.status &&
	test_grep "^AD new-del.txt$" actual.status &&
	test_grep "^?? \"\\\\303\\\\251t\\\\303\\\\251.txt\"$" actual.status &&
	test_grep "^M  \"tab\\\\there.txt\"$" actual.status
'

test_expect_success GIT 'git and git alike (sanity)' '
	check_status git st "$STATUS_SH"
'

test_expect_success GIT,DIRC_DIFF_INDEX,DIRC_DIFF_FILES 'dirc like git' '
	check_status dirc st "$STATUS_SH"
'

test_expect_success GIT 'setup: a clean repository, one file only touched' '
	git init -q clean &&
	(
		cd clean &&
		echo a >a &&
		mkdir d &&
		echo b >d/b &&
		git add a d/b &&
		test_tick &&
		git commit -q -m one
	)
'

test_expect_success GIT 'a touched file: not shown after the refresh (sanity)' '
	touch -d @1700000000 clean/a &&
	like_porcelain clean &&
	test_must_be_empty actual.status &&
	check_status git clean "$STATUS_SH" &&
	test_must_be_empty dirc.out
'

test_expect_success GIT,DIRC_DIFF_INDEX,DIRC_DIFF_FILES 'a touched file: not shown after the refresh' '
	check_status dirc clean "$STATUS_SH" &&
	test_must_be_empty dirc.out
'

# in each copy: the index refreshed, then one file touched
TOUCH_A="git update-index -q --refresh && touch -d @1700000000 a"

test_expect_success GIT '--no-refresh: a touched file shows as modified (sanity)' '
	EX_PREP=$TOUCH_A &&
	test_when_finished "EX_PREP=" &&
	check_status git clean "$STATUS_SH" --no-refresh &&
	echo " M a" >expect.out &&
	test_cmp expect.out dirc.out
'

test_expect_success GIT,DIRC_DIFF_INDEX,DIRC_DIFF_FILES '--no-refresh: a touched file shows as modified' '
	EX_PREP=$TOUCH_A &&
	test_when_finished "EX_PREP=" &&
	check_status dirc clean "$STATUS_SH" --no-refresh &&
	echo " M a" >expect.out &&
	test_cmp expect.out dirc.out
'

test_expect_success GIT 'setup: no commit yet' '
	git init -q unborn &&
	(
		cd unborn &&
		echo a >a &&
		echo b >b &&
		git add a b &&
		echo more >>b &&
		echo c >c
	)
'

test_expect_success GIT 'no commit yet: everything staged is "A" (sanity)' '
	like_porcelain unborn &&
	test_write_lines "A  a" "AM b" "?? c" >expect.out &&
	test_cmp expect.out actual.status &&
	check_status git unborn "$STATUS_SH"
'

test_expect_success GIT,DIRC_DIFF_FILES 'no commit yet: dirc like git' '
	check_status dirc unborn "$STATUS_SH"
'

test_expect_success GIT 'a bad argument: usage, exit 129' '
	(
		cd st &&
		DIRC=git &&
		export DIRC &&
		test_expect_code 129 "$STATUS_SH" --bogus 2>../err
	) &&
	test_grep "^usage: dirc-status.sh" err
'

test_done
