#!/bin/sh
# sweep merge trusts no shard (#31 item 6): a row whose param values are
# not the plan's for its point (point 0 saying ALPHA 0.9, or another
# point's 0.2, where the plan has 0.1) is refused with one line naming
# the file and line, nothing merged; sweep.args carries the crc line of
# the program's other files, so an edited one is refused by merge, show
# and resume.  The untouched shards still merge.
. "$(dirname "$0")/lib.inc"
d="$XDG_DATA_HOME/pccbench/sweeps"
S="-d sim:mc"
"$BIN" $S sweep plan m ALPHA 0.1,0.2,0.3 for 1ms measure util >/dev/null
check "plan rc" 0 $?
tail -n 1 "$d/m/sweep.args" | grep -qx 'crc [0-9a-f]\{8\}' ||
	{ echo "sweep_merge_check: sweep.args has no crc line"; fail=1; }
for i in 0 1; do
	"$BIN" $S sweep run m --shard $i/2 jobs 1 >/dev/null 2>&1
	check "shard $i rc" 0 $?
done
sh0="$d/m/shard-0-of-2/results.csv"
check "shard 0 point 0" "0,0," "$(sed -n 2p "$sh0" | cut -d, -f1,2),"
for v in 0.9 0.2; do
	mkdir -p "$tmp/t$v"
	sed "2s/^0,0,\([^,]*\),0.1,/0,0,\1,$v,/" "$sh0" >"$tmp/t$v/results.csv"
	cmp -s "$sh0" "$tmp/t$v/results.csv" &&
		{ echo "sweep_merge_check: $v: not tampered"; fail=1; }
	out=$("$BIN" $S sweep merge m "$tmp/t$v" 2>&1)
	check "ALPHA $v rc" 1 $?
	check "ALPHA $v" "error: '$tmp/t$v/results.csv' line 2: point 0 has ALPHA $v where the plan has 0.1" "$out"
	[ -e "$d/m/results.csv" ] && { echo "sweep_merge_check: $v: merged"; fail=1; }
done
# sweep.args edited (another value in place of 0.3): refused everywhere
cp "$d/m/sweep.args" "$tmp/args"
sed -i 's/^0.1,0.2,0.3$/0.1,0.2,0.4/' "$d/m/sweep.args"
cmp -s "$tmp/args" "$d/m/sweep.args" && { echo "sweep_merge_check: args not edited"; fail=1; }
for verb in merge show resume; do
	out=$("$BIN" $S sweep $verb m 2>&1)
	check "edited args: $verb rc" 1 $?
	check "edited args: $verb" "error: '$d/m/sweep.args': its crc line is missing or does not match: damaged or edited" "$out"
done
[ -e "$d/m/results.csv" ] && { echo "sweep_merge_check: merged an edited sweep"; fail=1; }
cp "$tmp/args" "$d/m/sweep.args"
out=$("$BIN" $S sweep merge m 2>&1)
check "merge rc" 0 $?
case $out in *"3 of 3 runs done"*) ;;
	*) echo "sweep_merge_check: merge said: $out"; fail=1 ;; esac
exit $fail
