#!/bin/sh
test_description='durability: core.fsync and core.fsyncMethod as git reads them

strace records the syncing system calls and the renames.  For every
combination of core.fsync and core.fsyncMethod the syncs dirc makes
must be the ones git makes for the same update; then the order: an
object or the index synced before its rename, and in batch mode every
object'"'"'s write-out started, one fsync, and only then the names.'
. ./test-lib.sh

if ! command -v strace >/dev/null 2>&1 ||
   ! strace -f -o /dev/null true 2>/dev/null
then
	skip_all='strace is missing or cannot trace here'
	test_done
fi

TRACE=fsync,fdatasync,sync_file_range,rename,renameat2,link

# traced FILE CMD...: run CMD under strace, the calls in FILE, one per line
# as "<call> <first path>" (a file name, or the file an fd is open on).
traced () {
	tr_out=$1 &&
	shift &&
	# LeakSanitizer cannot run under ptrace; the rest of ASan can
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
	strace -f -qq -y -e trace=$TRACE -o "$tr_out.raw" "$@" &&
	sed -n -e 's/^[0-9]* *\([a-z_0-9]*\)([^"]*"\([^"]*\)".*/\1 \2/p' \
		-e t -e 's/^[0-9]* *\([a-z_0-9]*\)([^<]*<\([^>]*\)>.*/\1 \2/p' \
		"$tr_out.raw" >"$tr_out"
}

# count CALL FILE: how many CALL lines FILE has
count () {
	grep -c "^$1 " "$2" || :
}

fresh_store () {
	rm -rf .git/index .git/objects/??
}

# syncs_of CMD...: in a fresh store, "fsyncs/write-outs" CMD makes
syncs_of () {
	fresh_store &&
	traced calls "$@" &&
	echo "$(count fsync calls)/$(count sync_file_range calls)"
}

fresh () {
	fresh_store &&
	git config --unset-all core.fsync;
	git config --unset-all core.fsyncMethod;
	git config --unset-all core.fsyncObjectFiles;
	true
}

test_expect_success 'setup: ten files' '
	for i in $(test_seq 10)
	do
		echo "content $i" >"f$i" || return 1
	done
'

test_expect_success GIT 'every core.fsync and core.fsyncMethod: the syncs git makes' '
	for cfg in "" loose-object loose-object,index index all,-index none \
		added "committed,-loose-object" objects,reference derived-metadata
	do
		for method in "" fsync batch writeout-only
		do
			fresh &&
			if test -n "$cfg"
			then
				git config core.fsync "$cfg" || return 1
			fi &&
			if test -n "$method"
			then
				git config core.fsyncMethod "$method" || return 1
			fi &&
			g=$(syncs_of git update-index --add f1 f2 f3) &&
			d=$(syncs_of dirc update-cache --add f1 f2 f3) &&
			echo "core.fsync=$cfg core.fsyncMethod=$method: git $g dirc $d" &&
			test "$g" = "$d" || return 1
		done || return 1
	done
'

test_expect_success 'default: git'"'"'s, nothing synced for objects or the index' '
	fresh &&
	traced calls dirc update-cache --add f1 f2 f3 f4 f5 f6 f7 f8 f9 f10 &&
	test "$(count fsync calls)" = 0 &&
	test "$(count fdatasync calls)" = 0 &&
	test "$(count sync_file_range calls)" = 0 &&
	test "$(count renameat2 calls)" = 10 &&
	test "$(count rename calls)" = 1
'

test_expect_success 'core.fsync=loose-object: each object synced before its rename' '
	fresh &&
	git config core.fsync loose-object &&
	traced calls dirc update-cache --add f1 f2 f3 f4 f5 f6 f7 f8 f9 f10 &&
	test "$(count fsync calls)" = 10 &&
	awk "/^fsync .*tmp_obj_/ { s[\$2] = 1 }
	     /^renameat2 .*tmp_obj_/ { n++; if (!s[\$2]) bad = 1 }
	     END { exit bad || n != 10 }" calls
