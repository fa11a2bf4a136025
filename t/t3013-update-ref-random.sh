#!/bin/sh
test_description='update-ref --stdin: random command streams, against git and for crashes

Two randomised runs over the whole --stdin language, newline and -z
forms: commands, options, quoting, missing, empty, extra and bad
arguments, bad names, transaction verbs in any order, and (for the
crash run) random byte edits of the lines.

- Against git: each round runs one random stream with git in rg and
  with dirc in rd, two repositories with the same ref store (loose,
  packed, symbolic, nested refs, reflogs) and one object store: exit
  code, stdout, stderr and every file of the ref store must be equal,
  and a run that failed before any "commit: ok" must leave the store
  as it was.  (Lighter than lib-interop.sh, which saves and restores
  the store for every run: on a busy machine each process counts.
  Empty directories are pruned from both stores after each round, as
  git leaves some behind; t3011 checks the directories dirc leaves.)
- For crashes: thousands of commands in streams run by dirc alone; no
  run may die by a signal or exit with anything but 0, 128 or 129, and
  none may leave a lock behind.

The streams come from an awk program seeded by DIRC_TEST_SEED (default
1); each script asserts how many rounds and commands it ran, and that
every kind of command was generated.  DIRC_TEST_LONG=1 runs 25 and 20 times
as many.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh	# for the GIT_MSGS prerequisite
. "$TEST_DIRECTORY"/lib-refs.sh

SEED=${DIRC_TEST_SEED:-1}
if test -n "$DIRC_TEST_LONG"
then
	ROUNDS=1500 CRASH_RUNS=4000
else
	ROUNDS=60 CRASH_RUNS=200
fi

# gen MODE SEED N: N streams (MODE "diff" or "crash") as files
# stream.<i> and opts.<i>; the record separator of -z streams is made a
# NUL afterwards (awk writes byte 31 for it).  Prints "kind count" lines
# for what it generated.
gen () {
	awk -v mode="$1" -v seed="$2" -v n="$3" -v c1="$c1" -v c2="$c2" \
		-v c3="$c3" -v blob="$blob" -v tree="$tree" -v tag="$tag" \
		-v zero="$ZERO_OID" '
	function pick(a, k) { return a[int(rand() * k)] }
	function chance(p) { return rand() < p }
	function ref() {
		r = pick(refs, nrefs)
		# verify through HEAD or a symbolic ref: git 2.39 logs a bogus
		# "<old> 0000" line there (dirc does not), so not compared
		if (cmd == "verify" && mode == "diff" &&
		    (r == "HEAD" || r == "refs/heads/master" ||
		     r == "refs/heads/sym"))
			r = "refs/heads/b"
		return r
	}
	function sep() {
		if (z)
			return "\037"
		return chance(0.93) ? " " : pick(seps, nseps)
	}
	function mutate(s,    i, k) {
		k = int(rand() * 4)
		i = int(rand() * (length(s) + 1))
		if (k == 0)
			return substr(s, 1, i) substr(s, i + 2)
		if (k == 1)
			return substr(s, 1, i) pick(bytes, nbytes) substr(s, i + 1)
		if (k == 2)
			return substr(s, 1, i) substr(s, i + 1, 3) substr(s, i + 1)
		return substr(s, 1, i) pick(bytes, nbytes) substr(s, i + 2)
	}
	BEGIN {
		srand(seed)
		split("refs/heads/a refs/heads/b refs/heads/a/b refs/heads/c " \
		      "refs/heads/d refs/heads/d/x refs/heads/e refs/heads/e/f " \
		      "refs/tags/t HEAD refs/heads/master refs/heads/sym " \
		      "FETCH_HEAD lower refs/heads/p refs/heads/p/q " \
		      "\"refs/heads/c\" refs/heads/a..b refs/heads/x.lock " \
		      "\"refs/heads/\\001x\" refs/heads/sp\\040ace", tmp, " ")
		nrefs = 0
		for (i in tmp) refs[nrefs++] = tmp[i]
		refs[nrefs++] = ""
		vals[0] = c1; vals[1] = c2; vals[2] = c3
		vals[3] = zero
		vals[4] = "master"; vals[5] = "HEAD"; vals[6] = "HEAD~1"
		vals[7] = ""; vals[8] = "nope"; vals[9] = blob
		vals[10] = tree; vals[11] = tag; vals[12] = "\"master\""
		vals[13] = "\"ma\\163ter\""; vals[14] = "\"bad\\q\""
		vals[15] = substr(c1, 1, 7); vals[16] = "refs/heads/a"
		nvals = 17
		split("update create delete verify option start prepare " \
		      "commit abort", cmds, " ")
		ncmds = 0
		for (i in cmds) clist[ncmds++] = cmds[i]
		clist[ncmds++] = "junk"
		seps[0] = "  "; seps[1] = "\t"; seps[2] = ""
		nseps = 3
		bytes[0] = " "; bytes[1] = "\""; bytes[2] = "\\"; bytes[3] = "\t"
		bytes[4] = "\001"; bytes[5] = "x"; bytes[6] = "/"
		bytes[7] = "\n"; bytes[8] = "."; bytes[9] = "0"
		nbytes = 10
		nargs["update"] = 3; nargs["create"] = 2; nargs["delete"] = 2
		nargs["verify"] = 2; nargs["option"] = 1
		opts[0] = ""; opts[1] = "--no-deref"; opts[2] = "--create-reflog"
		opts[3] = "-m fuzz"; opts[4] = "-m \"a  b\" --no-deref"
		nopts = 5
		for (s = 1; s <= n; s++) {
			z = chance(0.3)
			o = pick(opts, nopts)
			printf "%s%s\n", z ? "-z " : "", o > ("opts." s)
			lines = 1 + int(rand() * (mode == "crash" ? 12 : 5))
			out = ""
			for (l = 0; l < lines; l++) {
				cmd = pick(clist, ncmds)
				kinds[cmd]++
				total++
				if (cmd == "junk") {
					line = pick(vals, nvals)
				} else if (cmd == "option") {
					line = "option" sep() \
					       (chance(0.85) ? "no-deref" : "deref")
				} else if (cmd in nargs) {
					line = cmd " " ref()
					k = nargs[cmd] - 1
					if (chance(0.2))
						k += int(rand() * 3) - 1
					for (a = 0; a < k; a++)
						line = line sep() pick(vals, nvals)
				} else {
					line = cmd
				}
				if (mode == "crash" && chance(0.3))
					line = mutate(line)
				if (chance(0.03))
					line = " " line
				last = (l == lines - 1)
				term = z ? "\037" : "\n"
				if (last && chance(0.1))
					term = ""
				out = out line term
			}
			printf "%s", out > ("stream." s)
			close("stream." s)
			close("opts." s)
		}
		for (k in kinds) printf "%s %d\n", k, kinds[k]
		printf "total %d\n", total
	}'
}

