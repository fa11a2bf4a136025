#!/bin/sh
test_description='configuration: includeIf gitdir:, gitdir/i:, hasconfig:remote.*.url: and unknown conditions, as git follows them'
. ./test-lib.sh

# What the tests look at: core.compression = 9 in an included file.  dirc
# shows it by the zlib header of the loose objects it writes (78da for
# level 9, 7801 for its default), git by "git config --get".

# seen VALUE [options...]: in the current directory, dirc (with the
# options) writes at level VALUE (9 or 6), at its default if VALUE is
# empty; and git reads VALUE (same options), where git runs ($SEEN_GIT
# if set: git_new, or "none" for no git).
seen () {
	seen_value=$1 &&
	shift &&
	case "$seen_value" in
	9) echo 78da ;;
	6) echo 789c ;;
	'') echo 7801 ;;
	esac >"$TRASH_DIRECTORY/seen.expect" &&
	seen_count=$(cat "$TRASH_DIRECTORY/seen.count" 2>/dev/null || echo 0) &&
	seen_count=$((seen_count + 1)) &&
	echo $seen_count >"$TRASH_DIRECTORY/seen.count" &&
	echo "new content $seen_count" >"$TRASH_DIRECTORY/seen.file" &&
	dirc "$@" hash-object -w "$TRASH_DIRECTORY/seen.file" >"$TRASH_DIRECTORY/seen.id" &&
	seen_id=$(cat "$TRASH_DIRECTORY/seen.id") &&
	seen_obj=$(dirc rev-parse --git-path objects)/$(echo $seen_id | cut -c1-2)/$(echo $seen_id | cut -c3-) &&
	od -An -tx1 -N2 "$seen_obj" | tr -d " \n" >"$TRASH_DIRECTORY/seen.actual" &&
	echo >>"$TRASH_DIRECTORY/seen.actual" &&
	test_cmp "$TRASH_DIRECTORY/seen.expect" "$TRASH_DIRECTORY/seen.actual" &&
	seen_git=${SEEN_GIT-git} &&
	if test "$seen_git" != none && test_have_prereq GIT
	then
		echo "$seen_value" >"$TRASH_DIRECTORY/seen.expect" &&
		{
			$seen_git "$@" config --get core.compression ||
			test $? = 1
		} >"$TRASH_DIRECTORY/seen.actual" &&
		{ test -n "$seen_value" || : >"$TRASH_DIRECTORY/seen.expect"; } &&
		test_cmp "$TRASH_DIRECTORY/seen.expect" "$TRASH_DIRECTORY/seen.actual"
	fi
}

# global TEXT: ~/.gitconfig is what every test starts with, then TEXT
# (printf format).
global () {
	cp "$TRASH_DIRECTORY/gitconfig.orig" "$HOME/.gitconfig" &&
	printf "$1" >>"$HOME/.gitconfig"
}

# gitdir PATTERN: ~/.gitconfig includes ~/inc-z9 under gitdir:PATTERN
gitdir () {
	global "[includeIf \"gitdir:$1\"]\n\tpath = inc-z9\n"
}

test_expect_success 'setup' '
	cp "$HOME/.gitconfig" gitconfig.orig &&
	printf "[core]\n\tcompression = 9\n" >"$HOME/inc-z9" &&
	dirc init -q gd/repo &&
	mkdir gd/repo/sub &&
	dirc init -q "$HOME/hrepo" &&
	test_fsck_also gd/repo "$HOME/hrepo"
'

test_expect_success 'nothing included: the default level' '
	(cd gd/repo && seen "")
'

test_expect_success 'gitdir: a pattern not starting with / gets **/ before it, one ending in / gets ** after it' '
	test_when_finished "cp gitconfig.orig \"\$HOME/.gitconfig\"" &&
	for p in gd/repo/ gd/repo/.git gd/rep?/ "gd/*/.git" gd/ "[g]d/repo/" repo/
	do
		gitdir "$p" &&
		(cd gd/repo && seen 9) &&
		(cd gd/repo/sub && seen 9) || return 1
	done &&
	for p in gd/repo gd/repo/.git/ rep/ GD/REPO/ "gd/*" d/repo/ /gd/repo/
	do
		gitdir "$p" &&
		(cd gd/repo && seen "") || return 1
	done
