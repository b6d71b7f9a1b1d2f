#!/bin/sh
# export metrics / serve metrics against the real consumers from Debian:
# promtool accepts the text; prometheus-node-exporter's textfile collector
# reads the file while it is being rewritten and reports no scrape error;
# a prometheus server scrapes `serve metrics` and its query API returns
# our series with the value `counter show` gives.  Every server listens on
# 127.0.0.1 on a port found free; every process is stopped at the end.
. "$(dirname "$0")/lib.inc"
for t in promtool prometheus prometheus-node-exporter curl; do
	command -v "$t" >/dev/null || { echo "metrics: $t is missing (scripts/install-deps.sh)"; exit 1; }
done
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# a TCP port nobody listens on, from 20000..49999
# wait_for URL PATTERN: up to 15 s until URL's body has PATTERN
wait_for() {
	i=0
	while [ $i -lt 150 ]; do
		curl -s --max-time 2 "$1" 2>/dev/null | grep -q "$2" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "metrics: $1 never showed '$2'"
	return 1
}

# some traffic on the sim, counters on, the retx histogram running
"$BIN" -c 'algo debug on; retx start; sim scenario incast senders 16 loss 0.01; sim run 5ms' >/dev/null || fail=1
"$BIN" export metrics >"$tmp/once.prom" || fail=1
lint=$(promtool check metrics <"$tmp/once.prom" 2>&1)
check "promtool check metrics" "0 " "$? $lint"
# one reading: SUM_RTT is counter show's, in seconds; no average (an
# average covers the interval between two readings)
ns=$("$BIN" -j counter show | tr '{' '\n' | sed -n 's/.*"name":"ZTR_CC_SUM_RTT","value":\([0-9]*\).*/\1/p')
s=$(sed -n 's/^pccbench_algo_seconds_total{.*"ZTR_CC_SUM_RTT"} //p' "$tmp/once.prom")
check "SUM_RTT" "ok" "$(awk -v a="$ns" -v b="$s" 'BEGIN { d = a / 1e9 - b; if (a > 0 && d < 1e-10 && d > -1e-10) print "ok"; else print a, b }')"
check "no average from one reading" "0" "$(grep -c '^pccbench_algo_avg_rtt_seconds' "$tmp/once.prom")"

# ZTR_CC_SUM_RTT (ns) is 32-bit: 200 ms of a 64:1 incast at 400G wraps it
# twice.  Read every 10 ms, the exported total goes on past 2^32 ns (the
# device's value plus whole wraps) and the average covers the last
# interval: between the device's MIN_RTT and MAX_RTT and within 50 % of
# the wrap-corrected average since the clear (the device's own ratio,
# SUM_RTT / NUM_RTT, is a third of it after the wraps)
w="$tmp/wrap"
mkdir "$w"
XDG_STATE_HOME="$w" "$BIN" -c "algo debug on; sim scenario incast senders 64 rate 400g; export metrics to $w/w.prom every 10ms for 200ms" >/dev/null || fail=1
raw=$(XDG_STATE_HOME="$w" "$BIN" -j counter show | tr '{' '\n' | sed -n 's/.*"name":"ZTR_CC_SUM_RTT","value":\([0-9]*\).*/\1/p')
v() { sed -n "s/^$1{.*$2} //p" "$w/w.prom"; }
sum=$(v pccbench_algo_seconds_total '"ZTR_CC_SUM_RTT"')
num=$(v pccbench_algo_events_total '"ZTR_CC_NUM_RTT"')
avg=$(v pccbench_algo_avg_rtt_seconds '')
lo=$(v pccbench_algo_extreme_seconds '"ZTR_CC_MIN_RTT"')
hi=$(v pccbench_algo_extreme_seconds '"ZTR_CC_MAX_RTT"')
check "SUM_RTT: the device's value and whole wraps ($raw, $sum)" "ok" \
	"$(awk -v r="$raw" -v s="$sum" 'BEGIN { k = (s * 1e9 - r) / 4294967296; d = k - int(k + 0.5); if (k >= 1 && d < 1e-6 && d > -1e-6) print "ok"; else print k }')"
check "average over the last interval ($avg; $lo..$hi; $sum / $num)" "ok" \
	"$(awk -v a="$avg" -v l="$lo" -v h="$hi" -v s="$sum" -v n="$num" 'BEGIN { m = s / n; if (a >= l && a <= h && a > m / 1.5 && a < m * 1.5) print "ok"; else print "no" }')"
