#!/bin/sh
# watch: the timeline's rates as they come.  On a terminal (tmux) a table
# redrawn each interval until Ctrl-C, on the sim (simulated time) and on a
# real NIC (registers through the fake mstreg, counters from a sysfs tree);
# a line per interval otherwise.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache"
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac

# a line per interval, on the device's clock
"$BIN" -d sim:w -y -c 'algo debug on; sim scenario incast senders 16' >/dev/null
out=$("$BIN" -d sim:w watch rx_gbps,ecn_marked every 200us for 1ms)
check "watch exit" 0 $?
check "watch lines" 6 "$(printf '%s\n' "$out" | grep -c '')"
check "watch header" "t (s) rx_gbps ecn_marked" "$(printf '%s\n' "$out" | head -n 1 | tr -s ' ' | sed 's/^ //')"
check "watch times" "0.000200 0.001000" "$(printf '%s\n' "$out" | sed -n '2p;$p' | awk '{ print $1 }' | tr '\n' ' ' | sed 's/ $//')"
# the same numbers as a record of the same window
"$BIN" -d sim:w -c 'record for 1ms every 200us into same' >/dev/null 2>&1
check "watch = record" "$(tail -n +2 "$tmp/data/pccbench/series/same.csv" | tr -d '\r' | cut -d, -f15 | awk '{ printf "%.6g\n", $1 }' | tr '\n' ' ')" \
	"$(printf '%s\n' "$out" | tail -n +2 | awk '{ print $2 }' | tr '\n' ' ')"
out=$("$BIN" -d sim:w watch rx_gbp 2>&1); rc=$?
check "bad column exit" 1 $rc
check "bad column" "error: watch: no column 'rx_gbp'; did you mean rx_gbps or tx_gbps?" "$out"
out=$("$BIN" -d sim:w watch </dev/null 2>&1); rc=$?
check "endless outside a terminal" 1 $rc

# on a terminal: redrawn in place, Ctrl-C back to the shell, exit 0
command -v tmux >/dev/null || { echo "watch: tmux is missing"; exit 1; }
sock="pccbench-watch-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
screen() { tmux -L "$sock" capture-pane -p -t w; }
wait_for() {
	i=0
	while [ $i -lt 100 ]; do
		screen | grep -qF -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "watch: never saw [$1]; screen:"; screen | sed 's/^/  | /'
	fail=1
	return 1
}
tmux -L "$sock" new-session -d -s w -x 120 -y 30 \
	"env XDG_STATE_HOME=$tmp/state TERM=xterm $BIN -d sim:w watch avg_rtt,rx_gbps every 500us; echo WATCH-ENDED \$?; sleep 30"
wait_for "sim:w: t = "
wait_for "rx_gbps"
wait_for "avg_rtt "
tmux -L "$sock" send-keys -t w C-c
wait_for "WATCH-ENDED 0"

# a real NIC: the host's counters moving while it watches
sys="$tmp/sys"
pci="$sys/devices/pci0000:00/0000:00:01.0/0000:08:00.0"
port="$pci/infiniband/mlx5_0/ports/1"
mkdir -p "$port/hw_counters" "$port/counters" "$sys/class/infiniband" "$sys/bus/pci/devices"
ln -s ../../devices/pci0000:00/0000:00:01.0/0000:08:00.0/infiniband/mlx5_0 "$sys/class/infiniband/mlx5_0"
ln -s ../../../0000:08:00.0 "$pci/infiniband/mlx5_0/device"
ln -s ../../../devices/pci0000:00/0000:00:01.0/0000:08:00.0 "$sys/bus/pci/devices/0000:08:00.0"
echo 0 >"$port/hw_counters/np_cnp_sent"
echo 0 >"$port/counters/port_rcv_data"
# the counter moves once the watch has shown its first row (a condition,
# not a time: a loaded machine may take longer than any sleep to start)
: >"$tmp/wout"	# there before the loop below reads it
PCCBENCH_SYSFS="$sys" FAKE_MSTREG_SIM=wn "$BIN" -d 0000:08:00.0 --backend mstreg \
	--mstreg "$O/tests/fake-mstreg" watch cnp_sent every 500ms for 3s \
	>"$tmp/wout" 2>/dev/null &
wpid=$!
i=0
while [ "$(grep -c '' "$tmp/wout")" -lt 2 ] && [ $i -lt 600 ]; do
	sleep 0.05
	i=$((i + 1))
done
echo 500 >"$port/hw_counters/np_cnp_sent"
wait $wpid
check "real watch exit" 0 $?
out=$(cat "$tmp/wout")
check "real watch lines" 7 "$(printf '%s\n' "$out" | grep -c '')"
check "cnp_sent seen" 500 "$(printf '%s\n' "$out" | tail -n +2 | awk '{ s += $2 * ($1 - p); p = $1 } END { printf "%.0f", s }')"

# the same on a terminal: the table redrawn with the host's rate once the
# driver moves the counter; Ctrl-C ends it
tmux -L "$sock" kill-server 2>/dev/null
sock="pccbench-watch2-$$"	# a server of its own: the old may linger
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
tmux -L "$sock" new-session -d -s w -x 120 -y 30 \
	"env XDG_STATE_HOME=$tmp/state PCCBENCH_SYSFS=$sys FAKE_MSTREG_SIM=wn TERM=xterm $BIN -d 0000:08:00.0 --backend mstreg --mstreg $O/tests/fake-mstreg watch cnp_sent,local_ack_timeout every 200ms; echo WATCH-ENDED \$?; sleep 30"
wait_for "0000:08:00.0: t = "
wait_for "local_ack_timeout"
screen | grep -qE 'cnp_sent +0 ' || { echo "watch: cnp_sent not 0 before it moved"; screen | sed 's/^/  | /'; fail=1; }
echo 1500 >"$port/hw_counters/np_cnp_sent"
i=0
until screen | grep -qE 'cnp_sent +[1-9][0-9.]* 1/s' || [ $i -ge 100 ]; do
	sleep 0.1; i=$((i + 1))
done
[ $i -lt 100 ] || { echo "watch: the terminal never showed the rate"; screen | sed 's/^/  | /'; fail=1; }
tmux -L "$sock" send-keys -t w C-c
wait_for "WATCH-ENDED 0"
exit $fail
