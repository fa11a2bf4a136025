#!/bin/sh
test_description='cat-file --batch, --batch-check, --batch-command: git'"'"'s answers, and the stream goes on

Each batch runs with git and with dirc on the same input in the same
repository; stdout, stderr and the exit code are compared.  A name that
does not resolve, a missing object, an ambiguous prefix or an object
whose header cannot be read is answered on its line and the batch goes
on; what git dies on mid-stream (an unknown object type, a bad
--batch-command line) dies the same way.  Damaged objects live in a
repository of their own ("bad"), which is not fsck-ed.'
. ./test-lib.sh
INTEROP_STATE=none
. "$TEST_DIRECTORY"/lib-interop.sh

# answers_like_git [-C DIR] INPUT ARGS...: same code and stdout as git;
# stderr is dirc's own: a damaged object is named in dirc's words (git
# prints one or two "error:" lines of zlib detail), checked by the caller.
answers_like_git () {
	al_dir=.
	if test "$1" = -C
	then
		al_dir=$2
		shift 2
	fi
	al_in=$1
	shift
	interop_run -C "$al_dir" -i "$al_in" cat-file "$@" &&
	test_cmp_codes git.code dirc.code &&
	test_cmp git.out dirc.out
}

put_loose () {
	pl_path=bad/.git/objects/$(echo $1 | cut -c1-2)/$(echo $1 | cut -c3-) &&
	mkdir -p "${pl_path%/*}" &&
	rm -f "$pl_path" &&
	cat "$2" >"$pl_path"
}

zlib_wrap () {
	perl -MCompress::Zlib -e '
		local $/; my $d = <STDIN>;
		print compress($d);
	' <"$1"
}

# Two blobs, "$ca\n" and "$cb\n", whose ids share their first 4 hex
# digits, $amb; $amb_a is 5 digits of the first (as in t1001).
test_expect_success GIT 'setup: objects written by git' '
	printf "hello\n" >hello &&
	printf "a\000b\n" >nul &&
	mkdir dir &&
	echo sub >dir/sub &&
	git add hello nul dir &&
	test_tick &&
	git commit -q -m one &&
	git tag -a -m tag v1 &&
	case $OID_ALGO in
	sha1)
		ca=401 cb=565 amb=066c &&
		ida=066cbfe90df97549063f2456117dee5ea594b98c ;;
	sha256)
		ca=131 cb=329 amb=c158 &&
		ida=c158a1b7eb2a64eaa2ede9c631042817725bc4f41ba21c0af4b50781b53c4ecd ;;
	esac &&
	a=$(echo $ca | git hash-object -w --stdin) &&
	b=$(echo $cb | git hash-object -w --stdin) &&
	test $a = $ida &&
	test $(echo $b | cut -c1-4) = $amb &&
	amb_a=$(echo $a | cut -c1-5) &&
	blob=$(git rev-parse HEAD:hello) &&
	tree=$(git rev-parse HEAD^{tree}) &&
	commit=$(git rev-parse HEAD) &&
	tag=$(git rev-parse v1) &&
	missing=$(test_oid_fake 0123456789) &&
	printf "%s\n" $blob $tree $commit $tag >ids &&
	: >empty
'

test_expect_success GIT 'names that do not resolve answer "missing" and the batch goes on' '
	printf "%s\n" HEAD "HEAD:nosuch" HEAD:hello ":nosuch" :hello \
		"nosuch:hello" "HEAD:dir/nosuch" "HEAD:hello/x" "HEAD~5" \
		"HEAD^3" "" nosuch "HEAD " " HEAD" "HEAD:dir" $missing \
		"HEAD^{tree}" "v1^{commit}" HEAD >names &&
	for b in --batch-check --batch --batch-check=%\(objectname\)
	do
		compare_with_git -i names cat-file $b || return 1
	done &&
	test_grep "^HEAD:nosuch missing\$" dirc.out &&
	test_line_count = 19 dirc.out
