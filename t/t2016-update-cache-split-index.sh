#!/bin/sh
test_description='update-cache: the split index (core.splitIndex) as git 2.39 writes and reads it

Twin repositories, g for git and d for dirc, take the same commands;
after each the index files and the sharedindex.<id> files (named by the
hash of their content) are compared byte for byte.  Each reads the
other'"'"'s split index; the commands that read an index work on one and
those that write keep it split.  splitIndex.maxPercentChange,
splitIndex.sharedIndexExpire, core.splitIndex, --no-split-index and
GIT_TEST_SPLIT_INDEX as git.  A damaged link extension, a missing shared
index or one whose content does not match its name: git'"'"'s message, its
exit code, the repository untouched.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh

# both CMD ARGS...: "git CMD ARGS" in g, "dirc CMD ARGS" in d, each with
# the same standard input; exit code, stdout and stderr into
# {g,d}.{code,out,err}.
both () {
	cat >both.in &&
	{ (cd g && git "$@") <both.in >g.out 2>g.err; echo $? >g.code; } &&
	{ (cd d && dirc "$@") <both.in >d.out 2>d.err; echo $? >d.code; }
}

# same: both did the same, and left the same index and shared indexes.
same () {
	test_cmp g.code d.code &&
	test_cmp g.out d.out &&
	if test_have_prereq GIT_MSGS
	then
		test_cmp g.err d.err
	fi &&
	test_cmp g/.git/index d/.git/index &&
	{ (cd g/.git && ls sharedindex.* 2>/dev/null) >g.shared || :; } &&
	{ (cd d/.git && ls sharedindex.* 2>/dev/null) >d.shared || :; } &&
	test_cmp g.shared d.shared &&
	while read f
	do
		test_cmp g/.git/$f d/.git/$f || return 1
	done <g.shared
}

# steps FILE: each line of FILE a command for both, compared after each;
# at least one line.
steps () {
	n=0 &&
	while read -r line
	do
		eval "both $line" </dev/null &&
		same || { echo "^^^ after: $line" >&2; return 1; }
		n=$((n + 1))
	done <"$1" &&
	test $n -gt 0
}

# shared_count DIR: how many sharedindex.* DIR/.git holds
shared_count () {
	(cd "$1"/.git && ls sharedindex.* 2>/dev/null) >count.ls
	wc -l <count.ls | tr -d " "
}

# relink IN OUT 'PERL': OUT is the index IN with its link extension's
# data ($l in the code) changed, its checksum made right again.
relink () {
	perl -MDigest::SHA -e '
		my ($in, $out, $code, $algo, $rawsz) = @ARGV;
		open my $f, "<", $in or die "$in: $!"; binmode $f;
		local $/; my $all = <$f>; close $f;
		my $d = substr($all, 0, length($all) - $rawsz);
		my $at = rindex($d, "link");
		die "no link" if $at < 0;
		my $len = unpack("N", substr($d, $at + 4, 4));
		my $l = substr($d, $at + 8, $len);
		eval $code; die $@ if $@;
		substr($d, $at, 8 + $len) = "link" . pack("N", length($l)) . $l;
		open my $o, ">", $out or die "$out: $!"; binmode $o;
		print $o $d, Digest::SHA->new($algo eq "sha256" ? 256 : 1)->add($d)->digest;
		close $o;' \
		"$1" "$2" "$3" "$OID_ALGO" "$OID_RAWSZ"
}

