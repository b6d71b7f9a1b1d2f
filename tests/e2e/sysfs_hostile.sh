#!/bin/sh
# Issue 31 item 8: the sysfs readers on a hostile tree ($PCCBENCH_SYSFS).
# A counter file is a count only as the kernel prints one (digits, then
# at most a newline, within 64 bits): "-5" is missing, never 2^64-5; a
# link inside hw_counters is not followed (a 0600 file elsewhere is not
# read), a FIFO there not waited on; a FIFO as a PCI function's vendor
# file makes `dev list` refuse in one line instead of hanging.  Each run
# is bounded by `timeout` (a hang is the failure looked for: 20 s where
# a run takes well under 1 s).
. "$(dirname "$0")/lib.inc"
sys="$tmp/sys"
pci="$sys/devices/pci0000:00/0000:00:01.0/0000:08:00.0"
hw="$pci/infiniband/mlx5_0/ports/1/hw_counters"
mkdir -p "$hw" "$sys/class/infiniband" "$sys/class/net" "$sys/bus/pci/devices"
ln -s ../../devices/pci0000:00/0000:00:01.0/0000:08:00.0/infiniband/mlx5_0 "$sys/class/infiniband/mlx5_0"
ln -s ../../../0000:08:00.0 "$pci/infiniband/mlx5_0/device"
ln -s ../../../devices/pci0000:00/0000:00:01.0/0000:08:00.0 "$sys/bus/pci/devices/0000:08:00.0"
echo 0x15b3 >"$pci/vendor"; echo 0x1021 >"$pci/device"; echo 0x020000 >"$pci/class"
echo -5 >"$hw/np_cnp_sent"
echo 12 >"$hw/rp_cnp_handled"
echo ' 7' >"$hw/out_of_sequence"
echo 18446744073709551616 >"$hw/packet_seq_err"
echo 0x10 >"$hw/local_ack_timeout_err"
echo +3 >"$hw/roce_adp_retrans"
printf '42\n' >"$hw/roce_slow_restart"
echo 99 >"$tmp/secret" && chmod 600 "$tmp/secret"
ln -s "$tmp/secret" "$hw/secret"
mkfifo "$hw/fifo"
export PCCBENCH_SYSFS="$sys"

timeout 20 "$BIN" -j counter show host mlx5_0 >"$tmp/c.json" 2>/dev/null
check "counter show exit" 0 $?
vals=$(tr '{' '\n' <"$tmp/c.json" | sed -n 's/^"name":"\([a-z_]*\)","value":\([0-9a-z]*\).*/\1=\2/p' | tr '\n' ' ')
check "counts as the kernel prints them, else missing; no link, no FIFO" \
	"local_ack_timeout_err=null np_cnp_sent=null out_of_sequence=null packet_seq_err=null roce_adp_retrans=null roce_slow_restart=42 rp_cnp_handled=12 " \
	"$vals"

# a FIFO as a function's vendor file: dev list refuses, in one line
fifo="$sys/devices/pci0000:00/0000:00:01.0/0000:09:00.0"
mkdir -p "$fifo"
mkfifo "$fifo/vendor"
echo 0x1021 >"$fifo/device"; echo 0x020000 >"$fifo/class"
ln -s ../../../devices/pci0000:00/0000:00:01.0/0000:09:00.0 "$sys/bus/pci/devices/0000:09:00.0"
out=$(timeout 20 "$BIN" dev list 2>&1); rc=$?
check "dev list exit" 1 $rc
check "dev list says" "error: PCI scan refused: '$sys/bus/pci/devices/0000:09:00.0/vendor' is not a regular file" "$out"
# the handle's own vendor check does not wait on it either
out=$(timeout 20 "$BIN" counter show host 0000:09:00.0 2>&1); rc=$?
check "handle over a FIFO vendor: no hang" 1 "$([ $rc -ne 124 ] && echo 1)"
exit $fail
