#!/bin/sh
# Issue 36 item 5 (real hosts): every recorded row carries the wall-clock
# time of its read, and `series merge` lines up series recorded at the
# same time by two processes (as two hosts would), each on its own device
# (sim:a, sim:b).  A records until B has finished: A starts first (its
# fabric seen running by a third process), and is stopped (Ctrl-C keeps
# its rows) only once B has exited, so their spans overlap by
# construction, never by a sleep.  Checked: the columns, the row count,
# every value against its source row at the aligned time (recomputed
# here), the offset report, plot/corr/show/export of the merged series,
# and each refusal (one line, nothing written).
. "$(dirname "$0")/lib.inc"
dir="$XDG_DATA_HOME/pccbench/series"
apid=""
trap '[ -n "$apid" ] && kill "$apid" 2>/dev/null; rm -rf "$tmp"' EXIT

setup='algo debug on; sim scenario incast senders 4 size 0'
"$BIN" -d sim:a -c "$setup" >/dev/null 2>&1 || fail=1
# A: far longer than B ever takes (stopped below)
"$BIN" -d sim:a -c "$setup; record for 100s every 100us into ha clear on" \
	>"$tmp/a.out" 2>&1 &
apid=$!
# wait until A's fabric runs: its RTT samples counted on sim:a (a cap
# of 3000 reads, minutes on a loaded machine, is never the condition)
n=0
while :; do
	v=$("$BIN" -d sim:a -j -c 'counter show' 2>/dev/null |
		sed -n 's/.*"name":"ZTR_CC_NUM_RTT","value":\([0-9]*\).*/\1/p')
	[ "${v:-0}" -gt 0 ] && break
	n=$((n + 1))
	if [ $n -ge 3000 ] || ! kill -0 "$apid" 2>/dev/null; then
		echo "$e2e_name: A never started recording"; cat "$tmp/a.out"
		exit 1
	fi
done
"$BIN" -d sim:b -c "$setup; record for 30ms every 100us into hb clear on" \
	>"$tmp/b.out" 2>&1 || { echo "$e2e_name: B failed"; cat "$tmp/b.out"; fail=1; }
kill -INT "$apid"
wait "$apid"
apid=""
grep -q "^series ha: " "$tmp/a.out" || { echo "$e2e_name: A kept no rows"; cat "$tmp/a.out"; exit 1; }

# ---- each recorded row: its wall-clock read, the last column (every
# other keeps its place) ----
for s in ha hb; do
	hdr=$(head -n 1 "$dir/$s.csv" | tr -d '\r')
	check "$s header" "t (s),avg_rtt (ns),wall (ns)" \
		"$(echo "$hdr" | cut -d, -f1-2),$(echo "$hdr" | awk -F, '{ print $NF }')"
	check "$s columns" 27 "$(echo "$hdr" | awk -F, '{ print NF }')"
	first=$(sed -n '2p' "$dir/$s.csv" | tr -d '\r' | awk -F, '{ print $NF }')
	start=$(sed -n 's/.*"start_ns":\([0-9]*\).*/\1/p' "$dir/$s.json")
	# ns since the epoch: 19 digits until 2286; the start before row 1
	case "$first" in [1-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]) ;;
		*) echo "$e2e_name: $s row 1 wall [$first]"; fail=1 ;; esac
	[ -n "$start" ] && [ "$start" -le "$first" ] ||
		{ echo "$e2e_name: $s start_ns [$start] after row 1 [$first]"; fail=1; }
done
# the sim's wall clock is the real one: within this test's life
now=$(date +%s)
sec=$(sed -n '2p' "$dir/hb.csv" | tr -d '\r' | awk -F, '{ print $NF }' | cut -c1-10)
[ "$sec" -le "$now" ] && [ "$sec" -ge $((now - 3600)) ] ||
	{ echo "$e2e_name: hb read at $sec, now $now"; fail=1; }

# ---- the merge ----
out=$("$BIN" -c 'series merge m ha hb' 2>&1) || fail=1
case "$out" in "series m: $(($(wc -l <"$dir/ha.csv") - 1)) points x 53 columns on ha's wall-clock grid (every "*" on average; a row lands within half the interval on its side)"*) ;;
	*) echo "$e2e_name: merge report: $out"; fail=1 ;; esac
