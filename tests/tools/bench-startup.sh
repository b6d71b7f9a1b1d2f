#!/bin/sh
# Where a pccbench process's start-up goes (issue 34, item 6): CPU per
# process, the mean of 50 runs, for `--version` (loading and linking the
# program and its shared libraries), `sim run 1us` on the standard case
# (the same, plus opening the sim device, the algorithm descriptors'
# XML and building the fabric), and empty programs linked against the
# shared libraries pccbench is linked with (its NEEDED entries), against
# those and libmicrohttpd and libnlopt (as pccbench was linked before
# serve metrics and tune opened them when they run, src/util/lazylib.c:
# gnutls, nettle, p11-kit and 8 more libraries came with them), and
# against none.  Three rounds, side by side; CPU is user + system of the
# whole loop.  Measured 2026-11-27 (shared 2-core VM, perf stat -r 20),
# linked with all 27: sim run 1us 6.7 ms, --version 4.7 ms, the 27
# libraries 4.1 ms (2.3 ms of them libmicrohttpd's and libnlopt's), the
# rest the program.  With the two opened lazily (whole processes, 40
# pairs in turns, medians): sim run 1us 6 -> 4 ms (0.67x), --version
# 5 -> 3 ms (0.59x).
set -u
BIN=${BIN:?BIN must name the pccbench binary}
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache"
N=50
# each by its soname (-l:libyaml-0.so.2: no -lyaml-0 exists)
less=$(readelf -d "$BIN" | sed -n 's/.*Shared library: \[\(.*\)\]/-l:\1/p' |
	grep -v -e '^-l:libmicrohttpd' -e '^-l:libnlopt')
libs="$less -l:libmicrohttpd.so.12 -l:libnlopt.so.0"
nless=$(echo "$less" | wc -l)
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
	"+mhd/nlopt" "$nless linked" "no libs"
for r in 1 2 3; do
	printf '%-6s %12s %10s %14s %14s %10s\n' "$r" \
		"$(cpu_ms "$BIN" -d sim:b -c 'sim run 1us')" \
		"$(cpu_ms "$BIN" --version)" "$(cpu_ms "$tmp/all")" \
		"$(cpu_ms "$tmp/less")" "$(cpu_ms "$tmp/none")"
done
echo "(CPU ms per process)"
