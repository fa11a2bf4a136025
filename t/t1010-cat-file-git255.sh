#!/bin/sh
test_description='cat-file: what git 2.40 to 2.55 added (-Z, --filter, mailmaps, %(objectmode))

-Z (NUL-ended input and output), --filter=<spec> in batches,
--use-mailmap in batches and the batch command "mailmap <bool>",
%(objectmode) and "<id> submodule".  git 2.39 (the one CI has) lacks
them: there the expected output of git 2.55 is written out here, and
what 2.39 does alike is compared with it.  Under GIT_NEW
(DIRC_TEST_GIT_NEW) every case is also compared with git 2.55 itself,
with a small random test of the mailmap format and of the stdin
protocol; a quick random pass that only checks dirc never crashes runs
everywhere.'
. ./test-lib.sh

# cf_new FILE ARGS... (stdin from FILE): dirc and git 2.55 give the
# same exit code, stdout and stderr.
cf_new () {
	cn_in=$1 &&
	test -f "$cn_in" &&
	shift &&
	{ dirc cat-file "$@" <"$cn_in" >dirc.out 2>dirc.err; echo $? >dirc.code; } &&
	{ git_new cat-file "$@" <"$cn_in" >git.out 2>git.err; echo $? >git.code; } &&
	sed -e "s/^usage: git /usage: dirc /" -e "s/^   or: git /   or: dirc /" \
		git.err >git.err.named &&
	test_cmp git.code dirc.code &&
	test_cmp git.out dirc.out &&
	test_cmp git.err.named dirc.err
}

test_expect_success GIT 'setup: commits by several idents, a tag, a gitlink' '
	echo hello >a &&
	mkdir d &&
	echo "a longer file" >d/b &&
	ln -s a lnk && ln -s ../nowhere/x lout && ln -s dangle dl &&
	git add a d/b lnk lout dl &&
	git update-index --add --cacheinfo 160000,$(test_oid_fake 12345),sub &&
	test_tick &&
	GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL=author@example.com \
		git commit -q -m one &&
	test_tick &&
	GIT_AUTHOR_NAME="old name" GIT_AUTHOR_EMAIL=OLD@Example.com \
	GIT_COMMITTER_NAME=Other GIT_COMMITTER_EMAIL=other@x.org \
		git commit -q --allow-empty -m two &&
	test_tick &&
	GIT_AUTHOR_NAME="Case Name" GIT_AUTHOR_EMAIL=case@x \
	GIT_COMMITTER_NAME="case name" GIT_COMMITTER_EMAIL=CASE@X \
		git commit -q --allow-empty -m three &&
	test_tick &&
	GIT_COMMITTER_NAME="old name" GIT_COMMITTER_EMAIL=old@example.com \
		git tag -a -m tagged v1 HEAD~1 &&
	# idents git commit would not write: no name, empty email, a "<>"
	# in the name, spaces, no date
	printf "%s\n" "tree $(git rev-parse HEAD^{tree})" \
		"author  <noname@x> 1112354055 +0200" \
		"committer Nobody <> 1112354055 +0200" \
		"author Two  Spaces   <spaced@x>" "" "odd" >odd &&
	git hash-object -t commit -w --literally odd >odd.id &&
	git rev-parse HEAD HEAD~1 HEAD~2 v1 >revs &&
	cat odd.id >>revs &&
	rm -f odd
'

# ---- -Z ----

test_expect_success GIT '-z: the same as git 2.39 (input NUL-ended, output not)' '
	printf "HEAD:a\0nope\0HEAD:d\0" >z.in &&
	for b in --batch --batch-check "--batch-check=%(objectname) %(rest)"
	do
		dirc cat-file -z "$b" <z.in >actual &&
		git cat-file -z "$b" <z.in >expect &&
		test_cmp expect actual || return 1
	done
'

