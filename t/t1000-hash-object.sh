#!/bin/sh
test_description='hash-object: the same ids and the same object files as git'
. ./test-lib.sh

# All 256 byte values, in order.
write_all_bytes () {
	printf "$(awk 'BEGIN { for (i = 0; i < 256; i++) printf "\\%03o", i }')"
}

# A sparse file of 64 MiB + 12 KiB (far past FILEIO_STREAM_MIN, so dirc
# streams it), with a few bytes set around the 1 MiB read windows and
# at both ends.
make_huge () {
	dd if=/dev/null of="$1" bs=1024 seek=65548 2>/dev/null &&
	for off in 0 1048575 1048576 1048577 33554432 67108863 67108864 67121151
	do
		printf Q | dd of="$1" bs=1 seek=$off conv=notrunc 2>/dev/null ||
		return 1
	done
}

# known_id hello|x: the id of the blob "hello\n" or "x" in the tests'
# object format (known values, not asked of git; $EMPTY_BLOB is the
# empty one).
known_id () {
	case $OID_ALGO:$1 in
	sha1:hello) echo ce013625030ba8dba906f756967f9e9ca394464a ;;
	sha1:x) echo c1b0730e0133447badcfd47fd144e254807b06e1 ;;
	sha256:hello) echo 2cf8d83d9ee29543b34a87727421fdecb7e3f3a183d337639025de576db9ebb4 ;;
	sha256:x) echo 4b6cea43da6e13c24f191bcb97b51a58781d1ccdd8281d96291a2582f5177b78 ;;
	esac
}

# The name pattern of a loose object file: a "?" for each hex digit of
# an id but the first two (the fan-out directory's).
object_file_glob () {
	printf "%0$((OID_HEXSZ - 2))d\n" 0 | tr 0 "?"
}

# The files every interop test runs over (not the huge one).
small_files='empty one text nul all256 m32k-1 m32k m32k+1 big'

test_expect_success 'setup: files of every shape' '
	mkdir files &&
	: >files/empty &&
	printf x >files/one &&
	printf "hello\nworld\n" >files/text &&
	printf "a\000b\000\000c\377\001\n" >files/nul &&
	write_all_bytes >files/all256 &&
	awk "BEGIN { for (i = 0; i < 300000; i++) print i, i * 7919 % 65521 }" >numbers &&
	cat files/all256 numbers files/all256 >files/big &&
	head -c 32767 files/big >files/m32k-1 &&
	head -c 32768 files/big >files/m32k &&
	head -c 32769 files/big >files/m32k+1 &&
	echo "a file with spaces and UTF-8" >"files/sp ace é" &&
	test $(wc -c <files/all256) = 256 &&
	test $(wc -c <files/m32k+1) = 32769 &&
	test $(wc -c <files/big) -gt 3000000
'

test_expect_success 'known ids: empty blob, "hello\n", "x"' '
	printf "hello\n" >hello &&
	dirc hash-object files/empty hello files/one >actual &&
	test_write_lines $EMPTY_BLOB $(known_id hello) $(known_id x) >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'ids equal git hash-object, file by file' '
	for f in $small_files "sp ace é"
	do
		dirc hash-object "files/$f" >actual &&
		git hash-object "files/$f" >expect &&
		test_cmp expect actual || return 1
	done
'

test_expect_success GIT 'ids equal git with many files in one call' '
	(
		cd files &&
		dirc hash-object $small_files "sp ace é" >../actual &&
		git hash-object $small_files "sp ace é" >../expect
	) &&
	test_cmp expect actual &&
	test_line_count = 10 actual
'

test_expect_success GIT 'ids equal git with read() forced (DIRC_MMAP_CUTOFF=2^40)' '
	(
		cd files &&
		DIRC_MMAP_CUTOFF=1099511627776 dirc hash-object $small_files >../actual &&
		git hash-object $small_files >../expect
	) &&
	test_cmp expect actual
'

test_expect_success GIT 'ids equal git with mmap() forced (DIRC_MMAP_CUTOFF=0)' '
	(
		cd files &&
		DIRC_MMAP_CUTOFF=0 dirc hash-object $small_files >../actual &&
		git hash-object $small_files >../expect
	) &&
	test_cmp expect actual
