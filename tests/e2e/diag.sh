#!/bin/sh
# Diagnostic counters on the sim device as users run them, across
# processes: configure and start in one pccbench, run traffic in another,
# read in a third; the ring overflows with an exact lost count; one owner
# per device (a live REPL), `force` takes over; the sample's CSV and JSON.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state"

check "ids listed" 40 "$("$BIN" -d sim:g diag ids | tail -n +2 | wc -l)"
check "sim measures" 16 "$("$BIN" -d sim:g -j diag ids | grep -o '"sim":true' | wc -l)"

"$BIN" -d sim:g -c 'diag config period 100us samples 4; diag ids apply port_0_rx_bytes,port_0_tx_bytes,port_0_tx_transport_cnp_sent_packets; diag start' >/dev/null
check "start exit" 0 $?
"$BIN" -d sim:g -c 'sim scenario incast senders 8' >/dev/null
"$BIN" -d sim:g -c 'sim run 1ms' >/dev/null
"$BIN" -d sim:g -j -c 'diag read' >"$tmp/r1.json"
check "samples in 1 ms" 10 "$(grep -o '"sample_id":' "$tmp/r1.json" | wc -l)"
check "first id" 0 "$(sed -n 's/^\[{"sample_id":\([0-9]*\).*/\1/p' "$tmp/r1.json")"
check "first time" '"time_s":"0.000100000"' "$(grep -o '"time_s":"[0-9.]*"' "$tmp/r1.json" | head -n 1)"
# rx bytes grow sample by sample
grep -o '"port_0_rx_bytes":[0-9]*' "$tmp/r1.json" | cut -d: -f2 >"$tmp/rx"
sort -n -c "$tmp/rx" 2>/dev/null || { echo "diag: rx bytes not monotonic"; fail=1; }
check "nothing new" "no new samples" "$("$BIN" -d sim:g diag read)"
# 30 more samples into a ring of 16: 14 lost, the newest 16 delivered
"$BIN" -d sim:g -c 'sim run 3ms' >/dev/null
"$BIN" -d sim:g -j -c 'diag read' >"$tmp/r2.json" 2>"$tmp/r2.err"
check "skipped exit" 0 $?
check "lost" "warning: SKIPPED: 14 samples were overwritten before this read (a bigger 'samples' or faster reads; see 'diag advise')" "$(cat "$tmp/r2.err")"
check "delivered" 16 "$(grep -o '"sample_id":' "$tmp/r2.json" | wc -l)"
check "oldest kept" 24 "$(sed -n 's/^\[{"sample_id":\([0-9]*\).*/\1/p' "$tmp/r2.json")"

# CSV: the sample's header, one row per sample, no trailing newline
"$BIN" -d sim:g -c 'sim run 500us; diag export '"$tmp/out.csv" >/dev/null
check "csv header" "sample_id, sample_time_start, sample_time_end, port_0_rx_bytes, port_0_tx_bytes, port_0_tx_transport_cnp_sent_packets" \
	"$(head -n 1 "$tmp/out.csv")"
check "csv rows" 5 "$(tail -n +2 "$tmp/out.csv" | grep -c '')"
check "csv first row start" "40, 0.004100000, 0.004100000, " "$(sed -n 2p "$tmp/out.csv" | cut -d, -f1-3 | sed 's/$/, /')"
check "no trailing newline" "" "$(tail -c 1 "$tmp/out.csv" | tr -d '0-9')"

# applied: reconfiguration refused until stopped; bad input changes nothing
out=$("$BIN" -d sim:g -c 'diag config period 1ms' 2>&1); rc=$?
check "config while running" 1 $rc
case "$out" in *BAD_STATE*"diag stop"*) ;; *) echo "diag: $out"; fail=1 ;; esac
"$BIN" -d sim:g -c 'diag stop' >/dev/null
out=$("$BIN" -d sim:g -c 'diag config; diag ids apply port_0_rx_bytes,pcie_n0_i0_d0_link_inbound_bytes' 2>&1); rc=$?
check "unsupported id exit" 2 $rc
case "$out" in *"NOT_SUPPORTED for pcie_n0_i0_d0_link_inbound_bytes (0x1160000100000000)"*) ;;
	*) echo "diag: unsupported message: $out"; fail=1 ;; esac
out=$("$BIN" -d sim:g -c 'diag config sync on; diag ids apply port_0_rx_bytes' 2>&1); rc=$?
check "sync exit" 1 $rc
case "$out" in *BAD_CONFIG*port_0_rx_bytes*) ;; *) echo "diag: sync: $out"; fail=1 ;; esac

# JSON: the sample's default list; import applies it as a whole
"$BIN" -d sim:g -c 'diag config; diag ids export '"$tmp/ids.json" >/dev/null
check "json first entry" '    {
      "name":"port_0_rx_bytes",
      "data_id":"0x1020000100000000"' "$(sed -n 3,5p "$tmp/ids.json")"
"$BIN" -d sim:g -c 'diag config format 0 timestamp frc; diag ids import '"$tmp/ids.json"'; diag start; sim run 200us; diag export '"$tmp/f0.csv" >/dev/null
check "import+format 0 exit" 0 $?
check "format 0 header" "sample_id, data_id, sample_time, port_0_rx_bytes, data_id, sample_time, port_0_tx_bytes, data_id, sample_time, port_0_rx_packets, data_id, sample_time, port_0_tx_packets" \
	"$(head -n 1 "$tmp/f0.csv")"
check "format 0 id field" " 0x1020000100000000" "$(sed -n 2p "$tmp/f0.csv" | cut -d, -f2)"
"$BIN" -d sim:g diag stop >/dev/null

# one owner: a live REPL holds the device; force takes it over
printf 'diag show\nsleep 4s wall\ndiag read\n' | "$BIN" -d sim:g >"$tmp/repl.out" 2>&1 &
pid=$!
# the REPL holds the device once it has answered its first command
i=0
while [ ! -s "$tmp/repl.out" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
out=$("$BIN" -d sim:g diag show 2>&1); rc=$?
check "in use exit" 1 $rc
case "$out" in *"IN_USE"*"force"*) ;; *) echo "diag: in use: $out"; fail=1 ;; esac
"$BIN" -d sim:g -c 'diag config force; diag ids apply port_0_rx_bytes; diag start' >/dev/null
check "force exit" 0 $?
wait $pid
grep -q 'diag read: BAD_STATE\|IN_USE' "$tmp/repl.out" ||
	{ echo "diag: the old owner kept the device: $(cat "$tmp/repl.out")"; fail=1; }

check "advise" "5000 samples per poll; x2 = 10000: samples 14 (2^14 = 16384)" \
	"$("$BIN" diag advise period 100us poll 500ms | head -n 1)"
check "advise spike" "17" "$("$BIN" -j diag advise period 100us poll 500ms spike 6 | sed 's/.*"log_num_samples":\([0-9]*\).*/\1/')"
exit $fail
