#!/bin/sh
test_description='update-ref and symbolic-ref: refs, reflogs and failures as git makes them

Each case runs "git CMD ARGS" and then "dirc CMD ARGS" from the same ref
store (lib-interop.sh with lib-refs.sh): exit code, stdout, stderr and
every file of the ref store afterwards (loose refs, packed-refs, every
reflog, byte for byte) must be equal; a failure must leave the ref store
as it was, directories included.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh
. "$TEST_DIRECTORY"/lib-refs.sh
# update-ref's messages as git 2.55 words them (lib-refs.sh)
INTEROP_GIT_ERR_FILTER=update_ref_msgs_now

Z=$ZERO_OID

test_expect_success GIT 'setup: commits, a blob and an annotated tag' '
	refs_commits &&
	blob=$(git hash-object -w a) &&
	git tag -a -m "a tag" v1 "$c1" &&
	tag=$(git rev-parse v1)
'

test_expect_success GIT 'create a branch: ref and reflog as git writes them' '
	succeeds_like_git update-ref refs/heads/master "$c1" &&
	test_must_be_empty dirc.out &&
	test_path_is_file .git/logs/refs/heads/master
'

test_expect_success GIT 'update with the right old value' '
	succeeds_like_git update-ref refs/heads/master "$c2" "$c1"
'

test_expect_success GIT 'updating HEAD follows the symbolic ref (both reflogs)' '
	succeeds_like_git update-ref HEAD "$c3" &&
	test_path_is_file .git/logs/HEAD &&
	echo "ref: refs/heads/master" >expect &&
	test_cmp expect .git/HEAD
'

test_expect_success GIT 'old value mismatch: fatal, 128, nothing changed' '
	fails_like_git 128 "fatal: update_ref failed for ref '\''refs/heads/master'\'': cannot lock ref '\''refs/heads/master'\'': is at $c3 but expected $c1" \
		update-ref refs/heads/master "$c2" "$c1"
'

test_expect_success GIT 'abbreviated and symbolic values are resolved' '
	succeeds_like_git update-ref refs/heads/abbrev "$(echo "$c1" | cut -c1-8)" &&
	succeeds_like_git update-ref refs/heads/abbrev master~1 master~2
'

test_expect_success GIT 'old value of zeros or empty: the ref must not exist' '
	succeeds_like_git update-ref refs/heads/new "$c1" $Z &&
	fails_like_git 128 "fatal: update_ref failed for ref '\''refs/heads/new'\'': cannot lock ref '\''refs/heads/new'\'': reference already exists" \
		update-ref refs/heads/new "$c2" $Z &&
	succeeds_like_git update-ref refs/heads/new2 "$c1" "" &&
	fails_like_git 128 "fatal: update_ref failed for ref '\''refs/heads/new2'\'': cannot lock ref '\''refs/heads/new2'\'': reference already exists" \
		update-ref refs/heads/new2 "$c2" ""
'

test_expect_success GIT 'a held lock: git'"'"'s message inside "cannot lock ref"' '
	: >.git/refs/heads/master.lock &&
	test_when_finished "rm -f .git/refs/heads/master.lock" &&
	fails_like_git 128 "fatal: update_ref failed for ref '\''refs/heads/master'\'': cannot lock ref '\''refs/heads/master'\'': Unable to create '\''$TRASH_DIRECTORY/.git/refs/heads/master.lock'\'': File exists." \
		update-ref refs/heads/master "$c1" &&
	test_must_be_empty .git/refs/heads/master.lock
'

test_expect_success GIT 'bad ref names: refused like git' '
	for name in refs/heads/../x HEAD.lock refs/heads/x.lock \
		"refs/heads/a$(printf "\001")b" "refs/heads/sp ace" \
		"refs/heads/a..b" refs/heads/x/ "refs/heads/a~b" "refs/heads/a:b" \
		"refs/heads/a?b" "refs/heads/a[b" "refs/heads/@{x}" refs/heads/.hidden
	do
		interop_run update-ref "$name" "$c1" &&
		same_result &&
		echo 128 >expect &&
		test_cmp expect dirc.code &&
		test_grep "refusing to update ref with bad name" dirc.err || {
			echo "for ref name \"$name\"" >&2
			return 1
		}
	done