# nul_streams N: turn the awk separator (byte 31) into NUL in -z streams.
nul_streams () {
	i=1 &&
	while test $i -le $1
	do
		tr "\037" "\000" <"stream.$i" >"stream.$i.t" &&
		mv "stream.$i.t" "stream.$i" &&
		i=$((i + 1)) || return 1
	done
}

# the kinds every generated set must contain
check_kinds () {
	for k in update create delete verify option start prepare commit \
		abort junk
	do
		grep -q "^$k [1-9]" "$1" || {
			echo "no $k command generated" >&2
			return 1
		}
	done
}

# the ref store of a git dir: all of it but these
STATE_X="-x objects -x config -x index -x hooks -x info -x description \
-x branches -x COMMIT_EDITMSG"

# reset_base: both ref stores as the setup made them.
reset_base () {
	for rb_r in rg rd
	do
		(
			cd $rb_r/.git &&
			rm -rf $(ls -A | grep -v -x -e objects -e config \
				-e index -e hooks -e info -e description \
				-e branches -e COMMIT_EDITMSG) &&
			tar -xf ../../base.tar
		) || return 1
	done
}

test_expect_success GIT 'setup: loose, packed, symbolic and nested refs with reflogs' '
	git init -q rg &&
	(
		cd rg &&
		echo a >a &&
		git update-index --add a &&
		git write-tree >../tree &&
		git commit-tree -m one "$(cat ../tree)" >../c1 &&
		test_tick &&
		git commit-tree -p "$(cat ../c1)" -m two "$(cat ../tree)" >../c2 &&
		test_tick &&
		git commit-tree -p "$(cat ../c2)" -m three "$(cat ../tree)" >../c3 &&
		git hash-object -w a >../blob &&
		git tag -a -m "a tag" t "$(cat ../c1)" &&
		git rev-parse t >../tag &&
		git update-ref refs/heads/master "$(cat ../c3)" &&
		git update-ref refs/heads/a "$(cat ../c1)" &&
		git update-ref refs/heads/d/x "$(cat ../c2)" &&
		git update-ref refs/heads/e "$(cat ../c1)" &&
		git update-ref refs/heads/p "$(cat ../c2)" &&
		git pack-refs --all &&
		git update-ref refs/heads/p "$(cat ../c3)" &&
		git symbolic-ref refs/heads/sym refs/heads/a &&
		cd .git &&
		tar -cf ../../base.tar HEAD packed-refs refs logs
	) &&
	tree=$(cat tree) c1=$(cat c1) c2=$(cat c2) c3=$(cat c3) &&
	blob=$(cat blob) tag=$(cat tag) &&
	git init -q rd &&
	rm -rf rd/.git/objects &&
	ln -s ../../rg/.git/objects rd/.git/objects &&
	reset_base &&
	test_fsck_also rg rd
'

