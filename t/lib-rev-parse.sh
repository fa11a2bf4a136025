# lib-rev-parse.sh: run "git rev-parse" and "dirc rev-parse" with the same
# arguments, in the same directory and environment, and compare.  Sourced
# after test-lib.sh by the rev-parse scripts (t3006, t3020-t3024).
#
#   rp_both [-C DIR] [-c KEY=VALUE]... ARGS...
#	Run both (with the configuration given, as "git -c" takes it);
#	exit code, stdout and stderr go to {git,dirc}.{code,out,err}
#	in the trash directory.  In git's stderr, "git rev-parse" in the
#	usage text reads "dirc rev-parse", as dirc names itself there.
#   rp_same
#	Both exited alike and printed the same on stdout and stderr (stderr
#	compared only with git 2.39, whose messages these tests were written
#	against).
#   rp_like_git [-C DIR] [-c KEY=VALUE] ARGS...
#	rp_both, then rp_same; on a difference, says which arguments.
#   rp_each_like_git [-C DIR] ARG...
#	rp_like_git for every argument alone; all are tried, the ones that
#	differ are named.
#   rp_code N
#	dirc exited with N.

if test_have_prereq GIT
then
	case $(git --version 2>/dev/null) in
	"git version 2.39".*) test_set_prereq GIT_MSGS ;;
	*)	echo "# git is not 2.39.x: stderr is not compared with git's" ;;
	esac
fi

rp_one_ () {
	rp_who=$1
	rp_dir=$2
	shift 2
	(
		cd "$rp_dir" &&
		if test -n "$rb_config"
		then
			GIT_CONFIG_COUNT=1 &&
			GIT_CONFIG_KEY_0=${rb_config%%=*} &&
			GIT_CONFIG_VALUE_0=${rb_config#*=} &&
			export GIT_CONFIG_COUNT GIT_CONFIG_KEY_0 \
				GIT_CONFIG_VALUE_0
		fi &&
		exec "$rp_who" rev-parse "$@" >"$TRASH_DIRECTORY/$rp_who.out" \
			2>"$TRASH_DIRECTORY/$rp_who.err"
	)
	echo $? >"$TRASH_DIRECTORY/$rp_who.code"
}

rp_both () {
	rb_dir=.
	rb_config=
	while :
	do
		case $1 in
		-C)	rb_dir=$2 && shift 2 ;;
		-c)	rb_config=$2 && shift 2 ;;
		*)	break ;;
		esac
	done
	rp_one_ git "$rb_dir" "$@" &&
	rp_one_ dirc "$rb_dir" "$@" &&
	if test -s "$TRASH_DIRECTORY/git.err"
	then
		sed -i -e 's/^usage: git rev-parse/usage: dirc rev-parse/' \
			-e 's/^   or: git rev-parse/   or: dirc rev-parse/' \
			-e 's/"git rev-parse --parseopt -h"/"dirc rev-parse --parseopt -h"/' \
			"$TRASH_DIRECTORY/git.err"
	fi
}

rp_same () {
	test_cmp_codes "$TRASH_DIRECTORY/git.code" "$TRASH_DIRECTORY/dirc.code" &&
	test_cmp "$TRASH_DIRECTORY/git.out" "$TRASH_DIRECTORY/dirc.out" &&
	if test_have_prereq GIT_MSGS
	then
		test_cmp "$TRASH_DIRECTORY/git.err" "$TRASH_DIRECTORY/dirc.err"
	fi
}

rp_like_git () {
	rp_both "$@" &&
	rp_same || {
		echo "^^^ for rev-parse $*" >&2
		return 1
	}
}

rp_each_like_git () {
	re_c=
	if test "$1" = -C
	then
		re_c=$2
		shift 2
	fi
	re_bad=
	for re_arg
	do
		rp_like_git ${re_c:+-C "$re_c"} "$re_arg" || re_bad=t
	done
	test -z "$re_bad"
}

rp_code () {
	echo "$1" >"$TRASH_DIRECTORY/expect.code" &&
	test_cmp_codes "$TRASH_DIRECTORY/expect.code" "$TRASH_DIRECTORY/dirc.code"
}
