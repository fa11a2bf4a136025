#!/bin/sh
test_description='update-ref and symbolic-ref: refs, reflogs and failures as git makes them

Two repositories with the same commits: "git CMD ARGS" runs in rg and
"dirc CMD ARGS" in rd.  Exit code, stdout and stderr (with the repository
directory name masked) must be equal, and so must the refs afterwards:
for-each-ref, HEAD, loose ref files, packed-refs and every reflog file,
byte for byte.  rd must pass "git fsck --strict" after each step.'
. ./test-lib.sh

Z=0000000000000000000000000000000000000000

# ur_both [-i FILE] CMD ARGS...: git CMD ARGS in rg, dirc CMD ARGS in rd,
# stdin from FILE (default: nothing); results in {git,dirc}.{code,out,err}
# with "/rg/" and "/rd/" written "/R/".
ur_both () {
	ur_in=/dev/null
	if test "$1" = -i
	then
		ur_in=$(pwd)/$2
		shift 2
	fi
	(
		cd rg &&
		git "$@" <"$ur_in" >../git.out 2>../git.err
		echo $? >../git.code
	) &&
	(
		cd rd &&
		dirc "$@" <"$ur_in" >../dirc.out 2>../dirc.err
		echo $? >../dirc.code
	) &&
	sed -e "s|/rg/|/R/|g" git.err >git.err.m &&
	mv git.err.m git.err &&
	sed -e "s|/rd/|/R/|g" dirc.err >dirc.err.m &&
	mv dirc.err.m dirc.err
}

# ref_state REPO: refs, HEAD, loose refs, packed-refs and reflogs of REPO.
ref_state () {
	(
		cd "$1/.git" &&
		echo "--- for-each-ref" &&
		git for-each-ref --format="%(refname) %(objectname) %(symref)" &&
		echo "--- HEAD" &&
		cat HEAD &&
		echo "--- loose" &&
		find refs -type f | sort &&
		echo "--- packed-refs" &&
		if test -f packed-refs
		then
			cat packed-refs
		fi &&
		echo "--- logs" &&
		if test -d logs
		then
			find logs -type f | sort | while read -r f
			do
				echo "$f:" &&
				cat "$f" || exit 1
			done
		fi
	)
}

# same_refs: the refs of rd are those of rg; rd passes git fsck --strict
# and git rev-parse agrees with dirc rev-parse on HEAD.
same_refs () {
	ref_state rg >rg.state &&
	ref_state rd >rd.state &&
	test_cmp rg.state rd.state &&
	if ! git -C rd fsck --strict >fsck.out 2>&1
	then
		cat fsck.out >&2
		return 1
	fi &&
	if git -C rd rev-parse -q --verify HEAD >expect.head
	then
		(cd rd && dirc rev-parse --verify HEAD) >actual.head &&
		test_cmp expect.head actual.head
	fi
}

# resync: make the refs, reflogs and config of rd those of rg again, so
# that a difference found by one test does not spill over into the next.
resync () {
	rm -rf rd/.git/refs rd/.git/logs rd/.git/packed-refs &&
	cp -R rg/.git/refs rd/.git/refs &&
	if test -d rg/.git/logs
	then
		cp -R rg/.git/logs rd/.git/logs
	fi &&
	if test -f rg/.git/packed-refs
	then
		cp rg/.git/packed-refs rd/.git/packed-refs
	fi &&
	cp rg/.git/HEAD rg/.git/config rd/.git/
}

same_result () {
	test_cmp git.code dirc.code &&
	test_cmp git.out dirc.out &&
	test_cmp git.err dirc.err &&
	same_refs
}

# succeeds_like_git [-i FILE] CMD ARGS...: both succeed silently, same refs.
succeeds_like_git () {
	ur_both "$@" &&
	same_result &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	test_must_be_empty dirc.err
}

