#!/bin/sh
test_description='refs in reftable stacks: dirc reads and writes them as git 2.55 does

extensions.refStorage=reftable (git 2.45).  Without git 2.55 (CI): dirc
init --ref-format=reftable and a sequence of updates write tables that
are byte for byte the ones git 2.55 wrote for the same sequence
(t3091/*.ref, made by t3091/make-data.sh), in SHA-1 and SHA-256; every
command reads what it wrote; failed updates leave the stack as it was;
commands that need no refs never open it.  With git 2.55 (GIT_NEW): git
and dirc update one repository in turn and both agree on every ref and
reflog, and the messages of refused updates are git 2.55 ones.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/t3091/ops.sh

data="$TEST_DIRECTORY/t3091"

# The tables of repository $1 in stack order, compared with $data/$2-*.
cmp_tables () {
	n=0 &&
	while read -r table
	do
		n=$((n + 1)) &&
		cmp "$data/$2-$n.ref" "$1/.git/reftable/$table" ||
		return 1
	done <"$1/.git/reftable/tables.list" &&
	test_path_is_missing "$data/$2-$((n + 1)).ref"
}

# Every file of the ref store, with its bytes: for "left as it was".
snapshot_refs () {
	(cd "$1/.git" && find HEAD refs reftable -type f | sort |
	 while read -r f; do echo "== $f"; od -An -c "$f"; done)
}

for hash in sha1 sha256
do
	test_expect_success "init --ref-format=reftable ($hash): git 2.55's stubs, config and table" '
		ops_init dirc r-init-$hash $hash &&
		echo "ref: refs/heads/.invalid" >expect &&
		test_cmp expect r-init-$hash/.git/HEAD &&
		echo "this repository uses the reftable format" >expect &&
		test_cmp expect r-init-$hash/.git/refs/heads &&
		test_path_is_missing r-init-$hash/.git/refs/tags &&
		git config -f r-init-$hash/.git/config extensions.refstorage >actual &&
		echo reftable >expect &&
		test_cmp expect actual &&
		git config -f r-init-$hash/.git/config core.repositoryformatversion >actual &&
		echo 1 >expect &&
		test_cmp expect actual &&
		cmp_tables r-init-$hash init-$hash &&
		dirc -C r-init-$hash rev-parse --show-ref-format >actual &&
		echo reftable >expect &&
		test_cmp expect actual &&
		dirc -C r-init-$hash symbolic-ref HEAD >actual &&
		echo refs/heads/master >expect &&
		test_cmp expect actual
	'

	test_expect_success "a sequence of updates ($hash): git 2.55's tables, compaction included" '
		ops_seq dirc r-seq-$hash $hash &&
		cmp_tables r-seq-$hash seq-$hash
	'

	test_expect_success "many refs out of order, in two --stdin transactions ($hash): git 2.55's tables" '
		ops_batch dirc r-batch-$hash $hash &&
		cmp_tables r-batch-$hash batch-$hash
	'

	test_expect_success "reading it back ($hash): refs, symbolic refs, reflogs" '
		(
			cd r-seq-$hash &&
			c=$(echo msg | dirc commit-tree $(dirc write-tree)) &&
			c2=$(dirc rev-parse HEAD) &&
			dirc symbolic-ref HEAD >actual &&
			echo refs/heads/b >expect &&
			test_cmp expect actual &&
			dirc rev-parse b HEAD@{0} HEAD@{1} HEAD@{2} b@{1} >actual &&
			printf "%s\n" $c2 $c2 $c $c $c >expect &&
			test_cmp expect actual &&
			dirc rev-parse --all >actual &&
			echo $c2 >expect &&
			test_cmp expect actual &&
			test_must_fail dirc rev-parse --verify -q master &&
			test_must_fail dirc rev-parse --verify -q master@{0} &&
			test_must_fail dirc rev-parse --verify -q v1 &&
			test_must_fail dirc rev-parse --verify -q @{-1} &&
			dirc read-tree HEAD &&
			dirc ls-files -s >actual &&
			test_line_count = 1 actual
		)
	'
done

test_expect_success 'refused updates leave the stack byte for byte as it was' '
	ops_seq dirc r-bad sha1 &&
	c=$(dirc -C r-bad rev-parse HEAD) &&
	snapshot_refs r-bad >before &&
	test_expect_code 128 dirc -C r-bad update-ref refs/heads/b/x $c 2>err &&
	echo "fatal: update_ref failed for ref '\''refs/heads/b/x'\'': '\''refs/heads/b'\'' exists; cannot create '\''refs/heads/b/x'\''" >expect &&
	test_cmp expect err &&
	test_expect_code 128 dirc -C r-bad update-ref refs/heads/new $c $c 2>err &&
	echo "fatal: update_ref failed for ref '\''refs/heads/new'\'': cannot lock ref '\''refs/heads/new'\'': unable to resolve reference '\''refs/heads/new'\''" >expect &&
	test_cmp expect err &&
	test_expect_code 128 dirc -C r-bad update-ref refs/heads/b $c $ZERO_OID 2>err &&
	echo "fatal: update_ref failed for ref '\''refs/heads/b'\'': cannot lock ref '\''refs/heads/b'\'': reference already exists" >expect &&
	test_cmp expect err &&
	printf "create refs/x/y %s\ncreate refs/x %s\n" $c $c >in &&
	test_expect_code 128 dirc -C r-bad update-ref --stdin <in 2>err &&
	echo "fatal: cannot process '\''refs/x/y'\'' and '\''refs/x'\'' at the same time" >expect &&
	test_cmp expect err &&
	snapshot_refs r-bad >after &&
	test_cmp before after
'

test_expect_success 'a held tables.list.lock: the update waits, then fails, nothing written' '
	c=$(dirc -C r-bad rev-parse HEAD) &&
	: >r-bad/.git/reftable/tables.list.lock &&
	snapshot_refs r-bad >before &&
	test_must_fail dirc -C r-bad update-ref refs/heads/c $c 2>err &&
	echo "fatal: update_ref failed for ref '\''refs/heads/c'\'': cannot lock references" >expect &&
	test_cmp expect err &&
	test_must_fail dirc -C r-bad symbolic-ref refs/heads/s refs/heads/b &&
	snapshot_refs r-bad >after &&
	test_cmp before after &&
	rm r-bad/.git/reftable/tables.list.lock &&
	dirc -C r-bad update-ref refs/heads/c $c &&
	dirc -C r-bad rev-parse refs/heads/c >actual &&
	echo $c >expect &&
	test_cmp expect actual
'

test_expect_success 'no-op updates and deletions of missing refs write no table' '
	c=$(dirc -C r-bad rev-parse HEAD) &&
	cp r-bad/.git/reftable/tables.list before &&
	dirc -C r-bad update-ref refs/heads/c $c &&
	dirc -C r-bad update-ref -d refs/heads/missing &&
	printf "verify refs/heads/c %s\n" $c | dirc -C r-bad update-ref --stdin &&
	test_cmp before r-bad/.git/reftable/tables.list
'

test_expect_success 'commands that need no refs work in a reftable repository whose stack is damaged' '
	ops_init dirc r-nr sha1 &&
	echo content >r-nr/f &&
	echo garbage >r-nr/.git/reftable/tables.list &&
	dirc -C r-nr hash-object -w f >actual &&
	git hash-object r-nr/f >expect &&
	test_cmp expect actual &&
	dirc -C r-nr update-index --add f &&
	dirc -C r-nr ls-files >actual &&
	echo f >expect &&
	test_cmp expect actual &&
	dirc -C r-nr write-tree &&
	test_must_fail dirc -C r-nr rev-parse HEAD 2>err &&
	test -s err
'

test_expect_success 'many refs: every one read back, listed in order, logs kept' '
	ops_init dirc r-many sha1 &&
	c=$(cd r-many && echo x >f && dirc update-index --add f &&
	    echo m | dirc commit-tree $(dirc write-tree)) &&
	for i in $(test_seq 0 599)
	do
		printf "create refs/heads/br%04d %s\n" $i $c || return 1
	done >in &&
	dirc -C r-many update-ref --stdin <in &&
	dirc -C r-many rev-parse --branches >actual &&
	test_line_count = 600 actual &&
	dirc -C r-many rev-parse --symbolic-full-name --branches >names &&
	sed -e "s/^create //" -e "s/ .*//" in >expect &&
	test_cmp expect names &&
	dirc -C r-many rev-parse br0599@{0} br0000@{0} &&
	for i in $(test_seq 0 299)
	do
		printf "delete refs/heads/br%04d\n" $((2 * i)) || return 1
	done >del &&
	dirc -C r-many update-ref --stdin <del &&
	dirc -C r-many rev-parse --branches >actual &&
	test_line_count = 300 actual &&
	test_must_fail dirc -C r-many rev-parse --verify -q br0000@{0}
'

test_expect_success 'a big table: lookups in key order and out of it find every ref' '
	ops_init dirc r-big sha1 &&
	(
		cd r-big &&
		echo x >f && dirc update-index --add f &&
		t=$(dirc write-tree) &&
		c1=$(echo one | dirc commit-tree $t) &&
		c2=$(echo two | dirc commit-tree -p $c1 $t) &&
		awk -v c=$c1 "BEGIN { for (i = 0; i < 4000; i++)
			printf \"create refs/heads/b%05d %s\\n\", i, c }" >in &&
		dirc update-ref --stdin <in &&
		# one table, with an index over its ref blocks
		test_line_count = 1 .git/reftable/tables.list &&
		# updates that check the old value: each read must hit
		awk -v n=4000 -v c=$c2 -v o=$c1 "BEGIN { for (i = 0; i < 800; i++)
			printf \"update refs/heads/b%05d %s %s\\n\", (i * 7919) % n, c, o }" >scattered &&
		sort scattered >sorted &&
		head -n 400 sorted >first &&
		sed -n "401,800p" sorted >second &&
		grep -F -x -f second scattered >second.shuffled &&
		test_line_count = 400 second.shuffled &&
		dirc update-ref --stdin <first &&
		dirc update-ref --stdin <second.shuffled &&
		sed "s/^update \([^ ]*\) .*/\1/" scattered | sort -u >moved &&
		dirc rev-parse --symbolic-full-name --branches >names &&
		dirc rev-parse --branches >ids &&
		paste -d " " names ids >actual &&
		awk -v c1=$c1 -v c2=$c2 "NR == FNR { m[\$1] = 1; next }
			{ print \$2, (\$2 in m) ? c2 : c1 }" moved in >expect &&
		test_cmp expect actual &&
		# a ref between two blocks, and past the last one
		test_must_fail dirc rev-parse --verify -q refs/heads/b00000x &&
		test_must_fail dirc rev-parse --verify -q refs/heads/b99999 &&
		test_must_fail dirc rev-parse --verify -q refs/heads/a &&
		echo "update refs/heads/b03999 $c1 $c2" >wrong &&
		test_must_fail dirc update-ref --stdin <wrong
	)
'

test_expect_success 'init: --ref-format, GIT_DEFAULT_REF_FORMAT, init.defaultRefFormat, feature.experimental' '
	test_expect_code 128 dirc init --ref-format=bogus bad1 2>err &&
	echo "fatal: unknown ref storage format '\''bogus'\''" >expect &&
	test_cmp expect err &&
	test_path_is_missing bad1 &&
	test_expect_code 128 env GIT_DEFAULT_REF_FORMAT=x dirc init bad2 2>err &&
	echo "fatal: unknown ref storage format '\''x'\''" >expect &&
	test_cmp expect err &&
	test_path_is_missing bad2 &&
	GIT_DEFAULT_REF_FORMAT=reftable dirc init -q e1 &&
	dirc -C e1 rev-parse --show-ref-format >actual &&
	echo reftable >expect &&
	test_cmp expect actual &&
	dirc -c init.defaultRefFormat=reftable init -q e2 &&
	dirc -C e2 rev-parse --show-ref-format >actual &&
	test_cmp expect actual &&
	dirc -c feature.experimental=true init -q e3 &&
	dirc -C e3 rev-parse --show-ref-format >actual &&
	test_cmp expect actual &&
	dirc -c feature.experimental=true -c init.defaultRefFormat=files init -q e4 &&
	dirc -C e4 rev-parse --show-ref-format >actual &&
	echo files >expect &&
	test_cmp expect actual &&
	dirc -c init.defaultRefFormat=zz init -q e5 2>err &&
	echo "warning: unknown ref storage format '\''zz'\''" >expect &&
	test_cmp expect err &&
	dirc -C e5 rev-parse --show-ref-format >actual &&
	echo files >expect &&
	test_cmp expect actual &&
	GIT_DEFAULT_REF_FORMAT=files dirc init -q --ref-format=reftable e6 &&
	dirc -C e6 rev-parse --show-ref-format >actual &&
	echo reftable >expect &&
	test_cmp expect actual
'

test_expect_success 'init again: the format is kept; another one is refused, nothing touched' '
	snapshot_refs e6 >before &&
	cp e6/.git/config config.before &&
	dirc init -q e6 &&
	dirc init -q --ref-format=reftable e6 &&
	GIT_DEFAULT_REF_FORMAT=files dirc init -q e6 &&
	test_expect_code 128 dirc init --ref-format=files e6 2>err &&
	echo "fatal: attempt to reinitialize repository with different reference storage format" >expect &&
	test_cmp expect err &&
	test_expect_code 128 dirc init --ref-format=reftable e5 2>err &&
	test_cmp expect err &&
	snapshot_refs e6 >after &&
	test_cmp before after &&
	test_cmp config.before e6/.git/config &&
	test_path_is_missing e6/.git/refs/tags
'

test_expect_success 'init.defaultObjectFormat (git 2.49): after --object-format and GIT_DEFAULT_HASH' '
	dirc -c init.defaultObjectFormat=sha256 init -q h1 &&
	dirc -C h1 rev-parse --show-object-format >actual &&
	echo sha256 >expect &&
	test_cmp expect actual &&
	GIT_DEFAULT_HASH=sha1 dirc -c init.defaultObjectFormat=sha256 init -q h2 &&
	dirc -C h2 rev-parse --show-object-format >actual &&
	echo sha1 >expect &&
	test_cmp expect actual &&
	dirc -c init.defaultObjectFormat=sha256 init -q --object-format=sha1 h3 &&
	dirc -C h3 rev-parse --show-object-format >actual &&
	test_cmp expect actual &&
	dirc -c init.defaultObjectFormat=md5 init -q h4 2>err &&
	echo "warning: unknown hash algorithm '\''md5'\''" >expect &&
	test_cmp expect err &&
	dirc -C h4 rev-parse --show-object-format >actual &&
	echo sha1 >expect &&
	test_cmp expect actual &&
	dirc -c init.defaultObjectFormat=sha256 init -q h1 &&
	dirc -C h1 rev-parse --show-object-format >actual &&
	echo sha256 >expect &&
	test_cmp expect actual
'

test_expect_success 'GIT_REFERENCE_BACKEND and payloads: honoured or refused, never ignored' '
	GIT_REFERENCE_BACKEND=reftable dirc -C e1 rev-parse --show-ref-format >actual &&
	echo reftable >expect &&
	test_cmp expect actual &&
	test_expect_code 128 env GIT_REFERENCE_BACKEND=bogus dirc -C e1 rev-parse HEAD 2>err &&
	echo "fatal: unknown ref storage format: '\''bogus'\''" >expect &&
	test_cmp expect err &&
	test_expect_code 128 env GIT_REFERENCE_BACKEND=reftable://elsewhere dirc -C e1 rev-parse HEAD 2>err &&
	echo "fatal: this repository keeps its references at '\''elsewhere'\'' (extensions.refStorage with a path), which dirc does not support" >expect &&
	test_cmp expect err &&
	git config -f e1/.git/config extensions.refstorage files://other &&
	test_expect_code 128 dirc -C e1 ls-files 2>err &&
	echo "fatal: this repository keeps its references at '\''other'\'' (extensions.refStorage with a path), which dirc does not support" >expect &&
	test_cmp expect err &&
	git config -f e1/.git/config extensions.refstorage reftable://
'

for fmt in files reftable
do
	test_expect_success "a dangling symbolic ref is not replaced by a creation ($fmt; git 2.45)" '
		dirc init -q --ref-format=$fmt dg-$fmt &&
		(
			cd dg-$fmt &&
			echo x >f && dirc update-index --add f &&
			c=$(echo m | dirc commit-tree $(dirc write-tree)) &&
			dirc update-ref HEAD $c &&
			dirc symbolic-ref refs/heads/dangling refs/heads/nowhere &&
			printf "create refs/heads/dangling %s\n" $c >in &&
			test_expect_code 128 dirc update-ref --no-deref --stdin <in 2>err &&
			echo "fatal: cannot lock ref '\''refs/heads/dangling'\'': dangling symref already exists" >expect &&
			test_cmp expect err &&
			dirc symbolic-ref refs/heads/dangling >actual &&
			echo refs/heads/nowhere >expect &&
			test_cmp expect actual &&
			printf "update refs/heads/dangling %s %s\n" $c $c >in &&
			test_expect_code 128 dirc update-ref --no-deref --stdin <in 2>err &&
			echo "fatal: cannot lock ref '\''refs/heads/dangling'\'': reference is missing but expected $c" >expect &&
			test_cmp expect err
		)
	'
done

for fmt in files reftable
do
	test_expect_success "the branch an unborn HEAD points to, created with a zero old value ($fmt)" '
		for how in stdin argv
		do
			dirc init -q --ref-format=$fmt unborn-$fmt-$how &&
			(
				cd unborn-$fmt-$how &&
				echo x >f && dirc update-index --add f &&
				c=$(echo m | dirc commit-tree $(dirc write-tree)) &&
				if test $how = stdin
				then
					echo "create refs/heads/master $c" |
					dirc update-ref -m born --stdin
				else
					dirc update-ref -m born refs/heads/master $c $ZERO_OID
				fi &&
				dirc rev-parse master HEAD HEAD@{0} master@{0} >actual &&
				printf "%s\n" $c $c $c $c >expect &&
				test_cmp expect actual &&
				echo "update refs/heads/master $c $ZERO_OID" >again &&
				test_expect_code 128 dirc update-ref --stdin <again 2>err &&
				echo "fatal: cannot lock ref '\''refs/heads/master'\'': reference already exists" >expect &&
				test_cmp expect err
			) || return 1
		done &&
		if test $fmt = files
		then
			# git 2.39 makes the same files
			git init -q unborn-git &&
			(
				cd unborn-git &&
				echo x >f && git update-index --add f &&
				c=$(echo m | git commit-tree $(git write-tree)) &&
				echo "create refs/heads/master $c" |
				git update-ref -m born --stdin
			) &&
			for f in refs/heads/master logs/HEAD logs/refs/heads/master
			do
				test_cmp unborn-git/.git/$f unborn-$fmt-stdin/.git/$f ||
				return 1
			done
		fi
	'
done

# ---- against git 2.55 itself ----

for hash in sha1 sha256
do
	test_expect_success GIT_NEW "git 2.55 and dirc in turn on one repository ($hash)" '
		ops_seq git_new alt-$hash $hash &&
		(
			cd alt-$hash &&
			c=$(git_new rev-parse HEAD) &&
			t=$(git_new rev-parse HEAD^{tree}) &&
			for i in 1 2 3 4 5 6
			do
				test_tick &&
				n=$(echo "c$i" | git_new commit-tree -p $c $t) &&
				if test $((i % 2)) = 0
				then
					dirc update-ref -m "dirc $i" HEAD $n $c &&
					git_new update-ref refs/tags/t$i $n
				else
					git_new update-ref -m "git $i" HEAD $n $c &&
					dirc update-ref refs/tags/t$i $n
				fi &&
				c=$n || return 1
			done &&
			dirc update-ref -d refs/tags/t1 &&
			git_new update-ref -d refs/tags/t2 &&
			git_new pack-refs &&
			dirc update-ref refs/heads/side refs/tags/t3 &&
			dirc symbolic-ref -m "dirc moves HEAD" HEAD refs/heads/side &&
			git_new for-each-ref --format="%(refname) %(objectname)" >expect &&
			dirc rev-parse --symbolic-full-name --all >names &&
			dirc rev-parse --all >ids &&
			paste -d " " names ids >actual &&
			test_cmp expect actual &&
			git_new reflog show --format="%H %gs" HEAD >expect &&
			for i in $(test_seq 0 $(($(wc -l <expect) - 1)))
			do
				echo "$(dirc rev-parse HEAD@{$i}) $(git_new log -g -1 --skip=$i --format=%gs HEAD)" ||
				return 1
			done >actual &&
			test_cmp expect actual &&
			git_new refs verify &&
			git_new fsck
		)
	'
done

test_expect_success GIT_NEW 'refused updates: git 2.55 messages and exit codes' '
	ops_seq git_new gm sha1 &&
	c=$(git_new -C gm rev-parse HEAD) &&
	while read -r args
	do
		cp -R gm gm-git && cp -R gm gm-dirc &&
		{ git_new -C gm-git update-ref $args >expect 2>&1; echo $? >>expect; } &&
		{ dirc -C gm-dirc update-ref $args >actual 2>&1; echo $? >>actual; } &&
		test_cmp expect actual &&
		rm -rf gm-git gm-dirc || return 1
	done <<-EOF
	refs/heads/b/x $c
	refs/heads/new $c $c
	refs/heads/b $c $ZERO_OID
	refs/heads/b $ZERO_OID $c
	-d refs/heads/b $ZERO_OID
	-d refs/heads/nope
	EOF
'

test_done
