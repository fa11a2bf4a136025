# test-lib.sh: the harness every t/tNNNN-*.sh sources (". ./test-lib.sh").
#
# It owns: option parsing, isolation of the tests from the machine, one
# fresh trash repository per script, running each test body and printing
# TAP, the assertion helpers, prerequisites, and the closing "git fsck".
# See t/README for how to write a test; the summary of the contract:
#
#   - test bodies run in this shell (no subshell), one after another, in the
#     trash directory, so that later tests build on earlier ones' state;
#     a body's exit status (or "return N") decides pass or fail;
#   - stdin of a body is /dev/null; its stdout and stderr go to a log that
#     is shown, "#"-prefixed, with -v and for every failing test;
#   - internal names start with "tl_" and end with "_"; the public API is
#     the test_* functions and the variables documented in t/README.
#
# Written to POSIX sh; checked under dash and bash.

# ---------------------------------------------------------------------------
# Where things are.  TEST_DIRECTORY (the t/ directory) and
# TEST_OUTPUT_DIRECTORY (where trash directories go) may be set by a script
# before sourcing us; that is how a test can run a nested test script that
# lives elsewhere.

# The TAP stream and our stderr, also on fds 7 and 8, so that the harness
# can report even from inside a test body whose output is redirected.
exec 7>&1 8>&2

tl_bail_ () {
	printf 'Bail out! %s\n' "$*" >&7
	tl_finished_=t
	exit 1
}

if test -z "${TEST_DIRECTORY-}"
then
	TEST_DIRECTORY=$(pwd -P) || tl_bail_ "cannot find the t/ directory"
else
	TEST_DIRECTORY=$(cd "$TEST_DIRECTORY" && pwd -P) ||
		tl_bail_ "TEST_DIRECTORY '$TEST_DIRECTORY' does not exist"
fi
test -f "$TEST_DIRECTORY/test-lib.sh" ||
	tl_bail_ "no test-lib.sh in '$TEST_DIRECTORY': run test scripts from t/"

# The binary under test: DIRC_BUILD_DIR/dirc.  The parent of t/ unless the
# environment says otherwise (e.g. a build tree elsewhere).
if test -z "${DIRC_BUILD_DIR-}"
then
	DIRC_BUILD_DIR=${TEST_DIRECTORY%/*}
	test -n "$DIRC_BUILD_DIR" || DIRC_BUILD_DIR=/
fi
DIRC_BUILD_DIR=$(cd "$DIRC_BUILD_DIR" 2>/dev/null && pwd -P) ||
	tl_bail_ "DIRC_BUILD_DIR '$DIRC_BUILD_DIR' is not a directory"
test -x "$DIRC_BUILD_DIR/dirc" && test -f "$DIRC_BUILD_DIR/dirc" ||
	tl_bail_ "no executable '$DIRC_BUILD_DIR/dirc': run 'make' at the top level first (or set DIRC_BUILD_DIR)"
# The C helpers of the scripts (t/helper/, built by make with dirc).
TEST_HELPER_DIR=$DIRC_BUILD_DIR/t/helper
test -x "$TEST_HELPER_DIR/snapshot" ||
	tl_bail_ "no executable '$TEST_HELPER_DIR/snapshot': run 'make' at the top level first"

# The script's name, without directory and ".sh": "t1234-foo".
tl_name_=${0##*/}
tl_name_=${tl_name_%.sh}

# ---------------------------------------------------------------------------
# Options, from DIRC_TEST_OPTS first, then the command line.

tl_verbose_=
tl_trace_=
tl_immediate_=
tl_debug_=
tl_run_list_=
tl_chain_lint_=t
tl_root_opt_=

tl_usage_ () {
	cat <<EOF
usage: sh $tl_name_.sh [options]
  -v, --verbose      show the output of every test ("#"-prefixed)
  -x                 trace test bodies with "set -x" (implies -v)
  -i, --immediate    stop at the first failing test; keep the trash directory
  -d, --debug        keep the trash directory even when all tests pass
  -r, --run=LIST     run only tests LIST, e.g. 1,3-5 or 2- (others are skipped)
      --root=DIR     create the trash directory under DIR instead of t/
      --no-chain-lint  do not pre-check test bodies for a broken &&-chain
Options can also be given in the environment variable DIRC_TEST_OPTS.
EOF
}

tl_parse_opts_ () {
	while test $# -gt 0
	do
		case $1 in
		-v|--verbose)
			tl_verbose_=t ;;
		-x|--trace)
			tl_trace_=t
			tl_verbose_=t ;;
		-i|--immediate)
			tl_immediate_=t ;;
		-d|--debug)
			tl_debug_=t ;;
		-r)
			test $# -ge 2 || tl_bail_ "option -r needs a list of test numbers"
			shift
			tl_run_list_=$1 ;;
		--run=*)
			tl_run_list_=${1#--run=} ;;
		--root=*)
			tl_root_opt_=${1#--root=} ;;
		--no-chain-lint)
			tl_chain_lint_= ;;
		--chain-lint)
			tl_chain_lint_=t ;;
		-h|--help)
			printf '%s\n' "${test_description-}"
			tl_usage_
			tl_finished_=t
			exit 0 ;;
		*)
			tl_usage_ >&2
			tl_bail_ "unknown test option '$1'" ;;
		esac
		shift
	done
}

set -f
# shellcheck disable=SC2086 # word splitting of DIRC_TEST_OPTS is intended
tl_parse_opts_ ${DIRC_TEST_OPTS-} "$@"
set +f

# Check --run now, so that a typo fails before any test runs.
tl_run_items_=$(printf '%s\n' "$tl_run_list_" | tr ', ' '\n\n')
for tl_i_ in $tl_run_items_
do
	case $tl_i_ in
	*[!0-9-]*|*-*-*|-)
		tl_bail_ "invalid --run item '$tl_i_' (want N, N-M, N- or -M)" ;;
	esac
done
test -z "$tl_run_list_" || test -n "$tl_run_items_" ||
	tl_bail_ "empty --run list"

# ---------------------------------------------------------------------------
# Isolation from the machine (DESIGN.md section 6).
#
# First drop everything git or dirc would read from the environment:
# GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY,
# GIT_ALTERNATE_OBJECT_DIRECTORIES, GIT_CONFIG*, GIT_INDEX_VERSION, GIT_TRACE*
# ... in short every GIT_* variable, and every DIRC_* knob except the few the
# harness itself is driven by.

