#!/bin/sh
# sweep on the sim device: bad grids are refused with one line and nothing
# written or saved; jobs 2 gives the bytes of jobs 1; a sweep interrupted
# with SIGINT and resumed gives the bytes of one that ran through; higher
# ALPHA gives a higher mean RTT; show marks the best point; plots render.
# On a "real" NIC (tests/fake-mstreg on the sim firmware): the original
# values come back at the end, after an error, after SIGINT and SIGTERM;
# -n prints the plan and the mstreg lines; no -y in a script: nothing runs.
. "$(dirname "$0")/lib.inc"
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache"
dir="$tmp/data/pccbench/sweeps"
S="-d sim:sw"
"$BIN" $S -c 'algo debug on' >/dev/null
"$BIN" -d sim:ro -c 'algo list' >/dev/null	# deployment slot active
before=$("$BIN" $S -j param list)

# ---- bad input: one line, exit 1, nothing written, nothing saved
while IFS='|' read -r dev cmd; do
	out=$("$BIN" -d "$dev" -c "$cmd" 2>&1); rc=$?
	check "'$cmd' exit" 1 $rc
	check "'$cmd' one line" 1 "$(printf '%s\n' "$out" | grep -c '')"
	case "$out" in error:*) ;; *) echo "sweep: '$cmd': $out"; fail=1 ;; esac
done <<'BAD'
sim:sw|sweep NOPE 1:2:1
sim:sw|sweep ALPHA 1:0:0.1
sim:sw|sweep ALPHA 0:1:0
sim:sw|sweep ALPHA 0:1
sim:sw|sweep ALPHA 0.1,5
sim:sw|sweep ALPHA 0.1,0.1
sim:sw|sweep ALPHA 0.1,0.2 ALPHA 0.3
sim:sw|sweep ALPHA
sim:sw|sweep ALPHA 0.1,x
sim:sw|sweep ALPHA 0:10000:0.001
sim:sw|sweep MAX_DELAY 10us:50ms:10us
sim:sw|sweep ALPHA 0.1,0.2 for 0
sim:sw|sweep ALPHA 0.1,0.2 for
sim:sw|sweep ALPHA 0.1,0.2 repeat 0
sim:sw|sweep ALPHA 0.1,0.2 jobs 999
sim:sw|sweep ALPHA 0.1,0.2 repeat 2 seeds 1,2,3
sim:sw|sweep ALPHA 0.1,0.2 seeds 1,x
sim:sw|sweep ALPHA 0.1,0.2 measure nope
sim:sw|sweep ALPHA 0.1,0.2 measure util,util
sim:sw|sweep ALPHA 0.1,0.2 scenario incast senders 999999
sim:sw|sweep ALPHA 0.1,0.2 scenario incast bogus 1
sim:sw|sweep ALPHA 0.1,0.2 scenario nosuch
sim:sw|sweep ALPHA 0.1,0.2 while 'ib_write_bw -d mlx5_0'
sim:sw|sweep ALPHA 0.1,0.2 plot /tmp/x.jpg
sim:sw|sweep ALPHA 0.1,0.2 into ../x
sim:sw|sweep ALPHA 0.1,0.2 frobnicate 1
sim:ro|sweep FIXED_RATE 1,2
sim:ro|sweep ALPHA 0.1,0.2 measure avg_rtt
sim:sw|sweep show nosuch
sim:sw|sweep resume nosuch
sim:sw|sweep drop nosuch
BAD
check "params after bad sweeps" "$before" "$("$BIN" $S -j param list)"
check "nothing saved" "" "$(ls "$dir" 2>/dev/null)"

# ---- jobs 2 = jobs 1, whatever order the runs take
grid="ALPHA 0.1,0.3 AI 10,40 for 2ms repeat 2"
scen="scenario incast senders 16"
"$BIN" $S -c "sweep $grid jobs 1 into j1 $scen" >/dev/null
check "jobs 1 exit" 0 $?
"$BIN" $S -c "sweep $grid jobs 2 shuffle into j2 $scen" >/dev/null
check "jobs 2 exit" 0 $?
cmp -s "$dir/j1/results.csv" "$dir/j2/results.csv" ||
	{ echo "sweep: jobs 2 results differ from jobs 1"; fail=1; }
