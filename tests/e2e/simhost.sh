#!/bin/sh
# Issue 36 item 5, the simulator's side: every host NIC of a fabric on its
# own.  `sim scenario` and `sim show` say which host is the receiver and
# which the senders (or ranks, or both) in every kind; `sim counters host
# N` gives one NIC's counters under the names `sim counters` sums: on a
# 16:1 incast the receiver h16 has the ECN marks and CNPs sent, a sender
# the CNPs handled and none of those; the hosts' counters sum to the
# fabric's (an incast and a collective); a host the fabric does not have
# is refused with one line.
. "$(dirname "$0")/lib.inc"
S="-d sim:hosts"
# ctr 'COMMANDS' NAME: NAME's value in the last `sim counters` of COMMANDS
ctr() { "$BIN" $S -j -c "$1" | tr '{' '\n' | grep "\"name\":\"$2\"" | tail -n 1 | jget value; }

# ---- roles, every kind ----
role() { "$BIN" $S -c "sim scenario $1" | sed -n 's/^hosts: //p'; }
check "incast" "receiver h16; senders h0-h15" "$(role 'incast senders 16')"
check "staircase" "receiver h4; senders h0-h3 (joining in that order)" \
	"$(role 'staircase senders 4')"
check "permutation" "h0-h7 each sender and receiver (one flow out, one in: a random permutation)" \
	"$(role 'permutation leaves 2 spines 2 hosts 4')"
check "mix" "h0-h7 each sender and receiver (flows between random hosts); every 1ms 4 senders to a random receiver" \
	"$(role 'mix leaves 2 spines 2 hosts 4 incast_period 1ms incast_senders 4')"
check "allreduce" "ranks h0-h5 (a ring: each sends to the next); idle h6-h7" \
	"$(role 'allreduce leaves 2 spines 2 hosts 4 ranks 6')"
check "alltoall" "ranks h0-h15 (each sender and receiver)" \
	"$(role 'alltoall topo fattree k 4 ranks 16')"
check "storm" "receiver h4; senders h0-h3; storm h4" \
	"$(role 'incast senders 4 storm_at 1ms')"
"$BIN" $S -c 'sim scenario incast fresh senders 16 size 0' >/dev/null
check "sim show" "hosts        receiver h16; senders h0-h15" \
	"$("$BIN" $S -c 'sim show' | grep '^hosts')"
check "sim show, JSON" "receiver h16; senders h0-h15" \
	"$("$BIN" $S -j -c 'sim show' | sed -n 's/.*"hosts":"\([^"]*\)".*/\1/p')"

# ---- one NIC's counters, a 16:1 incast ----
run='sim run 1ms'
check "receiver: its header" "host NIC h16 (receiver) since the fabric started (t = 1.000 ms)" \
	"$("$BIN" $S -c "$run; sim counters host 16" | grep '^host NIC')"
ecn=$(ctr "$run; sim counters host 16" np_ecn_marked_roce_packets)
cnp=$(ctr "$run; sim counters host 16" np_cnp_sent)
[ "${ecn:-0}" -gt 0 ] || { echo "simhost: receiver's ECN marks: [$ecn]"; fail=1; }
[ "${cnp:-0}" -gt 0 ] || { echo "simhost: receiver's CNPs sent: [$cnp]"; fail=1; }
check "receiver handles no CNP" 0 "$(ctr "$run; sim counters host 16" rp_cnp_handled)"
check "the fabric's ECN marks are the receiver's" "$ecn" \
	"$(ctr "$run; sim counters" np_ecn_marked_roce_packets)"
check "a sender sees no ECN mark" 0 "$(ctr "$run; sim counters host 0" np_ecn_marked_roce_packets)"
check "a sender sends no CNP" 0 "$(ctr "$run; sim counters host h5" np_cnp_sent)"
h=$(ctr "$run; sim counters host 3" rp_cnp_handled)
[ "${h:-0}" -gt 0 ] || { echo "simhost: a sender's CNPs handled: [$h]"; fail=1; }
check "no switch rows for one NIC" "" \
	"$("$BIN" $S -c "$run; sim counters host 3" | grep '^switch_\|^link_drops')"

# every host's, summed, is the fabric's (one process: one fabric)
sums() {	# COMMANDS HOSTS NAME...: "fabric sum" per NAME
	cmds=$1 hosts=$2
	shift 2
	c="$cmds; sim counters"
	i=0
	while [ $i -lt "$hosts" ]; do
		c="$c; sim counters host $i"
		i=$((i + 1))
	done
	out=$("$BIN" $S -j -c "$c" | tr '{' '\n')
	for n in "$@"; do
		echo "$out" | sed -n "s/.*\"name\":\"$n\",\"value\":\([0-9]*\).*/\1/p" |
			awk 'NR == 1 { f = $1; next } { s += $1 } END { print f, s + 0 }'
	done
}
same() {	# NAME "F S" lines: each F equals its S, and F > 0
	name=$1
	shift
	echo "$@" | while read -r f s; do
		[ "$f" = "$s" ] && [ "$f" -gt 0 ] || { echo "$name: fabric $f, hosts sum to $s"; exit 1; }
	done || fail=1
}
same "incast sums" "$(sums "$run" 17 rx_bytes_phy tx_packets_phy np_ecn_marked_roce_packets \
	np_cnp_sent rp_cnp_handled rp_cc_rate_limited rx_prio3_pause)"
"$BIN" $S -c 'sim scenario allreduce leaves 2 spines 2 hosts 4 ranks 8 size 1MB' >/dev/null
same "allreduce sums" "$(sums 'sim run 500us' 8 rx_bytes_phy tx_bytes_phy tx_prio6_packets rx_cqe tx_cqe)"

# ---- bad input: one line, exit 1 ----
out=$("$BIN" $S -c 'sim counters host 8' 2>&1); rc=$?
check "no such host: exit" 1 $rc
check "no such host: one line" "error: sim counters: no host '8' (h0-h7: 0-7)" "$out"
out=$("$BIN" $S -c 'sim counters hots 1' 2>&1); rc=$?
check "bad word: exit" 1 $rc
check "bad word: one line" "error: usage: sim counters [host N]" "$out"
out=$("$BIN" $S -c 'sim counters host -1' 2>&1)
check "negative host" "error: sim counters: no host '-1' (h0-h7: 0-7)" "$out"
exit $fail
