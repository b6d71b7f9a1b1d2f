#!/bin/sh
# A record on a backend slower than its interval (issue 37.8): mstreg
# takes ~0.5 s a run on some hosts, so `record for 1s every 10ms` took 52 s
# and said "1s every 10ms".  Before the first row pccbench says what one
# read takes and how far apart the rows will be; the summary says the
# interval achieved.  The fake mstreg takes at least 100 ms a run here
# (FAKE_MSTREG_DELAY_MS); the checks only need more than 50 ms.
. "$(dirname "$0")/lib.inc"
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache" FAKE_MSTREG_SIM=slow PCCBENCH_SYSFS="$tmp/nosys"
M="-d 0000:08:00.0 --backend mstreg --mstreg $O/tests/fake-mstreg -y"
"$BIN" $M -c 'algo debug on' >/dev/null 2>&1
check "debug on exit" 0 $?
FAKE_MSTREG_DELAY_MS=100 "$BIN" $M -j -c 'record for 50ms every 10ms into s' \
	>"$tmp/out" 2>"$tmp/err"
check "record exit" 0 $?
grep -q "^warning: record: one read of 0000:08:00.0 takes [0-9.]*ms, more than the interval 10ms: rows come about [0-9.]*ms apart (the times are the reads'); ask 'every [0-9.]*ms' or more$" "$tmp/err" ||
	{ echo "slowread: no warning before the rows: $(cat "$tmp/err")"; fail=1; }
a=$(jget achieved_interval_s <"$tmp/out")
check "achieved interval said, > 50 ms" 1 "$(awk -v a="${a:-0}" 'BEGIN { print (a > 0.05) }')"
# the sim device's reads take no device time: no warning
"$BIN" -d sim:slow -c 'record for 10ms every 1ms into q' >/dev/null 2>"$tmp/err2"
check "sim: no such warning" 0 "$(grep -c 'one read' "$tmp/err2")"
exit $fail
