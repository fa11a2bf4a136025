#!/bin/sh
test_description='rev-parse: abbreviated ids that several objects share

The objects of git'"'"'s t1512 are made again with git (its dates and
identities): a blob, a tree, five commits and a tag whose ids all start
with 0000000000, blobs sharing "dead", "beef" and "cafe" (one of them
corrupt), and two objects of a made-up type sharing "bad0".  Every case
compares dirc rev-parse with git rev-parse: exit code, stdout, stderr.
These cases used to crash dirc (free(): invalid pointer, segfaults).'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-rev-parse.sh

# t1512's clock: test_tick of git's test-lib.
tick_at () {
	GIT_AUTHOR_DATE="$1 -0700" &&
	GIT_COMMITTER_DATE="$1 -0700" &&
	export GIT_AUTHOR_DATE GIT_COMMITTER_DATE
}

test_expect_success GIT 'setup: blobs that share "dead", "beef", "bad0", "cafe"' '
	git init -q --bare blob.prefix &&
	(
		cd blob.prefix &&
		echo brocdnra | git hash-object -w --stdin &&
		echo brigddsv | git hash-object -w --stdin &&
		echo 1agllotbh | git hash-object -w --stdin &&
		echo 1bbfctrkc | git hash-object -w --stdin
	) >ids &&
	test_line_count = 4 ids &&
	git init -q --bare blob.bad &&
	(
		cd blob.bad &&
		echo xyzfaowcoh | git hash-object -t bad -w --stdin --literally &&
		echo xyzhjpyvwl | git hash-object -t bad -w --stdin --literally
	) &&
	git init -q --bare blob.corrupt &&
	(
		cd blob.corrupt &&
		echo bnkxmdwz | git hash-object -w --stdin &&
		oid=$(echo bmwsjxzi | git hash-object -w --stdin) &&
		f=objects/$(echo $oid | sed -e "s|^..|&/|") &&
		chmod 644 $f &&
		echo broken >$f
	) &&
	test_fsck_also blob.prefix
'

test_expect_success GIT 'ambiguous blobs: git'"'"'s error, candidates and fatal' '
	rp_like_git -C blob.prefix dead &&
	rp_like_git -C blob.prefix beef &&
	test_grep "^hint:   beef[0-9a-f]* blob$" dirc.err &&
	rp_like_git -C blob.prefix --verify beef &&
	rp_like_git -C blob.prefix -q --verify beef &&
	rp_code 1 &&
	test_must_be_empty dirc.err
'

test_expect_success GIT 'ambiguous objects of an unknown type: "invalid object type"' '
	rp_like_git -C blob.bad bad0 &&
	rp_code 128
'

test_expect_success GIT 'an ambiguous corrupt loose object: git'"'"'s zlib errors, "[bad object]"' '
	rp_like_git -C blob.corrupt cafe &&
	test_grep "^hint:   cafe[0-9a-f]* \[bad object\]$" dirc.err
'

test_expect_success GIT 'setup: t1512'"'"'s history, all with ids starting 0000000000' '
	git init -q dis &&
	(
		cd dis &&
		git checkout -q -b main &&
		tick_at 1112911993 &&
		test_write_lines 0 1 2 3 4 5 6 7 8 9 "" b1rwzyc3 >a0blgqsjc &&
		git add a0blgqsjc &&
		git write-tree >../tree &&
		echo d7xm | git commit-tree 000000000 >../c-fffff &&
		git commit -q -m a2onsxbvj &&
		echo hoaxj | git commit-tree 0000000000cdc -p 000000000 \
			>../c-ffffd &&
		git tag -a -m j7cp83um v1.0.0 &&
		git mv a0blgqsjc d12cr3h8t &&
		echo h62xsjeu >>d12cr3h8t &&
		git add d12cr3h8t &&
		tick_at 1112912053 &&
		git commit -q -m czy8f73t &&
		git mv d12cr3h8t j000jmpzn &&
		echo j08bekfvt >>j000jmpzn &&
		git add j000jmpzn &&
		tick_at 1112912113 &&
		git commit -q -m ioiley5o &&
		git checkout -q v1.0.0^0 &&
		git mv a0blgqsjc f5518nwu &&
		test_write_lines h62xsjeu j08bekfvt kg7xflhm >>f5518nwu &&
		git add f5518nwu &&
		tick_at 1112912173 &&
		git commit -q -m b3wettvi &&
		side=$(git rev-parse HEAD) &&
		git checkout -q main &&
		{ git merge -q --no-commit -s recursive $side >/dev/null 2>&1 ||
		  :; } &&
		git rm -q -f f5518nwu j000jmpzn &&
		{ git rm -q -f a0blgqsjc 2>/dev/null || :; } &&
		{ git cat-file blob $side:f5518nwu && echo j3l0i9s6; } >ab2gs879 &&
		git add ab2gs879 &&
		tick_at 1112912233 &&
		git commit -q -m ad2uee
	) &&
	test_grep "^0000000000cdc" tree &&
	git -C dis rev-parse --disambiguate=000000000 >all &&
	test_line_count = 16 all &&
	test_fsck_also dis
