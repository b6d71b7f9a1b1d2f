#!/bin/sh
# `profile export --as mstreg|mlxreg` writes a /bin/sh script (#31 item 1):
# no byte of a profile or a device name may leave its comment or its
# quoted word.  A profile whose strings hold a newline, ', ", $(), a
# backtick, \r or NUL is refused on load (one line, no script); a device
# name holding them all (one the load cannot check) is quoted so that sh
# -n reads the script, and sh runs only mstreg, with exactly the argv
# pccbench's backend would give it.
. "$(dirname "$0")/lib.inc"
O=${O:-build}
case "$O" in /*) ;; *) O="$top/$O" ;; esac
P="$XDG_DATA_HOME/pccbench/profiles"
PW="$tmp/pwned"

# put FILE OLD NEW: FILE with its first OLD (literal text) made NEW
put() {
	o_=$2 n_=$3 awk 'BEGIN { o = ENVIRON["o_"]; n = ENVIRON["n_"] }
		!d && (i = index($0, o)) {
			$0 = substr($0, 1, i - 1) n substr($0, i + length(o)); d = 1
		} { print }' "$1"
}

"$BIN" -d sim:pe profile save pe slot 0 >/dev/null
check "save rc" 0 $?
# each hostile string (as JSON text) in each string field of the file
i=0
for v in 'a\nb' "a'b" 'a\"b' "\$(touch $PW)" "\`touch $PW\`" 'a\rb' \
	'a\u0000b' "x\ntouch $PW #"; do
	for f in '"name":"pe"' '"algo":"ZTR_RTT"' '"name":"ALPHA"' \
		'"id":"sim:pe"' '"model":"simulated"'; do
		i=$((i + 1))
		new="${f%%:*}:\"$v\""
		put "$P/pe.json" "$f" "$new" >"$tmp/h$i.json"
		cmp -s "$P/pe.json" "$tmp/h$i.json" &&
			{ echo "profile_export: $f not replaced"; fail=1; }
		for as in mstreg mlxreg; do
			"$BIN" -d sim:pe profile export "$tmp/h$i.json" \
				--as $as >"$tmp/out" 2>"$tmp/err"
			rc=$?
			check "$new $as rc" 1 $rc
			check "$new $as script" "" "$(cat "$tmp/out")"
			check "$new $as one line" 1 "$(wc -l <"$tmp/err")"
			case $(cat "$tmp/err") in
			"error: $tmp/h$i.json: "*) ;;
			*) echo "profile_export: $new: $(cat "$tmp/err")"; fail=1 ;;
			esac
		done
	done
done
check "hostile profiles refused" 80 $((i * 2))
[ -e "$PW" ] && { echo "profile_export: a profile's text ran"; fail=1; }

# a device name holding every such byte, on the fake mstreg (pccbench's
# own backend); a name with '/' is given to mstreg as it is
D="$tmp/dev'\$(touch $PW)\`touch $PW\`
touch $PW #\"x$(printf '\r')y"
export FAKE_MSTREG_DEVICE="$D" FAKE_MSTREG_SIM=pe
M="--backend mstreg --mstreg $O/tests/fake-mstreg -y"
"$BIN" -d "$D" $M profile save dev slot 0 >/dev/null
check "device save rc" 0 $?
grep -q '"enabled":true,"counters":false' "$P/dev.json" ||
	{ echo "profile_export: slot 0 is not enabled without counters"; fail=1; }
mkdir "$tmp/bin"
cat >"$tmp/bin/mstreg" <<EOF
#!/bin/sh
# logs its argv, a word a line (a newline inside one shows as two)
{ printf 'argc %s\n' \$#; for a; do printf '[%s]\n' "\$a"; done; } >>'$tmp/argv'
EOF
chmod +x "$tmp/bin/mstreg"
# what the script must run: a write per read-write param but BW_G (set
# from the link speed by the firmware: written only when named), then
# "enable"
want() {
	ind=local_port=1,pnat=0,lp_msb=0,algo_slot=0
	set=sl_bitmask=65535,counter_en=0,trace_en=0
	awk '/"access":"rw"/ && !/"name":"BW_G"/ {
		match($0, /"index":[0-9]+/); i = substr($0, RSTART + 8, RLENGTH - 8)
		match($0, /"raw":[0-9]+/); r = substr($0, RSTART + 6, RLENGTH - 6)
		print i, r }' "$P/dev.json" >"$tmp/rw"
	while read -r idx raw; do
		printf 'argc 11\n'
		printf '[%s]\n' -d "$D" --reg_name PPCC \
			--indexes "$ind,algo_param_index=$idx" --op cmd_type=8 \
			--set "value=$raw,$set" --yes
	done <"$tmp/rw"
	printf 'argc 11\n'
	printf '[%s]\n' -d "$D" --reg_name PPCC \
		--indexes "$ind,algo_param_index=0" --op cmd_type=1 \
		--set "value=0,$set" --yes
}
want >"$tmp/want"
check "params" 15 "$(wc -l <"$tmp/rw")"
"$BIN" -d "$D" $M profile export dev --as mstreg >"$tmp/dev.sh"
check "export rc" 0 $?
sh -n "$tmp/dev.sh"
check "sh -n" 0 $?
check "comment lines" 2 "$(grep -c '^#' "$tmp/dev.sh")"
(cd "$tmp" && PATH="$tmp/bin:$PATH" sh "$tmp/dev.sh") >"$tmp/ran" 2>&1
check "script rc" 0 $?
check "script said" "" "$(cat "$tmp/ran")"
check "runs" 16 "$(grep -c '^argc ' "$tmp/argv")"
cmp -s "$tmp/want" "$tmp/argv" ||
	{ echo "profile_export: argv differ:"; diff "$tmp/want" "$tmp/argv" | head; fail=1; }
[ -e "$PW" ] && { echo "profile_export: the device name ran"; fail=1; }
# mlxreg: the same words after its own name
: >"$tmp/argv"
"$BIN" -d "$D" $M profile export dev --as mlxreg >"$tmp/mlx.sh"
check "mlxreg rc" 0 $?
sh -n "$tmp/mlx.sh"
check "mlxreg sh -n" 0 $?
ln -s mstreg "$tmp/bin/mlxreg"
(cd "$tmp" && PATH="$tmp/bin:$PATH" sh "$tmp/mlx.sh") >/dev/null 2>&1
check "mlxreg script rc" 0 $?
cmp -s "$tmp/want" "$tmp/argv" ||
	{ echo "profile_export: mlxreg argv differ"; fail=1; }
[ -e "$PW" ] && { echo "profile_export: the device name ran (mlxreg)"; fail=1; }
exit $fail
