#!/bin/sh
# The simulator's fidelity tests on other seeds (issue 34; not in make
# check): each test in TESTS (test_sim's and test_simtopo's, by name, and
# the e2e scripts)
# with PCCB_SEED_SHIFT=0,100,...,100*K (K from $K, default 4), one row a
# test and shift: pass or FAIL, and the figures it judged (its lines
# starting "= ").  Exit 1 if any failed.  Run from the top of a built
# tree: O (default build) names the build dir, BIN the binary.
#   tests/tools/seed-robust.sh            # all, shifts 0..400
#   K=9 tests/tools/seed-robust.sh test_dcqcn_knobs
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
O=${O:-build}
BIN=${BIN:-$top/pccbench}
K=${K:-4}
case "$K" in *[!0-9]* | '') echo "seed-robust: K '$K': not a number" >&2; exit 2 ;; esac
sim="$top/$O/tests/test_sim"
topo="$top/$O/tests/test_simtopo"
[ -x "$sim" ] && [ -x "$topo" ] && [ -x "$BIN" ] ||
	{ echo "seed-robust: build first (make test-build): $sim, $topo, $BIN" >&2; exit 2; }
export BIN
TESTS=${*:-"test_ztr_hai_sawtooth test_dcqcn_fluid_fixed_point test_dcqcn_nvidia_defaults test_dcqcn_ai_response test_dcqcn_knobs test_incast_over_mix test_ideal_fct_tiers sim2_dcqcn.sh"}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
bad=0
printf '| test | shift | result | judged |\n|---|---|---|---|\n'
for t in $TESTS; do
	k=0
	while [ "$k" -le "$K" ]; do
		case "$t" in
		*.sh) PCCB_SEED_SHIFT=$((100 * k)) sh "$top/tests/e2e/$t" >"$log" 2>&1 ;;
		*) PCCB_SEED_SHIFT=$((100 * k)) PCCB_TEST_FILTER=$t "$sim" >"$log" 2>&1 &&
			! grep -q 'Running 0 test' "$log" ||
			{ grep -q 'Running 0 test' "$log" &&
				PCCB_SEED_SHIFT=$((100 * k)) PCCB_TEST_FILTER=$t "$topo" >"$log" 2>&1; } ;;
		esac
		if [ $? -eq 0 ]; then r=pass; else r=FAIL; bad=1; fi
		grep -q 'Running 0 test' "$log" && { r="FAIL (no such test)"; bad=1; }
		j=$(sed -n 's/^= //p' "$log" | sed 's/|/\//g' | tr '\n' ';' | sed 's/;$//; s/;/; /g')
		[ "$r" = pass ] || j="$j; $(grep -m 3 -E 'ERROR|FAIL|expected|not ' "$log" | tr '\n' ' ')"
		printf '| %s | %d | %s | %s |\n' "$t" $((100 * k)) "$r" "$j"
		k=$((k + 1))
	done
done
exit $bad