# fails_like_git CODE MESSAGE CMD ARGS...: both exit CODE with MESSAGE on
# stderr (the first line, if git says more), nothing changed alike.
fails_like_git () {
	fl_code=$1 &&
	fl_msg=$2 &&
	shift 2 &&
	ur_both "$@" &&
	same_result &&
	echo "$fl_code" >expect &&
	test_cmp expect dirc.code &&
	printf "%s\n" "$fl_msg" >expect &&
	head -n 1 dirc.err >actual &&
	test_cmp expect actual
}

test_expect_success GIT 'setup: two repositories with the same commits' '
	git init -q rg &&
	(
		cd rg &&
		echo a >a &&
		git update-index --add a &&
		git write-tree >../tree &&
		git commit-tree -m one "$(cat ../tree)" >../c1 &&
		test_tick &&
		git commit-tree -p "$(cat ../c1)" -m two "$(cat ../tree)" >../c2 &&
		test_tick &&
		git commit-tree -p "$(cat ../c2)" -m three "$(cat ../tree)" >../c3 &&
		git hash-object -w a >../blob &&
		git tag -a -m "a tag" v1 "$(cat ../c1)" &&
		git rev-parse v1 >../tag
	) &&
	cp -R rg rd &&
	tree=$(cat tree) &&
	c1=$(cat c1) &&
	c2=$(cat c2) &&
	c3=$(cat c3) &&
	blob=$(cat blob) &&
	tag=$(cat tag) &&
	test_fsck_also rg rd &&
	same_refs
'

test_expect_success GIT 'create a branch: ref and reflog as git writes them' '
	test_when_finished resync &&
	succeeds_like_git update-ref refs/heads/master "$c1" &&
	test_must_be_empty dirc.out &&
	test_path_is_file rd/.git/logs/refs/heads/master
'

test_expect_success GIT 'update with the right old value' '
	test_when_finished resync &&
	succeeds_like_git update-ref refs/heads/master "$c2" "$c1"
'

test_expect_success GIT 'updating HEAD follows the symbolic ref (both reflogs)' '
	test_when_finished resync &&
	succeeds_like_git update-ref HEAD "$c3" &&
	test_path_is_file rd/.git/logs/HEAD &&
	echo "ref: refs/heads/master" >expect &&
	test_cmp expect rd/.git/HEAD
'

test_expect_success GIT 'old value mismatch: fatal, 128, nothing changed' '
	test_when_finished resync &&
	fails_like_git 128 "fatal: update_ref failed for ref '\''refs/heads/master'\'': cannot lock ref '\''refs/heads/master'\'': is at $c3 but expected $c1" \
		update-ref refs/heads/master "$c2" "$c1"
'

test_expect_success GIT 'abbreviated and symbolic values are resolved' '
	test_when_finished resync &&
	succeeds_like_git update-ref refs/heads/abbrev "$(echo "$c1" | cut -c1-8)" &&
	succeeds_like_git update-ref refs/heads/abbrev master~1 master~2
'

test_expect_success GIT 'old value of zeros or empty: the ref must not exist' '
	test_when_finished resync &&
	succeeds_like_git update-ref refs/heads/new "$c1" $Z &&
	fails_like_git 128 "fatal: update_ref failed for ref '\''refs/heads/new'\'': cannot lock ref '\''refs/heads/new'\'': reference already exists" \
		update-ref refs/heads/new "$c2" $Z &&
	succeeds_like_git update-ref refs/heads/new2 "$c1" "" &&
	fails_like_git 128 "fatal: update_ref failed for ref '\''refs/heads/new2'\'': cannot lock ref '\''refs/heads/new2'\'': reference already exists" \
		update-ref refs/heads/new2 "$c2" ""
'

test_expect_success GIT 'a held lock: git'"'"'s message inside "cannot lock ref"' '
	test_when_finished resync &&
	: >rg/.git/refs/heads/master.lock &&
	: >rd/.git/refs/heads/master.lock &&
	test_when_finished "rm -f rg/.git/refs/heads/master.lock rd/.git/refs/heads/master.lock" &&
	fails_like_git 128 "fatal: update_ref failed for ref '\''refs/heads/master'\'': cannot lock ref '\''refs/heads/master'\'': Unable to create '\''$TRASH_DIRECTORY/R/.git/refs/heads/master.lock'\'': File exists." \
		update-ref refs/heads/master "$c1" &&
	test_must_be_empty rd/.git/refs/heads/master.lock
