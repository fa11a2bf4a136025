#!/bin/sh
test_description='repository discovery and the environment: .git upward, gitfiles, GIT_DIR and friends'
. ./test-lib.sh

# The loose object path of id $2 under objects directory $1.
obj_path () {
	echo "$1/$(echo $2 | cut -c1-2)/$(echo $2 | cut -c3-)"
}

test_expect_success 'setup' '
	echo "some content" >file &&
	id=$(dirc hash-object file) &&
	mkdir -p sub/deeper &&
	echo "in sub" >sub/deeper/subfile &&
	subid=$(dirc hash-object sub/deeper/subfile) &&
	notrepo_msg="fatal: not a git repository (or any of the parent directories): .git"
'

test_expect_success 'from a subdirectory: the repository above is found' '
	(
		cd sub/deeper &&
		dirc hash-object -w subfile >../../actual &&
		dirc hash-object -w ../../file >>../../actual &&
		dirc cat-file -p $subid >../../content
	) &&
	test_write_lines $subid $id >expect &&
	test_cmp expect actual &&
	test_path_is_file "$(obj_path .git/objects $subid)" &&
	test_path_is_file "$(obj_path .git/objects $id)" &&
	test_path_is_missing sub/deeper/.git &&
	test_cmp sub/deeper/subfile content
'

test_expect_success GIT 'from a subdirectory: paths are taken from there, as in git' '
	(
		cd sub &&
		dirc hash-object deeper/subfile ../file >../actual &&
		git hash-object deeper/subfile ../file >../expect
	) &&
	test_cmp expect actual
'

test_expect_success 'a .git directory that is not a repository is skipped' '
	mkdir -p nest/.git &&
	(
		cd nest &&
		dirc hash-object -w ../file >../actual
	) &&
	echo $id >expect &&
	test_cmp expect actual &&
	test_path_is_missing nest/.git/objects
'

test_expect_success 'inside .git/ and inside a bare repository: it is found' '
	(
		cd .git/refs &&
		dirc cat-file -t $id >../../actual
	) &&
	echo blob >expect &&
	test_cmp expect actual &&
	dirc init -q --bare bare.git &&
	(
		cd bare.git &&
		dirc hash-object -w ../file >../actual &&
		cd refs/heads &&
		dirc cat-file -t $id >>../../../actual
	) &&
	test_write_lines $id blob >expect &&
	test_cmp expect actual &&
	test_path_is_file "$(obj_path bare.git/objects $id)" &&
	test_fsck_also bare.git
'

test_expect_success 'a .git file "gitdir: <relative path>"' '
	dirc init -q gf &&
	mv gf/.git gf-store &&
	echo "gitdir: ../gf-store" >gf/.git &&
	echo "via gitfile" >gf/f &&
	(
		cd gf &&
		dirc hash-object -w f >../gf.id
	) &&
	test_path_is_file "$(obj_path gf-store/objects $(cat gf.id))" &&
	mkdir gf/sub &&
	(
		cd gf/sub &&
		dirc cat-file -p $(cat ../../gf.id) >../../actual
	) &&
	test_cmp gf/f actual &&
	test_fsck_also gf-store
'

test_expect_success 'a .git file "gitdir: <absolute path>"' '
	dirc init -q gfa &&
	mv gfa/.git gfa-store &&
	echo "gitdir: $TRASH_DIRECTORY/gfa-store" >gfa/.git &&
	(
		cd gfa &&
		dirc hash-object -w ../file >../actual
	) &&
	echo $id >expect &&
	test_cmp expect actual &&
	test_path_is_file "$(obj_path gfa-store/objects $id)" &&
	test_fsck_also gfa-store
'

test_expect_success GIT 'a .git file: git agrees on the git directory' '
	(
		cd gf &&
		git rev-parse --git-dir >../actual &&
		git cat-file -t $(cat ../gf.id) >>../actual
	) &&
	test_write_lines "$TRASH_DIRECTORY/gf-store" blob >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'a .git file naming nothing, or not a gitfile: the errors of git' '
	mkdir gfbad &&
	echo "gitdir: nowhere" >gfbad/.git &&
	(
		cd gfbad &&
		test_expect_code 128 dirc hash-object -w ../file 2>../err &&
		test_expect_code 128 git hash-object -w ../file 2>../expect
	) &&
	test_cmp expect err &&
	echo "not a gitfile" >gfbad/.git &&
	(
		cd gfbad &&
		test_expect_code 128 dirc cat-file -t $id 2>../err &&
		test_expect_code 128 git cat-file -t $id 2>../expect
	) &&
	test_cmp expect err
'

