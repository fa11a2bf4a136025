#!/bin/sh
test_description='EOIE and IEOT: written exactly when git writes them, used when reading

git 2.39 writes EOIE (end of index entries) and IEOT (index entry offset
table) when index.threads is set to anything but 1, or as
index.recordEndOfIndexEntries and index.recordOffsetTable say; dirc must
write the same bytes (blocks, v4 prefix restarts, the EOIE hash of the
repository'"'"'s algorithm).  When reading, a valid EOIE finds the
extensions and an IEOT lets dirc parse the entries on several threads,
with the serial parse'"'"'s result; a bad EOIE is ignored silently, a bad
IEOT version is reported as git reports it, and any other damage to the
table falls back to the serial parse (git 2.39 reads wrong entries or
crashes there).'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh

T0=1112000000

# exts [FILE]: "SIG SIZE" for each extension from EOIE's offset (the
# file must have a valid-looking EOIE), EOIE included.
exts () {
	perl -e '
		open my $f, "<:raw", $ARGV[0] or die; local $/; my $d = <$f>;
		my $raw = $ARGV[1]; my $at = length($d) - $raw - 12 - $raw;
		substr($d, $at, 4) eq "EOIE" or die "no EOIE\n";
		my $o = unpack "N", substr($d, $at + 8, 4);
		while ($o + 8 <= length($d) - $raw) {
			my ($sig, $len) = unpack "a4 N", substr($d, $o, 8);
			print "$sig $len\n";
			$o += 8 + $len;
		}' "${1:-.git/index}" "$OID_RAWSZ"
}

# ieot [FILE]: the IEOT data as numbers: version, then offset and count
# of each block.
ieot () {
	perl -e '
		open my $f, "<:raw", $ARGV[0] or die; local $/; my $d = <$f>;
		my $i = index($d, "IEOT"); $i >= 0 or die "no IEOT\n";
		my $len = unpack "N", substr($d, $i + 4, 4);
		print join(" ", unpack("N*", substr($d, $i + 8, $len))), "\n";
		' "${1:-.git/index}"
}

# entry_offsets [FILE]: the offset of each entry, one a line (v2-v4).
entry_offsets () {
	perl -e '
		open my $f, "<:raw", $ARGV[0] or die; local $/; my $d = <$f>;
		my $fix = 40 + $ARGV[1];
		my ($v, $n) = unpack "x4 N N", $d; my $o = 12;
		for (1 .. $n) {
			print "$o\n";
			my $fl = unpack "n", substr($d, $o + $fix, 2);
			my $p = $o + $fix + (($fl & 0x4000) ? 4 : 2);
			if ($v == 4) {
				$p++ while vec($d, $p, 8) & 0x80;
				$o = index($d, "\0", $p + 1) + 1;
			} else {
				$o += (index($d, "\0", $p) - $o + 8) & ~7;
			}
		}' "${1:-.git/index}" "$OID_RAWSZ"
}

# poke SIG AT VALUE...: in .git/index, the 32-bit numbers from AT bytes
# into the data of extension SIG set to VALUE...  With SIG "EOIE+", AT
# counts from EOIE's header instead.  The EOIE hash covers only the
# extensions' headers, so it stays valid.
poke () {
	perl -e '
		my ($sig, $at, @v) = @ARGV;
		open my $f, "<:raw", ".git/index" or die; local $/; my $d = <$f>;
		my $hdr = $sig =~ s/\+$//;
		my $i = rindex($d, $sig); $i >= 0 or die "no $sig\n";
		substr($d, $i + ($hdr ? 0 : 8) + $at, 4 * @v) = pack "N*", @v;
		open my $g, ">:raw", ".git/index" or die; print $g $d;
		' "$@"
}

# ieot_resize N: IEOT keeps its version and first N blocks, and EOIE's
# offset and hash follow (the hash recomputed over the new headers).
ieot_resize () {
	perl -MDigest::SHA -e '
		my ($n, $raw, $algo) = @ARGV;
		open my $f, "<:raw", ".git/index" or die; local $/; my $d = <$f>;
		my $i = index($d, "IEOT"); $i >= 0 or die "no IEOT\n";
		my $len = unpack "N", substr($d, $i + 4, 4);
		my $new = 4 + 8 * $n;
		substr($d, $i + 8 + $new, $len - $new) = "";
		substr($d, $i + 4, 4) = pack "N", $new;
		my $at = length($d) - $raw - 12 - $raw;
		my $o = unpack "N", substr($d, $at + 8, 4);
		my $h = Digest::SHA->new($algo eq "sha256" ? 256 : 1);
		while ($o < $at) {
			$h->add(substr($d, $o, 8));
			$o += 8 + unpack "N", substr($d, $o + 4, 4);
		}
		substr($d, $at + 12, $raw) = $h->digest;
		open my $g, ">:raw", ".git/index" or die; print $g $d;
		' "$1" "$OID_RAWSZ" "$OID_ALGO"
}

# with_config KEY=VALUE...: set exactly these index.* keys in .git/config.
with_config () {
	for k in threads recordEndOfIndexEntries recordOffsetTable version
	do
		git config --unset-all index.$k
		test $? -le 5 || return 1
	done &&
	for kv in "$@"
	do
		git config "${kv%%=*}" "${kv#*=}" || return 1
	done
}

test_expect_success 'setup' '
	mkdir -p a/b c d &&
	for i in $(test_seq 10)
	do
		echo "a $i" >a/f$i &&
		echo "b $i" >a/b/g$i &&
		echo "c $i" >c/h$i || return 1
	done &&
	echo top >top &&
	touch -d @$T0 a/f* a/b/g* c/h* top &&
	git update-index --add a/f* a/b/g* c/h* top &&
	tree=$(git write-tree) &&
	rm .git/index
'

# The configurations of the write matrix, one a line: the EOIE/IEOT
# rules and their corners (automatic with few entries, a negative count,
# more blocks asked for than entries, each record key alone and
# overriding).
cat >configs <<\EOF
index.threads=2
index.threads=4
index.threads=true
index.threads=0
index.threads=false
index.threads=1
index.threads=-1
index.threads=64
index.threads=7
index.recordEndOfIndexEntries=true
index.recordOffsetTable=true
index.threads=4 index.recordEndOfIndexEntries=false
index.threads=4 index.recordOffsetTable=false
index.threads=3 index.recordEndOfIndexEntries=true index.recordOffsetTable=true
index.threads=1 index.recordEndOfIndexEntries=true index.recordOffsetTable=true
EOF

for v in 2 3 4
do
	test_expect_success GIT "version $v: update-index, write-tree, read-tree leave git's bytes" '
		rounds=0 &&
		while read -r cfg
		do
			with_config index.version=$v $cfg &&
			rm -f .git/index &&
			run_both --add a/f* a/b/g* c/h* top &&
			same_result &&
			if test $v = 3
			then
				run_both --skip-worktree a/b/g3 &&
				same_result
			fi &&
			compare_with_git write-tree &&
			compare_with_git read-tree $tree &&
			compare_with_git write-tree &&
			run_both --add --remove top a/f1 &&
			same_result &&
			rounds=$((rounds + 1)) || { echo "config: $cfg" && return 1; }
		done <configs &&
		test $rounds = 15 &&
		with_config
	'
done

test_expect_success GIT 'the blocks and EOIE as git writes them (v2, 4 blocks of ceil(31/4))' '
	with_config index.threads=4 &&
	rm -f .git/index &&
	dirc update-cache --add a/f* a/b/g* c/h* top &&
	dirc write-tree >/dev/null &&
	ieot >actual &&
	cut -d" " -f1,3,5,7,9 actual >counts &&
	echo "1 8 8 8 7" >expect &&
	test_cmp expect counts &&
	exts >actual &&
	cat >expect <<-EOF &&
	IEOT 36
	TREE $(exts | sed -n "s/^TREE //p")
	EOIE $((4 + OID_RAWSZ))
	EOF
	test_cmp expect actual &&
	cp .git/index dirc.index &&
	rm .git/index &&
	git update-index --add a/f* a/b/g* c/h* top &&
	git write-tree >/dev/null &&
	test_cmp .git/index dirc.index
'

test_expect_success GIT 'IEOT, TREE, REUC, EOIE: git'"'"'s order, the hash over their headers' '
	with_config index.threads=2 &&
	rm -f .git/index &&
	git update-index --add a/f* c/h* top &&
	blob=$(git rev-parse :top) &&
	git update-index --force-remove top &&
	printf "100644 %s %d\ttop\n" $blob 1 $blob 2 $blob 3 >conflict &&
	git update-index --index-info <conflict &&
	run_both --add top &&
	same_result &&
	compare_with_git write-tree &&
	exts >actual &&
	sed "s/ .*//" actual >sigs &&
	test_write_lines IEOT TREE REUC EOIE >expect &&
	test_cmp expect sigs
'

test_expect_success GIT 'reading: git'"'"'s IEOT blocks parsed on threads, as the serial parse' '
	for v in 2 4
	do
		with_config index.threads=4 index.version=$v &&
		rm -f .git/index &&
		git update-index --add a/f* a/b/g* c/h* top &&
		git write-tree >/dev/null &&
		git ls-files -s --debug >expect &&
		DIRC_TRACE_PERF=1 dirc ls-files -s --debug >actual 2>trace &&
		test_cmp expect actual &&
		test_grep "IEOT blocks read  *4$" trace &&
		DIRC_THREADS=1 DIRC_TRACE_PERF=1 dirc ls-files -s --debug \
			>actual 2>trace &&
		test_cmp expect actual &&
		test_grep -v "IEOT blocks" trace &&
		touch -d @$((T0 + 5)) c/h3 &&
		run_both --refresh &&
		same_result &&
		cp .git/index.start .git/index &&
		dirc update-cache --threads=3 --refresh &&
		test_cmp .git/index.by-git .git/index || return 1
	done
'

test_expect_success GIT 'reading: index.threads=false, --threads=1, DIRC_THREADS=1: the serial parse' '
	with_config index.threads=4 &&
	rm -f .git/index &&
	git update-index --add a/f* a/b/g* c/h* top &&
	git ls-files -s >expect &&
	git config index.threads false &&
	DIRC_TRACE_PERF=1 dirc ls-files -s >actual 2>trace &&
	test_cmp expect actual &&
	test_grep -v "IEOT blocks" trace &&
	git config index.threads 4 &&
	DIRC_TRACE_PERF=1 dirc write-tree --threads=1 >/dev/null 2>trace &&
	test_grep -v "IEOT blocks" trace &&
	DIRC_THREADS=1 DIRC_TRACE_PERF=1 dirc update-cache --refresh 2>trace &&
	test_grep -v "IEOT blocks" trace
'

test_expect_success GIT 'setup: an index with IEOT (v2), saved' '
	with_config index.threads=4 &&
	rm -f .git/index &&
	git update-index --add a/f* a/b/g* c/h* top &&
	git write-tree >/dev/null &&
	cp .git/index ieot.index &&
	with_config &&
	git ls-files -s --debug >serial.expect
'

test_expect_success GIT,SHA1 'bad IEOT version: "invalid IEOT version" where git reads it, serial parse' '
	cp ieot.index .git/index &&
	poke IEOT 0 2 &&
	with_config index.threads=4 &&
	INTEROP_STATE=none compare_with_git ls-files -s --debug &&
	echo "error: invalid IEOT version 2" >expect &&
	test_cmp expect dirc.err &&
	test_cmp serial.expect dirc.out &&
	with_config index.threads=2 &&
	INTEROP_STATE=none succeeds_like_git ls-files -s --debug &&
	with_config &&
	INTEROP_STATE=none succeeds_like_git ls-files -s --debug
'

test_expect_success GIT,SHA1 'IEOT without blocks: "invalid number of IEOT entries 0" as git' '
	cp ieot.index .git/index &&
	ieot_resize 0 &&
	with_config index.threads=4 &&
	INTEROP_STATE=none compare_with_git ls-files -s --debug &&
	echo "error: invalid number of IEOT entries 0" >expect &&
	test_cmp expect dirc.err &&
	test_cmp serial.expect dirc.out
'

test_expect_success SHA256 'SHA-256: git never reads EOIE (it wants 24 bytes), so never reports IEOT' '
	cp ieot.index .git/index &&
	poke IEOT 0 2 &&
	with_config index.threads=4 &&
	INTEROP_STATE=none succeeds_like_git ls-files -s --debug &&
	test_cmp serial.expect dirc.out
'

# Damage git 2.39 does not check (it reads wrong entries, dies on
# garbage or crashes): dirc parses serially, silently.  Each: AT in the
# IEOT data and the values put there.
cat >damage <<\EOF
12 100
12 9
12 11
12 4
4 13
4 0
4 11
8 0
8 9
8 99999
16 0
32 1
20 100000
20 4000000000
4 4000000000
EOF

test_expect_success GIT 'damaged IEOT offsets and counts: the serial parse, no message' '
	rounds=0 &&
	while read -r at val
	do
		cp ieot.index .git/index &&
		poke IEOT $at $val &&
		with_config index.threads=4 &&
		DIRC_TRACE_PERF=1 dirc ls-files -s --debug >actual 2>trace &&
		test_cmp serial.expect actual &&
		test_grep -v "IEOT blocks" trace &&
		! grep -v "^trace:" trace &&
		with_config &&
		git ls-files -s --debug >actual &&
		test_cmp serial.expect actual &&
		rounds=$((rounds + 1)) || { echo "damage: $at $val" && return 1; }
	done <damage &&
	test $rounds = 15
'

test_expect_success GIT 'IEOT with fewer blocks than written: still all entries' '
	cp ieot.index .git/index &&
	ieot_resize 3 &&
	with_config index.threads=4 &&
	DIRC_TRACE_PERF=1 dirc ls-files -s --debug >actual 2>trace &&
	test_cmp serial.expect actual &&
	test_grep -v "IEOT blocks" trace
'

test_expect_success GIT 'a valid table with other block boundaries (v2): used, same entries' '
	cp ieot.index .git/index &&
	entry_offsets >offsets &&
	set -- $(sed -n "1p;6p;14p;22p" offsets) &&
	poke IEOT 4 $1 5 $2 8 $3 8 $4 10 &&
	with_config index.threads=4 &&
	DIRC_TRACE_PERF=1 dirc ls-files -s --debug >actual 2>trace &&
	test_cmp serial.expect actual &&
	test_grep "IEOT blocks read  *4$" trace
'

test_expect_success GIT 'v4: a block that does not start a new prefix run: serial parse' '
	with_config index.threads=4 index.version=4 &&
	rm -f .git/index &&
	git update-index --add a/f* a/b/g* c/h* top &&
	git ls-files -s --debug >expect &&
	entry_offsets >offsets &&
	set -- $(sed -n "1p;6p;14p;22p" offsets) &&
	poke IEOT 4 $1 5 $2 8 $3 8 $4 10 &&
	DIRC_TRACE_PERF=1 dirc ls-files -s --debug >actual 2>trace &&
	test_cmp expect actual &&
	test_grep -v "IEOT blocks" trace &&
	with_config
'

# EOIE damage: git ignores a bad EOIE silently, and so does dirc.
cat >eoie-damage <<\EOF
EOIE+ 16 1
EOIE+ 8 0
EOIE+ 8 11
EOIE+ 8 4000000000
EOIE+ 12 0
IEOT-hdr
EOF

test_expect_success GIT 'damaged EOIE: ignored, as git ignores it' '
	rounds=0 &&
	while read -r sig at val
	do
		cp ieot.index .git/index &&
		if test "$sig" = IEOT-hdr
		then
			# a header the hash does not cover
			ieot_resize 4 && poke EOIE+ 12 1
		else
			poke $sig $at $val
		fi &&
		with_config index.threads=4 &&
		INTEROP_STATE=none succeeds_like_git ls-files -s --debug &&
		test_cmp serial.expect dirc.out &&
		DIRC_TRACE_PERF=1 dirc ls-files -s >/dev/null 2>trace &&
		test_grep -v "IEOT blocks" trace &&
		compare_with_git write-tree &&
		rounds=$((rounds + 1)) || { echo "damage: $sig $at $val" && return 1; }
	done <eoie-damage &&
	test $rounds = 6
'

test_expect_success GIT 'a corrupt entry inside a block: the serial parse'"'"'s error' '
	cp ieot.index .git/index &&
	entry_offsets >offsets &&
	perl -e '"'"'
		open my $f, "+<:raw", ".git/index" or die;
		seek $f, $ARGV[0] + 40 + $ARGV[1], 0;
		print $f pack("n", 0x4000 | 3);
	'"'"' $(sed -n 11p offsets) $OID_RAWSZ &&
	with_config index.threads=4 &&
	test_must_fail dirc ls-files -s >out 2>parallel.err &&
	DIRC_THREADS=1 test_must_fail dirc ls-files -s >out 2>serial.err &&
	test_cmp serial.err parallel.err &&
	with_config &&
	INTEROP_STATE=none interop_run ls-files -s &&
	test_cmp_codes git.code dirc.code
'

test_expect_success GIT 'v4: the first entry stripping from nothing fails in both parses' '
	with_config index.threads=4 index.version=4 &&
	rm -f .git/index &&
	git update-index --add a/f* a/b/g* c/h* top &&
	perl -e '"'"'
		open my $f, "+<:raw", ".git/index" or die;
		seek $f, 12 + 40 + $ARGV[0] + 2, 0;
		print $f "\001";
	'"'"' $OID_RAWSZ &&
	test_must_fail dirc ls-files -s >out 2>parallel.err &&
	DIRC_THREADS=1 test_must_fail dirc ls-files -s >out 2>serial.err &&
	test_cmp serial.err parallel.err &&
	test_grep "malformed name field" serial.err &&
	with_config
'

test_expect_success GIT 'unknown optional extensions found through EOIE are still named' '
	cp ieot.index .git/index &&
	perl -e '"'"'
		open my $f, "<:raw", ".git/index" or die; local $/; my $d = <$f>;
		my $i = index($d, "TREE"); substr($d, $i, 4) = "ZREE";
		open my $g, ">:raw", ".git/index" or die; print $g $d;
	'"'"' &&
	ieot_resize 4 &&
	with_config index.threads=4 &&
	INTEROP_STATE=none compare_with_git ls-files -s &&
	echo "ignoring ZREE extension" >expect &&
	test_cmp expect dirc.err
'

test_expect_success GIT 'bad index.threads: fatal, as git' '
	cp ieot.index .git/index &&
	with_config index.threads=many &&
	INTEROP_STATE=none fails_like_git 128 \
		"fatal: bad numeric config value '"'"'many'"'"' for '"'"'index.threads'"'"': invalid unit" \
		ls-files &&
	run_both --add top &&
	same_result
'

# git reads index.threads only when it reads an existing index (after
# its header) or writes one: a command with no index to read, or that
# reads none, takes a bad value; one that would write refuses it first.
test_expect_success GIT 'bad index.threads: refused only when an index is read or written, as git' '
	rm -rf thr &&
	git init -q thr &&
	echo x >thr/f &&
	for v in many 3g -2147483649 2147483648 1x
	do
		case $v in
		many|1x) why="invalid unit" ;;
		*) why="out of range" ;;
		esac &&
		echo "fatal: bad numeric config value '"'"'$v'"'"' for '"'"'index.threads'"'"': $why" >expect &&
		for cmd in "ls-files" "ls-files -s" "diff-files" "update-index --refresh" \
			"check-attr -a f" "check-ignore f" "rev-parse --git-dir" \
			"read-tree -n --empty" "checkout-index -a"
		do
			git -C thr -c index.threads=$v $cmd >git.out 2>git.err
			echo $? >git.code &&
			dirc -C thr -c index.threads=$v $cmd >dirc.out 2>dirc.err
			echo $? >dirc.code &&
			test_cmp git.code dirc.code &&
			test_cmp git.out dirc.out &&
			test_cmp git.err dirc.err &&
			test_path_is_missing thr/.git/index || return 1
		done &&
		for cmd in "write-tree" "read-tree --empty" "update-index --add f" \
			"update-index --index-version 4"
		do
			test_expect_code 128 git -C thr -c index.threads=$v $cmd 2>git.err &&
			test_cmp expect git.err &&
			test_expect_code 128 dirc -C thr -c index.threads=$v $cmd 2>dirc.err &&
			test_cmp expect dirc.err &&
			test_path_is_missing thr/.git/index &&
			test_path_is_missing thr/.git/index.lock || return 1
		done &&
		dirc -C thr update-index --add f &&
		cp thr/.git/index thr-index.before &&
		for cmd in "ls-files" "write-tree" "read-tree --empty" "read-tree -m HEAD" \
			"check-attr -a f" "check-ignore f" "diff-files" "update-index --refresh"
		do
			test_expect_code 128 git -C thr -c index.threads=$v $cmd 2>git.err &&
			test_cmp expect git.err &&
			test_expect_code 128 dirc -C thr -c index.threads=$v $cmd 2>dirc.err &&
			test_cmp expect dirc.err &&
			test_cmp thr-index.before thr/.git/index || return 1
		done &&
		rm thr/.git/index || return 1
	done &&
	: values git takes, with no index and with one &&
	for v in -1 0 1 true false yes 1k ""
	do
		dirc -C thr -c index.threads=$v write-tree >out &&
		echo $EMPTY_TREE >expect &&
		test_cmp expect out &&
		dirc -C thr -c index.threads=$v ls-files >out &&
		test_must_be_empty out &&
		rm thr/.git/index || return 1
	done &&
	: a corrupt index: write-tree and check-attr die with the reason alone, as git &&
	dirc -C thr update-index --add f &&
	printf "XXXX" | dd of=thr/.git/index conv=notrunc 2>/dev/null &&
	for cmd in write-tree "check-attr -a f"
	do
		test_expect_code 128 git -C thr $cmd 2>git.err &&
		test_expect_code 128 dirc -C thr $cmd 2>dirc.err &&
		test_cmp git.err dirc.err || return 1
	done &&
	rm thr/.git/index
