#!/bin/sh
test_description='ignore rules: random pattern sets and trees against git

awk builds, from a fixed seed, rounds of: a work tree of odd names
(wildcards, "#" and "!" at the start, spaces, brackets, backslashes, case
variants, a name that is a file in one place and a directory in
another), some of it tracked; .gitignore files in random directories,
info/exclude, and a global excludes file (core.excludesFile or the
default under $HOME/.config), holding random patterns (negations,
directory-only, anchored, "**", sets and classes, escaped "#" "!" and
spaces, trailing spaces, comments, blank lines, CRLF endings, a BOM);
core.ignoreCase on or off.  Odd rounds force dirc'\''s parallel walk.
Each round asks git and dirc the same
questions and compares the answers byte for byte:
check-ignore -v -n --stdin and check-ignore --stdin over every path and
some that do not exist, and ls-files -o / -i with --exclude-standard,
--directory and --no-empty-directory, and ls-files -c -i.  Counts are
checked: rounds run, paths asked, paths ignored, paths decided by a
negation, so that a generator gone wrong shows.'
. ./test-lib.sh

# gen SEED N: N rounds; round K writes the script "rK.sh" (build the
# tree in rK/) and the question list "rK.paths".
gen () {
	awk -v seed="$1" -v n="$2" '
	function pick(arr, nr) { return arr[int(rand() * nr)] }
	function q(s) { return "'\''" s "'\''" }
	BEGIN {
		srand(seed)
		nf = split("x.o y.c foo Foo bar.txt sp~ace #hash !bang [br] a*b" \
			   " b\\s .hidden FOO.O z", fn, " ")
		nd = split("a b sub Sub d.d build foo sp~d", dn, " ")
		np = split("x.o y.c foo Foo bar.txt *.o *.c *.[oc] [a-f]* ?oo" \
			   " * ** [[:upper:]]* [!a]* b* *ar* a b sub Sub" \
			   " d.d build sp~d sp~ace \\#hash \\!bang \\[br] a\\*b" \
			   " .hidden *.O [[:digit:]]* [a-] [^x]* *.txt z" \
			   " foo* [F]oo b\\\\s", pn, " ")
		npre = split("- - - - / **/ a/ sub/ a/**/ */ b/sub/ sub/**/" \
			     " **/sub/", pre, " ")
		nsuf = split("- - - - - / / /** /* /**/x.o", suf, " ")
		for (k = 0; k < nf; k++) fn[k] = fn[k + 1]
		for (k = 0; k < nd; k++) dn[k] = dn[k + 1]
		for (k = 0; k < np; k++) pn[k] = pn[k + 1]
		for (k = 0; k < npre; k++) pre[k] = pre[k + 1]
		for (k = 0; k < nsuf; k++) suf[k] = suf[k + 1]
		for (r = 1; r <= n; r++)
			round(r)
	}
	function pattern(   p, a, b) {
		a = pick(pre, npre); b = pick(suf, nsuf)
		if (a == "-") a = ""
		if (b == "-") b = ""
		p = a pick(pn, np) b
		if (rand() < 0.25) p = "!" p
		if (rand() < 0.05) p = p "~~"
		if (rand() < 0.04) p = p "\\~"
		if (rand() < 0.04) p = "#" p
		if (rand() < 0.03) p = ""
		return p
	}
	# an ignore file: a few pattern lines, maybe CRLF, maybe a BOM
	function ignfile(file,   k, m, crlf, pat) {
		m = 1 + int(rand() * 5)
		crlf = rand() < 0.1
		if (rand() < 0.05)
			print "printf '\''\\357\\273\\277'\'' >>" q(file) >sh
		for (k = 0; k < m; k++) {
			pat = pattern()
			gsub(/~/, " ", pat)
			print "printf '\''%s" (crlf ? "\\r" : "") "\\n'\'' " \
			      q(pat) " >>" q(file) >sh
		}
		if (rand() < 0.1)
			print "printf '\''%s'\'' " q(pattern()) " >>" q(file) >sh
	}
	function round(r,   d, k, m, par, name, p, nds, ndirs, dirs, nfiles,
		       files, seen, tracked) {
		sh = "r" r ".sh"
		paths = "r" r ".paths"
		print "git init -q r" r " && cd r" r " || exit 1" >sh
		if (rand() < 0.3)
			print "git config core.ignoreCase true" >sh
		ndirs = 1; dirs[0] = ""
		m = 2 + int(rand() * 8)
		for (k = 0; k < m; k++) {
			par = dirs[int(rand() * ndirs)]
			if (split(par, nds, "/") > 3) continue
			d = par pick(dn, nd) "/"
			if (d in seen) continue
			seen[d] = 1
			seen[substr(d, 1, length(d) - 1)] = 1
			dirs[ndirs++] = d
		}
		nfiles = 0
		for (k = 0; k < ndirs; k++) {
			gsub(/~/, " ", dirs[k])
			if (dirs[k] != "")
				print "mkdir -p " q(dirs[k]) >sh
		}
		for (k = 0; k < ndirs; k++) {
			m = int(rand() * 5)
			for (p = 0; p < m; p++) {
				name = dirs[k] pick(fn, nf)
				gsub(/~/, " ", name)
				if (name in seen) continue
				seen[name] = 1
				files[nfiles++] = name
				print ": >" q(name) >sh
			}
		}
		# ignore files
		for (k = 0; k < ndirs; k++)
			if (rand() < 0.5)
				ignfile(dirs[k] ".gitignore")
		if (rand() < 0.6)
			ignfile(".git/info/exclude")
		if (rand() < 0.3) {
			print "mkdir -p ../home" r "/.config/git" >sh
			ignfile("../home" r "/.config/git/ignore")
		} else if (rand() < 0.4) {
			ignfile("../global" r)
			print "git config core.excludesFile ../global" r >sh
		}
		# some tracked
		tracked = ""
		for (k = 0; k < nfiles; k++)
			if (rand() < 0.2)
				tracked = tracked " " q(files[k])
		if (rand() < 0.3)
			tracked = tracked " .gitignore"
		if (tracked != "")
			print "git update-index --add --" tracked \
			      " 2>/dev/null || :" >sh
		# the questions
		for (k = 1; k < ndirs; k++) {
			d = dirs[k]
			print substr(d, 1, length(d) - 1) >paths
			if (rand() < 0.3) print d >paths
			print d "new.o" >paths
		}
		for (k = 0; k < nfiles; k++)
			print files[k] >paths
		print "no/such/dir/x.o" >paths
		print "foo" >paths
		print "a/foo/bar" >paths
		close(sh); close(paths)
	}'
}

