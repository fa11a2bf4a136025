#!/bin/sh
test_description='init --shared and core.sharedRepository: the modes of what init and later commands create, as git'
. ./test-lib.sh
. "$TEST_DIRECTORY/lib-interop.sh"
. "$TEST_DIRECTORY/lib-init.sh"

test_expect_success 'setup: one template for git and dirc' '
	init_template
'

# Every value git knows, under one umask (three with LONG: make test-long).
if test_have_prereq LONG
then
	UMASKS="022 077 002" EXPECT_N=57
else
	UMASKS=022 EXPECT_N=19
fi

test_expect_success GIT 'init --shared=<value>: modes, setgid and config as git' '
	n=0 &&
	for u in $UMASKS
	do
		for v in "" =group =true =all =world =everybody =umask =false \
			=0 =1 =2 =0640 =0660 =0664 =0600 =0666 =0777 =9 =yes
		do
			both shared "umask $u && \$cmd init --shared$v x" &&
			same_as_git &&
			both shared-bare "umask $u && \$cmd init --bare --shared$v x.git" &&
			same_as_git &&
			n=$((n + 1)) || return 1
		done
	done &&
	test $n = $EXPECT_N
'

test_expect_success GIT 'the message of a shared repository, and re-init' '
	both msg "\$cmd init --shared x" && same_as_git &&
	test_grep "^Initialized empty shared Git repository in " dirc.out &&
	BOTH_SETUP="git init -q x" &&
	both remsg "\$cmd init --shared=all x" && same_as_git &&
	test_grep "^Reinitialized existing shared Git repository in " dirc.out &&
	unset BOTH_SETUP
'

test_expect_success GIT 'bad --shared values: refused as git, nothing made' '
	for v in 0444 0200 xyz 07 010
	do
		both badshared "\$cmd init --shared=\"$v\" x" &&
		same_as_git --no-tree &&
		test_path_is_missing badshared.dirc/x || return 1
	done &&
	for v in "" -1 8 " 1" " 0600"
	do
		both oddshared "\$cmd init --shared=\"$v\" x" &&
		same_as_git || return 1
	done &&
	both noshared "\$cmd init --no-shared x" &&
	test_cmp_codes git.code dirc.code
'

test_expect_success GIT 'core.sharedRepository from the global config, and --shared over it' '
	(
		HOME=$TRASH_DIRECTORY/home &&
		export HOME &&
		mkdir -p "$HOME" &&
		printf "[init]\n\tdefaultBranch = main\n[core]\n\tsharedRepository = 0640\n\tbare = false\n" >"$HOME/.gitconfig" &&
		cd "$TRASH_DIRECTORY" &&
		both global "umask 022 && \$cmd init x" && same_as_git &&
		test_grep "sharedrepository = 0640" global.dirc/x/.git/config &&
		both override "umask 022 && \$cmd init --bare --shared=0666 x" &&
		same_as_git &&
		test_grep "sharedrepository = 0666" override.dirc/x/config &&
		test_grep "bare = true" override.dirc/x/config
	)
'

test_expect_success GIT 'leading directories follow the umask, the repository the setting (git'\''s t0001)' '
	both deep "umask 002 && \$cmd init --bare --shared=0660 a/b/c" &&
	same_as_git &&
	(cd deep.dirc && ls -ld a a/b >../lsab.out && ls -ld a/b/c >../lsc.out) &&
	! grep -v -E "^drwxrw[sx]r-x" lsab.out &&
	! grep -v -E "^drwxrw[sx]---" lsc.out
'

# What dirc writes later in a shared repository: objects and their
# directories, the index, refs, reflogs.
test_expect_success GIT 'objects, the index, refs and reflogs made later: the modes of git' '
	n=0 &&
	for v in group all umask 0640 0600 0660
	do
		for u in 022 077
		do
			BOTH_SETUP="umask $u && git init -q --shared=$v r && echo one >r/f && mkdir r/d && echo two >r/d/g" &&
			both later "umask $u && cd r && \$cmd hash-object -w f >../blob && \$cmd update-index --add f d/g && \$cmd write-tree >../tree && \$cmd update-ref refs/heads/x \$(\$cmd commit-tree -m m \$(cat ../tree)) && \$cmd update-ref --create-reflog refs/heads/y refs/heads/x && \$cmd symbolic-ref HEAD refs/heads/x" &&
			same_as_git &&
			n=$((n + 1)) || return 1
		done
	done &&
	test $n = 12 &&
	unset BOTH_SETUP
'

test_expect_success GIT 'a bad core.sharedRepository fails only what creates files, as git' '
	for v in 0444 xyz
	do
		BOTH_SETUP="git init -q r && echo one >r/f && git -C r config core.sharedRepository $v" &&
		both badcfg-write "\$cmd -C r hash-object -w f" &&
		same_as_git &&
		both badcfg-index "\$cmd -C r update-index --add f" &&
		# update-index reports it for the path, then dies (git dies)
		test_cmp_codes git.code dirc.code &&
		sed -n -e "s/^fatal: //p" git.err >expect &&
		sed -n -e "s/^error: //p" dirc.err >actual &&
		head -n 1 actual >actual1 &&
		test_cmp expect actual1 &&
		test_path_is_missing badcfg-index.dirc/r/.git/index &&
		both badcfg-ref "\$cmd -C r update-ref refs/heads/x \$(git -c core.sharedRepository=0 -C r hash-object -w f)" &&
		test_cmp_codes git.code dirc.code &&
		both badcfg-read "\$cmd -C r hash-object f && \$cmd -C r cat-file -t \$(git -c core.sharedRepository=0 -C r hash-object -w f)" &&
		same_as_git || return 1
	done &&
	unset BOTH_SETUP
'

test_expect_success GIT 'git accepts the shared repositories dirc made and wrote' '
	git --git-dir=msg.dirc/x/.git fsck --strict &&
	git --git-dir=later.dirc/r/.git fsck --strict &&
	git --git-dir=deep.dirc/a/b/c fsck --strict
'

test_done