test_expect_success GIT '-Z: every record ends in NUL, as git 2.55 prints it' '
	printf "HEAD:a\0no\npe\0HEAD:sub\0\0HEAD\r\0" >Z.in &&
	dirc cat-file -Z --batch-check <Z.in >out &&
	nul_to_q <out >actual &&
	{
		printf "%s blob 6Q" $(git rev-parse HEAD:a) &&
		printf "no\npe missingQ" &&
		printf "%s submoduleQ" $(test_oid_fake 12345) &&
		printf " missingQ" &&
		printf "HEAD\r missingQ"
	} >expect &&
	test_cmp expect actual &&
	printf "HEAD:a\0" >Z1.in &&
	dirc cat-file -Z --batch <Z1.in >out &&
	nul_to_q <out >actual &&
	printf "%s blob 6Qhello\nQ" $(git rev-parse HEAD:a) >expect &&
	test_cmp expect actual
'

test_expect_success GIT '-Z with --follow-symlinks and --batch-command' '
	printf "HEAD:lnk\0HEAD:lout\0HEAD:dl\0" >f.in &&
	dirc cat-file -Z --batch-check --follow-symlinks <f.in >out &&
	nul_to_q <out >actual &&
	printf "%s blob 6Qsymlink 12Q../nowhere/xQdangling 7QHEAD:dlQ" \
		$(git rev-parse HEAD:a) >expect &&
	test_cmp expect actual &&
	printf "info HEAD:a\0contents HEAD:a\0info nope\0" >c.in &&
	dirc cat-file -Z --batch-command <c.in >out &&
	nul_to_q <out >actual &&
	printf "%s blob 6Q%s blob 6Qhello\nQnope missingQ" \
		$(git rev-parse HEAD:a) $(git rev-parse HEAD:a) >expect &&
	test_cmp expect actual
'

test_expect_success GIT '-Z: an ambiguous name is answered with NUL too' '
	git init -q amb &&
	test_fsck_also amb &&
	(
		cd amb &&
		# 1,000 blobs: two of them share their first 4 digits
		awk "BEGIN { for (i = 0; i < 1000; i++) print i > (\"f\" i) }" &&
		ls f* >paths &&
		git hash-object -w --stdin-paths <paths >ids &&
		cut -c1-4 ids | sort | uniq -d >dups &&
		read p <dups &&
		printf "%s\0" $p >amb.in &&
		dirc cat-file -Z --batch-check <amb.in >out 2>err &&
		nul_to_q <out >actual &&
		printf "%s ambiguousQ" $p >expect &&
		test_cmp expect actual &&
		test_grep "^error: short object ID $p is ambiguous" err
	)
'

test_expect_success GIT 'odd --batch-command records under -z, -Z and LF, as git 2.55' '
	# "" under -z/-Z: git 2.55 "unknown command: '"''"'" (2.39: "empty command")
	for o in -z -Z
	do
		printf "info HEAD\0\0info HEAD\0" >e.in &&
		test_expect_code 128 dirc cat-file --batch-command $o <e.in >out 2>err &&
		echo "fatal: unknown command: '"''"'" >expect &&
		test_cmp expect err || return 1
	done &&
	printf "\n" >e.in &&
	test_expect_code 128 dirc cat-file --batch-command <e.in 2>err &&
	echo "fatal: empty command in input" >expect &&
	test_cmp expect err &&
	printf "\n\0" >e.in &&
	test_expect_code 128 dirc cat-file --batch-command -Z <e.in 2>err &&
	printf "fatal: whitespace before command: '"'"'\n'"'"'\n" >expect &&
	test_cmp expect err &&
	printf "info HEAD\r\0" >e.in &&
	dirc cat-file --batch-command -Z <e.in >out &&
	printf "HEAD\r missing\0" >expect &&
	test_cmp expect out
'

