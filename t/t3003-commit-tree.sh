#!/bin/sh
test_description='commit-tree: the same commit objects as git, the same failures

Each case runs "dirc commit-tree ARGS" and then "git commit-tree ARGS" with
the same environment and standard input: exit code, stdout (the commit
id, hence the bytes of the commit) and stderr must be equal, and the
object dirc wrote must be there and hash to its name.'
. ./test-lib.sh
INTEROP_STATE=none
. "$TEST_DIRECTORY"/lib-interop.sh

# ct_both [-i FILE] ARGS...: dirc commit-tree ARGS, then git commit-tree
# ARGS, stdin from FILE (default: nothing); results in
# {git,dirc}.{code,out,err}.  Run it after "env VAR=... " with ct_env.
ct_both () {
	ct_in=/dev/null
	if test "$1" = -i
	then
		ct_in=$2
		shift 2
	fi
	{
		dirc commit-tree "$@" <"$ct_in" >dirc.out 2>dirc.err
		echo $? >dirc.code
	} &&
	dirc_object_ok &&
	{
		git commit-tree "$@" <"$ct_in" >git.out 2>git.err
		echo $? >git.code
	}
}

# dirc_object_ok: if dirc printed an id, the object is a commit whose
# bytes hash to that id (checked before git writes the same object).
dirc_object_ok () {
	test -s dirc.out || return 0
	do_id=$(cat dirc.out) &&
	test_path_is_file .git/objects/$(echo "$do_id" | cut -c1-2)/$(echo "$do_id" | cut -c3-) &&
	git cat-file commit "$do_id" >dirc.commit &&
	git hash-object -t commit dirc.commit >rehash &&
	test_cmp dirc.out rehash
}

# same_fatal_line: both exit 128 with the same last line on stderr (the
# hint above it may be worded differently).
same_fatal_line () {
	test_cmp_codes git.code dirc.code &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	test_cmp git.out dirc.out &&
	tail -n 1 git.err >expect &&
	tail -n 1 dirc.err >actual &&
	test_cmp expect actual
}

# succeeds_like_git ARGS...: ct_both ARGS, both exit 0 with one id and
# nothing on stderr.
succeeds_like_git () {
	ct_both "$@" &&
	same_result &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	test_line_count = 1 dirc.out &&
	test_must_be_empty dirc.err
}

# fails_like_git CODE MESSAGE ARGS...: both exit CODE with MESSAGE (one
# line) on stderr and nothing on stdout.
fails_like_git () {
	fl_code=$1 &&
	fl_msg=$2 &&
	shift 2 &&
	ct_both "$@" &&
	same_result &&
	echo "$fl_code" >expect &&
	test_cmp expect dirc.code &&
	printf "%s\n" "$fl_msg" >expect &&
	test_cmp expect dirc.err &&
	test_must_be_empty dirc.out
}

# bad_author_dates TREE DATE...: with each DATE as GIT_AUTHOR_DATE, both
# refuse "commit-tree -m x TREE" with git's "invalid date format", 128.
bad_author_dates () {
	bd_tree=$1 &&
	shift &&
	for d
	do
		(
			GIT_AUTHOR_DATE=$d &&
			export GIT_AUTHOR_DATE &&
			fails_like_git 128 "fatal: invalid date format: $d" \
				-m x "$bd_tree"
		) || return 1
	done
}

# body_of ID: the commit message of ID, on stdout.
body_of () {
	git cat-file commit "$1" | sed "1,/^\$/d"
}