'

test_expect_success GIT 'a non-commit object on a branch: refused like git' '
	interop_run update-ref refs/heads/tree "$tree" &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	interop_run update-ref refs/heads/blob "$blob" &&
	same_result &&
	interop_run update-ref refs/heads/tag "$tag" &&
	same_result
'

test_expect_success GIT 'a non-commit object outside refs/heads: accepted like git' '
	succeeds_like_git update-ref refs/tags/tree "$tree" &&
	succeeds_like_git update-ref refs/tags/v1-copy "$tag"
'

test_expect_success GIT 'a missing object, an unknown name: refused like git' '
	fake=$(test_oid_fake 1234567890) &&
	fails_like_git 128 "fatal: update_ref failed for ref '\''refs/heads/nope'\'': trying to write ref '\''refs/heads/nope'\'' with nonexistent object $fake" \
		update-ref refs/heads/nope "$fake" &&
	fails_like_git 128 "fatal: nonexist: not a valid SHA1" \
		update-ref refs/heads/nope nonexist &&
	fails_like_git 128 "fatal: nonexist: not a valid old SHA1" \
		update-ref refs/heads/nope "$c1" nonexist
'

test_expect_success GIT '-d of a loose ref' '
	succeeds_like_git update-ref -d refs/heads/new &&
	test_path_is_missing .git/refs/heads/new &&
	test_path_is_missing .git/logs/refs/heads/new
'

test_expect_success GIT '-d of a ref that does not exist: exit 0' '
	succeeds_like_git update-ref -d refs/heads/never
'

test_expect_success GIT '-d with the right old value, and with a wrong one (exit 1)' '
	interop_run update-ref -d refs/heads/new2 "$c2" &&
	same_result &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	echo "error: cannot lock ref '\''refs/heads/new2'\'': is at $c1 but expected $c2" >expect &&
	test_cmp expect dirc.err &&
	succeeds_like_git update-ref -d refs/heads/new2 "$c1"
'

test_expect_success GIT '-d of a packed ref: packed-refs no longer lists it' '
	succeeds_like_git update-ref refs/heads/p1 "$c1" &&
	succeeds_like_git update-ref refs/heads/p2 "$c2" &&
	git pack-refs --all &&
	test_path_is_missing .git/refs/heads/p1 &&
	succeeds_like_git update-ref -d refs/heads/p1 &&
	test_grep -v "refs/heads/p1" .git/packed-refs &&
	test_grep "refs/heads/p2" .git/packed-refs
'

test_expect_success GIT 'a packed ref: updated (loose copy wins) and checked against its old value' '
	succeeds_like_git update-ref refs/heads/p2 "$c3" "$c2" &&
	fails_like_git 128 "fatal: update_ref failed for ref '\''refs/heads/p2'\'': cannot lock ref '\''refs/heads/p2'\'': is at $c3 but expected $c2" \
		update-ref refs/heads/p2 "$c1" "$c2" &&
	succeeds_like_git update-ref -d refs/heads/p2 "$c3" &&
	test_grep -v "refs/heads/p2" .git/packed-refs
'

test_expect_success GIT '-m: the reason in the reflog, whitespace squashed like git' '
	succeeds_like_git update-ref -m "  hello   world  " refs/heads/m "$c1" &&
	succeeds_like_git update-ref -m "$(printf "tab\there\nnewline")" refs/heads/m "$c2"
'

test_expect_success GIT '--no-deref HEAD: detaches HEAD' '
	succeeds_like_git update-ref --no-deref HEAD "$c1" &&
	echo "$c1" >expect &&
	test_cmp expect .git/HEAD
'

