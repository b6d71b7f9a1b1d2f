# scatter.gp - one column against another with the least-squares line
# and Pearson's r.  pccbench sets before loading this file:
#   datafile  the data (whitespace separated, NaN = missing)
#   xcol, ycol  column numbers;  xname, yname  axis labels
#   a, b      the least-squares line y = a x + b (pccbench computes it)
#   rtext     Pearson's r as text;  plottitle  the title
set title plottitle
set xlabel xname
set ylabel yname
set grid
set datafile missing "NaN"
set key top left
f(x) = a * x + b
plot datafile using xcol:ycol with points pt 7 ps 0.5 title "intervals", \
	f(x) with lines lw 2 title sprintf("y = %.4g x + %.4g, r = %s", a, b, rtext)
