#!/bin/sh
test_description='update-cache and ls-files on bad input: clear message, exit code, index untouched

Corrupt index files (crafted with perl from a valid one), unsupported
extensions, bad --cacheinfo and --index-info input, bad paths, a held
lock, a read-only repository and a full disk: each gives git'"'"'s message
where git has one (else a message naming the index file), the exit code
git gives, and leaves the index byte for byte as it was, with no
index.lock behind.'
. ./test-lib.sh

# craft, object_path, snapshot_objects: see lib-catalogue.sh
. "$TEST_DIRECTORY"/lib-catalogue.sh

# refused INDEX: with INDEX installed as .git/index, both "dirc ls-files
# -s" and "dirc update-cache --add new" exit 128 (stderr in ls.err and
# uc.err), and the index is still INDEX, with no lock left behind.
refused () {
	cp "$1" .git/index &&
	test_expect_code 128 dirc ls-files -s >ls.out 2>ls.err &&
	test_must_be_empty ls.out &&
	test_expect_code 128 dirc update-cache --add new >uc.out 2>uc.err &&
	test_must_be_empty uc.out &&
	test_cmp "$1" .git/index &&
	test_path_is_missing .git/index.lock
}

# git_says INDEX: git's stderr and exit code on INDEX (ls-files, then
# update-index --add new) in git-ls.err, git-uc.err, git-ls.code,
# git-uc.code; the index is restored afterwards.
git_says () {
	cp "$1" .git/index &&
	{ git ls-files -s >/dev/null 2>git-ls.err; echo $? >git-ls.code; } &&
	cp "$1" .git/index &&
	{ git update-index --add new >/dev/null 2>git-uc.err; echo $? >git-uc.code; } &&
	cp "$1" .git/index
}

test_lazy_prereq UNPRIV_TMP '
	test "$(id -u)" != 0 || {
		command -v setpriv &&
		setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
			-- "$DIRC_BUILD_DIR/dirc" --version
	}
'

test_expect_success 'setup: a valid index of three files (v2), and one in v4' '
	T0=1500000000 &&
	mkdir d &&
	echo a >a &&
	echo b >b &&
	echo c >d/c &&
	echo new >new &&
	touch -d @$T0 a b d/c new &&
	dirc update-cache --add a b d/c &&
	cp .git/index good &&
	dirc update-cache --index-version 4 &&
	cp .git/index good4 &&
	cp good .git/index &&
	dirc ls-files -s >good.ls &&
	test_line_count = 3 good.ls
'

# The smallest index: the 12-byte header and the checksum (OID_RAWSZ bytes).
test_expect_success 'truncated to 20 bytes and to one byte short of header and checksum: smaller than expected, naming the file' '
	head -c 20 good >short &&
	refused short &&
	test_grep "^fatal: .*\.git/index: index file smaller than expected$" ls.err &&
	test_grep "^fatal: .*\.git/index: index file smaller than expected$" uc.err &&
	head -c $((12 + OID_RAWSZ - 1)) good >short &&
	refused short &&
	test_grep "^fatal: .*\.git/index: index file smaller than expected$" uc.err
'

test_expect_success 'an empty index file: smaller than expected' '
	: >empty &&
	refused empty &&
	test_grep "^fatal: .*\.git/index: index file smaller than expected$" uc.err
'

test_expect_success GIT 'truncated: git says the same, with the same exit code' '
	head -c 20 good >short &&
	git_says short &&
	echo 128 >expect &&
	test_cmp expect git-ls.code &&
	test_cmp expect git-uc.code &&
	test_grep "index file smaller than expected" git-uc.err
'

test_expect_success 'truncated inside the entries: a message naming the index, 128' '
	head -c 100 good >short &&
	refused short &&
	test_grep "^fatal: .*\.git/index" ls.err &&
	test_grep "^fatal: .*\.git/index" uc.err &&
	craft good short "\$d = substr(\$d, 0, 100)" &&
	refused short &&
	test_grep "^fatal: .*\.git/index" uc.err