tl_env_names_=$(env | sed -n \
	-e 's/^\(GIT_[A-Za-z0-9_]*\)=.*/\1/p' \
	-e 's/^\(DIRC_[A-Za-z0-9_]*\)=.*/\1/p')
for tl_v_ in $tl_env_names_ \
	GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY \
	GIT_ALTERNATE_OBJECT_DIRECTORIES GIT_CONFIG GIT_CONFIG_PARAMETERS \
	GIT_CONFIG_COUNT GIT_CONFIG_GLOBAL GIT_CONFIG_SYSTEM GIT_INDEX_VERSION \
	GIT_NAMESPACE GIT_COMMON_DIR GIT_CEILING_DIRECTORIES \
	GIT_DISCOVERY_ACROSS_FILESYSTEM GIT_TEMPLATE_DIR GIT_EXEC_PATH
do
	case $tl_v_ in
	DIRC_TEST_OPTS|DIRC_BUILD_DIR|DIRC_SANITIZE|DIRC_TEST_LONG|\
	DIRC_TEST_GIT_NEW|DIRC_TEST_DEFAULT_HASH|DIRC_CRASH_SEED|\
	DIRC_CRASH_KILLS|DIRC_RANDOM_SEED) ;;
	*) unset "$tl_v_" 2>/dev/null ;;
	esac
done
unset XDG_CONFIG_HOME XDG_CACHE_HOME EMAIL LANGUAGE CDPATH PAGER VISUAL \
	2>/dev/null
export DIRC_BUILD_DIR

LC_ALL=C
LANG=C
TZ=UTC
TERM=dumb
EDITOR=:
export LC_ALL LANG TZ TERM EDITOR
umask 022

GIT_CONFIG_NOSYSTEM=1
export GIT_CONFIG_NOSYSTEM

GIT_AUTHOR_NAME='A U Thor'
GIT_AUTHOR_EMAIL=author@example.com
GIT_COMMITTER_NAME='C O Mitter'
GIT_COMMITTER_EMAIL=committer@example.com
test_tick=1112354055
GIT_AUTHOR_DATE="$test_tick +0200"
GIT_COMMITTER_DATE="$test_tick +0200"
export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME \
	GIT_COMMITTER_EMAIL GIT_AUTHOR_DATE GIT_COMMITTER_DATE

# Sanitized builds: a memory error or a leak must kill the process with
# SIGABRT, so that not even test_must_fail can mistake it for a clean exit.
# Ours come last so that they win over anything inherited.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}abort_on_error=1:detect_leaks=1:strict_string_checks=1:check_initialization_order=1"
UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:abort_on_error=1:print_stacktrace=1"
export ASAN_OPTIONS UBSAN_OPTIONS

# dirc first in PATH.
PATH="$DIRC_BUILD_DIR:$PATH"
export PATH

tl_uid_=$(id -u)

# prove sets HARNESS_ACTIVE, and TEST_VERBOSE with -v.  Without -v it shows
# only stderr, so failures and skips are then told there too.
tl_tell_stderr_=
if test -n "${HARNESS_ACTIVE-}" && test -z "${TEST_VERBOSE-}"
then
	tl_tell_stderr_=t
fi
unset HARNESS_ACTIVE HARNESS_VERSION TEST_VERBOSE

# The shell for nested test scripts (t0000 runs some).
TEST_SHELL_PATH=${TEST_SHELL_PATH:-/bin/sh}

# ---------------------------------------------------------------------------
# Harness state.  Private files (body logs, the fsck list) live in a scratch
# directory outside the trash repository, so they never show up in it.

tl_count_=0		# tests started
tl_failed_=0		# failed (not counting known breakages)
tl_fixed_=0		# known breakages that passed
tl_broken_=0		# known breakages still broken
tl_skipped_=0		# skipped for a missing prerequisite
tl_skip_reasons_=	# " GIT !ROOT": missing prerequisites seen
tl_in_test_=		# set while a body runs
tl_finished_=		# set when exiting on purpose
tl_prereq_ok_=' '	# satisfied prerequisites, space-separated
tl_prereq_no_=' '	# prerequisites known to be missing

tl_scratch_=$(mktemp -d "${TMPDIR:-/tmp}/dirc-test.XXXXXX") ||
	tl_bail_ "cannot create a scratch directory in ${TMPDIR:-/tmp}"
tl_log_=$tl_scratch_/body.log
tl_report_=$tl_scratch_/report
tl_fsck_list_=$tl_scratch_/fsck-also
tl_finished_list_=$tl_scratch_/when-finished
: >"$tl_fsck_list_"

tl_exit_trap_ () {
	tl_code_=$?
	set +x
	if test -z "$tl_finished_"
	then
		if test -n "$tl_in_test_"
		then
			printf 'not ok %d - %s\n' "$tl_count_" "$tl_title_" >&7
			if test -n "$tl_signal_"
			then
				printf '# FATAL: killed by SIG%s while running this test\n' "$tl_signal_" >&7
			else
				printf '# FATAL: the test body exited the script with code %s; use "return" or && chains, never "exit"\n' "$tl_code_" >&7
			fi
			test ! -f "$tl_log_" || sed -e 's/^/# /' "$tl_log_" >&7
		elif test -n "$tl_signal_"
		then
			printf '# FATAL: killed by SIG%s\n' "$tl_signal_" >&7
		elif test "$tl_code_" = 0
		then
			printf '# FATAL: %s.sh ended without calling test_done\n' "$tl_name_" >&7
		else
			printf '# FATAL: %s.sh stopped with code %s outside any test (a bug in the script?)\n' "$tl_name_" "$tl_code_" >&7
		fi
		test "$tl_code_" != 0 || tl_code_=1
		printf '# trash directory kept: %s\n' "${TRASH_DIRECTORY-}" >&7
	fi
	rm -rf "$tl_scratch_"
	exit "$tl_code_"
}
trap 'tl_exit_trap_' EXIT
tl_signal_=
trap 'tl_signal_=HUP; exit 129' HUP
trap 'tl_signal_=INT; exit 130' INT
trap 'tl_signal_=TERM; exit 143' TERM

# ---------------------------------------------------------------------------
# The trash directory: "t/trash directory.t1234-foo".  The space is on
# purpose: quoting bugs in dirc or in tests show up at once.

