#!/bin/sh
# A real host's counters: RDMA hw_counters and port counters from a sysfs
# tree in the kernel's layout (found from a PCI address, mlx5_0, mlx5_0/1
# or the netdev), growth since the last look exact; and the ethtool
# statistics through the real SIOCETHTOOL ioctl on a veth pair in a
# network namespace of the test's own.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache"

# ---- a sysfs tree as the kernel lays it out ----
sys="$tmp/sys"
pci="$sys/devices/pci0000:00/0000:00:01.0/0000:08:00.0"
port="$pci/infiniband/mlx5_0/ports/1"
mkdir -p "$port/hw_counters" "$port/counters" "$pci/net/ens1f0np0/statistics" \
	"$sys/class/infiniband" "$sys/class/net" "$sys/bus/pci/devices"
ln -s ../../devices/pci0000:00/0000:00:01.0/0000:08:00.0/infiniband/mlx5_0 "$sys/class/infiniband/mlx5_0"
ln -s ../../../0000:08:00.0 "$pci/infiniband/mlx5_0/device"
ln -s ../../devices/pci0000:00/0000:00:01.0/0000:08:00.0/net/ens1f0np0 "$sys/class/net/ens1f0np0"
ln -s ../../../0000:08:00.0 "$pci/net/ens1f0np0/device"
ln -s ../../../devices/pci0000:00/0000:00:01.0/0000:08:00.0 "$sys/bus/pci/devices/0000:08:00.0"
for c in np_cnp_sent rp_cnp_handled np_ecn_marked_roce_packets roce_adp_retrans \
	roce_adp_retrans_to out_of_sequence local_ack_timeout_err packet_seq_err \
	roce_slow_restart; do
	echo 100 >"$port/hw_counters/$c"
done
echo 1000 >"$port/counters/port_rcv_data"
echo 2000 >"$port/counters/port_xmit_data"
echo 5 >"$pci/net/ens1f0np0/statistics/rx_dropped"
export PCCBENCH_SYSFS="$sys"

names() { "$BIN" -j counter show host "$1" | tr '{' '\n' | sed -n 's/.*"name":"\([a-z_0-9]*\)".*/\1/p' | tr '\n' ' '; }
want="local_ack_timeout_err net_rx_dropped np_cnp_sent np_ecn_marked_roce_packets out_of_sequence packet_seq_err port_rcv_data port_xmit_data roce_adp_retrans roce_adp_retrans_to roce_slow_restart rp_cnp_handled "
for h in 0000:08:00.0 08:00.0 mlx5_0 mlx5_0/1 ens1f0np0; do
	check "counters from $h" "$want" "$(names "$h" 2>/dev/null)"
done
# the growth since the last look, exact; a counter that went back is no
# number (a driver reload), never a negative one
# (two looks in one session, its commands from a FIFO: the files move
# once the first look is out, before the second is asked for; conditions,
# not times)
echo 4294967290 >"$port/hw_counters/out_of_sequence"	# a 32-bit Q-counter
mkfifo "$tmp/look.in"
"$BIN" -j <"$tmp/look.in" >"$tmp/look.json" 2>/dev/null &
pid=$!
exec 3>"$tmp/look.in"
echo 'counter show host mlx5_0' >&3
i=0
while [ "$(grep -c '' "$tmp/look.json")" -lt 1 ] && [ $i -lt 1200 ]; do
	sleep 0.05; i=$((i + 1))
done
echo 137 >"$port/hw_counters/np_cnp_sent"
echo 40 >"$port/hw_counters/rp_cnp_handled"
echo 4 >"$port/hw_counters/out_of_sequence"	# through its wrap
echo 'counter show host mlx5_0' >&3
exec 3>&-
wait $pid
check "look exit" 0 $?
second=$(tail -n 1 "$tmp/look.json")
case "$second" in *'"name":"np_cnp_sent","value":137,"delta":37}'*) ;;
	*) echo "hostctr: cnp_sent delta: $second"; fail=1 ;; esac
