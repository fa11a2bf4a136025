#!/bin/sh
test_description='update-cache --refresh and racy-git: what git does, never a missed change

Times are set with touch -d @T on the files and on .git/index, never by
waiting for the clock: T0 is long ago; T1 is a second that files and the
index share, which makes an entry "racy"; T2 is later than both.  Each
case runs git update-index and dirc update-cache from the same index on
the same work tree (exit code, output and index bytes must be equal),
and afterwards "git diff-files" on the index dirc wrote must agree with
"dirc ls-files -m" and with what really changed.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh

# fresh_index FILE...: a new index holding FILE..., written by git.
fresh_index () {
	rm -f .git/index &&
	git update-index --add "$@"
}

# put FILE CONTENT [TIME]: write FILE, dated TIME (default T0).
put () {
	printf "%s\n" "$2" >"$1" &&
	touch -d @${3:-$T0} "$1"
}

# entry_size PATH: the size field stored for PATH in .git/index (v2/v3).
entry_size () {
	perl -e '
		open my $f, "<", ".git/index" or die "no index: $!";
		binmode $f; local $/; my $d = <$f>;
		my $n = unpack "N", substr($d, 8, 4); my $o = 12;
		my $fix = 40 + $ARGV[1];	# stat data and id, before the flags
		for my $i (1 .. $n) {
			my $size = unpack "N", substr($d, $o + 36, 4);
			my $fl = unpack "n", substr($d, $o + $fix, 2);
			my $x = ($fl & 0x4000) ? 2 : 0;
			my $p = $o + $fix + 2 + $x;
			my $e = index($d, "\0", $p);
			my $name = substr($d, $p, $e - $p);
			if ($name eq $ARGV[0]) { print "$size\n"; exit 0 }
			$o += ($fix + 2 + $x + length($name) + 8) & ~7;
		}
		die "$ARGV[0] not in the index\n";' "$1" "$OID_RAWSZ"
}

test_expect_success GIT 'setup' '
	T0=1500000000 &&
	T1=1600000000 &&
	T2=1700000000 &&
	put a aaaa &&
	put b bbbb &&
	put c cccc &&
	put d dddd &&
	git config core.trustctime true &&
	fresh_index a b c &&
	diff_files_agree
'

test_expect_success GIT 'nothing changed, no racy entry: exit 0, index not rewritten' '
	touch -d @$T2 .git/index &&
	run_both --refresh &&
	same_result &&
	test_must_be_empty dirc.out &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	test "$(stat -c %Y .git/index)" = $T2
'

test_expect_success GIT 'touched (stat-only change): refreshed silently, exit 0' '
	touch -d @$((T0 + 100)) a &&
	run_both --refresh &&
	same_result &&
	test_must_be_empty dirc.out &&
	test_must_be_empty dirc.err &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	git ls-files --debug a >debug &&
	test_grep "mtime: $((T0 + 100)):" debug &&
	diff_files_agree
'

test_expect_success GIT 'content changed, another size: "needs update", exit 1' '
	put a "a, longer now" $((T0 + 200)) &&
	run_both --refresh &&
	same_result &&
	echo "a: needs update" >expect &&
	test_cmp expect dirc.out &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	diff_files_agree a
'

test_expect_success GIT '-q --refresh: the same, silently, exit 0' '
	run_both -q --refresh &&
	same_result &&
	test_must_be_empty dirc.out &&
	echo 0 >expect &&
	test_cmp expect dirc.code
'

test_expect_success GIT '--refresh -q: -q after --refresh comes too late' '
	run_both --refresh -q &&
	same_result
'

test_expect_success GIT 'a changed path is reported, the others are still refreshed' '
	touch -d @$((T0 + 300)) b &&
	run_both --refresh &&
	same_result &&
	git ls-files --debug b >debug &&
	test_grep "mtime: $((T0 + 300)):" debug &&
	diff_files_agree a
'

test_expect_success GIT 'content changed at the same size, same second, racy: "needs update"' '
	put a aaaa $T1 &&
	fresh_index a b c &&
	touch -d @$T1 .git/index &&
	put a AAAA $T1 &&
	run_both --refresh &&
	same_result &&
	echo "a: needs update" >expect &&
	test_cmp expect dirc.out &&
	diff_files_agree a
'

test_expect_success GIT 'the same with core.trustctime=false' '
	git config core.trustctime false &&
	test_when_finished "git config core.trustctime true" &&
	put a aaaa $T1 &&
	fresh_index a b c &&
	touch -d @$T1 .git/index &&
	put a AAAA $T1 &&
	run_both --refresh &&
	same_result &&
	echo "a: needs update" >expect &&
	test_cmp expect dirc.out &&
	diff_files_agree a
'

test_expect_success GIT 'an unchanged racy entry: --refresh rewrites the index, not smudged' '
	put a aaaa $T1 &&
	fresh_index a b c &&
	touch -d @$T1 .git/index &&
	run_both --refresh &&
	same_result &&
	test_must_be_empty dirc.out &&
	echo 5 >expect &&
	entry_size a >actual &&
	test_cmp expect actual &&
	diff_files_agree
'

