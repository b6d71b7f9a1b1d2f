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
	"$BIN" -d "$1" --backend mstreg --mstreg "$FAKE" -n -c 'algo enable 2' 2>&1 |
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
# mlx5_0/2: port 2 is PPCC local_port 2 (which the one-port sim refuses:
# the request got there)
out=$("$BIN" -d mlx5_0/2 --backend mstreg --mstreg "$FAKE" -c 'algo list' 2>&1); rc=$?
check "port 2 exit" 2 $rc
case "$out" in *"bad parameter"*|*"Bad parameter"*) ;;
	*) echo "handles: port 2 said: $out"; fail=1 ;; esac
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
exit $fail
