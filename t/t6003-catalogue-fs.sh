#!/bin/sh
test_description='bad-input catalogue: the file system

A file whose size is not what lstat said (DIRC_TEST_SIZE_DRIFT makes the
race deterministic), unreadable files and directories (as an
unprivileged user), and a full disk (ulimit -f, SIGXFSZ ignored) while
writing an object, the index and a checkout: a clear message, git'"'"'s
exit code or a stricter one, and the repository as it was.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-catalogue.sh

test_expect_success 'setup' '
	echo hello >small &&
	awk "BEGIN { for (i = 0; i < 20000; i++) print i }" >mid &&
	echo ok >ok &&
	dirc update-cache --add ok &&
	test $(wc -c <mid) -gt 65536
'

# A file read with read() (small) and one mapped (mid, above the 32 KB
# cut-off), each seen as 1 byte longer, 1 byte shorter and 100,000 bytes
# longer than it is.
test_expect_success 'size not what lstat said: refused, "changed while it was being read", 128, nothing stored' '
	for drift in 1 -1 100000 -3
	do
		for f in small mid
		do
			state_save &&
			test_expect_code 128 env DIRC_TEST_SIZE_DRIFT=$drift \
				dirc update-cache --add $f 2>err &&
			test_grep "^error: file '\''$f'\'' changed while it was being read" err &&
			test_grep "^fatal: Unable to process path $f$" err &&
			state_unchanged &&
			test_expect_code 128 env DIRC_TEST_SIZE_DRIFT=$drift \
				dirc hash-object -w $f 2>err &&
			test_grep "^fatal: file '\''$f'\'' changed while it was being read" err &&
			state_unchanged || return 1
		done
	done
'

test_expect_success 'size not what lstat said, streamed (over 64 MiB): refused too' '
	dd if=/dev/null of=huge bs=1024 seek=65600 2>/dev/null &&
	for drift in 1 -1
	do
		state_save &&
		test_expect_code 128 env DIRC_TEST_SIZE_DRIFT=$drift \
			dirc update-cache --add huge 2>err &&
		test_grep "changed while it was being read" err &&
		state_unchanged &&
		find .git/objects -name "tmp_obj_*" >tmps &&
		test_must_be_empty tmps || return 1
	done &&
	rm -f huge
'

test_expect_success 'DIRC_TEST_SIZE_DRIFT=0 or unset: the same ids as git' '
	DIRC_TEST_SIZE_DRIFT=0 dirc hash-object small mid >actual &&
	dirc hash-object small mid >actual2 &&
	test_cmp actual actual2 &&
	if test_have_prereq GIT
	then
		git hash-object small mid >expect &&
		test_cmp expect actual
	fi
'

# unpriv_repo DIR: a repository under /tmp owned by the run_unpriv user,
# holding top and d/f (both staged), d unreadable (mode 000).
unpriv_repo () {
	mkdir "$1/r" &&
	(
		cd "$1/r" &&
		dirc init -q &&
		mkdir d &&
		echo x >d/f &&
		echo y >top &&
		touch -d @1500000000 d/f top &&
		dirc update-cache --add d/f top
	) &&
	test_chown_unpriv "$1" &&
	chmod 000 "$1/r/d"
}

test_lazy_prereq UNPRIV_TMP '
	test "$(id -u)" != 0 || {
		command -v setpriv &&
		setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
			-- "$DIRC_BUILD_DIR/dirc" --version
	}
'

test_expect_success UNPRIV_TMP,GIT 'an unreadable directory: git'"'"'s messages, exit codes and index' '
	tmp=$(mktemp -d /tmp/dirc-unpriv.XXXXXX) &&
	test_when_finished "chmod -R u+rwx \"$tmp\"; rm -rf \"$tmp\"" &&
	chmod 755 "$tmp" &&
	unpriv_repo "$tmp" &&
	cp "$tmp/r/.git/index" index.before &&
	for args in "update-index --add d/f" "update-index --add d/g" \
		"update-index --refresh" "update-index --really-refresh" \
		"ls-files -m" "ls-files -o" "hash-object d/f" \
		"checkout-index -f -a"
	do
		(
			cd "$tmp/r" &&
			HOME=$tmp &&
			export HOME &&
			{ run_unpriv dirc $args >"$TRASH_DIRECTORY/dirc.out" \
				2>"$TRASH_DIRECTORY/dirc.err"; echo $? >"$TRASH_DIRECTORY/dirc.code"; } &&
			test_path_is_missing .git/index.lock &&
			cp .git/index "$TRASH_DIRECTORY/dirc.index" &&
			cp "$TRASH_DIRECTORY/index.before" .git/index &&
			{ run_unpriv git -c safe.directory="*" $args \
				>"$TRASH_DIRECTORY/git.out" 2>"$TRASH_DIRECTORY/git.err"; echo $? >"$TRASH_DIRECTORY/git.code"; } &&
			test_cmp .git/index "$TRASH_DIRECTORY/dirc.index" &&
			cp "$TRASH_DIRECTORY/index.before" .git/index
		) &&
		test_cmp_codes git.code dirc.code &&
		test_cmp git.out dirc.out &&
		test_cmp git.err dirc.err || {
			echo "^^^ differs from git: $args" >&2
			return 1
		}
	done
