#!/bin/sh
test_description='ls-files -o and -k: the untracked walk, as git walks

Directory pathspecs with and without --directory (one, several, deep,
mixed with files and globs), nested repositories (shown as "repo/", not
walked into, not listed when only a pathspec below them asks), a
directory with a .git file that names no repository, a submodule whose
.git is a directory of symlinks (git-new-workdir), --error-unmatch with
-o, -o from a subdirectory, --no-empty-directory, unreadable directories,
FIFOs, symlinks on the way, and -k with and without core.ignorecase.
Every case is run by git ls-files and dirc ls-files from the same state.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-ls-files.sh

test_expect_success GIT 'setup: tracked, untracked, nested repositories' '
	git init -q w &&
	(
		cd w &&
		mkdir -p partial/untracked_dir untracked/deep tracked/sub \
			empty/emptier untracked_dir "untracked_*" an_dir &&
		>partial/content &&
		>partial/untracked_dir/file &&
		>untracked/deep/path &&
		>untracked/deep/foo.c &&
		>untracked/top.c &&
		>tracked/sub/t &&
		>tracked/u &&
		>untracked_dir/empty &&
		>"untracked_*/empty" &&
		>an_dir/x &&
		>top &&
		git add partial/content tracked/sub/t top &&
		git init -q untracked_repo &&
		>untracked_repo/empty &&
		git init -q untracked/deep/repo &&
		mkdir not-a-repo &&
		echo foo >not-a-repo/.git &&
		>not-a-repo/inside &&
		mkdir gitfile-repo &&
		git init -q --separate-git-dir="$TRASH_DIRECTORY/sep.git" \
			gitfile-repo &&
		>gitfile-repo/g
	)
'

test_expect_success GIT 'the whole tree, with and without --directory' '
	cat >sets <<-\EOF &&
	w|-o
	w|-o|--directory
	w|-o|--directory|--no-empty-directory
	w|-o|--no-empty-directory
	w|-o|-t
	w|-o|-z
	w|-o|--directory|-z
	w|-o|-c|-t
	EOF
	each_both sets &&
	test "$(cat rounds)" = 8
'

test_expect_success GIT 'directory pathspecs (git'"'"'s t3000, t3011 cases and more)' '
	cat >sets <<-\EOF &&
	w|-o|--directory|untracked/deep/
	w|-o|--directory|untracked/deep
	w|-o|--directory|partial/|untracked/
	w|-o|--directory|partial/|untracked/deep/path
	w|-o|--directory|partial|untracked/*.c
	w|-o|--directory|partial/|untracked/?*
	w|-o|--directory|untracked/*.c
	w|-o|--directory|untracked/?*
	w|-o|untracked/*.c
	w|-o|untracked_dir
	w|-o|untracked_dir/
	w|-o|--directory|untracked_dir
	w|-o|--directory|untracked_dir/
	w|-o|untracked_repo
	w|-o|untracked_repo/
	w|-o|untracked_dir|untracked_repo
	w|-o|untracked_dir/|untracked_repo/
	w|-o|--directory|untracked_dir|untracked_repo
	w|-o|--directory|untracked_dir/|untracked_repo/
	w|-o|untracked_*
	w|-o|untracked_*/
	w|-o|--directory|untracked_*
	w|-o|--directory|untracked_*/
	w|-o|.git
	w|-o|.git/
	w|-o|untracked_repo/empty
	w|-o|untracked/deep/repo/
	w|-o|untracked/deep/repo/x
	w|-o|--directory|tracked/
	w|-o|tracked
	w|-o|--directory|empty/
	w|-o|--directory|--no-empty-directory|empty/
	w|-o|--directory|--no-empty-directory|empty
	w|-o|--directory|--no-empty-directory|untracked/
	w|-o|an_dir/x|:!an_dir/y
	w|-o|--directory|:!untracked/
	w|-o|--directory|untracked/|:!untracked/deep/
	w|-o|nosuch/deeper
	w|-o|untracked/nosuch/x
	w|-o|top/x
	EOF
	each_both sets &&
	test "$(cat rounds)" = 40
'

test_expect_success GIT 'nested repositories: not walked into, gitfiles, bogus .git' '
	cat >sets <<-\EOF &&
	w|-o|not-a-repo
	w|-o|--directory|not-a-repo
	w|-o|gitfile-repo
	w|-o|gitfile-repo/g
	w|-o|--directory|gitfile-repo/
	EOF
	each_both sets &&
	test "$(cat rounds)" = 5 &&
	ls_both w -o not-a-repo &&
	grep "^not-a-repo/inside$" dirc.out &&
	ls_both w -o gitfile-repo &&
	echo gitfile-repo/ >expect &&
	test_cmp expect dirc.out
'

