#!/bin/sh
test_description='diff-files, diff-index, diff-tree: bad input and what dirc refuses

Missing and corrupt objects, objects of the wrong type, unknown object
names and paths, bad options, options git has and dirc does not (patch
output, rename detection: refused with exit 128), a bare repository,
a locked index (nothing is written, so nothing is refused).  git'"'"'s
message and exit code where git fails; the index is never changed.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-diff.sh

test_expect_success GIT 'setup' '
	mkdir d && echo 1 >a && echo 2 >d/b &&
	git update-index --add a d/b &&
	t=$(git write-tree) &&
	git update-ref refs/heads/master $(commit_tree_of $t) &&
	echo 3 >a && git update-index a &&
	t2=$(git write-tree) &&
	echo $t >t && echo $t2 >t2
'

t=$(cat t 2>/dev/null) t2=$(cat t2 2>/dev/null)

test_expect_success GIT 'bogus tree with the null id (t4054): raw shows the null id' '
	git init -q bog &&
	(
		cd bog &&
		printf "100644 foo\0" | cat - /dev/zero | head -c $((11 + OID_RAWSZ)) |
			git hash-object -w --stdin -t tree --literally >../bogus &&
		echo bar >foo && git update-index --add foo &&
		git write-tree >../good
	) &&
	bogus=$(cat bogus) good=$(cat good) &&
	empty=$(git hash-object -t tree /dev/null) &&
	diff_cmp -C bog diff-tree $empty $bogus &&
	diff_cmp -C bog diff-tree $bogus $empty &&
	diff_cmp -C bog diff-tree $good $bogus &&
	diff_cmp -C bog diff-tree -R $good $bogus &&
	diff_cmp -C bog diff-index $bogus &&
	diff_cmp -C bog diff-index --cached $bogus
'

test_expect_success GIT 'unknown object names and paths' '
	diff_cmp diff-tree nosuch &&
	diff_cmp diff-tree HEAD nosuch &&
	diff_cmp diff-index nosuch &&
	diff_cmp diff-index --cached HEAD nosuch &&
	diff_cmp diff-files nosuch &&
	diff_cmp diff-files a nosuch &&
	diff_cmp diff-tree HEAD HEAD -- nosuch &&
	diff_cmp diff-tree nosuch -- a
'

# git checks ":!<p>", ":^<p>" and ":/<p>" as the path <p> (rev-parse
# did, the diff commands looked for a file named ":!a")
test_expect_success GIT 'exclude and top magic without --: the path after it is checked' '
	diff_cmp diff-files ":!a" &&
	diff_cmp diff-files ":^a" &&
	diff_cmp diff-files ":!nosuch" &&
	diff_cmp diff-index HEAD ":!a" &&
	diff_cmp diff-index HEAD ":/a" &&
	diff_cmp diff-index HEAD ":/nosuch" &&
	diff_cmp diff-index HEAD ":!" &&
	diff_cmp diff-tree HEAD ":^a"
'

test_expect_success GIT 'a revision that is also a file is ambiguous' '
	echo x >master &&
	diff_cmp diff-index master &&
	diff_cmp diff-index master -- &&
	rm master
'

test_expect_success GIT 'objects of the wrong type' '
	blob=$(git rev-parse HEAD:a) &&
	diff_cmp diff-tree $blob $t &&
	diff_cmp diff-tree $t $blob &&
	diff_cmp diff-tree $blob &&
	diff_cmp diff-tree $t &&
	diff_cmp diff-index $blob &&
	diff_cmp diff-index --cached HEAD:a
'

test_expect_success GIT 'a missing tree object' '
	missing=$(test_oid_fake 1234567890) &&
	sub=$(git rev-parse $t2:d) &&
	bad=$(printf "040000 tree $missing\td\n" | git mktree --missing) &&
	diff_cmp diff-tree $t $bad &&
	diff_cmp diff-tree -r $t $bad &&
	diff_cmp diff-index --cached $bad &&
	diff_cmp diff-tree $missing $t
'

test_expect_success GIT 'usage errors: 129' '
	diff_usage diff-tree &&
	diff_usage diff-tree --bogus HEAD &&
	diff_usage diff-index &&
	diff_usage diff-index HEAD HEAD &&
	diff_usage diff-index -q HEAD &&
	diff_usage diff-files HEAD &&
	diff_usage diff-files --cached &&
	diff_usage diff-files --no-such-option &&
	diff_usage diff-tree -rt $t $t2 &&
	diff_usage diff-index -1 HEAD
'

test_expect_success 'an empty -S string: refused (git aborts on it)' '
	test_expect_code 128 dirc diff-tree -S "" -r $t $t2 >out 2>err &&
	test_grep "^fatal: -S needs a non-empty string" err &&
	test_must_be_empty out
'

