#!/bin/sh
# Debug mode as a decision (#33 items 1 and 5): `algo debug off` with
# slot 1 tuned other than slot 0 asks carry or discard (-y, or no
# terminal: the word is required, nothing written without it); carry
# writes slot 1's values to slot 0 in the same journal transaction as the
# switch, read back; `algo debug on` names what it overwrites in slot 1
# and `journal undo` puts it back; DCQCN active: `debug on` asks (-y:
# refused unless --force).
. "$(dirname "$0")/lib.inc"
S="-d sim:dbg"
writes() { "$BIN" $S -j journal show | grep -o '"seq":' | wc -l; }
get() { "$BIN" $S -j param get slot "$1" "$2" | sed -n 's/.*"value":\([0-9.]*\).*/\1/p'; }
active() { "$BIN" $S -j algo list | tr '{' '\n' | grep '"active":true' | sed 's/.*"slot":\([0-9]*\).*/\1/'; }

"$BIN" $S -y algo debug on >/dev/null
"$BIN" $S param set ALPHA 0.35 AI 20 >/dev/null
n0=$(writes)
out=$("$BIN" $S -y algo debug off 2>&1)
check "off -y without a word rc" 1 $?
check "off -y without a word" "error: algo debug off: slot 1 (debug) has ALPHA 0.35, AI 20 B/100Gb/s, slot 0 has ALPHA 0.1, AI 9 B/100Gb/s; say 'algo debug off carry' (to slot 0) or 'algo debug off discard'; nothing was written" "$out"
"$BIN" $S algo debug off </dev/null >/dev/null 2>&1
check "off without a terminal rc" 1 $?
check "nothing written" "$n0" "$(writes)"
check "still debug mode" 1 "$(active)"

out=$("$BIN" $S -y algo debug off carry)
check "carry" "carried to slot 0: ALPHA 0.35, AI 20 B/100Gb/s (was ALPHA 0.1, AI 9 B/100Gb/s)
debug mode off; active: slot 0 (ZTR_RTT)" "$out"
check "slot 0 ALPHA" 0.35 "$(get 0 ALPHA)"
check "slot 0 AI" 20 "$(get 0 AI)"
check "active 0" 0 "$(active)"
check "one transaction" 4 "$("$BIN" $S journal show | grep -c "ok (tx $((n0 + 1)))")"

# on: slot 1's own values are named and recoverable
"$BIN" $S -y algo debug on keep >/dev/null
"$BIN" $S param set ALPHA 0.5 >/dev/null
"$BIN" $S -y algo debug off discard >/dev/null
check "discard keeps slot 0" 0.35 "$(get 0 ALPHA)"
check "discard leaves slot 1" 0.5 "$(get 1 ALPHA)"
n1=$(writes)
out=$("$BIN" $S -y algo debug on)
check "on names the overwritten" "copied from slot 0 to slot 1: ALPHA 0.35
slot 1 had: ALPHA 0.5 ('journal undo $((n1 + 1))' takes this debug on back, them with it)
debug mode on; active: slot 1 (ZTR_RTT_DEBUG)" "$out"
"$BIN" $S journal undo $((n1 + 1)) >/dev/null
check "undo: slot 1's own back" 0.5 "$(get 1 ALPHA)"
check "undo: slot 0 active again" 0 "$(active)"
# JSON says whether anything changed
check "off again: nothing changed" '{"result":"debug mode off","active_slot":0,"changed":false}' \
	"$("$BIN" $S -y -j algo debug off discard)"
check "on: changed" '{"result":"debug mode on","active_slot":1,"changed":true}' \
	"$("$BIN" $S -y -j algo debug on keep)"

# DCQCN active: asked; -y refuses without --force
Q="-d sim:dcq"
"$BIN" $Q -y -c 'algo disable 0; algo enable 2' >/dev/null
out=$("$BIN" $Q -y algo debug on 2>&1)
check "DCQCN -y rc" 1 $?
check "DCQCN -y" "error: algo debug on: the active algorithm is DCQCN (slot 2), debug mode would make it ZTR_RTT_DEBUG (slot 1); --force switches it; nothing was written" "$out"
"$BIN" $Q algo debug on </dev/null >/dev/null 2>&1
check "DCQCN no terminal rc" 1 $?
check "DCQCN nothing written" 2 "$("$BIN" $Q -j journal show | grep -o '"seq":' | wc -l)"
out=$("$BIN" $Q -y algo debug on --force | tail -n 1)
check "DCQCN --force" "debug mode on; active: slot 1 (ZTR_RTT_DEBUG)" "$out"
exit $fail