'

test_lazy_prereq STRACE 'strace -o /dev/null true'

# The default cut-off is the streaming size, 2 MiB: a file one byte
# below it is read(), not mapped; DIRC_MMAP_CUTOFF moves it (the dynamic
# loader maps files too, but not of these sizes).  LeakSanitizer cannot
# run under ptrace.
test_expect_success STRACE,GIT 'default cut-off: read() below 2 MiB; DIRC_MMAP_CUTOFF maps from its value' '
	head -c 2097151 files/big >c2m-1 &&
	test $(wc -c <c2m-1) = 2097151 &&
	head -c 131072 files/big >c128k &&
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
		strace -o below.trace -e trace=mmap,read dirc hash-object c2m-1 >actual &&
	git hash-object c2m-1 >expect &&
	test_cmp expect actual &&
	! grep "mmap(NULL, 2097151," below.trace &&
	grep "^read([0-9]*, .*, 2097152) = 2097151$" below.trace &&
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
		strace -o default.trace -e trace=mmap dirc hash-object c128k >/dev/null &&
	! grep "mmap(NULL, 131072," default.trace &&
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" DIRC_MMAP_CUTOFF=131072 \
		strace -o at.trace -e trace=mmap dirc hash-object c128k >/dev/null &&
	grep "mmap(NULL, 131072, PROT_READ, MAP_PRIVATE, [0-9]" at.trace
'

test_expect_success GIT '-w with read() forced and with mmap() forced: the object files of git' '
	git init -q cut-git &&
	dirc init -q cut-read &&
	dirc init -q cut-mmap &&
	test_fsck_also cut-read cut-mmap &&
	(
		cd files &&
		git --git-dir=../cut-git/.git hash-object -w $small_files >../expect &&
		DIRC_MMAP_CUTOFF=1099511627776 dirc --git-dir=../cut-read/.git \
			hash-object -w $small_files >../actual-read &&
		DIRC_MMAP_CUTOFF=0 dirc --git-dir=../cut-mmap/.git \
			hash-object -w $small_files >../actual-mmap
	) &&
	test_cmp expect actual-read &&
	test_cmp expect actual-mmap &&
	while read -r id
	do
		obj=${id#??} && dir=${id%$obj} &&
		cmp cut-git/.git/objects/$dir/$obj cut-read/.git/objects/$dir/$obj &&
		cmp cut-git/.git/objects/$dir/$obj cut-mmap/.git/objects/$dir/$obj ||
		return 1
	done <expect
'

test_expect_success GIT 'setup: a git repository to compare object files with' '
	git init -q gitrepo &&
	test_fsck_also gitrepo
'

# Every object file: "xx/yyyy..." relative to the objects directory.
list_objects () {
	(cd "$1" && find . -type f -name "$(object_file_glob)" -print) |
	sed -e "s|^\./||" | sort
}

test_expect_success GIT '-w: same ids as git -w, and byte-identical object files' '
	rm -f actual expect &&
	for f in $small_files "sp ace é"
	do
		dirc hash-object -w "files/$f" >>actual &&
		git -C gitrepo hash-object -w "../files/$f" >>expect || return 1
	done &&
	test_cmp expect actual &&
	list_objects .git/objects >dirc-objs &&
	list_objects gitrepo/.git/objects >git-objs &&
	test_cmp git-objs dirc-objs &&
	test_line_count = 10 dirc-objs &&
	while read -r obj
	do
		cmp .git/objects/$obj gitrepo/.git/objects/$obj || return 1
	done <dirc-objs
'

test_expect_success GIT 'the object files are zlib level 1 (78 01), like git' '
	obj=${EMPTY_BLOB#??} && dir=${EMPTY_BLOB%$obj} &&
	od -An -tx1 -N2 .git/objects/$dir/$obj >actual &&
	echo " 78 01" >expect &&
	test_cmp expect actual
'

test_expect_success 'object files are -r--r--r--, no tmp_obj_* left' '
	find .git/objects -type f -name "$(object_file_glob)" >objs &&
	test_line_count = 10 objs &&
	while read -r obj
	do
		echo "-r--r--r--" >expect &&
		ls -l "$obj" >ls.out &&
		cut -c1-10 ls.out >actual &&
		test_cmp expect actual || return 1
	done <objs &&
	find .git/objects -name "tmp_*" >tmps &&
	test_must_be_empty tmps
'

test_expect_success GIT 'git cat-file -p returns every input byte for byte' '
	for f in $small_files "sp ace é"
	do
		id=$(git hash-object "files/$f") &&
		git cat-file -p $id >out &&
		cmp "files/$f" out || return 1
	done
'

test_expect_success GIT 'objects dirc wrote pass git fsck --strict' '
	git fsck --strict 2>err &&
	test_grep -v -e "^error" -e "^warning" err
'

test_expect_success 'writing an existing object: not rewritten, mtime freshened' '
	id=$(known_id x) &&
	obj=.git/objects/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-) &&
	cp $obj before &&
	touch -d @100000 $obj &&
	ls -i $obj >inode.before &&
	dirc hash-object -w files/one >actual &&
	echo $id >expect &&
	test_cmp expect actual &&
	ls -i $obj >inode.after &&
	test_cmp inode.before inode.after &&
	cmp before $obj &&
	mtime=$(stat -c %Y $obj) &&
	test "$mtime" -gt 100000 &&
	find .git/objects -name "tmp_*" >tmps &&
	test_must_be_empty tmps
'

test_expect_success 'an existing object is freshened also via --stdin' '
	id=$(known_id x) &&
	obj=.git/objects/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-) &&
	touch -d @100000 $obj &&
	dirc hash-object -w --stdin <files/one >actual &&
	echo $id >expect &&
	test_cmp expect actual &&
	test $(stat -c %Y $obj) -gt 100000
