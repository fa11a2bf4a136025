#!/bin/sh
test_description='big files are cleaned in bounded windows, as git cleans them

A file of 2 MiB or more whose cleaning only changes line endings is read
twice in 1 MiB windows (count, then convert) instead of whole.  Files
placed so that a CR-LF pair, a lone CR, a CR-CR-LF run straddle the
first window boundary, a final CR, a NUL, control characters, a final
^Z, mixed endings, exactly 2 MiB and one byte less: update-cache --add,
--refresh (racy: content compared) and hash-object (-w, --stdin-paths)
must give git'"'"'s index bytes, ids and safecrlf messages under every
end-of-line setting; safecrlf=true refusals leave the index as it was;
the CRLF-in-the-index rule of text=auto holds; git status is clean after
dirc staged.  A file whose line-ending counts change between the two
reads is refused (test-tool clean-twice changes it there); a read that
fails is the object'"'"'s failure, as git reports it.  A 40 MiB file is staged, hashed and refreshed in well
under its size of memory.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh

W=1048576
FILES="crlf-edge.txt lonecr-edge.txt crcr-edge.txt crend.txt lf.txt nul.dat mixed.txt exact.txt under.txt ctrl.txt ctrlz.txt"

# lines N EOL: exactly N bytes of text lines ending in EOL
lines () {
	yes "a line of text$2" | head -c "$1"
}

test_expect_success GIT 'setup' '
	cr=$(printf "\r") &&
	lines $((W - 1)) "" >pre1 &&
	lines $((W - 2)) "" >pre2 &&
	lines 1500000 "$cr" >crlf15 &&
	{ cat pre1 && printf "\r\n" && cat crlf15; } >crlf-edge.txt &&
	{ cat pre1 && printf "\rx" && cat crlf15; } >lonecr-edge.txt &&
	{ cat pre2 && printf "\r\r\n" && cat crlf15; } >crcr-edge.txt &&
	{ lines 2200000 "$cr" && printf "x\r"; } >crend.txt &&
	lines 2500000 "" >lf.txt &&
	{ lines 1200000 "$cr" && printf "\0" && lines 1200000 "$cr"; } >nul.dat &&
	{ lines 1200000 "$cr" && lines 1200000 ""; } >mixed.txt &&
	lines $((2 * W)) "$cr" >exact.txt &&
	lines $((2 * W - 1)) "$cr" >under.txt &&
	yes "$(printf "\001\002\003 x\r")" | head -c 2300000 >ctrl.txt &&
	{ lines 2200000 "$cr" && printf "\032"; } >ctrlz.txt &&
	rm pre1 pre2 crlf15 &&
	test $(wc -c <exact.txt) = $((2 * W)) &&
	printf "%s\n" $FILES >paths
'

# staged_alike ATTRS CONFIG...: under .gitattributes ATTRS and the
# configuration, update-index --add from an empty index, a racy
# --refresh, hash-object of the files (by name and --stdin-paths, with
# and without -w) alike for git and dirc
staged_alike () {
	sa_attrs=$1 &&
	shift &&
	rm -f .git/index .gitattributes &&
	if test -n "$sa_attrs"
	then
		printf "%b\n" "$sa_attrs" >.gitattributes
	fi &&
	for c in "$@"
	do
		git config "${c%%=*}" "${c#*=}" || return 1
	done &&
	run_both --add $FILES &&
	same_result &&
	# racy entries: --refresh compares the cleaned content
	touch $FILES .git/index &&
	run_both --refresh &&
	same_result &&
	INTEROP_STATE=none compare_with_git hash-object $FILES &&
	INTEROP_STATE=none compare_with_git hash-object -w $FILES &&
	INTEROP_STATE=none compare_with_git -i paths hash-object --stdin-paths &&
	for c in "$@"
	do
		git config --unset "${c%%=*}" || return 1
	done
}

test_expect_success GIT 'end-of-line settings: the same index, ids and warnings as git' '
	n=0 &&
	while IFS="|" read -r attrs config
	do
		staged_alike "$attrs" $config &&
		n=$((n + 1)) || {
			echo "^^^ for \"$attrs\" $config" >&2
			return 1
		}
	done <<-\EOF &&
	|
	|core.autocrlf=true
	|core.autocrlf=input
	* text|
	* text|core.autocrlf=true
	* text=auto|
	* text=auto|core.autocrlf=true
	* text=auto eol=crlf|
	* text eol=crlf|
	* -text|core.autocrlf=true
	* text|core.safecrlf=false
	EOF
	test $n = 11
'

test_expect_success GIT 'core.safecrlf=true: refused as git refuses, the index unchanged' '
	rm -f .git/index &&
	echo "* text" >.gitattributes &&
	git config core.safecrlf true &&
	git update-index --add lf.txt &&
	INTEROP_DIRC_CMD=update-cache fails_like_git 128 "fatal: CRLF would be replaced by LF in crlf-edge.txt" update-index --add lf.txt crlf-edge.txt &&
	INTEROP_STATE=none fails_like_git 128 "fatal: CRLF would be replaced by LF in exact.txt" hash-object -w lf.txt exact.txt &&
	git config core.autocrlf true &&
	echo "* text=auto" >.gitattributes &&
	cp lf.txt lf2.txt &&
	INTEROP_DIRC_CMD=update-cache fails_like_git 128 "fatal: LF would be replaced by CRLF in lf2.txt" update-index --add lf2.txt &&
	rm lf2.txt &&
	git config --unset core.autocrlf &&
	git config --unset core.safecrlf