'

test_expect_success 'bad signature: error naming it, index file corrupt, 128' '
	craft good badsig "substr(\$d, 0, 4) = \"DIRX\"" &&
	refused badsig &&
	cat >expect <<-\EOF &&
	error: bad signature 0x58524944
	fatal: index file corrupt
	EOF
	test_cmp expect ls.err &&
	test_cmp expect uc.err
'

test_expect_success GIT 'bad signature: exactly git'"'"'s messages and exit codes' '
	git_says badsig &&
	refused badsig &&
	test_cmp git-ls.err ls.err &&
	test_cmp git-uc.err uc.err &&
	echo 128 >expect &&
	test_cmp expect git-uc.code
'

test_expect_success 'unsupported versions 5 and 1: bad index version, 128' '
	craft good v5 "substr(\$d, 4, 4) = pack(\"N\", 5)" &&
	refused v5 &&
	cat >expect <<-\EOF &&
	error: bad index version 5
	fatal: index file corrupt
	EOF
	test_cmp expect ls.err &&
	test_cmp expect uc.err &&
	craft good v1 "substr(\$d, 4, 4) = pack(\"N\", 1)" &&
	refused v1 &&
	test_grep "^error: bad index version 1$" uc.err
'

test_expect_success GIT 'unsupported versions: exactly git'"'"'s messages' '
	git_says v5 &&
	refused v5 &&
	test_cmp git-ls.err ls.err &&
	test_cmp git-uc.err uc.err
'

test_expect_success 'a zeroed checksum is accepted; a rewrite writes a real one' '
	craft -n good zerosum "" &&
	perl -e '\''
		open my $f, "+<", "zerosum" or die; binmode $f;
		seek $f, -$ARGV[0], 2; print $f "\0" x $ARGV[0]; close $f;'\'' "$OID_RAWSZ" &&
	cp zerosum .git/index &&
	dirc ls-files -s >actual &&
	test_cmp good.ls actual &&
	dirc update-cache --add new &&
	dirc ls-files >actual &&
	test_write_lines a b d/c new >expect &&
	test_cmp expect actual &&
	perl -MDigest::SHA -e '\''
		my ($algo, $rawsz) = @ARGV;
		open my $f, "<", ".git/index" or die; binmode $f; local $/;
		my $d = <$f>; my $body = substr($d, 0, -$rawsz);
		my $sum = Digest::SHA->new($algo eq "sha256" ? 256 : 1)->add($body)->digest;
		print $sum eq substr($d, -$rawsz) ? "ok\n" : "bad\n";'\'' \
		"$OID_ALGO" "$OID_RAWSZ" >sum &&
	echo ok >expect &&
	test_cmp expect sum
'

test_expect_success GIT 'a wrong (non-zero) checksum is not checked by ordinary reads, as in git' '
	craft -n good badsum "" &&
	perl -e '\''
		open my $f, "+<", "badsum" or die; binmode $f;
		seek $f, -1, 2; print $f "\x55"; close $f;'\'' &&
	cp badsum .git/index &&
	git ls-files -s >expect &&
	dirc ls-files -s >actual &&
	test_cmp expect actual
'

# A bad checksum is only detected on request (the way git fsck checks
# it); dirc has no command that verifies the index yet, so that case is
# not tested here.

test_expect_success 'more entries announced than the file holds: message naming the index' '
	craft good toomany "substr(\$d, 8, 4) = pack(\"N\", 4)" &&
	refused toomany &&
	test_grep "^fatal: .*\.git/index" uc.err &&
	craft good toomany "substr(\$d, 8, 4) = pack(\"N\", 400000)" &&
	refused toomany &&
	test_grep "^fatal: .*\.git/index" uc.err
'

