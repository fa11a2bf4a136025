#!/bin/sh
test_description='the test harness itself: isolation, helpers, TAP, options

Needs nothing of dirc beyond "dirc init -q".  Where a helper must see a
failing dirc, a stand-in script named dirc is put first in PATH inside a
subshell.  Whole test scripts are run nested, from the trash directory.'

. ./test-lib.sh

# sub_test NAME <<\EOF ... EOF: write sub/NAME.sh, a test script that
# sources our test-lib.sh and keeps its trash directory under sub/.
sub_test () {
	mkdir -p sub &&
	{
		printf '#!/bin/sh\n'
		printf 'test_description=%s\n' "'nested $1'"
		printf 'TEST_DIRECTORY=%s\n' "'$TEST_DIRECTORY'"
		printf 'TEST_OUTPUT_DIRECTORY=$(pwd)\n'
		printf '. "$TEST_DIRECTORY/test-lib.sh"\n'
		cat
	} >"sub/$1.sh"
}

# run_sub NAME [OPTIONS]: run sub/NAME.sh with a clean harness environment;
# its stdout in NAME.out, stderr in NAME.err; its exit status returned.
run_sub () {
	tl_sub_name_=$1
	shift
	(
		cd sub &&
		env DIRC_TEST_OPTS= HARNESS_ACTIVE= TEST_VERBOSE= \
			"$TEST_SHELL_PATH" "$tl_sub_name_.sh" "$@" \
			>"../$tl_sub_name_.out" 2>"../$tl_sub_name_.err"
	)
}

test_expect_success 'trash directory: absolute, with a space, a repository' '
	test "$PWD" = "$TRASH_DIRECTORY" &&
	case $TRASH_DIRECTORY in
	/*" "*) ;;
	*) false ;;
	esac &&
	test "${TRASH_DIRECTORY##*/}" = "trash directory.t0000-harness" &&
	test_path_is_dir .git &&
	test_path_is_file .git/HEAD
'

test_expect_success 'dirc comes from DIRC_BUILD_DIR, first in PATH' '
	test "$(command -v dirc)" = "$DIRC_BUILD_DIR/dirc" &&
	test "${PATH%%:*}" = "$DIRC_BUILD_DIR" &&
	test "$DIRC_BUILD_DIR" = "$(cd "$DIRC_BUILD_DIR" && pwd -P)"
'

test_expect_success 'isolation: HOME, config, locale, time zone, umask' '
	test "$HOME" = "$TEST_HOME" &&
	test_path_is_missing .gitconfig &&
	test_path_is_file "$HOME/.gitconfig" &&
	test_grep "defaultBranch = master" "$HOME/.gitconfig" &&
	test "$GIT_CONFIG_NOSYSTEM" = 1 &&
	test "$GIT_CEILING_DIRECTORIES" = "${TRASH_DIRECTORY%/*}" &&
	test "$LC_ALL" = C &&
	test "$LANG" = C &&
	test "$TZ" = UTC &&
	test "$(umask)" = 0022 &&
	test -z "${XDG_CONFIG_HOME+set}"
'

test_expect_success 'fixed identity; test_tick moves both dates by 60 s' '
	test "$GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>" = "A U Thor <author@example.com>" &&
	test "$GIT_COMMITTER_NAME <$GIT_COMMITTER_EMAIL>" = "C O Mitter <committer@example.com>" &&
	test "$GIT_AUTHOR_DATE" = "1112354055 +0200" &&
	test "$GIT_COMMITTER_DATE" = "1112354055 +0200" &&
	test_tick &&
	test "$GIT_AUTHOR_DATE" = "1112354115 +0200" &&
	test "$GIT_COMMITTER_DATE" = "1112354115 +0200" &&
	test_tick &&
	test "$GIT_COMMITTER_DATE" = "1112354175 +0200" &&
	test "$test_tick" = 1112354175
'

