#!/bin/sh
test_description='ls-files with ignore rules: -o, -i, -c, --directory

The option combinations git'\''s t3001 and t3003 use, and more, each run
by git ls-files and dirc ls-files from the same state: --exclude (-x),
--exclude-from (-X), --exclude-per-directory, --exclude-standard, in
different orders (which decides between sources); -i with -o, with -c,
with -o -c, with -t; --directory and --no-empty-directory over excluded,
partly excluded and empty directories; an excluded directory with a
negated file in it; CRLF pattern files; nested .gitignore files read
from a subdirectory; core.excludesFile; pathspecs.  And the bad uses:
-i without -o or -c, -i without any rule, a missing or unreadable
--exclude-from file (git'\''s messages and exit codes).'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-ls-files.sh

test_expect_success GIT 'setup: t3001'\''s tree, and more' '
	git init -q w &&
	(
		cd w &&
		mkdir -p one/two three l1/l2 empty/deeper untr/ig "sp ace" &&
		for dir in . one one/two three
		do
			: >$dir/a.1 && : >$dir/a.2 && : >$dir/a.3 &&
			: >$dir/a.4 || return 1
		done &&
		: >three/a.3a && : >three/a.3b && : >three/a.3c &&
		: >l1/l2/l1 && : >l1/x && : >untr/ig/f.o && : >untr/keep &&
		: >"sp ace/x.o" && : >tracked.o && : >one/tracked &&
		echo a.1 >.gitignore &&
		echo a.2 >one/.gitignore &&
		printf "%s\r\n" "a.3" "!a.4" >one/two/.gitignore &&
		echo "*.o" >.git/info/exclude &&
		echo "a.4" >exclude-file &&
		printf "%s\r\n" "a.3" >crlf-file &&
		echo "!one/a.4" >neg-file &&
		echo a.1 >per-dir &&
		echo "!a.1" >one/per-dir &&
		git update-index --add tracked.o one/tracked one/a.1
	)
'

test_expect_success GIT 'exclude options, alone and together' '
	cat >sets <<-\EOF &&
	w|-o|--exclude=*.1
	w|-o|-x|*.1|-x|!one/*
	w|-o|--exclude=one/
	w|-o|--exclude=one/two/
	w|-o|--exclude=two/
	w|-o|--exclude=one/a.1/
	w|-o|--exclude=a.*|--exclude=!a.1
	w|-o|--exclude=one|--exclude=!one/a.1
	w|-o|--exclude=!one|--exclude=one/a.1
	w|-o|--exclude=/three/a.3[abc]
	w|-o|-i|--exclude=/three/a.3[abc]
	w|-o|-i|--exclude=**/a.1
	w|-o|-i|--directory|--exclude=**/a.1
	w|-o|-i|--exclude=one**a.1
	w|-o|-i|--exclude=one**a.1|--directory
	w|-o|--exclude-per-directory=.gitignore
	w|-o|--exclude-per-directory=per-dir
	w|-o|--exclude-per-directory=per-dir|--exclude-standard
	w|-o|--exclude-standard|--exclude-per-directory=per-dir
	w|-o|--exclude-from=exclude-file
	w|-o|-X|crlf-file
	w|-o|-X|exclude-file|-X|neg-file
	w|-o|-X|neg-file|-X|exclude-file
	w|-o|--exclude-standard|-X|neg-file
	w|-o|-X|neg-file|--exclude-standard
	w|-o|--exclude-standard|--exclude=!*.1
	w|-o|--exclude-standard
	w|-o|--exclude-standard|--directory
	w|-o|--exclude-standard|--directory|--no-empty-directory
	w|-o|-i|--exclude-standard
	w|-o|-i|--exclude-standard|--directory
	w|-o|-i|--exclude-standard|--directory|--no-empty-directory
	w|-c|-i|--exclude-standard
	w|-c|-i|--exclude=*.o
	w|-o|-c|-i|--exclude-standard
	w|-o|-c|-i|-t|--exclude-standard
	w|-m|-c|-i|--exclude-standard
	w|-o|-i|--exclude=l1|--directory
	w|-o|-i|--exclude=l1|--directory|--no-empty-directory
	w|-o|-i|--exclude=empty|--directory
	w|-o|-i|--exclude=empty|--directory|--no-empty-directory
	w|-o|-i|--exclude=deeper|--directory
	w|-o|-i|--exclude=deeper|--directory|--no-empty-directory
	w|-o|--exclude=ig|--directory
	w|-o|-i|--exclude=ig|--directory
	w|-o|-i|--exclude=*.o|--directory
	w|-o|-i|--exclude=*.o|--directory|--no-empty-directory
	w|-o|-z|--exclude-standard
	w|-o|--exclude-standard|one
	w|-o|--exclude-standard|one/two/a.3
	w|-o|-i|--exclude-standard|one/two/a.3
	w|-o|-i|--exclude-standard|--directory|untr
	w/one|-o|--exclude-standard
	w/one/two|-o|--exclude-standard
	w/one|-o|-i|--exclude-standard
	w/l1/l2|-o|--exclude-standard
	w/one|-o|-X|exclude-file
	EOF
	each_both sets &&
	test "$(cat rounds)" = 57
