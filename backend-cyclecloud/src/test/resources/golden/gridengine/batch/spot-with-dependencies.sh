#!/bin/bash
#$ -N job-fit-1
#$ -q all.q
#$ -P ml-team
#$ -pe smp 4
#$ -l h_vmem=2048M
#$ -hold_jid 41,42
#$ -r y
#$ -o /shared/gantry/jobs/job-fit-1/gridengine-$JOB_ID.out
#$ -e /shared/gantry/jobs/job-fit-1/gridengine-$JOB_ID.err
#$ -wd /shared/gantry/jobs/job-fit-1
#$ -S /bin/bash
# Gantry job job-fit-1. Written by Gantry: the workload's variables and secrets are in ./env (mode 0600), never in this script.
job_dir=/shared/gantry/jobs/job-fit-1
nodes=1
ge_bin=/opt/sge/bin/
rerunnable=y
require_success=job-prep
rank_script='# Gantry rank: one per node, started by srun on Slurm, by the job'\''s script (and qrsh -inherit on the other hosts) on
# Grid Engine. The job contract'\''s per-node variables come from Slurm'\''s, else from GANTRY_NODE_RANK (Grid Engine'\''s
# node script sets it), else rank 0 of node 0; then the workload'\''s command runs, its words exactly as given (they
# arrive as arguments, never as shell text).
# Arguments: $1 = the job directory, $2 = the working directory (empty: the home directory; -: the container'\''s),
# then the command.
NODE_RANK=${SLURM_NODEID:-${GANTRY_NODE_RANK:-0}}
RANK=${SLURM_PROCID:-$NODE_RANK}
GANTRY_NODE_RANK=$NODE_RANK
LOCAL_RANK=0
export RANK NODE_RANK GANTRY_NODE_RANK LOCAL_RANK
job_dir=$1
work_dir=$2
shift 2
# A failure Gantry reports is written whole (temporary name, then rename), one file per rank.
fail() {
  printf '\''%s\n'\'' "$2" >&2
  printf '\''%s\n'\'' "$2" >"$job_dir/.failure-$RANK" && mv -f "$job_dir/.failure-$RANK" "$job_dir/failure-$RANK"
  exit "$1"
}
# "-": in a container, whose own working directory (Pyxis'\''s --container-workdir, else the image'\''s) stands.
if [ "$work_dir" = - ]; then
  :
elif [ -n "$work_dir" ]; then
  cd "$work_dir" 2>/dev/null || fail 121 "gantry: the working directory $work_dir does not exist on $(hostname)"
else
  cd "$HOME" 2>/dev/null || cd /
