#!/bin/sh
test_description='hash-object and cat-file on bad input: clear message, exit code, nothing left behind'
. ./test-lib.sh

# Every file under the objects directory $1 (sorted), to check that a
# failed command left nothing behind.
snapshot_objects () {
	(cd "$1" && find . -print) | sort
}

# A zlib stream (one stored deflate block) of the bytes of file $1
# (under 64 KiB): lets a test build loose objects with any header.
zlib_wrap () {
	od -An -v -tu1 "$1" | awk '
	{ for (i = 1; i <= NF; i++) b[n++] = $i }
	END {
		a = 1; s = 0
		for (i = 0; i < n; i++) { a = (a + b[i]) % 65521; s = (s + a) % 65521 }
		printf "\\170\\001\\001\\%03o\\%03o\\%03o\\%03o", n % 256, int(n / 256), (65535 - n) % 256, int((65535 - n) / 256)
		for (i = 0; i < n; i++) printf "\\%03o", b[i]
		printf "\\%03o\\%03o\\%03o\\%03o", int(s / 256), s % 256, int(a / 256), a % 256
	}' >zlib.fmt &&
	printf "$(cat zlib.fmt)"
}

# put_object ID FILE: make FILE the loose object ID of the repository
# "corrupt" (replacing what is there).
put_object () {
	po_dir=corrupt/.git/objects/$(echo $1 | cut -c1-2) &&
	po_file=$po_dir/$(echo $1 | cut -c3-) &&
	mkdir -p "$po_dir" &&
	rm -f "$po_file" &&
	cp "$2" "$po_file"
}

