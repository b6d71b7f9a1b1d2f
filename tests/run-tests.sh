#!/bin/sh
# Run every test: the cmocka binaries given as arguments, then the
# end-to-end script tests.  Prints "N passed, N failed" and exits non-zero
# on any failure.  Each test gets at most TEST_TIMEOUT seconds (default
# 900): a test that hangs fails instead of holding CI up to its limit.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-pccbench}
case "$BIN" in /*) ;; *) BIN="$top/$BIN" ;; esac
export BIN
limit=${TEST_TIMEOUT:-900}
# run CMD...: under the time limit; says so when it was exceeded
run() {
	timeout -k 10 "$limit" "$@"
	rc=$?
	[ "$rc" -eq 124 ] && echo "timed out after $limit s"
	return "$rc"
}
pass=0
fail=0
for t in "$@"; do
	echo "== $t"
	if run "$t"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: $t"; fi
done
for t in "$top"/tests/e2e/*.sh; do
	[ -e "$t" ] || continue
	echo "== $t"
	if run sh "$t"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: $t"; fi
done
# smoke runs of the shipped scripts, each on a fresh sim device
smoke=$(mktemp -d)
for t in "$top"/scripts/*.pcb; do
	[ -e "$t" ] || continue
	echo "== $t"
	d="$smoke/$(basename "$t")"
	mkdir -p "$d"
	if (cd "$d" && XDG_STATE_HOME="$d/state" XDG_DATA_HOME="$d/data" \
		XDG_CACHE_HOME="$d/cache" timeout -k 10 "$limit" "$BIN" -d sim:smoke -x "$t" \
		>/dev/null); then
		pass=$((pass + 1))
	else
		fail=$((fail + 1)); echo "FAILED: $t"
	fi
done
rm -rf "$smoke"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
