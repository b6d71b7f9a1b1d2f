#!/bin/sh
# Tuning profiles (#20 part 1): save, show, diff, list, drop; apply writes
# only what differs, as one journal transaction that `journal undo` takes
# back whole; a second apply changes nothing ({"changed":false}, exit 0);
# --check writes nothing; another algorithm or version is refused unless
# --force; a damaged profile is one line and nothing written.  Export: the
# mstreg lines, run by the shell through Debian's real mstreg on the
# emulated NIC, bring that NIC back to the profile.
. "$(dirname "$0")/lib.inc"
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
P="$XDG_DATA_HOME/pccbench/profiles"
S="-d sim:prof"
writes() { "$BIN" $S -j journal show | grep -o '"seq":' | wc -l; }

"$BIN" $S profile save base >/dev/null
check "save rc" 0 $?
for k in '"schema":"pccbench-profile"' '"version":1' '"name":"ALPHA"' \
	'"raw":6553' '"access":"rw"' '"algo":"ZTR_RTT"' '"model":"simulated"'; do
	grep -qF "$k" "$P/base.json" || { echo "profile: base.json lacks $k"; fail=1; }
done
"$BIN" $S param set ALPHA 0.3 MAX_DEC 0.9 >/dev/null
"$BIN" $S algo enable 2 >/dev/null
"$BIN" $S profile save tuned >/dev/null
check "list" "base tuned" "$("$BIN" $S profile list | tr '\n' ' ' | sed 's/ $//')"
out=$("$BIN" $S profile show tuned | grep -E '^ +0 +ZTR_RTT +ALPHA ')
check "show ALPHA" "0  ZTR_RTT            ALPHA                                0.3               19661" "$(echo "$out" | sed 's/^ *//')"
out=$("$BIN" $S profile diff base)
case $out in *"B = the device sim:prof: 3 differences"*) ;;
	*) echo "profile: diff said: $out"; fail=1 ;; esac
check "diff ALPHA" "0 ALPHA 0.1 0.3" "$(echo "$out" | grep ' ALPHA ' | tr -s ' ' | sed 's/^ //;s/ $//')"

# --check: the plan, nothing written
n0=$(writes)
out=$("$BIN" $S profile apply base --check)
check "check rc" 0 $?
check "check plan" "would set slot 0 ALPHA 0.3 -> 0.1
would set slot 0 MAX_DEC 0.9 -> 0.97
would disable slot 2
profile base: 3 writes needed (--check: nothing written)" "$out"
check "check wrote nothing" "$n0" "$(writes)"

# apply: the three writes, one transaction; again: nothing to do
out=$("$BIN" $S -j profile apply base)
check "apply" '{"profile":"base","changed":true,"writes":3,"check":false}' "$out"
check "apply journaled 3" $((n0 + 3)) "$(writes)"
check "one transaction" 3 "$("$BIN" $S journal show | grep -c "ok (tx $((n0 + 1)))")"
check "device = base" "0 differences" "$("$BIN" $S profile diff base | grep -o '0 differences')"
out=$("$BIN" $S -j profile apply base)
check "apply again rc" 0 $?
check "apply again" '{"profile":"base","changed":false,"writes":0,"check":false}' "$out"
check "apply again wrote nothing" $((n0 + 3)) "$(writes)"

# journal undo last: the whole transaction, last write first
out=$("$BIN" $S journal undo last)
check "undo the apply" "undid write $((n0 + 3)): slot 2 algo disabled -> enabled
undid write $((n0 + 2)): slot 0 MAX_DEC 0.97 -> 0.9
undid write $((n0 + 1)): slot 0 ALPHA 0.1 -> 0.3" "$out"
check "device = tuned" "0 differences" "$("$BIN" $S profile diff tuned | grep -o '0 differences')"

# refusals: nothing written
n1=$(writes)
sed 's/"algo_id":23124/"algo_id":7/' "$P/base.json" >"$tmp/other.json"
out=$("$BIN" $S profile apply "$tmp/other.json" 2>&1)
check "other algo rc" 1 $?
check "other algo" "error: profile: slot 0 runs ZTR_RTT id 23124 version 1.0, the profile is for ZTR_RTT id 7 version 1.0 (--force applies it anyway)" "$out"
sed 's/"version":1/"version":9/' "$P/base.json" >"$tmp/v9.json"
out=$("$BIN" $S profile apply "$tmp/v9.json" 2>&1)
check "version rc" 1 $?
sed 's/"raw":6553,/"raw":99999,/' "$P/base.json" >"$tmp/range.json"
out=$("$BIN" $S profile apply "$tmp/range.json" 2>&1)
check "out of range" "error: ALPHA: 1.52586 (raw 99999) is out of range 0..1 (raw 0..65536); nothing was written" "$out"
sed 's/"name":"ALPHA"/"name":"ALPHAX"/' "$P/base.json" >"$tmp/name.json"
out=$("$BIN" $S profile apply "$tmp/name.json" 2>&1)
check "unknown param rc" 1 $?
printf '{"schema":"pccbench-profile","version":1,"slots":[{"slot":0}]}' >"$tmp/half.json"
out=$("$BIN" $S profile apply "$tmp/half.json" 2>&1)
check "half a slot rc" 1 $?
printf 'not json' >"$tmp/junk.json"
out=$("$BIN" $S profile apply "$tmp/junk.json" 2>&1)
check "junk" "error: $tmp/junk.json: not a JSON object" "$out"
check "refusals wrote nothing" "$n1" "$(writes)"
# --force: another algorithm's profile applied anyway
"$BIN" $S profile apply "$tmp/other.json" --force >/dev/null
check "force rc" 0 $?
out=$("$BIN" $S profile drop tuned)
check "drop" "profile tuned dropped" "$out"
out=$("$BIN" $S profile show tuned 2>&1)
check "dropped" "error: no profile 'tuned' ('profile list')" "$out"

# export: Debian's mstreg on the emulated NIC runs the lines
. "$top/tests/mstreg-emu/emu.inc"
if ! emu_setup prof; then
	[ -n "$EMU_BROKEN" ] && { echo "profile: $EMU_SKIP"; exit 1; }
	echo "profile: export SKIP: $EMU_SKIP" >&2
	exit $fail
fi
M="-d $EMU_DEV --backend mstreg --mstreg $EMU_MSTREG -y"
export PCCB_EMU_SIM=prof
"$BIN" $M profile save nic slot 0 >/dev/null
check "nic save rc" 0 $?
"$BIN" $M param set ALPHA 0.4 AI 20 >/dev/null
check "nic moved" "2 differences" "$("$BIN" $M profile diff nic | grep -o '[0-9]* differences')"
"$BIN" $M profile export nic --as mstreg >"$tmp/nic.sh"
# a line per read-write param but BW_G (the device's, from the link
# speed: issue 37.13), and one for the slot's state
check "export lines" "$(grep -c '"access":"rw"' "$P/nic.json")" \
	"$(grep -c '^mstreg -d' "$tmp/nic.sh")"
check "export leaves BW_G alone" 0 "$(grep -c 'algo_param_index=0 --op cmd_type=8' "$tmp/nic.sh")"
mkdir "$tmp/bin"
ln -s "$EMU_MSTREG" "$tmp/bin/mstreg"
PATH="$tmp/bin:$PATH" sh "$tmp/nic.sh" >"$tmp/nic.out" 2>&1
check "export ran" 0 $?
check "nic = profile" "0 differences" "$("$BIN" $M profile diff nic | grep -o '[0-9]* differences')"
exit $fail
