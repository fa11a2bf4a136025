#!/bin/sh
test_description='bad-input catalogue: the long cases (make test-long)

A file larger than 4 GiB (sparse, so it costs no disk): the index size
field keeps the low 32 bits as git'"'"'s does, the id is git'"'"'s, memory
stays bounded; and an index of a million entries built with
--index-info: the bytes of git'"'"'s index, the tree ids of git, memory
growing linearly.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-catalogue.sh

if ! test_have_prereq LONG
then
	skip_all='long tests: run with DIRC_TEST_LONG=1 (make test-long)'
	test_done
fi

test_lazy_prereq GNU_TIME '
	/usr/bin/time -f %M -o rss true && test -s rss
'

# max_rss_kb FILE CMD...: run CMD (stdin and stdout as given), its peak
# resident set size in KiB in FILE.
max_rss_kb () {
	mr_file=$1 &&
	shift &&
	/usr/bin/time -f %M -o "$mr_file" "$@"
}

test_expect_success GIT,GNU_TIME 'a sparse file of 4 GiB + 5 bytes: stored, size field 5 as git, id of git, memory bounded' '
	git init -q big &&
	(
		cd big &&
		truncate -s 4294967301 huge &&
		printf tail | dd of=huge bs=1 seek=4294967297 conv=notrunc 2>/dev/null &&
		touch -d @1500000000 huge &&
		max_rss_kb ../rss dirc update-cache --add huge &&
		git ls-files -s --debug >../dirc.debug &&
		id=$(dirc ls-files -s | cut -d" " -f2) &&
		dirc cat-file -s $id >../size &&
		git cat-file -s $id >../git.size &&
		git diff-files >../diff &&
		dirc ls-files -m >../modified &&
		mv .git/index ../dirc.index &&
		git update-index --add --info-only huge &&
		git ls-files -s --debug >../git.debug &&
		rm -f huge
	) &&
	test_cmp git.debug dirc.debug &&
	test_grep "^  size: 5	flags: 0$" dirc.debug &&
	echo 4294967301 >expect &&
	test_cmp expect size &&
	test_cmp expect git.size &&
	test_must_be_empty diff &&
	test_must_be_empty modified &&
	test $(cat rss) -lt 262144 &&
	rm -rf big
'

test_expect_success 'setup: --index-info input of 100,000 and of 1,000,000 entries' '
	blob=$(dirc hash-object -w /dev/null) &&
	for n in 100000 1000000
	do
		awk -v b=$blob -v n=$n "BEGIN {
			for (i = 0; i < n; i++)
				printf \"100644 %s\\td%03d/e%02d/f%07d\\n\", b, i % 1000, i % 97, i
		}" >in.$n || return 1
	done &&
	LC_ALL=C sort -t "	" -k 2,2 in.1000000 >in.sorted &&
	test_line_count = 1000000 in.sorted
'

test_expect_success GIT,GNU_TIME 'a million entries through --index-info: git'"'"'s index bytes, memory linear' '
	rm -f .git/index &&
	max_rss_kb rss.100000 dirc update-cache --index-info <in.100000 &&
	rm -f .git/index &&
	max_rss_kb rss.1000000 dirc update-cache --index-info <in.1000000 &&
	cp .git/index dirc.index &&
	GIT_INDEX_FILE=git.index git update-index --index-info <in.sorted &&
	test_cmp git.index dirc.index &&
	small=$(cat rss.100000) &&
	large=$(cat rss.1000000) &&
	echo "peak RSS: $small KiB for 100,000 entries, $large KiB for 1,000,000" &&
	test $large -lt $((small * 12)) &&
	test $(((large - small) * 1024 / 900000)) -lt 400
'

test_expect_success GIT 'a million entries: write-tree gives git'"'"'s tree, and ls-files reads it all' '
	dirc write-tree >dirc.tree &&
	GIT_INDEX_FILE=git.index git write-tree >git.tree &&
	test_cmp git.tree dirc.tree &&
	dirc ls-files >list &&
	test_line_count = 1000000 list &&
	rm -f .git/index git.index dirc.index in.* list
'

test_done
