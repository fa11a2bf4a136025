#!/bin/sh
test_description='update-cache and the index extensions and versions git writes

The TREE extension (cache-tree) built by git write-tree must be
invalidated by dirc exactly as git invalidates it: for each operation,
git and dirc start from the same index and must leave the same bytes,
TREE included, and git write-tree on dirc'"'"'s index must give the tree of
its entries.  REUC is kept and cleared as git does, UNTR (the untracked
cache) kept and invalidated as git does; optional extensions dirc does
not know (ZZZZ) are read and dropped; index.skipHash writes a zero
trailer; the version of a new index follows index.version and
GIT_INDEX_VERSION.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh
. "$TEST_DIRECTORY"/lib-catalogue.sh

# put FILE CONTENT [TIME]: write FILE, dated TIME (default T0).
put () {
	printf "%s\n" "$2" >"$1" &&
	touch -d @${3:-$T0} "$1"
}

# extensions [FILE]: the signatures of the extensions in FILE (default
# .git/index), one a line, in file order.  An entry: 40 bytes of stat
# data, the id (OID_RAWSZ bytes), the flags (2 bytes, 4 when extended),
# the name; the file ends with a checksum of OID_RAWSZ bytes.
extensions () {
	perl -e '
		open my $f, "<", $ARGV[0] or die "$ARGV[0]: $!";
		my $rawsz = $ARGV[1]; my $fix = 40 + $rawsz;
		binmode $f; local $/; my $d = <$f>;
		my ($v, $n) = unpack "x4 N N", $d; my $o = 12; my $prev = "";
		for my $i (1 .. $n) {
			my $fl = unpack "n", substr($d, $o + $fix, 2);
			my $x = ($fl & 0x4000) ? 2 : 0;
			my $p = $o + $fix + 2 + $x;
			if ($v == 4) {
				my ($c, $drop) = (ord(substr($d, $p++, 1)), 0);
				$drop = $c & 127;
				while ($c & 128) {
					$c = ord(substr($d, $p++, 1));
					$drop = (($drop + 1) << 7) | ($c & 127);
				}
				my $e = index($d, "\0", $p);
				$o = $e + 1;
			} else {
				my $e = index($d, "\0", $p);
				$o += ($fix + 2 + $x + $e - $p + 8) & ~7;
			}
		}
		while ($o + 8 <= length($d) - $rawsz) {
			my ($sig, $len) = unpack "a4 N", substr($d, $o, 8);
			print "$sig\n";
			$o += 8 + $len;
		}' "${1:-.git/index}" "$OID_RAWSZ"
}

# trailer [FILE]: the last OID_RAWSZ bytes of FILE (default .git/index),
# in hex; body [FILE]: the rest.
trailer () {
	tail -c "$OID_RAWSZ" "${1:-.git/index}" | od -An -v -tx1 | tr -d " \n" &&
	echo
}
body () {
	tb_size=$(wc -c <"${1:-.git/index}") &&
	head -c $((tb_size - OID_RAWSZ)) "${1:-.git/index}"
}

# tree_is_right: git write-tree on dirc's index (trusting its TREE) gives
# the tree of its entries (computed without the TREE extension).
tree_is_right () {
	cp .git/index .git/index.check &&
	GIT_INDEX_FILE=.git/index.check git write-tree >tree.cached &&
	cp .git/index .git/index.check &&
	GIT_INDEX_FILE=.git/index.check git write-tree --ignore-cache-tree \
		>tree.fresh &&
	rm -f .git/index.check &&
	test_cmp tree.fresh tree.cached
}

# with_tree: a fresh index of the whole tree, with a fully valid TREE
# written by git write-tree, index dated after every file.
with_tree () {
	rm -f .git/index &&
	git update-index --add top a/b/f a/b/f2 a/c/g a/d/e/h z/i &&
	git write-tree >/dev/null &&
	extensions >ext &&
	echo TREE >expect.ext &&
	test_cmp expect.ext ext
}

