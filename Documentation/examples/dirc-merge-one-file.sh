#!/bin/sh
#
# dirc-merge-one-file.sh: resolve one unmerged path of the index, the
# merge program "dirc merge-index" runs for each path a three-way
# "dirc read-tree -m" left unmerged.  Plumbing and POSIX sh, plus
# diff3(1) (GNU diffutils) for the merge of contents.
#
# usage (as merge-index calls it):
#   dirc-merge-one-file.sh <base> <ours> <theirs> <path> \
#                          <base-mode> <our-mode> <their-mode>
#
# Each of the three blob ids (and its mode) is empty where that side has
# no file.  The script runs at the top of the work tree (where
# merge-index runs it), with the index holding stages 1 (base), 2 (ours:
# also the file in the work tree) and 3 (theirs) for <path>.
#
# It resolves:
#   - both sides deleted the file, or one deleted it and the other left
#     it as it was: the path goes;
#   - one side added it (or both added the same): that file is taken;
#   - both sides ended with the same file: it is taken;
#   - both changed it differently: a line-by-line merge of the three
#     versions (diff3 -m); if no change overlaps, the merged file is
#     staged.
# Otherwise (overlapping changes, a change against a deletion, modes or
# types that disagree, symbolic links or submodules that differ) the path
# stays unmerged, the work tree file holds the merge with conflict
# markers where there is one, and the script exits 1.
#
# DIRC names the command to run plumbing with (default: dirc); DIRC=git
# does the same with git.  The messages are this script's own.

: "${DIRC:=dirc}"

base=$1 ours=$2 theirs=$3 path=$4 base_mode=$5 our_mode=$6 their_mode=$7

die() {
	printf 'dirc-merge-one-file: %s\n' "$*" >&2
	exit 2
}

test $# -eq 7 || die "usage: dirc-merge-one-file.sh <base> <ours> <theirs> <path> <base-mode> <our-mode> <their-mode>"

# Stage our side's file, which is in the work tree, as the merged
# version (stage 0 replaces the stages), with its stat data; unless it
# was changed there since.
take_ours() {
	if ! unchanged; then
		echo "CONFLICT (content): $path has local changes"
		exit 1
	fi
	$DIRC update-index --add -- "$path" || exit 2
}

# Stage <mode> <blob>, their side's file, and write it into the work
# tree, unless an untracked file is in the way.
take_theirs() {
	if test -e "$path" || test -h "$path"; then
		echo "CONFLICT (add): untracked $path is in the way"
		exit 1
	fi
	$DIRC update-index --add --cacheinfo "$1" "$2" "$path" &&
	$DIRC checkout-index -f -u -- "$path" || exit 2
}

# Is the work tree file still our side's version?  (A local change must
# not be lost: the caller leaves the path unmerged instead.)
unchanged() {
	case $our_mode in
	120000) return 0 ;;	# hash-object would read the link's target
	esac
	test "$($DIRC hash-object -- "$path" 2>/dev/null)" = "$ours"
}

# Remove the path from the index and the work tree (and directories
# left empty).
remove() {
	$DIRC update-index --force-remove -- "$path" || exit 2
	rm -f -- "$path" || exit 2
	dir=$path
	while :; do
		case $dir in
		*/*) dir=${dir%/*} ;;
		*) break ;;
		esac
		rmdir -- "$dir" 2>/dev/null || break
	done
}

case "$base,$ours,$theirs" in
?*,,)
	echo "Removing $path (deleted on both sides)"
	remove
	exit 0 ;;
?*,?*,)
	if test "$base" = "$ours" && test "$base_mode" = "$our_mode" &&
	   unchanged; then
		echo "Removing $path (deleted by theirs)"
		remove
		exit 0
	fi
	echo "CONFLICT (modify/delete): $path changed by ours (or in the" \
		"work tree), deleted by theirs"
	exit 1 ;;
?*,,?*)
	if test "$base" = "$theirs" && test "$base_mode" = "$their_mode"; then
		echo "Removing $path (deleted by ours)"
		remove
		exit 0
	fi
	echo "CONFLICT (modify/delete): $path deleted by ours, changed by theirs"
	exit 1 ;;
,,?*)
	echo "Adding $path (added by theirs)"
	take_theirs "$their_mode" "$theirs"
	exit 0 ;;
,?*,)
	echo "Adding $path (added by ours)"
	take_ours
	exit 0 ;;
esac

# Both sides have the file.
if test "$ours" = "$theirs" && test "$our_mode" = "$their_mode"; then
	echo "Taking $path (the same on both sides)"
	take_ours
	exit 0
fi

# The mode: whichever side changed it.
if test "$our_mode" = "$their_mode" || test "$their_mode" = "$base_mode"; then
	mode=$our_mode
elif test "$our_mode" = "$base_mode"; then
	mode=$their_mode
else
	echo "CONFLICT (mode): $path is $our_mode in ours, $their_mode in theirs"
	exit 1
fi
case $our_mode,$their_mode in
100644,100644|100644,100755|100755,100644|100755,100755) ;;
*)
	echo "CONFLICT (type): $path cannot be merged line by line" \
		"($our_mode, $their_mode)"
	exit 1 ;;
esac

if ! unchanged; then
	echo "CONFLICT (content): $path has local changes"
	exit 1
fi

# Three versions side by side, the merge into the work tree.  A path
# added on both sides merges against an empty base.
tmp=${TMPDIR:-/tmp}/dirc-merge-one-file.$$
trap 'rm -f "$tmp.base" "$tmp.ours" "$tmp.theirs" "$tmp.merged"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
if test -n "$base"; then
	$DIRC cat-file blob "$base" >"$tmp.base" || exit 2
else
	: >"$tmp.base"
fi
$DIRC cat-file blob "$ours" >"$tmp.ours" &&
$DIRC cat-file blob "$theirs" >"$tmp.theirs" || exit 2
echo "Auto-merging $path"
diff3 -m -E -L ours -L base -L theirs \
	"$tmp.ours" "$tmp.base" "$tmp.theirs" >"$tmp.merged"
status=$?
if test "$status" -gt 1; then
	echo "CONFLICT (content): $path cannot be merged line by line"
	exit 1
fi
# Write the result over our file (which the index's stage 2 describes),
# then give it the merged mode.
cat "$tmp.merged" >"$path" || exit 2
case $mode in
100755) chmod +x "$path" ;;
*) chmod -x "$path" ;;
esac || exit 2
if test "$status" -ne 0; then
	echo "CONFLICT (content): merge conflict in $path"
	exit 1
fi
$DIRC update-index -- "$path" || exit 2
exit 0
