#!/bin/sh
test_description='ls-tree on damaged trees: git'"'"'s messages, exit codes and output

A subtree that is missing or not a tree is an error after what was
listed before it (exit 1); a malformed tree is fatal (128), and git
decodes the entry after the one it shows first, so the entry before a
bad one is not shown either; a tree cut short is refused before any of
its entries.  All of it happens in a second repository ("bad"), which
the closing fsck leaves alone.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh
. "$TEST_DIRECTORY"/lib-trees.sh

# hex2bin: hex digits on stdin to bytes
hex2bin () {
	if command -v xxd >/dev/null
	then
		xxd -r -p
	else
		perl -e "local \$/; \$_ = <STDIN>; s/\\s//g; print pack(\"H*\", \$_)"
	fi
}

test_lazy_prereq HEX2BIN '
	echo 41 | { xxd -r -p 2>/dev/null || perl -e "print \"A\""; } >x &&
	test "$(cat x)" = A
'

# raw_tree "<mode> <name> <hex>"...: a tree object of exactly these
# entries, written as given (unsorted, bad modes and all)
raw_tree () {
	for e in "$@"
	do
		printf "%s\0" "${e% *}" &&
		printf "%s" "${e##* }" | hex2bin || return 1
	done >raw.tree &&
	git hash-object -t tree --literally -w raw.tree
}

test_expect_success GIT 'setup: a good repository, and a copy to damage' '
	mkdir -p a/b c &&
	echo 1 >a/one &&
	echo 2 >a/b/two &&
	echo 3 >c/three &&
	echo 4 >z &&
	git add . &&
	git commit -q -m one &&
	git clone -q --no-hardlinks . bad
'

test_expect_success GIT 'a missing subtree: what came before it, then an error, 1' '
	(
		cd bad &&
		t=$(git rev-parse HEAD:a/b) &&
		rm -f .git/objects/$(echo $t | sed "s,^..,&/,") &&
		for o in -r "-r -t" "-r -d" "-r --name-only" "-r -l" \
			"-r --format=%(path)"
		do
			trees_like_git ls-tree $o HEAD &&
			trees_code 1 || return 1
		done &&
		trees_like_git ls-tree HEAD a/b &&
		trees_code 0 &&
		trees_like_git ls-tree HEAD a/b/two &&
		trees_code 1 &&
		trees_like_git ls-tree -t HEAD a/b/x &&
		trees_code 1 &&
		trees_like_git ls-tree HEAD:a/b &&
		trees_code 128 &&
		trees_like_git ls-tree -r HEAD c z &&
		trees_code 0
	)
'

test_expect_success GIT,HEX2BIN 'a directory entry naming a blob or a commit: an error, 1' '
	(
		cd bad &&
		b=$(git rev-parse HEAD:z) &&
		c=$(git rev-parse HEAD) &&
		t=$(raw_tree "40000 x $b" "100644 y $b") &&
		trees_like_git ls-tree -r $t &&
		trees_code 1 &&
		trees_like_git ls-tree $t &&
		trees_code 0 &&
		trees_like_git ls-tree -t $t x/y &&
		trees_code 1 &&
		t=$(raw_tree "40000 x $c") &&
		trees_like_git ls-tree -r $t &&
		trees_code 1
	)
'

test_expect_success GIT,HEX2BIN 'malformed trees: fatal, and the entry before the bad one is not shown' '
	(
		cd bad &&
		b=$(git rev-parse HEAD:z) &&
		for spec in "100644 a $b|1a0644 b $b" \
			"100644 a $b|100644 b $b|1a0644 c $b" \
			"100644 a $b| c $b" "100644 a $b|100644  $b" \
			"100644 a $b|100644 a $b|100644 0 $b" \
			"100644 b $b|100644 a $b" "40000 d $b|100644 d $b" \
			"160000 s $b|120000 l $b|100755 x $b|100664 m $b"
		do
			IFS="|" &&
			set -- $spec &&
			unset IFS &&
			t=$(raw_tree "$@") &&
			trees_like_git ls-tree $t &&
			trees_like_git ls-tree -l $t &&
			p=$(raw_tree "40000 d $t" "100644 e $b") &&
			trees_like_git ls-tree -r $p &&
			trees_like_git ls-tree -r -t $p || return 1
		done
	)
'

test_expect_success GIT,HEX2BIN 'a mode of more than 21 bits: dirc refuses it, git wraps it' '
	(
		cd bad &&
		b=$(git rev-parse HEAD:z) &&
		t=$(raw_tree "1000000000000644 a $b") &&
		git ls-tree $t >git.out &&
		test_grep "^160000 commit " git.out &&
		test_expect_code 128 dirc ls-tree $t >dirc.out 2>dirc.err &&
		test_must_be_empty dirc.out &&
		echo "fatal: malformed mode in tree entry" >expect &&
		test_cmp expect dirc.err
	)
'

test_expect_success GIT,HEX2BIN 'trees cut short, or with trailing bytes: refused before any entry' '
	(
		cd bad &&
		b=$(git rev-parse HEAD:z) &&
		good=$(git rev-parse HEAD^{tree}) &&
		git cat-file tree $good >good.raw &&
		for cut in 1 5 20 21 22 30 40
		do
			size=$(wc -c <good.raw) &&
			head -c $((size - cut)) good.raw >cut.raw &&
			t=$(git hash-object -t tree --literally -w cut.raw) &&
			trees_like_git ls-tree $t &&
			trees_code 128 &&
			p=$(raw_tree "100644 a $b" "40000 d $t") &&
			trees_like_git ls-tree -r $p &&
			trees_code 128 || return 1
		done &&
		{ cat good.raw && printf "xyz"; } >long.raw &&
		t=$(git hash-object -t tree --literally -w long.raw) &&
		trees_like_git ls-tree $t &&
		trees_code 128 &&
		t=$(printf "100644 a\0" | git hash-object -t tree --literally -w --stdin) &&
		trees_like_git ls-tree $t &&
		trees_code 128 &&
		t=$(git hash-object -t tree --literally -w /dev/null) &&
		trees_like_git ls-tree -r $t &&
		trees_code 0
	)
'

test_expect_success GIT 'a corrupt tree object: fatal, 128' '
	(
		cd bad &&
		t=$(git rev-parse HEAD:c) &&
		f=.git/objects/$(echo $t | sed "s,^..,&/,") &&
		chmod u+w $f &&
		echo garbage >$f &&
		git ls-tree -r HEAD c z >git.out 2>git.err
		echo $? >git.code &&
		test_expect_code 128 dirc ls-tree -r HEAD c z >dirc.out 2>dirc.err &&
		test_cmp git.out dirc.out &&
		test_grep "^fatal: loose object $t (stored in .*) is corrupt" dirc.err &&
		echo 128 >expect &&
		test_cmp expect git.code
	)
'

test_done
