# Gantry submit on Grid Engine (bash): the claim and the submit loop follow (login/claim.sh).
# qsub -terse answers the job number alone; a job's name is Gantry's id, its key's alone.
id_file=ge-id
# The submit command, run in $bin with the script's path after it: one process per job, nothing around it.
submit_command=(qsub -terse)
scheduler_find() { "${bin}qstat" -j "$1" 2>/dev/null | awk '$1 == "job_number:" { print $2; exit }'; }
