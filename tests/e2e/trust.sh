#!/bin/sh
# Settings that stay, debug mode that keeps the tuning, an undo per
# write, errors that say the fix: the everyday jobs of a new user.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache"
raw() { sed 's/.*"raw":\([0-9]*\).*/\1/'; }

# 7. retx and diag settings persist beside the device like the scenario
"$BIN" -d sim:s -c 'retx config bins 4 bin0 50 bin1 50 unit us' >/dev/null
check "retx config exit" 0 $?
out=$("$BIN" -d sim:s -y -j retx start)
case "$out" in *'"bins":4,"bin0":50,"bin1":50'*'"unit":"usec"'*) ;;
	*) echo "trust: retx config not kept: $out"; fail=1 ;; esac
"$BIN" -d sim:s -y retx stop >/dev/null
"$BIN" -d sim:s -c 'diag config period 200us samples 8' >/dev/null
"$BIN" -d sim:s -c 'diag ids apply port_0_rx_bytes' >/dev/null
check "diag ids in the next process" 0 $?
out=$("$BIN" -d sim:s -y -c 'diag start; sim run 1ms; diag read 3' 2>&1)
case "$out" in *"period 200000 ns"*"port_0_rx_bytes"*"0.000600000"*) ;;
	*) echo "trust: diag config not kept: $out"; fail=1 ;; esac
"$BIN" -d sim:s diag stop >/dev/null
# a new configuration in a new process replaces the kept one
"$BIN" -d sim:s -c 'diag config period 100us' >/dev/null
check "diag reconfigure exit" 0 $?

# 8. debug mode keeps the tuning; off goes back to what was active
"$BIN" -d sim:d -y -c 'param set ALPHA 0.3 MAX_DELAY 200us' >/dev/null 2>&1 ||
	"$BIN" -d sim:d -y -c 'param set ALPHA 0.3 MAX_DELAY 200000' >/dev/null
out=$("$BIN" -d sim:d -y -c 'algo debug on')
case "$out" in *"copied from slot 0 to slot 1: ALPHA 0.3, MAX_DELAY 200"*) ;;
	*) echo "trust: debug on: $out"; fail=1 ;; esac
check "debug slot ALPHA" 19661 "$("$BIN" -d sim:d -j param get ALPHA | raw)"
check "debug slot is active" 1 "$("$BIN" -d sim:d -j algo list | tr '{' '\n' | grep '"active":true' | sed 's/.*"slot":\([0-9]*\).*/\1/')"
# the copy is one journaled write: restore puts slot 1's own back
"$BIN" -d sim:d -j journal show | grep -q '"slot":1,"what":"ALPHA"' ||
	{ echo "trust: the copy is not journaled"; fail=1; }
"$BIN" -d sim:d -y -c 'algo debug off' >/dev/null
# keep: slot 1's own params stay
"$BIN" -d sim:k -y -c 'param set ALPHA 0.3' >/dev/null
"$BIN" -d sim:k -y -c 'algo debug on keep' >/dev/null
check "keep leaves slot 1's ALPHA" 6553 "$("$BIN" -d sim:k -j param get ALPHA | raw)"
# DCQCN active -> debug on (-y: only with --force) -> off: DCQCN active
# again, slot 0 still off
"$BIN" -d sim:q -y -c 'algo disable 0; algo enable 2' >/dev/null
out=$("$BIN" -d sim:q -y -c 'algo debug on --force; algo debug off')
case "$out" in *"nothing copied"*"debug mode off; active: slot 2 (DCQCN)"*) ;;
	*) echo "trust: debug off after DCQCN: $out"; fail=1 ;; esac
check "slot 0 stays off" "false" "$("$BIN" -d sim:q -j algo list | tr '{' '\n' | grep '"slot":0' | sed 's/.*"enabled":\([a-z]*\).*/\1/')"

# 9. the journal in real units; one write undone; a script that fails
# part-way says what it changed
"$BIN" -d sim:j -y -c 'param set ALPHA 0.2; param set AI 20; param set ALPHA 0.4' >/dev/null
out=$("$BIN" -d sim:j journal show)
case "$out" in *"ALPHA  0.1  0.2"*"AI       9   20  B/100Gb/s"*) ;;
	*) echo "trust: journal show not in real units: $out"; fail=1 ;; esac
out=$("$BIN" -d sim:j -y journal undo 1 2>&1); rc=$?
check "undo of a param written again exit" 1 $rc
check "undo refused" "error: journal undo: slot 0 ALPHA was changed again since write 1 (by a later write); undo that first, or --force to put 0.1 back anyway" "$out"
check "undo last" "undid write 3: slot 0 ALPHA 0.4 -> 0.2" "$("$BIN" -d sim:j -y journal undo last)"
check "undo 1 now" "undid write 1: slot 0 ALPHA 0.2 -> 0.1" "$("$BIN" -d sim:j -y journal undo 1)"
check "AI untouched" 20 "$("$BIN" -d sim:j -j param get AI | raw)"
"$BIN" -d sim:j -y --force journal undo 2 >/dev/null
check "forced undo" 9 "$("$BIN" -d sim:j -j param get AI | raw)"
"$BIN" -d sim:j -y journal restore >/dev/null
printf 'param set ALPHA 0.2\nparam set AI 30\nparam set ALHPA 1\n' >"$tmp/f.pcb"
out=$("$BIN" -d sim:j -y -x "$tmp/f.pcb" 2>&1 >/dev/null); rc=$?
check "failed script exit" 1 $rc
case "$out" in *"note: $tmp/f.pcb stopped after 2 writes to sim:j; 'journal show' lists them, 'journal undo' takes back the last, 'journal restore' all"*) ;;
	*) echo "trust: failed script: $out"; fail=1 ;; esac

