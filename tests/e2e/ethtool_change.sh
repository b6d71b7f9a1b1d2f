#!/bin/sh
# A record on a real NIC whose ethtool statistics change under it (PFC
# moved from priority 3 to 4, as `mlnx_qos --pfc` does), answered by a
# fake kernel that copies the driver's current count whatever n_stats
# says (tests/fake-ethtool, the kernels before 7b07be1ff1cb): the record
# goes on, says the change once, the column that lost its counter is
# empty, the new counter feeds its column, the others never miss a row.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache"
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac

sys="$tmp/sys"
pci="$sys/devices/pci0000:00/0000:00:01.0/0000:08:00.0"
mkdir -p "$pci/infiniband/mlx5_0/ports/1/hw_counters" "$pci/net/ens1f0np0" \
	"$sys/class/infiniband" "$sys/class/net" "$sys/bus/pci/devices"
ln -s ../../devices/pci0000:00/0000:00:01.0/0000:08:00.0/infiniband/mlx5_0 "$sys/class/infiniband/mlx5_0"
ln -s ../../../0000:08:00.0 "$pci/infiniband/mlx5_0/device"
ln -s ../../devices/pci0000:00/0000:00:01.0/0000:08:00.0/net/ens1f0np0 "$sys/class/net/ens1f0np0"
ln -s ../../../0000:08:00.0 "$pci/net/ens1f0np0/device"
ln -s ../../../devices/pci0000:00/0000:00:01.0/0000:08:00.0 "$sys/bus/pci/devices/0000:08:00.0"
echo 0 >"$pci/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent"
export PCCBENCH_SYSFS="$sys"

# NAME BASE STEP: the value grows by STEP at each read of the set
# (rx_pause_ctrl_phy: global pauses, in pause_rx too; issue 37.12)
printf 'rx_prio3_pause 100 10\ntx_prio3_pause 200 20\nrx_discards_phy 0 1\nrx_pause_ctrl_phy 0 2\n' >"$tmp/a"
printf 'tx_prio3_pause 200 20\nrx_discards_phy 0 1\nrx_pause_ctrl_phy 0 2\nrx_prio4_pause 5000 30\ntx_prio4_pause 0 7\n' >"$tmp/b"
export FAKE_ETHTOOL_IF=ens1f0np0 FAKE_ETHTOOL="$tmp/a" FAKE_ETHTOOL_THEN="$tmp/b" \
	FAKE_ETHTOOL_AT=6 FAKE_MSTREG_SIM=ec ASAN_OPTIONS=verify_asan_link_order=0
M="-d 0000:08:00.0 --backend mstreg --mstreg $O/tests/fake-mstreg"
LD_PRELOAD="$O/tests/fake-ethtool.so" "$BIN" $M -c "record for 2s every 100ms into ec" \
	>/dev/null 2>"$tmp/ec.err"
check "record exit" 0 $?
check "one note" "warning: ethtool ens1f0np0: the driver's statistics changed (4, now 5); gone: rx_prio3_pause; new: rx_prio4_pause, tx_prio4_pause" \
	"$(grep statistics "$tmp/ec.err")"
csv="$tmp/data/pccbench/series/ec.csv"
# columns: 1 t, 18 drops, 19 pause_rx, 20 pause_tx; each row's growth
# (rate x its interval; from the second row, whose interval the CSV
# gives) as a word, "-" where empty, runs of one squeezed
grown() { tail -n +2 "$csv" | tr -d '\r' | awk -F, -v c="$1" \
	'NR > 1 { printf "%s ", ($c == "" ? "-" : sprintf("%.0f", $c * ($1 - p))) } { p = $1 }' |
	awk '{ for (i = 1; i <= NF; i++) if ($i != $(i - 1) || i == 1) printf "%s ", $i }'; }
check "rows" 1 "$([ "$(tail -n +2 "$csv" | grep -c '')" -ge 15 ] && echo 1)"
check "drops: every row" "1 " "$(grown 18)"
check "pause_rx: prio 3 + global, gone, then prio 4 + global" "12 - 32 " "$(grown 19)"
check "pause_tx: prio 3, then prio 3 and 4" "20 - 27 " "$(grown 20)"
exit $fail
