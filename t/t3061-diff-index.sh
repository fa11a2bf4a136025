#!/bin/sh
test_description='diff-index: a tree against the index (--cached) and the work tree, against git

The tree of HEAD against an index with every kind of change staged, and
against a work tree with further changes: added, deleted, modified, mode
and type changes, files whose stat data changed but content did not
(git shows the null id), racily clean entries, assume-unchanged and
skip-worktree entries, intent-to-add entries, unmerged entries, -m,
pathspecs.  With --cached, a directory whose cache-tree node is valid
and names the same tree is skipped without its entries being looked at
(a missing object below it is never read).'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-diff.sh

test_expect_success GIT,SYMLINKS 'setup: HEAD, then changes staged and unstaged' '
	mkdir -p d/e keep t2f &&
	echo 1 >a && echo 2 >b && echo 3 >d/c && echo 4 >d/e/f &&
	echo 5 >keep/k && echo 6 >mode && echo 7 >f2l && ln -s a l2f &&
	echo 8 >t2f/x && echo 9 >f2t && echo 10 >"sp ace" && echo 11 >gone &&
	echo 12 >touched && echo 13 >x.c && echo 14 >staged &&
	git update-index --add a b d/c d/e/f keep/k mode f2l l2f t2f/x f2t \
		"sp ace" gone touched x.c staged &&
	git update-index --add --cacheinfo 160000,$(git hash-object -w a),gl &&
	H=$(git write-tree) &&
	git update-ref refs/heads/master $(commit_tree_of $H) &&
	echo one >a && git update-index a &&
	git update-index --force-remove b && rm b &&
	echo 33 >d/c && echo new >d/new && git update-index --add d/c d/new &&
	chmod +x mode && git update-index --chmod=+x mode &&
	rm f2l && ln -s b f2l && git update-index f2l &&
	rm -r t2f && echo t >t2f &&
	git update-index --force-remove t2f/x && git update-index --add t2f &&
	echo staged2 >staged && git update-index staged &&
	git update-index --cacheinfo 160000,$(git hash-object -w d/c),gl &&
	echo wt >a && echo 44 >d/e/f && rm gone && rm l2f && echo lf >l2f &&
	touch -d @1000000000 touched && chmod +x x.c &&
	rm f2t && mkdir f2t && echo y >f2t/y
'

for args in "" "--cached" "-z" "--cached -z" "--name-only" \
	"--cached --name-status" "--name-status" "--abbrev" "--cached --abbrev=5" \
	"-R" "--cached -R" "-m" "-m --cached" "--quiet" "--exit-code" \
	"--cached --exit-code" "-r" "-t" "-Sone" "--cached -S33" "-S44" "-R -S44" \
	"-s" "--raw" "--diff-filter=A" "--cached --diff-filter=A" \
	"--diff-filter=D" "--cached --diff-filter=M" "-R --diff-filter=A" \
	"--cached --diff-filter=dm" "-m --diff-filter=D" \
	"--cached --exit-code --diff-filter=X" "--quiet --diff-filter=T"
do
	test_expect_success GIT "diff-index $args HEAD" '
		diff_cmp diff-index $args HEAD
	'
done

for ps in "a" "d" "d/" "d/e" "*.c" "d/*" "f2t" "f2t/" "gl" "gl/" "nothing" \
	":(exclude)d" ":!a" "*" "t2f/x" ":(icase)D"
do
	test_expect_success GIT "pathspec '$ps'" '
		diff_cmp diff-index HEAD -- $ps &&
		diff_cmp diff-index --cached HEAD -- $ps
	'
done

test_expect_success GIT 'from a subdirectory' '
	diff_cmp -C d diff-index HEAD &&
	diff_cmp -C d diff-index --cached HEAD -- e
'

test_expect_success GIT 'assume-unchanged and skip-worktree entries keep the index side' '
	git update-index --assume-unchanged d/e/f &&
	git update-index --skip-worktree x.c &&
	diff_cmp diff-index HEAD &&
	diff_cmp diff-index --cached HEAD &&
	git update-index --no-assume-unchanged d/e/f &&
	git update-index --no-skip-worktree x.c
'

test_expect_success GIT 'intent-to-add entries' '
	echo ita >ita && git update-index --add ita &&
	git update-index --force-remove ita && git add -N ita &&
	diff_cmp diff-index HEAD &&
	diff_cmp diff-index --cached HEAD &&
	git update-index --force-remove ita && rm ita