# 13. corr over no complete point is an error that says why
"$BIN" -d sim:c -y -c 'algo debug off; record for 1ms every 100us into c' >/dev/null 2>&1
out=$("$BIN" corr c avg_rtt rx_gbps 2>&1); rc=$?
check "corr without points exit" 1 $rc
check "corr without points" "error: corr: avg_rtt ~ rx_gbps: no interval has both (one of them is empty throughout?)" "$out"

# 10. a recording is not replaced by accident; a scenario keeps its keys
"$BIN" -d sim:r -c 'record for 1ms every 100us into once' >/dev/null 2>&1
before=$(cksum <"$tmp/data/pccbench/series/once.csv")
out=$("$BIN" -d sim:r -c 'sim scenario incast senders 4; record for 2ms every 100us into once' 2>&1); rc=$?
check "record over a series exit" 1 $rc
case "$out" in *"error: record: series once exists; 'into once replace' overwrites it"*) ;;
	*) echo "trust: record over a series: $out"; fail=1 ;; esac
check "series unchanged" "$before" "$(cksum <"$tmp/data/pccbench/series/once.csv")"
"$BIN" -d sim:r -c 'record for 2ms every 100us into once replace' >/dev/null 2>&1
check "replace exit" 0 $?
check "replaced rows" 21 "$(grep -c '' "$tmp/data/pccbench/series/once.csv")"
"$BIN" -d sim:m -c 'sim scenario incast senders 8 pfc off' >/dev/null
# (and says what it kept, issue 32.10)
check "scenario keeps the rest" "incast senders 8 start sync size 0 rate 400g mtu 4096 delay 1us buffer 4MB ecn 100KB:400KB:0.2 ecnmode dequeue pfc off loss 0 seed 1 timeout 14 adp_retx auto ackreq 8 cnp_interval 4us ack_every 4
kept from before, not incast's defaults: senders 8 pfc off ('sim scenario incast fresh ...' starts from its defaults)
hosts: receiver h8; senders h0-h7" \
	"$("$BIN" -d sim:m -c 'sim scenario incast buffer 4MB')"
case "$("$BIN" -d sim:m -c 'sim scenario loss 0.001')" in
	"incast senders 8 "*"buffer 4MB"*"pfc off loss 0.001"*) ;;
	*) echo "trust: keys alone do not change the current scenario"; fail=1 ;; esac
case "$("$BIN" -d sim:m -c 'sim scenario reset')" in
	"incast senders 64 "*"buffer 32MB"*"pfc on loss 0 "*) ;;
	*) echo "trust: scenario reset"; fail=1 ;; esac

# 11. units: a bare number of a time is refused with the fix; "200 us"
out=$("$BIN" -d sim:u -y -c 'param set MAX_DELAY 200' 2>&1); rc=$?
check "bare time exit" 1 $rc
check "bare time" "error: MAX_DELAY: 200 needs a unit: write 200ns or 200us (the param is in ns), or 'raw 200'" "$out"
"$BIN" -d sim:u -y -c 'param set MAX_DELAY 200 us' >/dev/null
check "200 us" 200000 "$("$BIN" -d sim:u -j param get MAX_DELAY | raw)"
"$BIN" -d sim:u -y -c 'param set MAX_DELAY raw 123' >/dev/null 2>&1
check "raw 123" 123 "$("$BIN" -d sim:u -j param get MAX_DELAY | raw)"
check "raw units: what was typed" "error: ALPHA: 2 (raw 131072) is out of range 0..1 (raw 0..65536); nothing was written" \
	"$("$BIN" -d sim:u -y -c 'set units raw; param set ALPHA 2' 2>&1 >/dev/null)"
check "sim run 20" "error: sim run: 20 what? write 20ms (or 20us, 20s)" "$("$BIN" -d sim:u -c 'sim run 20' 2>&1)"

# 12. did you mean; OBJECT help; options after the command
check "param typo" "error: unknown param 'ALHPA' for ZTR_RTT; did you mean ALPHA?" \
	"$("$BIN" -d sim:u -y -c 'param set ALHPA 0.2' 2>&1)"
check "command typo" "error: unknown command 'parm'; did you mean param?" "$("$BIN" -d sim:u parm list 2>&1)"
check "verbs listed" "error: param: unknown verb 'show'; the verbs are list, get, set, diff, describe, reset" \
	"$("$BIN" -d sim:u param show 2>&1)"
