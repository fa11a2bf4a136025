#!/bin/sh
test_description='ls-files: --format, --with-tree, --eol, --debug and the rest

--format with every atom git 2.39 has (and its errors, and its output
from a subdirectory; paths above it, which git 2.39 garbled, and the
atoms of git 2.40+ are in t2018), --with-tree (from a subdirectory, in a conflict,
without an index, usage errors, bad tree-ishes), --eol computed from the
content and the attr/ column from the attributes, --debug, --abbrev,
--deduplicate, --resolve-undo, -t -v -f, usage errors, a corrupt index
with -h, a bare repository, and the options dirc refuses: ignore rules,
--sparse, --recurse-submodules with a submodule, -f with fsmonitor.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-ls-files.sh

# Like ls_both, but the usage text names the program: compare the lines
# that do not (the message and the exit code).
usage_both () {
	ls_both "$@" 2>/dev/null
	test_cmp_codes git.code dirc.code &&
	head -n 1 git.out >git.first &&
	sed -e "1s/^usage: dirc /usage: git /" -e 1q dirc.out >dirc.first &&
	test_cmp git.first dirc.first &&
	head -n 1 git.err >git.first &&
	head -n 1 dirc.err >dirc.first &&
	test_cmp git.first dirc.first
}

test_expect_success GIT 'setup: line endings, modes, an unmerged path' '
	git init -q w &&
	(
		cd w &&
		mkdir -p sub/deep &&
		printf "a\nb\n" >lf &&
		printf "a\r\nb\r\n" >crlf &&
		printf "a\r\nb\n" >mixed &&
		printf "abc" >none &&
		printf "a\0b\n" >bin &&
		: >empty &&
		printf "a\rb\n" >lonecr &&
		printf "x\032" >ctrlz &&
		printf "\001\002\003\n" >ctl &&
		printf "one\n" >sub/one &&
		printf "two\r\n" >sub/deep/two &&
		printf "q\n" >"sub/t\tb" &&
		printf "#!/bin/sh\n" >exe &&
		chmod +x exe &&
		git add . &&
		oid=$(git hash-object lf) &&
		git update-index --add --cacheinfo 120000 $oid link &&
		git update-index --add --cacheinfo 160000 $oid gitlink &&
		printf "a\nb\n" >crlf &&
		printf "x\r\n" >new &&
		rm none &&
		blob=$(git hash-object -w crlf) &&
		blob2=$(git hash-object -w mixed) &&
		printf "100644 %s %d\tconf\n" $blob 1 $blob2 2 $blob 3 >info &&
		git update-index --index-info <info &&
		rm info &&
		git update-index --skip-worktree exe &&
		git update-index --assume-unchanged lf
	)
'

test_expect_success GIT '--eol: i/ and w/ from the content' '
	cat >sets <<-\EOF &&
	w|--eol
	w|--eol|-s
	w|--eol|-t|-o
	w|--eol|-d|-m
	w|--eol|-z
	w/sub|--eol
	w/sub|--eol|..
	w|--eol|conf
	EOF
	each_both sets &&
	test "$(cat rounds)" = 8 &&
	ls_both w --eol &&
	grep "i/crlf  w/lf    attr/                 	crlf" dirc.out
'

test_expect_success GIT '--format: every atom, escapes, with -m, -d, -z, --debug' '
	cat >sets <<-\EOF &&
	w|--format=%(objectmode) %(objectname) %(stage)%x09%(path)
	w|--format=i/%(eolinfo:index) w/%(eolinfo:worktree) attr/%(eolattr) %(path)
	w|--format=%%%(path)%%%n%x41%x00end
	w|--format=%(path)|-m
	w|--format=%(path)|-d
	w|--format=%(path)|-c|-d|-m
	w|--format=%(path)|-z
	w|--format=[%(stage)]|-u
	w|--format=%(path)|--debug
	w|--format=%(objectname)|--abbrev
	w|--format=%(objectname)|--abbrev=5
	w|--format=plain text
	w|--format=
	w/sub|--format=<%(path)>
	w/sub|--format=%(path)|--full-name|..
	w|--format=%(bogus)
	w|--format=%q
	w|--format=%(path
	w|--format=%x4%(path)
	w|--format=%x
	w|--format=ok %(path)%
	w|--format=%(objectmode)x)
	EOF
	each_both sets &&
	test "$(cat rounds)" = 22 &&
	ls_both w "--format=%(bogus)" nosuch &&
	test_must_be_empty dirc.err
'

test_expect_success GIT '--format: the options it cannot be used with' '
	for flag in -s -o -k -t --resolve-undo --deduplicate --eol
	do
		usage_both w "--format=%(objectname)" $flag || return 1
	done &&
	echo 129 >expect &&
	test_cmp expect dirc.code &&
	test_grep "^fatal: --format cannot be used with -s, -o, -k, -t, --resolve-undo, --deduplicate, --eol$" dirc.err
