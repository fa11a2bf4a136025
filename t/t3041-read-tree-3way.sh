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

blob () {
	echo "$1" | git hash-object -w --stdin
}

# tree_of V: keep, d/k (an untouched sub-directory) and, unless V is -,
# p holding "V"
tree_of () {
	rm -f .git/tmp-index &&
	{
		printf "100644 %s\tkeep\n" $(blob keep) &&
		printf "100644 %s\td/k\n" $(blob dk) &&
		if test "$1" != -
		then
			printf "100644 %s\tp\n" $(blob "$1")
		fi
	} >tree.info &&
	GIT_INDEX_FILE=.git/tmp-index git update-index --index-info <tree.info &&
	GIT_INDEX_FILE=.git/tmp-index git write-tree &&
	rm -f .git/tmp-index tree.info
}

# start I CLEAN: index of keep, d/k (with a valid TREE) and p as "I"
start () {
	rm -f .git/index p &&
	echo keep >keep &&
	mkdir -p d && echo dk >d/k &&
	git update-index --add keep d/k &&
	if test "$1" != -
	then
		echo "$1" >p &&
		git update-index --add p &&
		if test "$2" = 0
		then
			echo dirty >p
		fi
	fi &&
	git write-tree >/dev/null &&
	git update-index -q --refresh
	:
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
	tree_of - >T- && tree_of 1 >T1 && tree_of 2 >T2
'

for opt in "" --aggressive --trivial
do
	test_expect_success GIT "without -u${opt:+ ($opt)}: as git" '
		: >done &&
		while read -r i o a b c
		do
			O=$(cat T$o) && A=$(cat T$a) && B=$(cat T$b) &&
			start $i $c &&
			interop_run read-tree -m $opt $O $A $B &&
			same_result || {
				echo "# I=$i O=$o A=$a B=$b clean=$c $opt" &&
				return 1
			}
			cat dirc.code >>done || return 1
		done <combos$opt &&
		test_line_count = $(wc -l <combos$opt) done &&
		grep -q 0 done && grep -q 128 done
	'
done

test_expect_success GIT 'the stages: O, A and B all different' '
	O=$(tree_of 1) && A=$(tree_of 2) && B=$(tree_of 3) &&
	start 2 1 &&
	succeeds_like_git read-tree -m $O $A $B &&
	dirc ls-files -s >actual &&
	cat >expect <<-EOF &&
	100644 $(blob dk) 0	d/k
	100644 $(blob keep) 0	keep
	100644 $(blob 1) 1	p
	100644 $(blob 2) 2	p
	100644 $(blob 3) 3	p
	EOF
	test_cmp expect actual
'

test_expect_success GIT 'the TREE extension: d/ kept valid, as git' '
	O=$(tree_of 1) && A=$(tree_of 1) && B=$(tree_of 2) &&
	start 1 1 &&
	succeeds_like_git read-tree -m $O $A $B &&
	dirc ls-files -s p >actual &&
	echo "100644 $(blob 2) 0	p" >expect &&
	test_cmp expect actual &&
	test "$(git write-tree)" = "$B"
'

test_expect_success GIT 'more than one base: four and five trees' '
	: >done &&
	for t in "1 2 1 2" "1 2 2 1" "1 1 2 2" "- 1 1 2" "1 - 2 2" \
		"1 2 3 3" "1 2 - 1" "- - 1 2" "1 2 2 3" "2 1 2 1"
	do
		set -- $t &&
		start $3 1 &&
		interop_run read-tree -m $(tree_of $1) $(tree_of $2) \
			$(tree_of $3) $(tree_of $4) &&
		same_result &&
		interop_run read-tree -m --aggressive $(tree_of $1) \
			$(tree_of $2) $(tree_of $3) $(tree_of $4) &&
		same_result &&
		start $4 1 &&
		interop_run read-tree -m $(tree_of $1) $(tree_of $2) \
			$(tree_of $1) $(tree_of $4) $(tree_of $3) &&
		same_result &&
		echo "$t" >>done || return 1
	done &&
	test_line_count = 10 done
'

test_expect_success GIT 'setup: twins for -u' '
	git init -q rg &&
	git init -q rd &&
	in_both "combos >combos && tree_of - >T- && tree_of 1 >T1 &&
		tree_of 2 >T2" &&
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
		while read -r i o a b c
		do
			in_both "cat T$o T$a T$b >T && start $i $c" &&
			interop_run read-tree -m -u $opt $(cat rg/T) &&
			same_result || {
				echo "# -u I=$i O=$o A=$a B=$b clean=$c $opt" &&
				return 1
			}
			cat dirc.code >>done || return 1
		done <combos.u$opt &&
		test_line_count = $(wc -l <combos.u$opt) done &&
		grep -q 0 done && grep -q 128 done
	'
done

test_expect_success GIT '-u: an untracked file where B adds one' '
	INTEROP_STATE=twins &&
	in_both "echo \$(tree_of -) \$(tree_of -) \$(tree_of 1) >T &&
		start - 1 && echo mine >p" &&
	fails_like_git 128 "error: Untracked working tree file '"'"'p'"'"' would be overwritten by merge." \
		read-tree -m -u $(cat rg/T) &&
	test_write_lines mine >expect &&
	test_cmp expect rd/p
'

test_done
