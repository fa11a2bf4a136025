#!/bin/sh
test_description='update-cache: the index dirc writes is the one git writes

A tree of tricky names (sorting around "/", "-", ".", "_", spaces, UTF-8,
a leading dash, control characters, quotes, 20 levels of directories, a
4095-byte path, empty files, executables, symlinks, a dangling one) is
staged by git and by dirc on the same work tree; the two index files must
be byte for byte the same, in versions 2, 3 and 4, whether the paths come
from the command line, --stdin (quoted or -z), --index-info or
--cacheinfo; and git must then read the index dirc wrote as its own.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh

# stage_all CMD...: CMD -- <every path of the tricky tree>
stage_all () {
	"$@" -- -x a-b a.b a/b a0 a_b ab "sp ace" "$UTF" "ta${TAB}b" \
		"nl${LF}x" 'back\slash' 'q"uote' empty exe lnk dangling \
		"$deep" ${long:+"$long"}
}

# A path of 0xFFF (4095) bytes, the most lstat() takes, in components of
# 200 bytes: not every file system allows it.
test_lazy_prereq LONG_PATHS '
	c=$(printf "%0200d" 0) &&
	p=$c/$c/$c/$c/$c/$c/$c/$c/$c/$c/$c/$c/$c/$c/$c/$c/$c/$c/$c/$c &&
	mkdir -p "$p" &&
	echo x >"$p/$(printf "%0$((4095 - ${#p} - 1))d" 0)"
'


test_expect_success 'setup: a tree of tricky names, all dated in the past' '
	TAB=$(printf "\t") &&
	LF=$(printf "\nx") &&
	LF=${LF%x} &&
	UTF=$(printf "utf\303\251") &&
	T0=1500000000 &&
	mkdir a sub &&
	for f in -x a-b a.b a/b a0 a_b ab "sp ace" "$UTF" "ta${TAB}b" \
		"nl${LF}x" "back\\slash" "q\"uote"
	do
		printf "%s\n" "$f" >"$f" || return 1
	done &&
	: >empty &&
	printf "#!/bin/sh\necho hi\n" >exe &&
	chmod +x exe &&
	echo sub >sub/file &&
	deep=deep &&
	for i in $(test_seq 20)
	do
		deep=$deep/d$i || return 1
	done &&
	mkdir -p "$deep" &&
	deep=$deep/leaf &&
	echo deep >"$deep" &&
	long= &&
	npaths=18 &&
	if test_have_prereq LONG_PATHS
	then
		c=$(printf "%0200d" 0) &&
		long=L &&
		for i in $(test_seq 20)
		do
			long=$long/$c || return 1
		done &&
		long=$long/$(printf "%0$((4095 - ${#long} - 1))d" 0) &&
		test ${#long} = 4095 &&
		mkdir -p "${long%/*}" &&
		echo long >"$long" &&
		npaths=19
	fi &&
	touch -d @$T0 sub/file &&
	if test_have_prereq SYMLINKS
	then
		ln -s a-b lnk &&
		ln -s nowhere dangling
	else
		echo lnk >lnk &&
		echo dangling >dangling
	fi &&
	stage_all touch -h -d @$T0 &&
	test_path_is_missing .git/index
'

test_expect_success GIT 'command line --add: index bytes equal git'"'"'s' '
	rm -f .git/index &&
	stage_all git update-index --add &&
	mv .git/index .git/index.by-git &&
	stage_all dirc update-cache --add &&
	test_cmp .git/index.by-git .git/index
'

test_expect_success GIT,LONG_PATHS 'the long path is stored with the 0xFFF length flag' '
	dirc ls-files -s -z >out &&
	tr "\000" "\n" <out >lines &&
	grep " 0	L/" lines >long.line &&
	test_line_count = 1 long.line &&
	# "100644 <id> 0<TAB>" before the path
	test $(($(wc -c <long.line) - 1)) = $((4095 + OID_HEXSZ + 10)) &&
	# flags of the entry: 0xFFF in the low 12 bits
	# (an entry: 40 bytes of stat data, the id, 2 bytes of flags, the name)
	perl -e '\''
		my $fix = 40 + $ARGV[0];
		open my $f, "<", ".git/index" or die; binmode $f; local $/; $_ = <$f>;
		my $n = unpack "N", substr($_, 8, 4); my $o = 12;
		for my $i (1..$n) {
			my $fl = unpack "n", substr($_, $o + $fix, 2);
			my $name = substr($_, $o + $fix + 2, index($_, "\0", $o + $fix + 2) - $o - $fix - 2);
			if ($name =~ m{^L/}) { printf "%03x %d\n", $fl & 0xfff, length $name }
			$o += ($fix + 2 + length($name) + 8) & ~7;
		}'\'' "$OID_RAWSZ" >flags &&
	echo "fff 4095" >expect &&
	test_cmp expect flags
'

test_expect_success GIT 'git sees nothing to refresh in the index dirc wrote' '
	git diff-files >out &&
	test_must_be_empty out &&
	git diff-files --name-only -z >out &&
	test_must_be_empty out
'

test_expect_success GIT 'git status shows every path as added' '
	git --no-optional-locks status --porcelain -uno >status &&
	test_line_count = $npaths status &&
	{ grep -v "^A  " status >other || :; } &&
	test_must_be_empty other &&
	GIT_INDEX_FILE=.git/index.by-git git --no-optional-locks status \
		--porcelain -uno >expect &&
	test_cmp expect status
'

test_expect_success GIT 'git ls-files -s equals dirc ls-files -s' '
	git ls-files -s >expect &&
	dirc ls-files -s >actual &&
	test_cmp expect actual &&
	git ls-files -s -z >expect &&
	dirc ls-files -s -z >actual &&
	test_cmp expect actual
'

test_expect_success GIT 'every staged object was written by dirc' '
	git ls-files -s >stage &&
	awk "{ print \$2 }" stage >ids &&
	git cat-file --batch-check="%(objectname) %(objecttype)" <ids >types &&
	{ grep -v " blob$" types >bad || :; } &&
	test_must_be_empty bad &&
	test_line_count = $npaths types
'

test_expect_success GIT 'the executable and the symlinks have git'"'"'s modes' '
	dirc ls-files -s exe lnk dangling empty >actual &&
	git ls-files -s exe lnk dangling empty >expect &&
	test_cmp expect actual &&
	test_grep "^100755 [0-9a-f]* 0	exe$" actual &&
	if test_have_prereq SYMLINKS
	then
		test_grep "^120000 [0-9a-f]* 0	lnk$" actual &&
		test_grep "^120000 [0-9a-f]* 0	dangling$" actual
	fi &&
	test_grep "^100644 $EMPTY_BLOB 0	empty$" actual
'

test_expect_success GIT 'adding the same paths again changes nothing' '
	cp -p .git/index index.before &&
	stage_all dirc update-cache --add &&
	test_cmp index.before .git/index
'

test_expect_success GIT 'version 4 (--index-version 4): bytes equal git'"'"'s' '
	rm -f .git/index &&
	stage_all run_both --index-version 4 --add &&
	same_result &&
	test "$(head -c 8 .git/index | tail -c 4 | od -An -tx1 | tr -d " ")" = 00000004
'

test_expect_success GIT 'version 4 written by git, extended by dirc' '
	rm -f .git/index &&
	git update-index --index-version 4 --add a-b "sp ace" "$deep" &&
	stage_all run_both --add &&
	same_result
'

test_expect_success GIT 'version 4 to 2 and back, in both directions' '
	run_both --index-version 2 &&
	same_result &&
	run_both --index-version 4 &&
	same_result &&
	run_both --index-version 3 &&
	same_result
'

test_expect_success GIT 'version 3: skip-worktree entry written by git, rewritten by dirc' '
	rm -f .git/index &&
	stage_all git update-index --add &&
	git update-index --skip-worktree a0 "sp ace" &&
	test "$(head -c 8 .git/index | tail -c 4 | od -An -tx1 | tr -d " ")" = 00000003 &&
	echo new >new &&
	touch -d @$T0 new &&
	run_both --add new &&
	same_result &&
	run_both --force-remove new &&
	same_result
'

test_expect_success GIT 'version 3: intent-to-add entry (git add -N), rewritten by dirc' '
	echo ita >ita &&
	touch -d @$T0 ita &&
	git add -N ita &&
	run_both --add new &&
	same_result &&
	git ls-files -s ita >expect &&
	dirc ls-files -s ita >actual &&
	test_cmp expect actual
'

test_expect_success GIT 'version 3 falls back to 2 when the last extended entry goes' '
	run_both --no-skip-worktree a0 "sp ace" &&
	same_result &&
	run_both --force-remove ita &&
	same_result &&
	test "$(head -c 8 .git/index | tail -c 4 | od -An -tx1 | tr -d " ")" = 00000002
'

test_expect_success GIT 'version 3 requested explicitly without extended entries' '
	run_both --index-version 3 &&
	same_result
'

test_expect_success GIT '--stdin: plain lines and C-quoted lines' '
	{
		printf "%s\n" -x a-b a.b a/b a0 a_b ab "sp ace" empty exe \
			lnk dangling "$deep" ${long:+"$long"} &&
		printf "\"%s\"\n" "utf\\303\\251" "ta\\tb" "nl\\nx" \
			"back\\\\slash" "q\\\"uote"
	} >stdin.lines &&
	rm -f .git/index &&
	run_both -i stdin.lines --add --stdin &&
	same_result &&
	git ls-files -s >expect &&
	dirc ls-files -s >actual &&
	test_cmp expect actual &&
	test_line_count = $npaths actual
'

test_expect_success GIT '--stdin: an unquoted line is taken literally' '
	echo "\"quoted\"" >"\"quoted\"" &&
	touch -d @$T0 "\"quoted\"" &&
	printf "%s\n" "\"\\\"quoted\\\"\"" >stdin.q &&
	run_both -i stdin.q --add --stdin &&
	same_result &&
	dirc ls-files >actual &&
	test_grep "^\"\\\\\"quoted\\\\\"\"$" actual
'

test_expect_success GIT '--stdin -z: NUL-terminated, no unquoting' '
	printf "%s\000" -x a-b a.b a/b a0 a_b ab "sp ace" "$UTF" "ta${TAB}b" \
		"nl${LF}x" "back\\slash" "q\"uote" empty exe lnk dangling \
		"$deep" ${long:+"$long"} "\"quoted\"" >stdin.z &&
	rm -f .git/index &&
	run_both -i stdin.z --add -z --stdin &&
	same_result &&
	dirc ls-files -z >actual &&
	tr -d -c "\000" <actual >nuls &&
	test $(wc -c <nuls) = $((npaths + 1))
'

test_expect_success GIT '--stdin after paths on the command line, with --remove' '
	rm "\"quoted\"" &&
	printf "%s\n" "\"\\\"quoted\\\"\"" a0 >stdin.r &&
	run_both -i stdin.r --remove exe --stdin &&
	same_result &&
	dirc ls-files >actual &&
	test_grep -v quoted actual
'

test_expect_success GIT '--index-info: the three line formats, quoted paths, a 5001-byte path' '
	blob=$(git hash-object -w a-b) &&
	blob2=$(git hash-object -w a0) &&
	p5001=$(printf "%05001d" 7 | sed -e "s|\\(.\\{200\\}\\)|\\1/|g") &&
	p5001=$(printf "%s" "$p5001" | cut -c1-5001) &&
	test ${#p5001} = 5001 &&
	{
		printf "100644 %s\t%s\n" $blob one &&
		printf "100755 blob %s\t%s\n" $blob2 two/exe &&
		printf "100644 %s 0\t%s\n" $blob three &&
		printf "120000 %s\t%s\n" $blob link-to-a-b &&
		printf "100644 %s\t\"%s\"\n" $blob "ta\\tb\\nq\\\"\\\\" &&
		printf "100644 %s 0\t%s\n" $blob2 "$p5001" &&
		printf "100664 %s\t%s\n" $blob2 mode664 &&
		printf "100600 blob %s\t%s\n" $blob2 mode600 &&
		printf "160000 %s\t%s\n" $(test_oid_fake 1234567890) gitlink
	} >info &&
	rm -f .git/index &&
	run_both -i info --index-info &&
	same_result &&
	git ls-files -s >expect &&
	dirc ls-files -s >actual &&
	test_cmp expect actual &&
	test_line_count = 9 actual
'

test_expect_success GIT '--index-info: mode 0 removes (all three formats), stages 1-3 added' '
	{
		printf "0 %s\t%s\n" $ZERO_OID one &&
		printf "0 blob %s\t%s\n" $blob mode600 &&
		printf "0 %s 0\t%s\n" $blob three &&
		printf "100644 %s 1\t%s\n" $blob three &&
		printf "100644 %s 2\t%s\n" $blob2 three &&
		printf "100755 %s 3\t%s\n" $blob2 three
	} >info2 &&
	run_both -i info2 --index-info &&
	same_result &&
	dirc ls-files -s three >actual &&
	test_line_count = 3 actual
'

test_expect_success GIT '--index-info -z: NUL-terminated records' '
	{
		printf "100644 %s\t%s\000" $blob "nl${LF}x" &&
		printf "100644 blob %s\t%s\000" $blob2 "\"not-unquoted\"" &&
		printf "100644 %s 0\t%s\000" $blob "ta${TAB}b"
	} >info.z &&
	run_both -i info.z -z --index-info &&
	same_result &&
	git ls-files -s -z >expect &&
	dirc ls-files -s -z >actual &&
	test_cmp expect actual
'

test_expect_success GIT '--cacheinfo: "<mode>,<id>,<path>" and the three-argument form' '
	rm -f .git/index &&
	run_both --add --cacheinfo 100644,$blob,ci-one \
		--cacheinfo 100755 $blob2 "ci two" \
		--cacheinfo 120000,$blob,ci/link \
		--cacheinfo 100664,$blob2,ci/mode664 \
		--cacheinfo 160000,$(test_oid_fake 1234567890),ci/sub \
		a-b &&
	same_result &&
	git ls-files -s >expect &&
	dirc ls-files -s >actual &&
	test_cmp expect actual &&
	test_line_count = 6 actual
'

test_expect_success GIT '--cacheinfo replaces an existing entry without --add' '
	run_both --cacheinfo 100755,$blob2,ci-one a-b &&
	same_result
'

test_expect_success GIT 'git adds some, dirc adds the rest: the index git would write' '
	rm -f .git/index &&
	git update-index --add a-b a.b "$deep" &&
	stage_all dirc update-cache --add &&
	mv .git/index .git/index.dirc &&
	stage_all git update-index --add &&
	test_cmp .git/index .git/index.dirc &&
	GIT_INDEX_FILE=.git/index.dirc git diff-files >out &&
	test_must_be_empty out
'

test_expect_success GIT 'paths given from a subdirectory, with ./ and ../' '
	rm -f .git/index &&
	(
		cd a &&
		git update-index --add b ../a.b ./../ab ../sub//file ../deep/./d1/../../a0 &&
		mv ../.git/index ../.git/index.by-git &&
		dirc update-cache --add b ../a.b ./../ab ../sub//file ../deep/./d1/../../a0
	) &&
	test_cmp .git/index.by-git .git/index &&
	dirc ls-files >actual &&
	test_write_lines a.b a/b a0 ab sub/file >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'absolute paths inside the work tree' '
	rm -f .git/index &&
	run_both --add "$TRASH_DIRECTORY/a0" "$TRASH_DIRECTORY/sub/file" &&
	same_result
'

# The .gitattributes files of a path's directories are opened from the top
# of the work tree, as git opens them: a directory within a few bytes of
# PATH_MAX is no reason to warn, however deep the work tree itself is.
test_expect_success GIT,LONG_PATHS 'a directory near PATH_MAX: its .gitattributes read without a warning' '
	c=$(printf "%0200d" 0) &&
	near=M &&
	for i in $(test_seq 20)
	do
		near=$near/$c || return 1
	done &&
	near=$near/$(printf "%049d" 0) &&
	test ${#near} = 4071 &&
	mkdir -p "$near" &&
	echo near >"$near/f" &&
	touch -d @$T0 "$near/f" &&
	rm -f .git/index &&
	run_both --add "$near/f" a0 &&
	same_result &&
	test_must_be_empty dirc.err &&
	git check-attr -a "$near/f" >expect 2>&1 &&
	dirc check-attr -a "$near/f" >actual 2>&1 &&
	test_cmp expect actual
'

# A sparse checkout clears the skip-worktree mark of an entry present in
# the work tree (lstat from the top): near PATH_MAX too.
test_expect_success GIT,LONG_PATHS 'sparse checkout: a present skip-worktree entry near PATH_MAX loses its mark' '
	git update-index --skip-worktree "$near/f" &&
	echo changed >"$near/f" &&
	git -c core.sparseCheckout=true diff-files --name-only >expect &&
	dirc -c core.sparseCheckout=true diff-files --name-only >actual &&
	test_cmp expect actual &&
	test_line_count = 1 actual
'

# A few changed paths each replacing the one entry of their name are
# swapped into the entry array in place; anything else (a path twice,
# unmerged stages, a removal, more than 16 paths) merges a new array.
# Either way the index is git's, TREE invalidated as git does.
test_expect_success GIT 'changed tracked files: replaced in place or merged, bytes equal git'"'"'s' '
	rm -f .git/index &&
	mkdir -p many &&
	for i in $(test_seq 20)
	do
		echo "$i" >many/f$i &&
		touch -d @$T0 many/f$i || return 1
	done &&
	git update-index --add a0 ab sub/file many/f* &&
	git write-tree >/dev/null &&
	for f in a0 ab sub/file many/f*
	do
		echo changed >>"$f" &&
		touch -d @$((T0 + 100)) "$f" || return 1
	done &&
	run_both a0 &&
	same_result &&
	run_both sub/file a0 many/f3 &&
	same_result &&
	run_both a0 a0 &&
	same_result &&
	run_both --remove a0 ab &&
	same_result &&
	run_both many/f* &&
	same_result &&
	blob=$(git hash-object -w a0) &&
	printf "0 %s\tab\n100644 %s 1\tab\n100644 %s 2\tab\n" \
		$ZERO_OID $blob $blob |
		git update-index --index-info &&
	run_both ab a0 &&
	same_result &&
	dirc ls-files -s ab >out &&
	test_line_count = 1 out
'

test_expect_success GIT 'update-index is another name for update-cache' '
	rm -f .git/index &&
	stage_all dirc update-index --add &&
	mv .git/index .git/index.alias &&
	stage_all dirc update-cache --add &&
	test_cmp .git/index.alias .git/index
'

test_done
