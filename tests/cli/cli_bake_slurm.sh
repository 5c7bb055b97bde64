#!/usr/bin/env bash
# tools/slurm/bake.sbatch on a real Slurm: a one-node cluster from Debian's slurm-wlm and munge
# brought up in a temporary folder (its own munge key and socket, slurm.conf, spool and state;
# daemons started here and stopped on exit), a 4-task job array over the all-characters
# manifest, then bake_merge.sbatch after it (afterok). The array's outputs must be
# byte-identical to a single-machine bake, and the merged report must list every job.
# Exit 77 (with the reason) where the packages are missing or the daemons cannot start.
set -u
vk=$1
src=${VKSKIN_SOURCE_DIR:?}
manifest=$src/tools/slurm/all_characters.json
skip() { echo "skipped: $*"; exit 77; }
for p in slurmctld slurmd sbatch squeue munged; do
    command -v $p > /dev/null 2>&1 || [ -x /usr/sbin/$p ] || skip "no $p (apt-get install slurm-wlm munge)"
done
[ "$(id -u)" -eq 0 ] || skip "the test cluster's daemons run as root (CI runs the tests as root)"
export PATH=$PATH:/usr/sbin
fail=0
tmp=$(mktemp -d)
chmod 755 "$tmp"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2> /dev/null; done
    for p in "${pids[@]}"; do wait "$p" 2> /dev/null; done
    [ -f "$tmp/munged.pid" ] && kill "$(cat "$tmp/munged.pid")" 2> /dev/null
    sleep 0.2
    rm -rf "$tmp"
}
trap cleanup EXIT
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }
cd "$tmp"
"$vk" bake "$manifest" --cpu --out single 2> single.log || { grep -q "without OpenEXR" single.log && skip "vkskin was built without OpenEXR"; }

# munge: its own key and socket, so nothing of the machine's is used or changed
mkdir -p munge state spool
dd if=/dev/urandom of=munge/munge.key bs=1024 count=1 2> /dev/null
chmod 700 munge
chmod 400 munge/munge.key
munged --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.sock" --pid-file="$tmp/munged.pid" \
    --log-file="$tmp/munged.log" --seed-file="$tmp/munge/seed" > /dev/null 2>&1 || skip "munged does not start: $(tail -1 munged.log 2> /dev/null)"

# free ports for the controller and the node daemon
port=$((20000 + RANDOM % 20000))
node=$(hostname -s)
cpus=$(nproc)
cat > slurm.conf <<CONF
ClusterName=vkskintest
SlurmctldHost=$node
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
NodeName=$node CPUs=$cpus RealMemory=256 State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -i -f "$tmp/slurm.conf" > ctld.out 2>&1 & pids+=($!)
slurmd -D -f "$tmp/slurm.conf" -N "$node" > d.out 2>&1 & pids+=($!)
up=0
for i in $(seq 1 60); do
    if sinfo -h -o %T 2> /dev/null | grep -qE '^(idle|mixed|allocated)'; then up=1; break; fi
    for p in "${pids[@]}"; do kill -0 "$p" 2> /dev/null || skip "a Slurm daemon exited: $(tail -2 ctld.out d.out slurmctld.log slurmd.log 2> /dev/null | tr '\n' ' ')"; done
    sleep 0.5
done
[ $up -eq 1 ] || skip "the test node did not come up: $(sinfo -h 2>&1 | head -1); $(tail -2 slurmd.log 2> /dev/null | tr '\n' ' ')"

# the array, then the merge step after it, as the README tells a user to run them
jid=$(VKSKIN="$vk" sbatch --parsable --array=0-3 --cpus-per-task=1 --chdir="$tmp" --export=ALL \
      "$src/tools/slurm/bake.sbatch" "$manifest" "$tmp/array" --cpu 2> sbatch.err)
check "sbatch accepts the array" "[ -n '$jid' ]"
mid=$(VKSKIN="$vk" sbatch --parsable --dependency=afterok:$jid --chdir="$tmp" --export=ALL \
      "$src/tools/slurm/bake_merge.sbatch" "$manifest" "$tmp/array" 2>> sbatch.err)
check "sbatch accepts the merge step" "[ -n '$mid' ]"
done_=0
for i in $(seq 1 100); do
    if [ -z "$(squeue -h 2> /dev/null)" ]; then done_=1; break; fi
    sleep 0.5
done
check "the array and the merge finished within 50 s" "[ $done_ -eq 1 ]"
cat sbatch.err
check "four task reports" "[ $(ls array/reports/shard-*-of-4.json 2> /dev/null | wc -l) -eq 4 ]"
check "the merged report lists all 16 jobs, all complete" "[ \$(grep -c '\"complete\":\s*true' array/report.json 2> /dev/null) -eq 16 ]"
check "the merge step found nothing missing" "grep -q '0 outputs missing' vkskin-bake-merge-$mid.log"
rm -rf array/reports array/report.json
same=1
[ "$(cd single && ls | sort)" = "$(cd array && ls | sort)" ] || { same=0; echo "the file lists differ"; }
for f in single/*; do cmp -s "$f" "array/$(basename "$f")" || { echo "differs: $f"; same=0; }; done
check "the array's outputs are byte-identical to the single-machine bake" "[ $same -eq 1 ]"
[ $fail -eq 0 ] || tail -5 vkskin-bake-*.log slurmctld.log slurmd.log 2> /dev/null
exit $fail
