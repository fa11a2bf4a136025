#!/bin/sh
test_description='init: where the repository goes, as git decides it (GIT_DIR, GIT_WORK_TREE, <directory>, --bare), templates, branch names, messages'
. ./test-lib.sh
. "$TEST_DIRECTORY/lib-interop.sh"
. "$TEST_DIRECTORY/lib-init.sh"

test_expect_success 'setup: one template for git and dirc' '
	init_template
'

test_expect_success GIT 'init, init <dir>, init <deep/dir>: as git' '
	both plain "\$cmd init" && same_as_git &&
	both arg "\$cmd init new" && same_as_git &&
	both deep "\$cmd init a/b/c" && same_as_git &&
	both quiet "\$cmd init -q x" && same_as_git &&
	test_must_be_empty dirc.out
'

test_expect_success GIT 'init --bare, dirc --bare init, init --bare <dir>: as git' '
	both bare "\$cmd init --bare" && same_as_git &&
	both gbare "\$cmd --bare init" && same_as_git &&
	both gbare-dir "\$cmd --bare init x.git" && same_as_git &&
	both bare-dir "\$cmd init --bare x.git" && same_as_git
'

test_expect_success GIT 'GIT_DIR=$PWD init --bare <dir>: the directory wins, $PWD is untouched' '
	both cmdline-wins "GIT_DIR=\$PWD \$cmd init --bare newdir" &&
	same_as_git &&
	test_path_is_file cmdline-wins.dirc/newdir/HEAD &&
	test_path_is_missing cmdline-wins.dirc/HEAD &&
	both cmdline-wins2 "mkdir other && GIT_DIR=other \$cmd --bare init newdir" &&
	same_as_git &&
	test_path_is_missing cmdline-wins2.dirc/other/HEAD
'

test_expect_success GIT 'GIT_DIR=.git init: not bare (bare = false), as git' '
	both dotgit "GIT_DIR=.git \$cmd init" && same_as_git &&
	test_grep "bare = false" dotgit.dirc/.git/config &&
	both subdotgit "mkdir sub && GIT_DIR=sub/.git \$cmd init" &&
	same_as_git &&
	both pwd "GIT_DIR=\$PWD \$cmd init" && same_as_git &&
	test_grep "bare = true" pwd.dirc/config &&
	both dot "GIT_DIR=. \$cmd init" && same_as_git &&
	both other "GIT_DIR=x.git \$cmd init" && same_as_git &&
	both other-rel "mkdir d && GIT_DIR=../x.git \$cmd -C d init" &&
	same_as_git &&
	both dir-rel "GIT_DIR=x \$cmd init newdir" && same_as_git &&
	test_path_is_file dir-rel.dirc/newdir/x/HEAD
'

test_expect_success GIT 'GIT_DIR with missing parents: the errors of git' '
	both missing-wt "GIT_DIR=nd/.git \$cmd init" && same_as_git &&
	test_grep "^fatal: Cannot access work tree" dirc.err &&
	both missing-parent "GIT_DIR=nd/x/y \$cmd init" && same_as_git &&
	test_grep "^fatal: Invalid path" dirc.err
'

test_expect_success GIT 'GIT_WORK_TREE without GIT_DIR, or with --bare: refused as git, nothing made' '
	msg="fatal: GIT_WORK_TREE (or --work-tree=<directory>) not allowed without specifying GIT_DIR (or --git-dir=<directory>)" &&
	both wt-alone "GIT_WORK_TREE=\$PWD \$cmd init" && same_as_git &&
	echo "$msg" >expect &&
	test_cmp expect dirc.err &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	both wt-bare "GIT_WORK_TREE=\$PWD \$cmd --bare init" && same_as_git &&
	both wt-bare2 "GIT_WORK_TREE=\$PWD GIT_DIR=g \$cmd init --bare" &&
	same_as_git &&
	both wt-worktree "\$cmd --work-tree=. init" && same_as_git &&
	both wt-dir "GIT_WORK_TREE=\$PWD \$cmd init newdir" &&
	same_as_git --no-tree &&
	test_path_is_missing wt-dir.dirc/newdir
'

test_expect_success GIT 'GIT_DIR with GIT_WORK_TREE: core.worktree as git writes it' '
	both gd-wt "mkdir wt && GIT_DIR=x GIT_WORK_TREE=wt \$cmd init" &&
	same_as_git &&
	test_grep "worktree = $TRASH_DIRECTORY/gd-wt/wt" gd-wt.dirc/x/config &&
	both gd-wt-pwd "GIT_DIR=x.git GIT_WORK_TREE=\$PWD \$cmd init" &&
	same_as_git &&
	both gd-wt-dotgit "mkdir wt && GIT_DIR=wt/.git GIT_WORK_TREE=wt \$cmd init" &&
	same_as_git &&
	test_grep -v worktree gd-wt-dotgit.dirc/wt/.git/config &&
	both gd-wt-flags "mkdir wt && \$cmd --git-dir=x --work-tree=wt init" &&
	same_as_git &&
	both gd-wt-missing "GIT_DIR=x GIT_WORK_TREE=nowhere \$cmd init" &&
	same_as_git
'

