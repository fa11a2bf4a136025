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
# w (and from w/d for paths.sub), for every path, and compare; with
# EP_STDIN set, the path is CMD's standard input instead.  The number of
# paths run is checked against the lists.
each_path () {
	for ep_list in paths paths.sub
	do
		ep_n=0 &&
		ep_dir=. &&
		if test $ep_list = paths.sub
		then
			ep_dir=d
		fi &&
		while IFS= read -r p
		do
			(
				cd w &&
				cp ../start.index .git/index &&
				if test -n "${EP_STDIN-}"
				then
					printf "%s\n" "$p" >stdin.path &&
					compare_with_git -C $ep_dir -i stdin.path "$@"
				else
					compare_with_git -C $ep_dir "$@" "$p"
				fi
			) || return 1
			ep_n=$((ep_n + 1))
		done <$ep_list &&
		echo $ep_n >ran &&
		test_cmp count${ep_list#paths} ran || return 1
	done
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
