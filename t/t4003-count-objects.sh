#!/bin/sh
test_description='count-objects: git'\''s numbers, lines and warnings

"dirc count-objects" with no option, -v, -H and -vH must print what git
2.39 prints, on stdout and on stderr, in: an empty repository, one with
loose objects only (one of them over a MiB, for -H), packed only, both
(prune-packable), with garbage in the object directory (a tmp_obj_ file
in a fan-out directory, stray files in objects/pack, an .idx without its
.pack, a .keep without either), and with alternates.'
. ./test-lib.sh

if ! test_have_prereq GIT
then
	skip_all='git not found in PATH: git is the oracle here'
	test_done
fi

# same_count DIR [OPTION...]: "count-objects" with no option, -v, -H and
# -vH (or with the OPTIONs given, each alone) prints the same stdout and
# stderr with dirc as with git in DIR; both exit 0.
same_count () {
	sc_dir=$1 &&
	shift &&
	if test $# = 0
	then
		set -- "" -v -H -vH
	fi &&
	for sc_opt
	do
		git -C "$sc_dir" count-objects $sc_opt >expect 2>expect.err &&
		dirc -C "$sc_dir" count-objects $sc_opt >actual 2>actual.err &&
		test_cmp expect actual &&
		test_cmp expect.err actual.err || return 1
	done
}

# same_count_stdout DIR OPTION: as same_count, stdout only.
same_count_stdout () {
	git -C "$1" count-objects $2 >expect 2>/dev/null &&
	dirc -C "$1" count-objects $2 >actual 2>/dev/null &&
	test_cmp expect actual
}

# warnings_of FILE: the lines of FILE with each path cut to what follows
# ".git/objects/", so that how a path is spelt does not count (the order
# of the lines does).
warnings_of () {
	sed -e "s|^\(warning: [^:]*: \).*\.git/objects/|\1|" "$1"
}

# random_bytes N: N bytes that do not compress, the same every time.
random_bytes () {
	awk -v n="$1" 'BEGIN {
		x = 1
		for (i = 0; i < n; i++) {
			x = (x * 22695477 + 1) % 16777216
			printf "%c", int(x / 65536)
		}
	}'
}

test_expect_success 'setup: repositories empty, loose, packed, and both' '
	git init -q empty &&
	git init -q loose &&
	random_bytes 1500000 >loose/big &&
	test_seq 1 1000 >loose/numbers &&
	echo small >loose/small &&
	git -C loose add . &&
	test_tick &&
	git -C loose commit -q -m loose &&
	git -C loose count-objects >out &&
	test_grep "^5 objects" out &&
	cp -R loose packed &&
	git -C packed gc -q &&
	git -C packed count-objects -v >out &&
	test_grep "^count: 0" out &&
	cp -R loose both &&
	git -C both repack -q -a &&
	echo more >both/more &&
	git -C both add more &&
	test_tick &&
	git -C both commit -q -m more &&
	git -C both count-objects -v >out &&
	test_grep "^prune-packable: 5" out &&
	test_grep "^count: 8" out
'

test_expect_success 'the empty repository dirc init made: as git' '
	same_count .
'

test_expect_success 'an empty repository made by git: as git' '
	same_count empty
'

test_expect_success 'loose objects only (one over a MiB): as git' '
	same_count loose
'

test_expect_success 'packed objects only: as git' '
	same_count packed
'

test_expect_success 'loose and packed, some both (prune-packable): as git' '
	same_count both
'

