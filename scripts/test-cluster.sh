#!/usr/bin/env bash
# A real Slurm cluster and a real Grid Engine on this machine, for the integration tests. Nothing here is reachable
# from outside the machine.
#
#   Slurm     slurmctld in the root namespace (SlurmctldHost = this machine's short hostname at 10.200.0.1);
#             compute nodes gantry-c1 and gantry-c2, each one slurmd in its own network namespace (10.200.0.101,
#             10.200.0.102, own hostname) on the bridge gantrybr0 that scripts/test-hosts.sh also uses. Partitions
#             hpc (default), gpu and htc hold both nodes; each node has 8 CPUs, 8000 MB and 2 fake GPUs (character
#             devices, major 195) whatever the machine has. munged runs in the root namespace; its socket in
#             /run/munge serves every namespace.
#   Grid Engine  qmaster and execd of the Debian packages (cell "default") in the root namespace, queue all.q on
#             this host with 8 slots and parallel environments smp ($pe_slots) and mpi ($round_robin); one more
#             execd in each node's namespace (under the node's name, with its own /etc/hosts), queue nodes.q on
#             host group @nodes with parallel environments smp and onepernode (allocation rule 1, control_slaves
#             TRUE: multi-host jobs, one rank per host, through qrsh -inherit). The nodes' names are marked lines
#             in /etc/hosts while the cluster is up. All execds share one kernel, so each host gets what separate
#             machines never share: a gid_range of its own (a host-local configuration; see ge_gid_range) and a
#             job scratch directory (tmpdir) of its own.
#   Login     one more sshd, in the root namespace, on 127.0.0.1:2222 and 10.200.0.1:2222, for the test user
#             "gantry" with the client key of scripts/test-hosts.sh: from there sbatch/squeue/scancel/srun and
#             qsub/qstat/qdel/qacct work as on a cluster's login node.
# Every node, the login and the controllers share this machine's file system and users; SHARED_DIR in the summary
# is a directory all of them see and the test user can write.
#
# Needs root and these Debian packages (this script installs nothing; scripts/test-all.sh does, with the debconf
# answers Grid Engine needs): slurmctld slurmd slurm-client munge gridengine-master gridengine-exec
# gridengine-client openssh-server openssh-client iproute2 util-linux procps
#
# Usage:
#   scripts/test-cluster.sh up                  start everything (idempotent, repairs what is missing), then print
#                                               the summary file $STATE/cluster.env (KEY=value lines)
#   scripts/test-cluster.sh down                stop all of it; the SSH test hosts (gantry-hK) stay untouched
#   scripts/test-cluster.sh status              print each part's state; exit 0 only when all of it is up
# Fault injection and other commands for the tests:
#   scripts/test-cluster.sh restart-slurmctld   stop slurmctld and start it again with its saved state (jobs stay)
#   scripts/test-cluster.sh restart-login-sshd  restart the login sshd listener (open connections survive)
#   scripts/test-cluster.sh drop-login-sessions kill the login sshd's open SSH connections (the listener stays)
#   scripts/test-cluster.sh node-down NAME      set Slurm node NAME down (reason gantry-test-eviction): its jobs
#                                               end, those submitted with --requeue are requeued
#   scripts/test-cluster.sh node-resume NAME    bring node NAME back to idle
#
# State lives in GANTRY_TEST_CLUSTER_DIR (default /var/lib/gantry-test-cluster):
#   cluster.env        the summary: login address, port, user, key, host key fingerprint and known_hosts; Slurm
#                      nodes, partitions, GPUs, the job completion log; the Grid Engine queue; the shared directory
#   known_hosts        the login's host key, for [127.0.0.1]:2222 and [10.200.0.1]:2222 (readable by everyone)
#   login/             the login sshd's config, ed25519 host key (kept by "down"), pid file and log
#   slurm/             slurmctld's saved state, pid file, log and the job completion log (jobcomp/jobcomp.txt)
#   nodes/gantry-cK/   node K's slurmd spool, pid file, log and fake GPU devices; gridengine/: its execd's
#                      /etc/hosts, pid file and tmp/, the node's tmpdir (its jobs' TMPDIR parent; its spool is
#                      /var/spool/gridengine/execd/gantry-cK)
# "down" forgets Slurm's jobs (saved state, spools, job completion log; job ids start again at 1) and keeps logs;
# it removes the Grid Engine hosts' local configurations and the nodes' tmpdirs.
# munged and the Grid Engine daemons are stopped by "down" only if "up" started them (the nodes' execds go with
# the nodes' namespaces).
# Slurm's configuration is /etc/slurm/slurm.conf and /etc/slurm/gres.conf, where every daemon and every client (in
# any namespace, over any login) finds it; "up" writes them and refuses to replace files it did not write.
set -euo pipefail
# shellcheck source=lib/test-net.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/test-net.sh"
# No "grep -q" at the end of a pipe: it exits at the first match, the writer dies of SIGPIPE and pipefail
# turns a match into a failure.

# --- settings ------------------------------------------------------------------------------------------------
STATE=${GANTRY_TEST_CLUSTER_DIR:-/var/lib/gantry-test-cluster}
HOSTS_STATE=${GANTRY_TEST_HOSTS_DIR:-/var/lib/gantry-test-hosts}   # the test user's client key lives there
# Seconds a finished Slurm job stays visible to squeue/scontrol; after that only the job completion log knows it.
# An "up" with another value than the running cluster's restarts the Slurm daemons (jobs stay).
MIN_JOB_AGE=${GANTRY_TEST_CLUSTER_MIN_JOB_AGE:-300}
NODE_COUNT=2
CPUS_PER_NODE=8
MEMORY_PER_NODE_MB=8000
DEF_MEM_PER_CPU_MB=500
GPUS_PER_NODE=2
PARTITIONS="hpc gpu htc"          # the first is the default partition
SLURMCTLD_PORT=6817
SLURMD_PORT=6818
SLURM_ETC=/etc/slurm
LOGIN_ADDRESS=127.0.0.1
LOGIN_PORT=2222
TEST_USER=gantry
GE_ROOT=/var/lib/gridengine
GE_CELL=default
GE_QUEUE=all.q
GE_SLOTS=8
GE_PE_SLOTS=16
# The compute nodes' own queue and the parallel environment of multi-host jobs: one slot, one rank, per host.
GE_NODE_QUEUE=nodes.q
GE_NODE_GROUP=@nodes
GE_NODE_PE=onepernode
# Each execd's own additional group ids (see ge_gid_range): host I (0 = this host, K = node K) has
# GE_GIDS_PER_HOST ids from GE_GID_BASE + I * GE_GIDS_PER_HOST, below Debian's global 65400-65500 and nogroup.
GE_GID_BASE=65100
GE_GIDS_PER_HOST=100
HOSTS_MARK="# gantry-test-cluster node"
CONTROLLER_ADDRESS=$TEST_NET.1
GENERATED="# Generated by scripts/test-cluster.sh"

die() { echo "test-cluster: $*" >&2; exit 1; }
note() { echo "test-cluster: $*" >&2; }

require_root() {
  [ "$(id -u)" = 0 ] || die "must run as root (it creates network namespaces and starts daemons); run scripts/test-all.sh as root"
}

