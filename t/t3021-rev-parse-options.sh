#!/bin/sh
test_description='rev-parse: the options scripts use, compared with git

--short=<n> (any n: above 41 it used to overflow a buffer), paths as git
prints them (--path-format, --git-path, --git-common-dir,
--absolute-git-dir) from the top, a subdirectory, a linked worktree, the
git directory and a bare repository, --is-shallow-repository,
--show-object-format, --show-superproject-working-tree, --default,
--end-of-options, --prefix, --sq, --sq-quote, --local-env-vars,
--resolve-git-dir, --since/--until, the output filters and the ref
listing options.  Every case compares exit code, stdout and stderr.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-rev-parse.sh

# A case is two processes, git and dirc; comparing it right away would
# cost one or two more (cmp, sed).  So the loops below run in batches:
#
#   rpb_begin
#	start a batch (in the trash directory's rpb/).
#   rpb_like_git [-C DIR] [-c KEY=VALUE] ARGS...
#	as rp_like_git (lib-rev-parse.sh) runs both, but the exit code,
#	stdout and stderr of each go to rpb/{git,dirc}/<n>.{code,out,err}
#	(stderr only with git 2.39, as rp_same compares it).
#   rpb_end
#	git's usage lines renamed as rp_both does (one sed), all cases
#	compared (one "diff -r"); the first ten that differ are named
#	with their arguments and shown.
rpb_begin () {
	rm -rf "$TRASH_DIRECTORY/rpb" &&
	mkdir -p "$TRASH_DIRECTORY/rpb/git" "$TRASH_DIRECTORY/rpb/dirc" &&
	rpb_n=0 &&
	if test_have_prereq GIT_MSGS
	then
		rpb_errs=t
	else
		rpb_errs=
	fi
}

rpb_one_ () {
	rpb_who=$1
	shift
	(
		cd "$rpb_dir" &&
		if test -n "$rpb_config"
		then
			GIT_CONFIG_COUNT=1 &&
			GIT_CONFIG_KEY_0=${rpb_config%%=*} &&
			GIT_CONFIG_VALUE_0=${rpb_config#*=} &&
			export GIT_CONFIG_COUNT GIT_CONFIG_KEY_0 \
				GIT_CONFIG_VALUE_0
		fi &&
		exec "$rpb_who" rev-parse "$@" \
			>"$TRASH_DIRECTORY/rpb/$rpb_who/$rpb_n.out" \
			2>"$TRASH_DIRECTORY/rpb/$rpb_who${rpb_errs:+/$rpb_n}.err"
	)
	echo $? >"$TRASH_DIRECTORY/rpb/$rpb_who/$rpb_n.code"
}

rpb_like_git () {
	rpb_dir=.
	rpb_config=
	while :
	do
		case $1 in
		-C)	rpb_dir=$2 && shift 2 ;;
		-c)	rpb_config=$2 && shift 2 ;;
		*)	break ;;
		esac
	done
	rpb_n=$((rpb_n + 1))
	rpb_where=
	test "$rpb_dir" = . || rpb_where=" (in $rpb_dir)"
	printf "%s %s\n" $rpb_n "${rpb_config:+-c $rpb_config }$*$rpb_where" \
		>>"$TRASH_DIRECTORY/rpb/cases"
	rpb_one_ git "$@" &&
	rpb_one_ dirc "$@"
}

rpb_end () {
	(
		cd "$TRASH_DIRECTORY/rpb" &&
		if test -n "$rpb_errs"
		then
			sed -i -e "s/^usage: git rev-parse/usage: dirc rev-parse/" \
				-e "s/^   or: git rev-parse/   or: dirc rev-parse/" \
				-e "s/\"git rev-parse --parseopt -h\"/\"dirc rev-parse --parseopt -h\"/" \
				git/*.err
		fi &&
		# what git 2.39 prints where the git dirc follows differs
		if test -n "${RPB_GIT_OUT_SED-}"
		then
			sed -i -e "$RPB_GIT_OUT_SED" git/*.out
		fi &&
		# "Files git/12.out and dirc/12.out differ" or "Only in
		# git: 12.out", a line a file in name order: the lines of
		# one case are together
		diff -rq git dirc >differ
		case $? in
		0)	exit 0 ;;
		1)	;;
		*)	echo "diff -r failed" && exit 1 ;;
		esac
		re_bad=0
		re_last=
		while read -r re_a re_b re_c re_d
		do
			case $re_a in
			Files)	re_c=${re_b##*/} ;;
			*)	re_c=${re_d##*/} ;;
			esac
			re_c=${re_c%.*}
			test "$re_c" != "$re_last" || continue
			re_last=$re_c
			re_bad=$((re_bad + 1))
			test $re_bad -le 10 || continue
			while read -r re_i re_args
			do
				test "$re_i" != "$re_c" || break
			done <cases
			for re_x in code out err
			do
				if test -f git/$re_c.$re_x
				then
					diff -u git/$re_c.$re_x dirc/$re_c.$re_x
				fi
			done
			echo "^^^ for rev-parse $re_args"
		done <differ
		echo "$re_bad cases differ"
		exit 1
	)
}

