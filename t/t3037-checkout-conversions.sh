#!/bin/sh
test_description='checkout-index and read-tree -u: content conversions as git does them

git converts a blob on its way to the work tree: ident ($Id$ expanded
to the blob id), CRLF line ends (eol=crlf, text or text=auto with
core.eol=crlf or core.autocrlf=true, core.autocrlf=true alone; under
text=auto only a text blob without CR), a smudge filter.  dirc does the
same: twins rg (git) and rd (dirc) compared with lib-checkout, exit
code, output, messages, entries, files and modes, for many attribute
settings, attributes from macros, subdirectories, info/attributes,
core.attributesFile and the index (read-tree -u reads the new index
first).  working-tree-encoding other than UTF-8 is refused (128) before
anything is written.  (Filter drivers: see the filter tests.)'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-checkout.sh

INTEROP_STATE=twins

# make_twins 'ATTRIBUTES' [KEY=VALUE...]: rg and rd afresh, alike:
# copies of twins/rg and twins/rd (the setup: one commit of the files
# below, the same each time, and the files removed, so that a checkout
# writes them), then the configuration and a .gitattributes (not in
# the index).  The tree is in rd/tree.
make_twins () {
	mt_attrs=$1 &&
	shift &&
	rm -rf rg rd &&
	cp -R twins/rg twins/rd . &&
	twins_config_ "$@" &&
	if test -n "$mt_attrs"
	then
		printf "%s\n" "$mt_attrs" >rg/.gitattributes &&
		printf "%s\n" "$mt_attrs" >rd/.gitattributes
	fi
}

# twins_config_ KEY=VALUE...: "git config KEY VALUE" in rg and in rd,
# in the shell where it writes what git config would: each variable
# appended to .git/config (a fresh one ends in [core], or in SHA-256 in
# [extensions] with objectformat), after a header when its section is
# not the one the file ends in.  When a section comes back (git would
# add to it), a variable is set again (git would replace it) or a name
# or value is not plain (git would quote it), git config writes them all.
twins_config_ () {
	tc_text= &&
	tc_keys=" core.repositoryformatversion core.filemode core.bare core.logallrefupdates " &&
	case $OID_ALGO in
	sha1)
		tc_last=core &&
		tc_seen=" core " ;;
	*)
		tc_last=extensions &&
		tc_seen=" core extensions " &&
		tc_keys="$tc_keys""extensions.objectformat " ;;
	esac &&
	for tc_c
	do
		tc_key=${tc_c%%=*} &&
		tc_val=${tc_c#*=} &&
		tc_sect=${tc_key%.*} &&
		case $tc_val in
		""|*[!a-z0-9]*) tc_text=git && break ;;
		esac &&
		case $tc_key in
		*[!a-z0-9.]*|.*|*.|*..*|*.*.*.*) tc_text=git && break ;;
		*.*) ;;
		*) tc_text=git && break ;;
		esac &&
		case $tc_keys in
		*" $tc_key "*) tc_text=git && break ;;
		esac &&
		tc_keys="$tc_keys$tc_key " &&
		if test "$tc_sect" != "$tc_last"
		then
			case $tc_seen in
			*" $tc_sect "*) tc_text=git && break ;;
			esac &&
			case $tc_sect in
			*.*) tc_text="$tc_text[${tc_sect%%.*} \"${tc_sect#*.}\"]
" ;;
			*) tc_text="$tc_text[$tc_sect]
" ;;
			esac &&
			tc_last=$tc_sect &&
			tc_seen="$tc_seen$tc_sect "
		fi &&
		tc_text="$tc_text	${tc_key##*.} = $tc_val
" || return 1
	done &&
	if test "$tc_text" != git
	then
		printf "%s" "$tc_text" >>rg/.git/config &&
		printf "%s" "$tc_text" >>rd/.git/config
	else
		for tc_c
		do
			git -C rg config "${tc_c%%=*}" "${tc_c#*=}" &&
			git -C rd config "${tc_c%%=*}" "${tc_c#*=}" || return 1
		done
	fi
}

# refused WHY ARGS...: "checkout-index ARGS" (or read-tree, with
# CMD=read-tree): git goes ahead, dirc refuses with WHY in its message
# (a working-tree-encoding), exit 128, and rd (index bytes too) is as
# it was.
refused () {
	rf_why=$1 &&
	shift &&
	cp rd/.git/index index.before &&
	interop_run ${CMD:-checkout-index} "$@" &&
	echo 0 >expect.code &&
	test_cmp_codes expect.code git.code &&
	echo 128 >expect.code &&
	test_cmp_codes expect.code dirc.code &&
	test_must_be_empty dirc.out &&
	sed -e "s/^fatal: cannot check out '[^']*': /fatal: cannot check out 'P': /" \
		dirc.err >msg &&
	printf "fatal: cannot check out 'P': %s: dirc does not re-encode content; nothing was written\n" \
		"$rf_why" >expect.msg &&
	test_cmp expect.msg msg &&
	state_unchanged &&
	test_cmp index.before rd/.git/index &&
	test_path_is_missing rd/.git/index.lock
}

