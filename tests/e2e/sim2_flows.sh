#!/bin/sh
# The flows file and `sim show fct` (issue 23, item 11): the file holds
# the flows that started in the run, finished ones with their FCT, the
# rest with an empty finish; its finished rows are the flows `sim show
# fct` and the summary count, each slowdown is max(1, FCT / ideal), and
# the HPCC table recomputed here from the file (5 % slices by size, the
# element at floor(n p)) is the one printed.  A warm-up run stays out.
# Existing files and bad paths are refused, writing nothing.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state"
cd "$tmp" || exit 1

"$BIN" -d sim:f -c 'sim scenario mix load 50 seed 3' >/dev/null
"$BIN" -d sim:f -j -c 'sim run 1ms; sim run 2ms flows f.csv; sim show fct' \
	>"$tmp/out.json" || { echo "sim2_flows: run failed"; fail=1; }
sed -n 2p "$tmp/out.json" >"$tmp/sum.json"
sed -n 3p "$tmp/out.json" >"$tmp/fct.json"
check "header" "id,src,dst,size_bytes,start_ns,finish_ns,fct_ns,ideal_fct_ns,slowdown,retransmits,algorithm" \
	"$(head -n 1 f.csv | tr -d '\r')"
tr -d '\r' <f.csv | sed 1d >"$tmp/rows"
fin=$(awk -F, '$6 != ""' "$tmp/rows" | wc -l)
run=$(awk -F, '$6 == ""' "$tmp/rows" | wc -l)
check "finished = sim show fct" "$(jget finished <"$tmp/fct.json")" "$fin"
check "running = sim show fct" "$(jget running <"$tmp/fct.json")" "$run"
[ "$fin" -gt 100 ] && [ "$run" -gt 0 ] ||
	{ echo "sim2_flows: $fin finished, $run running"; fail=1; }
# the summary's size buckets count the same flows
sb=$(grep -o '"size_lo":[0-9]*,"size_hi":[0-9a-z]*,"flows":[0-9]*' \
	"$tmp/sum.json" | sed 's/.*://' | awk '{ n += $1 } END { print n }')
check "summary FCT flows" "$fin" "$sb"
bins=$(grep -o '"flows":[0-9]*' "$tmp/fct.json" | cut -d: -f2 |
	awk '{ n += $1 } END { print n }')
check "bins hold every finished flow" "$fin" "$bins"
# every row: started in the window (1 ms on), FCT = finish - start,
# slowdown = max(1, FCT / ideal) >= 1, no retransmission (PFC, no loss)
awk -F, '
$5 < 1000000 { print "starts before the window: " $0; bad = 1 }
$6 != "" {
	if ($7 - ($6 - $5) > 0.002 || ($6 - $5) - $7 > 0.002) {
		print "fct: " $0; bad = 1 }
	r = $7 / $8; if (r < 1) r = 1
	if ($9 < 1 || $9 - r > 1e-6 * r + 1e-6 || r - $9 > 1e-6 * r + 1e-6) {
		print "slowdown: " $0; bad = 1 }
}
$6 == "" && ($7 != "" || $9 != "") { print "running: " $0; bad = 1 }
$10 != 0 { print "retransmits: " $0; bad = 1 }
END { exit bad }' "$tmp/rows" | head -n 5 | grep . && fail=1
# the HPCC table from the file: rows by size (then slowdown), 5 % slices
awk -F, '$6 != "" { print $4, $9 }' "$tmp/rows" | sort -k1,1n -k2,2g \
	>"$tmp/bysize"
