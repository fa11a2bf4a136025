#!/bin/sh
test_description='a full disk: update-ref, symbolic-ref and the index and object writers

Each case runs a command with git and then with dirc, each in its own copy
of one repository, under "ulimit -f N" with SIGXFSZ ignored, so that a
write past N blocks fails with EFBIG as it would on a full disk (no mount
needed, root or not).  stdout and stderr go through pipes, which the limit
does not cut.  The exit code and the messages must be git'"'"'s; no .lock
file may be left anywhere; and dirc must leave the repository (refs,
packed-refs, every reflog, the index, the objects, the work tree) as it
was, or, where git completes part of the work, either as it was or as git
leaves it: never worse.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh
. "$TEST_DIRECTORY"/lib-worktree.sh

# state_of REPO: what a case may change, on stdout: lock files anywhere,
# the names under refs/ and logs/, every loose ref and reflog and
# packed-refs with its content, the index bytes, every object file and
# the work tree.
state_of () {
	(
		cd "$1" &&
		find . -name "*.lock" | sed "s/^/lock: /" &&
		find .git/refs .git/logs | sort &&
		for f in .git/HEAD .git/packed-refs \
			$(find .git/refs .git/logs -type f | sort)
		do
			echo "== $f" &&
			if test -f "$f"
			then
				cat "$f"
			fi || return 1
		done &&
		if test -f .git/index
		then
			echo "index $(cksum <.git/index)"
		fi &&
		find .git/objects -type f | sort
	) &&
	snapshot "$1"
}

# full_disk_both LIMIT SCRIPT: SCRIPT ($cmd standing for git, then for
# dirc) in a fresh copy of the repository $FULL_DISK_START (default
# "start") as git.repo and dirc.repo
# with "ulimit -f LIMIT".  Results in {git,dirc}.{out,err,code}, what the
# copies hold afterwards in {git,dirc}.state, the start in start.state.
# In the messages, either copy's directory is called REPO.
full_disk_both () {
	fd_lim=$1 &&
	fd_script=$2 &&
	fd_start=${FULL_DISK_START:-start} &&
	state_of "$fd_start" >start.state &&
	for fd_who in git dirc
	do
		rm -rf $fd_who.repo &&
		cp -R -p "$fd_start" $fd_who.repo &&
		{
			{
				(
					cd $fd_who.repo &&
					cmd=$fd_who &&
					ulimit -f "$fd_lim" &&
					trap "" XFSZ &&
					eval "$fd_script"
				)
				echo $? >$fd_who.code
			} 2>&1 >&3 | sed "s|/$fd_who\.repo/|/REPO/|g" >$fd_who.err
		} 3>&1 | cat >$fd_who.out &&
		state_of $fd_who.repo >$fd_who.state || return 1
	done
}

# like_git: exit code, stdout and stderr are git's
like_git () {
	test_cmp_codes git.code dirc.code &&
	test_cmp git.out dirc.out &&
	if test_have_prereq GIT_MSGS
	then
		test_cmp git.err dirc.err
	fi
}

# dirc_unchanged: dirc left the repository as it was (no lock either)
dirc_unchanged () {
	test_cmp start.state dirc.state
}

test_expect_success ULIMIT_FILE_SIZE,GIT 'setup: packed and loose refs, long reflogs, an index' '
	git init -q start &&
	(
		cd start &&
		for i in $(test_seq 1 40)
		do
			echo $i >f$i || return 1
		done &&
		git add . &&
		git commit -q -m one &&
		git commit -q --allow-empty -m two &&
		c1=$(git rev-parse HEAD~1) &&
		c2=$(git rev-parse HEAD) &&
		git tag p "$c1" &&
		git pack-refs --all &&
		git branch a "$c1" &&
		git branch b "$c1" &&
		for i in $(test_seq 1 20)
		do
			git update-ref -m "a long line to make the log of b long, $i" refs/heads/b "$c2" &&
			git update-ref -m "and back again, $i" refs/heads/b "$c1" &&
			git update-ref -m "a long line to make the log of HEAD long, $i" HEAD "$c1" &&
			git update-ref -m "and back again, $i" HEAD "$c2" || return 1
		done &&
		echo staged >staged &&
		git update-index --add staged &&
		echo new >new &&
		git update-index --refresh
	) &&
	test $(wc -c <start/.git/logs/refs/heads/b) -gt 4096 &&
	test $(wc -c <start/.git/logs/HEAD) -gt 4096 &&
	test $(wc -c <start/.git/logs/refs/heads/a) -lt 512 &&
	test $(wc -c <start/.git/index) -gt 2048 &&
	c1=$(git -C start rev-parse HEAD~1) &&
	c2=$(git -C start rev-parse HEAD)
