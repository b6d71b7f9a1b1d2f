# hist.gp - the retransmission-timeout histogram over time as a heatmap:
# bins on the y axis, time on the x axis, count as colour.  pccbench sets
#   datafile  a matrix file: "t bin count" rows, a blank line between times
#   plottitle the title
set title plottitle
set xlabel "t (s)"
set ylabel "retx bin"
set cblabel "timeouts"
set datafile missing "NaN"
set view map
set autoscale fix
set palette defined (0 "white", 1 "#ffd27f", 2 "#e4572e", 3 "#5b0e2d")
plot datafile using 1:2:3 with image notitle
