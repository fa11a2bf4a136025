#!/bin/sh
test_description='rev-parse: random and mutated names never crash dirc

Thousands of names are made from pieces of revision syntax (HEAD~3^2,
:/x, @{-1}, ^{tree}, A...B, x-g<hex>, <rev>:<path>, reflog dates) mixed
with garbage bytes, then given to "dirc rev-parse", "dirc rev-parse
--verify -q", and all at once to "dirc cat-file --batch-check" (the same
resolver, in one process).  No run may die by a signal or exit with a
code git does not use (0, 1, 128; 129 only for -h).  With git, a share
of the names is also compared with git rev-parse: exit code, stdout and
stderr (git shows control characters in messages as "?").

DIRC_REVPARSE_SEED picks the names (default 1), DIRC_REVPARSE_ROUNDS how
many (default 300; 10000 with LONG).  A failure names the seed and the
name; the names are in the file "names" of the kept trash directory.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-rev-parse.sh

seed=${DIRC_REVPARSE_SEED:-1}
if test -n "$DIRC_REVPARSE_ROUNDS"
then
	rounds=$DIRC_REVPARSE_ROUNDS
elif test_have_prereq LONG
then
	rounds=10000
else
	rounds=300
fi

# gen_names SEED N: N names, one a line (no NUL, no newline).
gen_names () {
	awk -v seed="$1" -v n="$2" '
	function pick(a, k) { return a[int(rand() * k) + 1] }
	BEGIN {
		srand(seed)
		na = split("HEAD @ master side v1 light packed origin/master " \
			"refs/heads/master heads/master tags/v1 nosuch dead " \
			"0000 abcd FETCH_HEAD a d/e/f x-gabc v1-0-g " \
			"@{-1} @{u} master@{push} :/one :/two :a :0:a :./a " \
			"HEAD:a HEAD:d/e :/!-x :/!!x", atoms, " ")
		no = split("^ ~ ^2 ~2 ^0 ^{} ^{tree} ^{commit} ^{tag} ^{blob} " \
			"^{object} ^{/one} ^{/!-x} ^{/!!} @{0} @{1} @{2} @{-1} " \
			"@{yesterday} @{1.day.ago} @{u} @{push} :a :d/e/f :./a " \
			":../a .. ... ^@ ^! ^- ^-1 ~100 ^{ } { ^^ ~~ : :/ @ @{ " \
			"..HEAD ...side ^{/[} @{-0} @{99999} ^4294967296", ops, " ")
		ng = split("94 126 64 123 125 58 47 46 33 45 42 63 91 93 92 32 " \
			"9 39 34 1 2 27 127 128 195 169 255 0", garbage, " ")
		for (i = 0; i < n; i++) {
			s = pick(atoms, na)
			k = int(rand() * 5)
			for (j = 0; j < k; j++) {
				r = rand()
				if (r < 0.65)
					s = s pick(ops, no)
				else {
					c = pick(garbage, ng) + 0
					if (c == 0)
						c = 120
					g = sprintf("%c", c)
					if (r < 0.85)
						s = s g
					else {
						p = int(rand() * (length(s) + 1))
						s = substr(s, 1, p) g substr(s, p + 1)
					}
				}
			}
			if (rand() < 0.1 && length(s) > 1) {
				p = int(rand() * length(s)) + 1
				s = substr(s, 1, p - 1) substr(s, p + 1)
			}
			if (rand() < 0.02)
				s = s s s s s s s s
			print s
		}
	}'
}

test_expect_success 'setup: a history made by dirc: merge, tags, reflogs, index' '
	mkdir -p d/e &&
	echo a >a &&
	echo f >d/e/f &&
	dirc update-cache --add a d/e/f &&
	t1=$(dirc write-tree) &&
	c1=$(echo one | dirc commit-tree "$t1") &&
	echo a2 >a &&
	dirc update-cache a &&
	t2=$(dirc write-tree) &&
	c2=$(echo two | dirc commit-tree "$t2" -p "$c1") &&
	c3=$(echo side | dirc commit-tree "$t1" -p "$c1") &&
	m=$(echo merge | dirc commit-tree "$t2" -p "$c2" -p "$c3") &&
	dirc update-ref --create-reflog -m "commit: one" refs/heads/master "$c1" &&
	dirc update-ref -m "commit: merge" refs/heads/master "$m" &&
	dirc update-ref --create-reflog -m "branch" refs/heads/side "$c3" &&
	dirc update-ref refs/remotes/origin/master "$c2" &&
	dirc update-ref refs/heads/packed "$c1" &&
	printf "object %s\ntype commit\ntag v1\ntagger T <t@example.com> 1112354055 +0200\n\nv1\n" \
		"$c2" >tag &&
	tag=$(dirc hash-object -t tag -w tag) &&
	dirc update-ref refs/tags/v1 "$tag" &&
	dirc update-ref refs/tags/light "$c1" &&
	printf "ref: refs/heads/nowhere\n" >.git/refs/heads/dangling &&
	printf "%s\n" "$(dirc rev-parse HEAD)" >.git/refs/heads/dead &&
	printf "%s %s C <c@example.com> 1112354055 +0200\tcheckout: moving from master to side\n%s %s C <c@example.com> 1112354115 +0200\tcheckout: moving from side to master\n" \
		"$m" "$c3" "$c3" "$m" >>.git/logs/HEAD &&
	echo "[branch \"master\"]" >>.git/config &&
	echo "	remote = origin" >>.git/config &&
	echo "	merge = refs/heads/master" >>.git/config &&
	echo "[remote \"origin\"]" >>.git/config &&
	echo "	fetch = +refs/heads/*:refs/remotes/origin/*" >>.git/config &&
	gen_names "$seed" "$rounds" >names &&
	test_line_count = "$rounds" names &&
	rm -f tag
