#!/bin/sh
# record / series / corr on the sim device: a lossy incast in debug mode
# gives a timeline whose columns carry units, whose retx bins add up to the
# simulator's timeouts, saved with its metadata; bad input changes nothing.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data"
dir="$tmp/data/pccbench/series"

"$BIN" -d sim:r -c 'algo debug on; sim scenario incast senders 8 pfc off size 1MB buffer 512KB; retx start' >/dev/null
"$BIN" -d sim:r -j -c 'record for 20ms every 200us into inc' >"$tmp/rec.json"
check "record exit" 0 $?
check "points" 100 "$(sed -n 's/.*"points":\([0-9]*\).*/\1/p' "$tmp/rec.json")"
# (the sim's host counters are sums over its 9 NICs: the units say so)
check "header" "t (s),avg_rtt (ns),min_rtt (ns),max_rtt (ns),min_rate (%),max_rate (%),ai (1/s),hai (1/s),dec (1/s),hyper_dec (1/s),tx_dec (1/s),cnp_handled (1/s_sum9nic),cnp_sent (1/s_sum9nic),ecn_marked (1/s_sum9nic),rx_gbps (Gb/s_sum9nic),tx_gbps (Gb/s_sum9nic),pauses (1/s_sum9nic),drops (1/s_sum9nic),pause_rx (1/s_sum9nic),pause_tx (1/s_sum9nic),adp_retrans (1/s_sum9nic),adp_retrans_timeouts (1/s_sum9nic),slow_restart (1/s_sum9nic),out_of_sequence (1/s_sum9nic),packet_seq_err (1/s_sum9nic),local_ack_timeout (1/s_sum9nic),retx_bin_0 (count),retx_bin_1 (count),retx_bin_2 (count),retx_bin_3 (count),retx_bin_4 (count),retx_bin_5 (count),retx_bin_6 (count),retx_bin_7 (count),wall (ns)" \
	"$(head -n 1 "$dir/inc.csv" | tr -d '\r')"
check "rows" 101 "$(grep -c '' "$dir/inc.csv")"
check "last t" "0.02" "$(tail -n 1 "$dir/inc.csv" | cut -d, -f1)"
# the retx bins of the timeline add up to the histogram
bins=$(tail -n +2 "$dir/inc.csv" | tr -d '\r' |
	awk -F, '{ for (i = 27; i <= 34; i++) s += $i } END { print s + 0 }')
