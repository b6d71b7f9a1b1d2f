#!/bin/sh
# serve metrics against hostile clients on 127.0.0.1 (issue 31.3): a
# connection that sends its request a byte at a time is dropped after the
# timeout however long it trickles; floods of idle and slow connections
# (bounded: 400 at once, at most 60 s) never keep a scrape from being
# answered.  Every process is stopped at the end.
. "$(dirname "$0")/lib.inc"
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
FLOOD="$O/tests/http-flood"
command -v curl >/dev/null || { echo "serve: curl is missing (scripts/install-deps.sh)"; exit 1; }
pids=""
cleanup() {
	touch "$tmp/stop"
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# start_serve OUT ARGS...: serve metrics in the background; sets url
start_serve() {
	out=$1
	shift
	"$BIN" serve metrics "$@" >"$out" 2>&1 &
	pids="$pids $!"
	i=0
	while ! grep -q '^serving' "$out" && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
	url=$(sed -n 's|^serving \(https*://127.0.0.1:[0-9]*/metrics\).*|\1|p' "$out")
	port=$(echo "$url" | sed 's|.*:\([0-9]*\)/metrics|\1|')
	[ -n "$port" ] || { cat "$out"; echo "serve: never served"; exit 1; }
}

"$BIN" -c 'algo debug on; sim run 1ms' >/dev/null || fail=1
start_serve "$tmp/serve.out" 0 timeout 1s

# slow-loris: 4 connections trickling a request that never ends are all
# closed by the server (1 s timeout; the flood gives up after 15 s)
r=$("$FLOOD" slow "$port" 4 15 once)
check "slow connections dropped after the timeout" "0" "$?"
ms=$(echo "$r" | sed -n 's/.*longest \([0-9]*\) ms/\1/p')
check "no earlier than the timeout ($r)" "yes" "$([ "${ms:-0}" -ge 1000 ] && echo yes)"

# floods: 300 idle and 100 slow connections, each reconnected as soon as
# it is dropped, while 5 scrapes must each be answered in full
"$FLOOD" idle "$port" 300 60 flood "$tmp/ready1" "$tmp/stop" >"$tmp/idle.out" &
f1=$!
"$FLOOD" slow "$port" 100 60 flood "$tmp/ready2" "$tmp/stop" >"$tmp/slow.out" &
f2=$!
pids="$pids $f1 $f2"
i=0
while ! [ -e "$tmp/ready1" ] || ! [ -e "$tmp/ready2" ]; do
	sleep 0.1
	i=$((i + 1))
	[ $i -lt 300 ] || { echo "serve: the floods never connected"; exit 1; }
done
ok=0
for _ in 1 2 3 4 5; do
	code=$(curl -s -o "$tmp/scrape" --max-time 10 -w '%{http_code}' "$url")
	[ "$code" = 200 ] && grep -q '^pccbench_algo_enabled{' "$tmp/scrape" && ok=$((ok + 1))
done
check "scrapes answered during the floods" "5" "$ok"
touch "$tmp/stop"
wait "$f1" "$f2"
check "the idle flood was dropped" "yes" \
	"$(awk '{ if ($4 > 0) print "yes"; else print $0 }' "$tmp/idle.out")"
exit $fail