'

test_expect_success 'gitdir: absolute patterns; * and ? do not cross a /, ** does' '
	test_when_finished "cp gitconfig.orig \"\$HOME/.gitconfig\"" &&
	for p in "$TRASH_DIRECTORY/gd/repo/.git" "$TRASH_DIRECTORY/gd/*/.git" \
		"$TRASH_DIRECTORY/**/.git" "$TRASH_DIRECTORY/" "$TRASH_DIRECTORY/gd/"
	do
		gitdir "$p" &&
		(cd gd/repo && seen 9) || return 1
	done &&
	for p in "$TRASH_DIRECTORY/*/.git" "$TRASH_DIRECTORY/gd/repo" \
		"$TRASH_DIRECTORY/gd/?/.git" "$TRASH_DIRECTORY/GD/"
	do
		gitdir "$p" &&
		(cd gd/repo && seen "") || return 1
	done
'

test_expect_success 'gitdir/i: matches whatever the case' '
	test_when_finished "cp gitconfig.orig \"\$HOME/.gitconfig\"" &&
	global "[includeIf \"gitdir/i:GD/REPO/\"]\n\tpath = inc-z9\n" &&
	(cd gd/repo && seen 9) &&
	global "[includeIf \"gitdir/i:$TRASH_DIRECTORY/GD/Repo/.GIT\"]\n\tpath = inc-z9\n" &&
	(cd gd/repo && seen 9) &&
	global "[includeIf \"gitdir/i:GD/OTHER/\"]\n\tpath = inc-z9\n" &&
	(cd gd/repo && seen "")
'

test_expect_success 'gitdir: ~/ is $HOME, ./ the directory of the file the condition is in' '
	test_when_finished "cp gitconfig.orig \"\$HOME/.gitconfig\"" &&
	gitdir "~/hrepo/" &&
	(cd "$HOME/hrepo" && seen 9) &&
	(cd gd/repo && seen "") &&
	gitdir "./hrepo/" &&
	(cd "$HOME/hrepo" && seen 9) &&
	(cd gd/repo && seen "") &&
	gitdir "~/" &&
	(cd "$HOME/hrepo" && seen 9) &&
	gitdir "./" &&
	(cd "$HOME/hrepo" && seen 9) &&
	(cd gd/repo && seen "")
'

test_expect_success 'gitdir: ./ is the directory of the file the condition is in, not of the including one' '
	cp gd/repo/.git/config repo-config.orig &&
	test_when_finished "cp repo-config.orig gd/repo/.git/config" &&
	: in the repository config, ./ is below the git directory &&
	printf "[includeIf \"gitdir:./\"]\n\tpath = %s\n" "$HOME/inc-z9" >>gd/repo/.git/config &&
	(cd gd/repo/sub && seen "") &&
	cp repo-config.orig gd/repo/.git/config &&
	printf "[includeIf \"gitdir:./repo/\"]\n\tpath = %s\n" "$HOME/inc-z9" >gd/conds &&
	printf "[include]\n\tpath = ../../conds\n" >>gd/repo/.git/config &&
	(cd gd/repo/sub && seen 9) &&
	printf "[includeIf \"gitdir:./gd/\"]\n\tpath = %s\n" "$HOME/inc-z9" >gd/conds &&
	(cd gd/repo && seen "")
'

test_expect_success 'gitdir: from the git directory itself, a bare repository and GIT_DIR' '
	test_when_finished "cp gitconfig.orig \"\$HOME/.gitconfig\"" &&
	dirc init -q --bare gd/bare.git &&
	test_fsck_also gd/bare.git &&
	gitdir gd/repo/ &&
	(cd gd/repo/.git && seen 9) &&
	(cd gd && GIT_DIR=repo/.git && export GIT_DIR && seen 9) &&
	gitdir gd/bare.git &&
	(cd gd/bare.git && seen 9) &&
	(cd gd/repo && seen "")
'