'

test_expect_success GIT 'bad index.recordEndOfIndexEntries, recordOffsetTable: fatal when git asks for them' '
	cp ieot.index .git/index &&
	echo more >>top &&
	with_config index.recordEndOfIndexEntries=maybe &&
	fails_like_git 128 \
		"fatal: bad boolean config value '"'"'maybe'"'"' for '"'"'index.recordendofindexentries'"'"'" \
		update-index --add top &&
	INTEROP_STATE=none succeeds_like_git ls-files &&
	with_config index.recordOffsetTable=perhaps &&
	run_both --add top &&
	same_result &&
	INTEROP_STATE=none succeeds_like_git ls-files &&
	with_config index.recordOffsetTable=perhaps index.threads=2 &&
	echo more >>top &&
	fails_like_git 128 \
		"fatal: bad boolean config value '"'"'perhaps'"'"' for '"'"'index.recordoffsettable'"'"'" \
		update-index --add top &&
	with_config index.recordOffsetTable=perhaps index.threads=1 &&
	run_both --add top &&
	same_result &&
	with_config
'

# split_step LINE: "git LINE" in split/g and "dirc LINE" in split/d; the
# same exit code and output, the same index and sharedindex.* files.
split_step () {
	{ (cd split/g && eval "git $1") >g.out 2>g.err; echo $? >g.code; } &&
	{ (cd split/d && eval "dirc $1") >d.out 2>d.err; echo $? >d.code; } &&
	test_cmp g.code d.code &&
	test_cmp g.out d.out &&
	test_cmp split/g/.git/index split/d/.git/index &&
	(cd split/g/.git && ls sharedindex.*) >g.shared &&
	(cd split/d/.git && ls sharedindex.*) >d.shared &&
	test_cmp g.shared d.shared &&
	while read f
	do
		test_cmp split/g/.git/$f split/d/.git/$f || return 1
	done <g.shared
}

