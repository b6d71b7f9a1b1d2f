#!/bin/sh
# Two threads, one run (issue 34 item 7, src/sim/par.c): `sim run ...
# threads 2` prints, to the byte, what `threads 1` prints, and so do
# `sim show`, `sim show fct` and the algorithm's counters after it
# (JSON and text): a 64-host leaf-spine WebSearch mix under ZTR-RTT and
# DCQCN, and a mix with a periodic 16:1 incast under PFC (its pauses
# cross the cut).  Refused in one line, exit 1, the fabric left as it
# was: threads 0, 3 and x, threads 2 on a collective (fresh or run), an
# incast, with an output file.  One thread and two in turns on one
# fabric give one thread's run.  tests/test_simpar.c compares the
# fabrics' state itself, and that a refused fabric keeps its time.
. "$(dirname "$0")/lib.inc"
MIX="sim scenario mix leaves 8 spines 8 hosts 8 load 50"
INC="sim scenario mix leaves 8 spines 4 hosts 8 load 30 incast_period 200us incast_senders 16 incast_size 64KB"
ZTR="algo debug on"		# counters on: counter show after the run
DCQ="algo disable 0; algo enable 2"
n=0
for case in "$MIX|$ZTR" "$MIX|$DCQ" "$INC|$ZTR"; do
	sc=${case%%|*} al=${case#*|}
	n=$((n + 1))
	for t in 1 2; do
		for j in -j ""; do
			ctr=
			[ "$al" = "$ZTR" ] && ctr="; counter show"
			"$BIN" -d sim:par$n$t -y $j -c "$al; $sc; sim run 1ms threads $t; sim show; sim show fct$ctr" \
				>"$tmp/o$n$t$j" 2>&1
			check "case $n, threads $t$j: rc" 0 $?
		done
	done
	cmp -s "$tmp/o${n}1-j" "$tmp/o${n}2-j" ||
		{ echo "par: case $n ($sc; $al): JSON differs"; diff "$tmp/o${n}1-j" "$tmp/o${n}2-j" | head -5; fail=1; }
	cmp -s "$tmp/o${n}1" "$tmp/o${n}2" ||
		{ echo "par: case $n ($sc; $al): text differs"; diff "$tmp/o${n}1" "$tmp/o${n}2" | head -5; fail=1; }
	# something ran: flows finished, events counted
	grep -q '"fct":\[{' "$tmp/o${n}1-j" || { echo "par: case $n: no FCTs"; fail=1; }
done
grep -q '"pauses":[1-9]' "$tmp/o31-j" || { echo "par: the incast case paused nothing"; fail=1; }

# refused: one line, exit 1, nothing run
refused() {	# NAME COMMANDS EXPECTED-MESSAGE
	"$BIN" -d sim:bad -y -c "$2; sim show" >"$tmp/b.out" 2>"$tmp/b.err"
	check "$1: rc" 1 $?
	check "$1: one line" 1 "$(wc -l <"$tmp/b.err")"
	grep -q "$3" "$tmp/b.err" || { echo "par: $1: $(cat "$tmp/b.err")"; fail=1; }
}
refused "threads 0" "$MIX; sim run 10us threads 0" "bad threads '0': 1 or 2"
refused "threads 3" "$MIX; sim run 10us threads 3" "bad threads '3': 1 or 2"
refused "threads x" "$MIX; sim run 10us threads x" "bad threads 'x': 1 or 2"
refused "collective" "sim scenario allreduce; sim run 10us threads 2" "threads 2 runs a permutation or mix only (this is allreduce)"
refused "incast" "sim scenario incast; sim run 10us threads 2" "threads 2 runs a permutation or mix only (this is incast)"
refused "output" "$MIX; sim run 10us threads 2 flows $tmp/f.csv" "threads 2 writes no trace, flows or pcap output"
[ -e "$tmp/f.csv" ] && { echo "par: a refused run wrote its flows file"; fail=1; }
# a collective that ran: refused, and left at its time
"$BIN" -d sim:bad -y -c "sim scenario allreduce; sim run 10us; sim run 10us threads 2; sim show" >"$tmp/r.out" 2>"$tmp/r.err"
check "run collective: rc" 1 $?
grep -q "threads 2 runs a permutation or mix only (this is allreduce)" "$tmp/r.err" || { echo "par: run collective: $(cat "$tmp/r.err")"; fail=1; }
"$BIN" -d sim:bad -y -c "sim scenario allreduce; sim run 10us" >"$tmp/r1.out" 2>&1
check "run collective: the first run's output alone" "$(cat "$tmp/r1.out")" "$(cat "$tmp/r.out")"
# one thread and two in turns on one fabric (the halves join after a
# two-thread run; a two-thread run splits the fabric as it stands, the
# incast's pauses under way), as one thread all along
for sc in "$MIX" "$INC"; do
	for t in 1 2; do
		"$BIN" -d sim:on$t -y -j -c "$sc; sim run 300us threads $t; sim run 300us; sim run 200us threads $t; sim run 200us threads $t; sim show; sim show fct" \
			>"$tmp/on$t" 2>&1
		check "in turns ($sc), threads $t: rc" 0 $?
	done
	cmp -s "$tmp/on1" "$tmp/on2" ||
		{ echo "par: in turns ($sc): differs"; diff "$tmp/on1" "$tmp/on2" | head -5; fail=1; }
done
"$BIN" -d sim:bad -y -j -c "$MIX; sim run 10us threads 2; sim reset; sim run 10us threads 2" >/dev/null 2>&1
check "reset: runs again" 0 $?
exit $fail