'

# allowed_code NAME CODE: an exit code git would use for rev-parse NAME
allowed_code () {
	case $2 in
	0|1|128) return 0 ;;
	129) test "x$1" = "x-h" ;;
	*) return 1 ;;
	esac
}

test_expect_success 'every name, alone and with --verify -q: no crash' '
	GIT_TEST_DATE_NOW=1112400000 &&
	export GIT_TEST_DATE_NOW &&
	n=0 &&
	while IFS= read -r name
	do
		n=$((n + 1)) &&
		{ dirc rev-parse "$name" >out 2>err; code=$?; } &&
		if ! allowed_code "$name" $code
		then
			echo "seed $seed: rev-parse \"$name\" exited $code" >&2 &&
			cat err >&2 &&
			return 1
		fi &&
		{ dirc rev-parse --verify -q "$name" >out 2>err; code=$?; } &&
		if ! allowed_code "$name" $code
		then
			echo "seed $seed: rev-parse --verify -q \"$name\" exited" \
				"$code" >&2 &&
			cat err >&2 &&
			return 1
		fi || return 1
	done <names &&
	test "$n" = "$rounds"
'

test_expect_success 'every name in one process: cat-file --batch-check' '
	GIT_TEST_DATE_NOW=1112400000 &&
	export GIT_TEST_DATE_NOW &&
	{ dirc cat-file --batch-check <names >out 2>err; code=$?; } &&
	case $code in
	0|128) ;;
	*) echo "seed $seed: cat-file --batch-check exited $code" >&2 &&
	   tail -n 5 err >&2 && false ;;
	esac &&
	if test $code = 0
	then
		test_line_count = "$rounds" out
	fi
'

test_expect_success GIT 'every fourth name: the same answer as git' '
	GIT_TEST_DATE_NOW=1112400000 &&
	export GIT_TEST_DATE_NOW &&
	n=0 && compared=0 && bad=0 && version_split=0 &&
	while IFS= read -r name
	do
		n=$((n + 1)) &&
		if test $((n % 4)) = 0
		then
			compared=$((compared + 1)) &&
			rp_both "$name" &&
			if test -s dirc.err
			then
				LC_ALL=C tr "\001-\010\013-\037\177" "?" \
					<dirc.err >dirc.err+ &&
				mv dirc.err+ dirc.err
			fi &&
			case $name in
			"{"*:*|*[!@^]"{"*:*)
				# git 2.55 opens a brace only after @ or ^:
				# its colon splits where 2.39'"'"'s did not
				version_split=$((version_split + 1)) &&
				if test_have_prereq GIT_NEW
				then
					{ git_new rev-parse "$name" >new.out 2>new.err
					  echo $? >new.code; } &&
					test_cmp new.code dirc.code &&
					test_cmp new.out dirc.out &&
					test_cmp new.err dirc.err
				else
					# no git 2.55: dirc answers cleanly
					read -r dc <dirc.code &&
					case $dc in 0|128|129) ;; *) false ;; esac
				fi >diff.out 2>&1 || {
					bad=$((bad + 1)) &&
					echo "seed $seed: differs from git 2.55: \"$name\"" >&2 &&
					cat diff.out >&2
				} ;;
			*)
				if ! rp_same >diff.out 2>&1
				then
					bad=$((bad + 1)) &&
					echo "seed $seed: differs from git: \"$name\"" >&2 &&
					cat diff.out >&2
				fi ;;
			esac
		fi || return 1
	done <names &&
	echo "# names a brace splits differently since git 2.40: $version_split" &&
	test "$n" = "$rounds" &&
	test "$compared" = $((rounds / 4)) &&
	test "$bad" = 0
'

test_expect_success 'cleanup: the dangling symbolic ref (fsck refuses it)' '
	rm .git/refs/heads/dangling
'

test_done
