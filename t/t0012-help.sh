#!/bin/sh
test_description='help: the command list, manuals, "did you mean", version

"dirc <cmd> --help" and "dirc help <cmd>" run man on the installed page,
else on the source tree'"'"'s, else print -h; "dirc help -a" has the man
pages'"'"' NAME lines; a mistyped command gets git'"'"'s suggestions and
help.autoCorrect as git 2.39 reads it; "dirc version" as "git version".
A fake man program (DIRC_MAN) records how it is called.'
. ./test-lib.sh

DOC=$TEST_DIRECTORY/../Documentation

test_expect_success 'setup: a fake man that has the pages of $FAKE_MAN_HAS' '
	write_script fake-man <<-\EOF &&
	echo "MANPATH=$MANPATH" >>"$FAKE_MAN_LOG"
	echo "$*" >>"$FAKE_MAN_LOG"
	if test "$1" = -w
	then
		case " $FAKE_MAN_HAS " in
		*" $2 "*) echo "/usr/share/man/man1/$2.1.gz"; exit 0 ;;
		esac
		echo "No manual entry for $2" >&2
		exit 16
	fi
	echo "manual: $*"
	EOF
	DIRC_MAN=$PWD/fake-man &&
	FAKE_MAN_LOG=$PWD/man.args &&
	export DIRC_MAN FAKE_MAN_LOG &&
	dirc help -a >all &&
	sed -n "s/^   \([a-z-]*\)  .*/\1/p" all >names &&
	test_line_count -gt 20 names &&
	test_grep "^help$" names &&
	test_grep "^version$" names
'

test_expect_success '--help and help <cmd>: man on the installed page' '
	while read -r cmd
	do
		# the other names open the page of the first name
		case $cmd in
		init-db) page=init ;;
		update-index) page=update-cache ;;
		checkout-cache) page=checkout-index ;;
		*) page=$cmd ;;
		esac &&
		rm -f man.args &&
		FAKE_MAN_HAS="dirc-$page" dirc $cmd --help >out 2>err &&
		test_must_be_empty err &&
		echo "manual: dirc-$page" >expect &&
		test_cmp expect out &&
		FAKE_MAN_HAS="dirc-$page" dirc help $cmd >out 2>err &&
		test_must_be_empty err &&
		test_cmp expect out &&
		FAKE_MAN_HAS="dirc-$page" dirc --help $cmd >out 2>err &&
		test_cmp expect out &&
		FAKE_MAN_HAS="dirc-$page" dirc $cmd --help --bogus >out 2>err &&
		test_cmp expect out &&
		grep -v ^MANPATH= man.args >args &&
		test_write_lines "-w dirc-$page" "dirc-$page" "-w dirc-$page" \
			"dirc-$page" "-w dirc-$page" "dirc-$page" \
			"-w dirc-$page" "dirc-$page" >expect &&
		test_cmp expect args || return 1
	done <names
'

test_expect_success 'man finds the installed pages first: MANPATH as git sets it' '
	rm -f man.args &&
	env -u MANPATH FAKE_MAN_HAS=dirc-ls-files dirc ls-files --help >out &&
	sed -n "1s/^MANPATH=//p" man.args >manpath &&
	test_grep ":$" manpath &&
	rm -f man.args &&
	FAKE_MAN_HAS=dirc-ls-files MANPATH=/x/man dirc ls-files --help >out &&
	sed -n "1s/^MANPATH=//p" man.args >manpath2 &&
	echo "$(cat manpath)/x/man" >expect &&
	test_cmp expect manpath2
'

