#!/bin/sh
test_description='read-tree -m, two and three trees, against git on random trees and random edits

A pool of trees derived from one random base (so that they share most
paths and contents and every kind of trivial case occurs; names such as
"a", "a-b", "a.c" and "a/" sort against each other and paths change
between file and directory), a starting index and work tree from one of
them, random edits (a dirty file, a staged change, a removal from the
index, an untracked file in the way, a missing file, an untracked file
in a directory), then a random two-way or three-way read-tree -m, with
or without -u, -i, --aggressive.  Without -u git and dirc run from the
same index and work tree (lib-interop: exit code, messages, index bytes
TREE included); with -u they run in twin repositories (entries, work
tree, diff-files).  The plan comes from DIRC_RANDOM_SEED (default 1); a
failure names the round.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-checkout.sh
. "$TEST_DIRECTORY"/lib-random-tree.sh

SEED=${DIRC_RANDOM_SEED:-1}
# 40 rounds in make test (CI's time), 300 under make test-long
ROUNDS=40
if test_have_prereq LONG
then
	ROUNDS=300
fi
POOL=12

# tree_paths SEED K: "path content" lines of pool tree K (K=0: the base)
tree_paths () {
	random_tree_paths "$1" "$2" "0.6 0.75 0.85 0.93 0.5 2 0"
}

test_expect_success GIT 'setup: the pool of trees' '
	k=0 &&
	while test $k -lt $POOL
	do
		tree_paths $SEED $k >paths.$k &&
		! grep "^ " paths.$k &&
		rm -f .git/tmp-index &&
		while read -r p c
		do
			mode=100644 &&
			case $c in *1) mode=100755 ;; esac &&
			printf "%s %s\t%s\n" $mode \
				$(echo "$c" | git hash-object -w --stdin) "$p" ||
			return 1
		done <paths.$k >info.$k &&
		GIT_INDEX_FILE=.git/tmp-index git update-index --index-info <info.$k &&
		GIT_INDEX_FILE=.git/tmp-index git write-tree >tree.$k &&
		k=$((k + 1)) || return 1
	done &&
	rm -f .git/tmp-index &&
	sort -u tree.* >distinct &&
	test $(wc -l <distinct) -ge $((POOL - 2)) &&
	git init -q rg &&
	git init -q rd &&
	echo "$(pwd)/.git/objects" >rg/.git/objects/info/alternates &&
	echo "$(pwd)/.git/objects" >rd/.git/objects/info/alternates
'

# plan: per round "form opt start t1 t2 t3 edit1 edit2 edit3 seed"
plan () {
	awk -v seed="$1" -v rounds="$2" -v pool="$3" 'BEGIN {
		srand(seed);
		for (r = 0; r < rounds; r++)
			printf "%d %d %d %d %d %d %d %d %d %d\n",
				rand() < 0.35 ? 2 : 3, int(rand() * 5),
				int(rand() * pool), int(rand() * pool),
				int(rand() * pool), int(rand() * pool),
				int(rand() * 7), int(rand() * 7), int(rand() * 7),
				int(rand() * 100000);
	}'
}

# pick SEED FILE: one line of FILE
pick () {
	awk -v seed="$1" '{ l[n++] = $0 } END {
		if (n) { srand(seed); print l[int(rand() * n)] }
	}' "$2"
}

# edit KIND SEED TREE: one random change of the index or work tree
edit () {
	git ls-files >tracked &&
	p=$(pick $2 tracked) &&
	case $1 in
	1)	test -z "$p" || echo dirty >>"$p" ;;
	2)	test -z "$p" || { echo staged >>"$p" && git update-index "$p"; } ;;
	3)	test -z "$p" || git update-index --force-remove "$p" ;;
	4)	git ls-tree -r --name-only $3 >theirs &&
		q=$(pick $2 theirs) &&
		if test -n "$q" && ! grep -qx "$q" tracked
		then
			mkdir -p "$(dirname "$q")" 2>/dev/null &&
			echo untracked >"$q" 2>/dev/null
		fi ;;
	5)	test -z "$p" || rm -f "$p" ;;
	6)	test -z "$p" || case $p in
		*/*)	echo untracked >"$(dirname "$p")/u.$2" ;;
		esac ;;
	esac
	:
}

# start_round START E1 E2 E3 SEED TREE: the repository for one round
start_round () {
	rm -rf .git/index $(ls | grep -v "^tree\.\|^paths\.\|^info\.") 2>/dev/null
	git read-tree $(cat ../tree.$1) &&
	git checkout-index -f -a &&
	git update-index -q --refresh &&
	git write-tree >/dev/null &&
	edit $2 $5 $6 &&
	edit $3 $(($5 + 1)) $6 &&
	edit $4 $(($5 + 2)) $6
}

test_expect_success GIT "random two- and three-way merges against git ($ROUNDS rounds, seed $SEED)" '
	plan $SEED $ROUNDS $POOL >plan &&
	test_line_count = $ROUNDS plan &&
	: >done &&
	round=0 &&
	while read -r form opt start t1 t2 t3 e1 e2 e3 seed
	do
		case $opt in
		0)	o= ;;
		1)	o=-u ;;
		2)	o=-i ;;
		3)	o=--aggressive ;;
		4)	o="-u --aggressive" ;;
		esac &&
		if test $form = 2
		then
			trees="$(cat tree.$start) $(cat tree.$t1)"
		else
			trees="$(cat tree.$t1) $(cat tree.$start) $(cat tree.$t2)"
		fi &&
		last=$(echo $trees | awk "{ print \$NF }") &&
		case $o in
		*-u*)
			INTEROP_STATE=twins &&
			CHECKOUT_DIFF_FILES=1 &&
			in_both "start_round $start $e1 $e2 $e3 $seed $last" &&
			interop_run read-tree -m $o $trees &&
			same_result &&
			cp dirc.code code ;;
		*)
			(
				INTEROP_STATE=index &&
				cd rg &&
				start_round $start $e1 $e2 $e3 $seed $last &&
				interop_run read-tree -m $o $trees &&
				same_result &&
				cp dirc.code ../code
			) ;;
		esac || {
			echo "# round $round: form $form, $o, trees $trees, edits $e1 $e2 $e3 seed $seed" &&
			return 1
		}
		echo "$form $opt $(cat code)" >>done &&
		round=$((round + 1))
	done <plan &&
	test $round = $ROUNDS &&
	test_line_count = $ROUNDS done &&
	grep -q "^3 [03] 0" done && grep -q "^3 [03] 128" done &&
	grep -q "^2 [03] 0" done && grep -q "^3 [14] 0" done &&
	grep -q "^[23] [14] 128" done && grep -q "^2 . 0" done
'

test_done