test_expect_success '-Z and -z need a batch mode: 129 as git' '
	test_expect_code 129 dirc cat-file -Z -p HEAD 2>err &&
	test_grep "^fatal: '"'"'-Z'"'"' requires a batch mode" err &&
	test_expect_code 129 dirc cat-file -z -p HEAD 2>err &&
	test_grep "^fatal: '"'"'-z'"'"' requires a batch mode" err
'

# ---- --filter ----

# spec|exit code|first line of stderr (empty: none)
cat >filter-specs <<\EOF
blob:none|0|
blob:limit=0|0|
blob:limit=6|0|
blob:limit=7|0|
blob:limit=1k|0|
blob:limit=1K|0|
blob:limit=2m|0|
blob:limit=1g|0|
blob:limit=0x10|0|
blob:limit=010|0|
blob:limit=+3|0|
blob:limit=18446744073709551615|0|
blob:limit=|128|fatal: invalid filter-spec 'blob:limit='
blob:limit=x|128|fatal: invalid filter-spec 'blob:limit=x'
blob:limit=-1|128|fatal: invalid filter-spec 'blob:limit=-1'
blob:limit=1kb|128|fatal: invalid filter-spec 'blob:limit=1kb'
blob:limit=1t|128|fatal: invalid filter-spec 'blob:limit=1t'
blob:limit=18446744073709551616|128|fatal: invalid filter-spec 'blob:limit=18446744073709551616'
blob:limit=17179869184g|128|fatal: invalid filter-spec 'blob:limit=17179869184g'
object:type=blob|0|
object:type=tree|0|
object:type=commit|0|
object:type=tag|0|
object:type=Blob|128|fatal: 'Blob' for 'object:type=<type>' is not a valid object type
object:type=|128|fatal: '' for 'object:type=<type>' is not a valid object type
tree:0|129|usage: objects filter not supported: 'tree'
tree:1k|129|usage: objects filter not supported: 'tree'
tree:|128|fatal: expected 'tree:<depth>'
tree:-1|128|fatal: expected 'tree:<depth>'
sparse:oid=HEAD|129|usage: objects filter not supported: 'sparse:oid'
sparse:oid=|129|usage: objects filter not supported: 'sparse:oid'
sparse:path=x|128|fatal: sparse:path filters support has been dropped
combine:blob:none|129|usage: objects filter not supported: 'combine'
combine:+|129|usage: objects filter not supported: 'combine'
combine:blob%3Anone+tree:0|129|usage: objects filter not supported: 'combine'
combine:|128|fatal: expected something after combine:
combine:a%20b|128|fatal: invalid filter-spec 'a b'
combine:x~y|128|fatal: must escape char in sub-filter-spec: '~'
combine:blob:none+auto|128|fatal: 'auto' filter not supported by this command
auto|128|fatal: 'auto' filter not supported by this command
auto:x|128|fatal: invalid filter-spec 'auto:x'
|128|fatal: invalid filter-spec ''
foo|128|fatal: invalid filter-spec 'foo'
blob:None|128|fatal: invalid filter-spec 'blob:None'
blob:none |128|fatal: invalid filter-spec 'blob:none '
EOF

test_expect_success GIT '--filter: every spec, accepted or refused with git 2.55'"'"'s code and message' '
	printf "%s\n" HEAD:a HEAD:d/b HEAD HEAD^{tree} v1 nope >names &&
	n=0 &&
	while IFS="|" read -r spec code msg
	do
		n=$((n + 1)) &&
		{ dirc cat-file --batch-check --filter="$spec" <names >out 2>err; echo $? >code; } &&
		echo "$code" >expect.code &&
		test_cmp expect.code code &&
		if test -n "$msg"
		then
			{ IFS= read -r first <err || :; } &&
			test "x$first" = "x$msg" &&
			test_must_be_empty out
		else
			test_must_be_empty err
		fi || { echo "spec: $spec" >&2; return 1; }
	done <filter-specs &&
	test $n = 45
'