test_expect_success GIT 'an unchanged racy entry is not smudged when dirc adds another path' '
	put a aaaa $T1 &&
	fresh_index a b &&
	touch -d @$T1 .git/index &&
	run_both --add c &&
	same_result &&
	echo 5 >expect &&
	entry_size a >actual &&
	test_cmp expect actual &&
	diff_files_agree &&
	git diff-files >out &&
	test_must_be_empty out
'

test_expect_success GIT 'a racy entry changed at the same size is smudged when dirc adds another path' '
	git config core.trustctime false &&
	test_when_finished "git config core.trustctime true" &&
	put a aaaa $T1 &&
	fresh_index a b &&
	touch -d @$T1 .git/index &&
	put a AAAA $T1 &&
	run_both --add c &&
	same_result &&
	echo 0 >expect &&
	entry_size a >actual &&
	test_cmp expect actual &&
	entry_size b >actual &&
	echo 5 >expect &&
	test_cmp expect actual &&
	diff_files_agree a
'

test_expect_success GIT 'the same with core.trustctime=true: the change is never missed' '
	put a aaaa $T1 &&
	fresh_index a b &&
	touch -d @$T1 .git/index &&
	put a AAAA $T1 &&
	run_both --add c &&
	same_result &&
	diff_files_agree a
'

test_expect_success GIT 'a racy changed entry is smudged when dirc removes another path' '
	git config core.trustctime false &&
	test_when_finished "git config core.trustctime true" &&
	put a aaaa $T1 &&
	fresh_index a b c &&
	touch -d @$T1 .git/index &&
	put a AAAA $T1 &&
	run_both --force-remove c &&
	same_result &&
	echo 0 >expect &&
	entry_size a >actual &&
	test_cmp expect actual &&
	diff_files_agree a
'

test_expect_success GIT 'a smudged entry whose file is restored is refreshed back' '
	put a aaaa $T1 &&
	run_both --refresh &&
	same_result &&
	test_must_be_empty dirc.out &&
	echo 5 >expect &&
	entry_size a >actual &&
	test_cmp expect actual &&
	diff_files_agree
'

test_expect_success GIT 'a racy entry for the empty blob is not smudged' '
	git config core.trustctime false &&
	test_when_finished "git config core.trustctime true" &&
	: >e &&
	touch -d @$T1 e &&
	fresh_index e b &&
	touch -d @$T1 .git/index &&
	run_both --add c &&
	same_result &&
	diff_files_agree
'

test_expect_success GIT 'deleted: "needs update"; --ignore-missing: silent' '
	fresh_index a b c d &&
	rm d &&
	run_both --refresh &&
	same_result &&
	echo "d: needs update" >expect &&
	test_cmp expect dirc.out &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	run_both --ignore-missing --refresh &&
	same_result &&
	test_must_be_empty dirc.out &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	diff_files_agree d &&
	put d dddd
'

test_expect_success GIT 'chmod +x: "needs update" with core.filemode=true' '
	fresh_index a b c &&
	chmod +x b &&
	test_when_finished "chmod -x b" &&
	run_both --refresh &&
	same_result &&
	echo "b: needs update" >expect &&
	test_cmp expect dirc.out &&
	diff_files_agree b
'

test_expect_success GIT 'chmod +x: nothing to update with core.filemode=false' '
	git config core.filemode false &&
	test_when_finished "git config core.filemode true" &&
	fresh_index a b c &&
	chmod +x b &&
	test_when_finished "chmod -x b" &&
	run_both --refresh &&
	same_result &&
	test_must_be_empty dirc.out &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	diff_files_agree &&
	run_both b &&
	same_result &&
	dirc ls-files -s b >actual &&
	test_grep "^100644 " actual
'

test_expect_success GIT,SYMLINKS 'a symlink retargeted (same length, new mtime): "needs update"' '
	ln -s a lnk &&
	touch -h -d @$T0 lnk &&
	fresh_index a b lnk &&
	rm lnk &&
	ln -s b lnk &&
	touch -h -d @$((T0 + 7)) lnk &&
	run_both --refresh &&
	same_result &&
	echo "lnk: needs update" >expect &&
	test_cmp expect dirc.out &&
	diff_files_agree lnk &&
	run_both lnk &&
	same_result &&
	diff_files_agree
'

test_expect_success GIT,SYMLINKS 'a file replaced by a symlink: "needs update"' '
	fresh_index a b c &&
	mv c c.saved &&
	test_when_finished "rm -f c && mv c.saved c" &&
	ln -s a c &&
	touch -h -d @$T0 c &&
	run_both --refresh &&
	same_result &&
	diff_files_agree c
'

test_expect_success GIT 'unmerged entries: "needs merge"; --unmerged: silent' '
	fresh_index a b &&
	blob=$(git hash-object -w a) &&
	printf "0 %s\tb\n" $blob >info &&
	printf "100644 %s %d\tb\n" $blob 1 $blob 2 $blob 3 >>info &&
	git update-index --index-info <info &&
	run_both --refresh &&
	same_result &&
	echo "b: needs merge" >expect &&
	test_cmp expect dirc.out &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	run_both --unmerged --refresh &&
	same_result &&
	test_must_be_empty dirc.out &&
	run_both -q --refresh &&
	same_result
