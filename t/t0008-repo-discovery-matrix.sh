#!/bin/sh
test_description='repository discovery against git: every layout and environment, seen through rev-parse and the files a command writes'
. ./test-lib.sh
. "$TEST_DIRECTORY/lib-interop.sh"

# What the setup found, one question at a time (a failing one shows its
# exit code and message), from directory $1 with the environment in $2:
# $3 is git (asking rev-parse) or dirc (asking "test-tool repo-setup",
# which answers from what repo_open() found, as rev-parse would).
probe () {
	(
		cd "$1" &&
		for opt in --git-dir --absolute-git-dir --git-common-dir \
			--show-toplevel --show-prefix --show-cdup \
			--is-bare-repository --is-inside-work-tree \
			--is-inside-git-dir
		do
			if test "$3" = git
			then
				case $opt in
				--git-common-dir) q="--path-format=absolute $opt" ;;
				*) q=$opt ;;
				esac &&
				out=$(eval "$2 git rev-parse $q" 2>&1)
			else
				out=$(eval "$2 dirc test-tool repo-setup $opt" 2>&1)
			fi
			echo "$opt: $? $out"
		done
	)
}

# same_text EXPECT ACTUAL: two strings alike; else both in files and
# their diff (test_cmp), false.  A comparison without a cmp process.
same_text () {
	test "$1" = "$2" && return 0
	printf "%s\n" "$1" >expect &&
	printf "%s\n" "$2" >actual &&
	test_cmp expect actual
}

# probe_same DIR ENV: probe with git and with dirc, the same answers,
# in four processes where probe takes eighteen when the answers agree.
# First all the questions but --show-toplevel in one call for each side,
# --is-bare-repository first:
#  - both answer every one (exit 0, nothing on stderr) with the same
#    bytes: each asked alone is answered alike too, as rev-parse and
#    repo-setup answer them one after another from one setup, without
#    state between them (--path-format=absolute comes last, before
#    --git-common-dir, the only one it is for);
#  - both fail with nothing on stdout, the same exit code and the same
#    stderr: the setup failed (--is-bare-repository always answers once
#    there is a repository), before and whatever the question, so each
#    asked alone fails alike too.
# --show-toplevel, which fails outside a work tree, goes alone (exit
# code and output).  Anything else, a difference or a mixed outcome, is
# asked one question at a time as probe does, and compared.
probe_same () {
	ps_git=$(cd "$1" && eval "$2 git rev-parse --is-bare-repository \
		--git-dir --absolute-git-dir --show-prefix --show-cdup \
		--is-inside-work-tree --is-inside-git-dir \
		--path-format=absolute --git-common-dir" 2>"$TRASH_DIRECTORY/ps.git.err")
	ps_git_code=$?
	ps_dirc=$(cd "$1" && eval "$2 dirc test-tool repo-setup \
		--is-bare-repository --git-dir --absolute-git-dir \
		--show-prefix --show-cdup --is-inside-work-tree \
		--is-inside-git-dir --git-common-dir" 2>"$TRASH_DIRECTORY/ps.dirc.err")
	ps_dirc_code=$?
	if test "$ps_git_code" = "$ps_dirc_code" &&
		test "$ps_git" = "$ps_dirc" &&
		if test "$ps_git_code" = 0
		then
			! test -s ps.git.err && ! test -s ps.dirc.err
		else
			test -z "$ps_git" && test_cmp ps.git.err ps.dirc.err 2>/dev/null
		fi &&
		ps_git=$(cd "$1" && eval "$2 git rev-parse --show-toplevel" 2>&1
			echo "exit $?") &&
		ps_dirc=$(cd "$1" && eval "$2 dirc test-tool repo-setup --show-toplevel" 2>&1
			echo "exit $?") &&
		test "$ps_git" = "$ps_dirc"
	then
		return 0
	fi
	probe "$1" "$2" git >expect &&
	probe "$1" "$2" dirc >actual &&
	test_cmp expect actual || {
		echo "^^^ probe in \"$1\" with \"$2\"" >&2
		return 1
	}
}

