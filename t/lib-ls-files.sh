# lib-ls-files.sh: what the ls-files scripts share.  Sourced after
# test-lib.sh; it sources lib-interop.sh.
#
#   ls_both DIR ARGS...
#	"git ls-files ARGS" and "dirc ls-files ARGS", both run in DIR,
#	exit alike and print the same (stderr as lib-interop.sh compares
#	it).  The results go to {git,dirc}.{code,out,err} in the current
#	directory, which should hold the work tree DIR is in, not be in it:
#	ls-files -o would see them.
#   each_both FILE
#	ls_both for each line "DIR|ARG|ARG..." of FILE: no globbing, "a||b"
#	passes an empty argument, "a||" ends with one.  The number of lines
#	run goes to "rounds"; every line runs even after one differs.

. "$TEST_DIRECTORY"/lib-interop.sh

ls_both () {
	lb_dir=$1
	shift
	INTEROP_STATE=none interop_run -C "$lb_dir" ls-files "$@" &&
	INTEROP_STATE=none same_result || {
		echo "^^^ differs from git: (cd $lb_dir && ls-files $*)" >&2
		return 1
	}
}

each_both () {
	eb_fail= &&
	eb_n=0 &&
	set -f &&
	eb_ifs=$IFS &&
	while IFS= read -r eb_line
	do
		IFS='|'
		# shellcheck disable=SC2086
		set -- $eb_line
		IFS=$eb_ifs
		eb_dir=$1
		shift
		ls_both "$eb_dir" "$@" || eb_fail=t
		eb_n=$((eb_n + 1))
	done <"$1" &&
	set +f &&
	echo $eb_n >rounds &&
	test -z "$eb_fail"
}
