#!/bin/sh
test_description='update-cache options: git'"'"'s semantics, messages and exit codes

Each case runs "git update-index ARGS" and "dirc update-cache ARGS" from
the same index on the same work tree: exit code, stdout, stderr and the
resulting index bytes must be equal.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh

# object_path ID: the loose object file of ID.
object_path () {
	echo .git/objects/$(echo $1 | cut -c1-2)/$(echo $1 | cut -c3-)
}

# put FILE CONTENT: write FILE, dated T0.
put () {
	printf "%s\n" "$2" >"$1" &&
	touch -d @$T0 "$1"
}

test_expect_success GIT 'setup: files staged by git, all dated in the past' '
	T0=1500000000 &&
	mkdir d &&
	put f f &&
	put g g &&
	put h h &&
	put exe exe &&
	chmod +x exe &&
	put d/f df &&
	put d/g dg &&
	put new1 new1 &&
	put new2 new2 &&
	git update-index --add f g h exe d/f d/g &&
	git ls-files -s >stage &&
	test_line_count = 6 stage
'

test_expect_success GIT 'a new path without --add: error, fatal, 128, index untouched' '
	run_both new1 &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	cat >expect <<-\EOF &&
	error: new1: cannot add to the index - missing --add option?
	fatal: Unable to process path new1
	EOF
	test_cmp expect dirc.err &&
	index_unchanged
'

test_expect_success GIT 'paths before the failing one are not kept either' '
	put f changed-f &&
	touch -d @$((T0 + 10)) f &&
	run_both f new1 g &&
	same_result &&
	index_unchanged
'

test_expect_success GIT '--add adds, and applies only to the paths after it' '
	run_both f --add new1 &&
	same_result &&
	dirc ls-files >actual &&
	test_grep "^new1$" actual
'

test_expect_success GIT '--no-add turns it off again' '
	run_both --add --no-add new2 &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code
'

test_expect_success GIT 'a file that is in the index but gone: without --remove, fatal' '
	rm h &&
	run_both h &&
	same_result &&
	cat >expect <<-\EOF &&
	error: h: does not exist and --remove not passed
	fatal: Unable to process path h
	EOF
	test_cmp expect dirc.err
'

test_expect_success GIT '--remove: an existing file is simply updated' '
	put g "g, now longer" &&
	touch -d @$((T0 + 20)) g &&
	run_both --remove g &&
	same_result &&
	dirc ls-files -s g >actual &&
	git hash-object g >id &&
	test_grep "$(cat id)" actual
'

test_expect_success GIT '--remove: a missing file is removed' '
	run_both --remove h &&
	same_result &&
	dirc ls-files >actual &&
	test_grep -v "^h$" actual
'

test_expect_success GIT '--remove of a path neither in the index nor on disk' '
	run_both --remove nosuch &&
	same_result
'

test_expect_success GIT '--force-remove removes a path whose file exists' '
	run_both --force-remove d/g &&
	same_result &&
	test_path_is_file d/g &&
	dirc ls-files >actual &&
	test_grep -v "^d/g$" actual
'

test_expect_success GIT '--force-remove of a path not in the index: exit 0' '
	run_both --force-remove nosuch new2 &&
	same_result
'

test_expect_success GIT 'file then directory: a/b over a, without --replace' '
	put a a &&
	git update-index --add a &&
	rm a &&
	mkdir a &&
	put a/b ab &&
	run_both --add a/b &&
	same_result &&
	cat >expect <<-\EOF &&
	error: '\''a/b'\'' appears as both a file and as a directory
	error: a/b: cannot add to the index - missing --add option?
	fatal: Unable to process path a/b
	EOF
	test_cmp expect dirc.err &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	index_unchanged
'

test_expect_success GIT 'file then directory: --replace evicts the file entry' '
	run_both --add --replace a/b &&
	same_result &&
	dirc ls-files a a/b >actual &&
	echo a/b >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'directory then file: a over a/b and a/c, without --replace' '
	put a/c ac &&
	git update-index --add a/c &&
	rm -r a &&
	put a a-again &&
	run_both --add a &&
	same_result &&
	index_unchanged