# fake_id C [END]: a made-up id of the tests' format, the digit C
# repeated and ending in END (fake_id 4 50 is 444...450).
fake_id () {
	fi_n=$((OID_HEXSZ - ${#2})) &&
	printf "%.${fi_n}s%s\n" "$(test_oid_fake "$1")" "$2"
}

# Run as uid 65534 (or as ourselves when not root) in a directory under
# /tmp, which that user can reach even when the trash directory cannot.
test_lazy_prereq UNPRIV_TMP '
	test "$(id -u)" != 0 || {
		command -v setpriv &&
		setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
			-- "$DIRC_BUILD_DIR/dirc" --version
	}
'

test_expect_success 'setup' '
	echo content >file &&
	mkdir d &&
	awk "BEGIN { for (i = 0; i < 100000; i++) print i, i * 7919 % 65521 }" >big &&
	sed -e "s/^/x/" big >big2 &&
	snapshot_objects .git/objects >objects.before
'

test_expect_success 'missing file: fatal, 128, nothing written' '
	test_expect_code 128 dirc hash-object -w nonexist 2>err &&
	echo "fatal: could not open '\''nonexist'\'' for reading: No such file or directory" >expect &&
	test_cmp expect err &&
	snapshot_objects .git/objects >after &&
	test_cmp objects.before after
'

test_expect_success GIT 'missing file: the message of git' '
	test_expect_code 128 dirc hash-object nonexist 2>err &&
	test_expect_code 128 git hash-object nonexist 2>expect &&
	test_cmp expect err
'

test_expect_success 'missing file among good ones: fatal, and nothing after it' '
	test_expect_code 128 dirc hash-object -w file nonexist big >out 2>err &&
	test_grep "could not open '\''nonexist'\''" err &&
	dirc hash-object big >big.id &&
	big_id=$(cat big.id) &&
	test_path_is_missing .git/objects/$(echo $big_id | cut -c1-2)/$(echo $big_id | cut -c3-)
'

test_expect_success 'a directory: "Unable to hash d", 128, nothing written' '
	rm -rf .git/objects/?? &&
	test_expect_code 128 dirc hash-object -w d 2>err &&
	echo "fatal: Unable to hash d" >expect &&
	test_cmp expect err &&
	snapshot_objects .git/objects >after &&
	test_cmp objects.before after
'

test_expect_success GIT 'a directory: the message of git' '
	test_expect_code 128 git hash-object d 2>expect &&
	test_expect_code 128 dirc hash-object d 2>err &&
	test_cmp expect err
'

test_expect_success 'a directory in --stdin-paths: fatal too' '
	echo d >paths &&
	test_expect_code 128 dirc hash-object --stdin-paths <paths 2>err &&
	test_grep "^fatal: Unable to hash d\$" err
'

test_expect_success GIT 'a badly quoted --stdin-paths line: fatal, 128, as git' '
	printf "%s\n" "\"a\\qb\"" >paths &&
	test_expect_code 128 dirc hash-object --stdin-paths <paths 2>err &&
	test_expect_code 128 git hash-object --stdin-paths <paths 2>expect &&
	test_grep "^fatal: line is badly quoted" err
'

test_expect_success UNPRIV_TMP 'unreadable file: fatal, 128, nothing written' '
	tmp=$(mktemp -d /tmp/dirc-unpriv.XXXXXX) &&
	test_when_finished "rm -rf \"$tmp\"" &&
	dirc init -q "$tmp/repo" &&
	echo secret >"$tmp/repo/f" &&
	test_chown_unpriv "$tmp" &&
	chmod 000 "$tmp/repo/f" &&
	snapshot_objects "$tmp/repo/.git/objects" >before &&
	(
		cd "$tmp/repo" &&
		HOME=$tmp &&
		export HOME &&
		test_expect_code 128 run_unpriv dirc hash-object -w f \
			2>"$TRASH_DIRECTORY/err" &&
		test_expect_code 128 run_unpriv dirc hash-object f \
			2>"$TRASH_DIRECTORY/err2" &&
		if test_have_prereq GIT
		then
			test_expect_code 128 run_unpriv git hash-object f \
				2>"$TRASH_DIRECTORY/git-err"
		else
			cp "$TRASH_DIRECTORY/err2" "$TRASH_DIRECTORY/git-err"
		fi
	) &&
	echo "fatal: could not open '\''f'\'' for reading: Permission denied" >expect &&
	test_cmp expect err &&
	test_cmp expect err2 &&
	test_cmp git-err err2 &&
	snapshot_objects "$tmp/repo/.git/objects" >after &&
	test_cmp before after
'

test_expect_success UNPRIV_TMP 'objects directory not writable: fatal, 128, nothing left' '
	tmp=$(mktemp -d /tmp/dirc-unpriv.XXXXXX) &&
	test_when_finished "rm -rf \"$tmp\"" &&
	dirc init -q "$tmp/repo" &&
	echo content >"$tmp/repo/f" &&
	test_chown_unpriv "$tmp" &&
	chmod 555 "$tmp/repo/.git/objects" &&
	snapshot_objects "$tmp/repo/.git/objects" >before &&
	(
		cd "$tmp/repo" &&
		HOME=$tmp &&
		export HOME &&
		test_expect_code 128 run_unpriv dirc hash-object -w f \
			2>"$TRASH_DIRECTORY/err"
	) &&
	test_grep "^fatal: insufficient permission for adding an object to repository database .*\.git/objects" err &&
	snapshot_objects "$tmp/repo/.git/objects" >after &&
	test_cmp before after
'

test_expect_success UNPRIV_TMP 'fan-out directory not writable: fatal, 128, no tmp_obj_ left' '
	tmp=$(mktemp -d /tmp/dirc-unpriv.XXXXXX) &&
	test_when_finished "rm -rf \"$tmp\"" &&
	dirc init -q "$tmp/repo" &&
	echo content >"$tmp/repo/f" &&
	id=$(dirc hash-object "$tmp/repo/f") &&
	fan=$(echo $id | cut -c1-2) &&
	mkdir "$tmp/repo/.git/objects/$fan" &&
	test_chown_unpriv "$tmp" &&
	chmod 555 "$tmp/repo/.git/objects/$fan" &&
	(
		cd "$tmp/repo" &&
		HOME=$tmp &&
		export HOME &&
		test_expect_code 128 run_unpriv dirc hash-object -w f \
			2>"$TRASH_DIRECTORY/err"
	) &&
	test_grep "^fatal: insufficient permission for adding an object to repository database" err &&
	find "$tmp/repo/.git/objects/$fan" -type f >left &&
	test_must_be_empty left
'

test_expect_success 'unknown type: fatal, 128, nothing written' '
	test_expect_code 128 dirc hash-object -t bogus file 2>err &&
	echo "fatal: invalid object type \"bogus\"" >expect &&
	test_cmp expect err &&
	test_expect_code 128 dirc hash-object -w -t bogus file 2>err &&
	test_cmp expect err &&
	test_expect_code 128 dirc hash-object -w -t bogus --stdin <file 2>err &&
	test_cmp expect err &&
	snapshot_objects .git/objects >after &&
	test_cmp objects.before after
'

test_expect_success GIT 'unknown type: the message of git' '
	test_expect_code 128 git hash-object -t bogus file 2>expect &&
	test_expect_code 128 dirc hash-object -t bogus file 2>err &&
	test_cmp expect err
'

test_expect_success GIT 'unknown type with --literally: refused as git 2.50+ does; test-tool hash-literally makes it' '
	git init -q literal &&
	test_expect_code 128 dirc -C literal hash-object -w --literally \
		-t bogus ../file 2>err &&
	echo "fatal: invalid object type \"bogus\"" >expect &&
	test_cmp expect err &&
	dirc -C literal test-tool hash-literally -w -t bogus ../file >actual &&
	git hash-object --literally -t bogus file >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'cat-file of an unknown-type object: fatal as git; --allow-unknown-type as git' '
	id=$(cat actual) &&
	test_expect_code 128 dirc -C literal cat-file -p $id 2>err &&
	test_expect_code 128 git -C literal cat-file -p $id 2>expect &&
	test_cmp expect err &&
	test_grep "^fatal: invalid object type\$" err &&
	test_expect_code 128 dirc -C literal cat-file -t $id 2>err &&
	test_expect_code 128 git -C literal cat-file -t $id 2>expect &&
	test_cmp expect err &&
	dirc -C literal cat-file --allow-unknown-type -t $id >actual &&
	git -C literal cat-file --allow-unknown-type -t $id >expect &&
	test_cmp expect actual &&
	dirc -C literal cat-file --allow-unknown-type -s $id >actual &&
	git -C literal cat-file --allow-unknown-type -s $id >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'cat-file <unknown type> <object>: fatal, 128, as git' '
	id=$(dirc hash-object -w file) &&
	test_expect_code 128 dirc cat-file bogus $id 2>err &&
	test_expect_code 128 git cat-file bogus $id 2>expect &&
	test_cmp expect err &&
	test_grep "^fatal: invalid object type \"bogus\"\$" err
'

# The raw ids in the trees: OID_RAWSZ bytes "a", one less for the short one.
test_expect_success 'setup: malformed trees, commits and tags' '
	raw=$(printf "%0${OID_RAWSZ}d" 0 | tr 0 a) &&
	short=${raw#a} &&
	printf "junk" >junk &&
	printf "100644 a" >tree-short &&
	printf "100644 \000$raw" >tree-noname &&
	printf "10x644 a\000$raw" >tree-badmode &&
	printf "100644 a\000$short" >tree-shortid &&
	snapshot_objects .git/objects >objects.before
'

# git 2.40 and later check these as fsck does (t1011 has the rest)
test_expect_success '-t tree of malformed trees: git 2.55'\''s messages, 128, nothing written' '
	for t in junk:too-short tree-short:too-short tree-shortid:too-short \
		"tree-noname:empty filename in" "tree-badmode:malformed mode in"
	do
		f=${t%%:*} words=${t#*:} &&
		case $words in
		too-short) words="too-short tree object" ;;
		*) words="$words tree entry" ;;
		esac &&
		cat >expect <<-EOF &&
		error: $words
		error: object fails fsck: badTree: cannot be parsed as a tree
		fatal: refusing to create malformed object
		EOF
		test_expect_code 128 dirc hash-object -w -t tree $f 2>err &&
		test_cmp expect err || return 1
	done &&
	snapshot_objects .git/objects >after &&
	test_cmp objects.before after
'

test_expect_success '-t commit, -t tag of junk: unterminated header, 128, nothing written' '
	cat >expect <<-EOF &&
	error: object fails fsck: unterminatedHeader: unterminated header
	fatal: refusing to create malformed object
	EOF
	test_expect_code 128 dirc hash-object -w -t commit junk 2>err &&
	test_cmp expect err &&
	test_expect_code 128 dirc hash-object -w -t commit --stdin <junk 2>err &&
	test_cmp expect err &&
	test_expect_code 128 dirc hash-object -t tag junk 2>err &&
	test_cmp expect err &&
	snapshot_objects .git/objects >after &&
	test_cmp objects.before after
'

test_expect_success GIT_NEW 'malformed trees, commits, tags: the messages of git 2.55' '
	for t in "tree junk" "tree tree-short" "tree tree-noname" \
		"tree tree-badmode" "tree tree-shortid" "commit junk" "tag junk"
	do
		set -- $t &&
		test_expect_code 128 dirc hash-object -t $1 $2 2>err &&
		test_expect_code 128 git_new hash-object -t $1 $2 2>expect &&
		test_cmp expect err || return 1
	done
'

test_expect_success GIT 'cat-file with invalid or unknown names: messages and codes of git' '
	missing=$(test_oid_fake 0123456789) &&
	for args in "-t zzzz" "-p xyz" "-s 12" "-t $missing" "-s $missing" \
		"-p $missing" "-e zzzz" "blob $missing" "blob zzzz"
	do
		{ dirc cat-file $args >out 2>err; echo $? >code; } &&
		{ git cat-file $args >git-out 2>git-err; echo $? >git-code; } &&
		test_cmp git-code code &&
		test_cmp git-err err &&
		test_must_be_empty out || return 1
	done
'

test_expect_success 'cat-file with invalid or unknown names: 128 and the name' '
	test_expect_code 128 dirc cat-file -t zzzz 2>err &&
	test_grep "^fatal: Not a valid object name zzzz\$" err &&
	missing=$(test_oid_fake 0123456789) &&
	test_expect_code 128 dirc cat-file -p $missing 2>err &&
	test_grep "^fatal: Not a valid object name $missing\$" err
'

# $good: the id of the blob "hello\n" (known values).
test_expect_success 'setup: a repository of corrupt loose objects' '
	case $OID_ALGO in
	sha1) good=ce013625030ba8dba906f756967f9e9ca394464a ;;
	sha256) good=2cf8d83d9ee29543b34a87727421fdecb7e3f3a183d337639025de576db9ebb4 ;;
	esac &&
	dirc init -q corrupt &&
	printf "blob 6\000hello\n" >raw-good &&
	zlib_wrap raw-good >z-good &&
	put_object $good z-good &&
	dirc -C corrupt cat-file -p $good >out &&
	test_write_lines hello >expect &&
	test_cmp expect out &&
	awk "BEGIN { for (i = 0; i < 3000; i++) print i }" >numbers &&
	dirc -C corrupt hash-object -w ../numbers >numbers.id
'

test_expect_success GIT 'setup: the hand-made zlib stream is one git reads' '
	git -C corrupt cat-file -p $good >out &&
	test_cmp expect out
'

# check_corrupt ID: every way of reading ID on its own fails with 128,
# naming ID as corrupt (as an error before git's fatal line, when the
# header cannot be read); a batch reports it, answers "<ID> missing" as
# git does, and goes on.
check_corrupt () {
	test_expect_code 128 dirc -C corrupt cat-file -p $1 >out 2>err &&
	test_grep -E "^(error|fatal): .*$1.*corrupt" err &&
	test_expect_code 128 dirc -C corrupt cat-file blob $1 >out 2>err &&
	test_grep -E "^(error|fatal): .*$1.*corrupt" err &&
	printf "%s\n" $1 $1 >batch-in &&
	dirc -C corrupt cat-file --batch <batch-in >out 2>err &&
	printf "%s missing\n" $1 $1 >expect &&
	test_cmp expect out &&
	test_grep "^error: .*$1.*corrupt" err
}

# check_corrupt_header ID: as check_corrupt, and -t and -s fail too (with
# git's final message), and --batch-check answers "missing".
check_corrupt_header () {
	check_corrupt $1 &&
	test_expect_code 128 dirc -C corrupt cat-file -t $1 >out 2>err &&
	test_must_be_empty out &&
	test_grep "^error: .*$1.*corrupt" err &&
	test_grep "^fatal: git cat-file: could not get object info\$" err &&
	test_expect_code 128 dirc -C corrupt cat-file -s $1 >out 2>err &&
	test_must_be_empty out &&
	test_grep "^error: .*$1.*corrupt" err &&
	dirc -C corrupt cat-file --batch-check <batch-in >out 2>err &&
	test_cmp expect out &&
	test_grep "^error: .*$1.*corrupt" err
}

test_expect_success 'corrupt: truncated zlib stream (stored block)' '
	head -c 17 z-good >z &&
	put_object $(fake_id 1) z &&
	check_corrupt $(fake_id 1)
'

test_expect_success 'corrupt: truncated zlib stream (deflated)' '
	id=$(cat numbers.id) &&
	obj=corrupt/.git/objects/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-) &&
	size=$(wc -c <"$obj") &&
	head -c $((size / 2)) "$obj" >z &&
	put_object $(fake_id 1 2) z &&
	check_corrupt $(fake_id 1 2) &&
	head -c $((size - 1)) "$obj" >z &&
	put_object $(fake_id 1 3) z &&
	check_corrupt $(fake_id 1 3)