test_expect_success 'sanitizer errors are made to die by signal' '
	case ":$ASAN_OPTIONS:" in
	*:abort_on_error=1:*detect_leaks=1:*) ;;
	*) false ;;
	esac &&
	case ":$UBSAN_OPTIONS:" in
	*:halt_on_error=1:abort_on_error=1:*) ;;
	*) false ;;
	esac
'

test_expect_success 'setup: a stand-in dirc that exits as told' '
	mkdir fake &&
	write_script fake/dirc <<-\EOF &&
	case $1 in
	abort) kill -ABRT $$ ;;
	*) exit "$1" ;;
	esac
	EOF
	test -x fake/dirc
'

test_expect_success 'test_must_fail accepts 1, 128 and 129' '
	(
		PATH="$TRASH_DIRECTORY/fake:$PATH" &&
		test_must_fail dirc 1 &&
		test_must_fail dirc 128 &&
		test_must_fail dirc 129 &&
		test_must_fail env FOO=bar dirc 128 &&
		test_must_fail env -u FOO dirc 1
	)
'

test_expect_success 'test_must_fail rejects success, other codes, 126/127' '
	for code in 0 2 125 126 127 130 134 139 200
	do
		! (
			PATH="$TRASH_DIRECTORY/fake:$PATH" &&
			test_must_fail dirc $code
		) 2>err &&
		test_grep "^test_must_fail: " err || return 1
	done &&
	! (PATH="$TRASH_DIRECTORY/fake:$PATH" && test_must_fail dirc 0) 2>err &&
	test_grep "succeeded" err &&
	! (PATH="$TRASH_DIRECTORY/fake:$PATH" && test_must_fail dirc 127) 2>err &&
	test_grep "not found" err &&
	! (PATH="$TRASH_DIRECTORY/fake:$PATH" && test_must_fail dirc 134) 2>err &&
	test_grep "signal 6 (exit 134)" err
'

test_expect_success 'test_must_fail rejects a real SIGABRT' '
	! (
		PATH="$TRASH_DIRECTORY/fake:$PATH" &&
		test_must_fail dirc abort
	) 2>err &&
	test_grep "died by signal 6" err
'

test_expect_success 'test_must_fail is only for dirc' '
	! test_must_fail false 2>err &&
	test_grep "only for dirc" err &&
	! test_must_fail sh -c "exit 1" 2>err &&
	test_grep "only for dirc" err
'

test_expect_success 'test_expect_code' '
	test_expect_code 0 true &&
	test_expect_code 3 sh -c "exit 3" &&
	! test_expect_code 3 sh -c "exit 4" 2>err &&
	test_grep "wanted exit 3, got exit 4" err &&
	! test_expect_code 1 sh -c "kill -ABRT \$\$" 2>err &&
	test_grep "signal 6" err
'

test_expect_success 'test_cmp: equal files pass; differences fail with a diff' '
	test_write_lines a b c >one &&
	test_write_lines a b c >two &&
	test_write_lines a B c >three &&
	test_cmp one two &&
	! test_cmp one three 2>err &&
	test_grep "^-b" err &&
	test_grep "^+B" err &&
	! test_cmp one nonexistent 2>err &&
	test_grep "does not exist" err &&
	: >empty1 && : >empty2 &&
	test_cmp empty1 empty2 &&
	! test_cmp empty1 one 2>err &&
	test_grep "^+a" err &&
	! test_cmp one empty1 &&
	! test_cmp empty1 nonexistent 2>err &&
	test_grep "does not exist" err
'

test_expect_success 'test_cmp_codes: one-line files by the shell, else test_cmp' '
	echo 0 >c0 && echo 0 >c0b && echo 128 >c128 &&
	test_cmp_codes c0 c0b &&
	! test_cmp_codes c0 c128 2>err &&
	test_grep "^-0" err &&
	test_grep "^+128" err &&
	! test_cmp_codes c0 nonexistent 2>err &&
	test_grep "does not exist" err &&
	: >cempty &&
	! test_cmp_codes c0 cempty &&
	! test_cmp_codes cempty c0 &&
	printf "0\n1\n" >c01 &&
	printf "0\n2\n" >c02 &&
	! test_cmp_codes c01 c02
