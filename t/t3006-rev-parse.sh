#!/bin/sh
test_description='rev-parse: the names git resolves, the way git prints them

Each case runs "git rev-parse ARGS" and "dirc rev-parse ARGS" in the same
repository and directory: exit code, stdout and stderr must be equal.'
. ./test-lib.sh

# rp_both [-C DIR] ARGS...: git rev-parse and dirc rev-parse, in DIR if
# given; results in {git,dirc}.{code,out,err} in the trash directory.
rp_both () {
	rp_dir=.
	if test "$1" = -C
	then
		rp_dir=$2
		shift 2
	fi
	(
		cd "$rp_dir" &&
		git rev-parse "$@" >"$TRASH_DIRECTORY/git.out" \
			2>"$TRASH_DIRECTORY/git.err"
		echo $? >"$TRASH_DIRECTORY/git.code"
	) &&
	(
		cd "$rp_dir" &&
		dirc rev-parse "$@" >"$TRASH_DIRECTORY/dirc.out" \
			2>"$TRASH_DIRECTORY/dirc.err"
		echo $? >"$TRASH_DIRECTORY/dirc.code"
	)
}

same_result () {
	test_cmp_codes git.code dirc.code &&
	test_cmp git.out dirc.out &&
	test_cmp git.err dirc.err
}

# resolves_like_git [-C DIR] NAME EXPECTED-ID: both print EXPECTED-ID for
# NAME, with and without --verify.
resolves_like_git () {
	rl_c=
	if test "$1" = -C
	then
		rl_c="-C $2"
		shift 2
	fi
	rp_both $rl_c "$1" &&
	same_result &&
	echo "$2" >expect &&
	test_cmp expect dirc.out &&
	rp_both $rl_c --verify "$1" &&
	same_result &&
	test_cmp expect dirc.out
}

# each_like_git [-C DIR] ARGS...: for every argument alone, rev-parse
# gives what git gives; every argument is tried, those that differ are
# named.
each_like_git () {
	el_c=
	if test "$1" = -C
	then
		el_c="-C $2"
		shift 2
	fi
	el_bad=
	for el_arg
	do
		rp_both $el_c "$el_arg" &&
		same_result || {
			echo "^^^ for rev-parse $el_arg" >&2
			el_bad=t
		}
	done
	test -z "$el_bad"
}

# fails_like_git [-C DIR] ARGS...: rev-parse ARGS fails with git's exit
# code and messages (stdout is left to the test of the echoed argument).
fails_like_git () {
	fl_c=
	if test "$1" = -C
	then
		fl_c="-C $2"
		shift 2
	fi
	rp_both $fl_c "$@" &&
	test_cmp_codes git.code dirc.code &&
	test_cmp git.err dirc.err &&
	test "$(cat dirc.code)" != 0
}

test_expect_success GIT 'setup: history with a merge, tags, packed and loose refs' '
	mkdir -p d/e &&
	echo a >a &&
	echo f >d/e/f &&
	git update-index --add a d/e/f &&
	tree=$(git write-tree) &&
	c1=$(git commit-tree -m one "$tree") &&
	test_tick &&
	echo a2 >a &&
	git update-index a &&
	tree2=$(git write-tree) &&
	c2=$(git commit-tree -p "$c1" -m two "$tree2") &&
	test_tick &&
	c3=$(git commit-tree -p "$c1" -m side "$tree") &&
	test_tick &&
	m=$(git commit-tree -p "$c2" -p "$c3" -m merge "$tree2") &&
	git update-ref refs/heads/master "$m" &&
	git update-ref refs/heads/side "$c3" &&
	git tag -a -m "a tag" v1 "$c2" &&
	tag=$(git rev-parse v1) &&
	git tag light "$c1" &&
	git update-ref refs/heads/packed "$c1" &&
	git pack-refs --all &&
	git update-ref refs/heads/loose "$c2" &&
	git update-ref refs/tags/side "$c1" &&
	test_path_is_missing .git/refs/heads/packed &&
	test_grep "refs/heads/packed" .git/packed-refs
'

