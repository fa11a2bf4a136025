#!/bin/sh
#
# dirc-checkout.sh: switch the work tree, the index and HEAD to another
# commit, using nothing but dirc plumbing and POSIX sh.
#
# usage: dirc-checkout.sh [-f] [-q] <branch>
#        dirc-checkout.sh [-f] [-q] -b <new-branch> [<commit>]
#        dirc-checkout.sh [-f] [-q] --detach <commit>
#
# <branch> names refs/heads/<branch>: HEAD is attached to it.  Any other
# name (an id, a tag, master~2, ...) is checked out on a detached HEAD.
# -b creates <new-branch> at <commit> (default: HEAD) and attaches HEAD
# to it.
#
# dirc read-tree does a one-way merge, from the index to the new tree:
# it keeps local changes to files the switch does not touch, and refuses
# (changing nothing) when a changed file would be overwritten or an
# untracked file is in the way.  It cannot carry staged changes across
# as git checkout's two-way merge does, so this script refuses to run
# while the index differs from HEAD.  -f throws every local change away
# instead (read-tree --reset).
#
# Exit status: 0 on success; 128 on failure, with index, work tree,
# HEAD and branches as they were.

set -e

die() {
	printf 'dirc-checkout: %s\n' "$*" >&2
	exit 128
}

usage() {
	die "usage: dirc-checkout.sh [-f] [-q] (<branch> | -b <new-branch> [<commit>] | --detach <commit>)"
}

force=
quiet=
newbranch=
detach=
while test $# -gt 0; do
	case $1 in
	-f|--force)
		force=t ;;
	-q|--quiet)
		quiet=t ;;
	-b)
		test $# -ge 2 || usage
		newbranch=$2
		shift ;;
	--detach)
		detach=t ;;
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
test $# -le 1 || usage
test -n "$newbranch" || test $# -eq 1 || usage
what=${1:-HEAD}

cd "$(dirc rev-parse --show-toplevel)"

# Where HEAD is now, for the reflog message and the staged-change check.
if from=$(dirc symbolic-ref -q --short HEAD); then
	:
else
	from=$(dirc rev-parse --verify HEAD)
fi
head=$(dirc rev-parse -q --verify HEAD) || head=

# Where we are going.
branch=
if test -n "$newbranch"; then
	branch=$newbranch	# update-ref refuses it below if it exists
elif test -z "$detach" &&
	full=$(dirc rev-parse -q --verify --symbolic-full-name \
		"refs/heads/$what") &&
	test "$full" = "refs/heads/$what"; then
	# exactly a branch (not "master~1", which also resolves)
	branch=$what
fi
if test -n "$branch" && test -z "$newbranch"; then
	what=refs/heads/$branch	# not a tag that happens to share the name
fi
commit=$(dirc rev-parse -q --verify "$what^{commit}") ||
	die "'$what' does not name a commit"

# 1. Bring the index's stat data up to date, so that files that were
#    only touched do not count as changed.  (-q: no "needs update"
#    lines; a real change is caught by read-tree below.)
dirc update-cache -q --refresh >/dev/null || :

# 2. Staged changes would be lost by a one-way merge: refuse them.
if test -z "$force" && test -n "$head"; then
	index_tree=$(dirc write-tree) ||
		die "the index has unmerged entries; resolve them or use -f"
	head_tree=$(dirc rev-parse --verify "$head^{tree}")
	test "$index_tree" = "$head_tree" ||
		die "the index holds changes not committed to HEAD; commit them or use -f"
fi

# 3. A new branch first: update-ref checks the name ("" as the old value:
#    it must not exist yet), and we can still back out.
if test -n "$newbranch"; then
	dirc update-ref -m "branch: Created from $what" \
		"refs/heads/$newbranch" "$commit" ""
fi

# 4. Index and work tree.  read-tree checks every path first and changes
#    nothing if one is in the way.
if test -n "$force"; then
	dirc read-tree --reset -u "$commit" || status=$?
else
	dirc read-tree -m -u "$commit" || status=$?
fi
if test -n "${status-}"; then
	test -z "$newbranch" ||
		dirc update-ref -d "refs/heads/$newbranch" "$commit"
	exit "$status"
fi

# 5. HEAD.  Should that fail, put the index and the work tree back where
#    they were (a one-way merge back to the old commit cannot conflict:
#    every path it touches was just written by step 4).
to=${branch:-$commit}
msg="checkout: moving from $from to $to"
if test -n "$branch"; then
	dirc symbolic-ref -m "$msg" HEAD "refs/heads/$branch" || status=$?
else
	dirc update-ref --no-deref -m "$msg" HEAD "$commit" || status=$?
fi
if test -n "${status-}"; then
	if test -n "$head"; then
		dirc read-tree -m -u "$head" ||
			die "could not move HEAD, nor restore the work tree to $from"
	fi
	test -z "$newbranch" ||
		dirc update-ref -d "refs/heads/$newbranch" "$commit"
	die "could not move HEAD; work tree and index are back at $from"
fi

if test -z "$quiet"; then
	if test -n "$branch"; then
		printf "Switched to branch '%s'\n" "$branch" >&2
	else
		printf 'HEAD is now at %s\n' \
			"$(dirc rev-parse --short "$commit")" >&2
	fi
fi