test_expect_success GIT 'symbolic-ref HEAD refs/heads/master: points HEAD back' '
	succeeds_like_git symbolic-ref HEAD refs/heads/master &&
	echo "ref: refs/heads/master" >expect &&
	test_cmp expect .git/HEAD
'

test_expect_success GIT 'symbolic-ref HEAD: read, --short, -q' '
	succeeds_like_git symbolic-ref HEAD &&
	echo refs/heads/master >expect &&
	test_cmp expect dirc.out &&
	succeeds_like_git symbolic-ref --short HEAD &&
	echo master >expect &&
	test_cmp expect dirc.out &&
	succeeds_like_git symbolic-ref -q HEAD
'

test_expect_success 'symbolic-ref --short: refs/remotes/<x>/HEAD is "<x>" (git 2.40; 2.39 printed "<x>/HEAD")' '
	c=$(dirc rev-parse HEAD) &&
	dirc update-ref refs/remotes/up/HEAD $c &&
	dirc symbolic-ref refs/heads/probe refs/remotes/up/HEAD &&
	dirc symbolic-ref --short refs/heads/probe >actual &&
	echo up >expect &&
	test_cmp expect actual &&
	dirc update-ref refs/heads/up $c &&
	dirc symbolic-ref --short refs/heads/probe >actual &&
	echo up/HEAD >expect &&
	test_cmp expect actual &&
	dirc rev-parse --abbrev-ref refs/remotes/up/HEAD >actual &&
	echo up/HEAD >expect &&
	test_cmp expect actual &&
	dirc symbolic-ref --delete refs/heads/probe &&
	dirc update-ref -d refs/heads/up &&
	dirc update-ref -d refs/remotes/up/HEAD
'

test_expect_success GIT 'symbolic-ref of a plain ref: fatal; with -q exit 1 silently' '
	fails_like_git 128 "fatal: ref refs/heads/master is not a symbolic ref" \
		symbolic-ref refs/heads/master &&
	interop_run symbolic-ref -q refs/heads/master &&
	same_result &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	test_must_be_empty dirc.err &&
	test_must_be_empty dirc.out
'

test_expect_success GIT 'symbolic-ref HEAD foo: refused like git' '
	fails_like_git 128 "fatal: Refusing to point HEAD outside of refs/" \
		symbolic-ref HEAD foo
'

test_expect_success GIT 'symbolic-ref HEAD to an unborn branch, then an update creates it' '
	succeeds_like_git symbolic-ref HEAD refs/heads/x &&
	interop_run symbolic-ref HEAD &&
	same_result &&
	succeeds_like_git update-ref HEAD "$c2" &&
	test_path_is_file .git/refs/heads/x
'

test_expect_success GIT 'symbolic-ref -m: the reason goes to the HEAD reflog' '
	succeeds_like_git symbolic-ref -m "back to master" HEAD refs/heads/master
'

test_expect_success GIT 'symbolic-ref -d of another symref; of HEAD refused like git' '
	succeeds_like_git symbolic-ref refs/heads/alias refs/heads/master &&
	succeeds_like_git symbolic-ref -d refs/heads/alias &&
	interop_run symbolic-ref -d HEAD &&
	same_result &&
	interop_run symbolic-ref -d refs/heads/master &&
	same_result
'

test_expect_success GIT 'core.logAllRefUpdates=false: no new reflog; --create-reflog makes one' '
	git config core.logAllRefUpdates false &&
	succeeds_like_git update-ref refs/heads/nolog "$c1" &&
	test_path_is_missing .git/logs/refs/heads/nolog &&
	succeeds_like_git update-ref --create-reflog refs/heads/withlog "$c1" &&
	test_path_is_file .git/logs/refs/heads/withlog
'

test_expect_success GIT 'core.logAllRefUpdates=always: tags get a reflog too' '
	git config core.logAllRefUpdates always &&
	succeeds_like_git update-ref refs/tags/logged "$c1" &&
	test_path_is_file .git/logs/refs/tags/logged &&
	git config core.logAllRefUpdates true &&
	succeeds_like_git update-ref refs/tags/unlogged "$c1" &&
	test_path_is_missing .git/logs/refs/tags/unlogged
