#!/bin/sh
test_description='init --separate-git-dir: a gitfile, moving an existing git directory, linked worktrees, as git'
. ./test-lib.sh
. "$TEST_DIRECTORY/lib-interop.sh"
. "$TEST_DIRECTORY/lib-init.sh"

# A repository with a commit and a linked worktree "linkwt" next to it.
WT_SETUP='git init -q mainwt && git -C mainwt commit -q --allow-empty -m one && git -C mainwt worktree add -q --detach ../linkwt'

test_expect_success 'setup: one template for git and dirc' '
	init_template
'

test_expect_success GIT 'init --separate-git-dir: the git directory there, a gitfile here' '
	both sep "\$cmd init --separate-git-dir realgitdir newdir" &&
	same_as_git &&
	echo "gitdir: $TRASH_DIRECTORY/sep/realgitdir" >expect &&
	test_cmp expect sep.dirc/newdir/.git &&
	test_path_is_dir sep.dirc/realgitdir/refs &&
	both sep-abs "\$cmd init --separate-git-dir=\"\$PWD/real\" x" &&
	same_as_git &&
	both sep-q "\$cmd init -q --separate-git-dir real" && same_as_git
'

test_expect_success GIT 'dirc finds the repository through the gitfile it wrote' '
	(
		cd sep.dirc/newdir &&
		git rev-parse --absolute-git-dir >../../expect &&
		dirc rev-parse --absolute-git-dir >../../actual
	) &&
	test_cmp expect actual
'

test_expect_success GIT 're-init on a .git file with --separate-git-dir: the git directory moves, the link follows' '
	BOTH_SETUP="git init -q --separate-git-dir realgitdir newdir" &&
	both relink "\$cmd -C newdir init --separate-git-dir ../surrealgitdir" &&
	same_as_git &&
	test_path_is_dir relink.dirc/surrealgitdir/refs &&
	test_path_is_missing relink.dirc/realgitdir &&
	echo "gitdir: $TRASH_DIRECTORY/relink/surrealgitdir" >expect &&
	test_cmp expect relink.dirc/newdir/.git &&
	unset BOTH_SETUP
'

test_expect_success GIT 're-init of a .git directory with --separate-git-dir: it moves' '
	BOTH_SETUP="git init -q newdir && echo x >newdir/f && git -C newdir add f" &&
	both move "\$cmd -C newdir init --separate-git-dir ../realgitdir" &&
	same_as_git &&
	test_path_is_file move.dirc/realgitdir/index &&
	unset BOTH_SETUP
'

test_expect_success GIT 're-init through a .git symlink: the directory it points at moves and becomes the gitfile' '
	BOTH_SETUP="git init -q newdir && mv newdir/.git newdir/here && ln -s here newdir/.git" &&
	both symlink "\$cmd -C newdir init --separate-git-dir ../realgitdir" &&
	same_as_git &&
	echo "gitdir: $TRASH_DIRECTORY/symlink/realgitdir" >expect &&
	test_cmp expect symlink.dirc/newdir/here &&
	test_cmp expect symlink.dirc/newdir/.git &&
	unset BOTH_SETUP
'

test_expect_success GIT 're-init with linked worktrees, from the main one: the worktrees are repointed' '
	BOTH_SETUP=$WT_SETUP &&
	both wt-main "\$cmd -C mainwt init --separate-git-dir ../seprepo" &&
	same_as_git &&
	echo "gitdir: $TRASH_DIRECTORY/wt-main/seprepo/worktrees/linkwt" >expect &&
	test_cmp expect wt-main.dirc/linkwt/.git &&
	unset BOTH_SETUP
'

test_expect_success GIT 're-init from within a linked worktree: the common directory moves' '
	BOTH_SETUP=$WT_SETUP &&
	both wt-linked "\$cmd -C linkwt init --separate-git-dir ../seprepo" &&
	same_as_git &&
	test_path_is_dir wt-linked.dirc/seprepo/worktrees/linkwt &&
	echo "gitdir: $TRASH_DIRECTORY/wt-linked/seprepo" >expect &&
	test_cmp expect wt-linked.dirc/mainwt/.git &&
	unset BOTH_SETUP
'

test_expect_success GIT 'after the moves, git and dirc agree on the common directory of each worktree' '
	for d in mainwt linkwt
	do
		(
			cd wt-main.dirc/$d &&
			git rev-parse --git-common-dir --absolute-git-dir >../../expect &&
			dirc rev-parse --git-common-dir --absolute-git-dir >../../actual
		) &&
		test_cmp expect actual || return 1
	done