'

test_expect_success GIT 'directory then file: --replace evicts every entry under it' '
	run_both --add --replace a &&
	same_result &&
	dirc ls-files a a/b a/c >actual &&
	echo a >expect &&
	test_cmp expect actual
'

test_expect_success GIT '--verbose: add, remove and chmod lines on stdout' '
	put v1 v1 &&
	put v2 v2 &&
	git update-index --add v2 &&
	rm v2 &&
	run_both --verbose --add v1 f --force-remove d/f --no-force-remove \
		--chmod=+x v1 &&
	same_result &&
	cat >expect <<-\EOF &&
	add '\''v1'\''
	add '\''f'\''
	remove '\''d/f'\''
	add '\''v1'\''
	chmod +x '\''v1'\''
	EOF
	test_cmp expect dirc.out
'

test_expect_success GIT '--verbose --remove of a deleted file prints "add" (as git does)' '
	run_both --verbose --remove v2 &&
	same_result &&
	echo "add '\''v2'\''" >expect &&
	test_cmp expect dirc.out
'

test_expect_success GIT '--verbose with --cacheinfo and --index-info' '
	blob=$(git hash-object -w f) &&
	printf "100644 %s\tii\n" $blob >info &&
	run_both --verbose --add --cacheinfo 100644,$blob,ci &&
	same_result &&
	run_both -i info --verbose --index-info &&
	same_result
'

test_expect_success GIT '--chmod=+x and -x on files in the index' '
	run_both --chmod=+x f --chmod=-x exe &&
	same_result &&
	dirc ls-files -s f exe >actual &&
	test_grep "^100755 .*	f$" actual &&
	test_grep "^100644 .*	exe$" actual &&
	test -x exe &&
	test ! -x f
'

test_expect_success GIT '--add --chmod=+x of a new file' '
	put newx newx &&
	run_both --add --chmod=+x newx &&
	same_result &&
	dirc ls-files -s newx >actual &&
	test_grep "^100755 " actual
'

test_expect_success GIT '--chmod of a path that is not in the index: fatal, cannot chmod' '
	run_both --remove --chmod=+x nosuch-in-index &&
	same_result &&
	echo "fatal: git update-index: cannot chmod +x '\''nosuch-in-index'\''" >expect &&
	test_cmp expect dirc.err &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	index_unchanged &&
	run_both --force-remove --chmod=-x f &&
	same_result &&
	echo "fatal: git update-index: cannot chmod -x '\''f'\''" >expect &&
	test_cmp expect dirc.err &&
	index_unchanged
'

test_expect_success GIT '--chmod of a missing path without --remove, of an untracked one' '
	run_both --chmod=+x nosuch-in-index &&
	same_result &&
	run_both --chmod=-x new2 &&
	same_result
'

test_expect_success GIT,SYMLINKS '--chmod of a symlink entry: fatal' '
	ln -s f lnk &&
	touch -h -d @$T0 lnk &&
	git update-index --add lnk &&
	run_both --chmod=+x lnk &&
	same_result
'

test_expect_success GIT '--chmod with a bad argument' '
	run_both --chmod=+w f &&
	same_result
'

test_expect_success GIT '--info-only: the entry is added, the object is not written' '
	put info-only "only in the index" &&
	id=$(git hash-object info-only) &&
	test_path_is_missing $(object_path $id) &&
	run_both --add --info-only info-only &&
	same_result &&
	test_path_is_missing $(object_path $id) &&
	dirc ls-files -s info-only >actual &&
	test_grep "$id" actual
'

test_expect_success GIT 'without --info-only the object is written' '
	dirc update-cache --add info-only &&
	test_path_is_missing $(object_path $id) &&
	put info-only "written this time" &&
	touch -d @$((T0 + 30)) info-only &&
	id=$(dirc hash-object info-only) &&
	dirc update-cache --add info-only &&
	test_path_is_file $(object_path $id)
