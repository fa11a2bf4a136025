#!/bin/sh
test_description='filter.<d>.process: git'\''s long-running filter protocol

lib/filter against our own filter (lib-filter/process.pl) and git
against the same filter, same files, same configuration: the bytes
stored and written, the requests the filter saw (its log: one start for
a whole command, the keys of each request, can-delay only where git
offers it), and the messages and exit codes when the filter reports an
error, aborts, dies, closes early, sends garbage or packets too long,
or botches the handshake.  dirc test-tool filter stands for the
commands (one session, the files in the order given); git runs
hash-object (clean) and checkout-index or read-tree -u (smudge).'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-filter.sh

if ! test_have_prereq PERL
then
	skip_all='perl is missing: no filter to talk to'
	test_done
fi

FILES="a b.txt d/c"

# clean_like_git FILE...: git hash-object -w FILE... and test-tool
# filter clean f FILE... store the same bytes, say the same, exit alike,
# and the filter saw the same requests
clean_like_git () {
	rm -f filter.log &&
	git hash-object -w -- "$@" >oids 2>git.err
	echo $? >git.code &&
	mv filter.log git.log 2>/dev/null || : >git.log
	tt_filter clean f "$@" &&
	mv filter.log dirc.log 2>/dev/null || : >dirc.log
	test_cmp git.code dirc.code &&
	test_cmp git.err dirc.err &&
	test_cmp git.log dirc.log &&
	if test "$(cat git.code)" = 0
	then
		i=0 &&
		for f
		do
			i=$((i + 1)) &&
			git cat-file blob $(sed -n ${i}p oids) >expect &&
			test_cmp expect "$f.out" || return 1
		done
	fi
}

# smudge_like_git GITCMD [--delay] FILE...: git GITCMD (checkout-index
# -a or read-tree -u) in g/, a repository of the files as they are, and
# test-tool filter [--delay] --blob smudge f FILE... write the same
# bytes, say the same, and the filter saw the same requests.  The exit
# codes are compared by the caller.
smudge_like_git () {
	sg_cmd=$1 &&
	shift &&
	sg_delay= &&
	if test "$1" = --delay
	then
		sg_delay=--delay &&
		shift
	fi &&
	rm -rf g filter.log &&
	git init -q g &&
	cp .gitattributes g/ &&
	for f in $FILES
	do
		mkdir -p "g/$(dirname "$f")" &&
		cp "$f" "g/$f" || return 1
	done &&
	(
		cd g &&
		git add $FILES &&
		git config filter.f.process "$(git -C .. config filter.f.process)" &&
		if git -C .. config filter.f.required >/dev/null
		then
			git config filter.f.required "$(git -C .. config filter.f.required)"
		fi &&
		rm $FILES &&
		case $sg_cmd in
		checkout-index)
			git checkout-index -a 2>../git.err ;;
		read-tree)
			tree=$(git write-tree) &&
			rm .git/index &&
			git read-tree --reset -u $tree 2>../git.err ;;
		esac
		echo $? >../git.code
	) &&
	mv filter.log git.log 2>/dev/null || : >git.log
	tt_filter $sg_delay --blob smudge f "$@" &&
	mv filter.log dirc.log 2>/dev/null || : >dirc.log
	test_cmp git.err dirc.err &&
	test_cmp git.log dirc.log &&
	for f
	do
		if test -f "g/$f"
		then
			test_cmp "g/$f" "$f.out" || return 1
		fi
	done
}

test_expect_success 'setup' '
	git init -q . &&
	echo "* filter=f" >.gitattributes &&
	echo ".gitattributes -filter" >>.gitattributes &&
	printf "Hello World\nabc\n" >a &&
	printf "txt\n" >b.txt &&
	mkdir d &&
	printf "in d\n" >d/c
'

test_expect_success GIT 'rot13 through one process for all files: git'\''s bytes and requests' '
	git config filter.f.process "$(filter_proc rot13)" &&
	clean_like_git $FILES &&
	test $(grep -c START dirc.log) = 1 &&
	test $(grep -c "^clean " dirc.log) = 3 &&
	printf "Uryyb Jbeyq\\nnop\\n" >expect.rot &&
	test_cmp expect.rot a.out
