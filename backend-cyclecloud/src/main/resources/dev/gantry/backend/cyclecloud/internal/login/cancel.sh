# Gantry cancel, the part every scheduler shares (the scheduler's own lines above define id_file and
# scheduler_cancel ID): marks the job cancelled, stops it and removes its environment file.
# Arguments: $1 = the job directory, $2 = the directory of the scheduler's commands ("" or ending in /).
# Prints one line: CANCELLED, ENDED (it had ended: nothing changes), MISSING, or FAILED and the scheduler's message.
set -u
dir=$1
bin=$2
[ -d "$dir" ] || { echo MISSING; exit 0; }
[ -e "$dir/exit" ] && { echo ENDED; exit 0; }
sid=
[ -r "$dir/$id_file" ] && read -r sid <"$dir/$id_file"
sid=${sid%%;*}
date +%s >"$dir/.cancelled" && mv -f "$dir/.cancelled" "$dir/cancelled"
if [ -n "$sid" ]; then
  out=$(scheduler_cancel "$sid" 2>&1) || { printf 'FAILED %s\n' "$out" | tr '\n' ' '; echo; exit 0; }
fi
rm -f "$dir/env"
echo CANCELLED
