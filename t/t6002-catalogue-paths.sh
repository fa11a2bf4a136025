#!/bin/sh
test_description='bad-input catalogue: paths

Every path rule, the way git applies it: ".git" in any case, its NTFS
aliases (core.protectNTFS, on by default) and HFS+ ignorable code points
(core.protectHFS), empty, "." and ".." components, absolute paths,
trailing slashes; names past the 0xFFF length field and past PATH_MAX;
names that are not UTF-8; symlink loops.  And an index that holds a name
no command would let in: checkout-index and write-tree refuse it instead
of writing outside the work tree, emptying it, or dying.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-catalogue.sh

test_expect_success 'setup' '
	echo content >file &&
	blob=$(dirc hash-object -w file) &&
	empty=$(dirc hash-object -w /dev/null) &&
	echo $blob >blob
'

# cacheinfo_both [-c KEY=VAL] PATH: "update-cache --add --cacheinfo" of
# PATH by dirc then by git, each on an empty index: same exit code, same
# stderr, same index.
cacheinfo_both () {
	cb_cfg= &&
	if test "$1" = -c
	then
		cb_cfg="-c $2" &&
		shift 2
	fi &&
	rm -f .git/index &&
	{ dirc $cb_cfg update-cache --add --cacheinfo "100644,$empty,$1" \
		>dirc.out 2>dirc.err; echo $? >dirc.code; } &&
	if test -f .git/index
	then
		mv .git/index dirc.index
	else
		rm -f dirc.index
	fi &&
	test_path_is_missing .git/index.lock &&
	{ git $cb_cfg update-index --add --cacheinfo "100644,$empty,$1" \
		>git.out 2>git.err; echo $? >git.code; } &&
	if test -f .git/index
	then
		mv .git/index git.index
	else
		rm -f git.index
	fi &&
	test_cmp_codes git.code dirc.code &&
	test_cmp git.err dirc.err &&
	if test -f git.index
	then
		test_cmp git.index dirc.index
	else
		test_path_is_missing dirc.index
	fi
}

# refused PATH...: cacheinfo_both refuses each with 128 and git's
# "Invalid path" message, writing no index.
refused () {
	for p
	do
		cacheinfo_both "$p" &&
		echo 128 >expect &&
		test_cmp expect dirc.code &&
		test_grep "^error: Invalid path '" dirc.err &&
		test_grep "^fatal: git update-index: --cacheinfo cannot add" dirc.err &&
		test_path_is_missing dirc.index || {
			echo "^^^ for path [$p]" >&2
			return 1
		}
	done
}

# accepted PATH...: cacheinfo_both stores each (exit 0), like git.
accepted () {
	for p
	do
		cacheinfo_both "$p" &&
		echo 0 >expect &&
		test_cmp expect dirc.code &&
		test_path_is_file dirc.index || {
			echo "^^^ for path [$p]" >&2
			return 1
		}
	done
}

test_expect_success GIT '.git in any case, anywhere: Invalid path, 128, as git' '
	refused .git .GIT .Git/x .git/config a/.git a/.gIt/b x/.git/y
'

test_expect_success GIT 'NTFS aliases of .git: refused, as git' '
	refused "git~1" "GIT~1/x" "a/git~1/b" ".git " ".git." ".git..." \
		".GIT. ." ".git:x" ".git::\$INDEX_ALLOCATION" "a\\.git" \
		".git\\x"
'

test_expect_success GIT 'NTFS aliases with core.protectNTFS=false: stored, as git' '
	for p in "git~1" ".git " ".git." "a\\.git"
	do
		cacheinfo_both -c core.protectNTFS=false "$p" &&
		echo 0 >expect &&
		test_cmp expect dirc.code || return 1
	done
'

test_expect_success GIT 'HFS+ ignorable code points in .git: stored by default, refused with core.protectHFS' '
	zwnj=$(printf ".g\342\200\214it") &&
	bom_after=$(printf ".git\357\273\277") &&
	bom_before=$(printf "\357\273\277.GIT/x") &&
	for p in "$zwnj" "$bom_after" "$bom_before"
	do
		cacheinfo_both "$p" &&
		echo 0 >expect &&
		test_cmp expect dirc.code &&
		cacheinfo_both -c core.protectHFS=true "$p" &&
		echo 128 >expect &&
		test_cmp expect dirc.code || return 1
	done
'