# The blobs "hello\n" (a.txt) and "x" (d/b), not written; the tree and
# commit ids of each format were computed once by git and by hand
# (python hashlib) and agree.
test_expect_success GIT 'the known vector: tree 60a1046e, commit 34d395a4 (SHA-256: 1c55fe38, afb84afb)' '
	case $OID_ALGO in
	sha1)
		blob_a=ce013625030ba8dba906f756967f9e9ca394464a &&
		blob_b=c1b0730e0133447badcfd47fd144e254807b06e1 &&
		vtree=60a1046ef7dbcd695e8967e09932564b178b53e8 &&
		vcommit=34d395a48528e7f5f7063cc3371f6e8ce2b3fbf7
		;;
	sha256)
		blob_a=2cf8d83d9ee29543b34a87727421fdecb7e3f3a183d337639025de576db9ebb4 &&
		blob_b=4b6cea43da6e13c24f191bcb97b51a58781d1ccdd8281d96291a2582f5177b78 &&
		vtree=1c55fe38cfe537272f7f2fff37fa8cb63203a48e7130ceeff68dfc22982acffb &&
		vcommit=afb84afb6f13e5cd9ee7db18227ef59cc6c65ddfe06af02f27ab941c16a721cd
		;;
	esac &&
	printf "hello\n" | git hash-object --stdin >expect &&
	echo $blob_a >actual &&
	printf "x" | git hash-object --stdin >>expect &&
	echo $blob_b >>actual &&
	test_cmp expect actual &&
	git init -q vector &&
	(
		cd vector &&
		printf "100644 %s\t%s\n" $blob_a a.txt $blob_b d/b >info &&
		dirc update-cache --index-info <info &&
		dirc write-tree --missing-ok >tree &&
		echo $vtree >expect &&
		test_cmp expect tree &&
		echo first >msg &&
		GIT_AUTHOR_NAME="A U Thor" &&
		GIT_AUTHOR_EMAIL=author@example.com &&
		GIT_AUTHOR_DATE="1112911993 -0700" &&
		GIT_COMMITTER_NAME="C O Mitter" &&
		GIT_COMMITTER_EMAIL=committer@example.com &&
		GIT_COMMITTER_DATE="2005-04-07T22:13:13+02:00" &&
		export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE \
			GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL GIT_COMMITTER_DATE &&
		succeeds_like_git -i msg "$(cat tree)" &&
		echo $vcommit >expect &&
		test_cmp expect dirc.out &&
		cat >expect <<-EOF &&
		tree $vtree
		author A U Thor <author@example.com> 1112911993 -0700
		committer C O Mitter <committer@example.com> 1112904793 +0200

		first
		EOF
		test_cmp expect dirc.commit
	)
'

test_expect_success GIT 'setup: a tree of real objects' '
	echo hello >a.txt &&
	mkdir d &&
	printf "hello\nworld\n" >d/b &&
	dirc update-cache --add a.txt d/b &&
	dirc write-tree >tree &&
	git write-tree >expect &&
	test_cmp expect tree &&
	tree=$(cat tree)
'

test_expect_success GIT 'message from stdin, verbatim (no newline added)' '
	printf "no newline at the end" >msg &&
	succeeds_like_git -i msg "$tree" &&
	body_of "$(cat dirc.out)" >actual &&
	printf "no newline at the end" >expect &&
	test_cmp expect actual &&
	printf "\n\n  lead and trail  \n\n\n" >msg &&
	succeeds_like_git -i msg "$tree" &&
	: >msg &&
	succeeds_like_git -i msg "$tree"
'

test_expect_success GIT 'several -m: one paragraph each' '
	succeeds_like_git -m one -m "two
lines" -m three "$tree" &&
	body_of "$(cat dirc.out)" >actual &&
	printf "one\n\ntwo\nlines\n\nthree\n" >expect &&
	test_cmp expect actual &&
	succeeds_like_git -m "ends with newline
" "$tree"
'

test_expect_success GIT '-m with an empty message reads stdin, like git' '
	echo "from stdin" >msg &&
	succeeds_like_git -i msg -m "" "$tree" &&
	body_of "$(cat dirc.out)" >actual &&
	test_cmp msg actual
'

