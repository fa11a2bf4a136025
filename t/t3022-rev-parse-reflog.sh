#!/bin/sh
test_description='rev-parse: names read from reflogs and branch settings

<ref>@{<n>}, <ref>@{<date>}, @{<n>}, @{-<n>}, <branch>@{upstream},
<branch>@{push}, and git'"'"'s messages when a log is too short ("log for
<ref> only has <n> entries", fatal, silent under -q), too young ("only
goes back to"), empty or missing.  Compared with git: exit code, stdout,
stderr.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-rev-parse.sh

# git's clock for the reflog entries: one day apart, at +0100.
tick_day () {
	GIT_COMMITTER_DATE="$((1000000000 + $1 * 86400)) +0100" &&
	GIT_AUTHOR_DATE=$GIT_COMMITTER_DATE &&
	export GIT_COMMITTER_DATE GIT_AUTHOR_DATE
}

test_expect_success GIT 'setup: three commits a day apart, branch switches' '
	git checkout -q -b main &&
	for i in 1 2 3
	do
		tick_day $i &&
		echo $i >f &&
		git add f &&
		git commit -q -m c$i || return 1
	done &&
	git checkout -q -b side HEAD~1 &&
	git checkout -q main &&
	git checkout -q --detach HEAD~2 &&
	git checkout -q main &&
	git update-ref --create-reflog -m "for refs/test" refs/test HEAD &&
	git update-ref refs/remotes/origin/main HEAD~1 &&
	git update-ref refs/remotes/origin/side HEAD~2 &&
	git config remote.origin.url https://example.invalid/x.git &&
	git config remote.origin.fetch "+refs/heads/*:refs/remotes/origin/*" &&
	git config branch.main.remote origin &&
	git config branch.main.merge refs/heads/main &&
	git config branch.side.remote . &&
	git config branch.side.merge refs/heads/main &&
	git branch nomerge &&
	git config branch.nomerge.remote origin &&
	git config branch.nomerge.merge refs/heads/nope &&
	git branch lonely
'

test_expect_success GIT '<ref>@{<n>}: every entry, and past the oldest' '
	rp_each_like_git main@{0} main@{1} main@{2} main@{3} main@{99999} \
		HEAD@{0} HEAD@{1} HEAD@{6} HEAD@{7} HEAD@{8} @{0} @{1} @{2} \
		@{3} side@{0} side@{1} refs/test@{0} refs/test@{1} \
		nosuch@{1} lonely@{1} @@{1} "main@{ 1}" main@{+1} &&
	rp_like_git main@{3} &&
	rp_code 128 &&
	test_grep "^fatal: log for .main. only has 3 entries$" dirc.err
'

test_expect_success GIT 'a short log under --verify and -q: fatal, silent' '
	for a in main@{3} main@{99999} refs/test@{999} nosuch@{1} main@{2}
	do
		rp_like_git --verify "$a" &&
		rp_like_git -q --verify "$a" &&
		rp_like_git -q "$a" || return 1
	done &&
	rp_like_git -q --verify main@{99999} &&
	rp_code 128 &&
	test_must_be_empty dirc.err &&
	rp_like_git -q --verify main@{99999}^ &&
	rp_like_git -q --verify main@{99999}^{commit}
'

test_expect_success GIT '<ref>@{<date>}: before, within and after the log' '
	GIT_TEST_DATE_NOW=1000500000 &&
	export GIT_TEST_DATE_NOW &&
	rp_each_like_git main@{2001-09-10} main@{2001-09-11} \
		"main@{2001-09-12 12:00}" main@{2001-09-20} main@{1000000000} \
		main@{1000086400} main@{1000172800} main@{99999999} \
		main@{now} main@{yesterday} main@{1.year.ago} main@{bogus} \
		@{yesterday} HEAD@{3.days.ago} main@{never} \
		"main@{1970-01-01 00:00:00 +0000}" &&
	rp_like_git -q --verify refs/test@{1.year.ago} &&
	test_must_be_empty dirc.err
'