i=0
for b in $(seq 0 5 95); do
	l=$((b * fin / 100)); r=$(((b + 5) * fin / 100))
	[ "$l" -eq "$r" ] && continue
	sed -n "$((l + 1)),${r}p" "$tmp/bysize" >"$tmp/slice"
	want=$(sort -g -k2,2 "$tmp/slice" | awk -v n=$((r - l)) '
		{ v[NR - 1] = $2 }
		END { printf "%d %.2f %.2f %.2f", n, v[int(n * 0.5)],
		      v[int(n * 0.95)], v[int(n * 0.99)] }')
	i=$((i + 1))
	got=$(grep -o '{"pct_lo":[^}]*}' "$tmp/fct.json" | sed -n "${i}p" |
		sed 's/.*"flows":\([0-9]*\),"mean":[0-9.e+-]*,"p50":\([0-9.e+-]*\),"p95":\([0-9.e+-]*\),"p99":\([0-9.e+-]*\).*/\1 \2 \3 \4/' |
		awk '{ printf "%d %.2f %.2f %.2f", $1, $2, $3, $4 }')
	check "slice $b %" "$want" "$got"
done
check "slices" 20 "$i"
# text: the table says what its slices are
"$BIN" -d sim:f -c 'sim run 1ms; sim show fct step 25' >"$tmp/fct.txt"
grep -q "slices of 25 % of them" "$tmp/fct.txt" && grep -q "^   75-100 " \
	"$tmp/fct.txt" || { echo "sim2_flows: text: $(cat "$tmp/fct.txt")"; fail=1; }
"$BIN" -d sim:f -c 'sim show fct step 7' 2>/dev/null
check "step must divide 100" 1 $?

# lossy: retransmissions are counted per flow
"$BIN" -d sim:l -c 'sim scenario mix load 50 seed 3 loss 0.002 pfc off' >/dev/null
"$BIN" -d sim:l -c 'sim run 2ms flows l.csv' >/dev/null
n=$(tr -d '\r' <l.csv | awk -F, 'NR > 1 && $10 > 0' | wc -l)
[ "$n" -gt 0 ] || { echo "sim2_flows: no retransmits under loss"; fail=1; }

# refused: an existing file (left as it was), a missing directory; the
# run does not happen and no temp file is left
echo keep >old.csv
out=$("$BIN" -d sim:f -c 'sim run 1ms flows old.csv' 2>&1)
check "existing file exit" 1 $?
check "existing file message" "error: cannot create 'old.csv': it exists already" "$out"
check "existing file kept" keep "$(cat old.csv)"
"$BIN" -d sim:f -c 'sim run 1ms flows no/such/f.csv' >/dev/null 2>&1
check "bad path exit" 1 $?
"$BIN" -d sim:f -c 'sim run 1ms flows a.csv trace a.csv' >/dev/null 2>&1
check "one file for two outputs" 1 $?
check "nothing left behind" "f.csv l.csv old.csv" "$(ls | grep -v -e json -e rows -e bysize -e slice -e fct.txt -e state -e xdg | tr '\n' ' ' | sed 's/ $//')"
# the sweep measures fct_p50 and fct_p99 (and so tune's objectives) are
# the same window's flows: the file's slowdowns at floor(n p)
sort -g -t, -k9,9 "$tmp/f.csv" | awk -F, '$9 != "" && $1 != "id" { print $9 }' >"$tmp/sd"
n=$(wc -l <"$tmp/sd")
want=$(awk -v n="$n" 'NR == int(n * 0.5) + 1 { a = $1 } NR == int(n * 0.99) + 1 { b = $1 } END { printf "%.6f %.6f", a, b }' "$tmp/sd")
"$BIN" -d sim:fs -c 'sim scenario mix load 50 seed 3' >/dev/null
a=$("$BIN" -d sim:fs -j param get ALPHA | sed -n 's/.*"value":\([0-9.]*\).*/\1/p')
"$BIN" -d sim:fs -c "sweep ALPHA $a for 2ms warmup 1ms seeds 3 jobs 1 measure fct_p50,fct_p99 into fq" >/dev/null
got=$(tail -n 1 "$XDG_DATA_HOME/pccbench/sweeps/fq/results.csv" | tr -d '\r' | awk -F, '{ printf "%.6f %.6f", $5, $6 }')
check "sweep fct_p50, fct_p99 = the flows file's" "$want" "$got"
[ "$n" -gt 100 ] || { echo "sim2_flows: only $n finished flows for the percentiles"; fail=1; }
exit $fail
