#!/bin/sh
# Process-level behaviour: two processes share a sim device, batch modes
# (-c, -x with FILE:LINE, --force, stdin, a command on the command line),
# exit codes, and journal restore after SIGKILL.
. "$(dirname "$0")/lib.inc"
trap 'kill -9 $pid 2>/dev/null; rm -rf "$tmp"' EXIT
pid=0
export XDG_STATE_HOME="$tmp/state" XDG_CACHE_HOME="$tmp/cache"
val() {		# the raw value of a param on a device
	"$BIN" -d "$1" -j -c "param get slot 0 $2" | sed 's/.*"raw":\([0-9]*\).*/\1/'
}

# one device, two processes
"$BIN" -d sim:lab -c 'param set ALPHA 0.3' >/dev/null
check "second process sees ALPHA" "0.3" \
	"$("$BIN" -d sim:lab -c 'param get ALPHA' | awk 'NR==2 {print $2}')"
check "other device untouched" 6553 "$(val sim:other ALPHA)"

# exit codes
"$BIN" -c 'param set ALPHA 7' 2>/dev/null; check "out of range exit" 1 $?
"$BIN" -c 'param set --unchecked ALPHA 7' 2>/dev/null
check "ignored write exit" 2 $?
"$BIN" -d 0000:08:00.0 -c 'algo list' 2>/dev/null; check "no backend exit" 2 $?
"$BIN" -c 'algo list' >/dev/null; check "ok exit" 0 $?

# -x stops at the first error and names FILE:LINE
printf 'echo one\nparam set ALPHA 9\necho three\n' >"$tmp/s.pcb"
out=$("$BIN" -x "$tmp/s.pcb" 2>&1); rc=$?
check "-x exit" 1 $rc
check "-x output" "one
$tmp/s.pcb:2: error: ALPHA: 9 (raw 589824) is out of range 0..1 (raw 0..65536); nothing was written" "$out"
out=$("$BIN" --force -x "$tmp/s.pcb" 2>/dev/null); rc=$?
check "--force goes on" "one
three" "$out"
check "--force exit" 1 $rc
# commands on stdin when it is not a terminal
out=$(printf 'echo a; echo b\n# comment\necho c\n' | "$BIN")
check "stdin" "a
b
c" "$out"
out=$("$BIN" -c 'echo x; frob; echo y' 2>&1); rc=$?
check "-c stops" "x
error: unknown command 'frob'; try 'help'" "$out"
out=$("$BIN" echo hello world)
check "argv command" "hello world" "$out"
# a malformed script never crashes
printf 'param set "ALPHA\n\001\002\nreg decode PPCC zz\n' >"$tmp/bad.pcb"
"$BIN" --force -x "$tmp/bad.pcb" >/dev/null 2>&1; rc=$?
check "malformed script exit" 1 $rc
# corrupt state file: refused, exit 1 (a bad file is bad input)
printf 'garbage' >"$tmp/state/pccbench/sim/broken.dev"
out=$("$BIN" -d sim:broken -c 'algo list' 2>&1); rc=$?
check "corrupt file exit" 1 $rc
case "$out" in *"broken.dev"*"not a pccbench sim device file"*|*"broken.dev"*"wrong size"*) ;;
	*) echo "process: corrupt message: $out"; fail=1 ;; esac

# SIGINT stops a long simulation within a second, cleanly
"$BIN" -d sim:intr -c 'algo debug on; sim run 10s; echo never' >"$tmp/intr.out" 2>&1 &
pid=$!
sleep 0.5
kill -INT $pid
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 10 ]; do sleep 0.1; i=$((i + 1)); done
if kill -0 $pid 2>/dev/null; then
	echo "process: still running 1 s after SIGINT"; fail=1; kill -9 $pid
fi
wait $pid; rc=$?
check "interrupted exit" 130 $rc	# 128 + SIGINT
grep -q "sim: interrupted at t = " "$tmp/intr.out" ||
	{ echo "process: no interrupt message"; fail=1; }
grep -q never "$tmp/intr.out" && { echo "process: script went on"; fail=1; }
# the device is consistent afterwards: counters kept, runs continue
"$BIN" -d sim:intr -c 'sim run 100us; counter show' >/dev/null
check "runs after interrupt" 0 $?

# crash: write, SIGKILL, restart (unclean journal reported), restore
"$BIN" -d sim:crash -c 'param set MAX_DELAY 100us' >/dev/null
"$BIN" -d sim:crash -c 'param set ALPHA 0.3 MAX_DELAY 50us AI 40; algo debug on; sleep 30 wall' \
	>/dev/null 2>&1 &
pid=$!
i=0
while [ "$(val sim:crash AI 2>/dev/null)" != 40 ] && [ $i -lt 100 ]; do
	sleep 0.1; i=$((i + 1))
done
sleep 0.3
kill -9 $pid
wait $pid 2>/dev/null
check "written before the kill" 19661 "$(val sim:crash ALPHA 2>/dev/null)"
warn=$("$BIN" -d sim:crash -c 'journal show' 2>&1 >/dev/null)
case "$warn" in *"journal"*"is unclean: pid $pid stopped"*) ;;
	*) echo "process: no unclean-journal warning: $warn"; fail=1 ;; esac
"$BIN" -d sim:crash -c 'journal restore' >/dev/null 2>&1
check "restore exit" 0 $?
check "ALPHA restored" 6553 "$(val sim:crash ALPHA)"
check "MAX_DELAY restored" 250000 "$(val sim:crash MAX_DELAY)"
check "AI restored" 9 "$(val sim:crash AI)"
check "slot 0 active again" 0 \
	"$("$BIN" -d sim:crash -j -c 'algo list' | grep -o '"slot":[0-9],[^}]*"active":true' | cut -c8)"
check "journal empty" "" "$("$BIN" -d sim:crash -c 'journal show' 2>&1 | sed 1d)"
exit $fail
