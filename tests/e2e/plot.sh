#!/bin/sh
# Plots an engineer can put in a report: every timeline panel on one time
# axis (RTT peaks where the ECN peaks are), gaps for missing intervals,
# time in the unit of the span, engineering labels, all-zero columns left
# out with a note, labelled panels on the terminal, and gnuplot failures as
# one line with nothing half-written.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache"
dir="$tmp/data/pccbench/series"
# the incast of scripts/incast-triage.pcb: the RTT probes stop with the
# incast at ~10 ms while the recording goes on to 20 ms
"$BIN" -d sim:p -y -c 'algo debug on; sim scenario incast senders 64 pfc off buffer 4MB size 1MB timeout 8 adp_retx off; record for 20ms every 100us into tri' >/dev/null
check "record exit" 0 $?

# 1. one time axis: in a text plot the RTT panel's last point sits where
# the same time is in the ECN panel, not at the right border
COLUMNS=100 LINES=40 "$BIN" plot tri avg_rtt ecn_marked >"$tmp/dumb.txt" 2>&1
check "dumb exit" 0 $?
# the rightmost '*' of each panel, as a fraction of the width
last() {
	awk -v want="$1" '
		/avg_rtt|ecn_marked/ { p = ($0 ~ /avg_rtt/) ? "avg_rtt" : "ecn_marked" }
		p == want && /\|/ { n = split($0, c, ""); for (i = n; i > 0; i--) if (c[i] == "*") { if (i > m) m = i; break } }
		END { print m + 0 }' "$tmp/dumb.txt"
}
# (the incast ends at about half the span, 9-10 ms of 20 with arrivals
# keyed by port: the RTT's last point and the ECN marks' last sit in the
# same column, left of the middle-right; an RTT panel on its own x range
# would end at the right border)
rtt_end=$(last avg_rtt)
ecn_end=$(last ecn_marked)
[ "$rtt_end" -gt 0 ] && [ "$rtt_end" -lt 70 ] &&
	[ $((rtt_end - ecn_end)) -le 3 ] && [ $((ecn_end - rtt_end)) -le 3 ] ||
	{ echo "plot: the RTT panel's data ends at column $rtt_end of 100, the ECN panel's at $ecn_end (its own x range?)"; fail=1; }
t_max=$(tail -n 1 "$dir/tri.csv" | cut -d, -f1)
rtt_last=$(tail -n +2 "$dir/tri.csv" | awk -F, '$2 != "" { t = $1 } END { print t }')
awk -v a="$rtt_last" -v b="$t_max" 'BEGIN { exit !(a < b * 0.7) }' ||
	{ echo "plot: the recording's RTT does not stop early ($rtt_last of $t_max)"; fail=1; }
# the script gives one range for all panels
grep -q '^xlo = 0.10000000000000001$' "$dir/tri.plot.gp" &&
	grep -q '^xhi = 20$' "$dir/tri.plot.gp" ||
	{ echo "plot: time range not 0.1..20 ms"; fail=1; }
# a missing interval is a gap: no NaN line is joined across
grep -q 'datafile missing' "$top/plots/timeline.gp" &&
	{ echo "plot: 'set datafile missing' joins lines across gaps"; fail=1; }

# 2. units and engineering form; a column that is 0 throughout is left out
out=$("$BIN" plot tri to "$tmp/t.svg" 2>&1 >/dev/null); rc=$?
check "default plot exit" 0 $rc
check "all-zero note" "note: pauses is 0 throughout; left out (name it to plot it)" "$out"
grep -qF '>pauses<' "$tmp/t.svg" && { echo "plot: the all-zero pauses panel is drawn"; fail=1; }
for label in '>t (ms)<' '>avg_rtt<' '>40µs<' '>10M<' '>400G<' \
    '>rx_gbps<' '>(b/s, sum of 65 NICs)<'; do	# a long label: unit below
	grep -qF "$label" "$tmp/t.svg" || { echo "plot: svg lacks '$label'"; fail=1; }
done
grep -q '>[0-9.]*e[+-]' "$tmp/t.svg" && { echo "plot: an axis still reads 1e+06"; fail=1; }
"$BIN" plot tri pauses to "$tmp/z.svg" >/dev/null 2>&1
check "named all-zero column exit" 0 $?
# time in the unit of the span: a 1 ms recording is in µs
"$BIN" -d sim:p -c 'record for 1ms every 50us into short' >/dev/null
"$BIN" plot short rx_gbps to "$tmp/s.svg" >/dev/null
grep -qF '>t (µs)<' "$tmp/s.svg" || { echo "plot: 1 ms not in µs"; fail=1; }

# 4. text plots: each panel says its column and unit
for label in 'avg_rtt' 'ecn_marked (1/s, sum of 65 NICs)' '40us' 't (ms)'; do
	grep -qF "$label" "$tmp/dumb.txt" || { echo "plot: text plot lacks '$label'"; fail=1; }
done

