#!/bin/sh
test_description='perf/runcmd: the one timed call of the perf suite: its redirections, directory, environment, status line and refusals'
. ./test-lib.sh

RUNCMD=$DIRC_BUILD_DIR/perf/runcmd
if ! test -x "$RUNCMD"
then
	skip_all="no perf/runcmd (make all)"
	test_done
fi

# status_of FILE: the status= field of runcmd's one line in FILE
status_of () {
	sed -n "s/^wall=[0-9.]* user=[0-9.]* sys=[0-9.]* maxrss_kib=[0-9]* status=\([0-9a-z]*\)\$/\1/p" "$1"
}

test_expect_success 'a command runs in -C dir, stdin and stdout redirected to files named from there' '
	mkdir sub &&
	printf "line one\nline two\n" >sub/in &&
	"$RUNCMD" -i in -o out -C sub -- sh -c "pwd; wc -l" >line &&
	test_line_count = 1 line &&
	test "$(status_of line)" = 0 &&
	printf "%s\n" "$(cd sub && pwd)" 2 >expect &&
	sed "s/^ *//" sub/out >actual &&
	test_cmp expect actual &&
	test_path_is_missing out
'

test_expect_success 'stdin is /dev/null and stdout is thrown away by default' '
	"$RUNCMD" -- sh -c "cat; echo visible" >line &&
	test_line_count = 1 line &&
	test "$(status_of line)" = 0
'

test_expect_success '-e sets and replaces variables; the rest of the environment is kept' '
	RUNCMD_KEPT=kept RUNCMD_OLD=old &&
	export RUNCMD_KEPT RUNCMD_OLD &&
	"$RUNCMD" -e RUNCMD_OLD=new -e RUNCMD_EQ=a=b -o out -- \
		sh -c "echo \$RUNCMD_KEPT \$RUNCMD_OLD \$RUNCMD_EQ; env | grep -c ^RUNCMD_OLD=" >line &&
	printf "kept new a=b\n1\n" >expect &&
	test_cmp expect out
'

test_expect_success 'a failing command: its exit code in the line, runcmd exits 1' '
	test_expect_code 1 "$RUNCMD" -- sh -c "exit 3" >line &&
	test "$(status_of line)" = 3
'

test_expect_success 'a killed command: the signal in the line' '
	test_expect_code 1 "$RUNCMD" -- sh -c "kill -TERM \$\$" >line &&
	test "$(status_of line)" = sig15
'

test_expect_success 'a command that cannot be started: status 127 and a message' '
	test_expect_code 1 "$RUNCMD" -- ./no-such-command >line 2>err &&
	test "$(status_of line)" = 127 &&
	test_grep "runcmd: cannot run .\./no-such-command.: No such file" err &&
	test_expect_code 1 "$RUNCMD" -- "$TRASH_DIRECTORY" >line 2>err &&
	test "$(status_of line)" = 127 &&
	test_grep "runcmd: cannot run .*: Permission denied" err
'

test_expect_success 'files and directories that cannot be opened are refused before anything runs' '
	test_expect_code 1 "$RUNCMD" -C no-such-dir -- touch ran >line 2>err &&
	test_path_is_missing ran &&
	test_must_be_empty line &&
	test_grep "runcmd: cannot change to .no-such-dir.: No such file" err &&
	test_expect_code 1 "$RUNCMD" -i no-such-file -- touch ran >line 2>err &&
	test_path_is_missing ran &&
	test_must_be_empty line &&
	test_grep "runcmd: cannot open .no-such-file." err &&
	test_expect_code 1 "$RUNCMD" -o no-such-dir/out -- touch ran 2>err &&
	test_path_is_missing ran &&
	test_grep "runcmd: cannot open .no-such-dir/out." err &&
	test_expect_code 1 "$RUNCMD" -C sub -i missing -- touch ran 2>err &&
	test_path_is_missing sub/ran &&
	test_grep "runcmd: cannot open .missing.: No such file" err
'

test_expect_success 'bad usage is refused with status 2' '
	test_expect_code 2 "$RUNCMD" 2>err &&
	test_grep "no command given" err &&
	test_expect_code 2 "$RUNCMD" -x -- true 2>err &&
	test_grep "unknown option" err &&
	test_expect_code 2 "$RUNCMD" -e NOEQUALS -- true 2>err &&
	test_grep "VAR=VAL" err &&
	test_expect_code 2 "$RUNCMD" -C 2>err &&
	test_grep "needs a value" err
'

test_done
