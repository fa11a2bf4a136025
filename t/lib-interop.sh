# lib-interop.sh: run one command with git and with dirc from the same
# starting state, and compare what they did.  Sourced after test-lib.sh.
#
#   interop_run [-C DIR] [-i FILE] CMD ARGS...
#	Save the state, run "git CMD ARGS", set git's resulting state
#	aside, restore the saved state, run "dirc CMD ARGS".  DIR (default
#	the current directory) is where both run; FILE (default nothing) is
#	their standard input.  Exit code, stdout and stderr go to
#	{git,dirc}.{code,out,err} in the current directory, and the state
#	is the one of the repository there; FILE is named from there too.  INTEROP_DIRC_CMD names dirc's command when it differs
#	(e.g. update-cache for git's update-index).
#   same_result
#	Both exited alike, printed the same and left the same state.
#	INTEROP_FILTER, when set, names a filter (stdin to stdout) both
#	stdouts go through first, for what may differ (random names).
#   compare_with_git [-C DIR] [-i FILE] CMD ARGS...
#	interop_run and same_result.
#   succeeds_like_git CMD ARGS... / fails_like_git CODE MESSAGE CMD ARGS...
#	interop_run, same_result, and dirc exited 0 with nothing on stderr,
#	or exited CODE with MESSAGE as the first line of its stderr.
#   diff_files_agree [PATH...]
#	On the current index "git diff-files --name-only", "dirc ls-files
#	-m" and "git ls-files -m" all list exactly PATH... (none if no
#	argument): one "is this entry modified" for git and dirc.
#   state_unchanged
#	dirc left the state as interop_run found it.
#
# The state is the index by default: .git/index, saved to .git/index.start,
# git's result kept in .git/index.by-git.  INTEROP_STATE=none compares
# output only; a script with other state (refs, a work tree) defines its own
# interop_save, interop_keep_git, interop_restore and interop_same_state
# after sourcing this file (the index versions stay callable as
# interop_index_save and so on; lib-checkout.sh has the work tree).  A hook
# may set interop_side_dir to the directory (from the current one) the next
# side runs in, -C DIR then taken inside it: twin repositories, one for git
# and one for dirc.
#
# Messages.  The tests compare stderr byte for byte with the git installed,
# and they were written against git 2.39 (GIT_TESTED_VERSION).  With another
# git, messages may be reworded while behaviour stays: the comparisons of
# git's stderr with dirc's are then skipped (exit codes, output and state
# are still compared), and the harness says so once per script.  Messages
# dirc is expected to print are checked whatever git is installed.

GIT_TESTED_VERSION=2.39
if test_have_prereq GIT
then
	case $(git --version 2>/dev/null) in
	"git version $GIT_TESTED_VERSION".*) test_set_prereq GIT_MSGS ;;
	*)	echo "# git is not $GIT_TESTED_VERSION.x: stderr is not compared with git's" ;;
	esac
fi

: "${INTEROP_STATE:=index}"

# The save/keep/restore steps run for every interop_run: each process
# they start costs, so each file is removed only when it is there (the
# shell's test is free) and cp/mv overwrite rather than rm first.
interop_index_save () {
	test "$INTEROP_STATE" = index || return 0
	if test -f .git/index
	then
		cp -p .git/index .git/index.start
	elif test -e .git/index.start
	then
		rm -f .git/index.start
	fi
}

interop_index_keep_git () {
	test "$INTEROP_STATE" = index || return 0
	if test -f .git/index
	then
		mv -f .git/index .git/index.by-git
	elif test -e .git/index.by-git
	then
		rm -f .git/index.by-git
	fi
}

interop_index_restore () {
	test "$INTEROP_STATE" = index || return 0
	if test -e .git/index
	then
		rm -f .git/index
	fi
	if test -f .git/index.start
	then
		cp -p .git/index.start .git/index
	fi
}

interop_index_same_state () {
	test "$INTEROP_STATE" = index || return 0
	if test -f .git/index.by-git
	then
		test_cmp .git/index.by-git .git/index
	else
		test_path_is_missing .git/index
	fi
}

interop_index_state_unchanged () {
	test "$INTEROP_STATE" = index || return 0
	if test -f .git/index.start
	then
		test_cmp .git/index.start .git/index
	else
		test_path_is_missing .git/index
	fi
}

interop_save () { interop_index_save; }
interop_keep_git () { interop_index_keep_git; }
interop_restore () { interop_index_restore; }
interop_same_state () { interop_index_same_state; }
interop_state_unchanged () { interop_index_state_unchanged; }

# interop_one_ WHO CMD ARGS...: run one side in $ir_dir with $ir_in,
# its results in $ir_top.
# Without a directory to change to, no subshell; with one, the subshell
# becomes the command (exec): one process less either way.
interop_one_ () {
	io_who=$1
	shift
	if test -z "$interop_side_dir" && test "$ir_dir" = .
	then
		"$io_who" "$@" <"$ir_in" >"$ir_top/$io_who.out" \
			2>"$ir_top/$io_who.err"
		echo $? >"$ir_top/$io_who.code"
		return 0
	fi
	(
		cd "${interop_side_dir:-.}/$ir_dir" &&
		exec "$io_who" "$@" <"$ir_in" >"$ir_top/$io_who.out" \
			2>"$ir_top/$io_who.err"
	)
	echo $? >"$ir_top/$io_who.code"
}