# An entry: 40 bytes of stat data, the id (OID_RAWSZ bytes), 2 bytes of
# flags, (version 3 and an extended entry: 2 more), the name.  The first
# entry starts after the 12-byte header.
test_expect_success 'a name length in the flags that lies: message naming the index' '
	for fl in 0x0100 0x0fff 0x0000 0x0002
	do
		craft good badlen "substr(\$d, $((12 + 40 + OID_RAWSZ)), 2) = pack(\"n\", $fl)" &&
		refused badlen &&
		test_grep "^fatal: .*\.git/index" uc.err || return 1
	done
'

test_expect_success 'the extended flag in a version 2 index: 128' '
	craft good ext2 "substr(\$d, $((12 + 40 + OID_RAWSZ)), 2) = pack(\"n\", 0x4001)" &&
	refused ext2 &&
	test_grep "^fatal: " uc.err
'

test_expect_success GIT 'unknown extended flag bits (version 3): git'"'"'s message' '
	cp good .git/index &&
	git update-index --skip-worktree a &&
	cp .git/index good3 &&
	craft good3 badext "substr(\$d, $((12 + 42 + OID_RAWSZ)), 2) = pack(\"n\", 0xC000)" &&
	git_says badext &&
	refused badext &&
	test_cmp git-ls.err ls.err &&
	test_cmp git-uc.err uc.err
'

# Version 4: entry 1 is its fixed part, the prefix length to strip (one
# byte), "a" and its NUL; entry 2 then starts with its fixed part.
test_expect_success 'version 4, a prefix longer than the previous name: malformed name field' '
	craft good4 v4bad "substr(\$d, $((12 + 42 + OID_RAWSZ + 1 + 2 + 42 + OID_RAWSZ)), 1) = \"\\x05\"" &&
	refused v4bad &&
	echo "fatal: malformed name field in the index, near path '\''a'\''" >expect &&
	test_cmp expect ls.err &&
	test_cmp expect uc.err &&
	craft good4 v4bad "substr(\$d, $((12 + 42 + OID_RAWSZ)), 1) = \"\\x01\"" &&
	refused v4bad &&
	test_grep "^fatal: malformed name field in the index" uc.err
'

test_expect_success GIT 'version 4, bad prefix: exactly git'"'"'s message' '
	craft good4 v4bad "substr(\$d, $((12 + 42 + OID_RAWSZ + 1 + 2 + 42 + OID_RAWSZ)), 1) = \"\\x05\"" &&
	git_says v4bad &&
	refused v4bad &&
	test_cmp git-ls.err ls.err &&
	test_cmp git-uc.err uc.err
'

test_expect_success 'unknown required extension "abcd": error naming it, 128' '
	craft good abcd "\$d .= \"abcd\" . pack(\"N\", 4) . \"data\"" &&
	refused abcd &&
	cat >expect <<-\EOF &&
	error: index uses abcd extension, which we do not understand
	fatal: index file corrupt
	EOF
	test_cmp expect ls.err &&
	test_cmp expect uc.err
'

test_expect_success GIT 'unknown required extension: exactly git'"'"'s message' '
	git_says abcd &&
	refused abcd &&
	test_cmp git-ls.err ls.err &&
	test_cmp git-uc.err uc.err
'

test_expect_success 'unknown optional extension "ZZZZ": "ignoring ZZZZ extension", read on' '
	craft good zzzz "\$d .= \"ZZZZ\" . pack(\"N\", 3) . \"xyz\"" &&
	cp zzzz .git/index &&
	dirc ls-files -s >actual 2>err &&
	test_cmp good.ls actual &&
	echo "ignoring ZZZZ extension" >expect &&
	test_cmp expect err
'

test_expect_success 'ZZZZ is dropped when dirc rewrites the index' '
	cp zzzz .git/index &&
	dirc update-cache --add new 2>err &&
	echo "ignoring ZZZZ extension" >expect &&
	test_cmp expect err &&
	dirc ls-files -s >actual 2>err &&
	test_must_be_empty err &&
	test_line_count = 4 actual &&
	perl -e '\''
		open my $f, "<", ".git/index" or die; binmode $f; local $/;
		my $d = <$f>; print index($d, "ZZZZ") >= 0 ? "found\n" : "gone\n";'\'' >where &&
	echo gone >expect &&
	test_cmp expect where