test_expect_success SYMLINKS 'gitdir: the git directory is matched resolved, and as named where git names it so' '
	test_when_finished "cp gitconfig.orig \"\$HOME/.gitconfig\"" &&
	ln -s gd gd-link &&
	gitdir "$TRASH_DIRECTORY/gd/repo/" &&
	(cd gd-link/repo && seen 9) &&
	(cd gd-link/repo/sub && seen 9) &&
	gitdir "$TRASH_DIRECTORY/gd-link/repo/" &&
	(cd gd/repo && seen "") &&
	: git names it ".git" at the top of the work tree, from where the &&
	: shell says it is, and by its real path from a subdirectory &&
	(cd gd-link/repo && seen 9) &&
	(cd gd-link/repo/sub && seen "") &&
	(cd gd-link && GIT_DIR=repo/.git && export GIT_DIR && seen 9) &&
	(GIT_DIR="$TRASH_DIRECTORY/gd-link/repo/.git" && export GIT_DIR && seen 9)
'

test_expect_success 'gitdir: a linked worktree has its own git directory' '
	test_when_finished "cp gitconfig.orig \"\$HOME/.gitconfig\"" &&
	test_when_finished "rm -rf gd/wt gd/repo/.git/worktrees" &&
	: a linked worktree by hand, as git lays it out &&
	mkdir -p gd/repo/.git/worktrees/wt gd/wt &&
	echo "gitdir: $TRASH_DIRECTORY/gd/repo/.git/worktrees/wt" >gd/wt/.git &&
	echo "$TRASH_DIRECTORY/gd/wt/.git" >gd/repo/.git/worktrees/wt/gitdir &&
	echo ../.. >gd/repo/.git/worktrees/wt/commondir &&
	echo "ref: refs/heads/master" >gd/repo/.git/worktrees/wt/HEAD &&
	gitdir "gd/repo/.git/worktrees/*" &&
	(cd gd/wt && seen 9) &&
	(cd gd/repo && seen "") &&
	gitdir "gd/repo/.git" &&
	(cd gd/wt && seen "")
'

test_expect_success GIT 'gitdir: outside a repository no pattern matches' '
	test_when_finished "cp gitconfig.orig \"\$HOME/.gitconfig\"" &&
	mkdir "$HOME/norepo" &&
	printf "[core]\n\tcompression = bogus\n" >"$HOME/inc-bad" &&
	echo text >"$HOME/norepo/f" &&
	global "[include]\n\tpath = inc-bad\n" &&
	(
		cd "$HOME/norepo" &&
		test_expect_code 128 git hash-object f &&
		test_expect_code 128 dirc hash-object f 2>err &&
		test_grep "bogus" err
	) &&
	for p in "**" "/" "~/" "./"
	do
		global "[includeIf \"gitdir:$p\"]\n\tpath = inc-bad\n" &&
		(
			cd "$HOME/norepo" &&
			git hash-object f >expect &&
			dirc hash-object f >actual &&
			test_cmp expect actual
		) || return 1
	done
'

test_expect_success 'unknown conditions are never true; the included file is not read' '
	test_when_finished "cp gitconfig.orig \"\$HOME/.gitconfig\"" &&
	for c in "foo:bar" "gitdir" "GITDIR:gd/repo/" "hasconfig:remote.*.pushurl:**" \
		"hasconfig:core.bare:**" "onbranch" ""
	do
		global "[includeIf \"$c\"]\n\tpath = inc-z9\n" &&
		(cd gd/repo && seen "") || return 1
	done &&
	global "[includeIf]\n\tpath = inc-z9\n" &&
	(cd gd/repo && seen "") &&
	: another variable includes nothing &&
	global "[includeIf \"gitdir:gd/repo/\"]\n\tother = inc-z9\n" &&
	(cd gd/repo && seen "") &&
	: a path with no value: an error where the condition holds &&
	global "[includeIf \"gitdir:other/\"]\n\tpath\n" &&
	(cd gd/repo && seen "") &&
	global "[includeIf \"gitdir:gd/repo/\"]\n\tpath\n" &&
	printf "error: missing value for \047include.path\047\n" >expect &&
	echo "fatal: bad config line 4 in file $HOME/.gitconfig" >>expect &&
	(
		cd gd/repo &&
		test_expect_code 128 dirc hash-object ../../expect 2>../../err
	) &&
	test_cmp expect err &&
	global "[include]\n\tpath\n" &&
	(
		cd gd/repo &&
		test_expect_code 128 dirc hash-object ../../expect 2>../../err
	) &&
	test_cmp expect err &&
	cp gitconfig.orig "$HOME/.gitconfig" &&
	printf "error: missing value for \047include.path\047\n" >expect &&
	echo "fatal: unable to parse command-line config" >>expect &&
	for key in include.path includeIf.gitdir:gd/.path
	do
		(
			cd gd/repo &&
			test_expect_code 128 dirc -c $key hash-object ../../expect 2>../../err
		) &&
		test_cmp expect err || return 1
	done
