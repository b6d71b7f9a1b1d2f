#!/bin/sh
# Run every test: the cmocka binaries given as arguments, then the
# end-to-end script tests, then smoke runs of the shipped scripts.  Quiet
# on success: one "ok" line per test; a failing test's whole output
# (including the warnings the tests provoke on purpose) is shown after
# its FAILED line.  Prints "N passed, N failed" and exits non-zero on any
# failure.  Each test gets at most TEST_TIMEOUT seconds (default 900): a
# test that hangs fails instead of holding CI up to its limit.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-pccbench}
case "$BIN" in /*) ;; *) BIN="$top/$BIN" ;; esac
export BIN
# the tests set their own; a user's settings must not leak into them
unset PCCBENCH_HISTORY PCCBENCH_GNUPLOT PCCBENCH_SYSFS
limit=${TEST_TIMEOUT:-900}
log=$(mktemp)
smoke=$(mktemp -d)
trap 'rm -rf "$log" "$smoke"' EXIT
pass=0
fail=0
# check NAME CMD...: run it under the time limit, output kept aside
check() {
	name=$1
	shift
	t0=$(date +%s)
	timeout -k 10 "$limit" "$@" >"$log" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ]; then
		pass=$((pass + 1))
		echo "ok      $name ($(( $(date +%s) - t0 )) s)"
	else
		fail=$((fail + 1))
		[ "$rc" -eq 124 ] && echo "timed out after $limit s" >>"$log"
		echo "FAILED: $name"
		sed 's/^/    /' "$log"
	fi
}
for t in "$@"; do
	check "$t" "$t"
done
for t in "$top"/tests/e2e/*.sh; do
	[ -e "$t" ] || continue
	check "$t" sh "$t"
done
# smoke runs of the shipped scripts, each on a fresh sim device
for t in "$top"/scripts/*.pcb; do
	[ -e "$t" ] || continue
	d="$smoke/$(basename "$t")"
	mkdir -p "$d"
	check "$t" sh -c 'cd "$1" && XDG_STATE_HOME="$1/state" \
		XDG_DATA_HOME="$1/data" XDG_CACHE_HOME="$1/cache" \
		"$BIN" -d sim:smoke -x "$2" >/dev/null' sh "$d" "$t"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