'

test_expect_success GIT 'the attr/ column: the attributes, as git' '
	n=0 &&
	for attrs in "*.c text" "* -text" "* text=auto" "* text eol=crlf" \
		"* eol=lf" "* text=auto eol=crlf" "* crlf=input" "* binary" \
		"* -crlf" "* text=auto eol=lf" "* text=bogus"
	do
		echo "$attrs" >w/sub/.gitattributes &&
		ls_both w --eol &&
		ls_both w "--format=%(eolattr)|%(path)" &&
		ls_both w/sub --eol &&
		n=$((n + 1)) || return 1
	done &&
	test $n = 11 &&
	rm w/sub/.gitattributes &&
	echo "* text" >w/.git/info/attributes &&
	ls_both w --eol -o &&
	rm w/.git/info/attributes
'

test_expect_success GIT '--debug: stat data and flags as git shows them' '
	cat >sets <<-\EOF &&
	w|--debug
	w|--debug|-s|conf
	w|--debug|-o
	w|--debug|-c|-o
	w|--debug|-c|-k
	w|--debug|-z|lf
	EOF
	each_both sets &&
	test "$(cat rounds)" = 6 &&
	ls_both w --debug exe &&
	grep "flags: 40004000" dirc.out &&
	ls_both w --debug lf &&
	grep "flags: 8000" dirc.out
'

test_expect_success GIT '--abbrev, --deduplicate, -t, -v, -f, -u, -s, -z' '
	cat >sets <<-\EOF &&
	w|-s|--abbrev
	w|-s|--abbrev=4
	w|-s|--abbrev=1
	w|-s|--abbrev=-3
	w|-s|--abbrev=0
	w|-s|--abbrev=12
	w|-s|--abbrev=40
	w|-s|--abbrev=99
	w|-s|--abbrev|--no-abbrev
	w|-s|--abbrev=x
	w|-s|--abbrev=
	w|--deduplicate
	w|--deduplicate|-d|-m
	w|--deduplicate|-c|-d|-m
	w|--deduplicate|-t
	w|-t
	w|-v
	w|-f
	w|-f|-d|-m
	w|-v|-s
	w|-u
	w|-u|-z
	w|-s|-z
	w|-t|-o|-m|-d
	EOF
	each_both sets &&
	test "$(cat rounds)" = 24 &&
	git -C w -c core.abbrev=12 ls-files -s --abbrev >git.out &&
	dirc -C w -c core.abbrev=12 ls-files -s --abbrev >dirc.out &&
	test_cmp git.out dirc.out
'

test_expect_success GIT '--resolve-undo' '
	(
		cd w &&
		git update-index --add conf 2>/dev/null ||
		{ printf "q\n" >conf && git update-index --add conf; }
	) &&
	git -C w ls-files --resolve-undo >reuc &&
	test_line_count = 3 reuc &&
	cat >sets <<-\EOF &&
	w|--resolve-undo
	w|--resolve-undo|-t
	w|--resolve-undo|--abbrev
	w|--resolve-undo|-z
	w|--resolve-undo|-s
	w|--resolve-undo|conf
	w|--resolve-undo|nosuch|--error-unmatch
	w/sub|--resolve-undo
	w/sub|--resolve-undo|..
	EOF
	each_both sets &&
	test "$(cat rounds)" = 9
'

test_expect_success GIT '--with-tree (git'"'"'s t3060)' '
	git init -q wt &&
	(
		cd wt &&
		mkdir sub &&
		for n in 0 1 2 3 4 5 6 7 8 9
		do
			>sub/file-0$n || exit 1
		done &&
		git add . &&
		git -c user.name=n -c user.email=e commit -q -m "add" &&
		rm -rf sub &&
		git -c user.name=n -c user.email=e commit -q -a -m "remove" &&
		mkdir a_directory_that_sorts_before_sub sub &&
		>a_directory_that_sorts_before_sub/file &&
		>sub/file &&
		git add .
	) &&
	missing=$(printf "%0${OID_HEXSZ}d" 1) &&
	cat >sets <<-EOF &&
	wt|--with-tree=HEAD~1
	wt/sub|--with-tree=HEAD~1
	wt|--with-tree=HEAD
	wt|--with-tree=HEAD~1|-t
	wt|--with-tree=HEAD~1|-d
	wt|--with-tree=HEAD~1|-m
	wt|--with-tree=HEAD~1|--error-unmatch|sub/file-05
	wt|--with-tree=HEAD~1|sub/file-0[12]
	wt|--with-tree=HEAD~1|--format=%(stage) %(path)
	wt|--with-tree=HEAD~1|--debug|sub/file-00
	wt|--with-tree=HEAD~1|-o
	wt|--with-tree=HEAD^{tree}
	wt|--with-tree=HEAD~1:sub
	wt|--with-tree=HEAD|-u
	wt|--with-tree=HEAD|-s
	wt|--with-tree=nosuch
	wt|--with-tree=HEAD:nosuch
	wt|--with-tree=$missing
	wt|--with-tree
	EOF
	each_both sets &&
	test "$(cat rounds)" = 19 &&
	blob=$(git -C wt rev-parse :sub/file) &&
	ls_both wt --with-tree=$blob