'

test_expect_success GIT 'bad ref names: refused like git' '
	test_when_finished resync &&
	for name in refs/heads/../x HEAD.lock refs/heads/x.lock \
		"refs/heads/a$(printf "\001")b" "refs/heads/sp ace" \
		"refs/heads/a..b" refs/heads/x/ "refs/heads/a~b" "refs/heads/a:b" \
		"refs/heads/a?b" "refs/heads/a[b" "refs/heads/@{x}" refs/heads/.hidden
	do
		ur_both update-ref "$name" "$c1" &&
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
	test_when_finished resync &&
	ur_both update-ref refs/heads/tree "$tree" &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	ur_both update-ref refs/heads/blob "$blob" &&
	same_result &&
	ur_both update-ref refs/heads/tag "$tag" &&
	same_result
'

test_expect_success GIT 'a non-commit object outside refs/heads: accepted like git' '
	test_when_finished resync &&
	succeeds_like_git update-ref refs/tags/tree "$tree" &&
	succeeds_like_git update-ref refs/tags/v1-copy "$tag"
'

test_expect_success GIT 'a missing object, an unknown name: refused like git' '
	test_when_finished resync &&
	fails_like_git 128 "fatal: update_ref failed for ref '\''refs/heads/nope'\'': cannot update ref '\''refs/heads/nope'\'': trying to write ref '\''refs/heads/nope'\'' with nonexistent object 1234567890123456789012345678901234567890" \
		update-ref refs/heads/nope 1234567890123456789012345678901234567890 &&
	fails_like_git 128 "fatal: nonexist: not a valid SHA1" \
		update-ref refs/heads/nope nonexist &&
	fails_like_git 128 "fatal: nonexist: not a valid old SHA1" \
		update-ref refs/heads/nope "$c1" nonexist
'

test_expect_success GIT '-d of a loose ref' '
	test_when_finished resync &&
	succeeds_like_git update-ref -d refs/heads/new &&
	test_path_is_missing rd/.git/refs/heads/new &&
	test_path_is_missing rd/.git/logs/refs/heads/new
'

test_expect_success GIT '-d of a ref that does not exist: exit 0' '
	test_when_finished resync &&
	succeeds_like_git update-ref -d refs/heads/never
'

test_expect_success GIT '-d with the right old value, and with a wrong one (exit 1)' '
	test_when_finished resync &&
	ur_both update-ref -d refs/heads/new2 "$c2" &&
	same_result &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	echo "error: cannot lock ref '\''refs/heads/new2'\'': is at $c1 but expected $c2" >expect &&
	test_cmp expect dirc.err &&
	succeeds_like_git update-ref -d refs/heads/new2 "$c1"
'

test_expect_success GIT '-d of a packed ref: packed-refs no longer lists it' '
	test_when_finished resync &&
	succeeds_like_git update-ref refs/heads/p1 "$c1" &&
	succeeds_like_git update-ref refs/heads/p2 "$c2" &&
	git -C rg pack-refs --all &&
	git -C rd pack-refs --all &&
	same_refs &&
	test_path_is_missing rd/.git/refs/heads/p1 &&
	succeeds_like_git update-ref -d refs/heads/p1 &&
	test_grep -v "refs/heads/p1" rd/.git/packed-refs &&
	test_grep "refs/heads/p2" rd/.git/packed-refs
'

test_expect_success GIT 'a packed ref: updated (loose copy wins) and checked against its old value' '
	test_when_finished resync &&
	succeeds_like_git update-ref refs/heads/p2 "$c3" "$c2" &&
	fails_like_git 128 "fatal: update_ref failed for ref '\''refs/heads/p2'\'': cannot lock ref '\''refs/heads/p2'\'': is at $c3 but expected $c2" \
		update-ref refs/heads/p2 "$c1" "$c2" &&
	succeeds_like_git update-ref -d refs/heads/p2 "$c3" &&
	test_grep -v "refs/heads/p2" rd/.git/packed-refs
