# timeline.gp - pccbench's multi-panel timeline: one panel per column on
# one time axis.  pccbench sets before loading this file:
#   datafile  the data (whitespace separated, NaN = missing, time in s in
#             col 1); a missing interval is a gap in the line
#   xscale, xlo, xhi, xname  the time axis: s -> its unit, its range (the
#             same for every panel) and its label ("t (ms)")
#   npanels   the number of panels; per panel i (arrays):
#   cols[i]   column number;  names[i], units[i]  label ("" for no unit)
#   yscale[i], ylo[i], yhi[i]  value -> shown unit, the range
#   tic0[i], ntic[i]  its ticks: ticpos[tic0[i] ..], ticlab[..] (finished
#             labels in engineering form, "1.2M", "15us")
#   nseries, snames[k]  the series (an overlay draws one line each, with
#             a legend; data file block k-1 is series k)
#   plottitle the title
n = npanels
text = (GPVAL_TERM eq "dumb")
set multiplot layout n, 1 title plottitle
set grid
set lmargin 17
set xrange [xlo:xhi]
set format x "%g"
do for [i = 1:n] {
	lab = (units[i] eq "" ? names[i] : names[i]." (".units[i].")")
	# on the text terminal a rotated label is lost: a title says it; a
	# long one ("cnp_handled (1/s, sum of 65 NICs)") would run into the
	# next panel: its unit on a line of its own
	if (text) { unset ylabel; set title lab } else {
		if (units[i] ne "" && strlen(lab) > 22) {
			set ylabel names[i]."\n(".units[i].")" offset -1.5, 0
		} else {
			set ylabel lab offset 0, 0
		}
	}
	set yrange [ylo[i]:yhi[i]]
	set ytics ()
	do for [k = tic0[i]:tic0[i] + ntic[i] - 1] { set ytics add (ticlab[k] ticpos[k]) }
	if (i == n) { set xlabel xname; set format x "%g" } else { unset xlabel; set format x "" }
	if (nseries > 1) { set key top right } else { unset key }
	plot for [k = 1:nseries] datafile index (k - 1) using (column(1) * xscale):(column(cols[i]) * yscale[i]) with lines lw 1.5 title (nseries > 1 ? snames[k] : "")
}
unset multiplot
