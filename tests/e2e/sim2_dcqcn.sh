#!/bin/sh
# DCQCN with the shipped defaults controls the queue (issue 23, item 5):
# 16:1 at 100 G, second 10 ms window: before, a 16.3 MB queue, as with no
# CC, and runs bit-identical whatever rpg_ai_rate; now the mean queue
# stays within the ECN band (100-400 KB), at line rate, losslessly
# without pauses or timeouts (each of seeds 1-8), and a larger additive
# step gives a longer queue: the mean over seeds 1-8 at rpg_ai_rate 320m
# above that at 5m.  With rpg_threshold 1 one additive step a cycle
# precedes hyper increase, whose 50 Mb/s drive the rest (issue 34 item
# 3), so the step is small against a run's scatter: over seeds 1-20,
# 5m -> 50m gave +3.3 % (single seeds -4.5 to +12.6 %; the 1.14x this
# test once asserted at 50m was seed 1's draw), 5m -> 320m +6.5 % (-5 to
# +16 %); the mean over 8 has a scatter of some 2 %.  Its size against
# the fluid model is test_sim's test_dcqcn_ai_response, over 48 seeds.
# PCCB_SEED_SHIFT=N (tests/tools/seed-robust.sh) runs seeds N+1..N+8.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state"
shift=${PCCB_SEED_SHIFT:-0}
case "$shift" in *[!0-9]* | '') echo "sim2_dcqcn: PCCB_SEED_SHIFT '$shift': not a number"; exit 1 ;; esac

run() {
	rm -rf "$tmp/state"
	"$BIN" -d sim:d -y -j -c "algo disable 0; algo enable 2; param set slot 2 rpg_ai_rate $1; sim scenario incast senders 16 rate 100g seed $2; sim run 10ms; sim run 10ms" |
		tail -n 1 >"$tmp/$1.$2.json"
}
sum5=0
sum320=0
for i in 1 2 3 4 5 6 7 8; do
	s=$((shift + i))
	run 5m $s
	run 320m $s
	check "seed $s: second window" 10 "$(jget t0_ms <"$tmp/5m.$s.json")"
	for k in pauses drops rto; do
		check "seed $s: $k" 0 "$(jget $k <"$tmp/5m.$s.json")"
	done
	awk -v q="$(jget queue_mean_bytes <"$tmp/5m.$s.json")" \
	    -v u="$(jget utilisation <"$tmp/5m.$s.json")" \
	    -v c="$(jget payload_ceiling <"$tmp/5m.$s.json")" \
	    'BEGIN { exit !(q > 50000 && q < 400 * 1024 && u > 0.95 * c) }' ||
		{ echo "sim2_dcqcn: defaults, seed $s: $(cat "$tmp/5m.$s.json")"; fail=1; }
	sum5=$(awk -v a="$sum5" -v q="$(jget queue_mean_bytes <"$tmp/5m.$s.json")" 'BEGIN { print a + q }')
	sum320=$(awk -v a="$sum320" -v q="$(jget queue_mean_bytes <"$tmp/320m.$s.json")" 'BEGIN { print a + q }')
done
r=$(awk -v a="$sum5" -v b="$sum320" 'BEGIN { printf "%.4f", b / a }')
echo "= sim2_dcqcn: seeds $((shift + 1))-$((shift + 8)): mean queue at rpg_ai_rate 320m / 5m: $r"
awk -v r="$r" 'BEGIN { exit !(r > 1) }' ||
	{ echo "sim2_dcqcn: rpg_ai_rate 320m: mean queue $r of 5m's, not longer"; fail=1; }
exit $fail