'

test_expect_success GIT '-m: the reason in the reflog, whitespace squashed like git' '
	test_when_finished resync &&
	succeeds_like_git update-ref -m "  hello   world  " refs/heads/m "$c1" &&
	succeeds_like_git update-ref -m "$(printf "tab\there\nnewline")" refs/heads/m "$c2"
'

test_expect_success GIT '--no-deref HEAD: detaches HEAD' '
	test_when_finished resync &&
	succeeds_like_git update-ref --no-deref HEAD "$c1" &&
	echo "$c1" >expect &&
	test_cmp expect rd/.git/HEAD
'

test_expect_success GIT 'symbolic-ref HEAD refs/heads/master: points HEAD back' '
	test_when_finished resync &&
	succeeds_like_git symbolic-ref HEAD refs/heads/master &&
	echo "ref: refs/heads/master" >expect &&
	test_cmp expect rd/.git/HEAD
'

test_expect_success GIT 'symbolic-ref HEAD: read, --short, -q' '
	test_when_finished resync &&
	succeeds_like_git symbolic-ref HEAD &&
	echo refs/heads/master >expect &&
	test_cmp expect dirc.out &&
	succeeds_like_git symbolic-ref --short HEAD &&
	echo master >expect &&
	test_cmp expect dirc.out &&
	succeeds_like_git symbolic-ref -q HEAD
'

test_expect_success GIT 'symbolic-ref of a plain ref: fatal; with -q exit 1 silently' '
	test_when_finished resync &&
	fails_like_git 128 "fatal: ref refs/heads/master is not a symbolic ref" \
		symbolic-ref refs/heads/master &&
	ur_both symbolic-ref -q refs/heads/master &&
	same_result &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	test_must_be_empty dirc.err &&
	test_must_be_empty dirc.out
'

test_expect_success GIT 'symbolic-ref HEAD foo: refused like git' '
	test_when_finished resync &&
	fails_like_git 128 "fatal: Refusing to point HEAD outside of refs/" \
		symbolic-ref HEAD foo
'

test_expect_success GIT 'symbolic-ref HEAD to an unborn branch, then an update creates it' '
	test_when_finished resync &&
	succeeds_like_git symbolic-ref HEAD refs/heads/x &&
	ur_both symbolic-ref HEAD &&
	same_result &&
	succeeds_like_git update-ref HEAD "$c2" &&
	test_path_is_file rd/.git/refs/heads/x
'

test_expect_success GIT 'symbolic-ref -m: the reason goes to the HEAD reflog' '
	test_when_finished resync &&
	succeeds_like_git symbolic-ref -m "back to master" HEAD refs/heads/master
'

test_expect_success GIT 'symbolic-ref -d of another symref; of HEAD refused like git' '
	test_when_finished resync &&
	succeeds_like_git symbolic-ref refs/heads/alias refs/heads/master &&
	succeeds_like_git symbolic-ref -d refs/heads/alias &&
	ur_both symbolic-ref -d HEAD &&
	same_result &&
	ur_both symbolic-ref -d refs/heads/master &&
	same_result
'

test_expect_success GIT 'core.logAllRefUpdates=false: no new reflog; --create-reflog makes one' '
	test_when_finished resync &&
	git -C rg config core.logAllRefUpdates false &&
	git -C rd config core.logAllRefUpdates false &&
	succeeds_like_git update-ref refs/heads/nolog "$c1" &&
	test_path_is_missing rd/.git/logs/refs/heads/nolog &&
	succeeds_like_git update-ref --create-reflog refs/heads/withlog "$c1" &&
	test_path_is_file rd/.git/logs/refs/heads/withlog
'

