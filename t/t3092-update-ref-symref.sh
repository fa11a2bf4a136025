#!/bin/sh
test_description='update-ref --stdin: symref-update, symref-create, symref-delete, symref-verify

The symref-* commands of git 2.46, as git 2.55 runs them, in the files
and the reftable store, newline and -z forms, in and out of
transactions (start, prepare, commit, abort), with old values given as
"ref <target>" or "oid <oid>", through symbolic refs and with
no-deref, and with git 2.55 messages for every bad input; new objects
are checked as an update is read (git 2.55).  --batch-updates (git
2.51) rejects single updates, "rejected <ref> <new> <old> <reason>",
and commits the others.

git 2.39 (the one CI has) does not know the commands.  The expected
results are git 2.55 ones, recorded in t3092/expect-<store> (exit
code, stdout, stderr, and for the files store every file of the ref
store, for the reftable store every record of the stack) for each
line of t3092/cases ("<options>|<printf input>").  Under GIT_NEW
(DIRC_TEST_GIT_NEW) every case is also run with git 2.55 itself on the
same repository, and T3092_RECORD=1 then writes the expect files
afresh.  A case that fails must leave the repository byte for byte as
it was.  A random pass feeds both stores streams of the language with
random damage: no signal, no odd exit code, no lock left.

Where git 2.55 writes reflog lines for an update it rejected (the
symbolic refs it went through, HEAD for its branch: lines of a move
that did not happen), dirc writes none: those cases are in
t3092/cases-dropped, compared with git but for the reflogs.'
. ./test-lib.sh

data="$TEST_DIRECTORY/t3092"
STORES="files reftable"

# mk_base STORE: repository base-STORE, made by dirc (and git's
# pack-refs for the files store) the same way wherever the test runs:
# HEAD -> main (c2, with a reflog), other (c1), sym -> main, dangle ->
# refs/heads/nowhere, an annotated tag v1, refs/tags/packed (packed in
# the files store).
mk_base () {
	if test "$1" = reftable
	then
		dirc init -q --ref-format=reftable base-$1
	else
		dirc init -q base-$1
	fi &&
	(
		cd base-$1 &&
		echo a >a &&
		dirc update-cache --add a &&
		t=$(dirc write-tree) &&
		c1=$(echo one | dirc commit-tree $t) &&
		c2=$(echo two | dirc commit-tree -p $c1 $t) &&
		printf "object %s\ntype commit\ntag v1\ntagger %s\n\ntagged\n" \
			$c1 "C O Mitter <committer@example.com> 1112354055 +0200" |
		dirc hash-object -t tag -w --stdin >../tag &&
		dirc update-ref -m one refs/heads/main $c1 &&
		dirc update-ref -m two refs/heads/main $c2 $c1 &&
		dirc symbolic-ref -m switch HEAD refs/heads/main &&
		dirc update-ref refs/heads/other $c1 &&
		dirc symbolic-ref refs/heads/sym refs/heads/main &&
		dirc symbolic-ref refs/heads/dangle refs/heads/nowhere &&
		dirc update-ref refs/tags/v1 $(cat ../tag) &&
		dirc update-ref refs/tags/packed $c2 &&
		if test "$1" = files
		then
			git pack-refs
		fi &&
		echo $c1 >../c1 &&
		echo $c2 >../c2
	)
}

# ref_state STORE DIR: the refs of DIR as bytes: each file of the files
# store, or each record of the reftable stack.
ref_state () {
	if test "$1" = reftable
	then
		dirc test-tool reftable dump "$2/.git/reftable"
	else
		(
			cd "$2/.git" &&
			find HEAD refs logs packed-refs -type f 2>/dev/null |
			LC_ALL=C sort |
			while read -r f
			do
				echo "== $f" &&
				cat "$f" || return 1
			done
		)
	fi
}

# whole_state DIR: every entry of DIR/.git but the objects, with the
# checksum of each file: the repository byte for byte.
whole_state () {
	(
		cd "$1/.git" &&
		find . -path ./objects -prune -o -print | LC_ALL=C sort &&
		find . -path ./objects -prune -o -type f -print | LC_ALL=C sort |
		xargs -r -d "\n" md5sum
	)
}