'

test_expect_success GIT 'ZZZZ: git says the same' '
	git_says zzzz &&
	cp zzzz .git/index &&
	dirc ls-files -s >actual 2>err &&
	test_cmp git-ls.err err
'

test_expect_success 'an extension running past the end of the file: 128, naming the index' '
	craft good zzlong "\$d .= \"ZZZZ\" . pack(\"N\", 300) . \"xyz\"" &&
	refused zzlong &&
	test_grep "^fatal: .*\.git/index" uc.err
'

test_expect_success 'a "link" extension naming no shared index (all-zero id): read as git reads it' '
	craft good link "\$d .= \"link\" . pack(\"N\", $OID_RAWSZ) . (\"\\0\" x $OID_RAWSZ)" &&
	cp good .git/index &&
	dirc ls-files -s >expect &&
	cp link .git/index &&
	dirc ls-files -s >actual 2>err &&
	test_must_be_empty err &&
	test_cmp expect actual &&
	test_cmp link .git/index
'

test_expect_success 'the "sdir" extension alone (a sparse index with nothing collapsed): read as git reads it' '
	craft good sdir "\$d .= \"sdir\" . pack(\"N\", 0)" &&
	cp good .git/index &&
	dirc ls-files -s >expect &&
	cp sdir .git/index &&
	dirc ls-files -s >actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err &&
	test_cmp sdir .git/index &&
	cp good .git/index
'

test_expect_success GIT 'a real split index written by git: read as git reads it (t2016 has the rest)' '
	cp good .git/index &&
	git update-index --split-index &&
	test_when_finished "rm -f .git/sharedindex.*" &&
	git ls-files -s --debug >expect &&
	dirc ls-files -s --debug >actual &&
	test_cmp expect actual
'

test_expect_success 'index.lock held: git'"'"'s message, 128, index and lock untouched' '
	cp good .git/index &&
	test_when_finished "rm -f .git/index.lock" &&
	echo "someone else" >.git/index.lock &&
	test_expect_code 128 dirc update-cache --add new 2>err &&
	test_grep "^fatal: Unable to create '\''.*/\.git/index\.lock'\'': File exists\.$" err &&
	test_grep "^Another git process seems to be running in this repository, or the lock file may be stale$" err &&
	test_cmp good .git/index &&
	echo "someone else" >expect &&
	test_cmp expect .git/index.lock
'

test_expect_success 'a listed path that does not exist: error, fatal, 128' '
	cp good .git/index &&
	test_expect_code 128 dirc update-cache --add nosuch 2>err &&
	cat >expect <<-\EOF &&
	error: nosuch: does not exist and --remove not passed
	fatal: Unable to process path nosuch
	EOF
	test_cmp expect err &&
	test_cmp good .git/index &&
	test_path_is_missing .git/index.lock
'

test_expect_success SYMLINKS 'a path beyond a symbolic link: error, fatal, 128' '
	cp good .git/index &&
	ln -s d lnk &&
	test_expect_code 128 dirc update-cache --add lnk/c 2>err &&
	cat >expect <<-\EOF &&
	error: '\''lnk/c'\'' is beyond a symbolic link
	fatal: Unable to process path lnk/c
	EOF
	test_cmp expect err &&
	test_cmp good .git/index &&
	mkdir real &&
	echo x >real/x &&
	ln -s real lnk2 &&
	dirc update-cache --add lnk2 &&
	cp .git/index with-lnk2 &&
	test_expect_code 128 dirc update-cache --add --replace lnk2/x 2>err &&
	test_grep "^error: '\''lnk2/x'\'' is beyond a symbolic link$" err &&
	test_cmp with-lnk2 .git/index
'