test_expect_success GIT 'core.logAllRefUpdates=always: tags get a reflog too' '
	test_when_finished resync &&
	git -C rg config core.logAllRefUpdates always &&
	git -C rd config core.logAllRefUpdates always &&
	succeeds_like_git update-ref refs/tags/logged "$c1" &&
	test_path_is_file rd/.git/logs/refs/tags/logged &&
	git -C rg config core.logAllRefUpdates true &&
	git -C rd config core.logAllRefUpdates true &&
	succeeds_like_git update-ref refs/tags/unlogged "$c1" &&
	test_path_is_missing rd/.git/logs/refs/tags/unlogged
'

test_expect_success GIT '--stdin: update, create, delete and verify in one transaction' '
	test_when_finished resync &&
	cat >input <<-EOF &&
	update refs/heads/s1 $c1
	update refs/heads/abbrev $c3 $c2
	create refs/heads/s2 $c2
	delete refs/heads/nolog $c1
	verify refs/heads/withlog $c1
	verify refs/heads/absent
	EOF
	succeeds_like_git -i input update-ref -m batch --stdin &&
	test_path_is_missing rd/.git/refs/heads/nolog
'

test_expect_success GIT '--stdin: a failing verify aborts the whole transaction' '
	test_when_finished resync &&
	cat >input <<-EOF &&
	update refs/heads/s1 $c3
	verify refs/heads/s2 $c1
	EOF
	ur_both -i input update-ref --stdin &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	echo "$c1" >expect &&
	git -C rd rev-parse refs/heads/s1 >actual &&
	test_cmp expect actual
'

test_expect_success GIT '--stdin -z: the NUL-separated form' '
	test_when_finished resync &&
	printf "update refs/heads/z1\000%s\000\000create refs/heads/z2\000%s\000delete refs/heads/s2\000%s\000" \
		"$c1" "$c2" "$c2" >input &&
	succeeds_like_git -i input update-ref -z --stdin &&
	test_path_is_file rd/.git/refs/heads/z1
'

test_expect_success GIT '--stdin: a malformed line is fatal like git' '
	test_when_finished resync &&
	echo "frobnicate refs/heads/x" >input &&
	ur_both -i input update-ref --stdin &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code
'

test_expect_success GIT '--stdin: the same ref twice is refused like git, nothing changed' '
	test_when_finished resync &&
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
	test_when_finished "git -C rg update-ref -d --no-deref refs/heads/sym2 &&
		git -C rg update-ref -d --no-deref refs/heads/sym &&
		git -C rg update-ref -d refs/heads/other && resync" &&
	git -C rg symbolic-ref HEAD refs/heads/master &&
	git -C rg symbolic-ref refs/heads/sym refs/heads/master &&
	git -C rg symbolic-ref refs/heads/sym2 refs/heads/sym &&
	resync &&
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
	test_when_finished "git -C rg update-ref -d refs/heads/nd &&
		git -C rg symbolic-ref HEAD refs/heads/master && resync" &&
	git -C rg symbolic-ref HEAD refs/heads/master &&
	resync &&
	git -C rg update-ref refs/heads/master "$c1" &&
	resync &&
	printf "option no-deref\nupdate refs/heads/nd %s\nupdate HEAD %s\n" \
		"$c1" "$c2" >input &&
	succeeds_like_git -i input update-ref --stdin &&
	echo "ref: refs/heads/master" >expect &&
	test_cmp expect rd/.git/HEAD &&
	printf "option no-deref\nstart\nupdate HEAD %s\ncommit\n" "$c3" >input &&
	ur_both -i input update-ref --stdin &&
	same_result &&
	echo "$c3" >expect &&
	test_cmp expect rd/.git/HEAD
'

test_expect_success GIT 'a leftover HEAD.lock stops updates through HEAD, as in git' '
	test_when_finished "rm -f rg/.git/HEAD.lock rd/.git/HEAD.lock; resync" &&
	: >rg/.git/HEAD.lock &&
	: >rd/.git/HEAD.lock &&
	ur_both update-ref HEAD $c2 &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	test_grep "cannot lock ref .HEAD.: Unable to create" dirc.err &&
	ur_both update-ref --no-deref HEAD $c2 &&
	same_result &&
	ur_both symbolic-ref HEAD refs/heads/s1 &&
	same_result &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	test_grep "remove the file manually" dirc.err
