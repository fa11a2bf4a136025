# lib-checkout.sh: lib-interop's state for checkout-index and read-tree.
# Sourced after test-lib.sh; sources lib-interop.sh and lib-worktree.sh.
#
#   INTEROP_STATE=index (the default)
#	lib-interop's index, and state_unchanged also wants no
#	.git/index.lock left behind.
#   INTEROP_STATE=twins
#	The index and the work tree, in two repositories the script sets
#	up alike: git runs in $CHECKOUT_GIT (default rg), dirc in
#	$CHECKOUT_DIRC (default rd), -C DIR inside them.  same_result wants
#	the same staged entries (ls-files -s) and the same work trees
#	(lib-worktree's snapshot, both put through $INTEROP_FILTER when set,
#	a filter for what may differ, such as random names);
#	state_unchanged wants dirc's repository as interop_run found it.
#	With CHECKOUT_DIFF_FILES set, the state also holds what "git
#	diff-files --name-status" says in the repository (which entries
#	the index finds changed), for commands that write the index too.
#   in_both 'SCRIPT'
#	SCRIPT (shell) in $CHECKOUT_GIT, then in $CHECKOUT_DIRC.
. "$TEST_DIRECTORY"/lib-interop.sh
. "$TEST_DIRECTORY"/lib-worktree.sh

: "${CHECKOUT_GIT:=rg}" "${CHECKOUT_DIRC:=rd}"

in_both () {
	for ib_repo in "$CHECKOUT_GIT" "$CHECKOUT_DIRC"
	do
		(cd "$ib_repo" && eval "$1") || return 1
	done
}

# checkout_state_ REPO: REPO's staged entries and work tree, on stdout
checkout_state_ () {
	git -C "$1" ls-files -s &&
	if test -n "${INTEROP_FILTER-}"
	then
		snapshot "$1" >checkout.tree &&
		$INTEROP_FILTER <checkout.tree | sort
	else
		snapshot "$1"
	fi &&
	if test -n "${CHECKOUT_DIFF_FILES-}"
	then
		git -C "$1" diff-files --name-status
	fi
}

interop_save () {
	case $INTEROP_STATE in
	twins)
		checkout_state_ "$CHECKOUT_DIRC" >checkout.start &&
		interop_side_dir=$CHECKOUT_GIT ;;
	*)	interop_index_save ;;
	esac
}

interop_keep_git () {
	test "$INTEROP_STATE" = twins || interop_index_keep_git
}

interop_restore () {
	case $INTEROP_STATE in
	twins)	interop_side_dir=$CHECKOUT_DIRC ;;
	*)	interop_index_restore ;;
	esac
}

interop_same_state () {
	case $INTEROP_STATE in
	twins)
		checkout_state_ "$CHECKOUT_GIT" >checkout.by-git &&
		checkout_state_ "$CHECKOUT_DIRC" >checkout.by-dirc &&
		test_cmp checkout.by-git checkout.by-dirc ;;
	*)	interop_index_same_state ;;
	esac
}

interop_state_unchanged () {
	case $INTEROP_STATE in
	twins)
		checkout_state_ "$CHECKOUT_DIRC" >checkout.now &&
		test_cmp checkout.start checkout.now ;;
	*)
		interop_index_state_unchanged &&
		test_path_is_missing .git/index.lock ;;
	esac
}