test_expect_success 'GIT_DIR: used from anywhere, absolute or relative' '
	dirc init -q other &&
	echo "for other" >other-file &&
	GIT_DIR=other/.git dirc hash-object -w other-file >actual &&
	oid=$(cat actual) &&
	test_path_is_file "$(obj_path other/.git/objects $oid)" &&
	test_path_is_missing "$(obj_path .git/objects $oid)" &&
	(
		cd sub/deeper &&
		GIT_DIR="$TRASH_DIRECTORY/other/.git" &&
		export GIT_DIR &&
		dirc cat-file -t $oid >../../actual
	) &&
	echo blob >expect &&
	test_cmp expect actual &&
	test_fsck_also other
'

test_expect_success 'GIT_DIR of a bare repository' '
	GIT_DIR=bare.git dirc hash-object -w other-file >actual &&
	test_path_is_file "$(obj_path bare.git/objects $(cat actual))"
'

test_expect_success GIT 'GIT_DIR that is not a repository: the error of git' '
	test_expect_code 128 env GIT_DIR=nonexist dirc hash-object -w file 2>err &&
	echo "fatal: not a git repository: '\''nonexist'\''" >expect &&
	test_cmp expect err &&
	test_expect_code 128 env GIT_DIR=nonexist git hash-object -w file 2>expect &&
	test_cmp expect err &&
	test_expect_code 128 env GIT_DIR=sub dirc cat-file -t $id 2>err &&
	test_expect_code 128 env GIT_DIR=sub git cat-file -t $id 2>expect &&
	test_cmp expect err
'

test_expect_success '--git-dir=<path> and --git-dir <path>' '
	echo "via git-dir" >gd-file &&
	dirc --git-dir=other/.git hash-object -w gd-file >actual &&
	test_path_is_file "$(obj_path other/.git/objects $(cat actual))" &&
	test_path_is_missing "$(obj_path .git/objects $(cat actual))" &&
	dirc --git-dir other/.git cat-file -t $(cat actual) >type &&
	echo blob >expect &&
	test_cmp expect type &&
	test_expect_code 128 dirc --git-dir=nonexist cat-file -t $id 2>err &&
	test_grep "^fatal: not a git repository: '\''nonexist'\''" err
'

test_expect_success 'GIT_DIR with GIT_WORK_TREE, from outside both' '
	mkdir elsewhere &&
	(
		cd elsewhere &&
		GIT_DIR=../other/.git GIT_WORK_TREE=../other dirc hash-object -w ../file >../actual &&
		dirc --git-dir=../other/.git --work-tree=../other cat-file -t $id >>../actual
	) &&
	test_write_lines $id blob >expect &&
	test_cmp expect actual &&
	test_path_is_file "$(obj_path other/.git/objects $id)"
'

test_expect_success GIT 'GIT_WORK_TREE naming nothing is fatal, as in git' '
	test_expect_code 128 env GIT_WORK_TREE=/nonexistent/dir \
		dirc cat-file -t $id 2>actual &&
	test_expect_code 128 env GIT_WORK_TREE=/nonexistent/dir \
		git cat-file -t $id 2>expect &&
	test_cmp expect actual
'

test_expect_success 'GIT_OBJECT_DIRECTORY: objects land there only' '
	mkdir altobj &&
	echo "to the other store" >alt-file &&
	GIT_OBJECT_DIRECTORY="$TRASH_DIRECTORY/altobj" dirc hash-object -w alt-file >actual &&
	aid=$(cat actual) &&
	test_path_is_file "$(obj_path altobj $aid)" &&
	test_path_is_missing "$(obj_path .git/objects $aid)" &&
	GIT_OBJECT_DIRECTORY="$TRASH_DIRECTORY/altobj" dirc cat-file -p $aid >content &&
	test_cmp alt-file content &&
	test_expect_code 1 dirc cat-file -e $aid &&
	test_expect_code 1 env GIT_OBJECT_DIRECTORY="$TRASH_DIRECTORY/altobj" \
		dirc cat-file -e $id
'

test_expect_success GIT 'GIT_OBJECT_DIRECTORY: git reads what dirc put there, and the reverse' '
	GIT_OBJECT_DIRECTORY="$TRASH_DIRECTORY/altobj" git cat-file -p $aid >content &&
	test_cmp alt-file content &&
	echo "git wrote this" >alt-file2 &&
	GIT_OBJECT_DIRECTORY="$TRASH_DIRECTORY/altobj" git hash-object -w alt-file2 >gid &&
	GIT_OBJECT_DIRECTORY="$TRASH_DIRECTORY/altobj" dirc cat-file -p $(cat gid) >content &&
	test_cmp alt-file2 content
