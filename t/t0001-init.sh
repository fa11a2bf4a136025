#!/bin/sh
test_description='init: a repository git accepts, re-init that keeps everything'
. ./test-lib.sh

# The directories of a git directory and the files that matter (hooks
# and other template files aside), to compare dirc's layout with git's.
layout () {
	(
		cd "$1" &&
		find . -type d -print &&
		find . -type f \( -name HEAD -o -name config -o -name description \
			-o -name exclude \) -print
	) | grep -v "^\./hooks/" | sort
}

# What the config git init writes owes to the tests' object format:
# oid_format_version prints core.repositoryformatversion (0 for SHA-1, 1
# for SHA-256); oid_format_lines the start of the file (nothing for
# SHA-1, for SHA-256 the [extensions] section naming the format, first
# as git 2.55 writes it; git 2.39 wrote it last: test_config_order_new).
oid_format_version () {
	if test $OID_ALGO = sha1; then echo 0; else echo 1; fi
}
oid_format_lines () {
	test $OID_ALGO = sha1 ||
	printf "[extensions]\n\tobjectformat = %s\n" $OID_ALGO
}

test_expect_success 'init: the message, exit 0' '
	mkdir plain &&
	(cd plain && dirc init >../out 2>../err) &&
	echo "Initialized empty Git repository in $TRASH_DIRECTORY/plain/.git/" >expect &&
	test_cmp expect out &&
	test_must_be_empty err &&
	test_fsck_also plain
'

test_expect_success 'init: HEAD, objects, refs and the rest' '
	test_path_is_file plain/.git/HEAD &&
	test_path_is_file plain/.git/config &&
	test_path_is_file plain/.git/description &&
	test_path_is_file plain/.git/info/exclude &&
	test_path_is_dir plain/.git/objects/info &&
	test_path_is_dir plain/.git/objects/pack &&
	test_path_is_dir plain/.git/refs/heads &&
	test_path_is_dir plain/.git/refs/tags &&
	test_path_is_dir plain/.git/hooks &&
	test_path_is_dir plain/.git/branches &&
	echo "ref: refs/heads/master" >expect &&
	test_cmp expect plain/.git/HEAD
'

test_expect_success 'init: the config git writes' '
	oid_format_lines >expect &&
	q_to_tab >>expect <<-EOF &&
	[core]
	Qrepositoryformatversion = $(oid_format_version)
	Qfilemode = true
	Qbare = false
	Qlogallrefupdates = true
	EOF
	test_cmp expect plain/.git/config
'

test_expect_success 'init: directories 0755, files 0644' '
	ls -ld plain/.git/objects plain/.git/refs/heads >ls.out &&
	cut -c1-10 ls.out >actual &&
	test_write_lines drwxr-xr-x drwxr-xr-x >expect &&
	test_cmp expect actual &&
	ls -l plain/.git/HEAD plain/.git/config >ls.out &&
	cut -c1-10 ls.out >actual &&
	test_write_lines -rw-r--r-- -rw-r--r-- >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'init: the layout and config of git init' '
	mkdir gitplain &&
	(cd gitplain && git init -q) &&
	layout plain/.git >actual &&
	layout gitplain/.git >expect &&
	test_cmp expect actual &&
	test_config_order_new gitplain/.git/config &&
	test_cmp gitplain/.git/config plain/.git/config &&
	test_cmp gitplain/.git/HEAD plain/.git/HEAD
'

test_expect_success GIT 'init: git accepts the repository (status, fsck, rev-parse)' '
	(
		cd plain &&
		git status >../status.out &&
		git fsck --strict &&
		git rev-parse --git-dir >../actual &&
		git rev-parse --is-bare-repository >>../actual
	) &&
	test_grep "No commits yet" status.out &&
	test_write_lines .git false >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'init: git commits in it, dirc reads the commit' '
	(
		cd plain &&
		echo hello >file &&
		git add file &&
		test_tick &&
		git commit -q -m one &&
		git rev-parse HEAD >../commit.id &&
		dirc cat-file -t $(cat ../commit.id) >../actual
	) &&
	echo commit >expect &&
	test_cmp expect actual
'

test_expect_success 'init <dir>: creates the directory, with its parents' '
	dirc init new/a/b >out 2>err &&
	echo "Initialized empty Git repository in $TRASH_DIRECTORY/new/a/b/.git/" >expect &&
	test_cmp expect out &&
	test_path_is_file new/a/b/.git/HEAD &&
	test_path_is_missing .git/a &&
	test_fsck_also new/a/b
