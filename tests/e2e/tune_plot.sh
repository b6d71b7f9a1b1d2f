#!/bin/sh
# tune plot (#31 item 7): a data path of any legal length reaches gnuplot
# whole (a 512-byte buffer cut those from ~434 bytes), and a string
# starting with ' (or holding '') is quoted so gnuplot 5.4's tokenizer
# takes it ('''a' it refuses): the plot is drawn, for the objective plot
# and the space plot.
. "$(dirname "$0")/lib.inc"
command -v gnuplot >/dev/null 2>&1 || { echo "tune_plot: SKIP: no gnuplot" >&2; exit 0; }
S="-d sim:tp"
W="ALPHA 0.02:0.5 AI 1:100 minimize rtt_p99 for 1ms scenario incast
senders 8 seeds 1 budget 12 runs"
# XDG_DATA_HOME deep enough that .../tunes/t/space.dat is 440+ bytes
d=$tmp/d
while [ ${#d} -lt 400 ]; do d=$d/0123456789abcdefghijklmnopqrstuvwxyz; done
mkdir -p "$d"
export XDG_DATA_HOME="$d"
dat="$d/pccbench/tunes/t/space.dat"
[ ${#dat} -ge 440 ] && [ ${#dat} -lt 520 ] ||
	{ echo "tune_plot: data path ${#dat} bytes"; fail=1; }
"$BIN" $S tune $W into t >/dev/null 2>&1
check "tune rc" 0 $?
cd "$tmp" || exit 1
for out in a.svg "'q.svg" "a''b.svg" "'.svg"; do
	for sp in "" space; do
		rm -f "$out"
		"$BIN" $S tune plot t $sp to "$out" >"$tmp/o" 2>&1
		check "plot $sp to [$out] rc" 0 $?
		check "plot $sp to [$out] said" "" "$(grep -v '^wrote\|^plot' "$tmp/o")"
		[ -s "$out" ] && grep -q '</svg>' "$out" ||
			{ echo "tune_plot: no $sp plot in [$out]"; fail=1; }
	done
done
exit $fail
