#!/bin/sh
test_description='check-attr: the attributes of paths, as git check-attr gives them

Fixed cases (states, macros, precedence of the files, patterns, quoted
patterns and paths, directories, --stdin, -z, --cached, subdirectories)
and bad input (bad names, negative patterns, macros below the top,
long lines, symlinked .gitattributes, usage errors), each compared with
git check-attr: exit code, stdout and stderr byte for byte.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh

INTEROP_STATE=none

# ca [-C DIR] [-i FILE] ARGS...: "check-attr ARGS" alike for git and dirc
ca () {
	ca_pre=
	while :
	do
		case $1 in
		-C|-i)	ca_pre="$ca_pre $1 $2" && shift 2 ;;
		*)	break ;;
		esac
	done
	compare_with_git $ca_pre check-attr "$@"
}

test_expect_success GIT 'setup' '
	mkdir -p a/b c .git/info &&
	cat >.gitattributes <<-\EOF &&
	# a comment
	[attr]mac one -two three=3
	*	all
	*.c	text eol=lf mac
	*.h	-text
	*.bin	binary
	x*	!all val=x
	/top.c	top
	a/b/	dir
	"q r.c"	quoted
	b	name=b
	  indented	ind
	*.C	upper
	EOF
	cat >a/.gitattributes <<-\EOF &&
	*.c	-mac eol=crlf
	b/*.c	deep
	/y.c	anch-a
	**/z	dz
	EOF
	cat >a/b/.gitattributes <<-\EOF &&
	*	inner=1
	*.h	text
	EOF
	echo "*.c info" >.git/info/attributes &&
	mkdir -p .config/git &&
	echo "*.c global *.h global2" >.config/git/attributes &&
	echo "*.h global -text" >>.config/git/attributes
'

test_expect_success GIT 'set, unset, values, macros, precedence' '
	ca -a top.c a/top.c x.c a/x.c a/y.c y.c a/b/y.c a/b/c/z a/z z \
		q.h a/b/q.h f.bin "q r.c" b a/b a/b/ a/b/c/ c/b X.C &&
	ca text eol mac one two three -- top.c a/b/x.c f.bin x.h &&
	ca binary diff merge text f.bin &&
	ca all x.c &&
	ca -a -- a/b/c.c
'

test_expect_success GIT 'from a subdirectory, paths relative to it' '
	ca -C a -a x.c b/y.c ../top.c ../a/x.c . b/ &&
	ca -C a/b text ../../x.h
'

test_expect_success GIT '--stdin, -z, quoted names' '
	printf "%s\n" top.c a/x.c "\"q r.c\"" "\"a\\tb.c\"" f.bin >paths &&
	ca -i paths --stdin -a &&
	ca -i paths --stdin text eol &&
	printf "top.c\0a/x.c\0q r.c\0a\tb.c\0" >pathsz &&
	ca -i pathsz --stdin -z -a &&
	ca -z text -- top.c "a	b.c" &&
	ca -a "a	b.c" "é.c" &&
	printf "\"bad\n" >badq &&
	ca -i badq --stdin -a
'

test_expect_success GIT '--cached: the index only' '
	git add .gitattributes a/.gitattributes &&
	echo "*.c changed" >a/.gitattributes &&
	ca -a a/x.c &&
	ca --cached -a a/x.c top.c &&
	rm a/.gitattributes &&
	ca -a a/x.c &&
	ca --cached -a a/x.c &&
	git show :a/.gitattributes >a/.gitattributes &&
	git rm -q --cached .gitattributes a/.gitattributes
'

# usage_alike ARGS...: as ca, the usage text saying "dirc" for "git"
usage_alike () {
	interop_run check-attr "$@" &&
	test_cmp git.code dirc.code &&
	sed -e "s/git check-attr/dirc check-attr/" git.out >git.out.u &&
	test_cmp git.out.u dirc.out &&
	sed -e "s/git check-attr/dirc check-attr/" git.err >git.err.u &&
	test_cmp git.err.u dirc.err
}