test_expect_success GIT "$ROUNDS random streams: git and dirc agree on everything" '
	gen diff "$SEED" "$ROUNDS" >kinds.diff &&
	nul_streams "$ROUNDS" &&
	check_kinds kinds.diff &&
	: >ran && : >checked-at-queue &&
	i=1 &&
	while test $i -le $ROUNDS
	do
		if test $((i % 10)) = 1
		then
			reset_base || return 1
		fi &&
		tar -C rd/.git -cf pre.tar $(ls -A rd/.git | grep -v -x \
			-e objects -e config -e index -e hooks -e info \
			-e description -e branches) &&
		eval "set -- $(cat opts.$i)" &&
		{ git -C rg update-ref "$@" --stdin <stream.$i >g.out 2>g.err; gc=$?; } &&
		{ dirc -C rd update-ref "$@" --stdin <stream.$i >d.out 2>d.err; dc=$?; } &&
		if grep -q "^fatal: trying to write " d.err
		then
			# git 2.55 checks a new object as the command is
			# read, 2.39 (here) at commit or never: dirc stops
			# there, having printed what git printed so far;
			# then rg takes the refs of rd
			test $dc = 128 &&
			head -c $(wc -c <d.out) g.out >g.out.head &&
			cmp g.out.head d.out &&
			rm -rf rg/.git/HEAD rg/.git/packed-refs rg/.git/refs \
				rg/.git/logs &&
			(cd rd/.git && tar -cf - HEAD $(ls packed-refs 2>/dev/null) \
				refs logs) | tar -C rg/.git -xf - &&
			echo $i >>checked-at-queue || return 1
		elif test $gc != $dc ||
		   ! cmp -s g.out d.out ||
		   { test_have_prereq GIT_MSGS && ! cmp -s g.err d.err &&
		     ! { sed "s|/rg/|/r/|g" g.err | update_ref_msgs_now >g.err.m &&
			 sed "s|/rd/|/r/|g" d.err >d.err.m &&
			 cmp -s g.err.m d.err.m; }; } ||
		   ! find rg/.git/refs rg/.git/logs rd/.git/refs rd/.git/logs \
			-depth -mindepth 1 -type d -empty -delete ||
		   ! diff -r $STATE_X rg/.git rd/.git >state.diff
		then
			echo "round $i: update-ref $(cat opts.$i) --stdin <<" &&
			od -c stream.$i | sed 20q &&
			echo "git: $gc, dirc: $dc" &&
			diff -u g.out d.out
			diff -u g.err d.err
			cat state.diff
			return 1
		fi &&
		if test $dc != 0 && ! grep -q "^commit: ok" d.out
		then
			rm -rf pre && mkdir pre && tar -C pre -xf pre.tar &&
			find pre/refs pre/logs -depth -mindepth 1 -type d -empty -delete &&
			diff -r $STATE_X pre rd/.git || {
				echo "round $i: dirc failed and changed the refs" &&
				od -c stream.$i | sed 20q &&
				return 1
			}
		fi &&
		echo $dc >>ran &&
		i=$((i + 1)) || return 1
	done &&
	test_line_count = $ROUNDS ran &&
	sed "s/^/# /" kinds.diff &&
	echo "# rounds stopped by an object check as git 2.55 does: $(cat checked-at-queue 2>/dev/null | wc -l)" &&
	echo "# exit codes:" &&
	sort ran | uniq -c | sed "s/^/# /" &&
	# the rounds were not all alike: some succeeded, some failed
	grep -q "^0$" ran &&
	grep -q "^128$" ran
'

test_expect_success 'crash hunt: no signal, no odd exit code, no lock left' '
	reset_base &&
	gen crash "$((SEED + 1))" "$CRASH_RUNS" >kinds.crash &&
	nul_streams "$CRASH_RUNS" &&
	check_kinds kinds.crash &&
	commands=$(sed -n "s/^total //p" kinds.crash) &&
	test "$commands" -ge $((CRASH_RUNS * 5)) &&
	: >codes &&
	i=1 &&
	while test $i -le $CRASH_RUNS
	do
		if test $((i % 25)) = 1
		then
			find rd/.git -name "*.lock" -o -name packed-refs.new >locks &&
			test_must_be_empty locks &&
			reset_base || return 1
		fi &&
		eval "set -- $(cat opts.$i)" &&
		{ dirc -C rd update-ref "$@" --stdin <stream.$i >out 2>err; dc=$?; } &&
		echo $dc >>codes &&
		case $dc in
		0|128|129) ;;
		*)
			echo "run $i: exit $dc: update-ref $(cat opts.$i) --stdin <<" &&
			od -c stream.$i | sed 20q &&
			cat err &&
			return 1 ;;
		esac &&
		i=$((i + 1)) || return 1
	done &&
	find rd/.git -name "*.lock" -o -name packed-refs.new >locks &&
	test_must_be_empty locks &&
	test_line_count = $CRASH_RUNS codes &&
	echo "# $commands commands in $CRASH_RUNS runs; exit codes:" &&
	sort codes | uniq -c | sed "s/^/# /" &&
	grep -q "^0$" codes &&
	grep -q "^128$" codes
'

test_done
