#!/bin/sh
test_description='hash-object checks trees, commits and tags as git fsck does (git 2.40+)

git 2.40 made hash-object -t tree/commit/tag run the checks of git fsck
(strictly: warnings and infos refuse the object too), printing
"error: object fails fsck: <id>: <words>" then "fatal: refusing to
create malformed object"; --literally skips them, and since git 2.50 it
no longer allows types other than the four.  The git installed here
(2.39) still has the older, shallower checks, so the expected messages
are git 2.55'"'"'s, written out; under GIT_NEW (DIRC_TEST_GIT_NEW) each
case is also compared with git 2.55 itself.  Every refused object
leaves the repository byte-identical.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-catalogue.sh

hex2bin () {
	hb_oct=
	for hb_pair in $(echo "$1" | sed "s/../& /g")
	do
		hb_oct="$hb_oct\\$(printf %03o "0x$hb_pair")" || return 1
	done
	printf "$hb_oct"
}

# entry MODE NAME ID: one raw tree entry on stdout
entry () {
	printf "%s %s\000" "$1" "$2" && hex2bin "$3"
}

# q_to_apos: a Q stands for an apostrophe (in test bodies, which are
# single-quoted)
q_to_apos () {
	sed "s/Q/'/g"
}

# refused TYPE FILE ID TEXT...: hash-object -t TYPE FILE, with and
# without -w, fails with 128: the lines "error: ..." given (a line
# starting with "object fails fsck:" or not), then git's fatal line;
# nothing is written; git 2.55 agrees where it is here.
refused () {
	rf_type=$1 rf_file=$2 &&
	shift 2 &&
	for rf_line in "$@"
	do
		printf "error: %s\n" "$rf_line" || return 1
	done >expect &&
	echo "fatal: refusing to create malformed object" >>expect &&
	state_save &&
	test_expect_code 128 dirc hash-object -t $rf_type "$rf_file" \
		>out 2>actual &&
	test_must_be_empty out &&
	test_cmp expect actual &&
	test_expect_code 128 dirc hash-object -w -t $rf_type "$rf_file" \
		>out 2>actual &&
	test_cmp expect actual &&
	test_expect_code 128 dirc hash-object -w -t $rf_type --stdin \
		<"$rf_file" >out 2>actual &&
	test_cmp expect actual &&
	printf "%s\n" "$rf_file" >paths &&
	test_expect_code 128 dirc hash-object -w -t $rf_type --stdin-paths \
		<paths >out 2>actual &&
	test_cmp expect actual &&
	state_unchanged &&
	if test_have_prereq GIT_NEW
	then
		test_expect_code 128 git_new hash-object -t $rf_type \
			"$rf_file" >out 2>actual &&
		test_cmp expect actual
	fi
}

# accepted TYPE FILE: hash-object -t TYPE FILE passes, with the id git
# computes (git 2.39's --literally, and git 2.55 under GIT_NEW)
accepted () {
	dirc hash-object -t $1 "$2" >actual &&
	git hash-object --literally -t $1 "$2" >expect &&
	test_cmp expect actual &&
	if test_have_prereq GIT_NEW
	then
		git_new hash-object -t $1 "$2" >expect 2>err &&
		test_cmp expect actual &&
		test_must_be_empty err
	fi
}

test_expect_success GIT 'setup: a blob, a tree, a commit' '
	echo foo >foo &&
	B=$(dirc hash-object -w foo) &&
	echo $B >blob.id &&
	entry 100644 foo $B >tree.raw &&
	T=$(dirc hash-object -w -t tree tree.raw) &&
	echo $T >tree.id &&
	test "$T" = "$(git hash-object -t tree --literally tree.raw)" &&
	printf "tree %s\nauthor A U Thor <a@x> 1112354055 +0200\ncommitter C O Mitter <c@x> 1112354055 +0200\n\nmsg\n" \
		$T >commit.raw &&
	C=$(dirc hash-object -w -t commit commit.raw) &&
	echo $C >commit.id &&
	git cat-file -e $C
'

# ---- trees ----

test_expect_success GIT 'tree: duplicate entries (git 2.55 message)' '
	B=$(cat blob.id) &&
	{ entry 100644 a $B && entry 100644 a $B; } >dup &&
	refused tree dup \
		"object fails fsck: duplicateEntries: contains duplicate file entries"
'

