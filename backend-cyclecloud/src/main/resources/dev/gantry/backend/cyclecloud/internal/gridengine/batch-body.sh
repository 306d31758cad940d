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