test_expect_success GIT 'setup: history, a tag, branches, a remote, a worktree' '
	mkdir -p sub/dir work &&
	echo a >a &&
	echo b >sub/dir/b &&
	git add a sub/dir/b &&
	git commit -q -m one &&
	git tag -a -m ann v1 &&
	echo a2 >a &&
	git commit -q -a -m two &&
	git branch side HEAD~1 &&
	git branch feat/x &&
	git update-ref refs/remotes/origin/master HEAD~1 &&
	git update-ref refs/remotes/origin/HEAD HEAD~1 &&
	git worktree add -q wt side &&
	mkdir -p wt/deep/er &&
	git clone -q --bare . bare.git &&
	test_fsck_also bare.git
'

# short_above_40 N: --short=N (and with --verify) prints the first N
# digits of HEAD's id, all of them when N is more: what git prints since
# 2.46 (07658e9ce5).  git 2.39 caps N at 40 in a SHA-256 repository too
# (it takes the length before it finds the repository), so there dirc is
# not compared with git but with that.
short_above_40 () {
	printf "%.${1}s\n" "$(git rev-parse HEAD)" >expect.short &&
	dirc rev-parse --short=$1 HEAD >dirc.out 2>dirc.err &&
	test_cmp expect.short dirc.out &&
	test_must_be_empty dirc.err &&
	dirc rev-parse --verify --short=$1 HEAD >dirc.out 2>dirc.err &&
	test_cmp expect.short dirc.out &&
	test_must_be_empty dirc.err
}

test_expect_success GIT '--short=<n>: every n from 0 to 45, and what strtoul reads' '
	rpb_begin &&
	if test_have_prereq SHA256
	then
		above="63 64 65"
	else
		above=
	fi &&
	for n in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 \
		21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 \
		41 42 43 44 45 $above 100 -1 -5 abc 12abc 4294967300 \
		99999999999999999999 ""
	do
		case $OID_ALGO,$n in
		sha256,4[1-9]|sha256,6[0-9]|sha256,100)
			short_above_40 $n ;;
		*)
			rpb_like_git --short=$n HEAD &&
			rpb_like_git --verify --short=$n HEAD ;;
		esac || return 1
	done &&
	rpb_end &&
	n=$((OID_HEXSZ + 2)) &&
	if test_have_prereq SHA1
	then
		rp_like_git --short=$n HEAD &&
		rp_code 0
	else
		dirc rev-parse --short=$n HEAD >dirc.out
	fi &&
	git rev-parse HEAD >expect &&
	test_cmp expect dirc.out
'

test_expect_success GIT '--short and --verify take one name; --short alone' '
	rp_each_like_git --short "--short HEAD" &&
	rp_like_git --short HEAD master &&
	rp_like_git --short HEAD~1 &&
	rp_like_git --short --not HEAD
'

paths_like_git () {
	pl_dir=$1 &&
	shift &&
	rpb_begin &&
	for fmt in "" --path-format=absolute --path-format=relative
	do
		for o in --git-dir --git-common-dir --show-toplevel \
			--absolute-git-dir --show-prefix --show-cdup \
			--is-inside-git-dir --is-inside-work-tree \
			--is-bare-repository
		do
			rpb_like_git -C "$pl_dir" $fmt $o || return 1
		done &&
		for p in objects objects/foo/bar HEAD index logs/HEAD \
			refs/heads refs/bisect info/sparse-checkout config \
			hooks foo
		do
			rpb_like_git -C "$pl_dir" $fmt --git-path $p || return 1
		done || return 1
	done &&
	rpb_end
}