# dump_index FILE: a v2/v3 index file, one line per entry (mode, id,
# flags, mtime, size, name: no stat data that differs between twins) and
# one per extension (a link without its shared index's id).
dump_index () {
	perl -e '
		my ($f, $rawsz) = @ARGV;
		open my $h, "<", $f or die "$f: $!"; binmode $h;
		local $/; my $d = <$h>; close $h;
		my ($sig, $ver, $n) = unpack("a4NN", $d);
		print "$sig $ver $n\n";
		my $p = 12;
		for (1 .. $n) {
			my @st = unpack("N10", substr($d, $p, 40));
			my $oid = unpack("H*", substr($d, $p + 40, $rawsz));
			my $fl = unpack("n", substr($d, $p + 40 + $rawsz, 2));
			my ($fixed, $ext) = (40 + $rawsz + 2, 0);
			if ($fl & 0x4000) {
				$ext = unpack("n", substr($d, $p + $fixed, 2));
				$fixed += 2;
			}
			my $nul = index($d, "\0", $p + $fixed);
			my $name = substr($d, $p + $fixed, $nul - $p - $fixed);
			printf "%o %s %04x %04x mtime=%d size=%d %s\n", $st[6],
				$oid, $fl, $ext, $st[2], $st[9], $name;
			$p += ($fixed + length($name) + 8) & ~7;
		}
		while ($p < length($d) - $rawsz) {
			my ($s, $len) = unpack("a4N", substr($d, $p, 8));
			my $x = substr($d, $p + 8, $len);
			$x = substr($x, $rawsz) if $s eq "link";
			print "$s ", unpack("H*", $x), "\n";
			$p += 8 + $len;
		}' "$1" "$OID_RAWSZ"
}

# damaged NAME CODE [stricter]: .git/index of d replaced by NAME; ls-files,
# update-cache, write-tree, diff-files, read-tree -m fail with CODE and
# leave the index and the shared indexes as they were, and no lock; git
# fails alike (unless "stricter": git reads it).
damaged () {
	cp "$1" d/.git/index &&
	(cd d/.git && cksum sharedindex.*) >before &&
	for cmd in "ls-files -s" "update-cache --add new" "write-tree" \
		   "diff-files" "read-tree -m HEAD"
	do
		{ (cd d && dirc $cmd) >out 2>err; echo $? >code; } &&
		echo $2 >expect &&
		test_cmp expect code &&
		test_must_be_empty out &&
		test_cmp "$1" d/.git/index &&
		test_path_is_missing d/.git/index.lock || return 1
	done &&
	(cd d/.git && cksum sharedindex.*) >after &&
	test_cmp before after &&
	(cd d && dirc ls-files -s) >ls.out 2>ls.err
	if test_have_prereq GIT && test "$3" != stricter
	then
		(cd d && git ls-files -s) >git-ls.out 2>git-ls.err
		echo $? >git.code &&
		test_cmp expect git.code &&
		test_cmp "$1" d/.git/index
	fi
}

test_expect_success 'setup: twin repositories, the same blobs' '
	git init -q g &&
	git init -q d &&
	echo 1 >one && echo 2 >two && echo 3 >three &&
	for r in g d
	do
		git -C $r hash-object -w --stdin </dev/null >empty &&
		git -C $r hash-object -w ../one >b1 &&
		git -C $r hash-object -w ../two >b2 &&
		git -C $r hash-object -w ../three >b3 || return 1
	done &&
	E=$(cat empty) && B1=$(cat b1) && B2=$(cat b2) && B3=$(cat b3) &&
	test_when_finished true
'

E=$(cat empty 2>/dev/null)
B1=$(cat b1 2>/dev/null)
B2=$(cat b2 2>/dev/null)
B3=$(cat b3 2>/dev/null)

test_expect_success GIT 'a sequence of update-index commands: the same index and shared indexes as git' '
	cat >steps1 <<-EOF &&
	update-index --add --cacheinfo 100644,$E,a --cacheinfo 100644,$B1,b --cacheinfo 100644,$B2,c
	update-index --split-index
	update-index --add --cacheinfo 100644,$B3,d
	update-index --cacheinfo 100755,$E,b
	update-index --force-remove c
	update-index --force-remove a --add --cacheinfo 100644,$E,e --cacheinfo 100644,$E,f
	ls-files -s
	update-index --split-index
	update-index --cacheinfo 100755,$B1,b
	update-index --assume-unchanged b
	update-index --no-assume-unchanged b
	update-index --no-assume-unchanged e
	update-index --chmod=+x e
	update-index --skip-worktree d
	update-index --index-info <info
	ls-files -s
	update-index --force-remove q
	update-index --add --cacheinfo 100644,$B2,x/y --cacheinfo 100644,$B3,x/z
	write-tree
	update-index --force-remove x/y
	write-tree
	ls-files -s --debug
	EOF
	printf "100644 %s 1\tq\n100644 %s 2\tq\n" $B1 $B2 >info &&
	steps steps1 &&
	test_file_not_empty d/.git/index &&
	test $(shared_count d) -ge 2
