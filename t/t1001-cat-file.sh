#!/bin/sh
test_description='cat-file: reads what git wrote, prints what git prints'
. ./test-lib.sh

# Run "cat-file ARGS" with dirc and with git on the same repository and
# the same stdin (file $1): stdout, stderr (hints included) and the exit
# code must all be equal.
compare_cat_file () {
	cf_in=$1 &&
	shift &&
	{ dirc cat-file "$@" <"$cf_in" >dirc.out 2>dirc.err; echo $? >dirc.code; } &&
	{ git cat-file "$@" <"$cf_in" >git.out 2>git.err; echo $? >git.code; } &&
	test_cmp git.out dirc.out &&
	test_cmp git.err dirc.err &&
	test_cmp_codes git.code dirc.code
}

test_expect_success GIT 'setup: blobs, trees, a commit and tags written by git' '
	printf "hello\n" >hello &&
	printf "a\000b\000\377\n" >nul &&
	mkdir dir &&
	echo sub >dir/sub &&
	echo tab >"ta	b" &&
	echo utf >"é" &&
	echo quote >"q\"uote" &&
	echo backslash >"back\\slash" &&
	echo "#!/bin/sh" >exe &&
	chmod +x exe &&
	git add hello nul dir/sub "ta	b" "é" "q\"uote" "back\\slash" exe &&
	link=$(printf hello | git hash-object -w --stdin) &&
	git update-index --add --cacheinfo 120000,$link,link &&
	git update-index --add --cacheinfo \
		160000,$(test_oid_fake 1234567890),submodule &&
	test_tick &&
	git commit -q -m "first commit" &&
	git tag -a -m "an annotated tag" v1 &&
	git tag -a -m "a tag of a tag" v2 v1 &&
	blob=$(git rev-parse HEAD:hello) &&
	nulblob=$(git rev-parse HEAD:nul) &&
	tree=$(git rev-parse HEAD^{tree}) &&
	subtree=$(git rev-parse HEAD:dir) &&
	commit=$(git rev-parse HEAD) &&
	tag=$(git rev-parse v1) &&
	tag2=$(git rev-parse v2) &&
	all="$blob $nulblob $tree $subtree $commit $tag $tag2" &&
	missing=$(test_oid_fake 0123456789) &&
	: >empty-input
'

test_expect_success GIT '-t: the type git prints' '
	for id in $all
	do
		compare_cat_file empty-input -t $id || return 1
	done &&
	dirc cat-file -t $tag2 >actual &&
	echo tag >expect &&
	test_cmp expect actual
'

test_expect_success GIT '-s: the size git prints' '
	for id in $all
	do
		compare_cat_file empty-input -s $id || return 1
	done &&
	dirc cat-file -s $nulblob >actual &&
	echo 6 >expect &&
	test_cmp expect actual
'

test_expect_success GIT '-p: blob, commit and tags byte for byte' '
	for id in $blob $nulblob $commit $tag $tag2
	do
		compare_cat_file empty-input -p $id || return 1
	done &&
	dirc cat-file -p $nulblob >actual &&
	cmp nul actual
'

test_expect_success GIT '-p tree: modes, types, quoted names as git prints them' '
	compare_cat_file empty-input -p $tree &&
	test_grep "^040000 tree $subtree	dir\$" dirc.out &&
	compare_cat_file empty-input -p $subtree
'

test_expect_success GIT '-p tree: quoted names (tab, UTF-8, quote, backslash)' '
	dirc cat-file -p $tree >out &&
	test_grep -F "	\"ta\\tb\"" out &&
	test_grep -F "	\"\\303\\251\"" out &&
	test_grep -F "	\"q\\\"uote\"" out &&
	test_grep -F "	\"back\\\\slash\"" out &&
	test_grep "^120000 blob $link	link\$" out &&
	test_grep "^160000 commit $(test_oid_fake 1234567890)	submodule\$" out &&
	test_grep "^100755 blob .*	exe\$" out
'

test_expect_success GIT '-p tree with core.quotePath=false: as git' '
	dirc -c core.quotePath=false cat-file -p $tree >actual &&
	git -c core.quotePath=false cat-file -p $tree >expect &&
	test_cmp expect actual &&
	test_grep "	é\$" actual
'

test_expect_success GIT '<type> <object>: the raw content git prints' '
	compare_cat_file empty-input blob $blob &&
	compare_cat_file empty-input blob $nulblob &&
	compare_cat_file empty-input tree $tree &&
	compare_cat_file empty-input commit $commit &&
	compare_cat_file empty-input tag $tag
'

test_expect_success GIT '<type> <object> peels: tree <commit>, commit <tag>, tree <tag of tag>' '
	compare_cat_file empty-input tree $commit &&
	compare_cat_file empty-input commit $tag &&
	compare_cat_file empty-input commit $tag2 &&
	compare_cat_file empty-input tree $tag2 &&
	dirc cat-file tree $commit >actual &&
	git cat-file tree $tree >expect &&
	test_cmp expect actual