test_expect_success GIT 'setup: a tree, staged by git, TREE written by git write-tree' '
	T0=1500000000 &&
	mkdir -p a/b a/c a/d/e z &&
	put top top &&
	put a/b/f f &&
	put a/b/f2 f2 &&
	put a/c/g g &&
	put a/d/e/h h &&
	put z/i i &&
	put a/c/new new &&
	put new new &&
	with_tree &&
	tree_is_right
'

test_expect_success GIT 'TREE: update-cache of a changed file invalidates its directories' '
	with_tree &&
	put a/b/f "f changed" $((T0 + 10)) &&
	test_when_finished "put a/b/f f" &&
	run_both a/b/f &&
	same_result &&
	tree_is_right
'

test_expect_success GIT 'TREE: --refresh after a touch keeps it valid' '
	with_tree &&
	touch -d @$((T0 + 20)) a/c/g &&
	test_when_finished "touch -d @$T0 a/c/g" &&
	run_both --refresh &&
	same_result &&
	tree_is_right
'

test_expect_success GIT 'TREE: update-cache of a touched, unchanged file' '
	with_tree &&
	touch -d @$((T0 + 20)) a/c/g &&
	test_when_finished "touch -d @$T0 a/c/g" &&
	run_both a/c/g &&
	same_result &&
	tree_is_right
'

test_expect_success GIT 'TREE: --add of a new file in a subdirectory' '
	with_tree &&
	run_both --add a/c/new &&
	same_result &&
	tree_is_right
'

test_expect_success GIT 'TREE: --add of a new file at the top' '
	with_tree &&
	run_both --add new &&
	same_result &&
	tree_is_right
'

test_expect_success GIT 'TREE: --force-remove of a file, of the last file of a directory' '
	with_tree &&
	run_both --force-remove a/b/f2 &&
	same_result &&
	tree_is_right &&
	with_tree &&
	run_both --force-remove a/d/e/h &&
	same_result &&
	tree_is_right &&
	with_tree &&
	run_both --force-remove z/i top &&
	same_result &&
	tree_is_right
'

test_expect_success GIT 'TREE: --remove of a deleted file' '
	with_tree &&
	mv a/c/g g.saved &&
	test_when_finished "mv g.saved a/c/g" &&
	run_both --remove a/c/g &&
	same_result &&
	tree_is_right
'

test_expect_success GIT 'TREE: --cacheinfo, existing path and new path' '
	with_tree &&
	blob=$(git hash-object -w new) &&
	run_both --cacheinfo 100644,$blob,a/b/f &&
	same_result &&
	tree_is_right &&
	with_tree &&
	run_both --add --cacheinfo 100644,$blob,a/d/new &&
	same_result &&
	tree_is_right
'

test_expect_success GIT 'TREE: --index-info (change, add, remove)' '
	with_tree &&
	printf "100644 %s\ta/d/e/h\n" $blob >info &&
	printf "100644 %s\tz/new\n" $blob >>info &&
	printf "0 %s\ta/b/f2\n" $blob >>info &&
	run_both -i info --index-info &&
	same_result &&
	tree_is_right
'

test_expect_success GIT 'TREE: --chmod=+x' '
	with_tree &&
	run_both --chmod=+x a/c/g &&
	same_result &&
	tree_is_right
'

test_expect_success GIT 'TREE: --assume-unchanged and --skip-worktree' '
	with_tree &&
	run_both --assume-unchanged a/d/e/h &&
	same_result &&
	tree_is_right &&
	with_tree &&
	run_both --skip-worktree z/i &&
	same_result &&
	tree_is_right
'

test_expect_success GIT 'TREE: --replace of a directory by a file' '
	with_tree &&
	mv z z.saved &&
	put z "z is a file" &&
	test_when_finished "rm z && mv z.saved z" &&
	run_both --add --replace z &&
	same_result &&
	tree_is_right
'

test_expect_success GIT 'TREE: --index-version 4 keeps it' '
	with_tree &&
	run_both --index-version 4 &&
	same_result &&
	extensions >ext &&
	test_cmp expect.ext ext &&
	tree_is_right &&
	run_both --add new &&
	same_result &&
	tree_is_right
