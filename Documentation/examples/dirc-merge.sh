#!/bin/sh
#
# dirc-merge.sh: merge another branch into the current one, with a
# three-way merge in the index, using nothing but dirc plumbing and POSIX
# sh (and the merge program's diff3).
#
# usage: dirc-merge.sh [-q] [--no-ff] [--aggressive] [--base=<commit>]
#                      [--program=<merge-program>] [-m <message>] <commit>
#
# The steps:
#   1. the index must be HEAD's (nothing staged: "diff-index --cached
#      --quiet HEAD"; nothing unmerged);
#   2. the merge base: the first commit found walking back from <commit>,
#      breadth first, that HEAD also reaches (or --base);
#   3. if <commit> is in HEAD's history: nothing to do; if HEAD is in
#      <commit>'s: a fast-forward, "read-tree -m -u HEAD <commit>" (unless
#      --no-ff);
#   4. "read-tree -m -u <base> HEAD <commit>": every path the two sides
#      changed alike, or only one side changed, is merged in the index
#      and the work tree; read-tree refuses, changing nothing, if a local
#      change would be lost;
#   5. "merge-index -o <program> -a" runs the merge program for each
#      path left unmerged (default: dirc-merge-one-file.sh, next to this
#      script or in PATH; git's own git-merge-one-file works too:
#      --program=git-merge-one-file);
#   6. with nothing left unmerged: write-tree, commit-tree with two
#      parents, update-ref of HEAD (checking it did not move meanwhile).
# When conflicts remain, the index keeps them (stages 1-3, see
# "dirc ls-files -u"), the work tree has conflict markers, and
# .git/MERGE_HEAD and .git/MERGE_MSG are written, so that "git commit"
# can conclude the merge once the files are fixed and staged.
#
# DIRC names the command to run plumbing with (default: dirc); DIRC=git
# runs the same steps with git, for comparison.  The merge program sees
# DIRC too.
#
# Exit status: 0 merged (or nothing to do); 1 conflicts left for you to
# resolve; 128 refused or failed, with index, work tree and HEAD as they
# were.

set -e

: "${DIRC:=dirc}"
export DIRC

die() {
	printf 'dirc-merge: %s\n' "$*" >&2
	exit 128
}

usage() {
	die "usage: dirc-merge.sh [-q] [--no-ff] [--aggressive] [--base=<commit>] [--program=<merge-program>] [-m <message>] <commit>"
}

quiet=
no_ff=
aggressive=
base=
program=
msg=
while test $# -gt 0; do
	case $1 in
	-q|--quiet)
		quiet=t ;;
	--no-ff)
		no_ff=t ;;
	--aggressive)
		aggressive=--aggressive ;;
	--base=*)
		base=${1#--base=} ;;
	--program=*)
		program=${1#--program=} ;;
	-m)
		test $# -ge 2 || usage
		msg=$2
		shift ;;
	-m?*)
		msg=${1#-m} ;;
	--)
		shift
		break ;;
	-*)
		usage ;;
	*)
		break ;;
	esac
	shift
done
test $# -eq 1 || usage
what=$1

# The merge program: ours, next to this script, unless told otherwise.
# An absolute path, since we change directory below.
if test -z "$program"; then
	here=$(dirname "$0")
	if test -x "$here/dirc-merge-one-file.sh"; then
		program=$(cd "$here" && pwd)/dirc-merge-one-file.sh
	else
		program=dirc-merge-one-file.sh
	fi
fi
# git's merge program lives in git's exec-path, not in PATH.
if test "$program" = git-merge-one-file && test -z "${GIT_EXEC_PATH-}"; then
	GIT_EXEC_PATH=$(git --exec-path) ||
		die "git-merge-one-file needs git (git --exec-path failed)"
	export GIT_EXEC_PATH
fi

top=$($DIRC rev-parse --show-toplevel)
cd "$top"
gitdir=$($DIRC rev-parse --absolute-git-dir)

say() {
	test -n "$quiet" || printf '%s\n' "$*"
}

# 1. Where we are, where we go, and a clean index.
head=$($DIRC rev-parse -q --verify HEAD) ||
	die "HEAD has no commit yet: nothing to merge into"
theirs=$($DIRC rev-parse -q --verify "$what^{commit}") ||
	die "'$what' does not name a commit"
test ! -f "$gitdir/MERGE_HEAD" ||
	die "a merge is in progress (.git/MERGE_HEAD exists); conclude it first"
