#!/bin/sh
# The simulator behind the sim device: the scenario persists across
# processes, traffic fills the device's PCC counters (debug slot), bad keys
# are refused with the valid ones listed, and runs are deterministic.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state"

"$BIN" -d sim:a -c 'sim scenario incast senders 8 rate 200g seed 3' >/dev/null
check "scenario persists" "incast senders 8 start sync size 0 rate 200g" \
	"$("$BIN" -d sim:a -c 'sim scenario' | head -n 1 | cut -d' ' -f1-9)"
out=$("$BIN" -d sim:a -c 'sim scenario incast senders 8 bogus 1' 2>&1); rc=$?
check "bad key exit" 1 $rc
case "$out" in *"no key 'bogus'; valid keys: senders"*) ;;
	*) echo "sim: bad key message: $out"; fail=1 ;; esac
check "scenario unchanged" "incast senders 8 start sync size 0 rate 200g" \
	"$("$BIN" -d sim:a -c 'sim scenario' | head -n 1 | cut -d' ' -f1-9)"
"$BIN" -d sim:a -c 'sim run 10furlongs' >/dev/null 2>&1
check "bad duration exit" 1 $?

# counters: the debug slot counts; the deployment slot has none
"$BIN" -d sim:a -c 'algo debug on' >/dev/null
"$BIN" -d sim:a -j -c 'sim run 2ms' >"$tmp/run.json"
num=$("$BIN" -d sim:a -j -c 'counter show' | tr '{' '\n' |
	grep '"ZTR_CC_NUM_RTT"' | jget value)
sum=$("$BIN" -d sim:a -j -c 'counter show' | tr '{' '\n' |
	grep '"ZTR_CC_SUM_RTT"' | jget value)
avg=$("$BIN" -d sim:a -j -c 'counter show' | jget avg_rtt_ns)
# the summary counts late answers too (issue 23, bug 9); the algorithm
# took those in time
samples=$(jget rtt_samples <"$tmp/run.json")
late=$(jget rtt_late <"$tmp/run.json")
check "NUM_RTT = probes answered in time" "$((samples - late))" "$num"
[ "${num:-0}" -gt 100 ] || { echo "sim: NUM_RTT $num"; fail=1; }
awk -v s="$sum" -v n="$num" -v a="$avg" \
	'BEGIN { exit !(n > 0 && (s / n - a < 1 && a - s / n < 1)) }' ||
	{ echo "sim: avg $avg != $sum/$num"; fail=1; }
# a second process continues the counters (a fresh fabric)
"$BIN" -d sim:a -c 'sim run 1ms' >/dev/null
num2=$("$BIN" -d sim:a -j -c 'counter show' | tr '{' '\n' |
	grep '"ZTR_CC_NUM_RTT"' | jget value)
[ "${num2:-0}" -gt "$num" ] || { echo "sim: counters did not grow"; fail=1; }
"$BIN" -d sim:a -c 'counter clear' >/dev/null
check "cleared" 0 "$("$BIN" -d sim:a -j -c 'counter show' | tr '{' '\n' |
	grep '"ZTR_CC_NUM_RTT"' | jget value)"
# NIC counters: priorities add up, CNPs sent >= handled
"$BIN" -d sim:c -j -c 'sim run 1ms; sim counters' | tail -n 1 | tr '{' '\n' >"$tmp/c.txt"
cval() { grep "\"$1\"" "$tmp/c.txt" | jget value; }
check "priorities add up" "$(cval rx_bytes_phy)" \
	"$(( $(cval rx_prio3_bytes) + $(cval rx_prio6_bytes) ))"
[ "$(cval np_cnp_sent)" -ge "$(cval rp_cnp_handled)" ] ||
	{ echo "sim: cnp sent < handled"; fail=1; }
# a trace: one row per interval plus the header, units in it
"$BIN" -d sim:c -c "sim run 500us trace $tmp/t.csv every 10us" >/dev/null
check "trace rows" 51 "$(wc -l <"$tmp/t.csv")"
check "trace header" "t_us,queue_max_bytes,rate_mean_gbps,rate_min_gbps,rate_max_gbps,rtt_mean_us,rtt_samples,rx_gbps" \
	"$(head -n 1 "$tmp/t.csv" | tr -d '\r')"
"$BIN" -d sim:c -c "sim run 1ms trace $tmp/no/such/dir.csv" 2>/dev/null
check "unwritable trace exit" 1 $?	# no such directory: bad input
# determinism across processes
a=$("$BIN" -d sim:b -j -c 'sim scenario incast senders 4 start jitter seed 9; sim run 1ms' | tail -n 1)
b=$("$BIN" -d sim:b -j -c 'sim run 1ms' | tail -n 1)
check "same seed, same run" "$a" "$b"
# sleep on the sim device is simulated time: the window grows by it
out=$("$BIN" -d sim:c -j -c 'sim run 1ms; sleep 2ms; sim show' | tail -n 1)
check "sleep: window start" 0 "$(printf '%s' "$out" | jget t0_ms)"
check "sleep: window end" 3 "$(printf '%s' "$out" | jget t1_ms)"
# bench sim: the standard case's own numbers (its timing is make bench's)
out=$("$BIN" -d sim:b -j bench sim)
check "bench: events of the standard case" 988909 "$(printf '%s' "$out" | jget events)"
check "bench: against itself" 1 "$(printf '%s' "$out" | jget ns_per_event_vs_standard)"
case "$(printf '%s' "$out" | jget events_per_bottleneck_pkt)" in 8.3*) ;;
	*) echo "sim: bench: events per bottleneck packet: $out"; fail=1 ;; esac
exit $fail