test_expect_success GIT 'a split index with index.threads=2: IEOT and EOIE in the index and its shared index, git'"'"'s bytes; read on threads' '
	rm -rf split &&
	git init -q split/g &&
	git init -q split/d &&
	for r in g d
	do
		git -C split/$r config index.threads 2 &&
		git -C split/$r config core.splitIndex true &&
		git -C split/$r hash-object -w --stdin </dev/null >empty ||
		return 1
	done &&
	E=$(cat empty) &&
	cat >steps <<-EOF &&
	update-index --add --cacheinfo 100644,$E,a --cacheinfo 100644,$E,c --cacheinfo 100644,$E,d --cacheinfo 100644,$E,e --cacheinfo 100644,$E,f --cacheinfo 100644,$E,g --cacheinfo 100644,$E,h --cacheinfo 100644,$E,i --cacheinfo 100644,$E,j --cacheinfo 100644,$E,k
	update-index --add --cacheinfo 100644,$E,b1 --cacheinfo 100644,$E,b2
	update-index --chmod=+x a c
	ls-files -s --debug
	update-index --force-remove d --cacheinfo 100755,$E,e
	write-tree
	update-index --index-version 4
	update-index --add --cacheinfo 100755,$E,f --cacheinfo 100644,$E,b3
	ls-files -s --debug
	update-index --split-index
	update-index --add --cacheinfo 100755,$E,g --cacheinfo 100644,$E,b4
	ls-files -s
	EOF
	while read -r line
	do
		split_step "$line" || { echo "^^^ after: $line" >&2; return 1; }
	done <steps &&
	exts split/d/.git/index >actual &&
	sed "s/ .*//" actual >sigs &&
	test_write_lines IEOT link TREE EOIE >expect &&
	test_cmp expect sigs &&
	test_write_lines IEOT EOIE >expect &&
	for f in split/d/.git/sharedindex.*
	do
		exts $f >actual &&
		sed "s/ .*//" actual >sigs &&
		test_cmp expect sigs || return 1
	done &&
	(cd split/d && git ls-files -s --debug) >expect &&
	(cd split/d && DIRC_TRACE_PERF=1 dirc ls-files -s --debug) \
		>actual 2>trace &&
	test_cmp expect actual &&
	# two blocks in the index (a replacement, unnamed, and an
	# addition), two in the shared index
	test_grep "IEOT blocks read  *4$" trace &&
	(cd split/d && DIRC_THREADS=1 dirc ls-files -s --debug) >actual &&
	test_cmp expect actual
