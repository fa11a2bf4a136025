#!/bin/sh
test_description='read-tree and the untracked cache (UNTR)

git'"'"'s read-tree -m, --reset and --prefix move the untracked cache of the
index they read into the one they write, forgetting the directories of
every path that came, went, changed or is unmerged; a plain read starts a
new index without one.  core.untrackedCache=true makes one when the index
read has none, false drops it.  Each case runs git and dirc from the same
index (untracked cache filled by git status) and compares the bytes
written; then git status with the cache must see what it sees without.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh

# has_untr: the index holds an UNTR extension
has_untr () {
	grep -c UNTR .git/index >/dev/null
}

# primed TREE: the index at TREE, its work tree checked out, the
# untracked cache made and filled by git status
primed () {
	git read-tree --reset -u "$1" &&
	git update-index --untracked-cache &&
	git -c core.untrackedCache=true status --porcelain -uall >/dev/null &&
	has_untr
}

# status_agrees: git status with the cache the index holds sees what it
# sees with none
status_agrees () {
	git -c core.untrackedCache=true status --porcelain -uall >.git/cached &&
	git -c core.untrackedCache=false status --porcelain -uall >.git/fresh &&
	test_cmp .git/fresh .git/cached
}

test_expect_success GIT 'setup: three trees, untracked files in several directories' '
	mkdir -p a/b c d &&
	echo 1 >a/b/f && echo 2 >a/g && echo 3 >c/h && echo 4 >top &&
	git update-index --add a/b/f a/g c/h top &&
	git write-tree >t1 &&
	echo 22 >a/g && echo 5 >d/new &&
	git update-index --add a/g d/new &&
	git update-index --force-remove c/h &&
	git write-tree >t2 &&
	echo 33 >a/g && echo 6 >c/other &&
	git update-index --add a/g c/other &&
	git write-tree >t3 &&
	rm -f .git/index &&
	t1=$(cat t1) t2=$(cat t2) t3=$(cat t3) &&
	primed $t1 &&
	>a/b/u1 && >c/u2 && >u3 &&
	git -c core.untrackedCache=true status --porcelain -uall >/dev/null
'

test_expect_success GIT 'read-tree -m of the same tree: the cache kept whole' '
	primed $t1 &&
	interop_run read-tree -m $t1 &&
	same_result &&
	has_untr &&
	status_agrees
'

test_expect_success GIT 'read-tree -m and --reset of another tree: the changed directories forgotten, as git' '
	primed $t1 &&
	interop_run read-tree -m $t2 &&
	same_result &&
	has_untr &&
	interop_run read-tree --reset $t3 &&
	same_result &&
	status_agrees
'

test_expect_success GIT 'two-way -m: the cache follows the changes' '
	primed $t1 &&
	interop_run read-tree -m $t1 $t2 &&
	same_result &&
	status_agrees
'

test_expect_success GIT 'three-way -m: unmerged paths forget their directories' '
	primed $t2 &&
	interop_run read-tree -m $t1 $t2 $t3 &&
	same_result &&
	git ls-files -u >unmerged &&
	test -s unmerged
'

test_expect_success GIT '--prefix: the bound directory forgotten' '
	primed $t1 &&
	interop_run read-tree --prefix=sub/ $t2 &&
	same_result &&
	has_untr
'

test_expect_success GIT 'a plain read starts an index without one, as git' '
	primed $t1 &&
	interop_run read-tree $t2 &&
	same_result &&
	! has_untr
'

test_expect_success GIT 'core.untrackedCache: true makes one for -m, false drops it' '
	primed $t1 &&
	git update-index --no-untracked-cache &&
	! has_untr &&
	git config core.untrackedCache true &&
	interop_run read-tree -m $t1 &&
	same_result &&
	has_untr &&
	git config core.untrackedCache false &&
	interop_run read-tree -m $t2 &&
	same_result &&
	! has_untr &&
	git config --unset core.untrackedCache
'

test_expect_success GIT 'a failed merge leaves the index (and its cache) as it was' '
	primed $t1 &&
	echo local >a/g &&
	test_when_finished "git checkout-index -f a/g" &&
	interop_run read-tree -m -u $t1 $t2 &&
	same_result &&
	test_cmp dirc.code git.code &&
	test "$(cat dirc.code)" != 0 &&
	state_unchanged
'

test_done
