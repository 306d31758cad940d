# Gantry cancel, the part every scheduler shares (the scheduler's own lines above define id_file,
# scheduler_cancel ID and scheduler_forgot MESSAGE, true when the cancel's message says the scheduler no longer knows
# the job): marks the job cancelled, stops it and removes its environment file.
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
earlier=
[ -e "$dir/cancelled" ] && earlier=yes
# Marked before the scheduler is asked: a submit still on its way sees it and submits nothing.
date +%s >"$dir/.cancelled" && mv -f "$dir/.cancelled" "$dir/cancelled"
if [ -n "$sid" ]; then
  if ! out=$(scheduler_cancel "$sid" 2>&1); then
    if scheduler_forgot "$out"; then
      # Gone from the scheduler: cancelled by an earlier cancel (this one repeats it), or ended without its script's
      # own end (killed, its host lost), whose end stands.
      rm -f "$dir/env"
      if [ -n "$earlier" ]; then echo CANCELLED; else rm -f "$dir/cancelled"; echo ENDED; fi
      exit 0
    fi
    printf 'FAILED %s\n' "$out" | tr '\n' ' '
    echo
    exit 0
  fi
fi
rm -f "$dir/env"
echo CANCELLED
