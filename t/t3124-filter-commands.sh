#!/bin/sh
test_description='filter drivers through the commands, compared with git

Twins rg (git) and rd (dirc) with the same files, attributes and
filter configuration: update-cache --add (git update-index --add),
hash-object, checkout-index and read-tree -u give the same index, ids
and work-tree bytes, the same messages and exit codes, and the process
filter sees the same requests (one process per command, blob ids on
the way out, can-delay never offered by checkout-index).  A failing
required filter leaves the index byte for byte as it was.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-filter.sh

if ! test_have_prereq PERL
then
	skip_all='perl is missing: no filter to talk to'
	test_done
fi

# make_twins CONFIG...: rg and rd afresh with the files, .gitattributes
# "*.r filter=f" and each KEY=VALUE of CONFIG; the filter logs to
# ../filter.log
make_twins () {
	rm -rf rg rd &&
	for r in rg rd
	do
		git init -q $r &&
		(
			cd $r &&
			echo "*.r filter=f" >.gitattributes &&
			mkdir d &&
			printf "Hello World\n" >a.r &&
			printf "second\n" >d/b.r &&
			printf "plain\n" >c.txt &&
			for kv
			do
				git config "${kv%%=*}" "${kv#*=}" || return 1
			done
		) || return 1
	done
}

# twin_run GITCMD DIRCCMD ARGS...: in rg and in rd; code, output,
# messages, filter log in {git,dirc}.{code,out,err,log}
twin_run () {
	tr_g=$1 tr_d=$2 &&
	shift 2 &&
	rm -f filter.log &&
	(cd rg && git $tr_g "$@" >../git.out 2>../git.err; echo $? >../git.code) &&
	{ mv filter.log git.log 2>/dev/null || : >git.log; } &&
	(cd rd && dirc $tr_d "$@" >../dirc.out 2>../dirc.err; echo $? >../dirc.code) &&
	{ mv filter.log dirc.log 2>/dev/null || : >dirc.log; }
}

# same: code, output, messages, log, index, files
same () {
	test_cmp git.code dirc.code &&
	test_cmp git.out dirc.out &&
	test_cmp git.err dirc.err &&
	test_cmp git.log dirc.log &&
	git -C rg ls-files -s >git.ls &&
	git -C rd ls-files -s >dirc.ls &&
	test_cmp git.ls dirc.ls &&
	for f in a.r d/b.r c.txt
	do
		if test -f rg/$f
		then
			test_cmp rg/$f rd/$f || return 1
		else
			test_path_is_missing rd/$f || return 1
		fi
	done
}

test_expect_success 'setup' '
	PROC=$(filter_proc rot13)
'

test_expect_success GIT 'update-cache --add through a process: one start, git'\''s blobs' '
	make_twins "filter.f.process=$PROC" &&
	twin_run update-index update-cache --add a.r d/b.r c.txt &&
	same &&
	test $(grep -c START dirc.log) = 1 &&
	test $(grep -c "^clean" dirc.log) = 2
'

test_expect_success GIT 'hash-object -w through a process' '
	twin_run hash-object hash-object -w a.r d/b.r c.txt &&
	same
'

test_expect_success GIT 'checkout-index: blob ids, no can-delay' '
	rm rg/a.r rg/d/b.r rd/a.r rd/d/b.r &&
	twin_run checkout-index checkout-index -a &&
	same &&
	grep "^smudge a.r blob " dirc.log &&
	! grep can-delay dirc.log
'

test_expect_success GIT 'read-tree --reset -u: the same files' '
	(cd rg && git write-tree >../tree) &&
	(cd rd && dirc write-tree >../tree.d) &&
	test_cmp tree tree.d &&
	rm rg/a.r rg/d/b.r rd/a.r rd/d/b.r &&
	twin_run read-tree read-tree --reset -u $(cat tree) &&
	test_cmp git.code dirc.code &&
	test_cmp git.err dirc.err &&
	for f in a.r d/b.r c.txt
	do
		test_cmp rg/$f rd/$f || return 1
	done
'

test_expect_success GIT 'one-shot clean and smudge commands with %f' '
	make_twins "filter.f.clean=tr a-z A-Z" "filter.f.smudge=echo %f; cat" &&
	twin_run update-index update-cache --add a.r d/b.r c.txt &&
	same &&
	rm rg/a.r rg/d/b.r rd/a.r rd/d/b.r &&
	twin_run checkout-index checkout-index -a &&
	same &&
	printf "d/b.r\nSECOND\n" >expect &&
	test_cmp expect rd/d/b.r
