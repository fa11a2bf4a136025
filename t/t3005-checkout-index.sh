#!/bin/sh
test_description='checkout-index: the work tree git writes, the same messages and exit codes

Two repositories with the same index and work tree: "git checkout-index
ARGS" runs in rg and "dirc checkout-index ARGS" in rd.  Exit code, stdout,
stderr, the work trees (types, modes, contents, link targets) and the
entries must be equal; with -u the index must be clean afterwards for git
diff-files and for dirc update-cache --refresh.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-checkout.sh

INTEROP_STATE=twins

# index_clean REPO: git diff-files and dirc update-cache --refresh find
# nothing to do in REPO.
index_clean () {
	git -C "$1" diff-files >diff &&
	test_must_be_empty diff &&
	(cd "$1" && dirc update-cache --refresh) >refresh.out 2>&1 &&
	test_must_be_empty refresh.out
}

# restore: both work trees back to the index (by git), index refreshed.
restore () {
	for r in rg rd
	do
		(
			cd $r &&
			git ls-files -u | cut -f2 | sort -u >unmerged &&
			if test -s unmerged
			then
				git update-index --force-remove $(cat unmerged)
			fi &&
			rm -f unmerged &&
			git checkout-index -f -a &&
			git update-index -q --refresh
		) || return 1
	done
}

test_expect_success GIT 'setup: rg and rd, same index and files' '
	git init -q rg &&
	(
		cd rg &&
		mkdir -p d/e "sp ace" &&
		echo a >a &&
		echo b >b &&
		echo f >d/e/f &&
		echo g >d/g &&
		printf "#!/bin/sh\n" >x &&
		chmod +x x &&
		echo y >d/e/y &&
		chmod 755 d/e/y &&
		: >empty &&
		echo s >"sp ace/in side" &&
		printf "caf\303\251\n" >"$(printf "caf\303\251")" &&
		ln -s a l &&
		ln -s "d/e/no where" dangling &&
		git update-index --add a b d/e/f d/g x d/e/y empty \
			"sp ace/in side" "$(printf "caf\303\251")" l dangling
	) &&
	cp -R rg orig &&
	rm -rf orig/.git &&
	cp -R rg rd &&
	git -C rd update-index -q --refresh &&
	test_fsck_also rg rd
'

test_expect_success GIT '-a into an empty work tree: files, modes, symlinks' '
	for r in rg rd
	do
		(cd $r && find . -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +) || return 1
	done &&
	snapshot rd >empty.tree &&
	echo "dir 755 ." >expect &&
	test_cmp expect empty.tree &&
	interop_run checkout-index -a &&
	same_result &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	test_must_be_empty dirc.err &&
	test_must_be_empty dirc.out &&
	diff -r --no-dereference -x .git orig rd >/dev/null &&
	snapshot orig >orig.tree &&
	snapshot rd >rd.tree &&
	test_cmp orig.tree rd.tree &&
	test -h rd/l &&
	echo a >expect &&
	readlink rd/l >actual &&
	test_cmp expect actual
'

test_expect_success GIT 'umask is applied to new files and directories' '
	restore &&
	for r in rg rd
	do
		rm -rf $r/d || return 1
	done &&
	(
		umask 077 &&
		interop_run checkout-index d/g d/e/f d/e/y
	) &&
	same_result &&
	stat -c %a rd/d rd/d/g rd/d/e/y >actual &&
	printf "700\n600\n700\n" >expect &&
	test_cmp expect actual &&
	chmod 755 rg/d rg/d/e rd/d rd/d/e &&
	chmod 644 rg/d/g rg/d/e/f rd/d/g rd/d/e/f &&
	chmod 755 rg/d/e/y rd/d/e/y &&
	restore
'

test_expect_success GIT 'an up-to-date file: skipped silently, exit 0' '
	interop_run checkout-index a &&
	same_result &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	test_must_be_empty dirc.err
'

