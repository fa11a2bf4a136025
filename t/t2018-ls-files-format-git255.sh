#!/bin/sh
test_description='ls-files --format: what git 2.40 to 2.55 changed

%(objecttype) (a gitlink is a commit), %(objectsize) and
%(objectsize:padded) (a blob'"'"'s size from the object store, "-" for a
gitlink; a blob that is not stored is fatal), and %(path) above the
current directory, which git 2.39 printed garbled ("../a../a").  The
git installed here (2.39) lacks them, so git 2.55'"'"'s output is written
out; under GIT_NEW (DIRC_TEST_GIT_NEW) every case is also compared with
git 2.55 itself.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-catalogue.sh

# ls_new DIR ARGS...: dirc ls-files in DIR prints expect (and exits 0);
# under GIT_NEW, git 2.55 prints the same
ls_new () {
	ln_dir=$1 &&
	shift &&
	dirc -C "$ln_dir" ls-files "$@" >actual &&
	test_cmp expect actual &&
	if test_have_prereq GIT_NEW
	then
		git_new -C "$ln_dir" ls-files "$@" >actual.new &&
		test_cmp expect actual.new
	fi
}

# ls_fail_new DIR ARGS...: dirc fails with 128, stderr as experr,
# stdout as expect, the index unchanged; git 2.55 alike under GIT_NEW
ls_fail_new () {
	lf_dir=$1 &&
	shift &&
	cp "$lf_dir"/.git/index index.before &&
	test_expect_code 128 dirc -C "$lf_dir" ls-files "$@" >actual 2>err &&
	test_cmp expect actual &&
	test_cmp experr err &&
	test_cmp index.before "$lf_dir"/.git/index &&
	if test_have_prereq GIT_NEW
	then
		test_expect_code 128 git_new -C "$lf_dir" ls-files "$@" \
			>actual 2>err &&
		test_cmp expect actual &&
		test_cmp experr err
	fi
}

test_expect_success GIT 'setup: files, a symlink, a gitlink, an odd name, a conflict' '
	git init -q w &&
	(
		cd w &&
		mkdir sub &&
		printf "a\n" >a &&
		printf "0123456789" >ten &&
		: >empty &&
		printf "%01000d" 0 >sub/big &&
		printf "q\n" >"sub/t	b" &&
		ln -s ten lnk &&
		git add . &&
		git update-index --add --cacheinfo 160000,$(git hash-object a),gl &&
		one=$(printf "one\n" | git hash-object -w --stdin) &&
		three=$(printf "three3\n" | git hash-object -w --stdin) &&
		printf "100644 %s 1\tconf\n100644 %s 3\tconf\n" $one $three >info &&
		git update-index --index-info <info &&
		rm info
	)
'

test_expect_success GIT '%(objecttype), %(objectsize), %(objectsize:padded)' '
	cat >expect <<-\EOF &&
	blob 2 [      2] 0 a
	blob 4 [      4] 1 conf
	blob 7 [      7] 3 conf
	blob 0 [      0] 0 empty
	commit - [      -] 0 gl
	blob 3 [      3] 0 lnk
	blob 1000 [   1000] 0 sub/big
	blob 2 [      2] 0 "sub/t\tb"
	blob 10 [     10] 0 ten
	EOF
	ls_new w "--format=%(objecttype) %(objectsize) [%(objectsize:padded)] %(stage) %(path)"
'

test_expect_success GIT 'the new atoms with -d, -u, -z, and a pathspec' '
	rm w/ten &&
	test_when_finished "git -C w checkout-index ten" &&
	printf "4 conf\n7 conf\n- gl\n10 ten\n" >expect &&
	ls_new w -d "--format=%(objectsize) %(path)" &&
	printf "blob 4 conf\nblob 7 conf\n" >expect &&
	ls_new w -u "--format=%(objecttype) %(objectsize) %(path)" &&
	printf "   1000\000      2\000" >expect &&
	ls_new w -z "--format=%(objectsize:padded)" sub &&
	echo "commit" >expect &&
	ls_new w "--format=%(objecttype)" gl
'

test_expect_success GIT '%(path) above the current directory: as git 2.55 prints it' '
	cat >expect <<-\EOF &&
	x../ay
	x../confy
	x../confy
	x../emptyy
	x../gly
	x../lnky
	xbigy
	x"t\tb"y
	x../teny
	EOF
	ls_new w/sub "--format=x%(path)y" .. &&
	printf "x../ay\000x../confy\000x../confy\000x../emptyy\000x../gly\000x../lnky\000xbigy\000xt\tby\000x../teny\000" >expect &&
	ls_new w/sub -z "--format=x%(path)y" .. &&
	printf "[100644] ../a <0>\n" >expect &&
	ls_new w/sub "--format=[%(objectmode)] %(path) <%(stage)>" ../a
'

test_expect_success GIT 'a blob that is not stored: fatal for %(objectsize) alone, after the lines before it' '
	git init -q m &&
	(
		cd m &&
		echo a >a &&
		git add a &&
		git update-index --add --cacheinfo 100644,$(test_oid_fake 1234),b &&
		echo c >c &&
		git add c
	) &&
	echo "2 a" >expect &&
	echo "fatal: could not get object info about '"'"'$(test_oid_fake 1234)'"'"'" >experr &&
	ls_fail_new m "--format=%(objectsize) %(path)" &&
	echo "      2 a" >expect &&
	ls_fail_new m "--format=%(objectsize:padded) %(path)" &&
	printf "blob a\nblob b\nblob c\n" >expect &&
	ls_new m "--format=%(objecttype) %(path)"
'

test_expect_success GIT 'unknown variants of the atoms: git'"'"'s fatal error, 128' '
	: >expect &&
	for atom in "objectsize:x" "objectsize:padded:x" "objecttype:x" \
		"objectSize" "objectsize "
	do
		echo "fatal: bad ls-files format: %($atom)" >experr &&
		ls_fail_new w "--format=%($atom)" || return 1
	done &&
	echo "fatal: bad ls-files format: %(objecttype()" >experr &&
	ls_fail_new w "--format=%(objecttype())"
'

test_expect_success GIT 'git 2.39 knows none of them: the same error as for any bad atom' '
	test_expect_code 128 git -C w ls-files "--format=%(objectsize)" 2>err &&
	echo "fatal: bad ls-files format: %(objectsize)" >expect &&
	test_cmp expect err
'

test_done
