#!/bin/sh
# The DOCA backend on a real-NIC device (registers through the fake
# mstreg, 0000:08:00.1 of the fixture bus): DOCA's libraries loaded at run
# time from PCCBENCH_DOCA_LIBDIR (tests/fake-doca: DOCA's sonames, its
# documented state machines, a virtual clock).  The diag and retx commands
# of diag.sh and tel.sh, `record ... ids` and the record's retx columns
# work through it, and `pcc` with --telemetry doca; an older DOCA without adp_retx disables retx only; an
# absent library, a device DOCA does not list and each documented error
# code give the same errors and exit codes as the sim's contexts; the
# binary has no link-time dependency on DOCA.  A DOCA context lives as
# long as its pccbench, so each check runs in one process (-c).
. "$(dirname "$0")/lib.inc"
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
FD=$O/tests/fake-doca
[ -e "$FD/libdoca_telemetry.so.2" ] || { echo "doca: $FD not built"; exit 1; }
export PCCBENCH_PCI_DUMP=$top/tests/fixtures/pci/lspci-x.txt
export PCCBENCH_SYSFS=$top/tests/fixtures/sysfs
export PCCBENCH_DEVROOT=$tmp/dev
mkdir -p "$tmp/bin"
ln -s "$O/tests/fake-mstreg" "$tmp/bin/mstreg"
export PATH="$tmp/bin:$PATH" FAKE_MSTREG_DEVICE=0000:08:00.1
export PCCBENCH_DOCA_LIBDIR=$FD
unset FAKE_DOCA_FAIL FAKE_DOCA_STEP FAKE_DOCA_DEVICES FAKE_DOCA_DIAG_OWNER \
	FAKE_DOCA_RETX_CHANGE FAKE_DOCA_VERSION
N="$BIN -y -d 08:00.1"
has() {	# NAME PATTERN TEXT
	case "$3" in *$2*) ;; *) echo "doca: $1: [$2] not in [$3]"; fail=1 ;; esac
}

