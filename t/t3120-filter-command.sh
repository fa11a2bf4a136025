#!/bin/sh
test_description='filter.<d>.clean and .smudge: one shell command per file

The one-shot drivers, run through lib/filter as the conversion runs
them (dirc test-tool filter: each file through one session) and
compared with what git stores (hash-object -w) and writes out
(cat-file --filters) for the same file and configuration: the bytes,
the messages and exit codes, "%f" quoting, content of several MiB
both ways at once (no deadlock), a filter that does not read its
input, failures of optional and required drivers.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-filter.sh

# same_clean PATH: dirc's clean of PATH (PATH.out) is git's, with the
# same messages and exit code
same_clean () {
	git_clean "$1" >expect &&
	tt_filter clean f "$1" &&
	test_cmp git.code dirc.code &&
	test_cmp git.err dirc.err &&
	if test "$(cat git.code)" = 0
	then
		test_cmp expect "$1.out"
	fi
}

same_smudge () {
	git_smudge "$1" >expect &&
	tt_filter --blob smudge f "$1" &&
	test_cmp git.code dirc.code &&
	test_cmp git.err dirc.err &&
	if test "$(cat git.code)" = 0
	then
		test_cmp expect "$1.out"
	fi
}

test_expect_success 'setup' '
	git init -q . &&
	echo "* filter=f" >.gitattributes &&
	printf "Hello World\nabc\n" >a &&
	mkdir -p "d i r" &&
	printf "quoted\n" >"d i r/it'\''s \$x!"
'

test_expect_success GIT 'rot13 clean and smudge: git'\''s bytes' '
	git config filter.f.clean "tr A-Za-z N-ZA-Mn-za-m" &&
	git config filter.f.smudge "tr A-Za-z N-ZA-Mn-za-m" &&
	same_clean a &&
	printf "Uryyb Jbeyq\\nnop\\n" >expect.rot &&
	test_cmp expect.rot a.out &&
	same_smudge a &&
	test_cmp expect.rot a.out
'

test_expect_success GIT '%f is the path, shell-quoted; %% is a percent sign' '
	git config filter.f.clean "printf \"%%s|%%s\\n\" %f \"%%f\"; cat" &&
	same_clean a &&
	same_clean "d i r/it'\''s \$x!" &&
	head -n 1 "d i r/it'\''s \$x!.out" >first &&
	printf "%s\n" "d i r/it'\''s \$x!|%f" >expect.first &&
	test_cmp expect.first first
'

test_expect_success GIT 'several MiB both ways at once: no deadlock' '
	awk "BEGIN { for (i = 0; i < 200000; i++) printf \"Line %d of a big file\\n\", i }" >big &&
	test $(wc -c <big) -gt 4000000 &&
	git config filter.f.clean "tr A-Za-z N-ZA-Mn-za-m" &&
	same_clean big &&
	git config filter.f.smudge "cat" &&
	same_smudge big &&
	test_cmp big big.out
'

test_expect_success GIT 'a filter that does not read its input succeeds' '
	git config filter.f.clean "echo %f" &&
	same_clean big &&
	echo big >expect.name &&
	test_cmp expect.name big.out
'

test_expect_success GIT 'empty output is empty content; empty input too' '
	git config filter.f.clean "cat >/dev/null" &&
	same_clean a &&
	test_must_be_empty a.out &&
	: >empty &&
	git config filter.f.clean "echo filled" &&
	same_clean empty
'

for req in false true
do
	test_expect_success GIT "failing clean, required=$req: git's messages" '
		git config filter.f.required $req &&
		git config filter.f.clean false &&
		same_clean a &&
		git config filter.f.clean "cat; exit 3" &&
		same_clean a &&
		git config filter.f.clean "no-such-filter-cmd" &&
		same_clean a &&
		git config filter.f.clean "no-such-filter-cmd %f" &&
		same_clean a &&
		git config filter.f.clean "kill -9 \$\$" &&
		same_clean a &&
		if test $req = false
		then
			test_cmp a a.out
		else
			test_cmp git.code dirc.code &&
			echo 128 >expect.code &&
			test_cmp expect.code dirc.code
		fi
	'

	test_expect_success GIT "failing smudge, required=$req: git's messages" '
		git config filter.f.required $req &&
		git config filter.f.smudge "exit 1" &&
		same_smudge a &&
		git config filter.f.smudge "kill -15 \$\$" &&
		same_smudge a
	'
done

test_expect_success GIT 'required with no command for the direction: fatal' '
	git config --unset filter.f.clean &&
	git config filter.f.required true &&
	same_clean a &&
	echo 128 >expect.code &&
	test_cmp expect.code dirc.code &&
	git config filter.f.required false &&
	same_clean a &&
	test_cmp a a.out
'

test_expect_success 'a bad filter.<d>.required: git'\''s message' '
	git config filter.f.clean cat &&
	git config filter.f.required maybe &&
	tt_filter clean f a &&
	echo 128 >expect.code &&
	test_cmp expect.code dirc.code &&
	test_grep "bad boolean config value .maybe. for .filter.f.required." dirc.err &&
	git config filter.f.required false
'

test_expect_success 'one process per file, with its path' '
	git config filter.f.clean "echo %f >>starts; cat" &&
	rm -f starts &&
	tt_filter clean f a big a &&
	printf "a\nbig\na\n" >expect.starts &&
	test_cmp expect.starts starts
'

test_expect_success 'filters run at the top of the work tree' '
	git config filter.f.clean "pwd >>where; cat" &&
	rm -f where &&
	(
		cd "d i r" &&
		dirc test-tool filter clean f a
	) &&
	pwd >expect.where &&
	test_cmp expect.where where
'

test_done
