#!/bin/sh
# Issue 32.7: corr says how many pairs are behind every r, with its 95 %
# interval (Fisher's z), searches only the lags that keep 20 pairs (and
# half of them), and says in words who leads whom and by how long.
. "$(dirname "$0")/lib.inc"
dir="$XDG_DATA_HOME/pccbench/series"
mkdir -p "$dir"
# 30 intervals of 0.5 ms: b repeats a 3 intervals later; c repeats a 14
# intervals earlier over the last 16 only (noise before)
awk 'BEGIN {
	print "t (s),a (1/s),b (1/s),c (1/s)"
	for (i = 0; i < 30; i++) {
		a[i] = sin(i * 0.9) + 0.05 * i
		n[i] = cos(i * 2.7) * 3
	}
	for (i = 0; i < 30; i++)
		printf "%.4f,%.6f,%s,%.6f\n", (i + 1) * 0.0005, a[i],
			(i >= 3 ? sprintf("%.6f", a[i - 3]) : ""),
			(i + 14 < 30 ? a[i + 14] : n[i])
}' >"$dir/lead.csv"

out=$("$BIN" -c 'corr lead a b lag 10') || fail=1
case "$out" in *"pearson "*" (27 pairs, 95 % CI "*"spearman "*" (27 pairs, 95 % CI "*) ;;
	*) echo "corr: pairs and CI: $out"; fail=1 ;; esac
case "$out" in *"best lag 3 intervals of those keeping 20 pairs or more: r 1.0000 (27 pairs"*"; a leads b by 3 intervals (1.5 ms)"*) ;;
	*) echo "corr: who leads: $out"; fail=1 ;; esac
# the other way round: the same lead, said the same way
out=$("$BIN" -c 'corr lead b a lag 10')
case "$out" in *"best lag -3 intervals"*"; a leads b by 3 intervals (1.5 ms)"*) ;;
	*) echo "corr: who leads, reversed: $out"; fail=1 ;; esac
# a lag that leaves 16 pairs is not searched, however high its r
out=$("$BIN" -c 'corr lead a c lag 20')
case "$out" in *"best lag -14 "*) echo "corr: a lag over 16 pairs: $out"; fail=1 ;; esac
case "$out" in *"of those keeping 20 pairs or more"*) ;;
	*) echo "corr: limit not said: $out"; fail=1 ;; esac
check "json" '"r_at_lag_pairs":27,"r_at_lag_ci95":[1,1],"leads":"a","follows":"b","lead_s":0.0015' \
	"$("$BIN" -j -c 'corr lead a b lag 10' | grep -o '"r_at_lag_pairs".*"lead_s":[0-9.e-]*')"
exit $fail
