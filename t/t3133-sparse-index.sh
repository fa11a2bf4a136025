#!/bin/sh
test_description='sparse index (index.sparse, cone mode) against git

git sparse-checkout init --cone --sparse-index makes the repository;
dirc reads the sparse index (sparse-directory entries, sdir), lists it
with and without ls-files --sparse, and writes it back as git does:
the same index bytes after update-cache in and outside the cone,
write-tree, read-tree (one tree, merges, -u), checkout-index, a full
index collapsed and a sparse one expanded where index.sparse is off,
and damaged sparse data refused or read as git reads it.  Each case
starts from the same repository: git runs on one copy of the index,
dirc on another, and the bytes are compared.'
. ./test-lib.sh

# the index bytes from TREE on, without the trailing checksum (which
# covers stat data): what twin repositories must agree on
exts () {
	perl -0777 -ne '
		my $i = index($_, "TREE");
		$i = length($_) - '"$OID_RAWSZ"' if $i < 0;
		print unpack("H*", substr($_, $i, length($_) - $i - '"$OID_RAWSZ"')), "\n";
	' "$1"
}

# fresh: w, a copy of the repository made in setup
fresh () {
	rm -rf w &&
	cp -R tpl w &&
	git -C w update-index -q --refresh
}

# same_index 'PREP' 'CMD': in a fresh w, PREP (with git), then CMD with
# $G as git and as dirc from the same index: the same stdout, stderr,
# exit code and index bytes
same_index () {
	echo "same_index: $1 ;; $2" &&
	fresh &&
	(cd w && eval "$1") >/dev/null 2>&1 &&
	cp w/.git/index orig.idx &&
	{ (cd w && G=git && eval "$2") >g.out 2>g.err; echo $? >g.code; } &&
	cp w/.git/index g.idx &&
	cp orig.idx w/.git/index &&
	{ (cd w && G=dirc && eval "$2") >d.out 2>d.err; echo $? >d.code; } &&
	cp w/.git/index d.idx &&
	test_cmp g.code d.code &&
	test_cmp g.out d.out &&
	test_cmp g.err d.err &&
	test_cmp g.idx d.idx
}

# same_twins 'PREP' 'CMD': for commands that change the work tree: two
# fresh copies, git in one, dirc in the other; the same entries, flags,
# extensions and work trees
twin_state () {
	git -C "$1" ls-files -s --sparse &&
	git -C "$1" ls-files --sparse --debug | grep -v "^  [cm]time: \|^  dev: " &&
	od -An -tx1 -j4 -N4 "$1/.git/index" &&
	exts "$1/.git/index" &&
	(cd "$1" && find . -path ./.git -prune -o -type f -print | sort)
}
same_twins () {
	echo "same_twins: $1 ;; $2" &&
	rm -rf wg wd &&
	cp -R tpl wg && cp -R tpl wd &&
	git -C wg update-index -q --refresh &&
	git -C wd update-index -q --refresh &&
	(cd wg && eval "$1") >/dev/null 2>&1 &&
	(cd wd && eval "$1") >/dev/null 2>&1 &&
	{ (cd wg && G=git && eval "$2") >g.out 2>g.err; echo $? >g.code; } &&
	{ (cd wd && G=dirc && eval "$2") >d.out 2>d.err; echo $? >d.code; } &&
	test_cmp g.code d.code &&
	test_cmp g.out d.out &&
	test_cmp g.err d.err &&
	twin_state wg >g.state &&
	twin_state wd >d.state &&
	test_cmp g.state d.state
}

