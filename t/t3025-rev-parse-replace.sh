#!/bin/sh
test_description='rev-parse and cat-file: names whose replace refs loop

refs/replace/<A> -> B and refs/replace/<B> -> A: git dies with "replace
depth too high for object <A>" (128) wherever it reads A, also under -q,
and so must dirc, not call the name ambiguous or missing.  The names go
through every operator (parents, ancestors, peeling, ^{/re}, :/re,
<rev>:<path>, ^@, ^!, ^-, ranges), on the looping commit itself and on
a commit whose parent loops; cat-file -t/-s/-p/-e, --batch-check and
--batch; GIT_NO_REPLACE_OBJECTS turns the loop off.  Compared with git:
exit code, stdout, stderr.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-rev-parse.sh
. "$TEST_DIRECTORY"/lib-interop.sh

test_expect_success GIT 'setup: three commits, the first two replace each other' '
	echo a >f &&
	git add f &&
	test_tick &&
	git commit -q -m first &&
	git tag -a -m t1 tag1 &&
	echo b >f &&
	test_tick &&
	git commit -q -a -m second &&
	git branch second &&
	echo c >f &&
	test_tick &&
	git commit -q -a -m third &&
	A=$(git rev-parse second) &&
	B=$(git rev-parse second~1) &&
	C=$(git rev-parse HEAD) &&
	git update-ref refs/replace/$A $B &&
	git update-ref refs/replace/$B $A &&
	echo $A >A && echo $B >B && echo $C >C
'

test_expect_success GIT 'git says "replace depth too high" for the looping commit' '
	rp_both second^{tree} &&
	test_grep "^fatal: replace depth too high for object $(cat A)$" git.err
'

test_expect_success GIT 'every operator on the looping commit and on its child, as git' '
	A=$(cat A) &&
	n=0 &&
	for base in second $A tag1 HEAD $(cat C) master
	do
		for op in "" "^{tree}" "^{commit}" "^{}" "^{object}" "^0" "^" \
			"^2" "~1" "~2" "^{/first}" ":f" "^@" "^!" "^-" "^-1" \
			"@{0}" "..HEAD" "...HEAD"
		do
			rp_like_git "$base$op" || return 1
			n=$((n + 1))
		done
	done &&
	test $n = 114
'

test_expect_success GIT 'the loop reached by a search: :/re and ^{/re}' '
	rp_each_like_git ":/first" ":/third" ":/nomatch" "HEAD^{/first}" \
		"HEAD^{/third}" ":/!-third"
'

test_expect_success GIT 'under -q --verify and --verify: git still dies, 128' '
	for name in second^{tree} HEAD~2 second^@ $(cat A)~1
	do
		rp_like_git -q --verify "$name" &&
		rp_code 128 &&
		rp_like_git --verify "$name" &&
		rp_code 128 || return 1
	done &&
	# the parent id of HEAD is read from HEAD: no loop met
	rp_like_git -q --verify HEAD~1 &&
	rp_code 0
'

test_expect_success GIT 'an abbreviated id of the looping commit' '
	rp_each_like_git $(cut -c1-7 A) $(cut -c1-7 A)^{tree} $(cut -c1-7 A)~1
'

test_expect_success GIT 'GIT_NO_REPLACE_OBJECTS: no loop, the names resolve' '
	(
		GIT_NO_REPLACE_OBJECTS=1 &&
		export GIT_NO_REPLACE_OBJECTS &&
		rp_each_like_git second^{tree} HEAD~2 second^@ :/first &&
		rp_code 0
	)
'

test_expect_success GIT 'cat-file of the looping commit: as git' '
	A=$(cat A) &&
	for args in "-t second" "-s $A" "-p second" "-e second" \
		"commit second" "-p second^{tree}" "-t HEAD~1" "-p HEAD:f"
	do
		INTEROP_STATE=none compare_with_git cat-file $args || return 1
	done
'

test_expect_success GIT 'cat-file --batch-check and --batch: as git' '
	printf "%s\n" HEAD second second^{tree} HEAD~1 HEAD:f tag1 >names &&
	INTEROP_STATE=none compare_with_git -i names cat-file --batch-check &&
	INTEROP_STATE=none compare_with_git -i names cat-file --batch
'

test_done
