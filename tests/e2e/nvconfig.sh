#!/bin/sh
# `dev nvconfig` (issue #24 item 7): a NIC's non-volatile RoCE congestion
# settings from `mstconfig -d DEV -e query` (tests/tools/fake-mstconfig
# prints what mstflint 4.21 prints) beside the PPCC slots running now (the
# fake mstreg's sim firmware), in text and JSON; read-only (no mstreg
# --set); each way mstconfig can fail is one line with exit 2, each misuse
# one line with exit 1.
. "$(dirname "$0")/lib.inc"
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
for t in fake-mstreg fake-mstconfig; do
	[ -x "$O/tests/$t" ] || { echo "nvconfig: $t not built"; exit 1; }
done
# "mstreg" logs its argv, then is the fake; "mstconfig" is the fake
cat >"$tmp/mstreg" <<EOF
#!/bin/sh
echo "\$*" >>"$tmp/mstreg.log"
exec "$O/tests/fake-mstreg" "\$@"
EOF
chmod +x "$tmp/mstreg"
ln -s "$O/tests/fake-mstconfig" "$tmp/mstconfig"
mkdir -p "$tmp/sys"
export PATH="$tmp:$PATH" PCCBENCH_SYSFS="$tmp/sys" FAKE_MSTREG_SIM=nv \
	FAKE_MSTCONFIG_ARGS="$tmp/mstconfig.log"
unset PCCBENCH_MSTCONFIG FAKE_MSTCONFIG_MODE FAKE_MSTCONFIG_DEVICE
nv() { "$BIN" -d pci/0000:08:00.0 --backend mstreg "$@"; }

out=$(nv dev nvconfig 2>&1); rc=$?
check "exit" 0 $rc
check "argv" "mstconfig -d 0000:08:00.0 -e query" "$(cat "$tmp/mstconfig.log")"
printf '%s\n' "$out" | grep -Eq '^ROCE_CC_LEGACY_DCQCN_P1 +True\(1\) +True\(1\) +False\(0\) +yes$' ||
	{ echo "nvconfig: pending row: $out"; fail=1; }
printf '%s\n' "$out" | grep -Eq '^MIN_TIME_BETWEEN_CNPS_P1 +4 +0 +0 +no$' ||
	{ echo "nvconfig: applied row: $out"; fail=1; }
printf '%s\n' "$out" | grep -q '^2 of 15 settings change at the next boot' ||
	{ echo "nvconfig: summary: $out"; fail=1; }
printf '%s\n' "$out" | grep -Eq '^running now \(PPCC\):$' ||
	{ echo "nvconfig: no running section: $out"; fail=1; }
check "CC settings only" 0 "$(printf '%s\n' "$out" | grep -c 'SRIOV_EN\|NUM_OF_VFS\|LINK_TYPE')"
check "all settings" 20 "$(nv -j dev nvconfig all | tr '{' '\n' | grep -c '"setting"')"

# JSON: running and next boot in one document; a slot enabled now shows
nv -y -c 'algo enable 2' >/dev/null 2>&1
js=$(nv -j dev nvconfig)
case "$js" in *'"running":['*'{"slot":2,'*'"enabled":true}'*'"nvconfig":['*) ;;
	*) echo "nvconfig: running slot 2: $js"; fail=1 ;; esac
case "$js" in *'{"setting":"ROCE_CC_LEGACY_DCQCN_P1","default":"True(1)","current":"True(1)","next_boot":"False(0)","pending":true}'*) ;;
	*) echo "nvconfig: json row: $js"; fail=1 ;; esac
check "json pending" 2 "$(printf '%s' "$js" | jget pending)"
# read-only: only the algo enable above wrote
check "mstreg sets" 1 "$(grep -c -- '--set' "$tmp/mstreg.log")"

# firmware that cannot read current values: what is pending is unknown
out=$(FAKE_MSTCONFIG_MODE=nocurrent nv dev nvconfig 2>&1); rc=$?
check "nocurrent exit" 0 $rc
printf '%s\n' "$out" | grep -Eq '^ROCE_CC_LEGACY_DCQCN_P1 +True\(1\) +- +False\(0\) +-$' ||
	{ echo "nvconfig: nocurrent row: $out"; fail=1; }
case "$out" in *"does not report its current values"*) ;;
	*) echo "nvconfig: nocurrent note: $out"; fail=1 ;; esac
case "$(FAKE_MSTCONFIG_MODE=nocurrent nv -j dev nvconfig)" in
	*'"pending":null}') ;; *) echo "nvconfig: nocurrent json"; fail=1 ;; esac

# failures: one line, exit EXIT, the message
fails() {	# fails NAME EXIT EXPECTED [ENV=VALUE...] -- [ARGS...]
	name=$1 want=$2 msg=$3
	shift 3
	out=$(env "$@" "$BIN" -d pci/0000:08:00.0 --backend mstreg \
		--timeout 500 dev nvconfig 2>&1); rc=$?
	check "$name exit" "$want" $rc
	check "$name lines" 1 "$(printf '%s\n' "$out" | wc -l)"
	case "$out" in "$msg"*) ;;
		*) echo "nvconfig: $name said: $out"; fail=1 ;; esac
}
fails garbage 2 "error: 0000:08:00.0: mstconfig query: unexpected line 20: '         ROCE_CC_LEGACY_DCQCN_P1" FAKE_MSTCONFIG_MODE=garbage
fails binary 2 "error: 0000:08:00.0: mstconfig query: no 'Configurations:' table" FAKE_MSTCONFIG_MODE=binary
fails notable 2 "error: 0000:08:00.0: mstconfig query: no 'Configurations:' table" FAKE_MSTCONFIG_MODE=notable
fails tlvfail 2 "error: 0000:08:00.0: mstconfig: Failed to query some of the TLVs: Failed to query the next values of the following TLVs: nv_roce_cc nv_pcc_conf" FAKE_MSTCONFIG_MODE=tlvfail
fails "other device" 2 "error: 0000:08:00.0: mstconfig: Failed to open the device" FAKE_MSTCONFIG_DEVICE=0000:09:00.0
fails crash 2 "error: 0000:08:00.0: mstconfig exited with 139" FAKE_MSTCONFIG_MODE=crash
t0=$(date +%s)
fails hang 2 "error: " FAKE_MSTCONFIG_MODE=hang
[ $(( $(date +%s) - t0 )) -lt 10 ] || { echo "nvconfig: hang not timed out"; fail=1; }
fails missing 2 "error: cannot run '$tmp/none'" PCCBENCH_MSTCONFIG="$tmp/none"
# misuse
out=$("$BIN" -d sim:nv dev nvconfig 2>&1); rc=$?
check "sim exit" 1 $rc
check "sim" "error: 'dev nvconfig': 'sim:nv' is simulated: no non-volatile settings (a NIC's come from mstconfig)" "$out"
out=$(nv dev nvconfig every 2>&1); rc=$?
check "bad word exit" 1 $rc
check "bad word" "error: 'dev nvconfig': unknown word 'every' (dev nvconfig [all])" "$out"
exit $fail
