#!/bin/sh
test_description='ls-tree: every option and layout, compared with git

Each case runs git ls-tree and dirc ls-tree on the same repository and
compares exit code, stdout and stderr: -d, -r, -t and their mixes with
the default, --long, --name-only, --name-status, --object-only, -z and
--abbrev layouts; tree-ishes of every kind; gitlinks, symlinks and
executables; names that need quoting; core.quotePath.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh
. "$TEST_DIRECTORY"/lib-trees.sh

test_expect_success GIT 'setup: files, directories, a symlink, a gitlink, an executable' '
	mkdir -p a/b/c a-b a.c d/e &&
	echo top >top &&
	echo one >a/one &&
	echo deep >a/b/c/deep &&
	echo x >a-b/x &&
	echo y >a.c/y &&
	echo e >d/e/f &&
	printf "%s\n" 1 2 3 4 5 6 7 8 9 >a/b/size &&
	echo run >run.sh &&
	chmod +x run.sh &&
	git add . &&
	ln -s top link &&
	git add link &&
	test_tick &&
	git commit -q -m one &&
	git update-index --add --cacheinfo 160000 $(git rev-parse HEAD) sub &&
	git update-index --add --cacheinfo 160000 $(git rev-parse HEAD) a/b/mod &&
	test_tick &&
	git commit -q -m two &&
	git tag -a -m tag v1 &&
	git rev-parse HEAD^{tree} >tree &&
	git rev-parse HEAD:a >tree.a
'

test_expect_success GIT 'modes and layouts: every mix, from the top' '
	n=0 &&
	for mode in "" -d -r -t "-r -t" "-d -r" "-d -t" "-r -d -t"
	do
		for layout in "" -l --long --name-only --name-status \
			--object-only -z "-z -l" "-z --name-only" \
			"--abbrev" "--abbrev=5" "--abbrev -l" \
			"--object-only --abbrev=12" --no-abbrev
		do
			trees_like_git ls-tree $mode $layout HEAD &&
			trees_code 0 &&
			n=$((n + 1)) || return 1
		done || return 1
	done &&
	test $n = 112
'

test_expect_success GIT 'tree-ishes: a commit, a tree, a tag, a subtree, abbreviations' '
	for t in HEAD HEAD~1 master $(cat tree) v1 "v1^{}" "HEAD^{tree}" \
		HEAD:a HEAD:a/b "HEAD:a/b/" $(cat tree.a) "master:" \
		$(git rev-parse --short HEAD) $(git rev-parse --short=5 HEAD) \
		@ "HEAD@{0}" ":/one" HEAD:sub
	do
		trees_like_git ls-tree -r -t "$t" &&
		trees_code 0 || return 1
	done
'

test_expect_success GIT 'bad tree-ishes: names, blobs, missing objects' '
	blob=$(git rev-parse HEAD:top) &&
	git tag tb $blob &&
	for t in nosuch HEAD:nosuch HEAD~9 $blob HEAD:top "HEAD^{blob}" \
		${ZERO_OID%0}1 \
		$(test_oid_fake 1234567890) tb \
		"" ":" "HEAD:../x" "-"
	do
		trees_like_git ls-tree "$t" &&
		trees_code 128 || return 1
	done
'

test_expect_success GIT 'usage: no tree-ish, -h, unknown options, bad --abbrev' '
	trees_like_git ls-tree &&
	trees_code 129 &&
	trees_like_git ls-tree -r &&
	trees_code 129 &&
	trees_like_git ls-tree -h &&
	trees_code 129 &&
	for o in --bogus -x --no-long --no-name-only --abbrev=x \
		--abbrev= "--format" --full-name=1 --long=3 -lx --no-format \
		--name --ful --no-object-only --no-d -dx
	do
		trees_like_git ls-tree $o HEAD &&
		trees_code 129 || return 1
	done
'

test_expect_success GIT 'abbreviated long options, as git takes them' '
	for o in --name-o --name-s --obj --abbr --abbrev=6 --lon --full-t \
		--full-n "--form=%(path)"
	do
		trees_like_git ls-tree -r $o HEAD &&
		trees_code 0 || return 1
	done
'

test_expect_success GIT 'incompatible layouts: git'"'"'s messages, either order' '
	for pair in "--long --name-only" "-l --name-only" "--name-only -l" \
		"--name-only --name-status" "--name-status --object-only" \
		"--object-only --long" "--object-only -l" "-rl --name-only" \
		"--name-only -rl" "--name-status --name-only" \
		"--name-only --name-only --object-only"
	do
		case $pair in
		-l*|-rl*) CMDMODE_FIRST_L=t ;;
		*) CMDMODE_FIRST_L= ;;
		esac &&
		trees_like_git ls-tree $pair HEAD &&
		trees_code 129 || return 1
	done &&
	CMDMODE_FIRST_L= &&
	for o in -l --long --name-only --name-status --object-only
	do
		trees_like_git ls-tree $o --format=x HEAD &&
		trees_code 129 &&
		trees_like_git ls-tree --format=x $o HEAD &&
		trees_code 129 || return 1
	done &&
	trees_like_git ls-tree -l --format=x &&
	trees_code 129 &&
	trees_like_git ls-tree -l -l HEAD &&
	trees_code 0 &&
	trees_like_git ls-tree --name-only --name-only HEAD &&
	trees_code 0
'

