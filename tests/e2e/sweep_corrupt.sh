#!/bin/sh
# A sweep's files damaged in many ways (huge, negative, zero or malformed
# counts, truncated, binary, empty, a directory in their place, rows that
# break the definition): show, plot and resume exit 1 with one line naming
# the file, never crash and never run; `sweep list` warns about each
# damaged sweep (one line) and still lists the good one.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache"
dir="$tmp/data/pccbench/sweeps"
S="-d sim:corrupt"
T="timeout -k 5 60"

"$BIN" $S -c 'sweep ALPHA 0.1,0.2 for 1ms repeat 2 into c0 scenario incast senders 2' >/dev/null
check "sweep exit" 0 $?
check "rows" 5 "$(grep -c '' "$dir/c0/results.csv")"
"$BIN" $S -c 'sweep show c0' >/dev/null
check "show good" 0 $?

# reseal F: F's "crc XXXXXXXX" line made again over its text (CRC-32 as
# zlib's, from gzip's trailer), so that the edit reaches the parser
reseal() {
	sed '/^crc [0-9a-f]\{8\}$/d' "$1" >"$1.t"
	printf 'crc %s\n' "$(gzip -c "$1.t" | tail -c 8 | head -c 4 |
		od -An -tx4 | tr -d ' ')" >>"$1.t"
	mv "$1.t" "$1"
}
cp "$dir/c0/sweep.args" "$tmp/args"
reseal "$tmp/args"
cmp -s "$dir/c0/sweep.args" "$tmp/args" ||
	{ echo "sweep_corrupt: reseal: another crc than pccbench's"; fail=1; }

# NAME|FILE NAMED IN THE MESSAGE|how to damage it (run in the sweep's dir;
# a sweep.args edit resealed unless NAME starts args_: those and
# args_edited test the crc itself)
n=0
while IFS='|' read -r name file how; do
	cp -r "$dir/c0" "$dir/$name"
	(cd "$dir/$name" && eval "$how") || { echo "sweep_corrupt: $name: setup"; fail=1; }
	case $file:$name in
	sweep.args:args_*) ;;
	sweep.args:*) reseal "$dir/$name/sweep.args" ;;
	esac
	for verb in show plot resume; do
		$T "$BIN" $S -c "sweep $verb $name" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		check "$name: $verb exit" 1 $rc
		check "$name: $verb one line" 1 "$(grep -c '' "$tmp/err")"
		grep -q "^error: .*$file" "$tmp/err" ||
			{ echo "sweep_corrupt: $name: $verb: $(head -c 300 "$tmp/err")"; fail=1; }
	done
	cmp -s "$dir/c0/meta.json" "$dir/$name/meta.json" ||
		{ echo "sweep_corrupt: $name: resume ran"; fail=1; }
	n=$((n + 1))