test_expect_success GIT '--filter: "excluded" for names on stdin, silence with --batch-all-objects' '
	printf "%s\n" HEAD:a HEAD:d/b HEAD v1 nope >names &&
	dirc cat-file --batch-check --filter=blob:limit=7 <names >actual &&
	{
		echo "$(git rev-parse HEAD:a) blob 6" &&
		echo "HEAD:d/b excluded" &&
		echo "$(git rev-parse HEAD) commit $(git cat-file -s HEAD)" &&
		echo "$(git rev-parse v1) tag $(git cat-file -s v1)" &&
		echo "nope missing"
	} >expect &&
	test_cmp expect actual &&
	dirc cat-file --batch-check --filter=object:type=tag <names >actual &&
	{
		echo "HEAD:a excluded" && echo "HEAD:d/b excluded" &&
		echo "HEAD excluded" &&
		echo "$(git rev-parse v1) tag $(git cat-file -s v1)" &&
		echo "nope missing"
	} >expect &&
	test_cmp expect actual &&
	for t in blob tree commit tag
	do
		dirc cat-file --batch-check --batch-all-objects \
			--filter=object:type=$t >actual &&
		git cat-file --batch-check --batch-all-objects >all &&
		grep " $t " all >expect &&
		test_cmp expect actual &&
		dirc cat-file --batch --batch-all-objects \
			--filter=object:type=$t >actual &&
		git cat-file --batch --batch-all-objects >all &&
		test_file_not_empty actual || return 1
	done &&
	dirc cat-file --batch-check --batch-all-objects --filter=blob:none >actual &&
	git cat-file --batch-check --batch-all-objects >all &&
	grep -v " blob " all >expect &&
	test_cmp expect actual &&
	printf "info HEAD:a\ncontents HEAD:d/b\n" >cmd &&
	dirc cat-file --batch-command --filter=blob:none <cmd >actual &&
	printf "HEAD:a excluded\nHEAD:d/b excluded\n" >expect &&
	test_cmp expect actual
'

test_expect_success '--filter outside a batch, two filters, --no-filter' '
	test_expect_code 129 dirc cat-file --filter=blob:none -p HEAD 2>err &&
	echo "usage: objects filter only supported in batch mode" >expect &&
	test_cmp expect err &&
	test_expect_code 129 dirc cat-file --batch-check \
		--filter=blob:none --filter=object:type=blob </dev/null 2>err &&
	echo "usage: objects filter not supported: '"'"'combine'"'"'" >expect &&
	test_cmp expect err &&
	echo HEAD:a >in &&
	dirc cat-file --batch-check=%\(objecttype\) --filter=blob:none \
		--no-filter <in >actual &&
	echo blob >expect &&
	test_cmp expect actual &&
	test_expect_code 129 dirc cat-file --batch-check --filter </dev/null 2>err &&
	test_grep "^error: option .filter. requires a value" err
'

# ---- %(objectmode) ----

test_expect_success GIT '%(objectmode): the mode of the entry named, else empty' '
	printf "%s\n" HEAD:a HEAD:d HEAD:lnk :a :0:a HEAD: HEAD HEAD:sub nope \
		$(git rev-parse HEAD:a) >names &&
	dirc cat-file --batch-check="%(objectmode)|%(objecttype)" <names >actual &&
	cat >expect <<-EOF &&
	100644|blob
	040000|tree
	120000|blob
	100644|blob
	100644|blob
	|tree
	|commit
	$(test_oid_fake 12345) submodule
	nope missing
	|blob
	EOF
	test_cmp expect actual &&
	echo HEAD:lnk >in &&
	dirc cat-file --follow-symlinks --batch-check="%(objectmode)" <in >actual &&
	echo 100644 >expect &&
	test_cmp expect actual &&
	dirc cat-file --batch-all-objects --batch-check="x%(objectmode)x" >actual &&
	sed "s/.*/xx/" actual | sort -u >modes &&
	echo xx >expect &&
	test_cmp expect modes