hist=$("$BIN" -d sim:r -j retx read | tr '{' '\n' |
	sed -n 's/.*"count":\([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
check "bins = histogram" "$hist" "$bins"
[ "$bins" -gt 0 ] || { echo "rec: no timeouts recorded"; fail=1; }
# metadata
grep -q '"seed":1,' "$dir/inc.json" || { echo "rec: meta lacks the seed"; fail=1; }
grep -q '"ALPHA":0.1' "$dir/inc.json" || { echo "rec: meta lacks params"; fail=1; }
grep -q '"algorithm":"ZTR-RTT (reconstructed), slot 1"' "$dir/inc.json" ||
	{ echo "rec: meta lacks the algorithm"; fail=1; }
# an interval without RTT samples is empty, never 0
zero=$(tail -n +2 "$dir/inc.csv" | cut -d, -f2 | grep -c '^0$')
check "no zero avg_rtt" 0 "$zero"

check "series list" "inc 100 34" "$("$BIN" -j series list | sed 's/.*"name":"\([^"]*\)","points":\([0-9]*\),"columns":\([0-9]*\).*/\1 \2 \3/')"
out=$("$BIN" -j corr inc avg_rtt ecn_marked lag 5)
case "$out" in *'"x":"avg_rtt","y":"ecn_marked","points":'*'"pearson":'*'"best_lag":'*) ;;
	*) echo "rec: corr: $out"; fail=1 ;; esac
"$BIN" corr inc >/dev/null || { echo "rec: corr matrix failed"; fail=1; }
"$BIN" series export inc "$tmp/x.csv" >/dev/null
cmp -s "$dir/inc.csv" "$tmp/x.csv" || { echo "rec: export differs"; fail=1; }

# plot through gnuplot: PNG, SVG with its axis labels, a dumb plot with
# the title; without gnuplot the data and script stay for later
"$BIN" plot inc avg_rtt cnp_handled to "$tmp/p.png" >/dev/null
check "png exit" 0 $?
check "png signature" "89504e470d0a1a0a" "$(head -c 8 "$tmp/p.png" | od -An -tx1 | tr -d ' \n')"
check "png width" "000004b0" "$(dd if="$tmp/p.png" bs=1 skip=16 count=4 2>/dev/null | od -An -tx1 | tr -d ' \n')"
[ "$(wc -c <"$tmp/p.png")" -gt 10000 ] || { echo "rec: png too small"; fail=1; }
"$BIN" plot inc hist to "$tmp/h.svg" >/dev/null
"$BIN" plot inc avg_rtt ecn_marked to "$tmp/p.svg" title 'lossy incast' >/dev/null
# a long label has its unit on a line of its own
for label in 't (ms)' '>avg_rtt<' '>ecn_marked<' '>(1/s, sum of 9 NICs)<' \
    'lossy incast' 'µs<'; do
	grep -qF "$label" "$tmp/p.svg" || { echo "rec: svg lacks '$label'"; fail=1; }
done
grep -qF 'retransmission timeout after' "$tmp/h.svg" || { echo "rec: heatmap lacks its axis"; fail=1; }
r=$("$BIN" -j corr inc ecn_marked avg_rtt | sed 's/.*"pearson":\([-0-9.e]*\).*/\1/')
"$BIN" plot inc scatter ecn_marked avg_rtt to "$tmp/s.svg" >/dev/null
check "scatter exit" 0 $?
for label in 'ecn_marked (1/s, sum of 9 NICs)' 'avg_rtt (ns)' "r = $(printf '%.4f' "$r")"; do
	grep -qF "$label" "$tmp/s.svg" || { echo "rec: scatter lacks '$label'"; fail=1; }
done
out=$("$BIN" plot inc scatter pauses avg_rtt 2>&1); rc=$?
check "scatter without variance" 1 $rc
COLUMNS=90 LINES=30 "$BIN" plot inc avg_rtt title 'TRIAGE-TITLE' >"$tmp/dumb.txt"
grep -q 'TRIAGE-TITLE' "$tmp/dumb.txt" || { echo "rec: dumb plot lacks the title"; fail=1; }
check "dumb width" 90 "$(tr -d '\f' <"$tmp/dumb.txt" | awk '{ if (length($0) > m) m = length($0) } END { print m }')"
out=$(PCCBENCH_GNUPLOT=/nonexistent/gnuplot "$BIN" plot inc to "$tmp/q.png" 2>&1); rc=$?
check "no gnuplot exit" 2 $rc
case "$out" in *"data in $dir/inc.plot.dat, script in $dir/inc.plot.gp"*) ;;
	*) echo "rec: no gnuplot: $out"; fail=1 ;; esac
[ -s "$dir/inc.plot.gp" ] && [ -s "$dir/inc.plot.dat" ] ||
	{ echo "rec: script or data missing"; fail=1; }
out=$("$BIN" plot inc nothing 2>&1); rc=$?
check "plot bad column" 1 $rc
out=$("$BIN" plot inc to "$tmp/x.gif" 2>&1); rc=$?
check "plot bad format" 1 $rc
rm -f "$dir"/inc.plot.* "$dir"/inc.hist.*
# a long series is drawn through its per-pixel minima and maxima
awk 'BEGIN { print "t (s),avg_rtt (ns)"; for (i = 1; i <= 10000; i++)
	printf "%d,%d\n", i, (i == 4321 ? 99999 : (i == 777 ? -5 : i % 50)) }' >"$dir/long.csv"
