#!/bin/sh
# Telemetry contexts on the sim device, across processes as users run
# them: the adp_retx histogram counts exactly the simulator's
# retransmission timeouts, survives between pccbench runs, refuses
# reconfiguration while running and detects another process's change;
# `pcc` prints DOCA's telemetry_pcc report and BAD_STATE on disabled
# counters.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state"
sumcounts() {	# total of the "count" fields of a retx read
	tr '{' '\n' | sed -n 's/.*"count":\([0-9]*\).*/\1/p' |
		awk '{ s += $1 } END { print s + 0 }'
}

# a lossy incast: drops, then retransmission timeouts
"$BIN" -d sim:r -c 'sim scenario incast senders 8 pfc off size 1MB buffer 512KB timeout 8 adp_retx off' >/dev/null
"$BIN" -d sim:r -c 'retx config bins 6 bin0 100 bin1 100 unit usec mode double; retx start' >/dev/null
check "start exit" 0 $?
rto=$("$BIN" -d sim:r -j -c 'sim run 20ms' | jget rto)
[ "${rto:-0}" -gt 0 ] || { echo "tel: lossy incast gave no RTOs"; fail=1; }
# a new process attaches to the running histogram and reads it
"$BIN" -d sim:r -j -c 'retx read' >"$tmp/read.json"
check "bins = RTOs" "$rto" "$(sumcounts <"$tmp/read.json")"
check "open last bin" 1 "$(grep -c '"bin":5,"from":1600,"to":null' "$tmp/read.json")"
# a fixed QP timeout of 1.05 ms (8): the first timeouts fall in [800, 1599] us
first=$(tr '{' '\n' <"$tmp/read.json" | grep '"bin":4,' | sed -n 's/.*"count":\([0-9]*\).*/\1/p')
[ "${first:-0}" -gt 0 ] || { echo "tel: no RTO in the 1 ms bin"; fail=1; }

# running: reconfiguration refused, nothing changes
out=$("$BIN" -d sim:r -c 'retx config bins 3' 2>&1); rc=$?
check "config while running exit" 1 $rc
case "$out" in *"BAD_STATE"*"retx stop"*) ;;
	*) echo "tel: running config message: $out"; fail=1 ;; esac
check "still 6 bins" 6 "$("$BIN" -d sim:r -j -c 'retx config' | jget bins)"
out=$("$BIN" -d sim:r -c 'retx start' 2>&1); rc=$?
check "double start exit" 1 $rc

# another process reconfigures under a REPL's feet: detect says so
printf 'retx detect\nsleep 4s wall\nretx detect\nretx detect\n' |
	"$BIN" -d sim:r >"$tmp/detect.txt" 2>&1 &
pid=$!
# the REPL holds the device once it has answered its first command
i=0
while [ ! -s "$tmp/detect.txt" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
"$BIN" -d sim:r -c 'retx stop; retx config bins 4 unit msec; retx start' >/dev/null
wait $pid
check "detect sequence" "configuration unchanged|configuration changed by another process; now:|configuration unchanged" \
	"$(grep '^configuration' "$tmp/detect.txt" | paste -sd'|' -)"
grep -q 'histogram running: 4 bins.* msec' "$tmp/detect.txt" ||
	{ echo "tel: detect did not show the new config"; fail=1; }

# a bad value changes nothing, in any position
"$BIN" -d sim:r -c 'retx stop' >/dev/null
"$BIN" -d sim:r -c 'retx config bins 5 unit fortnight' >/dev/null 2>&1
check "bad unit exit" 1 $?
"$BIN" -d sim:r -c 'retx config bins 17' >/dev/null 2>&1
check "17 bins exit" 1 $?
check "config kept" 4 "$("$BIN" -d sim:r -j -c 'retx config' | jget bins)"
out=$("$BIN" -d sim:r -c 'retx stop' 2>&1 >/dev/null); rc=$?
check "stop when stopped exit" 0 $rc
check "stop when stopped note" "note: the histogram was not running" "$out"
# stopped: more RTOs do not count
before=$("$BIN" -d sim:r -j -c 'retx read' | sumcounts)
"$BIN" -d sim:r -c 'sim run 20ms' >/dev/null
check "stopped counts nothing" "$before" \
	"$("$BIN" -d sim:r -j -c 'retx read' | sumcounts)"

# pcc: the report; BAD_STATE until counters are on
"$BIN" -d sim:p -c 'pcc show' >"$tmp/pcc.txt"
check "slot 3 line" "Slot 3: ID bfff, version 0.01 - Rtt template v0.1, DOCA PCC reference RTT algorithm" \
	"$(grep '^Slot 3: ID' "$tmp/pcc.txt")"
check "empty slot" "Slot 15: Empty" "$(grep '^Slot 15:' "$tmp/pcc.txt")"
check "slot 0 status" "Slot 0: algo ENABLED, counters DISABLED" \
	"$(grep '^Slot 0: algo' "$tmp/pcc.txt")"
out=$("$BIN" -d sim:p -c 'pcc counters 0' 2>&1); rc=$?
check "disabled counters exit" 1 $rc
case "$out" in *"BAD_STATE"*) ;;
	*) echo "tel: pcc counters message: $out"; fail=1 ;; esac
"$BIN" -d sim:p -c 'algo debug on; sim run 2ms' >/dev/null
num=$("$BIN" -d sim:p -j -c 'pcc counters' | tr '{' '\n' |
	grep 'ZTR_CC_NUM_RTT' | jget value)
[ "${num:-0}" -gt 0 ] || { echo "tel: no RTT samples counted"; fail=1; }
"$BIN" -d sim:p -c 'pcc clear' >/dev/null
num=$("$BIN" -d sim:p -j -c 'pcc counters' | tr '{' '\n' |
	grep 'ZTR_CC_NUM_RTT' | jget value)
check "cleared" 0 "$num"
grep -q "Number of counters found is" "$tmp/pcc.txt" &&
	{ echo "tel: counters printed while disabled"; fail=1; }
"$BIN" -d sim:p -c 'pcc show' | grep -q '^Counter 10: 0  - ZTR_CC_NUM_RTT' ||
	{ echo "tel: pcc show lacks the counter lines"; fail=1; }
exit $fail
