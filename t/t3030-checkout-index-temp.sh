#!/bin/sh
test_description='checkout-index --temp and --stage: git'"'"'s listing, files, messages

Two repositories with the same index and work tree (lib-checkout'"'"'s
twins): "git checkout-index ARGS" runs in rg and "dirc checkout-index
ARGS" in rd.  The temporary names are random, so they are compared as
".merge_file_X" and ".merge_link_X" (INTEROP_FILTER); everything else
(exit code, the listing, stderr, the work trees with the temporary files
in them, the entries) must be equal, and each listed file must hold the
blob of its stage, mode 0600.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-checkout.sh

INTEROP_STATE=twins
INTEROP_FILTER=blank_temp

# the random part of temporary names, blanked (stdin to stdout)
blank_temp () {
	sed -e "s/\.merge_\(file\|link\)_[A-Za-z0-9]\{6\}/.merge_\1_X/g"
}

# temp_files_ok [SUBDIR]: every name dirc listed (one stage, or three
# with --stage=all) is a file at the top of rd, mode 600, holding the
# blob of that stage (a symlink: its target).
temp_files_ok () {
	tf_n=0 &&
	while IFS="	" read -r names path
	do
		case $path in
		\"*) continue ;;	# quoted: checked by hand
		esac &&
		tf_stage=1 &&
		for name in $names
		do
			if test "$name" != .
			then
				test_path_is_file "rd/$name" &&
				echo 600 >expect.mode &&
				stat -c %a "rd/$name" >actual.mode &&
				test_cmp expect.mode actual.mode &&
				case $names in
				*" "*) spec=":$tf_stage:${1:+$1/}$path" ;;
				*) spec=":${1:+$1/}$path" ;;
				esac &&
				(cd "rd/${1:-.}" && git cat-file blob "$spec") >expect.blob &&
				test_cmp expect.blob "rd/$name" &&
				tf_n=$((tf_n + 1)) || return 1
			fi &&
			tf_stage=$((tf_stage + 1)) || return 1
		done || return 1
	done <dirc.out &&
	test "$tf_n" -gt 0
}

# clean: the temporary files gone from both repositories
clean () {
	rm -f rg/.merge_* rd/.merge_* rg/sub/.merge_* rd/sub/.merge_*
}

test_expect_success GIT 'setup: rg and rd, stage 0 files, a symlink, unmerged paths' '
	git init -q rg &&
	(
		cd rg &&
		mkdir -p sub &&
		echo one >one &&
		echo two >sub/two &&
		printf "#!/bin/sh\n" >x &&
		chmod +x x &&
		echo sp >"sp ace" &&
		echo t >"$(printf "t\tab")" &&
		ln -s one lnk &&
		git update-index --add one sub/two x "sp ace" "$(printf "t\tab")" lnk &&
		b1=$(echo base | git hash-object -w --stdin) &&
		b2=$(echo ours | git hash-object -w --stdin) &&
		b3=$(echo theirs | git hash-object -w --stdin) &&
		l2=$(printf one | git hash-object -w --stdin) &&
		cat >../info <<-EOF &&
		100644 $b1 1	all3
		100644 $b2 2	all3
		100644 $b3 3	all3
		100755 $b2 2	no1
		100644 $b3 3	no1
		100644 $b1 1	no2
		100644 $b3 3	no2
		100644 $b1 1	no3
		120000 $l2 2	no3
		100644 $b1 1	sub/only1
		100644 $b2 2	sub/u
		100644 $b3 3	sub/u
		EOF
		git update-index --index-info <../info &&
		git update-index -q --unmerged --refresh
	) &&
	cp -R rg rd &&
	git -C rd update-index -q --unmerged --refresh &&
	test_fsck_also rg rd
'

test_expect_success GIT '--temp one path: "<name>\t<path>", a 0600 file with the blob' '
	test_when_finished clean &&
	interop_run checkout-index --temp one &&
	same_result &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	test_line_count = 1 dirc.out &&
	blank_temp <dirc.out >actual &&
	printf ".merge_file_X\tone\n" >expect &&
	test_cmp expect actual &&
	temp_files_ok &&
	echo one >expect &&
	test_cmp expect rd/one
'

test_expect_success GIT '--temp -a: stage 0 entries only, unmerged paths skipped' '
	test_when_finished clean &&
	interop_run checkout-index --temp -a &&
	same_result &&
	test_line_count = 6 dirc.out &&
	temp_files_ok &&
	! grep all3 dirc.out
'