test_expect_success GIT 'a changed file: "already exists, no checkout", exit 1' '
	test_when_finished restore &&
	echo changed >rg/a &&
	echo changed >rd/a &&
	interop_run checkout-index a &&
	same_result &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	echo "a already exists, no checkout" >expect &&
	test_cmp expect dirc.err &&
	echo changed >expect &&
	test_cmp expect rd/a
'

test_expect_success GIT 'a changed file with -a: the same message and exit 1' '
	test_when_finished restore &&
	echo changed >rg/a &&
	echo changed >rd/a &&
	interop_run checkout-index -a &&
	same_result &&
	echo 1 >expect &&
	test_cmp expect dirc.code
'

test_expect_success GIT '-q: no message, still exit 1' '
	test_when_finished restore &&
	echo changed >rg/a &&
	echo changed >rd/a &&
	interop_run checkout-index -q a &&
	same_result &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	test_must_be_empty dirc.err &&
	interop_run checkout-index -q nosuch &&
	same_result &&
	test_must_be_empty dirc.err
'

test_expect_success GIT '-f overwrites a changed file' '
	echo changed >rg/a &&
	echo changed >rd/a &&
	interop_run checkout-index -f a &&
	same_result &&
	echo a >expect &&
	test_cmp expect rd/a &&
	restore
'

test_expect_success GIT '-n: missing files are not created' '
	test_when_finished restore &&
	rm rg/b rd/b &&
	interop_run checkout-index -n b &&
	same_result &&
	test_path_is_missing rd/b &&
	interop_run checkout-index -n -a &&
	same_result &&
	test_path_is_missing rd/b
'

test_expect_success GIT '-n -a with a changed file: exit 1 like git' '
	test_when_finished restore &&
	echo changed >rg/a &&
	echo changed >rd/a &&
	interop_run checkout-index -n -a &&
	same_result &&
	echo 1 >expect &&
	test_cmp expect dirc.code
'

test_expect_success GIT '-n -f: only existing files are rewritten' '
	test_when_finished restore &&
	rm rg/b rd/b &&
	echo changed >rg/a &&
	echo changed >rd/a &&
	interop_run checkout-index -n -f a b &&
	same_result &&
	test_path_is_missing rd/b &&
	echo a >expect &&
	test_cmp expect rd/a
'

test_expect_success GIT '-u: the index gets fresh stat data, everything clean after' '
	rm rg/a rd/a rg/d/e/f rd/d/e/f &&
	echo "a changed" >rg/b &&
	echo "a changed" >rd/b &&
	interop_run checkout-index -u -f a b d/e/f &&
	same_result &&
	test_path_is_missing rd/.git/index.lock &&
	index_clean rg &&
	index_clean rd
'

test_expect_success GIT '-u -a into an empty work tree: clean after' '
	for r in rg rd
	do
		(cd $r && find . -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +) || return 1
	done &&
	interop_run checkout-index -u -a &&
	same_result &&
	index_clean rd
'

test_expect_success GIT '--prefix=out/: a copy of the tree under out/' '
	test_when_finished "rm -rf rg/out rd/out" &&
	interop_run checkout-index --prefix=out/ -a &&
	same_result &&
	echo 0 >expect &&
	test_cmp expect dirc.code &&
	diff -r --no-dereference -x .git orig rd/out >/dev/null
'

test_expect_success GIT '--prefix=out/deeper/ with paths' '
	test_when_finished "rm -rf rg/out rd/out" &&
	interop_run checkout-index --prefix=out/deeper/ a d/e/f &&
	same_result &&
	test_path_is_file rd/out/deeper/d/e/f
'

test_expect_success GIT '--prefix=pre-: a string prefix, not a directory' '
	test_when_finished "rm -rf rg/pre-* rd/pre-*" &&
	interop_run checkout-index --prefix=pre- a d/e/f l &&
	same_result &&
	test_path_is_file rd/pre-a &&
	test_path_is_file rd/pre-d/e/f
'

test_expect_success GIT '--prefix with -u: the index is not touched' '
	test_when_finished "rm -rf rg/out rd/out" &&
	mkdir rg/out rd/out &&
	cp -p rd/.git/index index.before &&
	interop_run checkout-index -u --prefix=out/ a &&
	same_result &&
	test_cmp index.before rd/.git/index