# run_cases TOOL STORE OUT: every case with TOOL (dirc or git_new) on a
# copy of base-STORE, one block per case into OUT.  A failed run must
# leave its copy as it was (unless a transaction was committed first).
run_cases () {
	rc_tool=$1 rc_store=$2 rc_out=$3 &&
	c1=$(cat c1) c2=$(cat c2) &&
	whole_state base-$rc_store >base.state &&
	: >"$rc_out" &&
	n=0 &&
	while IFS="|" read -r opts input
	do
		n=$((n + 1)) &&
		rm -rf w &&
		cp -R base-$rc_store w &&
		printf "$(printf "%s\n" "$input" | sed -e "s/\\\$C1/$c1/g" -e "s/\\\$C2/$c2/g")" >in &&
		{
			(cd w && $rc_tool update-ref $opts <../in >../out 2>../err)
			echo $? >code
		} &&
		sed -e "s/^usage: git /usage: dirc /" -e "s/^   or: git /   or: dirc /" \
			err >err.named &&
		{
			echo "## $n $rc_store: $opts | $input" &&
			echo "code $(cat code)" &&
			echo "-- stdout" && cat out &&
			echo "-- stderr" && cat err.named &&
			# a failure leaves the refs as they were: checked below
			if test "$(cat code)" = 0 || grep -q "^commit: ok" out
			then
				echo "-- refs" && ref_state $rc_store w
			fi
		} >>"$rc_out" &&
		if test "$(cat code)" != 0 && ! grep -q "^commit: ok" out
		then
			whole_state w >w.state &&
			test_cmp base.state w.state || {
				echo "case $n ($rc_tool, $rc_store) failed and changed the repository" >&2
				return 1
			}
		fi || return 1
	done <"$data/cases" &&
	test $n -ge 130
}

test_expect_success 'setup: the same refs in a files and a reftable repository' '
	for store in $STORES
	do
		mk_base $store || return 1
	done &&
	dirc -C base-reftable rev-parse --show-ref-format >actual &&
	echo reftable >expect &&
	test_cmp expect actual &&
	test_path_is_file base-files/.git/packed-refs &&
	test_path_is_file base-files/.git/refs/heads/sym
'

for store in $STORES
do
	test_expect_success "every case ($store store): git 2.55's result, failures change nothing" '
		run_cases dirc $store dirc-$store.out &&
		test_cmp "$data/expect-$store" dirc-$store.out
	'

	test_expect_success GIT_NEW "every case ($store store): live against git 2.55" '
		run_cases git_new $store git-$store.out &&
		if test -n "$T3092_RECORD"
		then
			cp git-$store.out "$data/expect-$store"
		fi &&
		test_cmp git-$store.out dirc-$store.out
	'
done

test_expect_success 'symref-update writes "ref: <target>" and logs the value, as git' '
	rm -rf w && cp -R base-files w &&
	printf "symref-update refs/heads/new refs/heads/other\n" |
	dirc -C w update-ref -m "made it" --create-reflog --stdin &&
	echo "ref: refs/heads/other" >expect &&
	test_cmp expect w/.git/refs/heads/new &&
	printf "%s %s %s\tmade it\n" $ZERO_OID $(cat c1) \
		"C O Mitter <committer@example.com> $GIT_COMMITTER_DATE" >expect &&
	test_cmp expect w/.git/logs/refs/heads/new &&
	git -C w symbolic-ref refs/heads/new >actual &&
	echo refs/heads/other >expect &&
	test_cmp expect actual
'

test_expect_success 'no log line for a symbolic ref to nothing, as git' '
	rm -rf w && cp -R base-files w &&
	printf "symref-update refs/heads/new refs/heads/none\n" |
	dirc -C w update-ref -m "made it" --create-reflog --stdin &&
	echo "ref: refs/heads/none" >expect &&
	test_cmp expect w/.git/refs/heads/new &&
	test_path_is_missing w/.git/logs/refs/heads/new
'

