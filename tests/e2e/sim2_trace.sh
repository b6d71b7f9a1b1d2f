#!/bin/sh
# Traces of a run (issue 23, item 13), on an 8:1 incast with PFC:
# - the port trace's deepest queue at the summary's queue port is the
#   summary's maximum; its PFC rows count what the counters count;
# - the rate trace has a row per flow per interval, with ZTR-RTT's window;
# - the capture of every link, read by an independent reader (and by
#   tshark when installed): headers, lengths, IPv4 checksums, ECN bits,
#   PFC fields, and counts equal to the fabric's and the port trace's;
#   a lossy run's capture has ACKs and NAKs; frames kept whole carry
#   RoCEv2's ICRC, checked against gzip's CRC-32;
# - the run with every output is the run without: same summary.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state"
cd "$tmp" || exit 1
reader="$top/tests/tools/pcap-check.awk"
num() { sed -n "s/.*\"name\":\"$1\",\"value\":\([0-9]*\).*/\1/p" | head -n 1; }

"$BIN" -d sim:t -c 'sim scenario incast senders 8 rate 100g buffer 1MB' >/dev/null
"$BIN" -d sim:t -j -c 'sim run 300us trace q.csv ports all trace r.csv rates 0-7 every 10us pcap p.pcap ports all snaplen 64 flows f.csv; sim counters' \
	>"$tmp/out.json" || { echo "sim2_trace: run failed"; fail=1; }
sed -n 1p "$tmp/out.json" >"$tmp/sum.json"
sed -n 2p "$tmp/out.json" | tr '}' '\n' >"$tmp/ctr.json"
"$BIN" -d sim:t -j -c 'sim run 300us' >"$tmp/plain.json"
check "same run without outputs" "$(cat "$tmp/plain.json")" "$(cat "$tmp/sum.json")"

# port trace: a start row per port (9 hosts, 9 switch ports), in port order
tr -d '\r' <q.csv >"$tmp/q"
check "trace header" "t_ns,port,event,queue_bytes,ingress_bytes,size_bytes,flow,psn,ce" "$(head -n 1 "$tmp/q")"
check "start rows" 18 "$(grep -c ',start,' "$tmp/q")"
qport=$(sed -n 's/.*"queue_port":"\([^"]*\)".*/\1/p' "$tmp/sum.json")
check "queue port" "switch 0 port 8" "$qport"
qmax=$(awk -F, -v p="$qport" '$2 == p && $4 > m { m = $4 } END { print m + 0 }' "$tmp/q")
check "trace max = summary max" "$(jget queue_max_bytes <"$tmp/sum.json")" "$qmax"
pauses=$(jget pauses <"$tmp/sum.json")
[ "$pauses" -gt 0 ] || { echo "sim2_trace: no pauses"; fail=1; }
check "pause rows = summary pauses" "$pauses" "$(grep -c ',pfc_pause_rx,' "$tmp/q")"
check "host pause rows = rx_prio3_pause" "$(num rx_prio3_pause <"$tmp/ctr.json")" \
	"$(grep -c '^[0-9.]*,host [0-9]*,pfc_pause_rx,' "$tmp/q")"
sent=$(num switch_pause_sent <"$tmp/ctr.json")
check "pfc tx rows = switch_pause_sent" "$sent" "$(grep -c ',pfc_[a-z]*_tx,' "$tmp/q")"
# every queue row's depth follows from the one before at its port
awk -F, 'NR > 1 && $3 != "start" && $3 !~ /^pfc/ {
	d = $3 == "enqueue" ? $6 : $3 == "dequeue" ? -$6 : 0
	if (q[$2] + d != $4) { print "queue: " $0; bad = 1 } }
	NR > 1 { q[$2] = $4 } END { exit bad }' "$tmp/q" | head -n 3 | grep . && fail=1

# rate trace: 30 samples x 8 long-lived flows, each at a positive rate
tr -d '\r' <r.csv | sed 1d >"$tmp/r"
check "rate rows" 240 "$(wc -l <"$tmp/r")"
check "rate flows" "0 1 2 3 4 5 6 7" "$(cut -d, -f2 "$tmp/r" | sort -n | uniq | tr '\n' ' ' | sed 's/ $//')"
awk -F, '$3 <= 0 || $3 > 200 { print "rate: " $0; exit 1 }' "$tmp/r" || fail=1
# ZTR-RTT keeps a window: every flow has one by the last sample
check "windows at 300 us" 8 "$(awk -F, '$1 == 300 && $4 > 0' "$tmp/r" | wc -l)"

# the capture, by the independent reader
od -An -v -tu1 p.pcap | awk -v snap=64 -v hosts=9 -v to=8 -f "$reader" >"$tmp/pc"
pc() { awk -v k="$1" '$1 == k { print $2 }' "$tmp/pc"; }
grep '^bad:' "$tmp/pc" | head -n 5 | grep . && fail=1
check "reader: faults" 0 "$(pc bad)"
check "frames from hosts = tx_packets_phy" "$(num tx_packets_phy <"$tmp/ctr.json")" "$(pc from_host)"
check "PFC frames = switch_pause_sent" "$sent" "$(($(pc pause) + $(pc resume)))"
check "PFC pauses = pause rows" "$(grep -c ',pfc_pause_tx,' "$tmp/q")" "$(pc pause)"
check "frames to the receiver = dequeues" \
	"$(grep -c '^[0-9.]*,switch 0 port 8,dequeue,' "$tmp/q")" "$(pc to_data)"
