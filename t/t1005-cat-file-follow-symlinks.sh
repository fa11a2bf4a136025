#!/bin/sh
test_description='cat-file --follow-symlinks: links inside the tree followed as git follows them

A tree of links of every kind (same directory, parent, "..", links to
directories, links to links, broken links, loops, links out of the tree,
absolute links, "./" and "//" in targets, a link into a submodule) is
asked for with --batch-check and --batch, with and without
--follow-symlinks, with git and with dirc: stdout, stderr and exit code
must be equal.'
. ./test-lib.sh
INTEROP_STATE=none
. "$TEST_DIRECTORY"/lib-interop.sh

test_expect_success GIT 'setup: a tree of links (made with git)' '
	printf "Hello World" >morx &&
	mkdir -p dir/subdir &&
	printf x >dir/ind1 &&
	printf y >dir/subdir/ind2 &&
	git add morx dir &&
	add_link () {
		al_id=$(printf "%s" "$1" | git hash-object -w --stdin) &&
		git update-index --add --cacheinfo 120000,$al_id,"$2"
	} &&
	add_link morx same-dir-link &&
	add_link dir link-to-dir &&
	add_link ../fleem out-of-repo-link &&
	add_link .. out-of-repo-link-dir &&
	add_link same-dir-link link-to-link &&
	add_link nope broken-same-dir-link &&
	add_link ../morx dir/parent-dir-link &&
	add_link .. dir/link-dir &&
	add_link ../../escape dir/out-of-repo-link &&
	add_link ../.. dir/out-of-repo-link-dir &&
	add_link nope dir/broken-link-in-dir &&
	add_link ../../morx dir/subdir/grandparent-dir-link &&
	add_link ../../../great-escape dir/subdir/out-of-repo-link &&
	add_link ../../.. dir/subdir/out-of-repo-link-dir &&
	add_link ../../../ dir/subdir/out-of-repo-link-dir-trailing &&
	add_link ../parent-dir-link dir/subdir/parent-dir-link-to-link &&
	add_link dir dirlink &&
	add_link dir/subdir subdirlink &&
	add_link subdir/ind2 dir/link-to-child &&
	add_link dir/link-to-child link-to-down-link &&
	add_link dir/.. up-down &&
	add_link dir/../ up-down-trailing &&
	add_link dir/../morx up-down-file &&
	add_link dir/../../morx up-up-down-file &&
	add_link subdirlink/../../morx up-two-down-file &&
	add_link loop1 loop2 &&
	add_link loop2 loop1 &&
	add_link /etc/passwd absolute &&
	add_link /morx absolute-morx &&
	add_link morx/ slash-link &&
	add_link ./morx dot-link &&
	add_link . self-link &&
	add_link dir//ind1 double-slash &&
	add_link dir/./ind1 dot-middle &&
	add_link dirlink/../morx via-dirlink &&
	add_link dirlink/link-dir/dirlink/ind1 chain &&
	add_link morx/x file-as-dir &&
	add_link sub/foo into-submodule &&
	git update-index --add --cacheinfo \
		160000,$(test_oid_fake 1234567890),sub &&
	test_tick &&
	git commit -q -m links &&
	i=0 &&
	add_link morx l0 &&
	while test $i -lt 42
	do
		add_link l$i l$((i + 1)) &&
		i=$((i + 1)) || return 1
	done &&
	test_tick &&
	git commit -q -m "a chain of 43 links" &&
	git ls-files -s >staged &&
	test_line_count = 85 staged
'

test_expect_success GIT 'every link, with --batch-check and --batch, as git' '
	git ls-files >paths &&
	{
		sed "s/^/HEAD:/" paths &&
		sed "s/^/HEAD:/; s/\$/\\//" paths &&
		sed "s/^/HEAD:/; s/\$/\\/morx/" paths &&
		sed "s/^/HEAD:/; s/\$/\\/ind1/" paths &&
		sed "s/^/HEAD:/; s/\$/\\/nope/" paths
	} >names &&
	test_line_count = 425 names &&
	# HEAD:sub unfollowed is a version difference: see the next test
	grep -v -e "/\$" -e "^HEAD:sub\$" names >no-slash &&
	test_line_count = 339 no-slash &&
	for b in --batch-check --batch "--batch-check=%(objectname) %(rest)"
	do
		compare_with_git -i names cat-file "$b" --follow-symlinks &&
		compare_with_git -i no-slash cat-file "$b" || return 1
	done