test_expect_success GIT 'paths from the top, as git prints them' '
	paths_like_git .
'

test_expect_success GIT 'paths from a subdirectory' '
	paths_like_git sub/dir
'

test_expect_success GIT 'paths from a linked worktree and below it' '
	paths_like_git wt &&
	paths_like_git wt/deep/er
'

test_expect_success GIT 'paths from the git directory and below it' '
	paths_like_git .git &&
	paths_like_git .git/objects
'

test_expect_success GIT 'paths in a bare repository' '
	paths_like_git bare.git &&
	paths_like_git bare.git/refs
'

test_expect_success GIT 'paths with GIT_DIR and GIT_WORK_TREE given' '
	(
		GIT_DIR=../.git &&
		export GIT_DIR &&
		paths_like_git work
	) &&
	(
		GIT_DIR="$TRASH_DIRECTORY/.git" &&
		GIT_WORK_TREE="$TRASH_DIRECTORY/sub" &&
		export GIT_DIR GIT_WORK_TREE &&
		paths_like_git . &&
		paths_like_git sub/dir
	) &&
	(
		GIT_DIR=. &&
		export GIT_DIR &&
		paths_like_git bare.git
	)
'

test_expect_success GIT '--path-format: a missing or bad argument, a change midway' '
	rp_like_git --path-format &&
	rp_code 128 &&
	rp_like_git --path-format=bogus &&
	rp_like_git --path-format=absolute --git-dir --path-format=relative \
		--git-path objects/foo/bar &&
	rp_like_git --path-format=relative --absolute-git-dir &&
	rp_like_git --git-path &&
	rp_code 128
'

test_expect_success GIT '--is-shallow-repository' '
	rp_like_git --is-shallow-repository &&
	echo false >expect &&
	test_cmp expect dirc.out &&
	git clone -q --depth 1 --no-local . shallow &&
	rp_like_git -C shallow --is-shallow-repository &&
	echo true >expect &&
	test_cmp expect dirc.out &&
	test_fsck_also shallow
'

test_expect_success GIT '--show-object-format and its modes' '
	rp_each_like_git --show-object-format --show-object-format=storage \
		--show-object-format=input --show-object-format=output \
		--show-object-format=bogus --show-object-format=
'

test_expect_success '--show-ref-format and --output-object-format (git 2.45)' '
	dirc rev-parse --show-ref-format --show-object-format >actual &&
	printf "files\n%s\n" $OID_ALGO >expect &&
	test_cmp expect actual &&
	dirc rev-parse HEAD >expect &&
	dirc rev-parse --output-object-format=$OID_ALGO HEAD >actual &&
	test_cmp expect actual &&
	dirc rev-parse --output-object-format=storage HEAD >actual &&
	test_cmp expect actual &&
	for bad in sha1 sha256 bogus ""
	do
		test $bad = $OID_ALGO && continue
		test_expect_code 128 dirc rev-parse --output-object-format=$bad \
			HEAD >out 2>err &&
		test_must_be_empty out &&
		echo "fatal: unsupported object format: $bad" >expect &&
		test_cmp expect err || return 1
	done &&
	test_expect_code 128 dirc rev-parse --output-object-format HEAD 2>err &&
	echo "fatal: no object format specified" >expect &&
	test_cmp expect err
'

test_expect_success GIT_NEW 'git 2.55: --show-ref-format and --output-object-format alike' '
	for args in --show-ref-format "--output-object-format=$OID_ALGO HEAD" \
		"--output-object-format=storage --short HEAD" \
		"--output-object-format=bogus HEAD" "--output-object-format HEAD"
	do
		{ git_new rev-parse $args >expect 2>expect.err; echo $? >>expect; } &&
		{ dirc rev-parse $args >actual 2>actual.err; echo $? >>actual; } &&
		test_cmp expect actual &&
		test_cmp expect.err actual.err || return 1
	done
'

test_expect_success GIT '--show-superproject-working-tree' '
	rp_like_git --show-superproject-working-tree &&
	test_must_be_empty dirc.out &&
	git init -q super &&
	git -C super commit -q --allow-empty -m super &&
	git init -q subm &&
	git -C subm commit -q --allow-empty -m sub &&
	git -C super -c protocol.file.allow=always submodule add -q \
		../subm dir/sub >/dev/null 2>&1 &&
	rp_like_git -C super/dir/sub --show-superproject-working-tree &&
	echo "$TRASH_DIRECTORY/super" >expect &&
	test_cmp expect dirc.out &&
	rp_like_git -C super/dir/sub --path-format=relative \
		--show-superproject-working-tree &&
	rp_like_git -C super --show-superproject-working-tree &&
	rp_like_git -C subm --show-superproject-working-tree
