#!/bin/sh
test_description='which commands need a work tree (a bare repository, as git decides it), and linked worktrees: GIT_DIR naming a .git file, HEAD and index per worktree, refs and objects shared'
. ./test-lib.sh
. "$TEST_DIRECTORY/lib-interop.sh"
. "$TEST_DIRECTORY/lib-init.sh"

# A bare repository "b.git" with one commit on master holding "a".
BARE_SETUP='git init -q --bare b.git &&
	git -C b.git hash-object -w --stdin </dev/null >/dev/null &&
	printf "100644 blob $EMPTY_BLOB\ta\n" | git -C b.git mktree >t &&
	git -C b.git update-ref refs/heads/master $(git -C b.git commit-tree -m one $(cat t)) &&
	echo content >f'

# each_line_as_git NAME PREFIX COUNT: every line of stdin, after PREFIX,
# run by "both NAME" and compared with same_as_git; exactly COUNT lines
# (a here-document that lost some fails).
each_line_as_git () {
	el_n=0 &&
	while read -r el_line
	do
		both "$1" "$2$el_line" &&
		same_as_git &&
		el_n=$((el_n + 1)) || return 1
	done &&
	test "$el_n" = "$3"
}

test_expect_success 'setup' '
	init_template
'

# Each command of dirc, in a bare repository: git's exit code, output
# and message, and the same files left (an index where git writes one).
test_expect_success GIT 'every command in a bare repository: as git' '
	BOTH_SETUP=$BARE_SETUP &&
	each_line_as_git bare "cd b.git && " 37 <<-EOF &&
	\$cmd ls-files
	\$cmd ls-files -s
	\$cmd ls-files -o
	\$cmd ls-files -m
	\$cmd ls-files -d
	\$cmd ls-files --error-unmatch a
	\$cmd update-index --add --cacheinfo 100644,$EMPTY_BLOB,a && \$cmd ls-files -s
	\$cmd update-index --add --cacheinfo 100644 $EMPTY_BLOB sub/b && \$cmd ls-files -s
	\$cmd update-index --cacheinfo 100644,$EMPTY_BLOB,a
	printf "100644 $EMPTY_BLOB\tx\n" | \$cmd update-index --index-info && \$cmd ls-files -s
	\$cmd update-index --add a
	\$cmd update-index --add ../f
	\$cmd update-index --refresh
	\$cmd update-index --really-refresh
	\$cmd update-index --remove a
	\$cmd update-index --force-remove a
	\$cmd update-index --chmod=+x a
	\$cmd update-index --info-only a
	echo a | \$cmd update-index --stdin
	\$cmd update-index
	\$cmd update-index --index-version 4
	\$cmd read-tree master && \$cmd ls-files -s
	\$cmd read-tree --empty
	\$cmd read-tree -m master
	\$cmd read-tree --reset -u master
	\$cmd read-tree master && \$cmd write-tree
	\$cmd checkout-index -a
	\$cmd checkout-index a
	\$cmd hash-object ../f
	\$cmd hash-object -w ../f
	\$cmd cat-file -t master
	\$cmd commit-tree -m x $EMPTY_TREE
	\$cmd count-objects
	\$ask --show-toplevel
	\$ask --is-bare-repository --is-inside-work-tree --is-inside-git-dir
	\$cmd symbolic-ref HEAD
	\$cmd update-ref refs/heads/other master
	EOF
	unset BOTH_SETUP
'

test_expect_success GIT 'a git directory without a work tree (inside .git): as git' '
	BOTH_SETUP="git init -q r && echo x >r/f && git -C r add f" &&
	each_line_as_git ingitdir "cd r/.git && " 6 <<-\EOF &&
	$cmd ls-files -s
	$cmd ls-files -o
	$cmd update-index --refresh
	$cmd update-index --add --cacheinfo 100644,$EMPTY_BLOB,y && $cmd ls-files -s
	$ask --is-bare-repository --is-inside-work-tree --is-inside-git-dir
	$ask --show-toplevel
	EOF
	unset BOTH_SETUP
'

