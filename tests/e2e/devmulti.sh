#!/bin/sh
# Issue 36 item 5: several devices in one session, one timeline.  The
# session keeps what `dev open` opened (`dev list open`); sim:NAME/hN is
# host N's NIC of fabric NAME, sharing its fabric, clock and PPCC
# configuration (but params of its own, hostwrite.sh; enabling and
# disabling refused there, pointing to sim:NAME); `record ...
# devices A,B` records every device's columns as PREFIX.column on one
# clock; `plot` draws a panel per column with a line per device; `corr`
# takes columns of two devices.
. "$(dirname "$0")/lib.inc"
series="$XDG_DATA_HOME/pccbench/series"

# -- the session's open devices ----------------------------------------------
out=$(printf 'dev open sim:m/h16\ndev open sim:m/h0\ndev list open\n' |
	"$BIN" -d sim:m -x - 2>&1)
check "dev list open" "sim:m/h16: sim backend
sim:m/h0: sim backend
DEVICE     CURRENT  KIND  CLOCK  REGISTER
sim:m      -        sim   sim:m  sim:m
sim:m/h16  -        sim   sim:m  sim:m
sim:m/h0   *        sim   sim:m  sim:m" "$(printf '%s\n' "$out" | sed 's/  *$//')"
# opening one already open makes it current again, without a second copy
check "dev open again" '[{"device":"sim:m","current":null,"kind":"sim","clock":"sim:m","register":"sim:m"},{"device":"sim:m/h16","current":"*","kind":"sim","clock":"sim:m","register":"sim:m"}]' \
	"$(printf 'dev open sim:m/h16\ndev open sim:m\ndev open sim:m/h16\ndev list open\n' |
		"$BIN" -d sim:m -j -x - 2>/dev/null | tail -n 1)"
# a host the fabric does not have, or a bad name: one line, the current
# device stays
out=$("$BIN" -d sim:m -c 'dev open sim:m/h99' 2>&1); rc=$?
check "no such host" "1 error: sim:m/h99: the fabric of sim:m has hosts h0..h64 ('sim show')" "$rc $out"
out=$("$BIN" -d sim:m -c 'dev open sim:m/x1' 2>&1); rc=$?
check "bad host name" "1 error: 'sim:m/x1': a sim host is sim:NAME/hN (N: 0, 1, ... a host of the fabric, 'sim show')" "$rc $out"
out=$(printf 'dev open sim:m/h99\ndev list open\n' |
	"$BIN" -d sim:m -j --force -x - 2>/dev/null | tail -n 1)
check "failed open leaves the list" '[{"device":"sim:m","current":"*","kind":"sim","clock":"sim:m","register":"sim:m"}]' "$out"

# -- a host shares sim:NAME's slots: enable, disable go there (a param
# written through a host is that NIC's own: hostwrite.sh) -------------------
before=$("$BIN" -d sim:m algo list 2>&1)
out=$("$BIN" -d sim:m/h3 algo disable 0 2>&1); rc=$?
check "host slot write refused" "1 error: sim:m/h3 shares sim:m's slots: enable, disable and debug mode go through sim:m ('dev open sim:m'); a host takes params of its own" "$rc $out"
check "nothing written" "$before" "$("$BIN" -d sim:m algo list 2>&1)"
out=$("$BIN" -d sim:m/h3 --dry-run algo disable 0 2>&1); rc=$?
check "host dry run refused too" "1" "$rc"
# ... and it reads what sim:m has
"$BIN" -d sim:m param set ALPHA 0.25 >/dev/null 2>&1 || fail=1
check "host reads the shared register" "$("$BIN" -d sim:m param get ALPHA)" \
	"$("$BIN" -d sim:m/h3 param get ALPHA)"

# -- one timeline from two hosts of one fabric ---------------------------------
printf 'sim scenario incast senders 16\nalgo debug on\n' |
	"$BIN" -d sim:m -x - >/dev/null 2>&1 || fail=1
out=$("$BIN" -d sim:m -c 'record for 2ms every 200us into two devices sim:m/h0,sim:m/h16' 2>&1) || {
	echo "devmulti: record devices: $out"; fail=1; }
case "$out" in *"series two: 10 points x 51 columns"*) ;;
	*) echo "devmulti: record devices says: $out"; fail=1 ;; esac
hdr=$(head -n 1 "$series/two.csv" | tr -d '\r')
# one t, then each host's 25 columns named hN.column
check "one t column" 1 "$(printf '%s\n' "$hdr" | tr ',' '\n' | grep -c '^t ')"
check "h0 columns" 25 "$(printf '%s\n' "$hdr" | tr ',' '\n' | grep -c '^h0\.')"
check "h16 columns" 25 "$(printf '%s\n' "$hdr" | tr ',' '\n' | grep -c '^h16\.')"
case "$hdr" in "t (s),h0.avg_rtt (ns),"*",h16.avg_rtt (ns),"*",wall (ns)") ;;
	*) echo "devmulti: header: $hdr"; fail=1 ;; esac
