#!/bin/sh
# Collective workloads through the command line (issue 34, item 8): an
# all-reduce's figures in `sim run`'s JSON (completion time, nccl-tests'
# algbw and busbw, each collective's time), the scenario kept across
# processes, a sweep measuring coll_time and busbw (none for a point with
# a seed whose collective is not done in time), and bad input refused in
# one line with nothing changed.
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
# none done in the window: no time or bandwidth, not 0
out=$("$BIN" -d sim:c -y -j -c "sim run 100us" | tail -n 1)
case "$out" in *'"collectives":0,"coll_mean_us":null,"coll_min_us":null,"coll_max_us":null,"algbw_gbps":null,"busbw_gbps":null,"coll_times_us":[]}') ;;
*) echo "sim3_coll: none done: $out"; fail=1 ;; esac
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
out=$("$BIN" -d sim:c -c "sim scenario allreduce ranks 4 size 1MB ranks 2" 2>&1); rc=$?
check "a key twice rc" 1 "$rc"
check "a key twice" "error: sim: 'ranks' given twice ('4', then '2')" "$out"
out=$("$BIN" -d sim:c -c "sim scenario")
case "$out" in "allreduce ranks 8 size 8MB algo ring iters 2 "*) ;;
*) echo "sim3_coll: unchanged: $out"; fail=1 ;; esac
# a sweep measures the collective
"$BIN" -d sim:c -y -c "algo disable 0; algo enable 2; sweep rpg_ai_rate 5m,50m for 3ms measure coll_time,busbw scenario allreduce $sc into coll" >/dev/null ||
	{ echo "sim3_coll: sweep failed"; fail=1; }
n=$("$BIN" -d sim:c -c "sweep show coll" | awk '$3 ~ /^1240\.7/' | wc -l)
check "sweep rows" 2 "$n"
# a collective's measure on a scenario without collectives: refused in
# one line, no sweep made (it gave '-' at every point)
for m in coll_time busbw; do
	out=$("$BIN" -d sim:c -y -c "sweep rpg_ai_rate 5m,50m for 20us measure util,$m scenario mix leaves 2 spines 2 hosts 2 into nocoll" 2>&1)
	check "$m on a mix rc" 1 $?
	check "$m on a mix" "error: sweep: $m is a collective's (scenario allreduce or alltoall), and this scenario is mix" "$out"
done
[ -e "$XDG_DATA_HOME/pccbench/sweeps/nocoll" ] && { echo "sim3_coll: a refused sweep left its folder"; fail=1; }
# the kind in any case, as the sim device reads it: not refused
"$BIN" -d sim:c -y -c "sweep rpg_ai_rate 5m for 20us measure coll_time scenario AllReduce ranks 2 size 64KB into anycase" >/dev/null 2>&1
check "AllReduce rc" 0 $?
# a run whose collective is not done within its time has no coll_time:
# a point with such a seed has no mean (that of the seeds done would be
# of the quick ones), and a tune finds no best.  Here some seeds hash
# the 4 flows out of a leaf onto one of its 2 uplinks and take longer
# than 'for 80us'; the others are done.
sc="ranks 4 size 1MB leaves 2 hosts 2 spines 2 rate 100g"
seeds=1,2,3,4,5,6
times=$(for seed in 1 2 3 4 5 6; do
	"$BIN" -d sim:d -y -j -c "algo disable 0; algo enable 2; sim scenario alltoall $sc seed $seed; sim run 1ms" |
		tail -n 1 | jget coll_mean_us
done)
late=$(echo "$times" | awk '$1 > 80' | wc -l)
[ "$late" -gt 0 ] && [ "$late" -lt 6 ] ||
	{ echo "sim3_coll: no mix of seeds done and not in 80us: $times"; fail=1; }
"$BIN" -d sim:d -y -c "sweep rpg_ai_rate 5m for 80us seeds $seeds measure coll_time,busbw,util scenario alltoall $sc into late" >/dev/null 2>&1 ||
	{ echo "sim3_coll: sweep late failed"; fail=1; }
out=$("$BIN" -d sim:d -j -c "sweep show late" 2>/dev/null)
case "$out" in *'"n":6,"coll_time":null,"coll_time_ci95":null,"busbw":null,"busbw_ci95":null,"util":0.'*) ;;
*) echo "sim3_coll: a point with a seed not done: $out"; fail=1 ;; esac
# done on every seed: the mean of all six
"$BIN" -d sim:d -y -c "sweep rpg_ai_rate 5m for 1ms seeds $seeds measure coll_time scenario alltoall $sc into done" >/dev/null 2>&1 ||
	{ echo "sim3_coll: sweep done failed"; fail=1; }
check "mean of every seed" "$(echo "$times" | awk '{ s += $1 } END { printf "%.3f", s / NR }')" \
	"$("$BIN" -d sim:d -j -c "sweep show done" 2>/dev/null | jget coll_time | awk '{ printf "%.3f", $1 }')"
out=$("$BIN" -d sim:d -y -c "tune rpg_ai_rate 5m:50m minimize coll_time for 80us scenario alltoall $sc seeds $seeds budget 36 runs into late" 2>&1 >/dev/null)
check "tune without a value rc" 1 $?
case "$out" in "error: tune: no point has a value of coll_time on each of its runs"*) ;;
*) echo "sim3_coll: tune: $out"; fail=1 ;; esac
# and `tune show` says so: no value, not a constraint missed, not nan
out=$("$BIN" -d sim:d -c "tune show late" 2>&1)
case "$out" in *"  no evaluated point has a value of coll_time on each of its runs"*) ;;
*) echo "sim3_coll: tune show: $out"; fail=1 ;; esac
case "$out" in *"coll_time none (not on every run)  INFEASIBLE"*) ;;
*) echo "sim3_coll: tune show, the default: $out"; fail=1 ;; esac
case "$out" in *nan*) echo "sim3_coll: tune show prints nan: $out"; fail=1 ;; esac
exit $fail
