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

# The trees, "NAME PATH..." a line: tagged NAME, a tree of PATHs, each
# holding its name (PATH:x: content "PATH:x", the path is before the
# colon)
tree_list='O-000 a/b-2/c/d a/b/c/d a/x
A-000 a/b-2/c/d a/b/c/d a/x
A-001 a/b-2/c/d a/b/c/d a/b/c/e a/x
B-000 a/b-2/c/d a/b a/x
O-010 t-0 t/1 t/2 t=3
A-010 t-0 t t=3
B-010 t/1: t=3:
O-020 ds/dma/ioat.c ds/dma/ioat_dca.c
A-020 ds/dma/ioat/Makefile ds/dma/ioat/registers.h
DF DF
DFDF DF/DF
X-file x y
X-dir x/a x/b y
X-deep x/a/b y x.c x-d
X-mix x x.c x-d/e y'

# make_trees DIR: the trees of $tree_list in DIR's repository (a process
# costs milliseconds: one hash-object for all the blobs, one
# update-index and one write-tree a tree, one update-ref for the tags);
# mt/ holds the blobs' contents and index-info, the same for every DIR
make_trees () {
	if ! test -f mt/paths
	then
		mt_n=0 &&
		echo "$tree_list" >mt/list &&
		while read -r mt_name mt_paths
		do
			for mt_it in $mt_paths
			do
				mt_n=$((mt_n + 1)) &&
				echo "$mt_it" >mt/$mt_n &&
				echo "$TRASH_DIRECTORY/mt/$mt_n" || return 1
			done
		done <mt/list >mt/paths
	fi &&
	git -C "$1" hash-object -w --stdin-paths <mt/paths >mt/ids &&
	while read -r mt_name mt_paths
	do
		for mt_it in $mt_paths
		do
			read -r mt_id <&3 &&
			printf "100644 %s\t%s\n" $mt_id "${mt_it%%:*}" || return 1
		done >mt/$mt_name.info &&
		mt_index="$TRASH_DIRECTORY/mt/$1.$mt_name.index" &&
		GIT_INDEX_FILE=$mt_index \
			git -C "$1" update-index --index-info <mt/$mt_name.info &&
		mt_tree=$(GIT_INDEX_FILE=$mt_index git -C "$1" write-tree) &&
		echo "create refs/tags/$mt_name $mt_tree" || return 1
	done <mt/list 3<mt/ids >mt/refs &&
	git -C "$1" update-ref --stdin <mt/refs
}

# settree DIR TREE: DIR's index and work tree at TREE, clean (one
# read-tree -u from nothing: the entries and files of read-tree,
# checkout-index -a and update-index --refresh)
settree () {
	rm -rf "$1/.git/index" "$1"/* &&
	git -C "$1" read-tree --reset -u "$2"
}

# settwins TREE: settree rg TREE and settree rd TREE, one rm for both
settwins () {
	rm -rf rg/.git/index rg/* rd/.git/index rd/* &&
	git -C rg read-tree --reset -u "$1" &&
	git -C rd read-tree --reset -u "$1"
}

test_expect_success GIT 'setup: twins with the same trees' '
	git init -q rg &&
	git init -q rd &&
	mkdir mt &&
	make_trees rg &&
	make_trees rd &&
	test "$(git -C rg rev-parse A-010^{tree})" = "$(git -C rd rev-parse A-010^{tree})"
'

# both START ARGS...: index and work tree at START in both, then
# read-tree ARGS by git in rg and by dirc in rd, then same_result
both () {
	settwins $1 &&
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
	in_both "settree . X-dir && echo changed >x/a" &&
	interop_run read-tree -m -u X-dir X-file &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	state_unchanged
'

test_expect_success GIT 'a directory with an untracked file where a file must go' '
	in_both "settree . X-dir && echo mine >x/mine" &&
	interop_run read-tree -m -u X-dir X-file &&
	same_result &&
	head -n 1 dirc.err >actual &&
	echo "error: Updating '"'"'x'"'"' would lose untracked files in it" >expect &&
	test_cmp expect actual &&
	state_unchanged
'

test_expect_success GIT 'an untracked file where a directory must go' '
	in_both "settree . X-file && git update-index --force-remove x" &&
	interop_run read-tree -m -u X-file X-dir &&
	same_result &&
	state_unchanged &&
	in_both "settree . X-file && rm x && mkdir x && echo u >x/a" &&
	interop_run read-tree -m -u X-file X-dir &&
	same_result
'

test_expect_success GIT 'a staged change in the directory a file replaces: -u takes it, as git' '
	in_both "settree . X-dir && echo staged >x/a && git update-index x/a" &&
	interop_run read-tree -m X-dir X-file &&
	same_result &&
	interop_run read-tree -m -u X-dir X-file &&
	same_result
'

test_done