test_expect_success GIT 'abbreviations: every --abbrev length, core.abbrev' '
	for n in 0 1 3 4 5 7 12 39 40 41 99 -1 -40
	do
		trees_like_git ls-tree -r --abbrev=$n HEAD &&
		trees_code 0 || return 1
	done &&
	git config core.abbrev 11 &&
	trees_like_git ls-tree -r --abbrev HEAD &&
	trees_like_git ls-tree -r HEAD &&
	git config core.abbrev no &&
	trees_like_git ls-tree -r --abbrev HEAD &&
	git config core.abbrev 2 &&
	! git ls-tree -r HEAD 2>git.err &&
	test_must_fail dirc ls-tree -r HEAD 2>dirc.err &&
	git config --unset core.abbrev &&
	head -n 1 git.err >git.first &&
	head -n 1 dirc.err >dirc.first &&
	test_cmp git.first dirc.first
'

test_expect_success GIT 'names that need quoting: quoted, or as they are with -z' '
	t=$(odd_name_tree) &&
	for o in "" -r "-r -t" --name-only "-r --name-only" "-r -l" \
		"-r --object-only" "-r --full-name"
	do
		trees_like_git ls-tree $o $t &&
		trees_like_git ls-tree -z $o $t || return 1
	done &&
	git config core.quotepath false &&
	trees_like_git ls-tree -r $t &&
	git config core.quotepath true &&
	trees_like_git ls-tree -r $t &&
	git config --unset core.quotepath
'

test_expect_success GIT 'from a subdirectory: names relative to it, --full-name, --full-tree' '
	for dir in . a a/b a/b/c d/e a-b
	do
		for o in "" -r "-r -t" -t -d "-r -d" --name-only "-r --full-name" \
			"--full-tree" "-r --full-tree" "--full-name -t" \
			"--full-tree --full-name" "-r -z" \
			"--no-full-name --full-name" "--full-tree --no-full-tree"
		do
			trees_like_git -C $dir ls-tree $o HEAD &&
			trees_code 0 || return 1
		done || return 1
	done
'

# git 2.39 took --no-full-name for --full-name; 2.55 (and dirc) undo
# --full-name with it: the names are relative again, as by default.
test_expect_success GIT '--no-full-name: relative names, as without the option (git 2.55)' '
	for dir in . a a/b d/e
	do
		for o in "" -r "-r -t" --name-only "--format=%(path)"
		do
			(cd $dir && git ls-tree $o HEAD) >expect &&
			(cd $dir && dirc ls-tree --no-full-name $o HEAD) >actual &&
			test_cmp expect actual &&
			(cd $dir && dirc ls-tree --full-name --no-full-name $o HEAD) \
				>actual &&
			test_cmp expect actual &&
			(cd $dir && git ls-tree --full-name $o HEAD) >expect &&
			(cd $dir && dirc ls-tree --no-full-name --full-name $o HEAD) \
				>actual &&
			test_cmp expect actual || return 1
		done || return 1
	done &&
	(cd a/b && dirc ls-tree --no-full-name HEAD ../../a) >actual &&
	grep "	\.\./$" actual
'

test_expect_success GIT_NEW '--no-full-name, --no-full-tree: as git 2.55' '
	for dir in . a a/b d/e
	do
		for o in --no-full-name "--full-name --no-full-name" \
			"--no-full-name --full-tree" "--full-tree --no-full-name" \
			"-r --no-full-name --full-name" "--full-tree --no-full-tree"
		do
			(cd $dir && git_new ls-tree $o HEAD) >expect &&
			(cd $dir && dirc ls-tree $o HEAD) >actual &&
			test_cmp expect actual &&
			(cd $dir && git_new ls-tree $o -r HEAD) >expect &&
			(cd $dir && dirc ls-tree $o -r HEAD) >actual &&
			test_cmp expect actual || return 1
		done || return 1
	done
'

test_expect_success GIT 'tree-ishes with a relative path, from a subdirectory' '
	for t in "HEAD:./b" "HEAD:./" "HEAD:../a-b" "HEAD:b" ":./b" "HEAD:./nosuch"
	do
		trees_like_git -C a ls-tree "$t" &&
		trees_like_git -C a ls-tree --full-tree -r "$t" || return 1
	done
'

test_expect_success GIT 'a bare repository' '
	git clone -q --bare . bare.git &&
	test_fsck_also bare.git &&
	trees_like_git -C bare.git ls-tree -r -t HEAD &&
	trees_code 0 &&
	trees_like_git -C bare.git ls-tree HEAD a/b &&
	trees_code 0 &&
	trees_like_git -C bare.git ls-tree HEAD ../x &&
	trees_code 128
'

test_expect_success GIT 'no repository' '
	mkdir norepo &&
	(
		GIT_CEILING_DIRECTORIES=$(pwd) &&
		export GIT_CEILING_DIRECTORIES &&
		cd norepo &&
		test_must_fail dirc ls-tree HEAD 2>../err
	) &&
	test_grep "^fatal: not a git repository" err
'

test_lazy_prereq STRACE 'strace -o /dev/null true'

# Abbreviating many ids reads each fan-out directory once (odb_find_prefix
# keeps the listing), as git's loose object cache does: 300 loose blobs
# used to cost an opendir per id and per length tried.
test_expect_success GIT,STRACE 'ls-tree -r --abbrev lists each loose object directory once' '
	git init -q manyloose &&
	(
		cd manyloose &&
		for i in $(test_seq 300)
		do
			echo "blob $i" >f$i || return 1
		done &&
		git add . &&
		t=$(git write-tree) &&
		git ls-tree -r --abbrev $t >git.out &&
		ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
			strace -o trace -e trace=openat \
			dirc ls-tree -r --abbrev $t >dirc.out &&
		test_cmp git.out dirc.out &&
		test_line_count = 300 dirc.out &&
		grep "objects/[0-9a-f][0-9a-f]\"" trace >opens &&
		test $(wc -l <opens) -le 256 &&
		test $(sort opens | uniq -d | wc -l) = 0
	)
'

test_done
