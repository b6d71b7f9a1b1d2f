#!/bin/sh
# PFC through the binary (issue 23, bugs 1 and 2): a buffer that cannot
# hold the ports' headroom is refused with the least that works, and at
# that size (plus a small shared pool) a 64:1 burst without CC neither
# drops nor deadlocks: the second window runs at line rate too.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state"

# the issue's cases: 4 KB MTU (1.3 M drops in 5 ms) and 1 KB (deadlock)
for mtu in 4096 1024; do
	out=$("$BIN" -d sim:p -c "algo disable 0; sim scenario incast senders 64 rate 400g mtu $mtu buffer 4MB; sim run 5ms" 2>&1)
	check "mtu $mtu: refused" 1 $?
	case "$out" in *"buffer 4MB cannot hold the PFC headroom"*"needs buffer "*"KB or more") ;;
		*) echo "sim2_pfc: refusal: $out"; fail=1 ;; esac
	kb=$(printf '%s\n' "$out" | sed -n 's/.*needs buffer \([0-9]*\)KB.*/\1/p')
	[ "${kb:-0}" -gt 6000 ] && [ "$kb" -lt 8000 ] ||
		{ echo "sim2_pfc: minimum $kb KB"; fail=1; }
	"$BIN" -d sim:p -j -c "sim scenario incast buffer $((kb + 16))KB; sim run 5ms; sim run 5ms" |
		tail -n 1 >"$tmp/run.json"
	check "mtu $mtu: second window" 5 "$(jget t0_ms <"$tmp/run.json")"
	check "mtu $mtu: no drops" 0 "$(jget drops <"$tmp/run.json")"
	awk -v u="$(jget utilisation <"$tmp/run.json")" \
	    -v c="$(jget payload_ceiling <"$tmp/run.json")" \
	    'BEGIN { exit !(u > 0.95 * c) }' ||
		{ echo "sim2_pfc: mtu $mtu: utilisation $(cat "$tmp/run.json")"; fail=1; }
done
# without PFC the same buffer is accepted (and drops)
"$BIN" -d sim:q -j -c 'algo disable 0; sim scenario incast senders 64 buffer 4MB pfc off; sim run 1ms' |
	tail -n 1 >"$tmp/lossy.json"
[ "$(jget drops <"$tmp/lossy.json")" -gt 0 ] ||
	{ echo "sim2_pfc: lossy run: $(cat "$tmp/lossy.json")"; fail=1; }
exit $fail
