#!/bin/sh
# tune (#21) on the sim, small and short: the same seeds give the same
# search and best point with jobs 1 and jobs 2; the best's objective is
# the least of every feasible evaluated point's and it meets the
# constraint; bad words and impossible constraints are one line that
# writes nothing; `tune apply` writes exactly the best point (read back)
# in one journal transaction that `journal undo` takes back; `tune
# profile` holds the best point; an interrupted tune, resumed, ends as an
# uninterrupted one.
. "$(dirname "$0")/lib.inc"
S="-d sim:tune"
T="$XDG_DATA_HOME/pccbench/tunes"
W="ALPHA 0.02:0.5 AI 1:100 minimize rtt_p99 subject to util >= 0.9 for 1ms
scenario incast senders 8 seeds 1,2 budget 48 runs"
raw() { "$BIN" $S -j param list | grep -o "\"name\":\"$1\",[^}]*\"raw\":[0-9]*" |
	sed 's/.*"raw"://'; }
writes() { "$BIN" $S -j journal show | grep -o '"seq":' | wc -l; }

a0=$(raw ALPHA); i0=$(raw AI)
"$BIN" $S tune $W jobs 1 into j1 >"$tmp/j1.out" 2>&1
check "jobs 1 rc" 0 $?
"$BIN" $S tune $W jobs 2 into j2 >/dev/null 2>&1
check "jobs 2 rc" 0 $?
check "the search wrote nothing" "$a0 $i0" "$(raw ALPHA) $(raw AI)"
# the same path and best (the name and wall time aside)
strip() { sed 's/"name":"[^"]*"//; s/"wall_s":[0-9.]*//' "$T/$1/tune.json"; }
strip j1 >"$tmp/a"; strip j2 >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { echo "tune: jobs 1 and jobs 2 differ"; fail=1; }
check "results.csv rows" "$(grep -c '^[0-9]' "$T/j2/results.csv")" \
	"$(grep -c '^[0-9]' "$T/j1/results.csv")"
runs=$(grep -o '"runs":[0-9]*' "$T/j1/tune.json" | cut -d: -f2)
[ "$runs" -le 48 ] || { echo "tune: $runs runs over the budget 48"; fail=1; }
check "results.csv: every run" "$runs" "$(grep -c '^[0-9]' "$T/j1/results.csv")"

# resume: interrupted (SIGINT) once its first batches are saved, then
# resumed, it ends with the path and runs of the uninterrupted tune
"$BIN" $S tune $W jobs 2 into r1 >/dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 3000 ] && kill -0 $pid 2>/dev/null &&
	[ "$(cat "$T/r1/tune.json" 2>/dev/null | grep -c '"phase"')" -lt 2 ]; do
	sleep 0.01; i=$((i + 1))
done
kill -INT $pid 2>/dev/null
wait $pid
if grep -q '"complete":false' "$T/r1/tune.json"; then
	"$BIN" $S tune resume r1 >/dev/null 2>&1
	check "resume rc" 0 $?
else
	echo "tune: note: r1 ended before the interrupt (resume not exercised)" >&2
fi
strip r1 >"$tmp/c"
cmp -s "$tmp/a" "$tmp/c" || { echo "tune: the resumed tune differs"; fail=1; }
cmp -s "$T/j1/results.csv" "$T/r1/results.csv" ||
	{ echo "tune: the resumed results.csv differs"; fail=1; }
"$BIN" $S tune resume r1 2>"$tmp/e"
check "resume a complete tune" 1 $?