test_expect_success GIT '<ref>@{<number>}: a count, a time from 9 digits, as git wraps it' '
	GIT_TEST_DATE_NOW=1000500000 &&
	export GIT_TEST_DATE_NOW &&
	for n in 99999999 100000000 2147483647 2147483648 3000000000 		4294967295 4294967296 4294967297 5000000000 6442450943 		6442450944 99999999999999 12345678901234567890 1x x1 -1
	do
		rp_like_git "main@{$n}" || return 1
	done
'

test_expect_success GIT 'a log with a gap, and one that does not end at the ref' '
	GIT_TEST_DATE_NOW=1000500000 &&
	export GIT_TEST_DATE_NOW &&
	cp .git/logs/refs/heads/main main.log &&
	test_when_finished "cp main.log .git/logs/refs/heads/main" &&
	sed -e "2d" main.log >.git/logs/refs/heads/main &&
	rp_each_like_git main@{2001-09-11} main@{1} main@{2} &&
	sed -e "3d" main.log >.git/logs/refs/heads/main &&
	rp_each_like_git main@{2001-09-20} main@{now} main@{0} &&
	printf "garbage\n" >>.git/logs/refs/heads/main &&
	rp_each_like_git main@{1} main@{2}
'

test_expect_success GIT 'an empty log, and a log file that is a directory' '
	git update-ref refs/heads/empty HEAD &&
	: >.git/logs/refs/heads/empty &&
	rp_each_like_git empty@{0} empty@{1} empty@{now} &&
	rp_like_git -q --verify empty@{1} &&
	rp_like_git -q --verify empty@{0} &&
	git update-ref refs/heads/dirlog HEAD &&
	rm -f .git/logs/refs/heads/dirlog &&
	mkdir -p .git/logs/refs/heads/dirlog/x &&
	rp_each_like_git dirlog@{0} dirlog@{1} dirlog &&
	rm -rf .git/logs/refs/heads/dirlog &&
	git update-ref -d refs/heads/dirlog
'

test_expect_success GIT '@{-<n>}: branches checked out before, and a detached one' '
	rp_each_like_git @{-1} @{-2} @{-3} @{-4} @{-9} @{-0} @{-x} \
		"@{- 1}" @{-1}~1 @{-2}^{tree} x@{-1} @{-1}@{1} @{-2}@{0} &&
	for o in --symbolic-full-name --abbrev-ref --symbolic
	do
		rp_like_git $o @{-1} @{-2} @{-3} || return 1
	done
'

test_expect_success GIT '@{upstream}, @{u}: the remote-tracking ref, or git'"'"'s reason' '
	rp_each_like_git @{u} @{U} @{upstream} main@{u} side@{u} \
		nomerge@{u} lonely@{u} nosuch@{u} HEAD@{u} @{-1}@{u} \
		@{u}~1 main@{u}^{tree} @{u}x a:b@{u} main@{u}@{u} @@{u} &&
	for o in --symbolic-full-name --abbrev-ref
	do
		rp_like_git $o @{u} side@{u} origin/main || return 1
	done &&
	git checkout -q --detach &&
	rp_like_git @{u} &&
	rp_code 128 &&
	git checkout -q main
'

test_expect_success GIT '@{push}: as push.default and the push settings say' '
	rp_each_like_git @{push} main@{push} side@{push} nomerge@{push} \
		lonely@{push} &&
	for c in push.default=current push.default=nothing \
		push.default=upstream push.default=matching \
		remote.origin.push=refs/heads/main:refs/heads/other \
		remote.origin.push=refs/heads/x:refs/heads/other \
		remote.origin.mirror=true remote.pushdefault=nope \
		branch.main.pushremote=.
	do
		for b in main side nomerge
		do
			rp_like_git -c $c --symbolic-full-name $b@{push} ||
			return 1
		done || return 1
	done
'

test_expect_success GIT 'reflog names with --symbolic-full-name and --abbrev-ref' '
	rp_each_like_git --symbolic-full-name --abbrev-ref &&
	for o in --symbolic-full-name --abbrev-ref --symbolic --short
	do
		rp_like_git $o main@{1} @{1} HEAD@{1} refs/test@{0} || return 1
	done
'

test_done
