#!/bin/sh
# profile apply tells the truth (#33 items 2-3, #31 item 4): "changed" is
# what would change under --check; a JSON error of a writing command
# carries "changed"; --detailed-exitcode gives 0 unchanged, 2 changed,
# 1 error; `profile diff` exits 1 when the profiles differ.  What the
# device cannot take (counters on slot 0, on a disabled slot, on two
# slots) is refused before the first write, and counters to turn off on
# an enabled slot are turned off (not "changed" forever).  Params written
# to a slot that will not be the active one: a warning before writing,
# refused under --strict.
. "$(dirname "$0")/lib.inc"
P="$XDG_DATA_HOME/pccbench/profiles"
S="-d sim:lp"
writes() { "$BIN" $S -j journal show | grep -o '"seq":' | wc -l; }

"$BIN" $S profile save base >/dev/null
"$BIN" $S param set ALPHA 0.3 >/dev/null
"$BIN" $S profile diff base >/dev/null
check "diff differs: exit 1" 1 $?
"$BIN" $S profile diff base base >/dev/null
check "diff same: exit 0" 0 $?

n0=$(writes)
out=$("$BIN" $S -j profile apply base --check)
check "check rc" 0 $?
check "check JSON" '{"profile":"base","changed":true,"writes":1,"check":true}' "$out"
check "check wrote nothing" "$n0" "$(writes)"
"$BIN" $S profile apply base --check --detailed-exitcode >/dev/null
check "check detailed: 2" 2 $?
"$BIN" $S profile apply base --detailed-exitcode >/dev/null
check "apply detailed: 2" 2 $?
out=$("$BIN" $S -j profile apply base --detailed-exitcode)
check "again detailed: 0" 0 $?
check "again JSON" '{"profile":"base","changed":false,"writes":0,"check":false}' "$out"
out=$("$BIN" $S -j profile apply nosuch --detailed-exitcode 2>/dev/null)
check "error detailed: 1" 1 $?
case $out in *'"changed":false'*) ;; *) echo "loop_profile: error JSON lacks changed: $out"; fail=1 ;; esac

# unsatisfiable: counters on slot 0 (no counters there), with a param;
# refused before the first write, every time
"$BIN" $S param set ALPHA 0.3 >/dev/null
sed 's/"counters":false/"counters":true/' "$P/base.json" >"$tmp/cnt0.json"
n1=$(writes)
for i in 1 2; do
	out=$("$BIN" $S -j profile apply "$tmp/cnt0.json" 2>&1)
	check "counters on slot 0 rc ($i)" 1 $?
	case $out in *'slot 0 (ZTR_RTT) has no counters, the profile turns them on; nothing was written'*'"changed":false'*) ;;
		*) echo "loop_profile: counters on slot 0: $out"; fail=1 ;; esac
done
check "nothing written" "$n1" "$(writes)"
check "ALPHA kept" "0.3" "$("$BIN" $S -j param get ALPHA | sed -n 's/.*"value":\([0-9.]*\).*/\1/p')"

# counters on two slots: refused
"$BIN" $S algo enable 1 counters >/dev/null
"$BIN" $S algo enable 2 >/dev/null
"$BIN" $S profile save two >/dev/null
sed '/"slot":2/s/"counters":false/"counters":true/' "$P/two.json" >"$tmp/two.json"
out=$("$BIN" $S profile apply "$tmp/two.json" 2>&1)
check "two holders rc" 1 $?
case $out in *"counters on slots 1 and 2 (a port holds them on one slot); nothing was written"*) ;;
	*) echo "loop_profile: two holders: $out"; fail=1 ;; esac
# slot 1 enabled without counters, the device has them on: turned off,
# and a second apply changes nothing
"$BIN" $S algo disable 1 >/dev/null
"$BIN" $S algo enable 1 >/dev/null
"$BIN" $S profile save nocnt slot 1 >/dev/null
"$BIN" $S algo disable 1 >/dev/null
"$BIN" $S algo enable 1 counters >/dev/null
out=$("$BIN" $S -j profile apply nocnt 2>/dev/null)
check "counters off" '{"profile":"nocnt","changed":true,"writes":1,"check":false}' "$out"
out=$("$BIN" $S -j profile apply nocnt 2>/dev/null)
check "counters off, again" '{"profile":"nocnt","changed":false,"writes":0,"check":false}' "$out"

# a debug-mode profile (slot 1) on a host in deployment mode
D="-d sim:lpdbg"
"$BIN" $D -y algo debug on discard >/dev/null 2>&1 || "$BIN" $D algo debug on >/dev/null
"$BIN" $D param set ALPHA 0.35 >/dev/null
"$BIN" $D profile save dbg slot 1 >/dev/null
F="-d sim:lpfresh"
out=$("$BIN" $F profile apply dbg --strict 2>&1)
check "strict rc" 1 $?
check "strict" "error: profile dbg writes params to slot 1 but slot 0 will be active (the lowest enabled): they would not run (--strict); nothing was written" "$out"
check "strict wrote nothing" 0 "$("$BIN" $F -j journal show | grep -o '"seq":' | wc -l)"
out=$("$BIN" $F profile apply dbg 2>&1 >/dev/null)
check "warning" "warning: profile dbg writes params to slot 1 but slot 0 will be active (the lowest enabled): they will not run until slot 1 is the active one" "$out"

# a device that refuses a write no check foresees (the fake mstreg fails
# every enable): the params written before it are undone, and it says so
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
FAKE="$O/tests/fake-mstreg"
[ -x "$FAKE" ] || { echo "loop_profile: $FAKE not built"; exit 1; }
M="-d 0000:08:00.0 --backend mstreg --mstreg $FAKE"
"$BIN" -d sim:rbref -c 'param set ALPHA 0.3; algo enable 2; profile save rb' >/dev/null
out=$(FAKE_MSTREG_SIM=rb FAKE_MSTREG_FAIL_CMD=1 "$BIN" -y $M -j profile apply rb 2>/dev/null)
check "refused enable rc" 2 $?
check "refused enable: undone" '{"error":{"code":"DEVICE","message":"0000:08:00.0: mstreg: Failed to send access register: Bad parameter; the 1 write(s) it had made were undone (journal tx 1): the device is as before"},"changed":false}' "$out"
check "refused enable: ALPHA as before" 0.1 "$(FAKE_MSTREG_SIM=rb "$BIN" $M -j param get ALPHA | sed -n 's/.*"value":\([0-9.]*\).*/\1/p')"
check "refused enable: the journal" "ok (tx 1), UNDONE by 3|failed (tx 1)|ok (tx 3), undoes 1" \
	"$(FAKE_MSTREG_SIM=rb "$BIN" $M -j journal show | grep -o '"outcome":"[^"]*"' | cut -d'"' -f4 | tr '\n' '|' | sed 's/|$//')"
exit $fail