'

test_expect_success 'corrupt: the header claims more bytes than there are' '
	printf "blob 10\000hello\n" >raw &&
	zlib_wrap raw >z &&
	put_object $(fake_id 2) z &&
	check_corrupt $(fake_id 2)
'

test_expect_success 'corrupt: the header claims fewer bytes than there are' '
	printf "blob 3\000hello\n" >raw &&
	zlib_wrap raw >z &&
	put_object $(fake_id 3) z &&
	check_corrupt $(fake_id 3)
'

test_expect_success 'corrupt: a huge size in the header' '
	printf "blob 18446744073709551615\000hello\n" >raw &&
	zlib_wrap raw >z &&
	put_object $(fake_id 3 4) z &&
	check_corrupt $(fake_id 3 4) &&
	printf "blob 99999999999999999999999\000hello\n" >raw &&
	zlib_wrap raw >z &&
	put_object $(fake_id 3 5) z &&
	check_corrupt_header $(fake_id 3 5)
'

test_expect_success 'corrupt: garbage headers' '
	n=0 &&
	for hdr in "blob" "blob6" "blob " "blob x" "blob 6x" "blob 06" \
		"blob -6" " 6" "blob  6"
	do
		n=$((n + 1)) &&
		printf "%s\000hello\n" "$hdr" >raw &&
		zlib_wrap raw >z &&
		id=$(fake_id 4 $n) &&
		put_object $id z &&
		check_corrupt_header $id || return 1
	done