test_expect_success GIT 'setup: a cone-mode sparse index made by git' '
	git init -q tpl &&
	(
		cd tpl &&
		mkdir -p a/b c/d e x/y &&
		for f in top a/f a/b/g c/h c/d/i e/j x/y/z x/k
		do
			echo $f >$f || return 1
		done &&
		git add . &&
		git commit -q -m one &&
		git tag one &&
		echo changed >c/h && echo changed >a/f && echo new >e/new &&
		git add . &&
		git commit -q -m two &&
		git tag two &&
		mkdir n && echo n >n/o && echo conflict >c/h &&
		git add . &&
		git commit -q -m three &&
		git tag three &&
		git reset -q --hard one &&
		git sparse-checkout init --cone --sparse-index &&
		git sparse-checkout set a >/dev/null 2>&1 &&
		touch -d @1600000000 top a/f a/b/g &&
		git update-index -q --refresh
	) &&
	blob=$(git -C tpl rev-parse HEAD:e/j) &&
	printf "100644 %s\tc/d/i\n100644 %s\ta/f\n" $blob $blob >info &&
	git -C tpl ls-files -s --sparse >sparse &&
	grep "^040000 .* 0	c/$" sparse &&
	grep "^040000 .* 0	x/$" sparse &&
	test_path_is_missing tpl/c
'

test_expect_success GIT 'ls-files: the expanded list, as git' '
	fresh &&
	for o in "" -s -t -z --stage --deduplicate "-s c" "-s c/d" "-t -- c/h" \
		 "-s -- *i" "--format=%(objectname)%(path)"
	do
		git -C w ls-files $o >expect &&
		dirc -C w ls-files $o >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success GIT 'ls-files --sparse: the sparse directories, as git' '
	fresh &&
	for o in "" -s -t -z "-s c" "-s c/" "-s c/h" "-s -- c*" "-s x/y" \
		 "--format=%(objectmode)%(path)"
	do
		git -C w ls-files --sparse $o >expect &&
		dirc -C w ls-files --sparse $o >actual &&
		test_cmp expect actual || return 1
	done &&
	git -C w ls-files --sparse --debug >expect &&
	dirc -C w ls-files --sparse --debug >actual &&
	test_cmp expect actual &&
	grep "flags: 40004000" actual &&
	same_index "git config index.sparse false && git sparse-checkout reapply && git config index.sparse true" \
		"\$G ls-files --sparse -s" &&
	grep "^040000 .*	c/$" d.out &&
	same_index "" "\$G -c index.sparse=false ls-files --sparse -s" &&
	! grep "^040000" d.out
'

test_expect_success GIT 'write-tree: the same id; the index, valid, not rewritten' '
	same_index "" "\$G write-tree" &&
	test_cmp orig.idx d.idx &&
	same_index "" "\$G write-tree --prefix=a/" &&
	same_index "git update-index --add top" "\$G write-tree" &&
	same_index "echo new >a/new && git update-index --add a/new" \
		"\$G write-tree"
'

test_expect_success GIT 'update-cache in the cone: kept sparse, the TREE as git leaves it' '
	same_index "echo new >a/new" "\$G update-index --add a/new" &&
	same_index "echo more >>a/f" "\$G update-index a/f" &&
	same_index "rm a/f" "\$G update-index --remove a/f" &&
	same_index "" "\$G update-index --force-remove a/b/g" &&
	same_index "" "\$G update-index --refresh" &&
	same_index "" "\$G update-index --really-refresh" &&
	same_index "" "\$G update-index --skip-worktree top" &&
	same_index "" "\$G update-index --add top"
'

test_expect_success GIT 'a split index asked of a sparse index: fatal, 128, nothing written, as git' '
	same_index "echo more >>a/f" "\$G -c core.splitIndex=true update-index a/f" &&
	test "$(cat d.code)" = 128 &&
	test_grep "cannot use split index with a sparse index" d.err &&
	test_cmp orig.idx d.idx &&
	! ls w/.git/sharedindex.* &&
	same_index "" "\$G update-index --split-index" &&
	test "$(cat d.code)" = 128 &&
	! ls w/.git/sharedindex.*
'

