#!/bin/sh
test_description='configuration: files, environment, -c, format versions and bad values, as git reads them'
. ./test-lib.sh

# The first two bytes (the zlib header, which tells the level) of the
# loose object $1 in objects directory $2 (default .git/objects):
# 7801 for levels 0 and 1, 785e for 2-5, 789c for 6 (and -1), 78da for 7-9.
zlib_header () {
	zh_file=${2-.git/objects}/$(echo $1 | cut -c1-2)/$(echo $1 | cut -c3-) &&
	od -An -tx1 -N2 "$zh_file" >zh.out &&
	tr -d " \n" <zh.out &&
	echo
}

# write_new [dirc options...]: store a blob that is not stored yet (the
# content is new each time, also from subshells) and print its zlib header.
next_content () {
	nc_count=$(cat "$TRASH_DIRECTORY/new-count" 2>/dev/null || echo 0) &&
	nc_count=$((nc_count + 1)) &&
	echo $nc_count >"$TRASH_DIRECTORY/new-count" &&
	echo "new content $nc_count" >new-file
}

write_new () {
	next_content &&
	dirc "$@" hash-object -w new-file >new.id &&
	zlib_header $(cat new.id)
}

# The same with git, in the same repository.
git_write_new () {
	next_content &&
	git "$@" hash-object -w new-file >new.id &&
	zlib_header $(cat new.id)
}

# oid_format_config: the lines that keep a repository of the tests'
# object format when a test writes its whole config: nothing for SHA-1;
# a [core] with repositoryformatversion = 1 and an [extensions] naming
# the format for SHA-256 (after the text under test, or before it when
# that text must end the file).
oid_format_config () {
	test $OID_ALGO = sha1 ||
	printf "[core]\n\trepositoryformatversion = 1\n[extensions]\n\tobjectformat = %s\n" $OID_ALGO
}

# check_level EXPECTED [dirc options...]
check_level () {
	echo "$1" >expect &&
	shift &&
	write_new "$@" >actual &&
	test_cmp expect actual
}

test_expect_success 'setup' '
	echo content >file &&
	id=$(dirc hash-object file) &&
	cp .git/config config.orig &&
	cp "$HOME/.gitconfig" gitconfig.orig
'

test_expect_success 'default: loose objects at zlib level 1' '
	check_level 7801
'

test_expect_success '-c core.compression=9: other bytes, the same id' '
	dirc -c core.compression=9 hash-object -w file >actual &&
	echo $id >expect &&
	test_cmp expect actual &&
	zlib_header $id >actual &&
	echo 78da >expect &&
	test_cmp expect actual &&
	dirc cat-file -p $id >content &&
	test_cmp file content
'

test_expect_success GIT '-c core.compression=9: git reads it, and writes the same bytes' '
	git cat-file -p $id >content &&
	test_cmp file content &&
	git init -q gitrepo &&
	git -C gitrepo -c core.compression=9 hash-object -w ../file >gid &&
	cmp .git/objects/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-) \
		gitrepo/.git/objects/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-)
'

test_expect_success GIT 'every level -1..9: the same bytes as git' '
	for level in -1 0 1 2 3 4 5 6 7 8 9
	do
		echo "at level $level" >lvl &&
		dirc -c core.compression=$level hash-object -w lvl >did &&
		git -C gitrepo -c core.compression=$level hash-object -w ../lvl >gid &&
		test_cmp gid did &&
		lid=$(cat did) &&
		cmp .git/objects/$(echo $lid | cut -c1-2)/$(echo $lid | cut -c3-) \
			gitrepo/.git/objects/$(echo $lid | cut -c1-2)/$(echo $lid | cut -c3-) ||
		return 1
	done
'

test_expect_success 'core.looseCompression wins over core.compression' '
	check_level 789c -c core.compression=9 -c core.looseCompression=6 &&
	check_level 789c -c core.looseCompression=6 -c core.compression=9 &&
	check_level 78da -c core.looseCompression=9
'

test_expect_success 'the repository config is read' '
	test_when_finished "cp config.orig .git/config" &&
	printf "[core]\n\tcompression = 9\n" >>.git/config &&
	check_level 78da &&
	check_level 789c -c core.compression=6
'

test_expect_success '~/.gitconfig is read; the repository config wins over it' '
	test_when_finished "cp gitconfig.orig \"\$HOME/.gitconfig\" && cp config.orig .git/config" &&
	printf "[core]\n\tcompression = 9\n" >>"$HOME/.gitconfig" &&
	check_level 78da &&
	printf "[core]\n\tcompression = 6\n" >>.git/config &&
	check_level 789c