test_expect_success 'bad paths: "Ignoring path", exit 0, nothing added' '
	cp good .git/index &&
	mkdir -p sub/.git x/.GIT git~1 &&
	echo x >sub/.git/x &&
	echo x >x/.GIT/y &&
	echo x >git~1/x &&
	for p in .git/config x/.GIT/y git~1/x sub/.git/x d/ .git/
	do
		dirc update-cache --add "$p" 2>err &&
		echo "Ignoring path $p" >expect &&
		test_cmp expect err &&
		test_cmp good .git/index || return 1
	done
'

test_expect_success 'a path outside the work tree: fatal, 128' '
	cp good .git/index &&
	test_expect_code 128 dirc update-cache --add ../outside a/../../x 2>err &&
	test_grep "^fatal: .*outside repository" err &&
	test_cmp good .git/index &&
	test_path_is_missing .git/index.lock
'

test_expect_success GIT '--cacheinfo: bad mode, id or arguments: git'"'"'s messages and codes' '
	blob=$(git hash-object -w a) &&
	cp good .git/index &&
	fail= &&
	for args in "100644,xyz,p" "100644,,p" "10x644,$blob,p" \
		"100644,$blob" "100644,${blob}00,p" "777777,$blob,p" \
		"100644 xyz p" "10x644 $blob p" "100644 $blob" \
		"100644,,ci-one --cacheinfo 100755 $blob p2" "" \
		"100644,$blob,.git/x" "100644,$blob," "100644,$blob,a/" \
		"100644,$blob,/abs" "100644,$blob,a//b" "100644,$blob,d/../x" \
		"100644,$ZERO_OID,nul" \
		"100644,$blob,a/x" "100644,$blob,newpath"
	do
		cp good .git/index &&
		{ git update-index --cacheinfo $args >git.out 2>git.err; echo $? >git.code; } &&
		mv .git/index git.index &&
		cp good .git/index &&
		{ dirc update-cache --cacheinfo $args >dirc.out 2>dirc.err; echo $? >dirc.code; } &&
		test_cmp_codes git.code dirc.code &&
		test_cmp git.out dirc.out &&
		test_cmp git.err dirc.err &&
		test_cmp git.index .git/index || {
			echo "^^^ differs from git: update-cache --cacheinfo $args" >&2
			fail=t
		}
	done &&
	test -z "$fail"
'

test_expect_success GIT '--add --cacheinfo with a file/directory conflict: git'"'"'s messages' '
	cp good .git/index &&
	{ git update-index --add --cacheinfo 100644,$blob,a/x >git.out 2>git.err; echo $? >git.code; } &&
	cp good .git/index &&
	{ dirc update-cache --add --cacheinfo 100644,$blob,a/x >dirc.out 2>dirc.err; echo $? >dirc.code; } &&
	test_cmp_codes git.code dirc.code &&
	test_cmp git.err dirc.err &&
	test_cmp good .git/index
'

test_expect_success '--cacheinfo with an invalid path: error, fatal, 128' '
	cp good .git/index &&
	test_expect_code 128 dirc update-cache --add --cacheinfo 100644,$(dirc hash-object a),.git/x 2>err &&
	cat >expect <<-\EOF &&
	error: Invalid path '\''.git/x'\''
	fatal: git update-index: --cacheinfo cannot add .git/x
	EOF
	test_cmp expect err &&
	test_cmp good .git/index
'

test_expect_success '--cacheinfo with too few arguments: usage error 129' '
	cp good .git/index &&
	test_expect_code 129 dirc update-cache --cacheinfo 100644,xyz,p 2>err &&
	test_grep "^error: option '\''cacheinfo'\'' expects <mode>,<sha1>,<path>$" err &&
	test_cmp good .git/index
'

