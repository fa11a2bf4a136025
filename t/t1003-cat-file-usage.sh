#!/bin/sh
test_description='cat-file: usage errors in git'"'"'s order, words and exit codes

Every combination runs with git and with dirc in the same repository:
the exit code, stdout and the first line of stderr must be equal (the
usage text that follows names "git" or "dirc" and is not compared).
Errors found while parsing (two modes, two batch options) print only the
error line, as git does; the others print "fatal: <msg>", a blank line
and the usage.  Nothing is written to the repository.'
. ./test-lib.sh
INTEROP_STATE=none
. "$TEST_DIRECTORY"/lib-interop.sh

# like_git ARGS...: run cat-file ARGS (stdin empty) with both; same exit
# code, same stdout, same first line of stderr (a bare usage names its
# program); a 129 from a check done after parsing prints a blank line and
# the usage after it, as git.  The lines are read by the shell itself
# (no process per line: this runs two hundred times).
like_git () {
	interop_run cat-file "$@" &&
	test_cmp_codes git.code dirc.code &&
	test_cmp git.out dirc.out &&
	lg_git= && lg_dirc= && lg_2= && lg_3= &&
	{ IFS= read -r lg_git || :; } <git.err &&
	case $lg_git in
	"usage: git "*) lg_git="usage: dirc ${lg_git#usage: git }" ;;
	esac &&
	cmdmode_msg_now "$lg_git" &&
	lg_git=$cmdmode_now &&
	{
		{ IFS= read -r lg_dirc || :; } &&
		{ IFS= read -r lg_2 && lg_has2=t || lg_has2=; } &&
		{ IFS= read -r lg_3 || :; }
	} <dirc.err &&
	if test "x$lg_git" != "x$lg_dirc"
	then
		printf "first line of stderr differs:\n git: %s\ndirc: %s\n" \
			"$lg_git" "$lg_dirc" >&2
		return 1
	fi &&
	read -r lg_code <git.code &&
	case $lg_git in
	"fatal: "*)
		if test "$lg_code" = 129
		then
			if test -z "$lg_has2" || test -n "$lg_2"
			then
				echo "dirc: no blank line after the fatal message" >&2
				return 1
			fi &&
			case $lg_3 in
			"usage: dirc cat-file "*) ;;
			*)	echo "dirc: line 3 is not the usage: $lg_3" >&2
				return 1 ;;
			esac
		fi ;;
	esac
}

# usage_like_git CODE ARGS...: like_git, and the code is CODE.
usage_like_git () {
	ul_code=$1 &&
	shift &&
	like_git "$@" &&
	echo "$ul_code" >expect.code &&
	test_cmp_codes expect.code dirc.code
}

test_expect_success GIT 'setup' '
	echo content >file &&
	git add file &&
	test_tick &&
	git commit -q -m one &&
	find .git -type f | sort | xargs cat | git hash-object --stdin >repo.before
'

test_expect_success GIT 'two modes: "options '"'"'-p'"'"' and '"'"'-e'"'"' cannot be used together" (git 2.55), 129, not the last one winning' '
	for modes in "-e -p" "-p -t" "-t -s" "-s -e" "-s --textconv" \
		"--textconv --filters" "--filters -p" "--batch-all-objects -e" \
		"-e --batch-all-objects" "--textconv --batch-all-objects" \
		"--batch-all-objects --textconv" "-ep" "-pt HEAD"
	do
		usage_like_git 129 $modes HEAD || return 1
	done &&
	echo "error: options '"'"'-p'"'"' and '"'"'-e'"'"' cannot be used together" >expect &&
	test_expect_code 129 dirc cat-file -e -p HEAD 2>err.raw >out &&
	test_must_be_empty out &&
	test_cmp expect err.raw
'

test_expect_success GIT 'the same mode twice is one mode, as in git' '
	for modes in "-e -e" "-p -p" "-t -t" "-s -s"
	do
		usage_like_git 0 $modes HEAD || return 1
	done &&
	usage_like_git 0 --textconv --textconv HEAD:file &&
	usage_like_git 0 --batch-all-objects --batch-all-objects --batch-check
'