test_expect_success GIT 'empty, ".", ".." components, absolute, trailing slash: refused, as git' '
	refused "" "." ".." "a/." "a/.." "./a" "../a" "a/./b" "a/../b" \
		"a//b" "/a" "/" "a/"
'

test_expect_success GIT 'names git takes: stored the same' '
	accepted ".gitx" "...git" ".git~1" "git~2" "a/ .git" " .git" \
		".gitmodules " "a\\b" "$(printf "a\tb")"
'

test_expect_success GIT 'command-line paths: normalised, then ".git" ignored, as git' '
	mkdir -p a "git~1" &&
	echo x >a/b &&
	echo x >"git~1/x" &&
	echo x >".git " &&
	for p in "a//b" "./a/b" "a/b/" "$TRASH_DIRECTORY/a/b" "git~1/x" \
		".git " ".git/config" "d/../.git/x"
	do
		rm -f .git/index &&
		{ dirc update-cache --add -- "$p" >dirc.out 2>dirc.err; echo $? >dirc.code; } &&
		dirc ls-files -s >dirc.ls &&
		rm -f .git/index &&
		{ git update-index --add -- "$p" >git.out 2>git.err; echo $? >git.code; } &&
		git ls-files -s >git.ls &&
		test_cmp_codes git.code dirc.code &&
		test_cmp git.err dirc.err &&
		test_cmp git.ls dirc.ls || {
			echo "^^^ for path [$p]" >&2
			return 1
		}
	done &&
	rm -f .git/index
'

test_expect_success GIT 'a path outside the work tree: fatal, 128, as git' '
	for p in ../x a/../../x "$TRASH_DIRECTORY/../x" /
	do
		rm -f .git/index &&
		{ dirc update-cache --add -- "$p" >dirc.out 2>dirc.err; echo $? >dirc.code; } &&
		test_path_is_missing .git/index &&
		{ git update-index --add -- "$p" >git.out 2>git.err; echo $? >git.code; } &&
		echo 128 >expect &&
		test_cmp expect dirc.code &&
		test_cmp_codes git.code dirc.code &&
		test_cmp git.err dirc.err || return 1
	done
'

test_expect_success GIT 'a name of 0xFFF bytes and more: the length field saturates, as git' '
	for n in 4094 4095 4096 5000
	do
		name=$(printf "%${n}s" "" | tr " " n) &&
		printf "100644 %s\t%s\n" $blob "$name" >info &&
		rm -f .git/index &&
		dirc update-cache --index-info <info &&
		mv .git/index dirc.index &&
		git update-index --index-info <info &&
		test_cmp .git/index dirc.index &&
		dirc ls-files >actual &&
		echo "$name" >expect &&
		test_cmp expect actual || return 1
	done &&
	# the flags of the first entry: after the header (12 bytes), the
	# stat data and mode (40) and the id (OID_RAWSZ)
	perl -e '\''
		open my $f, "<", ".git/index" or die; binmode $f; local $/;
		my $d = <$f>;
		printf "0x%03x\n", unpack("n", substr($d, 52 + $ARGV[0], 2)) & 0xfff;'\'' \
		$OID_RAWSZ >flags &&
	echo 0xfff >expect &&
	test_cmp expect flags
'

test_expect_success GIT 'a name past PATH_MAX (100,000 bytes): stored and read, as git; checkout fails cleanly' '
	name=$(awk "BEGIN { s = \"\"; for (i = 0; i < 500; i++) s = s (i ? \"/\" : \"\") sprintf(\"%0200d\", i); print s }") &&
	printf "100644 %s\t%s\n" $blob "$name" >info &&
	rm -f .git/index &&
	dirc update-cache --index-info <info &&
	cp .git/index dirc.index &&
	dirc write-tree >dirc.tree &&
	rm -f .git/index &&
	git update-index --index-info <info &&
	git write-tree >git.tree &&
	test_cmp git.tree dirc.tree &&
	cp dirc.index .git/index &&
	git ls-files >expect &&
	dirc ls-files >actual &&
	test_cmp expect actual &&
	state_save &&
	test_expect_code 128 dirc checkout-index -a --prefix=out/ 2>err &&
	test_grep "^fatal: cannot create directory at .*File name too long" err &&
	state_unchanged &&
	rm -rf out .git/index
'

