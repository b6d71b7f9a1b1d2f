# tune.gp - a tune's path: the objective of each evaluation in order.
# pccbench sets before loading this file:
#   datafile   "eval obj ci feasible best_so_far" per evaluation
#   objname    the objective's column;  defobj  the default point's value
#   plottitle  the title
# Each evaluation's mean with its 95 % interval (feasible points filled,
# infeasible ones hollow), the best feasible value so far as a step line,
# the default point's value as a dashed line.
set title plottitle
set grid
set xlabel "evaluation"
set ylabel objname
set key outside bottom center horizontal
plot datafile using 1:($4 == 1 ? $2 : NaN):3 with yerrorbars pt 7 ps 0.6 lc rgb "#1f77b4" title "feasible", \
	datafile using 1:($4 == 0 ? $2 : NaN) with points pt 6 ps 0.6 lc rgb "#999999" title "infeasible", \
	datafile using 1:5 with steps lw 2 lc rgb "#d62728" title "best so far", \
	defobj with lines dt 2 lc rgb "#2ca02c" title "default"