interop_run () {
	ir_top=$PWD
	ir_dir=.
	interop_side_dir=
	ir_in=/dev/null
	while :
	do
		case $1 in
		-C)	ir_dir=$2 && shift 2 ;;
		-i)	ir_in=$ir_top/$2 && shift 2 ;;
		*)	break ;;
		esac
	done
	ir_cmd=$1
	shift
	interop_save || return 1
	interop_one_ git "$ir_cmd" "$@" || return 1
	interop_keep_git || return 1
	interop_restore || return 1
	interop_one_ dirc "${INTEROP_DIRC_CMD:-$ir_cmd}" "$@"
}

# git_msgs_now <ERR: git 2.39's messages as git 2.55, which dirc follows,
# words them: a held lock's advice (2.39 tells of an editor opened by git
# commit over five lines, 2.55 says "..., or the lock file may be stale"
# in one).
git_msgs_now () {
	sed -e '/^Another git process seems to be running in this repository, e\.g\.$/{
N
N
N
N
s/.*/Another git process seems to be running in this repository, or the lock file may be stale/
}'
}

same_result () {
	test_cmp_codes git.code dirc.code &&
	git_msgs_now <git.err >git.err.now &&
	mv git.err.now git.err &&
	if test -n "${INTEROP_FILTER-}"
	then
		$INTEROP_FILTER <git.out >git.out.cmp &&
		$INTEROP_FILTER <dirc.out >dirc.out.cmp &&
		test_cmp git.out.cmp dirc.out.cmp
	else
		test_cmp git.out dirc.out
	fi &&
	if test_have_prereq GIT_MSGS && test -n "${INTEROP_GIT_ERR_FILTER-}"
	then
		# git's words as the newer git dirc follows has them
		$INTEROP_GIT_ERR_FILTER <git.err >git.err.cmp &&
		test_cmp git.err.cmp dirc.err
	elif test_have_prereq GIT_MSGS
	then
		test_cmp git.err dirc.err
	fi &&
	interop_same_state
}

# cmdmode_msg_now LINE: LINE in cmdmode_now, a git 2.39 "two modes"
# message put as git 2.55 words it ("error: switch `p' is incompatible
# with -e" is "error: options '-p' and '-e' cannot be used together");
# other lines unchanged.  No process: callers run it in loops.  git 2.39
# names ls-tree's first mode by its long name ("--long" for -l): a caller
# that gave -l first says so in CMDMODE_FIRST_L.
cmdmode_msg_now () {
	cmdmode_now=$1
	case $1 in
	"error: switch \`"?"' is incompatible with "*)
		cm_x=${1#"error: switch \`"}
		cm_new=-${cm_x%%"'"*} ;;
	"error: option \`"*"' is incompatible with "*)
		cm_x=${1#"error: option \`"}
		cm_new=--${cm_x%%"'"*} ;;
	*)	return 0 ;;
	esac
	cm_first=${1#*" is incompatible with "}
	test -n "${CMDMODE_FIRST_L-}" && test "$cm_first" = --long &&
		cm_first=-l
	cmdmode_now="error: options '$cm_new' and '$cm_first' cannot be used together"
}

compare_with_git () {
	interop_run "$@" &&
	same_result
}

state_unchanged () {
	interop_state_unchanged
}

succeeds_like_git () {
	interop_run "$@" &&
	same_result &&
	echo 0 >expect.code &&
	test_cmp_codes expect.code dirc.code &&
	test_must_be_empty dirc.err
}

fails_like_git () {
	fl_code=$1
	fl_msg=$2
	shift 2
	interop_run "$@" &&
	same_result &&
	echo "$fl_code" >expect.code &&
	test_cmp_codes expect.code dirc.code &&
	fl_first= &&
	{ IFS= read -r fl_first || :; } <dirc.err &&
	if test "$fl_first" != "$fl_msg"
	then
		printf "%s\n" "$fl_msg" >expect.msg &&
		head -n 1 dirc.err >actual.msg &&
		test_cmp expect.msg actual.msg
	fi &&
	interop_state_unchanged
}

# run_both [-C DIR] [-i FILE] ARGS...: interop_run of "git update-index
# ARGS" against "dirc update-cache ARGS", the index as the state.
run_both () {
	rb_dir=
	rb_in=
	while :
	do
		case $1 in
		-C)	rb_dir=$2 && shift 2 ;;
		-i)	rb_in=$2 && shift 2 ;;
		*)	break ;;
		esac
	done
	INTEROP_DIRC_CMD=update-cache interop_run ${rb_dir:+-C "$rb_dir"} \
		${rb_in:+-i "$rb_in"} update-index "$@"
}

# index_unchanged: the index is still the one interop_run started from.
index_unchanged () {
	interop_state_unchanged
}

diff_files_agree () {
	git diff-files --name-only >diff-files.out &&
	dirc ls-files -m >dirc-m.out &&
	git ls-files -m >git-m.out &&
	test_cmp diff-files.out dirc-m.out &&
	test_cmp git-m.out dirc-m.out &&
	if test $# = 0
	then
		test_must_be_empty diff-files.out
	else
		test_write_lines "$@" >expect.paths &&
		test_cmp expect.paths diff-files.out
	fi
}