done <<'BAD'
axes_huge|sweep.args|sed -i 's/^#axes 1$/#axes 18446744073709551615/' sweep.args
axes_wrap|sweep.args|sed -i 's/^#axes 1$/#axes 18446744073709551614/' sweep.args
axes_neg|sweep.args|sed -i 's/^#axes 1$/#axes -1/' sweep.args
axes_zero|sweep.args|sed -i 's/^#axes 1$/#axes 0/' sweep.args
axes_five|sweep.args|sed -i 's/^#axes 1$/#axes 5/' sweep.args
axes_two|sweep.args|sed -i 's/^#axes 1$/#axes 2/' sweep.args
axes_junk|sweep.args|sed -i 's/^#axes 1$/#axes 1x/' sweep.args
axes_none|sweep.args|sed -i '/^#axes/d' sweep.args
axes_twice|sweep.args|sed -i 's/^#axes 1$/#axes 1\n#axes 1/' sweep.args
fixed_neg|sweep.args|sed -i 's/^#fixed 0 .*/#fixed 0 -5/' sweep.args
fixed_idx|sweep.args|sed -i 's/^#fixed 0 /#fixed 99999999999999999999 /' sweep.args
fixed_big|sweep.args|sed -i 's/^#fixed 0 .*/#fixed 0 4294967296/' sweep.args
unknown_hash|sweep.args|sed -i 's/^#axes 1$/#axes 1\n#frobnicate 3/' sweep.args
repeat_huge|sweep.args|sed -i '/^repeat$/{n;s/.*/18446744073709551617/}' sweep.args
repeat_zero|sweep.args|sed -i '/^repeat$/{n;s/.*/0/}' sweep.args
repeat_neg|sweep.args|sed -i '/^repeat$/{n;s/.*/-2/}' sweep.args
repeat_last|sweep.args|sed -i '/^repeat$/{N;d}' sweep.args && echo repeat >>sweep.args
seeds_bad|sweep.args|sed -i 's/^repeat$/seeds/;/^seeds$/{n;s/.*/1,x/}' sweep.args
axis_name|sweep.args|sed -i 's/^ALPHA$/AI/' sweep.args
axis_spec|sweep.args|sed -i 's/^0.1,0.2$/0.1:0.2:0/' sweep.args
axis_nospec|sweep.args|sed -i '/^0.1,0.2$/d' sweep.args
measure_bad|sweep.args|sed -i 's/^rtt_mean,util,queue_p99,cnp_handled$/rtt_mean,nope/' sweep.args
measure_less|sweep.args|sed -i 's/^rtt_mean,util,queue_p99,cnp_handled$/rtt_mean,util/' sweep.args
args_trunc|sweep.args|head -c 60 sweep.args >x && mv x sweep.args
args_binary|sweep.args|head -c 600 /dev/urandom >sweep.args
args_nul|sweep.args|printf '#axes 1\nALPHA\000x\n0.1,0.2\nmeasure\nutil\n' >sweep.args
args_empty|sweep.args|: >sweep.args
args_edited|sweep.args|sed -i 's/^0.1,0.2$/0.1,0.3/' sweep.args
args_uncrc|sweep.args|sed -i '/^crc /d' sweep.args
args_dir|sweep.args|rm sweep.args && mkdir sweep.args
csv_empty|results.csv|: >results.csv
csv_dir|results.csv|rm results.csv && mkdir results.csv
csv_trunc|results.csv|head -c 40 results.csv >x && mv x results.csv
csv_binary|results.csv|head -c 600 /dev/urandom >results.csv
csv_point_neg|results.csv|sed -i 's/^1,0,/-1,0,/' results.csv
csv_point_frac|results.csv|sed -i 's/^1,0,/0.5,0,/' results.csv
csv_point_out|results.csv|sed -i 's/^1,0,/2,0,/' results.csv
csv_point_inf|results.csv|sed -i 's/^1,0,/inf,0,/' results.csv
csv_point_nan|results.csv|sed -i 's/^1,0,/,0,/' results.csv
csv_repeat_out|results.csv|sed -i 's/^1,1,/1,2,/' results.csv
csv_repeat_neg|results.csv|sed -i 's/^1,1,/1,-1,/' results.csv
csv_dup|results.csv|sed -i '2p' results.csv
csv_seed_neg|results.csv|sed -i 's/^1,1,2,/1,1,-3,/' results.csv
csv_seed_frac|results.csv|sed -i 's/^1,1,2,/1,1,2.5,/' results.csv
csv_seed_other|results.csv|sed -i 's/^1,1,2,/1,1,7,/' results.csv
csv_axis_name|results.csv|sed -i '1s/ALPHA/BETA/' results.csv
csv_axis_nan|results.csv|sed -i 's/^1,1,2,0.2,/1,1,2,,/' results.csv
csv_axis_other|results.csv|sed -i 's/^1,1,2,0.2,/1,1,2,0.3,/' results.csv
csv_no_measure|results.csv|cut -d, -f1-4 results.csv >x && mv x results.csv
csv_measure_gone|results.csv|cut -d, -f1-5,7- results.csv >x && mv x results.csv
csv_fixed_name|results.csv|sed -i '1s/^point,repeat,seed/point,rep,seed/' results.csv
BAD

# list: exit 0, the good sweep listed, one warning per damaged sweep
$T "$BIN" $S -j -c 'sweep list' >"$tmp/list" 2>"$tmp/err"
check "list exit" 0 $?
check "list" "c0" "$(grep -o '"name":"[a-z0-9_]*"' "$tmp/list" | cut -d'"' -f4 | tr '\n' ' ' | sed 's/ $//')"
check "list warnings" $n "$(grep -c '^warning: sweep ' "$tmp/err")"
check "list: nothing else on stderr" $n "$(grep -c '' "$tmp/err")"
# a damaged sweep can still be dropped
"$BIN" $S -c 'sweep drop axes_huge' >/dev/null
check "drop exit" 0 $?
check "dropped" "" "$(ls "$dir/axes_huge" 2>/dev/null)"
exit $fail
