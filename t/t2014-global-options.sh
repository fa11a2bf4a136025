#!/bin/sh
test_description='dirc'"'"'s global options, as git takes them

Each option before the command either does what git does or is refused:
-C, -c (and git'"'"'s rules for keys), --config-env, --git-dir,
--work-tree, --namespace, --bare (no work tree), --exec-path,
--literal-pathspecs and the other pathspec options, --no-optional-locks,
-p/-P (a pager when stdout is a terminal, as with pager.<command>),
--super-prefix (refused as git refuses it for most commands),
--version with --build-options, -h with a command; missing arguments
and unknown options give git'"'"'s messages and exit 129.'
. ./test-lib.sh

# run_both ARGS...: "git ARGS" and "dirc ARGS" in w, compared; the usage
# text names the program, so "usage: dirc" is read as "usage: git" and
# only the messages before it are compared.
run_both () {
	(
		cd w &&
		git "$@" >../git.out 2>../git.err
		echo $? >../git.code
		dirc "$@" >../dirc.out 2>../dirc.err
		echo $? >../dirc.code
	) &&
	sed -n "/^usage: /q;p" git.err >git.msg &&
	sed -n "/^usage: /q;p" dirc.err >dirc.msg &&
	test_cmp_codes git.code dirc.code &&
	test_cmp git.out dirc.out &&
	test_cmp git.msg dirc.msg || {
		echo "^^^ differs from git: $*" >&2
		return 1
	}
}

test_lazy_prereq TTY '
	command -v script >/dev/null &&
	script -qc "test -t 1" /dev/null >/dev/null
'

test_expect_success GIT 'setup' '
	git init -q w &&
	(
		cd w &&
		mkdir sub &&
		>a &&
		>ab &&
		>sub/x &&
		git add .
	)
'

test_expect_success GIT 'missing arguments and unknown options: git'"'"'s messages, 129' '
	for args in "-C" "-c" "--git-dir" "--work-tree" "--namespace" \
		"--config-env" "--bogus" "--bogus=x" "-x"
	do
		# shellcheck disable=SC2086
		run_both $args || return 1
	done &&
	echo 129 >expect &&
	test_cmp expect dirc.code &&
	(
		cd w &&
		test_expect_code 129 dirc --git-dir 2>../err
	) &&
	head -n 2 err >first &&
	cat >expect <<-\EOF &&
	no directory given for '"'"'--git-dir'"'"' option
	usage: dirc [-v | --version] [-h | --help] [-C <path>] [-c <name>=<value>]
	EOF
	test_cmp expect first &&
	for opt in --html-path --man-path --info-path --list-cmds=builtins
	do
		test_expect_code 129 dirc $opt 2>err &&
		test_grep "^${opt%%=*} is not supported by dirc" err || return 1
	done
'

test_expect_success GIT '-c: git'"'"'s rules for keys' '
	for kv in "foo" "=x" "a.=1" "a.b.=1" ".a=1" "." "core.x y=1" \
		"a.1b=1" "1a.b=1" "core..x=1" "a.b" "core.quotepath" \
		"core.quotepath=bogus" "Core.QuotePath=false" "a.b.c d=1"
	do
		run_both -c "$kv" ls-files || return 1
	done
'

test_expect_success GIT '--config-env: the value from a variable' '
	run_both --config-env=core.quotepath=QP ls-files &&
	QP=false run_both --config-env=core.quotepath=QP ls-files &&
	QP=false run_both --config-env core.quotepath=QP ls-files &&
	QP=bogus run_both --config-env=core.quotepath=QP ls-files &&
	run_both --config-env=a.b ls-files &&
	run_both --config-env=a.b= ls-files &&
	run_both --config-env= ls-files &&
	QP=1 run_both --config-env=a.b=QP -c x ls-files &&
	echo 128 >expect &&
	test_cmp expect dirc.code
'

test_expect_success GIT '--git-dir, --work-tree, -C, --namespace' '
	run_both --git-dir=.git ls-files &&
	run_both --git-dir .git --work-tree . ls-files &&
	run_both -C sub ls-files &&
	run_both -C sub -C .. ls-files &&
	run_both -C "" ls-files &&
	run_both -C nosuch ls-files &&
	run_both --git-dir=nosuch ls-files &&
	run_both --namespace=foo ls-files &&
	run_both --namespace foo ls-files
'

test_expect_success GIT '--bare: no work tree, GIT_DIR kept if set' '
	run_both --bare ls-files &&
	(
		cd w/.git &&
		git --bare ls-files >../../git.out 2>../../git.err
		echo $? >../../git.code
		dirc --bare ls-files >../../dirc.out 2>../../dirc.err
		echo $? >../../dirc.code
		git --bare ls-files -o >../../git.out2 2>../../git.err2
		echo $? >>../../git.code
		dirc --bare ls-files -o >../../dirc.out2 2>../../dirc.err2
		echo $? >>../../dirc.code
	) &&
	test_cmp_codes git.code dirc.code &&
	test_cmp git.out dirc.out &&
	test_cmp git.err2 dirc.err2 &&
	test_grep "must be run in a work tree" dirc.err2 &&
	GIT_DIR=.git run_both --bare ls-files -o
'

test_expect_success GIT '--exec-path, --version, -h, --super-prefix' '
	dirc --exec-path >out &&
	echo "$DIRC_BUILD_DIR" >expect &&
	test_cmp expect out &&
	dirc --exec-path=/x/y --exec-path >out &&
	echo /x/y >expect &&
	test_cmp expect out &&
	GIT_EXEC_PATH=/z dirc --exec-path >out &&
	echo /z >expect &&
	test_cmp expect out &&
	dirc --version >out &&
	test_grep "^dirc version " out &&
	dirc -v >out2 &&
	test_cmp out out2 &&
	dirc --version --build-options >out &&
	test_grep "^sizeof-size_t: " out &&
	test_expect_code 129 dirc --version --bogus 2>err &&
	test_grep "^error: unknown option .bogus." err &&
	write_script fake-man <<-\EOF &&
	echo "$*" >>"$FAKE_MAN_LOG"
	EOF
	FAKE_MAN_LOG=$PWD/man.args DIRC_MAN=$PWD/fake-man dirc -h ls-files >out &&
	test_grep "^dirc-ls-files\$" man.args &&
	dirc --help >out &&
	test_grep "^The dirc commands:" out &&
	run_both --super-prefix=x/ ls-files &&
	run_both --super-prefix x/ ls-files &&
	echo 128 >expect &&
	test_cmp expect dirc.code
'

test_expect_success TTY 'the pager: -p, pager.<command>, -P, not without a terminal' '
	(
		cd w &&
		script -qc "GIT_PAGER=\"sed s/^/P:/\" dirc -p ls-files a" \
			/dev/null >../out1 &&
		script -qc "GIT_PAGER=\"sed s/^/P:/\" dirc ls-files a" \
			/dev/null >../out2 &&
		script -qc "GIT_PAGER=\"sed s/^/P:/\" dirc -c pager.ls-files=true ls-files a" \
			/dev/null >../out3 &&
		script -qc "GIT_PAGER=\"sed s/^/P:/\" dirc -P -c pager.ls-files=true ls-files a" \
			/dev/null >../out4 &&
		script -qc "dirc -c pager.ls-files=\"sed s/^/Q:/\" ls-files a" \
			/dev/null >../out5 &&
		script -qc "GIT_PAGER=cat dirc -p ls-files a" /dev/null >../out6 &&
		script -qc "PAGER=\"sed s/^/R:/\" dirc -c core.pager=\"sed s/^/C:/\" -p ls-files a" \
			/dev/null >../out7 &&
		GIT_PAGER="sed s/^/P:/" dirc -p ls-files a >../out8
	) &&
	tr -d "\r" <out1 >o && echo P:a >expect && test_cmp expect o &&
	tr -d "\r" <out2 >o && echo a >expect && test_cmp expect o &&
	tr -d "\r" <out3 >o && echo P:a >expect && test_cmp expect o &&
	tr -d "\r" <out4 >o && echo a >expect && test_cmp expect o &&
	tr -d "\r" <out5 >o && echo Q:a >expect && test_cmp expect o &&
	tr -d "\r" <out6 >o && echo a >expect && test_cmp expect o &&
	tr -d "\r" <out7 >o && echo C:a >expect && test_cmp expect o &&
	echo a >expect && test_cmp expect out8
'

test_expect_success TTY '--namespace, --no-optional-locks: the variables are set' '
	(
		cd w &&
		script -qc "GIT_PAGER=\"env >../env.out\" dirc -p --namespace=ns --no-optional-locks --literal-pathspecs ls-files" \
			/dev/null >/dev/null
	) &&
	test_grep "^GIT_NAMESPACE=ns$" env.out &&
	test_grep "^GIT_OPTIONAL_LOCKS=0$" env.out &&
	test_grep "^GIT_LITERAL_PATHSPECS=1$" env.out
'

test_done
