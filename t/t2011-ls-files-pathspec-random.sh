#!/bin/sh
test_description='ls-files: random pathspecs and globs against git

A work tree of odd names (wildcards, backslashes, brackets, spaces, case
variants), tracked and untracked, a nested repository, an unmerged path.
awk makes random pathspecs (magic, globs with sets, classes, escapes and
"**", "../", exclusions) with random options, directories and global
pathspec settings from a fixed seed; each is run by git ls-files and by
dirc ls-files, which must exit alike and print the same, stdout and
stderr.  A second round throws random glob patterns at the matcher alone
(plain, :(glob), :(icase)).  Each round counts how many cases ran, and
the two failures of the first kind and how many patterns matched
something are checked, so that a generator gone wrong shows.'
. ./test-lib.sh

# both_run FILE: run each line "DIR|ENV|ARG|..." (ENV: "-" or "NAME=VALUE")
# with git and dirc; the count of cases goes to rounds, of cases where
# something was listed to listed.  Each case leaves its exit code, stdout
# and stderr in FILE.git/<n>.* and FILE.dirc/<n>.*, and one "diff -r" of
# the two directories compares all cases at the end (a process per case
# costs more than the case's own check): the number of cases that differ
# goes to diffs, and the first five are shown, with their line of FILE.
both_run () {
	br_n=0 &&
	br_listed=0 &&
	br_file=$1 &&
	mkdir "$br_file.git" "$br_file.dirc" &&
	set -f &&
	br_ifs=$IFS &&
	while IFS= read -r br_line
	do
		br_n=$((br_n + 1))
		IFS='|'
		# shellcheck disable=SC2086
		set -- $br_line
		IFS=$br_ifs
		br_dir=$1
		br_env=$2
		shift 2
		test "$br_env" != - || br_env=DIRC_UNUSED=1
		# the variable exported in a subshell that becomes the
		# command: no env process
		(export "$br_env" && exec git -C "w/$br_dir" ls-files "$@") \
			>"$br_file.git/$br_n.out" 2>"$br_file.git/$br_n.err"
		echo $? >"$br_file.git/$br_n.code"
		(export "$br_env" && exec dirc -C "w/$br_dir" ls-files "$@") \
			>"$br_file.dirc/$br_n.out" 2>"$br_file.dirc/$br_n.err"
		echo $? >"$br_file.dirc/$br_n.code"
		test -s "$br_file.git/$br_n.out" && br_listed=$((br_listed + 1))
	done <"$br_file"
	set +f
	echo $br_n >rounds
	echo $br_listed >listed
	# "Files F.git/12.out and F.dirc/12.out differ", or "Only in ...":
	# one line a file, in name order, so the lines of a case are together
	diff -rq "$br_file.git" "$br_file.dirc" >"$br_file.diff"
	case $? in
	0|1)	br_bad=0 ;;
	*)	echo "diff -r failed" && br_bad=error ;;
	esac
	br_last=
	while read -r br_a br_b br_c br_d
	do
		case $br_a in
		Files)	br_c=${br_b##*/} ;;
		*)	br_c=${br_d##*/} ;;
		esac
		br_c=${br_c%.*}
		test "$br_c" != "$br_last" && test "$br_bad" != error || continue
		br_last=$br_c
		br_bad=$((br_bad + 1))
		test $br_bad -le 5 || continue
		br_i=0
		while IFS= read -r br_line
		do
			br_i=$((br_i + 1))
			test $br_i != "$br_c" || break
		done <"$br_file"
		echo "differs: case $br_c: $br_line (DIR|ENV|ARGS: ls-files -C w/DIR)"
		for br_x in code out err
		do
			diff "$br_file.git/$br_c.$br_x" "$br_file.dirc/$br_c.$br_x"
		done
	done <"$br_file.diff"
	echo $br_bad >diffs
}

