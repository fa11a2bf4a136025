#!/bin/sh
test_description='sparse checkout: read-tree -m -u against git on random trees, patterns and edits

A pool of trees derived from one random base (names such as "a", "a-b",
"a.c" and "a/" that sort against each other, paths that change between
file and directory).  Each round starts twin repositories alike: a tree
checked out, old sparse-checkout patterns applied by git, then random
edits (a dirty file, a file where a skip-worktree entry is, an untracked
file in the way, a removed file, a staged change, an untracked file in
a directory leaving the checkout).  Then new patterns — cone patterns
that git sparse-checkout set writes, gitignore patterns it writes with
--no-cone, hand-made files in cone mode (some that git refuses to read
as cone patterns), an empty file — and git read-tree -m -u in one twin,
dirc read-tree -m -u in the other: one tree (git'\''s way of applying
changed patterns), two, three, --reset, -n.  Compared: exit code,
stdout, stderr, the index (entries, stages, skip-worktree bits as
stored, flags and sizes, version), the work tree, and what diff-files
and ls-files -t say afterwards.  The plan comes from DIRC_RANDOM_SEED
(default 1); a failure names the round.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-checkout.sh
. "$TEST_DIRECTORY"/lib-random-tree.sh

SEED=${DIRC_RANDOM_SEED:-1}
# 8 rounds in make test (CI's time), 300 under make test-long
ROUNDS=8
if test_have_prereq LONG
then
	ROUNDS=300
fi
POOL=8

# The index as stored (no clearing of skip-worktree bits for present
# files): entries with their bits, flags and sizes, and the version.
checkout_state_ () {
	git -C "$1" -c core.sparsecheckout=false ls-files -s -t &&
	git -C "$1" -c core.sparsecheckout=false ls-files --debug |
		grep -v "^  [cm]time: \|^  dev: " &&
	od -An -tx1 -j4 -N4 "$1/.git/index" &&
	snapshot "$1" &&
	if test -n "${CHECKOUT_DIFF_FILES-}"
	then
		git -C "$1" ls-files -t &&
		git -C "$1" diff-files --name-status
	fi
}

# Known difference, not of sparse checkout: where two entries the one-way
# merge removes both have local changes, git names first the one its
# tree walk meets first, dirc the first in index order (an entry under a
# directory the tree still has comes last in git).  Both refuse, with
# nothing changed; the messages are made alike here.
same_first_refusal () {
	if test "$(cat git.code)" = 128 && test "$(cat dirc.code)" = 128 &&
	   test $(wc -l <git.err) = 1 && test $(wc -l <dirc.err) = 1 &&
	   grep -q "^error: Entry .* not uptodate. Cannot merge.$" git.err &&
	   grep -q "^error: Entry .* not uptodate. Cannot merge.$" dirc.err
	then
		cp git.err dirc.err
	fi
}

# no state_unchanged here: the state of dirc's twin is not kept first
interop_save () {
	interop_side_dir=$CHECKOUT_GIT
}

# tree_paths SEED K: "path content" lines of pool tree K (K=0: the base)
tree_paths () {
	random_tree_paths "$1" "$2" "0.7 0.82 0.9 0.95 0.55 3 1"
}

test_expect_success GIT 'setup: the pool of trees, the twins' '
	k=0 &&
	while test $k -lt $POOL
	do
		tree_paths $SEED $k >paths.$k &&
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
	cat paths.* | awk "{ print \$1 }" | sort -u >allpaths &&
	awk -F/ "{ p = \"\"; for (i = 1; i < NF; i++) { p = p (i > 1 ? \"/\" : \"\") \$i; print p } }" \
		allpaths | sort -u >alldirs &&
	test -s alldirs &&
	for r in rg rd pw
	do
		git init -q $r &&
		echo "$(pwd)/.git/objects" >$r/.git/objects/info/alternates ||
		return 1
	done &&
	git -C pw commit -q --allow-empty -m patterns
'

# plan: per round "form opt start t1 t2 oldpat newpat e1 e2 e3 seed"; the
# new patterns' kind and the form go round (every one in every run), old
# kind 6 is no sparse checkout at the start
plan () {
	awk -v seed="$1" -v rounds="$2" -v pool="$3" 'BEGIN {
		srand(seed);
		for (r = 0; r < rounds; r++)
			printf "%d %d %d %d %d %d %d %d %d %d %d\n",
				1 + int(r / 2) % 3,
				int(rand() * 6), int(rand() * pool),
				int(rand() * pool), int(rand() * pool),
				int(rand() * 7), r % 6,
				int(rand() * 9), int(rand() * 9), int(rand() * 9),
				int(rand() * 100000);
	}'
}

