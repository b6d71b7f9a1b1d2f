#!/bin/sh
# A sweep beyond one machine: `sweep plan` saves it, shards run through
# GNU parallel (and through the Slurm script `--slurm` writes, run as a
# job array task would run it), `sweep merge` gathers them, and the result
# is byte for byte the sweep run in one go.  Missing runs are named and
# `sweep resume` finishes them; a run merged twice is a duplicate, a run
# with other numbers is refused with nothing written.
. "$(dirname "$0")/lib.inc"
d="$XDG_DATA_HOME/pccbench/sweeps"
S="-d sim:shard"
W="ALPHA 0.05,0.1,0.2 repeat 2 for 2ms measure util,queue_p99"
command -v parallel >/dev/null ||
	{ echo "sweep_shard: GNU parallel is missing (scripts/install-deps.sh)"; exit 1; }

# the reference: the same sweep in one go
# shellcheck disable=SC2086
"$BIN" $S sweep run $W jobs 1 into ref >/dev/null || fail=1

# planned: a definition, no results; the Slurm script
# shellcheck disable=SC2086
out=$("$BIN" $S sweep plan big $W --slurm "$tmp/big.sbatch" --shards 3)
check "plan rc" 0 $?
case $out in *"sweep big planned, nothing run"*) ;;
	*) echo "sweep_shard: plan said: $out"; fail=1 ;; esac
check "planned: no results" "no" "$([ -e "$d/big/results.csv" ] && echo yes || echo no)"
check "slurm array" "#SBATCH --array=0-2" "$(grep -x '#SBATCH --array=0-2' "$tmp/big.sbatch")"
# CPUs per task from --cpus (1 without: never this host's), a time limit,
# output files in the sweep's slurm/ (made), a merge job after the array
check "slurm defaults" "#SBATCH --cpus-per-task=1
#SBATCH --time=60
#SBATCH --output=$d/big/slurm/%x-%A_%a.out" \
	"$(grep -e '^#SBATCH --cpus' -e '^#SBATCH --time' -e '^#SBATCH --output' "$tmp/big.sbatch")"
check "slurm output folder" "yes" "$([ -d "$d/big/slurm" ] && echo yes)"
grep -q '^	sbatch --parsable --job-name=pccbench-big-merge --dependency=afterok:"${SLURM_ARRAY_JOB_ID}"' "$tmp/big.sbatch" ||
	check "slurm merge job" "yes" "no"
bash -n "$tmp/big.sbatch" || check "slurm script syntax" "ok" "no"
# shellcheck disable=SC2086
"$BIN" $S sweep plan opts $W --slurm "$tmp/opts.sbatch" --shards 2 --cpus 8 --time 2h \
	--output "$tmp" >/dev/null || fail=1
check "slurm options" "#SBATCH --cpus-per-task=8
#SBATCH --time=120
#SBATCH --output=$tmp/%x-%A_%a.out" \
	"$(grep -e '^#SBATCH --cpus' -e '^#SBATCH --time' -e '^#SBATCH --output' "$tmp/opts.sbatch")"
for bad in "--time 30s" "--time 31d" "--time x" "--cpus 0" "--output $tmp/none" "--cpus 2"; do
	# shellcheck disable=SC2086
	case $bad in "--cpus 2") sl="" ;; *) sl="--slurm $tmp/bad.sbatch" ;; esac
	# shellcheck disable=SC2086
	"$BIN" $S sweep plan bad1 $W $sl $bad >"$tmp/out" 2>&1
	check "plan $bad: one line, exit 1" "1 1" "$? $(wc -l <"$tmp/out")"
done

# shards 0 and 1 through GNU parallel, shard 2 as Slurm's task 2 would
parallel --will-cite -j 2 "$BIN" $S sweep run big --shard '{}/3' jobs 1 ::: 0 1 \
	>"$tmp/par.out" 2>&1
check "parallel rc" 0 $?
check "shard 0's rows" 2 "$(($(wc -l <"$d/big/shard-0-of-3/results.csv") - 1))"
mkdir "$tmp/bin"
ln -s "$BIN" "$tmp/bin/pccbench"
PATH="$tmp/bin:$PATH" SLURM_ARRAY_TASK_ID=2 SLURM_CPUS_PER_TASK=1 \
	bash "$tmp/big.sbatch" >"$tmp/slurm.out" 2>&1
check "slurm task rc" 0 $?

# two shards merged: the third's runs are named missing
out=$("$BIN" $S sweep merge big "$d/big/shard-0-of-3" "$d/big/shard-1-of-3" 2>&1)
check "partial merge rc" 0 $?
case $out in *"2 of 6 runs missing (points 1, 2)"*) ;;
	*) echo "sweep_shard: partial merge said: $out"; fail=1 ;; esac
case $out in *"4 rows from 2 directories: 4 runs added"*"4 of 6 runs done"*) ;;
	*) echo "sweep_shard: partial merge said: $out"; fail=1 ;; esac
# all three (NAME/shard-* by default): shards 0, 1 again are duplicates
out=$("$BIN" $S sweep merge big 2>&1)
check "merge rc" 0 $?
case $out in *"6 rows from 3 directories: 2 runs added, 4 duplicates"*"6 of 6 runs done"*) ;;
	*) echo "sweep_shard: merge said: $out"; fail=1 ;; esac
