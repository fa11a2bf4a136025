# perf/sweeps.awk: draw the perf suite's two sweeps as one SVG (stdout).
#
#   awk -f perf/svg.awk -f perf/sweeps.awk sweeps.dat >sweeps.svg
#
# perf/run writes the input, one record per line:
#
#   mmap KIB FILES READ_S MMAP_S DEFAULT_S GIT_S   the read()/mmap() sweep
#   threads N WARM_S COLD_S REFRESH_S               the thread sweep
#   ref git_warm|git_cold|floor SECONDS             reference lines
#   meta KEY VALUE                                  scale, runs
#
# Left: the cut-off sweep, time per MiB hashed against the file size, for
# read() and mmap() forced, dirc's default and git.  Right: the thread
# sweep, seconds against --threads for the add, warm and cold cache, with
# the refresh after read-tree, git's P2 times and this machine's floor as
# reference lines.  Both x axes are log2.  POSIX awk only; the drawing
# functions are perf/svg.awk's.

$1 == "mmap" {
	nm++
	mk[nm] = $2 + 0
	mib = $2 * $3 / 1024
	mr[nm] = $4 / mib * 1000
	mm[nm] = $5 / mib * 1000
	md[nm] = $6 / mib * 1000
	mg[nm] = $7 / mib * 1000
}
$1 == "threads" {
	nt++
	tn[nt] = $2 + 0
	tw[nt] = $3 + 0
	tc[nt] = $4 + 0
	tr[nt] = ($5 == "nan" || $5 == "") ? -1 : $5 + 0
}
$1 == "ref" { ref[$2] = $3 + 0 }
$1 == "meta" { meta[$2] = $3 }

END {
	svg_begin(1120, 430)
	print "polyline, line.read, line.mmap, line.dflt, line.git, line.warm, line.cold, line.refresh { fill: none; stroke-width: 2; }"
	print ".read { stroke: #1f77b4; } .read.dot { fill: #1f77b4; }"
	print ".mmap { stroke: #d62728; } .mmap.dot { fill: #d62728; }"
	print ".dflt { stroke: #2ca02c; stroke-dasharray: 6 3; } .dflt.dot { fill: #2ca02c; }"
	print ".git { stroke: #888; stroke-dasharray: 2 3; } .git.dot { fill: #888; }"
	print ".warm { stroke: #1f77b4; } .warm.dot { fill: #1f77b4; }"
	print ".cold { stroke: #d62728; } .cold.dot { fill: #d62728; }"
	print ".refresh { stroke: #2ca02c; } .refresh.dot { fill: #2ca02c; }"
	print ".gitwarm { stroke: #1f77b4; stroke-dasharray: 2 3; stroke-width: 1.5; }"
	print ".gitcold { stroke: #d62728; stroke-dasharray: 2 3; stroke-width: 1.5; }"
	print ".floor { stroke: #000; stroke-dasharray: 8 4; stroke-width: 1; }"
	svg_styled(1120, 430)

	# left: the cut-off sweep
	t1 = "read()/mmap() cut-off: dirc hash-object --stdin-paths"
	if (nm) {
		ymax = 0
		for (i = 1; i <= nm; i++) {
			if (mr[i] > ymax) ymax = mr[i]
			if (mm[i] > ymax) ymax = mm[i]
			if (md[i] > ymax) ymax = md[i]
			if (mg[i] > ymax) ymax = mg[i]
		}
		nxt = 0
		for (i = 1; i <= nm; i++)
			xt[++nxt] = mk[i]
		panel(70, 60, 330, 300, mk[1], mk[nm], ymax * 1.05, t1,
			"file size (KiB, log scale)", "ms per MiB hashed", xt, nxt)
		series(mk, mr, nm, "read", "read()", 70)
		series(mk, mm, nm, "mmap", "mmap()", 90)
		series(mk, md, nm, "dflt", "dirc default", 110)
		series(mk, mg, nm, "git", "git", 130)
	} else
		nodata(70, 60, 330, 300, t1)

	# right: the thread sweep
	t2 = "threads: dirc update-cache --threads=N --add --stdin"
	if (nt) {
		ymax = 0
		for (i = 1; i <= nt; i++) {
			if (tw[i] > ymax) ymax = tw[i]
			if (tc[i] > ymax) ymax = tc[i]
			if (tr[i] > ymax) ymax = tr[i]
		}
		if (ref["floor"] > ymax) ymax = ref["floor"]
		if (ref["git_warm"] > ymax) ymax = ref["git_warm"]
		if (ref["git_cold"] > ymax) ymax = ref["git_cold"]
		nxt = 0
		for (i = 1; i <= nt; i++)
			xt[++nxt] = tn[i]
		panel(620, 60, 290, 300, tn[1], tn[nt], ymax * 1.1, t2,
			"threads (log scale)", meta["runs"] + 0 > 1 ? \
			"seconds (median of " meta["runs"] " runs)" : "seconds (1 run)", xt, nxt)
		series(tn, tw, nt, "warm", "add, warm", 70)
		series(tn, tc, nt, "cold", "add, cold", 90)
		series(tn, tr, nt, "refresh", "refresh after read-tree", 110)
		hline(ref["git_warm"], "gitwarm", "git, warm", 140)
		hline(ref["git_cold"], "gitcold", "git, cold", 160)
		hline(ref["floor"], "floor", "floor", 180)
	} else
		nodata(620, 60, 290, 300, t2)

	printf "<text x=\"70\" y=\"420\">linux-shaped tree at scale %s; the floor is read + SHA-1 + zlib-1 + loose write on every core, measured in the run (perf/probe loose).</text>\n",
		meta["scale"] == "" ? "?" : meta["scale"]
	print "</svg>"
}