test_expect_success GIT 'update-cache inside a sparse directory: expanded, collapsed again' '
	blob=$(git -C tpl rev-parse HEAD:e/j) &&
	same_index "" "\$G update-index --cacheinfo 100644,$blob,c/h" &&
	same_index "" "\$G update-index --cacheinfo 100644,$blob,c/new" &&
	same_index "" "\$G update-index --force-remove c/h" &&
	same_index "" "\$G update-index --force-remove c/d/i" &&
	same_index "" "\$G update-index --force-remove x/nothere" &&
	same_index "" "\$G update-index --no-skip-worktree c/h" &&
	same_index "" "\$G update-index --index-info <../info" &&
	same_index "" "\$G update-index --cacheinfo 100644,$blob,e/k"
'

test_expect_success GIT 'a sparse directory present in the work tree: expanded, as git' '
	same_index "mkdir c && echo h >c/h" "\$G update-index --refresh" &&
	same_index "mkdir -p x/y && echo z >x/y/z" "\$G update-index --add top" &&
	same_index "mkdir c" "\$G ls-files --sparse -t"
'

test_expect_success GIT 'index.sparse off: a sparse index written full' '
	same_index "git config index.sparse false" "\$G update-index --add top" &&
	same_index "git config index.sparse false" "\$G write-tree" &&
	same_index "git config index.sparse false" "\$G read-tree -m HEAD" &&
	same_index "git config core.sparseCheckoutCone false" \
		"\$G update-index --add top"
'

test_expect_success GIT 'a full index with index.sparse on: collapsed as git' '
	full="git config index.sparse false && git sparse-checkout reapply && git config index.sparse true" &&
	same_index "$full" "\$G update-index --add top" &&
	same_index "$full" "\$G update-index --refresh" &&
	same_index "$full && echo n >a/new" "\$G update-index --add a/new" &&
	same_index "$full" "\$G write-tree" &&
	same_index "$full" "\$G read-tree -m HEAD" &&
	same_index "$full" "\$G read-tree HEAD" &&
	same_index "$full" "\$G read-tree --empty" &&
	same_index "git sparse-checkout set a/b x/y" "\$G update-index --add top" &&
	same_index "git sparse-checkout set a/b c/d" "\$G write-tree"
'

test_expect_success GIT 'index.threads=2: IEOT blocks counted over the collapsed entries, as git; read on threads' '
	thr="git config index.threads 2" &&
	full="git config index.sparse false && git sparse-checkout reapply && git config index.sparse true" &&
	same_index "$thr && echo n >a/new" "\$G update-index --add a/new" &&
	same_index "$thr && $full" "\$G update-index --force-write-index" &&
	same_index "$thr && git sparse-checkout set a/b x/y" \
		"\$G update-index --force-write-index" &&
	same_index "$thr && echo n >a/new && git update-index --add a/new" \
		"\$G ls-files -s --sparse --debug && \$G ls-files -s" &&
	perl -0777 -ne "print join(\" \", /(IEOT|TREE|sdir|EOIE)(?=\\0\\0)/g), \"\\n\"" \
		w/.git/index >sigs &&
	echo IEOT TREE sdir EOIE >expect &&
	test_cmp expect sigs
'

test_expect_success GIT 'read-tree in a sparse index' '
	same_index "" "\$G read-tree HEAD" &&
	same_index "" "\$G read-tree --empty" &&
	same_index "" "\$G read-tree -m HEAD" &&
	same_index "" "\$G read-tree -m HEAD HEAD" &&
	same_index "" "\$G read-tree -m one" &&
	same_index "" "\$G read-tree --prefix=x/n/ one"
'