'

test_expect_success GIT '--index-version 2, 3 and 4' '
	run_both --index-version 4 &&
	same_result &&
	run_both --index-version 3 &&
	same_result &&
	run_both --index-version 2 &&
	same_result &&
	run_both --index-version 4 --add new2 &&
	same_result
'

test_expect_success GIT '--index-version 5 and 1: fatal, not in range' '
	run_both --index-version 5 &&
	same_result &&
	echo "fatal: index-version 5 not in range: 2..4" >expect &&
	test_cmp expect dirc.err &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	index_unchanged &&
	run_both --index-version 1 &&
	same_result
'

test_expect_success GIT '--show-index-version (git 2.42); --index-version --verbose says what it did (2.43)' '
	test_when_finished "git update-index --index-version 2" &&
	git update-index --index-version 4 &&
	cp .git/index index.before &&
	dirc update-cache --show-index-version >actual &&
	echo 4 >expect &&
	test_cmp expect actual &&
	test_cmp index.before .git/index &&
	dirc update-cache --index-version 2 --verbose >actual &&
	echo "index-version: was 4, set to 2" >expect &&
	test_cmp expect actual &&
	head -c 8 .git/index | od -An -tx1 >actual &&
	printf "DIRC\0\0\0\2" | od -An -tx1 >expect &&
	test_cmp expect actual &&
	dirc update-cache --index-version 2 --verbose >actual &&
	echo "index-version: was 2, set to 2" >expect &&
	test_cmp expect actual &&
	dirc update-cache --index-version 4 >actual &&
	test_must_be_empty actual &&
	cp .git/index index.before &&
	dirc update-cache --index-version 2 --show-index-version >actual &&
	echo 4 >expect &&
	test_cmp expect actual &&
	test_cmp index.before .git/index &&
	dirc update-cache --index-version -1 >actual &&
	test_cmp expect actual &&
	test_cmp index.before .git/index &&
	GIT_INDEX_FILE=.git/none dirc update-cache --show-index-version >actual &&
	echo 0 >expect &&
	test_cmp expect actual &&
	test_path_is_missing .git/none
'

test_expect_success GIT_NEW 'git 2.55: --show-index-version and --index-version --verbose alike' '
	test_when_finished "git update-index --index-version 2" &&
	for args in "--show-index-version" "--index-version 3 --verbose" \
		"--show-index-version" "--index-version 4 --show-index-version" \
		"--index-version -1" "--verbose --index-version 4" \
		"--index-version 2 --verbose --add new2"
	do
		cp .git/index index.before &&
		git_new update-index $args >expect &&
		mv .git/index index.new &&
		cp index.before .git/index &&
		dirc update-cache $args >actual &&
		test_cmp expect actual &&
		cmp index.new .git/index || return 1
	done &&
	GIT_INDEX_FILE=.git/none git_new update-index --show-index-version >expect &&
	GIT_INDEX_FILE=.git/none dirc update-cache --show-index-version >actual &&
	test_cmp expect actual
'

test_expect_success GIT '--index-version without a number' '
	run_both --index-version x &&
	test_cmp_codes git.code dirc.code &&
	head -n 1 git.err >expect &&
	head -n 1 dirc.err >actual &&
	test_cmp expect actual &&
	index_unchanged
'

test_expect_success GIT '--assume-unchanged and --no-assume-unchanged' '
	run_both --assume-unchanged f d/f &&
	same_result &&
	run_both --no-assume-unchanged d/f &&
	same_result
'

test_expect_success GIT 'an assume-unchanged entry is not refreshed, --really-refresh does' '
	put f "f is changed" &&
	touch -d @$((T0 + 40)) f &&
	run_both --refresh &&
	same_result &&
	run_both --really-refresh &&
	same_result &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	test_grep "^f: needs update$" dirc.out