require_tools() {
  local tool
  for tool in /usr/sbin/sshd ssh-keygen ip ss unshare nsenter flock pgrep mknod timeout runuser; do
    command -v "$tool" >/dev/null 2>&1 \
      || die "missing $tool; install the Debian packages openssh-server openssh-client iproute2 util-linux procps coreutils"
  done
  for tool in /usr/sbin/slurmctld /usr/sbin/slurmd sinfo scontrol; do
    command -v "$tool" >/dev/null 2>&1 \
      || die "missing $tool; install the Debian packages slurmctld slurmd slurm-client (scripts/test-all.sh does)"
  done
  for tool in /usr/sbin/munged munge unmunge; do
    command -v "$tool" >/dev/null 2>&1 || die "missing $tool; install the Debian package munge (scripts/test-all.sh does)"
  done
  for tool in qconf qstat /etc/init.d/gridengine-master /etc/init.d/gridengine-exec; do
    command -v "$tool" >/dev/null 2>&1 \
      || die "missing $tool; install the Debian packages gridengine-master gridengine-exec gridengine-client with the debconf answers of scripts/test-all.sh (it does both)"
  done
  [ -f "$GE_ROOT/$GE_CELL/common/act_qmaster" ] \
    || die "Grid Engine cell $GE_ROOT/$GE_CELL is not set up (no common/act_qmaster): the packages were installed without the debconf answers; purge gridengine-master gridengine-exec gridengine-client gridengine-common and let scripts/test-all.sh install them again"
}

HOST=$(hostname -s)

# Node K (1..NODE_COUNT): name, address, root side of its veth, state directory.
declare -a NODE NODE_ADDR NODE_VETH NODE_DIR
for ((k = 1; k <= NODE_COUNT; k++)); do
  NODE[k]=gantry-c$k
  NODE_ADDR[k]=$TEST_NET.$((100 + k))
  NODE_VETH[k]=gantry-cv$k
  NODE_DIR[k]=$STATE/nodes/gantry-c$k
done
NODE_LIST=${NODE[*]}
NODE_HOSTLIST="gantry-c[1-$NODE_COUNT]"

# pid_of PIDFILE COMM: the pid in PIDFILE if that process lives and is COMM (a recycled pid is not ours).
pid_of() {
  local pid
  [ -f "$1" ] || return 1
  pid=$(cat "$1" 2>/dev/null) || return 1
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] || return 1
  echo "$pid"
}

# stop_pid PID [SECONDS]: TERM, wait, KILL.
stop_pid() {
  local pid=$1 tenths=$((${2:-10} * 10))
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 "$tenths"); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
}

# write_if_changed FILE MODE < content: atomic (temp + rename); exit status 0 when FILE changed.
write_if_changed() {
  local file=$1 mode=$2 tmp
  tmp=$(mktemp "$(dirname "$file")/.$(basename "$file").XXXXXX")
  cat >"$tmp"
  chmod "$mode" "$tmp"
  if [ -f "$file" ] && cmp -s "$tmp" "$file"; then
    rm -f "$tmp"
    return 1
  fi
  mv -f "$tmp" "$file"
}

# --- the test user and the network ---------------------------------------------------------------------------
ensure_user() {
  # The user and its key belong to scripts/test-hosts.sh; take its lock while making sure they are there.
  mkdir -p "$HOSTS_STATE"
  (
    flock 8
    net_ensure_test_user_and_client_key "$HOSTS_STATE" "$TEST_USER"
  ) 8>"$HOSTS_STATE.lock"
  local uid
  uid=$(id -u "$TEST_USER")
  # Grid Engine runs no job of a user below min_uid (1000 in Debian's configuration).
  [ "$uid" -ge 1000 ] \
    || die "the test user $TEST_USER has uid $uid, but Grid Engine refuses jobs from uids below 1000; delete the user (userdel -r $TEST_USER) and run up again"
  install -d -o "$TEST_USER" -g "$TEST_USER" -m 0755 "$(shared_dir)"
}

shared_dir() { echo "$(getent passwd "$TEST_USER" | cut -d: -f6)/cluster-shared"; }

ensure_network() {
  local k
  net_ensure_bridge
  for k in ${!NODE[*]}; do
    net_ensure_namespace "${NODE[k]}" "${NODE_VETH[k]}" "${NODE_ADDR[k]}"
  done
}

# --- munge ---------------------------------------------------------------------------------------------------
munge_works() { timeout 5 munge -n </dev/null 2>/dev/null | timeout 5 unmunge >/dev/null 2>&1; }

ensure_munge() {
  munge_works && return 0
  if [ ! -s /etc/munge/munge.key ]; then
    mungekey --create --keyfile /etc/munge/munge.key || die "cannot create /etc/munge/munge.key (mungekey failed)"
  fi
  chown munge:munge /etc/munge/munge.key
  chmod 0400 /etc/munge/munge.key
  install -d -o munge -g munge -m 0755 /run/munge
  rm -f /run/munge/munged.pid
  runuser -u munge -- /usr/sbin/munged 9>&- || die "munged does not start; see /var/log/munge/munged.log"
  touch "$STATE/munged.ours"
  local deadline=$((SECONDS + 10))
  while [ $SECONDS -lt $deadline ]; do munge_works && return 0; sleep 0.1; done
  die "munged started but munge -n | unmunge fails; see /var/log/munge/munged.log"
}

stop_munge() {
  local pid
  [ -f "$STATE/munged.ours" ] || return 0
  if pid=$(pid_of /run/munge/munged.pid munged); then stop_pid "$pid"; fi
  rm -f "$STATE/munged.ours"
}

# --- Slurm ---------------------------------------------------------------------------------------------------
slurmctld_pidfile() { echo "$STATE/slurm/run/slurmctld.pid"; }
slurmctld_pid() { pid_of "$(slurmctld_pidfile)" slurmctld; }

slurmd_pid() {
  local pid
  pid=$(pid_of "${NODE_DIR[$1]}/slurmd.pid" slurmd) || return 1
  # It must live in its node's namespace.
  net_ns_pids "${NODE[$1]}" | grep -x "$pid" >/dev/null || return 1
  echo "$pid"
}

# Our own file, or none yet: a configuration someone else wrote is not ours to replace.
check_ours() {
  [ -e "$1" ] || return 0
  head -n 1 "$1" | grep -x "$GENERATED.*" >/dev/null \
    || die "$1 was not written by scripts/test-cluster.sh (its first line is not '$GENERATED'); move it away, the test cluster needs $SLURM_ETC for itself"
}

slurm_conf() {
  local k p default=YES
  cat <<EOF
$GENERATED: the Gantry test cluster; "up" rewrites it.
ClusterName=gantry
SlurmctldHost=$HOST($CONTROLLER_ADDRESS)
SlurmUser=slurm
SlurmdUser=root
AuthType=auth/munge
CryptoType=crypto/munge
# A requeued job may start again only when its old credential has expired (default 120 s).
AuthInfo=cred_expire=10
MailProg=/bin/true
MpiDefault=none
StateSaveLocation=$STATE/slurm/ctld
SlurmctldPidFile=$(slurmctld_pidfile)
SlurmctldLogFile=$STATE/slurm/log/slurmctld.log
SlurmctldPort=$SLURMCTLD_PORT
# One slurmd per node namespace, all on this machine's file system: %n (the node name) keeps them apart.
SlurmdSpoolDir=$STATE/nodes/%n/spool
SlurmdPidFile=$STATE/nodes/%n/slurmd.pid
SlurmdLogFile=$STATE/nodes/%n/slurmd.log
SlurmdPort=$SLURMD_PORT
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$STATE/slurm/jobcomp/jobcomp.txt
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0,sched_interval=5,bf_interval=5
DependencyParameters=kill_invalid_depend
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=$DEF_MEM_PER_CPU_MB
GresTypes=gpu
# A node that stopped answering comes back by itself when its slurmd registers again; one set DOWN by an
# administrator (node-down) stays down until it is resumed. (With 2, a node set DOWN came back at its first answer,
# the reply to the kill of its jobs, 40 ms later, and the requeued job ran there again.)
ReturnToService=1
MinJobAge=$MIN_JOB_AGE
# The nodes advertise the CPUs and memory below whatever this machine has.
SlurmdParameters=config_overrides
EOF
  for k in ${!NODE[*]}; do
    echo "NodeName=${NODE[k]} NodeAddr=${NODE_ADDR[k]} CPUs=$CPUS_PER_NODE Boards=1 SocketsPerBoard=1" \
      "CoresPerSocket=$CPUS_PER_NODE ThreadsPerCore=1 RealMemory=$MEMORY_PER_NODE_MB Gres=gpu:$GPUS_PER_NODE State=UNKNOWN"
  done
  for p in $PARTITIONS; do
    echo "PartitionName=$p Nodes=$NODE_HOSTLIST Default=$default MaxTime=INFINITE State=UP"
    default=NO
  done
}

