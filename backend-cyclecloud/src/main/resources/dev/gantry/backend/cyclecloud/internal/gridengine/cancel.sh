# Gantry cancel on Grid Engine: qdel; the rest follows (login/cancel.sh).
id_file=ge-id
scheduler_cancel() { "${bin}qdel" "$1"; }
scheduler_forgot() { case $1 in *"does not exist"*) return 0 ;; esac; return 1; }
