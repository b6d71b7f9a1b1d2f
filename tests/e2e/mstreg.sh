#!/bin/sh
# Real-NIC path through mstreg: every PPCC command of the foundation gives
# the same answers through Debian's real mstreg 4.21 on an emulated
# ConnectX-7 (tests/mstreg-emu: its config-space gateway, the sim firmware
# behind it) as through the in-process sim transport; the real mstreg's
# own errors come through; every backend failure is one line and exit 2;
# confirmations, --read-only, the dry run and the cache.  Where the real
# tool cannot run (not root, no mstflint, no mount namespace), the same
# checks run on tests/fake-mstreg and the skip is said on stderr.
. "$(dirname "$0")/lib.inc"
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
. "$top/tests/mstreg-emu/emu.inc"
FAKE="$O/tests/fake-mstreg"
[ -x "$FAKE" ] || { echo "mstreg: $FAKE not built"; exit 1; }
DEV=$EMU_DEV
if emu_setup ref; then
	MST=$EMU_MSTREG
elif [ -n "${EMU_BROKEN:-}" ]; then
	echo "mstreg: $EMU_SKIP"; exit 1
else
	echo "mstreg: SKIP the real mstreg: $EMU_SKIP; checking on" \
		"tests/fake-mstreg instead" >&2
	MST=$FAKE EMU_RUNS=$tmp/runs
fi
# which sim device each mstreg reaches, and a line per run
export PCCB_EMU_SIM=ref FAKE_MSTREG_SIM=ref FAKE_MSTREG_COUNT=$EMU_RUNS
M="-d $DEV --backend mstreg --mstreg $MST"

cat >"$tmp/cmds.pcb" <<'PCB'
algo list
param list
param set ALPHA 0.3 MAX_DELAY 100us AI 20
param get ALPHA MAX_DELAY AI
param list 3
param set slot 3 MIN_RATE 0.5
algo debug on
algo list
counter show
counter clear
param set ALPHA 2
param reset all
algo debug off
journal restore
algo list
param list
algo enable 2 sl 3,5-7
algo disable 0 sl 3
algo list
algo enable 0 sl 3
algo disable 2
algo list
PCB
XDG_STATE_HOME=$tmp/a XDG_CACHE_HOME=$tmp/a \
	"$BIN" -d sim:ref -j -y --force -x "$tmp/cmds.pcb" >"$tmp/sim.out" 2>&1
XDG_STATE_HOME=$tmp/b XDG_CACHE_HOME=$tmp/b \
	"$BIN" $M -j -y --force -x "$tmp/cmds.pcb" >"$tmp/mst.out" 2>&1
# the device's name is the one difference a script's closing note has
sed -i 's/ writes to [^;]*;/ writes to DEV;/' "$tmp/sim.out" "$tmp/mst.out"
if ! diff -u "$tmp/sim.out" "$tmp/mst.out" >"$tmp/diff"; then
	echo "mstreg: answers differ from the sim transport:"; cat "$tmp/diff"
	fail=1
fi
grep -q '"code":"RANGE"' "$tmp/mst.out" ||
	{ echo "mstreg: out-of-range refusal missing"; fail=1; }
# issue #24 item 2: the SLs each slot runs on, as the NIC behind the real
# mstreg reports them, after the sl writes of the script
check "per-SL state" '"name":"ZTR_RTT","enabled":true,"sls":"0-2,4-15" "name":"DCQCN","enabled":true,"sls":"3,5-7"' \
	"$(grep -o '"name":"\(ZTR_RTT\|DCQCN\)","enabled":[a-z]*,"sls":"[^"]*"' "$tmp/mst.out" | tr '\n' ' ' | sed 's/ $//')"
check "all SLs again: no SLS column" 0 \
	"$(tail -n 4 "$tmp/mst.out" | grep -c '"sls"')"

# issue #24 item 1: the register each write puts on the NIC through the
# real mstreg (its read-modify-write included) is the one fwctl sends:
# both are checked against tests/mstreg-emu/writes.txt (fwctl in
# tests/test_fwctl.c).  Read-only fields differ: mstreg keeps what its
# read returned (sl_bitmask_support=1), fwctl sends zeros.
if [ "$MST" = "${EMU_MSTREG:-}" ]; then
	export XDG_STATE_HOME=$tmp/w XDG_CACHE_HOME=$tmp/w PCCB_EMU_SIM=w
	while IFS='|' read -r op cmd want; do
		case "$op" in ""|"#"*) continue ;; esac
		: >"$EMU_LOG"
		"$BIN" $M -y -c "$cmd" >"$tmp/w.out" 2>&1 ||
			{ echo "mstreg: '$cmd' failed:"; cat "$tmp/w.out"; fail=1; }
		key=$(echo "$want" | cut -d' ' -f1-2)
		got=$("$O/tests/ppcc-fields" <"$EMU_LOG" | grep "^$key " | tail -n 1)
		check "bytes of '$op'" "$want" "${got%% | RO*}"
		case "$want" in SET*)
			check "read-only fields of '$op'" "sl_bitmask_support=1" \
				"${got#* | RO }" ;;
		esac
	done <"$top/tests/mstreg-emu/writes.txt"