test_expect_success 'setup: the layouts' '
	git init -q r &&
	mkdir -p r/sub/deep &&
	git init -q --bare b.git &&
	mkdir -p b.git/sub &&
	git init -q --separate-git-dir g-real g &&
	mkdir -p g/sub &&
	git init -q wtcfg &&
	mkdir wtcfg-tree &&
	mkdir -p wtcfg-tree/sub &&
	git -C wtcfg config core.worktree ../../wtcfg-tree &&
	git init -q barecfg &&
	git -C barecfg config core.bare true &&
	mkdir -p barecfg/sub &&
	git init -q main &&
	git -C main commit -q --allow-empty -m one &&
	git -C main worktree add -q ../linked &&
	mkdir -p linked/sub &&
	git init -q --bare nest.git &&
	mkdir -p nest.git/inner &&
	git init -q nest.git/inner &&
	mkdir -p outside/sub &&
	git init -q abswt &&
	git -C abswt config core.worktree "$TRASH_DIRECTORY/wtcfg-tree" &&
	git init -q noversion &&
	git -C noversion config --unset core.repositoryformatversion &&
	git -C noversion config core.bare true
'

test_expect_success GIT 'discovery from every directory: rev-parse as git' '
	n=0 &&
	while read -r dir env
	do
		probe_same "$dir" "$env" &&
		n=$((n + 1)) || return 1
	done <<-\EOF &&
	r
	r/sub
	r/sub/deep
	r/.git
	r/.git/objects
	r/.git/refs/heads
	b.git
	b.git/sub
	b.git/objects
	g
	g/sub
	g-real
	wtcfg
	wtcfg/.git
	wtcfg-tree
	wtcfg-tree/sub
	barecfg
	barecfg/sub
	barecfg/.git
	main
	linked
	linked/sub
	main/.git/worktrees/linked
	nest.git/inner
	nest.git
	abswt
	noversion
	noversion/.git
	EOF
	test $n = 28
'

test_expect_success GIT 'dirc rev-parse itself: the top, the prefix and the git directory, as git' '
	: >expect &&
	: >actual &&
	n=0 &&
	for d in r r/sub/deep b.git/sub g/sub wtcfg-tree/sub linked/sub \
		main/.git/worktrees/linked nest.git/inner
	do
		# the three in one call each first: answered (exit 0) alike,
		# each alone is too (rev-parse answers them one after another);
		# otherwise one at a time, each answer into expect and actual
		{
			rp_git=$(cd $d && git rev-parse --show-prefix \
				--absolute-git-dir --show-toplevel 2>&1) &&
			rp_dirc=$(cd $d && dirc rev-parse --show-prefix \
				--absolute-git-dir --show-toplevel 2>&1) &&
			test "$rp_git" = "$rp_dirc" ||
			(
				cd $d &&
				for opt in --show-toplevel --show-prefix --absolute-git-dir
				do
					git rev-parse $opt >>"$TRASH_DIRECTORY/expect" 2>&1
					dirc rev-parse $opt >>"$TRASH_DIRECTORY/actual" 2>&1
				done
			)
		} &&
		n=$((n + 1)) || return 1
	done &&
	test $n = 8 &&
	test_cmp expect actual
'

