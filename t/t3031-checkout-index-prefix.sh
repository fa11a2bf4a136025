#!/bin/sh
test_description='checkout-index --prefix: symlinks in the prefix, things in the way

git writes through a symlink among the directories the user named in
--prefix (up to its last slash), and never through one inside the
checked-out tree: a symlink or file where the tree has a directory is in
the way ("cannot create directory at", fatal; replaced with -f).  Each
case runs "git checkout-index" in a copy rg of the repository and "dirc
checkout-index" in another copy rd of the same state (lib-checkout'"'"'s
twins), and compares exit code, output, messages, the entries and the
two work trees.

Where git dies midway (a file in the way without -f), dirc checks every
entry before writing the first, so it dies with git'"'"'s message but
leaves the work tree as it was.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-checkout.sh

INTEROP_STATE=twins

# case_both 'SETUP' ARGS...: SETUP (shell) in fresh copies rg and rd of
# the template, git checkout-index ARGS in rg, dirc in rd.
case_both () {
	rm -rf rg rd &&
	cp -R template rg &&
	cp -R template rd &&
	in_both "$1" &&
	shift &&
	interop_run checkout-index "$@"
}

# what git did, but the work tree as it was before dirc started
fatal_untouched () {
	test_cmp_codes git.code dirc.code &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	tail -n 1 git.err >expect &&
	test_cmp expect dirc.err &&
	state_unchanged
}

test_expect_success GIT 'setup: a template repository' '
	git init -q template &&
	(
		cd template &&
		mkdir path1 &&
		echo frotz >path0 &&
		echo rezrov >path1/file1 &&
		git update-index --add path0 path1/file1
	)
'

test_expect_success GIT,SYMLINKS '--prefix=tmp/orary/ with tmp a symlink: written through it, the link kept' '
	case_both "mkdir tmp1 && ln -s tmp1 tmp" --prefix=tmp/orary/ -f -a &&
	same_result &&
	test -h rd/tmp &&
	test_path_is_file rd/tmp1/orary/path0 &&
	test_path_is_file rd/tmp1/orary/path1/file1 &&
	case_both "mkdir tmp1 && ln -s tmp1 tmp" --prefix=tmp/orary/ -a &&
	same_result &&
	test -h rd/tmp
'

test_expect_success GIT,SYMLINKS '--prefix=tmp/orary- with tmp a symlink: through it too' '
	case_both "mkdir tmp1 && ln -s tmp1 tmp" --prefix=tmp/orary- -f -a &&
	same_result &&
	test -h rd/tmp &&
	test_path_is_file rd/tmp1/orary-path0 &&
	test_path_is_file rd/tmp1/orary-path1/file1
'

test_expect_success GIT,SYMLINKS 'named paths, "./tmp/", "tmp//x/": the same' '
	case_both "mkdir tmp1 && ln -s tmp1 tmp" --prefix=tmp/ path1/file1 &&
	same_result &&
	test_path_is_file rd/tmp1/path1/file1 &&
	case_both "mkdir tmp1 && ln -s tmp1 tmp" --prefix=./tmp/ path1/file1 &&
	same_result &&
	case_both "mkdir tmp1 && ln -s tmp1 tmp" --prefix=tmp//x/ path1/file1 &&
	same_result &&
	test_path_is_file rd/tmp1/x/path1/file1
'

test_expect_success GIT,SYMLINKS 'a symlink to an absolute directory in the prefix' '
	mkdir abs-rg abs-rd &&
	case_both "ln -s \"\$TRASH_DIRECTORY/abs-\${PWD##*/}\" tlink" \
		--prefix=tlink/ path0 path1/file1 &&
	test_cmp_codes git.code dirc.code &&
	test_cmp git.err dirc.err &&
	test -h rd/tlink &&
	test_path_is_file abs-rd/path0 &&
	test_path_is_file abs-rd/path1/file1 &&
	test_path_is_file abs-rg/path1/file1
'