test_expect_success 'the files store: git 2.39 reads what dirc wrote' '
	rm -rf w && cp -R base-files w &&
	printf "symref-create refs/heads/s1 refs/heads/other\noption no-deref\nsymref-update HEAD refs/heads/other ref refs/heads/main\n" |
	dirc -C w update-ref -m msg --stdin &&
	git -C w symbolic-ref HEAD >actual &&
	git -C w symbolic-ref refs/heads/s1 >>actual &&
	printf "refs/heads/other\nrefs/heads/other\n" >expect &&
	test_cmp expect actual &&
	git -C w rev-parse HEAD@{0} HEAD@{1} >actual &&
	printf "%s\n" $(cat c1) $(cat c2) >expect &&
	test_cmp expect actual
'

for store in $STORES
do
	test_expect_success "a full hex value is the object, no ref looked up ($store store): git 2.55" '
		rm -rf w && cp -R base-$store w &&
		c1=$(cat c1) &&
		dirc -C w update-ref refs/heads/$c1 $(cat c2) &&
		dirc -C w update-ref refs/heads/h1 $c1 2>err &&
		test_must_be_empty err &&
		echo "update refs/heads/h2 $c1" >in &&
		dirc -C w update-ref --stdin <in 2>err &&
		test_must_be_empty err &&
		dirc -C w rev-parse refs/heads/h1 refs/heads/h2 >actual &&
		printf "%s\n" $c1 $c1 >expect &&
		test_cmp expect actual &&
		if test_have_prereq GIT_NEW
		then
			rm -rf g && cp -R base-$store g &&
			git_new -C g update-ref refs/heads/$c1 $(cat c2) &&
			git_new -C g update-ref refs/heads/h1 $c1 2>gerr &&
			git_new -C g update-ref --stdin <in 2>>gerr &&
			test_must_be_empty gerr
		fi
	'
done

for store in $STORES
do
	test_expect_success "a batch of full hex values: each the object, whatever its case ($store store)" '
		rm -rf w && cp -R base-$store w &&
		c1=$(cat c1) && c2=$(cat c2) &&
		C2=$(echo $c2 | tr a-f A-F) &&
		dirc -C w update-ref refs/heads/$c1 $c2 &&
		dirc -C w update-ref refs/heads/$c2 $c1 &&
		cat >in <<-EOF &&
		update refs/heads/h1 $c1
		update refs/heads/h2 $C2
		create refs/heads/h3 $c2
		update refs/heads/h4 $c1 0000000000000000000000000000000000000000
		update refs/heads/h5 $c2 $C2
		EOF
		test_must_fail dirc -C w update-ref --stdin <in 2>err &&
		grep "refs/heads/h5" err &&
		sed "\$d" in >in2 &&
		dirc -C w update-ref --stdin <in2 2>err &&
		test_must_be_empty err &&
		dirc -C w rev-parse refs/heads/h1 refs/heads/h2 refs/heads/h3 \
			refs/heads/h4 >actual &&
		printf "%s\n" $c1 $c2 $c2 $c1 >expect &&
		test_cmp expect actual
	'
done

# no_logs STORE: ref_state without the reflogs.
no_logs () {
	if test "$1" = reftable
	then
		grep -v "^log	"
	else
		awk '/^== /{ skip = ($2 ~ /^logs\//) } !skip'
	fi
}

# run_dropped TOOL STORE OUT: the cases of t3092/cases-dropped, as
# run_cases but with the refs without their reflogs; with dirc, the
# reflogs of HEAD and the symbolic refs are as they were.
run_dropped () {
	rd_tool=$1 rd_store=$2 rd_out=$3 &&
	c1=$(cat c1) c2=$(cat c2) &&
	ref_state $rd_store base-$rd_store >base.refs &&
	: >"$rd_out" &&
	n=0 &&
	while IFS="|" read -r opts input
	do
		n=$((n + 1)) &&
		rm -rf w &&
		cp -R base-$rd_store w &&
		printf "$(printf "%s\n" "$input" | sed -e "s/\\\$C1/$c1/g" -e "s/\\\$C2/$c2/g")" >in &&
		{
			(cd w && $rd_tool update-ref $opts <../in >../out 2>../err)
			echo $? >code
		} &&
		ref_state $rd_store w >w.refs &&
		{
			echo "## $n $rd_store: $opts | $input" &&
			echo "code $(cat code)" &&
			echo "-- stdout" && cat out &&
			echo "-- stderr" && cat err &&
			echo "-- refs" && no_logs $rd_store <w.refs
		} >>"$rd_out" &&
		if test $rd_tool = dirc
		then
			for r in HEAD refs/heads/sym refs/heads/dangle refs/heads/main
			do
				if test $rd_store = reftable
				then
					grep "^log	$r	" base.refs >logs.before
					grep "^log	$r	" w.refs >logs.after
				else
					awk -v f="== logs/$r" '/^== /{ on = ($0 == f) } on' base.refs >logs.before &&
					awk -v f="== logs/$r" '/^== /{ on = ($0 == f) } on' w.refs >logs.after
				fi
				test_cmp logs.before logs.after || {
					echo "case $n: the reflog of $r changed" >&2
					return 1
				}
			done
		fi || return 1
	done <"$data/cases-dropped" &&
	test $n -ge 4
}

