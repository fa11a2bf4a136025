#!/bin/sh
test_description='update-cache and hash-object clean content as git does

Generated files (LF, CRLF, mixed, binary with NUL, lone CR, a final ^Z,
no final newline, $Id$ keywords, control characters, empty) staged under
many attribute settings and core.autocrlf / core.eol / core.safecrlf:
dirc update-cache --add and git update-index --add from the same state
must give the same exit code, output, messages (safecrlf warnings in
order) and index bytes; git diff-files must see the same after either;
hash-object (with a path, --path, --stdin, --stdin-paths, --no-filters,
-w) must print the same ids and messages.  safecrlf=true refusals leave
the index as it was.  The CRLF-in-the-index rule of text=auto.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh

FILES="lf.txt crlf.txt mixed.txt nul.dat lonecr.txt ctrlz.txt noeol.txt id.c ctrl.txt empty.txt d/sub.txt"

test_expect_success GIT 'setup' '
	mkdir d &&
	printf "a\nb\n" >lf.txt &&
	printf "a\r\nb\r\n" >crlf.txt &&
	printf "a\r\nb\nc\r\n" >mixed.txt &&
	printf "a\0b\r\nc\n" >nul.dat &&
	printf "a\rb\r\nc\n" >lonecr.txt &&
	printf "a\r\nb\r\n\032" >ctrlz.txt &&
	printf "a\r\nb" >noeol.txt &&
	printf "x \$Id: old stuff \$\r\n\$Id\$\n\$Id: a\nb \$\n\$I\n" >id.c &&
	printf "\001\002\003\004 a\r\n" >ctrl.txt &&
	: >empty.txt &&
	printf "s\r\nt\n" >d/sub.txt
'

# staged_alike ATTRS CONFIG...: with .gitattributes holding ATTRS (none
# if empty) and the configuration, "update-index --add FILES" from an
# empty index alike for git and dirc, then diff-files alike; under LONG
# hash-object of the files too (t3113 compares it on generated content)
staged_alike () {
	sa_attrs=$1 &&
	shift &&
	rm -f .git/index .gitattributes &&
	if test -n "$sa_attrs"
	then
		printf "%b\n" "$sa_attrs" >.gitattributes
	fi &&
	for c in "$@"
	do
		git config "${c%%=*}" "${c#*=}" || return 1
	done &&
	run_both --add $FILES &&
	same_result &&
	git diff-files --name-only >dirc.df &&
	cp .git/index.by-git .git/index &&
	git diff-files --name-only >git.df &&
	test_cmp git.df dirc.df &&
	if test_have_prereq LONG
	then
		compare_with_git hash-object $FILES &&
		INTEROP_STATE=none compare_with_git -i paths hash-object --stdin-paths
	fi &&
	for c in "$@"
	do
		git config --unset "${c%%=*}" || return 1
	done
}

