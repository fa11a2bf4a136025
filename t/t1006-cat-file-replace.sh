#!/bin/sh
test_description='replace refs: every object read sees refs/replace/<id> as git does

"git replace" makes refs/replace/<id> name an object read in <id>'"'"'s
place.  cat-file in every mode, and the other commands reading objects,
read the replacement, as git does; --batch-all-objects lists objects as
stored; GIT_NO_REPLACE_OBJECTS (any value), "dirc --no-replace-objects"
and core.useReplaceRefs=false turn it off.  Chains, loops, bad ref
names, packed refs and GIT_REPLACE_REF_BASE are compared with git.'
. ./test-lib.sh
INTEROP_STATE=none
. "$TEST_DIRECTORY"/lib-interop.sh

# cf_like_git [-i INPUT] ARGS...: cat-file ARGS, same code, stdout, stderr.
cf_like_git () {
	if test "$1" = -i
	then
		interop_run -i "$2" cat-file "$@"
	else
		interop_run cat-file "$@"
	fi
}

cf_same () {
	if test "$1" = -i
	then
		cl_in=$2
		shift 2
		interop_run -i "$cl_in" cat-file "$@"
	else
		interop_run cat-file "$@"
	fi &&
	same_result
}

test_expect_success GIT 'setup: a commit replaced by another, as "git replace" does it' '
	echo one >file &&
	git add file &&
	test_tick &&
	git commit -q -m one &&
	orig=$(git rev-parse HEAD) &&
	git cat-file commit $orig >orig &&
	echo two >file2 &&
	git add file2 &&
	faketree=$(git write-tree) &&
	sed "s/^tree .*/tree $faketree/" orig >fake &&
	echo extra >>fake &&
	fake=$(git hash-object -t commit -w fake) &&
	git replace $orig $fake &&
	git rm -q --cached file2 &&
	origtree=$(git --no-replace-objects rev-parse $orig^{tree}) &&
	test $faketree != $origtree &&
	blob=$(git rev-parse $orig:file) &&
	: >empty
'

test_expect_success GIT 'every single-object mode reads the replacement, as git' '
	for args in "-t $orig" "-s $orig" "-p $orig" "commit $orig" \
		"tree $orig" "-e $orig" "-p $orig^{tree}" "-p HEAD:file2" \
		"-t --allow-unknown-type $orig" "-s --allow-unknown-type $orig"
	do
		cf_same $args || return 1
	done &&
	dirc cat-file commit $orig >actual &&
	test_cmp fake actual
'

test_expect_success GIT 'batches of names read the replacement, --batch-all-objects does not' '
	printf "%s\n" $orig HEAD HEAD^{tree} HEAD:file2 >names &&
	cf_same -i names --batch &&
	cf_same -i names --batch-check &&
	cf_same -i names "--batch-check=%(objectname) %(objectsize:disk) %(deltabase)" &&
	printf "info %s\ncontents %s\n" $orig $orig >cmds &&
	cf_same -i cmds --batch-command &&
	cf_same -i empty --batch-all-objects --batch &&
	cf_same -i empty --batch-all-objects --batch-check &&
	grep "^$orig commit" dirc.out >actual &&
	echo "$orig commit $(wc -c <orig | tr -d " ")" >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'GIT_NO_REPLACE_OBJECTS (any value), --no-replace-objects, core.useReplaceRefs=false' '
	for v in 1 0 "" yes
	do
		GIT_NO_REPLACE_OBJECTS=$v &&
		export GIT_NO_REPLACE_OBJECTS &&
		cf_same commit $orig &&
		test_cmp orig dirc.out &&
		unset GIT_NO_REPLACE_OBJECTS || return 1
	done &&
	dirc --no-replace-objects cat-file commit $orig >actual &&
	test_cmp orig actual &&
	dirc -c core.useReplaceRefs=false cat-file commit $orig >actual &&
	test_cmp orig actual &&
	dirc -c core.useReplaceRefs=true cat-file commit $orig >actual &&
	test_cmp fake actual &&
	git config core.useReplaceRefs bogus &&
	cf_same -t $orig &&
	test_grep "bad boolean config value" dirc.err &&
	git config --unset core.useReplaceRefs
'

test_expect_success GIT 'other commands read replaced objects too: read-tree of the replaced commit' '
	git read-tree $orig &&
	git ls-files -s >expect &&
	git read-tree HEAD &&
	dirc read-tree $orig &&
	git ls-files -s >actual &&
	test_cmp expect actual &&
	test_grep "file2" actual &&
	git read-tree HEAD
'

test_expect_success GIT 'setup: objects for chains' '
	for i in 0 1 2 3 4 5 6
	do
		echo "chain $i" | git hash-object -w --stdin >id$i || return 1
	done
'

