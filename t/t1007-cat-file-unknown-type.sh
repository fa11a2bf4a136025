#!/bin/sh
test_description='objects of unknown types: test-tool hash-literally writes them, cat-file answers as git

hash-object --literally took a type of any length before git 2.50 (git
hashes a type of 1500 characters; dirc aborted); now dirc test-tool
hash-literally does, compared with the installed git'"'"'s --literally.  cat-file -t/-s --allow-unknown-type read
such types back whole; without it, a header that fits git'"'"'s 32 bytes is
"invalid object type" and a longer one "header for <id> too long" with
the mode'"'"'s own fatal line.  Everything is compared with git.  The
objects live in a repository of their own ("lit"), not fsck-ed.'
. ./test-lib.sh
INTEROP_STATE=none
. "$TEST_DIRECTORY"/lib-interop.sh

cf_same () {
	interop_run -C lit cat-file "$@" &&
	same_result
}

long_type () {
	lt_t=12345678901234567890123456789012345678901234567890 &&
	echo "$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t$lt_t"
}

test_expect_success GIT 'setup' '
	git init -q lit &&
	t1500=$(long_type) &&
	test ${#t1500} = 1500 &&
	echo example >example
'

test_expect_success GIT 'hash-literally -t <1500 characters>: the id git computes (git 2.39 t1007 #39)' '
	dirc test-tool hash-literally -t $t1500 --stdin <example >actual &&
	git hash-object -t $t1500 --literally --stdin <example >expect &&
	test_cmp expect actual &&
	dirc test-tool hash-literally -t $t1500 example >actual &&
	test_cmp expect actual &&
	echo example >list &&
	echo list >paths &&
	dirc test-tool hash-literally -t $t1500 --stdin-paths <paths >actual &&
	git hash-object -t $t1500 --literally list >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'hash-literally -w of long and odd types: git reads back what dirc wrote' '
	for t in "$t1500" "$t1500$t1500$t1500$t1500$t1500$t1500$t1500" \
		bogus "a b" "" abcdefghijklmnopqrstuvwxyz1234679 x
	do
		id=$(dirc -C lit test-tool hash-literally -t "$t" -w --stdin <example) &&
		test "$id" = "$(git hash-object -t "$t" --literally --stdin <example)" &&
		if test "$t" = "a b"
		then
			! git -C lit cat-file -s --allow-unknown-type $id 2>err &&
			test_grep "unable to parse" err
		else
			git -C lit cat-file -s --allow-unknown-type $id >size &&
			echo 8 >expect &&
			test_cmp expect size
		fi || return 1
	done
'

test_expect_success GIT 'a big file as a long-typed object: the id git computes' '
	perl -e "print \"x\" x (3 * 1024 * 1024)" >big &&
	dirc test-tool hash-literally -t $t1500 big >actual &&
	git hash-object -t $t1500 --literally big >expect &&
	test_cmp expect actual &&
	dirc -C lit test-tool hash-literally -t $t1500 -w ../big >actual &&
	test_cmp expect actual &&
	git -C lit cat-file -s --allow-unknown-type $(cat actual) >size &&
	echo $((3 * 1024 * 1024)) >expect &&
	test_cmp expect size
'

test_expect_success GIT 'setup: objects of short, 32-byte, 33-byte and long unknown types' '
	short=$(printf bogus | git -C lit hash-object -t bogus --literally -w --stdin) &&
	t29=$(printf "%029d" 0 | tr 0 x) &&
	t30=$(printf "%030d" 0 | tr 0 x) &&
	fits=$(printf bogus | git -C lit hash-object -t $t29 --literally -w --stdin) &&
	over=$(printf bogus | git -C lit hash-object -t $t30 --literally -w --stdin) &&
	long=$(printf bogus | git -C lit hash-object -t abcdefghijklmnopqrstuvwxyz1234679 --literally -w --stdin) &&
	huge=$(printf bogus | dirc -C lit test-tool hash-literally -t $t1500 -w --stdin)
'

test_expect_success GIT '-t and -s: "invalid object type" or "header ... too long", as git (git t1006 #177-#186)' '
	for id in $short $fits $over $long $huge
	do
		for m in -t -s -p
		do
			cf_same $m $id || return 1
		done &&
		cf_same bogus $id || return 1
	done &&
	for id in $short $fits
	do
		cf_same blob $id || return 1
	done &&
	for id in $over $long $huge
	do
		# git then names the loose file by a path of its own: the
		# same code and first line, and a fatal line
		interop_run -C lit cat-file blob $id &&
		test_cmp_codes git.code dirc.code &&
		test_cmp git.out dirc.out &&
		head -n 1 git.err >expect &&
		head -n 1 dirc.err >actual &&
		test_cmp expect actual &&
		tail -n 1 dirc.err >actual &&
		test_grep "^fatal: " actual || return 1
	done &&
	cf_same -t $short &&
	echo "fatal: invalid object type" >expect &&
	test_cmp expect dirc.err &&
	cf_same -p $long &&
	cat >expect <<-EOF &&
	error: header for $long too long, exceeds 32 bytes
	fatal: Not a valid object name $long
	EOF
	test_cmp expect dirc.err
'

test_expect_success GIT '--allow-unknown-type: the whole type and the size, as git' '
	for id in $short $fits $over $long $huge
	do
		cf_same -t --allow-unknown-type $id &&
		cf_same -s --allow-unknown-type $id || return 1
	done &&
	cf_same -t --allow-unknown-type $huge &&
	echo $t1500 >expect &&
	test_cmp expect dirc.out
'

test_expect_success GIT '-e finds them; -p and -e refuse --allow-unknown-type, as git' '
	for id in $short $long $huge
	do
		cf_same -e $id &&
		cf_same -p --allow-unknown-type $id &&
		cf_same -e --allow-unknown-type $id || return 1
	done &&
	echo 128 >expect &&
	test_cmp expect dirc.code
'

test_expect_success GIT 'in a batch: a long header is "missing", a short unknown type is fatal, as git' '
	printf "%s\n" $over $long $huge >long-in &&
	interop_run -C lit -i long-in cat-file --batch-check &&
	same_result &&
	test_line_count = 3 dirc.out &&
	printf "%s\n" $fits >fits-in &&
	interop_run -C lit -i fits-in cat-file --batch &&
	same_result &&
	interop_run -C lit -i fits-in cat-file --batch-check --allow-unknown-type &&
	same_result
'

test_done