'

test_expect_success GIT 'TREE: a failing command leaves it as it was' '
	with_tree &&
	cp -p .git/index index.before &&
	run_both --add new nosuch &&
	same_result &&
	test_cmp index.before .git/index
'

test_expect_success GIT 'REUC: resolving a conflict records resolve-undo as git does' '
	with_tree &&
	blob=$(git hash-object -w new) &&
	blob2=$(git hash-object -w top) &&
	printf "0 %s\ttop\n" $blob >info &&
	printf "100644 %s %d\ttop\n" $blob 1 $blob2 2 $blob 3 >>info &&
	git update-index --index-info <info &&
	run_both top &&
	same_result &&
	extensions >ext &&
	test_write_lines TREE REUC >expect &&
	test_cmp expect ext
'

test_expect_success GIT 'REUC: kept by a later update, dropped by --clear-resolve-undo' '
	run_both --add new &&
	same_result &&
	run_both --clear-resolve-undo &&
	same_result &&
	extensions >ext &&
	echo TREE >expect &&
	test_cmp expect ext
'

test_expect_success GIT 'REUC: --force-remove of a conflicted path records it too' '
	printf "0 %s\tz/i\n" $blob >info &&
	printf "100644 %s %d\tz/i\n" $blob 1 $blob2 3 >>info &&
	git update-index --index-info <info &&
	run_both --force-remove z/i &&
	same_result
'

test_expect_success GIT 'EOIE and IEOT written by git: read, and dropped on rewrite as git does' '
	rm -f .git/index &&
	for i in $(test_seq 40)
	do
		printf "100644 %s\tmany/f%02d\n" $blob $i || return 1
	done >many.info &&
	git update-index --index-info <many.info &&
	git -c index.threads=4 -c index.recordEndOfIndexEntries=true \
		-c index.recordOffsetTable=true update-index --force-write-index &&
	extensions >ext &&
	test_grep "^EOIE$" ext &&
	test_grep "^IEOT$" ext &&
	git ls-files -s >expect &&
	dirc ls-files -s >actual &&
	test_cmp expect actual &&
	run_both --add new &&
	same_result &&
	extensions >ext &&
	test_must_be_empty ext
'

test_expect_success GIT 'UNTR (untracked cache) written by git: kept, the directories of added and removed paths invalidated as git does' '
	rm -f .git/index &&
	git update-index --add top a/b/f &&
	git update-index --untracked-cache &&
	git -c core.untrackedCache=true status --porcelain >/dev/null &&
	extensions >ext &&
	test_grep "^UNTR$" ext &&
	git ls-files -s >expect &&
	dirc ls-files -s >actual &&
	test_cmp expect actual &&
	run_both --add new &&
	same_result &&
	extensions >ext &&
	test_grep "^UNTR$" ext &&
	git -c core.untrackedCache=true status --porcelain >/dev/null &&
	run_both --add a/c/g &&
	same_result &&
	git -c core.untrackedCache=true status --porcelain >/dev/null &&
	run_both --force-remove a/b/f &&
	same_result &&
	run_both --force-remove not/there &&
	same_result &&
	git -c core.untrackedCache=true status --porcelain >/dev/null &&
	put top "changed in place" &&
	run_both top &&
	same_result &&
	run_both --chmod=+x a/c/g &&
	same_result &&
	>a/b/new-untracked &&
	git -c core.untrackedCache=true status --porcelain -uall >.git/cached &&
	git -c core.untrackedCache=false status --porcelain -uall >.git/fresh &&
	test_cmp .git/fresh .git/cached &&
	test_grep "^?? a/b/new-untracked$" .git/cached
'