# chain N: refs/replace/id0 -> id1 -> ... -> idN, nothing else.
chain () {
	git for-each-ref --format="%(refname)" refs/replace/ >refs &&
	while read r
	do
		git update-ref --no-deref -d "$r" || return 1
	done <refs &&
	ch_i=0 &&
	while test $ch_i -lt $1
	do
		git update-ref refs/replace/$(cat id$ch_i) $(cat id$((ch_i + 1))) &&
		ch_i=$((ch_i + 1)) || return 1
	done
}

test_expect_success GIT 'a chain of 4 replacements is followed, 5 is "replace depth too high", as git' '
	chain 4 &&
	cf_same -p $(cat id0) &&
	echo "chain 4" >expect &&
	test_cmp expect dirc.out &&
	chain 5 &&
	cf_same -p $(cat id0) &&
	cf_same -p $(cat id1) &&
	printf "%s\n" $(cat id1) $(cat id0) $(cat id1) >chain-in &&
	cf_same -i chain-in --batch-check &&
	test_line_count = 1 dirc.out &&
	test_grep "^fatal: replace depth too high for object $(cat id0)\$" dirc.err
'

test_expect_success GIT 'a loop, and a replacement that is missing, as git' '
	chain 0 &&
	git update-ref refs/replace/$(cat id0) $(cat id0) &&
	cf_same -p $(cat id0) &&
	git update-ref -d refs/replace/$(cat id0) &&
	mkdir -p .git/refs/replace &&
	test_oid_fake 0123456789 >.git/refs/replace/$(cat id1) &&
	cf_same -p $(cat id1) &&
	cf_same -t $(cat id1) &&
	cf_same -e $(cat id1) &&
	printf "%s\n" $(cat id1) $(cat id2) >missing-in &&
	cf_same -i missing-in --batch-check &&
	cf_same -i missing-in --batch &&
	echo garbage >.git/refs/replace/$(cat id1) &&
	cf_same -p $(cat id1) &&
	rm .git/refs/replace/$(cat id1)
'

test_expect_success GIT 'ref names that are not ids warn once, as git; upper case counts' '
	chain 0 &&
	mkdir -p .git/refs/replace/sub &&
	cat id2 >.git/refs/replace/sub/x &&
	cat id2 >.git/refs/replace/nothex &&
	cat id2 >.git/refs/replace/$(cut -c1-$((OID_HEXSZ - 1)) id0) &&
	cat id2 >.git/refs/replace/$(tr a-f A-F <id0) &&
	printf "%s\n" $(cat id0) $(cat id0) >twice &&
	cf_same -i twice --batch &&
	test_grep "^warning: bad replace ref name: nothex\$" dirc.err &&
	test_line_count = 3 dirc.err &&
	echo "chain 2" >expect &&
	sed -n 2p dirc.out >actual &&
	test_cmp expect actual &&
	cat id3 >.git/refs/replace/$(cat id0) &&
	cf_same -p $(cat id0) &&
	test_grep "^fatal: duplicate replace ref: " dirc.err &&
	rm -r .git/refs/replace
'

test_expect_success GIT 'packed replace refs, a symbolic one, and GIT_REPLACE_REF_BASE, as git' '
	chain 0 &&
	git update-ref refs/replace/$(cat id0) $(cat id1) &&
	git update-ref refs/other/$(cat id2) $(cat id3) &&
	git pack-refs --all &&
	test_path_is_missing .git/refs/replace/$(cat id0) &&
	cf_same -p $(cat id0) &&
	echo "chain 1" >expect &&
	test_cmp expect dirc.out &&
	cat id4 >.git/refs/replace/$(cat id0) &&
	cf_same -p $(cat id0) &&
	echo "ref: refs/other/$(cat id2)" >.git/refs/replace/$(cat id5) &&
	cf_same -p $(cat id5) &&
	echo "chain 3" >expect &&
	test_cmp expect dirc.out &&
	GIT_REPLACE_REF_BASE=refs/other/ &&
	export GIT_REPLACE_REF_BASE &&
	cf_same -p $(cat id2) &&
	test_cmp expect dirc.out &&
	cf_same -p $(cat id0) &&
	unset GIT_REPLACE_REF_BASE &&
	rm .git/refs/replace/$(cat id5) &&
	git update-ref -d refs/other/$(cat id2)
'

test_expect_success GIT '--allow-unknown-type reads the replacement of a bogus object (git t1006 #203)' '
	chain 0 &&
	bogus=$(printf bogus | git hash-object -t bogus --literally -w --stdin) &&
	cf_same -t --allow-unknown-type $bogus &&
	echo bogus >expect &&
	test_cmp expect dirc.out &&
	git update-ref refs/replace/$bogus $orig &&
	cf_same -t --allow-unknown-type $bogus &&
	echo commit >expect &&
	test_cmp expect dirc.out &&
	cf_same -t $bogus &&
	git update-ref -d refs/replace/$bogus &&
	rm .git/objects/$(echo $bogus | cut -c1-2)/$(echo $bogus | cut -c3-)
'

test_done