'

# The refs.  A ref's new value goes into its lock file while the
# transaction is prepared: a full disk there changes nothing, in git as
# in dirc, and git's message names the lock file, not the reason.

test_expect_success ULIMIT_FILE_SIZE,GIT 'update-ref --stdin, the lock files cannot be written: 128 as git, nothing changed' '
	full_disk_both 0 "printf \"update refs/heads/a $c2\\nupdate refs/heads/b $c2\\n\" | \$cmd update-ref --stdin" &&
	like_git &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	test_grep "^fatal: cannot update ref .refs/heads/a.: couldn.t write .*/refs/heads/a\.lock.$" dirc.err &&
	dirc_unchanged
'

test_expect_success ULIMIT_FILE_SIZE,GIT 'update-ref, the lock file cannot be written: 128 as git, nothing changed' '
	full_disk_both 0 "\$cmd update-ref refs/heads/a $c2" &&
	like_git &&
	test_grep "^fatal: update_ref failed for ref .refs/heads/a.: cannot update ref .refs/heads/a.: couldn.t write .*a\.lock.$" dirc.err &&
	dirc_unchanged
'

test_expect_success ULIMIT_FILE_SIZE,GIT 'update-ref of a ref in new directories: 128 as git, the directories gone' '
	full_disk_both 0 "\$cmd update-ref refs/heads/new/deeper/x $c1" &&
	like_git &&
	dirc_unchanged
'

test_expect_success ULIMIT_FILE_SIZE,GIT 'update-ref -d of a packed ref, packed-refs cannot be rewritten: as git, nothing changed' '
	full_disk_both 0 "\$cmd update-ref -d refs/tags/p" &&
	like_git &&
	test_cmp start.state git.state &&
	dirc_unchanged
'

test_expect_success ULIMIT_FILE_SIZE,GIT 'update-ref -d of a packed ref, packed-refs over one stdio buffer: git'"'"'s other message, nothing changed' '
	cp -R -p start start-big &&
	{
		# no header: git sorts the lines as it reads them
		grep -v "^#" start/.git/packed-refs &&
		for i in $(test_seq 1 100)
		do
			echo "$c1 refs/tags/t$i" || return 1
		done
	} >start-big/.git/packed-refs &&
	git -C start-big pack-refs --all &&
	git -C start-big rev-parse --verify -q refs/tags/t50 >/dev/null &&
	test $(wc -c <start-big/.git/packed-refs) -gt 4096 &&
	FULL_DISK_START=start-big full_disk_both 0 "\$cmd update-ref -d refs/tags/p" &&
	like_git &&
	test_grep "^error: error writing to .*/packed-refs\.new: File too large$" dirc.err &&
	test_cmp start.state git.state &&
	dirc_unchanged
'

test_expect_success ULIMIT_FILE_SIZE,GIT 'update-ref --stdin start, prepare: prepare fails as git, nothing changed' '
	full_disk_both 0 "printf \"start\\nupdate refs/heads/a $c2\\nprepare\\ncommit\\n\" | \$cmd update-ref --stdin" &&
	like_git &&
	dirc_unchanged
'

# A reflog line is appended when the transaction is committed.  git
# moves each ref after its own line, so a line that cannot be written
# leaves the refs before it moved; dirc writes every line first, takes
# them back when one fails, and moves no ref (Documentation/
# dirc-update-ref.1).

test_expect_success ULIMIT_FILE_SIZE,GIT 'update-ref --stdin, the second reflog line cannot be written: 128 as git, and nothing changed (git moved the first ref)' '
	full_disk_both 1 "printf \"update refs/heads/a $c2\\nupdate refs/heads/b $c2\\n\" | \$cmd update-ref --stdin" &&
	like_git &&
	test_grep "^fatal: cannot update the ref .refs/heads/b.: unable to append to .\.git/logs/refs/heads/b.: File too large$" dirc.err &&
	dirc_unchanged &&
	echo "$c2" >expect &&
	test_cmp expect git.repo/.git/refs/heads/a &&
	echo "$c1" >expect &&
	test_cmp expect dirc.repo/.git/refs/heads/a
'