'

test_expect_success 'corrupt: no NUL after the header' '
	printf "blob 6 hello\n" >raw &&
	zlib_wrap raw >z &&
	put_object $(fake_id 4 50) z &&
	check_corrupt_header $(fake_id 4 50)
'

test_expect_success 'corrupt: trailing garbage after the zlib stream' '
	cp z-good z &&
	printf "trailing junk" >>z &&
	put_object $(fake_id 5) z &&
	check_corrupt $(fake_id 5)
'

test_expect_success 'corrupt: an unknown type in the header: "invalid object type", as git' '
	printf "bogus 6\000hello\n" >raw &&
	zlib_wrap raw >z &&
	put_object $(fake_id 6) z &&
	echo "fatal: invalid object type" >expect &&
	for args in -p -t -s "blob" --batch --batch-check
	do
		fake_id 6 >batch-in &&
		test_expect_code 128 dirc -C corrupt cat-file $args \
			$(case $args in --batch*) ;; *) fake_id 6 ;; esac) \
			<batch-in >out 2>err &&
		test_must_be_empty out &&
		test_cmp expect err || return 1
	done
'

test_expect_success 'corrupt: not zlib at all, and an empty file' '
	printf "this is not a zlib stream" >z &&
	put_object $(fake_id 7) z &&
	check_corrupt_header $(fake_id 7) &&
	: >z &&
	put_object $(fake_id 7 8) z &&
	check_corrupt_header $(fake_id 7 8)