unmerged=$($DIRC ls-files -u)
test -z "$unmerged" ||
	die "the index has unmerged paths; resolve them first"
$DIRC update-index -q --refresh >/dev/null || :
# (exit 1: differences; anything else is a failure of its own)
$DIRC diff-index --cached --quiet "$head" -- || {
	status=$?
	test "$status" = 1 &&
		die "the index holds changes not committed to HEAD; commit them first"
	exit "$status"
}

if full=$($DIRC rev-parse -q --verify --symbolic-full-name \
		"refs/heads/$what") && test "$full" = "refs/heads/$what"; then
	kind=branch
else
	kind=commit
fi
test -n "$msg" || msg="Merge $kind '$what'"

tmp=$gitdir/dirc-merge.$$
trap 'rm -f "$tmp.seen" "$tmp.ancestors" "$tmp.commit"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# parents COMMIT: its parents' ids, one a line
parents() {
	$DIRC cat-file commit "$1" >"$tmp.commit" || return 1
	sed -n '/^$/q; s/^parent //p' "$tmp.commit"
}

# walk COMMIT FILE: COMMIT and every commit it reaches, breadth first,
# appended to FILE, one a line; stops early at a commit listed in
# $stop_at (a file), which it prints.  (Functions called in an "||"
# list run without set -e: every failure is returned by hand.)
walk() {
	: >"$tmp.seen"
	queue=$1
	while test -n "$queue"; do
		next=
		for c in $queue; do
			if grep -qx "$c" "$tmp.seen"; then
				continue
			fi
			echo "$c" >>"$tmp.seen"
			if test -n "$stop_at" && grep -qx "$c" "$stop_at"; then
				echo "$c"
				return 0
			fi
			echo "$c" >>"$2" &&
			p=$(parents "$c") || return 1
			next="$next $p"
		done
		queue=$next
	done
}

# 2. The merge base.
if test -n "$base"; then
	base=$($DIRC rev-parse -q --verify "$base^{commit}") ||
		die "--base: not a commit"
else
	: >"$tmp.ancestors"
	stop_at=
	walk "$head" "$tmp.ancestors" || die "cannot read HEAD's history"
	stop_at=$tmp.ancestors
	base=$(walk "$theirs" /dev/null) || die "cannot read the history of '$what'"
	test -n "$base" ||
		die "HEAD and '$what' have no common history; refusing to merge"
fi

# 3. Nothing to do, or a fast-forward.
if test "$base" = "$theirs"; then
	say "Already up to date."
	exit 0
fi
if test "$base" = "$head" && test -z "$no_ff"; then
	say "Updating $($DIRC rev-parse --short "$head")..$($DIRC rev-parse --short "$theirs")"
	$DIRC read-tree -m -u "$head" "$theirs"
	$DIRC update-ref -m "merge $what: Fast-forward" HEAD "$theirs" "$head"
	say "Fast-forward"
	exit 0
fi

# 4. The three-way merge in the index and the work tree.
say "Merging $what (base $($DIRC rev-parse --short "$base"))"
$DIRC read-tree -m -u $aggressive "$base" "$head" "$theirs"

# 5. The merge program, for each path left unmerged.  Its exit status
#    is not the last word: whatever it left unmerged is.
unmerged=$($DIRC ls-files -u)
if test -n "$unmerged"; then
	$DIRC merge-index -o -q "$program" -a || :
	unmerged=$($DIRC ls-files -u)
fi
if test -n "$unmerged"; then
	printf '%s\n' "$theirs" >"$gitdir/MERGE_HEAD"
	printf '%s\n' "$msg" >"$gitdir/MERGE_MSG"
	echo "Automatic merge failed; fix conflicts and then commit the result."
	exit 1
fi

# 6. The merge commit, and HEAD moved to it (if HEAD is still $head).
tree=$($DIRC write-tree)
commit=$($DIRC commit-tree -p "$head" -p "$theirs" -m "$msg" "$tree")
$DIRC update-ref -m "merge $what: Merge made by dirc-merge.sh" \
	HEAD "$commit" "$head"
if test -z "$quiet"; then
	branch=$($DIRC symbolic-ref -q --short HEAD) || branch='detached HEAD'
	printf '[%s %s] %s\n' "$branch" "$($DIRC rev-parse --short "$commit")" "$msg"
fi
