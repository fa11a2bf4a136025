#!/bin/sh
test_description='Documentation/examples/dirc-merge.sh on random branches

A random tree is committed by git; each round makes two branches from it
with random changes (lines edited, sometimes the same line on both
sides, files deleted, made executable, added, sometimes the same name on
both sides) and merges one into the other with dirc-merge.sh: with our
merge program, and with --aggressive and git'"'"'s git-merge-one-file,
which is what git merge -s resolve does.  With git on both sides (the
sanity check, which runs while dirc lacks read-tree merges or
merge-index) the second must leave exactly the index and the work tree
git merge -s resolve leaves, and the same exit code; with dirc, each
must do exactly what it does with git (lib-examples.sh).  The rounds are
drawn from DIRC_RANDOM_SEED (default 1); a failure names its round.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-examples.sh

MERGE_SH=$EXAMPLES/dirc-merge.sh
SEED=${DIRC_RANDOM_SEED:-1}
ROUNDS=3
test_have_prereq LONG && ROUNDS=40

ex_say_missing DIRC_READ_TREE_3WAY "read-tree -m with three trees"
ex_say_missing DIRC_MERGE_INDEX "merge-index"
ex_say_missing DIRC_DIFF_INDEX "diff-index"

# side SEED WHO: a shell script of random changes for one branch; the
# seed of each file is shared by both sides, so that they sometimes
# pick the same file and the same line
side () {
	awk -v seed="$1" -v who="$2" '
	BEGIN { srand(seed) }
	{
		p = $0
		# both sides draw the same numbers for a file; each then
		# takes its own half of them
		a = rand(); b = rand(); la = int(rand() * 8) + 1
		lb = int(rand() * 8) + 1
		r = (who == "ours") ? a : b
		l = (who == "ours") ? la : lb
		if (r < 0.4)
			next
		else if (r < 0.75)
			printf "edit \"%s\" %d \"%s %d\" &&\n", p, l, who, l
		else if (r < 0.85)
			printf "git rm -q \"%s\" &&\n", p
		else if (r < 0.92)
			printf "chmod +x \"%s\" &&\n", p
		else
			printf "edit \"%s\" %d \"%s %d\" && chmod +x \"%s\" &&\n", p, l, who, l, p
	}
	END {
		n = int(rand() * 3)
		for (i = 0; i < n; i++) {
			f = "new" i ".txt"
			if (rand() < 0.5)
				printf "echo same >\"%s\" &&\n", f
			else if (rand() < 0.5)
				printf "echo %s >\"%s\" &&\n", who, f
		}
		print ":"
	}' paths
}

# edit FILE N TEXT: line N of FILE becomes TEXT (in the shell: no
# process)
edit () {
	edit_n=0 &&
	edit_text= &&
	while IFS= read -r edit_line
	do
		edit_n=$((edit_n + 1)) &&
		if test "$edit_n" = "$2"
		then
			edit_line=$3
		fi &&
		edit_text="$edit_text$edit_line
" || return 1
	done <"$1" &&
	printf "%s" "$edit_text" >"$1"
}

test_expect_success GIT 'setup: a random tree, committed' '
	git init -q base &&
	awk -v seed="$SEED" "BEGIN {
		srand(seed)
		n = split(\"a b c d\", name, \" \")
		for (i = 0; i < 12; i++) {
			p = \"f\" i
			depth = int(rand() * 3)
			for (j = 0; j < depth; j++)
				p = name[int(rand() * n) + 1] \"/\" p
			print p
		}
	}" >paths.raw &&
	sort -u paths.raw >paths &&
	(
		cd base &&
		while read -r p
		do
			mkdir -p "$(dirname "$p")" &&
			for k in 1 2 3 4 5 6 7 8
			do
				echo "$p line $k" || return 1
			done >"$p" || return 1
		done <../paths &&
		git add . &&
		test_tick &&
		git commit -q -m base
	)
'