'

test_expect_success 'XDG config: $XDG_CONFIG_HOME/git/config, else ~/.config/git/config' '
	test_when_finished "rm -rf xdg \"\$HOME/.config\"" &&
	mkdir -p xdg/git "$HOME/.config/git" &&
	printf "[core]\n\tcompression = 9\n" >xdg/git/config &&
	printf "[core]\n\tcompression = 6\n" >"$HOME/.config/git/config" &&
	check_level 789c &&
	(
		XDG_CONFIG_HOME="$TRASH_DIRECTORY/xdg" &&
		export XDG_CONFIG_HOME &&
		check_level 78da
	)
'

test_expect_success '~/.gitconfig wins over the XDG file' '
	test_when_finished "rm -rf \"\$HOME/.config\"; cp gitconfig.orig \"\$HOME/.gitconfig\"" &&
	mkdir -p "$HOME/.config/git" &&
	printf "[core]\n\tcompression = 6\n" >"$HOME/.config/git/config" &&
	printf "[core]\n\tcompression = 9\n" >>"$HOME/.gitconfig" &&
	check_level 78da
'

test_expect_success 'GIT_CONFIG_GLOBAL replaces ~/.gitconfig' '
	test_when_finished "cp gitconfig.orig \"\$HOME/.gitconfig\"" &&
	printf "[core]\n\tcompression = 9\n" >>"$HOME/.gitconfig" &&
	printf "[core]\n\tcompression = 6\n" >global &&
	(
		GIT_CONFIG_GLOBAL="$TRASH_DIRECTORY/global" &&
		export GIT_CONFIG_GLOBAL &&
		check_level 789c &&
		GIT_CONFIG_GLOBAL=/dev/null &&
		check_level 7801
	)
'

test_expect_success 'GIT_CONFIG_NOSYSTEM: the system file (GIT_CONFIG_SYSTEM) is skipped' '
	printf "[core]\n\tcompression = 9\n" >system &&
	(
		GIT_CONFIG_SYSTEM="$TRASH_DIRECTORY/system" &&
		export GIT_CONFIG_SYSTEM &&
		check_level 7801 &&
		unset GIT_CONFIG_NOSYSTEM &&
		check_level 78da
	)
'

test_expect_success GIT 'the system file: as git' '
	(
		unset GIT_CONFIG_NOSYSTEM &&
		GIT_CONFIG_SYSTEM="$TRASH_DIRECTORY/system" &&
		export GIT_CONFIG_SYSTEM &&
		git_write_new >expect-sys
	) &&
	echo 78da >expect &&
	test_cmp expect expect-sys
'

test_expect_success 'GIT_CONFIG_COUNT, GIT_CONFIG_KEY_<n>, GIT_CONFIG_VALUE_<n>' '
	(
		GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.compression GIT_CONFIG_VALUE_0=9 &&
		export GIT_CONFIG_COUNT GIT_CONFIG_KEY_0 GIT_CONFIG_VALUE_0 &&
		check_level 78da &&
		GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_1=Core.Compression GIT_CONFIG_VALUE_1=6 &&
		export GIT_CONFIG_KEY_1 GIT_CONFIG_VALUE_1 &&
		check_level 789c &&
		GIT_CONFIG_COUNT=0 &&
		check_level 7801
	)
'

test_expect_success 'GIT_CONFIG_PARAMETERS, in both quoting styles' '
	(
		GIT_CONFIG_PARAMETERS="'\''core.compression'\''='\''9'\''" &&
		export GIT_CONFIG_PARAMETERS &&
		check_level 78da &&
		GIT_CONFIG_PARAMETERS="'\''core.compression=6'\''" &&
		check_level 789c &&
		GIT_CONFIG_PARAMETERS="'\''core.compression=6'\'' '\''core.compression'\''='\''9'\''" &&
		check_level 78da &&
		check_level 789c -c core.compression=6
	)
'

test_expect_success GIT '-c comes after GIT_CONFIG_COUNT (git order: -c wins)' '
	(
		GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.compression GIT_CONFIG_VALUE_0=9 &&
		export GIT_CONFIG_COUNT GIT_CONFIG_KEY_0 GIT_CONFIG_VALUE_0 &&
		git_write_new -c core.compression=6 >expect &&
		write_new -c core.compression=6 >actual
	) &&
	test_cmp expect actual
'