test_expect_success GIT,SYMLINKS '--prefix=tmp- with tmp-path1 a symlink (in the tree): replaced with -f' '
	case_both "mkdir tmp1 && ln -s tmp1 tmp-path1" --prefix=tmp- -f -a &&
	same_result &&
	! test -h rd/tmp-path1 &&
	test_path_is_dir rd/tmp-path1 &&
	test_path_is_file rd/tmp-path1/file1 &&
	test_path_is_missing rd/tmp1/file1
'

test_expect_success GIT,SYMLINKS 'tmp-path1 a symlink without -f: fatal, nothing written' '
	case_both "mkdir tmp1 && ln -s tmp1 tmp-path1" --prefix=tmp- -a &&
	fatal_untouched &&
	echo "fatal: cannot create directory at '"'"'tmp-path1'"'"': File exists" >expect &&
	test_cmp expect dirc.err &&
	test_path_is_missing rd/tmp-path0
'

test_expect_success GIT,SYMLINKS 'a symlink where the tree has a directory, no prefix' '
	case_both "rm -rf path0 path1 && mkdir path2 && ln -s path2 path1" -f -a &&
	same_result &&
	test_path_is_dir rd/path1 &&
	! test -h rd/path1 &&
	test_path_is_missing rd/path2/file1 &&
	case_both "rm -rf path0 path1 && mkdir path2 && ln -s path2 path1" -a &&
	fatal_untouched &&
	test_path_is_missing rd/path0
'

test_expect_success GIT 'a file where the tree has a directory: fatal untouched, -f replaces it' '
	case_both "rm -rf path0 path1 && echo f >path1" path0 path1/file1 &&
	fatal_untouched &&
	test_path_is_missing rd/path0 &&
	case_both "rm -rf path0 path1 && echo f >path1" -f path0 path1/file1 &&
	same_result &&
	test_path_is_file rd/path1/file1
'

test_expect_success GIT 'a file where the prefix has a directory: fatal untouched, -f replaces it' '
	case_both "echo x >file" --prefix=file/ -a &&
	fatal_untouched &&
	echo "fatal: cannot create directory at '"'"'file'"'"': File exists" >expect &&
	test_cmp expect dirc.err &&
	case_both "echo x >file" --prefix=file/sub/ path0 &&
	fatal_untouched &&
	case_both "echo x >file" --prefix=file/ -f -a &&
	same_result &&
	test_path_is_file rd/file/path1/file1
'

test_expect_success GIT,SYMLINKS 'a dangling symlink in the prefix: in the way (fatal), -f replaces it' '
	case_both "ln -s nowhere dang" --prefix=dang/ -a &&
	fatal_untouched &&
	case_both "ln -s nowhere dang" --prefix=dang/ -f -a &&
	same_result &&
	test_path_is_dir rd/dang &&
	case_both "ln -s nowhere dang" --prefix=dang/x/ -f -a &&
	same_result
'

test_expect_success GIT,SYMLINKS 'a symlink at an entry'"'"'s own path: "already exists", not written through' '
	case_both "mkdir -p out/path1 elsewhere && ln -s ../../elsewhere/f out/path1/file1" --prefix=out/ -a &&
	same_result &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	test_path_is_missing rd/elsewhere/f &&
	case_both "mkdir -p out/path1 elsewhere && ln -s ../../elsewhere/f out/path1/file1" --prefix=out/ -f -a &&
	same_result &&
	test_path_is_missing rd/elsewhere/f &&
	test_path_is_file rd/out/path1/file1
'

test_expect_success GIT '-n: no directory is made for a file not there, nothing fatal' '
	case_both "rm -rf path0 path1 && echo f >path1" -n -a &&
	same_result &&
	echo 0 >expect &&
	test_cmp expect dirc.code
'

test_expect_success GIT 'a changed file before the fatal one: git says "already exists", dirc only dies' '
	case_both "echo changed >path0 && rm -rf path1 && echo f >path1" path0 path1/file1 &&
	fatal_untouched &&
	echo "path0 already exists, no checkout" >expect &&
	head -n 1 git.err >actual &&
	test_cmp expect actual &&
	test_line_count = 1 dirc.err
'

test_done
