#!/bin/sh
# Hardening: nothing read from a file or typed as a name runs in gnuplot;
# links and special files planted where pccbench keeps its files are never
# followed or waited on; damaged files are refused with one line naming
# them; concurrent writers lose nothing.
. "$(dirname "$0")/lib.inc"
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" \
	XDG_CACHE_HOME="$tmp/cache"
unset PCCBENCH_HISTORY
sdir="$tmp/state/pccbench/sim"
series="$tmp/data/pccbench/series"
cd "$tmp" || exit 1

# ---- 1. no code from data in gnuplot ----
"$BIN" -d sim:h -y -c 'algo debug on; sim scenario incast senders 4; record for 2ms every 200us into good' >/dev/null
check "record exit" 0 $?
marker="$tmp/pwned"
# a series whose header carries gnuplot code: refused at load, nothing runs
{
	printf "t (s),q';system('touch %s')#,avg_rtt (ns)\r\n" "$marker"
	printf '0.001,1,2\r\n0.002,3,4\r\n'
} >"$series/evil.csv"
out=$("$BIN" plot evil to "$tmp/e.png" 2>&1); rc=$?
check "evil header exit" 1 $rc
case "$out" in *"$series/evil.csv"*"column name"*) ;;
	*) echo "hardening: evil header: $out"; fail=1 ;; esac
printf "t (s),x (s');system('touch %s\r\n0.001,1\r\n" "$marker" >"$series/evil2.csv"
"$BIN" plot evil2 >/dev/null 2>&1
check "evil unit exit" 1 $?
# titles, file names and series names with quotes and backquotes
for t in "x';system('touch $marker')#" "\`touch $marker\`" "@x \$(touch $marker)"; do
	"$BIN" plot good avg_rtt title "$t" to "$tmp/t.svg" >/dev/null 2>&1
	check "title exit" 0 $?
	grep -qF "touch $marker" "$tmp/t.svg" || { echo "hardening: title lost: $t"; fail=1; }
done
mkdir -p "$tmp/o'd"
# (run in $tmp: 'touch pwned' would make $marker)
"$BIN" plot good avg_rtt to "$tmp/o'd/x';system('touch pwned')#.png" >/dev/null 2>&1
check "quoted file name exit" 0 $?
[ -s "$tmp/o'd/x';system('touch pwned')#.png" ] || { echo "hardening: quoted png missing"; fail=1; }
"$BIN" plot "a';system('touch $marker')#" >/dev/null 2>&1
check "bad series name exit" 1 $?
[ -e "$marker" ] && { echo "hardening: gnuplot ran code from data"; fail=1; }

# ---- 3. links and special files are not followed or waited on ----
victim="$tmp/victim"
printf 'precious\n' >"$victim"
# planted links at files pccbench writes whole: replaced, never written through
for f in good.csv good.json good.plot.dat good.plot.gp; do
	rm -f "$series/$f"
	ln -s "$victim" "$series/$f"
done
"$BIN" -d sim:h -c 'record for 1ms every 200us into good replace' >/dev/null 2>&1
"$BIN" plot good avg_rtt to "$tmp/g.png" >/dev/null 2>&1
check "victim after writes" "precious" "$(cat "$victim")"
for f in good.plot.dat good.plot.gp; do
	[ -L "$series/$f" ] && { echo "hardening: $f still a link"; fail=1; }
done
# a journal link: refused, the target untouched
jdir="$tmp/state/pccbench/journal"
"$BIN" -d sim:j -c 'param set ALPHA 0.2' >/dev/null
rm -f "$jdir/sim_j.log"
ln -s "$victim" "$jdir/sim_j.log"
out=$("$BIN" -d sim:j -c 'param set ALPHA 0.3' 2>&1); rc=$?
check "journal link exit" 1 $rc
case "$out" in *"sim_j.log"*"symbolic link"*) ;; *) echo "hardening: journal link: $out"; fail=1 ;; esac
"$BIN" -d sim:j -c 'journal restore' >/dev/null 2>&1
check "victim after journal" "precious" "$(cat "$victim")"
rm -f "$jdir/sim_j.log"
# dangling links for the telemetry state: no file created outside
rm -f "$sdir/k.retx" "$sdir/k.diag"
ln -s "$tmp/outside.retx" "$sdir/k.retx"
ln -s "$tmp/outside.diag" "$sdir/k.diag"
"$BIN" -d sim:k -c 'retx start' >/dev/null 2>&1
check "dangling retx exit" 1 $?
[ -e "$tmp/outside.retx" ] || [ -e "$tmp/outside.diag" ] &&
	{ echo "hardening: a dangling link created a file outside"; fail=1; }