cmp -s "$d/ref/results.csv" "$d/big/results.csv" ||
	{ echo "sweep_shard: merged results differ from the sweep run in one go"; fail=1; }
"$BIN" $S sweep show big best max util >/dev/null
check "show merged" 0 $?

# a shard whose numbers differ: refused, results.csv untouched
mkdir "$tmp/bad"
sed '2s/,[0-9.e+-]*\r*$/,1234/' "$d/big/shard-0-of-3/results.csv" \
	>"$tmp/bad/results.csv"
cmp -s "$tmp/bad/results.csv" "$d/big/shard-0-of-3/results.csv" &&
	{ echo "sweep_shard: the tampered copy is no different"; fail=1; }
before=$(cksum <"$d/big/results.csv")
out=$("$BIN" $S sweep merge big "$tmp/bad" 2>&1)
check "conflict rc" 1 $?
case $out in *"has other numbers than the results merged before"*) ;;
	*) echo "sweep_shard: conflict said: $out"; fail=1 ;; esac
check "conflict wrote nothing" "$before" "$(cksum <"$d/big/results.csv")"

# a real Slurm, when installed: a private single-node cluster (its own
# config, ports and state under $tmp, no munge), the array submitted with
# sbatch --wait, the daemons stopped at the end
slurm_stop() {
	for f in "$tmp/slurm/ctld.pid" "$tmp/slurm/d.pid"; do
		[ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	return 0
}
if command -v slurmctld >/dev/null && command -v slurmd >/dev/null &&
	command -v sbatch >/dev/null && [ "$(id -u)" = 0 ]; then
	trap 'slurm_stop; rm -rf "$tmp"' EXIT
	sl="$tmp/slurm"
	mkdir -p "$sl/state" "$sl/spool"
	h=$(hostname -s)
	cp1=$(free_port) && cp2=$(free_port) ||
		{ echo "sweep_shard: no free port"; exit 1; }
	cat >"$sl/slurm.conf" <<EOF
ClusterName=pccbtest
SlurmctldHost=$h
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$cp1
SlurmdPort=$cp2
AuthType=auth/none
CredType=cred/none
StateSaveLocation=$sl/state
SlurmdSpoolDir=$sl/spool
SlurmctldPidFile=$sl/ctld.pid
SlurmdPidFile=$sl/d.pid
SlurmctldLogFile=$sl/ctld.log
SlurmdLogFile=$sl/d.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
ReturnToService=2
MpiDefault=none
NodeName=$h CPUs=2 State=UNKNOWN
PartitionName=t Nodes=$h Default=YES MaxTime=10 State=UP
EOF
	export SLURM_CONF="$sl/slurm.conf"
	slurmctld -i >"$sl/ctld.out" 2>&1 && slurmd >"$sl/d.out" 2>&1 ||
		{ echo "sweep_shard: Slurm does not start:"; cat "$sl"/*.out; exit 1; }
	# the array, then the merge job its task 0 submitted (afterok): the
	# merged results come from Slurm alone
	# shellcheck disable=SC2086
	"$BIN" $S sweep plan arr $W --slurm "$tmp/arr.sbatch" --shards 3 \
		--time 5min >/dev/null
	PATH="$tmp/bin:$PATH" timeout 120 sbatch --wait "$tmp/arr.sbatch" \
		>"$sl/sbatch.out" 2>&1
	check "sbatch --wait rc" 0 $?
	i=0
	while [ -n "$(squeue -h -n pccbench-arr-merge 2>/dev/null)" ] && [ $i -lt 1200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	check "the array's outputs" "3" "$(ls "$d/arr/slurm" | grep -c '^pccbench-arr-[0-9]*_[0-2]\.out$')"
	check "the merge job's output" "1" "$(ls "$d/arr/slurm" | grep -c '^pccbench-arr-merge-[0-9]*\.out$')"
	cmp -s "$d/ref/results.csv" "$d/arr/results.csv" ||
		{ echo "sweep_shard: the Slurm merge job's results differ from the sweep run in one go"; cat "$d/arr/slurm"/* "$sl/sbatch.out"; fail=1; }
	slurm_stop
	unset SLURM_CONF
else
	echo "sweep_shard: Slurm SKIP (slurm-wlm not installed, or not root)" >&2
fi

# missing runs finished by resume: the same as the reference
# shellcheck disable=SC2086
"$BIN" $S sweep plan half $W >/dev/null
"$BIN" $S sweep run half --shard 1/2 jobs 1 >/dev/null
"$BIN" $S sweep merge half >/dev/null 2>&1
"$BIN" $S sweep resume half >/dev/null
cmp -s "$d/ref/results.csv" "$d/half/results.csv" ||
	{ echo "sweep_shard: merge + resume differs from the sweep run in one go"; fail=1; }

# refusals: bad slices, an unknown sweep, shards of more than the runs
for bad in 3/3 1/0 a/2 1 -1/2; do
	out=$("$BIN" $S sweep run big --shard "$bad" 2>&1)
	check "shard $bad rc" 1 $?
done
out=$("$BIN" $S sweep run big --shard 0/7 2>&1)
check "too many shards" "error: sweep: 7 shards but 6 runs" "$out"
out=$("$BIN" $S sweep run nothing --shard 0/2 2>&1)
check "unknown sweep rc" 1 $?
exit $fail