fi

export XDG_STATE_HOME=$tmp/c XDG_CACHE_HOME=$tmp/c PCCB_EMU_SIM=c \
	FAKE_MSTREG_SIM=c
# the real Debian mstreg on a machine without the device
if command -v mstreg >/dev/null; then
	out=$("$BIN" -d $DEV --backend mstreg -c 'algo list' 2>&1); rc=$?
	check "real mstreg exit" 2 $rc
	case "$out" in *"mstreg: Failed to open device: \"$DEV\""*) ;;
		*) echo "mstreg: real mstreg said: $out"; fail=1 ;; esac
fi
# backend failures: one line, exit 2
one_line() {	# one_line NAME EXPECTED-SUBSTRING ARGS...
	name=$1 want=$2
	shift 2
	out=$("$BIN" "$@" 2>&1); rc=$?
	check "$name exit" 2 $rc
	check "$name lines" 1 "$(printf '%s\n' "$out" | wc -l)"
	case "$out" in *"$want"*) ;;
		*) echo "mstreg: $name said: $out"; fail=1 ;; esac
}
one_line "missing binary" "cannot run '/nonexistent/mstreg'" \
	-d $DEV --mstreg /nonexistent/mstreg -c 'algo list'
printf '#!/bin/sh\nsleep 30\n' >"$tmp/hang"
printf '#!/bin/sh\necho hello; echo world\n' >"$tmp/garbage"
printf '#!/bin/sh\necho "-E- Device is not supported" >&2; exit 1\n' >"$tmp/refuse"
chmod +x "$tmp/hang" "$tmp/garbage" "$tmp/refuse"
t0=$(date +%s)
one_line "timeout" "did not answer within 300 ms" \
	-d $DEV --mstreg "$tmp/hang" --timeout 300 -c 'algo list'
[ $(( $(date +%s) - t0 )) -le 3 ] || { echo "mstreg: timeout too slow"; fail=1; }
one_line "garbage" "its output is in " -d $DEV --mstreg "$tmp/garbage" -c 'algo list'
saved=$("$BIN" -d $DEV --mstreg "$tmp/garbage" -c 'algo list' 2>&1 | sed 's/.*its output is in //')
grep -q "hello" "$saved" || { echo "mstreg: raw output not saved"; fail=1; }
one_line "device error" "mstreg: Device is not supported" \
	-d $DEV --mstreg "$tmp/refuse" -c 'algo list'
one_line "firmware status" "Failed to send access register: Resource unavailable" \
	$M -c 'counter show 1'
# confirmation and --read-only: refused, nothing written
"$BIN" $M -c 'param set ALPHA 0.5' 2>"$tmp/e"; rc=$?
check "unconfirmed exit" 1 $rc
grep -q "needs confirmation" "$tmp/e" || { echo "mstreg: no confirmation text"; fail=1; }
"$BIN" $M --read-only -y -c 'algo debug on' 2>/dev/null
check "read-only exit" 1 $?
check "nothing written" 6553 \
	"$("$BIN" $M -j -c 'param get ALPHA' | sed 's/.*"raw":\([0-9]*\).*/\1/')"
# dry run: the argv the backend runs (the configured program, every
# read-write field), no SET run
out=$("$BIN" $M -n -c 'param set ALPHA 0.2')
check "dry run" "$MST -d $DEV --reg_name PPCC --indexes local_port=1,pnat=0,lp_msb=0,algo_slot=0,algo_param_index=1 --op cmd_type=8 --set value=13107,sl_bitmask=65535,counter_en=0,trace_en=0 --yes" "$out"
# the cache: param list costs at most 3 runs once info is cached
"$BIN" $M -c 'param list' >/dev/null
: >"$EMU_RUNS"
"$BIN" $M -c 'param list' >/dev/null
runs=$(wc -l <"$EMU_RUNS")
[ "$runs" -le 3 ] || { echo "mstreg: param list took $runs runs"; fail=1; }
# a damaged cache (a flipped digit) or a FIFO in its place: read from the
# device instead, with one warning naming the file; never a hang
cache=$(ls "$XDG_CACHE_HOME"/pccbench/info/*-s0-*.txt | head -n 1)
sed -i '5s/^6553/6554/' "$cache"
out=$(timeout 60 "$BIN" $M -c 'param list' 2>&1 >/dev/null); rc=$?
check "damaged cache exit" 0 $rc
check "damaged cache warning" "warning: param cache '$cache' is damaged; reading the device instead" "$out"
rm -f "$cache"
mkfifo "$cache"
out=$(timeout 60 "$BIN" $M -c 'param list' 2>&1 >/dev/null); rc=$?
check "fifo cache exit" 0 $rc
check "fifo cache warning" "warning: '$cache' is not a regular file; reading the device instead" "$out"
exit $fail
