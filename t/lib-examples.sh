# lib-examples.sh: running the porcelain examples of Documentation/examples
# with dirc and with git, and comparing what they did.  Sourced after
# test-lib.sh; sources lib-worktree.sh.
#
# Each example script takes the command to run plumbing with from $DIRC
# (default dirc).  A run copies a template repository twice, runs the
# script with DIRC=git in one copy and with DIRC=dirc (or git) in the other,
# and compares everything: exit code, stdout, stderr, HEAD and the refs,
# HEAD's reflog, MERGE_HEAD and MERGE_MSG, the index byte for byte (with
# the stat data that a checkout cannot reproduce zeroed: see
# index_norm), what git diff-files finds in it, and the work tree.
#
#   EXAMPLES        the directory of the example scripts
#   ex_both CMD TEMPLATE SCRIPT ARGS...
#	cp -R TEMPLATE ex-git and ex-dirc, then SCRIPT ARGS in each (with
#	DIRC=git in ex-git, DIRC=CMD in ex-dirc); exit code, stdout and
#	stderr to {git,dirc}.{code,out,err}.  CMD is dirc, or git: git on
#	both sides, the sanity check of a scenario (which runs while dirc
#	still lacks a command it needs).  EX_ENV, when set, is
#	a list of VAR=VALUE for both runs.  A copy's files are new files,
#	whose stat data is not what the index holds: git refreshes each
#	copy's index first.  EX_PREP, when set, is shell run in each copy
#	after that, before the script.
#   ex_same
#	Both runs did the same, as above.
#   ex_dirc_side CMD TEMPLATE SCRIPT ARGS...
#	ex_both's ex-dirc half alone (without EX_PREP), for a script that
#	keeps git's side of an earlier run instead of running it again.
#   ex_same_as_kept DIR
#	ex_same against git's results kept in DIR (git.code, git.out,
#	git.err and git.state; DIR=. for those ex_same last wrote).
#   ex_fix_labels DIR...
#	In the work tree files of each DIR, the conflict markers' labels
#	git-merge-one-file makes from temporary file names
#	(".merge_file_XXXXXX", random) become ".merge_file_X", so that two
#	runs can be compared.
#   ex_state REPO
#	REPO's state as ex_same compares it, on stdout.
#   index_norm FILE
#	The index FILE as hex text, one line per entry, with each entry's
#	ctime, mtime, device and inode zeroed and the trailing checksum
#	left out: what two runs in two directories can agree on byte for
#	byte (mode, uid, gid, size, id, flags, name, and every extension).
#   dirc_has_cmd CMD
#	dirc has the command CMD ("dirc CMD -h" exits 129; a command dirc
#	does not have says "... is not a dirc command", exit 1).
#
# Prerequisites, for the comparisons with dirc that need commands other
# helpers are still writing (each test names what it needs; until it
# lands, the test is skipped with the name in the TAP line):
#   DIRC_READ_TREE_3WAY  dirc read-tree -m with three trees
#   DIRC_READ_TREE_2WAY  dirc read-tree -m with two trees
#   DIRC_MERGE_INDEX     dirc merge-index
#   DIRC_DIFF_INDEX      dirc diff-index
#   DIRC_DIFF_FILES      dirc diff-files
#   DIFF3                diff3 -m -E (the example merge program's merge)
. "$TEST_DIRECTORY"/lib-worktree.sh

EXAMPLES=$(cd "$TEST_DIRECTORY/../Documentation/examples" && pwd)

dirc_has_cmd () {
	dirc "$1" -h >/dev/null 2>"$TRASH_DIRECTORY/has-cmd.err"
	test $? = 129 &&
	! grep "is not a dirc command" "$TRASH_DIRECTORY/has-cmd.err" >/dev/null
}

test_lazy_prereq DIRC_MERGE_INDEX 'dirc_has_cmd merge-index'
test_lazy_prereq DIRC_DIFF_INDEX 'dirc_has_cmd diff-index'
test_lazy_prereq DIRC_DIFF_FILES 'dirc_has_cmd diff-files'

# ex_probe_read_tree_ N: dirc read-tree -m of N empty trees succeeds
# (a dirc without merges refuses: "... is a merge, which dirc does not
# support")
ex_probe_read_tree_ () {
	git init -q probe &&
	(
		cd probe &&
		t=$(git mktree </dev/null) &&
		case $1 in
		2) dirc read-tree -m "$t" "$t" ;;
		3) dirc read-tree -m "$t" "$t" "$t" ;;
		esac
	)
}
test_lazy_prereq DIRC_READ_TREE_3WAY 'ex_probe_read_tree_ 3'
test_lazy_prereq DIRC_READ_TREE_2WAY 'ex_probe_read_tree_ 2'

test_lazy_prereq DIFF3 '
	printf "a\nb\n" >base &&
	printf "a\nc\n" >ours &&
	cp base theirs &&
	diff3 -m -E -L ours -L base -L theirs ours base theirs >merged &&
	test_cmp ours merged
'

# ex_say_missing PREREQ WHAT...: a TAP comment when dirc lacks WHAT
# (PREREQ missing): its comparisons are skipped until it lands
ex_say_missing () {
	ex_p=$1
	shift
	if ! test_have_prereq "$ex_p"
	then
		echo "# dirc lacks $* ($ex_p): the tests comparing dirc with git" \
		     "that need it are skipped until it lands (issue 13)"
	fi
}

