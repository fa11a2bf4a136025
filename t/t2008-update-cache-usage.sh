#!/bin/sh
test_description='update-cache options: every option of git 2.39 implemented or refused, git'"'"'s usage and messages

The usage text is generated from the option table; apart from the line
naming dirc'"'"'s own command and dirc'"'"'s own options (--threads, --progress,
--stats) it is git'"'"'s, byte for byte.  Every option git 2.39'"'"'s
update-index lists is either done as git does it (same exit code,
output, messages and index) or refused with a message naming it (128,
index untouched): the untracked cache and fsmonitor are
refused, their --no- forms done.  Unknown, ambiguous and badly valued
options fail as git'"'"'s do, before or after the paths given before them
as git orders it.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh

# dirc_usage_as_git FILE: FILE without what only dirc prints (the line
# naming dirc update-cache, dirc's own options), to compare with git's.
# git before 2.42 (2.39 here and in CI) has no --show-index-version,
# which dirc has as git 2.55 does: git_before_242 says whether the
# installed git lacks it, and dirc_usage_as_git then drops it from
# dirc's usage.
git_before_242 () {
	! git update-index -h 2>&1 | grep -q -e --show-index-version
}
dirc_usage_as_git () {
	if git_before_242
	then
		uag_new="--show-index-version"
	else
		uag_new=
	fi &&
	sed -e "/^   or: dirc update-cache /d" \
	    -e "/^    ${uag_new:-no such option} /d" \
	    -e "/^    --threads <n> /d" \
	    -e "/^    --progress /d" \
	    -e "/^    --stats /d" "$1"
}

# The options dirc refuses (a file-system probe, the fsmonitor).
refused_options="test-untracked-cache fsmonitor fsmonitor-valid
no-fsmonitor-valid"

test_expect_success GIT 'setup' '
	echo a >a &&
	echo b >b &&
	git update-index --add a &&
	blob=$(git hash-object -w b) &&
	cp .git/index start.index
'

test_expect_success GIT '-h alone: git'"'"'s usage on stderr, 129, generated from the table' '
	test_expect_code 129 dirc update-cache -h >out 2>err &&
	test_must_be_empty out &&
	test_expect_code 129 git update-index -h >git.out 2>git.err &&
	dirc_usage_as_git err >err.as-git &&
	test_cmp git.err err.as-git &&
	test_grep "^   or: dirc update-cache \[<options>\] \[--\] \[<file>...\]$" err &&
	test_grep "^    --threads <n>  *use this many threads" err
'

test_expect_success GIT '-h after other options, and --help-all: the usage on stdout, 129' '
	test_expect_code 129 dirc update-cache --add -h >out 2>err &&
	test_must_be_empty err &&
	test_expect_code 129 git update-index --add -h >git.out &&
	dirc_usage_as_git out >out.as-git &&
	test_cmp git.out out.as-git &&
	test_expect_code 129 dirc update-cache -qh >out2 &&
	test_cmp out out2 &&
	test_expect_code 129 dirc update-cache --help-all >out3 &&
	test_cmp out out3
'

test_expect_success GIT '-h with a corrupt index: the usage before the index is read' '
	mkdir broken &&
	(
		cd broken &&
		git init -q &&
		>.git/index &&
		test_expect_code 129 dirc update-cache -h >../out 2>&1 &&
		test_expect_code 128 dirc update-cache --refresh 2>../err
	) &&
	test_grep "^usage: git update-index " out &&
	test_grep "index file smaller than expected" err
'

test_expect_success GIT 'unknown options and switches: git'"'"'s message, the usage, 129, index untouched' '
	for opt in --nonsense --show-index-versions -y --no-refresh --no-q \
		--no-stdin --no-again --nonsense=1 --nonsense= --no-cacheinfo
	do
		cp start.index .git/index &&
		run_both $opt &&
		echo 129 >expect &&
		test_cmp expect dirc.code &&
		test_cmp_codes git.code dirc.code &&
		test_cmp git.out dirc.out &&
		dirc_usage_as_git dirc.err >dirc.err.as-git &&
		test_cmp git.err dirc.err.as-git &&
		index_unchanged || return 1
	done &&
	head -n 1 dirc.err >first &&
	echo "error: unknown option '\''no-cacheinfo'\''" >expect &&
	test_cmp expect first
'

