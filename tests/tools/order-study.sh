#!/bin/sh
# The event order's effect on results (issue 34 items 5 and 7): two
# builds, OLD (events at one time in insertion order) and NEW (by type,
# then id: src/sim/sim_int.h), run the same scenarios on seeds 1-5; per
# summary figure it prints the old build's mean and seed-to-seed spread
# (max - min over the seeds) and the mean and largest change from old to
# new on the same seed.  A change within the spread is what a tie order
# does: it moves the run as a new seed does.  Not run by make check or
# make bench; tests/tools/order-study.md holds its table and verdict.
#
#   OLD=/path/to/main/pccbench NEW=./pccbench tests/tools/order-study.sh
set -u
SEEDS=${SEEDS:-1 2 3 4 5}
. "$(dirname "$0")/study.inc"

# one run's figures: util q_mean q_p99 q_max rtt_mean rtt_p99 fct_p50
# fct_p99 coll_us events ("-" where the run has none)
figures() {	# binary setup scenario duration seed
	rm -rf "$tmp/state"
	"$1" -d sim:o -y -j -c "$2 sim scenario $3 seed $5; sim run $4" |
		tail -n 1 | awk '
		/"error"/ { print "order-study: " $0 >"/dev/stderr"; exit 1 }
		function f(k,   m) {
			if (match($0, "\"" k "\":[-0-9.e+]+")) {
				m = substr($0, RSTART, RLENGTH)
				sub(/^[^:]*:/, "", m)
				return m
			}
			return "-"
		}
		{
			p50 = "-"; p99 = "-"
			if (match($0, /"fct":\[\{[^}]*\}/)) {
				s = substr($0, RSTART, RLENGTH)
				if (match(s, /"p50":[-0-9.e+]+/))
					p50 = substr(s, RSTART + 6, RLENGTH - 6)
				if (match(s, /"p99":[-0-9.e+]+/))
					p99 = substr(s, RSTART + 6, RLENGTH - 6)
			}
			print f("utilisation"), f("queue_mean_bytes"),
			      f("queue_p99_bytes"), f("queue_max_bytes"),
			      f("rtt_mean_ns"), f("rtt_p99_ns"), p50, p99,
			      f("coll_mean_us"), f("events")
		}'
}

echo "| scenario | figure | old mean | old seed spread | new - old, mean | (of the mean) | new - old, largest | within spread |"
echo "|---|---|---|---|---|---|---|---|"
scenarios | while IFS='|' read -r name setup scen dur; do
	: >"$tmp/rows"
	for s in $SEEDS; do
		printf '%s %s\n' "$(figures "$OLD" "$setup" "$scen" "$dur" "$s")" \
			"$(figures "$NEW" "$setup" "$scen" "$dur" "$s")" \
			>>"$tmp/rows"
	done
	awk -v name="$name" '
	BEGIN {
		split("util q_mean q_p99 q_max rtt_mean rtt_p99 fct_p50 fct_p99 coll_us events", fig, " ")
		nf = 10
	}
	{
		for (i = 1; i <= nf; i++) {
			o[NR, i] = $i
			n[NR, i] = $(i + nf)
		}
		rows = NR
	}
	END {
		for (i = 1; i <= nf; i++) {
			if (o[1, i] == "-")
				continue
			sum = 0; lo = o[1, i]; hi = o[1, i]; dsum = 0; dmax = 0
			for (r = 1; r <= rows; r++) {
				sum += o[r, i]
				if (o[r, i] + 0 < lo + 0) lo = o[r, i]
				if (o[r, i] + 0 > hi + 0) hi = o[r, i]
				d = n[r, i] - o[r, i]
				dsum += d
				if ((d < 0 ? -d : d) > (dmax < 0 ? -dmax : dmax))
					dmax = d
			}
			mean = sum / rows
			spread = hi - lo
			dm = dsum / rows
			ok = (dm < 0 ? -dm : dm) <= spread ? "yes" : "NO"
			if (spread == 0 && dm == 0)
				ok = "same"
			printf "| %s | %s | %.6g | %.3g | %+.3g | %+.2f %% | %+.3g | %s |\n",
			       name, fig[i], mean, spread, dm,
			       mean ? 100 * dm / mean : 0, dmax, ok
		}
	}' "$tmp/rows"
done
