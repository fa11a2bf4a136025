#!/bin/sh
test_description='sparse checkout: read-tree -m -u, checkout-index, update-cache, ls-files -t against git

core.sparseCheckout with info/sparse-checkout, cone and non-cone: the
skip-worktree bits read-tree -m -u sets and clears, files leaving and
entering the work tree, local changes kept (git'\''s messages and exit
codes), an empty pattern file, git'\''s warnings about cone patterns it
does not recognise; how checkout-index, update-cache, ls-files -t and
diff-files treat skip-worktree entries, and the entries whose files are
present after all; a sparse index read.  Each case runs git in one
twin repository and dirc in the other, from the same state.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-checkout.sh

# the index as stored, the work tree, and what git sees afterwards
checkout_state_ () {
	git -C "$1" -c core.sparsecheckout=false ls-files -s -t &&
	git -C "$1" -c core.sparsecheckout=false ls-files --debug |
		grep -v "^  [cm]time: \|^  dev: " &&
	od -An -tx1 -j4 -N4 "$1/.git/index" &&
	snapshot "$1" &&
	git -C "$1" ls-files -t &&
	git -C "$1" diff-files --name-status
}

# backdate: no entry racily clean
backdate () {
	git ls-files >.git/present &&
	xargs touch -c -d @1600000000 <.git/present &&
	git update-index -q --refresh
}

# start TREE PATTERNS [CONE]: both twins at TREE (HEAD too), with
# PATTERNS (printf format; "-" for no file) applied by git
start () {
	in_both "
		git config core.sparseCheckout false &&
		rm -f .git/index &&
		git clean -q -f -d -x &&
		git reset -q --hard $1 &&
		backdate &&
		rm -f .git/info/sparse-checkout &&
		git config core.sparseCheckoutCone ${3:-false} &&
		if test \"$2\" != -
		then
			mkdir -p .git/info &&
			printf \"$2\" >.git/info/sparse-checkout
		fi &&
		git config core.sparseCheckout true &&
		git read-tree -m -u HEAD >/dev/null 2>&1 &&
		backdate"
}

# patterns PATTERNS [CONE]: new patterns in both twins
patterns () {
	in_both "
		git config core.sparseCheckoutCone ${2:-false} &&
		mkdir -p .git/info &&
		printf \"$1\" >.git/info/sparse-checkout"
}

test_expect_success GIT 'setup' '
	mkdir sub subsub a a/b a/b/c d &&
	echo init >init.t &&
	: >sub/added && : >sub/addedtoo && : >subsub/added &&
	echo 1 >a/x && echo 2 >a/b/y && echo 3 >a/b/c/z && echo 4 >d/w &&
	echo top >top.t &&
	git add . &&
	git commit -q -m one &&
	git tag one &&
	echo modified >>init.t && echo 22 >a/b/y && echo 5 >d/new &&
	git rm -q sub/added &&
	git add . &&
	git commit -q -m two &&
	git tag two &&
	echo base >a/x && git add a/x && git commit -q -m three &&
	git tag three &&
	git clone -q . rg &&
	git clone -q . rd &&
	INTEROP_STATE=twins
'

test_expect_success GIT 'no info/sparse-checkout: bits kept as they are' '
	start one - &&
	in_both "git update-index --skip-worktree init.t && rm init.t" &&
	interop_run read-tree -m -u two &&
	same_result &&
	test_must_be_empty dirc.err
'

test_expect_success GIT 'cone patterns that git sparse-checkout set writes' '
	git clone -q . pw &&
	git -C pw sparse-checkout set --cone a/b sub &&
	printf "/*\n!/*/\n/a/\n!/a/*/\n/a/b/\n/sub/\n" >expect &&
	test_cmp expect pw/.git/info/sparse-checkout &&
	start one "/*\n!/*/\n" true &&
	patterns "$(cat pw/.git/info/sparse-checkout)\n" true &&
	interop_run read-tree -m -u HEAD &&
	same_result &&
	grep "^S .*	d/w$" checkout.by-dirc &&
	grep "^H .*	a/b/c/z$" checkout.by-dirc &&
	grep "^H .*	a/x$" checkout.by-dirc
'

test_expect_success GIT 'cone: narrower, wider, the full cone, only the top' '
	for p in "/*\n!/*/\n/a/\n!/a/*/\n/a/b/\n!/a/b/*/\n" \
		 "/*\n!/*/\n/a/\n" "/*\n" "/*\n!/*/\n" "/a/\n" \
		 "/*\n!/*/\n/A/\n"
	do
		start one "/*\n!/*/\n/sub/\n" true &&
		patterns "$p" true &&
		interop_run read-tree -m -u HEAD &&
		same_result || return 1
	done
