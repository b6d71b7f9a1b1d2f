# tune_space.gp - where a tune searched: its evaluations over the param
# space, the best point and the default marked.
# pccbench sets before loading this file:
#   datafile   "x y obj feasible" per evaluation (y = obj with one param)
#   nparams    1 or 2 (the first two params of a tune with more)
#   xname, yname, objname, plottitle
#   bestx, besty, defx, defy   the best and the default point
#   xlog, ylog   1 where the search took the param in log scale
# One param: the objective against it (feasible filled, infeasible
# hollow).  Two: the points over the two params, coloured by the
# objective (viridis), infeasible ones hollow grey.
set title plottitle
set grid
set xlabel xname
set key outside bottom center horizontal
if (xlog) { set logscale x }
if (nparams == 1) {
	set ylabel objname
	plot datafile using 1:($4 == 1 ? $3 : NaN) with points pt 7 ps 0.8 lc rgb "#1f77b4" title "feasible", \
		datafile using 1:($4 == 0 ? $3 : NaN) with points pt 6 ps 0.8 lc rgb "#999999" title "infeasible", \
		"+" using (bestx):(besty) every ::0::0 with points pt 3 ps 3 lw 2 lc rgb "#d62728" title "best", \
		"+" using (defx):(defy) every ::0::0 with points pt 2 ps 2.5 lw 2 lc rgb "#2ca02c" title "default"
} else {
	set ylabel yname
	if (ylog) { set logscale y }
	set cblabel objname offset 1,0
	set rmargin 17
	set palette defined (0 "#440154", 1 "#3b528b", 2 "#21918c", 3 "#5ec962", 4 "#fde725")
	plot datafile using 1:2:($4 == 1 ? $3 : NaN) with points pt 7 ps 1.2 palette title "feasible", \
		datafile using 1:($4 == 0 ? $2 : NaN) with points pt 6 ps 1 lc rgb "#999999" title "infeasible", \
		"+" using (bestx):(besty) every ::0::0 with points pt 3 ps 3 lw 2 lc rgb "#d62728" title "best", \
		"+" using (defx):(defy) every ::0::0 with points pt 2 ps 2.5 lw 2 lc rgb "#2ca02c" title "default"
}