test_expect_success GIT '--temp: a symlink is a .merge_link_ file holding the target' '
	test_when_finished clean &&
	interop_run checkout-index --temp lnk &&
	same_result &&
	name=$(cut -f1 dirc.out) &&
	case $name in .merge_link_??????) : ;; *) false ;; esac &&
	test_path_is_file "rd/$name" &&
	! test -h "rd/$name" &&
	printf one >expect &&
	test_cmp expect "rd/$name"
'

test_expect_success GIT '--temp: an executable gets mode 0600 too; names are quoted as git quotes them' '
	test_when_finished clean &&
	interop_run checkout-index --temp x "sp ace" "$(printf "t\tab")" &&
	same_result &&
	temp_files_ok &&
	grep "	\"t\\\\tab\"\$" dirc.out &&
	name=$(grep "t\\\\tab" dirc.out | cut -f1) &&
	echo t >expect &&
	test_cmp expect "rd/$name"
'

test_expect_success GIT '--temp -z: NUL after each record, names not quoted' '
	test_when_finished clean &&
	interop_run checkout-index --temp -z one "$(printf "t\tab")" &&
	same_result &&
	tr "\000" "\n" <dirc.out >records &&
	test_line_count = 2 records &&
	grep "	t	ab\$" records
'

test_expect_success GIT '--stage=all: "<s1> <s2> <s3>\t<path>", "." for a missing stage' '
	test_when_finished clean &&
	interop_run checkout-index --stage=all all3 no1 no2 no3 sub/only1 &&
	same_result &&
	test_line_count = 5 dirc.out &&
	temp_files_ok &&
	cut -f1 dirc.out | blank_temp >actual &&
	cat >expect <<-\EOF &&
	.merge_file_X .merge_file_X .merge_file_X
	. .merge_file_X .merge_file_X
	.merge_file_X . .merge_file_X
	.merge_file_X .merge_link_X .
	.merge_file_X . .
	EOF
	test_cmp expect actual
'

test_expect_success GIT '--stage=all -a: one line per unmerged path; a stage-0 path is left out' '
	test_when_finished clean &&
	interop_run checkout-index --stage=all -a &&
	same_result &&
	test_line_count = 6 dirc.out &&
	temp_files_ok &&
	interop_run checkout-index --stage=all one &&
	same_result &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	test_must_be_empty dirc.out
'

test_expect_success GIT '--stage=2 --temp, --stage=3 -a --temp' '
	test_when_finished clean &&
	interop_run checkout-index --stage=2 --temp all3 no1 no3 &&
	same_result &&
	test_line_count = 3 dirc.out &&
	clean &&
	interop_run checkout-index --stage=3 -a --temp &&
	same_result &&
	test_line_count = 4 dirc.out
'

test_expect_success GIT 'a missing stage: "does not exist at stage N", exit 1; -q hides it' '
	test_when_finished clean &&
	interop_run checkout-index --stage=3 --temp no3 one &&
	same_result &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	cat >expect <<-\EOF &&
	git checkout-index: no3 does not exist at stage 3
	git checkout-index: one does not exist at stage 3
	EOF
	test_cmp expect dirc.err &&
	interop_run checkout-index -q --stage=3 --temp no3 &&
	same_result &&
	test_must_be_empty dirc.err
'

test_expect_success GIT 'from a subdirectory: paths relative to it, files at the top, -a limited to it' '
	test_when_finished clean &&
	interop_run -C sub checkout-index --temp two ../one &&
	same_result &&
	cut -f2 dirc.out >actual &&
	printf "two\n../one\n" >expect &&
	test_cmp expect actual &&
	test_path_is_missing rd/sub/.merge_file_* &&
	clean &&
	interop_run -C sub checkout-index --stage=all -a &&
	same_result &&
	cut -f2 dirc.out >actual &&
	printf "only1\nu\n" >expect &&
	test_cmp expect actual &&
	temp_files_ok sub &&
	clean &&
	interop_run -C sub checkout-index --temp -a &&
	same_result &&
	test_line_count = 1 dirc.out
'

test_expect_success GIT '--stage=N without --temp writes the work-tree file' '
	test_when_finished "clean; rm -f rg/all3 rd/all3 rg/no1 rd/no1" &&
	interop_run checkout-index --stage=2 all3 no1 &&
	same_result &&
	echo ours >expect &&
	test_cmp expect rd/all3 &&
	test -x rd/no1 &&
	interop_run checkout-index --stage=3 all3 &&
	same_result &&
	echo "all3 already exists, no checkout" >expect &&
	test_cmp expect dirc.err
'