if test -n "$tl_root_opt_"
then
	TEST_OUTPUT_DIRECTORY=$tl_root_opt_
	mkdir -p "$TEST_OUTPUT_DIRECTORY" ||
		tl_bail_ "cannot create --root directory '$tl_root_opt_'"
fi
if test -z "${TEST_OUTPUT_DIRECTORY-}"
then
	TEST_OUTPUT_DIRECTORY=$TEST_DIRECTORY
else
	TEST_OUTPUT_DIRECTORY=$(cd "$TEST_OUTPUT_DIRECTORY" && pwd -P) ||
		tl_bail_ "TEST_OUTPUT_DIRECTORY '$TEST_OUTPUT_DIRECTORY' does not exist"
fi
TRASH_DIRECTORY="$TEST_OUTPUT_DIRECTORY/trash directory.$tl_name_"
# HOME sits beside the trash directory, so that the work tree holds no
# file the tests did not make (ls-files -o, git status see none).
TEST_HOME="$TEST_OUTPUT_DIRECTORY/trash home.$tl_name_"
export TRASH_DIRECTORY TEST_HOME

tl_remove_trash_ () {
	cd "$TEST_OUTPUT_DIRECTORY" || return 1
	rm -rf "$TEST_HOME"
	test -e "$TRASH_DIRECTORY" || return 0
	rm -rf "$TRASH_DIRECTORY" 2>/dev/null && return 0
	# A test may have left a read-only directory behind.
	chmod -R u+rwx "$TRASH_DIRECTORY" 2>/dev/null
	rm -rf "$TRASH_DIRECTORY"
}

tl_remove_trash_ ||
	tl_bail_ "cannot remove the old '$TRASH_DIRECTORY'"
mkdir "$TRASH_DIRECTORY" "$TEST_HOME" ||
	tl_bail_ "cannot create '$TRASH_DIRECTORY'"
cd "$TRASH_DIRECTORY" ||
	tl_bail_ "cannot enter '$TRASH_DIRECTORY'"

# Repository discovery must never climb out of the trash directory into
# the dirc checkout's own .git.
GIT_CEILING_DIRECTORIES=$TEST_OUTPUT_DIRECTORY
HOME=$TEST_HOME
export GIT_CEILING_DIRECTORIES HOME

# The same global config for git and dirc: a fixed initial branch, and no
# "hint:" from git init about choosing one.
printf '[init]\n\tdefaultBranch = master\n' >"$HOME/.gitconfig" ||
	tl_bail_ "cannot write '$HOME/.gitconfig'"

# The object format of every repository the tests make, with dirc or git:
# DIRC_TEST_DEFAULT_HASH=sha256 runs the suite in SHA-256 repositories
# (git's GIT_TEST_DEFAULT_HASH), through GIT_DEFAULT_HASH, which both
# read at init.  The facts a format-neutral test needs:
#   OID_ALGO     sha1 or sha256
#   OID_RAWSZ    20 or 32, OID_HEXSZ 40 or 64
#   ZERO_OID     the all-zero id; EMPTY_TREE, EMPTY_BLOB their ids
#   test_oid_fake PATTERN   a made-up id of that length (below)
case ${DIRC_TEST_DEFAULT_HASH:=sha1} in
sha1)
	OID_RAWSZ=20
	EMPTY_TREE=4b825dc642cb6eb9a060e54bf8d69288fbee4904
	EMPTY_BLOB=e69de29bb2d1d6434b8b29ae775ad8c2e48c5391
	;;
sha256)
	OID_RAWSZ=32
	EMPTY_TREE=6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321
	EMPTY_BLOB=473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813
	GIT_DEFAULT_HASH=sha256
	export GIT_DEFAULT_HASH
	;;
*)
	tl_bail_ "DIRC_TEST_DEFAULT_HASH must be sha1 or sha256, not '$DIRC_TEST_DEFAULT_HASH'" ;;
esac
OID_ALGO=$DIRC_TEST_DEFAULT_HASH
OID_HEXSZ=$((OID_RAWSZ * 2))
ZERO_OID=$(printf "%0${OID_HEXSZ}d" 0)

# test_oid_fake PATTERN: a made-up id of the current length, PATTERN
# repeated and cut (test_oid_fake 1234567890 is 1234567890123...; in a
# SHA-1 run the same 40 digits the scripts used to hard-code).
test_oid_fake () {
	tl_fake_=$1
	while test ${#tl_fake_} -lt "$OID_HEXSZ"
	do
		tl_fake_=$tl_fake_$1
	done
	printf "%.${OID_HEXSZ}s\n" "$tl_fake_"
}

# test_config_order_new FILE...: a config git 2.39's init wrote, put in
# the order git 2.55 (and dirc) writes: git 2.55 sets the extensions
# before core.repositoryformatversion, so a new SHA-256 repository's
# "[extensions] objectformat" comes before the [core] section init adds,
# where git 2.39 puts it after.  Only a file with a [core] opening with
# "repositoryformatversion = 1" and that two-line section after it is
# changed (its mode kept): git 2.55's files, SHA-1 ones, untouched.
test_config_order_new () {
	for tl_f_
	do
		awk '
			{ line[NR] = $0 }
			END {
				ext = 0; core = 0
				for (i = 1; i < NR; i++) {
					if (!core && line[i] == "[core]" &&
					    line[i + 1] == "\trepositoryformatversion = 1")
						core = i
					if (core && line[i] == "[extensions]" &&
					    line[i + 1] ~ /^\tobjectformat = / &&
					    (i + 1 == NR || line[i + 2] ~ /^\[/))
						ext = i
				}
				for (i = 1; i <= NR; i++) {
					if (ext && i == core)
						print line[ext] "\n" line[ext + 1]
					if (!ext || (i != ext && i != ext + 1))
						print line[i]
				}
			}' "$tl_f_" >"$tl_f_.order" &&
		cat "$tl_f_.order" >"$tl_f_" &&
		rm -f "$tl_f_.order" || return 1
	done
}

dirc init -q >"$tl_log_" 2>&1 </dev/null
tl_code_=$?
if test "$tl_code_" != 0
then
	sed -e 's/^/# /' "$tl_log_"
	tl_bail_ "'dirc init -q' failed (exit $tl_code_) in '$TRASH_DIRECTORY'; every test needs it"
fi

# ---------------------------------------------------------------------------
# Prerequisites.

# test_set_prereq NAME...: declare prerequisites satisfied.
test_set_prereq () {
	for tl_p_
	do
		case $tl_prereq_ok_ in
		*" $tl_p_ "*) ;;
		*) tl_prereq_ok_="$tl_prereq_ok_$tl_p_ " ;;
		esac
	done
}