check "scenario key typo" "error: sim: incast has no key 'sendrs'; did you mean senders?" \
	"$("$BIN" -d sim:u -c 'sim scenario incast sendrs 4' 2>&1)"
check "series typo" "error: no series 'onc'; did you mean once?" "$("$BIN" plot onc 2>&1)"
check "column typo" "error: plot: series once has no column 'avg_rt'; did you mean avg_rtt?" \
	"$("$BIN" plot once avg_rt 2>&1)"
check "data ID typo" "error: diag ids: 'port_0_rx_byte' is no data ID; did you mean port_0_rx_bytes or port_0_tx_bytes?" \
	"$("$BIN" -d sim:u -c 'diag config; diag ids apply port_0_rx_byte' 2>&1 >/dev/null)"
"$BIN" -d sim:u param help | head -n 1 | grep -q '^param: ' || { echo "trust: param help"; fail=1; }
case "$("$BIN" -d sim:u param list -j)" in '[{"index":0,"name":"BW_G"'*) ;;
	*) echo "trust: param list -j"; fail=1 ;; esac
check "option after" "error: '-y' goes before the command: pccbench -y param ..." "$("$BIN" -d sim:u param list -y 2>&1)"

# 14. an interrupted sim run still shows the window simulated so far
"$BIN" -d sim:i -c 'sim scenario incast senders 64; sim run 10s' >"$tmp/int.out" 2>&1 &
pid=$!
sleep 1
kill -INT $pid
wait $pid
check "interrupted batch exit" 130 $?
grep -q '^window       0.000 \.\. [0-9.]* ms (the last run)' "$tmp/int.out" ||
	{ echo "trust: no summary after Ctrl-C: $(cat "$tmp/int.out")"; fail=1; }

# 15. what a param does; full precision in JSON
out=$("$BIN" -d sim:u param describe ALPHA)
case "$out" in "ALPHA (slot 0, ZTR_RTT, fxp16)"*"linear coefficient"*"value 0.1 (raw 6553), range 0..1"*) ;;
	*) echo "trust: describe: $out"; fail=1 ;; esac
case "$("$BIN" -d sim:u -j -c 'sim scenario incast senders 4 size 64KB; sim run 200us')" in
	*'"payload_ceiling":0.9846153846153847,'*) ;;
	*) echo "trust: JSON not at full precision"; fail=1 ;; esac

# 16. progress and ETA of a long sim run on a terminal
if command -v script >/dev/null; then
	script -qc "$BIN -d sim:prog -c 'sim run 2s'" /dev/null >"$tmp/tty.out" 2>&1
	tr '\r' '\n' <"$tmp/tty.out" | grep -aq '^sim run: *[0-9]* % ([0-9.]* of 2000.000 ms simulated), about [0-9]* s left' ||
		{ echo "trust: no progress on a terminal"; fail=1; }
fi
"$BIN" -d sim:u -c 'sim run 1s' 2>&1 >/dev/null | grep -q 'left' &&
	{ echo "trust: progress when not on a terminal"; fail=1; }

# 19. before/after on one time axis; what differs, in real units
"$BIN" -d sim:o -y -c 'algo debug on; sim scenario incast senders 16; record for 2ms every 100us into before' >/dev/null 2>&1
"$BIN" -d sim:o -y -c 'param set ALPHA 0.4; record for 3ms every 100us into after' >/dev/null 2>&1
"$BIN" plot before,after avg_rtt rx_gbps to "$tmp/ov.svg" >/dev/null
check "overlay exit" 0 $?
for label in '>before<' '>after<' '>t (ms)<' '>avg_rtt<'; do
	grep -qF "$label" "$tmp/ov.svg" || { echo "trust: overlay lacks '$label'"; fail=1; }
done
check "overlay blocks" 2 "$(awk 'BEGIN { RS = "\n\n\n" } NF { n++ } END { print n }' "$tmp/data/pccbench/series/before.overlay.dat")"
grep -q '^xhi = 3$' "$tmp/data/pccbench/series/before.overlay.gp" ||
	{ echo "trust: overlay time axis is not the union (0.1..3 ms)"; fail=1; }
out=$("$BIN" plot before,after nothing 2>&1); rc=$?
check "overlay bad column" 1 $rc
check "param diff" "slot 1 (ZTR_RTT_DEBUG) against the defaults: 1 param differs
NAME   VALUE  OTHER  UNITS    RAW  RAW OTHER
ALPHA    0.4    0.1         26214       6553" "$("$BIN" -d sim:o param diff)"
check "param diff slots" "ALPHA 0.4 0.1" \
	"$("$BIN" -d sim:o -j param diff slot 1 slot 0 | sed 's/.*"name":"\([A-Z]*\)","value":\([0-9.]*\),"other":\([0-9.]*\).*/\1 \2 \3/')"

# 18. dev list with no state: the sim device, made on first use
check "dev list, fresh" "sim     simulated ConnectX-7 (created on first use)  PF        -       -     -      sim" \
	"$(XDG_STATE_HOME="$tmp/fresh" "$BIN" dev list | grep '^sim ')"
[ -e "$tmp/fresh" ] && { echo "trust: dev list created state"; fail=1; }
exit $fail