check "CE frames to the receiver = CE dequeues" \
	"$(grep -c '^[0-9.]*,switch 0 port 8,dequeue,.*,1$' "$tmp/q")" "$(pc to_ce)"
[ "$(pc to_ce)" -gt 0 ] && [ "$(pc cnp)" -gt 0 ] && [ "$(pc ack)" -gt 0 ] ||
	{ echo "sim2_trace: capture: $(tr '\n' ' ' <"$tmp/pc")"; fail=1; }

# ... and by Wireshark's dissectors when installed (scripts/install-deps.sh)
if command -v tshark >/dev/null 2>&1; then
	tshark -r p.pcap -o ip.check_checksum:TRUE -T fields -E separator=, \
		-e eth.type -e ip.checksum.status -e udp.dstport \
		-e infiniband.bth.opcode -e ip.dsfield.ecn \
		-e macc.opcode -e macc.cbfc.enbv -e macc.cbfc.pause_time.c3 \
		2>/dev/null >"$tmp/ts"
	check "tshark: frames" "$(pc frames)" "$(wc -l <"$tmp/ts")"
	check "tshark: good IPv4 checksums" "$(pc csum_ok)" \
		"$(awk -F, '$1 == "0x0800" && $2 == 1 && $3 == 4791' "$tmp/ts" | wc -l)"
	check "tshark: CNPs" "$(pc cnp)" "$(awk -F, '$4 == 129' "$tmp/ts" | wc -l)"
	check "tshark: CE" "$(pc ce)" "$(awk -F, '$5 == 3' "$tmp/ts" | wc -l)"
	check "tshark: PFC pauses" "$(pc pause)" \
		"$(awk -F, '$6 == "0x0101" && $7 == "0x0008" && $8 == 65535' "$tmp/ts" | wc -l)"
	check "tshark: PFC resumes" "$(pc resume)" \
		"$(awk -F, '$6 == "0x0101" && $7 == "0x0008" && $8 == 0' "$tmp/ts" | wc -l)"
else
	echo "sim2_trace: tshark not installed: the capture checked by $reader only"
fi

# lossy: the receiver's link carries ACKs and NAKs
"$BIN" -d sim:n -c 'sim scenario incast senders 4 rate 100g loss 0.01 pfc off' >/dev/null
"$BIN" -d sim:n -j -c 'sim run 200us pcap n.pcap ports "host 4"; sim counters' >"$tmp/n.json"
od -An -v -tu1 n.pcap | awk -v snap=128 -v hosts=5 -f "$reader" >"$tmp/pc"
check "lossy reader: faults" 0 "$(pc bad)"
naks=$(sed -n 2p "$tmp/n.json" | tr '}' '\n' | num packet_seq_err)
[ "$(pc nak)" -gt 0 ] && [ "$(pc nak)" -ge "$naks" ] && [ "$(pc ack)" -gt 0 ] ||
	{ echo "sim2_trace: lossy capture: $naks NAKs received; $(tr '\n' ' ' <"$tmp/pc")"; fail=1; }

# the ICRC of frames kept whole, against gzip's CRC-32 of the bytes it
# covers (an independent implementation): data, ACKs, CNPs, probes
"$BIN" -d sim:n -c 'sim run 50us pcap w.pcap ports "host 4" snaplen 9000' >/dev/null
od -An -v -tu1 w.pcap | awk -v max=1000 -f "$top/tests/tools/icrc-frames.awk" >"$tmp/icrc"
good=0 ops=""
while read -r op c0 c1 c2 c3 fmt; do
	# shellcheck disable=SC2059
	crc=$(printf "$fmt" | gzip -c | tail -c 8 | head -c 4 | od -An -tu1 | tr -s ' ' | sed 's/^ //')
	if [ "$crc" = "$c0 $c1 $c2 $c3" ]; then good=$((good + 1)); else echo "icrc: opcode $op: $c0 $c1 $c2 $c3, gzip $crc"; fi
	ops="$ops $op"
done <"$tmp/icrc"
n=$(wc -l <"$tmp/icrc")
[ "$n" -ge 100 ] || { echo "sim2_trace: $n frames for the ICRC check"; fail=1; }
check "good ICRCs" "$n" "$good"
check "opcodes checked: send first, middle, ACK, CNP, probe, answer" "0 1 17 129 192 193" \
	"$(echo "$ops" | tr ' ' '\n' | grep . | sort -n -u | tr '\n' ' ' | sed 's/ $//')"

# refused before the run: a bad port, a selector without its output, a
# capture without ports; nothing is written
for c in 'trace x.csv ports "switch 0 port 99"' 'trace x.csv ports "host 9"' \
	'trace x.csv ports host0' 'ports all' 'pcap x.pcap' \
	'pcap x.pcap ports all snaplen 10' 'trace x.csv rates 3-1' \
	'trace x.csv ports "host 0,"'; do
	"$BIN" -d sim:t -c "sim run 10us $c" >/dev/null 2>"$tmp/err"
	check "refused: $c" "1 1" "$? $(wc -l <"$tmp/err")"
done
[ -e x.csv ] || [ -e x.pcap ] && { echo "sim2_trace: a refused run wrote"; fail=1; }
exit $fail