# 5. failures: the target checked first, one line, nothing half-written
out=$("$BIN" plot tri avg_rtt to "$tmp/missing/dir/x.png" 2>&1); rc=$?
check "missing dir exit" 1 $rc
check "missing dir message" "error: cannot write '$tmp/missing/dir/x.png': its directory does not exist" "$out"
"$BIN" -d sim:p -y -c 'algo debug off; record for 1ms every 100us into norrt' >/dev/null 2>&1
out=$("$BIN" plot norrt avg_rtt to "$tmp/blank.png" 2>&1); rc=$?
check "empty column exit" 1 $rc
check "empty column message" "error: plot: series norrt has no data in avg_rtt" "$out"
[ -e "$tmp/blank.png" ] && { echo "plot: a blank PNG was left"; fail=1; }
# gnuplot failing: one line, exit 2, the old file kept, no temp file left
printf 'old\n' >"$tmp/keep.png"
out=$(PCCBENCH_GNUPLOT=/bin/false "$BIN" plot tri avg_rtt to "$tmp/keep.png" 2>&1); rc=$?
check "gnuplot failure exit" 2 $rc
check "gnuplot failure lines" 1 "$(printf '%s\n' "$out" | grep -c '')"
check "old file kept" "old" "$(cat "$tmp/keep.png")"
check "no temp file left" "" "$(ls -A "$tmp" | grep '^\.keep\.png\.')"

# 3. heatmaps: the retx bins labelled with the time they cover, viridis,
# and a text form on the terminal that shows the data
"$BIN" -d sim:h -y -c 'algo debug on; sim scenario incast senders 64 pfc off buffer 4MB size 1MB; retx config bins 8 bin0 100 bin1 100 unit usec mode double; retx start; record for 10ms every 100us into h' >/dev/null 2>&1
"$BIN" plot h hist to "$tmp/h.svg" >/dev/null
check "heatmap exit" 0 $?
for label in '>0-100µs<' '>800µs-1.6ms<' '>>=6.4ms<' '>t (ms)<'; do
	grep -qF "$label" "$tmp/h.svg" || { echo "plot: heatmap lacks '$label'"; fail=1; }
done
grep -q '#440154' "$top/plots/hist.gp" || { echo "plot: heatmap palette is not viridis"; fail=1; }
COLUMNS=80 "$BIN" plot h hist >"$tmp/h.txt"
check "text heatmap rows" 8 "$(grep -c ' |.*|$' "$tmp/h.txt")"
# (the 800us-1.6ms row holds a few timeouts: with events at one
# picosecond by (type, id), merge of branch order, fewer than before, so
# its glyphs are the light ones; the densest, '@', is in some row)
grep -q '^ *800us-1.6ms |.*[-.:=+*#%@].*|$' "$tmp/h.txt" &&
	grep -q '^ *[0-9].* |.*@.*|$' "$tmp/h.txt" ||
	{ echo "plot: text heatmap shows no timeouts in 800us-1.6ms: $(cat "$tmp/h.txt")"; fail=1; }
# sweeps: two params on the terminal are a table with the best marked;
# one param: every error bar inside the range, a small spread from 0
"$BIN" -d sim:h -y -c 'algo debug off; sweep ALPHA 0.05,0.4 AI 5,60 for 1ms measure util scenario incast senders 8 into g2' >/dev/null 2>&1
out=$(COLUMNS=80 "$BIN" sweep plot g2)
case "$out" in "util (1) (highest is best; * marks it)"*"ALPHA"*"AI"*"*"*) ;;
	*) echo "plot: sweep table: $out"; fail=1 ;; esac
"$BIN" sweep plot g2 to "$tmp/g2.svg" >/dev/null
for label in '>best<' 'spread '; do
	grep -qF "$label" "$tmp/g2.svg" || { echo "plot: sweep heatmap lacks '$label'"; fail=1; }
done
"$BIN" -d sim:h -y -c 'sweep ALPHA 0.05,0.1,0.4 for 1ms repeat 3 seeds 1,2,3 measure util,queue_p99 scenario incast senders 8 start jitter into g1' >/dev/null 2>&1
"$BIN" sweep plot g1 to "$tmp/g1.png" >/dev/null
check "sweep line plot exit" 0 $?
sg="$tmp/data/pccbench/sweeps/g1"
# every mean +- ci of util inside [ylo, yhi]
out=$(awk -v lo="$(sed -n 's/^ylo\[1\] = //p' "$sg/plot.gp")" -v hi="$(sed -n 's/^yhi\[1\] = //p' "$sg/plot.gp")" \
	'{ if ($2 - $3 < lo || $2 + $3 > hi) bad++ } END { print bad + 0 }' "$sg/plot.dat")
check "error bars inside" 0 "$out"
grep -q "^ylo\[1\] = 0$" "$sg/plot.gp" || { echo "plot: util within 10 % does not start at 0"; fail=1; }
grep -q "spread\[1\] = 'spread [0-9.]* % of the mean (highest is best)'" "$sg/plot.gp" ||
	{ echo "plot: no spread for util"; fail=1; }
exit $fail