promtool check metrics <"$w/w.prom" >/dev/null 2>&1 || check "promtool: the wrapped file" "ok" "no"
# a host counter: the IB 4-byte words as bytes (the sim's host NICs
# count what the device's fabric ran in this process)
w=$("$BIN" -j -c "sleep 1ms; export metrics to $tmp/host.prom collect +port_*; counter show host" |
	tr '{' '\n' | sed -n 's/"name":"port_rcv_data","value":\([0-9]*\).*/\1/p')
b=$(sed -n 's/^pccbench_host_port_rcv_data_bytes_total{device="sim:default"} //p' "$tmp/host.prom")
check "port_rcv_data as bytes" "yes $((w * 4))" "$([ "${w:-0}" -gt 0 ] && echo yes) $b"
# the adp_retx histogram as a Prometheus histogram (issue 35.3): a
# bucket per bin at its upper bound, cumulative, the open last bin +Inf,
# _count the total; equal to what `retx read` counts
"$BIN" -j retx read | tr '{' '\n' | sed -n 's/.*"to":\([0-9a-z]*\),"unit":"usec","count":\([0-9]*\).*/\1 \2/p' |
	awk '{ c += $2; printf "pccbench_retx_timeout_seconds_bucket{device=\"sim:default\",le=\"%s\"} %d\n", $1 == "null" ? "+Inf" : ($1 + 1) / 1e6, c }
	END { printf "pccbench_retx_timeout_seconds_count{device=\"sim:default\"} %d\n", c }' >"$tmp/hist.want"
check "retx histogram" "$(cat "$tmp/hist.want")" "$(grep '^pccbench_retx_timeout_seconds_' "$tmp/host.prom")"
check "retx histogram: timeouts seen" "yes" \
	"$(awk '/_count/ { if ($2 > 0) print "yes"; else print "none" }' "$tmp/hist.want")"

check "a param in seconds" 'pccbench_param_seconds{device="sim:default",slot="1",algo="ZTR_RTT_DEBUG",param="MAX_DELAY"} 0.00025' \
	"$(grep '^pccbench_param_seconds.*MAX_DELAY' "$tmp/once.prom")"
# units in names, never in a label (issue 35.4): fixed point, percent,
# /1024 and a log2 gain as ratios; bytes per 100 Gb/s named so; a bool
# or a count bare (DCQCN in slot 2 for its units)
"$BIN" -d sim:units -c 'algo enable 2' >/dev/null || fail=1
"$BIN" -d sim:units export metrics >"$tmp/units.prom" || fail=1
u() { grep "^$1{.*param=\"$2\"}" "$tmp/units.prom" | sed 's/{.*}//'; }
check "units in names" "pccbench_param_ratio 0.0999908447265625
pccbench_param_ratio 0.00048828125
pccbench_param_ratio 0.5
pccbench_param_ratio 0.9951171875
pccbench_param_bytes_per_100gbps 9
pccbench_param 1
pccbench_param 1
pccbench_param_bytes_per_second 625000" \
	"$(u pccbench_param_ratio ALPHA; u pccbench_param_ratio rpg_gd; u pccbench_param_ratio rpg_min_dec_fac
	u pccbench_param_ratio dce_tcp_g; u pccbench_param_bytes_per_100gbps AI; u pccbench_param TX_DEC
	u pccbench_param rpg_threshold; u pccbench_param_bytes_per_second rpg_ai_rate)"
check "no unit label" "0" "$(grep -c 'unit=' "$tmp/units.prom")"
check "HELP and TYPE once per family" "0" \
	"$(grep '^# TYPE' "$tmp/once.prom" | sort | uniq -d | wc -l)"

