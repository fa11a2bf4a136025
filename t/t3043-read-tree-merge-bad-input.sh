#!/bin/sh
test_description='read-tree -m with two and three trees: bad input

Missing tree objects (named, and below the top), a missing blob, a
locked index, an unmerged index, local changes -u would lose, --trivial
on a merge that needs file-level merging, -n, --index-output,
--exclude-per-directory: git'"'"'s message and exit code, and the
repository byte-identical after a refusal (index, work tree, no lock
left).'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-checkout.sh

# repo_state FILE: what a refusal must leave alone (the index, what is
# in .git, the work tree but the test's own files) into FILE
repo_state () {
	{
		cksum <.git/index &&
		ls .git &&
		snapshot . |
		grep -v "^file [0-7]* \./\(before\|after\|err\|expect.*\|actual.*\|snapshot\.sums\|git\..*\|dirc\..*\)$sp"
	} >"$1"
}
sp=' '


test_expect_success GIT 'setup: O, A, B; index and work tree at A' '
	mkdir d &&
	echo a >d/a && echo b >b && echo c >c &&
	git update-index --add d/a b c &&
	git write-tree >O &&
	echo b2 >b &&
	git update-index b &&
	git write-tree >A &&
	echo a2 >d/a && echo c3 >c &&
	git update-index d/a c &&
	git write-tree >B &&
	git read-tree $(cat A) &&
	git checkout-index -f -a &&
	git update-index -q --refresh &&
	git write-tree >/dev/null &&
	cp .git/index index.A
'

restore () {
	cp index.A .git/index &&
	git checkout-index -f -a &&
	git update-index -q --refresh
	:
}

test_expect_success GIT 'a merge needing file-level merging, --trivial: refused, index untouched' '
	test_when_finished restore &&
	echo b3 >b.new &&
	GIT_INDEX_FILE=.git/i3 git read-tree $(cat B) &&
	GIT_INDEX_FILE=.git/i3 git update-index --add --cacheinfo \
		100644,$(git hash-object -w b.new),b &&
	GIT_INDEX_FILE=.git/i3 git write-tree >B3 &&
	rm -f .git/i3 &&
	fails_like_git 128 "error: Merge requires file-level merging" \
		read-tree -m --trivial $(cat O) $(cat A) $(cat B3) &&
	interop_run read-tree -m -u --trivial -q $(cat O) $(cat A) $(cat B3) &&
	same_result &&
	test_must_be_empty dirc.err &&
	succeeds_like_git read-tree -m --trivial $(cat O) $(cat A) $(cat B)
'

test_expect_success GIT 'a tree below the top missing: fatal, 128, nothing changed' '
	test_when_finished restore &&
	sub=$(git rev-parse $(cat B):d) &&
	obj=.git/objects/$(echo $sub | cut -c1-2)/$(echo $sub | cut -c3-) &&
	mv $obj sub.obj &&
	test_when_finished "mv sub.obj $obj" &&
	fails_like_git 128 "fatal: unable to read tree $sub" \
		read-tree -m $(cat O) $(cat A) $(cat B) &&
	fails_like_git 128 "fatal: unable to read tree $sub" \
		read-tree -m $(cat A) $(cat B) &&
	repo_state before &&
	test_must_fail dirc read-tree -m -u $(cat O) $(cat A) $(cat B) &&
	repo_state after &&
	test_cmp before after
'

test_expect_success GIT 'a named tree missing: fatal, 128' '
	missing=$(test_oid_fake 1) &&
	fails_like_git 128 "fatal: failed to unpack tree object $missing" \
		read-tree -m $(cat O) $(cat A) $missing
'

test_expect_success GIT 'a blob -u must write missing: error, 128, nothing written' '
	test_when_finished restore &&
	blob=$(git rev-parse $(cat B):d/a) &&
	obj=.git/objects/$(echo $blob | cut -c1-2)/$(echo $blob | cut -c3-) &&
	mv $obj blob.obj &&
	test_when_finished "mv blob.obj $obj" &&
	interop_run read-tree -m $(cat O) $(cat A) $(cat B) &&
	same_result &&
	cp index.A .git/index &&
	repo_state before &&
	test_expect_code 128 dirc read-tree -m -u $(cat O) $(cat A) $(cat B) 2>err &&
	echo "error: unable to read sha1 file of d/a ($blob)" >expect &&
	test_cmp expect err &&
	repo_state after &&
	test_cmp before after
