# timeline.gp - pccbench's multi-panel timeline: one panel per column on a
# shared time axis.  pccbench sets before loading this file:
#   datafile  the data (whitespace separated, NaN = missing, time in col 1)
#   cols      column numbers, e.g. "2 12 14"
#   names     their names;  units  their units ("-" for none)
#   plottitle the title
n = words(cols)
set multiplot layout n, 1 title plottitle
set grid
set datafile missing "NaN"
set lmargin 12
do for [i = 1:n] {
	u = word(units, i)
	set ylabel (u eq "-" ? word(names, i) : word(names, i)." (".u.")")
	if (i == n) { set xlabel "t (s)"; set format x "%g" } else { unset xlabel; set format x "" }
	plot datafile using 1:(column(int(word(cols, i)))) with lines lw 1.5 notitle
}
unset multiplot