test_expect_success GIT 'dirc reads what it wrote: rev-parse of the GIT_DIR+GIT_WORK_TREE repository' '
	mkdir -p gdwt/wt &&
	(
		cd gdwt &&
		GIT_DIR=x GIT_WORK_TREE=wt dirc init -q &&
		GIT_DIR=x git rev-parse --show-toplevel --is-bare-repository >../expect &&
		GIT_DIR=x dirc rev-parse --show-toplevel --is-bare-repository >../actual
	) &&
	test_cmp expect actual
'

# The config of the repository to re-init keeps the tests' object format
# (in SHA-256, version 1 and extensions.objectFormat).
test_expect_success GIT 're-init: the message, and the core settings rewritten as git does' '
	case $OID_ALGO in
	sha1) v=0 ext= ;;
	*) v=1 ext="[extensions]\\n\\tobjectformat = $OID_ALGO\\n" ;;
	esac &&
	BOTH_SETUP="git init -q r && printf \"[core]\\n\\trepositoryformatversion = $v\\n\\tbare = true\\n\\tfilemode=false ; mine\\n[user]\\n\\tname = Me\\n$ext\" >r/.git/config" &&
	both reinit "\$cmd init r" &&
	unset BOTH_SETUP &&
	same_as_git &&
	test_grep "^Reinitialized existing Git repository in $TRASH_DIRECTORY/reinit/r/.git/\$" dirc.out
'

test_expect_success GIT 're-init with a core setting given twice: refused as git, config untouched' '
	BOTH_SETUP="git init -q r && printf \"[core]\\n\\tbare = false\\n\" >>r/.git/config" &&
	both reinit-twice "\$cmd init r" &&
	unset BOTH_SETUP &&
	same_as_git &&
	test_grep "^fatal: could not set .core.bare. to .false.\$" dirc.err &&
	git init -q reinit-twice.orig &&
	test_config_order_new reinit-twice.orig/.git/config &&
	printf "[core]\n\tbare = false\n" >>reinit-twice.orig/.git/config &&
	test_cmp reinit-twice.orig/.git/config reinit-twice.dirc/r/.git/config
'

test_expect_success GIT 're-init of a bare repository, and with -b: as git' '
	BOTH_SETUP="git init -q --bare r.git" &&
	both reinit-bare "\$cmd init --bare r.git" && same_as_git &&
	both reinit-bare-b "\$cmd init --bare -b x r.git" && same_as_git &&
	both reinit-bare-qb "\$cmd init --bare -q -b x r.git" && same_as_git &&
	test_grep "^warning: re-init: ignored --initial-branch=x\$" dirc.err &&
	unset BOTH_SETUP
'

test_expect_success GIT 're-init of a repository with a bad format: refused as git' '
	BOTH_SETUP="git init -q r && git -C r config core.repositoryformatversion 2" &&
	both reinit-v2 "\$cmd init r" &&
	same_as_git &&
	test_grep "^fatal: Expected git repo version <= 1, found 2\$" dirc.err &&
	BOTH_SETUP="git init -q r && printf \"[core\\n\" >>r/.git/config" &&
	both reinit-badcfg "\$cmd init r" &&
	unset BOTH_SETUP &&
	same_as_git
'

test_expect_success GIT 're-init on a .git file: the repository it names' '
	BOTH_SETUP="git init -q --separate-git-dir real r" &&
	both reinit-gitfile "\$cmd -C r init" &&
	unset BOTH_SETUP &&
	same_as_git &&
	test_grep "^Reinitialized existing Git repository in $TRASH_DIRECTORY/reinit-gitfile/real/\$" dirc.out
'

test_expect_success GIT 'init over a broken .git file: the error of git' '
	both broken-gitfile "echo \"gitdir: nowhere\" >.git && \$cmd init" &&
	same_as_git &&
	both broken-gitfile2 "echo junk >.git && \$cmd init" &&
	same_as_git
'

test_expect_success GIT 're-init from a linked worktree: succeeds, nothing of the worktree changes' '
	BOTH_SETUP="git init -q main && git -C main commit -q --allow-empty -m one && git -C main worktree add -q ../linked && rm main/.git/info/exclude" &&
	both linked "\$cmd -C linked init" &&
	unset BOTH_SETUP &&
	same_as_git &&
	test_grep "^Reinitialized existing Git repository in $TRASH_DIRECTORY/linked/main/.git/worktrees/linked/\$" dirc.out &&
	test_path_is_file linked.dirc/main/.git/info/exclude &&
	test_path_is_missing linked.dirc/main/.git/worktrees/linked/info
'

test_expect_success GIT '--template: relative, empty, missing, and init.templateDir with ~' '
	both tmpl-rel "\$cmd init --template=../tmpl x" && same_as_git &&
	both tmpl-empty "\$cmd init --template= x" && same_as_git &&
	both tmpl-missing "\$cmd init --template=nowhere x" && same_as_git &&
	test_grep "^warning: templates not found in $TRASH_DIRECTORY/tmpl-missing/nowhere\$" dirc.err &&
	(
		sane_home="$HOME" &&
		HOME=$TRASH_DIRECTORY/home &&
		export HOME &&
		mkdir -p "$HOME" &&
		printf "[init]\n\ttemplateDir = ~/../tmpl\n\tdefaultBranch = main\n" >"$HOME/.gitconfig" &&
		unset GIT_TEMPLATE_DIR &&
		cd "$sane_home" &&
		both tmpl-tilde "\$cmd init x" && same_as_git &&
		test_cmp "$TRASH_DIRECTORY/tmpl/description" tmpl-tilde.dirc/x/.git/description
	)
