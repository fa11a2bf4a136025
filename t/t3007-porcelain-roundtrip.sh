#!/bin/sh
test_description='a porcelain made of dirc only: commits git accepts, checkouts git finds clean

History is built in "repo" with dirc alone (update-cache, write-tree,
commit-tree, update-ref, rev-parse), the same history in "ref" with git
plumbing; the commit ids must be equal and git log, fsck and status must
accept dirc'"'"'s repository.  Then an older commit is checked out with dirc
alone (read-tree -m -u, symbolic-ref) and git must find the work tree
clean and as the commit has it.  Outputs go outside the repositories, so
that git status has nothing untracked to report.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-worktree.sh

# status_clean REPO: git status has nothing to say about REPO, and git
# diff-files and diff-index agree.
status_clean () {
	git -C "$1" status --porcelain --untracked-files=all >status.out &&
	test_must_be_empty status.out &&
	git -C "$1" diff-files >diff.out &&
	test_must_be_empty diff.out &&
	git -C "$1" diff-index --cached HEAD >diff.out &&
	test_must_be_empty diff.out
}

# edit_one N: the changes of commit N, made in the current directory.
edit_one () {
	case $1 in
	1)
		mkdir -p src/lib doc &&
		echo "int main(void) { return 0; }" >src/main.c &&
		echo "void lib(void);" >src/lib/lib.h &&
		printf "#!/bin/sh\necho build\n" >build.sh &&
		chmod +x build.sh &&
		echo readme >README &&
		echo doc >doc/guide.txt &&
		ln -s README link-to-readme
		;;
	2)
		echo "int main(void) { return 1; }" >src/main.c &&
		echo "void lib2(void);" >src/lib/lib2.h &&
		rm doc/guide.txt &&
		rmdir doc &&
		chmod -x build.sh
		;;
	3)
		mkdir -p src/lib/deep/er &&
		echo deep >src/lib/deep/er/file &&
		rm link-to-readme &&
		ln -s src/main.c link-to-readme &&
		echo more >>README
		;;
	esac
}

test_expect_success GIT 'setup: two empty repositories' '
	git init -q repo &&
	git init -q ref &&
	test_fsck_also repo
'

test_expect_success GIT 'commit 1 with dirc only: update-cache, write-tree, commit-tree, update-ref' '
	(
		cd repo &&
		edit_one 1 &&
		dirc update-cache --add src/main.c src/lib/lib.h build.sh \
			README doc/guide.txt link-to-readme &&
		tree=$(dirc write-tree) &&
		echo "first commit" >../msg &&
		commit=$(dirc commit-tree "$tree" <../msg) &&
		dirc update-ref -m "commit (initial): first commit" HEAD "$commit" &&
		dirc rev-parse HEAD >../dirc.head
	) &&
	(
		cd ref &&
		edit_one 1 &&
		git update-index --add src/main.c src/lib/lib.h build.sh \
			README doc/guide.txt link-to-readme &&
		tree=$(git write-tree) &&
		commit=$(git commit-tree "$tree" <../msg) &&
		git update-ref -m "commit (initial): first commit" HEAD "$commit" &&
		git rev-parse HEAD >../git.head
	) &&
	test_cmp git.head dirc.head &&
	git -C repo symbolic-ref HEAD >actual &&
	echo refs/heads/master >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'commits 2 and 3 with dirc only, parents from dirc rev-parse HEAD' '
	for n in 2 3
	do
		test_tick &&
		(
			cd repo &&
			edit_one $n &&
			dirc update-cache --add --remove src/main.c src/lib/lib2.h \
				doc/guide.txt build.sh src/lib/deep/er/file \
				link-to-readme README 2>../err &&
			tree=$(dirc write-tree) &&
			parent=$(dirc rev-parse HEAD) &&
			commit=$(dirc commit-tree -p "$parent" -m "commit $n" "$tree") &&
			dirc update-ref -m "commit: commit $n" HEAD "$commit" "$parent" &&
			dirc rev-parse HEAD >../dirc.head
		) &&
		(
			cd ref &&
			edit_one $n &&
			git update-index --add --remove src/main.c src/lib/lib2.h \
				doc/guide.txt build.sh src/lib/deep/er/file \
				link-to-readme README 2>../err &&
			tree=$(git write-tree) &&
			parent=$(git rev-parse HEAD) &&
			commit=$(git commit-tree -p "$parent" -m "commit $n" "$tree") &&
			git update-ref -m "commit: commit $n" HEAD "$commit" "$parent" &&
			git rev-parse HEAD >../git.head
		) &&
		test_cmp git.head dirc.head || return 1
	done