gres_conf() {
  local k
  echo "$GENERATED: the Gantry test cluster's fake GPUs; \"up\" rewrites it."
  echo "AutoDetect=off"
  for k in ${!NODE[*]}; do
    echo "NodeName=${NODE[k]} Name=gpu File=${NODE_DIR[k]}/gpu/nvidia[0-$((GPUS_PER_NODE - 1))]"
  done
}

# Fake GPUs: character devices (NVIDIA's major 195) that nothing opens (task/none, proctrack/linuxproc); gres/gpu
# only wants File= to be a device, and then gives jobs CUDA_VISIBLE_DEVICES. File-less GPUs are dropped by slurmd.
ensure_fake_gpus() {
  local k i dev
  for k in ${!NODE[*]}; do
    mkdir -p "${NODE_DIR[k]}/gpu"
    for i in $(seq 0 $((GPUS_PER_NODE - 1))); do
      dev=${NODE_DIR[k]}/gpu/nvidia$i
      [ -c "$dev" ] && continue
      rm -f "$dev"
      mknod -m 0666 "$dev" c 195 "$i" \
        || die "cannot create the fake GPU device $dev (mknod); $STATE must be on a file system that allows device nodes"
    done
  done
}

# Exit status 0 when the configuration changed.
ensure_slurm_files() {
  local k changed=1
  mkdir -p "$SLURM_ETC" "$STATE/slurm" "$STATE/nodes"
  install -d -o slurm -g slurm -m 0755 "$STATE/slurm/ctld" "$STATE/slurm/log" "$STATE/slurm/run" "$STATE/slurm/jobcomp"
  for k in ${!NODE[*]}; do install -d -m 0755 "${NODE_DIR[k]}" "${NODE_DIR[k]}/spool"; done
  ensure_fake_gpus
  check_ours "$SLURM_ETC/slurm.conf"
  check_ours "$SLURM_ETC/gres.conf"
  slurm_conf | write_if_changed "$SLURM_ETC/slurm.conf" 0644 && changed=0
  gres_conf | write_if_changed "$SLURM_ETC/gres.conf" 0644 && changed=0
  return $changed
}

# Slurm clients retry a missing controller for a long time: every call is bounded.
ctl_answers() { timeout 5 scontrol ping 2>/dev/null | grep 'is UP' >/dev/null; }

# "NAME STATE" for every node, as sinfo sees it (idle, mix, alloc, down*, drain, ...).
node_states() { timeout 5 sinfo -h -N -o '%N %t' 2>/dev/null | sort -u; }

node_state() { node_states | awk -v n="$1" '$1 == n {print $2}'; }

node_is_up() { case "$(node_state "$1")" in idle|mix|alloc|comp) return 0 ;; *) return 1 ;; esac; }

start_slurmctld() {
  slurmctld_pid >/dev/null && return 0
  rm -f "$(slurmctld_pidfile)"
  # Daemonizes, drops to user slurm and recovers its saved state (jobs, node states).
  /usr/sbin/slurmctld 9>&- || die "slurmctld does not start; see $STATE/slurm/log/slurmctld.log"
}

wait_for_slurmctld() {
  local deadline=$((SECONDS + 30))
  while [ $SECONDS -lt $deadline ]; do
    ctl_answers && return 0
    slurmctld_pid >/dev/null || die "slurmctld exited; see $STATE/slurm/log/slurmctld.log"
    sleep 0.1
  done
  die "slurmctld does not answer on $CONTROLLER_ADDRESS:$SLURMCTLD_PORT; see $STATE/slurm/log/slurmctld.log"
}

stop_slurmctld() {
  local pid
  if pid=$(slurmctld_pid); then stop_pid "$pid" 30; fi
  rm -f "$(slurmctld_pidfile)"
}

start_slurmd() {
  local k=$1 name
  name=${NODE[k]}
  slurmd_pid "$k" >/dev/null && return 0
  rm -f "${NODE_DIR[k]}/slurmd.pid"
  # The node's own network namespace (nsenter, not "ip netns exec", which also remounts /sys) and its own hostname
  # (unshare --uts); slurmd daemonizes and writes its pid file.
  nsenter --net="/run/netns/$name" unshare --uts sh -c "hostname '$name' && exec /usr/sbin/slurmd -N '$name'" 9>&- \
    || die "slurmd for $name does not start; see ${NODE_DIR[k]}/slurmd.log"
}

stop_slurmd() {
  local pid
  if pid=$(slurmd_pid "$1"); then stop_pid "$pid" 10; fi
}

# wait_for_nodes up: until every node is idle (or busy), registered with a valid configuration; nodes set down or
# drained (by a test, or an earlier bad configuration) are resumed. wait_for_nodes answer: until every node
# answers the controller, in whatever state it is (a node a test set down stays down).
wait_for_nodes() {
  local mode=$1 k states state all deadline=$((SECONDS + 60))
  while [ $SECONDS -lt $deadline ]; do
    all=0
    states=$(node_states)
    for k in ${!NODE[*]}; do
      state=$(echo "$states" | awk -v n="${NODE[k]}" '$1 == n {print $2}')
      case "$mode:$state" in
        *:idle|*:mix|*:alloc|*:comp) ;;
        answer:*'*'|answer:unk*|answer:) all=1 ;;
        answer:*) ;;
        up:down|up:drain|up:drng|up:drained|up:fail|up:inval)
          timeout 5 scontrol update nodename="${NODE[k]}" state=resume >/dev/null 2>&1 || true
          all=1 ;;
        *) all=1 ;;
      esac
    done
    [ $all = 0 ] && return 0
    sleep 0.2
  done
  die "Slurm nodes are not ready: $(node_states | tr '\n' ' '); see $STATE/slurm/log/slurmctld.log and $STATE/nodes/*/slurmd.log"
}

ensure_slurm() {
  local k
  if ensure_slurm_files; then
    # A new configuration: daemons that run with an older one restart (their saved state stays).
    for k in ${!NODE[*]}; do stop_slurmd "$k"; done
    stop_slurmctld
  fi
  start_slurmctld
  for k in ${!NODE[*]}; do start_slurmd "$k"; done
}

forget_slurm_jobs() {
  local k
  rm -rf "${STATE:?}/slurm/ctld" "$STATE/slurm/jobcomp"
  for k in ${!NODE[*]}; do rm -rf "${NODE_DIR[k]}/spool" "${NODE_DIR[k]}/slurmd.pid"; done
}

# --- Grid Engine ---------------------------------------------------------------------------------------------
export SGE_ROOT=$GE_ROOT SGE_CELL=$GE_CELL

ge_answers() { timeout 5 qconf -sh >/dev/null 2>&1; }

# The qmaster writes its pid into its spool directory, not where the init script looks (/var/run/gridengine): the
# init script can neither see a running qmaster (its "start" starts a second one) nor stop it.
ge_master_pid() {
  local spool
  spool=$(awk '$1 == "qmaster_spool_dir" {print $2}' "$GE_ROOT/$GE_CELL/common/bootstrap" 2>/dev/null)
  pid_of "${spool:-/var/spool/gridengine/qmaster}/qmaster.pid" sge_qmaster
}

ge_execd_pid() { pid_of /var/run/gridengine/execd.pid sge_execd; }

# With the stock /etc/hosts every client is refused: 127.0.0.1 resolves to "localhost", not to this host's name.
# host_aliases makes both names one host, without a change to /etc/hosts.
ensure_ge_host_aliases() {
  local file=$GE_ROOT/$GE_CELL/common/host_aliases
  echo "$HOST localhost" | write_if_changed "$file" 0644 || return 1
  chown sgeadmin:sgeadmin "$file"
}