rm -f "$sdir/k.retx" "$sdir/k.diag"
# FIFOs in place of the scenario, the journal, a series, the param cache:
# one line and exit 1, never a hang
mkfifo "$sdir/f.scenario"
out=$(timeout 20 "$BIN" -d sim:f -c 'sim show' 2>&1); rc=$?
check "fifo scenario exit" 1 $rc
case "$out" in *"f.scenario' is not a regular file"*) ;; *) echo "hardening: fifo scenario: $out"; fail=1 ;; esac
rm -f "$sdir/f.scenario"
rm -f "$jdir/sim_f.log"
mkfifo "$jdir/sim_f.log"
timeout 20 "$BIN" -d sim:f -c 'param get ALPHA' >/dev/null 2>&1
check "fifo journal exit" 1 $?
rm -f "$jdir/sim_f.log"
mkfifo "$series/fifo.csv"
timeout 20 "$BIN" plot fifo >/dev/null 2>&1
check "fifo series exit" 1 $?
rm -f "$series/fifo.csv"
# (the param cache of real NICs: tests/e2e/mstreg.sh)
# the history file: a link is refused (history off), the target untouched
ln -s "$victim" "$tmp/hist"
PCCBENCH_HISTORY="$tmp/hist" "$BIN" -d sim:j </dev/null >/dev/null 2>&1
check "victim after history" "precious" "$(cat "$victim")"
# modes: state 0600, directories 0700
check "dev mode" "600" "$(stat -c %a "$sdir/h.dev")"
check "journal mode" "600" "$(stat -c %a "$jdir/sim_h.log" 2>/dev/null || echo none)"
check "sim dir mode" "700" "$(stat -c %a "$sdir")"

# ---- 6. damaged files: one line naming the file, exit 1, no default ----
"$BIN" -d sim:c -c 'sim scenario incast senders 4' >/dev/null
: >"$sdir/c.scenario"
out=$("$BIN" -d sim:c -c 'sim show' 2>&1); rc=$?
check "empty scenario exit" 1 $rc
case "$out" in *"c.scenario"*) ;; *) echo "hardening: empty scenario: $out"; fail=1 ;; esac
head -c 300 /dev/zero >"$sdir/c.scenario"
"$BIN" -d sim:c -c 'sim show' >/dev/null 2>&1
check "zeroed scenario exit" 1 $?
rm -f "$sdir/c.scenario"
# one bit flip in a param of the device file (ALPHA 0.1 -> 0.6)
"$BIN" -d sim:b -c 'param get ALPHA' >/dev/null
printf '\231' | dd of="$sdir/b.dev" bs=1 seek=101 conv=notrunc 2>/dev/null
out=$("$BIN" -d sim:b -c 'param get ALPHA' 2>&1); rc=$?
check "flipped dev exit" 1 $rc
case "$out" in *"b.dev': checksum mismatch"*) ;; *) echo "hardening: flipped dev: $out"; fail=1 ;; esac
# a .diag whose sample period is 1 ns would make 'sim run 3ms' take 20 s
"$BIN" -d sim:d -c 'diag config period 100us; diag ids port_0_rx_bytes; diag start' >/dev/null 2>&1
printf '\001\000\000\000\000\000\000\000' |
	dd of="$sdir/d.diag" bs=1 seek=$(( 8 + 4 + 4 + 4 + 4 + 40 )) conv=notrunc 2>/dev/null
out=$(timeout 20 "$BIN" -d sim:d -c 'sim run 3ms' 2>&1); rc=$?
check "damaged diag exit" 1 $rc
case "$out" in *"d.diag"*) ;; *) echo "hardening: damaged diag: $out"; fail=1 ;; esac
# an empty series, a directory in its place
: >"$series/empty.csv"
"$BIN" plot empty >/dev/null 2>&1
check "empty series exit" 1 $?
mkdir "$series/dir.csv"
"$BIN" plot dir >/dev/null 2>&1
check "directory series exit" 1 $?

# ---- no file outside our directories, whatever is planted there ----
# a whole workflow once, then every data and cache file it made replaced
# by a link (to a file outside, or dangling into a directory outside; the
# state files' links are refused above, which stops each command before
# it writes anything), then the workflow again: the targets stay as they
# were, nothing appears outside
workflow() {
	for c in 'algo debug on' 'param set ALPHA 0.2' \
		'sim scenario incast senders 4 pfc off buffer 256KB' \
		'retx config bins 4 bin0 50 bin1 50 unit usec' 'retx start' \
		'record for 2ms every 200us into w replace' \
		"plot w avg_rtt to $tmp/out/w.png" 'plot w hist' \
		"series export w $tmp/out/w.csv" \
		"diag ids apply port_0_rx_bytes; diag start; sim run 1ms; diag export $tmp/out/d.csv" \
		"sim run 1ms trace $tmp/out/t.csv" 'journal show' \
		'sweep ALPHA 0.1,0.2 for 1ms into sw' "sweep plot sw to $tmp/out/s.png" \
		'journal restore'; do
		PCCBENCH_HISTORY="$tmp/state/pccbench/history" \
			timeout 60 "$BIN" -d sim:wf -y -c "$c" >/dev/null 2>&1
	done
	PCCBENCH_HISTORY="$tmp/state/pccbench/history" \
		timeout 60 "$BIN" -d sim:wf </dev/null >/dev/null 2>&1
}
mkdir -p "$tmp/out" "$tmp/victims" "$tmp/outside"
workflow
n=0
for f in $(find "$tmp/data" "$tmp/cache" -type f); do
	n=$((n + 1))
	rm -f "$f"
	if [ $((n % 2)) -eq 0 ]; then
		printf 'victim %d\n' $n >"$tmp/victims/$n"
		ln -s "$tmp/victims/$n" "$f"
	else
		ln -s "$tmp/outside/$n" "$f"
	fi
done
[ $n -ge 10 ] || { echo "hardening: only $n files planted"; fail=1; }
workflow
changed=0
for v in "$tmp"/victims/*; do
	[ "$(cat "$v")" = "victim $(basename "$v")" ] || changed=$((changed + 1))
done
check "victims written through" 0 "$changed"
check "files made outside" "" "$(ls "$tmp/outside")"

exit $fail
