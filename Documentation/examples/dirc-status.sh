#!/bin/sh
#
# dirc-status.sh: what changed, in the short format of "git status
# --porcelain --untracked-files=all", using nothing but dirc plumbing,
# POSIX sh and awk.
#
# usage: dirc-status.sh [--no-refresh]
#
# One line a path, "XY PATH", in path order, untracked files last:
#   X  the index against HEAD        "dirc diff-index --cached HEAD"
#   Y  the work tree against the index  "dirc diff-files"
# with A added, M modified, D deleted, T type changed, a space for
# unchanged; "??" for a file the index does not know ("dirc ls-files
# -o"); and for a path with an unresolved conflict ("dirc ls-files -u")
# the stages it has: UU (1, 2, 3: both changed it), AA (2, 3: both
# added it), DD (1: both deleted it), AU (2: added by us), UA (3: added
# by them), UD (1, 2: deleted by them), DU (1, 3: deleted by us).
# Paths are quoted as git status quotes them: as the plumbing does, and
# a name with a space in double quotes too.  Before HEAD has a commit,
# everything in the index is "A".
#
# First the index's stat data is brought up to date ("dirc update-index
# -q --refresh", which writes the index), so that a file that was only
# touched does not show as modified; --no-refresh skips that and shows
# such files as "M".  There are no ignore rules and no rename detection.
#
# DIRC names the command to run plumbing with (default: dirc); DIRC=git
# runs the same steps with git, for comparison.
#
# Exit status: 0, or the status of the plumbing command that failed.

set -e

: "${DIRC:=dirc}"

refresh=t
case $# in
0) ;;
1)
	test "$1" = --no-refresh ||
		{ echo "usage: dirc-status.sh [--no-refresh]" >&2; exit 129; }
	refresh= ;;
*)
	echo "usage: dirc-status.sh [--no-refresh]" >&2
	exit 129 ;;
esac

top=$($DIRC rev-parse --show-toplevel)
cd "$top"
gitdir=$($DIRC rev-parse --absolute-git-dir)

tmp=$gitdir/dirc-status.$$
trap 'rm -f "$tmp.index" "$tmp.files" "$tmp.unmerged" "$tmp.others" \
	"$tmp.lines" "$tmp.sorted"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if test -n "$refresh"; then
	$DIRC update-index -q --refresh >/dev/null || :
fi

# What each plumbing command says, in files (a pipe would hide its
# failure from set -e).
if head=$($DIRC rev-parse -q --verify HEAD); then
	$DIRC diff-index --cached --name-status "$head" -- >"$tmp.index"
else
	# No commit yet: every entry is new ("A <TAB> path", as diff-index
	# would say against an empty tree).
	$DIRC ls-files -s >"$tmp.index"
	awk -F '\t' '{ split($1, f, " "); if (f[3] == 0) print "A\t" $2 }' \
		"$tmp.index" >"$tmp.lines"
	mv "$tmp.lines" "$tmp.index"
fi
$DIRC diff-files --name-status -- >"$tmp.files"
$DIRC ls-files -u >"$tmp.unmerged"
$DIRC ls-files -o >"$tmp.others"

# One "KEY <TAB> XY PATH" line a path, then sorted by KEY: the path's
# bytes, unquoted, as three-digit numbers (so that the order is git's,
# byte by byte, whatever the quoting), after a 0 for tracked paths and a
# 1 for untracked ones.
LC_ALL=C awk -F '\t' \
	-v index_f="$tmp.index" -v files_f="$tmp.files" \
	-v unmerged_f="$tmp.unmerged" -v others_f="$tmp.others" '
function key(p,   s, k, i, c) {
	if (substr(p, 1, 1) != "\"")
		s = p
	else
		s = substr(p, 2, length(p) - 2)
	k = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\\" && s != p) {
			c = substr(s, ++i, 1)
			if (c ~ /[0-7]/) {
				k = k sprintf("%03d", (c * 64) + \
					(substr(s, i + 1, 1) * 8) + substr(s, i + 2, 1))
				i += 2
			} else
				k = k sprintf("%03d", esc[c])
		} else
			k = k sprintf("%03d", (c in ord) ? ord[c] : 255)
	}
	return k
}
# git status quotes a name with a space too (the plumbing does not)
function show(p) {
	if (substr(p, 1, 1) != "\"" && index(p, " "))
		return "\"" p "\""
	return p
}
BEGIN {
	for (i = 32; i < 127; i++)
		ord[sprintf("%c", i)] = i
	esc["a"] = 7; esc["b"] = 8; esc["t"] = 9; esc["n"] = 10
	esc["v"] = 11; esc["f"] = 12; esc["r"] = 13
	esc["\""] = 34; esc["\\"] = 92

	# stages of the conflicted paths: "1", "12", "123", ...
	while ((getline line < unmerged_f) > 0) {
		split(line, f, "\t")
		split(f[1], m, " ")
		stages[f[2]] = stages[f[2]] m[3]
	}
	while ((getline line < index_f) > 0) {
		split(line, f, "\t")
		x[f[2]] = f[1]
	}
	while ((getline line < files_f) > 0) {
		split(line, f, "\t")
		y[f[2]] = f[1]
	}
	xy["1"] = "DD"; xy["2"] = "AU"; xy["12"] = "UD"; xy["3"] = "UA"
	xy["13"] = "DU"; xy["23"] = "AA"; xy["123"] = "UU"

	for (p in stages)
		print "0" key(p) "\t" xy[stages[p]] " " show(p)
	for (p in x)
		if (!(p in stages))
			print "0" key(p) "\t" x[p] ((p in y) ? y[p] : " ") " " show(p)
	for (p in y)
		if (!(p in stages) && !(p in x))
			print "0" key(p) "\t" " " y[p] " " show(p)
	while ((getline line < others_f) > 0)
		print "1" key(line) "\t?? " show(line)
}' >"$tmp.lines"
LC_ALL=C sort -t '	' -k 1,1 "$tmp.lines" >"$tmp.sorted"
sed 's/^[^	]*	//' "$tmp.sorted"