test_expect_success GIT 'tree: a file and a directory of one name, apart' '
	B=$(cat blob.id) T=$(cat tree.id) &&
	{
		entry 100644 foo $B && entry 100644 foo.bar $B &&
		entry 100644 foo.bar.baz $B && entry 40000 foo.bar $T &&
		entry 40000 foo $T
	} >dfdup &&
	refused tree dfdup \
		"object fails fsck: duplicateEntries: contains duplicate file entries"
'

test_expect_success GIT 'tree: not sorted' '
	B=$(cat blob.id) &&
	{ entry 100644 b $B && entry 100644 a $B; } >unsorted &&
	refused tree unsorted \
		"object fails fsck: treeNotSorted: not properly sorted"
'

test_expect_success GIT 'tree: bad modes (100664 too: strict), zero-padded modes' '
	B=$(cat blob.id) &&
	entry 100600 a $B >badmode &&
	refused tree badmode \
		"object fails fsck: badFilemode: contains bad file modes" &&
	entry 100664 a $B >mode664 &&
	refused tree mode664 \
		"object fails fsck: badFilemode: contains bad file modes" &&
	entry 0100644 a $B >zeropad &&
	refused tree zeropad \
		"object fails fsck: zeroPaddedFilemode: contains zero-padded file modes"
'

test_expect_success GIT 'tree: names git refuses: ., .., .git (and its HFS and NTFS forms), a/b, 4097 bytes' '
	B=$(cat blob.id) T=$(cat tree.id) &&
	entry 100644 . $B >dot &&
	refused tree dot "object fails fsck: hasDot: contains '"'"'.'"'"'" &&
	entry 40000 .. $T >dotdot &&
	refused tree dotdot "object fails fsck: hasDotdot: contains '"'"'..'"'"'" &&
	for name in .git .GIT "$(printf ".gi\342\200\214t")" "git~1" \
		".git. " "x\\\\.git"
	do
		entry 40000 "$name" $T >dotgit &&
		refused tree dotgit \
			"object fails fsck: hasDotgit: contains '"'"'.git'"'"'" ||
		return 1
	done &&
	entry 100644 a/b $B >full &&
	refused tree full \
		"object fails fsck: fullPathname: contains full pathnames" &&
	entry 100644 "$(printf "%04097d" 0)" $B >long &&
	refused tree long \
		"object fails fsck: largePathname: contains excessively large pathname"
'

test_expect_success GIT 'tree: a null id' '
	entry 100644 a "$(test_oid_fake 00)" >null &&
	refused tree null \
		"object fails fsck: nullSha1: contains entries pointing to null sha1"
'

test_expect_success GIT 'tree: several problems: each reported, in git order' '
	B=$(cat blob.id) &&
	{
		entry 0100644 b $B && entry 100644 a/x $B &&
		entry 100644 a/x $B
	} >several &&
	refused tree several \
		"object fails fsck: fullPathname: contains full pathnames" \
		"object fails fsck: zeroPaddedFilemode: contains zero-padded file modes" \
		"object fails fsck: duplicateEntries: contains duplicate file entries" \
		"object fails fsck: treeNotSorted: not properly sorted"
'

test_expect_success GIT 'tree: symlinked .gitmodules, .gitattributes, .gitignore, .mailmap' '
	B=$(cat blob.id) &&
	entry 120000 .gitmodules $B >t &&
	refused tree t \
		"object fails fsck: gitmodulesSymlink: .gitmodules is a symbolic link" &&
	entry 120000 GITMOD~1 $B >t &&
	refused tree t \
		"object fails fsck: gitmodulesSymlink: .gitmodules is a symbolic link" &&
	entry 120000 .gitattributes $B >t &&
	refused tree t \
		"object fails fsck: gitattributesSymlink: .gitattributes is a symlink" &&
	entry 120000 .gitignore $B >t &&
	refused tree t \
		"object fails fsck: gitignoreSymlink: .gitignore is a symlink" &&
	entry 120000 .mailmap $B >t &&
	refused tree t \
		"object fails fsck: mailmapSymlink: .mailmap is a symlink"
'