'

test_expect_success GIT '<type> <object> of the wrong type: "bad file", 128, as git' '
	compare_cat_file empty-input blob $tree &&
	compare_cat_file empty-input tag $commit &&
	compare_cat_file empty-input commit $tree &&
	test_grep "^fatal: git cat-file $tree: bad file\$" dirc.err &&
	test_cmp_codes git.code dirc.code &&
	echo 128 >expect &&
	test_cmp expect dirc.code
'

test_expect_success GIT '-e: 0 if present, 1 (silent) if missing, 128 if malformed' '
	for id in $all
	do
		dirc cat-file -e $id 2>err &&
		test_must_be_empty err || return 1
	done &&
	test_expect_code 1 dirc cat-file -e $missing 2>err &&
	test_must_be_empty err &&
	compare_cat_file empty-input -e $missing &&
	test_expect_code 128 dirc cat-file -e zzzz 2>err &&
	test_grep "^fatal: Not a valid object name zzzz\$" err &&
	compare_cat_file empty-input -e zzzz &&
	compare_cat_file empty-input -e 0123abc
'

test_expect_success GIT '-t, -s, -p of a missing object: as git' '
	compare_cat_file empty-input -t $missing &&
	compare_cat_file empty-input -s $missing &&
	compare_cat_file empty-input -p $missing &&
	compare_cat_file empty-input -p nonsense &&
	compare_cat_file empty-input blob $missing
'

test_expect_success GIT 'abbreviated ids: 4, 7 and all but one hex digits, upper case' '
	b4=$(echo $blob | cut -c1-4) &&
	b7=$(echo $blob | cut -c1-7) &&
	b_1=$(echo $blob | cut -c1-$((OID_HEXSZ - 1))) &&
	upper=$(echo $b7 | tr a-f A-F) &&
	for name in $b4 $b7 $b_1 $upper
	do
		compare_cat_file empty-input -t $name &&
		compare_cat_file empty-input -p $name &&
		compare_cat_file empty-input -e $name || return 1
	done &&
	dirc cat-file -p $b4 >actual &&
	test_cmp hello actual
'

# Two blobs, "$ca\n" and "$cb\n", whose ids share their first 4 hex
# digits, $amb, and differ in the fifth ($amb_a, $amb_b): found by trying
# the contents "N\n" for N = 0, 1, ... in each format.
test_expect_success GIT 'setup: two blobs whose ids share a 4-digit prefix' '
	case $OID_ALGO in
	sha1)
		ca=401 cb=565 amb=066c &&
		ida=066cbfe90df97549063f2456117dee5ea594b98c &&
		idb=066ce6048fdb5893c9640e93afc51d2c96db4f8d ;;
	sha256)
		ca=131 cb=329 amb=c158 &&
		ida=c158a1b7eb2a64eaa2ede9c631042817725bc4f41ba21c0af4b50781b53c4ecd &&
		idb=c158d07949c0f882909f97aa3cf70d898fa35c57786c6a6ea02b9435e46caae2 ;;
	esac &&
	a=$(echo $ca | git hash-object -w --stdin) &&
	b=$(echo $cb | git hash-object -w --stdin) &&
	test $a = $ida &&
	test $b = $idb &&
	amb_a=$(echo $a | cut -c1-5) &&
	amb_b=$(echo $b | cut -c1-5)
'

test_expect_success GIT 'an ambiguous prefix: fatal, 128, named as git names it' '
	test_expect_code 128 dirc cat-file -t $amb 2>err &&
	test_grep "^error: short object ID $amb is ambiguous\$" err &&
	test_grep "^fatal: Not a valid object name $amb\$" err &&
	test_expect_code 128 dirc cat-file -p $amb 2>err &&
	test_grep "ambiguous" err &&
	test_expect_code 128 dirc cat-file blob $amb 2>err &&
	test_grep "ambiguous" err
'

test_expect_success GIT 'one more digit is no longer ambiguous' '
	compare_cat_file empty-input -p $amb_a &&
	echo $ca >expect &&
	test_cmp expect dirc.out &&
	compare_cat_file empty-input -p $amb_b &&
	echo $cb >expect &&
	test_cmp expect dirc.out
'

test_expect_success GIT 'setup: batch input' '
	b7=$(echo $blob | cut -c1-7) &&
	{
		printf "%s\n" $all &&
		printf "%s\n" $b7 $amb_a $missing nonsense "" &&
		printf "%s\n" "$blob with some rest" "  $blob" "$commit	tabbed rest" &&
		printf "%s\n" $EMPTY_TREE
	} >batch-input
'

test_expect_success GIT '--batch-check: as git' '
	compare_cat_file batch-input --batch-check &&
	test_grep "^$missing missing\$" dirc.out &&
	test_grep "^nonsense missing\$" dirc.out
