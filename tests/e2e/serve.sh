#!/bin/sh
# serve metrics against hostile clients on 127.0.0.1 (issue 31.3): a
# connection that sends its request a byte at a time is dropped after the
# timeout however long it trickles; floods of idle and slow connections
# (bounded: 400 at once, at most 60 s) never keep a scrape from being
# answered.  Every process is stopped at the end.
. "$(dirname "$0")/lib.inc"
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
FLOOD="$O/tests/http-flood"
command -v curl >/dev/null || { echo "serve: curl is missing (scripts/install-deps.sh)"; exit 1; }
pids=""
cleanup() {
	touch "$tmp/stop"
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# start_serve OUT ARGS...: serve metrics in the background; sets url
start_serve() {
	out=$1
	shift
	"$BIN" serve metrics "$@" >"$out" 2>&1 &
	pids="$pids $!"
	i=0
	while ! grep -qs '^serving' "$out" && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
	url=$(sed -n 's|^serving \(https*://127.0.0.1:[0-9]*/metrics\).*|\1|p' "$out")
	port=$(echo "$url" | sed 's|.*:\([0-9]*\)/metrics|\1|')
	[ -n "$port" ] || { cat "$out"; echo "serve: never served"; exit 1; }
}

"$BIN" -c 'algo debug on; sim run 1ms' >/dev/null || fail=1
start_serve "$tmp/serve.out" 0 timeout 1s

# slow-loris: 4 connections trickling a request that never ends are all
# closed by the server (1 s timeout; the flood gives up after 15 s)
r=$("$FLOOD" slow "$port" 4 15 once)
check "slow connections dropped after the timeout" "0" "$?"
ms=$(echo "$r" | sed -n 's/.*longest \([0-9]*\) ms/\1/p')
check "no earlier than the timeout ($r)" "yes" "$([ "${ms:-0}" -ge 1000 ] && echo yes)"

# floods from 127.0.0.1: 300 idle and 100 slow connections, each
# reconnected as soon as it is dropped, while 5 scrapes from another
# address (127.0.0.2, as a Prometheus server elsewhere) must each be
# answered in full: the flood only ever pushes out its own connections
"$FLOOD" idle "$port" 300 60 flood "$tmp/ready1" "$tmp/stop" >"$tmp/idle.out" &
f1=$!
"$FLOOD" slow "$port" 100 60 flood "$tmp/ready2" "$tmp/stop" >"$tmp/slow.out" &
f2=$!
pids="$pids $f1 $f2"
i=0
while ! [ -e "$tmp/ready1" ] || ! [ -e "$tmp/ready2" ]; do
	sleep 0.1
	i=$((i + 1))
	[ $i -lt 300 ] || { echo "serve: the floods never connected"; exit 1; }
done
ok=0
for _ in 1 2 3 4 5; do
	code=$(curl -s --interface 127.0.0.2 -o "$tmp/scrape" --max-time 10 -w '%{http_code}' "$url")
	[ "$code" = 200 ] && grep -q '^pccbench_algo_enabled{' "$tmp/scrape" && ok=$((ok + 1))
done
check "scrapes answered during the floods" "5" "$ok"
touch "$tmp/stop"
wait "$f1" "$f2"
check "the idle flood was dropped" "yes" \
	"$(awk '{ if ($4 > 0) print "yes"; else print $0 }' "$tmp/idle.out")"

# ---- TLS and basic auth from an exporter-toolkit web config (issue 35.6):
# a throwaway certificate (openssl) and bcrypt hash (htpasswd) ----
for t in openssl htpasswd promtool prometheus; do
	command -v "$t" >/dev/null || { echo "serve: $t is missing (scripts/install-deps.sh)"; exit 1; }
done
w="$tmp/web"
mkdir "$w"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
	-keyout "$w/key.pem" -out "$w/cert.pem" -days 2 -subj /CN=127.0.0.1 \
	-addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1 || { echo "serve: openssl failed"; exit 1; }
hash=$(htpasswd -nbB -C 5 alice 's3cr3t pass' | cut -d: -f2)
{
	echo "# exporter-toolkit's format; files relative to this one"
	echo "tls_server_config:"
	echo "  cert_file: cert.pem"
	echo "  key_file: key.pem"
	echo "basic_auth_users:"
	echo "  alice: '$hash'"
} >"$w/web.yml"
start_serve "$tmp/tls.out" 0 web-config "$w/web.yml"
check "served over https" "https://127.0.0.1:$port/metrics" "$url"
c() { curl -s -o "$tmp/body" -w '%{http_code}' --max-time 10 --cacert "$w/cert.pem" "$@"; }
check "https, no credentials" "401" "$(c "$url")"
check "https, wrong password" "401" "$(c -u 'alice:s3cr3t' "$url")"
check "https, unknown user" "401" "$(c -u 'bob:s3cr3t pass' "$url")"
check "https, credentials" "200" "$(c -u 'alice:s3cr3t pass' "$url")"
check "the metrics" "0" "$(promtool check metrics <"$tmp/body" >/dev/null 2>&1; echo $?)"
check "again (the cached check)" "200" "$(c -u 'alice:s3cr3t pass' "$url")"
check "plain http to it" "000" "$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -u 'alice:s3cr3t pass' "http://127.0.0.1:$port/metrics")"
# a Prometheus server scrapes it with the CA and the password
pp=$(free_port) || { echo "serve: no free port"; exit 1; }
{
	echo "global:"
	echo "  scrape_interval: 1s"
	echo "scrape_configs:"
	echo "  - job_name: pccbench_tls"
	echo "    scheme: https"
	echo "    tls_config:"
	echo "      ca_file: $w/cert.pem"
	echo "    basic_auth:"
	echo "      username: alice"
	echo "      password: 's3cr3t pass'"
	echo "    static_configs:"
	echo "      - targets: ['127.0.0.1:$port']"
} >"$w/prom.yml"
prometheus --config.file="$w/prom.yml" --storage.tsdb.path="$w/tsdb" \
	--web.listen-address="127.0.0.1:$pp" >"$w/prom.log" 2>&1 &
pids="$pids $!"
q="http://127.0.0.1:$pp/api/v1/query?query=pccbench_build_info"
i=0
while ! curl -s --max-time 2 "$q" | grep -q '"job":"pccbench_tls"' && [ $i -lt 150 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "prometheus scrapes https with basic auth" "yes" \
	"$(curl -s --max-time 2 "$q" | grep -q '"job":"pccbench_tls"' && echo yes)"
[ $i -lt 150 ] || tail -3 "$w/prom.log"

# a bad web config: one line, exit 1, nothing served
printf 'tls_server_config:\n  cert_file: cert.pem\n' >"$w/b1.yml"
printf 'tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\n  client_ca_file: ca.pem\n' >"$w/b2.yml"
printf 'basic_auth_users:\n  alice: secret\n' >"$w/b3.yml"
printf 'basic_users:\n  alice: x\n' >"$w/b4.yml"
printf 'tls_server_config: [\n' >"$w/b5.yml"
printf 'tls_server_config:\n  cert_file: web.yml\n  key_file: key.pem\n' >"$w/b6.yml"
printf '# nothing\n' >"$w/b7.yml"
for b in b1 b2 b3 b4 b5 b6 b7 nonexistent; do
	"$BIN" serve metrics 0 web-config "$w/$b.yml" >"$tmp/out" 2>&1
	check "web config $b: one line, exit 1 ($(cat "$tmp/out"))" "1 1" "$? $(wc -l <"$tmp/out")"
done
check "the line named" "error: $w/b2.yml:4: pccbench does not support 'client_ca_file'" \
	"$("$BIN" serve metrics 0 web-config "$w/b2.yml" 2>&1)"
exit $fail