'

test_expect_success GIT '--with-tree in a conflict, and without an index' '
	git init -q conflict &&
	(
		cd conflict &&
		echo base >file &&
		git add file &&
		git -c user.name=n -c user.email=e commit -q -m base &&
		git tag BASE &&
		echo A >file &&
		git -c user.name=n -c user.email=e commit -q -a -m A &&
		git tag A &&
		git reset -q --hard BASE &&
		echo B >file &&
		git -c user.name=n -c user.email=e commit -q -a -m B &&
		! git -c user.name=n -c user.email=e merge A >/dev/null 2>&1
	) &&
	ls_both conflict --with-tree=HEAD &&
	test_line_count = 4 dirc.out &&
	ls_both conflict --with-tree=HEAD --format="%(stage) %(objectname)" &&
	ls_both conflict --with-tree=HEAD -t &&
	ls_both conflict --with-tree=HEAD --eol &&
	rm conflict/.git/index &&
	ls_both conflict --with-tree=HEAD &&
	echo file >expect &&
	test_cmp expect dirc.out
'

test_expect_success GIT 'usage errors and the options dirc refuses' '
	usage_both w --nonsense &&
	test_grep "^usage: dirc ls-files" dirc.err &&
	usage_both w -y &&
	usage_both w --format &&
	usage_both w --de &&
	test_grep "^error: ambiguous option: de (could be --debug or --deduplicate)$" dirc.err &&
	usage_both w --no-de &&
	usage_both w --cached=x &&
	usage_both w --no-cached=x &&
	usage_both w --with-tree &&
	test_line_count = 1 dirc.err &&
	ls_both w --recurse-submodules -o &&
	ls_both w --recurse-submodules --error-unmatch &&
	ls_both w --recurse-submodules --with-tree=HEAD &&
	(
		cd w &&
		test_expect_code 128 dirc ls-files --recurse-submodules \
			2>../err &&
		dirc ls-files --recurse-submodules lf >../out &&
		dirc ls-files --sparse >../out2 &&
		dirc ls-files >../expect2 &&
		test_expect_code 128 dirc -c core.fsmonitor=true ls-files -f \
			2>../err8
	) &&
	test_grep "^fatal: ls-files --recurse-submodules: submodules are not supported by dirc (.gitlink. is one)" err &&
	echo lf >expect &&
	test_cmp expect out &&
	test_cmp expect2 out2 &&
	test_grep "^fatal: ls-files -f: core.fsmonitor is not supported" err8 &&
	# the ignore rules are no longer refused (t3101 tests them)
	ls_both w -x foo &&
	ls_both w --exclude-standard -o &&
	ls_both w -i -c &&
	ls_both w -X list &&
	ls_both w --exclude-per-directory=.gitignore
'

test_expect_success GIT '-h in a corrupt repository; a corrupt index otherwise' '
	git init -q broken &&
	>broken/.git/index &&
	(
		cd broken &&
		test_expect_code 129 dirc ls-files -h >../usage 2>&1 &&
		test_expect_code 128 dirc ls-files --nonsense 2>../err &&
		test_expect_code 128 dirc ls-files -z -h 2>../err2
	) &&
	test_grep "^usage: dirc ls-files " usage &&
	test_grep "index file smaller than expected" err &&
	test_grep "index file smaller than expected" err2 &&
	(
		cd .. &&
		test_expect_code 129 dirc ls-files -h >"$TRASH_DIRECTORY/out"
	) &&
	test_grep "^usage: dirc ls-files" out
'

test_expect_success GIT 'a bare repository: the index only' '
	git clone -q --bare w bare.git 2>/dev/null &&
	cp w/.git/index bare.git/index &&
	ls_both bare.git &&
	ls_both bare.git -s &&
	ls_both bare.git -o &&
	ls_both bare.git -m &&
	ls_both bare.git -k &&
	ls_both bare.git /tmp &&
	ls_both bare.git/refs /tmp &&
	GIT_DIR=. ls_both bare.git /tmp &&
	GIT_DIR=bare.git ls_both . /tmp &&
	ls_both bare.git "$(pwd)/bare.git/x"
'

test_expect_success GIT 'a dirc ls-files run leaves the index as it was' '
	cp w/.git/index index.before &&
	(
		cd w &&
		dirc ls-files --eol --debug -o -s >/dev/null &&
		dirc ls-files --with-tree=HEAD >/dev/null 2>&1
		dirc ls-files --format="%(path)" -m >/dev/null
	) &&
	test_cmp index.before w/.git/index
'

test_done