'

test_expect_success 'test_grep: matches, -v, -e, and shows the file on failure' '
	test_write_lines alpha beta "-dash" >file &&
	test_grep alpha file &&
	test_grep "^b" file &&
	test_grep -e -dash file &&
	test_grep -v gamma file &&
	! test_grep gamma file 2>err &&
	test_grep "beta" err &&
	! test_grep -v beta file 2>err &&
	test_grep "should not have" err &&
	! test_grep alpha no-such-file 2>err &&
	test_grep "no file" err
'

test_expect_success 'path helpers' '
	mkdir d &&
	echo x >f &&
	: >empty &&
	test_path_is_file f &&
	test_path_is_dir d &&
	test_path_exists f &&
	test_path_exists d &&
	test_path_is_missing nothing &&
	! test_path_is_file d 2>err &&
	test_grep "is a directory" err &&
	! test_path_is_dir f 2>err &&
	! test_path_is_missing f 2>err &&
	! test_path_exists nothing 2>err &&
	test_file_not_empty f &&
	! test_file_not_empty empty 2>err &&
	test_must_be_empty empty &&
	! test_must_be_empty f 2>err &&
	test_grep "^x$" err &&
	! test_must_be_empty nothing 2>err
'

test_expect_success 'test_line_count' '
	test_write_lines 1 2 3 >lines &&
	test_line_count = 3 lines &&
	test_line_count -gt 2 lines &&
	! test_line_count = 2 lines 2>err &&
	test_grep "has 3 lines" err
'

test_expect_success 'test_seq, test_write_lines, q_to_nul, nul_to_q' '
	test_seq 3 >actual &&
	test_write_lines 1 2 3 >expect &&
	test_cmp expect actual &&
	test_seq 4 6 >actual &&
	test_write_lines 4 5 6 >expect &&
	test_cmp expect actual &&
	printf "aQbQ" | q_to_nul >nul &&
	printf "a\000b\000" >expect &&
	test_cmp expect nul &&
	nul_to_q <nul >back &&
	printf "aQbQ" >expect &&
	test_cmp expect back
'

test_expect_success 'write_script makes an executable sh script' '
	write_script script.sh <<-\EOF &&
	echo "ran with $#"
	EOF
	./script.sh a b >out &&
	echo "ran with 2" >expect &&
	test_cmp expect out &&
	head -n 1 script.sh >first &&
	echo "#!/bin/sh" >expect &&
	test_cmp expect first
'

test_expect_success 'test_when_finished: register cleanups' '
	test_when_finished "rm -f marker && echo first >>order" &&
	test_when_finished "echo second >>order" &&
	: >marker
'

test_expect_success 'test_when_finished: ran after the test, last first' '
	test_path_is_missing marker &&
	test_write_lines second first >expect &&
	test_cmp expect order
'

test_expect_success 'prerequisites: set, have, negated, lists, lazy once' '
	test_set_prereq HAVEIT &&
	test_have_prereq HAVEIT &&
	! test_have_prereq NEVERSET &&
	test_have_prereq !NEVERSET &&
	! test_have_prereq !HAVEIT &&
	test_have_prereq HAVEIT,!NEVERSET &&
	! test_have_prereq HAVEIT,NEVERSET &&
	test_lazy_prereq LAZYYES "echo x >>\"\$TRASH_DIRECTORY/lazy-count\"" &&
	test_lazy_prereq LAZYNO "false" &&
	test_have_prereq LAZYYES &&
	test_have_prereq LAZYYES &&
	test_line_count = 1 lazy-count &&
	! test_have_prereq LAZYNO &&
	test_path_is_missing .prereq-LAZYYES
'

test_expect_success HAVEIT 'a test with a satisfied prerequisite runs' '
	: >ran-with-prereq
'