for store in $STORES
do
	test_expect_success "--batch-updates, updates of symbolic refs rejected ($store store): no reflog line for them" '
		run_dropped dirc $store dirc-dropped-$store.out &&
		test_cmp "$data/expect-dropped-$store" dirc-dropped-$store.out
	'

	test_expect_success GIT_NEW "--batch-updates, updates of symbolic refs rejected ($store store): live against git 2.55" '
		run_dropped git_new $store git-dropped-$store.out &&
		if test -n "$T3092_RECORD"
		then
			cp git-dropped-$store.out "$data/expect-dropped-$store"
		fi &&
		test_cmp git-dropped-$store.out dirc-dropped-$store.out
	'

	test_expect_success "--batch-updates ($store store): rejected refs byte for byte as they were, the others land" '
		rm -rf w && cp -R base-$store w &&
		ref_state $store w >before &&
		c1=$(cat c1) c2=$(cat c2) &&
		printf "update refs/heads/other %s %s\ncreate refs/heads/new %s\ndelete refs/tags/packed %s\n" \
			$c2 $c2 $c1 $c1 >in &&
		dirc -C w update-ref -m m --stdin --batch-updates <in >out 2>err &&
		printf "rejected refs/heads/other %s %s incorrect old value provided\nrejected refs/tags/packed %s %s incorrect old value provided\n" \
			$c2 $c2 $ZERO_OID $c1 >expect &&
		test_cmp expect out &&
		test_line_count = 2 err &&
		ref_state $store w >after &&
		dirc -C w rev-parse refs/heads/new refs/heads/other refs/tags/packed >actual &&
		printf "%s\n" $c1 $c1 $c2 >expect &&
		test_cmp expect actual &&
		if test $store = files
		then
			# everything but the new ref and its log is as it was
			awk "/^== /{ skip = (\$2 ~ /heads\/new/) } !skip" after >after.old &&
			test_cmp before after.old
		else
			# the records of the rejected refs are the same
			grep "refs/heads/other\\|refs/tags/packed" before >old.before &&
			grep "refs/heads/other\\|refs/tags/packed" after >old.after &&
			test_cmp old.before old.after
		fi
	'

	test_expect_success "--batch-updates ($store store): a failure of the whole command changes nothing" '
		whole_state base-$store >before &&
		c1=$(cat c1) &&
		printf "update refs/heads/other %s %s\ncreate refs/heads/new %s\nupdate refs/heads/new %s\n" \
			$c1 $c1 $c1 $c1 >in &&
		test_expect_code 128 dirc -C base-$store update-ref --stdin \
			--batch-updates <in >out 2>err &&
		test_must_be_empty out &&
		echo "fatal: multiple updates for ref '"'"'refs/heads/new'"'"' not allowed" >expect &&
		test_cmp expect err &&
		printf "update refs/heads/other %s %s\nupdate refs/heads/x %s %s junk\n" \
			$c1 $c1 $c1 $c1 >in &&
		test_expect_code 128 dirc -C base-$store update-ref --stdin \
			--batch-updates <in >out 2>err &&
		whole_state base-$store >after &&
		test_cmp before after &&
		test_expect_code 128 dirc -C base-$store update-ref --batch-updates \
			refs/heads/x $(cat c1) 2>err &&
		echo "fatal: --batch-updates can only be used with --stdin" >expect &&
		test_cmp expect err
	'
done

test_expect_success GIT_NEW '--batch-updates without --stdin: the message of git 2.55' '
	test_expect_code 128 git_new -C base-files update-ref --batch-updates \
		refs/heads/x $(cat c1) 2>err &&
	echo "fatal: --batch-updates can only be used with --stdin" >expect &&
	test_cmp expect err