case "$second" in *'"name":"rp_cnp_handled","value":40,"delta":null}'*) ;;
	*) echo "hostctr: a counter that went back: $second"; fail=1 ;; esac
# the host layer makes a Q-counter a 64-bit total across its wraps
case "$second" in *'"name":"out_of_sequence","value":4294967300,"delta":10}'*) ;;
	*) echo "hostctr: a Q-counter through its 32-bit wrap: $second"; fail=1 ;; esac
case "$second" in *'"name":"port_rcv_data","value":1000,"delta":0}'*) ;;
	*) echo "hostctr: unchanged counter: $second"; fail=1 ;; esac
out=$("$BIN" counter show host mlx5_9 2>&1); rc=$?
check "unknown device exit" 1 $rc

# record on a real NIC (registers through the fake mstreg, counters from
# the tree): each rate times its interval is exactly what the driver
# added; a counter that went back is a gap, never a negative rate; what
# has no source (ethtool pauses, discards: no netdev here) stays empty,
# said once
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
M="-d 0000:08:00.0 --backend mstreg --mstreg $O/tests/fake-mstreg"
export FAKE_MSTREG_SIM=hc
hw="$port/hw_counters"
echo 100 >"$hw/np_cnp_sent"
echo 100 >"$hw/rp_cnp_handled"
# a Q-counter is 32 bits (issue 32.1): 50 short of its wrap, then 150
echo 4294967246 >"$hw/out_of_sequence"
# (the driver writes once the first interval is over, which the sums
# below need: its length is not in the file; later is as good, and the
# record's 3 s leave 10x the 0.25 s the writes wait)
"$BIN" $M -c "record for 3s every 100ms into hc while 'sh -c \"sleep 0.25; echo 1100 >$hw/np_cnp_sent; echo 2000 >$port/counters/port_rcv_data; echo 107 >$hw/roce_adp_retrans; echo 103 >$hw/roce_adp_retrans_to; echo 111 >$hw/roce_slow_restart; echo 150 >$hw/out_of_sequence; echo 120 >$hw/packet_seq_err; echo 102 >$hw/local_ack_timeout_err; echo 1400 >$hw/np_cnp_sent; echo 5 >$hw/np_ecn_marked_roce_packets; echo 109 >$hw/roce_adp_retrans; sleep 5\"'" \
	>/dev/null 2>"$tmp/hc.err"
check "real record exit" 0 $?
check "real record warning" "warning: record: 0000:08:00.0 has no counter for pauses (rx_prioN_pause), drops (rx_discards_phy), pause_rx (rx_prioN_pause), pause_tx (tx_prioN_pause): empty columns" "$(grep "has no counter" "$tmp/hc.err")"
csv="$tmp/data/pccbench/series/hc.csv"
# columns: 1 t, 12 cnp_handled, 13 cnp_sent, 14 ecn_marked, 15 rx_gbps,
# 17 pauses, 18 drops, 19 pause_rx, 20 pause_tx, 21 adp_retrans,
# 22 adp_retrans_timeouts, 23 slow_restart, 24 out_of_sequence,
# 25 packet_seq_err, 26 local_ack_timeout
sum() { tail -n +2 "$csv" | tr -d '\r' | awk -F, -v c="$1" -v k="$2" \
	'{ if ($c != "") s += $c * ($1 - p) * k; p = $1 } END { printf "%.0f", s }'; }
check "cnp_sent added" 1300 "$(sum 13 1)"
check "rx bytes added (4-byte words)" 4000 "$(sum 15 125000000)"
check "ecn: a counter that went back is a gap" "1 0" "$(tail -n +2 "$csv" | tr -d '\r' |
	awk -F, '{ if ($14 == "") g++; else if ($14 < 0) neg++ } END { print g + 0, neg + 0 }')"
