#!/bin/sh
test_description='read-tree -m H M: every row of git'"'"'s two-tree table

One path p, and every way the index I, the trees H and M and the work
tree can stand to each other: I, H and M each absent or one of a few
contents (so that I==H, I==M, H==M and all-different all occur), the
work tree clean or dirty.  Each combination is one row of the "Two Tree
Merge" table of git-read-tree(1); the script names the row and checks
that every row 1-21 ran.  Without -u git and dirc run from the same
index (lib-interop: exit code, messages, index bytes); with -u in twin
repositories (entries, work tree, diff-files).'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-checkout.sh

# blob N: the id of content "N" (dirty: "dirty")
blob () {
	echo "$1" | git hash-object -w --stdin
}

# tree_of V: a tree with keep and, unless V is -, p holding "V"
tree_of () {
	rm -f .git/tmp-index &&
	{
		printf "100644 %s\tkeep\n" $(blob keep) &&
		if test "$1" != -
		then
			printf "100644 %s\tp\n" $(blob "$1")
		fi
	} >tree.info &&
	GIT_INDEX_FILE=.git/tmp-index git update-index --index-info <tree.info &&
	GIT_INDEX_FILE=.git/tmp-index git write-tree &&
	rm -f .git/tmp-index tree.info
}

# start I CLEAN: the index holds keep (clean) and, unless I is -, p as
# "I"; the file p holds "I" (CLEAN=1) or "dirty", or is absent
start () {
	rm -f .git/index p &&
	echo keep >keep &&
	git update-index --add keep &&
	if test "$1" != -
	then
		echo "$1" >p &&
		git update-index --add p &&
		if test "$2" = 0
		then
			echo dirty >p
		fi
	fi
}

# row I H M CLEAN: the table's row number
row () {
	if test "$1" = -
	then
		case "$2,$3" in
		-,-) echo 0 ;;
		-,*) echo 1 ;;
		*,-) echo 2 ;;
		*)	echo 3 ;;
		esac
		return
	fi
	c=$4
	if test "$2" = - && test "$3" = -
	then
		echo $((5 - c))
	elif test "$2" = -
	then
		if test "$1" = "$3"
		then
			echo $((7 - c))
		else
			echo $((9 - c))
		fi
	elif test "$3" = -
	then
		if test "$1" = "$2"
		then
			echo $((11 - c))
		else
			echo $((13 - c))
		fi
	elif test "$2" = "$3"
	then
		echo $((15 - c))
	elif test "$1" = "$3"
	then
		echo $((19 - c))
	elif test "$1" = "$2"
	then
		echo $((21 - c))
	else
		echo $((17 - c))
	fi
}

# combos: "I H M CLEAN" lines, every combination
combos () {
	for h in - 1
	do
		for m in - 1 2
		do
			test "$h$m" = -- || echo "- $h $m 1"
			for i in 1 2 3
			do
				echo "$i $h $m 1"
				echo "$i $h $m 0"
			done
		done
	done
}

test_expect_success GIT 'setup: the combinations' '
	combos >combos &&
	test_line_count = 41 combos
'

test_expect_success GIT 'without -u: index as git leaves it, every row' '
	: >rows &&
	while read -r i h m c
	do
		H=$(tree_of $h) &&
		M=$(tree_of $m) &&
		start $i $c &&
		git update-index -q --refresh &&
		r=$(row $i $h $m $c) &&
		interop_run read-tree -m $H $M &&
		same_result || {
			echo "# row $r: I=$i H=$h M=$m clean=$c" &&
			return 1
		}
		echo "$r $(cat dirc.code)" >>rows || return 1
	done <combos &&
	test_line_count = 41 rows &&
	for r in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21
	do
		grep -q "^$r " rows || {
			echo "# row $r did not run" &&
			return 1
		}
	done &&
	# the refusals are the table'"'"'s "fail" rows
	grep -q "^8 128" rows && grep -q "^11 128" rows &&
	grep -q "^16 128" rows && grep -q "^21 128" rows &&
	grep -q "^20 0" rows && grep -q "^10 0" rows
'

test_expect_success GIT 'the messages of the refusals' '
	H=$(tree_of 1) && M=$(tree_of 2) &&
	start 1 0 &&
	fails_like_git 128 "error: Entry '"'"'p'"'"' not uptodate. Cannot merge." \
		read-tree -m $H $M &&
	start 3 1 &&
	git update-index -q --refresh &&
	fails_like_git 128 "error: Entry '"'"'p'"'"' would be overwritten by merge. Cannot merge." \
		read-tree -m $H $M &&
	interop_run read-tree -q -m $H $M &&
	same_result &&
	test_must_be_empty dirc.err