'

test_expect_success GIT 'an explicitly named assume-unchanged path is updated' '
	run_both f &&
	same_result
'

test_expect_success GIT '--skip-worktree and --no-skip-worktree (version 3 and back)' '
	run_both --skip-worktree f d/f &&
	same_result &&
	run_both --no-skip-worktree f &&
	same_result &&
	run_both --no-skip-worktree d/f &&
	same_result
'

test_expect_success GIT 'marking a path that is not in the index: fatal' '
	run_both --assume-unchanged nosuch &&
	same_result &&
	run_both --skip-worktree nosuch &&
	same_result
'

test_expect_success GIT 'a skip-worktree entry whose file is gone: not refreshed, removed by --remove' '
	git update-index --skip-worktree g &&
	mv g g.saved &&
	run_both --refresh &&
	same_result &&
	run_both g &&
	same_result &&
	run_both --remove g &&
	same_result &&
	dirc ls-files >actual &&
	test_grep -v "^g$" actual &&
	mv g.saved g &&
	git update-index --add g
'

test_expect_success GIT '--ignore-skip-worktree-entries: --remove keeps skip-worktree entries' '
	git update-index --skip-worktree g &&
	mv g g.saved &&
	test_when_finished "mv g.saved g" &&
	run_both --ignore-skip-worktree-entries --remove g &&
	same_result &&
	dirc ls-files -t g >actual &&
	echo "S g" >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'a gitlink by --cacheinfo 160000: carried, no object check' '
	fake=$(test_oid_fake 1234567890) &&
	run_both --add --cacheinfo 160000,$fake,sub1 &&
	same_result &&
	dirc ls-files -s sub1 >actual &&
	echo "160000 $fake 0	sub1" >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'a nested repository is added as a gitlink to its HEAD' '
	git init -q nested &&
	echo inner >nested/file &&
	git -C nested add file &&
	git -C nested -c user.name=n -c user.email=e commit -q -m inner &&
	test_fsck_also nested &&
	run_both --add nested &&
	same_result &&
	git -C nested rev-parse HEAD >head &&
	dirc ls-files -s nested >actual &&
	echo "160000 $(cat head) 0	nested" >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'a gitlink is updated when the nested HEAD moves' '
	echo more >nested/file &&
	git -C nested -c user.name=n -c user.email=e commit -q -a -m more &&
	run_both nested &&
	same_result &&
	run_both --refresh &&
	same_result
'

test_expect_success GIT 'a directory without a repository: error, fatal' '
	mkdir plain &&
	put plain/x x &&
	run_both --add plain &&
	same_result &&
	run_both --add d &&
	same_result
'

test_expect_success GIT 'bad paths are ignored with "Ignoring path", exit 0' '
	mkdir -p A/.GIT git~1 n &&
	put .git/x x &&
	put A/.GIT/b b &&
	put git~1/x x &&
	put n/file n &&
	for pair in .git/x:.git/x A/.GIT/b:A/.GIT/b git~1/x:git~1/x n/:n/ \
		.git:.git ./.git/x:.git/x d/../.git/x:.git/x .git/:.git/
	do
		p=${pair%%:*} &&
		run_both --add "$p" &&
		same_result &&
		echo "Ignoring path ${pair#*:}" >expect &&
		test_cmp expect dirc.err &&
		echo 0 >expect.code &&
		test_cmp_codes expect.code dirc.code &&
		index_unchanged || return 1
	done
'

test_expect_success GIT 'a path outside the repository: fatal, 128' '
	run_both --add a/../../x &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	run_both --add ../outside &&
	same_result &&
	run_both --add "$TRASH_DIRECTORY/../outside" &&
	same_result
'

