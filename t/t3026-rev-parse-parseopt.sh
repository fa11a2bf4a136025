#!/bin/sh
test_description='rev-parse --parseopt: the option parser of shell scripts, as git

Each case runs "git rev-parse --parseopt [MODE] -- ARGS <SPEC" and the
same with dirc, and compares exit code, stdout and stderr byte for byte
(git names itself in the usage line of --parseopt'\''s own options, dirc
itself: that one word is mapped).  Specs: every flag (= ? ! *), arg
hints, groups, usage blurbs, option names that start with "no-", an
empty long name, CRLF, and bad specs.  Arguments: bundles, abbreviations,
negations, values stuck and separate, "--", --end-of-options, -h,
--help, --help-all, --git-completion-helper, unknown options and the
hints git gives for them.'
. ./test-lib.sh

# po_both SPEC [MODE...] -- ARGS...: run both, compare; SPEC a file.
po_both () {
	po_spec=$1
	shift
	git rev-parse --parseopt "$@" <"$po_spec" >git.out 2>git.err
	echo $? >git.code
	dirc rev-parse --parseopt "$@" <"$po_spec" >dirc.out 2>dirc.err
	echo $? >dirc.code
	sed -e "s/^usage: git rev-parse --parseopt /usage: dirc rev-parse --parseopt /" \
		git.out >git.out.m &&
	sed -e "s/^usage: git rev-parse --parseopt /usage: dirc rev-parse --parseopt /" \
		git.err >git.err.m &&
	if ! cmp -s git.code dirc.code || ! cmp -s git.out.m dirc.out ||
		! cmp -s git.err.m dirc.err
	then
		echo "differs: spec $po_spec, args: $*" &&
		diff -u git.code dirc.code
		diff -u git.out.m dirc.out
		diff -u git.err.m dirc.err
		return 1
	fi
}