'

test_expect_success GIT 'cone: core.ignoreCase folds the directories' '
	start one "/*\n!/*/\n/sub/\n" true &&
	in_both "git config core.ignoreCase true" &&
	patterns "/*\n!/*/\n/A/\n!/A/*/\n/A/B/\n" true &&
	interop_run read-tree -m -u HEAD &&
	same_result &&
	in_both "git config core.ignoreCase false"
'

test_expect_success GIT 'non-cone patterns (git t1011 and more)' '
	for p in "sub\n!sub/added\n" "/*\n!sub\nsub/added\n" "s?b\n" \
		 "!*\n" "a/**/z\n" "a/\n!a/b/\n" "/*\n!/a/\n/a/b/c/\n" \
		 "\\\\#x\n# comment\n\na \n" "d/w/\n"
	do
		start one "*\n" &&
		patterns "$p" &&
		interop_run read-tree -m -u HEAD &&
		same_result || return 1
	done
'

test_expect_success GIT 'an empty file: every entry out (cone or not)' '
	start one "*\n" &&
	patterns "" &&
	interop_run read-tree -m -u HEAD &&
	same_result &&
	! grep "^H " checkout.by-dirc &&
	test_path_is_missing rd/init.t &&
	start one "*\n" &&
	patterns "\n" true &&
	interop_run read-tree -m -u HEAD &&
	same_result
'

test_expect_success GIT '--no-sparse-checkout, and no -u: bits carried' '
	start one "sub/\n" &&
	patterns "*\n" &&
	interop_run read-tree -m -u --no-sparse-checkout two &&
	same_result &&
	start one "sub/\n" &&
	patterns "*\n" &&
	interop_run read-tree -m two &&
	same_result
'

test_expect_success GIT 'a file leaving with local changes stays (a warning)' '
	start one "*\n" &&
	in_both "echo dirty >>a/x" &&
	patterns "sub/\n" &&
	interop_run read-tree -m -u HEAD &&
	same_result &&
	echo 0 >expect.code &&
	test_cmp expect.code dirc.code &&
	cat >expect.err <<-\EOF &&
	error: Path '\''a/x'\'' not uptodate; will not remove from working tree.
	EOF
	test_cmp expect.err dirc.err
'

test_expect_success GIT 'a file leaving with local changes the merge replaces: refused' '
	start one "*\n" &&
	in_both "echo dirty >>init.t" &&
	patterns "sub/\n" &&
	interop_run read-tree -m -u two &&
	same_result &&
	echo 128 >expect.code &&
	test_cmp expect.code dirc.code &&
	state_unchanged
'

test_expect_success GIT 'an out entry with a file that has changed, replaced: refused' '
	start one "sub/\n" &&
	in_both "echo dirty >init.t" &&
	interop_run read-tree -m -u two &&
	same_result &&
	echo 128 >expect.code &&
	test_cmp expect.code dirc.code
'

test_expect_success GIT 'a file in the way of an entry entering: kept (a warning)' '
	start one "sub/\n" &&
	in_both "mkdir -p d && echo mine >d/w" &&
	patterns "*\n" &&
	interop_run read-tree -m -u HEAD &&
	same_result &&
	test_must_be_empty dirc.err &&
	start one "sub/\n" &&
	in_both "mkdir -p d && echo mine >d/new" &&
	patterns "*\n" &&
	interop_run read-tree -m -u two &&
	same_result &&
	start two "init.t\n" &&
	in_both "mkdir -p a/b && echo mine >a/b/y" &&
	patterns "*\n" &&
	interop_run read-tree -m -u HEAD &&
	same_result
'