test_expect_success GIT 'UNTR: core.untrackedCache and feature.manyFiles make one, --[no-]untracked-cache as git' '
	test_when_finished "git config --unset core.untrackedCache; git config --unset feature.manyFiles; :" &&
	rm -f .git/index &&
	git update-index --add top a/b/f &&
	run_both --untracked-cache --verbose &&
	same_result &&
	extensions >ext &&
	test_grep "^UNTR$" ext &&
	run_both --no-untracked-cache --verbose &&
	same_result &&
	run_both --force-untracked-cache &&
	same_result &&
	run_both --no-force-untracked-cache &&
	same_result &&
	git update-index --no-untracked-cache &&
	git config core.untrackedCache true &&
	run_both &&
	same_result &&
	extensions .git/index >ext &&
	test_grep "^UNTR$" ext &&
	run_both --no-untracked-cache &&
	same_result &&
	git config core.untrackedCache false &&
	git update-index --force-untracked-cache 2>/dev/null &&
	run_both --add a/c/g &&
	same_result &&
	run_both --untracked-cache &&
	same_result &&
	git config core.untrackedCache keep &&
	run_both --add z/i &&
	same_result &&
	git config --unset core.untrackedCache &&
	git config feature.manyFiles true &&
	git update-index --no-untracked-cache 2>/dev/null &&
	run_both --add a/d/e/h &&
	test_cmp_codes git.code dirc.code &&
	body .git/index.by-git >expect &&
	body .git/index >actual &&
	test_cmp expect actual &&
	run_both --test-untracked-cache 2>/dev/null &&
	test_must_fail dirc update-cache --test-untracked-cache 2>err &&
	test_grep "not supported by dirc" err &&
	git config --unset feature.manyFiles &&
	rm -f .git/index &&
	git update-index --add top a/b/f &&
	git -c core.untrackedCache=true update-index --add a/c/g &&
	git -c core.untrackedCache=true status >/dev/null &&
	cp .git/index before &&
	git write-tree >expect &&
	mv .git/index index.git &&
	cp before .git/index &&
	dirc write-tree >actual &&
	test_cmp expect actual &&
	cmp index.git .git/index
'

# untr_flip N: flip byte N (counted from the start of its data) of the
# UNTR extension of .git/index, and zero the trailer (a skipped hash,
# so that readers do not check it).
untr_flip () {
	perl -e '
		my ($file, $n, $rawsz) = @ARGV;
		open my $f, "+<", $file or die; binmode $f;
		local $/; my $d = <$f>;
		my $at = index($d, "UNTR");
		my $len = unpack "N", substr($d, $at + 4, 4);
		exit 1 if $n >= $len;
		my $o = $at + 8 + $n;
		substr($d, $o, 1) = chr(ord(substr($d, $o, 1)) ^ (1 << ($n % 8)));
		substr($d, -$rawsz) = "\0" x $rawsz;
		seek $f, 0, 0; print $f $d; close $f;' .git/index "$1" "$OID_RAWSZ"
}

test_expect_success GIT 'UNTR damaged byte by byte: dropped or kept exactly as git does' '
	rm -f .git/index &&
	git update-index --add top a/b/f &&
	git -c core.untrackedCache=true -c status.showUntrackedFiles=all \
		status >/dev/null &&
	extensions >ext &&
	test_grep "^UNTR$" ext &&
	cp .git/index good &&
	n=0 &&
	flipped=0 &&
	crashed=0 &&
	# every byte under LONG; else every fifth (5 and 8 coprime: each
	# region of the extension, each bit position)
	if test_have_prereq LONG
	then
		step=1
	else
		step=5
	fi &&
	while untr_flip $n
	do
		cp .git/index damaged &&
		{
			git update-index --add z/i 2>/dev/null
			gc=$?
		} &&
		rm -f .git/index.lock &&
		mv .git/index index.git &&
		cp damaged .git/index &&
		dirc update-cache --add z/i &&
		case $gc in
		0)	cmp index.git .git/index ||
			{ echo "byte $n: not the bytes git wrote"; return 1; } ;;
		*)	# git 2.39 reads past a damaged cache here and crashes
			crashed=$((crashed + 1)) ;;
		esac &&
		cp good .git/index &&
		flipped=$((flipped + 1)) &&
		n=$((n + step)) || return 1
	done &&
	echo "# $flipped of $n bytes flipped; git crashed on $crashed of them" &&
	test $n -gt 700 &&
	test $flipped -gt 140 &&
	cp good .git/index