test_expect_success 'setup: specs' '
	sed -e "s/^|//" >spec.full <<-\EOF &&
	|some-command [options] <args>...
	|
	|some-command does foo and bar!
	|--
	|h,help    show the help
	|
	|foo       some nifty option --foo
	|bar=      some cool option --bar with an argument
	|b,baz     a short and long option
	|
	| An option group Header
	|C?        option C with an optional argument
	|d,data?   short and long option with an optional argument
	|
	| Argument hints
	|B=arg     short option required argument
	|bar2=arg  long option required argument
	|e,fuz=with-space  short and long option required argument
	|s?some    short option optional argument
	|long?data long option optional argument
	|g,fluf?path     short and long option optional argument
	|longest=very-long-argument-hint  a very long argument hint
	|pair=key=value  with an equals sign in the hint
	|aswitch help te=t contains? fl*g characters!`
	|bswitch=hint	 hint has trailing tab character
	|cswitch	 switch has trailing tab character
	|short-hint=a    with a one symbol hint
	|hidden*   not shown
	|n,no-verify!  a name that starts with no-
	|verbose!  cannot be negated
	|q,quiet*! both
	|lit=<a|b> literal hint
	|opt?(x)   literal optional hint
	|
	|Extras
	|extra1    line above used to cause a segfault but no longer does
	|extra-two   another
	EOF
	sed -e "s/^|//" >spec.small <<-\EOF &&
	|cmd [--some-option]
	|    [--another-option]
	|cmd [--yet-another-option]
	|
	|multi
	|line
	|--
	|a,all     all
	|v,value=x a value
	|o,opt?y   optional
	|no-edit   negative
	|edit-msg  positive
	|x         short
	|foo       foo
	|foobar=   foobar
	EOF
	printf "cmd\n--\n" >spec.none &&
	printf "cmd\n--\nh1* hidden\nh2* hidden\n" >spec.hidden &&
	printf "cmd\r\n\r\n  text\r\n--\r\na,aa help\r\nb= b\r\n" >spec.crlf &&
	printf "cmd\n--\nx, empty long name\ny h\n  \nz!*=?w all flags\n" >spec.odd
'

test_expect_success GIT 'help output (-h, --help, --help-all, bad -h forms)' '
	for spec in spec.full spec.small spec.none spec.hidden spec.crlf spec.odd
	do
		for a in -h --help --help-all "-h x" "x -h" "-ah" "--he" "-hx" \
			"--help=x" "--help-all x"
		do
			# shellcheck disable=SC2086
			po_both $spec -- $a || return 1
		done || return 1
	done
'

test_expect_success GIT 'options and arguments' '
	while read -r a
	do
		# shellcheck disable=SC2086
		po_both spec.full -- $a &&
		po_both spec.full --stuck-long -- $a &&
		po_both spec.full --keep-dashdash -- $a &&
		po_both spec.full --stop-at-non-option -- $a &&
		po_both spec.full --keep-dashdash --stop-at-non-option \
			--stuck-long -- $a || return 1
	done <<-\EOF
	--foo --bar=ham --baz --aswitch arg
	--foo arg --bar=ham --baz --aswitch
	--foo -- arg --bar=ham
	--foo arg --spam=ham
	--foo --bar=z -b arg -CZ -dA
	--data= arg -C -b
	--data arg -b
	-d arg -b
	-bCx -bd -dx -BB -Bx -B -- y
	-b -e val --fuz=v --fuz v -eval
	-s -sx --long --long=x --long x --fluf=p -g -gp
	--no-baz --no-foo --no-bar --no-data --no-fuz
	--no-verify --verify -n -nb --no-no-verify
	--verbose --no-verbose
	--no-quiet -q --quiet
	--ba --bar2=x --bar2 y --bar ham
	--fo --f --ex --extra --extra1 --extra-
	--no-ba --no-b --no- --no --n
	--foo=x --baz=1 --aswitch=
	--lit <a> --opt --opt=q
	--end-of-options --foo
	--foo --end-of-options -- x
	- -b - --
	-- -- --
	--bar
	-B
	-e
	--bar=
	--bar= x
	-- -h
	x y z
	it'\''s!
	-zzz
	-b-
	-bzz
	-foo
	-no-foo
	-fluf
	--nope
	--no-nope
	--git-completion-helper x
	--hidden --no-hidden
	EOF
'

test_expect_success GIT 'abbreviations and negations, small spec' '
	while read -r a
	do
		# shellcheck disable=SC2086
		po_both spec.small -- $a &&
		po_both spec.small --stuck-long -- $a || return 1
	done <<-\EOF
	--fo
	--foo
	--foob x
	--fooba=y
	--no-fo
	--fo=3
	--foo=3
	--no-foo=1
	--no-e
	--no-ed
	--no-edi
	--edit
	--edit-m
	--e
	--ed
	--no-edit
	--no-no-edit
	--a --al --all --no-all --no-al
	--v=1 --val 2 --value=3 -v4 -v 5
	--o --op=1 --opt 2 -o -ox
	-axv9
	-ax -o
	-y
	-avo
	--foobar
	--no-foobar
	--x
	EOF
'

test_expect_success GIT 'odd specs: empty long name, all flags, CRLF' '
	for a in --x -x "--=v" -- "--z" "--no-z" "-y" "-z" "--no-" "--aa" \
		"-b x" "--b=x" "-bv" "--y"
	do
		# shellcheck disable=SC2086
		po_both spec.odd -- $a &&
		po_both spec.crlf -- $a || return 1
	done
'

test_expect_success GIT '--git-completion-helper' '
	for spec in spec.full spec.small spec.none spec.hidden spec.odd
	do
		po_both $spec -- --git-completion-helper || return 1
	done &&
	printf "cmd\n--\nno-aa h\ncc h\nno-bb h\ndd! h\nee* h\nff= h\ngg? h\n" \
		>spec.comp &&
	po_both spec.comp -- --git-completion-helper &&
	printf "cmd\n--\n group\nx h\naa h\nbb h\n" >spec.comp2 &&
	po_both spec.comp2 -- --git-completion-helper &&
	for spec in spec.full spec.hidden spec.comp
	do
		po_both $spec -- --git-completion-helper-all || return 1
	done &&
	po_both spec.none -- --git-completion-helper-all x
'

test_expect_success GIT '--parseopt'\''s own options and usage' '
	for m in "" -h --help --help-all "-h --" "--keep" "--st --" \
		"--stuck-long x --" "--no-stuck-long --" "--bogus --" \
		"--keep-dashdash=1 --" "--no-keep-dashdash --" "-x --" \
		"--keep-dashdash --keep-dashdash --" "x" "--git-completion-helper"
	do
		# shellcheck disable=SC2086
		po_both spec.small $m || return 1
	done
'

test_expect_success GIT 'bad specs: premature end, no usage, missing opt-spec' '
	printf "" >bad.empty &&
	printf "usage\n" >bad.nodash &&
	printf "usage\n-\n" >bad.onedash &&
	printf -- "--\nfoo h\n" >bad.nousage &&
	printf "x\n--\n=, x\n" >bad.flags &&
	printf "x\n--\n?x h\n" >bad.flags2 &&
	printf "x\n--\n*\n" >bad.flags3 &&
	printf "x\n--\na h\nb h\n!! h\n" >bad.flags4 &&
	for s in bad.empty bad.nodash bad.onedash bad.nousage bad.flags \
		bad.flags2 bad.flags3 bad.flags4
	do
		po_both $s -- -a || return 1
	done &&
	test_expect_code 128 dirc rev-parse --parseopt -- <bad.flags 2>err &&
	echo "fatal: missing opt-spec before option flags" >expect &&
	test_cmp expect err
'

# git aborts ("BUG: parse-options.c:...") on these; dirc refuses them.
test_expect_success 'specs git rejects as a bug: refused, exit 128' '
	printf "x\n--\na h\na,bb h\nx=a_b h\n" >bad.bug &&
	test_expect_code 128 dirc rev-parse --parseopt -- -h <bad.bug \
		>out 2>err &&
	test_must_be_empty out &&
	cat >expect <<-\EOF &&
	error: switch '\''a'\'' (--bb) short name already used
	error: switch '\''x'\'' multi-word argh should use dash to separate words
	fatal: invalid option spec for rev-parse --parseopt
	EOF
	test_cmp expect err &&
	printf "x\n--\n\177 h\n" >bad.del &&
	test_expect_code 128 dirc rev-parse --parseopt -- <bad.del 2>err &&
	test_grep "^error: switch .?. invalid short name" err
'

test_expect_success GIT 'quoting of values and arguments for eval' '
	printf "x\n--\nv= value\n" >spec.v &&
	for a in "it'\''s" "a!b" "'\''" "!" "" "a b" "\\" "\$x" "\`x\`"
	do
		po_both spec.v -- -v "$a" "$a" &&
		po_both spec.v --stuck-long -- --v="$a" -- "$a" || return 1
	done &&
	dirc rev-parse --parseopt -- -v "it'\''s a!" "x y" <spec.v >out &&
	eval "$(cat out)" &&
	test "$1" = -v && test "$2" = "it'\''s a!" && test "$3" = -- &&
	test "$4" = "x y" && test $# = 4
'

test_done
