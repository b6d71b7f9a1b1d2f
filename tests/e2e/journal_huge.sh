#!/bin/sh
# A journal file too large to be real (#31 item 10), e.g. 200 MB sparse:
# not read (it took seconds at every start), one line saying so; no write
# is made or restore run while it is there; `journal clear` empties it,
# then writes are journaled again.  At the limit it is still read.
. "$(dirname "$0")/lib.inc"
S="-d sim:jh"
J="$XDG_STATE_HOME/pccbench/journal/sim_jh.log"
"$BIN" $S param set ALPHA 0.2 >/dev/null
check "first write rc" 0 $?
truncate -s 200M "$J"
msg="journal '$J' is 200 MB, too large to be a real one (at most 64 MB): not read, and no write is made; check the device, then 'journal clear'"
out=$("$BIN" $S param get ALPHA 2>&1 >/dev/null)
check "read: the warning" "warning: $msg" "$out"
out=$("$BIN" $S param set ALPHA 0.3 2>&1)
check "write rc" 1 $?
check "write refused" "warning: $msg
error: $msg" "$out"
check "nothing written" 0.2 "$("$BIN" $S param get ALPHA 2>/dev/null | awk '$1 == "ALPHA" { print $2 }')"
out=$("$BIN" $S journal restore 2>&1)
check "restore rc" 1 $?
check "restore refused" "warning: $msg
error: $msg" "$out"
check "restore kept it" 209715200 "$(wc -c <"$J" | tr -d ' ')"
"$BIN" $S journal clear >/dev/null 2>&1
check "clear rc" 0 $?
check "cleared" 0 "$(wc -c <"$J" | tr -d ' ')"
"$BIN" $S param set ALPHA 0.3 >/dev/null 2>&1
check "write after clear" 0 $?
check "journaled again" 1 "$("$BIN" $S -j journal show | grep -o '"seq":' | wc -l)"
# 64 MB exactly: read (its NULs one damaged record), no such warning
truncate -s 64M "$J"
out=$("$BIN" $S param get ALPHA 2>&1 >/dev/null)
case $out in *"too large"*) echo "journal_huge: 64 MB refused: $out"; fail=1 ;; esac
exit $fail
