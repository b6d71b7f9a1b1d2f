# sweep.gp - pccbench's sweep results, one panel per measured column.
# pccbench sets before loading this file:
#   datafile   the data: one param  -> "x mean1 ci1 mean2 ci2 ..." by x;
#              two params -> "i j mean1 ci1 ..." on the grid of value
#              indexes, a blank line between values of the first
#   naxes      1 or 2
#   npanels    the number of measured columns
#   names[i], units[i]  their names and units ("" for none): arrays
#   xname      the (first) param with its unit;  yname  the second
#   xtics, ytics  (two params) tic labels at the grid indexes
#   plottitle  the title
# One param: each mean against the param with its 95 % interval as error
# bars (0 without repeats).  Two params: a heatmap per column.
n = npanels
set multiplot layout n, 1 title plottitle
set grid
set datafile missing "NaN"
set lmargin 14
if (naxes == 2) {
	set view map
	set palette rgbformulae 33,13,10
	set format cb "%.4g"
	set rmargin 18
	eval "set xtics ".xtics
	eval "set ytics ".ytics
	set ylabel yname
	unset grid
}
do for [i = 1:n] {
	lab = (units[i] eq "" ? names[i] : names[i]." (".units[i].")")
	if (i == n) { set xlabel xname } else { unset xlabel }
	if (naxes == 1) {
		set ylabel lab
		plot datafile using 1:(column(2*i)):(column(2*i+1)) with yerrorlines lw 1.5 pt 7 ps 0.6 notitle
	} else {
		set cblabel lab
		plot datafile using 1:2:(column(2*i+1)) with image notitle
	}
}
unset multiplot