test_expect_success GIT 'full ids, and abbreviated ones' '
	resolves_like_git "$m" "$m" &&
	resolves_like_git "$(echo "$m" | cut -c1-12)" "$m" &&
	resolves_like_git "$(echo "$c3" | cut -c1-4)" "$c3" &&
	resolves_like_git "$(echo "$tree" | cut -c1-7)" "$tree"
'

test_expect_success GIT 'HEAD, branch and tag short names, full ref names' '
	resolves_like_git HEAD "$m" &&
	resolves_like_git master "$m" &&
	resolves_like_git heads/master "$m" &&
	resolves_like_git refs/heads/master "$m" &&
	resolves_like_git v1 "$tag" &&
	resolves_like_git tags/v1 "$tag" &&
	resolves_like_git refs/tags/v1 "$tag" &&
	resolves_like_git light "$c1"
'

test_expect_success GIT 'packed-refs and a loose ref' '
	resolves_like_git packed "$c1" &&
	resolves_like_git refs/heads/packed "$c1" &&
	resolves_like_git loose "$c2"
'

test_expect_success GIT 'a name that is both a branch and a tag: git'"'"'s choice and warning' '
	rp_both side &&
	same_result &&
	rp_both --verify side &&
	same_result
'

test_expect_success GIT '^{tree}, ^{commit}, ^{}, ^{tag}' '
	resolves_like_git "HEAD^{tree}" "$tree2" &&
	resolves_like_git "v1^{commit}" "$c2" &&
	resolves_like_git "v1^{}" "$c2" &&
	resolves_like_git "v1^{tree}" "$tree2" &&
	resolves_like_git "v1^{tag}" "$tag" &&
	resolves_like_git "master^{}" "$m" &&
	resolves_like_git "$tree^{tree}" "$tree"
'

test_expect_success GIT '^, ^2, ~2 and combinations' '
	resolves_like_git "HEAD^" "$c2" &&
	resolves_like_git "HEAD^1" "$c2" &&
	resolves_like_git "HEAD^2" "$c3" &&
	resolves_like_git "HEAD~2" "$c1" &&
	resolves_like_git "HEAD^2~1" "$c1" &&
	resolves_like_git "HEAD^^" "$c1" &&
	resolves_like_git "HEAD~" "$c2" &&
	resolves_like_git "HEAD^0" "$m" &&
	resolves_like_git "v1~1" "$c1" &&
	resolves_like_git "HEAD~1^{tree}" "$tree2"
'

test_expect_success GIT 'past the history: fatal like git' '
	fails_like_git "HEAD^3" &&
	fails_like_git "HEAD~10" &&
	fails_like_git "$c1^"
'

test_expect_success GIT 'a peel to the wrong type: git'"'"'s messages' '
	fails_like_git "v1^{blob}" &&
	fails_like_git "$tree^{commit}"
'

test_expect_success GIT '<rev>:<path> and :<path>' '
	resolves_like_git "HEAD:a" "$(git rev-parse "$tree2:a")" &&
	resolves_like_git "HEAD:d/e" "$(git rev-parse "$tree:d/e")" &&
	resolves_like_git "HEAD:d/e/" "$(git rev-parse "$tree:d/e")" &&
	resolves_like_git "HEAD:" "$tree2" &&
	resolves_like_git "$c1:a" "$(git rev-parse "$tree:a")" &&
	resolves_like_git "v1:d/e/f" "$(git rev-parse "$tree:d/e/f")" &&
	resolves_like_git ":a" "$(git rev-parse "$tree2:a")" &&
	resolves_like_git ":0:d/e/f" "$(git rev-parse "$tree:d/e/f")"
'

test_expect_success GIT '<rev>:<path> of a missing path: git'"'"'s message' '
	fails_like_git "HEAD:nosuch" &&
	fails_like_git --verify "HEAD:nosuch"
'

test_expect_success GIT ':<path> of a path not in the index: git'"'"'s message' '
	fails_like_git ":nosuch" &&
	fails_like_git --verify ":nosuch"
'