'

test_expect_success GIT 'ambiguous and missing ids among good ones' '
	printf "%s\n" $blob $amb $missing $commit $amb_a $amb $tag >mixed &&
	compare_with_git -i mixed cat-file --batch-check &&
	compare_with_git -i mixed cat-file --batch &&
	test_grep "^$amb ambiguous\$" dirc.out &&
	test_grep "^error: short object ID $amb is ambiguous\$" dirc.err
'

test_expect_success GIT 'a peel to the wrong type answers "missing" and goes on' '
	printf "%s\n" "HEAD^{blob}" HEAD >peel &&
	interop_run -i peel cat-file --batch-check &&
	test_cmp_codes git.code dirc.code &&
	test_cmp git.out dirc.out
'

test_expect_success GIT 'formats: every atom, %% and stray %, empty, as git' '
	printf "%s rest of line\n" $blob $tree $commit $tag >with-rest &&
	printf "%s\n" $blob "$tree	tabbed" "$commit   spaced  " \
		"nosuch x" " lead" >rest-cases &&
	for f in "%(objectname) %(objecttype) %(objectsize)" \
		"%(objectname)|%(objectsize:disk)|%(deltabase)" \
		"[%(rest)] %(objecttype)" "%(rest)" "" "%%(objectname)" \
		"%x%(objectname)" "%%%(objectname)%" "x%y%%(rest" "%" \
		"%(objectname)%(objectname)"
	do
		compare_with_git -i with-rest cat-file --batch-check="$f" &&
		compare_with_git -i rest-cases cat-file --batch-check="$f" &&
		compare_with_git -i with-rest cat-file --batch="$f" || return 1
	done
'

test_expect_success GIT 'a bad format dies before any input is read, as git' '
	for f in "%(bogus)" "%(objectname" "%(" "%()" "%(objectsize:foo)" \
		"%(Objectname)" "ok %(rest" "%%%(rest"
	do
		compare_with_git -i ids cat-file --batch-check="$f" &&
		test_must_be_empty dirc.out &&
		compare_with_git -i empty cat-file --batch="$f" &&
		compare_with_git -i empty cat-file --batch-command="$f" &&
		compare_with_git -i empty cat-file --batch-all-objects --batch-check="$f" ||
		return 1
	done
'

test_expect_success GIT '-z, and a CR before LF dropped as git drops it' '
	printf "%s\000" $blob nosuch "$commit rest" "HEAD\r" >nul-in &&
	compare_with_git -i nul-in cat-file -z --batch-check &&
	compare_with_git -i nul-in cat-file -z --batch-check="%(objectname) %(rest)" &&
	printf "HEAD\r\nHEAD:hello\r\nHEAD\r" >crlf &&
	compare_with_git -i crlf cat-file --batch-check &&
	compare_with_git -i crlf cat-file --batch &&
	test_grep "^$commit commit" dirc.out &&
	printf "info HEAD\r\ninfo HEAD\r" >crlf-cmd &&
	compare_with_git -i crlf-cmd cat-file --batch-command
'

test_expect_success GIT '--batch-command: info, contents, and a name with spaces' '
	{
		echo "info $blob" &&
		echo "contents $tree" &&
		echo "info $missing" &&
		echo "contents $amb" &&
		echo "contents $tag" &&
		echo "info HEAD x"
	} >commands &&
	compare_with_git -i commands cat-file --batch-command &&
	compare_with_git -i commands cat-file --batch-command --buffer &&
	compare_with_git -i commands cat-file --batch-command="%(objecttype) [%(rest)]" &&
	test_grep "^HEAD x missing\$" dirc.out
'