'

test_expect_success GIT 'an index of 64 MiB and more (mapped, not copied) reads and writes as git'"'"'s' '
	git init -q huge &&
	git -C huge config index.threads 2 &&
	E=$(git -C huge hash-object -w --stdin </dev/null) &&
	awk -v e="$E" "BEGIN {
		for (i = 0; i < 760000; i++)
			printf \"100644 %s 0\\tdir%04d/subdirectory/file%07d.c\\n\",
				e, i / 1000, i
	}" >huge-info &&
	(cd huge && git update-index --index-info <../huge-info) &&
	test $(wc -c <huge/.git/index) -ge 67108864 &&
	(cd huge && git ls-files -s --debug | git hash-object --stdin) >expect &&
	(cd huge && dirc ls-files -s --debug | git hash-object --stdin) >actual &&
	test_cmp expect actual &&
	(cd huge && git write-tree) >expect &&
	(cd huge && dirc write-tree) >actual &&
	test_cmp expect actual &&
	cp huge/.git/index huge-index.git &&
	(cd huge && git update-index --force-remove dir0007/subdirectory/file0007001.c) &&
	cp huge/.git/index huge-index.want &&
	cp huge-index.git huge/.git/index &&
	(cd huge && dirc update-index --force-remove dir0007/subdirectory/file0007001.c) &&
	cmp huge-index.want huge/.git/index
'

test_done
