#!/bin/sh
test_description='every command with no arguments, and with an unknown option

For each command git also has: the exit code and which of stdout and
stderr get something are git'"'"'s, with no arguments and with
--no-such-option (whose first line of stderr is git'"'"'s too).  Each runs
in its own copy of a small repository, standard input empty.'
. ./test-lib.sh

test_expect_success GIT 'setup: a repository with a commit' '
	git init -q tmpl &&
	echo a >tmpl/a &&
	git -C tmpl add a &&
	git -C tmpl commit -q -m one &&
	# the commands, as "dirc-name git-name"
	cat >commands <<-\EOF
	cat-file cat-file
	check-attr check-attr
	check-ignore check-ignore
	checkout-index checkout-index
	commit-tree commit-tree
	count-objects count-objects
	diff-files diff-files
	diff-index diff-index
	diff-tree diff-tree
	hash-object hash-object
	help help
	init init
	ls-files ls-files
	ls-tree ls-tree
	merge-index merge-index
	mktree mktree
	read-tree read-tree
	rev-parse rev-parse
	symbolic-ref symbolic-ref
	update-cache update-index
	update-index update-index
	update-ref update-ref
	verify-pack verify-pack
	version version
	write-tree write-tree
	EOF
'

# run PROG CMD ARGS...: in a fresh copy of tmpl; "<code> <out> <err>"
# (out and err: "-" when empty, "+" when not) into PROG.res.
run () {
	prog=$1 &&
	shift &&
	rm -rf "run.$prog" &&
	cp -R tmpl "run.$prog" &&
	(
		cd "run.$prog" &&
		"$prog" "$@" </dev/null >../$prog.out 2>../$prog.err
		echo $? >../$prog.code
	) &&
	o=- e=- &&
	if test -s $prog.out; then o=+; fi &&
	if test -s $prog.err; then e=+; fi &&
	echo "$(cat $prog.code) $o $e" >$prog.res
}

test_expect_success GIT 'no arguments: git'"'"'s exit code and streams' '
	while read -r d g
	do
		run git $g &&
		run dirc $d &&
		test_cmp git.res dirc.res || {
			echo "^^^ $d with no arguments" >&2
			return 1
		}
	done <commands
'

test_expect_success GIT 'an unknown option: git'"'"'s exit code, streams and first message' '
	while read -r d g
	do
		run git $g --no-such-option &&
		run dirc $d --no-such-option &&
		test_cmp git.res dirc.res &&
		# a usage line: its first three words
		head -n 1 git.err | sed -e "s/git/dirc/g" \
			-e "s/^\(usage: [^ ]* [^ ]*\) .*/\1/" >git.first &&
		head -n 1 dirc.err | sed -e "s/$d/$g/g" -e "s/usage: git/usage: dirc/" \
			-e "s/^\(usage: [^ ]* [^ ]*\) .*/\1/" >dirc.first &&
		test_cmp git.first dirc.first || {
			echo "^^^ $d --no-such-option" >&2
			return 1
		}
	done <commands
'

test_expect_success GIT 'commit-tree with no arguments: the usage, 129, as git' '
	(
		cd tmpl &&
		test_expect_code 129 dirc commit-tree >../out 2>../err
	) &&
	test_must_be_empty out &&
	test_grep "^usage: dirc commit-tree " err &&
	(
		cd tmpl &&
		test_expect_code 128 dirc commit-tree -m x 2>../err
	) &&
	echo "fatal: must give exactly one tree" >expect &&
	test_cmp expect err
'

test_done
