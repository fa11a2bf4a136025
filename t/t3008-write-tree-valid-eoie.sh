#!/bin/sh
test_description='write-tree on a valid cache-tree found through EOIE

When the index ends with a valid EOIE, its TREE is read before the
entries; if it is fully valid (and there is no link extension), write-tree
needs nothing else, and dirc only checks the entries without keeping them
(the trace counts "entries checked, not kept").  Everything must stay as
a whole read has it: the tree id and index bytes of git, a TREE invalid
anywhere (or a root tree not stored) read whole, split and sparse indexes
read whole, and a damaged entry behind a valid TREE refused with the very
message, code and untouched index that the same damage gets without EOIE
(where the entries are read whole, as before).'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh

T0=1500000000

# wt_trace [ARGS]: dirc write-tree ARGS with the trace on: stdout in
# actual, the trace in trace.
wt_trace () {
	DIRC_TRACE_PERF=1 dirc write-tree "$@" >actual 2>trace
}

# checked_only N: the last wt_trace checked N entries and kept none.
checked_only () {
	test_grep "entries checked, not kept  *$1$" trace &&
	test_grep -v "entries read" trace
}

# read_whole: the last wt_trace read the entries (none only checked).
read_whole () {
	test_grep "entries read" trace &&
	test_grep -v "entries checked" trace
}

# has_exts SIG...: .git/index holds these extensions.
has_exts () {
	for s in "$@"
	do
		grep -q "$s" .git/index || { echo "no $s" >&2 && return 1; }
	done
}

# same_without_eoie FILE: the index FILE (damaged or not) and the same
# bytes without their EOIE make dirc write-tree say and do the same (the
# file without EOIE is read whole, as before the light read); dirc's
# exit code in wt.code, its stderr in wt.err.
same_without_eoie () {
	perl damage.pl "$1" noeoie.index noeoie 0 $OID_RAWSZ $OID_ALGO &&
	cp noeoie.index .git/index &&
	{ dirc write-tree >whole.out 2>whole.err; echo $? >whole.code; } &&
	cp noeoie.index expect.index &&
	test_cmp expect.index .git/index &&
	cp "$1" .git/index &&
	{ dirc write-tree >wt.out 2>wt.err; echo $? >wt.code; } &&
	test_cmp whole.code wt.code &&
	test_cmp whole.out wt.out &&
	test_cmp whole.err wt.err &&
	test_path_is_missing .git/index.lock &&
	if test "$(cat wt.code)" != 0
	then
		test_cmp "$1" .git/index
	fi
}

