#!/bin/sh
# DCQCN at NVIDIA's defaults against the fluid model (issue 34, item 1):
# N:1 incasts at 100 G, 1 KB and 4 KB packets, 200 ms each, the mean
# queue of every 10 ms window in KB, under both readings of the byte
# counter's unit (`sim model dcqcn byte_unit KB|B`).  The short cases
# (16:1, 64:1 after the start-up) are checked in make check
# (test_dcqcn_nvidia_defaults); this prints the long ones, 256:1
# included, for the README.  Fluid fixed points (B = 32767 KB): 16:1
# 103/112 KB, 64:1 118/166 KB, 256:1 192/400 KB (1 KB/4 KB packets).
set -u
BIN=${BIN:?BIN must name the pccbench binary}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache"
for unit in KB B; do
	for n in 16 64 256; do
		for mtu in 1024 4096; do
			rm -rf "$tmp/state"
			c="algo disable 0; algo enable 2"
			c="$c; sim model dcqcn byte_unit $unit"
			c="$c; sim scenario incast senders $n rate 100g mtu $mtu"
			i=0
			while [ $i -lt 20 ]; do
				c="$c; sim run 10ms"
				i=$((i + 1))
			done
			printf '%s %3s:1 %4s B:' "$unit" "$n" "$mtu"
			"$BIN" -d sim:b -y -j -c "$c" |
				sed -n 's/.*"queue_mean_bytes":\([0-9.e+]*\).*/\1/p' |
				awk '{ printf " %.0f", $1 / 1024 } END { print "" }'
		done
	done
done