test_expect_success GIT 'tree that does not decode: the decoder'"'"'s words, then badTree' '
	echo abc >short &&
	refused tree short "too-short tree object" \
		"object fails fsck: badTree: cannot be parsed as a tree" &&
	B=$(cat blob.id) &&
	entry 9100644 "" $B >malformed &&
	refused tree malformed "malformed mode in tree entry" \
		"object fails fsck: badTree: cannot be parsed as a tree" &&
	entry 100644 "" $B >emptyname &&
	refused tree emptyname "empty filename in tree entry" \
		"object fails fsck: badTree: cannot be parsed as a tree" &&
	{ entry 100644 a $B && printf "100644 b\000abc"; } >cut &&
	refused tree cut "too-short tree object" \
		"object fails fsck: badTree: cannot be parsed as a tree"
'

test_expect_success GIT 'tree: an entry that does not decode stops the checks of the one before' '
	B=$(cat blob.id) &&
	{ entry 100644 b $B && entry 0100644 a $B && entry 1x0644 c $B; } >stop &&
	refused tree stop "malformed mode in tree entry" \
		"object fails fsck: badTree: cannot be parsed as a tree" \
		"object fails fsck: zeroPaddedFilemode: contains zero-padded file modes"
'

test_expect_success GIT 'several inputs: the ones before the malformed one are hashed and stored, then it stops' '
	git init -q multi &&
	(
		cd multi &&
		B=$(git hash-object -w ../foo) &&
		entry 100644 a $B >good &&
		{ entry 100644 a $B && entry 100644 a $B; } >bad &&
		printf "good\nbad\ngood\n" >paths &&
		git hash-object --literally -t tree good >expect &&
		test_expect_code 128 dirc hash-object -w -t tree --stdin-paths \
			<paths >actual 2>err &&
		test_cmp expect actual &&
		test_grep "^fatal: refusing to create malformed object\$" err &&
		git cat-file -e $(cat actual) &&
		test_expect_code 128 dirc hash-object -t tree good bad good \
			>actual 2>err &&
		test_cmp expect actual &&
		if test_have_prereq GIT_NEW
		then
			test_expect_code 128 git_new hash-object -t tree \
				--stdin-paths <paths >actual 2>err.new &&
			test_cmp expect actual &&
			test_cmp err err.new
		fi
	)
'

test_expect_success GIT 'tree: well-formed ones pass with git'"'"'s ids' '
	B=$(cat blob.id) T=$(cat tree.id) &&
	{
		entry 100644 a $B && entry 100755 b $B && entry 120000 c $B &&
		entry 40000 d $T && entry 160000 e $B
	} >good &&
	accepted tree good &&
	: >empty &&
	accepted tree empty &&
	entry 1100644 x $B >mode16 &&
	accepted tree mode16
'

test_expect_success GIT '.gitmodules blob not stored: an error, yet the tree is hashed and stored (exit 0)' '
	git init -q gm &&
	entry 100644 .gitmodules "$(test_oid_fake 1234)" >gm/t &&
	(
		cd gm &&
		dirc hash-object -t tree t >out 2>err &&
		git hash-object --literally -t tree t >expect &&
		test_cmp expect out &&
		echo "error: object fails fsck: gitmodulesMissing: unable to read .gitmodules blob" >experr &&
		test_cmp experr err &&
		dirc hash-object -w -t tree t >out 2>err &&
		test_cmp expect out &&
		test_cmp experr err &&
		git cat-file -e $(cat out) &&
		if test_have_prereq GIT_NEW
		then
			git_new hash-object -t tree t >out 2>err &&
			test_cmp expect out &&
			test_cmp experr err
		fi
	)
'

# git 2.55 dies of SIGSEGV here (it looks the blob up in an object
# store it does not have); dirc reports it missing, as in a repository
test_expect_success GIT 'outside a repository a .gitmodules blob is missing: an error, exit 0' '
	mkdir outside &&
	(
		cd outside &&
		GIT_CEILING_DIRECTORIES="$TRASH_DIRECTORY" &&
		export GIT_CEILING_DIRECTORIES &&
		entry 100644 .gitmodules 1234567890123456789012345678901234567890 >t &&
		dirc hash-object -t tree t >out 2>err &&
		git hash-object --literally -t tree t >expect &&
		test_cmp expect out &&
		echo "error: object fails fsck: gitmodulesMissing: unable to read .gitmodules blob" >experr &&
		test_cmp experr err
	)
'