'

# random_streams SEED N: N streams of the --stdin language (stream.<i>,
# the -z ones with "-z" in opts.<i> and byte 31 for NUL), commands with
# their fields mostly well formed: names, targets, values, "ref" and
# "oid", quoting; now and then a field is random bytes or one too many.
random_streams () {
	awk -v seed="$1" -v n="$2" -v c1="$(cat c1)" -v c2="$(cat c2)" '
	function pick(s,   a, k) { k = split(s, a, " "); return a[int(rand() * k) + 1] }
	function ref() { return pick("refs/heads/main refs/heads/sym refs/heads/dangle refs/heads/other HEAD refs/heads/new refs/heads/new2 refs/heads/x/y refs/heads/x refs/tags/packed refs/heads/nowhere") }
	function oid() { return pick(c1 " " c2 " 0000000000000000000000000000000000000000 " c1 " nonesuch") }
	function junk(   s, j, k) {
		if (rand() < .3) return pick("\"refs/heads/q\" \"bad ..bad refs/heads/main/x bla ref oid")
		s = ""; k = int(rand() * 6)
		for (j = 0; j < k; j++) s = s sprintf("%c", 32 + int(rand() * 95))
		return s
	}
	function f(x) { return rand() < .04 ? junk() : x }
	BEGIN {
		srand(seed)
		for (i = 1; i <= n; i++) {
			z = rand() < .4
			sep = z ? "\037" : " "
			printf "%s", (z ? "-z" : "") (rand() < .2 ? " --no-deref" : "") (rand() < .3 ? " --batch-updates" : "") > ("opts." i)
			m = 1 + int(rand() * 4)
			out = ""
			for (l = 0; l < m; l++) {
				c = pick("symref-update symref-update symref-create symref-delete symref-verify update create delete verify start prepare commit abort")
				line = c
				if (c == "symref-delete" || c == "symref-verify") {
					if (rand() < .8) out = out "option no-deref" (z ? "\037" : "\n")
					line = c " " f(ref())
					if (rand() < .6) line = line sep f(ref())
				} else if (c == "symref-update") {
					line = c " " f(ref()) sep f(ref())
					r = rand()
					if (r < .3) line = line sep "ref" sep f(ref())
					else if (r < .6) line = line sep "oid" sep f(oid())
				} else if (c == "symref-create") {
					line = c " " f(ref()) sep f(ref())
				} else if (c == "update") {
					line = c " " f(ref()) sep f(oid())
					if (rand() < .5) line = line sep f(oid())
				} else if (c == "create") {
					line = c " " f(ref()) sep f(oid())
				} else if (c == "delete" || c == "verify") {
					line = c " " f(ref())
					if (rand() < .5) line = line sep f(oid())
				}
				if (rand() < .05) line = line sep junk()
				if (rand() < .03) line = junk()
				out = out line (z ? "\037" : "\n")
			}
			printf "%s", out > ("stream." i)
			close("stream." i); close("opts." i)
		}
	}'
}

# 50 streams a store in make test, 150 in make test-long
streams=50
test_have_prereq LONG && streams=150
for store in $STORES
do
	test_expect_success "random streams ($store store): no signal, no odd exit code, no lock left" '
		random_streams $(( ${DIRC_TEST_SEED:-1} + 3092 )) $streams &&
		i=1 &&
		rm -rf r && cp -R base-$store r &&
		: >codes &&
		while test $i -le $streams
		do
			opts=$(cat opts.$i) &&
			case $opts in
			-z*)	tr "\037" "\000" <stream.$i >in ;;
			*)	cp stream.$i in ;;
			esac &&
			{ dirc -C r update-ref $opts --stdin <in >out 2>err; code=$?; } &&
			echo $code >>codes &&
			case $code in
			0|128|129) ;;
			*)	echo "stream $i: exit code $code" >&2 &&
				cat err >&2 &&
				return 1 ;;
			esac &&
			find r/.git -name "*.lock" >locks &&
			test_must_be_empty locks &&
			if test $((i % 30)) = 0
			then
				rm -rf r && cp -R base-$store r
			fi &&
			i=$((i + 1)) || return 1
		done &&
		grep -q "^0$" codes &&
		grep -q "^128$" codes &&
		dirc -C r rev-parse --verify -q HEAD >/dev/null
	'