# one endpoint per host (issue 35.1, 35.2): `devices all` reads every
# NVIDIA port of the fixture host; two do not answer (no fwctl node, no
# such mstreg device): each is pccbench_device_up 0 with its error
# logged, while the one that answers is served whole, with the names
# node_exporter's collectors use as device_info labels
# (the fixture host, with firmware version and hw_counters for mlx5_1,
# among them `lifespan`, a setting that is no counter)
fx="$top/tests/fixtures"
mkdir "$tmp/bin"
ln -s "$top/${O:-build}/tests/fake-mstreg" "$tmp/bin/mstreg"
cp -a "$fx/sysfs" "$tmp/sys"
echo 28.39.1002 >"$tmp/sys/class/infiniband/mlx5_1/fw_ver"
hw="$tmp/sys/class/infiniband/mlx5_1/ports/1/hw_counters"
mkdir -p "$hw"
echo 7 >"$hw/np_cnp_sent"
echo 10 >"$hw/lifespan"
PATH="$tmp/bin:$PATH" PCCBENCH_PCI_DUMP="$fx/pci/lspci-x.txt" \
	PCCBENCH_SYSFS="$tmp/sys" PCCBENCH_DEVROOT="$tmp/dev" \
	FAKE_MSTREG_DEVICE=0000:08:00.1 FAKE_MSTREG_SIM="fake" \
	"$BIN" export metrics devices all >"$tmp/all.prom" 2>"$tmp/all.err"
check "devices all: exit (two failed)" "2" "$?"
check "devices all: up" 'pccbench_device_up{device="0000:03:00.0"} 0
pccbench_device_up{device="0000:08:00.0"} 0
pccbench_device_up{device="0000:08:00.1"} 1' "$(grep '^pccbench_device_up' "$tmp/all.prom")"
check "devices all: the errors logged" "2" \
	"$(grep -c -e '^warning: metrics: 0000:03:00.0:.*Failed to open device' -e '^warning: metrics: 0000:08:00.0:.*cannot open' "$tmp/all.err")"
check "devices all: the one that answers, whole" "4" \
	"$(grep -c '^pccbench_algo_enabled{device="0000:08:00.1"' "$tmp/all.prom")"
check "devices all: device_info" \
	'pccbench_device_info{device="0000:08:00.1",rdma="mlx5_1",netdev="ens1f1np1",port="1",model="ConnectX-7",fw="28.39.1002"} 1' \
	"$(grep '^pccbench_device_info' "$tmp/all.prom")"
check "a hw counter, and lifespan (no counter) left out" \
	'pccbench_host_np_cnp_sent_total{device="0000:08:00.1",port="1"} 7 0' \
	"$(grep '^pccbench_host_np_cnp_sent' "$tmp/all.prom") $(grep -c lifespan "$tmp/all.prom")"
check "devices all: promtool" "0" \
	"$(promtool check metrics <"$tmp/all.prom" >/dev/null 2>&1; echo $?)"
# a 32-bit q-counter that wraps between two readings (the file rewritten
# after the first): its exported total goes on past 2^32 (issue 32.1)
echo 4294967290 >"$hw/out_of_sequence"
PATH="$tmp/bin:$PATH" PCCBENCH_PCI_DUMP="$fx/pci/lspci-x.txt" \
	PCCBENCH_SYSFS="$tmp/sys" PCCBENCH_DEVROOT="$tmp/dev" \
	FAKE_MSTREG_DEVICE=0000:08:00.1 FAKE_MSTREG_SIM="fake" \
	"$BIN" export metrics to "$tmp/q.prom" devices 0000:08:00.1 every 2s for 4s 2>/dev/null &
qp=$!
i=0
while [ ! -s "$tmp/q.prom" ] && [ $i -lt 300 ]; do sleep 0.05; i=$((i + 1)); done
q1=$(sed -n 's/^pccbench_host_out_of_sequence_total{.*} //p' "$tmp/q.prom")
echo 5 >"$hw/out_of_sequence"
wait "$qp"
check "q-counter across its wrap" "4294967290 4294967301" \
	"$q1 $(sed -n 's/^pccbench_host_out_of_sequence_total{.*} //p' "$tmp/q.prom")"

# a list: sims and a PCI address that is not there
"$BIN" export metrics devices sim:m1,0000:ff:1f.7,sim:m2 >"$tmp/list.prom" 2>/dev/null
check "devices list: exit" "2" "$?"
check "devices list: up" "1 0 1" "$(sed -n 's/^pccbench_device_up{.*} //p' "$tmp/list.prom" | tr '\n' ' ' | sed 's/ $//')"
check "devices list: both sims" "4 4" \
	"$(grep -c '^pccbench_algo_enabled{device="sim:m1"' "$tmp/list.prom") $(grep -c '^pccbench_algo_enabled{device="sim:m2"' "$tmp/list.prom")"
check "build_info" 'pccbench_build_info{version="'"$("$BIN" --version | awk '{ print $NF }')"'"} 1' \
	"$(grep '^pccbench_build_info' "$tmp/list.prom")"
