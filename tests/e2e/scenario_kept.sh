#!/bin/sh
# Issue 32.10: a scenario's keys stay on the device between processes,
# so every 'sim scenario KIND ...' says which keys it kept that differ
# from KIND's defaults, every time; 'sim scenario KIND fresh ...' starts
# from the defaults; the shipped scripts set up every state they rely on
# (incast-triage after a run that left other keys and the histogram
# running).
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data"
S="-d sim:k"
"$BIN" $S -c 'sim scenario incast senders 8 pfc off buffer 4MB' >/dev/null
for i in 1 2; do	# every time, in each new process
	check "kept said ($i)" "kept from before, not incast's defaults: buffer 4MB pfc off ('sim scenario incast fresh ...' starts from its defaults)" \
		"$("$BIN" $S -c 'sim scenario incast senders 4' | sed -n 2p)"
done
check "json" '"kept":"buffer 4MB pfc off"' \
	"$("$BIN" $S -j -c 'sim scenario incast senders 4' | grep -o '"kept":"[^"]*"')"
out=$("$BIN" $S -c 'sim scenario incast fresh senders 4')
check "fresh: the scenario and its hosts" 2 "$(printf '%s\n' "$out" | grep -c '')"
case "$out" in "incast senders 4 start sync size 0 rate 400g mtu 4096 delay 1us buffer 32MB "*" pfc on "*) ;;
	*) echo "scenario_kept: fresh: $out"; fail=1 ;; esac
check "nothing kept: nothing said" 2 \
	"$("$BIN" $S -c 'sim scenario incast senders 6' | grep -c '')"
# another kind starts from its defaults: nothing kept
check "another kind" 2 "$("$BIN" $S -c 'sim scenario staircase' | grep -c '')"
check "fresh alone is no key" 1 "$("$BIN" $S -c 'sim scenario incast senders 3 fresh' >/dev/null 2>&1; echo $?)"

# incast-triage after another incast left delay 5us and the histogram on
"$BIN" $S -c 'algo debug on; sim scenario incast senders 8 delay 5us ecn 10KB:20KB:1; retx start' >/dev/null
( cd "$tmp" && "$BIN" $S -x "$top/scripts/incast-triage.pcb" >"$tmp/it.out" 2>&1 )
check "incast-triage after a dirty run" 0 $?
grep -q "BAD_STATE\|error" "$tmp/it.out" && { echo "scenario_kept: $(grep error "$tmp/it.out")"; fail=1; }
check "incast-triage's scenario (its last, 8 MB flows)" "incast senders 64 start sync size 8MB rate 400g mtu 4096 delay 1us buffer 4MB ecn 100KB:400KB:0.2" \
	"$("$BIN" $S -c 'sim scenario' | head -n 1 | cut -d' ' -f1-17)"
exit $fail
