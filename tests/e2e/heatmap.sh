#!/bin/sh
# Issue 32.2: every value printed in a sweep heatmap sits in its own cell,
# whatever the grid and the number of panels.  Sweeps of 1x3, 4x5, 3x12
# and 8x8 points (1 to 4 measures) are plotted as SVG;
# each panel's plot border spans the grid exactly (index -0.5 .. n-0.5),
# the cell labels are its 9-point texts, in the data's order (the first
# param outer, the second inner, row 0 at the bottom).  A label's centre
# (gnuplot puts the baseline 0.325 font sizes below it, as its tic labels
# show) must lie inside its cell, and every cell is coloured (a 1xN grid
# drew none as an image).
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache"
command -v gnuplot >/dev/null 2>&1 || { echo "heatmap: no gnuplot: skipped"; exit 0; }
S="-d sim:hm"
"$BIN" $S -c 'algo debug on; sim scenario incast senders 4' >/dev/null

# grid NX NY MEASURES NAME: sweep ALPHA (NX values) x AI (NY values)
grid() {
	xs=$(seq 1 "$1" | awk '{ printf "%s%.2f", (NR > 1 ? "," : ""), 0.05 * $1 }')
	ys=$(seq 1 "$2" | awk '{ printf "%s%d", (NR > 1 ? "," : ""), 5 * $1 }')
	"$BIN" $S -c "sweep ALPHA $xs AI $ys for 200us jobs 2 measure $3 into $4 plot $tmp/$4.svg" \
		>/dev/null 2>"$tmp/$4.err" ||
		{ echo "heatmap: $4: $(cat "$tmp/$4.err")"; fail=1; return; }
	# panels of nx x ny labels, each inside its cell
	res=$(awk -v nx="$1" -v ny="$2" '
	# the plot border: a black closed rectangle wider than the colour
	# box; drawn again after the plot (the same one)
	/stroke=.black./ && /Z  / {
		match($0, /M[0-9.]+,[0-9.]+ L[0-9.]+,[0-9.]+ L[0-9.]+,[0-9.]+/)
		split(substr($0, RSTART + 1, RLENGTH - 1), q, /[ ,L]+/)
		if (q[5] - q[1] > 200 && q[2] != y0) {
			if (p > 0) panel_end()
			x0 = q[1]; y0 = q[2]; w = q[5] - q[1]; h = q[4] - q[2]
			p++; k = 0; cells = 0; img = 0
		}
	}
	# the cells coloured: an image, or a filled box per cell inside the
	# border (the colour box beside it is not)
	/<image / { img = 1 }
	/<polygon fill/ {
		match($0, /points = .[0-9.]+/)
		px = substr($0, RSTART + 10, RLENGTH - 10)
		if (px >= x0 - 1 && px < x0 + w) cells++
	}
	/font-size="9.00"/ && /translate\(/ {
		match($0, /translate\([0-9.]+,[0-9.]+\)/)
		split(substr($0, RSTART + 10, RLENGTH - 11), xy, ",")
		i = int(k / ny); j = k % ny; k++
		cx = xy[1]; cy = xy[2] - 0.325 * 9
		l = x0 + i * w / nx; r = l + w / nx
		b = y0 + h - j * h / ny; t = b - h / ny
		if (!(cx > l && cx < r && cy > t && cy < b) && nbad++ < 5) {
			printf "panel %d cell %d,%d: label at %.1f,%.1f outside %.1f..%.1f x %.1f..%.1f\n", p, i, j, cx, cy, l, r, t, b
			bad = 1
		}
	}
	function panel_end() {
		if (k != nx * ny) { print "panel " p ": " k " labels"; bad = 1 }
		if (!img && cells < nx * ny) { print "panel " p ": " cells " cells coloured"; bad = 1 }
	}
	END {
		panel_end()
		print (bad ? "bad" : "ok") " " p
	}' "$tmp/$4.svg")
	case "$res" in "ok $5") ;;
		*) echo "heatmap: $1x$2 grid: $res"; fail=1 ;; esac
}
grid 1 3 avg_rtt g13 1
grid 4 5 avg_rtt,rtt_p99,util,queue_p99 g45 4
grid 3 12 avg_rtt,util g312 2
grid 8 8 avg_rtt,rtt_p99,util g88 3
exit $fail