# the best: the least rtt_p99 of the feasible searched points, util >= 0.9
best=$(grep -o '"best":-*[0-9]*' "$T/j1/tune.json" | cut -d: -f2)
[ "$best" -ge 0 ] || { echo "tune: no best"; fail=1; }
awk -v best="$best" '
	/"phase"/ {
		n++; i = n - 1
		o = $0; sub(/.*"obj":/, "", o); sub(/,.*/, "", o)
		c = $0; sub(/.*"cons":\[/, "", c); sub(/,.*/, "", c)
		f = $0 ~ /"feasible":true/
		p = $0; sub(/.*"phase":"/, "", p); sub(/".*/, "", p)
		if (i == best) { bo = o + 0; bc = c + 0; bf = f }
		if (f && (p == "lhs" || p == "local")) { if (m == "" || o + 0 < m) m = o + 0 }
		if (f && c + 0 < 0.9) bad = 1
	}
	END {
		if (!bf) { print "tune: the best is infeasible"; exit 1 }
		if (bc < 0.9) { print "tune: the best has util " bc; exit 1 }
		if (bo > m) { print "tune: best " bo " > a searched point " m; exit 1 }
		if (bad) { print "tune: a point marked feasible breaks util >= 0.9"; exit 1 }
	}' "$T/j1/tune.json" || fail=1
grep -q '<- best' "$tmp/j1.out" || { echo "tune: no best in the output"; fail=1; }
out=$("$BIN" $S tune show j1 | grep -c '^  default ')
check "show: the default" 1 "$out"
out=$("$BIN" $S -j tune show j1 | jget obj)
[ -n "$out" ] || { echo "tune: show -j has no obj"; fail=1; }

if command -v gnuplot >/dev/null 2>&1; then
	"$BIN" $S tune plot j1 to "$tmp/t.svg" >/dev/null
	check "plot rc" 0 $?
	grep -q '<svg' "$tmp/t.svg" || { echo "tune: plot: no svg"; fail=1; }
	check "plot data: every evaluation" "$(grep -c '"phase"' "$T/j1/tune.json")" \
		"$(grep -vc '^#' "$T/j1/plot.dat")"
	# the space plot: a row per evaluation at its param values, and the
	# best point's values as tune show prints them
	"$BIN" $S tune plot j1 space to "$tmp/sp.svg" >/dev/null
	check "space plot rc" 0 $?
	grep -q '<svg' "$tmp/sp.svg" || { echo "tune: space plot: no svg"; fail=1; }
	check "space data: every evaluation" "$(grep -c '"phase"' "$T/j1/tune.json")" \
		"$(grep -vc '^#' "$T/j1/space.dat")"
	bx=$(sed -n 's/^bestx = //p' "$T/j1/space.gp")
	bshow=$("$BIN" $S tune show j1 | sed -n 's/^  best *ALPHA \([0-9.e+-]*\).*/\1/p')
	check "space plot's best = tune show's" "$(printf '%.4g' "$bshow")" "$(printf '%.4g' "$bx")"
	[ -n "$bx" ] && [ -n "$bshow" ] || { echo "tune: no best in the space plot or tune show"; fail=1; }
	out=$("$BIN" $S tune plot j1 spaces 2>&1)
	check "plot usage" 1 $?
fi

# refusals: one line, exit 1, nothing written, no tune kept
n0=$(writes)
for bad in "ALPHA 0.5:0.02 minimize util" "FOO 1:2 minimize util" \
	"ALPHA 0.1 minimize util" "ALPHA 0.1:0.2 minimize bogus" \
	"ALPHA 0.1:0.2 minimize util subject to jain ~ 1" \
	"ALPHA 0.1:0.2 minimize util budget 3 runs" \
	"ALPHA 0.1:0.2 minimize util while 'sleep 1'"; do
	"$BIN" $S tune $bad >"$tmp/o" 2>"$tmp/e"
	check "refused: $bad" 1 $?
	check "one line: $bad" 1 "$(wc -l <"$tmp/e")"
done
"$BIN" $S tune ALPHA 0.1:0.2 minimize rtt_p99 subject to util '>=' 2 for 1ms \
	scenario incast senders 8 budget 30 into imp >"$tmp/o" 2>"$tmp/e"
check "impossible rc" 1 $?
check "impossible: one line" 1 "$(wc -l <"$tmp/e")"
grep -q "no point met the constraints" "$tmp/e" ||
	{ echo "tune: impossible said: $(cat "$tmp/e")"; fail=1; }
"$BIN" $S tune apply imp 2>"$tmp/e"
check "apply impossible rc" 1 $?
check "refusals wrote nothing" "$n0" "$(writes)"
check "device untouched" "$a0 $i0" "$(raw ALPHA) $(raw AI)"

# a damaged tune.json: one line naming it, for show, apply and resume
mkdir -p "$T/bad" && printf '{"version":1,"name":"bad","evals":[' >"$T/bad/tune.json"
for v in show apply resume; do
	"$BIN" $S tune $v bad >/dev/null 2>"$tmp/e"
	check "damaged: $v rc" 1 $?
	check "damaged: $v one line" 1 "$(grep -c "tune.json': bad" "$tmp/e")"
done
rm -r "$T/bad"

# apply: the best point, one transaction, undone
ba=$(awk -v best="$best" '/"phase"/ { if (n++ == best) print }' "$T/j1/tune.json" |
	sed 's/.*"raw":\[\([0-9]*\),\([0-9]*\)\].*/\1 \2/')
"$BIN" $S tune apply j1 >/dev/null
check "apply rc" 0 $?
check "apply wrote the best" "$ba" "$(raw ALPHA) $(raw AI)"
check "apply: one transaction" 2 "$("$BIN" $S journal show | grep -c "ok (tx $((n0 + 1)))")"
"$BIN" $S journal undo last >/dev/null
check "undo rc" 0 $?
check "undo brought back" "$a0 $i0" "$(raw ALPHA) $(raw AI)"

# profile: the device's slot with the best in it
"$BIN" $S tune profile j1 tp >/dev/null
check "profile rc" 0 $?
check "profile ALPHA" "$(echo "$ba" | cut -d' ' -f1)" "$(grep -o '"name":"ALPHA"[^}]*"raw":[0-9]*' \
	"$XDG_DATA_HOME/pccbench/profiles/tp.json" | sed 's/.*"raw"://')"
check "list" "imp j1 j2 r1" "$("$BIN" $S tune list | tr '\n' ' ' | sed 's/ $//')"
# verify on a "real" NIC (tests/fake-mstreg on the sim firmware): a tune
# made on the sim with the debug algorithm, then A B A B on the NIC with
# the traffic command; the rows alternate the default and the best, the
# original values come back, the sim refuses
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
FAKE="$O/tests/fake-mstreg"
[ -x "$FAKE" ] || { echo "tune: $FAKE not built"; exit 1; }
M="-d 0000:08:00.0 --backend mstreg --mstreg $FAKE"
export FAKE_MSTREG_SIM=nic
"$BIN" $M -y -c 'algo debug on' >/dev/null
"$BIN" -d sim:tdbg -c 'algo debug on' >/dev/null
"$BIN" -d sim:tdbg tune ALPHA 0.2:0.5 AI 5:100 minimize rtt_p99 for 1ms \
	scenario incast senders 8 seeds 1 budget 12 runs into dbg >/dev/null 2>&1
check "debug tune rc" 0 $?
orig=$("$BIN" $M -j param get ALPHA AI)
out=$("$BIN" $M -y -c "tune verify dbg while 'sleep 4.321' for 200ms every 100ms rounds 2" 2>/dev/null)
check "verify rc" 0 $?
case "$out" in *"2 rounds A/B: avg_rtt_mean"*"B - A"*) ;;
	*) echo "tune: verify said: $out"; fail=1 ;; esac
"$BIN" -d sim:tdbg tune show dbg >/dev/null
check "verify restored" "$orig" "$("$BIN" $M -j param get ALPHA AI)"
best=$("$BIN" -d sim:tdbg -j tune show dbg | sed 's/.*"best":{\([^}]*\)}.*/\1/')
ba=$(printf '%s' "$best" | sed 's/.*"ALPHA":\([0-9.e+-]*\).*/\1/')
bi=$(printf '%s' "$best" | sed 's/.*"AI":\([0-9.e+-]*\).*/\1/')
[ -n "$ba" ] && [ "$ba" != 0.1 ] || { echo "tune: verify: no best ALPHA ($ba)"; fail=1; }
check "verify: A = default, B = best" "0.1,9 $ba,$bi 0.1,9 $ba,$bi" \
	"$(cut -d, -f4,5 "$T/dbg/verify/results.csv" | sed 1d | tr '\n' ' ' | sed 's/ $//')"
"$BIN" -d sim tune verify dbg while 'sleep 1' 2>"$tmp/e"
check "verify on the sim" 1 $?
check "verify on the sim: one line" 1 "$(wc -l <"$tmp/e")"
exit $fail
