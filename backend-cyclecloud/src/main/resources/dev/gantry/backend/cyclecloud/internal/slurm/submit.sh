# Gantry submit on Slurm (bash): the claim and the submit loop follow (login/claim.sh).
# sbatch --parsable answers ID or ID;CLUSTER; a job's name is Gantry's id, its key's alone.
id_file=slurm-id
# The submit command, run in $bin with the script's path after it: one process per job, nothing around it.
submit_command=(sbatch --parsable)
scheduler_find() { "${bin}squeue" -h -t all -n "$1" -o %i; }
