#!/bin/sh
test_description='diff-tree: two trees, a commit and its parents, every output format, against git

Trees with files, directories, symbolic links and gitlinks, and every
kind of change between them: added, deleted, modified, mode changed,
type changed (file, symlink, gitlink; file and directory under one
name).  Each option and format is run with git and with dirc from the
same repository: exit code, output and messages must be equal.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-diff.sh

test_expect_success GIT,SYMLINKS 'setup: trees O and A with every kind of change' '
	mkdir -p d/e sub keep t2f &&
	echo 1 >a && echo 2 >b && echo 3 >d/c && echo 4 >d/e/f &&
	echo 5 >keep/k && echo 6 >mode && echo 7 >f2l && ln -s a l2f &&
	echo 8 >t2f/x && echo 9 >f2t && echo 10 >"sp ace" &&
	printf "q\"uote\n" >"tab	name" && echo 11 >"é" &&
	echo 12 >x.c && echo 13 >x-b && mkdir x && echo 14 >x/y &&
	git update-index --add a b d/c d/e/f keep/k mode f2l l2f t2f/x \
		f2t "sp ace" "tab	name" "é" x.c x-b x/y &&
	git update-index --add --cacheinfo 160000,$(git hash-object -w a),g2f &&
	git update-index --add --cacheinfo 160000,$(git hash-object -w b),gl &&
	O=$(git write-tree) &&
	echo one >a && rm b && echo 33 >d/c && echo new >d/new &&
	chmod +x mode && rm f2l && ln -s b f2l && rm l2f && echo f >l2f &&
	rm -r t2f && echo t >t2f && rm f2t && mkdir f2t && echo z >f2t/z &&
	echo 15 >x/y && echo "moved" >"sp ace" &&
	git update-index --force-remove b t2f/x f2t &&
	git update-index --add --chmod=+x mode &&
	git update-index --add a d/c d/new f2l l2f t2f f2t/z x/y "sp ace" &&
	git update-index --force-remove g2f &&
	echo g >g2f && git update-index --add g2f &&
	git update-index --cacheinfo 160000,$(git hash-object -w d/c),gl &&
	A=$(git write-tree) &&
	echo "$O" >O && echo "$A" >A
'

O=$(cat O 2>/dev/null) A=$(cat A 2>/dev/null)

for args in "" "-r" "-t" "-r -t" "-z" "-r -z" "--name-only" \
	"-r --name-only" "--name-status" "-r --name-status" "-r -z --name-status" \
	"--abbrev" "-r --abbrev=4" "-r --abbrev=12" "--abbrev=2" "--abbrev=40" \
	"-r --raw" "-R" "-r -R" "-r -t -R" "-s" "--quiet" "--exit-code" "-r --exit-code --name-only" \
	"-r --full-index" "--no-abbrev" "-r --name-only --raw" "-r -Sone" "-S5" "-Sxyz" "-R -S1 -r" \
	"-r --diff-filter=A" "-r --diff-filter=D" "-r --diff-filter=MT" \
	"-r --diff-filter=ad" "-t --diff-filter=M" "--diff-filter=T" \
	"-r -R --diff-filter=A" "-r --exit-code --diff-filter=X" \
	"-r --quiet --diff-filter=M" "-r --diff-filter=A -Sone" \
	"-r --diff-filter=m --diff-filter=D"
do
	test_expect_success GIT "diff-tree $args O A" '
		diff_cmp diff-tree $args $O $A
	'
	test_expect_success GIT "diff-tree $args A O" '
		diff_cmp diff-tree $args $A $O
	'
done

test_expect_success GIT 'identical trees: nothing, exit 0 even with --exit-code' '
	diff_cmp diff-tree --exit-code $O $O &&
	test_must_be_empty dirc.out &&
	echo 0 >expect &&
	test_cmp expect dirc.code
'

test_expect_success GIT 'the empty tree against a tree, both ways' '
	empty=$(git hash-object -t tree /dev/null) &&
	diff_cmp diff-tree $empty $A &&
	diff_cmp diff-tree -r $A $empty
'

