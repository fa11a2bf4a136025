#!/bin/sh
test_description='read-tree -m: directory/file conflicts between the trees, the index and the work tree

Trees where one holds a file and another a directory of the same name
(t1012'"'"'s corner cases and more), merged two- and three-way, with and
without -u, from a clean index and work tree and with a directory or
file in the way: twin repositories, git in rg and dirc in rd, must end
with the same entries, work tree and diff-files, the same messages and
exit code.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-checkout.sh

INTEROP_STATE=twins
CHECKOUT_DIFF_FILES=1

# maketree NAME PATH...: tag NAME a tree of PATHs, each holding its name
# (PATH:x: content "PATH:x", the path is before the colon)
maketree () {
	mt_name=$1 &&
	shift &&
	for it
	do
		printf "100644 %s\t%s\n" \
			$(echo "$it" | git hash-object -w --stdin) "${it%%:*}" ||
		return 1
	done >tmp.info &&
	rm -f .git/tmp-index &&
	GIT_INDEX_FILE=.git/tmp-index git update-index --index-info <tmp.info &&
	git tag "$mt_name" $(GIT_INDEX_FILE=.git/tmp-index git write-tree) &&
	rm -f .git/tmp-index tmp.info
}

# settree TREE: index and work tree at TREE, clean
settree () {
	rm -f .git/index &&
	rm -rf $(ls) &&
	git read-tree "$1" &&
	git checkout-index -f -q -a &&
	git update-index -q --refresh
	:
}

trees='
	maketree O-000 a/b-2/c/d a/b/c/d a/x &&
	maketree A-000 a/b-2/c/d a/b/c/d a/x &&
	maketree A-001 a/b-2/c/d a/b/c/d a/b/c/e a/x &&
	maketree B-000 a/b-2/c/d a/b a/x &&
	maketree O-010 t-0 t/1 t/2 t=3 &&
	maketree A-010 t-0 t t=3 &&
	maketree B-010 t/1: t=3: &&
	maketree O-020 ds/dma/ioat.c ds/dma/ioat_dca.c &&
	maketree A-020 ds/dma/ioat/Makefile ds/dma/ioat/registers.h &&
	maketree DF DF &&
	maketree DFDF DF/DF &&
	maketree X-file x y &&
	maketree X-dir x/a x/b y &&
	maketree X-deep x/a/b y x.c x-d &&
	maketree X-mix x x.c x-d/e y
'

test_expect_success GIT 'setup: twins with the same trees' '
	git init -q rg &&
	git init -q rd &&
	in_both "$trees" &&
	test "$(git -C rg rev-parse A-010^{tree})" = "$(git -C rd rev-parse A-010^{tree})"
'

# both START ARGS...: index and work tree at START in both, then
# read-tree ARGS by git in rg and by dirc in rd, then same_result
both () {
	in_both "settree $1" &&
	shift &&
	interop_run read-tree "$@" &&
	same_result
}

test_expect_success GIT 't1012: three-way with -u' '
	both A-000 -m -u O-000 A-000 B-000 &&
	both A-001 -m -u O-000 A-001 B-000 &&
	both A-010 -m -u O-010 A-010 B-010 &&
	both O-020 -m -u O-020 A-020 &&
	git -C rd ls-files -s >actual &&
	test_line_count = 2 actual
'

test_expect_success GIT 'the same without -u, with -i, with --aggressive' '
	for args in "-m" "-m -i" "-m --aggressive" "-m -u --aggressive"
	do
		both A-000 $args O-000 A-000 B-000 &&
		both A-001 $args O-000 A-001 B-000 &&
		both A-010 $args O-010 A-010 B-010 &&
		both B-010 $args O-010 B-010 A-010 &&
		both O-020 $args O-020 A-020 || return 1
	done
'

test_expect_success GIT 'file to directory and back, two-way, with -u' '
	both DF -m -u DF DFDF &&
	both DFDF -m -u DFDF DF &&
	both X-file -m -u X-file X-dir &&
	both X-dir -m -u X-dir X-file &&
	both X-dir -m -u X-dir X-deep &&
	both X-deep -m -u X-deep X-mix &&
	both X-mix -m -u X-mix X-deep &&
	both X-mix -m X-mix X-dir
'

test_expect_success GIT 'every pair and triple of the X trees, with and without -u' '
	: >done &&
	for a in X-file X-dir X-deep X-mix
	do
		for b in X-file X-dir X-deep X-mix
		do
			both $a -m -u $a $b &&
			both $a -m $b $a $b &&
			both $a -m -u X-file $a $b &&
			both $b -m -u X-deep $b $a &&
			echo "$a $b" >>done || return 1
		done
	done &&
	test_line_count = 16 done
'

test_expect_success GIT 'a directory with a changed file where a file must go: not uptodate' '
	in_both "settree X-dir && echo changed >x/a" &&
	interop_run read-tree -m -u X-dir X-file &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	state_unchanged
'

test_expect_success GIT 'a directory with an untracked file where a file must go' '
	in_both "settree X-dir && echo mine >x/mine" &&
	interop_run read-tree -m -u X-dir X-file &&
	same_result &&
	head -n 1 dirc.err >actual &&
	echo "error: Updating '"'"'x'"'"' would lose untracked files in it" >expect &&
	test_cmp expect actual &&
	state_unchanged
'

test_expect_success GIT 'an untracked file where a directory must go' '
	in_both "settree X-file && git update-index --force-remove x" &&
	interop_run read-tree -m -u X-file X-dir &&
	same_result &&
	state_unchanged &&
	in_both "settree X-file && rm x && mkdir x && echo u >x/a" &&
	interop_run read-tree -m -u X-file X-dir &&
	same_result
'

test_expect_success GIT 'a staged change in the directory a file replaces: -u takes it, as git' '
	in_both "settree X-dir && echo staged >x/a && git update-index x/a" &&
	interop_run read-tree -m X-dir X-file &&
	same_result &&
	interop_run read-tree -m -u X-dir X-file &&
	same_result
'

test_done
