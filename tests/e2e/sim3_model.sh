#!/bin/sh
# `sim model` per algorithm (issue 23, leftover): each algorithm keeps
# its own model options, beside the device's scenario; without a name
# it means the active algorithm's; DCQCN's options reach its fabric.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state"

# ZTR-RTT is active (slot 0): its options; naming dcqcn sets DCQCN's
out=$("$BIN" -d sim:m -j -c 'sim model dcqcn hai growing' | tail -n 1)
check "dcqcn set" '{"algorithm":"dcqcn","hai":"growing","alpha":"20bit"}' "$out"
out=$("$BIN" -d sim:m -j -c 'sim model' | tail -n 1)
case "$out" in '{"algorithm":"ztr_rtt","target":"flow",'*) ;;
*) echo "sim3_model: default is the active algorithm's: $out"; fail=1 ;; esac
# the next process sees DCQCN's, now by default once DCQCN is active
out=$("$BIN" -d sim:m -y -j -c 'algo disable 0; algo enable 2; sim model' |
	tail -n 1)
check "dcqcn persisted" '{"algorithm":"dcqcn","hai":"growing","alpha":"20bit"}' "$out"
# a bad choice: one line naming the choices, exit 1, nothing changed
out=$("$BIN" -d sim:m -c 'sim model dcqcn alpha 12bit' 2>&1); rc=$?
check "bad choice rc" 1 "$rc"
check "bad choice" "error: alpha: '12bit' is not one of its choices (20bit, 10bit)" "$out"
out=$("$BIN" -d sim:m -j -c 'sim model dcqcn' | tail -n 1)
check "unchanged" '{"algorithm":"dcqcn","hai":"growing","alpha":"20bit"}' "$out"
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
exit $fail
