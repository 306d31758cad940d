# Gantry submit on Slurm (bash): the claim and the submit loop follow (login/claim.sh).
# sbatch --parsable answers ID or ID;CLUSTER; a job's name is Gantry's id, its key's alone.
id_file=slurm-id
# The submit command, run in $bin with the script's path after it: one process per job, nothing around it.
submit_command=(sbatch --parsable)
scheduler_find() { "${bin}squeue" -h -t all -n "$1" -o %i; }
# An array's tasks are ARRAY_INDEX, each of them a job of its own for squeue, scancel and --dependency.
scheduler_submit_array() { "${bin}sbatch" --parsable --job-name="$1" --array="$2" "$3"; }
scheduler_find_array() { "${bin}squeue" -h -t all -r -n "$1" -o %F; }
task_id() { task=$1_$2; }