test_expect_success 'built-in prerequisites: GIT, ROOT, SANITIZE' '
	if command -v git >/dev/null
	then
		test_have_prereq GIT
	else
		! test_have_prereq GIT
	fi &&
	if test "$(id -u)" = 0
	then
		test_have_prereq ROOT
	else
		! test_have_prereq ROOT
	fi &&
	if test -n "${DIRC_SANITIZE-}"
	then
		test_have_prereq SANITIZE
	else
		! test_have_prereq SANITIZE
	fi &&
	test_path_is_file ran-with-prereq
'

test_expect_success UNPRIV 'run_unpriv drops root; test_chown_unpriv hands over' '
	mkdir mine &&
	test_chown_unpriv mine &&
	run_unpriv sh -c "id -u >mine/uid" &&
	if test_have_prereq ROOT
	then
		echo 65534 >expect &&
		! run_unpriv mkdir not-allowed 2>err &&
		test_path_is_missing not-allowed
	else
		id -u >expect
	fi &&
	test_cmp expect mine/uid
'

test_expect_success 'nested: a passing script exits 0 and removes its trash' '
	sub_test pass <<-\EOF &&
	test_expect_success "one" "true"
	test_expect_success "two" "echo hidden"
	test_done
	EOF
	run_sub pass &&
	test_write_lines "ok 1 - one" "ok 2 - two" >expect &&
	if test_have_prereq GIT
	then
		echo "ok 3 - git fsck --strict of repositories dirc wrote" >>expect &&
		echo "1..3" >>expect
	else
		echo "ok 3 # skip git fsck --strict of repositories dirc wrote (missing GIT: git not found in PATH)" >>expect &&
		echo "1..3" >>expect &&
		echo "# 1 test(s) skipped, missing: GIT" >>expect
	fi &&
	test_cmp expect pass.out &&
	test_path_is_missing "sub/trash directory.pass"
'

test_expect_success 'nested: failures, known breakages, skips, cleanups' '
	sub_test fail <<-\EOF &&
	test_expect_success "passes" "true"
	test_expect_success "fails" "
		test_when_finished \"echo cleaned >../cleaned\" &&
		echo some output && false
	"
	test_expect_success MISSINGPRQ "needs a prerequisite" "false"
	test_expect_failure "known breakage" "false"
	test_expect_failure "fixed breakage" "true"
	test_expect_success "title with # in it" "true"
	TEST_NO_FSCK=1
	test_done
	EOF
	test_expect_code 1 run_sub fail &&
	test_grep "^ok 1 - passes$" fail.out &&
	test_grep "^not ok 2 - fails$" fail.out &&
	test_grep "^# 	echo some output && false$" fail.out &&
	test_grep "^# some output$" fail.out &&
	test_grep "^ok 3 # skip needs a prerequisite (missing MISSINGPRQ)$" fail.out &&
	test_grep "^not ok 4 - known breakage # TODO known breakage$" fail.out &&
	test_grep "^ok 5 - fixed breakage # TODO known breakage vanished$" fail.out &&
	test_grep "^ok 6 - title with \\\\# in it$" fail.out &&
	test_grep "^1\.\.6$" fail.out &&
	test_grep -v "fsck" fail.out &&
	echo cleaned >expect &&
	test_cmp expect sub/cleaned &&
	test_path_is_dir "sub/trash directory.fail/.git"
'

test_expect_success 'nested: under prove, a failure is also told on stderr' '
	sub_test harness <<-\EOF &&
	test_expect_success "fails" "echo why && false"
	test_done
	EOF
	(
		cd sub &&
		HARNESS_ACTIVE=1 &&
		export HARNESS_ACTIVE &&
		test_expect_code 1 "$TEST_SHELL_PATH" harness.sh >../harness.out 2>../harness.err
	) &&
	test_grep "^harness: why$" harness.err
'

test_expect_success 'nested: -i stops at the first failure' '
	sub_test immediate <<-\EOF &&
	test_expect_success "first" "true"
	test_expect_success "second" "false"
	test_expect_success "third" ": >../third-ran"
	test_done
	EOF
	test_expect_code 1 run_sub immediate -i &&
	test_grep "^not ok 2 - second$" immediate.out &&
	test_grep "^1\.\.2$" immediate.out &&
	test_grep -v "third" immediate.out &&
	test_path_is_missing sub/third-ran &&
	test_path_is_dir "sub/trash directory.immediate"