test_expect_success GIT '-F file, -F -, and -F mixed with -m' '
	printf "line one\nline two\n" >file &&
	succeeds_like_git -F file "$tree" &&
	printf "from stdin\n" >msg &&
	succeeds_like_git -i msg -F - "$tree" &&
	succeeds_like_git -m first -F file -m last "$tree"
'

test_expect_success GIT '-F of a file without a final newline, then -m: joined like git' '
	printf "no newline" >file2 &&
	succeeds_like_git -F file2 -m after "$tree" &&
	body_of "$(cat dirc.out)" >actual &&
	printf "no newline\nafter\n" >expect &&
	test_cmp expect actual
'

test_expect_success GIT '-F of a missing file: git'"'"'s message' '
	ct_both -F nosuch "$tree" &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code
'

test_expect_success GIT 'parents: one, several, in order' '
	succeeds_like_git -m root "$tree" &&
	c1=$(cat dirc.out) &&
	test_tick &&
	succeeds_like_git -p "$c1" -m second "$tree" &&
	c2=$(cat dirc.out) &&
	succeeds_like_git -p "$c2" -p "$c1" -m merge "$tree" &&
	git cat-file commit "$(cat dirc.out)" >actual &&
	printf "parent %s\nparent %s\n" "$c2" "$c1" >expect &&
	grep "^parent " actual >parents &&
	test_cmp expect parents
'

test_expect_success GIT 'a duplicate parent: error, ignored, exit 0' '
	ct_both -p "$c1" -p "$c2" -p "$c1" -m dup "$tree" &&
	same_result &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	echo "error: duplicate parent $c1 ignored" >expect &&
	test_cmp expect dirc.err &&
	git cat-file commit "$(cat dirc.out)" >actual &&
	grep "^parent " actual >parents &&
	test_line_count = 2 parents
'

test_expect_success GIT 'parents and tree by other names: branch, HEAD~, abbreviated, ^{tree}' '
	git update-ref refs/heads/master "$c2" &&
	git tag -a -m "a tag" v1 "$c2" &&
	succeeds_like_git -p master -p HEAD~1 -m names "$tree" &&
	succeeds_like_git -p "$(echo "$c2" | cut -c1-7)" -m abbrev "$(echo "$tree" | cut -c1-8)" &&
	succeeds_like_git -m peeled "master^{tree}" &&
	succeeds_like_git -p "v1^{commit}" -m "peeled tag as parent" "v1^{tree}" &&
	succeeds_like_git -m "path" "HEAD:d"
'

test_expect_success GIT 'a tag given as a parent: refused like git' '
	tag=$(git rev-parse v1) &&
	fails_like_git 128 "fatal: $tag is not a valid '\''commit'\'' object" \
		-p v1 -m x "$tree"
'

test_expect_success GIT 'a commit given as the tree: refused like git' '
	fails_like_git 128 "fatal: $c2 is not a valid '\''tree'\'' object" \
		-m x "$c2"
'

test_expect_success GIT 'a tag given as the tree: refused like git' '
	tag=$(git rev-parse v1) &&
	fails_like_git 128 "fatal: $tag is not a valid '\''tree'\'' object" \
		-m x v1
'

test_expect_success GIT 'a blob given as the tree: refused like git' '
	blob=$(git rev-parse "$tree:a.txt") &&
	fails_like_git 128 "fatal: $blob is not a valid '\''tree'\'' object" \
		-m x "$blob"
'

test_expect_success GIT 'no tree, two trees: fatal "must give exactly one tree"' '
	ct_both -m x &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	test_grep "^fatal: must give exactly one tree$" dirc.err &&
	fails_like_git 128 "fatal: must give exactly one tree" -m x "$tree" "$tree"
'

test_expect_success GIT 'an unknown tree name: fails like git' '
	ct_both -m x nonexist &&
	same_result &&
	test_must_fail dirc commit-tree -m x nonexist 2>/dev/null
'

test_expect_success GIT 'a tree id that is not in the repository: fatal like git' '
	missing=$(test_oid_fake 1234567890) &&
	fails_like_git 128 "fatal: $missing is not a valid object" \
		-m x $missing
