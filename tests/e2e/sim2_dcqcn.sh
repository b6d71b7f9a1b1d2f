#!/bin/sh
# DCQCN with the shipped defaults controls the queue (issue 23, item 5):
# 16:1 at 100 G, second 10 ms window: before, a 16.3 MB queue, as with no
# CC, and runs bit-identical whatever rpg_ai_rate; now the mean queue
# stays within the ECN band (100-400 KB), at line rate, losslessly
# without pauses or timeouts, and a larger additive step (50 Mb/s) gives
# a longer queue (1.14x: with rpg_threshold 1 one additive step a cycle
# precedes hyper increase, whose 50 Mb/s drive the rest: issue 34 item 3).
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state"

run() {
	rm -rf "$tmp/state"
	"$BIN" -d sim:d -y -j -c "algo disable 0; algo enable 2; param set slot 2 rpg_ai_rate $1; sim scenario incast senders 16 rate 100g; sim run 10ms; sim run 10ms" |
		tail -n 1 >"$tmp/$1.json"
}
run 5m
run 50m
check "second window" 10 "$(jget t0_ms <"$tmp/5m.json")"
for k in pauses drops rto; do
	check "$k" 0 "$(jget $k <"$tmp/5m.json")"
done
awk -v q="$(jget queue_mean_bytes <"$tmp/5m.json")" \
    -v u="$(jget utilisation <"$tmp/5m.json")" \
    -v c="$(jget payload_ceiling <"$tmp/5m.json")" \
    'BEGIN { exit !(q > 50000 && q < 400 * 1024 && u > 0.95 * c) }' ||
	{ echo "sim2_dcqcn: defaults: $(cat "$tmp/5m.json")"; fail=1; }
awk -v a="$(jget queue_mean_bytes <"$tmp/5m.json")" \
    -v b="$(jget queue_mean_bytes <"$tmp/50m.json")" \
    'BEGIN { exit !(b > 1.1 * a) }' ||
	{ echo "sim2_dcqcn: rpg_ai_rate 50m: $(cat "$tmp/50m.json")"; fail=1; }
exit $fail