'

test_expect_success GIT 'a brace not after @ or ^ does not hide the colon of <rev>:<path> (git 2.55)' '
	git branch "br{ace" HEAD &&
	test_when_finished "git branch -D br{ace" &&
	git rev-parse HEAD:a >expect &&
	dirc cat-file -p "br{ace:a" >actual.p &&
	git cat-file -p HEAD:a >expect.p &&
	test_cmp expect.p actual.p &&
	dirc rev-parse "br{ace:a" >actual &&
	test_cmp expect actual &&
	echo "br{ace:a" >in &&
	dirc cat-file --batch-check="%(objectname)" <in >actual &&
	test_cmp expect actual &&
	dirc rev-parse "HEAD@{0}:a" "HEAD^{tree}:a" "HEAD^{/.}:a" >actual &&
	printf "%s\n" $(cat expect) $(cat expect) $(cat expect) >expect3 &&
	test_cmp expect3 actual &&
	if test_have_prereq GIT_NEW
	then
		git_new rev-parse "br{ace:a" >actual &&
		test_cmp expect actual
	fi
'

# ---- mailmaps ----

test_expect_success GIT 'setup: a mailmap of every form' '
	printf "%s\n" "# a comment" \
		"Proper Author <author@example.com>" \
		"<new@other.org> <other@x.org>" \
		"New Name <new@example.com> <old@example.com>" \
		"Case Mapped <cm@x> case name <case@x>" \
		"   Spaced   Name   <some@x>" \
		"Nameless <noname@x>" \
		"Empty <empty@x> <>" \
		" # a comment only in the first column <comment@x>" \
		"broken <line" >.mailmap &&
	test_line_count = 10 .mailmap &&
	git config mailmap.blob HEAD:nonexistent
'

test_expect_success GIT '--use-mailmap -p, <type> <object> as git 2.39, -s as 2.42' '
	for r in $(cat revs)
	do
		for args in "--use-mailmap -p" "--mailmap commit"
		do
			{ dirc cat-file $args $r >actual 2>actual.err; echo $? >>actual; } &&
			{ git cat-file $args $r >expect 2>expect.err; echo $? >>expect; } &&
			test_cmp expect actual || return 1
		done &&
		# -s: git 2.42 and later give the size of what -p shows (2.39
		# the size stored)
		dirc cat-file --use-mailmap -s $r >actual &&
		git cat-file --use-mailmap -p $r >shown &&
		wc -c <shown | tr -d " " >expect &&
		test_cmp expect actual || return 1
	done &&
	dirc cat-file --use-mailmap tag v1 >actual &&
	git cat-file --use-mailmap tag v1 >expect &&
	test_cmp expect actual &&
	# git 2.39 to 2.55 crash (SIGSEGV) mapping what does not peel to
	# the type asked for; dirc says what git says without --use-mailmap
	test_expect_code 128 dirc cat-file --use-mailmap tag HEAD 2>err &&
	echo "fatal: git cat-file HEAD: bad file" >expect &&
	test_cmp expect err &&
	dirc cat-file --use-mailmap -p $(cat odd.id) >actual &&
	test_grep "^author Nameless <noname@x>" actual &&
	test_grep "^committer Empty <empty@x>" actual &&
	test_grep "^author Two  Spaces   <spaced@x>\$" actual
'

test_expect_success GIT '--use-mailmap in batches: contents as git, sizes of the mapped object (2.42)' '
	dirc cat-file --use-mailmap --batch <revs >actual &&
	for r in $(cat revs)
	do
		t=$(git cat-file -t $r) &&
		git cat-file --use-mailmap $t $r >body &&
		echo "$r $t $(wc -c <body | tr -d " ")" &&
		cat body && echo || return 1
	done >expect &&
	test_cmp expect actual &&
	dirc cat-file --use-mailmap --batch-check <revs >actual &&
	grep "^[0-9a-f]* [a-z]* [0-9]*\$" expect >expect.check &&
	test_cmp expect.check actual &&
	dirc cat-file --use-mailmap --batch-check --batch-all-objects >all &&
	for r in $(cat revs)
	do
		grep "^$r " all || return 1
	done >actual &&
	sort expect.check >expect.sorted &&
	sort actual >actual.sorted &&
	test_cmp expect.sorted actual.sorted