'

test_expect_success GIT '--stdin, and --stdin -z' '
	test_when_finished restore &&
	rm rg/a rd/a rg/d/e/f rd/d/e/f rg/x rd/x &&
	printf "a\nd/e/f\n" >input &&
	interop_run -i input checkout-index --stdin &&
	same_result &&
	test_path_is_file rd/d/e/f &&
	printf "x\000\"sp ace/in side\"\000" >input &&
	interop_run -i input checkout-index -f -z --stdin &&
	same_result &&
	test_path_is_file rd/x
'

test_expect_success GIT '--stdin: C-quoted paths are unquoted' '
	test_when_finished restore &&
	rm "rg/$(printf "caf\303\251")" "rd/$(printf "caf\303\251")" &&
	echo "\"caf\\303\\251\"" >input &&
	interop_run -i input checkout-index --stdin &&
	same_result &&
	test_path_is_file "rd/$(printf "caf\303\251")"
'

test_expect_success GIT 'paths relative to a subdirectory' '
	test_when_finished restore &&
	rm rg/d/e/f rd/d/e/f rg/a rd/a &&
	interop_run -C d checkout-index e/f ../a &&
	same_result &&
	test_path_is_file rd/d/e/f &&
	test_path_is_file rd/a &&
	interop_run -C d checkout-index -f -a &&
	same_result
'

test_expect_success GIT 'core.symlinks=false: a plain file holding the target' '
	test_when_finished "git -C rg config --unset core.symlinks; git -C rd config --unset core.symlinks; rm -f rg/l rd/l; restore" &&
	git -C rg config core.symlinks false &&
	git -C rd config core.symlinks false &&
	rm rg/l rd/l &&
	interop_run checkout-index l &&
	same_result &&
	test_path_is_file rd/l &&
	! test -h rd/l &&
	printf a >expect &&
	test_cmp expect rd/l
'

test_expect_success GIT 'a directory in the way: refused; with -f removed' '
	test_when_finished "rm -rf rg/a rd/a; restore" &&
	rm rg/a rd/a &&
	mkdir -p rg/a/sub rd/a/sub &&
	echo in >rg/a/sub/file &&
	echo in >rd/a/sub/file &&
	interop_run checkout-index a &&
	same_result &&
	test_path_is_dir rd/a &&
	interop_run checkout-index -f a &&
	same_result &&
	test_path_is_file rd/a
'

test_expect_success GIT 'a file in the way of a directory: refused; with -f replaced' '
	test_when_finished "rm -rf rg/d rd/d; restore" &&
	rm -r rg/d rd/d &&
	echo file >rg/d &&
	echo file >rd/d &&
	interop_run checkout-index d/g &&
	same_result &&
	interop_run checkout-index -f d/g &&
	same_result
'

test_expect_success GIT 'a path not in the index: exit 1, git'"'"'s message' '
	interop_run checkout-index nosuch &&
	same_result &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	echo "git checkout-index: nosuch is not in the cache" >expect &&
	test_cmp expect dirc.err &&
	interop_run checkout-index a nosuch b &&
	same_result
'

test_expect_success GIT 'a directory name is not in the cache either' '
	interop_run checkout-index d &&
	same_result
'

test_expect_success GIT 'an unmerged path: refused like git; -a skips it' '
	test_when_finished restore &&
	for r in rg rd
	do
		(
			cd $r &&
			blob=$(git rev-parse :b) &&
			printf "100644 %s 1\tu\n100644 %s 2\tu\n" $blob $blob >../info &&
			git update-index --index-info <../info
		) || return 1
	done &&
	interop_run checkout-index u &&
	same_result &&
	echo 1 >expect &&
	test_cmp expect dirc.code &&
	echo "git checkout-index: u is unmerged" >expect &&
	test_cmp expect dirc.err &&
	interop_run checkout-index -a &&
	same_result &&
	test_path_is_missing rd/u
'