# test_lazy_prereq NAME 'script': NAME is satisfied when the script, run
# the first time NAME is asked for, in a subshell in a scratch directory,
# succeeds.
test_lazy_prereq () {
	test $# = 2 || tl_bug_ "test_lazy_prereq needs NAME and a script"
	tl_check_prereq_name_ "$1"
	eval "tl_lazy_$1=\$2"
}

tl_bug_ () {
	printf 'bug in the test script: %s\n' "$*" >&8
	tl_bail_ "bug in the test script: $*"
}

tl_check_prereq_name_ () {
	case $1 in
	''|*[!A-Za-z0-9_]*)
		tl_bug_ "bad prerequisite name '$1'" ;;
	esac
}

# Is the single prerequisite $1 (no "!") satisfied?  Runs a lazy check once.
tl_prereq_ () {
	case $tl_prereq_ok_ in *" $1 "*) return 0 ;; esac
	case $tl_prereq_no_ in *" $1 "*) return 1 ;; esac
	eval "tl_lazy_set_=\${tl_lazy_$1+set} tl_lazy_script_=\${tl_lazy_$1-}"
	if test "$tl_lazy_set_" = set
	then
		tl_dir_="$TRASH_DIRECTORY/.prereq-$1"
		rm -rf "$tl_dir_" && mkdir "$tl_dir_" &&
		(cd "$tl_dir_" && eval "$tl_lazy_script_") >/dev/null 2>&1 </dev/null
		tl_lazy_ret_=$?
		rm -rf "$tl_dir_"
		if test "$tl_lazy_ret_" = 0
		then
			test_set_prereq "$1"
			return 0
		fi
	fi
	tl_prereq_no_="$tl_prereq_no_$1 "
	return 1
}

# test_have_prereq LIST: true when every item of the comma-separated LIST
# is satisfied; "!NAME" means NAME must be missing.  Sets tl_missing_ to
# the items that were not met.
test_have_prereq () {
	tl_missing_=
	tl_saved_ifs_=$IFS
	IFS=,
	set -f
	# shellcheck disable=SC2086
	set -- $1
	IFS=$tl_saved_ifs_
	set +f
	for tl_item_
	do
		case $tl_item_ in
		!*)
			tl_check_prereq_name_ "${tl_item_#!}"
			! tl_prereq_ "${tl_item_#!}" ;;
		*)
			tl_check_prereq_name_ "$tl_item_"
			tl_prereq_ "$tl_item_" ;;
		esac || tl_missing_="${tl_missing_:+$tl_missing_,}$tl_item_"
	done
	test -z "$tl_missing_"
}

# Built-in prerequisites.
if command -v git >/dev/null 2>&1
then
	test_set_prereq GIT
else
	tl_prereq_no_="${tl_prereq_no_}GIT "
fi
test "$tl_uid_" != 0 || test_set_prereq ROOT
test -z "${DIRC_SANITIZE-}" || test_set_prereq SANITIZE
# The object format of the test repositories: SHA1 or SHA256.
case $OID_ALGO in
sha1) test_set_prereq SHA1 ;;
sha256) test_set_prereq SHA256 ;;
esac
# Long tests (huge files, millions of entries, crash loops): only under
# "make test-long", which sets DIRC_TEST_LONG=1.
test -z "${DIRC_TEST_LONG-}" || test_set_prereq LONG
# A current git beside the installed one (2.39 here and in CI): the
# checks of what git changed since, against git itself.  DIRC_TEST_GIT_NEW
# names its binary (a build's bin-wrappers/git); git_new runs it.
case $("${DIRC_TEST_GIT_NEW:-false}" --version 2>/dev/null) in
"git version 2."[4-9][0-9]*) test_set_prereq GIT_NEW ;;
esac
git_new () {
	"$DIRC_TEST_GIT_NEW" "$@"
}
test_lazy_prereq SYMLINKS '
	ln -s target link && test -h link
'
test_lazy_prereq ULIMIT_FILE_SIZE '
	(ulimit -f 8 && trap "" XFSZ && test "$(ulimit -f)" = 8)
'
# Unprivileged: not root, or root that can become uid/gid 65534 and still
# reach the trash directory (its parents must be world-searchable).
test_lazy_prereq UNPRIV '
	test "$(id -u)" != 0 || {
		command -v setpriv &&
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			--inh-caps=-all -- sh -c "cd \"\$1\" && test \"\$(id -u)\" = 65534" \
			- "$TRASH_DIRECTORY"
	}
'

# Why a built-in prerequisite can be missing, for the skip message.
tl_why_ () {
	case $1 in
	GIT) echo "git not found in PATH" ;;
	ROOT) echo "not running as root" ;;
	SANITIZE) echo "not a sanitized build (DIRC_SANITIZE unset)" ;;
	SHA1) echo "the test repositories are SHA-256 ones (DIRC_TEST_DEFAULT_HASH=sha256)" ;;
	SHA256) echo "the test repositories are SHA-1 ones (DIRC_TEST_DEFAULT_HASH=sha256 runs them)" ;;
	UNPRIV) echo "cannot run as uid 65534: need setpriv, and the trash directory reachable by it ; try --root=DIR with DIR under /tmp" ;;
	ULIMIT_FILE_SIZE) echo "cannot lower ulimit -f" ;;
	SYMLINKS) echo "no symlinks on this filesystem" ;;
	LONG) echo "a long test: run with DIRC_TEST_LONG=1 (make test-long)" ;;
	GIT_NEW) echo "no current git: DIRC_TEST_GIT_NEW=<git 2.40 or later>" ;;
	esac
}

# ---------------------------------------------------------------------------
# Running tests.

# Should test number $1 run, given --run?
tl_selected_ () {
	test -z "$tl_run_list_" && return 0
	for tl_i_ in $tl_run_items_
	do
		case $tl_i_ in
		*-*)
			tl_lo_=${tl_i_%-*}
			tl_hi_=${tl_i_#*-}
			test "$1" -ge "${tl_lo_:-1}" &&
			{ test -z "$tl_hi_" || test "$1" -le "$tl_hi_"; } &&
			return 0 ;;
		*)
			test "$1" -eq "$tl_i_" && return 0 ;;
		esac
	done
	return 1
}