'

test_expect_success GIT '--stdin: update, create, delete and verify in one transaction' '
	cat >input <<-EOF &&
	update refs/heads/s1 $c1
	update refs/heads/abbrev $c3 $c2
	create refs/heads/s2 $c2
	delete refs/heads/nolog $c1
	verify refs/heads/withlog $c1
	verify refs/heads/absent
	EOF
	succeeds_like_git -i input update-ref -m batch --stdin &&
	test_path_is_missing .git/refs/heads/nolog
'

test_expect_success GIT '--stdin: a failing verify aborts the whole transaction' '
	cat >input <<-EOF &&
	update refs/heads/s1 $c3
	verify refs/heads/s2 $c1
	EOF
	interop_run -i input update-ref --stdin &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	echo "$c1" >expect &&
	git rev-parse refs/heads/s1 >actual &&
	test_cmp expect actual
'

test_expect_success GIT '--stdin -z: the NUL-separated form' '
	printf "update refs/heads/z1\000%s\000\000create refs/heads/z2\000%s\000delete refs/heads/s2\000%s\000" \
		"$c1" "$c2" "$c2" >input &&
	succeeds_like_git -i input update-ref -z --stdin &&
	test_path_is_file .git/refs/heads/z1
'

test_expect_success GIT '--stdin: a malformed line is fatal like git' '
	echo "frobnicate refs/heads/x" >input &&
	interop_run -i input update-ref --stdin &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code
'

test_expect_success GIT '--stdin: the same ref twice is refused like git, nothing changed' '
	printf "update refs/heads/s1 %s\nupdate refs/heads/s1 %s\n" \
		"$c2" "$c3" >input &&
	fails_like_git 128 "fatal: multiple updates for ref '\''refs/heads/s1'\'' not allowed" \
		-i input update-ref --stdin &&
	printf "verify refs/heads/s2 %s\ndelete refs/heads/s2\n" "$c2" >input &&
	fails_like_git 128 "fatal: multiple updates for ref '\''refs/heads/s2'\'' not allowed" \
		-i input update-ref --stdin &&
	# of several, git names the first in sorted order
	printf "create refs/heads/n2 %s\ncreate refs/heads/n2 %s\n" "$c1" "$c1" >input &&
	printf "create refs/heads/n1 %s\ncreate refs/heads/n1 %s\n" "$c1" "$c1" >>input &&
	fails_like_git 128 "fatal: multiple updates for ref '\''refs/heads/n1'\'' not allowed" \
		-i input update-ref --stdin
'

test_expect_success GIT '--stdin: a ref reached twice through symbolic refs: refused like git' '
	test_when_finished "git update-ref -d --no-deref refs/heads/sym2 &&
		git update-ref -d --no-deref refs/heads/sym &&
		git update-ref -d refs/heads/other" &&
	git symbolic-ref HEAD refs/heads/master &&
	git symbolic-ref refs/heads/sym refs/heads/master &&
	git symbolic-ref refs/heads/sym2 refs/heads/sym &&
	via_sym () {
		echo "fatal: multiple updates for '\''$1'\'' (including one via symref '\''$2'\'') are not allowed"
	} &&
	via_head="fatal: multiple updates for '\''HEAD'\'' (including one via its referent '\''refs/heads/master'\'') are not allowed" &&
	printf "update HEAD %s\nupdate refs/heads/master %s\n" "$c2" "$c2" >input &&
	fails_like_git 128 "$(via_sym refs/heads/master HEAD)" \
		-i input update-ref --stdin &&
	printf "update refs/heads/master %s\nupdate HEAD %s\n" "$c2" "$c2" >input &&
	fails_like_git 128 "$via_head" -i input update-ref --stdin &&
	printf "update refs/heads/sym %s\nverify HEAD %s\n" "$c2" "$c3" >input &&
	fails_like_git 128 "$(via_sym refs/heads/master HEAD)" \
		-i input update-ref --stdin &&
	printf "update HEAD %s\ndelete refs/heads/sym2\n" "$c2" >input &&
	fails_like_git 128 "$(via_sym refs/heads/master refs/heads/sym)" \
		-i input update-ref --stdin &&
	printf "update refs/heads/sym2 %s\nupdate refs/heads/sym %s\n" "$c2" "$c2" >input &&
	fails_like_git 128 "$(via_sym refs/heads/sym refs/heads/sym2)" \
		-i input update-ref --stdin &&
	printf "option no-deref\nupdate HEAD %s\nupdate refs/heads/master %s\n" \
		"$c2" "$c2" >input &&
	fails_like_git 128 "$via_head" -i input update-ref --stdin &&
	# through a symbolic ref to one ref, another elsewhere: fine
	printf "update HEAD %s\nupdate refs/heads/other %s\n" "$c2" "$c2" >input &&
	succeeds_like_git -i input update-ref --stdin