start_ge_master() {
  local pid
  if ! pid=$(ge_master_pid); then
    /etc/init.d/gridengine-master start >/dev/null 9>&- \
      || die "sge_qmaster does not start; see /var/spool/gridengine/qmaster/messages"
    touch "$STATE/ge-master.ours"
  fi
  local deadline=$((SECONDS + 60))
  while [ $SECONDS -lt $deadline ]; do ge_answers && return 0; sleep 0.2; done
  die "sge_qmaster does not answer; see /var/spool/gridengine/qmaster/messages (a client refused as \"localhost\" means $GE_ROOT/$GE_CELL/common/host_aliases is wrong)"
}

# The orderly shutdown (qconf -km, or TERM) takes the qmaster about 9 s, whatever it has to do: ask for it early,
# wait for it late. A KILL would leave its Berkeley DB spool to recover.
ask_ge_master_to_stop() {
  if ge_master_pid >/dev/null; then timeout 10 qconf -km >/dev/null 2>&1 || true; fi
}

# wait_for_ge_master_to_stop [PID]: the qmaster that was asked to stop (or the one running now) is gone.
wait_for_ge_master_to_stop() {
  local pid=${1:-} deadline=$((SECONDS + 30))
  [ -n "$pid" ] || pid=$(ge_master_pid) || true
  if [ -n "$pid" ]; then
    while [ $SECONDS -lt $deadline ] && kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = sge_qmaster ] && stop_pid "$pid"
  fi
  rm -f "$STATE/ge-master.ours"
}

stop_ge_master() {
  local pid
  pid=$(ge_master_pid) || return 0
  ask_ge_master_to_stop
  wait_for_ge_master_to_stop "$pid"
}

start_ge_execd() {
  /etc/init.d/gridengine-exec start >/dev/null 9>&- \
    || die "sge_execd does not start; see /var/spool/gridengine/execd/*/messages"
  touch "$STATE/ge-exec.ours"
}

stop_ge_execd() {
  local pid
  if pid=$(ge_execd_pid); then stop_pid "$pid"; fi
  rm -f "$STATE/ge-exec.ours"
}

# The qmaster, and the clients, resolve the nodes' names through /etc/hosts (Grid Engine takes no addresses): one
# marked line per node, removed by "down". Rewritten in place, as /etc/hosts may be a mount point.
ensure_ge_node_names() {
  local k want
  want=$(grep -v -F "$HOSTS_MARK" /etc/hosts; for k in ${!NODE[*]}; do echo "${NODE_ADDR[k]} ${NODE[k]} $HOSTS_MARK"; done)
  [ "$want" = "$(cat /etc/hosts)" ] || printf '%s\n' "$want" >/etc/hosts
}

remove_ge_node_names() {
  local kept
  grep -q -F "$HOSTS_MARK" /etc/hosts 2>/dev/null || return 0
  kept=$(grep -v -F "$HOSTS_MARK" /etc/hosts)
  printf '%s\n' "$kept" >/etc/hosts
}

ge_node_dir() { echo "${NODE_DIR[$1]}/gridengine"; }

ge_node_execd_pid() {
  local pid
  pid=$(pid_of "$(ge_node_dir "$1")/run/execd.pid" sge_execd) || return 1
  net_ns_pids "${NODE[$1]}" | grep -x "$pid" >/dev/null || return 1
  echo "$pid"
}

# sge_execd on a node: in the node's network namespace, under its name, with its own /etc/hosts (this machine is
# the bridge's address there) and its own /var/run/gridengine for its pid file. sge_execd writes that file where
# SGE_EXECD_PIDFILE says (the init script sets it), else into its spool directory, where ge_node_execd_pid never
# looked: a second "up" started another execd, which failed ("can't bind socket"). Its spool directory is
# /var/spool/gridengine/execd/NODE, beside this host's.
start_ge_node_execd() {
  local k=$1 dir j
  ge_node_execd_pid "$k" >/dev/null && return 0
  dir=$(ge_node_dir "$k")
  install -d -m 0755 "$dir"
  install -d -o sgeadmin -g sgeadmin -m 0755 "$dir/run"
  rm -f "$dir/run/execd.pid"
  { echo "127.0.0.1 localhost"; echo "$CONTROLLER_ADDRESS $HOST"
    for j in ${!NODE[*]}; do echo "${NODE_ADDR[j]} ${NODE[j]}"; done; } | write_if_changed "$dir/hosts" 0644 || true
  nsenter --net="/run/netns/${NODE[k]}" unshare --uts --mount sh -c "hostname '${NODE[k]}' \
      && mount --bind '$dir/hosts' /etc/hosts && mount --bind '$dir/run' /var/run/gridengine \
      && SGE_EXECD_PIDFILE=/var/run/gridengine/execd.pid exec /usr/lib/gridengine/sge_execd" 9>&- \
    || die "sge_execd for ${NODE[k]} does not start; see /var/spool/gridengine/execd/${NODE[k]}/messages"
}

# Exit status 0 when the nodes' configuration below is in place already (one qconf call; -sconf last, as its
# "#HOST:" headers mark the host-local configurations).
ge_nodes_configured() {
  local out k
  out=$(timeout 30 qconf -sh -sel -shgrp "$GE_NODE_GROUP" -sp "$GE_NODE_PE" -sq "$GE_NODE_QUEUE" \
    -sconf "$(ge_host_ranges | awk '{print $1}' | paste -s -d ,)" 2>/dev/null) || return 1
  for k in ${!NODE[*]}; do
    [ "$(echo "$out" | grep -c -x "${NODE[k]}")" -ge 2 ] || return 1
  done
  [ "$(echo "$out" | ge_attr hostlist)" = "$NODE_LIST" ] \
    && [ "$(echo "$out" | ge_attr allocation_rule)" = 1 ] && [ "$(echo "$out" | ge_attr control_slaves)" = TRUE ] \
    && [ "$(echo "$out" | ge_attr qname)" = "$GE_NODE_QUEUE" ] \
    && [ "$(echo "$out" | ge_attr tmpdir | tr -d ' ')" = "$(ge_node_queue_tmpdir)" ] \
    && [ "$(echo "$out" | awk '/^#[^ ]+:$/ {name = substr($1, 2, length($1) - 2)} $1 == "gid_range" && name != "" {print name, $2}')" \
      = "$(ge_host_ranges)" ]
}

# The nodes as Grid Engine execution hosts, in their own host group, queue and parallel environment; each piece set
# only where it is missing or differs.
configure_ge_nodes() {
  local dir k cur
  dir=$(mktemp -d "$STATE/.ge.XXXXXX")
  for k in ${!NODE[*]}; do
    qconf -sh 2>/dev/null | grep -x "${NODE[k]}" >/dev/null || qconf_quiet -ah "${NODE[k]}"
    if ! qconf -se "${NODE[k]}" >/dev/null 2>&1; then
      printf 'hostname %s\nload_scaling NONE\ncomplex_values NONE\nuser_lists NONE\nxuser_lists NONE\nprojects NONE\nxprojects NONE\nusage_scaling NONE\nreport_variables NONE\n' \
        "${NODE[k]}" >"$dir/exechost"
      qconf_quiet -Ae "$dir/exechost"
    fi
  done
  if ! cur=$(qconf -shgrp "$GE_NODE_GROUP" 2>/dev/null); then
    printf 'group_name %s\nhostlist %s\n' "$GE_NODE_GROUP" "$NODE_LIST" >"$dir/nodes"
    qconf_quiet -Ahgrp "$dir/nodes"
  elif [ "$(echo "$cur" | ge_attr hostlist)" != "$NODE_LIST" ]; then
    qconf_quiet -mattr hostgroup hostlist "$NODE_LIST" "$GE_NODE_GROUP"
  fi
  ge_pe_file "$GE_NODE_PE" 1 | sed 's/^control_slaves .*/control_slaves     TRUE/' >"$dir/pe"
  if ! cur=$(qconf -sp "$GE_NODE_PE" 2>/dev/null); then
    qconf_quiet -Ap "$dir/pe"
  elif [ "$(echo "$cur" | ge_attr allocation_rule)" != 1 ] || [ "$(echo "$cur" | ge_attr control_slaves)" != TRUE ]; then
    qconf_quiet -Mp "$dir/pe"
  fi
  if ! qconf -sq "$GE_NODE_QUEUE" >/dev/null 2>&1; then
    ge_queue_file | sed -e "s/^qname .*/qname                 $GE_NODE_QUEUE/" \
      -e "s/^hostlist .*/hostlist              $GE_NODE_GROUP/" -e "s/^pe_list .*/pe_list               smp $GE_NODE_PE/" \
      >"$dir/queue"
    qconf_quiet -Aq "$dir/queue"
  fi
  separate_ge_hosts "$dir"
  rm -rf "$dir"
}