'

test_expect_success 'init <dir> with spaces and UTF-8 in the name' '
	dirc init -q "sp ace é" &&
	test_path_is_file "sp ace é/.git/HEAD" &&
	test_fsck_also "sp ace é"
'

test_expect_success 'init in an existing directory with files: they are kept' '
	mkdir existing &&
	echo keep >existing/file &&
	(cd existing && dirc init -q) &&
	echo keep >expect &&
	test_cmp expect existing/file &&
	test_path_is_file existing/.git/HEAD &&
	test_fsck_also existing
'

test_expect_success '-C dir init' '
	mkdir cdir &&
	dirc -C cdir init >out &&
	echo "Initialized empty Git repository in $TRASH_DIRECTORY/cdir/.git/" >expect &&
	test_cmp expect out &&
	test_fsck_also cdir
'

test_expect_success 'init --bare: the git directory is the current one' '
	mkdir bare.git &&
	(cd bare.git && dirc init --bare >../out) &&
	echo "Initialized empty Git repository in $TRASH_DIRECTORY/bare.git/" >expect &&
	test_cmp expect out &&
	test_path_is_missing bare.git/.git &&
	test_path_is_file bare.git/HEAD &&
	test_path_is_dir bare.git/objects &&
	test_path_is_dir bare.git/refs &&
	oid_format_lines >expect &&
	q_to_tab >>expect <<-EOF &&
	[core]
	Qrepositoryformatversion = $(oid_format_version)
	Qfilemode = true
	Qbare = true
	EOF
	test_cmp expect bare.git/config &&
	test_fsck_also bare.git
'

test_expect_success 'init --bare <dir>' '
	dirc init -q --bare other.git &&
	test_path_is_file other.git/HEAD &&
	test_grep "bare = true" other.git/config &&
	test_fsck_also other.git
'

test_expect_success GIT 'init --bare: the layout and config of git, and git accepts it' '
	git init -q --bare gitbare.git &&
	layout bare.git >actual &&
	layout gitbare.git >expect &&
	test_cmp expect actual &&
	test_config_order_new gitbare.git/config &&
	test_cmp gitbare.git/config bare.git/config &&
	git --git-dir=bare.git rev-parse --is-bare-repository >actual &&
	echo true >expect &&
	test_cmp expect actual &&
	git --git-dir=bare.git fsck --strict
'

test_expect_success 'init -b main / --initial-branch=main' '
	dirc init -q -b main b1 &&
	echo "ref: refs/heads/main" >expect &&
	test_cmp expect b1/.git/HEAD &&
	dirc init -q --initial-branch=main b2 &&
	test_cmp expect b2/.git/HEAD &&
	dirc init -q --bare -b trunk b3.git &&
	echo "ref: refs/heads/trunk" >expect &&
	test_cmp expect b3.git/HEAD
'

test_expect_success GIT 'init -b: git agrees on the branch' '
	(
		cd b1 &&
		git symbolic-ref HEAD >../actual
	) &&
	echo refs/heads/main >expect &&
	test_cmp expect actual
'

test_expect_success 'init -b with an invalid name: fatal, 128, nothing created' '
	mkdir badbranch &&
	(
		cd badbranch &&
		test_expect_code 128 dirc init -b bad..name >../out 2>../err
	) &&
	echo "fatal: invalid initial branch name: '\''bad..name'\''" >expect &&
	test_cmp expect err &&
	test_must_be_empty out &&
	test_path_is_missing badbranch/.git
'

test_expect_success GIT 'init -b: invalid names as git judges them' '
	for b in bad..name "" "a b" x.lock a/ "a@{b" "a~1" "a^" "a:b" "a?" \
		"a*" "a[" ".a" "a/.b" "a\\b" HEAD -x @ "é" feature/x
	do
		rm -rf dd gg &&
		mkdir dd gg &&
		{ (cd dd && dirc init -q -b "$b" >../out 2>../err); echo $? >code; } &&
		{ (cd gg && git init -q -b "$b" >../git-out 2>../git-err); echo $? >git-code; } &&
		test_cmp git-code code &&
		test_cmp git-err err || return 1
	done
'

test_expect_success 'init -q: silent' '
	dirc init -q quiet >out 2>err &&
	test_must_be_empty out &&
	test_must_be_empty err &&
	test_path_is_file quiet/.git/HEAD &&
	dirc init --quiet quiet2 >out 2>err &&
	test_must_be_empty out &&
	test_must_be_empty err