'

test_expect_success GIT '--stdin: option no-deref applies to the next ref only, as in git' '
	test_when_finished "git update-ref -d refs/heads/nd &&
		git symbolic-ref HEAD refs/heads/master" &&
	git symbolic-ref HEAD refs/heads/master &&
	git update-ref refs/heads/master "$c1" &&
	printf "option no-deref\nupdate refs/heads/nd %s\nupdate HEAD %s\n" \
		"$c1" "$c2" >input &&
	succeeds_like_git -i input update-ref --stdin &&
	echo "ref: refs/heads/master" >expect &&
	test_cmp expect .git/HEAD &&
	printf "option no-deref\nstart\nupdate HEAD %s\ncommit\n" "$c3" >input &&
	interop_run -i input update-ref --stdin &&
	same_result &&
	echo "$c3" >expect &&
	test_cmp expect .git/HEAD
'

test_expect_success GIT 'a leftover HEAD.lock stops updates through HEAD, as in git' '
	test_when_finished "rm -f .git/HEAD.lock" &&
	: >.git/HEAD.lock &&
	interop_run update-ref HEAD $c2 &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	test_grep "cannot lock ref .HEAD.: Unable to create" dirc.err &&
	interop_run update-ref --no-deref HEAD $c2 &&
	same_result &&
	interop_run symbolic-ref HEAD refs/heads/s1 &&
	same_result &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	test_grep "or the lock file may be stale" dirc.err
'

test_expect_success GIT 'empty directories where a ref goes are removed; others block it' '
	mkdir -p .git/refs/heads/dd/e .git/refs/heads/ff/e &&
	succeeds_like_git update-ref refs/heads/dd $c1 &&
	succeeds_like_git symbolic-ref refs/heads/ff refs/heads/dd &&
	mkdir -p .git/refs/heads/ee/e/f &&
	: >.git/refs/heads/ee/e/f/g &&
	test_when_finished "rm -r .git/refs/heads/ee" &&
	fails_like_git 128 "fatal: update_ref failed for ref '\''refs/heads/ee'\'': cannot lock ref '\''refs/heads/ee'\'': '\''refs/heads/ee/e/f/g'\'' exists; cannot create '\''refs/heads/ee'\''" \
		update-ref refs/heads/ee $c1 &&
	# git logs the failed symbolic-ref before its rename fails; dirc
	# checks first and writes nothing
	interop_run symbolic-ref refs/heads/ee refs/heads/dd &&
	test_cmp_codes git.code dirc.code &&
	test_cmp git.err dirc.err &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	test_path_is_file .git/refs.by-git/logs/refs/heads/ee &&
	state_unchanged
'

# no_ident CMD ARGS...: CMD ARGS with no identity exported or configured,
# so that git and dirc must guess one from the system for a reflog line.
no_ident () {
	(
		unset GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL GIT_AUTHOR_NAME \
			GIT_AUTHOR_EMAIL EMAIL &&
		"$@"
	)
}