"$BIN" plot long to "$tmp/l.png" >/dev/null
check "envelope rows" 2400 "$(grep -c '' "$dir/long.plot.dat")"
check "envelope keeps the extremes" "-5 99999" "$(awk '{ if (NR == 1 || $2 < lo) lo = $2; if (NR == 1 || $2 > hi) hi = $2 } END { print lo, hi }' "$dir/long.plot.dat")"
"$BIN" series drop long >/dev/null
rm -f "$dir"/long.plot.*

# diag data IDs as columns: rates from the same counters as rx_gbps
"$BIN" -d sim:r -c 'record for 2ms every 100us into ids ids port_0_rx_bytes,port_0_tx_transport_cnp_sent_packets' >/dev/null
check "ids exit" 0 $?
check "ids header" "port_0_rx_bytes (B/s),port_0_tx_transport_cnp_sent_packets (1/s),wall (ns)" \
	"$(head -n 1 "$dir/ids.csv" | tr -d '\r' | cut -d, -f35-)"
bad=$(tail -n +2 "$dir/ids.csv" | tr -d '\r' | awk -F, '{ d = $35 * 8 / 1e9 - $15; if (d > 1e-6 || d < -1e-6) n++; if ($36 != $13) n++ } END { print n + 0 }')
check "ids agree with rx_gbps and cnp_sent" 0 "$bad"
"$BIN" series drop ids >/dev/null
out=$("$BIN" -d sim:r record for 1ms every 100us ids pcie_n0_i0_d0_link_inbound_bytes 2>&1); rc=$?
check "unmeasured id" 1 $rc
check "unmeasured id message" "error: record: sim:r does not measure pcie_n0_i0_d0_link_inbound_bytes" "$out"

# prio N: the pause columns of one priority.  The same seeded run on two
# devices: all priorities and priority 3 (where the sim's data runs) give
# the same pauses, priority 4 none; watch takes it too
for d in p1 p2 p3; do
	"$BIN" -d sim:$d -c 'algo disable 0; sim scenario incast senders 16 rate 100g pfc on' >/dev/null
done
"$BIN" -d sim:p1 -c 'record for 4ms every 500us into pall' >/dev/null 2>&1
"$BIN" -d sim:p2 -c 'record for 4ms every 500us into p3 prio 3' >/dev/null 2>&1
check "prio 3 record exit" 0 $?
"$BIN" -d sim:p3 -c 'record for 4ms every 500us into p4 prio 4' >/dev/null 2>&1
pcols() { tail -n +2 "$dir/$1.csv" | tr -d '\r' | cut -d, -f17,19,20 | tr '\n' ' '; }
[ "$(pcols pall | tr -d '0, ')" != "" ] || { echo "rec: no pauses to tell priorities apart"; fail=1; }
check "prio 3 = every priority" "$(pcols pall)" "$(pcols p3)"
check "prio 4: no pauses" "" "$(pcols p4 | tr -d '0, ')"
grep -q '"prio":3' "$dir/p3.json" || { echo "rec: meta lacks the prio"; fail=1; }
out=$("$BIN" -d sim:p3 watch pauses,pause_rx every 1ms for 2ms prio 4 2>/dev/null); rc=$?
check "watch prio exit" 0 $rc
check "watch prio 4: no pauses" "" "$(printf '%s\n' "$out" | tail -n +2 | awk '{ print $2 $3 }' | tr -d '0\n')"
out=$("$BIN" -d sim:p3 record for 1ms every 100us prio 8 2>&1); rc=$?
check "prio 8 exit" 1 $rc
check "prio 8 message" "error: record: prio is 0..7, not '8'" "$out"
for sr in pall p3 p4; do "$BIN" series drop $sr >/dev/null; done