test_expect_success 'no installed page: the page of the source tree' '
	while read -r cmd
	do
		rm -f man.args &&
		dirc help $cmd >out 2>err &&
		test_must_be_empty err &&
		sed -n "s/^manual: -l //p" out >page &&
		test_line_count = 1 page &&
		read -r path <page &&
		case $path in
		/*/Documentation/dirc-*.1) ;;
		*) echo "not a page of the source tree: $path"; return 1 ;;
		esac &&
		test_path_is_file "$path" || return 1
	done <names
'

test_expect_success 'no man program, or no page anywhere: the -h usage, 129' '
	test_expect_code 129 env DIRC_MAN=/nonexistent/man \
		dirc write-tree --help >out 2>err &&
	test_grep "^usage: dirc write-tree" out &&
	test_grep "^dirc: no manual page .dirc-write-tree. (no man program could be run)" err &&
	test_expect_code 129 env DIRC_MAN=/nonexistent/man dirc help init >out &&
	test_grep "^usage: dirc init" out
'

test_expect_success GIT '-h and --help after an option: the usage on stdout, 129, as git' '
	for args in "write-tree -h" "write-tree --missing-ok --help" \
		"ls-files -c --help" "help -h" "version -h"
	do
		test_expect_code 129 dirc $args >out 2>err &&
		test_must_be_empty err &&
		test_grep "^usage: dirc " out &&
		test_expect_code 129 git $args >out 2>err &&
		test_must_be_empty err || return 1
	done
'

# The NAME lines of the pages, as "name description" lines.
man_names () {
	for f in "$DOC"/dirc-*.1
	do
		grep -q "^\.so " "$f" && continue
		sed -n "/^\.SH NAME$/,/^\.SH/{/^\.SH/d;p;}" "$f" |
		tr "\n" " " | sed -e "s/\\\\-/-/g" -e "s/ *$//" \
			-e "s/^\(.*\) - \(.*\)$/\1|\2/" >line &&
		names=$(cut -d"|" -f1 <line | sed -e "s/dirc-//g" -e "s/,/ /g") &&
		desc=$(cut -d"|" -f2- <line) &&
		for n in $names
		do
			echo "$n $desc"
		done
	done | sort
}

test_expect_success 'help -a: one line per command, the man page NAME line' '
	man_names >expect &&
	sed -n "s/^   \([a-z-]*\)  *\(.*\)$/\1 \2/p" all | sort >actual &&
	test_cmp expect actual &&
	test_line_count = $(wc -l <names) actual
'

test_expect_success GIT 'dirc alone: the usage and commands on stdout, status 1, as git' '
	test_expect_code 1 dirc >out 2>err &&
	test_must_be_empty err &&
	test_grep "^usage: dirc " out &&
	test_grep "^   write-tree  *write the index as tree objects$" out &&
	test_expect_code 1 git >git.out 2>err &&
	test_must_be_empty err &&
	test_file_not_empty git.out &&
	dirc help >out2 &&
	test_cmp out out2 &&
	dirc --help >out3 &&
	test_cmp out out3
'

test_expect_success GIT 'help: unknown options refused as git does, 129' '
	test_expect_code 129 dirc help --bogus >out 2>err &&
	test_must_be_empty out &&
	test_grep "^error: unknown option .bogus.$" err &&
	test_grep "^usage: dirc help " err &&
	test_expect_code 129 git help --bogus >out 2>err &&
	test_must_be_empty out &&
	test_grep "^error: unknown option .bogus.$" err &&
	test_expect_code 129 dirc help -w write-tree 2>err &&
	test_grep "^error: unknown switch .w.$" err
'

test_expect_success 'help of what is no command: status 1' '
	test_expect_code 1 dirc help no-such >out 2>err &&
	test_must_be_empty out &&
	echo "dirc: '"'"'no-such'"'"' is not a dirc command. See '"'"'dirc --help'"'"'." >expect &&
	test_cmp expect err
'

# typo_like_git TYPO: dirc and git agree on the status, stdout and
# stderr, with "git" read as "dirc" in the first line.
typo_like_git () {
	git "$@" >git.out 2>git.err
	echo $? >git.code
	dirc "$@" >dirc.out 2>dirc.err
	echo $? >dirc.code
	sed -e "1s/git/dirc/g" -e "s/a Git command/a dirc command/" \
		git.err >git.err.dirc &&
	test_cmp git.code dirc.code &&
	test_cmp git.out dirc.out &&
	test_cmp git.err.dirc dirc.err
}

test_expect_success GIT 'a mistyped command: git'"'"'s suggestions and status' '
	for typo in updat-index ls-fils writ-tree cat-fiel rev-pars \
		diff-indx mktre verify-pak xyzzy symbolic-rf ini diff-tres \
		check-ignor helpp versio diff-fil
	do
		typo_like_git $typo || return 1
	done &&
	printf "%s\n" "dirc: '"'"'updat-index'"'"' is not a dirc command. See '"'"'dirc --help'"'"'." \
		"" "The most similar command is" "	update-index" >expect &&
	test_expect_code 1 dirc updat-index 2>err &&
	test_cmp expect err
'

test_expect_success GIT 'help.autoCorrect: never, 0, immediate, negative, tenths, as git' '
	for v in never 0 immediate -1 -5 1
	do
		typo_like_git -c help.autocorrect=$v rev-pars --show-toplevel &&
		typo_like_git -c help.autocorrect=$v xyzzy || return 1
	done &&
	test_expect_code 129 dirc -c help.autocorrect=immediate updat-index -h >out 2>err &&
	cat >expect <<-\EOF &&
	WARNING: You called a dirc command named '"'"'updat-index'"'"', which does not exist.
	Continuing under the assumption that you meant '"'"'update-index'"'"'.
	EOF
	head -n 2 err >err.head &&
	test_cmp expect err.head &&
	test_grep "^usage: git update-index" err &&
	dirc -c help.autocorrect=-1 rev-pars --show-toplevel >out &&
	dirc rev-parse --show-toplevel >expect &&
	test_cmp expect out &&
	test_expect_code 129 dirc -c help.autocorrect=1 writ-tree -h >out 2>err &&
	test_grep "^Continuing in 0.1 seconds, assuming that you meant .write-tree.\.$" err
'

test_expect_success GIT 'help.autoCorrect=prompt without a terminal: as never, as git' '
	typo_like_git -c help.autocorrect=prompt updat-index </dev/null &&
	test_line_count = 1 dirc.err
'

test_expect_success GIT 'help.autoCorrect: other values fatal, as git' '
	for v in show true false yes 1x
	do
		test_expect_code 128 dirc -c help.autocorrect=$v updat-index 2>err &&
		echo "fatal: bad numeric config value '"'"'$v'"'"' for '"'"'help.autocorrect'"'"': invalid unit" >expect &&
		test_cmp expect err &&
		test_expect_code 128 git -c help.autocorrect=$v updat-index 2>err &&
		test_cmp expect err || return 1
	done &&
	test_expect_code 128 dirc -c help.autocorrect=99999999999 updat-index 2>err &&
	test_grep "out of range" err &&
	git config help.autocorrect immediate &&
	test_expect_code 129 dirc updat-index -h >out 2>err &&
	test_grep "^Continuing under the assumption" err &&
	git config --unset help.autocorrect
'

test_expect_success GIT 'version and --version: "dirc version X", as git' '
	dirc version >out &&
	test_grep "^dirc version [0-9]" out &&
	test_line_count = 1 out &&
	dirc --version >out2 &&
	test_cmp out out2 &&
	dirc -v >out2 &&
	test_cmp out out2 &&
	dirc version extra >out2 &&
	test_cmp out out2 &&
	git version extra >out2 &&
	test_line_count = 1 out2
'

test_expect_success GIT 'version --build-options' '
	dirc version --build-options >out &&
	dirc --version --build-options >out2 &&
	test_cmp out out2 &&
	for key in cpu sizeof-long sizeof-size_t shell-path threads \
		hash-algorithms zlib libcrypto link sanitizers
	do
		test_grep "^$key: " out || return 1
	done &&
	test_grep "^hash-algorithms: sha1 sha256" out &&
	test_grep "^zlib: [0-9.]* (run time [0-9.]*)$" out &&
	test_grep "^libcrypto: OpenSSL [0-9]" out &&
	test_grep "^link: dirc \(static\|dynamic\), libcrypto \(static\|dynamic\)$" out &&
	if test_have_prereq SANITIZE
	then
		test_grep "^sanitizers: $DIRC_SANITIZE$" out
	else
		test_grep "^sanitizers: none$" out
	fi &&
	git version --build-options >git.out &&
	for key in sizeof-long sizeof-size_t shell-path
	do
		grep "^$key: " git.out >expect &&
		grep "^$key: " out >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success GIT 'version: unknown options refused as git does, 129' '
	test_expect_code 129 dirc version --bogus >out 2>err &&
	test_must_be_empty out &&
	test_expect_code 129 git version --bogus >out 2>git.err &&
	test_must_be_empty out &&
	sed "s/git/dirc/g" git.err >expect &&
	test_cmp expect err &&
	test_expect_code 129 dirc --version --bogus 2>err2 &&
	test_cmp err err2
'

test_done