# guessed_like_git: exit code, output and refs as git's, and the reflogs
# too but for the guessed email (git may find a domain dirc does not).
guessed_like_git () {
	test_cmp_codes git.code dirc.code &&
	test_cmp git.out dirc.out &&
	test_cmp git.err dirc.err &&
	refs_listing .git/refs.by-git | sed -e "s/<[^>]*>/<EMAIL>/" >git.refs &&
	refs_listing .git | sed -e "s/<[^>]*>/<EMAIL>/" >dirc.refs &&
	test_cmp git.refs dirc.refs
}

test_expect_success GIT 'no identity: update-ref and symbolic-ref guess one like git' '
	echo 0 >expect &&
	no_ident interop_run -c core.logAllRefUpdates=false \
		update-ref refs/tags/noid "$c1" &&
	guessed_like_git &&
	test_cmp expect dirc.code &&
	no_ident interop_run update-ref -m "no ident" refs/heads/noid "$c1" &&
	guessed_like_git &&
	test_cmp expect dirc.code &&
	test_grep "no ident" .git/logs/refs/heads/noid &&
	no_ident interop_run symbolic-ref HEAD refs/heads/noid &&
	guessed_like_git &&
	test_cmp expect dirc.code &&
	printf "create refs/heads/noid2 %s\n" "$c2" >input &&
	no_ident interop_run -i input update-ref --stdin &&
	guessed_like_git &&
	test_cmp expect dirc.code &&
	test_path_is_file .git/logs/refs/heads/noid2
'

test_expect_success GIT 'no identity, an empty name: the login name, like git' '
	no_ident interop_run -c user.name= update-ref refs/heads/noname "$c1" &&
	guessed_like_git &&
	echo 0 >expect &&
	test_cmp expect dirc.code
'

test_expect_success GIT 'an update to the value a ref already has: its log untouched, HEAD logged' '
	succeeds_like_git update-ref refs/heads/m $c1 &&
	succeeds_like_git update-ref refs/heads/m $c2 &&
	succeeds_like_git update-ref refs/heads/m $c2 &&
	succeeds_like_git symbolic-ref HEAD refs/heads/m &&
	succeeds_like_git update-ref -m again HEAD $c2 &&
	succeeds_like_git update-ref --no-deref -m nd HEAD $c2 &&
	succeeds_like_git update-ref -m same refs/heads/m $c2
'

# same_dirs: git and dirc left the same directories in the ref store
same_dirs () {
	refs_dirs .git/refs.by-git >git.dirs &&
	refs_dirs .git >dirc.dirs &&
	test_cmp git.dirs dirc.dirs
}

test_expect_success GIT 'a deletion removes the directories it empties, loose or packed, as git' '
	git update-ref refs/heads/p/q/r "$c1" &&
	git update-ref refs/heads/p/keep "$c1" &&
	git update-ref refs/deep/a/b/c "$c1" &&
	interop_run update-ref -d refs/heads/p/q/r &&
	same_result && same_dirs &&
	test_path_is_missing .git/refs/heads/p/q &&
	test_path_is_dir .git/refs/heads/p &&
	interop_run update-ref -d refs/deep/a/b/c &&
	same_result && same_dirs &&
	test_path_is_missing .git/refs/deep/a &&
	git pack-refs --all &&
	git update-ref refs/heads/p/q/r "$c2" &&
	interop_run update-ref -m gone -d refs/heads/p/q/r &&
	same_result && same_dirs &&
	test_path_is_missing .git/refs/heads/p/q &&
	git update-ref -d refs/heads/p/keep
'

test_expect_success GIT 'an update through a symbolic ref appends to its own log too' '
	git update-ref refs/heads/tl "$c1" &&
	git symbolic-ref refs/heads/sl refs/heads/tl &&
	interop_run update-ref --create-reflog -m via refs/heads/sl "$c2" &&
	same_result &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	grep "	via\$" .git/logs/refs/heads/sl &&
	grep "	via\$" .git/logs/refs/heads/tl
'