test_expect_success '--cacheinfo 040000 (a tree): refused, unlike git, index unchanged' '
	cp good .git/index &&
	tree=$EMPTY_TREE &&
	test_must_fail dirc update-cache --add --cacheinfo 040000,$tree,t 2>err &&
	test_file_not_empty err &&
	test_cmp good .git/index &&
	test_path_is_missing .git/index.lock &&
	printf "040000 %s\tt\n" $tree >info &&
	test_must_fail dirc update-cache --index-info <info 2>err &&
	test_file_not_empty err &&
	test_cmp good .git/index &&
	test_path_is_missing .git/index.lock
'

test_expect_success GIT '--index-info with bad lines: git'"'"'s messages and codes' '
	cp good .git/index &&
	blob=$(git hash-object -w a) &&
	printf "garbage\n" >bad1 &&
	printf "100644 %s\n" $blob >bad2 &&
	printf "100644 xyz\tp\n" >bad3 &&
	printf "10x644 %s\tp\n" $blob >bad4 &&
	printf "100644 %s 4\tp\n" $blob >bad5 &&
	printf "100644 %s\t.git/x\n100644 %s\tok\n" $blob $blob >bad6 &&
	printf "100644 %s\t\"bad\\\\qu\n" $blob >bad7 &&
	printf "\n" >bad8 &&
	printf "100644 %s\tfirst\ngarbage\n" $blob >bad9 &&
	printf "100644 %s\t\n" $blob >bad10 &&
	printf "100644 %s\td/../x\n" $blob >bad11 &&
	fail= &&
	for i in $(test_seq 11)
	do
		cp good .git/index &&
		{ git update-index --index-info <bad$i >git.out 2>git.err; echo $? >git.code; } &&
		mv .git/index git.index &&
		cp good .git/index &&
		{ dirc update-cache --index-info <bad$i >dirc.out 2>dirc.err; echo $? >dirc.code; } &&
		test_cmp_codes git.code dirc.code &&
		test_cmp git.out dirc.out &&
		test_cmp git.err dirc.err &&
		test_cmp git.index .git/index || {
			echo "^^^ differs from git: update-cache --index-info <bad$i" >&2
			fail=t
		}
	done &&
	test -z "$fail"
'

test_expect_success '--stdin with a badly quoted line: fatal, 128, index untouched' '
	cp good .git/index &&
	printf "new\n\"bad\\\\q\n" >in1 &&
	printf "\"unterminated\n" >in2 &&
	for i in in1 in2
	do
		test_expect_code 128 dirc update-cache --add --stdin <$i 2>err &&
		echo "fatal: line is badly quoted" >expect &&
		test_cmp expect err &&
		test_cmp good .git/index &&
		test_path_is_missing .git/index.lock || return 1
	done
'

test_expect_success 'a null object id cannot be written' '
	cp good .git/index &&
	test_expect_code 128 dirc update-cache --add \
		--cacheinfo 100644,$ZERO_OID,nul 2>err &&
	cat >expect <<-\EOF &&
	error: cache entry has null sha1: nul
	fatal: Unable to write new index file
	EOF
	test_cmp expect err &&
	test_cmp good .git/index &&
	test_path_is_missing .git/index.lock
'

test_expect_success UNPRIV_TMP 'read-only .git as another user: git'"'"'s message, 128, index untouched' '
	tmp=$(mktemp -d /tmp/dirc-unpriv.XXXXXX) &&
	test_when_finished "chmod -R u+w \"$tmp\"; rm -rf \"$tmp\"" &&
	chmod 755 "$tmp" &&
	mkdir "$tmp/r" &&
	(
		cd "$tmp/r" &&
		dirc init -q &&
		echo a >a &&
		echo b >b &&
		dirc update-cache --add a
	) &&
	test_chown_unpriv "$tmp" &&
	cp "$tmp/r/.git/index" ro.before &&
	chmod a-w "$tmp/r/.git" &&
	id=$(dirc hash-object "$tmp/r/b") &&
	(
		cd "$tmp/r" &&
		test_expect_code 128 run_unpriv dirc update-cache --add b 2>"$TRASH_DIRECTORY/err"
	) &&
	echo "fatal: Unable to create '\''$tmp/r/.git/index.lock'\'': Permission denied" >expect &&
	test_cmp expect err &&
	test_cmp ro.before "$tmp/r/.git/index" &&
	test_path_is_missing "$tmp/r/.git/index.lock" &&
	test_path_is_file "$tmp/r/$(object_path $id)" &&
	if test_have_prereq GIT
	then
		rm -f "$tmp/r/$(object_path $id)" &&
		(
			cd "$tmp/r" &&
			test_expect_code 128 run_unpriv git update-index --add b 2>"$TRASH_DIRECTORY/git.err"
		) &&
		test_cmp git.err err
	fi