test_expect_success GIT 'an ignored file in the way of an entry entering: overwritten quietly' '
	ig=$(printf "*.o\n" | git hash-object -w --stdin) &&
	xo=$(echo new | git hash-object -w --stdin) &&
	t4=$({ git ls-tree one && printf "100644 blob $ig\t.gitignore\n"; } |
		git mktree) &&
	t5=$({ git ls-tree $t4 && printf "100644 blob $xo\tx.o\n"; } |
		git mktree) &&
	c4=$(git commit-tree -p one -m four $t4) &&
	c5=$(git commit-tree -p $c4 -m five $t5) &&
	git tag four $c4 &&
	git tag five $c5 &&
	in_both "git fetch -q origin tag four tag five" &&
	echo new >expect &&
	for pat in "/*\n" "/*\n!.gitignore\n"
	do
		for args in "five" "four five"
		do
			# the .gitignore in the work tree, then only in the
			# index (skip-worktree): git reads it from there
			start four "$pat" &&
			in_both "echo mine >x.o" &&
			# shellcheck disable=SC2086
			interop_run read-tree -m -u $args &&
			same_result &&
			test_must_be_empty dirc.err &&
			test_cmp expect rd/x.o || {
				echo "^^^ $pat $args" >&2
				return 1
			}
		done
	done &&
	# the .gitignore enters the checkout in the same update: read as
	# the index had it before (skip-worktree)
	for args in "five" "four five"
	do
		start four "/*\n!.gitignore\n" &&
		in_both "echo mine >x.o" &&
		patterns "/*\n" &&
		# shellcheck disable=SC2086
		interop_run read-tree -m -u $args &&
		same_result &&
		test_must_be_empty dirc.err &&
		test_cmp expect rd/x.o || return 1
	done
'

test_expect_success GIT 'new entries out of the checkout: not written, untracked file kept' '
	start one "init.t\n" &&
	in_both "mkdir -p d && echo mine >d/new" &&
	interop_run read-tree -m -u two &&
	same_result &&
	test_path_is_file rd/d/new &&
	echo mine >expect &&
	test_cmp expect rd/d/new
'

test_expect_success GIT 'removed entries: in and out, with and without files' '
	start two "*\n" &&
	patterns "init.t\n" &&
	interop_run read-tree -m -u one &&
	same_result &&
	start two "init.t\n" &&
	patterns "*\n" &&
	interop_run read-tree -m -u one &&
	same_result &&
	start two "init.t\n" &&
	in_both "mkdir -p d && echo mine >d/new" &&
	interop_run read-tree -m -u one &&
	same_result
'

test_expect_success GIT 'two-way and three-way merges in a sparse checkout' '
	for p in "sub/\n" "a/\n" "*\n" "!a/b/\n*\n"
	do
		start one "$p" &&
		interop_run read-tree -m -u one two &&
		same_result &&
		start two "$p" &&
		interop_run read-tree -m -u one two three &&
		same_result &&
		start two "$p" &&
		interop_run read-tree -m -u three two one &&
		same_result || return 1
	done
'

test_expect_success GIT '--reset -u and -n -u' '
	start one "*\n" &&
	in_both "echo dirty >>a/x" &&
	patterns "sub/\n" &&
	interop_run read-tree --reset -u two &&
	same_result &&
	start one "*\n" &&
	in_both "echo dirty >>a/x" &&
	patterns "sub/\n" &&
	interop_run read-tree -n -m -u two &&
	same_result
'

test_expect_success GIT 'cone patterns git does not recognise: its warnings, non-cone matching' '
	for p in "/*\n!/*/\n/s*b/\n" "/*\n!/*/\nsub/\n" "/*\n!/*/\n!/sub/*/\n" \
		 "/*\n!/*/\n/sub/\n!/sub/*/\n/sub/\n" "/*\n!/*/\n/a/**/\n" \
		 "/*\n!/*/\n/sub\n" "/*\n!/*/\n/a/\n!/a/*\n" "/\n" \
		 "/*\n!/*/\n/a\\\\*/\n"
	do
		start one "*\n" &&
		patterns "$p" true &&
		interop_run read-tree -m -u two &&
		same_result || return 1
	done &&
	start one "*\n" &&
	patterns "/*\n!/*/\n/s*b/\n" true &&
	interop_run read-tree -m -u HEAD &&
	same_result
'

test_expect_success GIT 'ls-files -t: S, and H for a skip-worktree entry whose file is there' '
	start one "sub/\n" &&
	in_both "echo back >init.t && mkdir -p a/b/c/z" &&
	INTEROP_STATE=none &&
	compare_with_git -C rg ls-files -t &&
	compare_with_git -C rg ls-files -t -v &&
	compare_with_git -C rg -c sparse.expectFilesOutsideOfPatterns=true ls-files -t &&
	compare_with_git -C rg diff-files --name-status &&
	INTEROP_STATE=twins
'