'

test_expect_success GIT 'type hints: ^{commit}, ^{tree}, ^0, :path, A..B' '
	rp_each_like_git -C dis \
		000000000^{commit} 00000000^{commit} 0000000000e4f^{commit} \
		000000000^0 000000000:a0blgqsjc 0000000000cdc:a0blgqsjc \
		0000000000f^{tree} 0000000000^{tree} 0000000000^{commit} \
		000000000..000000000 ..000000000 000000000.. \
		000000000...000000000 0000000000f 00000 00000:foo 00000^{commit}
'

test_expect_success GIT 'the same with --verify and -q' '
	for a in 000000000^{commit} 00000000^{commit} 0000000000f \
		0000000000f^{tree} 000000000 00000
	do
		rp_like_git -C dis --verify "$a" &&
		rp_like_git -C dis --verify -q "$a" || return 1
	done
'

test_expect_success GIT 'describe names: <anything>-g<hex> names a commit' '
	rp_each_like_git -C dis v1.0.0-0-g0000000000e4f v1.0.0-0-g000000000 \
		v1.0.0-1-g000000000 v1.0.0-2-g000000000 nosuch-g0000000000e4f \
		x-gZZZZ -g0000000000e4f
'

test_expect_success GIT 'ambiguity is reported once, with the candidates git lists' '
	rp_like_git -C dis 00000 &&
	grep "is ambiguous" dirc.err >errors &&
	test_line_count = 1 errors &&
	rp_like_git -C dis 00000:foo &&
	grep "is ambiguous" dirc.err >errors &&
	test_line_count = 1 errors &&
	rp_like_git -C dis 00000^{commit} &&
	grep "is ambiguous" dirc.err >errors &&
	test_line_count = 1 errors &&
	rp_like_git -C dis 000000000 &&
	grep ^hint: dirc.err >hints &&
	test_line_count = 17 hints &&
	rp_like_git -C dis 000000000^{commit} &&
	grep ^hint: dirc.err >hints &&
	test_line_count = 7 hints
'

test_expect_success GIT 'candidates: tags, commits, trees, blobs, each by id' '
	rp_like_git -C dis 0000 &&
	grep "^hint:   0000" dirc.err | awk "{print \$3}" | uniq >types &&
	test_write_lines tag commit tree blob >expect &&
	test_cmp expect types
'

test_expect_success GIT 'no candidate of the hinted type: every candidate listed' '
	(
		cd dis &&
		echo 851 | git hash-object --stdin -w &&
		echo 872 | git hash-object --stdin -w
	) &&
	rp_like_git -C dis ee3d^{commit} &&
	grep ^hint: dirc.err >hints &&
	test_line_count = 3 hints
'

test_expect_success GIT 'core.disambiguate picks a type, but not over the context' '
	for v in committish commit tree treeish blob none
	do
		rp_like_git -C dis -c core.disambiguate=$v 0000000000f &&
		rp_like_git -C dis -c core.disambiguate=$v 0000000000f^{tree} ||
		return 1
	done &&
	rp_like_git -C dis -c core.disambiguate=bogus HEAD &&
	rp_code 128
'

test_expect_success GIT '--disambiguate: every match once, in id order, also packed' '
	rp_like_git -C dis --disambiguate=000000000 &&
	test_line_count = 16 dirc.out &&
	rp_like_git -C dis --short --disambiguate=0000000000e &&
	(
		cd dis &&
		git rev-parse --disambiguate=000000000 >../list &&
		git pack-objects -q .git/objects/pack/pack <../list
	) >/dev/null &&
	rp_like_git -C dis --disambiguate=000000000 &&
	test_line_count = 16 dirc.out &&
	rp_each_like_git -C dis --disambiguate=000 --disambiguate=00000000000000000 \
		--disambiguate=zzzz --disambiguate=
'

test_expect_success GIT 'a ref named like an id: git'"'"'s warnings and choices' '
	(
		cd dis &&
		tree=$(git mktree </dev/null) &&
		ref=$(git rev-parse HEAD) &&
		val=$(git commit-tree $tree </dev/null) &&
		git update-ref refs/heads/$ref $val &&
		short=$(git rev-parse --short HEAD) &&
		git update-ref refs/heads/$short $val &&
		echo "$ref" >../ref40 &&
		echo "$short" >../ref7
	) &&
	rp_like_git -C dis "$(cat ref40)" &&
	test_grep "refname.*$(cat ref40).*ambiguous" dirc.err &&
	rp_like_git -C dis "$(cat ref7)" &&
	test_grep "refname.*$(cat ref7).*ambiguous" dirc.err &&
	rp_like_git -C dis -q --verify "$(cat ref7)" &&
	rp_like_git -C dis --symbolic-full-name "$(cat ref7)"
'

test_done