'

test_expect_success GIT 'GIT_OBJECT_DIRECTORY relative: as git resolves it' '
	mkdir relobj relobj-git &&
	echo relative >rel-file &&
	GIT_OBJECT_DIRECTORY=relobj dirc hash-object -w rel-file >actual &&
	GIT_OBJECT_DIRECTORY=relobj-git git hash-object -w rel-file >expect &&
	test_cmp expect actual &&
	(cd relobj && find . -print | sort) >dirc-list &&
	(cd relobj-git && find . -print | sort) >git-list &&
	test_cmp git-list dirc-list
'

test_expect_success 'GIT_INDEX_FILE: hash-object and cat-file work, no index is made' '
	GIT_INDEX_FILE="$TRASH_DIRECTORY/alt-index" dirc hash-object -w file >actual &&
	GIT_INDEX_FILE=alt-index dirc cat-file -t $id >>actual &&
	test_write_lines $id blob >expect &&
	test_cmp expect actual &&
	test_path_is_missing alt-index &&
	test_path_is_missing .git/index
'

test_expect_success GIT 'GIT_CEILING_DIRECTORIES: a repository above the ceiling is not found' '
	(
		cd sub/deeper &&
		GIT_CEILING_DIRECTORIES="$TRASH_DIRECTORY/sub" &&
		export GIT_CEILING_DIRECTORIES &&
		test_expect_code 128 dirc hash-object -w subfile 2>../../err &&
		test_expect_code 128 dirc cat-file -t $id 2>../../err2 &&
		test_expect_code 128 git hash-object -w subfile 2>../../expect
	) &&
	echo "$notrepo_msg" >expect.msg &&
	test_cmp expect.msg err &&
	test_cmp expect.msg err2 &&
	test_cmp expect err
'

test_expect_success 'GIT_CEILING_DIRECTORIES: the ceiling itself is still searched' '
	(
		cd sub &&
		GIT_CEILING_DIRECTORIES="$TRASH_DIRECTORY/sub" &&
		export GIT_CEILING_DIRECTORIES &&
		dirc cat-file -t $id >../actual
	) &&
	echo blob >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'GIT_DISCOVERY_ACROSS_FILESYSTEM: not a boolean is fatal, as in git' '
	for v in xyz 2x
	do
		test_expect_code 128 env GIT_DISCOVERY_ACROSS_FILESYSTEM=$v \
			dirc rev-parse --git-dir >out 2>err &&
		test_expect_code 128 env GIT_DISCOVERY_ACROSS_FILESYSTEM=$v \
			git rev-parse --git-dir >expect 2>expect.err &&
		test_cmp expect.err err &&
		test_must_be_empty out || return 1
	done &&
	test_grep "^fatal: bad boolean config value .2x. for .GIT_DISCOVERY_ACROSS_FILESYSTEM.$" err &&
	# without discovery (GIT_DIR) nothing reads it
	GIT_DIR=.git GIT_DISCOVERY_ACROSS_FILESYSTEM=xyz \
		dirc rev-parse --git-dir >out &&
	echo .git >expect &&
	test_cmp expect out
'

test_lazy_prereq MOUNT_NS '
	mkdir mp &&
	unshare -rm sh -c "mount -t tmpfs none mp"
'

test_expect_success GIT,MOUNT_NS 'GIT_DISCOVERY_ACROSS_FILESYSTEM: a mount point is crossed only when true, as in git' '
	mkdir -p fs/mp &&
	git init -q fs &&
	cat >fs/run.sh <<-\EOF &&
	mount -t tmpfs none mp &&
	mkdir mp/sub &&
	cd mp/sub &&
	for v in unset empty 0 false no off 1 true yes on
	do
		for p in git dirc
		do
			case $v in
			unset) unset GIT_DISCOVERY_ACROSS_FILESYSTEM ;;
			empty) GIT_DISCOVERY_ACROSS_FILESYSTEM= ;;
			*) GIT_DISCOVERY_ACROSS_FILESYSTEM=$v ;;
			esac
			export GIT_DISCOVERY_ACROSS_FILESYSTEM
			$p ls-files >../../$p.$v.out 2>../../$p.$v.err
			echo $? >../../$p.$v.code
		done
	done &&
	dirc rev-parse --git-dir >../../found
	EOF
	(cd fs && unshare -rm sh run.sh) &&
	for v in unset empty 0 false no off 1 true yes on
	do
		for f in code out err
		do
			test_cmp fs/git.$v.$f fs/dirc.$v.$f || return 1
		done &&
		case $v in
		1|true|yes|on) echo 0 ;;
		*) echo 128 ;;
		esac >expect &&
		test_cmp expect fs/dirc.$v.code || return 1
	done &&
	test_grep "Stopping at filesystem boundary" fs/dirc.false.err &&
	echo "$TRASH_DIRECTORY/fs/.git" >expect &&
	test_cmp expect fs/found