# bad input: one line, exit 1, nothing written
out=$("$BIN" -d sim:r record for 1ms every 2ms into bad 2>&1); rc=$?
check "interval > duration" 1 $rc
out=$("$BIN" -d sim:r record for 1ms every 100us into ../x 2>&1); rc=$?
check "bad name" 1 $rc
case "$out" in *"bad series name"*) ;; *) echo "rec: $out"; fail=1 ;; esac
out=$("$BIN" corr inc avg_rtt nothing 2>&1); rc=$?
check "no column" 1 $rc
check "no column message" "error: series inc has no column 'nothing'" "$out"
out=$("$BIN" corr nope 2>&1); rc=$?
check "no series" 1 $rc
check "files" "inc.csv inc.json inc.scatter.dat inc.scatter.gp" "$(ls "$dir" | tr '\n' ' ' | sed 's/ $//')"
"$BIN" series drop inc >/dev/null
check "dropped" "" "$(ls "$dir")"

# a real NIC (tests/fake-mstreg over the sim firmware of sim:nic): wall
# time, PCC counters read through mstreg, and a traffic command beside the
# recording -- here a pccbench running traffic on that same simulated NIC
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
FAKE="$O/tests/fake-mstreg"
M="-d 0000:08:00.0 --backend mstreg --mstreg $FAKE"
export FAKE_MSTREG_SIM=nic
"$BIN" -d sim:nic -c 'algo debug on; sim scenario incast senders 8' >/dev/null
"$BIN" $M -c "record for 600ms every 100ms into nic while '$BIN -d sim:nic sim run 10ms'" >"$tmp/nic.out" 2>"$tmp/nic.err"
check "real record exit" 0 $?
# (besides the gauges' note, issue 32.4: the traffic ends within the
# recording, so later intervals set no new extreme)
check "no sysfs: one warning" "warning: record: '0000:08:00.0': no host counters (no RDMA device or netdev found): CNP, ECN, Gb/s, pause, drop and retransmission columns stay empty" "$(grep -v 'have a value only in the intervals that set a new extreme' "$tmp/nic.err")"
check "real record rows" 7 "$(grep -c '' "$dir/nic.csv")"
grep -q "series nic: 6 points x 26 columns, 600ms every 100ms" "$tmp/nic.out" ||
	{ echo "rec: real record: $(cat "$tmp/nic.out")"; fail=1; }
# the traffic moved the counters: RTT samples in some interval, and wall
# time in t (about 0.1 s apart); port columns stay empty on a real NIC
check "real record: intervals with RTT" yes "$(tail -n +2 "$dir/nic.csv" | tr -d '\r' |
	awk -F, '$2 != "" { n++ } END { print (n > 0 ? "yes" : "no") }')"
# (t is device time: on a NIC seconds since pccbench opened it, so the
# rows' spacing is what is checked: 6 rows 0.1 s apart span 0.5 s)
check "real record: wall time" yes "$(tail -n +2 "$dir/nic.csv" | cut -d, -f1 |
	awk 'NR == 1 { a = $1 } { b = $1 } END { print (b - a > 0.45 && b - a < 1.5 ? "yes" : "no") }')"
check "real record: no port columns" "" "$(tail -n +2 "$dir/nic.csv" | tr -d '\r' | cut -d, -f12-26 | tr -d ',\n')"
"$BIN" $M -c "record for 300ms every 100ms into niclog while 'echo traffic says hello'" >/dev/null 2>&1
check "traffic output in NAME.while.log" "traffic says hello" "$(cat "$dir/niclog.while.log")"
# the RDMA port's counters from sysfs (a fixture tree the traffic command
# writes into 0.25 s after the start): CNP, ECN and Gb/s as rates
sys="$tmp/sys"
mkdir -p "$sys/bus/pci/devices/0000:08:00.0/infiniband/mlx5_0" \
	"$sys/class/infiniband/mlx5_0/ports/1/counters" \
	"$sys/class/infiniband/mlx5_0/ports/1/hw_counters"