# pick SEED FILE: one line of FILE
pick () {
	awk -v seed="$1" '{ l[n++] = $0 } END {
		if (n) { srand(seed); print l[int(rand() * n)] }
	}' "$2"
}

# patterns KIND SEED: write pw/.git/info/sparse-checkout and the config
# core.sparseCheckoutCone that go with it to pats.file and pats.cone
patterns () {
	rm -f pats.file &&
	echo false >pats.cone &&
	case $1 in
	0|1)	# cone, as git sparse-checkout set writes it
		set -- $(awk -v seed=$2 "BEGIN { srand(seed) } { d[n++] = \$0 }
			END { k = int(rand() * 4); for (i = 0; i < k; i++)
				print d[int(rand() * n)] }" alldirs) &&
		git -C pw sparse-checkout set --cone --skip-checks "$@" 2>/dev/null &&
		cp pw/.git/info/sparse-checkout pats.file &&
		echo true >pats.cone ;;
	2)	# gitignore patterns, as git sparse-checkout set --no-cone
		set -- $(awk -v seed=$2 "BEGIN { srand(seed) }
			{ p[n++] = \$0 }
			END {
				split(\"* *.c a a-b b/ c/* /* !a !a/ /a/ [ab] a?c !/b b/a !*.c a/**/a\", v, \" \");
				k = 1 + int(rand() * 4);
				for (i = 0; i < k; i++) {
					if (rand() < 0.5) { print v[1 + int(rand() * 16)]; continue }
					s = p[int(rand() * n)];
					r = rand();
					if (r < 0.2) s = \"!\" s;
					else if (r < 0.35) s = \"/\" s;
					if (rand() < 0.3) s = s \"/\";
					print s
				}
			}" allpaths) &&
		git -C pw sparse-checkout set --no-cone "$@" 2>/dev/null &&
		cp pw/.git/info/sparse-checkout pats.file ;;
	3)	# by hand, in cone mode: some lines git reads only as non-cone
		awk -v seed=$2 "BEGIN { srand(seed) } { d[n++] = \$0 }
			END {
				if (rand() < 0.8) print \"/*\";
				if (rand() < 0.8) print \"!/*/\";
				k = int(rand() * 5);
				for (i = 0; i < k; i++) {
					s = d[int(rand() * n)];
					r = rand();
					if (r < 0.45) print \"/\" s \"/\";
					else if (r < 0.75) print \"!/\" s \"/*/\";
					else if (r < 0.8) print \"/\" s;
					else if (r < 0.85) print s \"/\";
					else if (r < 0.9) print \"/\" s \"*/\";
					else print \"/\" s \"/\";
				}
			}" alldirs >pats.file &&
		echo true >pats.cone ;;
	4)	: >pats.file &&
		if test $(($2 % 2)) = 1
		then
			echo true >pats.cone
		fi ;;
	5)	echo "/*" >pats.file ;;
	esac
}

# set_patterns: the patterns of pats.* in the current repository
set_patterns () {
	git config core.sparseCheckout true &&
	git config core.sparseCheckoutCone $(cat ../pats.cone) &&
	mkdir -p .git/info &&
	cp ../pats.file .git/info/sparse-checkout
}

