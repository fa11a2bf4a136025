#!/bin/sh
test_description='rev-parse: abbreviated ids that several objects share

The objects of git'"'"'s t1512 are made again with git (its dates and
identities): five blobs, five trees, five commits and a tag whose ids all
start with 000000000 (SHA-256: 000000), blobs sharing "dead", "beef" and
"cafe" (one of them corrupt), and two objects of a made-up type sharing
"bad0".  Every case compares dirc rev-parse with git rev-parse: exit
code, stdout, stderr.  These cases used to crash dirc (free(): invalid
pointer, segfaults).'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-rev-parse.sh

# The history's file names, added lines and messages are the ones that
# make its ids share a prefix: t1512's for SHA-1, found by brute force
# (a counter over 8 or 9 letters and digits, one object after the other)
# for SHA-256, where git's t1512 has none.  The shape is the same in
# both: all 16 objects share $P; a blob, the tag and a tree share the
# longer $Q; the rest of each id is the format's.  $R is what t1512
# calls 0000000000 (15 of the 16 in SHA-1; in SHA-256 simply $P).  Two
# blobs "$y1" and "$y2" share the prefix $yp (t1512's "ee3d").
case $OID_ALGO in
sha1)
	P=000000000 R=0000000000 Q=0000000000f
	x1=b1rwzyc3 f1=a0blgqsjc s1=a2onsxbvj tg=j7cp83um
	x2=h62xsjeu f2=d12cr3h8t s2=czy8f73t
	x3=j08bekfvt f3=j000jmpzn s3=ioiley5o
	x4=kg7xflhm f4=f5518nwu s4=b3wettvi
	x5=j3l0i9s6 f5=ab2gs879 s5=ad2uee
	y1=851 y2=872 yp=ee3d
	;;
sha256)
	P=000000 R=000000 Q=000000f
	x1=r8b6gb1m f1=aadf7tkqc s1=baf0o98s6 tg=vd04h921
	x2=w9h83hh2 f2=jajbfk6wi s2=l7v5t7ga
	x3=laiy9b9pp f3=lazf0rmr5 s3=gt5uge9u
	x4=gp5bfnyr f4=slhueox5 s4=juy8myal
	x5=c8k8i1aj f5=sgfx6rh1 s5=xns53p
	y1=131 y2=329 yp=c158
	;;
esac
# P minus its last digit; abbreviated ids of the first commit and tree
# (set by the setup): as long as $P and 4 more, or 2 more.
P8=${P%?}
oid_prefix () {
	printf "%.${1}s\n" "$2"
}

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

