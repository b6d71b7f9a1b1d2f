#!/bin/sh
# `dev list` (issue #24 item 6) on a sysfs tree laid out as the kernel
# does (functions under /sys/devices, links from bus/pci/devices):
# only network functions (class 0x02xx, Ethernet and InfiniBand) are
# listed; a BlueField's SoC functions and bridges only with `all`, then
# labelled as such and offered no transport; IDs 0x1027, 0x2101 and
# 0xa2d9 are named from our table, an ID we do not know from libpci's
# pci.ids (PCCBENCH_PCI_IDS here), one nobody knows by its number.
. "$(dirname "$0")/lib.inc"
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
[ -x "$O/tests/fake-mstreg" ] || { echo "devlist: fake-mstreg not built"; exit 1; }
ln -s "$O/tests/fake-mstreg" "$tmp/mstreg"	# "mstreg" is on PATH
export PATH="$tmp:$PATH"
unset PCCBENCH_PCI_DUMP

sys="$tmp/sys"
root="$sys/devices/pci0000:00"
mkdir -p "$sys/class/infiniband" "$sys/class/net" "$sys/class/fwctl" \
	"$sys/bus/pci/devices"
# fn BDF VENDOR DEVICE CLASS [RDMA] [NETDEV]
fn() {
	d="$root/$1"
	mkdir -p "$d"
	echo "$2" >"$d/vendor"; echo "$3" >"$d/device"; echo "$4" >"$d/class"
	ln -s "../../../devices/pci0000:00/$1" "$sys/bus/pci/devices/$1"
	if [ -n "${5:-}" ]; then
		mkdir -p "$d/infiniband/$5"
		ln -s "../../devices/pci0000:00/$1/infiniband/$5" \
			"$sys/class/infiniband/$5"
	fi
	if [ -n "${6:-}" ]; then
		mkdir -p "$d/net/$6"
		ln -s "../../devices/pci0000:00/$1/net/$6" "$sys/class/net/$6"
	fi
}
fn 0000:00:1f.6 0x8086 0x15bc 0x020000 "" eno1		# not NVIDIA's
fn 0000:08:00.0 0x15b3 0x1021 0x020000 mlx5_0 ens1f0np0	# Ethernet
fn 0000:08:00.1 0x15b3 0x1021 0x020700 mlx5_1 ib0	# InfiniBand
fn 0000:08:00.2 0x15b3 0x101e 0x020000			# a VF
fn 0000:20:00.0 0x15b3 0x1027 0x020000 mlx5_2 ens2np0	# ConnectX-10
fn 0000:21:00.0 0x15b3 0x2101 0x020700 mlx5_3		# NVLink-C2C
fn 0000:2f:00.0 0x15b3 0xa2d8 0x060400			# BF-3 Lx switch
fn 0000:30:00.0 0x15b3 0xa2d9 0x020000 mlx5_4 p0	# BF-3 Lx NIC
fn 0000:30:00.2 0x15b3 0xc2d4 0x080100			# its management
fn 0000:31:00.0 0x15b3 0xa2db 0x020000 "" tmfifo	# a SoC function
fn 0000:40:00.0 0x15b3 0x10ff 0x020000			# in our pci.ids
fn 0000:41:00.0 0x15b3 0x10fe 0x020000			# nowhere
mkdir -p "$sys/devices/virtual/fwctl/fwctl0"
ln -s "../../../pci0000:00/0000:08:00.0" "$sys/devices/virtual/fwctl/fwctl0/device"
ln -s "../../devices/virtual/fwctl/fwctl0" "$sys/class/fwctl/fwctl0"
printf '15b3  Mellanox Technologies\n\t10ff  Test Family [ConnectX-99]\n' \
	>"$tmp/pci.ids"
export PCCBENCH_SYSFS="$sys" PCCBENCH_PCI_IDS="$tmp/pci.ids"

# DEVICE MODEL FUNCTION TRANSPORTS, one line each, the real ones only
rows() {
	"$BIN" -d sim -j dev list "$@" | tr '{' '\n' | grep '"device":"0000' |
		sed 's/"device":"\([^"]*\)","model":"\([^"]*\)","function":"\([^"]*\)".*"transports":\([^}]*\)}.*/\1|\2|\3|\4/'
}
check "network functions" "0000:08:00.0|ConnectX-7|PF|\"fwctl,mstreg\"
0000:08:00.1|ConnectX-7|PF|\"mstreg\"
0000:08:00.2|ConnectX VF|VF|null
0000:20:00.0|ConnectX-10|PF|\"mstreg\"
0000:21:00.0|ConnectX-10 NVLink-C2C|PF|\"mstreg\"
0000:30:00.0|BlueField-3 Lx|PF|\"mstreg\"
0000:31:00.0|BlueField-3 SoC|SoC|null
0000:40:00.0|Test Family [ConnectX-99]|PF|\"mstreg\"
0000:41:00.0|NVIDIA device 0x10fe|PF|\"mstreg\"" "$(rows)"
check "all functions" "0000:08:00.0|ConnectX-7|PF|\"fwctl,mstreg\"
0000:08:00.1|ConnectX-7|PF|\"mstreg\"
0000:08:00.2|ConnectX VF|VF|null
0000:20:00.0|ConnectX-10|PF|\"mstreg\"
0000:21:00.0|ConnectX-10 NVLink-C2C|PF|\"mstreg\"
0000:2f:00.0|BlueField-3 Lx SoC|bridge|null
0000:30:00.0|BlueField-3 Lx|PF|\"mstreg\"
0000:30:00.2|BlueField-3 Lx SoC management|mgmt|null
0000:31:00.0|BlueField-3 SoC|SoC|null
0000:40:00.0|Test Family [ConnectX-99]|PF|\"mstreg\"
0000:41:00.0|NVIDIA device 0x10fe|PF|\"mstreg\"" "$(rows all)"
# the sysfs names come along: the InfiniBand function's RDMA device
"$BIN" -d sim -j dev list | grep -q '"device":"0000:08:00.1","model":"ConnectX-7","function":"PF","netdev":"ib0","rdma":"mlx5_1"' ||
	{ echo "devlist: 08:00.1's names"; fail=1; }
# the text table labels them too
out=$("$BIN" -d sim dev list all)
case "$out" in *"0000:2f:00.0  BlueField-3 Lx SoC "*" bridge "*) ;;
	*) echo "devlist: text: $out"; fail=1 ;; esac
# the machine's own pci.ids (or hwdb) names an ID our table lacks
if [ -r /usr/share/misc/pci.ids ] &&
	grep -q '^	1019  .*ConnectX-5 Ex' /usr/share/misc/pci.ids; then
	fn 0000:42:00.0 0x15b3 0x1019 0x020000
	out=$(PCCBENCH_PCI_IDS= "$BIN" -d sim -j dev list)
	case "$out" in *'"device":"0000:42:00.0","model":"'*'ConnectX-5 Ex'*) ;;
		*) echo "devlist: pci.ids: $out"; fail=1 ;; esac
fi
# a stray word is one line, exit 1
out=$("$BIN" -d sim dev list every 2>&1); rc=$?
check "bad word exit" 1 $rc
check "bad word" "error: 'dev list': unknown word 'every' (dev list [all|open])" "$out"
exit $fail