# Grid Engine tells a job's processes from all others by an additional group id that the job's execd takes from
# gid_range (the lowest id it has free), and when the job ends its shepherd kills every process that still carries
# that id (ENABLE_ADDGRP_KILL, on by default); the execd's usage collector counts the processes carrying it. On
# separate machines each kernel holds one execd's ids. Here every execd shares one kernel, and with the one global
# range they all handed out the same ids: the first job to end on one host killed the jobs that held its id on the
# others (exit 137, qacct "failed 100 : assumedly after job"; 18 of 27 jobs pinned three to a host). So each host
# has a range of its own, in its host-local configuration. ge_gid_range I: the range of host I (0 = this host,
# K = node K).
ge_gid_range() {
  local first=$((GE_GID_BASE + $1 * GE_GIDS_PER_HOST))
  echo "$first-$((first + GE_GIDS_PER_HOST - 1))"
}

# "NAME GID_RANGE" for each Grid Engine execution host: this one, then the nodes.
ge_host_ranges() {
  local k
  echo "$HOST $(ge_gid_range 0)"
  for k in ${!NODE[*]}; do echo "${NODE[k]} $(ge_gid_range "$k")"; done
}

# The ids must be no group's: a job would gain that group's rights, and a job's end would kill its processes.
check_ge_gids_free() {
  local last=$((GE_GID_BASE + (NODE_COUNT + 1) * GE_GIDS_PER_HOST - 1)) taken
  taken=$(getent group | awk -F: -v lo="$GE_GID_BASE" -v hi="$last" '$3 >= lo && $3 <= hi {print $1 "(" $3 ")"}' \
    | tr '\n' ' ')
  [ -z "$taken" ] \
    || die "the groups $taken have ids in $GE_GID_BASE-$last, which the Grid Engine hosts give their jobs; remove those groups or set GE_GID_BASE in scripts/test-cluster.sh to a free range"
}

# A job's scratch directory is TMPDIR/JOB.TASK.QUEUE on each of its hosts: a job on both nodes (onepernode) would
# have one directory, made and removed by two execds. Each node has a tmpdir of its own; this host keeps /tmp.
ge_node_tmpdir() { echo "$(ge_node_dir "$1")/tmp"; }

ge_node_queue_tmpdir() {
  local k value=/tmp
  for k in ${!NODE[*]}; do value="$value,[${NODE[k]}=$(ge_node_tmpdir "$k")]"; done
  echo "$value"
}

ensure_ge_node_tmpdirs() {
  local k
  for k in ${!NODE[*]}; do install -d -m 0755 "$(ge_node_dir "$k")" && install -d -m 1777 "$(ge_node_tmpdir "$k")"; done
}

# separate_ge_hosts DIR: each host's own gid_range (other local settings kept), the hosts whose range it set in
# GE_NEW_RANGES; each node's own tmpdir. DIR is a scratch directory.
GE_NEW_RANGES=""
GE_HELD=$STATE/ge-held-hosts
separate_ge_hosts() {
  local dir=$1 name range k
  check_ge_gids_free
  while read -r name range; do
    if set_ge_conf "$name" gid_range "$range" "$dir"; then GE_NEW_RANGES="$GE_NEW_RANGES $name"; fi
  done < <(ge_host_ranges)
  if [ "$(qconf -sq "$GE_NODE_QUEUE" | ge_attr tmpdir | tr -d ' ')" != "$(ge_node_queue_tmpdir)" ]; then
    for k in ${!NODE[*]}; do
      qconf_quiet -mattr queue tmpdir "$(ge_node_tmpdir "$k")" "$GE_NODE_QUEUE@${NODE[k]}"
    done
  fi
}

# stop_ge_host_execd NAME: the execd of this host or of node NAME stops (its jobs run on).
stop_ge_host_execd() {
  local k pid
  if [ "$1" = "$HOST" ]; then stop_ge_execd; return 0; fi
  for k in ${!NODE[*]}; do
    if [ "$1" = "${NODE[k]}" ] && pid=$(ge_node_execd_pid "$k"); then stop_pid "$pid"; fi
  done
}

# Undoes separate_ge_hosts' configurations (down): a host's local configuration that holds nothing but its
# gid_range is ours to remove; one with more settings was there before, and stays.
remove_ge_host_configs() {
  local name keys
  ge_answers || return 0
  for name in $(ge_host_ranges | awk '{print $1}'); do
    keys=$(timeout 10 qconf -sconf "$name" 2>/dev/null | ge_unwrap | awk '!/^#/ && NF {print $1}') || continue
    if [ "$keys" = gid_range ]; then timeout 10 qconf -dconf "$name" >/dev/null 2>&1 || true; fi
  done
}

# Grid Engine objects ("qconf -s..." output) with their continuation lines joined.
ge_unwrap() { sed -e ':a' -e '/\\$/N; s/\\\n[[:space:]]*/ /; ta'; }

# One attribute of a Grid Engine object.
ge_attr() { ge_unwrap | awk -v k="$1" '$1 == k {$1 = ""; sub(/^ +/, ""); print; exit}'; }

# set_ge_conf NAME KEY VALUE DIR: KEY of the configuration NAME ("global" or a host's local one) set to VALUE, its
# other settings kept; a host without a local configuration gets one. DIR is a scratch directory. Exit status 0
# when the configuration changed.
set_ge_conf() {
  local name=$1 key=$2 value=$3 file=$4/conf/$1 cur
  mkdir -p "$4/conf"
  # The file for -Aconf and -Mconf must be named after the configuration.
  if cur=$(qconf -sconf "$name" 2>/dev/null); then
    [ "$(echo "$cur" | ge_attr "$key")" = "$value" ] && return 1
    { echo "$cur" | ge_unwrap | grep -v -e '^#' -e "^$key "; echo "$key $value"; } >"$file"
    qconf_quiet -Mconf "$file"
  else
    echo "$key $value" >"$file"
    qconf_quiet -Aconf "$file"
  fi
}

ge_pe_file() {
  cat <<EOF
pe_name            $1
slots              $GE_PE_SLOTS
user_lists         NONE
xuser_lists        NONE
start_proc_args    NONE
stop_proc_args     NONE
allocation_rule    $2
control_slaves     FALSE
job_is_first_task  TRUE
urgency_slots      min
accounting_summary FALSE
qsort_args         NONE
EOF
}