case "$out" in *"clock offset assumed: 0 ns (the hosts' clocks taken as synchronised: NTP keeps them within ~1 ms, PTP within ~1 us; an error near "*", half an interval, puts rows beside their neighbours')"*) ;;
	*) echo "$e2e_name: offset report: $out"; fail=1 ;; esac
"$BIN" -c 'series drop m' >/dev/null
json=$("$BIN" -j -c 'series merge m ha hb') || fail=1
check "offset_ns" 0 "$(echo "$json" | jget offset_ns)"
tol=$(echo "$json" | jget tolerance_ns)
nb=$(echo "$json" | sed -n 's/.*{"series":"hb","aligned":\([0-9]*\),.*/\1/p')
grep -q '"offset_ns":0,"tolerance_ns":' "$dir/m.json" || { echo "$e2e_name: m.json: $(cat "$dir/m.json")"; fail=1; }

# the columns: t, then ha's and hb's each named SERIES.column, the wall
cols=$(head -n 1 "$dir/ha.csv" | tr -d '\r' | sed 's/,wall (ns)$//; s/^/ha./; s/,/,ha./g')
colsb=$(head -n 1 "$dir/hb.csv" | tr -d '\r' | sed 's/,wall (ns)$//; s/^/hb./; s/,/,hb./g')
check "merged header" "t (s),$cols,$colsb,wall (ns)" \
	"$(head -n 1 "$dir/m.csv" | tr -d '\r')"
check "rows" "$(wc -l <"$dir/ha.csv")" "$(wc -l <"$dir/m.csv")"

# every merged row against its sources, the alignment recomputed: ha's
# row i; hb's row nearest in wall time whose own nearest ha row is i,
# within half ha's interval on its side of row i (at the ends the one
# inside), else all of hb's columns empty.  Wall times as their last 13
# digits (exact in awk's doubles).
awk -F, -v tol="$tol" -v nb="$nb" '
function w13(s) { return substr(s, length(s) - 12) + 0 }
function near(wv, n, x,   j, b) {
	b = 1
	for (j = 2; j <= n; j++)
		if (abs(wv[j] - x) < abs(wv[b] - x))
			b = j
	return b
}
function abs(x) { return x < 0 ? -x : x }
{ sub(/\r$/, "") }
FILENAME == ARGV[1] && FNR > 1 { na++; arow[na] = $0; aw[na] = w13($NF) }
FILENAME == ARGV[2] && FNR > 1 { nbr++; brow[nbr] = $0; bw[nbr] = w13($NF) }
FILENAME == ARGV[3] && FNR == 1 { nf = NF }
FILENAME == ARGV[3] && FNR > 1 {
	i = FNR - 1
	if (!base) {	# a boundary of the 13 digits crossed: unwrap
		base = aw[1]
		for (j = 1; j <= na; j++) if (aw[j] < base - 5e12) aw[j] += 1e13
		for (j = 1; j <= nbr; j++) if (bw[j] < base - 5e12) bw[j] += 1e13
		want = int(int((aw[na] - aw[1]) / (na - 1)) / 2)
		if (want != tol) { printf "tolerance %s, not %.0f\n", tol, want; bad++ }
	}
	nm = split($0, m)
	ka = split(arow[i], a) - 1; kb = split(brow[1], b) - 1
	if (w13(m[nm]) + (w13(m[nm]) < base - 5e12 ? 1e13 : 0) != aw[i]) { print "row " i ": wall"; bad++ }
	if (abs(m[1] - (aw[i] - aw[1]) / 1e9) > 1e-9) { print "row " i ": t " m[1]; bad++ }
	for (k = 1; k <= ka; k++) {	# ha: its columns but the wall
		mk = k + 1
		if (m[mk] != a[k] && (m[mk] == "" || a[k] == "" || m[mk] + 0 != a[k] + 0)) { if (bad++ < 10) print "row " i " ha col " k ": " m[mk] " vs " a[k] }
	}
	j = near(bw, nbr, aw[i]); x = bw[j]
	lo = x < aw[i] ? (i > 1 ? i - 1 : 1) : (i < na ? i : i - 1)
	hit = near(aw, na, x) == i && abs(x - aw[i]) <= int((aw[lo + 1] - aw[lo]) / 2)
	split(hit ? brow[j] : "", b)
	for (k = 1; k <= kb; k++) {
		mk = 1 + ka + k
		v = hit ? b[k] : ""
		if (m[mk] != v && (m[mk] == "" || v == "" || m[mk] + 0 != v + 0)) { if (bad++ < 10) print "row " i " hb col " k ": " m[mk] " vs " v }
	}
	hits += hit
}
END {
	if (nf != 2 + ka + kb) { print "fields " nf; bad++ }
	if (hits != nb) { print "hb rows aligned: " nb ", recomputed " hits; bad++ }
	if (hits < 1) { print "no hb row aligned"; bad++ }
	exit bad > 0
}' "$dir/ha.csv" "$dir/hb.csv" "$dir/m.csv" || { echo "$e2e_name: merged values"; fail=1; }