'

test_expect_success GIT 'batch command "mailmap <bool>": on and off between commands' '
	r=$(git rev-parse HEAD~1) &&
	raw=$(git cat-file -s $r) &&
	mapped=$(git cat-file --use-mailmap -p $r | wc -c | tr -d " ") &&
	test $raw != $mapped &&
	printf "info $r\nmailmap true\ninfo $r\nmailmap 0\ninfo $r\nmailmap on\nmailmap yes\ninfo $r\nmailmap \ninfo $r\n" >cmd &&
	for b in "" --buffer
	do
		dirc cat-file --batch-command $b <cmd >actual &&
		printf "$r commit %s\n" $raw $mapped $raw $mapped $raw >expect &&
		test_cmp expect actual || return 1
	done &&
	printf "mailmap off\ninfo $r\n" >cmd &&
	dirc cat-file --batch-command --use-mailmap <cmd >actual &&
	echo "$r commit $raw" >expect &&
	test_cmp expect actual
'

test_expect_success GIT 'batch command "mailmap": bad values fail as git 2.55 fails' '
	r=$(git rev-parse HEAD~1) &&
	for line in "mailmap" "mailmap	true" "mailmapx"
	do
		printf "%s\n" "$line" >cmd &&
		test_expect_code 128 dirc cat-file --batch-command <cmd 2>err &&
		echo "fatal: mailmap requires arguments" >expect &&
		test_cmp expect err || return 1
	done &&
	for v in foo " true" "true " 2x
	do
		printf "mailmap %s\n" "$v" >cmd &&
		test_expect_code 128 dirc cat-file --batch-command <cmd 2>err &&
		echo "fatal: mailmap: invalid boolean '"'"'$v'"'"'" >expect &&
		test_cmp expect err || return 1
	done &&
	# with --buffer the value is checked when the queue runs
	printf "info $r\nmailmap foo\n" >cmd &&
	test_expect_code 128 dirc cat-file --batch-command --buffer <cmd >out 2>err &&
	echo "$r commit $(git cat-file -s $r)" >expect &&
	test_cmp expect out
'

test_expect_success GIT 'mailmap sources: mailmap.file, mailmap.blob, a bare repository' '
	mv .mailmap mm.file &&
	test_when_finished "mv mm.file .mailmap; git config mailmap.blob HEAD:nonexistent" &&
	git config --unset mailmap.blob &&
	dirc -c mailmap.file=mm.file cat-file --use-mailmap -p HEAD~2 >actual &&
	git -c mailmap.file=mm.file cat-file --use-mailmap -p HEAD~2 >expect &&
	test_cmp expect actual &&
	test_grep "^author Proper Author" actual &&
	blob=$(git hash-object -w mm.file) &&
	dirc -c mailmap.blob=$blob cat-file --use-mailmap -p HEAD~2 >actual &&
	test_cmp expect actual &&
	test_expect_code 0 dirc -c mailmap.blob=HEAD cat-file --use-mailmap -p HEAD~2 >actual 2>err &&
	echo "error: mailmap is not a blob: HEAD" >expect.err &&
	test_cmp expect.err err &&
	ln -s mm.file .mailmap &&
	dirc cat-file --use-mailmap -s HEAD~2 >actual 2>err &&
	test_when_finished "rm -f .mailmap" &&
	echo "error: unable to open mailmap at .mailmap: Too many levels of symbolic links" >expect.err &&
	test_cmp expect.err err &&
	rm .mailmap &&
	git init -q --bare bare.git &&
	git push -q bare.git HEAD~2:refs/heads/master &&
	test_fsck_also bare.git &&
	dirc --git-dir=bare.git cat-file --use-mailmap -p master >actual &&
	git --git-dir=bare.git cat-file --use-mailmap -p master >expect &&
	test_cmp expect actual
