#!/bin/sh
test_description='packs git wrote: dirc reads every object as git does

Repositories built by git: a history of 60 commits whose files change a
little each time (so deltas form), then packed in the ways git packs:
"git gc", deep delta chains (repack --depth=250 --window=250), several
packs side by side, an .idx with 64-bit offsets, an .idx of version 1,
objects both loose and packed, reference deltas and a thin pack made
complete with index-pack --fix-thin.  In each, dirc cat-file must print
the bytes git prints; trees read back with read-tree and written again
with write-tree keep their ids; writes of content a pack already holds
create no loose object and freshen the pack instead.'
. ./test-lib.sh

if ! test_have_prereq GIT
then
	skip_all='git not found in PATH: the packs under test are made by git'
	test_done
fi

BATCH_FMT='%(objectname) %(objecttype) %(objectsize) %(objectsize:disk) %(deltabase)'

# edit_line N FILE: line N of FILE ("orig NNN" and 20 numbers) becomes an
# "edited" line of other numbers, two bytes longer: each version differs
# from the next by one line and grows, so git chains the versions.
edit_line () {
	awk -v n="$1" '
	$2 + 0 == n {
		$1 = "edited"
		for (j = 3; j <= 22; j++)
			$j = sprintf("%05d", ($j * 31 + n) % 65521)
	}
	{ print }' "$2" >"$2.new" &&
	mv "$2.new" "$2"
}

# commit_range DIR FIRST LAST: commits FIRST..LAST of the history in the
# repository DIR: each edits a line of "file", appends to "sub/grow",
# every 5th rewrites the binary "bin", the 30th edits "big"; every 10th
# is tagged (annotated) "vN".
commit_range () {
	for cr_i in $(test_seq "$2" "$3")
	do
		edit_line "$cr_i" "$1/file" &&
		echo "grow $cr_i" >>"$1/sub/grow" &&
		case $cr_i in
		*[05]) printf "bin\000%s\000\377\n" "$cr_i" >"$1/bin" ;;
		30) edit_line 1000 "$1/big" ;;
		esac &&
		{ test "$cr_i" != "$2" || git -C "$1" add -A; } &&
		test_tick &&
		git -C "$1" commit -q -a -m "commit $cr_i" &&
		case $cr_i in
		*0) git -C "$1" tag -a -m "tag $cr_i" "v$cr_i" ;;
		esac || return 1
	done
}

# new_repo DIR: an empty git repository with the first versions of the
# files (not committed).
new_repo () {
	git init -q "$1" &&
	mkdir "$1/sub" &&
	awk 'BEGIN {
		for (i = 1; i <= 100; i++) {
			printf "orig %03d", i
			for (j = 1; j <= 20; j++)
				printf " %05d", (i * 7919 + j * 104729) % 65521
			print ""
		}
	}' >"$1/file" &&
	awk 'BEGIN {
		for (i = 1; i <= 3000; i++) {
			printf "orig %04d", i
			for (j = 1; j <= 20; j++)
				printf " %05d", (i * 7919 + j * 104729) % 65521
			print ""
		}
	}' >"$1/big" &&
	echo "#!/bin/sh" >"$1/exe" &&
	chmod +x "$1/exe" &&
	printf "bin\000\377\n" >"$1/bin" &&
	echo "grow 0" >"$1/sub/grow"
}

# loose_objects DIR: the loose object files of the repository DIR.
loose_objects () {
	find "$1/.git/objects" -type f -path "*/objects/[0-9a-f][0-9a-f]/*"
}

# packs_of DIR: the .idx files of the repository DIR, one a line.
packs_of () {
	ls "$1"/.git/objects/pack/pack-*.idx
}

# same_cat_file DIR ARGS...: "cat-file ARGS" (stdin empty) prints the
# same bytes with dirc as with git in the repository DIR, both exit 0.
same_cat_file () {
	scf_dir=$1 &&
	shift &&
	git -C "$scf_dir" cat-file "$@" >expect &&
	dirc -C "$scf_dir" cat-file "$@" >actual &&
	test_cmp expect actual
}