'

test_expect_success UNPRIV_TMP 'ls-files -o: an unreadable directory is reported, not skipped in silence' '
	tmp=$(mktemp -d /tmp/dirc-unpriv.XXXXXX) &&
	test_when_finished "chmod -R u+rwx \"$tmp\"; rm -rf \"$tmp\"" &&
	chmod 755 "$tmp" &&
	unpriv_repo "$tmp" &&
	(
		cd "$tmp/r" &&
		HOME=$tmp &&
		export HOME &&
		run_unpriv dirc ls-files -o >"$TRASH_DIRECTORY/out" 2>"$TRASH_DIRECTORY/err"
	) &&
	echo "warning: could not open directory '\''d/'\'': Permission denied" >expect &&
	test_cmp expect err
'

test_expect_success ULIMIT_FILE_SIZE,GIT 'a full disk while writing an object: 128 as git, no object, no tmp_obj_ (git leaves its temporary file)' '
	awk "BEGIN { for (i = 0; i < 200000; i++) print i, i * 7919 % 65521 }" >big &&
	state_save &&
	(
		ulimit -f 16 &&
		trap "" XFSZ &&
		test_expect_code 128 dirc update-cache --add big 2>err-uc &&
		test_expect_code 128 dirc hash-object -w big 2>err-ho
	) &&
	test_grep "^fatal: Unable to process path big$" err-uc &&
	test_grep "File too large" err-uc &&
	test_grep "^fatal: .*File too large" err-ho &&
	state_unchanged &&
	find .git/objects -name "tmp_obj_*" >tmps &&
	test_must_be_empty tmps &&
	git init -q gitrepo &&
	cp big gitrepo/ &&
	(
		cd gitrepo &&
		ulimit -f 16 &&
		trap "" XFSZ &&
		{ git update-index --add big 2>/dev/null; echo $? >../git.code; }
	) &&
	code_is 128 &&
	find gitrepo/.git/objects -name "tmp_obj_*" >tmps &&
	test_file_not_empty tmps &&
	rm -rf gitrepo
'

test_expect_success ULIMIT_FILE_SIZE,GIT 'a full disk while writing the index: 128 as git, old index kept, no lock' '
	blob=$(dirc hash-object -w ok) &&
	awk -v b=$blob "BEGIN { for (i = 0; i < 5000; i++) printf \"100644 %s\\tdir%d/file%d\\n\", b, i / 100, i }" >big.info &&
	state_save &&
	(
		ulimit -f 64 &&
		trap "" XFSZ &&
		test_expect_code 128 dirc update-cache --index-info <big.info 2>err
	) &&
	test_grep "^fatal: .*index.*File too large" err &&
	state_unchanged &&
	cp .git/index git.index &&
	(
		ulimit -f 64 &&
		trap "" XFSZ &&
		{ GIT_INDEX_FILE=git.index git update-index --index-info <big.info 2>/dev/null; echo $? >git.code; }
	) &&
	code_is 128 &&
	test_cmp .git/index git.index
'

test_expect_success ULIMIT_FILE_SIZE,GIT 'a full disk while checking out: exit 1 as git, no partial file (git leaves one), index kept' '
	git init -q co &&
	(
		cd co &&
		test_seq 1 20000 >big &&
		echo small >small &&
		git update-index --add big small &&
		rm big small &&
		cp .git/index ../co.index &&
		(
			ulimit -f 8 &&
			trap "" XFSZ &&
			test_expect_code 1 dirc checkout-index -u -a 2>../err
		) &&
		test_path_is_missing big &&
		test_path_is_file small &&
		test_cmp ../co.index .git/index &&
		test_path_is_missing .git/index.lock &&
		rm small &&
		(
			ulimit -f 8 &&
			trap "" XFSZ &&
			{ git checkout-index -u -a 2>/dev/null; echo $? >../git.code; }
		) &&
		test_path_is_file big
	) &&
	test_grep "^error: unable to write file big$" err &&
	code_is 1 &&
	rm -rf co
'

test_expect_success ULIMIT_FILE_SIZE,GIT 'a full disk in read-tree -m -u: non-zero as git, no index written, no lock' '
	git init -q rt &&
	(
		cd rt &&
		test_seq 1 20000 >big &&
		mkdir sub &&
		test_seq 1 30000 >sub/big2 &&
		git update-index --add big sub/big2 &&
		tree=$(git write-tree) &&
		rm -f .git/index big sub/big2 &&
		(
			ulimit -f 8 &&
			trap "" XFSZ &&
			test_must_fail dirc read-tree -m -u $tree 2>../err
		) &&
		test_path_is_missing .git/index &&
		test_path_is_missing .git/index.lock &&
		test_path_is_missing big &&
		(
			ulimit -f 8 &&
			trap "" XFSZ &&
			{ git read-tree -m -u $tree 2>/dev/null; echo $? >../git.code; }
		)
	) &&
	! code_is 0 &&
	test_grep "unable to write file big" err &&
	rm -rf rt
'

test_done
