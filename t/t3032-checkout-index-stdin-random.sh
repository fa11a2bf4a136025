#!/bin/sh
test_description='checkout-index --stdin and -z --stdin with random input

Random path lists (names in the index and not, "." and "..", quoted and
badly quoted lines, tabs, bytes past 0x7f, empty lines, paths leaving the
repository) go to "git checkout-index --stdin" and to "dirc checkout-index
--stdin" in two copies of one work tree.  Exit code and messages must be
git'"'"'s, and so must the work tree, except where git dies midway: dirc
reads and checks the whole list first, so it dies with git'"'"'s last
message and writes nothing.  Then thousands of random byte lines must
never crash dirc.  Every loop counts its rounds and the count is checked.

DIRC_RANDOM_SEED (default 1) picks the input; a failure names its seed.'
. ./test-lib.sh

SEED=${DIRC_RANDOM_SEED:-1}
ROUNDS=16

# gen SEED N TERM: N random lines from the vocabulary, ended by TERM
# ("nl" or "nul"); a line leaves the repository only now and then
gen () {
	awk -v seed="$1" -v n="$2" -v term="$3" 'BEGIN {
		srand(seed);
		nv = split("a|b|sub|sub/c|d/e/f|d/e|d|x|sp ace|.|nosuch|u|q" \
			   "|\"a\"|\"sub/c\"|\"d\\057e/f\"|\"q\\tq\"" \
			   "|\\\\|\\t|-|caf\303\251|\"caf\\303\\251\"" \
			   "|sub/|..|/", v, "|");
		for (i = 0; i < n; i++) {
			line = "";
			r = rand();
			if (r < 0.02) {
				line = rand() < 0.5 ? "../../out" : "/abs";
			} else if (r < 0.04) {
				line = rand() < 0.5 ? "\"bad" : "\"\\q\"";
			} else if (rand() >= 0.07) {
				parts = 1 + int(rand() * 3);
				for (j = 0; j < parts; j++) {
					do
						t = v[1 + int(rand() * nv)];
					while (j == 0 && (t == ".." || t == "/"));
					if (t == "\\t") t = "\t";
					if (t == "\\\\") t = "\\";
					line = line (j ? "/" : "") t;
				}
			}
			if (term == "nul")
				printf "%s%c", line, 0;
			else
				printf "%s\n", line;
		}
	}'
}

# snapshot DIR: the directories and the checksum of every file in DIR
snapshot () {
	(
		cd "$1" &&
		find . -path ./.git -prune -o -type d -print | sort &&
		find . -path ./.git -prune -o -type f -print0 | sort -z |
		xargs -0 -r cksum
	)
}

test_expect_success GIT 'setup: a template work tree and index' '
	git init -q tmpl &&
	(
		cd tmpl &&
		mkdir -p sub d/e &&
		for f in a b sub/c d/e/f x "sp ace" "$(printf "caf\303\251")" \
			"$(printf "q\tq")"
		do
			echo "$f" >"$f" || return 1
		done &&
		git update-index --add a b sub/c d/e/f x "sp ace" \
			"$(printf "caf\303\251")" "$(printf "q\tq")" &&
		printf "100644 %s 1\tu\n100644 %s 2\tu\n" \
			$(git rev-parse :a) $(git rev-parse :b) |
		git update-index --index-info
	)
'

# one_round N TERM: a fresh pair of work trees with a few files gone,
# the same random list to git and dirc; compare.
one_round () {
	rm -rf g d &&
	cp -R tmpl g &&
	rm -f g/a g/sub/c "g/$(printf "caf\303\251")" &&
	echo changed >g/b &&
	cp -R g d &&
	snapshot d >before.tree &&
	gen $((SEED * 1000 + $1)) 15 $2 >input &&
	if test $2 = nul
	then
		set -- -z --stdin
	else
		set -- --stdin
	fi &&
	(cd g && git checkout-index "$@" <../input >../git.out 2>../git.err; echo $? >../git.code) &&
	(cd d && dirc checkout-index "$@" <../input >../dirc.out 2>../dirc.err; echo $? >../dirc.code) &&
	test_cmp_codes git.code dirc.code &&
	test_cmp git.out dirc.out &&
	if test "$(cat git.code)" = 128
	then
		tail -n 1 git.err | sed -e "s|/g'\$|/d'|" >expect &&
		test_cmp expect dirc.err &&
		snapshot d >d.tree &&
		test_cmp before.tree d.tree &&
		echo fatal >>kinds
	else
		test_cmp git.err dirc.err &&
		snapshot g >g.tree &&
		snapshot d >d.tree &&
		test_cmp g.tree d.tree &&
		echo "exit $(cat git.code)" >>kinds
	fi
}

