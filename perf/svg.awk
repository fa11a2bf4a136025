# perf/svg.awk: the drawing functions of the perf suite's plots (SVG on
# stdout), shared by perf/sweeps.awk and perf/scale.awk:
#
#   awk -f perf/svg.awk -f perf/sweeps.awk sweeps.dat >sweeps.svg
#
# panel() draws a frame with a log2 x axis and a linear y axis and sets
# the globals the others use (X0 Y0 W H XMIN XMAX YTOP); series() a line
# with its dots and legend, hline() a reference line.  POSIX awk only.

# the document's start, w x h pixels, and the style rules every plot
# uses; the caller adds its own rules, then calls svg_styled()
function svg_begin(w, h) {
	print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
		w, h, w, h
	print "<style>"
	print ".frame { fill: none; stroke: #444; }"
	print ".grid { stroke: #ddd; }"
	print ".title { font-size: 14px; font-weight: bold; }"
	print ".xtick { text-anchor: middle; }"
	print ".ytick { text-anchor: end; }"
	print ".xlabel { text-anchor: middle; }"
}

# the style's end and a white background
function svg_styled(w, h) {
	print "</style>"
	printf "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", w, h
}

function esc(s) {
	gsub(/&/, "\\&amp;", s)
	gsub(/</, "\\&lt;", s)
	gsub(/>/, "\\&gt;", s)
	return s
}

function lg2(x) {
	return log(x) / log(2)
}

function nice(x,   e, f) {
	if (x <= 0)
		return 1
	e = 10 ^ int(log(x) / log(10))
	if (e > x)
		e /= 10
	f = x / e
	if (f <= 1) f = 1
	else if (f <= 2) f = 2
	else if (f <= 5) f = 5
	else f = 10
	return f * e
}

function fmt(v) {
	if (v == int(v))
		return sprintf("%d", v)
	if (v >= 1)
		return sprintf("%.1f", v)
	return sprintf("%.3g", v)
}

# a panel: frame, title, axes; sets the globals X0 Y0 W H XMIN XMAX YTOP
function panel(x0, y0, w, h, xmin, xmax, ymax, title, xlabel, ylabel,
	       ticks, nt,   i, step, y, yv, t, px) {
	X0 = x0; Y0 = y0; W = w; H = h; XMIN = xmin; XMAX = xmax
	step = nice(ymax / 5)
	YTOP = step * int(ymax / step + 0.999999)
	if (YTOP <= 0)
		YTOP = step
	printf "<text x=\"%d\" y=\"%d\" class=\"title\">%s</text>\n",
		x0, y0 - 28, esc(title)
	printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"frame\"/>\n",
		x0, y0, w, h
	for (yv = 0; yv <= YTOP + step / 2; yv += step) {
		y = py(yv)
		printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"grid\"/>\n",
			x0, y, x0 + w, y
		printf "<text x=\"%d\" y=\"%.1f\" class=\"ytick\">%s</text>\n",
			x0 - 6, y + 4, fmt(yv)
	}
	for (i = 1; i <= nt; i++) {
		t = ticks[i]
		px = pxl(t)
		printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"grid\"/>\n",
			px, y0, px, y0 + h
		printf "<text x=\"%.1f\" y=\"%d\" class=\"xtick\">%s</text>\n",
			px, y0 + h + 16, t
	}
	printf "<text x=\"%d\" y=\"%d\" class=\"xlabel\">%s</text>\n",
		x0 + w / 2, y0 + h + 36, esc(xlabel)
	printf "<text transform=\"translate(%d,%d) rotate(-90)\" class=\"xlabel\">%s</text>\n",
		x0 - 46, y0 + h / 2, esc(ylabel)
}

function pxl(v) {
	return X0 + (lg2(v) - lg2(XMIN)) / (lg2(XMAX) - lg2(XMIN)) * W
}

function py(v) {
	return Y0 + H - v / YTOP * H
}

# a series: xs[1..n], ys[1..n] (values < 0 are skipped)
function series(xs, ys, n, cls, label, ly,   i, pts, d) {
	pts = ""
	for (i = 1; i <= n; i++)
		if (ys[i] >= 0)
			pts = pts sprintf("%.1f,%.1f ", pxl(xs[i]), py(ys[i]))
	if (pts == "")
		return
	printf "<polyline points=\"%s\" class=\"%s\"/>\n", pts, cls
	for (i = 1; i <= n; i++)
		if (ys[i] >= 0)
			printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" class=\"%s dot\"/>\n",
				pxl(xs[i]), py(ys[i]), cls
	legend(cls, label, ly)
}

function legend(cls, label, ly) {
	printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"%s\"/>\n",
		X0 + W + 12, ly, X0 + W + 36, ly, cls
	printf "<text x=\"%d\" y=\"%d\" class=\"legend\">%s</text>\n",
		X0 + W + 40, ly + 4, esc(label)
}

# a horizontal reference line at v seconds, or a note if it is off scale
function hline(v, cls, label, ly) {
	if (v <= 0)
		return
	if (v <= YTOP) {
		printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"%s\"/>\n",
			X0, py(v), X0 + W, py(v), cls
		legend(cls, label " " fmt(v) " s", ly)
	} else {
		printf "<text x=\"%d\" y=\"%d\" class=\"legend\">%s</text>\n",
			X0 + W + 12, ly + 4, esc(label " " fmt(v) " s (off scale)")
	}
}

function nodata(x0, y0, w, h, title) {
	printf "<text x=\"%d\" y=\"%d\" class=\"title\">%s</text>\n",
		x0, y0 - 28, esc(title)
	printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"frame\"/>\n",
		x0, y0, w, h
	printf "<text x=\"%d\" y=\"%d\" class=\"xlabel\">not measured in this run</text>\n",
		x0 + w / 2, y0 + h / 2
}

