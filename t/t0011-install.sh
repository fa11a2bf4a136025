#!/bin/sh
test_description='make install: into a temporary prefix, then used from there

"make install PREFIX=<tmp>" (and with DESTDIR) from the top of the
source tree, with the binary already built (make -o dirc: the build the
suite runs is reused as it is, never rebuilt or relinked, whatever flags
it was made with).  Then: the installed binary runs; "git dirc <cmd>"
runs it through the git-dirc link, from a subdirectory too, with the
environment git gives an external command (-C, --git-dir, -c, aliases);
man finds and renders every installed page; bash and zsh complete dirc
from the installed files (skipped while Documentation/completion/ has
none); make uninstall leaves no file of dirc behind.'
. ./test-lib.sh

top=${TEST_DIRECTORY%/*}
if ! test -f "$top/Makefile" || ! test -f "$top/Documentation/dirc.1"
then
	skip_all="no source tree above t/ (no Makefile)"
	test_done
fi
if ! test "$top/dirc" -ef "$DIRC_BUILD_DIR/dirc"
then
	skip_all="dirc under test is not the source tree's ($DIRC_BUILD_DIR)"
	test_done
fi
if ! command -v make >/dev/null 2>&1
then
	skip_all="make not found"
	test_done
fi

# run_make ARGS...: make in the source tree, the binary taken as built.
# Not the outer make's jobserver or variables (make test's MAKEFLAGS).
run_make () {
	MAKEFLAGS= MFLAGS= MAKELEVEL= make -C "$top" -o dirc -o DIRC-CFLAGS \
		"$@"
}

# Every file or link of the tree under $1, one a line, sorted.
list_files () {
	(cd "$1" && find . ! -type d -print) | sort
}

test_expect_success 'make install PREFIX=<tmp>' '
	prefix=$TRASH_DIRECTORY/prefix &&
	run_make install PREFIX="$prefix" >install.out 2>&1 &&
	test_path_is_file "$prefix/bin/dirc" &&
	test -x "$prefix/bin/dirc" &&
	test -h "$prefix/bin/git-dirc" &&
	test "$prefix/bin/git-dirc" -ef "$prefix/bin/dirc" &&
	cmp "$top/dirc" "$prefix/bin/dirc" &&
	for p in "$top"/Documentation/*.1
	do
		cmp "$p" "$prefix/share/man/man1/${p##*/}" || return 1
	done &&
	cmp "$top/Documentation/dirc-tutorial.7" \
		"$prefix/share/man/man7/dirc-tutorial.7" &&
	for e in "$top"/Documentation/examples/*
	do
		cmp "$e" "$prefix/share/doc/dirc/examples/${e##*/}" &&
		test -x "$prefix/share/doc/dirc/examples/${e##*/}" || return 1
	done &&
	! grep -e "LINK" -e " -c -o " install.out
'

test_expect_success GIT 'the installed binary runs' '
	"$prefix/bin/dirc" init -q inst &&
	echo hello >inst/f &&
	(
		cd inst &&
		"$prefix/bin/dirc" update-cache --add f &&
		"$prefix/bin/dirc" write-tree >../tree.dirc
	) &&
	git -C inst write-tree >tree.git &&
	test_cmp tree.git tree.dirc
'

test_expect_success GIT 'git dirc <cmd> from a subdirectory, as git <cmd>' '
	git init -q gd &&
	mkdir -p gd/sub/deeper &&
	echo a >gd/sub/a &&
	echo b >gd/sub/deeper/b &&
	echo top >gd/t &&
	(
		PATH=$prefix/bin:$PATH &&
		cd gd/sub &&
		git dirc update-index --add a deeper/b ../t &&
		git dirc ls-files >../../ls.dirc &&
		git ls-files >../../ls.git &&
		git dirc write-tree >../../wt.dirc &&
		git write-tree >../../wt.git &&
		git dirc rev-parse --show-prefix --show-toplevel >../../rp.dirc &&
		git rev-parse --show-prefix --show-toplevel >../../rp.git &&
		cd deeper &&
		git dirc ls-files --full-name >../../../ls2.dirc &&
		git ls-files --full-name >../../../ls2.git
	) &&
	test_cmp ls.git ls.dirc &&
	test_cmp wt.git wt.dirc &&
	test_cmp rp.git rp.dirc &&
	test_cmp ls2.git ls2.dirc &&
	test_write_lines sub/a sub/deeper/b t >expect &&
	git -C gd ls-files >actual &&
	test_cmp expect actual
'

test_expect_success GIT 'git -C, --git-dir, --work-tree, -c and an alias reach git dirc' '
	(
		PATH=$prefix/bin:$PATH &&
		git -C gd/sub dirc ls-files >c.dirc &&
		git -C gd/sub ls-files >c.git &&
		test_cmp c.git c.dirc &&
		git --git-dir=gd/.git --work-tree=gd dirc ls-files >gw.dirc &&
		git --git-dir=gd/.git --work-tree=gd ls-files >gw.git &&
		test_cmp gw.git gw.dirc &&
		git -C gd -c core.abbrev=12 dirc rev-parse --short \
			"$(git -C gd write-tree)" >ab.dirc &&
		git -C gd -c core.abbrev=12 rev-parse --short \
			"$(git -C gd write-tree)" >ab.git &&
		test_cmp ab.git ab.dirc &&
		cd gd/sub &&
		git -c alias.dl="!dirc ls-files" dl >../../al.dirc &&
		git -c alias.gl="!git ls-files" gl >../../al.git &&
		test_cmp ../../al.git ../../al.dirc
	)
