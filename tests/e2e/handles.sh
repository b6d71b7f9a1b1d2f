#!/bin/sh
# Device handles (issue #24 item 5): every form an engineer uses names the
# same PCI function in a sysfs tree laid out as the kernel does (devices
# under /sys/devices, links from bus/pci/devices, class/infiniband and
# class/net): the BDF with and without domain, devlink's pci/BDF, mlx5_N
# and mlx5_N/PORT (PPCC local_port = PORT), the netdev.  The dry run shows
# the device and local_port the mstreg backend is given.  A handle that
# names no NVIDIA function is refused in one line pointing to 'dev list'.
. "$(dirname "$0")/lib.inc"
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
FAKE="$O/tests/fake-mstreg"
[ -x "$FAKE" ] || { echo "handles: $FAKE not built"; exit 1; }
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache" FAKE_MSTREG_SIM=h

sys="$tmp/sys"
root="$sys/devices/pci0000:00"
mkdir -p "$sys/class/infiniband" "$sys/class/net" "$sys/bus/pci/devices"
# fn BDF VENDOR DEVICE CLASS [RDMA] [NETDEV]: a PCI function in the tree
fn() {
	d="$root/0000:00:01.0/$1"
	mkdir -p "$d"
	echo "$2" >"$d/vendor"; echo "$3" >"$d/device"; echo "$4" >"$d/class"
	ln -s "../../../devices/pci0000:00/0000:00:01.0/$1" \
		"$sys/bus/pci/devices/$1"
	if [ -n "${5:-}" ]; then
		mkdir -p "$d/infiniband/$5/ports/1"
		ln -s "../../../$1" "$d/infiniband/$5/device"
		ln -s "../../devices/pci0000:00/0000:00:01.0/$1/infiniband/$5" \
			"$sys/class/infiniband/$5"
	fi
	if [ -n "${6:-}" ]; then
		mkdir -p "$d/net/$6"
		ln -s "../../../$1" "$d/net/$6/device"
		ln -s "../../devices/pci0000:00/0000:00:01.0/$1/net/$6" \
			"$sys/class/net/$6"
	fi
}
fn 0000:08:00.0 0x15b3 0x1021 0x020000 mlx5_0 ens1f0np0
fn 0000:08:00.1 0x15b3 0x1021 0x020000 mlx5_1 ens1f1np1
fn 0000:00:1f.6 0x8086 0x15bc 0x020000 "" eno1
mkdir -p "$sys/devices/virtual/net/lo"
ln -s ../../devices/virtual/net/lo "$sys/class/net/lo"
export PCCBENCH_SYSFS="$sys"

# the device and local_port the mstreg backend runs with, for HANDLE
dry() {
	"$BIN" -d "$1" --backend mstreg --mstreg "$FAKE" -n -c 'param set slot 0 ALPHA 0.3' 2>&1 |
		sed -n 's/^[^ ]* -d \([^ ]*\) .*local_port=\([0-9]*\),.*/\1 port \2/p'
}
for h in 0000:08:00.0 08:00.0 pci/0000:08:00.0 mlx5_0 mlx5_0/1 ens1f0np0; do
	check "handle $h" "0000:08:00.0 port 1" "$(dry "$h")"
done
export FAKE_MSTREG_DEVICE=0000:08:00.1
for h in 08:00.1 pci/0000:08:00.1 mlx5_1 ens1f1np1; do
	check "handle $h" "0000:08:00.1 port 1" "$(dry "$h")"
done
unset FAKE_MSTREG_DEVICE
# one journal per function, however it is named
"$BIN" -d ens1f0np0 --backend mstreg --mstreg "$FAKE" -y -c 'algo enable 2' >/dev/null 2>&1
check "journal of a netdev's writes" 1 \
	"$(ls "$XDG_STATE_HOME/pccbench/journal" | grep -c '0000_08_00.0\|0000:08:00.0')"

# refusals: one line, exit 1, nothing run
: >"$tmp/runs"
refused() {	# refused HANDLE EXPECTED-SUBSTRING
	out=$(FAKE_MSTREG_COUNT="$tmp/runs" "$BIN" -d "$1" --backend mstreg \
		--mstreg "$FAKE" -c 'algo list' 2>&1); rc=$?
	check "'$1' exit" 1 $rc
	check "'$1' lines" 1 "$(printf '%s\n' "$out" | wc -l)"
	case "$out" in *"$2"*) ;;
		*) echo "handles: '$1' said: $out"; fail=1 ;; esac
}
refused eno1 "'eno1' (netdev eno1, 0000:00:1f.6) is not an NVIDIA function (vendor 0x8086); 'dev list' shows them"
refused 00:1f.6 "is not an NVIDIA function (vendor 0x8086)"
refused nosuch "no device 'nosuch': give a PCI address (0000:08:00.0, pci/0000:08:00.0), an RDMA device (mlx5_0, mlx5_0/1) or a netdev; 'dev list' shows the NVIDIA functions here"
refused lo "no device 'lo'"
refused mlx5_7 "RDMA device 'mlx5_7' not found"
refused mlx5_0/0 "bad port in 'mlx5_0/0' (mlx5_0/1)"
refused mlx5_0/2 "'mlx5_0/2': mlx5_0 has no port 2 (each mlx5 PF is its own single-port RDMA device: give the PF's own, 'dev list')"
refused pci/08:00 "bad devlink handle 'pci/08:00'"
refused 0000:08:00.9 "bad PCI address '0000:08:00.9'"
check "runs for refused handles" 0 "$(wc -l <"$tmp/runs")"