'

test_expect_success GIT 'a template whose config has a format git cannot use: not copied' '
	cp -R tmpl tmpl-v2 &&
	printf "[core]\n\trepositoryformatversion = 2\n" >tmpl-v2/config &&
	both tv2 "\$cmd init --template=\"$TRASH_DIRECTORY/tmpl-v2\" x" &&
	same_as_git &&
	test_grep "^warning: not copying templates from" dirc.err &&
	printf "[core]\n\tlogallrefupdates = false\n\tbare = true\n" >tmpl-v2/config &&
	both tmpl-cfg "\$cmd init --template=\"$TRASH_DIRECTORY/tmpl-v2\" x" &&
	same_as_git &&
	test_grep "logallrefupdates = false" tmpl-cfg.dirc/x/.git/config
'

test_expect_success GIT '-b and init.defaultBranch: git'\''s validation and messages' '
	both b-bad "\$cmd init -b \"a b\" x" && same_as_git --no-tree &&
	echo "fatal: invalid initial branch name: '\''a b'\''" >expect &&
	test_cmp expect dirc.err &&
	test_path_is_missing b-bad.dirc/x &&
	both db-env "GIT_TEST_DEFAULT_INITIAL_BRANCH_NAME=\"with space\" \$cmd init x" &&
	same_as_git --no-tree &&
	echo "fatal: invalid branch name: init.defaultBranch = with space" >expect &&
	test_cmp expect dirc.err &&
	both db-cfg "\$cmd -c init.defaultBranch=bad..name init x" &&
	same_as_git --no-tree &&
	both db-env-ok "GIT_TEST_DEFAULT_INITIAL_BRANCH_NAME=envb \$cmd -c init.defaultBranch=cfgb init x" &&
	same_as_git &&
	echo "ref: refs/heads/envb" >expect &&
	test_cmp expect db-env-ok.dirc/x/.git/HEAD &&
	both db-empty "GIT_TEST_DEFAULT_INITIAL_BRANCH_NAME= \$cmd -c init.defaultBranch=cfgb init x" &&
	same_as_git &&
	both db-noval "printf \"[init]\\n\\tdefaultBranch\\n\" >cfg && GIT_CONFIG_GLOBAL=cfg \$cmd init -q x" &&
	same_as_git --no-tree
'