check "scrape duration per device" "3" "$(grep -c '^pccbench_scrape_duration_seconds{device=' "$tmp/list.prom")"
"$BIN" export metrics devices sim:m1,sim:m1 >/dev/null 2>&1
check "devices given twice" "1" "$?"

# cardinality (issue 35.5): by default only the host counters node_exporter
# does not give (RoCE congestion and errors, PFC pauses, discards);
# `collect` globs add or remove, the last matching one decides
fam() { grep "^pccbench_host_" "$1" | sed 's/{.*//; s/^pccbench_host_//' | sort -u | tr '\n' ' '; }
check "default host counters" "local_ack_timeout_err_total np_cnp_sent_total np_ecn_marked_roce_packets_total out_of_sequence_total packet_seq_err_total rp_cnp_handled_total " \
	"$(fam "$tmp/once.prom" | sed 's/rx_prio[^ ]* //g; s/tx_prio[^ ]* //g; s/sim_[^ ]* //g')"
check "default: PFC pauses per priority" "24" "$(fam "$tmp/once.prom" | tr ' ' '\n' | grep -c '_prio[0-7]_pause')"
check "default: no volumes, no port counters" "0" "$(fam "$tmp/once.prom" | tr ' ' '\n' | grep -c -e bytes_total -e '^[rt]x_[a-z0-9_]*packets_total' -e '^port_')"
"$BIN" export metrics collect '-*,+np_*,+rx_prio3_*' >"$tmp/c1.prom" || fail=1
check "collect -*,+np_*,+rx_prio3_*" "np_cnp_sent_total np_ecn_marked_roce_packets_total rx_prio3_bytes_total rx_prio3_packets_total rx_prio3_pause_duration_seconds_total rx_prio3_pause_total " "$(fam "$tmp/c1.prom")"
"$BIN" export metrics collect '+*' >"$tmp/c2.prom" || fail=1
check "collect +*: every counter" "$("$BIN" -j counter show host | tr '{' '\n' | grep -c '"name"')" \
	"$(fam "$tmp/c2.prom" | wc -w)"
for bad in "," "+a;b" "+" "-"; do
	"$BIN" export metrics collect "$bad" >"$tmp/out" 2>&1
	check "collect '$bad': one line, exit 1" "1 1" "$? $(wc -l <"$tmp/out")"
done

# bad input: one line, exit 1, no file
tf="$tmp/textfile"
mkdir "$tf"
for bad in "every 0" "for 1s" "for 1s every" "every 1ms for 1ms bogus 1"; do
	# shellcheck disable=SC2086
	"$BIN" export metrics to "$tf/x.prom" $bad >"$tmp/out" 2>&1
	check "export metrics ... $bad: exit" "1 1" "$? $(wc -l <"$tmp/out")"
done
check "no file after bad input" "" "$(ls "$tf")"
"$BIN" serve metrics 1.2.3.4.5:80 >/dev/null 2>&1
check "serve metrics: bad address" "1" "$?"
# a planted symlink is replaced, never followed
echo keep >"$tmp/victim"
ln -s "$tmp/victim" "$tf/pccbench.prom"
"$BIN" export metrics to "$tf/pccbench.prom" || fail=1
check "symlink not followed" "keep" "$(head -n 1 "$tmp/victim" | cut -c 1-40)"
[ -f "$tf/pccbench.prom" ] && [ ! -L "$tf/pccbench.prom" ] || check "a regular file" "yes" "no"

# ---- node_exporter's textfile collector, while the file is rewritten ----
np=$(free_port) || { echo "metrics: no free port"; exit 1; }
prometheus-node-exporter --web.listen-address="127.0.0.1:$np" \
	--collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$tf" >"$tmp/node.log" 2>&1 &
pids="$pids $!"
wait_for "http://127.0.0.1:$np/metrics" pccbench_algo_enabled || fail=1
"$BIN" export metrics to "$tf/pccbench.prom" every 1ms for 40ms &
exporter=$!
n=0
bad=0
while kill -0 "$exporter" 2>/dev/null || [ $n -lt 3 ]; do
	curl -s --max-time 5 "http://127.0.0.1:$np/metrics" >"$tmp/scrape"
	grep -q '^node_textfile_scrape_error 0$' "$tmp/scrape" &&
		grep -q '^pccbench_algo_enabled{' "$tmp/scrape" || bad=$((bad + 1))
	n=$((n + 1))
	[ $n -ge 200 ] && break
