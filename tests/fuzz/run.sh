#!/bin/sh
# run.sh SECONDS [NAME...] - the libFuzzer harnesses built by `make
# fuzz-build` ($FUZZ_O/fuzz_NAME, default build-fuzz), one after another
# (one core):
#   1. replay tests/fuzz/regress/NAME/* and tests/fuzz/corpus/NAME/*
#      (every input once; any crash or leak fails);
#   2. fuzz SECONDS on a private copy of corpus/NAME (the checked-in
#      corpus never grows by itself), with tests/fuzz/NAME.dict if there
#      is one; any crash, leak, timeout or OOM artefact fails, and so does
#      a sanitizer report that did not stop the run (a build with
#      -fsanitize-recover).
# Prints per harness the execs/s and total execs, then a total line.
# FUZZ_KEEP_GOING=1: libFuzzer's fork mode, one job at a time, going on
# after crashes, timeouts and OOMs (to find more than the first; each is
# an artefact); the reports are summarised once per source line.
# Output, logs and artefacts: $FUZZ_O/fuzz-out/ (emptied at each start);
# a failure names the artefact to copy into regress/NAME/ once fixed.
# Exit: 0 clean, 1 a crash or artefact, 2 usage or build problem.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-10}
[ $# -gt 0 ] && shift
case "$secs" in
'' | *[!0-9]*) echo "usage: $0 SECONDS [NAME...]" >&2; exit 2 ;;
esac
bdir=${FUZZ_O:-build-fuzz}
case "$bdir" in /*) ;; *) bdir="$top/$bdir" ;; esac
out="$bdir/fuzz-out"
rm -rf "$out"
mkdir -p "$out" || exit 2
# the harnesses make their private roots here (tmpfs when there is one:
# pccbench fsyncs its state files); gone at the end
if tmp=$(mktemp -d /dev/shm/pccb-fuzz.XXXXXX 2>/dev/null); then :; else
	tmp="$out/tmp"
	mkdir -p "$tmp" || exit 2
fi
trap 'rm -rf "$tmp"' EXIT
export TMPDIR="$tmp"
export PCCBENCH_DATADIR="$top"
export UBSAN_OPTIONS="print_stacktrace=1:dedup_token_length=3"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}:dedup_token_length=3"
# per input: a hung command is a finding, not a stall
tmo=${FUZZ_TIMEOUT:-10}
flags="-timeout=$tmo -rss_limit_mb=2048 -print_final_stats=1"
keep=""
[ "${FUZZ_KEEP_GOING:-0}" = 1 ] &&
	keep="-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1"

names="$*"
if [ -z "$names" ]; then
	for b in "$bdir"/fuzz_*; do
		[ -x "$b" ] && names="$names ${b##*/fuzz_}"
	done
fi
[ -n "$names" ] || { echo "no harness in $bdir (make fuzz-build)" >&2; exit 2; }