'

test_expect_success 'corrupt: a bad Adler-32 checksum' '
	head -c 20 z-good >z &&
	printf "\000\000\000\000" >>z &&
	put_object $(fake_id 8) z &&
	check_corrupt $(fake_id 8)
'

test_expect_success 'corrupt objects: cat-file -e still says they exist' '
	dirc -C corrupt cat-file -e $(fake_id 5) &&
	dirc -C corrupt cat-file -e $(fake_id 6)
'

test_expect_success ULIMIT_FILE_SIZE 'file size limit: fails, no object, no tmp_obj_ left' '
	id=$(dirc hash-object big) &&
	obj=.git/objects/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-) &&
	(
		ulimit -f 4 &&
		trap "" XFSZ &&
		test_must_fail dirc hash-object -w big >out 2>err
	) &&
	test_grep "^fatal: .*File too large" err &&
	test_must_be_empty out &&
	test_path_is_missing "$obj" &&
	find .git/objects -name "tmp_*" >tmps &&
	test_must_be_empty tmps &&
	dirc hash-object -w big >out &&
	echo $id >expect &&
	test_cmp expect out &&
	test_path_is_file "$obj"
'

test_expect_success ULIMIT_FILE_SIZE 'file size limit, --stdin: fails, no tmp_obj_ left' '
	(
		ulimit -f 4 &&
		trap "" XFSZ &&
		test_must_fail dirc hash-object -w --stdin <big2 >out 2>err
	) &&
	test_grep "^fatal: .*File too large" err &&
	find .git/objects -name "tmp_*" >tmps &&
	test_must_be_empty tmps
