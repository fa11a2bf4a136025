#!/bin/sh
test_description='diff-files: the index against the work tree, against git

Modified, deleted, mode-changed and type-changed files (a file become a
symbolic link or a directory, a directory that is a repository, a path
beyond a symbolic link), files whose stat data changed but content did
not (git shows the null id, until a refresh), racily clean entries,
assume-unchanged and skip-worktree entries, -q, and unmerged paths with
-0, -1, -2, -3, --base, --ours, --theirs and -c; --diff-filter, fixed
and random.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-diff.sh

test_expect_success GIT,SYMLINKS 'setup: an index and a work tree that differ' '
	mkdir -p d/e s keep &&
	echo 1 >a && echo 2 >b && echo 3 >d/c && echo 4 >d/e/f && echo 5 >keep/k &&
	echo 6 >mode && echo 7 >f2l && ln -s a l2f && echo 8 >f2d && echo 9 >touched &&
	echo 10 >"sp ace" && echo 11 >s/under && echo 12 >f2r && echo 13 >same &&
	git update-index --add a b d/c d/e/f keep/k mode f2l l2f f2d touched \
		"sp ace" s/under f2r same &&
	git update-index --add --cacheinfo 160000,$(git hash-object -w a),gl &&
	echo one >a && rm b && echo 33 >d/c && chmod +x mode &&
	rm f2l && ln -s a f2l && rm l2f && echo a >l2f &&
	rm f2d && mkdir f2d && echo in >f2d/x &&
	touch -d @1000000000 touched && echo "sp" >"sp ace" &&
	mv s s.real && ln -s s.real s &&
	rm f2r && mkdir f2r && (cd f2r && git init -q && echo r >r && git add r &&
		git commit -q -m r) &&
	mkdir gl
'

for args in "" "-z" "--name-only" "--name-status" "--abbrev" "--abbrev=6" \
	"-R" "-q" "-q -R" "--quiet" "--exit-code" "-r" "-t" "-s" "--raw" \
	"-Sone" "-S3" "-R -S33" "-S13"
do
	test_expect_success GIT "diff-files $args" '
		diff_cmp diff-files $args
	'
done

for f in A D M T U X B a d m t ADT Mt md dM "" tdm AaD mdtx ACDMRTUXB \
	acdmrtuxb "M --diff-filter=d" "a --diff-filter=MD" "MD --diff-filter=md"
do
	test_expect_success GIT "diff-files --diff-filter=$f" '
		diff_cmp diff-files --diff-filter=$f &&
		diff_cmp diff-files --name-status -R --diff-filter=$f &&
		diff_cmp diff-files --exit-code --diff-filter=$f &&
		diff_cmp diff-files --quiet --diff-filter $f
	'
done

for ps in "a" "d" "d/" "d/e" "*a*" "s/under" "s" "gl" "gl/" "f2d" "f2d/" \
	"nothing" ":(exclude)d" ":!a"
do
	test_expect_success GIT "pathspec '$ps'" '
		diff_cmp diff-files -- $ps
	'
done

test_expect_success GIT 'pathspecs without "--" must exist' '
	diff_cmp diff-files a d &&
	diff_cmp diff-files b &&
	diff_cmp diff-files a nothing
'

test_expect_success GIT 'from a subdirectory' '
	diff_cmp -C d diff-files &&
	diff_cmp -C d diff-files -- e ../a
'

test_expect_success GIT 'assume-unchanged and skip-worktree entries are not looked at' '
	git update-index --assume-unchanged a &&
	git update-index --skip-worktree d/c &&
	diff_cmp diff-files &&
	git update-index --no-assume-unchanged a &&
	git update-index --no-skip-worktree d/c
'

test_expect_success GIT 'stat-only changes: the null id, until a refresh' '
	touch -d @1000000001 same &&
	diff_cmp diff-files -- same &&
	grep "^:100644 100644 [0-9a-f]* $ZERO_OID M	same" dirc.out &&
	{ git update-index --refresh >/dev/null || :; } &&
	diff_cmp diff-files &&
	{ dirc update-cache --refresh >/dev/null || :; } &&
	diff_cmp diff-files
