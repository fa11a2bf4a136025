#!/bin/sh
test_description='read-tree against git on random trees: overlays and binds

A pool of random trees (names chosen so that "a", "a-b", "a.c" and "a/"
sort against each other, some sub-trees empty), a random starting index
(read by git, changed by a random update-index, its TREE written or
not), then a random plain read of two or three trees or a --prefix bind
of one.  lib-interop runs git and dirc from the same index: exit code,
output, messages and the index bytes (the TREE extension included) must
be equal.  The plan is drawn from DIRC_RANDOM_SEED (default 1); a
failure names the round.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh

SEED=${DIRC_RANDOM_SEED:-1}
ROUNDS=60
POOL=10

# paths SEED: a random set of paths, depth up to 3
paths () {
	awk -v seed="$1" 'BEGIN {
		srand(seed);
		n = split("a b c d a-b a.c", name, " ");
		walk("", 0);
	}
	function walk(base, depth,    i, r, got) {
		got = 0;
		for (i = 1; i <= n; i++) {
			r = rand();
			if (r < 0.25) {
				print base name[i];
				got = 1;
			} else if (r < 0.45 && depth < 3) {
				got += walk(base name[i] "/", depth + 1);
			}
		}
		if (!got) {
			print base "z";
			got = 1;
		}
		return got;
	}'
}

test_expect_success GIT 'setup: a pool of random trees, two with an empty sub-tree' '
	n=0 &&
	while test $n -lt $POOL
	do
		rm -f .git/index &&
		paths $((SEED * 100 + n)) >paths.$n &&
		while read -r p
		do
			echo "100644 $(echo "$p $n" | git hash-object -w --stdin)	$p" ||
			return 1
		done <paths.$n >info &&
		git update-index --index-info <info &&
		git write-tree >tree.$n &&
		n=$((n + 1)) || return 1
	done &&
	empty=$(git hash-object -t tree -w /dev/null) &&
	for k in 0 1
	do
		t=$(cat tree.$k) &&
		{
			git ls-tree $t &&
			printf "040000 tree %s\tzz\n" $empty
		} | git mktree >tree.$n &&
		n=$((n + 1)) || return 1
	done &&
	test $n = $((POOL + 2)) &&
	ls tree.* >trees &&
	test_line_count = $((POOL + 2)) trees &&
	rm -f .git/index
'

# plan SEED ROUNDS: per round "start mutation writetree form t1 t2 t3 prefix"
plan () {
	awk -v seed="$1" -v rounds="$2" -v pool="$3" 'BEGIN {
		srand(seed);
		split("a/ b/ q/ a/b/ d/a/ a-b/ c/d/e/ -", pre, " ");
		for (r = 0; r < rounds; r++) {
			printf "%d %d %d %d %d %d %d %s\n",
				int(rand() * pool), int(rand() * 4),
				rand() < 0.3, int(rand() * 3),
				int(rand() * pool), int(rand() * pool),
				int(rand() * pool), pre[1 + int(rand() * 8)];
		}
	}'
}

test_expect_success GIT "random overlays and binds against git ($ROUNDS rounds, seed $SEED)" '
	plan $SEED $ROUNDS $((POOL + 2)) >plan &&
	test_line_count = $ROUNDS plan &&
	missing=$(test_oid_fake 1) &&
	: >done &&
	round=0 &&
	while read -r start mut wt form t1 t2 t3 pre
	do
		git read-tree $(cat tree.$start) &&
		case $mut in
		1)	git update-index --force-remove "$(head -n 1 paths.$((start % POOL)))" ;;
		2)	git update-index --add --cacheinfo \
				100644,$(echo x | git hash-object -w --stdin),b/x 2>/dev/null || : ;;
		3)	git update-index --add --cacheinfo \
				100644,$missing,a/m 2>/dev/null || : ;;
		esac &&
		if test $wt = 1
		then
			git write-tree >/dev/null 2>&1 || :
		fi &&
		test "$pre" != - || pre= &&
		case $form in
		0)	set -- $(cat tree.$t1) $(cat tree.$t2) ;;
		1)	set -- $(cat tree.$t1) $(cat tree.$t2) $(cat tree.$t3) ;;
		2)	set -- --prefix=$pre $(cat tree.$t1) ;;
		esac &&
		interop_run read-tree "$@" &&
		same_result || {
			echo "# round $round: $*, seed $SEED" &&
			return 1
		}
		echo "$form $(cat dirc.code)" >>done &&
		round=$((round + 1))
	done <plan &&
	test $round = $ROUNDS &&
	test_line_count = $ROUNDS done &&
	grep -q "^2 0" done &&
	grep -q "^2 128" done &&
	grep -q "^[01] 0" done
'

test_done
