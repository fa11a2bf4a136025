#!/bin/sh
#
# dirc-commit.sh: record the whole work tree as a new commit on the
# current branch, using nothing but dirc plumbing and POSIX sh.
#
# usage: dirc-commit.sh [--allow-empty] [-q] [(-m <message> | -F <file>)...]
#        (also -m<message>, --message=<message>, -F<file>, --file=<file>)
#
# Every file under the top of the work tree is staged: new files are
# added, changed ones re-hashed, deleted ones dropped from the index.
# No ignore rules apply (dirc has none), so keep build products out of
# the work tree or delete them first.  The message comes from -m/-F, as
# dirc commit-tree takes them, or from standard input when neither is
# given.  HEAD moves only if nobody moved it meanwhile (update-ref is
# given the old value to compare), so two concurrent runs cannot lose
# a commit.
#
# Exit status: 0 on success, 1 when there is nothing to commit, and
# whatever a failing dirc command returned (128 for most failures).

set -e

die() {
	printf 'dirc-commit: %s\n' "$*" >&2
	exit 128
}

allow_empty=
quiet=
# Walk the arguments once.  Our own options are consumed; -m and -F go
# to commit-tree unchanged and in order, so each is moved to the end of
# "$@" (no quoting tricks needed, whatever the message holds).
n=$#
while test "$n" -gt 0; do
	arg=$1
	shift
	n=$((n - 1))
	case $arg in
	--allow-empty)
		allow_empty=t ;;
	-q|--quiet)
		quiet=t ;;
	-m|-F)
		test "$n" -gt 0 || die "option $arg needs a value"
		val=$1
		shift
		n=$((n - 1))
		if test "$arg" = -F; then
			# we cd to the top below: anchor a relative file name
			case $val in
			/*|-) ;;
			*) val=$PWD/$val ;;
			esac
		fi
		set -- "$@" "$arg" "$val" ;;
	-m?*|--message=*)
		set -- "$@" "$arg" ;;
	-F?*|--file=*)
		case $arg in
		-F*) val=${arg#-F} ;;
		*) val=${arg#--file=} ;;
		esac
		case $val in
		/*|-) ;;
		*) val=$PWD/$val ;;
		esac
		set -- "$@" -F "$val" ;;
	*)
		die "unknown argument '$arg'" ;;
	esac
done
# "$@" now holds exactly the -m/-F options, in the order given.

# Work from the top of the work tree, so that the paths ls-files prints
# are the paths update-cache expects.
top=$(dirc rev-parse --show-toplevel)
cd "$top"
gitdir=$(dirc rev-parse --absolute-git-dir)

# Like git, refuse to commit over an unresolved conflict (staging the
# file below would quietly take it as resolved, markers and all).
unmerged=$(dirc ls-files -u)
test -z "$unmerged" ||
	die "there are unmerged paths; resolve them (dirc update-cache <path>) first"

# The list of paths goes through a file, not a pipe: a pipeline would
# hide a failure of ls-files from "set -e".
list=$gitdir/DIRC_COMMIT_PATHS.$$
trap 'rm -f "$list"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# 1. Stage, in two passes; -z keeps names with spaces, quotes or
#    newlines intact.
#    a) Tracked paths: -m lists those whose content, mode or type may
#       have changed, -d those that are gone.  update-cache re-hashes
#       the first kind and, with --remove, drops the second (and any
#       path that has turned into a directory).
dirc ls-files -z --deduplicate -m -d >"$list"
dirc update-cache --add --remove --replace -z --stdin <"$list"
#    b) New paths: -o lists files the index does not know.  Asking only
#       now means a path that turned from a file into a directory is
#       already gone from the index, and the files inside it show up.
dirc ls-files -z -o >"$list"
dirc update-cache --add --replace -z --stdin <"$list"

# 2. One tree object per directory of the index; the id of the root.
tree=$(dirc write-tree)

# 3. The parent: the commit HEAD names, unless the branch is unborn.
if parent=$(dirc rev-parse -q --verify HEAD); then
	ptree=$(dirc rev-parse --verify "$parent^{tree}")
	if test "$tree" = "$ptree" && test -z "$allow_empty"; then
		echo "nothing to commit (the tree is unchanged)" >&2
		exit 1
	fi
	set -- -p "$parent" "$@"
	old=$parent
	what=commit
else
	old=		# update-ref: "the ref must not exist yet"
	what='commit (initial)'
fi

# 4. The commit object.  With no -m/-F, commit-tree reads the message
#    from standard input.
commit=$(dirc commit-tree "$@" "$tree")

# 5. Move the branch (through HEAD), checking it still holds $old.
subject=$(dirc cat-file commit "$commit" | sed -n '/^$/{n;p;q;}')
dirc update-ref -m "$what: $subject" HEAD "$commit" "$old"

if test -z "$quiet"; then
	branch=$(dirc symbolic-ref -q --short HEAD) || branch='detached HEAD'
	short=$(dirc rev-parse --short "$commit")
	printf '[%s %s] %s\n' "$branch" "$short" "$subject"
fi