check "rows" 9 "$(grep -c '' "$dir/j1/results.csv")"
check "header" "point,repeat,seed,ALPHA,AI (B/100Gb/s),avg_rtt_mean (ns),avg_rtt_p50 (ns),avg_rtt_p99 (ns),avg_rtt_min (ns),avg_rtt_max (ns),util (1),queue_p99 (B),cnp_handled_mean (1/s),cnp_handled_p50 (1/s),cnp_handled_p99 (1/s),cnp_handled_min (1/s),cnp_handled_max (1/s)" \
	"$(head -n 1 "$dir/j1/results.csv" | tr -d '\r')"
# the first param varies slowest; repeats use seeds 1 and 2
check "row 4" "1,1,2,0.1,40" "$(sed -n 5p "$dir/j1/results.csv" | cut -d, -f1-5)"
check "row 8" "3,1,2,0.3,40" "$(sed -n 9p "$dir/j1/results.csv" | cut -d, -f1-5)"
grep -q '"status":"complete"' "$dir/j1/meta.json" ||
	{ echo "sweep: meta.json lacks the status"; fail=1; }
grep -q '"axes":\[{"param":"ALPHA","values":\[0.1,0.3\]}' "$dir/j1/meta.json" ||
	{ echo "sweep: meta.json lacks the axes"; fail=1; }
check "device untouched" "$before" "$("$BIN" $S -j param list)"

# ---- show: means over repeats with intervals, the best point marked
out=$("$BIN" $S -c 'sweep show j1 best min avg_rtt where util > 0.5 and AI = 40')
check "best marked once" 1 "$(printf '%s\n' "$out" | grep -c ' \*$')"
case "$out" in *"best (min avg_rtt): point 1, ALPHA 0.1 AI 40:"*) ;;
	*) echo "sweep: best: $out"; fail=1 ;; esac
check "show json best" 1 "$("$BIN" $S -j sweep show j1 best max util |
	grep -o '"best":true' | grep -c '')"
out=$("$BIN" $S -c 'sweep show j1 best min util where util > 2')
case "$out" in *"no point meets"*) ;; *) echo "sweep: where: $out"; fail=1 ;; esac
out=$("$BIN" $S -c 'sweep show j1 best min nope' 2>&1); rc=$?
check "best unknown column" 1 $rc

# ---- higher ALPHA, higher mean RTT (64 flows, after a 10 ms transient)
"$BIN" $S -c 'sweep ALPHA 0,0.1,0.3 for 10ms warmup 10ms measure avg_rtt,rtt_mean into a1 scenario incast senders 64' >/dev/null
check "trend exit" 0 $?
tail -n +2 "$dir/a1/results.csv" | tr -d '\r' | awk -F, '
	NR > 1 && ($5 <= a || $10 <= r) { bad = 1 }
	{ a = $5; r = $10 } END { exit bad }' ||
	{ echo "sweep: mean RTT does not grow with ALPHA:"; cat "$dir/a1/results.csv"; fail=1; }

# ---- plots: lines with intervals, a heatmap, the terminal
"$BIN" $S -c "sweep plot a1 to $tmp/a.png" >/dev/null
check "png signature" "89504e470d0a1a0a" "$(head -c 8 "$tmp/a.png" | od -An -tx1 | tr -d ' \n')"
"$BIN" $S -c "sweep plot j1 to $tmp/j.svg" >/dev/null
for label in ALPHA 'AI (B/100Gb/s)' '>avg_rtt<' 'util (1)' 'µs<'; do
	grep -qF "$label" "$tmp/j.svg" || { echo "sweep: heatmap lacks '$label'"; fail=1; }
done
COLUMNS=80 LINES=40 "$BIN" $S sweep plot a1 >"$tmp/dumb.txt"
grep -q 'sweep a1' "$tmp/dumb.txt" || { echo "sweep: dumb plot lacks the title"; fail=1; }

# ---- SIGINT in the middle, then resume: the bytes of an uninterrupted run
long="ALPHA 0.05:0.8:0.05 for 20ms jobs 2 scenario incast senders 64"
"$BIN" $S -c "sweep $long into r1" >/dev/null 2>"$tmp/r1.err" &
pid=$!
i=0
while [ "$(grep -c '' "$dir/r1/results.csv" 2>/dev/null || echo 0)" -lt 3 ] &&
      [ $i -lt 500 ]; do
	sleep 0.01; i=$((i + 1))