test_expect_success GIT "setup: $ROUNDS pairs of random branches" '
	for i in $(test_seq $ROUNDS)
	do
		rm -rf "r$i" &&
		cp -R base "r$i" &&
		side $((SEED * 1000 + i)) ours >ours.sh &&
		side $((SEED * 1000 + i)) theirs >theirs.sh &&
		(
			cd "r$i" &&
			git checkout -q -b theirs &&
			. ../theirs.sh &&
			git add -A &&
			test_tick &&
			git commit -q --allow-empty -m theirs &&
			git checkout -q master &&
			. ../ours.sh &&
			git add -A &&
			test_tick &&
			git commit -q --allow-empty -m ours &&
			git update-index -q --refresh
		) || { echo "round $i: setup failed"; return 1; }
	done
'

# resolve_like_git ROUND: ex-dirc is what git merge -s resolve leaves
resolve_like_git () {
	rm -rf porcelain &&
	cp -R "r$1" porcelain &&
	{
		git -C porcelain merge -q -s resolve -m merged theirs \
			>/dev/null 2>&1
		echo $? >porcelain.code
	} &&
	ex_fix_labels porcelain &&
	read -r porcelain_code <porcelain.code &&
	if test "$porcelain_code" = 0
	then
		echo 0 >expect.code &&
		git -C porcelain rev-parse HEAD^{tree} >expect.tree &&
		git -C ex-dirc rev-parse HEAD^{tree} >actual.tree &&
		test_cmp expect.tree actual.tree
	else
		echo 1 >expect.code
	fi &&
	test_cmp_codes expect.code dirc.code &&
	git -C porcelain ls-files -s >expect.stages &&
	git -C ex-dirc ls-files -s >actual.stages &&
	test_cmp expect.stages actual.stages &&
	snapshot porcelain >expect.wt &&
	snapshot ex-dirc >actual.wt &&
	test_cmp expect.wt actual.wt
}

# merge CMD ROUND KEEP FIX ARGS...: dirc-merge.sh ARGS in copies of
# rROUND with git and with CMD, compared (ex_both, ex_same; with FIX=fix,
# ex_fix_labels first).  git does the same each time (the sanity test,
# CMD=git, shows it): there, git's side is kept in the directory KEEP
# once it matched; with dirc, a kept git side is compared with instead
# of running git again.
merge () {
	mg_cmd=$1 mg_round=$2 mg_keep=$3 mg_fix=$4
	shift 4
	if test "$mg_cmd" != git && test -d "$mg_keep"
	then
		ex_dirc_side "$mg_cmd" "r$mg_round" "$MERGE_SH" "$@" &&
		if test "$mg_fix" = fix
		then
			ex_fix_labels ex-dirc
		fi &&
		ex_same_as_kept "$mg_keep"
	else
		ex_both "$mg_cmd" "r$mg_round" "$MERGE_SH" "$@" &&
		if test "$mg_fix" = fix
		then
			ex_fix_labels ex-git ex-dirc
		fi &&
		ex_same &&
		if test "$mg_cmd" = git
		then
			mkdir "$mg_keep" &&
			mv git.code git.out git.err git.state "$mg_keep"
		fi
	fi
}

# rounds CMD: every round, with our merge program and with
# git-merge-one-file, CMD against git; with git, also against git merge
rounds () {
	rounds=0 &&
	for i in $(test_seq $ROUNDS)
	do
		merge "$1" "$i" "kept$i.ours" - theirs &&
		merge "$1" "$i" "kept$i.git-merge-one-file" fix --aggressive \
			--program=git-merge-one-file theirs &&
		if test "$1" = git
		then
			resolve_like_git "$i"
		fi || { echo "round $i failed (seed $SEED)"; return 1; }
		rounds=$((rounds + 1))
	done &&
	test "$rounds" = "$ROUNDS"
}

test_expect_success GIT,DIFF3 "$ROUNDS random merges: git and git alike, git merge -s resolve alike (sanity)" '
	rounds git
'

test_expect_success GIT,DIFF3,DIRC_DIFF_INDEX,DIRC_READ_TREE_3WAY,DIRC_MERGE_INDEX "$ROUNDS random merges: dirc like git" '
	rounds dirc
'

test_done