'

test_expect_success GIT 'git reads the split index dirc wrote; dirc reads git'"'"'s' '
	(cd d && git ls-files -s --debug) >expect &&
	(cd d && dirc ls-files -s --debug) >actual &&
	test_cmp expect actual &&
	(cd d && git write-tree) >expect &&
	(cd d && dirc write-tree) >actual &&
	test_cmp expect actual &&
	(cd g && git ls-files -s --debug) >expect &&
	(cd g && dirc ls-files -s --debug) >actual &&
	test_cmp expect actual &&
	(cd g && git rev-parse --shared-index-path) >expect &&
	(cd g && dirc rev-parse --shared-index-path) >actual &&
	test_cmp expect actual &&
	test_grep "^\.git/sharedindex\.[0-9a-f]\{$OID_HEXSZ\}$" actual
'

test_expect_success GIT 'v4, and back to v2: the same bytes' '
	cat >steps2 <<-EOF &&
	update-index --index-version 4
	update-index --split-index --add --cacheinfo 100644,$E,j
	update-index --cacheinfo 100644,$B3,b
	update-index --add --cacheinfo 100644,$E,k --cacheinfo 100644,$E,x/w
	ls-files -s
	update-index --index-version 2
	update-index --split-index
	EOF
	steps steps2
'

test_expect_success GIT 'splitIndex.maxPercentChange: 0, 100, the default 20, out of range' '
	cat >steps3 <<-EOF &&
	-c splitIndex.maxPercentChange=0 update-index --cacheinfo 100644,$E,e
	-c splitIndex.maxPercentChange=100 update-index --add --cacheinfo 100644,$E,m1 --cacheinfo 100644,$E,m2 --cacheinfo 100644,$E,m3
	update-index --add --cacheinfo 100644,$E,m4
	update-index --split-index
	update-index --add --cacheinfo 100644,$E,n1
	update-index --add --cacheinfo 100644,$E,n2
	update-index --add --cacheinfo 100644,$E,n3
	update-index --add --cacheinfo 100644,$E,n4
	-c splitIndex.maxPercentChange=50 update-index --add --cacheinfo 100644,$E,n6
	-c splitIndex.maxPercentChange=101 update-index --add --cacheinfo 100644,$E,n5
	EOF
	steps steps3 &&
	test_grep "^error: splitIndex.maxPercentChange value .101. should be between 0 and 100$" d.err
'

test_expect_success GIT 'the default 20%: a new shared index once the additions pass it' '
	cp -R d d6 &&
	(cd d6 && dirc update-index --split-index) &&
	count=$(shared_count d6) &&
	(cd d6 && dirc ls-files) >all &&
	total=$(wc -l <all) &&
	i=0 &&
	while test $((i * 100)) -le $(( (total + i) * 20 ))
	do
		i=$((i + 1)) &&
		(cd d6 && dirc update-index --add --cacheinfo 100644,$E,p$i) &&
		if test $((i * 100)) -le $(( (total + i) * 20 ))
		then
			test $(shared_count d6) = $count
		fi || return 1
	done &&
	test $(shared_count d6) = $((count + 1)) &&
	test $i -gt 1
'

