#!/bin/sh
# A sim sweep removes the scratch directories that killed sweeps left in
# the cache ($XDG_CACHE_HOME/pccbench/sweep/PID of a process that is gone),
# and nothing else: not a live process's, not a link named by a dead pid
# (nor what it points to), not what a link inside a stale one points to,
# not a directory that is not named by a pid.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache"
cache="$tmp/cache/pccbench/sweep"
S="-d sim:stale"

dead=$(sh -c 'echo $$')
dead2=$(sh -c 'echo $$')
sleep 60 &
live=$!
trap 'kill $live 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir -p "$cache/$dead/w0/pccbench/sim" "$cache/$live/w0" "$cache/notapid" \
	"$tmp/outside"
echo keep >"$tmp/outside/file"
echo x >"$cache/$dead/w0/pccbench/sim/stale.dev"
ln -s "$tmp/outside" "$cache/$dead/w0/link"	# not followed
echo x >"$cache/$live/w0/live.dev"
ln -s "$tmp/outside" "$cache/$dead2"		# a link, not a directory

"$BIN" $S -c 'sweep ALPHA 0.1,0.2 for 1ms into s1 scenario incast senders 2' >/dev/null
check "sweep exit" 0 $?
check "stale gone" "" "$(ls -d "$cache/$dead" 2>/dev/null)"
check "live kept" "x" "$(cat "$cache/$live/w0/live.dev" 2>/dev/null)"
check "link kept" "$tmp/outside" "$(readlink "$cache/$dead2")"
check "outside kept" "keep" "$(cat "$tmp/outside/file" 2>/dev/null)"
check "not a pid kept" "notapid" "$(ls "$cache" | grep -x notapid)"
# and the sweep's own went at its end
check "left" "$(printf '%s\n' "$dead2" "$live" notapid | sort | tr '\n' ' ')" \
	"$(ls "$cache" | sort | tr '\n' ' ')"
exit $fail