'

test_expect_success GIT '--batch: as git, contents byte for byte' '
	compare_cat_file batch-input --batch
'

test_expect_success GIT '--batch-check with %(objectname) %(objecttype) %(objectsize) %(rest)' '
	compare_cat_file batch-input \
		"--batch-check=%(objectname) %(objecttype) %(objectsize) [%(rest)]" &&
	test_grep "^$blob blob 6 \[with some rest\]\$" dirc.out &&
	compare_cat_file batch-input "--batch-check=%(rest)|%(objecttype)"
'

test_expect_success GIT '--batch with a format: as git' '
	compare_cat_file batch-input "--batch=<%(objecttype)> %(objectname)" &&
	compare_cat_file batch-input "--batch=%(objectsize)"
'

test_expect_success GIT '%(objectsize:disk) of loose objects: as git' '
	printf "%s\n" $all >ids &&
	compare_cat_file ids "--batch-check=%(objectname) %(objectsize:disk)"
'

test_expect_success GIT '-z: NUL-terminated batch input, as git' '
	printf "%s\000" $blob $amb_a $missing "$commit rest" >nul-input &&
	compare_cat_file nul-input -z --batch-check &&
	compare_cat_file nul-input -z "--batch-check=%(objectname) %(rest)"
'

test_expect_success GIT 'an ambiguous name in a batch: "<name> ambiguous" on stdout, as git' '
	printf "%s\n" $blob $amb $commit >ambiguous-input &&
	dirc cat-file --batch-check <ambiguous-input >actual 2>err &&
	git cat-file --batch-check <ambiguous-input >expect &&
	test_cmp expect actual &&
	test_grep "^$amb ambiguous\$" actual &&
	dirc cat-file --batch <ambiguous-input >actual 2>err &&
	git cat-file --batch <ambiguous-input >expect &&
	test_cmp expect actual &&
	printf "info $amb\n" >ambiguous-cmd &&
	dirc cat-file --batch-command <ambiguous-cmd >actual 2>err &&
	git cat-file --batch-command <ambiguous-cmd >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'an ambiguous name in a batch: the error on stderr, as git' '
	compare_cat_file ambiguous-input --batch-check &&
	test_grep "^error: short object ID $amb is ambiguous\$" dirc.err
'

test_expect_success GIT '--batch-all-objects: every object, as git' '
	compare_cat_file empty-input --batch-check --batch-all-objects &&
	test_line_count -gt 14 dirc.out &&
	compare_cat_file empty-input --batch --batch-all-objects &&
	compare_cat_file empty-input "--batch-check=%(objectname)" --batch-all-objects
'

test_expect_success GIT '--batch-command: info and contents, as git' '
	{
		echo "info $blob" &&
		echo "contents $tree" &&
		echo "info $missing" &&
		echo "contents $amb_b" &&
		echo "contents $tag2" &&
		echo "info $b7"
	} >commands &&
	compare_cat_file commands --batch-command &&
	compare_cat_file commands "--batch-command=%(objecttype) %(objectname)"
'

test_expect_success GIT '--batch-command --buffer with flush: as git' '
	{
		echo "info $blob" &&
		echo "flush" &&
		echo "contents $nulblob" &&
		echo "flush" &&
		echo "info $commit"
	} >commands &&
	compare_cat_file commands --batch-command --buffer
'

test_expect_success GIT '--batch --buffer: same bytes as git' '
	compare_cat_file batch-input --batch --buffer
'

test_expect_success GIT 'the empty tree exists even when not stored, as in git' '
	empty_tree=$EMPTY_TREE &&
	test_path_is_missing .git/objects/$(echo $empty_tree | cut -c1-2)/$(echo $empty_tree | cut -c3-) &&
	compare_cat_file empty-input -t $empty_tree &&
	compare_cat_file empty-input -s $empty_tree &&
	compare_cat_file empty-input -e $empty_tree &&
	compare_cat_file empty-input -p $empty_tree &&
	compare_cat_file empty-input tree $empty_tree
'

test_expect_success GIT 'the empty blob is not virtual (as in git 2.39)' '
	compare_cat_file empty-input -e $EMPTY_BLOB &&
	echo 1 >expect &&
	test_cmp expect dirc.code
'

test_expect_success GIT 'from a subdirectory, and with -C' '
	(
		cd dir &&
		dirc cat-file -p $subtree >../actual
	) &&
	git cat-file -p $subtree >expect &&
	test_cmp expect actual &&
	dirc -C dir cat-file -t $commit >actual &&
	echo commit >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'objects dirc itself wrote read back as git reads them' '
	dirc hash-object -w nul >id &&
	dirc cat-file -p $(cat id) >actual &&
	cmp nul actual &&
	git cat-file -p $(cat id) >actual &&
	cmp nul actual
'

test_done
