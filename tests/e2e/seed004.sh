#!/bin/sh
# Seed 004's own recipe on the sim firmware through Debian's real mstreg
# (tests/mstreg-emu): its four mlxreg lines, as the seed prints them,
# enter debug mode (disable slot 0, enable slot 1 with counters: no
# sl_bitmask in either --set), reset the counters (--set "cmd_type=13")
# and query them (--set "cmd_type=12": text[i] is counter i); then
# pccbench, through the same mstreg, sees slot 1 active with counters and
# reads the counters the query printed.
#
# The one change to the lines: Debian's mstreg 4.21 cannot open
# /dev/mst/mt4129_pciconf0 without NVIDIA's mst driver ("Unable to parse
# device name"), so they are given the PCI function the emulated
# ConnectX-7 (device id 4129) is at, 0000:08:00.0.
. "$(dirname "$0")/lib.inc"
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
export XDG_STATE_HOME="$tmp/state" XDG_CACHE_HOME="$tmp/cache" \
	XDG_DATA_HOME="$tmp/data"
. "$top/tests/mstreg-emu/emu.inc"
if ! emu_setup s4; then
	[ -n "${EMU_BROKEN:-}" ] && { echo "seed004: $EMU_SKIP"; exit 1; }
	echo "seed004: SKIP: $EMU_SKIP" >&2
	exit 0
fi
export PCCB_EMU_SIM=s4
M="-d $EMU_DEV --backend mstreg --mstreg $EMU_MSTREG"

# seed 004, "Moving to debug mode" and "Query Counters", verbatim
cat >"$tmp/seed.txt" <<'SEED'
    sudo mlxreg -d /dev/mst/mt4129_pciconf0 -y --set "cmd_type=2" --reg_name PPCC --indexes "local_port=1,pnat=0,lp_msb=0,algo_slot=0,algo_param_index=0"
    sudo mlxreg -d /dev/mst/mt4129_pciconf0 -y --set "cmd_type=1,counter_en=1" --reg_name PPCC --indexes "local_port=1,pnat=0,lp_msb=0,algo_slot=1,algo_param_index=0"
    sudo mlxreg -d /dev/mst/mt4129_pciconf0  -y --set "cmd_type=13" --reg_name PPCC --indexes "local_port=1,pnat=0,lp_msb=0,algo_slot=1,algo_param_index=0"
     mlxreg -d /dev/mst/mt4129_pciconf0 -y --set "cmd_type=12" --reg_name PPCC --indexes "local_port=1,pnat=0,lp_msb=0,algo_slot=1,algo_param_index=0"
SEED
# line N of the seed, run by the emulated NIC's mstreg
seed() {
	l=$(sed -n "$1p" "$tmp/seed.txt" | sed \
		's|^ *\(sudo \)\{0,1\}mlxreg -d /dev/mst/mt4129_pciconf0|"$EMU_MSTREG" -d $EMU_DEV|')
	eval "$l"
}

seed 1 >"$tmp/l1" 2>&1
check "line 1 (disable slot 0) exit" 0 $?
seed 2 >"$tmp/l2" 2>&1
check "line 2 (enable slot 1, counters) exit" 0 $?
"$BIN" $M -j algo list >"$tmp/list.json" 2>"$tmp/list.err"
check "algo list exit" 0 $?
check "debug mode: slot 0 off, slot 1 on with counters and active" \
	'"name":"ZTR_RTT","enabled":false,"counters":null,"active":false "name":"ZTR_RTT_DEBUG","enabled":true,"counters":"on","active":true' \
	"$(tr '{' '\n' <"$tmp/list.json" | grep '"slot":[01],' |
	grep -o '"name":.*"active":[a-z]*' | tr '\n' ' ' | sed 's/ $//')"

# traffic on the sim device counts; line 3 resets the counters
"$BIN" -d sim:s4 sim run 2ms >/dev/null 2>&1
seed 3 >"$tmp/l3" 2>&1
check "line 3 (reset counters) exit" 0 $?
check "after the reset: every counter 0" "0" \
	"$("$BIN" $M -j counter show | tr '{' '\n' | grep -c '"value":[1-9]')"
# more traffic; line 4 queries: text[i] is counter i, as counter show
"$BIN" -d sim:s4 sim run 2ms >/dev/null 2>&1
seed 4 >"$tmp/l4" 2>&1
check "line 4 (query counters) exit" 0 $?
"$BIN" $M -j counter show >"$tmp/show.json"
for i in 2 4 9 10; do
	want=$(tr '{' '\n' <"$tmp/show.json" | grep "\"index\":$i," | jget value)
	got=$(sed -n "s/^text\[$i\] *| 0x\([0-9a-f]*\).*/\1/p" "$tmp/l4")
	check "counter $i: the query's text[$i] is counter show's" "$want" \
		"$(printf '%d' "0x${got:-0}")"
	[ "${want:-0}" -gt 0 ] || { echo "seed004: counter $i did not count"; fail=1; }
done
exit $fail