# A title safe for TAP: "#" would start a directive.
tl_tap_title_ () {
	case $1 in
	*'#'*) printf '%s' "$1" | sed -e 's/#/\\#/g' ;;
	*) printf '%s' "$1" ;;
	esac
}

# Print the "#"-prefixed lines of stdin.
tl_comment_ () {
	sed -e 's/^/# /'
}

# The diagnostics of a failing test: its body, then its output.
tl_failure_report_ () {
	printf 'failed: %s\n' "$tl_title_"
	printf '%s\n' "$tl_body_" | sed -e '/^[ 	]*$/d' -e 's/^/	/'
	if test -n "$tl_extra_diag_"
	then
		printf '%s\n' "$tl_extra_diag_" | sed -e 's/^/*** /'
	fi
	if test -s "$tl_log_"
	then
		tl_lines_=$(($(wc -l <"$tl_log_")))
		if test -z "$tl_verbose_" && test "$tl_lines_" -gt 200
		then
			printf -- '--- output (last 200 of %d lines; -v shows all):\n' "$tl_lines_"
			tail -n 200 "$tl_log_"
		else
			printf -- '--- output:\n'
			cat "$tl_log_"
		fi
	else
		printf -- '--- no output\n'
	fi
}

tl_eval_body_ () {
	test -z "$tl_trace_" || set -x
	tl_body_fn_
}

# Run the body and then the test_when_finished cleanups, with stdout and
# stderr already redirected to the log by the caller.
tl_run_ () {
	tl_eval_body_
	{ tl_ret_=$?; set +x; } 2>/dev/null
	tl_extra_diag_=
	if test "$PWD" != "$TRASH_DIRECTORY"
	then
		tl_extra_diag_="the body changed directory to '$PWD' (cd only inside ( ... ))"
		test "$tl_ret_" != 0 || tl_ret_=1
		cd "$TRASH_DIRECTORY" || tl_bail_ "the trash directory is gone"
	fi
	if test -s "$tl_finished_list_"
	then
		tl_n_=0
		while read -r _
		do
			tl_n_=$((tl_n_ + 1))
		done <"$tl_finished_list_"
		if test "$tl_n_" != "$tl_cleanup_n_"
		then
			tl_extra_diag_="test_when_finished was called in a subshell; its cleanup did not run"
			test "$tl_ret_" != 0 || tl_ret_=1
		fi
	fi
	if test -n "$tl_cleanup_"
	then
		tl_cleanup_failed_=
		eval "$tl_cleanup_"
		cd "$TRASH_DIRECTORY" || tl_bail_ "the trash directory is gone"
		if test -n "$tl_cleanup_failed_"
		then
			tl_extra_diag_="${tl_extra_diag_:+$tl_extra_diag_
}a test_when_finished cleanup failed"
			test "$tl_ret_" != 0 || tl_ret_=1
		fi
	fi
	return "$tl_ret_"
}

# tl_test_ success|failure [PREREQ] TITLE BODY
tl_test_ () {
	tl_kind_=$1
	shift
	case $# in
	2) tl_prereqs_= ;;
	3) tl_prereqs_=$1; shift ;;
	*) tl_bug_ "test_expect_$tl_kind_ needs [PREREQ] TITLE BODY, got $# arguments" ;;
	esac
	test -z "$tl_in_test_" ||
		tl_bug_ "test_expect_$tl_kind_ '$1' called inside the body of '$tl_title_'"
	tl_title_=$1
	tl_body_=$2
	tl_count_=$((tl_count_ + 1))
	case $tl_title_ in
	*'#'*) tl_ttitle_=$(tl_tap_title_ "$tl_title_") ;;
	*) tl_ttitle_=$tl_title_ ;;
	esac

	cd "$TRASH_DIRECTORY" || tl_bail_ "the trash directory is gone"
	if ! tl_selected_ "$tl_count_"
	then
		printf 'ok %d # skip %s (--run)\n' "$tl_count_" "$tl_ttitle_"
		return 0
	fi
	if test -n "$tl_prereqs_" && ! test_have_prereq "$tl_prereqs_"
	then
		tl_why_list_=
		tl_saved_ifs_=$IFS
		IFS=,
		for tl_m_ in $tl_missing_
		do
			tl_w_=$(tl_why_ "$tl_m_")
			tl_why_list_="$tl_why_list_${tl_w_:+: $tl_w_}"
		done
		IFS=$tl_saved_ifs_
		printf 'ok %d # skip %s (missing %s%s)\n' "$tl_count_" "$tl_ttitle_" \
			"$tl_missing_" "$tl_why_list_"
		tl_skipped_=$((tl_skipped_ + 1))
		case "$tl_skip_reasons_ " in
		*" $tl_missing_ "*) ;;
		*) tl_skip_reasons_="$tl_skip_reasons_ $tl_missing_" ;;
		esac
		return 0
	fi

	if test -n "$tl_verbose_"
	then
		printf 'expecting %s of %d - %s:\n%s\n' "$tl_kind_" "$tl_count_" \
			"$tl_title_" "$tl_body_" | tl_comment_
	fi

	tl_cleanup_=
	tl_cleanup_n_=0
	: >"$tl_finished_list_"
	: >"$tl_log_"
	tl_extra_diag_=

	tl_precheck_ >"$tl_log_" 2>&1
	case $? in
	0)
		# The body becomes a function: "return" works, $# is 0.
		eval "tl_body_fn_ () {
