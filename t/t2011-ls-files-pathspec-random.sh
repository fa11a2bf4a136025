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
# with git and dirc, compare; counts go to rounds, differing to diffs,
# cases where something was listed to listed.
both_run () {
	br_n=0 &&
	br_bad=0 &&
	br_listed=0 &&
	set -f &&
	br_ifs=$IFS &&
	while IFS= read -r br_line
	do
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
			>git.out 2>git.err
		echo $? >git.code
		(export "$br_env" && exec dirc -C "w/$br_dir" ls-files "$@") \
			>dirc.out 2>dirc.err
		echo $? >dirc.code
		if cmp -s git.code dirc.code && cmp -s git.out dirc.out &&
		   cmp -s git.err dirc.err
		then
			:
		else
			br_bad=$((br_bad + 1))
			if test $br_bad -le 5
			then
				echo "differs: $br_env ls-files -C w/$br_dir $*"
				diff git.out dirc.out
				diff git.err dirc.err
				cat git.code dirc.code
			fi
		fi
		test -s git.out && br_listed=$((br_listed + 1))
		br_n=$((br_n + 1))
	done <"$1"
	set +f
	echo $br_n >rounds
	echo $br_bad >diffs
	echo $br_listed >listed
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