'

test_expect_success GIT 'bad parents: unknown name, a tree, a missing object: like git' '
	ct_both -m x -p nonexist "$tree" &&
	same_result &&
	test_must_fail dirc commit-tree -m x -p nonexist "$tree" 2>/dev/null &&
	fails_like_git 128 "fatal: $tree is not a valid '\''commit'\'' object" \
		-m x -p "$tree" "$tree" &&
	missing=$(test_oid_fake 1234567890) &&
	ct_both -m x -p $missing "$tree" &&
	same_result &&
	test_must_fail dirc commit-tree -m x -p $missing "$tree" 2>/dev/null
'

test_expect_success GIT 'a NUL byte in the message: error, exit 1, no object' '
	printf "a\000b\n" >msg &&
	count=$(find .git/objects -type f | wc -l) &&
	ct_both -i msg "$tree" &&
	same_result &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	echo "error: a NUL byte in commit log message not allowed." >expect &&
	test_cmp expect dirc.err &&
	test_must_be_empty dirc.out &&
	test "$(find .git/objects -type f | wc -l)" = "$count"
'

test_expect_success GIT 'invalid UTF-8 message: Latin-1 repaired, warning, same id as git' '
	printf "caf\351 cr\350me\n" >msg &&
	ct_both -i msg "$tree" &&
	same_result &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	test_grep "^Warning: commit message did not conform to UTF-8\.$" dirc.err &&
	body_of "$(cat dirc.out)" >actual &&
	printf "caf\303\251 cr\303\250me\n" >expect &&
	test_cmp expect actual &&
	ct_both -m "$(printf "overlong \300\257, surrogate \355\240\200")" "$tree" &&
	same_result &&
	printf "valid \303\251 \360\237\230\200\n" >msg &&
	succeeds_like_git -i msg "$tree"
'

test_expect_success GIT 'invalid UTF-8 in the author name is repaired too' '
	(
		GIT_AUTHOR_NAME="$(printf "Ren\351")" &&
		export GIT_AUTHOR_NAME &&
		ct_both -m x "$tree"
	) &&
	same_result
'

test_expect_success GIT 'i18n.commitEncoding: encoding header, no repair' '
	test_when_finished "git config --unset i18n.commitEncoding" &&
	git config i18n.commitEncoding ISO-8859-1 &&
	printf "caf\351\n" >msg &&
	succeeds_like_git -i msg "$tree" &&
	test_grep "^encoding ISO-8859-1$" dirc.commit &&
	git config i18n.commitEncoding UTF-8 &&
	succeeds_like_git -m x "$tree" &&
	test_grep -v "^encoding" dirc.commit &&
	git config i18n.commitEncoding utf8 &&
	succeeds_like_git -m x "$tree"
'

# The identity and date cases run in a subshell with the environment
# changed.

test_expect_success GIT 'dates: every accepted format gives git'"'"'s timestamp' '
	for d in "1112911993 -0700" "@1112911993 +0200" \
		"Thu, 07 Apr 2005 22:13:13 +0200" "2005-04-07T22:13:13+02:00" \
		"2005-04-07 22:13:13" "2005-04-07T22:13:13.123Z" \
		"2005.04.07 22:13:13" "04/07/2005 22:13:13" \
		"07.04.2005 22:13:13" "Thu Apr 7 22:13:13 2005 +0200" \
		"7 Apr 2005 22:13 -0000" "2005-04-07T22:13:13 -02:30" \
		"1112911993" "@1112911993"
	do
		(
			GIT_AUTHOR_DATE=$d &&
			GIT_COMMITTER_DATE=$d &&
			export GIT_AUTHOR_DATE GIT_COMMITTER_DATE &&
			succeeds_like_git -m "date $d" "$tree"
		) || {
			echo "for date \"$d\"" >&2
			return 1
		}
	done
'