'

test_expect_success GIT 'smudge: one process, blob ids, no can-delay in checkout-index' '
	smudge_like_git checkout-index $FILES &&
	test_cmp git.code dirc.code &&
	test $(grep -c START dirc.log) = 1 &&
	test $(grep -c "^smudge .* blob " dirc.log) = 3 &&
	! grep can-delay dirc.log
'

test_expect_success GIT 'content past one packet (3 MiB) both ways' '
	awk "BEGIN { for (i = 0; i < 150000; i++) printf \"Line %d of a big file\\n\", i }" >big &&
	clean_like_git big a &&
	tt_filter smudge f big.out &&
	test_cmp big big.out.out
'

test_expect_success GIT 'empty content' '
	: >empty &&
	clean_like_git empty a &&
	test_must_be_empty empty.out
'

test_expect_success GIT 'only the capabilities the filter takes' '
	git config filter.f.process "$(filter_proc rot13 caps=smudge)" &&
	clean_like_git $FILES &&
	test_cmp a a.out &&
	test $(grep -c "^clean" dirc.log) = 0
'

for req in false true
do
	test_expect_success GIT "status=error, required=$req" '
		git config filter.f.required $req &&
		git config filter.f.process "$(filter_proc rot13 error=^b)" &&
		clean_like_git a b.txt d/c &&
		git config filter.f.process "$(filter_proc rot13 late-error=^b)" &&
		clean_like_git a b.txt d/c
	'

	test_expect_success GIT "status=abort: the capability is not used again, required=$req" '
		git config filter.f.process "$(filter_proc rot13 abort=^b)" &&
		clean_like_git a b.txt d/c &&
		if test $req = false
		then
			test_cmp d/c d/c.out &&
			! grep "^clean d/c" dirc.log
		fi
	'

	test_expect_success GIT "the filter dies, closes early: restarted for the next file, required=$req" '
		git config filter.f.process "$(filter_proc rot13 die=^b)" &&
		clean_like_git a b.txt d/c &&
		if test $req = false
		then
			test $(grep -c START dirc.log) = 2
		fi &&
		git config filter.f.process "$(filter_proc rot13 early=^a)" &&
		clean_like_git a b.txt d/c
	'

	test_expect_success GIT "garbage and packets too long: fatal, required=$req" '
		git config filter.f.process "$(filter_proc rot13 garbage=^b)" &&
		clean_like_git a b.txt d/c &&
		echo 128 >expect.code &&
		test_cmp expect.code dirc.code &&
		git config filter.f.process "$(filter_proc rot13 oversize=^b)" &&
		clean_like_git a b.txt d/c &&
		test_cmp expect.code dirc.code
	'

	test_expect_success GIT "bad handshakes, required=$req" '
		for hs in welcome version nocaps badcap die
		do
			git config filter.f.process "$(filter_proc rot13 handshake=$hs)" &&
			clean_like_git a b.txt || return 1
		done
	'

	# Through the shell, a missing command races the handshake: if the
	# shell is gone before the first write, git says "Could not write
	# client identification", else it reads end of file and dies with
	# "the remote end hung up unexpectedly" (git does both; a loaded
	# machine showed each).  The sleep keeps the shell there while the
	# handshake is written, so git and dirc meet the same one.
	test_expect_success GIT "a process command that cannot run, required=$req" '
		git config filter.f.process no-such-filter-process &&
		clean_like_git a b.txt &&
		git config filter.f.process \
			"sleep 1; no-such-filter-process --with-args" &&
		clean_like_git a b.txt
	'

	test_expect_success GIT "smudge errors in checkout-index, required=$req" '
		git config filter.f.process "$(filter_proc rot13 error=^b die=^d/)" &&
		smudge_like_git checkout-index $FILES &&
		if test $req = true
		then
			test_cmp git.code dirc.code
		fi
	'
done

