#!/bin/sh
test_description='cache-tree invalidation: random operation sequences checked against git

Seeded (reproducible) random sequences of index operations are applied with
dirc: new files (also in new directories), removals (--force-remove, and
--remove after rm), modifications, mode changes, --cacheinfo, --index-info,
read-tree of an earlier tree, read-tree --prefix of a small tree, and
write-tree.  At every write-tree the root id is compared with:

  - "git write-tree" on a copy of the index dirc left (git trusts every
    valid TREE node in it, so a node dirc failed to invalidate shows up as
    a different id), and the index bytes both tools write afterwards;
  - "git write-tree" of a fresh index built from "git ls-files -s" of
    dirc'"'"'s index (no TREE extension at all): the true tree of the entries.

Each sequence logs its operations in "ops" of its repository, so that a
failure can be replayed.'
. ./test-lib.sh

T0=1500000000

# rnd N: the next pseudo-random number in [0, N), in $r.  Park-Miller
# "minimal standard" generator; the products fit in 64-bit shell arithmetic.
rnd () {
	seed=$(( (seed * 16807) % 2147483647 ))
	r=$((seed % $1))
}

# pick FILE: a random line of FILE in $p (empty when FILE is empty).
pick () {
	pk_n=$(wc -l <"$1") &&
	if test "$pk_n" -eq 0
	then
		p=
	else
		rnd "$pk_n" &&
		p=$(sed -n "$((r + 1))p" "$1")
	fi
}

# put PATH: write PATH (making its directories) with content that names
# the operation, dated T0 + op number so that no entry is ever racy.
put () {
	case $1 in
	*/*) mkdir -p "${1%/*}" ;;
	esac &&
	rm -f "$1" &&
	printf "%s at %s\n" "$1" "$op" >"$1" &&
	touch -d @$((T0 + op)) "$1"
}

# check_trees: write-tree with dirc and with git on a copy of the index,
# and git write-tree of a fresh index of the same entries: one id; and the
# index bytes dirc wrote are git's.
check_trees () {
	cp -p .git/index .git/index.git &&
	GIT_INDEX_FILE=.git/index.git git write-tree >git-id || return 1
	if ! dirc write-tree >dirc-id 2>err
	then
		echo "op $op: dirc write-tree failed:" >&2
		cat err >&2
		return 1
	fi
	git ls-files -s >stage &&
	rm -f .git/fresh &&
	GIT_INDEX_FILE=.git/fresh git read-tree --empty &&
	GIT_INDEX_FILE=.git/fresh git update-index --index-info <stage &&
	GIT_INDEX_FILE=.git/fresh git write-tree >fresh-id &&
	if ! cmp -s fresh-id dirc-id
	then
		echo "op $op: dirc write-tree is not the tree of the index entries (see ops)" >&2
		test_cmp fresh-id dirc-id
		return 1
	fi &&
	if ! cmp -s fresh-id git-id
	then
		echo "op $op: the TREE extension dirc left holds a stale valid node (git write-tree on it differs; see ops)" >&2
		test_cmp fresh-id git-id
		return 1
	fi &&
	if ! cmp -s .git/index.git .git/index
	then
		echo "op $op: the index after write-tree differs from git's (see ops)" >&2
		test_cmp .git/index.git .git/index
		return 1
	fi &&
	cat dirc-id >>trees
}

# one_op: one random operation, logged in "ops".
one_op () {
	dirc ls-files >paths || return 1
	rnd 20 &&
	case $r in
	0|1|2|3)
		# add a new file: top level, in an existing directory, or in
		# one or two new directories under an existing one
		sed -n "s|/[^/]*\$||p" paths | sort -u >dirs &&
		rnd 4 &&
		case $r in
		0) dir= ;;
		1) pick dirs && dir=${p:+$p/} ;;
		2) pick dirs && dir=${p:+$p/}d$op/ ;;
		3) pick dirs && dir=${p:+$p/}d$op/e/ ;;
		esac &&
		f=${dir}f$op &&
		echo "add $f" >>ops &&
		put "$f" &&
		dirc update-cache --add "$f"
		;;
	4|5)
		pick paths || return 1
		test -n "$p" || return 0
		rnd 2 &&
		if test $r = 0
		then
			echo "force-remove $p" >>ops &&
			dirc update-cache --force-remove "$p"
		else
			echo "rm and remove $p" >>ops &&
			rm -f "$p" &&
			dirc update-cache --remove "$p"
		fi
		;;
	6|7|8)
		pick paths || return 1
		test -n "$p" || return 0
		echo "modify $p" >>ops &&
		put "$p" &&
		dirc update-cache "$p"
		;;
	9)
		# the file is made a regular one first if it is not: git
		# refuses --chmod on a symlink, and updates the entry from the
		# work tree before changing its mode
		pick paths || return 1
		test -n "$p" || return 0
		if ! test -f "$p" || test -h "$p"
		then
			put "$p" || return 1
		fi
		rnd 2 &&
		if test $r = 0
		then
			echo "chmod and update $p" >>ops &&
			if test -x "$p"
			then
				chmod -x "$p"
			else
				chmod +x "$p"
			fi &&
			touch -d @$((T0 + op)) "$p" &&
			dirc update-cache "$p"
		else
			echo "chmod=+x in the index $p" >>ops &&
			dirc update-cache --chmod=+x "$p"
		fi
		;;
	10|11)
		# --cacheinfo: an existing blob at a new or an existing path
		git ls-files -s >stage &&
		pick stage || return 1
		test -n "$p" || return 0
		blob=$(echo "$p" | cut -d" " -f2) &&
		rnd 3 &&
		case $r in
		0) mode=100644 ;;
		1) mode=100755 ;;
		2) mode=120000 ;;
		esac &&
		rnd 2 &&
		if test $r = 0
		then
			pick paths
		else
			p=$(echo "$p" | cut -f2) &&
			p=${p%/*} &&
			case $p in
			*/*) p=$p/c$op ;;
			*) p=c$op ;;
			esac
		fi &&
		echo "cacheinfo $mode,$blob,$p" >>ops &&
		dirc update-cache --add --cacheinfo "$mode,$blob,$p"
		;;
	12|13)
		# --index-info: two additions in the three line formats and
		# one removal
		git ls-files -s >stage &&
		pick stage || return 1
		test -n "$p" || return 0
		blob=$(echo "$p" | cut -d" " -f2) &&
		pick paths &&
		gone=$p &&
		{
			printf "100644 %s\ti%s/a\n" "$blob" "$op" &&
			printf "100755 blob %s\ti%s/b/c\n" "$blob" "$op" &&
			printf "100644 %s 0\tj%s\n" "$blob" "$op" &&
			printf "0 %s\t%s\n" "$ZERO_OID" "$gone"
		} >info &&
		echo "index-info (i$op/a i$op/b/c j$op, remove $gone)" >>ops &&
		dirc update-cache --index-info <info
		;;
	14)
		pick trees || return 1
		test -n "$p" || return 0
		echo "read-tree $p" >>ops &&
		dirc read-tree "$p" &&
		check_trees
		;;
	15)
		echo "read-tree --prefix=x$op/ $small" >>ops &&
		dirc read-tree --prefix=x$op/ "$small"
		;;
	*)
		echo "write-tree" >>ops &&
		check_trees
		;;
	esac
}