test_expect_success 'the command line wins over the repository and global files' '
	test_when_finished "cp gitconfig.orig \"\$HOME/.gitconfig\" && cp config.orig .git/config" &&
	printf "[core]\n\tcompression = 6\n" >>"$HOME/.gitconfig" &&
	printf "[core]\n\tcompression = 6\n" >>.git/config &&
	check_level 78da -c core.compression=9 &&
	(
		GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.compression GIT_CONFIG_VALUE_0=9 &&
		export GIT_CONFIG_COUNT GIT_CONFIG_KEY_0 GIT_CONFIG_VALUE_0 &&
		check_level 78da
	)
'

test_expect_success 'include.path: relative, absolute, ~/; later lines win' '
	test_when_finished "cp config.orig .git/config" &&
	printf "[core]\n\tcompression = 9\n" >.git/inc9 &&
	printf "[core]\n\tcompression = 6\n" >"$TRASH_DIRECTORY/inc6" &&
	printf "[core]\n\tcompression = 9\n" >"$HOME/inc-home" &&
	cp config.orig .git/config &&
	printf "[include]\n\tpath = inc9\n" >>.git/config &&
	check_level 78da &&
	cp config.orig .git/config &&
	printf "[include]\n\tpath = $TRASH_DIRECTORY/inc6\n" >>.git/config &&
	check_level 789c &&
	cp config.orig .git/config &&
	printf "[include]\n\tpath = ~/inc-home\n" >>.git/config &&
	check_level 78da &&
	printf "[core]\n\tcompression = 6\n" >>.git/config &&
	check_level 789c
'

test_expect_success 'include.path: nested includes, a missing file is ignored' '
	test_when_finished "cp config.orig .git/config" &&
	printf "[include]\n\tpath = inc9\n" >.git/inc-outer &&
	cp config.orig .git/config &&
	printf "[include]\n\tpath = nonexistent\n\tpath = inc-outer\n" >>.git/config &&
	check_level 78da
'

test_expect_success 'include.path from ~/.gitconfig, relative to it' '
	test_when_finished "cp gitconfig.orig \"\$HOME/.gitconfig\"" &&
	printf "[core]\n\tcompression = 9\n" >"$HOME/inc-rel" &&
	printf "[include]\n\tpath = inc-rel\n" >>"$HOME/.gitconfig" &&
	check_level 78da
'

test_expect_success 'include.path from -c and GIT_CONFIG_COUNT: absolute and ~/ followed, relative refused' '
	printf "[core]\n\tcompression = 9\n" >"$TRASH_DIRECTORY/inc-c9" &&
	check_level 78da -c include.path="$TRASH_DIRECTORY/inc-c9" &&
	check_level 78da -c include.path=~/inc-home &&
	(
		GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=include.path \
			GIT_CONFIG_VALUE_0="$TRASH_DIRECTORY/inc-c9" &&
		export GIT_CONFIG_COUNT GIT_CONFIG_KEY_0 GIT_CONFIG_VALUE_0 &&
		check_level 78da
	) &&
	cat >expect <<-\EOF &&
	error: relative config includes must come from files
	fatal: unable to parse command-line config
	EOF
	test_expect_code 128 dirc -c include.path=inc-c9 hash-object file 2>err &&
	test_cmp expect err &&
	printf "[\n" >"$TRASH_DIRECTORY/inc-bad" &&
	echo "fatal: bad config line 1 in file $TRASH_DIRECTORY/inc-bad" >expect &&
	test_expect_code 128 dirc -c include.path="$TRASH_DIRECTORY/inc-bad" hash-object file 2>err &&
	test_cmp expect err
'

test_expect_success GIT 'include.path from -c: the messages of git' '
	test_expect_code 128 git -c include.path=inc-c9 hash-object file 2>expect &&
	test_expect_code 128 dirc -c include.path=inc-c9 hash-object file 2>err &&
	test_cmp expect err &&
	test_expect_code 128 git -c include.path="$TRASH_DIRECTORY/inc-bad" hash-object file 2>expect &&
	test_expect_code 128 dirc -c include.path="$TRASH_DIRECTORY/inc-bad" hash-object file 2>err &&
	test_cmp expect err
'

