#!/bin/sh
# What `sweep show` says about a sweep's measures (issue 32): every
# measure asked for is shown, in the order asked, as text, JSON and in
# the plot's data (32.3: rtt_p99 beside rtt_mean was taken for a
# statistic of "rtt" and left out).
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache"
S="-d sim:ss"
"$BIN" $S -c 'algo debug on; sim scenario incast senders 4' >/dev/null

"$BIN" $S -c 'sweep ALPHA 0.1,0.3 for 1ms jobs 1 measure rtt_mean,rtt_p99 into a' \
	>/dev/null 2>&1 || { echo "sweep_show: sweep a failed"; fail=1; }
check "both measures" "POINT ALPHA rtt_mean (ns) rtt_p99 (ns)" \
	"$("$BIN" $S -c 'sweep show a' | head -n 1 | tr -s ' ')"
"$BIN" $S -j -c 'sweep show a' | grep -q '"rtt_mean":[0-9.e+]*,"rtt_p99":[0-9.e+]*}' ||
	{ echo "sweep_show: json: $("$BIN" $S -j -c 'sweep show a')"; fail=1; }
"$BIN" $S -c 'sweep ALPHA 0.1,0.3 for 1ms jobs 1 measure rtt_p99,avg_rtt,rtt_mean,queue_p99 into b' \
	>/dev/null 2>&1 || { echo "sweep_show: sweep b failed"; fail=1; }
check "in the order asked" "POINT ALPHA rtt_p99 (ns) avg_rtt (ns) rtt_mean (ns) queue_p99 (B)" \
	"$("$BIN" $S -c 'sweep show b' | head -n 1 | tr -s ' ')"
exit $fail