test_expect_success GIT 'an unknown long option with a value: every command names it whole, as git' '
	long=$(printf "%0300d" 7) &&
	for cmd in "hash-object --object-format=sha256 a" "ls-files --x=1" \
		"cat-file --x=y HEAD" "write-tree --x=" "ls-tree --abc=d HEAD" \
		"commit-tree --x=1 $EMPTY_TREE" \
		"update-index --$long=v" "mktree --x=1" "count-objects --x=1"
	do
		test_expect_code 129 git $cmd >git.out 2>git.err &&
		test_expect_code 129 dirc $cmd >dirc.out 2>dirc.err &&
		head -n 1 git.err >expect &&
		head -n 1 dirc.err >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success GIT 'ambiguous abbreviations: git'"'"'s message naming two candidates, the usage on stdout' '
	for opt in --re --i --ind --ig --no-i --no-a --no-f --no-s --un --s --a
	do
		cp start.index .git/index &&
		run_both $opt &&
		test_cmp_codes git.code dirc.code &&
		if test $opt = --s && git_before_242
		then
			echo "error: ambiguous option: s (could be --show-index-version or --split-index)" >git.err
		fi &&
		test_cmp git.err dirc.err &&
		dirc_usage_as_git dirc.out >dirc.out.as-git &&
		test_cmp git.out dirc.out.as-git &&
		index_unchanged || return 1
	done &&
	echo "error: ambiguous option: a (could be --assume-unchanged or --again)" >expect &&
	test_cmp expect dirc.err
'

test_expect_success GIT 'unique abbreviations work: --ver, --no-v, --cache, --no-as, --st, --t' '
	both() { run_both "$@" && same_result; } &&
	both --ver a &&
	both --no-v a &&
	both --cache 100644,$blob,b &&
	both --no-as a &&
	echo a >in &&
	both -i in --st &&
	test_expect_code 128 dirc update-cache --t 2>err &&
	test_grep "^fatal: --test-untracked-cache is not supported by dirc" err
'

test_expect_success 'dirc'"'"'s own options only spelt out: --stat, --thread, --prog are unknown' '
	for opt in --stat --thread=1 --prog --no-prog
	do
		test_expect_code 129 dirc update-cache $opt 2>err &&
		test_grep "^error: unknown option" err || return 1
	done
'

test_expect_success GIT 'bad values: git'"'"'s message alone (no usage), 129, index untouched' '
	for args in --chmod --chmod=y "--chmod y a" --add=1 --no-verbose=1 \
		--index-version=x --index-version= --cacheinfo=x --again=x \
		--refresh=x --stdin=1 --index-info=x "--stdin a" \
		"--index-info a" --cacheinfo "--cacheinfo 1 2"
	do
		cp start.index .git/index &&
		run_both $args &&
		same_result &&
		echo 129 >expect &&
		test_cmp expect dirc.code &&
		index_unchanged || return 1
	done
'

test_expect_success GIT 'a bad option after paths: the paths before it were processed, nothing written' '
	run_both --verbose --add b --nonsense &&
	test_cmp_codes git.code dirc.code &&
	test_cmp git.out dirc.out &&
	echo "add '\''b'\''" >expect &&
	test_cmp expect dirc.out &&
	index_unchanged
'

test_expect_success GIT '--index-version out of range: checked after the paths, before --stdin' '
	run_both --verbose a --index-version 7 &&
	same_result &&
	test_grep "^fatal: index-version 7 not in range: 2..4$" dirc.err &&
	echo "add '\''a'\''" >expect &&
	test_cmp expect dirc.out &&
	echo b >in &&
	run_both -i in --verbose --add --index-version 9 --stdin &&
	same_result &&
	test_must_be_empty dirc.out &&
	run_both --index-version 0 &&
	same_result &&
	dirc update-cache --show-index-version >expect &&
	cp .git/index index.before &&
	dirc update-cache --index-version -1 >actual &&
	test_cmp expect actual &&
	test_cmp index.before .git/index &&
	run_both --no-index-version &&
	same_result
'

test_expect_success GIT 'the options dirc refuses: a message naming them, 128, index untouched' '
	for opt in $refused_options
	do
		cp start.index .git/index &&
		test_expect_code 128 dirc update-cache --$opt a >out 2>err &&
		test_must_be_empty out &&
		test_grep "^fatal: --$opt is not supported by dirc: " err &&
		test_cmp start.index .git/index &&
		test_path_is_missing .git/index.lock || return 1
	done