test_expect_success GIT 'GIT_DIR, GIT_WORK_TREE and friends: rev-parse as git' '
	n=0 &&
	while read -r dir env
	do
		probe_same "$dir" "$env" &&
		n=$((n + 1)) || return 1
	done <<-EOF &&
	. GIT_DIR=r/.git
	. GIT_DIR=$TRASH_DIRECTORY/r/.git
	r GIT_DIR=.git
	r/sub GIT_DIR=../.git
	r/sub GIT_DIR=$TRASH_DIRECTORY/r/.git
	outside GIT_DIR=../r/.git
	outside GIT_DIR=../r/.git GIT_WORK_TREE=../r
	r/sub GIT_DIR=$TRASH_DIRECTORY/r/.git GIT_WORK_TREE=$TRASH_DIRECTORY/r
	r/sub GIT_WORK_TREE=..
	r GIT_WORK_TREE=sub
	r/sub GIT_WORK_TREE=$TRASH_DIRECTORY/outside
	outside/sub GIT_DIR=../../r/.git GIT_WORK_TREE=..
	. GIT_DIR=b.git
	b.git GIT_DIR=.
	b.git/sub GIT_DIR=..
	b.git GIT_WORK_TREE=../outside
	. GIT_DIR=b.git GIT_WORK_TREE=outside
	. GIT_DIR=g/.git
	g/sub GIT_DIR=../.git
	. GIT_DIR=g-real
	. GIT_DIR=linked/.git
	linked GIT_DIR=.git
	. GIT_DIR=main/.git/worktrees/linked
	. GIT_DIR=wtcfg/.git
	wtcfg-tree GIT_DIR=../wtcfg/.git
	wtcfg-tree/sub GIT_DIR=../../wtcfg/.git
	. GIT_DIR=barecfg/.git
	. GIT_DIR=barecfg/.git GIT_WORK_TREE=barecfg
	. GIT_DIR=r/.git GIT_IMPLICIT_WORK_TREE=0
	r GIT_IMPLICIT_WORK_TREE=0
	r/sub GIT_CEILING_DIRECTORIES=$TRASH_DIRECTORY/r
	r/sub/deep GIT_CEILING_DIRECTORIES=$TRASH_DIRECTORY/r
	r/sub/deep GIT_CEILING_DIRECTORIES=$TRASH_DIRECTORY/r/sub
	r/sub/deep GIT_CEILING_DIRECTORIES=$TRASH_DIRECTORY/r/sub/
	r/sub/deep GIT_CEILING_DIRECTORIES=:$TRASH_DIRECTORY/r/sub
	r/sub/deep GIT_CEILING_DIRECTORIES=relative:$TRASH_DIRECTORY/r/sub/deep
	r GIT_CEILING_DIRECTORIES=$TRASH_DIRECTORY/r
	. GIT_DIR=nowhere
	. GIT_DIR=
	r GIT_WORK_TREE=
	b.git GIT_COMMON_DIR=$TRASH_DIRECTORY/r/.git
	EOF
	test $n = 41
'

test_expect_success GIT 'safe.bareRepository=explicit: implicit bare repositories are refused, as git' '
	n=0 &&
	for d in b.git b.git/sub r/.git r nest.git/inner
	do
		probe_same "$d" "GIT_CONFIG_PARAMETERS=\"'\''safe.bareRepository=explicit'\''\"" &&
		n=$((n + 1)) || return 1
	done &&
	test $n = 5 &&
	probe_same . "GIT_DIR=b.git GIT_CONFIG_PARAMETERS=\"'\''safe.bareRepository=explicit'\''\""
'

test_expect_success GIT 'broken .git files during discovery: the errors of git' '
	mkdir -p bad1 bad2 bad3 bad4 &&
	echo "gitdir: nowhere" >bad1/.git &&
	echo "nonsense" >bad2/.git &&
	printf "gitdir: \n" >bad3/.git &&
	printf "gitdir: ../r/.git\r\n" >bad4/.git &&
	for d in bad1 bad2 bad3 bad4
	do
		probe_same $d "" || return 1
	done
'

# Random .git files: pieces of gitfiles glued together by a fixed
# generator (awk, seeded), each answered as git answers it.
test_expect_success GIT 'random .git files (300 rounds): the answers and errors of git' '
	mkdir -p rnd/sub &&
	cat >gen.awk <<-\EOF &&
	BEGIN {
		srand(12)
		np = split("gitdir: |gitdir:|gitdir: ../r/.git|gitdir: " t "/r/.git|../r/.git|nowhere|\\r|\\n|\\n\\n| |x|/|..|.git|r|\\t|GITDIR: ", p, "|")
		for (i = 1; i <= n; i++) {
			k = int(rand() * 5) + 1
			s = ""
			for (j = 0; j < k; j++)
				s = s p[int(rand() * np) + 1]
			print s
		}
	}
	EOF
	awk -v n=300 -v t="$TRASH_DIRECTORY" -f gen.awk >rnd.list &&
	test_line_count = 300 rnd.list &&
	n=0 &&
	while IFS= read -r line
	do
		printf "$line" >rnd/.git &&
		rnd_git=$(
			cd rnd/sub &&
			git rev-parse --absolute-git-dir --show-toplevel --show-prefix 2>&1
			echo "exit $?"
		) &&
		rnd_dirc=$(
			cd rnd/sub &&
			dirc test-tool repo-setup --absolute-git-dir --show-toplevel --show-prefix 2>&1
			echo "exit $?"
		) &&
		same_text "$rnd_git" "$rnd_dirc" &&
		n=$((n + 1)) || {
			echo "^^^ round $((n + 1)): $line" >&2
			return 1
		}
	done <rnd.list &&
	test $n = 300
