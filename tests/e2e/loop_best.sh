#!/bin/sh
# The best point is the best (#33 item 8): `tune show` states its rule
# (the greatest mean, when maximizing, among the feasible points measured
# in the searched box, the sensitivity probes included; the default is
# the baseline), the best follows it (in tune A a probe beats the
# search's best, as in the issue), and every point that beats the best on
# the mean is listed with why it was not chosen (in tune B, infeasible
# ones).  The constraints are rtt_p99 values of the search's points
# (328400-330500 on seeds 1,2), so a change of the event order moves
# them: with events at one picosecond by (type, id) and arrivals by
# port (merges of branches order and par2), A at 328500 (a probe beats
# the best) and B, budget 30, at 328300.
. "$(dirname "$0")/lib.inc"
S="-d sim:best"
T="$XDG_DATA_HOME/pccbench/tunes"
# rows "phase obj feasible" of the path, then "listed EVAL WHY"
rows() {
	"$BIN" $S -j tune show "$1" | tr '{' '\n' | awk '
		/"better_on_mean":\[/ { inb = 1 }
		inb && !inp && /"eval":/ { e = $0; sub(/.*"eval":/, "", e); sub(/,.*/, "", e)
			w = $0; sub(/.*"why":"/, "", w); sub(/".*/, "", w); print "listed", e, w }
		/"path":\[/ { inp = 1; next }
		inp && /"phase":/ { p = $0; sub(/.*"phase":"/, "", p); sub(/".*/, "", p)
			o = $0; sub(/.*"obj":/, "", o); sub(/,.*/, "", o)
			print p, o, ($0 ~ /"feasible":true/) }'
}
# the rule over the rows: the best's index, then every index better on
# the mean that is not listed or listed without why
rule() {
	awk '$1 == "listed" { listed[$2] = 1; if (NF < 3) print "no-why", $2; next }
		{ ph[n] = $1; ob[n] = $2 + 0; fe[n] = $3; n++ }
		END { b = -1
			for (i = 0; i < n; i++)
				if (fe[i] && ph[i] != "default" && (b < 0 || ob[i] > ob[b])) b = i
			print "best", b
			for (i = 0; i < n; i++) if (ob[i] > ob[b] && !(i in listed)) print "unlisted", i
			for (e in listed) if (!(ob[e] > ob[b])) print "not-better", e
			c = 0; for (e in listed) c++; print "listed", c }' n=0
}
for t in "A 328500 30" "B 328300 30"; do
	set -- $t
	"$BIN" $S tune ALPHA 0.02:0.5 AI 1:100 maximize util subject to rtt_p99 '<=' $2 \
		for 1ms scenario incast senders 8 seeds 1,2 budget $3 runs into $1 >/dev/null 2>&1
	check "$1: tune rc" 0 $?
	"$BIN" $S tune show $1 >"$tmp/show"
	grep -q '^  the best: the greatest mean among the feasible points measured in the searched box (hypercube, local search, sensitivity probes; the default is the baseline)$' "$tmp/show" ||
		{ echo "loop_best: $1: no rule in: $(cat "$tmp/show")"; fail=1; }
	rows $1 | rule >"$tmp/r"
	best=$(grep -o '"best":-*[0-9]*' "$T/$1/tune.json" | cut -d: -f2)
	check "$1: the best by the rule" "best $best" "$(grep '^best' "$tmp/r")"
	check "$1: every better point listed, with why" "" "$(grep -E '^(unlisted|not-better|no-why)' "$tmp/r")"
	n=$(sed -n 's/^listed //p' "$tmp/r")
	check "$1: listed in text" "$n" "$(grep -c '^  better on the mean, not chosen: eval [0-9]* (.*) util [0-9.]*: infeasible: rtt_p99 [0-9.]*, not <= ' "$tmp/show")"
	eval "n$1=$n"
done
# A: a probe beat the search's best; the probes' centre is said
"$BIN" $S tune show A | grep -q "a probe beat it" ||
	{ echo "loop_best: A: no probe beat the search's best (the case not exercised)"; fail=1; }
[ "$nB" -gt 0 ] || { echo "loop_best: B: nothing listed (the list not exercised)"; fail=1; }
exit $fail
