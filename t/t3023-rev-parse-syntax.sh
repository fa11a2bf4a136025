#!/bin/sh
test_description='rev-parse: revision syntax and git'"'"'s diagnostics

A..B and A...B (with the merge bases, also several of them), ^@, ^!,
^-<n>, ^{/<regex>} and :/<regex> (with "!-" and "!!"), describe names,
<rev>:<path> and :<n>:<path> with ./ and ../ paths, and what git says
when a name is not one: "ambiguous argument", "bad revision", "path
... does not exist in ...", "... exists on disk, but not in the index",
the "Did you mean" hints, paths outside the work tree.  Compared with
git: exit code, stdout, stderr.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-rev-parse.sh

test_expect_success GIT 'setup: a history with merges, criss-cross, tags' '
	mkdir -p subdir &&
	echo one >file.txt &&
	echo two >subdir/file.txt &&
	echo three >subdir/file2.txt &&
	git add . &&
	git commit -q -m Initial &&
	git tag -a -m annote annotated &&
	git branch ref &&
	for m in Modified "!Exp" Changed Changed-again
	do
		test_tick &&
		echo "$m" >>file.txt &&
		git commit -q -a -m "$m" || return 1
	done &&
	git branch expref HEAD~2 &&
	git checkout -q -b a ref &&
	test_tick &&
	echo a >a.txt && git add a.txt && git commit -q -m A1 &&
	git checkout -q -b b ref &&
	test_tick &&
	echo b >b.txt && git add b.txt && git commit -q -m B1 &&
	git checkout -q a &&
	test_tick &&
	git merge -q -m "merge b into a" b &&
	git checkout -q b &&
	test_tick &&
	git merge -q -m "merge a1 into b" a~1 &&
	git checkout -q master &&
	echo four >index-only.txt &&
	git add index-only.txt &&
	echo five >disk-only.txt
'

test_expect_success GIT 'A..B, A...B, with one, none or several merge bases' '
	rp_each_like_git master..ref ref..master master...ref ..master \
		master.. ...master master... .. ... a...b b...a a..b \
		annotated..annotated annotated...annotated HEAD...HEAD \
		master..nosuch nosuch...master ^master a..b..c &&
	for o in --symbolic --symbolic-full-name --short --not --abbrev-ref
	do
		rp_like_git $o master...ref a...b || return 1
	done
'

test_expect_success GIT 'ends that are not commits: printed, then git'"'"'s error' '
	rp_each_like_git :file.txt...master master...:file.txt \
		master^{tree}...ref :file.txt..master HEAD:subdir...ref
'

test_expect_success GIT '<rev>^@, <rev>^!, <rev>^-[<n>]' '
	rp_each_like_git "a^@" "a^!" "a^-" "a^-1" "a^-2" "a^-3" "a^-0" \
		"a^-x" "ref^@" "ref^!" "ref^-" "annotated^!" "nosuch^@" \
		"a^@x" "a^!^" "master^{tree}^@" &&
	rp_like_git --symbolic "a^@" "a^-2" "a^!"
'

test_expect_success GIT '^{/<regex>} and :/<regex>, with !- and !!' '
	rp_each_like_git "master^{/.}" "master^{/non-existent}" \
		"master^{/Initial}" "master^{/!Exp}" "master^{/!}" \
		"master^{/!!Exp}" "master^{/!-}" "master^{/!-.}" \
		"master^{/!-non-existent}" "master^{/!-Changed}" \
		"expref^{/!-!Exp}" "master^{/}" "master^{/[}" "master^{/(}" \
		":/Initial" ":/Changed" ":/!-Changed" ":/!!Exp" ":/nomatch" \
		":/" ":/!x" ":/merge" ":/^B1$" "annotated^{/Init}" \
		"master^{/Changed}~1" "master^{/a:b}" "HEAD^{/^M}:file.txt"
'

test_expect_success GIT 'describe names and ^{type} quirks' '
	h=$(git rev-parse --short=5 ref) &&
	rp_each_like_git "v1-0-g$h" "x-g$h" "x-g$h^{tree}" "-g$h" \
		"master^{commit}xyz}" "ref^{non-existent}" "ref^{}" \
		"annotated^{}" "annotated^{tag}" "annotated^{object}" \
		"master^{tag}" "master^{blob}" "annotated^{blob}" \
		"master^{tree}^{commit}" "HEAD^100000000000000000000" \
		"HEAD~100000000000000000000" "HEAD^2147483648" "HEAD~4294967296"
'