'

test_expect_success GIT 'the same through the parallel walk (forced on a small tree)' '
	DIRC_PARALLEL_WALK_MIN=0 DIRC_THREADS=4 &&
	export DIRC_PARALLEL_WALK_MIN DIRC_THREADS &&
	test_when_finished "unset DIRC_PARALLEL_WALK_MIN DIRC_THREADS" &&
	each_both sets &&
	test "$(cat rounds)" = 57
'

test_expect_success GIT 'core.excludesFile and the XDG default' '
	echo "a.3" >global &&
	git -C w config core.excludesFile ../global &&
	cat >sets <<-\EOF &&
	w|-o|--exclude-standard
	w|-o|-i|--exclude-standard
	EOF
	each_both sets &&
	git -C w config --unset core.excludesFile &&
	mkdir -p .config/git &&
	echo "a.2" >.config/git/ignore &&
	each_both sets &&
	test "$(cat rounds)" = 2
'

test_expect_success GIT 'a skip-worktree .gitignore missing from the work tree is read from the index' '
	git -C w update-index --add .gitignore one/.gitignore &&
	git -C w update-index --skip-worktree .gitignore one/.gitignore &&
	mv w/one/.gitignore one-gitignore &&
	test_when_finished "mv one-gitignore w/one/.gitignore" &&
	cat >sets <<-\EOF &&
	w|-o|--exclude-standard
	w|-o|-i|--exclude-per-directory=.gitignore
	w|-c|-i|--exclude-standard
	EOF
	each_both sets &&
	test "$(cat rounds)" = 3 &&
	INTEROP_STATE=none compare_with_git -C w check-ignore -v -n one/a.2 a.1
'

test_expect_success GIT 'bad uses: messages and exit codes as git' '
	cat >sets <<-\EOF &&
	w|-i
	w|-i|--exclude-standard
	w|-o|-i
	w|-c|-i
	w|-d|-i|--exclude-standard
	w|-o|-X|no-such-file
	w|-o|--exclude-from=no-such-file
	w|-o|-X|one
	w|-o|--exclude
	w|-o|--exclude-per-directory
	w|-o|--no-exclude-per-directory
	w|-o|--exclude-standard|--no-exclude-per-directory
	w|-o|-i|--exclude-standard|--no-exclude-per-directory
	w|-o|--exclude-standard|--no-exclude
	EOF
	each_both sets &&
	test "$(cat rounds)" = 14 &&
	for opt in --no-exclude-standard --no-exclude-from
	do
		test_expect_code 129 dirc -C w ls-files -o $opt >out 2>err &&
		test_grep "^error: unknown option .${opt#--}." err || return 1
	done
'

test_expect_success GIT,UNPRIV 'an unreadable --exclude-from file' '
	echo "*.1" >w/locked &&
	chmod 000 w/locked &&
	test_when_finished "chmod 644 w/locked" &&
	{
		(cd w && run_unpriv dirc ls-files -o -X locked) >out 2>err
		echo $? >code
	} &&
	echo 128 >expect &&
	test_cmp expect code &&
	cat >expect <<-\EOF &&
	warning: unable to access '\''locked'\'': Permission denied
	fatal: cannot use locked as an exclude file
	EOF
	test_cmp expect err
'

test_done