'

test_expect_success GIT 'a path with no value: the messages of git' '
	test_when_finished "cp gitconfig.orig \"\$HOME/.gitconfig\"" &&
	for text in "[include]\n\tpath\n" "[includeIf \"gitdir:gd/repo/\"]\n\tpath\n"
	do
		global "$text" &&
		(
			cd gd/repo &&
			test_expect_code 128 git hash-object ../../expect 2>../../expect.err &&
			test_expect_code 128 dirc hash-object ../../expect 2>../../err
		) &&
		test_cmp expect.err err || return 1
	done &&
	cp gitconfig.orig "$HOME/.gitconfig" &&
	for key in include.path includeIf.gitdir:gd/.path
	do
		(
			cd gd/repo &&
			test_expect_code 128 git -c $key hash-object ../../expect 2>../../expect.err &&
			test_expect_code 128 dirc -c $key hash-object ../../expect 2>../../err
		) &&
		test_cmp expect.err err || return 1
	done
'

test_expect_success 'an included file is read where the includeIf is: later lines win' '
	test_when_finished "cp gitconfig.orig \"\$HOME/.gitconfig\"" &&
	printf "[core]\n\tcompression = 6\n" >"$HOME/inc-z6" &&
	global "[core]\n\tcompression = 6\n[includeIf \"gitdir:gd/repo/\"]\n\tpath = inc-z9\n" &&
	(cd gd/repo && seen 9) &&
	global "[includeIf \"gitdir:gd/repo/\"]\n\tpath = inc-z9\n[core]\n\tcompression = 6\n" &&
	(cd gd/repo && seen 6) &&
	: the repository config comes after all of ~/.gitconfig &&
	global "[includeIf \"gitdir:gd/repo/\"]\n\tpath = inc-z6\n" &&
	(cd gd/repo && seen 9 -c core.compression=9) &&
	: nested: include.path and includeIf in an included file &&
	printf "[include]\n\tpath = inc-z9\n" >"$HOME/inc-nest" &&
	printf "[includeIf \"gitdir:gd/\"]\n\tpath = inc-nest\n" >"$HOME/inc-nest2" &&
	global "[includeIf \"gitdir:gd/repo/\"]\n\tpath = inc-nest2\n" &&
	(cd gd/repo && seen 9) &&
	(cd "$HOME/hrepo" && seen "")
'

test_expect_success 'includeIf from -c and GIT_CONFIG_COUNT: absolute paths followed, relative ones refused as git' '
	(cd gd/repo && seen 9 -c "includeIf.gitdir:gd/repo/.path=$HOME/inc-z9") &&
	(cd gd/repo && seen "" -c "includeIf.gitdir:other/.path=$HOME/inc-z9") &&
	(cd gd/repo && seen 9 -c "includeIf.gitdir:gd/repo/.path=~/inc-z9") &&
	(
		cd gd/repo &&
		GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=includeIf.gitdir/i:GD/.path \
			GIT_CONFIG_VALUE_0="$HOME/inc-z9" &&
		export GIT_CONFIG_COUNT GIT_CONFIG_KEY_0 GIT_CONFIG_VALUE_0 &&
		seen 9
	) &&
	cat >expect <<-\EOF &&
	error: relative config includes must come from files
	fatal: unable to parse command-line config
	EOF
	(
		cd gd/repo &&
		test_expect_code 128 dirc -c includeIf.gitdir:gd/repo/.path=inc-z9 \
			hash-object ../../expect 2>../../err
	) &&
	test_cmp expect err &&
	: not followed, a relative path is no error &&
	(cd gd/repo && seen "" -c includeIf.gitdir:other/.path=inc-z9)
