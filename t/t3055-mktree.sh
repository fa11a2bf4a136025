#!/bin/sh
test_description='mktree: trees from ls-tree output, as git writes them

Sorting (directories as if their name ended in "/", equal names kept in
the order given), -z, --missing, --batch, quoted names, modes as strtoul
reads them and written as given, and every bad line: git'"'"'s message and
exit code, no tree written (with --batch, the trees before it are).
Lines that make trees fsck would complain about (duplicates, odd modes,
empty names) are tried in a second repository, "odd".'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh
. "$TEST_DIRECTORY"/lib-trees.sh

test_expect_success GIT 'setup: git'"'"'s t1010 trees' '
	for d in a a- a0
	do
		mkdir "$d" && echo "$d/one" >"$d/one" &&
		git add "$d" || return 1
	done &&
	echo zero >one &&
	git update-index --add --info-only one &&
	git write-tree --missing-ok >tree.missing &&
	git ls-tree $(cat tree.missing) >top.missing &&
	git ls-tree -r $(cat tree.missing) >all.missing &&
	echo one >one &&
	git add one &&
	git write-tree >tree &&
	git ls-tree $(cat tree) >top &&
	git ls-tree -r $(cat tree) >all &&
	test_tick &&
	git commit -q -m one &&
	H=$(git rev-parse HEAD) &&
	git update-index --add --cacheinfo 160000 $H sub &&
	test_tick &&
	git commit -q -m two &&
	git rev-parse HEAD^{tree} >tree.withsub &&
	git ls-tree HEAD >top.withsub &&
	git ls-tree -r HEAD >all.withsub &&
	git ls-tree -z HEAD >top.z &&
	blob=$(git rev-parse HEAD:one) &&
	echo $blob >blob &&
	git rev-parse HEAD:a >subtree &&
	git rev-parse HEAD >commit &&
	git clone -q . odd
'

test_expect_success GIT 'ls-tree output back: the same tree, in any order' '
	trees_like_git -i top mktree &&
	test_cmp tree dirc.out &&
	trees_like_git -i top.withsub mktree &&
	test_cmp tree.withsub dirc.out &&
	sort -r top >top.rev &&
	trees_like_git -i top.rev mktree &&
	test_cmp tree dirc.out &&
	sort -r top.withsub >top.withsub.rev &&
	trees_like_git -i top.withsub.rev mktree &&
	test_cmp tree.withsub dirc.out &&
	trees_like_git -i top.z mktree -z &&
	test_cmp tree.withsub dirc.out &&
	git cat-file -e $(cat dirc.out)
'

test_expect_success GIT 'missing objects: refused, or allowed with --missing' '
	trees_like_git -i top.missing mktree &&
	trees_code 128 &&
	trees_like_git -i top.missing mktree --missing &&
	test_cmp tree.missing dirc.out &&
	trees_like_git -i all mktree &&
	trees_code 128 &&
	trees_like_git -i all.withsub mktree --missing &&
	trees_code 128
'

test_expect_success GIT 'a gitlink may always be missing, but not be another object' '
	b=$(cat blob) &&
	printf "160000 commit %s\tm\n" $(test_oid_fake 1234567890) >in &&
	trees_like_git -i in mktree &&
	trees_code 0 &&
	printf "160000 commit %s\tm\n" $b >in &&
	trees_like_git -i in mktree &&
	trees_code 128 &&
	trees_like_git -i in mktree --missing &&
	trees_code 128
'

