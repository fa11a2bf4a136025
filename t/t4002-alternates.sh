#!/bin/sh
test_description='alternates: objects borrowed from other object directories

A repository "borrow" lists the objects of "base" (some packed, some
loose) in .git/objects/info/alternates.  dirc must read borrowed objects
as its own (cat-file, read-tree, checkout-index, write-tree), write
nothing locally for content an alternate already holds, and follow
relative paths, comment lines, a chain of two alternates, a loop of
them, and GIT_ALTERNATE_OBJECT_DIRECTORIES, as git does.  A missing
alternate is an error message, not the end of the command.'
. ./test-lib.sh

if ! test_have_prereq GIT
then
	skip_all='git not found in PATH: the repositories are made by git'
	test_done
fi

# loose_objects DIR: the loose object files of the repository DIR.
loose_objects () {
	find "$1/.git/objects" -type f -path "*/objects/[0-9a-f][0-9a-f]/*" |
	sort
}

# local_objects DIR: what DIR stores itself, loose and packed.
local_objects () {
	find "$1/.git/objects" -type f ! -path "*/info/*" | sort
}

# same_cat_file DIR ARGS...: "cat-file ARGS" prints the same with dirc
# as with git in DIR, both exit 0, dirc says nothing on stderr.
same_cat_file () {
	scf_dir=$1 &&
	shift &&
	git -C "$scf_dir" cat-file "$@" >expect &&
	dirc -C "$scf_dir" cat-file "$@" >actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err
}