test_expect_success 'a second pack and a .keep beside it: as git' '
	cp -R both twopacks &&
	git -C twopacks repack -q -d &&
	ls twopacks/.git/objects/pack/*.idx >packs &&
	test_line_count = 2 packs &&
	keep=$(head -n 1 packs) &&
	: >"${keep%.idx}.keep" &&
	same_count twopacks
'

test_expect_success 'setup: garbage in the object directory' '
	cp -R both garbage &&
	mkdir -p garbage/.git/objects/00 &&
	echo partial >garbage/.git/objects/00/tmp_obj_AbC123 &&
	echo stray >garbage/.git/objects/pack/stray &&
	cp both/.git/objects/pack/pack-*.idx \
		garbage/.git/objects/pack/pack-$(test_oid_fake 0123456789).idx &&
	git -C garbage count-objects -v >out 2>err &&
	test_grep "^garbage: 3" out
'

test_expect_success 'garbage: the counts and sizes of git' '
	same_count_stdout garbage -v &&
	same_count_stdout garbage -vH &&
	same_count_stdout garbage "" &&
	same_count_stdout garbage -H
'

test_expect_success 'garbage: the same warnings as git, in the same order' '
	git -C garbage count-objects -v >/dev/null 2>expect.err &&
	dirc -C garbage count-objects -v >/dev/null 2>actual.err &&
	warnings_of expect.err >expect &&
	warnings_of actual.err >actual &&
	test_cmp expect actual
'

# The order of the warnings aside (sorted), in the next two tests.
test_expect_success 'garbage: warnings spell the paths as git does (.git/objects/...)' '
	for opt in "" -v -H -vH
	do
		git -C garbage count-objects $opt >expect 2>expect.err &&
		dirc -C garbage count-objects $opt >actual 2>actual.err &&
		test_cmp expect actual &&
		sort expect.err >expect &&
		sort actual.err >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'garbage: with GIT_DIR absolute, warnings name absolute paths' '
	GIT_DIR="$TRASH_DIRECTORY/garbage/.git" git count-objects -v \
		>expect 2>expect.err &&
	GIT_DIR="$TRASH_DIRECTORY/garbage/.git" dirc count-objects -v \
		>actual 2>actual.err &&
	test_cmp expect actual &&
	sort expect.err >expect &&
	sort actual.err >actual &&
	test_cmp expect actual
'

test_expect_success 'garbage: warnings of git'\''s order when a loose object comes first' '
	cp -R garbage order &&
	mkdir -p order/.git/objects/ff &&
	mv order/.git/objects/00/tmp_obj_AbC123 order/.git/objects/ff/ &&
	git -C order count-objects -v >/dev/null 2>expect.err &&
	dirc -C order count-objects -v >/dev/null 2>actual.err &&
	warnings_of expect.err >expect &&
	warnings_of actual.err >actual &&
	test_cmp expect actual
'

test_expect_success 'garbage: paths spelt as git does from a subdirectory, the git directory, deeper in it' '
	mkdir -p garbage/sub/deep garbage/.git/refs/x &&
	for dir in sub sub/deep .git .git/refs/x .git/objects
	do
		(cd garbage/$dir && git count-objects -v) >expect 2>expect.err &&
		(cd garbage/$dir && dirc count-objects -v) >actual 2>actual.err &&
		test_cmp expect actual &&
		sort expect.err >expect &&
		sort actual.err >actual &&
		test_cmp expect actual || return 1
	done &&
	(cd garbage/.git && dirc count-objects -v) 2>err &&
	test_grep "^warning: garbage found: \./objects/pack/stray$" err
'

# git 2.39 and 2.55 alike (git'"'"'s t5304): a .pack beside an .idx too
# small to be one is an error when -v opens it, in git'"'"'s words; git
# repeats it for every loose object it looks up, dirc says it once.
test_expect_success 'a pack whose .idx is too small: git'"'"'s error with -v, nothing without' '
	cp -R both badidx &&
	: >badidx/.git/objects/pack/fake.pack &&
	: >badidx/.git/objects/pack/fake.idx &&
	: >badidx/.git/objects/pack/foo.bar &&
	for opt in "" -H
	do
		git -C badidx count-objects $opt >expect 2>expect.err &&
		dirc -C badidx count-objects $opt >actual 2>actual.err &&
		test_cmp expect actual &&
		test_must_be_empty actual.err || return 1
	done &&
	for opt in -v -vH
	do
		git -C badidx count-objects $opt >expect 2>expect.err &&
		dirc -C badidx count-objects $opt >actual 2>actual.err &&
		test_cmp expect actual &&
		uniq expect.err >expect &&
		test_cmp expect actual.err || return 1
	done &&
	test_grep "^error: index file \.git/objects/pack/fake\.idx is too small$" actual.err &&
	test_grep -v "^warning: .*fake\.idx" actual.err
'

test_expect_success 'a pack whose .idx is broken otherwise: an error naming it with -v' '
	cp -R both badidx2 &&
	idx=$(ls both/.git/objects/pack/pack-*.idx) &&
	: >badidx2/.git/objects/pack/fake.pack &&
	cp "$idx" badidx2/.git/objects/pack/fake.idx &&
	chmod u+w badidx2/.git/objects/pack/fake.idx &&
	# the first fan-out entry over the last: not monotonic
	printf "\377\377\377\377" |
	dd of=badidx2/.git/objects/pack/fake.idx bs=1 seek=8 conv=notrunc 2>/dev/null &&
	same_count_stdout badidx2 -v &&
	dirc -C badidx2 count-objects -v >/dev/null 2>err &&
	test_grep "^error: .*fake\.idx" err &&
	test_grep -v "^warning:" err &&
	dirc -C badidx2 count-objects 2>err &&
	test_must_be_empty err
'

test_expect_success 'a .keep whose pack and .idx are gone is garbage, as git says' '
	cp -R packed orphan &&
	: >orphan/.git/objects/pack/pack-$(test_oid_fake 1).keep &&
	same_count_stdout orphan -v &&
	git -C orphan count-objects -v >/dev/null 2>expect.err &&
	dirc -C orphan count-objects -v >/dev/null 2>actual.err &&
	warnings_of expect.err >expect &&
	warnings_of actual.err >actual &&
	test_cmp expect actual
'

test_expect_success 'an .idx without its .pack takes its .keep along, as git says' '
	cp -R packed orphan2 &&
	idx=$(ls packed/.git/objects/pack/pack-*.idx) &&
	name=pack-$(test_oid_fake 2) &&
	cp "$idx" orphan2/.git/objects/pack/$name.idx &&
	: >orphan2/.git/objects/pack/$name.keep &&
	same_count_stdout orphan2 -v &&
	git -C orphan2 count-objects -v >/dev/null 2>expect.err &&
	dirc -C orphan2 count-objects -v >/dev/null 2>actual.err &&
	warnings_of expect.err >expect &&
	warnings_of actual.err >actual &&
	test_cmp expect actual
'

test_expect_success 'a one-byte garbage file: "1 byte" with -vH, as git' '
	cp -R packed onebyte &&
	printf x >onebyte/.git/objects/pack/stray &&
	same_count_stdout onebyte -vH
'

test_expect_success 'with an alternate (absolute path): the "alternate:" line of git' '
	git init -q borrow &&
	echo "$TRASH_DIRECTORY/packed/.git/objects" \
		>borrow/.git/objects/info/alternates &&
	echo mine >borrow/mine &&
	git -C borrow hash-object -w mine >/dev/null &&
	same_count borrow
'

test_expect_success 'with alternates by relative path and in a chain: as git' '
	git init -q borrow2 &&
	printf "%s\n" "../../../loose/.git/objects" \
		"$TRASH_DIRECTORY/borrow/.git/objects" \
		>borrow2/.git/objects/info/alternates &&
	same_count borrow2
'

test_expect_success 'loose objects an alternate has packed count as prune-packable, as git' '
	git init -q lender &&
	echo "$TRASH_DIRECTORY/packed/.git/objects" \
		>lender/.git/objects/info/alternates &&
	git init -q scratch &&
	id=$(git -C packed rev-parse HEAD:small) &&
	git -C packed cat-file blob $id >small &&
	git -C scratch hash-object -w ../small >/dev/null &&
	file=$(echo $id | cut -c 1-2)/$(echo $id | cut -c 3-) &&
	mkdir lender/.git/objects/$(echo $id | cut -c 1-2) &&
	cp scratch/.git/objects/$file lender/.git/objects/$file &&
	same_count lender
'

test_expect_success 'GIT_ALTERNATE_OBJECT_DIRECTORIES shows as an alternate too' '
	GIT_ALTERNATE_OBJECT_DIRECTORIES="$TRASH_DIRECTORY/loose/.git/objects" \
		git -C empty count-objects -v >expect 2>expect.err &&
	GIT_ALTERNATE_OBJECT_DIRECTORIES="$TRASH_DIRECTORY/loose/.git/objects" \
		dirc -C empty count-objects -v >actual 2>actual.err &&
	test_cmp expect actual &&
	test_cmp expect.err actual.err
'

test_expect_success 'count-objects takes no arguments: usage, 129' '
	test_expect_code 129 dirc count-objects extra >out 2>err &&
	test_grep "usage: dirc count-objects" err &&
	test_expect_code 129 git count-objects extra >/dev/null 2>&1
'

test_done
