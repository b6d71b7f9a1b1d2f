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
OLD=${OLD:?OLD must name the old pccbench binary}
NEW=${NEW:?NEW must name the new pccbench binary}
SEEDS=${SEEDS:-1 2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp" XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache"

# name|algo setup|scenario|duration
scenarios() {
	for n in 16 64 256; do
		echo "incast $n:1 ZTR||incast senders $n|5ms"
		echo "incast $n:1 DCQCN|algo disable 0; algo enable 2; |incast senders $n|5ms"
	done
	echo "WebSearch 64 hosts||mix leaves 8 spines 8 hosts 8 rate 400g load 50 dist websearch|2ms"
	echo "WebSearch 256 hosts||mix leaves 16 spines 16 hosts 16 rate 400g load 50 dist websearch|2ms"
	echo "WebSearch 1024 hosts||mix leaves 32 spines 32 hosts 32 rate 400g load 50 dist websearch|1ms"
	echo "allreduce ring 16||allreduce ranks 16 size 4MB iters 4|2ms"
	echo "alltoall rail 32||alltoall ranks 32 size 1MB iters 2 topo rail leaves 8 spines 4 hosts 4|2ms"
}

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
