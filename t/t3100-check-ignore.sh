#!/bin/sh
test_description='check-ignore: the ignore rules, as git check-ignore applies them

Every source (nested .gitignore files, info/exclude, core.excludesFile and
its default under $XDG_CONFIG_HOME and $HOME), their order, negation,
directory-only and anchored patterns, "**", escapes and trailing spaces,
an excluded directory that hides everything below it, tracked paths,
--no-index, -q, -v, -n, -z, --stdin (quoted lines), from a
subdirectory, core.ignoreCase; and the bad uses: git'\''s messages and exit
codes (no path, -q with several, -q with -v, -n without -v, --stdin with
paths, -z without --stdin, a path outside the repository, pathspec magic,
a bare repository, an unreadable or symlinked .gitignore).'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh

INTEROP_STATE=none

test_expect_success GIT 'setup' '
	git init -q w &&
	(
		cd w &&
		mkdir -p a/b/c d/e sub "sp ace" build/deep &&
		: >a/x.o && : >a/b/y.o && : >a/b/c/z.c && : >d/e/f &&
		: >top.o && : >keep.o && : >"sp ace/q r" && : >build/deep/o &&
		: >"#hash" && : >"!bang" && : >"tr " && : >Mixed.TXT &&
		: >sub/tracked.o &&
		cat >.gitignore <<-\EOF &&
		# a comment
		*.o
		!keep.o
		/build/
		\#hash
		\!bang
		tr\ 
		d/**/f
		*.txt
		sp ace/
		EOF
		printf "%s\n" "!a/b/y.o" "z.c  " >a/.gitignore &&
		printf "%s\r\n" "c/" >a/b/.gitignore &&
		echo "Mixed*" >.git/info/exclude &&
		git update-index --add sub/tracked.o
	)
'

while read -r args
do
	test_expect_success GIT "check-ignore $args" '
		# shellcheck disable=SC2086
		compare_with_git -C w check-ignore $args
	'
done <<\EOF
top.o
keep.o
-v keep.o
-v -n keep.o top.o nothing
a/x.o a/b/y.o a/b/c/z.c a/b/c
-v a/b/c/z.c a/b/c a/b/c/
-v build build/ build/deep build/deep/o
-v #hash !bang tr  tr
-v d/e/f d/f d/x/y/f
-v sp ace/q r
-v sub/tracked.o sub
-v --no-index sub/tracked.o
-v Mixed.TXT mixed.txt
-q top.o
-q nothing
-v -n no/such/path.o no/such
-v .
-v :/top.o
EOF

test_expect_success GIT 'paths with spaces and from a subdirectory' '
	compare_with_git -C w check-ignore -v "sp ace/q r" "tr " &&
	compare_with_git -C w/a check-ignore -v -n x.o b/y.o ../top.o ../keep.o
'

test_expect_success GIT '--stdin, -z, quoted lines' '
	printf "%s\n" top.o keep.o "\"a/\\170.o\"" nothing a/b/c >in &&
	compare_with_git -C w -i in check-ignore --stdin &&
	compare_with_git -C w -i in check-ignore -v -n --stdin &&
	printf "%s\0" top.o keep.o "sp ace/q r" nothing >inz &&
	compare_with_git -C w -i inz check-ignore -z --stdin &&
	compare_with_git -C w -i inz check-ignore -z -v -n --stdin
'

test_expect_success GIT 'core.excludesFile, the XDG default, the order of the files' '
	echo "global*" >w/global-ignore &&
	: >w/global1 &&
	mkdir -p xdg/git home/.config/git &&
	echo "xdg*" >xdg/git/ignore &&
	echo "home*" >home/.config/git/ignore &&
	echo "!global2" >>w/.git/info/exclude &&
	(
		HOME=$TRASH_DIRECTORY/home && export HOME &&
		compare_with_git -C w check-ignore -v -n home1 xdg1 global1 global2 &&
		XDG_CONFIG_HOME=$TRASH_DIRECTORY/xdg && export XDG_CONFIG_HOME &&
		compare_with_git -C w check-ignore -v -n home1 xdg1 global1 &&
		git -C w config core.excludesFile global-ignore &&
		compare_with_git -C w check-ignore -v -n home1 xdg1 global1 global2 &&
		git -C w config core.excludesFile "~/.config/git/ignore" &&
		compare_with_git -C w check-ignore -v -n home1 xdg1 global1
	) &&
	git -C w config --unset core.excludesFile
'

test_expect_success GIT 'core.ignoreCase' '
	git -C w config core.ignoreCase true &&
	compare_with_git -C w check-ignore -v -n TOP.O Keep.O mixed.txt BUILD/x &&
	git -C w config core.ignoreCase false
'

test_expect_success GIT 'bad uses: git'\''s messages and exit codes' '
	fails_like_git 128 "fatal: no path specified" -C w check-ignore &&
	fails_like_git 128 "fatal: --quiet is only valid with a single pathname" \
		-C w check-ignore -q a b &&
	fails_like_git 128 "fatal: cannot have both --quiet and --verbose" \
		-C w check-ignore -q -v a &&
	fails_like_git 128 "fatal: --non-matching is only valid with --verbose" \
		-C w check-ignore -n a &&
	fails_like_git 128 "fatal: cannot specify pathnames with --stdin" \
		-C w check-ignore --stdin a &&
	fails_like_git 128 "fatal: -z only makes sense with --stdin" \
		-C w check-ignore -z a &&
	interop_run -C w check-ignore ../outside &&
	same_result &&
	echo 128 >expect && test_cmp expect dirc.code &&
	interop_run -C w check-ignore ":(glob)*.o" &&
	same_result &&
	interop_run -C w check-ignore --bogus &&
	test_cmp git.code dirc.code &&
	sed "s/dirc check-ignore/git check-ignore/" dirc.err >dirc.err.git &&
	test_cmp git.err dirc.err.git &&
	echo 129 >expect && test_cmp expect dirc.code &&
	printf "\"unterminated\n" >badq &&
	interop_run -C w -i badq check-ignore --stdin &&
	same_result &&
	echo 128 >expect && test_cmp expect dirc.code
'

test_expect_success GIT 'a bare repository' '
	git init -q --bare bare.git &&
	interop_run -C bare.git check-ignore x &&
	same_result &&
	echo 128 >expect && test_cmp expect dirc.code
'

test_expect_success GIT,SYMLINKS 'a symlinked .gitignore is not followed' '
	mkdir -p w/ln &&
	echo "*.o" >target-ignore &&
	ln -s "$TRASH_DIRECTORY/target-ignore" w/ln/.gitignore &&
	compare_with_git -C w check-ignore -v -n ln/x.o ln/y
'

test_expect_success GIT,UNPRIV 'an unreadable .gitignore: a warning, and it is skipped' '
	mkdir -p w/locked &&
	echo "*.x" >w/locked/.gitignore &&
	chmod 000 w/locked/.gitignore &&
	test_when_finished "chmod 644 w/locked/.gitignore" &&
	{
		(cd w && run_unpriv git -c safe.directory="*" check-ignore \
			-v -n locked/a.x top.o) >git.out 2>git.err
		echo $? >git.code
	} &&
	{
		(cd w && run_unpriv dirc check-ignore -v -n locked/a.x top.o) \
			>dirc.out 2>dirc.err
		echo $? >dirc.code
	} &&
	same_result &&
	test_grep "unable to access .locked/.gitignore." dirc.err
'

test_done