test_expect_success GIT 'core.splitIndex true and false, against --split-index and --no-split-index' '
	cat >steps4 <<-EOF &&
	-c core.splitIndex=false update-index
	-c core.splitIndex=true update-index
	-c core.splitIndex=true update-index --cacheinfo 100644,$B2,b
	-c core.splitIndex=false update-index --split-index
	-c core.splitIndex=true update-index --no-split-index
	update-index --no-split-index
	-c core.splitIndex=true write-tree
	-c core.splitIndex=maybe update-index --add --cacheinfo 100644,$E,r
	update-index --split-index
	EOF
	steps steps4 &&
	both -c core.splitIndex=true update-index --no-split-index &&
	same &&
	test_grep "^warning: core.splitIndex is set to true; remove or change it, if you really want to disable split index$" d.err &&
	both -c core.splitIndex=false update-index --split-index &&
	same &&
	test_grep "^warning: core.splitIndex is set to false; remove or change it, if you really want to enable split index$" d.err
'

test_expect_success GIT '--no-split-index: the whole index again, byte for byte git'"'"'s; the shared index stays' '
	cat >steps5 <<-EOF &&
	update-index --split-index
	update-index --add --cacheinfo 100644,$E,s
	update-index --no-split-index
	EOF
	steps steps5 &&
	! grep -a -q "link" d/.git/index &&
	test $(shared_count d) -ge 1
'

test_expect_success GIT 'GIT_TEST_SPLIT_INDEX: splits as git does, its shared indexes too' '
	cat >steps6 <<-EOF &&
	update-index --add --cacheinfo 100644,$E,t1
	update-index --add --cacheinfo 100644,$E,t2
	update-index --cacheinfo 100755,$E,t1
	update-index --force-remove t2
	update-index --add --cacheinfo 100644,$B1,t3
	update-index --add --cacheinfo 100644,$B2,t4
	write-tree
	EOF
	(
		GIT_TEST_SPLIT_INDEX=1 &&
		export GIT_TEST_SPLIT_INDEX &&
		steps steps6
	)
'

test_expect_success GIT 'read-tree, checkout-index, diff-files, diff-index on a split index; read-tree keeps it split' '
	(cd d && dirc update-index --split-index && dirc write-tree) >tree &&
	(cd d && git commit-tree -m x $(cat ../tree)) >commit &&
	(cd d && git update-ref HEAD $(cat ../commit)) &&
	(cd d && dirc read-tree -m HEAD) &&
	test_grep "link" d/.git/index &&
	(cd d && dirc read-tree --reset HEAD) &&
	test_grep "link" d/.git/index &&
	(cd d && git ls-files -s) >expect &&
	(cd d && dirc ls-files -s) >actual &&
	test_cmp expect actual &&
	(cd d && dirc diff-index --cached HEAD) >actual &&
	test_must_be_empty actual &&
	(cd d && dirc checkout-index -f b e) &&
	test_grep "link" d/.git/index &&
	(cd d && git diff-files --name-only) >expect &&
	(cd d && dirc diff-files --name-only) >actual &&
	test_cmp expect actual &&
	(cd d && git ls-files -s --debug) >expect &&
	(cd d && dirc ls-files -s --debug) >actual &&
	test_cmp expect actual
'

test_expect_success GIT 'a plain read-tree and read-tree --empty write the whole index, as git (core.splitIndex too)' '
	cp -R d d10 &&
	cp -R d d10g &&
	(cd d10 && dirc -c core.splitIndex=true read-tree HEAD) &&
	(cd d10g && git -c core.splitIndex=true read-tree HEAD) &&
	test_cmp d10g/.git/index d10/.git/index &&
	! grep -a -q link d10/.git/index &&
	(cd d10 && dirc update-index --split-index && dirc read-tree --empty) &&
	(cd d10g && git update-index --split-index && git read-tree --empty) &&
	test_cmp d10g/.git/index d10/.git/index
'

