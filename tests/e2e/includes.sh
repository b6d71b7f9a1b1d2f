#!/bin/sh
# The include graph of src/, reg/ and algos/ (each "x.h" resolved as the
# compiler does: beside the file, then -Ireg -Isrc -Isrc/core -Isrc/util
# -Ialgos): reg/ and algos/ never include the program; no cycle between
# folders (each folder is a layer); no cycle between modules (x.c + x.h).
# tsort finds the loops.
. "$(dirname "$0")/lib.inc"
cd "$top" || exit 1
edges() {
	find src reg algos -name '*.[ch]' | sort | while read -r f; do
		d=$(dirname "$f")
		sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r h; do
			for base in "$d" reg src src/core src/util algos; do
				if [ -f "$base/$h" ]; then
					echo "$f" "$base/$h"
					break
				fi
			done
		done
	done | sed 's|/\./|/|g'
}
edges >"$tmp/files"
[ -s "$tmp/files" ] || { echo "includes: no edges found"; exit 1; }
up=$(awk '$1 ~ /^(reg|algos)\// && $2 ~ /^src\// { print $1 " -> " $2 }' "$tmp/files")
check "reg/ and algos/ include nothing of src/" "" "$up"
# folders
awk '{ a = $1; b = $2; sub(/\/[^\/]*$/, "", a); sub(/\/[^\/]*$/, "", b);
	if (a != b) print a, b }' "$tmp/files" | sort -u >"$tmp/folders"
tsort "$tmp/folders" >/dev/null 2>"$tmp/floop"
check "no cycle between folders" "" "$(cat "$tmp/floop")"
# modules: x.c and x.h are one; dev_impl.h is the device's private half
awk '{ a = $1; b = $2; sub(/\.[ch]$/, "", a); sub(/\.[ch]$/, "", b);
	sub(/dev_impl$/, "device", a); sub(/dev_impl$/, "device", b);
	if (a != b) print a, b }' "$tmp/files" | sort -u >"$tmp/modules"
tsort "$tmp/modules" >/dev/null 2>"$tmp/mloop"
check "no cycle between modules" "" "$(cat "$tmp/mloop")"
# and the check can fail: a planted loop is found
printf 'src/a src/b\nsrc/b src/a\n' | tsort >/dev/null 2>&1 &&
	{ echo "includes: tsort does not see a loop"; fail=1; }
exit $fail