done

for store in $STORES
do
	test_expect_success GIT_NEW "random streams ($store store): live against git 2.55" '
		random_streams $(( ${DIRC_TEST_SEED:-1} + 3093 )) 60 &&
		i=1 &&
		while test $i -le 60
		do
			opts=$(cat opts.$i) &&
			case $opts in
			-z*)	tr "\037" "\000" <stream.$i >in ;;
			*)	cp stream.$i in ;;
			esac &&
			for tool in dirc git_new
			do
				rm -rf r-$tool && cp -R base-$store r-$tool &&
				{ (cd r-$tool && $tool update-ref -m msg $opts --stdin \
					<../in >../$tool.out 2>../$tool.err); echo $? >>$tool.out; } &&
				ref_state $store r-$tool >$tool.refs &&
				# git logs moves it rejected: cases-dropped
				case $opts in
				*--batch-updates*)
					no_logs $store <$tool.refs >$tool.tmp &&
					mv $tool.tmp $tool.refs ;;
				esac || return 1
			done &&
			{
				test_cmp git_new.out dirc.out &&
				test_cmp git_new.err dirc.err &&
				test_cmp git_new.refs dirc.refs || {
					echo "stream $i ($opts):" >&2 && od -c in >&2 && return 1
				}
			} &&
			i=$((i + 1)) || return 1
		done
	'
done

# A lock someone else holds: the files store rejects that update alone
# (git 2.55 gives the reason "reference already exists") and commits the
# others; the reftable store cannot take tables.list.lock, so nothing
# happens at all.  The words are git 2.55's.
test_expect_success '--batch-updates with a ref lock held: that update rejected, the others done' '
	rm -rf w && cp -R base-files w &&
	c1=$(cat c1) c2=$(cat c2) &&
	echo held >w/.git/refs/heads/other.lock &&
	printf "update refs/heads/other %s\ncreate refs/heads/new %s\n" $c2 $c2 >in &&
	dirc -C w update-ref --stdin --batch-updates <in >out 2>err &&
	echo "rejected refs/heads/other $c2 (null) reference already exists" >expect &&
	test_cmp expect out &&
	head -n 1 err >actual &&
	echo "error: cannot lock ref '\''refs/heads/other'\'': Unable to create '\''$PWD/w/.git/refs/heads/other.lock'\'': File exists." >expect &&
	test_cmp expect actual &&
	test_grep "^Another git process seems to be running in this repository, or the lock file may be stale$" err &&
	echo $c2 >expect &&
	test_cmp expect w/.git/refs/heads/new &&
	echo $c1 >expect &&
	test_cmp expect w/.git/refs/heads/other &&
	echo held >expect &&
	test_cmp expect w/.git/refs/heads/other.lock &&
	if test_have_prereq GIT_NEW
	then
		rm -rf g && cp -R base-files g &&
		echo held >g/.git/refs/heads/other.lock &&
		git_new -C g update-ref --stdin --batch-updates <in >gout 2>gerr &&
		test_cmp gout out &&
		sed -e "s|/g/|/w/|" gerr >gerr.w &&
		test_cmp gerr.w err
	fi
'

test_expect_success '--batch-updates with tables.list.lock held: 128, nothing changed (reftable)' '
	rm -rf w && cp -R base-reftable w &&
	c2=$(cat c2) &&
	: >w/.git/reftable/tables.list.lock &&
	whole_state w >before &&
	printf "update refs/heads/other %s\ncreate refs/heads/new %s\n" $c2 $c2 >in &&
	test_expect_code 128 dirc -C w update-ref --stdin --batch-updates <in >out 2>err &&
	test_must_be_empty out &&
	echo "fatal: cannot lock references" >expect &&
	test_cmp expect err &&
	whole_state w >after &&
	test_cmp before after &&
	if test_have_prereq GIT_NEW
	then
		rm -rf g && cp -R base-reftable g &&
		: >g/.git/reftable/tables.list.lock &&
		test_expect_code 128 git_new -C g update-ref --stdin --batch-updates <in >gout 2>gerr &&
		test_cmp err gerr
	fi
'

test_done