$tl_body_
}"
		tl_in_test_=t
		tl_run_ >>"$tl_log_" 2>&1 </dev/null
		tl_ret_=$?
		tl_in_test_= ;;
	1)
		tl_ret_=1
		tl_extra_diag_="broken &&-chain: a top-level command is not joined with && (wrap 'a || b' in { })" ;;
	*)
		tl_ret_=2
		tl_extra_diag_="the body has a syntax error" ;;
	esac

	if test "$tl_kind_" = failure
	then
		test -z "$tl_verbose_" || tl_comment_ <"$tl_log_"
		if test "$tl_ret_" = 0
		then
			tl_fixed_=$((tl_fixed_ + 1))
			printf 'ok %d - %s # TODO known breakage vanished\n' "$tl_count_" "$tl_ttitle_"
		else
			tl_broken_=$((tl_broken_ + 1))
			printf 'not ok %d - %s # TODO known breakage\n' "$tl_count_" "$tl_ttitle_"
		fi
		return 0
	fi

	if test "$tl_ret_" = 0
	then
		test -z "$tl_verbose_" || tl_comment_ <"$tl_log_"
		printf 'ok %d - %s\n' "$tl_count_" "$tl_ttitle_"
		return 0
	fi

	tl_failed_=$((tl_failed_ + 1))
	printf 'not ok %d - %s\n' "$tl_count_" "$tl_ttitle_"
	tl_failure_report_ >"$tl_report_" 2>&1
	tl_comment_ <"$tl_report_"
	# prove shows only stderr unless run with -v: copy the report there,
	# each line tagged with the script, for logs of parallel runs.
	if test -n "$tl_tell_stderr_"
	then
		sed -e "s|^|$tl_name_: |" "$tl_report_" >&2
	fi
	if test -n "$tl_immediate_"
	then
		printf '1..%d\n' "$tl_count_"
		printf '# stopped at the first failure (-i); trash directory kept: %s\n' \
			"$TRASH_DIRECTORY"
		tl_finished_=t
		exit 1
	fi
	return 0
}

# Check the body before running it, in a subshell (a syntax error in
# "eval" ends a non-interactive dash): 0 when fine, 1 for a broken
# &&-chain, 2 for a syntax error.  The chain-lint: with a false first
# link, a body that is one &&-chain runs nothing and keeps the status 117.
tl_precheck_ () {
	(
		eval "tl_body_fn_ () {
$tl_body_
}" || exit 2
		test -n "$tl_chain_lint_" || exit 0
		eval "tl_lint_fn_ () {
(exit 117) &&
$tl_body_
}" || exit 2
		tl_lint_fn_ >/dev/null 2>&1 </dev/null
		test $? = 117 || exit 1
	)
}

# test_expect_success [PREREQ[,PREREQ...]] TITLE BODY
test_expect_success () {
	tl_test_ success "$@"
}

# test_expect_failure [PREREQ] TITLE BODY: a known breakage; reported as
# "not ok ... # TODO known breakage" and does not fail the script.
test_expect_failure () {
	tl_test_ failure "$@"
}

# test_when_finished 'cmd': run cmd after the current test, whether it
# passed or failed; a failing cleanup fails the test.  Cleanups run in
# reverse order of registration, in the trash directory.
test_when_finished () {
	test -n "$tl_in_test_" ||
		tl_bug_ "test_when_finished outside a test body"
	tl_cleanup_n_=$((tl_cleanup_n_ + 1))
	echo x >>"$tl_finished_list_"
	tl_cleanup_="{ $*
} || tl_cleanup_failed_=t
$tl_cleanup_"
}

