#!/bin/sh
test_description='bad-input catalogue: corrupt index files, side by side with git

Each damaged index is given to dirc (ls-files -s, update-cache --add,
write-tree) and to git (ls-files -s, update-index --add): dirc must exit
128 with a "fatal:" message wherever git exits non-zero, and may be
stricter (git reads some of these and goes on with garbage); the index,
the object store and the absence of index.lock are checked after every
dirc run.  t2003 checks the exact messages of the cases it shares.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-catalogue.sh

# The offsets the crafted damage uses: an entry is 40 bytes of stat data
# and mode, the id (OID_RAWSZ bytes), 2 bytes of flags (at $flags_at in
# the entry), then the name, NUL-padded to a multiple of 8 ($one bytes in
# all for a one-letter name); the first one starts at 12, after the
# header, the second at $second.
test_expect_success 'setup: a valid index (v2, v4, with REUC), and the blob of "new" stored' '
	flags_at=$((40 + OID_RAWSZ)) &&
	fixed=$((flags_at + 2)) &&
	one=$(( (fixed + 1) / 8 * 8 + 8 )) &&
	second=$((12 + one)) &&
	mkdir d &&
	echo a >a &&
	echo b >b &&
	echo c >d/c &&
	echo new >new &&
	touch -d @1500000000 a b d/c new &&
	dirc update-cache --add a b d/c &&
	dirc hash-object -w new >/dev/null &&
	cp .git/index good &&
	dirc update-cache --index-version 4 &&
	cp .git/index good4 &&
	blob=$(dirc hash-object a) &&
	printf "100644 %s 1\tz\n100644 %s 2\tz\n" $blob $blob >info &&
	dirc update-cache --index-version 2 --index-info <info &&
	echo z >z &&
	dirc update-cache --add z &&
	cp .git/index goodreuc &&
	perl -e '\''
		open my $f, "<", "goodreuc" or die; binmode $f; local $/;
		my $d = <$f>; print index($d, "REUC") >= 0 ? "yes\n" : "no\n";'\'' >has &&
	echo yes >expect &&
	test_cmp expect has &&
	rm z &&
	cp good .git/index
'

# index_case FILE DIRC GIT_LS GIT_UC: with FILE as the index, dirc
# ls-files -s and update-cache --add new exit DIRC (0 or 128; for 128
# write-tree too, each with a "fatal:" line, leaving the repository as
# it was); git ls-files -s exits GIT_LS and git update-index --add new
# GIT_UC.  dirc's ls-files stderr is left in ls.err.
index_case () {
	cp "$1" .git/index &&
	state_save &&
	{ dirc ls-files -s >out 2>ls.err; echo $? >code; } &&
	echo $2 >expect &&
	test_cmp expect code &&
	state_unchanged &&
	{ dirc update-cache --add new >out 2>uc.err; echo $? >code; } &&
	test_cmp expect code &&
	if test $2 = 128
	then
		state_unchanged &&
		test_must_be_empty out &&
		test_grep "^fatal: " ls.err &&
		test_grep "^fatal: " uc.err &&
		test_expect_code 128 dirc write-tree >out 2>wt.err &&
		test_must_be_empty out &&
		test_grep "^fatal: " wt.err &&
		state_unchanged
	fi &&
	cp "$1" .git/index &&
	if test_have_prereq GIT
	then
		cp "$1" git.index &&
		{ GIT_INDEX_FILE=git.index git ls-files -s >/dev/null 2>git-ls.err; echo $? >git.code; } &&
		rm -f git.index.lock &&
		code_is "$3" &&
		cp "$1" git.index &&
		{ GIT_INDEX_FILE=git.index git update-index --add new >/dev/null 2>git-uc.err; echo $? >git.code; } &&
		rm -f git.index.lock &&
		code_is "$4"
	fi
}

test_expect_success 'empty, and cut inside the header: 128, as git' '
	: >empty &&
	index_case empty 128 128 128 &&
	test_grep "index file smaller than expected" ls.err &&
	head -c 20 good >short20 &&
	index_case short20 128 128 128
'

test_expect_success 'cut inside the entries: 128 (git ls-files reads on, update-index 128)' '
	head -c 100 good >trunc100 &&
	index_case trunc100 128 0 128 &&
	test_grep "is corrupt: more entries than the file can hold" ls.err
'

test_expect_success 'bad signature, bad version: 128, as git' '
	craft good badsig "substr(\$d, 0, 4) = \"DIRX\"" &&
	index_case badsig 128 128 128 &&
	craft good v5 "substr(\$d, 4, 4) = pack(\"N\", 5)" &&
	index_case v5 128 128 128
'

