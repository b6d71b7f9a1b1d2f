#!/bin/sh
# A profile or a tune file naming a param twice (#31 item 5) is refused on
# load with one line naming the line of the second, and nothing written:
# before, the last value was written with rc 0 (or "device ignored").
. "$(dirname "$0")/lib.inc"
S="-d sim:dup"
P="$XDG_DATA_HOME/pccbench/profiles"
T="$XDG_DATA_HOME/pccbench/tunes"
writes() { "$BIN" $S -j journal show | grep -o '"seq":' | wc -l; }

"$BIN" $S profile save two slot all >/dev/null
check "save rc" 0 $?
n0=$(writes)
# slot 1's ALPHA twice (slot 0 has one too): the second says 0.9
awk '/"slot":1,/ { s = 1 } { print }
	s && /"name":"ALPHA"/ && !d {
		sub(/"value":[0-9.]*,"raw":[0-9]*/, "\"value\":0.9,\"raw\":58982")
		print; d = 1 }' "$P/two.json" >"$tmp/dup.json"
first=$(grep -n '"name":"ALPHA"' "$tmp/dup.json" | sed -n 2p | cut -d: -f1)
second=$(grep -n '"name":"ALPHA"' "$tmp/dup.json" | sed -n 3p | cut -d: -f1)
check "dup lines" $((first + 1)) "$second"
for v in "apply" "show" "diff" "export"; do
	case $v in
	apply) out=$("$BIN" $S profile apply "$tmp/dup.json" --check 2>&1) ;;
	export) out=$("$BIN" $S profile export "$tmp/dup.json" --as mstreg 2>&1) ;;
	*) out=$("$BIN" $S profile $v "$tmp/dup.json" 2>&1) ;;
	esac
	check "profile $v (first) rc" 1 $?
	check "profile $v (first)" "error: $tmp/dup.json:$second: slot 1: param 'ALPHA' a second time (first at line $first)" "$out"
	[ $v = apply ] || continue
	out=$("$BIN" $S profile $v "$tmp/dup.json" 2>&1)
	check "profile $v rc" 1 $?
	check "profile $v" "error: $tmp/dup.json:$second: slot 1: param 'ALPHA' a second time (first at line $first)" "$out"
done
check "profile: nothing written" "$n0" "$(writes)"
check "slot 1 ALPHA" "0.1" "$("$BIN" $S param get slot 1 ALPHA | awk '$1 == "ALPHA" {print $2}')"

# a tune whose tune.json names ALPHA twice (AI renamed)
"$BIN" $S tune ALPHA 0.02:0.5 AI 1:100 minimize rtt_p99 for 1ms \
	scenario incast senders 8 seeds 1 budget 12 runs into t >/dev/null 2>&1
check "tune rc" 0 $?
sed 's/"name":"AI"/"name":"ALPHA"/' "$T/t/tune.json" >"$tmp/j"
cat "$tmp/j" >"$T/t/tune.json"
for v in show apply resume plot profile; do
	out=$("$BIN" $S tune $v t 2>&1)
	check "tune $v rc" 1 $?
	check "tune $v" "error: '$T/t/tune.json' line 1: param 'ALPHA' a second time (first at line 1)" "$out"
done
check "tune: nothing written" "$n0" "$(writes)"
exit $fail
