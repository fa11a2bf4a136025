#!/bin/sh
test_description='diff-tree --stdin: git'"'"'s protocol, and a random stream

Lines of commit ids (diffed against their parents, or against the
parents given on the line), pairs of tree ids (echoed, then diffed),
lines that are not ids (copied), long lines (read in pieces of 999
bytes, as git), bad lines (errors, and the stream goes on).  Then
thousands of random and mutated lines: dirc never dies by a signal, and
where git succeeds dirc prints the same bytes.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-diff.sh

test_expect_success GIT 'setup: a history with a root, changes, a merge' '
	mkdir -p d/e &&
	echo 1 >a && echo 2 >d/b && echo 3 >d/e/c &&
	git update-index --add a d/b d/e/c &&
	t1=$(git write-tree) && c1=$(commit_tree_of $t1) &&
	echo 11 >a && echo 4 >d/new && git update-index --add a d/new &&
	t2=$(git write-tree) && c2=$(commit_tree_of $t2 $c1) &&
	echo 22 >d/e/c && git update-index d/e/c &&
	t3=$(git write-tree) && c3=$(commit_tree_of $t3 $c1) &&
	echo 33 >d/b && git update-index d/b &&
	t4=$(git write-tree) && c4=$(commit_tree_of $t4 $c2 $c3) &&
	git update-ref refs/heads/master $c4 &&
	blob=$(git rev-parse HEAD:a) &&
	printf "%s\n" $t1 $t2 $t3 $t4 $c1 $c2 $c3 $c4 $blob >ids
'

read_ids () {
	{ read t1; read t2; read t3; read t4; read c1; read c2; read c3; read c4; read blob; } <ids
}

test_expect_success GIT 'commits, fake parents, tree pairs, other lines' '
	read_ids &&
	{
		echo $c2 &&
		echo $c4 &&
		echo "$c3 $c2" &&
		echo "$c4 $c1" &&
		echo "$c3	$c1 $c2" &&
		echo $c1 &&
		echo "$t1 $t3" &&
		echo "$t1	$t4" &&
		echo "not an id" &&
		echo "" &&
		echo "$t1 $t2 junk" &&
		echo "$t1" &&
		echo "$t1 $c2" &&
		echo "$t1 $blob" &&
		echo "$blob" &&
		echo "$c2 trailing words" &&
		echo "$ZERO_OID" &&
		printf "%s" "$c2"
	} >in &&
	for args in "" "-r" "-t" "--root" "-m" "-m -r --root" "--name-only -r" \
		"-z -r" "--no-commit-id" "--always" "-s" "--quiet" "--exit-code" \
		"-R -r" "-r -Sone" "--abbrev -r" "-r -- d" "-r -- a" \
		"-r --diff-filter=A" "--diff-filter=D" "--always --diff-filter=X" \
		"-r --diff-filter=m"
	do
		diff_cmp_in in diff-tree --stdin $args || return 1
	done
'

test_expect_success GIT 'exit code: the last diff decides' '
	read_ids &&
	printf "%s\n%s\n" $c2 "$t1 $t1" >in &&
	diff_cmp_in in diff-tree --stdin --exit-code &&
	printf "%s\n%s\n" "$t1 $t1" $c2 >in &&
	diff_cmp_in in diff-tree --stdin --exit-code &&
	printf "%s\n%s\n" $c2 $c1 >in &&
	diff_cmp_in in diff-tree --stdin --exit-code &&
	echo 1 >expect && test_cmp expect dirc.code
'

test_expect_success GIT 'arguments are diffed before the lines read' '
	read_ids &&
	echo $c3 >in &&
	diff_cmp_in in diff-tree --stdin -r $c2 &&
	diff_cmp_in in diff-tree --stdin -r $t1 $t2
'

test_expect_success GIT 'long lines are read in pieces of 999 bytes' '
	read_ids &&
	long=$(printf "%01200d" 0) &&
	{
		echo "x$long" &&
		echo "$c2$long" &&
		printf "%0959d%s\n" 0 $c2 &&
		printf "%0958d\n%s\n" 0 $c3 &&
		printf "%s%0960d\n" $c2 0
	} >in &&
	diff_cmp_in in diff-tree --stdin -r
'

test_expect_success GIT 'NUL bytes in a line' '
	read_ids &&
	{
		printf "abc\000def\n" &&
		printf "%s\000x\n" $c2 &&
		printf "%s\n\000\n" $c3
	} >in &&
	diff_cmp_in in diff-tree --stdin
'

# mutate LINE SEED: LINE with one random change
test_expect_success GIT 'random and mutated lines: no signal, git'"'"'s output where git succeeds' '
	read_ids &&
	printf "%s\n" "$c1" "$c2" "$c3" "$c4" "$t1 $t2" "$t3 $t4" "$c4 $c1 $c2" \
		"$t1 $blob" "$blob" "hello" >seeds &&
	awk -v seed=13 '"'"'
		BEGIN { srand(seed); n = 0 }
		{ s[n++] = $0 }
		END {
			hex = "0123456789abcdefABCDEF";
			chars = "0123456789abcdef \t-xyz^~:/";
			for (i = 0; i < 4000; i++) {
				l = s[int(rand() * n)];
				k = int(rand() * 6);
				for (j = 0; j < k; j++) {
					op = int(rand() * 5);
					p = int(rand() * (length(l) + 1));
					c = substr(chars, int(rand() * length(chars)) + 1, 1);
					if (op == 0) l = substr(l, 1, p) c substr(l, p + 1);
					else if (op == 1) l = substr(l, 1, p) substr(l, p + 2);
					else if (op == 2) l = substr(l, 1, p) substr(hex, int(rand() * 22) + 1, 1) substr(l, p + 2);
					else if (op == 3) l = l " " s[int(rand() * n)];
					else l = substr(l, 1, p);
				}
				print l;
			}
		}'"'"' seeds >stream &&
	test_line_count = 4000 stream &&
	rounds=0 compared=0 &&
	split -l 40 stream part. &&
	for f in part.*
	do
		for args in "" "-r -m --root" "-z --name-status -t"
		do
			git diff-tree --stdin $args <$f >git.out 2>git.err
			gc=$?
			dirc diff-tree --stdin $args <$f >dirc.out 2>dirc.err
			dc=$?
			test $dc -lt 128 || test $dc = 128 || return 1
			if test $gc = 0
			then
				test $dc = 0 && test_cmp git.out dirc.out &&
				compared=$((compared + 1)) || return 1
			fi
			rounds=$((rounds + 1))
		done || return 1
	done &&
	echo "rounds $rounds compared $compared" &&
	test $rounds = 300 &&
	test $compared -ge 75
'

test_done
