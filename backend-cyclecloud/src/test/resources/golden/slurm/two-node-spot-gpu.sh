#!/bin/bash
#SBATCH --job-name=job-train-7
#SBATCH --partition=gpu
#SBATCH --account=ml-team
#SBATCH --qos=high
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=96
#SBATCH --gpus-per-node=8
#SBATCH --mem=1843200M
#SBATCH --time=1-06:00:00
#SBATCH --exclusive
#SBATCH --requeue
#SBATCH --dependency=afterok:41,afterany:42
#SBATCH --kill-on-invalid-dep=yes
#SBATCH --comment=gantry-depends-on=job-prep,job-data
#SBATCH --output=/shared/gantry/jobs/job-train-7/slurm-%j.out
#SBATCH --error=/shared/gantry/jobs/job-train-7/slurm-%j.err
#SBATCH --chdir=/shared/gantry/jobs/job-train-7
#SBATCH --export=NONE
# Gantry job job-train-7. Written by Gantry: the workload's variables and secrets are in ./env (mode 0600), never in this script.
job_dir=/shared/gantry/jobs/job-train-7
slurm_bin=/opt/slurm/bin/
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
set -u
# The job directory and Slurm's commands are the first assignments above this body.
cd "$job_dir" || exit 120
PATH=${PATH:-/usr/local/bin:/usr/bin:/bin}
export PATH
run=${SLURM_RESTART_COUNT:-0}
printf '%s %s %s\n' "$SLURM_JOB_ID" "$run" "$(date +%s)" >.started && mv -f .started started
# The environment file holds secrets: it is removed once the job has ended for good, and kept for a rerun when Slurm
# requeues the job (a node failure or a preemption stops this script too, by TERM or by failing its srun).
# requeued TRIES: whether Slurm is requeueing this job; a job still RUNNING, or COMPLETING (as a job being requeued
# with scontrol requeue is before it is PENDING again), is asked again, TRIES times in all, half a second apart (the
# controller may not have recorded yet why the job stops). Sets $state.
requeued() {
  local tries=$1 job
  while :; do
    job=$("${slurm_bin}scontrol" show job -o "$SLURM_JOB_ID" 2>/dev/null)
    state=$(printf '%s\n' "$job" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
    case $job in
      *" Requeue=1 "*) ;;
      *) state=ENDED ;; # never requeued: whatever stopped it, it does not run again
    esac
    case $state in
      RUNNING|COMPLETING|"") tries=$((tries - 1)); [ "$tries" -gt 0 ] || break ;;
      *) break ;;
    esac
    sleep 0.5
  done
  case $state in
    REQUEUE*|PENDING|PREEMPTED|NODE_FAIL|BOOT_FAIL|SUSPENDED|CONFIGURING) return 0 ;;
  esac
  return 1
}
# Stopped by a signal: a requeueable job that is still RUNNING for the controller keeps its environment.
forget_env() {
  requeued 10 || case $state in
    RUNNING|COMPLETING|"") ;;
    *) rm -f "$job_dir/env" ;;
  esac
}
finish() {
  # Ranks end, even with 0, when their node is taken down: a run Slurm requeues leaves no exit record and keeps env.
  # (A job that is not requeueable is answered at once; a requeueable one is asked twice, half a second apart.)
  if [ "$1" -ne 122 ] && requeued 2; then
    exit "$1"
  fi
  printf '%s %s %s\n' "$1" "$(date +%s)" "$run" >.exit && mv -f .exit exit
  rm -f "$job_dir/env"
  exit "$1"
}
trap 'forget_env; exit 143' TERM
if [ ! -r env ]; then
  printf '%s\n' "gantry: $job_dir/env is missing: the job was cancelled or its environment removed" >failure-batch
  finish 122
fi
set -a
. ./env
set +a
if [ "$run" -gt 0 ]; then
  GANTRY_RESUME=1
fi
# The ranks meet at the first node of the allocation, at the address Slurm itself reaches it by.
first=$("${slurm_bin}scontrol" show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
MASTER_ADDR=$("${slurm_bin}scontrol" show node -o "$first" 2>/dev/null | sed -n 's/.* NodeAddr=\([^ ]*\).*/\1/p')
MASTER_ADDR=${MASTER_ADDR:-$first}
export MASTER_ADDR
rm -f failure-* 
"${slurm_bin}srun" --export=ALL --ntasks-per-node=1 --kill-on-bad-exit=1 --output="$job_dir/rank-%t.out" --error="$job_dir/rank-%t.err" -- /bin/sh -c "$rank_script" gantry-rank "$job_dir" /shared/home/alice/llm bash -c 'torchrun --nnodes=$GANTRY_NUM_NODES --node_rank=$NODE_RANK --nproc_per_node=$GANTRY_GPUS_PER_NODE --master_addr=$MASTER_ADDR --master_port=$MASTER_PORT train.py' </dev/null &
wait $!
finish $?
