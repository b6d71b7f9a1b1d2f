#!/bin/sh
# journal undo last (#33 item 4): it takes back the most recent write
# that is neither undone nor an undo, so twice undoes two writes (never
# undo then redo); `journal show` marks undone writes and undos.
. "$(dirname "$0")/lib.inc"
S="-d sim:undo"
"$BIN" $S param set ALPHA 0.3 >/dev/null
"$BIN" $S param set AI 20 >/dev/null
out=$("$BIN" $S journal undo last)
check "first undo: AI" "undid write 2: slot 0 AI 20 B/100Gb/s -> 9 B/100Gb/s" "$out"
out=$("$BIN" $S journal undo last)
check "second undo: ALPHA, not a redo" "undid write 1: slot 0 ALPHA 0.3 -> 0.1" "$out"
out=$("$BIN" $S journal undo last 2>&1)
check "third undo rc" 1 $?
check "nothing left" "error: journal undo: no confirmed write left to undo ('journal show' marks the undone)" "$out"
check "ALPHA back" "0.1" "$("$BIN" $S -j param get ALPHA | sed -n 's/.*"value":\([0-9.]*\).*/\1/p')"
out=$("$BIN" $S journal show | awk 'NR > 2 { sub(/^.*(ok|failed)/, "&"); print }' | sed 's/.*  ok/ok/')
check "show marks" "ok, UNDONE by 4
ok, UNDONE by 3
ok, undoes 2
ok, undoes 1" "$out"
out=$("$BIN" $S -j journal show | grep -o '"undo_of":[0-9a-z]*,"undone_by":[0-9a-z]*' | tr '\n' ' ')
check "show JSON" '"undo_of":null,"undone_by":4 "undo_of":null,"undone_by":3 "undo_of":2,"undone_by":null "undo_of":1,"undone_by":null ' "$out"
out=$("$BIN" $S journal undo 1 2>&1)
check "undone again by seq" "error: journal undo: write 1 was undone already (by write 4)" "$out"
exit $fail
