#!/bin/sh
test_description='write-tree: same tree ids and index bytes as git, clean failures

Each case runs "git write-tree ARGS" and "dirc write-tree ARGS", both
starting from the same bytes in the same work tree: exit code,
stdout, stderr and the index written afterwards (TREE extension included)
must be equal.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh

T0=1500000000

# wt_both ARGS...: interop_run of write-tree (t/lib-interop.sh): git and
# then dirc from the same index; git's result in .git/index.by-git, the
# index as it was in .git/index.start.
wt_both () {
	interop_run write-tree "$@"
}

# count_objects: number of loose object files, on stdout.
count_objects () {
	find .git/objects -type f | wc -l
}

test_expect_success 'setup: a tricky tree, all dated in the past' '
	mkdir -p a "sp ace" d/e/f/g/h/i/j &&
	for f in a-b a.b a/b a0 ab a_b "sp ace/x y" " lead" "trail " \
		"$(printf "caf\303\251")" "$(printf "\346\227\245\346\234\254")" \
		d/e/f/g/h/i/j/deep d/e/top d/e-f d/e.f
	do
		printf "%s\n" "$f" >"$f" || return 1
	done &&
	: >empty &&
	echo "#!/bin/sh" >exe &&
	chmod +x exe &&
	echo x >d/e/f/run &&
	chmod 755 d/e/f/run &&
	find . -path ./.git -prune -o -type f -exec touch -d @$T0 {} + &&
	dirc update-cache --add a-b a.b a/b a0 ab a_b "sp ace/x y" " lead" \
		"trail " "$(printf "caf\303\251")" \
		"$(printf "\346\227\245\346\234\254")" d/e/f/g/h/i/j/deep \
		d/e/top d/e-f d/e.f empty exe d/e/f/run &&
	dirc update-cache --add --cacheinfo \
		160000,$(test_oid_fake 1234567890),mod &&
	dirc update-cache --add --cacheinfo \
		160000,$(test_oid_fake abcdef),d/e/sub &&
	dirc ls-files >actual &&
	test_line_count = 20 actual
'

test_expect_success SYMLINKS 'setup: symlinks' '
	ln -s a-b link &&
	ln -s "no where/at all" dangling &&
	ln -s ../../a0 d/e/up &&
	touch -h -d @$T0 link dangling d/e/up &&
	dirc update-cache --add link dangling d/e/up
'

test_expect_success GIT 'tricky tree: tree id and index bytes equal git'"'"'s' '
	wt_both &&
	same_result &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	test_line_count = 1 dirc.out &&
	test_must_be_empty dirc.err
'

test_expect_success GIT,SYMLINKS 'tricky tree: the tree objects are the ones git reads' '
	tree=$(cat dirc.out) &&
	git ls-tree -r -t --full-tree "$tree" >actual &&
	GIT_INDEX_FILE=.git/index.by-git git ls-files -s >stage &&
	git ls-tree -r "$tree" | sed -e "s/ [a-z]* / /" -e "s/	/ 0	/" >from-tree &&
	test_cmp stage from-tree &&
	git -c core.quotePath=false ls-tree --name-only "$tree" >names &&
	printf "%s\n" " lead" a-b a.b a a0 a_b ab "$(printf "caf\303\251")" \
		d dangling empty exe link mod "sp ace" "trail " \
		"$(printf "\346\227\245\346\234\254")" >expect &&
	test_cmp expect names
'

test_expect_success GIT 'a second write-tree: same id, index not rewritten' '
	cp -p .git/index before &&
	dirc write-tree >actual &&
	test_cmp dirc.out actual &&
	test_cmp before .git/index
'

test_expect_success GIT 'incremental change: one file updated, same bytes as git' '
	echo changed >d/e/f/g/h/i/j/deep &&
	touch -d @$((T0 + 10)) d/e/f/g/h/i/j/deep &&
	dirc update-cache d/e/f/g/h/i/j/deep &&
	wt_both &&
	same_result &&
	test_must_be_empty dirc.err &&
	! test_cmp before .git/index