# edit KIND SEED TREE: one random change of the index or work tree
edit () {
	git -c core.sparsecheckout=false ls-files -t >tagged &&
	sed -n "s/^H //p" tagged >in &&
	sed -n "s/^S //p" tagged >out &&
	p=$(pick $2 in) &&
	q=$(pick $2 out) &&
	u= &&
	case $1 in
	1)	test -z "$p" || echo dirty >>"$p" ;;
	2)	test -z "$p" || {
			echo staged >>"$p" && git update-index "$p" &&
			backdate
		} ;;
	3)	test -z "$p" || rm -f "$p" ;;
	4)	# a file where a skip-worktree entry is: its content, or not
		test -z "$q" || {
			mkdir -p "$(dirname "$q")" 2>/dev/null &&
			if test $(($2 % 2)) = 0
			then
				git cat-file blob :"$q" >"$q"
			else
				echo other >"$q"
			fi
		} 2>/dev/null ;;
	5)	git ls-tree -r --name-only $3 >theirs &&
		u=$(pick $2 theirs) &&
		if test -n "$u" &&
		   ! git ls-files --error-unmatch "$u" >/dev/null 2>&1
		then
			mkdir -p "$(dirname "$u")" 2>/dev/null &&
			echo untracked >"$u" 2>/dev/null
		fi ;;
	6)	test -z "$p" || case $p in
		*/*)	echo untracked >"$(dirname "$p")/u.$2" 2>/dev/null ;;
		esac ;;
	7)	test -z "$q" || git update-index --no-skip-worktree "$q" ;;
	esac
	# no timing in what the twins see: edited files are old, not racy
	for f in "$p" "$q" "$u" "${p%/*}/u.$2"
	do
		test -z "$f" || touch -c -d @1600000100 "$f" 2>/dev/null
	done
	:
}

# backdate: no entry racily clean (git would look at the content, and
# at the attributes, on its next index write)
backdate () {
	git ls-files >present &&
	xargs touch -c -d @1600000000 <present &&
	git update-index -q --refresh
}

# start_round START OLDPAT E1 E2 E3 SEED TREE: one twin, ready
start_round () {
	rm -rf .git/index .git/info/sparse-checkout $(ls) 2>/dev/null
	git config core.sparseCheckout false &&
	git read-tree $(cat ../tree.$1) &&
	git checkout-index -f -a &&
	git update-index -q --refresh &&
	if test $2 != 6
	then
		set_patterns &&
		git read-tree -m -u $(cat ../tree.$1) >/dev/null 2>&1
	fi &&
	backdate &&
	edit $3 $6 $7 &&
	edit $4 $(($6 + 1)) $7 &&
	edit $5 $(($6 + 2)) $7
}

test_expect_success GIT "random patterns and merges against git ($ROUNDS rounds, seed $SEED)" '
	plan $SEED $ROUNDS $POOL >plan &&
	test_line_count = $ROUNDS plan &&
	: >done &&
	round=0 &&
	INTEROP_STATE=twins &&
	CHECKOUT_DIFF_FILES=1 &&
	while read -r form opt start t1 t2 oldpat newpat e1 e2 e3 seed
	do
		case $opt in
		0|1|2)	o="-m -u" ;;
		3)	o="--reset -u" ;;
		4)	o="-m -u -n" ;;
		5)	o="-m -u --no-sparse-checkout" ;;
		esac &&
		case $form in
		1)	if test $opt = 0
			then
				trees=$(cat tree.$start)
			else
				trees=$(cat tree.$t1)
			fi ;;
		2)	trees="$(cat tree.$start) $(cat tree.$t1)" ;;
		3)	trees="$(cat tree.$t2) $(cat tree.$start) $(cat tree.$t1)" ;;
		esac &&
		last=$(echo $trees | awk "{ print \$NF }") &&
		# git warns of bad cone patterns whenever it reads the
		# attributes, even with --no-sparse-checkout: dirc only where
		# it reads the patterns
		if test $opt = 5 && test $newpat = 3
		then
			opt=0 &&
			o="-m -u"
		fi &&
		if test $oldpat != 6
		then
			patterns $oldpat $seed
		fi &&
		in_both "start_round $start $oldpat $e1 $e2 $e3 $seed $last" &&
		patterns $newpat $((seed + 7)) &&
		in_both set_patterns &&
		interop_run read-tree $o $trees &&
		if test $form = 1
		then
			same_first_refusal
		fi &&
		same_result || {
			echo "# round $round: $o, trees $trees (start $start), patterns $oldpat -> $newpat, edits $e1 $e2 $e3 seed $seed" &&
			cat pats.file &&
			return 1
		}
		echo "$form $opt $newpat $(cat dirc.code) $(grep -c "^S " checkout.by-dirc)" >>done &&
		round=$((round + 1))
	done <plan &&
	test $round = $ROUNDS &&
	test_line_count = $ROUNDS done &&
	# every form and every kind of patterns ran; some left entries out
	grep -q "^1 " done && grep -q "^2 " done && grep -q "^3 " done &&
	awk "\$4 == 0 && \$5 > 0" done | grep -q . &&
	for k in 0 1 2 3 4 5
	do
		awk "\$3 == $k" done | grep -q . || return 1
	done
'

test_done
