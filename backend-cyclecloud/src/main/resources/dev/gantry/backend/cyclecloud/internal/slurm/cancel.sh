# Gantry cancel: marks the job cancelled, stops it with scancel and removes its environment file.
# Arguments: $1 = the job directory, $2 = the directory of Slurm's commands ("" or ending in /).
# Prints one line: CANCELLED, ENDED (it had ended: nothing changes), MISSING, or FAILED and scancel's message.
set -u
dir=$1
bin=$2
[ -d "$dir" ] || { echo MISSING; exit 0; }
[ -e "$dir/exit" ] && { echo ENDED; exit 0; }
sid=
[ -r "$dir/slurm-id" ] && read -r sid <"$dir/slurm-id"
sid=${sid%%;*}
date +%s >"$dir/.cancelled" && mv -f "$dir/.cancelled" "$dir/cancelled"
if [ -n "$sid" ]; then
  out=$("${bin}scancel" "$sid" 2>&1) || { printf 'FAILED %s\n' "$out" | tr '\n' ' '; echo; exit 0; }
fi
rm -f "$dir/env"
echo CANCELLED