# ---- no link-time dependency; dev show names the providers ----
readelf -d "$BIN" | grep NEEDED >"$tmp/needed"
[ -s "$tmp/needed" ] || { echo "doca: readelf shows no NEEDED at all"; fail=1; }
grep -qi doca "$tmp/needed" && { echo "doca: DT_NEEDED on DOCA: $(cat "$tmp/needed")"; fail=1; }
$N -j dev show >"$tmp/show.json"
check "diag provider" "DOCA 3.2.0 ($FD/libdoca_telemetry.so.2, device 0000:08:00.1 mlx5_1)" \
	"$(sed -n 's/.*"diag":"\([^"]*\)".*/\1/p' "$tmp/show.json")"
check "retx provider" "DOCA 3.2.0 ($FD/libdoca_telemetry.so.2, device 0000:08:00.1 mlx5_1)" \
	"$(sed -n 's/.*"retx":"\([^"]*\)".*/\1/p' "$tmp/show.json")"
check "pcc provider" "PPCC register" "$(sed -n 's/.*"pcc":"\([^"]*\)".*/\1/p' "$tmp/show.json")"
check "sim providers" '"diag":"sim","retx":"sim","pcc":"PPCC register (the sim firmware'"'"'s)"' \
	"$("$BIN" -d sim:d -j dev show | grep -o '"diag":.*firmware.s)"')"
# the device found by its RDMA name when DOCA lists it at another address
FAKE_DOCA_DEVICES=0000:99:00.0=mlx5_1,0000:08:00.1=mlx5_7 $N -j dev show >"$tmp/show2.json"
has "by pci first" "device 0000:08:00.1 mlx5_7" "$(cat "$tmp/show2.json")"
FAKE_DOCA_DEVICES=0000:99:00.0=mlx5_1 "$BIN" -y -d mlx5_1 -j dev show >"$tmp/show3.json" 2>&1
has "by ibdev" "device 0000:99:00.0 mlx5_1" "$(cat "$tmp/show3.json")"

# ---- diag: the caps are DOCA's; diag.sh's commands in one process ----
check "caps ids" 48 "$($N -j diag caps | jget max_num_data_ids)"
check "caps log" 14 "$($N -j diag caps | jget log_max_num_samples)"
$N -j -c 'diag config period 100us samples 4; diag ids apply port_0_rx_bytes,port_0_tx_bytes,port_0_tx_transport_cnp_sent_packets; diag start; diag read; diag read' >"$tmp/r.json"
check "start+read exit" 0 $?
check "samples in two reads" 8 "$(grep -o '"sample_id":' "$tmp/r.json" | wc -l)"
check "ids in order" "0 1 2 3 4 5 6 7" "$(grep -o '"sample_id":[0-9]*' "$tmp/r.json" | cut -d: -f2 | tr '\n' ' ' | sed 's/ $//')"
check "value of ID 2, sample 3" 1200 "$(grep -o '"port_0_tx_transport_cnp_sent_packets":[0-9]*' "$tmp/r.json" | sed -n 4p | cut -d: -f2)"
check "first time" '"time_s":"1000.000100000"' "$(grep -o '"time_s":"[0-9.]*"' "$tmp/r.json" | head -n 1)"
# the ring: 10 new samples into 2^2, 6 lost, the newest 4 delivered
FAKE_DOCA_STEP=10 $N -j -c 'diag config samples 2; diag ids apply port_0_rx_bytes; diag start; diag read' >"$tmp/r2.json" 2>"$tmp/r2.err"
check "skipped exit" 0 $?
check "lost" "warning: SKIPPED: 6 samples were overwritten before this read (a bigger 'samples' or faster reads; see 'diag advise')" "$(cat "$tmp/r2.err")"
check "oldest kept" 6 "$(grep -o '"sample_id":[0-9]*' "$tmp/r2.json" | head -n 1 | cut -d: -f2)"
# the ring size is the device's: DOCA's cap (the fake's 2^14), not the sim's
check "samples 14" 0 "$($N diag config samples 14 >/dev/null 2>&1; echo $?)"
out=$($N diag config samples 15 2>&1); rc=$?
check "samples 15 exit" 2 $rc
has "samples 15" "diag config: NOT_SUPPORTED" "$out"
# CSV and format 0 through an ID list exported and imported
$N -c "diag config; diag ids export $tmp/ids.json; diag stop; diag config format 0 timestamp frc; diag ids import $tmp/ids.json; diag start; diag export $tmp/f0.csv" >/dev/null
check "format 0 exit" 0 $?
check "format 0 header" "sample_id, data_id, sample_time, port_0_rx_bytes, data_id, sample_time, port_0_tx_bytes, data_id, sample_time, port_0_rx_packets, data_id, sample_time, port_0_tx_packets" \
	"$(head -n 1 "$tmp/f0.csv")"
check "format 0 row (FRC: ns)" "0, 0x1020000100000000, 1000000100000, 100" "$(sed -n 2p "$tmp/f0.csv" | cut -d, -f1-4)"
# reconfiguration while running, an unknown ID, sync: as on the sim
out=$($N -c 'diag config; diag ids apply port_0_rx_bytes; diag start; diag config period 1ms' 2>&1); rc=$?
check "config while running" 1 $rc
has "config while running" "BAD_STATE*diag stop" "$out"
out=$($N -c 'diag config; diag ids apply port_0_rx_bytes,pcie_n0_i0_d0_link_inbound_bytes' 2>&1); rc=$?
check "unsupported id exit" 2 $rc
has "unsupported id" "NOT_SUPPORTED for pcie_n0_i0_d0_link_inbound_bytes (0x1160000100000000)" "$out"
out=$($N -c 'diag config sync on; diag ids apply port_0_rx_bytes' 2>&1); rc=$?
check "sync exit" 1 $rc
has "sync" "BAD_CONFIG*port_0_rx_bytes" "$out"
out=$($N -c 'diag config mode single samples 1; diag ids apply port_0_rx_bytes; diag start; diag restart' 2>&1); rc=$?
check "restart before the cycle ends" 2 $rc
has "restart" "AGAIN" "$out"
check "restart after" 0 "$($N -c 'diag config mode single samples 1; diag ids apply port_0_rx_bytes; diag start; diag read; diag restart' >/dev/null 2>&1; echo $?)"
# ownership: another program holds DOCA's diag; force takes it
out=$(FAKE_DOCA_DIAG_OWNER=1 $N diag show 2>&1); rc=$?
check "in use exit" 1 $rc
has "in use" "IN_USE*force" "$out"
check "force" 0 "$(FAKE_DOCA_DIAG_OWNER=1 $N -c 'diag config force; diag ids apply port_0_rx_bytes; diag start' >/dev/null 2>&1; echo $?)"

# ---- retx: tel.sh's commands ----
sumcounts() {	# total of the "count" fields of a retx read
	tr '{' '\n' | sed -n 's/.*"count":\([0-9]*\).*/\1/p' |
		awk '{ s += $1 } END { print s + 0 }'
}
check "retx caps" 16 "$($N -j retx caps | jget max_bins)"
$N -j -c 'retx config bins 6 bin0 100 bin1 100 unit usec mode double; retx start; retx read' >"$tmp/h.json"
check "retx read exit" 0 $?
check "bins" 6 "$(grep -o '"count":' "$tmp/h.json" | wc -l)"
check "one read: 1+..+6" 21 "$(sed -n '$p' "$tmp/h.json" | sumcounts)"
has "open last bin" '"bin":5,"from":1600,"to":null' "$(sed -n '$p' "$tmp/h.json")"
out=$($N -c 'retx start; retx config bins 3' 2>&1); rc=$?
check "config while running" 1 $rc
has "retx config running" "BAD_STATE*retx stop" "$out"
out=$($N -c 'retx start; retx start' 2>&1); rc=$?
check "start twice" 1 $rc
has "start twice" "BAD_STATE" "$out"
out=$(FAKE_DOCA_RETX_CHANGE=1 $N -j -c 'retx start; retx detect' 2>&1)
has "detect" '"changed":true' "$out"
check "stop" 0 "$($N -c 'retx start; retx stop' >/dev/null 2>&1; echo $?)"
out=$($N -c 'retx config bins 5 unit fortnight' 2>&1); rc=$?
check "bad unit" 1 $rc

# ---- record: the retx columns and diag IDs through DOCA ----
$N -c "retx config bins 4; retx start; record for 1s every 250ms ids port_0_rx_bytes,port_0_tx_bytes into d" >/dev/null 2>&1
check "record exit" 0 $?
csv=$XDG_DATA_HOME/pccbench/series/d.csv
check "record columns" "retx_bin_0 (count),retx_bin_1 (count),retx_bin_2 (count),retx_bin_3 (count),port_0_rx_bytes (B/s),port_0_tx_bytes (B/s),wall (ns)" \
	"$(head -n 1 "$csv" | tr -d '\r' | cut -d, -f27-)"
# each look adds i+1 to bin i; one on-demand sample adds 100 (rx) and
# 200 (tx) per row: the rates are those over the row's wall time
check "retx row" "1,2,3,4" "$(sed -n 3p "$csv" | cut -d, -f27-30)"
awk -F, 'NR > 2 { r = $31 * ($1 - t); if (r < 99 || r > 101) bad = 1 } { t = $1 }
	END { exit bad }' "$csv" || { echo "doca: rx rate is not 100 per row: $(cat "$csv")"; fail=1; }
# issue 37.17: a DOCA whose samples are larger than pccbench's own idea
# of them (a later version's fields): the sample is sized from DOCA's
# reported size, the record reads on
FAKE_DOCA_SAMPLE_PAD=2048 $N -c "record for 500ms every 250ms ids port_0_rx_bytes into dpad" >/dev/null 2>"$tmp/pad.err"
check "record with a larger sample exit" 0 $?
check "record with a larger sample rows" 2 "$(tail -n +2 "$XDG_DATA_HOME/pccbench/series/dpad.csv" | grep -c '')"
# record IDs need the device's one diag context
out=$($N -c 'diag config; record for 300ms every 100ms ids port_0_rx_bytes' 2>&1); rc=$?
check "record ids with diag" 1 $rc
has "record ids in use" "record: diag data IDs: IN_USE" "$out"

# ---- pcc: the PPCC register by default, DOCA's pcc when asked ----
has "pcc by PPCC" "Slot 0: ID 5a54, version 1.00 - ZTR_RTT" "$($N pcc show)"
P="$N --telemetry doca"
has "pcc dev show" '"pcc":"DOCA 3.2.0' "$($P -j dev show)"
out=$($P -c 'pcc show; pcc counters 0; pcc clear 0; pcc counters 0')
check "pcc through DOCA exit" 0 $?
has "pcc slot 0" "Slot 0: ID bfff, version 0.01 - fake_rtt, the fake DOCA's RTT algorithm" "$out"
has "pcc slot 2 empty" "Slot 2: Empty" "$out"
has "pcc slot 1 counters off" "Slot 1: algo ENABLED, counters DISABLED" "$out"
# each get_counters reads (reads since the clear) * 10: 1 (show), 2, clear, 1
check "pcc counter 0 reads" "10 20 10" "$(printf '%s\n' "$out" | sed -n 's/^Counter 0: \([0-9]*\) .*/\1/p' | tr '\n' ' ' | sed 's/ $//')"
out=$($P pcc counters 1 2>&1); rc=$?
check "pcc disabled exit" 1 $rc
has "pcc disabled" "pcc counters: BAD_STATE" "$out"
out=$(PCCBENCH_DOCA_LIBDIR=$O/tests/fake-doca-common $P pcc show 2>&1); rc=$?
check "pcc without DOCA exit" 1 $rc
has "pcc without DOCA" "pcc: NOT_SUPPORTED on 0000:08:00.1 (DOCA's libdoca_common" "$out"
check "pcc none" "error: pcc: NOT_SUPPORTED on 0000:08:00.1 (--telemetry none)" "$($N --telemetry none pcc show 2>&1)"

# ---- an older DOCA: no adp_retx (3.2), diag still works ----
out=$(PCCBENCH_DOCA_LIBDIR=$O/tests/fake-doca-old $N retx start 2>&1); rc=$?
check "no retx exit" 1 $rc
check "no retx" "error: retx: NOT_SUPPORTED on 0000:08:00.1 (DOCA 3.0.0058 at $O/tests/fake-doca-old/libdoca_telemetry.so.2 lacks doca_telemetry_adp_retx_create and 26 more (adp_retx, DOCA 3.2+))" "$out"
check "old diag works" 0 "$(PCCBENCH_DOCA_LIBDIR=$O/tests/fake-doca-old $N -c 'diag config; diag ids apply port_0_rx_bytes; diag start; diag read' >/dev/null 2>&1; echo $?)"
PCCBENCH_DOCA_LIBDIR=$O/tests/fake-doca-old $N -j dev show >"$tmp/old.json"
has "old dev show retx" '"retx":"none (DOCA 3.0.0058' "$(cat "$tmp/old.json")"
has "old dev show reconfig" "device 0000:08:00.1 mlx5_1; lacks doca_telemetry_diag_reconfig_sample_period (diag reconfig, DOCA 3.1+), which pccbench does not use)" "$(cat "$tmp/old.json")"
# the per-domain library names, tried when libdoca_telemetry is absent
mkdir "$tmp/perdomain"
ln -s "$FD/libdoca_common.so.2" "$tmp/perdomain/libdoca_common.so.2"
ln -s "$FD/libdoca_telemetry.so.2" "$tmp/perdomain/libdoca_telemetry_diag.so.2"
out=$(PCCBENCH_DOCA_LIBDIR=$tmp/perdomain $N -c 'dev show; diag config; diag ids apply port_0_rx_bytes; diag start; diag read' 2>&1)
check "per-domain exit" 0 $?
has "per-domain" "diag       DOCA 3.2.0 ($tmp/perdomain/libdoca_telemetry_diag.so.2 (per-domain libraries)" "$out"

# ---- no DOCA: absent, half there, a device it does not list ----
out=$(PCCBENCH_DOCA_LIBDIR=$tmp/none $N diag show 2>&1); rc=$?
check "absent exit" 1 $rc
has "absent" "NOT_SUPPORTED on 0000:08:00.1*DOCA not found: no libdoca_common.so.{3,2,} in $tmp/none" "$out"
out=$(PCCBENCH_DOCA_LIBDIR=$O/tests/fake-doca-common $N diag show 2>&1)
has "common only" "no libdoca_telemetry.so.2 beside it" "$out"
out=$(FAKE_DOCA_DEVICES=0000:09:00.0=mlx5_9 $N diag show 2>&1)
has "not listed" "DOCA lists no device 0000:08:00.1" "$out"

# ---- --telemetry overrides ----
out=$($N --telemetry none diag show 2>&1); rc=$?
check "none exit" 1 $rc
check "none" "error: diag: NOT_SUPPORTED on 0000:08:00.1 (--telemetry none)" "$out"
has "native" "through DOCA only" "$($N --telemetry native retx read 2>&1)"
out=$(PCCBENCH_DOCA_LIBDIR=$tmp/none $N --telemetry doca diag show 2>&1)
check "doca required" "error: diag: NOT_SUPPORTED on 0000:08:00.1 (DOCA not found: no libdoca_common.so.{3,2,} in $tmp/none)" "$out"
out=$("$BIN" --telemetry dpdk -d sim diag show 2>&1); rc=$?
check "bad --telemetry exit" 1 $rc
check "bad --telemetry" "error: unknown telemetry 'dpdk' (doca, native, none)" "$out"

# ---- each documented error code: the name, the sim's exit class ----
D='diag config; diag ids apply port_0_rx_bytes; diag start; diag read'
while IFS='|' read -r fn code cmd want ex; do
	out=$(FAKE_DOCA_FAIL="$fn=$code" $N --telemetry doca -c "$cmd" 2>&1); rc=$?
	check "$fn=$code exit" "$ex" $rc
	has "$fn=$code" "$want" "$out"
done <<EOF
doca_telemetry_diag_cap_is_supported|OPERATING_SYSTEM|$D|diag: OPERATING_SYSTEM|2
doca_telemetry_diag_cap_is_supported|NOT_FOUND|$D|diag: NOT_FOUND|2
doca_telemetry_diag_cap_is_supported|DRIVER|diag caps|diag caps: DRIVER|2
doca_telemetry_diag_create|IN_USE|$D|diag: IN_USE|1
doca_telemetry_diag_create|NOT_SUPPORTED|$D|diag: NOT_SUPPORTED|2
doca_telemetry_diag_set_sample_period|INVALID_VALUE|$D|diag config: INVALID_VALUE|1
doca_telemetry_diag_set_log_max_num_samples|NOT_SUPPORTED|$D|diag config: NOT_SUPPORTED|2
doca_telemetry_diag_apply_config|BAD_STATE|$D|diag config: BAD_STATE|1
doca_telemetry_diag_apply_config|DRIVER|$D|diag config: DRIVER|2
doca_telemetry_diag_check_data_id|NOT_SUPPORTED|$D|diag ids apply: NOT_SUPPORTED for port_0_rx_bytes|2
doca_telemetry_diag_apply_counters_list_by_id|FULL|$D|diag ids apply: FULL|1
doca_telemetry_diag_apply_counters_list_by_id|BAD_CONFIG|$D|diag ids apply: BAD_CONFIG|1
doca_telemetry_diag_apply_counters_list_by_id|NO_MEMORY|$D|diag ids apply: NO_MEMORY|2
doca_telemetry_diag_apply_counters_list_by_id|UNEXPECTED|$D|diag ids apply: UNEXPECTED|2
doca_telemetry_diag_start|BAD_STATE|$D|diag start: BAD_STATE|1
doca_telemetry_diag_get_sample_size|DRIVER|$D|diag read: DRIVER|2
doca_telemetry_diag_query_counters|AGAIN|$D|diag read: AGAIN|2
doca_telemetry_diag_query_counters|DEVICE_FATAL_ERROR|$D|diag read: DEVICE_FATAL_ERROR|2
doca_telemetry_diag_query_counters|99|$D|diag read: UNKNOWN|2
doca_telemetry_diag_stop|BAD_STATE/once|$D; diag stop|diag stop: BAD_STATE|1
doca_telemetry_adp_retx_cap_is_supported|NOT_SUPPORTED|retx caps|retx: NOT_SUPPORTED|2
doca_telemetry_adp_retx_create|NOT_PERMITTED|retx start|retx: NOT_PERMITTED|1
doca_telemetry_adp_retx_set_hist_num_bins|INVALID_VALUE|retx start|retx start: INVALID_VALUE|1
doca_telemetry_adp_retx_start|BAD_STATE|retx start|retx start: BAD_STATE|1
doca_telemetry_adp_retx_read_hist_bins|DRIVER|retx start; retx read|retx read: DRIVER|2
doca_telemetry_adp_retx_stop|DRIVER/once|retx start; retx stop|retx stop: DRIVER|2
doca_telemetry_pcc_cap_is_supported|OPERATING_SYSTEM|pcc show|pcc: OPERATING_SYSTEM|2
doca_telemetry_pcc_start|BAD_STATE|pcc show|pcc: BAD_STATE|1
doca_telemetry_pcc_get_algo_id|DRIVER|pcc show|pcc: DRIVER|2
doca_telemetry_pcc_get_counters|BAD_STATE|pcc counters 0|pcc counters: BAD_STATE|1
doca_telemetry_pcc_get_and_clear_counters|DRIVER|pcc clear 0|pcc clear: DRIVER|2
doca_devinfo_create_list|NOT_FOUND|diag show|DOCA cannot list devices: DOCA_ERROR_NOT_FOUND|1
doca_dev_open|INITIALIZATION|diag show|DOCA cannot open 0000:08:00.1: DOCA_ERROR_INITIALIZATION|1
EOF
exit $fail