# first_delta_is_ref DIR: the first delta of the (only) pack of DIR is a
# reference delta (type 7 in its header), not an offset delta (6).
first_delta_is_ref () {
	git verify-pack -v $(packs_of "$1") >vp &&
	fdr_off=$(awk "NF == 7 { print \$5; exit }" vp) &&
	test -n "$fdr_off" &&
	fdr_pack=$(packs_of "$1") &&
	fdr_byte=$(od -An -tu1 -j "$fdr_off" -N 1 "${fdr_pack%.idx}.pack") &&
	test $(( ($fdr_byte >> 4) & 7 )) = 7
}

# mtime FILE: its modification time in seconds.
mtime () {
	stat -c %Y "$1"
}

# Where an object is stored once (or loose and packed: git then reports
# the packed copy), and all of them.
ONCE_REPOS='hist deep multi large v1 mixed refdelta thin'
ALL_REPOS="$ONCE_REPOS dup"

test_expect_success 'setup: a history of 60 commits, packed by git gc' '
	new_repo hist &&
	commit_range hist 1 60 &&
	git -C hist tag light HEAD~3 &&
	git -C hist gc -q &&
	loose_objects hist >loose &&
	test_must_be_empty loose &&
	packs_of hist >packs &&
	test_line_count = 1 packs
'

test_expect_success 'setup: deep delta chains (repack -adf --depth=250 --window=250)' '
	cp -R hist deep &&
	git -C deep repack -q -adf --depth=250 --window=250 &&
	git verify-pack -v $(packs_of deep) >vp &&
	sed -n -e "s/^chain length = \([0-9]*\):.*/\1/p" vp >depths &&
	test "$(sort -n depths | tail -n 1)" -gt 50
'

# The history of "hist" up to v10, v10..v20, v20..v30, v30..v40 in four
# packs (made as "git repack" without -a makes them), v40..HEAD loose.
test_expect_success 'setup: several packs side by side, and loose objects' '
	git init -q multi &&
	for range in v10 "v20 ^v10" "v30 ^v20" "v40 ^v30"
	do
		printf "%s\n" $range >revs &&
		git -C hist pack-objects -q --revs --delta-base-offset \
			"$TRASH_DIRECTORY/multi/.git/objects/pack/pack" \
			<revs >/dev/null || return 1
	done &&
	printf "%s\n" master ^v40 >revs &&
	git -C hist pack-objects -q --revs --stdout <revs >rest.pack &&
	git -C multi unpack-objects -q <rest.pack &&
	git -C multi update-ref refs/heads/master $(git -C hist rev-parse master) &&
	git -C multi fsck --no-progress >/dev/null &&
	packs_of multi >packs &&
	test_line_count = 4 packs &&
	loose_objects multi >loose &&
	test_line_count -gt 10 loose
'

# Offsets above 12 go to the 64-bit table: every object but the first.
# (",0" would move that one too, and git then rejects the .idx as too big.)
# The .idx: 8 bytes of header, 1024 of fanout, per object its id, a CRC
# and a 32-bit offset, 8 bytes of 64-bit offset for all but one, then the
# pack's checksum and the .idx's own (OID_RAWSZ bytes each).
test_expect_success 'setup: an .idx with 64-bit offsets (index-pack --index-version=2,12)' '
	cp -R hist large &&
	idx=$(packs_of large) &&
	git index-pack --index-version=2,12 -o new.idx "${idx%.idx}.pack" >/dev/null &&
	n=$(git show-index <new.idx | wc -l) &&
	test "$(wc -c <new.idx)" = \
		$((8 + 1024 + (OID_RAWSZ + 16) * n - 8 + 2 * OID_RAWSZ)) &&
	rm -f "$idx" &&
	mv new.idx "$idx" &&
	git -C large fsck --no-progress >/dev/null
'

test_expect_success 'setup: an .idx of version 1 (index-pack --index-version=1)' '
	cp -R deep v1 &&
	idx=$(packs_of v1) &&
	git index-pack --index-version=1 -o new.idx "${idx%.idx}.pack" >/dev/null &&
	printf "\377tOc" >magic &&
	head -c 4 new.idx >head &&
	! cmp -s magic head &&
	rm -f "$idx" &&
	mv new.idx "$idx" &&
	git -C v1 fsck --no-progress >/dev/null
'