test_expect_success GIT_NEW 'the hint on the initial branch: git 2.55'\''s text, colour with color.advice, none with -q' '
	mkdir nohome &&
	(
		HOME=$TRASH_DIRECTORY/nohome &&
		export HOME &&
		BOTH_GIT=git_new &&
		# (--template: the wrapper of a build sets its own)
		both hint "\$cmd init --template=\"\$GIT_TEMPLATE_DIR\" x" && same_as_git &&
		test_grep "^hint: Using .master. as the name for the initial branch" dirc.err &&
		test_line_count = 13 dirc.err &&
		both hint-color "\$cmd -c color.advice=always init --template=\"\$GIT_TEMPLATE_DIR\" x" && same_as_git &&
		test_grep "$(printf "^\\033\\[33mhint: ")" dirc.err &&
		test_grep "$(printf "^\\033\\[33mhint:\\033\\[m\$")" dirc.err &&
		both hint-nocolor "\$cmd -c color.ui=always -c color.advice=never init --template=\"\$GIT_TEMPLATE_DIR\" x" &&
		same_as_git &&
		both hint-ui "\$cmd -c color.ui=always init --template=\"\$GIT_TEMPLATE_DIR\" x" && same_as_git &&
		test_grep -v "$(printf "\033")" dirc.err &&
		both hint-slot "\$cmd -c color.advice=always -c color.advice.hint=\"bold #ff0000\" init --template=\"\$GIT_TEMPLATE_DIR\" x" &&
		same_as_git &&
		both hint-bad "\$cmd -c color.advice=maybe init --template=\"\$GIT_TEMPLATE_DIR\" x" &&
		test_cmp_codes git.code dirc.code &&
		both hint-q "\$cmd init -q --template=\"\$GIT_TEMPLATE_DIR\" x" && same_as_git &&
		test_must_be_empty dirc.err
	)
'

test_expect_success GIT_NEW 'advice.defaultBranchName: false silences the hint, true drops how to, a bad value is fatal (git 2.55)' '
	mkdir nohome2 &&
	(
		HOME=$TRASH_DIRECTORY/nohome2 &&
		export HOME &&
		BOTH_GIT=git_new &&
		# (--template: the wrapper of a build sets its own)
		both adv-off "\$cmd -c advice.defaultBranchName=false init --template=\"\$GIT_TEMPLATE_DIR\" x" &&
		same_as_git &&
		test_must_be_empty dirc.err &&
		both adv-on "\$cmd -c advice.defaultBranchName init --template=\"\$GIT_TEMPLATE_DIR\" x" &&
		same_as_git &&
		test_line_count = 11 dirc.err &&
		test_grep -v "Disable this message" dirc.err &&
		both adv-bad "\$cmd -c advice.defaultBranchName=maybe -c init.defaultBranch=b init --template=\"\$GIT_TEMPLATE_DIR\" x" &&
		same_as_git --no-tree &&
		echo "fatal: bad boolean config value '\''maybe'\'' for '\''advice.defaultbranchname'\''" >expect &&
		test_cmp expect dirc.err &&
		test_path_is_missing adv-bad.dirc/x/.git &&
		both adv-bad-reinit "\$cmd init -q --template=\"\$GIT_TEMPLATE_DIR\" x && \$cmd -c advice.defaultBranchName=maybe init --template=\"\$GIT_TEMPLATE_DIR\" x" &&
		same_as_git
	)
'

test_expect_success 'the hint on the initial branch: the lines of git 2.55, none with advice.defaultBranchName=false' '
	(
		HOME=$TRASH_DIRECTORY &&
		export HOME &&
		dirc init -q hint-none 2>err &&
		test_must_be_empty err &&
		dirc init hint-text 2>err >/dev/null &&
		cat >expect <<-\EOF &&
		hint: Using '\''master'\'' as the name for the initial branch. This default branch name
		hint: will change to "main" in Git 3.0. To configure the initial branch name
		hint: to use in all of your new repositories, which will suppress this warning,
		hint: call:
		hint:
		hint: 	git config --global init.defaultBranch <name>
		hint:
		hint: Names commonly chosen instead of '\''master'\'' are '\''main'\'', '\''trunk'\'' and
		hint: '\''development'\''. The just-created branch can be renamed via this command:
		hint:
		hint: 	git branch -m <name>
		hint:
		hint: Disable this message with "git config set advice.defaultBranchName false"
		EOF
		test_cmp expect err &&
		dirc -c advice.defaultBranchName=false init hint-off 2>err >/dev/null &&
		test_must_be_empty err &&
		test_must_fail dirc -c advice.defaultBranchName=maybe init no-hint-bad 2>err &&
		test_path_is_missing no-hint-bad
	)
'

test_expect_success GIT '--object-format and GIT_DEFAULT_HASH: both formats as git, bad names refused' '
	for f in sha1 sha256
	do
		both of-$f "\$cmd init --object-format=$f x" && same_as_git &&
		both dh-$f "GIT_DEFAULT_HASH=$f \$cmd init x" && same_as_git &&
		both of-dh-$f "GIT_DEFAULT_HASH=md5 \$cmd init --object-format=$f x" &&
		same_as_git &&
		test "$(dirc -C of-$f.dirc/x rev-parse --show-object-format)" = $f &&
		test "$(dirc -C dh-$f.dirc/x rev-parse --show-object-format)" = $f ||
		return 1
	done &&
	test_grep "objectformat = sha256" of-sha256.dirc/x/.git/config &&
	test_grep "repositoryformatversion = 1" of-sha256.dirc/x/.git/config &&
	both of-bad "\$cmd init --object-format=md5 x" && same_as_git --no-tree &&
	echo "fatal: unknown hash algorithm '\''md5'\''" >expect &&
	test_cmp expect dirc.err &&
	test_path_is_missing of-bad.dirc/x &&
	both dh-bad "GIT_DEFAULT_HASH=sha3 \$cmd init -q x" &&
	test_cmp_codes git.code dirc.code &&
	echo "fatal: unknown hash algorithm '\''sha3'\''" >expect &&
	test_cmp expect dirc.err &&
	test_path_is_missing dh-bad.dirc/x
'

test_expect_success GIT 'reinit: --object-format may only name the hash the repository has' '
	for f in sha1 sha256
	do
		case $f in sha1) o=sha256 ;; *) o=sha1 ;; esac &&
		BOTH_SETUP="git init -q --object-format=$f x" &&
		both re-$f "\$cmd init -q --object-format=$f x" &&
		same_as_git &&
		both re-other-$f "\$cmd init -q --object-format=$o x" &&
		same_as_git &&
		test "$(cat dirc.code)" = 128 &&
		echo "fatal: attempt to reinitialize repository with different hash" >expect &&
		test_cmp expect dirc.err || return 1
	done &&
	unset BOTH_SETUP
'

# git 2.39 takes GIT_DEFAULT_HASH over an existing repository's format on
# reinit and writes the other hash into its config: the repository's ids
# no longer match it.  dirc keeps the format a repository has.
test_expect_success GIT 'reinit: GIT_DEFAULT_HASH does not change an existing repository' '
	for f in sha1 sha256
	do
		case $f in sha1) o=sha256 ;; *) o=sha1 ;; esac &&
		rm -rf re-dh && git init -q --object-format=$f re-dh &&
		cp re-dh/.git/config config.before &&
		GIT_DEFAULT_HASH=$o dirc init -q re-dh &&
		test_cmp config.before re-dh/.git/config &&
		test "$(dirc -C re-dh rev-parse --show-object-format)" = $f || return 1
	done
'

