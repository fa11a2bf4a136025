# The sequences of t3091 and make-data.sh: ops_<case> <tool> <dir> <hash>
# runs it with the tool (git or dirc) in a new repository at dir.

ops_init () {
	"$1" init -q --ref-format=reftable --object-format=$3 "$2"
}

# In a repository made by ops_init: f staged, t its tree, c a commit of it
# (not yet on any ref).
ops_commit () {
	echo hi >f &&
	"$1" update-index --add f &&
	t=$("$1" write-tree) &&
	c=$(echo msg | "$1" commit-tree $t)
}

# Commits, a tag made and deleted, a branch, HEAD moved, a commit through
# HEAD, the first branch deleted (its reflog goes as tombstones); the
# stack is compacted on the way.
ops_seq () {
	ops_init "$@" &&
	(
		cd "$2" &&
		ops_commit "$1" &&
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

# Two --stdin transactions of many refs given out of order: 2,000
# branches, master and an annotated tag (stored with its peeled value)
# created; then 300 branches moved, 200 deleted (their reflogs go as
# tombstones) and master moved through HEAD, without a message.  The
# tables have ref, obj and log indexes.
ops_batch () {
	ops_init "$@" &&
	(
		cd "$2" &&
		ops_commit "$1" &&
		c2=$(echo msg2 | "$1" commit-tree -p $c $t) &&
		tag=$(printf "object %s\ntype commit\ntag v1\ntagger %s\n\nv1\n" \
			$c "C O Mitter <committer@example.com> 1112354055 +0200" |
		      "$1" hash-object -t tag -w --stdin) &&
		awk -v c=$c -v tag=$tag 'BEGIN {
			for (i = 0; i < 2000; i++)
				printf "create refs/heads/b%04d %s\n", \
					(i * 7919) % 2000, c
			print "create refs/tags/v1 " tag
			print "create refs/heads/master " c
		}' | "$1" update-ref -m "batch: create" --stdin &&
		awk -v c=$c -v c2=$c2 'BEGIN {
			for (i = 299; i >= 0; i--)
				printf "update refs/heads/b%04d %s %s\n", i, c2, c
			for (i = 1199; i >= 1000; i--)
				printf "delete refs/heads/b%04d %s\n", i, c
			print "update HEAD " c2 " " c
		}' | "$1" update-ref --stdin
	)
}
