#!/bin/sh
test_description='read-tree --reset -u and -m -u: unmerged paths, -q, -n, -v

git runs in the repository rg and dirc in rd, set up alike: exit code,
messages, the entries, the work trees and git diff-files must be
equal.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-checkout.sh

INTEROP_STATE=twins

# both 'SETUP' ARGS...: SETUP in rg and in rd, then read-tree ARGS by
# git in rg and by dirc in rd
both () {
	in_both "$1" &&
	shift &&
	interop_run read-tree "$@"
}

# same: same_result, and git diff-files alike in rg and rd
same () {
	same_result &&
	git -C rg diff-files --name-status >rg.diff &&
	git -C rd diff-files --name-status >rd.diff &&
	test_cmp rg.diff rd.diff
}

# reset_both: both repositories back at HEAD, clean
reset_both () {
	for r in rg rd
	do
		(
			cd $r &&
			rm -rf old new df sub &&
			git read-tree --reset -u HEAD &&
			git update-index -q --refresh
		) || return 1
	done
}

test_expect_success GIT 'setup (t1005'"'"'s): rg and rd at one commit' '
	git init -q rg &&
	(
		cd rg &&
		echo df >df &&
		echo new >new &&
		mkdir sub &&
		echo s >sub/s &&
		git add df new sub/s &&
		git commit -q -m one
	) &&
	cp -R rg rd &&
	git -C rd update-index -q --refresh &&
	test_fsck_also rg rd
'

test_expect_success GIT '--reset -u removes the file of an unmerged path not in the tree (t1005 #3)' '
	test_when_finished reset_both &&
	both "sha1=\$(git rev-parse :new) &&
	      printf \"100644 %s 1\told\n100644 %s 3\told\n\" \$sha1 \$sha1 |
	      git update-index --index-info && : >old" --reset -u HEAD &&
	same &&
	test_path_is_missing rd/old &&
	echo 0 >expect &&
	test_cmp expect dirc.code
'

test_expect_success GIT '--reset -u: an unmerged path the tree has is written from the tree' '
	test_when_finished reset_both &&
	both "sha1=\$(git rev-parse :df) &&
	      printf \"100644 %s 1\tnew\n100644 %s 2\tnew\n\" \$sha1 \$sha1 |
	      git update-index --index-info && echo local >new" --reset -u HEAD &&
	same &&
	echo new >expect &&
	test_cmp expect rd/new
'

test_expect_success GIT '--reset -u: an unmerged path in a directory; the directory goes when empty' '
	test_when_finished reset_both &&
	both "sha1=\$(git rev-parse :df) &&
	      printf \"100644 %s 2\tdir/u\n100644 %s 3\tdir/u\n\" \$sha1 \$sha1 |
	      git update-index --index-info && mkdir -p dir && : >dir/u" --reset -u HEAD &&
	same &&
	test_path_is_missing rd/dir
'

test_expect_success GIT '--reset without -u: the unmerged file stays in the work tree' '
	test_when_finished "reset_both; rm -f rg/old rd/old" &&
	both "sha1=\$(git rev-parse :new) &&
	      printf \"100644 %s 1\told\n100644 %s 3\told\n\" \$sha1 \$sha1 |
	      git update-index --index-info && : >old" --reset HEAD &&
	same &&
	test_path_is_file rd/old
'

test_expect_success GIT '-m -u with an unmerged index: refused first, nothing changed' '
	test_when_finished "reset_both; rm -f rg/old rd/old" &&
	both "sha1=\$(git rev-parse :new) &&
	      printf \"100644 %s 1\told\n\" \$sha1 | git update-index --index-info && : >old" -m -u HEAD &&
	same &&
	echo "fatal: You need to resolve your current index first" >expect &&
	test_cmp expect dirc.err &&
	state_unchanged
'

test_expect_success GIT '-q hides the per-path errors; the exit code stays 128' '
	test_when_finished reset_both &&
	both "echo local >df && git rm -q --cached new" -q -m -u HEAD &&
	same &&
	test_must_be_empty dirc.err &&
	both ": " -m -u HEAD &&
	same &&
	test_grep "would be overwritten by merge" dirc.err &&
	state_unchanged
'

test_expect_success GIT '-n -u: the checks of -u, nothing written' '
	test_when_finished "reset_both; rm -f rg/untracked rd/untracked" &&
	t=$(git -C rg rev-parse HEAD^{tree}) &&
	both "git read-tree --empty && echo u >new" -n -m -u $t &&
	same &&
	echo "error: Untracked working tree file '"'"'df'"'"' would be overwritten by merge." >expect &&
	test_cmp expect dirc.err &&
	state_unchanged &&
	both "rm -rf df new sub" -n -m -u $t &&
	same &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	state_unchanged
'

test_expect_success GIT '-v -m -u: the same result; progress only where asked for' '
	test_when_finished reset_both &&
	t=$(git -C rg rev-parse HEAD^{tree}) &&
	both "git read-tree --empty && rm -rf df new sub" -v -m -u $t &&
	test_cmp_codes git.code dirc.code &&
	test_cmp git.out dirc.out &&
	git -C rd ls-files -s >rd.stage &&
	git -C rg ls-files -s >rg.stage &&
	test_cmp rg.stage rd.stage &&
	test_path_is_file rd/sub/s
'

test_done
