#!/bin/sh
test_description='sparse checkout: the matcher against git on random pattern files

One random tree of a few hundred paths (names that sort against each
other: "a", "a-b", "a.c", "a/"; upper case), checked out
clean.  For each random pattern file — cone patterns as git
sparse-checkout set writes them, cone files made by hand (some git
does not recognise, and then reads as gitignore patterns), gitignore
patterns with negation, anchoring, wildcards, "**", directory-only
patterns, escapes, comments — git read-tree -m -u HEAD applies it, and
the skip-worktree bits it stores are compared with what dirc'\''s matcher
(test-tool sparse-match) says of every path, under core.ignoreCase too.
The plan comes from DIRC_RANDOM_SEED (default 1).'
. ./test-lib.sh

SEED=${DIRC_RANDOM_SEED:-1}
# 15 pattern files in make test, 300 under make test-long
ROUNDS=15
if test_have_prereq LONG
then
	ROUNDS=300
fi

test_expect_success GIT 'setup: a random tree, checked out' '
	awk -v seed=$SEED "BEGIN {
		srand(seed);
		n = split(\"a b c a-b a.c B x.t\", name, \" \");
		walk(\"\", 0);
	}
	function walk(base, depth,    i, r) {
		for (i = 1; i <= n; i++) {
			r = rand();
			if (depth == 0)
				r = r < 0.45 ? 0.5 : 0;
			if (r < 0.3 || depth == 3)
				print base name[i];
			else if (r < 0.6)
				walk(base name[i] \"/\", depth + 1);
		}
		print base \"z\";
	}" | LC_ALL=C sort -u >paths &&
	test $(wc -l <paths) -ge 15 &&
	while read -r p
	do
		mkdir -p "$(dirname "$p")" && echo "$p" >"$p" || return 1
	done <paths &&
	git add . &&
	git commit -q -m tree &&
	git ls-files >entries &&
	awk -F/ "{ p = \"\"; for (i = 1; i < NF; i++) { p = p (i > 1 ? \"/\" : \"\") \$i; print p } }" \
		paths | sort -u >dirs &&
	git config core.sparseCheckout true &&
	mkdir -p .git/info
'

# pattern_file KIND SEED: the patterns on stdout; KIND 0 cone (git's
# form), 1 cone by hand, 2 gitignore patterns
pattern_file () {
	awk -v kind=$1 -v seed=$2 -v dirs=dirs -v paths=paths "BEGIN {
		srand(seed);
		while ((getline l < dirs) > 0) d[nd++] = l;
		while ((getline l < paths) > 0) p[np++] = l;
		if (kind == 0) {
			print \"/*\"; print \"!/*/\";
			k = int(rand() * 4);
			for (i = 0; i < k; i++) cone(d[int(rand() * nd)]);
		} else if (kind == 1) {
			if (rand() < 0.8) print \"/*\";
			if (rand() < 0.8) print \"!/*/\";
			k = int(rand() * 5);
			for (i = 0; i < k; i++) {
				s = d[int(rand() * nd)];
				r = rand();
				if (r < 0.4) print \"/\" s \"/\";
				else if (r < 0.65) print \"!/\" s \"/*/\";
				else if (r < 0.75) print \"/\" s;
				else if (r < 0.8) print s \"/\";
				else if (r < 0.85) print \"/\" s \"*/\";
				else if (r < 0.9) print \"/\" toupper(s) \"/\";
				else cone(s);
			}
		} else {
			split(\"* *.t a a-b b/ c/* /* a/**/z **/z [ab] a?c !a/ \\\\!x #c a.c/ B /a/b/ x.t/\", v, \" \");
			k = 1 + int(rand() * 5);
			for (i = 0; i < k; i++) {
				if (rand() < 0.4) { s = v[1 + int(rand() * 19)] }
				else {
					s = rand() < 0.5 ? d[int(rand() * nd)] : p[int(rand() * np)];
					if (rand() < 0.3) s = \"/\" s;
					if (rand() < 0.3) s = s \"/\";
				}
				if (rand() < 0.25) s = \"!\" s;
				if (rand() < 0.1) s = s \"  \";
				print s;
			}
		}
	}
	function cone(s,    n, c, j, q) {
		n = split(s, c, \"/\"); q = \"\";
		for (j = 1; j < n; j++) {
			q = q \"/\" c[j];
			print q \"/\"; print \"!\" q \"/*/\";
		}
		print q \"/\" c[n] \"/\";
	}"
}

test_expect_success GIT "random pattern files: dirc's matcher says what git stores ($ROUNDS files, seed $SEED)" '
	: >done &&
	round=0 &&
	while test $round -lt $ROUNDS
	do
		kind=$((round % 3)) &&
		cone=false &&
		if test $kind != 2
		then
			cone=true
		fi &&
		icase=false &&
		if test $((round % 5)) = 4
		then
			icase=true
		fi &&
		git config core.sparseCheckoutCone $cone &&
		git config core.ignoreCase $icase &&
		pattern_file $kind $((SEED * 1000 + round)) >.git/info/sparse-checkout &&
		git read-tree -m -u HEAD 2>git.err &&
		git -c core.sparsecheckout=false ls-files -t >expect &&
		dirc test-tool sparse-match <entries >actual 2>dirc.err &&
		test_cmp expect actual &&
		# git says its warnings again when it writes files: once each
		awk "!seen[\$0]++" git.err >git.once &&
		test_cmp git.once dirc.err || {
			echo "# round $round (kind $kind, cone $cone, icase $icase):" &&
			cat .git/info/sparse-checkout &&
			return 1
		}
		echo "$kind $(grep -c "^S" actual) $(grep -c "^H" actual)" >>done &&
		round=$((round + 1))
	done &&
	test_line_count = $ROUNDS done &&
	# some files left entries out, some kept some in, of every kind
	for k in 0 1 2
	do
		awk "\$1 == $k && \$2 > 0 && \$3 > 0" done | grep -q . || return 1
	done
'

test_done