test_expect_success 'setup: "base", half packed, and "borrow" using its objects' '
	git init -q base &&
	mkdir base/d &&
	echo a >base/a &&
	echo b >base/d/b &&
	echo "#!/bin/sh" >base/exe &&
	chmod +x base/exe &&
	git -C base add . &&
	test_tick &&
	git -C base commit -q -m one &&
	git -C base tag -a -m "tag one" v1 &&
	git -C base gc -q &&
	echo c >base/c &&
	echo b2 >base/d/b &&
	git -C base add . &&
	test_tick &&
	git -C base commit -q -m two &&
	loose_objects base >loose &&
	test_line_count = 5 loose &&
	ls base/.git/objects/pack/*.pack >packs &&
	test_line_count = 1 packs &&
	git init -q borrow &&
	echo "$TRASH_DIRECTORY/base/.git/objects" \
		>borrow/.git/objects/info/alternates &&
	git -C borrow update-ref refs/heads/master $(git -C base rev-parse HEAD) &&
	git -C borrow read-tree -u --reset HEAD &&
	echo local >borrow/local &&
	git -C borrow add local &&
	test_tick &&
	git -C borrow commit -q -m three &&
	local_objects borrow >local &&
	test_line_count = 3 local &&
	git -C borrow fsck --no-progress >/dev/null &&
	test_fsck_also borrow
'

test_expect_success 'cat-file -t, -s, -p of borrowed objects, loose and packed' '
	tag=$(git -C base rev-parse v1) &&
	for id in $tag $(git -C borrow rev-parse HEAD HEAD~1 HEAD~2 \
		HEAD~2^{tree} HEAD~2:d HEAD~2:a HEAD~1:c HEAD~1:d/b HEAD:local)
	do
		same_cat_file borrow -t $id &&
		same_cat_file borrow -s $id &&
		same_cat_file borrow -p $id &&
		dirc -C borrow cat-file -e $id || return 1
	done
'

test_expect_success 'cat-file --batch-all-objects lists the borrowed objects, as git' '
	same_cat_file borrow --batch-all-objects --batch &&
	same_cat_file borrow --batch-all-objects --batch-check
'

test_expect_success 'rev-parse and abbreviated ids reach into the alternate' '
	id=$(git -C base rev-parse HEAD~1:a) &&
	abbrev=$(echo $id | cut -c 1-7) &&
	echo $id >expect &&
	dirc -C borrow rev-parse --verify $abbrev >actual &&
	test_cmp expect actual &&
	dirc -C borrow rev-parse HEAD~1 >actual &&
	git -C borrow rev-parse HEAD~1 >expect &&
	test_cmp expect actual
'

test_expect_success 'read-tree of borrowed commits, write-tree: same trees, nothing written' '
	local_objects borrow >before &&
	git -C borrow log --format="%H %T" >commits &&
	test_line_count = 3 commits &&
	while read commit tree
	do
		dirc -C borrow read-tree $commit &&
		dirc -C borrow write-tree >actual &&
		echo $tree >expect &&
		test_cmp expect actual || return 1
	done <commits &&
	local_objects borrow >after &&
	test_cmp before after
'

test_expect_success 'read-tree HEAD and checkout-index -a rebuild the work tree' '
	mkdir expect.wt &&
	cp -R borrow/a borrow/c borrow/d borrow/exe borrow/local expect.wt/ &&
	rm -rf borrow/a borrow/c borrow/d borrow/exe borrow/local &&
	dirc -C borrow read-tree HEAD &&
	dirc -C borrow checkout-index -a &&
	diff -r -x .git expect.wt borrow &&
	test -x borrow/exe &&
	git -C borrow status --porcelain >status &&
	test_must_be_empty status
'

test_expect_success 'hash-object -w of borrowed content (loose and packed) writes nothing' '
	local_objects borrow >before &&
	dirc -C borrow hash-object -w a c d/b >actual &&
	git -C borrow rev-parse HEAD:a HEAD:c HEAD:d/b >expect &&
	test_cmp expect actual &&
	echo b >old-b &&
	dirc -C borrow hash-object -w ../old-b >actual &&
	git -C base rev-parse HEAD~1:d/b >expect &&
	test_cmp expect actual &&
	local_objects borrow >after &&
	test_cmp before after
'

test_expect_success 'update-cache --add and write-tree of borrowed content write nothing' '
	local_objects borrow >before &&
	rm borrow/.git/index &&
	(
		cd borrow &&
		dirc update-cache --add a c d/b exe
	) &&
	dirc -C borrow write-tree >actual &&
	git -C base rev-parse HEAD^{tree} >expect &&
	test_cmp expect actual &&
	local_objects borrow >after &&
	test_cmp before after &&
	git -C borrow read-tree HEAD
'

test_expect_success 'what dirc writes beside borrowed objects passes git fsck' '
	echo new >borrow/new &&
	(
		cd borrow &&
		dirc update-cache --add new
	) &&
	tree=$(dirc -C borrow write-tree) &&
	git -C borrow ls-tree $tree >entries &&
	test_grep "	new\$" entries &&
	test_grep "	exe\$" entries &&
	git -C borrow fsck --no-progress >/dev/null
'

test_expect_success 'a relative path, a comment line and a blank line in alternates' '
	git init -q rel &&
	printf "%s\n" "# borrowed from base" "" "../../../base/.git/objects" \
		>rel/.git/objects/info/alternates &&
	id=$(git -C base rev-parse HEAD) &&
	same_cat_file rel -p $id &&
	same_cat_file rel --batch-all-objects --batch-check &&
	test_fsck_also rel
'

test_expect_success 'a C-quoted path in alternates' '
	git init -q quoted &&
	printf "\"%s\"\n" "$TRASH_DIRECTORY/base/.git/objects" \
		>quoted/.git/objects/info/alternates &&
	same_cat_file quoted -p $(git -C base rev-parse HEAD) &&
	same_cat_file quoted --batch-all-objects --batch-check &&
	test_fsck_also quoted
'

test_expect_success 'the same alternate twice, and the repository itself: each object once' '
	git init -q twice &&
	mine=$(echo mine | git -C twice hash-object -w --stdin) &&
	printf "%s\n" "$TRASH_DIRECTORY/base/.git/objects" \
		"$TRASH_DIRECTORY/twice/.git/objects" \
		"$TRASH_DIRECTORY/base/.git/objects/" \
		>twice/.git/objects/info/alternates &&
	same_cat_file twice --batch-all-objects --batch-check &&
	same_cat_file twice -p $mine
'

test_expect_success 'sizes on disk and delta bases of borrowed objects, as git' '
	same_cat_file borrow --batch-all-objects \
		--batch-check="%(objectname) %(objectsize:disk) %(deltabase)"
'

test_expect_success 'a chain of two alternates: chain -> borrow -> base' '
	git init -q chain &&
	echo "$TRASH_DIRECTORY/borrow/.git/objects" \
		>chain/.git/objects/info/alternates &&
	same_cat_file chain -p $(git -C base rev-parse HEAD~1:a) &&
	same_cat_file chain -p $(git -C borrow rev-parse HEAD:local) &&
	same_cat_file chain --batch-all-objects --batch-check &&
	git -C chain update-ref refs/heads/master $(git -C borrow rev-parse HEAD) &&
	dirc -C chain read-tree HEAD &&
	dirc -C chain write-tree >actual &&
	git -C borrow rev-parse HEAD^{tree} >expect &&
	test_cmp expect actual &&
	test_fsck_also chain
'

test_expect_success 'alternates naming each other: no hang, both stores read' '
	git init -q loop1 &&
	git init -q loop2 &&
	one=$(echo one | git -C loop1 hash-object -w --stdin) &&
	two=$(echo two | git -C loop2 hash-object -w --stdin) &&
	echo "$TRASH_DIRECTORY/loop2/.git/objects" >loop1/.git/objects/info/alternates &&
	echo "$TRASH_DIRECTORY/loop1/.git/objects" >loop2/.git/objects/info/alternates &&
	timeout 20 dirc -C loop1 cat-file -p $two >actual &&
	echo two >expect &&
	test_cmp expect actual &&
	timeout 20 dirc -C loop2 cat-file -p $one >actual &&
	echo one >expect &&
	test_cmp expect actual &&
	git -C loop1 cat-file --batch-all-objects --batch-check >expect &&
	timeout 20 dirc -C loop1 cat-file --batch-all-objects --batch-check >actual &&
	test_cmp expect actual
'

test_expect_success 'GIT_ALTERNATE_OBJECT_DIRECTORIES: a list of borrowed stores' '
	git init -q env &&
	id=$(git -C base rev-parse HEAD~1:a) &&
	one=$(echo one | git -C loop1 hash-object --stdin) &&
	test_must_fail dirc -C env cat-file -p $id 2>err &&
	dirs="$TRASH_DIRECTORY/loop1/.git/objects:$TRASH_DIRECTORY/base/.git/objects" &&
	GIT_ALTERNATE_OBJECT_DIRECTORIES=$dirs dirc -C env cat-file -p $id >actual &&
	echo a >expect &&
	test_cmp expect actual &&
	GIT_ALTERNATE_OBJECT_DIRECTORIES=$dirs dirc -C env cat-file -p $one >actual &&
	echo one >expect &&
	test_cmp expect actual &&
	GIT_ALTERNATE_OBJECT_DIRECTORIES=$dirs \
		git -C env cat-file --batch-all-objects --batch-check >expect &&
	GIT_ALTERNATE_OBJECT_DIRECTORIES=$dirs \
		dirc -C env cat-file --batch-all-objects --batch-check >actual &&
	test_cmp expect actual
'

test_expect_success 'GIT_ALTERNATE_OBJECT_DIRECTORIES: a relative path is taken from the current directory' '
	(
		cd env &&
		GIT_ALTERNATE_OBJECT_DIRECTORIES=../base/.git/objects \
			dirc cat-file -p $id >../actual
	) &&
	echo a >expect &&
	test_cmp expect actual
'

test_expect_success 'GIT_ALTERNATE_OBJECT_DIRECTORIES: hash-object -w writes nothing borrowed' '
	echo a >a-again &&
	GIT_ALTERNATE_OBJECT_DIRECTORIES="$TRASH_DIRECTORY/base/.git/objects" \
		dirc -C env hash-object -w ../a-again >actual &&
	git -C base rev-parse HEAD:a >expect &&
	test_cmp expect actual &&
	local_objects env >after &&
	test_must_be_empty after
'

test_expect_success 'a missing alternate: an error naming it, the others still read' '
	git init -q gone &&
	printf "%s\n" "$TRASH_DIRECTORY/nowhere/objects" \
		"$TRASH_DIRECTORY/base/.git/objects" \
		>gone/.git/objects/info/alternates &&
	mine=$(echo mine | git -C gone hash-object -w --stdin) &&
	id=$(git -C base rev-parse HEAD~1:a) &&
	dirc -C gone cat-file -p $id >actual 2>err &&
	echo a >expect &&
	test_cmp expect actual &&
	test_grep "^error: .*nowhere/objects" err &&
	dirc -C gone cat-file -p $mine >actual 2>err &&
	echo mine >expect &&
	test_cmp expect actual &&
	test_grep "^error: .*nowhere/objects" err
'

test_expect_success 'an object only a missing alternate could hold: not found, 128' '
	echo "$TRASH_DIRECTORY/nowhere/objects" >gone/.git/objects/info/alternates &&
	test_expect_code 128 dirc -C gone cat-file -p $id >out 2>err &&
	test_must_be_empty out &&
	test_grep "^error: .*nowhere/objects" err &&
	test_grep "^fatal: " err
'

test_done
