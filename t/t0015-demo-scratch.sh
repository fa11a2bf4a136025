#!/bin/sh
test_description='make demo: its scratch space is outside the checkout, and removed

Documentation/demo.sh (what "make demo" runs) at a tiny scale, with
DIRC_SCRATCH in the trash directory: it works in a directory of its own
there, removes it at the end, also when a step fails, and leaves the
checkout as git status says it was (ignored files too).  The script is
run directly, with the binary under test, rather than through make:
make would rebuild with its default flags a suite built with others.'
. ./test-lib.sh

top=${TEST_DIRECTORY%/*}
if ! test -x "$top/Documentation/demo.sh" || ! test -x "$DIRC_BUILD_DIR/perf/gen-tree"
then
	skip_all="no Documentation/demo.sh or perf/gen-tree (make all)"
	test_done
fi

# The checkout's state, if the source tree is a git checkout (else empty).
checkout_state () {
	if git -C "$top" rev-parse --git-dir >/dev/null 2>&1
	then
		git -C "$top" status --porcelain --ignored
	fi
}

run_demo () {
	DIRC_SCRATCH=$TRASH_DIRECTORY/scratch DEMO_SCALE=0.0005 \
		DIRC_BIN=$DIRC_BUILD_DIR/dirc "$top/Documentation/demo.sh" "$@"
}

test_expect_success 'demo: scratch under DIRC_SCRATCH, removed, checkout unchanged' '
	checkout_state >before &&
	run_demo >demo.out 2>demo.err &&
	test_grep "^demo: done" demo.out &&
	test_grep "in $TRASH_DIRECTORY/scratch/demo\." demo.out &&
	test -z "$(ls -A scratch)" &&
	checkout_state >after &&
	test_cmp before after
'

test_expect_success 'demo: a failing step still removes the scratch' '
	write_script false-dirc <<-\EOF &&
	exit 3
	EOF
	! DIRC_SCRATCH=$TRASH_DIRECTORY/scratch DEMO_SCALE=0.0005 \
		DIRC_BIN=$TRASH_DIRECTORY/false-dirc \
		"$top/Documentation/demo.sh" >demo.out 2>demo.err &&
	test_path_is_dir scratch &&
	test -z "$(ls -A scratch)"
'

test_expect_success 'demo: DEMO_KEEP keeps it' '
	DEMO_KEEP=1 run_demo >demo.out 2>demo.err &&
	ls scratch >kept &&
	test_line_count = 1 kept &&
	test_path_is_dir "scratch/$(cat kept)/stage/.git" &&
	rm -rf scratch
'

test_done
