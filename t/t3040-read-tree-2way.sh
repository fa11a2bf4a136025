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

# The blobs and trees are made once (a process costs milliseconds).
# make_trees DIR: in DIR's repository, the blobs keep, 1, 2 and 3 and the
# trees of V = -, 1, 2: keep and, unless V is -, p holding "V"; their ids
# (the same in every repository) in $B_keep, $B1.., $Tn (V -), $T1, $T2
make_trees () {
	echo keep >.git/mt.keep &&
	echo 1 >.git/mt.1 && echo 2 >.git/mt.2 && echo 3 >.git/mt.3 &&
	for mt_v in keep 1 2 3
	do
		echo "$TRASH_DIRECTORY/.git/mt.$mt_v" || return 1
	done >.git/mt.paths &&
	git -C "$1" hash-object -w --stdin-paths <.git/mt.paths >.git/mt.ids &&
	{
		read -r B_keep && read -r B1 && read -r B2 && read -r B3
	} <.git/mt.ids &&
	Tn=$(printf "100644 blob %s\tkeep\n" $B_keep | git -C "$1" mktree) &&
	T1=$(printf "100644 blob %s\tkeep\n100644 blob %s\tp\n" \
		$B_keep $B1 | git -C "$1" mktree) &&
	T2=$(printf "100644 blob %s\tkeep\n100644 blob %s\tp\n" \
		$B_keep $B2 | git -C "$1" mktree)
}

# tree V: the tree of V in $tree
tree () {
	case $1 in
	-)	tree=$Tn ;;
	1)	tree=$T1 ;;
	2)	tree=$T2 ;;
	*)	echo "# no tree $1" >&2 && return 1 ;;
	esac
}

# start I CLEAN DIR...: each DIR's index holds keep (clean) and, unless
# I is -, p as "I"; the file p holds "I" (CLEAN=1) or "dirty", or is
# absent (one rm for all the DIRs, names without blanks)
start () {
	st_i=$1 &&
	st_c=$2 &&
	shift 2 &&
	st_rm= &&
	for st_dir
	do
		st_rm="$st_rm $st_dir/.git/index $st_dir/p"
	done &&
	rm -f $st_rm &&
	for st_dir
	do
		echo keep >"$st_dir/keep" &&
		if test "$st_i" = -
		then
			git -C "$st_dir" update-index --add keep
		else
			echo "$st_i" >"$st_dir/p" &&
			git -C "$st_dir" update-index --add keep p &&
			if test "$st_c" = 0
			then
				echo dirty >"$st_dir/p"
			fi
		fi || return 1
	done
}

# row I H M CLEAN: the table's row number in $r
row () {
	if test "$1" = -
	then
		case "$2,$3" in
		-,-) r=0 ;;
		-,*) r=1 ;;
		*,-) r=2 ;;
		*)	r=3 ;;
		esac
		return
	fi
	c=$4
	if test "$2" = - && test "$3" = -
	then
		r=$((5 - c))
	elif test "$2" = -
	then
		if test "$1" = "$3"
		then
			r=$((7 - c))
		else
			r=$((9 - c))
		fi
	elif test "$3" = -
	then
		if test "$1" = "$2"
		then
			r=$((11 - c))
		else
			r=$((13 - c))
		fi
	elif test "$2" = "$3"
	then
		r=$((15 - c))
	elif test "$1" = "$3"
	then
		r=$((19 - c))
	elif test "$1" = "$2"
	then
		r=$((21 - c))
	else
		r=$((17 - c))
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

# has_row R:CODE: the cases run so far ($seen, " R:CODE" each) have a
# row R that exited CODE (either may be a pattern)
has_row () {
	case "$seen " in
	*" "$1" "*) return 0 ;;
	esac
	echo "# no row $1 among:$seen" >&2
	return 1
}

# rows_cover: every row 1-21 ran
rows_cover () {
	for r in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21
	do
		has_row "$r:*" || return 1
	done
}

test_expect_success GIT 'setup: the combinations, the trees' '
	combos >combos &&
	test_line_count = 41 combos &&
	make_trees .
'

test_expect_success GIT 'without -u: index as git leaves it, every row' '
	: >rows &&
	seen= &&
	while read -r i h m c
	do
		tree $h && H=$tree &&
		tree $m && M=$tree &&
		start $i $c . &&
		row $i $h $m $c &&
		interop_run read-tree -m $H $M &&
		same_result || {
			echo "# row $r: I=$i H=$h M=$m clean=$c" &&
			return 1
		}
		read -r code <dirc.code &&
		echo "$r $code" >>rows &&
		seen="$seen $r:$code" || return 1
	done <combos &&
	test_line_count = 41 rows &&
	rows_cover &&
	# the refusals are the table'"'"'s "fail" rows
	has_row 8:128 && has_row 11:128 && has_row 16:128 && has_row 21:128 &&
	has_row 20:0 && has_row 10:0