# completion offers the real functions under every handle, not the Intel
# one: bash's (scripts/pccbench.bash-completion) and the REPL's Tab
comp=$(bash -c '. "$1"; COMP_WORDS=(pccbench -d ""); COMP_CWORD=2
	_pccbench; printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' \
	_ "$top/scripts/pccbench.bash-completion")
check "bash completion of -d" "0000:08:00.0 0000:08:00.1 ens1f0np0 ens1f1np1 mlx5_0 mlx5_0/1 mlx5_1 mlx5_1/1 pci/0000:08:00.0 pci/0000:08:00.1 sim sim:h " "$comp"
if command -v tmux >/dev/null; then
	sock="pccbench-handles-$$"
	trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
	tmux -L "$sock" new-session -d -s h -x 160 -y 20 \
		"env PCCBENCH_SYSFS=$sys XDG_STATE_HOME=$tmp/state TERM=xterm $BIN -d sim:h"
	i=0
	until tmux -L "$sock" capture-pane -p -t h | grep -q 'sim:h.*>' ||
		[ $i -ge 50 ]; do sleep 0.1; i=$((i + 1)); done
	tmux -L "$sock" send-keys -t h "dev open ens1f1" Tab
	i=0
	until tmux -L "$sock" capture-pane -p -t h | grep -q 'dev open ens1f1np1' ||
		[ $i -ge 50 ]; do sleep 0.1; i=$((i + 1)); done
	tmux -L "$sock" capture-pane -p -t h | grep -q 'dev open ens1f1np1' ||
		{ echo "handles: REPL Tab did not complete the netdev:"
		  tmux -L "$sock" capture-pane -p -t h; fail=1; }
	tmux -L "$sock" send-keys -t h C-u "dev open mlx5_0" Tab Tab
	sleep 0.5
	tmux -L "$sock" capture-pane -p -t h | grep -q 'mlx5_0/1' ||
		{ echo "handles: REPL Tab does not offer mlx5_0/1:"
		  tmux -L "$sock" capture-pane -p -t h; fail=1; }
	tmux -L "$sock" kill-server 2>/dev/null
else
	echo "handles: SKIP the REPL's Tab: no tmux" >&2
fi
# ---- issue 37.6, 37.7: names from rdma-core and mstflint, ports that are
# no physical port (switchdev representors, a RoCE LAG); identity keyed by
# (PCI function, local_port) ----
# rdma-core's udev rules name RDMA devices by location
fn 0000:09:00.0 0x15b3 0x1021 0x020000 rocep9s0f0 ens2f0np0
fn 0000:09:00.1 0x15b3 0x1021 0x020000 ibp9s0f1
# gid_attrs/ndevs/0 of RDMA device $1 port $2 is netdev $3
ndev() {
	p="$sys/class/infiniband/$1/ports/$2/gid_attrs/ndevs"
	mkdir -p "$p" && echo "$3" >"$p/0"
}
# switchdev: mlx5_2's port 1 is the uplink, port 2 a VF representor
fn 0000:0b:00.0 0x15b3 0x1021 0x020000 mlx5_2 p0
mkdir -p "$sys/class/infiniband/mlx5_2/ports/2" "$sys/devices/virtual/net/pf0vf0"
ln -s ../../devices/virtual/net/pf0vf0 "$sys/class/net/pf0vf0"
echo p0 >"$sys/class/net/p0/phys_port_name"
echo pf0vf0 >"$sys/class/net/pf0vf0/phys_port_name"
ndev mlx5_2 1 p0
ndev mlx5_2 2 pf0vf0
# a RoCE LAG over both ports of card 08:00: mlx5_bond_0 on bond0
b="$root/0000:00:01.0/0000:08:00.0/infiniband/mlx5_bond_0"
mkdir -p "$b/ports/1" "$sys/devices/virtual/net/bond0/bonding"
ln -s ../../../0000:08:00.0 "$b/device"
ln -s ../../devices/pci0000:00/0000:00:01.0/0000:08:00.0/infiniband/mlx5_bond_0 \
	"$sys/class/infiniband/mlx5_bond_0"
ln -s ../../devices/virtual/net/bond0 "$sys/class/net/bond0"
for f in 0 1; do
	ln -s "../../../pci0000:00/0000:00:01.0/0000:08:00.$f/net/ens1f${f}np$f" \
		"$sys/devices/virtual/net/bond0/lower_ens1f${f}np$f"
done
ndev mlx5_bond_0 1 bond0

export FAKE_MSTREG_DEVICE=0000:09:00.0
check "handle rocep9s0f0" "0000:09:00.0 port 1" "$(dry rocep9s0f0)"
check "handle rocep9s0f0/1" "0000:09:00.0 port 1" "$(dry rocep9s0f0/1)"
export FAKE_MSTREG_DEVICE=0000:09:00.1
check "handle ibp9s0f1" "0000:09:00.1 port 1" "$(dry ibp9s0f1)"
unset FAKE_MSTREG_DEVICE
mkdir -p "$sys/class/infiniband/rocep9s0f0/ports/1/hw_counters"
echo 5 >"$sys/class/infiniband/rocep9s0f0/ports/1/hw_counters/np_cnp_sent"
check "counters of rocep9s0f0" "0000:09:00.0 rocep9s0f0 port 1, netdev ens2f0np0" \
	"$("$BIN" counter show host rocep9s0f0 2>/dev/null | head -n 1)"
# MST names: the card-th card of that device id by PCI address, its
# function; with or without /dev/mst/, no mst driver here; mstreg is
# given the PCI function (Debian's cannot open /dev/mst/ without it)
check "handle mt4129_pciconf0" "0000:08:00.0 port 1" "$(dry mt4129_pciconf0)"
check "handle /dev/mst/mt4129_pciconf0" "0000:08:00.0 port 1" "$(dry /dev/mst/mt4129_pciconf0)"
export FAKE_MSTREG_DEVICE=0000:08:00.1
check "handle mt4129_pciconf0.1" "0000:08:00.1 port 1" "$(dry mt4129_pciconf0.1)"
export FAKE_MSTREG_DEVICE=0000:09:00.1
check "handle /dev/mst/mt4129_pciconf1.1" "0000:09:00.1 port 1" "$(dry /dev/mst/mt4129_pciconf1.1)"
unset FAKE_MSTREG_DEVICE
"$BIN" -d /dev/mst/mt4129_pciconf0 --backend mstreg --mstreg "$FAKE" -c 'algo list' >/dev/null 2>&1
check "algo list on /dev/mst/mt4129_pciconf0 (mstreg given 0000:08:00.0)" 0 $?
: >"$tmp/runs"
refused mt4129_pciconf3 "'mt4129_pciconf3': 3 cards with device id 4129 (0x1021) here"
refused mt4129_pciconf0.5 "'mt4129_pciconf0.5': 0000:08:00 has no function 5"
refused mlx5_2/2 "'mlx5_2/2': port 2 of mlx5_2 is a representor (netdev pf0vf0, pf0vf0; switchdev mode), not a physical port: give the PF"
refused mlx5_2/3 "'mlx5_2/3': mlx5_2 has no port 3"
refused mlx5_bond_0 "'mlx5_bond_0' is a RoCE LAG (bond0 over 0000:08:00.0, 0000:08:00.1): PPCC is per physical port; give each PF by its PCI address"
check "runs for refused handles" 0 "$(wc -l <"$tmp/runs")"
export FAKE_MSTREG_DEVICE=0000:0b:00.0
check "mlx5_2/1, the uplink" "0000:0b:00.0 port 1" "$(dry mlx5_2/1)"
unset FAKE_MSTREG_DEVICE
# issue 37.11: the function's netdev is its uplink, not a representor
# (in switchdev the VF representors hang under the PF too), and said
r="$root/0000:00:01.0/0000:0b:00.0/net/a_rep"
mkdir -p "$r/hw" && ln -s "../../devices/pci0000:00/0000:00:01.0/0000:0b:00.0/net/a_rep" "$sys/class/net/a_rep"
echo pf0vf1 >"$r/phys_port_name"
mkdir -p "$sys/class/infiniband/mlx5_2/ports/1/hw_counters"
echo 1 >"$sys/class/infiniband/mlx5_2/ports/1/hw_counters/np_cnp_sent"
check "netdev of 0000:0b:00.0: the uplink" "0000:0b:00.0 mlx5_2 port 1, netdev p0" \
	"$("$BIN" counter show host 0000:0b:00.0 2>"$tmp/nd.err" | head -n 1)"
check "which netdev, said" 1 "$(grep -c "0000:0b:00.0 has more than one netdev: counting p0, its uplink" "$tmp/nd.err")"
# identity: (PCI function, local_port); a second physical port gets its
# own journal, lock and cache
fn 0000:0c:00.0 0x15b3 0x1021 0x020000 mlx5_3 p1x
mkdir -p "$sys/class/infiniband/mlx5_3/ports/2"
check "journal of mlx5_3/2" "0000_0c_00.0-p2" \
	"$("$BIN" -d mlx5_3/2 --backend mstreg --mstreg "$FAKE" -j dev show 2>/dev/null |
	sed -n 's/.*"journal":"[^"]*\/\([^"/]*\)\.log".*/\1/p')"
exit $fail
