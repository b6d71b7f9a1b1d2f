#!/bin/sh
# pccbench against htsim (issue #23, Speed): bottleneck packets per CPU
# second on the same N:1 incasts (1 KB MTU, 1 us links, 32 MB buffer,
# 100 ms simulated, long-lived flows): 64:1 and 256:1 at 100G, 256:1 at
# 400G.  Each figure is the best of 3 runs (CPU time of the process, user
# + system).  Issue 34 retired the ">= 3x htsim" of issue 23 (pccbench
# models RoCE's control traffic, one ACK and ~0.9 CNP per data packet at
# 256:1, which htsim's DCTCP dumbbell does not) and keeps these as
# guards against a regression: >= 1.0x htsim at 64:1/100G and
# 256:1/400G, >= 0.8x at 256:1/100G; each line says PASS or FAIL, and
# the script exits 1 when one fails with htsim measured side by side
# (against the recorded figures it only says so).  Side by side on
# 2026-11-27 (the VM busy, htsim built from HTSIM_DIR): 256:1/100G was
# below its guard with this branch (0.51x) and with the main branch it
# started from (0.59x), as on 2026-11-24 (0.57x): not a regression, a
# guard pccbench does not meet yet (~11 events per bottleneck packet to
# htsim's ~6); 64:1/100G 0.67x and 1.37x, 256:1/400G 1.11x and 1.77x, in
# turns: the VM's swing.  (The leaf-spine comparison, the
# same flows in both, is bench-htsim-ls.sh.)
#
# htsim (github.com/Broadcom/csg-htsim) is C++ and no dependency of ours:
# with HTSIM_DIR naming an htsim checkout whose sim/libhtsim.a is built
# (cd sim && make libhtsim.a), this builds tests/tools/htsim-incast.cpp
# against it (g++) and runs both side by side; without it, htsim's column
# holds the figures measured on this project's VM (below), labelled so.
# pccbench runs its default algorithm (ZTR-RTT, reconstructed) with its
# RoCE control traffic (ACKs, CNPs, RTT probes); htsim runs its DCTCP.
# Run by `make bench`.
set -u
BIN=${BIN:?BIN must name the pccbench binary}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache"
CASES="64:100 256:100 256:400"
# the guard of each case: the least ratio pccbench / htsim that passes
guard() {
	case $1 in
	256:100) echo 0.8 ;; *) echo 1.0 ;;
	esac
}
fails=0
MS=100

# htsim's CPU seconds for each case, measured 2026-11-24 on the VM the
# issue was worked on (AMD EPYC, 2 vCPUs shared with other jobs; htsim
# HEAD of Broadcom/csg-htsim, g++ 12 -O2/-O3 as its Makefiles build it),
# best of 3; bottleneck packets as htsim-incast prints them.
ref_cpu() {
	case $1 in
	64:100) echo 0.26 ;; 256:100) echo 0.28 ;; 256:400) echo 1.35 ;;
	esac
}
ref_pkts() {
	case $1 in
	64:100) echo 1148804 ;; 256:100) echo 1148804 ;; 256:400) echo 4595219 ;;
	esac
}

. "$(dirname "$0")/cpu.inc"

best3() {	# command... -> best CPU of 3; output of the last in $tmp/out
	b=""
	for i in 1 2 3; do
		c=$(cpu_of "$@")
		if [ -z "$b" ] || awk -v a="$c" -v b="$b" 'BEGIN { exit !(a < b) }'
		then b=$c; fi
	done
	echo "$b"
}

HT=""
if [ -n "${HTSIM_DIR:-}" ]; then
	lib=$HTSIM_DIR/sim/libhtsim.a
	[ -f "$lib" ] || lib=$HTSIM_DIR/libhtsim.a
	inc=$(dirname "$lib")
	if [ -f "$lib" ] && g++ -O2 -std=c++11 -I"$inc" -o "$tmp/htsim-incast" \
		"$here/htsim-incast.cpp" "$lib" 2>"$tmp/gxx"; then
		HT=$tmp/htsim-incast
	else
		echo "bench-htsim: cannot build htsim-incast against $HTSIM_DIR" \
		     "(sim/libhtsim.a built?); htsim's figures are the recorded ones" >&2
		cat "$tmp/gxx" >&2 2>/dev/null
	fi
fi

echo "incast, 1 KB MTU, ${MS} ms simulated: bottleneck packets per CPU second (best of 3)"
for c in $CASES; do
	n=${c%:*} g=${c#*:}
	pc=$(best3 "$BIN" -j -c "sim scenario incast senders $n rate ${g}g mtu 1024 delay 1us buffer 32MB; sim run ${MS}ms")
	util=$(sed -n 's/.*"utilisation":\([0-9.e+-]*\).*/\1/p' "$tmp/out" | tail -n 1)
	ev=$(sed -n 's/.*"events":\([0-9]*\).*/\1/p' "$tmp/out" | tail -n 1)
	if [ -n "$HT" ]; then
		hc=$(best3 "$HT" "$n" "$g" 1024 "$MS")
		hp=$(sed -n 's/^bottleneck_pkts=//p' "$tmp/out")
		src="measured now"
	else
		hc=$(ref_cpu "$c") hp=$(ref_pkts "$c")
		src="recorded 2026-11-24, this project's VM"
	fi
	awk -v n="$n" -v g="$g" -v ms="$MS" -v pc="$pc" -v u="$util" \
	    -v ev="$ev" -v hc="$hc" -v hp="$hp" -v src="$src" \
	    -v gd="$(guard "$c")" 'BEGIN {
		pp = u * ms / 1000 * g * 1e9 / 8 / 1024;	# payload / MTU
		pr = pc > 0 ? pp / pc : 0; hr = hp / hc;
		ok = pr > 0 && pr / hr >= gd;
		printf "%4d:1 %3dG  pccbench %.3f s CPU, %.2f M pkts/s (%.1f events each)" \
		       "  htsim %.3f s CPU, %.2f M pkts/s (%s)  ratio %.2fx (guard >= %.1f) %s\n",
		       n, g, pc, pr / 1e6, (pp > 0 ? ev / pp : 0), hc, hr / 1e6, src,
		       pr / hr, gd, (ok ? "PASS" : "FAIL")
		exit !ok }' || fails=$((fails + 1))
done
if [ "$fails" -gt 0 ] && [ -n "$HT" ]; then
	echo "bench-htsim: $fails guard(s) failed"
	exit 1
elif [ "$fails" -gt 0 ]; then
	# a figure recorded on a quiet machine against one measured now
	# on a busy one: no verdict
	echo "bench-htsim: $fails guard(s) below against the recorded htsim" \
	     "figures; set HTSIM_DIR to measure both side by side"
fi
