# perf/scale.awk: the scale workload as one SVG (stdout).
#
#   awk -F'\t' -f perf/svg.awk -f perf/scale.awk scale.tsv >scale.svg
#
# perf/run's scale workload writes the input, one line per part and
# number of copies of the tree:
#
#   PART K ENTRIES DIRC_S GIT_S DIRC_MIB GIT_MIB    (tab-separated)
#
# Left: seconds per million index entries against the entries (log2),
# one colour per part, dirc solid and git dotted: work that grows
# linearly with the index draws a flat line.  Right: peak RSS per
# million entries, the largest over the parts, for each tool.  POSIX awk
# only; the drawing functions are perf/svg.awk's.

{
	if (!($1 in seen)) {
		seen[$1] = 1
		parts[++np] = $1
	}
	key = $1 SUBSEP $3
	if (!($3 in seen_n)) {
		seen_n[$3] = 1
		ns[++nn] = $3 + 0
	}
	ds[key] = $4 / ($3 / 1e6)
	gs[key] = $5 / ($3 / 1e6)
	dm = $6 / ($3 / 1e6)
	gm = $7 / ($3 / 1e6)
	if (dm > drss[$3]) drss[$3] = dm
	if (gm > grss[$3]) grss[$3] = gm
}

END {
	# the entry counts, ascending
	for (i = 2; i <= nn; i++)
		for (j = i; j > 1 && ns[j - 1] > ns[j]; j--) {
			t = ns[j]; ns[j] = ns[j - 1]; ns[j - 1] = t
		}
	split("#1f77b4 #d62728 #2ca02c #9467bd #ff7f0e #8c564b #e377c2 #17becf", colour, " ")
	svg_begin(1260, 430)
	print "polyline, line { fill: none; stroke-width: 2; }"
	for (p = 1; p <= 8; p++) {
		printf ".d%d { stroke: %s; } .d%d.dot { fill: %s; }\n",
			p, colour[p], p, colour[p]
		printf ".g%d { stroke: %s; stroke-dasharray: 2 3; } .g%d.dot { fill: %s; }\n",
			p, colour[p], p, colour[p]
	}
	svg_styled(1260, 430)

	t1 = "time per million index entries"
	t2 = "peak RSS per million index entries"
	if (!nn || ns[1] == ns[nn]) {
		nodata(70, 60, 380, 300, t1)
		nodata(790, 60, 300, 300, t2)
		print "</svg>"
		exit
	}
	for (i = 1; i <= nn; i++)
		xt[i] = ns[i]
	ymax = 0
	for (p = 1; p <= np && p <= 8; p++)
		for (i = 1; i <= nn; i++) {
			key = parts[p] SUBSEP ns[i]
			if (ds[key] > ymax) ymax = ds[key]
			if (gs[key] > ymax) ymax = gs[key]
		}
	panel(70, 60, 380, 300, ns[1], ns[nn], ymax * 1.1, t1,
		"index entries (log scale)", "seconds per million entries", xt, nn)
	for (p = 1; p <= np && p <= 8; p++) {
		for (i = 1; i <= nn; i++) {
			key = parts[p] SUBSEP ns[i]
			yd[i] = (key in ds) ? ds[key] : -1
			yg[i] = (key in gs) ? gs[key] : -1
		}
		series(ns, yd, nn, "d" p, "dirc " parts[p], 50 + 36 * p)
		series(ns, yg, nn, "g" p, "git " parts[p], 68 + 36 * p)
	}

	ymax = 0
	for (i = 1; i <= nn; i++) {
		yd[i] = drss[ns[i]]
		yg[i] = grss[ns[i]]
		if (yd[i] > ymax) ymax = yd[i]
		if (yg[i] > ymax) ymax = yg[i]
	}
	panel(790, 60, 300, 300, ns[1], ns[nn], ymax * 1.1, t2,
		"index entries (log scale)", "MiB per million entries", xt, nn)
	series(ns, yd, nn, "d1", "dirc", 80)
	series(ns, yg, nn, "g1", "git", 100)
	print "<text x=\"70\" y=\"420\">copies of the linux-shaped tree's index (perf/run scale): a flat line is linear growth.</text>"
	print "</svg>"
}
