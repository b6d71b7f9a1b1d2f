#!/bin/sh
# Issue 37.14: mstflint gives up a contended lock after 4096 tries and
# then fails with an unrelated -E- line.  pccbench sees the lock's own
# line, runs mstreg again with doubling waits (10 ms, 20 ms, ... 8 runs,
# about 1.3 s), and if the lock stays taken says so by name.  The fake
# mstreg loses the lock as many times as FAKE_MSTREG_LOCKED's file says.
. "$(dirname "$0")/lib.inc"
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache" FAKE_MSTREG_SIM=lock PCCBENCH_SYSFS="$tmp/nosys" \
	FAKE_MSTREG_LOCKED="$tmp/locked"
M="-d 0000:08:00.0 --backend mstreg --mstreg $O/tests/fake-mstreg"
echo 0 >"$tmp/locked"
"$BIN" $M param get ALPHA >/dev/null 2>&1	# the cache filled
echo 3 >"$tmp/locked"
out=$("$BIN" $M -j param get ALPHA 2>&1); rc=$?
check "lock lost 3 times: exit" 0 $rc
check "lock lost 3 times: the value" 0.1 "$(printf '%s' "$out" | sed -n 's/.*"value":\([0-9.]*\).*/\1/p')"
check "lock lost 3 times: every try used" 0 "$(cat "$tmp/locked")"
echo 1000 >"$tmp/locked"
out=$("$BIN" $M param get ALPHA 2>&1); rc=$?
check "lock held: exit" 2 $rc
check "lock held: one line" 1 "$(printf '%s\n' "$out" | grep -c '')"
case "$out" in
"error: 0000:08:00.0: mstreg could not take mstflint's lock on 0000:08:00.0 (another mstflint tool, e.g. mstreg, mlxreg, mstconfig or mlxlink, holds /tmp/mstflint_lockfiles/0000:08:00.0_config); 8 tries over 1.3 s") ;;
*) echo "mstlock: said: $out"; fail=1 ;; esac
exit $fail