# git 2.39 took "--stage=all --no-temp" (the stages written over each
# other in the work tree) and let the options'"'"' order decide; git 2.55
# refuses it, in any order
test_expect_success GIT '--stage=all --no-temp: fatal, 128, nothing written (git 2.55)' '
	test_when_finished "clean; rm -f rd/all3" &&
	echo "fatal: options '"'"'--stage=all'"'"' and '"'"'--no-temp'"'"' cannot be used together" >expect &&
	cp rd/.git/index index.before &&
	for args in "--stage=all --no-temp" "--no-temp --stage=all" \
		"--stage=all --temp --no-temp" "-f -u --no-temp --stage=all"
	do
		test_expect_code 128 dirc -C rd checkout-index $args all3 \
			>out 2>err &&
		test_must_be_empty out &&
		test_cmp expect err &&
		test_path_is_missing rd/all3 &&
		test_cmp index.before rd/.git/index &&
		test_path_is_missing rd/.git/index.lock &&
		ls -a rd >files &&
		! grep "^\.merge_" files &&
		test_expect_code 128 dirc -C rd checkout-index $args -a \
			>out 2>err &&
		test_cmp expect err &&
		if test_have_prereq GIT_NEW
		then
			test_expect_code 128 git_new -C rg checkout-index \
				$args all3 >out 2>err &&
			test_cmp expect err
		fi || return 1
	done &&
	dirc -C rd checkout-index --no-temp --temp --stage=all all3 >out &&
	test_line_count = 1 out &&
	test_path_is_missing rd/all3
'

test_expect_success GIT '--stage=N -u: the stage entries get stat data, the index is written' '
	test_when_finished "rm -f rg/all3 rd/all3; git -C rg update-index --index-info <info; git -C rd update-index --index-info <info" &&
	interop_run checkout-index -u --stage=1 all3 &&
	same_result &&
	git -C rd ls-files --debug all3 >debug &&
	grep "size: 5" debug &&
	git -C rd update-index -q --unmerged --refresh
'

test_expect_success GIT '--temp -u, --stage=all -u: the index is not written, no lock taken' '
	test_when_finished "clean; rm -f rg/.git/index.lock rd/.git/index.lock" &&
	cp rd/.git/index index.before &&
	: >rg/.git/index.lock &&
	: >rd/.git/index.lock &&
	interop_run checkout-index -u --temp one &&
	same_result &&
	interop_run checkout-index -u --stage=all all3 &&
	same_result &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	test_cmp index.before rd/.git/index
'

test_expect_success GIT '--prefix does not apply to --temp' '
	test_when_finished clean &&
	interop_run checkout-index --temp --prefix=out/ one &&
	same_result &&
	test_path_is_missing rd/out
'

test_expect_success GIT 'bad --stage values: fatal, 128; "1x" is stage 1 as in git' '
	for v in 0 4 01 "" all3 ALL " 1"
	do
		interop_run checkout-index "--stage=$v" one &&
		same_result &&
		echo 128 >expect &&
		test_cmp expect dirc.code &&
		echo "fatal: stage should be between 1 and 3 or all" >expect &&
		test_cmp expect dirc.err || return 1
	done &&
	interop_run checkout-index --stage=1x --temp no2 &&
	same_result &&
	test_line_count = 1 dirc.out &&
	interop_run checkout-index --no-stage one &&
	test_cmp_codes git.code dirc.code &&
	head -n 1 git.err >expect &&
	head -n 1 dirc.err >actual &&
	test_cmp expect actual
'

test_expect_success GIT 'skip-worktree: named path refused (-q: silently), -a skips it, the bits option checks it out' '
	test_when_finished "clean; git -C rg update-index --no-skip-worktree sub/two; git -C rd update-index --no-skip-worktree sub/two; git -C rg checkout-index -f sub/two; git -C rd checkout-index -f sub/two" &&
	git -C rg update-index --skip-worktree sub/two &&
	git -C rd update-index --skip-worktree sub/two &&
	rm rg/sub/two rd/sub/two &&
	interop_run checkout-index sub/two &&
	same_result &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	echo "git checkout-index: sub/two has skip-worktree enabled; use '"'"'--ignore-skip-worktree-bits'"'"' to checkout" >expect &&
	test_cmp expect dirc.err &&
	interop_run checkout-index -q sub/two &&
	same_result &&
	test_must_be_empty dirc.err &&
	interop_run checkout-index --temp sub/two &&
	same_result &&
	interop_run checkout-index -a &&
	same_result &&
	test_path_is_missing rd/sub/two &&
	interop_run checkout-index --temp -a &&
	same_result &&
	! grep sub/two dirc.out &&
	clean &&
	interop_run checkout-index --ignore-skip-worktree-bits sub/two &&
	same_result &&
	test_path_is_file rd/sub/two &&
	rm rg/sub/two rd/sub/two &&
	interop_run checkout-index --ignore-skip-worktree-bits -a -u &&
	same_result &&
	test_path_is_file rd/sub/two &&
	git -C rd ls-files -t sub/two >actual &&
	echo "S sub/two" >expect &&
	test_cmp expect actual
