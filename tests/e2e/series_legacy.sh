#!/bin/sh
# Issue 36 item 5: a series written before rows carried their wall-clock
# time (no "wall (ns)" column; tests/fixtures/series-legacy, recorded by
# the build before) loads, shows, correlates, exports and plots as that
# build did, and `series merge` refuses it in one line, writing nothing.
. "$(dirname "$0")/lib.inc"
fx="$top/tests/fixtures/series-legacy"
dir="$XDG_DATA_HOME/pccbench/series"
mkdir -p "$dir"
cp "$fx/legacy.csv" "$fx/legacy.json" "$dir/"

"$BIN" -c 'series list; series show legacy; corr legacy avg_rtt cnp_handled lag 5; corr legacy' \
	>"$tmp/got.txt" 2>&1 || fail=1
diff -u "$fx/expected.txt" "$tmp/got.txt" || { echo "$e2e_name: text differs"; fail=1; }
"$BIN" -j -c 'series show legacy; corr legacy avg_rtt cnp_sent lag 5' \
	>"$tmp/got.json" 2>&1 || fail=1
diff -u "$fx/expected.json" "$tmp/got.json" || { echo "$e2e_name: JSON differs"; fail=1; }

"$BIN" -c "series export legacy $tmp/exp.csv" >/dev/null || fail=1
cmp "$fx/legacy.csv" "$tmp/exp.csv" || { echo "$e2e_name: export differs"; fail=1; }

# the plot's data and script as before (gnuplot itself may be absent)
"$BIN" -c "plot legacy avg_rtt cnp_handled to $tmp/l.svg" >/dev/null 2>&1
cmp "$fx/expected.plot.dat" "$dir/legacy.plot.dat" || { echo "$e2e_name: plot data differs"; fail=1; }
sed -e "s|$XDG_DATA_HOME|XDG_DATA_HOME|g" -e "s|^pcb_output = '$tmp/l.svg'|pcb_output = 'OUT'|" \
	-e "s|^pcb_template = '$top/|pcb_template = 'TOP/|" \
	-e "s|^pcb_template = 'TOP/[^/']*/\.\./|pcb_template = 'TOP/|" \
	"$dir/legacy.plot.gp" >"$tmp/plot.gp"	# build-san/../plots: TOP/plots
diff -u "$fx/expected.plot.gp" "$tmp/plot.gp" || { echo "$e2e_name: plot script differs"; fail=1; }

# merge needs wall-clock times: one line, nothing written
cp "$fx/legacy.csv" "$dir/legacy2.csv"
out=$("$BIN" -c 'series merge lm legacy legacy2' 2>&1) && fail=1
check "merge of a legacy series" \
	"error: series merge: series legacy has no wall-clock times (recorded before pccbench kept them)" "$out"
[ ! -e "$dir/lm.csv" ] && [ ! -e "$dir/lm.json" ] || { echo "$e2e_name: merge wrote"; fail=1; }
exit $fail
