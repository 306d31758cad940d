# Gantry submit: claims the job's directory on the cluster, then submits its batch script exactly once.
# Arguments: $1 = the job directory, $2 = the batch script, $3 = the directory of Slurm's commands ("" or ending
# in /), $4 = the job's name in Slurm. Stdin: the job's environment file (written with mode 0600).
# Prints one line: SUBMITTED ID, ADOPTED ID (an earlier submit made it), BUSY (an earlier submit is still at it),
# CANCELLED (cancelled before it was submitted), FORGOTTEN (the job ran, and Slurm no longer knows its id), NO_WORKDIR, or FAILED and sbatch's message.
set -u
dir=$1
script=$2
bin=$3
name=$4
# A cut connection must not stop a submit halfway: what sbatch answers is recorded whatever happens to the caller.
trap '' HUP PIPE
record_id() {
  printf '%s\n' "$1" >"$dir/.slurm-id" && mv -f "$dir/.slurm-id" "$dir/slurm-id"
}
holder_alive() {
  holder=
  [ -r "$dir/claim" ] && read -r holder <"$dir/claim"
  [ -n "$holder" ] && kill -0 "$holder" 2>/dev/null
}
parent=${dir%/*}
[ -d "$parent" ] || mkdir -p -- "$parent" 2>/dev/null || { echo NO_WORKDIR; exit 0; }
# The claim is the directory itself: mkdir succeeds for one submit of a key, ever.
if ! mkdir -- "$dir" 2>/dev/null; then
  [ -d "$dir" ] || { echo NO_WORKDIR; exit 0; }
  n=0
  while [ ! -s "$dir/slurm-id" ] && [ "$n" -lt 100 ] && holder_alive; do
    sleep 0.1
    n=$((n + 1))
  done
  if [ -s "$dir/slurm-id" ]; then
    read -r id <"$dir/slurm-id"
    echo "ADOPTED $id"
    exit 0
  fi
  holder_alive && { echo BUSY; exit 0; }
  # The claim's holder died without recording an id. Its sbatch may have reached Slurm: ask by the job's name,
  # which is its key's alone.
  id=$("${bin}squeue" -h -t all -n "$name" -o %i 2>/dev/null | head -n 1)
  if [ -n "$id" ]; then
    record_id "$id"
    echo "ADOPTED $id"
    exit 0
  fi
  [ -e "$dir/started" ] && { echo FORGOTTEN; exit 0; }
fi
echo $$ >"$dir/claim"
old=$(umask)
umask 077
cat >"$dir/.env" && mv -f "$dir/.env" "$dir/env" || { echo "FAILED cannot write $dir/env"; exit 0; }
umask "$old"
printf '%s' "$script" >"$dir/.job.sh" && mv -f "$dir/.job.sh" "$dir/job.sh" || { echo "FAILED cannot write $dir/job.sh"; exit 0; }
# A cancel that came while this submit was on its way wins: nothing is submitted.
[ -e "$dir/cancelled" ] && { rm -f "$dir/env"; echo CANCELLED; exit 0; }
out=$("${bin}sbatch" --parsable "$dir/job.sh" 2>"$dir/sbatch.err")
status=$?
id=$(printf '%s\n' "$out" | tail -n 1)
id=${id%%;*}
case $id in
  *[!0-9]*|'') status=1 ;;
esac
if [ "$status" -ne 0 ]; then
  # Nothing was submitted: the key is free again for a corrected retry.
  message=$(tr '\n' ' ' <"$dir/sbatch.err")
  rm -rf -- "$dir"
  printf 'FAILED %s %s\n' "$message" "$out"
  exit 0
fi
record_id "$id"
echo "SUBMITTED $id"
