#!/bin/sh
# One progress line for a tune (#33 item 6), on a terminal (script(1)
# gives it one): runs done of the budget, the best so far, the time so
# far and left, rewritten in place (\r); no sweep's "N of M runs" lines;
# the line ends once, when the tune does.
. "$(dirname "$0")/lib.inc"
command -v script >/dev/null || { echo "loop_progress: no script(1)"; exit 1; }
script -qec "$BIN -d sim:pg tune ALPHA 0.02:0.5 AI 1:100 minimize rtt_p99 for 1ms scenario incast senders 8 seeds 1,2 budget 30 runs into pg" \
	/dev/null >"$tmp/out" 2>&1
check "tune rc" 0 $?
tr '\r' '\n' <"$tmp/out" | sed 's/\x1b\[K//' >"$tmp/lines"
grep -q '^sweep ' "$tmp/lines" && { echo "loop_progress: a sweep's progress line"; fail=1; }
first=$(grep -m1 '^tune pg: ' "$tmp/lines")
case $first in "tune pg: "[0-9]*" of 30 runs, best so far "*", "[0-9]*.[0-9]*" s"*) ;;
	*) echo "loop_progress: first progress: $first"; fail=1 ;; esac
grep -q '^tune pg: [0-9]* of 30 runs, best so far rtt_p99 [0-9.e+]* (ALPHA [0-9.]*, AI [0-9]*), [0-9.]* s, about [0-9]* s left $' "$tmp/lines" ||
	{ echo "loop_progress: no best so far with time left"; fail=1; }
last=$(grep '^tune pg: [0-9]* of 30 runs' "$tmp/lines" | tail -n 1)
case $last in "tune pg: 30 of 30 runs, best so far rtt_p99 "*" s") ;;
	*) echo "loop_progress: last progress: $last"; fail=1 ;; esac
# on screen: one line (carriage returns between), ended once
check "one line" 1 "$(grep -c 'tune pg: [0-9]* of 30 runs' "$tmp/out")"
exit $fail
