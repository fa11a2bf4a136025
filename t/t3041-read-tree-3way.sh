#!/bin/sh
test_description='read-tree -m O A B: the three-way cases against git

One path p, and every way the ancestor O, head A and remote B can hold
it (absent or one of two contents: all of trivial-merge.txt'"'"'s cases
#1-#16 occur), crossed with the index (absent, as A, as B, something
else) and the work tree (clean or dirty): plain, --aggressive and
--trivial, without -u from one index (lib-interop: exit code, messages,
index bytes with the TREE extension), with -u in twin repositories.
Then more than one base (four and five trees), and the TREE extension
git keeps for the directories the merge did not touch.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-checkout.sh

# The blobs and trees are made once per repository (a process costs
# milliseconds).
# make_trees DIR V...: in DIR's repository, the blobs keep, dk and each V
# but -, and for each V the tree of keep, d/k (an untouched
# sub-directory) and, unless V is -, p holding "V"; their ids (the same
# in every repository) in $B_keep, $B_dk, $B1.. and $Tn (V -), $T1..
make_trees () {
	mt_dir=$1 &&
	shift &&
	echo keep >.git/mt.keep &&
	echo dk >.git/mt.dk &&
	{
		echo "$TRASH_DIRECTORY/.git/mt.keep" &&
		echo "$TRASH_DIRECTORY/.git/mt.dk" &&
		for mt_v
		do
			if test "$mt_v" != -
			then
				echo "$mt_v" >.git/mt.$mt_v &&
				echo "$TRASH_DIRECTORY/.git/mt.$mt_v"
			fi || return 1
		done
	} >.git/mt.paths &&
	git -C "$mt_dir" hash-object -w --stdin-paths <.git/mt.paths >.git/mt.ids &&
	{
		read -r B_keep && read -r B_dk &&
		for mt_v
		do
			if test "$mt_v" != -
			then
				read -r "B$mt_v"
			fi || return 1
		done
	} <.git/mt.ids &&
	mt_d=$(printf "100644 blob %s\tk\n" $B_dk | git -C "$mt_dir" mktree) &&
	for mt_v
	do
		if test "$mt_v" = -
		then
			Tn=$(printf "100644 blob %s\tkeep\n040000 tree %s\td\n" \
				$B_keep $mt_d | git -C "$mt_dir" mktree)
		else
			eval "mt_p=\$B$mt_v" &&
			mt_t=$(printf "100644 blob %s\tkeep\n040000 tree %s\td\n100644 blob %s\tp\n" \
				$B_keep $mt_d $mt_p | git -C "$mt_dir" mktree) &&
			eval "T$mt_v=\$mt_t"
		fi || return 1
	done
}

# tree V: the tree of V in $tree; trees V...: theirs in $trees
tree () {
	case $1 in
	-)	tree=$Tn ;;
	*)	eval "tree=\${T$1-}" ;;
	esac
	test -n "$tree" || {
		echo "# no tree $1" >&2
		return 1
	}
}

trees () {
	trees=
	for tv
	do
		tree $tv &&
		trees="$trees $tree" || return 1
	done
}

# start DIR I CLEAN: DIR's index of keep, d/k (with a valid TREE) and p
# as "I"; the file p holds "I" (CLEAN=1) or "dirty", or is absent.  The
# index is the tree of I read and refreshed (entries, stat data and TREE
# as update-index --add and write-tree leave them), then p is made dirty.
start () {
	if test "$2" = -
	then
		if test -e "$1/p"
		then
			rm "$1/p"
		fi
	else
		echo "$2" >"$1/p"
	fi &&
	echo keep >"$1/keep" &&
	{ test -d "$1/d" || mkdir "$1/d"; } &&
	echo dk >"$1/d/k" &&
	tree "$2" &&
	git -C "$1" read-tree $tree &&
	git -C "$1" update-index -q --refresh &&
	if test "$3" = 0
	then
		echo dirty >"$1/p"
	fi
}

# has_code CODE: some case so far ($codes) exited CODE
has_code () {
	case "$codes " in
	*" $1 "*) return 0 ;;
	esac
	echo "# no case exited $1:$codes" >&2
	return 1
}

combos () {
	for o in - 1 2
	do
		for a in - 1 2
		do
			for b in - 1 2
			do
				echo "- $o $a $b 1"
				for i in $a 3
				do
					test $i = - && continue
					echo "$i $o $a $b 1"
					echo "$i $o $a $b 0"
				done
				if test $b != - && test $b != $a
				then
					echo "$b $o $a $b 1"
				fi
			done
		done
	done
}

test_expect_success GIT 'setup' '
	combos >combos &&
	test_line_count = 129 combos &&
	# make test (CI'"'"'s time): every case plain, every other one with
	# --aggressive and --trivial; make test-long every case each time
	if test_have_prereq LONG
	then
		cp combos combos--aggressive && cp combos combos--trivial
	else
		awk "NR % 2" combos >combos--aggressive &&
		awk "NR % 2 == 0" combos >combos--trivial &&
		test_line_count = 65 combos--aggressive &&
		test_line_count = 64 combos--trivial
	fi &&
	make_trees . - 1 2 3 &&
	echo $Tn >T- && echo $T1 >T1 && echo $T2 >T2