'

test_expect_success 'nested: --run and DIRC_TEST_OPTS select tests' '
	sub_test select <<-\EOF &&
	test_expect_success "one" "true"
	test_expect_success "two" "true"
	test_expect_success "three" "true"
	test_expect_success "four" "true"
	TEST_NO_FSCK=1
	test_done
	EOF
	run_sub select --run=1,3- &&
	test_write_lines "ok 1 - one" "ok 2 # skip two (--run)" \
		"ok 3 - three" "ok 4 - four" "1..4" >expect &&
	test_cmp expect select.out &&
	(
		cd sub &&
		DIRC_TEST_OPTS="-r 2" "$TEST_SHELL_PATH" select.sh >../select.out
	) &&
	test_grep "^ok 2 - two$" select.out &&
	test_grep "^ok 1 # skip one (--run)$" select.out &&
	test_expect_code 1 run_sub select --run=x &&
	test_grep "^Bail out! invalid --run" select.out
'

test_expect_success 'nested: -v shows output, -x traces, -d keeps trash' '
	sub_test verbose <<-\EOF &&
	test_expect_success "talks" "echo said-this && echo said-that >&2"
	TEST_NO_FSCK=1
	test_done
	EOF
	run_sub verbose &&
	test_grep -v said-this verbose.out &&
	run_sub verbose -v -d &&
	test_grep "^# said-this$" verbose.out &&
	test_grep "^# said-that$" verbose.out &&
	test_grep "^ok 1 - talks$" verbose.out &&
	test_path_is_dir "sub/trash directory.verbose" &&
	run_sub verbose -x &&
	test_grep "^# + echo said-this$" verbose.out &&
	test_path_is_missing "sub/trash directory.verbose"
'

test_expect_success 'nested: the caller'\''s GIT_* and DIRC_* do not leak in' '
	sub_test env <<-\EOF &&
	test_expect_success "clean environment" "
		test -z \"\${GIT_DIR+set}\" &&
		test -z \"\${GIT_INDEX_FILE+set}\" &&
		test -z \"\${GIT_CONFIG_PARAMETERS+set}\" &&
		test -z \"\${DIRC_SOMETHING+set}\" &&
		test -z \"\${XDG_CONFIG_HOME+set}\" &&
		test \"\$GIT_CEILING_DIRECTORIES\" = \"\${TRASH_DIRECTORY%/*}\"
	"
	test_done
	EOF
	(
		GIT_DIR=/nowhere GIT_INDEX_FILE=/nowhere/index \
		GIT_CONFIG_PARAMETERS="'\''core.x=1'\''" DIRC_SOMETHING=1 \
		XDG_CONFIG_HOME=/nowhere &&
		export GIT_DIR GIT_INDEX_FILE GIT_CONFIG_PARAMETERS DIRC_SOMETHING \
			XDG_CONFIG_HOME &&
		run_sub env
	) &&
	test_grep "^ok 1 - clean environment$" env.out
'

test_expect_success 'nested: harness rules are enforced' '
	sub_test rules <<-\EOF &&
	test_expect_success "broken chain" "
		true
		true
	"
	test_expect_success "cd outside a subshell" "mkdir x && cd x"
	test_expect_success "cleanup in a subshell" "(test_when_finished true)"
	test_expect_success "syntax error" "if true"
	test_expect_success "after the syntax error" "true"
	test_expect_success "exits" "exit 0"
	test_expect_success "never reached" "true"
	test_done
	EOF
	test_expect_code 1 run_sub rules &&
	test_grep "^not ok 1 - broken chain$" rules.out &&
	test_grep "^# \*\*\* broken &&-chain" rules.out &&
	test_grep "^not ok 2 - cd outside a subshell$" rules.out &&
	test_grep "^# \*\*\* the body changed directory" rules.out &&
	test_grep "^not ok 3 - cleanup in a subshell$" rules.out &&
	test_grep "^# \*\*\* test_when_finished was called in a subshell" rules.out &&
	test_grep "^not ok 4 - syntax error$" rules.out &&
	test_grep "^# \*\*\* the body has a syntax error" rules.out &&
	test_grep "^ok 5 - after the syntax error$" rules.out &&
	test_grep "^not ok 6 - exits$" rules.out &&
	test_grep "^# FATAL: the test body exited" rules.out &&
	test_grep -v "never reached" rules.out &&
	test_grep -v "^1\.\." rules.out
