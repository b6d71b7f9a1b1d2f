#!/bin/sh
# tests/tools/par-study (issue 34 item 7; its findings in
# tests/tools/par-study.md): on a small leaf-spine mix every event is
# charged to a half or to both, shares adding up to 100 %; the cut's
# lookahead is the fabric delay and sets the windows; packets cross
# the cut; the balance bound lies in [1, 2]; the barrier mode times two
# barriers.  Bad input: one line, exit 2.  Counts only, no timing.
. "$(dirname "$0")/lib.inc"
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
PS="$O/tests/par-study"
export PCCBENCH_DATADIR="$top"
"$PS" leaves 4 spines 2 hosts 4 load 50 fabric_delay 500ns ms 0.2 >"$tmp/out" 2>&1
check "rc" 0 $?
check "hosts" "16 hosts, 0.2 ms" "$(sed -n '1s/:.*//p' "$tmp/out")"
# three shares printed to 0.1 %: their sum within 0.15 of 100
check "shares add up" ok "$(sed -n '1s/.*half 0 \([0-9.]*\) %, half 1 \([0-9.]*\) %, both \([0-9.]*\) %/\1 \2 \3/p' "$tmp/out" |
	awk '{ d = $1 + $2 + $3 - 100; print (NF == 3 && d < 0.151 && d > -0.151) ? "ok" : $0 }')"
check "windows" "lookahead 500 ns: 400 windows" "$(sed -n '2s/, [0-9]* (.*//p' "$tmp/out")"
n=$(sed -n 's/^crossing the cut: \([0-9]*\) packets.*/\1/p' "$tmp/out")
[ "${n:-0}" -gt 0 ] || { echo "par_study: no packet crosses the cut: $(cat "$tmp/out")"; fail=1; }
b=$(sed -n 's/^balance bound on the speed-up: \([0-9.]*\) .*/\1/p' "$tmp/out")
awk -v b="${b:-0}" 'BEGIN { exit !(b >= 1 && b <= 2) }' ||
	{ echo "par_study: balance bound $b not in [1, 2]"; fail=1; }
"$PS" barrier 1000 >"$tmp/bar" 2>&1
check "barrier rc" 0 $?
grep -q '^barrier: 1000 rounds; spinning [0-9]* ns a round, pthread_barrier [0-9]* ns a round$' "$tmp/bar" ||
	{ echo "par_study: barrier: $(cat "$tmp/bar")"; fail=1; }
for bad in "leaves 4 spines 2 hosts 4 bogus 1" "topo fattree k 4" "ms 0" "algo nope"; do
	# shellcheck disable=SC2086
	"$PS" $bad >"$tmp/bad" 2>&1
	check "rc of $bad" 2 $?
	check "one line for $bad" 1 "$(wc -l <"$tmp/bad")"
done
exit $fail