test_expect_success GIT 'delay: read-tree -u offers can-delay, paths come back later' '
	git config filter.f.required false &&
	git config filter.f.process "$(filter_proc rot13 delay=.)" &&
	smudge_like_git read-tree --delay $FILES &&
	test_cmp git.code dirc.code &&
	grep "can-delay=1 delayed" dirc.log &&
	test $(grep -c "^LIST" dirc.log) = 2 &&
	git config filter.f.process "$(filter_proc rot13 delay=. batch=1)" &&
	smudge_like_git read-tree --delay $FILES &&
	test $(grep -c "^LIST" dirc.log) = 4 &&
	git config filter.f.process "$(filter_proc rot13 delay=^b)" &&
	smudge_like_git read-tree --delay $FILES
'

test_expect_success GIT 'delay errors: a path never delivered, one never delayed' '
	git config filter.f.process "$(filter_proc rot13 delay=. forget=^b)" &&
	smudge_like_git read-tree --delay $FILES &&
	echo 1 >expect.code &&
	test_cmp expect.code dirc.code &&
	git config filter.f.process "$(filter_proc rot13 delay=. bogus=zzz)" &&
	smudge_like_git read-tree --delay $FILES &&
	test_cmp expect.code dirc.code &&
	git config filter.f.process "$(filter_proc rot13 delay=. list-die)" &&
	smudge_like_git read-tree --delay $FILES
'

# A process that answers every request, then ends badly when git closes
# its input: git 2.55 (and 2.39) wait for it as they exit (also after a
# fatal error); a death by a signal (bar INT, QUIT, PIPE) is "error:
# <cmd> died of signal <n>", after everything else; an exit status is not
# reported; neither changes the exit code or what was written.
test_expect_success GIT 'a process ending badly after its last answer: checkout-index, update-index' '
	git init -q ends &&
	(
		cd ends &&
		echo "* filter=f" >.gitattributes &&
		echo ".gitattributes -filter" >>.gitattributes &&
		printf "one\n" >a &&
		printf "two\n" >b &&
		git add .gitattributes a b &&
		cp .git/index ../ends.index &&
		for how in 0 3 TERM KILL PIPE INT SEGV
		do
			# required: a fatal error first, the report at exit
			for e in "" error=^b required
			do
				case $e in
				required)
					git config filter.f.required true &&
					e=error=^b ;;
				*)
					git config filter.f.required false ;;
				esac &&
				git config filter.f.process \
					"$(filter_proc rot13 end=$how $e)" &&
				for g in git dirc
				do
					cp ../ends.index .git/index &&
					rm -f a b &&
					{
						$g checkout-index -a -f 2>$g.co.err
						echo $? >$g.co.code
					} &&
					(cat a b 2>/dev/null; :) >$g.co.files &&
					printf "three\n" >a &&
					printf "four\n" >b &&
					{
						$g update-index a b 2>$g.up.err
						echo $? >$g.up.code
					} &&
					$g ls-files -s >$g.up.index || return 1
				done &&
				for f in co.err co.code co.files up.err up.code up.index
				do
					test_cmp git.$f dirc.$f || return 1
				done &&
				case $how in
				TERM|KILL|SEGV)
					grep "died of signal" dirc.co.err &&
					tail -n 1 dirc.up.err >last &&
					grep "died of signal" last ;;
				*)
					! grep "died of signal" dirc.co.err ;;
				esac || return 1
			done
		done
	)
'

test_expect_success GIT_NEW 'a process ending badly after its last answer: git 2.55 says the same' '
	(
		cd ends &&
		git config filter.f.process "$(filter_proc rot13 end=SEGV error=^b)" &&
		git config filter.f.required true &&
		for g in git_new dirc
		do
			cp ../ends.index .git/index &&
			rm -f a b &&
			{
				$g checkout-index -a -f 2>$g.co.err
				echo $? >$g.co.code
			} &&
			printf "five\n" >a &&
			{
				$g update-index a 2>$g.up.err
				echo $? >$g.up.code
			} || return 1
		done &&
		grep "died of signal 11" dirc.co.err &&
		for f in co.err co.code up.err up.code
		do
			test_cmp git_new.$f dirc.$f || return 1
		done
	)
'

test_done
