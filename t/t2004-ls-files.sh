#!/bin/sh
test_description='ls-files: byte for byte what git ls-files prints

An index written by git (version 2, then 3 with skip-worktree and
intent-to-add entries, then 4) holding tricky names, unmerged entries, a
gitlink, deleted and modified files, beside untracked files, a nested
repository and an empty directory.  For each index, many combinations of
options and pathspecs, from the top and from a subdirectory: dirc
ls-files must print what git ls-files prints, on stdout and stderr, and
exit with the same code.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-ls-files.sh

# Each index is checked with every option set of option.sets (one set a
# line, split on blanks) and, from the top, every pathspec set of
# pathspec.sets with -c, -s, -o and -d -m -t; both files are written by
# the setup test.
check_option_sets () {
	cos_fail= &&
	while read -r opts
	do
		test -n "$opts" || continue
		ls_both w $opts || cos_fail=t
	done <option.sets &&
	test -z "$cos_fail"
}

check_pathspec_sets () {
	cps_fail= &&
	set -f &&
	while read -r ps
	do
		test -n "$ps" || continue
		ls_both w -c $ps || cps_fail=t
		ls_both w -s $ps || cps_fail=t
		ls_both w -o $ps || cps_fail=t
		ls_both w -d -m -t $ps || cps_fail=t
	done <pathspec.sets
	set +f
	test -z "$cps_fail"
}

check_subdirectory () {
	csd_fail=
	for opts in "" "-s" "--full-name" "-o" "-o --directory" "-t -c -d -m" \
		"-u" "-z"
	do
		ls_both w/sub $opts || csd_fail=t
		ls_both w/sub $opts .. || csd_fail=t
		ls_both w/sub $opts ../a-b ../a || csd_fail=t
		ls_both w/sub $opts deep || csd_fail=t
		ls_both w/sub $opts "*.c" || csd_fail=t
		ls_both w/sub $opts "../*.c" || csd_fail=t
		ls_both w/sub/deep $opts || csd_fail=t
		ls_both w/sub/deep $opts ../.. || csd_fail=t
		ls_both w/a $opts ../sub || csd_fail=t
	done
	test -z "$csd_fail"
}

