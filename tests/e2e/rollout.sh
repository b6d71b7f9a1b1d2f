#!/bin/sh
# Rolling out (#33 item 7): contrib/ansible/rollout.yml with Debian's
# ansible-core against sim devices on this machine (a reference host and
# a fleet of three, connection local): --check reports changed=1 on each
# fleet host and writes nothing; the real run changes each and the
# devices then run the reference's values; a second run changes nothing.
# contrib/systemd's metrics unit and timer pass `systemd-analyze verify`
# (a broken copy does not), and the command the unit runs works without
# HOME, its files under $STATE_DIRECTORY.
. "$(dirname "$0")/lib.inc"
command -v ansible-playbook >/dev/null ||
	{ echo "rollout: ansible-playbook not found (scripts/install-deps.sh installs ansible-core)"; exit 1; }
command -v systemd-analyze >/dev/null ||
	{ echo "rollout: systemd-analyze not found"; exit 1; }
vals() { "$BIN" -d "$1" -j param get ALPHA AI | grep -o '"raw":[0-9]*' | cut -d: -f2 | tr '\n' ' '; }

"$BIN" -d sim:ref param set ALPHA 0.35 AI 20 >/dev/null
ref=$(vals sim:ref)
{
	echo "[pccbench_reference]"
	echo "ref pccbench_device=sim:ref"
	echo "[pccbench_fleet]"
	for h in h1 h2 h3; do echo "$h pccbench_device=sim:$h"; done
	echo "[all:vars]"
	echo "ansible_connection=local"
	echo "ansible_python_interpreter=/usr/bin/python3"
} >"$tmp/inventory"
mkdir -p "$tmp/home" "$tmp/store" "$tmp/ans"
play() {
	HOME="$tmp/home" ANSIBLE_LOCAL_TEMP="$tmp/ans" ANSIBLE_REMOTE_TEMP="$tmp/ans" \
	ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 ANSIBLE_RETRY_FILES_ENABLED=0 \
	ANSIBLE_HOST_KEY_CHECKING=0 ANSIBLE_STDOUT_CALLBACK=default \
	ansible-playbook -i "$tmp/inventory" "$top/contrib/ansible/rollout.yml" \
		-e "pccbench_bin=$BIN" -e "pccbench_profile=fleet" \
		-e "pccbench_profile_store=$tmp/store" "$@" >"$tmp/play.out" 2>&1
}
recap() { sed -n "s/^$1 *: ok=[0-9]* *changed=\([0-9]*\).*failed=\([0-9]*\).*/changed=\1 failed=\2/p" "$tmp/play.out"; }

orig=$(vals sim:h1)
play --check
check "check rc" 0 $?
for h in h1 h2 h3; do
	check "$h: --check changed" "changed=1 failed=0" "$(recap $h)"
	check "$h: --check wrote nothing" "$orig" "$(vals sim:$h)"
done
play
check "apply rc" 0 $?
for h in h1 h2 h3; do
	check "$h: apply changed" "changed=1 failed=0" "$(recap $h)"
	check "$h: runs the reference's values" "$ref" "$(vals sim:$h)"
done
play
check "again rc" 0 $?
for h in h1 h2 h3; do
	check "$h: again unchanged" "changed=0 failed=0" "$(recap $h)"
done
play --check
for h in h1 h2 h3; do
	check "$h: --check after: unchanged" "changed=0 failed=0" "$(recap $h)"
done
[ "$fail" = 0 ] || cat "$tmp/play.out"

# systemd: the unit and the timer as shipped (the binary where this test
# runs it), for an instance; a unit whose command is missing fails it
sd="$tmp/units"
mkdir -p "$sd"
sed "s|/usr/bin/pccbench|$BIN|" "$top/contrib/systemd/pccbench-metrics@.service" \
	>"$sd/pccbench-metrics@lab.service"
cp "$top/contrib/systemd/pccbench-metrics@.timer" "$sd/pccbench-metrics@lab.timer"
out=$(systemd-analyze verify --man=no "$sd/pccbench-metrics@lab.service" \
	"$sd/pccbench-metrics@lab.timer" 2>&1)
check "systemd-analyze verify" "0 []" "$? [$out]"
sed "s|^ExecStart=[^ ]*|ExecStart=$tmp/no-such-pccbench|" "$sd/pccbench-metrics@lab.service" \
	>"$sd/pccbench-metrics@bad.service"
systemd-analyze verify --man=no "$sd/pccbench-metrics@bad.service" >/dev/null 2>&1 &&
	{ echo "rollout: a broken unit passes systemd-analyze verify"; fail=1; }
# ExecStart's command as a system service runs it: no HOME, no XDG, the
# state in $STATE_DIRECTORY
cmd=$(sed -n 's/^ExecStart=//p' "$sd/pccbench-metrics@lab.service" |
	sed "s|%I|sim:lab|; s|%i|lab|; s|/var/lib/prometheus/node-exporter|$tmp/tf|")
mkdir -p "$tmp/tf" "$tmp/svc"
# shellcheck disable=SC2086
env -i PATH="$PATH" STATE_DIRECTORY="$tmp/svc" $cmd 2>"$tmp/e"
check "service command rc" 0 $?
grep -q '^pccbench_param{device="sim:lab"' "$tmp/tf/pccbench-lab.prom" 2>/dev/null ||
	grep -q '^pccbench_param' "$tmp/tf/pccbench-lab.prom" 2>/dev/null ||
	{ echo "rollout: no metrics in pccbench-lab.prom: $(cat "$tmp/e")"; fail=1; }
[ -f "$tmp/svc/state/sim/lab.dev" ] ||
	{ echo "rollout: the device's state is not in \$STATE_DIRECTORY: $(find "$tmp/svc" | head)"; fail=1; }
exit $fail