'

test_expect_success GIT '--default: used when no name is given' '
	rpb_begin &&
	for args in "--default master" "--default master HEAD" \
		"--verify --default master" "--default master --verify" \
		"--verify --default master HEAD" "--verify HEAD --default master" \
		"--verify nosuch --default master" "--default HEAD --verify bar" \
		"--default nosuch --verify" "--verify --default bar" \
		"--default" "--default master --short" "--default master a" \
		"--default master -- a"
	do
		rpb_like_git $args || return 1
	done &&
	rpb_end
'

test_expect_success GIT '--end-of-options: what follows is no option' '
	git update-ref refs/heads/-tricky HEAD &&
	test_when_finished "git update-ref -d refs/heads/-tricky" &&
	rp_like_git --verify --end-of-options -tricky &&
	rp_like_git --end-of-options HEAD -- path &&
	rp_like_git --end-of-options --not-real -- &&
	rp_code 128 &&
	rp_like_git --end-of-options --not-real &&
	rp_like_git --end-of-options --local-env-vars &&
	rp_like_git -- --local-env-vars &&
	rp_like_git --foo --end-of-options --end-of-options -- x
'

test_expect_success GIT '--prefix: paths and ./ names from that directory' '
	rpb_begin &&
	for args in "--prefix sub/ -- dir/b" "--prefix sub/dir/ b -- b c" \
		"--prefix sub/dir/ HEAD:./b" "--prefix sub/ HEAD:../a" \
		"--prefix sub/ HEAD:a" "--prefix sub/ dir/b" \
		"--prefix sub/ master dir/b" "--prefix nope/ x" \
		"--prefix sub/ --show-prefix" "--prefix" \
		"--prefix sub/ :./dir/b" "--prefix sub/dir/ -- ../../a"
	do
		rpb_like_git $args || return 1
	done &&
	rpb_end
'

test_expect_success GIT '--sq, --sq-quote, --not, --symbolic' '
	rp_like_git --sq HEAD "it'"'"'s" -- "a b" &&
	rp_like_git --sq --symbolic HEAD side &&
	rp_like_git --not HEAD ^side --not master &&
	rp_like_git --sq-quote "it'"'"'s" "c!d" "" "a b" &&
	rp_like_git --sq-quote &&
	rp_like_git HEAD --sq-quote &&
	rp_like_git --symbolic HEAD~1 "^side" v1^{tree} nosuch
'

test_expect_success GIT '--local-env-vars and --resolve-git-dir, also outside a repository' '
	mkdir -p outside/dir &&
	git init -q --separate-git-dir "$TRASH_DIRECTORY/outside/repo" \
		outside/dir &&
	(
		GIT_CEILING_DIRECTORIES=$TRASH_DIRECTORY &&
		export GIT_CEILING_DIRECTORIES &&
		rp_like_git -C outside --local-env-vars &&
		test_grep "^GIT_DIR$" dirc.out &&
		rp_like_git -C outside --resolve-git-dir dir/.git &&
		rp_like_git -C outside --resolve-git-dir repo &&
		rp_like_git -C outside --resolve-git-dir . &&
		rp_like_git -C outside --resolve-git-dir nope &&
		rp_like_git -C outside --resolve-git-dir &&
		rp_like_git -C outside --sq-quote x &&
		rp_like_git -C outside --git-dir &&
		rp_like_git -C outside &&
		rp_code 128
	)
'