fail=0
total=0
tsecs=0
summary=""
# lstat_of NAME LOG: the value of libFuzzer's final stat::NAME
lstat_of() {
	sed -n "s/^stat::$1: *//p" "$2" | tail -n 1
}
# why LOG: the sanitizers' and libFuzzer's reasons, once per source line
why() {
	grep -E \
	    "^(SUMMARY: |.*runtime error: |==[0-9]+== ?ERROR: libFuzzer)" "$1" |
		sed -e 's/^==[0-9]*== *//' -e 's/ in $//' | sort | uniq -c |
		sort -rn | head -n 12 | sed 's/^ */      /'
}
# replay BIN LOG FILE...: each input once
replay() {
	_bin=$1
	_log=$2
	shift 2
	"$_bin" $flags -artifact_prefix="$out/artifacts/$n/replay-" "$@" \
		</dev/null >"$_log" 2>&1
}
for n in $names; do
	bin="$bdir/fuzz_$n"
	if [ ! -x "$bin" ]; then
		echo "fuzz_$n: not built" >&2
		fail=1
		continue
	fi
	art="$out/artifacts/$n"
	mkdir -p "$art" "$out/corpus/$n"
	# 1. each regression input alone (a crash stops libFuzzer: one run
	#    per input names them all), then the seeds together
	nrep=0
	hfail=0
	for f in "$top/tests/fuzz/regress/$n"/*; do
		[ -f "$f" ] || continue
		nrep=$((nrep + 1))
		log="$out/$n.regress-${f##*/}.log"
		if ! replay "$bin" "$log" "$f"; then
			echo "FAIL fuzz_$n: regress/$n/${f##*/} (log $log)"
			why "$log"
			hfail=1
			summary="$summary\n  $n: regress/$n/${f##*/} fails"
		fi
	done
	set --
	for f in "$top/tests/fuzz/corpus/$n"/*; do
		[ -f "$f" ] && set -- "$@" "$f"
	done
	nrep=$((nrep + $#))
	if [ $# -gt 0 ] && ! replay "$bin" "$out/$n.replay.log" "$@"; then
		echo "FAIL fuzz_$n: a corpus/$n input crashes (log" \
			"$out/$n.replay.log)"
		why "$out/$n.replay.log"
		hfail=1
		summary="$summary\n  $n: corpus replay failed"
	fi
	# 2. fuzzing on a copy of the corpus
	[ -d "$top/tests/fuzz/corpus/$n" ] &&
		cp -R "$top/tests/fuzz/corpus/$n/." "$out/corpus/$n/"
	dict=""
	[ -f "$top/tests/fuzz/$n.dict" ] && dict="-dict=$top/tests/fuzz/$n.dict"
	"$bin" $flags $keep $dict -max_total_time="$secs" \
		-artifact_prefix="$art/" "$out/corpus/$n" \
		</dev/null >"$out/$n.log" 2>&1
	rc=$?
	execs=$(lstat_of number_of_executed_units "$out/$n.log")
	rate=$(lstat_of average_exec_per_sec "$out/$n.log")
	if [ -z "$execs" ]; then	# fork mode: its last "#N: ... time: Ts"
		execs=$(sed -n 's/^#\([0-9]*\):.*/\1/p' "$out/$n.log" |
			tail -n 1)
		[ -n "$execs" ] && rate=$((execs / secs))
	fi
	execs=${execs:-0}
	total=$((total + execs))
	tsecs=$((tsecs + secs))
	arts=$(ls "$art" 2>/dev/null | grep -v '^replay-' || true)
	status=ok
	[ "$hfail" -eq 1 ] && status=FAIL fail=1
	if [ "$rc" -ne 0 ] || [ -n "$arts" ] ||
		grep -q "runtime error:\|^SUMMARY: " "$out/$n.log"; then
		status=FAIL
		fail=1
	fi
	printf '%-12s %-4s replayed %4d  %8s execs/s  %10s execs\n' \
		"$n" "$status" "$nrep" "${rate:-?}" "$execs"
	if [ "$status" = FAIL ]; then
		why "$out/$n.log"
		na=$(echo "$arts" | grep -c .)
		for a in $(echo "$arts" | head -n 3); do
			echo "      artefact: $art/$a"
		done
		[ "$na" -gt 3 ] && echo "      ... $na artefacts in $art"
		echo "      log: $out/$n.log"
		nrs=$(grep -c "^SUMMARY: " "$out/$n.log")
		na=$(echo "$arts" | grep -c .)
		summary="$summary\n  $n: $na artefact(s), $nrs sanitizer"
		summary="$summary report(s) in $out/$n.log"
	fi
done
rate=0
[ "$tsecs" -gt 0 ] && rate=$((total / tsecs))
printf 'total        %d harnesses, %d execs in %d s (%d execs/s)%s\n' \
	"$(echo $names | wc -w)" "$total" "$tsecs" "$rate" \
	"$([ $fail -eq 0 ] && echo ', no crash' || echo ', FAILED')"
[ -n "$summary" ] && printf "failures:$summary\n"
exit $fail
