# The sequences of t3091 and make-data.sh: ops_<case> <tool> <dir> <hash>
# runs it with the tool (git or dirc) in a new repository at dir.

ops_init () {
	"$1" init -q --ref-format=reftable --object-format=$3 "$2"
}

# Commits, a tag made and deleted, a branch, HEAD moved, a commit through
# HEAD, the first branch deleted (its reflog goes as tombstones); the
# stack is compacted on the way.
ops_seq () {
	ops_init "$@" &&
	(
		cd "$2" &&
		echo hi >f &&
		"$1" update-index --add f &&
		t=$("$1" write-tree) &&
		c=$(echo msg | "$1" commit-tree $t) &&
		"$1" update-ref -m "commit (initial): msg" HEAD $c &&
		"$1" update-ref refs/tags/v1 $c &&
		"$1" update-ref -d refs/tags/v1 &&
		"$1" update-ref refs/heads/b $c &&
		"$1" symbolic-ref -m "checkout: moving from master to b" HEAD \
			refs/heads/b &&
		c2=$(echo msg2 | "$1" commit-tree -p $c $t) &&
		"$1" update-ref -m "commit: two" HEAD $c2 $c &&
		"$1" update-ref -d refs/heads/master
	)
}