test_expect_success GIT '--since, --until, --after, --before as rev-list ages' '
	GIT_TEST_DATE_NOW=1700000000 &&
	export GIT_TEST_DATE_NOW &&
	rpb_begin &&
	for d in now yesterday noon midnight tea 1.year.ago "2 weeks ago" \
		"last friday" 10:30 10pm 2005-04-07 "2005-04-07 12:00" \
		04/07/2005 07.04.2005 "Dec 02" never 1970-01-01T00:00:01Z \
		"3 months ago" "1 year 2 months ago" @1234567890 1234567890 \
		"Thu, 7 Apr 2005 22:13:13 +0200" "two hours ago" bogus ""
	do
		rpb_like_git "--since=$d" "--until=$d" "--after=$d" \
			"--before=$d" || return 1
	done &&
	rpb_end &&
	rp_like_git --since=1970-01-01T00:00:01Z --since=1970-01-01T00:00:01Z \
		--since=1970-01-01T00:00:03Z --since=1970-01-01T00:00:02Z &&
	rp_like_git --revs-only --since=now &&
	rp_like_git --no-flags --since=now
'

test_expect_success GIT 'approxidate across daylight saving changes' '
	GIT_TEST_DATE_NOW=1700000000 &&
	export GIT_TEST_DATE_NOW &&
	rpb_begin &&
	for zone in America/New_York Australia/Lord_Howe Asia/Kolkata
	do
		for d in 2005-04-07 "2005-04-07 12:00" "3 months ago" \
			"2021-03-14 02:30" "2021-11-07 01:30" "6 months ago"
		do
			TZ=$zone rpb_like_git "--since=$d" || return 1
		done || return 1
	done &&
	rpb_end
'

test_expect_success GIT 'filters: --revs-only, --no-revs, --flags, --no-flags, -n' '
	rpb_begin &&
	for args in "--revs-only HEAD a --foo --max-count=3 -- x" \
		"--no-revs HEAD a --foo --max-count=3" \
		"--flags HEAD a --foo --all --max-count=3" \
		"--no-flags HEAD a --foo --max-count=3 -- x" \
		"-n 5 HEAD" "-n" "--revs-only -n 5" "-n5 --no-flags" \
		"--foo --bar=baz -x" "--verify --foo HEAD" "--verify HEAD --foo" \
		"--revs-only a" "--revs-only nosuch" "--no-revs nosuch"
	do
		rpb_like_git $args || return 1
	done &&
	rpb_end
'

# git 2.40 shortens refs/remotes/<x>/HEAD to "<x>" (2.39 matched the
# rule with sscanf, which never took the "/HEAD" suffix): git 2.39's
# "origin/HEAD" is git 2.55's "origin" in this repository.
REMOTE_HEAD_2_40='s|^origin/HEAD$|origin|'

test_expect_success GIT 'refs: --all, --branches, --tags, --remotes, --glob, --exclude, --bisect' '
	RPB_GIT_OUT_SED=$REMOTE_HEAD_2_40 &&
	test_when_finished "RPB_GIT_OUT_SED=" &&
	rpb_begin &&
	for args in --all --branches --tags --remotes --remotes=origin \
		"--branches=f*" "--branches=feat" "--tags=v*" \
		"--glob=refs/heads/*" "--glob=heads" "--glob=refs/tags" \
		"--exclude=s* --branches --branches" "--exclude=*/x --all" \
		"--symbolic --branches" "--symbolic --all" \
		"--symbolic-full-name --branches" "--abbrev-ref --all" \
		"--not --all" "--short --all" --bisect
	do
		rpb_like_git $args || return 1
	done &&
	rpb_end &&
	git update-ref refs/bisect/bad HEAD &&
	git update-ref refs/bisect/good-1 HEAD~1 &&
	rp_like_git --bisect &&
	git update-ref -d refs/bisect/bad &&
	git update-ref -d refs/bisect/good-1
'

test_expect_success '--bisect with the terms of BISECT_TERMS (git 2.55)' '
	test_when_finished "rm -f .git/BISECT_TERMS; dirc update-ref -d refs/bisect/new; dirc update-ref -d refs/bisect/old-1; dirc update-ref -d refs/bisect/bad" &&
	dirc update-ref refs/bisect/new HEAD &&
	dirc update-ref refs/bisect/old-1 HEAD~1 &&
	dirc update-ref refs/bisect/bad HEAD~1 &&
	printf "new\nold\n" >.git/BISECT_TERMS &&
	dirc rev-parse --bisect >actual &&
	printf "%s\n^%s\n" $(dirc rev-parse HEAD HEAD~1) >expect &&
	test_cmp expect actual &&
	rm .git/BISECT_TERMS &&
	dirc rev-parse --bisect >actual &&
	dirc rev-parse HEAD~1 >expect &&
	test_cmp expect actual
'

