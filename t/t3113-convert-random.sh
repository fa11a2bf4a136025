#!/bin/sh
test_description='clean and smudge of generated content under generated settings, against git

Each round generates files from pieces (text, LF, CR, CRLF, NUL,
control characters, $Id$ and $Id: x $ keywords, a final ^Z), a
.gitattributes from a pool of text/eol/crlf/ident settings, and
core.autocrlf / core.eol / core.safecrlf; then compares with git:
hash-object -w of every file (ids and safecrlf messages), update-index
--add of all of them (index bytes, messages, exit code), and
cat-file --filters of every blob under every path (the smudged bytes).
hash-object -w, update-index --add and a racy --refresh again with
DIRC_TEST_WINDOW (fileio.h) at 1 to 4 bytes: the big-file path that
cleans in windows, through every window boundary.
ROUNDS rounds (more under LONG); the number run is checked.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh

ROUNDS=8
if test_have_prereq LONG
then
	ROUNDS=100
fi

# gen SEED: files f0..f9 (in the current directory), .gitattributes and
# the file "config" (lines "key value")
gen () {
	awk -v seed="$1" '
	function pick(n) { return int(rand() * n) + 1 }
	BEGIN {
		srand(seed)
		np = split("a|bc|\n|\r\n|\r|~|\001|\t|$Id$|$Id: x $|$Id: a b $|$|Id|\032|zz", P, "|")
		for (f = 0; f < 10; f++) {
			name = "f" f (pick(3) == 1 ? ".c" : ".txt")
			n = pick(12) - 1
			s = ""
			for (i = 0; i < n; i++) {
				p = P[pick(np)]
				if (p == "~" && pick(3) != 1)
					p = "a"
				s = s p
			}
			if (pick(6) == 1)
				s = s "\032"
			printf "%s", s >name
			close(name)
		}
		na = split("* text|* -text|* text=auto|* eol=crlf|* eol=lf|* text eol=crlf|* text=auto eol=crlf|* text=auto eol=lf|* crlf|* -crlf|* crlf=input|*.c ident|* ident|*.txt binary|f1* text|f2* -text|", A, "|")
		k = pick(3) - 1
		printf "" >".gitattributes"
		for (i = 0; i < k; i++)
			print A[pick(na)] >".gitattributes"
		close(".gitattributes")
		nc = split("core.autocrlf true|core.autocrlf input|core.autocrlf false|core.eol crlf|core.eol lf|core.safecrlf false|core.safecrlf warn", C, "|")
		k = pick(3) - 1
		printf "" >"config"
		for (i = 0; i < k; i++)
			print C[pick(nc)] >"config"
		close("config")
	}'
}

test_expect_success GIT 'random content and settings: the same ids, index and smudged bytes as git' '
	rounds=0 &&
	seed=1 &&
	while test $seed -le $ROUNDS
	do
		rm -f f* .gitattributes .git/index &&
		git config --unset-all core.autocrlf;
		git config --unset-all core.eol;
		git config --unset-all core.safecrlf;
		gen $seed &&
		for f in f*
		do
			tr "~" "\000" <$f >tmp && mv tmp $f || return 1
		done &&
		while read -r key value
		do
			git config "$key" "$value" || return 1
		done <config &&
		files=$(ls f*) &&
		INTEROP_STATE=none compare_with_git hash-object -w $files &&
		INTEROP_DIRC_CMD=update-cache compare_with_git update-index --add $files &&
		# the streamed path, through windows of 1 to 4 bytes
		DIRC_TEST_WINDOW=$((seed % 4 + 1)) &&
		export DIRC_TEST_WINDOW &&
		INTEROP_STATE=none compare_with_git hash-object -w $files &&
		INTEROP_DIRC_CMD=update-cache compare_with_git update-index --add $files &&
		git update-index --add $files 2>/dev/null &&
		touch $files .git/index &&
		INTEROP_DIRC_CMD=update-cache compare_with_git update-index --refresh &&
		unset DIRC_TEST_WINDOW &&
		for f in $files
		do
			blob=$(git rev-parse :$f) &&
			for p in $files
			do
				echo "$blob $p" || return 1
			done
		done >batch &&
		INTEROP_STATE=none compare_with_git -i batch cat-file --batch --filters &&
		test -s git.out &&
		rounds=$((rounds + 1)) &&
		seed=$((seed + 1)) || {
			unset DIRC_TEST_WINDOW
			echo "^^^ round $seed: $(cat .gitattributes config)" >&2
			return 1
		}
	done &&
	test $rounds = $ROUNDS
'

test_done