'

test_expect_success UNPRIV_TMP 'read-only object store: git'"'"'s messages, 128, index untouched' '
	tmp=$(mktemp -d /tmp/dirc-unpriv.XXXXXX) &&
	test_when_finished "chmod -R u+w \"$tmp\"; rm -rf \"$tmp\"" &&
	chmod 755 "$tmp" &&
	mkdir "$tmp/r" &&
	(
		cd "$tmp/r" &&
		dirc init -q &&
		echo a >a &&
		echo "new content" >b &&
		dirc update-cache --add a
	) &&
	test_chown_unpriv "$tmp" &&
	cp "$tmp/r/.git/index" ro.before &&
	chmod -R a-w "$tmp/r/.git/objects" &&
	(
		cd "$tmp/r" &&
		test_expect_code 128 run_unpriv dirc update-cache --add b 2>"$TRASH_DIRECTORY/err"
	) &&
	test_grep "^fatal: Unable to process path b$" err &&
	test_cmp ro.before "$tmp/r/.git/index" &&
	test_path_is_missing "$tmp/r/.git/index.lock" &&
	find "$tmp/r/.git/objects" -name "tmp_obj_*" >tmpobj &&
	test_must_be_empty tmpobj &&
	if test_have_prereq GIT
	then
		(
			cd "$tmp/r" &&
			test_expect_code 128 run_unpriv git update-index --add b 2>"$TRASH_DIRECTORY/git.err"
		) &&
		test_cmp git.err err
	fi
'

test_expect_success UNPRIV_TMP 'an unreadable file: git'"'"'s messages, 128, index untouched' '
	tmp=$(mktemp -d /tmp/dirc-unpriv.XXXXXX) &&
	test_when_finished "chmod -R u+rw \"$tmp\"; rm -rf \"$tmp\"" &&
	chmod 755 "$tmp" &&
	mkdir "$tmp/r" &&
	(
		cd "$tmp/r" &&
		dirc init -q &&
		echo a >a &&
		echo secret >b &&
		dirc update-cache --add a
	) &&
	test_chown_unpriv "$tmp" &&
	chmod 000 "$tmp/r/b" &&
	cp "$tmp/r/.git/index" ro.before &&
	(
		cd "$tmp/r" &&
		test_expect_code 128 run_unpriv dirc update-cache --add b 2>"$TRASH_DIRECTORY/err"
	) &&
	test_grep "^fatal: Unable to process path b$" err &&
	test_grep "Permission denied" err &&
	test_cmp ro.before "$tmp/r/.git/index" &&
	test_path_is_missing "$tmp/r/.git/index.lock" &&
	if test_have_prereq GIT
	then
		(
			cd "$tmp/r" &&
			test_expect_code 128 run_unpriv git update-index --add b 2>"$TRASH_DIRECTORY/git.err"
		) &&
		test_cmp git.err err
	fi
'

