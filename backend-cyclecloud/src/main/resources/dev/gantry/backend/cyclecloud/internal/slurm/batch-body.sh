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
