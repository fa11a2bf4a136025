#!/bin/sh
test_description='ls-files: pathspecs read and matched as git reads them

Pathspec magic (:(top), :/, :(literal), :(glob), :(icase), :(exclude),
:!, :^, :(prefix:N)), the global pathspec settings (--literal-pathspecs
and the other options, GIT_*_PATHSPECS), git'"'"'s errors for bad magic
and bad settings, attr magic refused, and the oddities of git'"'"'s
matching that a command shows: --error-unmatch and unmerged stages,
exclusions and the common prefix.  Every case runs git ls-files and dirc
ls-files from the same state and compares exit code, stdout and stderr.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-ls-files.sh

test_expect_success GIT 'setup: files, an unmerged path, resolve-undo' '
	git init -q w &&
	(
		cd w &&
		mkdir -p a/b d/e e sub "x[1]" A &&
		for f in a/b/f1 a/f2 d/e/g.c d/h.c e/x top.c Top.C "x[1]/y" \
			A/up "a*" ab a-b a.b "sp ace" sub/s.c
		do
			printf "%s\n" "$f" >"$f" || exit 1
		done &&
		git add . &&
		blob=$(git hash-object -w top.c) &&
		printf "100644 %s %d\tconf\n" $blob 1 $blob 2 $blob 3 >info &&
		printf "100644 %s %d\te/r\n" $blob 1 $blob 2 >>info &&
		git update-index --index-info <info &&
		rm info &&
		echo r >e/r &&
		git update-index --add e/r
	) &&
	git -C w ls-files --resolve-undo >reuc &&
	test_line_count = 2 reuc
'

test_expect_success GIT '--literal-pathspecs and its variable: no globbing (was ignored)' '
	(
		cd w &&
		git --literal-pathspecs ls-files "a*" >../git.out &&
		dirc --literal-pathspecs ls-files "a*" >../dirc.out
	) &&
	echo "a*" >expect &&
	test_cmp expect dirc.out &&
	test_cmp git.out dirc.out &&
	GIT_LITERAL_PATHSPECS=1 ls_both w "a*" &&
	GIT_LITERAL_PATHSPECS=1 ls_both w ":(glob)a*" ":!top.c" &&
	GIT_LITERAL_PATHSPECS=true ls_both w -s "a*" "x[1]/y" &&
	GIT_LITERAL_PATHSPECS=0 ls_both w "a*" &&
	GIT_LITERAL_PATHSPECS= ls_both w "a*"
'

test_expect_success GIT 'the other global pathspec options and variables' '
	for opt in --glob-pathspecs --noglob-pathspecs --icase-pathspecs
	do
		for ps in "*" "a*" "d/*" "d/**/g.c" ":(literal)a*" ":(glob)a*" \
			"TOP.C" ":(icase)top.c"
		do
			(
				cd w &&
				git $opt ls-files "$ps" >../git.out 2>../git.err
				echo $? >../git.code
				dirc $opt ls-files "$ps" >../dirc.out \
					2>../dirc.err
				echo $? >../dirc.code
			) &&
			test_cmp_codes git.code dirc.code &&
			test_cmp git.out dirc.out &&
			test_cmp git.err dirc.err || return 1
		done || return 1
	done &&
	GIT_GLOB_PATHSPECS=1 ls_both w "*" &&
	GIT_GLOB_PATHSPECS=on ls_both w "**/*.c" &&
	GIT_NOGLOB_PATHSPECS=1 ls_both w "a*" ":(glob)d/*" &&
	GIT_ICASE_PATHSPECS=1 ls_both w "TOP.C" "a/B" &&
	GIT_ICASE_PATHSPECS=1 GIT_NOGLOB_PATHSPECS=1 ls_both w "A*"
'

test_expect_success GIT 'global settings: git'"'"'s errors, in git'"'"'s order' '
	cat >env.sets <<-\EOF &&
	GIT_GLOB_PATHSPECS=1 GIT_NOGLOB_PATHSPECS=1
	GIT_LITERAL_PATHSPECS=1 GIT_GLOB_PATHSPECS=1
	GIT_LITERAL_PATHSPECS=1 GIT_ICASE_PATHSPECS=1
	GIT_LITERAL_PATHSPECS=1 GIT_NOGLOB_PATHSPECS=1
	GIT_LITERAL_PATHSPECS=bogus
	GIT_GLOB_PATHSPECS=bogus GIT_ICASE_PATHSPECS=bogus
	GIT_GLOB_PATHSPECS=1 GIT_NOGLOB_PATHSPECS=1 GIT_ICASE_PATHSPECS=bogus
	GIT_NOGLOB_PATHSPECS=bogus GIT_GLOB_PATHSPECS=1
	GIT_LITERAL_PATHSPECS=1 GIT_NOGLOB_PATHSPECS=bogus
	GIT_LITERAL_PATHSPECS=1 GIT_ICASE_PATHSPECS=bogus
	GIT_ICASE_PATHSPECS=2
	EOF
	n=0 &&
	while read -r sets
	do
		for ps in "x" ":(literal,glob)x" ":(foo)x"
		do
			# shellcheck disable=SC2086
			env $sets sh -c "cd w && git ls-files \"\$1\"" - "$ps" \
				>git.out 2>git.err
			echo $? >git.code
			# shellcheck disable=SC2086
			env $sets sh -c "cd w && dirc ls-files \"\$1\"" - "$ps" \
				>dirc.out 2>dirc.err
			echo $? >dirc.code
			test_cmp_codes git.code dirc.code &&
			test_cmp git.out dirc.out &&
			test_cmp git.err dirc.err || return 1
			n=$((n + 1))
		done || return 1
	done <env.sets &&
	test $n = 33 &&
	# no argument, no pathspec read: no error
	GIT_GLOB_PATHSPECS=1 GIT_NOGLOB_PATHSPECS=1 ls_both w &&
	GIT_LITERAL_PATHSPECS=bogus ls_both w
