#!/bin/sh
# The tuning loop closes (#33), end to end on sim devices: debug on ->
# tune (small budget) -> tune apply -> debug off carry -> profile save ->
# profile apply --check (changed:true) on three fresh devices in
# deployment mode -> apply -> the active slot of each runs the tuned
# values -> a second apply is changed:false -> profile diff exits 0 ->
# journal undo of the rollout restores the originals.  Then the same
# with `tune profile` (a deployment profile from a tune that ran in
# slot 1), and `tune verify` on a NIC says which slot it measured.
. "$(dirname "$0")/lib.inc"
R="-d sim:ref"
vals() { "$BIN" "$@" -j param get ALPHA AI | grep -o '"raw":[0-9]*' | cut -d: -f2 | tr '\n' ' '; }
active() { "$BIN" "$@" -j algo list | tr '{' '\n' | grep '"active":true' | sed 's/.*"slot":\([0-9]*\).*/\1/'; }

"$BIN" $R -y algo debug on >/dev/null
check "debug on" 1 "$(active $R)"
"$BIN" $R tune ALPHA 0.2:0.5 AI 5:100 minimize rtt_p99 for 1ms \
	scenario incast senders 8 seeds 1 budget 12 runs into t >/dev/null 2>&1
check "tune rc" 0 $?
best=$("$BIN" $R -j tune show t | sed 's/.*"best":{\([^}]*\)}.*/\1/')
ba=$(printf '%s' "$best" | sed 's/.*"ALPHA":\([0-9.e+-]*\).*/\1/')
bi=$(printf '%s' "$best" | sed 's/.*"AI":\([0-9.e+-]*\).*/\1/')
out=$("$BIN" $R -y tune apply t 2>&1)
check "tune apply rc" 0 $?
case $out in *"written to slot 1"*) ;; *) echo "loop: tune apply: $out"; fail=1 ;; esac
tuned=$(vals $R)
check "slot 1 runs the best" "$ba $bi" "$("$BIN" $R -j param get ALPHA AI | grep -o '"value":[0-9.e+-]*' | cut -d: -f2 | tr '\n' ' ' | sed 's/ $//')"
out=$("$BIN" $R -y algo debug off carry)
check "debug off carry rc" 0 $?
check "deployment: slot 0 active" 0 "$(active $R)"
check "slot 0 carries the tuning" "$tuned" "$(vals $R)"
"$BIN" $R profile save roll >/dev/null
check "profile save rc" 0 $?

for h in h1 h2 h3; do
	H="-d sim:$h"
	orig=$(vals $H)
	check "$h: deployment mode" 0 "$(active $H)"
	out=$("$BIN" $H -j profile apply roll --check)
	case $out in *'"changed":true'*'"check":true'*) ;;
		*) echo "loop: $h --check: $out"; fail=1 ;; esac
	check "$h: --check wrote nothing" "$orig" "$(vals $H)"
	out=$("$BIN" $H -y -j profile apply roll 2>&1)
	case $out in *'"changed":true'*'"check":false'*) ;;
		*) echo "loop: $h apply: $out"; fail=1 ;; esac
	check "$h: active slot" 0 "$(active $H)"
	check "$h: the active slot runs the tuned values" "$tuned" "$(vals $H)"
	out=$("$BIN" $H -y -j profile apply roll)
	check "$h: again" '{"profile":"roll","changed":false,"writes":0,"check":false}' "$out"
	"$BIN" $H profile diff roll >/dev/null
	check "$h: diff exit" 0 $?
	"$BIN" $H -y journal undo last >/dev/null
	check "$h: undo rc" 0 $?
	check "$h: undo restores the originals" "$orig" "$(vals $H)"
done

# tune profile: a deployment profile from the tune that ran in slot 1
out=$("$BIN" $R tune profile t tp)
case $out in *"in slot 0 (ZTR_RTT, enabled; its debug build disabled)"*) ;;
	*) echo "loop: tune profile: $out"; fail=1 ;; esac
H="-d sim:h4"
"$BIN" $H -y algo debug on >/dev/null	# even from debug mode
out=$("$BIN" $H -y profile apply tp 2>&1)
case $out in *warning*) echo "loop: tune profile apply warned: $out"; fail=1 ;; esac
check "tp: slot 0 active" 0 "$(active $H)"
check "tp: slot 0 runs the tuned values" "$tuned" "$(vals $H)"

# tune verify on a "real" NIC (the fake mstreg over the sim firmware):
# in debug mode it says plainly it measured slot 1; off, slot 0 (with a
# column the host counts: avg_rtt comes from the debug build's counters)
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
FAKE="$O/tests/fake-mstreg"
[ -x "$FAKE" ] || { echo "loop: $FAKE not built"; exit 1; }
M="-d 0000:08:00.0 --backend mstreg --mstreg $FAKE"
export FAKE_MSTREG_SIM=nic
"$BIN" $M -y algo debug on >/dev/null
out=$("$BIN" $M -y tune verify t while 'sleep 4.321' for 200ms every 100ms rounds 1 2>/dev/null)
check "verify in debug mode rc" 0 $?
case $out in *"measured on slot 1 (ZTR_RTT_DEBUG), NOT the deployment slot 0 (ZTR_RTT): the debug build"*) ;;
	*) echo "loop: verify slot 1: $out"; fail=1 ;; esac
"$BIN" $M -y algo debug off discard >/dev/null
out=$("$BIN" $M -y tune verify t while 'sleep 4.321' for 200ms every 100ms rounds 1 measure rx_gbps_mean 2>/dev/null)
check "verify on slot 0 rc" 0 $?
case $out in *"measured on slot 0 (ZTR_RTT): the deployment slot, where it runs in production"*) ;;
	*) echo "loop: verify slot 0: $out"; fail=1 ;; esac
exit $fail
