#!/usr/bin/env bash
# A one-node Slurm cluster on this machine for tests/slurm: munged, slurmctld and slurmd on
# localhost with their own config, state, sockets and logs under DIR; nothing system-wide is
# touched (no /etc/slurm, no /run/munge, no systemd).
#
#   tests/slurm/cluster.sh start DIR    prints SLURM_CONF=DIR/slurm.conf once the node is idle;
#                                       exit 77 with "SKIP: reason" where it cannot start
#   tests/slurm/cluster.sh stop DIR     stops the three daemons (by their pid files)
#
# The node declares one GPU (Gres=gpu:1) so jobs ask for it the way they would on a GPU
# cluster (srun --gres=gpu:1); the partition is `gpu`.
set -uo pipefail
cmd=${1:-}
dir=${2:-}
[[ -n $cmd && -n $dir ]] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }
skip() { echo "SKIP: $*"; exit 77; }

stop() {
  for p in slurmd slurmctld munged; do
    [[ -f $dir/$p.pid ]] || continue
    pid=$(cat "$dir/$p.pid")
    kill "$pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
    rm -f "$dir/$p.pid"
  done
}

if [[ $cmd == stop ]]; then
  stop
  exit 0
fi
[[ $cmd == start ]] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }

for b in munged slurmctld slurmd srun scancel scontrol sinfo; do
  command -v "$b" >/dev/null || skip "$b not installed (scripts/setup.sh --test installs slurm-wlm and munge)"
done
[[ $(id -u) -eq 0 ]] || skip "slurmd must run as root to start job steps; run as root (CI does)"
mkdir -p "$dir"/{ctld,spool,munge} || skip "cannot create $dir"
dir=$(cd "$dir" && pwd)
chmod 700 "$dir/munge"

# munge: a private key and socket.
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.sock" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/seed" \
  >"$dir/munged.out" 2>&1 || { cat "$dir/munged.out" >&2; stop; skip "munged does not start (see $dir/munged.log)"; }

host=$(hostname -s)
read -r cpus mem < <(slurmd -C 2>/dev/null | sed -n 's/.*CPUs=\([0-9]*\).*RealMemory=\([0-9]*\).*/\1 \2/p')
[[ -n ${cpus:-} ]] || { stop; skip "slurmd -C cannot describe this node"; }
port=$((20000 + RANDOM % 20000))
cat >"$dir/slurm.conf" <<CONF
ClusterName=upktest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SchedulerType=sched/builtin
SlurmctldTimeout=30
SlurmdTimeout=30
KillWait=2
GresTypes=gpu
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem Gres=gpu:1 State=UNKNOWN
PartitionName=gpu Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
# Slurm drops a GPU without a device file; this machine has none, so the GPU's "device" is a
# node of our own (the numbers of /dev/null): jobs get CUDA_VISIBLE_DEVICES as on a GPU node.
rm -f "$dir/nvidia0"
mknod "$dir/nvidia0" c 1 3 || { stop; skip "cannot create the stand-in GPU device node"; }
echo "NodeName=$host Name=gpu Count=1 File=$dir/nvidia0" >"$dir/gres.conf"
export SLURM_CONF=$dir/slurm.conf
slurmctld -f "$SLURM_CONF" -i >"$dir/slurmctld.out" 2>&1 ||
  { tail -n 5 "$dir/slurmctld.log" >&2; stop; skip "slurmctld does not start (see $dir/slurmctld.log)"; }
slurmd -f "$SLURM_CONF" -N "$host" >"$dir/slurmd.out" 2>&1 ||
  { tail -n 5 "$dir/slurmd.log" >&2; stop; skip "slurmd does not start (see $dir/slurmd.log)"; }
for _ in $(seq 60); do
  state=$(sinfo -h -N -o %T 2>/dev/null | head -n1)
  [[ $state == idle || $state == mixed ]] && { echo "SLURM_CONF=$SLURM_CONF"; exit 0; }
  sleep 0.5
done
tail -n 5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2
stop
skip "the node did not become idle in 30 s (state: ${state:-none}; logs in $dir)"
