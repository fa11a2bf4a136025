#!/bin/sh
test_description='paths from the command line and --stdin, resolved as git resolves them

One normalisation (lib/path.c path_resolve) serves every command that
takes a path: update-index (--add, --remove, --force-remove, --chmod,
--assume-unchanged, --stdin), checkout-index (arguments and --stdin),
ls-files, rev-parse and cat-file ":./path".  Each path below goes through
each of them with git and with dirc from the same state: absolute paths
under a missing directory (git: "Invalid path"), through symlinks into
and out of the work tree, the work-tree root itself, ".." that climbs
out, doubled slashes, and a last "." or ".." that leaves a trailing
slash.  The number of paths each command was given is asserted.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh

test_expect_success GIT,SYMLINKS 'setup: a work tree w, symlinks into and out of it' '
	git init -q w &&
	(
		cd w &&
		echo a >f &&
		mkdir d &&
		echo b >d/g &&
		ln -s d lnk &&
		ln -s .. up &&
		git add f d/g lnk up &&
		test_tick &&
		git commit -q -m one &&
		cp .git/index ../start.index
	) &&
	ln -s w toW &&
	ln -s w/d toD &&
	W=$(pwd -P)/w &&
	T=$(pwd -P) &&
	cat >paths <<-EOF &&
	/nonexistent-dirc-dir/x
	/nonexistent-dirc-dir
	$T/nonexistent-dir/x
	$W/nodir/x
	$W/nodir/sub/x
	$W/f
	$W/../w/f
	$W/..
	$W/../
	$W/../x
	$W
	$W/
	$W/.
	$W/d/
	$W/d/.
	$W/d/..
	$W/f/.
	$W/f/
	$W/lnk/g
	$W/lnk
	$W/up/w/f
	$W/up/x
	$T/toW/f
	$T/toW
	$T/toW/
	$T/toD/g
	$T/toW/nodir/x
	$T/toW/../w/f
	/$W/f
	$W//f
	$W/./d/./g
	$T/wx/f
	/
	/..
	/dev/null/x
	d/.
	d/..
	.
	./
	..
	../w/f
	d/../f
	d/./g
	d//
	d//g
	./f
	f/
	f/.
	lnk/g
	lnk/
	up/w/f
	EOF
	wc -l <paths >count &&
	cat >paths.sub <<-\EOF &&
	.
	..
	../f
	../..
	../../x
	../d/g
	g/..
	./
	../
	../lnk/g
	EOF
	wc -l <paths.sub >count.sub
'

# each_path CMD ARGS...: run "CMD ARGS... <path>" with git and dirc from
# w (and from w/d for paths.sub), for every path, each case from the
# index of start.index, and compare exit code, stdout, stderr (with git
# 2.39) and the index left; with EP_STDIN set, the path is CMD's standard
# input instead.  INTEROP_DIRC_CMD names dirc's command when it differs.
# The number of paths run is checked against the lists.
#
# A case costs what it starts, and all it needs is git and dirc: the
# results go to ep.git/<n>.* and ep.dirc/<n>.*, compared by one "diff -r"
# at the end (the cases that differ are named, with their path), and the
# index is not copied for each case.  w/.git/index is a hard link to
# w/.git/index.start; git and dirc write an index by renaming a new file
# over it (a lock file), so an index that is still index.start ("test
# -ef") is the start index, unwritten.  Only a side that wrote one costs:
# its index is moved to its <n>.index (the other side's <n>.index is then
# index.start) and the link is made again.  index.start is compared with
# start.index at the end: a write in place, not by rename, shows there.
each_path () {
	ep_cmd=$1 &&
	shift &&
	ep_args=$* &&
	rm -rf ep.git ep.dirc ep.cases &&
	mkdir ep.git ep.dirc &&
	if test_have_prereq GIT_MSGS
	then
		ep_errs=t
	else
		ep_errs=
	fi &&
	(
		cd w &&
		ep_top=$PWD &&
		cp ../start.index .git/index.start &&
		ln -f .git/index.start .git/index &&
		ep_in=/dev/null &&
		if test -n "${EP_STDIN-}"
		then
			ep_in=$ep_top/stdin.path
		fi &&
		ep_n=0 &&
		for ep_list in paths paths.sub
		do
			ep_ran=0 &&
			ep_dir=. &&
			if test $ep_list = paths.sub
			then
				ep_dir=d
			fi &&
			while IFS= read -r p
			do
				ep_n=$((ep_n + 1))
				ep_ran=$((ep_ran + 1))
				printf "%s %s\n" "$ep_n" "$p" >>../ep.cases
				if test -n "${EP_STDIN-}"
				then
					printf "%s\n" "$p" >stdin.path
					set --
				else
					set -- "$p"
				fi
				# shellcheck disable=SC2086
				ep_one_ git "$ep_cmd" $ep_args "$@"
				ep_git_wrote=
				if ! test .git/index -ef .git/index.start
				then
					ep_git_wrote=t
					ep_keep_index_ git || exit 1
				fi
				# shellcheck disable=SC2086
				ep_one_ dirc "${INTEROP_DIRC_CMD:-$ep_cmd}" $ep_args "$@"
				if ! test .git/index -ef .git/index.start
				then
					ep_keep_index_ dirc &&
					if test -z "$ep_git_wrote"
					then
						ln .git/index.start ../ep.git/$ep_n.index
					fi || exit 1
				elif test -n "$ep_git_wrote"
				then
					ln .git/index.start ../ep.dirc/$ep_n.index ||
					exit 1
				fi
			done <../$ep_list &&
			echo $ep_ran >../ran &&
			test_cmp ../count${ep_list#paths} ../ran || exit 1
		done &&
		test_cmp ../start.index .git/index.start
	) &&
	ep_same_
}

# ep_one_ WHO CMD ARGS...: one side of case $ep_n, in $ep_dir (from w),
# its results in ../ep.WHO (stderr beside it when it is not compared).
ep_one_ () {
	ep_who=$1
	shift
	if test "$ep_dir" = .
	then
		"$ep_who" "$@" <"$ep_in" >"../ep.$ep_who/$ep_n.out" \
			2>"../ep.$ep_who${ep_errs:+/$ep_n}.err"
	else
		(
			cd "$ep_dir" &&
			exec "$ep_who" "$@" <"$ep_in" \
				>"$ep_top/../ep.$ep_who/$ep_n.out" \
				2>"$ep_top/../ep.$ep_who${ep_errs:+/$ep_n}.err"
		)
	fi
	echo $? >"../ep.$ep_who/$ep_n.code"
}

# ep_keep_index_ WHO: the index WHO wrote (or its absence) to
# ../ep.WHO/$ep_n.index (.noindex), and the start index back.
ep_keep_index_ () {
	if test -f .git/index
	then
		mv -f .git/index "../ep.$1/$ep_n.index"
	else
		: >"../ep.$1/$ep_n.noindex"
	fi &&
	ln -f .git/index.start .git/index
}

# ep_same_: every case of ep.git and ep.dirc alike; the first five that
# differ are shown.
ep_same_ () {
	# "Files ep.git/12.out and ep.dirc/12.out differ" or "Only in
	# ep.git: 12.index", a line a file in name order: the lines of one
	# case are together
	diff -rq ep.git ep.dirc >ep.diff
	case $? in
	0)	return 0 ;;
	1)	;;
	*)	echo "diff -r failed" && return 1 ;;
	esac
	es_bad=0
	es_last=
	while read -r es_a es_b es_c es_d
	do
		case $es_a in
		Files)	es_c=${es_b##*/} ;;
		*)	es_c=${es_d##*/} ;;
		esac
		es_c=${es_c%.*}
		test "$es_c" != "$es_last" || continue
		es_last=$es_c
		es_bad=$((es_bad + 1))
		test $es_bad -le 5 || continue
		while read -r es_i es_p
		do
			test "$es_i" != "$es_c" || break
		done <ep.cases
		echo "differs: case $es_c, path $es_p"
		for es_x in code out err index noindex
		do
			if test -e ep.git/$es_c.$es_x || test -e ep.dirc/$es_c.$es_x
			then
				echo "--- $es_x"
				diff ep.git/$es_c.$es_x ep.dirc/$es_c.$es_x
			fi
		done
	done <ep.diff
	echo "$es_bad cases differ"
	return 1
}