test_expect_success GIT '--batch-command: bad lines die with git'"'"'s message, after what came before' '
	for l in "" " info HEAD" "	info HEAD" "bogus" "info" "contents" \
		"infox HEAD" "contentsHEAD" "INFO HEAD" "info	HEAD" \
		"flush arg" "flushx" "$(printf "\013info HEAD")" \
		"$(printf "bad\001cmd")"
	do
		printf "info HEAD\n%s\ninfo HEAD\n" "$l" >bad-cmd &&
		compare_with_git -i bad-cmd cat-file --batch-command &&
		compare_with_git -i bad-cmd cat-file --batch-command --buffer &&
		test_must_be_empty dirc.out || return 1
	done &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	printf "info HEAD\nflush\n" >flush-unbuffered &&
	compare_with_git -i flush-unbuffered cat-file --batch-command &&
	test_grep "^fatal: flush is only for --buffer mode\$" dirc.err
'

test_expect_success GIT '--batch-command --buffer: output comes at flush, or at the end' '
	printf "info HEAD\nflush\ninfo HEAD:hello\ncontents HEAD:nul\n" >buffered &&
	compare_with_git -i buffered cat-file --batch-command --buffer &&
	test_line_count = 5 dirc.out &&
	printf "info HEAD\nflush\ninfo HEAD:hello\nbogus\n" >buffered-bad &&
	compare_with_git -i buffered-bad cat-file --batch-command --buffer &&
	test_line_count = 1 dirc.out &&
	printf "info HEAD\ninfo HEAD:hello\nflush\n" >flushed &&
	compare_with_git -i flushed cat-file --batch-command --buffer &&
	test_line_count = 2 dirc.out
'

test_expect_success GIT 'GIT_TEST_CAT_FILE_NO_FLUSH_ON_EXIT drops what was not flushed, as git' '
	printf "info HEAD\nflush\ninfo HEAD:hello\n" >partly &&
	GIT_TEST_CAT_FILE_NO_FLUSH_ON_EXIT=1 &&
	export GIT_TEST_CAT_FILE_NO_FLUSH_ON_EXIT &&
	compare_with_git -i partly cat-file --batch-command --buffer &&
	test_line_count = 1 dirc.out &&
	compare_with_git -i partly cat-file --batch-command --buffer --batch-all-objects &&
	unset GIT_TEST_CAT_FILE_NO_FLUSH_ON_EXIT
'

test_expect_success GIT '--buffer and --no-buffer print the same bytes' '
	cat ids names >both &&
	compare_with_git -i both cat-file --batch --buffer &&
	cp dirc.out buffered.out &&
	compare_with_git -i both cat-file --batch --no-buffer &&
	test_cmp buffered.out dirc.out
'

test_expect_success GIT 'setup: a repository of damaged and unknown-type objects' '
	git init -q bad &&
	(
		cd bad &&
		echo good >good &&
		git add good &&
		git commit -q -m good
	) &&
	good=$(git -C bad rev-parse HEAD:good) &&
	short=$(printf bogus | git -C bad hash-object -t bogus --literally -w --stdin) &&
	long=$(printf bogus | git -C bad hash-object -t abcdefghijklmnopqrstuvwxyz1234679 --literally -w --stdin) &&
	printf "blob 6\000hello\n" >raw-good &&
	zlib_wrap raw-good >z-good &&
	head -c 4 z-good >z-trunc &&
	head -c 10 z-good >z-cut &&
	echo junk >z-junk &&
	: >z-empty &&
	printf "blob 30\000hello\n" >raw-short &&
	zlib_wrap raw-short >z-short &&
	printf "blob 3\000hello\n" >raw-long &&
	zlib_wrap raw-long >z-long &&
	trunc=$(test_oid_fake 1) &&
	junk=$(test_oid_fake 2) &&
	emptyobj=$(test_oid_fake 3) &&
	shortobj=$(test_oid_fake 4) &&
	longobj=$(test_oid_fake 5) &&
	cutobj=$(test_oid_fake 6) &&
	put_loose $cutobj z-cut &&
	put_loose $trunc z-trunc &&
	put_loose $junk z-junk &&
	put_loose $emptyobj z-empty &&
	put_loose $shortobj z-short &&
	put_loose $longobj z-long