# git merges a sparse directory as one entry: a file that the merge
# adds inside one (e/new), or a new directory outside the cone, comes
# out collapsed with it
test_expect_success GIT 'read-tree -m (no -u) adding files in sparse directories' '
	same_index "" "\$G read-tree -m HEAD two" &&
	same_index "" "\$G read-tree -m two" &&
	same_index "" "\$G read-tree -m HEAD HEAD two" &&
	same_index "" "\$G read-tree --reset two" &&
	same_index "git config index.sparse false && git sparse-checkout reapply && git config index.sparse true" \
		"\$G read-tree -m HEAD two" &&
	same_index "" "\$G read-tree -m HEAD three" &&
	same_index "" "\$G read-tree -m one three two" &&
	same_index "git update-index --no-skip-worktree e/j" \
		"\$G read-tree -m HEAD two"
'

# git keeps the cache-tree it read, invalidated, after --prefix inside
# the cone; dirc writes it fully valid (the same trees)
test_expect_failure GIT 'read-tree --prefix inside the cone: the TREE git keeps' '
	same_index "" "\$G read-tree --prefix=a/n/ one"
'

test_expect_success GIT 'read-tree -m -u in a sparse index: twins' '
	same_twins "" "\$G read-tree -m -u HEAD two" &&
	same_twins "" "\$G read-tree -m -u two" &&
	same_twins "" "\$G read-tree --reset -u two" &&
	same_twins "" "\$G read-tree -m -u HEAD HEAD two" &&
	same_twins "git sparse-checkout set --no-cone \"/*\" \"!/*/\"" \
		"\$G read-tree -m -u HEAD"
'

test_expect_success GIT 'checkout-index in a sparse index' '
	same_twins "" "\$G checkout-index -a" &&
	same_twins "" "\$G checkout-index -f -a" &&
	same_twins "" "\$G checkout-index c/h" &&
	same_twins "" "\$G checkout-index -f -u a/f" &&
	same_twins "" "\$G checkout-index -f -- c/ a/f" &&
	test_grep "^git checkout-index: c/ is a sparse directory$" d.err &&
	same_twins "" "\$G checkout-index --stage=all -- c/"
'

test_expect_success GIT 'diff-files, diff-index: the expanded index, as git' '
	fresh &&
	for c in "diff-files" "diff-index HEAD" "diff-index --cached two" \
		 "diff-index --cached -r one --name-status"
	do
		git -C w $c >expect &&
		dirc -C w $c >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success GIT 'what dirc writes, git reads; what git writes, dirc reads' '
	fresh &&
	blob=$(git -C tpl rev-parse HEAD:e/j) &&
	dirc -C w update-cache --add --cacheinfo 100644,$blob,c/d/new &&
	dirc -C w update-cache --skip-worktree c/d/new &&
	for o in "-s --sparse" "-s" "-t"
	do
		git -C w ls-files $o >expect &&
		dirc -C w ls-files $o >actual &&
		test_cmp expect actual || return 1
	done &&
	git -C w write-tree >expect &&
	dirc -C w write-tree >actual &&
	test_cmp expect actual &&
	git -C w update-index --force-remove c/d/new &&
	git -C w ls-files -s --sparse >expect &&
	dirc -C w ls-files -s --sparse >actual &&
	test_cmp expect actual &&
	git -C w fsck --no-progress 2>fsck.err &&
	test_must_be_empty fsck.err
'

# damaged sparse data: D (a name for the copy) and the perl to change $d
craft () {
	perl -0777 -e '
		my $h = '"$OID_RAWSZ"';
		local $/; open my $f, "<", $ARGV[0] or die; my $d = <$f>;
		$d = substr($d, 0, length($d) - $h);
		'"$2"';
		my $sum = $h == 20 ? Digest::SHA::sha1($d) : Digest::SHA::sha256($d);
		open my $o, ">", $ARGV[1] or die; print $o $d, $sum;
	' -MDigest::SHA tpl/.git/index "$1"
}

test_expect_success GIT 'a sparse-directory entry without sdir: read as git reads it' '
	craft nosdir "\$d =~ s/sdir\\0\\0\\0\\0//" &&
	same_index "cp ../nosdir .git/index" "\$G ls-files -s" &&
	same_index "cp ../nosdir .git/index" "\$G ls-files -s --sparse" &&
	same_index "cp ../nosdir .git/index" "\$G update-index --add top"