'

test_expect_success GIT 'an unknown optional extension: "ignoring ZZZZ extension", dropped on rewrite' '
	rm -f .git/index &&
	git update-index --add top a/b/f &&
	git write-tree >/dev/null &&
	craft .git/index .git/index.zzzz \
		"\$d .= \"ZZZZ\" . pack(\"N\", 5) . \"hello\"" &&
	mv .git/index.zzzz .git/index &&
	extensions >ext &&
	test_write_lines TREE ZZZZ >expect &&
	test_cmp expect ext &&
	dirc ls-files -s >actual 2>err &&
	git ls-files -s >expect 2>expect.err &&
	test_cmp expect actual &&
	test_cmp expect.err err &&
	echo "ignoring ZZZZ extension" >expect &&
	test_cmp expect err &&
	run_both --add new &&
	same_result &&
	extensions >ext &&
	echo TREE >expect &&
	test_cmp expect ext
'

test_expect_success GIT 'a new index: version 2, or 3 with an extended entry' '
	rm -f .git/index &&
	run_both --add top &&
	same_result &&
	rm -f .git/index &&
	printf "100644 %s\ttop\n" $blob >one.info &&
	run_both -i one.info --index-info &&
	same_result
'

test_expect_success GIT 'a new index: index.version config' '
	test_when_finished "git config --unset index.version" &&
	for v in 2 3 4
	do
		git config index.version $v &&
		rm -f .git/index &&
		run_both --add top a/b/f &&
		same_result || return 1
	done
'

test_expect_success GIT 'a new index: GIT_INDEX_VERSION, over index.version' '
	test_when_finished "git config --unset index.version" &&
	git config index.version 2 &&
	rm -f .git/index &&
	(
		GIT_INDEX_VERSION=4 &&
		export GIT_INDEX_VERSION &&
		run_both --add top a/b/f
	) &&
	same_result &&
	head -c 8 .git/index >hdr &&
	printf "DIRC\000\000\000\004" >expect &&
	test_cmp expect hdr
'

test_expect_success GIT 'an existing index keeps its version whatever the config says' '
	test_when_finished "git config --unset index.version" &&
	rm -f .git/index &&
	git update-index --add top &&
	git config index.version 4 &&
	run_both --add a/b/f &&
	same_result
'

test_expect_success GIT 'feature.manyFiles makes a new index version 4' '
	test_when_finished "git config --unset feature.manyFiles" &&
	git config feature.manyFiles true &&
	rm -f .git/index &&
	run_both --add top a/b/f &&
	test_cmp_codes git.code dirc.code &&
	test_cmp git.err dirc.err &&
	head -c 8 .git/index.by-git >expect &&
	head -c 8 .git/index >actual &&
	test_cmp expect actual &&
	GIT_INDEX_FILE=.git/index.by-git git ls-files -s --debug >expect &&
	git ls-files -s --debug >actual &&
	test_cmp expect actual
'

# skip_hash_case ARGS...: a new index written by dirc with ARGS ("-c
# k=v"...) must end in a zero trailer, be otherwise the bytes git 2.39
# writes (it knows no index.skipHash), and read back by git.
skip_hash_case () {
	rm -f .git/index &&
	git "$@" update-index --add top a/b/f &&
	body >expect.body &&
	rm .git/index &&
	dirc "$@" update-cache --add top a/b/f &&
	body >actual.body &&
	test_cmp expect.body actual.body &&
	echo $ZERO_OID >expect &&
	trailer >actual &&
	test_cmp expect actual &&
	printf "%s\n" a/b/f top >expect &&
	git ls-files >actual &&
	test_cmp expect actual
}

