#!/bin/sh
# make-data.sh <git> <dir> <sha1|sha256>: a reftable repository in <dir>
# made by <git> (2.45 or later), the same every run: two commits, 60
# branches in one transaction, an annotated and a light tag, pack-refs
# (peeled tags), then a deletion, a symref, a moved branch and a deleted
# reflog entry, with reftable.blockSize=512 so that a few dozen refs
# already give ref, obj and log indexes.  Then, beside the repository:
#   <dir>.refs     git for-each-ref: "<name> <id> <peeled id>"
#   <dir>.reflogs  for HEAD and each ref: "<name>" then git reflog's
#                  "<new id> <message>" lines, newest first
# t3090 runs it against DIRC_TEST_GIT_NEW; the copies under t/t3090/
# were made by git 2.55.0 with
#   t/t3090/make-data.sh /tmp/git255/bin-wrappers/git /tmp/d/sha1 sha1
# and the stack directory .git/reftable copied to t/t3090/<algo>/.
set -e
git=$1 dir=$2 algo=$3
GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL=author@example.com
GIT_COMMITTER_NAME='C O Mitter' GIT_COMMITTER_EMAIL=committer@example.com
GIT_AUTHOR_DATE='1112354055 +0200' GIT_COMMITTER_DATE='1112354055 +0200'
export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
export GIT_AUTHOR_DATE GIT_COMMITTER_DATE
g () {
	"$git" -C "$dir" -c reftable.blockSize=512 -c init.defaultBranch=master "$@"
}
rm -rf "$dir"
"$git" -c reftable.blockSize=512 -c init.defaultBranch=master init -q \
	--ref-format=reftable --object-format="$algo" "$dir"
echo one >"$dir/f"
g add f
g commit -q -m one
echo two >>"$dir/f"
g commit -q -a -m two
c1=$(g rev-parse HEAD~1)
c2=$(g rev-parse HEAD)
i=10
while test $i -lt 70; do
	if test $((i % 3)) = 0; then echo "create refs/heads/b$i $c1"
	else echo "create refs/heads/b$i $c2"; fi
	i=$((i + 1))
done >"$dir/.git/stdin"
g update-ref -m bulk --stdin <"$dir/.git/stdin"
rm "$dir/.git/stdin"
g tag -a -m 'tag v1' v1 "$c1"
g tag light "$c2"
g pack-refs --all
g update-ref -d refs/heads/b15
g symbolic-ref refs/heads/sym refs/heads/b11
g update-ref -m 'move b12' refs/heads/b12 "$c1"
g reflog delete refs/heads/b13@{0}
g for-each-ref --format='%(refname) %(objectname) %(*objectname)' >"$dir.refs"
for r in HEAD $(g for-each-ref --format='%(refname)'); do
	echo "$r"
	g reflog show --format='%H %gs' "$r" --
done >"$dir.reflogs"