'

test_expect_success GIT 'magic: git'"'"'s messages for bad magic and bad paths' '
	cat >bad.sets <<-\EOF &&
	w|:(foo)x
	w|:(top
	w|:(exclude
	w|:(  top)a
	w|:(TOP)a
	w|:(top,foo
	w|:(literal,glob)a
	w|:(glob,literal)a
	w|:#x
	w|:%a
	w|:-a
	w|:~a
	w|:@a
	w|:,a
	w|:!#a
	w|:(prefix:x)a
	w|:(prefix:1x)a
	w||a
	w|:(foo)x||
	w|../x
	w/d|../../x
	w/d|:(top)a|../../x
	w|/tmp
	EOF
	each_both bad.sets &&
	test "$(cat rounds)" = 23
'

test_expect_success GIT 'magic: what each one matches, from the top and below' '
	cat >magic.sets <<-\EOF &&
	w|:(top)a
	w|:/a
	w|:/
	w|:
	w|::a
	w|:/:a
	w|:abc
	w|:(top,,)a
	w|:(,top)a
	w|:()a
	w|:(literal)a*
	w|:(glob)a*
	w|:(glob)**/g.c
	w|:(glob)d/**
	w|:(glob)d**/g.c
	w|:(glob)*/*.c
	w|*/*.c
	w|:(icase)TOP.C
	w|:(icase)a/F*
	w|:(glob,icase)A/*
	w|:(exclude)a
	w|:!a*
	w|:^d|:!top.c
	w|:!/a
	w|:(top,exclude)d
	w|:(exclude)
	w|x[1]/y
	w|x\[1\]/y
	w|:(literal)x[1]/y
	w|*y
	w|sp ace
	w|./a/../d/./e
	w|:/./a
	w|:/d/../a
	w/d|:(top)a
	w/d|:/a|:(top)d/h.c
	w/d|:/../a
	w/d|:!h.c
	w/d|:(icase)H.C
	w/d|:(icase)../TOP.C
	w/d|..
	w/d|../*.c
	w/d|:(exclude)e|..
	w/d/e|:!x|../..
	w|:(prefix:1)a/f2
	w|:(prefix:0)top.c
	EOF
	each_both magic.sets &&
	test "$(cat rounds)" = 46 &&
	ls_both w "$(pwd)/w/top.c" &&
	ls_both w/d "$(pwd)/w/d" &&
	ls_both w/d -s "$(pwd)/w"
'

test_expect_success GIT 'attr magic is refused clearly (dirc has no attributes)' '
	(
		cd w &&
		test_expect_code 128 dirc ls-files ":(attr:foo)a" 2>../err &&
		test_expect_code 128 dirc ls-files ":(attr)a" 2>../err2
	) &&
	test_grep "^fatal: :(attr:foo)a: pathspec magic not supported by dirc: .attr." err &&
	test_grep "attributes are not implemented" err2
'

test_expect_success GIT ':(prefix:N) that git aborts on is refused cleanly' '
	(
		cd w/d &&
		test_expect_code 128 dirc ls-files ":(prefix:1)h.c" 2>../../err
	) &&
	test_grep "^fatal: :(prefix:1)h.c: pathspec magic .prefix. must name" err &&
	(
		cd w &&
		test_expect_code 128 dirc ls-files ":(prefix:9)d/e" 2>../err
	) &&
	test_grep "must name a part of the path" err
'

test_expect_success GIT '--error-unmatch: exclusions, duplicates, stages' '
	cat >unmatch.sets <<-\EOF &&
	w|--error-unmatch|nosuch
	w|--error-unmatch|nosuch|nosuch
	w|--error-unmatch|top.c|top.c|nosuch
	w|--error-unmatch|:!a*|nosuch
	w|--error-unmatch|:!a*
	w|--error-unmatch|:(exclude)nosuch
	w|--error-unmatch|-s|conf
	w|--error-unmatch|conf|conf
	w|--error-unmatch|-s|conf|:!conf
	w|--error-unmatch|--deduplicate|conf
	w|--error-unmatch|-u|conf
	w|--error-unmatch|*.c|d/
	w|--error-unmatch|-m|top.c
	w/sub|--error-unmatch
	w/sub|--error-unmatch|:!s.c
	w|--error-unmatch|--resolve-undo|e/r|e/x
	EOF
	each_both unmatch.sets &&
	test "$(cat rounds)" = 16
'

test_expect_success GIT 'the common prefix: what git takes as matched' '
	# git compares names past the items'"'"' common directory, minus
	# its slash: resolve-undo records and exclusions show it
	cat >prefix.sets <<-\EOF &&
	w|--resolve-undo|d/r
	w|--resolve-undo|d/
	w|--resolve-undo|d/r|:!zz
	w|--resolve-undo|:!zz|d/r
	w|--resolve-undo|d/r|:!d/r
	w|d/|:!zz
	w|d/|:!z/
	w|d/|:!x
	w|d/|:!z/h.c
	w|d/|:!zzh.c
	w|d/|:!q/e
	w|a/b|:!sub/
	w|d/e/g.c|d/h.c|:!e/
	w|-s|d/e|d/h.c
	EOF
	each_both prefix.sets &&
	test "$(cat rounds)" = 14
'

test_expect_success GIT 'a failed parse leaves the index as it was' '
	cp w/.git/index index.before &&
	(
		cd w &&
		test_must_fail dirc ls-files ":(bogus)x" 2>/dev/null &&
		test_must_fail dirc ls-files "" 2>/dev/null
	) &&
	test_cmp index.before w/.git/index
'

test_done