'

test_expect_success 'setup: a repository with local changes' '
	dirc init -q reinit &&
	(
		cd reinit &&
		echo "my description" >.git/description &&
		echo "*.o" >.git/info/exclude &&
		echo "ref: refs/heads/other" >.git/HEAD &&
		printf "[user]\n\tname = Keep Me\n" >>.git/config &&
		echo content >file &&
		dirc hash-object -w file >../blob.id &&
		mkdir .git/hooks/x && echo hook >.git/hooks/x/h
	) &&
	(cd reinit/.git && find . -type f -print | sort | xargs cat) >before &&
	(cd reinit/.git && find . -print | sort) >before.list &&
	test_fsck_also reinit
'

test_expect_success 're-init: "Reinitialized existing Git repository", nothing overwritten' '
	(cd reinit && dirc init >../out 2>../err) &&
	echo "Reinitialized existing Git repository in $TRASH_DIRECTORY/reinit/.git/" >expect &&
	test_cmp expect out &&
	(cd reinit/.git && find . -type f -print | sort | xargs cat) >after &&
	test_cmp before after &&
	(cd reinit/.git && find . -print | sort) >after.list &&
	test_cmp before.list after.list
'

test_expect_success 're-init with -q, -b, --bare, <dir>: still nothing overwritten' '
	dirc init -q reinit &&
	dirc init -q -b another reinit &&
	(cd reinit && dirc init -q) &&
	(cd reinit/.git && find . -type f -print | sort | xargs cat) >after &&
	test_cmp before after &&
	echo "ref: refs/heads/other" >expect &&
	test_cmp expect reinit/.git/HEAD
'

test_expect_success 're-init of a bare repository' '
	(cd bare.git && dirc init --bare >../out) &&
	echo "Reinitialized existing Git repository in $TRASH_DIRECTORY/bare.git/" >expect &&
	test_cmp expect out &&
	test_grep "bare = true" bare.git/config
'

test_expect_success GIT 're-init: the message of git' '
	(cd reinit && dirc init >../out) &&
	(cd reinit && git init >../git-out 2>/dev/null) &&
	test_cmp git-out out
'

test_expect_success GIT 're-init -b: the warning of git, with -q too' '
	for q in "" -q
	do
		(cd reinit && dirc init $q -b x >../out 2>../err) &&
		(cd reinit && git init $q -b x >../git-out 2>../git-err) &&
		test_cmp git-out out &&
		test_cmp git-err err &&
		test_grep "^warning: re-init: ignored --initial-branch=x$" err ||
		return 1
	done &&
	echo "ref: refs/heads/other" >expect &&
	test_cmp expect reinit/.git/HEAD
'

test_expect_success GIT 'init over a .git that is not yet a repository keeps its config (as git)' '
	mkdir -p partial/.git gpartial/.git &&
	printf "[user]\n\tname = Keep Me\n" >partial/.git/config &&
	cp partial/.git/config gpartial/.git/config &&
	(cd partial && dirc init -q) &&
	(cd gpartial && git init -q) &&
	test_config_order_new gpartial/.git/config &&
	test_cmp gpartial/.git/config partial/.git/config &&
	test_fsck_also partial
'

test_expect_success 'GIT_DIR=x init: a bare repository at x' '
	mkdir gd &&
	(
		cd gd &&
		GIT_DIR=x dirc init >../out
	) &&
	echo "Initialized empty Git repository in $TRASH_DIRECTORY/gd/x/" >expect &&
	test_cmp expect out &&
	test_path_is_missing gd/.git &&
	test_path_is_file gd/x/HEAD &&
	test_grep "bare = true" gd/x/config &&
	test_fsck_also gd/x
'

test_expect_success GIT 'GIT_DIR=x init: the config of git' '
	mkdir ggd &&
	(
		cd ggd &&
		GIT_DIR=x git init -q
	) &&
	test_config_order_new ggd/x/config &&
	test_cmp ggd/x/config gd/x/config
'

test_expect_success 'GIT_DIR=x with GIT_WORK_TREE: not bare' '
	mkdir gdw &&
	(
		cd gdw &&
		GIT_DIR=x GIT_WORK_TREE=. dirc init -q
	) &&
	test_grep "bare = false" gdw/x/config &&
	test_fsck_also gdw/x
'