'

test_expect_success GIT 'a locked index: fatal, 128, the lock left alone' '
	test_when_finished "rm -f .git/index.lock" &&
	: >.git/index.lock &&
	repo_state before &&
	test_expect_code 128 git read-tree -m $(cat O) $(cat A) $(cat B) 2>git.err &&
	test_expect_code 128 dirc read-tree -m $(cat O) $(cat A) $(cat B) 2>dirc.err &&
	head -n 1 git.err >expect &&
	head -n 1 dirc.err >actual &&
	test_cmp expect actual &&
	test_expect_code 128 dirc read-tree -m -u $(cat A) $(cat B) 2>dirc.err &&
	repo_state after &&
	test_cmp before after &&
	test_path_is_file .git/index.lock
'

test_expect_success GIT 'an unmerged index: -m refuses before reading the trees' '
	missing=$(test_oid_fake 1) &&
	test_when_finished restore &&
	git read-tree -m $(cat O) $(cat A) $(cat B3) &&
	git ls-files -u >unmerged &&
	test_line_count = 3 unmerged &&
	fails_like_git 128 "fatal: You need to resolve your current index first" \
		read-tree -m $(cat O) $(cat A) $(cat B) &&
	fails_like_git 128 "fatal: You need to resolve your current index first" \
		read-tree -m -u $(cat A) $(cat B) &&
	fails_like_git 128 "fatal: You need to resolve your current index first" \
		read-tree -m $(cat A) $missing
'

test_expect_success GIT 'local changes -u would lose: refused, nothing written (two- and three-way)' '
	test_when_finished restore &&
	echo mine >>c &&
	repo_state before &&
	fails_like_git 128 "error: Entry '"'"'c'"'"' not uptodate. Cannot merge." \
		read-tree -m -u $(cat O) $(cat A) $(cat B) &&
	fails_like_git 128 "error: Entry '"'"'c'"'"' not uptodate. Cannot merge." \
		read-tree -m -u $(cat A) $(cat B) &&
	repo_state after &&
	test_cmp before after
'

test_expect_success GIT 'a local change -u would lose among changes it makes: nothing written' '
	test_when_finished restore &&
	echo mine >>d/a &&
	repo_state before &&
	test_expect_code 128 dirc read-tree -m -u $(cat A) $(cat B) 2>err &&
	echo "error: Entry '"'"'d/a'"'"' not uptodate. Cannot merge." >expect &&
	test_cmp expect err &&
	repo_state after &&
	test_cmp before after
'

test_expect_success GIT '-n: checked as -u would, nothing changed' '
	test_when_finished restore &&
	repo_state before &&
	dirc read-tree -n -m -u $(cat O) $(cat A) $(cat B) &&
	repo_state after &&
	test_cmp before after &&
	echo mine >>c &&
	test_expect_code 128 dirc read-tree -n -m -u $(cat O) $(cat A) $(cat B)
'

test_expect_success GIT '--index-output: the result elsewhere, the index as it was' '
	test_when_finished "restore; rm -f .git/out-g .git/out-d" &&
	cp .git/index index.before &&
	git read-tree -m --index-output=.git/out-g $(cat O) $(cat A) $(cat B) &&
	test_cmp index.before .git/index &&
	dirc read-tree -m --index-output=.git/out-d $(cat O) $(cat A) $(cat B) &&
	test_cmp index.before .git/index &&
	test_path_is_missing .git/index.lock &&
	test_cmp .git/out-g .git/out-d
'

test_expect_success GIT '--exclude-per-directory without -u: git'\''s message (t3103 tests it with -u)' '
	repo_state before &&
	fails_like_git 128 "fatal: --exclude-per-directory is meaningless unless -u" \
		read-tree -m --exclude-per-directory=.gitignore $(cat A) $(cat B) &&
	repo_state after &&
	test_cmp before after
'

SQ="'"

