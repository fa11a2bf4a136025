#!/bin/sh
test_description='ls-tree against git on random trees, options and paths

A pool of random trees (names that sort against each other: "a", "a-b",
"a.c", "a b", names with a quote or bytes above 0x7f that need quoting,
gitlinks, symlinks, executables, depth up to 4), then rounds of a random
tree, a random directory to run from, a random set of options (-r -t -d
-z, a layout, --abbrev, --full-name, --full-tree) and random paths
(existing or not, files, directories with and without a slash, relative
to the directory or with :(top), climbing with "../").  git and dirc
must print the same bytes, messages and exit code: 70 rounds (1000
with LONG).  The plan comes from DIRC_RANDOM_SEED (default 1); a
failure names its round.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-interop.sh
. "$TEST_DIRECTORY"/lib-trees.sh

SEED=${DIRC_RANDOM_SEED:-1}
POOL=6
ROUNDS=70
if test_have_prereq LONG
then
	ROUNDS=1000
fi

# paths SEED: random "<mode> <path>" lines
paths () {
	awk -v seed="$1" 'BEGIN {
		srand(seed);
		n = split("a b c a-b a.c a_b q\"x \303\251 a0 ab", name, " ");
		name[++n] = "a b";
		walk("", 0);
	}
	function walk(base, depth,    i, r, got, m) {
		got = 0;
		for (i = 1; i <= n; i++) {
			r = rand();
			if (r < 0.22) {
				m = rand();
				mode = m < 0.75 ? "100644" : m < 0.85 ? "100755" : \
				       m < 0.95 ? "120000" : "160000";
				print mode " " base name[i];
				got = 1;
			} else if (r < 0.40 && depth < 4) {
				got += walk(base name[i] "/", depth + 1);
			}
		}
		if (!got) {
			print "100644 " base "z";
			got = 1;
		}
		return got;
	}'
}

test_expect_success GIT 'setup: a pool of random trees' '
	commit=$(test_oid_fake 1) &&
	# every blob ("<path> <tree>") in a file first, all written by one
	# hash-object; then each tree from an index of its own, and all the
	# directories of the work tree made by one mkdir
	mkdir blobs &&
	b=0 &&
	n=0 &&
	while test $n -lt $POOL
	do
		paths $((SEED * 100 + n)) >paths.$n &&
		while read -r mode p
		do
			case $mode in
			160000) ;;
			*)
				b=$((b + 1)) &&
				echo "$p $n" >blobs/$b &&
				echo blobs/$b ;;
			esac || return 1
		done <paths.$n &&
		n=$((n + 1)) || return 1
	done >blobs.list &&
	git hash-object -w --no-filters --stdin-paths <blobs.list >blobs.ids &&
	set -- &&
	n=0 &&
	while test $n -lt $POOL
	do
		while read -r mode p
		do
			case $mode in
			160000) id=$commit ;;
			*) read -r id <&3 ;;
			esac &&
			printf "%s %s\t%s\n" $mode $id "$p" || return 1
		done <paths.$n >info &&
		GIT_INDEX_FILE=.git/index.$n git update-index --index-info <info &&
		GIT_INDEX_FILE=.git/index.$n git write-tree >tree.$n &&
		read -r tree <tree.$n &&
		git ls-tree -r -t --name-only -z $tree |
			tr "\0" "\n" >names.$n &&
		while read -r p
		do
			case "$p" in
			*/*) set -- "$@" "${p%/*}" ;;
			esac || return 1
		done <names.$n &&
		n=$((n + 1)) || return 1
	done 3<blobs.ids &&
	test $n = $POOL &&
	mkdir -p "$@" &&
	rm -r blobs .git/index.[0-9]* &&
	test_path_is_missing .git/index
'

# plan SEED ROUNDS POOL: per round "tree|dir|options|path..." where a
# path "T:x" is x from the top (":(top)x") and "R:x" relative to dir
plan () {
	awk -v seed="$1" -v rounds="$2" -v pool="$3" '
	{ names[NR] = $0 }
	END {
		srand(seed);
		nl = split("|-l|--long|--name-only|--name-status|--object-only|--format=%(objectmode) %(objecttype) %(objectname)%x09%(path)|--format=%(path)|--format=[%(objectsize:padded)] %(path) %(objecttype)|--format=%(objectname)", layout, "|");
		for (r = 1; r <= rounds; r++) {
			t = int(rand() * pool);
			# a directory to run from: the top, or a random one
			dir = ".";
			if (rand() < 0.6) {
				p = names[1 + int(rand() * NR)];
				if (p ~ /\//) {
					sub(/\/[^\/]*$/, "", p);
					dir = p;
				}
			}
			o = "";
			if (rand() < 0.5) o = o " -r";
			if (rand() < 0.3) o = o " -t";
			if (rand() < 0.2) o = o " -d";
			if (rand() < 0.2) o = o " -z";
			if (rand() < 0.2) o = o " --abbrev" (rand() < 0.5 ? "" : "=" (4 + int(rand() * 10)));
			if (rand() < 0.2) o = o " --full-name";
			if (rand() < 0.15) o = o " --full-tree";
			if (rand() < 0.5) o = o " " layout[1 + int(rand() * nl)];
			line = t "|" dir "|" o;
			np = int(rand() * 4);
			for (i = 0; i < np; i++) {
				p = names[1 + int(rand() * NR)];
				k = rand();
				if (k < 0.2 && p ~ /\//)
					sub(/\/[^\/]*$/, "", p);
				else if (k < 0.3)
					p = p "x";
				else if (k < 0.4)
					p = p "/";
				else if (k < 0.45)
					p = substr(p, 1, 1);
				line = line "|" (rand() < 0.3 ? "T:" : "R:") p;
			}
			print line;
		}
	}' names.*
}

test_expect_success GIT 'random rounds: the same bytes as git' '
	plan $SEED $ROUNDS $POOL >plan &&
	test_line_count = $ROUNDS plan &&
	(
		set -f &&
		round=0 &&
		IFS="|" &&
		while read -r t dir opts specs
		do
			round=$((round + 1)) &&
			read -r tree <tree.$t &&
			# the paths, relative to dir or from the top: "../" for
			# each directory of dir
			up= &&
			case $dir in
			.) rest= ;;
			*) rest=$dir/ ;;
			esac &&
			while test -n "$rest"
			do
				up=../$up &&
				rest=${rest#*/}
			done &&
			set -- &&
			for s in $specs
			do
				case "$s" in
				T:*) set -- "$@" ":(top)${s#T:}" ;;
				R:*) set -- "$@" "$up${s#R:}" ;;
				esac
			done &&
			unset IFS &&
			case "$opts" in
			*--format=*)
				fmt=${opts#*--format=} &&
				opts=${opts%%--format=*} &&
				trees_like_git -C "$dir" ls-tree $opts "--format=$fmt" \
					"$tree" "$@" ;;
			*)
				trees_like_git -C "$dir" ls-tree $opts \
					"$tree" "$@" ;;
			esac || {
				echo "round $round failed: tree $t in $dir: $opts $*"
				exit 1
			}
			IFS="|"
		done <plan &&
		echo $round >rounds
	) &&
	read n <rounds &&
	test $n = $ROUNDS
'

test_done
