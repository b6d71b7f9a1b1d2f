#!/bin/sh
# A bulk get answered short (fewer values than the slot has params) is an
# error wherever a slot's values are read at once: `param list`, `param
# diff`, `algo copy`, `profile save` and `profile export`, a run record,
# the metrics page.  Read short, each had taken the missing params for
# absent: a profile saved with 2 of 12 params, applied later, would leave
# the other 10 as the device then had them.  The fake mstreg cuts a bulk
# get's reply (FAKE_MSTREG_SHORT_BULK=N); nothing is written.
. "$(dirname "$0")/lib.inc"
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
FAKE="$O/tests/fake-mstreg"
[ -x "$FAKE" ] || { echo "short_bulk: $FAKE not built"; exit 1; }
P="$XDG_DATA_HOME/pccbench/profiles"
M="-d 0000:08:00.0 --backend mstreg --mstreg $FAKE"
export FAKE_MSTREG_SIM=sb

n=$("$BIN" $M param list | grep -c '^ *[0-9]')
[ "$n" -gt 2 ] || check "param list: more than 2 params" yes "$n"
"$BIN" $M profile save full >/dev/null
check "profile save full" 0 $?
export FAKE_MSTREG_SHORT_BULK=2
want="bulk get on slot 0 returned 2 of $n params"
for c in "param list" "param diff defaults" "profile save short" \
	 "profile diff full device" "profile apply full --check"; do
	out=$("$BIN" $M $c 2>&1)
	rc=$?
	check "$c: fails" 1 "$((rc != 0))"
	check "$c: one line" 1 "$(printf '%s\n' "$out" | wc -l)"
	case "$out" in *"$want"*) ;; *) check "$c: says" "$want" "$out" ;; esac
done
check "profile save short wrote no file" no \
	"$([ -e "$P/short.json" ] && echo yes || echo no)"
j0=$("$BIN" $M -j journal show | grep -o '"seq":' | wc -l)
"$BIN" $M -y algo copy 0 1 >/dev/null 2>&1
check "algo copy: fails" 1 "$(($? != 0))"
check "algo copy wrote nothing" "$j0" \
	"$("$BIN" $M -j journal show | grep -o '"seq":' | wc -l)"
unset FAKE_MSTREG_SHORT_BULK
"$BIN" $M param list >/dev/null
check "param list, the reply whole again" 0 $?
exit $fail
