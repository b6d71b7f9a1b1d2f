#!/bin/sh
# The Debian package (issue 35.8): `make deb` (nocheck here: this test
# runs inside `make check`) builds in parallel and lintian reports no
# error and no warning; the package's copyright covers the ADB cut from
# mstflint; dh_auto_test runs `make check` with -jN and nothing under
# nocheck.  Needs the packaging tools (WITH_DEB=1 scripts/install-deps.sh);
# without them it says so and checks the copyright file alone.
. "$(dirname "$0")/lib.inc"
grep -q '^Files: tests/fuzz/data/regs.adb$' "$top/debian/copyright" &&
	grep -q '^License: BSD-2-clause or GPL-2$' "$top/debian/copyright" ||
	check "copyright covers regs.adb" "yes" "no"
for t in dpkg-buildpackage dh dh_auto_test lintian fakeroot; do
	if ! command -v "$t" >/dev/null; then
		echo "deb: $t is missing (WITH_DEB=1 scripts/install-deps.sh): the package is not built"
		exit $fail
	fi
done
DEB_BUILD_OPTIONS="nocheck parallel=2" make -C "$top" --no-print-directory deb \
	O="$tmp/o" >"$tmp/deb.log" 2>&1
check "make deb" "0" "$?"
deb="$tmp/o/deb/pccbench_0.1.0_$(dpkg --print-architecture).deb"
lintian --fail-on error,warning "$deb" >"$tmp/lint" 2>&1
check "lintian: no error, no warning ($(grep -v 'root privileges' "$tmp/lint" | head -3))" "0" "$?"
check "lintian tags" "" "$(grep -c '^[EW]: ' "$tmp/lint" | grep -v '^0$')"
grep -q 'make -j2 .*WERROR= V=1' "$tmp/deb.log" || check "built with -j2" "yes" "no"
grep -q 'override_dh_auto_test" was omitted due to "DEB_BUILD_OPTIONS=nocheck"' "$tmp/deb.log" ||
	check "nocheck honoured" "yes" "no"
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/share/doc/pccbench/copyright |
	grep -q '^Files: tests/fuzz/data/regs.adb$' || check "copyright in the package" "yes" "no"
# without nocheck the package build runs the test suite, in parallel
check "dh_auto_test runs make check" "make -j2 check WERROR=" \
	"$(cd "$tmp/o/deb/pccbench" && DEB_BUILD_OPTIONS=parallel=2 dh_auto_test --no-act -- WERROR= 2>&1 | sed -n 's/^[[:space:]]*//p' | tail -1)"
exit $fail
