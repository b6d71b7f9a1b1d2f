#!/bin/sh
# The questions of debug mode on a terminal (#33 items 1 and 5; script(1)
# gives one, the answer comes on its stdin): `algo debug off` with slot 1
# tuned asks carry or discard and does what it is told; `algo debug on`
# with DCQCN active asks, and "n" writes nothing.
. "$(dirname "$0")/lib.inc"
command -v script >/dev/null || { echo "loop_tty: no script(1)"; exit 1; }
S="-d sim:tty"
get() { "$BIN" $S -j param get slot "$1" ALPHA | sed -n 's/.*"value":\([0-9.]*\).*/\1/p'; }
active() { "$BIN" "$@" -j algo list | tr '{' '\n' | grep '"active":true' | sed 's/.*"slot":\([0-9]*\).*/\1/'; }
ask() { printf '%s\n' "$1" | script -qec "$2" /dev/null | tr -d '\r'; }

"$BIN" $S -y algo debug on >/dev/null
"$BIN" $S param set ALPHA 0.35 >/dev/null
out=$(ask x "$BIN $S algo debug off")
case $out in *"slot 1 (debug) has ALPHA 0.35; slot 0 has ALPHA 0.1. Carry them to slot 0 or discard them? [c/d]"*"error: neither carry nor discard: nothing was written"*) ;;
	*) echo "loop_tty: no answer: $out"; fail=1 ;; esac
check "no answer: still debug mode" 1 "$(active $S)"
out=$(ask c "$BIN $S algo debug off")
case $out in *"carried to slot 0: ALPHA 0.35 (was ALPHA 0.1)"*"debug mode off; active: slot 0 (ZTR_RTT)"*) ;;
	*) echo "loop_tty: carry: $out"; fail=1 ;; esac
check "carried" 0.35 "$(get 0)"
"$BIN" $S -y algo debug on >/dev/null
"$BIN" $S param set ALPHA 0.4 >/dev/null
out=$(ask d "$BIN $S algo debug off")
case $out in *"discarded slot 1's ALPHA 0.4 ('journal show' has them); slot 0 keeps ALPHA 0.35"*) ;;
	*) echo "loop_tty: discard: $out"; fail=1 ;; esac
check "discarded" 0.35 "$(get 0)"

Q="-d sim:ttyq"
"$BIN" $Q -y -c 'algo disable 0; algo enable 2' >/dev/null
out=$(ask n "$BIN $Q algo debug on")
case $out in *"the active algorithm is DCQCN (slot 2); debug mode makes it ZTR_RTT_DEBUG (slot 1). Switch? [y/N]"*"error: not switched: nothing was written"*) ;;
	*) echo "loop_tty: DCQCN n: $out"; fail=1 ;; esac
check "n: DCQCN still active" 2 "$(active $Q)"
out=$(ask y "$BIN $Q algo debug on")
case $out in *"debug mode on; active: slot 1 (ZTR_RTT_DEBUG)"*) ;;
	*) echo "loop_tty: DCQCN y: $out"; fail=1 ;; esac
exit $fail
