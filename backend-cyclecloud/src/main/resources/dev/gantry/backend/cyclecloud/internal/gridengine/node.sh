# Gantry node on Grid Engine: one rank of a multi-host job on a host other than the job's first, started by the
# job's script through qrsh -inherit. It loads the job's environment from the job directory (nothing of it travels
# through qrsh), takes the master's address and this node's rank, and runs the rank with the job's command, whose
# words the job's script wrote NUL-separated to ./command.
# Arguments: $1 = this node's rank, $2 = MASTER_ADDR, $3 = GANTRY_RESUME.
job_dir=${0%/*}
exec >>"$job_dir/rank-$1.out" 2>>"$job_dir/rank-$1.err" </dev/null
cd "$job_dir" || exit 120
if [ ! -r env ]; then
  printf '%s\n' "gantry: $job_dir/env is missing on $(hostname): the job was cancelled or its environment removed" >&2
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
while IFS= read -r -d '' word; do
  words+=("$word")
done <"$job_dir/command"
exec /bin/sh "$job_dir/rank.sh" "$job_dir" "${words[@]}"