done
kill -INT $pid
wait $pid
check "interrupted exit" 130 $?	# 128 + SIGINT
rows=$(grep -c '' "$dir/r1/results.csv")
[ "$rows" -ge 3 ] && [ "$rows" -lt 17 ] ||
	{ echo "sweep: interrupted sweep kept $rows lines"; fail=1; }
grep -q "'sweep resume r1' continues" "$tmp/r1.err" ||
	{ echo "sweep: no resume hint: $(cat "$tmp/r1.err")"; fail=1; }
grep -q '"status":"interrupted"' "$dir/r1/meta.json" ||
	{ echo "sweep: meta.json does not say interrupted"; fail=1; }
check "no worker left" "" "$(ls "$tmp/cache/pccbench/sweep" 2>/dev/null)"
"$BIN" $S -c 'sweep resume r1' >"$tmp/resume.out"
check "resume exit" 0 $?
grep -q "were done" "$tmp/resume.out" || { echo "sweep: resume: $(cat "$tmp/resume.out")"; fail=1; }
"$BIN" $S -c "sweep $long into r2" >/dev/null
cmp -s "$dir/r1/results.csv" "$dir/r2/results.csv" ||
	{ echo "sweep: resumed results differ from an uninterrupted run"; fail=1; }
out=$("$BIN" $S -c 'sweep resume r1')
case "$out" in *"every run is done"*) ;; *) echo "sweep: resume done: $out"; fail=1 ;; esac
# a changed fixed param refuses the resume
cp -r "$dir/r1" "$dir/r3"
sed -i '/^0,/d' "$dir/r3/results.csv"
"$BIN" $S -c 'param set AI 30' >/dev/null
out=$("$BIN" $S -c 'sweep resume r3' 2>&1); rc=$?
check "resume after a change" 1 $rc
case "$out" in *"AI was 9 when the sweep started and is 30 now"*) ;;
	*) echo "sweep: resume after a change: $out"; fail=1 ;; esac
"$BIN" $S -c 'param set AI 9' >/dev/null
out=$("$BIN" $S -c "sweep ALPHA 0.1 into r1" 2>&1); rc=$?
check "existing name" 1 $rc
check "device untouched at the end" "$before" "$("$BIN" $S -j param list)"
"$BIN" $S -c 'sweep drop r3' >/dev/null
check "list" "a1 j1 j2 r1 r2" "$("$BIN" $S -j sweep list | grep -o '"name":"[a-z0-9]*"' | cut -d'"' -f4 | tr '\n' ' ' | sed 's/ $//')"

# ---- damaged files: one line, exit 1, nothing run
for bad in csv args point empty; do
	cp -r "$dir/a1" "$dir/bad$bad"
	case $bad in
	csv) printf 'garbage\000\377\n1,2,3\n' >"$dir/bad$bad/results.csv" ;;
	args) head -c 70000 /dev/urandom >"$dir/bad$bad/sweep.args" ;;
	point) sed -i 's/^1,0,/1e300,0,/' "$dir/bad$bad/results.csv" ;;
	empty) : >"$dir/bad$bad/results.csv" ;;
	esac
	for verb in show resume plot; do
		out=$("$BIN" $S -c "sweep $verb bad$bad" 2>&1); rc=$?
		check "damaged $bad: $verb exit" 1 $rc
		check "damaged $bad: $verb one line" 1 "$(printf '%s\n' "$out" | grep -c '')"
	done
	rm -rf "$dir/bad$bad"
done