test_expect_success GIT,SYMLINKS 'a submodule whose .git is a directory of symlinks' '
	git init -q sub &&
	(
		cd sub &&
		>a &&
		git add a &&
		git -c user.name=n -c user.email=e commit -q -m sub &&
		git pack-refs --all
	) &&
	git init -q super &&
	(
		cd super &&
		mkdir -p sub/.git &&
		for x in config refs logs/refs objects info hooks packed-refs \
			remotes rr-cache svn
		do
			case $x in
			*/*) mkdir -p "sub/.git/${x%/*}" ;;
			esac &&
			ln -s "$TRASH_DIRECTORY/sub/.git/$x" "sub/.git/$x" ||
			exit 1
		done &&
		cp ../sub/.git/HEAD sub/.git/HEAD
	) &&
	ls_both super -o &&
	echo sub/ >expect &&
	test_cmp expect dirc.out &&
	ls_both super -o --directory sub
'

test_expect_success GIT '--error-unmatch with -o (git'"'"'s t3005)' '
	(
		cd w &&
		mkdir -p top2/sub &&
		>top2/x &&
		>top2/y &&
		git add top2/x
	) &&
	ls_both w/top2/sub -o --error-unmatch ../x ../y &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	ls_both w/top2/sub -c --error-unmatch ../x ../y &&
	ls_both w -o --error-unmatch untracked_dir/ nosuch &&
	ls_both w -o --directory --error-unmatch untracked/ untracked/deep/ &&
	ls_both w -o --error-unmatch untracked_repo/empty
'

test_expect_success GIT '-o from a subdirectory: names relative to it' '
	cat >sets <<-\EOF &&
	w/untracked|-o
	w/untracked|-o|--directory
	w/untracked|-o|..
	w/untracked|-o|--directory|..
	w/untracked|-o|--directory|--no-empty-directory|..
	w/untracked|-o|../untracked_dir
	w/untracked|-o|--full-name|..
	w/untracked/deep|-o|../..
	w/untracked/deep|-o|.
	w/untracked/deep|-o|--directory|.
	w/untracked/deep|-o|--directory|..
	w/tracked|-o|--directory|../partial/
	w/partial|-o|-k|..
	EOF
	each_both sets &&
	test "$(cat rounds)" = 13
'

test_expect_success GIT 'FIFOs are not files; symlinks are, and are not followed' '
	(
		cd w &&
		mkdir -p special &&
		mkfifo special/fifo &&
		if test_have_prereq SYMLINKS
		then
			ln -s ../untracked special/link &&
			ln -s untracked via-link
		fi
	) &&
	ls_both w -o special &&
	ls_both w -o --directory --no-empty-directory special &&
	ls_both w -o via-link/deep &&
	ls_both w -o via-link/ &&
	ls_both w -o via-link
'

test_expect_success GIT,UNPRIV 'an unreadable directory: git'"'"'s warning, then the rest' '
	(
		cd w &&
		mkdir -p locked/in &&
		>locked/in/f &&
		chmod 000 locked
	) &&
	test_when_finished "chmod 755 w/locked" &&
	for args in "-o" "-o --directory" "-o locked/in" "-o locked/in/" \
		"-o --directory --no-empty-directory"
	do
		# shellcheck disable=SC2086
		run_unpriv sh -c "cd w && git -c safe.directory=\"*\" ls-files $args" \
			>git.out 2>git.err
		echo $? >git.code
		# shellcheck disable=SC2086
		run_unpriv sh -c "cd w && dirc ls-files $args" \
			>dirc.out 2>dirc.err
		echo $? >dirc.code
		test_cmp_codes git.code dirc.code &&
		test_cmp git.out dirc.out &&
		test_cmp git.err dirc.err || return 1
	done &&
	test_grep "^warning: could not open directory .locked/.: Permission denied" dirc.err
'

test_expect_success GIT '-k: what a checkout of the index would remove (git'"'"'s t3010)' '
	git init -q k &&
	(
		cd k &&
		mkdir -p path2 path3 pathx &&
		date >path0 &&
		date >path1 &&
		date >path2/file2 &&
		date >path3/file3 &&
		>pathx/ju &&
		git update-index --add path0 path1 path2/file2 path3/file3 \
			pathx/ju &&
		rm -r path0 path1 path2 path3 pathx &&
		mkdir -p path0 path1 path6 pathx/ju &&
		date >path2 &&
		date >path0/file0 &&
		date >path1/file1 &&
		date >path6/file6 &&
		>pathx/ju/nk &&
		if test_have_prereq SYMLINKS
		then
			ln -s frotz path3
		else
			date >path3
		fi
	) &&
	for args in "-k" "-k -t" "-k -o" "-k --directory" "-k path0/file0" \
		"-k pathx/ju/nk" "-k path2/" "-k ." "-k -z" "-o -k -m -d -t" \
		"-o --directory" "-o" "-o --directory --no-empty-directory"
	do
		# shellcheck disable=SC2086
		ls_both k $args || return 1
	done &&
	cat >expect <<-\EOF &&
	path0/file0
	path1/file1
	path2
	path3
	pathx/ju/nk
	EOF
	ls_both k -k &&
	test_cmp expect dirc.out
'

test_expect_success GIT '-k and -o with core.ignorecase' '
	git -C k config core.ignorecase true &&
	test_when_finished "git -C k config --unset core.ignorecase" &&
	ls_both k -k &&
	ls_both k -o &&
	(
		cd k &&
		>PATH6-not &&
		mkdir -p Path0 &&
		>Path0/other &&
		>PATHX
	) &&
	ls_both k -o &&
	ls_both k -k &&
	ls_both k -o --directory
'

test_expect_success GIT 'the index is left as it was' '
	cp w/.git/index index.before &&
	(
		cd w &&
		dirc ls-files -o -k --directory >/dev/null
	) &&
	test_cmp index.before w/.git/index
'

test_done