test_expect_success GIT 'setup: a repository written by git' '
	TAB=$(printf "\t") &&
	LF=$(printf "\nx") &&
	LF=${LF%x} &&
	UTF=$(printf "utf\303\251") &&
	T0=1500000000 &&
	cat >option.sets <<-\EOF &&
	-c
	-s
	-u
	-d
	-m
	-o
	-o --directory
	-c -z
	-s -z
	-o -z
	-d -z
	-t
	-t -c -d -m -o
	-c -d
	-c -d --deduplicate
	-c -d -m --deduplicate
	-s --deduplicate
	-t -c -d -m --deduplicate
	-u --deduplicate
	-m -d
	-s -d
	-u -z
	--full-name
	--stage --cached --deleted --modified --others
	EOF
	cat >pathspec.sets <<-\EOF &&
	sub
	sub/
	*.c
	sub/*.c
	a
	a/b
	a/
	a-b a.b
	q"uote
	conflict
	nosuch
	sub/deep
	sub/deep/three.c ./top.c
	./sub/../a0
	EOF
	git init -q w &&
	test_fsck_also w &&
	(
		cd w &&
		mkdir a sub sub/deep emptydir newdir newdir/y &&
		for f in -x a-b a.b a/b a0 a_b ab "sp ace" "$UTF" "ta${TAB}b" \
			"nl${LF}x" "back\\slash" "q\"uote" sub/one.c sub/two.h \
			sub/deep/three.c top.c deleted modified skipped ita \
			untracked sub/untracked.c newdir/x newdir/y/z
		do
			printf "%s\n" "$f" >"$f" || exit 1
		done &&
		printf "#!/bin/sh\n" >exe &&
		chmod +x exe &&
		if test_have_prereq SYMLINKS
		then
			ln -s a-b lnk
		else
			echo a-b >lnk
		fi &&
		git init -q nested &&
		echo inner >nested/file &&
		git init -q sub/gl &&
		echo gl >sub/gl/file &&
		git -C sub/gl add file &&
		git -C sub/gl -c user.name=n -c user.email=e commit -q -m gl &&
		for f in -x a-b a.b a/b a0 a_b ab "sp ace" "$UTF" "ta${TAB}b" \
			"nl${LF}x" "back\\slash" "q\"uote" sub/one.c sub/two.h \
			sub/deep/three.c top.c deleted modified skipped ita exe \
			lnk untracked sub/untracked.c newdir/x newdir/y/z \
			nested/file sub/gl/file
		do
			touch -h -d @$T0 -- "$f" || exit 1
		done &&
		git update-index --add -- -x a-b a.b a/b a0 a_b ab "sp ace" \
			"$UTF" "ta${TAB}b" "nl${LF}x" "back\\slash" "q\"uote" \
			sub/one.c sub/two.h sub/deep/three.c top.c deleted \
			modified skipped exe lnk sub/gl &&
		blob=$(git hash-object -w a0) &&
		blob2=$(git hash-object -w a-b) &&
		printf "100644 %s %d\tconflict\n" $blob 1 $blob2 2 $blob 3 \
			$blob 1 $blob2 3 >info &&
		printf "100644 %s %d\tsub/both\n" $blob 2 $blob2 3 >>info &&
		git update-index --index-info <info &&
		rm info &&
		rm deleted &&
		echo "modified, and longer" >modified &&
		touch -d @$((T0 + 100)) modified &&
		git ls-files -s >../stage &&
		git ls-files -u >../unmerged
	) &&
	grep "	conflict$" unmerged >conflict &&
	test_line_count = 3 conflict &&
	test "$(head -c 8 w/.git/index | tail -c 4 | od -An -tx1 | tr -d " ")" = 00000002
'

test_expect_success GIT 'version 2 index: every option set' '
	check_option_sets
'

test_expect_success GIT 'version 2 index: pathspecs (file, directory, glob)' '
	check_pathspec_sets
'

test_expect_success GIT 'version 2 index: from a subdirectory, with ../ pathspecs' '
	check_subdirectory
'

test_expect_success GIT '--error-unmatch: message and exit 1, like git' '
	ls_both w --error-unmatch nosuch &&
	test_cmp_codes git.code dirc.code &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	test_grep "^error: pathspec .nosuch. did not match any file(s) known to git" dirc.err &&
	ls_both w --error-unmatch a-b nosuch "sub/*.x" &&
	ls_both w --error-unmatch a-b sub "*.c" &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	ls_both w --error-unmatch -s sub/deep top.c &&
	ls_both w --error-unmatch -o untracked &&
	ls_both w/sub --error-unmatch ../a-b one.c nosuch
'

test_expect_success GIT 'version 3 index: skip-worktree and intent-to-add entries' '
	(
		cd w &&
		git update-index --skip-worktree skipped a0 &&
		rm skipped &&
		git add -N ita
	) &&
	test "$(head -c 8 w/.git/index | tail -c 4 | od -An -tx1 | tr -d " ")" = 00000003
'

test_expect_success GIT 'version 3 index: every option set' '
	check_option_sets
'

test_expect_success GIT 'version 3 index: pathspecs' '
	check_pathspec_sets &&
	ls_both w -t skipped ita &&
	ls_both w -s -d -m skipped ita
'

test_expect_success GIT 'version 3 index: from a subdirectory' '
	check_subdirectory
'

test_expect_success GIT 'version 4 index' '
	git -C w update-index --index-version 4 &&
	test "$(head -c 8 w/.git/index | tail -c 4 | od -An -tx1 | tr -d " ")" = 00000004 &&
	v4_fail= &&
	{ check_option_sets || v4_fail=t; } &&
	{ check_pathspec_sets || v4_fail=t; } &&
	{ check_subdirectory || v4_fail=t; } &&
	test -z "$v4_fail"
'

test_expect_success GIT 'assume-unchanged entries: -v shows them lowercased' '
	git -C w update-index --assume-unchanged a-b sub/one.c modified &&
	ls_both w -v &&
	ls_both w -v -c -d -m &&
	ls_both w -m &&
	ls_both w -t &&
	git -C w update-index --no-assume-unchanged a-b sub/one.c modified
'

test_expect_success GIT 'a dirc ls-files run leaves the index as it was' '
	cp -p w/.git/index index.before &&
	(
		cd w &&
		dirc ls-files -m -d -o -s >../out
	) &&
	test_cmp index.before w/.git/index
'

test_expect_success GIT 'an index with every file up to date: -m and -d print nothing' '
	git init -q clean &&
	(
		cd clean &&
		echo a >a &&
		echo b >b &&
		touch -d @$T0 a b &&
		git update-index --add a b &&
		dirc ls-files -m -d >../out
	) &&
	test_must_be_empty out &&
	ls_both clean -m -d -o
'

test_expect_success GIT 'no index at all: nothing cached, untracked files listed' '
	git init -q noindex &&
	(
		cd noindex &&
		echo x >x &&
		mkdir d &&
		echo y >d/y
	) &&
	test_path_is_missing noindex/.git/index &&
	ls_both noindex &&
	ls_both noindex -o &&
	ls_both noindex -o --directory &&
	ls_both noindex -s -d -m
'

test_expect_success GIT 'quotePath=false prints UTF-8 names raw' '
	git -C w config core.quotePath false &&
	test_when_finished "git -C w config --unset core.quotePath" &&
	ls_both w &&
	ls_both w -o -s
'

test_done
