#!/bin/sh
test_description='reftable: git'"'"'s ref tables read, written byte for byte, stacked

The library (lib/reftable.h) through "dirc test-tool reftable".  From the
stacks git 2.55 made under t3090/ (SHA-1 and SHA-256: symrefs, peeled
tags, deletions, reflogs, a deleted reflog entry, ref/obj/log indexes):
dirc'"'"'s merged view equals what git printed, and every table rewritten
from its records is the same bytes.  Then additions, auto-compaction and
compaction on dirc'"'"'s own stacks, locks, and damaged tables.  With
DIRC_TEST_GIT_NEW the same against a fresh git: its stacks read, its
additions and compactions replayed by dirc to the same files, and git
reading what dirc wrote (for-each-ref, reflog, fsck, refs verify).'
. ./test-lib.sh

DATA="$TEST_DIRECTORY/t3090"
ZERO40=0000000000000000000000000000000000000000

rt () {
	dirc test-tool reftable "$@"
}

# refs_view <dump>: the live refs under refs/ as "git for-each-ref
# --format='%(refname) %(objectname) %(*objectname)'" prints them
# (symrefs resolved).
refs_view () {
	awk -F'\t' '
	$1 == "ref" {
		type[$2] = $4; v[$2] = $5; p[$2] = $6
		if ($2 ~ /^refs\//) names[++n] = $2
	}
	END {
		for (i = 1; i <= n; i++) {
			r = names[i]; d = 0
			while (type[r] == "symref" && d++ < 5) r = v[r]
			if (type[r] == "val1") print names[i] " " v[r] " "
			if (type[r] == "val2") print names[i] " " v[r] " " p[r]
		}
	}' "$1"
}

# reflogs_view <dump> <refs view>: HEAD and each ref, then its reflog as
# "git reflog show --format='%H %gs'" prints it (newest first; the
# placeholder an emptied reflog keeps is not shown).
reflogs_view () {
	{ echo HEAD; cut -d" " -f1 "$2"; } >names.tmp &&
	awk -F'\t' '
	FNR == NR { order[++n] = $0; next }
	$1 == "log" && $4 != "deletion" {
		if ($4 ~ /^0+$/ && $5 ~ /^0+$/) next
		msg = $10; sub(/\\n$/, "", msg)
		log_[$2] = log_[$2] $5 " " msg "\n"
	}
	END { for (i = 1; i <= n; i++) printf "%s\n%s", order[i], log_[order[i]] }
	' names.tmp "$1"
}

# same_tables <algo option> <dir>: every table in dir, dumped and written
# again by dirc, is the same bytes.
same_tables () {
	st_opt=$1 st_dir=$2 st_n=0 &&
	for st_t in "$st_dir"/*.ref
	do
		rt $st_opt table "$st_t" >records &&
		rt $st_opt write-table again.ref <records &&
		test_cmp "$st_t" again.ref &&
		st_n=$((st_n + 1)) || return 1
	done &&
	test "$st_n" -gt 0
}

for algo in sha1 sha256
do
	opt=
	test $algo = sha1 || opt=--sha256

	test_expect_success "$algo: dirc reads git's stack as git printed it" '
		cp -R "$DATA/$algo" stack-$algo &&
		rt $opt dump stack-$algo >dump &&
		refs_view dump >refs.actual &&
		test_cmp "$DATA/$algo.refs" refs.actual &&
		reflogs_view dump refs.actual >reflogs.actual &&
		test_cmp "$DATA/$algo.reflogs" reflogs.actual
	'

	test_expect_success "$algo: single refs, symrefs, deletions" '
		rt $opt read stack-$algo refs/tags/v1 >out &&
		test_grep "^ref	refs/tags/v1	[0-9]*	val2	" out &&
		rt $opt read stack-$algo HEAD >out &&
		test_grep "symref	refs/heads/master$" out &&
		test_expect_code 1 rt $opt read stack-$algo refs/heads/b15 &&
		test_expect_code 1 rt $opt read stack-$algo refs/heads/nope
	'

	test_expect_success "$algo: every table git wrote, written again, same bytes" '
		same_tables "$opt" "$DATA/$algo"
	'

	test_expect_success "$algo: the oldest table has ref, obj and log indexes" '
		oldest=$(head -n 1 "$DATA/$algo/tables.list") &&
		rt $opt table "$DATA/$algo/$oldest" >records &&
		test $(grep -c "^ref" records) -gt 60 &&
		sz=$(wc -c <"$DATA/$algo/$oldest") &&
		test $sz -gt 4096
	'
done

# A table from DIRC_MMAP_CUTOFF bytes (8 KiB when unset) is read a block
# at a time, and mapped after DIRC_TEST_RT_READS reads (64 unset).
for mode in "DIRC_MMAP_CUTOFF=1" "DIRC_MMAP_CUTOFF=1 DIRC_TEST_RT_READS=0" \
	"DIRC_MMAP_CUTOFF=1 DIRC_TEST_RT_READS=2"
do
	test_expect_success "tables read by blocks ($mode) read the same" '
		for algo in sha1 sha256
		do
			opt= &&
			if test $algo = sha256; then opt=--sha256; fi &&
			rt $opt dump stack-$algo >read.out &&
			env $mode dirc test-tool reftable $opt dump \
				stack-$algo >blocks.out &&
			test_cmp read.out blocks.out &&
			for name in $(awk -F"	" "\$1 == \"ref\" { print \$2 }" \
					read.out)
			do
				rt $opt read stack-$algo $name >one.out &&
				env $mode dirc test-tool reftable $opt read \
					stack-$algo $name >blocks.out &&
				test_cmp one.out blocks.out || return 1
			done || return 1
		done &&
		rm -rf bad && cp -R "$DATA/sha1" bad &&
		t=$(head -n 1 bad/tables.list) &&
		printf X | dd of=bad/$t bs=1 seek=0 conv=notrunc 2>/dev/null &&
		test_must_fail env $mode dirc test-tool reftable dump bad 2>err &&
		test_grep "is corrupt: bad magic" err &&
		cp "$DATA/sha1/$t" bad/$t &&
		sz=$(wc -c <bad/$t) &&
		printf X | dd of=bad/$t bs=1 seek=$((sz - 20)) conv=notrunc \
			2>/dev/null &&
		test_must_fail env $mode dirc test-tool reftable dump bad 2>err &&
		test_grep "is corrupt: footer checksum mismatch" err
	'
done

test_lazy_prereq STRACE 'strace -o /dev/null true'

test_expect_success STRACE 'a lookup reads blocks; a walk goes on to a mapping' '
	rt create big &&
	awk "BEGIN { for (i = 0; i < 3000; i++)
		printf \"ref\trefs/heads/b%05d\t0\tval1\t%040d\n\", i, i + 1 }" \
		>big.in &&
	rt write big <big.in &&
	t=$(cat big/tables.list) &&
	sz=$(wc -c <big/$t) &&
	test $sz -gt 65536 &&
	# LeakSanitizer cannot run under strace
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
	strace -o one.trace -e trace=openat,pread64,mmap \
		dirc test-tool reftable read big refs/heads/b01500 >one.out &&
	grep "refs/heads/b01500" one.out &&
	grep "pread64" one.trace >preads &&
	test_line_count -le 8 preads &&
	! grep "mmap(NULL, $sz," one.trace &&
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
	strace -o all.trace -e trace=pread64,mmap \
		env DIRC_TEST_RT_READS=10 dirc test-tool reftable dump big \
		>all.out &&
	test $(grep -c "^ref" all.out) = 3000 &&
	sed -n "/pread64([0-9]*, \"REFT/,/mmap(NULL, $sz,/p" all.trace |
		grep -c pread64 >count &&
	echo 10 >expect &&
	test_cmp expect count &&
	grep "mmap(NULL, $sz," all.trace &&
	dirc test-tool reftable dump big >default.out &&
	test_cmp all.out default.out &&
	env DIRC_TEST_RT_READS=100000 dirc test-tool reftable dump big >preads.out &&
	test_cmp all.out preads.out &&
	env DIRC_TEST_RT_READS=0 dirc test-tool reftable dump big >mapped.out &&
	test_cmp all.out mapped.out
'

test_expect_success 'a SHA-1 reader refuses a SHA-256 stack' '
	test_must_fail dirc test-tool reftable dump stack-sha256 2>err &&
	test_grep "corrupt: its hash is not sha1" err
'

test_expect_success 'create, write, read back' '
	rt create s &&
	test_path_is_file s/tables.list &&
	test_must_be_empty s/tables.list &&
	cat >in <<-EOF &&
	ref	HEAD	0	symref	refs/heads/main
	ref	refs/heads/main	0	val1	$(printf "%040d" 1)
	log	refs/heads/main	0	$ZERO40	$(printf "%040d" 1)	C O Mitter	c@example.com	1112354055	+0200	create\n\n
	EOF
	rt write s <in &&
	test_line_count = 1 s/tables.list &&
	grep -E "^0x000000000001-0x000000000001-[0-9a-f]{8}\.ref$" s/tables.list &&
	rt dump s >dump &&
	cat >expect <<-EOF &&
	ref	HEAD	1	symref	refs/heads/main
	ref	refs/heads/main	1	val1	$(printf "%040d" 1)
	log	refs/heads/main	1	$ZERO40	$(printf "%040d" 1)	C O Mitter	c@example.com	1112354055	+0200	create\n
	EOF
	test_cmp expect dump &&
	ls s >files &&
	test_line_count = 2 files
'

test_expect_success 'a multi-line log message is refused, nothing written' '
	cp s/tables.list list.before &&
	printf "log\trefs/heads/x\t0\t%s\t%s\ta\tb\t1\t+0000\tone\\\\ntwo\n" \
		$ZERO40 $ZERO40 >in &&
	test_must_fail dirc test-tool reftable write s <in 2>err &&
	test_grep "several lines" err &&
	test_cmp list.before s/tables.list &&
	test_path_is_missing s/tables.list.lock &&
	ls s >files &&
	test_line_count = 2 files
'

# n refs named <prefix>N
some_refs () {
	i=0 && while test $i -lt $2
	do
		printf "ref\t%s%d\t0\tval1\t%040d\n" "$1" $i $((i + 7)) || return 1
		i=$((i + 1))
	done
}

test_expect_success 'auto-compaction keeps a geometric stack' '
	rt create g &&
	some_refs refs/heads/big 200 | rt write g &&
	for i in 1 2 3 4 5 6
	do
		printf "ref\trefs/heads/small%d\t0\tval1\t%040d\n" $i $i |
		rt write g || return 1
	done &&
	# sizes: 200 refs, then merged smalls; never two of a size
	test $(wc -l <g/tables.list) -le 3 &&
	head -n 1 g/tables.list >first &&
	grep "^0x000000000001-0x000000000001-" first &&
	tail -n 1 g/tables.list | grep -- "-0x000000000007-" &&
	rt dump g >dump &&
	test $(grep -c "^ref" dump) = 206 &&
	ls g | grep -v "^tables.list$" | sed "s/$/.ref/" >/dev/null &&
	ls g >files &&
	test $(wc -l <files) = $(($(wc -l <g/tables.list) + 1))
'

test_expect_success 'deletions survive compaction above the oldest table' '
	rt create d &&
	some_refs refs/heads/r 300 | rt write d &&
	printf "ref\trefs/heads/r1\t0\tdeletion\n" | rt write d &&
	printf "ref\trefs/heads/x\t0\tval1\t%040d\n" 5 | rt write d &&
	test_line_count = 2 d/tables.list &&
	newest=$(tail -n 1 d/tables.list) &&
	rt table d/$newest >records &&
	test_grep "^ref	refs/heads/r1	2	deletion" records &&
	test_expect_code 1 rt read d refs/heads/r1 &&
	rt compact d &&
	test_line_count = 1 d/tables.list &&
	rt table d/$(cat d/tables.list) >records &&
	test_grep -v "deletion" records &&
	grep "^0x000000000001-0x000000000003-" d/tables.list &&
	test_expect_code 1 rt read d refs/heads/r1 &&
	rt read d refs/heads/r2
'

test_expect_success 'a held tables.list.lock: the addition fails, nothing changes' '
	cp d/tables.list list.before &&
	: >d/tables.list.lock &&
	printf "ref\trefs/heads/y\t0\tval1\t%040d\n" 5 >in &&
	test_must_fail env DIRC_TEST_REFTABLE_TIMEOUT=0 dirc test-tool reftable write d <in 2>err &&
	test_grep "tables.list.lock" err &&
	test_cmp list.before d/tables.list &&
	rm d/tables.list.lock &&
	ls d >files &&
	test_line_count = 2 files
'

test_expect_success 'a locked table: auto-compaction merges only the newer ones' '
	rt create l &&
	some_refs refs/heads/a 10 | rt write l &&
	oldest=$(cat l/tables.list) &&
	: >"l/$oldest.lock" &&
	some_refs refs/heads/b 10 | rt write l &&
	# [oldest, b]: only one table could be locked, nothing compacted
	test_line_count = 2 l/tables.list &&
	some_refs refs/heads/c 10 | rt write l &&
	head -n 1 l/tables.list >first &&
	echo "$oldest" >expect &&
	test_cmp expect first &&
	test_line_count = 2 l/tables.list &&
	tail -n 1 l/tables.list | grep "^0x000000000002-0x000000000003-" &&
	test_path_is_file "l/$oldest.lock" &&
	rm "l/$oldest.lock" &&
	rt dump l >dump &&
	test $(grep -c "^ref" dump) = 30 &&
	ls l >files &&
	test_line_count = 3 files
'

test_expect_success 'damaged tables are corrupt, named, never a crash' '
	t=$(head -n 1 "$DATA/sha1/tables.list") &&
	n=$(wc -c <"$DATA/sha1/$t") &&
	for how in magic version crc truncate block zero
	do
		rm -rf bad && cp -R "$DATA/sha1" bad &&
		case $how in
		magic) printf X | dd of=bad/$t bs=1 seek=0 conv=notrunc ;;
		version) printf "\\003" | dd of=bad/$t bs=1 seek=4 conv=notrunc ;;
		crc) printf X | dd of=bad/$t bs=1 seek=$((n - 1)) conv=notrunc ;;
		truncate) head -c $((n - 100)) "$DATA/sha1/$t" >bad/$t ;;
		block) printf "\\377\\377" | dd of=bad/$t bs=1 seek=25 conv=notrunc ;;
		zero) : >bad/$t ;;
		esac 2>/dev/null &&
		test_must_fail dirc test-tool reftable dump bad 2>err &&
		test_grep "^fatal: reftable .*$t.* is corrupt" err || return 1
	done
'

test_expect_success 'a damaged record inside a block is corrupt' '
	t=$(head -n 1 "$DATA/sha1/tables.list") &&
	rm -rf bad && cp -R "$DATA/sha1" bad &&
	# the first record: its key lengths claim more than the block
	printf "\\000\\377\\377\\377\\177" | dd of=bad/$t bs=1 seek=28 conv=notrunc 2>/dev/null &&
	test_must_fail dirc test-tool reftable dump bad 2>err &&
	test_grep "is corrupt" err
'

test_expect_success 'a table named in tables.list but missing' '
	rm -rf bad && cp -R "$DATA/sha1" bad &&
	echo 0x000000000010-0x000000000010-00000000.ref >>bad/tables.list &&
	test_must_fail dirc test-tool reftable dump bad 2>err &&
	test_grep "is missing" err
'

test_expect_success 'a tables.list naming a path outside the stack' '
	rm -rf bad && cp -R "$DATA/sha1" bad &&
	echo ../escape.ref >>bad/tables.list &&
	test_must_fail dirc test-tool reftable dump bad 2>err &&
	test_grep "names a bad table .\.\./escape.ref" err
'

# --- against a current git ---------------------------------------------

test_expect_success GIT_NEW 'git: fresh stacks read as git prints them, tables rewritten byte for byte' '
	for algo in sha1 sha256
	do
		opt= && { test $algo = sha1 || opt=--sha256; } &&
		"$DATA/make-data.sh" "$DIRC_TEST_GIT_NEW" "$PWD/new-$algo" $algo &&
		rt $opt dump new-$algo/.git/reftable >dump &&
		refs_view dump >refs.actual &&
		test_cmp new-$algo.refs refs.actual &&
		reflogs_view dump refs.actual >reflogs.actual &&
		test_cmp new-$algo.reflogs reflogs.actual &&
		same_tables "$opt" new-$algo/.git/reftable || return 1
	done
'

# replay <git-repo-A> <stack>: each table of A (made without auto-
# compaction) appended to stack by dirc, the first one copied.
replay () {
	rp_first=$(head -n 1 "$1/.git/reftable/tables.list") &&
	cp "$1/.git/reftable/$rp_first" "$2/" &&
	echo "$rp_first" >"$2/tables.list" &&
	for rp_t in $(sed 1d "$1/.git/reftable/tables.list")
	do
		rt $3 table "$1/.git/reftable/$rp_t" | sed 1d >records &&
		rt $3 write "$2" <records || return 1
	done
}

# same_stack <git stack> <dirc stack>: the same tables (names up to the
# random part) with the same bytes.
same_stack () {
	sed "s/-[0-9a-f]*\.ref$//" "$1/tables.list" >ss.expect &&
	sed "s/-[0-9a-f]*\.ref$//" "$2/tables.list" >ss.actual &&
	test_cmp ss.expect ss.actual &&
	paste "$1/tables.list" "$2/tables.list" >ss.pairs &&
	while read ss_a ss_b
	do
		test_cmp "$1/$ss_a" "$2/$ss_b" || return 1
	done <ss.pairs
}

git_ops () {
	git_new -C "$1" -c init.defaultBranch=master commit -q --allow-empty -m one &&
	c=$(git_new -C "$1" rev-parse HEAD) &&
	for i in 1 2 3 4 5 6 7 8 9 10 11 12
	do
		git_new -C "$1" update-ref -m "make b$i" refs/heads/b$i $c || return 1
	done &&
	git_new -C "$1" update-ref -d refs/heads/b3 &&
	git_new -C "$1" symbolic-ref refs/heads/s refs/heads/b2 &&
	git_new -C "$1" tag -a -m tag t1 &&
	git_new -C "$1" update-ref -d refs/heads/b1 &&
	git_new -C "$1" reflog delete refs/heads/b4@{0}
}

test_expect_success GIT_NEW 'git: additions and auto-compaction give git'"'"'s files' '
	for algo in sha1 sha256
	do
		opt= && { test $algo = sha1 || opt=--sha256; } &&
		rm -rf A B C &&
		git_new init -q --ref-format=reftable --object-format=$algo A &&
		git_new init -q --ref-format=reftable --object-format=$algo B &&
		(GIT_TEST_REFTABLE_AUTOCOMPACTION=false && export GIT_TEST_REFTABLE_AUTOCOMPACTION && git_ops A) &&
		git_ops B &&
		test $(wc -l <A/.git/reftable/tables.list) -gt 10 &&
		mkdir C && rt create C/reftable &&
		replay A C/reftable $opt &&
		same_stack B/.git/reftable C/reftable &&
		# git reads what dirc wrote
		rm -rf B/.git/reftable && cp -R C/reftable B/.git/reftable &&
		git_new -C B for-each-ref >out &&
		test_grep "refs/heads/b12" out &&
		test_grep -v "refs/heads/b3" out &&
		git_new -C B reflog show refs/heads/b2 >out &&
		test_grep "make b2" out &&
		git_new -C B fsck &&
		git_new -C B refs verify --strict || return 1
	done
'

test_expect_success GIT_NEW 'git: a locked oldest table, the same best-effort compaction' '
	rm -rf K L &&
	git_new init -q --ref-format=reftable K &&
	git_new -C K commit -q --allow-empty -m x &&
	c=$(git_new -C K rev-parse HEAD) &&
	cp -R K L &&
	t=$(cat K/.git/reftable/tables.list) &&
	: >K/.git/reftable/$t.lock &&
	: >L/.git/reftable/$t.lock &&
	git_new -C K -c core.logAllRefUpdates=false update-ref refs/heads/b $c &&
	git_new -C K -c core.logAllRefUpdates=false update-ref refs/heads/c $c &&
	printf "ref\trefs/heads/b\t0\tval1\t%s\n" $c | rt write L/.git/reftable &&
	printf "ref\trefs/heads/c\t0\tval1\t%s\n" $c | rt write L/.git/reftable &&
	same_stack K/.git/reftable L/.git/reftable
'

# random_batches <commit> <n>: n update-ref --stdin batches (files
# batch.1 ...), each creating and deleting a pseudo-random number of
# refs (every seventh a big one; a fixed LCG, so every run is the same).
random_batches () {
	awk -v c="$1" -v n="$2" '
	function rnd(m) {
		seed = (seed * 1103515245 + 12345) % 2147483648
		return int(seed / 65536) % m
	}
	BEGIN {
		seed = 42
		for (b = 1; b <= n; b++) {
			f = "batch." b
			k = 1 + rnd(b % 7 == 0 ? 120 : 12)
			for (i = 0; i < k; i++) {
				r = "refs/heads/r" rnd(300)
				if (r in in_batch) continue
				in_batch[r] = 1
				if (live[r] && rnd(3) == 0) {
					print "delete " r > f; live[r] = 0
				} else if (!live[r]) {
					print "create " r " " c > f; live[r] = 1
				}
			}
			delete in_batch
			close(f)
		}
	}'
}

test_expect_success GIT_NEW 'git: forty random additions, the same stack as git'"'"'s' '
	for algo in sha1 sha256
	do
		opt= && { test $algo = sha1 || opt=--sha256; } &&
		rm -rf RA RB RC batch.* &&
		git_new init -q --ref-format=reftable --object-format=$algo RA &&
		git_new -C RA commit -q --allow-empty -m one &&
		cp -R RA RB &&
		c=$(git_new -C RA rev-parse HEAD) &&
		random_batches $c 40 &&
		b=1 &&
		while test $b -le 40
		do
			if test -s batch.$b
			then
				GIT_TEST_REFTABLE_AUTOCOMPACTION=false git_new -C RA update-ref -m "batch $b" --stdin <batch.$b &&
				git_new -C RB update-ref -m "batch $b" --stdin <batch.$b || return 1
			fi
			b=$((b + 1))
		done &&
		test $(wc -l <RA/.git/reftable/tables.list) -gt 30 &&
		mkdir RC && rt create RC/reftable &&
		replay RA RC/reftable $opt &&
		same_stack RB/.git/reftable RC/reftable &&
		test $(wc -l <RB/.git/reftable/tables.list) -gt 1 || return 1
	done
'

test_expect_success GIT_NEW 'git: dirc compaction equals git pack-refs' '
	for algo in sha1 sha256
	do
		opt= && { test $algo = sha1 || opt=--sha256; } &&
		rm -rf P Q &&
		git_new init -q --ref-format=reftable --object-format=$algo P &&
		(GIT_TEST_REFTABLE_AUTOCOMPACTION=false && export GIT_TEST_REFTABLE_AUTOCOMPACTION && git_ops P) &&
		cp -R P Q &&
		git_new -C P pack-refs &&
		rt $opt compact Q/.git/reftable &&
		same_stack P/.git/reftable Q/.git/reftable || return 1
	done
'

test_expect_success GIT_NEW 'git: a stack dirc wrote from scratch, git reads and adds to it' '
	git_new init -q --ref-format=reftable W &&
	git_new -C W commit -q --allow-empty -m one &&
	c=$(git_new -C W rev-parse HEAD) &&
	some_refs refs/heads/many 300 | sed "s/	[0-9]*$/	$c/" >in &&
	rt write W/.git/reftable <in &&
	git_new -C W for-each-ref refs/heads/many* >out &&
	test_line_count = 300 out &&
	git_new -C W update-ref refs/heads/later $c &&
	rt dump W/.git/reftable >dump &&
	test_grep "^ref	refs/heads/later	" dump &&
	git_new -C W fsck &&
	git_new -C W refs verify --strict
'

test_done
