#!/bin/sh
# `sim model` per algorithm (issue 23, leftover): each algorithm keeps
# its own model options, beside the device's scenario; without a name
# it means the active algorithm's; DCQCN's options reach its fabric.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state"

# ZTR-RTT is active (slot 0): its options; naming dcqcn sets DCQCN's
out=$("$BIN" -d sim:m -j -c 'sim model dcqcn hai growing' | tail -n 1)
check "dcqcn set" '{"algorithm":"dcqcn","hai":"growing","alpha":"20bit","byte_unit":"KB"}' "$out"
out=$("$BIN" -d sim:m -j -c 'sim model' | tail -n 1)
case "$out" in '{"algorithm":"ztr_rtt","target":"flow",'*) ;;
*) echo "sim3_model: default is the active algorithm's: $out"; fail=1 ;; esac
# the next process sees DCQCN's, now by default once DCQCN is active
out=$("$BIN" -d sim:m -y -j -c 'algo disable 0; algo enable 2; sim model' |
	tail -n 1)
check "dcqcn persisted" '{"algorithm":"dcqcn","hai":"growing","alpha":"20bit","byte_unit":"KB"}' "$out"
# a bad choice: one line naming the choices, exit 1, nothing changed
out=$("$BIN" -d sim:m -c 'sim model dcqcn alpha 12bit' 2>&1); rc=$?
check "bad choice rc" 1 "$rc"
check "bad choice" "error: alpha: '12bit' is not one of its choices (20bit, 10bit)" "$out"
out=$("$BIN" -d sim:m -j -c 'sim model dcqcn' | tail -n 1)
check "unchanged" '{"algorithm":"dcqcn","hai":"growing","alpha":"20bit","byte_unit":"KB"}' "$out"
# the option reaches DCQCN's fabric: alpha floored to 10 bits decays to
# 0 between CNPs (issue 23, bug 4), a different run
ev() {
	"$BIN" -d sim:m -j -c "sim model dcqcn alpha $1; sim scenario incast senders 8 rate 100g; sim run 2ms" |
		tail -n 1 | jget events
}
a=$(ev 20bit)
b=$(ev 10bit)
[ -n "$a" ] && [ "$a" != "$b" ] ||
	{ echo "sim3_model: alpha 20bit $a events, 10bit $b"; fail=1; }
# a sweep runs with the device's model options: its workers' copy of the
# device has the scenario file they live in (it had only the firmware
# file, so a sweep ran ZTR-RTT's defaults whatever `sim model` said)
sw() {
	"$BIN" -d sim:sw -c "sim model ztr_rtt decrease $1" >/dev/null
	"$BIN" -d sim:sw -c "sweep ALPHA 0.1 seeds 1 for 2ms measure queue_mean jobs 1 into $1" >/dev/null
	tail -n 1 "$XDG_DATA_HOME/pccbench/sweeps/$1/results.csv" | tr -d '\r' | cut -d, -f5
}
p=$(sw proportional)
q=$(sw ratio)
[ -n "$p" ] && [ "$p" != "$q" ] ||
	{ echo "sim3_model: a sweep ignores the model: proportional $p, ratio $q"; fail=1; }
exit $fail
