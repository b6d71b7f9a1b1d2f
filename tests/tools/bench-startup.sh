#!/bin/sh
# Where a pccbench process's start-up goes (issue 34, item 6): CPU per
# process, the mean of 50 runs, for `--version` (loading and linking the
# program and its shared libraries), `sim run 1us` on the standard case
# (the same, plus opening the sim device, the algorithm descriptors'
# XML and building the fabric), and empty programs linked against the
# same shared libraries as pccbench (from its NEEDED entries), against
# them without libmicrohttpd and libnlopt (the metrics endpoint's and
# tune's: gnutls, libstdc++ and 10 more libraries come with them), and
# against none.  Three rounds, side by side; CPU is user + system of
# the whole loop.  Measured 2026-11-27 (shared 2-core VM, perf stat -r 20):
# sim run 1us 6.7 ms, --version 4.7 ms, the 27 libraries 4.1 ms (2.3 ms
# of them libmicrohttpd's and libnlopt's), the rest the program.
set -u
BIN=${BIN:?BIN must name the pccbench binary}
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache"
N=50
libs=$(readelf -d "$BIN" | sed -n 's/.*Shared library: \[lib\(.*\)\.so.*\]/-l\1/p')
less=$(echo "$libs" | grep -v -e '^-lmicrohttpd$' -e '^-lnlopt$')
echo 'int main(void) { return 0; }' >"$tmp/m.c"
# shellcheck disable=SC2086
$CC -O2 "$tmp/m.c" -o "$tmp/all" -Wl,--no-as-needed $libs &&
	$CC -O2 "$tmp/m.c" -o "$tmp/less" -Wl,--no-as-needed $less &&
	$CC -O2 "$tmp/m.c" -o "$tmp/none" ||
	{ echo "bench-startup: cannot build the empty programs"; exit 1; }
"$BIN" -d sim:b -c "sim run 1us" >/dev/null || exit 1
# cpu_ms CMD...: mean CPU ms per run of N runs
cpu_ms() {
	/usr/bin/time -f '%U %S' sh -c 'i=0; while [ $i -lt '"$N"' ]; do
		"$@" >/dev/null 2>&1; i=$((i + 1)); done' sh "$@" 2>&1 |
		awk -v n="$N" '{ printf "%.2f", ($1 + $2) * 1000 / n }'
}
printf '%-6s %12s %10s %14s %14s %10s\n' round "sim run 1us" --version \
	"27 libs" "no mhd/nlopt" "no libs"
for r in 1 2 3; do
	printf '%-6s %12s %10s %14s %14s %10s\n' "$r" \
		"$(cpu_ms "$BIN" -d sim:b -c 'sim run 1us')" \
		"$(cpu_ms "$BIN" --version)" "$(cpu_ms "$tmp/all")" \
		"$(cpu_ms "$tmp/less")" "$(cpu_ms "$tmp/none")"
done
echo "(CPU ms per process)"