test_expect_success GIT 'two batch options: "only one batch option may be specified"' '
	for b in "--batch --batch-check" "--batch --batch" \
		"--batch-check --batch-command" "--batch=x --batch-command=y"
	do
		usage_like_git 129 $b || return 1
	done
'

test_expect_success GIT '--path needs --textconv or --filters, whatever else is given' '
	for rest in "--batch" "--batch-check" "--batch-command" "-e HEAD" \
		"-p HEAD" "HEAD" "blob HEAD" "" "--buffer" "--batch a" \
		"--batch -p" "-p a b c"
	do
		usage_like_git 129 --path=foo $rest || return 1
	done
'

test_expect_success GIT 'a single-object mode with a batch' '
	for m in -e -p -t -s
	do
		for b in --batch --batch-check --batch-command
		do
			usage_like_git 129 $m $b &&
			usage_like_git 129 $b $m &&
			usage_like_git 129 $m $b HEAD || return 1
		done || return 1
	done &&
	usage_like_git 129 -e --batch --follow-symlinks
'

test_expect_success GIT 'batch-only options without a batch, in git'"'"'s order' '
	for o in --buffer --no-buffer --follow-symlinks --batch-all-objects -z \
		"--buffer --follow-symlinks" "--follow-symlinks --buffer" \
		"-z --buffer" "--batch-all-objects -z" "--batch-all-objects --buffer" \
		"-z --follow-symlinks" "--batch-all-objects --follow-symlinks"
	do
		usage_like_git 129 $o &&
		usage_like_git 129 $o commit HEAD &&
		usage_like_git 129 -p $o HEAD &&
		usage_like_git 129 --textconv $o HEAD:file || return 1
	done
'

test_expect_success GIT 'a batch takes no arguments (except with --textconv/--filters, as git)' '
	usage_like_git 129 --batch HEAD &&
	usage_like_git 129 --batch-check blob HEAD &&
	usage_like_git 129 --batch-command HEAD &&
	usage_like_git 129 --batch-all-objects --batch HEAD &&
	usage_like_git 129 --batch --follow-symlinks HEAD &&
	usage_like_git 0 --batch --textconv HEAD &&
	usage_like_git 0 --batch-check --filters a b
'

test_expect_success GIT 'argument counts: required, too many, <type> <object>' '
	for m in -e -p -t -s --textconv --filters
	do
		usage_like_git 129 $m &&
		usage_like_git 129 $m one two three || return 1
	done &&
	usage_like_git 129 --textconv --path=file &&
	usage_like_git 129 --textconv --path=file a b &&
	usage_like_git 129 blob &&
	usage_like_git 129 blob HEAD HEAD &&
	usage_like_git 129 &&
	usage_like_git 129 --allow-unknown-type &&
	usage_like_git 129 --unordered &&
	usage_like_git 129 --allow-unknown-type -p a b
'

test_expect_success GIT 'options git accepts quietly, and unknown ones' '
	usage_like_git 0 --unordered -p HEAD &&
	usage_like_git 0 --no-follow-symlinks -p HEAD &&
	usage_like_git 0 --no-unordered -p HEAD &&
	usage_like_git 0 --no-path -p HEAD &&
	usage_like_git 0 -t --no-allow-unknown-type HEAD &&
	usage_like_git 0 --allow-unknown-type --batch-check &&
	usage_like_git 0 --batch-all-objects --batch-command &&
	usage_like_git 129 --no-textconv -p HEAD &&
	usage_like_git 129 --no-batch-all-objects -p HEAD &&
	usage_like_git 129 --no-batch &&
	usage_like_git 129 --no-z &&
	usage_like_git 129 --bogus &&
	usage_like_git 129 -x HEAD
'

test_expect_success GIT '--allow-unknown-type with anything but -t/-s: fatal, 128' '
	for m in "-e HEAD" "-p HEAD" "blob HEAD" "--textconv HEAD:file" \
		"-e nosuch" "bogus nosuch"
	do
		usage_like_git 128 --allow-unknown-type $m || return 1
	done
'

test_expect_success GIT 'nothing was written to the repository' '
	find .git -type f | sort | xargs cat | git hash-object --stdin >repo.after &&
	test_cmp repo.before repo.after
'

test_done