'

test_expect_success GIT 'an object whose header cannot be read: "missing", and the batch goes on' '
	printf "%s\n" $good $trunc HEAD $junk $emptyobj $good >bad-in &&
	for b in --batch-check --batch "--batch-check=%(objecttype)" \
		"--batch=%(objectsize)"
	do
		answers_like_git -C bad bad-in "$b" &&
		for id in $trunc $junk $emptyobj
		do
			test_grep "^error: .*$id.*corrupt" dirc.err || return 1
		done || return 1
	done &&
	test_grep "^$trunc missing\$" dirc.out &&
	printf "info %s\n" $good $junk $good >bad-cmd &&
	answers_like_git -C bad bad-cmd --batch-command
'

test_expect_success GIT 'only existence is checked when the format shows no type or size, as git' '
	printf "%s\n" $good $trunc $junk $short $long nosuch >exist-in &&
	compare_with_git -C bad -i exist-in cat-file "--batch-check=%(objectname) %(rest)" &&
	compare_with_git -C bad -i exist-in cat-file "--batch-check=" &&
	compare_with_git -C bad -i exist-in cat-file "--batch-check=%(objectsize:disk)"
'

test_expect_success GIT 'an object whose contents are damaged: an error, "missing", and the batch goes on' '
	printf "%s\n" $good $shortobj $longobj $cutobj $good >damaged &&
	(
		cd bad &&
		dirc cat-file --batch <../damaged >../out 2>../err
	) &&
	{
		printf "%s blob 5\ngood\n\n" $good &&
		printf "%s missing\n" $shortobj $longobj $cutobj &&
		printf "%s blob 5\ngood\n\n" $good
	} >expect &&
	test_cmp expect out &&
	test_grep "^error: .*$shortobj.*corrupt" err &&
	test_grep "^error: .*$longobj.*corrupt" err &&
	test_grep "^error: .*$cutobj.*corrupt" err &&
	(
		cd bad &&
		dirc cat-file --batch-check <../damaged >../out
	) &&
	test_line_count = 5 out
'

test_expect_success GIT 'unknown types: "invalid object type" dies, a header over 32 bytes is "missing", as git' '
	printf "%s\n" $good $long $good >long-in &&
	compare_with_git -C bad -i long-in cat-file --batch-check &&
	compare_with_git -C bad -i long-in cat-file --batch &&
	test_grep "^error: header for $long too long, exceeds 32 bytes\$" dirc.err &&
	test_grep "^$long missing\$" dirc.out &&
	printf "%s\n" $good $short $good >short-in &&
	compare_with_git -C bad -i short-in cat-file --batch-check &&
	compare_with_git -C bad -i short-in cat-file --batch &&
	compare_with_git -C bad -i short-in cat-file --batch-check --allow-unknown-type &&
	echo "fatal: invalid object type" >expect &&
	test_cmp expect dirc.err
'

test_expect_success GIT '%(objectsize:disk) and %(deltabase) of packed objects, as git' '
	git init -q packed &&
	(
		cd packed &&
		perl -e "srand(7); print map { chr(int(rand(256))) } 1..10240" >foo &&
		{ cat foo && echo plus; } >foo-plus &&
		git add foo foo-plus &&
		git commit -q -m foo &&
		git repack -adq
	) &&
	printf "%s\n" HEAD:foo HEAD:foo-plus HEAD HEAD^{tree} >packed-in &&
	compare_with_git -C packed -i packed-in cat-file \
		"--batch-check=%(objectname) %(objectsize) %(objectsize:disk) %(deltabase)" &&
	grep -v " $ZERO_OID\$" dirc.out >deltas &&
	test_line_count = 1 deltas
'