'

test_expect_success GIT 'unmerged entries: U with --cached, the first stage without' '
	cp .git/index index.save &&
	b1=$(echo s1 | git hash-object -w --stdin) &&
	b2=$(echo s2 | git hash-object -w --stdin) &&
	git update-index --force-remove a keep/k &&
	printf "100644 %s 1\ta\n100644 %s 2\ta\n100644 %s 3\ta\n" $b1 $b2 $b1 >info &&
	printf "100644 %s 2\tkeep/k\n100644 %s 2\tnewu\n100644 %s 3\tnewu\n" $b2 $b1 $b2 >>info &&
	git update-index --index-info <info &&
	echo 1 >newu &&
	diff_cmp diff-index --cached HEAD &&
	diff_cmp diff-index HEAD &&
	diff_cmp diff-index -R --cached HEAD &&
	diff_cmp diff-index --cached --name-status HEAD &&
	diff_cmp diff-index --cached -S1 HEAD &&
	diff_cmp diff-index --cached --diff-filter=U HEAD &&
	diff_cmp diff-index --cached --diff-filter=u HEAD &&
	diff_cmp diff-index --diff-filter=U HEAD &&
	rm newu &&
	cp index.save .git/index
'

test_expect_success GIT 'a refreshed index: stat-only changes are gone' '
	{ git update-index --refresh >/dev/null || :; } &&
	diff_cmp diff-index HEAD &&
	touch -d @1000000000 d/c &&
	diff_cmp diff-index HEAD
'

test_expect_success GIT 'racily clean entries are checked by content' '
	echo racy1 >racy && touch -d @2000000000 racy &&
	git update-index --add racy && touch -d @2000000000 .git/index &&
	diff_cmp diff-index HEAD -- racy &&
	echo racy2 >racy && touch -d @2000000000 racy &&
	git config core.trustctime false &&
	diff_cmp diff-index HEAD -- racy &&
	git config --unset core.trustctime &&
	git update-index --force-remove racy && rm racy
'

test_expect_success GIT 'a tree given by id, by commit, by tag' '
	git tag -a -m t taggy HEAD &&
	diff_cmp diff-index --cached $(git rev-parse HEAD^{tree}) &&
	diff_cmp diff-index --cached taggy &&
	diff_cmp diff-index --cached HEAD:d
'

test_expect_success GIT 'setup: a clean index with a valid cache-tree' '
	rm -rf clean &&
	mkdir clean &&
	(
		cd clean &&
		git init -q &&
		mkdir -p p/q r &&
		echo 1 >p/q/f && echo 2 >p/g && echo 3 >r/h && echo 4 >top &&
		git update-index --add p/q/f p/g r/h top &&
		t=$(git write-tree) &&
		git update-ref refs/heads/master $(echo c | git commit-tree $t) &&
		dirc write-tree >/dev/null
	)
'

test_expect_success GIT '--cached on a valid cache-tree: the same as git' '
	diff_cmp -C clean diff-index --cached HEAD &&
	(cd clean && echo 5 >top && git update-index top && dirc write-tree >/dev/null) &&
	diff_cmp -C clean diff-index --cached HEAD &&
	(cd clean && echo 6 >p/q/f && git update-index p/q/f) &&
	diff_cmp -C clean diff-index --cached HEAD
'

test_expect_success GIT '--cached skips a valid subtree: its objects are never read' '
	rm -rf skip &&
	cp -R clean skip &&
	(
		cd skip &&
		git read-tree HEAD &&
		git checkout-index -f -a &&
		git update-index --really-refresh >/dev/null &&
		dirc write-tree >/dev/null &&
		q=$(git rev-parse HEAD:p/q) &&
		f=$(git rev-parse HEAD:p/q/f) &&
		rm -f .git/objects/$(echo $q | cut -c1-2)/$(echo $q | cut -c3-) &&
		rm -f .git/objects/$(echo $f | cut -c1-2)/$(echo $f | cut -c3-) &&
		dirc diff-index --cached --exit-code HEAD >out &&
		test_must_be_empty out
	)
'

test_expect_success GIT 'an invalid cache-tree node is walked' '
	(
		cd skip &&
		echo x >r/h && git update-index r/h &&
		dirc diff-index --cached HEAD >out &&
		git diff-index --cached HEAD >expect &&
		test_cmp expect out
	)
'

test_done