# ask CMD...: run CMD ("check-ignore ..." or "ls-files ...") in the
# round directory with git and dirc, the questions on stdin; compare.
ask () {
	(cd "$rd" && HOME=$TRASH_DIRECTORY/home$k &&
	 export HOME && exec git "$@" <"../r$k.paths") >git.out 2>git.err
	echo $? >git.code
	# odd rounds: the parallel walk, whatever the tree's size
	(cd "$rd" && HOME=$TRASH_DIRECTORY/home$k &&
	 if test $((k % 2)) = 1
	 then
		DIRC_PARALLEL_WALK_MIN=0 DIRC_THREADS=3 &&
		export DIRC_PARALLEL_WALK_MIN DIRC_THREADS
	 fi &&
	 export HOME && exec dirc "$@" <"../r$k.paths") >dirc.out 2>dirc.err
	echo $? >dirc.code
	if ! cmp -s git.out dirc.out || ! cmp -s git.code dirc.code ||
	   ! cmp -s git.err dirc.err
	then
		echo "round $k differs: $*" >&2
		diff -u git.out dirc.out >&2
		diff -u git.err dirc.err >&2
		cat git.code dirc.code >&2
		return 1
	fi
	return 0
}

# rounds SEED N: build and compare N rounds; counts into "counts"
rounds () {
	gen "$1" "$2" &&
	bad=0 asked=0 ignored=0 negated=0 &&
	k=1 &&
	while test $k -le "$2"
	do
		rd=r$k &&
		sh "r$k.sh" >/dev/null 2>&1 &&
		for c in "check-ignore -v -n --stdin" "check-ignore --stdin" \
			 "check-ignore -v -n --no-index --stdin" \
			 "ls-files -o --exclude-standard" \
			 "ls-files -o -i --exclude-standard" \
			 "ls-files -o --exclude-standard --directory" \
			 "ls-files -o -i --exclude-standard --directory" \
			 "ls-files -o --exclude-standard --directory --no-empty-directory" \
			 "ls-files -c -i --exclude-standard"
		do
			# shellcheck disable=SC2086
			ask $c || bad=$((bad + 1))
			case $c in
			"check-ignore -v -n --stdin")
				asked=$((asked + $(wc -l <dirc.out))) &&
				ignored=$((ignored + $(grep -c -v "^::" dirc.out))) &&
				negated=$((negated + $(grep -c ":!" dirc.out)))
			esac
		done &&
		k=$((k + 1)) || return 1
	done &&
	echo "$((k - 1)) $asked $ignored $negated" >counts &&
	test $bad = 0
}

test_expect_success GIT 'random pattern sets and trees: dirc answers as git' '
	rounds 1 10 &&
	read n asked ignored negated <counts &&
	test $n = 10 &&
	test $asked -gt 150 &&
	test $ignored -gt 40 &&
	test $negated -gt 3 &&
	test $((asked - ignored)) -gt 40
'

test_expect_success GIT,LONG 'random pattern sets and trees: many more rounds' '
	rm -rf r[0-9]* home[0-9]* global[0-9]* &&
	rounds 7 400 &&
	read n asked ignored negated <counts &&
	test $n = 400 &&
	test $asked -gt 5000
'

test_done