test_expect_success GIT 'index.skipHash (git 2.40): a zero trailer, otherwise the bytes git writes' '
	test_when_finished "rm -f .git/index" &&
	skip_hash_case -c index.skipHash=true &&
	skip_hash_case -c feature.manyFiles=true -c core.untrackedCache=false &&
	skip_hash_case -c feature.manyFiles=true -c core.untrackedCache=false \
		-c index.skipHash=yes &&
	dirc -c index.skipHash=false update-cache --add z/i &&
	trailer >actual &&
	! test_cmp expect actual &&
	git -c index.skipHash=false update-index --add top z/i &&
	git ls-files -s >expect &&
	dirc ls-files -s >actual &&
	test_cmp expect actual &&
	dirc -c feature.manyFiles=true -c index.skipHash=false \
		update-cache --add a/c/g &&
	echo $ZERO_OID >zero &&
	trailer >actual &&
	! test_cmp zero actual &&
	dirc -c feature.manyFiles=true -c index.skipHash=true \
		update-cache --add a/d/e/h &&
	trailer >actual &&
	test_cmp zero actual
'

test_expect_success GIT 'index.skipHash from the repository config, and a bad value refused as git refuses it' '
	test_when_finished "git config --unset index.skipHash; git config --unset feature.manyFiles; rm -f .git/index" &&
	rm -f .git/index &&
	git config index.skipHash true &&
	dirc update-cache --add top &&
	echo $ZERO_OID >expect &&
	trailer >actual &&
	test_cmp expect actual &&
	dirc update-cache --add a/b/f &&
	trailer >actual &&
	test_cmp expect actual &&
	git config index.skipHash false &&
	git config feature.manyFiles true &&
	dirc update-cache --add z/i &&
	trailer >actual &&
	! test_cmp expect actual &&
	cp .git/index index.before &&
	git config index.skipHash maybe &&
	test_must_fail dirc update-cache --add a/c/g 2>err &&
	test_grep "bad boolean config value .maybe. for .index.skiphash." err &&
	test_cmp index.before .git/index &&
	git config index.skipHash true &&
	git config feature.manyFiles perhaps &&
	test_must_fail dirc update-cache --add a/c/g 2>err &&
	test_grep "bad boolean config value .perhaps. for .feature.manyfiles." err &&
	test_cmp index.before .git/index
'

test_expect_success GIT 'index.skipHash and a split index: the shared index is hashed and named by it' '
	test_when_finished "rm -f .git/index .git/sharedindex.*" &&
	rm -f .git/index .git/sharedindex.* &&
	dirc -c index.skipHash=true update-cache --split-index --add top a/b/f &&
	echo $ZERO_OID >expect &&
	trailer >actual &&
	test_cmp expect actual &&
	ls .git/sharedindex.* >shared &&
	test_line_count = 1 shared &&
	f=$(cat shared) &&
	body "$f" >shared.body &&
	sum=$(${OID_ALGO}sum <shared.body) &&
	test "$f" = ".git/sharedindex.${sum%% *}" &&
	trailer "$f" >actual &&
	echo ${sum%% *} >expect &&
	test_cmp expect actual &&
	git ls-files -s >actual &&
	test_line_count = 2 actual &&
	dirc -c index.skipHash=true update-cache --add z/i &&
	git ls-files -s >actual &&
	test_line_count = 3 actual &&
	dirc ls-files -s >expect &&
	test_cmp expect actual
'

test_expect_success GIT_NEW 'git 2.55: index.skipHash and feature.manyFiles, the same bytes' '
	for cfg in index.skipHash=true feature.manyFiles=true \
		"feature.manyFiles=true index.skipHash=false"
	do
		set -- &&
		for c in $cfg
		do
			set -- "$@" -c "$c" || return 1
		done &&
		rm -f .git/index &&
		git_new "$@" update-index --add top a/b/f &&
		git_new "$@" update-index --chmod=+x top &&
		mv .git/index index.new &&
		dirc "$@" update-cache --add top a/b/f &&
		dirc "$@" update-cache --chmod=+x top &&
		cmp index.new .git/index || return 1
	done &&
	rm -f .git/index
'

# Unchanged entries are written from the mapping of the index that was
# read when their bytes there are exactly what would be formatted; these
# check the cases where they are not, against git's bytes.