for f in counters/port_rcv_data counters/port_xmit_data counters/port_rcv_packets \
	 counters/port_xmit_packets hw_counters/np_cnp_sent hw_counters/rp_cnp_handled \
	 hw_counters/np_ecn_marked_roce_packets; do
	echo 1000 >"$sys/class/infiniband/mlx5_0/ports/1/$f"
done
p="$sys/class/infiniband/mlx5_0/ports/1"
PCCBENCH_SYSFS="$sys" "$BIN" $M -c "record for 500ms every 100ms into sys while 'sh -c \"sleep 0.25; echo 2001000 >$p/hw_counters/rp_cnp_handled; echo 25001000 >$p/counters/port_rcv_data; sleep 5\"'" >/dev/null
check "sysfs record exit" 0 $?
# one interval saw 2000000 CNPs and 100 MB: the rest saw nothing
check "sysfs: cnp_handled intervals" "1 4" "$(tail -n +2 "$dir/sys.csv" | tr -d '\r' |
	awk -F, '{ if ($12 > 0) n++; else if ($12 == "0") z++ } END { print n + 0, z + 0 }')"
check "sysfs: cnp_handled count" 2000000 "$(tail -n +2 "$dir/sys.csv" | tr -d '\r' |
	awk -F, 'NR == 1 { t0 = 0 } { if ($12 > 0) printf "%.0f", $12 * ($1 - p); p = $1 }' |
	awk '{ printf "%d", ($1 > 1900000 && $1 < 2100000) ? 2000000 : $1 }')"
check "sysfs: rx bytes" 800 "$(tail -n +2 "$dir/sys.csv" | tr -d '\r' |
	awk -F, '{ s += $15 * ($1 - p); p = $1 } END { printf "%.0f", s * 1000 }')"
check "sysfs: ecn stays 0" 0 "$(tail -n +2 "$dir/sys.csv" | tr -d '\r' | cut -d, -f14 | sort -u)"
check "sysfs: pauses empty" "" "$(tail -n +2 "$dir/sys.csv" | tr -d '\r' | cut -d, -f17 | sort -u)"
out=$("$BIN" $M -c "record for 300ms every 100ms into nic2 while false" 2>&1); rc=$?
check "failing traffic exit" 2 $rc
case "$out" in *"traffic command 'false' failed (exit 1)"*) ;;
	*) echo "rec: failing traffic: $out"; fail=1 ;; esac
# a command that fails mid-record: the rows so far are kept, and the error
# told is the command's (writing the files must not replace it)
out=$("$BIN" $M -c "record for 1s every 100ms into nic4 while 'timeout 0.6 sleep 5'" 2>&1); rc=$?
check "traffic failing mid-record exit" 2 $rc
case "$out" in *"traffic command 'timeout' failed (exit 124)"*) ;;
	*) echo "rec: traffic failing mid-record: $out"; fail=1 ;; esac
check "rows before the failure kept" yes "$(tail -n +2 "$dir/nic4.csv" | grep -c '' |
	awk '{ print ($1 >= 1 && $1 < 10 ? "yes" : "no") }')"
out=$("$BIN" $M -c "record for 300ms every 100ms into nic3 while 'no-such-traffic-tool -x'" 2>&1); rc=$?
check "missing traffic tool exit" 2 $rc
case "$out" in *"cannot run traffic command 'no-such-traffic-tool'"*) ;;
	*) echo "rec: missing tool: $out"; fail=1 ;; esac
out=$("$BIN" $M -c "record for 300ms every 100ms while 'sleep 1 | cat'" 2>&1); rc=$?
check "pipe in while" 1 $rc
out=$("$BIN" $M -c "record for 300ms every 100ms ids port_0_rx_bytes" 2>&1); rc=$?
check "ids on a real NIC" 1 $rc
out=$("$BIN" -d sim:r -c "record for 1ms every 100us while 'sleep 1'" 2>&1); rc=$?
check "while on the sim" 1 $rc
exit $fail