test_expect_success GIT '<rev>:<path> and :<n>:<path>: found, or git'"'"'s diagnosis' '
	rp_each_like_git HEAD:file.txt HEAD:subdir/file.txt :index-only.txt \
		:0:file.txt :./file.txt HEAD:./file.txt foobar:file.txt \
		foobar HEAD:nothing.txt HEAD:index-only.txt :nothing.txt \
		:1:nothing.txt :1:file.txt :disk-only.txt HEAD:. HEAD:./ \
		HEAD:subdir/ HEAD:subdir// HEAD:/subdir HEAD:subdir/file.txt/ \
		HEAD:./subdir/../file.txt ":4:file.txt" "::file.txt" ":" \
		":(glob)x" ":!x" HEAD: "HEAD:" "HEAD::x"
'

test_expect_success GIT 'the same from a subdirectory: ./, ../ and the hints' '
	rp_each_like_git -C subdir HEAD:file2.txt HEAD:subdir/file2.txt \
		HEAD:./file2.txt HEAD:../file.txt HEAD:../subdir/../file.txt \
		:file2.txt :./file.txt :../file.txt :0:../file.txt :1:file.txt \
		:2:file2.txt HEAD:./nonexistent.txt HEAD:.. HEAD:../ \
		:./nothing.txt HEAD:./ HEAD:.
'

test_expect_success GIT 'relative paths outside the work tree' '
	rp_like_git HEAD:../file.txt &&
	rp_code 128 &&
	test_must_be_empty dirc.out &&
	(
		GIT_DIR=.git &&
		GIT_WORK_TREE=subdir &&
		export GIT_DIR GIT_WORK_TREE &&
		rp_like_git HEAD:./file.txt &&
		rp_like_git :./file.txt
	) &&
	rp_like_git -C .git HEAD:./file.txt
'

test_expect_success GIT 'names, paths and "--": which argument is which' '
	>foobar &&
	for args in "file.txt HEAD:file.txt" "foobar --" "file.txt --" \
		"HEAD -- file.txt" "-- --local-env-vars" "*.c" "foo\\\\bar" \
		"foo\\\\*bar" "file.txt -x" "file.txt --" "HEAD file.txt HEAD" \
		"nosuch --" "HEAD nosuch" "file.txt nosuch" "-- nosuch" \
		"subdir/file.txt" "subdir" "." ".." "/" "" "HEAD:nosuch --"
	do
		rp_like_git $args || return 1
	done &&
	git update-ref refs/heads/foobar HEAD &&
	rp_like_git foobar -- &&
	git update-ref -d refs/heads/foobar
'

test_expect_success GIT '-q, --verify and --symbolic-full-name with the same names' '
	for a in HEAD:nothing.txt :nothing.txt foobar HEAD^{blob} \
		master...ref "a^@" ":/Initial" HEAD:../file.txt
	do
		rp_like_git --verify "$a" &&
		rp_like_git -q --verify "$a" &&
		rp_like_git --symbolic-full-name "$a" || return 1
	done
'

# Resolving a name through an object that cannot be read is fatal for
# git, in rev-parse and in cat-file's batches alike (dirc said "ambiguous
# argument" and "missing").  git adds two "error:" lines of zlib detail.
test_expect_success GIT 'a corrupt commit on the way: git'"'"'s fatal "loose object ... is corrupt"' '
	git init -q corrupt &&
	(
		cd corrupt &&
		git commit -q --allow-empty -m one &&
		git commit -q --allow-empty -m two &&
		git commit -q --allow-empty -m three &&
		c=$(git rev-parse HEAD~1) &&
		f=.git/objects/$(echo $c | cut -c1-2)/$(echo $c | cut -c3-) &&
		chmod u+w $f &&
		echo garbage >$f &&
		for name in "HEAD~2" "HEAD~1^{tree}" "HEAD^^" "$c^{commit}" "HEAD~1:"
		do
			test_expect_code 128 git rev-parse "$name" >git.out 2>git.err &&
			test_expect_code 128 dirc rev-parse "$name" >dirc.out 2>dirc.err &&
			test_cmp git.out dirc.out &&
			test_grep "^fatal: loose object $c (stored in .*) is corrupt" dirc.err &&
			test_expect_code 128 git rev-parse --verify -q "$name" &&
			test_expect_code 128 dirc rev-parse --verify -q "$name" 2>dirc.err &&
			test_grep "^fatal: loose object $c" dirc.err &&
			printf "%s\\nHEAD\\n" "$name" >in &&
			test_expect_code 128 git cat-file --batch-check <in >git.out 2>git.err &&
			test_expect_code 128 dirc cat-file --batch-check <in >dirc.out 2>dirc.err &&
			test_cmp git.out dirc.out &&
			test_grep "^fatal: loose object $c" dirc.err || return 1
		done &&
		dirc rev-parse HEAD >dirc.out &&
		git rev-parse HEAD >git.out &&
		test_cmp git.out dirc.out
	)
'

test_done