test_expect_success GIT 'incompatible options: the messages and exit codes of git' '
	both sep-bare "\$cmd init --bare --separate-git-dir goop.git bare.git" &&
	same_as_git --no-tree &&
	test_grep "cannot be used together" dirc.err &&
	test_path_is_missing sep-bare.dirc/bare.git &&
	both sep-implicit "mkdir bare.git && GIT_DIR=. \$cmd -C bare.git init --separate-git-dir goop.git" &&
	same_as_git &&
	echo "fatal: --separate-git-dir incompatible with bare repository" >expect &&
	test_cmp expect dirc.err &&
	BOTH_SETUP="git init -q --bare bare.git && git -C bare.git commit-tree -m x \$(git -C bare.git write-tree) >c && git -C bare.git update-ref refs/heads/master \$(cat c) && git -C bare.git worktree add -q --detach ../linkwt" &&
	both sep-in-wt "\$cmd -C linkwt init --separate-git-dir seprepo" &&
	unset BOTH_SETUP &&
	same_as_git &&
	test_grep "incompatible" dirc.err &&
	both too-many "\$cmd init a b" &&
	test_cmp_codes git.code dirc.code &&
	test_cmp git.out dirc.out &&
	echo 129 >expect &&
	test_cmp expect dirc.code &&
	# git 2.45 added --ref-format to the usage (git 2.55 shows it there)
	sed -e "s/^usage: git /usage: dirc /" \
		-e "/--object-format=<format>]\$/a\\         [--ref-format=<format>]" \
		git.err >expect &&
	test_cmp expect dirc.err &&
	both not-a-dir ">file && \$cmd init file" && same_as_git &&
	both not-a-dir2 "mkdir d && >d/a && \$cmd init d/a/b" && same_as_git &&
	both shared-bad "\$cmd init --shared=bogus x" && same_as_git --no-tree &&
	test_path_is_missing shared-bad.dirc/x
'

test_expect_success GIT 'GIT_OBJECT_DIRECTORY: the object store is made there, as git' '
	both objdir "GIT_OBJECT_DIRECTORY=\$PWD/objs \$cmd init x" && same_as_git &&
	test_path_is_dir objdir.dirc/objs/pack &&
	test_path_is_missing objdir.dirc/x/.git/objects
'

test_expect_success GIT 'core.logAllRefUpdates from the global config is not written, as git' '
	both logall "\$cmd -c core.logAllRefUpdates=false init x" && same_as_git &&
	test_grep -v logallrefupdates logall.dirc/x/.git/config
'

# git 2.39 has no init.defaultObjectFormat (it came in 2.45): the
# setting is not read, from -c or from the global config.  Run without
# GIT_DEFAULT_HASH (which would win over it anyway), so that each
# repository is SHA-1 whatever the setting names, in either test mode.
test_expect_success 'init.defaultObjectFormat (git 2.49; git 2.39 has none): from -c and the user'"'"'s config, after GIT_DEFAULT_HASH' '
	printf "[init]\n\tdefaultObjectFormat = sha256\n" >dof256 &&
	printf "[init]\n\tdefaultObjectFormat = sha1\n" >dof1 &&
	for f in sha1 sha256
	do
		rm -rf dof-c-$f dof-g-$f dof-e-$f &&
		(unset GIT_DEFAULT_HASH && dirc -c init.defaultObjectFormat=$f init -q dof-c-$f) &&
		test "$(dirc -C dof-c-$f rev-parse --show-object-format)" = $f &&
		case $f in sha1) g=dof1 ;; *) g=dof256 ;; esac &&
		(unset GIT_DEFAULT_HASH &&
		 GIT_CONFIG_GLOBAL="$TRASH_DIRECTORY/$g" dirc init -q dof-g-$f) &&
		test "$(dirc -C dof-g-$f rev-parse --show-object-format)" = $f &&
		GIT_DEFAULT_HASH=sha1 GIT_CONFIG_GLOBAL="$TRASH_DIRECTORY/$g" dirc init -q dof-e-$f &&
		test "$(dirc -C dof-e-$f rev-parse --show-object-format)" = sha1 ||
		return 1
	done
'

test_expect_success 'unknown init.defaultObjectFormat and init.defaultRefFormat: a warning each, in file order, on every run (git 2.55)' '
	printf "[init]\n\tdefaultRefFormat = garbage\n\tdefaultObjectFormat = garbage\n" >dfmt-bad &&
	cat >expect <<-\EOF &&
	warning: unknown ref storage format '\''garbage'\''
	warning: unknown hash algorithm '\''garbage'\''
	EOF
	rm -rf dfmt &&
	GIT_CONFIG_GLOBAL="$TRASH_DIRECTORY/dfmt-bad" dirc init -q dfmt 2>err &&
	test_cmp expect err &&
	test "$(dirc -C dfmt rev-parse --show-object-format)" = "$OID_ALGO" &&
	test "$(dirc -C dfmt rev-parse --show-ref-format)" = files &&
	: what the environment or an option gives does not silence them &&
	GIT_CONFIG_GLOBAL="$TRASH_DIRECTORY/dfmt-bad" GIT_DEFAULT_HASH=sha1 \
		GIT_DEFAULT_REF_FORMAT=files dirc init -q dfmt 2>err &&
	test_cmp expect err &&
	GIT_CONFIG_GLOBAL="$TRASH_DIRECTORY/dfmt-bad" dirc init -q \
		--object-format=$OID_ALGO --ref-format=files dfmt 2>err &&
	test_cmp expect err &&
	: a later good value wins, an earlier one is forgotten &&
	rm -rf dfmt2 dfmt3 &&
	(
		unset GIT_DEFAULT_HASH &&
		dirc -c init.defaultObjectFormat=garbage -c init.defaultObjectFormat=sha256 init -q dfmt2 2>err &&
		echo "warning: unknown hash algorithm '\''garbage'\''" >expect &&
		test_cmp expect err &&
		test "$(dirc -C dfmt2 rev-parse --show-object-format)" = sha256 &&
		dirc -c init.defaultObjectFormat=sha256 -c init.defaultObjectFormat=garbage init -q dfmt3 2>err &&
		test_cmp expect err &&
		test "$(dirc -C dfmt3 rev-parse --show-object-format)" = sha1
	)
