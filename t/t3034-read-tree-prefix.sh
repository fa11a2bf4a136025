#!/bin/sh
test_description='read-tree --prefix: conflicts, file/directory cases, the TREE git leaves

Index-only cases run "git read-tree" and "dirc read-tree" from the same
index (lib-interop): exit code, output, messages and the index bytes
(TREE included) must be equal.  Cases with -u run git in the repository
rg and dirc in rd, set up alike (lib-checkout'"'"'s twins): exit code,
messages, entries and work trees must be equal.

The cache-tree after a bind is git'"'"'s own: built again from the index
(an empty sub-tree recorded by the old one is gone), a directory valid
if its tree object is stored, and the directories after one that names
a missing object left out.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-checkout.sh

# idx PATH...: a new index of PATH... (all one blob), its TREE written
idx () {
	rm -f .git/index &&
	for p in "$@"
	do
		git update-index --add --cacheinfo 100644,$blob,"$p" || return 1
	done &&
	git write-tree >/dev/null
}

# tree PATH...: a tree of PATH... (all one blob), on stdout
tree () {
	(
		GIT_INDEX_FILE=.git/index.tmp &&
		export GIT_INDEX_FILE &&
		rm -f .git/index.tmp &&
		for p in "$@"
		do
			git update-index --add --cacheinfo 100644,$blob,"$p" || exit 1
		done &&
		git write-tree &&
		rm -f .git/index.tmp
	)
}

test_expect_success GIT 'setup' '
	blob=$(echo content | git hash-object -w --stdin) &&
	echo $blob >blob
'

test_expect_success GIT 'overlap: "Entry <p> overlaps with <p>", the first in tree order' '
	blob=$(cat blob) &&
	t=$(tree a.c a/x) &&
	idx p/a p/a.c &&
	interop_run read-tree --prefix=p/ $t &&
	same_result &&
	echo "error: Entry '"'"'p/a.c'"'"' overlaps with '"'"'p/a.c'"'"'.  Cannot bind." >expect &&
	test_cmp expect dirc.err &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	state_unchanged
'

test_expect_success GIT 'an index file where the tree has a directory: "Entry '"''"' overlaps with <file>"' '
	blob=$(cat blob) &&
	t=$(tree a/x a0) &&
	idx p/a p/a0 &&
	interop_run read-tree --prefix=p/ $t &&
	same_result &&
	echo "error: Entry '"''"' overlaps with '"'"'p/a'"'"'.  Cannot bind." >expect &&
	test_cmp expect dirc.err &&
	state_unchanged &&
	t=$(tree a/x b/y) &&
	idx p/a/q p/b &&
	interop_run read-tree --prefix=p/ $t &&
	same_result &&
	t=$(tree s/t/u) &&
	idx p/s/t &&
	interop_run read-tree --prefix=p/ $t &&
	same_result
'

test_expect_success GIT '-q: no per-path message, still 128' '
	blob=$(cat blob) &&
	t=$(tree a) &&
	idx p/a &&
	interop_run read-tree -q --prefix=p/ $t &&
	same_result &&
	test_must_be_empty dirc.err &&
	echo 128 >expect &&
	test_cmp expect dirc.code
'

test_expect_success GIT 'an index file at the prefix or above it: replaced' '
	blob=$(cat blob) &&
	t=$(tree f s/f) &&
	idx p &&
	interop_run read-tree --prefix=p/ $t &&
	same_result &&
	git ls-files >actual &&
	printf "p/f\np/s/f\n" >expect &&
	test_cmp expect actual &&
	idx p &&
	interop_run read-tree --prefix=p/q/ $t &&
	same_result &&
	idx p/q &&
	interop_run read-tree --prefix=p/q/r/ $t &&
	same_result
'

test_expect_success GIT 'an index directory where the tree has a file (no -u): the directory stays, the file is dropped' '
	blob=$(cat blob) &&
	t=$(tree f s/f) &&
	idx p/f/x &&
	interop_run read-tree --prefix=p/ $t &&
	same_result &&
	git ls-files >actual &&
	printf "p/f/x\np/s/f\n" >expect &&
	test_cmp expect actual &&
	idx f/x f/y g &&
	interop_run read-tree --prefix= $t &&
	same_result
'

test_expect_success GIT 'a prefix without its slash, and the empty prefix into an empty index' '
	blob=$(cat blob) &&
	t=$(tree f s/f) &&
	idx z &&
	interop_run read-tree --prefix=dir $t &&
	same_result &&
	rm .git/index &&
	dirc read-tree --empty &&
	interop_run read-tree --prefix= $t &&
	same_result
'

test_expect_success GIT 'TREE: the sub-directories after a failing one are left out (prefix two deep)' '
	blob=$(cat blob) &&
	t=$(tree x) &&
	idx a/x d/sub/b/x d/sub/c/x d/sub/x d/tub/k/x d/tub/x e/x f/g/x f/x m &&
	interop_run read-tree --prefix=d/sub/a/ $t &&
	same_result &&
	idx a/x d/sub/b/x d/sub/c/x d/sub/x d/tub/k/x d/tub/x e/x f/g/x f/x m &&
	interop_run read-tree --prefix=d/sub/c/q/ $t &&
	same_result &&
	idx a/x d/sub/b/x d/tub/x e/x &&
	interop_run read-tree --prefix=d/y/ $t &&
	same_result &&
	idx a/x b/x c/x z/x &&
	interop_run read-tree --prefix=b/p/a/ $t &&
	same_result &&
	interop_run read-tree --prefix=b/q/a/ $t &&
	same_result
'

test_expect_success GIT 'TREE: a blob the index names that is not stored stops the rebuild (and git says so)' '
	blob=$(cat blob) &&
	missing=$(test_oid_fake 1) &&
	t=$(tree x) &&
	idx a/x b/x c/x z/x &&
	git update-index --add --cacheinfo 100644,$missing,b/y &&
	interop_run read-tree --prefix=q/ $t &&
	same_result &&
	echo "error: invalid object 100644 $missing for '"'"'b/y'"'"'" >expect &&
	test_cmp expect dirc.err &&
	idx a/x b/x c/x z/x &&
	git update-index --add --cacheinfo 100644,$missing,b/s/y &&
	interop_run read-tree --prefix=q/ $t &&
	same_result
'

test_expect_success GIT 'TREE: an empty sub-tree the old TREE recorded is not kept' '
	blob=$(cat blob) &&
	empty=$(git hash-object -t tree -w /dev/null) &&
	c=$(tree f) &&
	d=$(printf "040000 tree %s\tc\n040000 tree %s\te\n" $c $empty | git mktree) &&
	t1=$(printf "100644 blob %s\ta\n040000 tree %s\td\n" $blob $d | git mktree) &&
	git read-tree $t1 &&
	interop_run read-tree --prefix=q/ $c &&
	same_result
'

test_expect_success GIT 'TREE: an intent-to-add entry; a bind whose whole tree is stored' '
	test_when_finished "rm -rf b" &&
	blob=$(cat blob) &&
	t=$(tree x) &&
	idx a/x b/p/x c/x z/x &&
	mkdir -p b/p &&
	echo n >b/p/new &&
	git add -N b/p/new &&
	interop_run read-tree --prefix=q/ $t &&
	same_result &&
	idx z &&
	dirc read-tree --prefix=q/ $t &&
	git write-tree >/dev/null &&
	idx z &&
	interop_run read-tree --prefix=q/ $t &&
	same_result
'

test_expect_success GIT 'setup: rg and rd for -u' '
	git init -q rg &&
	(
		cd rg &&
		mkdir -p t/s &&
		echo f >t/f &&
		echo sf >t/s/f &&
		git add t &&
		git commit -q -m t
	) &&
	git -C rg rev-parse HEAD:t >t.tree &&
	git -C rg rm -q -r --cached t &&
	rm -rf rg/t &&
	cp -R rg rd &&
	test_fsck_also rg rd
'

INTEROP_STATE=twins

# wt_both SETUP ARGS...: SETUP in rg and rd (index emptied first),
# then git read-tree ARGS in rg, dirc in rd.
wt_both () {
	in_both "rm -rf p .git/index && $1" &&
	shift &&
	interop_run read-tree "$@"
}

test_expect_success GIT '-u, an index directory where the tree has a file, the directory in the work tree: the file wins' '
	wt_both "mkdir -p p/f && echo x >p/f/x && git add p/f/x" -u --prefix=p/ $(cat t.tree) &&
	same_result &&
	git -C rd ls-files >actual &&
	printf "p/f\np/s/f\n" >expect &&
	test_cmp expect actual &&
	test_path_is_file rd/p/f
'

test_expect_success GIT '-u, the directory not in the work tree: it stays, the file is dropped' '
	wt_both "mkdir -p p/f && echo x >p/f/x && git add p/f/x && rm -r p" -u --prefix=p/ $(cat t.tree) &&
	same_result &&
	git -C rd ls-files >actual &&
	printf "p/f/x\np/s/f\n" >expect &&
	test_cmp expect actual
'

test_expect_success GIT '-u, a changed file in that directory: "not uptodate", nothing changed' '
	wt_both "mkdir -p p/f && echo x >p/f/x && git add p/f/x && echo mod >p/f/x" -u --prefix=p/ $(cat t.tree) &&
	same_result &&
	echo "error: Entry '"'"'p/f/x'"'"' not uptodate. Cannot merge." >expect &&
	test_cmp expect dirc.err &&
	state_unchanged
'

test_expect_success GIT '-u, an untracked file in that directory: "would lose untracked files", nothing changed' '
	wt_both "mkdir -p p/f && echo x >p/f/x && echo u >p/f/untracked && git add p/f/x" -u --prefix=p/ $(cat t.tree) &&
	same_result &&
	echo "error: Updating '"'"'p/f'"'"' would lose untracked files in it" >expect &&
	test_cmp expect dirc.err &&
	state_unchanged
'

test_expect_success GIT '-u, a tracked file at the prefix: git calls it untracked and refuses' '
	wt_both "echo pfile >p && git add p" -u --prefix=p/ $(cat t.tree) &&
	same_result &&
	echo "error: Untracked working tree file '"'"'p'"'"' would be overwritten by merge." >expect &&
	test_cmp expect dirc.err &&
	state_unchanged &&
	wt_both "echo pfile >p && git add p" --prefix=p/ $(cat t.tree) &&
	same_result
'

test_expect_success GIT '-n -u: the same checks, nothing written' '
	wt_both "mkdir -p p/f && echo x >p/f/x && git add p/f/x && echo mod >p/f/x" -n -u --prefix=p/ $(cat t.tree) &&
	same_result &&
	state_unchanged &&
	wt_both "mkdir -p p/f && echo x >p/f/x && git add p/f/x" -n -u --prefix=p/ $(cat t.tree) &&
	same_result &&
	state_unchanged
'

test_done