'

test_expect_success GIT 'the messages of the refusals' '
	H=$T1 && M=$T2 &&
	start 1 0 . &&
	fails_like_git 128 "error: Entry '"'"'p'"'"' not uptodate. Cannot merge." \
		read-tree -m $H $M &&
	start 3 1 . &&
	git update-index -q --refresh &&
	fails_like_git 128 "error: Entry '"'"'p'"'"' would be overwritten by merge. Cannot merge." \
		read-tree -m $H $M &&
	interop_run read-tree -q -m $H $M &&
	same_result &&
	test_must_be_empty dirc.err
'

test_expect_success GIT '-i: the work tree is not looked at (rows 11 and 21 pass)' '
	H=$T1 && M=$T2 && N=$Tn &&
	start 1 0 . &&
	succeeds_like_git read-tree -m -i $H $M &&
	start 1 0 . &&
	succeeds_like_git read-tree -m -i $H $N
'

test_expect_success GIT 'case 3 on an unborn index: M is used (initial checkout)' '
	test_when_finished "rm -f .git/index" &&
	H=$T1 && M=$T2 &&
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
		combos >$r/combos &&
		make_trees $r || return 1
	done
'

test_expect_success GIT 'with -u: entries, work tree and diff-files as git, every row' '
	INTEROP_STATE=twins &&
	CHECKOUT_DIFF_FILES=1 &&
	: >rows &&
	seen= &&
	while read -r i h m c
	do
		tree $h && H=$tree &&
		tree $m && M=$tree &&
		for t in rg rd
		do
			echo $H >$t/H && echo $M >$t/M || return 1
		done &&
		start $i $c rg rd &&
		row $i $h $m $c &&
		interop_run read-tree -m -u $H $M &&
		same_result || {
			echo "# -u row $r: I=$i H=$h M=$m clean=$c" &&
			return 1
		}
		read -r code <dirc.code &&
		echo "$r $code" >>rows &&
		seen="$seen $r:$code" || return 1
	done <combos &&
	test_line_count = 41 rows &&
	has_row 20:0 && has_row 21:128 && has_row 1:0 && has_row 10:0
'

test_expect_success GIT '-u: an untracked file in the way of M, or of H removed (rows 1, 2)' '
	INTEROP_STATE=twins &&
	for t in rg rd
	do
		echo $Tn >$t/H && echo $T1 >$t/M || return 1
	done &&
	start - 1 rg rd &&
	echo untracked >rg/p && echo untracked >rd/p &&
	fails_like_git 128 "error: Untracked working tree file '"'"'p'"'"' would be overwritten by merge." \
		read-tree -m -u $Tn $T1 &&
	for t in rg rd
	do
		echo $T1 >$t/H && echo $Tn >$t/M || return 1
	done &&
	start - 1 rg rd &&
	echo untracked >rg/p && echo untracked >rd/p &&
	fails_like_git 128 "error: Untracked working tree file '"'"'p'"'"' would be removed by merge." \
		read-tree -m -u $T1 $Tn &&
	interop_run read-tree -m $T1 $Tn &&
	same_result
'

test_expect_success GIT '--reset with two trees: local changes go, unmerged paths too' '
	INTEROP_STATE=twins &&
	for t in rg rd
	do
		echo $T1 >$t/H && echo $T2 >$t/M || return 1
	done &&
	start 1 0 rg rd &&
	interop_run read-tree --reset -u $T1 $T2 &&
	same_result &&
	echo 0 >expect && test_cmp expect dirc.code &&
	printf "100644 %s 1\tp\n100644 %s 3\tp\n" $B1 $B2 >unmerged.p &&
	start 3 0 rg rd &&
	git -C rg update-index --index-info <unmerged.p &&
	git -C rd update-index --index-info <unmerged.p &&
	interop_run read-tree --reset -u $T1 $T2 &&
	same_result &&
	printf "100644 %s 1\tq\n100644 %s 3\tq\n" $B1 $B2 >unmerged.q &&
	start 3 0 rg rd &&
	for t in rg rd
	do
		git -C $t update-index --index-info <unmerged.q &&
		echo q >$t/q || return 1
	done &&
	interop_run read-tree --reset -u $T1 $T2 &&
	same_result &&
	start 3 0 rg rd &&
	for t in rg rd
	do
		git -C $t update-index --index-info <unmerged.q &&
		echo q >$t/q || return 1
	done &&
	interop_run read-tree -m -u $T1 $T2 &&
	same_result &&
	echo 128 >expect && test_cmp expect dirc.code
'

test_done
