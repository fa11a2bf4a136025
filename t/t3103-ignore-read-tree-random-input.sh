#!/bin/sh
test_description='ignore rules in read-tree -u, and random ignore files

read-tree -m -u (two- and three-way) may overwrite an untracked file the
ignore rules exclude (.gitignore, info/exclude), with or without
--exclude-per-directory=.gitignore, as git 2.39 does, and still refuses
one they do not: the same exit code, messages, index and files as git,
run in twin repositories.  A tracked directory turning into a file may
take with it untracked files the per-directory .gitignore files exclude
(not info/exclude or core.excludesFile, as in git 2.39).  The option'\''s
own errors.  Then random ignore
files (any bytes: NULs, CRs, unbalanced sets, trailing backslashes, long
runs of stars) and random paths through check-ignore --stdin and
ls-files -o -X: never a signal (check-ignore: 0, 1, or 128 for a path
outside the repository; ls-files: 0), and the same answers as git for
the printable ones.'
. ./test-lib.sh

# twins NAME: make NAME.git and NAME.dirc, the same repository with
# main (a), side (a, file2: "b"), side checked out with file2 untracked
twins () {
	git init -q "$1.git" &&
	(
		cd "$1.git" &&
		echo a >a && git add a &&
		test_tick && git commit -q -m base &&
		git branch side &&
		mkdir -p d && echo b >file2 && echo c >d/f3 &&
		git add file2 d/f3 &&
		test_tick && git commit -q -m main &&
		git checkout -q side
	) &&
	cp -R "$1.git" "$1.dirc"
}

# both_rt NAME ARGS...: read-tree ARGS in each twin; compare exit code,
# stderr, index entries and the files
both_rt () {
	bt_n=$1
	shift
	(cd "$bt_n.git" && git read-tree "$@") >git.out 2>git.err
	echo $? >git.code
	(cd "$bt_n.dirc" && dirc read-tree "$@") >dirc.out 2>dirc.err
	echo $? >dirc.code
	test_cmp git.code dirc.code &&
	test_cmp git.err dirc.err &&
	git -C "$bt_n.git" ls-files -s >git.idx &&
	git -C "$bt_n.dirc" ls-files -s >dirc.idx &&
	test_cmp git.idx dirc.idx &&
	for f in file2 d/f3
	do
		if test -f "$bt_n.git/$f"
		then
			test_cmp "$bt_n.git/$f" "$bt_n.dirc/$f" || return 1
		else
			test_path_is_missing "$bt_n.dirc/$f" || return 1
		fi
	done
}

test_expect_success GIT 'two-way -u over an ignored file, with and without the option' '
	for how in "" "--exclude-per-directory=.gitignore"
	do
		rm -rf t1.git t1.dirc &&
		twins t1 &&
		for s in git dirc
		do
			echo local >t1.$s/file2 &&
			echo file2 >t1.$s/.gitignore || return 1
		done &&
		# shellcheck disable=SC2086
		both_rt t1 -m -u $how side master &&
		echo b >expect &&
		test_cmp expect t1.dirc/file2 || return 1
	done
'

test_expect_success GIT 'info/exclude and a directory pattern count too' '
	rm -rf t2.git t2.dirc &&
	twins t2 &&
	for s in git dirc
	do
		mkdir -p t2.$s/d &&
		echo local >t2.$s/d/f3 &&
		echo "d/" >t2.$s/.git/info/exclude || return 1
	done &&
	both_rt t2 -m -u side master &&
	echo c >expect &&
	test_cmp expect t2.dirc/d/f3
'

test_expect_success GIT 'three-way -u over an ignored file' '
	rm -rf t3.git t3.dirc &&
	twins t3 &&
	for s in git dirc
	do
		echo local >t3.$s/file2 &&
		echo "file*" >t3.$s/.gitignore || return 1
	done &&
	base=$(git -C t3.git merge-base side master) &&
	both_rt t3 -m -u $base side master
'

test_expect_success GIT 'an untracked file not ignored is still refused' '
	rm -rf t4.git t4.dirc &&
	twins t4 &&
	for s in git dirc
	do
		echo local >t4.$s/file2 &&
		echo "!file2" >t4.$s/.gitignore &&
		echo "file2" >t4.$s/.git/info/exclude || return 1
	done &&
	both_rt t4 -m -u side master &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	echo local >expect &&
	test_cmp expect t4.dirc/file2
'

# dtwins NAME: NAME.git and NAME.dirc with commit "dir" (d/a tracked) and
# commit "file" (d a file), "dir" checked out, and in d untracked x.o,
# build/y, sub/z.o
dtwins () {
	git init -q "$1.git" &&
	(
		cd "$1.git" &&
		mkdir d && echo a >d/a && echo o >other &&
		git add d other && test_tick && git commit -q -m dir &&
		git tag dir &&
		git rm -q -r d && echo file >d && git add d &&
		test_tick && git commit -q -m file && git tag file &&
		git checkout -q dir &&
		mkdir d/build d/sub &&
		echo junk >d/x.o && echo b >d/build/y && echo c >d/sub/z.o
	) &&
	cp -R "$1.git" "$1.dirc" &&
	# the copy's stat data are new: removing d/a checks them
	git -C "$1.dirc" update-index -q --refresh
}

# both_tree NAME ARGS...: both_rt, and the same files under d
both_tree () {
	both_rt "$@" &&
	(cd "$1.git" && find d | sort) >git.files &&
	(cd "$1.dirc" && find d | sort) >dirc.files &&
	test_cmp git.files dirc.files
}