'

test_expect_success GIT 'racily clean: content decides, as git' '
	echo r1 >racy && touch -d @2000000000 racy &&
	git update-index --add racy && touch -d @2000000000 .git/index &&
	diff_cmp diff-files -- racy &&
	test_must_be_empty dirc.out &&
	echo r2 >racy && touch -d @2000000000 racy &&
	git config core.trustctime false &&
	diff_cmp diff-files -- racy &&
	test_file_not_empty dirc.out &&
	git config --unset core.trustctime
'

test_expect_success GIT 'a smudged entry (size 0) is shown until refreshed' '
	echo sm >smudge && touch -d @2000000000 smudge &&
	git update-index --add smudge && touch -d @2000000000 .git/index &&
	echo sa >smudge && touch -d @2000000000 smudge &&
	git update-index --add racy &&
	diff_cmp diff-files -- smudge &&
	test_file_not_empty dirc.out
'

test_expect_success GIT 'core.filemode=false ignores the executable bit' '
	git config core.filemode false &&
	diff_cmp diff-files &&
	git config --unset core.filemode
'

test_expect_success GIT 'setup: unmerged paths (t4046 shape)' '
	rm -rf um &&
	git init -q um &&
	(
		cd um &&
		for i in 0 1 2 3
		do
			blob=$(echo $i | git hash-object -w --stdin) &&
			eval "blob$i=$blob" || return 1
		done &&
		for path in oox oxo oxx xoo xox xxo xxx
		do
			case $path in x??) echo "100644 $blob1 1	$path" ;; esac &&
			case $path in ?x?) echo "100644 $blob2 2	$path" ;; esac &&
			case $path in ??x) echo "100644 $blob3 3	$path" ;; esac || return 1
		done >info &&
		git update-index --index-info <info &&
		for path in oox oxo oxx xoo xox
		do
			>$path || return 1
		done
	)
'

for args in "" "-0" "-1" "-2" "-3" "--base" "--ours" "--theirs" "-c --raw" \
	"-c --name-status" "-c --name-only" "-c -z --raw" "-q -1" "-R -3" \
	"--name-status -1" "-S1" "-1 -S1" "--quiet" "--exit-code -0"
do
	test_expect_success GIT "unmerged: diff-files $args" '
		diff_cmp -C um diff-files $args
	'
done

# git's t6060 lists the unmerged paths so
for args in "--name-only --diff-filter=U" "--diff-filter=u" "-0 --diff-filter=U" \
	"-3 --diff-filter=M" "--diff-filter=UD" "--exit-code --diff-filter=A" \
	"--quiet --diff-filter=U" "-R --diff-filter=D"
do
	test_expect_success GIT "unmerged: diff-files $args" '
		diff_cmp -C um diff-files $args
	'
done

test_expect_success GIT 'random --diff-filter specs, in both repositories' '
	seed=${DIRC_TEST_SEED:-$$} &&
	echo "seed $seed" &&
	awk -v seed=$seed "BEGIN {
		srand(seed); l = \"ACDMRTUXBacdmrtuxb\"
		for (i = 0; i < 40; i++) {
			n = int(rand() * 5); s = \"\"
			for (j = 0; j < n; j++)
				s = s substr(l, int(rand() * 18) + 1, 1)
			line = \"--diff-filter=\" s
			if (rand() < 0.5) {
				n = int(rand() * 4); s = \"\"
				for (j = 0; j < n; j++)
					s = s substr(l, int(rand() * 18) + 1, 1)
				line = line \" --diff-filter=\" s
			}
			print line
		}
	}" >specs &&
	while read args
	do
		diff_cmp diff-files --name-status $args &&
		diff_cmp -C um diff-files $args || return 1
	done <specs
'

test_done