'

test_expect_success GIT 'every option of git'"'"'s usage is done as git or refused' '
	test_expect_code 129 git update-index -h 2>git-usage &&
	sed -n -e "s/^    -[a-z], --\([a-z-]*\).*/\1/p" \
		-e "s/^    --\([a-z-]*\).*/\1/p" git-usage >names &&
	test_line_count -gt 30 names &&
	echo b >in &&
	seen=0 &&
	while read -r name
	do
		case " $(echo $refused_options) " in
		*" $name "*)
			cp start.index .git/index &&
			test_expect_code 128 dirc update-cache --$name a \
				2>err &&
			test_grep "is not supported by dirc" err &&
			index_unchanged ;;
		*)
			case $name in
			cacheinfo) set -- --cacheinfo 100644,$blob,b ;;
			chmod) set -- --chmod=+x a ;;
			index-version) set -- --index-version 3 ;;
			stdin|index-info) set -- --add --$name ;;
			*) set -- --$name a ;;
			esac &&
			cp start.index .git/index &&
			printf "100644 %s\tc\n" $blob >info &&
			if test $name = index-info
			then
				run_both -i info "$@"
			else
				run_both -i in "$@"
			fi &&
			same_result ;;
		esac || {
			echo "^^^ --$name" >&2
			return 1
		}
		seen=$((seen + 1))
	done <names &&
	test_line_count = $seen names
'

test_expect_success GIT '--no-split-index on an unsplit index: done, as git; core.splitIndex=true: git'"'"'s warning' '
	cp start.index .git/index &&
	run_both --no-split-index &&
	same_result &&
	git config core.splitIndex true &&
	test_when_finished "git config --unset core.splitIndex" &&
	run_both --verbose --no-split-index &&
	same_result &&
	test_grep "^warning: core.splitIndex is set to true" dirc.err
'

test_expect_success GIT '--no-untracked-cache: an UNTR extension git wrote is dropped; the warning; --verbose' '
	cp start.index .git/index &&
	git update-index --untracked-cache &&
	git status --porcelain >/dev/null &&
	perl -e "local \$/; open my \$f, \"<\", \".git/index\" or die;
		exit(index(<\$f>, \"UNTR\") >= 0 ? 0 : 1)" &&
	cp .git/index untr.index &&
	for opt in --no-untracked-cache --no-test-untracked-cache \
		--no-force-untracked-cache
	do
		cp untr.index .git/index &&
		run_both --verbose $opt &&
		same_result || return 1
	done &&
	echo "Untracked cache disabled" >expect &&
	test_cmp expect dirc.out &&
	git config core.untrackedCache true &&
	test_when_finished "git config --unset core.untrackedCache" &&
	cp untr.index .git/index &&
	run_both --no-untracked-cache &&
	same_result &&
	test_grep "^warning: core.untrackedCache is set to true" dirc.err
'

test_expect_success GIT '--no-fsmonitor: done; an FSMN extension is dropped; core.fsmonitor set: the warning' '
	cp start.index .git/index &&
	run_both --verbose --no-fsmonitor &&
	same_result &&
	echo "fsmonitor disabled" >expect &&
	test_cmp expect dirc.out &&
	write_script hook <<-\EOF &&
	printf "token\0"
	EOF
	git -c core.fsmonitor=./hook update-index --fsmonitor &&
	git -c core.fsmonitor=./hook status --porcelain >/dev/null &&
	cp .git/index fsmn.index &&
	run_both --no-fsmonitor &&
	same_result &&
	cp fsmn.index .git/index &&
	run_both &&
	same_result &&
	git config core.fsmonitor false &&
	cp fsmn.index .git/index &&
	run_both --no-fsmonitor &&
	same_result &&
	git config core.fsmonitor ./hook &&
	test_when_finished "git config --unset core.fsmonitor" &&
	cp start.index .git/index &&
	run_both --no-fsmonitor &&
	same_result &&
	test_grep "^warning: core.fsmonitor is set" dirc.err
'

test_expect_success GIT 'the dirc options: --threads, --progress, --stats' '
	cp start.index .git/index &&
	dirc update-cache --threads 2 --no-progress --stats --add b 2>err &&
	test_grep "hash objects" err &&
	test_expect_code 129 dirc update-cache --threads x 2>err &&
	echo "error: option \`threads'\'' expects a non-negative number" >expect &&
	test_cmp expect err
'

test_done
