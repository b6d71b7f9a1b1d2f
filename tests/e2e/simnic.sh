#!/bin/sh
# Issue 32.5: no timeline column claims to be a port's and passes the
# port's line rate.  The sim device's host counters are sums over the
# fabric's host NICs (the simulator counts CNPs and ECN marks fabric-wide):
# their columns' units say so ("Gb/s_sum17nic", plotted as "b/s, sum of
# 17 NICs"), `dev show` and `counter show host` say over how many, and a
# column in a port's own unit stays within 400 Gb/s and framing.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state"
S="-d sim:n"
"$BIN" $S -c 'algo debug on; sim scenario incast fresh senders 16; record for 1ms every 100us into n' \
	>/dev/null 2>&1 || { echo "simnic: record failed"; fail=1; }
csv="$XDG_DATA_HOME/pccbench/series/n.csv"
check "units say the sum" "cnp_handled (1/s_sum17nic) rx_gbps (Gb/s_sum17nic) tx_gbps (Gb/s_sum17nic)" \
	"$(head -n 1 "$csv" | tr -d '\r' | tr ',' '\n' | grep -E '^(cnp_handled|rx_gbps|tx_gbps) ' | tr '\n' ' ' | sed 's/ $//')"
# every column in a port's unit (Gb/s) within the line rate and framing
over=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /\(Gb\/s\)/) c[i] = $i; next }
	{ for (i in c) if ($i > 410) print c[i], $i }' "$csv")
check "no port's column over its line rate" "" "$over"
# the sum did pass one port's rate (the 16 senders' start burst)
awk -F, 'NR > 1 && $16 > 410 { f = 1 } END { exit !f }' "$csv" ||
	{ echo "simnic: no interval over 410 Gb/s summed: the test shows nothing"; fail=1; }
case "$("$BIN" $S -c 'dev show')" in *"counters   sim:n: sums over the fabric's 17 host NICs, none a port's own ('sim show' for the fabric)"*) ;;
	*) echo "simnic: dev show: $("$BIN" $S -c 'dev show' | grep counters)"; fail=1 ;; esac
check "counter show host says it" "sim:n: sums over the fabric's 17 host NICs, none a port's own ('sim show' for the fabric)" \
	"$("$BIN" $S -c 'counter show host' | head -n 1)"
exit $fail