# ---- the merged series is a series: show, export, corr, plot ----
"$BIN" -c 'series show m' >"$tmp/show" 2>&1 || fail=1
grep -q "^ha.avg_rtt " "$tmp/show" && grep -q "^hb.cnp_sent " "$tmp/show" &&
	grep -q "^wall clock 20[0-9-]*T[0-9:.]*Z to " "$tmp/show" ||
	{ echo "$e2e_name: show"; cat "$tmp/show"; fail=1; }
"$BIN" -c "series export m $tmp/m.csv" >/dev/null || fail=1
cmp "$dir/m.csv" "$tmp/m.csv" || { echo "$e2e_name: export differs"; fail=1; }
out=$("$BIN" -c 'corr m ha.avg_rtt hb.cnp_sent' 2>&1) || fail=1
case "$out" in "ha.avg_rtt ~ hb.cnp_sent over "*" points: pearson "*) ;;
	*) echo "$e2e_name: corr: $out"; fail=1 ;; esac
"$BIN" -c "plot m ha.avg_rtt hb.avg_rtt to $tmp/m.svg" >"$tmp/plot" 2>&1
grep -q "^[0-9.e-]* " "$dir/m.plot.dat" || { echo "$e2e_name: plot data"; cat "$tmp/plot"; fail=1; }
grep -q "names\[1\] = 'ha.avg_rtt'" "$dir/m.plot.gp" || { echo "$e2e_name: plot script"; fail=1; }
# unnamed: each host's main columns
"$BIN" -c "plot m to $tmp/m2.svg" >/dev/null 2>&1
grep -q "= 'hb.avg_rtt'" "$dir/m.plot.gp" || { echo "$e2e_name: default plot"; fail=1; }
"$BIN" -c 'corr m' 2>&1 | grep -q "^hb.avg_rtt  *-*[0-9]" || { echo "$e2e_name: corr matrix"; fail=1; }

# ---- refusals: one line each, nothing written ----
refuse() {	# NAME EXPECTED-LINE COMMAND
	ls "$dir" >"$tmp/before"
	sum=$(cat "$dir"/*.csv | cksum)
	got=$("$BIN" -c "$3" 2>&1) && { echo "$e2e_name: $1: accepted"; fail=1; }
	check "$1" "$2" "$got"
	ls "$dir" >"$tmp/after"
	cmp -s "$tmp/before" "$tmp/after" && [ "$sum" = "$(cat "$dir"/*.csv | cksum)" ] ||
		{ echo "$e2e_name: $1: wrote"; fail=1; }
}
# recorded after ha ended: no overlap
"$BIN" -d sim:b -c "$setup; record for 2ms every 100us into late" >/dev/null 2>&1 || fail=1
refuse "spans apart" "error: series merge: series ha and late were not recorded at the same time (their wall-clock spans do not overlap)" \
	'series merge x ha late'
cp "$top/tests/fixtures/series-legacy/legacy.csv" "$dir/"
refuse "no wall clock" "error: series merge: series legacy has no wall-clock times (recorded before pccbench kept them)" \
	'series merge x ha legacy'
refuse "name taken" "error: series merge: series m exists ('series drop m' first)" \
	'series merge m ha hb'
refuse "one input" "error: usage: series merge NAME A B [C...]" 'series merge x ha'
refuse "no such series" "error: no series 'nope' ('series list')" 'series merge x ha nope'
exit $fail
