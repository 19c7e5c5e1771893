#!/usr/bin/env bash
# Starts a one-node SLURM cluster on this machine, for testing the cluster
# path (scripts/cluster.py) without a cluster: munged, slurmctld and slurmd
# on localhost, all as root, without systemd (process tracking by
# /proc, no task plugin, no accounting).
#
# usage: scripts/slurm-single-node.sh start | stop
#
# Needs Debian's `slurm-wlm` and `munge` (`apt-get install slurm-wlm
# munge`) and root. Writes /etc/slurm/slurm.conf only where none exists
# or where this script wrote the one there; a site's own is left alone.
set -euo pipefail

conf=/etc/slurm/slurm.conf
mark="# written by invar scripts/slurm-single-node.sh"

stop() {
  pkill -x slurmd 2>/dev/null || true
  pkill -x slurmctld 2>/dev/null || true
  pkill -x munged 2>/dev/null || true
}

if [ "${1:-}" = stop ]; then
  stop
  exit 0
fi
if [ "${1:-}" != start ]; then
  echo "usage: $0 start | stop" >&2
  exit 2
fi
for tool in munged slurmctld slurmd sinfo; do
  command -v "$tool" >/dev/null || {
    echo "$tool not found: apt-get install slurm-wlm munge" >&2
    exit 1
  }
done
if [ "$(id -u)" != 0 ]; then
  echo "a single-node cluster started this way needs root" >&2
  exit 1
fi

if [ ! -e "$conf" ] || head -1 "$conf" | grep -qF "$mark"; then
  host=$(hostname -s)
  # The node's CPUs and memory as slurmd finds them (its -C line), less a
  # little memory for the daemons.
  node=$(slurmd -C | head -1)
  cpus=$(sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' <<<"$node")
  memory=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$node")
  mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
  cat >"$conf" <<EOF
$mark
ClusterName=invar
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MpiDefault=none
ReturnToService=2
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
MaxArraySize=100001
NodeName=$host CPUs=$cpus RealMemory=$((memory > 1024 ? memory - 512 : memory)) State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
fi

stop
sleep 1
mkdir -p /run/munge
chown munge:munge /run/munge 2>/dev/null || true
# munged refuses to start as root unless forced.
if id munge >/dev/null 2>&1; then
  runuser -u munge -- munged
else
  munged --force
fi
slurmctld
slurmd
# The node reports idle once slurmd has registered.
for _ in $(seq 60); do
  if sinfo -h -o %t 2>/dev/null | grep -qx idle; then
    echo "SLURM: one node up ($(sinfo -h -o '%N, %c CPUs, %m MB'))"
    exit 0
  fi
  sleep 1
done
echo "SLURM did not come up; its logs are in /var/log/slurm" >&2
tail -20 /var/log/slurm/slurmctld.log /var/log/slurm/slurmd.log >&2 || true
exit 1
