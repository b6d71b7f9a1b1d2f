#!/bin/sh
# make-corpus.sh [PCCBENCH] - (re)write the seeds of tests/fuzz/corpus/
# that pccbench itself produces, after a format change:
#   - state and data files from real runs of PCCBENCH (default
#     build-fuzz/san/pccbench, else ./pccbench) on sim devices, with the
#     XDG directories in a temp dir (a sanitized pccbench of the current
#     sources: make SANITIZE=address,undefined O=build-fuzz/san WERROR=
#     build-fuzz/san/pccbench);
#   - the replies of the sim device as fwctl/mstreg would give them, and
#     the info cache of a "real" NIC, from the harnesses (FZ_SEEDS=DIR;
#     make fuzz-build first).
# Hand-written edge seeds (named edge-*) are kept.  Checksum lines and
# tails are taken off text files: the harnesses add them (fuzz.h).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
C="$top/tests/fuzz/corpus"
B="${FUZZ_O:-$top/build-fuzz}"
P=${1:-}
if [ -z "$P" ]; then
	P="$B/san/pccbench"
	[ -x "$P" ] || P="$top/pccbench"
fi
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export XDG_STATE_HOME="$t/state" XDG_CACHE_HOME="$t/cache" \
	XDG_DATA_HOME="$t/data" HOME="$t" PCCBENCH_GNUPLOT=/bin/false \
	PCCBENCH_DATADIR="$top"
S="$t/state/pccbench"
D="$t/data/pccbench"
pcb() { "$P" "$@" >/dev/null; }
# fresh: nothing but the first open; b: a busy device
pcb -d sim:a -c 'algo list; retx read; diag show; sim scenario'
pcb -d sim:b -y -c 'param set ALPHA 0.3; param set slot 2 rpg_gd 9;
	algo enable 1 counters; retx config bins 4 unit usec mode fixed;
	retx start; diag config period 10us samples 4;
	diag ids apply port_0_rx_bytes,port_0_tx_bytes,port_0_rx_packets;
	diag start; sim scenario incast senders 16 loss 0.01;
	sim model target flow; sim run 300us; diag read 2'
pcb -d sim:c -y -c 'algo list; algo enable 2 counters; algo disable 0;
	retx config bins 16 unit msec vhca 7 clear on; retx start;
	diag config mode single samples 2 timestamp frc format 2;
	diag ids apply port_0_tx_bytes; diag start;
	sim scenario mix leaves 2 spines 2 hosts 2 load 50 dist hadoop;
	sim run 200us'
pcb -d sim:d -c 'sim scenario staircase senders 4 step 100us ack_every 2'
pcb -d sim:b -c 'record for 1ms every 100us into r1'
pcb -d sim:b -c 'record for 500us every 100us into r2 clear on'
pcb -d sim:b -c 'sweep ALPHA 0.1,0.2 for 100us warmup 10us repeat 2 into s1'
pcb -d sim:b -c 'sweep ALPHA 0.1,0.3 MAX_DEC 0.8,0.9 for 50us warmup 10us
	measure util,avg_rtt into s2'
pcb -d sim:a -c 'diag ids export '"$t"'/ids.json'

put() {	# put HARNESS NAME FILE
	mkdir -p "$C/$1"
	cp "$3" "$C/$1/$2"
	chmod 644 "$C/$1/$2"
}
untail() {	# text without the " crc=..." tails and "crc ..." line
	sed -e 's/ crc=[0-9a-f]\{8\}$//' -e '/^crc [0-9a-f]\{8\}$/d' "$1"
}
for d in a b c; do
	put simfw "$d.dev" "$S/sim/$d.dev"
	put retx "$d.retx" "$S/sim/$d.retx"
	put diag_state "$d.diag" "$S/sim/$d.diag"
done
for d in a b c d; do
	[ -f "$S/sim/$d.scenario" ] || continue
	mkdir -p "$C/scenario"
	untail "$S/sim/$d.scenario" >"$C/scenario/$d"
done
mkdir -p "$C/journal"
untail "$S/journal/sim_b.log" >"$C/journal/b"
untail "$S/journal/sim_c.log" >"$C/journal/c"
put series r1 "$D/series/r1.csv"
put series r2 "$D/series/r2.csv"
put diag_ids default.json "$t/ids.json"
mkdir -p "$C/sweep"
for s in s1 s2; do
	{ untail "$D/sweeps/$s/sweep.args"; printf '\0';
	  cat "$D/sweeps/$s/results.csv"; } >"$C/sweep/$s"
done
{ untail "$D/sweeps/s1/sweep.args"; printf '\0';
  cat "$D/sweeps/s1/results.csv"; printf '\0';
  printf 'best max util where avg_rtt < 1e9 and ALPHA >= 0.1'; } \
	>"$C/sweep/s1-best"

# from the harnesses
for h in fwctl mstreg cache; do
	if [ ! -x "$B/fuzz_$h" ]; then
		echo "no $B/fuzz_$h: make fuzz-build" >&2
		exit 1
	fi
	mkdir -p "$C/$h"
	find "$C/$h" -type f ! -name 'edge-*' -delete
	FZ_SEEDS="$C/$h" "$B/fuzz_$h" >/dev/null 2>&1
done
echo "seeds in $C"
