#!/bin/sh
test_description='git-lfs: the real filter, through lib/filter

In a repository set up by "git lfs install --local" with
"*.bin filter=lfs diff=lfs merge=lfs -text", lib/filter sends files
through "git lfs filter-process" as git does: the pointer blobs are
git'\''s, the smudge gives the content back.  And through the commands:
update-cache --add stores git'\''s pointers (the same index as git
update-index --add, "git status" clean after dirc staged),
checkout-index writes the real content back.  Skipped where git-lfs is
missing (the Debian package git-lfs; .ci/run installs it).'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-filter.sh

if ! test_have_prereq GIT_LFS
then
	skip_all='git-lfs is missing (Debian package git-lfs): skipping the git-lfs tests'
	test_done
fi

test_expect_success 'setup' '
	git init -q . &&
	git lfs install --local >/dev/null &&
	git config filter.lfs.process >process &&
	test_file_not_empty process &&
	echo "*.bin filter=lfs diff=lfs merge=lfs -text" >.gitattributes &&
	mkdir d &&
	awk "BEGIN { for (i = 0; i < 40000; i++) print \"lfs line\", i }" >big.bin &&
	printf "small\n" >d/s.bin &&
	: >empty.bin
'

test_expect_success 'clean: git'\''s pointer blobs' '
	for f in big.bin d/s.bin empty.bin
	do
		git_clean $f >expect.$(echo $f | tr / _) || return 1
	done &&
	rm -rf .git/lfs/objects &&
	tt_filter clean lfs big.bin d/s.bin empty.bin &&
	echo 0 >expect.code &&
	test_cmp expect.code dirc.code &&
	test_must_be_empty dirc.err &&
	for f in big.bin d/s.bin empty.bin
	do
		test_cmp expect.$(echo $f | tr / _) $f.out || return 1
	done &&
	grep "^version https://git-lfs.github.com/spec/v1" big.bin.out &&
	test_path_is_dir .git/lfs/objects
'

test_expect_success 'smudge: the content back from the pointer' '
	cp big.bin.out ptr-big.bin &&
	cp d/s.bin.out d/ptr-s.bin &&
	tt_filter --blob smudge lfs ptr-big.bin d/ptr-s.bin &&
	test_must_be_empty dirc.err &&
	test_cmp big.bin ptr-big.bin.out &&
	test_cmp d/s.bin d/ptr-s.bin.out
'

test_expect_success 'smudge of a pointer whose object is missing: as git' '
	printf "version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize 5\n" \
		0000000000000000000000000000000000000000000000000000000000000001 >gone.bin &&
	git_smudge gone.bin >expect &&
	tt_filter --blob smudge lfs gone.bin &&
	test_cmp git.code dirc.code
'

# twins rg (git) and rd (dirc): the same files, lfs set up in each
make_lfs_twins () {
	rm -rf rg rd &&
	for r in rg rd
	do
		git init -q $r &&
		(
			cd $r &&
			git lfs install --local >/dev/null &&
			echo "*.bin filter=lfs diff=lfs merge=lfs -text" >.gitattributes &&
			mkdir d &&
			awk "BEGIN { for (i = 0; i < 40000; i++) print \"lfs line\", i }" >big.bin &&
			printf "small\n" >d/s.bin &&
			printf "not lfs\n" >plain.txt
		) || return 1
	done
}

test_expect_success 'update-cache --add: git'\''s pointers, git'\''s index, git status clean' '
	make_lfs_twins &&
	(cd rg && git update-index --add .gitattributes big.bin d/s.bin plain.txt) &&
	(cd rd && dirc update-cache --add .gitattributes big.bin d/s.bin plain.txt 2>../err) &&
	test_must_be_empty err &&
	git -C rg ls-files -s >expect &&
	git -C rd ls-files -s >actual &&
	test_cmp expect actual &&
	git -C rd cat-file blob :big.bin >ptr &&
	grep "^oid sha256:" ptr &&
	git -C rd commit -qm lfs &&
	git -C rd status --porcelain >status &&
	test_must_be_empty status &&
	test_path_is_dir rd/.git/lfs/objects
'

test_expect_success 'hash-object: the pointer'\''s id' '
	git -C rg hash-object big.bin d/s.bin plain.txt >expect &&
	dirc -C rd hash-object big.bin d/s.bin plain.txt >actual &&
	test_cmp expect actual
'

test_expect_success 'checkout-index writes the content back through git lfs filter-process' '
	rm rd/big.bin rd/d/s.bin &&
	(cd rd && dirc checkout-index -a 2>../err) &&
	test_must_be_empty err &&
	test_cmp rg/big.bin rd/big.bin &&
	test_cmp rg/d/s.bin rd/d/s.bin &&
	git -C rd status --porcelain >status &&
	test_must_be_empty status
'

test_expect_success 'read-tree -u writes the content back too' '
	tree=$(git -C rd write-tree) &&
	rm rd/big.bin rd/d/s.bin rd/.git/index &&
	(cd rd && dirc read-tree --reset -u $tree 2>../err) &&
	test_must_be_empty err &&
	test_cmp rg/big.bin rd/big.bin &&
	git -C rd status --porcelain >status &&
	test_must_be_empty status
'

test_expect_success 'cat-file --filters: the content of a pointer blob' '
	git -C rg cat-file --filters --path=big.bin $(git -C rg rev-parse :big.bin) >expect &&
	dirc -C rd cat-file --filters --path=big.bin $(git -C rd rev-parse :big.bin) >actual &&
	test_cmp expect actual &&
	test_cmp rg/big.bin actual
'

test_done