# test_fsck_also DIR...: also "git fsck --strict" DIR (a work tree or a
# bare repository) at test_done.  Relative to the current directory.
test_fsck_also () {
	for tl_d_
	do
		case $tl_d_ in
		/*) ;;
		*) tl_d_="$(pwd -P)/$tl_d_" ;;
		esac
		printf '%s\n' "$tl_d_" >>"$tl_fsck_list_"
	done
}

# One repository: 0 when "git fsck --strict" reports nothing that matters.
tl_fsck_one_ () {
	if test -d "$1/.git"
	then
		tl_gd_="$1/.git"
	else
		tl_gd_=$1
	fi
	echo "--- git fsck --strict in $1"
	(
		unset GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY \
			GIT_ALTERNATE_OBJECT_DIRECTORIES GIT_COMMON_DIR
		GIT_DIR=$tl_gd_
		export GIT_DIR
		cd "$1" &&
		git -c safe.directory='*' fsck --strict
	) >"$tl_scratch_/fsck.out" 2>&1
	tl_fsck_ret_=$?
	cat "$tl_scratch_/fsck.out"
	if test "$tl_fsck_ret_" != 0
	then
		echo "git fsck exited with $tl_fsck_ret_"
		return 1
	fi
	if grep -v \
		-e '^dangling ' \
		-e '^notice: HEAD points to an unborn branch' \
		-e '^notice: No default references' \
		-e '^Checking ' \
		"$tl_scratch_/fsck.out" >"$tl_scratch_/fsck.bad"
	then
		echo "git fsck reported the lines above besides 'dangling' ones"
		return 1
	fi
	return 0
}

tl_fsck_all_ () {
	tl_fsck_bad_=
	if test -d "$TRASH_DIRECTORY/.git"
	then
		tl_fsck_one_ "$TRASH_DIRECTORY" || tl_fsck_bad_=t
	fi
	while IFS= read -r tl_d_
	do
		if test -e "$tl_d_"
		then
			tl_fsck_one_ "$tl_d_" || tl_fsck_bad_=t
		else
			echo "registered with test_fsck_also but gone: $tl_d_"
			tl_fsck_bad_=t
		fi
	done <"$tl_fsck_list_"
	test -z "$tl_fsck_bad_"
}

# test_done: the fsck test, the plan, cleanup, exit status.
test_done () {
	test -z "$tl_in_test_" || tl_bug_ "test_done inside a test body"
	if test $tl_count_ = 0 && test -n "${skip_all-}"
	then
		printf '1..0 # SKIP %s\n' "$skip_all"
		tl_finished_=t
		tl_remove_trash_
		exit 0
	fi
	if test -z "${TEST_NO_FSCK-}" &&
	   { test -d "$TRASH_DIRECTORY/.git" || test -s "$tl_fsck_list_"; }
	then
		tl_trace_=	# the trace would be taken for fsck's output
		test_expect_success GIT 'git fsck --strict of repositories dirc wrote' \
			'tl_fsck_all_'
	fi

	printf '1..%d\n' "$tl_count_"
	test "$tl_broken_" = 0 ||
		printf '# %d known breakage(s) still present\n' "$tl_broken_"
	test "$tl_fixed_" = 0 ||
		printf '# %d known breakage(s) vanished; make them test_expect_success\n' "$tl_fixed_"
	if test "$tl_skipped_" != 0
	then
		printf '# %d test(s) skipped, missing:%s\n' "$tl_skipped_" "$tl_skip_reasons_"
		if test -n "$tl_tell_stderr_"
		then
			printf '%s: %d test(s) skipped, missing:%s\n' "$tl_name_" \
				"$tl_skipped_" "$tl_skip_reasons_" >&2
		fi
	fi

	tl_finished_=t
	cd "$TEST_OUTPUT_DIRECTORY" || exit 1
	if test "$tl_failed_" != 0
	then
		printf '# failed %d of %d test(s); trash directory kept: %s\n' \
			"$tl_failed_" "$tl_count_" "$TRASH_DIRECTORY"
		exit 1
	fi
	if test -n "$tl_debug_"
	then
		printf '# trash directory kept (-d): %s\n' "$TRASH_DIRECTORY"
	elif ! tl_remove_trash_
	then
		printf '%s: could not remove %s\n' "$tl_name_" "$TRASH_DIRECTORY" >&2
	fi
	exit 0
}

# ---------------------------------------------------------------------------
# Helpers for test bodies.  Each returns non-zero and says why on stderr.

# test_tick: advance both author and committer dates by 60 seconds.
test_tick () {
	test_tick=$((test_tick + 60))
	GIT_AUTHOR_DATE="$test_tick +0200"
	GIT_COMMITTER_DATE="$test_tick +0200"
	export GIT_AUTHOR_DATE GIT_COMMITTER_DATE
}

# test_cmp EXPECT ACTUAL: identical files, or a unified diff.
# test_cmp_codes A B: files of one line each (exit codes) compared by
# the shell itself; test_cmp's message when they differ.
test_cmp_codes () {
	if test -f "$1" && test -f "$2" &&
		tl_line_of_ "$1" && tl_a_=$tl_line_ &&
		tl_line_of_ "$2" && test "$tl_a_" = "$tl_line_"
	then
		return 0
	fi
	test_cmp "$1" "$2"
}

# tl_line_of_ FILE: true when FILE is exactly one line (newline ended),
# with that line in $tl_line_
tl_line_of_ () {
	tl_line_= tl_more_=
	{ read -r tl_line_ && ! read -r tl_more_ && test -z "$tl_more_"; } <"$1"
}

test_cmp () {
	test $# = 2 || tl_bug_ "test_cmp needs 2 files, got $#"
	for tl_f_
	do
		test -f "$tl_f_" || {
			echo "test_cmp: '$tl_f_' does not exist" >&2
			return 1
		}
	done
	# two empty files are equal without a cmp process (tests compare
	# thousands of empty stderrs; a process costs milliseconds)
	if test ! -s "$1" && test ! -s "$2"
	then
		return 0
	fi
	cmp -s "$1" "$2" && return 0
	echo "test_cmp: '$1' (expected) and '$2' (actual) differ:" >&2
	diff -u "$1" "$2" >&2
	return 1
}

# What killed the command, for messages: "exit 3" or "signal 6 (exit 134)".
tl_describe_exit_ () {
	if test "$1" -gt 128 && test "$1" -le 192
	then
		echo "died by signal $(($1 - 128)) (exit $1)"
	else
		echo "exit $1"
	fi
}

# test_must_fail [env [-u VAR] [VAR=val]...] dirc ARGS...
# Only for dirc (and run_unpriv dirc): it must fail the way dirc fails on
# purpose (1, 128 fatal, 129 usage).  Success, death by a signal (a crash,
# a sanitizer's abort), 126/127 and any other code fail the test.
test_must_fail () {
	test $# -ge 1 || tl_bug_ "test_must_fail needs a command"
	tl_cmd_=
	tl_after_env_=
	for tl_a_
	do
		if test -n "$tl_after_env_"
		then
			case $tl_after_env_:$tl_a_ in
			skip:*) tl_after_env_=t; continue ;;
			t:-u) tl_after_env_=skip; continue ;;
			t:-*|t:*=*) continue ;;
			esac
		fi
		case $tl_a_ in
		env) tl_after_env_=t ;;
		run_unpriv) ;;
		*) tl_cmd_=$tl_a_; break ;;
		esac
	done
	case ${tl_cmd_##*/} in
	dirc) ;;
	*)
		echo "test_must_fail: only for dirc, not '$tl_cmd_': use '! cmd' or test_expect_code" >&2
		return 1 ;;
	esac
	"$@"
	tl_code_=$?
	case $tl_code_ in
	1|128|129)
		return 0 ;;
	0)
		echo "test_must_fail: the command succeeded: $*" >&2 ;;
	126|127)
		echo "test_must_fail: command not found or not executable (exit $tl_code_): $*" >&2 ;;
	*)
		if test "$tl_code_" -gt 129 && test "$tl_code_" -le 192
		then
			echo "test_must_fail: $(tl_describe_exit_ "$tl_code_"): $*" >&2
		else
			echo "test_must_fail: unexpected exit $tl_code_ (dirc fails with 1, 128 or 129): $*" >&2
		fi ;;
	esac
	return 1
}

# test_expect_code N CMD...: CMD must exit with exactly N.
test_expect_code () {
	test $# -ge 2 || tl_bug_ "test_expect_code needs a code and a command"
	tl_want_=$1
	shift
	"$@"
	tl_code_=$?
	test "$tl_code_" = "$tl_want_" && return 0
	echo "test_expect_code: wanted exit $tl_want_, got $(tl_describe_exit_ "$tl_code_"): $*" >&2
	return 1
}

# test_grep [-v] [-e] [grep options] PATTERN FILE: FILE has (with -v: has
# no) line matching PATTERN.  Shows the file on failure.
test_grep () {
	test $# -ge 2 || tl_bug_ "test_grep needs a pattern and a file"
	tl_negate_=
	for tl_a_
	do
		case $tl_a_ in
		-v) tl_negate_=t ;;
		-e) break ;;
		-*) ;;
		*) break ;;
		esac
	done
	eval "tl_file_=\${$#}"
	if ! test -f "$tl_file_"
	then
		echo "test_grep: no file '$tl_file_'" >&2
		return 1
	fi
	if test -n "$tl_negate_"
	then
		# grep -v succeeds on any non-matching line; we want "no match".
		tl_n_=$#
		tl_i_=0
		tl_args_=
		for tl_a_
		do
			tl_i_=$((tl_i_ + 1))
			test "$tl_a_" = -v && continue
			test "$tl_i_" = "$tl_n_" && continue
			tl_args_="$tl_args_ \"\${$tl_i_}\""
		done
		eval "grep $tl_args_ \"\$tl_file_\"" >"$tl_scratch_/grep.out" ||
			return 0
		echo "test_grep: '$tl_file_' has lines it should not have:" >&2
		cat "$tl_scratch_/grep.out" >&2
		return 1
	fi
	grep "$@" >/dev/null && return 0
	echo "test_grep: no line matching the pattern (grep $*); '$tl_file_' is:" >&2
	cat "$tl_file_" >&2
	echo "--- end of '$tl_file_'" >&2
	return 1
}