'

test_expect_success GIT_NEW 'unknown init.default*Format: the warnings and the repository of git 2.55' '
	printf "[feature]\n\texperimental\n[init]\n\tdefaultRefFormat = garbage\n\tdefaultObjectFormat = garbage\n\tdefaultObjectFormat = sha1\n" >dfmt-mixed &&
	BOTH_GIT=git_new &&
	both dfmt-new "GIT_CONFIG_GLOBAL=\"$TRASH_DIRECTORY/dfmt-mixed\" \$cmd init -q --template=\"\$GIT_TEMPLATE_DIR\" x" &&
	same_as_git &&
	test_line_count = 2 dirc.err &&
	both dfmt-new-env "GIT_DEFAULT_HASH=sha1 GIT_CONFIG_GLOBAL=\"$TRASH_DIRECTORY/dfmt-bad\" \$cmd init -q --template=\"\$GIT_TEMPLATE_DIR\" x" &&
	same_as_git &&
	both dfmt-noval "printf \"[init]\\n\\tdefaultObjectFormat\\n\" >cfg && GIT_CONFIG_GLOBAL=\$PWD/cfg \$cmd init -q --template=\"\$GIT_TEMPLATE_DIR\" x" &&
	same_as_git --no-tree &&
	test_path_is_missing dfmt-noval.dirc/x &&
	for k in defaultObjectFormat defaultRefFormat
	do
		both dfmt-noval-c "\$cmd -c init.$k init -q --template=\"\$GIT_TEMPLATE_DIR\" x" &&
		same_as_git --no-tree &&
		test_path_is_missing dfmt-noval-c.dirc/x &&
		both dfmt-noval-inc "printf \"[x]\\n[init]\\n\\t$k\\n\" >inc && printf \"[include]\\n\\tpath = inc\\n\" >cfg && GIT_CONFIG_GLOBAL=\$PWD/cfg \$cmd init -q --template=\"\$GIT_TEMPLATE_DIR\" x" &&
		same_as_git --no-tree &&
		test_path_is_missing dfmt-noval-inc.dirc/x || return 1
	done &&
	BOTH_SETUP="git init -q x && printf \"[init]\\n\\tdefaultRefFormat\\n\" >>x/.git/config" &&
	both dfmt-noval-repo "\$cmd init -q --template=\"\$GIT_TEMPLATE_DIR\" x" &&
	same_as_git &&
	unset BOTH_GIT BOTH_SETUP
'

# git 2.55 reads init.defaultObjectFormat and init.defaultRefFormat as
# it parses the user's configuration and -c, a value required: without
# one the configuration does not parse (git 2.39 does not read them).
test_expect_success 'init.defaultObjectFormat, init.defaultRefFormat with no value: the configuration does not parse (git 2.55)' '
	printf "[core]\n\tbare = false\n[init]\n\tdefaultObjectFormat\n" >noval-obj &&
	printf "[init]\n\tdefaultRefFormat\n" >noval-ref &&
	printf "[include]\n\tpath = noval-ref\n" >noval-inc &&
	rm -rf noval &&
	for k in defaultObjectFormat defaultRefFormat
	do
		l=$(echo $k | tr A-Z a-z) &&
		test_expect_code 128 dirc -c init.$k init noval 2>err &&
		printf "error: missing value for '\''init.%s'\''\nfatal: unable to parse command-line config\n" $l >expect &&
		test_cmp expect err &&
		test_path_is_missing noval || return 1
	done &&
	test_expect_code 128 env GIT_CONFIG_GLOBAL="$TRASH_DIRECTORY/noval-obj" dirc init noval 2>err &&
	cat >expect <<-EOF &&
	error: missing value for '\''init.defaultobjectformat'\''
	fatal: bad config line 4 in file $TRASH_DIRECTORY/noval-obj
	EOF
	test_cmp expect err &&
	test_path_is_missing noval &&
	test_expect_code 128 env GIT_CONFIG_GLOBAL="$TRASH_DIRECTORY/noval-inc" dirc init noval 2>err &&
	cat >expect <<-EOF &&
	error: missing value for '\''init.defaultrefformat'\''
	fatal: bad config line 2 in file $TRASH_DIRECTORY/noval-ref
	EOF
	test_cmp expect err &&
	test_path_is_missing noval &&
	: re-init: the same, the repository untouched &&
	dirc init -q noval &&
	cp noval/.git/config noval-config.before &&
	test_expect_code 128 dirc -c init.defaultRefFormat init noval 2>err &&
	test_grep "unable to parse command-line config" err &&
	test_cmp noval-config.before noval/.git/config &&
	: not read from the configuration of the repository &&
	cat noval-ref >>noval/.git/config &&
	dirc init -q noval 2>err &&
	test_must_be_empty err &&
	: a value, even an unknown one, parses &&
	dirc -c init.defaultObjectFormat= init -q noval 2>err &&
	echo "warning: unknown hash algorithm '\'''\''" >expect &&
	test_cmp expect err
'