test_expect_success GIT 'names that are not UTF-8: bytes in, bytes out, as git' '
	latin1=$(printf "caf\351") &&
	ff=$(printf "a\377b") &&
	dir=$(printf "\300dir") &&
	mkdir "$dir" &&
	echo x >"$latin1" &&
	echo y >"$ff" &&
	echo z >"$dir/$(printf "\376")" &&
	rm -f .git/index &&
	dirc update-cache --add "$latin1" "$ff" "$dir/$(printf "\376")" &&
	dirc ls-files >dirc.ls &&
	dirc ls-files -z >dirc.lsz &&
	dirc write-tree >dirc.tree &&
	cp .git/index dirc.index &&
	rm .git/index &&
	git update-index --add "$latin1" "$ff" "$dir/$(printf "\376")" &&
	git ls-files >git.ls &&
	git ls-files -z >git.lsz &&
	git write-tree >git.tree &&
	test_cmp git.ls dirc.ls &&
	test_cmp git.lsz dirc.lsz &&
	test_cmp git.tree dirc.tree &&
	test_write_lines "\"a\\377b\"" "\"caf\\351\"" "\"\\300dir/\\376\"" >expect &&
	test_cmp expect dirc.ls &&
	rm "$latin1" &&
	dirc checkout-index "$latin1" &&
	echo x >expect &&
	test_cmp expect "$latin1" &&
	rm -rf .git/index "$latin1" "$ff" "$dir"
'

test_expect_success SYMLINKS,GIT 'symlink loops: stored as links; hashing one or a path beyond it fails, as git' '
	ln -s loop loop &&
	ln -s l2 l1 &&
	ln -s l1 l2 &&
	for args in "hash-object loop" "hash-object -w l1" \
		"update-index --add loop/x" "update-index --add l1/x/y"
	do
		rm -f .git/index &&
		state_save &&
		{ dirc $args >dirc.out 2>dirc.err; echo $? >dirc.code; } &&
		state_unchanged &&
		git_code $args &&
		echo 128 >expect &&
		test_cmp expect dirc.code &&
		test_cmp_codes git.code dirc.code &&
		test_cmp git.err dirc.err || return 1
	done &&
	test_expect_code 128 dirc hash-object l1 2>err &&
	test_grep "^fatal: could not open '\''l1'\'' for reading: Too many levels of symbolic links" err &&
	dirc update-cache --add loop l1 &&
	dirc ls-files -s >dirc.ls &&
	rm .git/index &&
	git update-index --add loop l1 &&
	git ls-files -s >git.ls &&
	test_cmp git.ls dirc.ls &&
	rm -f .git/index
'

test_expect_success SYMLINKS,GIT 'a .git that is a symlink loop: not a repository, 128, as git' '
	mkdir looped &&
	ln -s .git looped/.git &&
	(
		GIT_CEILING_DIRECTORIES=$TRASH_DIRECTORY &&
		export GIT_CEILING_DIRECTORIES &&
		cd looped &&
		test_expect_code 128 dirc ls-files 2>../dirc.err &&
		test_expect_code 128 git ls-files 2>../git.err
	) &&
	test_cmp git.err dirc.err
'

# An index that holds names no command lets in (only a damaged or
# hostile index does): it reads, but nothing is checked out of it or
# built from it.
test_expect_success 'setup: indexes holding ".", "..", "../escape", an absolute path, ".git/x", "a//b"' '
	abs="$TRASH_DIRECTORY/abs" &&
	while read label name
	do
		printf "100644 %s 0\t%s\n100644 %s 0\tz\n" $blob "$name" $blob >list &&
		mkindex bad-$label <list &&
		echo bad-$label >>bad.list || return 1
	done <<-EOF &&
	dot .
	dotdot ..
	escape ../escape
	abs $abs
	dotgit .git/x
	empty a//b
	EOF
	test_line_count = 6 bad.list
'

test_expect_success 'checkout-index -f -a refuses them: "invalid path", exit 1, nothing outside, work tree kept' '
	echo keep >keep &&
	for idx in $(cat bad.list)
	do
		cp $idx .git/index &&
		state_save &&
		test_expect_code 1 dirc checkout-index -f -a 2>err &&
		test_grep "^error: invalid path '\''" err &&
		state_unchanged &&
		test_path_is_file keep &&
		test_path_is_file z &&
		test_path_is_missing ../escape &&
		test_path_is_missing abs &&
		test_path_is_missing .git/x &&
		rm z || return 1
	done
'