test_expect_success 'setup: the damage script' '
	cat >damage.pl <<-\EOF &&
	# damage.pl IN OUT CASE K RAWSZ ALGO [ID]: OUT is the index IN with
	# damage CASE done to entry K (or the first one after it that the
	# case fits), its trailing hash recomputed.  noeoie: IN without its
	# EOIE; zzzz: an unknown optional extension before EOIE (its hash
	# made again); flip: a byte of entry K % n from its mode on (K
	# odd: from its flags on) XORed with 0x5a;
	# dirslash: entry K made a sparse directory (of tree ID).
	use strict;
	use Digest::SHA;
	my ($in, $out, $case, $k, $raw, $algo) = @ARGV;
	open my $f, "<:raw", $in or die "$in: $!";
	local $/;
	my $all = <$f>;
	close $f;
	my $d = substr($all, 0, length($all) - $raw);
	sub out {
		open my $g, ">:raw", $out or die "$out: $!";
		print $g $d,
			Digest::SHA->new($algo eq "sha256" ? 256 : 1)->add($d)->digest;
		close $g;
		exit 0;
	}
	my $eoie = length($d) - 12 - $raw;
	substr($d, $eoie, 4) eq "EOIE" or die "no EOIE\n";
	if ($case eq "noeoie") {
		substr($d, $eoie) = "";
		out();
	}
	my $fix = 40 + $raw;
	my ($v, $n) = unpack "x4 N N", $d;
	my (@o, @np, @strip);
	my $o = 12;
	for (1 .. $n) {
		push @o, $o;
		my $fl = unpack "n", substr($d, $o + $fix, 2);
		my $p = $o + $fix + (($fl & 0x4000) ? 4 : 2);
		if ($v == 4) {
			my $b = vec($d, $p++, 8);
			my $s = $b & 127;
			while ($b & 128) {
				$b = vec($d, $p++, 8);
				$s = (($s + 1) << 7) | ($b & 127);
			}
			push @strip, $s;
			push @np, $p;
			$o = index($d, "\0", $p) + 1;
		} else {
			push @np, $p;
			$o += (index($d, "\0", $p) - $o + 8) & ~7;
		}
	}
	my $ext = unpack "N", substr($d, $eoie + 8, 4);
	$ext == $o or die "EOIE does not point after the entries\n";
	sub flags { my $e = shift; return unpack "n", substr($d, $e + $fix, 2); }
	sub setflags { my ($e, $x) = @_; substr($d, $e + $fix, 2) = pack "n", $x; }
	if ($case eq "zzzz") {
		substr($d, $eoie, 0) = "ZZZZ" . pack("N", 5) . "hello";
		$eoie += 13;
		my $h = Digest::SHA->new($algo eq "sha256" ? 256 : 1);
		for (my $x = $ext; $x < $eoie;
		     $x += 8 + unpack "N", substr($d, $x + 4, 4)) {
			$h->add(substr($d, $x, 8));
		}
		substr($d, $eoie + 12, $raw) = $h->digest;
	} elsif ($case eq "flip") {
		# in entry K % n, from its mode on (K odd: its flags on)
		my $e = $k % $n;
		my $end = $e + 1 < $n ? $o[$e + 1] : $ext;
		my $from = $o[$e] + (($k & 1) ? $fix : 24);
		my $at = $from + (int($k / $n) * 7) % ($end - $from);
		substr($d, $at, 1) ^= "\x5a";
	} elsif ($case eq "order") {
		# a name byte below the one before it where they part
		$k++ while $v == 4 && !$strip[$k];
		substr($d, $np[$k], 1) = "!";
	} elsif ($case eq "ext2") {
		setflags($o[$k], flags($o[$k]) | 0x4000);
	} elsif ($case eq "len") {
		setflags($o[$k], flags($o[$k]) + 1);
	} elsif ($case eq "nul") {
		substr($d, $np[$k] + 1, 1) = "\0";
	} elsif ($case eq "dir") {
		substr($d, $o[$k] + 24, 4) = pack "N", 040000;
	} elsif ($case eq "dirslash") {
		# a sparse directory entry "<name>/" where a file was
		$v != 4 or die "dirslash: v2 or v3 only\n";
		my $len = flags($o[$k]) & 0xfff;
		my $next = $o[$k] + (($np[$k] - $o[$k] + $len + 8) & ~7);
		$len + 1 < $next - $np[$k] or die "no room for the slash\n";
		substr($d, $np[$k] + $len, 1) = "/";
		setflags($o[$k], flags($o[$k]) + 1);
		substr($d, $o[$k] + 24, 4) = pack "N", 040000;
		substr($d, $o[$k] + 40, $raw) = pack "H*", $ARGV[6] if @ARGV > 6;
	} elsif ($case eq "count-") {
		substr($d, 8, 4) = pack "N", $n - 1;
	} elsif ($case eq "count+") {
		substr($d, 8, 4) = pack "N", $n + 1;
	} elsif ($case eq "extflags") {
		$k++ while !(flags($o[$k]) & 0x4000);
		substr($d, $o[$k] + $fix + 2, 2) = pack "n", 0x8000;
	} elsif ($case eq "strip") {
		substr($d, $np[$k] - 1, 1) = "\x7f";
	} else {
		die "unknown case $case\n";
	}
	out();
	EOF
	perl -c damage.pl 2>err &&
	test_grep "syntax OK" err
'

test_expect_success GIT 'setup: 49 entries in five directories, index.threads=4: v2, v3 and v4 indexes with a valid TREE, EOIE and IEOT' '
	mkdir -p a/b c d &&
	for i in $(test_seq 12)
	do
		echo "a $i" >a/f$i &&
		echo "b $i" >a/b/g$i &&
		echo "c $i" >c/h$i &&
		echo "d $i" >d/k$i || return 1
	done &&
	echo top >top &&
	touch -d @$T0 a/f* a/b/g* c/h* d/k* top &&
	git config index.threads 4 &&
	git update-index --add a/f* a/b/g* c/h* d/k* top &&
	git write-tree >tree &&
	has_exts TREE IEOT EOIE &&
	cp .git/index v2.index &&
	git update-index --skip-worktree a/f3 c/h7 &&
	git write-tree >tree3 &&
	test_cmp tree tree3 &&
	has_exts TREE IEOT EOIE &&
	cp .git/index v3.index &&
	git update-index --no-skip-worktree a/f3 c/h7 &&
	git update-index --index-version 4 &&
	git write-tree >tree4 &&
	test_cmp tree tree4 &&
	has_exts TREE IEOT EOIE &&
	cp .git/index v4.index
