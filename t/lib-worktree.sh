# lib-worktree.sh: looking at a work tree.  Sourced after test-lib.sh.
#
#   snapshot DIR
#	The work tree of DIR, everything but .git, on stdout, one line a
#	path in sorted order: its type, mode, path, and the content's
#	checksum or the link's target.  Two work trees are alike when their
#	snapshots are.
snapshot () {
	(
		cd "$1" &&
		find . -path ./.git -prune -o -print | sort |
		while IFS= read -r p
		do
			if test -h "$p"
			then
				printf "link %s -> %s\n" "$p" "$(readlink "$p")"
			elif test -d "$p"
			then
				printf "dir %s %s\n" "$(stat -c %a "$p")" "$p"
			else
				printf "file %s %s %s\n" "$(stat -c %a "$p")" "$p" \
					"$(cksum <"$p")"
			fi || exit 1
		done
	)
}