'

test_expect_success GIT 'text=auto leaves a big file alone whose index blob has CRLF' '
	rm -f .git/index .gitattributes &&
	cp crlf-edge.txt f.txt &&
	git update-index --add f.txt &&
	printf "more\r\n" >>f.txt &&
	echo "* text=auto" >.gitattributes &&
	run_both f.txt &&
	same_result &&
	touch f.txt .git/index &&
	run_both --refresh &&
	same_result &&
	rm f.txt
'

test_expect_success GIT 'git status is clean after dirc staged big files with text=auto' '
	rm -f .git/index &&
	echo "* text=auto" >.gitattributes &&
	dirc update-cache --add .gitattributes $FILES 2>err &&
	test_grep "in the working copy of .crlf-edge.txt., CRLF will be replaced by LF" err &&
	git diff --name-only >status &&
	test_must_be_empty status &&
	rm .gitattributes
'

test_expect_success 'a file that changes between the two reads: refused unless its counts stay' '
	rm -f .git/index &&
	echo "* text=auto" >.gitattributes &&
	cp crlf-edge.txt keep &&
	size=$(wc -c <keep) &&
	# one letter for another: the same counts, the second read stored
	{ head -c 1000 keep && printf X && tail -c +1002 keep; } >same &&
	# a NUL: binary now; a CR-LF less: either would be cleaned otherwise
	{ head -c 1000 keep && printf "\0" && tail -c +1002 keep; } >nul &&
	{ head -c $((W - 1)) keep && printf "x\n" && tail -c +$((W + 2)) keep; } >crlf1 &&
	test $(wc -c <same) = $size && test $(wc -c <nul) = $size &&
	test $(wc -c <crlf1) = $size &&
	cp keep f.txt &&
	dirc test-tool clean-twice f.txt same >actual &&
	git hash-object f.txt >expect &&
	test_cmp expect actual &&
	for o in nul crlf1
	do
		cp keep f.txt &&
		test_expect_code 128 dirc test-tool clean-twice f.txt $o 2>err &&
		echo "fatal: file '"'"'f.txt'"'"' changed while it was being read" >expect &&
		test_cmp expect err || return 1
	done &&
	rm f.txt
'

test_expect_success 'a file that changes while read: the object'"'"'s failure, converted or not' '
	rm -f .git/index .gitattributes &&
	printf "a\r\nb\r\n" >small.txt &&
	for ac in false true
	do
		git config core.autocrlf $ac &&
		for f in crlf-edge.txt small.txt
		do
			for opt in "" --info-only
			do
				# shellcheck disable=SC2086
				test_expect_code 128 env DIRC_TEST_SIZE_DRIFT=1 \
					dirc update-cache --add $opt $f 2>err &&
				test_grep "changed while it was being read" err &&
				test_grep "^error: $f: failed to insert into database" err &&
				test_grep "^fatal: Unable to process path $f" err &&
				test_path_is_missing .git/index || return 1
			done
		done
	done &&
	git config --unset core.autocrlf &&
	rm small.txt
'

# peak_kib CMD...: the command'"'"'s peak resident memory, in KiB
peak_kib () {
	"$DIRC_BUILD_DIR/perf/runcmd" -o /dev/null -- "$@" >usage &&
	sed -n "s/.*maxrss_kib=\([0-9]*\).*/\1/p" usage
}

test_expect_success GIT,!SANITIZE 'a 40 MiB file is cleaned in far less than 40 MiB of memory' '
	rm -f .git/index &&
	lines $((40 * W)) "$cr" >huge.txt &&
	echo "* text=auto" >.gitattributes &&
	git hash-object huge.txt >expect &&
	peak=$(peak_kib dirc hash-object huge.txt) &&
	echo "hash-object: $peak KiB" &&
	test "$peak" -lt 16384 &&
	peak=$(peak_kib dirc update-cache --add huge.txt) &&
	echo "update-cache --add: $peak KiB" &&
	test "$peak" -lt 16384 &&
	dirc ls-files -s huge.txt >staged &&
	test "$(cut -d" " -f2 staged)" = "$(cat expect)" &&
	# (text=auto would read the index blob whole, as git does, to see
	# whether it has CRLF: text does not)
	echo "* text" >.gitattributes &&
	touch huge.txt .git/index &&
	peak=$(peak_kib dirc update-cache --refresh) &&
	echo "update-cache --refresh: $peak KiB" &&
	test "$peak" -lt 16384 &&
	git diff-files --name-only >status &&
	test_must_be_empty status &&
	rm huge.txt .gitattributes
'

test_done