test_expect_success GIT 'read-tree --reset -u does not remove them' '
	tree=$(printf "100644 blob %s\tz\n" $blob | git mktree) &&
	echo outside >../escape &&
	test_when_finished "rm -f ../escape" &&
	echo abs >abs &&
	for idx in bad-escape bad-abs
	do
		cp $idx .git/index &&
		test_must_fail dirc read-tree --reset -u $tree 2>err &&
		test_grep "invalid path" err &&
		test_path_is_file ../escape &&
		test_path_is_file abs || return 1
	done &&
	rm -f abs z
'

test_expect_success GIT 'write-tree refuses them: "invalid path", 128, no tree written (git builds a tree of ".", or dies)' '
	for idx in $(cat bad.list)
	do
		cp $idx .git/index &&
		state_save &&
		test_expect_code 128 dirc write-tree >out 2>err &&
		test_must_be_empty out &&
		test_grep "^error: invalid path '\''" err &&
		test_grep "^fatal: git-write-tree: error building trees" err &&
		state_unchanged || return 1
	done &&
	printf "100644 %s 0\t/\n" $blob >list &&
	mkindex bad-slash <list &&
	cp bad-slash .git/index &&
	test_expect_code 128 dirc write-tree 2>err &&
	test_grep "^error: invalid path '\''/'\''" err &&
	rm -rf scratch.git &&
	cp -R .git scratch.git &&
	for idx in bad-dot bad-slash
	do
		cp $idx scratch.git/index &&
		GIT_DIR=scratch.git git_code write-tree &&
		cat git.code >>git.codes || return 1
	done &&
	test_write_lines 0 128 >expect &&
	test_cmp expect git.codes &&
	test_grep "empty sub-tree" git.err &&
	rm -rf scratch.git .git/index
'

# retree IN OUT 'PERL': craft the TREE extension of index IN: the perl
# code edits $x (the extension's data); the length is fixed up.
retree () {
	craft "$1" "$2" "
		my \$t = index(\$d, \"TREE\"); die \"no TREE\" if \$t < 0;
		my \$len = unpack(\"N\", substr(\$d, \$t + 4, 4));
		my \$x = substr(\$d, \$t + 8, \$len);
		$3;
		substr(\$d, \$t, 8 + \$len) = \"TREE\" . pack(\"N\", length(\$x)) . \$x;"
}

# tree_then_rename P1 P2 FROM TO 'TREE-PERL': an index of blob entries
# P1 and P2 with git's TREE, then the entry name FROM changed to TO (same
# length) and the TREE data edited by TREE-PERL (see retree); it becomes
# .git/index.  The root's counts are made invalid first.
tree_then_rename () {
	rm -f .git/index &&
	git update-index --add --cacheinfo 100644,$blob,$1 \
		--cacheinfo 100644,$blob,$2 &&
	git write-tree >/dev/null &&
	craft .git/index renamed "\$d =~ s{\Q$3\E\\0}{$4\\0} or die" &&
	retree renamed bad-tree "
		\$x =~ s/^\\0002 2\\n.{$OID_RAWSZ}/\\000-1 2\\n/s or die \"root\";
		$5" &&
	cp bad-tree .git/index
}

# refused_by_write_tree NAME: write-tree fails, 128, on "invalid path
# 'NAME'" (a regular expression), printing nothing, changing nothing.
refused_by_write_tree () {
	state_save &&
	test_expect_code 128 dirc write-tree >out 2>err &&
	test_must_be_empty out &&
	test_grep "^error: invalid path '$1'" err &&
	test_grep "^fatal: git-write-tree: error building trees" err &&
	state_unchanged
}

test_expect_success GIT 'write-tree with a valid cache-tree beside: a bad name in a directory it rebuilds is refused, 128' '
	test_when_finished "rm -f .git/index" &&
	# "b/y" becomes "b/."; the root and "b" invalid, "a" still valid
	tree_then_rename a/x b/y b/y b/. \
		"\$x =~ s/b\\0001 0\\n.{$OID_RAWSZ}/b\\000-1 0\\n/s or die \"b\"" &&
	refused_by_write_tree "b/\."
'

test_expect_success GIT 'write-tree: a valid directory named ".git" under a rebuilt one is refused by its first entry, 128' '
	test_when_finished "rm -f .git/index" &&
	# "bbbb" becomes ".git" in the entries and in TREE, where it stays
	# valid; only the root is invalid
	tree_then_rename bbbb/y c/x bbbb/y .git/y \
		"\$x =~ s/bbbb\\0/.git\\0/ or die \"bbbb\"" &&
	refused_by_write_tree "\.git/y"
'

test_done