# as_git ARGS...: "checkout-index ARGS" (or CMD) alike in rg and rd
as_git () {
	compare_with_git ${CMD:-checkout-index} "$@" &&
	echo 0 >expect.code &&
	test_cmp_codes expect.code dirc.code
}

test_expect_success GIT 'setup: the commit the twins start from' '
	git init -q twins/rg &&
	(
		cd twins/rg &&
		mkdir d &&
		printf "a\nb\n" >f.txt &&
		printf "a\r\nb\n" >m.txt &&
		printf "c\nd\n" >d/s.txt &&
		printf "x \$Id\$\n" >g.c &&
		printf "no ident\n" >n.c &&
		printf "bin\0\r\n" >h.bin &&
		git add . &&
		git commit -q -m files &&
		git rev-parse HEAD^{tree} >tree &&
		rm f.txt m.txt d/s.txt g.c n.c h.bin
	) &&
	cp -R twins/rg twins/rd
'

# each case: "ATTRIBUTES|KEY=VALUE KEY=VALUE" (no spaces in values)
test_expect_success GIT 'no conversion: git writes the blobs as they are, and so does dirc' '
	n=0 &&
	while IFS="|" read -r attrs config
	do
		make_twins "$attrs" $config &&
		as_git -a -f &&
		make_twins "$attrs" $config &&
		as_git -f f.txt m.txt d/s.txt g.c h.bin &&
		n=$((n + 1)) || {
			echo "^^^ for \"$attrs\" $config" >&2
			return 1
		}
	done <<-\EOF &&
	|
	* text|
	* text=auto|
	* -text|
	* binary|
	*.txt eol=lf|
	* text|core.eol=lf
	* text=auto|core.eol=lf
	|core.autocrlf=input
	|core.autocrlf=false core.eol=crlf
	*.txt filter=foo|
	*.txt filter=foo|filter.foo.clean=cat
	*.txt filter=foo|filter.foo.required=true
	*.txt ident|
	*.txt working-tree-encoding=UTF-8|
	*.bin eol=crlf|
	*.bin text=auto|core.eol=crlf
	m.txt text=auto|core.eol=crlf
	*.txt text|core.autocrlf=input core.eol=lf
	* text=auto eol=lf|core.autocrlf=true
	*.txt -crlf|core.eol=crlf
	sub/*.txt eol=crlf|
	*.txt/ eol=crlf|
	d eol=crlf|
	EOF
	test $n = 24
'

test_expect_success GIT 'no conversion: later lines and files win' '
	make_twins "$(printf "*.txt eol=crlf\n*.txt -text")" &&
	as_git -a -f &&
	make_twins "$(printf "*.txt eol=crlf\n*.txt binary")" &&
	as_git -a -f &&
	make_twins "* text" core.eol=crlf &&
	printf "* -text\n" >rg/d/.gitattributes &&
	printf "* -text\n" >rd/d/.gitattributes &&
	as_git -f d/s.txt &&
	make_twins "*.txt eol=crlf" &&
	mkdir -p rg/.git/info rd/.git/info &&
	echo "*.txt -text" >rg/.git/info/attributes &&
	echo "*.txt -text" >rd/.git/info/attributes &&
	as_git -a -f
'

test_expect_success GIT 'conversions: the same bytes as git' '
	n=0 &&
	while IFS="|" read -r attrs config
	do
		make_twins "$attrs" $config &&
		as_git -a -f &&
		make_twins "$attrs" $config &&
		as_git -f f.txt g.c d/s.txt m.txt h.bin n.c &&
		n=$((n + 1)) || {
			echo "^^^ for \"$attrs\" $config" >&2
			return 1
		}
	done <<-\EOF &&
	*.txt eol=crlf|
	* text|core.eol=crlf
	* text=auto|core.autocrlf=true
	* text|core.autocrlf=true
	|core.autocrlf=true
	*.txt crlf|core.eol=crlf
	*.txt text=auto eol=crlf|
	"f.txt" eol=crlf|
	/f.txt eol=crlf|
	d/s.txt eol=crlf|
	d/* eol=crlf|
	*.txt -crlf|core.autocrlf=true
	*.c ident|
	* ident eol=crlf|
	*.bin text eol=crlf|
	* text=auto|core.eol=crlf
	EOF
	test $n = 16
'

test_expect_success GIT 'working-tree-encoding: refused, nothing written' '
	make_twins "*.txt working-tree-encoding=UTF-16" &&
	refused "working-tree-encoding=UTF-16" -a -f &&
	refused "working-tree-encoding=UTF-16" -f f.txt g.c d/s.txt
'

test_expect_success GIT 'conversions from a macro, a subdirectory, info/attributes, core.attributesFile, the index' '
	make_twins "$(printf "[attr]mine eol=crlf\n*.txt mine")" &&
	as_git -a -f &&
	make_twins "" &&
	echo "s.txt eol=crlf" >rg/d/.gitattributes &&
	echo "s.txt eol=crlf" >rd/d/.gitattributes &&
	as_git -a -f &&
	make_twins "" &&
	mkdir -p rg/.git/info rd/.git/info &&
	echo "*.txt eol=crlf" >rg/.git/info/attributes &&
	echo "*.txt eol=crlf" >rd/.git/info/attributes &&
	as_git -a -f &&
	make_twins "" &&
	echo "*.c ident" >attrs &&
	git -C rg config core.attributesFile ../attrs &&
	git -C rd config core.attributesFile ../attrs &&
	as_git -a -f &&
	make_twins "" &&
	for r in rg rd
	do
		(
			cd $r &&
			echo "*.txt eol=crlf" >.gitattributes &&
			git add .gitattributes &&
			rm .gitattributes
		) || return 1
	done &&
	as_git -a -f
'

test_expect_success GIT 'a file already checked out is not written: no refusal, as git' '
	make_twins "*.txt eol=crlf" &&
	for r in rg rd
	do
		(
			cd $r &&
			git checkout-index -f -u -a &&
			# not racy: dirc compares stat data only
			touch -d @1000000000 f.txt m.txt d/s.txt g.c n.c h.bin &&
			git update-index -q --refresh
		) || return 1
	done &&
	as_git f.txt d/s.txt &&
	# git finds m.txt modified (a CRLF it wrote): "already exists", 1
	compare_with_git checkout-index -a
'

blank_names () {
	sed -e "s/\.merge_file_[A-Za-z0-9]\{6\}/.merge_file_X/g"
}

# temp_alike ARGS...: "checkout-index --temp ARGS" in rg (git) and rd
# (dirc): the same listing (temporary names blanked) and the same bytes
# in each temporary file
temp_alike () {
	for r in rg rd
	do
		if test $r = rg
		then
			tool=git
		else
			tool=dirc
		fi &&
		(
			cd $r &&
			$tool checkout-index --temp "$@" >../$r.list 2>../$r.err &&
			# the temporary files, removed by one rm (a name listed
			# twice makes it fail, as the second cat would)
			set -- &&
			while read -r tmp path
			do
				echo "== $path" &&
				cat "$tmp" &&
				set -- "$@" "$tmp" || exit 1
			done <../$r.list >../$r.files &&
			if test $# != 0
			then
				rm "$@"
			fi
		) || return 1
	done &&
	blank_names <rg.list >rg.blank &&
	blank_names <rd.list >rd.blank &&
	test_cmp rg.blank rd.blank &&
	test_cmp rg.files rd.files &&
	test_cmp rg.err rd.err
}

test_expect_success GIT 'checkout-index --temp: the same listing and files' '
	make_twins "*.txt eol=crlf" &&
	temp_alike f.txt &&
	temp_alike -a &&
	make_twins "* ident text" core.autocrlf=true &&
	temp_alike -a &&
	make_twins "* -text" core.autocrlf=true &&
	interop_run checkout-index --temp -a &&
	blank_names <git.out >git.blank &&
	blank_names <dirc.out >dirc.blank &&
	test_cmp git.blank dirc.blank &&
	test_cmp_codes git.code dirc.code &&
	test_cmp git.err dirc.err
'


test_expect_success GIT 'read-tree -u: attributes of the work tree, info/ or the new index, as git' '
	make_twins "*.txt eol=crlf" &&
	in_both "git read-tree --empty" &&
	read -r tree <rd/tree &&
	CMD=read-tree as_git -u --reset "$tree" &&
	make_twins "" &&
	in_both "mkdir -p .git/info && echo \"*.c ident\" >.git/info/attributes && git read-tree --empty" &&
	read -r tree <rd/tree &&
	CMD=read-tree as_git -u --reset "$tree" &&
	make_twins "" &&
	in_both "echo \"*.txt eol=crlf\" >.gitattributes && git add .gitattributes &&
		git commit -q -m attrs && git rev-parse HEAD^{tree} >tree2 &&
		rm .gitattributes && git read-tree --empty" &&
	read -r tree <rd/tree2 &&
	CMD=read-tree as_git -u --reset "$tree"
'

test_expect_success GIT 'read-tree -u: no conversion, the same files as git' '
	make_twins "* -text" core.autocrlf=true &&
	in_both "git read-tree --empty" &&
	read -r tree <rd/tree &&
	CMD=read-tree as_git -u --reset "$tree" &&
	make_twins "* text=auto" &&
	in_both "git read-tree --empty" &&
	read -r tree <rd/tree &&
	CMD=read-tree as_git -u --reset "$tree"
'

test_done
