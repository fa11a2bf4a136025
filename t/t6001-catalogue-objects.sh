#!/bin/sh
test_description='bad-input catalogue: objects

Corrupt loose objects (not zlib, cut short, a header that lies about the
size, garbage after the stream, an unknown type, stored under the wrong
name) and damaged packs, read by dirc and by git: both fail where git
fails, dirc with a message naming the object and its file.  Missing
objects in checkout-index, and a TREE extension whose root tree is not
stored: write-tree builds it again, as git does, instead of printing an
id that names nothing.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-catalogue.sh

if ! test_have_prereq GIT
then
	skip_all='git not found in PATH: every case here is compared with git'
	test_expect_success 'TREE counts that do not fit (33 digits, 2^31): ignored and rebuilt, as git' '
	for count in 1666666666666666666666666666666666 2147483648
	do
		craft with-tree tree-big "
			my \$at = index(\$d, \"TREE\");
			die \"no TREE\" if \$at < 0;
			my \$len = unpack(\"N\", substr(\$d, \$at + 4, 4));
			my \$x = substr(\$d, \$at + 8, \$len);
			\$x =~ s/^\\0[0-9-]+ ([0-9]+)\\n/\\0$count \$1\\n/ or die \"root\";
			substr(\$d, \$at, 8 + \$len) =
				\"TREE\" . pack(\"N\", length(\$x)) . \$x" &&
		cp tree-big .git/index &&
		dirc ls-files -s >actual &&
		git ls-files -s >expect &&
		test_cmp expect actual &&
		dirc write-tree >actual &&
		test_cmp root actual &&
		cp tree-big .git/index &&
		git write-tree >actual &&
		test_cmp root actual || return 1
	done
'

test_done
fi

# zlib FILE: the zlib stream of FILE's bytes, on stdout.
zlib () {
	perl -MCompress::Zlib -e '
		open my $f, "<", $ARGV[0] or die; binmode $f; local $/;
		binmode STDOUT; print compress(<$f>);' "$1"
}

# put ID FILE: FILE becomes the loose object ID of the repository "bad".
put () {
	p_dir=bad/.git/objects/$(echo $1 | cut -c1-2) &&
	mkdir -p "$p_dir" &&
	rm -f "$p_dir/$(echo $1 | cut -c3-)" &&
	cp "$2" "$p_dir/$(echo $1 | cut -c3-)"
}

# both_fail ID ARGS...: "cat-file ARGS ID" in bad: dirc exits 128 with
# git's final line (git's "fatal: invalid object type" for an unknown
# type; otherwise the damage named, the id with it), and git exits 128.
both_fail () {
	bf_id=$1 &&
	shift &&
	test_expect_code 128 dirc -C bad cat-file "$@" $bf_id >out 2>err &&
	test_must_be_empty out &&
	git_code -C bad cat-file "$@" $bf_id &&
	code_is 128 &&
	if test "$(tail -n 1 git.err)" = "fatal: invalid object type"
	then
		test_cmp git.err err
	else
		test_grep -E "^(error|fatal): .*$bf_id" err
	fi
}

test_expect_success 'setup: a repository "bad" to damage, its objects made by git' '
	git init -q bad &&
	echo hello >bad/a &&
	mkdir bad/d &&
	echo c >bad/d/c &&
	git -C bad add a d/c &&
	tree=$(git -C bad write-tree) &&
	commit=$(git -C bad commit-tree -m one $tree) &&
	blob=$(git -C bad rev-parse :a) &&
	printf "blob 6\000hello\n" >raw-good &&
	zlib raw-good >z-good
'

test_expect_success 'not zlib, an empty file: 128, as git' '
	id=$(test_oid_fake 1) &&
	printf "not a zlib stream" >z &&
	put $id z &&
	both_fail $id -p &&
	test_grep "corrupt" err &&
	: >z &&
	id=${id%?}2 &&
	put $id z &&
	both_fail $id -p
'

# stderr_of FILE: FILE with each path to objects/ cut to what follows
# it, and each line once (git says the same thing at every lookup).
stderr_of () {
	sed -e "s|(stored in .*objects/|(stored in objects/|" "$1" |
	awk "!seen[\$0]++"
}

test_expect_success 'not zlib: git'"'"'s inflate and "unable to unpack" errors, then "is corrupt", as git' '
	id=$(test_oid_fake 1) &&
	for c in "blob" "-p" "-t" "-s"
	do
		test_expect_code 128 dirc -C bad cat-file $c $id 2>err &&
		git_code -C bad cat-file $c $id &&
		code_is 128 &&
		stderr_of git.err >expect &&
		stderr_of err >actual &&
		# dirc names the object once more before the last line of -p,
		# -t and -s; the rest is git'"'"'s
		grep -v "^error: loose object" actual >actual.git &&
		test_cmp expect actual.git || return 1
	done &&
	test_write_lines \
		"error: inflate: data stream error (incorrect header check)" \
		"error: unable to unpack $id header" \
		"fatal: loose object $id (stored in objects/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-)) is corrupt" >expect &&
	test_expect_code 128 dirc -C bad cat-file blob $id 2>err &&
	stderr_of err >actual &&
	test_cmp expect actual
'

# git'"'"'s t1006: a loose object compressed with a preset dictionary
# (zlib'"'"'s Z_NEED_DICT).  git 2.39 stops on a BUG() there; 2.55 says so.
test_expect_success 'a zlib stream that needs a preset dictionary: "needs dictionary", as git 2.55' '
	id=$(test_oid_fake 1) &&
	id=${id%?}3 &&
	printf "\170\273\017\112\003\143" >z &&
	put $id z &&
	test_write_lines \
		"error: inflate: needs dictionary (no message)" \
		"error: unable to unpack $id header" \
		"fatal: loose object $id (stored in objects/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-)) is corrupt" >expect &&
	test_expect_code 128 dirc -C bad cat-file blob $id 2>err &&
	stderr_of err >actual &&
	test_cmp expect actual &&
	test_expect_code 128 dirc -C bad cat-file -t $id 2>err &&
	test_grep "^error: inflate: needs dictionary (no message)$" err &&
	test_grep "^error: unable to unpack $id header$" err &&
	test_grep -v "too long" err &&
	if test_have_prereq GIT_NEW
	then
		for c in blob -p -t -s
		do
			test_expect_code 128 git_new -C bad cat-file $c $id \
				2>git.err &&
			test_expect_code 128 dirc -C bad cat-file $c $id 2>err &&
			stderr_of git.err >expect &&
			stderr_of err | grep -v "^error: loose object" >actual &&
			test_cmp expect actual || return 1
		done
	fi
'

test_expect_success 'a zlib stream cut short: 128, as git' '
	id=$(test_oid_fake 2) &&
	id=${id%?}1 &&
	head -c 12 z-good >z &&
	put $id z &&
	both_fail $id -p &&
	test_grep "corrupt" err
'

test_expect_success 'the header claims more, or fewer, bytes than follow: dirc refuses, 128 (git prints what there is, 0)' '
	for n in 10 3
	do
		id=$(test_oid_fake 3 | cut -c3-)${n}3 &&
		id=$(echo $id | cut -c1-$OID_HEXSZ) &&
		printf "blob $n\000hello\n" >raw &&
		zlib raw >z &&
		put $id z &&
		test_expect_code 128 dirc -C bad cat-file -p $id >out 2>err &&
		test_must_be_empty out &&
		test_grep "^fatal: loose object $id (stored in .*) is corrupt: object is \(shorter\|longer\) than its header says" err &&
		git_code -C bad cat-file -p $id &&
		code_is 0 || return 1
	done
'

test_expect_success 'a header that is not "<type> <size>": 128 for -p and -t, as git' '
	id=$(test_oid_fake 4) &&
	id=${id%?}1 &&
	for hdr in "blob" "blob x" "bogus 6" "blob 6 hello"
	do
		printf "%s\000hello\n" "$hdr" >raw &&
		zlib raw >z &&
		put $id z &&
		both_fail $id -p &&
		both_fail $id -t || return 1
	done
'

test_expect_success 'garbage after the zlib stream: dirc refuses, 128 (git reads it, 0)' '
	id=$(test_oid_fake 5) &&
	cp z-good z &&
	printf "trailing junk" >>z &&
	put $id z &&
	test_expect_code 128 dirc -C bad cat-file -p $id 2>err &&
	test_grep "^fatal: .*$id.*corrupt" err &&
	git_code -C bad cat-file -p $id &&
	code_is 0
'

test_expect_success 'setup: git objects stored under the wrong names' '
	wrong=$(test_oid_fake 6) &&
	wrong_tree=${wrong%?}1 &&
	wrong_commit=${wrong%?}2 &&
	wrong_blob=${wrong%?}3 &&
	put $wrong_tree bad/$(object_path $tree) &&
	put $wrong_commit bad/$(object_path $commit) &&
	put $wrong_blob bad/$(object_path $blob)
'

test_expect_success 'cat-file -p of a tree under the wrong name: "hash mismatch", 128, as git' '
	test_expect_code 128 dirc -C bad cat-file -p $wrong_tree >out 2>err &&
	git_code -C bad cat-file -p $wrong_tree &&
	code_is 128 &&
	test_cmp git.err err &&
	test_must_be_empty out
'

test_expect_success 'cat-file -p of a blob or a commit under the wrong name: printed, 0, as git' '
	for id in $wrong_blob $wrong_commit
	do
		dirc -C bad cat-file -p $id >out &&
		git -C bad cat-file -p $id >expect &&
		test_cmp expect out || return 1
	done
'

test_expect_success 'read-tree of a tree, commit or blob under the wrong name: 128, as git, index untouched' '
	(
		cd bad &&
		cp .git/index ../index.before &&
		for id in $wrong_tree $wrong_commit $wrong_blob
		do
			test_expect_code 128 dirc read-tree $id 2>../err &&
			test_grep "^error: loose object $id (stored in .*) is corrupt: hash mismatch" ../err &&
			test_grep "^fatal: failed to unpack tree object $id" ../err &&
			test_cmp ../index.before .git/index &&
			test_path_is_missing .git/index.lock &&
			{ git read-tree $id 2>../git.err; echo $? >../git.code; } &&
			echo 128 >../expect &&
			test_cmp ../expect ../git.code &&
			test_grep "^error: hash mismatch $id" ../git.err || return 1
		done
	)
'

test_expect_success 'setup: a good pack made by git, in the repository "pack"' '
	git init -q pack &&
	for i in $(test_seq 1 20)
	do
		test_seq $i 400 >pack/f$i || return 1
	done &&
	git -C pack add . &&
	ptree=$(git -C pack write-tree) &&
	git -C pack update-ref refs/heads/master $(git -C pack commit-tree -m p $ptree) &&
	git -C pack repack -adq &&
	git -C pack prune-packed &&
	pblob=$(git -C pack rev-parse :f7) &&
	idx=$(ls pack/.git/objects/pack/pack-*.idx) &&
	pk=${idx%.idx}.pack &&
	cp "$idx" good.idx &&
	cp "$pk" good.pack &&
	chmod u+w "$idx" "$pk"
'

# pack_fails WHAT: cat-file -p of $pblob fails in dirc (128, a message
# naming the pack or its index) and in git (128).
pack_fails () {
	test_expect_code 128 dirc -C pack cat-file -p $pblob >out 2>err &&
	test_must_be_empty out &&
	test_grep "pack-.*corrupt\|corrupt.*pack-" err &&
	test_grep "^fatal: " err &&
	git_code -C pack cat-file -p $pblob &&
	code_is 128 &&
	cp good.idx "$idx" &&
	cp good.pack "$pk"
}

test_expect_success 'a pack cut short: 128, naming the pack, as git' '
	size=$(wc -c <"$pk") &&
	head -c $((size - 100)) good.pack >"$pk" &&
	pack_fails
'

test_expect_success 'a pack index cut short, or of another size: 128, as git' '
	head -c 1100 good.idx >"$idx" &&
	pack_fails &&
	head -c 8 good.idx >"$idx" &&
	pack_fails
'

test_expect_success 'a pack whose objects are zeroed: 128, naming the pack, as git' '
	size=$(wc -c <"$pk") &&
	{
		head -c 12 good.pack &&
		dd if=/dev/zero bs=1 count=$((size - 12 - OID_RAWSZ)) 2>/dev/null &&
		tail -c $OID_RAWSZ good.pack
	} >"$pk" &&
	pack_fails
'

test_expect_success 'setup: an index whose entry names a missing blob' '
	missing=$(test_oid_fake 0123456789abcdef) &&
	rm -f .git/index &&
	dirc update-cache --add --cacheinfo 100644,$missing,m &&
	git ls-files -s >ls &&
	test_grep $missing ls &&
	cp .git/index missing.index
'

test_expect_success 'checkout-index of a missing blob: git'"'"'s message naming the path, exit 1, as git' '
	for args in "m" "-a" "-f -u -a" "--prefix=co/ -a"
	do
		cp missing.index .git/index &&
		state_save &&
		test_expect_code 1 dirc checkout-index $args 2>err &&
		state_unchanged &&
		test_path_is_missing m &&
		test_path_is_missing co/m &&
		git_code checkout-index $args &&
		code_is 1 &&
		test_cmp git.err err || return 1
	done &&
	echo "error: unable to read sha1 file of m ($missing)" >expect &&
	test_cmp expect err
'

test_expect_success 'write-tree and commit-tree with a missing object: 128, as git (t3000, t3003)' '
	cp missing.index .git/index &&
	state_save &&
	test_expect_code 128 dirc write-tree 2>err &&
	state_unchanged &&
	git_code write-tree &&
	code_is 128 &&
	test_cmp git.err err &&
	test_expect_code 128 dirc commit-tree $missing -m x 2>err &&
	git_code commit-tree $missing -m x &&
	code_is 128 &&
	test_cmp git.err err &&
	rm -f .git/index
'

test_expect_success 'setup: an index with a valid TREE extension' '
	echo one >one &&
	mkdir sub &&
	echo two >sub/two &&
	dirc update-cache --add one sub/two &&
	dirc write-tree >root &&
	cp .git/index with-tree
'

test_expect_success 'the TREE root names a tree no longer stored: write-tree builds it again, as git' '
	root=$(cat root) &&
	rm -f $(object_path $root) &&
	dirc write-tree >actual &&
	test_cmp root actual &&
	test_path_is_file $(object_path $root) &&
	git cat-file -t $root >type &&
	echo tree >expect &&
	test_cmp expect type &&
	rm -f $(object_path $root) &&
	cp with-tree .git/index &&
	git write-tree >git.out &&
	test_cmp root git.out
'

test_expect_success 'the TREE root id damaged in the index: write-tree prints the true id, as git' '
	root=$(cat root) &&
	damaged=$(echo $root | sed -e "s/^\(....\)./\1x/" | tr x 0) &&
	test "$damaged" != "$root" &&
	craft with-tree tree-damaged "
		my \$at = index(\$d, pack(\"H*\", \"$root\"));
		die \"no root id\" if \$at < 0;
		substr(\$d, \$at, $OID_RAWSZ) = pack(\"H*\", \"$damaged\")" &&
	cp tree-damaged .git/index &&
	dirc write-tree >actual &&
	test_cmp root actual &&
	cp tree-damaged .git/index &&
	git write-tree >actual &&
	test_cmp root actual
'

test_expect_success 'a TREE extension of garbage: ignored and rebuilt, as git' '
	craft with-tree tree-garbage "
		my \$at = index(\$d, \"TREE\");
		die \"no TREE\" if \$at < 0;
		substr(\$d, \$at + 8, 4) = \"x\\0yz\"" &&
	cp tree-garbage .git/index &&
	dirc ls-files -s >actual &&
	git ls-files -s >expect &&
	test_cmp expect actual &&
	dirc write-tree >actual &&
	test_cmp root actual &&
	cp tree-garbage .git/index &&
	git write-tree >actual &&
	test_cmp root actual
'

test_expect_success 'TREE counts that do not fit (33 digits, 2^31): ignored and rebuilt, as git' '
	for count in 1666666666666666666666666666666666 2147483648
	do
		craft with-tree tree-big "
			my \$at = index(\$d, \"TREE\");
			die \"no TREE\" if \$at < 0;
			my \$len = unpack(\"N\", substr(\$d, \$at + 4, 4));
			my \$x = substr(\$d, \$at + 8, \$len);
			\$x =~ s/^\\0[0-9-]+ ([0-9]+)\\n/\\0$count \$1\\n/ or die \"root\";
			substr(\$d, \$at, 8 + \$len) =
				\"TREE\" . pack(\"N\", length(\$x)) . \$x" &&
		cp tree-big .git/index &&
		dirc ls-files -s >actual &&
		git ls-files -s >expect &&
		test_cmp expect actual &&
		dirc write-tree >actual &&
		test_cmp root actual &&
		cp tree-big .git/index &&
		git write-tree >actual &&
		test_cmp root actual || return 1
	done
'

test_done