test_expect_success GIT '--batch-all-objects: loose, packed, alternates, each once, as git' '
	git init -q all-one &&
	(
		cd all-one &&
		echo content >file &&
		git add file &&
		git commit -q -m base &&
		git repack -adq &&
		echo not-cloned | git hash-object -w --stdin >/dev/null
	) &&
	git clone -q -s all-one all-two &&
	(
		cd all-two &&
		echo local-unref | git hash-object -w --stdin >/dev/null &&
		git rev-parse HEAD:file | git pack-objects -q .git/objects/pack/pack >/dev/null
	) &&
	for b in --batch-check --batch --batch-command "--batch-check=%(objectname)" \
		"--batch=%(rest)" "--batch-check=%(objectsize:disk)"
	do
		compare_with_git -C all-two -i empty cat-file --batch-all-objects "$b" || return 1
	done &&
	test_line_count = 5 dirc.out &&
	interop_run -C all-two cat-file --batch-all-objects --unordered --batch-check &&
	sort git.out >expect &&
	sort dirc.out >actual &&
	test_cmp expect actual &&
	test_line_count = 5 actual
'

test_expect_success GIT '--batch-all-objects ignores replacements, a batch of names honours them' '
	(
		cd all-two &&
		git cat-file commit HEAD >orig &&
		{ cat orig && echo extra; } >fake &&
		fake=$(git hash-object -t commit -w fake) &&
		git replace HEAD $fake
	) &&
	compare_with_git -C all-two -i empty cat-file --batch-all-objects --batch &&
	echo HEAD >head-in &&
	compare_with_git -C all-two -i head-in cat-file --batch &&
	test_grep "^extra\$" dirc.out
'

test_lazy_prereq STRACE 'strace -o /dev/null true'

# git buffers --batch-all-objects unless told --no-buffer (a flush per
# object made P7 1.4 times git's time); a batch of names flushes per line.
# LeakSanitizer cannot run under ptrace.
test_expect_success STRACE '--batch-all-objects buffers its output as git, --no-buffer flushes per object' '
	mkdir many &&
	(
		cd many &&
		dirc init -q &&
		for i in $(test_seq 200)
		do
			echo "blob $i" >f$i || return 1
		done &&
		dirc hash-object -w f* >/dev/null &&
		dirc cat-file --batch-check --batch-all-objects >list &&
		test_line_count = 200 list &&
		ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
			strace -o buf.trace -e trace=write \
			dirc cat-file --batch-check --batch-all-objects >out &&
		test_cmp list out &&
		test $(grep -c "^write(1," buf.trace) -lt 10 &&
		ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
			strace -o nobuf.trace -e trace=write \
			dirc cat-file --batch-check --batch-all-objects --no-buffer >out &&
		test_cmp list out &&
		test $(grep -c "^write(1," nobuf.trace) = 200
	)
'

# git resolves batch input without looking for a ref named like a full
# hex id: no "refname is ambiguous" warning there (-t still warns), and
# no ref lookups per line (they made P7 --batch 1.35 times git's time).
test_expect_success GIT 'a ref named like a full id: batches do not warn, -t does, as git' '
	git init -q hexref &&
	(
		cd hexref &&
		git commit -q --allow-empty -m one &&
		c=$(git rev-parse HEAD) &&
		git update-ref refs/heads/$c $c &&
		echo $c >../hexref-in &&
		echo "$c~0" >>../hexref-in &&
		echo "$c:" >>../hexref-in
	) &&
	for mode in --batch-check --batch "--batch-check --follow-symlinks"
	do
		compare_with_git -C hexref -i hexref-in cat-file $mode &&
		test_must_be_empty dirc.err || return 1
	done &&
	compare_with_git -C hexref cat-file -t "$(head -n 1 hexref-in)" &&
	test_grep "refname .* is ambiguous" dirc.err
'