ge_queue_file() {
  cat <<EOF
qname                 $GE_QUEUE
hostlist              @allhosts
seq_no                0
load_thresholds       NONE
suspend_thresholds    NONE
nsuspend              1
suspend_interval      00:05:00
priority              0
min_cpu_interval      00:05:00
processors            UNDEFINED
qtype                 BATCH INTERACTIVE
ckpt_list             NONE
pe_list               smp mpi
rerun                 FALSE
slots                 $GE_SLOTS
tmpdir                /tmp
shell                 /bin/bash
prolog                NONE
epilog                NONE
shell_start_mode      posix_compliant
starter_method        NONE
suspend_method        NONE
resume_method         NONE
terminate_method      NONE
notify                00:00:60
owner_list            NONE
user_lists            NONE
xuser_lists           NONE
subordinate_list      NONE
complex_values        NONE
projects              NONE
xprojects             NONE
calendar              NONE
initial_state         default
s_rt                  INFINITY
h_rt                  INFINITY
s_cpu                 INFINITY
h_cpu                 INFINITY
s_fsize               INFINITY
h_fsize               INFINITY
s_data                INFINITY
h_data                INFINITY
s_stack               INFINITY
h_stack               INFINITY
s_core                INFINITY
h_core                INFINITY
s_rss                 INFINITY
h_rss                 INFINITY
s_vmem                INFINITY
h_vmem                INFINITY
EOF
}

# qconf with a file argument; its chatter goes away unless it fails.
qconf_quiet() {
  local out
  out=$(qconf "$@" 2>&1) || die "qconf $* failed: $out"
}

# Exit status 0 when the configuration below is in place already: one qconf call reads it all (each qconf call is
# a round trip to the qmaster, seconds on a loaded machine).
ge_configured() {
  local out
  out=$(timeout 30 qconf -ss -sel -shgrp @allhosts -sp smp -sp mpi -sq "$GE_QUEUE" -ssconf -sconf global 2>/dev/null) \
    || return 1
  echo "$out" | ge_unwrap | awk -v host="$HOST" -v q="$GE_QUEUE" \
      -v slots="$GE_SLOTS" -v peslots="$GE_PE_SLOTS" '
    /^group_name / {obj = "hgrp:" $2; next}
    /^pe_name /    {obj = "pe:" $2; next}
    /^qname /      {obj = "q:" $2; next}
    /^algorithm /  {obj = "sconf"}
    /^#global:/    {obj = "global"; next}
    obj == "" && NF == 1 {if ($1 == host) hostlists++; next}
    {k = $1; $1 = ""; sub(/^ +/, ""); v[obj, k] = $0}
    END {
      ok = hostlists == 2 \
        && (" " v["hgrp:@allhosts", "hostlist"] " ") ~ (" " host " ") \
        && v["pe:smp", "slots"] == peslots && v["pe:smp", "allocation_rule"] == "$pe_slots" \
        && v["pe:mpi", "slots"] == peslots && v["pe:mpi", "allocation_rule"] == "$round_robin" \
        && v["q:" q, "hostlist"] == "@allhosts" && v["q:" q, "slots"] == slots \
        && v["q:" q, "shell"] == "/bin/bash" && v["q:" q, "load_thresholds"] == "NONE" \
        && (" " v["q:" q, "pe_list"] " ") ~ / smp / && (" " v["q:" q, "pe_list"] " ") ~ / mpi / \
        && v["sconf", "schedule_interval"] == "0:0:1" \
        && v["sconf", "flush_submit_sec"] == "1" && v["sconf", "flush_finish_sec"] == "1" \
        && v["global", "reporting_params"] ~ /accounting=true/ \
        && v["global", "reporting_params"] ~ /accounting_flush_time=00:00:00/ \
        && v["global", "reporting_params"] ~ /(^| )flush_time=00:00:01/
      exit !ok
    }'
}

# The configuration the tests rely on, each piece set only where it differs (qconf refuses "changes" that change
# nothing, and other settings of an existing installation stay as they are).
configure_ge() {
  local dir pe rule cur want
  dir=$(mktemp -d "$STATE/.ge.XXXXXX")
  qconf -ss 2>/dev/null | grep -x "$HOST" >/dev/null || qconf_quiet -as "$HOST"
  if ! qconf -se "$HOST" >/dev/null 2>&1; then
    printf 'hostname %s\nload_scaling NONE\ncomplex_values NONE\nuser_lists NONE\nxuser_lists NONE\nprojects NONE\nxprojects NONE\nusage_scaling NONE\nreport_variables NONE\n' \
      "$HOST" >"$dir/exechost"
    qconf_quiet -Ae "$dir/exechost"
  fi
  if ! qconf -shgrp @allhosts >/dev/null 2>&1; then
    printf 'group_name @allhosts\nhostlist %s\n' "$HOST" >"$dir/allhosts"
    qconf_quiet -Ahgrp "$dir/allhosts"
  elif ! qconf -shgrp @allhosts | ge_attr hostlist | tr ' ' '\n' | grep -x "$HOST" >/dev/null; then
    qconf_quiet -aattr hostgroup hostlist "$HOST" @allhosts
  fi
  for pe in smp mpi; do
    [ "$pe" = smp ] && rule='$pe_slots' || rule='$round_robin'
    ge_pe_file "$pe" "$rule" >"$dir/$pe"
    if ! cur=$(qconf -sp "$pe" 2>/dev/null); then
      qconf_quiet -Ap "$dir/$pe"
    elif [ "$(echo "$cur" | ge_attr slots)" != "$GE_PE_SLOTS" ] || [ "$(echo "$cur" | ge_attr allocation_rule)" != "$rule" ]; then
      qconf_quiet -Mp "$dir/$pe"
    fi
  done
  if ! cur=$(qconf -sq "$GE_QUEUE" 2>/dev/null); then
    ge_queue_file >"$dir/queue"
    qconf_quiet -Aq "$dir/queue"
  else
    [ "$(echo "$cur" | ge_attr hostlist)" = "@allhosts" ] || qconf_quiet -mattr queue hostlist @allhosts "$GE_QUEUE"
    [ "$(echo "$cur" | ge_attr slots)" = "$GE_SLOTS" ] || qconf_quiet -mattr queue slots "$GE_SLOTS" "$GE_QUEUE"
    [ "$(echo "$cur" | ge_attr shell)" = /bin/bash ] || qconf_quiet -mattr queue shell /bin/bash "$GE_QUEUE"
    [ "$(echo "$cur" | ge_attr load_thresholds)" = NONE ] || qconf_quiet -mattr queue load_thresholds NONE "$GE_QUEUE"
    cur=$(echo "$cur" | ge_attr pe_list)
    for pe in smp mpi; do
      echo "$cur" | tr ' ' '\n' | grep -x "$pe" >/dev/null || qconf_quiet -aattr queue pe_list "$pe" "$GE_QUEUE"
    done
  fi
  # The scheduler runs every second and sees submits and ends at once (default: every 15 s).
  cur=$(qconf -ssconf)
  want=$(echo "$cur" | sed -e 's/^schedule_interval .*/schedule_interval                 0:0:1/' \
    -e 's/^flush_submit_sec .*/flush_submit_sec                  1/' -e 's/^flush_finish_sec .*/flush_finish_sec                  1/')
  if [ "$cur" != "$want" ]; then
    echo "$want" >"$dir/sconf"
    qconf_quiet -Msconf "$dir/sconf"
  fi
  # qacct sees a job as soon as it ends.
  set_ge_conf global reporting_params \
    "accounting=true reporting=false flush_time=00:00:01 accounting_flush_time=00:00:00 joblog=false sharelog=00:00:00" \
    "$dir" || true
  rm -rf "$dir"
}

# The queue instance on this host takes jobs: it is there, its execd reports load, and it is in no state (a, u, E,
# d, s, ...).
ge_queue_up() {
  local queue=${1:-$GE_QUEUE} host=${2:-$HOST}
  timeout 5 qstat -f -q "$queue" 2>/dev/null | awk -v q="$queue@$host" '$1 == q {found = 1; if (NF == 5 && $4 != "-NA-") ok = 1} END {exit !(found && ok)}'
}

ge_nodes_up() {
  local k
  for k in ${!NODE[*]}; do ge_queue_up "$GE_NODE_QUEUE" "${NODE[k]}" || return 1; done
}