# ---- a real NIC through mstreg: restore whatever happens
FAKE="$O/tests/fake-mstreg"
[ -x "$FAKE" ] || { echo "sweep: $FAKE not built"; exit 1; }
M="-d 0000:08:00.0 --backend mstreg --mstreg $FAKE"
export FAKE_MSTREG_SIM=nic
"$BIN" $M -y -c 'algo debug on' >/dev/null
orig=$("$BIN" $M -j param get ALPHA AI)
out=$("$BIN" $M -n -c "sweep ALPHA 0.2,0.3 AI 10,30 for 200ms every 100ms")
check "plan: mstreg lines" 10 "$(printf '%s\n' "$out" | grep -c "^$FAKE -d 0000:08:00.0 --reg_name PPCC --indexes .* --op cmd_type=8 ")"
check "plan: restore last" 'value=9,' "$(printf '%s\n' "$out" | tail -n 1 | grep -o 'value=[0-9]*,')"
case "$out" in *"4 points x 1 repeat = 4 runs"*) ;; *) echo "sweep: plan: $out"; fail=1 ;; esac
out=$("$BIN" $M -c "sweep ALPHA 0.2,0.3 for 200ms every 100ms into m0" 2>&1 </dev/null); rc=$?
check "no -y exit" 1 $rc
case "$out" in *"give -y to confirm"*) ;; *) echo "sweep: no -y: $out"; fail=1 ;; esac
check "no -y: nothing saved" "" "$(ls "$dir/m0" 2>/dev/null)"
"$BIN" $M -y -c "sweep ALPHA 0.2,0.3 for 200ms every 100ms while 'sleep 4.321' into m1" >/dev/null
check "real exit" 0 $?
check "real rows" 3 "$(grep -c '' "$dir/m1/results.csv")"
check "restored at the end" "$orig" "$("$BIN" $M -j param get ALPHA AI)"
"$BIN" $M -y -c "sweep ALPHA 0.2,0.3 for 200ms every 100ms while 'false' into m2" 2>"$tmp/m2.err"
check "traffic failure exit" 2 $?
grep -q "traffic command 'false' failed (exit 1)" "$tmp/m2.err" ||
	{ echo "sweep: traffic failure: $(cat "$tmp/m2.err")"; fail=1; }
check "restored after an error" "$orig" "$("$BIN" $M -j param get ALPHA AI)"
# the traffic command's own duration names it: another worktree's run of
# this test has its own (pgrep sees the whole machine)
tag="4.$$"
for sig in INT TERM; do
	printf '%s\n' "sweep ALPHA 0.2,0.3,0.4 for 1s every 100ms while 'sleep $tag' into m$sig" \
		'param set ALPHA 0.9' >"$tmp/s.pcb"
	"$BIN" $M -y -x "$tmp/s.pcb" >/dev/null 2>&1 &
	pid=$!
	# mid-sweep: once its traffic runs (a condition, not a time)
	i=0
	while ! pgrep -f "sleep $tag" >/dev/null && [ $i -lt 1200 ]; do
		sleep 0.05; i=$((i + 1))
	done
	kill -$sig $pid
	wait $pid
	rc=$?
	case $sig in INT) want=130 ;; TERM) want=143 ;; esac	# 128 + signal
	check "SIG$sig exit" $want $rc
	check "restored after SIG$sig" "$orig" "$("$BIN" $M -j param get ALPHA AI)"
	check "SIG$sig: traffic stopped" "" "$(pgrep -f "sleep $tag")"
done
# a crash (SIGKILL) cannot restore; the journal can (cleared first: it
# holds every write since, 'algo debug on' included)
"$BIN" $M -y -c 'journal clear' >/dev/null
"$BIN" $M -y -c "sweep ALPHA 0.2,0.3,0.4 for 1s every 100ms into mKILL" >/dev/null 2>&1 &
pid=$!
# killed once its first write is confirmed in the journal (a fixed delay
# came too early for a slow sanitizer build)
jr="$tmp/state/pccbench/journal/0000_08_00.0.log"
i=0
while [ $i -lt 300 ] && ! grep -q '^D ' "$jr" 2>/dev/null; do
	sleep 0.05
	i=$((i + 1))
done
kill -KILL $pid
wait $pid 2>/dev/null
[ "$("$BIN" $M -j param get ALPHA AI)" != "$orig" ] ||
	{ echo "sweep: SIGKILL came after the sweep wrote nothing"; fail=1; }
"$BIN" $M -y -c 'journal restore' >"$tmp/restore.out" 2>&1
check "journal restore exit" 0 $?
check "restored by the journal after SIGKILL" "$orig" "$("$BIN" $M -j param get ALPHA AI)"
# every problem with the keywords in one line, nothing run
out=$("$BIN" -d sim:kw -c 'sweep ALPHA 0.1,0.2 for 1x repeat 0 plott a.png jobs 2' 2>&1); rc=$?
check "bad keywords exit" 1 $rc
check "bad keywords, all at once" "error: sweep: bad for '1x' (e.g. 10ms, 100us); repeat '0': 1 to 100 repeats; unknown keyword 'plott' (for, warmup, every, repeat, seeds, jobs, measure, scenario, while, into, plot, shuffle)" "$out"
exit $fail