'

for v in 2 3 4
do
	test_expect_success GIT "v$v: a valid TREE through EOIE: git's root, the entries checked and not kept" '
		cp v$v.index .git/index &&
		compare_with_git write-tree &&
		test_cmp tree dirc.out &&
		test_cmp v$v.index .git/index &&
		wt_trace &&
		test_cmp tree actual &&
		checked_only 49 &&
		for p in a/ a a/b/ c d/
		do
			compare_with_git write-tree --prefix=$p || return 1
		done &&
		compare_with_git write-tree --prefix=nothere/ &&
		test_cmp v$v.index .git/index
	'
done

test_expect_success GIT 'a TREE invalid at the root, or partly, or missing: the entries read whole, git'"'"'s bytes' '
	cp v2.index .git/index &&
	echo new >c/new &&
	touch -d @$T0 c/new &&
	git update-index --add c/new &&
	has_exts TREE EOIE &&
	compare_with_git write-tree &&
	cp .git/index.start .git/index &&
	wt_trace &&
	read_whole &&
	cp v4.index .git/index &&
	git update-index --force-remove a/b/g4 &&
	compare_with_git write-tree &&
	cp .git/index.start .git/index &&
	wt_trace &&
	read_whole &&
	rm .git/index &&
	git update-index --add a/f* a/b/g* top &&
	! grep -q TREE .git/index &&
	has_exts EOIE &&
	compare_with_git write-tree &&
	cp .git/index.start .git/index &&
	wt_trace &&
	read_whole &&
	cp v2.index .git/index &&
	compare_with_git write-tree --ignore-cache-tree
'

test_expect_success GIT 'a valid TREE whose root tree is not stored: written again from the entries, as git' '
	cp v3.index .git/index &&
	t=$(cat tree) &&
	obj=.git/objects/$(echo $t | cut -c1-2)/$(echo $t | cut -c3-) &&
	test_path_is_file $obj &&
	rm -f $obj &&
	{ git write-tree >git.out 2>git.err; echo $? >git.code; } &&
	mv .git/index index.by-git &&
	test_path_is_file $obj &&
	rm -f $obj &&
	cp v3.index .git/index &&
	DIRC_TRACE_PERF=1 dirc write-tree >dirc.out 2>trace &&
	test_cmp git.out dirc.out &&
	test_cmp tree dirc.out &&
	test_path_is_file $obj &&
	test_grep "entries checked, not kept  *49$" trace &&
	test_grep "entries read  *49$" trace &&
	test_cmp index.by-git .git/index
'

test_expect_success GIT 'an unknown optional extension beside a valid TREE: one "ignoring" line, as git' '
	perl damage.pl v2.index .git/index zzzz 0 $OID_RAWSZ $OID_ALGO &&
	compare_with_git write-tree &&
	echo "ignoring ZZZZ extension" >expect &&
	test_cmp expect dirc.err &&
	test_cmp tree dirc.out &&
	wt_trace &&
	checked_only 49
'

test_expect_success GIT,SHA1 'a bad IEOT version beside a valid TREE: reported once, as git' '
	cp v2.index .git/index &&
	perl -e '"'"'
		open my $f, "+<:raw", ".git/index" or die; local $/;
		my $d = <$f>; my $i = index($d, "IEOT"); $i > 0 or die;
		seek $f, $i + 8, 0; print $f pack("N", 2);
	'"'"' &&
	compare_with_git write-tree &&
	echo "error: invalid IEOT version 2" >expect &&
	test_cmp expect dirc.err &&
	test_cmp tree dirc.out &&
	wt_trace &&
	checked_only 49
'

test_expect_success GIT 'EOIE without IEOT (index.recordEndOfIndexEntries): the same light read' '
	test_when_finished "git config --unset index.recordEndOfIndexEntries; git config index.threads 4" &&
	git config --unset index.threads &&
	git config index.recordEndOfIndexEntries true &&
	cp v2.index .git/index &&
	git update-index --force-write-index &&
	has_exts TREE EOIE &&
	! grep -q IEOT .git/index &&
	compare_with_git write-tree &&
	test_cmp tree dirc.out &&
	wt_trace &&
	checked_only 49
