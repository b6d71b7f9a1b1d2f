#!/bin/sh
# Issue 32.4: the timeline's min_rtt, max_rtt, min_rate and max_rate
# describe their own interval.  The device keeps these gauges since its
# last clear, so a recording after another run showed that run's maximum
# from its first interval.  Without 'clear on' a gauge has a value only
# in an interval that set a new extreme (then it is that interval's),
# said once; with 'clear on' every interval has its own.  Either way an
# interval's max_rtt is at least its avg_rtt, and its min_rtt at most.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state"
S="-d sim:g"
"$BIN" $S -c 'algo debug on; sim scenario incast senders 16; sim run 2ms' >/dev/null
old=$("$BIN" $S -j -c 'counter show' | tr '{' '\n' | grep '"ZTR_CC_MAX_RTT"' | jget value)
[ "${old:-0}" -gt 100000 ] || { echo "gauges: the 16-sender max $old"; fail=1; }
"$BIN" $S -c 'sim scenario incast senders 2' >/dev/null
"$BIN" $S -c 'record for 1ms every 100us into a' >/dev/null 2>"$tmp/a.err"
check "said once" 1 "$(grep -c "min_rtt, max_rtt, min_rate, max_rate have a value only in the intervals that set a new extreme" "$tmp/a.err")"
csv="$XDG_DATA_HOME/pccbench/series/a.csv"
check "no stale max" "" "$(awk -F, -v m="$old" 'NR > 1 && $4 == m' "$csv")"
# each gauge value within its interval: min <= avg <= max
inside() {
	awk -F, 'NR > 1 && $2 != "" && (($3 != "" && $3 > $2 + 1e-6) || ($4 != "" && $4 < $2 - 1e-6)) { print }' "$1"
}
check "no clear: inside the interval" "" "$(inside "$csv")"
"$BIN" $S -c 'sim run 1ms; record for 1ms every 100us clear on into b' >/dev/null 2>"$tmp/b.err"
csv="$XDG_DATA_HOME/pccbench/series/b.csv"
check "clear on: nothing said" "" "$(grep "a new extreme" "$tmp/b.err")"
check "clear on: a max per interval with samples" "" \
	"$(awk -F, 'NR > 1 && $2 != "" && $4 == ""' "$csv")"
check "clear on: inside the interval" "" "$(inside "$csv")"
exit $fail