test_expect_success GIT,SYMLINKS 'update-index --add' '
	INTEROP_DIRC_CMD=update-cache each_path update-index --add
'

test_expect_success GIT,SYMLINKS 'update-index --remove' '
	INTEROP_DIRC_CMD=update-cache each_path update-index --remove
'

test_expect_success GIT,SYMLINKS 'update-index --force-remove' '
	INTEROP_DIRC_CMD=update-cache each_path update-index --force-remove
'

test_expect_success GIT,SYMLINKS 'update-index --chmod=+x' '
	INTEROP_DIRC_CMD=update-cache each_path update-index --chmod=+x
'

test_expect_success GIT,SYMLINKS 'update-index --assume-unchanged' '
	INTEROP_DIRC_CMD=update-cache each_path update-index --assume-unchanged
'

test_expect_success GIT,SYMLINKS 'checkout-index' '
	each_path checkout-index
'

test_expect_success GIT,SYMLINKS 'checkout-index -f -u' '
	each_path checkout-index -f -u
'

test_expect_success GIT,SYMLINKS 'ls-files --error-unmatch' '
	each_path ls-files --error-unmatch
'

test_expect_success GIT,SYMLINKS 'update-index --add --stdin' '
	EP_STDIN=1 INTEROP_DIRC_CMD=update-cache each_path update-index --add --stdin
'

test_expect_success GIT,SYMLINKS 'update-index --force-remove --stdin' '
	EP_STDIN=1 INTEROP_DIRC_CMD=update-cache each_path \
		update-index --force-remove --stdin
'

test_expect_success GIT,SYMLINKS 'checkout-index --stdin' '
	EP_STDIN=1 each_path checkout-index --stdin
'

test_expect_success GIT,SYMLINKS 'a last "." or ".." keeps its slash in rev-parse and cat-file names' '
	(
		cd w &&
		for name in HEAD:./f/. HEAD:./d/. HEAD:./d/.. :./f/. :./d/. \
			HEAD:./f/ HEAD:./d//g
		do
			INTEROP_STATE=none compare_with_git rev-parse "$name" &&
			INTEROP_STATE=none compare_with_git -C d rev-parse \
				"HEAD:./g/." || return 1
		done &&
		printf "%s\n" HEAD:./f/. HEAD:./d/. HEAD:./d/g/.. >names &&
		INTEROP_STATE=none compare_with_git -i names cat-file --batch-check &&
		INTEROP_STATE=none compare_with_git -i names cat-file \
			--batch-check --follow-symlinks
	)
'

test_done
