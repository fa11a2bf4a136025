# lib-filter.sh: filter drivers for the t312x scripts.  Sourced after
# test-lib.sh.
#
#   FILTER_PL    our long-running filter (lib-filter/process.pl; its
#                options are listed at its top)
#   filter_proc OPTION...
#       prints a filter.<d>.process command exec-ing FILTER_PL with the
#       options and logging to $(pwd)/filter.log
#   git_clean PATH
#       the bytes git stores for the work-tree file PATH (hash-object -w,
#       the repository's configuration), on stdout; git's stderr in
#       git.err and its exit code in git.code
#   git_smudge PATH
#       the bytes git's cat-file --filters writes for the blob of the
#       work-tree file PATH as it is (stored first, no filter), on
#       stdout; git.err, git.code
#   tt_filter ARGS...
#       "dirc test-tool filter ARGS", stderr to dirc.err, code to dirc.code
#
# Prerequisites: PERL (perl runs), GIT_LFS (git lfs runs: the Debian
# package git-lfs; .ci/run installs it).

FILTER_PL="$TEST_DIRECTORY/lib-filter/process.pl"

test_lazy_prereq PERL 'perl -e 1'
test_lazy_prereq GIT_LFS 'git lfs version'

filter_proc () {
	printf "exec perl '%s' log='%s'" "$FILTER_PL" "$(pwd)/filter.log"
	for fp_o
	do
		printf " '%s'" "$fp_o"
	done
}

git_clean () {
	gc_oid_=$(git hash-object -w -- "$1" 2>git.err)
	echo $? >git.code
	if test -n "$gc_oid_"
	then
		git cat-file blob "$gc_oid_"
	fi
}

git_smudge () {
	gs_oid_=$(git hash-object -w --no-filters -- "$1") &&
	git cat-file --filters --path="$1" "$gs_oid_" 2>git.err
	echo $? >git.code
}

tt_filter () {
	dirc test-tool filter "$@" 2>dirc.err
	echo $? >dirc.code
}
