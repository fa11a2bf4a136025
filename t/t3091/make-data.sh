#!/bin/sh
# Regenerate the tables in this directory with git 2.55 (or later):
#   DIRC_TEST_GIT_NEW=<git> sh make-data.sh
# The environment is test-lib.sh's, so the bytes match what the test
# makes dirc write.  Each file is a table as git named it in tables.list,
# renamed "<case>-<hash>-<n>.ref" (the names carry a random suffix).
set -e
here=$(cd "$(dirname "$0")" && pwd)
. "$here/ops.sh"
GIT_CONFIG_NOSYSTEM=1 HOME=$(mktemp -d) TZ=UTC LC_ALL=C
GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL=author@example.com
GIT_COMMITTER_NAME="C O Mitter" GIT_COMMITTER_EMAIL=committer@example.com
GIT_AUTHOR_DATE="1112354055 +0200" GIT_COMMITTER_DATE="1112354055 +0200"
export GIT_CONFIG_NOSYSTEM HOME TZ LC_ALL GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL \
	GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL GIT_AUTHOR_DATE GIT_COMMITTER_DATE
git config --global init.defaultBranch master 2>/dev/null ||
	"$DIRC_TEST_GIT_NEW" config --global init.defaultBranch master
work=$(mktemp -d)
for hash in sha1 sha256
do
	for case in init seq batch
	do
		repo=$work/$case-$hash
		"ops_$case" "$DIRC_TEST_GIT_NEW" "$repo" $hash
		n=0
		while read -r table
		do
			n=$((n + 1))
			cp "$repo/.git/reftable/$table" "$here/$case-$hash-$n.ref"
		done <"$repo/.git/reftable/tables.list"
	done
done
rm -rf "$work" "$HOME"
