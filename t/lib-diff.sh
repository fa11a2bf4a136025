# lib-diff.sh: what the raw diff scripts (t3060-t3069) share.  Sourced
# after test-lib.sh; sources lib-interop.sh.
#
#   diff_cmp CMD ARGS...
#	Run "git CMD ARGS" and "dirc CMD ARGS" from the same index: exit
#	code, stdout, stderr (git 2.39) and the index left must be equal.
#   diff_cmp_in FILE CMD ARGS...
#	The same, both reading FILE on standard input.
#   diff_refused MESSAGE CMD ARGS...
#	dirc exits 128 with "fatal: MESSAGE" and changes nothing.
#   diff_usage CMD ARGS...
#	Both exit 129 (usage); the index is unchanged.
#   commit_tree_of TREE [PARENT...]
#	A commit of TREE (with test_tick), its id on stdout.
. "$TEST_DIRECTORY"/lib-interop.sh

diff_cmp () {
	compare_with_git "$@"
}

diff_cmp_in () {
	dci_file=$1
	shift
	compare_with_git -i "$dci_file" "$@"
}

diff_refused () {
	dr_msg=$1
	shift
	interop_run "$@" &&
	echo 128 >expect.code &&
	test_cmp_codes expect.code dirc.code &&
	printf "fatal: %s\n" "$dr_msg" >expect.err &&
	test_cmp expect.err dirc.err &&
	test_must_be_empty dirc.out &&
	state_unchanged
}

diff_usage () {
	interop_run "$@" &&
	echo 129 >expect.code &&
	test_cmp_codes expect.code git.code &&
	test_cmp_codes expect.code dirc.code &&
	state_unchanged
}

commit_tree_of () {
	cto_tree=$1
	shift
	cto_parents=
	for cto_p in "$@"
	do
		cto_parents="$cto_parents -p $cto_p"
	done
	test_tick &&
	echo "commit of $cto_tree" | git commit-tree $cto_tree $cto_parents
}
