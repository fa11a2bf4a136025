#!/bin/sh
test_description='read-tree: plain reads of one or several trees, --empty, the options around them

A plain read (no -m, --reset or --prefix) and --empty start a new index:
git does not read the old one (so a damaged or empty index file does not
matter) and writes the new one at its default version.  Several trees
overlay: a later tree wins a path, a directory wins over a file.  Then
the options git has and the order in which it checks them, and what
dirc refuses.

lib-interop runs "git read-tree ARGS" and "dirc read-tree ARGS" from the
same index: exit code, output, messages and the index written (TREE
included) must be equal.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-checkout.sh

# refused MESSAGE ARGS...: git goes ahead, dirc refuses (exit 128,
# MESSAGE), index untouched
refused () {
	rf_msg=$1 &&
	shift &&
	interop_run read-tree "$@" &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	printf "fatal: %s\n" "$rf_msg" >expect &&
	test_cmp expect dirc.err &&
	state_unchanged
}

test_expect_success GIT 'setup: trees initial, main and side (t1008'"'"'s), and a tree with a/ and a-b, a.c' '
	echo one >a &&
	git update-index --add a &&
	git write-tree >initial &&
	echo two >b &&
	git update-index --add b &&
	git write-tree >main &&
	rm -f .git/index &&
	echo three >a &&
	git update-index --add a &&
	git update-index --force-remove b &&
	rm b &&
	mkdir b &&
	echo four >b/c &&
	git update-index --add b/c &&
	git write-tree >side &&
	rm -rf .git/index b &&
	mkdir -p x/y &&
	echo f >x/y/f &&
	echo g >x-b &&
	echo h >x.c &&
	git update-index --add x/y/f x-b x.c &&
	git write-tree >xdir &&
	rm -rf .git/index x &&
	echo x >x &&
	git update-index --add x &&
	git write-tree >xfile &&
	initial=$(cat initial) main=$(cat main) side=$(cat side) &&
	xdir=$(cat xdir) xfile=$(cat xfile) &&
	git read-tree $main
'

test_expect_success GIT 'several trees overlay: the last wins a path, a directory wins over a file' '
	initial=$(cat initial) main=$(cat main) side=$(cat side) &&
	interop_run read-tree $initial $main $side &&
	same_result &&
	git ls-files >actual &&
	printf "a\nb/c\n" >expect &&
	test_cmp expect actual &&
	git rev-parse :a >actual &&
	git rev-parse $side:a >expect &&
	test_cmp expect actual &&
	interop_run read-tree $side $main &&
	same_result &&
	git ls-files >actual &&
	printf "a\nb/c\n" >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'overlay: a file sorting between a directory and its files ("x-b", "x.c")' '
	xdir=$(cat xdir) xfile=$(cat xfile) main=$(cat main) &&
	interop_run read-tree $xfile $xdir &&
	same_result &&
	interop_run read-tree $xdir $xfile $main &&
	same_result &&
	git ls-files >actual &&
	printf "a\nb\nx-b\nx.c\nx/y/f\n" >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'overlay: the TREE git leaves (valid where the tree exists)' '
	initial=$(cat initial) main=$(cat main) side=$(cat side) xdir=$(cat xdir) &&
	interop_run read-tree $main $side $xdir &&
	same_result &&
	interop_run read-tree $xdir $initial &&
	same_result
'

test_expect_success GIT 'seven trees like git; eight read (git 2.39 aborts with a BUG); nine refused' '
	t=$(cat initial) &&
	interop_run read-tree $t $t $t $t $t $t $t &&
	same_result &&
	dirc read-tree $t $t $t $t $t $t $t $(cat side) &&
	git ls-files >actual &&
	printf "a\nb/c\n" >expect &&
	test_cmp expect actual &&
	fails_like_git 128 "fatal: I cannot read more than 8 trees" read-tree $t $t $t $t $t $t $t $t $t
'

test_expect_success GIT 'an empty index file: not read by a plain read (t1009)' '
	: >.git/index &&
	interop_run read-tree $(cat main) &&
	same_result &&
	echo 0 >expect &&
	test_cmp expect dirc.code
'