'

for req in false true
do
	test_expect_success GIT "a failing filter in update-cache, required=$req: the index as it was" '
		make_twins "filter.f.process=$PROC" "filter.f.required=$req" &&
		(cd rg && git update-index --add c.txt) &&
		(cd rd && dirc update-cache --add c.txt) &&
		cp rd/.git/index index.before &&
		git config -f rg/.git/config filter.f.process "$(filter_proc rot13 die=^d/)" &&
		git config -f rd/.git/config filter.f.process "$(filter_proc rot13 die=^d/)" &&
		twin_run update-index update-cache --add a.r d/b.r &&
		same &&
		if test $req = true
		then
			test_cmp index.before rd/.git/index &&
			test_path_is_missing rd/.git/index.lock
		fi
	'

	test_expect_success GIT "garbage from the filter in update-cache, required=$req: fatal, the index as it was" '
		make_twins "filter.f.process=$PROC" "filter.f.required=$req" &&
		(cd rg && git update-index --add c.txt) &&
		(cd rd && dirc update-cache --add c.txt) &&
		git config -f rg/.git/config filter.f.process "$(filter_proc rot13 garbage=^d/)" &&
		git config -f rd/.git/config filter.f.process "$(filter_proc rot13 garbage=^d/)" &&
		cp rd/.git/index index.before &&
		twin_run update-index update-cache --add a.r d/b.r &&
		echo 128 >expect.code &&
		test_cmp expect.code dirc.code &&
		same &&
		test_cmp index.before rd/.git/index &&
		test_path_is_missing rd/.git/index.lock
	'

	test_expect_success GIT "a failing smudge in checkout-index, required=$req" '
		make_twins "filter.f.process=$PROC" "filter.f.required=$req" &&
		(cd rg && git update-index --add a.r d/b.r c.txt) &&
		(cd rd && dirc update-cache --add a.r d/b.r c.txt) &&
		rm rg/a.r rg/d/b.r rd/a.r rd/d/b.r &&
		git config -f rg/.git/config filter.f.process "$(filter_proc rot13 error=^a)" &&
		git config -f rd/.git/config filter.f.process "$(filter_proc rot13 error=^a)" &&
		twin_run checkout-index checkout-index -a &&
		same
	'
done

# delay_twins OPTION...: twins with the files staged and committed, the
# process filter (rot13 and OPTION...) configured, the files removed
delay_twins () {
	make_twins "filter.f.process=$PROC" &&
	(cd rg && git update-index --add a.r d/b.r c.txt && git write-tree >../tree) &&
	(cd rd && dirc update-cache --add a.r d/b.r c.txt && dirc write-tree >../tree.d) &&
	test_cmp tree tree.d &&
	git config -f rg/.git/config filter.f.process "$(filter_proc rot13 "$@")" &&
	git config -f rd/.git/config filter.f.process "$(filter_proc rot13 "$@")" &&
	rm rg/a.r rg/d/b.r rd/a.r rd/d/b.r rg/.git/index rd/.git/index
}

test_expect_success GIT 'read-tree -u: a delaying filter, as git'\''s checkout' '
	delay_twins delay=. &&
	twin_run read-tree read-tree --reset -u $(cat tree) &&
	same &&
	grep "can-delay=1 delayed" dirc.log &&
	delay_twins delay=^d batch=1 &&
	twin_run read-tree read-tree --reset -u $(cat tree) &&
	same
'

test_expect_success GIT 'read-tree -u: delayed paths never delivered, or never delayed' '
	delay_twins delay=. forget=^a &&
	twin_run read-tree read-tree --reset -u $(cat tree) &&
	echo 128 >expect.code &&
	test_cmp expect.code dirc.code &&
	test_cmp git.err dirc.err &&
	test_cmp git.log dirc.log &&
	test_path_is_missing rd/.git/index.lock &&
	delay_twins delay=. bogus=zzz &&
	twin_run read-tree read-tree --reset -u $(cat tree) &&
	test_cmp expect.code dirc.code &&
	test_cmp git.err dirc.err &&
	test_cmp git.log dirc.log &&
	delay_twins delay=. list-die &&
	twin_run read-tree read-tree --reset -u $(cat tree) &&
	test_cmp expect.code dirc.code &&
	test_cmp git.err dirc.err
'

test_done
