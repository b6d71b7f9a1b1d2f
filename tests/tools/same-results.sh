#!/bin/sh
# Do two builds give the same results?  OLD and NEW run the scenarios of
# tests/tools/order-study.sh (incasts 16/64/256:1 with ZTR-RTT and with
# DCQCN over PFC, WebSearch on 64 and 256 hosts, a ring all-reduce, an
# all-to-all on a rail fabric) and WebSearch on 1024 hosts, on the seeds
# in SEEDS, and compare each run's whole JSON summary but its "events"
# (a change that saves events changes their count and nothing else).
# Prints one line a run and exits 1 if any differs.  Not run by make
# check; issue 34 item 5's speed work is measured against it.
#
#   OLD=/path/to/main/pccbench NEW=./pccbench tests/tools/same-results.sh
set -u
SEEDS=${SEEDS:-1 2}
STUDY_BIG=1
. "$(dirname "$0")/study.inc"

summary() {	# binary setup scenario duration seed
	rm -rf "$tmp/state"
	"$1" -d sim:o -y -j -c "$2 sim scenario $3 seed $5; sim run $4" |
		tail -n 1 | sed 's/"events":[0-9]*,//'
}

bad=0
while IFS='|' read -r name setup scen dur; do
	for s in $SEEDS; do
		summary "$OLD" "$setup" "$scen" "$dur" "$s" >"$tmp/old"
		summary "$NEW" "$setup" "$scen" "$dur" "$s" >"$tmp/new"
		if ! grep -q '"utilisation"' "$tmp/old"; then
			echo "$name, seed $s: no summary from OLD"
			bad=1
		elif cmp -s "$tmp/old" "$tmp/new"; then
			echo "$name, seed $s: same"
		else
			echo "$name, seed $s: DIFFERENT"
			bad=1
		fi
	done
done <<EOF
$(scenarios)
EOF
exit $bad
