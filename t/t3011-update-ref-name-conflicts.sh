#!/bin/sh
test_description='update-ref and symbolic-ref: a ref and a ref below it cannot both exist

A ref "refs/x/c" and a ref "refs/x/c/d" cannot both exist (one would be
a file, the other a directory).  git checks every name against loose
refs, packed refs and the other names of the same transaction, in both
directions; dirc must refuse the same commands with the same messages
and exit codes, and leave the ref store exactly as it was: loose refs,
packed-refs, reflogs, and the directories too (git leaves directories it
made for the lock behind, dirc does not).  Each case runs git, then dirc
from the same state (lib-interop.sh, lib-refs.sh).'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh
. "$TEST_DIRECTORY"/lib-refs.sh

SQ="'"

# conflict_msg EXISTING NEW: git's reason for refusing NEW.
conflict_msg () {
	echo "$SQ$1$SQ exists; cannot create $SQ$2$SQ"
}

# lock_pfx PACKED NAME: what git 2.55 puts before the reason: "cannot
# lock ref 'NAME': " when the conflict is found while locking (a loose
# ref or a directory in the way), nothing when the existing ref is only
# packed (2.55 checks those names once every ref is locked).
lock_pfx () {
	$1 || echo "cannot lock ref $SQ$2$SQ: "
}

