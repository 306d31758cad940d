# Gantry cancel on Slurm: scancel; the rest follows (login/cancel.sh).
id_file=slurm-id
scheduler_cancel() { "${bin}scancel" "$1"; }
scheduler_forgot() { case $1 in *"Invalid job id"*) return 0 ;; esac; return 1; }