'

test_expect_success GIT 'incremental change: an added and a removed file' '
	echo new >d/e/new &&
	touch -d @$T0 d/e/new &&
	dirc update-cache --add d/e/new &&
	dirc update-cache --force-remove a0 &&
	wt_both &&
	same_result
'

test_expect_success GIT '--prefix=d/ and --prefix=d print the subtree id' '
	wt_both --prefix=d/ &&
	same_result &&
	git rev-parse "$(git write-tree):d" >expect &&
	test_cmp expect dirc.out &&
	wt_both --prefix=d &&
	same_result &&
	test_cmp expect dirc.out &&
	wt_both --prefix=d/e/f/g &&
	same_result &&
	git rev-parse "$(git write-tree):d/e/f/g" >expect &&
	test_cmp expect dirc.out
'

test_expect_success GIT 'unknown prefix: fatal, 128, index untouched' '
	wt_both --prefix=zz/ &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	echo "fatal: git-write-tree: prefix zz/ not found" >expect &&
	test_cmp expect dirc.err &&
	test_must_be_empty dirc.out &&
	index_unchanged &&
	wt_both --prefix=zz &&
	same_result &&
	echo "fatal: git-write-tree: prefix zz not found" >expect &&
	test_cmp expect dirc.err
'

test_expect_success GIT 'a file is not a prefix' '
	wt_both --prefix=exe &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code
'

test_expect_success GIT 'intent-to-add entry: skipped, root left invalid like git' '
	echo ita >ita &&
	mkdir -p only &&
	echo ita2 >only/ita2 &&
	touch -d @$T0 ita only/ita2 &&
	git add -N ita only/ita2 &&
	wt_both &&
	same_result &&
	git ls-tree -r "$(cat dirc.out)" >tree &&
	test_grep -v "ita" tree &&
	tr "\000" "\n" <.git/index >lines &&
	test_grep -a -x -e "-1 [0-9]*" lines &&
	wt_both &&
	same_result &&
	git update-index --force-remove ita only/ita2
'

test_expect_success GIT 'missing object: error per entry, fatal, 128, index untouched' '
	ghost=$(test_oid_fake 1) &&
	dirc update-cache --add --cacheinfo 100644,$ghost,d/ghost &&
	wt_both &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	cat >expect <<-EOF &&
	error: invalid object 100644 $ghost for '\''d/ghost'\''
	fatal: git-write-tree: error building trees
	EOF
	test_cmp expect dirc.err &&
	test_must_be_empty dirc.out &&
	index_unchanged
'

test_expect_success GIT '--missing-ok writes the tree anyway' '
	wt_both --missing-ok &&
	same_result &&
	test_must_be_empty dirc.err &&
	git cat-file -p "$(cat dirc.out):d" >d.tree &&
	test_grep "$ghost	ghost" d.tree
'

test_expect_success GIT 'after --missing-ok a plain write-tree trusts the cache-tree, like git' '
	wt_both &&
	same_result &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	dirc update-cache --force-remove d/ghost &&
	dirc write-tree >/dev/null
'

test_expect_success GIT 'unmerged entries: listed, fatal, 128, index untouched' '
	blob=$(git hash-object -w a-b) &&
	printf "100644 %s 1\tconflict\n100644 %s 2\tconflict\n100644 %s 3\tconflict\n" \
		$blob $blob $blob >info &&
	dirc update-cache --index-info <info &&
	wt_both &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	cat >expect <<-EOF &&
	conflict: unmerged ($blob)
	conflict: unmerged ($blob)
	conflict: unmerged ($blob)
	fatal: git-write-tree: error building trees
	EOF
	test_cmp expect dirc.err &&
	test_must_be_empty dirc.out &&
	index_unchanged
'