test_expect_success GIT '.gitmodules naming a tree; .gitattributes with a line of 2048 bytes' '
	git init -q ga &&
	(
		cd ga &&
		T=$(dirc hash-object -w -t tree ../tree.raw) &&
		entry 100644 .gitmodules $T >t &&
		dirc hash-object -t tree t >out 2>err &&
		echo "error: object fails fsck: gitmodulesBlob: non-blob found at .gitmodules" >experr &&
		test_cmp experr err &&
		printf "%02048d\n" 0 >attr &&
		A=$(dirc hash-object -w attr) &&
		entry 100644 .gitattributes $A >t &&
		dirc hash-object -t tree t >out 2>err &&
		echo "error: object fails fsck: gitattributesLineLength: .gitattributes has too long lines to parse" >experr &&
		test_cmp experr err &&
		git hash-object --literally -t tree t >expect &&
		test_cmp expect out &&
		if test_have_prereq GIT_NEW
		then
			git_new hash-object -t tree t >out 2>err &&
			test_cmp expect out &&
			test_cmp experr err
		fi
	)
'

test_expect_success GIT '.gitmodules content: names, urls, paths, update commands, parse errors (git 2.55 words)' '
	git init -q gmc &&
	(
		cd gmc &&
		q_to_apos >cases <<-\EOF &&
		[submodule "a"]\n\turl = https://example.com/x\n\tpath = a\n|
		[submodule ".."]\n\turl = x\n|gitmodulesName: disallowed submodule name: ..
		[submodule ""]\n\turl = u\n|gitmodulesName: disallowed submodule name: 
		[submodule "a\\\\..\\\\b"]\n\tpath = b\n|gitmodulesName: disallowed submodule name: a\\..\\b
		[submodule "x"]\n\turl = -oops\n|gitmodulesUrl: disallowed submodule url: -oops
		[submodule "x"]\n\turl = ../../:x\n|gitmodulesUrl: disallowed submodule url: ../../:x
		[submodule "x"]\n\turl = ./../..//x\n|gitmodulesUrl: disallowed submodule url: ./../..//x
		[submodule "x"]\n\turl = ../x%%0ay\n|gitmodulesUrl: disallowed submodule url: ../x%0ay
		[submodule "x"]\n\turl = git://h/x%%0Ay\n|gitmodulesUrl: disallowed submodule url: git://h/x%0Ay
		[submodule "x"]\n\turl = git://h/x%%0by\n|
		[submodule "x"]\n\tpath = -p\n|gitmodulesPath: disallowed submodule path: -p
		[submodule "x"]\n\tupdate = !rm\n\tUPDATE = rebase\n|gitmodulesUpdate: disallowed submodule update setting: !rm
		[submodule "x"]\n\tpath\n\turl\n|
		[submodule "x"\n|gitmodulesParse: could not parse gitmodules blob
		x = 1\n[submodule "x"]\nurl=-a\n|gitmodulesUrl: disallowed submodule url: -a
		EOF
		test_line_count = 15 cases &&
		while IFS="|" read -r content words
		do
			printf "$content" >gm &&
			B=$(git hash-object -w gm) &&
			entry 100644 .gitmodules $B >t &&
			dirc hash-object -t tree t >out 2>err &&
			git hash-object --literally -t tree t >expect &&
			test_cmp expect out &&
			if test -n "$words"
			then
				echo "error: object fails fsck: $words" >experr
			else
				: >experr
			fi &&
			test_cmp experr err &&
			if test_have_prereq GIT_NEW
			then
				git_new hash-object -t tree t >out 2>err &&
				test_cmp expect out &&
				test_cmp experr err
			fi || return 1
		done <cases &&
		printf "[submodule \"a/../b\"]\n\tpath = b\n\turl = u\n" >gm &&
		B=$(git hash-object -w gm) &&
		entry 100644 .gitmodules $B >t &&
		dirc hash-object -t tree t >out 2>err &&
		echo "error: object fails fsck: gitmodulesName: disallowed submodule name: a/../b" >experr &&
		cat experr experr >expect &&
		test_cmp expect err
	)
'

# gm_urls FILE: a .gitmodules on stdout with submodule "sN" for the Nth
# url (one a line) of FILE
gm_urls () {
	awk '{ printf "[submodule \"s%d\"]\n\turl = \"%s\"\n", NR, $0 }' "$1"
}

# gm_tree FILE: a .gitmodules blob of FILE stored, a tree of it in t
gm_tree () {
	gt_b=$(git hash-object -w "$1") &&
	entry 100644 .gitmodules $gt_b >t
}

# url|verdict of git 2.55|"=" if git 2.39 fsck says the same, "!" if not
# (2.39 knew only its older credential-url checks for http urls)
cat >url-cases <<\EOF
https://example.com/x|ok|=
http://example.com:99999/|bad|!
http://example.com:65535/|ok|=
http://example.com:0/|bad|!
http://example.com:000/|bad|!
http://example.com:/|ok|=
http://example.com:0080/|ok|=
http://example.com:123456/|bad|!
http://x:8a/|bad|!
http://x:80:80/|ok|=
http://[::1|ok|=
http://[::1]:80/x|ok|=
http://a%zzb|bad|!
http://a%41b/|bad|!
https://a b|bad|!
http://x*y/|bad|!
http://x_y.z-w/|ok|=
https://x/a b|ok|=
http::https://x%0a|bad|=
http::https://x/%0a|bad|=
https::foo|bad|=
http::foo://bar/|ok|=
ftps::1ab://x/|bad|!
ftp::http://x/%0a|bad|=
HTTP://x/%0a|ok|=
Http://x/%0a|ok|=
http://x/%0a|bad|=
ftp://x/%0a|bad|=
ftps://x/%0A|bad|=
http://x/%0A/..|ok|!
http://x/%0A/../..|bad|=
http://x/..|bad|!
http://x/a/..|ok|=
http://x/a/../..|bad|!
http://x//..|ok|=
http://x/./..|bad|!
http://x/%2e%2e|bad|!
http://x/a/%2e%2e/%2E%2E|bad|!
http://x/a/./b/../../c|ok|=
http://u%0a@x/|bad|=
http://u%0a:p@x/|bad|=
http://u:p%0a@x/|bad|=
http://u%zz@x/|bad|!
http://@x/|ok|=
http://u@/x|bad|=
http://u@|bad|=
http://|bad|=
http:///x|bad|=
http://x?%0a|bad|=
http://x#%0a|bad|=
http://x?%zz|bad|!
http://x/%zz|bad|!
http://x/%|bad|!
http://x/%4|bad|!
http://x/a%4/b|bad|!
http://x/%0d|ok|=
http://x/%00|ok|=
http://x/%250a|ok|=
http://x/%%0a|bad|=
git://x/%0a|bad|=
git://x/%0d|ok|=
git::http://x/%0a|ok|=
ssh://x/%0a|ok|=
file:///%0a|ok|=
./%0a:x|ok|=
./a:%0a|bad|=
../%0A|bad|=
EOF

test_expect_success GIT '.gitmodules http(s)/ftp(s) urls: normalized as git 2.55 does, a newline refused' '
	git init -q gmu &&
	(
		cd gmu &&
		cp ../url-cases cases &&
		test_line_count = 67 cases &&
		while IFS="|" read -r url verdict old
		do
			echo "$url" >one &&
			gm_urls one >gm &&
			gm_tree gm &&
			dirc hash-object -t tree t >out 2>err &&
			git hash-object --literally -t tree t >expect &&
			test_cmp expect out &&
			if test $verdict = bad
			then
				printf "%s%s\n" "error: object fails fsck: " \
					"gitmodulesUrl: disallowed submodule url: $url" >experr
			else
				: >experr
			fi &&
			test_cmp experr err || return 1
		done <cases &&
		# the whole table in one blob: every refused url, in order
		cut -d"|" -f1 cases >urls &&
		gm_urls urls >gm &&
		gm_tree gm &&
		dirc hash-object -t tree t >out 2>err &&
		test_line_count = $(grep -c "|bad|" cases) err &&
		if test_have_prereq GIT_NEW
		then
			git_new hash-object -t tree t >out 2>experr &&
			test_cmp experr err
		fi &&
		# git 2.39 fsck, on the urls it judges alike
		grep "|=\$" cases | cut -d"|" -f1 >urls &&
		gm_urls urls >gm &&
		gm_tree gm &&
		dirc hash-object -t tree t >out 2>err &&
		sed -n "s/^error: object fails fsck: gitmodulesUrl: //p" err >expect &&
		git hash-object --literally -w -t tree t >/dev/null &&
		git fsck --no-dangling >out 2>&1 ;
		sed -n "s/^error in blob [0-9a-f]*: gitmodulesUrl: //p" out >actual &&
		test_cmp expect actual &&
		test_line_count -gt 10 actual
	)
'

# gen_urls SEED N: N urls of http(s)/ftp(s) and other shapes, pieces
# that git 2.55's url normalization treats differently (no quote,
# backslash or newline: they are written into a quoted config value)
gen_urls () {
	awk -v seed="$1" -v n="$2" '
	function pick(a, k) { return a[int(rand() * k) + 1] }
	BEGIN {
		srand(seed)
		ns = split("http:// https:// ftp:// ftps:// http::https:// " \
			"https::HTTP:// ftp::x+y.z:// http::1x:// http::: " \
			"HTTPS:// git:// ./ ../ http:/ ssh:// https::", sch, " ")
		nu = split("u@ u:p@ @ u%0a@ u:%0A@ %zz@ a%4@ u%41@ :@", usr, " ")
		nh = split("x example.com [::1] [::1 X_Y a-b.c a%41 x*y" \
			" a:b 0 _ [", hst, " ")
		np = split(": :0 :00 :80 :0443 :65535 :65536 :99999 :123456" \
			" :8a :1", prt, " ")
		ng = split(". .. %2e %2E%2e %0a %0A %0d %00 %25 %250a %zz %4" \
			" % a b%20c [ ] @ : * _ ~ %7e", seg, " ")
		nt = split("? # ?a=%0a #%zz ?%41 #x", tail, " ")
		for (i = 0; i < n; i++) {
			s = pick(sch, ns)
			if (rand() < 0.3)
				s = s pick(usr, nu)
			if (rand() < 0.9)
				s = s pick(hst, nh)
			if (rand() < 0.3)
				s = s pick(prt, np)
			k = int(rand() * 5)
			for (j = 0; j < k; j++)
				s = s "/" pick(seg, ng)
			if (rand() < 0.1)
				s = s " "
			if (rand() < 0.2)
				s = s pick(tail, nt)
			print s
		}
	}'
}

test_expect_success GIT 'random submodule urls: no crash; git 2.55 refuses the same ones' '
	git init -q gmr &&
	(
		cd gmr &&
		seed=${DIRC_GMURL_SEED:-1} &&
		gen_urls $seed 400 >urls &&
		test_line_count = 400 urls &&
		gm_urls urls >gm &&
		gm_tree gm &&
		dirc hash-object -t tree t >out 2>err &&
		test_line_count = 1 out &&
		test_line_count -gt 20 err &&
		test $(wc -l <err) -lt 380 &&
		if test_have_prereq GIT_NEW
		then
			git_new hash-object -t tree t >out 2>experr &&
			test_cmp experr err ||
			{ echo "seed $seed" >&2 && false; }
		fi
	)
'

# ---- commits ----

test_expect_success GIT 'commit: empty, no tree, bad tree id, no author, no committer' '
	T=$(cat tree.id) &&
	: >c &&
	refused commit c \
		"object fails fsck: unterminatedHeader: unterminated header" &&
	printf "parent %s\n" $T >c &&
	refused commit c \
		"object fails fsck: missingTree: invalid format - expected '"'"'tree'"'"' line" &&
	printf "tree 1234\n" >c &&
	refused commit c \
		"object fails fsck: badTreeSha1: invalid '"'"'tree'"'"' line format - bad sha1" &&
	printf "tree %s\nparent xyz\n" $T >c &&
	refused commit c \
		"object fails fsck: badParentSha1: invalid '"'"'parent'"'"' line format - bad sha1" &&
	printf "tree %s\n" $T >c &&
	refused commit c \
		"object fails fsck: missingAuthor: invalid format - expected '"'"'author'"'"' line" &&
	printf "tree %s\nauthor A <a> 1 +0000\nauthor A <a> 1 +0000\n" $T >c &&
	refused commit c \
		"object fails fsck: multipleAuthors: invalid format - multiple '"'"'author'"'"' lines" &&
	printf "tree %s\nauthor A <a> 1 +0000\n" $T >c &&
	refused commit c \
		"object fails fsck: missingCommitter: invalid format - expected '"'"'committer'"'"' line"
'

test_expect_success GIT 'commit: bad idents, one check each' '
	T=$(cat tree.id) &&
	while IFS="|" read ident id words
	do
		printf "tree %s\nauthor %s\ncommitter C <c> 1 +0000\n\nm\n" \
			$T "$ident" >c &&
		refused commit c "object fails fsck: $id: invalid author/committer line - $words" ||
		return 1
	done <<-\EOF
	<a> 1 +0000|missingNameBeforeEmail|missing space before email
	A a 1 +0000|missingEmail|missing email
	A a> 1 +0000|badName|bad name
	A<a> 1 +0000|missingSpaceBeforeEmail|missing space before email
	A <a 1 +0000|badEmail|bad email
	A <a>1 +0000|missingSpaceBeforeDate|missing space before date
	A <a> x +0000|badDate|bad date
	A <a> 01 +0000|zeroPaddedDate|zero-padded date
	A <a> 0|zeroPaddedDate|zero-padded date
	A <a> 1|badDate|bad date
	A <a> 99999999999999999999 +0000|badDateOverflow|date causes integer overflow
	A <a> 1 +000|badTimezone|bad time zone
	A <a> 1 0000|badTimezone|bad time zone
	EOF
'

test_expect_success GIT 'commit: NUL in the headers, NUL in the body' '
	T=$(cat tree.id) &&
	printf "tree %s\nauthor A\000 <a> 1 +0000\n" $T >c &&
	off=$((${#T} + 14)) &&
	refused commit c \
		"object fails fsck: nulInHeader: unterminated header: NUL at offset $off" &&
	printf "tree %s\nauthor A <a> 1 +0000\ncommitter A <a> 1 +0000\n\nm\000x" $T >c &&
	refused commit c \
		"object fails fsck: nulInCommit: NUL byte in the commit object body"
'

test_expect_success GIT 'commit: well-formed ones pass (date 0, extra headers, no body)' '
	T=$(cat tree.id) &&
	printf "tree %s\nauthor A <a> 0 +0000\ncommitter A <a> 1 -1200\nencoding x\n" $T >c &&
	accepted commit c &&
	accepted commit commit.raw
'

# ---- tags ----

test_expect_success GIT 'tag: each missing or bad header' '
	C=$(cat commit.id) &&
	q_to_apos >cases <<-\EOF &&
	x%s\n|missingObject|invalid format - expected QobjectQ line
	object 12%s\n|badObjectSha1|invalid QobjectQ line format - bad sha1
	object %s\nkind commit\n|missingTypeEntry|invalid format - expected QtypeQ line
	object %s\ntype bogus\ntag v1\n|badType|invalid QtypeQ value
	object %s\ntype commit\nname v1\n|missingTagEntry|invalid format - expected QtagQ line
	object %s\ntype commit\ntag v..1\ntagger T <t> 1 +0000\n|badTagName|invalid QtagQ name: v..1
	object %s\ntype commit\ntag v1\n|missingTaggerEntry|invalid format - expected QtaggerQ line
	object %s\ntype commit\ntag v1\ntagger T <t> 1\n|badDate|invalid author/committer line - bad date
	object %s\ntype commit\ntag v1\ntagger T <t> 1 +0000\ngpgsig x\n y|unterminatedHeader|unterminated header
	EOF
	test_line_count = 9 cases &&
	while IFS="|" read -r body id words
	do
		printf "$body" $C >t &&
		refused tag t "object fails fsck: $id: $words" || return 1
	done <cases
'

test_expect_success GIT 'tag: a bad tagger then an extra header: reported, yet stored (as git 2.55 does)' '
	C=$(cat commit.id) &&
	printf "object %s\ntype commit\ntag v1\ntagger T t> 1 +0000\nextra\n\nm\n" $C >t &&
	dirc hash-object -t tag t >out 2>err &&
	git hash-object --literally -t tag t >expect &&
	test_cmp expect out &&
	echo "error: object fails fsck: badName: invalid author/committer line - bad name" >experr &&
	test_cmp experr err &&
	if test_have_prereq GIT_NEW
	then
		git_new hash-object -t tag t >out 2>err &&
		test_cmp expect out &&
		test_cmp experr err
	fi
'

test_expect_success GIT 'tag: well-formed ones pass (extra headers, gpgsig)' '
	C=$(cat commit.id) &&
	printf "object %s\ntype commit\ntag v1\ntagger T <t> 1 +0000\n\nm\n" $C >t &&
	accepted tag t &&
	printf "object %s\ntype commit\ntag v1\ntagger T <t> 1 +0000\ngpgsig a\n b\n c\nx y\n\nm\n" $C >t &&
	accepted tag t
'

# ---- --literally and types ----

test_expect_success GIT '--literally skips the checks (and -w stores the object)' '
	git init -q lit &&
	(
		cd lit &&
		cp ../dup ../c . &&
		dirc hash-object --literally -t tree dup >actual &&
		dirc hash-object -w --literally -t tree dup >>actual &&
		dirc hash-object -w --literally -t commit --stdin <c >>actual &&
		git hash-object --literally -t tree dup >expect &&
		git hash-object --literally -t tree dup >>expect &&
		git hash-object --literally -t commit --stdin <c >>expect &&
		test_cmp expect actual &&
		git cat-file -e $(head -n 1 actual) &&
		if test_have_prereq GIT_NEW
		then
			git_new hash-object --literally -t tree dup >out &&
			head -n 1 actual >first &&
			test_cmp first out
		fi
	)
'

test_expect_success GIT '--literally blobs are cleaned like any other (git 2.55; 2.39 did not)' '
	git init -q conv &&
	(
		cd conv &&
		echo "*.txt text" >.gitattributes &&
		printf "a\r\nb\r\n" >f.txt &&
		printf "a\nb\n" | git hash-object --stdin >expect &&
		dirc hash-object --literally f.txt >actual &&
		test_cmp expect actual &&
		dirc hash-object f.txt >actual &&
		test_cmp expect actual &&
		dirc hash-object --literally --no-filters f.txt >actual &&
		git hash-object --no-filters f.txt >expect &&
		test_cmp expect actual &&
		if test_have_prereq GIT_NEW
		then
			git_new hash-object --literally f.txt >actual &&
			printf "a\nb\n" | git hash-object --stdin >expect &&
			test_cmp expect actual
		fi
	)
'

test_expect_success 'an unknown type fails at the first input, --literally or not (git 2.50+)' '
	echo "fatal: invalid object type \"bogus\"" >expect &&
	for lit in "" --literally
	do
		test_expect_code 128 dirc hash-object -t bogus $lit --stdin \
			</dev/null >out 2>actual &&
		test_must_be_empty out &&
		test_cmp expect actual &&
		test_expect_code 128 dirc hash-object -t bogus $lit foo \
			>out 2>actual &&
		test_cmp expect actual &&
		echo foo >paths &&
		test_expect_code 128 dirc hash-object -t bogus $lit \
			--stdin-paths <paths >out 2>actual &&
		test_cmp expect actual || return 1
	done &&
	echo "fatal: invalid object type \"bl\"" >expect &&
	test_expect_code 128 dirc hash-object -t bl foo 2>actual &&
	test_cmp expect actual
'

test_expect_success 'an unknown type with nothing to hash: exit 0; a missing file is named first' '
	dirc hash-object -t bogus >out 2>err &&
	test_must_be_empty out &&
	test_must_be_empty err &&
	: >empty-list &&
	dirc hash-object -t bogus --stdin-paths <empty-list >out 2>err &&
	test_must_be_empty out &&
	test_must_be_empty err &&
	test_expect_code 128 dirc hash-object -t bogus nowhere 2>actual &&
	echo "fatal: could not open '"'"'nowhere'"'"' for reading: No such file or directory" >expect &&
	test_cmp expect actual
'

test_expect_success GIT_NEW 'the unknown-type cases are git 2.55'"'"'s' '
	for args in "-t bogus --stdin" "-t bogus --literally --stdin" \
		"-t bogus foo" "-t bogus" "-t bogus nowhere" "-t bl foo"
	do
		{ dirc hash-object $args </dev/null >d.out 2>d.err; echo $? >d.code; } &&
		{ git_new hash-object $args </dev/null >g.out 2>g.err; echo $? >g.code; } &&
		test_cmp g.code d.code &&
		test_cmp g.out d.out &&
		test_cmp g.err d.err || return 1
	done
'

test_expect_success 'test-tool hash-literally: any type, as git'"'"'s old --literally hashed it' '
	git init -q tt &&
	(
		cd tt &&
		printf bogus >f &&
		dirc test-tool hash-literally -t bogus f >actual &&
		dirc test-tool hash-literally -w -t bogus --stdin <f >>actual &&
		dirc test-tool hash-literally -t tree ../dup >>actual &&
		id=$(sed -n 2p actual) &&
		dirc cat-file -t --allow-unknown-type $id >type &&
		echo bogus >expect &&
		test_cmp expect type &&
		if test_have_prereq GIT
		then
			git hash-object --literally -t bogus f >expect &&
			git hash-object --literally -t bogus f >>expect &&
			git hash-object --literally -t tree ../dup >>expect &&
			test_cmp expect actual
		fi
	)
'

test_done