'

test_expect_success 'man finds and renders every installed page' '
	if ! command -v man >/dev/null 2>&1
	then
		echo "# man not found (man-db): pages not rendered" >&7 &&
		return 0
	fi &&
	for p in "$prefix"/share/man/man1/*.1 "$prefix"/share/man/man7/*.7
	do
		page=${p##*/} &&
		MANPATH=$prefix/share/man man -w "${page%.*}" >where &&
		# an alias page (.so) is found as the page it names
		test_grep "^$prefix/share/man/man[17]/dirc" where &&
		MANPATH=$prefix/share/man MANWIDTH=80 MANPAGER=cat PAGER=cat \
			man "${page%.*}" >page.txt &&
		test_file_not_empty page.txt || return 1
	done
'

test_expect_success 'bash completes dirc and git dirc from the installed files' '
	comp=$prefix/share/bash-completion/completions &&
	if ! test -f "$top/Documentation/completion/dirc.bash"
	then
		echo "# no Documentation/completion/dirc.bash: skipped" >&7 &&
		test_path_is_missing "$comp/dirc" &&
		return 0
	fi &&
	test_cmp "$top/Documentation/completion/dirc.bash" "$comp/dirc" &&
	test -h "$comp/git-dirc" &&
	if ! command -v bash >/dev/null 2>&1 ||
		! test -f /usr/share/bash-completion/bash_completion
	then
		echo "# bash-completion not installed: not run" >&7 &&
		return 0
	fi &&
	cat >complete.bash <<-\EOF &&
	. /usr/share/bash-completion/bash_completion
	_completion_loader dirc
	complete -p dirc >/dev/null || { echo "no completion for dirc"; exit 1; }
	f=$(complete -p dirc | sed -n "s/.*-F \([^ ]*\).*/\1/p")
	COMP_WORDS=(dirc update-index --a)
	COMP_CWORD=2
	COMP_LINE="dirc update-index --a"
	COMP_POINT=${#COMP_LINE}
	"$f" dirc --a update-index
	printf "%s\n" "${COMPREPLY[@]}"
	_completion_loader git-dirc
	declare -F _git_dirc >/dev/null || { echo "no _git_dirc"; exit 1; }
	EOF
	PATH=$prefix/bin:$PATH XDG_DATA_DIRS=$prefix/share:/usr/share \
		bash complete.bash >completed &&
	test_grep -e "^--add" completed
'

test_expect_success 'zsh finds the installed completion' '
	if ! test -f "$top/Documentation/completion/_dirc"
	then
		echo "# no Documentation/completion/_dirc: skipped" >&7 &&
		test_path_is_missing "$prefix/share/zsh/site-functions/_dirc" &&
		return 0
	fi &&
	test_cmp "$top/Documentation/completion/_dirc" \
		"$prefix/share/zsh/site-functions/_dirc" &&
	if ! command -v zsh >/dev/null 2>&1
	then
		echo "# zsh not installed: not run" >&7 &&
		return 0
	fi &&
	# the prefix through the environment: the trash path has a space
	PATH=$prefix/bin:$PATH ZFUNCS=$prefix/share/zsh/site-functions \
	zsh -f -c '\''
		fpath=("$ZFUNCS" $fpath)
		autoload -Uz compinit && compinit -u -D
		print -r -- ${_comps[dirc]}
	'\'' >zcomp &&
	test_grep "^_dirc" zcomp
'

test_expect_success 'make uninstall leaves none of dirc'\''s files' '
	run_make uninstall PREFIX="$prefix" >uninstall.out 2>&1 &&
	list_files "$prefix" >left &&
	test_must_be_empty left &&
	test_path_is_missing "$prefix/share/doc/dirc"
'

test_expect_success 'uninstall removes only what install put' '
	mkdir -p "$prefix/bin" "$prefix/share/man/man1" &&
	echo mine >"$prefix/bin/other" &&
	echo mine >"$prefix/share/man/man1/other.1" &&
	run_make install PREFIX="$prefix" >install.out 2>&1 &&
	run_make uninstall PREFIX="$prefix" >uninstall.out 2>&1 &&
	list_files "$prefix" >left &&
	test_write_lines ./bin/other ./share/man/man1/other.1 >expect &&
	test_cmp expect left &&
	rm -r "$prefix"
'

test_expect_success GIT 'DESTDIR: staged under it, as PREFIX says' '
	dest=$TRASH_DIRECTORY/stage &&
	run_make install DESTDIR="$dest" PREFIX=/opt/dirc-test \
		>install.out 2>&1 &&
	test_path_is_missing /opt/dirc-test &&
	test -x "$dest/opt/dirc-test/bin/dirc" &&
	test "$dest/opt/dirc-test/bin/git-dirc" -ef \
		"$dest/opt/dirc-test/bin/dirc" &&
	test_path_is_file "$dest/opt/dirc-test/share/man/man1/dirc.1" &&
	test_path_is_file "$dest/opt/dirc-test/share/doc/dirc/examples/dirc-commit.sh" &&
	"$dest/opt/dirc-test/bin/dirc" hash-object inst/f >id &&
	git hash-object inst/f >expect &&
	test_cmp expect id &&
	run_make uninstall DESTDIR="$dest" PREFIX=/opt/dirc-test \
		>uninstall.out 2>&1 &&
	list_files "$dest" >left &&
	test_must_be_empty left
'

test_done