'

# ---- against git 2.55 itself ----

test_expect_success GIT_NEW 'every case above, against git 2.55' '
	printf "HEAD:a\0no\npe\0HEAD:sub\0\0HEAD\r\0HEAD:lnk\0HEAD:lout\0HEAD:dl\0" >z.in &&
	for args in "-Z --batch-check" "-Z --batch" "-z -Z --batch-check" \
		"-Z --batch-check --follow-symlinks" "-z --batch" \
		"-Z --batch=%(objectmode)%(rest)"
	do
		cf_new z.in $args || return 1
	done &&
	printf "%s\n" HEAD:a HEAD:d HEAD:lnk :a :0:a HEAD: HEAD HEAD:sub \
		nope $(git rev-parse HEAD:a) >m.in &&
	cf_new m.in "--batch-check=%(objectmode)|%(objecttype)" &&
	cf_new m.in "--batch=%(objectmode)" --follow-symlinks &&
	printf "%s\n" HEAD:a HEAD:d/b HEAD HEAD^{tree} v1 nope >f.in &&
	while IFS="|" read -r spec code msg
	do
		cf_new f.in --batch-check --filter="$spec" &&
		cf_new f.in --batch --filter="$spec" &&
		cf_new f.in --batch-check --batch-all-objects --filter="$spec" ||
		{ echo "spec: $spec" >&2; return 1; }
	done <filter-specs &&
	cf_new f.in -p HEAD --filter=blob:none &&
	cf_new revs --use-mailmap --batch &&
	cf_new revs --use-mailmap --batch-check &&
	cf_new revs --use-mailmap --batch --batch-all-objects &&
	for r in $(cat revs)
	do
		cf_new f.in --use-mailmap -s $r &&
		cf_new f.in --use-mailmap -p $r || return 1
	done
'

# rand_lines SEED N KIND: N pseudo-random lines (awk, so no $RANDOM)
rand_mailmap () {
	awk -v seed="$1" -v n="$2" '
	function pick(s,   a, k) { k = split(s, a, "|"); return a[int(rand() * k) + 1] }
	BEGIN {
		srand(seed)
		names = "A U Thor|a u thor|Other|OTHER|old name|Case Name|case name|Nobody|  X  |"
		mails = "author@example.com|AUTHOR@example.COM|other@x.org|old@example.com|OLD@Example.com|case@x|CASE@X|noname@x||spaced@x|nobody@x"
		for (i = 0; i < n; i++) {
			f = int(rand() * 9)
			if (f == 0) line = pick(names) " <" pick(mails) ">"
			else if (f == 1) line = "<" pick(mails) "> <" pick(mails) ">"
			else if (f == 2) line = pick(names) " <" pick(mails) "> <" pick(mails) ">"
			else if (f == 3) line = pick(names) " <" pick(mails) "> " pick(names) " <" pick(mails) ">"
			else if (f == 4) line = "#" pick(names) " <" pick(mails) ">"
			else if (f == 5) line = pick(names) "<" pick(mails) ">" pick(names) "<" pick(mails)
			else if (f == 6) line = "<" pick(mails) ">" pick(names) "<" pick(mails) "> trailing"
			else if (f == 7) line = pick(names) " <" pick(mails) ">\r"
			else line = "\t" pick(names) "\t<" pick(mails) ">\t" pick(names) " \t<" pick(mails) ">  "
			print line
		}
	}'
}