test_expect_success GIT 'from a subdirectory: ./ paths are relative to it' '
	resolves_like_git -C d/e "HEAD:./f" "$(git rev-parse "$tree:d/e/f")" &&
	resolves_like_git -C d/e ":./f" "$(git rev-parse "$tree:d/e/f")" &&
	resolves_like_git -C d/e "HEAD:d/e/f" "$(git rev-parse "$tree:d/e/f")"
'

test_expect_success GIT 'from a subdirectory: a path given from the top is refused with git'"'"'s hint' '
	fails_like_git -C d/e "HEAD:f" &&
	fails_like_git -C d/e ":f"
'

test_expect_success GIT 'several names, and names with --' '
	rp_both HEAD master loose &&
	same_result &&
	rp_both HEAD -- a &&
	same_result &&
	rp_both -- a &&
	same_result
'

test_expect_success GIT 'a file name is printed as is' '
	rp_both a &&
	same_result &&
	echo a >expect &&
	test_cmp expect dirc.out
'

test_expect_success GIT '--verify with two names: fatal "Needed a single revision"' '
	rp_both --verify HEAD master &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	echo "fatal: Needed a single revision" >expect &&
	test_cmp expect dirc.err &&
	rp_both --verify &&
	same_result &&
	rp_both --verify nosuch &&
	same_result &&
	echo "fatal: Needed a single revision" >expect &&
	test_cmp expect dirc.err
'

test_expect_success GIT '-q / --quiet with --verify: exit 1, nothing printed' '
	for opt in -q --quiet
	do
		rp_both $opt --verify nosuch &&
		same_result &&
		echo 1 >expect &&
		test_cmp expect dirc.code &&
		test_must_be_empty dirc.err &&
		test_must_be_empty dirc.out &&
		rp_both --verify $opt "HEAD:nosuch" &&
		same_result &&
		rp_both --verify $opt HEAD &&
		same_result || return 1
	done
'

test_expect_success GIT 'an unknown name: fatal, git'"'"'s message and hint lines' '
	rp_both nosuch &&
	test_cmp_codes git.code dirc.code &&
	test_cmp git.err dirc.err &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	cat >expect <<-\EOF &&
	fatal: ambiguous argument '"'"'nosuch'"'"': unknown revision or path not in the working tree.
	Use '"'"'--'"'"' to separate paths from revisions, like this:
	'"'"'git <command> [<revision>...] -- [<file>...]'"'"'
	EOF
	test_cmp expect dirc.err
'

test_expect_success GIT 'an unknown name: stdout as git'"'"'s (it echoes the argument first)' '
	rp_both nosuch &&
	same_result
'

test_expect_success GIT '--git-dir, --absolute-git-dir, --show-toplevel, --show-prefix, --show-cdup at the top' '
	each_like_git --git-dir --absolute-git-dir --show-toplevel \
		--show-prefix --show-cdup --is-inside-work-tree \
		--is-inside-git-dir --is-bare-repository
'

test_expect_success GIT 'the same from a subdirectory' '
	each_like_git -C d/e --git-dir --absolute-git-dir --show-toplevel \
		--show-prefix --show-cdup --is-inside-work-tree \
		--is-inside-git-dir --is-bare-repository &&
	rp_both -C d/e --show-prefix &&
	echo d/e/ >expect &&
	test_cmp expect dirc.out &&
	rp_both -C d/e --show-cdup &&
	echo ../../ >expect &&
	test_cmp expect dirc.out
'

test_expect_success GIT 'inside .git: --is-inside-git-dir, --show-toplevel and friends' '
	each_like_git -C .git --is-inside-git-dir --is-inside-work-tree \
		--is-bare-repository --show-toplevel --show-prefix HEAD &&
	each_like_git -C .git/refs --git-dir --absolute-git-dir
'

test_expect_success GIT 'inside .git: --git-dir and --show-cdup print what git prints' '
	each_like_git -C .git --git-dir --show-cdup
'

test_expect_success GIT 'a bare repository: --is-bare-repository and friends' '
	git clone -q --bare . bare.git &&
	each_like_git -C bare.git --is-bare-repository --is-inside-work-tree \
		--is-inside-git-dir --show-toplevel --show-prefix HEAD master \
		--absolute-git-dir
