#!/bin/sh
test_description='ls-tree: its own pathspec rules, compared with git

ls-tree matches paths literally (no wildcards), shows a directory named
exactly without its children unless -r, walks into directories on the
way to a path (shown with -t), takes paths relative to the current
directory (names printed relative to it unless --full-name or
--full-tree; --full-tree also takes the paths from the top), and knows
no magic but top and literal.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh
. "$TEST_DIRECTORY"/lib-trees.sh

test_expect_success GIT 'setup: git'"'"'s t3100/t3101 trees, and names that sort oddly' '
	mkdir -p path2/baz path0/a/b/c path1/b/c path3 "a[a]" aa sub/dir &&
	echo Hi >path0/x &&
	echo Lo >path2/foo &&
	echo Mi >path2/baz/b &&
	ln -s ../path1 path2/bazbo &&
	echo 111 >1.txt &&
	echo 222 >2.txt &&
	echo 111 >path0/a/b/c/1.txt &&
	echo 111 >path1/b/c/1.txt &&
	echo 111 >path3/1.txt &&
	echo 222 >path3/2.txt &&
	>"a[a]/three" &&
	>aa/two &&
	>"a*" &&
	>sub/dir/f &&
	>sub/dir-x &&
	>sub/dir.y &&
	>sub/f &&
	git add . &&
	git update-index --add --cacheinfo 160000 \
		$(git hash-object -w 1.txt) sub/mod &&
	git commit -q -m one
'

# each "|"-separated group is one command line of pathspecs
SPECS='
path0|path1 path0|path0/|path2|path2/|path2/baz|path2/bak|path2/baz path2/bazbo
1.txt ./1.txt .//1.txt path3/1.txt path3/./1.txt path3 path3//
1.txt/ abc.txt path3//23.txt path3/2.txt///|pa path3/a|a[a]|a*|a?
path3 path2 path0/a/b/c path1/b/c path0/a|path0/a/b/c/1.txt
sub/mod|sub/mod/|sub/mod/x|sub/dir|sub/dir/|sub/dir/f sub/f|sub/dir-x
sub/dir.y sub/dir|.|./|..|../|../..|../path3|../sub/dir|sub
:/path3|:(top)sub/dir|:(literal)a*|:(top,literal)path3/1.txt|dir|f
dir/f|../../path2/baz|:/|:(top)
'

# the options tried, one per group and directory in turn (all of them
# over the groups), and always plain from the top
OPTS='-r|-t|-r -t|-d|-d -r|--full-name|--full-tree|-r --full-name|-t -d'

test_expect_success GIT 'every group of paths, from the top and subdirectories' '
	echo "$SPECS" | tr "|" "\n" >specs &&
	echo "$OPTS" | tr "|" "\n" >opts &&
	nopts=$(wc -l <opts) &&
	(
		set -f &&
		n=0 &&
		k=0 &&
		while read -r spec
		do
			test -n "$spec" || continue
			trees_like_git ls-tree HEAD $spec || exit 1
			n=$((n + 1)) &&
			for dir in . sub sub/dir path2
			do
				k=$((k + 1)) &&
				o=$(sed -n "$((k % nopts + 1))p" opts) &&
				trees_like_git -C $dir ls-tree $o HEAD $spec &&
				n=$((n + 1)) || exit 1
			done || exit 1
		done <specs &&
		echo $n >rounds
	) &&
	read n <rounds &&
	test $n = 210
'

test_expect_success GIT 'paths after --, and one that looks like an option' '
	trees_like_git ls-tree HEAD -- path3 &&
	trees_like_git ls-tree -r HEAD -- -r &&
	trees_like_git -C sub ls-tree --full-name HEAD -- ../ &&
	trees_code 0 &&
	trees_like_git -C sub ls-tree --full-tree HEAD -- ../ &&
	trees_code 128
'

test_expect_success GIT 'magic ls-tree does not know: git'"'"'s message, 128' '
	for spec in ":(exclude)a" ":!a" ":^a" ":(icase)path3" ":(glob)p*" \
		":(attr:x)a" ":(exclude,attr:x)a" ":(attr:x,icase,glob)a" \
		":(icase,exclude)x" ":(top,icase)a" ":!/a" ":(glob,literal)x" \
		":(foo)x" ":#x" ":(top" ""
	do
		trees_like_git ls-tree HEAD "$spec" &&
		trees_code 128 || return 1
	done &&
	trees_like_git -C sub ls-tree HEAD ":(icase)../../x" &&
	trees_code 128 &&
	trees_like_git -C sub ls-tree HEAD ":(icase)x" ../../y &&
	trees_code 128
'

test_expect_success GIT 'the environment: GIT_*_PATHSPECS' '
	GIT_ICASE_PATHSPECS=1 &&
	export GIT_ICASE_PATHSPECS &&
	trees_like_git ls-tree HEAD path3 &&
	trees_code 128 &&
	unset GIT_ICASE_PATHSPECS &&
	GIT_GLOB_PATHSPECS=1 &&
	export GIT_GLOB_PATHSPECS &&
	trees_like_git ls-tree HEAD path3 &&
	trees_code 128 &&
	unset GIT_GLOB_PATHSPECS &&
	GIT_LITERAL_PATHSPECS=1 &&
	export GIT_LITERAL_PATHSPECS &&
	trees_like_git ls-tree -r HEAD ":(top)path3" "a*" &&
	trees_code 0 &&
	unset GIT_LITERAL_PATHSPECS &&
	GIT_NOGLOB_PATHSPECS=1 &&
	export GIT_NOGLOB_PATHSPECS &&
	trees_like_git ls-tree -r HEAD "a*" path3 &&
	trees_code 0 &&
	unset GIT_NOGLOB_PATHSPECS
'

test_expect_success GIT 'outside the work tree: git'"'"'s message, 128' '
	trees_like_git ls-tree HEAD ../x &&
	trees_code 128 &&
	trees_like_git -C sub/dir ls-tree HEAD ../../../x &&
	trees_code 128 &&
	trees_like_git ls-tree HEAD "$(pwd)/path3" &&
	trees_code 0 &&
	trees_like_git ls-tree HEAD /tmp &&
	trees_code 128
'

test_done