'

# git 2.48: worktree.useRelativePaths makes relative links, and sets
# extensions.relativeWorktrees (version 1) in the common config
WT_REL_SETUP='git_new init -q mainwt && git_new -C mainwt config worktree.useRelativePaths true && git_new -C mainwt commit -q --allow-empty -m one && git_new -C mainwt worktree add -q --detach ../linkwt'

test_expect_success GIT_NEW 're-init with relative worktree links (git 2.55): they stay relative, from the main worktree and from the linked one' '
	BOTH_SETUP=$WT_REL_SETUP &&
	BOTH_GIT=git_new &&
	for from in mainwt linkwt
	do
		both wt-rel-$from "\$cmd -C $from init --template=\"\$GIT_TEMPLATE_DIR\" --separate-git-dir ../seprepo" &&
		same_as_git &&
		echo "gitdir: ../seprepo/worktrees/linkwt" >expect &&
		test_cmp expect wt-rel-$from.dirc/linkwt/.git &&
		echo "../../../linkwt/.git" >expect &&
		test_cmp expect wt-rel-$from.dirc/seprepo/worktrees/linkwt/gitdir &&
		(
			cd wt-rel-$from.dirc/linkwt &&
			git_new rev-parse --path-format=absolute --git-common-dir >../../expect &&
			dirc rev-parse --git-common-dir >../../actual
		) &&
		test_cmp expect actual || return 1
	done &&
	unset BOTH_SETUP BOTH_GIT
'

test_expect_success GIT 're-init with relative worktree links: both links rewritten relative, version 1 kept' '
	rm -rf rel &&
	mkdir rel &&
	(
		cd rel &&
		eval "$WT_SETUP" &&
		# the links git 2.48 makes with worktree.useRelativePaths
		echo "gitdir: ../mainwt/.git/worktrees/linkwt" >linkwt/.git &&
		echo "../../../../linkwt/.git" >mainwt/.git/worktrees/linkwt/gitdir &&
		git -C mainwt config core.repositoryformatversion 1 &&
		git -C mainwt config extensions.relativeWorktrees true &&
		dirc -C linkwt init -q --separate-git-dir ../seprepo &&
		echo "gitdir: ../seprepo/worktrees/linkwt" >expect &&
		test_cmp expect linkwt/.git &&
		echo "../../../linkwt/.git" >expect &&
		test_cmp expect seprepo/worktrees/linkwt/gitdir &&
		echo 1 >expect &&
		git config -f seprepo/config core.repositoryformatversion >actual &&
		test_cmp expect actual &&
		echo "$TRASH_DIRECTORY/rel/seprepo" >expect &&
		dirc -C linkwt rev-parse --git-common-dir >actual &&
		test_cmp expect actual &&
		dirc -C mainwt rev-parse --git-common-dir >actual &&
		test_cmp expect actual
	)
'

test_expect_success GIT 're-init with absolute worktree links: both rewritten absolute, symbolic links resolved' '
	rm -rf abs abs-link &&
	mkdir abs &&
	ln -s abs abs-link &&
	(
		cd abs &&
		eval "$WT_SETUP" &&
		echo "$TRASH_DIRECTORY/abs-link/linkwt/.git" >mainwt/.git/worktrees/linkwt/gitdir &&
		dirc -C mainwt init -q --separate-git-dir ../seprepo &&
		echo "gitdir: $TRASH_DIRECTORY/abs/seprepo/worktrees/linkwt" >expect &&
		test_cmp expect linkwt/.git &&
		echo "$TRASH_DIRECTORY/abs/linkwt/.git" >expect &&
		test_cmp expect seprepo/worktrees/linkwt/gitdir
	)
'

test_expect_success GIT 'a target that is in the way: the error of git' '
	BOTH_SETUP="git init -q newdir && mkdir -p taken/x" &&
	both taken "\$cmd -C newdir init --separate-git-dir ../taken" &&
	unset BOTH_SETUP &&
	same_as_git &&
	test_grep "^fatal: unable to move" dirc.err
'

test_expect_success GIT 'git accepts what dirc moved' '
	git --git-dir=relink.dirc/surrealgitdir fsck --strict &&
	git --git-dir=move.dirc/realgitdir fsck --strict &&
	git -C wt-main.dirc/mainwt fsck --strict &&
	git -C wt-main.dirc/linkwt status >/dev/null
'

test_done
