#!/bin/sh
# Two threads, one run (issue 34 item 7, src/sim/par.c): the wall clock of
# `sim run 2ms` on the 1024-host case (leaf-spine 32 x 32 x 32, 400G,
# WebSearch at 50 %) with threads 1 and threads 2, in pairs (1 2 1 2 ...,
# so a drift of the machine's speed hits both alike), and the ratio per
# pair; each pair's outputs must be the same bytes (exit 1 if not).
# Target: a median ratio >= 1.7 on two quiet cores (the cut's balance
# bound is 1.97x: tests/tools/par-study.md); a loaded machine, whose
# other jobs take a core from either thread at times, cannot show it.
# BENCH_FULL=1: 20 ms instead of 2.  BENCH_PAR_PAIRS: pairs (3).
# Run by `make bench`.
#
# Recorded 2026-11-28 on this project's VM (AMD EPYC, 2 vCPUs, shared
# with other sessions), 2 ms, 82.5 M events:
#   load 1.1-1.2 (another job beside it): threads 1 7.6-8.8 s wall,
#   threads 2 4.5-5.3 s wall, 1.65-1.70x per pair, median 1.65x; CPU
#   of both threads 1.14-1.16x one thread's (barrier spins included)
#   before the mail boxes had cache lines of their own (a box's count,
#   written at every crossing, shared a line with the other thread's),
#   load 1-13: 0.85-1.2x, CPU 1.4-1.7x one thread's
#   again after the merge into main, nothing else running (load 0.3
#   before), 5 pairs, whole-process figures: threads 1 8.6-11.4 s
#   wall (median 10.2), threads 2 6.5-9.2 s (median 6.9), 1.22-1.60x
#   per pair, median 1.32x; CPU of both threads 1.27x one thread's.
#   The 1.7x target was not met reliably on this VM: the ratio swung
#   1.2-1.7x from one hour to the next (two vCPUs of a shared host).
#   instructions (cachegrind, 256 hosts, 300 us): 822 M one thread,
#   883 M two (+7.5 %: the second fabric's build, the mail, the crossing
#   arrivals through the timing wheel instead of a lane)
# Recorded 2026-11-28 (session 15), after the hand-over was made cheap
# (mail lanes, a stack of free packet slots: tests/tools/par-study.md),
# nothing else running:
#   2 ms, 5 pairs: threads 1 8.2-12.9 s, threads 2 4.2-5.4 s, 1.60-2.46x
#   per pair, median 1.96x; an hour later 7.6-11.1 s against 5.1-5.6 s,
#   1.43-2.17x, median 1.65x (one thread's time swings most)
#   20 ms (BENCH_FULL=1): 148.3 s against 73.4 s, 2.02x (one pair); an
#   hour later, the whole VM a third slower, 202.8 / 116.4 s and 196.0 /
#   113.7 s, 1.74x and 1.72x, median 1.72x; the two threads' CPU
#   1.06x one thread's
set -u
BIN=${BIN:?BIN must name the pccbench binary}
MS=2
[ "${BENCH_FULL:-0}" = 1 ] && MS=20
PAIRS=${BENCH_PAR_PAIRS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data" XDG_CACHE_HOME="$tmp/cache"
SC="mix leaves 32 spines 32 hosts 32 load 50"

. "$(dirname "$0")/cpu.inc"

now() { date +%s.%N; }

one() {	# threads -> "wall cpu", output in $tmp/o$1
	t0=$(now)
	c=$(XDG_STATE_HOME="$tmp/s$1" cpu_of "$BIN" -j -c \
		"sim scenario $SC; sim run ${MS}ms threads $1")
	t1=$(now)
	cp "$tmp/out" "$tmp/o$1"
	echo "$t0 $t1 $c" | awk '{ printf "%.2f %.2f\n", $2 - $1, $3 }'
}

bad=0
i=0
: >"$tmp/ratios"
echo "bench-par: 1024 hosts ($SC), ${MS} ms, $PAIRS pairs; load: $(cut -d' ' -f1-3 /proc/loadavg)"
while [ $i -lt "$PAIRS" ]; do
	i=$((i + 1))
	a=$(one 1)
	b=$(one 2)
	[ -e "$tmp/failed" ] && { echo "bench-par: a run failed: $(tail -n 1 "$tmp/out")"; exit 1; }
	cmp -s "$tmp/o1" "$tmp/o2" || { echo "bench-par: pair $i: threads 2 printed other bytes than threads 1"; bad=1; }
	set -- $a $b
	r=$(awk -v a="$1" -v b="$3" 'BEGIN { printf "%.2f", a / b }')
	echo "$r" >>"$tmp/ratios"
	echo "  pair $i: threads 1 $1 s wall ($2 s CPU), threads 2 $3 s wall ($4 s CPU): ${r}x"
done
med=$(sort -n "$tmp/ratios" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
echo "bench-par: median speed-up ${med}x (target >= 1.7 on two quiet cores); load now: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $bad
