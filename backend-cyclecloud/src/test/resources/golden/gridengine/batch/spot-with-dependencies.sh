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
ge_bin=/opt/sge/bin/
rerunnable=y
require_success=job-prep
rank_script='# Gantry rank: one per node, started by srun on Slurm, by the job'\''s script on Grid Engine (one node). The job
# contract'\''s per-node variables come from Slurm'\''s (rank 0 of node 0 without them); then the workload'\''s command runs,
# its words exactly as given (they arrive as arguments, never as shell text).
# Arguments: $1 = the job directory, $2 = the working directory (empty: the home directory; -: the container'\''s),
# then the command.
RANK=${SLURM_PROCID:-0}
NODE_RANK=${SLURM_NODEID:-0}
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
set -u
# The job directory, Grid Engine's commands, whether the job is rerunnable and the dependencies it needs to have
# succeeded are the first assignments above this body.
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
# One node: rank 0 listens on it.
MASTER_ADDR=$(hostname)
export MASTER_ADDR
rm -f failure-*
/bin/sh -c "$rank_script" gantry-rank "$job_dir" /shared/home/alice/project printf '<%s>\n' 'it'\''s "quoted"' '$(touch injected)' '`touch injected`' $'line one\nline two' $'x\n#$ -N hijacked\n#$ -q nowhere' '' -n '$HOME' 'a;b|c&d' '*' '\' $'tab\there' $'bell\x07' 'grüße 模型 🚀' ' leading and trailing blanks ' >"$job_dir/rank-0.out" 2>"$job_dir/rank-0.err" </dev/null &
wait $!
finish $?
