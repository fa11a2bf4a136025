# lib-random-tree.sh: random trees for the merge and checkout scripts.
# Sourced after test-lib.sh.
#
#   random_tree_paths SEED K SHAPE
#	"path content" lines, sorted, of tree K of a pool made from SEED:
#	K=0 is the base, a random tree of files named a, b, c, a-b and a.c
#	in up to DEPTH levels of such directories; every other K is the
#	base with some files changed, removed, turned into a directory or
#	given a sibling ("<name>x").  No path is both a file and a leading
#	directory of another.  SHAPE, seven numbers: the probabilities
#	(cumulative) that a file is kept, changed, removed, turned into a
#	directory (else it gains a sibling: KEEP CHANGE REMOVE TODIR), that
#	a name is a directory (DIRP), DEPTH, and TOPDIR (1: at the top every
#	name not a file is a directory).  The same SEED, K and SHAPE give
#	the same tree on every machine with the same awk.

random_tree_paths () {
	set -- "$1" "$2" $3
	awk -v seed="$1" -v k="$2" -v p_keep="$3" -v p_change="$4" \
		-v p_remove="$5" -v p_todir="$6" -v p_dir="$7" \
		-v max_depth="$8" -v top_dir="$9" 'BEGIN {
		srand(seed);
		np = 0;
		no = 0;
		n = split("a b c a-b a.c", name, " ");
		walk("", 0);
		srand(seed * 1000 + k + 1);
		for (i = 0; i < np; i++) {
			r = rand();
			if (k == 0 || r < p_keep) {
				keep(path[i], cont[i]);
			} else if (r < p_change) {
				keep(path[i], cont[i] "+" int(rand() * 2));
			} else if (r < p_remove) {
				;	# removed
			} else if (r < p_todir) {
				# the file becomes a directory
				keep(path[i] "/" name[1 + int(rand() * n)], "d" int(rand() * 2));
			} else {
				keep(path[i], cont[i]);
				keep(path[i] "x", "n" int(rand() * 2));
			}
		}
		# no path both a file and a leading directory: the file goes
		for (i = 0; i < no; i++) {
			dir = 0;
			for (j = 0; j < no; j++)
				if (index(out[j], out[i] "/") == 1)
					dir = 1;
			if (!dir)
				print out[i] " " oc[i];
		}
	}
	function keep(p, c) { out[no] = p; oc[no++] = c; }
	function walk(base, depth,    i, r, got) {
		got = 0;
		for (i = 1; i <= n; i++) {
			r = rand();
			if (r < 0.3) {
				path[np] = base name[i];
				cont[np++] = "c" int(rand() * 3);
				got = 1;
			} else if ((r < p_dir || (depth == 0 && top_dir)) &&
				   depth < max_depth) {
				got += walk(base name[i] "/", depth + 1);
			}
		}
		if (!got) {
			path[np] = base "z";
			cont[np++] = "z";
		}
		return 1;
	}' | LC_ALL=C sort -u
}