test_expect_success ULIMIT_FILE_SIZE 'a full disk while writing the index: clean failure, old index kept' '
	cp good .git/index &&
	blob=$(dirc hash-object -w a) &&
	i=0 &&
	while test $i -lt 5000
	do
		printf "100644 %s\tdir%d/file%d\n" $blob $((i / 100)) $i &&
		i=$((i + 1)) || return 1
	done >big.info &&
	(
		ulimit -f 64 &&
		trap "" XFSZ &&
		test_expect_code 128 dirc update-cache --index-info <big.info 2>err
	) &&
	test_grep "^fatal: " err &&
	test_grep "index" err &&
	test_grep "File too large" err &&
	test_cmp good .git/index &&
	test_path_is_missing .git/index.lock &&
	dirc update-cache --index-info <big.info &&
	dirc ls-files >actual &&
	test_line_count = 5003 actual
'

test_expect_success ULIMIT_FILE_SIZE 'a full disk while a 20,000-entry index is written and hashed on a second thread: clean failure, old index kept' '
	cp good .git/index &&
	blob=$(dirc hash-object -w a) &&
	awk -v b=$blob "BEGIN { for (i = 0; i < 20000; i++)
		printf \"100644 %s\\tbig%03d/file%05d\\n\", b, i / 200, i }" >huge.info &&
	for t in 1 2
	do
		(
			ulimit -f 1024 &&
			trap "" XFSZ &&
			test_expect_code 128 dirc update-cache --threads=$t \
				--index-info <huge.info 2>err
		) &&
		test_grep "^fatal: .*File too large" err &&
		test_cmp good .git/index &&
		test_path_is_missing .git/index.lock || return 1
	done
'

test_expect_success ULIMIT_FILE_SIZE 'a full disk while writing an object: clean failure, nothing left' '
	cp good .git/index &&
	awk "BEGIN { for (i = 0; i < 200000; i++) print i, i * 7919 % 65521 }" >huge &&
	snapshot_objects >objects.before &&
	(
		ulimit -f 16 &&
		trap "" XFSZ &&
		test_must_fail dirc update-cache --add huge 2>err
	) &&
	test_grep "huge" err &&
	test_cmp good .git/index &&
	test_path_is_missing .git/index.lock &&
	snapshot_objects >objects.after &&
	test_cmp objects.before objects.after
'

# In a checkout under a private directory (a fresh clone in a 0700 temp
# directory, say), uid 65534 cannot reach the trash directory, nor the
# HOME beside it: git and dirc then both warned "could not open
# .../.gitconfig for reading", and the three tests above failed.  It was
# the place, not the machine's load.  run_unpriv now gives that user a
# HOME it can read, with a copy of ours.
test_expect_success UNPRIV_TMP 'run_unpriv: a HOME the user can read, even when ours is out of its reach' '
	tmp=$(mktemp -d /tmp/dirc-unpriv.XXXXXX) &&
	private=$(mktemp -d /tmp/dirc-private.XXXXXX) &&
	test_when_finished "chmod -R u+w \"$tmp\"; rm -rf \"$tmp\" \"$private\"" &&
	chmod 755 "$tmp" &&
	chmod 700 "$private" &&
	mkdir "$tmp/r" "$private/home" &&
	printf "[core]\n\tabbrev = 11\n" >"$private/home/.gitconfig" &&
	(
		cd "$tmp/r" &&
		dirc init -q &&
		echo a >a
	) &&
	test_chown_unpriv "$tmp" &&
	(
		HOME=$private/home &&
		export HOME &&
		cd "$tmp/r" &&
		run_unpriv dirc update-cache --add a 2>"$TRASH_DIRECTORY/err" &&
		if test_have_prereq GIT
		then
			run_unpriv git config core.abbrev >"$TRASH_DIRECTORY/abbrev" \
				2>>"$TRASH_DIRECTORY/err" &&
			echo 11 >"$TRASH_DIRECTORY/expect"
		else
			echo 11 >"$TRASH_DIRECTORY/abbrev" &&
			cp "$TRASH_DIRECTORY/abbrev" "$TRASH_DIRECTORY/expect"
		fi
	) &&
	test_must_be_empty err &&
	test_cmp expect abbrev &&
	dirc -C "$tmp/r" ls-files >actual &&
	echo a >expect &&
	test_cmp expect actual
'

test_done