'

test_expect_success GIT 'a non-empty sdir extension: read as git reads it (the bytes ignored)' '
	craft sdirlen "\$d =~ s/sdir\\0\\0\\0\\0/sdir\\0\\0\\0\\x04abcd/" &&
	same_index "cp ../sdirlen .git/index" "\$G ls-files -s" &&
	same_index "cp ../sdirlen .git/index" "\$G update-index --add top"
'

test_expect_success GIT 'a directory entry without skip-worktree: git'\''s warning' '
	craft noskip "\$d =~ s/\\x40\\x02\\x40\\x00c\\/\\0/\\x00\\x02c\\/\\0\\0\\0/" &&
	same_index "cp ../noskip .git/index" "\$G ls-files -s" &&
	test_grep "^warning: index entry is a directory, but not sparse (00000000)" d.err &&
	same_index "cp ../noskip .git/index" "\$G ls-files -s --sparse" &&
	same_index "cp ../noskip .git/index" "\$G update-index --add top"
'

test_expect_success GIT 'mode 040000 without a trailing slash: fatal, 128, index unchanged (git reads it wrong)' '
	craft noslash "\$d =~ s/\\x40\\x02\\x40\\x00c\\//\\x40\\x02\\x40\\x00cc/" &&
	fresh &&
	cp noslash w/.git/index &&
	for c in "ls-files -s" "ls-files --sparse" "update-cache --add top" \
		 "write-tree" "read-tree -m HEAD"
	do
		test_expect_code 128 dirc -C w $c >out 2>err &&
		test_must_be_empty out &&
		test_grep "^fatal: .*index file .* is corrupt: directory entry .cc. (mode 040000) does not end in ./.$" err &&
		test_cmp noslash w/.git/index &&
		test_path_is_missing w/.git/index.lock || return 1
	done
'

test_expect_success GIT 'a sparse directory whose tree is missing: fatal, 128, index unchanged (git lists without it)' '
	fake=$(test_oid_fake 1111) &&
	craft notree "my \$i = index(\$d, \"\\x40\\x02\\x40\\x00c/\\0\"); substr(\$d, \$i - $OID_RAWSZ, $OID_RAWSZ) = pack(\"H*\", \"$fake\")" &&
	fresh &&
	cp notree w/.git/index &&
	dirc -C w ls-files -s --sparse >out &&
	grep "^040000 $fake 0	c/$" out &&
	for c in "ls-files -s" "update-cache --add top" "write-tree" \
		 "read-tree -m HEAD" "diff-files"
	do
		test_expect_code 128 dirc -C w $c >out 2>err &&
		test_must_be_empty out &&
		test_grep "^error: Could not read $fake$" err &&
		test_grep "^fatal: unable to expand sparse directory .c/. of the index: its tree $fake cannot be read$" err &&
		test_cmp notree w/.git/index &&
		test_path_is_missing w/.git/index.lock || return 1
	done &&
	git -C w ls-files -s >git.out 2>git.err &&
	test_grep "Could not read $fake" git.err
'

test_expect_success GIT 'a sparse directory naming a blob: fatal, 128, index unchanged' '
	blob=$(git -C tpl rev-parse HEAD:e/j) &&
	craft blobdir "my \$i = index(\$d, \"\\x40\\x02\\x40\\x00c/\\0\"); substr(\$d, \$i - $OID_RAWSZ, $OID_RAWSZ) = pack(\"H*\", \"$blob\")" &&
	fresh &&
	cp blobdir w/.git/index &&
	test_expect_code 128 dirc -C w ls-files -s >out 2>err &&
	test_must_be_empty out &&
	test_grep "^fatal: unable to expand sparse directory .c/." err &&
	test_cmp blobdir w/.git/index
'

test_done
