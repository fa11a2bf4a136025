#!/bin/sh
test_description='diff-tree, diff-index, diff-files on random trees and random edits, against git

Each round builds a random tree (files, executables, symbolic links,
nested directories, names that sort around "/"), commits it, makes
random edits (content, mode, deletions, additions, a file become a
directory or a symbolic link and back), stages some of them, commits
again, edits the work tree once more, then compares dirc with git byte
for byte: diff-tree (-r, -t, none), diff-index (--cached and not) and
diff-files, with and without a random pathspec.  The script asserts how
many rounds and comparisons it ran.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-diff.sh

ROUNDS=4
test_have_prereq LONG && ROUNDS=40

# gen SEED: shell commands making random edits in the current directory
gen () {
	awk -v seed="$1" '
	function pick(s, n) { return substr(s, int(rand() * n) + 1, 1) }
	function name(  k) {
		k = int(rand() * 8);
		if (k == 0) return "a";
		if (k == 1) return "a.b";
		if (k == 2) return "a-b";
		if (k == 3) return "a0";
		if (k == 4) return "b";
		if (k == 5) return "c";
		if (k == 6) return "sp ace";
		return "z" pick("xyz", 3);
	}
	function path(  d, p, i) {
		d = int(rand() * 3); p = "";
		for (i = 0; i < d; i++) p = p name() "/";
		return p name();
	}
	BEGIN {
		srand(seed);
		n = 6 + int(rand() * 14);
		for (i = 0; i < n; i++) {
			p = path(); op = int(rand() * 10);
			q = "\047" p "\047";
			printf "rm -rf %s 2>/dev/null; ", q;
			printf "mkdir -p \"$(dirname %s)\" 2>/dev/null && ", q;
			if (op < 6) printf "echo %d >%s", int(rand() * 4), q;
			else if (op == 6) printf "echo x%d >%s && chmod +x %s", int(rand() * 3), q, q;
			else if (op == 7) printf "ln -s target%d %s", int(rand() * 2), q;
			else if (op == 8) printf "mkdir -p %s && echo in >%s/in", q, q;
			else printf ":";
			printf " || :\n";
		}
	}'
}

test_expect_success GIT,SYMLINKS 'random rounds' '
	rounds=0 compared=0 nonempty=0 seed=1 &&
	while test $rounds -lt $ROUNDS
	do
		rm -rf w && mkdir w &&
		(
			cd w &&
			git init -q &&
			gen $seed >edits1 && sh edits1 &&
			git add -A . 2>/dev/null && A=$(git write-tree) &&
			gen $((seed + 1000)) >edits2 && sh edits2 &&
			git add -A . 2>/dev/null && B=$(git write-tree) &&
			git read-tree $A &&
			{ git update-index --refresh >/dev/null 2>&1 || :; } &&
			{ git add -A -- a 2>/dev/null || :; } &&
			gen $((seed + 2000)) >edits3 && sh edits3 &&
			echo $A >../A && echo $B >../B
		) || return 1 &&
		A=$(cat A) B=$(cat B) &&
		for ps in "" "a" "a.b" "*b" ":!a"
		do
			for cmd in "diff-tree -r $A $B" "diff-tree $A $B" \
				"diff-tree -r -t $B $A" "diff-tree -r -z --name-status $A $B" \
				"diff-index --cached $A" "diff-index $A" "diff-index -m $B" \
				"diff-files" "diff-files -q --name-status" "diff-index --cached -R $B"
			do
				diff_cmp -C w $cmd -- $ps || return 1
				compared=$((compared + 1)) &&
				if test -s git.out
				then
					nonempty=$((nonempty + 1))
				fi
			done || return 1
		done &&
		rounds=$((rounds + 1)) && seed=$((seed + 1)) || return 1
	done &&
	echo "rounds $rounds, comparisons $compared ($nonempty with output)" &&
	test $rounds = $ROUNDS &&
	test $compared = $((ROUNDS * 50)) &&
	test $nonempty -ge $((ROUNDS * 20))
'

test_done