'

test_expect_success GIT 'empty directories where a ref goes are removed; others block it' '
	test_when_finished resync &&
	mkdir -p rg/.git/refs/heads/dd/e rd/.git/refs/heads/dd/e &&
	mkdir -p rg/.git/refs/heads/ff/e rd/.git/refs/heads/ff/e &&
	succeeds_like_git update-ref refs/heads/dd $c1 &&
	succeeds_like_git symbolic-ref refs/heads/ff refs/heads/dd &&
	mkdir -p rg/.git/refs/heads/ee/e/f rd/.git/refs/heads/ee/e/f &&
	: >rg/.git/refs/heads/ee/e/f/g &&
	: >rd/.git/refs/heads/ee/e/f/g &&
	ur_both update-ref refs/heads/ee $c1 &&
	test_cmp git.code dirc.code &&
	test_cmp git.err dirc.err &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	ur_both symbolic-ref refs/heads/ee refs/heads/dd &&
	test_cmp git.code dirc.code &&
	test_cmp git.err dirc.err &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	# git logs the failed symbolic-ref before its rename fails; dirc
	# writes the reflog only for what happened
	test_path_is_missing rd/.git/logs/refs/heads/ee &&
	rm -r rg/.git/refs/heads/ee rd/.git/refs/heads/ee rg/.git/logs/refs/heads/ee &&
	same_refs
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
	test_cmp git.code dirc.code &&
	test_cmp git.out dirc.out &&
	test_cmp git.err dirc.err &&
	ref_state rg | sed -e "s/<[^>]*>/<EMAIL>/" >rg.state &&
	ref_state rd | sed -e "s/<[^>]*>/<EMAIL>/" >rd.state &&
	test_cmp rg.state rd.state &&
	git -C rd fsck --strict
}

test_expect_success GIT 'no identity: update-ref and symbolic-ref guess one like git' '
	test_when_finished resync &&
	echo 0 >expect &&
	no_ident ur_both -c core.logAllRefUpdates=false \
		update-ref refs/tags/noid "$c1" &&
	guessed_like_git &&
	test_cmp expect dirc.code &&
	no_ident ur_both update-ref -m "no ident" refs/heads/noid "$c1" &&
	guessed_like_git &&
	test_cmp expect dirc.code &&
	test_grep "no ident" rd/.git/logs/refs/heads/noid &&
	no_ident ur_both symbolic-ref HEAD refs/heads/noid &&
	guessed_like_git &&
	test_cmp expect dirc.code &&
	printf "create refs/heads/noid2 %s\n" "$c2" >input &&
	no_ident ur_both -i input update-ref --stdin &&
	guessed_like_git &&
	test_cmp expect dirc.code &&
	test_path_is_file rd/.git/logs/refs/heads/noid2
'

test_expect_success GIT 'no identity, an empty name: the login name, like git' '
	test_when_finished resync &&
	no_ident ur_both -c user.name= update-ref refs/heads/noname "$c1" &&
	guessed_like_git &&
	echo 0 >expect &&
	test_cmp expect dirc.code
'

test_expect_success GIT 'an update to the value a ref already has: its log untouched, HEAD logged' '
	test_when_finished resync &&
	succeeds_like_git update-ref refs/heads/m $c1 &&
	succeeds_like_git update-ref refs/heads/m $c2 &&
	succeeds_like_git update-ref refs/heads/m $c2 &&
	succeeds_like_git symbolic-ref HEAD refs/heads/m &&
	succeeds_like_git update-ref -m again HEAD $c2 &&
	succeeds_like_git update-ref --no-deref -m nd HEAD $c2 &&
	succeeds_like_git update-ref -m same refs/heads/m $c2
'

test_done