fi
command -v "$1" >/dev/null 2>&1 || fail 127 "gantry: command not found: $1 (rank $RANK on $(hostname))"
exec "$@"
'
node_script='# Gantry node on Grid Engine: one rank of a multi-host job on a host other than the job'\''s first, started by the
# job'\''s script through qrsh -inherit. It loads the job'\''s environment from the job directory (nothing of it travels
# through qrsh), takes the master'\''s address and this node'\''s rank, and runs the rank with the job'\''s command, whose
# words the job'\''s script wrote NUL-separated to ./command.
# Arguments: $1 = this node'\''s rank, $2 = MASTER_ADDR, $3 = GANTRY_RESUME.
job_dir=${0%/*}
exec >>"$job_dir/rank-$1.out" 2>>"$job_dir/rank-$1.err" </dev/null
cd "$job_dir" || exit 120
if [ ! -r env ]; then
  printf '\''%s\n'\'' "gantry: $job_dir/env is missing on $(hostname): the job was cancelled or its environment removed" >&2
  exit 122
fi
set -a
. ./env
set +a
MASTER_ADDR=$2
GANTRY_NODE_RANK=$1
GANTRY_RESUME=$3
export MASTER_ADDR GANTRY_NODE_RANK GANTRY_RESUME
words=()
while IFS= read -r -d '\'''\'' word; do
  words+=("$word")
done <"$job_dir/command"
exec /bin/sh "$job_dir/rank.sh" "$job_dir" "${words[@]}"
'
set -u
# The job directory, its node count, Grid Engine's commands, whether the job is rerunnable and the dependencies it
# needs to have succeeded are the first assignments above this body.
cd "$job_dir" || exit 120
PATH=${PATH:-/usr/local/bin:/usr/bin:/bin}
export PATH
# Grid Engine sets RESTARTED=1 on a rerun (after a reschedule, or its host was lost): one run more than the last.
run=0
if [ "${RESTARTED:-0}" = 1 ] && [ -r started ]; then
  read -r _ last _ <started
  run=$((last + 1))
fi
printf '%s %s %s\n' "$JOB_ID" "$run" "$(date +%s)" >.started && mv -f .started started
finish() {
  printf '%s %s %s\n' "$1" "$(date +%s)" "$run" >.exit && mv -f .exit exit
  rm -f "$job_dir/env"
  exit "$1"
}
# The environment file holds secrets: a job that can run again keeps it for the rerun, any other loses it.
trap '[ "$rerunnable" = y ] || rm -f "$job_dir/env"; exit 143' TERM USR1 USR2
if [ ! -r env ]; then
  printf '%s\n' "gantry: $job_dir/env is missing: the job was cancelled or its environment removed" >failure-batch
  finish 122
fi
# -hold_jid waits for the jobs to end, however they end: those this job needs to have succeeded are checked here,
# from their own exit records, before anything of the workload runs.
for dependency in $require_success; do
  code=
  [ -r "${job_dir%/*}/$dependency/exit" ] && read -r code _ <"${job_dir%/*}/$dependency/exit"
  if [ "$code" != 0 ]; then
    printf '%s %s\n' "$dependency" "${code:-none}" >.unsatisfied && mv -f .unsatisfied unsatisfied
    finish 125
  fi
done
set -a
. ./env
set +a
if [ "$run" -gt 0 ]; then
  GANTRY_RESUME=1
fi
# Rank 0 runs here, and listens on this host: by Grid Engine's name for it (the name the other hosts reach it by)
# when the job spans hosts.
if [ "$nodes" -gt 1 ]; then
  MASTER_ADDR=$HOSTNAME
else
  MASTER_ADDR=$(hostname)
fi
export MASTER_ADDR
rm -f failure-*
# ranks WORKDIR COMMAND...: the job's ranks, one per host, each rank's stdout and stderr in rank-N.out and
# rank-N.err; answers the first failing rank's exit status, else 0. Rank 0 runs here; the others start through
# qrsh -inherit on the other hosts Grid Engine granted the job ($PE_HOSTFILE), under its control (qdel and the
# job's end stop them too), and read the command from a file: qrsh joins its words into one line for a shell.
ranks() {
  local others count node pids code host
  if [ "$nodes" -eq 1 ]; then
    /bin/sh -c "$rank_script" gantry-rank "$job_dir" "$@" >"$job_dir/rank-0.out" 2>"$job_dir/rank-0.err" </dev/null &
    wait $!
    return
  fi
  others=$(awk -v me="$HOSTNAME" 'function short(h) { sub(/\..*/, "", h); return h }
    $1 != me && short($1) != short(me) && !seen[$1]++ { print $1 }' "$PE_HOSTFILE")
  count=$(($(printf '%s\n' "$others" | grep -c .) + 1))
  if [ "$count" -ne "$nodes" ]; then
    printf 'gantry: Grid Engine granted the job %s host(s) (%s), and it needs %s, one rank each: the parallel environment %s must allocate a fixed number of slots per host (allocation_rule N, qconf -sp %s)\n' \
      "$count" "$(awk '{ printf "%s%s", sep, $1; sep = " " }' "$PE_HOSTFILE")" "$nodes" "$PE" "$PE" >failure-batch
    return 123
  fi
  case $MASTER_ADDR in
    *[!A-Za-z0-9._-]*|"") printf 'gantry: this host is named %s, which is not a host name\n' "$MASTER_ADDR" >failure-batch; return 123 ;;
  esac
  printf '%s\0' "$@" >"$job_dir/.command" && mv -f "$job_dir/.command" "$job_dir/command" || return 120
  printf '%s' "$rank_script" >"$job_dir/rank.sh" && printf '%s' "$node_script" >"$job_dir/node.sh" || return 120
  /bin/sh -c "$rank_script" gantry-rank "$job_dir" "$@" >"$job_dir/rank-0.out" 2>"$job_dir/rank-0.err" </dev/null &
  pids=$!
  node=0
  for host in $others; do
    node=$((node + 1))
    : >"$job_dir/rank-$node.out"
    : >"$job_dir/rank-$node.err"
    # Every word of this line is Gantry's own: the job directory (one word of safe characters), numbers, a host name.
    "${ge_bin}qrsh" -inherit -nostdin "$host" /bin/bash "$job_dir/node.sh" "$node" "$MASTER_ADDR" "${GANTRY_RESUME:-0}" \
      </dev/null >/dev/null 2>>"$job_dir/rank-$node.err" &
    pids="$pids $!"
  done
  for _ in $pids; do
    wait -n
    code=$?
    if [ "$code" -ne 0 ]; then
      # As srun --kill-on-bad-exit: one rank failed, the others stop (the job's end stops the remote ones).
      kill $pids 2>/dev/null
      return "$code"
    fi
  done
  return 0
}
ranks /shared/home/alice/project printf '<%s>\n' 'it'\''s "quoted"' '$(touch injected)' '`touch injected`' $'line one\nline two' $'x\n#$ -N hijacked\n#$ -q nowhere' '' -n '$HOME' 'a;b|c&d' '*' '\' $'tab\there' $'bell\x07' 'grüße 模型 🚀' ' leading and trailing blanks '
finish $?