'

test_expect_success 'GIT_CEILING_DIRECTORIES: a list, a trailing slash, a ceiling elsewhere' '
	(
		cd sub/deeper &&
		GIT_CEILING_DIRECTORIES="/nonexistent:$TRASH_DIRECTORY/sub/" &&
		export GIT_CEILING_DIRECTORIES &&
		test_expect_code 128 dirc cat-file -t $id 2>../../err
	) &&
	echo "$notrepo_msg" >expect &&
	test_cmp expect err &&
	(
		cd sub/deeper &&
		GIT_CEILING_DIRECTORIES="/nonexistent:$TRASH_DIRECTORY/other" &&
		export GIT_CEILING_DIRECTORIES &&
		dirc cat-file -t $id >../../actual
	) &&
	echo blob >expect &&
	test_cmp expect actual
'

test_expect_success 'GIT_CEILING_DIRECTORIES: does not limit GIT_DIR' '
	(
		cd sub/deeper &&
		GIT_CEILING_DIRECTORIES="$TRASH_DIRECTORY/sub" &&
		GIT_DIR="$TRASH_DIRECTORY/.git" &&
		export GIT_CEILING_DIRECTORIES GIT_DIR &&
		dirc cat-file -t $id >../../actual
	) &&
	echo blob >expect &&
	test_cmp expect actual
'

test_expect_success 'no repository: -w and cat-file fail with git'\''s message, 128' '
	(
		cd sub/deeper &&
		GIT_CEILING_DIRECTORIES="$TRASH_DIRECTORY/sub" &&
		export GIT_CEILING_DIRECTORIES &&
		test_expect_code 128 dirc cat-file -p $id >../../out 2>../../err
	) &&
	test_must_be_empty out &&
	echo "$notrepo_msg" >expect &&
	test_cmp expect err
'

test_expect_success '-C <dir>: runs as if started there; several -C add up' '
	dirc -C sub/deeper hash-object subfile >actual &&
	dirc -C sub -C deeper hash-object subfile >>actual &&
	dirc -C "" hash-object file >>actual &&
	test_write_lines $subid $subid $id >expect &&
	test_cmp expect actual &&
	dirc -C other hash-object -w ../other-file >actual &&
	test_path_is_file "$(obj_path other/.git/objects $(cat actual))"
'

test_expect_success GIT '-C <dir>: as git' '
	dirc -C sub hash-object deeper/subfile ../file >actual &&
	git -C sub hash-object deeper/subfile ../file >expect &&
	test_cmp expect actual
'

test_expect_success GIT '-C to a missing directory: fatal, 128, as git' '
	test_expect_code 128 dirc -C nonexistent hash-object file 2>err &&
	test_expect_code 128 git -C nonexistent hash-object file 2>expect &&
	test_cmp expect err
'

test_expect_success GIT 'not in a repository: every command answers -h with its usage, 129' '
	mkdir -p outside &&
	dirc help >cmds &&
	sed -n "s/^   \([a-z][a-z-]*\)  .*/\1/p" cmds >names &&
	test_line_count -gt 10 names &&
	test_write_lines update-index init-db checkout-cache >>names &&
	(
		cd outside &&
		GIT_CEILING_DIRECTORIES=$TRASH_DIRECTORY &&
		export GIT_CEILING_DIRECTORIES &&
		while read -r cmd
		do
			test_expect_code 129 dirc $cmd -h >../out 2>../err &&
			case $cmd in
			update-cache|update-index)
				# git'"'"'s usage, where git prints it (t2107)
				test_grep "^usage: git update-index " ../err &&
				test_grep "^   or: dirc update-cache " ../err &&
				test_must_be_empty ../out ;;
			rev-parse|merge-index|diff-files|diff-index|diff-tree)
				# git prints these usages on stderr too
				test_grep "^usage: dirc $cmd " ../err &&
				test_must_be_empty ../out ;;
			*)
				test_grep "^usage: dirc " ../out &&
				test_must_be_empty ../err ;;
			esac &&
			# where git has the command, it agrees on the status
			case $cmd in
			update-cache|checkout-cache) ;;
			*) test_expect_code 129 git $cmd -h >../out 2>../err ;;
			esac || return 1
		done <../names
	)
'

test_expect_success GIT 'git accepts the repositories after all this' '
	git fsck --strict &&
	git -C other fsck --strict
'

test_done