test_expect_success 'setup: objects loose, packed, and both (prune-packable)' '
	cp -R hist mixed &&
	pack=$(packs_of mixed) &&
	pack=${pack%.idx}.pack &&
	mkdir aside &&
	mv "$pack" "${pack%.pack}.idx" aside/ &&
	git -C mixed unpack-objects -q <aside/${pack##*/} &&
	mv aside/* mixed/.git/objects/pack/ &&
	rm -rf mixed/.git/objects/[0-7]? &&
	commit_range mixed 61 63 &&
	git -C mixed count-objects -v >counts &&
	test_grep "^prune-packable: [1-9]" counts &&
	test_grep "^in-pack: [1-9]" counts &&
	loose_objects mixed >loose &&
	test_line_count -gt 100 loose
'

test_expect_success 'setup: reference deltas (repack.useDeltaBaseOffset=false)' '
	cp -R deep refdelta &&
	git -C refdelta -c repack.useDeltaBaseOffset=false repack -q -adf \
		--depth=250 --window=250 &&
	first_delta_is_ref refdelta
'

# The bases the thin pack lacks are loose in "thin"; index-pack appends
# copies of them to the pack, and prune-packed removes those loose ones:
# no object is stored twice.
test_expect_success 'setup: a thin pack completed with index-pack --fix-thin' '
	git init -q thin &&
	echo v30 >revs &&
	git -C hist pack-objects -q --revs --stdout <revs >base.pack &&
	git -C thin unpack-objects -q <base.pack &&
	printf "%s\n" master ^v30 >revs &&
	git -C hist pack-objects -q --revs --thin --stdout <revs >thin.pack &&
	! git -C thin index-pack --stdin <thin.pack 2>err &&
	rm -f thin/.git/objects/pack/tmp_* &&
	git -C thin index-pack --stdin --fix-thin <thin.pack >/dev/null &&
	git -C thin prune-packed &&
	git -C thin update-ref refs/heads/master $(git -C hist rev-parse master) &&
	git -C thin update-ref refs/tags/v30 $(git -C hist rev-parse v30) &&
	git -C thin fsck --no-progress >/dev/null &&
	git -C thin count-objects -v >counts &&
	test_grep "^prune-packable: 0" counts &&
	test_grep "^count: [1-9]" counts &&
	first_delta_is_ref thin
'

test_expect_success 'setup: objects stored twice, in several packs and loose (repack -a without -d)' '
	cp -R multi dup &&
	git -C dup repack -q -a &&
	packs_of dup >packs &&
	test_line_count = 5 packs &&
	git -C dup count-objects -v >counts &&
	test_grep "^prune-packable: [1-9]" counts
'

test_expect_success 'cat-file --batch-all-objects --batch: git'\''s bytes in every repository' '
	for r in $ALL_REPOS
	do
		same_cat_file $r --batch-all-objects --batch || return 1
	done
'

test_expect_success 'cat-file --batch-check with sizes on disk and delta bases: as git' '
	for r in $ONCE_REPOS
	do
		same_cat_file $r --batch-all-objects --batch-check="$BATCH_FMT" ||
		return 1
	done
'

test_expect_success 'cat-file --batch-check default format and --batch of given ids, as git' '
	for r in $ALL_REPOS
	do
		git -C $r cat-file --batch-all-objects \
			--batch-check="%(objectname)" >ids &&
		git -C $r cat-file --batch-check <ids >expect &&
		dirc -C $r cat-file --batch-check <ids >actual &&
		test_cmp expect actual &&
		git -C $r cat-file --batch <ids >expect &&
		dirc -C $r cat-file --batch <ids >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'the deepest delta of the chain reads back whole' '
	git verify-pack -v $(packs_of deep) >vp &&
	deepest=$(sort -n -k 6 vp | awk "NF == 7 { id = \$1 } END { print id }") &&
	git -C deep cat-file -p $deepest >expect &&
	dirc -C deep cat-file -p $deepest >actual &&
	test_cmp expect actual &&
	dirc -C deep cat-file -s $deepest >actual &&
	git -C deep cat-file -s $deepest >expect &&
	test_cmp expect actual
'

test_expect_success 'cat-file -t, -s, -p, -e of packed commits, trees, tags and blobs' '
	for r in deep refdelta
	do
		for name in HEAD HEAD~59 HEAD^{tree} HEAD:sub v10 v60 \
			HEAD:file HEAD:bin HEAD:big HEAD:exe HEAD~59:file
		do
			id=$(git -C $r rev-parse $name) &&
			same_cat_file $r -t $id &&
			same_cat_file $r -s $id &&
			same_cat_file $r -p $id &&
			dirc -C $r cat-file -e $id || return 1
		done || return 1
	done
'

test_expect_success 'cat-file TYPE peels a packed tag to the type asked for' '
	tag=$(git -C deep rev-parse v20) &&
	same_cat_file deep commit $tag &&
	same_cat_file deep tree $tag &&
	same_cat_file deep tag $tag
'

test_expect_success 'abbreviated ids across loose and packed objects, as git' '
	git -C mixed cat-file --batch-all-objects --batch-check="%(objectname)" \
		>ids &&
	for len in 4 5 7 12 39
	do
		cut -c 1-$len ids >abbrev &&
		git -C mixed cat-file --batch-check <abbrev >expect 2>/dev/null &&
		dirc -C mixed cat-file --batch-check <abbrev >actual &&
		test_cmp expect actual || return 1
	done &&
	for id in $(sed -n -e "1p" -e "100p" -e "\$p" ids)
	do
		abbrev=$(echo $id | cut -c 1-8) &&
		echo $id >expect &&
		dirc -C mixed rev-parse --verify $abbrev >actual &&
		test_cmp expect actual || return 1
	done
'

# Two blobs whose ids share their first 4 digits (and differ in the
# 5th), found by brute force over contents "blob N" for each format:
# the packed one, the loose one, and the 4 digits.
test_expect_success 'setup: a 4-digit prefix names a loose blob and a packed one' '
	case $OID_ALGO in
	sha1)
		packed_text="blob 262" loose_text="blob 96" amb=59b7
		amb_packed=59b74 amb_loose=59b76 ;;
	sha256)
		packed_text="blob 9" loose_text="blob 132" amb=4a2d
		amb_packed=4a2d6 amb_loose=4a2de ;;
	esac &&
	git init -q amb &&
	echo "$packed_text" >amb/packed &&
	packed=$(git -C amb hash-object -w packed) &&
	echo $packed >ids &&
	git -C amb pack-objects -q .git/objects/pack/pack <ids >/dev/null &&
	git -C amb prune-packed &&
	echo "$loose_text" >amb/loose &&
	loose=$(git -C amb hash-object -w loose) &&
	loose_objects amb >files &&
	test_line_count = 1 files &&
	test_grep "/${amb%??}/" files &&
	case $packed in $amb_packed*) ;; *) false ;; esac &&
	case $loose in $amb_loose*) ;; *) false ;; esac
'

test_expect_success 'a prefix shared by a loose and a packed object is ambiguous' '
	test_expect_code 128 dirc -C amb cat-file -t $amb 2>err &&
	test_grep "^error: short object ID $amb is ambiguous" err &&
	test_grep "^fatal: Not a valid object name $amb" err &&
	echo $amb >in &&
	dirc -C amb cat-file --batch-check <in >actual 2>/dev/null &&
	echo "$amb ambiguous" >expect &&
	test_cmp expect actual
'

test_expect_success 'rev-parse --verify says why the prefix names no single object' '
	test_expect_code 128 dirc -C amb rev-parse --verify $amb >out 2>err &&
	test_must_be_empty out &&
	test_grep "^error: short object ID $amb is ambiguous" err &&
	test_grep "^fatal: Needed a single revision" err
'

test_expect_success 'one digit more picks the loose one or the packed one' '
	dirc -C amb cat-file -p $amb_loose >actual &&
	echo "$loose_text" >expect &&
	test_cmp expect actual &&
	dirc -C amb cat-file -p $amb_packed >actual &&
	echo "$packed_text" >expect &&
	test_cmp expect actual &&
	dirc -C amb rev-parse --verify $amb_packed >actual &&
	echo $packed >expect &&
	test_cmp expect actual
'

test_expect_success 'the ambiguity message lists both candidates, as git' '
	test_expect_code 128 git -C amb cat-file -t $amb 2>expect &&
	test_expect_code 128 dirc -C amb cat-file -t $amb 2>actual &&
	test_cmp expect actual
'

# Every commit in "deep", every 7th elsewhere.
test_expect_success 'read-tree of every commit and write-tree give its tree id back' '
	for r in deep v1 large refdelta thin
	do
		git -C $r log --all --format="%H %T" >all &&
		test_line_count -ge 30 all &&
		if test $r = deep
		then
			cp all commits
		else
			awk "NR % 7 == 1" all >commits
		fi &&
		loose_objects $r >loose.before &&
		while read commit tree
		do
			dirc -C $r read-tree $commit &&
			dirc -C $r write-tree >actual &&
			echo $tree >expect &&
			test_cmp expect actual || return 1
		done <commits &&
		loose_objects $r >loose &&
		test_cmp loose.before loose &&
		test_fsck_also $r || return 1
	done
'

test_expect_success 'rev-parse reads branches and tags from packed-refs' '
	git -C hist pack-refs --all &&
	test_path_is_missing hist/.git/refs/heads/master &&
	test_path_is_missing hist/.git/refs/tags/v10 &&
	names="master HEAD v10 v60 light refs/heads/master refs/tags/v30" &&
	names="$names tags/v40 heads/master v10^{} v20^{commit} v50^{tree}" &&
	git -C hist rev-parse $names >expect &&
	dirc -C hist rev-parse $names >actual &&
	test_cmp expect actual &&
	dirc -C hist rev-parse --verify v60 >actual &&
	git -C hist rev-parse --verify v60 >expect &&
	test_cmp expect actual
'

test_expect_success 'read-tree HEAD and checkout-index -a rebuild the work tree' '
	mkdir co &&
	cp -R deep/.git co/.git &&
	rm -f co/.git/index &&
	dirc -C co read-tree HEAD &&
	dirc -C co checkout-index -a &&
	diff -r -x .git hist co &&
	test -x co/exe &&
	git -C co status --porcelain >status &&
	test_must_be_empty status &&
	test_fsck_also co
'

test_expect_success 'hash-object -w of packed content: no loose object, the pack freshened' '
	cp -R hist fresh &&
	test_fsck_also fresh &&
	idx=$(packs_of fresh) &&
	pack=${idx%.idx}.pack &&
	touch -d @1000000000 "$pack" &&
	dirc -C fresh hash-object -w file sub/grow >actual &&
	git -C fresh rev-parse HEAD:file HEAD:sub/grow >expect &&
	test_cmp expect actual &&
	loose_objects fresh >loose &&
	test_must_be_empty loose &&
	test "$(mtime "$pack")" -gt 1000000000
'

test_expect_success 'update-cache --add of packed content: no loose object, the pack freshened' '
	git -C fresh ls-files >paths &&
	rm fresh/.git/index &&
	touch -d @1000000000 "$pack" &&
	(
		cd fresh &&
		dirc update-cache --add $(cat ../paths)
	) &&
	git -C fresh ls-files -s >actual &&
	git -C hist ls-files -s >expect &&
	test_cmp expect actual &&
	loose_objects fresh >loose &&
	test_must_be_empty loose &&
	test "$(mtime "$pack")" -gt 1000000000
'

test_expect_success 'write-tree of trees already packed: no loose object, the pack freshened' '
	touch -d @1000000000 "$pack" &&
	dirc -C fresh write-tree >actual &&
	git -C fresh rev-parse HEAD^{tree} >expect &&
	test_cmp expect actual &&
	loose_objects fresh >loose &&
	test_must_be_empty loose &&
	test "$(mtime "$pack")" -gt 1000000000
'

test_expect_success 'setup: fifos for a cat-file that waits for its input' '
	mkfifo to from &&
	cp -R hist race &&
	cp -R hist race2
'

# In the two tests below, "dirc cat-file" reads ids from the fifo "to"
# and answers on the fifo "from"; the test writes an id, reads the
# answer, changes the packs with git, then asks again.  A subshell holds
# both ends (and ignores SIGPIPE should dirc die); "timeout" ends a dirc
# that would wait forever, so a lost answer fails instead of hanging.

test_expect_success 'cat-file --batch-check finds an object of a pack made while it runs' '
	old=$(git -C race rev-parse HEAD:file) &&
	new=$(echo "made while cat-file runs" | git -C race hash-object --stdin) &&
	{ timeout 20 dirc -C race cat-file --batch-check <to >from 2>race.err & } &&
	pid=$! &&
	(
		trap "" PIPE &&
		exec 8>to 9<from &&
		echo $old >&8 &&
		read -r line <&9 &&
		echo "$line" >race.out &&
		echo "made while cat-file runs" |
			git -C race hash-object -w --stdin >/dev/null &&
		git -C race tag new $new &&
		git -C race repack -q -d &&
		echo $new >&8 &&
		exec 8>&- &&
		cat <&9 >>race.out
	) &&
	wait $pid &&
	loose_objects race >loose &&
	test_must_be_empty loose &&
	packs_of race >packs &&
	test_line_count = 2 packs &&
	printf "%s\n" $old $new >ids &&
	git -C race cat-file --batch-check <ids >expect &&
	test_cmp expect race.out &&
	test_must_be_empty race.err
'

test_expect_success 'cat-file --batch finds objects after repack -a replaced its pack' '
	packs_of race2 >packs.before &&
	new=$(echo "loose before the repack" | git -C race2 hash-object -w --stdin) &&
	old=$(git -C race2 rev-parse HEAD~7:sub/grow) &&
	{ timeout 20 dirc -C race2 cat-file --batch <to >from 2>race2.err & } &&
	pid=$! &&
	(
		trap "" PIPE &&
		exec 8>to 9<from &&
		echo $new >&8 &&
		read -r line <&9 &&
		read -r content <&9 &&
		read -r empty <&9 &&
		printf "%s\n" "$line" "$content" "$empty" >race2.out &&
		git -C race2 tag keep $new &&
		git -C race2 repack -q -adf &&
		printf "%s\n" $old $new >&8 &&
		exec 8>&- &&
		cat <&9 >>race2.out
	) &&
	wait $pid &&
	loose_objects race2 >loose &&
	test_must_be_empty loose &&
	packs_of race2 >packs &&
	test_line_count = 1 packs &&
	! test_cmp packs.before packs 2>/dev/null &&
	printf "%s\n" $new $old $new >ids &&
	git -C race2 cat-file --batch <ids >expect &&
	test_cmp expect race2.out &&
	test_must_be_empty race2.err
'

test_expect_success 'verify-pack: every good pack passes, silently' '
	for r in $ALL_REPOS
	do
		for idx in $(packs_of $r)
		do
			dirc -C $r verify-pack "${idx#$r/}" >out 2>err &&
			test_must_be_empty out &&
			test_must_be_empty err || return 1
		done || return 1
	done
'

test_expect_success 'verify-pack also takes the .pack name and several packs' '
	dirc verify-pack $(packs_of multi) >out &&
	test_must_be_empty out &&
	idx=$(packs_of deep) &&
	dirc verify-pack "${idx%.idx}.pack" >out &&
	test_must_be_empty out
'

test_expect_success 'verify-pack resolves reference deltas within the pack, from another repository' '
	for r in refdelta thin
	do
		dirc verify-pack $(packs_of $r) >out 2>err &&
		test_must_be_empty out &&
		test_must_be_empty err || return 1
	done
'

test_expect_success 'verify-pack -v: every good pack passes, ending in "<pack>: ok"' '
	for r in $ALL_REPOS
	do
		for idx in $(packs_of $r)
		do
			dirc -C $r verify-pack -v "${idx#$r/}" >out 2>err &&
			test_must_be_empty err &&
			tail -n 1 out >last &&
			echo "${idx#$r/}" | sed -e "s/\.idx\$/.pack: ok/" >expect &&
			test_cmp expect last || return 1
		done || return 1
	done
'

test_expect_success 'verify-pack -v: the lines of git verify-pack -v' '
	for r in hist deep multi large v1 refdelta thin
	do
		for idx in $(packs_of $r)
		do
			git verify-pack -v "$idx" >expect &&
			dirc verify-pack -v "$idx" >actual &&
			test_cmp expect actual || return 1
		done || return 1
	done
'

test_expect_success 'verify-pack -s: the statistics of git verify-pack -s' '
	idx=$(packs_of deep) &&
	git verify-pack -s "$idx" >expect &&
	dirc verify-pack -s "$idx" >actual &&
	test_cmp expect actual
'

# The format of the other hash than the default (in which the trash
# directory, outside any repository, reads packs).
case $OID_ALGO in
sha1) OTHER_ALGO=sha256 ;;
*) OTHER_ALGO=sha1 ;;
esac
SQ="'"

test_expect_success 'setup: a pack of each object format, made by git' '
	for algo in sha1 sha256
	do
		git init -q --object-format=$algo fmt-$algo &&
		echo "$algo" >fmt-$algo/file &&
		git -C fmt-$algo add file &&
		test_tick &&
		git -C fmt-$algo commit -q -m "$algo" &&
		git -C fmt-$algo repack -adq || return 1
	done
'

test_expect_success 'verify-pack --object-format: a pack of the other format, outside a repository' '
	idx=$(packs_of fmt-$OTHER_ALGO) &&
	test_must_fail dirc verify-pack "$idx" 2>err &&
	test_grep "corrupt" err &&
	dirc verify-pack --object-format=$OTHER_ALGO "$idx" >out 2>err &&
	test_must_be_empty out &&
	test_must_be_empty err &&
	git -C fmt-$OTHER_ALGO verify-pack -v "$PWD/$idx" >expect &&
	dirc verify-pack -v --object-format $OTHER_ALGO "$PWD/$idx" >actual &&
	test_cmp expect actual &&
	dirc verify-pack --object-format=$OID_ALGO "$(packs_of fmt-$OID_ALGO)" &&
	test_must_fail dirc verify-pack --object-format=$OTHER_ALGO \
		--no-object-format "$idx" 2>err &&
	test_grep "corrupt" err
'

test_expect_success 'verify-pack --object-format wins over the repository'"'"'s format' '
	other=$(packs_of fmt-$OTHER_ALGO) &&
	dirc -C fmt-$OID_ALGO verify-pack --object-format=$OTHER_ALGO \
		"$PWD/${other}" 2>err &&
	test_must_be_empty err &&
	own=$(packs_of fmt-$OID_ALGO) &&
	test_must_fail dirc -C fmt-$OID_ALGO verify-pack \
		--object-format=$OTHER_ALGO "$PWD/${own}" 2>err &&
	test_grep "corrupt" err &&
	dirc -C fmt-$OTHER_ALGO verify-pack "$PWD/$other"
'

test_expect_success 'verify-pack --object-format: an unknown format or none' '
	idx=$(packs_of fmt-$OID_ALGO) &&
	test_expect_code 1 dirc verify-pack --object-format=sha3 "$idx" \
		>out 2>err &&
	test_must_be_empty out &&
	echo "fatal: unknown hash algorithm ${SQ}sha3$SQ" >expect &&
	test_cmp expect err &&
	test_expect_code 1 dirc verify-pack --object-format= "$idx" 2>err &&
	echo "fatal: unknown hash algorithm $SQ$SQ" >expect &&
	test_cmp expect err &&
	test_expect_code 129 dirc verify-pack --object-format 2>err &&
	echo "error: option \`object-format$SQ requires a value" >expect &&
	test_cmp expect err &&
	test_expect_code 129 dirc verify-pack --object-format=sha1 2>err &&
	test_grep "usage: dirc verify-pack" err
'

test_expect_success 'verify-pack --object-format: as git, outside a repository' '
	idx=$(packs_of fmt-$OTHER_ALGO) &&
	git verify-pack -v --object-format=$OTHER_ALGO "$idx" >expect &&
	dirc verify-pack -v --object-format=$OTHER_ALGO "$idx" >actual &&
	test_cmp expect actual &&
	test_expect_code 1 git verify-pack --object-format=sha3 "$idx" \
		2>expect &&
	test_expect_code 1 dirc verify-pack --object-format=sha3 "$idx" \
		2>actual &&
	test_cmp expect actual &&
	test_expect_code 129 git verify-pack --object-format 2>expect &&
	test_expect_code 129 dirc verify-pack --object-format 2>actual &&
	test_cmp expect actual
'

test_done