test_expect_success GIT 'an entry padded with garbage is written with NULs, as git writes it' '
	rm -f .git/index &&
	# the first entry: at 12, its name after 40 bytes of stat data, the
	# id and 2 bytes of flags; the name ("abcd" with SHA-1, "abcdefgh"
	# with SHA-256) leaves 6 bytes of padding: its NUL and 5 more
	nm=$((12 + 42 + OID_RAWSZ)) &&
	n=$(((10 - (42 + OID_RAWSZ) % 8) % 8)) &&
	n=${n#0} && n=${n:-8} &&
	first=$(printf "%.${n}s" abcdefgh) &&
	put $first one && put efgh two && put ijkl three &&
	git update-index --add $first efgh ijkl &&
	craft .git/index .git/index.padded "
		substr(\$d, $nm, $((n + 6))) eq \"$first\" . \"\\0\" x 6 or die \"layout\";
		substr(\$d, $((nm + n + 2)), 1) = \"X\";
		substr(\$d, $((nm + n + 5)), 1) = \"\\001\"" &&
	cp .git/index.padded .git/index &&
	put mnop four &&
	run_both --add mnop &&
	same_result &&
	! cmp -s .git/index.padded .git/index
'

test_expect_success GIT 'entries changed in memory around unchanged runs: refresh, chmod, assume-unchanged' '
	rm -f .git/index &&
	for f in p0 p1 p2 p3 p4 p5 p6 p7; do put $f $f || return 1; done &&
	git update-index --add p0 p1 p2 p3 p4 p5 p6 p7 &&
	put p2 changed-two $((T0 + 5)) &&
	put p5 changed-five $((T0 + 7)) &&
	run_both --refresh &&
	same_result &&
	run_both --chmod=+x p3 &&
	same_result &&
	run_both --assume-unchanged p0 p7 &&
	same_result &&
	run_both --add p2 p5 &&
	same_result
'

test_expect_success GIT 'the version follows extended flags coming and going (the write guesses, then writes again)' '
	rm -f .git/index &&
	put abcd one && put efgh two &&
	git update-index --add abcd efgh &&
	run_both --skip-worktree efgh &&
	same_result &&
	printf "DIRC\000\000\000\003" >expect &&
	head -c 8 .git/index >actual &&
	test_cmp expect actual &&
	run_both --no-skip-worktree efgh &&
	same_result &&
	printf "DIRC\000\000\000\002" >expect &&
	head -c 8 .git/index >actual &&
	test_cmp expect actual
'

test_expect_success GIT 'a null id allowed by GIT_ALLOW_NULL_SHA1 is warned about once, also when the write starts again' '
	rm -f .git/index &&
	put abcd one &&
	git update-index --add abcd &&
	GIT_ALLOW_NULL_SHA1=1 git update-index --add \
		--cacheinfo 100644,$ZERO_OID,zero &&
	GIT_ALLOW_NULL_SHA1=1 run_both --skip-worktree abcd &&
	same_result &&
	grep -c "cache entry has null sha1: zero" dirc.err >count &&
	echo 1 >expect &&
	test_cmp expect count
'

test_expect_success GIT 'a 20,000-entry index (hashed on a second thread) is the bytes git writes, for every thread count and buffer size' '
	rm -f .git/index &&
	blob=$(git hash-object -w --stdin </dev/null) &&
	awk -v b=$blob "BEGIN { for (i = 0; i < 20000; i++)
		printf \"100644 %s\\td%03d/f%05d\\n\", b, i % 150, i }" >many &&
	run_both -i many --index-info &&
	same_result &&
	test $(wc -c <.git/index) -gt 1000000 &&
	for t in 1 2 4
	do
		cp .git/index.by-git .git/index &&
		dirc update-cache --threads=$t --add mnop &&
		mv .git/index dirc.$t || return 1
	done &&
	cp .git/index.by-git .git/index &&
	DIRC_BUFWRITE_SIZE=0 dirc update-cache --add mnop &&
	mv .git/index dirc.unbuffered &&
	cp .git/index.by-git .git/index &&
	git update-index --add mnop &&
	test_cmp .git/index dirc.1 &&
	test_cmp .git/index dirc.2 &&
	test_cmp .git/index dirc.4 &&
	test_cmp .git/index dirc.unbuffered &&
	dirc test-tool verify-index
'

# big_index N: .git/index afresh, written by git: N empty files in 150
# directories, about 100 bytes an entry
big_index () {
	rm -f .git/index &&
	blob=$(git hash-object -w --stdin </dev/null) &&
	awk -v b=$blob -v n=$1 "BEGIN { for (i = 0; i < n; i++)
		printf \"100644 %s\\tdirectory-%03d/a-longer-file-name-%05d\\n\", b, i % 150, i }" >big &&
	git update-index --index-info <big
}

# From 2 MB an index is read into memory rather than mapped (index.c's
# map_index): the same entries either way, and a file shorter than its
# entries is still refused.
test_expect_success GIT 'an index past 2 MB (read, not mapped): the same entries, the same tree, v2 and v4' '
	big_index 30000 &&
	test $(wc -c <.git/index) -gt 2200000 &&
	git ls-files -s >expect &&
	dirc ls-files -s >actual &&
	test_cmp expect actual &&
	git write-tree >expect &&
	dirc write-tree >actual &&
	test_cmp expect actual &&
	git update-index --index-version 4 &&
	git ls-files -s >expect &&
	dirc ls-files -s >actual &&
	test_cmp expect actual &&
	git update-index --index-version 2 &&
	size=$(wc -c <.git/index) &&
	head -c $((size - 4096)) .git/index >.git/index.short &&
	cp .git/index keep &&
	mv .git/index.short .git/index &&
	test_must_fail dirc ls-files 2>err &&
	test_grep "corrupt\|bad\|smaller" err &&
	mv keep .git/index &&
	dirc ls-files >/dev/null
'

# An index of 7 MB and its entries' pool are held in whole huge pages
# (lib/mempool.c's huge_map), faulted in on two threads, or on one with
# DIRC_THREADS=1 or index.threads=1: the same entries and the same round
# trip as git's; and forty reads in one process peak where one does: each
# read unmaps all it mapped, the copy's rounded-up tail included.
test_expect_success GIT 'a 7 MB index (whole huge pages, faulted in on two threads or one): git'"'"'s entries and git'"'"'s bytes' '
	big_index 70000 &&
	test $(wc -c <.git/index) -gt 7000000 &&
	echo 7mb >mnop &&
	cp .git/index index.start &&
	git ls-files -s >expect &&
	git update-index --add mnop &&
	cp .git/index index.by-git &&
	for threads in 1 2
	do
		cp index.start .git/index &&
		DIRC_THREADS=$threads dirc ls-files -s >actual &&
		test_cmp expect actual &&
		DIRC_THREADS=$threads dirc test-tool read-index 20 &&
		DIRC_THREADS=$threads dirc update-cache --add mnop &&
		test_cmp index.by-git .git/index || return 1
	done &&
	cp index.start .git/index &&
	dirc -c index.threads=1 ls-files -s >actual &&
	test_cmp expect actual
'

# (Not under sanitizers: they hold freed memory back on purpose.)
test_expect_success GIT,!SANITIZE 'forty reads of that index in one process peak where one does: each unmaps all it mapped' '
	test -f index.start &&
	cp index.start .git/index &&
	if test -x "$DIRC_BUILD_DIR/perf/runcmd"
	then
		"$DIRC_BUILD_DIR/perf/runcmd" -- dirc test-tool read-index 1 >one &&
		"$DIRC_BUILD_DIR/perf/runcmd" -- dirc test-tool read-index 40 >forty &&
		one=$(sed -n "s/.* maxrss_kib=\([0-9]*\) .*/\1/p" one) &&
		forty=$(sed -n "s/.* maxrss_kib=\([0-9]*\) .*/\1/p" forty) &&
		test -n "$one" && test -n "$forty" &&
		test $forty -lt $((one + 16384))
	fi
'

test_done
