#!/bin/sh
# The device object (src/core/device.h) is the only place that knows which kind
# of device it has: no REG_CAP_REAL test and no sim/ header outside the
# device implementations (src/core/device.c, src/core/dev_*.c), the simulator itself
# and the `sim` command (sim.c, simout.c); no untyped ctl escape hatch anywhere.
. "$(dirname "$0")/lib.inc"
cd "$top" || exit 1
real=$(grep -rln 'REG_CAP_REAL' src algos | grep -v '^src/core/device\.c$' |
	grep -v '^src/core/dev_[a-z]*\.c$' | tr '\n' ' ')
check "REG_CAP_REAL outside the device implementations" "" "$real"
sim=$(grep -rln '#include "sim/' src algos | grep -v '^src/sim/' |
	grep -v '^src/core/device\.c$' | grep -v '^src/core/dev_sim\.c$' |
	grep -v '^src/cmd/sim\.c$' | grep -v '^src/cmd/simout\.c$' | tr '\n' ' ')
check "sim/ headers outside the device and the sim command" "" "$sim"
ctl=$(grep -rn -- '->ctl(' src reg algos | tr '\n' ' ')
check "ctl escape hatch" "" "$ctl"
# and the check can fail: a file that breaks the rule is found
mkdir -p "$tmp/src/cmd"
printf '#include "sim/sim.h"\nint x = REG_CAP_REAL;\n' >"$tmp/src/cmd/bad.c"
check "the grep sees a breach" "src/cmd/bad.c" "$(cd "$tmp" && grep -rl 'REG_CAP_REAL' src)"
exit $fail