test_expect_success GIT 'usage errors' '
	usage_alike &&
	usage_alike -- x &&
	usage_alike text &&
	usage_alike -a text -- x &&
	usage_alike --stdin text -- x &&
	ca "bad name" -- x &&
	usage_alike -- -- x &&
	usage_alike --bogus x &&
	usage_alike -h
'

test_expect_success GIT 'outside the repository' '
	ca -a ../x &&
	ca -a /tmp/x
'

test_expect_success GIT 'bad lines: git'"'"'s messages, the rest of the file applies' '
	mkdir bad &&
	cat >bad/.gitattributes <<-\EOF &&
	!neg	x
	*.c	-bad!
	*.c	"q"
	*.c	=v
	*.c	-
	[attr]sub	s
	*.c	ok -also !unsp
	[attr]	y
	*.c	good
	EOF
	ca -a bad/x.c bad/y.h &&
	ca -a bad/x.c x.c bad/z.c &&
	printf "[attr]bad! a\n[attr]-x b\n" >.git/info/attributes &&
	ca -a x.c &&
	echo "*.c info" >.git/info/attributes
'

test_expect_success GIT 'long lines are ignored, comments are not' '
	mkdir long &&
	{
		printf "*.c "; printf "%02100d" 0 | tr 0 x; printf " q\n"
		printf "#"; printf "%02100d" 0; printf "\n"
		printf "*.c short\n"
	} >long/.gitattributes &&
	ca -a long/a.c x.c long/b.c &&
	rm -r long
'

test_expect_success GIT 'a byte order mark, CRLF lines, blank lines' '
	mkdir bom &&
	printf "\357\273\277*.c bom\r\n\r\n  \t\n*.c crlf=input\r\n" >bom/.gitattributes &&
	ca -a bom/x.c
'

test_expect_success GIT 'a symlinked .gitattributes is not followed (warned)' '
	mkdir sym &&
	ln -s ../.gitattributes sym/.gitattributes &&
	ca -a sym/x.c x.c sym/y.c &&
	rm -r sym
'

test_expect_success GIT,!ROOT 'an unreadable .gitattributes: git'"'"'s warning, the index'"'"'s read instead' '
	mkdir unr &&
	echo "*.c from-index" >unr/.gitattributes &&
	git add unr/.gitattributes &&
	echo "*.c from-file" >unr/.gitattributes &&
	chmod 000 unr/.gitattributes &&
	ca -a unr/x.c x.c unr/y.c &&
	chmod 644 unr/.gitattributes &&
	git rm -q --cached unr/.gitattributes &&
	rm -r unr
'

test_expect_success GIT 'a directory named .gitattributes' '
	mkdir -p dd/.gitattributes &&
	ca -a dd/x.c &&
	rm -r dd
'

test_expect_success GIT 'a .gitattributes only in the index is read (checkin order)' '
	mkdir ix &&
	echo "*.c from-index" >ix/.gitattributes &&
	git add ix/.gitattributes &&
	rm ix/.gitattributes &&
	ca -a ix/x.c &&
	git rm -q --cached ix/.gitattributes
'

test_expect_success GIT 'core.attributesFile and GIT_ATTR_NOSYSTEM' '
	echo "*.c cfg" >cfg-attrs &&
	git config core.attributesFile "$PWD/cfg-attrs" &&
	ca -a x.c &&
	git config core.attributesFile "~/cfg-attrs" &&
	ca -a x.c &&
	git config --unset core.attributesFile &&
	GIT_ATTR_NOSYSTEM=1 ca -a x.c
'

test_expect_success GIT 'core.ignorecase folds patterns' '
	git config core.ignorecase true &&
	ca -a X.c a/B/x.C TOP.C &&
	git config --unset core.ignorecase
'

test_done