test_expect_success GIT_NEW 'random mailmaps: the same idents as git 2.55 maps them' '
	git cat-file --batch <revs >raw &&
	rounds=0 &&
	mapped=0 &&
	seed=1 &&
	while test $seed -le 40
	do
		rand_mailmap $seed 8 >.mailmap &&
		cf_new revs --use-mailmap --batch-check &&
		cf_new revs --use-mailmap --batch &&
		{ cmp -s raw dirc.out || mapped=$((mapped + 1)); } &&
		rounds=$((rounds + 1)) &&
		seed=$((seed + 1)) || { echo "seed $seed" >&2; return 1; }
	done &&
	test $rounds = 40 &&
	# most rounds map something: the test is not vacuous
	test $mapped -ge 30 &&
	rm .mailmap
'

# rand_commands SEED N NUL: N random --batch-command records
rand_commands () {
	awk -v seed="$1" -v n="$2" -v nul="$3" '
	function pick(s,   a, k) { k = split(s, a, "|"); return a[int(rand() * k) + 1] }
	BEGIN {
		srand(seed)
		objs = "HEAD|HEAD~1|v1|HEAD:a|HEAD:sub|nope|HEAD:d|:a|HEAD:|0000"
		cmds = "info|contents|mailmap|info|contents|mailmap|info|flush"
		bools = "on|off|true|false|1|0|yes||no|maybe"
		for (i = 0; i < n; i++) {
			c = pick(cmds)
			r = rand()
			if (c == "mailmap") line = c " " pick(bools)
			else if (c == "flush") line = c
			else line = c " " pick(objs)
			if (r < 0.01) line = " " line
			else if (r < 0.02) line = c
			else if (r < 0.03) line = ""
			else if (r < 0.06) line = line "\r"
			printf "%s%s", line, (nul ? "\0" : "\n")
		}
	}'
}

test_expect_success GIT_NEW 'random --batch-command input: as git 2.55 (exit code, stdout, stderr)' '
	echo "New Name <author@example.com>" >.mailmap &&
	test_when_finished "rm -f .mailmap" &&
	rounds=0 &&
	fails=0 &&
	for seed in $(test_seq 1 30)
	do
		rand_commands $seed 12 0 >r.in &&
		cf_new r.in --batch-command --buffer &&
		cf_new r.in --batch-command &&
		rand_commands $seed 12 1 >r.in &&
		cf_new r.in --batch-command -z &&
		cf_new r.in --batch-command -Z --buffer &&
		{ test "$(cat dirc.code)" = 0 || fails=$((fails + 1)); } &&
		rounds=$((rounds + 1)) || { echo "seed $seed" >&2; return 1; }
	done &&
	test $rounds = 30 &&
	# both ends of the protocol ran: answers, and deaths mid-stream
	echo "$fails of 30 died" &&
	test $fails -ge 5 && test $fails -le 25
'

test_expect_success 'random bytes on stdin: dirc answers or fails cleanly, never crashes' '
	rounds=0 &&
	for seed in $(test_seq 1 25)
	do
		awk -v seed=$seed "BEGIN { srand(seed); n = int(rand() * 200);
			for (i = 0; i < n; i++) {
				r = rand();
				if (r < 0.3) printf \"%s\", (rand() < 0.5 ? \"info \" : \"contents \");
				else if (r < 0.4) printf \"mailmap \";
				else if (r < 0.5) printf \"HEAD\";
				else printf \"%c\", int(rand() * 256);
			} }" >rb.in &&
		for args in "--batch-command -Z" "--batch-command --buffer" \
			"--batch -Z" "--batch-check -z --filter=blob:none" \
			"--batch-command --use-mailmap -Z" \
			"--batch-check=%(objectmode)%(rest) -Z"
		do
			{ dirc cat-file $args <rb.in >/dev/null 2>err; code=$?; } &&
			case $code in
			0|128) ;;
			*) echo "seed $seed, $args: exit $code" >&2; return 1 ;;
			esac || return 1
		done &&
		rounds=$((rounds + 1)) || return 1
	done &&
	test $rounds = 25
'

test_done
