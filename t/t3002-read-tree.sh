#!/bin/sh
test_description='read-tree: the index git writes, one-way merges, work tree updates, errors

lib-checkout runs "git read-tree ARGS" and "dirc read-tree ARGS" from the
same index in the same work tree: exit code, stdout, stderr and the index
written (TREE extension included) must be equal.  Cases that update the
work tree (-u) use its twins: git runs in the repository "rg" and dirc in
"rd", two repositories set up alike; exit codes, messages, the entries,
the work trees and "git diff-files" must be equal.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-checkout.sh

T0=1500000000

# reset_to_tree1: index (by git) and work tree at tree1, stat data fresh;
# for test_when_finished, so that a failure does not spill over.
reset_to_tree1 () {
	git read-tree "$tree1" &&
	put a a &&
	git update-index -q --refresh
}

count_objects () {
	find .git/objects -type f | wc -l
}

# put FILE CONTENT: write FILE (and its directories), dated T0.
put () {
	case $1 in
	*/*) mkdir -p "${1%/*}" ;;
	esac &&
	printf "%s\n" "$2" >"$1" &&
	touch -d @$T0 "$1"
}

# make_trees: in the current directory (a repository), the files of tree1,
# staged by git, and tree1, tree2 (a changed, b removed, c and d/g/h added,
# x no longer executable) and the commit of tree1 on master.  The index and
# work tree are left at tree1.  Ids in the files tree1, tree2, commit1.
make_trees () {
	put a a &&
	put b b &&
	put d/e/f f &&
	put d/e/f2 f2 &&
	put x x &&
	chmod +x x &&
	ln -s a l &&
	touch -h -d @$T0 l &&
	git update-index --add a b d/e/f d/e/f2 x l &&
	git write-tree >tree1 &&
	git commit-tree -m one "$(cat tree1)" >commit1 &&
	git update-ref refs/heads/master "$(cat commit1)" &&
	put a "a, changed" &&
	put c c &&
	put d/g/h h &&
	chmod -x x &&
	rm b &&
	git update-index --add --remove a b c d/g/h x &&
	git write-tree >tree2 &&
	git read-tree -m -u "$(cat tree1)" &&
	git update-index -q --refresh
}

test_expect_success GIT 'setup' '
	make_trees &&
	tree1=$(cat tree1) &&
	tree2=$(cat tree2) &&
	commit1=$(cat commit1) &&
	git ls-files -s >stage &&
	test_line_count = 6 stage
'

test_expect_success GIT 'read-tree <tree>: index bytes equal git'"'"'s, stat data zero' '
	interop_run read-tree "$tree2" &&
	same_result &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	test_must_be_empty dirc.err &&
	git ls-tree -r "$tree2" | sed -e "s/ [a-z]* / /" -e "s/	/ 0	/" >expect &&
	git ls-files -s >actual &&
	test_cmp expect actual &&
	git ls-files --debug >debug &&
	test_grep -v "mtime: [1-9]" debug
'

test_expect_success GIT 'read-tree <tree>: TREE fully valid, write-tree has nothing to do' '
	count_objects >before &&
	cp -p .git/index index.before &&
	dirc write-tree >actual &&
	echo "$tree2" >expect &&
	test_cmp expect actual &&
	count_objects >after &&
	test_cmp before after &&
	test_cmp index.before .git/index
'

test_expect_success GIT 'read-tree <commit> and <branch>: peeled to the tree' '
	interop_run read-tree "$commit1" &&
	same_result &&
	test_must_be_empty dirc.err &&
	interop_run read-tree "$tree2" &&
	interop_run read-tree master &&
	same_result &&
	interop_run read-tree "$tree2" &&
	interop_run read-tree HEAD &&
	same_result &&
	dirc write-tree >actual &&
	echo "$tree1" >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'read-tree <tree>:<path> and <rev>^{tree} name trees too' '
	interop_run read-tree "$commit1:d" &&
	same_result &&
	interop_run read-tree "master^{tree}" &&
	same_result
'

test_expect_success GIT 'read-tree --empty: index bytes equal git'"'"'s' '
	interop_run read-tree --empty &&
	same_result &&
	test_must_be_empty dirc.err &&
	git ls-files >actual &&
	test_must_be_empty actual
'

test_expect_success GIT 'read-tree with no arguments: empties, with git'"'"'s warning' '
	interop_run read-tree "$tree1" &&
	interop_run read-tree &&
	same_result &&
	echo "warning: read-tree: emptying the index with no arguments is deprecated; use --empty" >expect &&
	test_cmp expect dirc.err &&
	echo 0 >expect &&
	test_cmp expect dirc.code
'

test_expect_success GIT 'read-tree --prefix=sub/ <tree>: index bytes equal git'"'"'s' '
	interop_run read-tree "$tree1" &&
	interop_run read-tree --prefix=sub/ "$tree2" &&
	same_result &&
	test_must_be_empty dirc.err &&
	git ls-files >actual &&
	test_grep "^sub/d/g/h$" actual &&
	test_grep "^d/e/f$" actual
'

test_expect_success GIT 'read-tree --prefix: a deeper prefix, and one without the slash' '
	interop_run read-tree --prefix=deep/er/ "$tree1" &&
	same_result &&
	interop_run read-tree --prefix=noslash "$tree1" &&
	same_result &&
	git ls-files >actual &&
	test_grep "^noslash/a$" actual
'

test_expect_success GIT 'read-tree --prefix: overlap refused, one error, 128, index untouched' '
	fails_like_git 128 "error: Entry '\''sub/a'\'' overlaps with '\''sub/a'\''.  Cannot bind." \
		read-tree --prefix=sub/ "$tree1"
'

test_expect_success GIT 'read-tree --prefix without the slash: overlap refused the same way' '
	fails_like_git 128 "error: Entry '\''sub/a'\'' overlaps with '\''sub/a'\''.  Cannot bind." \
		read-tree --prefix=sub "$tree1"
'

test_expect_success GIT 'read-tree --prefix onto a file: refused like git' '
	interop_run read-tree --prefix=a/ "$tree1" &&
	same_result &&
	test_must_fail dirc read-tree --prefix=a/ "$tree1" 2>/dev/null
'

test_expect_success GIT 'setup: index and work tree at tree1, stat data recorded' '
	interop_run read-tree "$tree1" &&
	git update-index -q --refresh &&
	git diff-files >actual &&
	test_must_be_empty actual &&
	git ls-files --debug >debug &&
	test_grep -v "mtime: 0:" debug
'

test_expect_success GIT 'read-tree -m <same tree> keeps every entry'"'"'s stat data' '
	interop_run read-tree -m "$tree1" &&
	same_result &&
	git ls-files --debug >debug &&
	test_grep -v "mtime: 0:" debug &&
	test_grep -v "ino: 0" debug &&
	cp -p .git/index index.before &&
	dirc update-cache --refresh >out 2>err &&
	test_must_be_empty out &&
	test_must_be_empty err &&
	test_cmp index.before .git/index &&
	git diff-files >actual &&
	test_must_be_empty actual
'

test_expect_success GIT 'read-tree -m <other tree>: unchanged entries keep their stat data' '
	test_when_finished reset_to_tree1 &&
	interop_run read-tree -m "$tree2" &&
	same_result &&
	git ls-files --debug d/e/f >debug &&
	test_grep "mtime: $T0:" debug &&
	git ls-files --debug a >debug &&
	test_grep "mtime: 0:0" debug &&
	test_path_is_file b
'

test_expect_success GIT 'read-tree -m: entries not up to date, git stops at the first' '
	test_when_finished reset_to_tree1 &&
	interop_run read-tree -m "$tree2" &&
	interop_run read-tree -m "$tree1" &&
	echo 128 >expect &&
	test_cmp expect git.code &&
	same_result &&
	test_line_count = 1 dirc.err
'

test_expect_success GIT 'read-tree -m with a local change to a changed entry: refused, 128' '
	git diff-files >actual &&
	test_must_be_empty actual &&
	put a "local change" &&
	touch -d @$((T0 + 5)) a &&
	fails_like_git 128 "error: Entry '\''a'\'' not uptodate. Cannot merge." \
		read-tree -m "$tree2" &&
	test_grep "local change" a
'

test_expect_success GIT 'read-tree -m -i does not look at the work tree' '
	test_when_finished reset_to_tree1 &&
	interop_run read-tree -m -i "$tree2" &&
	same_result &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	test_grep "local change" a
'

test_expect_success GIT 'read-tree -i without -m: refused like git' '
	fails_like_git 128 "fatal: -i is meaningless without -m, --reset, or --prefix" \
		read-tree -i "$tree2"
'

test_expect_success GIT 'read-tree --index-output=<file>: the index stays, the file gets git'"'"'s bytes' '
	cp -p .git/index .git/index.start &&
	cp -p .git/index .git/index.git &&
	GIT_INDEX_FILE=.git/index.git git read-tree --index-output=.git/out.git "$tree2" &&
	dirc read-tree --index-output=.git/out.dirc "$tree2" >out 2>err &&
	test_must_be_empty out &&
	test_must_be_empty err &&
	test_cmp .git/out.git .git/out.dirc &&
	test_cmp .git/index.start .git/index &&
	test_path_is_missing .git/out.dirc.lock &&
	GIT_INDEX_FILE=.git/out.dirc git ls-files >actual &&
	test_grep "^c$" actual
'

test_expect_success GIT 'unknown name: fatal, 128, index untouched' '
	fails_like_git 128 "fatal: Not a valid object name nonexist" read-tree nonexist
'

test_expect_success GIT 'a missing tree object: fatal, 128, index untouched' '
	missing=$(test_oid_fake 1234567890) &&
	fails_like_git 128 "fatal: failed to unpack tree object $missing" \
		read-tree $missing
'

test_expect_success GIT 'a blob is not a tree: fails like git, index untouched' '
	blob=$(git rev-parse "$tree1:a") &&
	interop_run read-tree "$blob" &&
	same_result &&
	test_must_fail dirc read-tree "$blob" 2>/dev/null &&
	index_unchanged
'

test_expect_success GIT '-u without -m: fatal, 128' '
	fails_like_git 128 "fatal: -u is meaningless without -m, --reset, or --prefix" \
		read-tree -u "$tree1"
'

test_expect_success GIT '--empty with a tree: fatal, 128' '
	fails_like_git 128 "fatal: passing trees as arguments contradicts --empty" \
		read-tree --empty "$tree1"
'

test_expect_success GIT '--prefix=/x: fatal, 128' '
	fails_like_git 128 "fatal: Invalid prefix, prefix cannot start with '\''/'\''" \
		read-tree --prefix=/x "$tree1"
'

test_expect_success GIT '-m without a tree: fatal, 128' '
	fails_like_git 128 "fatal: you must specify at least one tree to merge" read-tree -m
'

test_expect_success GIT '-m with --prefix: fatal "Which one?", 128' '
	fails_like_git 128 "fatal: Which one? -m, --reset, or --prefix?" \
		read-tree -m --prefix=q/ "$tree1"
'

test_expect_success GIT '-m with --reset: fatal "Which one?", 128' '
	fails_like_git 128 "fatal: Which one? -m, --reset, or --prefix?" \
		read-tree -m --reset "$tree1"
'

test_expect_success GIT 'unmerged index with -m: fatal, 128, index untouched' '
	blob=$(git rev-parse "$tree1:a") &&
	printf "100644 %s 1\ta\n100644 %s 2\ta\n" $blob $blob >info &&
	git update-index --index-info <info &&
	fails_like_git 128 "fatal: You need to resolve your current index first" \
		read-tree -m "$tree1"
'

test_expect_success GIT 'unmerged index: a plain read and --reset replace it' '
	cp -p .git/index unmerged &&
	interop_run read-tree "$tree1" &&
	same_result &&
	cp -p unmerged .git/index &&
	interop_run read-tree --reset "$tree1" &&
	same_result &&
	git ls-files -u >actual &&
	test_must_be_empty actual
'

test_expect_success GIT 'held index.lock: git'"'"'s message, 128, index untouched' '
	cp -p .git/index .git/index.start &&
	: >.git/index.lock &&
	test_when_finished "rm -f .git/index.lock" &&
	test_expect_code 128 git read-tree "$tree2" 2>git.err &&
	test_expect_code 128 dirc read-tree "$tree2" 2>dirc.err &&
	git_msgs_now <git.err >git.err.now &&
	test_cmp git.err.now dirc.err &&
	test_grep "^fatal: Unable to create '\''.*/\.git/index\.lock'\'': File exists\.$" dirc.err &&
	test_cmp .git/index.start .git/index &&
	test_must_be_empty .git/index.lock
'

# hex2bin HEX: the raw bytes of HEX (dash's printf knows no \x).
hex2bin () {
	hb_oct=
	for hb_pair in $(echo "$1" | sed "s/../& /g")
	do
		hb_oct="$hb_oct\\$(printf %03o "0x$hb_pair")" || return 1
	done
	printf "$hb_oct"
}

test_expect_success GIT 'setup: corrupt trees, in the repository "bad"' '
	git init -q bad &&
	(
		cd bad &&
		put a a &&
		put b b &&
		put d/f f &&
		git update-index --add a b d/f &&
		git write-tree >tree &&
		A=$(git rev-parse "$(cat tree):a") &&
		B=$(git rev-parse "$(cat tree):b") &&
		D=$(git rev-parse "$(cat tree):d") &&
		{ printf "100644 b\000" && hex2bin $B && printf "100644 a\000" && hex2bin $A; } >raw &&
		git hash-object -t tree --literally -w raw >unsorted &&
		{ printf "100649 a\000" && hex2bin $A; } >raw &&
		git hash-object -t tree --literally -w raw >badmode &&
		{ printf "0100644 a\000" && hex2bin $A; } >raw &&
		git hash-object -t tree --literally -w raw >zeropad &&
		{ printf "100644 a\000" && hex2bin $A | head -c 10; } >raw &&
		git hash-object -t tree --literally -w raw >truncated &&
		{ printf "100644 a\000" && hex2bin $A && printf "100644 a\000" && hex2bin $B; } >raw &&
		git hash-object -t tree --literally -w raw >dup &&
		{ printf "100644 d\000" && hex2bin $A && printf "40000 d\000" && hex2bin $D; } >raw &&
		git hash-object -t tree --literally -w raw >dupdir &&
		{ printf "100644 \000" && hex2bin $A; } >raw &&
		git hash-object -t tree --literally -w raw >emptyname &&
		{ printf "100644 .git\000" && hex2bin $A; } >raw &&
		git hash-object -t tree --literally -w raw >dotgit &&
		{ printf "40000 ..\000" && hex2bin $D; } >raw &&
		git hash-object -t tree --literally -w raw >dotdot &&
		git ls-tree "$(cat dup)" >actual &&
		test_line_count = 2 actual
	)
'

# corrupt_refused TREE WHAT: dirc read-tree TREE fails (1 or 128, not a
# crash) with an error that says what is wrong, and leaves the index
# untouched.
corrupt_refused () {
	cp -p .git/index .git/index.start &&
	test_must_fail dirc read-tree "$1" >dirc.out 2>dirc.err || {
		echo "dirc read-tree $1 did not fail as it should:" >&2
		cat dirc.err >&2
		return 1
	}
	test_grep -i -e "$2" dirc.err &&
	test_must_be_empty dirc.out &&
	index_unchanged &&
	test_path_is_missing .git/index.lock
}

test_expect_success GIT 'corrupt tree: bad mode, same message as git' '
	(
		cd bad &&
		fails_like_git 128 "fatal: malformed mode in tree entry" \
			read-tree "$(cat badmode)"
	)
'

test_expect_success GIT 'corrupt tree: truncated entry, same message as git' '
	(
		cd bad &&
		fails_like_git 128 "fatal: too-short tree object" \
			read-tree "$(cat truncated)"
	)
'

test_expect_success GIT 'corrupt tree: empty name, same message as git' '
	(
		cd bad &&
		fails_like_git 128 "fatal: empty filename in tree entry" \
			read-tree "$(cat emptyname)"
	)
'

test_expect_success GIT 'corrupt tree: a .git entry refused like git' '
	(
		cd bad &&
		fails_like_git 128 "error: invalid path '\''.git'\''" \
			read-tree "$(cat dotgit)"
	)
'

test_expect_success GIT 'corrupt tree: a .. entry refused (128), index untouched' '
	(
		cd bad &&
		corrupt_refused "$(cat dotdot)" "\.\." &&
		test_expect_code 128 dirc read-tree "$(cat dotdot)" 2>/dev/null
	)
'

test_expect_success GIT 'corrupt tree: duplicate names refused, index untouched' '
	(
		cd bad &&
		corrupt_refused "$(cat dup)" "duplicate"
	)
'

test_expect_success GIT 'corrupt tree: a file and a directory of one name refused, index untouched' '
	(
		cd bad &&
		corrupt_refused "$(cat dupdir)" "duplicate"
	)
'

test_expect_success GIT 'corrupt tree: unsorted entries refused, index untouched' '
	(
		cd bad &&
		corrupt_refused "$(cat unsorted)" "sorted"
	)
'

test_expect_success GIT 'corrupt tree: zero-padded mode refused, index untouched' '
	(
		cd bad &&
		corrupt_refused "$(cat zeropad)" "mode"
	)
'

INTEROP_STATE=twins
CHECKOUT_DIFF_FILES=yes

test_expect_success GIT 'setup: repositories rg (for git) and rd (for dirc) at tree1' '
	for r in rg rd
	do
		git init -q $r &&
		(cd $r && make_trees) || return 1
	done &&
	test_cmp rg/tree1 rd/tree1 &&
	test_cmp rg/tree2 tree2 &&
	test_fsck_also rg rd
'

test_expect_success GIT 'read-tree -m -u <tree2>: work tree updated like git'"'"'s' '
	interop_run read-tree -m -u "$tree2" &&
	same_result &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	test_must_be_empty dirc.err &&
	test_path_is_missing rd/b &&
	test_path_is_file rd/d/g/h &&
	echo "a, changed" >expect &&
	test_cmp expect rd/a &&
	git -C rg diff-files >rg.diff &&
	test_must_be_empty rg.diff
'

test_expect_success GIT 'read-tree -m -u <tree1>: files, modes, symlinks back; empty dirs gone' '
	interop_run read-tree -m -u "$tree1" &&
	same_result &&
	test_path_is_missing rd/c &&
	test_path_is_missing rd/d/g &&
	test_path_is_file rd/b &&
	test -x rd/x &&
	git -C rg diff-files >rg.diff &&
	test_must_be_empty rg.diff
'

test_expect_success GIT,SYMLINKS 'read-tree -m -u writes a symlink as a symlink' '
	test -h rd/l &&
	echo a >expect &&
	readlink rd/l >actual &&
	test_cmp expect actual
'

test_expect_success GIT '-m -u with a local change: refused, index and work tree unchanged' '
	for r in rg rd
	do
		echo "local change" >$r/a || return 1
	done &&
	interop_run read-tree -m -u "$tree2" &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect git.code &&
	echo "error: Entry '\''a'\'' not uptodate. Cannot merge." >expect &&
	test_cmp expect dirc.err &&
	state_unchanged
'

test_expect_success GIT '--reset -u discards the local change' '
	interop_run read-tree --reset -u "$tree1" &&
	same_result &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	echo a >expect &&
	test_cmp expect rd/a &&
	git -C rd diff-files >rd.diff &&
	test_must_be_empty rd.diff
'

test_expect_success GIT '-m -u refuses to overwrite an untracked file' '
	for r in rg rd
	do
		echo untracked >$r/c || return 1
	done &&
	interop_run read-tree -m -u "$tree2" &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect git.code &&
	echo "error: Untracked working tree file '\''c'\'' would be overwritten by merge." >expect &&
	test_cmp expect dirc.err &&
	state_unchanged &&
	echo untracked >expect &&
	test_cmp expect rd/c &&
	rm rg/c rd/c
'

test_expect_success GIT '-m -u: an untracked file in a directory to be removed stays' '
	interop_run read-tree -m -u "$tree2" &&
	same_result &&
	for r in rg rd
	do
		echo keep >$r/d/g/untracked || return 1
	done &&
	interop_run read-tree -m -u "$tree1" &&
	same_result &&
	test_path_is_file rd/d/g/untracked &&
	rm -r rg/d/g rd/d/g
'

test_expect_success GIT '-m -u: an untracked file where a new directory goes is kept' '
	for r in rg rd
	do
		echo untracked >$r/d/g || return 1
	done &&
	interop_run read-tree -m -u "$tree2" &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	echo "error: Untracked working tree file '\''d/g'\'' would be overwritten by merge." >expect &&
	test_cmp expect dirc.err &&
	state_unchanged &&
	echo untracked >expect &&
	test_cmp expect rd/d/g &&
	rm rg/d/g rd/d/g
'

test_expect_success GIT '-m -u: a directory of untracked files where a new file goes is kept' '
	for r in rg rd
	do
		mkdir -p $r/c/deep &&
		echo untracked >$r/c/deep/u || return 1
	done &&
	interop_run read-tree -m -u "$tree2" &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	echo "error: Updating '\''c'\'' would lose untracked files in it" >expect &&
	test_cmp expect dirc.err &&
	state_unchanged &&
	rm -r rg/c rd/c
'

test_expect_success GIT '--prefix -u: untracked files in the way are never overwritten' '
	for r in rg rd
	do
		mkdir -p $r/sub &&
		echo untracked >$r/sub/a &&
		echo untracked >$r/sub/b || return 1
	done &&
	interop_run read-tree --prefix=sub/ -u "$tree1" &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	echo "error: Untracked working tree file '\''sub/a'\'' would be overwritten by merge." >expect &&
	test_cmp expect dirc.err &&
	state_unchanged &&
	rm -r rg/sub rd/sub &&
	for r in rg rd
	do
		echo untracked >$r/sub || return 1
	done &&
	interop_run read-tree --prefix=sub/ -u "$tree1" &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	state_unchanged &&
	rm rg/sub rd/sub &&
	for r in rg rd
	do
		mkdir -p $r/sub/d/e/f &&
		echo untracked >$r/sub/d/e/f/u || return 1
	done &&
	interop_run read-tree --prefix=sub/ -u "$tree1" &&
	same_result &&
	echo "error: Updating '\''sub/d/e/f'\'' would lose untracked files in it" >expect &&
	test_cmp expect dirc.err &&
	state_unchanged &&
	rm -r rg/sub rd/sub
'

test_expect_success GIT '-m -u with a held index.lock: refused, 128, nothing changed' '
	: >rd/.git/index.lock &&
	: >rg/.git/index.lock &&
	test_when_finished "rm -f rd/.git/index.lock rg/.git/index.lock" &&
	interop_run read-tree -m -u "$tree2" &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	test_cmp_codes git.code dirc.code &&
	test_grep "^fatal: Unable to create '\''.*/rd/\.git/index\.lock'\'': File exists\.$" dirc.err &&
	state_unchanged
'

test_done