'

test_expect_success GIT 'core.trustctime=false: a ctime-only change leaves the index alone' '
	git config core.trustctime false &&
	test_when_finished "git config core.trustctime true" &&
	fresh_index a b c &&
	touch -d @$T2 .git/index &&
	chmod 600 a &&
	chmod 644 a &&
	run_both --refresh &&
	same_result &&
	test "$(stat -c %Y .git/index)" = $T2 &&
	diff_files_agree
'

test_expect_success GIT 'core.trustctime=true: a ctime change is refreshed the way git does' '
	fresh_index a b c &&
	touch -d @$T2 .git/index &&
	chmod 600 a &&
	chmod 644 a &&
	run_both --refresh &&
	same_result &&
	diff_files_agree
'

test_expect_success GIT 'core.checkStat=minimal: a new inode alone changes nothing' '
	git config core.checkStat minimal &&
	test_when_finished "git config --unset core.checkStat" &&
	fresh_index a b c &&
	touch -d @$T2 .git/index &&
	cp -p a a.new &&
	mv a.new a &&
	run_both --refresh &&
	same_result &&
	test "$(stat -c %Y .git/index)" = $T2 &&
	diff_files_agree &&
	put a aaaa $((T0 + 10)) &&
	run_both --refresh &&
	same_result &&
	diff_files_agree
'

test_expect_success GIT 'core.checkStat=default: a new inode is refreshed silently' '
	fresh_index a b c &&
	cp -p a a.new &&
	mv a.new a &&
	run_both --refresh &&
	same_result &&
	test_must_be_empty dirc.out &&
	diff_files_agree
'

test_expect_success GIT 'update-cache of an unchanged path does not rewrite the index' '
	fresh_index a b c &&
	touch -d @$T2 .git/index &&
	run_both a b &&
	same_result &&
	test "$(stat -c %Y .git/index)" = $T2
'

test_expect_success GIT 'update-cache of a touched path: new stat data, same id' '
	touch -d @$((T0 + 400)) a &&
	run_both a &&
	same_result &&
	diff_files_agree
'

test_expect_success GIT 'a racy entry named on the command line is rehashed' '
	git config core.trustctime false &&
	test_when_finished "git config core.trustctime true" &&
	put a aaaa $T1 &&
	fresh_index a b &&
	touch -d @$T1 .git/index &&
	put a AAAA $T1 &&
	run_both a &&
	same_result &&
	git hash-object a >id &&
	dirc ls-files -s a >actual &&
	test_grep "$(cat id)" actual &&
	diff_files_agree
'

test_expect_success GIT 'ls-files -m sees a racy change that stat alone misses' '
	git config core.trustctime false &&
	test_when_finished "git config core.trustctime true" &&
	put a aaaa $T1 &&
	fresh_index a b &&
	touch -d @$T1 .git/index &&
	put a AAAA $T1 &&
	dirc ls-files -m >actual &&
	echo a >expect &&
	test_cmp expect actual &&
	diff_files_agree a
'

# big_tree: 60 directories of 120 files (7,200, enough for three threads
# of refresh), dated T0, and an index of them written by git.
big_tree () {
	rm -rf big .git/index &&
	perl -e '
		for my $d (0 .. 59) {
			mkdir "big/d$d" or die "mkdir: $!" if mkdir "big" or -d "big";
			for my $f (0 .. 119) {
				my $p = "big/d$d/f$f";
				open my $h, ">", $p or die "$p: $!";
				print $h "$d $f\n";
				close $h;
				utime $ARGV[0], $ARGV[0], $p or die "utime: $!";
			}
		}' $T0 &&
	find big -type f | sort | git update-index --add --stdin &&
	git update-index --add a b
}

test_expect_success GIT,SYMLINKS 'a big index on three threads: every verdict reported and applied in index order, as git' '
	big_tree &&
	for d in 3 17 29 44 58
	do
		put big/d$d/f7 changed &&
		rm big/d$d/f90 &&
		touch -d @$T2 big/d$d/f33 || return 1
	done &&
	put big/d40/f1 "40 1" $T1 &&
	put big/d41/f2 "41 X" $T1 &&
	mv big/d50 big/d50.real &&
	ln -s d50.real big/d50 &&
	rm big/d12/f5 &&
	mkdir big/d12/f5 &&
	rm -r big/d33 &&
	echo file >big/d33 &&
	id=$(git hash-object -w big/d20/f20) &&
	git update-index --force-remove big/d20/f20 &&
	printf "100644 %s 1\tbig/d20/f20\n100644 %s 3\tbig/d20/f20\n" $id $id |
	git update-index --index-info &&
	cp .git/index big.index &&
	touch -d @$T1 .git/index &&
	for opts in "" --really-refresh -q --ignore-missing --unmerged
	do
		cp big.index .git/index &&
		touch -d @$T1 .git/index &&
		DIRC_THREADS=3 run_both $opts --refresh &&
		same_result || return 1
	done &&
	test_line_count -gt 120 dirc.out
'

test_done
