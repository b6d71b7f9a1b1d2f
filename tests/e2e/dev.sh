#!/bin/sh
# Devices: `dev list` on a fixture bus (an lspci -x dump) and sysfs tree;
# the backend a real device gets (fwctl where the kernel has a node, else
# mstreg); failures are one line with exit 2; `dev open` keeps the old
# device when the new one does not answer.
. "$(dirname "$0")/lib.inc"
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
export XDG_STATE_HOME=$tmp/state XDG_CACHE_HOME=$tmp/cache
export PCCBENCH_PCI_DUMP=$top/tests/fixtures/pci/lspci-x.txt
export PCCBENCH_SYSFS=$top/tests/fixtures/sysfs
export PCCBENCH_DEVROOT=$tmp/dev
export PATH="$O/tests:$PATH"	# fake-mstreg found as "mstreg" below
ln -s "$O/tests/fake-mstreg" "$tmp/mstreg"
export PATH="$tmp:$PATH"
"$BIN" -d sim:lab -c 'algo list' >/dev/null
check "dev list" '[{"device":"0000:03:00.0","model":"BlueField-3","function":"PF","netdev":"p0","rdma":null,"fwctl":null,"transports":"mstreg"},{"device":"0000:08:00.0","model":"ConnectX-7","function":"PF","netdev":"ens1f0np0","rdma":"mlx5_0","fwctl":"fwctl0","transports":"fwctl,mstreg"},{"device":"0000:08:00.1","model":"ConnectX-7","function":"PF","netdev":"ens1f1np1","rdma":"mlx5_1","fwctl":null,"transports":"mstreg"},{"device":"0000:08:00.2","model":"ConnectX VF","function":"VF","netdev":null,"rdma":null,"fwctl":null,"transports":null},{"device":"sim:lab","model":"simulated ConnectX-7","function":"PF","netdev":null,"rdma":null,"fwctl":null,"transports":"sim"},{"device":"sim","model":"simulated ConnectX-7 (created on first use)","function":"PF","netdev":null,"rdma":null,"fwctl":null,"transports":"sim"}]' \
	"$("$BIN" -j dev list)"
# 08:00.0 has a fwctl node: the fwctl backend, whose /dev node is absent here
out=$("$BIN" -d 08:00.0 -c 'algo list' 2>&1); rc=$?
check "fwctl chosen exit" 2 $rc
check "fwctl chosen" "error: 0000:08:00.0: cannot open $tmp/dev/fwctl/fwctl0: No such file or directory" "$out"
# 08:00.1 has none: mstreg (the fake answers for it)
FAKE_MSTREG_DEVICE=0000:08:00.1 "$BIN" -d 08:00.1 -j -c 'dev show' >"$tmp/show"
grep -q '"backend":"mstreg"' "$tmp/show" || { echo "dev: mstreg not chosen"; fail=1; }
grep -q '"device":"0000:08:00.1"' "$tmp/show" || { echo "dev: name not canonical"; fail=1; }
# --backend forces a choice
out=$("$BIN" -d 08:00.0 --backend fwctl -c 'algo list' 2>&1)
case "$out" in *"cannot open"*"fwctl0"*) ;; *) echo "dev: fwctl forced: $out"; fail=1 ;; esac
out=$("$BIN" -d 0000:09:00.0 --backend fwctl -c 'algo list' 2>&1); rc=$?
check "no fwctl node exit" 2 $rc
case "$out" in *"no fwctl node"*) ;; *) echo "dev: no node: $out"; fail=1 ;; esac
out=$("$BIN" -d sim --backend fwctl -c 'algo list' 2>&1); rc=$?
check "sim with fwctl exit" 1 $rc
# dev open: the new device must answer, else the old one stays
out=$(FAKE_MSTREG_DEVICE=0000:08:00.1 "$BIN" -d sim:lab --force -c 'dev open 0000:07:00.0; dev show' 2>&1)
case "$out" in *"Failed to open device"*"device     sim:lab"*) ;;
	*) echo "dev: open kept: $out"; fail=1 ;; esac
out=$(FAKE_MSTREG_DEVICE=0000:08:00.1 "$BIN" -d sim:lab -c 'dev open 08:00.1; dev show' 2>&1)
case "$out" in *"0000:08:00.1: mstreg backend"*"device     0000:08:00.1"*) ;;
	*) echo "dev: open: $out"; fail=1 ;; esac
exit $fail