test_expect_success GIT 'attribute settings x configuration: the same index as git' '
	printf "%s\n" $FILES >paths &&
	n=0 &&
	while IFS="|" read -r attrs config
	do
		staged_alike "$attrs" $config &&
		n=$((n + 1)) || {
			echo "^^^ for \"$attrs\" $config" >&2
			return 1
		}
	done <<-\EOF &&
	|
	|core.autocrlf=true
	|core.autocrlf=input
	|core.autocrlf=false
	|core.eol=crlf
	|core.autocrlf=true core.safecrlf=false
	|core.autocrlf=input core.safecrlf=warn
	* text|
	* text|core.eol=crlf
	* text|core.autocrlf=true
	* text|core.autocrlf=input
	* text|core.safecrlf=false
	* -text|core.autocrlf=true
	* text=auto|
	* text=auto|core.eol=crlf
	* text=auto|core.autocrlf=true
	* text=auto|core.autocrlf=input
	* text=auto eol=lf|
	* text=auto eol=crlf|
	* text eol=crlf|
	* text eol=lf|core.autocrlf=true
	* eol=crlf|
	* eol=lf|
	* crlf|
	* -crlf|core.autocrlf=true
	* crlf=input|
	* binary|core.autocrlf=true
	*.c ident|
	*.c ident text|core.autocrlf=true
	* ident|
	*.txt text\n*.dat -text|core.autocrlf=true
	d/* text|
	[attr]mytext text eol=crlf\n*.txt mytext|
	* text=bogus|core.autocrlf=true
	* eol=bogus text|
	* working-tree-encoding=UTF-8 text|
	* filter=nodriver text|
	EOF
	test $n = 37
'

test_expect_success GIT 'hash-object: --path, --stdin, --no-filters, -w' '
	echo "*.txt text" >.gitattributes &&
	compare_with_git hash-object --path=x.txt crlf.txt nul.dat &&
	compare_with_git hash-object --path=x.dat crlf.txt &&
	compare_with_git hash-object --no-filters crlf.txt &&
	# git 2.55 cleans a --literally blob as any other (2.39 did not):
	# the id of the plain hash of the same path
	git hash-object crlf.txt >expect &&
	dirc hash-object --literally crlf.txt >actual &&
	test_cmp expect actual &&
	git hash-object --stdin --path=x.txt <crlf.txt >expect &&
	dirc hash-object --literally --stdin --path=x.txt <crlf.txt >actual &&
	test_cmp expect actual &&
	if test_have_prereq GIT_NEW
	then
		git_new hash-object --literally crlf.txt >expect &&
		dirc hash-object --literally crlf.txt >actual &&
		test_cmp expect actual
	fi &&
	compare_with_git -i crlf.txt hash-object --stdin &&
	compare_with_git -i crlf.txt hash-object --stdin --path=y.txt &&
	compare_with_git -i paths hash-object --stdin-paths --no-filters &&
	compare_with_git -C d hash-object sub.txt ../crlf.txt &&
	INTEROP_STATE=none compare_with_git hash-object -w crlf.txt lf.txt &&
	git config core.autocrlf true &&
	INTEROP_STATE=none compare_with_git hash-object -w lf.txt crlf.txt &&
	INTEROP_STATE=none compare_with_git hash-object lf.txt &&
	git config core.safecrlf true &&
	INTEROP_STATE=none compare_with_git hash-object -w crlf.txt lf.txt &&
	INTEROP_STATE=none compare_with_git hash-object lf.txt &&
	git config --unset core.safecrlf &&
	git config --unset core.autocrlf
'

test_expect_success GIT 'core.safecrlf=true: git refuses, and so does dirc; the index is unchanged' '
	rm -f .git/index &&
	echo "* text" >.gitattributes &&
	git config core.safecrlf true &&
	git update-index --add lf.txt &&
	run_both --add crlf.txt &&
	same_result &&
	INTEROP_DIRC_CMD=update-cache fails_like_git 128 "fatal: CRLF would be replaced by LF in crlf.txt" update-index --add lf.txt crlf.txt &&
	git config core.autocrlf true &&
	echo "* text=auto" >.gitattributes &&
	cp lf.txt lf2.txt &&
	INTEROP_DIRC_CMD=update-cache fails_like_git 128 "fatal: LF would be replaced by CRLF in lf2.txt" update-index --add lf2.txt &&
	rm lf2.txt &&
	run_both --add crlf.txt mixed.txt &&
	same_result &&
	git config --unset core.autocrlf &&
	git config --unset core.safecrlf
'

test_expect_success GIT 'text=auto leaves a file alone whose index blob has CRLF' '
	rm -f .git/index .gitattributes &&
	printf "a\r\nb\n" >f.txt &&
	printf "a\rb\n" >g.txt &&
	# CRLF in a blob that looks binary does not count (git'"'"'s rule)
	printf "a\r\nb\0\r\n" >h.txt &&
	printf "a\r\nb\rc\n" >i.txt &&
	printf "a\r\n\001\002\003\004\r\n" >j.txt &&
	printf "a\r\nb\r\n\032" >k.txt &&
	printf "a\r\nb\r" >l.txt &&
	git update-index --add f.txt g.txt h.txt i.txt j.txt k.txt l.txt &&
	printf "a\r\nb\r\n" >f.txt &&
	for f in g h i j k l
	do
		cp f.txt $f.txt || return 1
	done &&
	echo "* text=auto" >.gitattributes &&
	run_both f.txt g.txt h.txt i.txt j.txt k.txt l.txt &&
	same_result &&
	git config core.autocrlf true &&
	rm .gitattributes &&
	run_both f.txt g.txt h.txt i.txt j.txt k.txt l.txt &&
	same_result &&
	echo "* text" >.gitattributes &&
	run_both f.txt g.txt h.txt i.txt j.txt k.txt l.txt &&
	same_result &&
	git config --unset core.autocrlf &&
	rm f.txt g.txt h.txt i.txt j.txt k.txt l.txt
'

test_expect_success GIT '--refresh cleans content: a CRLF file staged with autocrlf is not modified' '
	rm -f .git/index .gitattributes &&
	git config core.autocrlf true &&
	git update-index --add crlf.txt lf.txt mixed.txt &&
	# racy: the content decides
	touch crlf.txt lf.txt mixed.txt .git/index &&
	run_both --refresh &&
	same_result &&
	touch -d @1000000000 crlf.txt &&
	run_both --refresh &&
	same_result &&
	git config --unset core.autocrlf
'

test_expect_success GIT 'git status is clean after dirc staged with text=auto' '
	rm -f .git/index &&
	echo "* text=auto" >.gitattributes &&
	dirc update-cache --add .gitattributes $FILES 2>err &&
	test_grep "CRLF will be replaced by LF" err &&
	git diff --name-only >status &&
	test_must_be_empty status &&
	git status --porcelain --untracked-files=no >status &&
	test_line_count = 12 status &&
	! grep -v "^A  " status &&
	dirc update-cache --refresh &&
	git diff-files --name-only >status2 &&
	test_must_be_empty status2 &&
	rm .gitattributes
'

test_expect_success GIT 'working-tree-encoding: refused with a clear message, index unchanged' '
	rm -f .git/index &&
	echo "*.txt working-tree-encoding=UTF-16" >.gitattributes &&
	test_expect_code 128 dirc update-cache --add lf.txt 2>err &&
	test_grep "working-tree-encoding=UTF-16: dirc does not re-encode content" err &&
	test_path_is_missing .git/index &&
	echo "*.txt working-tree-encoding" >.gitattributes &&
	INTEROP_DIRC_CMD=update-cache fails_like_git 128 "fatal: true/false are no valid working-tree-encodings" update-index --add lf.txt &&
	rm .gitattributes
'

test_expect_success GIT 'a required filter without a clean command fails as in git' '
	rm -f .git/index &&
	echo "*.txt filter=req" >.gitattributes &&
	git config filter.req.required true &&
	INTEROP_DIRC_CMD=update-cache fails_like_git 128 "fatal: empty.txt: clean filter '"'"'req'"'"' failed" update-index --add empty.txt lf.txt &&
	INTEROP_STATE=none compare_with_git hash-object lf.txt &&
	git config --unset filter.req.required &&
	rm .gitattributes
'

test_done
