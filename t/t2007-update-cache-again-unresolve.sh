#!/bin/sh
test_description='update-cache --again (-g) and --unresolve, and resolve-undo records, as git

--again re-registers every entry whose mode or id differs from HEAD
(every entry without a HEAD), under the options given before it, limited
by the pathspecs after it (from a subdirectory: that directory), and
starts over when an entry goes.  --unresolve brings back the stages of a
resolved conflict from the resolve-undo (REUC) record, else from HEAD
and MERGE_HEAD.  Each case runs git update-index and dirc update-cache
from the same index: exit code, output, messages and index bytes.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh

# both_like_git ARGS...: run_both ARGS, and the same result.
both_like_git () {
	run_both "$@" &&
	same_result
}

test_expect_success GIT 'setup: a commit of three files and a directory' '
	echo 1 >a &&
	echo 2 >b &&
	echo 3 >c &&
	mkdir d &&
	echo 4 >d/e &&
	echo 5 >d/f &&
	git add a b c d &&
	test_tick &&
	git commit -q -m initial &&
	cp .git/index committed.index
'

test_expect_success GIT '--again with nothing changed: nothing to do, exit 0' '
	both_like_git --verbose --again &&
	test_must_be_empty dirc.out
'

test_expect_success GIT '--again: the entries that differ from HEAD are updated from the work tree' '
	echo 11 >a &&
	echo 33 >c &&
	git update-index a c &&
	echo 111 >a &&
	echo 333 >c &&
	echo 22 >b &&
	cp .git/index changed.index &&
	both_like_git --verbose --again &&
	test_write_lines "add '\''a'\''" "add '\''c'\''" >expect &&
	test_cmp expect dirc.out
'

test_expect_success GIT '-g is --again; -g takes the rest of the line as pathspecs' '
	cp changed.index .git/index &&
	both_like_git --verbose -g c &&
	test_write_lines "add '\''c'\''" >expect &&
	test_cmp expect dirc.out
'

test_expect_success GIT '--again of a deleted file: fatal without --remove, index untouched' '
	cp changed.index .git/index &&
	mv a a.away &&
	run_both --again &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	index_unchanged
'

test_expect_success GIT '--remove --again removes it, and starts over as git (a reported twice)' '
	cp changed.index .git/index &&
	mv a.away a &&
	mv c c.away &&
	both_like_git --verbose --remove --again &&
	test_write_lines "add '\''a'\''" "add '\''c'\''" "add '\''a'\''" >expect &&
	test_cmp expect dirc.out &&
	mv c.away c
'

test_expect_success GIT '--again from a subdirectory: only that directory' '
	cp committed.index .git/index &&
	echo 44 >d/e &&
	echo 11 >a &&
	git update-index a d/e &&
	echo 444 >d/e &&
	echo 111 >a &&
	both_like_git -C d --verbose --again &&
	test_write_lines "add '\''d/e'\''" >expect &&
	test_cmp expect dirc.out
'

test_expect_success GIT '--again with pathspecs: a directory, ../ from a subdirectory, a glob' '
	both_like_git --verbose --again d/ &&
	test_write_lines "add '\''d/e'\''" >expect &&
	test_cmp expect dirc.out &&
	both_like_git -C d --verbose --again ../a &&
	test_write_lines "add '\''a'\''" >expect &&
	test_cmp expect dirc.out &&
	both_like_git --verbose --again "*e" &&
	test_write_lines "add '\''d/e'\''" >expect &&
	test_cmp expect dirc.out &&
	both_like_git --verbose --again nothing-matches &&
	test_must_be_empty dirc.out
'

test_expect_success GIT '--again honours GIT_LITERAL_PATHSPECS' '
	GIT_LITERAL_PATHSPECS=1 &&
	export GIT_LITERAL_PATHSPECS &&
	test_when_finished "unset GIT_LITERAL_PATHSPECS" &&
	both_like_git --verbose --again "*e" &&
	test_must_be_empty dirc.out
'