'

# The cases of damage.pl, one a line: "VERSION CASE ENTRY MESSAGE" (the
# message a part of the fatal line).
cat >cases <<\EOF
2 order 5 entries out of order near
3 order 20 entries out of order near
4 order 30 entries out of order near
2 ext2 7 extended flags in a version 2 index
2 len 9 entry name length does not match its flags
4 len 9 entry name length does not match its flags
2 nul 3 entry name length does not match its flags
3 extflags 0 unknown index entry format 0x80000000
4 strip 12 malformed name field in the index
2 dir 4 does not end in
4 dir 40 does not end in
2 count- 0 .
4 count- 0 .
2 count+ 0 .
3 count+ 0 .
EOF

test_expect_success GIT 'a damaged entry behind a valid TREE: refused as without EOIE, 128, index untouched' '
	rounds=0 &&
	while read -r v case k msg
	do
		perl damage.pl v$v.index bad.index $case $k $OID_RAWSZ $OID_ALGO &&
		same_without_eoie bad.index &&
		echo 128 >expect &&
		test_cmp expect wt.code &&
		test_must_be_empty wt.out &&
		test_grep "^fatal: .*$msg" wt.err &&
		rounds=$((rounds + 1)) ||
		{ echo "case: $v $case $k" && return 1; }
	done <cases &&
	test $rounds = 15
'

test_expect_success GIT 'a sparse directory entry behind a valid TREE: read whole, as without EOIE' '
	perl damage.pl v2.index bad.index dirslash 48 $OID_RAWSZ $OID_ALGO &&
	same_without_eoie bad.index &&
	test_grep "unable to expand sparse directory .top/." wt.err &&
	c=$(git rev-parse $(cat tree):c) &&
	perl damage.pl v2.index bad.index dirslash 48 $OID_RAWSZ $OID_ALGO $c &&
	same_without_eoie bad.index &&
	cp bad.index .git/index &&
	wt_trace &&
	test_cmp wt.out actual &&
	read_whole
'

test_expect_success GIT 'bytes flipped in the entries behind a valid TREE: the same result as without EOIE' '
	rounds=0 failed=0 &&
	for v in 2 3 4
	do
		for i in $(test_seq 0 39)
		do
			k=$((i * 37)) &&
			perl damage.pl v$v.index bad.index flip $k $OID_RAWSZ $OID_ALGO &&
			same_without_eoie bad.index &&
			if test "$(cat wt.code)" != 0
			then
				failed=$((failed + 1))
			else
				test_cmp tree wt.out
			fi &&
			rounds=$((rounds + 1)) ||
			{ echo "v$v, flip $k" && return 1; }
		done || return 1
	done &&
	echo "$rounds rounds, $failed refused" &&
	test $rounds = 120 &&
	test $failed -gt 25 &&
	test $failed -lt 100
'

test_expect_success GIT 'a split index with a valid TREE and EOIE: read whole, git'"'"'s answer' '
	cp v2.index .git/index &&
	git update-index --split-index &&
	has_exts link TREE EOIE &&
	compare_with_git write-tree &&
	test_cmp tree dirc.out &&
	wt_trace &&
	read_whole &&
	cp .git/index.start .git/index &&
	git update-index --no-split-index
'

test_expect_success GIT 'a sparse index with a valid TREE and EOIE: read whole, as git' '
	git init -q sp &&
	(
		cd sp &&
		git config index.threads 2 &&
		mkdir -p a/b c/d e &&
		for f in top a/f a/b/g c/h c/d/i e/j
		do
			echo $f >$f || return 1
		done &&
		git add . &&
		git commit -q -m one &&
		git sparse-checkout init --cone --sparse-index &&
		git sparse-checkout set a >/dev/null 2>&1 &&
		git ls-files --sparse -s >sparse &&
		grep "^040000 .*	c/$" sparse &&
		git write-tree >/dev/null &&
		has_exts TREE EOIE sdir &&
		compare_with_git write-tree &&
		git rev-parse HEAD^{tree} >expect &&
		test_cmp expect dirc.out &&
		wt_trace &&
		test_grep -v "entries checked" trace
	)
'

test_done
