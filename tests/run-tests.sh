#!/bin/sh
# Run every test: the cmocka binaries given as arguments, then the
# end-to-end script tests.  Prints "N passed, N failed" and exits non-zero
# on any failure.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-pccbench}
case "$BIN" in /*) ;; *) BIN="$top/$BIN" ;; esac
export BIN
pass=0
fail=0
for t in "$@"; do
	echo "== $t"
	if "$t"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: $t"; fi
done
for t in "$top"/tests/e2e/*.sh; do
	[ -e "$t" ] || continue
	echo "== $t"
	if sh "$t"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: $t"; fi
done
# smoke runs of the shipped scripts, each on a fresh sim device
smoke=$(mktemp -d)
for t in "$top"/scripts/*.pcb; do
	[ -e "$t" ] || continue
	echo "== $t"
	d="$smoke/$(basename "$t")"
	mkdir -p "$d"
	if (cd "$d" && XDG_STATE_HOME="$d/state" XDG_DATA_HOME="$d/data" \
		XDG_CACHE_HOME="$d/cache" "$BIN" -d sim:smoke -x "$t" \
		>/dev/null); then
		pass=$((pass + 1))
	else
		fail=$((fail + 1)); echo "FAILED: $t"
	fi
done
rm -rf "$smoke"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