test_expect_success GIT 'files from the work tree, a racily clean one changed: the same entries where git puts them, smudged as git' '
	git init -q gw &&
	git init -q dw &&
	for r in gw dw
	do
		(
			cd $r &&
			# a changed ctime would tell the change: not racy then
			git config core.trustctime false &&
			echo 1 >f1 && echo 2 >f2 && echo 3 >f3 && echo 4 >f4 &&
			touch -d @1000000000 f1 f2 f4 &&
			touch -d @4000000000 f3
		) || return 1
	done &&
	(cd gw && git update-index --split-index --add f1 f2 f3) &&
	(cd dw && dirc update-index --split-index --add f1 f2 f3) &&
	for r in gw dw
	do
		(
			cd $r &&
			echo 9 >f3 && touch -d @4000000000 f3 &&
			echo 5 >f5 && touch -d @1000000000 f5
		) || return 1
	done &&
	(cd gw && git update-index --add f5) &&
	(cd dw && dirc update-index --add f5) &&
	for r in gw dw
	do
		dump_index $r/.git/index >$r.index &&
		dump_index $r/$(git -C $r rev-parse --shared-index-path) \
			>$r.shared || return 1
	done &&
	test_cmp gw.index dw.index &&
	test_cmp gw.shared dw.shared &&
	test_grep "size=0 $" dw.index &&
	(cd dw && git diff-files --name-only) >expect &&
	(cd dw && dirc diff-files --name-only) >actual &&
	test_cmp expect actual &&
	echo f3 >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'a shared index in use is freshened: by a read and by a write' '
	shared=$(cd d && dirc rev-parse --shared-index-path) &&
	touch -d @1000000000 d/$shared &&
	(cd d && dirc ls-files) >/dev/null &&
	test $(stat -c %Y d/$shared) -gt 1000000000 &&
	touch -d @1000000000 d/$shared &&
	(cd d && dirc update-index --cacheinfo 100755,$B1,b) &&
	test $(stat -c %Y d/$shared) -gt 1000000000
'

test_expect_success GIT 'splitIndex.sharedIndexExpire: the default two weeks, "now", "never"; a date to come: read (and refused) only with an old shared index, as git' '
	(cd d && dirc update-index --split-index) &&
	keep=$(cd d && dirc rev-parse --shared-index-path) &&
	old=d/.git/sharedindex.$(test_oid_fake 1a) &&
	young=d/.git/sharedindex.$(test_oid_fake 2b) &&
	cp d/$keep $old && cp d/$keep $young &&
	touch -d "@$(($(date +%s) - 15 * 86400))" $old &&
	touch -d "@$(($(date +%s) - 13 * 86400))" $young &&
	(cd d && dirc update-index --split-index) &&
	test_path_is_missing $old &&
	test_path_is_file $young &&
	test_path_is_file d/$keep &&
	now=$(cd d && dirc rev-parse --shared-index-path) &&
	cp d/$now $old &&
	touch -d "@$(($(date +%s) - 100 * 86400))" $old &&
	(cd d && dirc -c splitIndex.sharedIndexExpire=never update-index --split-index) &&
	test_path_is_file $old &&
	test_path_is_file $young &&
	(cd d && dirc -c splitIndex.sharedIndexExpire=now update-index --split-index) &&
	test_path_is_missing $old &&
	test_path_is_missing $young &&
	test $(shared_count d) = 1 &&
	(cd d && dirc -c splitIndex.sharedIndexExpire=tomorrow \
		update-index --split-index) &&
	cp d/.git/index before &&
	cp d/$now $old &&
	test_expect_code 128 dirc -C d -c splitIndex.sharedIndexExpire=tomorrow \
		update-index --split-index 2>err &&
	test_grep "^error: Invalid splitindex.sharedindexexpire: .tomorrow.$" err &&
	test_cmp before d/.git/index &&
	test_path_is_missing d/.git/index.lock &&
	test_expect_code 128 git -C d -c splitIndex.sharedIndexExpire=tomorrow \
		update-index --split-index 2>err &&
	test_grep "^error: Invalid splitindex.sharedindexexpire: .tomorrow.$" err
'

