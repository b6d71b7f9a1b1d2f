#!/bin/sh
# One event per hop (issue 34 item 5): how often a data packet queued at a
# switch port leaves later than the port's tail-free time when it was
# queued, and why; and the events by type.  Builds the simulator with
# -DSIM_HOP_STUDY (src/sim/hopstudy.h: counters the default build has
# not) into build-hs/, unless HS_BIN names such a binary, and runs:
# incast 64:1 (ZTR-RTT, DCQCN; 400G, 5 ms) and the leaf-spine WebSearch
# mix at 50 % load (256 and 1024 hosts, 400G, 2 ms).  Prints a markdown
# table; tests/tools/hop-study.md holds the numbers and the verdict.  Not
# run by make check or make bench.  From the top of a checkout:
#
#   tests/tools/hop-study.sh
#
# HS_CLASSES=1 builds (into build-hs1/) with ACK and NACK in the data's
# class, HS_CLASSES=2 (build-hs2/) with the probe's response as well:
# only CNPs go ahead of data (src/sim/hopstudy.h, hs_data_class).
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp" XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache"
BIN=${HS_BIN:-}
if [ -z "$BIN" ]; then
	o=build-hs${HS_CLASSES:-}
	def=${HS_CLASSES:+-DSIM_STUDY_CLASSES=$HS_CLASSES}
	make -s -j2 O=$o BIN=$o/pccbench LIB=$o/libpccreg.a \
		CFLAGS="-O2 -g -DSIM_HOP_STUDY $def" $o/pccbench >&2 || exit 1
	BIN=$o/pccbench
fi
SEED=${SEED:-1}

# name|algo setup|scenario|duration
scenarios() {
	echo "incast 64:1 ZTR||incast senders 64|5ms"
	echo "incast 64:1 DCQCN|algo disable 0; algo enable 2; |incast senders 64|5ms"
	echo "WebSearch 256 hosts||mix leaves 16 spines 16 hosts 16 rate 400g load 50 dist websearch|2ms"
	echo "WebSearch 1024 hosts||mix leaves 32 spines 32 hosts 32 rate 400g load 50 dist websearch|2ms"
}

echo "| scenario | events | PORT_FREE | ARRIVE | NIC_WAKE | other | departures sending nothing | data queued at switches | of them waited | waited, left late | late: control overtook | late: paused | late: class 1 | late: control alone | mean lateness (ns) | ... control alone (ns) | on time, drawing ECN's RNG | Xon sent at a departure |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
scenarios | while IFS='|' read -r name setup scen dur; do
	rm -rf "$tmp/state"
	"$BIN" -d sim:o -y -j -c "$setup sim scenario $scen seed $SEED; sim run $dur" \
		2>&1 >/dev/null | grep '^hop-study:' | awk -v name="$name" '
	{
		for (i = 2; i < NF; i += 2)
			v[$i] = $(i + 1)
		ev = v["events"]
		oth = ev - v["PORT_FREE"] - v["ARRIVE"] - v["NIC_WAKE"]
		q = v["at_once"] + v["queued"]
		w = v["queued"]
		l = v["late"]
		printf "| %s | %.2f M | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.2f M | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.0f | %.0f | %.1f %% | %d |\n",
		       name, ev / 1e6, 100 * v["PORT_FREE"] / ev,
		       100 * v["ARRIVE"] / ev, 100 * v["NIC_WAKE"] / ev,
		       100 * oth / ev,
		       100 * v["free_idle"] / (v["PORT_FREE"] + v["NIC_WAKE"]),
		       q / 1e6, q ? 100 * w / q : 0, w ? 100 * l / w : 0,
		       l ? 100 * v["ctrl"] / l : 0,
		       l ? 100 * v["pause"] / l : 0,
		       l ? 100 * v["c1"] / l : 0,
		       l ? 100 * v["ctrl_only"] / l : 0,
		       l ? v["late_ps"] / l / 1000 : 0,
		       v["ctrl_only"] ? v["ctrl_ps"] / v["ctrl_only"] / 1000 : 0,
		       v["exact"] ? 100 * v["exact_draws"] / v["exact"] : 0,
		       v["xon"]
		if (v["early"] + 0 || v["other"] + 0)
			print "hop-study: " name ": " v["early"] " early, " \
			      v["other"] " late without a cause" >"/dev/stderr"
	}'
done