test_expect_success GIT '--no-deref -d deletes the symbolic ref itself; -m of a deletion reaches HEAD'"'"'s log' '
	interop_run update-ref --no-deref -d refs/heads/sl &&
	same_result && same_dirs &&
	test_path_is_missing .git/refs/heads/sl &&
	test_path_is_file .git/refs/heads/tl &&
	cp .git/HEAD head.saved &&
	test_when_finished "cp head.saved .git/HEAD" &&
	git symbolic-ref HEAD refs/heads/tl &&
	interop_run update-ref -m "branch gone" -d refs/heads/tl &&
	same_result &&
	test_path_is_missing .git/refs/heads/tl &&
	tail -n 1 .git/logs/HEAD >last &&
	grep "^$c2 $ZERO_OID .*	branch gone\$" last
'

test_expect_success GIT 'symbolic-ref: chains, --no-recurse, a dangling one deleted, one-level targets' '
	git update-ref refs/heads/ct "$c1" &&
	git symbolic-ref refs/heads/c2 refs/heads/ct &&
	git symbolic-ref refs/heads/c1 refs/heads/c2 &&
	interop_run symbolic-ref refs/heads/c1 &&
	same_result &&
	echo refs/heads/ct >expect &&
	test_cmp expect dirc.out &&
	interop_run symbolic-ref --no-recurse refs/heads/c1 &&
	same_result &&
	echo refs/heads/c2 >expect &&
	test_cmp expect dirc.out &&
	interop_run symbolic-ref --short refs/heads/c1 &&
	same_result &&
	git symbolic-ref refs/heads/dang refs/heads/nowhere &&
	interop_run symbolic-ref -d refs/heads/dang &&
	same_result &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	test_path_is_missing .git/refs/heads/dang &&
	succeeds_like_git symbolic-ref refs/heads/fh FETCH_HEAD &&
	echo "ref: FETCH_HEAD" >expect &&
	test_cmp expect .git/refs/heads/fh &&
	fails_like_git 128 "fatal: Refusing to point HEAD outside of refs/" \
		symbolic-ref HEAD FETCH_HEAD &&
	# git 2.39 writes a symbolic ref under a bad name; dirc refuses it
	refs_snapshot before &&
	test_expect_code 1 dirc symbolic-ref "refs/heads/x..y" refs/heads/ct 2>err &&
	test_grep "^error: refusing to update ref with bad name .refs/heads/x\.\.y.\$" err &&
	refs_unchanged before &&
	git symbolic-ref -d refs/heads/fh &&
	git symbolic-ref -d refs/heads/c1 &&
	git symbolic-ref -d refs/heads/c2
'

# same_as_git_ ARGS...: dirc and git give the same exit code,
# stdout and stderr (its first word and ref name) for ARGS
same_as_git_ () {
	code=0 && git "$@" >git.out 2>git.err || code=$? &&
	dcode=0 && dirc "$@" >dirc.out 2>dirc.err || dcode=$? &&
	echo "$*: git $code, dirc $dcode" &&
	test "$code" = "$dcode" &&
	test_cmp git.out dirc.out
}

# (not through interop_run: its copies of the ref store would not keep
# the relative links working)
test_expect_success GIT,SYMLINKS 'an old-style symbolic ref (a symlink to refs/...) is followed as git follows it' '
	git update-ref refs/heads/lt "$c1" &&
	ln -s refs/heads/lt .git/refs/heads/ls &&
	ln -s ../../objects .git/refs/heads/lx &&
	test_when_finished "rm -f .git/refs/heads/ls .git/refs/heads/lx" &&
	for args in "symbolic-ref refs/heads/ls" "rev-parse refs/heads/ls" \
		"rev-parse --symbolic-full-name ls" "symbolic-ref refs/heads/lx" \
		"rev-parse --verify -q refs/heads/lx"
	do
		same_as_git_ $args || return 1
	done &&
	echo refs/heads/lt >expect &&
	dirc symbolic-ref refs/heads/ls >actual &&
	test_cmp expect actual
'

test_done
