#!/bin/sh
# Issue 32.11: the sim device's host counters are kept with the device, as
# a NIC's outlive the process that made the traffic: a new process reads
# them where the last left them (each fabric's added when it goes), `sim
# reset` and a new scenario keep them, a damaged file is refused with one
# line naming it.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state"
S="-d sim:c"
tx() { "$BIN" $S -j -c "$1" | tr '{' '\n' | grep '"name":"tx_bytes_phy"' | jget value; }
"$BIN" $S -c 'sim scenario incast senders 2; sim run 1ms' >/dev/null
one=$(tx 'counter show host')
[ "${one:-0}" -gt 1000000 ] || { echo "simctr: after a run in another process: $one"; fail=1; }
# the same run again (a fresh fabric, the same bytes): twice as many
check "a second process adds" "$((one * 2))" "$(tx 'sim run 1ms; counter show host')"
check "kept after that process" "$((one * 2))" "$(tx 'counter show host')"
check "sim reset keeps them" "$((one * 3))" "$(tx 'sim run 1ms; sim reset; counter show host')"
# the fabric's own view stays the fabric's: this process's run alone
check "sim counters: this fabric's" "$one" \
	"$("$BIN" $S -j -c 'sim run 1ms; sim counters' | tr '{' '\n' | grep '"name":"tx_bytes_phy"' | jget value)"
# a recording in a new process: its rates from its own baseline, not
# from 0 (its first interval would hold every earlier run's bytes:
# thousands of Gb/s); 2 senders at 400 Gb/s send at most 800 and framing
"$BIN" $S -c 'record for 1ms every 100us into r' >/dev/null 2>&1 ||
	{ echo "simctr: record failed"; fail=1; }
check "record from its baseline" "" "$(awk -F, 'NR > 1 && ($16 < 0 || $16 > 850)' \
	"$XDG_DATA_HOME/pccbench/series/r.csv")"
# a process that keeps reading (a recorder asks every interval) sees
# what another process added meanwhile: its commands come through a FIFO,
# the second process runs between its two reads
now=$(tx 'counter show host')
mkfifo "$tmp/cmds"
"$BIN" $S -j <"$tmp/cmds" >"$tmp/reader.out" 2>&1 &
reader=$!
exec 3>"$tmp/cmds"
echo 'counter show host' >&3
i=0
while [ "$(grep -c tx_bytes_phy "$tmp/reader.out")" -lt 1 ] && [ $i -lt 600 ]; do
	sleep 0.1; i=$((i + 1)); done
"$BIN" $S -c 'sim run 1ms' >/dev/null
echo 'counter show host' >&3
exec 3>&-
wait $reader
check "a reader sees another process's fold" "$now $((now + one))" \
	"$(tr '{' '\n' <"$tmp/reader.out" | sed -n 's/^"name":"tx_bytes_phy","value":\([0-9]*\).*/\1/p' | tr '\n' ' ' | sed 's/ $//')"
f="$XDG_STATE_HOME/pccbench/sim/c.hostctr"
[ -f "$f" ] || { echo "simctr: no $f"; fail=1; }
printf 'hostctr 3 1 2\n' >"$f"
out=$("$BIN" $S -c 'counter show host' 2>&1); rc=$?
check "damaged: exit" 1 $rc
check "damaged: one line" "error: '$f' is damaged (no valid checksum); remove it to start the host counters from 0" "$out"
exit $fail
