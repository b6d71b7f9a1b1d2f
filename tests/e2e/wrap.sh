#!/bin/sh
# Issue 32.1: averages and rates from the 32-bit PCC counters stay right
# when the counters wrap, at the width the device reports.  A data
# directory whose ZTR-RTT descriptor gives ZTR_CC_SUM_RTT a 24-bit max
# (16.8 ms of summed RTT) is a device whose counter info says so: the sim
# wraps it there, within a few ms of a 4-sender incast.  The recorder's
# avg_rtt is then the same as on the 32-bit device, interval by interval,
# and `counter show` says the since-clear average is unknown rather than
# print SUM_RTT/NUM_RTT of a wrapped sum.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state"

d24="$tmp/data24"
mkdir -p "$d24/reg"
cp "$top/reg/ppcc.adb" "$d24/reg/"
cp -R "$top/algos" "$d24/"
sed 's|name="ZTR_CC_SUM_RTT" units="ns"|& max="16777215"|' \
	"$top/algos/ztr_rtt/algo.xml" >"$d24/algos/ztr_rtt/algo.xml"
grep -q 'max="16777215"' "$d24/algos/ztr_rtt/algo.xml" ||
	{ echo "wrap: descriptor not narrowed"; exit 1; }

setup='algo debug on; sim scenario incast senders 4'
rec='record for 20ms every 1ms into w replace'
"$BIN" -d sim:w32 -c "$setup; $rec" >/dev/null 2>"$tmp/e32" ||
	{ echo "wrap: 32-bit record failed"; cat "$tmp/e32"; fail=1; }
PCCBENCH_DATADIR="$d24" "$BIN" -d sim:w24 -c "$setup" >/dev/null
XDG_DATA_HOME="$tmp/d24" PCCBENCH_DATADIR="$d24" \
	"$BIN" -d sim:w24 -c "$rec" >/dev/null 2>"$tmp/e24" ||
	{ echo "wrap: 24-bit record failed"; cat "$tmp/e24"; fail=1; }
a32=$(cut -d, -f2 "$XDG_DATA_HOME/pccbench/series/w.csv")
a24=$(cut -d, -f2 "$tmp/d24/pccbench/series/w.csv")
check "avg_rtt across SUM_RTT's wraps" "$a32" "$a24"
# the sum did wrap in that record (16.8 ms of RTT in 20 ms at 4 us+)
sum=$(PCCBENCH_DATADIR="$d24" "$BIN" -d sim:w24 -j -c 'counter show' |
	tr '{' '\n' | grep '"ZTR_CC_SUM_RTT"' | jget value)
n=$(PCCBENCH_DATADIR="$d24" "$BIN" -d sim:w24 -j -c 'counter show' |
	tr '{' '\n' | grep '"ZTR_CC_NUM_RTT"' | jget value)
awk -v s="$sum" -v n="$n" 'BEGIN { exit !(n * 4000 > 16777216 && s < 16777216) }' ||
	{ echo "wrap: SUM_RTT $sum over $n samples did not wrap"; fail=1; }

# counter show: the since-clear average of a wrapped sum is unknown, said
# in words (JSON: null), never SUM/NUM
out=$(PCCBENCH_DATADIR="$d24" "$BIN" -d sim:w24 -c 'counter show')
case "$out" in *"avg RTT since the clear: unknown: ZTR_CC_SUM_RTT (wraps past 16777215 ns)"*) ;;
	*) echo "wrap: counter show: $out"; fail=1 ;; esac
check "json avg null" '"avg_rtt_ns":null' \
	"$(PCCBENCH_DATADIR="$d24" "$BIN" -d sim:w24 -j -c 'counter show' |
	grep -o '"avg_rtt_ns":[a-z0-9.]*')"
# after a clear, two looks 1 ms apart give the average between them, the
# same as the since-clear one (the looks are less than a wrap apart)
out=$(PCCBENCH_DATADIR="$d24" "$BIN" -d sim:w24 -c 'counter clear; sim run 1ms; counter show; sim run 1ms; counter show')
case "$out" in *"avg RTT since the last look: "[0-9]*" ns over "[0-9]*" samples"*) ;;
	*) echo "wrap: since the last look: $out"; fail=1 ;; esac

# an interval too long to be sure: a missing value and one warning
XDG_DATA_HOME="$tmp/d24" PCCBENCH_DATADIR="$d24" \
	"$BIN" -d sim:w24 -c 'record for 40ms every 20ms into l replace' \
	>/dev/null 2>"$tmp/el"
case "$(cat "$tmp/el")" in *"avg_rtt missing from t "*"ZTR_CC_SUM_RTT (wraps past 16777215) may have wrapped more than once"*) ;;
	*) echo "wrap: long interval: $(cat "$tmp/el")"; fail=1 ;; esac
check "long interval: no number" "avg_rtt (ns)   " \
	"$(cut -d, -f2 "$tmp/d24/pccbench/series/l.csv" | tr '\n' ' ')"
exit $fail
