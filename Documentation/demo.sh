#!/bin/sh
# The main job, end to end, on a generated linux-shaped tree: what
# "make demo" runs.  Each step prints the time it took.
#
#   DEMO_SCALE   size of the tree (1 = linux-sized, 78,635 files, 1.3 GB;
#                default 0.1)
#   DIRC_SCRATCH where scratch space goes (default
#                ${TMPDIR:-/tmp}/dirc-scratch-<uid>, outside the checkout):
#                the demo works in a new directory there and removes it
#                at the end, also when it fails or is interrupted
#   DEMO_KEEP    non-empty: keep that directory (its name is printed)
#   DEMO_DIR     work here instead (not removed at the end)
#   DIRC_BIN     the dirc binary (default: the one at the top)
#   DIRC_WRAP    a command to run dirc under (e.g. "valgrind -q
#                --error-exitcode=1"), for checks
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
scale=${DEMO_SCALE:-0.1}
if test -n "${DEMO_DIR:-}"
then
	work=$DEMO_DIR
	mkdir -p "$work"
else
	scratch=${DIRC_SCRATCH:-${TMPDIR:-/tmp}/dirc-scratch-$(id -u)}
	mkdir -p "$scratch"
	work=$(mktemp -d "$scratch/demo.XXXXXX")
	if test -z "${DEMO_KEEP:-}"
	then
		trap 'rm -rf "$work"' EXIT
		trap 'exit 130' INT
		trap 'exit 143' TERM
	fi
fi
work=$(cd "$work" && pwd)
tree=$work/tree-scale$scale
dirc_bin=${DIRC_BIN:-$top/dirc}
wrap=${DIRC_WRAP:-}

dirc () {
	# shellcheck disable=SC2086
	$wrap "$dirc_bin" "$@"
}

now () {
	date +%s.%N
}

step_start=
step () {
	step_start=$(now)
	printf '%-58s' "$1"
}

done_step () {
	awk -v a="$step_start" -v b="$(now)" \
		'BEGIN { printf "%8.3f s\n", b - a }'
}

have_git=
command -v git >/dev/null 2>&1 && have_git=yes

# Isolate from the user's configuration, as the tests do.
GIT_CONFIG_NOSYSTEM=1
HOME=$work/home
GIT_AUTHOR_NAME='Dee Mo' GIT_AUTHOR_EMAIL=demo@example.com
GIT_COMMITTER_NAME='Dee Mo' GIT_COMMITTER_EMAIL=demo@example.com
export GIT_CONFIG_NOSYSTEM HOME GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL \
	GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY || :
mkdir -p "$work" "$HOME"
printf '[init]\n\tdefaultBranch = master\n' >"$HOME/.gitconfig"

echo "dirc demo: a linux-shaped tree at scale $scale, in $work"
echo

if ! test -d "$tree"
then
	step "generate the tree (perf/gen-tree, once)"
	"$top/perf/gen-tree" --scale "$scale" --seed 1 "$tree"
	done_step
fi
nfiles=$(find "$tree" -type f | wc -l)
echo "    $nfiles files, $(du -sh "$tree" | cut -f1)"

# Start from fresh repositories (moved aside, not deleted while we run).
for r in store stage
do
	if test -e "$work/$r"
	then
		mv "$work/$r" "$work/old-$r.$$"
	fi
done

step "1. dirc init"
dirc init -q "$work/store"
done_step

step "2. hash and store every file (hash-object -w --stdin-paths)"
(cd "$tree" && find . -type f | sed 's|^\./||' >"$work/paths")
(cd "$tree" && GIT_DIR="$work/store/.git" dirc hash-object -w \
	--stdin-paths <"$work/paths" >"$work/ids")
done_step
echo "    $(wc -l <"$work/ids") ids; loose objects: $(dirc -C "$work/store" \
	count-objects)"

step "3. read one back (cat-file -p), compare with the file"
first_path=$(head -n 1 "$work/paths")
first_id=$(head -n 1 "$work/ids")
dirc -C "$work/store" cat-file -p "$first_id" >"$work/readback"
cmp -s "$work/readback" "$tree/$first_path"
done_step

# The index: stage the whole tree in a repository whose work tree it is.
cp -R "$tree" "$work/stage"
step "4. dirc update-cache --add of the whole tree"
(cd "$work/stage" && dirc init -q . &&
	find . -path ./.git -prune -o \( -type f -o -type l \) -print |
	sed 's|^\./||' | dirc update-cache --add --stdin)
done_step
echo "    $(dirc -C "$work/stage" ls-files | wc -l) entries in the index" \
	"($(wc -c <"$work/stage/.git/index") bytes)"

step "5. dirc write-tree"
tree_id=$(dirc -C "$work/stage" write-tree)
done_step
echo "    tree $tree_id"

step "6. dirc commit-tree"
commit_id=$(echo "The whole tree, staged and committed by dirc" |
	dirc -C "$work/stage" commit-tree "$tree_id")
done_step
echo "    commit $commit_id"

step "7. dirc update-ref HEAD"
dirc -C "$work/stage" update-ref -m "demo: first commit" HEAD "$commit_id"
done_step

step "8. one change: edit a file, update-cache, write-tree"
(cd "$work/stage" && echo "/* edited by the demo */" >>"$first_path" &&
	dirc update-cache "$first_path" && dirc write-tree >/dev/null)
done_step

if test -n "$have_git"
then
	step "9. git agrees: git status (clean but for the edit)"
	changed=$(git -C "$work/stage" status --porcelain | wc -l)
	done_step
	echo "    git status shows $changed changed path(s) (the edit)"

	step "10. git fsck --strict of both repositories"
	git -C "$work/store" fsck --strict >/dev/null 2>&1
	git -C "$work/stage" fsck --strict >/dev/null 2>&1
	done_step

	echo
	git -C "$work/stage" log --stat -1 | head -n 12
	echo "    ..."

	step "11. git repacks; dirc reads the packed repository"
	git -C "$work/stage" gc -q
	dirc -C "$work/stage" cat-file -t HEAD >/dev/null
	dirc -C "$work/stage" read-tree HEAD
	again=$(dirc -C "$work/stage" write-tree)
	test "$again" = "$tree_id"
	done_step
	echo "    $(dirc -C "$work/stage" count-objects -v | tr '\n' ' ')"
else
	echo "(git is not installed: skipping the steps where git checks dirc)"
fi

echo
rm -rf "$work"/old-*."$$"
echo "demo: done.  Scratch space used: $(du -sh "$work" | cut -f1) in $work"
if test -n "${DEMO_DIR:-}${DEMO_KEEP:-}"
then
	echo "      kept: repositories $work/store and $work/stage"
else
	echo "      (removed now; DEMO_KEEP=1 keeps it)"
fi