test_expect_success 'init.defaultBranch from ~/.gitconfig and from -c' '
	cp "$HOME/.gitconfig" gitconfig.saved &&
	test_when_finished "cp gitconfig.saved \"\$HOME/.gitconfig\"" &&
	printf "[init]\n\tdefaultBranch = trunk\n" >"$HOME/.gitconfig" &&
	dirc init -q db1 &&
	echo "ref: refs/heads/trunk" >expect &&
	test_cmp expect db1/.git/HEAD &&
	dirc -c init.defaultBranch=dev init -q db2 &&
	echo "ref: refs/heads/dev" >expect &&
	test_cmp expect db2/.git/HEAD &&
	dirc -c init.defaultBranch=dev init -q -b topic db3 &&
	echo "ref: refs/heads/topic" >expect &&
	test_cmp expect db3/.git/HEAD
'

test_expect_success 'init --template= : the minimal layout' '
	dirc init -q --template= tmpl &&
	(cd tmpl/.git && find . -print | sort) >actual &&
	cat >expect <<-\EOF &&
	.
	./HEAD
	./config
	./objects
	./objects/info
	./objects/pack
	./refs
	./refs/heads
	./refs/tags
	EOF
	test_cmp expect actual &&
	test_fsck_also tmpl
'

test_expect_success 'init --template=<dir>: its files are copied' '
	mkdir -p tdir/info tdir/hooks &&
	echo "from template" >tdir/description &&
	echo "*.tmp" >tdir/info/exclude &&
	echo "#!/bin/sh" >tdir/hooks/pre-commit &&
	chmod +x tdir/hooks/pre-commit &&
	dirc init -q --template="$TRASH_DIRECTORY/tdir" withtmpl &&
	test_cmp tdir/description withtmpl/.git/description &&
	test_cmp tdir/info/exclude withtmpl/.git/info/exclude &&
	test -x withtmpl/.git/hooks/pre-commit &&
	test_fsck_also withtmpl
'

test_expect_success 'init --template=<relative dir> <dir>: relative to where we started (as git)' '
	dirc init -q --template=tdir withtmpl2 2>err &&
	test_cmp tdir/description withtmpl2/.git/description &&
	test -x withtmpl2/.git/hooks/pre-commit &&
	test_must_be_empty err &&
	test_fsck_also withtmpl2
'

test_expect_success 'init --object-format: sha1 and sha256 repositories' '
	dirc init -q --object-format=sha1 of1 &&
	test "$(dirc -C of1 rev-parse --show-object-format)" = sha1 &&
	dirc init -q --object-format=sha256 of2 &&
	test "$(dirc -C of2 rev-parse --show-object-format)" = sha256 &&
	test "$(dirc -C of2 rev-parse --show-object-format=input)" = sha256 &&
	echo hi >of2/f &&
	dirc -C of2 hash-object f >actual &&
	test $(wc -c <actual) = 65 &&
	test_expect_code 128 dirc init -q --object-format=sha512 of3 2>err &&
	echo "fatal: unknown hash algorithm '\''sha512'\''" >expect &&
	test_cmp expect err &&
	test_path_is_missing of3
'

test_expect_success 'init with two directories: usage, 129' '
	test_expect_code 129 dirc init a b >out 2>err &&
	test_grep "^usage: dirc init" err &&
	test_path_is_missing a &&
	test_path_is_missing b
'

test_expect_success 'init -h: usage on stdout, 129' '
	test_expect_code 129 dirc init -h >out 2>err &&
	test_grep "^usage: dirc init" out &&
	test_must_be_empty err
'

test_expect_success 'init-db: the old name still works' '
	dirc init-db -q olddb &&
	test_path_is_file olddb/.git/HEAD
'

test_expect_success 'help knows the other names: init-db, update-index, checkout-cache' '
	write_script fake-man <<-\EOF &&
	echo "$*" >>"$FAKE_MAN_LOG"
	EOF
	for pair in init-db:init update-index:update-cache \
		checkout-cache:checkout-index
	do
		alias=${pair%%:*} name=${pair#*:} &&
		rm -f man.args &&
		FAKE_MAN_LOG=$PWD/man.args DIRC_MAN=$PWD/fake-man dirc help $alias >out 2>err &&
		test_must_be_empty err &&
		# the manual of the command under its first name
		echo "-w dirc-$name" >expect &&
		echo "dirc-$name" >>expect &&
		test_cmp expect man.args &&
		dirc help -a >all &&
		test_grep "^   $alias  *$(sed -n "s/^   $name  *//p" all)\$" all ||
		return 1
	done
'

test_done