test_expect_success GIT 'bad values: the messages of git, 128, nothing written' '
	for v in abc 12 -2 1k 9x ""
	do
		echo "value [$v]" >bv &&
		test_expect_code 128 dirc -c core.compression=$v hash-object -w bv 2>err &&
		test_expect_code 128 git -c core.compression=$v hash-object -w bv 2>expect &&
		test_cmp expect err &&
		bid=$(dirc hash-object bv) &&
		test_path_is_missing .git/objects/$(echo $bid | cut -c1-2)/$(echo $bid | cut -c3-) ||
		return 1
	done
'

test_expect_success 'bad values: the messages' '
	test_expect_code 128 dirc -c core.compression=abc hash-object -w file 2>err &&
	echo "fatal: bad numeric config value '\''abc'\'' for '\''core.compression'\'': invalid unit" >expect &&
	test_cmp expect err &&
	test_expect_code 128 dirc -c core.compression=12 hash-object -w file 2>err &&
	echo "fatal: bad zlib compression level 12" >expect &&
	test_cmp expect err &&
	test_expect_code 128 dirc -c core.looseCompression=10 hash-object -w file 2>err &&
	echo "fatal: bad zlib compression level 10" >expect &&
	test_cmp expect err
'

test_expect_success GIT 'a bad value in the repository config: as git' '
	test_when_finished "cp config.orig .git/config" &&
	git config core.compression abc &&
	test_expect_code 128 dirc hash-object -w file 2>err &&
	test_expect_code 128 git hash-object -w file 2>expect &&
	test_cmp expect err
'

test_expect_success GIT 'bad booleans: as git' '
	for v in maybe "false " 2x
	do
		test_expect_code 128 dirc -c "core.quotepath=$v" cat-file -t $id 2>err &&
		test_expect_code 128 git -c "core.quotepath=$v" cat-file -t $id 2>expect &&
		test_cmp expect err || return 1
	done &&
	echo "fatal: bad boolean config value '\''maybe'\'' for '\''core.quotepath'\''" >expect &&
	test_expect_code 128 dirc -c core.quotepath=maybe cat-file -t $id 2>err &&
	test_cmp expect err
'

test_expect_success GIT '-c without a section: the error of git, 128' '
	test_expect_code 128 dirc -c foo=bar hash-object -w file 2>err &&
	test_expect_code 128 git -c foo=bar hash-object -w file 2>expect &&
	test_cmp expect err
'

test_expect_success GIT 'bad GIT_CONFIG_PARAMETERS and GIT_CONFIG_COUNT: the errors of git' '
	for env in "GIT_CONFIG_PARAMETERS=bogus" "GIT_CONFIG_COUNT=x" \
		"GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=core.compression GIT_CONFIG_VALUE_0=9" \
		"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.compression"
	do
		test_expect_code 128 env $env dirc hash-object -w file 2>err &&
		test_expect_code 128 env $env git hash-object -w file 2>expect &&
		test_cmp expect err || return 1
	done
'

