#!/bin/sh
# sweep's worker table on a machine with more CPUs than sweep runs workers
# (faked: an LD_PRELOAD shim makes sysconf(_SC_NPROCESSORS_ONLN) say 300):
# the default is capped at 256 workers, a sweep of 257 runs goes through,
# and nothing outside the sweep's own workers is signalled (a process in
# pccbench's process group survives).  More than 256 asked for: one line.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache"
dir="$tmp/data/pccbench/sweeps"
S="-d sim:jobs"

# the shim: sysconf(_SC_NPROCESSORS_ONLN) = 300, the rest from libc
cat >"$tmp/ncpu.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <unistd.h>

long sysconf(int name)
{
	static long (*real)(int);

	if (name == _SC_NPROCESSORS_ONLN)
		return 300;
	if (!real)
		real = (long (*)(int))dlsym(RTLD_NEXT, "sysconf");
	return real ? real(name) : -1;
}
EOF
${CC:-cc} -shared -fPIC -o "$tmp/ncpu.so" "$tmp/ncpu.c" -ldl ||
	{ echo "sweep_jobs: cannot build the sysconf shim"; exit 1; }
# a sanitizer runtime linked dynamically wants to come first; the shim
# is loaded before it
ncpu() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		LD_PRELOAD="$tmp/ncpu.so" "$@"
}
[ "$(ncpu getconf _NPROCESSORS_ONLN)" = 300 ] ||
	{ echo "sweep_jobs: the shim does not take"; exit 1; }

grid="ALPHA 0.001:0.257:0.001 for 1ms scenario incast senders 2"
# the plan: 257 runs, 300 CPUs -> 256 workers
out=$(ncpu "$BIN" $S -n -j -c "sweep $grid into p0" 2>&1)
check "plan exit" 0 $?
check "plan runs" 257 "$(printf '%s\n' "$out" | jget runs)"
check "plan jobs" 256 "$(printf '%s\n' "$out" | jget jobs)"

# the sweep itself, in a session of its own (a stray kill(0) would take
# the test with it) and, where we may, a pid namespace of its own (a stray
# kill of a small pid must not hit this machine's processes); the sleep
# shares pccbench's process group and must outlive it
ns=""
if unshare -pf true 2>/dev/null; then
	ns="unshare -pf"
elif unshare -rpf true 2>/dev/null; then
	ns="unshare -rpf"
fi
ncpu setsid -w $ns sh -c '
	sleep 60 & echo $! >"$1/sentinel"
	"$2" -d sim:jobs -c "sweep $3 into big" >"$1/big.out" 2>"$1/big.err"
	echo $? >"$1/big.rc"
	kill -0 $(cat "$1/sentinel") && echo alive >"$1/alive"
	kill $(cat "$1/sentinel")' sh "$tmp" "$BIN" "$grid" </dev/null
check "257 runs exit" 0 "$(cat "$tmp/big.rc" 2>/dev/null)"
# (its points all measure the start burst: said in one warning, issue 32.8)
check "257 runs: stderr" "" "$(grep -v '^warning: sweep big: .* the same at every point' "$tmp/big.err" | head -c 2000)"
check "257 runs: rows" 258 "$(grep -c '' "$dir/big/results.csv" 2>/dev/null)"
check "process group spared" alive "$(cat "$tmp/alive" 2>/dev/null)"
grep -q '"jobs":256,' "$dir/big/meta.json" 2>/dev/null ||
	{ echo "sweep_jobs: meta.json does not say jobs 256"; fail=1; }
check "no worker left" "" "$(ls "$tmp/cache/pccbench/sweep" 2>/dev/null)"

# more than the cap: one line that says the cap
out=$("$BIN" $S -c "sweep ALPHA 0.1,0.2 jobs 257 into j257" 2>&1); rc=$?
check "jobs 257 exit" 1 $rc
check "jobs 257 one line" 1 "$(printf '%s\n' "$out" | grep -c '')"
case "$out" in error:*256*) ;; *) echo "sweep_jobs: jobs 257: $out"; fail=1 ;; esac
check "jobs 257: nothing saved" "" "$(ls "$dir/j257" 2>/dev/null)"
# jobs above the runs: as many workers as runs
out=$("$BIN" $S -n -j -c "sweep ALPHA 0.1,0.2 jobs 256 into j256")
check "jobs 256 for 2 runs" 2 "$(printf '%s\n' "$out" | jget jobs)"
exit $fail
