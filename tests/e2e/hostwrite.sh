#!/bin/sh
# Issue 36 item 5, the last piece: a write through sim:NAME/hN sets that
# host NIC's own PPCC param (checked, written, read back, journaled in
# sim:NAME's journal naming the host, undoable), kept in NAME.hosts so
# the next process and its fabric run it; the rest of the fabric runs
# sim:NAME's register, whose writes still reach every host without a
# value of its own.  Slots (enable, disable, debug mode) stay sim:NAME's.
. "$(dirname "$0")/lib.inc"
hosts="$XDG_STATE_HOME/pccbench/sim/w.hosts"

# rates: host h0's and h1's transmitted bytes in a fresh 1 ms run of an
# incast of 2 senders (each process's fabric starts at t = 0; 400 Gb/s
# for 1 ms is 50 MB)
rates() {
	printf 'sim run 1ms\ndev open sim:w/h0\ncounter show host\ndev open sim:w/h1\ncounter show host\n' |
		"$BIN" -d sim:w -x - 2>/dev/null |
		awk '$1 == "tx_bytes_phy" { printf "%s%s", s, $2; s = " " } END { print "" }'
}
# within LO HI V: is V in LO..HI
within() {
	[ "$3" -ge "$1" ] && [ "$3" -le "$2" ] && echo yes || echo "no ($3)"
}
# jainof NAME: the Jain index of sweep NAME's points over ALPHA, run by
# worker processes on copies of the device (jobs 2), one line
jainof() {
	"$BIN" -d sim:w sweep ALPHA 0.1,0.2 for 1ms jobs 2 measure jain into "$1" >/dev/null 2>&1
	tail -n +2 "$XDG_DATA_HOME/pccbench/sweeps/$1/results.csv" 2>/dev/null |
		awk -F, '{ printf "%s%.2f", s, $5; s = " " } END { print "" }'
}
getv() {	# getv DEVICE: FIXED_RATE of slot 1 as read through DEVICE
	"$BIN" -d "$1" param get slot 1 FIXED_RATE 2>&1 | awk 'NR == 2 { print $2 }'
}

printf 'sim scenario incast senders 2\nalgo debug on\n' |
	"$BIN" -d sim:w -x - >/dev/null 2>&1 || fail=1
set -- $(rates)
check "baseline: h0 fair share" yes "$(within 20000000 27000000 "${1:-0}")"
check "baseline: h1 fair share" yes "$(within 20000000 27000000 "${2:-0}")"
check "baseline: a sweep's fabric fair" "1.00 1.00" "$(jainof base)"

# -- a bad value: one line, nothing changes ------------------------------------
jbefore=$("$BIN" -d sim:w journal show 2>&1 | head -n 1)
out=$("$BIN" -d sim:w/h0 param set slot 1 FIXED_RATE 9 2>&1); rc=$?
check "bad value refused" "1 error: FIXED_RATE: 9 (raw 9437184) is out of range 0..8 (raw 0..8388608); nothing was written" "$rc $out"
check "bad value: no override" "no" "$([ -e "$hosts" ] && echo yes || echo no)"
check "bad value: journal unchanged" "$jbefore" "$("$BIN" -d sim:w journal show 2>&1 | head -n 1)"
check "bad value: h0 reads the shared" 0 "$(getv sim:w/h0)"

# -- h0's own FIXED_RATE: read back, kept for the next process ----------------
out=$("$BIN" -d sim:w/h0 param set slot 1 FIXED_RATE 0.25 2>/dev/null); rc=$?
check "host write" "0 NAME        OLD   NEW  UNITS  RAW OLD  RAW NEW
FIXED_RATE    0  0.25               0   262144" "$rc $out"
check "next process: h0 reads its own" 0.25 "$(getv sim:w/h0)"
check "h1 reads the shared" 0 "$(getv sim:w/h1)"
check "sim:w reads the shared" 0 "$(getv sim:w)"
check "kept beside the device" "h0 slot 1 param 13 value 262144" "$(grep '^h' "$hosts")"
check "dev show: own params" "own_params slot 1 FIXED_RATE" \
	"$("$BIN" -d sim:w/h0 dev show | grep '^own_params')"
check "dev show: none of its own" "own_params none (sim:w's register throughout)" \
	"$("$BIN" -d sim:w/h1 dev show | grep '^own_params')"