# --batch and --batch-check read the objects of every line already in on
# the worker pool and answer in input order.  A history repacked with
# long delta chains, every object asked for in id order (P7's input), on
# one thread and on four, with and without --buffer, and mixed with
# names that do not resolve: git's bytes every time.
test_expect_success GIT 'setup: a history of delta chains' '
	git init -q chains &&
	(
		cd chains &&
		perl -e "srand(3); for (1..400) { print join(q( ), map { int(rand(1000)) } 1..12), qq(\n) }" >base &&
		for i in $(test_seq 40)
		do
			sed "${i}s/\$/ edit $i/" base >f &&
			sed "$((i * 3))d" base >g &&
			mkdir -p d$((i % 5)) &&
			echo "$i" >d$((i % 5))/n$i &&
			cp f base &&
			git add f g d$((i % 5)) &&
			git commit -q -m "step $i" || return 1
		done &&
		git repack -adfq --depth=250 --window=250 &&
		git cat-file --batch-all-objects --batch-check="%(objectname)" >../chains-ids
	) &&
	git -C chains cat-file --batch-all-objects --batch-check="%(deltabase)" |
		grep -v "^$ZERO_OID\$" >chains-deltas &&
	test $(wc -l <chains-deltas) -gt 40
'

test_expect_success GIT 'many lines at once: answered on the pool, in input order, as git' '
	{
		cat chains-ids &&
		echo HEAD~3:f &&
		echo no-such-name &&
		echo $ZERO_OID &&
		sort -r chains-ids
	} >chains-in &&
	for threads in 1 4
	do
		for mode in --batch --batch-check "--batch-check=%(objecttype) %(rest)" \
			"--batch=%(objectname)"
		do
			DIRC_THREADS=$threads compare_with_git -C chains -i chains-in \
				cat-file "$mode" || return 1
		done &&
		DIRC_THREADS=$threads compare_with_git -C chains -i chains-in \
			cat-file --batch --buffer &&
		for mode in --batch --batch-check
		do
			DIRC_THREADS=$threads compare_with_git -C chains -i empty \
				cat-file --batch-all-objects $mode || return 1
		done || return 1
	done
'

test_expect_success GIT 'test-tool read-objects reads every object, as perf P7 does' '
	DIRC_THREADS=2 GIT_DIR=chains/.git dirc test-tool read-objects <chains-ids >probe.out &&
	test_grep "^$(wc -l <chains-ids | tr -d " ") objects [0-9.]* s\$" probe.out &&
	GIT_DIR=chains/.git dirc test-tool read-objects --info --all >probe.out &&
	test_grep "^$(wc -l <chains-ids | tr -d " ") objects " probe.out
'

# A reader that writes one name and waits for its answer before writing
# the next must get each answer while dirc waits for more input: dirc
# answers what it has read, it does not wait for a full batch.  perl
# talks to dirc over two pipes; alarm fails the test instead of hanging.
test_expect_success GIT 'a reader asking for one object at a time gets each answer' '
	head -n 30 chains-ids >one-in &&
	GIT_DIR=chains/.git git cat-file --batch <one-in >expect &&
	for threads in 1 4
	do
		DIRC_THREADS=$threads GIT_DIR=chains/.git perl -MIPC::Open2 -e "
			alarm 30;
			my \$pid = open2(my \$out, my \$in, qw(dirc cat-file --batch));
			open(my \$ids, q(<), q(one-in)) or die;
			binmode \$out;
			while (my \$id = <\$ids>) {
				print \$in \$id;
				\$in->flush;
				my \$head = <\$out>;
				defined \$head or die q(no answer);
				print \$head;
				my (\$size) = \$head =~ / (\\d+)\$/;
				read(\$out, my \$body, \$size + 1) == \$size + 1 or die q(short);
				print \$body;
			}
			close \$in;
			waitpid(\$pid, 0);
			exit(\$? >> 8);
		" >actual &&
		test_cmp expect actual || return 1
	done
'

test_done
