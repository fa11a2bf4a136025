#!/bin/sh
test_description='concurrency: dirc processes racing on one repository lose nothing

Two update-cache runs started together either both succeed, one after
the other, or one fails with the lock message; either way every update
of a run that succeeded is in the index and the index is whole.  Many
hash-object -w runs of the same and of different content at once leave
only sound objects.  Racing update-ref runs leave the ref at one of the
values, with one reflog line per run that succeeded.'
. ./test-lib.sh

ROUNDS=20

# outcome NAME: classify a finished run from NAME.code and NAME.err:
# "ok", "locked" (exit 128 and git's lock message), or fail.
outcome () {
	case $(cat "$1.code") in
	0)
		echo ok ;;
	128)
		if grep -q "index.lock': File exists" "$1.err" &&
		   grep -q -e "remove the file manually" -e "or the lock file may be stale" "$1.err"
		then
			echo locked
		else
			echo "$1: exit 128 but not the lock message:" >&2
			cat "$1.err" >&2
			return 1
		fi ;;
	*)
		echo "$1: exit $(cat "$1.code")" >&2
		cat "$1.err" >&2
		return 1 ;;
	esac
}

test_expect_success 'two update-cache --add at once, again and again' '
	: >expect.unsorted &&
	: >outcomes &&
	r=1 &&
	while test $r -le $ROUNDS
	do
		mkdir -p "a$r" "b$r" &&
		for i in $(test_seq 60)
		do
			echo "a $r $i" >"a$r/f$i" &&
			echo "b $r $i" >"b$r/f$i" || return 1
		done &&
		{
			{ dirc update-cache --add "a$r"/*; echo $? >p1.code; } \
				2>p1.err &
			{ dirc update-cache --add "b$r"/*; echo $? >p2.code; } \
				2>p2.err &
			wait
		} &&
		o1=$(outcome p1) &&
		o2=$(outcome p2) &&
		echo "$o1 $o2" >>outcomes &&
		if test "$o1" = ok
		then
			ls "a$r"/* >>expect.unsorted
		fi &&
		if test "$o2" = ok
		then
			ls "b$r"/* >>expect.unsorted
		fi &&
		git ls-files >actual.unsorted &&
		sort expect.unsorted >expect &&
		sort actual.unsorted >actual &&
		test_cmp expect actual &&
		dirc ls-files -s >dirc.ls &&
		git ls-files -s >git.ls &&
		test_cmp git.ls dirc.ls &&
		r=$((r + 1)) || return 1
	done &&
	test_line_count = $ROUNDS outcomes &&
	sort outcomes | uniq -c | sed "s/^/# /" &&
	grep -q ok outcomes &&
	! grep -q "locked locked" outcomes
'

test_expect_success 'update-cache --refresh racing update-cache --add' '
	mkdir base &&
	for i in $(test_seq 100)
	do
		echo "base $i" >"base/f$i" || return 1
	done &&
	dirc update-cache --add base/* &&
	: >outcomes &&
	r=1 &&
	while test $r -le $ROUNDS
	do
		mkdir -p "c$r" &&
		for i in $(test_seq 20)
		do
			echo "c $r $i" >"c$r/f$i" || return 1
		done &&
		touch base/* &&
		{
			{ dirc update-cache --refresh; echo $? >p1.code; } \
				>/dev/null 2>p1.err &
			{ dirc update-cache --add "c$r"/*; echo $? >p2.code; } \
				2>p2.err &
			wait
		} &&
		o1=$(outcome p1) &&
		o2=$(outcome p2) &&
		echo "$o1 $o2" >>outcomes &&
		if test "$o2" = ok
		then
			for f in "c$r"/*
			do
				git ls-files --error-unmatch "$f" >/dev/null ||
				return 1
			done
		fi &&
		git ls-files base >actual &&
		test_line_count = 100 actual &&
		r=$((r + 1)) || return 1
	done &&
	test_line_count = $ROUNDS outcomes &&
	sort outcomes | uniq -c | sed "s/^/# /" &&
	dirc update-cache --refresh &&
	git diff-files --quiet -- base
'

test_expect_success 'eight hash-object -w at once, same and different content' '
	mkdir same &&
	for i in $(test_seq 200)
	do
		echo "shared $i" >"same/s$i" || return 1
	done &&
	for p in 1 2 3 4 5 6 7 8
	do
		mkdir "own$p" &&
		for i in $(test_seq 40)
		do
			echo "own $p $i" >"own$p/o$i" || return 1
		done || return 1
	done &&
	for p in 1 2 3 4 5 6 7 8
	do
		{
			{ ls same/* "own$p"/*; } |
			dirc hash-object -w --stdin-paths >"h$p.out" 2>"h$p.err"
			echo $? >"h$p.code"
		} &
	done &&
	wait &&
	ls h*.code >runs &&
	test_line_count = 8 runs &&
	for p in 1 2 3 4 5 6 7 8
	do
		echo 0 >expect &&
		test_cmp expect "h$p.code" &&
		test_must_be_empty "h$p.err" &&
		{ ls same/* "own$p"/*; } | git hash-object --stdin-paths >expect &&
		test_cmp expect "h$p.out" &&
		git cat-file --batch-check <"h$p.out" >types &&
		! grep -v " blob " types || return 1
	done &&
	find .git/objects -name "tmp_*" >leftovers &&
	test_must_be_empty leftovers &&
	git fsck --strict --no-dangling --no-progress
'

test_expect_success 'racing update-ref: one value wins, one reflog line per success' '
	echo x >x &&
	dirc update-cache --add x &&
	tree=$(dirc write-tree) &&
	: >commits &&
	for i in $(test_seq 10)
	do
		echo "c$i" | dirc commit-tree "$tree" >>commits || return 1
	done &&
	# start from a commit nobody races for: setting a ref to the value
	# it has is a no-op that succeeds without a reflog line (as in git)
	start=$(echo start | dirc commit-tree "$tree") &&
	git update-ref refs/heads/race $start &&
	git reflog expire --expire=all refs/heads/race &&
	n=0 &&
	for c in $(cat commits)
	do
		n=$((n + 1))
		{
			dirc update-ref -m "race $n" refs/heads/race "$c" \
				2>"u$n.err"
			echo $? >"u$n.code"
		} &
	done &&
	wait &&
	test $n = 10 &&
	ok=0 &&
	for n in $(test_seq 10)
	do
		case $(cat "u$n.code") in
		0)
			ok=$((ok + 1)) ;;
		128)
			test_grep "cannot lock ref .refs/heads/race." "u$n.err" ;;
		*)
			cat "u$n.err" &&
			false ;;
		esac || return 1
	done &&
	echo "# $ok of 10 succeeded" &&
	git rev-parse refs/heads/race >final &&
	grep -F -x -f final commits &&
	test_line_count = "$ok" .git/logs/refs/heads/race &&
	find .git -name "*.lock" >locks &&
	test_must_be_empty locks &&
	git fsck --strict --no-dangling --no-progress
'

test_expect_success 'thirty-two threads making the fan-out directories at once' '
	mkdir many &&
	for i in $(test_seq 1500)
	do
		echo "many $i" >many/f$i || return 1
	done &&
	: >rounds &&
	for r in $(test_seq 8)
	do
		echo $r >>rounds &&
		rm -rf fresh &&
		git init -q fresh &&
		(
			cd fresh &&
			cp -R ../many . &&
			find many -type f | dirc update-cache --threads=32 --add --stdin
		) || return 1
	done &&
	test_line_count = 8 rounds &&
	git -C fresh ls-files >ls &&
	test_line_count = 1500 ls &&
	git -C fresh fsck --strict --no-dangling --no-progress
'

test_done