# make_small_tree: a tree of three entries (a file, a file in a
# subdirectory, a symlink) made by git, for read-tree --prefix; in $small.
make_small_tree () {
	one=$(echo 1 | git hash-object -w --stdin) &&
	two=$(echo 2 | git hash-object -w --stdin) &&
	link=$(printf x | git hash-object -w --stdin) &&
	GIT_INDEX_FILE=.git/small-index git update-index --add \
		--cacheinfo 100644,$one,x --cacheinfo 100755,$two,s/y \
		--cacheinfo 120000,$link,link &&
	small=$(GIT_INDEX_FILE=.git/small-index git write-tree) &&
	rm .git/small-index
}

# run_random SEED N: N random operations from seed SEED, in a fresh
# repository "rand-SEED" holding a few files to start with.
run_random () {
	mkdir "rand-$1" &&
	(
		cd "rand-$1" &&
		dirc init -q &&
		seed=$1 &&
		op=0 &&
		: >ops &&
		: >trees &&
		for f in top top2 a/one a/two a/b/one a/b/two a/b/c/one \
			a/b/c/d/one a/b/c/d/two a/b-c/one a/b.c a/b0 c/one \
			c/d/e/one c/d/e/two c/d/e/f/g/one c/d/x/one c/d/x/two \
			e/one e/two e/f/one e/f/two
		do
			put "$f" &&
			dirc update-cache --add "$f" || return 1
		done &&
		make_small_tree &&
		check_trees &&
		while test $op -lt "$2"
		do
			op=$((op + 1)) &&
			one_op || {
				echo "failed at operation $op of seed $1; last operations:" >&2
				tail -n 5 ops >&2
				return 1
			}
		done &&
		op=$((op + 1)) &&
		echo "final write-tree" >>ops &&
		check_trees
	) &&
	test_fsck_also "rand-$1"
}

# 60 operations a seed in make test (CI's time), 200 under make test-long
OPS=60
if test_have_prereq LONG
then
	OPS=200
fi

test_expect_success GIT "seed 1: $OPS random operations, every tree as git builds it" '
	run_random 1 $OPS
'

test_expect_success GIT "seed 7: $OPS random operations, every tree as git builds it" '
	run_random 7 $OPS
'

test_expect_success GIT "seed 2024: $OPS random operations, every tree as git builds it" '
	run_random 2024 $OPS
'

test_expect_success GIT "seed 31337: $OPS random operations, every tree as git builds it" '
	run_random 31337 $OPS
'

test_expect_success GIT 'the sequences did every kind of operation and many write-trees' '
	cat rand-*/ops >all-ops &&
	for kind in "^add " "^force-remove " "^rm and remove " "^modify " \
		"^chmod and update " "^chmod=+x " "^cacheinfo 100644" \
		"^cacheinfo 100755" "^cacheinfo 120000" "^index-info " \
		"^read-tree [0-9a-f]" "^read-tree --prefix" "^write-tree"
	do
		test_grep -e "$kind" all-ops || return 1
	done &&
	grep -c "write-tree\$\|^read-tree [0-9a-f]" all-ops >count &&
	# a write-tree (or a read-tree of one) every seventh operation at least
	test "$(cat count)" -ge $((OPS * 4 / 7))
'

test_done