'

test_expect_success ULIMIT_FILE_SIZE 'file size limit on a streamed file (> 64 MiB): no tmp_obj_ left' '
	dd if=/dev/null of=huge bs=1024 seek=65548 2>/dev/null &&
	printf Q | dd of=huge bs=1 seek=1048576 conv=notrunc 2>/dev/null &&
	dirc hash-object huge >id &&
	id=$(cat id) &&
	(
		ulimit -f 4 &&
		trap "" XFSZ &&
		test_must_fail dirc hash-object -w huge >out 2>err
	) &&
	rm -f huge &&
	test_grep "^fatal: .*File too large" err &&
	test_path_is_missing .git/objects/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-) &&
	find .git/objects -name "tmp_*" >tmps &&
	test_must_be_empty tmps
'

test_expect_success 'usage: --stdin-paths with --stdin, 129' '
	test_expect_code 129 dirc hash-object --stdin-paths --stdin <file >out 2>err &&
	test_grep "^error: Can'\''t use --stdin-paths with --stdin\$" err &&
	test_grep "^usage: dirc hash-object" err
'

test_expect_success 'usage: --stdin-paths with files, 129' '
	test_expect_code 129 dirc hash-object --stdin-paths file <file >out 2>err &&
	test_grep "^error: Can'\''t specify files with --stdin-paths\$" err
'

test_expect_success 'usage: an unknown option, 129' '
	test_expect_code 129 dirc hash-object --foo file >out 2>err &&
	test_grep "^error: unknown option \`foo'\''\$" err &&
	test_grep "^usage: dirc hash-object" err &&
	test_expect_code 129 dirc cat-file --foo >out 2>err &&
	test_grep "^error: unknown option \`foo'\''\$" err &&
	test_expect_code 129 dirc hash-object -y file >out 2>err &&
	test_grep "^error: unknown switch \`y'\''\$" err
'

test_expect_success GIT 'usage errors: the first lines of git, and its exit code' '
	for args in "hash-object --stdin-paths --stdin" "hash-object --foo" \
		"hash-object --stdin-paths file" "cat-file --foo" "cat-file -t" \
		"cat-file -y" "hash-object -t"
	do
		{ dirc $args <file >out 2>err; echo $? >code; } &&
		{ git $args <file >git-out 2>git-err; echo $? >git-code; } &&
		test_cmp git-code code &&
		head -n 1 err >first &&
		head -n 1 git-err >git-first &&
		test_cmp git-first first || return 1
	done
'

test_expect_success 'usage: cat-file with no arguments, 129, usage on stderr' '
	test_expect_code 129 dirc cat-file >out 2>err &&
	test_grep "^usage: dirc cat-file" err &&
	test_must_be_empty out
'

test_expect_success 'usage: cat-file -t without an object, 129' '
	test_expect_code 129 dirc cat-file -t >out 2>err &&
	test_grep "^fatal: <object> required with '\''-t'\''\$" err
'

test_expect_success 'hash-object -h and cat-file -h: usage on stdout, 129' '
	test_expect_code 129 dirc hash-object -h >out 2>err &&
	test_grep "^usage: dirc hash-object" out &&
	test_grep -e "--stdin-paths" out &&
	test_must_be_empty err &&
	test_expect_code 129 dirc cat-file -h >out 2>err &&
	test_grep "^usage: dirc cat-file" out &&
	test_must_be_empty err
'

test_expect_success 'nothing was left in the main repository' '
	find .git/objects -name "tmp_*" >tmps &&
	test_must_be_empty tmps
'

test_done