test_expect_success 'the entry count lies: 128 (git ls-files reads some of these)' '
	# In SHA-256 git 2.39 reads past the end of these (count4: the
	# checksum as a fourth entry) and, depending on where its map of the
	# file ends, may die of SIGBUS instead of what it does in SHA-1
	if test_have_prereq SHA256
	then
		reads="0|signal" refuses="128|signal"
	else
		reads=0 refuses=128
	fi &&
	craft good count4 "substr(\$d, 8, 4) = pack(\"N\", 4)" &&
	index_case count4 128 "$reads" "$refuses" &&
	craft good count400k "substr(\$d, 8, 4) = pack(\"N\", 400000)" &&
	index_case count400k 128 "$refuses" "$refuses" &&
	craft good count2 "substr(\$d, 8, 4) = pack(\"N\", 2)" &&
	index_case count2 128 "$refuses" "$refuses"
'

test_expect_success 'a name length field that lies: 128 (git reads some, and writes garbage back)' '
	craft good len0x0100 "substr(\$d, 12 + $flags_at, 2) = pack(\"n\", 0x0100)" &&
	index_case len0x0100 128 0 128 &&
	craft good len0x0fff "substr(\$d, 12 + $flags_at, 2) = pack(\"n\", 0x0fff)" &&
	index_case len0x0fff 128 0 0 &&
	craft good len0x0000 "substr(\$d, 12 + $flags_at, 2) = pack(\"n\", 0x0000)" &&
	index_case len0x0000 128 0 0 &&
	test_grep "entry name length does not match its flags" ls.err
'

test_expect_success 'extended flags in a version 2 index, unknown ones in version 3: 128, as git' '
	craft good ext2 "substr(\$d, 12 + $flags_at, 2) = pack(\"n\", 0x4001)" &&
	index_case ext2 128 128 128 &&
	cp good .git/index &&
	dirc update-cache --skip-worktree a &&
	cp .git/index good3 &&
	craft good3 ext3 "substr(\$d, 12 + $fixed, 2) = pack(\"n\", 0xC000)" &&
	index_case ext3 128 128 128 &&
	test_grep "^fatal: unknown index entry format 0xc0000000$" ls.err
'

test_expect_success 'version 4: a prefix to strip longer than the previous name: 128, as git' '
	craft good4 v4bad "substr(\$d, 12 + $fixed + 1 + 2 + $fixed, 1) = \"\\x05\"" &&
	index_case v4bad 128 128 128 &&
	test_grep "^fatal: malformed name field in the index, near path '\''a'\''$" ls.err
'

