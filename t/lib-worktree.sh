# lib-worktree.sh: looking at a work tree.  Sourced after test-lib.sh.
#
#   snapshot DIR
#	The work tree of DIR, everything but .git, on stdout, one line a
#	path in sorted order: its type, mode, path, and the content's
#	checksum or the link's target.  Two work trees are alike when their
#	snapshots are.  One process, t/helper/snapshot (names with a
#	newline are not told apart).

snapshot () {
	"$TEST_HELPER_DIR"/snapshot "$1"
}