check "cnp_handled never moved" 0 "$(sum 12 1)"
check "adp_retrans added" 9 "$(sum 21 1)"
check "adp_retrans_timeouts added" 3 "$(sum 22 1)"
check "slow_restart added" 11 "$(sum 23 1)"
check "out_of_sequence added across its 32-bit wrap" 200 "$(sum 24 1)"
check "packet_seq_err added" 20 "$(sum 25 1)"
check "local_ack_timeout added" 2 "$(sum 26 1)"
check "pauses and drops empty" "" "$(tail -n +2 "$csv" | tr -d '\r' | cut -d, -f17-20 | tr -d ',\n')"

# a sweep on the real NIC measures the same columns per point, the warm-up
# excluded: each point's traffic adds 1000 CNPs in the warm-up and 300 in
# the recorded window; every swept param is restored afterwards
alpha0=$("$BIN" $M -j param get ALPHA | jget value)
cat >"$tmp/drive.sh" <<EOF
sleep 0.1
v=\$(cat $hw/np_cnp_sent); echo \$((v + 1000)) >$hw/np_cnp_sent
sleep 0.4
v=\$(cat $hw/np_cnp_sent); echo \$((v + 300)) >$hw/np_cnp_sent
sleep 5
EOF
"$BIN" $M -y -c "sweep ALPHA 0.2,0.3 warmup 300ms for 600ms every 200ms measure cnp_sent,out_of_sequence while 'sh $tmp/drive.sh' into hs" \
	>/dev/null 2>"$tmp/hs.err"
check "real sweep exit" 0 $?
res="$tmp/data/pccbench/sweeps/hs/results.csv"
k=$(head -n 1 "$res" | tr -d '\r' | tr ',' '\n' | grep -n '^cnp_sent_mean' | cut -d: -f1)
# mean rate x 600 ms: about 300, never 1300 (the warm-up's).  The
# intervals are wall time and the mean is one of their rates, so a late
# wake-up moves it: the bounds leave room for intervals of 0.1..0.4 s
check "real sweep: cnp_sent per point, warm-up excluded" "ok ok" "$(tail -n +2 "$res" | tr -d '\r' |
	awk -F, -v k="$k" '{ x = $k * 0.6; printf "%s%s", (NR > 1 ? " " : ""), (x > 140 && x < 650 ? "ok" : x) }')"
check "real sweep: ALPHA restored" "$alpha0" "$("$BIN" $M -j param get ALPHA | jget value)"
unset PCCBENCH_SYSFS

# ---- ethtool through the real ioctl: a veth pair in a namespace ----
if unshare -nm true 2>/dev/null && command -v ip >/dev/null; then
	unshare -nm sh -c '
		mount -t sysfs none /sys || exit 3
		ip link add vA type veth peer name vB || exit 3
		ip link set vA up && ip link set vB up
		"$0" -j counter show host vA >"$1/e1.json" 2>"$1/e1.err"
		cat /sys/class/net/vB/ifindex >"$1/ifindex"
		' "$BIN" "$tmp"
	rc=$?
	if [ "$rc" -eq 3 ]; then
		echo "hostctr: no veth here; ethtool path not tested"
	else
		check "veth exit" 0 $rc
		grep -q "\"name\":\"peer_ifindex\",\"value\":$(cat "$tmp/ifindex")," "$tmp/e1.json" ||
			{ echo "hostctr: ethtool peer_ifindex of vA: $(cat "$tmp/e1.json")"; fail=1; }
		grep -q '"name":"net_tx_packets"' "$tmp/e1.json" ||
			{ echo "hostctr: no netdev statistics"; fail=1; }
		check "veth warning" "warning: counter show host: vA has no RDMA device" "$(cat "$tmp/e1.err")"
	fi
else
	echo "hostctr: cannot make a network namespace; ethtool path not tested"
fi
exit $fail