test_expect_success GIT 'a damaged index file: not read by a plain read or --empty; -m dies on it' '
	echo garbage >.git/index &&
	interop_run read-tree $(cat main) &&
	same_result &&
	echo garbage >.git/index &&
	interop_run read-tree --empty &&
	same_result &&
	echo garbage >.git/index &&
	interop_run read-tree -m $(cat main) &&
	test_cmp_codes git.code dirc.code &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	test_grep "index file smaller than expected" dirc.err &&
	state_unchanged
'

test_expect_success GIT 'a plain read writes a new index at the default version, not the old one'"'"'s' '
	git read-tree $(cat main) &&
	git update-index --index-version 4 &&
	interop_run read-tree $(cat side) &&
	same_result &&
	head -c 8 .git/index | od -An -tx1 >actual &&
	echo " 44 49 52 43 00 00 00 02" >expect &&
	test_cmp expect actual &&
	git update-index --index-version 4 &&
	interop_run read-tree --empty &&
	same_result &&
	git update-index --index-version 4 &&
	interop_run read-tree -m $(cat side) &&
	same_result &&
	head -c 8 .git/index | od -An -tx1 >actual &&
	echo " 44 49 52 43 00 00 00 04" >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'the new index follows index.version and GIT_INDEX_VERSION' '
	test_when_finished "git config --unset index.version" &&
	git config index.version 4 &&
	interop_run read-tree $(cat side) &&
	same_result &&
	head -c 8 .git/index | od -An -tx1 >actual &&
	echo " 44 49 52 43 00 00 00 04" >expect &&
	test_cmp expect actual &&
	git config index.version 2 &&
	GIT_INDEX_VERSION=4 &&
	export GIT_INDEX_VERSION &&
	interop_run read-tree $(cat main) &&
	unset GIT_INDEX_VERSION &&
	same_result &&
	head -c 8 .git/index | od -An -tx1 >actual &&
	test_cmp expect actual
'

test_expect_success GIT 'resolve-undo and unmerged entries of the old index are gone after a plain read' '
	git read-tree $(cat main) &&
	printf "100644 %s 1\tzz\n100644 %s 2\tzz\n" $(git rev-parse :a) $(git rev-parse :b) |
	git update-index --index-info &&
	git update-index --add --cacheinfo 100644,$(git rev-parse :a),zz &&
	interop_run read-tree $(cat side) &&
	same_result
'

test_expect_success GIT '-n: everything is checked, nothing written' '
	git read-tree $(cat main) &&
	interop_run read-tree -n $(cat side) &&
	test_cmp_codes git.code dirc.code &&
	test_cmp git.err dirc.err &&
	state_unchanged &&
	interop_run read-tree -n nosuch &&
	test_cmp git.err dirc.err &&
	state_unchanged
'

test_expect_success GIT '-n still needs the lock, like git' '
	test_when_finished "rm -f .git/index.lock" &&
	: >.git/index.lock &&
	test_expect_code 128 dirc read-tree -n $(cat side) 2>err &&
	grep "^fatal: Unable to create .*index.lock.: File exists" err
'

test_expect_success GIT '--index-output: the index is locked and kept, the output written by rename' '
	test_when_finished "rm -f out out2 .git/index.lock" &&
	git read-tree $(cat main) &&
	cp .git/index index.before &&
	GIT_INDEX_FILE=.git/index.git git read-tree --index-output=out2 $(cat side) &&
	dirc read-tree --index-output=out $(cat side) &&
	test_cmp out2 out &&
	test_cmp index.before .git/index &&
	: >.git/index.lock &&
	test_expect_code 128 dirc read-tree --index-output=out $(cat main) 2>err &&
	grep "index.lock" err &&
	test_path_is_missing out.lock
'

test_expect_success GIT '--index-output is relative to the top of the work tree' '
	test_when_finished "rm -rf sub top-out" &&
	mkdir sub &&
	(cd sub && dirc read-tree --index-output=top-out $(cat ../side)) &&
	test_path_is_file top-out &&
	test_path_is_missing sub/top-out
'

test_expect_success GIT '--index-output= (empty) and into a missing directory: git'"'"'s message' '
	git read-tree $(cat main) &&
	fails_like_git 128 "fatal: unable to write new index file" read-tree --index-output= $(cat side) &&
	fails_like_git 128 "fatal: unable to write new index file" read-tree --index-output=nodir/out $(cat side)
'

