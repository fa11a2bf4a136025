#!/bin/sh
test_description='crash safety, long: SIGKILL from a timer at random moments on a larger tree

The same checks as t5000 (see lib-crash.sh), but the kill comes from
timeout(1) after a random delay, so it lands anywhere: inside a write, in
the middle of the index being streamed out, between two renames.  The
tree has 3,000 files; the delays come from DIRC_CRASH_SEED (default 1),
so a failure can be replayed exactly.  Part of make test-long.  The
copies are made and removed hundreds of times, so the trash directory
goes on tmpfs (/dev/shm) when there is one and no --root was given.'
case " $* ${DIRC_TEST_OPTS-} " in
*" --root"*) ;;
*) test -d /dev/shm && test -w /dev/shm && set -- "$@" --root=/dev/shm ;;
esac
. ./test-lib.sh
. "$TEST_DIRECTORY/lib-crash.sh"

if ! test_have_prereq LONG
then
	skip_all='a long test: run with DIRC_TEST_LONG=1 (make test-long)'
	test_done
fi

SEED=${DIRC_CRASH_SEED:-1}
KILLS=${DIRC_CRASH_KILLS:-60}

# make_tree DIR: 30 directories of 10 subdirectories of 10 files
make_tree () {
	awk -v top="$1" 'BEGIN {
		for (d = 0; d < 30; d++)
			for (s = 0; s < 10; s++) {
				dir = sprintf("%s/d%02d/s%d", top, d, s)
				system("mkdir -p \"" dir "\"")
				for (f = 0; f < 10; f++) {
					p = dir "/f" f
					for (l = 0; l < 3 + (d * 7 + s * 3 + f) % 40; l++)
						print "line " l " of " p > p
					close(p)
				}
			}
	}'
}

test_expect_success 'templates: 3,000 new files; the same tree with history' '
	git init -q tpl.add &&
	make_tree tpl.add &&
	git init -q hist &&
	make_tree hist &&
	(
		cd hist &&
		git config core.checkStat minimal &&
		git add . &&
		test_tick &&
		git commit -q -m one &&
		for d in d03 d11 d27
		do
			for f in $d/s*/f1
			do
				echo changed >>"$f" || return 1
			done || return 1
		done &&
		git rm -q -r d05 &&
		mkdir -p new/deep &&
		echo fresh >new/deep/file &&
		git add . &&
		test_tick &&
		git commit -q -m two &&
		git branch next &&
		git reset -q --hard HEAD^ &&
		git gc -q
	)
'

test_expect_success "update-cache --add of the whole tree, $KILLS random kills" '
	crash_prepare add "find d* -type f | dirc update-cache --add --stdin" &&
	crash_random add $KILLS $SEED
'

test_expect_success "update-cache --refresh of a touched tree, $KILLS random kills" '
	cp -a hist tpl.refresh &&
	(
		cd tpl.refresh &&
		git ls-files | xargs touch -d "2020-01-01 00:00:00"
	) &&
	crash_prepare refresh "dirc update-cache --refresh" &&
	crash_random refresh $KILLS $SEED
'

test_expect_success "write-tree with no trees stored, $KILLS random kills" '
	git init -q tpl.wtree &&
	make_tree tpl.wtree &&
	git -C tpl.wtree add . &&
	crash_prepare wtree "dirc write-tree" &&
	crash_random wtree $KILLS $SEED
'

test_expect_success "read-tree -m -u to the next commit, $KILLS random kills" '
	cp -a hist tpl.rtree &&
	crash_prepare rtree "dirc read-tree -m -u next" \
		"dirc read-tree --reset -u next" &&
	crash_random rtree $KILLS $SEED
'

test_expect_success "checkout-index -a -u -f of half the tree, $KILLS random kills" '
	cp -a hist tpl.co &&
	rm -r tpl.co/d1* tpl.co/d2* &&
	crash_prepare co "dirc checkout-index -a -u -f" &&
	crash_random co $KILLS $SEED
'

test_expect_success "update-cache of 300 changed files, $KILLS random kills" '
	cp -a hist tpl.change &&
	(
		cd tpl.change &&
		for f in d*/s3/f*
		do
			echo more >>"$f" || return 1
		done
	) &&
	crash_prepare change "git ls-files -m | dirc update-cache --stdin" &&
	crash_random change $KILLS $SEED
'

test_expect_success 'the timer killed dirc hundreds of times' '
	echo "# seed $SEED: ${crash_kills:-0} kills survived" \
		"(${crash_mid:-0} after a durable step)," \
		"${crash_done:-0} runs finished first" &&
	test "${crash_kills:-0}" -ge $((KILLS * 6 / 2))
'

test_done
