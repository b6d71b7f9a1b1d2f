#!/bin/sh
# The interactive REPL in a real pseudo-terminal (tmux): Tab completion from
# the command table and the device, the prompt, Ctrl-C during a long
# simulation returning to the prompt within a second, history kept across
# sessions.
set -u
BIN=${BIN:?BIN must name the pccbench binary}
command -v tmux >/dev/null || { echo "repl: tmux is missing (scripts/install-deps.sh)"; exit 1; }
tmp=$(mktemp -d)
sock="pccbench-test-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
start() {
	tmux -L "$sock" new-session -d -s r -x 160 -y 40 \
		"env XDG_STATE_HOME=$tmp/state XDG_DATA_HOME=$tmp/data XDG_CACHE_HOME=$tmp/cache TERM=xterm $BIN -d sim:repl"
}
# (capture-pane drops trailing blanks: expectations end without them)
screen() { tmux -L "$sock" capture-pane -p -t r; }
keys() { tmux -L "$sock" send-keys -t r "$@"; }
# wait (up to 5 s) until the screen shows the text
wait_for() {
	i=0
	while [ $i -lt 50 ]; do
		screen | grep -qF -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "repl: never saw [$1]; screen:"
	screen | sed 's/^/  | /'
	fail=1
	return 1
}
# Ctrl-C half a second into the running command: the error within 1 s
interrupt() {
	sleep 0.5
	keys C-c
	t0=$(date +%s%N)
	wait_for "$2"
	t1=$(date +%s%N)
	[ $(( (t1 - t0) / 1000000 )) -lt 1000 ] ||
		{ echo "repl: Ctrl-C in $1 took $(( (t1 - t0) / 1000000 )) ms"; fail=1; }
}

start
wait_for "pccbench sim:repl ztr_rtt>"
# one line of greeting: the device, what runs on it, how to go on
screen | head -n 1 | grep -qxF "pccbench $("$BIN" -V | cut -d' ' -f2) on sim:repl (simulated): ZTR_RTT active (slot 0); 'help' lists the commands, 'quit' leaves" ||
	{ echo "repl: greeting: $(screen | head -n 1)"; fail=1; }
keys "par" Tab
wait_for "pccbench sim:repl ztr_rtt> param"
keys "set AL" Tab
wait_for "> param set ALPHA"
keys C-u "algo debug o" Tab
wait_for "> algo debug o"
keys "n" Enter
wait_for "pccbench sim:repl ztr_rtt(debug)>"
keys "sim scenario inc" Tab
wait_for "> sim scenario incast"
keys "sen" Tab
wait_for "> sim scenario incast senders"
keys C-u "diag ids apply port_0_rx_b" Tab
wait_for "> diag ids apply port_0_rx_bytes,"
keys "port_0_priority_3_tx_pac" Tab
wait_for "> diag ids apply port_0_rx_bytes,port_0_priority_3_tx_packets,"
keys C-u "retx config unit usec_" Tab
wait_for "> retx config unit usec_100"
# series, columns and sweep words come from what is saved and the device
keys C-u "record for 1ms every 100us into tabrec" Enter
wait_for "series tabrec: 10 points"
keys "plot tab" Tab
wait_for "> plot tabrec"
keys C-u "corr tabrec avg_r" Tab
wait_for "> corr tabrec avg_rtt"
keys C-u "sweep AL" Tab
wait_for "> sweep ALPHA"
keys "0.1,0.2 meas" Tab
wait_for "> sweep ALPHA 0.1,0.2 measure"
keys "util,queue_p" Tab
wait_for "> sweep ALPHA 0.1,0.2 measure util,queue_p99,"
# Ctrl-C in a sweep: back at the prompt within a second, device unchanged
keys C-u "sweep ALPHA 0.05:0.8:0.05 for 50ms jobs 2 into ctl" Enter
interrupt "a sweep" "error: interrupted"
keys "clear" Enter
keys "param get ALPHA" Enter
wait_for "ALPHA    0.1"
keys C-u "sim run 10s" Enter
interrupt "sim run" "error: sim: interrupted at t ="
keys "echo hello repl" Enter
wait_for "hello repl"
keys "quit" Enter
sleep 0.3
tmux -L "$sock" kill-server 2>/dev/null
grep -q "echo hello repl" "$tmp/state/pccbench/history" ||
	{ echo "repl: history file lacks the command"; fail=1; }
# a new session finds it with Up
start
wait_for "pccbench sim:repl ztr_rtt(debug)>"
keys Up Up
wait_for "> echo hello repl"
# Ctrl-C drops the typed line; at an empty prompt it says how to leave,
# and a second one leaves
keys C-u
sleep 0.3
keys C-c
wait_for "(Ctrl-C again or Ctrl-D to leave)"
tmux -L "$sock" has-session -t r 2>/dev/null ||
	{ echo "repl: one Ctrl-C at an empty prompt ended the REPL"; fail=1; }
keys "echo never run"
wait_for "> echo never run"
keys C-c
sleep 0.3
keys C-c
sleep 0.3
tmux -L "$sock" has-session -t r 2>/dev/null ||
	{ echo "repl: Ctrl-C on a typed line ended the REPL"; fail=1; }
screen | grep -q "^never run" && { echo "repl: the dropped line ran"; fail=1; }
keys C-c
i=0
while tmux -L "$sock" has-session -t r 2>/dev/null && [ $i -lt 30 ]; do
	sleep 0.1
	i=$((i + 1))
done
tmux -L "$sock" has-session -t r 2>/dev/null &&
	{ echo "repl: two Ctrl-C at an empty prompt did not leave"; screen | head -8; fail=1; }
exit $fail