index_norm () {
	od -An -v -tu1 "$1" |
	awk -v raw="$OID_RAWSZ" '
	{ for (i = 1; i <= NF; i++) b[n++] = $i + 0 }
	function num(at, len,   v, k) {
		v = 0
		for (k = 0; k < len; k++)
			v = v * 256 + b[at + k]
		return v
	}
	function hex(from, to,   s, k) {
		s = ""
		for (k = from; k < to; k++)
			s = s sprintf("%02x", b[k])
		return s
	}
	END {
		# a header of 12 bytes, a trailer of raw (OID_RAWSZ) bytes;
		# an entry: 40 bytes of stat data and mode, the id (raw
		# bytes), 2 bytes of flags (+2 in v3 with the extended bit)
		if (n < 12 + raw) { print "short index " n; exit }
		version = num(4, 4)
		count = num(8, 4)
		print "header " hex(0, 12)
		if (version != 2 && version != 3) {
			print "version " version " " hex(12, n - raw)
			exit
		}
		pos = 12
		for (e = 0; e < count && pos < n - raw; e++) {
			flags = num(pos + 40 + raw, 2)
			fixed = 40 + raw + 2
			if (version == 3 && int(flags / 16384) % 2)
				fixed += 2
			end = pos + fixed
			while (end < n && b[end] != 0)
				end++
			len = int((end - pos) / 8) * 8 + 8
			# ctime, mtime, dev, ino (24 bytes) zeroed
			print "entry " sprintf("%048d", 0) hex(pos + 24, pos + len)
			pos += len
		}
		print "rest " hex(pos, n - raw)
	}'
}

ex_fix_labels () {
	for ex_d
	do
		# (grep exits 1 where nothing matches: not a failure)
		find "$ex_d" -path "$ex_d/.git" -prune -o -type f -exec \
			grep -l "^[<>]\{7\} \.merge_file_" {} + \
			>"$TRASH_DIRECTORY/labels.list"
		while read -r ex_f
		do
			sed "s/^\([<>]\{7\}\) \.merge_file_[A-Za-z0-9]*/\1 .merge_file_X/" \
				"$ex_f" >"$TRASH_DIRECTORY/labels.tmp" &&
			cat "$TRASH_DIRECTORY/labels.tmp" >"$ex_f" || return 1
		done <"$TRASH_DIRECTORY/labels.list" || return 1
	done
}

ex_state () {
	(
		cd "$1" &&
		echo "HEAD: $(cat .git/HEAD)" &&
		git for-each-ref --format="%(refname) %(objectname)" &&
		echo "HEAD reflog:" &&
		if test -f .git/logs/HEAD
		then
			cat .git/logs/HEAD
		fi &&
		for f in MERGE_HEAD MERGE_MSG
		do
			if test -f .git/$f
			then
				echo "$f:" && cat .git/$f
			else
				echo "no $f"
			fi || return 1
		done &&
		echo "index:" &&
		if test -f .git/index
		then
			index_norm .git/index
		else
			echo "no index"
		fi &&
		echo "git ls-files -s:" &&
		git ls-files -s &&
		echo "git diff-files:" &&
		git diff-files --name-status &&
		echo "leftovers in .git:" &&
		find .git -maxdepth 1 \( -name "*.lock" -o -name "dirc-*" \) &&
		echo "work tree:"
	) &&
	snapshot "$1"
}

ex_one_ () {
	ex_who=$1 ex_cmd=$2
	shift 2
	(
		cd "ex-$ex_who" &&
		for ex_kv in ${EX_ENV-}
		do
			export "$ex_kv" || exit 1
		done &&
		DIRC=$ex_cmd "$@" >"../$ex_who.out" 2>"../$ex_who.err"
		echo $? >"../$ex_who.code"
	)
}

ex_both () {
	ex_dirc=$1 ex_template=$2
	shift 2
	rm -rf ex-git ex-dirc &&
	cp -R "$ex_template" ex-git &&
	cp -R "$ex_template" ex-dirc &&
	{
		# (exit 1 when a file is changed or unmerged: not a failure)
		git -C ex-git update-index -q --refresh >/dev/null
		git -C ex-dirc update-index -q --refresh >/dev/null
		true
	} &&
	if test -n "${EX_PREP-}"
	then
		(cd ex-git && eval "$EX_PREP") &&
		(cd ex-dirc && eval "$EX_PREP")
	fi &&
	ex_one_ git git "$@" &&
	ex_one_ dirc "$ex_dirc" "$@"
}

ex_dirc_side () {
	ex_dirc=$1 ex_template=$2
	shift 2
	rm -rf ex-dirc &&
	cp -R "$ex_template" ex-dirc &&
	{
		# (exit 1 when a file is changed or unmerged: not a failure)
		git -C ex-dirc update-index -q --refresh >/dev/null
		true
	} &&
	ex_one_ dirc "$ex_dirc" "$@"
}

ex_same_as_kept () {
	test_cmp_codes "$1/git.code" dirc.code &&
	test_cmp "$1/git.out" dirc.out &&
	test_cmp "$1/git.err" dirc.err &&
	ex_state ex-dirc >dirc.state &&
	test_cmp "$1/git.state" dirc.state
}

ex_same () {
	test_cmp_codes git.code dirc.code &&
	test_cmp git.out dirc.out &&
	test_cmp git.err dirc.err &&
	ex_state ex-git >git.state &&
	ex_state ex-dirc >dirc.state &&
	test_cmp git.state dirc.state
}
