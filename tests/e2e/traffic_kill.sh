#!/bin/sh
# A SIGKILLed live sweep or `tune verify` leaves no traffic command
# running (#31 item 9): the command (a script that writes its pid, then
# becomes `sleep`) is tied to pccbench's life, and is gone (or a zombie
# waiting for init) soon after pccbench is killed.  Every wait is on a
# condition, bounded (30 s).
. "$(dirname "$0")/lib.inc"
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
FAKE="$O/tests/fake-mstreg"
[ -x "$FAKE" ] || { echo "traffic_kill: $FAKE not built"; exit 1; }
M="-d 0000:08:00.0 --backend mstreg --mstreg $FAKE"
export FAKE_MSTREG_SIM=tk
cat >"$tmp/traffic" <<'EOS'
#!/bin/sh
echo $$ >"$1.t" && mv "$1.t" "$1"
exec sleep 1000
EOS
chmod +x "$tmp/traffic"
left=
trap 'for p in $left; do kill -9 "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
# alive PID: running (not gone, not a zombie)
alive() {
	st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	[ -n "$st" ] && [ "$st" != Z ]
}
# wait_for COND...: until COND holds (30 s at most); its status
wait_for() {
	n_=0
	while ! "$@"; do
		[ $n_ -ge 3000 ] && return 1
		sleep 0.01; n_=$((n_ + 1))
	done
}
gone() { ! alive "$1"; }

# kill_during NAME COMMAND: pccbench running COMMAND is SIGKILLed once
# its traffic command runs; that command must end
kill_during() {
	pidf="$tmp/$1.pid"
	"$BIN" $M -y -c "$2" >/dev/null 2>&1 &
	pcb=$!
	wait_for [ -s "$pidf" ] || {
		echo "traffic_kill: $1: the traffic never started"
		fail=1; kill -9 $pcb 2>/dev/null; return; }
	tp=$(cat "$pidf")
	left="$left $tp"
	alive "$tp" || { echo "traffic_kill: $1: traffic not running"; fail=1; }
	kill -9 $pcb
	wait $pcb 2>/dev/null
	wait_for gone "$tp" || { echo "traffic_kill: $1: the traffic command outlived pccbench"; fail=1; }
}

# the NIC's debug slot counts (a live sweep's avg_rtt reads its counters)
"$BIN" $M -y -c 'algo debug on' >/dev/null 2>&1
check "debug on rc" 0 $?
kill_during sweep "sweep ALPHA 0.2,0.3 for 10s every 100ms while '$tmp/traffic $tmp/sweep.pid' into k1"
# tune verify: a tune of the debug algorithm on the sim, verified on the NIC
"$BIN" -d sim:tkd -c 'algo debug on' >/dev/null 2>&1
"$BIN" -d sim:tkd tune ALPHA 0.2:0.5 AI 1:100 minimize rtt_p99 for 1ms \
	scenario incast senders 8 seeds 1 budget 12 runs into dbg >/dev/null 2>&1
check "debug tune rc" 0 $?
kill_during verify "tune verify dbg while '$tmp/traffic $tmp/verify.pid' for 10s every 100ms rounds 2"
exit $fail
