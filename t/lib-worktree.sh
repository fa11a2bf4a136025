# lib-worktree.sh: looking at a work tree.  Sourced after test-lib.sh.
#
#   snapshot DIR
#	The work tree of DIR, everything but .git, on stdout, one line a
#	path in sorted order: its type, mode, path, and the content's
#	checksum or the link's target.  Two work trees are alike when their
#	snapshots are.  One find and one cksum for the whole tree (names
#	with a newline are not told apart).

snapshot_sep_=$(printf '\001')

snapshot () {
	(
		cd "$1" &&
		find . -path ./.git -prune -o -type f -exec cksum {} + \
			>"$TRASH_DIRECTORY/snapshot.sums" &&
		find . -path ./.git -prune -o \
			-printf "%p$snapshot_sep_%y$snapshot_sep_%m$snapshot_sep_%l\n" |
		LC_ALL=C sort |
		awk -F "$snapshot_sep_" -v sums="$TRASH_DIRECTORY/snapshot.sums" '
		BEGIN {
			# "crc size path" for each file
			while ((getline line < sums) > 0) {
				p = line
				sub(/^[0-9]+ [0-9]+ /, "", p)
				sum[p] = substr(line, 1, length(line) - length(p) - 1)
			}
		}
		$2 == "l" { printf "link %s -> %s\n", $1, $4; next }
		$2 == "d" { printf "dir %s %s\n", $3, $1; next }
		$2 == "f" { printf "file %s %s %s\n", $3, $1, sum[$1]; next }
		{ printf "other %s %s %s\n", $2, $3, $1 }'
	)
}