'

test_expect_success GIT '-i: the work tree is not looked at (rows 11 and 21 pass)' '
	H=$(tree_of 1) && M=$(tree_of 2) && N=$(tree_of -) &&
	start 1 0 &&
	succeeds_like_git read-tree -m -i $H $M &&
	start 1 0 &&
	succeeds_like_git read-tree -m -i $H $N
'

test_expect_success GIT 'case 3 on an unborn index: M is used (initial checkout)' '
	test_when_finished "rm -f .git/index" &&
	H=$(tree_of 1) && M=$(tree_of 2) &&
	rm -f .git/index &&
	succeeds_like_git read-tree -m $H $M &&
	dirc ls-files -s >actual &&
	test_line_count = 2 actual &&
	rm -f .git/index &&
	git read-tree --empty &&
	fails_like_git 128 "error: Entry '"'"'p'"'"' would be overwritten by merge. Cannot merge." \
		read-tree -m $H $M
'

test_expect_success GIT 'setup: twins for -u' '
	git init -q rg &&
	git init -q rd &&
	for r in rg rd
	do
		(cd $r && combos >combos) || return 1
	done
'

test_expect_success GIT 'with -u: entries, work tree and diff-files as git, every row' '
	INTEROP_STATE=twins &&
	CHECKOUT_DIFF_FILES=1 &&
	: >rows &&
	while read -r i h m c
	do
		in_both "H=\$(tree_of $h) && M=\$(tree_of $m) &&
			echo \$H >H && echo \$M >M && start $i $c &&
			git update-index -q --refresh; :" &&
		H=$(cat rg/H) && M=$(cat rg/M) &&
		interop_run read-tree -m -u $H $M &&
		same_result || {
			echo "# -u row $(row $i $h $m $c): I=$i H=$h M=$m clean=$c" &&
			return 1
		}
		echo "$(row $i $h $m $c) $(cat dirc.code)" >>rows || return 1
	done <combos &&
	test_line_count = 41 rows &&
	grep -q "^20 0" rows && grep -q "^21 128" rows &&
	grep -q "^1 0" rows && grep -q "^10 0" rows
'

test_expect_success GIT '-u: an untracked file in the way of M, or of H removed (rows 1, 2)' '
	INTEROP_STATE=twins &&
	in_both "H=\$(tree_of -) && M=\$(tree_of 1) && echo \$H >H &&
		echo \$M >M && start - 1 && echo untracked >p" &&
	fails_like_git 128 "error: Untracked working tree file '"'"'p'"'"' would be overwritten by merge." \
		read-tree -m -u $(cat rg/H) $(cat rg/M) &&
	in_both "H=\$(tree_of 1) && M=\$(tree_of -) && echo \$H >H &&
		echo \$M >M && start - 1 && echo untracked >p" &&
	fails_like_git 128 "error: Untracked working tree file '"'"'p'"'"' would be removed by merge." \
		read-tree -m -u $(cat rg/H) $(cat rg/M) &&
	interop_run read-tree -m $(cat rg/H) $(cat rg/M) &&
	same_result
'

test_expect_success GIT '--reset with two trees: local changes go, unmerged paths too' '
	INTEROP_STATE=twins &&
	in_both "H=\$(tree_of 1) && M=\$(tree_of 2) && echo \$H >H &&
		echo \$M >M && start 1 0" &&
	interop_run read-tree --reset -u $(cat rg/H) $(cat rg/M) &&
	same_result &&
	echo 0 >expect && test_cmp expect dirc.code &&
	in_both "start 3 0 &&
		printf \"100644 %s 1\tp\n100644 %s 3\tp\n\" \$(blob 1) \$(blob 2) |
		git update-index --index-info" &&
	interop_run read-tree --reset -u $(cat rg/H) $(cat rg/M) &&
	same_result &&
	in_both "start 3 0 &&
		printf \"100644 %s 1\tq\n100644 %s 3\tq\n\" \$(blob 1) \$(blob 2) |
		git update-index --index-info && echo q >q" &&
	interop_run read-tree --reset -u $(cat rg/H) $(cat rg/M) &&
	same_result &&
	in_both "start 3 0 &&
		printf \"100644 %s 1\tq\n100644 %s 3\tq\n\" \$(blob 1) \$(blob 2) |
		git update-index --index-info && echo q >q" &&
	interop_run read-tree -m -u $(cat rg/H) $(cat rg/M) &&
	same_result &&
	echo 128 >expect && test_cmp expect dirc.code
'

test_done
