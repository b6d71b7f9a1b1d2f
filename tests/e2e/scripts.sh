#!/bin/sh
# Golden-output tests: run each tests/e2e/NAME.pcb with `pccbench -x` on a
# fresh sim device and compare stdout+stderr and the exit code with
# NAME.out (first line "exit N").  UPDATE=1 rewrites the .out files.
# What differs from run to run is replaced before comparing: the test's
# directory by TMP, times by TIME, pids by PID, wall seconds by WALL.
set -u
here=$(cd "$(dirname "$0")" && pwd)
BIN=${BIN:?BIN must name the pccbench binary}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for pcb in "$here"/*.pcb; do
	name=$(basename "$pcb" .pcb)
	args=$(sed -n 's/^# args: //p' "$pcb" | head -n 1)
	export XDG_STATE_HOME="$tmp/$name/state" XDG_CACHE_HOME="$tmp/$name/cache" \
		XDG_DATA_HOME="$tmp/$name/data"
	# shellcheck disable=SC2086
	( cd "$here" && "$BIN" -d "sim:e2e" $args --force -x "$name.pcb" ) \
		>"$tmp/$name.got" 2>&1
	echo "exit $?" | cat - "$tmp/$name.got" |
		sed -e "s|$tmp/$name|TMP|g" \
		    -e 's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9][T ][0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z*/TIME/g' \
		    -e 's/"pid":[0-9]*/"pid":PID/g' \
		    -e 's/"\(wall_s\|workload_s\)":[0-9.e+-]*/"\1":WALL/g' \
		    >"$tmp/$name.all"
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$tmp/$name.all" "$here/$name.out"
	elif ! diff -u "$here/$name.out" "$tmp/$name.all"; then
		echo "e2e: $name.pcb output differs"
		fail=1
	fi
done
exit $fail