'

test_expect_success GIT 'a submodule not here: "<id> submodule" (git 2.50), "missing" when followed' '
	echo HEAD:sub >in &&
	dirc cat-file --batch-check <in >actual &&
	# git 2.39 says "HEAD:sub missing"; 2.50 and later this
	echo "$(test_oid_fake 1234567890) submodule" >expect &&
	test_cmp expect actual &&
	dirc cat-file --batch-check --follow-symlinks <in >actual &&
	echo "HEAD:sub missing" >expect &&
	test_cmp expect actual &&
	git cat-file --batch-check --follow-symlinks <in >expect &&
	test_cmp expect actual
'

test_expect_success GIT_NEW 'a submodule not here: as git 2.55' '
	echo HEAD:sub >in &&
	for o in "" --follow-symlinks
	do
		dirc cat-file --batch-check $o <in >actual &&
		git_new cat-file --batch-check $o <in >expect &&
		test_cmp expect actual || return 1
	done
'

test_expect_success GIT 'the answers git documents: symlink, dangling, notdir, loop' '
	printf "%s\n" HEAD:out-of-repo-link HEAD:broken-same-dir-link \
		HEAD:dir/parent-dir-link/nope HEAD:loop1 HEAD:absolute/x \
		HEAD:dir/subdir/out-of-repo-link-dir-trailing HEAD:l39 HEAD:l40 \
		>documented &&
	compare_with_git -i documented cat-file --batch-check --follow-symlinks &&
	cat >expect <<-EOF &&
	symlink 8
	../fleem
	dangling 25
	HEAD:broken-same-dir-link
	notdir 29
	HEAD:dir/parent-dir-link/nope
	loop 10
	HEAD:loop1
	symlink 11
	/etc/passwd
	symlink 3
	../
	$(git rev-parse HEAD:morx) blob 11
	loop 8
	HEAD:l40
	EOF
	test_cmp expect dirc.out
'

test_expect_success GIT 'paths with "..", "." and "//" of their own, and from a subdirectory' '
	printf "%s\n" HEAD:dir/../morx HEAD:dir/../../x HEAD:.. HEAD:dir/.. \
		HEAD:. HEAD:./dir/./ind1 HEAD:dir/. HEAD:dir/./ind1 \
		HEAD:dir//ind1 HEAD:dir/subdir/../ind1 "HEAD:" HEAD^{tree}:same-dir-link \
		:same-dir-link HEAD:dir:x nosuch:same-dir-link \
		$(git rev-parse HEAD:dir):parent-dir-link \
		$(git rev-parse HEAD:dir):link-dir HEAD:sub HEAD:sub/x >odd &&
	compare_with_git -i odd cat-file --batch-check --follow-symlinks &&
	printf "%s\n" HEAD:./parent-dir-link HEAD:parent-dir-link HEAD:./link-dir/morx \
		HEAD:../morx >sub-names &&
	compare_with_git -C dir -i ../sub-names cat-file --batch-check --follow-symlinks
'

test_expect_success GIT 'with --batch-command, info and contents follow links too' '
	sed "s/^/info /" names >info-cmds &&
	compare_with_git -i info-cmds cat-file --batch-command --follow-symlinks &&
	sed "s/^/contents /" names >contents-cmds &&
	compare_with_git -i contents-cmds cat-file --batch-command --follow-symlinks --buffer
'

test_expect_success GIT 'HEAD:../x from the top leaves the repository: dirc answers "missing"' '
	echo HEAD:../morx >outside &&
	dirc cat-file --batch-check --follow-symlinks <outside >actual &&
	echo "HEAD:../morx missing" >expect &&
	test_cmp expect actual
'

test_done
