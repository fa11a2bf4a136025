#!/bin/sh
test_description='filter.<d>.process: a filter answering random and mutated packets

Our filter (dirc test-tool filter-fuzz SEED, quick to start) answers
its first request with packets made from the seed: flushes, status
lines, content, lengths out of range, bytes that are no header, and
sometimes a correct start then junk; then it closes its output (a
packet cut short with the filter still writing would leave git waiting
for its end forever too) and reads its input to the end, so that it is
restarted for the next file.  dirc never dies of a signal, and on
the first seeds says and does exactly what git says and does on the
same answers (but for "died of signal 15" when a filter is stopped:
whether it has exited by itself by then is a race, in git too).
100 seeds (1,000 under LONG), counted; the first 30 compared with
git.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-filter.sh

ROUNDS=100
test_have_prereq LONG && ROUNDS=1000
SAME=30

test_expect_success 'setup' '
	git init -q . &&
	echo "* filter=f" >.gitattributes &&
	printf "Hello World\nabc\n" >a &&
	printf "txt\n" >b &&
	awk "BEGIN { for (i = 0; i < 5000; i++) print i }" >c &&
	git config filter.f.process "exec dirc test-tool filter-fuzz \"\$FUZZ_SEED\""
'

test_expect_success "$ROUNDS seeds: no signal, first $SAME as git" '
	ran=0 ok=0 failed=0 &&
	for seed in $(test_seq 1 $ROUNDS)
	do
		FUZZ_SEED=$seed dirc test-tool filter clean f a b c 2>dirc.err
		code=$?
		if test $code -gt 128
		then
			echo "seed $seed: dirc exited $code" &&
			cat dirc.err &&
			return 1
		fi &&
		case $code in
		0) ok=$((ok + 1)) ;;
		*) failed=$((failed + 1)) ;;
		esac &&
		if test $seed -le $SAME && test_have_prereq GIT
		then
			oids=$(FUZZ_SEED=$seed git hash-object -w a b c 2>git.err)
			test $? = $code &&
			grep -v "died of signal 15\$" git.err >git.err2
			grep -v "died of signal 15\$" dirc.err >dirc.err2
			test_cmp git.err2 dirc.err2 &&
			if test $code = 0
			then
				set -- $oids &&
				for f in a b c
				do
					git cat-file blob $1 >expect &&
					test_cmp expect $f.out &&
					shift || return 1
				done
			fi || {
				echo "seed $seed differs from git" &&
				return 1
			}
		fi &&
		ran=$((ran + 1)) || return 1
	done &&
	echo "rounds $ran, succeeded $ok, failed $failed" &&
	test $ran = $ROUNDS &&
	test $ok -gt 0 &&
	test $failed -gt 0
'

test_done