test_expect_success GIT "random --stdin lists: git's results ($ROUNDS rounds, seed $SEED)" '
	: >kinds &&
	n=0 &&
	while test $n -lt $ROUNDS
	do
		one_round $n nl || {
			echo "# round $n, DIRC_RANDOM_SEED=$SEED" &&
			return 1
		}
		n=$((n + 1))
	done &&
	test $n = $ROUNDS &&
	test_line_count = $ROUNDS kinds &&
	grep -q fatal kinds &&
	grep -q "exit 1" kinds
'

test_expect_success GIT "random -z --stdin lists: git's results ($ROUNDS rounds, seed $SEED)" '
	: >kinds &&
	n=0 &&
	while test $n -lt $ROUNDS
	do
		one_round $n nul || {
			echo "# round $n, DIRC_RANDOM_SEED=$SEED" &&
			return 1
		}
		n=$((n + 1))
	done &&
	test $n = $ROUNDS &&
	test_line_count = $ROUNDS kinds
'

test_expect_success GIT 'a fatal line: dirc wrote nothing at all' '
	rm -rf g d &&
	cp -R tmpl g &&
	rm -f g/a g/sub/c &&
	cp -R g d &&
	printf "a\nsub/c\n../../outside\n" >input &&
	(cd g && test_expect_code 128 git checkout-index --stdin <../input 2>../git.err) &&
	(cd d && test_expect_code 128 dirc checkout-index --stdin <../input 2>../dirc.err) &&
	sed -e "s|/g\(.\)\$|/d\1|" git.err >expect &&
	test_cmp expect dirc.err &&
	test_path_is_file g/a &&
	test_path_is_missing d/a &&
	test_path_is_missing d/sub/c &&
	printf "a\n\"bad\n" >input &&
	(cd d && test_expect_code 128 dirc checkout-index --stdin <../input 2>../dirc.err) &&
	echo "fatal: line is badly quoted" >expect &&
	test_cmp expect dirc.err &&
	test_path_is_missing d/a
'

# random bytes (no NUL with LF lists), lines of 0 to 60 bytes
noise () {
	awk -v seed="$1" -v n="$2" -v term="$3" 'BEGIN {
		srand(seed);
		for (i = 0; i < n; i++) {
			len = int(rand() * 61);
			for (j = 0; j < len; j++) {
				c = int(rand() * 256);
				if (c == 0 || c == 10) c = 47;
				printf "%c", c;
			}
			if (term == "nul") printf "%c", 0; else printf "\n";
		}
	}'
}

test_expect_success 'random bytes never crash dirc (200 rounds of 50 lines)' '
	rm -rf d &&
	cp -R tmpl d &&
	: >codes &&
	n=0 &&
	while test $n -lt 200
	do
		if test $((n % 2)) = 0
		then
			term=nl && set -- --stdin
		else
			term=nul && set -- -z --stdin
		fi &&
		noise $((SEED * 7919 + n)) 50 $term >input &&
		(
			cd d &&
			dirc checkout-index -f "$@" <../input >/dev/null 2>../err
			echo $? >>../codes
		) &&
		code=$(tail -n 1 codes) &&
		case $code in
		0|1|128) : ;;
		*) echo "# exit $code, round $n, seed $SEED" && cat err && return 1 ;;
		esac &&
		n=$((n + 1)) || return 1
	done &&
	test $n = 200 &&
	test_line_count = 200 codes
'

test_done