test_expect_success GIT 'setup: a work tree of odd names' '
	git init -q w &&
	(
		cd w &&
		for d in a A "b c" "x[1]" "q*" "r?" "s\\t" a/b a/B "b c/d"
		do
			mkdir -p "$d" || exit 1
		done &&
		for f in a/f a/F a/b/g.c a/B/g.C "b c/h" "b c/d/i.c" "x[1]/y" \
			"q*/z" "r?/u" "s\\t/v" top.c TOP.c "a*" "a?" "a[b]" \
			"a\\b" ab aB a-b a.b "sp ace" "[x]" "x]" ".hidden" \
			A/up
		do
			printf "%s\n" "$f" >"$f" || exit 1
		done &&
		git add . &&
		for f in a/new.c "b c/new" untracked.c "q*/new?" "x[1]/z" \
			A/low
		do
			printf "%s\n" "$f" >"$f" || exit 1
		done &&
		mkdir -p empty/deeper un/deep &&
		echo u >un/deep/u.c &&
		git init -q nested &&
		blob=$(git hash-object -w top.c) &&
		printf "100644 %s %d\tconf\n" $blob 1 $blob 2 $blob 3 |
		git update-index --index-info
	) &&
	git -C w ls-files >tracked &&
	test_line_count = 28 tracked
'

# awk: one case a line, from seed $1, $2 of them
gen_cases () {
	awk -v seed="$1" -v n="$2" '
	function pick(s,    k, a) { k = split(s, a, " "); return a[int(rand() * k) + 1] }
	BEGIN {
		srand(seed)
		# "~" stands for a space (awk splits on blanks)
		tok = "a a A b B f F g.c y z * * ** ? ? [ab] [!a] [^b] [a-z] [A-Z] [[:upper:]] [[:alpha:]] \\* \\? \\[ x[1] x\\[1\\] q* r? s\\t / / / . .. c h i.c new top.c TOP.C b~c sp~ace [x] x] conf nested un un/ empty/ .hidden"
		magic = "- - - - - :(top) :/ :(glob) :(icase) :(literal) :! :(exclude) :(glob,icase) :^ :(top,icase)"
		opts = "- - -s -o -o|--directory -o|--directory|--no-empty-directory -c|-o -d|-m -k -t|-c|-o -u --error-unmatch -o|--error-unmatch -z -c|--deduplicate"
		dirs = ". . . a a/b b~c x[1] un"
		envs = "- - - - GIT_GLOB_PATHSPECS=1 GIT_ICASE_PATHSPECS=1 GIT_LITERAL_PATHSPECS=1 GIT_NOGLOB_PATHSPECS=1"
		for (i = 0; i < n; i++) {
			line = pick(dirs) "|" pick(envs)
			o = pick(opts)
			if (o != "-")
				line = line "|" o
			line = line "|--"
			k = int(rand() * 4)
			for (j = 0; j < k; j++) {
				m = pick(magic)
				p = ""
				t = int(rand() * 3) + 1
				for (l = 0; l < t; l++)
					p = p pick(tok)
				if (m != "-")
					p = m p
				line = line "|" p
			}
			gsub(/~/, " ", line)
			print line
		}
	}'
}

test_expect_success GIT 'random pathspecs, options, directories, settings' '
	gen_cases 20101 250 >cases &&
	test_line_count = 250 cases &&
	both_run cases &&
	echo 250 >expect &&
	test_cmp expect rounds &&
	echo 0 >expect &&
	test_cmp expect diffs &&
	test "$(cat listed)" -gt 60
'

# awk: random glob patterns, each with one of four magics
gen_globs () {
	awk -v seed="$1" -v n="$2" '
	function pick(s,    k, a) { k = split(s, a, " "); return a[int(rand() * k) + 1] }
	BEGIN {
		srand(seed)
		tok = "a A b B c f g . / / * * * ** ** ? ? [ab] [!a] [^/] [a-c] [A-Z] [[:lower:]] [[:punct:]] [[:bogus:]] [] [\\]] \\* \\? \\[ \\a [ ] - _ x 1 t"
		magic = "- :(glob) :(icase) :(glob,icase)"
		for (i = 0; i < n; i++) {
			p = ""
			t = int(rand() * 5) + 1
			for (l = 0; l < t; l++)
				p = p pick(tok)
			m = pick(magic)
			if (m != "-")
				p = m p
			print ".|-|-c|-o|--|" p
		}
	}'
}

test_expect_success GIT 'random globs: the matcher alone' '
	gen_globs 20102 300 >globs &&
	both_run globs &&
	echo 300 >expect &&
	test_cmp expect rounds &&
	echo 0 >expect &&
	test_cmp expect diffs &&
	test "$(cat listed)" -gt 30
'

test_done