'

for opt in "" --aggressive --trivial
do
	test_expect_success GIT "without -u${opt:+ ($opt)}: as git" '
		: >done &&
		codes= &&
		while read -r i o a b c
		do
			tree $o && O=$tree && tree $a && A=$tree && tree $b && B=$tree &&
			start . $i $c &&
			interop_run read-tree -m $opt $O $A $B &&
			same_result || {
				echo "# I=$i O=$o A=$a B=$b clean=$c $opt" &&
				return 1
			}
			read -r code <dirc.code &&
			echo "$code" >>done &&
			codes="$codes $code" || return 1
		done <combos$opt &&
		test_line_count = $(wc -l <combos$opt) done &&
		has_code 0 && has_code 128
	'
done

test_expect_success GIT 'the stages: O, A and B all different' '
	O=$T1 && A=$T2 && B=$T3 &&
	start . 2 1 &&
	succeeds_like_git read-tree -m $O $A $B &&
	dirc ls-files -s >actual &&
	cat >expect <<-EOF &&
	100644 $B_dk 0	d/k
	100644 $B_keep 0	keep
	100644 $B1 1	p
	100644 $B2 2	p
	100644 $B3 3	p
	EOF
	test_cmp expect actual
'

test_expect_success GIT 'the TREE extension: d/ kept valid, as git' '
	O=$T1 && A=$T1 && B=$T2 &&
	start . 1 1 &&
	succeeds_like_git read-tree -m $O $A $B &&
	dirc ls-files -s p >actual &&
	echo "100644 $B2 0	p" >expect &&
	test_cmp expect actual &&
	test "$(git write-tree)" = "$B"
'

test_expect_success GIT 'more than one base: four and five trees' '
	: >done &&
	for t in "1 2 1 2" "1 2 2 1" "1 1 2 2" "- 1 1 2" "1 - 2 2" \
		"1 2 3 3" "1 2 - 1" "- - 1 2" "1 2 2 3" "2 1 2 1"
	do
		set -- $t &&
		start . $3 1 &&
		trees $1 $2 $3 $4 &&
		interop_run read-tree -m $trees &&
		same_result &&
		interop_run read-tree -m --aggressive $trees &&
		same_result &&
		start . $4 1 &&
		trees $1 $2 $1 $4 $3 &&
		interop_run read-tree -m $trees &&
		same_result &&
		echo "$t" >>done || return 1
	done &&
	test_line_count = 10 done
'

test_expect_success GIT 'setup: twins for -u' '
	git init -q rg &&
	git init -q rd &&
	for t in rg rd
	do
		combos >$t/combos &&
		make_trees $t - 1 2 &&
		echo $Tn >$t/T- && echo $T1 >$t/T1 && echo $T2 >$t/T2 || return 1
	done &&
	# -u: the index absent or as head (the others refuse before -u
	# matters), every other one of them for --aggressive
	awk "\$1 == \"-\" || \$1 == \$3" rg/combos >combos.all &&
	test_line_count = 63 combos.all &&
	# make test (CI'"'"'s time) takes every other case, and every fourth
	# for --aggressive; make test-long all of them and every other
	if test_have_prereq LONG
	then
		cp combos.all combos.u &&
		awk "NR % 2" combos.all >combos.u--aggressive &&
		test_line_count = 32 combos.u--aggressive
	else
		awk "NR % 2" combos.all >combos.u &&
		awk "NR % 4 == 1" combos.all >combos.u--aggressive &&
		test_line_count = 32 combos.u &&
		test_line_count = 16 combos.u--aggressive
	fi
'

for opt in "" --aggressive
do
	test_expect_success GIT "with -u${opt:+ ($opt)}: entries and work tree as git" '
		INTEROP_STATE=twins &&
		CHECKOUT_DIFF_FILES=1 &&
		: >done &&
		codes= &&
		while read -r i o a b c
		do
			tree $o && O=$tree && tree $a && A=$tree && tree $b && B=$tree &&
			for t in rg rd
			do
				printf "%s\n" $O $A $B >$t/T &&
				start $t $i $c || return 1
			done &&
			interop_run read-tree -m -u $opt $O $A $B &&
			same_result || {
				echo "# -u I=$i O=$o A=$a B=$b clean=$c $opt" &&
				return 1
			}
			read -r code <dirc.code &&
			echo "$code" >>done &&
			codes="$codes $code" || return 1
		done <combos.u$opt &&
		test_line_count = $(wc -l <combos.u$opt) done &&
		has_code 0 && has_code 128
	'
done

test_expect_success GIT '-u: an untracked file where B adds one' '
	INTEROP_STATE=twins &&
	for t in rg rd
	do
		echo "$Tn $Tn $T1" >$t/T &&
		start $t - 1 && echo mine >$t/p || return 1
	done &&
	fails_like_git 128 "error: Untracked working tree file '"'"'p'"'"' would be overwritten by merge." \
		read-tree -m -u $Tn $Tn $T1 &&
	test_write_lines mine >expect &&
	test_cmp expect rd/p
'

test_done
