# lib-trees.sh: run ls-tree, mktree or merge-index with git and with
# dirc and compare what they did.  Sourced after test-lib.sh and
# lib-interop.sh (INTEROP_STATE=none: only output is compared; a test
# that cares about the index or objects checks them itself).
#
#   trees_like_git [-C DIR] [-i FILE] CMD ARGS...
#	interop_run, then: the same exit code, the same stdout, and the
#	same stderr (with GIT_MSGS) once git's "usage: git " is read as
#	"usage: dirc " (in stdout too when git exited 129: -h).
#   trees_code N
#	dirc exited with N (after trees_like_git).
#   odd_name_tree
#	Print the id of a tree (written with git) whose names need quoting:
#	a tab, a newline, a quote, a backslash, a byte >= 0x80, a space, a
#	leading '-', and a directory holding one of each.

INTEROP_STATE=none

trees_like_git () {
	interop_run "$@" &&
	test_cmp_codes git.code dirc.code &&
	read -r tlg_code_ <git.code &&
	if test "$tlg_code_" = 129
	then
		sed -e "s/^usage: git /usage: dirc /" git.out >git.out.cmp &&
		test_cmp git.out.cmp dirc.out
	else
		test_cmp git.out dirc.out
	fi &&
	if test_have_prereq GIT_MSGS
	then
		if test -s git.err
		then
			sed -e "s/^usage: git /usage: dirc /" git.err >git.err.cmp &&
			{ IFS= read -r tlg_line_ || :; } <git.err.cmp &&
			cmdmode_msg_now "$tlg_line_" &&
			if test "x$cmdmode_now" != "x$tlg_line_"
			then
				# git 2.39's words for two modes: 2.55's
				echo "$cmdmode_now" >git.err.cmp
			fi &&
			test_cmp git.err.cmp dirc.err
		else
			test_must_be_empty dirc.err
		fi
	fi
}

trees_code () {
	echo "$1" >expect.code &&
	test_cmp_codes expect.code dirc.code
}

odd_name_tree () {
	otn_blob=$(echo odd | git hash-object -w --stdin) &&
	otn_sub=$(
		printf "100644 blob %s\t%s\0" \
			"$otn_blob" "$(printf "t\tab")" \
			"$otn_blob" "$(printf "q\"uote")" \
			"$otn_blob" "$(printf "back\\\\slash")" \
			"$otn_blob" "$(printf "hi\303\251gh")" \
			"$otn_blob" "with space" \
			"$otn_blob" "-dash" \
			"$otn_blob" "$(printf "new\nline")" |
		git mktree -z
	) &&
	printf "100644 blob %s\t%s\0040000 tree %s\t%s\0" \
		"$otn_blob" "$(printf "top\tfile")" \
		"$otn_sub" "$(printf "d\303\256r")" |
	git mktree -z
}