test_expect_success GIT 'the order of git'"'"'s complaints' '
	git read-tree $(cat main) &&
	t=$(cat side) &&
	fails_like_git 128 "fatal: Which one? -m, --reset, or --prefix?" read-tree -m --prefix=/x/ $t &&
	fails_like_git 128 "fatal: Invalid prefix, prefix cannot start with '"'"'/'"'"'" read-tree --prefix=/x/ $t $t &&
	fails_like_git 128 "fatal: Not a valid object name nosuch" read-tree --empty -u nosuch &&
	fails_like_git 128 "fatal: passing trees as arguments contradicts --empty" read-tree --empty -u $t &&
	fails_like_git 128 "warning: read-tree: emptying the index with no arguments is deprecated; use --empty" read-tree -u -i &&
	fails_like_git 128 "fatal: -u and -i at the same time makes no sense" read-tree -m -u -i &&
	fails_like_git 128 "fatal: -u is meaningless without -m, --reset, or --prefix" read-tree -u $t &&
	fails_like_git 128 "fatal: -i is meaningless without -m, --reset, or --prefix" read-tree --empty -i &&
	fails_like_git 128 "fatal: you must specify at least one tree to merge" read-tree -m -u &&
	fails_like_git 128 "fatal: you must specify at least one tree to merge" read-tree --prefix=x/ &&
	fails_like_git 128 "fatal: --exclude-per-directory is meaningless unless -u" read-tree --exclude-per-directory=.gitignore -u -m $t &&
	fails_like_git 128 "fatal: --exclude-per-directory argument must be .gitignore" read-tree -m -u --exclude-per-directory=foo $t &&
	fails_like_git 128 "fatal: bad recurse-submodules argument: checkout" read-tree --recurse-submodules=checkout $t
'

test_expect_success GIT 'an unmerged index: -m and --prefix refuse it before looking at the trees' '
	git read-tree $(cat main) &&
	printf "100644 %s 1\tzz\n" $(git rev-parse :a) | git update-index --index-info &&
	fails_like_git 128 "fatal: You need to resolve your current index first" read-tree -m nosuch &&
	fails_like_git 128 "fatal: You need to resolve your current index first" read-tree --prefix=q/ $(cat side) &&
	interop_run read-tree --reset $(cat side) &&
	same_result
'

test_expect_success GIT 'options accepted as git does: -v, -q, --no-sparse-checkout, --no-recurse-submodules' '
	git read-tree $(cat main) &&
	for o in -v --verbose -q --no-sparse-checkout --sparse-checkout \
		--no-recurse-submodules --recurse-submodules=no --no-debug-unpack \
		--no-trivial --no-aggressive
	do
		interop_run read-tree $o $(cat side) &&
		same_result || return 1
	done
'

test_expect_success GIT 'merges of several trees, --trivial and --aggressive of one: as git' '
	git read-tree $(cat main) &&
	t=$(cat side) &&
	for args in "-m -i $t $t" "-m -i $t $t $t" "--reset $t $t" \
		"--trivial $t" "--aggressive $t" "-m --trivial --aggressive $t"
	do
		interop_run read-tree $args &&
		same_result || return 1
	done
'

test_expect_success GIT 'what dirc lacks: refused, 128, index untouched' '
	git read-tree $(cat main) &&
	t=$(cat side) &&
	refused "read-tree: a --prefix read of 2 trees is a merge, which dirc does not support" --prefix=q/ $t $t &&
	refused "--debug-unpack is not supported by dirc" --debug-unpack $t &&
	refused "--recurse-submodules is not supported by dirc" --recurse-submodules $t
'

test_expect_success GIT 'sparse checkout with patterns and -u: applied as git applies them (t3130 has the rest)' '
	test_when_finished "git config --unset core.sparseCheckout; rm -f .git/info/sparse-checkout" &&
	git read-tree $(cat main) &&
	git checkout-index -f -a &&
	git update-index -q --refresh &&
	git config core.sparseCheckout true &&
	mkdir -p .git/info &&
	echo "/a" >.git/info/sparse-checkout &&
	dirc read-tree -m -u $(cat main) &&
	git ls-files -t >actual &&
	git read-tree $(cat main) &&
	git checkout-index -f -a &&
	git update-index -q --refresh &&
	git read-tree -m -u $(cat main) &&
	git ls-files -t >expect &&
	test_cmp expect actual &&
	grep "^S " actual &&
	dirc read-tree -m -u --no-sparse-checkout $(cat main) &&
	dirc read-tree -m $(cat main)
'

test_done