ensure_ge() {
  local k name
  if ensure_ge_host_aliases && ge_master_pid >/dev/null; then
    # A running qmaster reads host_aliases only at start.
    stop_ge_execd
    stop_ge_master
  fi
  ensure_ge_node_names
  ensure_ge_node_tmpdirs
  start_ge_master
  ge_configured || configure_ge
  ge_nodes_configured || configure_ge_nodes
  # An execd reads its gid_range when it starts, and never again: one whose range was just set starts again (a
  # stopped execd leaves its jobs running, and the new one takes them over). Meanwhile its queues take no job: one
  # sent to an execd that stops or is not back yet stays in transfer ("t") for good.
  for name in $GE_NEW_RANGES; do
    echo "$name" >>"$GE_HELD"
    timeout 10 qmod -d "*@$name" >/dev/null 2>&1 || true
    stop_ge_host_execd "$name"
  done
  ge_execd_pid >/dev/null || start_ge_execd
  for k in ${!NODE[*]}; do start_ge_node_execd "$k"; done
  release_ge_held_hosts
}

# The queues of the hosts in GE_HELD take jobs again once their execd reports (also after an "up" that failed in
# between).
release_ge_held_hosts() {
  local name deadline out
  [ -f "$GE_HELD" ] || return 0
  for name in $(sort -u "$GE_HELD"); do
    deadline=$((SECONDS + 60))
    until ge_execd_reports "$name"; do
      [ $SECONDS -lt $deadline ] || die "the Grid Engine execd of $name does not report after its restart; see /var/spool/gridengine/execd/*/messages"
      sleep 0.2
    done
    out=$(timeout 10 qmod -e "*@$name" 2>&1) || die "qmod -e '*@$name' failed: $out"
  done
  rm -f "$GE_HELD"
}

# Some queue instance on host NAME shows a load: its execd is registered and reports.
ge_execd_reports() {
  timeout 5 qstat -f 2>/dev/null | awk -v h="@$1" '$1 ~ /@/ && substr($1, index($1, "@")) == h && $4 != "-NA-" {ok = 1} END {exit !ok}'
}

wait_for_ge() {
  local deadline=$((SECONDS + 60))
  while [ $SECONDS -lt $deadline ]; do ge_queue_up && ge_nodes_up && return 0; sleep 0.2; done
  ge_queue_up || die "Grid Engine queue $GE_QUEUE@$HOST is not up: $(timeout 5 qstat -f -q "$GE_QUEUE" 2>&1 | tail -n +3 | head -1); see /var/spool/gridengine/qmaster/messages and /var/spool/gridengine/execd/*/messages"
  die "Grid Engine queue $GE_NODE_QUEUE is not up on every node: $(timeout 5 qstat -f -q "$GE_NODE_QUEUE" 2>&1 | grep "^$GE_NODE_QUEUE@" | tr '\n' ' '); see /var/spool/gridengine/execd/gantry-c*/messages"
}

# Only what "up" started goes (a Grid Engine that was running before belongs to someone else). Prints the pid of a
# qmaster that was asked to stop, for wait_for_ge_master_to_stop.
begin_stop_ge() {
  local pid
  if [ -f "$STATE/ge-exec.ours" ]; then
    # Its jobs go with it, as with the Slurm nodes.
    if ge_answers; then timeout 10 qconf -kej "$HOST" >/dev/null 2>&1 || true; fi
    stop_ge_execd
  fi
  if [ -f "$STATE/ge-master.ours" ] && pid=$(ge_master_pid); then
    ask_ge_master_to_stop
    echo "$pid"
  fi
  return 0
}

# --- the login sshd ------------------------------------------------------------------------------------------
login_dir() { echo "$STATE/login"; }
login_pid() { pid_of "$(login_dir)/sshd.pid" sshd; }
login_listening() { net_listening "$LOGIN_ADDRESS" "$LOGIN_PORT"; }

write_login_sshd_config() {
  local dir
  dir=$(login_dir)
  write_if_changed "$dir/sshd_config" 0600 <<EOF || true
$GENERATED: the test cluster's login node.
Port $LOGIN_PORT
ListenAddress $LOGIN_ADDRESS
ListenAddress $CONTROLLER_ADDRESS
HostKey $dir/ssh_host_ed25519_key
PidFile $dir/sshd.pid
UsePAM no
PubkeyAuthentication yes
AuthenticationMethods publickey
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin no
AllowUsers $TEST_USER
AuthorizedKeysFile .ssh/authorized_keys
StrictModes yes
Subsystem sftp internal-sftp
MaxStartups 64:30:128
LogLevel INFO
# As on the test hosts: the login shell is level 2, so a build machine's root .bashrc does not run for each command.
SetEnv SHLVL=1
EOF
}

start_login_sshd() {
  local dir
  dir=$(login_dir)
  mkdir -p "$dir"
  chmod 0700 "$dir"
  [ -f "$dir/ssh_host_ed25519_key" ] \
    || ssh-keygen -q -t ed25519 -N '' -C "gantry-login" -f "$dir/ssh_host_ed25519_key"
  write_login_sshd_config
  mkdir -p /run/sshd
  chmod 0755 /run/sshd
  login_pid >/dev/null && login_listening && return 0
  /usr/sbin/sshd -t -f "$dir/sshd_config" || die "sshd rejects $dir/sshd_config"
  rm -f "$dir/sshd.pid"
  /usr/sbin/sshd -f "$dir/sshd_config" -E "$dir/sshd.log" 9>&- \
    || die "the login sshd does not start; see $dir/sshd.log (is port $LOGIN_PORT taken? ss -tlnp 'sport = :$LOGIN_PORT')"
  local deadline=$((SECONDS + 10))
  while [ $SECONDS -lt $deadline ]; do login_listening && return 0; sleep 0.1; done
  die "the login sshd does not accept connections on $LOGIN_ADDRESS:$LOGIN_PORT; see $dir/sshd.log"
}

stop_login_sshd() {
  local pid
  if pid=$(login_pid); then stop_pid "$pid"; fi
  rm -f "$(login_dir)/sshd.pid"
}

# Pids of the sshd processes that serve established connections to the login port (root namespace only: the test
# hosts' connections live in their own namespaces).
login_session_pids() {
  ss -Htnp state established "( sport = :$LOGIN_PORT )" 2>/dev/null \
    | grep -o '"sshd",pid=[0-9]*' | sed 's/.*pid=//' | sort -u
}

login_fingerprint() { ssh-keygen -l -E sha256 -f "$(login_dir)/ssh_host_ed25519_key.pub" | awk '{print $2}'; }

# --- the summary ---------------------------------------------------------------------------------------------
write_summary() {
  local pub tmp
  pub=$(awk '{print $1" "$2}' "$(login_dir)/ssh_host_ed25519_key.pub")
  printf '[%s]:%s %s\n[%s]:%s %s\n' "$LOGIN_ADDRESS" "$LOGIN_PORT" "$pub" "$CONTROLLER_ADDRESS" "$LOGIN_PORT" "$pub" \
    | write_if_changed "$STATE/known_hosts" 0644 || true
  tmp=$(mktemp "$STATE/.cluster.env.XXXXXX")
  cat >"$tmp" <<EOF
# The Gantry test cluster (scripts/test-cluster.sh); shell KEY=value lines.
LOGIN_ADDRESS=$LOGIN_ADDRESS
LOGIN_BRIDGE_ADDRESS=$CONTROLLER_ADDRESS
LOGIN_PORT=$LOGIN_PORT
LOGIN_USER=$TEST_USER
LOGIN_IDENTITY=$HOSTS_STATE/client_ed25519
LOGIN_FINGERPRINT=$(login_fingerprint)
LOGIN_KNOWN_HOSTS=$STATE/known_hosts
SLURM_CONF=$SLURM_ETC/slurm.conf
SLURM_CONTROLLER=$HOST
SLURM_NODES="$NODE_LIST"
SLURM_NODE_ADDRESSES="${NODE_ADDR[*]}"
SLURM_PARTITIONS="$PARTITIONS"
SLURM_DEFAULT_PARTITION=${PARTITIONS%% *}
SLURM_CPUS_PER_NODE=$CPUS_PER_NODE
SLURM_MEMORY_PER_NODE_MB=$MEMORY_PER_NODE_MB
SLURM_GPUS_PER_NODE=$GPUS_PER_NODE
SLURM_MIN_JOB_AGE=$MIN_JOB_AGE
SLURM_JOBCOMP=$STATE/slurm/jobcomp/jobcomp.txt
GE_ROOT=$GE_ROOT
GE_CELL=$GE_CELL
GE_HOST=$HOST
GE_QUEUE=$GE_QUEUE
GE_SLOTS=$GE_SLOTS
GE_PES="smp mpi $GE_NODE_PE"
GE_NODE_QUEUE=$GE_NODE_QUEUE
GE_NODE_PE=$GE_NODE_PE
GE_NODES="$NODE_LIST"
SHARED_DIR=$(shared_dir)
EOF
  chmod 0644 "$tmp"
  mv -f "$tmp" "$STATE/cluster.env"
}

