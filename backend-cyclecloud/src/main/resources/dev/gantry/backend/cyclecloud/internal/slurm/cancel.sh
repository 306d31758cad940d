# Gantry cancel on Slurm: scancel; the rest follows (login/cancel.sh).
id_file=slurm-id
scheduler_cancel() { "${bin}scancel" "$1"; }