# conflict_now <ERR: git 2.39's messages as git 2.55 words them (dirc
# follows 2.55): "cannot lock ref 'X': 'Y' exists; cannot create 'X'"
# loses its "cannot lock ref 'X': " where Y is not a loose ref, unless
# KEEP_PFX is true (an earlier lock of the same transaction made a
# directory where X goes).
conflict_now () {
	while IFS= read -r cn_line
	do
		case $cn_line in
		*"cannot lock ref '"*"': '"*"' exists; cannot create '"*)
			cn_y=${cn_line#*"': '"} &&
			cn_y=${cn_y%%"'"*} &&
			if ! test -f ".git/$cn_y" && ! ${KEEP_PFX:-false}
			then
				cn_pre=${cn_line%%"cannot lock ref '"*} &&
				cn_rest=${cn_line#*"cannot lock ref '"} &&
				cn_line=$cn_pre${cn_rest#*"': "}
			fi ;;
		esac &&
		printf "%s\n" "$cn_line" || return 1
	done
}
INTEROP_GIT_ERR_FILTER=conflict_now

test_expect_success GIT 'setup: commits; reflogs for every ref' '
	refs_commits &&
	git update-ref refs/heads/master "$c1" &&
	git config core.logAllRefUpdates always
'

test_expect_success GIT 'an existing ref is a prefix of the new one: loose and packed, near and deep' '
	for pack in false true
	do
		p=refs/pfx-$pack &&
		git update-ref $p/c "$c1" &&
		if $pack
		then
			git pack-refs --all || return 1
		fi &&
		fails_like_git 128 "fatal: update_ref failed for ref $SQ$p/c/x$SQ: $(lock_pfx $pack $p/c/x)$(conflict_msg $p/c $p/c/x)" \
			update-ref $p/c/x "$c2" &&
		fails_like_git 128 "fatal: update_ref failed for ref $SQ$p/c/x/y$SQ: $(lock_pfx $pack $p/c/x/y)$(conflict_msg $p/c $p/c/x/y)" \
			update-ref $p/c/x/y "$c2" &&
		printf "create %s %s\n" $p/a "$c1" $p/c/x "$c2" $p/z "$c1" >input &&
		fails_like_git 128 "fatal: $(lock_pfx $pack $p/c/x)$(conflict_msg $p/c $p/c/x)" \
			-i input update-ref --stdin || return 1
	done
'

test_expect_success GIT 'a branch in packed-refs, its reflog on: refs/heads/side/x refused, nothing written' '
	git update-ref refs/heads/side "$c1" &&
	git pack-refs --all &&
	test_path_is_file .git/logs/refs/heads/side &&
	test_path_is_missing .git/refs/heads/side &&
	fails_like_git 128 "fatal: update_ref failed for ref $SQ""refs/heads/side/x$SQ: $(conflict_msg refs/heads/side refs/heads/side/x)" \
		update-ref refs/heads/side/x "$c2" &&
	test_path_is_missing .git/refs/heads/side &&
	test_path_is_missing .git/logs/refs/heads/side/x
'

test_expect_success GIT 'the new ref is a prefix of existing ones: loose and packed, near and deep' '
	for pack in false true
	do
		p=refs/sfx-$pack &&
		git update-ref $p/c/x/y "$c1" &&
		git update-ref $p/c/w "$c1" &&
		if $pack
		then
			git pack-refs --all || return 1
		fi &&
		# git names the first of them in sorted order
		fails_like_git 128 "fatal: update_ref failed for ref $SQ$p/c$SQ: $(lock_pfx $pack $p/c)$(conflict_msg $p/c/w $p/c)" \
			update-ref $p/c "$c2" &&
		fails_like_git 128 "fatal: update_ref failed for ref $SQ$p/c/x$SQ: $(lock_pfx $pack $p/c/x)$(conflict_msg $p/c/x/y $p/c/x)" \
			update-ref $p/c/x "$c2" || return 1
	done
'

test_expect_success GIT 'deleting a ref that does not exist where it could not: refused like git' '
	interop_run update-ref -d refs/pfx-true/c/gone &&
	same_result &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	echo "error: $(conflict_msg refs/pfx-true/c refs/pfx-true/c/gone)" >expect &&
	test_cmp expect dirc.err &&
	state_unchanged
'

# git 2.55 checks the names of new refs against each other once all are
# locked, and says a conflict then bare; a ref whose path is already a
# directory (made for the lock of a ref below it) conflicts while being
# locked, "cannot lock ref" first.  git 2.39 checked each while locking
# it: its messages are replaced by 2.55's here.
msg_now () {
	echo "$now_msg"
}

test_expect_success GIT 'two new names of one transaction: either order' '
	test_when_finished "INTEROP_GIT_ERR_FILTER=conflict_now" &&
	INTEROP_GIT_ERR_FILTER=msg_now &&
	p=refs/txn &&
	printf "create %s %s\n" $p/b "$c1" $p/c "$c1" $p/c/x "$c1" $p/d "$c1" >input &&
	now_msg="fatal: cannot process $SQ$p/c$SQ and $SQ$p/c/x$SQ at the same time" &&
	fails_like_git 128 "$now_msg" -i input update-ref --stdin &&
	printf "create %s %s\n" $p/c/x "$c1" $p/c "$c1" >input &&
	now_msg="fatal: cannot lock ref $SQ$p/c$SQ: cannot process $SQ$p/c$SQ and $SQ$p/c/x$SQ at the same time" &&
	fails_like_git 128 "$now_msg" -i input update-ref --stdin &&
	printf "verify %s\ncreate %s %s\n" $p/c/x $p/c "$c1" >input &&
	fails_like_git 128 "$now_msg" -i input update-ref --stdin
'

# df_case NAME [--pack] [--sym-add] [--sym-del] (--add-del A D | --del-add D A):
# t1404's cases: a ref deleted and one that conflicts with it created in
# one transaction, maybe packed, maybe through symbolic refs.
df_case () {
	p=refs/$1 pack= symadd= symdel= order=
	shift
	while test $# -gt 0
	do
		case $1 in
		--pack) pack=t && shift ;;
		--sym-add) symadd=t && shift ;;
		--sym-del) symdel=t && shift ;;
		--add-del) order=ad add=$p/r/$2 del=$p/r/$3 && shift 3 ;;
		--del-add) order=da del=$p/r/$2 add=$p/r/$3 && shift 3 ;;
		esac
	done &&
	git update-ref $del "$c1" &&
	addname=$add delname=$del &&
	if test -n "$symadd"
	then
		addname=$p/s/symadd &&
		git symbolic-ref $addname $add
	fi &&
	if test -n "$symdel"
	then
		delname=$p/s/symdel &&
		git symbolic-ref $delname $del
	fi &&
	if test -n "$pack"
	then
		git pack-refs --all
	fi &&
	if test $order = ad
	then
		printf "%s\n" "create $addname $c2" "delete $delname"
	else
		printf "%s\n" "delete $delname" "create $addname $c2"
	fi >input &&
	# bare only where the existing ref is packed and no lock of this
	# transaction made a directory where the new one goes (the lock of
	# a deleted longer name, taken first)
	packed=false KEEP_PFX=false &&
	if test -n "$pack"
	then
		packed=true &&
		case $order,$del in
		da,$add/*) packed=false KEEP_PFX=true ;;
		esac
	fi &&
	fails_like_git 128 "fatal: $(lock_pfx $packed $addname)$(conflict_msg $del $add)" \
		-i input update-ref --stdin &&
	KEEP_PFX=false &&
	if test -n "$symadd"
	then
		git symbolic-ref -d $addname	# dangling: fsck objects
	fi
}

test_expect_success GIT 'delete one, create a conflicting one in one transaction: refused, every variant' '
	df_case al-ds --add-del foo/bar foo &&
	df_case as-dl --add-del foo foo/bar &&
	df_case dl-as --del-add foo/bar foo &&
	df_case ds-al --del-add foo foo/bar &&
	df_case al-dsp --pack --add-del foo/bar foo &&
	df_case as-dlp --pack --add-del foo foo/bar &&
	df_case dlp-as --pack --del-add foo/bar foo &&
	df_case dsp-al --pack --del-add foo foo/bar &&
	df_case ial-ds --sym-add --add-del foo/bar foo &&
	df_case ial-ids --sym-add --sym-del --add-del foo/bar foo &&
	df_case ias-idl --sym-add --sym-del --add-del foo foo/bar &&
	df_case idl-ias --sym-add --sym-del --del-add foo/bar foo &&
	df_case ial-dsp --sym-add --pack --add-del foo/bar foo &&
	df_case ial-idsp --sym-add --sym-del --pack --add-del foo/bar foo &&
	df_case al-idsp --sym-del --pack --add-del foo/bar foo &&
	df_case idlp-ias --sym-add --sym-del --pack --del-add foo/bar foo
'

test_expect_success GIT 'a failure late in a transaction removes the directories made for it' '
	printf "create %s %s\n" refs/new/a/b/c "$c1" refs/heads/master "$c2" >input &&
	fails_like_git 128 "fatal: cannot lock ref $SQ""refs/heads/master$SQ: reference already exists" \
		-i input update-ref --stdin &&
	test_path_is_missing .git/refs/new &&
	# git leaves refs/new/a/b behind
	test_path_is_dir .git/refs.by-git/refs/new/a/b
'

test_expect_success GIT 'a directory where the ref goes: empty ones are removed, others block it' '
	p=refs/dirs &&
	mkdir -p .git/$p/empty/a/b .git/$p/full/bar &&
	: >.git/$p/full/bar/baz.lock &&
	test_when_finished "rm -rf .git/$p" &&
	succeeds_like_git update-ref $p/empty "$c1" &&
	test_path_is_file .git/$p/empty &&
	fails_like_git 128 "fatal: update_ref failed for ref $SQ$p/full$SQ: cannot lock ref $SQ$p/full$SQ: there is a non-empty directory $SQ.git/$p/full$SQ blocking reference $SQ$p/full$SQ" \
		update-ref $p/full "$c1" &&
	fails_like_git 128 "fatal: update_ref failed for ref $SQ$p/full$SQ: cannot lock ref $SQ$p/full$SQ: unable to resolve reference $SQ$p/full$SQ" \
		update-ref $p/full "$c2" "$c1" &&
	mkdir -p .git/$p/full2/a &&
	echo "$c1" >.git/$p/full2/a/b &&
	fails_like_git 128 "fatal: update_ref failed for ref $SQ$p/full2$SQ: cannot lock ref $SQ$p/full2$SQ: $(conflict_msg $p/full2/a/b $p/full2)" \
		update-ref $p/full2 "$c1"
'

test_expect_success GIT 'a broken ref blocks an update, and a file where a directory goes' '
	p=refs/broken &&
	mkdir -p .git/$p &&
	echo gobbledigook >.git/$p/foo &&
	test_when_finished "rm -rf .git/$p" &&
	fails_like_git 128 "fatal: update_ref failed for ref $SQ$p/foo$SQ: cannot lock ref $SQ$p/foo$SQ: unable to resolve reference $SQ$p/foo$SQ: reference broken" \
		update-ref $p/foo "$c1" &&
	fails_like_git 128 "fatal: update_ref failed for ref $SQ$p/foo/bar$SQ: cannot lock ref $SQ$p/foo/bar$SQ: unable to create lock file .git/$p/foo/bar.lock; non-directory in the way" \
		update-ref $p/foo/bar "$c1"
'

test_expect_success GIT 'symbolic-ref: a packed ref above or below it refuses; a loose one stops the lock' '
	git update-ref refs/sym-loose/c "$c1" &&
	git update-ref refs/sym-loose/d/w "$c1" &&
	fails_like_git 1 "error: $(conflict_msg refs/pfx-true/c refs/pfx-true/c/s)" \
		symbolic-ref refs/pfx-true/c/s refs/heads/master &&
	fails_like_git 1 "error: $(conflict_msg refs/sfx-true/c/w refs/sfx-true/c)" \
		symbolic-ref refs/sfx-true/c refs/heads/master &&
	fails_like_git 1 "error: Unable to create $SQ$TRASH_DIRECTORY/.git/refs/sym-loose/c/s.lock$SQ: Not a directory" \
		symbolic-ref refs/sym-loose/c/s refs/heads/master
'

test_expect_success GIT 'symbolic-ref over a loose ref below it: both of git'"'"'s errors, nothing written' '
	interop_run symbolic-ref refs/sym-loose/d refs/heads/master &&
	same_result &&
	cat >expect <<-EOF &&
	error: there are still logs under $SQ.git/logs/refs/sym-loose/d$SQ
	error: unable to write symref for refs/sym-loose/d: Is a directory
	EOF
	test_cmp expect dirc.err &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	state_unchanged
'

test_expect_success GIT 'a reflog in the way: git writes part of the transaction, dirc nothing' '
	echo stale >.git/logs/refs/heads/stale &&
	test_when_finished "rm -f .git/logs/refs/heads/stale" &&
	printf "create %s %s\n" refs/heads/first "$c1" refs/heads/stale/y "$c1" \
		refs/heads/zlast "$c1" >input &&
	interop_run -i input update-ref --stdin &&
	test_cmp_codes git.code dirc.code &&
	test_cmp git.err dirc.err &&
	echo "fatal: cannot update the ref $SQ""refs/heads/stale/y$SQ: unable to append to $SQ.git/logs/refs/heads/stale/y$SQ: Not a directory" >expect &&
	test_cmp expect dirc.err &&
	test_path_is_file .git/refs.by-git/refs/heads/first &&
	state_unchanged &&
	fails_like_git 128 "fatal: update_ref failed for ref $SQ""refs/heads/stale/x$SQ: cannot update the ref $SQ""refs/heads/stale/x$SQ: unable to append to $SQ.git/logs/refs/heads/stale/x$SQ: Not a directory" \
		update-ref refs/heads/stale/x "$c1"
'

test_expect_success GIT 'logs below where a reflog goes: refused before anything is written' '
	mkdir -p .git/logs/refs/heads/old/sub &&
	echo x >.git/logs/refs/heads/old/sub/log &&
	test_when_finished "rm -rf .git/logs/refs/heads/old" &&
	fails_like_git 128 "fatal: update_ref failed for ref $SQ""refs/heads/old$SQ: cannot update the ref $SQ""refs/heads/old$SQ: there are still logs under $SQ.git/logs/refs/heads/old$SQ" \
		update-ref refs/heads/old "$c1"
'

test_done
