#!/bin/sh
# What `sweep show` says about a sweep's measures (issue 32): every
# measure asked for is shown, in the order asked, as text, JSON and in
# the plot's data (32.3: rtt_p99 beside rtt_mean was taken for a
# statistic of "rtt" and left out); measures whose points do not differ
# are named in one warning with the likely cause and the fix (32.8).
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache"
S="-d sim:ss"
"$BIN" $S -c 'algo debug on; sim scenario incast senders 4' >/dev/null

"$BIN" $S -c 'sweep ALPHA 0.1,0.3 for 1ms jobs 1 measure rtt_mean,rtt_p99 into a' \
	>/dev/null 2>&1 || { echo "sweep_show: sweep a failed"; fail=1; }
check "both measures" "POINT ALPHA rtt_mean (ns) rtt_p99 (ns)" \
	"$("$BIN" $S -c 'sweep show a' 2>/dev/null | head -n 1 | tr -s ' ')"
"$BIN" $S -j -c 'sweep show a' 2>/dev/null | grep -q '"rtt_mean":[0-9.e+]*,"rtt_p99":[0-9.e+]*}' ||
	{ echo "sweep_show: json: $("$BIN" $S -j -c 'sweep show a')"; fail=1; }
"$BIN" $S -c 'sweep ALPHA 0.1,0.3 for 1ms jobs 1 measure rtt_p99,avg_rtt,rtt_mean,queue_p99 into b' \
	>/dev/null 2>&1 || { echo "sweep_show: sweep b failed"; fail=1; }
check "in the order asked" "POINT ALPHA rtt_p99 (ns) avg_rtt (ns) rtt_mean (ns) queue_p99 (B)" \
	"$("$BIN" $S -c 'sweep show b' 2>/dev/null | head -n 1 | tr -s ' ')"

# 32.8: 1 ms of a 4-sender incast without warmup is the start burst
# alone: every point measures the same, said once, after the sweep and by
# show; with a warmup the points differ: nothing said
"$BIN" $S -c 'sweep ALPHA 0.1,0.2 AI 10,20 for 1ms jobs 1 measure rtt_mean,util into c' \
	>/dev/null 2>"$tmp/c.err"
check "flat: one line" 1 "$(grep -c '' "$tmp/c.err")"
check "flat: said" "warning: sweep c: rtt_mean, util the same at every point (within 0.1 %): without a warmup the window may hold only the start burst; 'warmup 5ms' or a longer 'for' measures the steady state" \
	"$(cat "$tmp/c.err")"
"$BIN" $S -c 'sweep show c' >/dev/null 2>"$tmp/c2.err"
case "$(cat "$tmp/c2.err")" in "warning: sweep c: rtt_mean, util the same at every point (within 0.1 %): "*) ;;
	*) echo "sweep_show: show: $(cat "$tmp/c2.err")"; fail=1 ;; esac
"$BIN" $S -c 'sweep ALPHA 0.1,0.2 AI 10,20 for 1ms warmup 2ms jobs 1 measure rtt_mean,util into d' \
	>/dev/null 2>"$tmp/d.err"
check "differ: nothing said" "" "$(cat "$tmp/d.err")"
# repeats whose noise is wider than what the points differ by
"$BIN" $S -c 'sim scenario mix load 50' >/dev/null
"$BIN" $S -c 'sweep ALPHA 0.1,0.2 for 1ms warmup 1ms repeat 3 jobs 1 measure util into e' \
	>/dev/null 2>"$tmp/e.err"
check "noise: said" "warning: sweep e: util differ between points by less than the repeats' 95 % intervals: the noise hides what the params do; more repeats or a longer 'for' narrow the intervals" \
	"$(cat "$tmp/e.err")"
exit $fail
