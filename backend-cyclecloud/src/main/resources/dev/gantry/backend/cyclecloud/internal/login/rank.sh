# Gantry rank: one per node, started by srun on Slurm, by the job's script (and qrsh -inherit on the other hosts) on
# Grid Engine. The job contract's per-node variables come from Slurm's, else from GANTRY_NODE_RANK (Grid Engine's
# node script sets it), else rank 0 of node 0; then the workload's command runs, its words exactly as given (they
# arrive as arguments, never as shell text).
# Arguments: $1 = the job directory, $2 = the working directory (empty: the home directory; -: the container's),
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
  printf '%s\n' "$2" >&2
  printf '%s\n' "$2" >"$job_dir/.failure-$RANK" && mv -f "$job_dir/.failure-$RANK" "$job_dir/failure-$RANK"
  exit "$1"
}
# "-": in a container, whose own working directory (Pyxis's --container-workdir, else the image's) stands.
if [ "$work_dir" = - ]; then
  :
elif [ -n "$work_dir" ]; then
  cd "$work_dir" 2>/dev/null || fail 121 "gantry: the working directory $work_dir does not exist on $(hostname)"
else
  cd "$HOME" 2>/dev/null || cd /
fi
command -v "$1" >/dev/null 2>&1 || fail 127 "gantry: command not found: $1 (rank $RANK on $(hostname))"
exec "$@"