test_expect_success GIT 'dates: -0000 is written +0000' '
	(
		GIT_AUTHOR_DATE="1112911993 -0000" &&
		export GIT_AUTHOR_DATE &&
		succeeds_like_git -m x "$tree"
	) &&
	test_grep "^author .* 1112911993 +0000$" dirc.commit
'

test_expect_success GIT 'dates: an out-of-range zone is handled like git' '
	(
		GIT_AUTHOR_DATE="1112911993 +2500" &&
		export GIT_AUTHOR_DATE &&
		ct_both -m x "$tree"
	) &&
	same_result
'

test_expect_success GIT 'dates: garbage is fatal' '
	(
		GIT_AUTHOR_DATE=garbage &&
		export GIT_AUTHOR_DATE &&
		fails_like_git 128 "fatal: invalid date format: garbage" -m x "$tree"
	) &&
	(
		GIT_COMMITTER_DATE="2005-13-45 10:00:00" &&
		export GIT_COMMITTER_DATE &&
		fails_like_git 128 "fatal: invalid date format: 2005-13-45 10:00:00" \
			-m x "$tree"
	)
'

test_expect_success GIT 'dates: timestamps from 100000000, years 1970-2099, as git' '
	(
		GIT_AUTHOR_DATE="100000000 +0000" &&
		GIT_COMMITTER_DATE="Dec 31 2099 10:00:00 +0000" &&
		export GIT_AUTHOR_DATE GIT_COMMITTER_DATE &&
		succeeds_like_git -m x "$tree"
	) &&
	bad_author_dates "$tree" "099999999 +0000" " 0036828767 +0200" \
		"Thu, 07 Apr 0205 22:13:13 +0200" "Jan 1 1901 10:00:00 +0000" \
		"Jan 1 2100 10:00:00 +0000" "2100-01-01 00:00:00 +0000" \
		"31.12.2100 10:00:00 +0000"
'

test_expect_success GIT 'dates: compact YYYYMMDD and HHMMSS, as git reads them' '
	for d in "20050407 10:00:00 +0000" "20050407 22:13:13" \
		"20050407T221313Z" "20050407T221313.5+0100" \
		"20050407 221313 -0230" "22:13 20050407 +0200" \
		"Thu, 20050407 235960 +0000" "20050407 240000 +0000" \
		"20991231T101010Z"
	do
		(
			GIT_AUTHOR_DATE=$d &&
			GIT_COMMITTER_DATE=$d &&
			export GIT_AUTHOR_DATE GIT_COMMITTER_DATE &&
			succeeds_like_git -m "date $d" "$tree"
		) || {
			echo "for date \"$d\"" >&2
			return 1
		}
	done &&
	bad_author_dates "$tree" "20050407" "20051307 10:00:00 +0000" \
		"20050432 10:00:00" "20050400 10:00:00" "19690407 10:00:00" \
		"21000101 10:00:00" "2005040 10:00:00" "050407 10:00:00" \
		"20050407 246000" "20050407 106000 +0000"
'

test_expect_success GIT 'identity from user.name and user.email' '
	test_when_finished "git config --remove-section user" &&
	git config user.name "Conf User" &&
	git config user.email conf@example.com &&
	(
		unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME \
			GIT_COMMITTER_EMAIL &&
		succeeds_like_git -m x "$tree"
	) &&
	test_grep "^author Conf User <conf@example.com> " dirc.commit &&
	test_grep "^committer Conf User <conf@example.com> " dirc.commit
'

