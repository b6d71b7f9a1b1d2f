#!/bin/sh
# Dry run = what runs (issue #24 item 4), on Debian's real mstreg and the
# emulated NIC (tests/mstreg-emu): for each operation of
# tests/mstreg-emu/writes.txt, the line a dry run prints for it (built by
# tests/tools/mstreg-dry from the same request and argv builders as the
# mstreg backend), pasted into a shell, writes the very register the
# backend's own run writes, on a device with the same history.  The
# program's path has a space and a quote in it: the line must quote it.
# dryrun.pcb/.out (run by scripts.sh) cover pccbench -n's own output.
. "$(dirname "$0")/lib.inc"
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
. "$top/tests/mstreg-emu/emu.inc"
if ! emu_setup dry; then
	[ -n "$EMU_BROKEN" ] && { echo "dryrun: $EMU_SKIP"; exit 1; }
	echo "dryrun: SKIP: $EMU_SKIP" >&2
	exit 0
fi
prog="$tmp/my mst'reg"
ln -s "$EMU_MSTREG" "$prog"
M="-d $EMU_DEV --backend mstreg --mstreg $EMU_MSTREG"
n=0
while IFS='|' read -r op cmd want; do
	case "$op" in ""|"#"*) continue ;; esac
	key=$(echo "$want" | cut -d' ' -f1-2)
	# the backend's run, on sim device "run"
	: >"$EMU_LOG"
	XDG_STATE_HOME=$tmp/run PCCB_EMU_SIM=run "$BIN" $M -y -c "$cmd" \
		>"$tmp/out" 2>&1 || { echo "dryrun: '$cmd' failed:"; cat "$tmp/out"; fail=1; }
	ran=$("$O/tests/ppcc-fields" <"$EMU_LOG" | grep "^$key " | tail -n 1)
	# the dry run's line, on sim device "dry"
	line=$("$O/tests/mstreg-dry" "$prog" $EMU_DEV "$op")
	eval "set -- $line"
	check "program of '$op', as a shell reads the line" "$prog" "$1"
	: >"$EMU_LOG"
	XDG_STATE_HOME=$tmp/dry PCCB_EMU_SIM=dry sh -c "$line" >"$tmp/out" 2>&1 ||
		{ echo "dryrun: [$line] failed:"; cat "$tmp/out"; fail=1; }
	pasted=$("$O/tests/ppcc-fields" <"$EMU_LOG" | grep "^$key " | tail -n 1)
	check "register of '$op', pasted vs run" "$ran" "$pasted"
	check "register of '$op', run" "$want" "${ran%% | RO*}"
	n=$((n + 1))
done <"$top/tests/mstreg-emu/writes.txt"
check "operations" 7 $n
exit $fail