test_expect_success GIT 'checkout-index -a and named paths leave skip-worktree entries out' '
	start one "sub/\n" &&
	interop_run checkout-index -a &&
	same_result &&
	interop_run checkout-index -f -a &&
	same_result &&
	interop_run checkout-index init.t &&
	same_result &&
	interop_run checkout-index --ignore-skip-worktree-bits init.t a/x &&
	same_result &&
	start one "sub/\n" &&
	in_both "echo mine >init.t" &&
	interop_run checkout-index -a &&
	same_result &&
	interop_run checkout-index -f -a &&
	same_result
'

test_expect_success GIT 'update-index on skip-worktree entries' '
	INTEROP_DIRC_CMD=update-cache &&
	export INTEROP_DIRC_CMD &&
	start one "sub/\n" &&
	for args in "--refresh" "--really-refresh" "--add init.t" \
		    "--remove init.t" "--remove --ignore-skip-worktree-entries init.t" \
		    "--force-remove init.t" "--no-skip-worktree init.t" \
		    "--skip-worktree sub/addedtoo" "--add --remove a/x d/w"
	do
		interop_run update-index $args &&
		same_result || return 1
	done &&
	in_both "echo mine >init.t && mkdir -p d && echo 4 >d/w" &&
	for args in "--refresh" "--really-refresh" "--add init.t" \
		    "--remove --ignore-skip-worktree-entries init.t" \
		    "--add --remove a/x d/w"
	do
		interop_run update-index $args &&
		same_result || return 1
	done &&
	unset INTEROP_DIRC_CMD
'

test_expect_success GIT 'a sparse index is read (t3133 has the rest)' '
	git clone -q . sp &&
	(
		cd sp &&
		git sparse-checkout init --cone --sparse-index &&
		git sparse-checkout set a >/dev/null 2>&1 &&
		cp .git/index ../sparse-index &&
		git ls-files -t >../expect &&
		dirc ls-files -t >../actual &&
		dirc update-cache --refresh &&
		test_cmp ../sparse-index .git/index
	) &&
	test_cmp expect actual
'

test_expect_success GIT 'bad core.sparseCheckout values: fatal, as git' '
	INTEROP_STATE=none &&
	test_when_finished "git -C rg config core.sparseCheckout false" &&
	git -C rg config core.sparseCheckout maybe &&
	fails_like_git 128 "fatal: bad boolean config value '\''maybe'\'' for '\''core.sparsecheckout'\''" -C rg ls-files &&
	git -C rg config core.sparseCheckout true &&
	git -C rg config core.sparseCheckoutCone maybe &&
	fails_like_git 128 "fatal: bad boolean config value '\''maybe'\'' for '\''core.sparsecheckoutcone'\''" -C rg ls-files &&
	git -C rg config core.sparseCheckoutCone false &&
	INTEROP_STATE=twins
'

test_expect_success GIT 'a directory at info/sparse-checkout: as no file' '
	start one - &&
	in_both "mkdir .git/info/sparse-checkout" &&
	interop_run read-tree -m -u two &&
	same_result &&
	in_both "rmdir .git/info/sparse-checkout"
'

test_expect_success GIT,UNPRIV 'an unreadable info/sparse-checkout: git warns and goes on' '
	start one "sub/\n" &&
	test_when_finished "chown -R 0:0 rg rd 2>/dev/null || :" &&
	test_chown_unpriv rg rd &&
	GIT_CONFIG_COUNT=1 &&
	GIT_CONFIG_KEY_0=safe.directory &&
	GIT_CONFIG_VALUE_0="*" &&
	export GIT_CONFIG_COUNT GIT_CONFIG_KEY_0 GIT_CONFIG_VALUE_0 &&
	test_when_finished "unset GIT_CONFIG_COUNT GIT_CONFIG_KEY_0 GIT_CONFIG_VALUE_0" &&
	in_both "chmod 0 .git/info/sparse-checkout" &&
	checkout_state_ rd >checkout.start &&
	(
		cd rg &&
		run_unpriv git read-tree -m -u two >../git.out 2>../git.err
		echo $? >../git.code
	) &&
	(
		cd rd &&
		run_unpriv dirc read-tree -m -u two >../dirc.out 2>../dirc.err
		echo $? >../dirc.code
	) &&
	same_result &&
	test_grep "^warning: unable to access .*sparse-checkout.: Permission denied" dirc.err &&
	in_both "chmod 644 .git/info/sparse-checkout"
'

test_expect_success GIT '--prefix -u in a sparse checkout: refused' '
	start one "sub/\n" &&
	(
		cd rd &&
		test_expect_code 128 dirc read-tree --prefix=new/ -u one 2>err &&
		test_grep "not supported by dirc" err
	)
'

test_done