# fid: f's id in the test's own hash; fid1: in SHA-1, for the configs
# written over fmt's own below that name no object format
test_expect_success 'setup: a repository to break the format of' '
	dirc init -q fmt &&
	echo data >fmt/f &&
	fid=$(dirc hash-object fmt/f) &&
	fid1=$(dirc init -q --object-format=sha1 fmt1 &&
	       cp fmt/f fmt1/f && dirc -C fmt1 hash-object f) &&
	test ${#fid1} = 40
'

test_expect_success 'core.repositoryformatversion = 2: refused, 128' '
	printf "[core]\n\trepositoryformatversion = 2\n" >fmt/.git/config &&
	test_expect_code 128 dirc -C fmt hash-object -w f 2>err &&
	echo "fatal: Expected git repo version <= 1, found 2" >expect &&
	test_cmp expect err &&
	test_expect_code 128 dirc -C fmt cat-file -e $fid 2>err &&
	test_cmp expect err &&
	test_path_is_missing fmt/.git/objects/$(echo $fid | cut -c1-2)
'

test_expect_success GIT 'core.repositoryformatversion = 2: the message of git' '
	test_expect_code 128 git -C fmt hash-object -w f 2>expect &&
	test_expect_code 128 dirc -C fmt hash-object -w f 2>err &&
	test_cmp expect err
'

test_expect_success 'extensions.refStorage (git 2.45): files and reftable taken, a path refused, bad values and version 0 as git 2.55' '
	printf "[core]\n\trepositoryformatversion = 1\n[extensions]\n\trefStorage = reftable\n" >fmt/.git/config &&
	dirc -C fmt hash-object -w f >actual &&
	echo $fid1 >expect &&
	test_cmp expect actual &&
	dirc -C fmt cat-file -t $fid1 >actual &&
	echo blob >expect &&
	test_cmp expect actual &&
	dirc -C fmt rev-parse --show-ref-format >actual &&
	echo reftable >expect &&
	test_cmp expect actual &&
	rm -rf fmt/.git/objects/$(echo $fid1 | cut -c1-2) &&
	for files in files "files://"
	do
		printf "[core]\n\trepositoryformatversion = 1\n[extensions]\n\trefStorage = $files\n" >fmt/.git/config &&
		dirc -C fmt rev-parse --show-ref-format >actual &&
		echo files >expect &&
		test_cmp expect actual || return 1
	done &&
	printf "[core]\n\trepositoryformatversion = 1\n[extensions]\n\trefStorage = files://payload\n" >fmt/.git/config &&
	test_expect_code 128 dirc -C fmt hash-object -w f 2>err &&
	echo "fatal: this repository keeps its references at '\''payload'\'' (extensions.refStorage with a path), which dirc does not support" >expect &&
	test_cmp expect err &&
	printf "[core]\n\trepositoryformatversion = 1\n[extensions]\n\trefStorage = broken\n" >fmt/.git/config &&
	test_expect_code 128 dirc -C fmt hash-object -w f 2>err &&
	printf "%s\n" "error: invalid value for '\''extensions.refstorage'\'': '\''broken'\''" \
		"fatal: bad config line 4 in file .git/config" >expect &&
	test_cmp expect err &&
	printf "[core]\n\trepositoryformatversion = 0\n[extensions]\n\trefStorage = files\n" >fmt/.git/config &&
	test_expect_code 128 dirc -C fmt hash-object -w f 2>err &&
	printf "fatal: repo version is 0, but v1-only extension found:\n\trefstorage\n" >expect &&
	test_cmp expect err &&
	test_path_is_missing fmt/.git/objects/$(echo $fid1 | cut -c1-2)
'

test_expect_success GIT_NEW 'git 2.55: extensions.refStorage alike, but for a path' '
	for cfg in "1\n[extensions]\n\trefStorage = files" \
		"1\n[extensions]\n\trefStorage = reftable" \
		"1\n[extensions]\n\trefStorage = files://" \
		"1\n[extensions]\n\trefStorage = broken" \
		"1\n[extensions]\n\trefStorage" \
		"0\n[extensions]\n\trefStorage = reftable" \
		"0\n[extensions]\n\trefStorage = files"
	do
		printf "[core]\n\trepositoryformatversion = $cfg\n" >fmt/.git/config &&
		{ git_new -C fmt rev-parse --show-ref-format >expect 2>&1; echo $? >>expect; } &&
		{ dirc -C fmt rev-parse --show-ref-format >actual 2>&1; echo $? >>actual; } &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'extensions relativeWorktrees, submodulePathConfig (bool) and compatObjectFormat as git 2.55' '
	for ext in relativeWorktrees submodulePathConfig
	do
		lower=$(echo $ext | tr A-Z a-z) &&
		for v in true false "" 0
		do
			printf "[core]\n\trepositoryformatversion = 1\n[extensions]\n\t$ext = $v\n" >fmt/.git/config &&
			dirc -C fmt hash-object -w f >actual &&
			echo $fid1 >expect &&
			test_cmp expect actual || return 1
		done &&
		printf "[core]\n\trepositoryformatversion = 1\n[extensions]\n\t$ext\n" >fmt/.git/config &&
		dirc -C fmt ls-files &&
		printf "[core]\n\trepositoryformatversion = 1\n[extensions]\n\t$ext = bogus\n" >fmt/.git/config &&
		test_expect_code 128 dirc -C fmt ls-files 2>err &&
		echo "fatal: bad boolean config value '\''bogus'\'' for '\''extensions.$lower'\''" >expect &&
		test_cmp expect err &&
		printf "[core]\n\trepositoryformatversion = 0\n[extensions]\n\t$ext = true\n" >fmt/.git/config &&
		test_expect_code 128 dirc -C fmt ls-files 2>err &&
		printf "fatal: repo version is 0, but v1-only extension found:\n\t$lower\n" >expect &&
		test_cmp expect err || return 1
	done &&
	printf "[core]\n\trepositoryformatversion = 1\n[extensions]\n\tcompatObjectFormat = md5\n" >fmt/.git/config &&
	test_expect_code 128 dirc -C fmt ls-files 2>err &&
	printf "%s\n" "error: invalid value for '\''extensions.compatobjectformat'\'': '\''md5'\''" \
		"fatal: bad config line 4 in file .git/config" >expect &&
	test_cmp expect err &&
	printf "[core]\n\trepositoryformatversion = 1\n[extensions]\n\tcompatObjectFormat\n" >fmt/.git/config &&
	test_expect_code 128 dirc -C fmt ls-files 2>err &&
	printf "%s\n" "error: missing value for '\''extensions.compatobjectformat'\''" \
		"fatal: bad config line 4 in file .git/config" >expect &&
	test_cmp expect err &&
	printf "[core]\n\trepositoryformatversion = 1\n[extensions]\n\tcompatObjectFormat = sha256\n\tcompatObjectFormat = sha1\n" >fmt/.git/config &&
	test_expect_code 128 dirc -C fmt ls-files 2>err &&
	printf "%s\n" "error: '\''extensions.compatobjectformat'\'' already specified as '\''sha256'\''" \
		"fatal: bad config line 5 in file .git/config" >expect &&
	test_cmp expect err &&
	rm -rf fmt/.git/objects/$(echo $fid1 | cut -c1-2) &&
	printf "[core]\n\trepositoryformatversion = 1\n[extensions]\n\tcompatObjectFormat = sha256\n" >fmt/.git/config &&
	test_expect_code 128 dirc -C fmt hash-object -w f 2>err &&
	echo "fatal: this repository names its objects in a second hash as well (extensions.compatObjectFormat=sha256), which dirc does not support" >expect &&
	test_cmp expect err &&
	test_path_is_missing fmt/.git/objects/$(echo $fid1 | cut -c1-2)
'

test_expect_success GIT_NEW 'git 2.55: the same extensions, message for message (compatObjectFormat=sha256 aside)' '
	for cfg in "1\n[extensions]\n\trelativeWorktrees = true" \
		"1\n[extensions]\n\trelativeWorktrees = bogus" \
		"1\n[extensions]\n\tsubmodulePathConfig" \
		"1\n[extensions]\n\tsubmodulePathConfig = no" \
		"0\n[extensions]\n\tsubmodulePathConfig = yes" \
		"0\n[extensions]\n\trelativeWorktrees = false" \
		"1\n[extensions]\n\tcompatObjectFormat = md5" \
		"1\n[extensions]\n\tcompatObjectFormat"
	do
		printf "[core]\n\trepositoryformatversion = $cfg\n" >fmt/.git/config &&
		{ git_new -C fmt ls-files >expect 2>&1; echo $? >>expect; } &&
		{ dirc -C fmt ls-files >actual 2>&1; echo $? >>actual; } &&
		test_cmp expect actual || return 1
	done
'

test_expect_success GIT 'unknown extensions: the message of git' '
	printf "[core]\n\trepositoryformatversion = 1\n[extensions]\n\tfoo = bar\n\tbaz\n" >fmt/.git/config &&
	test_expect_code 128 git -C fmt hash-object -w f 2>expect &&
	test_expect_code 128 dirc -C fmt hash-object -w f 2>err &&
	test_cmp expect err
'

test_expect_success GIT 'extensions.objectFormat: sha256 honoured; unknown, valueless, or with version 0 refused as git' '
	printf "[core]\n\trepositoryformatversion = 1\n[extensions]\n\tobjectFormat = sha256\n" >fmt/.git/config &&
	dirc -C fmt hash-object -w f >actual &&
	git -C fmt hash-object f >expect &&
	test_cmp expect actual &&
	test $(wc -c <actual) = 65 &&
	git -C fmt cat-file -e $(cat actual) &&
	rm -rf fmt/.git/objects/?? &&
	for cfg in "1\n[extensions]\n\tobjectFormat = sha3" \
		"1\n[extensions]\n\tobjectFormat" \
		"0\n[extensions]\n\tobjectFormat = sha256" \
		"0\n[extensions]\n\tobjectFormat = sha1"
	do
		printf "[core]\n\trepositoryformatversion = $cfg\n" >fmt/.git/config &&
		test_expect_code 128 git -C fmt hash-object -w f 2>expect &&
		test_expect_code 128 dirc -C fmt hash-object -w f 2>err &&
		test_cmp expect err &&
		test_expect_code 128 dirc -C fmt rev-parse --show-object-format 2>err &&
		test_cmp expect err &&
		test_path_is_missing fmt/.git/objects/$(echo $fid | cut -c1-2) || return 1
	done
'

# A repository of version 0 is a SHA-1 one whatever its extensions say:
# fmt0, made SHA-1, takes the version 0 config in both formats of the tests.
test_expect_success 'version 1 with known extensions, version 0 with unknown ones: accepted' '
	printf "[core]\n\trepositoryformatversion = 1\n[extensions]\n\tobjectFormat = $OID_ALGO\n\tnoop = true\n" >fmt/.git/config &&
	dirc -C fmt hash-object -w f >actual &&
	echo $fid >expect &&
	test_cmp expect actual &&
	dirc init -q --object-format=sha1 fmt0 &&
	echo data >fmt0/f &&
	dirc -C fmt0 hash-object f >expect &&
	printf "[core]\n\trepositoryformatversion = 0\n[extensions]\n\tfoo = bar\n" >fmt0/.git/config &&
	dirc -C fmt0 hash-object -w f >actual &&
	test_cmp expect actual &&
	fid0=$(cat actual)
'

test_expect_success GIT 'version 1 with known extensions, version 0 with unknown ones: as git' '
	printf "[core]\n\trepositoryformatversion = 1\n[extensions]\n\tobjectFormat = $OID_ALGO\n\tnoop = true\n" >fmt/.git/config &&
	git -C fmt cat-file -t $fid >expect &&
	dirc -C fmt cat-file -t $fid >actual &&
	test_cmp expect actual &&
	git -C fmt0 cat-file -t $fid0 >expect &&
	dirc -C fmt0 cat-file -t $fid0 >actual &&
	test_cmp expect actual &&
	cp config.orig fmt/.git/config &&
	test_fsck_also fmt fmt0
'

# check_bad_line PRINTF-FORMAT LINE: a repository config of that text
# makes dirc fail with "bad config line LINE in file .../.git/config".
check_bad_line () {
	printf "$1" >bad/.git/config &&
	{ dirc -C bad hash-object -w ../file >out 2>err; echo $? >code; } &&
	echo 128 >expect-code &&
	test_cmp expect-code code &&
	test_grep "^fatal: bad config line $2 in file .*\.git/config\$" err &&
	test_path_is_missing bad/.git/objects/$(echo $id | cut -c1-2)
}

# check_bad_line_git PRINTF-FORMAT: dirc names the same line as git.
check_bad_line_git () {
	printf "$1" >bad/.git/config &&
	test_expect_code 128 git -C bad hash-object -w ../file 2>expect &&
	sed -n -e "s/^fatal: bad config line \([0-9]*\) in file .*/\1/p" expect >git-line &&
	test_expect_code 128 dirc -C bad hash-object -w ../file 2>err &&
	sed -n -e "s/^fatal: bad config line \([0-9]*\) in file .*/\1/p" err >dirc-line &&
	test_file_not_empty git-line &&
	test_cmp git-line dirc-line
}

test_expect_success 'setup: a repository to break the config of' '
	dirc init -q bad &&
	test_fsck_also bad
'

test_expect_success 'broken config lines: "bad config line N in file F", 128' '
	check_bad_line "[core]\n\tfoo bar\n" 2 &&
	check_bad_line "[core]\n\tbare = true\n\tx = a\\\\q\n" 3 &&
	check_bad_line "[core]\n\n\n\t1x = 2\n" 4 &&
	check_bad_line "[co re]\n" 1 &&
	check_bad_line "[]\n" 1 &&
	check_bad_line "# c\n[core \"sub\" ]\n" 2 &&
	check_bad_line "[core]\n\tx-y = 1\n\ty.z = 1\n" 3 &&
	check_bad_line "[core]\n\tx = 1\n\t_z = 3\n" 3
'

test_expect_success 'broken config lines: the line of an incomplete section header or quote' '
	check_bad_line "[core]\n\tbare = true\n[core\n" 3 &&
	check_bad_line "[core]\n\tx = \"abc\n" 2 &&
	check_bad_line "[core \"sub\n" 1 &&
	check_bad_line "[core]\n\tbare\n\tx = \"unterminated\\\\\"\n" 3
'

test_expect_success 'a variable followed by a comment, without "=", is a bad line (as git)' '
	check_bad_line "[core]\n\tbare ; comment\n" 2 &&
	check_bad_line "[core]\n\tbare # comment\n" 2
'

test_expect_success GIT 'broken config lines: the line git names' '
	for text in "[core]\n\tfoo bar\n" "[core\n" "[core]\n\tx = \"abc\n" \
		"[core]\n\tx = a\\\\q\n" "[core]\n\ty ; c\n" "[core \"sub\n" \
		"[core \"sub\"\n" "[]\n" "[core]\n\tx\t= 1\n\ty=2\n\t_z=3\n" \
		"\n\n[core]\n\tbare\n\tx = \"unterminated\\\\\"\n"
	do
		check_bad_line_git "$text" || return 1
	done
'

test_expect_success GIT 'a variable before any section: git warns and goes on' '
	{ printf "x = 1\n[core]\n\tbare = false\n" && oid_format_config; } >bad/.git/config &&
	git -C bad hash-object -w ../file >expect 2>git-err &&
	{ dirc -C bad hash-object -w ../file >actual 2>err; echo $? >code; } &&
	test_cmp git-err err &&
	echo 0 >expect-code &&
	test_cmp expect-code code &&
	test_cmp expect actual
'

test_expect_success GIT 'a backslash at the very end of the file: accepted, as git' '
	{ oid_format_config && printf "[core]\n\tx = a\\\\"; } >bad/.git/config &&
	git -C bad hash-object -w ../file >expect &&
	dirc -C bad hash-object -w ../file >actual &&
	test_cmp expect actual &&
	cp config.orig bad/.git/config
'

test_expect_success GIT 'setup: a tree with a UTF-8 name, to see core.quotePath' '
	dirc init -q qp &&
	test_fsck_also qp &&
	blob=$(echo x | git -C qp hash-object -w --stdin) &&
	printf "100644 blob $blob\té\n100644 blob $blob\tplain\n" >mktree.in &&
	tree=$(git -C qp mktree <mktree.in) &&
	dirc -C qp cat-file -p $tree >actual &&
	test_grep "\"\\\\303\\\\251\"" actual
'

# check_quotepath PRINTF-FORMAT: with that text as the repository config,
# dirc shows the tree as git does.
check_quotepath () {
	{ printf "$1" && oid_format_config; } >qp/.git/config &&
	git -C qp cat-file -p $tree >expect &&
	dirc -C qp cat-file -p $tree >actual &&
	test_cmp expect actual
}

test_expect_success GIT 'config syntax as git reads it (seen through core.quotePath)' '
	check_quotepath "[core]\n\tquotepath = false\n" &&
	test_grep "	é\$" actual &&
	check_quotepath "[core]\n\tquotepath = true\n" &&
	check_quotepath "[CORE]\n\tQuotePath = off\n" &&
	check_quotepath "[Core]\n\tQUOTEPATH = No\n" &&
	check_quotepath "[core] quotepath = 0\n" &&
	check_quotepath "[core]\n\tquotepath\n" &&
	check_quotepath "[core]\n\tquotepath =\n" &&
	check_quotepath "[core]\n\tquotepath = \"\"\n" &&
	check_quotepath "[core]\n\tquotepath = \"fal\"se ; comment\n" &&
	check_quotepath "[core]\n\tquotepath = fa\\\\\nlse\n" &&
	check_quotepath "[core]\n\tquotepath = \"false\" # comment\n" &&
	check_quotepath "# comment\n; comment\n[core]\n\tquotepath = false\n" &&
	check_quotepath "[core]\n\tquotepath = false\n[core]\n\tquotepath = true\n" &&
	check_quotepath "[core]\n\tquotepath = true\n[core]\n\tquotepath = false\n" &&
	check_quotepath "[core \"sub\"]\n\tquotepath = false\n" &&
	check_quotepath "[core.sub]\n\tquotepath = false\n" &&
	check_quotepath "[core]\r\n\tquotepath = false\r\n" &&
	check_quotepath "\357\273\277[core]\n\tquotepath = false\n" &&
	check_quotepath "[core]\n\tquotepath = 2k\n" &&
	check_quotepath "[core]\n\tquotepath = yes\n" &&
	check_quotepath "[core]quotepath=false\n" &&
	check_quotepath "[core]\n  \t quotepath \t = \t false \t \n"
'

test_expect_success GIT 'core.quotePath from -c and the environment' '
	{ printf "[core]\n\tquotepath = true\n" && oid_format_config; } >qp/.git/config &&
	git -C qp -c core.quotePath=false cat-file -p $tree >expect &&
	dirc -C qp -c core.quotePath=false cat-file -p $tree >actual &&
	test_cmp expect actual &&
	GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.quotepath GIT_CONFIG_VALUE_0=false \
		dirc -C qp cat-file -p $tree >actual &&
	test_cmp expect actual &&
	cp config.orig qp/.git/config
'

test_done