test_path_is_file () {
	test $# = 1 || tl_bug_ "test_path_is_file needs 1 argument"
	test -f "$1" && return 0
	echo "test_path_is_file: '$1' is not a file$(tl_what_is_ "$1")" >&2
	return 1
}

test_path_is_dir () {
	test $# = 1 || tl_bug_ "test_path_is_dir needs 1 argument"
	test -d "$1" && return 0
	echo "test_path_is_dir: '$1' is not a directory$(tl_what_is_ "$1")" >&2
	return 1
}

test_path_exists () {
	test $# = 1 || tl_bug_ "test_path_exists needs 1 argument"
	test -e "$1" || test -h "$1" && return 0
	echo "test_path_exists: '$1' does not exist" >&2
	return 1
}

test_path_is_missing () {
	test $# = 1 || tl_bug_ "test_path_is_missing needs 1 argument"
	test -e "$1" || test -h "$1" || return 0
	echo "test_path_is_missing: '$1' exists$(tl_what_is_ "$1")" >&2
	ls -ld "$1" >&2
	return 1
}

# ", it is a directory" and so on, for messages.
tl_what_is_ () {
	if test -h "$1"
	then
		echo ", it is a symlink"
	elif test -d "$1"
	then
		echo ", it is a directory"
	elif test -f "$1"
	then
		echo ", it is a file"
	elif test -e "$1"
	then
		echo ", it is something else"
	else
		echo ", it does not exist"
	fi
}

test_file_not_empty () {
	test $# = 1 || tl_bug_ "test_file_not_empty needs 1 argument"
	test -s "$1" && return 0
	echo "test_file_not_empty: '$1' is empty or missing" >&2
	return 1
}

test_must_be_empty () {
	test $# = 1 || tl_bug_ "test_must_be_empty needs 1 argument"
	if ! test -f "$1"
	then
		echo "test_must_be_empty: '$1' is not a file$(tl_what_is_ "$1")" >&2
		return 1
	fi
	test -s "$1" || return 0
	echo "test_must_be_empty: '$1' is not empty, it contains:" >&2
	cat "$1" >&2
	return 1
}

# test_line_count OP N FILE: e.g. test_line_count = 3 out
test_line_count () {
	test $# = 3 || tl_bug_ "test_line_count needs OP N FILE"
	if ! test -f "$3"
	then
		echo "test_line_count: no file '$3'" >&2
		return 1
	fi
	tl_lines_=$(($(wc -l <"$3")))
	test "$tl_lines_" "$1" "$2" && return 0
	echo "test_line_count: '$3' has $tl_lines_ lines, wanted $1 $2; it is:" >&2
	cat "$3" >&2
	return 1
}

# test_seq [FIRST] LAST: the integers FIRST (default 1) to LAST.
test_seq () {
	case $# in
	1) tl_i_=1; tl_last_=$1 ;;
	2) tl_i_=$1; tl_last_=$2 ;;
	*) tl_bug_ "test_seq needs [FIRST] LAST" ;;
	esac
	while test "$tl_i_" -le "$tl_last_"
	do
		echo "$tl_i_"
		tl_i_=$((tl_i_ + 1))
	done
}

# test_write_lines A B...: each argument on a line of its own.
test_write_lines () {
	printf '%s\n' "$@"
}

# Byte conversions: Q stands for NUL (or TAB, CR) in readable test data.
q_to_nul () {
	tr Q '\000'
}

nul_to_q () {
	tr '\000' Q
}

q_to_tab () {
	tr Q '\011'
}

q_to_cr () {
	tr Q '\015'
}

# write_script FILE [INTERPRETER] <<\EOF: an executable script from stdin.
write_script () {
	{
		echo "#!${2-/bin/sh}"
		cat
	} >"$1" &&
	chmod +x "$1"
}

# test_chmod MODE FILE...: chmod the files, then refresh them in the index
# so that the index records the new mode.
test_chmod () {
	test $# -ge 2 || tl_bug_ "test_chmod needs MODE FILE..."
	chmod "$@" &&
	shift &&
	dirc update-cache --add "$@"
}

# run_unpriv CMD ARGS...: run an external command as uid/gid 65534 when we
# are root (permission tests prove nothing as root), directly otherwise.
# The environment is kept, except HOME: as uid 65534 it is a directory
# that user can read, holding a copy of $HOME/.gitconfig (if any).  The
# trash directory's HOME may be out of that user's reach (a checkout
# under a private directory), and git and dirc would then both warn that
# they cannot read the config there, which no test expects.  Whatever
# CMD must write has to be chowned first, see test_chown_unpriv.  Needs
# the UNPRIV prerequisite.
run_unpriv () {
	test $# -ge 1 || tl_bug_ "run_unpriv needs a command"
	if test "$tl_uid_" = 0
	then
		tl_unpriv_home_=$tl_scratch_/unpriv-home &&
		rm -rf "$tl_unpriv_home_" &&
		mkdir "$tl_unpriv_home_" &&
		chmod 711 "$tl_scratch_" &&
		chmod 755 "$tl_unpriv_home_" || {
			tl_bug_ "run_unpriv: cannot make a home for uid 65534"
		}
		if test -f "$HOME/.gitconfig"
		then
			cp "$HOME/.gitconfig" "$tl_unpriv_home_/" &&
			chmod 644 "$tl_unpriv_home_/.gitconfig" ||
			tl_bug_ "run_unpriv: cannot copy $HOME/.gitconfig"
		fi
		HOME=$tl_unpriv_home_ setpriv --reuid=65534 --regid=65534 \
			--clear-groups --inh-caps=-all -- "$@"
	else
		"$@"
	fi
}

# test_chown_unpriv PATH...: give PATHs to the run_unpriv user (root only;
# a no-op otherwise, where run_unpriv runs as ourselves).
test_chown_unpriv () {
	test "$tl_uid_" != 0 || chown -R 65534:65534 "$@"
}