test_expect_success ULIMIT_FILE_SIZE,GIT 'update-ref, its reflog line cannot be written: 128 as git, nothing changed' '
	full_disk_both 1 "\$cmd update-ref -m moved refs/heads/b $c2" &&
	like_git &&
	test_cmp start.state git.state &&
	dirc_unchanged
'

test_expect_success ULIMIT_FILE_SIZE,GIT 'update-ref with room enough: done as git' '
	full_disk_both 1 "\$cmd update-ref -m moved refs/heads/a $c2" &&
	like_git &&
	test_cmp git.state dirc.state &&
	! cmp -s start.state dirc.state
'

# symbolic-ref: git appends the reflog line first and reports its
# failure, then writes the symref; it exits 0 when only the line failed.

test_expect_success ULIMIT_FILE_SIZE,GIT 'symbolic-ref, nothing can be written: both errors, exit 1 as git, nothing changed' '
	full_disk_both 0 "\$cmd symbolic-ref -m switch HEAD refs/heads/a" &&
	like_git &&
	cat >expect <<-\EOF &&
	error: unable to append to '\''.git/logs/HEAD'\'': File too large
	error: unable to write symref for HEAD: File too large
	EOF
	test_cmp expect dirc.err &&
	test_cmp start.state git.state &&
	dirc_unchanged
'

test_expect_success ULIMIT_FILE_SIZE,GIT 'symbolic-ref, only the reflog line cannot be written: HEAD moved, exit 0, as git' '
	full_disk_both 1 "\$cmd symbolic-ref -m switch HEAD refs/heads/b" &&
	like_git &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	test_grep "^error: unable to append to .\.git/logs/HEAD.: File too large$" dirc.err &&
	test_cmp git.state dirc.state &&
	echo "ref: refs/heads/b" >expect &&
	test_cmp expect dirc.repo/.git/HEAD
'

# The index and the objects.

test_expect_success ULIMIT_FILE_SIZE,GIT 'update-index --add, the object cannot be written: as git, nothing changed' '
	full_disk_both 0 "\$cmd update-index --add new" &&
	test_cmp_codes git.code dirc.code &&
	test_grep "File too large" dirc.err &&
	dirc_unchanged
'

test_expect_success ULIMIT_FILE_SIZE,GIT 'update-index --cacheinfo, the index cannot be written: as git, nothing changed' '
	blob=$(git -C start rev-parse HEAD:f1) &&
	full_disk_both 0 "\$cmd update-index --add --cacheinfo 100644,$blob,g" &&
	like_git &&
	dirc_unchanged
'

test_expect_success ULIMIT_FILE_SIZE,GIT 'update-index --refresh, the index cannot be written: as git, nothing changed' '
	full_disk_both 0 "touch -d @1500000000 f1 f2 && \$cmd update-index --refresh" &&
	test_cmp_codes git.code dirc.code &&
	like_git &&
	test_cmp git.state dirc.state
'

test_expect_success ULIMIT_FILE_SIZE,GIT 'write-tree, the new tree object cannot be written: as git, nothing changed' '
	full_disk_both 0 "\$cmd write-tree" &&
	test_cmp_codes git.code dirc.code &&
	test_grep "File too large" dirc.err &&
	dirc_unchanged
'

test_expect_success ULIMIT_FILE_SIZE,GIT 'hash-object -w, the object cannot be written: 128 as git, nothing changed' '
	full_disk_both 0 "\$cmd hash-object -w new" &&
	test_cmp_codes git.code dirc.code &&
	test_grep "^fatal: .*File too large" dirc.err &&
	dirc_unchanged
'

test_expect_success ULIMIT_FILE_SIZE,GIT 'checkout-index, the file cannot be written: exit 1 as git, index unchanged, no empty file (git leaves one)' '
	full_disk_both 0 "rm f1 && \$cmd checkout-index f1" &&
	like_git &&
	echo "error: unable to write file f1" >expect &&
	test_cmp expect dirc.err &&
	test_path_is_file git.repo/f1 &&
	test_path_is_missing dirc.repo/f1 &&
	grep -v " \./f1 " git.state >expect &&
	test_cmp expect dirc.state
'

test_expect_success ULIMIT_FILE_SIZE,GIT 'checkout-index -u, the files fit and the index does not: as git, no lock' '
	full_disk_both 1 "rm f1 f2 && \$cmd checkout-index -u -a" &&
	like_git &&
	test_cmp git.state dirc.state
'

test_done