for ps in "a" "d" "d/" "d/e" "*.c" "d/*" "x" "x/" "f2t" "f2t/" "gl" "gl/" \
	"nothing" ":(exclude)d" ":!x/y" "*" "?" "d/e/f a" "l2f/" ":(glob)d/*" \
	":(icase)D" "x*"
do
	test_expect_success GIT "pathspec '$ps' with and without -r, -t" '
		diff_cmp diff-tree $O $A -- $ps &&
		diff_cmp diff-tree -r $O $A -- $ps &&
		diff_cmp diff-tree -r -t $O $A -- $ps &&
		diff_cmp diff-tree --name-only $O $A -- $ps
	'
done

test_expect_success GIT 'pathspecs without "--" name existing paths' '
	diff_cmp diff-tree -r $O $A a d &&
	diff_cmp diff-tree -r $O $A "*.c"
'

test_expect_success GIT 'setup: commits O, A, and a merge' '
	cO=$(commit_tree_of $O) &&
	cA=$(commit_tree_of $A $cO) &&
	echo merged >a && echo newc >c && git update-index --add a c &&
	git update-index --force-remove keep/k &&
	M=$(git write-tree) &&
	cB=$(commit_tree_of $O $cO) &&
	cM=$(commit_tree_of $M $cA $cB) &&
	git update-ref refs/heads/master $cM &&
	git tag -a -m tag tagA $cA &&
	echo "$cO $cA $cB $cM" >commits
'

read cO cA cB cM <commits 2>/dev/null

for args in "" "-r" "--root" "--root -r" "--no-commit-id" "-z" "-s" "--always" \
	"-m" "-m -r" "-m --name-only" "--root --always" "--quiet" "--exit-code" "-r -t --root" \
	"-c" "-c -r --name-status" "-c -z" "-c --abbrev" "-c -R" "-c --quiet" "-c -s" \
	"-c -Smerged" "-c -m" "-c --name-only" "-c --no-commit-id" \
	"-r --diff-filter=A" "-r --diff-filter=D" "-m -r --diff-filter=M" \
	"--root -r --diff-filter=a" "--always --diff-filter=D" \
	"--exit-code --diff-filter=T"
do
	test_expect_success GIT "diff-tree $args <commit>: root, child, merge, tag" '
		diff_cmp diff-tree $args $cO &&
		diff_cmp diff-tree $args $cA &&
		diff_cmp diff-tree $args $cM &&
		diff_cmp diff-tree $args tagA &&
		diff_cmp diff-tree $args HEAD
	'
done

test_expect_success GIT 'commits as trees, ranges, revision syntax' '
	diff_cmp diff-tree $cO $cA &&
	diff_cmp diff-tree -r $cO..$cA &&
	diff_cmp diff-tree -r HEAD^..HEAD &&
	diff_cmp diff-tree -r HEAD^ HEAD &&
	diff_cmp diff-tree -r ^HEAD^ HEAD &&
	diff_cmp diff-tree -r HEAD ^HEAD^ &&
	diff_cmp diff-tree -r "HEAD^{tree}" "HEAD^2^{tree}" &&
	diff_cmp diff-tree -r HEAD:d HEAD^2:d &&
	diff_cmp diff-tree HEAD HEAD^ HEAD
'

test_expect_success GIT 'a tree given alone is not a commit (error, exit 0)' '
	diff_cmp diff-tree $A &&
	diff_cmp diff-tree HEAD:a
'

test_expect_success GIT 'options after the object names' '
	diff_cmp diff-tree $O $A -r &&
	diff_cmp diff-tree $O -r $A --name-only
'

test_expect_success GIT 'core.quotePath=false leaves high bytes alone' '
	git config core.quotePath false &&
	diff_cmp diff-tree -r $O $A &&
	git config --unset core.quotePath
'

test_expect_success GIT 'run from a subdirectory: paths stay full, pathspecs are relative' '
	mkdir -p d &&
	diff_cmp -C d diff-tree -r $O $A &&
	diff_cmp -C d diff-tree -r $O $A -- e &&
	diff_cmp -C d diff-tree -r $O $A -- ../a
'

test_done