test_expect_success GIT 'more than ten unmerged entries: the list is cut like git'"'"'s' '
	for i in 1 2 3 4 5
	do
		printf "100644 %s 1\tu$i\n100644 %s 2\tu$i\n100644 %s 3\tu$i\n" \
			$blob $blob $blob || return 1
	done >info &&
	dirc update-cache --index-info <info &&
	wt_both &&
	same_result &&
	test_grep "^\.\.\.$" dirc.err &&
	for p in conflict u1 u2 u3 u4 u5
	do
		printf "0 %s\t%s\n" $ZERO_OID $p || return 1
	done >remove &&
	dirc update-cache --index-info <remove &&
	dirc ls-files -u >actual &&
	test_must_be_empty actual
'

test_expect_success GIT 'held index.lock: git'"'"'s message, 128, index untouched' '
	echo more >>a-b &&
	touch -d @$((T0 + 20)) a-b &&
	dirc update-cache a-b &&
	cp -p .git/index .git/index.start &&
	: >.git/index.lock &&
	test_when_finished "rm -f .git/index.lock" &&
	test_expect_code 128 git write-tree >git.out 2>git.err &&
	test_expect_code 128 dirc write-tree >dirc.out 2>dirc.err &&
	git_msgs_now <git.err >git.err.now &&
	test_cmp git.err.now dirc.err &&
	test_cmp git.out dirc.out &&
	test_grep "^fatal: Unable to create '\''.*/\.git/index\.lock'\'': File exists\.$" dirc.err &&
	index_unchanged &&
	test_path_is_file .git/index.lock &&
	test_must_be_empty .git/index.lock
'

test_expect_success GIT 'not in a repository: fatal, 128' '
	mkdir -p outside &&
	(
		cd outside &&
		GIT_CEILING_DIRECTORIES=$TRASH_DIRECTORY &&
		export GIT_CEILING_DIRECTORIES &&
		test_expect_code 128 git write-tree >../git.out 2>../git.err &&
		test_expect_code 128 dirc write-tree >../dirc.out 2>../dirc.err
	) &&
	test_cmp git.err dirc.err
'

# gen_tree N: write N files under the current directory, deterministically
# (Park-Miller generator, exact in double arithmetic): up to four levels,
# names sorting around ".", "-" and "/", every seventh file executable.
# The paths are listed in "list".
gen_tree () {
	awk -v n="$1" 'BEGIN {
		seed = 1
		for (i = 0; i < n; i++) {
			seed = (seed * 16807) % 2147483647
			d1 = "d" (seed % 17)
			seed = (seed * 16807) % 2147483647
			d2 = d1 (seed % 2 ? "/s" : "/s-") (seed % 13)
			seed = (seed * 16807) % 2147483647
			lv = seed % 4
			if (lv == 0) dir = ""
			else if (lv == 1) dir = d1 "/"
			else dir = d2 "/"
			if (lv == 3) dir = dir "t" (seed % 5) "/"
			ext = (i % 5 == 0) ? ".c" : (i % 5 == 1) ? "-x" : (i % 5 == 2) ? "" : ".h"
			print dir "f" (seed % 1000) ext
		}
	}' | sort -u >list &&
	sed -n 's|/[^/]*$||p' list | sort -u >dirs &&
	# a path may not be both a file and a directory
	awk 'NR == FNR { d[$0] = 1; next } !($0 in d)' dirs list >files &&
	mv files list &&
	xargs mkdir -p <dirs &&
	awk '{ print "content of " $0 " " NR > $0; close($0) }' list &&
	awk 'NR % 7 == 0' list | xargs chmod +x &&
	xargs touch -d @$T0 <list
}

test_expect_success GIT 'setup: a generated tree of a few thousand files' '
	mkdir gen &&
	(
		cd gen &&
		dirc init -q &&
		gen_tree 4000 &&
		mv list dirs .git/ &&
		dirc update-cache --add --stdin <.git/list &&
		dirc ls-files >.git/ls &&
		test_line_count -gt 2500 .git/ls
	) &&
	test_fsck_also gen
'

test_expect_success GIT 'generated tree: tree id and index bytes equal git'"'"'s' '
	(
		cd gen &&
		wt_both &&
		same_result &&
		test_must_be_empty dirc.err &&
		git ls-tree -r "$(cat dirc.out)" >tree &&
		test_line_count -gt 2500 tree
	)