test_expect_success GIT 'author.name and committer.email beat user.*; the environment beats both' '
	test_when_finished "git config --remove-section user && git config --remove-section author && git config --remove-section committer" &&
	git config user.name "Conf User" &&
	git config user.email conf@example.com &&
	git config author.name "Auth Name" &&
	git config committer.email cm@example.com &&
	(
		unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME \
			GIT_COMMITTER_EMAIL &&
		succeeds_like_git -m x "$tree"
	) &&
	test_grep "^author Auth Name <conf@example.com> " dirc.commit &&
	test_grep "^committer Conf User <cm@example.com> " dirc.commit &&
	(
		unset GIT_COMMITTER_EMAIL &&
		succeeds_like_git -m x "$tree"
	) &&
	test_grep "^author A U Thor <author@example.com> " dirc.commit &&
	test_grep "^committer C O Mitter <cm@example.com> " dirc.commit
'

test_expect_success GIT 'name and email sanitised like git' '
	(
		GIT_AUTHOR_NAME="  <Evil>Name.; " &&
		GIT_AUTHOR_EMAIL=" <ev<il>@example.com>; " &&
		export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL &&
		succeeds_like_git -m x "$tree"
	) &&
	test_grep "^author EvilName <" dirc.commit &&
	(
		GIT_COMMITTER_NAME="$(printf "Multi\nLine")" &&
		export GIT_COMMITTER_NAME &&
		succeeds_like_git -m x "$tree"
	) &&
	(
		GIT_AUTHOR_EMAIL= &&
		export GIT_AUTHOR_EMAIL &&
		succeeds_like_git -m x "$tree"
	)
'

test_expect_success GIT 'an empty name, a name of only crud: fatal like git' '
	(
		GIT_AUTHOR_NAME= &&
		export GIT_AUTHOR_NAME &&
		fails_like_git 128 "fatal: empty ident name (for <author@example.com>) not allowed" \
			-m x "$tree"
	) &&
	(
		GIT_COMMITTER_NAME=".;<>" &&
		export GIT_COMMITTER_NAME &&
		fails_like_git 128 "fatal: name consists only of disallowed characters: .;<>" \
			-m x "$tree"
	)
'

test_expect_success GIT 'user.useConfigOnly without an email: git'"'"'s fatal line' '
	test_when_finished "git config --unset user.useConfigOnly" &&
	git config user.useConfigOnly true &&
	(
		unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME \
			GIT_COMMITTER_EMAIL &&
		ct_both -m x "$tree"
	) &&
	same_fatal_line &&
	test_grep "^fatal: no email was given and auto-detection is disabled$" dirc.err &&
	test_must_be_empty dirc.out
'

test_expect_success GIT 'user.useConfigOnly with an email but no name: git'"'"'s fatal line' '
	test_when_finished "git config --unset user.useConfigOnly && git config --remove-section user" &&
	git config user.useConfigOnly true &&
	git config user.email conf@example.com &&
	(
		unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME \
			GIT_COMMITTER_EMAIL &&
		ct_both -m x "$tree"
	) &&
	same_fatal_line &&
	test_grep "^fatal: no name was given and auto-detection is disabled$" dirc.err
'

test_expect_success GIT 'not in a repository: fatal like git' '
	mkdir -p outside &&
	(
		cd outside &&
		GIT_CEILING_DIRECTORIES=$TRASH_DIRECTORY &&
		export GIT_CEILING_DIRECTORIES &&
		test_expect_code 128 git commit-tree -m x "$tree" >../git.out 2>../git.err &&
		test_expect_code 128 dirc commit-tree -m x "$tree" >../dirc.out 2>../dirc.err
	) &&
	test_cmp git.err dirc.err &&
	test_must_be_empty dirc.out
'


test_expect_success GIT 'not in a repository: -h prints the usage, 129 like git' '
	mkdir -p outside &&
	(
		cd outside &&
		GIT_CEILING_DIRECTORIES=$TRASH_DIRECTORY &&
		export GIT_CEILING_DIRECTORIES &&
		test_expect_code 129 git commit-tree -h >../git.out 2>../git.err &&
		test_expect_code 129 dirc commit-tree -h >../dirc.out 2>../dirc.err
	) &&
	test_grep "^usage: dirc commit-tree" dirc.out &&
	test_must_be_empty dirc.err
'

test_done
