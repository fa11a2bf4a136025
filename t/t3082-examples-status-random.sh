#!/bin/sh
test_description='Documentation/examples/dirc-status.sh on random trees and random edits

A random tree is committed by git; each round copies it and makes random
changes (files edited, staged or not, deleted from the work tree or with
git rm, made executable, added and staged, added and then edited or
deleted, untracked files, in old and new directories).  dirc-status.sh
with git must print what git status --porcelain --untracked-files=all
prints (the sanity check, which runs while dirc lacks diff-index or
diff-files), and with dirc exactly what it prints with git, leaving the
same index.  The rounds are drawn from DIRC_RANDOM_SEED (default 1); a
failure names its round.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-examples.sh

STATUS_SH=$EXAMPLES/dirc-status.sh
SEED=${DIRC_RANDOM_SEED:-1}
ROUNDS=4
test_have_prereq LONG && ROUNDS=60

ex_say_missing DIRC_DIFF_INDEX "diff-index"
ex_say_missing DIRC_DIFF_FILES "diff-files"

# edits SEED: a shell script of random changes to the work tree and the
# index of the repository it runs in (paths from "paths", one a line)
edits () {
	awk -v seed="$1" 'BEGIN { srand(seed) }
	{
		p = $0
		r = rand()
		if (r < 0.35)
			next
		else if (r < 0.45)
			printf "echo edit >>\"%s\" &&\n", p
		else if (r < 0.55)
			printf "echo staged >>\"%s\" && git add \"%s\" &&\n", p, p
		else if (r < 0.62)
			printf "echo staged >>\"%s\" && git add \"%s\" && echo again >>\"%s\" &&\n", p, p, p
		else if (r < 0.70)
			printf "rm \"%s\" &&\n", p
		else if (r < 0.77)
			printf "git rm -q \"%s\" &&\n", p
		else if (r < 0.83)
			printf "chmod +x \"%s\" &&\n", p
		else if (r < 0.88)
			printf "git rm -q --cached \"%s\" &&\n", p
		else if (r < 0.94)
			printf "echo \"%s\" >\"%s\" &&\n", rand(), p
		else
			printf "rm \"%s\" && echo back >\"%s\" &&\n", p, p
	}
	END {
		n = int(rand() * 6)
		for (i = 0; i < n; i++) {
			d = (rand() < 0.5) ? "" : (rand() < 0.5 ? "a/" : "new" i "/")
			f = d "n" i (rand() < 0.5 ? ".c" : " x")
			if (d != "")
				printf "mkdir -p \"%s\" &&\n", d
			printf "echo %d >\"%s\" &&\n", i, f
			r = rand()
			if (r < 0.3)
				printf "git add \"%s\" &&\n", f
			else if (r < 0.45)
				printf "git add \"%s\" && echo more >>\"%s\" &&\n", f, f
			else if (r < 0.55)
				printf "git add \"%s\" && rm \"%s\" &&\n", f, f
		}
		print ":"
	}' paths
}

test_expect_success GIT 'setup: a random tree, committed' '
	git init -q base &&
	awk -v seed="$SEED" "BEGIN {
		srand(seed)
		n = split(\"a b c a-b a.c d\", name, \" \")
		for (i = 0; i < 40; i++) {
			p = name[int(rand() * n) + 1]
			depth = int(rand() * 3)
			for (j = 0; j < depth; j++)
				p = name[int(rand() * n) + 1] \"/\" p
			print p \"/f\" i
		}
	}" >paths.raw &&
	sort -u paths.raw >paths &&
	(
		cd base &&
		while read -r p
		do
			mkdir -p "$(dirname "$p")" &&
			echo "$p" >"$p" || return 1
		done <../paths &&
		git add . &&
		test_tick &&
		git commit -q -m base
	) &&
	git -C base ls-files >tracked &&
	test_cmp paths tracked
'

test_expect_success GIT "$ROUNDS rounds of random edits: git status, and git against git (sanity)" '
	rounds=0 &&
	for i in $(test_seq $ROUNDS)
	do
		rm -rf "r$i" &&
		cp -R base "r$i" &&
		edits $((SEED * 1000 + i)) >edits.sh &&
		(cd "r$i" && . ../edits.sh) &&
		rm -rf porcelain mine &&
		cp -R "r$i" porcelain &&
		cp -R "r$i" mine &&
		git -C porcelain -c status.renames=false status --porcelain \
			--untracked-files=all >expect.status &&
		(cd mine && DIRC=git "$STATUS_SH") >actual.status &&
		test_cmp expect.status actual.status &&
		ex_both git "r$i" "$STATUS_SH" &&
		ex_same || { echo "round $i failed (seed $SEED)"; return 1; }
		rounds=$((rounds + 1))
	done &&
	test "$rounds" = "$ROUNDS"
'

test_expect_success GIT,DIRC_DIFF_INDEX,DIRC_DIFF_FILES "$ROUNDS rounds of random edits: dirc like git" '
	rounds=0 &&
	for i in $(test_seq $ROUNDS)
	do
		ex_both dirc "r$i" "$STATUS_SH" &&
		ex_same || { echo "round $i failed (seed $SEED)"; return 1; }
		rounds=$((rounds + 1))
	done &&
	test "$rounds" = "$ROUNDS"
'

test_done
