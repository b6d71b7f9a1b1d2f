#!/bin/sh
# Issue 37.15: a BlueField in DPU mode, seen from its host.  With a
# restricted host the Arm side owns PPCC and the host is refused it:
# pccbench says that (from mstconfig's INTERNAL_CPU_MODEL EMBEDDED_CPU)
# in one line instead of the first access's bare failure; a host that may
# (a privileged host, or NIC mode) works as any NIC.  The refusal's text
# in the fake mstreg is a generic one: the real firmware's is not known.
. "$(dirname "$0")/lib.inc"
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache" FAKE_MSTREG_SIM=bf
sys="$tmp/sys"
d="$sys/devices/pci0000:00/0000:00:01.0/0000:03:00.0"
mkdir -p "$d" "$sys/bus/pci/devices"
echo 0x15b3 >"$d/vendor"; echo 0xa2dc >"$d/device"; echo 0x020000 >"$d/class"
ln -s ../../../devices/pci0000:00/0000:00:01.0/0000:03:00.0 "$sys/bus/pci/devices/0000:03:00.0"
export PCCBENCH_SYSFS="$sys" FAKE_MSTREG_DEVICE=0000:03:00.0 \
	FAKE_MSTCONFIG_DEVICE=0000:03:00.0 PCCBENCH_MSTCONFIG="$O/tests/fake-mstconfig"
M="-d 0000:03:00.0 --backend mstreg --mstreg $O/tests/fake-mstreg"

out=$(FAKE_MSTREG_REFUSE=1 FAKE_MSTCONFIG_MODE=dpu "$BIN" $M algo list 2>&1); rc=$?
check "DPU mode, restricted host: exit" 2 $rc
check "DPU mode, restricted host: said" "error: '0000:03:00.0' (BlueField-3 0000:03:00.0) is in DPU mode (INTERNAL_CPU_MODEL EMBEDDED_CPU(1)): its PPCC belongs to the Arm side, which refuses this host (0000:03:00.0: mstreg: Failed to send access register: Operation not permitted); run pccbench on the DPU's Arm cores, or make this host privileged there (mstprivhost)" "$out"
out=$(FAKE_MSTREG_REFUSE=1 FAKE_MSTCONFIG_MODE=ok "$BIN" $M algo list 2>&1); rc=$?
check "refused, mstconfig names no CPU model: exit" 2 $rc
case "$out" in *"(BlueField-3 0000:03:00.0: in DPU mode with a restricted host, PPCC belongs to the Arm side; 'mstconfig -d BDF q' says INTERNAL_CPU_MODEL EMBEDDED_CPU then)") ;;
	*) echo "bluefield: refused without a CPU model: $out"; fail=1 ;; esac
FAKE_MSTCONFIG_MODE=dpu "$BIN" $M algo list >/dev/null 2>&1
check "a host that may: algo list" 0 $?
exit $fail
