#!/bin/sh
test_description='check-attr on generated attribute files and paths, against git

Each round writes random .gitattributes files (in the work tree, some
only in the index), $GIT_DIR/info/attributes and a global file, from a
pool of patterns (globs, anchored, "**", classes, quoted, directories,
negative) and states (set, unset, unspecified, values, macros, bad
names), then asks both git and dirc for every attribute of a few hundred
generated paths (--stdin -a, then named attributes -z): the outputs and
the messages must be the same.  ROUNDS rounds (more under LONG); the
number run is checked.'
. ./test-lib.sh

ROUNDS=8
if test_have_prereq LONG
then
	ROUNDS=150
fi

# gen SEED: the files of one round, and "paths" (one per line)
gen () {
	awk -v seed="$1" '
	function pick(n) { return int(rand() * n) + 1 }
	function pat() {
		return P[pick(np)]
	}
	function states(   n, s, i) {
		n = pick(4); s = ""
		for (i = 0; i < n; i++)
			s = s " " S[pick(ns)]
		return s
	}
	function file(name, top,   n, i, line) {
		n = pick(8) - 1
		printf "" >name
		for (i = 0; i < n; i++) {
			if (pick(7) == 1)
				line = "[attr]m" pick(3) states()
			else if (pick(15) == 1)
				line = "# comment " pat()
			else
				line = pat() (pick(2) == 1 ? "\t" : " ") states()
			print line >name
		}
		close(name)
	}
	BEGIN {
		srand(seed)
		np = split("* *.c *.h a* ?.c x.[ch] [a-c]*.c a/ b/ d /x.c /a/x.c a/** **/x.c a/**/y.c d/*.c *.C \"q r.c\" \"a\\tb.c\" !neg \\!x.c *x* b/*/z.c x.c y.c **/b/* a/b/ /d/ *.c/ b", P, " ")
		ns = split("t -t !t t=v t=w u -u u=1 text -text text=auto eol=lf eol=crlf binary -binary m1 m2 m3 !m1 bad! -bad= diff -merge a.b_c-d", S, " ")
		dirs[0] = ""; dirs[1] = "a/"; dirs[2] = "a/b/"; dirs[3] = "b/"; dirs[4] = "d/"; dirs[5] = "a/b/c/"
		for (i = 0; i < 6; i++)
			if (pick(3) != 1)
				file(dirs[i] ".gitattributes", i == 0)
		if (pick(2) == 1)
			file(".git/info/attributes", 1)
		if (pick(3) == 1)
			file("global-attrs", 1)
		nn = split("x.c y.c z.c q.h X.C d a b c q\\ r.c x", N, " ")
		for (i = 0; i < 300; i++) {
			d = dirs[pick(6) - 1]
			n = N[pick(nn)]
			gsub(/\\ /, " ", n)
			p = d n
			if (pick(10) == 1)
				p = p "/"
			print p >"paths"
		}
	}'
}

test_expect_success GIT 'setup' '
	mkdir -p a/b/c b d .git/info &&
	git config core.attributesFile "$PWD/global-attrs"
'

test_expect_success GIT 'random attribute files: dirc check-attr agrees with git' '
	rounds=0 &&
	lines=0 &&
	seed=1 &&
	while test $seed -le $ROUNDS
	do
		rm -f .gitattributes a/.gitattributes a/b/.gitattributes \
			b/.gitattributes d/.gitattributes a/b/c/.gitattributes \
			.git/info/attributes global-attrs paths &&
		git rm -q --cached -r --ignore-unmatch . >/dev/null &&
		gen $seed &&
		if test $((seed % 3)) = 0 && test -f a/.gitattributes
		then
			git add a/.gitattributes &&
			rm a/.gitattributes
		fi &&
		git check-attr --stdin -a <paths >git.out 2>git.err &&
		dirc check-attr --stdin -a <paths >dirc.out 2>dirc.err &&
		test_cmp git.out dirc.out &&
		test_cmp git.err dirc.err &&
		lines=$((lines + $(wc -l <git.out))) &&
		tr "\n" "\0" <paths >pathsz &&
		git check-attr --stdin -z t u text eol m1 m2 binary diff a.b_c-d \
			<pathsz >git.out 2>git.err &&
		dirc check-attr --stdin -z t u text eol m1 m2 binary diff a.b_c-d \
			<pathsz >dirc.out 2>dirc.err &&
		test_cmp git.out dirc.out &&
		test_cmp git.err dirc.err &&
		git check-attr --cached --stdin -a <paths >git.out 2>git.err &&
		dirc check-attr --cached --stdin -a <paths >dirc.out 2>dirc.err &&
		test_cmp git.out dirc.out &&
		test_cmp git.err dirc.err &&
		rounds=$((rounds + 1)) &&
		seed=$((seed + 1)) || {
			echo "^^^ round $seed" >&2
			return 1
		}
	done &&
	test $rounds = $ROUNDS &&
	# the files gave the paths attributes: something was compared
	test $lines -gt $((ROUNDS * 50))
'

test_expect_success 'mutated attribute files: no crash' '
	n=0 &&
	i=0 &&
	printf "*.c text eol=crlf\n[attr]m a -b c=d\n\"q\\tr\" m\n" >seed-attrs &&
	while test $i -lt 120
	do
		awk -v seed=$i "
		BEGIN { srand(seed) }
		{
			line = \$0
			for (k = 0; k < 3; k++) {
				pos = int(rand() * (length(line) + 1))
				c = sprintf(\"%c\", int(rand() * 94) + 33)
				if (rand() < 0.3) c = \"\\\"\"
				if (rand() < 0.2) c = \"\\\\\"
				line = substr(line, 1, pos) c substr(line, pos + 2)
			}
			print line
		}" seed-attrs >.gitattributes &&
		{ dirc check-attr -a x.c a/y.c "q	r" m >/dev/null 2>&1; rc=$?; } &&
		test $rc -lt 128 &&
		n=$((n + 1)) &&
		i=$((i + 1)) || return 1
	done &&
	test $n = 120
'

test_done
