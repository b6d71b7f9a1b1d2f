#!/bin/sh
# Every statistic of `sim run` covers that run alone (issue 23, bug 6):
# two 2 ms runs add up to one 4 ms run of the same fabric (events,
# pauses, drops, timeouts), and the FCTs of the second window are not
# those of the first again.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state"

"$BIN" -d sim:w -c 'sim scenario mix load 60 seed 3' >/dev/null
"$BIN" -d sim:w -j -c 'sim run 2ms; sim run 2ms' >"$tmp/two.json"
"$BIN" -d sim:w -j -c 'sim run 4ms' | tail -n 1 >"$tmp/one.json"
sed -n 1p "$tmp/two.json" >"$tmp/w1.json"
sed -n 2p "$tmp/two.json" >"$tmp/w2.json"
check "second window starts" 2 "$(jget t0_ms <"$tmp/w2.json")"
for k in events pauses drops rto; do
	a=$(jget $k <"$tmp/w1.json")
	b=$(jget $k <"$tmp/w2.json")
	check "$k add up" "$(jget $k <"$tmp/one.json")" "$((a + b))"
done
[ "$(jget pauses <"$tmp/w2.json")" -gt 0 ] ||
	{ echo "sim2_window: no pauses in the second window"; fail=1; }
# FCT flows: those of each window, none counted twice
fl() { grep -o '"flows":[0-9]*' "$1" | sed 1d | cut -d: -f2 |
	awk '{ n += $1 } END { print n + 0 }'; }
f1=$(fl "$tmp/w1.json"); f2=$(fl "$tmp/w2.json"); f=$(fl "$tmp/one.json")
[ "$f1" -gt 0 ] && [ "$f2" -gt 0 ] && [ $((f1 + f2)) -le "$f" ] ||
	{ echo "sim2_window: FCT flows $f1 + $f2, one run $f"; fail=1; }
exit $fail