test_expect_success GIT 'a directory turning into a file: ignored files in it go, as in git' '
	n=0 &&
	while IFS="|" read -r where rules code
	do
		for args in "-m -u file" "-m -u dir file"
		do
			rm -rf t6.git t6.dirc &&
			dtwins t6 &&
			for s in git dirc
			do
				case $where in
				top) printf "$rules" >t6.$s/.gitignore ;;
				dir) printf "$rules" >t6.$s/d/.gitignore ;;
				info) printf "$rules" >t6.$s/.git/info/exclude ;;
				global)
					printf "$rules" >t6.$s/xf &&
					git -C t6.$s config core.excludesFile "$PWD/t6.$s/xf" ;;
				esac || return 1
			done &&
			# shellcheck disable=SC2086
			both_tree t6 $args &&
			echo "$code" >expect &&
			test_cmp expect dirc.code &&
			n=$((n + 1)) || {
				echo "^^^ $where: $rules ($args)" >&2
				return 1
			}
		done
	done <<-\EOF &&
	top|*.o\nbuild/\n|0
	top|*.o\nbuild\n|0
	top|*.o\n!d/x.o\nbuild/\n|128
	top|*.o\n|128
	dir|*.o\nbuild/\n.gitignore\n|0
	dir|*.o\nbuild/\n|128
	info|*.o\nbuild/\n|128
	global|*.o\nbuild/\n|128
	EOF
	test $n = 16
'

test_expect_success GIT '--exclude-per-directory: its own errors' '
	rm -rf t5.git t5.dirc &&
	twins t5 &&
	both_rt t5 -m --exclude-per-directory=.gitignore side master &&
	test_grep "meaningless unless -u" dirc.err &&
	both_rt t5 -m -u --exclude-per-directory=foo side master &&
	test_grep "argument must be .gitignore" dirc.err &&
	both_rt t5 --reset -u --exclude-per-directory=.gitignore master
'

# rand_files SEED N: N random ignore files ign.K and path lists paths.K,
# printable; and N more with control bytes (binK)
rand_files () {
	awk -v seed="$1" -v n="$2" '
	BEGIN {
		srand(seed)
		alpha = "abc*?[]!#/\\ .-^:{}~"
		for (k = 1; k <= n; k++) {
			lines = int(rand() * 8)
			printf "" >("ign." k)
			for (l = 0; l < lines; l++) {
				len = int(rand() * 12)
				s = ""
				for (c = 0; c < len; c++)
					s = s substr(alpha, 1 + int(rand() * length(alpha)), 1)
				if (rand() < 0.1) s = s "\r"
				print s >("ign." k)
			}
			close("ign." k)
			m = 1 + int(rand() * 6)
			for (l = 0; l < m; l++) {
				len = 1 + int(rand() * 10)
				s = ""
				for (c = 0; c < len; c++)
					s = s substr("abc/.!#x", 1 + int(rand() * 8), 1)
				print s >("paths." k)
			}
			close("paths." k)
		}
	}'
}

test_expect_success GIT 'random ignore files: no crash, answers as git' '
	git init -q r &&
	(cd r && mkdir -p a/b c && : >a/x && : >a/b/y && : >c/z) &&
	rounds=40 &&
	if test_have_prereq LONG
	then
		rounds=600
	fi &&
	rand_files 3 $rounds &&
	k=1 bad=0 crashed=0 &&
	while test $k -le $rounds
	do
		cp ign.$k r/.gitignore &&
		cp ign.$k r/a/.gitignore &&
		{
			(cd r && git check-ignore -v -n --stdin <../paths.$k) \
				>git.out 2>git.err
			echo $? >git.code
			(cd r && dirc check-ignore -v -n --stdin <../paths.$k) \
				>dirc.out 2>dirc.err
			echo $? >dirc.code
		} &&
		read code <dirc.code &&
		if test "$code" -gt 128
		then
			crashed=$((crashed + 1))
		fi &&
		if ! cmp -s git.out dirc.out || ! cmp -s git.code dirc.code
		then
			echo "differs: round $k" >&2 &&
			cat ign.$k paths.$k >&2 &&
			diff -u git.out dirc.out >&2
			bad=$((bad + 1))
		fi &&
		k=$((k + 1)) || return 1
	done &&
	test $k = $((rounds + 1)) &&
	test $bad = 0 &&
	test $crashed = 0
'

test_expect_success 'random bytes as ignore files: never a signal' '
	n=0 rounds=80 &&
	if test_have_prereq LONG
	then
		rounds=2000
	fi &&
	printf "a\0b\n\\\\\n[\n*\0*\n!\n\\\\!\n/\n**\n[[:x:]\n[\\\\]]\n" >seed &&
	while test $n -lt $rounds
	do
		{
			head -c $((n * 7 % 200)) /dev/urandom
			head -c $((n % 50)) seed
			head -c $((n % 13)) /dev/urandom
		} >r/.gitignore &&
		cp r/.gitignore r/a/.gitignore &&
		cp r/.gitignore xfile &&
		{
			(cd r && dirc check-ignore -v -n --stdin <../paths.$((n % 40 + 1))) \
				>out 2>err
			echo $? >code1
			(cd r && dirc ls-files -o -X ../xfile --exclude-standard) \
				>out 2>err
			echo $? >code2
		} &&
		read c1 <code1 && read c2 <code2 &&
		test "$c1" -le 128 && test "$c2" = 0 &&
		n=$((n + 1)) || return 1
	done &&
	test $n = $rounds
'

test_done