'

test_expect_success GIT 'generated tree: incremental changes, same bytes as git' '
	(
		cd gen &&
		f=$(sed -n 100p .git/list) &&
		echo changed >>"$f" &&
		touch -d @$((T0 + 5)) "$f" &&
		dirc update-cache "$f" &&
		wt_both &&
		same_result &&
		g=$(sed -n 2000p .git/list) &&
		dirc update-cache --force-remove "$g" &&
		mkdir -p new/deep &&
		echo new >new/deep/file &&
		touch -d @$T0 new/deep/file &&
		dirc update-cache --add new/deep/file &&
		wt_both &&
		same_result &&
		wt_both --prefix=new &&
		same_result
	)
'

test_lazy_prereq STRACE '
	strace -f -qq -o /dev/null true
'

# clones OUT ARGS...: how many threads "dirc ARGS" starts beyond those of
# the same command with --threads=1 (a sanitizer's own clones cancel out),
# written to OUT; the tree id must equal git's.  LeakSanitizer cannot run
# under ptrace.
clones () {
	cl_out=$1 &&
	shift &&
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
		strace -f -qq -e trace=clone,clone3 -o ../one.st \
		dirc "$@" --threads=1 >../one.out &&
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
		strace -f -qq -e trace=clone,clone3 -o ../many.st \
		dirc "$@" >../many.out &&
	git write-tree >../git.out &&
	test_cmp ../git.out ../one.out &&
	test_cmp ../git.out ../many.out &&
	echo $(( $(grep -c clone ../many.st) - $(grep -c clone ../one.st) )) \
		>"$cl_out"
}

test_expect_success GIT,STRACE 'thread count: --threads, then DIRC_THREADS, then dirc.threads' '
	(
		cd gen &&
		DIRC_THREADS=2 clones ../n -c dirc.threads=1 \
			write-tree --ignore-cache-tree &&
		test "$(cat ../n)" -gt 0 &&
		DIRC_THREADS=1 clones ../n -c dirc.threads=2 \
			write-tree --ignore-cache-tree &&
		test "$(cat ../n)" = 0 &&
		clones ../n -c dirc.threads=2 write-tree --ignore-cache-tree &&
		test "$(cat ../n)" -gt 0 &&
		DIRC_THREADS=1 clones ../n -c dirc.threads=1 \
			write-tree --ignore-cache-tree --threads=2 &&
		test "$(cat ../n)" -gt 0
	)
'

# add_zzzz: append an unknown optional extension to .git/index
. "$TEST_DIRECTORY"/lib-catalogue.sh
add_zzzz () {
	craft .git/index .git/index.zz '$d .= "ZZZZ" . pack("N", 5) . "hello"' &&
	mv .git/index.zz .git/index
}

test_expect_success GIT 'valid cache-tree: one "ignoring" line, as git' '
	git init -q zz &&
	(
		cd zz &&
		mkdir d && echo a >d/a && echo b >b &&
		git update-index --add b d/a &&
		git write-tree >expect &&
		add_zzzz &&
		cp .git/index index.zz &&
		git write-tree >expect.git 2>err.git &&
		cp index.zz .git/index &&
		dirc write-tree >actual 2>err &&
		test_cmp expect actual &&
		test_cmp expect.git actual &&
		test_cmp err.git err &&
		echo "ignoring ZZZZ extension" >expect.err &&
		test_cmp expect.err err &&
		test_cmp index.zz .git/index
	)
'

test_expect_success GIT 'invalid cache-tree: one "ignoring" line, as git' '
	(
		cd zz &&
		echo c >c &&
		git update-index --add c &&
		add_zzzz &&
		cp .git/index index.zz &&
		git write-tree >expect 2>err.git &&
		cp index.zz .git/index &&
		dirc write-tree >actual 2>err &&
		test_cmp expect actual &&
		test_cmp err.git err &&
		echo "ignoring ZZZZ extension" >expect.err &&
		test_cmp expect.err err
	)
