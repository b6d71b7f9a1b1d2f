#!/bin/sh
# The call graph of src/, reg/ and algos/, from the objects the build made
# ($O, build/ by default): module A calls module B when A's object needs
# a symbol B's object defines (nm: global text, data, bss, read-only).
# An include graph misses what a call graph sees: two files that call
# each other through one shared header.  tsort finds the loops:
# - no call cycle between folders (the layers of ARCHITECTURE.md);
# - no call cycle between the modules (x.c) of one folder, in any folder
#   (issue 36 cut the last, src/core's device <-> open <-> session).
. "$(dirname "$0")/lib.inc"
cd "$top" || exit 1
O=${O:-build}
objs=$(find "$O/src" "$O/reg" "$O/algos" -name '*.o' 2>/dev/null | sort)
[ -n "$objs" ] || { echo "calls: no objects under $O/ (build first)"; exit 1; }
for o in $objs; do
	m=${o#"$O"/}
	m=${m%.o}
	[ -f "$m.c" ] || continue	# a stale object of a removed source
	nm "$o" | awk -v m="$m" '
		NF == 3 && $2 ~ /^[TDBRCVW]$/ { print "D", m, $3 }
		NF == 2 && $1 == "U" { print "U", m, $2 }'
done >"$tmp/syms"
# "A B": module A calls module B (B defines a symbol A needs)
awk '$1 == "D" { def[$3] = $2; next }
	{ use[$2 " " $3] = 1 }
	END { for (u in use) { split(u, a, " ")
		if ((a[2] in def) && def[a[2]] != a[1]) print a[1], def[a[2]] } }' \
	"$tmp/syms" | sort -u >"$tmp/calls"
[ -s "$tmp/calls" ] || { echo "calls: no calls found"; exit 1; }
awk '{ a = $1; b = $2; sub(/\/[^\/]*$/, "", a); sub(/\/[^\/]*$/, "", b)
	if (a != b) print a, b }' "$tmp/calls" | sort -u >"$tmp/folders"
tsort "$tmp/folders" >/dev/null 2>"$tmp/floop"
check "no call cycle between folders" "" "$(cat "$tmp/floop")"
awk '{ a = $1; b = $2; sub(/\/[^\/]*$/, "", a); sub(/\/[^\/]*$/, "", b)
	if (a == b) print $1, $2 }' \
	"$tmp/calls" >"$tmp/modules"
tsort "$tmp/modules" >/dev/null 2>"$tmp/mloop"
check "no call cycle between modules of a folder" "" "$(cat "$tmp/mloop")"
# and the check can fail: a planted loop is found
printf 'src/sim/a src/sim/b\nsrc/sim/b src/sim/a\n' | tsort >/dev/null 2>&1 &&
	{ echo "calls: tsort does not see a loop"; fail=1; }
exit $fail