test_expect_success GIT_NEW 'git 2.55: --bisect with alternate terms alike' '
	test_when_finished "rm -f .git/BISECT_TERMS; dirc update-ref -d refs/bisect/new; dirc update-ref -d refs/bisect/old-1" &&
	dirc update-ref refs/bisect/new HEAD &&
	dirc update-ref refs/bisect/old-1 HEAD~1 &&
	for terms in "new\nold\n" "new\n" "new\r\nold" ""
	do
		printf "$terms" >.git/BISECT_TERMS &&
		git_new rev-parse --bisect >expect &&
		dirc rev-parse --bisect >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success GIT '--symbolic-full-name and --abbrev-ref of refs that clash' '
	git tag side HEAD~1 &&
	git update-ref refs/remotes/side/HEAD HEAD &&
	RPB_GIT_OUT_SED=$REMOTE_HEAD_2_40 &&
	test_when_finished "RPB_GIT_OUT_SED=" &&
	rpb_begin &&
	for args in "--symbolic-full-name side" "--abbrev-ref side" \
		"--abbrev-ref=strict refs/heads/side" \
		"--abbrev-ref=loose refs/heads/side" "--abbrev-ref=bogus HEAD" \
		"--abbrev-ref refs/remotes/origin/HEAD" \
		"--abbrev-ref refs/remotes/origin/master" \
		"--abbrev-ref refs/heads/feat/x" "--symbolic-full-name v1"
	do
		rpb_like_git $args || return 1
	done &&
	rpb_end
'

test_expect_success GIT_NEW 'git 2.55: --abbrev-ref and symbolic-ref --short of every kind of ref' '
	git update-ref refs/remotes/origin/x HEAD &&
	git update-ref refs/remotes/up/HEAD HEAD &&
	git update-ref refs/up HEAD &&
	for ref in refs/remotes/origin/HEAD refs/remotes/up/HEAD refs/up \
		refs/remotes/origin/x refs/heads/side refs/tags/side \
		refs/heads/feat/x
	do
		for strict in "" "-c core.warnAmbiguousRefs=false"
		do
			git_new $strict rev-parse --abbrev-ref $ref >expect 2>&1 &&
			dirc $strict rev-parse --abbrev-ref $ref >actual 2>&1 &&
			test_cmp expect actual || return 1
		done &&
		git symbolic-ref refs/heads/probe-sym $ref &&
		git_new symbolic-ref --short refs/heads/probe-sym >expect &&
		dirc symbolic-ref --short refs/heads/probe-sym >actual &&
		test_cmp expect actual || return 1
	done &&
	git symbolic-ref --delete refs/heads/probe-sym &&
	git update-ref -d refs/up &&
	git update-ref -d refs/remotes/up/HEAD &&
	git update-ref -d refs/remotes/origin/x
'

test_expect_success GIT '-q and --verify: silent failures, several names' '
	rpb_begin &&
	for args in "--verify --quiet" "-q --verify foo" "--verify -q HEAD bar" \
		"--quiet --verify baz HEAD" "-q --verify HEAD HEAD" \
		"-q HEAD master" "-q nosuch" "-q --verify HEAD" \
		"--verify -q HEAD^{blob}" "-q --verify HEAD:nosuch"
	do
		rpb_like_git $args || return 1
	done &&
	rpb_end &&
	rp_like_git -q --verify foo &&
	rp_code 1 &&
	test_must_be_empty dirc.err &&
	test_must_be_empty dirc.out
'

test_expect_success GIT 'usage: -h, and arguments an option needs' '
	rp_like_git -h &&
	rp_code 129 &&
	rp_each_like_git "-h HEAD" --git-path --default --prefix -n \
		--resolve-git-dir &&
	rp_like_git HEAD -h
'

test_expect_success GIT 'settings name resolution reads: bad values are fatal at start' '
	rpb_begin &&
	for c in core.abbrev=3 core.abbrev=41 core.abbrev=$OID_HEXSZ \
		core.abbrev=$((OID_HEXSZ + 1)) core.abbrev=x core.abbrev=no \
		core.abbrev=auto core.abbrev=12 core.disambiguate=bogus \
		core.disambiguate=Tree core.warnambiguousrefs=x \
		core.warnambiguousrefs=false
	do
		rpb_like_git -c $c HEAD &&
		rpb_like_git -c $c --short HEAD || return 1
	done &&
	rpb_end
'

test_done