'

test_expect_success GIT '--stdin: same ids as git, for every file' '
	for f in $small_files
	do
		dirc hash-object --stdin <"files/$f" >actual &&
		git hash-object --stdin <"files/$f" >expect &&
		test_cmp expect actual || return 1
	done
'

test_expect_success GIT '--stdin -w from a pipe: same object file as git' '
	printf "piped content\n" >piped &&
	cat piped | dirc hash-object -w --stdin >actual &&
	cat piped | git -C gitrepo hash-object -w --stdin >expect &&
	test_cmp expect actual &&
	id=$(cat actual) &&
	obj=${id#??} && dir=${id%$obj} &&
	cmp .git/objects/$dir/$obj gitrepo/.git/objects/$dir/$obj
'

test_expect_success GIT '--stdin -w of 3 MB from a pipe (deflated in pieces): same object file as git' '
	cat files/big | dirc hash-object -w --stdin >actual &&
	cat files/big | git -C gitrepo hash-object -w --stdin >expect &&
	test_cmp expect actual &&
	id=$(cat actual) &&
	obj=${id#??} && dir=${id%$obj} &&
	cmp .git/objects/$dir/$obj gitrepo/.git/objects/$dir/$obj &&
	! ls .git/objects/tmp_obj_* .git/objects/$dir/tmp_obj_* 2>/dev/null
'

test_expect_success GIT 'a 3 MB file -w (past 2 MiB: streamed): same object file as git' '
	git init -q big-dirc &&
	git init -q big-git &&
	dirc -C big-dirc hash-object -w ../files/big >actual &&
	git -C big-git hash-object -w ../files/big >expect &&
	test_cmp expect actual &&
	id=$(cat actual) &&
	obj=${id#??} && dir=${id%$obj} &&
	cmp big-dirc/.git/objects/$dir/$obj big-git/.git/objects/$dir/$obj &&
	(cd big-dirc/.git/objects && find . -print | sort) >dirc-tree &&
	(cd big-git/.git/objects && find . -print | sort) >git-tree &&
	test_cmp git-tree dirc-tree
'

test_expect_success GIT '--stdin comes first, then the files, as in git' '
	dirc hash-object files/one --stdin files/text <files/nul >actual &&
	git hash-object files/one --stdin files/text <files/nul >expect &&
	test_cmp expect actual &&
	test_line_count = 3 actual
'

test_expect_success GIT '--stdin-paths: plain, spaced, UTF-8 and C-quoted lines' '
	printf "tab" >"files/a	b" &&
	printf "quote" >"files/q\"q" &&
	{
		printf "%s\n" files/one "files/sp ace é" &&
		printf "%s\n" "\"files/a\\tb\"" &&
		printf "%s\n" "\"files/sp ace \\303\\251\"" &&
		printf "%s\n" "\"files/q\\\"q\"" &&
		printf "%s\n" files/big
	} >paths &&
	dirc hash-object --stdin-paths <paths >actual &&
	git hash-object --stdin-paths <paths >expect &&
	test_cmp expect actual &&
	test_line_count = 6 actual
'

test_expect_success GIT '--stdin-paths -w: objects git can read' '
	dirc hash-object -w --stdin-paths <paths >ids &&
	while read -r id
	do
		git cat-file -e $id || return 1
	done <ids &&
	id=$(git hash-object "files/a	b") &&
	git cat-file -p $id >out &&
	cmp "files/a	b" out
'

test_expect_success GIT 'setup: tree, commit and tag content made by git' '
	(
		cd gitrepo &&
		cp ../files/one ../files/text . &&
		git add one text &&
		test_tick &&
		git commit -q -m "first" &&
		git tag -a -m "a tag" v1 &&
		git cat-file tree HEAD^{tree} >../tree.raw &&
		git cat-file commit HEAD >../commit.raw &&
		git cat-file tag v1 >../tag.raw &&
		git rev-parse HEAD^{tree} HEAD v1 >../expect-ids
	)
'

test_expect_success GIT '-t tree|commit|tag of valid content: the ids of git' '
	dirc hash-object -t tree tree.raw >actual &&
	dirc hash-object -t commit commit.raw >>actual &&
	dirc hash-object -t tag tag.raw >>actual &&
	test_cmp expect-ids actual &&
	dirc hash-object -t blob files/one >actual &&
	git hash-object -t blob files/one >expect &&
	test_cmp expect actual
'

test_expect_success GIT '-w -t tree|commit|tag: the same object files as git' '
	dirc hash-object -w -t tree tree.raw >actual &&
	dirc hash-object -w -t commit --stdin <commit.raw >>actual &&
	dirc hash-object -w -t tag tag.raw >>actual &&
	test_cmp expect-ids actual &&
	while read -r id
	do
		obj=${id#??} && dir=${id%$obj} &&
		cmp .git/objects/$dir/$obj gitrepo/.git/objects/$dir/$obj || return 1
	done <actual &&
	tag=$(sed -n 3p actual) &&
	git cat-file -t $tag >type &&
	echo tag >expect &&
	test_cmp expect type
'

test_expect_success GIT 'test-tool hash-literally -t weird: the id of git'"'"'s old --literally, and the same file' '
	git init -q lit-dirc &&
	git init -q lit-git &&
	(
		cd lit-dirc &&
		dirc test-tool hash-literally -t weird ../files/text >../actual &&
		dirc test-tool hash-literally -w -t weird ../files/text >>../actual &&
		dirc test-tool hash-literally -w -t weird --stdin <../files/nul >>../actual &&
		test_expect_code 128 dirc hash-object --literally -t weird \
			../files/text 2>../err
	) &&
	echo "fatal: invalid object type \"weird\"" >expect-err &&
	test_cmp expect-err err &&
	(
		cd lit-git &&
		git hash-object --literally -t weird ../files/text >../expect &&
		git hash-object -w --literally -t weird ../files/text >>../expect &&
		git hash-object -w --literally -t weird --stdin <../files/nul >>../expect
	) &&
	test_cmp expect actual &&
	id=$(sed -n 2p actual) &&
	obj=${id#??} && dir=${id%$obj} &&
	cmp lit-dirc/.git/objects/$dir/$obj lit-git/.git/objects/$dir/$obj &&
	git -C lit-dirc cat-file --allow-unknown-type -t $id >type &&
	echo weird >expect &&
	test_cmp expect type
'

test_expect_success 'setup: a file over 64 MiB (sparse)' '
	make_huge huge &&
	test $(wc -c <huge) = 67121152
'

test_expect_success GIT 'over 64 MiB (streamed): the id of git' '
	dirc hash-object huge >actual &&
	git hash-object huge >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'over 64 MiB -w: the same object file as git' '
	git init -q huge-dirc &&
	git init -q huge-git &&
	test_fsck_also huge-dirc &&
	dirc -C huge-dirc hash-object -w ../huge >actual &&
	git -C huge-git hash-object -w ../huge >expect &&
	test_cmp expect actual &&
	id=$(cat actual) &&
	obj=${id#??} && dir=${id%$obj} &&
	cmp huge-dirc/.git/objects/$dir/$obj huge-git/.git/objects/$dir/$obj
'

test_expect_success GIT 'over 64 MiB -w: nothing else left in objects/ (no stray fan-out dir)' '
	(cd huge-dirc/.git/objects && find . -print | sort) >dirc-tree &&
	(cd huge-git/.git/objects && find . -print | sort) >git-tree &&
	test_cmp git-tree dirc-tree
'

test_expect_success GIT 'over 64 MiB: git reads it back byte for byte' '
	id=$(cat actual) &&
	git -C huge-dirc cat-file -p $id >out &&
	cmp huge out &&
	rm -f out
'

test_expect_success 'over 64 MiB -w again: freshened, not rewritten' '
	id=$(cat actual) &&
	obj=${id#??} && dir=${id%$obj} &&
	touch -d @100000 huge-dirc/.git/objects/$dir/$obj &&
	ls -i huge-dirc/.git/objects/$dir/$obj >inode.before &&
	dirc -C huge-dirc hash-object -w ../huge >again &&
	test_cmp actual again &&
	ls -i huge-dirc/.git/objects/$dir/$obj >inode.after &&
	test_cmp inode.before inode.after &&
	test $(stat -c %Y huge-dirc/.git/objects/$dir/$obj) -gt 100000 &&
	find huge-dirc/.git/objects -name "tmp_*" >tmps &&
	test_must_be_empty tmps
'

# Outside a repository git 2.39 hashes with SHA-1 whatever
# GIT_DEFAULT_HASH says (it names the format of new repositories only):
# in a SHA-256 run too, dirc prints the id git prints.
test_expect_success GIT 'without -w, no repository is needed (as in git)' '
	mkdir outside &&
	(
		cd outside &&
		GIT_CEILING_DIRECTORIES="$TRASH_DIRECTORY" &&
		export GIT_CEILING_DIRECTORIES &&
		dirc hash-object ../files/text >../actual &&
		git hash-object ../files/text >../expect &&
		test_expect_code 128 dirc hash-object -w ../files/text 2>../err &&
		test_expect_code 128 git hash-object -w ../files/text 2>../git-err
	) &&
	test_cmp expect actual &&
	test_cmp git-err err
'

# A reader that sends one path and waits for its id before it sends the
# next (a coprocess, git's GIT_FLUSH behaviour on a pipe): every id
# must come before the next line is written, or this hangs (10 s alarm).
test_expect_success '--stdin-paths answers each line while the next is not sent' '
	for i in 1 2 3 4 5
	do
		echo "conversation $i" >conv$i || return 1
	done &&
	dirc hash-object conv1 conv2 conv3 conv4 conv5 >expect &&
	perl -MIPC::Open2 -e '\''
		$SIG{ALRM} = sub { print STDERR "no answer\n"; exit 1 };
		my $pid = open2(my $out, my $in, "dirc", "hash-object",
				"--stdin-paths");
		for my $i (1 .. 5) {
			print $in "conv$i\n"; $in->flush;
			alarm 10; my $id = <$out>; alarm 0;
			defined $id or exit 1;
			print $id;
		}
		close $in; waitpid $pid, 0; exit($? >> 8);'\'' >actual &&
	test_cmp expect actual
'

test_expect_success 'hash-object -h: usage on stdout, exit 129' '
	test_expect_code 129 dirc hash-object -h >out 2>err &&
	test_grep "^usage: dirc hash-object" out &&
	test_grep -e "--stdin-paths" out &&
	test_must_be_empty err
'

test_done