# super_like_git CODE ARGS...: read-tree ARGS with the super-prefix
# "fictional/" (git 2.39's global option; read-tree's own since 2.40)
# fails with code CODE as git's, with git's messages, and leaves the
# repository as it was.
super_like_git () {
	sl_code=$1 &&
	shift &&
	repo_state before &&
	test_expect_code $sl_code \
		git --super-prefix=fictional/ read-tree "$@" 2>expect &&
	repo_state after &&
	test_cmp before after &&
	grep "fictional/" expect &&
	test_expect_code $sl_code \
		dirc read-tree --super-prefix fictional/ "$@" 2>actual &&
	test_cmp expect actual &&
	repo_state after &&
	test_cmp before after
}

test_expect_success GIT '--super-prefix: before each path in the messages, as git' '
	test_when_finished restore &&
	echo mine >>c &&
	super_like_git 128 -m -u $(cat O) $(cat A) $(cat B) &&
	super_like_git 128 -m -u $(cat A) $(cat B) &&
	restore &&
	echo mine >>d/a &&
	super_like_git 128 -m -u $(cat A) $(cat B) &&
	restore &&
	git rm -q --cached b &&
	super_like_git 128 -m -u $(cat O) $(cat A) &&
	super_like_git 128 -m -u $(cat O) $(cat O) $(cat A) &&
	restore &&
	GIT_INDEX_FILE=.git/i4 git read-tree $(cat A) &&
	GIT_INDEX_FILE=.git/i4 git rm -q --cached -r d &&
	GIT_INDEX_FILE=.git/i4 git update-index --add --cacheinfo \
		100644,$(git rev-parse $(cat A):b),d &&
	GIT_INDEX_FILE=.git/i4 git write-tree >AF &&
	rm -f .git/i4 &&
	echo untracked >d/new &&
	super_like_git 128 -m -u $(cat A) $(cat AF)
'

test_expect_success GIT '--super-prefix: the result as without it; hidden; a value needed; a %' '
	test_when_finished restore &&
	dirc read-tree --super-prefix fictional/ -m -u $(cat A) $(cat B) &&
	git ls-files -s >dirc.out &&
	git diff-files --exit-code &&
	restore &&
	git read-tree -m -u $(cat A) $(cat B) &&
	git ls-files -s >git.out &&
	test_cmp git.out dirc.out &&
	test_expect_code 129 dirc read-tree -h >usage &&
	! grep super-prefix usage &&
	test_expect_code 129 dirc read-tree --super-prefix 2>err &&
	echo "error: option \`super-prefix$SQ requires a value" >expect &&
	test_cmp expect err &&
	restore &&
	echo mine >>c &&
	test_must_fail dirc read-tree --super-prefix fictional/ \
		--no-super-prefix -m -u $(cat O) $(cat A) $(cat B) 2>err &&
	echo "error: Entry ${SQ}c$SQ not uptodate. Cannot merge." >expect &&
	test_cmp expect err &&
	test_must_fail dirc read-tree --super-prefix "%s%n%%/" \
		-m -u $(cat O) $(cat A) $(cat B) 2>err &&
	echo "error: Entry ${SQ}%s%n%%/c$SQ not uptodate. Cannot merge." >expect &&
	test_cmp expect err &&
	test_expect_code 128 git --super-prefix="%s%n%%/" read-tree \
		-m -u $(cat O) $(cat A) $(cat B) 2>err &&
	test_cmp expect err
'

test_expect_success GIT_NEW '--super-prefix: as git 2.55 (an option of read-tree)' '
	test_when_finished restore &&
	echo mine >>c &&
	repo_state before &&
	test_expect_code 128 git_new read-tree --super-prefix fictional/ \
		-m -u $(cat A) $(cat B) 2>expect &&
	test_expect_code 128 dirc read-tree --super-prefix fictional/ \
		-m -u $(cat A) $(cat B) 2>actual &&
	test_cmp expect actual &&
	test_expect_code 129 git_new read-tree --super-prefix 2>expect &&
	test_expect_code 129 dirc read-tree --super-prefix 2>actual &&
	test_cmp expect actual &&
	repo_state after &&
	test_cmp before after &&
	git read-tree --prefix=d/ $(cat A) &&
	repo_state before &&
	test_expect_code 128 git_new read-tree --super-prefix=fictional/ \
		--prefix=d/ $(cat A) 2>expect &&
	grep fictional/d/ expect &&
	test_expect_code 128 dirc read-tree --super-prefix=fictional/ \
		--prefix=d/ $(cat A) 2>actual &&
	test_cmp expect actual &&
	repo_state after &&
	test_cmp before after
'

test_done
