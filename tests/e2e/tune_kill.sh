#!/bin/sh
# An interrupted tune is never destroyed (#31 item 2): SIGKILL, SIGTERM or
# SIGINT at several points of a fresh tune (before its first batch ends,
# after its first, eighth, fifteenth, twentieth evaluation) and early in a
# `tune resume` leave a tune.json that loads with every evaluation saved
# so far; resumed, each ends with the tune.json and results.csv of the
# uninterrupted tune.  `tune drop` removes a tune, whatever it holds.
# Every wait is on a condition (the evaluations saved, a file), bounded.
. "$(dirname "$0")/lib.inc"
S="-d sim:tk"
T="$XDG_DATA_HOME/pccbench/tunes"
W="ALPHA 0.02:0.5 AI 1:100 minimize rtt_p99 subject to util >= 0.9 for 1ms
scenario incast senders 8 seeds 1,2 budget 48 runs jobs 1"
strip() { sed 's/"name":"[^"]*"//; s/"wall_s":[0-9.]*//' "$T/$1/tune.json"; }
evals() { cat "$T/$1/tune.json" 2>/dev/null | grep -c '"phase"'; }
# until PID COND...: run COND until it holds or PID has ended (30 s at most)
until_() {
	p_=$1; shift
	n_=0
	while [ $n_ -lt 3000 ] && kill -0 "$p_" 2>/dev/null && ! "$@"; do
		sleep 0.01; n_=$((n_ + 1))
	done
}
saved() { [ -f "$T/$1/tune.json" ] && [ "$(evals "$1")" -ge "$2" ]; }

"$BIN" $S tune $W into ref >/dev/null 2>&1
check "reference rc" 0 $?
strip ref >"$tmp/want"
all=$(evals ref)

exercised=0
for case in "k0 0 KILL" "k1 1 TERM" "k8 8 INT" "k15 15 KILL" "k20 20 KILL"; do
	set -- $case
	"$BIN" $S tune $W into "$1" >/dev/null 2>&1 &
	pid=$!
	until_ $pid saved "$1" "$2"
	kill -"$3" $pid 2>/dev/null
	wait $pid 2>/dev/null
	n=$(evals "$1")
	grep -q '"complete":false' "$T/$1/tune.json" && exercised=$((exercised + 1))
	"$BIN" $S -j tune show "$1" >/dev/null 2>"$tmp/e"
	check "$1 ($3 at $2): loads" "" "$(cat "$tmp/e")"
	# killed early in its resume (once new points run): nothing lost
	if [ "$1" = k8 ]; then
		"$BIN" $S tune resume "$1" >/dev/null 2>&1 &
		pid=$!
		until_ $pid [ -f "$T/$1/batch/results.csv" ]
		kill -KILL $pid 2>/dev/null
		wait $pid 2>/dev/null
		[ "$(evals "$1")" -ge "$n" ] ||
			{ echo "tune_kill: resume killed: $(evals "$1") of $n evaluations left"; fail=1; }
		"$BIN" $S -j tune show "$1" >/dev/null 2>"$tmp/e"
		check "$1: a killed resume loads" "" "$(cat "$tmp/e")"
	fi
	if grep -q '"complete":false' "$T/$1/tune.json"; then
		"$BIN" $S tune resume "$1" >/dev/null 2>"$tmp/e"
		check "$1 resume rc" 0 $?
	fi
	strip "$1" >"$tmp/got"
	cmp -s "$tmp/want" "$tmp/got" ||
		{ echo "tune_kill: $1 ($3 after $2 evaluations), resumed, differs"; fail=1; }
	cmp -s "$T/ref/results.csv" "$T/$1/results.csv" ||
		{ echo "tune_kill: $1: the resumed results.csv differs"; fail=1; }
done
# a condition reached before the tune ended (else the case ran whole)
[ $exercised -ge 3 ] ||
	{ echo "tune_kill: only $exercised of 5 interrupts landed before the end"; fail=1; }
check "evaluations" 22 "$all"

# tune drop: a tune, and one killed before it saved anything
out=$("$BIN" $S tune drop k0)
check "drop" "tune k0 dropped" "$out"
[ -e "$T/k0" ] && { echo "tune_kill: k0 still there"; fail=1; }
mkdir "$T/bare"
out=$("$BIN" $S tune drop bare)
check "drop bare" "tune bare dropped" "$out"
"$BIN" $S tune $W into bare >/dev/null 2>&1
check "into a dropped name" 0 $?
out=$("$BIN" $S tune drop nosuch 2>&1)
check "drop nosuch" "error: no tune 'nosuch' ('tune list')" "$out"
ln -s "$T/ref" "$T/link"
out=$("$BIN" $S tune drop link 2>&1)
check "drop a symlink rc" 1 $?
[ -f "$T/ref/tune.json" ] || { echo "tune_kill: drop followed a symlink"; fail=1; }
exit $fail