'

test_expect_success GIT 'git log reads the history dirc made, as git made it' '
	git -C ref log --format="%H %P%n%T %an <%ae> %ad%n%B" --stat >expect &&
	git -C repo log --format="%H %P%n%T %an <%ae> %ad%n%B" --stat >actual &&
	test_cmp expect actual &&
	git -C repo log --format=%s >subjects &&
	printf "commit 3\ncommit 2\nfirst commit\n" >expect &&
	test_cmp expect subjects
'

test_expect_success GIT 'git fsck --strict accepts the repository' '
	git -C repo fsck --strict --no-dangling >fsck.out 2>&1 &&
	test_must_be_empty fsck.out
'

test_expect_success GIT 'git status finds the work tree clean' '
	status_clean repo
'

test_expect_success GIT 'the refs and reflogs are git'"'"'s' '
	git -C ref for-each-ref >expect &&
	git -C repo for-each-ref >actual &&
	test_cmp expect actual &&
	test_cmp ref/.git/logs/refs/heads/master repo/.git/logs/refs/heads/master &&
	test_cmp ref/.git/logs/HEAD repo/.git/logs/HEAD
'

test_expect_success GIT 'the index dirc left is the one git would have' '
	git -C ref ls-files -s >expect &&
	git -C repo ls-files -s >actual &&
	test_cmp expect actual &&
	git -C repo ls-files --debug >debug &&
	test_grep -v "mtime: 0:" debug
'

test_expect_success GIT 'check out the first commit with dirc only: read-tree -m -u, symbolic-ref' '
	first=$(git -C repo rev-parse HEAD~2) &&
	(
		cd repo &&
		dirc read-tree -m -u "$(dirc rev-parse HEAD~2)" &&
		dirc update-ref refs/heads/old "$(dirc rev-parse HEAD~2)" &&
		dirc symbolic-ref HEAD refs/heads/old
	) &&
	status_clean repo &&
	git -C repo rev-parse HEAD >actual &&
	echo "$first" >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'the work tree is the first commit'"'"'s: files, modes, symlinks, dirs' '
	mkdir first &&
	git -C repo archive "$first" | tar --no-same-permissions -x -C first &&
	snapshot first >expect &&
	snapshot repo >actual &&
	test_cmp expect actual &&
	test -x repo/build.sh &&
	test_path_is_file repo/doc/guide.txt &&
	test_path_is_missing repo/src/lib/deep &&
	test_path_is_missing repo/src/lib/lib2.h &&
	echo README >expect &&
	readlink repo/link-to-readme >actual &&
	test_cmp expect actual
'

test_expect_success GIT 'back to master with dirc only: clean again, files of commit 3' '
	(
		cd repo &&
		dirc read-tree -m -u master &&
		dirc symbolic-ref HEAD refs/heads/master
	) &&
	status_clean repo &&
	mkdir third &&
	git -C repo archive master | tar --no-same-permissions -x -C third &&
	snapshot third >expect &&
	snapshot repo >actual &&
	test_cmp expect actual &&
	test_path_is_missing repo/doc
'

test_expect_success GIT 'a local change blocks the switch; the repository stays as it was' '
	echo "local change" >repo/README &&
	cp repo/.git/index index.before &&
	(
		cd repo &&
		test_must_fail dirc read-tree -m -u old 2>../err
	) &&
	test_grep "not uptodate" err &&
	test_cmp index.before repo/.git/index &&
	echo "local change" >expect &&
	test_cmp expect repo/README &&
	test_path_is_file repo/src/lib/deep/er/file &&
	(
		cd repo &&
		dirc read-tree --reset -u HEAD
	) &&
	status_clean repo
'

test_done