'

test_expect_success GIT 'includeIf from -c, relative: the messages of git' '
	(
		cd gd/repo &&
		test_expect_code 128 git -c includeIf.gitdir:gd/repo/.path=inc-z9 \
			hash-object ../../expect 2>../../expect.err &&
		test_expect_code 128 dirc -c includeIf.gitdir:gd/repo/.path=inc-z9 \
			hash-object ../../expect 2>../../err
	) &&
	test_cmp expect.err err
'

test_expect_success GIT_NEW 'gitdir:./ from -c: an error, and included (git 2.55; 2.39 did not include)' '
	(
		cd gd/repo &&
		git_new -c "includeIf.gitdir:./.path=$HOME/inc-z9" config --get core.compression >../../expect 2>../../expect.err &&
		dirc -c "includeIf.gitdir:./.path=$HOME/inc-z9" hash-object -w ../../expect >/dev/null 2>../../err
	) &&
	echo 9 >expect.value &&
	test_cmp expect.value expect &&
	echo "error: relative config include conditionals must come from files" >expect &&
	test_cmp expect err &&
	sort -u expect.err >expect.err.u &&
	test_cmp expect expect.err.u
'

test_expect_success 'hasconfig:remote.*.url: any remote URL of any file, the command line included' '
	test_when_finished "cp gitconfig.orig \"\$HOME/.gitconfig\"" &&
	cp gd/repo/.git/config repo-config.orig &&
	test_when_finished "cp repo-config.orig gd/repo/.git/config" &&
	global "[includeIf \"hasconfig:remote.*.url:https://example.com/**\"]\n\tpath = inc-z9\n" &&
	(cd gd/repo && seen "") &&
	printf "[remote \"origin\"]\n\turl = https://example.com/a/b.git\n" >>gd/repo/.git/config &&
	(cd gd/repo && seen 9) &&
	(cd "$HOME/hrepo" && seen "") &&
	(cd "$HOME/hrepo" && seen 9 -c remote.x.url=https://example.com/x) &&
	(cd "$HOME/hrepo" && seen "" -c remote.x.pushurl=https://example.com/x) &&
	(cd "$HOME/hrepo" && seen "" -c remote.url=https://example.com/x) &&
	(cd "$HOME/hrepo" && seen "" -c remote.x.url=https://example.org/x) &&
	: "*" does not cross a slash &&
	global "[includeIf \"hasconfig:remote.*.url:https://example.com/*\"]\n\tpath = inc-z9\n" &&
	(cd gd/repo && seen "") &&
	(cd gd/repo && seen 9 -c remote.y.url=https://example.com/y) &&
	: a URL in ~/.gitconfig, the condition in the repository config &&
	cp gitconfig.orig "$HOME/.gitconfig" &&
	cp repo-config.orig gd/repo/.git/config &&
	printf "[remote \"up\"]\n\turl = git@host:me/x\n" >>"$HOME/.gitconfig" &&
	printf "[includeIf \"hasconfig:remote.*.url:git@host:*/**\"]\n\tpath = %s\n" \
		"$HOME/inc-z9" >>gd/repo/.git/config &&
	(cd gd/repo && seen 9) &&
	: a URL a gitdir: include brings counts too &&
	cp gitconfig.orig "$HOME/.gitconfig" &&
	printf "[remote \"up\"]\n\turl = git@host:me/x\n" >"$HOME/inc-url" &&
	global "[includeIf \"gitdir:gd/\"]\n\tpath = inc-url\n" &&
	(cd "$HOME/hrepo" && seen "")
'

test_expect_success 'hasconfig: outside a repository, against the user and command-line config' '
	test_when_finished "cp gitconfig.orig \"\$HOME/.gitconfig\"" &&
	printf "[core]\n\tcompression = bogus\n" >"$HOME/inc-bad" &&
	mkdir -p "$HOME/norepo" &&
	echo text >"$HOME/norepo/f" &&
	global "[includeIf \"hasconfig:remote.*.url:https://example.com/**\"]\n\tpath = inc-bad\n" &&
	(
		cd "$HOME/norepo" &&
		dirc hash-object f &&
		test_expect_code 128 dirc -c remote.o.url=https://example.com/x hash-object f
	)
'

test_expect_success 'hasconfig: a file an includeIf brings in may not set a remote URL, when such a condition is tested' '
	test_when_finished "cp gitconfig.orig \"\$HOME/.gitconfig\"" &&
	echo "fatal: remote URLs cannot be configured in file directly or indirectly included by includeIf.hasconfig:remote.*.url" >expect &&
	printf "[remote \"r\"]\n\turl = https://example.com/r\n" >"$HOME/inc-url" &&
	printf "[include]\n\tpath = inc-url\n" >"$HOME/inc-url-nested" &&
	for text in \
		"[includeIf \"hasconfig:remote.*.url:**\"]\n\tpath = inc-url\n" \
		"[includeIf \"hasconfig:remote.*.url:nothing\"]\n\tpath = inc-url\n" \
		"[includeIf \"hasconfig:remote.*.url:nothing\"]\n\tpath = inc-url-nested\n" \
		"[includeIf \"gitdir:gd/\"]\n\tpath = inc-url\n[includeIf \"hasconfig:remote.*.url:x\"]\n\tpath = inc-z9\n" \
		"[includeIf \"hasconfig:remote.*.url:x\"]\n\tpath = inc-z9\n[includeIf \"gitdir:gd/\"]\n\tpath = inc-url\n"
	do
		global "$text" &&
		(
			cd gd/repo &&
			test_expect_code 128 dirc hash-object -w ../../expect 2>../../err
		) &&
		test_cmp expect err || return 1
	done &&
	: no hasconfig: condition tested, or no includeIf, no error &&
	global "[includeIf \"gitdir:gd/\"]\n\tpath = inc-url\n" &&
	(cd gd/repo && seen "") &&
	global "[include]\n\tpath = inc-url\n[includeIf \"hasconfig:remote.*.url:https://example.com/*\"]\n\tpath = inc-z9\n" &&
	(cd gd/repo && seen 9) &&
	global "[includeIf \"gitdir:nothing/\"]\n\tpath = inc-url\n[includeIf \"hasconfig:remote.*.url:x\"]\n\tpath = inc-z9\n" &&
	(cd gd/repo && seen "")
'

test_expect_success GIT 'hasconfig: the message and code of git' '
	test_when_finished "cp gitconfig.orig \"\$HOME/.gitconfig\"" &&
	for text in \
		"[includeIf \"hasconfig:remote.*.url:nothing\"]\n\tpath = inc-url-nested\n" \
		"[includeIf \"gitdir:gd/\"]\n\tpath = inc-url\n[includeIf \"hasconfig:remote.*.url:x\"]\n\tpath = inc-z9\n"
	do
		global "$text" &&
		(
			cd gd/repo &&
			test_expect_code 128 git hash-object -w ../../expect 2>../../expect.err &&
			test_expect_code 128 dirc hash-object -w ../../expect 2>../../err
		) &&
		test_cmp expect.err err || return 1
	done
'

test_expect_success 'onbranch: the branch HEAD is on, born or not, in every command' '
	test_when_finished "cp gitconfig.orig \"\$HOME/.gitconfig\"" &&
	test_when_finished "dirc -C gd/repo symbolic-ref HEAD refs/heads/master" &&
	for p in master "mas*" "*" "[m]aster"
	do
		global "[includeIf \"onbranch:$p\"]\n\tpath = inc-z9\n" &&
		(cd gd/repo/sub && seen 9) || return 1
	done &&
	for p in main "master/" "refs/heads/master" "*/master"
	do
		global "[includeIf \"onbranch:$p\"]\n\tpath = inc-z9\n" &&
		(cd gd/repo && seen "") || return 1
	done &&
	dirc -C gd/repo symbolic-ref HEAD refs/heads/topic/one &&
	for p in topic/ "topic/*" "topic/**" "**/one" "*/one"
	do
		global "[includeIf \"onbranch:$p\"]\n\tpath = inc-z9\n" &&
		(cd gd/repo && seen 9) || return 1
	done &&
	for p in "topic*" "*" topic
	do
		global "[includeIf \"onbranch:$p\"]\n\tpath = inc-z9\n" &&
		(cd gd/repo && seen "") || return 1
	done &&
	: a detached HEAD is on no branch, nor is HEAD outside refs/heads/ &&
	global "[includeIf \"onbranch:**\"]\n\tpath = inc-z9\n" &&
	dirc -C gd/repo symbolic-ref HEAD refs/tags/master &&
	(cd gd/repo && seen "") &&
	(cd "$HOME/hrepo" && seen 9) &&
	blob=$(dirc -C gd/repo hash-object -w ../../gitconfig.orig) &&
	tree=$(printf "100644 blob %s\tf\n" $blob | dirc -C gd/repo mktree) &&
	commit=$(echo c | dirc -C gd/repo commit-tree $tree) &&
	dirc -C gd/repo update-ref --no-deref HEAD $commit &&
	(cd gd/repo && seen "") &&
	: from -c too &&
	cp gitconfig.orig "$HOME/.gitconfig" &&
	(cd "$HOME/hrepo" && seen 9 -c "includeIf.onbranch:master.path=$HOME/inc-z9")
'

test_expect_success 'onbranch: in a reftable repository, and in a linked worktree (its own HEAD)' '
	test_when_finished "cp gitconfig.orig \"\$HOME/.gitconfig\"" &&
	test_when_finished "rm -rf gd/wt gd/repo/.git/worktrees" &&
	dirc init -q --ref-format=reftable gd/rt &&
	rt_git=none &&
	if test_have_prereq GIT_NEW
	then
		rt_git=git_new
	fi &&
	global "[includeIf \"onbranch:master\"]\n\tpath = inc-z9\n" &&
	(cd gd/rt && SEEN_GIT=$rt_git seen 9) &&
	dirc -C gd/rt symbolic-ref HEAD refs/heads/other &&
	(cd gd/rt && SEEN_GIT=$rt_git seen "") &&
	mkdir -p gd/repo/.git/worktrees/wt gd/wt &&
	echo "gitdir: $TRASH_DIRECTORY/gd/repo/.git/worktrees/wt" >gd/wt/.git &&
	echo "$TRASH_DIRECTORY/gd/wt/.git" >gd/repo/.git/worktrees/wt/gitdir &&
	echo ../.. >gd/repo/.git/worktrees/wt/commondir &&
	echo "ref: refs/heads/wtbranch" >gd/repo/.git/worktrees/wt/HEAD &&
	(cd gd/wt && seen "") &&
	global "[includeIf \"onbranch:wt*\"]\n\tpath = inc-z9\n" &&
	(cd gd/wt && seen 9) &&
	(cd gd/repo && seen "")
'

test_expect_success GIT 'init: gitdir: conditions hold for the repository made' '
	test_when_finished "cp gitconfig.orig \"\$HOME/.gitconfig\"" &&
	printf "[init]\n\tdefaultBranch = fromgitdir\n" >"$HOME/inc-branch" &&
	global "[includeIf \"gitdir:**/made*/\"]\n\tpath = inc-branch\n" &&
	git init -q made.git &&
	dirc init -q made.dirc &&
	dirc init -q other.dirc &&
	test_fsck_also made.dirc other.dirc &&
	git -C made.git symbolic-ref HEAD >expect &&
	dirc -C made.dirc symbolic-ref HEAD >actual &&
	test_cmp expect actual &&
	echo refs/heads/fromgitdir >expect &&
	test_cmp expect actual &&
	echo refs/heads/master >expect &&
	dirc -C other.dirc symbolic-ref HEAD >actual &&
	test_cmp expect actual
'

test_done
