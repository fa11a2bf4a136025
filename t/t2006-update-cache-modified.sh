#!/bin/sh
test_description='one "is this entry modified" for every command, as git decides it

update-cache --refresh, ls-files -m, the paths update-cache is given and
read-tree -u all ask lib/modified whether an index entry still matches
its file.  Each case here is one of its rules: gitlinks (a directory with
no repository in it matches; a different HEAD does not), symlinks with
core.symlinks=false, assume-unchanged, skip-worktree, an fsmonitor
extension git wrote, racy entries, intent-to-add.  Every case runs git and
dirc from the same index (exit code, output and index bytes equal), and
"git diff-files" on what dirc wrote must list what "dirc ls-files -m" and
"git ls-files -m" list.  Times are set with touch -d, never waited for.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh

# put FILE CONTENT [TIME]: write FILE (no newline), dated TIME (default T0).
put () {
	printf "%s" "$2" >"$1" &&
	touch -d @${3:-$T0} "$1"
}

# refresh_like_git [OPTION...]: --refresh (after OPTION...) by both, the
# same exit code, output and index; dirc's output is also in dirc.out.
refresh_like_git () {
	run_both "$@" --refresh &&
	same_result
}

# expect_output LINE...: dirc printed exactly LINE... (nothing if none).
expect_output () {
	if test $# = 0
	then
		test_must_be_empty dirc.out
	else
		test_write_lines "$@" >expect.out &&
		test_cmp expect.out dirc.out
	fi
}

test_expect_success GIT 'setup: a commit to be a submodule, files dated long ago' '
	T0=1500000000 &&
	T1=1600000000 &&
	T2=1700000000 &&
	git init -q sub-src &&
	(
		cd sub-src &&
		echo one >f &&
		git add f &&
		git commit -q -m one &&
		echo two >f &&
		git commit -q -a -m two
	) &&
	c1=$(git -C sub-src rev-parse HEAD^) &&
	c2=$(git -C sub-src rev-parse HEAD) &&
	put a aaaa &&
	put b bbbb &&
	git update-index --add a b &&
	git update-index --add --cacheinfo 160000,$c1,sub &&
	cp .git/index base.index
'

test_expect_success GIT 'a gitlink whose directory is empty (a clone without its submodules) is not modified' '
	mkdir sub &&
	refresh_like_git &&
	expect_output &&
	echo 0 >expect.code &&
	test_cmp_codes expect.code dirc.code &&
	diff_files_agree
'

test_expect_success GIT 'a gitlink directory with files but no repository is not modified' '
	echo x >sub/loose &&
	refresh_like_git &&
	expect_output &&
	diff_files_agree &&
	rm sub/loose
'

test_expect_success GIT 'update-cache of such a gitlink leaves it alone, as git' '
	run_both sub &&
	same_result &&
	expect_output
'

test_expect_success GIT 'a gitlink whose repository HEAD is the recorded commit is not modified' '
	rmdir sub &&
	git clone -q sub-src sub &&
	git -C sub checkout -q $c1 &&
	refresh_like_git &&
	expect_output &&
	diff_files_agree
'

test_expect_success GIT 'a gitlink whose HEAD moved is modified: needs update, 1' '
	git -C sub checkout -q $c2 &&
	refresh_like_git &&
	expect_output "sub: needs update" &&
	echo 1 >expect.code &&
	test_cmp_codes expect.code dirc.code &&
	diff_files_agree sub
'

test_expect_success GIT '--ignore-submodules: the moved gitlink is not looked at' '
	refresh_like_git --ignore-submodules &&
	expect_output
'

test_expect_success GIT 'a gitlink whose path is now a file is modified' '
	rm -rf sub &&
	echo file >sub &&
	refresh_like_git &&
	expect_output "sub: needs update" &&
	diff_files_agree sub &&
	rm sub
'

test_expect_success GIT 'a gitlink whose directory is gone: needs update; --ignore-missing: silent' '
	refresh_like_git &&
	expect_output "sub: needs update" &&
	refresh_like_git --ignore-missing &&
	expect_output &&
	mkdir sub
'

test_expect_success GIT,SYMLINKS 'core.symlinks=false: a symlink entry whose file holds the target' '
	git config core.symlinks false &&
	test_when_finished "git config --unset core.symlinks" &&
	cp base.index .git/index &&
	link=$(printf target | git hash-object -w --stdin) &&
	git update-index --add --cacheinfo 120000,$link,l &&
	put l target &&
	refresh_like_git &&
	expect_output &&
	diff_files_agree &&
	put l tarjet $T2 &&
	refresh_like_git &&
	expect_output "l: needs update" &&
	diff_files_agree l &&
	put l target $T2 &&
	refresh_like_git &&
	expect_output &&
	diff_files_agree &&
	rm l