# --- commands ------------------------------------------------------------------------------------------------
cmd_up() {
  local start=$SECONDS
  [[ "$MIN_JOB_AGE" =~ ^[0-9]+$ ]] || die "GANTRY_TEST_CLUSTER_MIN_JOB_AGE must be a number of seconds, got '$MIN_JOB_AGE'"
  require_tools
  mkdir -p "$STATE"
  chmod 0755 "$STATE"
  ensure_user
  ensure_network
  ensure_munge
  ensure_slurm
  ensure_ge
  start_login_sshd
  wait_for_slurmctld
  wait_for_nodes up
  wait_for_ge
  write_summary
  cat "$STATE/cluster.env"
  note "up in $((SECONDS - start)) s"
}

# Needs none of the packages: it also runs as the cleanup of a test run that failed before "up".
cmd_down() {
  local k pid qmaster
  stop_login_sshd
  for pid in $(login_session_pids); do kill -9 "$pid" 2>/dev/null || true; done
  remove_ge_host_configs
  qmaster=$(begin_stop_ge)
  # A node's namespace holds its slurmd, slurmstepds and job processes: they all go with it.
  for k in ${!NODE[*]}; do net_remove_namespace "${NODE[k]}" "${NODE_VETH[k]}"; done
  stop_slurmctld
  forget_slurm_jobs
  for k in ${!NODE[*]}; do rm -rf "$(ge_node_tmpdir "$k")"; done
  [ -f "$STATE/ge-master.ours" ] && wait_for_ge_master_to_stop "$qmaster"
  remove_ge_node_names
  stop_munge
  # The bridge stays while the SSH test hosts (gantry-hK) use it.
  net_remove_bridge_if_unused
  rm -f "$STATE/cluster.env" "$STATE/known_hosts"
}

cmd_status() {
  local k rc=0 pid states="" state
  if pid=$(slurmctld_pid) && ctl_answers; then
    echo "slurmctld $HOST ($CONTROLLER_ADDRESS:$SLURMCTLD_PORT) up (pid $pid)"
    states=$(node_states)
  else
    echo "slurmctld $HOST ($CONTROLLER_ADDRESS:$SLURMCTLD_PORT) down"
    rc=1
  fi
  for k in ${!NODE[*]}; do
    state=$(echo "$states" | awk -v n="${NODE[k]}" '$1 == n {print $2}')
    if ! slurmd_pid "$k" >/dev/null; then
      echo "slurmd ${NODE[k]} (${NODE_ADDR[k]}) off${state:+ (controller: $state)}"
      rc=1
    else
      echo "slurmd ${NODE[k]} (${NODE_ADDR[k]}) ${state:-unknown}"
      case "$state" in idle|mix|alloc) ;; *) rc=1 ;; esac
    fi
  done
  if ge_queue_up; then
    echo "gridengine $GE_QUEUE@$HOST up"
  else
    echo "gridengine $GE_QUEUE@$HOST down"
    rc=1
  fi
  for k in ${!NODE[*]}; do
    if ge_queue_up "$GE_NODE_QUEUE" "${NODE[k]}"; then
      echo "gridengine $GE_NODE_QUEUE@${NODE[k]} up"
    else
      echo "gridengine $GE_NODE_QUEUE@${NODE[k]} down"
      rc=1
    fi
  done
  if pid=$(login_pid) && login_listening; then
    echo "login $LOGIN_ADDRESS:$LOGIN_PORT up (sshd pid $pid)"
  else
    echo "login $LOGIN_ADDRESS:$LOGIN_PORT down"
    rc=1
  fi
  return $rc
}

cmd_restart_slurmctld() {
  local start=$SECONDS
  require_tools
  slurmctld_pid >/dev/null || die "slurmctld is not running; run scripts/test-cluster.sh up"
  stop_slurmctld
  start_slurmctld
  wait_for_slurmctld
  wait_for_nodes answer
  note "slurmctld restarted in $((SECONDS - start)) s"
}

cmd_restart_login_sshd() {
  require_tools
  stop_login_sshd
  start_login_sshd
}

cmd_drop_login_sessions() {
  local pids
  require_tools
  pids=$(login_session_pids | tr '\n' ' ')
  # All in one kill, so that every connection ends at once; what the sessions started lives on.
  [ -n "${pids// /}" ] && kill -9 $pids 2>/dev/null || true
}

node_number() {
  local k
  for k in ${!NODE[*]}; do [ "${1:-}" = "${NODE[k]}" ] && { echo "$k"; return 0; }; done
  die "unknown Slurm node '${1:-}'; the nodes are: $NODE_LIST"
}

cmd_node_down() {
  local name=$1
  node_number "$name" >/dev/null
  require_tools
  ctl_answers || die "slurmctld does not answer; run scripts/test-cluster.sh up"
  timeout 10 scontrol update nodename="$name" state=down reason=gantry-test-eviction \
    || die "scontrol update nodename=$name state=down failed"
  local deadline=$((SECONDS + 15))
  while [ $SECONDS -lt $deadline ]; do
    case "$(node_state "$name")" in down*) return 0 ;; esac
    sleep 0.1
  done
  die "node $name is not down: $(node_state "$name")"
}

cmd_node_resume() {
  local name=$1
  node_number "$name" >/dev/null
  require_tools
  ctl_answers || die "slurmctld does not answer; run scripts/test-cluster.sh up"
  case "$(node_state "$name")" in
    idle|mix|alloc) return 0 ;;
  esac
  timeout 10 scontrol update nodename="$name" state=resume \
    || die "scontrol update nodename=$name state=resume failed"
  local deadline=$((SECONDS + 30))
  while [ $SECONDS -lt $deadline ]; do
    node_is_up "$name" && return 0
    sleep 0.1
  done
  die "node $name does not come back: $(node_state "$name"); see $STATE/nodes/$name/slurmd.log"
}

usage="usage: $0 up | down | status | restart-slurmctld | restart-login-sshd | drop-login-sessions | node-down NAME | node-resume NAME"
case "${1:-}" in
  up|down|status|restart-slurmctld|restart-login-sshd|drop-login-sessions) ;;
  node-down|node-resume) [ -n "${2:-}" ] || { echo "$usage" >&2; exit 2; } ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
require_root

(
  mkdir -p "$(dirname "$STATE")"
  # One change at a time: test runs of several modules may call "up" together. Every daemon is started with fd 9
  # closed ("9>&-"): munged keeps inherited descriptors open, and with them this lock, for as long as it runs.
  flock 9
  case "$1" in
    up) cmd_up ;;
    down) cmd_down ;;
    status) cmd_status ;;
    restart-slurmctld) cmd_restart_slurmctld ;;
    restart-login-sshd) cmd_restart_login_sshd ;;
    drop-login-sessions) cmd_drop_login_sessions ;;
    node-down) cmd_node_down "$2" ;;
    node-resume) cmd_node_resume "$2" ;;
  esac
) 9>"$STATE.lock"
