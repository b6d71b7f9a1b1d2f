# hist.gp - the retransmission-timeout histogram over time as a heatmap:
# a row per bin, labelled with the time it covers, time on the x axis,
# the count as colour (viridis: perceptually uniform, readable in grey).
# pccbench sets
#   datafile  a matrix file: "t bin count" rows, a blank line between times
#   xscale, xlo, xhi, xname  the time axis (s -> its unit, range, label)
#   nbins, binlab[i]  the bins and what each covers ("0-100µs", ">=1.6ms")
#   plottitle the title
set title plottitle
set xlabel xname
set ylabel "retransmission timeout after"
set cblabel "timeouts per interval"
set view map
set xrange [xlo:xhi]
set yrange [-0.5:nbins - 0.5]
set ytics ()
do for [k = 1:nbins] { set ytics add (binlab[k] k - 1) }
set cbrange [0:*]
set palette defined (0 "#440154", 1 "#3b528b", 2 "#21918c", 3 "#5ec962", 4 "#fde725")
set lmargin 18
plot datafile using (column(1) * xscale):2:3 with image notitle