done
wait "$exporter"
check "export every 1ms for 40ms" "0" "$?"
check "node_exporter scrapes with an error or without our metrics (of $n)" "0" "$bad"
grep -q '^pccbench_host_np_cnp_sent_total{device="sim:default"}' "$tmp/scrape" ||
	check "node_exporter shows a host counter" "yes" "no"

# ---- serve metrics: 404, the interval's cache, a real prometheus ----
"$BIN" serve metrics 0 every 3600s >"$tmp/serve.out" 2>&1 &
pids="$pids $!"
srv=$!
i=0
while ! grep -qs '^serving' "$tmp/serve.out" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
url=$(sed -n 's|^serving \(http://127.0.0.1:[0-9]*/metrics\).*|\1|p' "$tmp/serve.out")
check "serve binds 127.0.0.1" "yes" "$([ -n "$url" ] && echo yes)"
sp=$(echo "$url" | sed 's|.*:\([0-9]*\)/metrics|\1|')
check "404 elsewhere" "404" "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$sp/other")"
check "405 for POST" "405" "$(curl -s -o /dev/null -w '%{http_code}' -X POST "$url")"
curl -s "$url" >"$tmp/served.prom"
check "served text passes promtool" "0" \
	"$(promtool check metrics <"$tmp/served.prom" >/dev/null 2>&1; echo $?)"
s=$(sed -n 's/^pccbench_algo_seconds_total{.*"ZTR_CC_SUM_RTT"} //p' "$tmp/served.prom")
# read once per interval: a param written meanwhile shows only after it
"$BIN" param set MAX_DELAY 300us >/dev/null || fail=1
check "cached for the interval" "0.00025" \
	"$(curl -s "$url" | sed -n 's/^pccbench_param_seconds{.*MAX_DELAY"} //p')"

pp=$(free_port) || { echo "metrics: no free port"; exit 1; }
cat >"$tmp/prom.yml" <<EOF
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: pccbench
    static_configs:
      - targets: ['127.0.0.1:$sp']
EOF
prometheus --config.file="$tmp/prom.yml" --storage.tsdb.path="$tmp/tsdb" \
	--web.listen-address="127.0.0.1:$pp" >"$tmp/prom.log" 2>&1 &
pids="$pids $!"
q="http://127.0.0.1:$pp/api/v1/query?query=pccbench_algo_seconds_total"
if wait_for "$q" '"result":\[{'; then
	r=$(curl -s "$q")
	check "prometheus: job and device" "yes" \
		"$(echo "$r" | grep -q '"job":"pccbench".*"device":"sim:default"\|"device":"sim:default".*"job":"pccbench"' && echo yes)"
	v=$(echo "$r" | sed -n 's/.*"value":\[[0-9.]*,"\([^"]*\)"\].*/\1/p')
	check "prometheus: the value served" "ok" \
		"$(awk -v a="$s" -v b="$v" 'BEGIN { if (a > 0 && a == b + 0) print "ok"; else print a, b }')"
	# the median as histogram_quantile interpolates it, from the text
	# served: in the bucket that holds it
	hq=$(awk -F'[" ]' 'BEGIN { n = 0 } /^pccbench_retx_timeout_seconds_bucket/ { le[n] = $4; c[n++] = $NF }
		/^pccbench_retx_timeout_seconds_count/ { t = $NF }
		END { r = t / 2; for (i = 0; i < n; i++) if (c[i] >= r) break;
		lo = i ? le[i - 1] : 0; pc = i ? c[i - 1] : 0
		printf "%.9g", lo + (le[i] - lo) * (r - pc) / (c[i] - pc) }' "$tmp/served.prom")
	hv=$(curl -s "http://127.0.0.1:$pp/api/v1/query?query=histogram_quantile(0.5,pccbench_retx_timeout_seconds_bucket)" |
		sed -n 's/.*"value":\[[0-9.]*,"\([^"]*\)"\].*/\1/p')
	check "prometheus: histogram_quantile" "ok" \
		"$(awk -v a="$hq" -v b="$hv" 'BEGIN { d = a - b; if (a > 0 && d < 1e-12 && d > -1e-12) print "ok"; else print a, b }')"
else
	fail=1
	tail -5 "$tmp/prom.log"
fi
kill -INT "$srv"
wait "$srv"
check "serve metrics ends on SIGINT" "0" "$?"
exit $fail
