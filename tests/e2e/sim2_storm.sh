#!/bin/sh
# A PFC storm (scenario storm_at; issue 23, items 1 and 13): the receiver
# of an 8:1 incast stops draining at 100 us and pauses its switch port for
# good.  The fabric stops, and the stall watchdog ends the run with one
# line naming the ports PFC holds; the window simulated so far is printed
# and the run's outputs are kept: the trace shows the storm's pause (the
# receiver's pfc_pause_tx, the switch port's pfc_pause_rx) and the
# Xoffs it spread to every sender.
# A storm needs PFC, and is refused (nothing written) without it.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state"
cd "$tmp" || exit 1

"$BIN" -d sim:s -c 'sim scenario incast senders 8 rate 100g storm_at 100us' >"$tmp/scn" ||
	{ echo "sim2_storm: scenario refused: $(cat "$tmp/scn")"; fail=1; }
grep -q 'storm_at 100us' "$tmp/scn" || { echo "sim2_storm: scenario line: $(cat "$tmp/scn")"; fail=1; }
"$BIN" -d sim:s -j -c 'sim run 5ms trace q.csv ports all flows f.csv' >"$tmp/out.json" 2>"$tmp/err"
check "exit code (a device error)" 2 $?
check "one error line" 1 "$(wc -l <"$tmp/err")"
case "$(cat "$tmp/err")" in
*"fabric stalled at t = "*"paused by PFC (by a NIC first, then the longest held): switch 0 port 8, host "*" and 1 more") ;;
*) echo "sim2_storm: error: $(cat "$tmp/err")"; fail=1 ;;
esac
# stalled about 1 ms (the watchdog's interval) after the last departure
t=$(sed -n 's/.*stalled at t = \([0-9.]*\) ms.*/\1/p' "$tmp/err")
awk -v t="${t:-0}" 'BEGIN { exit !(t >= 1.1 && t < 2) }' ||
	{ echo "sim2_storm: stalled at $t ms"; fail=1; }
# the window so far was printed, and ends where the stall was found
check "summary printed" 1 "$(grep -c '"t1_ms"' "$tmp/out.json")"
awk -v a="$(jget t1_ms <"$tmp/out.json")" -v t="${t:-0}" \
	'BEGIN { d = a - t; exit !(d > -0.001 && d < 0.001) }' ||
	{ echo "sim2_storm: window ends at $(jget t1_ms <"$tmp/out.json"), stall at $t"; fail=1; }
# the outputs are kept
[ -s q.csv ] && [ -s f.csv ] || { echo "sim2_storm: outputs not kept"; fail=1; }
tr -d '\r' <q.csv >"$tmp/q"
check "the storm's pause, sent by the receiver" 1 "$(grep -c '^100000\.000,host 8,pfc_pause_tx,' "$tmp/q")"
check "and received by its switch port" 1 "$(grep -c ',switch 0 port 8,pfc_pause_rx,' "$tmp/q")"
check "no resume at the receiver's port" 0 "$(grep -c ',switch 0 port 8,pfc_resume_rx,' "$tmp/q")"
# the Xoff spread to every sender, none lifted after the storm's pause
check "senders paused" 8 "$(awk -F, '$3 == "pfc_pause_rx" && $2 ~ /^host [0-7]$/ { h[$2] = 1 }
	END { n = 0; for (k in h) n++; print n }' "$tmp/q")"
# the flows file is written: its header, no flow finished (they are
# long-lived)
check "flows file" "id,src,dst" "$(head -n 1 f.csv | cut -d, -f1-3)"
check "flows file rows" 1 "$(wc -l <f.csv)"

# refused without PFC; nothing changes
"$BIN" -d sim:s -c 'sim scenario incast pfc off' >/dev/null 2>"$tmp/err2"
check "storm without PFC refused" "1 1" "$? $(wc -l <"$tmp/err2")"
grep -q 'storm_at needs PFC' "$tmp/err2" || { echo "sim2_storm: $(cat "$tmp/err2")"; fail=1; }
"$BIN" -d sim:s -c 'sim scenario' | grep -q 'pfc on.*storm_at 100us' ||
	{ echo "sim2_storm: the refused change changed the scenario"; fail=1; }

# a stalled point of a sweep: its error comes back from the worker whole
# (it was cut at 200 bytes, losing the ports at the end of the line); 32
# senders, some paused by the incast before the storm and never resumed:
# the port the NIC paused is still named first
"$BIN" -d sim:w -c 'sweep ALPHA 0.1,0.2 for 3ms scenario incast senders 32 rate 100g storm_at 100us jobs 1 into st' >/dev/null 2>"$tmp/err3"
check "stalled sweep: exit code (a device error)" 2 $?
case "$(tail -n 1 "$tmp/err3")" in
*"sweep: point 0 (ALPHA 0.1): sim: fabric stalled at t = "*"(by a NIC first, then the longest held): switch 0 port 32, host "*" and 25 more") ;;
*) echo "sim2_storm: sweep error: $(cat "$tmp/err3")"; fail=1 ;;
esac
exit $fail