# git 2.55 sets the extensions before core.repositoryformatversion: a new
# repository's config opens with [extensions] (git 2.39 put objectformat
# after [core]).  Re-init sets each where it is.
test_expect_success 'the config of a SHA-256 or reftable repository: [extensions] first, as git 2.55' '
	rm -rf ord-s ord-sr ord-sb ord-r &&
	dirc init -q --object-format=sha256 ord-s &&
	dirc init -q --object-format=sha256 --ref-format=reftable ord-sr &&
	dirc init -q --bare --object-format=sha256 ord-sb &&
	dirc init -q --object-format=sha1 --ref-format=reftable ord-r &&
	q_to_tab >expect-s <<-\EOF &&
	[extensions]
	Qobjectformat = sha256
	[core]
	Qrepositoryformatversion = 1
	Qfilemode = true
	Qbare = false
	Qlogallrefupdates = true
	EOF
	test_cmp expect-s ord-s/.git/config &&
	q_to_tab >expect-sr <<-\EOF &&
	[extensions]
	Qobjectformat = sha256
	Qrefstorage = reftable
	[core]
	Qrepositoryformatversion = 1
	Qfilemode = true
	Qbare = false
	Qlogallrefupdates = true
	EOF
	test_cmp expect-sr ord-sr/.git/config &&
	q_to_tab >expect-sb <<-\EOF &&
	[extensions]
	Qobjectformat = sha256
	[core]
	Qrepositoryformatversion = 1
	Qfilemode = true
	Qbare = true
	EOF
	test_cmp expect-sb ord-sb/config &&
	q_to_tab >expect-r <<-\EOF &&
	[extensions]
	Qrefstorage = reftable
	[core]
	Qrepositoryformatversion = 1
	Qfilemode = true
	Qbare = false
	Qlogallrefupdates = true
	EOF
	test_cmp expect-r ord-r/.git/config &&
	: re-init, with and without the options: nothing moves &&
	dirc init -q ord-s && dirc init -q --object-format=sha256 ord-s &&
	test_cmp expect-s ord-s/.git/config &&
	dirc init -q ord-sr && dirc init -q --object-format=sha256 --ref-format=reftable ord-sr &&
	test_cmp expect-sr ord-sr/.git/config &&
	dirc init -q --bare ord-sb &&
	test_cmp expect-sb ord-sb/config &&
	: a git 2.39 config keeps its order &&
	rm -rf ord-old &&
	dirc init -q --object-format=sha256 ord-old &&
	q_to_tab >expect-old <<-\EOF &&
	[core]
	Qrepositoryformatversion = 1
	Qfilemode = true
	Qbare = false
	Qlogallrefupdates = true
	[extensions]
	Qobjectformat = sha256
	EOF
	cp expect-old ord-old/.git/config &&
	dirc init -q ord-old &&
	test_cmp expect-old ord-old/.git/config
'

# the configs "both" left in $1.git and $1.dirc, byte for byte
ord_same_configs () {
	(cd "$1.git" && find . -name config -type f | sort) >ord-git.list &&
	(cd "$1.dirc" && find . -name config -type f | sort) >ord-dirc.list &&
	test_cmp ord-git.list ord-dirc.list &&
	test -s ord-git.list &&
	while read -r c
	do
		test_cmp "$1.git/$c" "$1.dirc/$c" || return 1
	done <ord-git.list
}

test_expect_success GIT_NEW 'the config of a SHA-256 or reftable repository: byte for byte git 2.55'"'"'s, new and re-initialised' '
	BOTH_GIT=git_new &&
	for opts in "--object-format=sha256" "--bare --object-format=sha256" \
		"--object-format=sha256 --ref-format=reftable" \
		"--bare --object-format=sha256 --ref-format=reftable" \
		"--object-format=sha1 --ref-format=reftable" \
		"--object-format=sha256 --shared=group" \
		"--object-format=sha256 --separate-git-dir=sep"
	do
		both ord-new "\$cmd init -q --template=\"\$GIT_TEMPLATE_DIR\" $opts x && \$cmd init -q --template=\"\$GIT_TEMPLATE_DIR\" $opts x" &&
		: a reftable table name has a random part: the configs alone &&
		same_as_git --no-tree &&
		ord_same_configs ord-new || return 1
	done &&
	: plain re-init, where git 2.55 keeps the hash &&
	for opts in "--object-format=sha256" "--bare --object-format=sha256"
	do
		both ord-re "\$cmd init -q --template=\"\$GIT_TEMPLATE_DIR\" $opts x && \$cmd init -q --template=\"\$GIT_TEMPLATE_DIR\" x" &&
		same_as_git || return 1
	done &&
	: a config the template gives, and GIT_DEFAULT_HASH &&
	mkdir -p ord-tmpl-dir &&
	printf "[core]\n\tfoo = bar\n[user]\n\tname = x\n" >ord-tmpl-dir/config &&
	both ord-tmpl "\$cmd init -q --template=\"$TRASH_DIRECTORY/ord-tmpl-dir\" --object-format=sha256 --ref-format=reftable x" &&
	same_as_git --no-tree &&
	ord_same_configs ord-tmpl &&
	both ord-env "GIT_DEFAULT_HASH=sha256 \$cmd init -q --template=\"\$GIT_TEMPLATE_DIR\" x" &&
	same_as_git &&
	unset BOTH_GIT
'

