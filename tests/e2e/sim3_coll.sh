#!/bin/sh
# Collective workloads through the command line (issue 34, item 8): an
# all-reduce's figures in `sim run`'s JSON (completion time, nccl-tests'
# algbw and busbw, each collective's time), the scenario kept across
# processes, a sweep measuring coll_time and busbw, and bad input refused
# in one line with nothing changed.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state"
sc="ranks 8 size 8MB iters 2 leaves 2 hosts 4 rate 100g"
out=$("$BIN" -d sim:c -y -j -c "algo disable 0; algo enable 2; sim scenario allreduce $sc; sim run 5ms" |
	tail -n 1)
check "collectives" 2 "$(echo "$out" | jget collectives)"
check "ring time" 1240.7 "$(echo "$out" | jget coll_mean_us | cut -c1-6)"
check "busbw" 94.6 "$(echo "$out" | jget busbw_gbps | cut -c1-4)"
case "$out" in *'"coll_times_us":[1240.7'*',1240.7'*']'*) ;;
*) echo "sim3_coll: times: $out"; fail=1 ;; esac
# the scenario persists; text names the figures
out=$("$BIN" -d sim:c -c "sim scenario")
case "$out" in "allreduce ranks 8 size 8MB algo ring iters 2 "*) ;;
*) echo "sim3_coll: scenario: $out"; fail=1 ;; esac
out=$("$BIN" -d sim:c -c "sim run 3ms" | grep '^collectives')
case "$out" in "collectives  2 done in the window: time mean 1240.70 us"*) ;;
*) echo "sim3_coll: text: $out"; fail=1 ;; esac
# bad input: one line, exit 1, the scenario unchanged
out=$("$BIN" -d sim:c -c "sim scenario allreduce ranks 32" 2>&1); rc=$?
check "too many ranks rc" 1 "$rc"
check "too many ranks" "error: sim: ranks 32 needs more hosts than the 8 there are (one rank a host: leaves x hosts, or a fat tree's k^3/4)" "$out"
out=$("$BIN" -d sim:c -c "sim scenario alltoall algo tree" 2>&1); rc=$?
check "alltoall algo rc" 1 "$rc"
case "$out" in "error: sim: alltoall has no key 'algo'"*) ;;
*) echo "sim3_coll: alltoall algo: $out"; fail=1 ;; esac
out=$("$BIN" -d sim:c -c "sim scenario")
case "$out" in "allreduce ranks 8 size 8MB algo ring iters 2 "*) ;;
*) echo "sim3_coll: unchanged: $out"; fail=1 ;; esac
# a sweep measures the collective
"$BIN" -d sim:c -y -c "algo disable 0; algo enable 2; sweep rpg_ai_rate 5m,50m for 3ms measure coll_time,busbw scenario allreduce $sc into coll" >/dev/null ||
	{ echo "sim3_coll: sweep failed"; fail=1; }
n=$("$BIN" -d sim:c -c "sweep show coll" | awk '$3 ~ /^1240\.7/' | wc -l)
check "sweep rows" 2 "$n"
exit $fail
