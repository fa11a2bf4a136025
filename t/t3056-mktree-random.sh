#!/bin/sh
test_description='mktree against git on random and mutated input

Rounds of a few lines each: good lines (blobs, trees, commits, gitlinks,
missing objects, names that sort against each other or need quoting)
and lines mutated by a random byte changed, deleted, doubled or
inserted, fields swapped or cut.  Each input goes to git and to dirc
with random options (-z, --missing, --batch with blank lines between
groups): exit code, the ids printed and the message must be the same,
and dirc must never die by a signal.  Everything happens in a second
repository ("odd": git writes trees fsck complains about when asked).
The plan comes from DIRC_RANDOM_SEED (default 1); a failure names its
round.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh
. "$TEST_DIRECTORY"/lib-trees.sh

SEED=${DIRC_RANDOM_SEED:-1}
# 150 rounds in make test (CI's time), 1000 under make test-long
ROUNDS=150
if test_have_prereq LONG
then
	ROUNDS=1000
fi

test_expect_success GIT 'setup: objects of every kind' '
	git init -q odd &&
	(
		cd odd &&
		echo one >one &&
		mkdir d &&
		echo two >d/two &&
		git add . &&
		git commit -q -m one &&
		{
			echo "100644 blob $(git rev-parse HEAD:one)" &&
			echo "100755 blob $(git rev-parse HEAD:d/two)" &&
			echo "120000 blob $(git rev-parse HEAD:one)" &&
			echo "040000 tree $(git rev-parse HEAD:d)" &&
			echo "160000 commit $(git rev-parse HEAD)" &&
			echo "160000 commit $(test_oid_fake 1234567890)" &&
			echo "100644 blob $(test_oid_fake 1234567890)" &&
			echo "040000 tree $(git rev-parse HEAD)" &&
			echo "100644 blob $(git rev-parse HEAD:d)"
		} >../objects
	) &&
	test_line_count = 9 objects
'

# plan SEED ROUNDS: per round, a line "@ <options>" then its input lines
# ("" for a blank one), the mutation done in awk
plan () {
	awk -v seed="$1" -v rounds="$2" '
	{ obj[NR] = $0 }
	function mutate(s,    k, i, c, f) {
		k = rand();
		i = 1 + int(rand() * (length(s) + 1));
		c = substr("0123456789abcdef \t\"\\/-+xz", 1 + int(rand() * 26), 1);
		if (k < 0.25)
			return substr(s, 1, i - 1) c substr(s, i + 1);
		if (k < 0.45)
			return substr(s, 1, i - 1) substr(s, i + 1);
		if (k < 0.6)
			return substr(s, 1, i) substr(s, i);
		if (k < 0.8)
			return substr(s, 1, i - 1) c substr(s, i);
		if (k < 0.9)
			return substr(s, 1, i - 1);
		# swap the first two fields
		split(s, f, " ");
		return f[2] " " f[1] substr(s, length(f[1]) + length(f[2]) + 2);
	}
	END {
		srand(seed);
		nn = split("a b a-b a.c a0 ab \"q\\tx\" \"a\" \"\\303\\251\" a\"b", names, " ");
		names[++nn] = "sp ace";
		for (r = 1; r <= rounds; r++) {
			o = "";
			if (rand() < 0.3) o = o " --missing";
			if (rand() < 0.4) o = o " --batch";
			if (rand() < 0.25) o = o " -z";
			print "@" o;
			nl = int(rand() * 6);
			for (l = 0; l < nl; l++) {
				if (rand() < 0.1) {
					print "";
					continue;
				}
				line = obj[1 + int(rand() * NR)] "\t" names[1 + int(rand() * nn)];
				if (rand() < 0.35)
					line = mutate(line);
				if (rand() < 0.1)
					line = mutate(line);
				print line;
			}
		}
	}' objects
}

test_expect_success GIT 'random rounds: the same ids and messages as git, no signal' '
	plan $SEED $ROUNDS >plan &&
	grep -c "^@" plan >count &&
	echo $ROUNDS >expect &&
	test_cmp expect count &&
	(
		cd odd &&
		round=0 &&
		good=0 &&
		bad=0 &&
		died=0 &&
		opts=START &&
		{ cat ../plan && echo "@ END"; } >../plan.end &&
		while IFS= read -r line
		do
			case "$line" in
			@*)
				if test "$opts" != START
				then
					round=$((round + 1)) &&
					case "$opts" in
					*-z*) tr "\n" "\0" <../in >../in.z && mv ../in.z ../in ;;
					esac &&
					(
						cd .. &&
						trees_like_git -C odd -i in mktree $opts
					) || {
						echo "round $round failed: mktree $opts" &&
						cat ../in &&
						exit 1
					}
					read code <../dirc.code &&
					case $code in
					0) good=$((good + 1)) ;;
					128) bad=$((bad + 1)) ;;
					*) died=$((died + 1)) ;;
					esac
				fi &&
				opts=${line#@} &&
				: >../in ;;
			*)
				printf "%s\n" "$line" >>../in ;;
			esac || exit 1
		done <../plan.end &&
		echo "$round $died $good $bad" >../rounds
	) &&
	read round died good bad <rounds &&
	test $round = $ROUNDS &&
	test $died = 0 &&
	# both outcomes, often (a fifth of the rounds each at least)
	test $good -ge $((ROUNDS / 5)) &&
	test $bad -ge $((ROUNDS / 5))
'

test_done