test_expect_success 'init.defaultSubmodulePathConfig (git 2.55): extensions.submodulePathConfig, version 1' '
	rm -rf spc spc-re spc-bad spc-false &&
	dirc -c init.defaultSubmodulePathConfig=true init -q spc &&
	{
		echo "[extensions]" &&
		if test $OID_ALGO = sha256
		then
			printf "\tobjectformat = sha256\n"
		fi &&
		printf "\tsubmodulepathconfig = true\n[core]\n\trepositoryformatversion = 1\n" &&
		printf "\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n"
	} >expect &&
	test_cmp expect spc/.git/config &&
	dirc -C spc rev-parse --git-dir &&
	: re-init, and from the repository config itself &&
	dirc init -q spc-re &&
	printf "[init]\n\tdefaultSubmodulePathConfig\n" >>spc-re/.git/config &&
	dirc init -q spc-re &&
	test_grep "submodulepathconfig = true" spc-re/.git/config &&
	test_grep "repositoryformatversion = 1" spc-re/.git/config &&
	: false, and a bad value: refused before anything is made &&
	dirc -c init.defaultSubmodulePathConfig=false init -q spc-false &&
	! grep submodulepathconfig spc-false/.git/config &&
	test_expect_code 128 dirc -c init.defaultSubmodulePathConfig=maybe init -q spc-bad 2>err &&
	echo "fatal: bad boolean config value '"'"'maybe'"'"' for '"'"'init.defaultSubmodulePathConfig'"'"'" >expect &&
	test_cmp expect err &&
	test_path_is_missing spc-bad
'

test_expect_success GIT_NEW 'init.defaultSubmodulePathConfig: the config of git 2.55, new and re-initialised' '
	BOTH_GIT=git_new &&
	for v in true false yes
	do
		both spc-new "\$cmd -c init.defaultSubmodulePathConfig=$v init -q --template=\"\$GIT_TEMPLATE_DIR\" x && \$cmd -c init.defaultSubmodulePathConfig=$v init -q --template=\"\$GIT_TEMPLATE_DIR\" x" &&
		same_as_git || return 1
	done &&
	BOTH_SETUP="git init -q x" &&
	both spc-reinit "\$cmd -c init.defaultSubmodulePathConfig init -q --template=\"\$GIT_TEMPLATE_DIR\" x" &&
	same_as_git &&
	unset BOTH_SETUP &&
	both spc-bad "\$cmd -c init.defaultSubmodulePathConfig=maybe init -q --template=\"\$GIT_TEMPLATE_DIR\" x" &&
	same_as_git --no-tree &&
	unset BOTH_GIT
'

test_expect_success 're-init: includeIf.onbranch: is tested against the branch HEAD is on' '
	rm -rf ob &&
	printf "[\ngarbage\n" >bad-config &&
	dirc init -q -b topic/one ob &&
	echo "fatal: bad config line 1 in file $TRASH_DIRECTORY/bad-config" >expect &&
	for pattern in topic/one "topic/*" topic/ "t*/o?e"
	do
		test_expect_code 128 dirc -c "includeIf.onbranch:$pattern.path=$TRASH_DIRECTORY/bad-config" init ob 2>err &&
		test_cmp expect err || return 1
	done &&
	cp ob/.git/config ob-config.orig &&
	printf "[includeIf \"onbranch:topic/**\"]\n\tpath = $TRASH_DIRECTORY/bad-config\n" >>ob/.git/config &&
	cp ob/.git/config ob-config.before &&
	test_expect_code 128 dirc init ob 2>err &&
	test_cmp expect err &&
	test_cmp ob-config.before ob/.git/config &&
	cp ob-config.orig ob/.git/config &&
	for pattern in topic "*" one other/ "topic/one/"
	do
		dirc -c "includeIf.onbranch:$pattern.path=$TRASH_DIRECTORY/bad-config" init -q ob 2>err &&
		test_must_be_empty err || return 1
	done &&
	: a new repository has no branch yet: nothing matches &&
	rm -rf ob-new &&
	dirc -c "includeIf.onbranch:master.path=$TRASH_DIRECTORY/bad-config" init -q ob-new
'

test_expect_success GIT_NEW 're-init: includeIf.onbranch: as git 2.55' '
	printf "[\ngarbage\n" >bad-config &&
	BOTH_GIT=git_new &&
	BOTH_SETUP="git init -q -b topic ob" &&
	both ob-match "\$cmd -c includeIf.onbranch:top*.path=\"$TRASH_DIRECTORY/bad-config\" init --template=\"\$GIT_TEMPLATE_DIR\" ob" &&
	same_as_git &&
	both ob-other "\$cmd -c includeIf.onbranch:other.path=\"$TRASH_DIRECTORY/bad-config\" init --template=\"\$GIT_TEMPLATE_DIR\" ob" &&
	same_as_git &&
	both ob-rel "\$cmd -c includeIf.onbranch:topic.path=bad-config init --template=\"\$GIT_TEMPLATE_DIR\" ob" &&
	same_as_git &&
	unset BOTH_GIT BOTH_SETUP
'

test_expect_success GIT 'git accepts every repository dirc made here' '
	for d in plain.dirc/.git arg.dirc/new/.git bare.dirc gbare-dir.dirc/x.git \
		dotgit.dirc/.git gd-wt.dirc/x reinit.dirc/r/.git \
		reinit-gitfile.dirc/real linked.dirc/main/.git
	do
		git --git-dir="$d" fsck --strict 2>fsck.err || return 1
	done
'

test_done