test_expect_success GIT 'damaged link extension: too short, garbage after it, a bad EWAH bitmap' '
	(cd d && dirc update-index --add --cacheinfo 100644,$E,z1 \
		--cacheinfo 100644,$E,z2 --cacheinfo 100644,$E,z3 &&
	 dirc update-index --split-index &&
	 dirc update-index --force-remove z1 --cacheinfo 100755,$B2,z2 &&
	 dirc update-index --add --cacheinfo 100644,$E,z4) &&
	cp d/.git/index good &&
	relink good short "\$l = substr(\$l, 0, 5)" &&
	damaged short 128 &&
	test_grep "^error: corrupt link extension (too short)$" err &&
	test_grep "^fatal: index file corrupt$" err &&
	relink good garbage "\$l .= \"x\"" &&
	damaged garbage 128 &&
	test_grep "^error: garbage at the end of link extension$" err &&
	relink good ewah "\$l = substr(\$l, 0, $OID_RAWSZ + 6)" &&
	damaged ewah 128 &&
	test_grep "^error: corrupt ewah bitmap: eof before length$" err &&
	test_grep "^error: corrupt delete bitmap in link extension$" err &&
	test_grep "^fatal: index file corrupt$" err &&
	relink good ewah2 "substr(\$l, $OID_RAWSZ + 4, 4) = pack(\"N\", 1000)" &&
	damaged ewah2 128 &&
	test_grep "^error: corrupt ewah bitmap: eof in data (.* bytes short)$" err &&
	relink good overlong "\$l = substr(\$l, 0, $OID_RAWSZ) .
		pack(\"N7\", 64, 2, 5 << 1, 0, 0, 1, 0) .
		pack(\"N5\", 0, 1, 0, 0, 0)" &&
	damaged overlong 128 &&
	test_grep "^fatal: corrupt link extension: a bitmap runs past its words$" err &&
	if test_have_prereq GIT_MSGS
	then
		for f in short garbage ewah
		do
			cp $f d/.git/index &&
			! git -C d ls-files 2>git.err &&
			test_must_fail dirc -C d ls-files 2>dirc.err &&
			test_cmp git.err dirc.err || return 1
		done
	fi
'

test_expect_success GIT 'a bitmap naming an entry the shared index does not have: git'"'"'s message, 128' '
	# delete: 300 bits, a marker (4 clean words, 1 literal) and bit
	# 4 * 64 + 8; replace: empty
	relink good far "\$l = substr(\$l, 0, $OID_RAWSZ) .
		pack(\"N7\", 300, 2, 2, 4 << 1, 0, 1 << 8, 0) .
		pack(\"N5\", 0, 1, 0, 0, 0)" &&
	damaged far 128 &&
	test_grep "^fatal: position for delete 264 exceeds base index size [0-9]*$" err &&
	if test_have_prereq GIT_MSGS
	then
		cp far d/.git/index &&
		! git -C d ls-files 2>git.err &&
		test_must_fail dirc -C d ls-files 2>dirc.err &&
		test_cmp git.err dirc.err
	fi
'

test_expect_success GIT 'the shared index missing: git'"'"'s message, 128, nothing written' '
	cp good d/.git/index &&
	shared=$(cd d && dirc rev-parse --shared-index-path) &&
	mv d/$shared moved &&
	test_when_finished "mv moved d/$shared" &&
	test_expect_code 128 dirc -C d ls-files 2>err &&
	test_grep "^fatal: .*\.git/sharedindex\.[0-9a-f]*: index file open failed: No such file or directory$" err &&
	test_expect_code 128 dirc -C d update-cache --add new 2>err &&
	test_cmp good d/.git/index &&
	test_path_is_missing d/.git/index.lock &&
	test_expect_code 128 git -C d ls-files 2>git.err &&
	test_grep "index file open failed: No such file or directory$" git.err
'

test_expect_success GIT 'a shared index whose content is not its name: git'"'"'s "broken index", 128' '
	cp good d/.git/index &&
	shared=$(cd d && dirc rev-parse --shared-index-path) &&
	cp d/$shared saved &&
	test_when_finished "cp saved d/$shared" &&
	git -C g update-index --no-split-index &&
	cp g/.git/index d/$shared &&
	test_expect_code 128 dirc -C d ls-files 2>err &&
	test_grep "^fatal: broken index, expect [0-9a-f]\{$OID_HEXSZ\} in .*\.git/sharedindex\.[0-9a-f]*, got [0-9a-f]\{$OID_HEXSZ\}$" err &&
	test_expect_code 128 dirc -C d write-tree 2>err &&
	test_cmp good d/.git/index &&
	test_expect_code 128 git -C d ls-files 2>git.err &&
	test_grep "^fatal: broken index, expect" git.err
'

test_expect_success GIT 'a shared index gets core.sharedRepository'"'"'s permissions, as git'"'"'s does' '
	rm -rf g d &&
	git init -q g &&
	git init -q d &&
	for mode in group 0600
	do
		both -c core.sharedRepository=$mode update-index --add \
			--cacheinfo 100644,$E,perm-$mode --split-index &&
		same &&
		(cd g/.git && stat -c "%a %n" sharedindex.*) >g.perm &&
		(cd d/.git && stat -c "%a %n" sharedindex.*) >d.perm &&
		test_cmp g.perm d.perm || return 1
	done &&
	test_grep "^664 " d.perm &&
	test_grep "^600 " d.perm
'

test_expect_success GIT 'GIT_INDEX_FILE elsewhere: the shared index in the git directory, as git' '
	mkdir -p g/elsewhere d/elsewhere &&
	both -c core.splitIndex=true update-index --add \
		--cacheinfo 100644,$E,a &&
	(cd g && GIT_INDEX_FILE=$PWD/elsewhere/idx git update-index --add \
		--cacheinfo 100644,$E,a --split-index) &&
	(cd d && GIT_INDEX_FILE=$PWD/elsewhere/idx dirc update-index --add \
		--cacheinfo 100644,$E,a --split-index) &&
	test_cmp g/elsewhere/idx d/elsewhere/idx &&
	(cd g && GIT_INDEX_FILE=$PWD/elsewhere/idx git ls-files -s) >expect &&
	(cd d && GIT_INDEX_FILE=$PWD/elsewhere/idx dirc ls-files -s) >actual &&
	test_cmp expect actual &&
	ls d/elsewhere >actual &&
	echo idx >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'a shared index with entries out of order: corrupt, 128 (stricter: git reads it)' '
	(cd d && dirc update-index --add --cacheinfo 100644,$E,o1 --split-index) &&
	cp d/.git/index good2 &&
	perl -MDigest::SHA -e '"'"'
		my ($algo, $rawsz, $id) = @ARGV;
		my $d = "DIRC" . pack("NN", 2, 2);
		for my $name ("zz", "aa") {
			my $ent = pack("N10", 0, 0, 0, 0, 0, 0, 0100644, 0, 0, 0) .
				pack("H*", $id) . pack("n", length $name) . $name;
			$ent .= "\0" x (8 - length($ent) % 8);
			$d .= $ent;
		}
		my $sum = Digest::SHA->new($algo eq "sha256" ? 256 : 1)->add($d);
		my $hex = $sum->clone->hexdigest;
		open my $o, ">", "d/.git/sharedindex.$hex" or die; binmode $o;
		print $o $d, $sum->digest; close $o;
		print "$hex\n";'"'"' "$OID_ALGO" "$OID_RAWSZ" "$E" >unsorted.id &&
	relink good2 unsorted "\$l = pack(\"H*\", \"$(cat unsorted.id)\") .
		pack(\"N5\", 0, 1, 0, 0, 0) . pack(\"N5\", 0, 1, 0, 0, 0)" &&
	damaged unsorted 128 stricter &&
	test_grep "^fatal: index file .*sharedindex\.$(cat unsorted.id). is corrupt: entries out of order near .aa.$" err
'

test_expect_success GIT 'a replacement with mode 040000 for a name without a slash: corrupt, 128 (stricter: git reads it)' '
	cp good2 d/.git/index &&
	(cd d && dirc update-index --add --cacheinfo 100644,$E,o3 --split-index &&
	 dirc update-index --cacheinfo 100755,$E,o3) &&
	cp d/.git/index good3 &&
	relink good3 dirmode "substr(\$d, 36, 4) = pack(\"N\", 040000)" &&
	damaged dirmode 128 stricter &&
	test_grep "corrupt link extension: directory entry .o3. (mode 040000) does not end in ./.$" err &&
	cp good3 d/.git/index
'

test_expect_success GIT 'random sequences on shared entries, changed in place or replaced, in v2, v3 and v4: git'"'"'s bytes after every step' '
	for seed in 1 2 3
	do
		rm -rf g d &&
		git init -q g && git init -q d &&
		for r in g d
		do
			for b in 1 2 3 4
			do
				echo $b$seed | git -C $r hash-object -w --stdin ||
					return 1
			done >ids || return 1
		done &&
		awk -v seed=$seed -v ids="$(cat ids | tr "\n" " ")" "
		BEGIN {
			srand(seed); n = split(ids, id, \" \")
			for (i = 0; i < 12; i++)
				printf \"update-index --add --cacheinfo 100644,%s,p%02d\\n\", id[1 + i % n], i
			print \"update-index --split-index\"
			for (s = 0; s < 40; s++) {
				p = sprintf(\"p%02d\", int(rand() * 14)); r = rand()
				if (r < 0.2)
					printf \"update-index --add --cacheinfo %s,%s,%s\\n\", (rand() < 0.5 ? \"100644\" : \"100755\"), id[1 + int(rand() * n)], p
				else if (r < 0.3)
					printf \"update-index --chmod=%sx %s\\n\", (rand() < 0.5 ? \"+\" : \"-\"), p
				else if (r < 0.4)
					printf \"update-index --%sassume-unchanged %s\\n\", (rand() < 0.5 ? \"\" : \"no-\"), p
				else if (r < 0.5)
					printf \"update-index --%sskip-worktree %s\\n\", (rand() < 0.5 ? \"\" : \"no-\"), p
				else if (r < 0.6)
					printf \"update-index --force-remove %s\\n\", p
				else if (r < 0.7)
					printf \"update-index --index-version %d\\n\", 2 + int(rand() * 3)
				else if (r < 0.75)
					print \"update-index --split-index\"
				else if (r < 0.85)
					print \"write-tree\"
				else
					print \"ls-files -s --debug\"
			}
		}" >steps.$seed &&
		steps steps.$seed || { cat steps.$seed >&2; return 1; }
	done
'

test_expect_success GIT 'refresh of shared entries: new stat data, and --really-refresh dropping assume-unchanged, go to the split part as git puts them' '
	rm -rf rf && git init -q rf &&
	for i in 1 2 3 4 5
	do
		echo $i >rf/f$i || return 1
	done &&
	touch -t 202001010000 rf/f* &&
	(cd rf && git update-index --add f1 f2 f3 f4 f5 &&
	 git update-index --split-index &&
	 git update-index --assume-unchanged f3 f4) &&
	touch -t 202001020000 rf/f2 &&
	echo changed >rf/f3 && touch -t 202001010000 rf/f3 &&
	cp rf/.git/index rf-index &&
	for opt in --refresh --really-refresh
	do
		cp rf-index rf/.git/index &&
		{ (cd rf && git update-index $opt) >/dev/null || :; } &&
		cp rf/.git/index want &&
		cp rf-index rf/.git/index &&
		{ (cd rf && dirc update-index $opt) >/dev/null || :; } &&
		cmp want rf/.git/index &&
		(cd rf && git ls-files --debug f2 f3) >ls &&
		test_grep "mtime: 1577923200:" ls || return 1
	done &&
	(cd rf && git ls-files -v f3 f4) >ls &&
	test_write_lines "H f3" "h f4" >expect &&
	test_cmp expect ls
'

test_done