'

test_expect_success GIT 'a gitfile too large, and a HEAD that does not make a repository' '
	mkdir -p big &&
	{
		printf "gitdir: ../r/.git" &&
		awk "BEGIN { for (i = 1; i <= 200000; i++) print i }"
	} >big/.git &&
	probe_same big "" &&
	git init -q badhead &&
	echo "garbage" >badhead/.git/HEAD &&
	probe_same badhead "GIT_CEILING_DIRECTORIES=$TRASH_DIRECTORY" &&
	echo "ref:  refs/heads/x" >badhead/.git/HEAD &&
	probe_same badhead ""
'

test_expect_success GIT 'repository formats: what git refuses, dirc refuses with its message' '
	# one repository, its whole configuration written afresh each time
	# (the questions and hash-object without -w write nothing)
	git init -q fmt &&
	n=0 &&
	while read -r cfg
	do
		printf "$cfg" >fmt/.git/config &&
		probe_same fmt "" &&
		fmt_git=$(cd fmt && git hash-object ../r/.git/HEAD 2>&1; echo $?) &&
		fmt_dirc=$(cd fmt && dirc hash-object ../r/.git/HEAD 2>&1; echo $?) &&
		same_text "$fmt_git" "$fmt_dirc" &&
		n=$((n + 1)) || {
			echo "^^^ for $cfg" >&2
			return 1
		}
	done <<-\EOF &&
	[core]\n\trepositoryformatversion = 2\n
	[core]\n\trepositoryformatversion = 1\n[extensions]\n\tfoo = 1\n\tBar\n\tnoop\n
	[core]\n\trepositoryformatversion = 0\n[extensions]\n\tobjectformat = sha1\n
	[core]\n\trepositoryformatversion = 0\n[extensions]\n\tnoop-v1\n\tobjectFormat = sha1\n
	[core]\n\trepositoryformatversion = 1\n[extensions]\n\tobjectformat = bogus\n
	[core]\n\trepositoryformatversion = 1\n[extensions]\n\tobjectformat\n
	[core]\n\trepositoryformatversion = abc\n
	[core]\n\trepositoryformatversion = 0\n\tworktree\n
	[core]\n\tbare = maybe\n
	[core]\n\trepositoryformatversion = 1\n[extensions]\n\tworktreeConfig = true\n\tpreciousObjects\n\tnoop\n
	[core]\n\trepositoryformatversion = 0\n[extensions]\n\tunknownv0 = 1\n
	EOF
	test $n = 11
'

test_expect_success GIT 'discovery writes where git writes: index and objects from a subdirectory, via a gitfile, via GIT_DIR' '
	n=0 &&
	while read -r dir path env
	do
		rm -rf w-git w-dirc &&
		git init -q w-git &&
		git init -q w-dirc &&
		mkdir -p w-git/sub w-git/other w-dirc/sub w-dirc/other &&
		for who in git dirc
		do
			echo x >w-$who/sub/f &&
			(
				cd w-$who/$dir &&
				eval "$env $who update-index --add $path" &&
				git -C "$TRASH_DIRECTORY/w-$who" ls-files -s
			) >$who.ls 2>&1 || return 1
		done &&
		test_cmp git.ls dirc.ls &&
		n=$((n + 1)) || return 1
	done <<-\EOF &&
	sub f
	. sub/f GIT_DIR=.git
	sub f GIT_DIR=../.git GIT_WORK_TREE=..
	other ../sub/f GIT_WORK_TREE=.. GIT_DIR=../.git
	sub f GIT_INDEX_FILE=../alt-index
	EOF
	test $n = 5
'

test_done
