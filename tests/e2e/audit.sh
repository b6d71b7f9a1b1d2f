#!/bin/sh
# The audit trail (issue 35.7): every register write is also a syslog
# record (LOG_AUTHPRIV) naming who (uid, user, host, pid), when (with the
# UTC offset) and what (device, slot, param or algorithm, old -> new,
# result, the journal's seq); the journal's process records name the user
# and host too.  syslog(3) sends to /dev/log: the test gives it a socket
# of its own there, in a mount namespace of its own (tests/tools/log-sink).
. "$(dirname "$0")/lib.inc"
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
SINK="$O/tests/log-sink"

if ! unshare -m true 2>/dev/null; then
	echo "audit: cannot make a mount namespace; the syslog records are not tested"
	# the journal's part needs none
	"$BIN" -d sim:audit -c 'param set ALPHA 0.2' >/dev/null || fail=1
else
	unshare -m sh -c '
		mount -t tmpfs -o mode=755 none /dev || exit 3
		mknod -m 666 /dev/null c 1 3 || exit 3
		"$1" /dev/log "$3/syslog" "$3/ready" 60 "$3/stop" &
		i=0
		while [ ! -e "$3/ready" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
		"$2" -d sim:audit -c "param set ALPHA 0.2; algo debug on" >/dev/null
		rc=$?
		touch "$3/stop"
		wait
		exit $rc
		' sh "$SINK" "$BIN" "$tmp"
	check "writes in the namespace" "0" "$?"
	user=$(id -un)
	host=$(hostname)
	# <85>: facility authpriv (10), notice (5); `param set` writes ALPHA
	# in slots 0 and 1, debug mode disables slot 0 and enables slot 1
	re="^<85>[A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]* pccbench\\[[0-9]*\\]: register write device=sim:audit port=1"
	who="uid=$(id -u) user=$(id -un) host=$(hostname) pid=[0-9]* time=[0-9-]*T[0-9:]*[+-][0-9]\\{4\\}"
	check "the param writes" "2" "$(grep -c "$re slot=[01] param=ALPHA old=0.1 new=0.2 raw=0x00001999->0x00003333 result=ok $who journal_seq=[12]\$" "$tmp/syslog")"
	check "the algorithm writes" "2" "$(grep -c -e "$re slot=0 algo=ZTR_RTT enabled=1->0 counter_en=0->0 result=ok $who journal_seq=3\$" \
		-e "$re slot=1 algo=ZTR_RTT_DEBUG enabled=0->1 counter_en=0->1 result=ok $who journal_seq=4\$" "$tmp/syslog")"
	check "nothing else" "4" "$(grep -c '' "$tmp/syslog")"
fi
# the journal: the process record names the user and host
j="$XDG_STATE_HOME/pccbench/journal/sim_audit.log"
check "journal S record" "1" "$(grep -c "^S [0-9]* uid=$(id -u) user=$(id -un) host=$(hostname) crc=" "$j")"
# an older journal (S records without who) still reads clean, and
# restores; a damaged who is a damaged record
crc() { printf '%s' "$1" | gzip -c | tail -c8 | head -c4 | od -An -tx4 | tr -d ' '; }
"$BIN" -d sim:old -c 'param set ALPHA 0.3' >/dev/null || fail=1
jo="$XDG_STATE_HOME/pccbench/journal/sim_old.log"
while IFS= read -r l; do
	case "$l" in
	"S "*) r=$(echo "$l" | cut -d' ' -f1-2); printf '%s crc=%s\n' "$r" "$(crc "$r")" ;;
	*) printf '%s\n' "$l" ;;
	esac
done <"$jo" >"$tmp/old.log"
cat "$tmp/old.log" >"$jo"
check "old journal: S without who" "1" "$(grep -c '^S [0-9]* crc=' "$jo")"
out=$("$BIN" -d sim:old journal show 2>&1)
case "$out" in *damaged*) echo "audit: old journal: $out"; fail=1 ;; esac
"$BIN" -d sim:old -y -c 'journal restore' >/dev/null 2>&1
check "old journal restores" "6553" "$("$BIN" -d sim:old -j param get ALPHA | jget raw)"
"$BIN" -d sim:bad -c 'param set ALPHA 0.3' >/dev/null || fail=1
r="S 4242 uid=0 user=root"
printf '%s crc=%s\n' "$r" "$(crc "$r")" >>"$XDG_STATE_HOME/pccbench/journal/sim_bad.log"
out=$("$BIN" -d sim:bad journal show 2>&1)
case "$out" in *"1 damaged record"*) ;; *) echo "audit: a half who: $out"; fail=1 ;; esac
exit $fail