test_expect_success GIT 'bad lines: git'"'"'s message, 128, no tree written' '
	b=$(cat blob) &&
	t=$(cat subtree) &&
	c=$(cat commit) &&
	m=$(test_oid_fake 1234567890) &&
	n=0 &&
	while IFS= read -r line
	do
		printf "100644 blob %s\tok\n%s\n" $b "$line" >in &&
		trees_like_git -i in mktree &&
		trees_code 128 &&
		test_must_be_empty dirc.out &&
		n=$((n + 1)) || return 1
	done <<-EOF &&
	100644 tree $b	a
	040000 blob $t	a
	040000 tree $b	a
	100644 blob $t	a
	100644 blob $m	a
	160000 commit $b	a
	100644 blob $c	a
	100644 commit $c	a
	100644 tag $b	a
	100644 foo $b	a
	100644 blob $b	a/b
	100644 blob $b	"a/b"
	100644 blob $b a
	100644  blob $b	a
	100644 blob  $b	a
	100644 blob ${b}0	a
	100644 blob $(echo $b | cut -c1-$((OID_HEXSZ - 1)))	a
	1006448 blob $b	a
	x100644 blob $b	a
	100644
	100644 blob
	100644 blob $b
	100644 blob $b	"a
	100644 blob $b	"\400"
	100644 blob $b	"a\qb"
	100644 blob $b	"\x41"
	-
	 
	blob $b	a
	040000 tree $t	"sl/ash"
	EOF
	test $n = 30 &&
	printf "100644 blob %s\ta\n\n100644 blob %s\tb\n" $b $b >in &&
	trees_like_git -i in mktree &&
	trees_code 128 &&
	test_must_be_empty dirc.out
'

test_expect_success GIT 'names: quoted, unquoted, with -z, case and hex digits' '
	b=$(cat blob) &&
	B=$(echo $b | tr a-f A-F) &&
	for line in "100644 blob $b	\"a\\tb\"" "100644 blob $b	\"a\"xyz" \
		"100644 blob $b	\"\\101\"" "100644 blob $b	\"\\303\\251\"" \
		"100644 blob $B	a" "100644 blob $b		tab" \
		"100644 blob $b	a\"b" "100644 blob $b	 lead"
	do
		printf "%s\n" "$line" >in &&
		trees_like_git -i in mktree &&
		trees_code 0 &&
		printf "%s\0" "$line" >in &&
		trees_like_git -i in mktree -z &&
		trees_code 0 || return 1
	done
'

test_expect_success GIT '--batch: a tree per group, blank lines, the last one optional' '
	b=$(cat blob) &&
	t=$(cat subtree) &&
	for input in "" "\n" "\n\n" "A\n" "A" "A\n\nB\n" "A\n\nB" "A\n\n\nB\n\n" \
		"\nA\n" "A\nB\n\n" "A\n\nbad\nB\n" "A\n\nB\n\nbad"
	do
		printf "$input" |
		sed -e "s/A/100644 blob $b	a/" -e "s/B/040000 tree $t	d/" >in &&
		trees_like_git -i in mktree --batch &&
		trees_like_git -i in mktree &&
		tr "\n" "\0" <in >in.z &&
		trees_like_git -i in.z mktree -z --batch &&
		trees_like_git -i in.z mktree -z || return 1
	done
'

test_expect_success GIT 'options: usage, arguments ignored as git ignores them' '
	trees_like_git mktree -h &&
	trees_code 129 &&
	trees_like_git mktree --bogus &&
	trees_code 129 &&
	trees_like_git mktree --no-batch --no-missing &&
	trees_code 0 &&
	trees_like_git -i top mktree some args &&
	trees_code 0 &&
	trees_like_git mktree --missing=1 &&
	trees_code 129
'

test_expect_success GIT 'odd trees git writes: modes as given, duplicates, empty names, NUL' '
	(
		cd odd &&
		b=$(git rev-parse HEAD:one) &&
		t=$(git rev-parse HEAD:a) &&
		for input in "100664 blob $b	a" "0100644 blob $b	a" \
			"-1 blob $b	a" "  +100644 blob $b	a" "0 blob $b	a" \
			"777777777777777777777 blob $b	a" "40000 tree $t	a" \
			"140000 tree $t	a" "100644 blob $b	" "100644 blob $b	\"\"" \
			"100644 blob $b	a\r" \
			"100644 blob $b	a\n100644 blob $b	a" \
			"100755 blob $b	a\n100644 blob $b	a\n040000 tree $t	a" \
			"040000 tree $t	a-\n040000 tree $t	a\n100644 blob $b	a.\n100644 blob $b	a0" \
			"120000 blob $b	l\n160000 commit $b	s"
		do
			printf "%b\n" "$input" >in &&
			trees_like_git -i in mktree --missing || return 1
		done &&
		printf "%s\n" "100644 blob $b	\"a\\000b\"" >in &&
		trees_like_git -i in mktree &&
		trees_code 0 &&
		printf "100644 blob $b	a\0b\n" >in &&
		trees_like_git -i in mktree &&
		trees_code 0
	)
'

test_done
