#!/bin/sh
test_description='ls-tree --format: every placeholder, escapes and bad formats

Compared with git 2.39: %(objectmode) %(objecttype) %(objectname)
%(objectsize) %(objectsize:padded) %(path), %%, %n, %xNN; the four
formats git prints without its formatting machinery (then -z leaves
names unquoted, which the generic path never does); bad formats.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh
. "$TEST_DIRECTORY"/lib-trees.sh

test_expect_success GIT 'setup' '
	mkdir -p dir/sub &&
	echo top >top-file &&
	echo sub >dir/sub-file &&
	echo deeper >dir/sub/f &&
	git add . &&
	git commit -q -m one &&
	git update-index --add --cacheinfo 160000 $(git rev-parse HEAD) mod &&
	git commit -q -m two &&
	odd=$(odd_name_tree) &&
	echo $odd >odd
'

test_expect_success GIT 'each placeholder, alone and together' '
	for f in "%(objectmode)" "%(objecttype)" "%(objectname)" \
		"%(objectsize)" "%(objectsize:padded)" "%(path)" \
		"%(path) %(path) %(path)" "[%(objectmode)|%(objecttype)|%(objectname)|%(objectsize)|%(objectsize:padded)|%(path)]" \
		"%%" "%%(path)" "%n" "a%nb" "%x09" "%x00" "%x41%x7a" "%xff" \
		"%x0a%(path)" "" "plain" "%(objectname)%(objectname)" \
		"> %(objectmode) %(objecttype) %(objectname)%x09%(path)"
	do
		for o in "" "-r -t" -d "-r -z" "--abbrev=6 --full-name"
		do
			trees_like_git ls-tree $o --format="$f" HEAD &&
			trees_code 0 || return 1
		done || return 1
	done
'

test_expect_success GIT 'the formats with a fast path give what the options give' '
	for f in "%(objectmode) %(objecttype) %(objectname)%x09%(path)" \
		"%(objectmode) %(objecttype) %(objectname) %(objectsize:padded)%x09%(path)" \
		"%(path)" "%(objectname)"
	do
		for o in "" -r -z "-r -z" --abbrev
		do
			trees_like_git ls-tree $o --format="$f" $(cat odd) &&
			trees_code 0 || return 1
		done || return 1
	done
'

test_expect_success GIT '%(path) from a subdirectory, and quoting' '
	for f in "%(path)" "[%(path)]" "%(path)%x00"
	do
		trees_like_git -C dir ls-tree -r --format="$f" HEAD &&
		trees_like_git -C dir ls-tree -r --format="$f" HEAD .. &&
		trees_like_git -C dir/sub ls-tree -t --format="$f" HEAD ../../mod &&
		trees_like_git -C dir ls-tree --full-tree -r --format="$f" HEAD &&
		trees_like_git ls-tree -r -z --format="$f" $(cat odd) &&
		trees_like_git ls-tree -r --format="$f" $(cat odd) || return 1
	done
'

test_expect_success GIT 'bad formats: git'"'"'s messages, 128, nothing printed for the line' '
	for f in "%" "%x" "%x4" "%xg0" "%(" "%(path" "%(bogus)" "%(objectsize:bad)" \
		"%(PATH)" "%z" "%XAB" "ok %(path) %q" "%(objectmode" "%()" "%(objectname"
	do
		trees_like_git ls-tree --format="$f" HEAD &&
		trees_code 128 || return 1
	done
'

test_expect_success GIT '%(objectsize) of a missing blob is fatal; -l shows BAD' '
	git clone -q . missing &&
	(
		cd missing &&
		b=$(git rev-parse HEAD:top-file) &&
		rm -f .git/objects/$(echo $b | sed "s,^..,&/,") &&
		trees_like_git ls-tree --format="%(objectsize)" HEAD &&
		trees_code 128 &&
		trees_like_git ls-tree --format="%(path) %(objectsize:padded)" HEAD &&
		trees_code 128 &&
		trees_like_git ls-tree -l HEAD &&
		trees_code 0 &&
		trees_like_git ls-tree --format="%(objectname) %(path)" HEAD &&
		trees_code 0
	)
'

test_done