'

test_expect_success 'nested: no dirc binary is a loud Bail out' '
	sub_test nodirc <<-\EOF &&
	test_expect_success "never runs" "true"
	test_done
	EOF
	(
		DIRC_BUILD_DIR="$TRASH_DIRECTORY/sub" &&
		export DIRC_BUILD_DIR &&
		test_expect_code 1 run_sub nodirc
	) &&
	test_grep "^Bail out! no executable .*/dirc" nodirc.out
'

test_expect_success GIT 'nested: fsck catches a corrupt object; opt-outs work' '
	sub_test corrupt <<-\EOF &&
	test_expect_success "write a corrupt loose object" "
		mkdir -p .git/objects/12 &&
		echo garbage >.git/objects/12/34567890123456789012345678901234567890
	"
	test_done
	EOF
	test_expect_code 1 run_sub corrupt &&
	test_grep "^not ok 2 - git fsck --strict of repositories dirc wrote$" corrupt.out &&
	test_grep "^# --- git fsck --strict in .*trash directory.corrupt$" corrupt.out &&

	sub_test also <<-\EOF &&
	test_expect_success "a second repository, corrupt" "
		mkdir other &&
		(cd other && dirc init -q) &&
		mkdir -p other/.git/objects/12 &&
		echo garbage >other/.git/objects/12/34567890123456789012345678901234567890 &&
		test_fsck_also other
	"
	test_done
	EOF
	test_expect_code 1 run_sub also &&
	test_grep "^not ok 2 - git fsck" also.out &&
	test_grep "^# --- git fsck --strict in .*/other$" also.out &&

	sub_test nofsck <<-\EOF &&
	TEST_NO_FSCK=1
	test_expect_success "corrupt on purpose" "
		mkdir -p .git/objects/12 &&
		echo garbage >.git/objects/12/34567890123456789012345678901234567890
	"
	test_done
	EOF
	run_sub nofsck &&
	test_write_lines "ok 1 - corrupt on purpose" "1..1" >expect &&
	test_cmp expect nofsck.out
'

test_expect_success GIT 'lib-interop: same_result fails on any difference' '
	mkdir -p interop &&
	(
		cd interop &&
		git init -q &&
		. "$TEST_DIRECTORY"/lib-interop.sh &&
		echo a >a &&
		git update-index --add a &&
		mkdir bin &&
		PATH=$(pwd)/bin:$PATH &&
		# dirc stands in as git itself: everything equal
		write_script bin/dirc <<-\EOF &&
		test "$1" != update-cache || { shift && set -- update-index "$@"; }
		exec git "$@"
		EOF
		succeeds_like_git ls-files -s &&
		run_both --add a &&
		same_result &&
		rounds=0 &&
		kinds="code out index" &&
		if test_have_prereq GIT_MSGS
		then
			kinds="$kinds err"
		fi &&
		for how in $kinds
		do
			write_script bin/dirc <<-EOF &&
			test "\$1" != update-cache || { shift && set -- update-index "\$@"; }
			git "\$@"
			rc=\$?
			case $how in
			code) exit \$((rc + 1)) ;;
			out) echo extra ;;
			err) echo extra >&2 ;;
			index) echo b >b && git update-index --add b ;;
			esac
			exit \$rc
			EOF
			run_both --add a &&
			if same_result 2>/dev/null
			then
				echo "same_result passed with a different $how" &&
				return 1
			fi &&
			rounds=$((rounds + 1)) || return 1
		done &&
		set -- $kinds &&
		test $rounds = $#
	)
'

test_done