test_expect_success GIT '--again with GIT_GLOB_PATHSPECS (a wildcard stops at /) and GIT_ICASE_PATHSPECS' '
	both_like_git --verbose --again "d*" &&
	test_write_lines "add '\''d/e'\''" >expect &&
	test_cmp expect dirc.out &&
	GIT_GLOB_PATHSPECS=1 &&
	export GIT_GLOB_PATHSPECS &&
	both_like_git --verbose --again "d*" &&
	test_must_be_empty dirc.out &&
	unset GIT_GLOB_PATHSPECS &&
	GIT_ICASE_PATHSPECS=1 &&
	export GIT_ICASE_PATHSPECS &&
	both_like_git --verbose --again D/E &&
	test_write_lines "add '\''d/e'\''" >expect &&
	test_cmp expect dirc.out &&
	both_like_git --verbose --again "D/*" &&
	test_cmp expect dirc.out &&
	unset GIT_ICASE_PATHSPECS
'

test_expect_success GIT '--again: a changed mode alone differs from HEAD too' '
	cp committed.index .git/index &&
	echo 1 >a &&
	git update-index --chmod=+x a &&
	both_like_git --verbose --again &&
	test_write_lines "add '\''a'\''" >expect &&
	test_cmp expect dirc.out
'

test_expect_success GIT '--again after --refresh: --again decides the exit code, as in git' '
	cp committed.index .git/index &&
	echo 11 >a &&
	echo 22 >b &&
	git update-index a &&
	both_like_git --refresh --again &&
	echo 0 >expect &&
	test_cmp expect dirc.code
'

test_expect_success GIT '--again without a HEAD: every entry' '
	git init -q fresh &&
	(
		cd fresh &&
		echo x >x &&
		echo y >y &&
		git update-index --add x y &&
		echo xx >x
	) &&
	both_like_git -C fresh --verbose --again &&
	test_write_lines "add '\''x'\''" "add '\''y'\''" >expect &&
	test_cmp expect dirc.out
'

test_expect_success GIT 'setup: a conflict, resolved with update-cache (REUC written as git writes it)' '
	cp committed.index .git/index &&
	git checkout -q -f &&
	git checkout -q -b side &&
	echo side >a &&
	echo side >b &&
	git commit -q -a -m side &&
	git checkout -q master &&
	echo main >a &&
	echo main >b &&
	git commit -q -a -m main &&
	! git merge side >/dev/null &&
	cp .git/index conflict.index &&
	echo resolved >a &&
	echo resolved >b &&
	both_like_git a b &&
	git ls-files --resolve-undo >reuc &&
	test_line_count = 6 reuc &&
	cp .git/index.by-git resolved.index
'

test_expect_success GIT '--unresolve from the REUC record: stages 1-3 back, the record gone' '
	cp resolved.index .git/index &&
	both_like_git --unresolve a &&
	git ls-files -s a >stages &&
	test_line_count = 3 stages &&
	git ls-files --resolve-undo >reuc &&
	test_line_count = 3 reuc
'

test_expect_success GIT '--unresolve of a path still unmerged: skipped with a note, exit 0' '
	cp conflict.index .git/index &&
	both_like_git --unresolve a &&
	echo "a: skipping still unmerged path." >expect &&
	test_cmp expect dirc.err
'

test_expect_success GIT '--unresolve without a record: stages 2 and 3 from HEAD and MERGE_HEAD' '
	cp resolved.index .git/index &&
	git update-index --clear-resolve-undo &&
	both_like_git --unresolve b &&
	git ls-files -s b >stages &&
	test_line_count = 2 stages
'

test_expect_success GIT '--unresolve of a path the same in both branches: skipped with a note' '
	cp resolved.index .git/index &&
	both_like_git --unresolve c &&
	echo "c: identical in both, skipping." >expect &&
	test_cmp expect dirc.err
'