test_expect_success 'entries out of order, twice the same, stages out of order: 128 (git reads them; only git fsck objects)' '
	craft good swapped "my \$e1 = substr(\$d, 12, $one); my \$e2 = substr(\$d, $second, $one);
		substr(\$d, 12, 2 * $one) = \$e2 . \$e1" &&
	index_case swapped 128 0 0 &&
	test_grep "is corrupt: entries out of order near '\''a'\''" ls.err &&
	craft good twice "substr(\$d, $second, $one) = substr(\$d, 12, $one)" &&
	index_case twice 128 0 0 &&
	craft good stage21 "my \$e = substr(\$d, 12, $one);
		substr(\$e, $flags_at, 2) = pack(\"n\", 0x2001); substr(\$d, 12, $one) = \$e;
		substr(\$e, $flags_at, 2) = pack(\"n\", 0x1001); substr(\$d, $second, $one) = \$e" &&
	index_case stage21 128 0 0 &&
	if test_have_prereq GIT
	then
		cp swapped .git/index &&
		test_expect_code 128 git fsck 2>err &&
		test_grep "unordered stage entries in index" err &&
		cp good .git/index
	fi
'

test_expect_success 'a path at stage 0 and at stage 1 too: read, as git (git itself writes it)' '
	craft good stage01 "my \$e = substr(\$d, 12, $one);
		substr(\$e, $flags_at, 2) = pack(\"n\", 0x1001); substr(\$d, $second, $one) = \$e" &&
	index_case stage01 0 0 0 &&
	cp stage01 .git/index &&
	test_expect_code 128 dirc write-tree 2>err &&
	test_grep "^a: unmerged" err &&
	cp good .git/index
'

test_expect_success 'an extension running past the end; zeroed extension header: 128 (git ignores an optional one)' '
	craft good zzlong "\$d .= \"ZZZZ\" . pack(\"N\", 300) . \"xyz\"" &&
	index_case zzlong 128 0 0 &&
	test_grep "extension runs past the end of the file" ls.err &&
	craft good zero8 "\$d .= \"\\0\" x 8" &&
	index_case zero8 128 128 128
'

test_expect_success 'under 8 bytes after the last extension: 128 (git ignores them)' '
	craft good junk4 "\$d .= \"ABCD\"" &&
	index_case junk4 128 0 0 &&
	test_grep "garbage after the last extension" ls.err
'

test_expect_success 'unknown required extension: 128, as git; unknown optional one: ignored, as git' '
	craft good abcd "\$d .= \"abcd\" . pack(\"N\", 4) . \"data\"" &&
	index_case abcd 128 128 128 &&
	test_grep "^error: index uses abcd extension, which we do not understand$" ls.err &&
	craft good zzzz "\$d .= \"ZZZZ\" . pack(\"N\", 3) . \"xyz\"" &&
	index_case zzzz 0 0 0 &&
	echo "ignoring ZZZZ extension" >expect &&
	test_cmp expect ls.err
'

test_expect_success 'split index (link, naming no shared index) and sparse index (sdir): read, as git' '
	craft good link "\$d .= \"link\" . pack(\"N\", $OID_RAWSZ) . (\"\\0\" x $OID_RAWSZ)" &&
	index_case link 0 0 0 &&
	craft good sdir "\$d .= \"sdir\" . pack(\"N\", 0)" &&
	index_case sdir 0 0 0
'

test_expect_success 'a damaged REUC extension: 128 (git says "invalid resolve-undo information" and drops it)' '
	craft goodreuc reucbad "my \$at = index(\$d, \"REUC\");
		substr(\$d, \$at + 8 + 2, 1) = \"x\"" &&
	index_case reucbad 128 0 0 &&
	test_grep "is corrupt: bad REUC extension" ls.err &&
	if test_have_prereq GIT
	then
		test_grep "^error: Index records invalid resolve-undo information" git-uc.err
	fi
'

test_expect_success GIT 'a wrong trailing checksum: ordinary reads go on, as git; verify-index and git fsck: 128' '
	craft -n good badsum "" &&
	perl -e '\''
		open my $f, "+<", "badsum" or die; binmode $f;
		seek $f, -1, 2; print $f "\x55"; close $f;'\'' &&
	cp badsum .git/index &&
	state_save &&
	dirc ls-files -s >actual &&
	git ls-files -s >expect &&
	test_cmp expect actual &&
	test_expect_code 128 dirc test-tool verify-index 2>err &&
	test_grep "^fatal: .*bad checksum" err &&
	state_unchanged &&
	test_expect_code 128 git fsck 2>err &&
	test_grep "bad index file sha1 signature" err &&
	cp good .git/index
'

test_expect_success GIT 'the index is a directory: 128, as git' '
	mkdir idxdir &&
	test_expect_code 128 env GIT_INDEX_FILE=idxdir dirc ls-files 2>err &&
	test_grep "^fatal: .*idxdir: unable to map index file: No such device" err &&
	test_expect_code 128 env GIT_INDEX_FILE=idxdir git ls-files 2>err &&
	test_grep "^fatal: idxdir: unable to map index file: No such device" err &&
	test_expect_code 128 env GIT_INDEX_FILE=idxdir dirc update-cache --add new 2>err &&
	test_path_is_dir idxdir &&
	test_path_is_missing idxdir.lock
'

test_lazy_prereq UNPRIV_TMP '
	test "$(id -u)" != 0 || {
		command -v setpriv &&
		setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
			-- "$DIRC_BUILD_DIR/dirc" --version
	}
'

test_expect_success UNPRIV_TMP,GIT 'an unreadable index: git'"'"'s message, 128, as git' '
	tmp=$(mktemp -d /tmp/dirc-unpriv.XXXXXX) &&
	test_when_finished "chmod -R u+rw \"$tmp\"; rm -rf \"$tmp\"" &&
	chmod 755 "$tmp" &&
	mkdir "$tmp/r" &&
	(
		cd "$tmp/r" &&
		dirc init -q &&
		echo a >a &&
		dirc update-cache --add a
	) &&
	test_chown_unpriv "$tmp" &&
	chmod 000 "$tmp/r/.git/index" &&
	(
		cd "$tmp/r" &&
		HOME=$tmp &&
		export HOME &&
		test_expect_code 128 run_unpriv dirc ls-files 2>"$TRASH_DIRECTORY/dirc.err" &&
		test_expect_code 128 run_unpriv dirc update-cache --add a 2>"$TRASH_DIRECTORY/dirc2.err" &&
		test_expect_code 128 run_unpriv git -c safe.directory="*" ls-files 2>"$TRASH_DIRECTORY/git.err"
	) &&
	test_grep "^fatal: .*index: index file open failed: Permission denied" dirc.err &&
	test_grep "^fatal: .*index: index file open failed: Permission denied" dirc2.err &&
	test_grep "^fatal: .git/index: index file open failed: Permission denied" git.err &&
	test_path_is_missing "$tmp/r/.git/index.lock"
'

test_done
