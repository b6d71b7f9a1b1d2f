# sweep.gp - pccbench's sweep results, one panel per measured column.
# pccbench sets before loading this file:
#   datafile   one param  -> "x mean1 ci1 mean2 ci2 ..." by x;
#              two params -> "i j mean1 ci1 label1 ..." on the grid of value
#              indexes, a blank line between values of the first
#   naxes      1 or 2;  npanels  the measured columns;  celllabels  1 when
#              the grid is small enough to print the value in each cell
#   names[i], units[i]  the measure and its unit ("" for none)
#   yscale[i], ylo[i], yhi[i], tic0[i], ntic[i], ticpos[], ticlab[]
#              one param: the value axis (every error bar inside, from 0
#              when the points differ by less than 10 %), ticks in
#              engineering form
#   spread[i]  how much the means differ, relative to their mean
#   bestx[i], besty[i]  the best point (x value; or grid indexes)
#   xname, yname  the params with their units
#   nx, ny, xtl[], ytl[]  (two params) the params' values at the indexes
#   plottitle  the title
# One param: each mean against the param with its 95 % interval as error
# bars (0 without repeats).  Two params: a heatmap per measure (viridis).
n = npanels
set multiplot layout n, 1 title plottitle
set grid
set lmargin 14
if (naxes == 2) {
	set view map
	set palette defined (0 "#440154", 1 "#3b528b", 2 "#21918c", 3 "#5ec962", 4 "#fde725")
	set rmargin 18
	set xrange [-0.5:nx - 0.5]
	set yrange [-0.5:ny - 0.5]
	set xtics ()
	do for [k = 1:nx] { set xtics add (xtl[k] k - 1) }
	set ytics ()
	do for [k = 1:ny] { set ytics add (ytl[k] k - 1) }
	set ylabel yname
	unset grid
	set key outside right bottom
}
do for [i = 1:n] {
	lab = (units[i] eq "" ? names[i] : names[i]." (".units[i].")")
	if (i == n) { set xlabel xname } else { unset xlabel }
	if (naxes == 1) {
		set ylabel lab
		set yrange [ylo[i]:yhi[i]]
		set ytics ()
		do for [k = tic0[i]:tic0[i] + ntic[i] - 1] { set ytics add (ticlab[k] ticpos[k]) }
		set label 1 spread[i] at graph 0.01, graph 0.92 left front
		plot datafile using 1:(column(2*i) * yscale[i]):(column(2*i+1) * yscale[i]) with yerrorlines lw 1.5 pt 7 ps 0.6 notitle, \
			datafile using 1:(column(1) == bestx[i] ? column(2*i) * yscale[i] : NaN) with points pt 6 ps 2.5 lw 2 lc rgb "#d62728" title "best"
	} else {
		set cblabel lab offset 2,0
		set title spread[i] font ",10"
		set cbrange [ylo[i]:yhi[i]]
		set cbtics ()
		do for [k = tic0[i]:tic0[i] + ntic[i] - 1] { set cbtics add (ticlab[k] ticpos[k]) }
		# a filled box per cell (an image needs 2 x 2 points at least:
		# a 1 x N grid drew no colour); the label at the cell's centre,
		# black on the palette's light end, white on its dark end
		if (celllabels) {
			plot datafile using 1:2:(0.5):(0.5):(column(3*i) * yscale[i]) with boxxyerror fs solid 1.0 noborder lc palette notitle, \
				datafile using 1:2:(stringcolumn(3*i+2)):((column(3*i) * yscale[i] - ylo[i]) / (yhi[i] - ylo[i]) > 0.6 ? 0 : 0xffffff) with labels center tc rgb variable font ",9" notitle, \
				datafile using 1:(column(1) == bestx[i] && column(2) == besty[i] ? column(2) : NaN):(0.5):(0.5) with boxxyerror fs empty lc rgb "#d62728" lw 3 title "best"
		} else {
			plot datafile using 1:2:(0.5):(0.5):(column(3*i) * yscale[i]) with boxxyerror fs solid 1.0 noborder lc palette notitle, \
				datafile using 1:(column(1) == bestx[i] && column(2) == besty[i] ? column(2) : NaN):(0.5):(0.5) with boxxyerror fs empty lc rgb "#d62728" lw 3 title "best"
		}
	}
}
unset multiplot