'

test_expect_success GIT 'assume-unchanged: a changed file is not looked at; --really-refresh clears the bit' '
	cp base.index .git/index &&
	git update-index --assume-unchanged a &&
	put a AAAA $T2 &&
	refresh_like_git &&
	expect_output &&
	diff_files_agree &&
	run_both --really-refresh &&
	same_result &&
	expect_output "a: needs update" &&
	git ls-files -v a >flags &&
	echo "H a" >expect &&
	test_cmp expect flags &&
	diff_files_agree a &&
	put a aaaa
'

test_expect_success GIT 'assume-unchanged, touched only: --really-refresh refreshes it and keeps the bit' '
	cp base.index .git/index &&
	git update-index --assume-unchanged a &&
	put a aaaa $T2 &&
	run_both --really-refresh &&
	same_result &&
	expect_output &&
	git ls-files -v a >flags &&
	echo "h a" >expect &&
	test_cmp expect flags &&
	put a aaaa
'

test_expect_success GIT 'skip-worktree: a changed or a missing file is not looked at, even by --really-refresh' '
	cp base.index .git/index &&
	git update-index --skip-worktree a b &&
	put a AAAA $T2 &&
	mv b b.away &&
	refresh_like_git &&
	expect_output &&
	run_both --really-refresh &&
	same_result &&
	expect_output &&
	diff_files_agree &&
	mv b.away b &&
	put a aaaa
'

test_expect_success GIT 'intent-to-add: needs update, and listed by ls-files -m' '
	cp base.index .git/index &&
	put n new &&
	git add -N n &&
	refresh_like_git &&
	expect_output "n: needs update" &&
	diff_files_agree n &&
	rm n
'

test_expect_success GIT 'an fsmonitor extension git wrote, fsmonitor now off: its bits are not trusted, it is dropped' '
	cp base.index .git/index &&
	write_script fsmonitor-hook <<-\EOF &&
	printf "token\0"
	EOF
	git -c core.fsmonitor=./fsmonitor-hook update-index --fsmonitor &&
	git -c core.fsmonitor=./fsmonitor-hook status --porcelain >/dev/null &&
	cp .git/index fsmn.index &&
	perl -e "local \$/; open my \$f, \"<\", \"fsmn.index\" or die; binmode \$f;
		exit(index(<\$f>, \"FSMN\") >= 0 ? 0 : 1)" &&
	put b BBBB $T2 &&
	refresh_like_git &&
	expect_output "b: needs update" &&
	diff_files_agree b &&
	cp fsmn.index .git/index &&
	put b bbbb &&
	run_both &&
	same_result &&
	test_must_be_empty dirc.out
'

test_expect_success GIT 'a racy entry changed at the same size and second: needs update, listed by ls-files -m' '
	git config core.trustctime false &&
	test_when_finished "git config --unset core.trustctime" &&
	cp base.index .git/index &&
	put a aaaa $T1 &&
	git update-index a &&
	touch -d @$T1 .git/index &&
	put a AAAA $T1 &&
	diff_files_agree a &&
	refresh_like_git &&
	expect_output "a: needs update" &&
	put a aaaa
'

test_expect_success GIT 'an assume-unchanged racy entry changed at the same size is smudged on write, as git' '
	git config core.trustctime false &&
	test_when_finished "git config --unset core.trustctime" &&
	cp base.index .git/index &&
	put a aaaa $T1 &&
	git update-index a &&
	git update-index --assume-unchanged a &&
	touch -d @$T1 .git/index &&
	put a AAAA $T1 &&
	put b bbbb $T2 &&
	run_both b &&
	same_result &&
	put a aaaa
'

test_expect_success GIT 'read-tree --reset -u rewrites a racy file changed at the same size, as git' '
	git config core.trustctime false &&
	test_when_finished "git config --unset core.trustctime" &&
	cp base.index .git/index &&
	put a aaaa $T1 &&
	git update-index a &&
	tree=$(git write-tree) &&
	touch -d @$T1 .git/index &&
	put a AAAA $T1 &&
	cp .git/index racy.index &&
	git read-tree --reset -u $tree &&
	cat a >git.a &&
	cp racy.index .git/index &&
	put a AAAA $T1 &&
	touch -d @$T1 .git/index &&
	dirc read-tree --reset -u $tree &&
	cat a >dirc.a &&
	test_cmp git.a dirc.a &&
	printf aaaa >expect &&
	test_cmp expect dirc.a
'

test_done