test_expect_success GIT 'setup: t1512'"'"'s history, all 16 ids sharing a prefix' '
	git init -q dis &&
	(
		cd dis &&
		git checkout -q -b main &&
		tick_at 1112911993 &&
		test_write_lines 0 1 2 3 4 5 6 7 8 9 "" $x1 >$f1 &&
		git add $f1 &&
		git write-tree >../tree &&
		echo d7xm | git commit-tree $P >../c-fffff &&
		git commit -q -m $s1 &&
		echo hoaxj | git commit-tree $(oid_prefix $((${#P} + 4)) $(cat ../tree)) -p $P \
			>../c-ffffd &&
		git tag -a -m $tg v1.0.0 &&
		git mv $f1 $f2 &&
		echo $x2 >>$f2 &&
		git add $f2 &&
		tick_at 1112912053 &&
		git commit -q -m $s2 &&
		git mv $f2 $f3 &&
		echo $x3 >>$f3 &&
		git add $f3 &&
		tick_at 1112912113 &&
		git commit -q -m $s3 &&
		git checkout -q v1.0.0^0 &&
		git mv $f1 $f4 &&
		test_write_lines $x2 $x3 $x4 >>$f4 &&
		git add $f4 &&
		tick_at 1112912173 &&
		git commit -q -m $s4 &&
		side=$(git rev-parse HEAD) &&
		git checkout -q main &&
		{ git merge -q --no-commit -s recursive $side >/dev/null 2>&1 ||
		  :; } &&
		git rm -q -f $f4 $f3 &&
		{ git rm -q -f $f1 2>/dev/null || :; } &&
		{ git cat-file blob $side:$f4 && echo $x5; } >$f5 &&
		git add $f5 &&
		tick_at 1112912233 &&
		git commit -q -m $s5
	) &&
	test_grep "^$P" tree &&
	T=$(oid_prefix $((${#P} + 4)) $(cat tree)) &&
	E=$(oid_prefix $((${#P} + 4)) $(git -C dis rev-parse v1.0.0^0)) &&
	E11=$(oid_prefix $((${#P} + 2)) $E) &&
	git -C dis rev-parse --disambiguate=$P >all &&
	test_line_count = 16 all &&
	git -C dis rev-parse --disambiguate=$Q >q &&
	test_line_count = 3 q &&
	git -C dis rev-parse --disambiguate=0000 >all4 &&
	test_cmp all all4 &&
	test_fsck_also dis
'

test_expect_success GIT 'type hints: ^{commit}, ^{tree}, ^0, :path, A..B' '
	rp_each_like_git -C dis \
		$P^{commit} $P8^{commit} $E^{commit} \
		$P^0 $P:$f1 $T:$f1 \
		$Q^{tree} $R^{tree} $R^{commit} \
		$P..$P ..$P $P.. \
		$P...$P $Q 00000 00000:foo 00000^{commit}
'

test_expect_success GIT 'the same with --verify and -q' '
	for a in $P^{commit} $P8^{commit} $Q \
		$Q^{tree} $P 00000
	do
		rp_like_git -C dis --verify "$a" &&
		rp_like_git -C dis --verify -q "$a" || return 1
	done
'

test_expect_success GIT 'describe names: <anything>-g<hex> names a commit' '
	rp_each_like_git -C dis v1.0.0-0-g$E v1.0.0-0-g$P \
		v1.0.0-1-g$P v1.0.0-2-g$P nosuch-g$E \
		x-gZZZZ -g$E
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
	rp_like_git -C dis $P &&
	grep ^hint: dirc.err >hints &&
	test_line_count = 17 hints &&
	rp_like_git -C dis $P^{commit} &&
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
		echo $y1 | git hash-object --stdin -w &&
		echo $y2 | git hash-object --stdin -w
	) >y &&
	grep -c "^$yp" y >count &&
	echo 2 >expect &&
	test_cmp expect count &&
	rp_like_git -C dis $yp^{commit} &&
	grep ^hint: dirc.err >hints &&
	test_line_count = 3 hints
'

test_expect_success GIT 'core.disambiguate picks a type, but not over the context' '
	for v in committish commit tree treeish blob none
	do
		rp_like_git -C dis -c core.disambiguate=$v $Q &&
		rp_like_git -C dis -c core.disambiguate=$v $Q^{tree} ||
		return 1
	done &&
	rp_like_git -C dis -c core.disambiguate=bogus HEAD &&
	rp_code 128
'

test_expect_success GIT 'commit-tree: its tree is a tree, its parents commits (t1512 #8, #11)' '
	git init -q ct &&
	(
		cd ct &&
		tick_at 1112911993 &&
		test_write_lines 0 1 2 3 4 5 6 7 8 9 "" $x1 >$f1 &&
		git add $f1 &&
		git write-tree >/dev/null &&
		git rev-parse --disambiguate=$P >both &&
		test_line_count = 2 both &&
		echo d7xm | dirc commit-tree $P >../ct-fffff &&
		git commit -q -m $s1 &&
		echo hoaxj | dirc commit-tree $T -p $P >../ct-ffffd
	) &&
	test_cmp c-fffff ct-fffff &&
	test_cmp c-ffffd ct-ffffd
'

test_expect_success GIT 'commit-tree: a tree or commit among others; still ambiguous: the trees or commits listed, as git' '
	for args in "$P" "$T -p $P" "$T -p $Q"
	do
		for who in git dirc
		do
			{
				(cd dis && $who commit-tree $args </dev/null) \
					>$who.out 2>$who.err
				echo $? >$who.code
			} || return 1
		done &&
		test_cmp_codes git.code dirc.code &&
		test_must_be_empty dirc.out &&
		if test_have_prereq GIT_MSGS
		then
			test_cmp git.err dirc.err
		fi &&
		test_grep "is ambiguous" dirc.err || return 1
	done &&
	(cd dis && test_must_fail dirc commit-tree $P) 2>err &&
	test_grep -v "^hint: .* commit " err &&
	test_grep "^hint: .* tree$" err &&
	# a blob, the tag and a tree share $Q: the tree it is
	(cd dis && dirc commit-tree $Q </dev/null) >dirc.out &&
	(cd dis && git commit-tree $Q </dev/null) >git.out &&
	test_cmp git.out dirc.out
'

test_expect_success GIT '--disambiguate: every match once, in id order, also packed' '
	rp_like_git -C dis --disambiguate=$P &&
	test_line_count = 16 dirc.out &&
	rp_like_git -C dis --short --disambiguate=$E11 &&
	(
		cd dis &&
		git rev-parse --disambiguate=$P >../list &&
		git pack-objects -q .git/objects/pack/pack <../list
	) >/dev/null &&
	rp_like_git -C dis --disambiguate=$P &&
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