'

test_expect_success GIT 'a bare repository: --git-dir prints "." like git' '
	each_like_git -C bare.git --git-dir
'

test_expect_success GIT 'outside any repository: fatal like git' '
	mkdir -p outside &&
	(
		GIT_CEILING_DIRECTORIES=$TRASH_DIRECTORY &&
		export GIT_CEILING_DIRECTORIES &&
		each_like_git -C outside --git-dir --show-toplevel HEAD
	)
'

test_expect_success GIT 'outside any repository: --is-inside-work-tree is fatal like git' '
	(
		GIT_CEILING_DIRECTORIES=$TRASH_DIRECTORY &&
		export GIT_CEILING_DIRECTORIES &&
		each_like_git -C outside --is-inside-work-tree
	)
'

test_expect_success GIT '--symbolic-full-name and --abbrev-ref' '
	for name in HEAD master heads/master refs/heads/master v1 light \
		packed "$m" "HEAD^"
	do
		rp_both --symbolic-full-name "$name" &&
		same_result &&
		rp_both --abbrev-ref "$name" &&
		same_result || {
			echo "for $name" >&2
			return 1
		}
	done &&
	fails_like_git --symbolic-full-name nosuch &&
	fails_like_git --abbrev-ref nosuch
'

test_expect_success GIT '--short, --short=10, --short=2, with --verify' '
	for opt in --short --short=10 --short=2 --short=40
	do
		rp_both $opt HEAD &&
		same_result &&
		rp_both --verify $opt master &&
		same_result || return 1
	done &&
	rp_both --short=10 HEAD &&
	echo "$m" | cut -c1-10 >expect &&
	test_cmp expect dirc.out
'

test_expect_success GIT 'detached HEAD: HEAD, --symbolic-full-name, --abbrev-ref' '
	test_when_finished "git symbolic-ref HEAD refs/heads/master" &&
	git update-ref --no-deref HEAD "$c2" &&
	resolves_like_git HEAD "$c2" &&
	resolves_like_git "HEAD~1" "$c1" &&
	rp_both --symbolic-full-name HEAD &&
	same_result &&
	echo HEAD >expect &&
	test_cmp expect dirc.out &&
	rp_both --abbrev-ref HEAD &&
	same_result
'

test_expect_success GIT 'unborn HEAD: fails like git' '
	test_when_finished "git symbolic-ref HEAD refs/heads/master" &&
	git symbolic-ref HEAD refs/heads/unborn &&
	rp_both --verify -q HEAD &&
	same_result &&
	fails_like_git HEAD &&
	fails_like_git --verify HEAD &&
	fails_like_git --symbolic-full-name HEAD
'

test_expect_success GIT 'cat-file, read-tree and commit-tree take the same names' '
	git cat-file -p "HEAD~1:a" >expect &&
	dirc cat-file -p "HEAD~1:a" >actual &&
	test_cmp expect actual &&
	git cat-file -t "v1^{}" >expect &&
	dirc cat-file -t "v1^{}" >actual &&
	test_cmp expect actual &&
	dirc cat-file -p "$(echo "$c3" | cut -c1-7)" >actual &&
	git cat-file -p "$c3" >expect &&
	test_cmp expect actual &&
	cp .git/index index.before &&
	test_when_finished "cp index.before .git/index" &&
	dirc read-tree "HEAD^2^{tree}" &&
	git ls-files -s >actual &&
	git ls-tree -r "$c3" | sed -e "s/ [a-z]* / /" -e "s/	/ 0	/" >expect &&
	test_cmp expect actual &&
	dirc read-tree packed &&
	git ls-files -s >actual &&
	git ls-tree -r "$c1" | sed -e "s/ [a-z]* / /" -e "s/	/ 0	/" >expect &&
	test_cmp expect actual &&
	dirc commit-tree -p "HEAD^2" -p loose -m names "v1^{tree}" >dirc.id &&
	git commit-tree -p "HEAD^2" -p loose -m names "v1^{tree}" >git.id &&
	test_cmp git.id dirc.id
'

test_done
