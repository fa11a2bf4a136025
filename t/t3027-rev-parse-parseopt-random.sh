#!/bin/sh
test_description='rev-parse --parseopt: random specs and arguments, as git

Random option specs (names short and long, some sharing prefixes or
starting with "no-", every flag, arg hints, groups, usage blurbs, now
and then a bad line) and random argument lists made from those names
(bundles, abbreviations, negations, values, "--", -h and the like, and
unknown options) are given to git and to dirc: exit code, stdout and
stderr must be the same.  Where git aborts on a spec (its "BUG:" for a
short name used twice or a multi-word arg hint) dirc must refuse it
with exit 128.  Then random bytes as spec and arguments, for dirc alone:
no signal, no exit code other than 0, 128 and 129.

DIRC_PARSEOPT_SEED picks the cases (default 1), DIRC_PARSEOPT_ROUNDS
how many (default 300; 3000 with LONG).  A failure names the case: its
spec is the file spec.N in the kept trash directory, its arguments the
line N of cases.'
. ./test-lib.sh

seed=${DIRC_PARSEOPT_SEED:-1}
if test -n "$DIRC_PARSEOPT_ROUNDS"
then
	rounds=$DIRC_PARSEOPT_ROUNDS
elif test_have_prereq LONG
then
	rounds=3000
else
	rounds=300
fi

# gen_cases SEED N GARBAGE: spec.1 ... spec.N, and "cases", one line
# per case: "pcase N WORDS..." (the words single-quoted, for eval).
# GARBAGE=1: random bytes instead of well-formed specs and arguments.
gen_cases () {
	awk -v seed="$1" -v n="$2" -v garbage="$3" '
	function r(k) { return int(rand() * k) }
	function pick(s,   a, m) { m = split(s, a, " "); return a[r(m) + 1] }
	function sq(s) { gsub(/\047/, "\047\\\047\047", s); return "\047" s "\047" }
	function junk(len,   s, i, c) {
		s = ""
		for (i = 0; i < len; i++) {
			c = r(8) ? 32 + r(95) : 1 + r(255)
			if (c == 10) c = 45
			s = s sprintf("%c", c)
		}
		return s
	}
	BEGIN {
		srand(seed)
		longs = "foo foobar fo bar baz ba no-foo no-bar data d x-y help ab abc no-no-q"
		shorts = "a b c d x y z h A B 0 n q"
		hints = "arg a-b <x> k=v [y] (z) x|y ..."
		for (c = 1; c <= n; c++) {
			f = "spec." c
			if (garbage) {
				k = r(6)
				for (i = 0; i < k; i++) print junk(r(12)) >f
				if (r(4)) print "--" >f
				k = r(8)
				for (i = 0; i < k; i++) print junk(r(16)) >f
				close(f)
				line = "pcase " c
				if (r(3)) line = line " " sq("--")
				k = r(6)
				for (i = 0; i < k; i++)
					line = line " " sq(r(2) ? "-" junk(r(6)) : junk(r(6)))
				print line
				continue
			}
			k = 1 + r(3)
			for (i = 0; i < k; i++) {
				if (i && !r(3)) print "" >f
				print pick("cmd usage-line [options] x") " " pick("a b <c>") >f
			}
			print "--" >f
			nl = 0; ns = 0
			delete used
			k = r(9)
			for (i = 0; i < k; i++) {
				if (!r(8)) { print (r(2) ? " " : "") pick("Group Heading Extras") >f; continue }
				if (!r(10)) { print "" >f; continue }
				form = r(3)
				s = pick(shorts); l = pick(longs)
				if (form != 1 && (s in used) && r(8)) continue
				used[s] = 1
				if (form == 0) name = s
				else if (form == 1) name = l
				else name = s "," l
				if (form != 0) L[++nl] = l
				if (form != 1) S[++ns] = s
				fl = ""
				m = r(3)
				for (j = 0; j < m; j++) fl = fl pick("= ? ! * =")
				h = r(2) ? pick(hints) : ""
				if (!r(200)) h = "two_words"
				if (!r(60)) { name = ""; fl = "=" }
				print name fl h (r(2) ? " " : "\t ") pick("help text-" i " x") >f
			}
			close(f)
			line = "pcase " c
			m = r(4)
			for (j = 0; j < m; j++)
				line = line " " pick("--keep-dashdash --stop-at-non-option --stuck-long --keep --stuck --no-stuck-long")
			if (r(30)) line = line " --"
			k = r(7)
			for (j = 0; j < k; j++) {
				t = r(20)
				if (t < 6 && nl) {
					l = L[r(nl) + 1]
					if (r(3) == 0) l = substr(l, 1, 1 + r(length(l) + 1))
					a = "--" (r(4) ? "" : "no-") l
					if (!r(3)) a = a "=" pick("v x y it\047s")
				} else if (t < 11 && ns) {
					a = "-" S[r(ns) + 1]
					if (!r(3)) a = a (r(2) ? S[r(ns) + 1] : pick("v xy"))
					if (!r(4)) a = a S[r(ns) + 1]
				} else {
					a = pick("x y -- - --end-of-options -h --help --help-all --git-completion-helper it\047s a!b --zzz -Z -foo -no-foo --no- --=x -h-")
				}
				line = line " " sq(a)
			}
			print line
		}
	}' >cases
}

# pcase N WORDS...: one case of "cases"; po_mode says what to check.
pcase () {
	n=$1
	shift
	if test "$po_mode" = crash
	then
		dirc rev-parse --parseopt "$@" <spec.$n >d.out 2>d.err
		dc=$?
		case $dc in
		0|128|129) ;;
		*)	echo "case $n (seed $seed): exit $dc"
			cat d.err
			fails=$((fails + 1)) ;;
		esac
		return 0
	fi
	git rev-parse --parseopt "$@" <spec.$n >g.out 2>g.err
	gc=$?
	dirc rev-parse --parseopt "$@" <spec.$n >d.out 2>d.err
	dc=$?
	if test $gc = 134
	then
		if test $dc != 128 ||
			! grep "^fatal: invalid option spec" d.err >/dev/null
		then
			echo "case $n (seed $seed): git BUG, dirc exit $dc"
			cat d.err
			fails=$((fails + 1))
		fi
		return 0
	fi
	sed -e "s/^usage: git rev-parse/usage: dirc rev-parse/" g.out >g.outm
	sed -e "s/^usage: git rev-parse/usage: dirc rev-parse/" g.err >g.errm
	if test $gc != $dc || ! cmp -s g.outm d.out || ! cmp -s g.errm d.err
	then
		echo "case $n (seed $seed): git $gc, dirc $dc: $*"
		diff -u g.outm d.out
		diff -u g.errm d.err
		fails=$((fails + 1))
	fi
	return 0
}

test_expect_success GIT 'random specs and arguments: dirc answers as git' '
	gen_cases $seed $rounds 0 &&
	test_line_count = $rounds cases &&
	fails=0 &&
	po_mode=cmp &&
	. ./cases &&
	test $fails = 0
'

test_expect_success 'random bytes as spec and arguments: no crash' '
	gen_cases $seed $rounds 1 &&
	test_line_count = $rounds cases &&
	fails=0 &&
	po_mode=crash &&
	. ./cases &&
	test $fails = 0
'

test_done
