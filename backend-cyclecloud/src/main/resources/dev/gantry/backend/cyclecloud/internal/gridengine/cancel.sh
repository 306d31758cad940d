# Gantry cancel on Grid Engine: qdel; the rest follows (login/cancel.sh).
id_file=ge-id
scheduler_cancel() { "${bin}qdel" "$1"; }