test_expect_success GIT 'the update-index name behaves the same' '
	put alias alias &&
	cp -p .git/index .git/index.alias-start &&
	dirc update-index --add alias --verbose --chmod=+x alias >out 2>err &&
	mv .git/index .git/index.alias &&
	cp -p .git/index.alias-start .git/index &&
	dirc update-cache --add alias --verbose --chmod=+x alias >out2 2>err2 &&
	test_cmp .git/index.alias .git/index &&
	test_cmp out out2 &&
	test_cmp err err2 &&
	test_must_fail dirc update-index --index-version 5 2>err &&
	test_grep "index-version 5 not in range" err
'

test_expect_success GIT 'paths are relative to the current subdirectory' '
	put d/new dnew &&
	run_both -C d --add new f ../g ./../new1 &&
	same_result &&
	run_both -C d --add nosuch &&
	same_result &&
	run_both -C d --remove --add ../h new &&
	same_result
'

test_expect_success GIT 'usage errors: exit 129, git'"'"'s first line, index untouched' '
	fail= &&
	for args in "--stdin f" "--index-info f" "--bogus" "-y" "--chmod" \
		"--index-version" "--cacheinfo"
	do
		run_both $args &&
		head -n 1 git.err >expect &&
		head -n 1 dirc.err >actual &&
		test_cmp_codes git.code dirc.code &&
		test_cmp expect actual &&
		index_unchanged || {
			echo "^^^ differs from git: update-cache $args" >&2
			fail=t
		}
	done &&
	test -z "$fail"
'

test_expect_success GIT 'a clean index to try the lock on' '
	rm -f .git/index &&
	put g g &&
	git update-index --add f g exe d/f &&
	git diff-files >out &&
	test_must_be_empty out
'

test_expect_success GIT 'held index.lock, something to change: git'"'"'s message, 128, index untouched' '
	test_when_finished "rm -f .git/index.lock" &&
	put locked "locked out" &&
	: >.git/index.lock &&
	run_both --add locked &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	index_unchanged &&
	test_path_is_file .git/index.lock &&
	test_must_be_empty .git/index.lock
'

# The advice after "File exists." is git 2.55's (2.39 told of an editor
# opened by git commit, at more length).
test_expect_success GIT 'held index.lock: the message names the lock, the object is written' '
	test_when_finished "rm -f .git/index.lock" &&
	put locked2 "dirc writes this object" &&
	id=$(dirc hash-object locked2) &&
	test_path_is_missing $(object_path $id) &&
	cp -p .git/index index.before &&
	: >.git/index.lock &&
	test_expect_code 128 dirc update-cache --add locked2 >out 2>err &&
	test_must_be_empty out &&
	cat >expect <<-EOF &&
	fatal: Unable to create '\''$TRASH_DIRECTORY/.git/index.lock'\'': File exists.

	Another git process seems to be running in this repository, or the lock file may be stale
	EOF
	test_cmp expect err &&
	test_path_is_file $(object_path $id) &&
	test_cmp index.before .git/index &&
	test_must_be_empty .git/index.lock
'

test_expect_success GIT 'held index.lock, nothing to change: exit 0, lock left alone' '
	test_when_finished "rm -f .git/index.lock" &&
	echo "not ours" >.git/index.lock &&
	run_both --refresh &&
	same_result &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	run_both f g &&
	same_result &&
	run_both --add f --chmod=-x f &&
	same_result &&
	run_both --force-remove nosuch &&
	same_result &&
	index_unchanged &&
	echo "not ours" >expect &&
	test_cmp expect .git/index.lock
'

test_expect_success GIT 'held index.lock with -q and something to change: 128, silently' '
	test_when_finished "rm -f .git/index.lock" &&
	: >.git/index.lock &&
	run_both -q --add locked &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	test_must_be_empty dirc.err &&
	test_must_be_empty dirc.out &&
	index_unchanged
'

test_expect_success GIT 'no lock is left behind by a successful or a failed run' '
	run_both --add locked &&
	same_result &&
	test_path_is_missing .git/index.lock &&
	run_both nosuch &&
	same_result &&
	test_path_is_missing .git/index.lock
'

test_done