'

test_expect_success GIT '--all with --stdin, --stdin with names: git'"'"'s fatal messages' '
	interop_run checkout-index -a --stdin &&
	same_result &&
	echo "fatal: git checkout-index: don'"'"'t mix '"'"'--all'"'"' and '"'"'--stdin'"'"'" >expect &&
	test_cmp expect dirc.err &&
	interop_run checkout-index --stdin one &&
	same_result &&
	echo "fatal: git checkout-index: don'"'"'t mix '"'"'--stdin'"'"' and explicit filenames" >expect &&
	test_cmp expect dirc.err &&
	interop_run checkout-index -a --stdin one &&
	same_result
'

test_expect_success GIT 'a trailing "." or ".." component names a directory, as in git' '
	interop_run -C sub checkout-index . &&
	same_result &&
	echo "git checkout-index: sub/ is not in the cache" >expect &&
	test_cmp expect dirc.err &&
	interop_run -C sub checkout-index two/. ../sub/. two/.. &&
	same_result &&
	echo 1 >expect &&
	test_cmp expect dirc.code
'

test_expect_success GIT 'setup: a repository with missing blobs and a submodule entry' '
	git init -q mg &&
	(
		cd mg &&
		echo ok >ok &&
		git update-index --add ok &&
		missing=$(echo "no such blob here" | git hash-object --stdin) &&
		printf "100644 %s\tfile\n120000 %s\tsymlink\n" $missing $missing >info &&
		printf "160000 %s\tsubm\n" $(git rev-parse :ok) >>info &&
		printf "100644 %s 1\tun\n100644 %s 2\tun\n" $missing $(git rev-parse :ok) >>info &&
		printf "160000 %s 3\tun\n" $(git rev-parse :ok) >>info &&
		git update-index --index-info <info &&
		rm info
	) &&
	cp -R mg md
'

# git and dirc in the twins mg and md; the listing is compared without
# the lines of entries git names a temporary file for that it never wrote
mg_both () {
	CHECKOUT_GIT=mg CHECKOUT_DIRC=md
	interop_run checkout-index "$@"
	mg_rc=$?
	CHECKOUT_GIT=rg CHECKOUT_DIRC=rd
	return $mg_rc
}

test_expect_success GIT '--temp with missing blobs: git'"'"'s errors, exit 1, the others written' '
	test_when_finished "rm -f mg/.merge_* md/.merge_*" &&
	mg_both --temp symlink file ok &&
	test_cmp_codes git.code dirc.code &&
	test_cmp git.err dirc.err &&
	missing=$(echo "no such blob here" | git hash-object --stdin) &&
	cat >expect <<-EOF &&
	error: unable to read sha1 file of symlink ($missing)
	error: unable to read sha1 file of file ($missing)
	EOF
	test_cmp expect dirc.err &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	blank_temp <dirc.out >actual &&
	printf ".merge_file_X\tok\n" >expect &&
	test_cmp expect actual &&
	ls md/.merge_* >files &&
	test_line_count = 1 files
'

test_expect_success GIT '--temp of a submodule: "cannot create temporary submodule", exit 1' '
	test_when_finished "rm -f mg/.merge_* md/.merge_*" &&
	mg_both --temp subm ok &&
	test_cmp_codes git.code dirc.code &&
	test_cmp git.err dirc.err &&
	echo "error: cannot create temporary submodule subm" >expect &&
	test_cmp expect dirc.err &&
	blank_temp <git.out >expect &&
	blank_temp <dirc.out >actual &&
	test_cmp expect actual
'

test_expect_success GIT '--stage=all with a missing blob and a submodule stage: "." for both' '
	test_when_finished "rm -f mg/.merge_* md/.merge_*" &&
	mg_both --stage=all un &&
	test_cmp_codes git.code dirc.code &&
	test_cmp git.err dirc.err &&
	blank_temp <dirc.out >actual &&
	printf ". .merge_file_X .\tun\n" >expect &&
	test_cmp expect actual
'

test_done