check "param list marks it" "1 ALPHA no 13 FIXED_RATE yes" \
	"$("$BIN" -d sim:w/h0 param list 1 | awk '$2 == "FIXED_RATE" || $2 == "ALPHA" { printf "%s%s %s %s", s, $1, $2, $NF; s = " " } END { print "" }')"
check "journal names the host" "FIXED_RATE on sim:w/h0 0 0.25 ok" \
	"$("$BIN" -d sim:w journal show | awk '$6 == "FIXED_RATE" { print $6, $7, $8, $9, $10, $NF }')"

# -- the fabric's h0 runs it (a new process): a quarter of the line ------------
set -- $(rates)
check "h0 runs its own rate" yes "$(within 12000000 13000000 "${1:-0}")"
check "h1 is not held to it" yes "$(within 30000000 50000000 "${2:-0}")"
# a sweep on sim:w (workers on copies of the device): its h0 runs it too
check "a sweep's h0 runs it" "0.80 0.80" "$(jainof held)"

# -- a write through sim:w reaches h1, not h0 (its own value wins) -------------
"$BIN" -d sim:w param set slot 1 FIXED_RATE 0.5 >/dev/null 2>&1 || fail=1
check "h1 follows the shared write" 0.5 "$(getv sim:w/h1)"
check "h0 keeps its own" 0.25 "$(getv sim:w/h0)"
set -- $(rates)
check "h0 still a quarter" yes "$(within 12000000 13000000 "${1:-0}")"
check "h1 at the shared half" yes "$(within 24000000 26000000 "${2:-0}")"

# -- journal undo of h0's write: its own value gone, the shared rate again -----
seq=$("$BIN" -d sim:w journal show | awk '$6 == "FIXED_RATE" && $8 == "sim:w/h0" { print $1; exit }')
out=$("$BIN" -d sim:w journal undo "$seq" 2>&1); rc=$?
check "undo through sim:w" "0 undid write $seq: slot 1 FIXED_RATE on sim:w/h0 0.25 -> 0.5" "$rc $out"
check "undo: no override left" "" "$(grep '^h' "$hosts")"
check "undo: h0 reads the shared" 0.5 "$(getv sim:w/h0)"
set -- $(rates)
check "undo: h0 at the shared half" yes "$(within 24000000 26000000 "${1:-0}")"

# -- param reset through a host drops its own value ----------------------------
"$BIN" -d sim:w/h1 param set slot 1 FIXED_RATE 0.125 >/dev/null 2>&1 || fail=1
check "h1's own" 0.125 "$(getv sim:w/h1)"
"$BIN" -d sim:w/h1 param reset slot 1 FIXED_RATE >/dev/null 2>&1 || fail=1
check "reset: h1 the shared again" 0.5 "$(getv sim:w/h1)"
check "reset: no override left" "" "$(grep '^h' "$hosts")"

# -- an own value the shared register comes to equal stays the NIC's own:
# the shared moving on does not take it along, and dev show and param
# list say so alike
"$BIN" -d sim:w/h1 param set slot 1 FIXED_RATE 0.125 >/dev/null 2>&1 || fail=1
"$BIN" -d sim:w param set slot 1 FIXED_RATE 0.125 >/dev/null 2>&1 || fail=1
check "equal to the shared: param list still marks it" "13 FIXED_RATE yes" \
	"$("$BIN" -d sim:w/h1 param list 1 | awk '$2 == "FIXED_RATE" { print $1, $2, $NF }')"
check "equal to the shared: dev show too" "own_params slot 1 FIXED_RATE" \
	"$("$BIN" -d sim:w/h1 dev show | grep '^own_params')"
"$BIN" -d sim:w param set slot 1 FIXED_RATE 0.5 >/dev/null 2>&1 || fail=1
check "the shared moved on: h1 keeps its own" 0.125 "$(getv sim:w/h1)"
"$BIN" -d sim:w/h1 param reset slot 1 FIXED_RATE >/dev/null 2>&1 || fail=1

# -- slots stay sim:w's: enabling through a host is refused ------------------
before=$("$BIN" -d sim:w algo list 2>&1)
out=$("$BIN" -d sim:w/h0 algo enable 2 2>&1); rc=$?
check "enable refused" "1 error: sim:w/h0 shares sim:w's slots: enable, disable and debug mode go through sim:w ('dev open sim:w'); a host takes params of its own" "$rc $out"
check "enable: nothing changed" "$before" "$("$BIN" -d sim:w algo list 2>&1)"
exit $fail