test_expect_success GIT '--unresolve of a path in neither branch, or a directory: errors, exit 1, nothing written' '
	cp resolved.index .git/index &&
	both_like_git --unresolve nosuch &&
	cat >expect <<-\EOF &&
	error: nosuch: not in our branch.
	error: nosuch: not in their branch.
	EOF
	test_cmp expect dirc.err &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	both_like_git --unresolve a d &&
	index_unchanged &&
	both_like_git -C d --unresolve ../a e
'

test_expect_success GIT '--unresolve from a subdirectory, and with no path' '
	cp resolved.index .git/index &&
	both_like_git -C d --unresolve ../a &&
	both_like_git --verbose --unresolve
'

test_expect_success GIT '--unresolve outside a merge: "Not in the middle of a merge.", exit 0, nothing done' '
	cp resolved.index .git/index &&
	mv .git/MERGE_HEAD merge-head &&
	both_like_git --unresolve a &&
	echo "Not in the middle of a merge." >expect &&
	test_cmp expect dirc.err &&
	index_unchanged &&
	mv merge-head .git/MERGE_HEAD
'

test_expect_success GIT '--unresolve without a HEAD: fatal, 128' '
	both_like_git -C fresh --unresolve x &&
	echo "fatal: No HEAD -- no initial commit yet?" >expect &&
	test_cmp expect dirc.err
'

test_expect_success GIT 'REUC: resolving by --cacheinfo, by --index-info, by --remove' '
	cp conflict.index .git/index &&
	blob=$(git hash-object -w a) &&
	both_like_git --cacheinfo 100644,$blob,a &&
	printf "100644 %s 0\tb\n" $blob >info &&
	both_like_git -i info --index-info &&
	rm b &&
	both_like_git --remove b &&
	echo main >b
'

test_expect_success GIT 'REUC: --index-info mode 0 of a conflicted path records it too' '
	cp conflict.index .git/index &&
	printf "0 %s\ta\n" $ZERO_OID >info &&
	both_like_git -i info --index-info
'

test_expect_success GIT 'REUC: unresolved, then resolved again by dirc: the record is back' '
	cp resolved.index .git/index &&
	dirc update-cache --unresolve a &&
	git ls-files --resolve-undo >reuc.before &&
	both_like_git a &&
	git ls-files --resolve-undo >reuc &&
	test_line_count = 6 reuc
'

test_expect_success GIT '--again: pathspec magic and bad pathspecs, as git reads them' '
	git init -q magic &&
	(
		cd magic &&
		mkdir d &&
		echo 1 >a &&
		echo 2 >d/e &&
		echo 3 >d/f &&
		git add a d &&
		test_tick &&
		git commit -q -m base &&
		echo 11 >a &&
		echo 22 >d/e &&
		echo 33 >d/f &&
		git update-index a d/e d/f &&
		echo 111 >a &&
		echo 222 >d/e &&
		echo 333 >d/f &&
		cp .git/index ../magic.index
	) &&
	both_like_git -C magic --verbose --again ":(exclude)d/e" &&
	test_write_lines "add '\''a'\''" "add '\''d/f'\''" >expect &&
	test_cmp expect dirc.out &&
	cp magic.index magic/.git/index &&
	both_like_git -C magic/d --verbose --again ":(top)a" ":/d/f" &&
	test_write_lines "add '\''a'\''" "add '\''d/f'\''" >expect &&
	test_cmp expect dirc.out &&
	cp magic.index magic/.git/index &&
	both_like_git -C magic --verbose --again ":(glob)*" &&
	test_write_lines "add '\''a'\''" >expect &&
	test_cmp expect dirc.out &&
	cp magic.index magic/.git/index &&
	both_like_git -C magic --verbose --again ":(icase)D/E" &&
	test_write_lines "add '\''d/e'\''" >expect &&
	test_cmp expect dirc.out &&
	for bad in ":(foo)x" ":(literal,glob)a" "" ../x
	do
		cp magic.index magic/.git/index &&
		run_both -C magic --again "$bad" &&
		same_result &&
		echo 128 >expect &&
		test_cmp expect dirc.code &&
		test_grep "^fatal: " dirc.err &&
		index_unchanged || return 1
	done
'

test_done