'

test_expect_success 'core.fsync=index: the index synced before its rename' '
	fresh &&
	git config core.fsync index &&
	traced calls dirc update-cache --add f1 f2 &&
	cat >expect <<-EOF &&
	fsync $(pwd)/.git/index.lock
	rename $(pwd)/.git/index.lock
	EOF
	grep index.lock calls >actual &&
	test_cmp expect actual
'

test_expect_success 'core.fsyncObjectFiles=true: deprecated, still honoured, with git'"'"'s warning' '
	fresh &&
	git config core.fsyncObjectFiles true &&
	traced calls dirc update-cache --add f1 f2 2>err &&
	test "$(count fsync calls)" = 2 &&
	test_grep "core.fsyncObjectFiles is deprecated" err
'

test_expect_success 'an unknown component: a warning, the rest honoured' '
	fresh &&
	git config core.fsync "loose-object,frobs" &&
	traced calls dirc update-cache --add f1 2>err &&
	test "$(count fsync calls)" = 1 &&
	test_grep "frobs" err
'

test_expect_success 'core.fsyncMethod=batch: write-out each, one fsync, then the names' '
	fresh &&
	git config core.fsync loose-object &&
	git config core.fsyncMethod batch &&
	traced calls dirc update-cache --add f1 f2 f3 f4 f5 f6 f7 f8 f9 f10 &&
	test "$(count fsync calls)" = 1 &&
	test "$(count sync_file_range calls)" = 10 &&
	awk "/^sync_file_range / { w++ }
	     /^fsync / { f = NR; if (w != 10) bad = 1 }
	     /^renameat2 .*tmp_obj_/ { n++; if (!f) bad = 1 }
	     END { exit bad || n != 10 }" calls &&
	git ls-files -s >ls &&
	test_line_count = 10 ls &&
	git fsck --strict --no-dangling --no-progress &&
	find .git/objects -name "tmp_*" >leftovers &&
	test_must_be_empty leftovers
'

test_expect_success 'batch: write-tree and hash-object -w --stdin-paths name their objects' '
	mkdir -p d/e &&
	echo deep >d/e/f &&
	dirc update-cache --add d/e/f &&
	traced calls dirc write-tree >tree &&
	test "$(count fsync calls)" = 1 &&
	git cat-file -t $(cat tree) &&
	git ls-tree -r $(cat tree) >ls &&
	test_line_count = 11 ls &&
	echo new >g &&
	echo g | dirc hash-object -w --stdin-paths >id &&
	git cat-file -e $(cat id) &&
	find .git/objects -name "tmp_*" >leftovers &&
	test_must_be_empty leftovers
'

test_expect_success 'core.fsyncMethod=writeout-only: write-out started, never waited for' '
	fresh &&
	git config core.fsync loose-object,index &&
	git config core.fsyncMethod writeout-only &&
	traced calls dirc update-cache --add f1 f2 f3 &&
	test "$(count sync_file_range calls)" = 4 &&
	test "$(count fsync calls)" = 0
'

test_expect_success GIT 'core.fsync=reference: update-ref syncs the ref file like git (not its log)' '
	fresh &&
	dirc update-cache --add f1 &&
	tree=$(dirc write-tree) &&
	commit=$(echo m | dirc commit-tree $tree) &&
	for method in fsync writeout-only
	do
		git config core.fsync reference &&
		git config core.fsyncMethod $method &&
		traced calls git update-ref refs/heads/g-$method $commit &&
		g=$(count fsync calls)/$(count sync_file_range calls) &&
		traced calls dirc update-ref refs/heads/d-$method $commit &&
		d=$(count fsync calls)/$(count sync_file_range calls) &&
		echo "$method: git $g, dirc $d" &&
		test "$g" = "$d" &&
		test "$d" != 0/0 || return 1
	done &&
	git config --unset core.fsync &&
	traced calls dirc update-ref refs/heads/none $commit &&
	test "$(count fsync calls)" = 0
'

test_done