# each side counts its own (incast senders 16: receiver h16, senders
# h0-h15): the receiver's NIC the ECN marks and CNPs sent, a sender's the
# RTT samples and CNPs handled; the other side none of those
colsum() {	# colsum COLUMN: the sum of its values over the rows (n/a: none)
	tr -d '\r' <"$series/two.csv" | awk -F, -v c="$1" '
		NR == 1 { for (i = 1; i <= NF; i++) { n = $i; sub(/ .*/, "", n)
			if (n == c) k = i } next }
		k && $k != "" { s += $k; v++ }
		END { if (!k) print "none"; else if (!v) print "n/a"; else print (s > 0 ? "+" : "0") }'
}
check "receiver: ECN marks" "+ + 0 0" \
	"$(colsum h16.ecn_marked) $(colsum h16.cnp_sent) $(colsum h16.cnp_handled) $(colsum h0.ecn_marked)"
check "sender: CNPs handled, RTT" "+ 0 + n/a" \
	"$(colsum h0.cnp_handled) $(colsum h0.cnp_sent) $(colsum h0.avg_rtt) $(colsum h16.avg_rtt)"
case "$("$BIN" -d sim:m/h16 dev show)" in *"role       receiver"*) ;;
	*) echo "devmulti: dev show: no role"; fail=1 ;; esac
# one clock: the same rows' t as a single host's record of the same run
"$BIN" -d sim:m -c 'record for 2ms every 200us into one devices sim:m/h0' \
	>/dev/null 2>&1 || fail=1
check "one clock: the same t" "$(cut -d, -f1 "$series/one.csv")" \
	"$(cut -d, -f1 "$series/two.csv")"
# ... and its columns are a single device's (no prefix)
case "$(head -n 1 "$series/one.csv")" in "t (s),avg_rtt (ns),"*) ;;
	*) echo "devmulti: one device named: $(head -n 1 "$series/one.csv")"; fail=1 ;; esac
check "devices in the metadata" '"devices":[{"device":"sim:m/h0","prefix":"h0"},{"device":"sim:m/h16","prefix":"h16"}]' \
	"$(grep -o '"devices":\[[^]]*\]' "$series/two.json")"

# -- refused: two clocks, a device twice; nothing written ---------------------
out=$("$BIN" -d sim:m -c 'record for 1ms every 100us into mix devices sim:m/h0,sim:other' 2>&1); rc=$?
check "two clocks refused" "1 error: record: sim:m/h0 runs on sim:m's clock, sim:other on sim:other's: record devices of one clock together (the hosts of one sim fabric, or NICs of this host)" "$rc $out"
[ -e "$series/mix.csv" ] && { echo "devmulti: a refused record wrote"; fail=1; }
out=$("$BIN" -d sim:m -c 'record for 1ms every 100us into mix devices sim:m/h0,sim:m/h0' 2>&1); rc=$?
check "twice refused" "1 error: record: sim:m/h0 given twice" "$rc $out"

# -- plot: a panel per column, a line per device ------------------------------
"$BIN" plot two avg_rtt cnp_handled to "$tmp/two.svg" >/dev/null 2>&1 || fail=1
gp="$series/two.overlay.gp"
check "plot: two lines" "nseries = 2" "$(grep '^nseries' "$gp")"
check "plot: named by device" "snames[1] = 'h0'
snames[2] = 'h16'" "$(grep '^snames\[' "$gp")"
check "plot: a panel per column" "names[1] = 'avg_rtt'
names[2] = 'cnp_handled'" "$(grep '^names\[' "$gp")"
grep -q '<svg' "$tmp/two.svg" || { echo "devmulti: no svg"; fail=1; }
# no columns named: each main column with data in any device, a panel
# each (avg_rtt from the sender, ecn_marked from the receiver, ...)
"$BIN" plot two to "$tmp/all.svg" >/dev/null 2>&1 || fail=1
check "plot: default panels" "names[1] = 'avg_rtt'
names[2] = 'cnp_handled'
names[3] = 'cnp_sent'
names[4] = 'ecn_marked'
names[5] = 'rx_gbps'
names[6] = 'pauses'" "$(grep '^names\[' "$gp")"
# a column named whole (h0.avg_rtt) is one panel of it, as before
"$BIN" plot two h0.avg_rtt to "$tmp/one.svg" >/dev/null 2>&1 || fail=1
check "plot: a whole name" "names[1] = 'h0.avg_rtt'" \
	"$(grep -h '^names\[' "$series/two.plot.gp")"

# -- corr across devices -------------------------------------------------------
out=$("$BIN" corr two h0.avg_rtt h16.ecn_marked 2>&1) || fail=1
case "$out" in "h0.avg_rtt ~ h16.ecn_marked over 10 points: pearson "*) ;;
	*) echo "devmulti: corr: $out"; fail=1 ;; esac
exit $fail