test_expect_success GIT '--all with file names: fatal, 128' '
	interop_run checkout-index -a a &&
	same_result &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	echo "fatal: git checkout-index: don'"'"'t mix '"'"'--all'"'"' and explicit filenames" >expect &&
	test_cmp expect dirc.err
'

test_expect_success GIT 'no arguments: nothing to do, exit 0' '
	interop_run checkout-index &&
	same_result &&
	test_must_be_empty dirc.err
'

test_expect_success GIT '-u with a held index.lock: git'"'"'s message, 128, nothing written' '
	test_when_finished "rm -f rg/.git/index.lock rd/.git/index.lock; restore" &&
	rm rg/a rd/a &&
	: >rg/.git/index.lock &&
	: >rd/.git/index.lock &&
	cp -p rd/.git/index index.before &&
	interop_run checkout-index -u a &&
	test_cmp_codes git.code dirc.code &&
	echo 128 >expect &&
	test_cmp expect dirc.code &&
	git_msgs_now <git.err | sed -e "s|/rg/|/R/|" >expect &&
	sed -e "s|/rd/|/R/|" dirc.err >actual &&
	test_cmp expect actual &&
	test_cmp index.before rd/.git/index &&
	test_must_be_empty rd/.git/index.lock
'

test_expect_success GIT,ULIMIT_FILE_SIZE 'file size limit: clear error, non-zero exit, no partial file, index kept' '
	git init -q full &&
	(
		cd full &&
		test_seq 1 20000 >big &&
		echo small >small &&
		git update-index --add big small &&
		rm big small &&
		cp -p .git/index ../index.before &&
		(
			ulimit -f 8 &&
			trap "" XFSZ &&
			test_must_fail dirc checkout-index -u -a 2>../err
		) &&
		test_path_is_missing big &&
		test_cmp ../index.before .git/index &&
		test_path_is_missing .git/index.lock &&
		find . -name ".merge_file_*" -o -name "*.lock" >../leftover &&
		test_must_be_empty ../leftover
	) &&
	test_grep "big" err
'

# More than 32 MB of packed objects read by one thread (odb.c):
# the packs' pages are dropped from memory midway and read again.
test_expect_success GIT 'setup: 40 MB of incompressible files, packed' '
	git init -q trim &&
	(
		cd trim &&
		mkdir d &&
		for i in $(test_seq 1 40)
		do
			head -c 1048576 /dev/urandom >d/f$i || return 1
		done &&
		git add d &&
		git commit -q -m big &&
		git repack -q -a -d &&
		git prune-packed &&
		find .git/objects -type f -path "*/objects/??/*" >loose &&
		test_must_be_empty loose &&
		rm -rf d
	)
'

test_expect_success GIT 'checkout-index -a of 40 MB packed, packs trimmed midway: git sees no change' '
	(
		cd trim &&
		dirc read-tree HEAD &&
		dirc checkout-index -a --threads=1 &&
		git update-index -q --refresh &&
		git diff-files --quiet &&
		git diff-index --quiet HEAD --
	)
'

test_expect_success GIT 'read-tree -u of 40 MB packed, packs trimmed midway: git sees no change' '
	(
		cd trim &&
		rm -rf d .git/index &&
		dirc read-tree --reset -u HEAD &&
		git diff-files --quiet &&
		git diff-index --quiet HEAD -- &&
		git ls-files >ls &&
		test_line_count = 40 ls
	)
'

test_lazy_prereq STRACE 'strace -o /dev/null true'

# (a sanitizer's allocator calls madvise too: count the pack's length only;
# LeakSanitizer cannot run under ptrace)
test_expect_success GIT,STRACE 'the trim is madvise(MADV_DONTNEED) on the pack, once per 32 MB' '
	(
		cd trim &&
		rm -rf d &&
		ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
			strace -f -e trace=madvise -o ../trim.trace \
			dirc checkout-index -a --threads=1
	) &&
	size=$(cat trim/.git/objects/pack/pack-*.pack | wc -c) &&
	grep -c "madvise(0x[0-9a-f]*, $size, MADV_DONTNEED)" trim.trace >count &&
	echo 1 >expect &&
	test_cmp expect count
'

test_done