test_expect_success GIT 'GIT_WORK_TREE naming a missing directory: only work-tree commands fail, as git' '
	BOTH_SETUP="git init -q r && echo x >r/f && git -C r add f" &&
	each_line_as_git missingwt "cd r && GIT_WORK_TREE=\$PWD/../nowhere " 5 <<-\EOF &&
	$cmd ls-files -s
	$cmd ls-files -o
	$cmd update-index --refresh
	$cmd write-tree
	$ask --show-toplevel --is-inside-work-tree
	EOF
	unset BOTH_SETUP
'

test_expect_success GIT 'core.bare with core.worktree: git'\''s warning, work-tree commands refused' '
	BOTH_SETUP="git init -q r && git -C r config core.bare true && git -C r config core.worktree \$PWD/r" &&
	both bogus "GIT_DIR=r/.git \$cmd ls-files" && same_as_git &&
	test_grep "^warning: core.bare and core.worktree do not make sense" dirc.err &&
	both bogus2 "GIT_DIR=r/.git \$cmd ls-files -o" && same_as_git &&
	test_grep "^fatal: unable to set up work tree using invalid config" dirc.err &&
	unset BOTH_SETUP
'

# Linked worktrees.
WT_SETUP='git init -q main && echo one >main/f && git -C main add f &&
	git -C main commit -q -m one && git -C main worktree add -q ../linked &&
	echo two >linked/g'

test_expect_success GIT 'GIT_DIR naming a linked worktree'\''s .git file: followed, as git' '
	BOTH_SETUP=$WT_SETUP &&
	each_line_as_git gitfile-env "" 7 <<-\EOF &&
	GIT_DIR=linked/.git $cmd ls-files -s
	GIT_DIR=linked/.git $ask --absolute-git-dir --show-toplevel && GIT_DIR=linked/.git $ask_common
	GIT_DIR=linked/.git $cmd write-tree
	GIT_DIR=linked/.git $cmd symbolic-ref HEAD
	GIT_DIR=linked/.git GIT_WORK_TREE=linked $cmd update-index --add g && git -C linked ls-files -s
	cd linked && GIT_DIR=.git $cmd update-index --add g && git ls-files -s
	GIT_DIR=main/.git/worktrees/linked $cmd ls-files -s
	EOF
	unset BOTH_SETUP
'

test_expect_success GIT 'in a linked worktree: the index and HEAD are its own, refs and objects shared' '
	BOTH_SETUP=$WT_SETUP &&
	each_line_as_git linked-ops "cd linked && " 8 <<-\EOF &&
	$cmd update-index --add g && $cmd write-tree
	$cmd hash-object -w g
	$cmd update-ref refs/heads/side HEAD
	$cmd symbolic-ref HEAD refs/heads/side
	$ask --git-dir --absolute-git-dir --show-toplevel --show-prefix && $ask_common
	mkdir sub && cd sub && $ask --git-dir --show-toplevel --show-prefix --show-cdup
	$cmd ls-files -s
	$cmd -C ../main ls-files -s
	EOF
	unset BOTH_SETUP
'

test_expect_success GIT 'a main repository that is bare: its linked worktree is not' '
	BOTH_SETUP="git init -q --bare b.git && git -C b.git commit-tree -m x $EMPTY_TREE >c && git -C b.git update-ref refs/heads/master \$(cat c) && git -C b.git worktree add -q --detach ../wt" &&
	both bare-main "cd wt && \$ask --is-bare-repository --show-toplevel && \$cmd update-index --add --cacheinfo 100644,$EMPTY_BLOB,x && \$cmd ls-files -s" &&
	same_as_git &&
	unset BOTH_SETUP
'

test_expect_success GIT 'a linked worktree with extensions.worktreeConfig: its config.worktree counts' '
	BOTH_SETUP="$WT_SETUP && git -C main config extensions.worktreeConfig true && git -C main config core.repositoryformatversion 1 && git -C linked config --worktree core.bare true" &&
	both wtconfig "cd linked && \$ask --is-bare-repository && \$cmd ls-files -o" &&
	same_as_git &&
	unset BOTH_SETUP
'

test_done