test_expect_success GIT 'conflicting formats' '
	diff_cmp diff-tree --name-only --name-status HEAD HEAD &&
	diff_cmp diff-files -s --name-only
'

test_expect_success GIT 'options after the paths' '
	diff_cmp diff-files a -r
'

for opt in -p -u --patch --stat --numstat --shortstat --summary --patch-with-raw \
	--patch-with-stat -U3 --unified=5 --binary --cc
do
	test_expect_success GIT "$opt: patch output is refused (128)" '
		diff_refused "$opt: patch and stat output are not supported by dirc (raw output only)" \
			diff-tree $opt $t $t2 &&
		diff_refused "$opt: patch and stat output are not supported by dirc (raw output only)" \
			diff-index $opt HEAD &&
		diff_refused "$opt: patch and stat output are not supported by dirc (raw output only)" \
			diff-files $opt
	'
done

for opt in -M -C -B -M50% --find-renames --find-copies --find-copies-harder -l10
do
	test_expect_success GIT "$opt: rename and copy detection is refused (128)" '
		diff_refused "$opt: rename and copy detection are not supported by dirc" \
			diff-tree -r $opt $t $t2
	'
done

for opt in -v --pretty --pickaxe-regex -Gx -Oorder --relative \
	--merge-base --ignore-submodules
do
	test_expect_success GIT "$opt: not supported by dirc (128)" '
		diff_refused "$opt: not supported by dirc" diff-tree $opt $t $t2
	'
done

test_expect_success GIT '--diff-filter: git'"'"'s all-or-none "*" is refused (128)' '
	diff_refused "--diff-filter=M*: the all-or-none '"'*'"' is not supported by dirc" \
		diff-tree -r --diff-filter=M* $t $t2 &&
	diff_refused "--diff-filter=*: the all-or-none '"'*'"' is not supported by dirc" \
		diff-files --diff-filter=*
'

test_expect_success GIT '--diff-filter with -c: refused (128)' '
	diff_refused "--diff-filter with -c: not supported by dirc" \
		diff-files -c --raw --diff-filter=M &&
	diff_refused "--diff-filter with -c: not supported by dirc" \
		diff-tree -c --diff-filter=M HEAD
'

test_expect_success GIT '--diff-filter: an unknown class or no value, as git (129)' '
	for args in --diff-filter=Q --diff-filter=Mq --diff-filter=1 \
		--diff-filter=Z --diff-filter
	do
		interop_run diff-tree -r $t $t2 $args &&
		same_result &&
		echo 129 >expect.code &&
		test_cmp_codes expect.code dirc.code &&
		test_cmp git.err dirc.err &&
		test_must_be_empty dirc.out &&
		state_unchanged || return 1
	done
'

test_expect_success GIT 'diff-files -c without a raw format would be a patch: refused' '
	diff_refused "-c: patch and stat output are not supported by dirc (raw output only); add --raw" \
		diff-files -c
'

test_expect_success GIT 'a bare repository: diff-tree works, diff-files needs a work tree' '
	git clone -q --bare . bare.git &&
	diff_cmp -C bare.git diff-tree -r HEAD^{tree} $t2 &&
	diff_cmp -C bare.git diff-files &&
	diff_cmp -C bare.git diff-index HEAD &&
	diff_cmp -C bare.git diff-index --cached HEAD
'

test_expect_success GIT 'a locked index: read as it is (nothing is written)' '
	>.git/index.lock &&
	diff_cmp diff-files &&
	diff_cmp diff-index --cached HEAD &&
	rm .git/index.lock
'

test_expect_success GIT 'a corrupt index: fatal, 128 (dirc names the file by its full path)' '
	cp .git/index index.good &&
	test_when_finished "cp index.good .git/index" &&
	head -c 30 index.good >.git/index &&
	for cmd in "diff-files" "diff-index --cached HEAD" "diff-index HEAD"
	do
		interop_run $cmd &&
		echo 128 >expect.code &&
		test_cmp_codes expect.code git.code &&
		test_cmp_codes expect.code dirc.code &&
		test_grep "^fatal: .*\.git/index: index file smaller than expected$" dirc.err &&
		test_must_be_empty dirc.out || return 1
	done
'

test_expect_success GIT 'an unreadable tree in the middle of a walk' '
	sub=$(git rev-parse $t2:d) &&
	mv .git/objects/$(echo $sub | cut -c1-2)/$(echo $sub | cut -c3-) sub.save &&
	empty=$(git hash-object -t tree /dev/null) &&
	diff_cmp diff-tree -r $empty $t2 &&
	diff_cmp diff-tree $empty $t2 &&
	mkdir -p .git/objects/$(echo $sub | cut -c1-2) &&
	mv sub.save .git/objects/$(echo $sub | cut -c1-2)/$(echo $sub | cut -c3-)
'

test_done