'

test_expect_success 'valid cache-tree but entries out of order: refused, 128, index unchanged' '
	(
		cd zz &&
		rm -f .git/index &&
		dirc update-cache --add b c d/a &&
		dirc write-tree >/dev/null &&
		# swap the names "b" and "c": version 2 entries from offset
		# 12, each name after 40 bytes of stat data, the id and 2
		# bytes of flags, a one-byte name padded to 8 bytes
		b=$((12 + 42 + OID_RAWSZ)) &&
		c=$((b + ((42 + OID_RAWSZ + 1 + 8) & ~7))) &&
		craft .git/index .git/index.swapped "
			substr(\$d, $b, 1) eq \"b\" && substr(\$d, $c, 1) eq \"c\"
				or die \"not the layout expected\";
			substr(\$d, $b, 1) = \"c\"; substr(\$d, $c, 1) = \"b\"" &&
		mv .git/index.swapped .git/index &&
		cp .git/index index.bad &&
		test_expect_code 128 dirc write-tree >out 2>err &&
		test_must_be_empty out &&
		test_grep "out of order" err &&
		test_cmp index.bad .git/index &&
		test_path_is_missing .git/index.lock
	)
'

test_expect_success 'GIT_TRACE2_PERF: the cache_tree/update region only when the trees are computed (git 2.55 t0090)' '
	echo traced >traced &&
	dirc update-cache --add traced &&
	GIT_TRACE2_PERF="$(pwd)/trace.output" dirc write-tree >tree &&
	test_grep "| region_enter | r1  | .* | cache_tree   | label:update$" trace.output &&
	test_grep "| region_leave | r1  | .* | cache_tree   | label:update$" trace.output &&
	test_grep "| exit         |     | .* | code:0$" trace.output &&
	rm trace.output &&
	GIT_TRACE2_PERF="$(pwd)/trace.output" dirc write-tree >tree2 &&
	test_cmp tree tree2 &&
	test_grep -v "region_enter.*cache_tree.*update" trace.output &&
	test_grep "| start        |" trace.output &&
	rm trace.output &&
	mkdir traces &&
	GIT_TRACE2_PERF="$(pwd)/traces" dirc write-tree >/dev/null &&
	GIT_TRACE2_PERF="$(pwd)/traces" dirc write-tree >/dev/null &&
	ls traces >files &&
	test_line_count = 2 files &&
	GIT_TRACE2_PERF=1 dirc write-tree >out 2>err &&
	test_cmp tree out &&
	test_grep "| version      |" err &&
	GIT_TRACE2_PERF=0 dirc write-tree >out 2>err &&
	test_must_be_empty err &&
	GIT_TRACE2_PERF=relative dirc write-tree >out 2>err &&
	test_cmp tree out &&
	echo "warning: trace2: unknown value for '\''GIT_TRACE2_PERF'\'': '\''relative'\''" >expect &&
	test_cmp expect err
'

test_expect_success GIT_NEW 'git 2.55: GIT_TRACE2_PERF regions and messages alike' '
	echo traced2 >traced2 &&
	dirc update-cache --add traced2 &&
	cp .git/index index.before &&
	GIT_TRACE2_PERF="$(pwd)/git.trace" git_new write-tree >expect &&
	cp index.before .git/index &&
	GIT_TRACE2_PERF="$(pwd)/dirc.trace" dirc write-tree >actual &&
	test_cmp expect actual &&
	for t in git.trace dirc.trace
	do
		sed -n "s/.*| \(region_[a-z]*\) *| r1  | .* | \(cache_tree *| label:update\)$/\1 \2/p" $t >$t.regions || return 1
	done &&
	test_cmp git.trace.regions dirc.trace.regions &&
	test_line_count = 2 dirc.trace.regions &&
	GIT_TRACE2_PERF=relative git_new write-tree >/dev/null 2>expect &&
	GIT_TRACE2_PERF=relative dirc write-tree >/dev/null 2>actual &&
	test_cmp expect actual
'

test_done
